"""Bradley–Terry ratings: recovery of known strengths, interval coverage, block
resampling of common-random-number pairs, and a real scripted cohort."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import spearmanr

from negotiation_env.analysis.ratings import (ELO_SCALE, PairGame, bradley_terry, crn_block, fit_ratings,
                                              pair_games, ratings)


def _tournament(rng, elo, games_per_pair):
    """Games drawn from Bradley–Terry with the given Elo ratings (no draws)."""
    names = [f"p{i}" for i in range(len(elo))]
    s = np.exp(np.asarray(elo, dtype=float) / ELO_SCALE)
    out = []
    for i in range(len(elo)):
        for j in range(i + 1, len(elo)):
            p = s[i] / (s[i] + s[j])
            for n in range(games_per_pair):
                win = rng.random() < p
                out.append(PairGame(names[i], names[j], float(win), float(not win), (i, j, n)))
    return names, out


def test_mm_fit_matches_closed_form_two_policies():
    # two policies: p_0 / p_1 = w_01 / w_10 exactly
    s = bradley_terry(np.array([[0.0, 30.0], [10.0, 0.0]]))
    assert s[0] / s[1] == pytest.approx(3.0, rel=1e-8)
    assert s[0] * s[1] == pytest.approx(1.0)


def test_mm_fit_refuses_a_policy_without_a_loss():
    with pytest.raises(ValueError, match="no win or no loss"):
        bradley_terry(np.array([[0.0, 5.0], [0.0, 0.0]]))


def test_recovers_known_strengths():
    true = np.array([1250.0, 1400.0, 1500.0, 1600.0, 1750.0])
    names, games = _tournament(np.random.default_rng(7), true, 400)
    r = fit_ratings(games, n_resamples=0, prior=0.0)
    assert r.policies == names
    assert spearmanr(r.elo, true).statistic == pytest.approx(1.0)
    assert r.elo.mean() == pytest.approx(1500.0)
    # gaps to the mean within 35 Elo (400 games a pair: standard error about 15)
    assert np.max(np.abs((r.elo - r.elo.mean()) - (true - true.mean()))) < 35.0


def test_anchor_puts_a_policy_at_1500():
    _, games = _tournament(np.random.default_rng(1), [1400.0, 1600.0], 50)
    r = fit_ratings(games, n_resamples=0, anchor="p1")
    assert r.elo[1] == pytest.approx(1500.0)
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings(games, n_resamples=0, anchor="nobody")


def test_intervals_cover_the_truth_at_the_stated_rate():
    true = np.array([1400.0, 1500.0, 1600.0])
    rng = np.random.default_rng(2024)
    hits = total = 0
    for rep in range(40):
        _, games = _tournament(rng, true, 60)
        r = fit_ratings(games, level=0.9, n_resamples=150, seed=rep, prior=0.5)
        hits += int(np.sum((r.low <= true) & (true <= r.high)))
        total += len(true)
    # 120 intervals at 90%: binomial sd about 3 points; a wide band for their correlation
    assert 0.78 <= hits / total <= 0.98, hits / total


def test_crn_pairs_resample_together():
    # each block holds both seat orders of one draw, won by whichever side held seat a:
    # every resample keeps them together, so every pairing is exactly even
    games = []
    for n in range(20):
        games.append(PairGame("x", "y", 1.0, 0.0, ("blk", n)))
        games.append(PairGame("y", "x", 1.0, 0.0, ("blk", n)))
    r = fit_ratings(games, n_resamples=200, seed=3, prior=0.0)
    assert r.low == pytest.approx([1500.0, 1500.0]) and r.high == pytest.approx([1500.0, 1500.0])
    # without the blocks the same games give a real interval
    loose = [PairGame(g.a, g.b, g.payoff_a, g.payoff_b, None) for g in games]
    r2 = fit_ratings(loose, n_resamples=200, seed=3, prior=0.5)
    assert r2.high[0] - r2.low[0] > 20.0


def test_crn_block_of_runner_traces_pairs_seat_orders():
    base = {"scenario": "mc080_1", "seeds": {"env": 5}}
    t0 = dict(base, run={"run_id": "r", "cell": "c", "repetition": 0})
    t1 = dict(base, run={"run_id": "r", "cell": "c", "repetition": 1})
    t2 = dict(base, run={"run_id": "r", "cell": "c", "repetition": 2})
    assert crn_block(t0) == crn_block(t1) != crn_block(t2)
    assert crn_block({"game": "matrix", "scenario": None, "seeds": {"env": 9}}) == ("env", "matrix", None, 9)


def test_matrices_and_draws():
    games = [PairGame("a", "b", 3.0, 1.0), PairGame("b", "a", 2.0, 2.0), PairGame("a", "a", 1.0, 1.0),
             PairGame("a", "b", 0.0, 5.0)]
    r = fit_ratings(games, n_resamples=0)
    a, b = r.policies.index("a"), r.policies.index("b")
    assert (r.wins[a, b], r.draws[a, b], r.losses[a, b]) == (1, 1, 1)
    assert (r.wins[b, a], r.draws[b, a], r.losses[b, a]) == (1, 1, 1)
    assert r.draws[a, a] == 2  # a self-play draw counts once from each seat
    assert r.mean_payoff[a, b] == pytest.approx((3.0 + 2.0 + 0.0) / 3)
    assert r.mean_payoff[b, a] == pytest.approx((1.0 + 2.0 + 5.0) / 3)
    assert r.games.tolist() == [3, 3]
    assert r.elo == pytest.approx([1500.0, 1500.0])


def test_missing_pairing_is_noted_and_bad_input_refused():
    games = [PairGame("a", "b", 1.0, 0.0), PairGame("b", "a", 1.0, 0.0), PairGame("b", "c", 1.0, 0.0),
             PairGame("c", "b", 1.0, 0.0)]
    r = fit_ratings(games, n_resamples=10)
    assert r.notes == ["pairings never played: a × c"]
    with pytest.raises(ValueError, match="level"):
        fit_ratings(games, level=1.0)
    with pytest.raises(ValueError, match="two different policies"):
        fit_ratings([PairGame("a", "a", 1.0, 0.0)])


def test_rulemaking_is_left_out_as_not_pairwise():
    trace = {"game_id": "g", "game": "rulemaking", "agents": list("abcde"), "status": "complete",
             "rounds": [{}], "returns": {k: 1.0 for k in "abcde"}}
    games, left = pair_games([trace])
    assert games == [] and left == ["g (not pairwise: 5 seats)"]


def test_a_scripted_cohort_gives_every_policy_a_rating(tmp_path):
    from negotiation_env.runner import run
    from negotiation_env.traces import read_traces

    cfg = {"name": "ratings-test", "seed": 0, "games": [{
        "game": "resource", "policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"],
        "pairings": "all", "games_per_cell": 4, "swap_seats": True,
        "config": {"num_rounds": 2, "cheap_talk_turns": 1}, "scenario_sets": {"mc0.8": ["mc080_*"]}}]}
    run(cfg, tmp_path, preflight=False)
    traces = read_traces(tmp_path).traces
    r = ratings(traces, game="resource", n_resamples=100)
    assert r.policies == ["scripted:greedy", "scripted:linear", "scripted:oracle"]
    assert all(math.isfinite(x) for x in r.elo)
    assert r.games.tolist() == [8, 8, 8]  # 4 games against each of the two others
    assert (r.wins == r.losses.T).all() and (r.draws == r.draws.T).all()
    assert r.left_out == [] and r.notes == []
    assert "total reward" in r.comparison
    # blocks are the swapped-seat pairs: 2 per pairing of 4 games
    games, _ = pair_games(traces, "resource")
    cross = [g for g in games if g.a != g.b]
    assert len({g.block for g in cross if {g.a, g.b} == {"scripted:oracle", "scripted:linear"}}) == 2
