"""Matrix-game metrics (seed 002) on traces made by playing the env under the trace
recorder with scripted players, checked against closed forms: a Bernoulli(p) agent's
expected switching 2p(1-p) and period-two adherence p(1-p), an alternator's S = C = 1,
tit-for-tat's S = 0 from a symmetric start; ΔS with equal cell weights, the stratified
dyad bootstrap interval, the permutation test over dyads (exact p = 2 / C(n, k) for fully
separated cells, scipy's permutation_test on one stratum, no test where too few dyads
can reach .05), Benjamini-Hochberg over the tested cells, and the complete-case /
all-available analyses."""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from baselines.scripted.matrix import make
from negotiation_env.analysis import matrix_metrics as mm
from tests.analysis.tracesets import play_matrix_env

A0, A1 = "agent_0", "agent_1"


class Garbler:
    """Plays ``inner`` but answers nonsense at the action of round ``bad_round``."""

    def __init__(self, inner, bad_round):
        self.inner, self.bad_round = inner, bad_round
        self.name = "garbler"

    def act(self, obs):
        feats = np.asarray(obs["features"])
        from negotiation_env.games.matrix.features import LAYOUT
        r = int(feats[LAYOUT.slice("round")][0]) + 1
        phase = int(np.argmax(feats[LAYOUT.slice("phase")]))
        if r == self.bad_round and phase == 2:
            return "no idea"
        return self.inner.act(obs)


def play(p0, p1, *, seed=0, **cfg):
    return play_matrix_env(p0, p1, seed=seed, **cfg).last_trace.to_dict()


def bernoulli_dyads(p, n, treatment="communication", start=0, **cfg):
    return [play(make("bernoulli", seed=start + 2 * i, p=p), make("bernoulli", seed=start + 2 * i + 1, p=p),
                 seed=i, treatment=treatment, **cfg) for i in range(n)]


# --------------------------------------------------------------------------- sequences


@pytest.mark.parametrize("seq, s, c", [
    ("ABAB", 1.0, 1.0), ("AABB", 1 / 3, 0.0), ("ABBA", 2 / 3, 0.0), ("AAAA", 0.0, 0.0),
    ("BABABABABA", 1.0, 1.0),            # Figure S1, Qwen d1/0
    ("BBABBBBBBB", 2 / 9, 1 / 8),        # Figure S1, Granite Snowdrift d2/1
    ("ABBABABABA", 8 / 9, 6 / 8),        # Figure S1, Qwen Snowdrift d2/0
])
def test_switching_and_period_two_adherence_of_sequences(seq, s, c):
    assert mm.switch_rate(seq) == pytest.approx(s)
    assert mm.period_two_adherence(seq) == pytest.approx(c)


def test_short_sequences_have_no_rate():
    assert mm.switch_rate("A") is None and mm.switch_count("A") == (0, 0)
    assert mm.period_two_adherence("AB") is None


# --------------------------------------------------------------------------- closed forms


@pytest.mark.parametrize("p", [0.2, 0.5])
def test_bernoulli_switching_is_2p_1_minus_p(p):
    traces = bernoulli_dyads(p, 80, start=int(p * 1000))
    m = mm.pooled_metrics(traces)
    assert m["dyads"] == 80 and m["transitions"] == 80 * 18
    q = 2 * p * (1 - p)
    sd = math.sqrt(q * (1 - q) / m["transitions"])
    assert abs(m["S"] - q) < 4 * sd, (m["S"], q)
    # period-two adherence of independent draws: P(a_t = a_t-2 != a_t-1) = p(1 - p)
    c_sd = math.sqrt(p * (1 - p) * (1 - p * (1 - p)) / (160 * 8))
    assert abs(m["C_mean"] - p * (1 - p)) < 4 * c_sd * 2
    assert abs(m["a_rate"] - p) < 4 * math.sqrt(p * (1 - p) / 1600)
    # and never the ceiling: no Bernoulli agent exceeds 1/2 in expectation
    assert m["S"] < 0.5 + 4 * sd


