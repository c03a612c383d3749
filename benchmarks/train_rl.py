"""The RL experiments' figures on the record: :func:`negotiation_env.train.rl.run` with
the curves, the machine and the package versions written to ``benchmarks/results/``.

Run from the repository root (the ``rl`` extra: Tianshou, matplotlib):

    python -m benchmarks.train_rl                         # every experiment, defaults (minutes on 2 cores)
    python -m benchmarks.train_rl resource-vs-oracle      # one (or several) of them
    python -m benchmarks.train_rl --quick                 # smoke run (seconds): the shapes, not the figures
    python -m benchmarks.train_rl --seed 1 --set resource.num_rounds=6   # another seed, a game config override

The experiments, learners and references are described in :mod:`negotiation_env.train.rl`
(and on the RL docs page); ``negotiation-env train rl`` runs the same. Output: a table
of learning-curve points and references per experiment, a PNG of the curves with the
references as horizontal lines, and the JSON (default ``benchmarks/results/train_rl.json``
/ ``.png``; ``--quick``: ``train_rl_quick.*``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.machine import ROOT, machine_info, write_result
from negotiation_env.train import rl


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiments", nargs="*", metavar="EXPERIMENT",
                    help=f"any of {', '.join(rl.EXPERIMENTS)} (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-episodes", type=int, default=None, help="test games per curve point (default 10; quick 2)")
    ap.add_argument("--quick", action="store_true", help="smoke run: a few steps of each")
    ap.add_argument("--out", default=None, help="JSON path (the PNG goes beside it)")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--stop-after", type=int, default=None, metavar="EPOCH",
                    help="end each online experiment after this epoch of its full schedule: the first EPOCH + 1 "
                         "points of the full curve, in a fraction of the time")
    ap.add_argument("--set", action="append", default=[], metavar="GAME.FIELD=VALUE",
                    help="override a game's config, e.g. resource.rotation=rotating (VALUE read as JSON, else text)")
    args = ap.parse_args(argv)
    overrides: dict[str, dict[str, Any]] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        game, dot, fld = key.partition(".")
        if not sep or not dot:
            ap.error(f"--set takes GAME.FIELD=VALUE; got {item!r}")
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        overrides.setdefault(game, {})[fld] = parsed
    unknown = [x for x in args.experiments if x not in rl.EXPERIMENTS + ("all",)]
    if unknown:
        ap.error(f"unknown experiment(s) {', '.join(unknown)}; choose from {', '.join(rl.EXPERIMENTS)} or all")
    names = rl.EXPERIMENTS if not args.experiments or "all" in args.experiments \
        else tuple(dict.fromkeys(args.experiments))
    try:
        config = rl.RLRunConfig(experiments=names, seed=args.seed, quick=args.quick, eval_episodes=args.eval_episodes,
                                stop_after=args.stop_after, overrides=overrides)
    except ValueError as e:
        ap.error(str(e))
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / (
        "train_rl_quick.json" if args.quick else "train_rl.json")
    t0 = time.perf_counter()
    results = rl.run(config, log=print)
    for res in results:
        print(rl.format_result(res))
    elapsed = time.perf_counter() - t0
    print(f"\ntotal {elapsed:.1f} s")
    write_result(out, {"benchmark": "train_rl", "seed": args.seed, "quick": args.quick, "seconds": round(elapsed, 1),
                       "command": "python -m benchmarks.train_rl " + " ".join(argv if argv is not None else sys.argv[1:]),
                       "overrides": overrides,
                       "results": results, "machine": machine_info(rl.PACKAGES)})
    if not args.no_plot and results:
        print(f"wrote {rl.plot(results, out.with_suffix('.png'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
