"""The ``run`` and ``export`` subcommands of ``negotiation-env`` (the CLI layer: the only
part of the runner that draws on the terminal, with rich).

    negotiation-env run [CONFIG] --out DIR [--resume] [--backend local|ray] [--workers N] [--batch-games N] [--plan]
    negotiation-env export DIR --kind transitions|sft|sft_prompt_completion|preferences --out FILE [--game G] [filters]
    negotiation-env export DIR --kind minari --out ROOT [--game G] [--prefix P] [--agent A]
"""

from __future__ import annotations

import argparse
import os
import signal
import textwrap
import threading
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .. import exitcodes
from ..console import print_error
from ..exitcodes import exists_message, source_problem
from ..storage import EXIT_STORAGE, failed_verb, describe as describe_os_error
from ..traces.reader import ALL_RUNS_HELP
from .config import RunConfigError, load_config
from .engine import (BACKENDS, DEFAULT_MAX_DEGRADED, DEFAULT_MAX_TRUNCATED, RATE_LIMIT_CHOICES, TRACES_FILE, CellStats,
                     RunnerError, RunObserver, RunSummary, run)
from .plan import make_plan
from .summary import COLUMNS as MEASURE_COLUMNS
from .summary import DESCRIPTIONS as MEASURE_DESCRIPTIONS
from .summary import KEPT, add_measures, figures
from .preflight import EXIT_PREFLIGHT, PreflightError, PreflightReport, preflight

