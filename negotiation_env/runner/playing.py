"""One planned game set up for play: its recorded env, its policies, and the traces of
a game that fails before it starts.

Shared by the engine (:func:`.engine.play_game`), the lock-step player (:mod:`.lockstep`)
and the preflight (:mod:`.preflight`), so none of them imports another at module level.
The policy pool and the envs kept for reuse live here, one of each per process.
"""

from __future__ import annotations

import json
import traceback
from typing import Any

from ..traces.recorder import TraceRecorder, describe_policy, utc_now
from ..traces.schema import GameTrace, package_info
from .plan import GameSpec
from .policies import PolicyPool

__all__ = ["RunnerError", "open_game", "error_trace", "step_cap_reason", "release_models"]

_POOL: PolicyPool | None = None  # one per process: model-backed policies are built once


class RunnerError(RuntimeError):
    """The run cannot start or go on (wrong output folder, missing back end, ...)."""


# --------------------------------------------------------------------------- one game


def release_models() -> None:
    """Drop the model-backed policies this process keeps for reuse (e.g. between two runs
    with different models, so both are never held at once)."""
    global _POOL
    _POOL = None


def _pool() -> PolicyPool:
    global _POOL
    if _POOL is None:
        _POOL = PolicyPool()
    return _POOL


#: envs of games that finished, by game and config, taken again by the next game of the
#: same kind in this process (:func:`.engine.play_game`). This relies on the contract of
#: :meth:`~negotiation_env.core.game.Game.reset`: a reset game plays exactly as a new one
#: (``tests/runner/test_engine.py`` compares the traces of all three games). Reuse keeps
#: what a game object renders and parses once for the games after it. An env is never
#: held by two live games: it is taken off the list while its game runs, and one whose
#: game raised is dropped.
_FREE_ENVS: dict[str, list[Any]] = {}
#: kinds of env kept at once; a larger mix starts afresh. The default cohort has 120
#: (scenario, first speaker and condition are config); a kept resource env holds about
#: 0.2 MB (60 kept: 12 MB more peak memory in a worker)
_FREE_ENVS_KINDS = 256


def _env_kind(spec: GameSpec) -> str | None:
    """The key envs are kept under: the game and its config as canonical JSON, or None
    when the config holds a value JSON cannot say exactly (such an env is not kept)."""
    try:
        return json.dumps([spec.game, spec.config], sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def _take_env(spec: GameSpec) -> Any:
    import negotiation_env

    kind = _env_kind(spec)
    free = _FREE_ENVS.get(kind) if kind is not None else None
    return free.pop() if free else negotiation_env.env(game=spec.game, **spec.config)


def _give_back_env(spec: GameSpec, env: Any) -> None:
    kind = _env_kind(spec)
    if kind is None:
        return
    if kind not in _FREE_ENVS and len(_FREE_ENVS) >= _FREE_ENVS_KINDS:
        _FREE_ENVS.clear()
    _FREE_ENVS.setdefault(kind, []).append(env)


def open_game(spec: GameSpec, agents: list[str], reuse: bool = False) -> tuple[TraceRecorder, dict[str, Any]]:
    """The recorded env of one planned game, reset, and its policies by agent (from this
    process's pool; model-backed ones are reset with their seat's seed). ``agents`` is
    filled in as soon as the env exists, so a caller that catches an error knows them.
    ``reuse``: take the env of a finished game of the same kind when there is one (the
    caller gives it back with :func:`_give_back_env` when its game ends without error)."""
    import negotiation_env

    env = _take_env(spec) if reuse else negotiation_env.env(game=spec.game, **spec.config)
    agents[:] = list(env.possible_agents)
    policies: dict[str, Any] = {}
    infos = {}
    for seat, agent in enumerate(agents):
        entry, seed = spec.policies[seat], spec.policy_seeds[seat]
        policies[agent] = _pool().get(entry, spec.game, seed)
        info = describe_policy(policies[agent], spec=entry.spec, label=entry.name, seed=seed)
        info.settings = {"options": dict(entry.options), **info.settings}
        infos[agent] = info
    rec = TraceRecorder(env, policies=policies, policy_info=infos, keep=True)
    rec.prepare(game_id=spec.key, run=spec.run_info(), cohort_seed=spec.cohort_seed)
    rec.reset(seed=spec.env_seed)
    return rec, policies


def error_trace(spec: GameSpec, agents: list[str], e: BaseException) -> dict[str, Any]:
    """The trace of a game that failed before its recorder started."""
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=8))
    now = utc_now()
    failed = GameTrace(game_id=spec.key, game=spec.game, agents=agents, config=dict(spec.config),
                       seeds={"env": spec.env_seed, "policies": dict(zip(agents, spec.policy_seeds)),
                              "cohort": spec.cohort_seed},
                       package=package_info(), started_at=now, ended_at=now, status="error",
                       error=f"{type(e).__name__}: {e}\n{tb}", run=spec.run_info())
    return failed.to_dict()


def step_cap_reason(spec: GameSpec) -> str:
    return f"step cap: the game did not end within max_steps={spec.max_steps}"
