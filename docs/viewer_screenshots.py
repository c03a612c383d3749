"""Regenerate the viewer screenshots of docs/viewer.md (headless Chromium required).

    python docs/viewer_screenshots.py            # writes docs/img/viewer_list_summary.png,
                                                 # docs/img/viewer_search.png and
                                                 # docs/img/viewer_leaderboard.png
    python docs/viewer_screenshots.py --only leaderboard    # one of them

Plays a small scripted run with the runner (a resource cohort under ``swap_seats``, so
each pairing is seen in both seatings, a matrix cross-play and two rulemaking runs; a few
seconds), writes its viewer, and captures the page as it opens (game list and run
summary), with a search typed into the box, and on its leaderboard tab with the resource
board sorted by a header click and one policy's link followed (the list filtered to its
games). The browser driver is the one the viewer
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
#: the policy whose games the leaderboard screenshot lists
POLICY = "scripted:oracle"
#: the screenshots, by name
SHOTS = ("list_summary", "search", "leaderboard")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNG files")
    ap.add_argument("--only", choices=SHOTS, action="append", default=None,
                    help="write only this screenshot (repeatable; default all)")
    args = ap.parse_args(argv)
    only = set(args.only or SHOTS)
    if chromium_path() is None:
        print("chromium not found (apt-get install -y chromium, or set CHROMIUM)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "viewer-screenshot"
        run(CONFIG, folder, preflight=False)
        page, n = view_run(folder)
        written = []
        with Browser(width=1600, height=900) as b:
            b.open(page.as_uri())
            b.wait_for("document.getElementById('summary') !== null")
            if "list_summary" in only:
                written.append(b.screenshot(args.out / "viewer_list_summary.png"))
            if "search" in only:
                b.type("#search", QUERY)
                b.wait_for("document.getElementById('search-count').textContent !== ''")
                written.append(b.screenshot(args.out / "viewer_search.png"))
                b.eval("var s=document.getElementById('search'); s.value=''; s.dispatchEvent(new Event('input')); 1")
            if "leaderboard" in only:
                b.click('a.tab[data-tab="leaderboard"]')
                b.wait_for("document.body.dataset.tab === 'leaderboard'")
                b.click('#board .lgame[data-game=resource] th[data-col="4"]')  # sort by games
                b.click('#board .lgame[data-game=resource] th[data-col="2"]')  # then by Elo, highest first
                b.click(f'#board .lgame[data-game=resource] a.policy[title="list the games of {POLICY}"]')
                b.wait_for("document.getElementById('f-policy').value !== ''")
                written.append(b.screenshot(args.out / "viewer_leaderboard.png"))
    print(f"{n} games; wrote " + ", ".join(map(str, written)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
