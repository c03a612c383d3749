"""Scripted players of Deal or No Deal: no language model.

They read only the observation's numeric features (:mod:`.features`: the pool, their
own values, the partner's proposal on the table and what it is worth to them, turns
left) and answer with the structured action or, with ``output="text"``, the JSON text a
model would write. Each is deterministic under its seed (only ``random`` draws).

* ``greedy_concede``: opens by keeping the most it can (aspiration 10), lowers its
  aspiration by ``step`` (1) points on each of its turns down to ``floor`` (5), proposes
  the most generous split worth at least its aspiration to itself, and accepts an offer
  worth at least its aspiration; on the last turn, when a proposal can no longer be
  accepted, it accepts any offer worth at least ``floor``.
* ``fair_split``: accepts an offer worth at least half the pool's value to it (5), and
  otherwise proposes the most generous split worth at least 5 to itself.
* ``accept_anything``: accepts any offer on the table; with none, proposes to keep the
  items it values and give away the rest.
* ``random``: with an offer on the table accepts with probability ``p_accept`` (0.5);
  otherwise proposes a split drawn uniformly from all splits, from the policy's seeded
  generator.

"The most generous split worth at least v": among the splits worth at least ``v`` to
the player, the one worth least to it, then the one keeping fewest items, then the first
in :func:`~.rules.splits` order, since the partner's values are unknown to it. No
player walks away. Messages are short honest sentences about the move and never name
the policy.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

import numpy as np

from ...core.policy import BasePolicy
from .features import LAYOUT
from .prompts import bundle_text
from .rules import ITEMS, TOTAL_VALUE, splits, value_of

__all__ = ["DondPlayer", "GreedyConcede", "FairSplit", "AcceptAnything", "RandomPlayer", "POLICIES", "make",
           "generous_split"]

_OUTPUTS = ("structured", "text")


def generous_split(pool, values, target: float) -> tuple[int, int, int]:
    """The most generous split worth at least ``target`` (module docstring); keeping
    everything where none is."""
    ok = [t for t in splits(pool) if value_of(values, t) >= target]
    if not ok:
        return tuple(int(c) for c in pool)  # type: ignore[return-value]
    return min(ok, key=lambda t: (value_of(values, t), sum(t)))


class DondPlayer(BasePolicy):
    """Base: reads the features, asks :meth:`decide` for ``("accept", None)`` or
    ``("propose", take)``, and renders the move."""

    name = "dond"

    def __init__(self, seed: int | None = None, output: str = "structured"):
        if output not in _OUTPUTS:
            raise ValueError(f"output must be one of {', '.join(_OUTPUTS)}; got {output!r}")
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.output = output

    @staticmethod
    def feature(obs: Mapping[str, Any], name: str) -> np.ndarray:
        return np.asarray(obs["features"])[LAYOUT.slice(name)]

    def ints(self, obs, name: str) -> tuple[int, ...]:
        return tuple(int(round(float(x))) for x in self.feature(obs, name))

    def decide(self, obs) -> tuple[str, tuple[int, int, int] | None]:  # pragma: no cover - abstract
        raise NotImplementedError

    def act(self, obs: Mapping[str, Any]) -> Any:
        action, take = self.decide(obs)
        if action == "accept":
            move = {"message": "Deal, I accept.", "action": "accept"}
        else:
            pool = self.ints(obs, "pool")
            you = tuple(c - t for c, t in zip(pool, take))
            move = {"message": f"I would like {bundle_text(take)}; you get {bundle_text(you)}.",
                    "action": "propose", "take": dict(zip(ITEMS, (int(t) for t in take)))}
        return json.dumps(move) if self.output == "text" else move

    # what several players read
    def offer_value(self, obs) -> int | None:
        """The worth to this player of the partner's proposal on the table (None: none)."""
        return self.ints(obs, "offer_value")[0] if self.feature(obs, "offer")[0] > 0 else None

    def last_turn(self, obs) -> bool:
        return self.ints(obs, "turns_left")[0] <= 1


def _check_number(field: str, v: Any, lo: float, hi: float) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        raise ValueError(f"{field} must be a number from {lo} to {hi}; got {v!r}")
    return float(v)


class GreedyConcede(DondPlayer):
    name = "greedy_concede"

    def __init__(self, seed=None, output="structured", *, step: float = 1.0, floor: float = 5.0):
        super().__init__(seed, output)
        self.step = _check_number("step", step, 0, TOTAL_VALUE)
        self.floor = _check_number("floor", floor, 0, TOTAL_VALUE)

    def aspiration(self, obs) -> float:
        own_turns = self.ints(obs, "turn")[0] // 2  # this player's turns before this one
        return max(self.floor, TOTAL_VALUE - self.step * own_turns)

    def decide(self, obs):
        target = self.aspiration(obs)
        offered = self.offer_value(obs)
        if offered is not None and (offered >= target or (self.last_turn(obs) and offered >= self.floor)):
            return "accept", None
        return "propose", generous_split(self.ints(obs, "pool"), self.ints(obs, "values"), target)


class FairSplit(DondPlayer):
    name = "fair_split"

    def decide(self, obs):
        offered = self.offer_value(obs)
        if offered is not None and offered >= TOTAL_VALUE / 2:
            return "accept", None
        return "propose", generous_split(self.ints(obs, "pool"), self.ints(obs, "values"), TOTAL_VALUE / 2)


class AcceptAnything(DondPlayer):
    name = "accept_anything"

    def decide(self, obs):
        if self.offer_value(obs) is not None:
            return "accept", None
        pool, values = self.ints(obs, "pool"), self.ints(obs, "values")
        return "propose", tuple(c if v > 0 else 0 for c, v in zip(pool, values))


class RandomPlayer(DondPlayer):
    name = "random"

    def __init__(self, seed=None, output="structured", *, p_accept: float = 0.5):
        super().__init__(seed, output)
        self.p_accept = _check_number("p_accept", p_accept, 0, 1)

    def decide(self, obs):
        if self.offer_value(obs) is not None and self.rng.random() < self.p_accept:
            return "accept", None
        options = list(splits(self.ints(obs, "pool")))
        return "propose", options[int(self.rng.integers(len(options)))]


POLICIES: dict[str, Callable[..., DondPlayer]] = {
    "greedy_concede": GreedyConcede,
    "fair_split": FairSplit,
    "accept_anything": AcceptAnything,
    "random": RandomPlayer,
}


def make(name: str, seed: int | None = None, output: str = "structured", **options: Any) -> DondPlayer:
    """The scripted Deal or No Deal player ``name`` (a key of :data:`POLICIES`);
    ``options`` are its keyword settings (``step``, ``floor``, ``p_accept``)."""
    if name not in POLICIES:
        raise ValueError(f"unknown dond policy {name!r}; available: {', '.join(POLICIES)}")
    try:
        return POLICIES[name](seed=seed, output=output, **options)
    except TypeError as e:
        raise ValueError(f"dond policy {name!r}: {e}") from None
