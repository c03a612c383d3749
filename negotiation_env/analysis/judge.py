"""The LLM judge of seed 000 (§5.8, Appendix G): round-level grounding labels for
resource-game traces, their validation, storage, calibration and prevalence.

* The taxonomy is data: ``judge_taxonomy.json`` beside this module holds G.4's five core
  labels and three auxiliary tags (definitions, inclusion/exclusion criteria, examples,
  verbatim from the paper) and the prompt's fixed sentences. :func:`render_system_prompt`
  builds the production system prompt from it, the response-format skeleton included.
* :func:`render_game` is the user message: one complete game in chronological order
  (each agent's private project setup, every round's cheap talk with the private
  thinking marked as such, final submissions, outcome, rewards, joint reward / M).
* One call per game (:func:`judge_game`) through any client with
  ``complete(messages) -> str``; :class:`OpenAIChat` is the one for OpenAI-compatible
  servers, over the code base's one client :class:`negotiation_env.api.client.APIClient`
  (timeouts, retries with backoff and jitter honouring ``Retry-After``; the ``api`` extra).
* :func:`validate_labels` is strict: a JSON object with exactly ``rounds``; one entry per
  round of the game, ``round_number`` 1..N each once; exactly the taxonomy's core labels
  as booleans; exactly its auxiliary tags as ``{"present": bool, "agents": [...]}`` with
  agents from the game's seats, no repeats, ``[]`` iff not present. Code fences or prose
  around the object are tolerated and reported as warnings
  (:func:`negotiation_env.core.jsontext.extract_json_object`). An invalid answer is
  sent back with the error and the model asked again, up to ``max_attempts`` calls.
* :func:`judge_run` labels every complete resource game of a run folder into
  ``DIR/judge/labels.jsonl`` (append-only, one line per attempt at a game; the last line of
  a game wins; games already labelled are skipped unless ``force``).
* :func:`read_human_labels` reads a human-label CSV (format below); :func:`kappa_table`
  gives Cohen's kappa per label (and per auxiliary agent attribution) on the rounds both
  labelled; :func:`prevalence_table` gives label prevalence overall and by round outcome
  (Table 13 layout); :func:`enrichment_table` the prevalence in Figure 7's failure regions
  (failed-improvement vs. other suboptimal rounds, overdrawn vs. non-overdrawn) and the
  difference. Both leave out rounds with a fallback decision, as every resource analysis.
* Several judges (G.2: two judge models, each label taken from the judge chosen for it):
  each judge labels into its own file (``judge_run(labels_file=...)``, CLI ``--labels``);
  :func:`merge_labels` builds the merged labels (``pick``: label -> judge, ``default``
  for the rest), keeping every judge's own labels per round under ``by_judge``;
  :func:`agreement_table` gives Cohen's kappa between every pair of judges per label;
  :func:`write_tables` with ``judges`` writes ``DIR/judge/merged.jsonl`` (which
  ``negotiation-env report`` then reads) and the agreement table.

Human-label CSV (UTF-8, header row; one row per labelled round)::

    game_id,round,misaligned_mental_models,agreement_abandonment,...,fairness_appeal,fairness_appeal_agents
    resource:0:1,1,0,1,...,1,agent_a;agent_b

``game_id`` and ``round`` (1-based) are required; a column per label id holds 1/0
(also true/false, yes/no, y/n; empty = not labelled); ``<tag>_agents`` holds the
auxiliary tag's agents separated by ``;`` (empty = none). Columns may be left out (that
label is not compared); ``notes``, ``annotator`` and ``comment`` are ignored; any other
column is an error, so a misspelt label is not silently dropped.

Cohen's kappa is computed here with numpy (scikit-learn is not a dependency): ``(p_o -
p_e) / (1 - p_e)`` with ``p_e`` from both raters' marginals; undefined (None) when
``p_e = 1`` (both raters gave one and the same value to every round, e.g. no positives).
"""

from __future__ import annotations

import csv
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

import numpy as np

from ..api.keys import api_key_from_env as from_env
from ..core.jsontext import JSONTextError, ParseError, extract_json_object, loads_document, loads_record
from ..core.secrets import redact_text
from .cells import as_dict, condition_label, lineup
from .tables import Table
from ..games.resource.spec import NAME as GAME

__all__ = [
    "load_taxonomy", "render_system_prompt", "render_game", "validate_labels", "JudgeOutputError", "ChatClient",
    "OpenAIChat", "JudgeClientError", "judge_game", "judge_run", "JudgeRunResult", "load_labels", "read_human_labels",
    "cohen_kappa", "kappa_table", "prevalence_table", "LABELS_DIR", "LABELS_FILE", "HumanLabelError",
    "enrichment_table", "merge_labels", "agreement_table", "write_merged", "write_tables", "MERGED_FILE",
]

LABELS_DIR = "judge"
LABELS_FILE = "labels.jsonl"
MERGED_FILE = "merged.jsonl"
_IGNORED_COLUMNS = ("notes", "annotator", "comment")


# --------------------------------------------------------------------------- taxonomy


def load_taxonomy(path: str | Path | None = None) -> dict[str, Any]:
    """The taxonomy: the shipped ``judge_taxonomy.json`` or a file of the same shape."""
    if path is None:
        text = (importlib_resources.files("negotiation_env.analysis") / "judge_taxonomy.json").read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    try:
        tax = loads_document(text)
    except JSONTextError as e:
        raise ValueError(f"taxonomy {path or 'judge_taxonomy.json'}: {e}") from None
    if not isinstance(tax, dict):
        raise ValueError(f"taxonomy {path or 'judge_taxonomy.json'}: must be a JSON object")
    for key in ("preamble", "auxiliary_rules", "core_labels", "auxiliary_tags", "response_format", "agents"):
        if key not in tax:
            raise ValueError(f"taxonomy {path or 'judge_taxonomy.json'}: missing field {key!r}")
    ids = [x["id"] for x in tax["core_labels"] + tax["auxiliary_tags"]]
    if len(set(ids)) != len(ids):
        raise ValueError("taxonomy: label ids must be unique")
    return tax


