"""`negotiation-env report` on matrix-game traces: seed 002 Table 1, the outcome,
A.1 difference, Table S4 alternation and sensitivity tables and the switching figure,
from real recorded scripted games and checked against closed forms and the metrics
computed directly; a cohort of 2 vs 2 dyads gets no test (n/a and a note)."""

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
            for rep in range(5):
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


def test_table1_rows_match_the_closed_forms(report, traces):
    t = report.table("matrix_table1")
    assert t.columns == ["Pairing", "Game", "S no talk %", "S talk %", "ΔS (pp)", "ΔS 95% CI (pp)", "p",
                         "Dyads no talk", "Dyads talk", "N", "T"]
    assert t.column("Pairing") == ["alternator × always_a"] * 2 + ["tit_for_tat × tit_for_tat"] * 2
    assert t.column("Game") == ["Prisoner's Dilemma", "Harmony"] * 2
    tft = t.row(Pairing="tit_for_tat × tit_for_tat", Game="Harmony")
    # the row: 252^2 relabellings over two framings, N_RES random ones, none as extreme: p = 2 / (N_RES + 1);
    # each framing cell, 5 vs 5 fully separated dyads: exact p = 2/252, BH over the 8 cells keeps it under .05
    assert tft[2:] == [1.0, 0.0, 1.0, (1.0, 1.0), pytest.approx(2 / (N_RES + 1)), 10, 10, "+", "+"]
    row = next(r for r in mm.switching_table(traces, n_resamples=N_RES)
               if r["model"] == "tit_for_tat × tit_for_tat" and r["game"] == "Harmony")
    assert row["cell_effects"]["team"]["p"] == pytest.approx(2 / 252) and row["cell_effects"]["team"]["exact"]
    alt = t.row(Pairing="alternator × always_a", Game="Prisoner's Dilemma")
    assert alt[2:] == [0.5, 0.5, 0.0, (0.0, 0.0), 1.0, 10, 10, "·", "·"]
    md = t.markdown()
    assert "| tit_for_tat × tit_for_tat | Harmony | 100.0 | 0.0 | 100.0 | [100.0, 100.0] | 0.007 | 10 | 10 | + | + |" in md
    assert "permutation test over dyads" in md and "n/a" not in md
    assert "Cells here have as few as 5 dyads a treatment: the percentile bootstrap interval is then narrower" in md
    rows = list(csv.reader(io.StringIO(t.csv_text())))
    assert rows[0][5:7] == ["ΔS 95% CI (pp) low", "ΔS 95% CI (pp) high"]
    # in percent and percentage points, as the headers say
    assert rows[3][:7] == ["tit_for_tat × tit_for_tat", "Prisoner's Dilemma", "100", "0", "100", "100", "100"]


def test_table1_is_the_metrics_on_the_same_traces(report, traces):
    direct = mm.switching_table(traces, n_resamples=N_RES)
    t = report.table("matrix_table1")
    assert [[r["model"], r["game"], r["s_no_talk"], r["s_talk"], r["delta"], r["delta_ci"], r["p"]] for r in direct] == \
        [row[:7] for row in t.rows]


def test_outcome_and_sensitivity_tables(report, traces):
    o = report.table("matrix_outcomes")
    row = o.row(Pairing="tit_for_tat × tit_for_tat", Game="Prisoner's Dilemma", Treatment="no talk")
    # antiphase AB / BA in the Prisoner's Dilemma: half A, 2.5 points a round
    assert row[3:] == [10, 1.0, 1.0, 0.5, 2.5, 0.0, 0.5, 0.5, 0.0]
    row = o.row(Pairing="tit_for_tat × tit_for_tat", Game="Harmony", Treatment="talk")
    assert row[3:] == [10, 0.0, 0.0, 1.0, 5.0, 1.0, 0.0, 0.0, 0.0]
    s = report.table("matrix_sensitivity")
    cc, al = s.rows
    assert cc[:3] == ["complete-case", 80, 80 * 18] and al[:3] == ["all available", 81, 80 * 18 + 2]
    assert cc[8:] == [4, 8, 0]  # the four tit-for-tat cells stabilize; none too small to test
    assert cc[5] == pytest.approx(mm.communication_effect(traces, n_resamples=N_RES)["delta"])
    assert any("1 matrix dyad(s) left out of the complete-case tables" in n for n in report.notes)


