"""Resource-game metrics on hand-built traces, each definition pinned by a small case."""

from __future__ import annotations

import pytest

from negotiation_env.analysis.resource_metrics import (error_rates, extract_proposals, fallback_rounds, game_metrics,
                                                       intervention_of, kept_round_counts, model_metrics, pooled_metrics,
                                                       protocol_of, round_classes, rounds_of, token_usage)

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
    assert m["counts"]["stubborn_anchoring"] == (1, 1)  # round 2, the one suboptimal round after another round
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
    # suboptimal rounds 3 (changed after an overdraw) and 4 (repeated): 1 of 2
    assert m["counts"]["repeat_rate"] == (2, 3) and m["counts"]["stubborn_anchoring"] == (1, 2)


def test_stubborn_anchoring_is_over_the_suboptimal_rounds_that_could_repeat():
    # §5.5: "of the 339 rounds that were suboptimal and non-overdrawn ..., 29.2% repeat the same
    # allocation unchanged": the round counted is the one that repeats or not, not the one before
    # round 2 repeats round 1's purchases (other runs: round 1 was optimal) and is suboptimal
    m = game_metrics(trace([rnd(1, (2, 0, 0), (3, 0, 0), 10, 10), rnd(2, (2, 0, 0), (3, 0, 0), 5, 5)]))
    assert m["counts"]["stubborn_anchoring"] == (1, 1) and m["stubborn_anchoring"] == 1.0
    # optimal, suboptimal (changed), suboptimal (repeated): rounds 2 and 3 count, round 3 repeats
    m = game_metrics(trace([rnd(1, (4, 0, 0), (3, 0, 0), 10, 10), rnd(2, (2, 0, 0), (3, 0, 0), 5, 5),
                            rnd(3, (2, 0, 0), (3, 0, 0), 5, 5)]))
    assert m["counts"]["stubborn_anchoring"] == (1, 2) and m["stubborn_anchoring"] == 0.5
    # suboptimal then optimal: round 1 has no previous round, round 2 is not suboptimal
    m = game_metrics(trace([rnd(1, (2, 0, 0), (3, 0, 0), 5, 5), rnd(2, (4, 0, 0), (3, 0, 0), 10, 10)]))
    assert m["counts"]["stubborn_anchoring"] == (0, 0) and m["stubborn_anchoring"] is None
    # an overdrawn round is not counted; the suboptimal round after it is (it changed): 0 of 1
    m = game_metrics(trace([rnd(1, (6, 0, 0), (6, 0, 0), 0, 0, overdraw=True), rnd(2, (4, 0, 0), (3, 0, 0), 5, 5),
                            rnd(3, (6, 0, 0), (6, 0, 0), 0, 0, overdraw=True)]))
    assert m["counts"]["stubborn_anchoring"] == (0, 1) and m["stubborn_anchoring"] == 0.0
    # pooled over the games' counted rounds: (1 + 1) / (1 + 2)
    p = pooled_metrics([trace([rnd(1, (2, 0, 0), (3, 0, 0), 10, 10), rnd(2, (2, 0, 0), (3, 0, 0), 5, 5)]),
                        trace([rnd(1, (4, 0, 0), (3, 0, 0), 10, 10), rnd(2, (2, 0, 0), (3, 0, 0), 5, 5),
                               rnd(3, (2, 0, 0), (3, 0, 0), 5, 5)])])
    assert p["counts"]["stubborn_anchoring"] == (2, 3) and p["stubborn_anchoring"] == pytest.approx(2 / 3)


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
    m = game_metrics(dict(trace(r, steps), config={"cheap_talk": True, "cheap_talk_turns": 5}))
    assert m["proposal_rate"] == 1.0
    assert m["deference_rate"] == 0.5  # followed in round 1 (5 wood), not in round 2 (bought 4)
    assert m["deference_suboptimal_rate"] == 0.0 and m["deference_optimal_rate"] == 0.5  # round 1 was optimal
    assert m["early_decision_rate"] == 0.5  # a decides on its 1st of 5 turns in round 2
    assert [p["first_proposal_followed"] for p in m["per_round"]] == [True, False]
    assert [p["first_proposal_to"] for p in m["per_round"]] == ["agent_a", "agent_a"]
    assert [p["first_proposal_turn"] for p in m["per_round"]] == [1, 1] and m["proposal_turns"] == [1, 1]


