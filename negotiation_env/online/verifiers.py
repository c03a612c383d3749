"""The games as a Prime Intellect ``verifiers`` environment (``verifiers.v1``, 0.4):
one role per seat, trainable or frozen, per-seat returns on every trace.

``verifiers`` 0.4 composes an environment from a *taskset* (the rows every rollout
starts from), *agents* (one ``AgentConfig`` field per role of the env's config; a
role is trainable unless ``setup`` says otherwise) and ``Env.run(task, agents)``,
which drives the roles turn by turn through ``agent.interaction(task)``. Here:

* :class:`NegotiationTaskset` yields the rows of :func:`~.groups.grpo_dataset` (game,
  config, seat, seed), so the ``n`` rollouts verifiers plays of one row (a GRPO group)
  start from the same state, and fixed seats draw the same random numbers in each
  (they are seeded as :func:`~.rollout.rollouts` seeds them: by the game seed alone);
* :class:`NegotiationEnv` plays the row's game: ``seats`` names, in the env's agent
  order, who plays each seat: ``"learner"`` (the ``learner`` role: the model under
  training), ``"frozen"`` (the ``frozen`` role: a model that is played but never
  trained; its own ``model`` / ``client`` may point elsewhere) or a runner policy spec
  (``scripted:NAME``, ``hf:PATH``, ``openai:MODEL@URL``, ``python:MOD:FACTORY``) played
  inside the env. Each model seat is one interaction (one trace); the env sends it the
  messages of its conversation it has not seen and steps the game with the reply
  exactly as sampled. The interaction holds the seat's answers as sampled, so the seat
  reads them verbatim in later turns whatever the game's own rendering shows;
* the rubric records on each model seat's trace the rewards ``game_return`` (the
  seat's return), ``valid_share`` (the share of its answers the game accepted) and,
  where the game scores rounds by it, ``joint_efficiency``, weighted by
  ``NegotiationEnvConfig.weights``; ``trace.info`` holds the seat, the row, every
  seat's return (``returns``) and whether the game was cut (``truncated``: at
  ``max_steps`` answers, or by a role's own limit such as ``max_turns``).

Each seat's answer is a chat completion of its conversation, made in this process
through verifiers' interception server (which records the tokens a trainer needs);
no program is installed or launched (:class:`SeatHarness`). verifiers finds plugins by
module name; this module registers itself under the id :data:`PLUGIN_ID`, so the
environment resolves in any process that imported it (build it with
:func:`environment`).

A conversation that the game rebuilds rather than extends (the rulemaking game, a
resource agent whose context is reset) cannot be one verifiers interaction: the env
raises ``ValueError`` naming the seat and turn.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import json
import sys
import types
from typing import Any, Iterator, Mapping, Sequence

try:
    import verifiers.v1 as vf
    from verifiers.v1.dialects.chat import message_to_wire
    from verifiers.v1.runtimes import ProgramResult, SubprocessConfig
except ModuleNotFoundError as e:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        "negotiation_env.online.verifiers needs verifiers 0.4: pip install 'negotiation_env[verifiers]' (verifiers "
        "0.4 requires openai<3, so it replaces an openai 3 install: an environment of its own keeps that one)",
        name=e.name) from e

from .groups import grpo_dataset
from .rollout import LEARNER, _Seats
from ..traces.schema import is_error_event

__all__ = ["PLUGIN_ID", "FROZEN", "LEARNER", "REWARDS", "NegotiationTasksetConfig", "NegotiationData",
           "NegotiationTask", "NegotiationTaskset", "SeatHarnessConfig", "SeatHarness", "NegotiationEnvConfig",
           "NegotiationEnv", "environment"]

#: the taskset, harness and environment id this module answers to in verifiers
PLUGIN_ID = "negotiation_env"
#: the seat entry played by the ``frozen`` role (a model that is not trained)
FROZEN = "frozen"
#: the rewards the rubric records, and their default weights
REWARDS = {"game_return": 1.0, "valid_share": 0.0, "joint_efficiency": 0.0}

# verifiers resolves a taskset, harness or environment id by importing a module of that
# name (``verifiers.v1.<group>.<id>`` first) and taking the one subclass of each kind its
# ``__all__`` exports. This package is not a top-level module of that shape, so a module
# exporting this module's three classes is registered under each namespaced name (before
# the classes exist: the env config's role defaults resolve the harness id when defined).
_EXPORTS = ["NegotiationTaskset", "SeatHarness", "NegotiationEnv"]
_PLUGINS: list[types.ModuleType] = []
for _group in ("tasksets", "harnesses", "envs"):
    _name = f"verifiers.v1.{_group}.{PLUGIN_ID}"
    _mod = sys.modules.get(_name)
    if _mod is None:
        _mod = types.ModuleType(_name)
        _mod.__spec__ = importlib.machinery.ModuleSpec(_name, None)
        sys.modules[_name] = _mod
    _mod.__all__ = list(_EXPORTS)
    _PLUGINS.append(_mod)


def _export(**classes: type) -> None:
    for m in _PLUGINS:
        m.__dict__.update(classes)


class NegotiationTasksetConfig(vf.TasksetConfig):
    """The rows of a run: ``game`` with ``config``, one row per seed of ``seeds`` and
    seat of ``seat`` (None: every seat), as :func:`~.groups.grpo_dataset` builds them."""

    id: str = PLUGIN_ID
    game: str = "matrix"
    config: dict[str, Any] = {}
    seeds: list[int] = [0]
    seat: list[str] | None = None


class NegotiationData(vf.TaskData):
    info: dict[str, Any]
    """The row: ``game``, ``config``, ``seat``, ``seed``."""


class NegotiationTask(vf.Task[NegotiationData, vf.State, vf.TaskConfig]):
    @property
    def key(self) -> str:
        """The row's identity (game, config, seat, seed): one key per game start."""
        return json.dumps(self.data.info, sort_keys=True)


