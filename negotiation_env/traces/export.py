"""Datasets from traces: Parquet (pyarrow), JSON Lines, or Hugging Face ``datasets``.

Three kinds, each a documented Arrow schema (:data:`SCHEMAS`). ``source`` is anything
:func:`~.reader.iter_traces` reads (a run folder, a ``.jsonl`` file) or a list of
:class:`~.schema.GameTrace`; files are streamed, so exports of large runs stay small in
memory.

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
    action_vector list<float32> | null, a fixed-length numeric action for the game (resource:
                        [decide, purchase per resource..., runs per project...], 0s when
                        talking); null for games without an encoder or refused steps
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
    Filters: ``only_optimal`` (jointly optimal rounds only), ``min_efficiency``,
    ``valid_only`` (default True), ``policies`` (labels), ``agents``, ``phases``.

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
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import pyarrow as pa

from .reader import LineProblem, iter_traces
from .schema import GameTrace, StepRecord

__all__ = ["KINDS", "SCHEMAS", "transitions", "sft_examples", "preference_pairs", "rows", "to_table",
           "write", "to_dataset", "ACTION_ENCODERS"]

KINDS = ("transitions", "sft", "preferences")
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
    "preferences": pa.schema([
        ("prompt", _MESSAGES), ("chosen", _MESSAGES), ("rejected", _MESSAGES), ("state_id", pa.string()),
        ("game", pa.string()), ("agent", pa.string()), ("score", pa.string()),
        ("score_chosen", pa.float64()), ("score_rejected", pa.float64()),
        ("n_chosen", pa.int32()), ("n_rejected", pa.int32()),
        ("policy_chosen", pa.string()), ("policy_rejected", pa.string()),
        ("episode_chosen", pa.string()), ("episode_rejected", pa.string()),
    ]),
}


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


#: game id -> (trace -> (step -> numeric action or None)); games without one get nulls
ACTION_ENCODERS: dict[str, Callable[[GameTrace], Callable[[StepRecord], list[float] | None]]] = {
    "resource": _resource_encoder,
}


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


def transitions(source: Any, problems: list[LineProblem] | None = None) -> Iterator[dict[str, Any]]:
    """Rows of the ``transitions`` table (see the module docstring)."""
    for trace in _traces(source, problems):
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
                yield {
                    **_meta(trace, a), "step": s.index, "t": t, "round": s.round, "phase": s.phase,
                    "observation": s.features,
                    "next_observation": steps[nxt].features if nxt is not None else final.get(a),
                    "action": _structured(s), "action_text": s.action, "action_vector": enc(s), "valid": s.valid,
                    "reward": sa[i] - (sa[nxt] if nxt is not None else 0.0), "return_to_go": sa[i],
                    "done": done, "terminated": done and trace.status == "complete",
                    "truncated": done and trace.status != "complete",
                }


def _outcome_figures(trace: GameTrace, step: StepRecord) -> tuple[bool | None, float | None, float | None]:
    o = trace.round_outcome(step.round)
    if o is None:
        return None, None, None
    opt = o.get("optimal") if isinstance(o.get("optimal"), bool) else None
    eff = float(o["efficiency"]) if isinstance(o.get("efficiency"), (int, float)) else None
    rew = (o.get("rewards") or {}).get(step.agent)
    return opt, eff, float(rew) if isinstance(rew, (int, float)) else None


def sft_examples(source: Any, *, only_optimal: bool = False, min_efficiency: float | None = None,
                 valid_only: bool = True, policies: Sequence[str] | None = None, agents: Sequence[str] | None = None,
                 phases: Sequence[str] | None = None, problems: list[LineProblem] | None = None,
                 ) -> Iterator[dict[str, Any]]:
    """Rows of the ``sft`` table, filtered by outcome, validity, policy, agent or phase."""
    for trace in _traces(source, problems):
        for s, ctx in zip(trace.steps, trace.contexts()):
            if valid_only and not s.valid:
                continue
            if policies is not None and _policy(trace, s.agent) not in policies:
                continue
            if (agents is not None and s.agent not in agents) or (phases is not None and s.phase not in phases):
                continue
            opt, eff, rew = _outcome_figures(trace, s)
            if only_optimal and opt is not True:
                continue
            if min_efficiency is not None and (eff is None or eff < min_efficiency):
                continue
            msgs = _context(s, ctx)
            if msgs is None:
                continue
            yield {"messages": msgs + [{"role": "assistant", "content": _answer(s)}], **_meta(trace, s.agent),
                   "step": s.index, "round": s.round, "phase": s.phase, "valid": s.valid,
                   "optimal": opt, "efficiency": eff, "reward": rew}


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
                     problems: list[LineProblem] | None = None) -> Iterator[dict[str, Any]]:
    """Rows of the ``preferences`` table. ``state``: ``"context"`` (the full context must
    match) or ``"prompt"`` (same system prompt and latest prompt). Reads ``source`` twice
    (a path or a list; not a one-shot iterator)."""
    if score not in SCORES:
        raise ValueError(f"score must be one of {', '.join(SCORES)}; got {score!r}")
    if state not in ("context", "prompt"):
        raise ValueError(f"state must be 'context' or 'prompt'; got {state!r}")
    if isinstance(source, Iterator):
        raise TypeError("preference_pairs reads its source twice: pass a path or a list, not an iterator")
    # pass 1: per state, per distinct answer, the summed score, count and first occurrence
    groups: dict[str, dict[str, list[Any]]] = {}
    for ti, trace in enumerate(_traces(source, problems)):
        for s, ctx in zip(trace.steps, trace.contexts()):
            if not s.valid:
                continue
            v = _score(trace, s, score)
            msgs = _context(s, ctx)
            if v is None or msgs is None:
                continue
            answer = _answer(s)
            ah = hashlib.sha256(answer.encode("utf-8")).hexdigest()
            g = groups.setdefault(_state(msgs, trace.game, state), {})
            if ah not in g:
                g[ah] = [0.0, 0, (ti, s.index)]
            g[ah][0] += v
            g[ah][1] += 1
    wanted: dict[tuple[int, int], list[tuple[str, str]]] = {}
    pairs: dict[str, dict[str, Any]] = {}
    for sid, answers in groups.items():
        if len(answers) < 2:
            continue
        ranked = sorted(answers.values(), key=lambda x: (-(x[0] / x[1]), x[2]))
        best, worst = ranked[0], ranked[-1]
        sb, sw = best[0] / best[1], worst[0] / worst[1]
        if sb - sw <= margin:
            continue
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


def write(kind: str, source: Any, out: str | Path, *, batch_rows: int = 2048, **options: Any) -> int:
    """Stream an export to ``out``: ``.parquet`` (Parquet, zstd) or ``.jsonl`` (one JSON
    object a line). Returns the number of rows."""
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
    tmp.replace(out)
    return n


def to_dataset(kind: str, source: Any, **options: Any):
    """The export as a Hugging Face ``datasets.Dataset`` (needs the ``data`` extra)."""
    try:
        import datasets
    except ImportError:
        raise ImportError("to_dataset needs Hugging Face datasets: pip install 'negotiation_env[data]'") from None
    return datasets.Dataset(to_table(kind, source, **options))
