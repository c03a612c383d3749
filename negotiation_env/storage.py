"""Files written whole or not at all, and one sentence for a write the disk refused.

Every file the commands write (``report``'s tables and figures, ``view``'s page, the
export files, ``run.json``) goes to a temporary name in its own folder
(:func:`replacing`) and is renamed onto its name only when complete, so a full disk, a
read-only folder or a missing permission never leaves half a file under the real name;
the temporary file is removed on failure. The trace file is the exception: games are
appended to it (see :mod:`negotiation_env.traces.writer`).

:func:`describe` turns the ``OSError`` into the words the command line prints (the
path, the operating system's reason and its errno name); :data:`EXIT_STORAGE` is the
exit code of every command that stops on one.
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .exitcodes import STORAGE

__all__ = ["EXIT_STORAGE", "replacing", "write_text", "describe", "temporary_name", "failed_verb", "failure_message"]

#: exit code of a command that could not write (disk full, read-only folder, no permission, ...)
EXIT_STORAGE = STORAGE


def temporary_name(path: str | Path) -> Path:
    """The temporary name ``path`` is written under: hidden, in the same folder (so the
    rename is atomic), unique to this process."""
    p = Path(path)
    return p.with_name(f".{p.name}.{os.getpid()}.tmp")


def _stands_for(path: Path) -> Path | None:
    """The file a :func:`temporary_name` of this process stands for; None for any other name."""
    suffix = f".{os.getpid()}.tmp"
    if path.name.startswith(".") and path.name.endswith(suffix):
        return path.with_name(path.name[1:-len(suffix)])
    return None


def _unlink(p: Path) -> None:
    try:
        p.unlink(missing_ok=True)
    except OSError:  # a folder that refuses the removal refused the file's creation too
        pass


@contextmanager
def replacing(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; when the block ends without an error the
    file written there replaces ``path`` (``os.replace``), otherwise it is removed and
    ``path`` is left as it was."""
    path = Path(path)
    tmp = temporary_name(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        _unlink(tmp)
        if e.filename is None:  # e.g. a refused write or fsync on an open file: name the file
            raise OSError(e.errno, e.strerror, str(path)) from e
        raise
    except BaseException:
        _unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole, through :func:`replacing`."""
    path = Path(path)
    with replacing(path) as tmp:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return path


def describe(e: OSError, path: str | Path | None = None) -> str:
    """``"PATH: the OS reason (ERRNO)"`` for ``e``; the path is the one the error names,
    else ``path``. A temporary name (:func:`temporary_name`) is shown as the file it stands for."""
    where = e.filename if e.filename is not None else path
    if where is not None:
        where = _stands_for(Path(os.fsdecode(where))) or where
    reason = e.strerror or str(e) or type(e).__name__
    code = errno.errorcode.get(e.errno or 0)
    reason = f"{reason} ({code})" if code else reason
    return f"{where}: {reason}" if where is not None else reason


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def failed_verb(e: OSError, source: str | Path | None, out: str | Path | None) -> str:
    """``"read"`` when ``e`` names a path of the command's ``source`` that is not under
    its ``out``, else ``"write"``: a command that reads a run and writes beside it says
    which of the two the disk refused."""
    if e.filename is None or source is None:
        return "write"
    where = Path(os.fsdecode(e.filename)).resolve()
    if _stands_for(where) is not None:
        return "write"  # a file being written whole
    if out is not None and _within(where, Path(out).resolve()):
        return "write"
    return "read" if _within(where, Path(source).resolve()) else "write"


def failure_message(e: OSError, source: str | Path | None, out: str | Path | None, left: str) -> str:
    """The one sentence of a command that stopped on ``e``: a refused read of its
    ``source``, or a refused write under ``out`` followed by ``left`` (what is left there)."""
    if failed_verb(e, source, out) == "read":
        return f"could not read {describe(e)}; nothing was written: check the file's permissions"
    return f"could not write {describe(e, out)}; {left}: free space or choose a writable --out"
