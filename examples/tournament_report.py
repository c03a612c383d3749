"""A scripted tournament and its report: the library form of `negotiation-env run` then
`negotiation-env report`.

A run config (here a dict; a TOML or YAML file holds the same) lists policies per game;
the runner plays every pairing, appends one trace per game to DIR/traces.jsonl, and the
report turns those traces into the papers' tables (markdown and CSV under DIR/report).

    python examples/tournament_report.py [--out runs/example] [--games-per-cell 2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from negotiation_env.analysis.report import report_run
from negotiation_env.runner.engine import run


def config(games_per_cell: int) -> dict:
    return {
        "name": "example-tournament",
        "seed": 0,  # the whole cohort is reproducible from this seed
        "games": [
            {"game": "resource", "policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"],
             "pairings": "all", "games_per_cell": games_per_cell, "config": {"num_rounds": 2, "theme": None}},
            {"game": "matrix", "policies": ["scripted:tit_for_tat", "scripted:always_b", "scripted:wsls"],
             "pairings": "all", "games_per_cell": games_per_cell, "config": {"num_rounds": 5},
             # a factor crosses the block with conditions: each pairing plays with and without talk
             "factors": {"treatment": {"talk": {"treatment": "communication"}, "no_talk": {"treatment": "none"}}}},
        ],
    }


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="runs/example", help="run folder (traces.jsonl, run.json, report/)")
    parser.add_argument("--games-per-cell", type=int, default=2)
    args = parser.parse_args(argv)
    out = Path(args.out)
    # resume=True: a second call finishes or reuses the same run instead of refusing the folder
    summary = run(config(args.games_per_cell), out, resume=True)
    print(f"run {summary.run_id}: {summary.played} games played now, {summary.games} of {summary.planned} "
          f"planned in {out / 'traces.jsonl'}; errors {summary.errors}; complete: {summary.complete}")
    report = report_run(out, plots=False)  # plots=True draws figures too (the 'report' extra)
    print(f"report: {len(report.tables)} tables in {out / 'report'}; games read: {report.games}")
    for note in report.notes:  # what the report left out, and why
        print("note:", note)
    for name in ("resource_summary", "matrix_table1"):
        print()
        print(report.table(name).markdown())
    return summary, report


if __name__ == "__main__":
    main()
