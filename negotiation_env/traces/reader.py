"""Reading trace files: every complete record, with problems reported, never raised.

A trace file may end in a torn line (a run killed mid-write) and, if it was damaged,
hold undecodable lines. :func:`iter_records` and :func:`iter_traces` skip those and
report each one as a :class:`LineProblem` (appended to the ``problems`` list you pass,
and logged as a warning); the torn last line is whatever follows the final newline,
exactly the bytes :class:`~.writer.TraceWriter` cuts off before appending.

A path may be a ``.jsonl`` file or a folder (every ``*.jsonl`` in it, sorted, e.g. a
run's ``traces.jsonl``).

Records are keyed. :func:`iter_traces` identifies each game by ``(run id, game key)``
(``run.run_id`` and ``run.game_key``; a record written outside the runner has no run and
is keyed by its ``game_id``) and, unless told otherwise, reads one run only:

* a **duplicate** (a key already read) is dropped and reported (kind ``"duplicate"``):
  the first record of a key counts, as in the runner's resume;
* a **foreign** record (of another run) is dropped and reported (kind ``"foreign"``).
  The run read is the one ``run.json`` beside the traces names, else the run of the
  first valid record. Pass ``runs="all"`` (the CLI's ``--all-runs``) to read several
  runs on purpose, or a collection of run ids to read those.

So a line appended twice, or a line pasted from another run's traces, is never counted:
it shows in ``problems``, which ``report``, ``export`` and ``view`` print.

One thing is refused rather than reported: traces of one game recorded under two env
ids (``env_name``, e.g. ``resource_v0`` and ``resource_v1``), which are two versions of
its rules or prompts. :func:`iter_traces` raises :class:`MixedEnvVersions` (a
``ValueError``) at the first trace whose id differs from its game's earlier traces, and
:func:`check_env_versions` does the same for traces already in hand; nothing pools them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Iterable, Iterator

from ..core.jsontext import loads_document, loads_record
from .schema import GameTrace, SchemaError

__all__ = ["LineProblem", "ReadResult", "trace_files", "iter_records", "iter_traces", "read_traces", "record_key",
           "folder_run_id", "validated_lines", "TraceSource", "PROBLEM_KINDS", "ALL_RUNS_HELP", "MixedEnvVersions",
           "EnvVersions", "check_env_versions"]

#: the ``--all-runs`` flag's help, the same for every command that reads traces
ALL_RUNS_HELP = ("read the records of every run found (default: the run of DIR/run.json, else of the first record; "
                 "records of other runs are left out and listed)")

#: what a skipped line can be (see :class:`LineProblem`)
PROBLEM_KINDS = ("torn", "undecodable", "schema", "duplicate", "foreign")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LineProblem:
    """A line that was skipped. ``kind``: ``"torn"`` (no final newline: an interrupted
    write), ``"undecodable"`` (not UTF-8 JSON object), ``"schema"`` (JSON that is not a
    valid trace record), ``"duplicate"`` (a game key already read: the first record
    counts) or ``"foreign"`` (a record of another run than the one read)."""

    path: str
    line: int
    offset: int
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} (byte {self.offset}): {self.kind}: {self.message}"


@dataclass
class ReadResult:
    traces: list[GameTrace] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)


def trace_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        return sorted(q for q in p.glob("*.jsonl") if q.is_file())
    if p.is_file():
        return [p]
    raise FileNotFoundError(f"no trace file or folder at {p}")


def _report(problems: list[LineProblem] | None, problem: LineProblem) -> None:
    """Hand a skipped line to the caller's list, which then reports it, or else log it."""
    if problems is not None:
        problems.append(problem)
    else:
        log.warning("skipped trace line: %s", problem)


