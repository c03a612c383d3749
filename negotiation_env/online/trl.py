"""TRL's ``GRPOTrainer`` on the games, with no glue: a ``rollout_func``, reward functions
and an ``environment_factory``.

Both integrations train on rows of :func:`~.groups.grpo_dataset` (each row a game start:
game, config, seat, seed), so the ``num_generations`` completions of a row (a GRPO group)
play the same game from the same state against opponents drawing the same random
numbers.

:func:`rollout_func` plays each row's game with :func:`~.rollout.rollouts` (the trainer's
model in the learner seats, wrapped by ``HFPolicy.from_model``; the other seats as
``seats`` says) and returns one row per prompt, in the shape TRL wants:
``prompt_ids`` (the seat's first prompt), ``completion_ids`` (every later token of the
episode), ``logprobs`` (sampled; 0.0 on env tokens) and ``env_mask`` (1 on the model's
tokens), plus ``game_return``, ``valid_share``, ``turn_rewards`` and
``joint_efficiency`` for the reward functions (:func:`game_return`, :func:`valid_share`,
:func:`joint_efficiency`). TRL takes one sequence per prompt, so an episode reaches it as
one token stream, which is exact only for an append-only episode
(:attr:`~.episode.Episode.append_only`). For an episode that is not (the game rebuilt
or reset the seat's context, or the chat template renders earlier turns otherwise than
the model read them), ``on_break`` decides:
``"error"`` (default) raises :class:`~.episode.NotAppendOnly` naming the game, seat,
seed and turn; ``"prefix"`` trains on the turns before the first break (still exact:
every token is in the context the model generated it from), scored by the whole game's
return. A loop that trains on every turn of such episodes uses :func:`~.rollout.rollouts`
and :func:`~.episode.to_samples` directly.

:func:`environment_factory` builds a class for TRL's tool-calling loop: ``reset(**row)``
starts the row's game and plays the other seats up to the learner's first turn; the
model answers each turn by calling a tool, one per kind of answer the seat is asked for
(typed from the game's answer format: a matrix action is ``Literal["A", "B"]``), which
plays the answer and the other seats and returns the env's next text; ``get_reward``
returns the seat's return. TRL owns the conversation there (the tool results are
appended at the token level), so what the model reads is the env's text as tool
results, not the env's own rendering of the context.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from typing import Any, Literal, Mapping, Sequence

from ..core.answer_format import answer_format
from ..traces.schema import is_error_event
from .episode import Episode, NotAppendOnly, to_stream
from .groups import row_of
from .rollout import LEARNER, _Seats, rollouts

__all__ = ["rollout_func", "game_return", "valid_share", "joint_efficiency", "environment_factory",
           "ON_BREAK"]

#: what :func:`rollout_func` does with an episode that is not append-only
ON_BREAK = ("error", "prefix")


def _prefix(episode: Episode) -> Episode:
    """``episode`` cut before its first break (the turns one stream holds exactly)."""
    breaks = episode.breaks
    if not breaks:
        return episode
    return Episode(game=episode.game, config=episode.config, seat=episode.seat, seed=episode.seed,
                   repeat=episode.repeat, turns=episode.turns[:breaks[0]], game_return=episode.game_return,
                   truncated=episode.truncated, joint_efficiency=episode.joint_efficiency)


def rollout_func(seats: Sequence[Any], *, generation: Mapping[str, Any] | None = None, on_break: str = "error",
                 batch_games: int = 16, max_steps: int = 10_000):
    """A ``rollout_func`` for ``trl.GRPOTrainer`` (module docstring).

    seats: who plays each seat, in the env's agent order, as for
    :func:`~.rollout.rollouts` (:data:`~.rollout.LEARNER` where the trained model plays;
    every row's seat must be one of those). generation: ``HFPolicy`` generation options
    for each answer (``max_new_tokens``, ``temperature``, ...); ``temperature`` and
    ``top_p`` default to the trainer's. on_break: one of :data:`ON_BREAK`. batch_games,
    max_steps: as for :func:`~.rollout.rollouts`.

    The returned function takes ``(prompts, trainer)`` as TRL calls it; each prompt names
    its game start (:func:`~.groups.row_of`), and repeated prompts (a group) get
    successive repeats. Successive calls number their repeats on, so a row played again
    samples with new seeds."""
    if on_break not in ON_BREAK:
        raise ValueError(f"rollout_func: on_break must be one of {', '.join(ON_BREAK)}; got {on_break!r}")
    seats = list(seats)
    if LEARNER not in seats:
        raise ValueError(f"rollout_func: no seat plays the learner: put {LEARNER!r} in at least one seat")
    gen = dict(generation or {})
    state: dict[str, Any] = {"repeat": 0, "policy": None, "model": None}

    def learner_for(trainer: Any) -> Any:
        from ..runner.policies import hf_policy_class

        model = trainer.accelerator.unwrap_model(trainer.model) if hasattr(trainer, "accelerator") else trainer.model
        if state["model"] is not model:
            opts = dict(gen)
            args = getattr(trainer, "args", None)
            for key in ("temperature", "top_p"):
                if key not in opts and getattr(args, key, None) is not None:
                    opts[key] = getattr(args, key)
            state["policy"] = hf_policy_class().from_model(model, trainer.processing_class, **opts)
            state["model"] = model
        return state["policy"]

    def func(prompts: list, trainer: Any) -> dict[str, list]:
        rows = [row_of(p) for p in prompts]
        # occurrence of each row among the prompts: its repeat within the call
        seen: dict[tuple, int] = {}
        keys = []
        for r in rows:
            k = (r["game"], json.dumps(r["config"], sort_keys=True), r["seed"], r["seat"])
            keys.append((k, seen.get(k, 0)))
            seen[k] = seen.get(k, 0) + 1
        learner = learner_for(trainer)
        first = state["repeat"]
        repeats = max(seen.values())
        state["repeat"] += repeats
        played: dict[tuple, Episode] = {}
        by_game: dict[tuple, list[int]] = {}
        for (game, cfg, seed, seat), _ in keys:
            by_game.setdefault((game, cfg), [])
            if seed not in by_game[(game, cfg)]:
                by_game[(game, cfg)].append(seed)
        for (game, cfg), seeds in by_game.items():
            eps = rollouts(learner, game=game, seeds=seeds, seats=seats, config=json.loads(cfg),
                           repeats=repeats, first_repeat=first, batch_games=batch_games, max_steps=max_steps)
            for e in eps:
                played[(game, cfg, e.seed, e.seat, e.repeat - first)] = e
        out: dict[str, list] = {k: [] for k in ("prompt_ids", "completion_ids", "logprobs", "env_mask",
                                                "game_return", "valid_share", "turn_rewards", "joint_efficiency",
                                                "trained_turns")}
        for (k, j) in keys:
            game, cfg, seed, seat = k
            ep = played.get((game, cfg, seed, seat, j))
            if ep is None:
                raise ValueError(f"rollout_func: the row's seat {seat!r} of the {game} game is not a learner seat "
                                 f"(seats: {seats})")
            kept = ep
            if not ep.append_only:
                if on_break == "error":
                    b = ep.breaks[0]
                    raise NotAppendOnly(
                        f"the {game} game (seat {seat}, seed {seed}) gave an episode that is not append-only: turn "
                        f"{b}'s prompt does not start with turn {b - 1}'s prompt and completion (the env rebuilt "
                        "the context, or the chat template renders earlier turns otherwise than the model read "
                        "them), so one token "
                        "stream would train on a context the model never read; pass on_break='prefix' to train on "
                        "the turns before the break, or train per turn with rollouts() and to_samples()")
                kept = _prefix(ep)
            if not kept.turns:
                raise ValueError(f"rollout_func: the {game} game (seat {seat}, seed {seed}) ended before the "
                                 "learner's first turn: there is nothing to train on")
            s = to_stream(kept)
            out["prompt_ids"].append(s.prompt_ids)
            out["completion_ids"].append(s.completion_ids)
            out["logprobs"].append(s.logprobs)
            out["env_mask"].append(s.env_mask)
            out["game_return"].append(float(ep.game_return))
            out["valid_share"].append(ep.valid_share)
            out["turn_rewards"].append([float(t.reward) for t in ep.turns])
            out["joint_efficiency"].append(ep.joint_efficiency)
            out["trained_turns"].append(len(kept.turns))
        return out

    return func


# ----------------------------------------------------------------------------- rewards


def _values(name: str, values: Any) -> list[float | None]:
    if values is None:
        raise ValueError(f"reward {name}: the batch has no {name!r} field: use negotiation_env.online.trl."
                         "rollout_func (or environment_factory) to play the games")
    return [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v) for v in values]


def game_return(completions: Any = None, game_return: Any = None, environments: Any = None,
                **kwargs: Any) -> list[float | None]:
    """Reward: the learner seat's return in the game (from :func:`rollout_func`'s rows or
    the :func:`environment_factory` environments)."""
    if game_return is None and environments is not None:
        return [e.get_reward() for e in environments]
    return _values("game_return", game_return)


def valid_share(completions: Any = None, valid_share: Any = None, environments: Any = None,
                **kwargs: Any) -> list[float | None]:
    """Reward: the share of the seat's answers the env accepted (format validity); None
    (ignored by TRL) for an episode without answers."""
    if valid_share is None and environments is not None:
        return [e.valid_share for e in environments]
    return _values("valid_share", valid_share)


def joint_efficiency(completions: Any = None, joint_efficiency: Any = None, **kwargs: Any) -> list[float | None]:
    """Reward: the game's mean joint efficiency (:attr:`~.episode.Episode.joint_efficiency`);
    None (ignored by TRL) in a game without one."""
    return _values("joint_efficiency", joint_efficiency)


# ----------------------------------------------------------------------------- environment


_LITERALS = re.compile(r"^\(\?:((?:[A-Za-z0-9_]+\|)*[A-Za-z0-9_]+)\)$")
_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict, "array": list}


def _kind_name(fmt_name: str) -> str:
    return "answer_" + re.sub(r"[^A-Za-z0-9]+", "_", fmt_name.split(".", 1)[-1]).strip("_")


def _param_type(schema: Mapping[str, Any]) -> Any:
    if "enum" in schema and schema["enum"] and all(isinstance(v, (str, int)) for v in schema["enum"]):
        return Literal[tuple(schema["enum"])]
    t = schema.get("type")
    if isinstance(t, list):
        kinds = [x for x in t if x != "null"]
        base = _JSON_TYPES.get(kinds[0], str) if len(kinds) == 1 else str
        return base | None if "null" in t else base
    if "anyOf" in schema:
        return dict
    return _JSON_TYPES.get(t, str)


def _tool_spec(fmt: Any) -> dict[str, Any]:
    """How one answer format becomes a tool: its parameters (name -> (type, required,
    description)) and whether the answer is the text of a single parameter or the JSON
    object of all of them."""
    if fmt.regex is not None:
        m = _LITERALS.match(fmt.regex)
        typ = Literal[tuple(m.group(1).split("|"))] if m else str
        return {"mode": "text", "params": {"answer": (typ, True, "the answer, as the game's prompt asks for it")}}
    schema = fmt.json_schema
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not props:
        return {"mode": "json_text", "params": {"answer": (str, True, "the answer: one JSON object, as the game's "
                                                                      "prompt asks for it")}}
    required = set(schema.get("required") or ())
    params = {}
    for name, sub in props.items():
        if not name.isidentifier():
            return {"mode": "json_text", "params": {"answer": (str, True, "the answer: one JSON object, as the "
                                                                          "game's prompt asks for it")}}
        params[name] = (_param_type(sub), name in required, f"the answer's {name!r} field")
    return {"mode": "json", "params": params}


def _make_tool(name: str, kind: str, spec: dict[str, Any]):
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    doc_args = []
    for p, (typ, required, desc) in spec["params"].items():
        params.append(inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, annotation=typ,
                                        default=inspect.Parameter.empty if required else None))
        annotations[p] = typ
        doc_args.append(f"    {p}: {desc}")

    def tool(self, **kwargs: Any) -> str:
        return self._answer(kind, spec, kwargs)

    tool.__name__ = tool.__qualname__ = name
    tool.__signature__ = inspect.Signature(params, return_annotation=str)
    tool.__annotations__ = annotations
    tool.__doc__ = (f"Give your answer when the game asks for a {kind} answer; returns what the game says next.\n\n"
                    "Args:\n" + "\n".join(doc_args) + "\n")
    return tool


def _probe_kinds(game: str, config: dict[str, Any], seats: list, learner_seats: list[str], probe_seeds: Sequence[int],
                 max_steps: int) -> dict[str, Any]:
    """The answer formats the learner seats meet, found by playing ``probe_seeds`` with the
    learner seats answering :func:`_fallback_answer`."""
    import negotiation_env

    formats: dict[str, Any] = {}
    for seed in probe_seeds:
        env = negotiation_env.env(game=game, **config)
        env.reset(seed=seed)
        agents = list(env.possible_agents)
        policies = _fixed_policies(game, seats, agents, seed)
        for n, agent in enumerate(env.agent_iter()):
            obs, _r, term, trunc, _i = env.last()
            if n >= max_steps:
                break
            if term or trunc:
                env.step(None)
                continue
            if agent in learner_seats:
                fmt = answer_format(obs)
                if fmt is not None:
                    formats.setdefault(fmt.name, fmt)
                env.step(_fallback_answer(fmt))
            else:
                env.step(policies[agent].act(obs))
    return formats


def _fallback_answer(fmt: Any) -> str:
    """An answer of form ``fmt`` the probe plays for the learner: the first literal of an
    alternation, else a short valid-looking text."""
    if fmt is not None and fmt.regex is not None:
        m = _LITERALS.match(fmt.regex)
        if m:
            return m.group(1).split("|")[0]
    return "ok"


def _fixed_policies(game: str, seats: list, agents: list[str], seed: int) -> dict[str, Any]:
    resolved = _Seats(game, seats)
    policies, _seeds, _batched = resolved.build(seed, 0, agents)
    return policies


def environment_factory(game: str, seats: Sequence[Any], *, config: Mapping[str, Any] | None = None,
                        probe_seeds: Sequence[int] = (0, 1), max_steps: int = 10_000) -> type:
    """A class for ``trl.GRPOTrainer(environment_factory=...)`` (module docstring): one
    :data:`~.rollout.LEARNER` seat in ``seats`` (the model in TRL's tool loop), the
    others played as :func:`~.rollout.rollouts` plays fixed seats (seeded by the game's
    seed: common random numbers across a group).

    The tools are the answer kinds the learner seat meets in games ``probe_seeds`` (each
    game's own answer formats: a regex alternation of words becomes a ``Literal``; a JSON
    object's fields become typed parameters). A tool called when the game asks for
    another kind, or with an answer the env refuses, returns the env's message and the
    turn stays open (a refused answer counts against :attr:`valid_share`).

    ``reset(**row)`` takes a :func:`~.groups.grpo_dataset` row (``game``, ``config``,
    ``seat``, ``seed``; ``prompt`` optional). It returns None when the row's prompt is
    the seat's opening conversation (the model already reads it), and otherwise the text
    of the messages the prompt lacks (all of them, system prompt first, for a prompt
    without them), which TRL appends to the prompt's last message."""
    import negotiation_env

    cfg = dict(config or {})
    seats = list(seats)
    if seats.count(LEARNER) != 1:
        raise ValueError(f"environment_factory: exactly one seat plays the learner (TRL's tool loop holds one "
                         f"conversation); seats: {seats}")
    agents = list(negotiation_env.env(game=game, **cfg).possible_agents)
    if len(seats) != len(agents):
        raise ValueError(f"the {game} game has {len(agents)} seats ({', '.join(agents)}); seats names {len(seats)}")
    learner_seat = agents[seats.index(LEARNER)]
    _Seats(game, seats)  # refuses bad seat entries now
    formats = _probe_kinds(game, cfg, seats, [learner_seat], probe_seeds, max_steps)
    if not formats:
        raise ValueError(f"environment_factory: the {game} game never asked seat {learner_seat} for an answer in "
                         f"probe games {list(probe_seeds)}")
    methods: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    for fmt_name, fmt in formats.items():
        tool_name = _kind_name(fmt_name)
        kinds[fmt_name] = tool_name
        methods[tool_name] = _make_tool(tool_name, fmt_name, _tool_spec(fmt))
    cls_name = f"{game.capitalize()}Env"
    namespace = dict(methods, __doc__=f"The {game} game as a TRL environment: seat {learner_seat} is the model.",
                     _game=game, _config=cfg, _seats=seats, _seat=learner_seat, _kinds=kinds,
                     _max_steps=max_steps)
    return type(cls_name, (_GameEnv,), namespace)


class _GameEnv:
    """The base of :func:`environment_factory`'s classes (its docstring)."""

    _game: str
    _config: dict[str, Any]
    _seats: list
    _seat: str
    _kinds: dict[str, str]
    _max_steps: int

    def __init__(self) -> None:
        self.env = None
        self.seed: int | None = None
        self.answers = 0
        self.valid = 0
        self.reward = 0.0
        self._context: list[dict[str, str]] = []
        self._steps = 0

    def reset(self, **row: Any) -> str | None:
        import negotiation_env

        game = row.get("game", self._game)
        if game != self._game:
            raise ValueError(f"this environment plays the {self._game} game; the row names {game!r}")
        cfg = row.get("config")
        cfg = json.loads(cfg) if isinstance(cfg, str) else dict(cfg or {})
        if cfg and cfg != self._config:
            raise ValueError(f"this environment plays the config {self._config}; the row names {cfg}")
        seat = row.get("seat", self._seat)
        if seat != self._seat:
            raise ValueError(f"this environment's learner plays seat {self._seat}; the row names {seat!r}")
        seed = row.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"reset needs the row's seed (an integer >= 0; build the dataset with grpo_dataset); "
                             f"got {seed!r}")
        self.seed = seed
        self.env = negotiation_env.env(game=self._game, **self._config)
        self.env.reset(seed=seed)
        agents = list(self.env.possible_agents)
        self._policies = _fixed_policies(self._game, self._seats, agents, seed)
        self._agents = iter(self.env.agent_iter())
        self.answers = self.valid = 0
        self.reward = 0.0
        self._steps = 0
        self._obs = None
        self._context = []
        self._advance()
        if self._obs is None:
            raise ValueError(f"the {self._game} game (seed {seed}) ended before seat {self._seat}'s first turn")
        context = self._conversation()
        prompt = row.get("prompt")
        given = [m for m in prompt if m.get("content")] if isinstance(prompt, list) else []
        got = [(m.get("role"), m.get("content")) for m in given]
        if got == [(m["role"], m["content"]) for m in context[:len(got)]]:
            rest = context[len(got):]
        else:
            raise ValueError(f"the row's prompt is not the start of seat {self._seat}'s conversation in the "
                             f"{self._game} game (seed {seed}): build the dataset with grpo_dataset(...) and the "
                             "same config")
        self._context = context
        return "\n\n".join(m["content"] for m in rest) if rest else None

    @property
    def valid_share(self) -> float | None:
        """The share of the seat's answers the env accepted; None before any."""
        return self.valid / self.answers if self.answers else None

    def get_reward(self) -> float:
        """The learner seat's return so far (the game's return once it ended)."""
        return float(self.reward)

    def _conversation(self) -> list[dict[str, str]]:
        conv = self._obs.get("conversation") if isinstance(self._obs, Mapping) else None
        return [{"role": str(m["role"]), "content": str(m["content"])} for m in conv or ()]

    def _advance(self) -> None:
        """Play the other seats until the learner's next decision (``self._obs``) or the end."""
        self._obs = None
        env = self.env
        for agent in self._agents:
            obs, reward, term, trunc, _info = env.last()
            if agent == self._seat:
                self.reward += float(reward or 0.0)
            if term or trunc:
                env.step(None)
                continue
            if self._steps >= self._max_steps:
                return
            if agent == self._seat:
                self._obs = obs
                return
            env.step(self._policies[agent].act(obs))
            self._steps += 1

    def _answer(self, kind: str, spec: dict[str, Any], args: dict[str, Any]) -> str:
        if self.env is None:
            raise ValueError("call reset(...) before answering")
        if self._obs is None:
            return f"The game is over. Your return: {self.reward:g}."
        fmt = answer_format(self._obs)
        if fmt is None or fmt.name != kind:
            want = self._kinds.get(fmt.name) if fmt is not None else None
            return (f"The game does not ask for a {kind} answer now"
                    + (f"; call {want}." if want else "."))
        if spec["mode"] == "text":
            text = str(args["answer"])
        elif spec["mode"] == "json_text":
            text = str(args["answer"])
        else:
            text = json.dumps({k: v for k, v in args.items() if v is not None})
        before = self._context
        self.env.step(text)
        self._steps += 1
        self.answers += 1
        events = list(self.env.infos[self._seat].get("events") or [])
        ok = not any(is_error_event(e) for e in events)
        self.valid += ok
        self._advance()
        if self._obs is None:
            return f"The game is over. Your return: {self.reward:g}."
        context = self._conversation()
        self._context = context
        # the env's new messages: everything after the longest common prefix of the contexts but the answer itself
        n = 0
        while n < min(len(before), len(context)) and before[n] == context[n]:
            n += 1
        new = [m for m in context[n:] if not (m["role"] == "assistant" and m["content"].strip() == text.strip())]
        return "\n\n".join(m["content"] for m in new) if new else ""
