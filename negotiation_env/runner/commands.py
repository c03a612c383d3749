"""The ``run`` and ``export`` subcommands of ``negotiation-env`` (the CLI layer: the only
part of the runner that draws on the terminal, with rich).

    negotiation-env run [CONFIG] --out DIR [--resume] [--backend local|ray] [--workers N] [--concurrency N] [--threads N] [--batch-games N] [--plan]
    negotiation-env export DIR --kind transitions|sft|sft_prompt_completion|preferences --out FILE [--game G] [filters]
    negotiation-env export DIR --kind minari --out ROOT [--game G] [--prefix P] [--agent A]
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .. import exitcodes
from ..console import add_format_argument, print_error, print_json, print_table, print_text, resolve_format
from ..core.threads import configure_threads
from ..exitcodes import exists_message, source_problem
from ..storage import EXIT_STORAGE, failure_message, describe as describe_os_error
from ..traces.reader import ALL_RUNS_HELP
from .config import RunConfigError, load_config
from .engine import (BACKENDS, DEFAULT_MAX_DEGRADED, DEFAULT_MAX_TRUNCATED, RATE_LIMIT_CHOICES, TRACES_FILE, CellStats,
                     RunnerError, RunObserver, RunSummary, default_concurrency, run)
from .plan import make_plan
from .summary import COLUMNS as MEASURE_COLUMNS
from .summary import DESCRIPTIONS as MEASURE_DESCRIPTIONS
from .summary import KEPT, add_measures, figures
from .preflight import EXIT_PREFLIGHT, PreflightError, PreflightReport, preflight

__all__ = ["add_subcommands", "summary_tables", "EXIT_DEGRADED", "EXIT_TRUNCATED", "EXIT_STORAGE", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

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
    """Progress bars: games, cells and a status line (errors, steps, tokens), drawn on
    stderr (stdout holds the results only, so ``--format json`` output parses); the run's
    messages (preflight, resuming, skipped lines) go to ``console``."""

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
                                 console=Console(stderr=True), transient=False)
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


def _group_figures(cells: list[CellStats], seats: list[str], game: str | None) -> dict[str, Any]:
    """One summary row's figures, unrounded: counts, the game's own measures
    (:data:`.summary.COLUMNS`, keyed by their headers; efficiency and optimal-round share
    for a game without an entry), mean return per seat (or over seats), invalid actions."""
    m = _merge(cells)
    g = m["games"]
    row: dict[str, Any] = {"games": g, "errors": m["errors"], "truncated": m["truncated"], "rounds": m["rounds"]}
    own = MEASURE_COLUMNS.get(game or "")
    if own:
        f = figures(game or "", m["measures"])
        for header, key, kind in own:
            v = f.get(key)
            row[header] = int(v) if kind == "int" and v is not None else v
    else:
        row["efficiency"] = m["eff"][0] / m["eff"][1] if m["eff"][1] else None
        row["optimal"] = m["opt"][0] / m["opt"][1] if m["opt"][1] else None
    if 0 < len(seats) <= 3:
        row["returns"] = {a: m["ret"].get(a, 0.0) / g if g else None for a in seats}
    else:
        row["mean return"] = sum(m["ret"].values()) / g / max(1, len(m["ret"])) if g else None
    row["invalid"] = m["invalid"]
    return row


def _table_columns(seats: list[str], game: str | None) -> list[str]:
    own = MEASURE_COLUMNS.get(game or "")
    per_seat = 0 < len(seats) <= 3
    return (["games", "errors", "rounds"] + ([h for h, _, _ in own] if own else ["efficiency", "optimal"])
            + ([f"return {a}" for a in seats] if per_seat else ["mean return"]) + ["invalid"])


def _row_text(row: dict[str, Any], seats: list[str], game: str | None) -> list[str]:
    """A row of :func:`_group_figures` as the table prints it."""
    own = MEASURE_COLUMNS.get(game or "")
    err = str(row["errors"]) + (f" (+{row['truncated']} trunc.)" if row["truncated"] else "")
    if own:
        middle = [_measure_cell(row[h], kind) for h, _, kind in own]
    else:
        middle = [_fmt(row["efficiency"]), _fmt(row["optimal"], True)]
    if "returns" in row:
        rets = ["-" if row["returns"][a] is None else f"{row['returns'][a]:.2f}" for a in seats]
    else:
        rets = ["-" if row["mean return"] is None else f"{row['mean return']:.2f}"]
    return [str(row["games"]), err, str(row["rounds"]), *middle, *rets, str(row["invalid"])]


def _measure_note(game: str, cells: list[CellStats]) -> str | None:
    """The line under a game's table: what its own columns are and which games they count."""
    if game not in MEASURE_COLUMNS:
        return None
    f = figures(game, _merge(cells)["measures"])
    what = MEASURE_DESCRIPTIONS[game]
    left = int(f["games"] or 0) - int(f["kept"] or 0)
    counted = f"; counted over {KEPT[game]}" + (f": {left} of {int(f['games'] or 0)} games left out" if left else "")
    return f"{game}: {what}{counted}"


