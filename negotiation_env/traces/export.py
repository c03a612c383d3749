"""Datasets from traces: Parquet (pyarrow), JSON Lines, or Hugging Face ``datasets``.

Four kinds, each a documented Arrow schema (:data:`SCHEMAS`). ``source`` is anything
:func:`~.reader.iter_traces` reads (a run folder, a ``.jsonl`` file) or a list of
:class:`~.schema.GameTrace`; files are streamed, so exports of large runs stay small in
memory. Every kind takes ``games`` (game ids, e.g. ``["resource"]``): only traces of
those games are read.

``transitions`` (offline RL; one row per action the env took, retries included)
    episode_id str      the game id (runner: the game key)
    game, agent, policy str, who acted (policy: the run's label, else spec, else name)
    condition, scenario str | null, the runner condition and the game's scenario
    step int32          index of the step in the game; t int32: the agent's own step count
    round int32 | null, phase str | null: where it acted
    observation list<float32>       the agent's numeric features before acting
    next_observation list<float32>  its features at its next step (after the game: the
                                    final features), null if not recorded
    action str          the structured action the env applied, JSON (the parsed
                        action without its raw text; null when refused)
    action_text str     the raw action (text, or the structured action as JSON)
    action_vector list<float32> | null, a fixed-length numeric action for the game, from
                        the action the env parsed (:data:`ACTION_ENCODERS`); null for a
                        refused step or a game without an encoder:
                        resource: [decide, purchase per resource..., runs per project...]
                          (resources and projects in the trace's order; all 0 when talking),
                          length 1 + resources + projects;
                        matrix: [decide, A, B]: [1, 1, 0] chose A, [1, 0, 1] chose B,
                          [0, 0, 0] a message or acknowledgement turn (talk treatment),
                          length 3;
                        rulemaking: one-hot move over rules.MOVES (Support, Oppose, Concede,
                          Counter, Exit), then one-hot issue [none, the k issues in
                          scenario order] (the structured action's ``move`` and ``issue`` ids), length
                          5 + k + 1; null when the trace's scenario cannot be loaded by the
                          id or name its config stores
    valid bool          the env accepted the action
    reward float64      what this agent was paid from this step up to its next step
                        (multi-agent to single-agent: rewards a partner's step triggers
                        count for the agent whose turn led there)
    return_to_go float64  the agent's rewards from this step to the end of the game
    done bool           no later step of this agent; terminated / truncated bool: why

``sft`` (supervised fine-tuning in TRL's conversational format; one row per agent turn)
    messages list<struct<role str, content str>>  the exact context the agent saw (system
                        prompt, history, latest prompt) followed by its answer as the
                        assistant message
    episode_id, game, agent, policy, condition, scenario, step, round, phase  as above
    valid bool, optimal bool | null, efficiency float64 | null, reward float64 | null:
                        the step's validity and its round's outcome (reward: the agent's)
    Filters: ``games``, ``only_optimal`` (jointly optimal rounds only; the round outcome's
    ``optimal`` field, which only resource rounds have), ``min_efficiency`` (likewise
    ``efficiency``), ``valid_only`` (default True), ``policies`` (labels), ``agents``,
    ``phases``.

``sft_prompt_completion`` (TRL's conversational prompt-completion format; the same rows,
filters and metadata as ``sft``)
    prompt list<struct<role, content>>      the exact context the agent saw
    completion list<struct<role, content>>  its answer, one assistant message
    With a prompt-completion dataset TRL's ``SFTTrainer`` computes the loss on the
    completion only by default (``SFTConfig.completion_only_loss=None``), so the model
    learns the answers, not the game's prompts; with ``sft``'s ``messages`` it trains on
    every token unless ``assistant_only_loss=True`` is set.

``preferences`` (DPO-style pairs in TRL's conversational preference format)
    prompt list<struct<role, content>>  a decision state: the same context reached in
                        several games (with the runner's common random numbers, every
                        pairing plays the same games, so states recur)
    chosen, rejected list<struct<role, content>>  the assistant answer with the best and
                        the worst mean recorded outcome at that state (different answers,
                        outcome gap > ``margin``)
    state_id str        hash of the state; game, agent str
    score str           the outcome measure: "reward" (the agent's reward in that round,
                        default), "joint" (joint reward), "efficiency", or "return"
    score_chosen, score_rejected float64; n_chosen, n_rejected int32 (occurrences)
    policy_chosen, policy_rejected, episode_chosen, episode_rejected str
    Filters: ``games``.

What a model trains on (messages, prompt/chosen/rejected, action_text) never names the
policy that played: scripted policies write their reasoning, not their name, into their
private ``thinking`` (``tests/traces/test_label_leak.py`` checks every policy of every
game); who played is in the ``policy`` columns only.

Filters that name something (``games``, ``policies``, ``agents``, ``phases``) are checked
against the source when the export has read it: a value that never occurs there raises
:class:`FilterError` (the message lists what does occur), so a typo never passes as an
empty or partial selection. A filter on outcomes (``only_optimal``, ``min_efficiency``,
``margin``) that keeps nothing is not an error: the export has 0 rows, and a
:class:`Selection` passed as ``selection=`` says what each filter left out
(:meth:`Selection.explain`). :func:`write` removes its partial file when it raises.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, MutableMapping, Sequence

import pyarrow as pa

from ..core import registry
from .reader import LineProblem, iter_traces
from .schema import GameTrace, StepRecord

__all__ = ["KINDS", "SCHEMAS", "transitions", "sft_examples", "sft_prompt_completion", "preference_pairs", "rows",
           "to_table", "write", "to_dataset", "ACTION_ENCODERS", "FilterError", "Selection"]

KINDS = ("transitions", "sft", "sft_prompt_completion", "preferences")
SCORES = ("reward", "joint", "efficiency", "return")

_MESSAGES = pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
_META = [("episode_id", pa.string()), ("game", pa.string()), ("agent", pa.string()), ("policy", pa.string()),
         ("condition", pa.string()), ("scenario", pa.string())]

SCHEMAS: dict[str, pa.Schema] = {
    "transitions": pa.schema(_META + [
        ("step", pa.int32()), ("t", pa.int32()), ("round", pa.int32()), ("phase", pa.string()),
        ("observation", pa.list_(pa.float32())), ("next_observation", pa.list_(pa.float32())),
        ("action", pa.string()), ("action_text", pa.string()), ("action_vector", pa.list_(pa.float32())),
        ("valid", pa.bool_()), ("reward", pa.float64()), ("return_to_go", pa.float64()),
        ("done", pa.bool_()), ("terminated", pa.bool_()), ("truncated", pa.bool_()),
    ]),
    "sft": pa.schema([("messages", _MESSAGES)] + _META + [
        ("step", pa.int32()), ("round", pa.int32()), ("phase", pa.string()), ("valid", pa.bool_()),
        ("optimal", pa.bool_()), ("efficiency", pa.float64()), ("reward", pa.float64()),
    ]),
    "sft_prompt_completion": pa.schema([("prompt", _MESSAGES), ("completion", _MESSAGES)] + _META + [
        ("step", pa.int32()), ("round", pa.int32()), ("phase", pa.string()), ("valid", pa.bool_()),
        ("optimal", pa.bool_()), ("efficiency", pa.float64()), ("reward", pa.float64()),
    ]),
    "preferences": pa.schema([
        ("prompt", _MESSAGES), ("chosen", _MESSAGES), ("rejected", _MESSAGES), ("state_id", pa.string()),
        ("game", pa.string()), ("agent", pa.string()), ("score", pa.string()),
        ("score_chosen", pa.float64()), ("score_rejected", pa.float64()),
        ("n_chosen", pa.int32()), ("n_rejected", pa.int32()),
        ("policy_chosen", pa.string()), ("policy_rejected", pa.string()),
        ("episode_chosen", pa.string()), ("episode_rejected", pa.string()),
    ]),
}


# --------------------------------------------------------------------------- filters


class FilterError(ValueError):
    """A filter names values the source does not hold. ``field``: the option (``games``,
    ``policies``, ``agents``, ``phases``), ``unknown``: the values not found,
    ``available``: the values the source does hold (sorted)."""

    def __init__(self, field: str, unknown: Sequence[str], available: Sequence[str], message: str | None = None):
        self.field, self.unknown, self.available = field, list(unknown), sorted(available)
        have = ", ".join(self.available) if self.available else "none"
        super().__init__(message or f"{field}: {', '.join(map(repr, self.unknown))} "
                         f"{'does' if len(self.unknown) == 1 else 'do'} not occur in the source; it holds {have}")


#: what :class:`Selection` calls each filter (the library option names, in the order applied)
FILTERS = ("games", "valid_only", "policies", "agents", "phases", "only_optimal", "min_efficiency", "context")


@dataclass
class Selection:
    """What an export read and what its filters left out; pass one as ``selection=`` and
    read it after the rows are consumed.

    traces: traces read; steps: their steps (of every game); rows: rows produced.
    dropped: {filter: rows it left out}, each row counted by the first filter that left it
    out (``context``: steps without a recorded context, which cannot become chat rows).
    seen: {"game" | "policy" | "agent" | "phase": values in the whole source}.
    outcome_fields: {"optimal", "efficiency"} as far as some round outcome carries them,
    with the games whose outcomes do (``{"optimal": {"resource"}}``).
    Preferences: ``scored`` (valid steps with a score), ``states`` (decision states),
    ``contested`` (states reached with two or more different answers), ``over_margin``
    (contested states whose best and worst answers differ by more than the margin)."""

    kind: str = ""
    traces: int = 0
    steps: int = 0
    rows: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    seen: dict[str, set] = field(default_factory=lambda: {"game": set(), "policy": set(), "agent": set(),
                                                           "phase": set()})
    outcome_fields: dict[str, set] = field(default_factory=dict)
    scored: int = 0
    states: int = 0
    contested: int = 0
    over_margin: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def _drop(self, name: str) -> None:
        self.dropped[name] = self.dropped.get(name, 0) + 1

    def _read(self, trace: GameTrace) -> None:
        self.traces += 1
        self.steps += len(trace.steps)
        self.seen["game"].add(trace.game)
        self.seen["agent"].update(trace.agents)
        for a in trace.agents:
            p = _policy(trace, a)
            if p is not None:
                self.seen["policy"].add(p)
        for s in trace.steps:
            self.seen["agent"].add(s.agent)
            if s.phase is not None:
                self.seen["phase"].add(s.phase)
        for r in trace.rounds:
            if isinstance(r.outcome.get("optimal"), bool):
                self.outcome_fields.setdefault("optimal", set()).add(trace.game)
            if _number(r.outcome.get("efficiency")):
                self.outcome_fields.setdefault("efficiency", set()).add(trace.game)

    def check(self, **named: Sequence[str] | None) -> None:
        """Raise :class:`FilterError` for a named value the source never held."""
        keys = {"games": "game", "policies": "policy", "agents": "agent", "phases": "phase"}
        for opt, wanted in named.items():
            if wanted is None:
                continue
            have = self.seen[keys[opt]]
            unknown = [w for w in wanted if w not in have]
            if unknown:
                raise FilterError(opt, unknown, [str(h) for h in have])

    def explain(self, flags: dict[str, str] | None = None) -> str:
        """Why the export has the rows it has, in one paragraph (for a 0-row export):
        ``flags`` names the filters as the caller spells them (the CLI: ``--game``, ...)."""
        flags = flags or {}
        name = lambda k: flags.get(k, k)  # noqa: E731
        games = ", ".join(sorted(self.seen["game"])) or "none"
        head = f"{self.rows} rows from {self.traces} traces ({self.steps} steps; games: {games})"
        if self.traces == 0:
            return head + ": the source holds no traces"
        if self.steps == 0:
            return head + ": the traces hold no steps"
        parts = [f"{name(k)} left out {n}" for k in FILTERS if (n := self.dropped.get(k, 0))]
        notes = []
        for opt, fld in (("only_optimal", "optimal"), ("min_efficiency", "efficiency")):
            if self.options.get(opt) not in (None, False) and not self.outcome_fields.get(fld):
                notes.append(f"{name(opt)}: no round outcome of these traces has an {fld!r} field "
                             f"(games: {games}; only resource rounds record one)")
        if self.kind == "preferences":
            margin = self.options.get("margin", 0.0)
            score = self.options.get("score", "reward")
            parts.append(f"{self.scored} valid steps had a {score!r} score, at {self.states} decision states; "
                         f"{self.contested} states were reached with two or more different answers, "
                         f"{self.over_margin} of them with a score gap over the margin {margin:g}")
            if self.scored == 0 and score != "return":
                notes.append(f"the round outcomes of these traces carry no {score!r} score "
                             "(matrix and rulemaking rounds record none; score 'return' ranks by the game return)")
        return head + (": " + "; ".join(parts) if parts else "") + "".join(f". {n}" for n in notes)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# --------------------------------------------------------------------------- helpers


def _traces(source: Any, problems: list[LineProblem] | None = None) -> Iterator[GameTrace]:
    if isinstance(source, (str, Path)):
        yield from iter_traces(source, problems)
    elif isinstance(source, GameTrace):
        yield source
    else:
        for t in source:
            yield t if isinstance(t, GameTrace) else GameTrace.from_dict(t)


def _policy(trace: GameTrace, agent: str) -> str | None:
    p = trace.policies.get(agent)
    if p is None:
        return None
    return p.label or p.spec or p.name


def _meta(trace: GameTrace, agent: str) -> dict[str, Any]:
    return {"episode_id": trace.game_id, "game": trace.game, "agent": agent, "policy": _policy(trace, agent),
            "condition": trace.run.condition if trace.run else None, "scenario": trace.scenario}


def _resource_encoder(trace: GameTrace) -> Callable[[StepRecord], list[float] | None]:
    """[decide, purchase per resource, runs per project] with the trace's resource and
    project order (the order of the outcome's purchase and runs dicts)."""
    sizes: dict[str, tuple[int, int]] = {}
    for r in trace.rounds:
        for a in trace.agents:
            p, q = (r.outcome.get("purchases") or {}).get(a), (r.outcome.get("runs") or {}).get(a)
            if isinstance(p, dict) and isinstance(q, dict) and a not in sizes:
                sizes[a] = (len(p), len(q))

    def enc(step: StepRecord) -> list[float] | None:
        if not step.valid or not isinstance(step.parsed, dict):
            return None
        d = step.parsed.get("decision")
        if isinstance(d, dict):
            return [1.0] + [float(v) for v in d["purchase"].values()] + [float(v) for v in d["runs"].values()]
        n_res, n_proj = sizes.get(step.agent, (0, 0))
        return [0.0] * (1 + n_res + n_proj)

    return enc


def _matrix_encoder(trace: GameTrace) -> Callable[[StepRecord], list[float] | None]:
    """[decide, A, B]: the action-phase choice one-hot after a decide flag, all 0 for the
    message and acknowledgement turns (what the env parsed: ``last_turn["action"]``)."""
    from ..games.matrix.rules import ACTIONS

    def enc(step: StepRecord) -> list[float] | None:
        if not step.valid or not isinstance(step.parsed, dict):
            return None
        choice = step.parsed.get("action")
        if choice in ACTIONS:
            return [1.0] + [1.0 if choice == a else 0.0 for a in ACTIONS]
        return [0.0] * (1 + len(ACTIONS))

    return enc


@functools.lru_cache(maxsize=64)
def rulemaking_scenario_ref(environment: str) -> str | None:
    """What ``load_scenario`` loads for a rulemaking trace's ``config["environment"]``:
    the value itself when it is an id (``E1``) or a file path, else the id of the shipped
    scenario of that name (traces store shipped scenarios by name, ``Fragmented``); None
    when neither loads."""
    from ..games.rulemaking.scenario import ScenarioError, list_scenarios, load_scenario

    try:
        load_scenario(environment)
        return environment
    except (ScenarioError, OSError, ValueError):
        pass
    for sid in list_scenarios():
        if load_scenario(sid).name == environment:
            return sid
    return None


@functools.lru_cache(maxsize=64)
def _rulemaking_issue_ids(environment: str) -> tuple[str, ...] | None:
    from ..games.rulemaking.scenario import load_scenario

    ref = rulemaking_scenario_ref(environment)
    return None if ref is None else tuple(load_scenario(ref).issue_ids)


def _rulemaking_encoder(trace: GameTrace) -> Callable[[StepRecord], list[float] | None]:
    """one-hot move over ``MOVES``, then one-hot issue [none, the k issues in scenario order]."""
    from ..games.rulemaking.rules import MOVES

    env = trace.config.get("environment")
    issues = _rulemaking_issue_ids(env) if isinstance(env, str) else None

    def enc(step: StepRecord) -> list[float] | None:
        if issues is None or not step.valid or not isinstance(step.parsed, dict):
            return None
        move, issue = step.parsed.get("move"), step.parsed.get("issue")
        if move not in MOVES or (issue is not None and issue not in issues):
            return None
        k = 0 if issue is None else 1 + issues.index(issue)
        return [1.0 if m == move else 0.0 for m in MOVES] + [1.0 if i == k else 0.0 for i in range(len(issues) + 1)]

    return enc


def rulemaking_trace_config(config: dict[str, Any]) -> dict[str, Any]:
    """A rulemaking trace's config as the env takes it back: a shipped scenario stored by
    name becomes the id that loads (:func:`rulemaking_scenario_ref`)."""
    cfg = dict(config)
    if isinstance(cfg.get("environment"), str):
        ref = rulemaking_scenario_ref(cfg["environment"])
        if ref is not None:
            cfg["environment"] = ref
    return cfg


#: game id -> (trace -> (step -> numeric action or None)): each registered game's
#: ``action_encoder`` part (:mod:`negotiation_env.core.registry`); games without one get nulls
ACTION_ENCODERS: MutableMapping[str, Callable[[GameTrace], Callable[[StepRecord], list[float] | None]]] = \
    registry.PartTable("action_encoder")


def _structured(step: StepRecord) -> str | None:
    if not step.valid or step.parsed is None:
        return None
    p = {k: v for k, v in step.parsed.items() if k != "raw"} if isinstance(step.parsed, dict) else step.parsed
    return json.dumps(p, ensure_ascii=False, sort_keys=True)


def _answer(step: StepRecord) -> str:
    """The assistant message of a step: the text the policy wrote, or for a structured
    action the text the env recorded for it (resource: the D.1.4 JSON)."""
    if step.action_type == "text":
        return step.action
    raw = step.parsed.get("raw") if isinstance(step.parsed, dict) else None
    return raw if isinstance(raw, str) else step.action


def _context(step: StepRecord, ctx: list[dict[str, str]] | None) -> list[dict[str, str]] | None:
    if ctx is not None:
        return [{"role": m["role"], "content": m["content"]} for m in ctx]
    if step.observation is not None:
        return [{"role": "user", "content": step.observation}]
    return None


# --------------------------------------------------------------------------- kinds


def _selection(selection: Selection | None, kind: str, **options: Any) -> Selection:
    sel = selection if selection is not None else Selection()
    sel.kind = kind
    sel.options = {k: v for k, v in options.items() if v is not None}
    return sel


def transitions(source: Any, problems: list[LineProblem] | None = None, *, games: Sequence[str] | None = None,
                selection: Selection | None = None) -> Iterator[dict[str, Any]]:
    """Rows of the ``transitions`` table (see the module docstring)."""
    sel = _selection(selection, "transitions", games=games)
    for trace in _traces(source, problems):
        sel._read(trace)
        if games is not None and trace.game not in games:
            sel.dropped["games"] = sel.dropped.get("games", 0) + len(trace.steps)
            continue
        enc = ACTION_ENCODERS.get(trace.game, lambda _t: (lambda _s: None))(trace)
        steps = trace.steps
        by_agent: dict[str, list[int]] = {}
        for i, s in enumerate(steps):
            by_agent.setdefault(s.agent, []).append(i)
        # suffix sums of each agent's rewards: rewards from step i to the end
        suffix: dict[str, list[float]] = {}
        for a in trace.agents or by_agent:
            acc, out = 0.0, [0.0] * (len(steps) + 1)
            for i in range(len(steps) - 1, -1, -1):
                acc += float(steps[i].rewards.get(a, 0.0))
                out[i] = acc
            suffix[a] = out
        final = trace.final_features or {}
        for a, idx in by_agent.items():
            sa = suffix.get(a) or [0.0] * (len(steps) + 1)
            for t, i in enumerate(idx):
                s = steps[i]
                nxt = idx[t + 1] if t + 1 < len(idx) else None
                done = nxt is None
                sel.rows += 1
                yield {
                    **_meta(trace, a), "step": s.index, "t": t, "round": s.round, "phase": s.phase,
                    "observation": s.features,
                    "next_observation": steps[nxt].features if nxt is not None else final.get(a),
                    "action": _structured(s), "action_text": s.action, "action_vector": enc(s), "valid": s.valid,
                    "reward": sa[i] - (sa[nxt] if nxt is not None else 0.0), "return_to_go": sa[i],
                    "done": done, "terminated": done and trace.status == "complete",
                    "truncated": done and trace.status != "complete",
                }
    sel.check(games=games)


def _outcome_figures(trace: GameTrace, step: StepRecord) -> tuple[bool | None, float | None, float | None]:
    o = trace.round_outcome(step.round)
    if o is None:
        return None, None, None
    opt = o.get("optimal") if isinstance(o.get("optimal"), bool) else None
    eff = float(o["efficiency"]) if isinstance(o.get("efficiency"), (int, float)) else None
    rew = (o.get("rewards") or {}).get(step.agent)
    return opt, eff, float(rew) if isinstance(rew, (int, float)) else None


def _turns(source: Any, kind: str, *, games, only_optimal, min_efficiency, valid_only, policies, agents, phases,
           problems, selection) -> Iterator[tuple[GameTrace, StepRecord, list[dict[str, str]], dict[str, Any]]]:
    """The agent turns the SFT kinds keep: (trace, step, context, row fields but the text)."""
    sel = _selection(selection, kind, games=games, only_optimal=only_optimal or None, min_efficiency=min_efficiency,
                     policies=policies, agents=agents, phases=phases)
    for trace in _traces(source, problems):
        sel._read(trace)
        if games is not None and trace.game not in games:
            sel.dropped["games"] = sel.dropped.get("games", 0) + len(trace.steps)
            continue
        for s, ctx in zip(trace.steps, trace.contexts()):
            if valid_only and not s.valid:
                sel._drop("valid_only")
                continue
            if policies is not None and _policy(trace, s.agent) not in policies:
                sel._drop("policies")
                continue
            if agents is not None and s.agent not in agents:
                sel._drop("agents")
                continue
            if phases is not None and s.phase not in phases:
                sel._drop("phases")
                continue
            opt, eff, rew = _outcome_figures(trace, s)
            if only_optimal and opt is not True:
                sel._drop("only_optimal")
                continue
            if min_efficiency is not None and (eff is None or eff < min_efficiency):
                sel._drop("min_efficiency")
                continue
            msgs = _context(s, ctx)
            if msgs is None:
                sel._drop("context")
                continue
            sel.rows += 1
            yield trace, s, msgs, {**_meta(trace, s.agent), "step": s.index, "round": s.round, "phase": s.phase,
                                   "valid": s.valid, "optimal": opt, "efficiency": eff, "reward": rew}
    sel.check(games=games, policies=policies, agents=agents, phases=phases)


def sft_examples(source: Any, *, only_optimal: bool = False, min_efficiency: float | None = None,
                 valid_only: bool = True, policies: Sequence[str] | None = None, agents: Sequence[str] | None = None,
                 phases: Sequence[str] | None = None, games: Sequence[str] | None = None,
                 problems: list[LineProblem] | None = None, selection: Selection | None = None,
                 ) -> Iterator[dict[str, Any]]:
    """Rows of the ``sft`` table, filtered by game, outcome, validity, policy, agent or phase."""
    for _trace, s, msgs, row in _turns(source, "sft", games=games, only_optimal=only_optimal,
                                        min_efficiency=min_efficiency, valid_only=valid_only, policies=policies,
                                        agents=agents, phases=phases, problems=problems, selection=selection):
        yield {"messages": msgs + [{"role": "assistant", "content": _answer(s)}], **row}


def sft_prompt_completion(source: Any, *, only_optimal: bool = False, min_efficiency: float | None = None,
                          valid_only: bool = True, policies: Sequence[str] | None = None,
                          agents: Sequence[str] | None = None, phases: Sequence[str] | None = None,
                          games: Sequence[str] | None = None, problems: list[LineProblem] | None = None,
                          selection: Selection | None = None) -> Iterator[dict[str, Any]]:
    """Rows of the ``sft_prompt_completion`` table: the ``sft`` rows with the context as
    ``prompt`` and the answer as ``completion`` (TRL's conversational prompt-completion
    format, trained on the completion only by default)."""
    for _trace, s, msgs, row in _turns(source, "sft_prompt_completion", games=games, only_optimal=only_optimal,
                                        min_efficiency=min_efficiency, valid_only=valid_only, policies=policies,
                                        agents=agents, phases=phases, problems=problems, selection=selection):
        yield {"prompt": msgs, "completion": [{"role": "assistant", "content": _answer(s)}], **row}


def _score(trace: GameTrace, step: StepRecord, score: str) -> float | None:
    if score == "return":
        v = trace.returns.get(step.agent)
        return float(v) if isinstance(v, (int, float)) else None
    o = trace.round_outcome(step.round)
    if o is None:
        return None
    v = {"reward": (o.get("rewards") or {}).get(step.agent), "joint": o.get("joint_reward"),
         "efficiency": o.get("efficiency")}[score]
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _state(msgs: list[dict[str, str]], game: str, state: str) -> str:
    if state == "prompt":
        sys = [m for m in msgs if m["role"] == "system"][:1]
        msgs = sys + msgs[-1:]
    blob = json.dumps([game, msgs], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]


def preference_pairs(source: Any, *, score: str = "reward", margin: float = 0.0, state: str = "context",
                     games: Sequence[str] | None = None, problems: list[LineProblem] | None = None,
                     selection: Selection | None = None) -> Iterator[dict[str, Any]]:
    """Rows of the ``preferences`` table. ``state``: ``"context"`` (the full context must
    match) or ``"prompt"`` (same system prompt and latest prompt). Reads ``source`` twice
    (a path or a list; not a one-shot iterator)."""
    sel = _selection(selection, "preferences", games=games, score=score, margin=margin)
    if score not in SCORES:
        raise ValueError(f"score must be one of {', '.join(SCORES)}; got {score!r}")
    if state not in ("context", "prompt"):
        raise ValueError(f"state must be 'context' or 'prompt'; got {state!r}")
    if isinstance(source, Iterator):
        raise TypeError("preference_pairs reads its source twice: pass a path or a list, not an iterator")
    # pass 1: per state, per distinct answer, the summed score, count and first occurrence
    groups: dict[str, dict[str, list[Any]]] = {}
    for ti, trace in enumerate(_traces(source, problems)):
        sel._read(trace)
        if games is not None and trace.game not in games:
            sel.dropped["games"] = sel.dropped.get("games", 0) + len(trace.steps)
            continue
        for s, ctx in zip(trace.steps, trace.contexts()):
            if not s.valid:
                continue
            v = _score(trace, s, score)
            msgs = _context(s, ctx)
            if v is None or msgs is None:
                continue
            sel.scored += 1
            answer = _answer(s)
            ah = hashlib.sha256(answer.encode("utf-8")).hexdigest()
            g = groups.setdefault(_state(msgs, trace.game, state), {})
            if ah not in g:
                g[ah] = [0.0, 0, (ti, s.index)]
            g[ah][0] += v
            g[ah][1] += 1
    wanted: dict[tuple[int, int], list[tuple[str, str]]] = {}
    pairs: dict[str, dict[str, Any]] = {}
    sel.check(games=games)
    sel.states = len(groups)
    for sid, answers in groups.items():
        if len(answers) < 2:
            continue
        sel.contested += 1
        ranked = sorted(answers.values(), key=lambda x: (-(x[0] / x[1]), x[2]))
        best, worst = ranked[0], ranked[-1]
        sb, sw = best[0] / best[1], worst[0] / worst[1]
        if sb - sw <= margin:
            continue
        sel.over_margin += 1
        pairs[sid] = {"score_chosen": sb, "score_rejected": sw, "n_chosen": best[1], "n_rejected": worst[1]}
        wanted.setdefault(best[2], []).append((sid, "chosen"))
        wanted.setdefault(worst[2], []).append((sid, "rejected"))
    del groups
    if not pairs:
        return
    # pass 2: materialise the messages of the chosen and rejected occurrences
    parts: dict[str, dict[str, Any]] = {}
    for ti, trace in enumerate(_traces(source)):
        ctxs = None
        for s in trace.steps:
            for sid, role in wanted.get((ti, s.index), ()):
                if ctxs is None:
                    ctxs = trace.contexts()
                p = parts.setdefault(sid, {})
                p[role] = {"answer": _answer(s), "policy": _policy(trace, s.agent), "episode": trace.game_id}
                if role == "chosen":
                    p.update(prompt=_context(s, ctxs[s.index]), game=trace.game, agent=s.agent)
        for sid in [k for k, v in parts.items() if "chosen" in v and "rejected" in v]:
            p = parts.pop(sid)
            sel.rows += 1
            yield {"prompt": p["prompt"], "chosen": [{"role": "assistant", "content": p["chosen"]["answer"]}],
                   "rejected": [{"role": "assistant", "content": p["rejected"]["answer"]}], "state_id": sid,
                   "game": p["game"], "agent": p["agent"], "score": score, **pairs[sid],
                   "policy_chosen": p["chosen"]["policy"], "policy_rejected": p["rejected"]["policy"],
                   "episode_chosen": p["chosen"]["episode"], "episode_rejected": p["rejected"]["episode"]}


# --------------------------------------------------------------------------- output


def rows(kind: str, source: Any, **options: Any) -> Iterator[dict[str, Any]]:
    if kind == "transitions":
        return transitions(source, **options)
    if kind == "sft":
        return sft_examples(source, **options)
    if kind == "sft_prompt_completion":
        return sft_prompt_completion(source, **options)
    if kind == "preferences":
        return preference_pairs(source, **options)
    raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")


def _batches(it: Iterable[dict[str, Any]], n: int) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for r in it:
        batch.append(r)
        if len(batch) >= n:
            yield batch
            batch = []
    if batch:
        yield batch


def to_table(kind: str, source: Any, **options: Any) -> pa.Table:
    """The whole export as one Arrow table (for small sources; :func:`write` streams)."""
    return pa.Table.from_pylist(list(rows(kind, source, **options)), schema=SCHEMAS[kind])


def write(kind: str, source: Any, out: str | Path, *, batch_rows: int = 2048, keep_empty: bool = True,
          **options: Any) -> int:
    """Stream an export to ``out``: ``.parquet`` (Parquet, zstd) or ``.jsonl`` (one JSON
    object a line). Returns the number of rows. The rows go to ``out + ".part"`` first and
    replace ``out`` when complete; on an error (a :class:`FilterError` included) the part
    file is removed and ``out`` is left as it was. With ``keep_empty=False`` an export of 0
    rows writes nothing either (the CLI: no empty file that looks like a dataset)."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".jsonl"):
        raise ValueError(f"output must end in .parquet or .jsonl; got {out.name!r}")
    schema = SCHEMAS[kind] if kind in SCHEMAS else None
    if schema is None:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    tmp = out.with_name(out.name + ".part")
    try:
        if suffix == ".parquet":
            import pyarrow.parquet as pq

            with pq.ParquetWriter(tmp, schema, compression="zstd") as w:
                for batch in _batches(rows(kind, source, **options), batch_rows):
                    w.write_table(pa.Table.from_pylist(batch, schema=schema))
                    n += len(batch)
                if n == 0:
                    w.write_table(schema.empty_table())
        else:
            with open(tmp, "w", encoding="utf-8") as f:
                for r in rows(kind, source, **options):
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
                    n += 1
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if n == 0 and not keep_empty:
        tmp.unlink(missing_ok=True)
        return 0
    tmp.replace(out)
    return n


def to_dataset(kind: str, source: Any, **options: Any):
    """The export as a Hugging Face ``datasets.Dataset`` (needs the ``data`` extra)."""
    try:
        import datasets
    except ImportError:
        raise ImportError("to_dataset needs Hugging Face datasets: pip install 'negotiation_env[data]'") from None
    return datasets.Dataset(to_table(kind, source, **options))
