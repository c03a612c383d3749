"""The round of a lock-step player: games in slots, advanced to their next batched
decision, answered per policy object.

:class:`Slots` keeps up to ``batch_games`` games open. Each :meth:`Slots.round`
advances every open game, in slot order, to its next decision of a batched policy (the
caller's ``advance`` plays the other turns on the way); a game that ends on the way
gives its slot to the next planned game at once, which is opened and advanced in the
same round, so every batch is full until the plan runs out. :func:`by_policy` then
groups the round's decisions per policy object (one batched call each). Both the
runner's :func:`~.lockstep.play_lockstep` (traces) and
:func:`negotiation_env.online.rollouts` (token-level episodes) play through them.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Generic, Iterable, TypeVar

__all__ = ["Slots", "by_policy", "takes_seeds"]

G = TypeVar("G")  # an open game
A = TypeVar("A")  # one pending decision of a game

_END = object()


class Slots(Generic[G, A]):
    """Up to ``batch_games`` games open at once, opened in ``plan`` order.

    open: a plan item -> an open game. advance: an open game -> its next pending
    decision, or None when the game is over; an exception it raises ends that game (the
    round reports it, and the caller decides whether to raise it)."""

    def __init__(self, plan: Iterable[Any], batch_games: int, open: Callable[[Any], G],
                 advance: Callable[[G], A | None]):
        if isinstance(batch_games, bool) or not isinstance(batch_games, int) or batch_games < 1:
            raise ValueError(f"batch_games must be an integer >= 1; got {batch_games!r}")
        self._plan = iter(plan)
        self._open = open
        self._advance = advance
        self.batch_games = batch_games
        #: the open games, in slot order, each with one pending decision after a round
        self.live: list[G] = []
        self._exhausted = False

    def round(self) -> tuple[list[A], list[tuple[G, BaseException | None]]]:
        """Advance every open game to its next decision and fill the free slots.
        Returns the pending decisions (one per game left in :attr:`live`, in its order)
        and the games that ended on the way, in the order they ended, each with the
        exception ``advance`` raised for it (None: the game is over)."""
        asks: list[A] = []
        still: list[G] = []
        ended: list[tuple[G, BaseException | None]] = []
        waiting = list(reversed(self.live))
        while True:
            if waiting:
                g = waiting.pop()
            elif not self._exhausted and len(still) < self.batch_games:
                item = next(self._plan, _END)
                if item is _END:
                    self._exhausted = True
                    continue
                g = self._open(item)
            else:
                break
            try:
                ask = self._advance(g)
            except Exception as e:  # noqa: BLE001 - the caller decides (a trace of the failure, or raise)
                ended.append((g, e))
                continue
            if ask is None:
                ended.append((g, None))
            else:
                asks.append(ask)
                still.append(g)
        self.live = still
        return asks, ended

    def drop(self, games: Iterable[G]) -> None:
        """Close ``games`` (ended between rounds, e.g. when their answer failed)."""
        gone = {id(g) for g in games}
        self.live = [g for g in self.live if id(g) not in gone]


def by_policy(asks: Iterable[A], policy_of: Callable[[A], Any]) -> list[tuple[Any, list[A]]]:
    """``(policy, its asks)`` per policy object (by identity), in order of first ask:
    each group is one batched call."""
    groups: dict[int, tuple[Any, list[A]]] = {}
    for a in asks:
        p = policy_of(a)
        groups.setdefault(id(p), (p, []))[1].append(a)
    return list(groups.values())


def takes_seeds(policy: Any) -> bool:
    """Whether ``policy.act_batch`` takes per-item ``seeds``."""
    fn = getattr(policy, "act_batch", None)
    if not callable(fn):
        return False
    try:
        return "seeds" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
