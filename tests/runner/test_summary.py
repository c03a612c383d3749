"""Per-game run summaries: the closing tables of ``negotiation-env run`` show
each game's own measures, and each figure is the one ``negotiation-env report`` (and the
metric functions behind it) gives on the same traces."""

from __future__ import annotations

import pytest
from rich.console import Console

from negotiation_env.analysis import matrix_metrics as mm
from negotiation_env.analysis.cells import lineup as lineup_of
from negotiation_env.analysis.report import matrix_tables, rulemaking_tables
from negotiation_env.analysis.rulemaking_metrics import cell_summary
from negotiation_env.runner import run
from negotiation_env.runner.commands import _fmt, _merge, print_summary
from negotiation_env.runner.engine import summarize_trace
from negotiation_env.runner.summary import figures, game_measures
from negotiation_env.traces import read_traces

BERN = {"spec": "scripted:bernoulli", "label": "bern[0.5]", "options": {"p": 0.5}}
MATRIX = {"name": "mx", "seed": 3, "games": [
    {"game": "matrix", "policies": ["scripted:tit_for_tat", BERN], "pairings": [["scripted:tit_for_tat", "bern[0.5]"]],
     "games_per_cell": 4, "config": {"num_rounds": 5},
     "factors": {"treatment": {"talk": {"treatment": "communication"}, "no_talk": {"treatment": "none"}}}},
    # cut short by the step cap: truncated, so no complete-case dyad
    {"game": "matrix", "name": "short", "policies": ["scripted:alternator"], "pairings": "self", "games_per_cell": 2,
     "max_steps": 5, "config": {"num_rounds": 5}},
]}
RULEMAKING = {"name": "rm", "seed": 1, "games": [
    {"game": "rulemaking", "policies": ["scripted:noisy_conceder"], "pairings": "self", "games_per_cell": 4,
     "factors": {"cond": {"none": {"condition": "none"}, "ledger": {"condition": "ledger"}}}},
    {"game": "rulemaking", "name": "short", "policies": ["scripted:hardliner"], "pairings": "self",
     "games_per_cell": 2, "max_steps": 3},
]}


GARBAGE = {"spec": "python:tests.analysis.tracesets:Garbage", "label": "garbage", "options": {"bad": [2]}}
RESOURCE = {"name": "rs", "seed": 2, "games": [
    {"game": "resource", "policies": ["scripted:oracle", GARBAGE], "pairings": "all", "games_per_cell": 2,
     "config": {"num_rounds": 4}, "scenario_sets": {"lo": ["mc050_1"], "hi": ["mc100_1"]}},
]}


def _played(config, tmp_path):
    out = tmp_path / config["name"]
    summary = run(config, out)
    assert summary.complete and summary.errors == 0
    return summary, [t.to_dict() for t in read_traces(out).traces]


def _groups(summary, key):
    out = {}
    for c in summary.cells.values():
        out.setdefault(key(c), []).append(c)
    return out


def _printed(summary) -> list[str]:
    console = Console(record=True, width=300)
    print_summary(summary, console, "table")
    return console.export_text().splitlines()


def _row(lines, first):
    """The cells of the table line (a header ┃ or a body │ line) whose first cell is ``first``."""
    found = [ln.replace("┃", "│") for ln in lines if ln.replace("┃", "│").startswith("│ " + first + " ")]
    assert len(found) == 1, (first, lines)
    return [c.strip() for c in found[0].strip("│").split("│")]


@pytest.fixture(scope="module")
def matrix_run(tmp_path_factory):
    return _played(MATRIX, tmp_path_factory.mktemp("summary"))


@pytest.fixture(scope="module")
def resource_run(tmp_path_factory):
    return _played(RESOURCE, tmp_path_factory.mktemp("summary"))


@pytest.fixture(scope="module")
def rulemaking_run(tmp_path_factory):
    return _played(RULEMAKING, tmp_path_factory.mktemp("summary"))


def test_matrix_rows_are_the_pooled_metrics_of_their_games(matrix_run):
    summary, traces = matrix_run
    for lineup, cells in _groups(summary, lambda c: tuple(c.lineup)).items():
        f = figures("matrix", _merge(cells)["measures"])
        mine = [t for t in traces if tuple(lineup_of(t)) == lineup]
        m = mm.pooled_metrics(mine, "complete")
        assert (f["games"], f["kept"]) == (len(mine), m["dyads"])
        assert (f["S"], f["C"], f["a_rate"], f["AA"], f["BB"]) == (m["S"], m["C_mean"], m["a_rate"], m["joint"]["AA"],
                                                                  m["joint"]["BB"])
    short = figures("matrix", _merge(_groups(summary, lambda c: c.lineup[0])["scripted:alternator"])["measures"])
    assert short["games"] == 2 and short["kept"] == 0 and short["S"] is None  # truncated dyads are left out


def test_matrix_rows_print_the_reports_outcome_figures(matrix_run):
    """One pairing, one stage game: a condition row of the summary is a row of the
    report's matrix_outcomes table, figure for figure as printed."""
    summary, traces = matrix_run
    outcome = next(t for t in matrix_tables(traces, n_resamples=50)[0] if t.name == "matrix_outcomes")
    lines = _printed(summary)
    header = _row(lines, "condition · set")
    for cond, treatment in (("treatment=talk", "talk"), ("treatment=no_talk", "no talk")):
        rep = dict(zip(outcome.columns, outcome.row(Pairing="bern[0.5] × scripted:tit_for_tat", Treatment=treatment)))
        got = dict(zip(header, _row(lines, f"{cond} · default")))
        assert got["dyads"] == str(rep["Dyads"]) == "4"
        assert got["S"] == _fmt(rep["S %"], True) and got["A"] == _fmt(rep["Action A %"], True)
        assert got["C"] == _fmt(rep["Mean C"]) and got["AA"] == _fmt(rep["AA %"], True)
        assert got["BB"] == _fmt(rep["BB %"], True)
    assert any("2 of 10 games left out" in ln for ln in lines)