def test_alternator_has_s_and_c_one():
    t = play(make("alternator"), make("alternator", first="B"), treatment="none")
    d = mm.dyad_metrics(t)
    for a in (A0, A1):
        assert (d["agents"][a]["S"], d["agents"][a]["C"]) == (1.0, 1.0)
    assert d["S"] == 1.0 and d["switches"] == d["transitions"] == 18
    assert d["joint"] == {"AA": 0, "AB": 5, "BA": 5, "BB": 0}


def test_tit_for_tat_self_play_is_absorbing_from_a_symmetric_start_and_antiphase_otherwise():
    sym = mm.dyad_metrics(play(make("tit_for_tat"), make("tit_for_tat")))
    assert sym["S"] == 0.0 and sym["joint"] == {"AA": 10, "AB": 0, "BA": 0, "BB": 0}
    asym = play(make("tit_for_tat"), make("tit_for_tat", first="B"))
    d = mm.dyad_metrics(asym)
    assert d["S"] == 1.0 and all(d["agents"][a]["C"] == 1.0 for a in (A0, A1))
    m = mm.pooled_metrics([asym])
    # Prisoner's Dilemma, AB then BA: each agent earns 0 and 5 in turn
    assert m["joint"] == {"AA": 0.0, "AB": 0.5, "BA": 0.5, "BB": 0.0}
    assert m["payoff_per_round"] == 2.5 and m["a_rate"] == 0.5 and m["all_switch_share"] == 1.0


def test_pooled_rates_are_counts_over_counts():
    traces = [play(make("alternator"), make("always_a")), play(make("always_b"), make("always_b"))]
    m = mm.pooled_metrics(traces)
    assert (m["switches"], m["transitions"]) == (9, 36) and m["S"] == 0.25
    assert m["S_agent_mean"] == 0.25 and m["all_switch_share"] == 0.25 and m["C_median"] == 0.0
    assert m["a_rate"] == (5 + 10) / 40
    # alternator vs always-A in PD: AA (3, 3) and BA (5, 0) alternate; always-B self-play earns 1 each round
    assert m["payoff_per_round"] == (5 * 3 + 5 * 5 + 5 * 3 + 5 * 0 + 20 * 1) / 40


# --------------------------------------------------------------------------- communication effect


def test_delta_s_weights_cells_equally_and_resamples_within_strata():
    alt = lambda framing, tr: play(make("alternator"), make("alternator"), framing=framing, treatment=tr)  # noqa: E731
    fixed = lambda framing, tr: play(make("always_a"), make("always_b"), framing=framing, treatment=tr)  # noqa: E731
    half = lambda framing, tr: play(make("alternator"), make("always_a"), framing=framing, treatment=tr)  # noqa: E731
    traces = ([alt("neutral", "none")] + [fixed("neutral", "communication")] * 3
              + [half("business", "none"), half("business", "communication")])
    e = mm.communication_effect(traces, n_resamples=500)
    # neutral: 1 - 0; business: 0.5 - 0.5; equal weights: 0.5 (pooling dyads would give 5/9 - 0.5/4... not 0.5)
    assert (e["s_no_talk"], e["s_talk"], e["delta"], e["cells"]) == (0.75, 0.25, 0.5, 2)
    # 1 vs 3 and 1 vs 1 dyads: 4 x 2 relabellings, the smallest p 2/8 cannot reach .05: no test, no interval
    assert (e["tested"], e["min_p"], e["p"], e["delta_ci"], e["dyads"]) == (False, 0.25, None, None, (2, 4))
    assert mm.communication_effect(traces, n_resamples=500, test="bootstrap")["p"] is None  # whatever the test
    more = traces + [half("business", "none")] * 3 + [half("business", "communication")] * 3
    e = mm.communication_effect(more, n_resamples=500)  # 1 vs 3 and 4 vs 4: 4 x 70 relabellings
    assert e["tested"] and e["min_p"] == pytest.approx(2 / 280) and e["delta"] == 0.5
    assert e["delta_ci"] is None  # a test, but no interval: the neutral cell (1 vs 3) is too small on its own
    enough = more + [alt("neutral", "none")] * 3 + [fixed("neutral", "communication")]  # 4 vs 4 there too
    assert mm.communication_effect(enough, n_resamples=500)["delta_ci"] == (0.5, 0.5)  # deterministic: no spread
    # business holds S = 0.5 under every relabelling; in neutral only the observed one of its 4 reaches +0.5
    # (the alternator among the talk dyads gives -1/6): exact p = 2 x 1/4, whatever business's 70
    assert e["exact"] and e["p"] == pytest.approx(0.5)


