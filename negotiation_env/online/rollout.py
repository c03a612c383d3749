"""Playing many games with a model being trained in some seats: :func:`rollouts`.

The games are played in lock-step through the runner's round helper
(:class:`~negotiation_env.runner.slots.Slots`, as :mod:`~negotiation_env.runner.lockstep`
plays them): up to ``batch_games`` games are open at once; each round advances every open
game to its next decision of a batched policy (playing the turns of per-game scripted
policies on the way), answers all pending decisions of one policy object with one call
(the learner's turns in every open game form one batch), and applies the answers. A
game that ends gives its slot to the next one in the same round.

Seats. ``seats`` names, in the env's agent order, who plays each seat:

* :data:`LEARNER`: the model being trained (``learner``); an :class:`~.episode.Episode`
  is returned for each such seat of each game;
* a policy spec string of the runner (``scripted:NAME``, ``hf:PATH``,
  ``openai:MODEL@URL``, ``python:MOD:FACTORY``; :mod:`negotiation_env.runner.policies`):
  scripted and python policies are built per game with the seat's seed; model-backed
  ones once per call, shared by all games and batched like the learner;
* any other object with ``act(observation)`` (a frozen ``HFPolicy``, say): shared by all
  games; batched through ``act_batch(observations, seeds=...)`` when it takes seeds.

The learner is any object with ``complete(observations, seeds=...)`` returning one
:class:`~negotiation_env.core.completion.Completion` per observation with its token
fields filled: ``baselines.llm.hf.HFPolicy.from_model(model, tokenizer, ...)`` is one,
``baselines.llm.api.APIPolicy(..., record_tokens=True)`` another (where the server returns
token ids and logprobs).

Exact tokens. The env gets the learner's whole answer as generated (the completion's
``raw`` text) and keeps it verbatim in the seat's context. A learner that generates from
given token ids (``takes_prompt_ids``, with ``prompt_text``, ``encode`` and ``decode``:
``HFPolicy``) gets each later prompt built from tokens when the seat's context is its
previous context, its answer as sent, then new messages: the previous prompt and
completion tokens, then the tokens of what the template renders after them
(:func:`~.tokens.continue_prompt`), so re-tokenising never breaks the episode's stream.
A context the game rebuilds or resets is rendered afresh (``Turn.prompt_built``).

Seeds. Game ``(seed, repeat)`` resets its env with ``seed``, so every repeat of a seed
starts from the same state (a GRPO group shares its initial state). The learner in seat
``s`` gets the policy seed ``derive_seed(seed, "rollout", repeat, s)``, so repeats differ
in its sampling; a fixed seat ``s`` gets ``derive_seed(seed, "rollout", s)`` whatever the
repeat, so a stochastic opponent plays every repeat of a seed with the same random
numbers (common random numbers: a group's returns differ by what the learner did). A
policy's ``i``-th call in a game gets the call seed ``call_seed(policy_seed, i)``. The same arguments give the same episodes
whatever the batch size, up to floating-point effects of batching (padding) on sampling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from ..core.policy import call_seed
from ..runner.plan import derive_seed
from ..runner.slots import Slots, by_policy, takes_seeds
from ..traces.schema import is_error_event
from .episode import Episode, Turn
from .tokens import continue_prompt

__all__ = ["LEARNER", "rollouts"]

#: the seat entry that puts the learner in a seat
LEARNER = "learner"


@dataclass
class _Play:
    env: Any
    seed: int
    repeat: int
    policies: dict[str, Any]  # agent -> LEARNER or a policy object
    policy_seeds: dict[str, int]
    calls: dict[str, int]
    turns: dict[str, list[Turn]]  # learner agents only
    pre: dict[str, float]  # learner agents' rewards before their first turn
    batched: frozenset
    agents: Iterator[str] = field(init=False)
    steps: int = 0
    truncated: bool = False
    cut_at: str | None = None  # the agent visited when the step cap cut the game

    def __post_init__(self) -> None:
        self.agents = iter(self.env.agent_iter())

    def credit(self, agent: str, reward: float) -> None:
        if agent in self.turns and reward:
            if self.turns[agent]:
                self.turns[agent][-1].reward += float(reward)
            else:
                self.pre[agent] += float(reward)

    def next_seed(self, agent: str) -> int:
        s = call_seed(self.policy_seeds[agent], self.calls[agent])
        self.calls[agent] += 1
        return s


@dataclass
class _Ask:
    play: _Play
    agent: str
    obs: Any
    seed: int


class _Seats:
    """The seat entries resolved once: per seat, LEARNER, a shared object, or a factory
    ``seed -> policy`` built per game."""

    def __init__(self, game: str, seats: Sequence[Any]):
        from ..runner.config import PolicyEntry
        from ..runner.policies import HEAVY_KINDS, resolve_factory

        self.entries: list[tuple[str, Any]] = []
        for s, entry in enumerate(seats):
            if isinstance(entry, str) and entry == LEARNER:
                self.entries.append(("learner", None))
            elif isinstance(entry, (str, PolicyEntry)):
                pe = entry if isinstance(entry, PolicyEntry) else PolicyEntry(spec=entry)
                factory = resolve_factory(pe, game)
                if factory.kind in HEAVY_KINDS:
                    self.entries.append(("shared", factory(None)))
                else:
                    self.entries.append(("factory", factory))
            elif callable(getattr(entry, "act", None)):
                self.entries.append(("shared", entry))
            else:
                raise ValueError(f"seat {s}: expected {LEARNER!r}, a policy spec (e.g. 'scripted:NAME') or an object "
                                 f"with act(observation); got {entry!r}")
        if not any(kind == "learner" for kind, _ in self.entries):
            raise ValueError(f"no seat plays the learner: put {LEARNER!r} in at least one seat")

    def build(self, seed: int, repeat: int, agents: Sequence[str]) -> tuple[dict, dict, frozenset]:
        policies: dict[str, Any] = {}
        seeds: dict[str, int] = {}
        batched = set()
        for s, (agent, (kind, what)) in enumerate(zip(agents, self.entries)):
            seeds[agent] = (derive_seed(seed, "rollout", repeat, s) if kind == "learner"
                            else derive_seed(seed, "rollout", s))
            if kind == "learner":
                policies[agent] = LEARNER
                batched.add(agent)
            elif kind == "shared":
                policies[agent] = what
                batched.add(agent)
            else:
                policies[agent] = what(seeds[agent])
        return policies, seeds, frozenset(batched)


def _check_int(name: str, value: Any, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise ValueError(f"rollouts: {name} must be an integer >= {lo}; got {value!r}")
    return value


def rollouts(learner: Any, *, game: str, seeds: Sequence[int], seats: Sequence[Any],
             config: Mapping[str, Any] | None = None, repeats: int = 1, batch_games: int = 16,
             max_steps: int = 10_000, first_repeat: int = 0) -> list[Episode]:
    """Play game ``game`` (with ``config``) from each of ``seeds``, ``repeats`` times
    each, with ``seats`` (module docstring) and the learner answering for every
    :data:`LEARNER` seat; return one :class:`~.episode.Episode` per learner seat per
    game, ordered by seed, repeat, then seat. The repeats are numbered from
    ``first_repeat`` (a trainer calling again for the same seeds passes a new range, so
    the learner samples with new seeds).

    ``batch_games``: the most games open at once (the learner's batch is at most that
    many prompts per learner seat). ``max_steps``: a game is cut after that many answers
    (its episodes say ``truncated``). A policy's exception is raised."""
    import negotiation_env

    seeds = [_check_int("each seed", s, 0) for s in seeds]
    _check_int("repeats", repeats, 1)
    _check_int("first_repeat", first_repeat, 0)
    _check_int("batch_games", batch_games, 1)
    _check_int("max_steps", max_steps, 1)
    if not callable(getattr(learner, "complete", None)):
        raise ValueError(f"the learner must have complete(observations, seeds=...) returning completions with token "
                         f"ids (baselines.llm.hf.HFPolicy.from_model gives one); got {type(learner).__name__}")
    cfg = dict(config or {})
    probe = negotiation_env.env(game=game, **cfg)
    agents = list(probe.possible_agents)
    if len(seats) != len(agents):
        raise ValueError(f"the {game} game has {len(agents)} seats ({', '.join(agents)}); seats names {len(seats)}")
    resolved = _Seats(game, seats)
    plan = [(s, r) for s in seeds for r in range(first_repeat, first_repeat + repeats)]
    done: dict[tuple[int, int], list[Episode]] = {}

    def start(item: tuple[int, int]) -> _Play:
        seed, repeat = item
        env = negotiation_env.env(game=game, **cfg)
        env.reset(seed=seed)
        policies, pseeds, batched = resolved.build(seed, repeat, agents)
        learners = [a for a in agents if policies[a] == LEARNER]
        return _Play(env=env, seed=seed, repeat=repeat, policies=policies, policy_seeds=pseeds,
                     calls=dict.fromkeys(agents, 0), turns={a: [] for a in learners}, pre=dict.fromkeys(learners, 0.0),
                     batched=batched)

    slots: Slots[_Play, _Ask] = Slots(plan, batch_games, start, lambda p: _advance(p, max_steps))
    while True:
        asks, ended = slots.round()
        for p, err in ended:
            if err is not None:
                raise err
            done[(p.seed, p.repeat)] = _episodes(p, game, cfg)
        if not slots.live:
            break
        for policy, group in by_policy(asks, lambda a: a.play.policies[a.agent]):
            if policy is LEARNER:
                _learner_answers(learner, group)
            else:
                for a, action in zip(group, _fixed_answers(policy, group)):
                    a.play.env.step(action)
                    a.play.steps += 1
    return [e for key in sorted(done, key=lambda k: (seeds.index(k[0]), k[1])) for e in done[key]]


