"""`negotiation-env report` on matrix-game traces: seed 002 Table 1, the outcome and
sensitivity tables and the switching figure, from real recorded scripted games and
checked against closed forms and the metrics computed directly."""

from __future__ import annotations

import csv
import io

import pytest

import negotiation_env
from baselines.scripted.matrix import make
from negotiation_env.analysis import matrix_metrics as mm
from negotiation_env.analysis.cells import condition_label, matrix_cell, outcome_tags
from negotiation_env.analysis.report import build_report, report_run
from negotiation_env.cli import main
from negotiation_env.traces import TraceWriter, record

A0, A1 = "agent_0", "agent_1"
N_RES = 300


def play(p0, p1, writer=None, game_id=None, seed=0, **cfg):
    pol = {A0: p0, A1: p1}
    env = record(negotiation_env.env(game="matrix", **cfg), policies=pol, writer=writer, keep=True)
    env.prepare(game_id=game_id)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env.last_trace.to_dict()


class Mute:
    """Always-A that sends an empty message in round 2 (the paper's error rule ends the dyad)."""

    name = "always_a"

    def __init__(self):
        self.inner = make("always_a", output="text")
        self.messages = 0

    def act(self, obs):
        out = self.inner.act(obs)
        if out.startswith("I intend"):
            self.messages += 1
            if self.messages == 2:
                return ""
        return out


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("matrix_run")
    w = TraceWriter(d / "traces.jsonl")
    n = 0
    for framing in ("neutral", "team"):
        for stage in ("prisoners_dilemma", "harmony"):
            for rep in range(3):
                common = dict(framing=framing, stage_game=stage, writer=w, seed=rep)
                # tit-for-tat self-play: antiphase without talk (S = 1), absorbing with talk (S = 0)
                play(make("tit_for_tat", output="text"), make("tit_for_tat", first="B", output="text"),
                     treatment="none", game_id=f"m{(n := n + 1)}", **common)
                play(make("tit_for_tat", output="text"), make("tit_for_tat", output="text"),
                     game_id=f"m{(n := n + 1)}", **common)
                # always-A vs alternator: S = 1/2 either way
                for tr in ("none", "communication"):
                    play(make("always_a", output="text"), make("alternator", output="text"), treatment=tr,
                         game_id=f"m{(n := n + 1)}", **common)
    play(Mute(), make("alternator", output="text"), writer=w, game_id="partial")  # error-marked, 2 rounds
    w.close()
    return d


@pytest.fixture(scope="module")
def report(run_dir, tmp_path_factory):
    from negotiation_env.traces import read_traces

    res = read_traces(run_dir)
    return build_report(res.traces, tmp_path_factory.mktemp("rep"), n_resamples=N_RES)


@pytest.fixture(scope="module")
def traces(run_dir):
    from negotiation_env.traces import read_traces

    return [t.to_dict() for t in read_traces(run_dir).traces]


def test_table1_rows_match_the_closed_forms(report):
    t = report.table("matrix_table1")
    assert t.columns == ["Pairing", "Game", "S no talk %", "S talk %", "ΔS (pp)", "ΔS 95% CI (pp)", "p",
                         "Dyads no talk", "Dyads talk", "N", "T"]
    assert t.column("Pairing") == ["alternator × always_a"] * 2 + ["tit_for_tat × tit_for_tat"] * 2
    assert t.column("Game") == ["Prisoner's Dilemma", "Harmony"] * 2
    tft = t.row(Pairing="tit_for_tat × tit_for_tat", Game="Harmony")
    assert tft[2:] == [1.0, 0.0, 1.0, (1.0, 1.0), pytest.approx(2 / (N_RES + 1)), 6, 6, "+", "+"]
    alt = t.row(Pairing="alternator × always_a", Game="Prisoner's Dilemma")
    assert alt[2:] == [0.5, 0.5, 0.0, (0.0, 0.0), 1.0, 6, 6, "·", "·"]
    md = t.markdown()
    assert "| tit_for_tat × tit_for_tat | Harmony | 100.0 | 0.0 | 100.0 | [100.0, 100.0] | 0.007 | 6 | 6 | + | + |" in md
    rows = list(csv.reader(io.StringIO(t.csv_text())))
    assert rows[0][5:7] == ["ΔS 95% CI (pp) low", "ΔS 95% CI (pp) high"]
    assert rows[3][:7] == ["tit_for_tat × tit_for_tat", "Prisoner's Dilemma", "1", "0", "1", "1", "1"]


