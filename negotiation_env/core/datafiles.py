"""Reading a game's data files: a shipped file by id, or any JSON file by path.

Every game keeps its shipped scenarios as ``<package>/scenarios/<id>.json``. This module
is the one place that finds, reads and decodes them, so every game reports a missing
file, an unreadable file and broken JSON the same way; each game's own ``from_dict``
then validates the content.
"""

from __future__ import annotations

import json
import re
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any, Callable

__all__ = ["shipped_ids", "read_json"]

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{0,63}")


def _pool(package: str, folder: str):
    return importlib_resources.files(package) / folder


def shipped_ids(package: str, folder: str = "scenarios") -> list[str]:
    """Ids (file stems) of the JSON files shipped in ``package``'s ``folder``, sorted."""
    return sorted(p.name[:-5] for p in _pool(package, folder).iterdir() if p.name.endswith(".json"))


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
            text = p.read_text(encoding="utf-8")
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
        return json.loads(text), source
    except json.JSONDecodeError as e:
        raise error(f"{source}: not valid JSON: {e}") from None
