"""Recording any PettingZoo env of this package (AEC or parallel) into :class:`GameTrace`\\ s.

    import negotiation_env
    from negotiation_env.traces import record, TraceWriter

    env = record(negotiation_env.env(game="resource"), policies=policies,
                 writer=TraceWriter("traces.jsonl"))
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else policies[agent].act(obs))
    env.last_trace        # the finished game (also written to traces.jsonl)

:func:`record` picks :class:`TraceRecorder` (AEC) or :class:`ParallelTraceRecorder`.
Both are PettingZoo wrappers: the loop is the standard one and the env's behaviour is
unchanged. A game's record is closed when every agent is terminated or truncated; a
``reset`` before that closes it as ``"truncated"``, and :meth:`abort` closes it as
``"error"`` (the runner calls it when a policy raises).

What the recorder reads (the conventions every game in ``GAMES`` follows):

* the observation: ``obs["prompt"]`` (latest prompt), ``obs["conversation"]`` (the chat
  the agent holds), ``obs["features"]`` (numeric view); a text observation is the prompt;
* the acting agent's info before the step: ``"round"``, ``"phase"``; after it:
  ``"events"``, ``"last_turn"`` (or ``"parsed_action"``), ``"last_round"`` (a dict with
  ``"round"``: a new one means a round resolved), ``"active_agents"``, ``"usage"``;
* optional attributes of the policy that acted, read right after its action was applied:
  ``last_usage`` (token counts, a dict), ``last_reasoning`` (model-side reasoning
  text) and ``last_events`` (a list of event dicts the policy reports of its own turn,
  such as a scripted negotiator's ``unread_message``: added to the step's events; an
  ``*_error`` type is never taken from a policy); its description comes from
  ``policy.settings()`` if it has one, else its public scalar attributes, always passed
  through :func:`~.schema.redact`.

What a step stores is bounded like what the games keep (:mod:`negotiation_env.core.answers`):
the ``action`` text at most :data:`~negotiation_env.core.answers.REFUSED_ANSWER_CHARS`
characters on a refused step and :data:`~negotiation_env.core.answers.ANSWER_CHARS` on
an accepted one, the policy's ``reasoning`` at most ``ANSWER_CHARS``, each with the
marker; a cut the game did not record already adds an ``answer_truncated`` event
(``field``: ``"action"`` or ``"reasoning"``, ``length``, ``limit``), so one runaway answer
cannot make a trace line of hundreds of megabytes. The same two texts are stored as
text that can be written: a surrogate code point in them (no character; see
:mod:`negotiation_env.core.encodable`) is replaced by U+FFFD, and a replacement the game
did not record already adds an ``answer_unencodable`` event (``field``, ``count``).
Anything else (settings, names, errors) is repaired by the writer
(:func:`~.writer.encode_jsonable`).
"""

from __future__ import annotations

import dataclasses
import json
import traceback
# (collections.abc, not typing: isinstance against typing.Mapping runs two Python-level
# checks per call, and the recorder asks it several times a step)
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

import numpy as np
from pettingzoo.utils.wrappers import BaseParallelWrapper, BaseWrapper

from ..core.answers import ANSWER_CHARS, REFUSED_ANSWER_CHARS, cut
from ..core.encodable import is_encodable, replace_unencodable

from .schema import (
    GameTrace,
    PolicyInfo,
    RoundRecord,
    RunInfo,
    StepRecord,
    config_to_json,
    is_error_event,
    package_info,
    to_jsonable,
)

__all__ = ["record", "TraceRecorder", "ParallelTraceRecorder", "describe_policy", "utc_now"]

# event types meaning "the env gave up asking and moved on" (the retry count restarts)
_GAVE_UP_SUFFIXES = ("_forfeited", "_fallback", "_auto_filled", "_skipped")


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def describe_policy(policy: Any, *, spec: str | None = None, label: str | None = None,
                    seed: int | None = None) -> PolicyInfo:
    """A :class:`PolicyInfo` for ``policy`` (settings redacted when written)."""
    if policy is None:
        return PolicyInfo(spec=spec, label=label or spec, seed=seed)
    settings: dict[str, Any]
    if callable(getattr(policy, "settings", None)):
        settings = dict(policy.settings())
    elif dataclasses.is_dataclass(policy) and not isinstance(policy, type):
        settings = {f.name: getattr(policy, f.name) for f in dataclasses.fields(policy)}
    else:
        settings = {k: v for k, v in vars(policy).items()
                    if not k.startswith("_") and isinstance(v, (str, int, float, bool, type(None)))}
    name = getattr(policy, "name", None)
    if not isinstance(name, str):
        name = type(policy).__name__
    if seed is None and isinstance(getattr(policy, "seed", None), int):
        seed = int(policy.seed)
    return PolicyInfo(spec=spec, label=label or spec, name=name, settings=to_jsonable(settings), seed=seed)