def talk_game(limit, *decision_turns, cheap_talk=True):
    """A game with one round per entry of ``decision_turns``: agent_a and agent_b alternate
    (a first) until a decides on its n-th talk turn; None: both talk to the limit and decide
    at the decision prompt. ``limit`` is the config's ``cheap_talk_turns`` (``...``: not
    recorded)."""
    rounds, steps = [], []
    for k, n in enumerate(decision_turns, start=1):
        rounds.append(rnd(k, (2, 0, 0), (3, 0, 0), 5, 5))
        for t in range(1, (n or limit) + 1):
            decide = {"purchase": {"r1": 2}} if t == n else None
            steps.append(say(k, "agent_a", f"Turn {t}.", decision=decide))
            if t != n:
                steps.append(say(k, "agent_b", f"Turn {t}."))
        if n is None:
            steps += [say(k, "agent_a", "", "decision", {"purchase": {"r1": 2}}),
                      say(k, "agent_b", "", "decision", {"purchase": {"r1": 3}})]
    cfg = {"cheap_talk": cheap_talk} | ({} if limit is ... else {"cheap_talk_turns": limit})
    return dict(trace(rounds, steps), config=cfg)


def test_early_decision_is_a_decision_before_the_deciders_last_allowed_turn():
    # "submitting a resource allocation before the 5-turn conversation limit is reached":
    # a's 5th of 5 turns is not early, its 4th is; a decision at the decision prompt never is
    m = game_metrics(talk_game(5, 5, 4, None))
    assert [r["early"] for r in m["per_round"]] == [False, True, False]
    assert m["counts"]["early_decision_rate"] == (1, 3) and m["early_decision_rate"] == pytest.approx(1 / 3)
    assert m["early_decision_na"] is None
    assert [r.decision_turn for r in rounds_of(talk_game(5, 5, 4, None))] == [5, 4, None]
    # the limit is the config's: with 2 turns each, turn 1 is early and turn 2 is not
    assert game_metrics(talk_game(2, 1, 2))["counts"]["early_decision_rate"] == (1, 2)
    # a forfeited turn is a turn used (the env's turns_used): a forfeits its 1st turn, then
    # decides on its 4th accepted talk step, its 5th turn: not early
    r = [rnd(1, (2, 0, 0), (3, 0, 0), 5, 5)]
    steps = [refused(1, "agent_a"), refused(1, "agent_a", forfeit=True), say(1, "agent_b", "Hi.")]
    for t in (2, 3, 4):
        steps += [say(1, "agent_a", f"Turn {t}."), say(1, "agent_b", f"Turn {t}.")]
    steps.append(say(1, "agent_a", "Done.", decision={"purchase": {"r1": 2}}))
    m = game_metrics(dict(trace(r, steps), config={"cheap_talk": True, "cheap_talk_turns": 5}))
    assert m["per_round"][0]["early"] is False and m["counts"]["early_decision_rate"] == (0, 1)


