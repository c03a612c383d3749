"""Deal or No Deal's discrete menu and numeric observation, for
:mod:`negotiation_env.wrappers.numeric`.

Menu (``n = 30``): pass, accept, walk away, and 27 proposals, each keeping none, half
(rounded down) or all of each item type:

| index | label | sends | legal when |
| --- | --- | --- | --- |
| 0 | ``pass`` | nothing (the action does not count) | the agent does not move now |
| 1 | ``accept`` | ``{"action": "accept"}`` | the partner's proposal is on the table |
| 2 | ``walk_away`` | ``{"action": "walk_away"}`` | the config allows walking away |
| 3 + 9b + 3h + l | ``propose_B_H_L`` | ``{"action": "propose", "take": [...]}``, keeping level B of the books, H of the hats, L of the balls (each ``none``, ``half`` or ``all``; index digits 0, 1, 2) | always, once per distinct split: where two levels give the same count (one item: half is none) only the first index is legal |

Menu moves carry no message. The observation is the game's feature vector
(:mod:`.features`), index by index.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...wrappers.menus import Layout, Menu
from .features import LAYOUT

__all__ = ["DondMenu", "LABELS", "LEVELS"]

LEVELS = ("none", "half", "all")
_PROPOSALS = tuple(itertools.product(range(len(LEVELS)), repeat=3))
LABELS = ("pass", "accept", "walk_away") + tuple(f"propose_{'_'.join(LEVELS[k] for k in p)}" for p in _PROPOSALS)
_FIRST = 3


def _count(level: int, n: int) -> int:
    return (0, n // 2, n)[level]


class DondMenu(Menu):
    game_name = "dond_v0"

    def __init__(self, game: Any):
        super().__init__(game)
        self.labels = LABELS
        self.layout = Layout([("features", LAYOUT.size)])

    def read(self, agent: str) -> dict[str, Any]:
        return {"features": self.game.features(agent)}

    def observation(self, agent: str) -> np.ndarray:
        return np.asarray(self.reading(agent)["features"], dtype=np.float32).copy()

    def take(self, index: int) -> tuple[int, int, int]:
        """The split proposal ``index`` keeps, in this game's pool."""
        pool = self.game.instance.pool
        return tuple(_count(k, n) for k, n in zip(_PROPOSALS[index - _FIRST], pool))  # type: ignore[return-value]

    def legal(self, agent: str) -> np.ndarray:
        m = np.zeros(self.n, dtype=np.int8)
        game = self.game
        m[1] = game.offer_for(agent) is not None
        m[2] = bool(game.config.walk_away)
        seen: set[tuple[int, int, int]] = set()
        for i in range(_FIRST, self.n):
            t = self.take(i)
            if t not in seen:
                seen.add(t)
                m[i] = 1
        return m

    def refused(self, agent: str) -> dict[str, Any]:
        return {}

    def structured(self, agent: str, index: int) -> dict[str, Any]:
        if index == 1:
            return {"message": "", "action": "accept"}
        if index == 2:
            return {"message": "", "action": "walk_away"}
        return {"message": "", "action": "propose", "take": list(self.take(index))}
