"""The outcome classifier on hand-built runs: every branch of the documented rule, the
3 x 3 sensitivity grid, the worst-case recode and the process measures."""

from __future__ import annotations

import math
from itertools import product

import pytest

from negotiation_env.games.rulemaking.classifier import (
    ClassifierConfig, agreement_reached, classify, concession_arc, horizon_exhausted, normalized_entropy,
    recode_worst_case, sensitivity, trajectory)
from negotiation_env.games.rulemaking.rules import MOVES, Turn

PARTIES = ("auth", "p1", "p2", "p3", "p4")


def run(moves, provenance=None):
    """Turns in cycling party order from a list of move names."""
    prov = provenance or ["genuine"] * len(moves)
    return [Turn(i, PARTIES[i % 5], m, None, "r", prov[i]) for i, m in enumerate(moves)]


HOLD = ["Counter"] * 10


def test_consensus_when_closing_stretch_is_four_of_five_support_and_unblocked():
    turns = run(HOLD + ["Support", "Support", "Counter", "Support", "Support"])
    assert classify(turns, "auth") == "consensus"


def test_an_oppose_in_the_closing_stretch_blocks_consensus():
    turns = run(HOLD + ["Support", "Support", "Oppose", "Support", "Support"])
    assert classify(turns, "auth") == "authority"


def test_three_supports_is_not_consensus_at_the_default_share():
    turns = run(HOLD + ["Support", "Support", "Counter", "Counter", "Support"])
    assert classify(turns, "auth") == "authority"
    assert classify(turns, "auth", ClassifierConfig(consensus_share=0.6)) == "consensus"


def test_compromise_needs_two_parties_conceding_in_the_closing_stretch():
    two = run(HOLD + ["Counter", "Concede", "Counter", "Concede", "Counter"])
    one = run(HOLD + ["Counter", "Concede", "Counter", "Counter", "Counter"])
    assert classify(two, "auth") == "compromise"
    assert classify(one, "auth") == "authority"
    assert classify(one, "auth", ClassifierConfig(compromise_parties=1)) == "compromise"


def test_a_concession_must_be_sustained_to_the_end_of_the_stretch():
    # p1 concedes then counters within a 10-turn closing stretch: not sustained
    moves = ["Counter"] * 5 + ["Counter", "Concede", "Counter", "Concede", "Counter"] + \
            ["Counter", "Counter", "Counter", "Concede", "Counter"]
    turns = run(moves)
    cfg = ClassifierConfig(closing_turns=10)
    # p1 conceded at turn 7 then countered at 12; p3 conceded at 9 and 14 with no hard move between
    assert classify(turns, "auth", cfg) == "authority"
    moves[11] = "Support"  # p1's later move softens: p1 now sustains
    assert classify(run(moves), "auth", cfg) == "compromise"


def test_consensus_is_tested_before_compromise():
    turns = run(HOLD + ["Support", "Concede", "Support", "Support", "Support"])
    # four supports and a concede: consensus, even though one party conceded
    assert classify(turns, "auth") == "consensus"


def test_authority_decision_needs_min_turns_and_the_authority_present():
    short = run(["Counter"] * 4)
    assert classify(short, "auth") == "deadlock"
    assert classify(run(["Counter"] * 5), "auth") == "authority"
    walked = run(["Exit"] + ["Counter"] * 9)
    assert classify(walked, "auth") == "deadlock"
    assert classify(short, "auth", ClassifierConfig(min_turns=4)) == "authority"


def test_config_validation():
    for bad in ({"closing_turns": 0}, {"compromise_parties": 0}, {"consensus_share": 0.0},
                {"consensus_share": 1.5}, {"min_turns": -1}):
        with pytest.raises(ValueError):
            ClassifierConfig(**bad)


def test_sensitivity_grid_is_3x3_and_matches_direct_classification():
    turns = run(HOLD + ["Support", "Concede", "Support", "Concede", "Support"])
    grid = sensitivity(turns, "auth")
    assert set(grid) == set(product((1, 2, 3), (0.6, 0.8, 1.0)))
    for (k, s), label in grid.items():
        assert label == classify(turns, "auth", ClassifierConfig(compromise_parties=k, consensus_share=s))
    # 3 supports: consensus at share 0.6 only; 2 concessions: compromise for k <= 2
    assert grid[(3, 0.6)] == "consensus"
    assert grid[(2, 0.8)] == "compromise" and grid[(3, 0.8)] == "authority"


def test_worst_case_recode_turns_every_non_genuine_turn_into_concede():
    prov = ["genuine"] * 10 + ["fallback", "retried", "genuine", "fallback", "genuine"]
    turns = run(HOLD + ["Oppose"] * 5, prov)
    rec = recode_worst_case(turns)
    assert [t.move for t in rec[10:]] == ["Concede", "Concede", "Oppose", "Concede", "Oppose"]
    assert rec[:10] == turns[:10]
    assert classify(turns, "auth") == "authority"
    # three concessions, but Oppose from two others blocks nothing in the compromise rule
    assert classify(rec, "auth") == "compromise"


def test_entropy_is_normalised_shannon_entropy_of_the_five_moves():
    assert normalized_entropy(run(["Counter"] * 15)) == 0.0
    assert normalized_entropy(run(list(MOVES))) == pytest.approx(1.0)
    mix = run(["Counter"] * 3 + ["Concede"])
    p = [0.75, 0.25]
    assert normalized_entropy(mix) == pytest.approx(-sum(q * math.log2(q) for q in p) / math.log2(5))


def test_horizon_arc_and_trajectory():
    turns = run(["Counter", "Oppose", "Counter", "Counter", "Counter", "Concede"])
    assert horizon_exhausted(turns, 6) and not horizon_exhausted(turns, 15)
    assert concession_arc(turns)  # auth: Counter at 0, Concede at 5
    assert not concession_arc(run(["Concede"] * 5 + ["Counter"] * 5))
    assert trajectory(turns) == ("Counter", "Oppose", "Counter", "Counter", "Counter", "Concede")


def test_agreement_reached_needs_a_full_closing_stretch_and_the_modes_label():
    two = ["Concede", "Concede"]
    # a compromise of the record at every length from 2, but not before 5 turns are played
    assert [agreement_reached(run(two + ["Counter"] * k), "auth") for k in range(4)] == [False, False, False, True]
    # min_turns above closing_turns raises the bar
    late = ["Counter", "Concede", "Concede", "Counter", "Counter"]
    assert agreement_reached(run(late), "auth")
    assert not agreement_reached(run(late), "auth", config=ClassifierConfig(min_turns=6))
    assert agreement_reached(run(late + ["Counter"]), "auth", config=ClassifierConfig(min_turns=6))
    consensus = run(["Support"] * 5)
    compromise = run(["Counter", "Counter", "Counter", "Concede", "Concede"])
    assert [agreement_reached(t, "auth", mode) for t in (consensus, compromise)
            for mode in ("agreement", "consensus", "never")] == [True, True, False, True, False, False]
    assert not agreement_reached(run(["Counter"] * 15), "auth")
    with pytest.raises(ValueError, match="early_end"):
        agreement_reached(consensus, "auth", "soon")
