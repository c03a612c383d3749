"""The rulemaking game's entry in the game registry (:mod:`negotiation_env.core.registry`)."""

from __future__ import annotations

from ...core.registry import GameSpec
from .game import RulemakingConfig, RulemakingGame


def condition_values() -> dict[str, list[str]]:
    """The known values of the rulemaking game's conditions: its shipped environments and conditions."""
    from . import CONDITIONS, list_scenarios

    return {"environment": list(list_scenarios()) + ["a JSON path"], "condition": list(CONDITIONS)}


#: the game's name in the registry, in traces (``trace["game"]``) and on the command line
NAME = "rulemaking"

SPEC = GameSpec(
    name=NAME,
    config_cls=RulemakingConfig,
    game_cls=RulemakingGame,
    answer_format="negotiation_env.games.rulemaking.answer_schema",
    menu="negotiation_env.wrappers.menus.rulemaking:RulemakingMenu",
    action_encoder="negotiation_env.traces.export:_rulemaking_encoder",
    summary="negotiation_env.runner.summary:RULEMAKING",
    condition_values="negotiation_env.games.rulemaking.spec:condition_values",
    scripted="baselines.scripted.rulemaking",
    play="negotiation_env.play:RULEMAKING",
    analysis="negotiation_env.analysis.rulemaking:ANALYSIS",
    trace_config="negotiation_env.traces.export:rulemaking_trace_config",
    condition_fields=("environment", "condition"),
    default_seats=("reciprocator", "conceder", "hardliner", "satisficer", "noisy_conceder"),
)
