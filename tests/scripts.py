"""Loading a standalone script (benchmarks/, examples/) as a module in a test."""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator


@contextlib.contextmanager
def loaded_script(path: str | Path, name: str | None = None) -> Iterator[ModuleType]:
    """Import the script at ``path`` as module ``name`` (default: its stem), registered in
    ``sys.modules`` while the block runs (dataclasses, pickling and ``python:MODULE:...``
    policy specs look the module up there) and removed after it."""
    path = Path(path)
    name = name or path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.modules.pop(name, None)