def test_delta_s_sign_and_null():
    stable = [play(make("always_a"), make("tit_for_tat"), seed=i) for i in range(4)]
    flippy = [play(make("alternator"), make("alternator"), treatment="none", seed=i) for i in range(4)]
    assert mm.communication_effect(stable + flippy, n_resamples=200)["delta"] == 1.0
    flippy_talk = [play(make("alternator"), make("alternator"), seed=i) for i in range(4)]
    stable_none = [play(make("always_a"), make("tit_for_tat"), treatment="none", seed=i) for i in range(4)]
    e = mm.communication_effect(flippy_talk + stable_none, n_resamples=200)
    # 4 vs 4 fully separated dyads: of C(8, 4) = 70 relabellings one is as extreme each way, exact p = 2/70
    assert e["delta"] == -1.0 and e["exact"] and e["p"] == pytest.approx(2 / 70) and e["min_p"] == pytest.approx(2 / 70)
    boot = mm.communication_effect(flippy_talk + stable_none, n_resamples=200, test="bootstrap")
    assert boot["p"] == pytest.approx(2 / 201)  # the paper's bootstrap p: as small as B allows
    same = mm.communication_effect(flippy_talk + flippy, n_resamples=200)
    assert same["delta"] == 0.0 and same["p"] == 1.0
    assert mm.communication_effect(flippy, n_resamples=200)["delta"] is None  # one treatment only
    with pytest.raises(ValueError, match="test must be one of permutation, bootstrap; got 't'"):
        mm.communication_effect(flippy, test="t")


def test_smallest_attainable_permutation_p():
    assert mm.smallest_permutation_p([(2, 2)]) == pytest.approx(1 / 3)       # 2 / C(4, 2)
    assert mm.smallest_permutation_p([(3, 3)]) == pytest.approx(0.1)         # 2 / 20: still not below .05
    assert mm.smallest_permutation_p([(3, 5)]) == pytest.approx(2 / 56)      # the first testable 8-dyad cells
    assert mm.smallest_permutation_p([(4, 4)]) == pytest.approx(2 / 70)
    assert mm.smallest_permutation_p([(2, 2)] * 6) == pytest.approx(2 / 6 ** 6)  # six framings of 2 vs 2
    assert mm.smallest_permutation_p([(1, 1)]) == 1.0
    # the paper's Table S1 rows: 24 cells of 100 vs 100 dyads, C(200, 100)^24 relabellings (past any float)
    assert mm.smallest_permutation_p([(100, 100)] * 24) == 0.0
    assert mm.smallest_permutation_p([(25, 25)] * 24) == 0.0


def test_few_dyads_get_no_test_and_enough_dyads_a_valid_one():
    """2 vs 2 identical dyads must not print a small p or a "+" after BH: no relabelling
    test can go below 2/6 there, so the cell gets no p, no interval and "n/a". With 5 vs 5
    the same clear effect is significant (exact p = 2/252), and a null effect is not."""
    def cohort(n, seed0=0):
        return ([play(make("alternator"), make("alternator"), treatment="none", seed=seed0 + i) for i in range(n)]
                + [play(make("always_a"), make("always_a"), seed=seed0 + i) for i in range(n)])

    few = cohort(2)
    for t in few:
        t["policies"] = {A0: {"label": "x"}, A1: {"label": "y"}}
    for test in mm.TESTS:
        row = mm.switching_table(few, n_resamples=500, test=test)[0]
        assert row["delta"] == 1.0 and row["contexts"] == {"N": mm.UNTESTED}
        assert (row["p"], row["delta_ci"], row["tested"], row["min_p"]) == (None, None, False, pytest.approx(1 / 3))
        assert row["cell_effects"]["neutral"]["q"] is None
    clear = cohort(5)
    for t in clear:
        t["policies"] = {A0: {"label": "x"}, A1: {"label": "y"}}
    row = mm.switching_table(clear, n_resamples=500)[0]
    assert row["contexts"] == {"N": "+"} and row["p"] == pytest.approx(2 / 252) and row["tested"]
    assert row["cell_effects"]["neutral"]["q"] == pytest.approx(2 / 252)
    null = bernoulli_dyads(0.5, 6, "none", start=700) + bernoulli_dyads(0.5, 6, "communication", start=800)
    row = mm.switching_table(null, n_resamples=2000)[0]
    assert row["tested"] and row["p"] > 0.05 and row["contexts"] == {"N": "·"}


