"""The five-party rulemaking negotiation of seed 001 (E1 Fragmented, E2 Unified, E3 Grid)."""

from .classifier import ClassifierConfig, classify, recode_worst_case, sensitivity
from .game import CONDITIONS, RulemakingConfig, RulemakingGame
from .rules import MOVES, Turn
from .scenario import RulemakingScenario, ScenarioError, list_scenarios, load_scenario

__all__ = ["CONDITIONS", "ClassifierConfig", "MOVES", "RulemakingConfig", "RulemakingGame", "RulemakingScenario",
           "ScenarioError", "Turn", "classify", "list_scenarios", "load_scenario", "recode_worst_case", "sensitivity"]
