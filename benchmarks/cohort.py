"""Wall time, throughput and memory of the seed-000 cohort shape with scripted policies.

Run from the repository root:

    python -m benchmarks.cohort                     # N = 2 and 10 games per cell (144 and 720 games)
    python -m benchmarks.cohort --games 2,6 --workers 2
    python -m benchmarks.cohort --quick             # N = 1 and 2, no tracemalloc pass

The cohort is the shape of seed 000 §4: 3 M/C levels (scenario sets mc050_*, mc080_*,
mc100_*) x 2 partner stabilities x 2 project rotations = 12 conditions, all-to-all
cross-play of 3 scripted policies (oracle, linear, greedy: 6 pairings), N games per cell
with the first speaker swapped, 4 rounds per game: 72 N games, played by the real runner
(``negotiation_env.runner.run``) into a temporary folder, traces and all.

Each N runs in a fresh subprocess so that its memory figures are its own:
* pass 1 (timed): wall time, games/s, steps/s, trace bytes per game, and the process's
  peak resident set (``resource.getrusage(RUSAGE_SELF).ru_maxrss``, with ``--workers > 1``
  also the largest worker's, RUSAGE_CHILDREN);
* pass 2 (unless ``--no-tracemalloc``; same games into another folder): the peak of
  Python allocations during the run (``tracemalloc``), which does not count the
  interpreter and imported modules, so it is the figure that must stay flat as N grows.

Writes ``benchmarks/results/cohort.json`` (``--quick``: ``cohort_quick.json``) with every
figure, the settings and ``machine_info()``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import machine_info, write_result

POLICIES = ("scripted:oracle", "scripted:linear", "scripted:greedy")


def cohort_config(n: int, seed: int = 0) -> dict:
    return {
        "name": f"cohort-benchmark-n{n}", "seed": seed,
        "games": [{
            "game": "resource", "policies": list(POLICIES), "pairings": "all", "games_per_cell": n,
            "swap_first_speaker": True, "config": {"num_rounds": 4, "cheap_talk_turns": 5},
            "scenario_sets": {"mc0.5": ["mc050_*"], "mc0.8": ["mc080_*"], "mc1.0": ["mc100_*"]},
            "factors": {"stability": {"stable": {"partner": "stable"}, "shifting": {"partner": "shifting"}},
                        "rotation": {"fixed": {"rotation": "fixed"}, "rotating": {"rotation": "rotating"}}},
        }],
    }


def _maxrss_mib(who: int) -> float:
    kib = resource.getrusage(who).ru_maxrss  # KiB on Linux
    return kib / 1024


def child(n: int, workers: int, trace_memory: bool) -> dict:
    from negotiation_env.runner import run

    cfg = cohort_config(n)
    out: dict = {"games_per_cell": n, "workers": workers}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        s = run(cfg, Path(tmp) / "timed", workers=workers)
        wall = time.perf_counter() - t0
        steps = sum(c.steps for c in s.cells.values())
        size = (Path(tmp) / "timed" / "traces.jsonl").stat().st_size
        out.update(games=s.played, errors=s.errors, wall_s=wall, games_per_s=s.played / wall, steps=steps,
                   steps_per_s=steps / wall, trace_bytes=size, trace_bytes_per_game=size / max(1, s.played),
                   maxrss_mib=_maxrss_mib(resource.RUSAGE_SELF),
                   maxrss_children_mib=_maxrss_mib(resource.RUSAGE_CHILDREN) if workers > 1 else None,
                   efficiency=sum(c._eff[0] for c in s.cells.values()) / max(1, sum(c._eff[1] for c in s.cells.values())))
        if trace_memory:
            tracemalloc.start()
            t0 = time.perf_counter()
            run(cfg, Path(tmp) / "traced", workers=1)
            out["tracemalloc_wall_s"] = time.perf_counter() - t0
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            out["tracemalloc_peak_mib"] = peak / 2**20
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", default="2,10", help="games per cell, comma-separated (default 2,10)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--no-tracemalloc", action="store_true", help="skip the tracemalloc pass")
    p.add_argument("--quick", action="store_true", help="N = 1,2 and no tracemalloc pass (smoke run)")
    p.add_argument("--out", default=None, help="result JSON (default benchmarks/results/cohort.json)")
    p.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    trace_memory = not (args.no_tracemalloc or args.quick)
    if args.child is not None:
        sys.stdout.write(json.dumps(child(args.child, args.workers, trace_memory)) + "\n")
        return 0
    sizes = [1, 2] if args.quick else [int(x) for x in args.games.split(",")]
    results = []
    for n in sizes:
        cmd = [sys.executable, __file__, "--child", str(n), "--workers", str(args.workers)]
        if not trace_memory:
            cmd.append("--no-tracemalloc")
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            return 1
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    head = f"{'N':>3} {'games':>6} {'wall s':>8} {'games/s':>8} {'steps/s':>9} {'KiB/game':>9} {'maxrss MiB':>11} " \
           f"{'traced peak MiB':>16} {'errors':>6}"
    print(head)
    for r in results:
        peak = f"{r['tracemalloc_peak_mib']:.1f}" if "tracemalloc_peak_mib" in r else "-"
        print(f"{r['games_per_cell']:>3} {r['games']:>6} {r['wall_s']:>8.2f} {r['games_per_s']:>8.1f} "
              f"{r['steps_per_s']:>9.0f} {r['trace_bytes_per_game'] / 1024:>9.1f} {r['maxrss_mib']:>11.1f} "
              f"{peak:>16} {r['errors']:>6}")
    default = "cohort_quick.json" if args.quick else "cohort.json"
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default
    write_result(out, {"benchmark": "cohort", "policies": list(POLICIES), "shape": "3 M/C x 2 stability x 2 rotation "
                       "x N games x 6 pairings, 4 rounds", "results": results, "machine": machine_info()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
