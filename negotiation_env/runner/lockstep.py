"""Playing many games in lock-step, so that model calls are batched across games.

``play_lockstep(specs, batch_games=N)`` keeps up to ``N`` games open. Each round of the
loop advances every open game to its next decision (applying the standard AEC loop's
``step(None)`` for finished agents and the step cap exactly as
:func:`~.engine.play_game` does) of a model-backed policy, playing the turns of scripted
and ``python:`` policies on the way, then answers all pending decisions with **one
``act_batch`` call per policy object** (a model-backed policy is shared by every game of
the process, so its turns in all open games form one batch), then applies each answer
to its game. A game that ends gives its slot to the next planned game in the same
round, so every batch is full until the plan runs out and never waits on a scripted
turn (the round is :class:`~.slots.Slots`, shared with
:func:`negotiation_env.online.rollouts`).

The traces are the ones ``play_game`` writes, game by game: the same recorder, the same
loop, and per game the same policy seeds. A policy whose ``act_batch`` takes ``seeds``
gets each game's own seed sequence (``call_seed(seed, i)`` for the game's ``i``-th
call of that policy, the seed being the one ``reset`` gave it for that game); its
usage and reasoning are read per item from ``last_batch_usage`` /
``last_batch_reasoning`` and handed to that game's recorder through a per-game seat,
so no game sees another game's token counts. Policies without per-item usage but with
``last_usage`` are asked one observation at a time; scripted policies (one object per
game) simply ``act``. For deterministic policies (scripted, greedy decoding) every
game's trace therefore equals ``play_game``'s apart from timestamps; with sampling each
game keeps its own seeds, so only floating-point effects of batching can differ.

Errors stay per game: a batch call that raises is retried item by item, and the game
whose item raises is closed as ``"error"`` like ``play_game`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from ..core.policy import call_seed
from ..traces.recorder import TraceRecorder
from .playing import error_trace, open_game, step_cap_reason
from .plan import GameSpec
from .policies import HEAVY_KINDS
from .slots import Slots, by_policy, takes_seeds

__all__ = ["play_lockstep"]


class _Seat:
    """What one game's recorder reads about the policy that acted: its usage, reasoning
    and reported events for this game's last call."""

    __slots__ = ("last_usage", "last_reasoning", "last_events")

    def __init__(self) -> None:
        self.last_usage: dict[str, Any] | None = None
        self.last_reasoning: str | None = None
        self.last_events: list | None = None


@dataclass
class _Game:
    spec: GameSpec
    rec: TraceRecorder
    policies: dict[str, Any]
    seats: dict[str, _Seat]
    turns: Iterator[str]
    streams: dict[int, list] = field(default_factory=dict)  # id(policy) -> [seed, calls]
    batched: frozenset = frozenset()  # agents whose policy is model-backed (shared, batched across games)
    steps: int = 0


@dataclass
class _Ask:
    game: _Game
    agent: str
    obs: Any


def _open(spec: GameSpec) -> _Game | dict[str, Any]:
    agents: list[str] = []
    try:
        rec, policies = open_game(spec, agents)
    except Exception as e:  # noqa: BLE001 - as play_game: the failure is the trace
        return error_trace(spec, agents, e)
    seats = {a: _Seat() for a in policies}
    # the recorder reads usage and reasoning from the seats; its policy descriptions were
    # taken from the real policies by open_game
    rec.policies = dict(seats)
    streams = {id(p): [getattr(p, "seed", None), 0] for p in policies.values()}
    batched = frozenset(a for seat, a in enumerate(policies) if spec.policies[seat].kind in HEAVY_KINDS)
    return _Game(spec=spec, rec=rec, policies=policies, seats=seats, turns=iter(rec.agent_iter()), streams=streams,
                 batched=batched)


def _finish(g: _Game, error: BaseException | None = None) -> dict[str, Any]:
    if error is not None and g.rec.recording:
        g.rec.abort(error)
    assert g.rec.last_trace is not None
    return g.rec.last_trace.to_dict()


