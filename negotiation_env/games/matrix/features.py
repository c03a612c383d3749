"""The numeric feature vector of a matrix-game observation, index by index.

Actions are one-hot in (A, B) order; payoffs in the prompt's order A A, B A, A B, B B
(own action first); framings in :data:`FRAMINGS` order. ``LAYOUT.slice(name)`` finds a
slot, so a learner or a scripted policy never hard-codes an offset. The horizon is not
here, as it is not in the text: agents are never told how many rounds there are.

| name | size | meaning |
| --- | --- | --- |
| phase | 4 | one-hot: acknowledge, message, action, done |
| active | 1 | 1 when this agent's action counts now |
| round | 1 | rounds resolved so far (0-based index of the round in play) |
| retries | 1 | invalid answers in a row to the current prompt (``on_error="retry"``) |
| communication | 1 | 1 in the communication treatment |
| payoffs | 4 | own points for A A, B A, A B, B B (the stage game) |
| framing | 6 | one-hot of the context framing |
| last_own_action | 2 | one-hot of own action in the last resolved round (zeros before round 1 resolves) |
| last_partner_action | 2 | one-hot of the partner's action in the last resolved round |
| last_payoff | 1 | own points in the last resolved round |
| cumulative | 1 | own points so far |
| partner_cumulative | 1 | the partner's points so far (public: the matrix and both actions are known) |
| own_a_count | 1 | rounds in which this agent played A |
| partner_a_count | 1 | rounds in which the partner played A |
| partner_message | 1 | 1 once the partner's message of this round has been revealed (action phase) |
"""

from __future__ import annotations

from ...core.layout import Layout

__all__ = ["FRAMINGS", "PHASES", "LAYOUT", "FEATURE_HIGH"]

FRAMINGS = ("neutral", "business", "environmental", "social", "team", "international_relations")
PHASES = ("acknowledge", "message", "action", "done")
FEATURE_HIGH = 1e6

LAYOUT = Layout([
    ("phase", len(PHASES)), ("active", 1), ("round", 1), ("retries", 1), ("communication", 1), ("payoffs", 4),
    ("framing", len(FRAMINGS)), ("last_own_action", 2), ("last_partner_action", 2), ("last_payoff", 1),
    ("cumulative", 1), ("partner_cumulative", 1), ("own_a_count", 1), ("partner_a_count", 1),
    ("partner_message", 1),
], high=FEATURE_HIGH)
