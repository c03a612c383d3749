"""One planned game set up for play: its recorded env, its policies, and the traces of
a game that fails before it starts.

Shared by the engine (:func:`.engine.play_game`), the lock-step player (:mod:`.lockstep`)
and the preflight (:mod:`.preflight`), so none of them imports another at module level.
The policy pool and the envs kept for reuse live here, one of each per process.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import threading
import traceback
import weakref
from typing import Any

from ..traces.recorder import TraceRecorder, describe_policy, utc_now
from ..traces.schema import GameTrace, package_info
from .plan import GameSpec
from .policies import HEAVY_KINDS, PolicyPool

__all__ = ["RunnerError", "open_game", "error_trace", "step_cap_reason", "release_models"]

_POOL: PolicyPool | None = None  # one per process: model-backed policies are built once
#: held while a game is opened or its env given back, so that game threads
#: (:mod:`.concurrent`) share the pool, the kept envs and a model-backed policy's reset safely
_LOCK = threading.RLock()


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
    with _LOCK:
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
    with _LOCK:
        free = _FREE_ENVS.get(kind) if kind is not None else None
        if free:
            return free.pop()
    return negotiation_env.env(game=spec.game, **spec.config)


def _give_back_env(spec: GameSpec, env: Any) -> None:
    kind = _env_kind(spec)
    if kind is None:
        return
    with _LOCK:
        if kind not in _FREE_ENVS and len(_FREE_ENVS) >= _FREE_ENVS_KINDS:
            _FREE_ENVS.clear()
        _FREE_ENVS.setdefault(kind, []).append(env)


class SharedSeat:
    """One game's view of a model-backed policy that several game threads share
    (:mod:`.concurrent`): the game's own call seeds and its own ``last_usage`` /
    ``last_reasoning`` / ``last_events`` for the recorder, so no game reads another's.

    The seeds are the ones the policy draws when it plays one game at a time:
    ``call_seed(seed, i)`` for the ``i``-th call of the policy object in this game,
    ``seed`` being the policy's after this game's resets. ``stream`` (``[seed, calls]``)
    is shared by the seats of one game that hold the same policy object (self-play), as
    the object's own counter is.

    ``concurrent``: the policy answers calls from several threads at once through
    ``complete`` (an ``openai:`` client: each call its own request). Otherwise each call
    holds the policy's lock, so a local model answers one game's call at a time."""

    def __init__(self, policy: Any, stream: list, concurrent: bool):
        self.policy = policy
        self.stream = stream
        self.concurrent = concurrent and callable(getattr(policy, "complete", None))
        self.last_usage: dict[str, Any] | None = None
        self.last_reasoning: str | None = None
        self.last_events: list | None = None

    def act(self, observation: Any) -> Any:
        from ..core.policy import call_seed

        seed = call_seed(self.stream[0], self.stream[1])
        self.stream[1] += 1
        policy = self.policy
        if self.concurrent:
            comp = policy.complete([observation], seeds=[seed])[0]
            self.last_usage, self.last_reasoning = comp.trace_usage(), comp.reasoning
            return comp.text
        with _policy_lock(policy):
            fn = getattr(policy, "act_batch", None)
            if callable(fn) and _takes(fn, "seeds"):
                action = fn([observation], seeds=[seed])[0]
                usage = getattr(policy, "last_batch_usage", None)
                reasoning = getattr(policy, "last_batch_reasoning", None)
                self.last_usage = usage[0] if usage else None
                self.last_reasoning = reasoning[0] if reasoning else None
                self.last_events = None
                return action
            action = policy.act(observation)
            self.last_usage = getattr(policy, "last_usage", None)
            self.last_reasoning = getattr(policy, "last_reasoning", None)
            self.last_events = getattr(policy, "last_events", None)
            return action


_POLICY_LOCKS: "weakref.WeakKeyDictionary[Any, threading.Lock]" = weakref.WeakKeyDictionary()


def _policy_lock(policy: Any) -> threading.Lock:
    with _LOCK:
        lock = _POLICY_LOCKS.get(policy)
        if lock is None:
            lock = _POLICY_LOCKS[policy] = threading.Lock()
        return lock


def _takes(fn: Any, name: str) -> bool:
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def open_game(spec: GameSpec, agents: list[str], reuse: bool = False,
              shared: bool = False) -> tuple[TraceRecorder, dict[str, Any]]:
    """The recorded env of one planned game, reset, and its policies by agent (from this
    process's pool; model-backed ones are reset with their seat's seed). ``agents`` is
    filled in as soon as the env exists, so a caller that catches an error knows them.
    ``reuse``: take the env of a finished game of the same kind when there is one (the
    caller gives it back with :func:`_give_back_env` when its game ends without error).
    ``shared``: other threads play games with the same model-backed policies at the same
    time (:mod:`.concurrent`); each such policy is handed out as a :class:`SharedSeat`
    of this game, the recorder reading the seat."""
    import negotiation_env

    env = _take_env(spec) if reuse else negotiation_env.env(game=spec.game, **spec.config)
    agents[:] = list(env.possible_agents)
    policies: dict[str, Any] = {}
    infos = {}
    with _LOCK if shared else contextlib.nullcontext():  # a reset and the seed read after it, together
        for seat, agent in enumerate(agents):
            entry, seed = spec.policies[seat], spec.policy_seeds[seat]
            policy = _pool().get(entry, spec.game, seed)
            info = describe_policy(policy, spec=entry.spec, label=entry.name, seed=seed)
            info.settings = {"options": dict(entry.options), **info.settings}
            infos[agent] = info
            policies[agent] = policy
        if shared:  # after every reset of this game: the seed a shared object ends with
            streams: dict[int, list] = {}
            for seat, agent in enumerate(agents):
                entry, policy = spec.policies[seat], policies[agent]
                if entry.kind in HEAVY_KINDS:
                    seed = getattr(policy, "seed", None)
                    stream = streams.setdefault(id(policy), [seed if isinstance(seed, int) else None, 0])
                    policies[agent] = SharedSeat(policy, stream, concurrent=entry.kind == "openai")
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
