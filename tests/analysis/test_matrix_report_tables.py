"""The matrix report's pooled ΔS (game, pairing, overall), Table S3 with equal-cell
weighting and Table S5 (error audit), on a hand-made cohort whose values are known in
closed form; and the report's resamples: the paper's 10,000 by default, ``--resamples N``
honoured."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from negotiation_env.analysis import matrix_metrics as mm
from negotiation_env.analysis import matrix as matrix_mod
from negotiation_env.analysis.report import MATRIX_RESAMPLES, build_report, matrix_tables, resamples_of
from negotiation_env.cli import main

A0, A1 = "agent_0", "agent_1"
N_RES = 300  # every cell below has at most C(10, 4) = 210 relabellings: its permutation p is exact

ALT, ALT_B, CONST, HALF = "ABABABABAB", "BABABABABA", "AAAAAAAAAA", "AABBAABBAA"  # S = 1, 1, 0, 4/9


def trace(gid, label, stage, framing, treatment, seqs, *, status="complete", planned=10, steps=(),
          fallbacks=None, meta=None):
    """A minimal matrix trace: seat ``i`` plays ``seqs[i]`` round by round."""
    rounds = []
    for k, (x, y) in enumerate(zip(*seqs), start=1):
        fb = (fallbacks or {}).get(k, {})
        rounds.append({"round": k, "step": 0, "outcome": {
            "actions": {A0: x, A1: y}, "payoffs": {A0: 0, A1: 0},
            "fallbacks": {A0: fb.get(A0, []), A1: fb.get(A1, [])}, "error_agents": sorted(fb)}})
    return {"game_id": gid, "game": "matrix", "agents": [A0, A1], "status": status,
            "policies": {A0: {"label": label}, A1: {"label": label}},
            "config": {"stage_game": stage, "framing": framing, "treatment": treatment, "num_rounds": planned},
            "rounds": rounds, "steps": list(steps), "meta": meta or {}}


def cell(label, stage, framing, none, talk, n_none=4, n_talk=4):
    """``n_none`` no-talk dyads playing the seat sequences ``none`` and ``n_talk`` talk dyads playing ``talk``."""
    out = [trace(f"{label}-{stage}-{framing}-n{i}", label, stage, framing, "none", none) for i in range(n_none)]
    out += [trace(f"{label}-{stage}-{framing}-t{i}", label, stage, framing, "communication", talk)
            for i in range(n_talk)]
    return out


@pytest.fixture(scope="module")
def cohort():
    """Four cells played in both treatments, one played without talk only:

    x, PD, neutral: alternating in phase (S = 1) without talk, constant A (S = 0) with it;
    x, PD, team:    AABB... (S = 4/9) without talk, constant A with it (6 talk dyads);
    y, PD, neutral: alternating without talk (antiphase), in phase with talk: S = 1 both;
    x, Harmony, neutral: constant A without talk, alternating with it (destabilizing);
    x, PD, business: no talk only (in no pooled or equal-cell figure)."""
    return (cell("x", "prisoners_dilemma", "neutral", (ALT, ALT), (CONST, CONST))
            + cell("x", "prisoners_dilemma", "team", (HALF, HALF), (CONST, CONST), n_talk=6)
            + cell("y", "prisoners_dilemma", "neutral", (ALT, ALT_B), (ALT, ALT))
            + cell("x", "harmony", "neutral", (CONST, CONST), (ALT, ALT))
            + [trace("x-pd-b", "x", "prisoners_dilemma", "business", "none", (ALT, ALT))])


def approx(x):
    return pytest.approx(float(x), abs=1e-12)


# --------------------------------------------------------------------------- pooled ΔS


def test_pooled_effects_weight_cells_equally(cohort):
    rows = {(r["level"], r["group"]): r for r in mm.pooled_effects(cohort, n_resamples=N_RES)}
    assert list(rows) == [("game", "Prisoner's Dilemma"), ("game", "Harmony"), ("pairing", "x × x"),
                          ("pairing", "y × y"), ("all", "all")]
    want = {  # (S no talk, S talk, cells, dyads no talk, dyads talk); ΔS = the difference of cell means
        ("game", "Prisoner's Dilemma"): ((1 + F(4, 9) + 1) / 3, (0 + 0 + 1) / F(3), 3, 12, 14),
        ("game", "Harmony"): (F(0), F(1), 1, 4, 4),
        ("pairing", "x × x"): ((1 + F(4, 9) + 0) / 3, (0 + 0 + 1) / F(3), 3, 12, 14),
        ("pairing", "y × y"): (F(1), F(1), 1, 4, 4),
        ("all", "all"): ((1 + F(4, 9) + 1 + 0) / 4, (0 + 0 + 1 + 1) / F(4), 4, 16, 18),
    }
    for key, (s_no, s_talk, cells, n_no, n_talk) in want.items():
        r = rows[key]
        assert (r["s_no_talk"], r["s_talk"], r["delta"]) == (approx(s_no), approx(s_talk), approx(s_no - s_talk))
        assert (r["cells"], r["dyads_no_talk"], r["dyads_talk"]) == (cells, n_no, n_talk)
        # every cell's dyads play alike: no resampling spread, the interval is the point
        assert r["delta_ci"] == (approx(s_no - s_talk), approx(s_no - s_talk))
        assert r["relative"] == (None if s_no == 0 else approx((s_no - s_talk) / s_no))
    assert rows[("game", "Prisoner's Dilemma")]["delta"] == approx(F(13, 27))  # pooling dyads would give 1/3
    assert rows[("all", "all")]["delta"] == approx(F(1, 9))
    assert rows[("pairing", "y × y")]["p"] == 1.0  # every relabelling of identical dyads gives ΔS = 0
    assert rows[("game", "Harmony")]["p"] == approx(F(2, 70))  # C(8, 4) relabellings, exact
    assert rows[("game", "Prisoner's Dilemma")]["p"] < 0.05
    assert [r["group"] for r in mm.pooled_effects(cohort, levels=("pairing",), n_resamples=N_RES)] == \
        ["x × x", "y × y"]
    with pytest.raises(ValueError, match="levels must be among game, pairing, all"):
        mm.pooled_effects(cohort, levels=("model",))


def test_pooled_effects_table_counts_table1_marks(cohort):
    tables, _, _ = matrix_tables(cohort, n_resamples=N_RES)
    t = {x.name: x for x in tables}["matrix_pooled_effects"]
    assert t.columns == ["Level", "Group", "Cells", "S no talk %", "S talk %", "ΔS (pp)", "Relative reduction %",
                         "ΔS 95% CI (pp)", "p", "Dyads no talk", "Dyads talk", "Stabilizing cells",
                         "Destabilizing cells"]
    # Table 1's cells: exact p 2/70 (x PD N, x Harmony N), 2/210 (x PD T), 1 (y PD N); Benjamini-Hochberg
    # over the four gives q = 0.038 to the first three: x PD N and T "+", x Harmony N "-", y PD N "·"
    assert [r[11:] for r in t.rows] == [["2/3", "0/3"], ["0/1", "1/1"], ["2/3", "1/3"], ["0/1", "0/1"],
                                        ["2/4", "1/4"]]
    pd = t.row(Level="game", Group="Prisoner's Dilemma")
    assert pd[2:8] == [3, approx(F(22, 27)), approx(F(1, 3)), approx(F(13, 27)), approx(F(13, 22)),
                       (approx(F(13, 27)), approx(F(13, 27)))]
    md = t.markdown()
    assert "| game | Prisoner's Dilemma | 3 | 81.5 | 33.3 | 48.1 | 59.1 | [48.1, 48.1] |" in md
    assert "| game | Harmony | 1 | 0.0 | 100.0 | -100.0 | – | [-100.0, -100.0] | 0.029 | 4 | 4 | 0/1 | 1/1 |" in md
    assert '"45.8 points in Prisoner\'s Dilemma"' in md and f"{N_RES} dyad bootstrap resamples" in md


# --------------------------------------------------------------------------- Table S3


def test_joint_outcomes_weight_cells_equally(cohort):
    rows = mm.joint_outcome_table(cohort)
    assert [(r["game"], r["treatment"], r["cells"], r["dyads"], r["rounds"]) for r in rows] == [
        ("Prisoner's Dilemma", "none", 3, 12, 120), ("Prisoner's Dilemma", "communication", 3, 14, 140),
        ("Harmony", "none", 1, 4, 40), ("Harmony", "communication", 1, 4, 40)]
    # PD without talk: x N in phase AA/BB half and half; x T AABB... 6 AA, 4 BB; y N antiphase AB/BA
    # (the business cell, played without talk only, is left out of both rows)
    pd_none, pd_talk, h_none, h_talk = (r["joint"] for r in rows)
    assert pd_none == {"AA": approx(F(11, 30)), "AB": approx(F(1, 6)), "BA": approx(F(1, 6)), "BB": approx(F(3, 10))}
    assert pd_talk == {"AA": approx(F(5, 6)), "AB": 0.0, "BA": 0.0, "BB": approx(F(1, 6))}
    assert h_none == {"AA": 1.0, "AB": 0.0, "BA": 0.0, "BB": 0.0}
    assert h_talk == {"AA": 0.5, "AB": 0.0, "BA": 0.0, "BB": 0.5}
    # pooling the rounds of the dyads (matrix_outcomes' way) gives another AA share with talk: 120/140
    pooled = [r for r in mm.outcome_table(cohort, rows=("stage_game",)) if r["stage_game"] == "prisoners_dilemma"]
    assert pooled[1]["joint"]["AA"] == approx(F(6, 7)) != pd_talk["AA"]


def test_joint_outcomes_table(cohort):
    tables, _, _ = matrix_tables(cohort, n_resamples=N_RES)
    t = {x.name: x for x in tables}["matrix_joint_outcomes"]
    assert t.columns == ["Game", "Treatment", "Cells", "Dyads", "AA %", "AB %", "BA %", "BB %"]
    md = t.markdown()
    assert "| Prisoner's Dilemma | no talk | 3 | 12 | 36.7 | 16.7 | 16.7 | 30.0 |" in md
    assert "| Prisoner's Dilemma | talk | 3 | 14 | 83.3 | 0.0 | 0.0 | 16.7 |" in md
    assert "cells weighted equally" in md


# --------------------------------------------------------------------------- Table S5


def step(phase, *events, tokens=None):
    return {"agent": A0, "phase": phase, "events": [{"type": e} for e in events], "tokens": tokens}


@pytest.fixture(scope="module")
def audited():
    return [
        # clean: 10 rounds, a warning only
        trace("clean", "m", "prisoners_dilemma", "neutral", "none", (CONST, CONST),
              steps=[step("action", "output_format_warning")]),
        # the paper's rule: an unreadable action (B) and an empty message in round 3, the dyad ends there
        trace("ended", "m", "prisoners_dilemma", "neutral", "communication", ("AAB", "AAA"),
              fallbacks={3: {A0: ["action"], A1: ["message"]}},
              steps=[step("message", "validation_error", "message_fallback"),
                     step("action", "validation_error", "action_fallback")]),
        # retry mode: two refused tries, then a good answer; no fallback, so complete and clean
        trace("retried", "m", "prisoners_dilemma", "neutral", "communication", (CONST, CONST),
              steps=[step("action", "validation_error"), step("action", "validation_error"), step("action")]),
        # model calls: a timeout retried (one failed try) and an answer cut at its token limit (no failure);
        # a call that failed for good (two failed tries) whose empty answer fell back: API failures, not malformed
        trace("api", "m", "prisoners_dilemma", "neutral", "communication", (CONST, "AAAAAAAAAB"),
              fallbacks={10: {A1: ["action"]}},
              steps=[step("message", tokens={"faults": [{"kind": "timeout"}, {"kind": "length"}]}),
                     step("action", "validation_error", "action_fallback",
                          tokens={"failed": True, "faults": [{"kind": "server_error"}, {"kind": "server_error"}]})]),
        # a policy raised before any round: one API failure, partial, error-marked
        trace("raised", "m", "prisoners_dilemma", "neutral", "none", ("", ""), status="error"),
        # another pairing, and another game (not counted)
        trace("other", "n", "harmony", "team", "none", (ALT, ALT)),
        {"game_id": "r", "game": "resource", "agents": [A0, A1], "rounds": [], "steps": []},
    ]


def test_error_audit_counts(audited):
    rows = mm.error_audit(audited)
    keys = ["dyads", "error_marked", "malformed", "malformed_actions", "malformed_messages", "api_failures",
            "partial", "complete_clean"]
    got = [(r["pairing"], r["treatment"], [r[k] for k in keys]) for r in rows]
    assert got == [
        ("m × m", "none", [2, 1, 0, 0, 0, 1, 1, 1]),
        ("m × m", "communication", [3, 2, 4, 3, 1, 3, 1, 1]),
        ("n × n", "none", [1, 0, 0, 0, 0, 0, 0, 1]),
        (None, "all", [6, 3, 4, 3, 1, 4, 2, 3]),
    ]


def test_error_audit_table(audited):
    tables, _, _ = matrix_tables(audited, n_resamples=N_RES)
    t = {x.name: x for x in tables}["matrix_error_audit"]
    assert t.columns == ["Pairing", "Treatment", "Dyads", "Error-marked dyads", "Malformed-output events",
                         "Unparsable actions", "Empty messages", "API-failure events", "Partial dyads",
                         "Complete clean dyads"]
    assert t.rows == [["m × m", "no talk", 2, 1, 0, 0, 0, 1, 1, 1], ["m × m", "talk", 3, 2, 4, 3, 1, 3, 1, 1],
                      ["n × n", "no talk", 1, 0, 0, 0, 0, 0, 0, 1], ["all", "both", 6, 3, 4, 3, 1, 4, 2, 3]]
    assert "a dyad may hold more than one" in t.markdown()


# --------------------------------------------------------------------------- resamples


def test_the_report_resamples_10000_times_by_default(monkeypatch, tmp_path, cohort):
    """The default is the paper's 10,000 (checked on the plan, not run at that cost)."""
    assert MATRIX_RESAMPLES == 10_000
    assert resamples_of(None) == {"matrix": 10_000, "rulemaking": 2000, "resource": 2000}
    assert resamples_of(37) == {"matrix": 37, "rulemaking": 37, "resource": 37}
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
            resamples_of(bad)
    seen = []

    def spy(traces, *, n_resamples):
        seen.append(n_resamples)
        return [], [], []

    monkeypatch.setattr(matrix_mod, "matrix_tables", spy)  # the matrix section's table builder
    build_report(cohort, tmp_path / "a", plots=False)
    build_report(cohort, tmp_path / "b", plots=False, n_resamples=37)
    assert seen == [10_000, 37]


