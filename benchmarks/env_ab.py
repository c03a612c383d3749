"""Interleaved A/B of the env rows of ``env_throughput.py``: a git commit against the
working tree, in one process.

Run from the repository root:

    python -m benchmarks.env_ab                       # HEAD against the working tree
    python -m benchmarks.env_ab --base 136cc52 --rows matrix,resource --reps 9
    python -m benchmarks.env_ab --quick               # smoke run

Two runs of ``env_throughput.py`` on a shared 2-core VM differ by 5% or more, which hides
the effect of most single changes. Here the package at ``--base`` is exported with
``git archive`` into a temporary folder and imported under another name
(``negotiation_env_base``: every ``negotiation_env`` in its sources renamed), beside the
working tree's ``negotiation_env``; each repetition plays ``--games`` games of every row
on both, alternating, and a row's figure is the median over repetitions of the per-
repetition ratio new/base of the env time per step (``env.step`` + ``env.last()``, the
policy excluded, the same loop and trivial policies as ``env_throughput.py``). A ratio
below 1 means the working tree is faster. The ratios' range is printed too: a change
whose range straddles 1 by a few percent is noise.

Rows: ``resource``, ``matrix``, ``rulemaking``, ``dond`` (AEC, default configs; a base without
the game has n/a in its columns) and ``numeric``
(the numeric view over the matrix AEC env).

Each repetition also plays PettingZoo's classic references the same way (``tictactoe_v3``
for resource, rulemaking and dond, ``rps_v2`` for matrix and numeric: AEC, as shipped with their
wrappers, seeded random legal actions, as in ``env_throughput.py``), and the columns
``base/ref`` and ``new/ref`` give the median over repetitions of each tree's per-
repetition ratio to its row's reference.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]

from benchmarks import env_throughput as B

ROWS = ("resource", "matrix", "rulemaking", "dond", "numeric")
#: the PettingZoo classic env each row is compared with
REFERENCE = {"resource": "tictactoe_v3", "rulemaking": "tictactoe_v3", "dond": "tictactoe_v3", "matrix": "rps_v2",
             "numeric": "rps_v2"}
BASE_NAME = "negotiation_env_base"


def export_base(commit: str, into: Path) -> str:
    """The package at ``commit`` under ``into/negotiation_env_base``; returns the commit's
    full hash. Raises SystemExit with git's message when the commit is unknown."""
    try:
        full = subprocess.run(["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
        archive = subprocess.run(["git", "archive", full, "negotiation_env"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"env_ab: git could not export {commit!r}: {e.stderr.strip() if e.stderr else e}") from None
    tar_path = into / "base.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    pkg = into / BASE_NAME
    (into / "negotiation_env").rename(pkg)
    for f in pkg.rglob("*"):
        if f.is_file() and f.suffix in (".py", ".toml", ".json", ".yaml", ".yml", ".txt", ".md"):
            text = f.read_text(encoding="utf-8")
            if "negotiation_env" in text:
                f.write_text(text.replace("negotiation_env", BASE_NAME), encoding="utf-8")
    return full


def make_row(pkg: Any, row: str) -> tuple[Any, Callable[[int], dict[str, Callable[[Any], Any]]]]:
    if row == "numeric":
        numeric = importlib.import_module(pkg.__name__ + ".wrappers").numeric
        env = numeric(pkg.env(game="matrix"))
        return env, B.masked_first_actors(env)
    env = pkg.env(game=row)
    actors = {"resource": B.resource_trivial_actors, "matrix": B.matrix_trivial_actors,
              "rulemaking": B.rulemaking_trivial_actors, "dond": B.dond_trivial_actors}[row](env)
    return env, actors


def _has_game(pkg: Any, row: str) -> bool:
    """Whether the package ``pkg`` plays the row's game (an older base may not have it)."""
    return row == "numeric" or row in pkg.GAMES


def us_per_step(c: dict[str, float]) -> float:
    return (c["t_step"] + c["t_last"]) / c["step_calls"] * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="HEAD", help="the commit to compare against (default HEAD)")
    ap.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of {', '.join(ROWS)}")
    ap.add_argument("--games", type=int, default=60, help="games per row and tree in each repetition (default 60)")
    ap.add_argument("--reps", type=int, default=9, help="repetitions (default 9)")
    ap.add_argument("--seed", type=int, default=1000, help="env seeds of repetition r start at seed * (r + 1)")
    ap.add_argument("--quick", action="store_true", help="smoke run: 3 games, 2 repetitions")
    args = ap.parse_args(argv)
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in rows if r not in ROWS]
    if unknown or not rows:
        ap.error(f"--rows: unknown {', '.join(unknown) or '(none given)'}; choose from {', '.join(ROWS)}")
    if args.games < 1 or args.reps < 1:
        ap.error("--games and --reps must be at least 1")
    games, reps = (3, 2) if args.quick else (args.games, args.reps)

    tmp = Path(tempfile.mkdtemp(prefix="env_ab_"))
    try:
        full = export_base(args.base, tmp)
        sys.path.insert(0, str(tmp))
        import negotiation_env as new_pkg

        base_pkg = importlib.import_module(BASE_NAME)
        played = [(row, tag, *make_row(pkg, row)) for row in rows for tag, pkg in (("base", base_pkg), ("new", new_pkg))
                  if tag == "new" or _has_game(pkg, row)]
        refs = {"rps_v2": B.rps_v2.env(), "tictactoe_v3": B.tictactoe_v3.env()}
        ref_actors = {"rps_v2": B.rps_actors, "tictactoe_v3": B.tictactoe_actors}
        for ref in sorted({REFERENCE[row] for row in rows}):
            played.append((ref, "ref", refs[ref], ref_actors[ref](refs[ref], args.seed)))
        for _row, _tag, env, actors in played:  # warm-up: imports, first renders
            B.run_aec_games(env, max(1, games // 3), 0, actors)
        figures: dict[tuple[str, str], list[float]] = {(row, tag): [] for row, tag, _e, _a in played}
        for r in range(reps):
            for row, tag, env, actors in played:
                figures[(row, tag)].append(us_per_step(B.run_aec_games(env, games, args.seed * (r + 1), actors)))
            print(f"  repetition {r + 1}/{reps} done", file=sys.stderr)
    finally:
        # the base package leaves the process with its folder
        for name in [m for m in sys.modules if m.split(".")[0] == BASE_NAME]:
            del sys.modules[name]
        if str(tmp) in sys.path:
            sys.path.remove(str(tmp))
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"env A/B: base {full[:12]} ({args.base}) against the working tree; {games} games x {reps} repetitions, "
          "µs per step = env.step + env.last()")
    print(f"{'row':<12} {'base µs':>8} {'new µs':>8} {'new/base':>9} {'min':>6} {'max':>6}   "
          f"{'reference':<13} {'ref µs':>7} {'base/ref':>9} {'new/ref':>8}")
    for row in rows:
        n, ref = figures[(row, "new")], REFERENCE[row]
        r = figures[(ref, "ref")]
        if (row, "base") not in figures:  # the base has no such game
            print(f"{row:<12} {'n/a':>8} {statistics.median(n):8.2f} {'n/a':>9} {'':>6} {'':>6}   {ref:<13} "
                  f"{statistics.median(r):7.2f} {'n/a':>9} {statistics.median(y / z for y, z in zip(n, r)):8.3f}")
            continue
        b = figures[(row, "base")]
        ratios = [y / x for x, y in zip(b, n)]
        base_ref = statistics.median(x / z for x, z in zip(b, r))
        new_ref = statistics.median(y / z for y, z in zip(n, r))
        print(f"{row:<12} {statistics.median(b):8.2f} {statistics.median(n):8.2f} {statistics.median(ratios):9.3f} "
              f"{min(ratios):6.3f} {max(ratios):6.3f}   {ref:<13} {statistics.median(r):7.2f} {base_ref:9.3f} "
              f"{new_ref:8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
