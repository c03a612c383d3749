"""Does the cross-play outcome depend on wording? The default cohort, as is and paraphrased.

Run from the repository root:

    python -m benchmarks.paraphrase                        # the default cohort: 720 games, twice
    python -m benchmarks.paraphrase --games-per-cell 2     # 144 games, twice
    python -m benchmarks.paraphrase --templates-only       # check the templates, play nothing

What it plays. The runner's default config (``negotiation_env/runner/configs/default.toml``,
what ``negotiation-env run --out DIR`` plays: the scripted oracle, linear and greedy
agents, every pairing, 12 conditions x 3 M/C levels, 10 games per cell) twice, with
``negotiation_env.runner.run(config, out_dir, workers=1)``:

* **original**: the default config itself (``--games-per-cell N`` sets the block's
  ``games_per_cell``, nothing else);
* **paraphrased**: the same config with each policy entry ``scripted:NAME`` replaced by
  ``{spec = "python:benchmarks.paraphrase_templates:paraphrased", label = "scripted:NAME",
  options = {inner = "NAME", paraphrase_seed = SEED}}``. The label keeps the policy's
  name in the plan, so the game keys, the env seeds and the policy seeds (they derive
  from the cohort seed, the key and the label) are exactly the original's: the script
  checks both plans game by game before playing. The factory builds the same scripted
  agent the runner builds for ``scripted:NAME`` (``make(NAME, seed=..., output="text")``)
  and wraps it (:class:`paraphrase_templates.ParaphrasingPolicy`): the agent decides
  exactly as it would, reading its own earlier messages in its own words, and only the
  speech of its answers is rewritten with templates, so its partner reads the paraphrase.
  The templates of a seat are drawn from ``default_rng([SEED, the seat's policy seed])``.

The runs play in this process, one game at a time (``workers=1``: the counts of
paraphrased messages are kept in this process), into a temporary folder (``--runs-dir``
keeps the traces).

What it reports, per pairing (self-play and cross, both seatings pooled) and overall, for
the original and the paraphrased run and their difference: every figure of
``negotiation_env.analysis.resource_metrics.pooled_metrics`` (over the kept rounds, as the
report's resource tables count them): efficiency (mean per-round joint reward / M),
overdraw rate, optimum rate, every process rate (early decision, equal split, perfunctory
fairness, proposal rate, the deference variants, abandonment, payoff alternation, win-stay
/ lose-shift, repeats, stubborn anchoring, the transitions after overdrawn and suboptimal
rounds), games with an optimal round, mean rounds to the first optimum, the median turn
of the first proposal, plus proposals per round (from the same per-round figures). A
difference above 0.02 in absolute value, or a figure that exists in one run only, is
marked; the target is that none is. The speech-based figures are read from the words by
the analysis, so they measure its reading as well as the agents'. Also: how many
messages were paraphrased, per kind of act, and how many games ended every round with the
same purchases in both runs.

Output: rich tables on the terminal, and ``--out`` (default
``benchmarks/results/paraphrase.json``) with a Markdown version beside it (``.md``).
``--strict`` exits 3 when any figure moved more than 0.02.

``--templates-only``: render every template on a few acts, check that each keeps the
quantities and resource names (and the project and reward of a disclosure), that every
kind has at least ten templates and that they are pairwise distinct; exit 1 on a problem.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]

from benchmarks import paraphrase_templates as PT
from benchmarks.machine import machine_info, write_result

SPEC = "python:benchmarks.paraphrase_templates:paraphrased"
THRESHOLD = 0.02
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "paraphrase.json"
EXIT_MOVED = 3

#: the figures compared, in the order they are shown (the three outcome figures first)
HEADLINE = ("efficiency", "overdraw_rate", "optimum_rate")


def metric_keys() -> tuple[str, ...]:
    from negotiation_env.analysis.resource_metrics import RATE_KEYS

    rest = [k for k in RATE_KEYS if k not in HEADLINE]
    return (*HEADLINE, *rest, "games_with_optimal_round", "mean_rounds_to_first_optimum", "median_proposal_turn",
            "proposals_per_round")


# --------------------------------------------------------------------------- configs


def cohort_configs(games_per_cell: int | None = None, paraphrase_seed: int = 0, config: Any = None,
                   restore_partner: bool = False):
    """(original, paraphrased) run configs: ``config`` (default: the runner's default
    config) with ``games_per_cell`` set when given, and the same with every scripted
    policy wrapped by the paraphraser under its own label. ``restore_partner``: the
    invariance check of the tests (the partner's words are put back too)."""
    from negotiation_env.runner import load_config, parse_config
    from negotiation_env.runner.config import RunConfig

    base = config if isinstance(config, RunConfig) else (
        load_config(config) if config is None or isinstance(config, (str, Path)) else parse_config(config))
    data = base.model_dump(mode="json")
    if games_per_cell is not None:
        for block in data["games"]:
            block["games_per_cell"] = int(games_per_cell)
        original = parse_config(copy.deepcopy(data))
    else:
        original = base
    for bi, block in enumerate(data["games"]):
        if block["game"] != "resource":
            raise SystemExit(f"games[{bi}] plays {block['game']!r}; the paraphraser speaks the resource game only")
        wrapped = []
        for p in block["policies"]:
            kind, _, name = p["spec"].partition(":")
            if kind != "scripted" or p.get("options"):
                raise SystemExit(f"policy {p['spec']!r}: only scripted policies without options can be paraphrased")
            options = {"inner": name, "paraphrase_seed": int(paraphrase_seed)}
            if restore_partner:
                options["restore_partner"] = True
            wrapped.append({"spec": SPEC, "label": p.get("label") or p["spec"], "options": options})
        block["policies"] = wrapped
    return original, parse_config(data)


def check_same_games(original, paraphrased) -> int:
    """Both plans hold the same games (keys, seatings, configs, env and policy seeds), in
    order; returns the count, raises SystemExit naming the first difference."""
    from negotiation_env.runner import make_plan

    a, b = make_plan(original).specs, make_plan(paraphrased).specs
    if len(a) != len(b):
        raise SystemExit(f"the paraphrased plan has {len(b)} games, the original {len(a)}")
    for x, y in zip(a, b):
        for f in ("key", "lineup", "config", "env_seed", "policy_seeds"):
            if getattr(x, f) != getattr(y, f):
                raise SystemExit(f"game {x.key}: {f} differs between the plans "
                                 f"({getattr(x, f)!r} vs {getattr(y, f)!r})")
    return len(a)


# --------------------------------------------------------------------------- playing


def _observer(progress, label: str):
    from negotiation_env.runner import RunObserver

    class Bar(RunObserver):
        def on_start(self, plan, summary, todo):
            self.task = progress.add_task(label, total=todo) if progress is not None else None

        def on_game(self, game, summary):
            if progress is not None:
                progress.advance(self.task)

    return Bar()


def play(config, out_dir: Path, progress=None, label: str = "games") -> dict[str, Any]:
    """Play ``config`` into ``out_dir`` serially; the run's figures for the report."""
    from negotiation_env.runner import run

    PT.COUNTS.clear()
    t0 = time.perf_counter()
    summary = run(config, out_dir, workers=1, observer=_observer(progress, label))
    return {"run_id": summary.run_id, "games": summary.games, "errors": summary.errors,
            "complete": summary.complete, "seconds": round(time.perf_counter() - t0, 2),
            "counts": dict(PT.COUNTS), "traces": str(Path(out_dir) / "traces.jsonl")}


def pairing_of(trace: dict[str, Any]) -> str:
    """``oracle vs linear``: the cell's lineup (both seatings of a pairing are one cell)."""
    lineup = str((trace.get("run") or {}).get("cell", "")).rsplit("|", 1)[-1].split("+")
    return " vs ".join(x.split(":", 1)[-1] for x in lineup)


def _purchases(trace: dict[str, Any]) -> tuple:
    return tuple(tuple(sorted((a, tuple(sorted((p or {}).items())))
                              for a, p in ((r.get("outcome") or {}).get("purchases") or {}).items()))
                 for r in trace.get("rounds") or [])


def read_run(traces: str | Path) -> tuple[dict[str, list[dict]], dict[str, tuple], int]:
    """Per pairing, the :func:`game_metrics` of its games; every game's purchases by key;
    the games that ended in error."""
    from negotiation_env.analysis.resource_metrics import game_metrics
    from negotiation_env.traces.reader import iter_records

    by_pairing: dict[str, list[dict]] = defaultdict(list)
    purchases: dict[str, tuple] = {}
    errors = 0
    for trace in iter_records(traces):
        key = (trace.get("run") or {}).get("game_key", trace.get("game_id"))
        if trace.get("status") == "error":
            errors += 1
            continue
        by_pairing[pairing_of(trace)].append(game_metrics(trace))
        purchases[key] = _purchases(trace)
    return dict(by_pairing), purchases, errors


def figures(games: list[dict]) -> dict[str, Any]:
    from negotiation_env.analysis.resource_metrics import pool

    pooled = pool(games)
    out = {k: pooled.get(k) for k in metric_keys() if k != "proposals_per_round"}
    rounds = [r for g in games for r in g["per_round"]]
    out["proposals_per_round"] = sum(r["proposals"] for r in rounds) / len(rounds) if rounds else None
    out["games"], out["rounds"] = pooled["games_total"], pooled["rounds"]
    return out


def compare(orig: dict[str, Any], para: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rows = {}
    for k in metric_keys():
        a, b = orig.get(k), para.get(k)
        if a is None and b is None:
            diff, moved = None, False
        elif a is None or b is None:
            diff, moved = None, True  # a figure one run has and the other not
        else:
            diff = float(b) - float(a)
            moved = abs(diff) > THRESHOLD + 1e-12
        rows[k] = {"original": a, "paraphrased": b, "diff": diff, "moved": moved}
    return rows


def _order(pairings: Iterable[str], policies: list[str]) -> list[str]:
    rank = {p: i for i, p in enumerate(policies)}

    def key(name: str):
        a, _, b = name.partition(" vs ")
        return (a != b, rank.get(a, 99), rank.get(b, 99), name)

    return sorted(pairings, key=key)


# --------------------------------------------------------------------------- output


def _f(x: Any) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return f"{x:.3f}" if isinstance(x, float) else str(x)


def _d(row: dict[str, Any]) -> str:
    if row["diff"] is None:
        return "n/a" if not row["moved"] else "(one run only)"
    return f"{row['diff']:+.3f}"


def print_tables(result: dict[str, Any], console, details: bool = True) -> None:
    from rich.table import Table

    t = Table(title=f"Original -> paraphrased ({result['settings']['games']} games each); red: |Δ| > {THRESHOLD}")
    t.add_column("pairing")
    t.add_column("games", justify="right")
    for k, short in zip(HEADLINE, ("efficiency", "overdraw", "optimum")):
        t.add_column(short, justify="right")
        t.add_column("Δ", justify="right")
    t.add_column("moved", justify="right")
    for name, p in result["pairings"].items():
        rows = p["metrics"]
        cells = [name, str(p["games"])]
        for k in HEADLINE:
            r = rows[k]
            cells += [f"{_f(r['original'])}→{_f(r['paraphrased'])}", f"[bold red]{_d(r)}[/]" if r["moved"] else _d(r)]
        moved = sum(r["moved"] for r in rows.values())
        cells.append(f"[bold red]{moved}[/]" if moved else "0")
        t.add_row(*cells, end_section=name == "all pairings")
    console.print(t)
    n_fig = len(metric_keys())
    for name, p in result["pairings"].items():
        moved = [k for k, r in p["metrics"].items() if r["moved"]]
        console.print(f"[bold]{name}[/]: {len(moved)} of {n_fig} figures moved more than {THRESHOLD}"
                      + (": " + ", ".join(moved) if moved else ""), highlight=False)

    c = Table(title="Messages paraphrased (pieces by kind; a message may hold several)")
    c.add_column("kind")
    c.add_column("count", justify="right")
    for k, n in result["paraphrased_counts"].items():
        c.add_row(k, str(n))
    console.print(c)
    console.print(f"games that ended every round with the same purchases in both runs: "
                  f"{result['same_purchases']['games']} of {result['same_purchases']['of']}", highlight=False)

    if not details:
        return
    for name, p in result["pairings"].items():
        d = Table(title=f"{name} ({p['games']} games, {p['rounds']['original']} / {p['rounds']['paraphrased']} "
                        "rounds kept)")
        for col in ("figure", "original", "paraphrased", "Δ"):
            d.add_column(col, justify="left" if col == "figure" else "right")
        for k, r in p["metrics"].items():
            style = "bold red" if r["moved"] else None
            d.add_row(k, _f(r["original"]), _f(r["paraphrased"]), _d(r), style=style)
        console.print(d)


def markdown(result: dict[str, Any]) -> str:
    s = result["settings"]
    lines = [
        "# Paraphrase robustness: the default cohort as is and paraphrased",
        "",
        f"Config `{s['config']}` ({s['games']} games per run, games_per_cell {s['games_per_cell']}), "
        f"paraphrase seed {s['seed']}; original run {result['runs']['original']['run_id']} "
        f"({result['runs']['original']['seconds']} s), paraphrased run {result['runs']['paraphrased']['run_id']} "
        f"({result['runs']['paraphrased']['seconds']} s). Figures over the kept rounds "
        "(`resource_metrics.pooled_metrics`); Δ = paraphrased - original; ✗ marks |Δ| > 0.02 or a figure "
        "that exists in one run only.",
        "",
        "| pairing | games | eff orig | eff para | Δ eff | overdraw orig | overdraw para | Δ overdraw | "
        "optimum orig | optimum para | Δ optimum | moved > 0.02 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, p in result["pairings"].items():
        rows = p["metrics"]
        cells = [name, str(p["games"])]
        for k in HEADLINE:
            r = rows[k]
            cells += [_f(r["original"]), _f(r["paraphrased"]), _d(r) + (" ✗" if r["moved"] else "")]
        moved = [k for k, r in rows.items() if r["moved"]]
        cells.append(f"{len(moved)}: " + ", ".join(moved) if moved else "none")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Messages paraphrased (pieces by kind; a message may hold several):", "",
              "| kind | count |", "| --- | ---: |"]
    lines += [f"| {k} | {n} |" for k, n in result["paraphrased_counts"].items()]
    sp = result["same_purchases"]
    lines += ["", f"Games that ended every round with the same purchases in both runs: {sp['games']} of {sp['of']}."]
    for name, p in result["pairings"].items():
        lines += ["", f"## {name}", "",
                  f"{p['games']} games; rounds kept: {p['rounds']['original']} original, "
                  f"{p['rounds']['paraphrased']} paraphrased.", "",
                  "| figure | original | paraphrased | Δ | > 0.02 |", "| --- | ---: | ---: | ---: | :---: |"]
        for k, r in p["metrics"].items():
            mark = "✗" if r["moved"] else ""
            lines.append(f"| {k} | {_f(r['original'])} | {_f(r['paraphrased'])} | {_d(r)} | {mark} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- templates check


def _sample_acts():
    from baselines.scripted import grammar as G

    return [
        G.Propose((("copper", 5),), (("lithium", 3),)),
        G.Propose((("wood", 2), ("gold", 11)), (("stone", 7),)),
        G.Propose((), (("silicon", 12), ("r4", 1))),
        G.Propose((("flour", 1), ("sugar", 4), ("saffron", 2)), ()),
        G.Disclose("project_a", (("stone", 2), ("gold", 3)), 17.0),
        G.Disclose("project_c", (("kelp", 14),), 12.5),
        G.Need(4, "stone", "project_b"),
        G.Need(13, "helium", "project_a"),
        G.Accept(), G.Reject(), G.Ask(),
    ]


def _has_quantity(text: str, q: int, name: str) -> bool:
    import re

    nums = {str(q), PT.number_word(q)}
    pat = r"\b(?:%s)\s+(?:units?\s+of\s+)?%s\b" % ("|".join(map(re.escape, nums)), re.escape(name))
    return re.search(pat, text, re.I) is not None


def check_templates() -> list[str]:
    """Problems with the templates (empty when they are fine): fewer than ten per kind,
    duplicates within or across kinds, a rendering that loses a quantity, a resource, the
    project, the reward or one of the shares, or that has a double quote or a blank line
    (the env shows speech verbatim inside quotation marks)."""
    from baselines.scripted import grammar as G

    problems: list[str] = []
    groups = {**{k: v for k, v in PT.TEMPLATES.items()}, **{f"stock {p!r}": v for p, v in PT.STOCK.items()}}
    for kind, ts in groups.items():
        if len(ts) < 10:
            problems.append(f"{kind}: {len(ts)} templates, fewer than 10")
        if len(set(ts)) != len(ts):
            problems.append(f"{kind}: two templates are the same")
    every = [t for ts in groups.values() for t in ts]
    dup = sorted({t for t in every if every.count(t) > 1})
    if dup:
        problems.append(f"templates in more than one kind: {dup}")
    for phrase, ts in PT.STOCK.items():
        if phrase in ts:
            problems.append(f"stock {phrase!r}: a template repeats the phrase itself")
    for act in _sample_acts():
        kind = PT.kind_of(act)
        outs = [PT.render_template(t, act) for t in PT.TEMPLATES[kind]]
        if len(set(outs)) != len(outs):
            problems.append(f"{kind} on {act!r}: two templates render the same text")
        for t, text in zip(PT.TEMPLATES[kind], outs):
            where = f"{kind} template {t!r} on {act!r}"
            if '"' in text or "\n\n" in text:
                problems.append(f"{where}: holds a double quote or a blank line: {text!r}")
            if G.render(act) == text:
                problems.append(f"{where}: renders the grammar's own sentence")
            if isinstance(act, G.Propose):
                for n, q in (*act.you, *act.me):
                    if not _has_quantity(text, q, n):
                        problems.append(f"{where}: loses {q} {n}: {text!r}")
                for side in ("you", "me"):
                    fields = {f for f in PT.fields_of(act) if f == side or f.startswith(side + "_")}
                    used = [f for f in fields if "{" + f + "}" in t]
                    if len(used) != 1:
                        problems.append(f"{where}: names the {side!r} share {len(used)} times, not once")
                if not (act.you and act.me) and "nothing" not in text.lower():
                    problems.append(f"{where}: an empty share is not said: {text!r}")
            elif isinstance(act, G.Disclose):
                for n, q in act.requires:
                    if not _has_quantity(text, q, n):
                        problems.append(f"{where}: loses {q} {n}: {text!r}")
                if act.project not in text and PT.fields_of(act)["Project"] not in text:
                    problems.append(f"{where}: loses the project: {text!r}")
                if PT.fields_of(act)["reward"] not in text:
                    problems.append(f"{where}: loses the reward: {text!r}")
                if not any(w in text.lower() for w in ("per run", "/run", "each run", "every run", "one run")):
                    problems.append(f"{where}: does not say the figures are per run: {text!r}")
            elif isinstance(act, G.Need):
                if not _has_quantity(text, act.units, act.resource):
                    problems.append(f"{where}: loses {act.units} {act.resource}: {text!r}")
                if act.project not in text and PT.fields_of(act)["Project"] not in text:
                    problems.append(f"{where}: loses the project: {text!r}")
    return problems


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", type=Path, default=None,
                    help="a run config of scripted resource-game policies (default: the runner's default config)")
    ap.add_argument("--games-per-cell", type=int, default=None,
                    help="games per cell (default: the default cohort's, 10; an even number keeps both seatings alike)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the template draws (default 0)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"JSON result (default {DEFAULT_OUT}); .md beside it")
    ap.add_argument("--runs-dir", type=Path, default=None,
                    help="keep the two runs' traces here (original/, paraphrased/; default: a temporary folder)")
    ap.add_argument("--summary-only", action="store_true", help="print only the summary tables (the files hold all)")
    ap.add_argument("--strict", action="store_true",
                    help=f"exit {EXIT_MOVED} when a figure moved more than {THRESHOLD}")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--templates-only", action="store_true", help="check the templates and exit")
    args = ap.parse_args(argv)

    from rich.console import Console

    console = Console()
    if args.templates_only:
        problems = check_templates()
        n = {k: len(v) for k, v in PT.TEMPLATES.items()} | {"stock": sum(len(v) for v in PT.STOCK.values())}
        for p in problems:
            console.print(f"[red]problem:[/] {p}", highlight=False)
        console.print(f"templates: {n} ({len(PT.STOCK)} stock phrases); "
                      f"{'OK' if not problems else f'{len(problems)} problems'}", highlight=False)
        return 1 if problems else 0
    if args.games_per_cell is not None and args.games_per_cell < 1:
        ap.error("--games-per-cell must be >= 1")

    original, paraphrased = cohort_configs(args.games_per_cell, args.seed, args.config)
    n_games = check_same_games(original, paraphrased)
    policies = [p.name.split(":", 1)[-1] for b in original.games for p in b.policies]
    tmp = None
    if args.runs_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="paraphrase-")
        runs_dir = Path(tmp.name)
    else:
        runs_dir = args.runs_dir
    try:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = None if args.no_progress else Progress(
            TextColumn("{task.description:>11}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console)
        runs = {}
        if progress is not None:
            progress.start()
        try:
            runs["original"] = play(original, runs_dir / "original", progress, "original")
            runs["paraphrased"] = play(paraphrased, runs_dir / "paraphrased", progress, "paraphrased")
        finally:
            if progress is not None:
                progress.stop()
        read = {k: read_run(r["traces"]) for k, r in runs.items()}
    finally:
        if tmp is not None:
            tmp.cleanup()

    (po, buy_o, err_o), (pp, buy_p, err_p) = read["original"], read["paraphrased"]
    pairings: dict[str, Any] = {}
    names = _order(set(po) | set(pp), policies)
    for name in ["all pairings", *names]:
        go = [g for v in po.values() for g in v] if name == "all pairings" else po.get(name, [])
        gp = [g for v in pp.values() for g in v] if name == "all pairings" else pp.get(name, [])
        if not go or not gp:
            continue
        fo, fp = figures(go), figures(gp)
        pairings[name] = {"games": fo["games"], "rounds": {"original": fo["rounds"], "paraphrased": fp["rounds"]},
                          "metrics": compare(fo, fp)}
    same = sum(1 for k, v in buy_o.items() if buy_p.get(k) == v)
    counts = runs["paraphrased"]["counts"]
    ordered_counts = {k: counts.get(k, 0) for k in PT.KINDS}
    ordered_counts |= {k: v for k, v in sorted(counts.items()) if k not in ordered_counts}
    moved = {name: [k for k, r in p["metrics"].items() if r["moved"]] for name, p in pairings.items()}
    result = {
        "settings": {"config": original.name, "games": n_games, "seed": args.seed,
                     "games_per_cell": [b.games_per_cell for b in original.games][0],
                     "threshold": THRESHOLD, "wrapped_spec": SPEC},
        "runs": {k: {kk: vv for kk, vv in r.items() if kk not in ("counts", "traces")} for k, r in runs.items()},
        "errors": {"original": err_o, "paraphrased": err_p},
        "paraphrased_counts": ordered_counts,
        "same_purchases": {"games": same, "of": len(buy_o)},
        "moved": moved,
        "pairings": pairings,
        "machine": machine_info(),
    }
    print_tables(result, console, details=not args.summary_only)
    write_result(args.out, result)
    md = args.out.with_suffix(".md")
    md.write_text(markdown(result), encoding="utf-8")
    print(f"wrote {md}")
    if err_o or err_p:
        console.print(f"[red]games ended in error:[/] {err_o} original, {err_p} paraphrased")
        return 1
    if args.strict and any(moved.values()):
        return EXIT_MOVED
    return 0


if __name__ == "__main__":
    sys.exit(main())
