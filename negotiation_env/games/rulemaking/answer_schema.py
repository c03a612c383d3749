"""The rulemaking game's valid answers as JSON Schemas (see
:mod:`negotiation_env.core.answer_format`).

A move is ``{<private state>, "move", "issue", "rationale"}`` in the order the prompt
shows: the condition's private state first where it has one (``"ledger"`` or
``"notebook"``: an object with exactly the condition's five fields, each at most
``max_sentences`` sentences and ``max_field_chars`` characters; ``"notes"``: at most
``notes_max_chars`` characters), ``move`` one of the five moves, ``issue`` an issue id
of the scenario or null, ``rationale`` text that starts with a visible character. The
validator also takes moves in any case, issue titles and a missing ``issue``; the
description offers the canonical spelling.

A notebook field is written as sentences: text without ``.``, ``!`` or ``?`` between
sentence ends, each end one of those characters followed by a space or the end of the
field, so that :func:`~.parser.count_sentences` counts at most one sentence for each
(the field's character cap is shared evenly among its ``max_sentences`` sentences).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...core.answer_format import AnswerFormat, json_text_pattern
from .parser import private_key
from .prompts import NOTEBOOK_FIELDS
from .rules import MOVES

__all__ = ["spec", "build", "sentences_pattern"]

#: JSON string content without sentence-ending punctuation
_CLAUSE = r'[^"\\<.!?\x00-\x1f\x7f]'


def spec(scenario, condition: str, limits) -> dict[str, Any]:
    return {"game": "rulemaking", "condition": condition, "issues": list(scenario.issue_ids),
            "max_sentences": limits.max_sentences, "max_field_chars": limits.max_field_chars,
            "notes_max_chars": limits.notes_max_chars}


def sentences_pattern(max_sentences: int, max_chars: int) -> str:
    """At most ``max_sentences`` sentences and ``max_chars`` characters (module docstring)."""
    per = max(0, max_chars // max_sentences - 2)
    clause = f"{_CLAUSE}{{0,{per}}}"
    end = "[.!?]"
    return f"^{clause}(?:{end} {clause}){{0,{max_sentences - 1}}}{end}?$"


def build(s: Mapping[str, Any], *, text_chars: int | None = None) -> AnswerFormat:
    condition = s["condition"]
    props: dict[str, Any] = {}
    key = private_key(condition)
    fields = 1
    if key == "notes":
        cap = int(s["notes_max_chars"]) if text_chars is None else min(int(s["notes_max_chars"]), text_chars)
        props["notes"] = {"type": "string", "pattern": json_text_pattern(cap)}
        fields += 1
    elif key is not None:
        cap = int(s["max_field_chars"]) if text_chars is None else min(int(s["max_field_chars"]), text_chars)
        field = {"type": "string", "pattern": sentences_pattern(int(s["max_sentences"]), cap)}
        names = NOTEBOOK_FIELDS[condition]
        props[key] = {"type": "object", "properties": {f: field for f in names}, "required": list(names),
                      "additionalProperties": False}
        fields += len(names)
    props["move"] = {"enum": list(MOVES)}
    props["issue"] = {"anyOf": [{"type": "null"}, {"enum": list(s["issues"])}]}
    props["rationale"] = {"type": "string", "pattern": json_text_pattern(text_chars, visible_first=True)}
    schema = {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    return AnswerFormat(f"rulemaking.move.{condition}", json_schema=schema, text_fields=fields)
