"""The repeated 2x2 game of seed 002 as a :class:`~negotiation_env.core.game.Game`.

Two agents (``agent_0``, ``agent_1``) play ``num_rounds`` rounds (10) of one symmetric
stage game (:mod:`.rules`), never told the horizon. Each agent holds one growing
conversation: the F.5 system prompt, the agent's acknowledgement of it (F.5's initial
call, config ``acknowledgement``, on by default: unscored, never shown to the partner),
then per round

* communication treatment: the messaging prompt (Round 1: "The interaction begins.",
  later: the previous round's result), its message, the counterpart's message with the
  action instruction, its action;
* no-communication treatment: the action prompt (same prefix), its action.

**Simultaneous in information (F.4).** Both messages of a round are composed from the
history through the previous round: the first one in is buffered, hidden from the
partner, and both are revealed together once the second is in. Actions are likewise
hidden until both are in, then the round is scored. The AEC env asks ``agent_0`` then
``agent_1`` (the paper's execution order); the parallel env takes both at once. Either
way nothing of a round's first message or action reaches the partner's observation
before the partner's own is in.

**Parsing and errors (F.6).** Answers are read by :mod:`.parser`. What an unreadable
answer does is ``on_error``:

* ``"end"`` (the paper): an empty message is delivered as ``"[No message sent]"``, an
  unreadable action is played as ``B``; both record a ``validation_error`` event and a
  ``message_fallback`` / ``action_fallback`` event, the round is scored, and then the
  dyad ends (``last_round["ended_by_error"]``).
* ``"continue"``: the same defaults, and the game goes on (the paper's
  all-available-transition sensitivity keeps such dyads).
* ``"retry"``: the agent is told the error and asked again, up to ``max_retries``
  times; then the default is used and the game goes on.

**Messages are shown verbatim (F.6)**, as accepted (reasoning spans removed, surrounding
whitespace stripped, cut at ``max_message_chars``, characters outside the observation
charset replaced). A message with a line break can therefore put a line into the
partner's prompt that reads like the env's own (``Round 3 complete.``, ``ACTION PHASE:
...``); the env never reads its prompts back (scores come from the parsed actions), so
only the partner's reading is at stake, and every such message is recorded as a
``message_line_break`` event (``lines``: how many lines it spans). ``message_text=
"one_line"`` is the hardened form: line breaks and control characters are escaped, so no
message can start a line of its own.

Rewards are the round's points, paid to both agents when the round resolves.
``info["last_round"]`` has the round's actions, joint outcome, points, running scores,
messages and fallbacks (what traces and :mod:`negotiation_env.analysis.matrix_metrics`
read); ``info["round"]`` and ``info["phase"]`` follow the convention of every game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces

from ...core.answers import ANSWER_CHARS, REFUSED_ANSWER_CHARS, cut
from ...core.config import ConfigError, check_bool, check_choice, check_int, check_no_effect
from ...core.chat import ChatGame, Seat
from ...core.game import NO_REWARDS
from ...core.memo import Memo, action_key
from ...core.spaces import OBS_TEXT_MAX, action_text, chat_observation_space, obs_text, quoted_line, sanitize
from . import answer_schema, prompts
from .features import FRAMINGS, LAYOUT, PHASES
from .parser import (THINK_TAGS, ParseError, Parsed, parse_action, parse_message, parse_structured, strip_think,
                     think_spans)
from .rules import STAGE_GAMES, RoundResult, StageGame, resolve, stage_game

__all__ = ["MatrixConfig", "MatrixGame", "AGENTS", "TREATMENTS", "ON_ERROR", "MESSAGE_TEXT", "FALLBACK_ACTION"]

AGENTS = ("agent_0", "agent_1")
TREATMENTS = ("communication", "none")
ON_ERROR = ("end", "continue", "retry")
MESSAGE_TEXT = ("one_line", "verbatim")
#: the action an unreadable answer becomes (F.6)
FALLBACK_ACTION = "B"
_MAX_NAME = 64
#: feature entry -> its first index (features.LAYOUT)
_FI = {name: start for name, start, _size in LAYOUT.table()}
#: where features() sets the entries that change within a round
_PHASE_AT = {p: _FI["phase"] + i for i, p in enumerate(PHASES)}
_ACTIVE_AT, _RETRIES_AT, _PARTNER_MESSAGE_AT = _FI["active"], _FI["retries"], _FI["partner_message"]
#: where _feature_base_vector writes (an action's one-hot entry by the action)
_ROUND_AT, _LAST_PAYOFF_AT, _CUMULATIVE_AT = _FI["round"], _FI["last_payoff"], _FI["cumulative"]
_PARTNER_CUMULATIVE_AT, _OWN_A_AT, _PARTNER_A_AT = _FI["partner_cumulative"], _FI["own_a_count"], _FI["partner_a_count"]
_OWN_ACTION_AT = {a: _FI["last_own_action"] + k for k, a in enumerate("AB")}
_PARTNER_ACTION_AT = {a: _FI["last_partner_action"] + k for k, a in enumerate("AB")}
#: acting() while one of the two has answered
_FIRST, _SECOND = (AGENTS[0],), (AGENTS[1],)


@dataclass(frozen=True)
class MatrixConfig:
    """Configuration of the matrix game; every field is checked when the env is built.

    stage_game: one of :data:`~.rules.STAGE_GAMES` (``prisoners_dilemma``, ``snowdrift``,
        ``stag_hunt``, ``harmony``); the prompt shows its payoff lines, never its name.
    framing: one of :data:`~.features.FRAMINGS` (the six contexts of F.5).
    treatment: ``"communication"`` (one-sentence cheap talk before each action) or ``"none"``.
    num_rounds: rounds in a dyad (10); never told to the agents.
    on_error: ``"end"`` (the paper), ``"continue"`` or ``"retry"`` (see the module docstring).
    max_retries: re-prompts per decision with ``on_error="retry"`` (a non-default value
        with another ``on_error`` is refused: it could change nothing).
    acknowledgement: the paper's initial call (on by default, F.5: "initialization
        invokes the model once with the system message"): each agent first answers the
        system prompt alone; the answer stays in its own history, unscored and unseen
        by the partner, and the replay runner keeps it. ``False`` starts at round 1.
    agent_names: the identifiers substituted for i and j (``("0", "1")``, as F.4 names
        Agent 0 and Agent 1).
    payoff_line: the sentence each payoff row is rendered as (ours; see prompts.PAYOFF_LINE).
    message_text: how a received message is shown: ``"verbatim"`` (the default, the
        paper: F.6 "a nonempty message is accepted verbatim", inserted as accepted; a
        message holding a line break can put a line of its own into the partner's
        prompt that reads like env text, recorded as a ``message_line_break`` event) or
        ``"one_line"`` (the hardened form: line breaks and control characters escaped,
        so a message can never start a line of its own and pass as env text). Only the
        communication treatment shows messages; ``"one_line"`` with ``treatment="none"``
        is warned about.
    max_message_chars: messages longer than this are cut (``output_truncated`` event)
        where they are read and shown to the partner; the agent's own history keeps its
        answer as sent.
    think_tags: how ``<think>`` reasoning is cut out of a text answer before it is read
        (parser module docstring). ``"f6"`` (the default, the paper's F.6 as written):
        complete spans, each closed by the first ``</think>`` after it, then an unclosed
        ``<think>`` suffix; a stray ``</think>`` stays in the answer as text, so
        ``A</think>`` plays A (with an ``output_format_warning``) and a message keeps the
        tag. ``"strict"`` (every other game's rule): nested spans are reasoning whole and a
        stray ``</think>`` makes all before it reasoning, so ``A</think>`` is unreadable
        and falls back to B. Use it for policies whose chat template opens the span in the
        prompt (``reasoning</think>answer``): under ``"f6"`` their reasoning is answer
        text, read for the action and shown to the partner in a message.
    """

    stage_game: str = "prisoners_dilemma"
    framing: str = "neutral"
    treatment: str = "communication"
    num_rounds: int = 10
    on_error: str = "end"
    max_retries: int = 1
    acknowledgement: bool = True
    agent_names: Any = ("0", "1")
    payoff_line: str = prompts.PAYOFF_LINE
    message_text: str = "verbatim"
    max_message_chars: int = 4000
    think_tags: str = "f6"

    def __post_init__(self):
        check_choice("stage_game", self.stage_game, STAGE_GAMES)
        check_choice("framing", self.framing, FRAMINGS)
        check_choice("treatment", self.treatment, TREATMENTS)
        check_int("num_rounds", self.num_rounds, 1, 10_000)
        check_choice("on_error", self.on_error, ON_ERROR)
        check_int("max_retries", self.max_retries, 0, 100)
        check_bool("acknowledgement", self.acknowledgement)
        object.__setattr__(self, "agent_names", _names(self.agent_names))
        try:
            prompts.check_payoff_line(self.payoff_line)
        except ValueError as e:
            raise ConfigError(f"config field 'payoff_line' {e}; got {self.payoff_line!r}") from None
        check_choice("message_text", self.message_text, MESSAGE_TEXT)
        check_int("max_message_chars", self.max_message_chars, 1, 1_000_000)
        check_choice("think_tags", self.think_tags, THINK_TAGS)
        # settings that count only in some configurations: a retry count without
        # retries is refused (nothing re-prompts); how received messages are shown is
        # warned about without talk, since one run often crosses both treatments
        check_no_effect(self, "max_retries", active=self.on_error == "retry", other="on_error",
                        counts_with="on_error='retry'", refuse=True)
        check_no_effect(self, "message_text", active=self.communication, other="treatment",
                        counts_with="treatment='communication'")

    @property
    def communication(self) -> bool:
        return self.treatment == "communication"


def _names(v: Any) -> tuple[str, str]:
    bad = ConfigError(f"config field 'agent_names' must be two distinct non-empty one-line strings of at most "
                      f"{_MAX_NAME} characters (the identifiers substituted for i and j); got {v!r}")
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise bad
    names = tuple(v)
    if len(names) != 2 or not all(isinstance(n, str) and n.strip() and len(n) <= _MAX_NAME and n.isprintable()
                                  for n in names) or names[0] == names[1]:
        raise bad
    return names  # type: ignore[return-value]


@dataclass
class _AgentState(Seat):
    cumulative: int = 0
    #: round -> index in the conversation of the round's first user message
    round_start: dict[int, int] = field(default_factory=dict)
    #: (round, phase) -> length of the conversation the latest answer of that decision
    #: replied to (its prompt last); the final attempt overwrites earlier ones
    answered: dict[tuple[int, str], int] = field(default_factory=dict)


class MatrixGame(ChatGame):
    metadata = {"name": "matrix_v1", "is_parallelizable": True}
    possible_agents = AGENTS

    def __init__(self, config: MatrixConfig):
        super().__init__()
        self.config = config
        self.stage: StageGame = stage_game(config.stage_game)
        self.communication = config.communication
        self.names = dict(zip(AGENTS, config.agent_names))
        self._system = {
            a: sanitize(prompts.render_system(self.stage, config.framing, self.communication, self.names[a],
                                              self.names[self.other(a)], config.payoff_line))
            for a in AGENTS
        }
        self._obs_space = chat_observation_space(LAYOUT.space(), answer_format=obs_text(OBS_TEXT_MAX))
        self._act_space = spaces.Dict({
            "message": action_text(config.max_message_chars),
            "action": spaces.Discrete(2),
        })
        self.phase = "done"
        self.round = 1
        self.history: list[RoundResult] = []
        self.outcomes: list[dict[str, Any]] = []
        self._submitted: dict[str, Any] = {}
        self.messages: dict[str, str] = {}
        self.decisions: dict[str, str] = {}
        self.fallbacks: dict[str, list[str]] = {}
        self.ended_by_error = False
        self._end_after_round = False
        # what observe() keeps between calls (see "observation / info" below)
        self._static_features = self._make_static_features()
        self._feature_base: dict[str, tuple[int, np.ndarray]] = {}
        self._a_counts = [0, 0]  # A actions of agent_0 and agent_1 so far (own_a_count, partner_a_count)
        self._specs: dict[str, str] = {}  # answer spec JSON by phase
        self._parsed = Memo()  # structured answers by phase and content

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    @staticmethod
    def other(agent: str) -> str:
        return AGENTS[1] if agent == AGENTS[0] else AGENTS[0]

    # ----------------------------------------------------------------- lifecycle

    def reset(self, rng: np.random.Generator) -> None:
        """A new dyad. The game draws nothing at random (the stage game and framing are
        config), so ``rng`` is unused: every dyad of a config starts the same."""
        cfg = self.config
        self.round = 1
        self.history = []
        self.outcomes = []
        self._start_record()
        self.ended_by_error = False
        self._end_after_round = False
        self._feature_base = {}
        self._a_counts = [0, 0]
        self._states = {a: _AgentState(conversation=[{"role": "system", "content": self._system[a]}]) for a in AGENTS}
        self.transcript.append(f"=== matrix: {self.stage.name} · {cfg.framing} · treatment {cfg.treatment} ===")
        if cfg.acknowledgement:
            self.phase = "acknowledge"
            self._submitted = {}
        else:
            self._start_round()

    def _start_round(self) -> None:
        self.messages = {}
        self.decisions = {}
        self.fallbacks = {AGENTS[0]: [], AGENTS[1]: []}
        self.phase = "message" if self.communication else "action"
        self._submitted = self.messages if self.communication else self.decisions
        instruction = prompts.MESSAGE_PROMPT if self.communication else prompts.ACTION_PROMPT
        for a in AGENTS:
            st = self._states[a]
            st.round_start[self.round] = len(st.conversation)
            self._say_kept(a, ("round", self._result_key(a), instruction),
                           lambda: prompts.render_round_prompt(self._previous_result(a), instruction))
        self.transcript.append(f"--- Round {self.round} ---")

    def _result_key(self, agent: str) -> tuple | None:
        """What :meth:`_previous_result` reads (None in round 1)."""
        if not self.history:
            return None
        last, i = self.history[-1], AGENTS.index(agent)
        return (last.round, self.names[self.other(agent)], last.actions[i], last.actions[1 - i], last.payoffs[i],
                self._states[agent].cumulative)

    def _previous_result(self, agent: str) -> str | None:
        if not self.history:
            return None
        last = self.history[-1]
        i = AGENTS.index(agent)
        return prompts.render_result(last.round, self.names[self.other(agent)], last.actions[i], last.actions[1 - i],
                                     last.payoffs[i], self._states[agent].cumulative)

    @property
    def done(self) -> bool:
        return self.phase == "done"

    def acting(self) -> tuple[str, ...]:
        if self.phase == "done":
            return ()
        submitted = self._submitted  # keys: agents that answered this decision
        if not submitted:
            return AGENTS
        if len(submitted) == 1:
            return _SECOND if AGENTS[0] in submitted else _FIRST
        return ()

    # ----------------------------------------------------------------- text plumbing

    def _commit(self, agent: str, answer: str) -> None:
        """Commit the pending prompt and the agent's ``answer``, noting where the answer
        stands in its history (:meth:`decision_context`)."""
        # the agent's own history keeps its answer as sent (a model reads back what it
        # generated); the partner and the transcript see the parsed, sanitized value
        super()._commit(agent, answer)
        st = self._states[agent]
        st.answered[(self.round, self.phase)] = len(st.conversation) - 1

    # ----------------------------------------------------------------- step

    def step(self, agent: str, action: Any) -> dict[str, float]:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        st = self._states[agent]
        self._begin_step(agent)
        action = self._encodable(agent, action)  # no surrogate reaches a prompt, event or trace
        key = None if isinstance(action, str) else action_key(action)
        raw = action if isinstance(action, str) else self._describe(action, key)
        if self.phase == "acknowledge":  # never parsed or scored (F.5)
            raw = self._kept(agent, raw, ANSWER_CHARS)
            text = action if isinstance(action, str) else (action.get("message") if isinstance(action, dict) else None)
            answer = strip_think(text, self.config.think_tags).strip() if isinstance(text, str) else ""
            self._commit(agent, raw if isinstance(action, str) else answer)
            st.last_turn = self._turn(answer, None, raw, False, text)
            self._submitted[agent] = answer
            if not self.acting():
                self._start_round()
            return NO_REWARDS
        try:
            parsed = self._parse(action, key)
        except ParseError as e:
            # kept bounded in events, the last turn and traces (core.answers)
            return self._invalid(agent, action, self._kept(agent, raw, REFUSED_ANSWER_CHARS), str(e))
        raw = self._kept(agent, raw, ANSWER_CHARS)
        value = parsed.value
        if self.phase == "message" and len(value) > self.config.max_message_chars:
            self._event(agent, "output_truncated", field="message", length=len(value),
                        limit=self.config.max_message_chars)
            value = value[: self.config.max_message_chars]
        for w in parsed.warnings:
            self._event(agent, "output_format_warning", message=w, text=raw)
        if self.phase == "message" and self.config.message_text == "verbatim" and "\n" in sanitize(value):
            # shown as is, a line of it may read as env text to the partner (module docstring)
            self._event(agent, "message_line_break", lines=sanitize(value).count("\n") + 1,
                        message="the message is shown verbatim over several lines; message_text='one_line' "
                                "would escape its line breaks")
        st.retries = 0
        self._commit(agent, raw if isinstance(action, str) else value)
        return self._accept(agent, value, raw, False, action)

    def check_answer(self, agent: str, action: Any) -> str | None:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        if self.phase == "acknowledge":  # any answer is taken (never parsed)
            return None
        try:
            self._parse(self._encodable_parts(action)[0])
        except ParseError as e:
            return str(e)
        return None

    def _parse(self, action: Any, key: tuple | None = None) -> Parsed:
        if isinstance(action, str):
            tags = self.config.think_tags
            return parse_message(action, tags) if self.phase == "message" else parse_action(action, tags)
        if key is None:
            return parse_structured(action, self.phase, self.config.think_tags)
        # a structured answer is parsed once per content and phase (Parsed is frozen;
        # a refused one raises and is never kept)
        return self._parsed.get_or((self.phase, key),
                                   lambda: parse_structured(action, self.phase, self.config.think_tags))

    def _invalid(self, agent: str, action: Any, raw: str, error: str) -> dict[str, float]:
        st = self._states[agent]
        st.retries += 1
        self._event(agent, "validation_error", message=error, text=raw, attempt=st.retries)
        self.transcript.append(f"[invalid] {agent}: {error}")
        cfg = self.config
        self._commit(agent, raw)  # a text answer as sent, up to the bound of a refused one
        if cfg.on_error == "retry" and st.retries <= cfg.max_retries:
            instruction = prompts.MESSAGE_PROMPT if self.phase == "message" else prompts.ACTION_PROMPT
            self._say(agent, prompts.INVALID.format(error=error, instruction=instruction))
            return NO_REWARDS
        st.retries = 0
        if self.phase == "message":
            value, kind = prompts.NO_MESSAGE, "message_fallback"
        else:
            value, kind = FALLBACK_ACTION, "action_fallback"
        self._event(agent, kind, value=value, message=f"recorded {value!r} for {agent} ({error})")
        self.fallbacks[agent].append(self.phase)
        if cfg.on_error == "end":
            self._end_after_round = True
        return self._accept(agent, value, raw, True, action)

    def _accept(self, agent: str, value: str, raw: str, fallback: bool, action: Any) -> dict[str, float]:
        st = self._states[agent]
        if self.phase == "message":
            self.messages[agent] = value
            st.last_turn = self._turn(value, None, raw, fallback, action)
            self.transcript.append(f"{agent} (buffered message): {quoted_line(value)}" + (" [fallback]" if fallback else ""))
            if not self.acting():
                self._reveal()
            return NO_REWARDS
        self.decisions[agent] = value
        st.last_turn = self._turn(None, value, raw, fallback, action)
        self.transcript.append(f"{agent} chooses (hidden): {value}" + (" [fallback]" if fallback else ""))
        if self.acting():
            return NO_REWARDS
        return self._resolve()

    def _turn(self, message: str | None, act: str | None, raw: str, fallback: bool, action: Any) -> dict[str, Any]:
        return {"round": self.round, "phase": self.phase, "message": message, "action": act, "fallback": fallback,
                "thinking": _thinking(action, self.config.think_tags) if isinstance(action, str) else None, "raw": raw}

    def _reveal(self) -> None:
        """Both messages are in: each agent now reads its partner's (F.4)."""
        for a in AGENTS:
            b = self.other(a)
            shown = self.messages[b]
            if self.config.message_text == "one_line":
                shown = prompts.one_line(shown)
            self._say_kept(a, ("received", self.names[b], shown),
                           lambda: prompts.render_action_after_message(self.names[b], shown))
        self.phase = "action"
        self._submitted = self.decisions

    def _resolve(self) -> dict[str, float]:
        # (the two seats written out: dict and list literals, same keys in the same order)
        a0, a1 = AGENTS
        s0, s1 = self._states[a0], self._states[a1]
        res = resolve(self.stage, self.round, self.decisions[a0], self.decisions[a1])
        self.history.append(res)
        (x0, x1), (p0, p1) = res.actions, res.payoffs
        self._a_counts[0] += x0 == "A"
        self._a_counts[1] += x1 == "A"
        s0.cumulative += p0
        s1.cumulative += p1
        c0, c1 = s0.cumulative, s1.cumulative
        ended = self._end_after_round and self.round < self.config.num_rounds
        self.ended_by_error = ended
        f0, f1 = self.fallbacks[a0], self.fallbacks[a1]
        messages = self.messages
        joint = x0 + x1  # res.joint
        outcome = {
            "round": self.round,
            "actions": {a0: x0, a1: x1},
            "joint": joint,
            "payoffs": {a0: p0, a1: p1},
            "cumulative": {a0: c0, a1: c1},
            "messages": {a0: messages.get(a0), a1: messages.get(a1)} if self.communication else None,
            "fallbacks": {a0: list(f0), a1: list(f1)},
            "error_agents": [a for a, f in ((a0, f0), (a1, f1)) if f],
            "ended_by_error": ended,
            "stage_game": self.stage.id,
        }
        self.outcomes.append(outcome)
        self.transcript.append(f"Result round {self.round}: {joint} · points {a0} {p0}, {a1} {p1} · totals {a0} {c0}, {a1} {c1}")
        rewards = {a0: float(p0), a1: float(p1)}
        if self.round >= self.config.num_rounds or self._end_after_round:
            self.phase = "done"
            self._submitted = {}
            for a in AGENTS:  # the final result, for the record (nobody is asked anything)
                self._say(a, self._previous_result(a) or "")
            self.transcript.append("=== Dyad ended after an error ===" if ended else "=== Game over ===")
        else:
            self.round += 1
            self._start_round()
        return rewards

    def _event_place(self) -> dict[str, Any]:
        return {"round": self.round, "phase": self.phase}

    # ----------------------------------------------------------------- observation / info

    # What an observation needs is kept between calls and rebuilt only when the state it
    # reads changes, so observe() costs the same in a game's last round as in its first,
    # but for one copy of the conversation:
    #
    # * the conversation (core.chat.ChatGame._chat_view): with a pending prompt the
    #   committed messages and the prompt are copied into a tuple once, the one cost that
    #   grows with the dyad; without one, the committed tuple is kept per agent;
    # * the feature vector: the config's entries once per game object, the round's
    #   (round, last actions and payoff, both totals, both A counts) once per resolved
    #   round, keyed by the number of resolved rounds; phase, active, retries and the
    #   partner-message flag are set on every call. The A counts are kept as rounds
    #   resolve rather than summed over the whole history at every call;
    # * the answer spec's JSON, per phase.
    #
    # reset() clears what belongs to a dyad.

    def _idle_prompt(self, agent: str, acting: bool) -> str:
        # the acknowledgement answers the system prompt alone
        return self._system[agent] if acting and self.phase == "acknowledge" else ""

    def _answer_format(self, agent: str, acting: bool) -> str:
        # the spec of the answer owed now (answer_schema); "" when the agent does not act
        return self._answer_spec() if acting else ""

    def _answer_spec(self) -> str:
        spec = self._specs.get(self.phase)
        if spec is None:
            spec = self._specs[self.phase] = json.dumps(answer_schema.spec(self.phase))
        return spec

    def features(self, agent: str, acting: bool | None = None) -> np.ndarray:
        st, n = self._states[agent], len(self.history)
        cached = self._feature_base.get(agent)
        if cached is None or cached[0] != n:
            cached = (n, self._feature_base_vector(agent))
            self._feature_base[agent] = cached
        v = cached[1].copy()
        # (the base holds 0 at these four entries: only what is not 0 is written)
        phase = self.phase
        v[_PHASE_AT[phase]] = 1
        if agent in self.acting() if acting is None else acting:
            v[_ACTIVE_AT] = 1
        if st.retries:
            v[_RETRIES_AT] = st.retries
        if phase == "action" and self.communication:
            v[_PARTNER_MESSAGE_AT] = 1
        return v

    _features = features

    def _make_static_features(self) -> np.ndarray:
        """The entries the config fixes: communication, own payoffs, framing."""
        L = LAYOUT
        v = L.empty()
        v[L.slice("communication")] = float(self.communication)
        v[L.slice("payoffs")] = self.stage.own_payoffs()
        v[L.slice("framing")][FRAMINGS.index(self.config.framing)] = 1
        return v

    def _feature_base_vector(self, agent: str) -> np.ndarray:
        """The entries only a resolved round moves (phase, active, retries and the
        partner-message flag left at 0)."""
        i = 0 if agent == AGENTS[0] else 1
        v = self._static_features.copy()
        history = self.history
        v[_ROUND_AT] = len(history)
        if history:
            last = history[-1]
            actions = last.actions
            v[_OWN_ACTION_AT[actions[i]]] = 1
            v[_PARTNER_ACTION_AT[actions[1 - i]]] = 1
            v[_LAST_PAYOFF_AT] = last.payoffs[i]
        states = self._states
        v[_CUMULATIVE_AT] = states[AGENTS[i]].cumulative
        v[_PARTNER_CUMULATIVE_AT] = states[AGENTS[1 - i]].cumulative
        v[_OWN_A_AT] = self._a_counts[i]
        v[_PARTNER_A_AT] = self._a_counts[1 - i]
        return v

    def info(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        return {
            "round": self.round,
            "phase": self.phase,
            "stage_game": self.stage.id,
            "framing": self.config.framing,
            "treatment": self.config.treatment,
            "events": list(self.agent_events[agent]),
            "last_turn": st.last_turn,
            "last_round": self.outcomes[-1] if self.outcomes else None,
            "cumulative": st.cumulative,
        }

    # ----------------------------------------------------------------- record (for replays)

    def history_before(self, agent: str, round_index: int) -> list[dict[str, str]]:
        """The agent's conversation through round ``round_index - 1`` (its answers included)."""
        starts = self._states[agent].round_start
        if round_index not in starts:
            raise ValueError(f"round {round_index} has not started; started rounds: {sorted(starts)}")
        return list(self._states[agent].conversation[: starts[round_index]])

    def decision_context(self, agent: str, round_index: int, phase: str = "action") -> list[dict[str, str]]:
        """The conversation the agent's final answer to the ``phase`` decision of round
        ``round_index`` replied to (ending with that prompt)."""
        st = self._states[agent]
        key = (round_index, phase)
        if key not in st.answered:
            raise ValueError(f"{agent} has not answered the {phase} decision of round {round_index}")
        return list(st.conversation[: st.answered[key]])


def _thinking(action: Any, think_tags: str) -> str | None:
    thinking = think_spans(action, think_tags) if isinstance(action, str) else None
    return thinking if thinking is None else cut(thinking, ANSWER_CHARS)[0]