def _game_id_of(unwrapped: Any) -> str:
    from .. import GAMES

    game = getattr(unwrapped, "game", None)
    for gid, (_cfg, cls) in GAMES.items():
        if game is not None and type(game) is cls:
            return gid
    name = (getattr(unwrapped, "metadata", None) or {}).get("name")
    return str(name) if name else type(unwrapped).__name__


def _prompt(obs: Any) -> str | None:
    if isinstance(obs, str):
        return obs
    if isinstance(obs, Mapping) and isinstance(obs.get("prompt"), str):
        return obs["prompt"]
    return None


def _features(obs: Any) -> list[float] | None:
    if isinstance(obs, Mapping) and obs.get("features") is not None:
        return np.asarray(obs["features"], dtype=np.float64).ravel().tolist()
    if isinstance(obs, np.ndarray) and obs.dtype.kind in "biuf":
        return obs.astype(np.float64).ravel().tolist()
    return None


def _message(m: Any) -> dict[str, str]:
    if type(m) is dict and type(m.get("role")) is str and type(m.get("content")) is str:
        return {"role": m["role"], "content": m["content"]}  # (the games' messages: str() of a str is itself)
    if isinstance(m, Mapping):
        return {"role": str(m.get("role", "")), "content": str(m.get("content", ""))}
    return {"role": "", "content": str(m)}


def _bounded(events: list, field: str, text: str, limit: int) -> str:
    """``text`` cut to ``limit`` (core.answers); a cut adds an ``answer_truncated`` event
    unless the game recorded one for this answer already."""
    kept, length = cut(text, limit)
    if length is not None and not (field == "action" and any(
            isinstance(e, dict) and e.get("type") == "answer_truncated" for e in events)):
        events.append({"type": "answer_truncated", "field": field, "length": length, "limit": limit})
    return kept


def _encodable(events: list, field: str, text: str) -> str:
    """``text`` with each surrogate code point replaced by U+FFFD (core.encodable); a
    replacement adds an ``answer_unencodable`` event unless the env recorded one for
    this answer already."""
    if is_encodable(text):
        return text
    fixed, count, _ = replace_unencodable(text)
    if not (field == "action" and any(
            isinstance(e, dict) and e.get("type") == "answer_unencodable" for e in events)):
        events.append({"type": "answer_unencodable", "field": field, "count": count})
    return fixed


def _action_text(action: Any) -> tuple[str, str]:
    if isinstance(action, str):
        return action, "text"
    return json.dumps(to_jsonable(action), ensure_ascii=False), "structured"


