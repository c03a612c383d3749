"""Tests of the rules layer of the resource game (rules.py, scenario.py).

Every expectation is computed independently inside the test (hand-computed numbers or a
separate re-implementation), never by calling the helper under test a second time.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from negotiation_env.games.resource import (
    Scenario,
    ScenarioError,
    list_scenarios,
    load_scenario,
)
from negotiation_env.games.resource.rules import (
    Decision,
    InvalidDecision,
    auto_assign,
    purchase_cost,
    resolve_round,
    runs_usage,
    validate_decision,
    zero_decision,
)

from .fixtures import APPENDIX

AGENTS = ("agent_a", "agent_b")
COSTS = (0.5, 1.0, 1.5, 2.0, 3.0)
EPS = 1e-9

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# --------------------------------------------------------------------------- strategies


@st.composite
def scenario_dicts(draw, max_resources: int = 4, max_projects: int = 4):
    n_res = draw(st.integers(1, max_resources))
    rids = [f"r{i + 1}" for i in range(n_res)]
    resources = {
        rid: {"supply": draw(st.integers(0, 12)), "cost": draw(st.sampled_from(COSTS))} for rid in rids
    }
    budget = draw(st.integers(0, 25))
    max_types = draw(st.integers(1, n_res))
    projects = {}
    for agent in AGENTS:
        n_proj = draw(st.integers(1, max_projects))
        ps = {}
        for j in range(n_proj):
            k = draw(st.integers(1, min(3, n_res)))
            needed = draw(st.lists(st.sampled_from(rids), min_size=k, max_size=k, unique=True))
            ps[f"project_{chr(ord('a') + j)}"] = {
                "requires": {rid: draw(st.integers(1, 5)) for rid in needed},
                "reward": draw(st.integers(1, 30)),
            }
        projects[agent] = ps
    return {
        "name": "random",
        "resources": resources,
        "budget": budget,
        "max_types": max_types,
        "projects": projects,
    }


scenarios = scenario_dicts().map(Scenario.from_dict)


# --------------------------------------------------------------------------- independent reference code


def ref_cost(s: Scenario, purchase: dict[str, int]) -> float:
    costs = {r.id: r.cost for r in s.resources}
    total = 0.0
    for rid, q in purchase.items():
        total += costs[rid] * q
    return total


def ref_usage(s: Scenario, agent: str, runs: dict[str, int]) -> dict[str, int]:
    use = {rid: 0 for rid in s.resource_ids}
    for p in s.projects_of(agent):
        for rid, units in p.requires:
            use[rid] += units * runs.get(p.name, 0)
    return use


def ref_greedy(s: Scenario, agent: str, purchase: dict[str, int]) -> dict[str, int]:
    """Presented order, each project as many runs as fit, one run at a time."""
    left = {rid: purchase.get(rid, 0) for rid in s.resource_ids}
    out = {}
    for p in s.projects_of(agent):
        n = 0
        while all(left[rid] >= units for rid, units in p.requires):
            for rid, units in p.requires:
                left[rid] -= units
            n += 1
        out[p.name] = n
    return out


def ref_paid(s: Scenario, agent: str, purchase: dict[str, int], declared: dict[str, int] | None) -> dict[str, int]:
    """One run at a time: declared runs in presented order while the purchase covers
    them, then :func:`ref_greedy` on what is left."""
    if declared is None:
        return ref_greedy(s, agent, purchase)
    left = {rid: purchase.get(rid, 0) for rid in s.resource_ids}
    out = {}
    for p in s.projects_of(agent):
        n = 0
        while n < declared.get(p.name, 0) and all(left[rid] >= units for rid, units in p.requires):
            for rid, units in p.requires:
                left[rid] -= units
            n += 1
        out[p.name] = n
    extra = ref_greedy(s, agent, left)
    return {k: n + extra[k] for k, n in out.items()}


def ref_reward(s: Scenario, agent: str, runs: dict[str, int]) -> float:
    return float(sum(p.reward * runs.get(p.name, 0) for p in s.projects_of(agent)))


# --------------------------------------------------------------------------- the Appendix example



@pytest.fixture
def appendix() -> Scenario:
    return Scenario.from_dict(copy.deepcopy(APPENDIX))


def test_appendix_parsed_exactly(appendix):
    assert appendix.agents == AGENTS
    assert appendix.resource_ids == ("r1", "r2", "r3")
    assert [(r.supply, r.cost) for r in appendix.resources] == [(10, 1.0), (10, 1.5), (6, 3.0)]
    assert appendix.budget == 18 and appendix.max_types == 2
    assert appendix.requirement_matrix("agent_a") == [[0, 2, 0], [5, 0, 3], [0, 4, 0]]
    assert [p.reward for p in appendix.projects_of("agent_a")] == [6, 15, 10]


def test_appendix_r2_only_auto_assigns_project_a_five_times(appendix):
    d = validate_decision(appendix, "agent_a", {"r2": 10}, None)
    assert d.auto_assigned is True
    assert d.purchase == (("r1", 0), ("r2", 10), ("r3", 0))
    assert d.runs == (("project_a", 5), ("project_b", 0), ("project_c", 0))
    out = resolve_round(appendix, {"agent_a": d, "agent_b": zero_decision(appendix, "agent_b")})
    assert out.reward("agent_a") == 30.0
    assert out.reward("agent_b") == 0.0
    assert out.kind_of("agent_a") == "standard"
    assert out.kind_of("agent_b") == "no_runs"
    assert out.overdraw is False and out.overdrawn_resources == ()
    assert out.joint_reward == 30.0


def test_appendix_project_b_once(appendix):
    assert purchase_cost(appendix, {"r1": 5, "r3": 3}) == pytest.approx(14.0)
    d = validate_decision(appendix, "agent_a", {"r1": 5, "r3": 3}, {"project_b": 1})
    assert d.auto_assigned is False
    assert d.runs == (("project_a", 0), ("project_b", 1), ("project_c", 0))
    out = resolve_round(appendix, {"agent_a": d, "agent_b": zero_decision(appendix, "agent_b")})
    assert out.reward("agent_a") == 15.0


def test_appendix_three_types_refused_for_types_only(appendix):
    # cost 5*1.0 + 2*1.5 + 3*3.0 = 17 <= 18: only the type limit is broken
    assert purchase_cost(appendix, {"r1": 5, "r2": 2, "r3": 3}) == pytest.approx(17.0)
    with pytest.raises(InvalidDecision) as e:
        validate_decision(appendix, "agent_a", {"r1": 5, "r2": 2, "r3": 3}, {"project_a": 1, "project_b": 1})
    assert len(e.value.problems) == 1
    msg = e.value.problems[0]
    assert "3 resource types bought" in msg and "at most 2 allowed" in msg
    assert "budget" not in str(e.value)


def test_appendix_over_budget(appendix):
    # 10*1.0 + 3*3.0 = 19 > 18
    with pytest.raises(InvalidDecision) as e:
        validate_decision(appendix, "agent_a", {"r1": 10, "r3": 3}, None)
    assert e.value.problems == ["total cost $19 exceeds the budget of $18"]


def test_appendix_budget_and_types_both_named(appendix):
    # 10*1.0 + 2*1.5 + 3*3.0 = 22 > 18 and three types
    with pytest.raises(InvalidDecision) as e:
        validate_decision(appendix, "agent_a", {"r1": 10, "r2": 2, "r3": 3}, None)
    text = " | ".join(e.value.problems)
    assert len(e.value.problems) == 2
    assert "total cost $22 exceeds the budget of $18" in text
    assert "3 resource types bought" in text


def test_appendix_exact_budget_is_legal(appendix):
    # 12 * 1.5 = 18 == budget
    d = validate_decision(appendix, "agent_a", {"r2": 12}, None)
    assert d.purchase_dict() == {"r1": 0, "r2": 12, "r3": 0}
    # 6 runs of project_a fit in 12 units of r2
    assert d.runs_dict() == {"project_a": 6, "project_b": 0, "project_c": 0}


def test_appendix_declared_runs_cut_to_the_purchase_then_completed(appendix):
    # D.1.2: "sum of (runs × reward) for each project you can complete with your
    # purchased resources". Three runs of project_c need 12 r2; 10 bought: project_c runs
    # twice (8 r2) and the 2 r2 left complete one run of project_a.
    d = validate_decision(appendix, "agent_a", {"r2": 10}, {"project_c": 3})
    assert d.declared == (("project_a", 0), ("project_b", 0), ("project_c", 3))
    assert d.runs == (("project_a", 1), ("project_b", 0), ("project_c", 2))
    assert d.auto_assigned is False and d.adjusted is True
    out = resolve_round(appendix, {"agent_a": d, "agent_b": zero_decision(appendix, "agent_b")})
    assert out.reward("agent_a") == 6 + 2 * 10
    assert out.kind_of("agent_a") == "standard"
    # short by a single unit: 11 r2 still pay project_c twice and project_a once (1 r2 idle)
    d = validate_decision(appendix, "agent_a", {"r2": 11}, {"project_c": 3})
    assert d.runs_dict() == {"project_a": 1, "project_b": 0, "project_c": 2}
    # runs the purchase covers are paid as declared, nothing adjusted
    d = validate_decision(appendix, "agent_a", {"r2": 10}, {"project_c": 2, "project_a": 1})
    assert d.runs_dict() == {"project_a": 1, "project_b": 0, "project_c": 2}
    assert d.adjusted is False


def test_appendix_declared_runs_leave_nothing_completable_unpaid(appendix):
    # declared runs that leave part of the purchase unused: the rest runs further projects
    d = validate_decision(appendix, "agent_a", {"r2": 12}, {"project_c": 1})
    assert d.runs_dict() == {"project_a": 4, "project_b": 0, "project_c": 1}
    assert d.declared_dict() == {"project_a": 0, "project_b": 0, "project_c": 1}


def test_appendix_zero_run_declaration_with_a_completing_purchase_is_paid(appendix):
    # declaring no run while buying what completes five runs of project_a: paid, and the
    # round is a standard one (its notice must not say no run could be completed)
    d = validate_decision(appendix, "agent_a", {"r2": 10}, {"project_a": 0})
    assert d.runs_dict() == {"project_a": 5, "project_b": 0, "project_c": 0}
    out = resolve_round(appendix, {"agent_a": d, "agent_b": zero_decision(appendix, "agent_b")})
    assert out.kind_of("agent_a") == "standard" and out.reward("agent_a") == 30.0
    # a purchase that completes no run of any project is the one no_runs round
    d = validate_decision(appendix, "agent_a", {"r2": 1, "r3": 2}, {"project_a": 1})
    assert d.runs_dict() == {"project_a": 0, "project_b": 0, "project_c": 0}
    out = resolve_round(appendix, {"agent_a": d, "agent_b": zero_decision(appendix, "agent_b")})
    assert out.kind_of("agent_a") == "no_runs" and out.reward("agent_a") == 0.0


def test_appendix_themed_names_in_messages(appendix):
    theme = {"r1": "wood", "r2": "stone", "r3": "iron"}
    with pytest.raises(InvalidDecision) as e:
        validate_decision(appendix, "agent_a", {"r1": 1, "r2": 1, "r3": 1}, None, name=theme.get)
    assert e.value.problems == ["3 resource types bought (wood, stone, iron); at most 2 allowed"]
    with pytest.raises(InvalidDecision) as e:
        validate_decision(appendix, "agent_a", {"r9": 1}, None, name=theme.get)
    assert e.value.problems == ["unknown resource 'r9' (valid: wood, stone, iron)"]


def test_appendix_alone_over_supply_is_legal_but_annuls(appendix):
    # r2 supply is 10; buying 12 alone is a legal decision (cost 18 == budget)
    d_a = validate_decision(appendix, "agent_a", {"r2": 12}, {"project_a": 6})
    d_b = validate_decision(appendix, "agent_b", {"r3": 3}, {"project_a": 3})
    out = resolve_round(appendix, {"agent_a": d_a, "agent_b": d_b})
    assert out.overdraw is True
    assert out.overdrawn_resources == ("r2",)
    assert out.rewards == (("agent_a", 0.0), ("agent_b", 0.0))
    assert out.kind == (("agent_a", "annulled"), ("agent_b", "annulled"))
    assert out.joint_reward == 0.0


def test_appendix_joint_overdraw_and_exact_supply(appendix):
    # r3 supply 6: 3 + 3 is exactly the supply -> not an overdraw
    d_a = validate_decision(appendix, "agent_a", {"r1": 5, "r3": 3}, {"project_b": 1})
    d_b = validate_decision(appendix, "agent_b", {"r3": 3}, None)  # auto: project_a x3
    assert d_b.runs_dict() == {"project_a": 3, "project_b": 0, "project_c": 0}
    out = resolve_round(appendix, {"agent_a": d_a, "agent_b": d_b})
    assert out.overdraw is False
    assert out.rewards == (("agent_a", 15.0), ("agent_b", 18.0))
    assert out.kind == (("agent_a", "standard"), ("agent_b", "standard"))
    # one more unit of r3 on agent_b's side: 3 + 4 > 6, and r1 5 + 2 <= 10
    d_b2 = validate_decision(appendix, "agent_b", {"r1": 2, "r3": 4}, None)
    out2 = resolve_round(appendix, {"agent_a": d_a, "agent_b": d_b2})
    assert out2.overdraw is True
    assert out2.overdrawn_resources == ("r3",)
    assert out2.rewards == (("agent_a", 0.0), ("agent_b", 0.0))


def test_appendix_empty_runs_declaration_is_paid_what_the_purchase_completes(appendix):
    d_a = validate_decision(appendix, "agent_a", {"r2": 10}, {})
    assert d_a.runs_dict() == {"project_a": 5, "project_b": 0, "project_c": 0}
    assert d_a.declared_dict() == {"project_a": 0, "project_b": 0, "project_c": 0}
    assert d_a.auto_assigned is False
    out = resolve_round(appendix, {"agent_a": d_a, "agent_b": zero_decision(appendix, "agent_b")})
    assert out.kind == (("agent_a", "standard"), ("agent_b", "no_runs"))
    assert out.rewards == (("agent_a", 30.0), ("agent_b", 0.0))


def test_auto_assign_follows_presented_order_not_optimum(appendix):
    # project_c (r2:4, reward 10) first: 2 runs use 8 units, project_a runs once on the
    # remaining 2 -> 26, whereas project_a first gives 5 runs -> 30.
    d = copy.deepcopy(APPENDIX)
    pa = d["projects"]["agent_a"]
    d["projects"]["agent_a"] = {"project_c": pa["project_c"], "project_a": pa["project_a"], "project_b": pa["project_b"]}
    s = Scenario.from_dict(d)
    assert auto_assign(s.projects_of("agent_a"), {"r2": 10}) == {"project_c": 2, "project_a": 1, "project_b": 0}
    assert auto_assign(appendix.projects_of("agent_a"), {"r2": 10}) == {"project_a": 5, "project_b": 0, "project_c": 0}
    assert auto_assign(appendix.projects_of("agent_a"), {"r1": 11, "r3": 7}) == {
        "project_a": 0,
        "project_b": 2,
        "project_c": 0,
    }


def test_runs_usage_exact(appendix):
    assert runs_usage(appendix.projects_of("agent_a"), {"project_a": 2, "project_b": 1}) == {"r2": 4, "r1": 5, "r3": 3}
    assert runs_usage(appendix.projects_of("agent_a"), {}) == {}


def test_budget_tolerance_float_sum():
    # 3 * 0.1 = 0.30000000000000004 > 0.3 in floating point, within the 1e-9 tolerance
    s = Scenario.from_dict(
        {
            "name": "tol",
            "resources": {"r1": {"supply": 10, "cost": 0.1}},
            "budget": 0.3,
            "max_types": 1,
            "projects": {
                "agent_a": {"p": {"requires": {"r1": 1}, "reward": 1}},
                "agent_b": {"p": {"requires": {"r1": 1}, "reward": 1}},
            },
        }
    )
    assert 0.1 * 3 > 0.3
    d = validate_decision(s, "agent_a", {"r1": 3}, None)
    assert d.runs_dict() == {"p": 3}
    with pytest.raises(InvalidDecision, match="exceeds the budget"):
        validate_decision(s, "agent_a", {"r1": 4}, None)


@pytest.mark.parametrize(
    "purchase, runs, fragment",
    [
        ({"r9": 1}, None, "unknown resource 'r9'"),
        ({"r1": -1}, None, "must be a non-negative integer"),
        ({"r1": 1.0}, None, "must be a non-negative integer"),
        ({"r1": True}, None, "must be a non-negative integer"),
        ({"r1": "2"}, None, "must be a non-negative integer"),
        ({"r2": 2}, {"nope": 1}, "unknown project 'nope'"),
        ({"r2": 2}, {"project_a": -1}, "runs of 'project_a' must be a non-negative integer"),
        ({"r2": 2}, {"project_a": 1.0}, "runs of 'project_a' must be a non-negative integer"),
        ({"r2": 2}, {"project_a": True}, "runs of 'project_a' must be a non-negative integer"),
    ],
)
def test_malformed_decisions(appendix, purchase, runs, fragment):
    with pytest.raises(InvalidDecision) as e:
        validate_decision(appendix, "agent_a", purchase, runs)
    assert any(fragment in p for p in e.value.problems), e.value.problems
    assert str(e.value) == "; ".join(e.value.problems)


# --------------------------------------------------------------------------- validate_decision properties


@st.composite
def decision_cases(draw):
    s = draw(scenarios)
    agent = draw(st.sampled_from(AGENTS))
    projects = s.projects_of(agent)
    mode = draw(st.sampled_from(["none", "random", "fitted", "single"]))
    runs = None
    if mode in ("random", "fitted"):
        top = 3 if mode == "random" else 1
        runs = {p.name: draw(st.integers(0, top)) for p in projects if draw(st.booleans())}
    elif mode == "single":
        runs = {draw(st.sampled_from(projects)).name: 1}
    if mode in ("fitted", "single"):
        use = ref_usage(s, agent, runs)
        purchase = {rid: max(0, use[rid] + draw(st.integers(-1, 2))) for rid in s.resource_ids}
        used = [rid for rid in s.resource_ids if use[rid] > 0]
        if used and draw(st.booleans()):  # make one resource short of what the runs need
            rid = draw(st.sampled_from(used))
            purchase[rid] = use[rid] - draw(st.one_of(st.just(1), st.integers(1, use[rid])))
        purchase = {rid: q for rid, q in purchase.items() if q > 0 or draw(st.booleans())}
    else:
        purchase = {
            rid: draw(st.integers(0, 14)) for rid in s.resource_ids if draw(st.integers(0, 2)) > 0
        }
    return s, agent, purchase, runs


@SETTINGS
@given(decision_cases())
def test_validate_decision_accepts_iff_rules_hold(case):
    s, agent, purchase, runs = case
    cost = ref_cost(s, purchase)
    over_budget = cost > s.budget + EPS
    n_types = sum(1 for q in purchase.values() if q > 0)
    too_many_types = n_types > s.max_types
    legal = not (over_budget or too_many_types)

    if legal:
        d = validate_decision(s, agent, purchase, runs)
        assert isinstance(d, Decision)
        assert d.purchase == tuple((rid, purchase.get(rid, 0)) for rid in s.resource_ids)
        expected_runs = ref_paid(s, agent, purchase, runs)
        assert d.runs == tuple((p.name, expected_runs.get(p.name, 0)) for p in s.projects_of(agent))
        assert d.auto_assigned is (runs is None)
        assert d.declared_dict() == (None if runs is None else {p.name: runs.get(p.name, 0)
                                                                for p in s.projects_of(agent)})
        # every run the purchase completes is paid: nothing left over completes one more run
        use = ref_usage(s, agent, expected_runs)
        left = {rid: purchase.get(rid, 0) - use[rid] for rid in s.resource_ids}
        assert min(left.values()) >= 0
        assert not any(all(left[rid] >= u for rid, u in p.requires) for p in s.projects_of(agent))
    else:
        with pytest.raises(InvalidDecision) as e:
            validate_decision(s, agent, purchase, runs)
        problems = e.value.problems
        assert problems
        text = " | ".join(problems)
        assert ("exceeds the budget" in text) == over_budget
        assert ("resource types bought" in text) == too_many_types
        if too_many_types:
            assert f"{n_types} resource types bought" in text
            assert f"at most {s.max_types} allowed" in text
        assert "not covered" not in text


# --------------------------------------------------------------------------- auto_assign properties


@st.composite
def assign_cases(draw):
    s = draw(scenarios)
    agent = draw(st.sampled_from(AGENTS))
    purchase = {rid: draw(st.integers(0, 20)) for rid in s.resource_ids if draw(st.integers(0, 3)) > 0}
    return s, agent, purchase


@SETTINGS
@given(assign_cases())
def test_auto_assign_greedy_in_presented_order(case):
    s, agent, purchase = case
    projects = s.projects_of(agent)
    runs = auto_assign(projects, purchase)
    assert list(runs) == [p.name for p in projects]
    assert all(isinstance(n, int) and n >= 0 for n in runs.values())
    # independent greedy re-implementation
    assert runs == ref_greedy(s, agent, purchase)
    # usage never exceeds the purchase
    use = ref_usage(s, agent, runs)
    left = {rid: purchase.get(rid, 0) - use[rid] for rid in s.resource_ids}
    assert all(v >= 0 for v in left.values())
    # every project was maxed on its turn: none could run once more on the leftover
    for p in projects:
        assert any(left[rid] < units for rid, units in p.requires), p.name
    # maxing in order: removing later projects' consumption, project i still could not run again
    consumed = {rid: 0 for rid in s.resource_ids}
    for p in projects:
        for rid, units in p.requires:
            consumed[rid] += units * runs[p.name]
        remaining = {rid: purchase.get(rid, 0) - consumed[rid] for rid in s.resource_ids}
        assert any(remaining[rid] < units for rid, units in p.requires), p.name


@SETTINGS
@given(assign_cases())
def test_auto_assign_does_not_mutate_purchase(case):
    s, agent, purchase = case
    before = dict(purchase)
    auto_assign(s.projects_of(agent), purchase)
    assert purchase == before


# --------------------------------------------------------------------------- resolve_round properties


@st.composite
def legal_purchase(draw, s: Scenario, agent: str):
    """A legal purchase (may exceed supply) built without the code under test."""
    k = draw(st.integers(0, s.max_types))
    chosen = draw(st.lists(st.sampled_from(s.resource_ids), min_size=k, max_size=k, unique=True))
    purchase = {rid: draw(st.integers(0, s.resource(rid).supply + 3)) for rid in chosen}
    costs = {r.id: r.cost for r in s.resources}
    while ref_cost(s, purchase) > s.budget + EPS:
        rid = max((r for r in purchase if purchase[r] > 0), key=lambda r: costs[r])
        purchase[rid] -= 1
    mode = draw(st.sampled_from(["auto", "sub", "empty"]))
    if mode == "auto":
        runs = None
    else:
        greedy = ref_greedy(s, agent, purchase)
        runs = {} if mode == "empty" else {p: draw(st.integers(0, n)) for p, n in greedy.items()}
    return purchase, runs


@st.composite
def round_cases(draw):
    s = draw(scenarios)
    decisions = {}
    raw = {}
    for agent in AGENTS:
        purchase, runs = draw(legal_purchase(s, agent))
        raw[agent] = (purchase, runs)
        decisions[agent] = validate_decision(s, agent, purchase, runs)
    return s, raw, decisions


@SETTINGS
@given(round_cases())
def test_resolve_round(case):
    s, raw, decisions = case
    out = resolve_round(s, decisions)
    demand = {rid: sum(raw[a][0].get(rid, 0) for a in AGENTS) for rid in s.resource_ids}
    over = tuple(r.id for r in s.resources if demand[r.id] > r.supply)
    assert out.overdrawn_resources == over
    assert out.overdraw == bool(over)
    assert [a for a, _ in out.rewards] == list(AGENTS)
    assert out.decision("agent_a") is decisions["agent_a"]
    for agent in AGENTS:
        r = out.reward(agent)
        assert r >= 0
        purchase, runs = raw[agent]
        runs_used = ref_paid(s, agent, purchase, runs)
        if over:
            assert r == 0.0
            assert out.kind_of(agent) == "annulled"
        else:
            assert r == pytest.approx(ref_reward(s, agent, runs_used))
            all_zero = all(n == 0 for n in runs_used.values())
            assert out.kind_of(agent) == ("no_runs" if all_zero else "standard")
            assert (r == 0.0) == all_zero
    assert out.joint_reward == pytest.approx(sum(out.reward(a) for a in AGENTS))


def test_resolve_round_needs_both_decisions(appendix):
    with pytest.raises(ValueError, match="agent_b"):
        resolve_round(appendix, {"agent_a": zero_decision(appendix, "agent_a")})


# --------------------------------------------------------------------------- scenario validation


def _mut(fn):
    d = copy.deepcopy(APPENDIX)
    fn(d)
    return d


def _set(path, value):
    def f(d):
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value

    return f


def _del(path):
    def f(d):
        node = d
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]

    return f


def _swap_agents(d):
    d["projects"] = {"agent_b": d["projects"]["agent_b"], "agent_a": d["projects"]["agent_a"]}


def _rename_agent(d):
    d["projects"] = {"agent_a": d["projects"]["agent_a"], "agent_c": d["projects"]["agent_b"]}


BAD = [
    ("missing budget", _del(["budget"]), "'budget'"),
    ("missing name", _del(["name"]), "'name'"),
    ("missing resources", _del(["resources"]), "'resources'"),
    ("missing max_types", _del(["max_types"]), "'max_types'"),
    ("missing projects", _del(["projects"]), "'projects'"),
    ("missing reward", _del(["projects", "agent_a", "project_b", "reward"]), "projects.agent_a.project_b"),
    ("missing cost", _del(["resources", "r1", "cost"]), "resources.r1"),
    (
        "unknown resource in requires",
        _set(["projects", "agent_a", "project_b", "requires", "r9"], 1),
        "projects.agent_a.project_b.requires.r9",
    ),
    ("negative supply", _set(["resources", "r2", "supply"], -1), "resources.r2.supply"),
    ("float supply", _set(["resources", "r2", "supply"], 3.0), "resources.r2.supply"),
    ("zero cost", _set(["resources", "r1", "cost"], 0), "resources.r1.cost"),
    ("negative cost", _set(["resources", "r1", "cost"], -1.5), "resources.r1.cost"),
    ("NaN cost", _set(["resources", "r1", "cost"], float("nan")), "resources.r1.cost"),
    ("inf cost", _set(["resources", "r1", "cost"], float("inf")), "resources.r1.cost"),
    ("string cost", _set(["resources", "r1", "cost"], "1.0"), "resources.r1.cost"),
    ("bool cost", _set(["resources", "r1", "cost"], True), "resources.r1.cost"),
    ("bool supply", _set(["resources", "r1", "supply"], True), "resources.r1.supply"),
    (
        "non-integer units",
        _set(["projects", "agent_b", "project_b", "requires", "r1"], 1.5),
        "projects.agent_b.project_b.requires.r1",
    ),
    (
        "integral float units",
        _set(["projects", "agent_b", "project_b", "requires", "r1"], 2.0),
        "projects.agent_b.project_b.requires.r1",
    ),
    (
        "zero units",
        _set(["projects", "agent_b", "project_b", "requires", "r1"], 0),
        "projects.agent_b.project_b.requires.r1",
    ),
    (
        "bool units",
        _set(["projects", "agent_b", "project_b", "requires", "r1"], True),
        "projects.agent_b.project_b.requires.r1",
    ),
    ("empty requires", _set(["projects", "agent_a", "project_c", "requires"], {}), "projects.agent_a.project_c.requires"),
    ("bool budget", _set(["budget"], True), "'budget'"),
    ("negative budget", _set(["budget"], -1), "'budget'"),
    ("NaN budget", _set(["budget"], float("nan")), "'budget'"),
    ("max_types zero", _set(["max_types"], 0), "'max_types'"),
    ("max_types too large", _set(["max_types"], 4), "'max_types'"),
    ("max_types float", _set(["max_types"], 2.0), "'max_types'"),
    ("max_types bool", _set(["max_types"], True), "'max_types'"),
    ("wrong agent key", _rename_agent, "'projects'"),
    ("agents out of order", _swap_agents, "'projects'"),
    ("one agent only", _del(["projects", "agent_b"]), "'projects'"),
    ("unknown top-level field", _set(["colour"], "blue"), "'colour'"),
    ("reward zero", _set(["projects", "agent_a", "project_a", "reward"], 0), "projects.agent_a.project_a.reward"),
    ("reward negative", _set(["projects", "agent_a", "project_a", "reward"], -3), "projects.agent_a.project_a.reward"),
    ("reward bool", _set(["projects", "agent_a", "project_a", "reward"], True), "projects.agent_a.project_a.reward"),
    ("reward NaN", _set(["projects", "agent_a", "project_a", "reward"], float("nan")), "projects.agent_a.project_a.reward"),
    ("extra key in resource", _set(["resources", "r3", "colour"], 1), "resources.r3"),
    ("extra key in project", _set(["projects", "agent_b", "project_a", "colour"], 1), "projects.agent_b.project_a"),
    ("bad resource id", lambda d: d["resources"].update({"9r": {"supply": 1, "cost": 1.0}}), "resources.9r"),
    ("bad project name", _set(["projects", "agent_a", "my project"], {"requires": {"r1": 1}, "reward": 1}), "projects.agent_a.my project"),
    ("empty resources", _set(["resources"], {}), "'resources'"),
    ("empty project list", _set(["projects", "agent_b"], {}), "projects.agent_b"),
    ("empty name", _set(["name"], "  "), "'name'"),
]


@pytest.mark.parametrize("label, mutate, where", BAD, ids=[b[0] for b in BAD])
def test_malformed_scenario_names_field(label, mutate, where):
    d = _mut(mutate)
    with pytest.raises(ScenarioError) as e:
        Scenario.from_dict(d, source="t")
    assert where in str(e.value), str(e.value)
    assert str(e.value).startswith("t: ")


def test_unchanged_appendix_dict_is_valid():
    # the mutations above all start from a valid dict
    Scenario.from_dict(copy.deepcopy(APPENDIX))


def test_non_mapping_scenario():
    with pytest.raises(ScenarioError, match="JSON object"):
        Scenario.from_dict([1, 2, 3])


def test_resource_id_with_trailing_newline_rejected():
    d = copy.deepcopy(APPENDIX)
    d["resources"]["r1\n"] = d["resources"].pop("r1")
    d["projects"]["agent_a"]["project_b"]["requires"] = {"r1\n": 5, "r3": 3}
    d["projects"]["agent_b"]["project_b"]["requires"] = {"r1\n": 2, "r3": 2}
    with pytest.raises(ScenarioError, match=r"resources\.r1"):
        Scenario.from_dict(d)


def test_load_unknown_name_lists_shipped():
    with pytest.raises(ScenarioError) as e:
        load_scenario("nope")
    msg = str(e.value)
    assert "'nope'" in msg
    names = list_scenarios()
    assert len(names) >= 6
    for n in names:
        assert n in msg


def test_list_scenarios_levels():
    names = list_scenarios()
    assert names == sorted(names)
    for level in ("mc050", "mc080", "mc100"):
        assert sum(n.startswith(level + "_") for n in names) >= 2


def test_load_bad_json(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{ not json", encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_scenario(p)
    assert "not valid JSON" in str(e.value)
    assert str(p) in str(e.value)
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario(str(p))


def test_load_missing_json_path(tmp_path):
    with pytest.raises(ScenarioError, match="not found"):
        load_scenario(tmp_path / "absent.json")


def test_load_invalid_scenario_file_names_path_and_field(tmp_path):
    d = copy.deepcopy(APPENDIX)
    d["resources"]["r1"]["cost"] = 0
    p = tmp_path / "zero_cost.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_scenario(p)
    assert str(p) in str(e.value) and "resources.r1.cost" in str(e.value)


def test_load_by_path_equals_from_dict(tmp_path):
    p = tmp_path / "appendix.json"
    p.write_text(json.dumps(APPENDIX), encoding="utf-8")
    assert load_scenario(p) == Scenario.from_dict(copy.deepcopy(APPENDIX))


@pytest.mark.parametrize("name", list_scenarios())
def test_shipped_scenarios_round_trip(name):
    s = load_scenario(name)
    assert s.name == name
    assert s.agents == AGENTS
    assert Scenario.from_dict(s.to_dict()) == s
    assert Scenario.from_dict(json.loads(json.dumps(s.to_dict()))) == s


@SETTINGS
@given(scenario_dicts())
def test_random_scenarios_round_trip(d):
    s = Scenario.from_dict(d)
    assert Scenario.from_dict(s.to_dict()) == s
    # parsing keeps what was written
    assert s.resource_ids == tuple(d["resources"])
    for r in s.resources:
        assert (r.supply, r.cost) == (d["resources"][r.id]["supply"], d["resources"][r.id]["cost"])
    for agent in AGENTS:
        ps = s.projects_of(agent)
        assert [p.name for p in ps] == list(d["projects"][agent])
        for p in ps:
            assert dict(p.requires) == d["projects"][agent][p.name]["requires"]
            assert p.reward == d["projects"][agent][p.name]["reward"]


def test_load_scenario_directory_is_a_scenario_error(tmp_path):
    with pytest.raises(ScenarioError, match="not a file"):
        load_scenario(tmp_path)


def test_every_problem_is_named_and_uncovered_runs_are_not_one():
    sc = load_scenario("mc050_1")
    p = sc.projects_of("agent_b")[1]
    need = dict(p.requires)
    purchase = {rid: 0 for rid in sc.resource_ids}
    purchase.update({rid: units for rid, units in need.items()})
    # over budget by buying a lot of the cheapest resource the run does not need, and 3 runs
    with pytest.raises(InvalidDecision) as e:
        validate_decision(sc, "agent_b", {**purchase, **{r.id: 100 for r in sc.resources if r.id not in need}},
                          {p.name: 3})
    msg = str(e.value)
    assert "exceeds the budget" in msg and "not covered" not in msg