__all__ = ["add_subcommands", "EXIT_DEGRADED", "EXIT_TRUNCATED", "EXIT_STORAGE", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

#: ``negotiation-env run`` exit code when more than ``--max-degraded`` of the games were degraded
EXIT_DEGRADED = exitcodes.DEGRADED
#: ``negotiation-env run`` exit code when more than ``--max-truncated`` of the games were cut by the step cap
EXIT_TRUNCATED = exitcodes.TRUNCATED
#: exit codes of a run stopped by a signal (128 + the signal's number, as a shell reports it)
EXIT_INTERRUPTED = exitcodes.INTERRUPTED
EXIT_TERMINATED = exitcodes.TERMINATED


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the run's main thread so that it stops as on SIGINT."""


def _on_sigterm(signum, frame) -> None:
    raise Terminated()


def _err(msg: str) -> int:
    """A usage or input error: printed whole on stderr, exit code 2 (see :func:`print_error`)."""
    return print_error(msg, exitcodes.USAGE)


class _Bars(RunObserver):
    """Progress bars: games, cells and a status line (errors, steps, tokens)."""

    def on_preflight(self, report: PreflightReport) -> None:
        _print_preflight(report, self.console)

    def __init__(self, console: Console):
        self.console = console
        self.progress: Progress | None = None
        self.summary: RunSummary | None = None  # the run's counts so far (games on disk), once it has started

    def on_start(self, plan, summary: RunSummary, todo: int) -> None:
        self.summary = summary
        self.cells_total = len(plan.cells)
        self.cells_done = sum(1 for c in summary.cells.values() if c.games >= c.planned)
        self.steps = 0
        self.tokens = 0
        if summary.already_done:
            self.console.print(f"resuming run {summary.run_id}: {summary.already_done} of {summary.planned} games "
                               f"already in {summary.out_dir}, {todo} to play", highlight=False, markup=False)
        self._problems(summary)
        self.progress = Progress(TextColumn("{task.description:>6}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=self.console, transient=False)
        self.progress.start()
        self.games_task = self.progress.add_task("games", total=summary.planned, completed=summary.already_done,
                                                 info="")
        self.cells_task = self.progress.add_task("cells", total=self.cells_total, completed=self.cells_done, info="")
        self._status(summary)

    def _status(self, summary: RunSummary) -> None:
        assert self.progress is not None
        tok = f" · {self.tokens:,} tokens" if self.tokens else ""
        err = f"[red]{summary.errors} errors[/]" if summary.errors else "0 errors"
        self.progress.update(self.games_task, info=f"{err} · {self.steps:,} steps{tok}")

    def on_game(self, game: dict[str, Any], summary: RunSummary) -> None:
        assert self.progress is not None
        self.steps += game["steps"]
        self.tokens += game["tokens"]
        self.progress.advance(self.games_task)
        c = summary.cells[game["cell"]]
        if c.games == c.planned:
            self.progress.advance(self.cells_task)
        if game["status"] == "error":
            self.progress.console.print(f"[red]game error[/] {escape(str(game['key']))}: {escape(str(game['error']))}",
                                        highlight=False)
        self._status(summary)

    def on_finish(self, summary: RunSummary) -> None:
        if self.progress is not None:
            self.progress.stop()

    def _problems(self, summary: RunSummary) -> None:
        if summary.repaired_bytes:
            self.console.print(f"cut a torn last line ({summary.repaired_bytes} bytes) from the trace file; "
                               "saved to traces.jsonl.torn", highlight=False, markup=False, style="yellow")
        for p in summary.problems:
            self.console.print(f"[yellow]skipped trace line:[/] {escape(str(p))}", highlight=False)
        if summary.duplicates:
            self.console.print(f"{len(summary.duplicates)} duplicate game keys in the trace file "
                               f"(first: {summary.duplicates[0]}); the first record of each counts", highlight=False,
                               markup=False, style="yellow")
        if summary.unexpected:
            self.console.print(f"{len(summary.unexpected)} records are not in this run's plan", highlight=False,
                               markup=False, style="yellow")
        if summary.rejected:
            kinds = ", ".join(f"{n} {k}" for k, n in sorted(summary.rejected.items()))
            self.console.print(f"[yellow]moved {sum(summary.rejected.values())} records out of traces.jsonl "
                               f"({kinds}) to {escape(str(summary.rejected_file))}; their planned games are played again[/]",
                               highlight=False, markup=True)


def _merge(cells: list[CellStats]) -> dict[str, Any]:
    out = {"games": 0, "errors": 0, "truncated": 0, "rounds": 0, "invalid": 0, "steps": 0, "eff": [0.0, 0],
           "opt": [0.0, 0], "ret": {}, "n": 0, "measures": {}}
    for c in cells:
        for k in ("games", "errors", "truncated", "rounds", "invalid", "steps"):
            out[k] += getattr(c, k)
        out["eff"][0] += c._eff[0]
        out["eff"][1] += c._eff[1]
        out["opt"][0] += c._opt[0]
        out["opt"][1] += c._opt[1]
        for a, r in c._returns.items():
            out["ret"][a] = out["ret"].get(a, 0.0) + r
        add_measures(out["measures"], getattr(c, "measures", None) or {})
    return out


def _fmt(x: float | None, pct: bool = False) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}%" if pct else f"{x:.3f}"


def _measure_cell(value: float | None, kind: str) -> str:
    if value is None:
        return "-"
    return str(int(value)) if kind == "int" else _fmt(value, kind == "pct")


def _table(title: str, first: str, groups: dict[str, list[CellStats]], seats: list[str],
           game: str | None = None) -> Table:
    """One row per group: counts, then the game's own measures (:data:`.summary.COLUMNS`;
    efficiency and optimal-round share for a game without an entry), returns, invalid.
    Names are user text (policy labels, condition names): shown as plain text, never markup."""
    own = MEASURE_COLUMNS.get(game or "")
    t = Table(title=escape(title))
    t.add_column(escape(first), overflow="fold")
    for col in ("games", "errors", "rounds") + (() if own else ("efficiency", "optimal")):
        t.add_column(col, justify="right")
    for header, _, _ in own or []:
        t.add_column(header, justify="right")
    per_seat = 0 < len(seats) <= 3
    for a in seats if per_seat else ["mean return"]:
        t.add_column(escape(f"return {a}" if per_seat else a), justify="right")
    t.add_column("invalid", justify="right")
    for name, cells in groups.items():
        m = _merge(cells)
        eff = m["eff"][0] / m["eff"][1] if m["eff"][1] else None
        opt = m["opt"][0] / m["opt"][1] if m["opt"][1] else None
        g = m["games"]
        if per_seat:
            rets = [f"{m['ret'].get(a, 0.0) / g:.2f}" if g else "-" for a in seats]
        else:
            rets = [f"{sum(m['ret'].values()) / g / max(1, len(m['ret'])):.2f}" if g else "-"]
        err = str(m["errors"]) + (f" (+{m['truncated']} trunc.)" if m["truncated"] else "")
        if own:
            f = figures(game or "", m["measures"])
            middle = [_measure_cell(f.get(key), kind) for _, key, kind in own]
        else:
            middle = [_fmt(eff), _fmt(opt, True)]
        t.add_row(Text(name), str(g), err, str(m["rounds"]), *middle, *rets, str(m["invalid"]))
    return t


def _measure_note(game: str, cells: list[CellStats]) -> str | None:
    """The line under a game's table: what its own columns are and which games they count."""
    if game not in MEASURE_COLUMNS:
        return None
    f = figures(game, _merge(cells)["measures"])
    what = MEASURE_DESCRIPTIONS[game]
    left = int(f["games"] or 0) - int(f["kept"] or 0)
    counted = f"; counted over {KEPT[game]}" + (f": {left} of {int(f['games'] or 0)} games left out" if left else "")
    return f"{game}: {what}{counted}"


def print_summary(summary: RunSummary, console: Console) -> None:
    """Two tables (by pairing, by condition and scenario set) and a closing line."""
    played = [c for c in summary.cells.values() if c.games]
    games = sorted({c.game for c in played if c.game})
    for game in games:
        cells = [c for c in played if c.game == game]
        seats = cells[0].agents if all(c.agents == cells[0].agents for c in cells) else []
        by_pair: dict[str, list[CellStats]] = {}
        by_cond: dict[str, list[CellStats]] = {}
        # rows by the games' own seating (a swap_seats cell holds both seat orders), so a
        # row's return per seat is one policy's
        for c in summary.seatings.values():
            if c.games and c.game == game:
                by_pair.setdefault(" vs ".join(c.lineup), []).append(c)
        for c in cells:
            by_cond.setdefault(f"{c.condition} · {c.scenario_set}", []).append(c)
        console.print(_table(f"{game}: by pairing (seat order)", "lineup", by_pair, seats, game))
        console.print(_table(f"{game}: by condition and scenario set", "condition · set", by_cond, seats, game))
        note = _measure_note(game, cells)
        if note:
            console.print(note, highlight=False, markup=False)
    state = "complete" if summary.complete else f"[red]{summary.missing} games missing[/]"
    console.print(f"run {escape(str(summary.run_id))}: {summary.already_done + summary.played}/{summary.planned} "
                  f"games ({state}); played {summary.played} now in {summary.seconds:.1f} s, {summary.errors} with "
                  f"errors; traces in {escape(str(summary.out_dir / 'traces.jsonl'))}", highlight=False)
    if summary.faults or summary.degraded:
        console.print(f"model calls: {summary.faults} faults recorded; {summary.degraded} games degraded (a call ran "
                      "out of retries and the env scored a fallback; marked meta.model_calls.degraded, left out "
                      "of `negotiation-env report`)", highlight=False, markup=False)
    if summary.truncated:
        colour = "red" if summary.too_truncated else "yellow"
        verdict = (f"more than --max-truncated {summary.max_truncated:g}: run failed" if summary.too_truncated
                   else f"within --max-truncated {summary.max_truncated:g}")
        console.print(f"[{colour}]{summary.truncated} of {summary.games} games "
                      f"({100 * summary.truncated_fraction:.1f}%) were cut by the step cap (max_steps; status "
                      f"truncated), {verdict}[/]", highlight=False)
    if summary.too_degraded:
        console.print(f"[red]run failed: {summary.degraded} of {summary.games} games "
                      f"({100 * summary.degraded_fraction:.1f}%) were degraded, more than --max-degraded "
                      f"{summary.max_degraded:g}; rerun with --resume --retry-errors once the model answers[/]",
                      highlight=False)


#: ``negotiation-env run`` exit codes (the run subcommand's --help lists them)
RUN_EXIT_CODES = (
    (exitcodes.OK, "every planned game is in the trace file and none ended in error"),
    (exitcodes.NOTHING, "the run finished, but some games ended in error or are missing"),
    (exitcodes.USAGE, "bad config or usage (every problem of the config listed, an unknown scripted policy or "
                      "option included), or an output folder that cannot be used (the message says which)"),
    (EXIT_PREFLIGHT, "preflight failed: a model could not be built or loaded (missing extra, unreadable model "
                     "path) or did not answer the probe; nothing was played"),
    (EXIT_DEGRADED, "more than --max-degraded of the games were degraded (a model call ran out of retries)"),
    (EXIT_STORAGE, "could not write: disk full, read-only folder or no permission (the message names the path); "
                   "the games already on disk are kept (rerun with --resume once it is fixed)"),
    (EXIT_TRUNCATED, "more than --max-truncated of the games were cut by the step cap (max_steps)"),
    (EXIT_INTERRUPTED, "interrupted (SIGINT, Ctrl-C); every finished game is saved (rerun with --resume)"),
    (EXIT_TERMINATED, "terminated (SIGTERM); every finished game is saved (rerun with --resume)"),
)
RUN_EPILOG = exitcodes.epilog(RUN_EXIT_CODES)

#: ``negotiation-env export`` exit codes (its --help lists them)
EXPORT_EXIT_CODES = (
    exitcodes.OK,
    (exitcodes.NOTHING, "the filters select nothing (the message says which filter left what out; nothing is "
                        "written)"),
    (exitcodes.USAGE, "usage error, a missing source, a folder that is not a run (no traces.jsonl), or an --out "
                      "that exists (pass --force to replace it)"),
    (exitcodes.STORAGE, "could not read the source or write --out (the message names the path); no partial file "
                        "is left and an existing one is left as it was"),
)


_fail = print_error


def _print_preflight(report: PreflightReport, console: Console, every: bool = False) -> None:
    """What preflight did: a line per model-backed policy (``every``: per policy) and, with
    ``every``, a closing count."""
    for c, line in zip(report.checks, report.lines()):
        if every or c.probe is not None or c.note or c.entry.kind in ("hf", "openai"):
            console.print(f"preflight: {line}", highlight=False, markup=False)
    if every:
        n, probed = len(report.checks), len(report.probed)
        end = (f"{probed} models answered the probe" if report.probe
               else "no model was called (--probe calls each once)")
        console.print(f"preflight: {n} {'policy' if n == 1 else 'policies'} built; {end}", highlight=False,
                      markup=False)


def _run(args: argparse.Namespace, console: Console) -> int:
    bars = _Bars(console)
    try:
        config = load_config(args.config)
        if args.plan:
            plan = make_plan(config)
            console.print(f"run {plan.run_id} ({config.name}): {len(plan)} games in {len(plan.cells)} cells",
                          highlight=False)
            t = Table(title="Planned cells")
            t.add_column("cell")
            t.add_column("games", justify="right")
            for cell, n in plan.cell_games().items():
                t.add_row(cell, str(n))
            console.print(t)
            # the run's checks: build every policy (load its model); call it only with --probe
            _print_preflight(preflight(plan, probe=bool(args.probe)), console, every=True)
            return 0
        # SIGTERM (a scheduler, `kill`, a container stop) stops the run as Ctrl-C does
        main_thread = threading.current_thread() is threading.main_thread()  # only there can a handler be set
        previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
        try:
            summary = run(config, args.out, resume=args.resume, backend=args.backend, workers=args.workers,
                          observer=bars, batch_games=args.batch_games, retry_errors=args.retry_errors,
                          max_degraded=args.max_degraded, probe=args.probe is not False,
                          max_truncated=args.max_truncated, on_rate_limit=args.on_rate_limit)
        finally:
            if main_thread:
                signal.signal(signal.SIGTERM, previous)
            bars.on_finish(None)  # type: ignore[arg-type]
    except PreflightError as e:  # before RunnerError, its base
        return _fail(str(e), e.exit_code)
    except RunConfigError as e:
        return _err(str(e))
    except RunnerError as e:
        return _err(str(e))
    except KeyboardInterrupt as e:
        how = "terminated (SIGTERM)" if isinstance(e, Terminated) else "interrupted"
        _plain(Console(stderr=True), f"{how}: {_kept(args.out, bars.summary)}; rerun with --resume to go on",
               style="yellow")
        return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED
    except OSError as e:
        return _fail(f"could not write {describe_os_error(e, args.out)}; {_kept(args.out, bars.summary)}: free "
                     "space or fix the folder's permissions, then rerun with --resume to go on", EXIT_STORAGE)
    print_summary(summary, console)
    if summary.too_degraded:
        return EXIT_DEGRADED
    if summary.too_truncated:
        return EXIT_TRUNCATED
    return 0 if summary.complete and summary.errors == 0 else 1


def _kept(out: str, summary: RunSummary | None) -> str:
    """What a stopped run leaves: the games in its trace file (its whole lines, read from
    the file: a game written just as the run stopped counts), of the planned ones once
    the run had started."""
    traces = f"{out}/{TRACES_FILE}"
    if summary is None:
        return f"the games already in {traces} are kept"
    try:
        with open(traces, "rb") as f:
            on_disk = sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))
    except OSError:
        return f"the games already in {traces} are kept"
    return (f"{on_disk} of {summary.planned} planned games are in {traces} and kept, "
            f"{max(0, summary.planned - on_disk)} to play")