def _game_groups(summary: RunSummary, game: str) -> tuple[list[str], dict[str, list[CellStats]],
                                                          dict[str, list[CellStats]], list[CellStats]]:
    """A game's seats and its cells grouped by lineup (the games' own seating: a
    swap_seats cell holds both seat orders, so a row's return per seat is one policy's)
    and by condition and scenario set."""
    cells = [c for c in summary.cells.values() if c.games and c.game == game]
    seats = cells[0].agents if all(c.agents == cells[0].agents for c in cells) else []
    by_pair: dict[str, list[CellStats]] = {}
    by_cond: dict[str, list[CellStats]] = {}
    for c in summary.seatings.values():
        if c.games and c.game == game:
            by_pair.setdefault(" vs ".join(c.lineup), []).append(c)
    for c in cells:
        by_cond.setdefault(f"{c.condition} · {c.scenario_set}", []).append(c)
    return list(seats), by_pair, by_cond, cells


def _summary_games(summary: RunSummary) -> list[str]:
    return sorted({c.game for c in summary.cells.values() if c.games and c.game})


def exit_status(summary: RunSummary) -> int:
    """``negotiation-env run``'s exit code for a finished run (:data:`RUN_EXIT_CODES`)."""
    if summary.too_degraded:
        return EXIT_DEGRADED
    if summary.too_truncated:
        return EXIT_TRUNCATED
    return 0 if summary.complete and summary.errors == 0 else 1


def summary_document(summary: RunSummary) -> dict[str, Any]:
    """The run summary as data (what ``run --format json`` prints): the run's counts and
    outcome, and per game the rows of both tables with unrounded figures (shares as
    fractions, returns as means per game)."""
    games: dict[str, Any] = {}
    for game in _summary_games(summary):
        seats, by_pair, by_cond, cells = _game_groups(summary, game)
        games[game] = {
            "seats": seats,
            "by_pairing": [{"lineup": k, **_group_figures(v, seats, game)} for k, v in by_pair.items()],
            "by_condition": [{"condition · set": k, **_group_figures(v, seats, game)} for k, v in by_cond.items()],
            "note": _measure_note(game, cells)}
    return {
        "run_id": summary.run_id, "out_dir": summary.out_dir, "traces": summary.out_dir / TRACES_FILE,
        "planned": summary.planned, "games": summary.already_done + summary.played,
        "already_done": summary.already_done, "played": summary.played, "missing": summary.missing,
        "complete": summary.complete, "errors": summary.errors, "seconds": summary.seconds,
        "faults": summary.faults, "degraded": summary.degraded, "degraded_fraction": summary.degraded_fraction,
        "max_degraded": summary.max_degraded, "too_degraded": summary.too_degraded,
        "truncated": summary.truncated, "truncated_fraction": summary.truncated_fraction,
        "max_truncated": summary.max_truncated, "too_truncated": summary.too_truncated,
        "exit_status": exit_status(summary), "tables": games}


def summary_tables(summary: RunSummary) -> list[dict[str, Any]]:
    """The summary tables as :func:`print_summary` prints them, per game that has games:
    ``{"game", "tables": [{"title", "columns", "rows"}], "note"}``, the two tables (by
    pairing in seat order, by condition and scenario set) with their cells as printed
    text and the note on the game's own measures (None for a game without them). The run
    watcher (:mod:`negotiation_env.serve.watch`) shows the same tables live."""
    out = []
    for game in _summary_games(summary):
        seats, by_pair, by_cond, cells = _game_groups(summary, game)
        columns = _table_columns(seats, game)
        tables = []
        for title, first, groups in ((f"{game}: by pairing (seat order)", "lineup", by_pair),
                                     (f"{game}: by condition and scenario set", "condition · set", by_cond)):
            rows = [[name, *_row_text(_group_figures(g, seats, game), seats, game)] for name, g in groups.items()]
            tables.append({"title": title, "columns": [first, *columns], "rows": rows})
        out.append({"game": game, "tables": tables, "note": _measure_note(game, cells)})
    return out


