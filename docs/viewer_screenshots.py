"""Regenerate the viewer screenshots of docs/viewer.md (headless Chromium required).

    python docs/viewer_screenshots.py            # writes docs/img/viewer_list_summary.png
                                                 # and docs/img/viewer_search.png

Plays a small scripted run with the runner (a resource cohort under ``swap_seats``, so
each pairing is seen in both seatings, a matrix cross-play and two rulemaking runs; a few
seconds), writes its viewer, and captures the page as it opens (game list and run
summary) and with a search typed into the box. The browser driver is the one the viewer
tests use (``tests/analysis/browser.py``: Chromium over its DevTools pipe).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from negotiation_env.analysis.viewer import view_run  # noqa: E402
from negotiation_env.runner import run  # noqa: E402
from tests.analysis.browser import Browser, chromium_path  # noqa: E402

CONFIG = {
    "name": "viewer-screenshot", "seed": 0,
    "games": [
        {"game": "resource", "policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"],
         "pairings": "cross", "games_per_cell": 2, "swap_seats": True, "config": {"num_rounds": 2},
         "scenario_sets": {"mc0.8": ["mc080_1"]},
         "factors": {"stability": {"stable": {"partner": "stable"}, "shifting": {"partner": "shifting"}}}},
        {"game": "matrix", "policies": ["scripted:tit_for_tat", "scripted:always_b", "scripted:wsls"],
         "pairings": "cross", "games_per_cell": 1, "config": {"num_rounds": 6, "treatment": "communication"}},
        {"game": "rulemaking", "policies": ["scripted:conceder", "scripted:hardliner"], "pairings": "self",
         "games_per_cell": 1, "config": {"environment": "E1", "max_turns": 10}},
    ],
}

#: what the search screenshot types into the box
QUERY = "joint optimum"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNG files")
    args = ap.parse_args(argv)
    if chromium_path() is None:
        print("chromium not found (apt-get install -y chromium, or set CHROMIUM)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "viewer-screenshot"
        run(CONFIG, folder, preflight=False)
        page, n = view_run(folder)
        with Browser(width=1600, height=900) as b:
            b.open(page.as_uri())
            b.wait_for("document.getElementById('summary') !== null")
            first = b.screenshot(args.out / "viewer_list_summary.png")
            b.type("#search", QUERY)
            b.wait_for("document.getElementById('search-count').textContent !== ''")
            second = b.screenshot(args.out / "viewer_search.png")
            found = b.eval("document.getElementById('search-count').textContent")
    print(f"{n} games; wrote {first} and {second} (search: {found})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
