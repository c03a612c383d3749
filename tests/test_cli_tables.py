"""Result tables read the same everywhere: at 80 columns on a terminal (a table too wide
is split or laid out per row, never cut), as Markdown pipe tables in a pipe, and as one
JSON document with ``--format json`` (run, report, games)."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from negotiation_env.cli import main
from negotiation_env.console import print_table
from negotiation_env.runner import run
from negotiation_env.runner.commands import print_summary
from negotiation_env.runner.config import load_config
from negotiation_env.traces import read_traces

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[")
BOX = set("┏┓┗┛┃━│─┡┩╇┳┻┼└┘┌┐")
SEPARATOR = re.compile(r"^\| (:?-{3,}:? \| )*:?-{3,}:? \|$")

#: the default cohort's lineups (three scripted policies, every pairing) with their row
#: of the by-pairing table: games, errors, rounds, games kept, rounds kept, fallback,
#: overdraw, efficiency, optimal, return agent_a, return agent_b, invalid
ROWS = {
    "scripted:oracle vs scripted:oracle": ["12", "0", "24", "12", "24", "0", "0.0%", "100.0%", "100.0%", "39.17",
                                           "34.17", "0"],
    "scripted:oracle vs scripted:linear": ["12", "0", "24", "12", "24", "0", "0.0%", "100.0%", "100.0%", "47.83",
                                           "25.50", "0"],
    "scripted:oracle vs scripted:greedy": ["12", "0", "24", "12", "24", "0", "66.7%", "33.3%", "33.3%", "17.50",
                                           "17.50", "0"],
    "scripted:linear vs scripted:linear": ["12", "0", "24", "12", "24", "0", "0.0%", "100.0%", "100.0%", "33.50",
                                           "39.83", "0"],
    "scripted:linear vs scripted:greedy": ["12", "0", "24", "12", "24", "0", "66.7%", "33.3%", "33.3%", "17.50",
                                           "17.50", "0"],
    "scripted:greedy vs scripted:greedy": ["12", "0", "24", "12", "24", "0", "66.7%", "33.3%", "33.3%", "17.50",
                                           "17.50", "0"],
}
HEADER = ["lineup", "games", "errors", "rounds", "games kept", "rounds kept", "fallback", "overdraw", "efficiency",
          "optimal", "return agent_a", "return agent_b", "invalid"]


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    """The default cohort (its policies, pairings, conditions and scenario sets), one
    game per cell of two rounds: 72 games."""
    tmp = tmp_path_factory.mktemp("cohort")
    config = load_config(None).model_dump()
    config["games"][0]["games_per_cell"] = 1
    config["games"][0]["config"]["num_rounds"] = 2
    cfg = tmp / "cohort.yaml"
    cfg.write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    out = tmp / "run"
    summary = run(config, out)
    assert summary.complete and summary.planned == 72
    return cfg, out, summary


def _cells(lines: list[str], first: str) -> list[str]:
    """The cells, over every part of a split boxed table, of the row led by ``first``."""
    cells: list[str] = []
    for ln in lines:
        row = [c.strip() for c in ln.strip().strip("│").split("│")]
        if ln.startswith("│") and row[0] == first:
            cells += row[1:]
    return cells


def _markdown_tables(text: str) -> list[list[list[str]]]:
    """Every pipe table in ``text`` (rows of cells, header first), checked to be well formed."""
    tables, block = [], []
    for ln in text.splitlines() + [""]:
        if ln.startswith("|"):
            block.append(ln)
            continue
        if block:
            assert len(block) >= 2 and SEPARATOR.match(block[1]), block[:2]
            rows = [[c.strip() for c in row[1:-1].split(" | ")] for row in block[:1] + block[2:]]
            assert {len(r) for r in rows} == {len(rows[0])} == {block[1].count("|") - 1}, block
            tables.append(rows)
            block = []
    return tables


def test_the_run_summary_fits_80_columns_with_every_figure_whole(cohort):
    _, _, summary = cohort
    console = Console(width=80, force_terminal=True, record=True, color_system=None)
    print_summary(summary, console)
    lines = console.export_text().splitlines()
    assert max(len(ln) for ln in lines) <= 80
    assert "…" not in "\n".join(lines)
    for lineup, row in ROWS.items():
        cells = _cells(lines, lineup)
        # the row is split over stacked tables, each led by the lineup; its cells in order
        assert [c for c in cells if c != lineup] == row, lineup
    headers = " ".join(" ".join(ln.strip("┃ ").split()) for ln in lines if ln.startswith("┃"))
    for h in HEADER:
        assert h in headers


def test_a_too_narrow_console_gets_one_block_per_row():
    console = Console(width=30, force_terminal=True, record=True, color_system=None)
    print_table(console, "t", ["lineup", "return agent_a", "games"], [["scripted:oracle vs scripted:greedy", "17.50",
                                                                       "12"]], "table")
    text = console.export_text()
    assert "…" not in text and max(len(ln) for ln in text.splitlines()) <= 30
    assert [ln.rstrip() for ln in text.splitlines()] == ["t", "", "scripted:oracle vs", "scripted:greedy",
                                                         "return agent_a  17.50", "games           12"]


def test_the_run_summary_in_a_pipe_is_markdown(cohort):
    cfg, out, _ = cohort
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run([sys.executable, "-m", "negotiation_env.cli", "run", str(cfg), "--out", str(out),
                           "--resume"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert not ANSI.search(text) and not BOX & set(text) and "…" not in text
    assert "### resource: by pairing (seat order)" in text
    by_pairing, by_condition = _markdown_tables(text)
    assert by_pairing[0] == HEADER
    assert {r[0]: r[1:] for r in by_pairing[1:]} == ROWS
    assert len(by_condition) == 13 and by_condition[1][0] == "stability=stable,rotation=fixed · mc0.5"
    assert "72/72 games (complete)" in text
    assert "games" in proc.stderr  # the progress bars: on stderr


def test_run_format_json_is_one_document_with_the_summary(cohort, capsys):
    cfg, out, summary = cohort
    assert main(["run", str(cfg), "--out", str(out), "--resume", "--format", "json"]) == 0
    printed = capsys.readouterr()
    doc = json.loads(printed.out)
    assert doc["run_id"] == summary.run_id and doc["out_dir"] == str(out)
    assert (doc["planned"], doc["games"], doc["already_done"], doc["played"], doc["missing"]) == (72, 72, 72, 0, 0)
    assert (doc["complete"], doc["errors"], doc["degraded"], doc["truncated"], doc["exit_status"]) == \
        (True, 0, 0, 0, 0)
    rows = {r["lineup"]: r for r in doc["tables"]["resource"]["by_pairing"]}
    assert sorted(rows) == sorted(ROWS)
    traces = read_traces(out).traces
    for lineup, r in rows.items():
        games = [t for t in traces if " vs ".join(t.run.lineup) == lineup]
        assert r["games"] == len(games) == 12
        for seat in ("agent_a", "agent_b"):
            assert r["returns"][seat] == pytest.approx(sum(t.returns[seat] for t in games) / len(games))
    oracle_greedy = rows["scripted:oracle vs scripted:greedy"]
    assert (oracle_greedy["overdraw"], oracle_greedy["efficiency"], oracle_greedy["rounds kept"]) == \
        (pytest.approx(2 / 3), pytest.approx(1 / 3), 24)
    assert len(doc["tables"]["resource"]["by_condition"]) == 12


def test_report_prints_its_headline_table_at_80_columns(cohort, tmp_path, capsys, monkeypatch):
    _, out, _ = cohort
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["report", str(out), "--no-plots", "--out", str(tmp_path / "table"), "--format", "table"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert max(len(ln) for ln in lines) <= 80 and "…" not in text
    assert lines[0].startswith("Table 3 layout: self-play vs. cross-play performance by M/C")
    # the "All" row over the stacked parts: type, then overdraw, efficiency, optimum % and
    # games at M/C 0.5, 0.8 and 1.0, then the fallback rounds left out
    assert [c for c in _cells(lines, "All") if c != "All"] == [
        "all", "50.0", "50.0", "50.0", "24", "50.0", "50.0", "50.0", "24", "0.0", "100.0", "100.0", "24", "0"]
    assert "resource_table3" in text and "wrote " in text


def test_report_format_json_holds_every_table(cohort, tmp_path, capsys):
    _, out, _ = cohort
    assert main(["report", str(out), "--no-plots", "--out", str(tmp_path / "rep"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["headline"] == ["resource_table3"] and doc["games"] == {"resource": 72}
    tables = {t["name"]: t for t in doc["tables"]}
    assert set(tables) >= {"resource_summary", "resource_table3", "resource_errors"}
    with open(tmp_path / "rep" / "resource_table3.csv", newline="", encoding="utf-8") as f:
        written = list(csv.DictReader(f))
    t3 = tables["resource_table3"]
    assert [r["Pairing"] for r in t3["rows"]] == [r["Pairing"] for r in written]
    for r, w in zip(t3["rows"], written):
        assert r["M/C 0.5 games"] == int(w["M/C 0.5 games"])
        assert 100 * r["M/C 0.5 Efficiency %"] == pytest.approx(float(w["M/C 0.5 Efficiency %"]))


def test_games_format_json_is_games_json_and_table_fits_80(capsys, monkeypatch):
    assert main(["games", "matrix", "--json"]) == 0
    alias = capsys.readouterr().out
    assert main(["games", "matrix", "--format", "json"]) == 0
    assert capsys.readouterr().out == alias and json.loads(alias)[0]["game"] == "matrix"
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["games", "matrix", "--format", "table"]) == 0
    text = capsys.readouterr().out
    assert max(len(ln) for ln in text.splitlines()) <= 80 and "…" not in text
    assert "│ num_rounds " in text and "│ 10 " in text
