"""Draw the run summary of the default cohort as an 80-column terminal shows it, into
``docs/img/run_summary_80.svg`` (the picture on docs/runner.md).

    python docs/make_summary_screenshot.py [--out docs/img/run_summary_80.svg] [--games-per-cell 10]

It plays the built-in cohort (``negotiation-env run`` without a config: three scripted
policies, 72 cells) into a temporary folder and prints its summary with the CLI's own
printer on a recording console 80 columns wide, which rich saves as SVG."""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from rich.console import Console

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from negotiation_env.runner import run  # noqa: E402
from negotiation_env.runner.commands import print_summary  # noqa: E402
from negotiation_env.runner.config import load_config  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "img" / "run_summary_80.svg"))
    p.add_argument("--games-per-cell", type=int, default=None,
                   help="games per cell (default: the cohort's own, 10)")
    p.add_argument("--width", type=int, default=80, help="terminal width in columns (default 80)")
    args = p.parse_args(argv)
    config = load_config(None).model_dump()
    if args.games_per_cell is not None:
        config["games"][0]["games_per_cell"] = args.games_per_cell
    with tempfile.TemporaryDirectory() as tmp:
        summary = run(config, Path(tmp) / "run")
        summary.out_dir = Path("runs/default")  # the folder the docs' command names, not the temporary one
        console = Console(record=True, width=args.width, force_terminal=True, file=io.StringIO())
        print_summary(summary, console, "table")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    console.save_svg(args.out, title="negotiation-env run --out runs/default")
    print(f"wrote {args.out} ({summary.planned} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
