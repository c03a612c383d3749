"""Kill -9 a tournament at random moments, resume it each time, and compare the result
with an uninterrupted run of the same config.

    python -m benchmarks.chaos                      # 20 kill/resume cycles
    python -m benchmarks.chaos --cycles 50 --seed 3

The cohort: the resource game, 3 scripted policies all-to-all (6 pairings) on 4 mc080
scenarios, both speaker orders, 4 rounds, 40 games per pairing = 240 games; the oracle seat
is slowed a little (``NEGENV_TEST_SLOW``-style, via this script's own policy) so that a run
lasts long enough to be killed. Each cycle starts ``negotiation-env run ... --resume`` in
a subprocess, waits a random time (uniform on [0.5, 2.5] s, from the ``--seed`` Generator),
sends SIGKILL, and, every third cycle from the first, appends half a record as if the kill had landed
in the middle of a write. After the cycles a final ``--resume`` completes the run.

Checked: the final trace file holds exactly the planned game keys, once each; every line
parses; and every record equals the uninterrupted run's record for the same key, byte for
byte after removing the ``started_at``/``ended_at`` timestamps. Figures (cycles, kills
that landed mid-run, torn tails repaired, games lost, duplicates) go to
``benchmarks/results/chaos.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import machine_info, write_result
from negotiation_env.runner import make_plan, parse_config, run

TORN = b'{"schema_version": 1, "game_id": "resource|torn-by-chaos'


class SlowOracle:
    """The oracle with a delay per action when CHAOS_SLOW is set (same actions either way)."""

    def __init__(self, seed=None):
        from baselines.scripted import make

        self.name = "slow_oracle"
        self._inner = make("oracle", seed=seed, output="text")
        self._delay = float(os.environ.get("CHAOS_SLOW", "0") or 0)

    def act(self, obs):
        if self._delay:
            time.sleep(self._delay)
        return self._inner.act(obs)


def cohort(games_per_cell: int = 24) -> dict[str, Any]:
    return {
        "name": "chaos", "seed": 11,
        "games": [{
            "game": "resource",
            "policies": ["python:benchmarks.chaos:SlowOracle", "scripted:linear", "scripted:greedy"],
            "pairings": "all", "games_per_cell": games_per_cell, "swap_first_speaker": True,
            "config": {"num_rounds": 4},
            "scenario_sets": {"mc0.8": ["mc080_1", "mc080_2", "mc080_3", "mc080_4"]},
        }],
    }


def _strip(line: bytes) -> tuple[str, str]:
    rec = json.loads(line)
    rec.pop("started_at", None)
    rec.pop("ended_at", None)
    return rec["game_id"], json.dumps(rec, sort_keys=True)


def records(path: Path) -> tuple[dict[str, str], list[str]]:
    """key -> record without timestamps, and every key in file order (to count duplicates)."""
    keys, out = [], {}
    for line in path.read_bytes().splitlines():
        k, r = _strip(line)
        keys.append(k)
        out[k] = r
    return out, keys


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def chaos(cycles: int, seed: int, work: Path, games_per_cell: int = 40, slow: float = 0.01,
          wait: tuple[float, float] = (0.5, 2.5)) -> dict[str, Any]:
    cfg = cohort(games_per_cell)
    cfg_file = work / "cohort.yaml"
    cfg_file.write_text(yaml.safe_dump(cfg, sort_keys=False))
    plan = make_plan(parse_config(cfg))
    env = {**os.environ, "CHAOS_SLOW": str(slow), "PYTHONPATH": str(ROOT)}
    reference = work / "reference"
    run(cfg, reference)
    out = work / "chaos"
    traces = out / "traces.jsonl"
    rng = np.random.default_rng(seed)
    landed = torn = 0
    progress = []  # games on disk after each kill
    t0 = time.perf_counter()
    for c in range(cycles):
        cmd = [sys.executable, "-m", "negotiation_env.cli", "run", str(cfg_file), "--out", str(out)]
        if traces.exists():
            cmd.append("--resume")
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(float(rng.uniform(*wait)))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            landed += 1
        proc.wait(timeout=30)
        progress.append(_lines(traces))
        # a torn tail after the first kill that left a trace file (a slow start can leave
        # none after the first), then every third cycle
        if traces.exists() and (torn == 0 or c % 3 == 0):
            with open(traces, "ab") as f:
                f.write(TORN)
            torn += 1
        if _lines(traces) >= len(plan):
            break
    rc = subprocess.run([sys.executable, "-m", "negotiation_env.cli", "run", str(cfg_file), "--out", str(out),
                         "--resume"], cwd=ROOT, env={**env, "CHAOS_SLOW": "0"}, capture_output=True).returncode
    wall = time.perf_counter() - t0
    got, keys = records(traces)
    ref, _ = records(reference / "traces.jsonl")
    return {
        "planned": len(plan), "cycles": c + 1, "kills_mid_run": landed, "torn_tails_added": torn,
        "games_after_each_kill": progress, "final_rc": rc, "games": len(keys), "duplicates": len(keys) - len(set(keys)),
        "lost": len(set(ref) - set(got)), "unexpected": len(set(got) - set(ref)),
        "differing_records": sum(got.get(k) != r for k, r in ref.items()),
        "wall_s": wall,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games-per-cell", type=int, default=40)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "chaos.json"))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        res = chaos(args.cycles, args.seed, Path(tmp), args.games_per_cell)
    ok = res["final_rc"] == 0 and res["games"] == res["planned"] and not (
        res["duplicates"] or res["lost"] or res["unexpected"] or res["differing_records"])
    for k, v in res.items():
        print(f"{k:>20}: {v:.1f}" if isinstance(v, float) else f"{k:>20}: {v}")
    print("PASS: the resumed run equals the uninterrupted one" if ok else "FAIL")
    write_result(Path(args.out), {"settings": vars(args), "result": res, "ok": ok, "machine": machine_info()})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
