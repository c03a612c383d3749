"""``env.infos`` built on demand: :class:`LazyInfos`, a ``dict`` whose values are made the
first time they are read.

PettingZoo's AEC loop reads one info per step (``env.last()`` returns the selected
agent's), while the env has to offer every agent's in ``env.infos`` (api_test, wrappers
and user code read that dict directly). Building all of them on every step would be
most of the cost of a five-party rulemaking step. A :class:`LazyInfos` holds every agent as a key
from the start and makes an agent's info when it is first read, then keeps it: reading
the same agent twice gives the same object, as a plain dict would.

It is a real ``dict`` (``isinstance(env.infos, dict)``), and every way of reading it gives
the made values: ``infos[a]``, ``get``, ``items()``, ``values()``, ``dict(infos)``,
``{**infos}``, ``copy``, ``pickle``, ``json.dumps``, ``==`` and ``repr``. ``del``,
assignment and ``update`` work as on a dict. (Overriding ``__iter__`` matters: CPython
copies a dict subclass with its own ``__iter__`` through ``keys()`` and
``__getitem__``, never by reading its storage.)

**Invalidation.** A value is made from the game's state when it is read, so a
:class:`LazyInfos` is valid only until the game moves. The adapters call
:meth:`LazyInfos.retire` on the previous one before every ``step`` and ``reset``:
when nothing but the env refers to it, it is dropped unmade; when anyone else still
holds it (a variable, a wrapper's closure, a list of per-step infos), every missing
value is made first, from the state it describes. So a kept ``infos`` never changes
under its holder. (The AEC env makes no mapping at all in the plain loop: ``last()``
makes the selected agent's info alone, and the mapping, holding that info, is made only
when something reads ``env.infos``.) Knowing "anyone else" uses :func:`sys.getrefcount`
(CPython); without it every retired mapping is made in full, which is always correct.
"""

from __future__ import annotations

import copy as _copy
import sys
from typing import Any, Callable, Iterable

__all__ = ["LazyInfos"]

_PENDING = object()
_refcount = getattr(sys, "getrefcount", None)


class LazyInfos(dict):
    """``agent -> info``, each value made by ``make(agent)`` on first read (module docstring)."""

    __slots__ = ("_make", "_pending")

    def __init__(self, agents: Iterable[str], make: Callable[[str], dict[str, Any]]):
        dict.__init__(self, dict.fromkeys(agents, _PENDING))
        self._make = make
        self._pending = len(self)

    # -- reading ------------------------------------------------------------------
    def __getitem__(self, agent):
        v = dict.__getitem__(self, agent)
        if v is _PENDING:
            v = self._make(agent)
            dict.__setitem__(self, agent, v)
            self._pending -= 1
        return v

    def get(self, agent, default=None):
        return self[agent] if dict.__contains__(self, agent) else default

    def resolve(self) -> None:
        """Make every value not made yet."""
        if self._pending:
            for agent in [k for k, v in dict.items(self) if v is _PENDING]:
                self[agent]

    def __iter__(self):
        return dict.__iter__(self)

    def items(self):
        self.resolve()
        return dict.items(self)

    def values(self):
        self.resolve()
        return dict.values(self)

    def copy(self) -> dict:
        self.resolve()
        return dict(dict.items(self))

    __copy__ = copy

    def __deepcopy__(self, memo):
        return _copy.deepcopy(self.copy(), memo)

    def __reduce__(self):
        return (dict, (self.copy(),))

    def __eq__(self, other):
        self.resolve()
        if isinstance(other, LazyInfos):
            other.resolve()
        return dict.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other):
        self.resolve()
        return dict.__or__(self.copy(), other)

    def __ror__(self, other):
        self.resolve()
        return dict.__or__(dict(other), self.copy()) if isinstance(other, dict) else NotImplemented

    def __repr__(self) -> str:
        self.resolve()
        return dict.__repr__(self)

    # -- changing -----------------------------------------------------------------
    def __setitem__(self, agent, value):
        if dict.get(self, agent, None) is _PENDING:
            self._pending -= 1
        dict.__setitem__(self, agent, value)

    def __delitem__(self, agent):
        if dict.__getitem__(self, agent) is _PENDING:
            self._pending -= 1
        dict.__delitem__(self, agent)

    def pop(self, agent, *default):
        if dict.__contains__(self, agent):
            value = self[agent]
            dict.__delitem__(self, agent)
            return value
        return dict.pop(self, agent, *default)

    def popitem(self):
        self.resolve()
        return dict.popitem(self)

    def setdefault(self, agent, default=None):
        if dict.__contains__(self, agent):
            return self[agent]
        dict.__setitem__(self, agent, default)
        return default

    def update(self, *args, **kwargs):
        for k, v in dict(*args, **kwargs).items():
            self[k] = v

    def __ior__(self, other):
        self.update(other)
        return self

    def clear(self) -> None:
        dict.clear(self)
        self._pending = 0

    # -- invalidation -------------------------------------------------------------
    @staticmethod
    def retire(infos: Any, owners: int = 1) -> bool:
        """Before the game moves: make the missing values of ``infos`` if anyone but its
        ``owners`` references (the env's own attributes) still holds it; otherwise leave
        it to be dropped unmade. Returns whether nobody else holds it."""
        if type(infos) is not LazyInfos:
            return False
        # references: the owners', this call's argument and getrefcount's own
        if _refcount is None or _refcount(infos) > owners + 2:
            if infos._pending:
                infos.resolve()
            return False
        return True