#: ``negotiation-env export`` exit code when the filters select nothing (2 stays for usage errors)
EXIT_NOTHING_SELECTED = exitcodes.NOTHING

#: how export messages name the library's filters
_FILTER_FLAGS = {"games": "--game", "policies": "--policy", "agents": "--agent", "phases": "phases",
                 "only_optimal": "--only-optimal", "min_efficiency": "--min-efficiency",
                 "valid_only": "refused steps (kept with --include-invalid)",
                 "context": "steps without a recorded context"}


def _plain(console: Console, text: str, style: str | None = None) -> None:
    """Print ``text`` as it is: no rich markup (a ``[api]`` or ``[1, 2]`` stays), no highlighting."""
    console.print(text, markup=False, highlight=False, style=style, soft_wrap=True)


def _nothing(console: Console, what: str) -> int:
    _plain(Console(stderr=True), f"error: {what}", style="red")
    return EXIT_NOTHING_SELECTED


def _could_not_write(e: OSError, out: str, left: str = "nothing partial is left there; an existing file of that "
                                                      "name is left as it was", source: str | None = None) -> int:
    """An export the disk refused (full, read-only, no permission), or a read of its
    source: one sentence, exit code 5."""
    if failed_verb(e, source, out) == "read":
        return _fail(f"could not read {describe_os_error(e)}; nothing was written: check the file's permissions",
                     EXIT_STORAGE)
    return _fail(f"could not write {describe_os_error(e, out)}; {left}: free space or choose a writable --out",
                 EXIT_STORAGE)


