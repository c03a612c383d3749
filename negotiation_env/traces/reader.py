"""Reading trace files: every complete record, with problems reported, never raised.

A trace file may end in a torn line (a run killed mid-write) and, if it was damaged,
hold undecodable lines. :func:`iter_records` and :func:`iter_traces` skip those and
report each one as a :class:`LineProblem` (appended to the ``problems`` list you pass,
and logged as a warning); the torn last line is whatever follows the final newline,
exactly the bytes :class:`~.writer.TraceWriter` cuts off before appending.

A path may be a ``.jsonl`` file or a folder (every ``*.jsonl`` in it, sorted, e.g. a
run's ``traces.jsonl``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .schema import GameTrace, SchemaError

__all__ = ["LineProblem", "ReadResult", "trace_files", "iter_records", "iter_traces", "read_traces"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LineProblem:
    """A line that was skipped. ``kind``: ``"torn"`` (no final newline: an interrupted
    write), ``"undecodable"`` (not UTF-8 JSON object) or ``"schema"`` (JSON that is not a
    valid trace record)."""

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
    log.warning("skipped trace line: %s", problem)
    if problems is not None:
        problems.append(problem)


def _lines(path: str | Path, problems: list[LineProblem] | None) -> Iterator[tuple[str, int, int, dict[str, Any]]]:
    for f in trace_files(path):
        offset = 0
        with open(f, "rb") as fh:
            for n, raw in enumerate(fh, start=1):
                start, offset = offset, offset + len(raw)
                if not raw.endswith(b"\n"):
                    _report(problems, LineProblem(str(f), n, start, "torn",
                                                  f"last line has no newline ({len(raw)} bytes): an interrupted write"))
                    break
                if not raw.strip():
                    continue
                try:
                    rec = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as e:
                    _report(problems, LineProblem(str(f), n, start, "undecodable", str(e)))
                    continue
                if not isinstance(rec, dict):
                    _report(problems, LineProblem(str(f), n, start, "undecodable",
                                                  f"a record must be a JSON object, got {type(rec).__name__}"))
                    continue
                yield str(f), n, start, rec


def iter_records(path: str | Path, problems: list[LineProblem] | None = None) -> Iterator[dict[str, Any]]:
    """Every decodable JSON object line, as a dict, in file order."""
    for *_, rec in _lines(path, problems):
        yield rec


def iter_traces(path: str | Path, problems: list[LineProblem] | None = None) -> Iterator[GameTrace]:
    """Every valid record as a :class:`GameTrace`, in file order."""
    for f, n, start, rec in _lines(path, problems):
        try:
            yield GameTrace.from_dict(rec)
        except SchemaError as e:
            _report(problems, LineProblem(f, n, start, "schema", str(e)))


def read_traces(path: str | Path) -> ReadResult:
    """All valid traces of ``path`` and the problems met on the way."""
    res = ReadResult()
    res.traces = list(iter_traces(path, res.problems))
    return res