def _advance(g: _Game) -> _Ask | None:
    """Run the AEC loop of ``g`` up to its next decision of a model-backed policy (the
    turns of scripted and ``python:`` policies, built per game, are played on the spot, so
    the batch never waits a round for them); None when the game is over. A policy's
    exception is raised."""
    for agent in g.turns:
        obs, _reward, term, trunc, _info = g.rec.last()
        if term or trunc:
            g.rec.step(None)
            continue
        if g.steps >= g.spec.max_steps:
            g.rec.truncate(step_cap_reason(g.spec))
            return None
        ask = _Ask(g, agent, obs)
        if agent in g.batched:
            return ask
        action, err = _answer(g.policies[agent], [ask])[0]
        if err is not None:
            raise err
        g.rec.step(action)
        g.steps += 1
    return None


def _record(ask: _Ask, usage: Any, reasoning: Any, events: Any = None) -> None:
    seat = ask.game.seats[ask.agent]
    seat.last_usage = usage
    seat.last_reasoning = reasoning
    seat.last_events = events


def _answer_one(policy: Any, ask: _Ask, seed: Any, seeded: bool) -> Any:
    if seeded:
        action = policy.act_batch([ask.obs], seeds=[seed])[0]
        usage = getattr(policy, "last_batch_usage", None)
        reasoning = getattr(policy, "last_batch_reasoning", None)
        _record(ask, usage[0] if usage else None, reasoning[0] if reasoning else None)
        return action
    action = policy.act(ask.obs)
    _record(ask, getattr(policy, "last_usage", None), getattr(policy, "last_reasoning", None),
            getattr(policy, "last_events", None))
    return action


def _answer(policy: Any, asks: list[_Ask]) -> list[tuple[Any, BaseException | None]]:
    """``(action, error)`` for every ask of one policy object, in order."""
    seeded = takes_seeds(policy)
    seeds = []
    for a in asks:
        stream = a.game.streams[id(policy)]
        seeds.append(call_seed(stream[0], stream[1]))
        stream[1] += 1
    # batch when each item's usage can be told apart, or when there is no usage to tell
    reports = hasattr(policy, "last_usage") or hasattr(policy, "last_reasoning")
    if seeded or (len(asks) > 1 and not reports and callable(getattr(policy, "act_batch", None))):
        try:
            obs = [a.obs for a in asks]
            actions = policy.act_batch(obs, seeds=seeds) if seeded else policy.act_batch(obs)
            if len(actions) != len(asks):
                raise ValueError(f"act_batch returned {len(actions)} actions for {len(asks)} observations")
            usage = list(getattr(policy, "last_batch_usage", None) or [None] * len(asks))
            reasoning = list(getattr(policy, "last_batch_reasoning", None) or [None] * len(asks))
            for a, u, r in zip(asks, usage, reasoning):
                _record(a, u, r)
            return [(x, None) for x in actions]
        except Exception as e:  # noqa: BLE001 - find which game's item fails, one by one below
            if len(asks) == 1:
                return [(None, e)]
    out: list[tuple[Any, BaseException | None]] = []
    for a, s in zip(asks, seeds):
        try:
            out.append((_answer_one(policy, a, s, seeded), None))
        except Exception as e:  # noqa: BLE001 - as play_game: a policy may raise anything
            out.append((None, e))
    return out


def play_lockstep(specs: Iterable[GameSpec], batch_games: int) -> Iterator[dict[str, Any]]:
    """Play ``specs`` with up to ``batch_games`` games in lock-step; yield each game's
    trace dict as soon as its round ends (completion order). Never raises for a game's
    failure: the failure is that game's trace."""
    slots: Slots[_Game | dict[str, Any], _Ask] = Slots(
        specs, batch_games, _open, lambda g: None if isinstance(g, dict) else _advance(g))
    while True:
        # advance every open game to its next model call; a game that ends gives its slot
        # to the next planned game at once, advanced in the same round (a game that could
        # not be opened is its error trace, ended at once)
        asks, ended = slots.round()
        for g, err in ended:
            yield g if isinstance(g, dict) else _finish(g, err)
        if not slots.live:
            return
        failed: dict[int, BaseException] = {}
        for policy, group in by_policy(asks, lambda a: a.game.policies[a.agent]):
            for a, (action, err) in zip(group, _answer(policy, group)):
                if err is not None:
                    failed[id(a.game)] = err
                    continue
                try:
                    a.game.rec.step(action)
                    a.game.steps += 1
                except Exception as e:  # noqa: BLE001
                    failed[id(a.game)] = e
        if failed:
            gone = [g for g in slots.live if id(g) in failed]
            for g in gone:
                yield _finish(g, failed[id(g)])
            slots.drop(gone)
