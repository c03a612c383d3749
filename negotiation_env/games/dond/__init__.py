"""Deal or No Deal (Lewis et al., 2017): two agents divide a pool of books, hats and balls
with private values, alternating messages and proposals, a deal or nothing."""

from .features import LAYOUT
from .game import AGENTS, DondConfig, DondGame
from .parser import MOVES, Move
from .rules import ITEMS, Instance, generate

__all__ = ["AGENTS", "DondConfig", "DondGame", "ITEMS", "Instance", "LAYOUT", "MOVES", "Move", "generate"]
