"""The matrix game's entry in the game registry (:mod:`negotiation_env.core.registry`)."""

from __future__ import annotations

from ...core.registry import GameSpec
from .game import MatrixConfig, MatrixGame


def condition_values() -> dict[str, list[str]]:
    """The known values of the matrix game's conditions: its stage games, framings and treatments."""
    from . import FRAMINGS, STAGE_GAMES, TREATMENTS

    return {"stage_game": list(STAGE_GAMES), "framing": list(FRAMINGS), "treatment": list(TREATMENTS)}


#: the game's name in the registry, in traces (``trace["game"]``) and on the command line
NAME = "matrix"

SPEC = GameSpec(
    name=NAME,
    config_cls=MatrixConfig,
    game_cls=MatrixGame,
    answer_format="negotiation_env.games.matrix.answer_schema",
    menu="negotiation_env.wrappers.menus.matrix:MatrixMenu",
    action_encoder="negotiation_env.traces.export:_matrix_encoder",
    summary="negotiation_env.runner.summary:MATRIX",
    condition_values="negotiation_env.games.matrix.spec:condition_values",
    scripted="baselines.scripted.matrix",
    play="negotiation_env.play:MATRIX",
    analysis="negotiation_env.analysis.matrix:ANALYSIS",
    condition_fields=("stage_game", "framing", "treatment"),
    default_seats=("tit_for_tat", "bernoulli"),
)
