"""Reading a game's data files: a shipped file by id, or any JSON file by path.

Every game keeps its shipped scenarios as ``<package>/scenarios/<id>.json``. This module
is the one place that finds, reads and decodes them, so every game reports a missing
file, an unreadable file and broken JSON the same way; each game's own ``from_dict``
then validates the content.

Decoding is :func:`~negotiation_env.core.jsontext.loads_document`, the package's one
bounded JSON decoder: a key given twice, a numeral longer than
:data:`~negotiation_env.core.jsontext.MAX_NUMBER_CHARS` characters, NaN/Infinity and
nesting deeper than :data:`~negotiation_env.core.jsontext.MAX_DOCUMENT_DEPTH` levels are
refused with the game's error, naming the key or the limit. A file larger than
:data:`MAX_DATAFILE_BYTES` is refused before it is read.
"""

from __future__ import annotations

import re
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any, Callable

from .jsontext import JSONTextError, loads_document

__all__ = ["shipped_ids", "read_json", "read_bounded", "FileTooLarge", "MAX_DATAFILE_BYTES"]

#: the largest data file read (a shipped scenario is under 2 KB, a rulemaking one under 20 KB)
MAX_DATAFILE_BYTES = 1_000_000

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{0,63}")


def _pool(package: str, folder: str):
    return importlib_resources.files(package) / folder


def shipped_ids(package: str, folder: str = "scenarios") -> list[str]:
    """Ids (file stems) of the JSON files shipped in ``package``'s ``folder``, sorted."""
    return sorted(p.name[:-5] for p in _pool(package, folder).iterdir() if p.name.endswith(".json"))


class FileTooLarge(ValueError):
    """A file is larger than the limit its reader allows."""


def read_bounded(path: str | Path, limit: int) -> str:
    """The UTF-8 text of ``path``, reading at most ``limit + 1`` bytes whatever the file
    claims; raises :class:`FileTooLarge` past ``limit``, ``OSError`` or
    ``UnicodeDecodeError`` otherwise (the callers word their own messages)."""
    with open(path, "rb") as fh:
        raw = fh.read(limit + 1)
    if len(raw) > limit:
        raise FileTooLarge(f"{path} is larger than {limit} bytes")
    return raw.decode("utf-8")


def read_json(name_or_path: str | Path, package: str, error: Callable[[str], Exception],
              folder: str = "scenarios") -> tuple[Any, str]:
    """``(data, source)`` for a shipped id or a path to a JSON file.

    A string that ends in ``.json`` or names an existing path is read as a file; anything
    else must be a shipped id. ``source`` names the origin for error messages
    (the path, or ``scenario 'ID'``). Every failure raises ``error(message)``."""
    p = Path(name_or_path)
    if p.suffix == ".json" or p.exists():
        if not p.is_file():
            raise error(f"scenario file not found (or not a file): {p}")
        try:
            text = read_bounded(p, MAX_DATAFILE_BYTES)
        except FileTooLarge:
            raise error(f"{p}: scenario file is larger than {MAX_DATAFILE_BYTES} bytes, the limit") from None
        except (OSError, UnicodeDecodeError) as e:
            raise error(f"{p}: cannot read scenario file: {e}") from None
        source = str(p)
    else:
        f = _pool(package, folder) / f"{name_or_path}.json"
        if not isinstance(name_or_path, str) or not _ID.fullmatch(name_or_path) or not f.is_file():
            raise error(f"unknown scenario {str(name_or_path)!r}; shipped scenarios: "
                        f"{', '.join(shipped_ids(package, folder))}")
        text = f.read_text(encoding="utf-8")
        source = f"scenario {name_or_path!r}"
    try:
        return loads_document(text), source
    except JSONTextError as e:
        raise error(f"{source}: {e}") from None
