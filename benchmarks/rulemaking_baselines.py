"""The scripted rulemaking baselines of seed 001 §7: each policy as a homogeneous
population, 15 runs per cell and tournament seed over 20 seeds, outcome counts beside
the paper's E1 counts with exact binomial intervals.

Run from the repository root:

    python -m benchmarks.rulemaking_baselines                 # E1, E2, E3: 15 runs x 20 seeds per cell
    python -m benchmarks.rulemaking_baselines --seeds 1       # one 15-run cell per policy, as in the paper
    python -m benchmarks.rulemaking_baselines --runs 45 --seeds 4 --environments E1
    python -m benchmarks.rulemaking_baselines --early-end window   # the single-window ending rule

Every run is ``negotiation_env.parallel_env(game="rulemaking", environment=E,
condition=..., early_end=...)`` (the game's defaults otherwise; ``--early-end`` defaults
to the game's ``"agreement"``: a run ends once two parties sustain a concession)
reset with ``seed * 100_000 + k`` (seed = the tournament seed, k = run index), each of
the five seats played by a fresh policy seeded ``SeedSequence([seed, k, seat])``;
``mixed`` draws each seat's policy per run from ``RulemakingMix`` (roster: conceder,
noisy_conceder, satisficer, reciprocator) with the same seed. Only numpy Generators are
used.

Reported per (environment, policy), pooled over the seeds by
``negotiation_env.analysis.rulemaking_metrics.cell_summary``: counts of compromise /
consensus / authority / deadlock, agreements (compromise + consensus) with the Wilson
95% interval, the plausibility-screen verdict of each seed's 15-run cell (the paper's
unit), horizon exhaustion, mean run length, mean normalised move entropy, the share of
runs with any softening move (Support or Concede) and trajectory uniqueness (distinct
move sequences / runs). For E1, each policy beside the paper's count: ours pooled with
its Clopper-Pearson 95% interval, the range of the per-seed 15-run counts, the paper's
k/15 with its interval, the two-sided Fisher exact p of ours against the paper's 15 runs
(``consistent`` when p >= 0.05), and the softening rate beside the paper's where it
gives one (reciprocator 67%, hardliner 0), tested the same way. With ``hardliner`` among
the policies, every other policy is compared with it per environment (one-sided Fisher
on agreements and a permutation test on run entropy, Holm-adjusted; Cliff's delta), in
the markdown file. JSON goes to ``benchmarks/results/rulemaking_baselines.json``, the
tables to the ``.md`` beside it.
"""


from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

import negotiation_env
from baselines.scripted.rulemaking import RULEMAKING_POLICIES, RulemakingMix, make_rulemaking
from benchmarks.machine import machine_info, write_result
from negotiation_env.analysis.rulemaking_metrics import AGREEMENT, cell_summary, compare_to_baseline
from negotiation_env.analysis.stats import clopper_pearson_interval, fisher_one_sided, plausibility_screen
from negotiation_env.games.rulemaking.classifier import EARLY_ENDS, OUTCOMES

#: seed 001 §7, E1, agreements out of 15
PAPER_E1 = {"conceder": 14, "noisy_conceder": 13, "mixed": 13, "satisficer": 7, "hardliner": 0, "reciprocator": 0}
PAPER_RUNS = 15
#: seed 001 §7, runs of 15 with softening (Support or Concede): the reciprocator softens "in
#: 67% of runs" (read as 10 of 15), the hardliner never (one repeated action)
PAPER_SOFTENING_E1 = {"reciprocator": 10, "hardliner": 0}
SCREEN_SHORT = {"pass": "pass", "fail_no_agreement": "fail-none", "fail_agreement_saturated": "fail-all"}
POLICY_ORDER = ("conceder", "noisy_conceder", "mixed", "satisficer", "hardliner", "reciprocator")


def play_run(environment: str, policy: str, k: int, seed: int, condition: str = "none",
             early_end: str = "agreement") -> dict[str, Any]:
    """One seeded run; returns the game's outcome dict plus any-softening."""
    env = negotiation_env.parallel_env(game="rulemaking", environment=environment, condition=condition,
                                       early_end=early_end)
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


