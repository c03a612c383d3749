"""negotiation_env: negotiation games for LLM agents as PettingZoo environments.

    import negotiation_env
    env = negotiation_env.env(game="resource")             # AEC
    penv = negotiation_env.parallel_env(game="resource")   # parallel
    env = negotiation_env.make("resource_v1")              # by versioned id, as PettingZoo names envs
    penv = negotiation_env.make("resource_v1", parallel=True)
"""

from __future__ import annotations

from typing import Any, Callable

from .core.adapters import GameAECEnv, GameParallelEnv, OrderEnforcing
from .core.config import ConfigError, build_config
from .core.game import Game
from .games.resource.game import ResourceConfig, ResourceGame
from .games.matrix.game import MatrixConfig, MatrixGame
from .games.rulemaking.game import RulemakingConfig, RulemakingGame

__version__ = "0.1.0"

__all__ = ["env", "raw_env", "parallel_env", "make", "ENV_IDS", "ENV_ID_OF", "GAMES", "ConfigError", "make_game", "__version__"]

#: game id -> (config dataclass, game class)
GAMES: dict[str, tuple[type, type[Game]]] = {
    "resource": (ResourceConfig, ResourceGame),
    "rulemaking": (RulemakingConfig, RulemakingGame),
    "matrix": (MatrixConfig, MatrixGame),
}

#: versioned env id (each game's ``metadata["name"]``, e.g. ``"resource_v1"``) -> game id.
#: An id's version goes up whenever the game's rules or prompts change, so a result
#: recorded under an id is reproducible with that id (docs: Command line, Versions).
ENV_IDS: dict[str, str] = {game_cls.metadata["name"]: game for game, (_, game_cls) in GAMES.items()}
#: game id -> the env id this package plays it under (:data:`ENV_IDS` turned around)
ENV_ID_OF: dict[str, str] = {game: env_id for env_id, game in ENV_IDS.items()}


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
    """The AEC env, wrapped in PettingZoo's OrderEnforcingWrapper (as the classic envs are;
    :class:`~negotiation_env.core.adapters.OrderEnforcing`, the same checks with a shorter
    ``last()`` and ``step()``)."""
    return OrderEnforcing(raw_env(game, render_mode=render_mode, **config))


def parallel_env(game: str = "resource", render_mode: str | None = None, **config: Any) -> GameParallelEnv:
    """The parallel env: each step takes an action for every live agent and applies the
    ones whose turn it is (``infos[agent]["active_agents"]``)."""
    return GameParallelEnv(_factory(game, config), render_mode=render_mode)


def make(env_id: str, *, parallel: bool = False, render_mode: str | None = None, **config: Any):
    """The env of the versioned id ``env_id`` (a key of :data:`ENV_IDS`, the env's
    ``metadata["name"]``: ``"resource_v1"``, ``"rulemaking_v1"``, ``"matrix_v1"``), as
    PettingZoo and TextArena name their envs: the AEC env of :func:`env`, or with
    ``parallel=True`` the env of :func:`parallel_env`. ``config`` are the game's config
    fields. An unknown id raises :class:`ConfigError` listing the known ids."""
    if env_id not in ENV_IDS:
        hint = ""
        if env_id in GAMES:
            hint = f" (the game {env_id!r} is the env id {ENV_ID_OF[env_id]!r})"
        else:
            base, _, version = env_id.rpartition("_v")
            current = ENV_ID_OF.get(base)
            if current is not None and version.isdigit() and int(version) < int(current.rpartition("_v")[2]):
                hint = (f" ({env_id!r} is an earlier version of the {base} game, no longer played: this package plays "
                        f"{current!r}; the version history is on the game's docs page)")
        raise ConfigError(f"unknown env id {env_id!r}{hint}; known ids: {', '.join(ENV_IDS)}")
    game = ENV_IDS[env_id]
    if parallel:
        return parallel_env(game, render_mode=render_mode, **config)
    return env(game, render_mode=render_mode, **config)
