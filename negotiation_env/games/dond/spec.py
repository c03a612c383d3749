"""Deal or No Deal's entry in the game registry (:mod:`negotiation_env.core.registry`).

Every part lives in this folder; each is imported only when asked for, so registering
the game imports none of the layers above it."""

from __future__ import annotations

from ...core.registry import GameSpec
from .game import DondConfig, DondGame

_HERE = "negotiation_env.games.dond"

SPEC = GameSpec(
    name="dond",
    config_cls=DondConfig,
    game_cls=DondGame,
    answer_format=f"{_HERE}.answer_schema",
    menu=f"{_HERE}.menu:DondMenu",
    action_encoder=f"{_HERE}.encoder:encoder",
    summary=f"{_HERE}.summary:SUMMARY",
    scripted=f"{_HERE}.scripted",
    play=f"{_HERE}.play:HOOKS",
    analysis=f"{_HERE}.analysis:ANALYSIS",
    condition_fields=("max_turns", "walk_away"),
    default_seats=("greedy_concede", "fair_split"),
)
