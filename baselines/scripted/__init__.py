"""Scripted negotiators. Resource game: ``make(name, seed=..., output=...)`` builds one by
name and ``POLICIES`` lists them (see :mod:`.negotiators`). Rulemaking game:
``make_rulemaking`` / ``RULEMAKING_POLICIES`` and ``RulemakingMix`` (see :mod:`.rulemaking`).
Both families share the aspiration curve of :mod:`.concession`."""

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
from .rulemaking import RULEMAKING_POLICIES, RulemakingMix, make_rulemaking
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
    "POLICIES", "make", "MixedPopulation", "RULEMAKING_POLICIES", "RulemakingMix", "make_rulemaking", "OwnView", "RoundLog",
    "ResourceNegotiator", "ConcessionNegotiator", "Reciprocator", "OracleNegotiator", "SilentGreedy",
    "RandomNegotiator", "FairSplitter", "Anchorer", "Deferent", "Abandoner", "GreedyPolicy", "RandomPolicy",
    "Accept", "Ask", "Disclose", "Need", "Propose", "Reject",
]
