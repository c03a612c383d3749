"""The numeric feature vector of a Deal or No Deal observation, index by index.

Counts and values are in :data:`~.rules.ITEMS` order (books, hats, balls). The vector
holds what the agent's text holds and nothing more: its own values, never the
partner's. ``LAYOUT.slice(name)`` finds a slot, so a learner or a scripted policy never
hard-codes an offset.

| name | size | meaning |
| --- | --- | --- |
| phase | 2 | one-hot: negotiate, done |
| active | 1 | 1 when this agent moves now |
| turn | 1 | turns taken so far (both agents') |
| turns_left | 1 | turns left, the current one included (0 once the game is over) |
| retries | 1 | refused answers in a row to the current prompt |
| first | 1 | 1 for the agent that moves first |
| walk_away | 1 | 1 when walking away is allowed |
| pool | 3 | the number of each item |
| values | 3 | this agent's value of one item of each type |
| offer | 1 | 1 when the partner's proposal is on the table (accept is legal) |
| offer_items | 3 | what this agent would get from it (zeros when there is none) |
| offer_value | 1 | its worth to this agent |
| own_offer | 1 | 1 when this agent's own proposal is on the table |
| own_offer_items | 3 | what this agent keeps under it (zeros when there is none) |
| proposals | 1 | proposals made so far (both agents') |
"""

from __future__ import annotations

from ...core.layout import Layout
from .rules import ITEMS

__all__ = ["PHASES", "LAYOUT", "FEATURE_HIGH"]

PHASES = ("negotiate", "done")
FEATURE_HIGH = 1e6

_N = len(ITEMS)
LAYOUT = Layout([
    ("phase", len(PHASES)), ("active", 1), ("turn", 1), ("turns_left", 1), ("retries", 1), ("first", 1),
    ("walk_away", 1), ("pool", _N), ("values", _N), ("offer", 1), ("offer_items", _N), ("offer_value", 1),
    ("own_offer", 1), ("own_offer_items", _N), ("proposals", 1),
], high=FEATURE_HIGH)
