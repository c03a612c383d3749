"""Scripted negotiators for the resource game. ``make(name, seed=..., output=...)`` builds
one by name; ``POLICIES`` lists them (see :mod:`.negotiators` for what each does)."""

from .grammar import Accept, Ask, Disclose, Need, Propose, Reject
from .negotiators import (
    PRESETS,
    Abandoner,
    Anchorer,
    ConcessionNegotiator,
    Deferent,
    FairSplitter,
    OracleNegotiator,
    RandomNegotiator,
    Reciprocator,
    ResourceNegotiator,
    SilentGreedy,
)
from .population import MixedPopulation
from .view import OwnView, RoundLog

POLICIES = PRESETS

# names used before the negotiator family existed
GreedyPolicy = SilentGreedy
RandomPolicy = RandomNegotiator


def make(name: str, seed: int | None = None, output: str = "structured"):
    if name not in POLICIES:
        raise ValueError(f"unknown scripted policy {name!r}; available: {', '.join(POLICIES)}")
    return POLICIES[name](seed=seed, output=output)


__all__ = [
    "POLICIES", "make", "MixedPopulation", "OwnView", "RoundLog",
    "ResourceNegotiator", "ConcessionNegotiator", "Reciprocator", "OracleNegotiator", "SilentGreedy",
    "RandomNegotiator", "FairSplitter", "Anchorer", "Deferent", "Abandoner", "GreedyPolicy", "RandomPolicy",
    "Accept", "Ask", "Disclose", "Need", "Propose", "Reject",
]