def test_permutation_p_is_scipys_on_one_stratum():
    """One cell, 5 vs 5 dyads of different lengths (ratios of sums, not means of rates):
    the exact p equals scipy.stats.permutation_test's over dyad labels."""
    import scipy.stats

    traces = bernoulli_dyads(0.3, 5, "none", start=40, num_rounds=6) + \
        bernoulli_dyads(0.5, 5, "communication", start=60, num_rounds=9)
    e = mm.communication_effect(traces, n_resamples=1000)
    assert e["exact"] and e["tested"]
    d = mm.dyads_of(traces)
    sw = np.array([mm.dyad_metrics(x)["switches"] for x in d], dtype=float)
    tr = np.array([mm.dyad_metrics(x)["transitions"] for x in d], dtype=float)
    talk = np.array([x.talk for x in d])

    def stat(a, b):
        a, b = a.astype(int), b.astype(int)
        return sw[a].sum() / tr[a].sum() - sw[b].sum() / tr[b].sum()

    idx = np.arange(len(d))
    ref = scipy.stats.permutation_test((idx[~talk], idx[talk]), stat, permutation_type="independent",
                                       n_resamples=10_000, alternative="two-sided")
    assert e["delta"] == pytest.approx(ref.statistic) and e["p"] == pytest.approx(ref.pvalue, rel=1e-12)
    assert 0.01 < e["p"] < 1


def test_random_relabellings_sum_as_the_mask_form():
    """With more relabellings than draws, each draw's no-talk sums gather the first k of a
    row of gen.permuted; restated here with boolean masks over all dyads, the p is the same."""
    rng = np.random.default_rng(5)
    counts = []
    for n_no, n_talk in ((6, 7), (9, 4)):
        sw = rng.integers(0, 19, n_no + n_talk).astype(float)
        tr = np.full(n_no + n_talk, 18.0) - rng.integers(0, 3, n_no + n_talk)
        counts.append(((sw[:n_no], tr[:n_no]), (sw[n_no:], tr[n_no:])))
    p, exact = mm._permutation_p(counts, 500, np.random.default_rng(9))
    assert not exact

    gen, m = np.random.default_rng(9), len(counts)
    observed, dist = 0.0, np.zeros(500)
    for (sn, tn), (sy, ty) in counts:
        sw, tr, k = np.concatenate([sn, sy]), np.concatenate([tn, ty]), len(sn)
        observed += (sn.sum() / tn.sum() - sy.sum() / ty.sum()) / m
        perm = gen.permuted(np.tile(np.arange(len(sw)), (500, 1)), axis=1)
        mask = np.zeros((500, len(sw)), dtype=bool)
        np.put_along_axis(mask, perm[:, :k], True, axis=1)
        dist += ((mask * sw).sum(1) / (mask * tr).sum(1) - (~mask * sw).sum(1) / (~mask * tr).sum(1)) / m
    tol = 1e-13 * abs(observed) + 1e-12
    less, greater = (np.sum(dist <= observed + tol) + 1) / 501, (np.sum(dist >= observed - tol) + 1) / 501
    assert p == min(1.0, 2 * min(less, greater))


