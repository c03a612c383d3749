"""Named slices of a flat float vector: the one way every numeric view (the games'
``observation["features"]``, the RL wrapper's observation) names its entries.

    L = Layout([("phase", 3), ("round", 1)], high=1e9)
    vec = L.empty(); vec[L.slice("round")] = 2; L.get(vec, "phase"); L.space()
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from gymnasium import spaces

__all__ = ["Layout"]


class Layout:
    """``Layout([(name, size), ...], low=0, high=...)``: entries laid out in order."""

    def __init__(self, sizes: Sequence[tuple[str, int]], *, low: float = 0.0, high: float = 1e9):
        self._slices: dict[str, slice] = {}
        off = 0
        for name, n in sizes:
            if name in self._slices:
                raise ValueError(f"duplicate layout entry {name!r}")
            self._slices[name] = slice(off, off + int(n))
            off += int(n)
        self.size = off
        self.low, self.high = low, high

    @property
    def names(self) -> list[str]:
        return list(self._slices)

    def slice(self, name: str) -> slice:
        return self._slices[name]

    def get(self, vec: np.ndarray, name: str) -> np.ndarray:
        return np.asarray(vec)[self._slices[name]]

    def empty(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def space(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, shape=(self.size,), dtype=np.float32)

    def table(self) -> list[tuple[str, int, int]]:
        """(name, first index, size) for every entry, for documentation."""
        return [(k, s.start, s.stop - s.start) for k, s in self._slices.items()]