def test_table1_is_the_metrics_on_the_same_traces(report, traces):
    direct = mm.switching_table(traces, n_resamples=N_RES)
    t = report.table("matrix_table1")
    assert [[r["model"], r["game"], r["s_no_talk"], r["s_talk"], r["delta"], r["delta_ci"], r["p"]] for r in direct] == \
        [row[:7] for row in t.rows]


def test_outcome_and_sensitivity_tables(report, traces):
    o = report.table("matrix_outcomes")
    row = o.row(Pairing="tit_for_tat × tit_for_tat", Game="Prisoner's Dilemma", Treatment="no talk")
    # antiphase AB / BA in the Prisoner's Dilemma: half A, 2.5 points a round
    assert row[3:] == [6, 1.0, 1.0, 0.5, 2.5, 0.0, 0.5, 0.5, 0.0]
    row = o.row(Pairing="tit_for_tat × tit_for_tat", Game="Harmony", Treatment="talk")
    assert row[3:] == [6, 0.0, 0.0, 1.0, 5.0, 1.0, 0.0, 0.0, 0.0]
    s = report.table("matrix_sensitivity")
    cc, al = s.rows
    assert cc[:3] == ["complete-case", 48, 48 * 18] and al[:3] == ["all available", 49, 48 * 18 + 2]
    assert cc[5] == pytest.approx(mm.communication_effect(traces, n_resamples=N_RES)["delta"])
    assert any("1 matrix dyad(s) left out of the complete-case tables" in n for n in report.notes)


def test_figure_and_cells(report, run_dir, tmp_path):
    fig = [f for f in report.figures if f.name == "fig_matrix_switching.png"]
    assert fig and fig[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = build_report(report_traces(run_dir), tmp_path, n_resamples=N_RES)
    assert (tmp_path / fig[0].name).read_bytes() == fig[0].read_bytes()
    assert [t.markdown() for t in again.tables] == [t.markdown() for t in report.tables]
    cells = {r["game_id"]: r for r in csv.DictReader(io.StringIO((fig[0].parent / "cells.csv").read_text(encoding="utf-8")))}
    assert len(cells) == 49
    m1 = cells["m1"]  # the first game: tit-for-tat antiphase, no talk, neutral Prisoner's Dilemma
    assert (m1["game"], m1["pairing"], m1["talk"], m1["environment"], m1["condition"], m1["condition_label"]) == \
        ("matrix", "tit_for_tat × tit_for_tat", "false", "prisoners_dilemma", "neutral",
         "prisoners_dilemma | neutral | no-talk")
    assert cells["partial"]["outcome_tags"] == "fallback ended_by_error retry"


def report_traces(run_dir):
    from negotiation_env.traces import read_traces

    return read_traces(run_dir).traces


def test_cells_of_a_matrix_trace(traces):
    t = next(x for x in traces if x["game_id"] == "partial")
    c = matrix_cell(t)
    assert (c.pairing, c.self_play, c.stage_game, c.framing, c.talk) == \
        ("alternator × always_a", False, "prisoners_dilemma", "neutral", True)
    assert condition_label(t) == "prisoners_dilemma | neutral | talk"
    assert outcome_tags(t) == ["fallback", "ended_by_error", "retry"]


def test_cli_report_on_a_matrix_run(run_dir, tmp_path):
    assert main(["report", str(run_dir), "--out", str(tmp_path / "r"), "--no-plots"]) == 0
    md = (tmp_path / "r" / "matrix_table1.md").read_text(encoding="utf-8")
    assert md.startswith("### Table 1 layout: communication effects on adjacent-round switching")
    assert not list((tmp_path / "r").glob("*.png"))


def test_report_run_reads_a_trace_file(run_dir, tmp_path):
    rep = report_run(run_dir / "traces.jsonl", tmp_path / "x", plots=False)
    assert rep.games == {"matrix": 49}