@pytest.mark.parametrize("chunk", [None, 7])
def test_bootstrap_interval_is_scipys_draw_for_draw(monkeypatch, chunk):
    """The numpy bootstrap reproduces scipy.stats.bootstrap (percentile, independent
    samples, on dyad indices): the same resampled values and the same interval to the
    last bit, a lone dyad included, whether the draws come in one array or in chunks."""
    import scipy.stats

    from negotiation_env.analysis.stats import _rng_kwarg

    if chunk is not None:
        monkeypatch.setattr(mm, "_BOOTSTRAP_CHUNK", chunk)
    rng = np.random.default_rng(3)
    sizes = [5, 1, 8, 3]  # two cells: (no talk, talk) = samples (0, 2) and (1, 3)
    num = [rng.integers(0, 19, n).astype(float) for n in sizes]
    den = [np.full(n, 18.0) - rng.integers(0, 2, n) for n in sizes]
    m = 2

    def stat(*idx, axis=-1):
        rates = [num[s][np.asarray(i)].sum(axis=axis) / den[s][np.asarray(i)].sum(axis=axis) for s, i in enumerate(idx)]
        return np.mean(rates[:m], axis=0) - np.mean(rates[m:], axis=0)

    data = tuple(np.arange(n) if n > 1 else np.repeat(np.arange(n), 2) for n in sizes)
    ref = scipy.stats.bootstrap(data, stat, n_resamples=999, confidence_level=0.95, method="percentile",
                                vectorized=True, paired=False, **_rng_kwarg(scipy.stats.bootstrap,
                                                                           np.random.default_rng(42)))
    ci, dist = mm._bootstrap_interval(num, den, m, 0.0, 999, 0.95, np.random.default_rng(42))
    assert np.array_equal(dist, ref.bootstrap_distribution)
    assert ci == (float(ref.confidence_interval.low), float(ref.confidence_interval.high))


def test_bootstrap_interval_is_seeded_and_covers_the_estimate():
    traces = bernoulli_dyads(0.5, 20, "communication", start=1) + bernoulli_dyads(0.5, 20, "none", start=501)
    e1 = mm.communication_effect(traces, n_resamples=2000, rng=42)
    e2 = mm.communication_effect(traces, n_resamples=2000, rng=42)
    e3 = mm.communication_effect(traces, n_resamples=2000, rng=7)
    assert e1 == e2 and e1["delta_ci"] != e3["delta_ci"]
    lo, hi = e1["delta_ci"]
    assert lo < e1["delta"] < hi and hi - lo > 0.02
    assert 0 < e1["p"] <= 1
    # the dyad bootstrap: its interval is about +-1.96 standard errors of the difference of dyad means
    talk = np.array([mm.dyad_metrics(t)["S"] for t in traces[:20]])
    none = np.array([mm.dyad_metrics(t)["S"] for t in traces[20:]])
    se = math.sqrt(talk.var() / 20 + none.var() / 20)
    assert (hi - lo) == pytest.approx(2 * 1.96 * se, rel=0.25)


def test_switching_table_rows_cells_and_benjamini_hochberg():
    traces = []
    for k, framing in enumerate(("neutral", "social", "team")):
        for i in range(2):
            traces.append(play(make("alternator"), make("alternator"), framing=framing, treatment="none", seed=i))
            traces.append(play(make("always_a"), make("always_a"), framing=framing, seed=i))
            traces.append(play(make("tit_for_tat"), make("wsls"), framing=framing, stage_game="harmony", seed=i,
                               treatment="none"))
            traces.append(play(make("tit_for_tat"), make("wsls"), framing=framing, stage_game="harmony", seed=i))
        traces += bernoulli_dyads(0.5, 4, "none", start=100 * k, framing=framing)
        traces += bernoulli_dyads(0.5, 4, "communication", start=100 * k + 50, framing=framing)
    rows = mm.switching_table(traces, n_resamples=400)
    keys = [(r["model"], r["game"]) for r in rows]
    assert ("alternator × alternator", "Prisoner's Dilemma") not in keys  # no talk dyads: no row effect
    by = dict(zip(keys, rows))
    r = by[("bernoulli × bernoulli", "Prisoner's Dilemma")]
    assert r["cells"] == 3 and r["dyads_no_talk"] == r["dyads_talk"] == 12
    assert set(r["contexts"]) == {"N", "S", "T"} and mm.UNTESTED not in r["contexts"].values()
    zero = by[("tit_for_tat × wsls", "Harmony")]
    # 2 vs 2 per framing: no cell can be tested; the row (6^3 relabellings) can, and is null
    assert zero["delta"] == 0.0 and zero["contexts"] == {"N": "n/a", "S": "n/a", "T": "n/a"}
    assert zero["tested"] and zero["p"] == 1.0 and zero["min_p"] == pytest.approx(2 / 216)
    assert zero["delta_ci"] is None and r["delta_ci"] is not None  # intervals need every cell testable alone
    cells = [(e["p"], e["q"]) for row in rows for e in row["cell_effects"].values() if e["tested"]]
    assert len(cells) == 3  # the Bernoulli cells; the untested ones are not in the family
    want = multipletests([p for p, _ in cells], method="fdr_bh")[1]
    assert [q for _, q in cells] == pytest.approx(list(want))
    for row in rows:
        for framing, e in row["cell_effects"].items():
            code = {"neutral": "N", "social": "S", "team": "T"}[framing]
            if not e["tested"]:
                assert e["q"] is None and row["contexts"][code] == "n/a"
                continue
            sym = "+" if e["q"] < 0.05 and e["delta"] > 0 else "-" if e["q"] < 0.05 and e["delta"] < 0 else "·"
            assert row["contexts"][code] == sym


