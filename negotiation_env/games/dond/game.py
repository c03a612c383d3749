"""Deal or No Deal (Lewis et al., 2017) as a :class:`~negotiation_env.core.game.Game`.

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
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces

from ...core.answers import ANSWER_CHARS, REFUSED_ANSWER_CHARS, cut
from ...core.config import ConfigError, check_bool, check_int
from ...core.game import NO_REWARDS, Game
from ...core.spaces import OBS_TEXT_MAX, action_text, chat_observation_space, obs_text, quoted_line, sanitize, \
    terminal_line
from ...core.thinking import STRICT, strip_think
from . import answer_schema, prompts
from .features import LAYOUT, PHASES
from .parser import MOVES, IllegalMove, Move, ParseError, Parsed, legality, parse_structured, parse_text
from .rules import ITEMS, POOL_MAX, Instance, InstanceError, frontier, generate, max_joint, max_nash_product, \
    payoffs, rest, value_of

__all__ = ["DondConfig", "DondGame", "AGENTS", "END_REASONS"]

AGENTS = ("agent_0", "agent_1")
#: why a game ended
END_REASONS = ("agreement", "walk_away", "turn_limit")


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
class _AgentState:
    conversation: list[dict[str, str]]
    pending: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    last_turn: dict[str, Any] | None = None
    retries: int = 0
    fallbacks: int = 0


class DondGame(Game):
    metadata = {"name": "dond_v0", "is_parallelizable": True}
    possible_agents = AGENTS

    def __init__(self, config: DondConfig):
        self.config = config
        self._fixed = None if config.instance is None else Instance.from_text(config.instance)
        self._obs_space = chat_observation_space(LAYOUT.space(), answer_format=obs_text(OBS_TEXT_MAX))
        self._act_space = spaces.Dict({
            "message": action_text(config.max_message_chars),
            "action": spaces.Discrete(len(MOVES)),
            "take": spaces.MultiDiscrete([POOL_MAX + 1] * len(ITEMS)),
        })
        self.instance: Instance | None = None
        self._clear()

    def _clear(self) -> None:
        """Every part of a game's state, empty (reset() fills it)."""
        self.turn = 0  # turns taken
        self.current = AGENTS[0]
        #: the proposal on the table: (proposer, what the proposer keeps), or None
        self.table: tuple[str, tuple[int, int, int]] | None = None
        self.proposals = 0
        self.outcome: dict[str, Any] | None = None
        self.dialogue: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.transcript: list[str] = []
        self._states: dict[str, _AgentState] = {}

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
            a: _AgentState(conversation=[{"role": "system", "content": sanitize(prompts.render_system(
                inst.pool, inst.values[i], first=i == 0, max_turns=cfg.max_turns, walk_away=cfg.walk_away))}])
            for i, a in enumerate(AGENTS)
        }
        self.transcript = [f"=== dond: pool {prompts.bundle_text(inst.pool)} · values agent_0 "
                           f"{inst.values[0]}, agent_1 {inst.values[1]} · {cfg.max_turns} turns ==="]
        self._say(self.current, self._turn_prompt(self.current, None))

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
        return rest(self.instance.pool, self.table[1])

    def own_offer(self, agent: str) -> tuple[int, int, int] | None:
        """What ``agent`` keeps under its own proposal on the table (None: none)."""
        return self.table[1] if self.table is not None and self.table[0] == agent else None

    # ----------------------------------------------------------------- text plumbing

    def _say(self, agent: str, text: str) -> None:
        """Queue env text for the agent; it becomes one user message at its next answer."""
        self._states[agent].pending.append(sanitize(text))

    def _turn_prompt(self, agent: str, partner: tuple[str, str, Any] | None) -> str:
        offer = self.offer_for(agent)
        return prompts.render_turn(
            pool=self.instance.pool, partner=partner, offer=offer,
            offer_value=None if offer is None else value_of(self.instance.values[self.index(agent)], offer),
            own_offer=self.own_offer(agent), turns_left=self.turns_left)

    def _commit(self, agent: str, content: str) -> None:
        """Commit the pending prompt and the agent's answer (``content``) to its conversation."""
        st = self._states[agent]
        if st.pending:
            st.conversation.append({"role": "user", "content": "\n\n".join(st.pending)})
            st.pending = []
        st.conversation.append({"role": "assistant", "content": sanitize(content)})

    def conversation(self, agent: str) -> list[dict[str, str]]:
        """The agent's whole context as the env holds it, its pending prompt last."""
        st = self._states[agent]
        conv = list(st.conversation)
        if st.pending:
            conv.append({"role": "user", "content": "\n\n".join(st.pending)})
        return conv

    def _event(self, agent: str, kind: str, **fields: Any) -> None:
        ev = {"type": kind, "agent": agent, "round": 1, "turn": self.turn + 1, "phase": self.phase, **fields}
        self._states[agent].events.append(ev)
        self.events.append(ev)

    # ----------------------------------------------------------------- step

    def _read(self, agent: str, action: Any) -> Parsed:
        """The answer's move, legal now; :class:`ParseError` otherwise."""
        parsed = parse_text(action) if isinstance(action, str) else parse_structured(action)
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
        st = self._states[agent]
        st.events = []
        action = self._encodable(agent, action)  # no surrogate reaches a prompt, event or trace
        raw = action if isinstance(action, str) else _describe(action)
        try:
            parsed = self._read(agent, action)
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
        st.retries = 0
        answer = strip_think(action, STRICT).strip() if isinstance(action, str) else _describe(move.as_dict())
        self._commit(agent, cut(answer, ANSWER_CHARS)[0])
        thinking = None if parsed.thinking is None else cut(parsed.thinking, ANSWER_CHARS)[0]
        return self._apply(agent, move, raw, False, thinking)

    def _invalid(self, agent: str, action: Any, raw: str, error: str) -> Mapping[str, float]:
        st = self._states[agent]
        st.retries += 1
        self._event(agent, "validation_error", message=error, text=raw, attempt=st.retries)
        self.transcript.append(f"[invalid] {agent}: {error}")
        self._commit(agent, strip_think(action, STRICT).strip() if isinstance(action, str) else raw)
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
            take0 = keep if proposer == AGENTS[0] else rest(self.instance.pool, keep)
            return self._end("agreement", take0)
        if move.action == "walk_away":
            return self._end("walk_away", None)
        if move.action == "propose":
            self.table = (agent, move.take)  # type: ignore[assignment]
            self.proposals += 1
        if self.turn >= self.config.max_turns:
            return self._end("turn_limit", None)
        self.current = nxt = self.other(agent)
        self._say(nxt, self._turn_prompt(nxt, (move.message, move.action, move.take)))
        return NO_REWARDS

    def _end(self, reason: str, take0: tuple[int, int, int] | None) -> dict[str, float]:
        inst = self.instance
        deal = take0 is not None
        p0, p1 = payoffs(inst, take0) if deal else (0, 0)
        best = frontier(inst)
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
            "pareto_optimal": deal and any(q == (p0, p1) for _, q in best),
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

    def observe(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        acting = agent in self.acting()
        conv = list(st.conversation)
        prompt = ""
        if st.pending:
            prompt = "\n\n".join(st.pending)
            conv.append({"role": "user", "content": prompt})
        return {
            "prompt": prompt,
            "conversation": tuple(conv),
            "features": self.features(agent),
            "active": int(acting),
            "answer_format": self._answer_spec(agent) if acting else "",
        }

    def _answer_spec(self, agent: str) -> str:
        return json.dumps(answer_schema.spec(self.instance.pool, offer=self.offer_for(agent) is not None,
                                             walk_away=self.config.walk_away,
                                             max_message_chars=self.config.max_message_chars))

    def features(self, agent: str) -> np.ndarray:
        L, inst, i = LAYOUT, self.instance, self.index(agent)
        v = L.empty()
        v[L.slice("phase")][PHASES.index(self.phase)] = 1
        v[L.slice("active")] = float(agent in self.acting())
        v[L.slice("turn")] = self.turn
        v[L.slice("turns_left")] = self.turns_left
        v[L.slice("retries")] = self._states[agent].retries
        v[L.slice("first")] = float(i == 0)
        v[L.slice("walk_away")] = float(self.config.walk_away)
        v[L.slice("pool")] = inst.pool
        v[L.slice("values")] = inst.values[i]
        offer, own = self.offer_for(agent), self.own_offer(agent)
        if offer is not None:
            v[L.slice("offer")] = 1
            v[L.slice("offer_items")] = offer
            v[L.slice("offer_value")] = value_of(inst.values[i], offer)
        if own is not None:
            v[L.slice("own_offer")] = 1
            v[L.slice("own_offer_items")] = own
        v[L.slice("proposals")] = self.proposals
        return v

    def info(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        inst = self.instance
        return {
            "round": 1,
            "phase": self.phase,
            "turn": min(self.turn + 1, self.config.max_turns) if self.outcome is None else self.turn,
            "turns_left": self.turns_left,
            "pool": dict(zip(ITEMS, inst.pool)),
            "values": dict(zip(ITEMS, inst.values[self.index(agent)])),
            "events": list(st.events),
            "last_turn": st.last_turn,
            "last_round": self.outcome,
        }

    def render_text(self) -> str:
        # one transcript entry, one line, nothing a terminal acts on (agent text is quoted
        # where it enters; error messages may still hold what an agent sent)
        return "\n".join(map(terminal_line, self.transcript))


def _describe(action: Any) -> str:
    """A printable form of a structured action, for the conversation, events and traces."""
    try:
        return json.dumps(action, default=lambda o: o.tolist() if hasattr(o, "tolist") else repr(o), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(action)
