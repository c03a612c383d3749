"""Discrete action menus and numeric observations, one per game, for :mod:`..numeric`.

A :class:`Menu` is bound to one game object (the adapters keep one game for the env's
life and reset it in place). For an agent at the current state it gives

* ``observation(agent)``: a float32 vector of :attr:`Menu.size` entries, laid out by
  :attr:`Menu.layout` (a :class:`Layout`, named slices like the games' feature layouts);
* ``mask(agent)``: an int8 vector of :attr:`Menu.n` entries, 1 where the menu entry
  exists in this state and the game accepts it;
* ``action(agent, index)``: the structured action the game already accepts.

Index 0 is ``pass`` in every menu: the only entry while the agent's action does not
count (another agent's turn, the game over), so a mask is never all zeros and a
parallel env can be stepped with ``{agent: policy(obs[agent])}`` for every live agent.
An index outside the mask while the agent acts is handed to the game as an empty
action, which every game refuses (a ``validation_error`` event, a retry, then the
game's own fallback): the menu never re-implements a rule, it only chooses what to send.

States are read once per step: the wrapper calls :meth:`Menu.clear` whenever the game
moves, and ``observation``, ``mask`` and ``action`` of one agent share one reading.
"""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from ...core import registry
from ...core.layout import Layout

__all__ = ["Layout", "Menu", "menu_for", "MENUS", "OBS_HIGH"]

#: bound of every observation entry (the Box is [-OBS_HIGH, OBS_HIGH])
OBS_HIGH = 1e9


class Menu(abc.ABC):
    """Base of the per-game menus; subclasses set :attr:`labels` and :attr:`layout`."""

    #: the game's PettingZoo name this menu serves, e.g. ``"resource_v1"``
    game_name: str = ""

    def __init__(self, game: Any):
        self.game = game
        self.labels: tuple[str, ...] = ()
        self.layout: Layout = Layout([])
        self._cache: dict[str, Any] = {}

    @property
    def n(self) -> int:
        return len(self.labels)

    @property
    def size(self) -> int:
        return self.layout.size

    def clear(self) -> None:
        """Forget the readings of the previous state (the wrapper calls this as the game moves)."""
        self._cache.clear()

    def reading(self, agent: str) -> Any:
        if agent not in self._cache:
            self._cache[agent] = self.read(agent)
        return self._cache[agent]

    def acting(self, agent: str) -> bool:
        return agent in self.game.acting()

    # -- per game ------------------------------------------------------------------
    @abc.abstractmethod
    def read(self, agent: str) -> Any:
        """Everything the agent's observation, mask and action need at this state."""

    @abc.abstractmethod
    def observation(self, agent: str) -> np.ndarray: ...

    @abc.abstractmethod
    def legal(self, agent: str) -> np.ndarray:
        """The mask while the agent acts (entry 0, ``pass``, is set to 0 by :meth:`mask`)."""

    @abc.abstractmethod
    def structured(self, agent: str, index: int) -> Any:
        """The structured action of a masked-in index (never ``pass``)."""

    @abc.abstractmethod
    def refused(self, agent: str) -> Any:
        """The empty action the game refuses in every phase (sent for masked-out indices)."""

    # -- shared --------------------------------------------------------------------
    def mask(self, agent: str) -> np.ndarray:
        return self._mask(agent).copy()

    def _mask(self, agent: str) -> np.ndarray:
        """The mask of :meth:`mask`, made once per state (the observation and the action
        of one step share it; callers get copies)."""
        key = ("mask", agent)
        m = self._cache.get(key)
        if m is None:
            if self.acting(agent):
                m = np.array(self.legal(agent), dtype=np.int8)  # a copy: legal() may hand out a kept array
                m[0] = 0
                if not m.any():
                    m[0] = 1
            else:
                m = np.zeros(self.n, dtype=np.int8)
                m[0] = 1
            self._cache[key] = m
        return m

    def action(self, agent: str, index: int) -> Any:
        """The structured action for ``index``; ``None`` when the agent does not act now."""
        if not self.acting(agent):
            return None
        index = int(index)
        if not 0 <= index < self.n or not self._mask(agent)[index]:
            return self.refused(agent)
        return self.structured(agent, index)

    def describe(self, agent: str | None = None) -> list[str]:
        """The label of every index (``agent`` is unused by menus whose labels are fixed)."""
        return list(self.labels)


#: game name -> menu factory(game, **options): each registered game's ``menu`` part
#: (:mod:`negotiation_env.core.registry`); :func:`menu_for` also takes an entry set here
#: under a game's env id
MENUS = registry.PartTable("menu")


def menu_for(game: Any, **options: Any) -> Menu:
    env_id = getattr(game, "metadata", {}).get("name")
    spec = registry.by_env_id(env_id) if isinstance(env_id, str) else None
    name = env_id if env_id in MENUS or spec is None else spec.name
    if name not in MENUS:
        known = ", ".join(registry.get(n).env_id if registry.find(n) else n for n in MENUS)
        if spec is not None:
            raise TypeError(f"the {spec.name} game ({env_id}) has no numeric menu; menus exist for: {known}")
        raise TypeError(f"no numeric menu for game {env_id!r}; menus exist for: {known}")
    return MENUS[name](game, **options)
