"""Meta-game analysis: Nash averaging against closed forms, α-rank against OpenSpiel's
published worked example and a two-strategy closed form, regret, replicator dynamics,
refusal of missing cells, and a real scripted resource run."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("open_spiel")

from negotiation_env.analysis.metagame import (alpha_rank, fit_metagame, max_entropy_nash, metagame,  # noqa: E402
                                               nash_averaging, payoff_matrix, regret, replicator_trajectory,
                                               symmetric_nash)
from negotiation_env.analysis.ratings import PairGame  # noqa: E402

RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])


def test_rock_paper_scissors_is_uniform():
    p, ratings = nash_averaging(RPS)
    assert p == pytest.approx([1 / 3] * 3, abs=1e-7)
    assert ratings == pytest.approx([0.0] * 3, abs=1e-7)


def test_a_dominated_strategy_gets_no_mass():
    # RPS plus a policy that loses 1 to each of them: A[d, j] = -1 - 1 = -2
    m = np.zeros((4, 4))
    m[:3, :3] = RPS
    m[3, :3], m[:3, 3] = -1.0, 1.0
    p, ratings = nash_averaging(m)
    assert p[3] == 0.0
    assert p[:3] == pytest.approx([1 / 3] * 3, abs=1e-7)
    assert ratings == pytest.approx([0.0, 0.0, 0.0, -2.0], abs=1e-7)


def test_continuum_of_equilibria_gives_the_maximum_entropy_one():
    # rock, a clone of rock, paper, scissors: every (a, 1/3 - a, 1/3, 1/3) with
    # 0 <= a <= 1/3 is an equilibrium; entropy -2 a ln a - 2/3 ln(1/3) - (1/3 - a) ln(1/3 - a)
    # is maximal where ln a = ln(1/3 - a): a = 1/6 (the clones split rock's share)
    a = np.array([[0, 0, -1, 1], [0, 0, -1, 1], [1, 1, 0, -1], [-1, -1, 1, 0]], dtype=float)
    assert max_entropy_nash(a) == pytest.approx([1 / 6, 1 / 6, 1 / 3, 1 / 3], abs=1e-6)
    # matching pennies with a copy of the row player's first row: the maximin set is
    # {p : 1 - 2 p1 >= 0, 2 p1 - 1 >= 0} = {p1 = 1/2}, the segment (s, 1/2, 1/2 - s);
    # entropy -s ln s - (1/2 - s) ln(1/2 - s) - 1/2 ln 1/2 is maximal at s = 1/4
    g = np.array([[1.0, -1.0], [-1.0, 1.0], [1.0, -1.0]])
    assert max_entropy_nash(g) == pytest.approx([1 / 4, 1 / 2, 1 / 4], abs=1e-6)


def test_bad_matrices_are_refused():
    with pytest.raises(ValueError, match="square"):
        nash_averaging(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="finite"):
        max_entropy_nash(np.array([[np.inf]]))
    games = [PairGame("a", "b", 1.0, 0.0), PairGame("b", "a", 1.0, 0.0)]
    with pytest.raises(ValueError, match="alpha"):
        fit_metagame(games, alpha=-1.0)
    with pytest.raises(ValueError, match="population size"):
        fit_metagame(games, m=1)


def test_missing_cells_are_refused_by_name():
    m = np.array([[1.0, 2.0, np.nan], [0.0, 1.0, 1.0], [np.nan, 2.0, np.nan]])
    names = ["a", "b", "c"]
    with pytest.raises(ValueError, match=r"never played: a × c$"):
        nash_averaging(m, names)
    with pytest.raises(ValueError, match=r"never played: a × c, c × c$"):
        symmetric_nash(m, names)
    with pytest.raises(ValueError, match="a × c"):
        alpha_rank(m, names)
    # Nash averaging and α-rank do not need self-play cells
    m2 = np.array([[np.nan, 2.0], [0.0, np.nan]])
    p, r = nash_averaging(m2)
    assert p == pytest.approx([1.0, 0.0]) and r == pytest.approx([0.0, -2.0])


def test_alpha_rank_matches_openspiel_published_example():
    # OpenSpiel's alpharank_test.py: payoffs of Han et al. (2013), m = 20, alpha = 0.1,
    # the global (not local) selection model
    from open_spiel.python.egt import alpharank

    r, t, p, s, delta, eps = 1.0, 2.0, 0.0, -1.0, 4.0, 0.25
    table = np.array([[r - eps / 2, r - eps, 0, s + delta - eps, r - eps], [r, r, s, s, s], [0, t, p, p, p],
                      [t - delta, t, p, p, p], [r, t, p, p, p]])
    pi = alpharank.compute([table], m=20, alpha=0.1, use_local_selection_model=False)[2]
    np.testing.assert_allclose(pi, [0.40966787, 0.07959841, 0.20506998, 0.08505983, 0.2206039], atol=1e-6)
    # ours (local selection model) is OpenSpiel's on the same table
    ours, alpha = alpha_rank(table, m=20, alpha=0.1)
    assert alpha == 0.1
    np.testing.assert_allclose(ours, alpharank.compute([table], m=20, alpha=0.1)[2], atol=1e-12)


def test_alpha_rank_two_strategies_closed_form():
    # local selection: rho(r invades s) = (1 - e^-u) / (1 - e^-(m u)), u = alpha (M[r,s] - M[s,r]);
    # with two strategies pi_0 / pi_1 = rho(0 invades 1) / rho(1 invades 0)
    m_pop, alpha = 10, 0.7
    mat = np.array([[3.0, 1.0], [2.0, 5.0]])

    def rho(r, s):
        u = alpha * (mat[r, s] - mat[s, r])
        return (1 - math.exp(-u)) / (1 - math.exp(-m_pop * u))
    pi, _ = alpha_rank(mat, alpha=alpha, m=m_pop)
    assert pi[0] / pi[1] == pytest.approx(rho(0, 1) / rho(1, 0), rel=1e-9)
    assert pi.sum() == pytest.approx(1.0)
    # the sweep picks an alpha at which the ranking has settled: the winner takes nearly all
    pi_s, alpha_s = alpha_rank(mat, m=m_pop)
    assert alpha_s > 0 and pi_s[1] > 0.99


def test_regret_is_zero_on_the_equilibrium_support():
    # RPS with a fourth policy that loses 1 to each of them
    m = np.zeros((4, 4))
    m[:3, :3] = RPS
    m[3, :3], m[:3, 3] = -1.0, 1.0
    x, v = symmetric_nash(m)
    assert x == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0], abs=1e-9) and v == pytest.approx(0.0, abs=1e-9)
    reg = regret(m, x)
    assert reg[:3] == pytest.approx([0.0] * 3, abs=1e-9)
    assert reg[3] == pytest.approx(1.0)
    # a coordination game: two pure equilibria (payoff 2 and 1) and a mixed one; the
    # highest-payoff one is chosen, and the other policy's regret is its shortfall
    coord = np.array([[2.0, 0.0], [0.0, 1.0]])
    x, v = symmetric_nash(coord)
    assert x == pytest.approx([1.0, 0.0]) and v == pytest.approx(2.0)
    assert regret(coord, x) == pytest.approx([0.0, 2.0])
    # brute force: x is a symmetric equilibrium (no pure deviation gains) on random games
    rng = np.random.default_rng(5)
    for _ in range(20):
        g = rng.normal(size=(4, 4))
        x, v = symmetric_nash(g)
        assert (g @ x).max() <= v + 1e-7 and x.min() >= 0 and x.sum() == pytest.approx(1.0)
        assert regret(g, x)[x > 1e-7] == pytest.approx(0.0, abs=1e-7)


def test_replicator_converges_to_the_interior_equilibrium_on_the_simplex():
    # a rock-paper-scissors game whose wins (2) outweigh its losses (1): the interior
    # equilibrium (1/3, 1/3, 1/3) attracts every interior start
    good_rps = np.array([[0.0, -1.0, 2.0], [2.0, 0.0, -1.0], [-1.0, 2.0, 0.0]])
    times, x = replicator_trajectory(good_rps, start=[0.7, 0.2, 0.1], t_max=300.0, steps=61)
    assert times[0] == 0.0 and times[-1] == 300.0 and x.shape == (61, 3)
    assert x[0] == pytest.approx([0.7, 0.2, 0.1])
    assert np.abs(x.sum(axis=1) - 1.0).max() < 1e-9 and x.min() > 0.0
    assert x[-1] == pytest.approx([1 / 3] * 3, abs=1e-4)
    # the uniform start is the equilibrium itself: it stays
    _, u = replicator_trajectory(good_rps, t_max=10.0, steps=5)
    assert u == pytest.approx(np.full((5, 3), 1 / 3), abs=1e-9)


def test_payoff_matrix_pools_seat_orders_and_self_play():
    games = [PairGame("a", "b", 3.0, 1.0), PairGame("b", "a", 2.0, 4.0), PairGame("a", "a", 1.0, 5.0)]
    m, counts = payoff_matrix(games, ["a", "b"])
    assert m[0].tolist() == [3.0, 3.5] and m[1, 0] == 1.5  # a's 3 and 4 against b; a self-play: (1 + 5) / 2
    assert np.isnan(m[1, 1])
    assert counts.tolist() == [[1, 2], [2, 0]]
    meta = fit_metagame(games)
    assert meta.nash_mix is not None and meta.regret is None
    assert any("never played: b × b" in n for n in meta.notes)


def _games_from(mat, names, per_cell, rng):
    """Games with payoffs around ``mat``, two seat orders per block."""
    out = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if j < i:
                continue
            for n in range(per_cell):
                noise = rng.normal(scale=0.1, size=2)
                out.append(PairGame(a, b, mat[i, j] + noise[0], mat[j, i] + noise[1], (a, b, n)))
                out.append(PairGame(b, a, mat[j, i] - noise[1], mat[i, j] - noise[0], (a, b, n)))
    return out


def test_bootstrap_intervals_and_tables():
    names = ["a", "b", "c", "d"]
    mat = np.zeros((4, 4))
    mat[:3, :3] = RPS
    mat[3, :3], mat[:3, 3] = -1.0, 1.0
    games = _games_from(mat, names, 3, np.random.default_rng(0))
    meta = fit_metagame(games, n_resamples=20, seed=1, alpha=1.0)
    assert meta.nash_rating_ci.shape == (4, 2) and meta.alpharank_ci.shape == (4, 2)
    assert (meta.nash_rating_ci[:, 0] <= meta.nash_rating + 1e-9).all()
    assert meta.nash_rating_ci[3, 1] < -1.5  # the dominated policy stays far below in every resample
    again = fit_metagame(games, n_resamples=20, seed=1, alpha=1.0)
    assert np.array_equal(again.nash_rating_ci, meta.nash_rating_ci)
    payoff, ratings = meta.tables()
    assert payoff.columns == ["policy", *names] and ratings.column("policy")[-1] == "d"
    assert ratings.value("regret", policy="d") == pytest.approx(meta.regret[3])
    assert "20 resamples" in ratings.markdown()
    # the three RPS policies are alike: equal α-rank masses share a rank
    assert meta.alpharank_rank() == [1, 1, 1, 4]
    assert ratings.column("α-rank") == [1, 1, 1, 4]
    assert payoff.csv_text().splitlines()[0] == "policy,a,b,c,d,games vs a,games vs b,games vs c,games vs d"


def test_scripted_resource_run_gives_a_complete_meta_game(tmp_path):
    from negotiation_env.runner import run
    from negotiation_env.traces import read_traces

    cfg = {"name": "metagame-test", "seed": 0, "games": [{
        "game": "resource", "policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"],
        "pairings": "all", "games_per_cell": 2, "swap_seats": True,
        "config": {"num_rounds": 2, "cheap_talk_turns": 1}, "scenario_sets": {"mc0.8": ["mc080_1"]}}]}
    run(cfg, tmp_path, preflight=False)
    meta = metagame(read_traces(tmp_path).traces, game="resource", n_resamples=10)
    assert meta.policies == ["scripted:greedy", "scripted:linear", "scripted:oracle"]
    assert not np.isnan(meta.payoff).any() and meta.notes == [] and meta.left_out == []
    assert meta.counts.tolist() == [[2, 2, 2], [2, 2, 2], [2, 2, 2]]
    assert np.allclose(meta.advantage, -meta.advantage.T)
    assert meta.nash_mix.sum() == pytest.approx(1.0) and meta.alpharank.sum() == pytest.approx(1.0)
    assert meta.regret.min() == pytest.approx(0.0, abs=1e-9)
    assert meta.trajectory.shape[1] == 3 and np.allclose(meta.trajectory.sum(axis=1), 1.0)
    png = meta.plot(tmp_path / "replicator.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


# the scripted resource population's payoff matrix times 4 (docs/analysis.md, "Meta-game"):
# abandoner, amnesiac, anchorer, boulware, conceder, deferent, fair_splitter, greedy,
# hardliner, linear, noisy_linear, oracle, random, reciprocator, satisficer
SCRIPTED_X4 = [
    [0, 0, 0, 0, 0, 320, 160, 0, 0, 0, 0, 320, 280, 0, 240],
    [0, 256, 192, 192, 308, 320, 248, 0, 192, 256, 248, 192, 175, 192, 320],
    [0, 320, 192, 320, 320, 320, 226, 0, 144, 320, 320, 320, 280, 144, 320],
    [0, 320, 192, 256, 320, 320, 248, 0, 192, 320, 320, 192, 200, 192, 320],
    [0, 188, 192, 192, 256, 320, 248, 0, 192, 188, 188, 192, 110, 192, 320],
    [104, 104, 104, 104, 104, 0, 248, 0, 104, 104, 104, 320, 280, 104, 284],
    [88, 248, 208, 248, 248, 248, 248, 88, 88, 248, 248, 248, 216, 88, 168],
    [0, 0, 0, 0, 0, 0, 160, 0, 0, 0, 0, 0, 220, 0, 80],
    [0, 320, 240, 320, 320, 320, 160, 0, 0, 320, 320, 320, 280, 0, 320],
    [0, 256, 192, 192, 308, 320, 248, 0, 192, 256, 224, 192, 167, 192, 320],
    [0, 264, 192, 192, 308, 320, 248, 0, 192, 288, 256, 192, 161, 192, 320],
    [192, 320, 192, 320, 320, 192, 248, 0, 192, 320, 320, 256, 280, 192, 320],
    [69, 109, 69, 89, 109, 69, 77, 88, 69, 109, 89, 69, 88, 69, 75],
    [0, 320, 240, 320, 320, 320, 160, 0, 0, 320, 320, 320, 280, 0, 320],
    [144, 192, 192, 192, 192, 212, 208, 48, 192, 192, 192, 192, 222, 192, 256],
]


def test_scripted_population_equilibrium_is_silent_and_exact(capfd):
    m = np.array(SCRIPTED_X4) / 4.0
    x, v = symmetric_nash(m)
    # everyone playing fair_splitter (index 6) earns 62 and no policy earns more against it
    assert x == pytest.approx(np.eye(15)[6]) and v == 62.0 and m[:, 6].max() == 62.0
    assert regret(m, x) == pytest.approx(62.0 - m[:, 6])
    assert capfd.readouterr().out == ""  # the solver writes nothing to the terminal
