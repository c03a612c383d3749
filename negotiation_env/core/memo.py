"""What the games keep between steps: a bounded store, and the content key of a
structured action.

An env step renders text from few inputs that repeat (scenario, theme names, phase, a
scripted or learned policy's structured actions), so each game keeps what it rendered,
parsed or wrote out under a key of those inputs, for the game object's life. A
:class:`Memo` is a dict that empties itself when it reaches its bound, so a long run
never grows one without limit.

:func:`action_key` turns a structured action into a hashable key of its content: the
keys in order and each value with its type (``1``, ``1.0`` and ``True`` are three keys;
a float by its ``repr``, so ``-0.0`` is not ``0.0``; an array by dtype, shape and
bytes). An action holding anything else (lists, nested dicts, objects) has no key, and
the game then does the work every time: a key is only ever made from values whose
content it fully names.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

__all__ = ["Memo", "action_key", "tuple_with", "list_snapshot", "MEMO_SIZE"]

#: entries a game's store holds before it starts afresh
MEMO_SIZE = 4096


class Memo(dict):
    """A dict bounded to ``size`` entries (emptied when full); :meth:`get_or` fills it."""

    __slots__ = ("size",)

    def __init__(self, size: int = MEMO_SIZE):
        super().__init__()
        self.size = size

    def get_or(self, key: Any, make: Callable[[], Any]) -> Any:
        """The value under ``key``, made by ``make()`` (and kept) the first time."""
        try:
            return self[key]
        except KeyError:
            pass
        value = make()
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value

    def put(self, key: Any, value: Any) -> Any:
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value


def action_key(action: Any) -> tuple | None:
    """A hashable key of a structured action's content, or None (see the module docstring)."""
    if type(action) is not dict:
        return None
    items = []
    for k, v in action.items():
        if type(k) is not str:  # a key of another type (1, True) is named by its type too
            k = (type(k), k)
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            items.append((k, t, v))
        elif t is float:
            items.append((k, t, repr(v)))
        elif t is np.ndarray and not (dt := v.dtype).hasobject:
            # the dtype itself (equal and hashed by value: kind, size, byte order), as it
            # costs a fifth of its .str; only array entries are 4-tuples
            items.append((k, dt, v.shape, v.tobytes()))
        elif isinstance(v, np.generic) and not isinstance(v, np.object_):
            items.append((k, v.dtype.str, v.tobytes()))
        else:
            return None
    return tuple(items)


def tuple_with(items: list, last: Any) -> tuple:
    """``tuple(items) + (last,)`` in one copy instead of two: an observation's conversation
    is the agent's committed messages and its pending prompt, and copying it is the one
    part of a step whose cost grows with the game. ``items`` is
    appended to and restored before returning."""
    items.append(last)
    try:
        return tuple(items)
    finally:
        items.pop()


def list_snapshot(cache: dict, key: Any, items: list) -> tuple:
    """``tuple(items)``, kept in ``cache[key]`` while ``items`` is the same list object with
    the same length: the games' conversations only grow or are replaced, so that is enough
    to know the copy is still the list's content."""
    cached = cache.get(key)
    if cached is None or cached[0] is not items or cached[1] != len(items):
        cached = (items, len(items), tuple(items))
        cache[key] = cached
    return cached[2]
