"""Wall time of ``import negotiation_env``: best of N runs, each in a fresh interpreter.

    python -m benchmarks.import_time [--runs 5] [--module negotiation_env] [--top 10]

Bytecode is cached first (one warm-up run writing ``.pyc`` files to a temporary
``PYTHONPYCACHEPREFIX``), as in an installed package, so the figure leaves out compiling
the sources. Then prints the best and median wall time of ``python -c "import MODULE"``
and the ``-X importtime`` entries with the largest cumulative time (of one more run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _env(cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def wall_times(module: str, runs: int, env: dict[str, str]) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=env)
        out.append(time.perf_counter() - t0)
    return out


def importtime_top(module: str, top: int, env: dict[str, str]) -> list[tuple[int, int, str]]:
    """(self us, cumulative us, module) of the ``top`` largest cumulative entries."""
    res = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], check=True, env=env,
                         capture_output=True, text=True)
    rows = []
    for line in res.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cum, name = line[len("import time:"):].split("|")
        rows.append((int(own), int(cum), name.rstrip()))
    return sorted(rows, key=lambda r: -r[1])[:top]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--module", default="negotiation_env")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        wall_times(args.module, 1, env)  # writes the bytecode cache
        times = wall_times(args.module, args.runs, env)
        print(f"import {args.module}: best {min(times):.3f} s, median {statistics.median(times):.3f} s "
              f"of {args.runs} fresh interpreters ({sys.executable})")
        print(f"{'self ms':>8} {'cumul ms':>9}  module")
        for own, cum, name in importtime_top(args.module, args.top, env):
            print(f"{own / 1000:8.1f} {cum / 1000:9.1f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
