"""Kill a run with SIGKILL in the middle, resume it, and get exactly the planned games."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml

from negotiation_env.cli import main as cli_main
from negotiation_env.runner import make_plan, parse_config, run

from .helpers import small_config
from .test_engine import records

ROOT = Path(__file__).resolve().parents[2]


def _first_difference(a, b, path="") -> str:
    """Where two JSON values first differ, as a path and the two values (cut)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:300]!r} != {str(b)[:300]!r}"


def config():
    return small_config(games_per_cell=3, policies=["python:tests.runner.helpers:Slow", "scripted:random"])


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_sigkill_mid_run_then_resume_gives_the_uninterrupted_traces(tmp_path):
    cfg_file = tmp_path / "cohort.yaml"
    cfg_file.write_text(yaml.safe_dump(config(), sort_keys=False))
    plan = make_plan(parse_config(config()))

    reference = tmp_path / "reference"
    run(config(), reference)
    assert lines(reference / "traces.jsonl") == len(plan)

    out = tmp_path / "killed"
    env = {**os.environ, "NEGENV_TEST_SLOW": "0.004", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "negotiation_env.cli", "run", str(cfg_file), "--out", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while lines(out / "traces.jsonl") < 4 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read().decode()[-2000:]}"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    done = lines(out / "traces.jsonl")
    assert 4 <= done < len(plan)
    # as if the kill had come in the middle of a write: half a record at the end
    with open(out / "traces.jsonl", "ab") as f:
        f.write(b'{"schema_version": 1, "game_id": "resource|torn')

    assert cli_main(["run", str(cfg_file), "--out", str(out)]) == 2  # not without --resume
    assert cli_main(["run", str(cfg_file), "--out", str(out), "--resume"]) == 0
    assert lines(out / "traces.jsonl") == len(plan)  # no duplicates, nothing lost
    assert (out / "traces.jsonl").read_bytes().endswith(b"\n")
    # (the kill may itself have torn a line; ours is then glued to it, all of it cut off)
    assert b'{"schema_version": 1, "game_id": "resource|torn' in (out / "traces.jsonl.torn").read_bytes()
    got, want = records(out), records(reference)  # same content, timestamps aside
    assert got == want, _first_difference(got, want)
    # resuming a complete run plays nothing and changes nothing
    before = (out / "traces.jsonl").read_bytes()
    summary = run(config(), out, resume=True)
    assert summary.played == 0 and summary.complete and (out / "traces.jsonl").read_bytes() == before
