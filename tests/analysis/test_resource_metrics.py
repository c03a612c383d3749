"""Resource-game metrics on hand-built traces, each definition pinned by a small case."""

from __future__ import annotations

import pytest

from negotiation_env.analysis.resource_metrics import (extract_proposals, game_metrics, model_metrics,
                                                       pooled_metrics, rounds_of)

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


def winners(*seq, overdraw_at=()):
    """A game whose round k is won by ``seq[k]``: "a", "b" or "=" (equal rewards)."""
    pay = {"a": (10, 5), "b": (5, 10), "=": (5, 5)}
    return trace([rnd(k, (1, 0, 0), (0, 1, 0), *((0, 0) if k in overdraw_at else pay[w]), overdraw=k in overdraw_at)
                  for k, w in enumerate(seq, start=1)])


def test_payoff_alternation_is_over_every_adjacent_round_pair():
    m = game_metrics(winners("a", "b", "a", "b", "a"))
    assert m["counts"]["payoff_alternation"] == (4, 4) and m["counts"]["sustained_alternation"] == (2, 2)
    m = game_metrics(winners("a", "a", "a", "a"))
    assert m["counts"]["payoff_alternation"] == (0, 3) and m["counts"]["sustained_alternation"] == (0, 1)
    # a tie has no higher-reward agent: its pairs are opportunities that do not flip
    assert game_metrics(winners("=", "=", "="))["counts"]["payoff_alternation"] == (0, 2)
    assert game_metrics(winners("=", "=", "="))["payoff_alternation"] == 0.0
    # an overdraw pays both 0: a, (overdraw), b, a flips only between rounds 3 and 4
    m = game_metrics(winners("a", "a", "b", "a", overdraw_at=(2,)))
    assert m["counts"]["payoff_alternation"] == (1, 3) and m["payoff_alternation"] == pytest.approx(1 / 3)
    assert m["counts"]["sustained_alternation"] == (0, 1)
    m = game_metrics(winners("a", "b", "a", "a"))
    assert m["counts"]["payoff_alternation"] == (2, 3) and m["sustained_alternation"] == 0.0
    # one round: no pair, no window
    m = game_metrics(winners("a"))
    assert m["payoff_alternation"] is None and m["sustained_alternation"] is None
    # pooled over pairs, not averaged over games: (1 + 0) / (1 + 2)
    assert pooled_metrics([winners("a", "b"), winners("a", "a", "a")])["payoff_alternation"] == pytest.approx(1 / 3)


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
    assert m["repeat_after_overdraw"] is None  # no overdrawn round before another
    rotating = [rnd(1, (2, 0, 0), (3, 0, 0), 5, 5, scenario="a"), rnd(2, (2, 0, 0), (3, 0, 0), 5, 5, scenario="b")]
    assert game_metrics(trace(rotating))["win_stay"] is None


def test_repeat_after_overdraw():
    r = [rnd(1, (6, 0, 0), (6, 0, 0), 0, 0, overdraw=True),   # overdraw ...
         rnd(2, (6, 0, 0), (6, 0, 0), 0, 0, overdraw=True),   # ... repeated
         rnd(3, (4, 0, 0), (6, 0, 0), 5, 5),                  # changed after an overdraw
         rnd(4, (4, 0, 0), (6, 0, 0), 5, 5)]                  # repeated after a suboptimal round
    m = game_metrics(trace(r))
    assert m["counts"]["repeat_after_overdraw"] == (1, 2) and m["repeat_after_overdraw"] == 0.5
    assert m["counts"]["win_stay"] == (1, 1)                  # the repeat after the non-overdrawn round 3
    assert m["counts"]["repeat_rate"] == (2, 3) and m["counts"]["stubborn_anchoring"] == (1, 1)


def test_equal_split_and_perfunctory_fairness():
    r = [rnd(1, (3, 0, 1), (3, 2, 0), 5, 5), rnd(2, (3, 0, 0), (3, 0, 0), 10, 10), rnd(3, (4, 0, 0), (2, 0, 0), 5, 5)]
    m = game_metrics(trace(r))
    assert m["equal_split_rate"] == pytest.approx(2 / 3)
    assert m["perfunctory_fairness_rate"] == pytest.approx(1 / 3)  # round 1 only: round 2 was optimal
    assert m["counts"]["equal_split_suboptimal_share"] == (1, 2)   # of the 2 equal splits, 1 suboptimal
    # the paper's closed form: perfunctory rate = equal-split rate x suboptimal share of them
    assert m["perfunctory_fairness_rate"] == pytest.approx(m["equal_split_rate"] * m["equal_split_suboptimal_share"])
    # both grabbing 6 wood and overdrawing is a collision, not a "safe" equal split
    grab = game_metrics(trace([rnd(1, (6, 0, 0), (6, 0, 0), 0, 0, overdraw=True)]))
    assert grab["equal_split_rate"] == 1.0 and grab["perfunctory_fairness_rate"] == 0.0
    assert grab["equal_split_suboptimal_share"] == 0.0
    # no equal split: the share has no opportunity
    assert game_metrics(trace([rnd(1, (4, 0, 0), (2, 0, 0), 5, 5)]))["equal_split_suboptimal_share"] is None


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
    assert m["deference_suboptimal_rate"] == 0.0 and m["deference_optimal_rate"] == 0.5  # round 1 was optimal
    assert m["early_decision_rate"] == 0.5
    assert [p["first_proposal_followed"] for p in m["per_round"]] == [True, False]
    assert [p["first_proposal_to"] for p in m["per_round"]] == ["agent_a", "agent_a"]
    assert [p["first_proposal_turn"] for p in m["per_round"]] == [1, 1] and m["proposal_turns"] == [1, 1]