def test_a_stabilized_cell_is_marked_plus_after_correction():
    same = ([play(make("alternator"), make("alternator", first="B"), treatment="none", seed=i) for i in range(4)]
            + [play(make("alternator"), make("alternator", first="B"), seed=i) for i in range(2)])
    assert mm.switching_table(same, n_resamples=400)[0]["contexts"] == {"N": "n/a"}  # 4 vs 2: 2/15 > .05
    same += [play(make("alternator"), make("alternator", first="B"), seed=i) for i in range(2, 4)]
    assert mm.switching_table(same, n_resamples=400)[0]["contexts"] == {"N": "·"}  # S = 1 with and without talk
    # one pairing label for both treatments: no talk, a Bernoulli agent beside an alternator (S about 0.75);
    # talk, a constant agent beside it (S = 0.5)
    mixed = [play(make("bernoulli", seed=i, p=0.5), make("alternator"), treatment="none", seed=i) for i in range(6)] + \
            [play(make("always_a"), make("alternator"), seed=i) for i in range(6)]
    for t in mixed:
        t["policies"] = {A0: {"label": "x"}, A1: {"label": "y"}}
    row = mm.switching_table(mixed, n_resamples=400)[0]
    assert row["model"] == "x × y" and row["s_talk"] == 0.5
    assert row["delta"] > 0.2 and row["delta_ci"][0] > 0 and row["contexts"] == {"N": "+"}


# --------------------------------------------------------------------------- errors and analyses


def test_complete_case_drops_error_marked_and_partial_dyads_all_available_keeps_them():
    good = play(make("alternator"), make("alternator"))
    partial = play(Garbler(make("alternator"), 3), make("alternator"))          # ends after round 3
    late = play(Garbler(make("always_a"), 10), make("always_a"))               # error in the last round
    cont = play(Garbler(make("always_a"), 2), make("always_a"), on_error="continue")  # default B, then goes on
    assert len(partial["rounds"]) == 3 and len(late["rounds"]) == 10 and len(cont["rounds"]) == 10
    dyads = [mm.dyad_of(t) for t in (good, partial, late, cont)]
    assert [d.complete for d in dyads] == [True, False, False, False]
    assert [d.error_marked for d in dyads] == [False, True, True, True]
    cc = mm.pooled_metrics([good, partial, late, cont], "complete")
    assert (cc["dyads"], cc["excluded"], cc["transitions"], cc["S"]) == (1, 3, 18, 1.0)
    al = mm.pooled_metrics([good, partial, late, cont], "all")
    # partial: three rounds, agent_0's third action is the fallback B (its plan was A): A B B and A B A
    assert al["dyads"] == 4 and al["transitions"] == 18 + 4 + 18 + 18
    seqs = mm.dyad_of(partial).actions
    assert seqs == (("A", "B", "B"), ("A", "B", "A"))
    assert mm.dyad_of(cont).actions[0] == ("A", "B") + ("A",) * 8
    assert al["switches"] == 18 + (1 + 2) + (0 + 0 + 1) + (2 + 0)
    with pytest.raises(ValueError, match="analysis must be one of complete, all; got 'every'"):
        mm.pooled_metrics([good], "every")


