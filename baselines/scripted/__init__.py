"""Scripted negotiators. Resource game: ``make(name, seed=..., output=...)`` builds one by
name and ``POLICIES`` lists them (see :mod:`.negotiators`). Rulemaking game:
``make_rulemaking`` / ``RULEMAKING_POLICIES`` and ``RulemakingMix`` (see :mod:`.rulemaking`).
Both families share the aspiration curve of :mod:`.concession`."""

from negotiation_env.games.resource.grammar import Accept, Ask, Disclose, Need, Propose, Reject
from negotiation_env.games.resource.view import OwnView, RoundLog

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

POLICIES = PRESETS

# names used before the negotiator family existed
GreedyPolicy = SilentGreedy
RandomPolicy = RandomNegotiator


def make(name: str, seed: int | None = None, output: str = "structured", phrasing: str = "varied"):
    """The scripted negotiator ``name`` (a key of :data:`POLICIES`). ``phrasing``: "fixed"
    speaks the mini-grammar's sentences, "varied" draws each act's wording from the
    agent's own seeded stream; its thinking varies either way."""
    if name not in POLICIES:
        raise ValueError(f"unknown scripted policy {name!r}; available: {', '.join(POLICIES)}")
    # a policy added to POLICIES by hand may not take ``phrasing``: pass it only when asked
    return POLICIES[name](seed=seed, output=output, **({} if phrasing == "varied" else {"phrasing": phrasing}))


__all__ = [
    "POLICIES", "make", "MixedPopulation", "RULEMAKING_POLICIES", "RulemakingMix", "make_rulemaking", "OwnView", "RoundLog",
    "ResourceNegotiator", "ConcessionNegotiator", "Reciprocator", "OracleNegotiator", "SilentGreedy",
    "RandomNegotiator", "FairSplitter", "Anchorer", "Deferent", "Abandoner", "GreedyPolicy", "RandomPolicy",
    "Accept", "Ask", "Disclose", "Need", "Propose", "Reject",
]
