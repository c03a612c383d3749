"""Regenerate the screenshots of docs/serve.md (headless Chromium required).

    python docs/serve_screenshots.py     # writes docs/img/serve_resource_turn.png, serve_study_consent.png,
                                         # serve_resource_over.png, serve_matrix_choice.png

Runs the browser tests of the served pages (``tests/serve/test_browser.py``: a resource
game won by clicking against scripted:oracle, a matrix game between two browser
contexts) with ``SERVE_SCREENSHOTS`` pointing at the output folder, so the pictures are
the pages those tests check.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNG files")
    args = ap.parse_args(argv)
    env = {**os.environ, "SERVE_SCREENSHOTS": str(args.out.resolve()),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "serve" / "test_browser.py")], cwd=ROOT, env=env)
    if done.returncode == 0:
        print(f"wrote {', '.join(sorted(p.name for p in args.out.glob('serve_*.png')))} to {args.out}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