def test_early_decision_is_na_without_a_turn_limit():
    # unlimited talk (cheap_talk_turns = 0) has no limit to decide before: n/a, not 0 or 1
    m = game_metrics(talk_game(0, 1, 3))
    assert m["early_decision_rate"] is None and m["counts"]["early_decision_rate"] is None
    assert m["early_decision_na"] == "unlimited talk" and [r["early"] for r in m["per_round"]] == [None, None]
    # so is a no-talk game, and a trace whose config does not record the limit (not guessed as 5)
    quiet = game_metrics(talk_game(5, None, cheap_talk=False))
    assert quiet["early_decision_rate"] is None and quiet["early_decision_na"] == "no talk"
    unknown = game_metrics(talk_game(..., 1))
    assert unknown["early_decision_rate"] is None and unknown["early_decision_na"] == "turn limit not recorded"
    assert game_metrics(trace([rnd(1, (2, 0, 0), (3, 0, 0), 5, 5)]))["early_decision_na"] == "turn limit not recorded"
    # pooled: n/a when every game is, and otherwise over the games with a limit, the rest counted
    p = pooled_metrics([talk_game(0, 1, 3), talk_game(0, 2)])
    assert p["early_decision_rate"] is None and p["counts"]["early_decision_rate"] == (0, 0)
    assert p["early_decision_na"] == {"unlimited talk": 3}
    p = pooled_metrics([talk_game(0, 1, 3), talk_game(5, 5, 4), talk_game(..., 1)])
    assert p["counts"]["early_decision_rate"] == (1, 2) and p["early_decision_rate"] == 0.5
    assert p["early_decision_na"] == {"turn limit not recorded": 1, "unlimited talk": 2}
    assert pooled_metrics([talk_game(5, 4)])["early_decision_na"] == {}


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
    # round 2: b's reply, the 2nd message of the round, is b's own 1st turn
    assert [p["first_proposal_turn"] for p in m["per_round"]] == [1, 1]
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
    assert (r["first_proposal_to"], r["first_proposal_turn"], r["first_proposal_followed"]) == ("agent_b", 2, True)
    quiet = trace([rnd(1, (0, 4, 0), (5, 0, 0), 5, 5)], [say(1, "agent_b", "You take 4 stone.", phase="decision")])
    assert game_metrics(quiet)["proposal_rate"] == 0.0 and game_metrics(quiet)["deference_rate"] is None


def refused(k, agent, forfeit=False):
    """A talk step the env refused (``parsed`` null), as the recorder writes it; the last
    retry of a forfeited turn also carries ``talk_turn_forfeited``."""
    events = [{"type": "validation_error", "agent": agent, "round": k, "phase": "talk"}]
    if forfeit:
        events.append({"type": "talk_turn_forfeited", "agent": agent, "round": k, "phase": "talk"})
    return {"agent": agent, "round": k, "phase": "talk", "parsed": None, "valid": False, "events": events}


def test_the_proposal_turn_is_the_proposers_own_talk_turn():
    # "up to 5 turns each": turns are the proposer's own, not the round's messages
    r = [rnd(1, (5, 0, 0), (0, 3, 0), 10, 10)]
    # a proposal on agent_b's first message, the 2nd of the round: b's turn 1
    m = game_metrics(trace(r, [say(1, "agent_a", "Hello."), say(1, "agent_b", "You take 5 wood.")]))
    assert m["per_round"][0]["first_proposal_turn"] == 1 and m["proposal_turns"] == [1]
    # b forfeits its 1st turn (its refused retries before that are no turns), then proposes on its
    # 2nd turn, the 3rd message delivered: turn 2, as the env counts b's turns
    steps = [say(1, "agent_a", "Hello."), refused(1, "agent_b"), refused(1, "agent_b"),
             refused(1, "agent_b", forfeit=True), say(1, "agent_a", "What do you need?"),
             say(1, "agent_b", "You take 5 wood.")]
    assert game_metrics(trace(r, steps))["per_round"][0]["first_proposal_turn"] == 2
    # the median pools the proposers' turns: 1 and 2
    assert pooled_metrics([trace(r, steps[:1] + steps[-1:]), trace(r, steps)])["median_proposal_turn"] == 1.5


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
    assert m["proposal_turns"] == [1, 2, 1]  # b's 1st turn; b's 2nd (the 4th message); b's 1st (the 2nd)
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
    assert p["median_proposal_turn"] == 1.5  # turns 1, 2, 1 and 2 (b's 2nd turn, the 3rd message)
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


# --------------------------------------------------------------------------- fallback rounds


