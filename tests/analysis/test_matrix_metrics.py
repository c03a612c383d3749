"""Matrix-game metrics (seed 002) on traces made by playing the env under the trace
recorder with scripted players, checked against closed forms: a Bernoulli(p) agent's
expected switching 2p(1-p) and period-two adherence p(1-p), an alternator's S = C = 1,
tit-for-tat's S = 0 from a symmetric start; ΔS with equal cell weights, the stratified
dyad bootstrap, Benjamini-Hochberg, and the complete-case / all-available analyses."""

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
    assert e["delta_ci"] == (0.5, 0.5)  # deterministic players: no sampling spread
    assert e["p"] == pytest.approx(2 / 501)


def test_delta_s_sign_and_null():
    stable = [play(make("always_a"), make("tit_for_tat"), seed=i) for i in range(3)]
    flippy = [play(make("alternator"), make("alternator"), treatment="none", seed=i) for i in range(3)]
    assert mm.communication_effect(stable + flippy, n_resamples=200)["delta"] == 1.0
    flippy_talk = [play(make("alternator"), make("alternator"), seed=i) for i in range(3)]
    stable_none = [play(make("always_a"), make("tit_for_tat"), treatment="none", seed=i) for i in range(3)]
    e = mm.communication_effect(flippy_talk + stable_none, n_resamples=200)
    assert e["delta"] == -1.0 and e["p"] == pytest.approx(2 / 201)
    same = mm.communication_effect(flippy_talk + flippy, n_resamples=200)
    assert same["delta"] == 0.0 and same["p"] == 1.0
    assert mm.communication_effect(flippy, n_resamples=200)["delta"] is None  # one treatment only


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
        traces += bernoulli_dyads(0.5, 3, "none", start=100 * k, framing=framing)
        traces += bernoulli_dyads(0.5, 3, "communication", start=100 * k + 50, framing=framing)
    rows = mm.switching_table(traces, n_resamples=400)
    keys = [(r["model"], r["game"]) for r in rows]
    assert ("alternator × alternator", "Prisoner's Dilemma") not in keys  # no talk dyads: no row effect
    by = dict(zip(keys, rows))
    r = by[("bernoulli × bernoulli", "Prisoner's Dilemma")]
    assert r["cells"] == 3 and r["dyads_no_talk"] == r["dyads_talk"] == 9
    assert set(r["contexts"]) == {"N", "S", "T"}
    zero = by[("tit_for_tat × wsls", "Harmony")]
    assert zero["delta"] == 0.0 and zero["contexts"] == {"N": "·", "S": "·", "T": "·"}
    cells = [(e["p"], e["q"]) for row in rows for e in row["cell_effects"].values()]
    want = multipletests([p for p, _ in cells], method="fdr_bh")[1]
    assert [q for _, q in cells] == pytest.approx(list(want))
    for row in rows:
        for framing, e in row["cell_effects"].items():
            code = {"neutral": "N", "social": "S", "team": "T"}[framing]
            sym = "+" if e["q"] < 0.05 and e["delta"] > 0 else "-" if e["q"] < 0.05 and e["delta"] < 0 else "·"
            assert row["contexts"][code] == sym


def test_a_stabilized_cell_is_marked_plus_after_correction():
    same = ([play(make("alternator"), make("alternator", first="B"), treatment="none", seed=i) for i in range(4)]
            + [play(make("alternator"), make("alternator", first="B"), seed=i) for i in range(2)])
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
