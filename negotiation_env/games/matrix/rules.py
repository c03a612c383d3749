"""Rules of the repeated 2x2 games of seed 002 (Methods, Table S11): pure Python.

Both agents choose A or B each round. In the paper's notation R is each agent's payoff
when both choose A, P when both choose B, T the payoff to B against A (temptation) and
S the payoff to A against B (sucker). The four games differ only in the rank order of
these four payoffs, and the values 5, 3, 1 and 0 are assigned in that order:

| game | rank order | R | S | T | P |
| --- | --- | --- | --- | --- | --- |
| Prisoner's Dilemma | T > R > P > S | 3 | 0 | 5 | 1 |
| Snowdrift | T > R > S > P | 3 | 1 | 5 | 0 |
| Stag Hunt | R > T > P > S | 5 | 0 | 3 | 1 |
| Harmony | R > S > T > P | 5 | 3 | 1 | 0 |

The games are symmetric: an agent's payoff depends on its own action and its
counterpart's, never on its seat. The conventional names above are for people; the
prompts never show them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ACTIONS", "VALUES", "STAGE_GAMES", "RANK_ORDERS", "StageGame", "stage_game", "RoundResult", "resolve",
           "PAYOFF_ORDER", "other_action"]

ACTIONS = ("A", "B")
#: the four payoff values, assigned in each game's rank order (highest first)
VALUES = (5, 3, 1, 0)
#: game id -> its rank order of R, S, T, P (highest first), Methods
RANK_ORDERS: dict[str, str] = {
    "prisoners_dilemma": "TRPS",
    "snowdrift": "TRSP",
    "stag_hunt": "RTPS",
    "harmony": "RSTP",
}
STAGE_GAMES: tuple[str, ...] = tuple(RANK_ORDERS)
NAMES = {"prisoners_dilemma": "Prisoner's Dilemma", "snowdrift": "Snowdrift", "stag_hunt": "Stag Hunt",
         "harmony": "Harmony"}
#: the fixed order of the payoff lines in the prompt (F.8): (own, other) = A A, B A, A B, B B
PAYOFF_ORDER: tuple[tuple[str, str], ...] = (("A", "A"), ("B", "A"), ("A", "B"), ("B", "B"))


def other_action(action: str) -> str:
    """The action not taken (A <-> B)."""
    if action not in ACTIONS:
        raise ValueError(f"action must be 'A' or 'B'; got {action!r}")
    return "B" if action == "A" else "A"


@dataclass(frozen=True)
class StageGame:
    """One symmetric 2x2 game: ``R`` (A vs A), ``S`` (A vs B), ``T`` (B vs A), ``P`` (B vs B)."""

    id: str
    R: int
    S: int
    T: int
    P: int

    @property
    def name(self) -> str:
        """The conventional name (for tables; never shown to agents)."""
        return NAMES.get(self.id, self.id)

    def payoff(self, own: str, other: str) -> int:
        """Points to an agent that played ``own`` against ``other``."""
        if own not in ACTIONS or other not in ACTIONS:
            raise ValueError(f"actions must be 'A' or 'B'; got {own!r}, {other!r}")
        return {("A", "A"): self.R, ("A", "B"): self.S, ("B", "A"): self.T, ("B", "B"): self.P}[(own, other)]

    def lines(self) -> tuple[tuple[str, str, int, int], ...]:
        """(own action, other action, own points, other points) in the prompt's order (F.8)."""
        return tuple((o, x, self.payoff(o, x), self.payoff(x, o)) for o, x in PAYOFF_ORDER)

    def own_payoffs(self) -> tuple[int, int, int, int]:
        """Own points in the prompt's order: A A, B A, A B, B B (= R, T, S, P)."""
        return tuple(self.payoff(o, x) for o, x in PAYOFF_ORDER)  # type: ignore[return-value]


def _build(game_id: str) -> StageGame:
    order = RANK_ORDERS[game_id]
    values = dict(zip(order, VALUES))
    return StageGame(game_id, R=values["R"], S=values["S"], T=values["T"], P=values["P"])


_GAMES = {g: _build(g) for g in STAGE_GAMES}


def stage_game(game_id: str) -> StageGame:
    """The stage game with id ``game_id`` (one of :data:`STAGE_GAMES`)."""
    if game_id not in _GAMES:
        raise ValueError(f"unknown stage game {game_id!r}; one of {', '.join(STAGE_GAMES)}")
    return _GAMES[game_id]


@dataclass(frozen=True)
class RoundResult:
    """One resolved round: actions and points in seat order (agent 0, agent 1)."""

    round: int  # 1-based
    actions: tuple[str, str]
    payoffs: tuple[int, int]

    @property
    def joint(self) -> str:
        """The joint outcome, agent 0's action first: ``"AA"``, ``"AB"``, ``"BA"``, ``"BB"``."""
        return self.actions[0] + self.actions[1]


def resolve(game: StageGame, round_index: int, a0: str, a1: str) -> RoundResult:
    """Score one round of ``game``: both actions are revealed together."""
    return RoundResult(round_index, (a0, a1), (game.payoff(a0, a1), game.payoff(a1, a0)))