class _Builder:
    """Accumulates one game; shared by the AEC and the parallel recorder."""

    def __init__(self, rec: "_RecorderMixin", seed: int | None):
        un = rec.unwrapped
        self.rec = rec
        game_obj = getattr(un, "game", None)
        self.agents = [str(a) for a in getattr(un, "possible_agents", [])]
        cfg = config_to_json(getattr(game_obj, "config", None)) if game_obj is not None else {}
        gname = _game_id_of(un)
        rec._count += 1
        gid = rec._next.get("game_id") or f"{gname}:{seed}:{rec._count}"
        pinfo = {a: rec._policy_info(a) for a in self.agents}
        seeds = {"env": seed, "policies": {a: pinfo[a].seed for a in self.agents},
                 "cohort": rec._next.get("cohort_seed")}
        run = rec._next.get("run")
        self.trace = GameTrace(
            game_id=gid, game=gname, agents=self.agents,
            env_name=(getattr(un, "metadata", None) or {}).get("name"),
            config=cfg, scenario=cfg.get("scenario") if isinstance(cfg.get("scenario"), str) else None,
            seeds=seeds, policies=pinfo, package=package_info(), started_at=utc_now(),
            run=run if isinstance(run, RunInfo) or run is None else RunInfo.from_dict(run),
            meta=dict(rec._next.get("meta") or {}),
            returns={a: 0.0 for a in self.agents},
        )
        rec._next = {}
        self.seen: dict[str, _Seen] = {}
        self.fails: dict[str, int] = {}
        self.last_round = 0

    def context(self, agent: str, obs: Any) -> tuple[list[dict[str, str]] | None, bool]:
        if not self.rec.record_context or not isinstance(obs, Mapping) or obs.get("conversation") is None:
            return None, False
        conv = obs["conversation"]
        prev = self.seen.get(agent)
        n = prev.length if prev is not None else 0
        extends = (prev is not None and n > 0 and len(conv) >= n
                   and _message(conv[0]) == prev.first and _message(conv[n - 1]) == prev.last)
        new = [_message(m) for m in (conv[n:] if extends else conv)]
        # keep only what the next comparison needs: the first and last message and the length
        if len(conv):
            self.seen[agent] = _Seen(first=_message(conv[0]), last=_message(conv[-1]), length=len(conv))
        else:
            self.seen.pop(agent, None)
        return new, not extends

    def add(self, agent: str, obs: Any, pre: Mapping, action: Any, post: Mapping, rewards: Mapping[str, float],
            terminated: bool, truncated: bool, parallel_step: int | None, still_asked: bool) -> StepRecord:
        events = to_jsonable(list(post.get("events") or []))
        valid = not any(is_error_event(e) for e in events)
        attempt = self.fails.get(agent, 0) + 1
        gave_up = any(str(e.get("type", "")).endswith(_GAVE_UP_SUFFIXES) for e in events if isinstance(e, dict))
        self.fails[agent] = attempt if (not valid and still_asked and not gave_up) else 0
        parsed = post.get("last_turn", post.get("parsed_action")) if valid else None
        thinking = parsed.get("thinking") if isinstance(parsed, Mapping) else None
        policy = self.rec.policies.get(agent)
        tokens = post.get("usage")
        if tokens is None and policy is not None:
            tokens = getattr(policy, "last_usage", None)
        reasoning = getattr(policy, "last_reasoning", None) if policy is not None else None
        told = getattr(policy, "last_events", None) if policy is not None else None
        if isinstance(told, list):  # what the policy reports of its own turn (never an error)
            events += [e for e in to_jsonable(told) if isinstance(e, dict) and not is_error_event(e)]
        text, kind = _action_text(action)
        text = _encodable(events, "action", _bounded(events, "action", text,
                                                     ANSWER_CHARS if valid else REFUSED_ANSWER_CHARS))
        if isinstance(reasoning, str):
            reasoning = _encodable(events, "reasoning", _bounded(events, "reasoning", reasoning, ANSWER_CHARS))
        ctx, reset = self.context(agent, obs)
        step = StepRecord(
            index=len(self.trace.steps), agent=agent, action=text, action_type=kind,
            round=pre.get("round") if isinstance(pre.get("round"), int) else None,
            phase=pre.get("phase") if isinstance(pre.get("phase"), str) else None,
            observation=_prompt(obs), context=ctx, context_reset=reset,
            features=_features(obs) if self.rec.record_features else None,
            parsed=to_jsonable(parsed), thinking=thinking if isinstance(thinking, str) else None,
            reasoning=reasoning if isinstance(reasoning, str) else None,
            events=events, valid=valid, attempt=attempt,
            tokens=to_jsonable(tokens) if isinstance(tokens, Mapping) else None,
            rewards={str(a): float(r) for a, r in rewards.items()},
            terminated=bool(terminated), truncated=bool(truncated), parallel_step=parallel_step,
        )
        for a, r in step.rewards.items():
            self.trace.returns[a] = self.trace.returns.get(a, 0.0) + r
        self.trace.steps.append(step)
        return step

    def rounds_from(self, info: Mapping) -> None:
        lr = info.get("last_round")
        if isinstance(lr, Mapping) and isinstance(lr.get("round"), int) and lr["round"] > self.last_round:
            self.last_round = lr["round"]
            self.trace.rounds.append(RoundRecord(round=lr["round"], step=len(self.trace.steps) - 1,
                                                 outcome=to_jsonable(dict(lr))))

    def close(self, status: str, error: str | None = None, final_obs: Mapping[str, Any] | None = None) -> GameTrace:
        t = self.trace
        t.status = status
        t.error = error
        t.ended_at = utc_now()
        calls = model_calls(t.steps)
        if calls is not None:
            t.meta["model_calls"] = calls
        if final_obs is not None and self.rec.record_features:
            feats = {a: _features(o) for a, o in final_obs.items()}
            t.final_features = {a: f for a, f in feats.items() if f is not None} or None
        return t