def print_summary(summary: RunSummary, console: Console, fmt: str | None = None) -> None:
    """Per game two tables (by pairing in seat order, by condition and scenario set) and
    a note on its own measures, then the closing lines; ``fmt``: table, markdown or json
    (:func:`negotiation_env.console.print_table`; default by whether the console is a
    terminal)."""
    fmt = resolve_format(fmt, console)
    if fmt == "json":
        print_json(console, summary_document(summary))
        return
    for game in summary_tables(summary):
        for table in game["tables"]:
            justify = ["left"] + ["right"] * (len(table["columns"]) - 1)
            print_table(console, table["title"], table["columns"], table["rows"], fmt, justify=justify)
        if game["note"]:
            print_text(console, game["note"], fmt)
    state = "complete" if summary.complete else f"{summary.missing} games missing"
    print_text(console, f"run {summary.run_id}: {summary.already_done + summary.played}/{summary.planned} games "
                        f"({state}); played {summary.played} now in {summary.seconds:.1f} s, {summary.errors} with "
                        f"errors; traces in {summary.out_dir / TRACES_FILE}", fmt,
               style=None if summary.complete else "red")
    if summary.faults or summary.degraded:
        print_text(console, f"model calls: {summary.faults} faults recorded; {summary.degraded} games degraded (a "
                            "call ran out of retries and the env scored a fallback; marked "
                            "meta.model_calls.degraded, left out of `negotiation-env report`)", fmt)
    if summary.truncated:
        verdict = (f"more than --max-truncated {summary.max_truncated:g}: run failed" if summary.too_truncated
                   else f"within --max-truncated {summary.max_truncated:g}")
        print_text(console, f"{summary.truncated} of {summary.games} games ({100 * summary.truncated_fraction:.1f}%) "
                            f"were cut by the step cap (max_steps; status truncated), {verdict}", fmt,
                   style="red" if summary.too_truncated else "yellow")
    if summary.too_degraded:
        print_text(console, f"run failed: {summary.degraded} of {summary.games} games "
                            f"({100 * summary.degraded_fraction:.1f}%) were degraded, more than --max-degraded "
                            f"{summary.max_degraded:g}; rerun with --resume --retry-errors once the model answers",
                   fmt, style="red")


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


