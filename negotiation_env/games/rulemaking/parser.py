"""Turning a party's response into a validated move of the rulemaking game.

Two inputs, one validator: raw model text (a JSON object, see :mod:`.prompts`) and the
structured ``gymnasium`` Dict action (``move`` id, ``issue`` id, ``rationale`` text,
``private`` text). Both end in :func:`validate`, so they accept and refuse the same
moves. Errors are :class:`~negotiation_env.core.jsontext.ParseError` whose message is
what the party reads on its retry.

Rules (ours; the paper's Appendix with the exact format is not in the seed text):

* ``move`` is one of Support, Oppose, Concede, Counter, Exit, matched ignoring case and
  surrounding spaces.
* ``issue`` is optional (null, absent or empty: the move concerns the whole package); if
  given it is an issue id or an issue title, matched ignoring case.
* ``rationale`` is a non-empty string (a rationale of only invisible characters, such as
  a zero-width space, is empty: :func:`~negotiation_env.core.visible.is_blank`); longer than ``max_rationale_chars`` it is cut and
  a warning recorded (the public record stays bounded).
* the private state of the condition is required where the condition has one: a
  notebook object with exactly its five fields, each a string of at most
  ``max_sentences`` sentences and ``max_field_chars`` characters (``ledger``, its
  relabelled control ``ledger_relabelled`` and the three generic notebooks), or a
  free-form ``notes`` string of at most ``notes_max_chars`` characters (``notes``; by
  default the Ledger's capacity, :data:`NOTES_MAX_CHARS`). In conditions without private
  state a private field is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ...core.jsontext import MAX_JSON_DEPTH, JSONTextError, ParseError, extract_json_object, loads_document
from ...core.thinking import split_think
from ...core.visible import is_blank, shown
from .prompts import LEDGERS, MAX_FIELD_CHARS, NOTEBOOK_FIELDS, NOTES_MAX_CHARS
from .rules import MOVES

__all__ = ["Move", "ParseLimits", "parse_text", "parse_structured", "validate", "count_sentences",
           "private_key", "ParseError", "MAX_FIELD_CHARS", "NOTES_MAX_CHARS"]

_MOVE_BY_LOWER = {m.lower(): m for m in MOVES}
# a sentence ends at ., ! or ? (runs of them count once) followed by a space or the end
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)")


@dataclass(frozen=True)
class ParseLimits:
    max_rationale_chars: int = 1000
    max_sentences: int = 5
    notes_max_chars: int = NOTES_MAX_CHARS
    max_field_chars: int = MAX_FIELD_CHARS


@dataclass(frozen=True)
class Move:
    """One accepted response: the public move and the party's new private state."""

    move: str
    issue: str | None
    rationale: str
    private: dict[str, str] | str | None = None
    warnings: tuple[str, ...] = field(default=())


def private_key(condition: str) -> str | None:
    """The JSON key of the condition's private state (None: the condition has none)."""
    if condition in LEDGERS:
        return "ledger"
    if condition in NOTEBOOK_FIELDS:
        return "notebook"
    if condition == "notes":
        return "notes"
    return None


def count_sentences(text: str) -> int:
    """Sentences in ``text``: terminal punctuation followed by a space or the end, plus a
    final unterminated fragment (so "a. b" is two)."""
    text = text.strip()
    if not text:
        return 0
    ends = list(_SENTENCE_END.finditer(text))
    n = len(ends)
    if not ends or ends[-1].end() < len(text):
        n += 1
    return n


def _issue(value: Any, scenario) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ParseError(f'"issue" must be an issue id string or null; got {shown(value)}')
    v = value.strip().lower()
    if v in ("", "null", "none"):
        return None
    for i in scenario.issues:
        if v in (i.id.lower(), i.title.lower()):
            return i.id
    raise ParseError(f"unknown issue {shown(value)}; valid issue ids: {', '.join(scenario.issue_ids)} (or null)")