def _core_ids(tax: Mapping[str, Any]) -> list[str]:
    return [x["id"] for x in tax["core_labels"]]


def _aux_ids(tax: Mapping[str, Any]) -> list[str]:
    return [x["id"] for x in tax["auxiliary_tags"]]


def _item(x: Mapping[str, Any]) -> str:
    lines = [f"### {x['id']} ({x['name']}) [{x['polarity']}]", f"Definition: {x['definition']}"]
    if x.get("grounding_mechanism"):
        lines.append(f"Grounding mechanism: {x['grounding_mechanism']}")
    lines.append("Inclusion criteria (ALL must hold):")
    lines += [f"- {c}" for c in x["inclusion"]]
    lines.append("Exclusion criteria:")
    lines += [f"- {c}" for c in x["exclusion"]]
    lines.append(f"Example: {x['example']}")
    return "\n".join(lines)


def _skeleton(tax: Mapping[str, Any]) -> str:
    core = ", ".join(f'"{i}": false' for i in _core_ids(tax))
    aux = ", ".join(f'"{i}": {{"present": false, "agents": []}}' for i in _aux_ids(tax))
    return ('{ "rounds": [ { "round_number": 1, "core_labels": { ' + core + ' }, "auxiliary_tags": { '
            + aux + " } } ] }")


def render_system_prompt(taxonomy: Mapping[str, Any] | None = None) -> str:
    """G.4's production system prompt, rendered from the taxonomy."""
    tax = taxonomy or load_taxonomy()
    parts = ["\n\n".join(tax["preamble"]), tax.get("auxiliary_rules_intro", "For each auxiliary tag, mark:") + "\n"
             + "\n".join(f"- {r}" for r in tax["auxiliary_rules"])]
    if tax.get("auxiliary_rules_outro"):
        parts.append(tax["auxiliary_rules_outro"])
    parts.append("## Rubric")
    parts.append("## Core Labels")
    parts += [_item(x) for x in tax["core_labels"]]
    parts.append("## Auxiliary Tags")
    parts += [_item(x) for x in tax["auxiliary_tags"]]
    rf = tax["response_format"]
    parts.append("## Response format\n" + rf["intro"] + "\n" + _skeleton(tax) + "\n" + rf["outro"])
    return "\n\n".join(parts) + "\n"


# --------------------------------------------------------------------------- game text


def _names(trace: Mapping[str, Any]) -> dict[str, str]:
    for r in trace.get("rounds") or []:
        n = (r.get("outcome") or {}).get("resource_names")
        if n:
            return dict(n)
    return {}


