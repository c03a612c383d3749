"""The rulemaking negotiation as a :class:`~negotiation_env.core.game.Game` (seed 001 §3).

A run has five parties (the convening authority first, then the four stakeholders, in
the scenario's order) and at most ``max_turns`` turns. Parties move one at a time in
that order, cycling; a party that plays Exit leaves and is skipped from then on, and
the run ends after the last turn, when fewer than two parties remain, or, with
``early_end`` (default ``"agreement"``), as soon as the classifier labels the record so
far an agreement (two parties sustaining a concession, or a consensus) after a full
closing stretch (:func:`~negotiation_env.games.rulemaking.classifier.agreement_reached`).

Each turn the acting party gets a fresh two-message conversation: the system prompt
(its brief, the scenario, the rules, the deadline sentence, the response format of the
condition) and the turn prompt (turn counter, this run's parameters, the last
``history_window`` public turns, its own private state and, in ``digest``, the
read-only digest). Nothing else is remembered: the env owns the history window.

An invalid response is recorded in ``info["events"]`` and the party is asked again with
the error, up to ``max_retries`` times; then the harness records Oppose for it. Each
recorded turn keeps its provenance: ``genuine`` (valid at the first attempt),
``retried`` (valid after a re-prompt) or ``fallback`` (Oppose inserted).

After the final turn the deterministic classifier labels the run (compromise,
consensus, authority decision, deadlock); ``info["outcome"]`` carries the label, why the
run ended (``end_reason``: agreement, horizon, exits), the worst-case recode (labelled
and ended by the same ending rule: ``worst_case_label``, ``worst_case_turns``), the 3 x 3
sensitivity relabelling and the process measures.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces

from ...core.answers import ANSWER_CHARS, REFUSED_ANSWER_CHARS
from ...core.config import ConfigError, check_choice, check_int, check_no_effect
from ...core.chat import ChatGame
from ...core.game import NO_REWARDS
from ...core.jsontext import ParseError
from ...core.memo import Memo, action_key
from ...core.spaces import OBS_TEXT_MAX, action_text, chat_observation_space, obs_text, quoted_line, sanitize
from . import answer_schema, prompts
from .classifier import (EARLY_ENDS, ClassifierConfig, agreement_reached, classify, classify_as_played,
                         concession_arc, horizon_exhausted, normalized_entropy, recode_worst_case, sensitivity,
                         trajectory)
from .features import CONDITIONS, LAYOUT
from .parser import MAX_FIELD_CHARS, NOTES_MAX_CHARS, Move, ParseLimits, parse_structured, parse_text, private_key
from .prompts import NOTEBOOK_FIELDS
from .rules import MOVES, PROVENANCES, SOFTENING, RunState, Turn
from .scenario import ATTENTION_MODES, RulemakingScenario, ScenarioError, load_scenario

__all__ = ["RulemakingConfig", "RulemakingGame", "CONDITIONS", "REWARDS"]

REWARDS = ("agreement", "none")
#: feature entry -> its first index (features.LAYOUT)
_FI = {name: start for name, start, _size in LAYOUT.table()}
_MOVE_INDEX = {m: k for k, m in enumerate(MOVES)}
#: the feature layout _features writes entry by entry, in order
_ORDER = ("turn", "max_turns", "turns_left", "own_turns_left", "active", "retries", "is_authority", "exited",
          "active_parties", "salience", "attention", "coordinated", "moves", "recent_moves",
          "others_recent_softening", "others_recent_concessions", "own_moves", "own_last_move", "condition")
assert tuple(LAYOUT.names) == _ORDER, "features.LAYOUT changed: update _features"
_NO_MOVES = (0,) * len(MOVES)
#: own_last_move one-hots (None: no move yet)
_LAST_MOVE = {None: _NO_MOVES, **{k: tuple(int(j == k) for j in range(len(MOVES))) for k in range(len(MOVES))}}
AGREEMENT = ("compromise", "consensus")

#: per-turn output-token budget of each condition: seed 001 Table 1 (None 384, Ledger 1024,
#: Native 1024: Gemini and GPT-5.2; DeepSeek's deployed floor is 768) and §7's controls,
#: which the paper runs "at the same budget" as the Ledger (free-form notes, the three
#: generic notebooks, the relabelled ledger: 1024) or as None (the read-only digest is
#: injected into None and writes None's output: 384)
TOKEN_BUDGETS: dict[str, int] = {
    "none": 384, "ledger": 1024, "native": 1024, "notes": 1024, "notebook_state": 1024,
    "notebook_process": 1024, "notebook_message": 1024, "digest": 384, "ledger_relabelled": 1024,
}
MAX_TOKEN_BUDGET = 1_000_000


@dataclass(frozen=True)
class RulemakingConfig:
    """Configuration of the rulemaking game; every field is checked when the env is built.

    environment: ``"E1"``, ``"E2"``, ``"E3"``, a path to a scenario JSON file, or a
        :class:`RulemakingScenario`.
    condition: one of :data:`CONDITIONS` (the rulemaking docs page says what each adds).
    max_turns: the horizon: a run lasts at most this many turns (15), after which the
        authority decides what stays unresolved.
    history_window: how many of the latest public turns each turn prompt shows (5).
    max_retries: re-prompts after an invalid answer before the harness records Oppose
        for the party (``move_fallback``).
    closing_turns: the length of the closing stretch the outcome classifier reads (5).
    compromise_parties: how many distinct parties must sustain a concession through the
        closing stretch for a compromise (2).
    sustain_turns: for how many of its own turns a party must hold a concession (a
        Concede, then only Concede or Support up to its latest turn) before it counts
        while the run goes on (2): with five parties, a Concede still held one full cycle
        later. Once the run is over, a held Concede in the closing stretch counts too.
        Not used with ``early_end="window"``.
    consensus_share: the share of Support moves in the closing stretch, with no Oppose or
        Exit, that makes a consensus (0.8).
    min_turns: the shortest run the authority can decide; a shorter one is a deadlock (5).
    max_rationale_chars: a rationale longer than this is cut (``output_format_warning``).
    reward: ``"agreement"`` (after the final turn every party still at the table gets
        1 when the label is compromise or consensus, else 0) or ``"none"`` (all zero).
    early_end: which agreement ends a run before ``max_turns``: ``"agreement"`` (the
        default: the classifier's compromise or consensus on the record so far, once a
        full closing stretch of ``max(closing_turns, min_turns)`` turns is played; seed
        001 §3, §5, §6.1: runs last "at most 15 turns" and only agreeing runs end short),
        ``"window"`` (the same, with compromise read within one closing stretch: any
        ``compromise_parties`` Concedes in one five-turn cycle end and label the run,
        held or not), ``"consensus"`` (only consensus) or ``"never"`` (every run to the
        horizon).
    output_budgets: the per-turn output-token budget of each condition, a mapping merged
        over :data:`TOKEN_BUDGETS` (seed 001 Table 1: None 384, Ledger 1024, Native 1024;
        the §7 controls at the budget of the condition they control). The run's budget,
        ``output_budgets[condition]``, reaches the acting party as ``max_tokens`` in its
        observation and info and is recorded in the outcome: the LLM policies
        (``baselines.llm``) cap each answer there unless they set a budget of their own;
        the game cannot count a scripted policy's tokens and never cuts an answer by it
        (the field name avoids "token", which traces redact).
    notes_max_chars: the cap of the ``notes`` condition's free-form notes, in characters;
        by default the Ledger's budget, the most the Ledger may hold (five fields of
        ``max_field_chars``: 5,000), since §7 runs the notes "at the same budget" as the
        Ledger (a non-default value in another condition is warned about,
        ``UserWarning``: it cannot count).
    max_sentences, max_field_chars: the caps of each field of a five-field notebook
        (``ledger``, ``notebook_*``); a non-default value in a condition without one is
        warned about.
    attention: how a run's external attention is sampled and shown: ``"scale"`` (the
        default: a value on [0, 1] in two decimals within the band of the level drawn by
        the scenario's weights, shown with the level's word, "high (0.62)"; §6.2's 15
        runs "received 12 distinct sampled attention levels") or ``"levels"`` (the
        level's word only, one of four in the shipped scenarios). Both draw the same
        random numbers, so a seed gives the same level in both.
    """

    environment: Any = "E1"
    condition: str = "none"
    max_turns: int = 15
    history_window: int = 5
    max_retries: int = 2
    reward: str = "agreement"
    closing_turns: int = 5
    compromise_parties: int = 2
    consensus_share: float = 0.8
    min_turns: int = 5
    sustain_turns: int = 2
    early_end: str = "agreement"
    output_budgets: Mapping[str, int] = field(default_factory=lambda: dict(TOKEN_BUDGETS))
    max_rationale_chars: int = 1000
    max_sentences: int = 5
    notes_max_chars: int = NOTES_MAX_CHARS
    max_field_chars: int = MAX_FIELD_CHARS
    attention: str = "scale"

    def __post_init__(self):
        object.__setattr__(self, "environment", _as_scenario(self.environment))
        check_choice("condition", self.condition, CONDITIONS)
        check_int("max_turns", self.max_turns, 1, 1000)
        check_int("history_window", self.history_window, 0, 1000)
        check_int("max_retries", self.max_retries, 0, 100)
        check_choice("reward", self.reward, REWARDS)
        check_int("closing_turns", self.closing_turns, 1, 1000)
        check_int("compromise_parties", self.compromise_parties, 1, 5)
        share = self.consensus_share
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1:
            raise ConfigError(f"config field 'consensus_share' must be a number in (0, 1]; got {share!r}")
        check_int("min_turns", self.min_turns, 0, 1000)
        check_int("sustain_turns", self.sustain_turns, 1, 1000)
        check_choice("early_end", self.early_end, tuple(EARLY_ENDS))
        object.__setattr__(self, "output_budgets", _budgets(self.output_budgets))
        check_int("max_rationale_chars", self.max_rationale_chars, 1, 1_000_000)
        check_int("max_sentences", self.max_sentences, 1, 100)
        check_int("notes_max_chars", self.notes_max_chars, 1, 1_000_000)
        check_int("max_field_chars", self.max_field_chars, 1, 1_000_000)
        check_choice("attention", self.attention, ATTENTION_MODES)
        # the private-state limits count only in the conditions that have that state
        # warned, not refused, since one run crosses the conditions as a factor
        check_no_effect(self, "notes_max_chars", active=self.condition == "notes", other="condition",
                        counts_with="condition='notes'")
        notebooks = " or ".join(map(repr, NOTEBOOK_FIELDS))
        for name in ("max_sentences", "max_field_chars"):
            check_no_effect(self, name, active=self.condition in NOTEBOOK_FIELDS, other="condition",
                            counts_with=f"condition={notebooks}")
        check_no_effect(self, "sustain_turns", active=self.early_end != "window", other="early_end",
                        counts_with="an early_end other than 'window'")

    @property
    def classifier(self) -> ClassifierConfig:
        return ClassifierConfig(self.closing_turns, self.compromise_parties, float(self.consensus_share), self.min_turns,
                                self.sustain_turns, "window" if self.early_end == "window" else "sustained")

    @property
    def max_tokens(self) -> int:
        """This run's per-turn output-token budget (``output_budgets[condition]``)."""
        return self.output_budgets[self.condition]

    @property
    def limits(self) -> ParseLimits:
        return ParseLimits(self.max_rationale_chars, self.max_sentences, self.notes_max_chars, self.max_field_chars)


def _budgets(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"config field 'output_budgets' must be a mapping of condition to tokens; "
                          f"got {type(value).__name__}")
    out = dict(TOKEN_BUDGETS)
    for k, v in value.items():
        if k not in CONDITIONS:
            raise ConfigError(f"config field 'output_budgets' has unknown condition {k!r}; conditions: "
                              f"{', '.join(CONDITIONS)}")
        check_int(f"output_budgets.{k}", v, 1, MAX_TOKEN_BUDGET)
        out[k] = int(v)
    return out


def _as_scenario(sc: Any) -> RulemakingScenario:
    if isinstance(sc, RulemakingScenario):
        return sc
    if not isinstance(sc, (str, Path)):
        raise ConfigError(f"config field 'environment' must be E1, E2, E3, a scenario file path or a "
                          f"RulemakingScenario; got {type(sc).__name__}")
    try:
        return load_scenario(sc)
    except ScenarioError as e:
        raise ConfigError(f"config field 'environment': {e}") from None


class RulemakingGame(ChatGame):
    metadata = {"name": "rulemaking_v1", "is_parallelizable": True}

    def __init__(self, config: RulemakingConfig):
        super().__init__()
        self.config = config
        self.scenario: RulemakingScenario = config.environment
        self.possible_agents = self.scenario.party_ids
        self.authority = self.scenario.authority
        self._classifier = config.classifier  # (a new ClassifierConfig on every read of the property)
        self._max_tokens = config.max_tokens
        self._system = {p: prompts.render_system(self.scenario, p, config.condition, config.max_turns,
                                                 notes_max_chars=config.notes_max_chars)
                        for p in self.possible_agents}
        self._obs_space = chat_observation_space(LAYOUT.space(), reasoning=spaces.Discrete(2),
                                                 answer_format=obs_text(OBS_TEXT_MAX),
                                                 max_tokens=spaces.Discrete(MAX_TOKEN_BUDGET + 1))
        n = config.max_rationale_chars
        self._act_space = spaces.Dict({
            "move": spaces.Discrete(len(MOVES)),
            "issue": spaces.Discrete(len(self.scenario.issues) + 1),
            "rationale": action_text(n),
            "private": action_text(max(n, config.notes_max_chars, 4000)),
        })
        self.run: RunState = RunState(self.possible_agents, config.max_turns)
        self.params: dict[str, Any] = {}
        self.outcome: dict[str, Any] | None = None
        self._private: dict[str, Any] = {}
        self._retry_msgs: list[dict[str, str]] = []
        self._retries = 0
        self._last_turn: Turn | None = None
        #: info["last_turn"] of the latest turn: (the party's, with its raw answer; the others')
        self._last_turn_info: tuple[dict[str, Any], dict[str, Any]] | None = None
        self._last_private: dict[str, Any] = {}
        self._forget()
        self._parsed = Memo()  # structured moves by content (step)

    def _forget(self) -> None:
        """Drop what observe() and acting() keep for the current run (see "observation / info")."""
        self._acting_at: tuple | None = None
        self._acting: tuple[str, ...] = ()
        self._prompt_at: tuple | None = None
        self._prompt = ""
        self._static: dict[str, tuple] = {}  # (_features)
        self._lines: dict[int, tuple[Turn, str]] = {}
        self._line_run: RunState | None = None  # the run _line_texts holds the lines of
        self._line_texts: list[str] = []  # (_history_lines)
        self._counted = 0
        self._move_counts = [0] * len(MOVES)
        self._own_counts = {p: [0] * len(MOVES) for p in self.possible_agents}
        self._own_last: dict[str, int] = {}

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # ----------------------------------------------------------------- lifecycle

    def reset(self, rng: np.random.Generator) -> None:
        self.run = RunState(self.possible_agents, self.config.max_turns)
        self.params = self.scenario.draw_parameters(rng, attention=self.config.attention)
        self._start_record()
        self.outcome = None
        self._private = {p: None for p in self.possible_agents}
        self._retry_msgs = []
        self._retries = 0
        self._last_turn = None
        self._last_turn_info = None
        self._last_private = {}
        self._forget()
        pr = self.params
        self.transcript.append(
            f"=== {self.scenario.id} {self.scenario.name}: {self.scenario.title} "
            f"(condition {self.config.condition}; budget {self.config.max_tokens} tokens; "
            f"attention {prompts.attention_text(pr)}; "
            f"opposition {'coordinated' if pr['opposition_coordinated'] else 'separate'}) ==="
        )

    @property
    def done(self) -> bool:
        return self.run.done

    def _moved(self) -> tuple:
        """What names the run's state: a recorded turn, an exit or an early end moves it."""
        run = self.run
        return (id(run), len(run.turns), run.concluded, len(run.exited))

    def acting(self) -> tuple[str, ...]:
        at = self._moved()
        if at != self._acting_at:
            p = self.run.current()
            self._acting = () if p is None else (p,)
            self._acting_at = at
        return self._acting

    # ----------------------------------------------------------------- prompts

    def _turn_prompt(self, party: str) -> str:
        cfg, run = self.config, self.run
        notebook = None
        key = private_key(cfg.condition)
        if key is not None:
            value = self._private[party]
            notebook = "(empty: this is your first turn)" if value is None else prompts.render_notebook(cfg.condition, value)
        digest = None
        if cfg.condition == "digest":
            digest = prompts.render_digest(self.scenario, run.turns, run.exited, run.turns_left())
        return prompts.render_turn(
            self.scenario, party, turn=run.turn_index, max_turns=cfg.max_turns, params=self.params,
            history=run.turns, window=cfg.history_window, notebook=notebook, digest=digest,
            line=self._history_line, lines=self._history_lines(),
        )

    def _history_lines(self) -> list[str]:
        """The history line of every recorded turn, in order (turns are only appended)."""
        run, lines = self.run, self._line_texts
        if self._line_run is not run:
            self._line_run, lines = run, []
            self._line_texts = lines
        turns = run.turns
        while len(lines) < len(turns):
            lines.append(self._history_line(turns[len(lines)]))
        return lines

    def _history_line(self, t: Turn) -> str:
        """A recorded turn's history line, rendered once (turns never change once recorded)."""
        kept = self._lines.get(t.index)
        if kept is None or kept[0] is not t:
            kept = self._lines[t.index] = (t, prompts.render_history_line(self.scenario, t))
        return kept[1]

    def conversation(self, party: str, acting: bool | None = None) -> list[dict[str, str]]:
        """The chat the party answers now: system + turn prompt (+ its invalid answers and
        the error messages while it is being re-prompted). ``acting``: whether the party
        acts now, when the caller knows."""
        conv = [{"role": "system", "content": self._system[party]}]
        if party in self.acting() if acting is None else acting:
            conv.append({"role": "user", "content": self._kept_turn_prompt(party)})
            conv.extend(self._retry_msgs)
        return conv

    def _kept_turn_prompt(self, party: str) -> str:
        """:meth:`_turn_prompt`, rendered once per state of the run (a retry re-sends it)."""
        at = (self._moved(), party)
        if at != self._prompt_at:
            self._prompt = self._turn_prompt(party)
            self._prompt_at = at
        return self._prompt

    # ----------------------------------------------------------------- step

    def step(self, agent: str, action: Any) -> dict[str, float]:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        self._begin_step(agent)
        action = self._encodable(agent, action)  # no surrogate reaches a prompt, event or trace
        key = None if isinstance(action, str) else action_key(action)
        if isinstance(action, str):
            raw = action
        else:
            raw = self._describe(action, key)
        try:
            mv = self._parse(action, key)
        except ParseError as e:
            # kept bounded: the retry messages re-send it with every retry (core.answers); they
            # keep a text answer as sent (a model reads back what it generated) up to that bound
            kept = self._kept(agent, raw, REFUSED_ANSWER_CHARS)
            return self._invalid(agent, kept, str(e), kept if isinstance(action, str) else sanitize(kept))
        raw = self._kept(agent, raw, ANSWER_CHARS)
        for w in mv.warnings:
            self._event(agent, "output_format_warning", message=w)
        provenance = "retried" if self._retries else "genuine"
        return self._record(agent, mv, provenance, raw)

    def _parse(self, action: Any, key: tuple | None) -> Move:
        """The move ``action`` makes (``key``: its :func:`action_key`); raises ParseError."""
        cfg = self.config
        if isinstance(action, str):
            return parse_text(action, self.scenario, cfg.condition, cfg.limits)
        # parsed once per content (parse_structured reads only the action and the
        # config); a move with a notebook object is parsed each time (its dict
        # becomes the party's own private state)
        mv = self._parsed.get(key) if key is not None else None
        if mv is None:
            mv = parse_structured(action, self.scenario, cfg.condition, cfg.limits)
            if key is not None and not isinstance(mv.private, dict):
                self._parsed.put(key, mv)
        return mv

    def check_answer(self, agent: str, action: Any) -> str | None:
        if agent not in self.acting():
            raise ValueError(f"{agent} cannot act now; acting: {list(self.acting())}")
        action = self._encodable_parts(action)[0]
        try:
            self._parse(action, None if isinstance(action, str) else action_key(action))
        except ParseError as e:
            return str(e)
        return None

    def _invalid(self, agent: str, raw: str, error: str, sent: str) -> dict[str, float]:
        self._retries += 1
        self._event(agent, "validation_error", message=error, text=raw, attempt=self._retries)
        self.transcript.append(f"[invalid] {agent}: {error}")
        if self._retries <= self.config.max_retries:
            self._retry_msgs += [
                {"role": "assistant", "content": sent},
                {"role": "user", "content": prompts.INVALID.format(error=error)},
            ]
            return NO_REWARDS
        self._event(agent, "move_fallback", message=f"no valid move after {self.config.max_retries} retries; recorded Oppose")
        return self._record(agent, Move("Oppose", None, prompts.FALLBACK_RATIONALE), "fallback", raw)

    def _record(self, agent: str, mv: Move, provenance: str, raw: str) -> dict[str, float]:
        turn = self.run.record(agent, mv.move, mv.issue, sanitize(mv.rationale), provenance)
        if mv.private is not None:
            self._private[agent] = mv.private
        self._retry_msgs = []
        self._retries = 0
        self._last_turn = turn
        # made once a turn and shared by every party's info (infos are read-only)
        others = {"turn": turn.index + 1, "party": turn.party, "move": turn.move, "issue": turn.issue,
                  "rationale": turn.rationale, "provenance": turn.provenance, "raw": None}
        self._last_turn_info = ({**others, "raw": raw}, others)
        self._last_private = {agent: mv.private}
        issue = f" on {turn.issue}" if turn.issue else ""
        tag = "" if provenance == "genuine" else f" [{provenance}]"
        self.transcript.append(f"Turn {turn.index + 1}, {agent}: {turn.move}{issue}{tag} — {quoted_line(turn.rationale)}")
        if turn.move == "Exit":
            self._event(agent, "exit", message=f"{agent} left the negotiation")
        if not self.run.done and agreement_reached(self.run.turns, self.authority, self.config.early_end,
                                                   self._classifier):
            self.run.conclude()
        if self.run.done:
            return self._finish()
        return NO_REWARDS

    def _finish(self) -> dict[str, float]:
        turns, cfg = self.run.turns, self.config
        label = classify(turns, self.authority, cfg.classifier)
        prov = {p: sum(t.provenance == p for t in turns) for p in PROVENANCES}
        worst, worst_turns = label, len(turns)
        if prov["genuine"] < len(turns):
            # the recoded record is played by the game's ending rule: it may have reached
            # agreement, and ended, before the record as played did
            worst, worst_turns = classify_as_played(recode_worst_case(turns), self.authority, cfg.early_end,
                                                    cfg.classifier)
        self.outcome = {
            "label": label,
            "agreement": label in AGREEMENT,
            "worst_case_label": worst,
            "worst_case_turns": worst_turns,
            # this run's label survives the worst-case recode (§6.3): an agreement, or a
            # no-agreement whose recoded record does not reach agreement either
            "certified": label in AGREEMENT or worst not in AGREEMENT,
            "sensitivity": {f"{k}x{s:g}": v for (k, s), v in sensitivity(turns, self.authority, cfg.classifier).items()},
            "turns": len(turns),
            "end_reason": self.run.end_reason,
            "max_tokens": cfg.max_tokens,
            "entropy": normalized_entropy(turns),
            "horizon_exhausted": horizon_exhausted(turns, cfg.max_turns),
            "concession_arc": concession_arc(turns),
            "trajectory": list(trajectory(turns)),
            "provenance": prov,
            "genuine_share": prov["genuine"] / len(turns) if turns else 1.0,
            "move_counts": {m: sum(t.move == m for t in turns) for m in MOVES},
            "exited": sorted(self.run.exited),
        }
        self.transcript.append(f"=== Outcome: {label} (worst-case recode: {worst}) ===")
        if cfg.reward == "agreement" and label in AGREEMENT:
            return {p: (0.0 if p in self.run.exited else 1.0) for p in self.possible_agents}
        return NO_REWARDS

    def _event_place(self) -> dict[str, Any]:
        return {"turn": self.run.turn_index + 1}

    # ----------------------------------------------------------------- observation / info

    def _chat_view(self, agent: str, acting: bool) -> tuple[str, tuple]:
        conv = self.conversation(agent, acting)
        return (conv[-1]["content"] if len(conv) > 1 else ""), tuple(conv)

    def _extra_observation(self, agent: str, acting: bool) -> dict[str, Any]:
        return {"reasoning": int(self.config.condition == "native"), "max_tokens": self._max_tokens}

    def _answer_format(self, agent: str, acting: bool) -> str:
        return self._answer_spec if acting else ""

    @functools.cached_property
    def _answer_spec(self) -> str:
        """The spec of a move (:mod:`.answer_schema`): the same for every party and turn."""
        cfg = self.config
        return json.dumps(answer_schema.spec(self.scenario, cfg.condition, cfg.limits))

    # What an observation needs is kept between calls: the acting party and its
    # turn prompt once per state of the run (a recorded turn, an exit, an early end;
    # _moved), each party's run-constant features (config and this run's parameters)
    # once per run, and the move counts as turns are recorded, so a feature vector does
    # not sum over the whole record. reset() drops all of it (_forget).

    def _features(self, agent: str, acting: bool | None = None) -> np.ndarray:
        """The feature vector, made in one array conversion from a list laid out as
        LAYOUT (_ORDER): the run-constant entries kept per party (as Python floats, exact
        copies of the float32 values), the others read now."""
        run, cfg = self.run, self.config
        static = self._static.get(agent)
        if static is None:
            v, i = self._static_features(agent).tolist(), _FI
            static = self._static[agent] = (v[i["max_turns"]], v[i["is_authority"]], v[i["salience"]],
                                            v[i["attention"]], v[i["coordinated"]], v[i["condition"]:])
        max_turns, is_authority, salience, attention, coordinated, condition = static
        turns = run.turns
        n = len(turns)
        if self._counted != n:
            self._count_moves()
        window = turns[-cfg.history_window:] if cfg.history_window else []
        if acting is None:
            acting = agent in self.acting()
        if window:
            recent = [0] * len(MOVES)
            softening = concessions = 0
            for t in window:
                recent[_MOVE_INDEX[t.move]] += 1
                if t.party != agent:
                    softening += t.move in SOFTENING
                    concessions += t.move == "Concede"
        else:
            recent, softening, concessions = _NO_MOVES, 0, 0
        return np.array([
            n, max_turns, run.turns_left(), self._own_turns_left(agent), float(acting),
            self._retries if acting else 0, is_authority, float(agent in run.exited),
            len(run.active_parties), salience, attention, coordinated,
            *self._move_counts, *recent, softening, concessions, *self._own_counts[agent],
            *_LAST_MOVE[self._own_last.get(agent)], *condition,
        ], dtype=np.float32)

    def _static_features(self, agent: str) -> np.ndarray:  # (entries outside the run-constant ones stay 0)
        """The entries a run fixes for a party: the config's and this run's parameters."""
        L, cfg, i = LAYOUT, self.config, _FI
        v = L.empty()
        v[i["max_turns"]] = cfg.max_turns
        v[i["is_authority"]] = float(agent == self.authority)
        v[i["salience"]] = self.params["salience"][agent]
        if "attention_value" in self.params:
            v[i["attention"]] = self.params["attention_value"]
        else:
            levels = self.scenario.parameters.attention_levels
            v[i["attention"]] = levels.index(self.params["external_attention"]) / max(1, len(levels) - 1)
        v[i["coordinated"]] = float(self.params["opposition_coordinated"])
        v[i["condition"] + CONDITIONS.index(cfg.condition)] = 1
        return v

    def _count_moves(self) -> None:
        """Add the turns recorded since the last count to the move counts (all parties,
        each party's own, each party's last move)."""
        turns = self.run.turns
        for t in turns[self._counted:]:
            m = _MOVE_INDEX[t.move]
            self._move_counts[m] += 1
            self._own_counts[t.party][m] += 1
            self._own_last[t.party] = m
        self._counted = len(turns)

    def _own_turns_left(self, agent: str) -> int:
        """Turns left to ``agent`` if the current set of parties stays at the table."""
        run = self.run
        if agent in run.exited or run.done:
            return 0
        order = run.active_parties
        cur = run.current()
        pos = (order.index(agent) - order.index(cur)) % len(order)
        left = run.turns_left()
        return 0 if pos >= left else 1 + (left - 1 - pos) // len(order)

    def info(self, agent: str) -> dict[str, Any]:
        last, done = self._last_turn_info, self.run.done
        return {
            "turn": self.run.turn_index + (0 if done else 1),
            "condition": self.config.condition,
            "max_tokens": self._max_tokens,
            "environment": self.scenario.id,
            "params": self.params,
            "events": list(self.agent_events.get(agent, ())),
            "last_turn": None if last is None else last[0] if last[0]["party"] == agent else last[1],
            "private": self._private.get(agent),
            "outcome": self.outcome,
            # the conventions every game follows, so traces treat a run as one round
            "round": 1,
            "phase": "done" if done else "negotiation",
            "last_round": None if self.outcome is None else {"round": 1, **self.outcome},
        }

    # ----------------------------------------------------------------- public record

    @property
    def turns(self) -> list[Turn]:
        return list(self.run.turns)

    def recoded(self) -> list[Turn]:
        return recode_worst_case(self.run.turns)