def fell_back(r, agents=("agent_a",)):
    """Round record ``r`` marked as the game marks a fallback decision."""
    r["outcome"]["fallback"] = {a: "zero" for a in agents}
    r["outcome"]["fallback_agents"] = sorted(agents)
    return r


def test_fallback_rounds_are_read_from_every_trace_form():
    base = [rnd(k, (1, 0, 0), (0, 1, 0), 5, 5) for k in (1, 2, 3)]
    assert fallback_rounds(trace(base)) == {}
    # the game's two outcome fields, each alone, and an older list-valued / boolean flag
    t = trace([dict(base[0], outcome=dict(base[0]["outcome"], fallback={"agent_b": "zero"})),
               dict(base[1], outcome=dict(base[1]["outcome"], fallback_agents=["agent_a"])),
               dict(base[2], outcome=dict(base[2]["outcome"], fallback=True))])
    assert fallback_rounds(t) == {1: ["agent_b"], 2: ["agent_a"], 3: ["?"]}
    t["rounds"][2]["outcome"]["fallback"] = "zero"  # a flag naming only the substitute
    assert fallback_rounds(t)[3] == ["?"]
    t["rounds"][2]["outcome"]["fallback"] = False
    assert 3 not in fallback_rounds(t)
    # no outcome field at all: the steps' heuristic_fallback / decision_auto_filled events
    ev = {"agent": "agent_b", "round": 2, "phase": "decision", "parsed": None,
          "events": [{"type": "validation_error", "agent": "agent_b", "round": 2},
                     {"type": "heuristic_fallback", "agent": "agent_b", "round": 2}]}
    assert fallback_rounds(trace(base, [ev])) == {2: ["agent_b"]}
    # empty markers mark nothing
    quiet = dict(base[0], outcome=dict(base[0]["outcome"], fallback={}, fallback_agents=[]))
    assert fallback_rounds(trace([quiet])) == {}


def test_fallback_rounds_are_left_out_of_every_measure():
    # 4 rounds, one scenario: optimal, FALLBACK (annulled by the substitute), suboptimal, the same again
    t = trace([rnd(1, (2, 0, 0), (3, 0, 0), 10, 10), fell_back(rnd(2, (0, 0, 0), (9, 0, 0), 0, 0, overdraw=True)),
               rnd(3, (2, 0, 0), (2, 0, 0), 5, 5), rnd(4, (2, 0, 0), (2, 0, 0), 5, 5)])
    m = game_metrics(t)
    assert (m["rounds"], m["rounds_total"], m["excluded_rounds"], m["fallback_rounds"]) == (3, 4, 1, 1)
    assert m["counts"]["overdraw_rate"] == (0, 3) and m["counts"]["optimum_rate"] == (1, 3)
    assert m["efficiency"] == pytest.approx((1 + 0.5 + 0.5) / 3)
    # only the pair (3, 4) joins two kept adjacent rounds: (1, 2) and (2, 3) touch the fallback
    assert m["counts"]["repeat_rate"] == (1, 1) and m["counts"]["win_stay"] == (1, 1)
    assert m["counts"]["stubborn_anchoring"] == (1, 1) and m["counts"]["positive_after_overdraw"] == (0, 0)
    assert m["counts"]["payoff_alternation"] == (0, 1) and m["counts"]["sustained_alternation"] == (0, 0)
    # a left-out round may hide the first optimum: no game-level figure
    assert m["has_optimal_round"] is None and m["rounds_to_first_optimum"] is None
    assert [r["round"] for r in m["per_round"]] == [1, 3, 4]
    # counted as play, the same game is the old reading
    a = game_metrics(t, include_fallbacks=True)
    assert (a["rounds"], a["excluded_rounds"], a["fallback_rounds"]) == (4, 0, 1)
    assert a["counts"]["overdraw_rate"] == (1, 4) and a["efficiency"] == pytest.approx(2 / 4)
    assert a["counts"]["repeat_rate"] == (1, 3) and a["counts"]["positive_after_overdraw"] == (1, 1)
    assert a["has_optimal_round"] is True and a["rounds_to_first_optimum"] == 1
    # pooled: games without a left-out round carry the game-level shares
    other = trace([rnd(1, (2, 0, 0), (2, 0, 0), 5, 5), rnd(2, (2, 0, 0), (3, 0, 0), 10, 10)])
    p = pooled_metrics([t, other])
    assert (p["games"], p["rounds"], p["rounds_total"], p["excluded_rounds"], p["whole_games"]) == (2, 5, 6, 1, 1)
    assert p["games_with_optimal_round"] == 1.0 and p["mean_rounds_to_first_optimum"] == 2.0
    # a game whose every round fell back counts nowhere, and is counted as left out
    gone = trace([fell_back(rnd(1, (0, 0, 0), (0, 0, 0), 0, 0), ("agent_a", "agent_b"))])
    g = game_metrics(gone)
    assert g["rounds"] == 0 and g["efficiency"] is None and g["overdraw_rate"] is None
    p = pooled_metrics([gone, other])
    assert (p["games"], p["games_excluded"], p["rounds"], p["efficiency"]) == (1, 1, 2, pytest.approx(0.75))
    assert model_metrics([dict(gone, agents=["agent_a", "agent_b"])]) == {}


