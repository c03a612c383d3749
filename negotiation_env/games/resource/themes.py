"""Thematic resource names (seed 000, Appendix C.1).

The paper's Table 7 is not in the seed text, so this catalogue is our own: ten themes of
three names each, mapped in order onto the scenario's first three resources (r1, r2,
r3). A theme is sampled once per game from the game's seed (Appendix D.8); project names
stay abstract. A scenario with more resources than a theme has names keeps its abstract
ids for the rest, so every name stays unique.
"""

from __future__ import annotations

import numpy as np

__all__ = ["THEMES", "theme_names", "sample_theme"]

THEMES: dict[str, tuple[str, ...]] = {
    "medieval": ("wood", "stone", "gold"),
    "kitchen": ("flour", "sugar", "saffron"),
    "electronics": ("copper", "silicon", "lithium"),
    "farming": ("seeds", "water", "fertilizer"),
    "textiles": ("cotton", "wool", "silk"),
    "construction": ("sand", "steel", "glass"),
    "alchemy": ("herbs", "crystals", "mercury"),
    "ocean": ("kelp", "coral", "pearls"),
    "energy": ("coal", "oil", "uranium"),
    "space": ("ice", "titanium", "helium"),
}


def theme_names(theme: str | None, resource_ids: tuple[str, ...]) -> dict[str, str]:
    """Map resource id -> display name under a theme (``None``: the ids themselves)."""
    if theme is None:
        return {rid: rid for rid in resource_ids}
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")
    names = THEMES[theme]
    out = {}
    for i, rid in enumerate(resource_ids):
        out[rid] = names[i] if i < len(names) else rid
    if len(set(out.values())) != len(out):  # an abstract id collides with a theme name
        return {rid: rid for rid in resource_ids}
    return out


def sample_theme(rng: np.random.Generator) -> str:
    keys = list(THEMES)
    return keys[int(rng.integers(len(keys)))]
