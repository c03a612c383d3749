"""The PettingZoo versions the package claims to support, each checked by the test suite.

    python -m benchmarks.pettingzoo_range [--versions 1.24.3 1.25.0 1.26.0 1.27.0]
                                          [--tests tests/core tests/test_check_game.py tests/wrappers]
                                          [--json pettingzoo_range.json]

For each version, ``pip install --no-deps --target DIR pettingzoo==VERSION`` (from the
index pip is configured with; nothing else is installed), then the given test files run
in a fresh interpreter with ``PYTHONPATH=DIR:REPO``, so that version shadows the one
installed in the environment while every other dependency stays as it is. Prints one
row per version (tests passed and failed, exit status, seconds, the first failures) and
writes the rows as JSON. The normal test suite never downloads anything; this script is
the way to re-check the range in ``pyproject.toml`` (``pettingzoo>=...,<2``) by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ("1.24.3", "1.25.0", "1.26.0", "1.27.0")
TESTS = ("tests/core", "tests/test_check_game.py", "tests/wrappers")
#: left out of the default run: they train models (minutes each) and test no PettingZoo API
DESELECT = "not train_rl and not rl_libraries"


def install(version: str, where: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(where),
                    f"pettingzoo=={version}"], check=True)


def run_tests(where: Path, tests: list[str], deselect: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(where), str(ROOT)]))
    code = "import pettingzoo, sys; sys.stdout.write(pettingzoo.__version__)"
    loaded = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", *tests,
                          "-k", deselect], env=env, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    out = res.stdout
    failed = re.findall(r"^FAILED (\S+)", out, re.M)
    passed = sum(line.count(".") for line in out.splitlines() if re.fullmatch(r"[.FsxE]+\s*(\[\s*\d+%\])?", line))
    return {"loaded": loaded.stdout.strip() or loaded.stderr.strip()[-200:], "returncode": res.returncode,
            "passed": passed, "failed": len(failed), "failures": failed, "seconds": round(seconds, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--versions", nargs="+", default=list(VERSIONS))
    ap.add_argument("--tests", nargs="+", default=list(TESTS))
    ap.add_argument("--deselect", default=DESELECT, help="pytest -k expression (default: %(default)r)")
    ap.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="pz-range-") as tmp:
        for version in args.versions:
            where = Path(tmp) / version
            install(version, where)
            row = {"version": version, **run_tests(where, args.tests, args.deselect)}
            rows.append(row)
            print(f"pettingzoo {version:8} (loaded {row['loaded']}): {row['passed']} passed, {row['failed']} failed, "
                  f"exit {row['returncode']}, {row['seconds']:.0f} s", flush=True)
            for name in row["failures"][:5]:
                print(f"    {name}")
    if args.json is not None:
        args.json.write_text(json.dumps({"tests": args.tests, "deselect": args.deselect, "rows": rows}, indent=2))
    return 0 if all(r["returncode"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