def model_calls(steps: Sequence[Any]) -> dict[str, Any] | None:
    """What the policies' model calls met in a game, from the steps' ``tokens``: ``faults``
    (every fault recorded, retried or not), ``failed`` ({agent: calls that ran out of
    retries}) and ``degraded`` (some call failed for good, so the env scored a fallback
    where the model gave no answer). None when no step carries model usage."""
    faults, failed, seen = 0, {}, False
    for st in steps:
        tok = st.tokens if hasattr(st, "tokens") else st.get("tokens")
        if not isinstance(tok, Mapping):
            continue
        seen = True
        faults += len(tok.get("faults") or ())
        if tok.get("failed"):
            agent = st.agent if hasattr(st, "agent") else st.get("agent")
            failed[agent] = failed.get(agent, 0) + 1
    if not seen:
        return None
    return {"faults": faults, "failed": failed, "degraded": bool(failed)}


@dataclasses.dataclass
class _Seen:
    first: dict[str, str]
    last: dict[str, str]
    length: int


class _RecorderMixin:
    """Configuration and output shared by both recorders."""

    def _init_recorder(self, policies, policy_info, on_trace, writer, keep, features, context) -> None:
        self.policies: dict[str, Any] = dict(policies or {})
        self._given_info: dict[str, PolicyInfo] = dict(policy_info or {})
        self.on_trace: Callable[[GameTrace], None] | None = on_trace
        self.writer = writer
        self.keep = (on_trace is None and writer is None) if keep is None else keep
        self.traces: list[GameTrace] = []
        self.last_trace: GameTrace | None = None
        self.record_features = features
        self.record_context = context
        self._builder: _Builder | None = None
        self._next: dict[str, Any] = {}
        self._count = 0

    def set_policies(self, policies: Mapping[str, Any], policy_info: Mapping[str, PolicyInfo] | None = None) -> None:
        """The policies of the next games (for their description, usage and reasoning)."""
        self.policies = dict(policies)
        self._given_info = dict(policy_info or {})

    def prepare(self, *, game_id: str | None = None, run: RunInfo | None = None, cohort_seed: int | None = None,
                meta: Mapping[str, Any] | None = None) -> None:
        """Identity of the next game (used by the runner); applies to one reset."""
        self._next = {"game_id": game_id, "run": run, "cohort_seed": cohort_seed, "meta": dict(meta or {})}

    def _policy_info(self, agent: str) -> PolicyInfo:
        if agent in self._given_info:
            return self._given_info[agent]
        return describe_policy(self.policies.get(agent))

    @property
    def recording(self) -> bool:
        """A game is being recorded (reset ran and it has not been closed)."""
        return self._builder is not None

    def _emit(self, trace: GameTrace) -> None:
        self._builder = None
        self.last_trace = trace
        if self.keep:
            self.traces.append(trace)
        if self.writer is not None:
            self.writer.write(trace)
        if self.on_trace is not None:
            self.on_trace(trace)

    def _final_obs(self) -> dict[str, Any] | None:
        return None

    def abort(self, error: BaseException | str) -> GameTrace | None:
        """Close the game being recorded as ``"error"`` (partial steps are kept)."""
        if self._builder is None:
            return None
        if isinstance(error, BaseException):
            tb = "".join(traceback.format_exception(type(error), error, error.__traceback__, limit=8))
            msg = f"{type(error).__name__}: {error}\n{tb}"
        else:
            msg = str(error)
        trace = self._builder.close("error", msg, self._final_obs())
        self._emit(trace)
        return trace

    def truncate(self, reason: str = "truncated") -> GameTrace | None:
        """Close the game being recorded as ``"truncated"`` (e.g. a step cap)."""
        if self._builder is None:
            return None
        trace = self._builder.close("truncated", reason, self._final_obs())
        self._emit(trace)
        return trace