def test_an_errored_game_counts_only_in_all_available():
    t = play(make("alternator"), make("alternator"), num_rounds=4)
    t = dict(t, status="error", rounds=t["rounds"][:2])
    assert mm.pooled_metrics([t])["dyads"] == 0
    assert mm.pooled_metrics([t], "all")["transitions"] == 2


def test_inputs_are_checked():
    with pytest.raises(ValueError, match="is of game 'resource'; expected 'matrix'"):
        mm.dyad_of({"game_id": "x", "game": "resource", "agents": ["a", "b"]})
    with pytest.raises(ValueError, match="a matrix dyad has two agents"):
        mm.dyad_of({"game_id": "x", "game": "matrix", "agents": ["a"]})
    # other games in a mixed trace list are skipped
    assert mm.pooled_metrics([{"game_id": "r", "game": "resource", "agents": ["a", "b"], "rounds": []}])["dyads"] == 0
    with pytest.raises(ValueError, match="alpha must be in"):
        mm.switching_table([], alpha=0)


def test_outcome_table_per_treatment():
    traces = [play(make("tit_for_tat"), make("tit_for_tat", first="B"), treatment=t) for t in ("communication", "none")]
    rows = mm.outcome_table(traces)
    assert [r["treatment"] for r in rows] == ["none", "communication"]
    for r in rows:
        assert (r["S"], r["a_rate"], r["payoff_per_round"]) == (1.0, 0.5, 2.5)
        assert r["joint"] == {"AA": 0.0, "AB": 0.5, "BA": 0.5, "BB": 0.0}


# --------------------------------------------------------------------------- A.1 differences, A.2 alternation


def test_outcome_differences_weight_cells_equally_with_intervals():
    """Tables S1/S2: message minus no message, per framing then framings equally weighted.
    Tit-for-tat self-play is all-AA from A A (a-rate 1, 3 points in the Prisoner's
    Dilemma) and antiphase from A B (a-rate 1/2, 2.5 points)."""
    anti = lambda fr, tr, i: play(make("tit_for_tat"), make("tit_for_tat", first="B"), framing=fr, treatment=tr, seed=i)  # noqa: E731
    aa = lambda fr, tr, i: play(make("tit_for_tat"), make("tit_for_tat"), framing=fr, treatment=tr, seed=i)  # noqa: E731
    traces = ([anti("neutral", "none", i) for i in range(4)] + [aa("neutral", "communication", i) for i in range(4)]
              + [aa("team", "none", i) for i in range(5)] + [anti("team", "communication", i) for i in range(3)])
    (row,) = mm.outcome_effects(traces, n_resamples=300)
    assert (row["pairing"], row["game"], row["cells"], row["dyads_no_talk"], row["dyads_talk"], row["tested"]) == \
        ("tit_for_tat × tit_for_tat", "Prisoner's Dilemma", 2, 9, 7, True)
    # neutral +0.5 and team -0.5: 0 with equal weights (pooling dyads would give 11/14 - 7/9)
    assert row["a_rate"] == {"no_talk": 0.75, "talk": 0.75, "delta": 0.0, "ci": (0.0, 0.0)}
    assert row["payoff_per_round"] == {"no_talk": 2.75, "talk": 2.75, "delta": 0.0, "ci": (0.0, 0.0)}
    # Table S1 layout: the game's row pools pairing x framing cells
    (by_game,) = mm.outcome_effects(traces, rows=("stage_game",), cells=("pairing", "framing"), n_resamples=300)
    assert by_game["a_rate"]["delta"] == 0.0 and by_game["cells"] == 2
    # too few dyads for an interval: 2 vs 2
    (few,) = mm.outcome_effects(traces[:2] + traces[4:6], n_resamples=300)
    assert few["tested"] is False and few["a_rate"]["delta"] == 0.5 and few["a_rate"]["ci"] is None
    assert few["payoff_per_round"]["delta"] == 0.5
    # sampling spread: the interval brackets the estimate
    rnd = bernoulli_dyads(0.3, 8, "none", start=900) + bernoulli_dyads(0.6, 8, "communication", start=950)
    (b,) = mm.outcome_effects(rnd, n_resamples=1000)
    lo, hi = b["a_rate"]["ci"]
    assert lo < b["a_rate"]["delta"] < hi and b["a_rate"]["delta"] == pytest.approx(
        mm.pooled_metrics(rnd[8:])["a_rate"] - mm.pooled_metrics(rnd[:8])["a_rate"])


