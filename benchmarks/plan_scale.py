"""How long a plan near the 1,000,000-game limit takes to check and start.

Writes a run config that expands to 899,856 games (the default config's shape: 4
conditions x 3 scenario sets x 6 lineups of three scripted policies, 12,498 games per
cell) and times, each in a fresh process: ``make_plan`` (validate and count), reading the
whole plan once (every game's key and seeds, as a run's start does), and
``negotiation-env run --plan`` (plan, per-cell table, policy checks). It checks the
plan's first and last game keys and its length, so the figures are for the same plan.

    python -m benchmarks.plan_scale            # the 899,856-game plan
    python -m benchmarks.plan_scale --per-cell 100   # a small one
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = """name = "plan-scale"
seed = 0

[[games]]
game = "resource"
policies = ["scripted:oracle", "scripted:linear", "scripted:greedy"]
pairings = "all"
games_per_cell = {per_cell}
swap_seats = true
config = {{ num_rounds = 4, cheap_talk_turns = 5, theme = "random" }}

[games.scenario_sets]
"mc0.5" = ["mc050_*"]
"mc0.8" = ["mc080_*"]
"mc1.0" = ["mc100_*"]

[games.factors.stability]
stable = {{ partner = "stable" }}
shifting = {{ partner = "shifting" }}

[games.factors.rotation]
fixed = {{ rotation = "fixed" }}
rotating = {{ rotation = "rotating" }}
"""

PLAN = """
import sys, time
from negotiation_env.runner import load_config, make_plan
t = time.perf_counter()
plan = make_plan(load_config(sys.argv[1]))
built = time.perf_counter() - t
t = time.perf_counter()
n = sum(1 for s in plan.specs if s.env_seed >= 0 and s.policy_seeds)
read = time.perf_counter() - t
print(len(plan), n, plan.specs[0].key, plan.specs[len(plan) - 1].key, f"{built:.2f}", f"{read:.2f}")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-cell", type=int, default=12_498, help="games per cell (72 cells)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        cfg = Path(d) / "plan.toml"
        cfg.write_text(CONFIG.format(per_cell=args.per_cell), encoding="utf-8")
        out = subprocess.run([sys.executable, "-c", PLAN, str(cfg)], capture_output=True, text=True, check=True,
                             cwd=ROOT).stdout.split()
        games, read_n, first, last, built, read = out
        print(f"games {int(games):,}; first {first}; last {last}")
        print(f"make_plan (check and count): {built} s")
        print(f"every game's key and seeds read once: {read} s ({int(read_n):,} games)")
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "negotiation_env.cli", "run", str(cfg), "--plan"],
                           capture_output=True, text=True, cwd=ROOT)
        took = time.perf_counter() - t
        head = r.stdout.splitlines()[0] if r.stdout else r.stderr.strip()[-200:]
        print(f"negotiation-env run --plan: {took:.2f} s (exit {r.returncode}): {head}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
