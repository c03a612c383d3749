"""Finding the JSON object in what a model wrote, and reading JSON documents and records.

The one JSON decoder of the package: model answers (:func:`extract_json_object`), data
files (:func:`loads_document`, through :mod:`.datafiles`) and trace lines
(:func:`loads_record`) all decode with the same bounds, so hostile text meets the same
refusal everywhere:

* a numeral longer than :data:`MAX_NUMBER_CHARS` characters is refused (Python's own
  int-string limit would raise a bare ``ValueError`` at 4,300 digits, and a long float
  becomes ``inf``); so is a float outside the range of a double, and NaN/Infinity;
* nesting deeper than :data:`MAX_JSON_DEPTH` (a model's answer) or
  :data:`MAX_DOCUMENT_DEPTH` (a file or a record) levels is refused with a typed error,
  never a ``RecursionError``;
* a key given twice in one object is refused, naming the key (never "the last one wins");
* a string or key holding a surrogate escape without its other half (``"\\ud800"``),
  which decodes to no character and cannot be written as UTF-8, is refused naming where
  it is (:mod:`.encodable`; a pair such as ``"\\ud83d\\ude00"`` is the character it
  stands for). Only a decoded value whose text holds a ``\\uD8..``-``\\uDF..`` escape is
  walked, so the check costs nothing on other text.

Model text. Tolerated, with a warning: code fences, prose before or after the object.
Refused, with a :class:`ParseError` whose message is what the agent reads on retry: no
object at all, broken JSON, the bounds above, text longer than the cap.

Cost is linear in the text. Decoding a JSON value is linear (the C scanner), so what
needs a bound is the number of places decoding starts: an object can only start at a
``{`` followed by ``"`` or ``}``, so the decoder is tried at the first ``{`` (for the
message of a broken answer) and then only at such starts, at most
:data:`MAX_CANDIDATES` of them per text; of the code fences, the first
:data:`MAX_CANDIDATES` are candidates, then the whole text. (Trying every ``{`` would cost time quadratic in
the text: a failed attempt at position p builds an error that scans p characters for its
line number.) ``benchmarks/json_extraction.py`` measures it; the figures are on the
reliability docs page.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

from .encodable import NOT_A_CHARACTER, first_unencodable, where

__all__ = ["ParseError", "JSONTextError", "UnencodableText", "extract_json_object", "loads_document", "loads_record",
           "MAX_RESPONSE_CHARS", "MAX_JSON_DEPTH", "MAX_DOCUMENT_DEPTH", "MAX_NUMBER_CHARS", "MAX_CANDIDATES"]

MAX_RESPONSE_CHARS = 100_000
#: nesting levels (objects and arrays) of a model's answer
MAX_JSON_DEPTH = 32
#: nesting levels of a data file or a trace record (ours are under 15 deep)
MAX_DOCUMENT_DEPTH = 100
#: the longest numeral accepted, sign, digits, point and exponent included: a 53-bit seed
#: has 16 digits and ``repr`` of a float at most 24 characters
MAX_NUMBER_CHARS = 100
#: object starts tried in one text (each a linear decode), and code fences tried in one answer
MAX_CANDIDATES = 16

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.S)
# where a JSON object can begin: "{", JSON whitespace, then a key's quote or the closing brace
_OBJECT_START = re.compile(r'\{[ \t\n\r]*["}]')


class ParseError(ValueError):
    """Model text that cannot become an action. ``str(err)`` is told to the agent on retry."""


class JSONTextError(ValueError):
    """A JSON document or record refused: broken JSON, a duplicate key, a number too long
    or out of range, nesting too deep. The message says which (and where, for syntax)."""


class UnencodableText(JSONTextError):
    """A JSON document or record whose text holds a lone surrogate escape (not a character)."""


class _Refused(Exception):
    """Raised inside the decoder's hooks; the caller turns it into its typed error. Not a
    ValueError, so nothing between the hook and the caller can mistake it for bad syntax."""


class _RefusedText(_Refused):
    """A lone surrogate escape (:class:`UnencodableText`)."""


# a \u escape of a surrogate (U+D800 to U+DFFF), paired or not
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_text(obj: Any, text: str, start: int, end: int) -> None:
    """Refuse a decoded value holding a surrogate code point (only text with a surrogate
    escape between ``start`` and ``end`` can have decoded to one)."""
    if text.find("\\u", start, end) == -1 or _SURROGATE_ESCAPE.search(text, start, end) is None:
        return
    found = first_unencodable(obj)
    if found is not None:
        path, escape, _index, is_key = found
        what = (f"a key of the object at {where(path[:-1])!r}" if path[:-1] else "a key") if is_key else (
            f"the string at {where(path)!r}" if path else "the string")
        raise _RefusedText(f"{what} holds {escape}, {NOT_A_CHARACTER}")


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Refused(f"duplicate key {_short(k)!r} in the JSON object")
        out[k] = v
    return out


def _numeral(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(text)} characters ({text[:12]}...) is too long; "
                       f"numbers have at most {MAX_NUMBER_CHARS} characters")


def _int(text: str) -> int:
    _numeral(text)
    return int(text)


def _float(text: str) -> float:
    _numeral(text)
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"number {text} is out of range; use a finite number")
    return value


def _reject_constant(name: str):
    raise _Refused(f"{name} is not allowed in JSON; use a finite number")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_reject_constant, parse_int=_int,
                            parse_float=_float)


def _too_deep(obj: Any, limit: int) -> bool:
    """More than ``limit`` nested containers (``{}`` is 1 level, ``{"a": [1]}`` 2)."""
    stack = [(obj, 1)] if isinstance(obj, (dict, list)) else []
    while stack:
        o, level = stack.pop()
        if level > limit:
            return True
        for v in (o.values() if isinstance(o, dict) else o):
            if isinstance(v, (dict, list)):
                stack.append((v, level + 1))
    return False


def _decode_at(text: str, start: int, max_depth: int) -> tuple[Any, int]:
    """One bounded decode from ``start``. Raises :class:`_Refused` for a bound,
    ``json.JSONDecodeError`` for bad syntax."""
    try:
        obj, end = _DECODER.raw_decode(text, start)
    except RecursionError:  # the C scanner's own guard, far deeper than our limits
        raise _Refused(f"JSON nested too deeply (limit {max_depth} levels)") from None
    if _too_deep(obj, max_depth):
        raise _Refused(f"JSON nested too deeply (limit {max_depth} levels)")
    _check_text(obj, text, start, end)
    return obj, end


def loads_document(text: str, *, max_depth: int = MAX_DOCUMENT_DEPTH, max_chars: int | None = None) -> Any:
    """Decode ``text`` as exactly one JSON value (whitespace around it allowed) under the
    bounds above. Raises :class:`JSONTextError` with the reason."""
    if not isinstance(text, str):
        raise JSONTextError(f"expected text, got {type(text).__name__}")
    if max_chars is not None and len(text) > max_chars:
        raise JSONTextError(f"text is {len(text)} characters long; the limit is {max_chars}")
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        obj, end = _decode_at(text, start, max_depth)
    except _RefusedText as e:
        raise UnencodableText(str(e)) from None
    except _Refused as e:
        raise JSONTextError(str(e)) from None
    except json.JSONDecodeError as e:
        raise JSONTextError(f"not valid JSON: {e}") from None
    rest = text[end:].lstrip(" \t\n\r")
    if rest:
        at = len(text) - len(rest)
        raise JSONTextError(f"not valid JSON: extra data after the value (line {text.count(chr(10), 0, at) + 1}, "
                            f"char {at})")
    return obj


def loads_record(text: str) -> dict[str, Any]:
    """One trace line: a JSON object under the document bounds. Raises
    :class:`JSONTextError` (a ``ValueError``) for anything else."""
    obj = loads_document(text)
    if not isinstance(obj, dict):
        raise JSONTextError(f"a record must be a JSON object, got {type(obj).__name__}")
    return obj


def extract_json_object(text: str, *, max_chars: int | None = MAX_RESPONSE_CHARS
                        ) -> tuple[dict[str, Any], list[str]]:
    """Return the first JSON object in ``text`` and format warnings (empty if the text was
    exactly one JSON object). ``max_chars``: the cap on the text (None: no cap, for
    measuring the scan itself)."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    if max_chars is not None and len(text) > max_chars:
        raise ParseError(f"response is {len(text)} characters long; the limit is {max_chars}")
    stripped = text.strip()
    if not stripped:
        raise ParseError("empty response; a JSON object is required")
    warnings: list[str] = []
    candidates: list[str] = [stripped]
    fences = [m.group(1) for m in itertools.islice(_FENCE.finditer(stripped), MAX_CANDIDATES)]
    if fences:
        candidates = [f.strip() for f in fences] + candidates
    first_error: ParseError | None = None
    for i, cand in enumerate(candidates):
        first = cand.find("{")
        if first == -1:
            continue
        # the first "{" always (its error is the message for a broken answer), then only
        # where an object can start, at most MAX_CANDIDATES decodes: linear in the text
        tried = 0
        for pos in _starts(cand, first):
            if tried == MAX_CANDIDATES:
                break
            tried += 1
            try:
                obj, end = _decode_at(cand, pos, MAX_JSON_DEPTH)
            except _RefusedText as e:
                raise ParseError(f"{e}; write the character itself") from None
            except _Refused as e:
                raise ParseError(str(e)) from None
            except json.JSONDecodeError as e:
                first_error = first_error or ParseError(f"invalid JSON: {e.msg} (line {e.lineno} column {e.colno})")
                continue
            if isinstance(obj, dict):
                exact = i == len(candidates) - 1 and pos == 0 and end == len(cand)
                if not exact:
                    in_fence = i < len(fences)
                    if in_fence:
                        warnings.append("JSON object was wrapped in a code fence")
                    outside = _FENCE.sub("", stripped).strip() if in_fence else ""
                    if outside or cand[:pos].strip() or cand[end:].strip():
                        warnings.append("text before or after the JSON object was ignored")
                return obj, warnings
    if first_error is not None:
        raise first_error
    raise ParseError("no JSON object found in the response")


def _starts(text: str, first: int):
    yield first
    for m in _OBJECT_START.finditer(text, first + 1):
        yield m.start()
