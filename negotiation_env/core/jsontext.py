"""Finding the JSON object in what a model wrote.

Shared by every game whose actions are JSON. Tolerated, with a warning: code fences,
prose before or after the object. Refused, with a :class:`ParseError` whose message is
what the agent reads on retry: no object at all, broken JSON, duplicate keys,
NaN/Infinity, nesting deeper than a sane bound, text longer than the cap.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["ParseError", "extract_json_object", "MAX_RESPONSE_CHARS", "MAX_JSON_DEPTH"]

MAX_RESPONSE_CHARS = 100_000
MAX_JSON_DEPTH = 32

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.S)


class ParseError(ValueError):
    """Model text that cannot become an action. ``str(err)`` is told to the agent on retry."""


class _Duplicate(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


def _reject_constant(name: str):
    raise ParseError(f"{name} is not allowed in JSON; use a finite number")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_reject_constant)


def _depth(obj: Any, level: int = 0) -> int:
    if level > MAX_JSON_DEPTH:
        return level
    if isinstance(obj, dict):
        return max((_depth(v, level + 1) for v in obj.values()), default=level + 1)
    if isinstance(obj, list):
        return max((_depth(v, level + 1) for v in obj), default=level + 1)
    return level


def _decode_at(text: str, start: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, start)
    except _Duplicate as e:
        raise ParseError(f"duplicate key {str(e)!r} in the JSON object") from None
    except RecursionError:
        raise ParseError(f"JSON nested too deeply (limit {MAX_JSON_DEPTH} levels)") from None


def extract_json_object(text: str) -> tuple[dict[str, Any], list[str]]:
    """Return the first JSON object in ``text`` and format warnings (empty if the text was
    exactly one JSON object)."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_RESPONSE_CHARS:
        raise ParseError(f"response is {len(text)} characters long; the limit is {MAX_RESPONSE_CHARS}")
    stripped = text.strip()
    if not stripped:
        raise ParseError("empty response; a JSON object is required")
    warnings: list[str] = []
    candidates: list[str] = [stripped]
    fences = _FENCE.findall(stripped)
    if fences:
        candidates = [f.strip() for f in fences] + candidates
    first_error: ParseError | None = None
    for i, cand in enumerate(candidates):
        pos = cand.find("{")
        while pos != -1:
            try:
                obj, end = _decode_at(cand, pos)
            except ParseError as e:
                if "duplicate key" in str(e) or "nested too deeply" in str(e) or "not allowed" in str(e):
                    raise
                first_error = first_error or e
                obj, end = None, pos + 1
            except json.JSONDecodeError as e:
                first_error = first_error or ParseError(f"invalid JSON: {e.msg} (line {e.lineno} column {e.colno})")
                obj, end = None, pos + 1
            if isinstance(obj, dict):
                if _depth(obj) > MAX_JSON_DEPTH:
                    raise ParseError(f"JSON nested too deeply (limit {MAX_JSON_DEPTH} levels)")
                exact = i == len(candidates) - 1 and pos == 0 and end == len(cand)
                if not exact:
                    in_fence = i < len(fences)
                    if in_fence:
                        warnings.append("JSON object was wrapped in a code fence")
                    outside = _FENCE.sub("", stripped).strip() if in_fence else ""
                    if outside or cand[:pos].strip() or cand[end:].strip():
                        warnings.append("text before or after the JSON object was ignored")
                return obj, warnings
            pos = cand.find("{", pos + 1)
    if first_error is not None:
        raise first_error
    raise ParseError("no JSON object found in the response")