def _export(args: argparse.Namespace, console: Console) -> int:
    from ..traces import export as ex
    from ..traces.reader import LineProblem, TraceSource

    if args.kind == "minari":
        return _export_minari(args, console)
    problems: list[LineProblem] = []
    selection = ex.Selection()
    opts: dict[str, Any] = {"problems": problems, "selection": selection, "games": args.game or None}
    if args.kind in ("sft", "sft_prompt_completion"):
        opts.update(only_optimal=args.only_optimal, min_efficiency=args.min_efficiency,
                    valid_only=not args.include_invalid, policies=args.policy or None, agents=args.agent or None)
    else:
        wrong = [f for f, v in (("--only-optimal", args.only_optimal), ("--min-efficiency", args.min_efficiency),
                                ("--policy", args.policy), ("--agent", args.agent),
                                ("--include-invalid", args.include_invalid)) if v]
        if wrong:
            return _err(f"{', '.join(wrong)} apply to --kind sft and sft_prompt_completion only")
        if args.kind == "preferences":
            opts.update(score=args.score, margin=args.margin, state=args.state)
    problem = source_problem(args.source)
    if problem:
        return _err(problem)
    if os.path.lexists(args.out) and not args.force:
        return _err(exists_message(args.out))
    nothing = f"nothing was written to {args.out} (an existing file there is left as it was)"
    try:
        source = TraceSource(args.source, runs="all", problems=problems) if args.all_runs else args.source
        n = ex.write(args.kind, source, args.out, keep_empty=False, **opts)
    except FileNotFoundError as e:
        if e.filename is not None and Path(os.fsdecode(e.filename)).resolve() != Path(args.source).resolve():
            return _could_not_write(e, args.out, source=args.source)  # a folder of --out vanished while writing
        return _err(str(e))
    except ex.FilterError as e:
        flag = _FILTER_FLAGS.get(e.field, e.field)
        held = ", ".join(e.available) or "none"
        return _nothing(console, f"{flag} {', '.join(e.unknown)}: not in the source, which holds {held}; {nothing}")
    except ValueError as e:
        return _err(str(e))
    except OSError as e:
        return _could_not_write(e, args.out, source=args.source)
    for p in problems:
        _plain(console, f"skipped trace line: {p}", style="yellow")
    if n == 0:
        return _nothing(console, f"no {args.kind} rows selected: {selection.explain(_FILTER_FLAGS)}; {nothing}")
    _plain(console, f"wrote {n} {args.kind} rows to {args.out}")
    return 0


