"""Every `negotiation-env report` CSV against its Markdown twin: each CSV number,
printed in the Markdown's format, is the Markdown cell, so a "%" column holds
percentages in both files and no column can drift by unit or rounding."""

from __future__ import annotations

import csv
import io
import re

import pytest

from baselines.scripted.matrix import make
from negotiation_env.analysis.report import build_report

from .tracesets import play_matrix_env, resource_cohort, rulemaking_cohort

DASH = "–"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    traces = resource_cohort() + rulemaking_cohort(runs=2)
    for stage in ("prisoners_dilemma", "harmony"):
        for seed in range(3):
            for tr in ("none", "communication"):
                env = play_matrix_env(make("always_a", output="text"), make("alternator", output="text"),
                                      seed=seed, stage_game=stage, treatment=tr)
                traces.append(env.last_trace.to_dict())
    out = tmp_path_factory.mktemp("report")
    return build_report(traces, out, plots=False, n_resamples=50), out


def md_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in ``text``, cells unescaped."""
    rows = [ln for ln in text.splitlines() if ln.startswith("| ")]
    out = []
    for ln in rows[2:]:
        cells = re.split(r"(?<!\\)\|", ln.strip()[1:-1])
        out.append([c.strip().replace("\\|", "|") for c in cells])
    return out


def shown(cell: str, fmt: str) -> str:
    """A CSV cell printed the way the Markdown prints a value of format ``fmt``."""
    if cell == "":
        return DASH
    try:
        x = float(cell)
    except ValueError:
        return {"true": "yes", "false": "no"}.get(cell, cell) if fmt != "text" else cell
    if fmt in ("pct", "pct_ci"):
        return f"{x:.1f}"
    if fmt in ("num", "ci"):
        return f"{x:.2f}"
    if fmt == "p":
        return "<0.001" if x < 0.001 else f"{x:.3f}"
    return cell


def rendered_row(header: list[str], row: list[str], columns: list[str], formats: list[str]) -> dict[str, str]:
    """Column name -> the CSV row's value(s) of that column as the Markdown prints them."""
    got = dict(zip(header, row))
    out = {}
    for c, f in zip(columns, formats):
        if f in ("ci", "pct_ci"):
            lo, hi = got[f"{c} low"], got[f"{c} high"]
            out[c] = DASH if lo == hi == "" else f"[{shown(lo, f)}, {shown(hi, f)}]"
        else:
            out[c] = shown(got[c], f)
    return out


def test_every_csv_prints_as_its_markdown_twin(built):
    rep, out = built
    assert {"resource", "rulemaking", "matrix"} <= set(rep.games)
    checked = pct_cells = 0
    for t in rep.tables:
        md = md_rows((out / f"{t.name}.md").read_text(encoding="utf-8"))
        rows = list(csv.reader(io.StringIO((out / f"{t.name}.csv").read_text(encoding="utf-8"))))
        header, body = rows[0], rows[1:]
        data = t.data or t
        assert len(body) == len(data.rows) and len(md) == max(len(t.rows), 1), t.name
        if not t.rows:
            continue
        for md_row, csv_row in zip(md, body):
            want = rendered_row(header, csv_row, data.columns, data.formats)
            for c, cell in zip(t.columns, md_row):
                if c in want:
                    assert cell == want[c], (t.name, c, csv_row)
                else:  # one Markdown cell of two data columns ("a / b", "a → b")
                    parts = [want[d] for d in data.columns if d.startswith(c + " ")]
                    assert len(parts) == 2 and cell in (" / ".join(parts), " → ".join(parts)), (t.name, c, cell)
                checked += 1
        pct_cells += sum(f in ("pct", "pct_ci") for f in data.formats) * len(body)
    assert checked > 500 and pct_cells > 100


def test_a_percent_column_holds_percentages(built):
    rep, out = built
    t3 = rep.table("resource_table3")
    v = t3.value("M/C 1.0 Efficiency %", Pairing="fair_splitter × oracle")
    row = next(r for r in csv.DictReader(io.StringIO((out / "resource_table3.csv").read_text()))
               if r["Pairing"] == "fair_splitter × oracle")
    assert 0 < v < 1 and float(row["M/C 1.0 Efficiency %"]) == pytest.approx(100 * v, rel=1e-9)
    oracle = next(r for r in csv.DictReader(io.StringIO((out / "resource_table3.csv").read_text()))
                  if r["Pairing"] == "oracle × oracle")
    assert oracle["M/C 0.5 Optimum %"] == "100"
