"""Scenario-generation benchmark: seconds to produce one accepted scenario per M/C level.

Run from the repository root:

    python -m benchmarks.scenario_generation              # 10 seeds per level
    python -m benchmarks.scenario_generation --seeds 30   # more seeds
    python -m benchmarks.scenario_generation --quick      # 3 seeds per level, a few seconds

For each level (0.5, 0.8, 1.0 by default; ``--levels``) and each seed 0 .. seeds-1, one
call of ``generate_with_stats(level, seed)`` with the defaults (Appendix C environment,
three projects per agent, tolerance 0.05) is timed with ``time.perf_counter``; the time
includes the final re-verification by the exact solver. Reported per level: median,
90th percentile and max seconds, the median number of annealing moves and restarts, and
microseconds per move. Every accepted scenario is checked once more here with ``verify``.

Writes a JSON file with every per-seed figure and the machine's description
(default ``benchmarks/results/scenario_generation.json``; ``--quick`` writes
``scenario_generation_quick.json`` unless ``--out`` is given).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import machine_info, write_result
from negotiation_env.games.resource.generator import generate_with_stats, verify

RESULTS = ROOT / "benchmarks" / "results"
DEFAULT_OUT = RESULTS / "scenario_generation.json"
QUICK_OUT = RESULTS / "scenario_generation_quick.json"


def quantile(values: list[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default method)."""
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def bench_level(level: float, seeds: list[int], tolerance: float) -> dict[str, Any]:
    runs = []
    for seed in seeds:
        t = time.perf_counter()
        res = generate_with_stats(level, seed, tolerance=tolerance)
        seconds = time.perf_counter() - t
        _, problems = verify(res.scenario, level, tolerance)
        if problems:  # pragma: no cover - generate_with_stats verifies already
            raise SystemExit(f"seed {seed} at level {level}: {problems}")
        runs.append({
            "seed": seed,
            "seconds": seconds,
            "iterations": res.iterations,
            "restarts": res.restarts,
            "rejected": res.rejected,
            "ratio": res.solution.ratio,
            "V": res.solution.individual_max["agent_a"],
            "M": res.solution.joint_max,
            "n_joint_optima": res.solution.n_joint_optima,
        })
    secs = [r["seconds"] for r in runs]
    its = [r["iterations"] for r in runs]
    return {
        "level": level,
        "n": len(runs),
        "median_s": statistics.median(secs),
        "p90_s": quantile(secs, 0.9),
        "max_s": max(secs),
        "mean_s": statistics.fmean(secs),
        "median_iterations": statistics.median(its),
        "median_restarts": statistics.median(r["restarts"] for r in runs),
        "us_per_move": 1e6 * sum(secs) / sum(its),
        "runs": runs,
    }


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=10, help="seeds per level, 0 .. N-1 (default 10)")
    p.add_argument("--levels", type=float, nargs="+", default=[0.5, 0.8, 1.0], help="M/C levels (default 0.5 0.8 1.0)")
    p.add_argument("--tolerance", type=float, default=0.05, help="allowed |M/C - level| (default 0.05)")
    p.add_argument("--out", type=Path, default=None,
                   help=f"JSON output (default {DEFAULT_OUT.relative_to(ROOT)}; with --quick {QUICK_OUT.name})")
    p.add_argument("--quick", action="store_true", help="3 seeds per level (overrides --seeds)")
    args = p.parse_args(argv)
    if args.quick:
        args.seeds = 3
    if args.seeds < 1:
        p.error("--seeds must be >= 1")
    if args.tolerance <= 0:
        p.error("--tolerance must be > 0")
    for lv in args.levels:
        if not 0 < lv <= 1 or lv + args.tolerance < 0.5:
            p.error(f"--levels: {lv:g} is not a reachable M/C level (need 0.5 - tolerance <= level <= 1)")
    args.out = args.out or (QUICK_OUT if args.quick else DEFAULT_OUT)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    info = machine_info()
    t0 = time.perf_counter()
    levels = []
    for lv in args.levels:
        print(f"level {lv:g}: {args.seeds} seeds ...", file=sys.stderr, flush=True)
        levels.append(bench_level(lv, list(range(args.seeds)), args.tolerance))
    info["loadavg_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    wall = time.perf_counter() - t0

    header = ["M/C level", "seeds", "median s", "p90 s", "max s", "median moves", "median restarts", "us/move"]
    rows = [[f"{r['level']:.2f}", str(r["n"]), f"{r['median_s']:.3f}", f"{r['p90_s']:.3f}", f"{r['max_s']:.3f}",
             f"{r['median_iterations']:g}", f"{r['median_restarts']:g}", f"{r['us_per_move']:.0f}"] for r in levels]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("Seconds to one accepted scenario (Appendix C environment, 3 projects per agent, "
          f"tolerance {args.tolerance:g})")
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths))))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print(f"wall time {wall:.1f} s · python {info['python']} · {info['cpu_count']} CPUs ({info['processor']})")

    result = {
        "benchmark": "scenario_generation",
        "created_unix": time.time(),
        "wall_s": wall,
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "machine": info,
        "levels": levels,
        "notes": {
            "seconds": "wall time of one generate_with_stats(level, seed) call with default arguments, "
                       "including the final solve() re-verification; single process, single thread",
            "us_per_move": "total seconds / total annealing moves over the level's seeds",
        },
    }
    write_result(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