def test_rulemaking_rows_are_the_reports_cell_figures(rulemaking_run):
    summary, traces = rulemaking_run
    cells_table = rulemaking_tables(traces, n_resamples=50)[0][1]
    lines = _printed(summary)
    header = _row(lines, "condition · set")
    for cond in ("none", "ledger"):
        rep = dict(zip(cells_table.columns, cells_table.row(Family="scripted:noisy_conceder", Condition=cond)))
        got = dict(zip(header, _row(lines, f"cond={cond} · default")))
        assert [got[k] for k in ("runs", "C", "S", "A", "D")] == [str(rep[k]) for k in ("Runs", "C", "S", "A", "D")]
        assert got["horizon"] == _fmt(rep["Horizon exhaustion"], True)
    # the by-pairing row pools both conditions: the cell summary of those runs
    cells = _groups(summary, lambda c: c.lineup[0])["scripted:noisy_conceder"]
    f = figures("rulemaking", _merge(cells)["measures"])
    runs = [t["rounds"][0]["outcome"] for t in traces if lineup_of(t)[0] == "scripted:noisy_conceder"]
    s = cell_summary(runs)
    assert f["kept"] == s["runs"] == 8 and {k: f[k] for k in s["counts"]} == s["counts"]
    assert f["horizon"] == s["horizon_exhaustion_rate"]
    short = figures("rulemaking", _merge(_groups(summary, lambda c: c.lineup[0])["scripted:hardliner"])["measures"])
    assert short["games"] == 2 and short["kept"] == 0 and short["horizon"] is None
    assert any("2 of 10 games left out" in ln for ln in lines)


def test_resumed_games_count_in_the_measures_too(matrix_run, tmp_path):
    """A resumed run reads its finished games back through summarize_trace: the same figures."""
    summary, traces = matrix_run
    first = run(MATRIX, tmp_path / "again")
    again = run(MATRIX, tmp_path / "again", resume=True)
    assert again.played == 0 and again.already_done == first.played
    for key, c in again.cells.items():
        assert c.measures == summary.cells[key].measures


def test_game_measures_are_additive_and_only_for_their_game(matrix_run, rulemaking_run):
    _, mx = matrix_run
    _, rm = rulemaking_run
    assert summarize_trace(mx[0])["measures"] == game_measures(mx[0])
    assert game_measures({"game": "resource"}) == {"games": 1, "kept": 0}  # no rounds: not counted, and counted so
    assert game_measures({"game": "rulemaking_v9"}) == {}
    assert game_measures({"game": "matrix", "game_id": "x", "agents": ["a"]}) == {"games": 1, "kept": 0}
    total: dict = {}
    for t in mx:
        for k, v in game_measures(t).items():
            total[k] = total.get(k, 0) + v
    m = mm.pooled_metrics(mx, "complete")
    assert total["switches"] == m["switches"] and total["transitions"] == m["transitions"]
    assert total["dyad_rounds"] == m["rounds"] and total["kept"] == m["dyads"] == 8


def test_resource_rows_leave_out_fallback_rounds_as_the_report_does(resource_run):
    from negotiation_env.analysis.resource_metrics import pooled_metrics

    summary, traces = resource_run
    # the garbage seat falls back in round 2 of every game it plays: one round per game left out
    marked = sorted(sum(bool(r["outcome"]["fallback"]) for r in t["rounds"]) for t in traces)
    assert marked == [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]  # 2 games x 2 sets x (oracle, garbage, both)
    for lineup, cells in _groups(summary, lambda c: tuple(c.lineup)).items():
        f = figures("resource", _merge(cells)["measures"])
        mine = [t for t in traces if tuple(lineup_of(t)) == lineup]
        m = pooled_metrics(mine)
        assert (f["games"], f["kept"], f["rounds"], f["fallback"]) == (len(mine), m["games"], m["rounds"],
                                                                       m["excluded_rounds"])
        assert (f["overdraw"], f["efficiency"], f["optimal"]) == (m["overdraw_rate"], pytest.approx(m["efficiency"]),
                                                                  m["optimum_rate"])
    f = figures("resource", _merge(_groups(summary, lambda c: tuple(c.lineup))[("garbage", "garbage")])["measures"])
    assert (f["rounds"], f["fallback"]) == (12, 4)
    # printed: a condition row is the report's headline row of that M/C level
    from negotiation_env.analysis.report import resource_tables

    head = resource_tables(traces)[0][0]
    lines = _printed(summary)
    header = _row(lines, "condition · set")
    for cset, mc in (("lo", "0.5"), ("hi", "1.0")):
        got = dict(zip(header, _row(lines, f"default · {cset}")))
        rep = dict(zip(head.columns, head.row({"M/C": mc})))
        assert got["games kept"] == str(rep["Games"]) and got["rounds kept"] == str(rep["Rounds"])
        assert got["fallback"] == str(rep["Fallback rounds left out"]) == "4"
        assert got["efficiency"] == _fmt(rep["Efficiency %"], True) and got["optimal"] == _fmt(rep["Optimum %"], True)
        assert got["overdraw"] == _fmt(rep["Overdraw %"], True)