def test_deference_is_following_exactly_and_the_accepted_variant_needs_a_yes():
    # round 1: a buys exactly what b offered but never agreed ("I need more.", "No deal."):
    # followed exactly (the paper's deference), not accepted-and-followed (our variant)
    # round 2: a agrees and buys it exactly in a suboptimal round: both, and a costly one
    r = [rnd(1, (5, 0, 0), (0, 3, 0), 5, 10), rnd(2, (5, 0, 0), (0, 3, 0), 5, 10)]
    steps = [say(1, "agent_b", "You take 5 wood, I take 3 stone."), say(1, "agent_a", "I need more."),
             say(1, "agent_b", "You take 5 wood."), say(1, "agent_a", "No deal."),
             say(2, "agent_a", "What do you need?"), say(2, "agent_b", "I propose: you take 5 wood, I take 3 stone."),
             say(2, "agent_a", "Sounds good.")]
    m = game_metrics(trace(r, steps))
    assert [p["first_proposal_followed"] for p in m["per_round"]] == [True, True]
    assert [p["first_proposal_accepted"] for p in m["per_round"]] == [False, True]
    assert m["deference_rate"] == 1.0 and m["deference_accepted_rate"] == 0.5
    assert m["deference_suboptimal_rate"] == 1.0 and m["deference_optimal_rate"] == 0.0
    assert [p["first_proposal_turn"] for p in m["per_round"]] == [1, 2]  # round 2: b's reply, the 2nd message
    # a hedged or conditional yes is no yes
    for reply in ("That might work.", "Deal if you leave me 2 gold.", "Deal?", "I don't agree."):
        t = trace(r[:1], [say(1, "agent_b", "You take 5 wood."), say(1, "agent_a", reply)])
        assert game_metrics(t)["per_round"][0]["first_proposal_accepted"] is False, reply
    # an empty share names no quantity: not an other-directed proposal
    t = trace([rnd(1, (0, 0, 0), (9, 0, 0), 0, 10)], [say(1, "agent_b", "I propose: you take nothing, I take 9 wood."),
                                                      say(1, "agent_a", "Agreed.")])
    assert game_metrics(t)["per_round"][0]["first_proposal_to"] is None


def test_a_proposal_at_the_decision_prompt_is_never_delivered():
    # b's decision-phase speech is recorded, not delivered: a's talk-phase offer is the first
    t = trace([rnd(1, (0, 4, 0), (5, 0, 0), 5, 5)],
              [say(1, "agent_a", "Hello, what do you need?"), say(1, "agent_b", "Stone, mostly."),
               say(1, "agent_a", "You take 5 wood, I take 4 stone."),
               say(1, "agent_b", "You take 4 stone.", phase="decision")])
    r = game_metrics(t)["per_round"][0]
    assert (r["first_proposal_to"], r["first_proposal_turn"], r["first_proposal_followed"]) == ("agent_b", 3, True)
    quiet = trace([rnd(1, (0, 4, 0), (5, 0, 0), 5, 5)], [say(1, "agent_b", "You take 4 stone.", phase="decision")])
    assert game_metrics(quiet)["proposal_rate"] == 0.0 and game_metrics(quiet)["deference_rate"] is None


