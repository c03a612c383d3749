"""The exact solver (solver.py) against an independent brute force.

The brute force works over *purchases* (what an agent buys), not over run vectors as the
solver does: for every legal purchase it finds the best runs that fit inside it, and the
joint maximum pairs purchases whose sum stays within supply.
"""

from __future__ import annotations

import itertools
import json
import math
from importlib import resources as importlib_resources

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from negotiation_env.games.resource import Scenario, list_scenarios, load_scenario, solve
from negotiation_env.games.resource.rules import validate_decision
from negotiation_env.games.resource.solver import individual_best

from .fixtures import APPENDIX

AGENTS = ("agent_a", "agent_b")
COSTS = (0.5, 1.0, 1.5, 2.0, 3.0)
EPS = 1e-9

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# --------------------------------------------------------------------------- tiny random scenarios


UNITS = st.one_of(st.integers(1, 2), st.integers(1, 5))
REWARD = st.one_of(st.integers(1, 3), st.integers(1, 30))  # small rewards make ties (several optima)


@st.composite
def tiny_scenarios(draw):
    n_res = draw(st.integers(2, 3))
    rids = [f"r{i + 1}" for i in range(n_res)]
    # supplies mostly positive and units small, so that most draws have something to fight over
    supply = st.integers(0, 6) if draw(st.integers(0, 4)) == 0 else st.integers(2, 6)
    resources = {rid: {"supply": draw(supply), "cost": draw(st.sampled_from(COSTS))} for rid in rids}
    projects = {}
    for agent in AGENTS:
        ps = {}
        for j in range(draw(st.integers(1, 3))):
            k = draw(st.integers(1, n_res))
            needed = draw(st.lists(st.sampled_from(rids), min_size=k, max_size=k, unique=True))
            ps[f"p{j + 1}"] = {
                "requires": {rid: draw(UNITS) for rid in needed},
                "reward": draw(REWARD),
            }
        projects[agent] = ps
    return Scenario.from_dict(
        {
            "name": "tiny",
            "resources": resources,
            "budget": draw(st.integers(0, 25) if draw(st.integers(0, 4)) == 0 else st.integers(4, 20)),
            "max_types": draw(st.integers(1, n_res)),
            "projects": projects,
        }
    )


# --------------------------------------------------------------------------- brute force


def _data(s: Scenario):
    supply = [r.supply for r in s.resources]
    cost = [r.cost for r in s.resources]
    return supply, cost


