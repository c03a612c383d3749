"""Repeated 2x2 games with one-sentence cheap talk (seed 002): Prisoner's Dilemma,
Snowdrift, Stag Hunt and Harmony in six framings, with or without communication."""

from .features import FRAMINGS, LAYOUT
from .game import AGENTS, TREATMENTS, MatrixConfig, MatrixGame
from .replay import EXPERIMENT_1, EXPERIMENT_2, REPLAY_CONDITIONS, decision_keys, replay_observation
from .rules import ACTIONS, STAGE_GAMES, StageGame, stage_game

__all__ = ["ACTIONS", "AGENTS", "EXPERIMENT_1", "EXPERIMENT_2", "FRAMINGS", "LAYOUT", "MatrixConfig", "MatrixGame",
           "REPLAY_CONDITIONS", "STAGE_GAMES", "StageGame", "TREATMENTS", "decision_keys", "replay_observation",
           "stage_game"]
