"""A mixed population: policies drawn per game from a weighted roster, reproducibly."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

__all__ = ["MixedPopulation"]


class MixedPopulation:
    """Draws a pair of scripted policies for each game.

    ``roster``: names (equal weights) or name -> weight. ``draw(game_index)`` returns
    ``{"agent_a": policy, "agent_b": policy}``, fresh instances each seeded from
    (seed, game_index), so game k gets the same pair however many games are drawn
    before it and in whatever order. ``output`` and ``phrasing`` go to every policy.
    """

    def __init__(self, roster: Sequence[str] | Mapping[str, float], seed: int = 0, output: str = "structured",
                 phrasing: str = "varied"):
        from . import POLICIES

        weights = dict(roster) if isinstance(roster, Mapping) else {n: 1.0 for n in roster}
        if not weights:
            raise ValueError("roster must name at least one policy")
        unknown = [n for n in weights if n not in POLICIES]
        if unknown:
            raise ValueError(f"unknown scripted policies {unknown}; available: {', '.join(POLICIES)}")
        w = np.array(list(weights.values()), dtype=float)
        if np.any(w < 0) or not np.isfinite(w).all() or w.sum() <= 0:
            raise ValueError("weights must be finite, non-negative and not all zero")
        self.names = list(weights)
        self.p = w / w.sum()
        self.seed = seed
        self.output = output
        self.phrasing = phrasing

    def draw_names(self, game_index: int) -> tuple[str, str]:
        rng = np.random.default_rng([self.seed, game_index])
        a, b = rng.choice(len(self.names), size=2, p=self.p)
        return self.names[int(a)], self.names[int(b)]

    def draw(self, game_index: int) -> dict:
        from . import POLICIES

        a, b = self.draw_names(game_index)
        ss = np.random.SeedSequence([self.seed, game_index, 1]).generate_state(2)
        kw = {} if self.phrasing == "varied" else {"phrasing": self.phrasing}  # as make() does
        return {
            "agent_a": POLICIES[a](seed=int(ss[0]), output=self.output, **kw),
            "agent_b": POLICIES[b](seed=int(ss[1]), output=self.output, **kw),
        }