def _serve_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the ``--serve`` flags, if anything."""
    if not args.serve:
        given = [f for f, v in (("--port", args.port is not None), ("--serve-host", args.serve_host is not None),
                                ("--serve-linger", args.serve_linger is not None)) if v]
        return f"{', '.join(given)} apply with --serve only" if given else None
    if args.plan:
        return "--serve watches a run as it is played; --plan plays nothing"
    if args.port is not None and not 0 <= args.port <= 65535:
        return f"--port must be in 0..65535 (0: any free port); got {args.port}"
    if args.serve_linger is not None and not 0 <= args.serve_linger <= 86400:
        return f"--serve-linger must be a number of seconds in [0, 86400]; got {args.serve_linger:g}"
    return None


def _start_watch(args: argparse.Namespace, messages: Console) -> Any:
    """Start the watch server of ``--serve`` (:class:`negotiation_env.serve.watch.WatchServer`)
    and print its link. Another interface than loopback (``--serve-host``) gets a fresh
    random token, which the link carries and every request must present."""
    import secrets

    from ..serve import is_loopback

    try:
        from ..serve.watch import WatchServer
    except ImportError as e:
        raise RunnerError(f"--serve needs Starlette and uvicorn: pip install 'negotiation_env[serve]' ({e})") from None
    host = args.serve_host or "127.0.0.1"
    token = None if is_loopback(host) else secrets.token_urlsafe(24)
    port = DEFAULT_WATCH_PORT if args.port is None else args.port
    try:
        server = WatchServer(args.out, host=host, port=port, token=token).start()
    except OSError as e:
        raise RunnerError(f"--serve could not listen on {host}:{port}: {e.strerror or e} (choose another --port; "
                          "--port 0 takes any free one)") from None
    except RuntimeError as e:
        raise RunnerError(f"--serve: the watch server on {host}:{port} did not start ({e})") from None
    note = "" if token is None else " (the link carries its access token: share it only with who may watch)"
    if host in ("0.0.0.0", "::", ""):
        note += "; from another machine, put this machine's address in the link"
    _plain(messages, f"watching the run at {server.url}{note}")
    return server


def _stop_watch(server: Any, linger: float | None, messages: Console) -> None:
    """After the run: keep serving ``linger`` seconds (the page shows the run as over), then stop."""
    import time

    server.watch.end()
    if linger:
        _plain(messages, f"the run has ended; the watch page stays at {server.url} for {linger:g} s (Ctrl-C stops it)")
        try:
            time.sleep(linger)
        except KeyboardInterrupt:
            pass
    server.stop()
    _plain(messages, f"the watch server at {server.url} has stopped")


def _run(args: argparse.Namespace, console: Console) -> int:
    fmt = resolve_format(args.format, console)
    if (problem := _serve_problem(args)) is not None:
        return _err(problem)
    # with --format json stdout holds the one document; every message goes to stderr
    messages = Console(stderr=True) if fmt == "json" else console
    bars = _Bars(messages)
    try:
        config = load_config(args.config)
        try:  # before any worker starts: each one's torch reads the thread variables
            configure_threads(args.threads, args.workers, any(p.kind == "hf" for b in config.games for p in b.policies))
        except ValueError as e:
            return _err(str(e))
        if args.plan:
            plan = make_plan(config)
            cells = plan.cell_games()
            # the run's checks: build every policy (load its model); call it only with --probe
            concurrency = args.concurrency if args.concurrency is not None else default_concurrency(plan, args.batch_games)
            checks = preflight(plan, probe=bool(args.probe), concurrency=concurrency)
            if fmt == "json":
                _print_preflight(checks, messages, every=True)
                print_json(console, {"run_id": plan.run_id, "name": config.name, "planned": len(plan),
                                     "cells": [{"cell": c, "games": n} for c, n in cells.items()]})
                return 0
            print_text(console, f"run {plan.run_id} ({config.name}): {len(plan)} games in {len(plan.cells)} cells",
                       fmt)
            print_table(console, "Planned cells", ["cell", "games"], [[c, str(n)] for c, n in cells.items()], fmt,
                        justify=["left", "right"])
            _print_preflight(checks, console, every=True)
            return 0
        server = _start_watch(args, messages) if args.serve else None
        # SIGTERM (a scheduler, `kill`, a container stop) stops the run as Ctrl-C does
        main_thread = threading.current_thread() is threading.main_thread()  # only there can a handler be set
        previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
        try:
            summary = run(config, args.out, resume=args.resume, backend=args.backend, workers=args.workers,
                          observer=bars, batch_games=args.batch_games, retry_errors=args.retry_errors,
                          max_degraded=args.max_degraded, probe=args.probe is not False,
                          max_truncated=args.max_truncated, on_rate_limit=args.on_rate_limit,
                          concurrency=args.concurrency)
        finally:
            bars.on_finish(None)  # type: ignore[arg-type]
            try:
                if server is not None:  # no lingering after an error or Ctrl-C
                    _stop_watch(server, args.serve_linger if sys.exc_info()[0] is None else 0, messages)
            finally:
                if main_thread:
                    signal.signal(signal.SIGTERM, previous)
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
    print_summary(summary, console, fmt)
    return exit_status(summary)


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


#: the port of ``run --serve`` unless ``--port`` says otherwise
DEFAULT_WATCH_PORT = 8765

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
    return _fail(failure_message(e, source, out, left), EXIT_STORAGE)


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
    r.add_argument("--concurrency", type=int, default=None, metavar="N",
                   help="games played at once per process (threads), so up to N model calls are in flight; a "
                        "game goes on as soon as its own answer arrives; default 16 when a seat is an openai: "
                        "policy, else 1 (see the Runner page on sizing it for a server)")
    r.add_argument("--threads", type=int, default=None, metavar="N",
                   help="torch CPU threads per process for hf: policies (also OMP_NUM_THREADS and "
                        "MKL_NUM_THREADS of the worker processes); default: torch's own, one per CPU")
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
    r.add_argument("--serve", action="store_true",
                   help="watch the run in the browser: start a small web server before the first game, print its "
                        "link, and serve the games as they are written with the summary table updating, until "
                        "the run ends (needs the serve extra)")
    r.add_argument("--port", type=int, default=None, metavar="P",
                   help=f"with --serve: the port (default {DEFAULT_WATCH_PORT}; 0: any free port)")
    r.add_argument("--serve-host", default=None, metavar="HOST",
                   help="with --serve: the interface to listen on (default 127.0.0.1, this machine only); any "
                        "other than loopback gets a random access token, carried by the printed link")
    r.add_argument("--serve-linger", type=float, default=None, metavar="S",
                   help="with --serve: keep serving S seconds after the run ends (default 0)")
    add_format_argument(r)
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