class TraceRecorder(_RecorderMixin, BaseWrapper):
    """Records an AEC env. Keyword arguments:

    policies: {agent: policy}, read for description, ``last_usage``, ``last_reasoning``.
    policy_info: {agent: PolicyInfo}, overrides the description (the runner passes specs).
    writer: a :class:`~.writer.TraceWriter` each finished game is appended to.
    on_trace: a callback given each finished :class:`GameTrace`.
    keep: keep finished traces in ``.traces`` (default: when neither writer nor on_trace).
    features / context: record ``obs["features"]`` / conversation deltas (default True).
    """

    def __init__(self, env, *, policies=None, policy_info=None, writer=None, on_trace=None, keep=None,
                 features: bool = True, context: bool = True):
        BaseWrapper.__init__(self, env)
        self._init_recorder(policies, policy_info, on_trace, writer, keep, features, context)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if self._builder is not None:
            self.truncate("reset before the game ended")
        self.env.reset(seed=seed, options=options)
        self._builder = _Builder(self, seed)

    def _final_obs(self) -> dict[str, Any] | None:
        try:
            return {a: self.env.observe(a) for a in self.unwrapped.possible_agents}
        except Exception:  # noqa: BLE001 - a broken env must not hide the original error
            return None

    def step(self, action: Any) -> None:
        env = self.env
        agent = env.agent_selection
        b = self._builder
        if b is None or env.terminations.get(agent, False) or env.truncations.get(agent, False):
            env.step(action)
            return
        obs = env.observe(agent)
        pre = dict(env.infos.get(agent) or {})
        env.step(action)
        post = env.infos.get(agent) or {}
        terms, truncs = env.terminations, env.truncations
        over = bool(terms) and all(terms.get(a, False) or truncs.get(a, False) for a in terms)
        active = post.get("active_agents")
        still = agent in active if isinstance(active, list) else env.agent_selection == agent
        b.add(agent, obs, pre, action, post, env.rewards, all(terms.values()) if over else False,
              over and any(truncs.values()), None, still and not over)
        b.rounds_from(post)
        if over:
            status = "complete" if all(terms.values()) else "truncated"
            self._emit(b.close(status, None, self._final_obs()))


class ParallelTraceRecorder(_RecorderMixin, BaseParallelWrapper):
    """Records a parallel env; same keyword arguments as :class:`TraceRecorder`.

    Each agent whose action counted in an env step (``infos[agent]["active_agents"]``,
    else every agent given an action) gets its own :class:`StepRecord`, in the env's
    order, with the same ``parallel_step``; the step's rewards sit on the last of them.
    """

    def __init__(self, env, *, policies=None, policy_info=None, writer=None, on_trace=None, keep=None,
                 features: bool = True, context: bool = True):
        BaseParallelWrapper.__init__(self, env)
        self._init_recorder(policies, policy_info, on_trace, writer, keep, features, context)
        self._obs: dict[str, Any] = {}
        self._infos: dict[str, Any] = {}
        self._psteps = 0

    def reset(self, seed: int | None = None, options: dict | None = None):
        if self._builder is not None:
            self.truncate("reset before the game ended")
        obs, infos = self.env.reset(seed=seed, options=options)
        self._obs, self._infos, self._psteps = obs, infos, 0
        self._builder = _Builder(self, seed)
        return obs, infos

    def _final_obs(self) -> dict[str, Any] | None:
        return dict(self._obs) or None

    def step(self, actions: dict):
        b = self._builder
        if b is None:
            return self.env.step(actions)
        acting = None
        for a in actions:
            act = (self._infos.get(a) or {}).get("active_agents")
            if isinstance(act, list):
                acting = [x for x in act if x in actions]
                break
        if acting is None:
            acting = list(actions)
        pre_obs = {a: self._obs.get(a) for a in acting}
        pre_info = {a: dict(self._infos.get(a) or {}) for a in acting}
        obs, rewards, terms, truncs, infos = self.env.step(actions)
        self._obs, self._infos = obs, infos
        over = bool(terms) and all(terms.get(a, False) or truncs.get(a, False) for a in terms)
        zero = {a: 0.0 for a in rewards}
        for i, a in enumerate(acting):
            last = i == len(acting) - 1
            post = infos.get(a) or {}
            active = post.get("active_agents")
            still = isinstance(active, list) and a in active
            b.add(a, pre_obs[a], pre_info[a], actions[a], post, rewards if last else zero,
                  last and over and all(terms.values()), last and over and any(truncs.values()),
                  self._psteps, still and not over)
        for a in acting:
            b.rounds_from(infos.get(a) or {})
        self._psteps += 1
        if over:
            status = "complete" if all(terms.values()) else "truncated"
            self._emit(b.close(status, None, obs))
        return obs, rewards, terms, truncs, infos


def record(env, **kwargs) -> TraceRecorder | ParallelTraceRecorder:
    """Wrap ``env`` in the recorder for its API (AEC or parallel)."""
    from pettingzoo import AECEnv, ParallelEnv

    if isinstance(env, ParallelEnv) or (not isinstance(env, AECEnv) and hasattr(env, "step") and not hasattr(env, "agent_iter")):
        return ParallelTraceRecorder(env, **kwargs)
    return TraceRecorder(env, **kwargs)