def test_failed_improvement_transitions():
    # efficiencies 0 (overdraw), 0 (overdraw), 0.5, 0.5, 0.75, 1.0, 0.25: after an overdraw
    # one failed (overdraw again) and one improved; after a suboptimal round failed (0.5
    # -> 0.5), improved (0.5 -> 0.75) and optimal (0.75 -> 1); after the optimum nothing
    effs = [None, None, 10, 10, 15, 20, 5]
    t = trace([rnd(k, (1, 0, 0), (0, 1, 0), e or 0, 0, overdraw=e is None) for k, e in enumerate(effs, start=1)])
    m = game_metrics(t)
    assert [r["transition"] for r in m["per_round"]] == [None, "failed", "improved", "failed", "improved", "optimal",
                                                         None]
    c = m["counts"]
    assert c["after_overdraw_failed"] == (1, 2) and c["after_overdraw_improved"] == (1, 2)
    assert c["after_overdraw_optimal"] == (0, 2)
    assert c["after_suboptimal_failed"] == (1, 3) and c["after_suboptimal_improved"] == (1, 3)
    assert c["after_suboptimal_optimal"] == (1, 3)
    # round_classes reads the same classes from the outcomes alone
    classes, left = round_classes(t)
    assert left == 0 and [classes[k]["transition"] for k in sorted(classes)] == [r["transition"] for r in
                                                                                 m["per_round"]]
    assert [classes[k]["kind"] for k in sorted(classes)] == ["overdraw", "overdraw", "suboptimal", "suboptimal",
                                                             "suboptimal", "optimal", "suboptimal"]
    # a fallback round breaks the chain: round 4 has no previous kept round
    t["rounds"][2] = fell_back(t["rounds"][2])
    classes, left = round_classes(t)
    assert left == 1 and 3 not in classes and classes[4]["transition"] is None
    assert [r["transition"] for r in game_metrics(t)["per_round"]] == [None, "failed", None, "improved", "optimal",
                                                                       None]


@pytest.mark.parametrize("config, arm, protocol", [
    ({}, "", ""),
    ({"partner": "shifting", "rotation": "rotating", "theme": None, "reflection": True, "first_speaker": "agent_b",
      "json_suffix": ["agent_a"], "fallback": "individual_optimum"}, "", ""),
    ({"num_rounds": 2}, "", "rounds=2"),
    ({"cheap_talk": False}, "no-talk", ""),
    ({"cheap_talk": False, "cheap_talk_turns": 0}, "no-talk", ""),  # turns cannot count without talk
    ({"cheap_talk_turns": 0}, "unlimited-talk", ""),
    ({"cheap_talk_turns": 3}, "turns=3", ""),
    ({"thinking": False}, "no-thinking", ""),
    ({"transparency": "full"}, "transparency=full", ""),
    ({"transparency": "none", "intervention": None}, "", ""),
    ({"intervention": "project_sharing"}, "intervention=project_sharing", ""),
    ({"intervention": "theory_of_mind", "thinking": False}, "no-thinking + intervention=theory_of_mind", ""),
    ({"solo": True, "cheap_talk": False}, "oracle-check + no-talk", ""),
    ({"joint_plan": True, "cheap_talk": False, "transparency": "full"},
     "joint-oracle-check + no-talk + transparency=full", ""),
])
def test_main_cohort_and_intervention_arms(config, arm, protocol):
    t = {"game": "resource", "config": config}
    assert intervention_of(t) == arm and protocol_of(t) == protocol


