"""Figures the documentation quotes are what the command beside them prints: the cheap
ones are rerun here and compared with the numbers parsed from the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]


def _table_row(page: Path, header_start: str, row_label: str) -> tuple[list[str], list[str]]:
    """The header cells and the ``row_label`` row's cells of the first Markdown table whose
    header starts with ``header_start``."""
    lines = page.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"| {header_start}"):
            header = [c.strip() for c in line.strip("|").split("|")]
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                cells = [c.strip() for c in row.strip("|").split("|")]
                if cells[0] == row_label:
                    return header, cells
    raise AssertionError(f"no table {header_start!r} with a row {row_label!r} in {page}")


def test_rl_page_dqn_curve_is_what_train_rl_prints():
    """docs/rl.md's matrix-vs-tft curve at seed 0: its first three points rerun with
    ``--stop-after 2`` (same schedule, a quarter of the time)."""
    pytest.importorskip("tianshou")
    header, row = _table_row(ROOT / "docs" / "rl.md", "matrix-vs-tft, env steps", "DQN test return")
    from negotiation_env.train import rl

    if not rl.game_available("matrix"):
        pytest.skip("the matrix game, its menu or its scripted policies are not in this tree")
    (res,) = rl.run(rl.RLRunConfig(experiments=("matrix-vs-tft",), seed=0, stop_after=2))
    curve = res["curve"]
    assert [str(p["env_steps"]) for p in curve] == header[1:4]
    assert [f"{p['test_mean']:g}" for p in curve] == row[1:4]


def test_rl_page_names_the_command_of_its_figures():
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert re.search(r"Figures from `python -m benchmarks.train_rl` at seed 0", text)
