"""Rules of the five-party rulemaking negotiation (seed 001, §3): pure Python.

A run is at most ``max_turns`` turns (15). Parties speak in the scenario's party order
(the authority first), cycling; a party that plays Exit leaves and is skipped from then
on. A run ends after the last turn, earlier when fewer than two parties remain, or
earlier still when the game concludes it (:meth:`RunState.conclude`: the parties reached
agreement; which agreement ends a run is the game's ``early_end`` setting).
Moves come from a closed vocabulary; each recorded turn keeps its provenance:
``genuine`` (accepted at the first attempt), ``retried`` (accepted after a re-prompt)
or ``fallback`` (no valid answer; the harness inserted Oppose).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MOVES", "PROVENANCES", "Turn", "RunState", "SOFTENING", "HARD"]

MOVES = ("Support", "Oppose", "Concede", "Counter", "Exit")
PROVENANCES = ("genuine", "retried", "fallback")
SOFTENING = frozenset({"Support", "Concede"})
HARD = frozenset({"Oppose", "Counter", "Exit"})


@dataclass(frozen=True)
class Turn:
    index: int  # 0-based turn number
    party: str
    move: str
    issue: str | None
    rationale: str
    provenance: str = "genuine"

    def __post_init__(self):
        if self.move not in MOVES:
            raise ValueError(f"move must be one of {MOVES}; got {self.move!r}")
        if self.provenance not in PROVENANCES:
            raise ValueError(f"provenance must be one of {PROVENANCES}; got {self.provenance!r}")


class RunState:
    """The public record of a run and whose turn it is."""

    def __init__(self, parties: tuple[str, ...], max_turns: int = 15):
        if len(parties) < 2:
            raise ValueError("a run needs at least two parties")
        if max_turns < 1:
            raise ValueError("max_turns must be >= 1")
        self.parties = tuple(parties)
        self.max_turns = max_turns
        self.turns: list[Turn] = []
        self.exited: set[str] = set()
        self.concluded = False  # ended before the horizon by agreement (conclude())
        self._slot = 0  # position in the party cycle of the next speaker
        # active_parties, kept while the set of exited parties keeps its size (it only grows)
        self._active: tuple[int, tuple[str, ...]] = (0, self.parties)

    @property
    def active_parties(self) -> tuple[str, ...]:
        n, active = self._active
        if n != len(self.exited):
            active = tuple(p for p in self.parties if p not in self.exited)
            self._active = (len(self.exited), active)
        return active

    @property
    def done(self) -> bool:
        if self.concluded or len(self.turns) >= self.max_turns:
            return True
        # with nobody exited every party is at the table, and a run has at least two
        return bool(self.exited) and len(self.active_parties) < 2

    @property
    def end_reason(self) -> str | None:
        """Why the run ended: ``agreement`` (concluded), ``horizon`` (all ``max_turns``
        turns played), ``exits`` (fewer than two parties left); None while it runs."""
        if self.concluded:
            return "agreement"
        if len(self.turns) >= self.max_turns:
            return "horizon"
        if len(self.active_parties) < 2:
            return "exits"
        return None

    def conclude(self) -> None:
        """End the run now, before the horizon: the parties reached agreement."""
        if self.done:
            raise ValueError("the run is already over")
        self.concluded = True

    @property
    def turn_index(self) -> int:
        return len(self.turns)

    def current(self) -> str | None:
        """The party whose move is awaited (None once the run is over)."""
        if self.done:
            return None
        n = len(self.parties)
        for k in range(n):
            p = self.parties[(self._slot + k) % n]
            if p not in self.exited:
                return p
        return None  # pragma: no cover - done covers it

    def record(self, party: str, move: str, issue: str | None, rationale: str, provenance: str) -> Turn:
        if party != self.current():
            raise ValueError(f"it is {self.current()}'s turn, not {party}'s")
        turn = Turn(self.turn_index, party, move, issue, rationale, provenance)
        self.turns.append(turn)
        if move == "Exit":
            self.exited.add(party)
        self._slot = (self.parties.index(party) + 1) % len(self.parties)
        return turn

    def turns_left(self) -> int:
        return max(0, self.max_turns - len(self.turns))
