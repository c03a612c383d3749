"""The ``report``, ``view`` and ``judge`` subcommands of ``negotiation-env`` (the only
part of the analysis that draws on the terminal, with rich).

    negotiation-env report DIR [--out OUT] [--no-plots] [--include-fallbacks] [--labels FILE] [--resamples N] [--card]
    negotiation-env view DIR [--out FILE]
    negotiation-env leaderboard RUN [RUN ...] [--game G] [--level 0.9] [--resamples 1000] [--seed 0]
                                [--anchor POLICY] [--openskill [MODEL]] [--out OUT] [--all-runs]
    negotiation-env judge DIR --model M --base-url URL [--api-key-env VAR] [--human FILE] [--labels FILE]
                          [--max-attempts 3] [--timeout 120] [--workers 1] [--limit N] [--force] [--tables-only]
    negotiation-env judge DIR --merge NAME=FILE --merge NAME=FILE [--pick LABEL=NAME ...] [--human FILE]
    negotiation-env experiments DIR --model [LABEL=]hf:PATH [--model ...] [--out OUT] [--temperature T]
                                [--device auto] [--dyads-per-cell N] [--limit N] [--resamples 10000] ...
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Mapping, Sequence

from rich.console import Console
from rich.markup import escape

from .. import exitcodes
from ..console import add_format_argument, print_error, print_json, print_table, print_text, resolve_format
from ..exitcodes import source_problem
from ..core import registry
from ..core.secrets import url_credential
from ..storage import EXIT_STORAGE, failure_message
from ..traces.reader import ALL_RUNS_HELP, MixedEnvVersions

__all__ = ["add_subcommands"]


def _err(msg: str) -> int:
    return print_error(msg, exitcodes.USAGE)


def _could_not_write(e: OSError, out: Any, left: str, source: Any = None) -> int:
    """A write the disk refused (full, read-only, no permission), or a read of the
    source: one sentence, exit code 5."""
    return print_error(failure_message(e, source, out, left), EXIT_STORAGE)


def _source(path: str) -> Path | str:
    """The source to read, or why it cannot be one (:func:`~negotiation_env.exitcodes.source_problem`)."""
    return source_problem(path) or Path(path)


def _pairs(values: list[str] | None, flag: str, form: str) -> dict[str, str] | None:
    """``NAME=VALUE`` arguments of a repeated flag as a dict (None when not given)."""
    if values is None:
        return None
    out: dict[str, str] = {}
    for v in values:
        name, sep, value = v.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ValueError(f"{flag} takes {form}; got {v!r}")
        if name.strip() in out:
            raise ValueError(f"{flag}: {name.strip()!r} given twice")
        out[name.strip()] = value.strip()
    return out


#: game -> the report tables printed on the terminal as its headline (the first of these
#: the report holds): each registered game's analysis hooks'
#: :attr:`~.hooks.GameAnalysis.headline_tables` (resource Table 3, else the headline
#: figures; matrix Table 1; rulemaking Table 2)
HEADLINES: Mapping[str, Sequence[str]] = registry.PartTable("analysis", "headline_tables")


def headline_tables(res) -> list:
    """The headline table of each game a report holds (:data:`HEADLINES`), games by name."""
    names = {t.name: t for t in res.tables}
    out = []
    for game in sorted(HEADLINES):
        picked = next((names[n] for n in HEADLINES[game] if n in names), None)
        if picked is not None:
            out.append(picked)
    return out


def _print_report_table(console: Console, t, fmt: str) -> None:
    """One analysis table with the values as its Markdown file shows them, and its notes."""
    from .tables import _fmt

    print_table(console, t.title, t.columns, [[_fmt(v, f) for v, f in zip(r, t.formats)] for r in t.rows], fmt,
                justify=["left" if f == "text" else "right" for f in t.formats], notes=t.notes)


def table_document(t) -> dict[str, Any]:
    """One analysis table as data: name, title, columns, rows (column -> raw value;
    shares as fractions, intervals as [low, high]) and notes."""
    return {"name": t.name, "title": t.title, "columns": list(t.columns),
            "rows": [dict(zip(t.columns, r)) for r in t.rows], "notes": list(t.notes)}


def _print_tables(console: Console, res, title: str, default_out: str, fmt: str | None = None):
    """The tables an analysis wrote (name, rows) and its notes; returns the folder written."""
    fmt = resolve_format(fmt, console)
    print_table(console, title, ["table", "rows"], [[t.name, str(len(t.rows))] for t in res.tables], fmt,
                justify=["left", "right"])
    for n in res.notes:
        print_text(console, f"note: {n}", fmt, style="yellow")
    return res.files[-1].parent if res.files else default_out


def _report(args: argparse.Namespace, console: Console) -> int:
    from .report import DEFAULT_OUT, report_run

    fmt = resolve_format(args.format, console)

    src = _source(args.source)
    if isinstance(src, str):
        return _err(src)
    if args.labels is not None and not Path(args.labels).is_file():
        return _err(f"no labels file at {args.labels}")
    if args.resamples is not None and args.resamples < 1:
        return _err("--resamples must be >= 1")
    try:
        rep = report_run(src, args.out, plots=not args.no_plots, runs="all" if args.all_runs else None,
                         include_fallbacks=args.include_fallbacks, labels=args.labels, n_resamples=args.resamples,
                         card=args.card)
    except MixedEnvVersions as e:
        return _err(str(e))
    except OSError as e:
        out = args.out or (src if src.is_dir() else src.parent) / DEFAULT_OUT
        return _could_not_write(e, out, "the files written before it are whole, none is partial", src)
    if not rep.games:
        return print_error(f"no games in {src}: its trace files hold no complete record; nothing to report",
                           exitcodes.NOTHING)
    out = rep.files[-1].parent if rep.files else args.out
    if fmt == "json":
        print_json(console, {"source": src, "out": out, "games": rep.games, "files": rep.files,
                             "figures": rep.figures, "notes": rep.notes,
                             "headline": [t.name for t in headline_tables(rep)],
                             "tables": [table_document(t) for t in rep.tables],
                             **({"card": table_document(rep.card)} if rep.card is not None else {})})
        return 0
    if rep.card is not None:
        # the card is what --card asks for: printed in full, every game's lines, instead of the headlines
        _print_report_table(console, rep.card, fmt)
    else:
        for t in headline_tables(rep):
            _print_report_table(console, t, fmt)
    _print_tables(console, rep, f"Report of {src}", args.out, fmt)
    print_text(console, f"wrote {len(rep.files)} files ({len(rep.figures)} figures) to {out}; "
                        f"games: " + ", ".join(f"{g} {n}" for g, n in sorted(rep.games.items())), fmt)
    return 0


def _view(args: argparse.Namespace, console: Console) -> int:
    from .viewer import view_run

    src = _source(args.source)
    if isinstance(src, str):
        return _err(src)
    problems: list = []
    try:
        path, n = view_run(src, args.out, runs="all" if args.all_runs else None, problems=problems)
    except MixedEnvVersions as e:
        return _err(str(e))
    except OSError as e:
        from .viewer import DEFAULT_FILE

        out = args.out or (src if src.is_dir() else src.parent) / DEFAULT_FILE
        return _could_not_write(e, out, "no partial page is left there", src)
    for p in problems:
        console.print(f"skipped trace line: {p}", highlight=False, markup=False, style="yellow")
    left = f"; {len(problems)} trace lines left out (listed above and in the page)" if problems else ""
    console.print(f"wrote {path} ({n} games{left}); open it in a browser (no server needed)", highlight=False,
                  markup=False)
    return 0


#: bootstrap work (resamples times games read) past which the leaderboard shows a progress bar
LONG_BOOTSTRAP = 200_000


def _leaderboard(args: argparse.Namespace, console: Console) -> int:
    from ..traces import read_traces
    from ..traces.reader import check_env_versions, record_key
    from .leaderboard import DEFAULT_OUT, leaderboard, leaderboard_tables, meta_boards, write_leaderboard, write_meta
    from .ratings import MissingExtra

    fmt = resolve_format(args.format, console)
    sources: list[Path] = []
    for path in args.sources:
        src = _source(path)
        if isinstance(src, str):
            return _err(src)
        if any(src.resolve() == s.resolve() for s in sources):
            return _err(f"{src} is given twice: each run is read once")
        sources.append(src)
    if not 0.0 < args.level < 1.0:
        return _err(f"--level must be between 0 and 1 (e.g. 0.9), got {args.level:g}")
    if args.resamples < 0:
        return _err("--resamples must be >= 0 (0: point ratings, no intervals)")
    if args.meta_resamples < 0:
        return _err("--meta-resamples must be >= 0 (0: the meta-game without intervals)")
    traces: list[Any] = []
    problems: list[str] = []
    seen: dict[tuple, Path] = {}
    dropped = 0
    reading = sources[0]
    try:
        for src in sources:
            reading = src
            res = read_traces(src, runs="all" if args.all_runs else None)
            problems += [str(p) for p in res.problems]
            for t in res.traces:
                key = record_key(t)
                if key in seen:
                    dropped += 1
                    continue
                seen[key] = src
                traces.append(t)
        check_env_versions(traces)
    except MixedEnvVersions as e:
        return _err(str(e))
    except OSError as e:
        return _could_not_write(e, None, "nothing was written", reading)
    notes = []
    if dropped:
        notes.append(f"{dropped} games already read from an earlier RUN (the same run given twice, or a copy "
                        "of it) were left out: the first record of each game counts")
    if not traces:
        return print_error(f"no games in {', '.join(map(str, sources))}: the trace files hold no complete record; "
                           "nothing to rate", exitcodes.NOTHING)
    out = Path(args.out) if args.out else (sources[0] if sources[0].is_dir() else sources[0].parent) / DEFAULT_OUT
    err_console = Console(stderr=True)
    show = err_console.is_terminal and args.resamples * len(traces) >= LONG_BOOTSTRAP
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("bootstrap {task.fields[game]}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err_console, transient=True, disable=not show)
    tasks: dict[str, Any] = {}

    def tick(game: str, done: int, total: int) -> None:
        if game not in tasks:
            tasks[game] = progress.add_task("bootstrap", total=total, game=escape(game))
        progress.update(tasks[game], completed=done)

    try:
        with progress:
            boards = leaderboard(traces, game=args.game, level=args.level, n_resamples=args.resamples,
                                 seed=args.seed, anchor=args.anchor, openskill=args.openskill, progress=tick)
        metas = (meta_boards(traces, boards, level=args.level, n_resamples=args.meta_resamples, seed=args.seed)
                 if args.meta else {})
    except MissingExtra as e:
        return print_error(str(e), exitcodes.MODEL)
    except ValueError as e:
        return _err(str(e))
    try:
        files = write_leaderboard(boards, out, args.level, sources)
        files += write_meta(metas, out)
    except OSError as e:
        return _could_not_write(e, out, "the files written before it are whole, none is partial", sources[0])
    tables, _ = leaderboard_tables(boards, args.level)
    if fmt == "json":
        print_json(console, {"sources": sources, "out": out, "files": files, "problems": problems, "notes": notes,
                             "level": args.level, "resamples": args.resamples, "seed": args.seed,
                             "games": [{"game": b.game, "comparison": b.comparison, "games": b.games,
                                        "rated": b.ratings is not None, "rows": b.rows(), "notes": b.notes}
                                       for b in boards],
                             "metagame": {g: ({"refused": m} if isinstance(m, str) else
                                              {t.name: table_document(t) for t in m.tables()})
                                          for g, m in metas.items()}})
        return 0 if any(b.ratings is not None for b in boards) else exitcodes.NOTHING
    for p in problems:
        print_text(console, f"skipped trace line: {p}", fmt, style="yellow")
    for n in notes:
        print_text(console, f"note: {n}", fmt, style="yellow")
    for t in tables:
        if t.rows:
            _print_report_table(console, t, fmt)
        else:
            for line in (t.title, *t.notes):
                print_text(console, line, fmt)
    for meta in metas.values():
        if isinstance(meta, str):
            print_text(console, f"note: {meta}", fmt, style="yellow")
            continue
        for t in meta.tables():
            _print_report_table(console, t, fmt)
    print_text(console, f"wrote {', '.join(f.name for f in files)} to {out}; games read: {len(traces)} from "
                        f"{len(sources)} source{'' if len(sources) == 1 else 's'}", fmt)
    if not any(b.ratings is not None for b in boards):
        return print_error("no game could be rated (the notes above say why)", exitcodes.NOTHING)
    return 0


def _judge(args: argparse.Namespace, console: Console) -> int:
    from ..traces import read_traces
    from .judge import LABELS_DIR, OpenAIChat, api_key_from_env, judge_run, load_taxonomy, write_tables

    src = _source(args.source)
    if isinstance(src, str):
        return _err(src)
    if args.max_attempts < 1:
        return _err("--max-attempts must be >= 1")
    if args.workers < 1:
        return _err("--workers must be >= 1")
    tax = load_taxonomy(args.taxonomy)
    try:
        judges = _pairs(args.merge, "--merge", "NAME=FILE")
        pick = _pairs(args.pick, "--pick", "LABEL=NAME")
    except ValueError as e:
        return _err(str(e))
    if judges is not None and len(judges) < 2:
        return _err("--merge needs two or more judges (--merge NAME=FILE, once per judge)")
    if pick and judges is None:
        return _err("--pick chooses a judge per label for --merge; give the judges with --merge NAME=FILE")
    if judges is not None:
        missing = [f for f in judges.values() if not Path(f).exists()]
        if missing:
            return _err(f"no labels file at {missing[0]}")
    if not args.tables_only and judges is None:
        if not args.model or not args.base_url:
            return _err("--model and --base-url are required (or --tables-only to rebuild the tables)")
        where = url_credential(args.base_url)
        if where:
            return _err(f"--base-url must not hold credentials; it carries {where}: put the key in an environment "
                        "variable and name it with --api-key-env")
        try:
            key, note = api_key_from_env(args.api_key_env)
        except ValueError as e:
            return _err(str(e))
        if note:
            console.print(f"[yellow]note:[/] {escape(str(note))}", highlight=False)
        client = OpenAIChat(model=args.model, base_url=args.base_url, api_key=key, timeout=args.timeout,
                            max_retries=args.retries, temperature=args.temperature)
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("judging"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[last]}"),
                      TimeElapsedColumn(), console=console) as progress:
            task = progress.add_task("judge", total=None, last="")

            def tick(rec):
                progress.update(task, advance=1, last=escape(f"{rec['game_id']}: {rec['status']}"))

            try:
                res = judge_run(src, client, taxonomy=tax, max_attempts=args.max_attempts, force=args.force,
                                limit=args.limit, workers=args.workers, judge_info=client.settings(),
                                include_thinking=not args.no_thinking, progress=tick, labels_file=args.labels)
            except ValueError as e:
                progress.stop()
                return _err(str(e))
        console.print(f"judged {res.judged} games ({res.ok} ok, {res.invalid} invalid after "
                      f"{args.max_attempts} attempts, {res.errors} client errors); {res.skipped} already labelled; "
                      f"labels in {res.labels_file}", highlight=False, markup=False)
        for rec in res.records:
            if rec["status"] != "ok":
                detail = f"{rec['game_id']}: {rec['errors'][-1] if rec['errors'] else ''}"
                console.print(f"[red]{escape(str(rec['status']))}[/] {escape(detail)}", highlight=False)
    try:
        files = write_tables(src, read_traces(src).traces, human=args.human, taxonomy=tax, labels_file=args.labels,
                             judges=judges, pick=pick, default=args.default_judge,
                             include_fallbacks=args.include_fallbacks)
    except OSError as e:
        return _could_not_write(e, (src if src.is_dir() else src.parent) / LABELS_DIR,
                                "the tables written before it are whole, none is partial", src)
    except ValueError as e:
        return _err(str(e))
    base = (src if src.is_dir() else src.parent) / LABELS_DIR
    console.print(f"wrote {', '.join(f.name for f in files)} to {base}", highlight=False, markup=False)
    return 0


def _experiments(args: argparse.Namespace, console: Console) -> int:
    from .matrix_experiments import (ExperimentsConfig, ExperimentsError, ScorerUnavailable, model_label,
                                     run_experiments)

    src = _source(args.source)
    if isinstance(src, str):
        return _err(src)
    models: dict[str, str] = {}
    for spec in args.model:
        label = model_label(spec)
        if not label:
            return _err(f"--model {spec}: empty label")
        if label in models:
            return _err(f"--model: two models are labelled {label!r}; name them with LABEL=SPEC")
        models[label] = spec
    strata = tuple(s.strip() for s in args.strata.split(",") if s.strip())
    try:
        config = ExperimentsConfig(
            experiments=tuple(sorted(set(args.experiment))) if args.experiment else (1, 2),
            temperature=args.temperature, dyads_per_cell=args.dyads_per_cell, limit=args.limit,
            agents=tuple(args.agent) if args.agent else None, pairings=tuple(args.pairing) if args.pairing else None,
            include_fallbacks=args.include_fallbacks, natural=args.natural, strata=strata, joint=args.joint,
            n_resamples=args.resamples, alpha=args.alpha, seed=args.seed, batch_size=args.batch_size,
            s7_bold=args.s7_bold, primary=args.primary, s2_excludes_primary=args.s2_excludes_primary)
    except ExperimentsError as e:
        return _err(str(e))
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    with Progress(TextColumn("replaying"), TextColumn("{task.fields[model]}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console) as progress:
        tasks: dict[str, int] = {}

        def tick(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = progress.add_task("replay", total=total, model=escape(label))
            progress.update(tasks[label], completed=done)

        try:
            res = run_experiments(src, models, args.out, config, plots=not args.no_plots,
                                  runs="all" if args.all_runs else None, device=args.device, dtype=args.dtype,
                                  progress=tick)
        except ScorerUnavailable as e:
            progress.stop()
            return print_error(str(e), 3)
        except (ExperimentsError, MixedEnvVersions) as e:
            progress.stop()
            return _err(str(e))
        except OSError as e:
            progress.stop()
            out = args.out or (src if src.is_dir() else src.parent) / "experiments"
            return _could_not_write(e, out, "the files written before it are whole, none is partial", src)
    out = _print_tables(console, res, f"Experiments 1 and 2 on {src}", args.out)
    console.print(f"wrote {len(res.files)} files ({len(res.figures)} figures, {len(res.rows)} scored decisions) to "
                  f"{out}", highlight=False, markup=False)
    return 0


def add_subcommands(sub: argparse._SubParsersAction) -> None:
    """Register ``report``, ``view``, ``leaderboard``, ``judge`` and ``experiments`` on the ``negotiation-env`` parser."""
    r = sub.add_parser("report", help="tables (Markdown, CSV) and figures (PNG) of the papers from traces",
                       description="Write the papers' tables and figures for whatever games DIR's traces "
                                   "hold: resource (Yao et al.: headline, Tables 3, 4, 9, 10, 12, process metrics, "
                                   "agent errors, Figures 6 and 7; main cohort only, interventions against "
                                   "matched baselines, fallback rounds left out and counted), rulemaking (Andric: "
                                   "Table 2, the cell summary, Ledger contrasts, Figure 1), matrix (Lore et al.: "
                                   "Table 1 with permutation p over dyads and Benjamini-Hochberg marks, n/a where "
                                   "a cell is too small to test; pooled game, pairing and overall effects; A.1-A.3, "
                                   "Tables S1-S5; switching figure). "
                                   "Every record, line or round left out is listed in the notes.")
    r.add_argument("source", help="run folder (every *.jsonl in it) or one .jsonl trace file")
    r.add_argument("--out", default=None, help="output folder (default DIR/report)")
    r.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib needed)")
    r.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)
    r.add_argument("--include-fallbacks", action="store_true",
                   help="count resource rounds with a fallback decision (no valid allocation after every retry) as "
                        "play; by default they are left out, as the paper does, and each table says how many")
    r.add_argument("--labels", default=None,
                   help="judge labels file for the judge tables (default DIR/judge/merged.jsonl if it exists, else "
                        "DIR/judge/labels.jsonl)")
    r.add_argument("--resamples", type=int, default=None, metavar="N",
                   help="bootstrap resamples of every interval, and random relabellings of the matrix permutation "
                        "test (default: 10,000 for the matrix tables, as the matrix paper; 2,000 for the rulemaking "
                        "and resource outcome-space intervals)")
    r.add_argument("--card", action="store_true",
                   help="print each game's replication card: the paper's published numbers (value, n, source) "
                        "beside this run's figure with its interval and n, and a verdict per number (consistent, "
                        "not consistent, not comparable and why); also writes card.md and card.csv")
    add_format_argument(r)
    r.set_defaults(func=_report)
    v = sub.add_parser("view", help="a self-contained HTML transcript viewer of a run",
                       description="Write one static HTML file (no server, no network) with the game list, "
                                   "filters and every game's round-by-round transcript.")
    v.add_argument("source", help="run folder or .jsonl trace file")
    v.add_argument("--out", default=None, help="output file (default DIR/viewer.html)")
    v.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)
    v.set_defaults(func=_view)
    lb = sub.add_parser(
        "leaderboard", help="ratings of the policies of one or several runs: Bradley–Terry (Elo) with intervals",
        description="Per game, a Bradley–Terry rating of every policy on the Elo scale (mean 1500, or --anchor at "
                    "1500) with percentile bootstrap intervals that resample within pairings and keep the two seat "
                    "orders of a scenario draw together; per policy its games against other policies, wins, draws, "
                    "losses, the pairings it covered and its games left out. Notes name every pairing never played, "
                    "each policy's games left out (degraded, error, truncated) and a game that is not rated (more "
                    "than two seats). Writes leaderboard.csv and leaderboard.md.")
    lb.add_argument("sources", nargs="+", metavar="RUN", help="run folder or .jsonl trace file (one or more)")
    lb.add_argument("--game", default=None, help="rate this game only (default: every game, one board each)")
    lb.add_argument("--level", type=float, default=0.9, help="interval level (default 0.9)")
    lb.add_argument("--resamples", type=int, default=1000, metavar="N",
                    help="bootstrap resamples (default 1000; 0: point ratings without intervals)")
    lb.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    lb.add_argument("--anchor", default=None, metavar="POLICY", help="put this policy at 1500 (default: the mean)")
    lb.add_argument("--openskill", nargs="?", const="plackett_luce", default=None,
                    choices=["plackett_luce", "bradley_terry"],
                    help="add OpenSkill's online rating (mu, sigma, ordinal = mu - 3 sigma) as a second view, games "
                         "played in run, cell, scenario, repetition order (default model plackett_luce; needs "
                         "the ratings extra)")
    lb.add_argument("--meta", action="store_true",
                    help="add each rated game's meta-game: payoff matrix, Nash averaging, α-rank, regret and the "
                         "replicator dynamics (metagame_GAME.md, .csv and .png; needs the metagame extra)")
    lb.add_argument("--meta-resamples", type=int, default=200, metavar="N",
                    help="bootstrap resamples of the meta-game's Nash ratings and α-rank masses (default 200; 0: none)")
    lb.add_argument("--out", default=None, help="output folder (default RUN/leaderboard of the first RUN)")
    lb.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)
    add_format_argument(lb)
    lb.set_defaults(func=_leaderboard)
    j = sub.add_parser("judge", help="label resource-game rounds with an LLM judge (the resource paper's Appendix G)",
                       description="One call per complete resource game to an OpenAI-compatible server; answers "
                                   "are validated strictly and retried with the error; labels go to "
                                   "DIR/judge/labels.jsonl, prevalence (and kappa with --human) to DIR/judge/.")
    j.add_argument("source", help="run folder or .jsonl trace file")
    j.add_argument("--model", help="model name on the server")
    j.add_argument("--base-url", help="server URL, e.g. http://127.0.0.1:8000/v1")
    j.add_argument("--api-key-env", default=None,
                   help="environment variable holding the API key (default OPENAI_API_KEY; never logged)")
    j.add_argument("--human", default=None, help="human-label CSV: also write Cohen's kappa per label")
    j.add_argument("--max-attempts", type=int, default=3, help="answers per game before giving up (default 3)")
    j.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    j.add_argument("--retries", type=int, default=3, help="transport retries per request (default 3)")
    j.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0)")
    j.add_argument("--workers", type=int, default=1, help="games judged in parallel (default 1)")
    j.add_argument("--limit", type=int, default=None, help="judge at most N games this time")
    j.add_argument("--force", action="store_true", help="judge again games that already have labels")
    j.add_argument("--no-thinking", action="store_true", help="leave the agents' private thinking out")
    j.add_argument("--taxonomy", default=None, help="taxonomy JSON (default: the shipped G.4 taxonomy)")
    j.add_argument("--tables-only", action="store_true", help="call nothing; rebuild the tables from stored labels")
    j.add_argument("--labels", default=None,
                   help="labels file to write and read (default DIR/judge/labels.jsonl); one per judge model when "
                        "two judges label the same games")
    j.add_argument("--merge", action="append", default=None, metavar="NAME=FILE",
                   help="a judge's labels file (repeat for each judge, two or more): call nothing, merge them into "
                        "DIR/judge/merged.jsonl (which `report` reads) and write Cohen's kappa between the judges "
                        "(agreement.md); with --human also each judge's kappa against the humans (kappa_NAME.md)")
    j.add_argument("--pick", action="append", default=None, metavar="LABEL=NAME",
                   help="with --merge: take LABEL (a core label or auxiliary tag id) from judge NAME, as Appendix G.2 "
                        "takes its specialist labels from one judge (repeatable)")
    j.add_argument("--default-judge", default=None, metavar="NAME",
                   help="with --merge: the judge of every label not named by --pick (default: the first --merge)")
    j.add_argument("--include-fallbacks", action="store_true",
                   help="count rounds with a fallback decision in the prevalence and enrichment tables")
    j.set_defaults(func=_judge)
    x = sub.add_parser(
        "experiments", help="the matrix paper's Experiments 1 and 2: replay decisions under a model, Table 2, S7, S9, "
                            "Figures 2, 3, S2, S3",
        description="Replay every action decision of DIR's complete, error-free communication-treatment matrix dyads "
                    "under the Table S6 (Experiment 1) and Table S8 (Experiment 2) conditions, score P(A) with each "
                    "--model, split expected switching into probability drift and action uncertainty, and write "
                    "Table 2, Tables S7 and S9 (Markdown and CSV), Figures 2, 3, S2 and S3 (PNG), replays.jsonl, "
                    "experiments.json and experiments.md. Exit 3 when a model cannot be loaded.")
    x.add_argument("source", help="run folder (every *.jsonl in it) or one .jsonl trace file")
    x.add_argument("--model", action="append", required=True, metavar="[LABEL=]SPEC",
                   help="scoring model: hf:PATH (a local folder or hub id), openai:MODEL@URL (a server returning "
                        "log-probabilities) or python:MODULE:FACTORY; repeat for one table column per model; the "
                        "label defaults to the folder name or model name")
    x.add_argument("--out", default=None, help="output folder (default DIR/experiments)")
    x.add_argument("--temperature", type=float, default=None,
                   help="temperature T of the scored log-probabilities, softmax(logits / T) (default 1: the model's "
                        "own distribution, what the paper's replay returned)")
    x.add_argument("--device", default="auto", help="hf models: auto (CUDA when available), cpu, cuda, cuda:N, mps")
    x.add_argument("--dtype", default="auto", help="hf models: auto, float32, bfloat16, float16")
    x.add_argument("--batch-size", type=int, default=16, help="decisions per forward pass (default 16)")
    x.add_argument("--dyads-per-cell", type=int, default=None,
                   help="at most N dyads per pairing x game x framing cell, the first by game id (the paper: 20; "
                        "default all)")
    x.add_argument("--limit", type=int, default=None,
                   help="at most N dyads in all, taken round-robin over the cells (a quick check)")
    x.add_argument("--agent", action="append", default=None, choices=["agent_0", "agent_1"],
                   help="replay this seat's decisions only (repeatable; default both)")
    x.add_argument("--pairing", action="append", default=None, metavar="TEXT",
                   help="only dyads of this pairing, as the report names it (e.g. 'm × m'; repeatable)")
    x.add_argument("--experiment", action="append", type=int, choices=[1, 2], default=None,
                   help="run only this experiment (repeatable; default both)")
    x.add_argument("--strata", default="stage_game,framing",
                   help="comma-separated row fields forming the equally weighted strata (default stage_game,framing; "
                        "add pairing to weight pairings equally)")
    x.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000, the paper's)")
    x.add_argument("--seed", type=int, default=42, help="bootstrap seed (default 42)")
    x.add_argument("--alpha", type=float, default=0.05, help="Benjamini-Hochberg level of the bold marks (default .05)")
    x.add_argument("--joint", action="store_true",
                   help="one Experiment 1 testing family of conditions and contrasts (default: two families)")
    x.add_argument("--natural", action="store_true",
                   help="also score the unmodified action prompt (pre_action; replays.jsonl only)")
    x.add_argument("--include-fallbacks", action="store_true",
                   help="also replay complete dyads with a fallback or error mark (the paper leaves them out)")
    x.add_argument("--s7-bold", choices=["q", "ci"], default="q",
                   help="Table S7's bold entries: q (Benjamini-Hochberg in the contrasts' family, default) or ci "
                        "(the interval excludes zero, as the table's caption says)")
    x.add_argument("--primary", default=None, metavar="LABEL", help="the model of Figure 2 (default the first)")
    x.add_argument("--s2-excludes-primary", action="store_true",
                   help="Figure S2 without the primary model, as the paper's (default: every model)")
    x.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib needed)")
    x.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)
    x.set_defaults(func=_experiments)