def test_token_usage_per_model_and_part():
    usage = lambda p, c, r=None: {"prompt_tokens": p, "completion_tokens": c, "reasoning_tokens": r}  # noqa: E731
    steps = [
        {"agent": "agent_a", "round": 1, "phase": "talk", "tokens": usage(100, 40, 30)},
        {"agent": "agent_a", "round": 1, "phase": "talk", "tokens": usage(120, 20, 10)},  # a retry: billed too
        {"agent": "agent_a", "round": 1, "phase": "decision", "tokens": usage(200, 10, 0)},
        {"agent": "agent_b", "round": 1, "phase": "talk", "tokens": usage(50, 50, 40)},
        {"agent": "agent_b", "round": 1, "phase": "decision", "tokens": usage(60, 30)},  # no thinking count
        {"agent": "agent_a", "round": 2, "phase": "talk", "tokens": usage(300, 30, 3)},  # round 2 fell back
        {"agent": "agent_b", "round": 2, "phase": "decision", "tokens": usage(80, 8, 4)},
        {"agent": "agent_a", "round": 2, "phase": "reflection", "tokens": usage(400, 60, 20)},  # after the rounds
        {"agent": "agent_b", "round": 1, "phase": "talk", "tokens": None},
        {"agent": "agent_b", "round": 1, "phase": "talk", "tokens": {"prompt_tokens": "?", "completion_tokens": 3}},
    ]
    t = {"game": "resource", "game_id": "g", "agents": ["agent_a", "agent_b"],
         "policies": {"agent_a": {"label": "x"}, "agent_b": {"label": "y"}}, "steps": steps,
         "rounds": [rnd(1, (1, 0, 0), (0, 1, 0), 5, 5), fell_back(rnd(2, (1, 0, 0), (0, 0, 0), 5, 0), ("agent_b",))]}
    u = token_usage([t])
    x, y = u["x"], u["y"]
    # a fallback round is left out for both seats: x's round-2 call is not counted either
    assert x["rounds"] == {"calls": 3, "prompt": 420, "completion": 70, "thinking": 40, "thinking_calls": 3,
                           "excluded_calls": 1, "units": 1}
    assert (x["talk"]["calls"], x["talk"]["units"], x["talk"]["prompt"]) == (2, 1, 220)
    assert (x["decision"]["calls"], x["decision"]["units"], x["round 1"]["prompt"]) == (1, 1, 420)
    assert "round 2" not in x
    assert x["reflection"] == {"calls": 1, "prompt": 400, "completion": 60, "thinking": 20, "thinking_calls": 1,
                               "excluded_calls": 0, "units": 1}
    assert y["rounds"] == {"calls": 2, "prompt": 110, "completion": 80, "thinking": 40, "thinking_calls": 1,
                           "excluded_calls": 1, "units": 1}
    both = token_usage([t], include_fallbacks=True)
    assert both["x"]["round 2"]["prompt"] == 300 and both["y"]["rounds"]["units"] == 2


