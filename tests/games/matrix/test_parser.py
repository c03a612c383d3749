"""F.6 parsing: think stripping, exact and tolerant action reading, empty messages, and
structured actions; adversarial inputs and hypothesis properties."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from negotiation_env.core.visible import is_blank
from tests.core.test_thinking import by_reference
from negotiation_env.games.matrix.parser import (ParseError, parse_action, parse_message, parse_structured,
                                                 strip_think, think_spans)


@pytest.mark.parametrize("text, action, warned", [
    ("A", "A", False), ("B", "B", False), ("a", "A", False), (" b \n", "B", False),
    ("<think>I should pick B</think>A", "A", False),
    ("<think>B B B</think>\n\n b", "B", False),
    ("I choose A.", "A", True),
    ("**B**", "B", True),
    ("Action: B (final)", "B", True),
    ("A or B? I'll go with B", "A", True),      # the first standalone letter wins
    ("Based on the payoffs, B.", "B", True),      # "Based" is not standalone
    ("(A)", "A", True),
    ("B<think>then A", "B", False),               # unclosed think suffix removed
    ("I lean A</think>B", "B", False),            # an orphan closing tag: what precedes it is reasoning
    ("<think><think>A</think>A</think>B", "B", False),  # nested spans are reasoning whole
])
def test_actions(text, action, warned):
    p = parse_action(text)
    assert p.value == action
    assert bool(p.warnings) is warned


@pytest.mark.parametrize("text", [
    "", "   ", "<think>A</think>", "<think>A", "I cooperate", "a b", "AB", "ABBA", "Option_A", "A1",
    "plan: b", "Über", "\u00c0", "<THINK>A</THINK>", "<think>x</think><think>A",
])
def test_unreadable_actions_raise(text):
    with pytest.raises(ParseError, match="no action found; respond with only: A or B"):
        parse_action(text)


def test_non_text_raises():
    for bad in (None, 1, ["A"], b"A"):
        with pytest.raises(ParseError, match="expected text"):
            parse_action(bad)
        with pytest.raises(ParseError, match="expected text"):
            parse_message(bad)


def test_think_spans_complete_nested_unclosed_and_case():
    assert strip_think("x<think>a</think>y<think>b</think>z") == "xyz"
    assert strip_think("keep <think>drop\nall of\nthis") == "keep "
    assert strip_think("<Think>a</THINK>ok") == "ok"
    assert strip_think("no tags") == "no tags"
    # an orphan closing tag: the template opened the span, everything before it is reasoning
    assert strip_think("a</think>b") == "b"
    assert strip_think("<think><think>a</think>b</think>c") == "c"  # nested: b is reasoning too
    assert think_spans("x<think> one </think>y<think>two") == "one\n\ntwo"
    assert think_spans("plain") is None


def test_messages_verbatim_stripped_and_empty_is_an_error():
    assert parse_message("  Let's both choose A for mutual gain.  ").value == "Let's both choose A for mutual gain."
    assert parse_message("<think>lie?</think>Trust me.").value == "Trust me."
    assert parse_message('He said "B"\nthen left').value == 'He said "B"\nthen left'
    for empty in ("", " \n\t", "<think>only thoughts</think>", "<think>unclosed"):
        with pytest.raises(ParseError, match="empty message"):
            parse_message(empty)


def test_structured_actions_and_messages():
    assert parse_structured({"action": 0}, "action").value == "A"
    assert parse_structured({"action": np.int64(1)}, "action").value == "B"
    assert parse_structured(np.array(1), "action").value == "B"
    assert parse_structured(0, "action").value == "A"
    assert parse_structured({"action": "b"}, "action").value == "B"
    assert parse_structured({"message": " hi ", "action": 1}, "message").value == "hi"
    for bad, match in [({}, 'missing "action"'), ({"action": 2}, "0 \\(A\\) or 1 \\(B\\)"),
                       ({"action": True}, "0 \\(A\\) or 1 \\(B\\)"), ({"action": 0.0}, "0 \\(A\\) or 1 \\(B\\)")]:
        with pytest.raises(ParseError, match=match):
            parse_structured(bad, "action")
    for bad, match in [({}, 'missing "message"'), ({"message": 3}, "must be text"), ({"message": "  "}, "empty message"),
                       ("text", "a structured message is a dict")]:
        with pytest.raises(ParseError, match=match):
            parse_structured(bad, "message")


# --------------------------------------------------------------------------- properties

_ALPHABET = st.sampled_from(list("AaBb <>/thinkTHINK\n.,*:()_1é") + ["<think>", "</think>"])
texts = st.lists(_ALPHABET, max_size=40).map("".join) | st.text(max_size=60)


def _expected(text: str) -> str | None:
    """The F.6 rule, restated independently of the parser (the reasoning rule as
    restated in tests/core/test_thinking.py)."""
    answer = by_reference(text)[0].strip()
    if answer in ("A", "B", "a", "b"):
        return answer.upper()
    for i, ch in enumerate(answer):
        if ch in "AB":
            before = answer[i - 1] if i else " "
            after = answer[i + 1] if i + 1 < len(answer) else " "
            if not re.match(r"\w", before) and not re.match(r"\w", after):  # word boundaries on both sides
                return ch
    return None


@settings(max_examples=300)
@given(texts)
def test_action_rule_property(text):
    exp = _expected(text)
    if exp is None:
        with pytest.raises(ParseError):
            parse_action(text)
    else:
        assert parse_action(text).value == exp


@settings(max_examples=200)
@given(texts, st.text(max_size=30).filter(lambda s: "think>" not in s.lower()), texts)
def test_reasoning_never_decides_the_action(before, thought, after):
    """A complete think span anywhere, with anything inside, changes nothing."""
    plain = before + after
    spliced = before + "<think>" + thought + "</think>" + after
    if "<think>" in before.lower():  # an open tag in the prefix would swallow the span's start
        return
    try:
        want = parse_action(plain).value
    except ParseError:
        with pytest.raises(ParseError):
            parse_action(spliced)
    else:
        assert parse_action(spliced).value == want


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_messages_are_the_stripped_answer_or_an_error(text):
    answer = strip_think(text).strip()
    if not is_blank(answer):  # a message of only invisible characters (a lone ESC, U+200B) is empty
        assert parse_message(text).value == answer
    else:
        with pytest.raises(ParseError):
            parse_message(text)
