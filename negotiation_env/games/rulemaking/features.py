"""The numeric feature vector of a rulemaking observation, index by index.

Moves are in :data:`~.rules.MOVES` order (Support, Oppose, Concede, Counter, Exit);
conditions in :data:`CONDITIONS` order. ``LAYOUT.slice(name)`` finds a slot, so a
learner or a scripted policy never hard-codes an offset.

| name | size | meaning |
| --- | --- | --- |
| turn | 1 | turns recorded so far (0-based index of the next turn) |
| max_turns | 1 | the run's turn limit |
| turns_left | 1 | turns still to be played, counting the next one |
| own_turns_left | 1 | turns this party still gets if nobody else exits |
| active | 1 | 1 when this party's move is awaited now |
| retries | 1 | invalid responses in a row to the current prompt |
| is_authority | 1 | 1 for the convening authority |
| exited | 1 | 1 once this party has played Exit |
| active_parties | 1 | parties still at the table |
| salience | 1 | this party's salience this run (in [0, 1]) |
| attention | 1 | the run's external attention in [0, 1]: its sampled value (``attention="scale"``), or level index / (levels - 1) (``"levels"``) |
| coordinated | 1 | 1 when the opposing stakeholders coordinate this run |
| moves | 5 | counts of each move so far, all parties |
| recent_moves | 5 | counts of each move in the last ``history_window`` turns |
| others_recent_softening | 1 | Support or Concede by other parties in the window |
| others_recent_concessions | 1 | Concede by other parties in the window |
| own_moves | 5 | counts of each of this party's own moves |
| own_last_move | 5 | one-hot of this party's last move (zeros before its first) |
| condition | 9 | one-hot of the run's condition |
"""

from __future__ import annotations

from ...core.layout import Layout
from .rules import MOVES

__all__ = ["CONDITIONS", "FeatureLayout", "LAYOUT"]

CONDITIONS = ("none", "ledger", "native", "notes", "notebook_state", "notebook_process", "notebook_message", "digest",
              "ledger_relabelled")

FEATURE_HIGH = 1e6


class FeatureLayout(Layout):
    def __init__(self):
        k = len(MOVES)
        super().__init__([
            ("turn", 1), ("max_turns", 1), ("turns_left", 1), ("own_turns_left", 1), ("active", 1),
            ("retries", 1), ("is_authority", 1), ("exited", 1), ("active_parties", 1), ("salience", 1),
            ("attention", 1), ("coordinated", 1), ("moves", k), ("recent_moves", k),
            ("others_recent_softening", 1), ("others_recent_concessions", 1), ("own_moves", k),
            ("own_last_move", k), ("condition", len(CONDITIONS)),
        ], high=FEATURE_HIGH)


LAYOUT = FeatureLayout()