def _wire(m: Mapping[str, Any]) -> dict[str, str]:
    return {"role": str(m["role"]), "content": str(m["content"])}


class NegotiationTaskset(vf.Taskset[NegotiationTask, NegotiationTasksetConfig]):
    def load(self) -> Iterator[NegotiationTask]:
        c = self.config
        for row in grpo_dataset(c.game, list(c.seeds), c.seat, config=c.config, as_list=True):
            prompt = [_wire(m) for m in row["prompt"]]
            system = prompt[0]["content"] if prompt and prompt[0]["role"] == "system" else None
            info = {"game": row["game"], "config": json.loads(row["config"]), "seat": row["seat"], "seed": row["seed"]}
            yield NegotiationTask(NegotiationData(
                name=f"{row['game']}/{row['seat']}/{row['seed']}", system_prompt=system,
                prompt=prompt[1:] if system is not None else prompt, info=info), c.task)


class SeatHarnessConfig(vf.HarnessConfig):
    id: str = PLUGIN_ID


class SeatHarness(vf.Harness[SeatHarnessConfig]):
    """One chat completion of the seat's conversation per segment, made in this process
    through the rollout's interception endpoint (which records it on the trace). The
    games need no tools and no sandbox, so nothing is installed or launched: the
    built-in chat harness (``null``) would install a script environment with uv for
    the same one request."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx: Any, trace: Any, runtime: Any, endpoint: str, secret: str,
                     mcp_urls: dict[str, str], data: vf.TaskData, tool_interception_url: str | None = None,
                     ) -> ProgramResult:
        from openai import AsyncOpenAI

        system, prompt = self.resolve_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        elif prompt is not None:
            messages.extend(message_to_wire(m) for m in prompt)
        client = AsyncOpenAI(base_url=endpoint, api_key=secret, max_retries=0)
        try:
            await client.chat.completions.create(model=ctx.model, messages=messages)
        except Exception as e:  # the interception recorded the failure on the trace
            return ProgramResult(exit_code=1, stdout="", stderr=f"{type(e).__name__}: {e}")
        finally:
            await client.close()
        return ProgramResult(exit_code=0, stdout="", stderr="")


_export(NegotiationTaskset=NegotiationTaskset, SeatHarness=SeatHarness)


def _model_role() -> vf.AgentConfig:
    return vf.AgentConfig(harness={"id": PLUGIN_ID}, runtime=SubprocessConfig())


class NegotiationEnvConfig(vf.EnvConfig):
    """``seats``: who plays each seat (module docstring); ``learner`` and ``frozen``: the
    two model roles; ``weights``: the weight of each reward of :data:`REWARDS`;
    ``max_steps``: a game is cut after that many answers (``info["truncated"]``)."""

    seats: list[str] = [LEARNER, "scripted:tit_for_tat"]
    learner: vf.AgentConfig = _model_role()
    frozen: vf.AgentConfig = _model_role()
    weights: dict[str, float] = dict(REWARDS)
    max_steps: int = 10_000


def _extends(conv: list[dict[str, str]], held: list[dict[str, str]]) -> bool:
    """Whether the env's conversation ``conv`` starts with the messages the interaction
    holds. The seat's own answers are compared by role only: the interaction holds them
    as sampled, the env's rendering may normalise them for display."""
    if len(conv) < len(held):
        return False
    return all(c["role"] == h["role"] and (h["role"] == "assistant" or c["content"] == h["content"])
               for c, h in zip(conv, held))


