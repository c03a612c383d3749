"""Turning an agent's response into a validated turn of the resource game.

Two inputs, one validator: a raw string (what a model wrote, Appendix D.1.4 format) and
the structured ``gymnasium`` Dict action (what an RL learner or script emits). Both end
in :func:`rules.validate_decision`, so the text path and the structured path accept and
refuse exactly the same decisions. Errors are :class:`ParseError` with the message the
agent reads on retry.

Raw text first loses its ``<think>`` reasoning (:func:`~negotiation_env.core.thinking.split_think`,
the rule of every game: nested spans, an unclosed span, everything before an orphan
``</think>``), which becomes the front of the turn's private ``thinking``: a JSON object
or speech inside reasoning never reaches the other agent.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ...core.jsontext import ParseError, extract_json_object
from ...core.thinking import split_think
from ...core.visible import is_blank, shown
from .prompts import Names
from .rules import Decision, InvalidDecision, validate_decision
from .scenario import Scenario

__all__ = ["Turn", "parse_text", "parse_plain", "parse_structured", "ParseError"]

TURN_FIELDS = ("thinking", "speech", "action")


@dataclass(frozen=True)
class Turn:
    """One accepted response: private thinking, public speech, and a decision or None."""

    thinking: str
    speech: str
    decision: Decision | None
    warnings: tuple[str, ...] = field(default=())


#: past the largest double a cost cannot be computed (a structured action may hold any int)
_MAX_WHOLE = int(sys.float_info.max)


def _whole(v: Any) -> int | None:
    """A non-negative whole number (3 or 3.0), else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if 0 <= v <= _MAX_WHOLE else None
    if isinstance(v, float) and math.isfinite(v) and v.is_integer() and v >= 0:
        return int(v)
    return None


def _resolve_action(
    obj: Mapping[str, Any], scenario: Scenario, agent: str, names: Names
) -> Decision:
    by_name = names.ids_by_name()
    lower = {k.lower(): v for k, v in by_name.items()}
    problems: list[str] = []
    purchase: dict[str, int] = {}
    runs: dict[str, int] | None = None
    for key, value in obj.items():
        if key == "projects":
            if value is None:
                continue
            if not isinstance(value, Mapping):
                problems.append('"projects" must be an object of project name -> number of runs')
                continue
            runs = {}
            for pname, n in value.items():
                w = _whole(n)
                if w is None:
                    problems.append(f"runs of {pname!r} must be a non-negative whole number, got {shown(n)}")
                else:
                    runs[str(pname)] = w
            continue
        rid = by_name.get(key) or lower.get(str(key).strip().lower())
        if rid is None:
            problems.append(
                f"unknown resource {key!r} (valid resources: {', '.join(by_name)}; "
                'use "projects" for project runs)'
            )
            continue
        w = _whole(value)
        if w is None:
            problems.append(f"quantity of {key!r} must be a non-negative whole number, got {shown(value)}")
            continue
        if rid in purchase:
            problems.append(f"resource {key!r} given twice")
            continue
        purchase[rid] = w
    if problems:
        raise ParseError("; ".join(problems))
    try:
        return validate_decision(scenario, agent, purchase, runs, name=names.name)
    except InvalidDecision as e:
        raise ParseError(str(e)) from None


def _split(text: Any) -> tuple[Any, str]:
    """``text`` without its reasoning, and that reasoning (pieces joined by blank lines)."""
    if not isinstance(text, str):
        return text, ""
    answer, spans = split_think(text)
    return answer, "\n\n".join(p.strip() for p in spans if p.strip())


def _with_reasoning(turn: Turn, reasoning: str) -> Turn:
    if not reasoning:
        return turn
    thinking = reasoning + ("\n\n" + turn.thinking if turn.thinking else "")
    return Turn(thinking, turn.speech, turn.decision, turn.warnings)


def parse_text(
    text: str, scenario: Scenario, agent: str, names: Names, *, require_decision: bool
) -> Turn:
    """Parse a model's raw response. ``require_decision`` is True in the decision phase."""
    answer, reasoning = _split(text)
    return _with_reasoning(_parse_object(answer, scenario, agent, names, require_decision=require_decision),
                           reasoning)


def _parse_object(
    text: str, scenario: Scenario, agent: str, names: Names, *, require_decision: bool
) -> Turn:
    """:func:`parse_text` on text without reasoning."""
    obj, warnings = extract_json_object(text)
    wrapped = "action" in obj or "speech" in obj or "thinking" in obj
    if wrapped:
        extra = [k for k in obj if k not in TURN_FIELDS]
        if extra:
            warnings.append(f"ignored unknown fields: {', '.join(map(str, extra))}")
        missing = [k for k in ("speech", "action") if k not in obj]
        if missing and not (require_decision and "action" in obj):
            raise ParseError(
                "missing field " + ", ".join(f'"{m}"' for m in missing)
                + '; respond with a JSON object with the fields "thinking", "speech" and "action"'
            )
        thinking = obj.get("thinking", "")
        speech = obj.get("speech", "")
        if thinking is None:
            thinking = ""
        if not isinstance(thinking, str):
            raise ParseError('"thinking" must be a string')
        if speech is None:
            speech = ""
        if not isinstance(speech, str):
            raise ParseError('"speech" must be a string')
        action = obj.get("action")
    else:
        # a bare purchase object: the decision format of Appendix D.1.3
        thinking, speech, action = "", "", obj
        warnings.append("bare purchase object accepted as the action")
    if action is None:
        if require_decision:
            raise ParseError('you MUST set "action" to your purchase object now; null is not allowed in the decision phase')
        if is_blank(speech):  # not strip(): a zero-width space alone says nothing
            raise ParseError('"speech" MUST NOT be empty while "action" is null; always say something to the other party')
        return Turn(thinking, speech, None, tuple(warnings))
    if wrapped and is_blank(speech):  # D.1.4: "speech" MUST NOT be empty, with a purchase too
        raise ParseError('"speech" MUST NOT be empty, also with a purchase; always say something to the other party')
    if not isinstance(action, Mapping):
        raise ParseError('"action" must be null or a purchase object like {"<resource>": 3, "projects": {...}}')
    return Turn(thinking, speech, _resolve_action(action, scenario, agent, names), tuple(warnings))


