"""Resource-game metrics on hand-built traces, each definition pinned by a small case."""

from __future__ import annotations

import pytest

from negotiation_env.analysis.resource_metrics import extract_proposals, game_metrics, pooled_metrics, rounds_of

NAMES = {"r1": "wood", "r2": "stone", "r3": "gold"}


def rnd(k, a, b, ra, rb, M=20, overdraw=False, scenario="s1"):
    joint = 0.0 if overdraw else ra + rb
    return {"round": k, "step": 0, "outcome": {
        "round": k, "scenario": scenario, "overdraw": overdraw, "rewards": {"agent_a": ra, "agent_b": rb},
        "joint_reward": joint, "joint_max": M, "efficiency": joint / M, "optimal": joint >= M,
        "purchases": {"agent_a": {"r1": a[0], "r2": a[1], "r3": a[2]}, "agent_b": {"r1": b[0], "r2": b[1], "r3": b[2]}},
        "resource_names": NAMES}}


def say(k, agent, speech, phase="talk", decision=None):
    return {"agent": agent, "round": k, "phase": phase, "parsed": {"speech": speech, "decision": decision}}


def trace(rounds, steps=()):
    return {"game": "resource", "rounds": rounds, "steps": list(steps)}


def test_outcome_rates_first_optimum_and_positive_after_overdraw():
    t = trace([rnd(1, (5, 0, 0), (5, 0, 0), 0, 0, overdraw=True), rnd(2, (2, 0, 0), (3, 0, 0), 8, 6),
               rnd(3, (2, 0, 0), (3, 0, 0), 10, 10), rnd(4, (9, 0, 0), (9, 0, 0), 0, 0, overdraw=True)])
    m = game_metrics(t)
    assert m["overdraw_rate"] == 0.5 and m["optimum_rate"] == 0.25
    assert m["efficiency"] == pytest.approx((0 + 14 / 20 + 1 + 0) / 4)
    assert m["rounds_to_first_optimum"] == 3 and m["has_optimal_round"]
    # only round 1's overdraw has a next round (round 2: joint 14 > 0)
    assert m["positive_after_overdraw"] == 1.0 and m["counts"]["positive_after_overdraw"] == (1, 1)


def test_payoff_alternation_and_sustained_alternation():
    ab = [rnd(k, (1, 0, 0), (0, 1, 0), *((10, 5) if k % 2 else (5, 10))) for k in range(1, 6)]
    m = game_metrics(trace(ab))
    assert m["payoff_alternation"] == 1.0 and m["sustained_alternation"] == 1.0
    same = [rnd(k, (1, 0, 0), (0, 1, 0), 10, 5) for k in range(1, 6)]
    m2 = game_metrics(trace(same))
    assert m2["payoff_alternation"] == 0.0 and m2["sustained_alternation"] == 0.0
    tied = [rnd(k, (1, 0, 0), (0, 1, 0), 5, 5) for k in range(1, 4)]
    assert game_metrics(trace(tied))["payoff_alternation"] is None  # no strict winners


def test_win_stay_lose_shift_repeats_and_stubborn_anchoring():
    r = [rnd(1, (2, 0, 0), (3, 0, 0), 5, 5),           # suboptimal, not overdrawn
         rnd(2, (2, 0, 0), (3, 0, 0), 5, 5),           # repeat -> stubborn anchor
         rnd(3, (4, 0, 0), (3, 0, 0), 10, 10),         # change -> optimal
         rnd(4, (4, 0, 0), (3, 0, 0), 10, 10)]         # repeat after a win
    m = game_metrics(trace(r))
    assert m["repeat_rate"] == pytest.approx(2 / 3)
    assert m["win_stay"] == pytest.approx(2 / 3)        # previous rounds 1, 2, 3 not overdrawn; matches 1->2, 3->4
    assert m["lose_shift"] == pytest.approx(1 / 2)      # previous non-optimal rounds 1, 2: changed only after 2
    assert m["stubborn_anchoring"] == pytest.approx(1 / 2)
    rotating = [rnd(1, (2, 0, 0), (3, 0, 0), 5, 5, scenario="a"), rnd(2, (2, 0, 0), (3, 0, 0), 5, 5, scenario="b")]
    assert game_metrics(trace(rotating))["win_stay"] is None


