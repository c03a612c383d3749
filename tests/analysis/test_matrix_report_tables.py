"""The matrix report's resamples: the paper's 10,000 by default, ``--resamples N``
honoured."""

from __future__ import annotations

import pytest

from negotiation_env.analysis import report as report_mod
from negotiation_env.analysis.report import MATRIX_RESAMPLES, build_report, resamples_of
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


# --------------------------------------------------------------------------- resamples


def test_the_report_resamples_10000_times_by_default(monkeypatch, tmp_path, cohort):
    """The default is the paper's 10,000 (checked on the plan, not run at that cost)."""
    assert MATRIX_RESAMPLES == 10_000
    assert resamples_of(None) == {"matrix": 10_000, "rulemaking": 2000}
    assert resamples_of(37) == {"matrix": 37, "rulemaking": 37}
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
            resamples_of(bad)
    seen = []

    def spy(traces, *, n_resamples):
        seen.append(n_resamples)
        return [], [], []

    monkeypatch.setattr(report_mod, "matrix_tables", spy)
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
    for name in ("matrix_table1", "matrix_outcome_effects"):
        assert "from 250 dyad bootstrap resamples" in (tmp_path / "n" / f"{name}.md").read_text(encoding="utf-8")
    assert main(["report", str(run), "--no-plots", "--resamples", "0"]) == 2
