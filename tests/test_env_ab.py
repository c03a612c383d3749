"""Smoke test of benchmarks/env_ab.py (not a timing test): the base commit is exported
and imported under another name beside the working tree, and both play the row."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import env_ab as ab

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    shutil.which("git") is None
    or subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode != 0,
    reason="needs git and a repository with a commit")


def test_quick_run_compares_head_with_the_working_tree(capsys):
    assert ab.main(["--quick", "--rows", "matrix"]) == 0
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if line.startswith("matrix"))
    base_us, new_us, ratio = (float(x) for x in row.split()[1:4])
    assert base_us > 0 and new_us > 0 and 0 < ratio < 10
    # the base package is gone from the process once the run ends
    assert not [m for m in sys.modules if m.split(".")[0] == "negotiation_env_base"]


def test_the_exported_base_is_its_own_package(tmp_path):
    full = ab.export_base("HEAD", tmp_path)
    assert len(full) == 40
    sources = list((tmp_path / ab.BASE_NAME).rglob("*.py"))
    assert sources and not any("negotiation_env." in p.read_text(encoding="utf-8").replace(ab.BASE_NAME, "")
                               for p in sources)


def test_unknown_rows_and_commits_are_refused(capsys):
    with pytest.raises(SystemExit):
        ab.main(["--rows", "chess"])
    assert "unknown chess" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="could not export"):
        ab.main(["--base", "no-such-commit", "--quick"])