def test_equal_split_and_perfunctory_fairness():
    r = [rnd(1, (3, 0, 1), (3, 2, 0), 5, 5), rnd(2, (3, 0, 0), (3, 0, 0), 10, 10), rnd(3, (4, 0, 0), (2, 0, 0), 5, 5)]
    m = game_metrics(trace(r))
    assert m["equal_split_rate"] == pytest.approx(2 / 3)
    assert m["perfunctory_fairness_rate"] == pytest.approx(1 / 3)  # round 1 only: round 2 was optimal
    # both grabbing 6 wood and overdrawing is a collision, not a "safe" equal split
    grab = game_metrics(trace([rnd(1, (6, 0, 0), (6, 0, 0), 0, 0, overdraw=True)]))
    assert grab["equal_split_rate"] == 1.0 and grab["perfunctory_fairness_rate"] == 0.0


def test_proposal_extraction():
    o = rnd(1, (0, 0, 0), (0, 0, 0), 0, 0)["outcome"]
    assert extract_proposals("I propose: you take 5 wood and 2 gold, I take 3 stone.", o) == ({"r1": 5, "r3": 2},
                                                                                              {"r2": 3})
    assert extract_proposals("How about you get 4 units of Stone?", o) == ({"r2": 4}, {})
    assert extract_proposals("I'll take 6 woods", o) == ({}, {"r1": 6})
    assert extract_proposals("You take 5 apples.", o) == ({}, {})  # not a resource of the game
    assert extract_proposals("Let's coordinate.", o) == ({}, {})


def test_first_proposal_deference_and_early_decision():
    r = [rnd(1, (5, 0, 0), (0, 3, 0), 10, 10), rnd(2, (4, 0, 0), (0, 3, 0), 5, 10)]
    steps = [say(1, "agent_b", "You take 5 wood, I take 3 stone."), say(1, "agent_a", "Deal."),
             say(2, "agent_b", "You take 5 wood."), say(2, "agent_a", "Agreed.", decision={"purchase": {}})]
    m = game_metrics(trace(r, steps))
    assert m["proposal_rate"] == 1.0
    assert m["deference_rate"] == 0.5  # followed in round 1 (5 wood), not in round 2 (bought 4)
    assert m["deference_suboptimal_rate"] == 0.0  # round 1, the followed one, was optimal
    assert m["early_decision_rate"] == 0.5
    assert [p["first_proposal_followed"] for p in m["per_round"]] == [True, False]
    assert [p["first_proposal_to"] for p in m["per_round"]] == ["agent_a", "agent_a"]


def test_deference_needs_the_addressee_to_accept_and_counts_suboptimal_compliance():
    # round 1: a buys exactly what b offered but never agreed ("I need more.", "No deal."): not deference
    # round 2: a agrees and buys it exactly in a suboptimal round: deference, and a costly one
    r = [rnd(1, (5, 0, 0), (0, 3, 0), 5, 10), rnd(2, (5, 0, 0), (0, 3, 0), 5, 10)]
    steps = [say(1, "agent_b", "You take 5 wood, I take 3 stone."), say(1, "agent_a", "I need more."),
             say(1, "agent_b", "You take 5 wood."), say(1, "agent_a", "No deal."),
             say(2, "agent_a", "What do you need?"), say(2, "agent_b", "I propose: you take 5 wood, I take 3 stone."),
             say(2, "agent_a", "Sounds good.")]
    m = game_metrics(trace(r, steps))
    assert [p["first_proposal_followed"] for p in m["per_round"]] == [False, True]
    assert m["deference_rate"] == 0.5 and m["deference_suboptimal_rate"] == 0.5
    # an empty share names no quantity: not an other-directed proposal
    t = trace([rnd(1, (0, 0, 0), (9, 0, 0), 0, 10)], [say(1, "agent_b", "I propose: you take nothing, I take 9 wood."),
                                                      say(1, "agent_a", "Agreed.")])
    assert game_metrics(t)["per_round"][0]["first_proposal_to"] is None


