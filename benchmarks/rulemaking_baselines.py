"""The scripted rulemaking baselines of seed 001 §7: each policy as a homogeneous
population, 15 seeded runs per environment, outcome counts beside the paper's.

Run from the repository root:

    python benchmarks/rulemaking_baselines.py                 # E1, E2, E3, 15 runs each
    python benchmarks/rulemaking_baselines.py --runs 45 --environments E1

Every run is ``negotiation_env.parallel_env(game="rulemaking", environment=E,
condition=...)`` reset with ``seed * 100_000 + k`` (k = run index), each of the five seats
played by a fresh policy seeded ``SeedSequence([seed, k, seat])``; ``mixed`` draws each
seat's policy per run from ``RulemakingMix`` (roster: conceder, noisy_conceder,
satisficer, reciprocator) with the same seed. Only numpy Generators are used.

Reported per (environment, policy), by ``negotiation_env.analysis.rulemaking_metrics
.cell_summary``: counts of compromise / consensus / authority / deadlock, agreements
(compromise + consensus) beside the paper's E1 figure with the Wilson 95% interval, the
plausibility-screen verdict, mean normalised move entropy, the share of runs with any
softening move (Support or Concede) and trajectory uniqueness (distinct move sequences /
runs). With ``hardliner`` among the policies, every other policy is compared with it
per environment (one-sided Fisher on agreements and a permutation test on run entropy,
Holm-adjusted; Cliff's delta), in the markdown file. JSON goes to ``benchmarks/results/rulemaking_baselines.json``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import negotiation_env  # noqa: E402
from baselines.scripted.rulemaking import RULEMAKING_POLICIES, RulemakingMix, make_rulemaking  # noqa: E402
from machine import machine_info, write_result  # noqa: E402
from negotiation_env.analysis.rulemaking_metrics import cell_summary, compare_to_baseline  # noqa: E402
from negotiation_env.games.rulemaking.classifier import OUTCOMES  # noqa: E402

#: seed 001 §7, E1, agreements out of 15
PAPER_E1 = {"conceder": 14, "noisy_conceder": 13, "mixed": 13, "satisficer": 7, "hardliner": 0, "reciprocator": 0}
POLICY_ORDER = ("conceder", "noisy_conceder", "mixed", "satisficer", "hardliner", "reciprocator")


def play_run(environment: str, policy: str, k: int, seed: int, condition: str = "none") -> dict[str, Any]:
    """One seeded run; returns the game's outcome dict plus any-softening."""
    env = negotiation_env.parallel_env(game="rulemaking", environment=environment, condition=condition)
    obs, _ = env.reset(seed=seed * 100_000 + k)
    seats = env.possible_agents
    if policy == "mixed":
        pols = RulemakingMix(seed=seed).draw(seats, k)
    else:
        ss = [np.random.SeedSequence([seed, k, i]).generate_state(1)[0] for i in range(len(seats))]
        pols = {s: make_rulemaking(policy, seed=int(x)) for s, x in zip(seats, ss)}
    info: dict[str, Any] = {}
    while env.agents:
        obs, _, _, _, info = env.step({a: pols[a].act(obs[a]) for a in env.agents})
    out = dict(info[seats[0]]["outcome"])
    out["softening"] = bool(set(out["trajectory"]) & {"Support", "Concede"})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--environments", default="E1,E2,E3")
    ap.add_argument("--policies", default=",".join(POLICY_ORDER))
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--condition", default="none")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rulemaking_baselines.json"))
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    envs = [e.strip() for e in args.environments.split(",") if e.strip()]
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    bad = [p for p in policies if p != "mixed" and p not in RULEMAKING_POLICIES]
    if bad or args.runs < 1:
        ap.error(f"unknown policies {bad} (available: {', '.join(POLICY_ORDER)})" if bad else "--runs must be >= 1")

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    console = Console()
    if console.width < 130:  # keep the table readable when piped or in a narrow terminal
        console = Console(width=130)
    results: dict[str, dict[str, Any]] = {}
    runs: dict[str, list[dict[str, Any]]] = {}
    t0 = time.perf_counter()
    with Progress(console=console, disable=args.no_progress, transient=True) as prog:
        task = prog.add_task("runs", total=len(envs) * len(policies) * args.runs)
        for e in envs:
            for p in policies:
                outs = []
                for k in range(args.runs):
                    outs.append(play_run(e, p, k, args.seed, args.condition))
                    prog.advance(task)
                runs[f"{e}/{p}"] = outs
                results[f"{e}/{p}"] = cell_summary(outs, rng=args.seed)
    wall = time.perf_counter() - t0

    table = Table(title=f"Scripted rulemaking baselines: {args.runs} runs per cell, condition {args.condition}")
    for col in ("env", "policy", "compromise", "consensus", "authority", "deadlock", "agree", "Wilson 95%",
                "paper E1", "screen", "entropy", "softening", "unique"):
        table.add_column(col)
    for e in envs:
        for p in policies:
            r = results[f"{e}/{p}"]
            c = r["counts"]
            paper = f"{PAPER_E1[p]}/15" if e == "E1" and p in PAPER_E1 else ""
            table.add_row(e, p, *(str(c[k]) for k in OUTCOMES), f"{r['agreements']}/{r['runs']}",
                          f"[{r['agreement_ci'][0]:.2f}, {r['agreement_ci'][1]:.2f}]", paper, r["verdict"],
                          f"{r['entropy_mean']:.2f}", f"{r['softening_rate']:.2f}", f"{r['trajectory_uniqueness']:.2f}")
    console.print(table)
    console.print(f"{len(envs) * len(policies) * args.runs} runs in {wall:.1f} s")
    md = ["| env | policy | compromise | consensus | authority | deadlock | agreements | Wilson 95% | paper (E1) | screen |"
          " entropy | softening | unique |", "|" + " --- |" * 13]
    for e in envs:
        for p in policies:
            r = results[f"{e}/{p}"]
            c = r["counts"]
            paper = f"{PAPER_E1[p]}/15" if e == "E1" and p in PAPER_E1 else ""
            md.append(f"| {e} | {p} | " + " | ".join(str(c[k]) for k in OUTCOMES) + f" | {r['agreements']}/{r['runs']} | "
                      f"[{r['agreement_ci'][0]:.2f}, {r['agreement_ci'][1]:.2f}] | {paper} | {r['verdict']} | "
                      f"{r['entropy_mean']:.2f} | {r['softening_rate']:.2f} | {r['trajectory_uniqueness']:.2f} |")
    comparisons = {}
    if "hardliner" in policies and len(policies) > 1:
        for e in envs:
            comparisons[e] = compare_to_baseline({p: runs[f"{e}/{p}"] for p in policies}, "hardliner", rng=args.seed)
        md += ["", "| env | policy vs hardliner | Fisher one-sided p (Holm) | entropy permutation p (Holm) | Cliff's delta |",
               "| --- | --- | --- | --- | --- |"]
        for e, comp in comparisons.items():
            for p, c in comp.items():
                md.append(f"| {e} | {p} | {c['fisher_p_holm']:.2g} | {c['entropy_permutation_p_holm']:.2g} | "
                          f"{c['entropy_cliffs_delta']:+.2f} |")
    Path(args.out).with_suffix(".md").parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    write_result(Path(args.out), {"settings": vars(args), "results": results, "comparisons": comparisons, "paper_e1": PAPER_E1, "wall_s": wall,
                            "machine": machine_info()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
