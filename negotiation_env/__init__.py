"""negotiation_env: negotiation games for LLM agents as PettingZoo environments.

    import negotiation_env
    env = negotiation_env.env(game="resource")             # AEC
    penv = negotiation_env.parallel_env(game="resource")   # parallel
"""

from __future__ import annotations

from typing import Any, Callable

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .core.adapters import GameAECEnv, GameParallelEnv
from .core.config import ConfigError, build_config
from .core.game import Game
from .games.resource.game import ResourceConfig, ResourceGame
from .games.matrix.game import MatrixConfig, MatrixGame
from .games.rulemaking.game import RulemakingConfig, RulemakingGame

__version__ = "0.1.0"

__all__ = ["env", "raw_env", "parallel_env", "GAMES", "ConfigError", "make_game", "__version__"]

#: game id -> (config dataclass, game class)
GAMES: dict[str, tuple[type, type[Game]]] = {
    "resource": (ResourceConfig, ResourceGame),
    "rulemaking": (RulemakingConfig, RulemakingGame),
    "matrix": (MatrixConfig, MatrixGame),
}


def _factory(game: str, config: dict[str, Any]) -> Callable[[], Game]:
    if game not in GAMES:
        raise ConfigError(f"unknown game {game!r}; available games: {', '.join(GAMES)}")
    cfg_cls, game_cls = GAMES[game]
    cfg = build_config(cfg_cls, config)
    return lambda: game_cls(cfg)


def make_game(game: str = "resource", **config: Any) -> Game:
    """The bare game object (rules + text, no PettingZoo), e.g. for custom loops."""
    return _factory(game, config)()


def raw_env(game: str = "resource", render_mode: str | None = None, **config: Any) -> GameAECEnv:
    """The AEC env without wrappers."""
    return GameAECEnv(_factory(game, config), render_mode=render_mode)


def env(game: str = "resource", render_mode: str | None = None, **config: Any):
    """The AEC env, wrapped in PettingZoo's OrderEnforcingWrapper (as the classic envs are)."""
    return OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **config))


def parallel_env(game: str = "resource", render_mode: str | None = None, **config: Any) -> GameParallelEnv:
    """The parallel env: each step takes an action for every live agent and applies the
    ones whose turn it is (``infos[agent]["active_agents"]``)."""
    return GameParallelEnv(_factory(game, config), render_mode=render_mode)
