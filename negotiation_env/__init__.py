"""negotiation_env: negotiation games for LLM agents as PettingZoo environments.

    import negotiation_env
    env = negotiation_env.env(game="resource")             # AEC
    penv = negotiation_env.parallel_env(game="resource")   # parallel
    env = negotiation_env.make("resource_v1")              # by versioned id, as PettingZoo names envs
    penv = negotiation_env.make("resource_v1", parallel=True)
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .core.adapters import GameAECEnv, GameParallelEnv
from .core.config import ConfigError, build_config
from .core.game import Game
from .core import registry
from .games.resource.spec import SPEC as _RESOURCE
from .games.matrix.spec import SPEC as _MATRIX
from .games.rulemaking.spec import SPEC as _RULEMAKING
from .games.dond.spec import SPEC as _DOND

__version__ = "0.1.0"

__all__ = ["env", "raw_env", "parallel_env", "make", "ENV_IDS", "ENV_ID_OF", "GAMES", "ConfigError", "make_game", "__version__"]

registry.register(_RESOURCE)
registry.register(_RULEMAKING)
registry.register(_MATRIX)
registry.register(_DOND)


class _RegistryView(Mapping):
    """A read-only mapping over the game registry: the specs keyed by ``key(spec)``, each
    shown as ``value(spec)``, in registration order (new registrations show at once)."""

    def __init__(self, key: Callable[[Any], str], value: Callable[[Any], Any]):
        self._key, self._value = key, value

    def __getitem__(self, k: str) -> Any:
        for spec in registry.specs():
            if self._key(spec) == k:
                return self._value(spec)
        raise KeyError(k)

    def __iter__(self) -> Iterator[str]:
        return iter([self._key(s) for s in registry.specs()])

    def __len__(self) -> int:
        return len(registry.specs())

    def __repr__(self) -> str:
        return repr(dict(self))


#: game id -> (config dataclass, game class): the registered games
#: (:mod:`negotiation_env.core.registry`), in registration order
GAMES: Mapping[str, tuple[type, type[Game]]] = _RegistryView(lambda s: s.name, lambda s: (s.config_cls, s.game_cls))

#: versioned env id (each game's ``metadata["name"]``, e.g. ``"resource_v1"``) -> game id.
#: An id's version goes up whenever the game's rules or prompts change, so a result
#: recorded under an id is reproducible with that id (docs: Command line, Versions).
ENV_IDS: Mapping[str, str] = _RegistryView(lambda s: s.env_id, lambda s: s.name)
#: game id -> the env id this package plays it under (:data:`ENV_IDS` turned around)
ENV_ID_OF: Mapping[str, str] = _RegistryView(lambda s: s.name, lambda s: s.env_id)


def _factory(game: str, config: dict[str, Any]) -> Callable[[], Game]:
    spec = registry.get(game)
    cfg = build_config(spec.config_cls, config)
    return lambda: spec.game_cls(cfg)


def make_game(game: str = "resource", **config: Any) -> Game:
    """The bare game object (rules + text, no PettingZoo), e.g. for custom loops."""
    return _factory(game, config)()


def raw_env(game: str = "resource", render_mode: str | None = None, **config: Any) -> GameAECEnv:
    """The AEC env without wrappers."""
    return GameAECEnv(_factory(game, config), render_mode=render_mode)


def env(game: str = "resource", render_mode: str | None = None, **config: Any):
    """The AEC env, wrapped in PettingZoo's own ``OrderEnforcingWrapper`` (as the classic
    envs are)."""
    return OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **config))


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