def _advance(p: _Play, max_steps: int) -> _Ask | None:
    """Run ``p`` to its next decision of a batched seat (playing per-game policies on
    the spot); None when the game is over or cut at ``max_steps``."""
    env = p.env
    for agent in p.agents:
        obs, reward, term, trunc, _info = env.last()
        p.credit(agent, reward)
        if term or trunc:
            env.step(None)
            continue
        if p.steps >= max_steps:
            p.truncated = True
            p.cut_at = agent
            return None
        if agent in p.batched:
            return _Ask(p, agent, obs, p.next_seed(agent))
        p.calls[agent] += 1
        env.step(p.policies[agent].act(obs))
        p.steps += 1
    return None


def _builds_prompts(learner: Any) -> bool:
    """Whether the learner generates from token ids given to it and shows how it
    renders, tokenizes and detokenizes (``HFPolicy`` does; a server-backed one does not)."""
    return bool(getattr(learner, "takes_prompt_ids", False)) and all(
        callable(getattr(learner, m, None)) for m in ("prompt_text", "encode", "decode"))


def _next_prompt(learner: Any, a: _Ask) -> list[int] | None:
    """The learner seat's next prompt built from tokens (:func:`~.tokens.continue_prompt`)
    when its context is its previous context, its answer as it sent it, then new
    messages; None when the context was rebuilt (the prompt is the rendering)."""
    turns = a.play.turns[a.agent]
    conv = a.obs.get("conversation") if isinstance(a.obs, Mapping) else None
    if not turns or conv is None:
        return None
    prev = turns[-1]
    n = len(prev.context)
    if len(conv) <= n + 1 or [dict(m) for m in conv[:n]] != prev.context:
        return None
    answer = conv[n]
    if answer.get("role") != "assistant" or answer.get("content") != prev.text:
        return None
    return continue_prompt(prev.prompt_ids, prev.completion_ids, learner.prompt_text(a.obs), learner.encode,
                           learner.decode)