def seq_trace(game_id, stage, a0, a1, treatment="none", labels=("x", "y")):
    """A hand-made complete matrix trace of the two action strings (Figure S1 rows)."""
    from negotiation_env.games.matrix.rules import stage_game

    g = stage_game(stage)
    rounds = [{"round": t + 1, "outcome": {"actions": {A0: x, A1: y}, "payoffs": {A0: g.payoff(x, y), A1: g.payoff(y, x)}}}
              for t, (x, y) in enumerate(zip(a0, a1))]
    return {"game_id": game_id, "game": "matrix", "agents": [A0, A1], "status": "complete", "rounds": rounds,
            "config": {"stage_game": stage, "treatment": treatment, "num_rounds": len(a0)},
            "policies": {A0: {"label": labels[0]}, A1: {"label": labels[1]}}}


def test_alternation_table_on_figure_s1():
    """Table S4 on the Figure S1 panels: Granite Snowdrift (d1, d3 in phase; d2 with an
    8/9 and a 2/9 agent) and Granite Harmony (d1, d2 antiphase; d3 with a 4/9 agent)."""
    snow = [("BABABABABA", "BABABABABA"), ("BABABBABAB", "BBABBBBBBB"), ("BABABABABA", "BABABABABA")]
    harm = [("ABABABABAB", "BABABABABA"), ("ABABABABAB", "BABABABABA"), ("BABABABABA", "BBABBABBBB")]
    traces = [seq_trace(f"s{i}", "snowdrift", a, b) for i, (a, b) in enumerate(snow)]
    traces += [seq_trace(f"h{i}", "harmony", a, b) for i, (a, b) in enumerate(harm)]
    traces += [seq_trace("pd", "prisoners_dilemma", "ABABABABAB", "ABABABABAB")]
    traces += [seq_trace("talk", "snowdrift", "AAAAAAAAAA", "AAAAAAAAAA", treatment="communication")]
    rows = {r["stage_game"]: r for r in mm.alternation_table(traces)}
    s = rows["snowdrift"]
    assert (s["dyads"], s["agents"], s["all_switch"], s["at_least_8_9"]) == (3, 6, 4, 5)  # the talk dyad is not counted
    assert s["all_switch_share"] == pytest.approx(4 / 6) and s["at_least_8_9_share"] == pytest.approx(5 / 6)
    # C: 1, 1, 1, 1, 6/8, 1/8 -> median 1, linear quartiles 0.8125 and 1
    assert s["C_median"] == 1.0 and s["C_iqr"] == pytest.approx((0.8125, 1.0))
    assert (s["both_all_switch"], s["in_phase"], s["antiphase"]) == (2, 2, 0)
    h = rows["harmony"]
    assert (h["all_switch"], h["at_least_8_9"], h["both_all_switch"], h["in_phase"], h["antiphase"]) == (5, 5, 2, 0, 2)
    p = rows["prisoners_dilemma"]
    assert p["all_switch"] == 2 and p["in_phase"] is None  # phase only for Snowdrift and Harmony, as Table S4
    every = {r["stage_game"]: r for r in mm.alternation_table(traces, phase_games=None)}
    assert every["prisoners_dilemma"]["in_phase"] == 1
    talk = mm.alternation_table(traces, treatment="communication")
    assert [(r["stage_game"], r["all_switch"], r["C_median"]) for r in talk] == [("snowdrift", 0, 0.0)]