def _paper_row(policy: str, outs: list[dict[str, Any]], per_seed: list[int], runs: int) -> dict[str, Any]:
    """Ours (pooled over every seed) beside the paper's E1 count, both with exact
    (Clopper-Pearson) 95% intervals, and the two-sided Fisher exact test of "the same
    agreement rate" on the 2 x 2 table ours vs the paper's 15 runs (it allows for the
    sampling error of both, so a 15-run cell of ours is not judged by its point rate).
    ``consistent``: that p is at least 0.05. The same for softening where the paper gives
    a rate (its 67% read as 10 of 15)."""
    n = len(outs)
    k = sum(o["label"] in AGREEMENT for o in outs)
    paper_k = PAPER_E1[policy]
    soft = sum(bool(o["softening"]) for o in outs)
    p = fisher_one_sided(k, n, paper_k, PAPER_RUNS, alternative="two-sided")
    row = {
        "agreements": k, "runs": n, "rate": k / n, "ci": clopper_pearson_interval(k, n),
        "per_seed": {"runs": runs, "min": min(per_seed), "median": float(np.median(per_seed)), "max": max(per_seed)},
        "paper": paper_k, "paper_runs": PAPER_RUNS, "paper_rate": paper_k / PAPER_RUNS,
        "paper_ci": clopper_pearson_interval(paper_k, PAPER_RUNS), "fisher_p": p, "consistent": p >= 0.05,
        "softening": soft / n, "softening_ci": clopper_pearson_interval(soft, n),
    }
    if policy in PAPER_SOFTENING_E1:
        ps = PAPER_SOFTENING_E1[policy]
        sp = fisher_one_sided(soft, n, ps, PAPER_RUNS, alternative="two-sided")
        row.update(paper_softening=ps / PAPER_RUNS, softening_fisher_p=sp, softening_consistent=sp >= 0.05)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--environments", default="E1,E2,E3")
    ap.add_argument("--policies", default=",".join(POLICY_ORDER))
    ap.add_argument("--runs", type=int, default=15, help="runs per cell and seed (the paper's cell: 15)")
    ap.add_argument("--seeds", type=int, default=20, help="tournament seeds, each a full set of cells")
    ap.add_argument("--seed", type=int, default=0, help="the first tournament seed")
    ap.add_argument("--condition", default="none")
    ap.add_argument("--early-end", default="agreement", choices=tuple(EARLY_ENDS),
                    help="the game's early_end: which agreement ends a run before the horizon")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rulemaking_baselines.json"))
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    envs = [e.strip() for e in args.environments.split(",") if e.strip()]
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    bad = [p for p in policies if p != "mixed" and p not in RULEMAKING_POLICIES]
    if bad or args.runs < 1 or args.seeds < 1:
        ap.error(f"unknown policies {bad} (available: {', '.join(POLICY_ORDER)})" if bad else
                 "--runs and --seeds must be >= 1")

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    console = Console()
    if console.width < 130:  # keep the table readable when piped or in a narrow terminal
        console = Console(width=130)
    seeds = list(range(args.seed, args.seed + args.seeds))
    results: dict[str, dict[str, Any]] = {}
    runs: dict[str, list[dict[str, Any]]] = {}
    per_seed: dict[str, list[int]] = {}
    verdicts: dict[str, Counter] = {}
    unique: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    with Progress(console=console, disable=args.no_progress, transient=True) as prog:
        task = prog.add_task("runs", total=len(envs) * len(policies) * args.runs * len(seeds))
        for e in envs:
            for p in policies:
                key = f"{e}/{p}"
                runs[key], per_seed[key], verdicts[key], unique[key] = [], [], Counter(), []
                for sd in seeds:
                    outs = []
                    for k in range(args.runs):
                        outs.append(play_run(e, p, k, sd, args.condition, args.early_end))
                        prog.advance(task)
                    runs[key] += outs
                    per_seed[key].append(sum(o["label"] in AGREEMENT for o in outs))
                    verdicts[key][plausibility_screen(Counter(o["label"] for o in outs))["verdict"]] += 1
                    unique[key].append(len({tuple(o["trajectory"]) for o in outs}) / len(outs))
                results[key] = cell_summary(runs[key], rng=args.seed)
                results[key]["per_seed_agreements"] = per_seed[key]
                results[key]["per_seed_verdicts"] = dict(verdicts[key])
                results[key]["mean_turns"] = float(np.mean([o["turns"] for o in runs[key]]))
                # trajectory uniqueness is a property of a cell (the paper's 15 runs): the
                # mean over the seeds' cells, not distinct sequences over all pooled runs
                results[key]["cell_trajectory_uniqueness"] = float(np.mean(unique[key]))
    wall = time.perf_counter() - t0
    total = len(envs) * len(policies) * args.runs * len(seeds)
    n_cell = args.runs * len(seeds)

    def screen_text(v: Counter) -> str:
        return ", ".join(f"{SCREEN_SHORT[k]} {v[k]}" for k in SCREEN_SHORT if v.get(k))

    title = (f"Scripted rulemaking baselines: {args.runs} runs x {len(seeds)} seeds = {n_cell} runs per cell, "
             f"condition {args.condition}, early_end {args.early_end}")
    table = Table(title=title)
    for col in ("env", "policy", "C", "S", "A", "D", "agree", "Wilson 95%", "screen (per seed)", "exhaust",
                "turns", "entropy", "soften", "unique"):
        table.add_column(col)
    md = [f"{title}", "", "| env | policy | compromise | consensus | authority | deadlock | agreements | Wilson 95% |"
          f" screen of each {args.runs}-run cell | exhaustion | mean turns | entropy | softening | unique per cell |",
          "|" + " --- |" * 14]
    for e in envs:
        for p in policies:
            r = results[f"{e}/{p}"]
            c = r["counts"]
            cells = [str(c[k]) for k in OUTCOMES] + [
                f"{r['agreements']}/{r['runs']}", f"[{r['agreement_ci'][0]:.2f}, {r['agreement_ci'][1]:.2f}]",
                screen_text(verdicts[f"{e}/{p}"]), f"{r['horizon_exhaustion_rate']:.2f}", f"{r['mean_turns']:.1f}",
                f"{r['entropy_mean']:.2f}", f"{r['softening_rate']:.2f}", f"{r['cell_trajectory_uniqueness']:.2f}"]
            table.add_row(e, p, *cells)
            md.append(f"| {e} | {p} | " + " | ".join(cells) + " |")
    console.print(table)

    paper: dict[str, dict[str, Any]] = {}
    if "E1" in envs:
        ptable = Table(title=f"E1 agreements beside seed 001 §7 (ours: {n_cell} runs; paper: 15), exact 95% intervals")
        for col in ("policy", "ours", "ours 95%", f"per {args.runs}-run cell", "paper", "paper 95%", "Fisher p",
                    "consistent", "softening ours", "paper"):
            ptable.add_column(col)
        md += ["", f"E1 agreements beside seed 001 §7 (ours pooled over {len(seeds)} seeds; Clopper-Pearson 95%; "
               "consistent: two-sided Fisher exact p >= 0.05 against the paper's 15 runs)", "",
               f"| policy | ours | ours 95% | per {args.runs}-run cell (min / median / max) | paper | paper 95% | "
               "Fisher p | consistent | softening (ours, 95%) | softening (paper, Fisher p) |", "|" + " --- |" * 10]
        for p in policies:
            if p not in PAPER_E1:
                continue
            row = paper[p] = _paper_row(p, runs[f"E1/{p}"], per_seed[f"E1/{p}"], args.runs)
            ps = row["per_seed"]
            cells = [f"{row['agreements']}/{row['runs']} ({row['rate']:.2f})",
                     f"[{row['ci'][0]:.2f}, {row['ci'][1]:.2f}]", f"{ps['min']} / {ps['median']:g} / {ps['max']}",
                     f"{row['paper']}/{row['paper_runs']} ({row['paper_rate']:.2f})",
                     f"[{row['paper_ci'][0]:.2f}, {row['paper_ci'][1]:.2f}]", f"{row['fisher_p']:.2g}",
                     "yes" if row["consistent"] else "no",
                     f"{row['softening']:.2f} [{row['softening_ci'][0]:.2f}, {row['softening_ci'][1]:.2f}]",
                     f"{row['paper_softening']:.2f} (p {row['softening_fisher_p']:.2g})" if "paper_softening" in row
                     else ""]
            ptable.add_row(p, *cells)
            md.append(f"| {p} | " + " | ".join(cells) + " |")
        console.print(ptable)
    console.print(f"{total} runs in {wall:.1f} s")
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
    write_result(Path(args.out), {"settings": vars(args), "results": results, "paper_comparison": paper,
                                  "comparisons": comparisons, "paper_e1": PAPER_E1,
                                  "paper_softening_e1": PAPER_SOFTENING_E1, "wall_s": wall, "machine": machine_info()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
