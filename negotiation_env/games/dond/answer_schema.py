"""Deal or No Deal's valid answers as a JSON Schema (see
:mod:`negotiation_env.core.answer_format`).

The spec in the acting agent's observation names the pool, whether the partner's
proposal is on the table (``offer``), whether walking away is allowed and the message
cap. The description admits exactly the moves the game accepts now, so it has no
separate ``strict`` form:

| move | admitted when | object |
| --- | --- | --- |
| ``propose`` | always | ``{"message", "action": "propose", "take": {"books", "hats", "balls"}}``, each count from 0 to the pool's |
| ``accept`` | the partner's proposal is on the table | ``{"message", "action": "accept"}`` |
| ``walk_away`` | the config allows it | ``{"message", "action": "walk_away"}`` |

``message`` is JSON string text without ``"``, ``\\``, ``<`` and control characters (the
common narrowing of every game's description), at most the game's ``max_message_chars``
(or ``text_chars``, where smaller); the parser takes any text.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.answer_format import AnswerFormat, json_text_pattern
from .rules import ITEMS

__all__ = ["spec", "build"]


def spec(pool: Sequence[int], *, offer: bool, walk_away: bool, max_message_chars: int) -> dict[str, Any]:
    return {"game": "dond", "pool": list(pool), "offer": bool(offer), "walk_away": bool(walk_away),
            "max_message_chars": int(max_message_chars)}


def _object(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def build(s: Mapping[str, Any], *, text_chars: int | None = None) -> AnswerFormat:
    cap = int(s["max_message_chars"]) if text_chars is None else min(int(s["max_message_chars"]), text_chars)
    message = {"type": "string", "pattern": json_text_pattern(cap)}
    take = _object({item: {"type": "integer", "minimum": 0, "maximum": int(n)} for item, n in zip(ITEMS, s["pool"])})
    options = [_object({"message": message, "action": {"enum": ["propose"]}, "take": take})]
    if s["offer"]:
        options.append(_object({"message": message, "action": {"enum": ["accept"]}}))
    if s["walk_away"]:
        options.append(_object({"message": message, "action": {"enum": ["walk_away"]}}))
    schema = options[0] if len(options) == 1 else {"anyOf": options}
    return AnswerFormat("dond.move", json_schema=schema, text_fields=1)
