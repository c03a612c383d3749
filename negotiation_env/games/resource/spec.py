"""The resource game's entry in the game registry (:mod:`negotiation_env.core.registry`)."""

from __future__ import annotations

from ...core.registry import GameSpec
from .game import ResourceConfig, ResourceGame


def condition_values() -> dict[str, list[str]]:
    """The known values of the resource game's conditions its validator does not list."""
    from .scenario import list_scenarios

    return {"scenario": [f"{len(list_scenarios())} shipped ('negotiation-env scenarios' lists them)", "a JSON path"]}


#: the game's name in the registry, in traces (``trace["game"]``) and on the command line
NAME = "resource"

SPEC = GameSpec(
    name=NAME,
    config_cls=ResourceConfig,
    game_cls=ResourceGame,
    answer_format="negotiation_env.games.resource.answer_schema",
    menu="negotiation_env.wrappers.menus.resource:ResourceMenu",
    action_encoder="negotiation_env.traces.export:_resource_encoder",
    summary="negotiation_env.runner.summary:RESOURCE",
    condition_values="negotiation_env.games.resource.spec:condition_values",
    scripted="baselines.scripted",
    play="negotiation_env.play:RESOURCE",
    analysis="negotiation_env.analysis.resource:ANALYSIS",
    condition_fields=("scenario", "cheap_talk", "partner", "rotation", "transparency", "intervention", "reflection",
                      "thinking", "theme"),
    default_seats=("greedy", "random"),
)
