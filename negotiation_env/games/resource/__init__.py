"""The shared-pool resource negotiation game (seed 000)."""
from .scenario import Project, Resource, Scenario, ScenarioError, list_scenarios, load_scenario
from .solver import Solution, solve

__all__ = ["Project", "Resource", "Scenario", "ScenarioError", "list_scenarios", "load_scenario", "Solution", "solve"]