def _reply(segment: Any) -> str:
    """The seat's answer exactly as sampled (``Segment.last_reply`` strips it)."""
    for m in reversed(segment.messages):
        if isinstance(m, vf.AssistantMessage):
            content = m.content
            if isinstance(content, str) or content is None:
                return content or ""
            return "".join(getattr(p, "text", "") for p in content)
    return ""


class NegotiationEnv(vf.Env[NegotiationEnvConfig]):
    """Plays a row's game with the configured seats (module docstring)."""

    async def setup(self, agents: Any) -> None:
        agents.frozen.trainable = False

    async def run(self, task: Any, agents: Any) -> None:
        import negotiation_env

        info = dict(task.data.info)
        game, cfg, seed = info["game"], dict(info["config"]), int(info["seed"])
        env = negotiation_env.env(game=game, **cfg)
        env.reset(seed=seed)
        names = list(env.possible_agents)
        seats = list(self.config.seats)
        if len(seats) != len(names):
            raise ValueError(f"the {game} game has {len(names)} seats ({', '.join(names)}); seats names {len(seats)}")
        roles = {a: s for a, s in zip(names, seats) if s in (LEARNER, FROZEN)}
        if info["seat"] not in roles:
            raise ValueError(f"the row's seat {info['seat']!r} is played by {seats[names.index(info['seat'])]!r}, "
                             f"not by a model role ({LEARNER!r} or {FROZEN!r})")
        policies, _, _ = _Seats(game, [LEARNER if s in (LEARNER, FROZEN) else s for s in seats]).build(seed, 0, names)
        returns = dict.fromkeys(names, 0.0)
        answers = dict.fromkeys(roles, 0)
        accepted = dict.fromkeys(roles, 0)
        open_: dict[str, Any] = {}
        held: dict[str, list[dict[str, str]]] = {}  # per model seat: the conversation its interaction holds
        steps, truncated, cut_at = 0, False, None
        async with contextlib.AsyncExitStack() as stack:
            for agent in env.agent_iter():
                obs, reward, term, trunc, _ = env.last()
                returns[agent] += float(reward)
                if term or trunc:
                    env.step(None)
                    continue
                if steps >= self.config.max_steps:
                    truncated, cut_at = True, agent
                    break
                if agent not in roles:
                    env.step(policies[agent].act(obs))
                    steps += 1
                    continue
                conv = [_wire(m) for m in obs["conversation"]]
                if agent not in open_:
                    system = conv[0]["content"] if conv and conv[0]["role"] == "system" else None
                    seat_task = NegotiationTask(NegotiationData(
                        name=f"{game}/{agent}/{seed}", system_prompt=system, prompt=None,
                        info={**info, "seat": agent}), task.config)
                    open_[agent] = await stack.enter_async_context(getattr(agents, roles[agent]).interaction(seat_task))
                    open_[agent].trace.info.update({"seat": agent, "row": info})
                    held[agent] = conv[:1] if system is not None else []
                before = held[agent]
                if not _extends(conv, before):
                    raise ValueError(
                        f"the {game} game rebuilt seat {agent}'s conversation at its answer {answers[agent] + 1} (seed "
                        f"{seed}): a verifiers interaction only extends a conversation; train this game per turn "
                        "with negotiation_env.online.rollouts and to_samples")
                new = conv[len(before):]
                segment = await open_[agent].turn(new)
                if segment.terminated:  # the role's own limit (max_turns, tokens) ended its run
                    truncated, cut_at = True, agent
                    break
                text = _reply(segment)
                held[agent] = before + new + [{"role": "assistant", "content": text}]
                env.step(text)
                steps += 1
                events = env.infos[agent].get("events") or []
                answers[agent] += 1
                accepted[agent] += not any(is_error_event(e) for e in events)
            if truncated:  # what accrued since each seat's last visit (the cut seat's was read at its visit)
                for a in names:
                    if a != cut_at:
                        returns[a] += float(env.unwrapped._cumulative_rewards.get(a, 0.0))
            efficiency = _joint_efficiency(env)
            for agent, interaction in open_.items():
                trace = interaction.trace
                trace.info.update({"returns": dict(returns), "truncated": truncated})
                w = self.config.weights
                trace.record_reward("game_return", returns[agent], w.get("game_return", 0.0))
                if answers[agent]:
                    trace.record_reward("valid_share", accepted[agent] / answers[agent], w.get("valid_share", 0.0))
                if efficiency is not None:
                    trace.record_reward("joint_efficiency", efficiency, w.get("joint_efficiency", 0.0))


