"""The resource game as a :class:`~negotiation_env.core.game.Game`: the Appendix D protocol.

Per round (``num_rounds`` of them):

1. **Cheap talk.** The first speaker gets the turn-0 prompt; agents alternate, each up to
   ``cheap_talk_turns`` turns (0: unlimited, D.8: talk goes on until an agent decides;
   ``max_talk_turns``, off by default, is a safety cap whose reaching is recorded as a
   ``talk_truncated`` event and ``last_round["talk_truncated"]``). Each turn answers ``{"thinking", "speech", "action"}``; the speech is
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
4. **Resolution.** Overdraw annuls the round; rewards are paid for the runs each
   purchase completes (declared runs cut to what the purchase covers, the rest
   assigned as when runs are omitted: :func:`~.rules.paid_runs`; a ``runs_adjusted``
   event when that differs from what was declared); both agents get the D.4 result
   notice at the top of their next prompt.

An invalid response (unparseable text, unknown resource, over budget, too many types,
null action when a decision is due, empty speech) is recorded in
``info["events"]`` and the same agent is asked again with the error, up to
``max_retries`` times; then a talk turn is forfeited (the other agent reads
``[No message sent]``) and a decision falls back. A fallback decision is logged as the
paper's Agent errors section logs it: a ``heuristic_fallback`` event (the agent gave no
valid allocation after every retry) and a ``decision_auto_filled`` event (the decision
that was substituted), both with ``substitute`` naming it; ``fallback="zero"`` (default,
the paper) substitutes an empty purchase, ``fallback="individual_optimum"`` the agent's
individual optimum. The round outcome marks it: ``last_round["fallback"] == {agent:
substitute}`` (and ``last_round["fallback_agents"]``), so analysis can leave such rounds
out as the paper does.

Conditions of the paper are config fields (see :class:`ResourceConfig` and README's
table): partner stability, project rotation, the no-talk baseline, thinking on/off,
transparency, prompt interventions, unlimited talk, first speaker, rounds, theme, and
the post-game reflection step.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces

from ...core.answers import ANSWER_CHARS, REFUSED_ANSWER_CHARS, cut
from ...core.config import ConfigError, check_bool, check_choice, check_int, check_no_effect
from ...core.chat import ChatGame, Seat
from ...core.game import NO_REWARDS
from ...core.jsontext import ParseError
from ...core.memo import Memo, action_key
from ...core.spaces import OBS_TEXT_MAX, action_text, chat_observation_space, obs_text, quoted_line, sanitize
from ...core.thinking import split_think
from . import answer_schema, prompts
from .features import FeatureLayout
from .parser import Turn, parse_plain, parse_structured, parse_text
from .prompts import Names, PromptOptions
from .rules import Decision, RoundOutcome, _fmt, resolve_round, validate_decision, zero_decision
from .scenario import (AGENTS, Scenario, ScenarioError, UnplayableScenario, check_playable, list_scenarios,
                       load_scenario)
from .solver import Solution, individual_best, solve
from .themes import THEMES, sample_theme, theme_names

__all__ = ["ResourceConfig", "ResourceGame"]

_TOL = 1e-6


@dataclass(frozen=True)
class ResourceConfig:
    """Configuration of the resource game; every field is checked when the env is built.

    scenario: a shipped scenario name, a path to a JSON file, or a :class:`Scenario`.
    num_rounds: rounds in a game (1-1000); the agents are told the number.
    cheap_talk: ``False`` is the no-talk baseline (§5.1, D.7): both agents go straight to
        the decision prompt every round.
    cheap_talk_turns: talk turns per agent and round (0-1000); ``0`` means unlimited talk,
        worded "as much as required" (D.2.1, D.8).
    first_speaker: ``"agent_a"`` or ``"agent_b"``: who opens every round's talk.
    partner: ``"stable"`` or ``"shifting"`` (§4.1, D.8): with ``"shifting"``,
        ``shifting_agent``'s context is reset to a fresh system prompt every round and it
        never sees an earlier round.
    shifting_agent: the agent whose context resets when ``partner="shifting"``.
    shifting_line: with ``partner="shifting"``, who reads D.1.5's "You are playing against
        a DIFFERENT opponent each round": ``"partner"`` (default: the agent whose partner
        changes, the one that keeps its context; the reset agent, which sees one round
        only, is told it plays a standalone one-round negotiation) or ``"reset"`` (the
        reset agent, as D.1.5 files the line under "partner context resets each round";
        the other agent reads the stable Situation).
    rotation_pool: with ``rotation="rotating"``, the scenarios (names, paths, dicts) later
        rounds draw from, on the scenario's environment; default every shipped scenario
        within 0.05 of ``scenario``'s M/C.
    thinking: ``False`` is the thinking-off format of D.6 (no private channel: plain text is
        speech, a bare JSON purchase object is the decision).
    intervention: ``None``, ``"project_sharing"`` or ``"theory_of_mind"`` (D.1.5, F.1): the
        instruction added after the situation (and, for theory of mind, the turn-0 reminder).
    reflection: ``True`` (default: D.5, "after all rounds complete, LLM agents receive a
        reflection prompt"; D.7 removes it only in the no-talk baseline, which has none)
        adds the reflection prompt after the last result; the answer lands in
        ``info["reflection"]``. ``False`` ends the game at the last result.
    max_retries: re-prompts after an invalid answer (0-100) before a talk turn is forfeited
        or a decision falls back.
    max_message_chars: cap on speech (longer speech is cut, event ``output_truncated``) and
        the bound of the action space's text fields.
    max_thinking_chars: cap on private thinking (cut, event ``output_truncated``).
    max_talk_turns: with ``cheap_talk_turns=0`` (unlimited talk), a safety cap on each
        agent's talk turns per round; ``None`` (default): no cap, talk goes on until an
        agent decides (D.8). Reaching the cap is a truncation: a ``talk_truncated`` event,
        ``last_round["talk_truncated"] = True``, then the forced decision prompt.
    rotation: ``"fixed"`` or ``"rotating"``: round 1 plays ``scenario``, every later round
        a different scenario of ``rotation_pool``, none repeated within a game; a pool
        with fewer than ``num_rounds`` distinct scenarios (``scenario`` counted) is refused.
    transparency: (§5.7) ``"none"``; ``"full"`` (the paper's intervention: the other
        party's complete project specifications, requirements and reward per run);
        ``"requirements"`` (its requirements only); ``"joint"`` (``"full"`` plus the other
        party's reward function, the paper's joint-transparency variant).
    theme: ``"random"`` (sampled from the reset seed), a theme name from
        :data:`~negotiation_env.games.resource.themes.THEMES`, or ``None`` (abstract ids).
    theme_scope: with ``theme="random"``, ``"game"`` (default: one theme for the whole
        game, as §4 and D.8 word it: names "sampled randomly at game initialization") or
        ``"round"`` (C.1's wording, "each game round is assigned a random theme": each
        round draws its own; an agent whose context carries over is told the new names).
    json_suffix: the seats (``True``: both, ``False``/``()``: none, a seat or a list of
        seats) whose Response Format section ends with the D.1.4 suffix the paper gave
        its Anthropic models to enforce JSON compliance. Thinking-on prompts only.
    solo: the individual oracle check's one-agent decision (§3.1): the Situation section
        says the other party buys nothing this round. Needs ``cheap_talk=False``.
    joint_plan: the joint oracle check's decision (§3.1): the Situation section says both
        parties carry out one joint plan for the highest joint reward, each submitting its
        own part unseen, and that among several such plans it is the one that gives the
        first speaker the highest reward (ours). Needs ``cheap_talk=False`` and
        ``transparency="full"`` or ``"joint"`` (the other party's rewards), not ``solo``.
    fallback: what a decision becomes after ``max_retries`` invalid answers: ``"zero"``
        (default, the paper: an empty purchase) or ``"individual_optimum"`` (the
        agent's individual optimum). Either logs ``heuristic_fallback`` and
        ``decision_auto_filled`` and marks ``last_round["fallback"]``.
    message_text: how a partner's speech is shown: ``"verbatim"`` (default, D.6:
        "Everything you say is passed VERBATIM to the other party"; inside D.2.2's quotes
        as accepted, line breaks and quotation marks included, each delivered message
        that holds a line break recorded as a ``message_line_break`` event and one that
        holds a fixed opening of the env's own lines as ``message_imitates_env``) or
        ``"one_line"`` (the hardened form: quotes, line breaks and control characters
        escaped as in a JSON string, so no message can start a line of its own).
    prompt_style: ``"paper"`` (default: Appendix D's prompts) or ``"compact"`` (ours, for
        small models trained from scratch, e.g. ``benchmarks/train_sft.py``): the same
        facts in a system prompt about a third as long (resources with cost and supply,
        budget, type limit, annulment, own projects as "needs 2 r2 and 3 r3 per run and
        pays 17", the two answer forms) and one-line talk and decision prompts; partner
        messages, results and re-prompts are the paper's. Thinking off only, with none of
        the paper's interventions (transparency, intervention, shifting partner, solo,
        joint_plan).

    A setting that cannot count in the chosen configuration is warned about when the
    config is built (``UserWarning``; defaults never are): ``cheap_talk_turns``,
    ``max_talk_turns`` and ``reflection`` with ``cheap_talk=False``; ``max_talk_turns``
    unless ``cheap_talk_turns=0``; ``shifting_agent`` unless ``partner="shifting"``;
    ``rotation="rotating"`` with ``num_rounds=1``; ``theme_scope`` unless
    ``theme="random"``; ``json_suffix`` with ``thinking=False``.
    """

    scenario: Any = "mc080_1"
    num_rounds: int = 4
    cheap_talk: bool = True
    cheap_talk_turns: int = 5
    max_talk_turns: int | None = None
    first_speaker: str = "agent_a"
    partner: str = "stable"
    shifting_agent: str = "agent_b"
    shifting_line: str = "partner"
    rotation: str = "fixed"
    rotation_pool: Any = None
    thinking: bool = True
    transparency: str = "none"
    intervention: str | None = None
    reflection: bool = True
    theme: str | None = "random"
    theme_scope: str = "game"
    json_suffix: Any = ()
    solo: bool = False
    joint_plan: bool = False
    max_retries: int = 3
    fallback: str = "zero"
    max_message_chars: int = 4000
    max_thinking_chars: int = 20000
    prompt_style: str = "paper"
    message_text: str = "verbatim"

    def __post_init__(self):
        sc = _as_scenario(self.scenario, "scenario")
        object.__setattr__(self, "scenario", sc)
        check_int("num_rounds", self.num_rounds, 1, 1000)
        check_bool("cheap_talk", self.cheap_talk)
        check_int("cheap_talk_turns", self.cheap_talk_turns, 0, 1000)
        if self.max_talk_turns is not None:
            check_int("max_talk_turns", self.max_talk_turns, 1, 1_000_000)
        check_choice("first_speaker", self.first_speaker, AGENTS)
        check_choice("partner", self.partner, ("stable", "shifting"))
        check_choice("shifting_agent", self.shifting_agent, AGENTS)
        check_choice("shifting_line", self.shifting_line, ("partner", "reset"))
        check_choice("rotation", self.rotation, ("fixed", "rotating"))
        check_bool("thinking", self.thinking)
        check_choice("transparency", self.transparency, ("none", "full", "requirements", "joint"))
        check_choice("intervention", self.intervention, (None, "project_sharing", "theory_of_mind"))
        check_bool("reflection", self.reflection)
        if self.theme is not None:
            check_choice("theme", self.theme, ("random",) + tuple(THEMES))
        check_choice("theme_scope", self.theme_scope, ("round", "game"))
        object.__setattr__(self, "json_suffix", _seats("json_suffix", self.json_suffix))
        check_bool("solo", self.solo)
        if self.solo and self.cheap_talk:
            raise ConfigError("config field 'solo' = True needs cheap_talk=False: the oracle check's agent decides "
                              "alone, with no partner to talk to")
        check_bool("joint_plan", self.joint_plan)
        if self.joint_plan:
            if self.cheap_talk:
                raise ConfigError("config field 'joint_plan' = True needs cheap_talk=False: the joint oracle check's "
                                  "seats carry out one plan without talking")
            if self.solo:
                raise ConfigError("config fields 'joint_plan' and 'solo' cannot both be True: 'solo' tells the agent "
                                  "the other party buys nothing, 'joint_plan' that it buys its part of a joint plan")
            if self.transparency not in ("full", "joint"):
                raise ConfigError(f"config field 'joint_plan' = True needs transparency='full' or 'joint' (the other "
                                  f"party's projects with their rewards); got transparency={self.transparency!r}")
        check_int("max_retries", self.max_retries, 0, 100)
        if self.fallback == "heuristic":
            raise ConfigError("config field 'fallback': 'heuristic' is now called 'individual_optimum' (every "
                              "fallback logs the paper's heuristic_fallback event; allowed values: zero, "
                              "individual_optimum)")
        check_choice("fallback", self.fallback, ("zero", "individual_optimum"))
        check_int("max_message_chars", self.max_message_chars, 1, 1_000_000)
        check_int("max_thinking_chars", self.max_thinking_chars, 1, 1_000_000)
        check_choice("prompt_style", self.prompt_style, ("paper", "compact"))
        check_choice("message_text", self.message_text, ("verbatim", "one_line"))
        if self.prompt_style == "compact":
            clash = [f"{k}={v!r}" for k, v, ok in (
                ("thinking", self.thinking, not self.thinking), ("transparency", self.transparency, self.transparency == "none"),
                ("intervention", self.intervention, self.intervention is None), ("partner", self.partner, self.partner == "stable"),
                ("solo", self.solo, not self.solo), ("joint_plan", self.joint_plan, not self.joint_plan)) if not ok]
            if clash:
                raise ConfigError(f"config field 'prompt_style' = 'compact' is the thinking-off game without the paper's "
                                  f"interventions; it cannot be combined with {', '.join(clash)} (use prompt_style='paper')")
        if self.rotation == "rotating":
            pool = _rotation_pool(sc, self.rotation_pool)
            _check_pool_size(sc, pool, self.num_rounds)
            object.__setattr__(self, "rotation_pool", pool)
        elif self.rotation_pool is not None:
            raise ConfigError("config field 'rotation_pool' is only used with rotation='rotating'")
        self._check_no_effect()

    def _check_no_effect(self) -> None:
        """Warn about settings that cannot count in this configuration. Warned,
        not refused: a run crosses the paper's conditions as factors (talk / no talk,
        stable / shifting) over one base config, so a talk setting legitimately meets a
        no-talk cell."""
        if not self.cheap_talk:  # D.7: straight to the decision prompt, no reflection
            for name in ("cheap_talk_turns", "max_talk_turns", "reflection"):
                check_no_effect(self, name, active=False, other="cheap_talk", counts_with="cheap_talk=True",
                                stacklevel=5)
        else:
            check_no_effect(self, "max_talk_turns", active=self.cheap_talk_turns == 0, other="cheap_talk_turns",
                            counts_with="cheap_talk_turns=0 (unlimited talk; max_talk_turns is its safety cap)",
                            stacklevel=5)
        for name in ("shifting_agent", "shifting_line"):
            check_no_effect(self, name, active=self.partner == "shifting", other="partner",
                            counts_with="partner='shifting'", stacklevel=5)
        check_no_effect(self, "rotation", active=self.num_rounds > 1, other="num_rounds",
                        counts_with="num_rounds > 1 (rounds 2.. draw from the rotation pool)",
                        stacklevel=5)
        check_no_effect(self, "theme_scope", active=self.theme == "random", other="theme",
                        counts_with="theme='random' (a fixed theme or none names every round alike)", stacklevel=5)
        check_no_effect(self, "json_suffix", active=self.thinking, other="thinking",
                        counts_with="thinking=True (the suffix restates the three-field JSON format)", stacklevel=5)

    @property
    def turn_limit(self) -> int | None:
        """Talk turns per agent per round; ``None``: unlimited with no safety cap."""
        return self.cheap_talk_turns or self.max_talk_turns

    @property
    def talk_cap_is_truncation(self) -> bool:
        """Reaching :attr:`turn_limit` cuts talk short (unlimited talk with a safety cap),
        rather than being the round's ordinary end of talk."""
        return self.cheap_talk_turns == 0

    def is_shifting(self, agent: str) -> bool:
        """``agent``'s context resets every round (it sees only the current round)."""
        return self.partner == "shifting" and agent == self.shifting_agent

    def situation(self, agent: str) -> str:
        """Which D.1.5 Situation ``agent`` reads (:data:`.prompts.PromptOptions.situation`)."""
        if self.partner != "shifting":
            return "stable"
        reset = agent == self.shifting_agent
        if self.shifting_line == "reset":
            return "different_opponent" if reset else "stable"
        return "standalone" if reset else "different_opponent"


def _seats(field: str, value: Any) -> tuple[str, ...]:
    """``True``: both seats; ``False``/``None``/``()``: none; a seat or a list of seats."""
    if value is True:
        return AGENTS
    if value is False or value is None:
        return ()
    items = (value,) if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise ConfigError(f"config field '{field}' must be true, false, a seat or a list of seats "
                          f"({', '.join(AGENTS)}); got {value!r}")
    for x in items:
        if x not in AGENTS:
            raise ConfigError(f"config field '{field}': unknown seat {x!r}; seats: {', '.join(AGENTS)}")
    return tuple(a for a in AGENTS if a in items)


def _check_pool_size(base: Scenario, pool: tuple[Scenario, ...], num_rounds: int) -> None:
    """A rotating game plays ``num_rounds`` different scenarios: round 1 the base, then
    one pool scenario per round, none twice (§4.1: new scenarios each round)."""
    names = [sc.name for sc in pool]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError(f"config field 'rotation_pool' lists scenario {dup[0]!r} twice; a rotating game never "
                          "repeats a scenario")
    distinct = [base.name] + [n for n in names if n != base.name]
    if len(distinct) < num_rounds:
        raise ConfigError(
            f"config field 'rotation_pool': a rotating game of num_rounds={num_rounds} plays {num_rounds} different "
            f"scenarios, but the pool with the first round's {base.name!r} has {len(distinct)} "
            f"({', '.join(distinct)}); give more scenarios or fewer rounds"
        )


def _as_scenario(sc: Any, field: str) -> Scenario:
    """The scenario a config field names, refused (``ConfigError``, a ``ValueError``)
    when malformed or when no project of it can ever run (joint optimum 0): the
    message names the field, the scenario and the rounds it would play."""
    rounds = "round 1" if field == "scenario" else "rounds 2 on of a rotating game"
    try:
        if isinstance(sc, Scenario):
            return check_playable(sc, f"config field '{field}' ({rounds})")
        if isinstance(sc, (str, Path)):
            loaded = load_scenario(sc)
        elif isinstance(sc, dict):
            loaded = Scenario.from_dict(sc)
        else:
            loaded = None
        if loaded is not None:
            return check_playable(loaded, f"config field '{field}' ({rounds})")
    except UnplayableScenario as e:
        msg = str(e)
        raise ConfigError(msg if msg.startswith("config field") else f"config field '{field}' ({rounds}): {msg}") from None
    except ScenarioError as e:
        raise ConfigError(f"config field '{field}': {e}") from None
    raise ConfigError(
        f"config field '{field}' must be a scenario name, a path, a dict or a Scenario; got {type(sc).__name__}"
    )


def _same_environment(a: Scenario, b: Scenario) -> bool:
    return (
        a.resources == b.resources
        and a.budget == b.budget
        and a.max_types == b.max_types
        and [len(a.projects_of(x)) for x in AGENTS] == [len(b.projects_of(x)) for x in AGENTS]
    )


@functools.lru_cache(maxsize=64)
def _default_pool(base: Scenario) -> tuple[Scenario, ...]:
    """``base`` and every shipped scenario on its environment within 0.05 of its M/C, once
    per base scenario and process (a runner builds one config per game; the shipped
    scenarios never change while it runs)."""
    ratio = solve(base).ratio
    found = [base]
    for name in list_scenarios():
        sc = load_scenario(name)
        if sc.name != base.name and _same_environment(base, sc) and abs(solve(sc).ratio - ratio) <= 0.05:
            found.append(sc)
    return tuple(found)


def _rotation_pool(base: Scenario, pool: Any) -> tuple[Scenario, ...]:
    """Scenarios a rotating game draws rounds 2.. from. Default: every shipped scenario at
    the base scenario's M/C level (within 0.05) on the same environment, base included."""
    if pool is None:
        found = _default_pool(base)
        if len(found) < 2:
            raise ConfigError(
                f"config field 'rotation_pool': no shipped scenario shares {base.name!r}'s environment and M/C level; "
                "give rotation_pool explicitly"
            )
        return found
    if isinstance(pool, (str, Path, dict, Scenario)) or not hasattr(pool, "__iter__"):
        raise ConfigError("config field 'rotation_pool' must be a list of scenario names, paths, dicts or Scenarios")
    out = tuple(_as_scenario(x, "rotation_pool") for x in pool)
    if not out:
        raise ConfigError("config field 'rotation_pool' must not be empty")
    for sc in out:
        if not _same_environment(base, sc):
            raise ConfigError(
                f"config field 'rotation_pool': scenario {sc.name!r} differs from {base.name!r} in resources, budget, "
                "max_types or number of projects; a rotating game keeps one environment"
            )
    return out


@dataclass
class _AgentState(Seat):
    turns_used: int = 0
    cumulative: float = 0.0
    last_purchase: dict[str, int] | None = None


class ResourceGame(ChatGame):
    metadata = {"name": "resource_v1", "is_parallelizable": True}
    possible_agents = AGENTS

    def __init__(self, config: ResourceConfig):
        super().__init__()
        self.config = config
        self.base_scenario: Scenario = config.scenario
        self.pool: tuple[Scenario, ...] = config.rotation_pool or (self.base_scenario,)
        n_proj = max(len(sc.projects_of(a)) for sc in self.pool for a in AGENTS)
        self.layout = FeatureLayout(len(self.base_scenario.resources), n_proj)
        self._fi = {name: start for name, start, _size in self.layout.table()}  # entry -> first index
        # where _features writes the four entries it sets on every call
        self._fi_now = (self._fi["phase"], self._fi["active"], self._fi["turns_used"], self._fi["retries"])
        self._obs_spaces = {a: self._make_obs_space() for a in AGENTS}
        self._act_spaces = {a: self._make_action_space(a) for a in AGENTS}
        self._solutions: dict[int, Solution] = {}
        self.history: list[RoundOutcome] = []
        self._outcomes: list[dict[str, Any]] = []
        self._info_shared: tuple | None = None  # (see info())
        self._specs_now: tuple = (None, {})  # (see _answer_format)
        self._feature_base: dict[str, tuple[tuple, np.ndarray]] = {}
        self._scenario_feats: dict[tuple[int, str], tuple[Scenario, np.ndarray]] = {}
        self._parsed = Memo()  # structured actions by content (_parse)
        self._names_tokens: dict[tuple, int] = {}  # names content -> its key (reset)
        self._feature_bases = Memo()  # _feature_base_vector by what it reads
        self.round_scenarios: list[Scenario] = [self.base_scenario]
        self._verbatim = config.message_text == "verbatim"
        self.round = 0
        self._done = True

    # ----------------------------------------------------------------- spaces

    def _make_obs_space(self) -> spaces.Dict:
        return chat_observation_space(self.layout.space(), answer_format=obs_text(OBS_TEXT_MAX))

    def _make_action_space(self, agent: str) -> spaces.Dict:
        sc = self.base_scenario
        per_res = [int(math.floor(sc.budget / r.cost + 1e-9)) + 1 for r in sc.resources]
        per_proj = [1] * self.layout.n_projects
        for pool_sc in self.pool:
            for i, p in enumerate(pool_sc.projects_of(agent)):
                run_cost = sum(sc.resource(rid).cost * u for rid, u in p.requires)
                per_proj[i] = max(per_proj[i], int(math.floor(sc.budget / run_cost + 1e-9)) + 1)
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

    # ----------------------------------------------------------------- scenario of the round

    def scenario_of(self, round_index: int) -> Scenario:
        return self.round_scenarios[min(round_index, len(self.round_scenarios) - 1)]

    # the current round's scenario, names and theme: read many times a step, so indexed
    # directly (self.round is never negative; past the last entry, the last one)

    @property
    def scenario(self) -> Scenario:
        rs, r = self.round_scenarios, self.round
        return rs[r] if r < len(rs) else rs[-1]

    @property
    def names(self) -> Names:
        """The resource names of the current round (its theme)."""
        rn, r = self.round_names, self.round
        return rn[r] if r < len(rn) else rn[-1]

    @property
    def theme(self) -> str | None:
        rt, r = self.round_themes, self.round
        return rt[r] if r < len(rt) else rt[-1]

    def solution_for(self, scenario: Scenario) -> Solution:
        key = id(scenario)
        if key not in self._solutions:
            self._solutions[key] = solve(scenario)
        return self._solutions[key]

    @property
    def solution(self) -> Solution:
        return self.solution_for(self.scenario)

    def _draw_round_scenarios(self, rng: np.random.Generator) -> list[Scenario]:
        """Round 1 plays the configured scenario; with rotation rounds 2.. play pool
        scenarios drawn uniformly without replacement from the game rng, so no scenario
        repeats within a game (the config refused a pool too small for that)."""
        out = [self.base_scenario]
        if self.config.rotation != "rotating":
            return out
        others = [sc for sc in self.pool if sc.name != self.base_scenario.name]
        order = rng.permutation(len(others))[: self.config.num_rounds - 1]
        return out + [others[int(i)] for i in order]

    def _draw_later_themes(self, rng: np.random.Generator, first: str | None) -> list[str | None]:
        """Themes of rounds 2..: with ``theme="random"`` and ``theme_scope="round"`` each
        round draws its own, independently and uniformly (C.1: each round is assigned a
        random theme, so two rounds may share one); otherwise round 1's theme."""
        cfg = self.config
        if cfg.theme == "random" and cfg.theme_scope == "round":
            return [sample_theme(rng) for _ in range(1, cfg.num_rounds)]
        return [first] * (cfg.num_rounds - 1)

    def prompt_options(self, agent: str) -> PromptOptions:
        cfg = self.config
        return PromptOptions(
            thinking=cfg.thinking,
            shifting=cfg.is_shifting(agent),
            situation=cfg.situation(agent),
            transparency=cfg.transparency,
            intervention=cfg.intervention,
            cheap_talk_turns=cfg.cheap_talk_turns,
            num_rounds=cfg.num_rounds,
            json_suffix=agent in cfg.json_suffix,
            solo=cfg.solo,
            joint_plan=("lead" if agent == cfg.first_speaker else "other") if cfg.joint_plan else None,
            style=cfg.prompt_style,
        )

    # ----------------------------------------------------------------- lifecycle

    def reset(self, rng: np.random.Generator) -> None:
        cfg = self.config
        # draw order (kept so that a per-game theme draws what it always drew): round 1's
        # theme, the round scenarios, the later rounds' themes
        first = sample_theme(rng) if cfg.theme == "random" else cfg.theme
        self.round_scenarios = self._draw_round_scenarios(rng)
        self.round_themes = [first] + self._draw_later_themes(rng, first)
        self.round_names = [Names(theme_names(t, self.base_scenario.resource_ids)) for t in self.round_themes]
        # what observe() and info() keep between calls (see "observation / info" below)
        # each round's names as a small int, one per distinct content for the game
        # object's life: the stores' keys hash an int instead of the names' pairs
        tokens = self._names_tokens
        self._names_keys = [tokens.setdefault(k, len(tokens)) for k in (tuple(n.display.items()) for n in self.round_names)]
        self._feature_base: dict[str, tuple[tuple, np.ndarray]] = {}
        self._outcomes: list[dict[str, Any]] = []
        self._info_shared: tuple | None = None  # (see info())
        self._specs_now: tuple = (None, {})  # (round, phase) -> {agent: answer spec} (_answer_format)
        self.order = (cfg.first_speaker, next(a for a in AGENTS if a != cfg.first_speaker))
        self.round = 0
        self._opts = {a: self.prompt_options(a) for a in AGENTS}
        self._states = {a: _AgentState(conversation=[], pending=[]) for a in AGENTS}
        for a in AGENTS:
            self._reset_context(a)
        self._start_record()
        self.history = []
        self.history_fallbacks: list[dict[str, str]] = []
        self.history_truncated: list[bool] = []
        self.reflections: dict[str, str] = {}
        self.transcript.append(
            f"Scenario {self.base_scenario.name} · theme {self.theme or 'none'} · "
            f"M={_fmt(self.solution.joint_max)} M/C={self.solution.ratio:.2f}"
        )
        self._done = False
        self._start_round()

    def _reset_context(self, agent: str) -> None:
        """A fresh context: the system prompt of the current round's scenario only."""
        st = self._states[agent]
        system = self._text(("system", agent, id(self.scenario), self._names_key()),
                            lambda: prompts.render_system_prompt(self.scenario, agent, self.names, self._opts[agent]))
        st.conversation = [{"role": "system", "content": system}]
        st.pending = []

    # Env text is rendered from few inputs (scenario, theme names, agent, round, the
    # agent's message) that repeat within a game and across the games an env plays, so
    # each text is rendered and sanitized once per key and kept for the game object's
    # life (a bounded core.memo.Memo). A key
    # names a scenario by id(): the scenarios a game plays belong to its config, so they
    # live as long as the game object and its store.

    def _names_key(self, round_index: int | None = None) -> int:
        keys = self._names_keys
        i = self.round if round_index is None else round_index
        return keys[i] if i < len(keys) else keys[-1]

    def _preamble_key(self, agent: str) -> tuple:
        """What :meth:`_round_preamble` reads besides the config: round 0 or not, the
        scenario, the previous round's names and this round's."""
        prev = self._names_key(self.round - 1) if self.round > 0 else None
        return (agent, self.round == 0, id(self.scenario), prev, self._names_key())

    def _say_preamble(self, agent: str) -> None:
        self._states[agent].pending.extend(self._text(("preamble",) + self._preamble_key(agent),
                                                      lambda: self._round_preamble(agent)))

    def _say_turn0(self, agent: str, opponent_message: str | None = None) -> None:
        """:meth:`_say` of :meth:`_turn0` (sanitizing is per character, so the kept
        opening and the sanitized message join to the same text)."""
        text = self._text(("turn0", self.round) + self._preamble_key(agent), lambda: self._turn0(agent))
        if opponent_message is not None:
            text += self._text(("said+", opponent_message),
                               lambda: "\n" + prompts.render_opponent_said(opponent_message, self._verbatim))
        self._states[agent].pending.append(text)

    def _round_preamble(self, agent: str) -> list[str]:
        """Text that opens a round for an agent before its first prompt: the renamed
        resources when this round's theme differs from the last one's (C.1, ours), and
        the D.2.3 block when projects rotate, or, when only the names changed, the
        agent's projects in the new names (a shifting agent sees all of it in its fresh
        system prompt)."""
        if self.round == 0 or self.config.is_shifting(agent):
            return []
        out = []
        previous = self.round_names[self.round - 1]
        renamed = previous != self.names
        if renamed:
            out.append(prompts.render_renamed_resources(self.scenario, previous, self.names))
        opts = self._opts[agent]
        if self.config.rotation == "rotating":
            out.append(prompts.render_new_projects(self.scenario, agent, self.names, opts.transparency,
                                                opts.style))
        elif renamed:
            out.append(prompts.render_projects_renamed(self.scenario, agent, self.names, opts.transparency,
                                                opts.style))
        return out

    def _start_round(self) -> None:
        self.decided: dict[str, Decision] = {}
        self.fallbacks: dict[str, str] = {}  # agent -> the substitute its fallback decision played
        self.talk_truncated = False
        for a, st in self._states.items():
            st.turns_used = 0
            st.retries = 0
            if self.round > 0 and self.config.is_shifting(a):
                self._reset_context(a)
        self.transcript.append(f"=== Round {self.round + 1}/{self.config.num_rounds} ===")
        if not self.config.cheap_talk:  # D.7: straight to the decision prompt
            self.phase = "decision"
            for a in self.order:
                self._say_preamble(a)
                self._say_decision_prompt(a)
            return
        self.phase = "talk"
        self.talker = self.order[0]
        self._say_turn0(self.talker)

    def _say_decision_prompt(self, agent: str) -> None:
        self._say_kept(agent, ("decision", agent, id(self.scenario)),
                       lambda: prompts.render_decision_prompt(self.scenario, self._opts[agent]))

    def _turn0(self, agent: str, opponent_message: str | None = None) -> str:
        parts = self._round_preamble(agent) + [prompts.render_turn0(self.round + 1, self._opts[agent])]
        text = "\n\n".join(parts)
        if opponent_message is not None:
            text += "\n" + prompts.render_opponent_said(opponent_message)
        return text

    @property
    def done(self) -> bool:
        return self._done

    def acting(self) -> tuple[str, ...]:
        if self._done:
            return ()
        if self.phase == "talk":
            return (self.talker,)
        # the agents of self.order (two) that have not answered, in order
        answered = self.reflections if self.phase == "reflection" else self.decided
        if not answered:
            return self.order
        first, second = self.order
        if first in answered:
            return () if second in answered else (second,)
        return (first,) if second in answered else self.order

    def other(self, agent: str) -> str:
        return AGENTS[1] if agent == AGENTS[0] else AGENTS[0]

    # ----------------------------------------------------------------- step

    def _parse(self, agent: str, action: Any) -> tuple[Turn, str]:
        """(accepted turn, the response text to record); raises ParseError."""
        require = self.phase == "decision"
        if self.phase == "reflection":
            text = action if isinstance(action, str) else None
            if text is None:
                if not isinstance(action, dict) or not isinstance(action.get("message", ""), str):
                    raise ParseError("a reflection is plain text (or a structured action's message)")
                text = action.get("message", "")
            answer, reasoning = split_think(text)  # the one rule of every game: reasoning is not the answer
            if not answer.strip():
                raise ParseError("empty reflection; write 2-4 sentences")
            return Turn("\n\n".join(r.strip() for r in reasoning if r.strip()), answer.strip(), None), text
        if isinstance(action, str):
            parse = parse_text if self.config.thinking else parse_plain
            return parse(action, self.scenario, agent, self.names, require_decision=require), action
        # a structured action is parsed, validated and written out (_turn_text) once per
        # content, scenario, names, agent and phase: parse_structured is a function of
        # those alone, and a Turn is frozen (a refused action is never kept)
        content = action_key(action)
        key = None if content is None else (require, agent, id(self.scenario), self._names_key(), content)
        kept = self._parsed.get(key) if key is not None else None
        if kept is not None:
            return kept
        turn = parse_structured(action, self.scenario, agent, self.names, require_decision=require,
                                require_speech=self.config.thinking)
        kept = (turn, self._turn_text(turn))
        if key is not None:
            self._parsed.put(key, kept)
        return kept

    def step(self, agent: str, action: Any) -> Mapping[str, float]:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        st = self._states[agent]
        self._begin_step(agent)
        action = self._encodable(agent, action)  # no surrogate reaches a prompt, event or trace
        try:
            turn, text = self._parse(agent, action)
        except ParseError as e:
            # kept bounded: in the conversation it is re-sent with every retry (core.answers)
            raw = self._kept(agent, action if isinstance(action, str) else self._describe(action), REFUSED_ANSWER_CHARS)
            # the agent's own history keeps a text answer as sent (a model reads back what it
            # generated), up to the bound of a refused one
            self._commit(agent, raw if isinstance(action, str) else sanitize(raw))
            return self._invalid(agent, raw, str(e))
        turn, cuts = self._bound(turn)
        sent = text
        if cuts:  # the partner and the record get the bounded turn, not the runaway text
            text = self._turn_text(turn)
            for f, n in cuts:
                self._event(agent, "output_truncated", field=f, length=n,
                            limit=self.config.max_message_chars if f == "speech" else self.config.max_thinking_chars)
        text = self._kept(agent, text, ANSWER_CHARS)
        # the agent's own history keeps a text answer as sent (a model reads back what it
        # generated); a structured one as its turn text
        self._commit(agent, cut(sent, ANSWER_CHARS)[0] if isinstance(action, str) else sanitize(text))
        for w in turn.warnings:
            self._event(agent, "output_format_warning", message=w, text=text)
        st.retries = 0
        return self._apply(agent, turn, text)

    def check_answer(self, agent: str, action: Any) -> str | None:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        try:
            self._parse(agent, self._encodable_parts(action)[0])
        except ParseError as e:
            return str(e)
        return None

    def _bound(self, turn: Turn) -> tuple[Turn, list[tuple[str, int]]]:
        """Cut speech and thinking to their configured caps; report what was cut."""
        cut = []
        speech, thinking = turn.speech, turn.thinking
        if len(speech) > self.config.max_message_chars:
            cut.append(("speech", len(speech)))
            speech = speech[: self.config.max_message_chars]
        if len(thinking) > self.config.max_thinking_chars:
            cut.append(("thinking", len(thinking)))
            thinking = thinking[: self.config.max_thinking_chars]
        return (dataclasses.replace(turn, speech=speech, thinking=thinking) if cut else turn), cut

    def _event_place(self) -> dict[str, Any]:
        return {"round": min(self.round + 1, self.config.num_rounds), "phase": self.phase}

    def _invalid(self, agent: str, raw: str, error: str) -> dict[str, float]:
        st = self._states[agent]
        st.retries += 1
        self._event(agent, "validation_error", message=error, text=raw, attempt=st.retries)
        self.transcript.append(f"[invalid] {agent}: {error}")
        if st.retries <= self.config.max_retries:
            self._say_kept(agent, ("invalid", error, self.phase),
                           lambda: prompts.render_invalid(error, self.phase, self.config.thinking))
            return NO_REWARDS
        st.retries = 0
        if self.phase == "reflection":
            self._event(agent, "reflection_skipped", message=f"no valid reflection after {self.config.max_retries} retries")
            return self._apply(agent, Turn("", "", None), None)
        if self.phase == "talk":
            self._event(agent, "talk_turn_forfeited", message=f"no valid response after {self.config.max_retries} retries")
            return self._apply(agent, Turn("", "", None), None)
        # The paper's Agent errors section: heuristic_fallback is the definitive signal that
        # no valid allocation came after every retry; decision_auto_filled records the
        # decision substituted (a zero allocation there; ours may be the individual optimum).
        substitute = self.config.fallback
        self._event(agent, "heuristic_fallback", substitute=substitute,
                    message=f"no valid allocation after {self.config.max_retries} retries")
        if substitute == "individual_optimum":
            purchase, runs = individual_best(self.scenario, agent)
            decision = validate_decision(self.scenario, agent, purchase, runs)
        else:
            decision = zero_decision(self.scenario, agent)
        self._event(agent, "decision_auto_filled", substitute=substitute, purchase=decision.purchase_dict(),
                    runs=decision.runs_dict())
        self.fallbacks[agent] = substitute
        self.transcript.append(f"[fallback] {agent}: {substitute} decision substituted")
        return self._apply(agent, Turn("", "", decision), None)

    def _apply(self, agent: str, turn: Turn, text: str | None) -> Mapping[str, float]:
        st = self._states[agent]
        other = self.other(agent)
        st.last_turn = {
            "thinking": turn.thinking,
            "speech": turn.speech,
            "decision": _decision_dict(turn.decision),
            "raw": text,
        }
        if self.phase == "reflection":
            self.reflections[agent] = turn.speech
            if turn.speech:
                self._event(agent, "reflection", text=turn.speech)
                self.transcript.append(f"{agent} reflects: {quoted_line(turn.speech)}")
            if len(self.reflections) == len(AGENTS):
                self._finish()
            return NO_REWARDS
        if self.phase == "talk":
            st.turns_used += 1
            if turn.speech:
                self.transcript.append(f"{agent}: {quoted_line(turn.speech)}")
                if self._verbatim:  # delivered to the partner below, as it is
                    self._verbatim_events(agent, turn.speech)
            if turn.thinking:
                self.transcript.append(f"    ({agent} thinking, private: {quoted_line(turn.thinking)})")
            if turn.decision is not None:
                self._record_decision(agent, turn.decision)
                self.phase = "decision"
                if self._states[other].turns_used == 0:  # it has not spoken this round: what opens the round
                    self._say_preamble(other)
                self._say_opponent_said(other, turn.speech)
                self._say_decision_prompt(other)
                return NO_REWARDS
            ost = self._states[other]
            limit = self.config.turn_limit
            if limit is None or ost.turns_used < limit:
                self.talker = other
                if ost.turns_used == 0:
                    self._say_turn0(other, turn.speech)
                else:
                    self._say_kept(other, ("reply", other, turn.speech),
                                   lambda: prompts.render_reply_prompt(turn.speech, self._opts[other], self._verbatim))
                return NO_REWARDS
            # both agents have used their turns: forced decision for both
            if self.config.talk_cap_is_truncation:  # unlimited talk cut short by the safety cap
                self.talk_truncated = True
                self._event(agent, "talk_truncated", limit=limit,
                            message=f"unlimited talk reached the safety cap of {limit} turns each; decision forced")
                self.transcript.append(f"[talk truncated at {limit} turns each]")
            self.phase = "decision"
            self._say_opponent_said(other, turn.speech)
            for a in self.order:
                self._say_decision_prompt(a)
            return NO_REWARDS
        # decision phase
        assert turn.decision is not None
        self._record_decision(agent, turn.decision)
        if len(self.decided) < len(AGENTS):
            return NO_REWARDS
        return self._resolve()

    def _say_opponent_said(self, agent: str, speech: str) -> None:
        self._say_kept(agent, ("said", speech), lambda: prompts.render_opponent_said(speech, self._verbatim))

    def _verbatim_events(self, agent: str, speech: str) -> None:
        """A message about to be shown verbatim that could read as env text to the partner
        (the env never reads its prompts back: only the partner's reading is at stake)."""
        kept = self._texts.get(("verbatim risk", speech))
        if kept is None:
            shown = sanitize(speech)
            kept = self._texts.put(("verbatim risk", speech), (shown.count("\n") + 1, prompts.env_markers(shown)))
        lines, markers = kept
        if lines > 1:
            self._event(agent, "message_line_break", lines=lines,
                        message="the message is shown verbatim over several lines; message_text='one_line' would "
                                "escape its line breaks")
        if markers:
            self._event(agent, "message_imitates_env", markers=list(markers),
                        message="the message holds text that opens the env's own lines and is shown verbatim; "
                                "message_text='one_line' would keep it inside the quotes on one line")

    def _record_decision(self, agent: str, decision: Decision) -> None:
        self.decided[agent] = decision
        if decision.adjusted:  # D.1.2: the runs the purchase completes are paid, not the runs named
            self._event(agent, "runs_adjusted", declared=decision.declared_dict(), paid=decision.runs_dict(),
                        message="the runs paid are the runs the purchase completes: declared runs it does not "
                                "cover are cut, and what it has left runs further projects")
        key = ("decides", agent, self._names_key(), decision.purchase, decision.runs)
        line = self._texts.get_or(key, lambda: (  # kept unsanitized, as the transcript always was
            f"{agent} decides: buys {prompts.render_allocation(decision, self.names)}, "
            f"runs [{prompts.render_runs(decision)}]"))
        self.transcript.append(line)

    def _resolve(self) -> dict[str, float]:
        sc, decided = self.scenario, self.decided
        # resolve_round is a function of the scenario and the decisions (frozen), and its
        # RoundOutcome is frozen: kept per scenario and decisions, as the texts are
        key = ("outcome", id(sc), *(decided.get(a) for a in AGENTS))
        outcome = self._texts.get(key)
        if outcome is None or len(decided) != len(AGENTS):
            outcome = resolve_round(sc, decided)
            if len(decided) == len(AGENTS):
                self._texts.put(key, outcome)
        self.history.append(outcome)
        self.history_fallbacks.append(dict(sorted(self.fallbacks.items())))
        self.history_truncated.append(self.talk_truncated)
        decisions = tuple((a, d.purchase, d.runs) for a, d in outcome.decisions)
        names_key = self._names_key()
        reward, kind = dict(outcome.rewards), dict(outcome.kind)
        for a in AGENTS:
            st = self._states[a]
            st.cumulative += reward[a]
            # the notice reads the decisions, this agent's kind of result and reward, and the names
            self._say_kept(a, ("result", a, names_key, decisions, kind[a], reward[a]),
                           lambda: prompts.render_result(outcome, a, self.names))
        self.transcript.append(self._texts.get_or(("result line", id(sc), names_key, outcome), lambda: (
            "Result: " + ("ANNULLED (overdraw of " + ", ".join(self.names.name(r) for r in outcome.overdrawn_resources) + ")"
                          if outcome.overdraw else
                          ", ".join(f"{a} earns {_fmt(outcome.reward(a))}" for a in AGENTS))
            + f" · joint {_fmt(outcome.joint_reward)} of M={_fmt(self.solution.joint_max)}")))
        rewards = {a: reward[a] for a in AGENTS}
        if self.round + 1 >= self.config.num_rounds:
            if self.config.reflection and self.config.cheap_talk:  # D.7: no reflection without talk
                self.phase = "reflection"
                theoretical = sum(self.solution_for(self.scenario_of(i)).joint_max for i in range(len(self.history)))
                for a in self.order:
                    if self.config.is_shifting(a):  # it saw one round: the reflection covers that round only
                        self._say(a, prompts.render_reflection(1, outcome.reward(a), outcome.reward(self.other(a)),
                                                               self.solution.joint_max))
                        continue
                    own, opp = self._states[a].cumulative, self._states[self.other(a)].cumulative
                    self._say(a, prompts.render_reflection(self.config.num_rounds, own, opp, theoretical))
            else:
                self._finish()
        else:
            self.round += 1
            self._start_round()
        return rewards

    def _finish(self) -> None:
        self._done = True
        self.phase = "done"
        self.transcript.append(
            "=== Game over: " + ", ".join(f"{a} {_fmt(self._states[a].cumulative)}" for a in AGENTS) + " ==="
        )

    def _turn_text(self, turn: Turn) -> str:
        """A structured action written as a model would have written it (for the
        conversation): the D.1.4 JSON, or with thinking off (D.6) plain speech or the
        bare purchase object."""
        action = None
        if turn.decision is not None:
            action = {self.names.name(r): q for r, q in turn.decision.purchase if q}
            if turn.decision.declared is not None:
                action["projects"] = turn.decision.declared_dict()
        if not self.config.thinking:
            return turn.speech if action is None else json.dumps(action, ensure_ascii=False)
        return json.dumps({"thinking": turn.thinking, "speech": turn.speech, "action": action}, ensure_ascii=False)

    # ----------------------------------------------------------------- observation / info

    # What an observation needs is kept between calls and rebuilt only when the state it
    # reads changes, so observe() costs the same in the last round of a long
    # game as in the first, but for one copy of the conversation:
    #
    # * the conversation (core.chat.ChatGame._chat_view): with a pending prompt (an
    #   acting agent always has one) the committed messages and the prompt are copied
    #   into a tuple once, the one cost that grows with the game; without one, the
    #   committed tuple is kept per agent and rebuilt when the list is replaced (a
    #   context reset) or grows (a commit);
    # * the feature vector's slow part (scenario, round, last result, cumulative reward),
    #   per agent, keyed by (round, resolved rounds, game over): exactly what it reads
    #   besides the four entries set on every call (phase, active, turns used, retries);
    # * each resolved round's outcome (history is append-only), built once;
    # * the answer spec, per scenario, theme names, agent, phase and mode.
    #
    # Every cache is cleared by reset().

    def _answer_format(self, agent: str, acting: bool | None = None) -> str:
        """The spec of the answer ``agent`` owes now (:mod:`.answer_schema`), as JSON
        text; ``""`` when it does not act. Cached per scenario, theme, phase and agent."""
        if not (agent in self.acting() if acting is None else acting):
            return ""
        # kept per (round, phase) of this game (reset clears it: the names are the round's),
        # then in the game's bounded store by scenario, names, agent, phase and mode
        at = (self.round, self.phase)
        specs = self._specs_now
        if specs[0] != at:
            specs = self._specs_now = (at, {})
        spec = specs[1].get(agent)
        if spec is None:
            spec = specs[1][agent] = self._answer_spec_kept(agent)
        return spec

    def _answer_spec_kept(self, agent: str) -> str:
        # (kept in the game's bounded store: random themes give each scenario dozens of
        # name sets, which would empty a small cache every few games)
        key = ("answer spec", id(self.scenario), self._names_keys[min(self.round, len(self._names_keys) - 1)], agent,
               self.phase, self.config.thinking)
        spec = self._texts.get(key)
        if spec is None:
            spec = self._texts.put(key, json.dumps(answer_schema.spec(self.scenario, agent, self.names, phase=self.phase,
                                                                      thinking=self.config.thinking), ensure_ascii=False))
        return spec

    def _features(self, agent: str, acting: bool | None = None) -> np.ndarray:
        """The agent's feature vector: the kept slow part, then the four entries that
        change within a round (phase, active, turns used, retries)."""
        st, phase = self._states[agent], self.phase
        over = phase == "done" or phase == "reflection"
        key = (self.round, len(self.history), over)
        cached = self._feature_base.get(agent)
        if cached is None or cached[0] != key:
            cached = (key, self._feature_base_kept(agent))
            self._feature_base[agent] = cached
        v = cached[1].copy()
        # (the base holds 0 at these four entries: only what is not 0 is written)
        at_phase, at_active, at_turns, at_retries = self._fi_now
        v[at_phase + (2 if over else 0 if phase == "talk" else 1)] = 1
        if agent in self.acting() if acting is None else acting:
            v[at_active] = 1
        if st.turns_used:
            v[at_turns] = st.turns_used
        if st.retries:
            v[at_retries] = st.retries
        return v

    def _feature_base_kept(self, agent: str) -> np.ndarray:
        """:meth:`_feature_base_vector`, kept (for the game object's life, bounded) under
        what it reads: the scenario, the agent, the round, the visible last outcome (a
        frozen RoundOutcome, named by id and held by the entry) and the cumulative
        reward; the config is the game's own. Callers copy it before writing."""
        sc, history = self.scenario, self.history
        redact = self.config.is_shifting(agent)
        visible = bool(history) and not (redact and len(history) == self.round
                                         and self.phase not in ("done", "reflection"))
        last = history[-1] if visible else None
        key = (id(sc), agent, self.round, id(last), None if redact else self._states[agent].cumulative)
        kept = self._feature_bases.get(key)
        if kept is not None and kept[0] is sc and kept[1] is last:
            return kept[2]
        v = self._feature_base_vector(agent)
        self._feature_bases.put(key, (sc, last, v))
        return v

    def _feature_base_vector(self, agent: str) -> np.ndarray:
        """The features that only round changes, resolutions and the game's end move
        (phase, active, turns used and retries left at 0)."""
        L, i, sc, st = self.layout, self._fi, self.scenario, self._states[agent]
        redact = self.config.is_shifting(agent)  # D.8: the shifting agent sees only the current round
        v = self._scenario_features(sc, agent).copy()
        v[i["round"]] = 0 if redact else self.round
        v[i["num_rounds"]] = 1 if redact else self.config.num_rounds
        # 0: unlimited talk (a safety cap is the harness's, not the game's, so it is not shown)
        v[i["turns_limit"]] = self.config.cheap_talk_turns if self.config.cheap_talk else 0
        # the previous round's result, unless this agent's context was reset since
        visible = self.history and not (redact and len(self.history) == self.round and self.phase not in ("done", "reflection"))
        if visible:
            last = self.history[-1]
            v[L.slice("last_own_purchase")] = [q for _, q in last.decision(agent).purchase]
            v[L.slice("last_opponent_purchase")] = [q for _, q in last.decision(self.other(agent)).purchase]
            v[i["last_outcome"] + ("standard", "annulled", "no_runs").index(last.kind_of(agent))] = 1
            v[i["last_reward"]] = last.reward(agent)
        v[i["cumulative_reward"]] = (self.history[-1].reward(agent) if visible else 0.0) if redact else st.cumulative
        return v

    def _scenario_features(self, sc: Scenario, agent: str) -> np.ndarray:
        """The entries a scenario fixes for an agent (budget, type limit, supply, cost, its
        projects), all others 0; kept per scenario for the game's life (scenarios are
        frozen, and the cache holds the object its id names)."""
        key = (id(sc), agent)
        kept = self._scenario_feats.get(key)
        if kept is not None and kept[0] is sc:
            return kept[1]
        L = self.layout
        v = L.empty()
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
        self._scenario_feats[key] = (sc, v)
        return v

    def round_outcome(self, index: int) -> dict[str, Any]:
        """Round ``index``'s outcome, built once (history is append-only): the same dict
        for every agent's info and every later step, as the matrix game's ``last_round``
        is; infos are read-only."""
        if index < 0:  # as before: not kept (a negative index reads history from the end)
            return self._round_outcome(index)
        while len(self._outcomes) <= index:
            self._outcomes.append(self._round_outcome(len(self._outcomes)))
        return self._outcomes[index]

    def _round_outcome(self, index: int) -> dict[str, Any]:
        o = self.history[index]
        M = self.solution_for(self.scenario_of(index)).joint_max
        joint = o.joint_reward  # (a sum over the agents, read once)
        return {
            "round": index + 1,
            "scenario": self.scenario_of(index).name,
            "overdraw": o.overdraw,
            "overdrawn_resources": list(o.overdrawn_resources),
            "kind": dict(o.kind),
            "rewards": dict(o.rewards),
            "joint_reward": joint,
            "joint_max": M,
            "efficiency": joint / M if M > 0 else 1.0,
            "optimal": joint >= M - _TOL,
            "purchases": {a: d.purchase_dict() for a, d in o.decisions},
            "runs": {a: d.runs_dict() for a, d in o.decisions},
            "declared_runs": {a: d.declared_dict() for a, d in o.decisions},
            "fallback": dict(self.history_fallbacks[index]),
            "fallback_agents": sorted(self.history_fallbacks[index]),
            "talk_truncated": self.history_truncated[index],
            "theme": self.round_themes[index],
            "resource_names": dict(self.round_names[index].display),
        }

    def info(self, agent: str) -> dict[str, Any]:
        st = self._states[agent]
        # what every agent's info shares is kept while round, phase and resolved rounds
        # stay (cleared by reset; one resource_names dict per state, as last_round is one
        # dict: infos are read-only)
        at = (self.round, self.phase, len(self.history))
        shared = self._info_shared
        if shared is None or shared[0] != at:
            shared = self._info_shared = (
                at, min(self.round + 1, self.config.num_rounds), self.scenario.name,
                self.round_outcome(len(self.history) - 1) if self.history else None, self.theme,
                dict(self.names.display))
        return {
            "round": shared[1],
            "phase": self.phase,
            "scenario": shared[2],
            "events": list(self.agent_events[agent]),
            "last_turn": st.last_turn,
            "last_round": shared[3],
            "reflection": self.reflections.get(agent),
            "theme": shared[4],
            "resource_names": shared[5],
        }


def _decision_dict(d: Decision | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"purchase": d.purchase_dict(), "runs": d.runs_dict(), "auto_assigned": d.auto_assigned,
            "declared_runs": d.declared_dict()}

