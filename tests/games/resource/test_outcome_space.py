"""Outcome space of a resource round against an independent brute force.

The brute force plays the rules: every legal purchase of each agent (plus one that
overdraws on its own), every declared run vector and the engine's assignment, scored by
``validate_decision`` and ``resolve_round``; the frontier, Nash and Kalai–Smorodinsky
points are then read off the set of reward pairs by their definitions.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from negotiation_env.games.resource import Scenario, list_scenarios, load_scenario, solve
from negotiation_env.games.resource.outcome_space import (
    outcome_space, round_metrics, summarise_rounds,
)
from negotiation_env.games.resource.rules import InvalidDecision, resolve_round, validate_decision
from negotiation_env.games.resource.scenario import UnplayableScenario

AGENTS = ("agent_a", "agent_b")
SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tiny_scenarios(draw):
    n_res = draw(st.integers(1, 2))
    rids = [f"r{i + 1}" for i in range(n_res)]
    resources = {rid: {"supply": draw(st.integers(0, 4)), "cost": draw(st.sampled_from((1.0, 2.0, 3.0)))}
                 for rid in rids}
    projects = {}
    for agent in AGENTS:
        ps = {}
        for j in range(draw(st.integers(1, 2))):
            needed = draw(st.lists(st.sampled_from(rids), min_size=1, max_size=n_res, unique=True))
            ps[f"p{j + 1}"] = {"requires": {rid: draw(st.integers(1, 2)) for rid in needed},
                               "reward": draw(st.integers(1, 6))}
        projects[agent] = ps
    return Scenario.from_dict({"name": "tiny", "resources": resources, "budget": draw(st.integers(0, 8)),
                               "max_types": draw(st.integers(1, n_res)), "projects": projects})


def brute_outcomes(s: Scenario) -> set[tuple[float, float]]:
    """Every reward pair some pair of legal decisions produces, by the rules."""
    rids = s.resource_ids
    decisions = {}
    for agent in AGENTS:
        projects = s.projects_of(agent)
        # one unit past the supply on each resource: a purchase that overdraws on its own
        ranges = [range(s.resource(rid).supply + 2) for rid in rids]
        by_purchase = []
        for q in itertools.product(*ranges):
            purchase = dict(zip(rids, q))
            max_runs = max(q) // 1
            options = {}
            for runs in [None, *itertools.product(range(max_runs + 1), repeat=len(projects))]:
                declared = None if runs is None else dict(zip((p.name for p in projects), runs))
                try:
                    d = validate_decision(s, agent, purchase, declared)
                except InvalidDecision:
                    break  # the purchase itself is illegal (budget or types): no runs change that
                reward = sum(p.reward * n for p, (_, n) in zip(projects, d.runs))
                options.setdefault(reward, d)
            by_purchase.extend(options.values())
        decisions[agent] = by_purchase
    out = set()
    for da, db in itertools.product(decisions["agent_a"], decisions["agent_b"]):
        o = resolve_round(s, {"agent_a": da, "agent_b": db})
        out.add((o.reward("agent_a"), o.reward("agent_b")))
    return out


def brute_frontier(points):
    return sorted(p for p in points
                  if not any(q[0] >= p[0] and q[1] >= p[1] and q != p for q in points))


@SETTINGS
@given(tiny_scenarios())
def test_outcome_space_matches_brute_force(s):
    space = outcome_space(s)
    points = brute_outcomes(s)
    assert set(space.points) == points
    assert list(space.frontier) == brute_frontier(points)
    assert space.ideal == (max(a for a, _ in points), max(b for _, b in points))
    # Nash: the largest product over every achievable pair (not only the frontier)
    best = max(a * b for a, b in points)
    assert space.nash_product == best
    if best > 0:
        assert set(space.nash_points) == {p for p in brute_frontier(points) if p[0] * p[1] == best}
        assert space.nash_point in space.nash_points
        assert space.nash_point == max(space.nash_points, key=lambda p: (p[0] + p[1], p[0]))
    else:
        assert space.nash_point is None and space.nash_points == ()
    # Kalai-Smorodinsky: the largest t with t * ideal weakly dominated by an achievable pair,
    # found by bisection on the segment, independent of the max-min formula
    ia, ib = space.ideal
    if ia > 0 and ib > 0:
        def reached(t):
            return any(a >= t * ia - 1e-12 and b >= t * ib - 1e-12 for a, b in points)
        candidates = sorted({min(a / ia, b / ib) for a, b in points})
        t_star = max(t for t in candidates if reached(t))
        assert space.kalai_t == pytest.approx(t_star)
        assert not reached(t_star + 1e-9)
        attaining = [p for p in points if min(p[0] / ia, p[1] / ib) == pytest.approx(t_star)]
        assert space.kalai_point == max(attaining, key=lambda p: (p[0] + p[1], p[0]))
    else:
        assert space.kalai_point is None and space.kalai_t is None
    # the frontier's best joint reward is the solver's M
    assert space.joint_max == pytest.approx(solve(s, method="enumerate").joint_max)


@pytest.mark.parametrize("name", list_scenarios())
def test_shipped_frontier_joint_max_is_the_solvers(name):
    sc = load_scenario(name)
    space = outcome_space(sc)
    sol = solve(sc)
    assert space.joint_max == pytest.approx(sol.joint_max)
    assert space.ideal == (sol.individual_max["agent_a"], sol.individual_max["agent_b"])
    # every joint optimum of the solver pays a frontier pair summing to M
    for runs_a, runs_b in sol.joint_optima:
        pay = tuple(sum(p.reward * n for p, (_, n) in zip(sc.projects_of(ag), runs))
                    for ag, runs in zip(AGENTS, (runs_a, runs_b)))
        assert pay in space.frontier
    assert round_metrics(sc, {"agent_a": 0.0, "agent_b": 0.0}).nash_share == 0.0


TOY = Scenario.from_dict({
    "name": "toy",
    "resources": {"r1": {"supply": 4, "cost": 1}},
    "budget": 4, "max_types": 1,
    "projects": {"agent_a": {"big": {"requires": {"r1": 2}, "reward": 5}},
                 "agent_b": {"small": {"requires": {"r1": 1}, "reward": 2}}},
})


def test_toy_closed_form():
    # a runs 0..2 times (2 units each), b 0..4 times (1 unit each), 2 x_a + x_b <= 4
    space = outcome_space(TOY)
    assert space.frontier == ((0.0, 8.0), (5.0, 4.0), (10.0, 0.0))
    assert space.ideal == (10.0, 8.0)
    assert space.nash_product == 20.0 and space.nash_point == (5.0, 4.0)
    assert space.kalai_t == 0.5 and space.kalai_point == (5.0, 4.0)
    m = round_metrics(TOY, {"agent_a": 5.0, "agent_b": 2.0})  # a runs once, b twice: 2 units idle
    assert not m.pareto_optimal
    assert m.distance_to_frontier == 2.0 and m.nearest_frontier_point == (5.0, 4.0)
    assert m.nash_share == 0.5 and m.efficiency == 7.0 / 10.0
    on = round_metrics(TOY, {"agent_a": 0.0, "agent_b": 8.0})
    assert on.pareto_optimal and on.distance_to_frontier == 0.0 and on.nash_share == 0.0
    summary = summarise_rounds([m, on])
    assert summary.rounds == 2 and summary.pareto_optimal_share == 0.5
    assert summary.mean_nash_share == 0.25 and summary.mean_distance_to_frontier == 1.0


def test_round_metrics_of_a_resolved_round():
    da = validate_decision(TOY, "agent_a", {"r1": 2}, None)
    db = validate_decision(TOY, "agent_b", {"r1": 2}, None)
    m = round_metrics(TOY, resolve_round(TOY, {"agent_a": da, "agent_b": db}))
    assert m.outcome == (5.0, 4.0) and m.pareto_optimal and m.nash_share == 1.0
    over = validate_decision(TOY, "agent_b", {"r1": 3}, None)  # 2 + 3 > 4: annulled
    m = round_metrics(TOY, resolve_round(TOY, {"agent_a": da, "agent_b": over}))
    assert m.outcome == (0.0, 0.0) and not m.pareto_optimal and m.nash_share == 0.0
    assert m.distance_to_frontier == pytest.approx(math.hypot(5, 4))


@pytest.mark.parametrize("rewards, error", [
    ({"agent_a": 7.0, "agent_b": 0.0}, "not an achievable"),
    ({"agent_a": 10.0, "agent_b": 8.0}, "not an achievable"),
    ({"agent_a": 5.0}, "exactly the agents"),
    ({"agent_a": 5.0, "agent_b": float("nan")}, "finite number"),
    ({"agent_a": 5.0, "agent_b": True}, "finite number"),
])
def test_bad_outcomes_are_refused(rewards, error):
    with pytest.raises(ValueError, match=error):
        round_metrics(TOY, rewards)


def test_no_rounds_and_unplayable_are_refused():
    with pytest.raises(ValueError, match="at least one round"):
        summarise_rounds([])
    # budget 1: agent_a's run costs 2 and never happens, agent_b runs once; no pair gains for both
    one_sided = outcome_space(Scenario.from_dict({**TOY.to_dict(), "budget": 1}))
    assert one_sided.frontier == ((0.0, 2.0),) and one_sided.ideal == (0.0, 2.0)
    assert one_sided.nash_point is None and one_sided.kalai_point is None
    broke = Scenario.from_dict({**TOY.to_dict(), "budget": 0})
    assert outcome_space(broke).frontier == ((0.0, 0.0),)
    assert outcome_space(broke).nash_point is None and outcome_space(broke).kalai_point is None
    with pytest.raises(UnplayableScenario):
        round_metrics(broke, {"agent_a": 0.0, "agent_b": 0.0})


def test_docs_worked_example():
    sc = load_scenario("mc080_1")
    space = outcome_space(sc)
    assert len(space.points) == 36
    assert space.frontier == ((12.0, 20.0), (20.0, 12.0)) and space.ideal == (20.0, 20.0)
    assert space.nash_points == ((12.0, 20.0), (20.0, 12.0)) and space.nash_product == 240.0
    assert space.kalai_t == 0.6
    m = round_metrics(sc, {"agent_a": 12.0, "agent_b": 12.0})
    assert (m.pareto_optimal, m.distance_to_frontier, m.nash_share, m.efficiency) == (False, 8.0, 0.6, 0.75)


def test_pair_bound_refuses(monkeypatch):
    from negotiation_env.games.resource import outcome_space as mod
    from negotiation_env.games.resource.scenario import ScenarioTooLarge

    monkeypatch.setattr(mod, "PAIR_LIMIT", 2)
    mod._outcome_space.cache_clear()
    try:
        with pytest.raises(ScenarioTooLarge, match="PAIR_LIMIT"):
            outcome_space(TOY)
    finally:
        mod._outcome_space.cache_clear()
