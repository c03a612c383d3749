"""Scripted players of the matrix game (seed 002): no language model.

They read only the observation's numeric features
(:mod:`negotiation_env.games.matrix.features`) and answer with the structured action
or, with ``output="text"``, the text a model would write (``"A"``/``"B"``, a one-sentence
message). The classic repeated-game strategies, with the closed forms the metric tests
check:

* ``always_a`` / ``always_b``: one action every round (switching S = 0).
* ``tit_for_tat``: ``first`` (A) in round 1, then the partner's last action. Against
  itself from a symmetric start it never switches (S = 0); from an asymmetric start
  the two alternate in antiphase (S = 1).
* ``wsls`` (win-stay, lose-shift; Nowak & Sigmund): repeat the last action after a
  win, switch after a loss. A win is a last payoff above the mean of the stage game's
  four own payoffs (2.25 with 5, 3, 1, 0: the two higher values, R and T in the
  Prisoner's Dilemma), ``aspiration`` to set another level.
* ``alternator``: period two, ``first`` (A) in odd rounds and the other action in even
  rounds (S = 1 and period-two adherence C = 1).
* ``bernoulli``: A with probability ``p`` (0.5) each round, independently, from the
  policy's seeded generator (expected switching 2p(1 - p)).

Messages (communication treatment): an honest one-sentence announcement of the action
the policy is about to play, "I intend to choose A this round." The action is drawn
when the message is written and kept for the action phase, so a Bernoulli player's
announcement is true too. (The system prompt asks agents not to disclose their action
in the messaging phase; scripts ignore that on purpose, to give clean evidence.) In the
acknowledgement phase they answer "Understood."
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from negotiation_env.core.policy import BasePolicy
from negotiation_env.games.matrix.features import LAYOUT, PHASES
from negotiation_env.games.matrix.rules import ACTIONS

__all__ = ["MatrixPlayer", "AlwaysA", "AlwaysB", "TitForTat", "WinStayLoseShift", "Alternator", "Bernoulli",
           "POLICIES", "make", "announcement", "ACKNOWLEDGEMENT"]

ACKNOWLEDGEMENT = "Understood."
_OUTPUTS = ("structured", "text")


def announcement(action: str) -> str:
    """The honest one-sentence message announcing ``action``."""
    return f"I intend to choose {action} this round."


class MatrixPlayer(BasePolicy):
    """Base: reads the features, asks :meth:`choose` for the round's action once, and
    renders a message, an action or an acknowledgement by the phase."""

    name = "matrix"

    def __init__(self, seed: int | None = None, output: str = "structured"):
        if output not in _OUTPUTS:
            raise ValueError(f"output must be one of {', '.join(_OUTPUTS)}; got {output!r}")
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.output = output
        self._planned: tuple[int, str] | None = None  # (round index, action) decided at message time

    # -- what every policy reads
    @staticmethod
    def feature(obs: Mapping[str, Any], name: str) -> np.ndarray:
        return np.asarray(obs["features"])[LAYOUT.slice(name)]

    def phase(self, obs) -> str:
        return PHASES[int(np.argmax(self.feature(obs, "phase")))]

    def round_index(self, obs) -> int:
        """Rounds resolved so far (0 in round 1)."""
        return int(round(float(self.feature(obs, "round")[0])))

    def last(self, obs, name: str) -> str | None:
        """The last resolved round's action (``name``: last_own_action / last_partner_action)."""
        v = self.feature(obs, name)
        return ACTIONS[int(np.argmax(v))] if v.sum() > 0 else None

    def choose(self, obs) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def act(self, obs: Mapping[str, Any]) -> Any:
        phase = self.phase(obs)
        if phase == "acknowledge":
            return ACKNOWLEDGEMENT if self.output == "text" else {"message": ACKNOWLEDGEMENT}
        r = self.round_index(obs)
        if phase == "message":  # decide the round's action now and announce it
            self._planned = (r, self.choose(obs))
            msg = announcement(self._planned[1])
            return msg if self.output == "text" else {"message": msg}
        action = self._planned[1] if self._planned is not None and self._planned[0] == r else self.choose(obs)
        self._planned = None
        return action if self.output == "text" else {"action": ACTIONS.index(action)}


class AlwaysA(MatrixPlayer):
    name = "always_a"

    def choose(self, obs) -> str:
        return "A"


class AlwaysB(MatrixPlayer):
    name = "always_b"

    def choose(self, obs) -> str:
        return "B"


def _check_action(field: str, v: str) -> str:
    if v not in ACTIONS:
        raise ValueError(f"{field} must be 'A' or 'B'; got {v!r}")
    return v


class TitForTat(MatrixPlayer):
    name = "tit_for_tat"

    def __init__(self, seed=None, output="structured", *, first: str = "A"):
        super().__init__(seed, output)
        self.first = _check_action("first", first)

    def choose(self, obs) -> str:
        return self.last(obs, "last_partner_action") or self.first


class WinStayLoseShift(MatrixPlayer):
    name = "wsls"

    def __init__(self, seed=None, output="structured", *, first: str = "A", aspiration: float | None = None):
        super().__init__(seed, output)
        self.first = _check_action("first", first)
        if aspiration is not None and (isinstance(aspiration, bool) or not isinstance(aspiration, (int, float))):
            raise ValueError(f"aspiration must be a number or None; got {aspiration!r}")
        self.aspiration = aspiration

    def level(self, obs) -> float:
        if self.aspiration is not None:
            return float(self.aspiration)
        return float(np.mean(self.feature(obs, "payoffs")))

    def choose(self, obs) -> str:
        own = self.last(obs, "last_own_action")
        if own is None:
            return self.first
        won = float(self.feature(obs, "last_payoff")[0]) > self.level(obs)
        return own if won else ("B" if own == "A" else "A")


class Alternator(MatrixPlayer):
    name = "alternator"

    def __init__(self, seed=None, output="structured", *, first: str = "A"):
        super().__init__(seed, output)
        self.first = _check_action("first", first)

    def choose(self, obs) -> str:
        other = "B" if self.first == "A" else "A"
        return self.first if self.round_index(obs) % 2 == 0 else other


class Bernoulli(MatrixPlayer):
    name = "bernoulli"

    def __init__(self, seed=None, output="structured", *, p: float = 0.5):
        super().__init__(seed, output)
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
            raise ValueError(f"p must be a probability in [0, 1]; got {p!r}")
        self.p = float(p)

    def choose(self, obs) -> str:
        return "A" if self.rng.random() < self.p else "B"


POLICIES: dict[str, Callable[..., MatrixPlayer]] = {
    "always_a": AlwaysA,
    "always_b": AlwaysB,
    "tit_for_tat": TitForTat,
    "wsls": WinStayLoseShift,
    "alternator": Alternator,
    "bernoulli": Bernoulli,
}


def make(name: str, seed: int | None = None, output: str = "structured", **options: Any) -> MatrixPlayer:
    """The scripted matrix player ``name`` (a key of :data:`POLICIES`); ``options`` are its
    keyword settings (``first``, ``aspiration``, ``p``)."""
    if name not in POLICIES:
        raise ValueError(f"unknown matrix policy {name!r}; available: {', '.join(POLICIES)}")
    try:
        return POLICIES[name](seed=seed, output=output, **options)
    except TypeError as e:
        raise ValueError(f"matrix policy {name!r}: {e}") from None