def _alloc(d: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    parts = [f"{v} {names.get(k, k)}" for k, v in (d or {}).items() if v]
    return ", ".join(parts) if parts else "nothing"


def _runs(d: Mapping[str, Any] | None) -> str:
    parts = [f"{k} x{v}" for k, v in (d or {}).items() if v]
    return ", ".join(parts) if parts else "no runs"


def _projects(scenario: str | None, names: Mapping[str, str], agents: Sequence[str]) -> list[str]:
    if not scenario:
        return []
    from ..games.resource.scenario import ScenarioError, load_scenario

    try:
        sc = load_scenario(scenario)
    except (ScenarioError, OSError, TypeError, ValueError):
        return []
    res = ", ".join(f"{names.get(r.id, r.id)} (supply {r.supply}, cost {r.cost:g})" for r in sc.resources)
    lines = [f"Scenario {sc.name}: resources {res}; budget {sc.budget:g} per agent; at most {sc.max_types} "
             "resource types per agent."]
    for a in agents:
        try:
            projects = sc.projects_of(a)
        except KeyError:
            continue
        desc = "; ".join(f"{p.name} needs " + " + ".join(f"{u} {names.get(r, r)}" for r, u in p.requires)
                         + f" per run, reward {p.reward:g}" for p in projects)
        lines.append(f"  {a}'s private projects (not visible to the partner): {desc}")
    return lines


def render_game(trace: Any, *, include_thinking: bool = True, include_projects: bool = True) -> str:
    """The judge's user message for one resource game: every round in order."""
    t = as_dict(trace)
    agents = list(t.get("agents") or [])
    names = _names(t)
    rounds = sorted(t.get("rounds") or [], key=lambda r: r["round"])
    labels = dict(zip(agents, lineup(t)))
    out = [f"Game {t.get('game_id')}: {len(rounds)} rounds. Agents: "
           + ", ".join(f"{a} ({labels.get(a)})" for a in agents) + f". Condition: {condition_label(t)}."]
    steps: dict[int, list[Mapping[str, Any]]] = {}
    for st in t.get("steps") or []:
        if isinstance(st.get("round"), int):
            steps.setdefault(st["round"], []).append(st)
    shown_scenario = None
    for r in rounds:
        k = int(r["round"])
        o = r.get("outcome") or {}
        out.append("")
        out.append(f"=== Round {k} of {len(rounds)} ===")
        if include_projects and o.get("scenario") != shown_scenario:
            out += _projects(o.get("scenario"), o.get("resource_names") or names, agents)
            shown_scenario = o.get("scenario")
        out.append("Cheap talk:")
        said = False
        for st in steps.get(k, []):
            p = st.get("parsed") if isinstance(st.get("parsed"), Mapping) else None
            if p is None or not st.get("valid", True):
                continue
            when = "" if st.get("phase") == "talk" else f" ({st.get('phase')} phase; not delivered to the partner)"
            if p.get("speech"):
                out.append(f"[{st['agent']}]{when}: {p['speech']}")
                said = True
            if include_thinking and st.get("thinking"):
                out.append(f"  (private thinking of {st['agent']}, not seen by the partner: {st['thinking']})")
            if isinstance(p.get("decision"), Mapping) and st.get("phase") == "talk":
                out.append(f"  ({st['agent']} submitted its final decision with this message)")
        if not said:
            out.append("(no messages)")
        out.append("Final submissions:")
        for a in agents:
            out.append(f"  {a}: buys {_alloc((o.get('purchases') or {}).get(a), names)}; "
                       f"runs {_runs((o.get('runs') or {}).get(a))}")
        rw = o.get("rewards") or {}
        over = o.get("overdrawn_resources") or []
        state = ("OVERDRAWN on " + ", ".join(names.get(x, x) for x in over) + " (round annulled)") if o.get("overdraw") \
            else "not overdrawn"
        eff = o.get("efficiency")
        out.append(f"Outcome: {state}; rewards " + ", ".join(f"{a} {rw.get(a, 0):g}" for a in agents)
                   + f"; joint reward {o.get('joint_reward', 0):g} of joint optimum {o.get('joint_max', 0):g} "
                   f"(efficiency {100 * float(eff or 0):.1f}%); jointly optimal: {'yes' if o.get('optimal') else 'no'}.")
    out.append("")
    out.append(f"Label each of the {len(rounds)} rounds.")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- validation


class JudgeOutputError(ValueError):
    """The judge's answer is not a valid label set; the message is sent back to it."""


def _key_mismatch(errors: list[str], what: str, got: Mapping[str, Any], expected: Sequence[str], noun: str) -> None:
    """Append ``"<what> missing [...]; unknown <noun> [...]"`` when ``got``'s keys are not ``expected``."""
    missing, unknown = sorted(set(expected) - set(got)), sorted(set(got) - set(expected))
    if missing or unknown:
        errors.append(f"{what} " + "; ".join(filter(None, [
            f"missing {missing}" if missing else "", f"unknown {noun} {unknown}" if unknown else ""])))


def validate_labels(text_or_obj: str | Mapping[str, Any], n_rounds: int, taxonomy: Mapping[str, Any] | None = None,
                    agents: Sequence[str] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """``(rounds, warnings)``: one normalised entry per round (``round``, ``core``
    {label: bool}, ``auxiliary`` {tag: {"present", "agents"}}) in round order, or
    :class:`JudgeOutputError` naming every problem found (up to 12)."""
    tax = taxonomy or load_taxonomy()
    agents = list(agents or tax["agents"])
    warnings: list[str] = []
    if isinstance(text_or_obj, str):
        try:
            obj, warnings = extract_json_object(text_or_obj)
        except ParseError as e:
            raise JudgeOutputError(f"the answer is not a JSON object: {e}") from None
    else:
        obj = text_or_obj
    errors: list[str] = []
    if not isinstance(obj, Mapping):
        raise JudgeOutputError("the answer must be a JSON object with a 'rounds' list")
    extra = sorted(set(obj) - {"rounds"})
    if extra:
        errors.append(f"unexpected top-level keys {extra}; the object must have only 'rounds'")
    rows = obj.get("rounds")
    if not isinstance(rows, list):
        raise JudgeOutputError("'rounds' must be a list with one object per round" + (
            "; " + "; ".join(errors) if errors else ""))
    if len(rows) != n_rounds:
        errors.append(f"'rounds' has {len(rows)} entries; the game has {n_rounds} rounds (include every round once)")
    core_ids, aux_ids = _core_ids(tax), _aux_ids(tax)
    seen: dict[int, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        where = f"rounds[{i}]"
        if not isinstance(row, Mapping):
            errors.append(f"{where} must be an object")
            continue
        keys = set(row)
        need = {"round_number", "core_labels", "auxiliary_tags"}
        if keys != need:
            missing, unknown = sorted(need - keys), sorted(keys - need)
            errors.append(f"{where}: " + "; ".join(filter(None, [f"missing {missing}" if missing else "",
                                                                 f"unexpected {unknown}" if unknown else ""])))
        k = row.get("round_number")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n_rounds:
            errors.append(f"{where}.round_number must be an integer from 1 to {n_rounds}; got {k!r}")
            continue
        if k in seen:
            errors.append(f"round_number {k} appears more than once")
            continue
        where = f"round {k}"
        core = row.get("core_labels")
        core_out: dict[str, bool] = {}
        if not isinstance(core, Mapping):
            errors.append(f"{where}: core_labels must be an object of {len(core_ids)} booleans")
        else:
            _key_mismatch(errors, f"{where}: core_labels", core, core_ids, "labels")
            for lab in core_ids:
                v = core.get(lab)
                if lab in core and not isinstance(v, bool):
                    errors.append(f"{where}: core_labels.{lab} must be true or false; got {v!r}")
                core_out[lab] = v is True
        aux = row.get("auxiliary_tags")
        aux_out: dict[str, dict[str, Any]] = {}
        if not isinstance(aux, Mapping):
            errors.append(f"{where}: auxiliary_tags must be an object with {', '.join(aux_ids)}")
        else:
            _key_mismatch(errors, f"{where}: auxiliary_tags", aux, aux_ids, "tags")
            for tag in aux_ids:
                v = aux.get(tag)
                if tag not in aux:
                    aux_out[tag] = {"present": False, "agents": []}
                    continue
                tw = f"{where}: auxiliary_tags.{tag}"
                if not isinstance(v, Mapping) or set(v) != {"present", "agents"}:
                    errors.append(f'{tw} must be {{"present": true/false, "agents": [...]}}; got {v!r}')
                    continue
                present, who = v["present"], v["agents"]
                if not isinstance(present, bool):
                    errors.append(f"{tw}.present must be true or false; got {present!r}")
                if not isinstance(who, list) or not all(isinstance(a, str) for a in who):
                    errors.append(f"{tw}.agents must be a list of agent ids; got {who!r}")
                    continue
                bad = [a for a in who if a not in agents]
                if bad:
                    errors.append(f"{tw}.agents: unknown agents {bad}; use only {agents}")
                if len(set(who)) != len(who):
                    errors.append(f"{tw}.agents lists an agent twice")
                if present is False and who:
                    errors.append(f"{tw}: present is false, so agents must be []")
                if present is True and not who:
                    errors.append(f"{tw}: present is true, so agents must name at least one agent")
                aux_out[tag] = {"present": present is True, "agents": [a for a in agents if a in who]}
        seen[k] = {"round": k, "core": core_out, "auxiliary": aux_out}
    missing_rounds = [k for k in range(1, n_rounds + 1) if k not in seen]
    if missing_rounds and len(rows) == n_rounds:
        errors.append(f"rounds {missing_rounds} are missing")
    if errors:
        shown = errors[:12]
        more = f" (and {len(errors) - 12} more)" if len(errors) > 12 else ""
        raise JudgeOutputError("; ".join(shown) + more)
    return [seen[k] for k in range(1, n_rounds + 1)], warnings


# --------------------------------------------------------------------------- clients


class ChatClient(Protocol):
    def complete(self, messages: list[dict[str, str]]) -> str: ...


class JudgeClientError(RuntimeError):
    """The judge's server gave no answer (retries ran out, or a fault that is not retried)."""


class OpenAIChat:
    """Chat completions on an OpenAI-compatible server through the code base's one
    client, :class:`negotiation_env.api.client.APIClient` (the ``api`` extra): timeouts, retries
    with exponential backoff and jitter (``max_retries``; ``Retry-After`` honoured on
    429), a concurrency limit for ``judge_run``'s worker threads.

    ``api_key`` is used for the requests only (the CLI reads it from the environment):
    it is not stored in labels, traces or logs, and :meth:`settings` leaves it out. A
    call that fails for good raises :class:`JudgeClientError`, which :func:`judge_game`
    records as the game's error; ``<think>`` spans and server-side reasoning are not part
    of the answer."""

    def __init__(self, model: str, base_url: str, api_key: str = "EMPTY", timeout: float = 120.0,
                 max_retries: int = 3, temperature: float | None = 0.0, max_tokens: int | None = None,
                 max_concurrency: int = 8):
        try:
            from negotiation_env.api.client import APIClient
        except ImportError as e:
            raise ImportError(f"the LLM judge needs the openai client ({e}); "
                              "install the extra: pip install 'negotiation_env[api]'") from None
        self.model = model
        self.base_url = base_url
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._client = APIClient(model, base_url, api_key=api_key or "EMPTY", timeout=timeout,
                                 max_retries=max_retries, temperature=temperature, max_tokens=max_tokens,
                                 max_concurrency=max_concurrency, send_seed=False)

    def __repr__(self) -> str:
        return f"OpenAIChat(model={redact_text(self.model)!r}, base_url={redact_text(self.base_url)!r})"

    def complete(self, messages: list[dict[str, str]]) -> str:
        comp, _ = self._client.complete(list(messages))
        if comp.failed:
            f = comp.faults[-1] if comp.faults else {"kind": "unknown", "message": "no answer"}
            status = f" (HTTP {f['status']})" if "status" in f else ""
            raise JudgeClientError(f"{f['kind']}{status} after {comp.attempts} attempt(s): {f['message']}")
        return comp.text

    def settings(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": redact_text(self.base_url), "temperature": self.temperature,
                "max_tokens": self.max_tokens}


# --------------------------------------------------------------------------- judging


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def judge_game(trace: Any, client: ChatClient, *, taxonomy: Mapping[str, Any] | None = None, max_attempts: int = 3,
               system_prompt: str | None = None, judge_info: Mapping[str, Any] | None = None,
               include_thinking: bool = True) -> dict[str, Any]:
    """Label one resource game with one conversation: the game, then (on an invalid
    answer) the error and a request to answer again, up to ``max_attempts`` answers.

    Returns the record stored in ``labels.jsonl``: ``game_id``, ``status`` (``ok``,
    ``invalid``: no valid answer in ``max_attempts``, ``error``: the client raised),
    ``attempts``, ``errors`` (one per refused answer or the client error),
    ``warnings``, ``rounds`` (the validated labels, or None), ``judge`` (model settings,
    taxonomy name and version) and ``labelled_at``."""
    if max_attempts < 1:
        raise ValueError("max_attempts must be >= 1")
    t = as_dict(trace)
    tax = taxonomy or load_taxonomy()
    n = len(t.get("rounds") or [])
    agents = list(t.get("agents") or tax["agents"])
    messages = [{"role": "system", "content": system_prompt or render_system_prompt(tax)},
                {"role": "user", "content": render_game(t, include_thinking=include_thinking)}]
    rec: dict[str, Any] = {"game_id": t.get("game_id"), "status": "invalid", "attempts": 0, "errors": [],
                           "warnings": [], "rounds": None,
                           "judge": {**dict(judge_info or {}), "taxonomy": tax.get("name"),
                                     "taxonomy_version": tax.get("version")}}
    for attempt in range(1, max_attempts + 1):
        rec["attempts"] = attempt
        try:
            answer = client.complete(list(messages))
        except Exception as e:  # noqa: BLE001 - any client failure is recorded, the run goes on
            rec["status"] = "error"
            rec["errors"].append(f"{type(e).__name__}: {e}")
            break
        try:
            rounds, warns = validate_labels(answer, n, tax, agents)
        except JudgeOutputError as e:
            rec["errors"].append(str(e))
            messages += [{"role": "assistant", "content": answer},
                         {"role": "user", "content": f"Your answer was invalid: {e}. Respond again with ONLY the "
                                                     f"corrected JSON object, with exactly one entry for each of the "
                                                     f"{n} rounds."}]
            continue
        rec.update(status="ok", rounds=rounds, warnings=warns)
        break
    rec["labelled_at"] = _now()
    return rec


def load_labels(path: str | Path) -> dict[str, dict[str, Any]]:
    """``game_id -> record`` from a labels file (``DIR/judge/labels.jsonl`` or a run
    folder); the last record of a game wins. Undecodable lines are skipped."""
    p = Path(path)
    if p.is_dir():
        p = p / LABELS_DIR / LABELS_FILE
    out: dict[str, dict[str, Any]] = {}
    if not p.exists():
        return out
    with open(p, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rec = loads_record(line)
            except JSONTextError:  # broken, or past a bound (a 5,000-digit number, nesting, a key twice)
                continue
            if isinstance(rec, dict) and isinstance(rec.get("game_id"), str):
                out[rec["game_id"]] = rec
    return out


@dataclass
class JudgeRunResult:
    labels_file: Path
    judged: int = 0
    ok: int = 0
    invalid: int = 0
    errors: int = 0
    skipped: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)


def _resource_games(traces: Iterable[Any]) -> list[dict[str, Any]]:
    games = [d for d in (as_dict(t) for t in traces)
             if d.get("game") == GAME and d.get("status", "complete") == "complete" and d.get("rounds")]
    ids = [g["game_id"] for g in games]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"game_id {dup[0]!r} appears {ids.count(dup[0])} times; judge labels are keyed by game_id, "
                         "so every game of the folder needs its own")
    return games


def judge_run(path: str | Path, client: ChatClient, *, taxonomy: Mapping[str, Any] | None = None,
              max_attempts: int = 3, force: bool = False, limit: int | None = None, workers: int = 1,
              judge_info: Mapping[str, Any] | None = None, include_thinking: bool = True,
              progress: Callable[[dict[str, Any]], None] | None = None,
              labels_file: str | Path | None = None) -> JudgeRunResult:
    """Label every complete resource game of ``path`` (a run folder or ``.jsonl`` file)
    into ``labels_file`` (default ``DIR/judge/labels.jsonl``; one file per judge model
    when several judge the same games, see :func:`merge_labels`). Games with an ``ok``
    record are skipped unless ``force``; ``limit`` caps the number of games called this
    time; ``workers`` calls in parallel threads (records are written in trace order)."""
    from ..traces import TraceWriter, read_traces

    src = Path(path)
    base = src if src.is_dir() else src.parent
    out = Path(labels_file) if labels_file is not None else base / LABELS_DIR / LABELS_FILE
    games = _resource_games(read_traces(src).traces)
    tax = taxonomy or load_taxonomy()
    done = load_labels(out)
    todo = [g for g in games if force or (done.get(g["game_id"]) or {}).get("status") != "ok"]
    res = JudgeRunResult(labels_file=out, skipped=len(games) - len(todo))
    if limit is not None:
        todo = todo[:max(0, limit)]
    system = render_system_prompt(tax)

    def one(g: dict[str, Any]) -> dict[str, Any]:
        return judge_game(g, client, taxonomy=tax, max_attempts=max_attempts, system_prompt=system,
                          judge_info=judge_info, include_thinking=include_thinking)

    with TraceWriter(out) as writer:
        if workers > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                results = pool.map(one, todo)
                for rec in results:
                    _record(res, writer, rec, progress)
        else:
            for g in todo:
                _record(res, writer, one(g), progress)
    return res


def _record(res: JudgeRunResult, writer: Any, rec: dict[str, Any], progress) -> None:
    writer.write(rec)
    res.records.append(rec)
    res.judged += 1
    if rec["status"] == "ok":
        res.ok += 1
    elif rec["status"] == "invalid":
        res.invalid += 1
    else:
        res.errors += 1
    if progress is not None:
        progress(rec)


# --------------------------------------------------------------------------- calibration


class HumanLabelError(ValueError):
    """The human-label CSV is malformed; the message names the row and column."""


_TRUE = {"1", "true", "yes", "y", "t"}
_FALSE = {"0", "false", "no", "n", "f"}


def read_human_labels(path: str | Path, taxonomy: Mapping[str, Any] | None = None) -> dict[tuple[str, int], dict[str, Any]]:
    """``(game_id, round) -> {label: bool, "<tag>_agents": [agents]}`` from the CSV
    format of the module docstring (only the columns the file has)."""
    tax = taxonomy or load_taxonomy()
    labels = _core_ids(tax) + _aux_ids(tax)
    agent_cols = [f"{t}_agents" for t in _aux_ids(tax)]
    out: dict[tuple[str, int], dict[str, Any]] = {}
    with open(path, encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        cols = [c.strip() for c in (reader.fieldnames or [])]
        for need in ("game_id", "round"):
            if need not in cols:
                raise HumanLabelError(f"{path}: missing column {need!r} (header: {', '.join(cols)})")
        unknown = [c for c in cols if c not in labels + agent_cols + ["game_id", "round"] + list(_IGNORED_COLUMNS)]
        if unknown:
            raise HumanLabelError(f"{path}: unknown column(s) {unknown}; label columns are {', '.join(labels)} "
                                  f"and {', '.join(agent_cols)}")
        dup = sorted({c for c in cols if cols.count(c) > 1})
        if dup:
            raise HumanLabelError(f"{path}: column(s) {dup} appear more than once in the header")
        for n, raw in enumerate(reader, start=2):
            if None in raw:  # csv.DictReader files the cells beyond the header under None
                raise HumanLabelError(f"{path}:{n}: {len(cols) + len(raw[None])} fields, but the header has "
                                      f"{len(cols)}")
            row = {(k or "").strip(): (v or "").strip() for k, v in raw.items()}
            gid = row["game_id"]
            try:
                k = int(row["round"])
            except ValueError:
                raise HumanLabelError(f"{path}:{n}: round must be an integer; got {row['round']!r}") from None
            if not gid or k < 1:
                raise HumanLabelError(f"{path}:{n}: game_id must be set and round >= 1")
            if (gid, k) in out:
                raise HumanLabelError(f"{path}:{n}: round {k} of {gid} is labelled twice")
            rec: dict[str, Any] = {}
            for lab in labels:
                if lab not in row or row[lab] == "":
                    continue
                v = row[lab].lower()
                if v not in _TRUE | _FALSE:
                    raise HumanLabelError(f"{path}:{n}: column {lab}: expected 1/0, true/false or yes/no; "
                                          f"got {row[lab]!r}")
                rec[lab] = v in _TRUE
            for col in agent_cols:
                if col in row and (col[:-7] in rec or row[col]):
                    who = [a.strip() for a in row[col].split(";") if a.strip()]
                    bad = [a for a in who if a not in tax["agents"]]
                    if bad:
                        raise HumanLabelError(f"{path}:{n}: column {col}: unknown agents {bad}")
                    rec[col] = who
            out[(gid, k)] = rec
    return out


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two binary ratings; None when chance agreement is 1."""
    x = np.asarray(a, dtype=bool)
    y = np.asarray(b, dtype=bool)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("kappa needs two ratings of the same items")
    if x.size == 0:
        return None
    po = float(np.mean(x == y))
    pa, pb = float(x.mean()), float(y.mean())
    pe = pa * pb + (1 - pa) * (1 - pb)
    if pe >= 1.0 - 1e-12:
        return None
    return (po - pe) / (1 - pe)


def _judge_rows(labels: Mapping[str, Mapping[str, Any]]) -> dict[tuple[str, int], Mapping[str, Any]]:
    out = {}
    for gid, rec in labels.items():
        if rec.get("status") == "ok" and rec.get("rounds"):
            for r in rec["rounds"]:
                out[(gid, int(r["round"]))] = r
    return out


def kappa_table(human: Mapping[tuple[str, int], Mapping[str, Any]], labels: Mapping[str, Mapping[str, Any]],
                taxonomy: Mapping[str, Any] | None = None) -> Table:
    """Human vs. judge agreement per label on the rounds both labelled (Table 14 layout):
    prevalence of each rater, raw agreement and Cohen's kappa; auxiliary tags also per
    agent attribution."""
    tax = taxonomy or load_taxonomy()
    judged = _judge_rows(labels)
    rows = []

    def add(name: str, kind: str, pairs: list[tuple[bool, bool]]):
        if not pairs:
            rows.append([name, kind, 0, None, None, None, None])
            return
        h = [p[0] for p in pairs]
        j = [p[1] for p in pairs]
        rows.append([name, kind, len(pairs), float(np.mean(h)), float(np.mean(j)),
                     float(np.mean(np.asarray(h) == np.asarray(j))), cohen_kappa(h, j)])

    for lab in _core_ids(tax):
        add(lab, "core", [(bool(hv[lab]), bool(judged[key]["core"][lab])) for key, hv in sorted(human.items())
                          if lab in hv and key in judged])
    for tag in _aux_ids(tax):
        add(tag, "auxiliary", [(bool(hv[tag]), bool(judged[key]["auxiliary"][tag]["present"]))
                               for key, hv in sorted(human.items()) if tag in hv and key in judged])
    for tag in _aux_ids(tax):
        col = f"{tag}_agents"
        for agent in tax["agents"]:
            add(f"{tag} [{agent}]", "attribution",
                [(agent in hv[col], agent in judged[key]["auxiliary"][tag]["agents"])
                 for key, hv in sorted(human.items()) if col in hv and key in judged])
    return Table("judge_kappa", "Human vs. LLM judge agreement (Table 14 layout)",
                 ["Label", "Kind", "Rounds", "Human prevalence %", "Judge prevalence %", "Agreement %",
                  "Cohen's kappa"], rows, ["text", "text", "int", "pct", "pct", "pct", "num"],
                 ["Rounds labelled by both (the human CSV and an ok judge record). Kappa is undefined (–) when "
                  "chance agreement is 1, e.g. neither rater assigns a positive."])


def _round_kinds(traces: Iterable[Any], include_fallbacks: bool) -> tuple[dict[tuple[str, int], dict[str, Any]], int]:
    """``(game_id, round) -> {"kind", "transition"}`` for the resource rounds the metrics
    keep (:func:`~.resource_metrics.round_classes`: fallback rounds out unless
    ``include_fallbacks``), and how many rounds were left out."""
    from .resource_metrics import round_classes

    out: dict[tuple[str, int], dict[str, Any]] = {}
    left = 0
    for t in traces:
        d = as_dict(t)
        if d.get("game") != GAME or not d.get("rounds"):
            continue
        classes, n = round_classes(d, include_fallbacks=include_fallbacks)
        left += n
        for k, c in classes.items():
            out[(d.get("game_id"), k)] = c
    return out, left


def _fallback_note(left: int, include_fallbacks: bool) -> str:
    if include_fallbacks:
        return "Fallback rounds counted as play (include_fallbacks)."
    return (f"Fallback rounds left out: {left} (the paper excludes rounds with a heuristic fallback or an "
            "auto-filled decision from all analyses).")


def prevalence_table(traces: Iterable[Any], labels: Mapping[str, Mapping[str, Any]],
                     taxonomy: Mapping[str, Any] | None = None, *, include_fallbacks: bool = False) -> Table:
    """Label prevalence over all judged rounds and by round outcome (Table 13 layout):
    overdrawn, suboptimal (not overdrawn, below M) and optimal rounds. Rounds with a
    fallback decision are left out unless ``include_fallbacks``."""
    tax = taxonomy or load_taxonomy()
    judged = _judge_rows(labels)
    kinds, left = _round_kinds(traces, include_fallbacks)
    kind_of = {k: {"overdraw": "overdrawn"}.get(v["kind"], v["kind"]) for k, v in kinds.items()}
    groups = {"all": [k for k in judged if k in kind_of]}
    for kind in ("overdrawn", "suboptimal", "optimal"):
        groups[kind] = [k for k in groups["all"] if kind_of[k] == kind]

    def rate(keys, f) -> float | None:
        return float(np.mean([f(judged[k]) for k in keys])) if keys else None

    rows = [["Rounds", "", *[len(groups[g]) for g in groups]]]
    for x in tax["core_labels"]:
        rows.append([x["name"], x["polarity"], *[rate(groups[g], lambda r, i=x["id"]: r["core"][i]) for g in groups]])
    for x in tax["auxiliary_tags"]:
        rows.append([x["name"], "auxiliary",
                     *[rate(groups[g], lambda r, i=x["id"]: r["auxiliary"][i]["present"]) for g in groups]])
    # the first row holds counts; the columns hold rates below it
    return Table("judge_prevalence", "LLM judge label prevalence by round outcome (Table 13 layout)",
                 ["Label", "Type", "All %", "Overdrawn %", "Suboptimal %", "Optimal %"],
                 [rows[0][:2] + [str(v) for v in rows[0][2:]]] + rows[1:],
                 ["text", "text", "pct", "pct", "pct", "pct"],
                 ["First row: number of judged rounds in each column. Labels are not mutually exclusive; "
                  "suboptimal = not overdrawn and below the joint optimum.", _fallback_note(left, include_fallbacks)])


def enrichment_table(traces: Iterable[Any], labels: Mapping[str, Mapping[str, Any]],
                     taxonomy: Mapping[str, Any] | None = None, *, include_fallbacks: bool = False) -> Table:
    """Figure 7's data (seed 000 §5.8): each label's prevalence inside two failure
    regions against their comparison sets, and the difference in percentage points.
    Failed-improvement rounds (suboptimal rounds that did not improve on a non-optimal
    previous round, :mod:`.resource_metrics`) against the other suboptimal rounds;
    overdrawn against non-overdrawn rounds. Judged rounds only; fallback rounds left
    out unless ``include_fallbacks``."""
    tax = taxonomy or load_taxonomy()
    judged = _judge_rows(labels)
    kinds, left = _round_kinds(traces, include_fallbacks)
    keys = [k for k in judged if k in kinds]
    sub = [k for k in keys if kinds[k]["kind"] == "suboptimal"]
    groups = {"failed": [k for k in sub if kinds[k]["transition"] == "failed"],
              "other_sub": [k for k in sub if kinds[k]["transition"] != "failed"],
              "over": [k for k in keys if kinds[k]["kind"] == "overdraw"],
              "not_over": [k for k in keys if kinds[k]["kind"] != "overdraw"]}

    def rate(ks, f) -> float | None:
        return float(np.mean([f(judged[k]) for k in ks])) if ks else None

    def diff(a, b):
        return None if a is None or b is None else a - b

    rows = []
    items = [(x, lambda r, i=x["id"]: r["core"][i], x["polarity"]) for x in tax["core_labels"]] + \
            [(x, lambda r, i=x["id"]: r["auxiliary"][i]["present"], "auxiliary") for x in tax["auxiliary_tags"]]
    for x, f, kind in items:
        a, b, c, d = (rate(groups[g], f) for g in ("failed", "other_sub", "over", "not_over"))
        rows.append([x["name"], kind, a, b, diff(a, b), c, d, diff(c, d)])
    n = {g: len(v) for g, v in groups.items()}
    return Table("judge_enrichment", "LLM judge label enrichment in failure regions (Figure 7 data)",
                 ["Label", "Type", "Failed improvement %", "Other suboptimal %", "Δ failed improvement (pp)",
                  "Overdrawn %", "Non-overdrawn %", "Δ overdrawn (pp)"], rows,
                 ["text", "text", "pct", "pct", "pct", "pct", "pct", "pct"],
                 [f"Judged rounds: {n['failed']} failed-improvement and {n['other_sub']} other suboptimal rounds; "
                  f"{n['over']} overdrawn and {n['not_over']} non-overdrawn rounds. Failed improvement: a suboptimal "
                  "round (not optimal, not overdrawn) after a non-optimal round whose efficiency it does not exceed "
                  "(the paper's definition is not in seed 000; ours, negotiation_env.analysis.resource_metrics). "
                  "Δ: prevalence in the region minus in its comparison set, percentage points; correlational, as "
                  "the paper reads it.", _fallback_note(left, include_fallbacks)])


# --------------------------------------------------------------------------- several judges


def merge_labels(sources: Mapping[str, Mapping[str, Mapping[str, Any]]], pick: Mapping[str, str] | None = None,
                 default: str | None = None, taxonomy: Mapping[str, Any] | None = None
                 ) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Merge several judges' labels (``{judge name: load_labels(...)}``) the way
    Appendix G.2 builds its production labels: each label (core label or auxiliary tag,
    with its agents) comes from one judge, ``pick[label]``, else ``default`` (else the
    first judge). A game is merged when every judge it draws on has an ``ok`` record
    for it with the same rounds; each merged round keeps every judge's own labels under
    ``by_judge``. Returns ``(game_id -> record, notes on the games left out)``."""
    tax = taxonomy or load_taxonomy()
    names = list(sources)
    if len(names) < 2:
        raise ValueError("merging needs the labels of at least two judges")
    default = default or names[0]
    ids = _core_ids(tax) + _aux_ids(tax)
    pick = dict(pick or {})
    bad = sorted(set(pick) - set(ids))
    if bad:
        raise ValueError(f"unknown label(s) {bad}; labels: {', '.join(ids)}")
    unknown = sorted({j for j in list(pick.values()) + [default] if j not in sources})
    if unknown:
        raise ValueError(f"unknown judge(s) {unknown}; judges: {', '.join(names)}")
    source = {lab: pick.get(lab, default) for lab in ids}
    used = sorted(set(source.values()), key=names.index)
    merged: dict[str, dict[str, Any]] = {}
    left: list[str] = []
    for gid in sorted({g for s in sources.values() for g in s}):
        recs = {j: sources[j].get(gid) for j in names}
        ok = {j: r for j, r in recs.items() if r and r.get("status") == "ok" and r.get("rounds")}
        missing = [j for j in used if j not in ok]
        if missing:
            left.append(f"{gid}: no ok record from {', '.join(missing)}")
            continue
        by_round = {j: {int(r["round"]): r for r in ok[j]["rounds"]} for j in ok}
        rounds = sorted(by_round[used[0]])
        if any(sorted(by_round[j]) != rounds for j in used):
            left.append(f"{gid}: the judges labelled different rounds")
            continue
        out_rounds = []
        for k in rounds:
            row: dict[str, Any] = {"round": k, "core": {}, "auxiliary": {}}
            for lab in _core_ids(tax):
                row["core"][lab] = bool(by_round[source[lab]][k]["core"][lab])
            for tag in _aux_ids(tax):
                row["auxiliary"][tag] = dict(by_round[source[tag]][k]["auxiliary"][tag])
            row["by_judge"] = {j: {"core": dict(by_round[j][k]["core"]), "auxiliary": dict(by_round[j][k]["auxiliary"])}
                               for j in ok if k in by_round[j]}
            out_rounds.append(row)
        merged[gid] = {"game_id": gid, "status": "ok", "rounds": out_rounds, "sources": source,
                       "judges": {j: ok[j].get("judge") for j in ok}}
    return merged, left


def agreement_table(sources: Mapping[str, Mapping[str, Mapping[str, Any]]],
                    taxonomy: Mapping[str, Any] | None = None) -> Table:
    """Judge-vs-judge agreement per label for every pair of judges (Appendix G.2): the
    rounds both labelled, each judge's prevalence, raw agreement and Cohen's kappa."""
    tax = taxonomy or load_taxonomy()
    rows_ = {j: _judge_rows(lbl) for j, lbl in sources.items()}
    names = list(sources)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = sorted(set(rows_[a]) & set(rows_[b]))
            items = [(x, lambda r, k=x: r["core"][k], "core") for x in _core_ids(tax)] + \
                    [(x, lambda r, k=x: r["auxiliary"][k]["present"], "auxiliary") for x in _aux_ids(tax)]
            for lab, f, kind in items:
                x = [bool(f(rows_[a][k])) for k in both]
                y = [bool(f(rows_[b][k])) for k in both]
                rows.append([f"{a} vs {b}", lab, kind, len(both), float(np.mean(x)) if x else None,
                             float(np.mean(y)) if y else None,
                             float(np.mean(np.asarray(x) == np.asarray(y))) if x else None, cohen_kappa(x, y)])
    return Table("judge_agreement", "Agreement between LLM judges (Appendix G.2)",
                 ["Judges", "Label", "Kind", "Rounds", "First judge prevalence %", "Second judge prevalence %",
                  "Agreement %", "Cohen's kappa"], rows, ["text", "text", "text", "int", "pct", "pct", "pct", "num"],
                 ["Rounds both judges labelled (ok records). Kappa is undefined (–) when chance agreement is 1, "
                  "e.g. neither judge assigns a positive."])


def write_merged(path: str | Path, merged: Mapping[str, Mapping[str, Any]]) -> Path:
    """Write merged labels as a labels file (one JSON record a line, game order)."""
    import json

    from ..storage import write_text  # whole or not at all: a temporary name, renamed when complete

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    return write_text(p, "".join(json.dumps(merged[gid], ensure_ascii=False, sort_keys=True) + "\n"
                                 for gid in sorted(merged)))


def write_tables(path: str | Path, traces: Iterable[Any], *, human: str | Path | None = None,
                 taxonomy: Mapping[str, Any] | None = None, labels_file: str | Path | None = None,
                 judges: Mapping[str, str | Path] | None = None, pick: Mapping[str, str] | None = None,
                 default: str | None = None, include_fallbacks: bool = False) -> list[Path]:
    """Write ``prevalence``, ``enrichment`` (and ``kappa`` with a human CSV) as ``.md`` and
    ``.csv`` into ``DIR/judge``; returns the files written. Labels: ``labels_file``
    (default ``DIR/judge/labels.jsonl``); with ``judges`` (``{name: labels file}``, two or
    more) the judges' labels are merged (:func:`merge_labels` with ``pick`` and
    ``default``) into ``DIR/judge/merged.jsonl``, their agreement is written to
    ``agreement``, the tables read the merged labels, and with a human CSV each judge also
    gets ``kappa_NAME``."""
    src = Path(path)
    base = (src if src.is_dir() else src.parent) / LABELS_DIR
    base.mkdir(parents=True, exist_ok=True)
    traces = list(traces)
    tables: list[tuple[str, Table]] = []
    human_rows = read_human_labels(human, taxonomy) if human is not None else None
    files = []
    if judges:
        sources = {name: load_labels(f) for name, f in judges.items()}
        labels, left = merge_labels(sources, pick, default, taxonomy)
        files.append(write_merged(base / MERGED_FILE, labels))
        agree = agreement_table(sources, taxonomy)
        sel = labels[next(iter(labels))]["sources"] if labels else {}
        agree.notes.append(f"Merged into {MERGED_FILE}: {len(labels)} game(s); label sources: "
                           + ", ".join(f"{k} from {v}" for k, v in sel.items()) + ".")
        if left:
            agree.notes.append(f"{len(left)} game(s) not merged: " + "; ".join(left[:10])
                               + (" ..." if len(left) > 10 else ""))
        tables.append(("agreement", agree))
        if human_rows is not None:
            tables += [(f"kappa_{name}", kappa_table(human_rows, lbl, taxonomy)) for name, lbl in sources.items()]
    else:
        labels = load_labels(labels_file if labels_file is not None else base / LABELS_FILE)
    tables.append(("prevalence", prevalence_table(traces, labels, taxonomy, include_fallbacks=include_fallbacks)))
    tables.append(("enrichment", enrichment_table(traces, labels, taxonomy, include_fallbacks=include_fallbacks)))
    if human_rows is not None:
        tables.append(("kappa", kappa_table(human_rows, labels, taxonomy)))
    for stem, t in tables:
        for suffix, text in ((".md", t.markdown()), (".csv", t.csv_text())):
            from ..storage import write_text

            files.append(write_text(base / f"{stem}{suffix}", text))
    return files


def api_key_from_env(var: str | None) -> tuple[str, str | None]:
    """``(key, note)``: the key from environment variable ``var`` (default
    ``OPENAI_API_KEY``); a missing default gives the placeholder ``EMPTY`` (local
    servers need none) with a note; a missing named variable is an error.
    (:func:`negotiation_env.api.keys.api_key_from_env`, the CLI flag named in the error.)"""
    try:
        return from_env(var)
    except ValueError as e:
        raise ValueError(str(e).replace("(api_key_env)", "(--api-key-env)")) from None
