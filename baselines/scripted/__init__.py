"""Scripted policies. ``make(name, seed=..., output=...)`` builds one by name."""
from .resource import POLICIES, GreedyPolicy, OwnView, RandomPolicy, make

__all__ = ["POLICIES", "GreedyPolicy", "OwnView", "RandomPolicy", "make"]
