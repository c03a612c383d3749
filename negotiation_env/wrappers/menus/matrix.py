"""The matrix game's discrete menu and numeric observation.

Menu (``n = 8``): a message from a small set of one-sentence messages, then A or B.

| index | label | sends | legal when |
| --- | --- | --- | --- |
| 0 | ``pass`` | nothing (the action does not count) | the agent does not act now |
| 1 | ``acknowledge`` | "Understood." | the acknowledgement call (``acknowledgement=True``) |
| 2 | ``say_intend_a`` | "I intend to choose A this round." | messaging phase |
| 3 | ``say_intend_b`` | "I intend to choose B this round." | messaging phase |
| 4 | ``say_mutual_benefit`` | "I intend to pursue the mutually beneficial outcome this round." (Table S8) | messaging phase |
| 5 | ``say_self_priority`` | "I intend to prioritize my own highest possible score this round." (Table S8) | messaging phase |
| 6 | ``choose_a`` | action A | action phase |
| 7 | ``choose_b`` | action B | action phase |

Observation, index by index: the game's feature vector
(:mod:`negotiation_env.games.matrix.features`: phase, active, round, treatment, the
stage game's payoffs, framing, last actions and payoffs, running scores, A counts),
then the agent's own message this round and the partner's revealed message, each
one-hot over the four menu messages plus ``other`` (free text, e.g. a model partner's)
and all zero when there is none (yet): the partner's is filled only once both messages
are in, as the game reveals them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from negotiation_env.games.matrix.features import LAYOUT
from negotiation_env.games.matrix.prompts import MUTUAL_BENEFIT, SELF_PRIORITY

from . import Layout, Menu

__all__ = ["MatrixMenu", "LABELS", "MESSAGES"]

#: the menu's messages, in menu order
MESSAGES = ("I intend to choose A this round.", "I intend to choose B this round.", MUTUAL_BENEFIT, SELF_PRIORITY)
LABELS = ("pass", "acknowledge", "say_intend_a", "say_intend_b", "say_mutual_benefit", "say_self_priority",
          "choose_a", "choose_b")
ACKNOWLEDGEMENT = "Understood."
_SAY = tuple(range(2, 6))
_CHOOSE = (6, 7)


class MatrixMenu(Menu):
    game_name = "matrix_v1"

    def __init__(self, game: Any):
        super().__init__(game)
        self.labels = LABELS
        k = len(MESSAGES) + 1
        self.layout = Layout([("features", LAYOUT.size), ("own_message", k), ("partner_message", k)])
        # the mask of each phase, made once (mask() copies it)
        self._legal = {phase: self._legal_of(phase) for phase in ("acknowledge", "message", "action", "done")}
        self._own_at = self.layout.slice("own_message").start
        self._partner_at = self.layout.slice("partner_message").start
        self._size = self.layout.size
        # Menu._mask of each phase while the agent acts, and while it does not: the mask
        # reads nothing else, so it is made once (mask() hands out copies)
        self._acting_masks = {phase: self._acting_mask(m) for phase, m in self._legal.items()}
        self._idle_mask = np.zeros(self.n, dtype=np.int8)
        self._idle_mask[0] = 1
        # for action(): the same masks as lists, and what structured() returns per index
        self._acting_lists = {phase: m.tolist() for phase, m in self._acting_masks.items()}
        self._structured = [self.structured("", i) for i in range(self.n)]

    def action(self, agent: str, index: int) -> Any:
        """Menu.action from the tables made in __init__ (a new dict each call)."""
        game = self.game
        if agent not in game.acting():
            return None
        index = int(index)
        allowed = self._acting_lists.get(game.phase)
        if allowed is None:
            return super().action(agent, index)
        if not 0 <= index < self.n or not allowed[index]:
            return self.refused(agent)
        return dict(self._structured[index])

    @staticmethod
    def _acting_mask(legal: np.ndarray) -> np.ndarray:
        m = np.array(legal, dtype=np.int8)
        m[0] = 0
        if not m.any():
            m[0] = 1
        return m

    def _mask(self, agent: str) -> np.ndarray:
        game = self.game
        if agent not in game.acting():
            return self._idle_mask
        m = self._acting_masks.get(game.phase)
        return super()._mask(agent) if m is None else m

    def read(self, agent: str) -> dict[str, Any]:
        return {"features": self.game.features(agent)}

    @staticmethod
    def _one_hot(text: str | None) -> np.ndarray:
        v = np.zeros(len(MESSAGES) + 1, dtype=np.float32)
        if text is not None:
            v[MESSAGES.index(text) if text in MESSAGES else len(MESSAGES)] = 1
        return v

    @staticmethod
    def _message_index(text: str) -> int:
        """The one-hot position of :meth:`_one_hot`."""
        return MESSAGES.index(text) if text in MESSAGES else len(MESSAGES)

    def observation(self, agent: str) -> np.ndarray:
        game = self.game
        v = np.zeros(self._size, dtype=np.float32)
        v[: LAYOUT.size] = game.features(agent)  # (what read() holds; each state is observed once a step)
        if game.phase in ("message", "action"):
            text = game.messages.get(agent)
            if text is not None:
                v[self._own_at + self._message_index(text)] = 1
        if game.phase == "action" and game.communication:
            text = game.messages.get(game.other(agent))
            if text is not None:
                v[self._partner_at + self._message_index(text)] = 1
        return v

    def legal(self, agent: str) -> np.ndarray:
        phase = self.game.phase
        m = self._legal.get(phase)
        return self._legal_of(phase) if m is None else m

    def _legal_of(self, phase: str) -> np.ndarray:
        m = np.zeros(self.n, dtype=np.int8)
        if phase == "acknowledge":
            m[1] = 1
        elif phase == "message":
            m[list(_SAY)] = 1
        elif phase == "action":
            m[list(_CHOOSE)] = 1
        return m

    def refused(self, agent: str) -> dict[str, Any]:
        return {}

    def structured(self, agent: str, index: int) -> dict[str, Any]:
        if index == 1:
            return {"message": ACKNOWLEDGEMENT}
        if index in _SAY:
            return {"message": MESSAGES[index - 2]}
        return {"action": index - _CHOOSE[0]}