def _export_minari(args: argparse.Namespace, console: Console) -> int:
    import warnings

    from ..traces.minari_export import (MinariEmptyError, MinariExistsError, MinariExportError, MinariFilterError,
                                        dataset_id, to_minari)
    from ..traces.reader import LineProblem, TraceSource

    wrong = [f for f, v in (("--only-optimal", args.only_optimal), ("--min-efficiency", args.min_efficiency),
                            ("--policy", args.policy), ("--include-invalid", args.include_invalid)) if v]
    if wrong:
        return _err(f"{', '.join(wrong)} do not apply to --kind minari")
    problem = source_problem(args.source)
    if problem:
        return _err(problem)
    made, notes = {}, []
    problems: list[LineProblem] = []
    source = TraceSource(args.source, runs="all" if args.all_runs else None, problems=problems)
    try:
        with warnings.catch_warnings():  # Minari warns about every metadata field left unset
            warnings.simplefilter("ignore", UserWarning)
            for game in args.game or [None]:
                made.update({(game, a): ds for a, ds in to_minari(source, root=args.out, prefix=args.prefix,
                                                                   agents=args.agent or None, game=game,
                                                                   notes=notes, replace=args.force).items()})
    except MinariExistsError as e:
        written = f" (the {len(made)} datasets of the games before it were written)" if made else ""
        return _err(exists_message(e.paths[0], written))
    except (MinariFilterError, MinariEmptyError) as e:
        written = f"; the {len(made)} datasets of the games before it were written" if made else ""
        return _nothing(console, f"no Minari dataset written: {e}{written}")
    except (MinariExportError, FileNotFoundError, ValueError) as e:
        return _err(str(e))
    except OSError as e:
        written = f" (the {len(made)} datasets written before it are whole)" if made else ""
        return _could_not_write(e, args.out, f"the dataset being written was removed{written}", args.source)
    for p in problems:
        _plain(console, f"skipped trace line: {p}", style="yellow")
    for (_game, agent), ds in made.items():
        _plain(console, f"{ds.spec.dataset_id}: {ds.total_episodes} episodes, {ds.total_steps} steps (seat {agent})")
    for note in notes:
        _plain(console, note, style="yellow")
    _plain(console, f"wrote {len(made)} Minari datasets under {args.out}; load with MINARI_DATASETS_PATH={args.out} "
                    f"minari.load_dataset({dataset_id(args.prefix, '<game>', '<agent>')!r}); "
                    "dataset.recover_environment() rebuilds the seat's env where an env spec was stored")
    return 0