def brute_force(s: Scenario) -> dict:
    """V_i, M, ratio and the set of joint-optimal run-vector pairs, by plain enumeration."""
    supply, cost = _data(s)
    nR = len(supply)
    budget = float(s.budget)
    caps = [min(supply[r], math.floor(budget / cost[r] + EPS)) for r in range(nR)]

    def legal_purchase(q) -> bool:
        spent = sum(cost[r] * q[r] for r in range(nR))
        return spent <= budget + EPS and sum(1 for x in q if x > 0) <= s.max_types

    best: dict[str, dict[tuple[int, ...], float]] = {}
    runs_alone: dict[str, list[tuple[tuple[int, ...], tuple[int, ...], float]]] = {}
    for agent in AGENTS:
        projects = s.projects_of(agent)
        need = [[p.need(rid) for rid in s.resource_ids] for p in projects]
        rewards = [p.reward for p in projects]
        # a run vector never needs more runs than the cap of a resource it uses allows
        max_runs = [min(caps[r] // need[j][r] for r in range(nR) if need[j][r] > 0) for j in range(len(projects))]
        run_vecs = []
        for x in itertools.product(*(range(m + 1) for m in max_runs)):
            use = tuple(sum(need[j][r] * x[j] for j in range(len(x))) for r in range(nR))
            value = float(sum(rewards[j] * x[j] for j in range(len(x))))
            run_vecs.append((x, use, value))
        purchases = [q for q in itertools.product(*(range(c + 1) for c in caps)) if legal_purchase(q)]
        table = {}
        for q in purchases:
            table[q] = max(v for x, u, v in run_vecs if all(u[r] <= q[r] for r in range(nR)))
        best[agent] = table
        # run vectors the agent can run alone: budget, type limit and supply on their usage
        runs_alone[agent] = [
            (x, u, v) for x, u, v in run_vecs if all(u[r] <= supply[r] for r in range(nR)) and legal_purchase(u)
        ]

    V = {agent: max(best[agent].values()) for agent in AGENTS}

    # joint maximum over pairs of legal purchases that together stay within supply
    qa = np.array(list(best["agent_a"]), dtype=np.int64).reshape(-1, nR)
    qb = np.array(list(best["agent_b"]), dtype=np.int64).reshape(-1, nR)
    va = np.array(list(best["agent_a"].values()))
    vb = np.array(list(best["agent_b"].values()))
    fits = np.all(qa[:, None, :] + qb[None, :, :] <= np.array(supply), axis=2)
    M = float(np.where(fits, va[:, None] + vb[None, :], -np.inf).max())

    optima = set()
    for xa, ua, vA in runs_alone["agent_a"]:
        for xb, ub, vB in runs_alone["agent_b"]:
            if vA + vB == M and all(ua[r] + ub[r] <= supply[r] for r in range(nR)):
                optima.add((xa, xb))
    C = V["agent_a"] + V["agent_b"]
    return {"V": V, "M": M, "ratio": M / C if C > 0 else 1.0, "optima": optima}


def runs_vector(s: Scenario, agent: str, runs: dict[str, int]) -> tuple[int, ...]:
    return tuple(runs[p.name] for p in s.projects_of(agent))


def check_allocation(s: Scenario, alloc: dict[str, dict[str, int]]) -> float:
    """Verify independently that a joint allocation is feasible; return its value."""
    supply, cost = _data(s)
    total_use = [0] * len(supply)
    value = 0.0
    for agent, runs in alloc.items():
        assert set(runs) == {p.name for p in s.projects_of(agent)}
        use = [0] * len(supply)
        for p in s.projects_of(agent):
            n = runs[p.name]
            assert isinstance(n, int) and n >= 0
            value += p.reward * n
            for i, rid in enumerate(s.resource_ids):
                use[i] += p.need(rid) * n
        assert sum(c * u for c, u in zip(cost, use)) <= s.budget + EPS
        assert sum(1 for u in use if u > 0) <= s.max_types
        assert all(u <= sup for u, sup in zip(use, supply))
        total_use = [t + u for t, u in zip(total_use, use)]
    assert all(t <= sup for t, sup in zip(total_use, supply))
    return value


# --------------------------------------------------------------------------- hypothesis: solver == brute force


@SETTINGS
@given(tiny_scenarios())
def test_solver_matches_brute_force(s):
    bf = brute_force(s)
    enum = solve(s, "enumerate")
    mil = solve(s, "milp")
    for sol, method in ((enum, "enumerate"), (mil, "milp")):
        assert sol.method == method
        assert sol.individual_max == pytest.approx(bf["V"])
        assert sol.joint_max == pytest.approx(bf["M"])
        assert sol.ratio == pytest.approx(bf["ratio"])
        assert sol.C == pytest.approx(sum(bf["V"].values()))
        # the reported allocations are feasible and achieve the reported values
        assert check_allocation(s, sol.joint_allocation) == pytest.approx(bf["M"])
        for agent in AGENTS:
            assert check_allocation(s, {agent: sol.individual_allocation[agent]}) == pytest.approx(bf["V"][agent])
    assert mil.n_joint_optima is None
    # every joint optimum, counted as distinct (runs_a, runs_b) pairs
    assert enum.n_joint_optima == len(bf["optima"])
    got = {
        (tuple(n for _, n in ra), tuple(n for _, n in rb)) for ra, rb in enum.joint_optima
    }
    assert len(got) == len(enum.joint_optima)  # no duplicates
    assert got == bf["optima"]
    assert (
        runs_vector(s, "agent_a", enum.joint_allocation["agent_a"]),
        runs_vector(s, "agent_b", enum.joint_allocation["agent_b"]),
    ) in bf["optima"]
    # M never exceeds C and is at least each V_i (the other agent can abstain)
    assert bf["M"] <= sum(bf["V"].values()) + EPS
    assert bf["M"] >= max(bf["V"].values()) - EPS


@SETTINGS
@given(tiny_scenarios(), st.sampled_from(AGENTS))
def test_individual_best_is_optimal_and_legal(s, agent):
    purchase, runs = individual_best(s, agent)
    V = solve(s, "milp").individual_max[agent]
    assert set(purchase) == set(s.resource_ids)
    assert set(runs) == {p.name for p in s.projects_of(agent)}
    value = sum(p.reward * runs[p.name] for p in s.projects_of(agent))
    assert value == pytest.approx(V)
    # buys exactly what the runs consume, never more than the supply
    for rid in s.resource_ids:
        assert purchase[rid] == sum(p.need(rid) * runs[p.name] for p in s.projects_of(agent))
        assert purchase[rid] <= s.resource(rid).supply
    d = validate_decision(s, agent, purchase, runs)
    assert d.runs_dict() == runs


# --------------------------------------------------------------------------- exact cases




@pytest.mark.parametrize("method", ["enumerate", "milp", "auto"])
def test_appendix_exact(method):
    # agent_a: project_a x5 on 10 units of r2 (cost 15) -> 30; project_b needs r1 and r3,
    # so it cannot be mixed with r2 under max_types 2, and alone yields only 15.
    # agent_b: project_a x6 on all 6 units of r3 (cost 18) -> 36.
    # They need different resources, so M = 66 and the ratio is 1.
    s = Scenario.from_dict(APPENDIX)
    sol = solve(s, method)
    assert sol.individual_max == {"agent_a": 30.0, "agent_b": 36.0}
    assert sol.joint_max == 66.0
    assert sol.ratio == 1.0
    assert sol.joint_allocation == {
        "agent_a": {"project_a": 5, "project_b": 0, "project_c": 0},
        "agent_b": {"project_a": 6, "project_b": 0, "project_c": 0},
    }
    if method != "milp":
        assert sol.method == "enumerate"
        assert sol.n_joint_optima == 1


@pytest.mark.parametrize("method", ["enumerate", "milp"])
def test_zero_budget_ratio_is_one(method):
    d = json.loads(json.dumps(APPENDIX))
    d["budget"] = 0
    sol = solve(Scenario.from_dict(d), method)
    assert sol.individual_max == {"agent_a": 0.0, "agent_b": 0.0}
    assert sol.joint_max == 0.0
    assert sol.ratio == 1.0
    if method == "enumerate":
        assert sol.n_joint_optima == 1  # both agents do nothing


def test_contested_resource_exact():
    # one resource, supply 4, cost 1, budget 4: each agent alone takes all 4 units.
    # a: 1 unit -> 5 per run; b: 2 units -> 6 per run. V_a = 20, V_b = 12.
    # Joint: a*x + b*y with x + 2y <= 4 -> x=4 (20), x=2,y=1 (16), y=2 (12): M = 20.
    s = Scenario.from_dict(
        {
            "name": "contested",
            "resources": {"r1": {"supply": 4, "cost": 1.0}},
            "budget": 4,
            "max_types": 1,
            "projects": {
                "agent_a": {"p": {"requires": {"r1": 1}, "reward": 5}},
                "agent_b": {"q": {"requires": {"r1": 2}, "reward": 6}},
            },
        }
    )
    for method in ("enumerate", "milp"):
        sol = solve(s, method)
        assert sol.individual_max == {"agent_a": 20.0, "agent_b": 12.0}
        assert sol.joint_max == 20.0
        assert sol.ratio == pytest.approx(20 / 32)
    assert solve(s, "enumerate").n_joint_optima == 1
    assert individual_best(s, "agent_b") == ({"r1": 4}, {"q": 2})


def test_bogus_method():
    with pytest.raises(ValueError, match="bogus"):
        solve(Scenario.from_dict(APPENDIX), method="bogus")


# --------------------------------------------------------------------------- shipped scenarios


LEVELS = {"mc050": 0.5, "mc080": 0.8, "mc100": 1.0}


def _raw(name: str) -> dict:
    f = importlib_resources.files("negotiation_env.games.resource") / "scenarios" / f"{name}.json"
    return json.loads(f.read_text(encoding="utf-8"))


def test_each_level_has_two_scenarios():
    names = list_scenarios()
    for level in LEVELS:
        assert sum(1 for n in names if n.startswith(level + "_")) >= 2, level
    assert all(n.split("_")[0] in LEVELS for n in names)


@pytest.mark.parametrize("name", list_scenarios())
def test_shipped_scenario(name):
    s = load_scenario(name)
    level = LEVELS[name.split("_")[0]]
    sol = solve(s, "enumerate")
    assert abs(sol.ratio - level) <= 0.05
    assert sol.individual_max["agent_a"] == sol.individual_max["agent_b"]
    assert sol.n_joint_optima >= 2
    # the brute force agrees on the shipped files too
    bf = brute_force(s)
    assert sol.individual_max == pytest.approx(bf["V"])
    assert sol.joint_max == pytest.approx(bf["M"])
    assert sol.n_joint_optima == len(bf["optima"])
    mil = solve(s, "milp")
    assert mil.joint_max == pytest.approx(sol.joint_max)
    assert mil.individual_max == pytest.approx(sol.individual_max)
    # the figures recorded in the file
    meta = _raw(name)["meta"]
    assert meta["target_ratio"] == level
    assert meta["individual_max"] == pytest.approx(sol.individual_max)
    assert meta["joint_max"] == pytest.approx(sol.joint_max)
    assert meta["ratio"] == pytest.approx(sol.ratio, abs=5e-5)  # stored to 4 decimals
    assert meta["n_joint_optima"] == sol.n_joint_optima
    # individual_best is optimal and legal on the shipped files
    for agent in AGENTS:
        purchase, runs = individual_best(s, agent)
        assert sum(p.reward * runs[p.name] for p in s.projects_of(agent)) == sol.individual_max[agent]
        validate_decision(s, agent, purchase, runs)


# --------------------------------------------------------------------------- a larger random scenario


def _big(seed: int) -> Scenario:
    rng = np.random.default_rng(seed)
    rids = [f"r{i + 1}" for i in range(6)]
    resources = {
        rid: {"supply": int(rng.integers(5, 16)), "cost": float(rng.choice([0.5, 1.0, 1.5, 2.0, 2.5, 3.0]))}
        for rid in rids
    }
    projects = {}
    for agent in AGENTS:
        ps = {}
        for j in range(6):
            k = int(rng.integers(1, 4))
            chosen = sorted(rng.choice(6, size=k, replace=False).tolist())
            ps[f"project_{j + 1}"] = {
                "requires": {rids[c]: int(rng.integers(1, 5)) for c in chosen},
                "reward": int(rng.integers(1, 31)),
            }
        projects[agent] = ps
    return Scenario.from_dict(
        {"name": f"big{seed}", "resources": resources, "budget": 30, "max_types": 3, "projects": projects}
    )


@pytest.mark.parametrize("seed", [0, 4, 7])
def test_big_random_scenario_milp_equals_enumerate(seed):
    s = _big(seed)
    assert len(s.resources) == 6 and all(len(s.projects_of(a)) == 6 for a in AGENTS)
    mil = solve(s, "milp")
    enum = solve(s, "enumerate")
    auto = solve(s)
    assert mil.joint_max == pytest.approx(enum.joint_max)
    assert mil.individual_max == pytest.approx(enum.individual_max)
    assert auto.joint_max == pytest.approx(enum.joint_max)
    assert auto.individual_max == pytest.approx(enum.individual_max)
    assert mil.ratio == pytest.approx(enum.ratio)
    assert enum.joint_max > 0
    # allocations checked independently of the solver
    assert check_allocation(s, mil.joint_allocation) == pytest.approx(mil.joint_max)
    assert check_allocation(s, enum.joint_allocation) == pytest.approx(enum.joint_max)
    for agent in AGENTS:
        assert check_allocation(s, {agent: mil.individual_allocation[agent]}) == pytest.approx(mil.individual_max[agent])
    # M is between max V_i and C
    assert max(enum.individual_max.values()) <= enum.joint_max <= enum.C + EPS
