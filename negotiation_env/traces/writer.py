"""Append-only JSON Lines trace files: one game per line, durable when the game ends.

:class:`TraceWriter` appends each finished game as one line with a single ``write`` and
then ``os.fsync`` (:meth:`~TraceWriter.write_lines`: the games that ended meanwhile, one
``write`` and one ``fsync`` for all, each durable before the call returns), so a crash
loses at most the games still being played: what is on disk is every finished game
plus, at worst, one torn last line (a process killed in the middle of the write).
Opening a writer on an existing file repairs such a tail: the bytes after the last
newline are moved to ``<file>.torn`` and cut off, so appending never glues a new record
onto half an old one. The writer holds an exclusive ``flock`` on the file (where the
platform has one), so two runs cannot interleave lines.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Sequence

from ..core.encodable import replace_unencodable
from .schema import GameTrace, to_jsonable

try:  # POSIX only; elsewhere the lock is skipped
    import fcntl
except ImportError:  # pragma: no cover - not on Linux
    fcntl = None  # type: ignore[assignment]

__all__ = ["TraceWriter", "TraceFileLocked", "encode_trace", "encode_jsonable", "repair_torn_tail", "move_aside",
           "REJECTED_SUFFIX"]

#: lines :func:`move_aside` takes out of a trace file go to ``<file>.rejected``
REJECTED_SUFFIX = ".rejected"


class TraceFileLocked(RuntimeError):
    """Another process is writing to this trace file."""


def encode_trace(trace: GameTrace | dict[str, Any]) -> bytes:
    """The trace as one JSON line (UTF-8, compact, ending in a newline)."""
    return encode_jsonable(trace.to_dict() if isinstance(trace, GameTrace) else to_jsonable(trace))


def encode_jsonable(d: dict[str, Any]) -> bytes:
    """:func:`encode_trace` of a dict that is plain JSON already (what
    :meth:`GameTrace.to_dict` returns: :func:`~.schema.to_jsonable` would leave it as it
    is), without walking it once more.

    Never raises on a string: one holding a surrogate code point (no character, so no
    UTF-8; :mod:`negotiation_env.core.encodable`) anywhere in the record (settings,
    names, events, errors, keys) is written with U+FFFD in its place, and the record's
    ``meta`` says so: ``"unencodable_text": {"count": n, "fields": [paths]}`` (the
    first ten paths). Only a record that fails to encode is walked."""
    text = json.dumps(d, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    fixed, count, paths = replace_unencodable(d)
    if isinstance(fixed, dict):
        meta = fixed.get("meta")
        fixed = {**fixed, "meta": {**(meta if isinstance(meta, dict) else {}),
                                   "unencodable_text": {"count": count, "fields": paths}}}
    text = json.dumps(fixed, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    # past the walk's depth bound: each code point left becomes U+FFFD all the same
    return replace_unencodable(text)[0].encode("utf-8")


def _tail_start(fd: int, size: int) -> int:
    """Offset just after the last newline of the file (0 if it has none)."""
    block = 1 << 16
    end = size
    while end > 0:
        start = max(0, end - block)
        chunk = os.pread(fd, end - start, start)
        i = chunk.rfind(b"\n")
        if i >= 0:
            return start + i + 1
        end = start
    return 0


def repair_torn_tail(path: str | Path) -> int:
    """Cut off bytes after the last newline of ``path`` (saved to ``path.torn``); return
    how many bytes were cut. A missing file is left alone."""
    path = Path(path)
    if not path.exists():
        return 0
    fd = os.open(path, os.O_RDWR)
    try:
        return _repair_fd(fd, path)
    finally:
        os.close(fd)


def _repair_fd(fd: int, path: Path) -> int:
    size = os.fstat(fd).st_size
    keep = _tail_start(fd, size)
    if keep == size:
        return 0
    torn = os.pread(fd, size - keep, keep)
    with open(str(path) + ".torn", "ab") as f:
        f.write(torn + b"\n")
        f.flush()
        os.fsync(f.fileno())
    os.ftruncate(fd, keep)
    os.fsync(fd)
    return size - keep


def move_aside(path: str | Path, lines: dict[int, str]) -> Path:
    """Take the lines numbered in ``lines`` (1-based, as :class:`~.reader.LineProblem`
    counts them; value: why) out of ``path``; return the file they went to.

    Each is appended to ``<path>.rejected`` as one JSON line ``{"line", "reason",
    "record"}`` (``record``: the original line as text, undecodable bytes replaced) and
    made durable first; then the kept lines are written to a temporary file that
    replaces ``path`` atomically. A crash at any point leaves either the old file whole
    or the new one, and every moved line in the ``.rejected`` file. The caller must hold
    the lock that keeps other writers away (the runner's run lock): the file is replaced,
    so a :class:`TraceWriter` open on it must be reopened.
    """
    path = Path(path)
    rejected = Path(str(path) + REJECTED_SUFFIX)
    tmp = path.with_name(path.name + ".tmp")
    with open(path, "rb") as src, open(rejected, "ab") as rej:
        for n, raw in enumerate(src, start=1):
            if n in lines:
                rej.write((json.dumps({"line": n, "reason": lines[n],
                                       "record": raw.rstrip(b"\n").decode("utf-8", "replace")},
                                      ensure_ascii=False) + "\n").encode("utf-8"))
        rej.flush()
        os.fsync(rej.fileno())
        src.seek(0)
        try:
            with open(tmp, "wb") as dst:
                for n, raw in enumerate(src, start=1):
                    if n not in lines:
                        dst.write(raw)
                dst.flush()
                os.fsync(dst.fileno())
            os.replace(tmp, path)
        except BaseException:  # the old file stays whole; no half copy is left next to it
            tmp.unlink(missing_ok=True)
            raise
    return rejected


class TraceWriter:
    """Append :class:`GameTrace` records to ``path`` (created with its folder).

    ``repaired_bytes`` is how many torn bytes were cut from the end of an existing file.
    Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | Path, *, lock: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_symlink():  # appending through a link writes somewhere the run does not own
            raise ValueError(f"{self.path} is a symbolic link; trace files must be regular files")
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0),
                                       0o644)
        try:
            if lock and fcntl is not None:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise TraceFileLocked(f"{self.path} is being written by another process") from None
            self.repaired_bytes = _repair_fd(self._fd, self.path)
        except BaseException:
            os.close(self._fd)
            self._fd = None
            raise
        self.written = 0

    def write(self, trace: GameTrace | dict[str, Any]) -> None:
        """Append one game and make it durable (fsync) before returning."""
        self.write_line(encode_trace(trace))

    def write_line(self, line: bytes) -> None:
        """Append one already encoded record (:func:`encode_trace`), durably."""
        self.write_lines((line,))

    def write_lines(self, lines: Sequence[bytes]) -> None:
        """Append already encoded records (:func:`encode_trace`) in order and make them
        durable with one ``fsync`` before returning: every one of them is on disk when
        this returns (a crash during the call leaves a prefix of them, the last possibly
        torn, which the next writer cuts off). A write or ``fsync`` the system refuses
        cuts the file back to where it ended before the call and raises ``OSError``
        naming the file. The runner passes the games that ended while the previous ones
        were being synced."""
        if self._fd is None:
            raise ValueError(f"trace writer for {self.path} is closed")
        for line in lines:
            if not line.endswith(b"\n") or b"\n" in line[:-1]:
                raise ValueError("a trace record is exactly one line ending in a newline")
        if not lines:
            return
        data = memoryview(lines[0] if len(lines) == 1 else b"".join(lines))
        start = os.fstat(self._fd).st_size
        try:
            while data:  # os.write may write less than asked
                n = os.write(self._fd, data)
                data = data[n:]
            os.fsync(self._fd)
        except OSError as e:
            # a refused append (disk full, quota, I/O error) is taken back whole: the file
            # ends on its last whole record, as before the call, and none of these games
            # counts as written
            try:
                os.ftruncate(self._fd, start)
            except OSError:  # the next writer's repair cuts what is left after the last newline
                pass
            raise OSError(e.errno, e.strerror, str(self.path)) from None
        self.written += len(lines)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):  # pragma: no cover - safety net
        try:
            self.close()
        except Exception:
            pass