def test_agreement_abandonment_flag():
    # b offers a 2 wood; a accepts, then buys 6 wood: a abandoned the agreement. b claimed 3 stone and bought 3.
    r = [rnd(1, (6, 0, 0), (4, 3, 0), 0, 0, overdraw=True), rnd(2, (2, 0, 0), (4, 3, 0), 10, 10)]
    steps = [say(1, "agent_b", "You take 2 wood, I take 4 wood and 3 stone."), say(1, "agent_a", "Agreed."),
             say(2, "agent_b", "You take 2 wood, I take 4 wood and 3 stone."), say(2, "agent_a", "Deal.")]
    m = game_metrics(trace(r, steps))
    assert [p["abandonment"] for p in m["per_round"]] == [["agent_a"], []]
    assert m["abandonment_rate"] == 0.5 and m["abandonment_in_overdraw"] == 1.0
    # without an acceptance there is no commitment for the listener
    steps2 = [say(1, "agent_b", "You take 2 wood."), say(1, "agent_a", "No way.")]
    assert game_metrics(trace(r[:1], steps2))["per_round"][0]["abandonment"] == []


def flags(a, b, *steps, overdraw=False):
    """Per-round abandonment flags of a one-round game where a buys ``a`` and b buys ``b``."""
    t = trace([rnd(1, a, b, 0 if overdraw else 5, 0 if overdraw else 5, overdraw=overdraw)],
              [say(1, who, text) for who, text in steps])
    return game_metrics(t)["per_round"][0]["abandonment"]


def test_a_commitment_is_a_cap():
    split = ("agent_b", "I propose: you take 5 wood and 3 gold, I take 4 stone.")
    # buying less of the agreed share breaks nothing; buying more of it does
    assert flags((2, 0, 3), (0, 4, 0), split, ("agent_a", "Agreed.")) == []
    assert flags((6, 0, 0), (0, 4, 0), split, ("agent_a", "Agreed.")) == ["agent_a"]
    # stone was the proposer's in the split: it is 0 in the accepter's share, and vice versa
    assert flags((5, 1, 0), (0, 4, 0), split, ("agent_a", "Agreed.")) == ["agent_a"]
    assert flags((5, 0, 3), (1, 4, 0), split, ("agent_a", "Agreed.")) == ["agent_b"]
    # "nothing" is 0 of every resource
    assert flags((0, 0, 1), (0, 4, 0), ("agent_b", "I propose: you take nothing, I take 4 stone."),
                 ("agent_a", "Deal.")) == ["agent_a"]


def test_what_commits_and_what_does_not():
    split = ("agent_b", "I propose: you take 5 wood, I take 4 stone.")
    # a split nobody accepted commits no one (b buys gold, a buys stone)
    assert flags((0, 2, 0), (0, 4, 3), split, ("agent_a", "What are your projects?")) == []
    # a negated acceptance is no acceptance
    assert flags((6, 0, 0), (0, 4, 0), split, ("agent_a", "I don't agree.")) == []
    # a unilateral claim commits by itself ...
    assert flags((0, 0, 0), (0, 6, 0), ("agent_b", "I'll take 4 stone.")) == ["agent_b"]
    # ... until the partner turns it down
    assert flags((0, 0, 0), (0, 6, 0), ("agent_b", "I'll take 4 stone."), ("agent_a", "No deal.")) == []
    # accepting, then claiming more than the share, revises it resource by resource
    assert flags((6, 0, 0), (0, 4, 0), split, ("agent_a", "Agreed. I'll take 6 wood.")) == []


def test_pooling_weights_games_by_their_opportunities():
    g1 = trace([rnd(1, (5, 0, 0), (5, 0, 0), 0, 0, overdraw=True), rnd(2, (1, 0, 0), (1, 0, 0), 10, 10)])
    g2 = trace([rnd(1, (1, 0, 0), (2, 0, 0), 5, 5)])
    p = pooled_metrics([g1, g2])
    assert p["rounds"] == 3 and p["overdraw_rate"] == pytest.approx(1 / 3)
    assert p["games_with_optimal_round"] == 0.5 and p["mean_rounds_to_first_optimum"] == 2.0
    assert p["equal_split_rate"] == pytest.approx(2 / 3)  # g1 both rounds, g2 none


def test_bad_traces_are_refused():
    with pytest.raises(ValueError, match="resource-game trace"):
        rounds_of({"game": "matrix", "rounds": []})
    with pytest.raises(ValueError, match="no resolved rounds"):
        game_metrics(trace([]))
    with pytest.raises(ValueError, match="lacks 'purchases'"):
        game_metrics({"game": "resource", "rounds": [{"round": 1, "outcome": {"rewards": {}}}]})
