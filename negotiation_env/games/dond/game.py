"""Deal or No Deal (Lewis et al., 2017) as a :class:`~negotiation_env.core.chat.ChatGame`.

Two agents (``agent_0``, ``agent_1``) divide a pool of books, hats and balls
(:mod:`.rules`); each knows only its own values. They take turns, ``agent_0`` first. On
its turn an agent sends a message and makes one move (:mod:`.parser`):

* ``propose`` a split (how many of each item it keeps; the partner gets the rest): the
  proposal goes on the table, replacing any earlier one;
* ``accept`` the partner's proposal on the table: the game ends with that split, and each
  agent is paid its value of its share;
* ``walk_away`` (where ``walk_away=True``, the default): the game ends without a deal.

After ``max_turns`` turns in all (both agents' turns counted; OpenSpiel's default 10)
without an accepted proposal the game ends without a deal, as OpenSpiel's
``bargaining`` does: a proposal made on the last turn cannot be accepted. No deal pays
both agents 0. Rewards are paid once, when the game ends.

**Invalid answers.** An answer that cannot be read, or a move the state does not allow
(a count above the pool, accepting when the partner's proposal is not on the table,
walking away where it is not allowed), records a ``validation_error`` event; the agent
is told the parser's message and asked again, up to ``max_retries`` times. Then the turn
passes without a move (an ``action_fallback`` event): the proposal on the table stays,
and the turn counts.

**Observation and info** (the conventions of every game): the observation has
``prompt``, ``conversation``, ``features`` (:mod:`.features`), ``active`` and
``answer_format`` (:mod:`.answer_schema`). The info has ``round`` (1: a negotiation is
one round), ``phase`` (``negotiate``, ``done``), ``turn``, ``turns_left``, ``events``,
``last_turn`` (the agent's latest accepted answer: its move, message, reasoning and raw
text) and ``last_round`` (None until the game ends, then the outcome: the split, both
rewards (``rewards``), the frontier figures of :mod:`.rules`, and both agents' values, for analysis).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces

from ...core.answers import ANSWER_CHARS, REFUSED_ANSWER_CHARS, cut
from ...core.chat import ChatGame, Seat
from ...core.config import ConfigError, check_bool, check_int
from ...core.game import NO_REWARDS
from ...core.memo import Memo, action_key
from ...core.spaces import OBS_TEXT_MAX, action_text, chat_observation_space, obs_text, quoted_line, sanitize
from . import answer_schema, prompts
from .features import LAYOUT, PHASES
from .parser import MOVES, IllegalMove, Move, ParseError, Parsed, legality, parse_structured, parse_text
from .rules import ITEMS, POOL_MAX, Instance, InstanceError, generate, is_pareto_optimal, max_joint, \
    max_nash_product, payoffs, rest, value_of

__all__ = ["DondConfig", "DondGame", "AGENTS", "END_REASONS"]

AGENTS = ("agent_0", "agent_1")
#: why a game ended
END_REASONS = ("agreement", "walk_away", "turn_limit")

# the feature vector's slots (features.LAYOUT), resolved once
_PHASE_AT = {p: LAYOUT.slice("phase").start + k for k, p in enumerate(PHASES)}
_ACTIVE_AT, _TURN_AT, _TURNS_LEFT_AT, _RETRIES_AT, _FIRST_AT, _WALK_AWAY_AT, _OFFER_AT, _OFFER_VALUE_AT, \
    _OWN_OFFER_AT, _PROPOSALS_AT = (LAYOUT.slice(name).start for name in (
        "active", "turn", "turns_left", "retries", "first", "walk_away", "offer", "offer_value", "own_offer",
        "proposals"))
_POOL, _VALUES, _OFFER_ITEMS, _OWN_OFFER_ITEMS = (LAYOUT.slice(name) for name in (
    "pool", "values", "offer_items", "own_offer_items"))


@dataclass(frozen=True)
class DondConfig:
    """Configuration of Deal or No Deal; every field is checked when the env is built.

    max_turns: turns in all, both agents' counted (OpenSpiel's ``max_turns``, default
        10); a game without an accepted proposal by then ends with no deal.
    walk_away: whether an agent may end the game at once without a deal (``walk_away``
        move); off, the only way to no deal is the turn limit.
    instance: a fixed instance in OpenSpiel's text form, ``"pool v0 v1"`` (e.g.
        ``"1,2,3 8,1,0 4,0,2"``: 1 book, 2 hats, 3 balls; agent_0's and agent_1's values
        per item), checked against the generator's rules; None (the default) draws a new
        one from the reset seed for every game.
    max_retries: how often an agent is asked again after an answer the game refuses,
        before its turn passes without a move.
    max_message_chars: messages longer than this are cut (an ``output_truncated``
        event); also the cap the answer format gives a message.
    """

    max_turns: int = 10
    walk_away: bool = True
    instance: str | None = None
    max_retries: int = 1
    max_message_chars: int = 1000

    def __post_init__(self):
        check_int("max_turns", self.max_turns, 1, 1000)
        check_bool("walk_away", self.walk_away)
        if self.instance is not None:
            try:
                Instance.from_text(self.instance)
            except InstanceError as e:
                raise ConfigError(f"config field 'instance': {e}") from None
        check_int("max_retries", self.max_retries, 0, 100)
        check_int("max_message_chars", self.max_message_chars, 1, 100_000)


@dataclass
class _AgentState(Seat):
    #: turns of this agent that passed without a move (every retry refused)
    fallbacks: int = 0


def _move_key(action: Any) -> tuple | None:
    """The content key of a structured move: :func:`~negotiation_env.core.memo.action_key`,
    which names flat actions only, with a ``take`` given as a mapping of counts (as the
    scripted players send it) keyed too: ``("take mapping", key of the move with None for
    its take, key of the take)``, a form no flat key has (a flat key's first element is a
    tuple). None: no key (the game then does the work every time)."""
    if type(action) is dict:
        take = action.get("take")
        if type(take) is dict:
            inner = action_key(take)
            if inner is None:
                return None
            outer = action_key({**action, "take": None})  # take's place in the key order kept
            return None if outer is None else ("take mapping", outer, inner)
    return action_key(action)


class DondGame(ChatGame):
    metadata = {"name": "dond_v0", "is_parallelizable": True}
    possible_agents = AGENTS

    def __init__(self, config: DondConfig):
        super().__init__()
        self.config = config
        self._fixed = None if config.instance is None else Instance.from_text(config.instance)
        self._obs_space = chat_observation_space(LAYOUT.space(), answer_format=obs_text(OBS_TEXT_MAX))
        self._act_space = spaces.Dict({
            "message": action_text(config.max_message_chars),
            "action": spaces.Discrete(len(MOVES)),
            "take": spaces.MultiDiscrete([POOL_MAX + 1] * len(ITEMS)),
        })
        self.instance: Instance | None = None
        # kept for the game object's life, keyed by everything they are made from besides
        # the config (the config is the object's own):
        #: the answer spec's JSON by (pool, whether the partner's proposal is on the table)
        self._specs: dict[tuple[tuple[int, int, int], bool], str] = {}
        #: by a structured action's content as sent (:func:`_move_key`), what is made from
        #: it and nothing else: the action with surrogates replaced and its event fields
        #: (:meth:`_encodable_parts`), and its move as parsed (the description is ChatGame's)
        self._encoded = Memo()
        self._parsed = Memo()
        self._clear()

    def _clear(self) -> None:
        """Every part of a game's state, empty (reset() fills it)."""
        self.turn = 0  # turns taken
        self.current = AGENTS[0]
        #: the proposal on the table: (proposer, what the proposer keeps), or None
        self.table: tuple[str, tuple[int, int, int]] | None = None
        #: what the partner of the proposer would get from the table (set with ``table``)
        self._table_rest: tuple[int, int, int] | None = None
        self.proposals = 0
        self.outcome: dict[str, Any] | None = None
        self.dialogue: list[dict[str, Any]] = []
        self._start_record()
        self._states: dict[str, _AgentState] = {}
        # what the game's instance fixes, made at reset: info's "pool" and each agent's
        # "values" (infos are read-only), and each agent's feature entries
        self._pool_items: dict[str, int] = {}
        self._value_items: dict[str, dict[str, int]] = {}
        self._feature_base: dict[str, np.ndarray] = {}

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    @staticmethod
    def other(agent: str) -> str:
        return AGENTS[1] if agent == AGENTS[0] else AGENTS[0]

    @staticmethod
    def index(agent: str) -> int:
        return AGENTS.index(agent)

    # ----------------------------------------------------------------- lifecycle

    def reset(self, rng: np.random.Generator) -> None:
        """A new negotiation: the config's instance, or one drawn from ``rng``."""
        self._clear()
        inst = self.instance = self._fixed if self._fixed is not None else generate(rng)
        cfg = self.config
        self._states = {
            a: _AgentState(conversation=[{"role": "system", "content": self._text(
                ("system", inst.pool, inst.values[i], i == 0),
                lambda i=i: prompts.render_system(inst.pool, inst.values[i], first=i == 0, max_turns=cfg.max_turns,
                                                  walk_away=cfg.walk_away))}])
            for i, a in enumerate(AGENTS)
        }
        self.transcript.append(f"=== dond: pool {prompts.bundle_text(inst.pool)} · values agent_0 "
                               f"{inst.values[0]}, agent_1 {inst.values[1]} · {cfg.max_turns} turns ===")
        self._pool_items = dict(zip(ITEMS, inst.pool))
        self._value_items = {a: dict(zip(ITEMS, inst.values[i])) for i, a in enumerate(AGENTS)}
        self._feature_base = {a: self._static_features(i) for i, a in enumerate(AGENTS)}
        self._say_turn(self.current, None)

    @property
    def done(self) -> bool:
        return self.outcome is not None

    def acting(self) -> tuple[str, ...]:
        return () if self.outcome is not None else (self.current,)

    @property
    def phase(self) -> str:
        return PHASES[1] if self.outcome is not None else PHASES[0]

    @property
    def turns_left(self) -> int:
        return 0 if self.outcome is not None else self.config.max_turns - self.turn

    def offer_for(self, agent: str) -> tuple[int, int, int] | None:
        """What ``agent`` would get from the partner's proposal on the table (None: none)."""
        if self.table is None or self.table[0] == agent:
            return None
        return self._table_rest

    def own_offer(self, agent: str) -> tuple[int, int, int] | None:
        """What ``agent`` keeps under its own proposal on the table (None: none)."""
        return self.table[1] if self.table is not None and self.table[0] == agent else None

    # ----------------------------------------------------------------- text plumbing

    def _say_turn(self, agent: str, partner: tuple[str, str, Any] | None) -> None:
        """Queue ``agent``'s turn prompt (``partner``: the partner's message, move and take
        just before, None at the first turn)."""
        pool = self.instance.pool
        offer, own, left = self.offer_for(agent), self.own_offer(agent), self.turns_left
        value = None if offer is None else value_of(self.instance.values[self.index(agent)], offer)
        self._say_kept(agent, ("turn", pool, partner, offer, value, own, left),
                       lambda: prompts.render_turn(pool=pool, partner=partner, offer=offer, offer_value=value,
                                                   own_offer=own, turns_left=left))

    def _event_place(self) -> dict[str, Any]:
        return {"round": 1, "turn": self.turn + 1, "phase": self.phase}

    # ----------------------------------------------------------------- step

    def _read(self, agent: str, action: Any, key: tuple | None = None) -> Parsed:
        """The answer's move, legal now; :class:`ParseError` otherwise. ``key``: the
        structured action's :func:`_move_key` (None: not kept)."""
        if isinstance(action, str):
            parsed = parse_text(action)
        elif key is None:
            parsed = parse_structured(action)
        else:
            parsed = self._parsed.get_or(key, lambda: parse_structured(action))
        problem = legality(parsed.move, self.instance.pool, offer=self.offer_for(agent) is not None,
                           walk_away=self.config.walk_away)
        if problem:
            raise IllegalMove(problem)
        return parsed

    def check_answer(self, agent: str, action: Any) -> str | None:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        try:
            self._read(agent, self._encodable_parts(action)[0])
        except ParseError as e:
            return str(e)
        return None

    def step(self, agent: str, action: Any) -> Mapping[str, float]:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        self._begin_step(agent)
        text = isinstance(action, str)
        key = None if text else _move_key(action)
        # no surrogate reaches a prompt, event or trace
        if key is None:
            action = self._encodable(agent, action)
        else:
            action, fields = self._encoded.get_or(key, lambda: self._encodable_parts(action))
            if fields is not None:
                self._event(agent, "answer_unencodable", **fields)
        raw = action if text else self._describe(action, key)
        try:
            parsed = self._read(agent, action, key)
        except ParseError as e:
            return self._invalid(agent, action, self._kept(agent, raw, REFUSED_ANSWER_CHARS), str(e))
        raw = self._kept(agent, raw, ANSWER_CHARS)
        move = parsed.move
        if len(move.message) > self.config.max_message_chars:
            self._event(agent, "output_truncated", field="message", length=len(move.message),
                        limit=self.config.max_message_chars)
            move = Move(move.action, move.take, move.message[: self.config.max_message_chars])
        for w in parsed.warnings:
            self._event(agent, "output_format_warning", message=w, text=raw)
        self._states[agent].retries = 0
        # the agent's history keeps a text answer as sent (a model reads back what it
        # generated); a structured one as the move read from it (a Move is its own content key)
        self._commit(agent, cut(action, ANSWER_CHARS)[0] if text
                     else sanitize(self._describe(move.as_dict(), ("move", move))))
        thinking = None if parsed.thinking is None else cut(parsed.thinking, ANSWER_CHARS)[0]
        return self._apply(agent, move, raw, False, thinking)

    def _invalid(self, agent: str, action: Any, raw: str, error: str) -> Mapping[str, float]:
        st = self._states[agent]
        st.retries += 1
        self._event(agent, "validation_error", message=error, text=raw, attempt=st.retries)
        self.transcript.append(f"[invalid] {agent}: {error}")
        # a text answer as sent (a model reads back what it generated), up to the bound of a refused one
        self._commit(agent, raw if isinstance(action, str) else sanitize(raw))
        if st.retries <= self.config.max_retries:
            self._say(agent, prompts.INVALID.format(error=error))
            return NO_REWARDS
        st.retries = 0
        st.fallbacks += 1
        self._event(agent, "action_fallback", value="none",
                    message=f"{agent}'s turn passed without a move ({error})")
        return self._apply(agent, Move("none"), raw, True, None)

    def _apply(self, agent: str, move: Move, raw: str, fallback: bool, thinking: str | None) -> Mapping[str, float]:
        """Play ``move`` (``"none"``: the turn passes) and move the game on."""
        self.turn += 1
        entry = {"turn": self.turn, "agent": agent, "action": move.action, "message": move.message,
                 "take": None if move.take is None else dict(zip(ITEMS, move.take)), "fallback": fallback}
        self.dialogue.append(entry)
        self._states[agent].last_turn = {**entry, "thinking": thinking, "raw": raw}
        said = f" says {quoted_line(move.message)} and" if move.message else ""
        what = (f"proposes to keep {prompts.bundle_text(move.take)}" if move.take is not None
                else {"accept": "accepts", "walk_away": "walks away"}.get(move.action, "makes no valid move"))
        self.transcript.append(f"turn {self.turn}: {agent}{said} {what}" + (" [fallback]" if fallback else ""))
        if move.action in ("accept", "walk_away"):  # the partner reads the move that ended the game
            self._say(self.other(agent), prompts.render_partner(move.message, move.action, None, self.instance.pool))
        if move.action == "accept":
            proposer, keep = self.table  # type: ignore[misc]
            take0 = keep if proposer == AGENTS[0] else self._table_rest
            return self._end("agreement", take0)
        if move.action == "walk_away":
            return self._end("walk_away", None)
        if move.action == "propose":
            self.table = (agent, move.take)  # type: ignore[assignment]
            self._table_rest = rest(self.instance.pool, move.take)  # type: ignore[arg-type]
            self.proposals += 1
        if self.turn >= self.config.max_turns:
            return self._end("turn_limit", None)
        self.current = nxt = self.other(agent)
        self._say_turn(nxt, (move.message, move.action, move.take))
        return NO_REWARDS

    def _end(self, reason: str, take0: tuple[int, int, int] | None) -> dict[str, float]:
        inst = self.instance
        deal = take0 is not None
        p0, p1 = payoffs(inst, take0) if deal else (0, 0)
        a0, a1 = AGENTS
        self.outcome = {
            "round": 1,
            "agreement": deal,
            "end_reason": reason,
            "turns": self.turn,
            "proposals": self.proposals,
            "instance": inst.to_text(),
            "pool": dict(zip(ITEMS, inst.pool)),
            "values": {a0: dict(zip(ITEMS, inst.values[0])), a1: dict(zip(ITEMS, inst.values[1]))},
            "split": None if not deal else {a0: dict(zip(ITEMS, take0)), a1: dict(zip(ITEMS, rest(inst.pool, take0)))},
            "rewards": {a0: p0, a1: p1},
            "joint": p0 + p1,
            "max_joint": max_joint(inst),
            "pareto_optimal": deal and is_pareto_optimal(inst, take0),
            "nash_product": p0 * p1,
            "max_nash_product": max_nash_product(inst),
            "fallbacks": {a: self._states[a].fallbacks for a in AGENTS},
        }
        for a in AGENTS:
            i = self.index(a)
            own = None if not deal else (take0 if i == 0 else rest(inst.pool, take0))
            self._say(a, prompts.render_result(agreement=deal, reason=reason, own=own, points=(p0, p1)[i]))
        self.transcript.append(f"=== {'deal' if deal else 'no deal'} ({reason}): agent_0 {p0}, agent_1 {p1} ===")
        return {a0: float(p0), a1: float(p1)}

    # ----------------------------------------------------------------- observation / info

    # observe() is ChatGame's: the pending prompt and the conversation, the features
    # below, ``active`` and the answer spec. What a game's instance fixes (pool, values,
    # first mover, walk_away) is laid into each agent's feature base at reset; the spec's
    # JSON is kept per (pool, offer on the table) for the object's life.

    def _answer_format(self, agent: str, acting: bool) -> str:
        if not acting:
            return ""
        key = (self.instance.pool, self.offer_for(agent) is not None)
        spec = self._specs.get(key)
        if spec is None:
            spec = self._specs[key] = json.dumps(answer_schema.spec(
                key[0], offer=key[1], walk_away=self.config.walk_away,
                max_message_chars=self.config.max_message_chars))
        return spec

    def _static_features(self, i: int) -> np.ndarray:
        """The feature entries the instance and config fix for agent ``i`` (the rest 0)."""
        v = LAYOUT.empty()
        v[_FIRST_AT] = float(i == 0)
        v[_WALK_AWAY_AT] = float(self.config.walk_away)
        v[_POOL] = self.instance.pool
        v[_VALUES] = self.instance.values[i]
        return v

    def features(self, agent: str, acting: bool | None = None) -> np.ndarray:
        """The agent's feature vector (:mod:`.features`); ``acting``: whether it acts now
        (None: asked of the game)."""
        v = self._feature_base[agent].copy()
        v[_PHASE_AT[self.phase]] = 1
        v[_ACTIVE_AT] = float(agent in self.acting() if acting is None else acting)
        v[_TURN_AT] = self.turn
        v[_TURNS_LEFT_AT] = self.turns_left
        v[_RETRIES_AT] = self._states[agent].retries
        offer, own = self.offer_for(agent), self.own_offer(agent)
        if offer is not None:
            v[_OFFER_AT] = 1
            v[_OFFER_ITEMS] = offer
            v[_OFFER_VALUE_AT] = value_of(self.instance.values[self.index(agent)], offer)
        if own is not None:
            v[_OWN_OFFER_AT] = 1
            v[_OWN_OFFER_ITEMS] = own
        v[_PROPOSALS_AT] = self.proposals
        return v

    _features = features

    def info(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        return {
            "round": 1,
            "phase": self.phase,
            "turn": min(self.turn + 1, self.config.max_turns) if self.outcome is None else self.turn,
            "turns_left": self.turns_left,
            "pool": self._pool_items,
            "values": self._value_items[agent],
            "events": list(self.agent_events[agent]),
            "last_turn": st.last_turn,
            "last_round": self.outcome,
        }