def _decoded(path: str | Path, problems: list[LineProblem] | None
             ) -> Iterator[tuple[LineProblem, dict[str, Any] | None]]:
    """Every non-blank complete line of ``path``: a locator and the decoded object (None
    if the line is not a JSON object; reported). A torn last line is reported and not
    yielded."""
    for f in trace_files(path):
        offset = 0
        with open(f, "rb") as fh:
            for n, raw in enumerate(fh, start=1):
                start, offset = offset, offset + len(raw)
                where = LineProblem(str(f), n, start, "", "")
                if not raw.endswith(b"\n"):
                    _report(problems, LineProblem(str(f), n, start, "torn",
                                                  f"last line has no newline ({len(raw)} bytes): an interrupted write"))
                    break
                if not raw.strip():
                    continue
                try:  # the project's one bounded decoder: long numerals, deep nesting, duplicate keys refused
                    rec = loads_record(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as e:
                    _report(problems, LineProblem(str(f), n, start, "undecodable", str(e)))
                    yield where, None
                    continue
                yield where, rec


def _lines(path: str | Path, problems: list[LineProblem] | None) -> Iterator[tuple[str, int, int, dict[str, Any]]]:
    for where, rec in _decoded(path, problems):
        if rec is not None:
            yield where.path, where.line, where.offset, rec


def iter_records(path: str | Path, problems: list[LineProblem] | None = None) -> Iterator[dict[str, Any]]:
    """Every decodable JSON object line, as a dict, in file order."""
    for *_, rec in _lines(path, problems):
        yield rec


def record_key(trace: GameTrace) -> tuple[str | None, str]:
    """``(run id, game key)`` of a record; ``(None, game_id)`` for one without run info."""
    if trace.run is None:
        return None, trace.game_id
    return trace.run.run_id, trace.run.game_key


def folder_run_id(path: str | Path) -> str | None:
    """The run id in ``run.json`` beside ``path`` (a run folder, or a file in one), if any."""
    p = Path(path)
    meta = (p if p.is_dir() else p.parent) / "run.json"
    try:
        rid = loads_document(meta.read_text(encoding="utf-8")).get("run_id")
    except (OSError, ValueError, AttributeError):
        return None
    return rid if isinstance(rid, str) else None


def validated_lines(path: str | Path, problems: list[LineProblem] | None = None
                    ) -> Iterator[tuple[LineProblem, dict[str, Any] | None, GameTrace | None]]:
    """Every complete line of ``path``: a locator (``kind`` and ``message`` empty), the
    decoded record and its :class:`GameTrace`, both None where the line was refused (and
    reported). The runner's resume uses it to check each record with the reader's schema
    and to move refused lines aside by line number."""
    for where, rec in _decoded(path, problems):
        if rec is None:
            yield where, None, None
            continue
        try:
            yield where, rec, GameTrace.from_dict(rec)
        except SchemaError as e:
            _report(problems, LineProblem(where.path, where.line, where.offset, "schema", str(e)))
            yield where, None, None


class MixedEnvVersions(ValueError):
    """Traces of one game recorded under two env ids (two versions of its rules or
    prompts): pooling them would mix two games under one name."""


class EnvVersions:
    """The env id (``env_name``) each game's traces were recorded under; :meth:`add`
    raises :class:`MixedEnvVersions` at the first trace of a game whose id differs from
    the one its earlier traces carry. A trace without an id (a re-imported file) is
    not checked."""

    def __init__(self) -> None:
        #: game -> [its env id, traces read under it, where the first one was]
        self.ids: dict[str, list] = {}

    def add(self, game: Any, env_name: Any, where: str = "") -> None:
        if not game or not env_name:
            return
        seen = self.ids.get(str(game))
        if seen is None:
            self.ids[str(game)] = [str(env_name), 1, where or "the first trace"]
            return
        old, n, first = seen
        if str(env_name) != old:
            at = f" ({where})" if where else ""
            raise MixedEnvVersions(
                f"traces of the {game} game under two env ids: {n} read under {old!r} "
                f"(first at {first}) and now one under {env_name!r}{at}; the two ids are "
                "different versions of the game's rules or prompts and are never pooled: read each run "
                "separately")
        seen[1] += 1


def check_env_versions(traces: Iterable[Any]) -> None:
    """Raise :class:`MixedEnvVersions` if ``traces`` (dicts or :class:`GameTrace`) hold
    one game under two env ids."""
    versions = EnvVersions()
    for i, t in enumerate(traces):
        get = t.get if isinstance(t, dict) else (lambda k, _t=t: getattr(_t, k, None))
        versions.add(get("game"), get("env_name"), f"trace {i + 1}, game {get('game_id')!r}")


class _Keyed:
    """The duplicate and foreign-run filter of :func:`iter_traces` (see the module doc),
    and the check that one game's traces carry one env id (:class:`EnvVersions`)."""

    def __init__(self, path: str | Path, runs: str | Collection[str | None] | None):
        if runs is not None and runs != "all" and isinstance(runs, str):
            raise ValueError(f"runs must be None, 'all' or a collection of run ids; got {runs!r}")
        self.runs = runs
        self.run_id = folder_run_id(path) if runs is None else None
        self.fixed = self.run_id is not None
        self.seen: dict[tuple[str | None, str], str] = {}
        self.versions = EnvVersions()

    def check(self, where: LineProblem, trace: GameTrace) -> LineProblem | None:
        """None if ``trace`` is kept, else the problem that drops it."""
        key = record_key(trace)
        run_id = key[0]
        if self.runs is None:
            if not self.fixed and not self.seen:
                self.run_id, self.fixed = run_id, True
            if run_id != self.run_id:
                return LineProblem(where.path, where.line, where.offset, "foreign",
                                   f"game {key[1]!r} belongs to run {run_id!r}, not to run {self.run_id!r} read "
                                   "here; dropped (read several runs on purpose with --all-runs)")
        elif self.runs != "all" and run_id not in self.runs:
            return LineProblem(where.path, where.line, where.offset, "foreign",
                               f"game {key[1]!r} belongs to run {run_id!r}, not one of the runs asked for; dropped")
        first = self.seen.get(key)
        if first is not None:
            return LineProblem(where.path, where.line, where.offset, "duplicate",
                               f"game {key[1]!r} of run {run_id!r} was already read at {first}; this copy is "
                               "dropped (the first record counts)")
        self.seen[key] = f"{Path(where.path).name}:{where.line}"
        self.versions.add(trace.game, trace.env_name, self.seen[key])
        return None


def iter_traces(path: str | Path, problems: list[LineProblem] | None = None, *,
                runs: str | Collection[str | None] | None = None) -> Iterator[GameTrace]:
    """Every valid record of one run as a :class:`GameTrace`, in file order, each game
    once. ``runs``: None (the run of ``run.json`` beside the traces, else of the first
    valid record), ``"all"`` (every run), or the run ids to read; a record outside them
    is dropped and reported as ``"foreign"``, a repeated key as ``"duplicate"``."""
    keyed = _Keyed(path, runs)
    for where, _rec, trace in validated_lines(path, problems):
        if trace is None:
            continue
        dropped = keyed.check(where, trace)
        if dropped is not None:
            _report(problems, dropped)
            continue
        yield trace


class TraceSource:
    """The traces of ``path`` read with a chosen ``runs`` (see :func:`iter_traces`), as a
    re-iterable source for the exports and Minari (which may read a source twice). The
    problems of the first pass are appended to ``problems``."""

    def __init__(self, path: str | Path, *, runs: str | Collection[str | None] | None = None,
                 problems: list[LineProblem] | None = None):
        self.path, self.runs, self.problems = Path(path), runs, problems
        self._passes = 0

    def __iter__(self) -> Iterator[GameTrace]:
        self._passes += 1
        return iter_traces(self.path, self.problems if self._passes == 1 else None, runs=self.runs)


def read_traces(path: str | Path, *, runs: str | Collection[str | None] | None = None) -> ReadResult:
    """All valid traces of ``path`` (one run unless ``runs`` says otherwise; see
    :func:`iter_traces`) and the problems met on the way."""
    res = ReadResult()
    res.traces = list(iter_traces(path, res.problems, runs=runs))
    return res