def test_cli_resamples_flag_is_honoured(tmp_path):
    """Two dyads a treatment cannot be tested, so nothing is resampled whatever N: the
    notes say which N the tables were built with."""
    import negotiation_env
    from baselines.scripted.matrix import make
    from negotiation_env.traces import TraceWriter, record

    run = tmp_path / "run"
    w = TraceWriter(run / "traces.jsonl")
    for i, treatment in enumerate(["none", "none", "communication", "communication"]):
        pol = {A0: make("alternator", output="text"), A1: make("always_a", output="text")}
        env = record(negotiation_env.env(game="matrix", treatment=treatment), policies=pol, writer=w)
        env.prepare(game_id=f"g{i}")
        env.reset(seed=i)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            env.step(None if term or trunc else pol[agent].act(obs))
    w.close()
    assert main(["report", str(run), "--out", str(tmp_path / "d"), "--no-plots"]) == 0
    assert "from 10000 dyad bootstrap resamples" in (tmp_path / "d" / "matrix_table1.md").read_text(encoding="utf-8")
    assert main(["report", str(run), "--out", str(tmp_path / "n"), "--no-plots", "--resamples", "250"]) == 0
    for name in ("matrix_table1", "matrix_pooled_effects", "matrix_outcome_effects"):
        assert "from 250 dyad bootstrap resamples" in (tmp_path / "n" / f"{name}.md").read_text(encoding="utf-8")
    assert main(["report", str(run), "--no-plots", "--resamples", "0"]) == 2
