"""The four stage games: Table S11's literal payoffs, the rank orders of Methods, symmetry,
and the paper's remark on constant A versus sustained alternation."""

from __future__ import annotations

import itertools

import pytest

from negotiation_env.games.matrix.rules import (ACTIONS, PAYOFF_ORDER, RANK_ORDERS, STAGE_GAMES, other_action, resolve,
                                                stage_game)

# Table S11, focal/counterpart points in the prompt's column order: A, "You B, other A", "You A, other B", B
TABLE_S11 = {
    "prisoners_dilemma": ((3, 3), (5, 0), (0, 5), (1, 1)),
    "snowdrift": ((3, 3), (5, 1), (1, 5), (0, 0)),
    "stag_hunt": ((5, 5), (3, 0), (0, 3), (1, 1)),
    "harmony": ((5, 5), (1, 3), (3, 1), (0, 0)),
}
# Methods: R (A vs A), S (A vs B), T (B vs A), P (B vs B)
RSTP = {"prisoners_dilemma": (3, 0, 5, 1), "snowdrift": (3, 1, 5, 0), "stag_hunt": (5, 0, 3, 1), "harmony": (5, 3, 1, 0)}


def test_the_four_games_in_the_papers_order():
    assert STAGE_GAMES == ("prisoners_dilemma", "snowdrift", "stag_hunt", "harmony")
    assert [stage_game(g).name for g in STAGE_GAMES] == ["Prisoner's Dilemma", "Snowdrift", "Stag Hunt", "Harmony"]


@pytest.mark.parametrize("game", STAGE_GAMES)
def test_payoff_lines_are_table_s11(game):
    g = stage_game(game)
    assert PAYOFF_ORDER == (("A", "A"), ("B", "A"), ("A", "B"), ("B", "B"))
    assert tuple((po, px) for _, _, po, px in g.lines()) == TABLE_S11[game]
    assert tuple(po for po, _ in TABLE_S11[game]) == g.own_payoffs()
    assert (g.R, g.S, g.T, g.P) == RSTP[game]


@pytest.mark.parametrize("game", STAGE_GAMES)
def test_rank_order_gets_5_3_1_0(game):
    g = stage_game(game)
    values = {"R": g.R, "S": g.S, "T": g.T, "P": g.P}
    assert [values[k] for k in RANK_ORDERS[game]] == [5, 3, 1, 0]


def test_rank_orders_of_methods():
    assert RANK_ORDERS == {"prisoners_dilemma": "TRPS", "snowdrift": "TRSP", "stag_hunt": "RTPS", "harmony": "RSTP"}


@pytest.mark.parametrize("game", STAGE_GAMES)
def test_symmetric_and_seat_free(game):
    g = stage_game(game)
    for a0, a1 in itertools.product(ACTIONS, repeat=2):
        r = resolve(g, 3, a0, a1)
        assert r.payoffs == (g.payoff(a0, a1), g.payoff(a1, a0))
        assert resolve(g, 3, a1, a0).payoffs == r.payoffs[::-1]
        assert r.joint == a0 + a1 and r.round == 3


def test_constant_a_weakly_dominates_alternation_ties_only_antiphase_snowdrift():
    """Methods: constant A weakly dominates in-phase and antiphase alternation in every
    game and strictly except antiphase Snowdrift, which ties ((T + S) / 2 = R)."""
    for game in STAGE_GAMES:
        g = stage_game(game)
        constant = g.R
        in_phase = (g.payoff("A", "A") + g.payoff("B", "B")) / 2
        antiphase = (g.payoff("A", "B") + g.payoff("B", "A")) / 2
        assert constant > in_phase
        if game == "snowdrift":
            assert constant == antiphase == 3
        else:
            assert constant > antiphase


def test_bad_input_is_refused_with_the_allowed_values():
    with pytest.raises(ValueError, match="unknown stage game 'chicken'; one of prisoners_dilemma, snowdrift"):
        stage_game("chicken")
    with pytest.raises(ValueError, match="'A' or 'B'"):
        stage_game("harmony").payoff("C", "A")
    with pytest.raises(ValueError, match="'A' or 'B'"):
        other_action("a")
    assert other_action("A") == "B" and other_action("B") == "A"