def test_round_one_deference_in_non_rotating_games_and_the_median_turn():
    # round 1 followed and optimal, round 2 followed and suboptimal, round 3 not followed
    r = [rnd(1, (5, 0, 0), (0, 3, 0), 10, 10), rnd(2, (5, 0, 0), (0, 3, 0), 5, 5), rnd(3, (4, 0, 0), (0, 3, 0), 5, 5)]
    steps = [say(1, "agent_b", "You take 5 wood."),
             say(2, "agent_a", "Hi."), say(2, "agent_b", "Hi."), say(2, "agent_a", "Well?"),
             say(2, "agent_b", "You take 5 wood."),
             say(3, "agent_a", "Hi."), say(3, "agent_b", "You take 5 wood.")]
    fixed = dict(trace(r, steps), config={"rotation": "fixed"})
    m = game_metrics(fixed)
    assert m["counts"]["r1_deference_rate"] == (1, 1) and m["r1_deference_optimal_rate"] == 1.0
    assert m["r1_deference_suboptimal_rate"] == 0.0
    assert m["counts"]["deference_rate"] == (2, 3)
    assert m["counts"]["deference_suboptimal_rate"] == (1, 3) and m["counts"]["deference_optimal_rate"] == (1, 3)
    assert m["proposal_turns"] == [1, 4, 2]
    rotating = dict(fixed, config={"rotation": "rotating"})
    assert game_metrics(rotating)["r1_deference_rate"] is None
    assert game_metrics(rotating)["counts"]["r1_deference_rate"] is None
    # a game without a rotation field is rotating when its rounds used different scenarios
    r_rot = [rnd(1, (5, 0, 0), (0, 3, 0), 10, 10, scenario="x"), rnd(2, (5, 0, 0), (0, 3, 0), 5, 5, scenario="y")]
    assert game_metrics(trace(r_rot, steps[:1]))["r1_deference_rate"] is None
    assert game_metrics(trace(r[:1], steps[:1]))["r1_deference_rate"] == 1.0
    # pooled: the median over every round's first-proposal turn, of every game
    other = trace([rnd(1, (4, 0, 0), (0, 3, 0), 5, 5)], [say(1, "agent_a", "Hi."), say(1, "agent_b", "Hi."),
                                                        say(1, "agent_b", "You take 5 wood.")])
    p = pooled_metrics([fixed, other])
    assert p["median_proposal_turn"] == 2.5  # turns 1, 4, 2 and 3
    assert p["r1_deference_rate"] == 0.5  # followed in fixed's round 1, not in other's (4 wood bought)
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
    # a negated acceptance is no acceptance, nor is a hedged, conditional or own-plan reply
    for reply in ("I don't agree.", "That might work.", "Deal if you leave me 3 gold.",
                  "I'll go with my own best plan. Good luck!"):
        assert flags((6, 0, 0), (0, 4, 0), split, ("agent_a", reply)) == [], reply
    # a unilateral claim commits by itself ...
    assert flags((0, 0, 0), (0, 6, 0), ("agent_b", "I'll take 4 stone.")) == ["agent_b"]
    # ... until the partner turns it down
    assert flags((0, 0, 0), (0, 6, 0), ("agent_b", "I'll take 4 stone."), ("agent_a", "No deal.")) == []
    # accepting, then claiming more than the share, revises it resource by resource
    assert flags((6, 0, 0), (0, 4, 0), split, ("agent_a", "Agreed. I'll take 6 wood.")) == []


def labelled(t, a, b):
    return dict(t, agents=["agent_a", "agent_b"], policies={"agent_a": {"label": a}, "agent_b": {"label": b}})


def test_model_metrics_compliance_and_equal_splits_per_model():
    # game 1, x (seat a) vs y: round 1 y offers x 5 wood and x follows; round 2 x offers y
    # 3 stone and y buys 2; round 2 is an equal split (both buy 2 stone) and suboptimal
    g1 = trace([rnd(1, (5, 0, 0), (0, 3, 0), 10, 10), rnd(2, (5, 2, 0), (0, 2, 0), 5, 5)],
               [say(1, "agent_b", "You take 5 wood."), say(1, "agent_a", "Agreed."),
                say(2, "agent_a", "You take 3 stone.")])
    # game 2, y self-play: one round, a follows b's offer without saying yes
    g2 = trace([rnd(1, (4, 0, 0), (0, 3, 0), 5, 5)], [say(1, "agent_b", "You take 4 wood."), say(1, "agent_a", "Hm.")])
    mm = model_metrics([labelled(g1, "x", "y"), labelled(g2, "y", "y")])
    assert set(mm) == {"x", "y"}
    assert (mm["x"]["games"], mm["x"]["rounds"], mm["y"]["games"], mm["y"]["rounds"]) == (1, 2, 2, 3)
    assert mm["x"]["proposals_received"] == 1 and mm["x"]["compliance_rate"] == 1.0
    assert mm["x"]["accepted_compliance_rate"] == 1.0
    assert mm["y"]["proposals_received"] == 2 and mm["y"]["compliance_rate"] == 0.5  # g1 round 2 no, g2 yes
    assert mm["y"]["accepted_compliance_rate"] == 0.0
    assert mm["x"]["equal_split_rate"] == 0.5 and mm["x"]["perfunctory_fairness_rate"] == 0.5
    assert mm["y"]["equal_split_rate"] == pytest.approx(1 / 3)  # a self-play game counts once
    assert mm["y"]["counts"]["perfunctory_fairness_rate"] == (1, 3)
    assert mm["x"]["counts"]["compliance_rate"] == (1, 1)


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