def _learner_answers(learner: Any, group: list[_Ask]) -> None:
    obs, seeds = [a.obs for a in group], [a.seed for a in group]
    if _builds_prompts(learner):
        given = [_next_prompt(learner, a) for a in group]
        completions = learner.complete(obs, seeds=seeds, prompt_ids=given)
    else:
        given = [None] * len(group)
        completions = learner.complete(obs, seeds=seeds)
    if len(completions) != len(group):
        raise ValueError(f"the learner returned {len(completions)} completions for {len(group)} observations")
    for a, c, ids in zip(group, completions, given):
        if c.prompt_ids is None or c.completion_ids is None or c.logprobs is None:
            raise ValueError("the learner's completions carry no token ids: build it with "
                             "HFPolicy.from_model(model, tokenizer, ...), HFPolicy(..., record_tokens=True), or "
                             "APIPolicy(..., record_tokens=True) against a server that returns token ids and "
                             "logprobs (vLLM 0.10.2 and later, SGLang)")
        if ids is not None and list(c.prompt_ids) != ids:
            raise ValueError("the learner generated from other prompt tokens than the ones it was given")
        # the env gets the whole answer as generated (reasoning spans and surrounding
        # whitespace included): it parses it by its own rules and keeps it verbatim in the
        # seat's context, so the next prompt holds exactly the sampled text
        sent = c.raw if c.raw is not None else c.text
        env = a.play.env
        env.step(sent)
        a.play.steps += 1
        events = list(env.infos[a.agent].get("events") or [])
        conv = a.obs.get("conversation") if isinstance(a.obs, Mapping) else None
        a.play.turns[a.agent].append(Turn(
            prompt_ids=list(c.prompt_ids), completion_ids=list(c.completion_ids), logprobs=list(c.logprobs),
            text=sent, valid=not any(is_error_event(e) for e in events), events=events,
            context=[dict(m) for m in conv] if conv is not None else [],
            prompt_built="rendered" if ids is None else "extended"))


