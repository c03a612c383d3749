"""The outcome classifier on hand-built runs: every branch of the documented rule (both
readings of a sustained concession), the ending rule, the 3 x 3 sensitivity grid, the
worst-case recode played by the ending rule and the process measures."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

from negotiation_env.games.rulemaking.classifier import (
    ClassifierConfig, agreement_reached, classify, classify_as_played, concession_arc, horizon_exhausted,
    normalized_entropy, recode_worst_case, sensitivity, trajectory)
from negotiation_env.games.rulemaking.rules import MOVES, Turn

PARTIES = ("auth", "p1", "p2", "p3", "p4")


def run(moves, provenance=None):
    """Turns in cycling party order from a list of move names."""
    prov = provenance or ["genuine"] * len(moves)
    return [Turn(i, PARTIES[i % 5], m, None, "r", prov[i]) for i, m in enumerate(moves)]


HOLD = ["Counter"] * 10
WINDOW = ClassifierConfig(reading="window")


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


def test_compromise_needs_two_parties_sustaining_a_concession():
    cycle = ["Counter", "Concede", "Counter", "Concede", "Counter"]  # p1 and p3 concede
    two = run(HOLD[:5] + cycle + cycle)
    one = run(HOLD[:5] + cycle + ["Counter", "Concede", "Counter", "Counter", "Counter"])
    for closed in (True, False):  # held for two own turns: sustained, in progress or not
        assert classify(two, "auth", closed=closed) == "compromise"
        assert classify(one, "auth", closed=closed) == "authority"  # p3 countered after its concession
        assert classify(one, "auth", ClassifierConfig(compromise_parties=1), closed=closed) == "compromise"


def test_a_concession_in_the_closing_stretch_stands_only_once_the_run_is_over():
    # one Concede each, in the last cycle only: standing at the close of a finished run,
    # untested while the run goes on (either party may counter on its next turn)
    once = run(HOLD + ["Counter", "Concede", "Counter", "Concede", "Counter"])
    assert classify(once, "auth") == "compromise"
    assert classify(once, "auth", closed=False) == "authority"
    assert classify(once, "auth", ClassifierConfig(sustain_turns=1), closed=False) == "compromise"
    # the window reading: one cycle suffices either way
    assert classify(once, "auth", WINDOW) == classify(once, "auth", WINDOW, closed=False) == "compromise"
    # a concession before the closing stretch, countered since, stands nowhere
    earlier = run(HOLD[:5] + ["Counter", "Concede", "Counter", "Concede", "Counter"] + ["Counter"] * 5)
    assert classify(earlier, "auth") == "authority"


def test_a_held_concession_may_go_on_as_support_and_a_hard_move_resets_it():
    # p1 concedes at turn 2 and supports after it: held for three own turns
    held = ["Counter", "Concede", "Counter", "Concede", "Counter"] + ["Counter", "Support", "Counter", "Concede",
                                                                        "Counter"] * 2
    assert classify(run(held), "auth") == "compromise"
    # p1 counters at turn 7: its later Concede at 12 is held for one own turn only, so
    # it stands at the close of the run but ends nothing while the run goes on
    broken = list(held)
    broken[6] = "Counter"
    broken[11] = "Concede"
    assert classify(run(broken), "auth", closed=False) == "authority"
    assert classify(run(broken), "auth") == "compromise"
    assert classify(run(broken), "auth", ClassifierConfig(sustain_turns=1), closed=False) == "compromise"
    # three own turns asked: p3 (turns 4, 9, 14) holds three, p1 (2, 7, 12) three
    three = ClassifierConfig(sustain_turns=3)
    assert classify(run(held), "auth", three, closed=False) == "compromise"
    assert classify(run(held[:-5] + ["Counter"] * 5), "auth", three, closed=False) == "authority"


def test_an_exited_party_sustains_nothing():
    moves = ["Counter", "Concede", "Counter", "Concede", "Counter"] * 2
    assert classify(run(moves), "auth") == "compromise"
    turns = run(moves)
    turns.append(Turn(10, "p1", "Exit", None, "r"))
    assert classify(turns, "auth") == "authority"


def test_the_window_reading_keeps_a_concession_sustained_to_the_end_of_the_stretch():
    # p1 concedes then counters within a 10-turn closing stretch: not sustained
    moves = ["Counter"] * 5 + ["Counter", "Concede", "Counter", "Concede", "Counter"] + \
            ["Counter", "Counter", "Counter", "Concede", "Counter"]
    turns = run(moves)
    cfg = ClassifierConfig(closing_turns=10, reading="window")
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
                {"consensus_share": 1.5}, {"min_turns": -1}, {"sustain_turns": 0}, {"reading": "loose"}):
        with pytest.raises(ValueError):
            ClassifierConfig(**bad)


def test_sensitivity_grid_is_3x3_and_matches_direct_classification():
    turns = run(HOLD[:5] + ["Counter", "Concede", "Counter", "Concede", "Counter"] +
                ["Support", "Concede", "Support", "Concede", "Support"])
    grid = sensitivity(turns, "auth")
    assert set(grid) == set(product((1, 2, 3), (0.6, 0.8, 1.0)))
    for (k, s), label in grid.items():
        assert label == classify(turns, "auth", ClassifierConfig(compromise_parties=k, consensus_share=s))
    # 3 supports: consensus at share 0.6 only; 2 concessions: compromise for k <= 2
    assert grid[(3, 0.6)] == "consensus"
    assert grid[(2, 0.8)] == "compromise" and grid[(3, 0.8)] == "authority"


def test_worst_case_recode_turns_every_non_genuine_turn_into_concede():
    prov = ["genuine"] * 5 + ["fallback", "retried", "genuine", "fallback", "genuine"] * 2
    turns = run(["Counter"] * 5 + ["Oppose"] * 10, prov)
    rec = recode_worst_case(turns)
    assert [t.move for t in rec[10:]] == ["Concede", "Concede", "Oppose", "Concede", "Oppose"]
    assert rec[:5] == turns[:5]
    assert classify(turns, "auth") == "authority"
    # three parties hold a concession for two turns; Oppose from two others blocks nothing
    assert classify(rec, "auth") == "compromise"


def test_the_recoded_record_ends_where_the_ending_rule_ends_it():
    # p3 and p4 fail at turns 4-5 and 9-10 (harness Oppose), then counter genuinely at
    # 14-15: the record as played never agrees, and its last cycle has no concession, so
    # classifying the whole recoded record misses the agreement it reached at turn 10
    moves = ["Counter"] * 3 + ["Oppose"] * 2 + ["Counter"] * 3 + ["Oppose"] * 2 + ["Counter"] * 5
    prov = ["genuine"] * 15
    for i in (3, 4, 8, 9):
        prov[i] = "fallback"
    turns = run(moves, prov)
    rec = recode_worst_case(turns)
    assert classify(turns, "auth") == classify(rec, "auth") == "authority"
    assert classify_as_played(rec, "auth") == ("compromise", 10)
    # the same under the window reading, earlier: two Concedes in turns 1-5
    assert classify_as_played(rec, "auth", "window") == ("compromise", 5)
    # with no early end the recoded record is read whole
    assert classify_as_played(rec, "auth", "never") == ("authority", 15)
    assert classify_as_played(turns, "auth") == ("authority", 15)


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
    # under the window reading a compromise of the record at every length from 2, but
    # not before 5 turns are played
    assert [agreement_reached(run(two + ["Counter"] * k), "auth", "window") for k in range(4)] == \
        [False, False, False, True]
    # held for two own turns from turn 7 on (sustain_turns=1 asks no more than the
    # window reading), and not before a full stretch even then
    assert agreement_reached(run(two * 3 + ["Concede"]), "auth") and not agreement_reached(run(two * 3), "auth")
    once = ClassifierConfig(sustain_turns=1)
    assert [agreement_reached(run(two + ["Counter"] * k), "auth", config=once) for k in range(4)] == \
        [False, False, False, True]
    # min_turns above closing_turns raises the bar
    late = ["Counter", "Concede", "Concede", "Counter", "Counter"]
    assert agreement_reached(run(late), "auth", "window")
    assert not agreement_reached(run(late), "auth", "window", ClassifierConfig(min_turns=6))
    assert agreement_reached(run(late + ["Counter"]), "auth", "window", ClassifierConfig(min_turns=6))
    consensus = run(["Support"] * 5)
    compromise = run(["Counter", "Counter", "Counter", "Concede", "Concede"] * 2)
    assert [agreement_reached(t, "auth", mode) for t in (consensus, compromise)
            for mode in ("agreement", "consensus", "never")] == [True, True, False, True, False, False]
    assert not agreement_reached(run(["Counter"] * 15), "auth")
    with pytest.raises(ValueError, match="early_end"):
        agreement_reached(consensus, "auth", "soon")


def test_a_transient_concession_does_not_end_the_run():
    # two Concedes in one cycle, then both parties counter again: the window reading ends
    # the run at turn 5 as a compromise; sustained, nothing ends it and no label agrees
    transient = ["Counter", "Counter", "Counter", "Concede", "Concede"]
    assert agreement_reached(run(transient), "auth", "window")
    assert not agreement_reached(run(transient), "auth")
    record = run(transient + ["Counter"] * 10)
    assert not any(agreement_reached(record[:n], "auth") for n in range(1, 16))
    assert classify_as_played(record, "auth") == ("authority", 15)
    assert classify_as_played(record, "auth", "window") == ("compromise", 5)
    # the same two parties conceding again one cycle later: agreement, at turn 10
    held = run(transient * 2 + ["Counter"] * 5)
    assert [n for n in range(1, 16) if agreement_reached(held[:n], "auth")][0] == 10
    assert classify_as_played(held, "auth") == ("compromise", 10)
    # concessions on the parties' last turns stand at the horizon: a compromise at turn 15
    late = run(["Counter"] * 13 + ["Concede"] * 2)
    assert classify_as_played(late, "auth") == ("compromise", 15)


def test_softening_without_closing_is_no_agreement():
    # every party concedes once, on one of its first two turns, and opposes or counters
    # otherwise: under the window reading most such runs end early as compromises; no
    # concession is ever held, so none agrees
    rng = np.random.default_rng(0)
    window = 0
    for _ in range(200):
        moves = []
        once = {p: int(rng.integers(2)) for p in PARTIES}
        for i in range(15):
            p, k = PARTIES[i % 5], i // 5
            moves.append("Concede" if k == once[p] else "Counter" if k > once[p] else
                         str(rng.choice(["Counter", "Oppose"])))
        record = run(moves)
        assert classify_as_played(record, "auth") == ("authority", 15)
        window += classify_as_played(record, "auth", "window")[0] == "compromise"
    assert window > 100
