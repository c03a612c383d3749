"""The resource game as a :class:`~negotiation_env.core.game.Game`: the Appendix D protocol.

Per round (``num_rounds`` of them):

1. **Cheap talk.** The first speaker gets the turn-0 prompt; agents alternate, each up to
   ``cheap_talk_turns`` turns (0: unlimited, capped at ``max_talk_turns`` each so no game
   runs forever). Each turn answers ``{"thinking", "speech", "action"}``; the speech is
   delivered to the other agent inside the game's framing, the thinking never is.
2. **Early decision.** A turn whose ``action`` is a purchase is that agent's decision;
   its speech is still delivered, and the other agent then gets the decision prompt
   (one prompt, retried if it answers with a null action; it cannot keep chatting with
   an agent that has already committed).
3. **Decision phase.** When both have used their turns, both get the forced decision
   prompt (the last speaker's message is shown to the first speaker before it).
   Decisions are simultaneous and hidden: the AEC env asks the first speaker first, and
   nothing of its decision reaches the second before resolution. Speech sent with a
   decision-phase response is recorded, not delivered.
4. **Resolution.** Overdraw annuls the round; rewards are paid; both agents get the
   D.4 result notice at the top of their next prompt.

An invalid response (unparseable text, unknown resource, over budget, too many types,
runs not covered, null action when a decision is due, empty speech) is recorded in
``info["events"]`` and the same agent is asked again with the error, up to
``max_retries`` times; then a talk turn is forfeited (the other agent reads
``[No message sent]``) and a decision falls back to ``zero`` (an empty purchase) or
``heuristic`` (the agent's individual optimum).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from ...core.config import ConfigError, check_choice, check_int
from ...core.game import Game
from ...core.jsontext import ParseError
from ...core.spaces import action_text, obs_text, sanitize
from . import prompts
from .features import FeatureLayout
from .parser import Turn, parse_structured, parse_text
from .prompts import Names
from .rules import Decision, RoundOutcome, _fmt, resolve_round, validate_decision, zero_decision
from .scenario import AGENTS, Scenario, ScenarioError, load_scenario
from .solver import Solution, individual_best, solve
from .themes import THEMES, sample_theme, theme_names

__all__ = ["ResourceConfig", "ResourceGame"]

OBS_TEXT_MAX = 1_000_000
_TOL = 1e-6


@dataclass(frozen=True)
class ResourceConfig:
    """Configuration of the resource game; every field is checked when the env is built.

    scenario: a shipped scenario name, a path to a JSON file, or a :class:`Scenario`.
    theme: ``"random"`` (sampled per game from the reset seed), a theme name from
        :data:`~negotiation_env.games.resource.themes.THEMES`, or ``None`` (abstract ids).
    fallback: ``"zero"`` (empty purchase, event ``decision_auto_filled``) or
        ``"heuristic"`` (individual optimum, event ``heuristic_fallback``).
    """

    scenario: Any = "mc080_1"
    num_rounds: int = 4
    cheap_talk_turns: int = 5
    max_talk_turns: int = 20
    first_speaker: str = "agent_a"
    theme: str | None = "random"
    max_retries: int = 3
    fallback: str = "zero"
    max_message_chars: int = 4000

    def __post_init__(self):
        sc = self.scenario
        if isinstance(sc, Scenario):
            pass
        elif isinstance(sc, (str, Path)):
            try:
                sc = load_scenario(sc)
            except ScenarioError as e:
                raise ConfigError(f"config field 'scenario': {e}") from None
        elif isinstance(sc, dict):
            try:
                sc = Scenario.from_dict(sc)
            except ScenarioError as e:
                raise ConfigError(f"config field 'scenario': {e}") from None
        else:
            raise ConfigError(
                f"config field 'scenario' must be a scenario name, a path, a dict or a Scenario; got {type(sc).__name__}"
            )
        object.__setattr__(self, "scenario", sc)
        check_int("num_rounds", self.num_rounds, 1, 1000)
        check_int("cheap_talk_turns", self.cheap_talk_turns, 0, 1000)
        check_int("max_talk_turns", self.max_talk_turns, 1, 1000)
        check_choice("first_speaker", self.first_speaker, AGENTS)
        if self.theme is not None:
            check_choice("theme", self.theme, ("random",) + tuple(THEMES))
        check_int("max_retries", self.max_retries, 0, 100)
        check_choice("fallback", self.fallback, ("zero", "heuristic"))
        check_int("max_message_chars", self.max_message_chars, 1, 1_000_000)

    @property
    def turn_limit(self) -> int:
        return self.cheap_talk_turns or self.max_talk_turns


@dataclass
class _AgentState:
    conversation: list[dict[str, str]]
    pending: list[str]
    events: list[dict[str, Any]]
    last_turn: dict[str, Any] | None = None
    turns_used: int = 0
    retries: int = 0
    cumulative: float = 0.0
    last_purchase: dict[str, int] | None = None


class ResourceGame(Game):
    metadata = {"name": "resource_v0", "is_parallelizable": True}
    possible_agents = AGENTS

    def __init__(self, config: ResourceConfig):
        self.config = config
        self.scenario: Scenario = config.scenario
        self.layout = FeatureLayout(len(self.scenario.resources), max(len(self.scenario.projects_of(a)) for a in AGENTS))
        self._obs_spaces = {a: self._make_obs_space() for a in AGENTS}
        self._act_spaces = {a: self._make_action_space(a) for a in AGENTS}
        self._states: dict[str, _AgentState] = {}
        self.events: list[dict[str, Any]] = []
        self.history: list[RoundOutcome] = []
        self._done = True

    # ----------------------------------------------------------------- spaces

    def _make_obs_space(self) -> spaces.Dict:
        message = spaces.Dict({"role": obs_text(16), "content": obs_text(OBS_TEXT_MAX)})
        return spaces.Dict(
            {
                "prompt": obs_text(OBS_TEXT_MAX),
                "conversation": spaces.Sequence(message, stack=False),
                "features": self.layout.space(),
                "active": spaces.Discrete(2),
            }
        )

    def _make_action_space(self, agent: str) -> spaces.Dict:
        sc = self.scenario
        per_res = [int(math.floor(sc.budget / r.cost + 1e-9)) + 1 for r in sc.resources]
        per_proj = []
        for p in sc.projects_of(agent):
            run_cost = sum(sc.resource(rid).cost * u for rid, u in p.requires)
            per_proj.append(int(math.floor(sc.budget / run_cost + 1e-9)) + 1)
        n = self.config.max_message_chars
        return spaces.Dict(
            {
                "message": action_text(n),
                "thinking": action_text(n),
                "decide": spaces.Discrete(2),
                "purchase": spaces.MultiDiscrete(per_res),
                "runs": spaces.MultiDiscrete(per_proj),
                "auto_runs": spaces.Discrete(2),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    # ----------------------------------------------------------------- solver figures

    @cached_property
    def solution(self) -> Solution:
        return solve(self.scenario)

    # ----------------------------------------------------------------- lifecycle

    def reset(self, rng: np.random.Generator) -> None:
        cfg = self.config
        theme = cfg.theme
        if theme == "random":
            theme = sample_theme(rng)
        self.theme = theme
        self.names = Names(theme_names(theme, self.scenario.resource_ids))
        self.order = (cfg.first_speaker, next(a for a in AGENTS if a != cfg.first_speaker))
        self._states = {
            a: _AgentState(
                conversation=[{"role": "system", "content": sanitize(prompts.render_system_prompt(self.scenario, a, self.names))}],
                pending=[],
                events=[],
            )
            for a in AGENTS
        }
        self.events = []
        self.history = []
        self.history_fallbacks: list[list[str]] = []
        self.transcript: list[str] = [f"Scenario {self.scenario.name} · theme {theme or 'none'} · "
                                      f"M={_fmt(self.solution.joint_max)} M/C={self.solution.ratio:.2f}"]
        self.round = 0
        self._done = False
        self._start_round()

    def _start_round(self) -> None:
        self.phase = "talk"
        self.decided: dict[str, Decision] = {}
        self.fallbacks: dict[str, bool] = {}
        for st in self._states.values():
            st.turns_used = 0
            st.retries = 0
        self.talker = self.order[0]
        self._say(self.talker, prompts.render_turn0(self.round + 1, self.config.num_rounds, self.config.cheap_talk_turns))
        self.transcript.append(f"=== Round {self.round + 1}/{self.config.num_rounds} ===")

    @property
    def done(self) -> bool:
        return self._done

    def acting(self) -> tuple[str, ...]:
        if self._done:
            return ()
        if self.phase == "talk":
            return (self.talker,)
        return tuple(a for a in self.order if a not in self.decided)

    def other(self, agent: str) -> str:
        return AGENTS[1] if agent == AGENTS[0] else AGENTS[0]

    # ----------------------------------------------------------------- text plumbing

    def _say(self, agent: str, text: str) -> None:
        """Queue env text for the agent; it becomes one user message at its next action."""
        self._states[agent].pending.append(sanitize(text))

    def _commit(self, agent: str, response_text: str) -> None:
        st = self._states[agent]
        if st.pending:
            st.conversation.append({"role": "user", "content": "\n\n".join(st.pending)})
            st.pending = []
        st.conversation.append({"role": "assistant", "content": sanitize(response_text)})

    # ----------------------------------------------------------------- step

    def step(self, agent: str, action: Any) -> dict[str, float]:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        st = self._states[agent]
        st.events = []
        require = self.phase == "decision"
        text = action if isinstance(action, str) else None
        try:
            if text is not None:
                turn = parse_text(text, self.scenario, agent, self.names, require_decision=require)
            else:
                turn = parse_structured(action, self.scenario, agent, self.names, require_decision=require)
                text = self._turn_json(turn)
        except ParseError as e:
            raw = text if text is not None else _describe(action)
            self._commit(agent, raw)
            return self._invalid(agent, raw, str(e))
        self._commit(agent, text)
        for w in turn.warnings:
            self._event(agent, "output_format_warning", message=w, text=text)
        st.retries = 0
        return self._apply(agent, turn, text)

    def _event(self, agent: str, kind: str, **fields: Any) -> None:
        ev = {"type": kind, "agent": agent, "round": self.round + 1, "phase": self.phase, **fields}
        self._states[agent].events.append(ev)
        self.events.append(ev)

    def _invalid(self, agent: str, raw: str, error: str) -> dict[str, float]:
        st = self._states[agent]
        st.retries += 1
        self._event(agent, "validation_error", message=error, text=raw, attempt=st.retries)
        self.transcript.append(f"[invalid] {agent}: {error}")
        if st.retries <= self.config.max_retries:
            self._say(agent, prompts.render_invalid(error, self.phase))
            return self._zero_rewards()
        st.retries = 0
        if self.phase == "talk":
            self._event(agent, "talk_turn_forfeited", message=f"no valid response after {self.config.max_retries} retries")
            return self._apply(agent, Turn("", "", None), None)
        if self.config.fallback == "heuristic":
            purchase, runs = individual_best(self.scenario, agent)
            decision = validate_decision(self.scenario, agent, purchase, runs)
            self._event(agent, "heuristic_fallback", purchase=purchase, runs=runs)
        else:
            decision = zero_decision(self.scenario, agent)
            self._event(agent, "decision_auto_filled", purchase=decision.purchase_dict())
        self.fallbacks[agent] = True
        return self._apply(agent, Turn("", "", decision), None)

    def _apply(self, agent: str, turn: Turn, text: str | None) -> dict[str, float]:
        st = self._states[agent]
        other = self.other(agent)
        st.last_turn = {
            "thinking": turn.thinking,
            "speech": turn.speech,
            "decision": _decision_dict(turn.decision),
            "raw": text,
        }
        if self.phase == "talk":
            st.turns_used += 1
            if turn.speech:
                self.transcript.append(f"{agent}: {turn.speech}")
            if turn.thinking:
                self.transcript.append(f"    ({agent} thinking, private: {turn.thinking})")
            said = prompts.render_opponent_said(turn.speech)
            if turn.decision is not None:
                self._record_decision(agent, turn.decision)
                self.phase = "decision"
                self._say(other, said)
                self._say(other, prompts.render_decision_prompt(self.scenario))
                return self._zero_rewards()
            ost = self._states[other]
            if ost.turns_used < self.config.turn_limit:
                self.talker = other
                if ost.turns_used == 0:
                    self._say(other, prompts.render_turn0(self.round + 1, self.config.num_rounds, self.config.cheap_talk_turns) + "\n" + said)
                else:
                    self._say(other, said + "\n" + prompts.RESPOND_WITH_JSON)
                return self._zero_rewards()
            # both agents have used their turns: forced decision for both
            self.phase = "decision"
            self._say(other, said)
            for a in self.order:
                self._say(a, prompts.render_decision_prompt(self.scenario))
            return self._zero_rewards()
        # decision phase
        assert turn.decision is not None
        self._record_decision(agent, turn.decision)
        if len(self.decided) < len(AGENTS):
            return self._zero_rewards()
        return self._resolve()

    def _record_decision(self, agent: str, decision: Decision) -> None:
        self.decided[agent] = decision
        self.transcript.append(
            f"{agent} decides: buys {prompts.render_allocation(decision, self.names)}, runs [{prompts.render_runs(decision)}]"
        )

    def _resolve(self) -> dict[str, float]:
        outcome = resolve_round(self.scenario, self.decided)
        self.history.append(outcome)
        self.history_fallbacks.append(sorted(self.fallbacks))
        for a in AGENTS:
            st = self._states[a]
            st.cumulative += outcome.reward(a)
            st.last_purchase = outcome.decision(a).purchase_dict()
            self._say(a, prompts.render_result(outcome, a, self.names))
        self.transcript.append(
            "Result: " + ("ANNULLED (overdraw of " + ", ".join(self.names.name(r) for r in outcome.overdrawn_resources) + ")"
                          if outcome.overdraw else
                          ", ".join(f"{a} earns {_fmt(outcome.reward(a))}" for a in AGENTS))
            + f" · joint {_fmt(outcome.joint_reward)} of M={_fmt(self.solution.joint_max)}"
        )
        rewards = {a: outcome.reward(a) for a in AGENTS}
        self.round += 1
        if self.round >= self.config.num_rounds:
            self._done = True
            self.phase = "done"
            self.transcript.append(
                "=== Game over: " + ", ".join(f"{a} {_fmt(self._states[a].cumulative)}" for a in AGENTS) + " ==="
            )
        else:
            self._start_round()
        return rewards

    def _zero_rewards(self) -> dict[str, float]:
        return {a: 0.0 for a in AGENTS}

    def _turn_json(self, turn: Turn) -> str:
        """The structured action written as the Appendix D.1.4 JSON (for the conversation)."""
        action = None
        if turn.decision is not None:
            action = {self.names.name(r): q for r, q in turn.decision.purchase if q}
            if not turn.decision.auto_assigned:
                action["projects"] = turn.decision.runs_dict()
        return json.dumps({"thinking": turn.thinking, "speech": turn.speech, "action": action}, ensure_ascii=False)

    # ----------------------------------------------------------------- observation / info

    def observe(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        prompt = "\n\n".join(st.pending)
        conv = list(st.conversation)
        if st.pending:
            conv.append({"role": "user", "content": prompt})
        return {
            "prompt": prompt,
            "conversation": tuple(conv),
            "features": self._features(agent),
            "active": int(agent in self.acting()),
        }

    def _features(self, agent: str) -> np.ndarray:
        L, sc, st = self.layout, self.scenario, self._states[agent]
        v = L.empty()
        v[L.slice("phase")][("talk", "decision", "done").index(self.phase)] = 1
        v[L.slice("active")] = float(agent in self.acting())
        v[L.slice("round")] = self.round
        v[L.slice("num_rounds")] = self.config.num_rounds
        v[L.slice("turns_used")] = st.turns_used
        v[L.slice("turns_limit")] = self.config.turn_limit
        v[L.slice("retries")] = st.retries
        v[L.slice("budget")] = sc.budget
        v[L.slice("max_types")] = sc.max_types
        v[L.slice("supply")] = [r.supply for r in sc.resources]
        v[L.slice("cost")] = [r.cost for r in sc.resources]
        req = np.zeros((L.n_projects, L.n_resources), dtype=np.float32)
        mat = sc.requirement_matrix(agent)
        req[: len(mat)] = mat
        v[L.slice("requires")] = req.ravel()
        rew = np.zeros(L.n_projects, dtype=np.float32)
        rew[: len(mat)] = [p.reward for p in sc.projects_of(agent)]
        v[L.slice("reward")] = rew
        if self.history:
            last = self.history[-1]
            v[L.slice("last_own_purchase")] = [q for _, q in last.decision(agent).purchase]
            v[L.slice("last_opponent_purchase")] = [q for _, q in last.decision(self.other(agent)).purchase]
            v[L.slice("last_outcome")][("standard", "annulled", "no_runs").index(last.kind_of(agent))] = 1
            v[L.slice("last_reward")] = last.reward(agent)
        v[L.slice("cumulative_reward")] = st.cumulative
        return v

    def round_outcome(self, index: int) -> dict[str, Any]:
        o = self.history[index]
        M = self.solution.joint_max
        return {
            "round": index + 1,
            "overdraw": o.overdraw,
            "overdrawn_resources": list(o.overdrawn_resources),
            "kind": dict(o.kind),
            "rewards": dict(o.rewards),
            "joint_reward": o.joint_reward,
            "joint_max": M,
            "efficiency": o.joint_reward / M if M > 0 else 1.0,
            "optimal": o.joint_reward >= M - _TOL,
            "purchases": {a: d.purchase_dict() for a, d in o.decisions},
            "runs": {a: d.runs_dict() for a, d in o.decisions},
            "fallback_agents": list(self.history_fallbacks[index]),
        }

    def info(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        return {
            "round": min(self.round + 1, self.config.num_rounds),
            "phase": self.phase,
            "events": list(st.events),
            "last_turn": st.last_turn,
            "last_round": self.round_outcome(len(self.history) - 1) if self.history else None,
            "theme": self.theme,
            "resource_names": dict(self.names.display),
        }

    def render_text(self) -> str:
        return "\n".join(self.transcript)


def _decision_dict(d: Decision | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"purchase": d.purchase_dict(), "runs": d.runs_dict(), "auto_assigned": d.auto_assigned}


def _describe(action: Any) -> str:
    """A printable form of a malformed structured action, for the conversation and events."""
    try:
        return json.dumps(action, default=lambda o: o.tolist() if hasattr(o, "tolist") else repr(o), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(action)