def test_error_rates_per_model():
    def ev(kind, agent, k=1):
        return {"type": kind, "agent": agent, "round": k}

    steps = [{"agent": "agent_a", "round": 1, "phase": "talk", "events": [ev("validation_error", "agent_a")]},
             {"agent": "agent_a", "round": 1, "phase": "talk", "events": [ev("output_format_warning", "agent_a")]},
             {"agent": "agent_b", "round": 2, "phase": "decision",
              "events": [ev("validation_error", "agent_b", 2), ev("heuristic_fallback", "agent_b", 2),
                         ev("decision_auto_filled", "agent_b", 2)]},
             {"agent": "agent_b", "round": 2, "phase": "talk", "events": [ev("talk_turn_forfeited", "agent_b", 2),
                                                                          ev("reflection", "agent_b", 2)]}]
    g1 = {"game": "resource", "game_id": "g1", "agents": ["agent_a", "agent_b"], "steps": steps,
          "policies": {"agent_a": {"label": "x"}, "agent_b": {"label": "y"}},
          "rounds": [rnd(1, (1, 0, 0), (0, 1, 0), 5, 5), fell_back(rnd(2, (1, 0, 0), (0, 0, 0), 5, 0), ("agent_b",))]}
    g2 = {"game": "resource", "game_id": "g2", "agents": ["agent_a", "agent_b"], "steps": [],
          "policies": {"agent_a": {"label": "x"}, "agent_b": {"label": "x"}},
          "rounds": [rnd(1, (1, 0, 0), (0, 1, 0), 5, 5)]}
    r = error_rates([g1, g2])
    assert list(r) == ["x", "y", "All"]
    assert {k: r["x"][k] for k in ("games", "agent_rounds", "validation_error", "output_format_warning", "events",
                                   "games_with_error", "fallback_rounds")} == \
        {"games": 2, "agent_rounds": 2 + 2, "validation_error": 1, "output_format_warning": 1, "events": 2,
         "games_with_error": 1, "fallback_rounds": 0}
    assert {k: r["y"][k] for k in ("games", "agent_rounds", "validation_error", "heuristic_fallback",
                                   "decision_auto_filled", "talk_turn_forfeited", "events", "fallback_rounds")} == \
        {"games": 1, "agent_rounds": 2, "validation_error": 1, "heuristic_fallback": 1, "decision_auto_filled": 1,
         "talk_turn_forfeited": 1, "events": 3, "fallback_rounds": 1}
    assert (r["All"]["games"], r["All"]["agent_rounds"], r["All"]["events"], r["All"]["games_with_error"]) == \
        (2, 6, 5, 1)


def test_kept_round_counts_are_game_metrics_round_figures():
    """The runner's summary reads kept_round_counts: the same rounds, exclusions, overdraw,
    optimum and efficiency as game_metrics, with and without fallback rounds."""
    games = [
        trace([rnd(1, (2, 0, 0), (3, 0, 0), 10, 10), fell_back(rnd(2, (0, 0, 0), (9, 0, 0), 0, 0, overdraw=True)),
               rnd(3, (2, 0, 0), (2, 0, 0), 5, 5), rnd(4, (2, 0, 0), (2, 0, 0), 7, 6)]),
        trace([fell_back(rnd(1, (0, 0, 0), (0, 0, 0), 0, 0), ("agent_a", "agent_b"))]),
        trace([rnd(1, (2, 0, 0), (2, 0, 0), 5, 5, overdraw=True), rnd(2, (2, 0, 0), (3, 0, 0), 3, 10, M=17)]),
    ]
    for t in games:
        for include in (False, True):
            m, k = game_metrics(t, include_fallbacks=include), kept_round_counts(t, include_fallbacks=include)
            assert k == {"rounds": m["rounds"], "excluded_rounds": m["excluded_rounds"],
                         "overdrawn": m["counts"]["overdraw_rate"][0], "optimal": m["counts"]["optimum_rate"][0],
                         "efficiency_sum": sum(r["efficiency"] for r in m["per_round"])}
    with pytest.raises(ValueError, match="no resolved rounds"):
        kept_round_counts(trace([]))
    with pytest.raises(ValueError, match="lacks 'purchases'"):
        kept_round_counts({"game": "resource", "rounds": [{"round": 1, "outcome": {"rewards": {}}}]})
