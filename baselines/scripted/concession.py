"""The aspiration curve every time-based negotiator of this package uses (both games).

NegMAS's convention (``PolyAspiration``): the aspiration at normalised time ``t`` in
[0, 1] is ``r + (1 - r) * (1 - t ** e)``; ``e > 1`` holds out (Boulware, e = 4), ``e = 1``
is linear, ``e < 1`` gives ground early (conceder, e = 0.25). The Faratin/GENIUS formula
reads ``e`` the other way round.
"""

from __future__ import annotations

__all__ = ["aspiration", "EXPONENTS"]

#: the named exponents of the family
EXPONENTS = {"boulware": 4.0, "linear": 1.0, "conceder": 0.25}


def aspiration(t: float, exponent: float = 1.0, reservation: float = 0.0) -> float:
    """Aspiration level in [reservation, 1] at normalised time ``t`` (clipped to [0, 1])."""
    if exponent <= 0:
        raise ValueError(f"exponent must be > 0; got {exponent}")
    if not 0.0 <= reservation <= 1.0:
        raise ValueError(f"reservation must be in [0, 1]; got {reservation}")
    t = min(1.0, max(0.0, float(t)))
    return reservation + (1.0 - reservation) * (1.0 - t ** exponent)