def add_subcommands(sub: argparse._SubParsersAction) -> None:
    """Register ``run`` and ``export`` on the ``negotiation-env`` parser."""
    r = sub.add_parser("run", help="play a tournament from a run config into append-only traces",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=RUN_EPILOG,
                       description=textwrap.fill(
                           "Play every planned game of CONFIG (TOML or YAML; default: the shipped scripted resource "
                           "cohort, 720 games) and append each finished game to DIR/traces.jsonl. With --resume, "
                           "rerunning into the same DIR plays only the missing games. Before the first game every "
                           "policy is built once and every model (hf:, openai:) makes one short call; if one "
                           "cannot be built or does not answer, nothing is played (exit code 3; an unknown policy "
                           "name or option in the config: 2).", 88))
    r.add_argument("config", nargs="?", default=None, help="run config file (.toml, .yaml); default: built-in")
    r.add_argument("--out", required=False, help="output folder (run.json, traces.jsonl)")
    r.add_argument("--resume", action="store_true", help="continue the run in --out, playing only missing games")
    r.add_argument("--backend", choices=BACKENDS, default="local", help="local processes (default) or ray")
    r.add_argument("--workers", type=int, default=1, help="parallel games (processes or Ray CPUs); default 1")
    r.add_argument("--batch-games", type=int, default=1, metavar="N",
                   help="play N games in lock-step in one process, batching model calls across them "
                        "(hf:/openai: policies); needs --workers 1; default 1")
    r.add_argument("--plan", action="store_true",
                   help="validate the config, list its cells and build every policy (unknown names and options "
                        "fail with exit code 2; missing extras and model paths with 3); play nothing and call no "
                        "model unless --probe")
    r.add_argument("--probe", action=argparse.BooleanOptionalAction, default=None,
                   help="before the first game, make one short call to every model (one token for hf:, one "
                        "request with a short connect timeout for openai:) and stop with exit code 3 if one does "
                        "not answer; default: on for a run, off with --plan")
    r.add_argument("--retry-errors", action="store_true",
                   help="with --resume: play again the games that ended in error or were degraded (their old "
                        "records move to traces.jsonl.rejected)")
    r.add_argument("--max-degraded", type=float, default=DEFAULT_MAX_DEGRADED, metavar="FRACTION",
                   help="share of games that may be degraded (a model call ran out of retries) before the run "
                        f"fails with exit code 4; default {DEFAULT_MAX_DEGRADED}")
    r.add_argument("--max-truncated", type=float, default=DEFAULT_MAX_TRUNCATED, metavar="FRACTION",
                   help="share of games that may be cut by the step cap (max_steps) before the run fails with "
                        f"exit code {EXIT_TRUNCATED}; 0: any cut game fails the run; default {DEFAULT_MAX_TRUNCATED}")
    r.add_argument("--on-rate-limit", choices=RATE_LIMIT_CHOICES, default="wait",
                   help="when a model's server answers the probe with HTTP 429: wait (default: play on, each call "
                        "waiting as the server asks within its call_budget) or stop (exit code 3)")
    r.set_defaults(func=lambda a, c: _run(a, c) if a.plan or a.out else _err("--out DIR is required"))
    e = sub.add_parser("export", help="export traces to Parquet/JSONL for offline RL or fine-tuning",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=exitcodes.epilog(EXPORT_EXIT_CODES),
                       description=textwrap.fill(
                           "Export a run folder or trace file as a transitions table (offline RL), SFT chat "
                           "examples (TRL conversational format: messages, or prompt-completion), preference "
                           "pairs (DPO) or Minari datasets. An existing --out (a file, or a Minari dataset of the "
                           "same id) is refused unless --force.", 88))
    e.add_argument("source", help="run folder or .jsonl trace file")
    e.add_argument("--kind", required=True, choices=("transitions", "sft", "sft_prompt_completion", "preferences",
                                                     "minari"),
                   help="sft: {messages} rows; sft_prompt_completion: {prompt, completion} rows, which TRL's "
                        "SFTTrainer trains on the completion only")
    e.add_argument("--out", required=True, help="output file: .parquet or .jsonl (minari: the datasets root folder)")
    e.add_argument("--force", action="store_true",
                   help="replace an existing --out file (minari: existing datasets of the same ids); the new one "
                        "is written under a temporary name and renamed when whole")
    e.add_argument("--game", action="append",
                   help="only traces of this game (repeatable; every kind; minari: one dataset set per game)")
    e.add_argument("--all-runs", action="store_true", help=ALL_RUNS_HELP)
    e.add_argument("--prefix", default="negotiation", help="minari: dataset namespace (default negotiation)")
    e.add_argument("--only-optimal", action="store_true", help="sft kinds: only turns of jointly optimal rounds")
    e.add_argument("--min-efficiency", type=float, default=None,
                   help="sft kinds: only rounds at or above this efficiency")
    e.add_argument("--policy", action="append", help="sft kinds: only turns of this policy label (repeatable)")
    e.add_argument("--agent", action="append", help="sft kinds, minari: only this seat (repeatable)")
    e.add_argument("--include-invalid", action="store_true", help="sft kinds: keep refused responses too")
    e.add_argument("--score", default="reward", choices=("reward", "joint", "efficiency", "return"),
                   help="preferences: the outcome that ranks answers (default: the agent's round reward)")
    e.add_argument("--margin", type=float, default=0.0, help="preferences: minimum score gap (default 0)")
    e.add_argument("--state", default="context", choices=("context", "prompt"),
                   help="preferences: what makes two decision states the same (default: the full context)")
    e.set_defaults(func=_export)
