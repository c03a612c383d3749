"""Deal or No Deal's numeric action, the ``action_vector`` of the ``transitions`` export
(:mod:`negotiation_env.traces.export`).

``[propose, accept, walk_away, books, hats, balls]``, length 6: the move one-hot, then
for a proposal how many of each item the mover keeps (zeros for the other moves), read
from what the env parsed (the step's ``last_turn``). A refused step, or one whose turn
passed after every retry failed, has no vector (None).
"""

from __future__ import annotations

from typing import Any, Callable

from .parser import MOVES
from .rules import ITEMS

__all__ = ["encoder", "vector"]


def vector(parsed: Any) -> list[float] | None:
    """The numeric action of one parsed move (a ``last_turn`` dict); None where it has none."""
    if not isinstance(parsed, dict) or parsed.get("action") not in MOVES:
        return None
    take = parsed.get("take") if parsed["action"] == "propose" else None
    if parsed["action"] == "propose" and not (isinstance(take, dict) and all(k in take for k in ITEMS)):
        return None
    counts = [float(take[k]) for k in ITEMS] if take is not None else [0.0] * len(ITEMS)
    return [1.0 if parsed["action"] == m else 0.0 for m in MOVES] + counts


def encoder(trace: Any) -> Callable[[Any], list[float] | None]:
    """``trace -> (step -> numeric action or None)``: the registry's ``action_encoder`` part."""

    def enc(step: Any) -> list[float] | None:
        return vector(step.parsed) if step.valid else None

    return enc