def _private(obj: Mapping[str, Any], condition: str, limits: ParseLimits):
    key = private_key(condition)
    if key is None:
        return None
    if key not in obj:
        raise ParseError(f'missing "{key}": this negotiation requires your private {key} before the move')
    value = obj[key]
    if key == "notes":
        if not isinstance(value, str):
            raise ParseError('"notes" must be a string')
        if len(value) > limits.notes_max_chars:
            raise ParseError(f'"notes" is {len(value)} characters long; at most {limits.notes_max_chars}')
        return value.strip()
    fields = NOTEBOOK_FIELDS[condition]
    if not isinstance(value, Mapping):
        raise ParseError(f'"{key}" must be an object with the fields {", ".join(fields)}')
    missing = [f for f in fields if f not in value]
    extra = [str(k) for k in value if k not in fields]
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unknown " + ", ".join(extra))
        raise ParseError(f'"{key}" must have exactly the fields {", ".join(fields)} ({"; ".join(parts)})')
    out = {}
    for f in fields:
        v = value[f]
        if not isinstance(v, str):
            raise ParseError(f'"{key}.{f}" must be a string; got {type(v).__name__}')
        if len(v) > limits.max_field_chars:
            raise ParseError(f'"{key}.{f}" is {len(v)} characters long; at most {limits.max_field_chars}')
        n = count_sentences(v)
        if n > limits.max_sentences:
            raise ParseError(f'"{key}.{f}" has {n} sentences; at most {limits.max_sentences}')
        out[f] = v.strip()
    return out


def validate(obj: Mapping[str, Any], scenario, condition: str, limits: ParseLimits = ParseLimits()) -> Move:
    """The one validator both input paths end in."""
    if "move" not in obj:
        raise ParseError(f'missing "move"; choose one of {", ".join(MOVES)}')
    raw_move = obj["move"]
    move = _MOVE_BY_LOWER.get(raw_move.strip().lower()) if isinstance(raw_move, str) else None
    if move is None:
        raise ParseError(f'"move" must be one of {", ".join(MOVES)}; got {shown(raw_move)}')
    issue = _issue(obj.get("issue"), scenario)
    rationale = obj.get("rationale")
    if not isinstance(rationale, str) or is_blank(rationale):
        # is_blank, not strip: a zero-width space alone is not a rationale
        raise ParseError('"rationale" must be a non-empty string (one or two sentences the other parties read)')
    rationale = rationale.strip()
    warnings = []
    if len(rationale) > limits.max_rationale_chars:
        warnings.append(f"rationale cut from {len(rationale)} to {limits.max_rationale_chars} characters")
        rationale = rationale[: limits.max_rationale_chars]
    private = _private(obj, condition, limits)
    return Move(move, issue, rationale, private, tuple(warnings))


def parse_text(text: str, scenario, condition: str, limits: ParseLimits = ParseLimits()) -> Move:
    """Parse raw model text: the first JSON object in it (code fences and prose around it
    are tolerated by :func:`extract_json_object` and recorded as warnings). Reasoning
    (``<think>`` spans, nested, unclosed or opened by the template:
    :func:`~negotiation_env.core.thinking.split_think`, the rule of every game) is removed
    first: a reasoning model's private reasoning is not its answer, and a JSON object
    inside it must never become the move the other parties read."""
    if isinstance(text, str):
        text = split_think(text)[0]
    obj, fmt_warnings = extract_json_object(text)
    mv = validate(obj, scenario, condition, limits)
    if fmt_warnings:
        mv = Move(mv.move, mv.issue, mv.rationale, mv.private, tuple(fmt_warnings) + mv.warnings)
    return mv


def parse_structured(action: Any, scenario, condition: str, limits: ParseLimits = ParseLimits()) -> Move:
    """Parse the Dict action ``{"move": int, "issue": int, "rationale": str, "private": str}``.

    ``issue`` 0 means none and ``k`` the k-th issue in scenario order; ``private`` is the
    condition's private state as JSON text (a notebook object) or, for ``notes``, plain
    text; it may be omitted where the condition has none."""
    if not isinstance(action, Mapping):
        raise ParseError(f"a structured action is a dict with move, issue, rationale; got {type(action).__name__}")
    m = _index(action.get("move"), "move", len(MOVES))
    obj: dict[str, Any] = {"move": MOVES[m], "rationale": action.get("rationale")}
    if "issue" in action:
        k = _index(action["issue"], "issue", len(scenario.issues) + 1)
        obj["issue"] = scenario.issues[k - 1].id if k else None
    key = private_key(condition)
    if key is not None and "private" in action:
        raw = action["private"]
        if not isinstance(raw, str):
            raise ParseError('"private" must be text')
        if key == "notes":
            obj[key] = raw
        else:
            try:
                obj[key] = loads_document(raw, max_depth=MAX_JSON_DEPTH)
            except JSONTextError as e:
                raise ParseError(f'"private" must be the {key} as a JSON object: {e}') from None
    return validate(obj, scenario, condition, limits)


def _index(v: Any, name: str, n: int) -> int:
    if isinstance(v, np.ndarray) and v.shape == ():
        v = v.item()
    if isinstance(v, np.integer):
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise ParseError(f'"{name}" must be an integer in [0, {n - 1}]; got {shown(v)}')
    return v