def _joint_efficiency(env: Any) -> float | None:
    from .rollout import _joint_efficiency as je

    return je(env)


_export(NegotiationEnv=NegotiationEnv)


def environment(game: str, seeds: Sequence[int], seats: Sequence[str], *, config: Mapping[str, Any] | None = None,
                seat: str | Sequence[str] | None = None, learner: Mapping[str, Any] | None = None,
                frozen: Mapping[str, Any] | None = None, weights: Mapping[str, float] | None = None,
                max_steps: int = 10_000) -> NegotiationEnv:
    """A :class:`NegotiationEnv` over the rows of ``game`` (with ``config``) for
    ``seeds`` and ``seat`` (None: every ``learner`` seat, or every model seat where
    none is trained), played by
    ``seats``. ``learner`` / ``frozen``: ``AgentConfig`` fields of the two model roles
    (``model``, ``client``, ``sampling``, ``max_turns``, ...), over the defaults (the
    in-process :class:`SeatHarness`, the local runtime). ``weights``: reward weights
    over :data:`REWARDS`. Raises ``ValueError`` for a seat list of the wrong length,
    an unknown reward, a row seat no model plays."""
    import negotiation_env

    cfg = dict(config or {})
    names = list(negotiation_env.env(game=game, **cfg).possible_agents)
    seats = list(seats)
    if len(seats) != len(names):
        raise ValueError(f"the {game} game has {len(names)} seats ({', '.join(names)}); seats names {len(seats)}")
    model_seats = [a for a, s in zip(names, seats) if s in (LEARNER, FROZEN)]
    if not model_seats:
        raise ValueError(f"no seat is played by a model role: put {LEARNER!r} (or {FROZEN!r}) in a seat")
    learners = [a for a, s in zip(names, seats) if s == LEARNER]
    rows = (learners or model_seats) if seat is None else [seat] if isinstance(seat, str) else list(seat)
    for a in rows:
        if a not in model_seats:
            raise ValueError(f"seat {a!r} is not played by a model role; model seats: {', '.join(model_seats)}")
    bad = set(weights or {}) - set(REWARDS)
    if bad:
        raise ValueError(f"unknown rewards {sorted(bad)}; the rubric records {', '.join(REWARDS)}")
    roles = {k: {"harness": {"id": PLUGIN_ID}, "runtime": {"type": "subprocess"}, **dict(v or {})}
             for k, v in (("learner", learner), ("frozen", frozen))}
    env_config = NegotiationEnvConfig(
        taskset=NegotiationTasksetConfig(game=game, config=cfg, seeds=list(seeds), seat=rows),
        seats=seats, weights={**REWARDS, **dict(weights or {})}, max_steps=max_steps, **roles)
    return NegotiationEnv(env_config)