def _exact_object(text: str):
    """The text as one JSON object (optionally inside one code fence), else None."""
    try:
        obj, warnings = extract_json_object(text)
    except ParseError:
        return None
    return obj if all("fence" in w for w in warnings) else None


def parse_plain(
    text: str, scenario: Scenario, agent: str, names: Names, *, require_decision: bool
) -> Turn:
    """Thinking-off format (Appendix D.6): plain text is speech, passed verbatim; a
    response that is ONLY a JSON purchase object is the decision. In the decision phase a
    purchase object is required (found with the usual tolerance, and warned about)."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    text, reasoning = _split(text)
    return _with_reasoning(_parse_plain(text, scenario, agent, names, require_decision=require_decision), reasoning)


def _parse_plain(
    text: str, scenario: Scenario, agent: str, names: Names, *, require_decision: bool
) -> Turn:
    """:func:`parse_plain` on text without reasoning."""
    if is_blank(text):
        raise ParseError("empty message; write a message to the other party, or ONLY a JSON purchase object to finalize")
    obj = _exact_object(text)
    if obj is None and not require_decision:
        return Turn("", text.strip(), None)
    if obj is None:
        obj, warnings = extract_json_object(text)
    else:
        warnings = []
    if "action" in obj or "speech" in obj or "thinking" in obj:
        # the thinking-on wrapper: there is no private channel in this mode
        warnings.append('"thinking"/"speech" wrapper received; with thinking off send plain text or ONLY the purchase object')
        if obj.get("action") is None and not require_decision:
            return Turn("", text.strip(), None, tuple(warnings))
        turn = _parse_object(json.dumps(obj), scenario, agent, names, require_decision=True)
        return Turn("", turn.speech, turn.decision, tuple(warnings) + turn.warnings)
    return Turn("", "", _resolve_action(obj, scenario, agent, names), tuple(warnings))


def parse_structured(
    action: Mapping[str, Any], scenario: Scenario, agent: str, names: Names, *, require_decision: bool,
    require_speech: bool = True,
) -> Turn:
    """Parse the Dict action: ``message``, ``thinking``, ``decide`` (0/1), ``purchase``
    (units per resource, scenario order), ``runs`` (per project, presented order) and
    ``auto_runs`` (1: ignore ``runs``, let the engine assign). Missing keys default to
    an empty message, no thinking, decide=0, zero purchase, auto_runs=1.
    ``require_speech`` (the thinking-on format, D.1.4): a decision needs a message too;
    with thinking off a decision is the bare purchase object (D.6), with no speech."""
    if not isinstance(action, Mapping):
        raise ParseError(f"action must be a string or a dict, got {type(action).__name__}")
    unknown = [k for k in action if k not in ("message", "thinking", "decide", "purchase", "runs", "auto_runs")]
    if unknown:
        raise ParseError(f"unknown action keys: {', '.join(map(str, unknown))}")
    message = action.get("message", "")
    thinking = action.get("thinking", "")
    if not isinstance(message, str) or not isinstance(thinking, str):
        raise ParseError('"message" and "thinking" must be strings')
    decide = int(np.asarray(action.get("decide", 0)).item())
    if decide not in (0, 1):
        raise ParseError(f'"decide" must be 0 or 1, got {decide}')
    if not decide:
        if require_decision:
            raise ParseError('you MUST decide now: set "decide" to 1 with a purchase')
        if is_blank(message):
            raise ParseError('"message" MUST NOT be empty when not deciding; always say something to the other party')
        return Turn(thinking, message, None)
    if require_speech and is_blank(message):
        raise ParseError('"message" MUST NOT be empty, also when deciding; always say something to the other party')
    rids = scenario.resource_ids
    pnames = [p.name for p in scenario.projects_of(agent)]
    purchase = np.asarray(action.get("purchase", np.zeros(len(rids), dtype=np.int64)))
    if purchase.shape != (len(rids),):
        raise ParseError(f'"purchase" must have {len(rids)} entries (one per resource), got shape {purchase.shape}')
    auto = int(np.asarray(action.get("auto_runs", 1)).item())
    runs_obj = None
    if not auto:
        runs = np.asarray(action.get("runs", np.zeros(len(pnames), dtype=np.int64)))
        if runs.shape != (len(pnames),):
            raise ParseError(f'"runs" must have {len(pnames)} entries (one per project), got shape {runs.shape}')
        runs_obj = {p: _py(n) for p, n in zip(pnames, runs.tolist())}
    obj = {names.name(r): _py(q) for r, q in zip(rids, purchase.tolist())}
    if runs_obj is not None:
        obj["projects"] = runs_obj
    return Turn(thinking, message, _resolve_action(obj, scenario, agent, names))


def _py(x: Any) -> Any:
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x