def _fixed_answers(policy: Any, group: list[_Ask]) -> list[Any]:
    if takes_seeds(policy):
        actions = list(policy.act_batch([a.obs for a in group], seeds=[a.seed for a in group]))
        if len(actions) != len(group):
            raise ValueError(f"act_batch returned {len(actions)} actions for {len(group)} observations")
        return actions
    return [policy.act(a.obs) for a in group]


def _joint_efficiency(env: Any) -> float | None:
    """The mean per-round joint efficiency of a game that reports one per round
    (``round_outcome(i)["efficiency"]``); None otherwise or before any round ended."""
    g = getattr(env.unwrapped, "game", None)
    outcome, history = getattr(g, "round_outcome", None), getattr(g, "history", None)
    if not callable(outcome) or not isinstance(history, list) or not history:
        return None
    effs = [outcome(i).get("efficiency") for i in range(len(history))]
    if any(not isinstance(x, (int, float)) for x in effs):
        return None
    return sum(effs) / len(effs)


def _episodes(p: _Play, game: str, config: dict[str, Any]) -> list[Episode]:
    efficiency = _joint_efficiency(p.env)
    out = []
    for agent, turns in p.turns.items():
        if p.truncated and agent != p.cut_at:  # what accrued since the agent's last visit
            p.credit(agent, p.env.unwrapped._cumulative_rewards.get(agent, 0.0))
        total = p.pre[agent] + sum(t.reward for t in turns)
        out.append(Episode(game=game, config=dict(config), seat=agent, seed=p.seed, repeat=p.repeat, turns=turns,
                           game_return=total, truncated=p.truncated, joint_efficiency=efficiency))
    return out
