"""The one bounded JSON decoder: numbers, nesting, duplicate keys, linear extraction."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from negotiation_env.core import jsontext
from negotiation_env.core.jsontext import (MAX_CANDIDATES, MAX_DOCUMENT_DEPTH, MAX_JSON_DEPTH, MAX_NUMBER_CHARS,
                                           JSONTextError, ParseError, extract_json_object, loads_document,
                                           loads_record)


def _nested(depth: int) -> str:
    """An object holding ``depth`` containers in all: ``{"a": [[...]]}``."""
    return '{"a": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


@pytest.mark.parametrize("numeral", ["9" * 5000, "-" + "1" * 4301, "1" * (MAX_NUMBER_CHARS + 1),
                                     "0." + "1" * 200, "1e" + "9" * 200])
def test_a_long_numeral_is_a_typed_error_everywhere(numeral):
    text = '{"speech": "s", "action": {"r1": %s}}' % numeral
    with pytest.raises(ParseError, match=f"numbers have at most {MAX_NUMBER_CHARS} characters"):
        extract_json_object(text)
    with pytest.raises(JSONTextError, match="too long"):
        loads_document(text)
    with pytest.raises(JSONTextError, match="too long"):
        loads_record(text)


def test_numbers_up_to_the_limit_decode_exactly():
    n = "9" * MAX_NUMBER_CHARS
    assert loads_document('{"a": %s}' % n) == {"a": int(n)}
    assert extract_json_object('{"a": 0.1, "b": -3, "c": 1e300}')[0] == {"a": 0.1, "b": -3, "c": 1e300}


@pytest.mark.parametrize("literal", ["1e400", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused(literal):
    with pytest.raises(ParseError, match="finite number"):
        extract_json_object('{"a": %s}' % literal)
    with pytest.raises(JSONTextError, match="finite number"):
        loads_document('{"a": %s}' % literal)


def test_nesting_limits_are_typed_errors_never_recursion_errors():
    assert extract_json_object(_nested(MAX_JSON_DEPTH))[0]
    with pytest.raises(ParseError, match=f"nested too deeply \\(limit {MAX_JSON_DEPTH} levels\\)"):
        extract_json_object(_nested(MAX_JSON_DEPTH + 1))
    assert loads_document(_nested(MAX_DOCUMENT_DEPTH))
    for depth in (MAX_DOCUMENT_DEPTH + 1, 5000, 90_000):  # past the C scanner's own recursion guard too
        with pytest.raises(JSONTextError, match=f"limit {MAX_DOCUMENT_DEPTH} levels"):
            loads_document(_nested(depth))
        with pytest.raises(ParseError, match="nested too deeply"):
            extract_json_object(_nested(depth)[:jsontext.MAX_RESPONSE_CHARS])
    assert loads_document(_nested(40), max_depth=40)
    with pytest.raises(JSONTextError):
        loads_document(_nested(40), max_depth=39)


def test_a_key_given_twice_is_refused_naming_the_key():
    for text in ('{"budget": 1, "budget": 2}', '{"a": {"r1": 1, "r1": 1}}'):
        key = "budget" if "budget" in text else "r1"
        with pytest.raises(JSONTextError, match=f"duplicate key '{key}'"):
            loads_document(text)
        with pytest.raises(ParseError, match=f"duplicate key '{key}'"):
            extract_json_object(text)


def test_documents_and_records_are_one_value_only():
    assert loads_document(' \n{"a": [1, 2.5, "x", null, true]}\n ') == {"a": [1, 2.5, "x", None, True]}
    with pytest.raises(JSONTextError, match=r"extra data after the value \(line 2, char 5\)"):
        loads_document('{}\n  {"b": 1}')
    with pytest.raises(JSONTextError, match="not valid JSON: Expecting"):
        loads_document('{"a": }')
    with pytest.raises(JSONTextError, match="a record must be a JSON object, got list"):
        loads_record("[1, 2]")
    with pytest.raises(JSONTextError, match="expected text"):
        loads_document(b"{}")  # type: ignore[arg-type]
    with pytest.raises(JSONTextError, match="limit is 5"):
        loads_document("[1, 2, 3]", max_chars=5)
    assert issubclass(JSONTextError, ValueError)


class _CountingDecoder:
    def __init__(self, inner):
        self.inner, self.calls = inner, 0

    def raw_decode(self, text, start):
        self.calls += 1
        return self.inner.raw_decode(text, start)


@pytest.mark.parametrize("flood", ["{", '{"a"', '{"a":1,', "{}{", '{"a": [', "{ {", '{"":'])
def test_extraction_decodes_a_bounded_number_of_times(monkeypatch, flood):
    """The quadratic cost to avoid is one decode (and one O(position) error) per '{'."""
    counter = _CountingDecoder(jsontext._DECODER)
    monkeypatch.setattr(jsontext, "_DECODER", counter)
    text = (flood * (100_000 // len(flood)))[:100_000]
    try:
        extract_json_object(text)
    except ParseError as e:
        assert str(e)
    assert counter.calls <= MAX_CANDIDATES


def _reference(text: str):
    """What the extraction means, unbounded: decode at every '{' of each
    candidate, first dict wins (no fences, no warnings), else the first error message."""
    first_error = None
    pos = text.find("{")
    while pos != -1:
        try:
            obj, _ = jsontext._decode_at(text, pos, MAX_JSON_DEPTH)
        except jsontext._Refused as e:
            return ("error", str(e))
        except json.JSONDecodeError as e:
            first_error = first_error or f"invalid JSON: {e.msg} (line {e.lineno} column {e.colno})"
        else:
            return ("object", obj)
        pos = text.find("{", pos + 1)
    return ("error", first_error or "no JSON object found in the response")


PIECES = ["{", "}", '"', '"a"', ":", "1", ",", "[", "]", " ", "\n", "x", '{"a": 1}', '{"b": [2]}', "{}", "\\", "null"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_bounded_extraction_finds_what_trying_every_brace_finds(text):
    """With fewer object starts than the bound, skipping impossible starts changes nothing."""
    text = text.replace("`", "")
    if not text.strip() or text.count("{") > MAX_CANDIDATES:
        return
    expected = _reference(text.strip())
    try:
        got = ("object", extract_json_object(text)[0])
    except ParseError as e:
        got = ("error", str(e))
    assert got == expected