def test_outcome_effects_and_alternation_tables(report):
    """Tit-for-tat self-play: antiphase without talk (A 50%; PD 2.5, Harmony (3 + 1) / 2 = 2
    points), all-AA with talk (A 100%; PD 3, Harmony 5); always-A beside an alternator: S
    = 1/2 and the same outcomes either way."""
    e = report.table("matrix_outcome_effects")
    assert e.columns[:2] == ["Pairing", "Game"] and e.columns[6:8] == ["ΔA (pp)", "ΔA 95% CI (pp)"]
    assert e.row(Pairing="tit_for_tat × tit_for_tat", Game="Prisoner's Dilemma")[2:] == \
        [10, 10, 0.5, 1.0, 0.5, (0.5, 0.5), 2.5, 3.0, 0.5, (0.5, 0.5)]
    assert e.row(Pairing="tit_for_tat × tit_for_tat", Game="Harmony")[2:] == \
        [10, 10, 0.5, 1.0, 0.5, (0.5, 0.5), 2.0, 5.0, 3.0, (3.0, 3.0)]
    assert e.row(Pairing="alternator × always_a", Game="Harmony")[6:8] == [0.0, (0.0, 0.0)]
    g = report.table("matrix_outcome_effects_by_game")
    # the game's cells: 2 pairings x 2 framings, weighted equally; alternator beside always-A in Harmony
    # earns AA 5 / 5 and BA 1 / 3 in turn: 3.5 a round either way
    assert g.row(Game="Harmony")[1:] == [4, 20, 20, 0.625, 0.875, 0.25, (0.25, 0.25),
                                         (2.0 + 3.5) / 2, (5.0 + 3.5) / 2, 1.5, (1.5, 1.5)]
    a = report.table("matrix_alternation")
    assert a.row(Pairing="tit_for_tat × tit_for_tat", Game="Harmony")[2:] == \
        [10, 20, 1.0, 1.0, 1.0, (1.0, 1.0), "10/10", "0/10", "10/10"]
    assert a.row(Pairing="tit_for_tat × tit_for_tat", Game="Prisoner's Dilemma")[8:] == [None, None, None]
    # the alternator switches 9/9 (C = 1), always-A never (C = 0)
    assert a.row(Pairing="alternator × always_a", Game="Harmony")[2:] == \
        [10, 20, 0.5, 0.5, 0.5, (0.0, 1.0), "0/10", "0/0", "0/0"]


def test_too_few_dyads_get_a_note_not_a_mark(tmp_path):
    """2 vs 2 dyads of a clear effect (alternators without talk, always-A with it): a
    bootstrap would give a small p and a "+"; no permutation of four dyads goes below
    2/6, so there is no p, no interval, n/a, and a note."""
    traces = [play(make("alternator", output="text"), make("alternator", output="text"), treatment="none",
                   game_id=f"n{i}", seed=i) for i in range(2)]
    traces += [play(make("always_a", output="text"), make("always_a", output="text"), game_id=f"t{i}", seed=i)
               for i in range(2)]
    for t in traces:
        t["policies"] = {A0: {"label": "x"}, A1: {"label": "y"}}
    rep = build_report(traces, tmp_path, n_resamples=N_RES, plots=False)
    t = rep.table("matrix_table1")
    assert t.rows == [["x × y", "Prisoner's Dilemma", 1.0, 0.0, 1.0, None, None, 2, 2, "n/a"]]
    md = t.markdown()
    assert "| x × y | Prisoner's Dilemma | 100.0 | 0.0 | 100.0 | – | – | 2 | 2 | n/a |" in md
    assert "n/a, and p and CI –: too few dyads to test" in md and "2 vs 2: 2/6 = 0.333" in md
    assert "matrix_table1: 1 of 1 framing cell(s) and 1 of 1 row(s) have too few dyads to test (no p, CI or mark; " \
           "marked n/a)." in rep.notes
    assert rep.table("matrix_outcome_effects").rows[0][7] is None  # no interval either
    s = rep.table("matrix_sensitivity")
    assert s.rows[0][6:] == [None, None, 0, 1, 1]


def test_a_row_of_many_small_framings_is_tested_without_an_interval(tmp_path):
    """2 vs 2 dyads in each of the six framings: no cell can be tested, the row can
    (6^6 relabellings within framings; N_RES random ones, none as extreme as the fully
    separated data), but its bootstrap interval would resample two dyads a cell: refused."""
    from negotiation_env.games.matrix.features import FRAMINGS

    traces = []
    for framing in FRAMINGS:
        traces += [play(make("alternator", output="text"), make("alternator", output="text"), treatment="none",
                        framing=framing, game_id=f"{framing}n{i}", seed=i) for i in range(2)]
        traces += [play(make("always_a", output="text"), make("always_a", output="text"), framing=framing,
                        game_id=f"{framing}t{i}", seed=i) for i in range(2)]
    for t in traces:
        t["policies"] = {A0: {"label": "x"}, A1: {"label": "y"}}
    rep = build_report(traces, tmp_path, n_resamples=N_RES, plots=False)
    t = rep.table("matrix_table1")
    (row,) = t.rows
    assert row[2:9] == [1.0, 0.0, 1.0, None, pytest.approx(2 / (N_RES + 1)), 12, 12]
    assert row[9:] == ["n/a"] * 6
    assert "A tested row's CI is – where one of its framings is too small to test on its own" in t.markdown()


def test_figure_and_cells(report, run_dir, tmp_path):
    fig = [f for f in report.figures if f.name == "fig_matrix_switching.png"]
    assert fig and fig[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = build_report(report_traces(run_dir), tmp_path, n_resamples=N_RES)
    assert (tmp_path / fig[0].name).read_bytes() == fig[0].read_bytes()
    assert [t.markdown() for t in again.tables] == [t.markdown() for t in report.tables]
    cells = {r["game_id"]: r for r in csv.DictReader(io.StringIO((fig[0].parent / "cells.csv").read_text(encoding="utf-8")))}
    assert len(cells) == 81
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
    assert main(["report", str(run_dir), "--out", str(tmp_path / "r"), "--no-plots", "--resamples", str(N_RES)]) == 0
    md = (tmp_path / "r" / "matrix_table1.md").read_text(encoding="utf-8")
    assert md.startswith("### Table 1 layout: communication effects on adjacent-round switching")
    assert f"from {N_RES} dyad bootstrap resamples" in md
    assert not list((tmp_path / "r").glob("*.png"))


def test_report_run_reads_a_trace_file(run_dir, tmp_path):
    rep = report_run(run_dir / "traces.jsonl", tmp_path / "x", plots=False)
    assert rep.games == {"matrix": 81}
