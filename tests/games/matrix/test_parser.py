"""F.6 parsing: think stripping (F.6 as written, the default, and the strict rule of the
other games), exact and tolerant action reading, empty messages, and structured actions;
adversarial inputs and hypothesis properties."""

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
])
@pytest.mark.parametrize("think_tags", ["f6", "strict"])
def test_actions(text, action, warned, think_tags):
    p = parse_action(text, think_tags)
    assert p.value == action
    assert bool(p.warnings) is warned


@pytest.mark.parametrize("text, f6, strict", [
    # F.6 removes complete spans and an unclosed suffix only: a stray closing tag is text, and
    # "([AB])" reads the letter before it; the strict rule makes what precedes it reasoning
    ("A</think>", "A", None),
    ("B</think>\n", "B", None),
    ("I lean A</think>B", "A", "B"),
    # a span ends at the first closing tag after it (F.6's non-greedy regex): "A</think>B" is left
    ("<think><think>A</think>A</think>B", "A", "B"),
    ("<think>x</think>B</think>", "B", None),
])
def test_stray_closing_tags_f6_and_strict(text, f6, strict):
    p = parse_action(text)  # the default is F.6's reading
    assert (p.value, p.warnings) == (f6, ("text around the action was ignored",))
    assert parse_action(text, "f6") == p
    if strict is None:
        with pytest.raises(ParseError, match="no action found"):
            parse_action(text, "strict")
    else:
        assert parse_action(text, "strict").value == strict


def test_stray_closing_tag_in_a_message_stays_under_f6():
    assert parse_message("Let us both pick A.</think>").value == "Let us both pick A.</think>"
    with pytest.raises(ParseError, match="empty message"):
        parse_message("Let us both pick A.</think>", "strict")
    assert parse_message("plan</think>Deal?", "strict").value == "Deal?"
    assert parse_structured({"message": "hi</think>"}, "message").value == "hi</think>"
    assert parse_structured({"message": "x</think>hi"}, "message", "strict").value == "hi"


@pytest.mark.parametrize("text", [
    "", "   ", "<think>A</think>", "<think>A", "I cooperate", "a b", "AB", "ABBA", "Option_A", "A1",
    "plan: b", "Über", "\u00c0", "<THINK>A</THINK>", "<think>x</think><think>A",
])
@pytest.mark.parametrize("think_tags", ["f6", "strict"])
def test_unreadable_actions_raise(text, think_tags):
    with pytest.raises(ParseError, match="no action found; respond with only: A or B"):
        parse_action(text, think_tags)


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
    # strict: an orphan closing tag (the template opened the span) makes everything before it reasoning
    assert strip_think("a</think>b", "strict") == "b"
    assert strip_think("<think><think>a</think>b</think>c", "strict") == "c"  # nested: b is reasoning too
    # F.6: complete spans (each closed by the first closing tag), then an unclosed suffix; orphans are text
    assert strip_think("a</think>b") == "a</think>b"
    assert strip_think("<think><think>a</think>b</think>c") == "b</think>c"
    assert strip_think("<thi<think>x</think>nk>A") == ""  # a tag spliced by the first pass opens a suffix
    assert think_spans("x<think> one </think>y<think>two") == "one\n\ntwo"
    assert think_spans("x<think> one </think>y<think>two", "strict") == "one\n\ntwo"
    assert think_spans("a</think>b") is None and think_spans("a</think>b", "strict") == "a"
    assert think_spans("plain") is None
    with pytest.raises(ValueError, match="rule must be one of strict, f6; got 'x'"):
        strip_think("a", "x")


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


def _f6_regexes(text: str) -> str:
    """F.6's reasoning rule as the two regexes it describes (quadratic on hostile input,
    fine on these short texts)."""
    text = re.sub(r"<think>.*?</think>", "", text, flags=re.IGNORECASE | re.DOTALL)
    return re.sub(r"<think>.*", "", text, flags=re.IGNORECASE | re.DOTALL)


def _expected(text: str, think_tags: str) -> str | None:
    """The F.6 action rule, restated independently of the parser, after the reasoning rule
    (F.6's regexes, or the strict rule as restated in tests/core/test_thinking.py)."""
    answer = (_f6_regexes(text) if think_tags == "f6" else by_reference(text)[0]).strip()
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
@given(texts, st.sampled_from(["f6", "strict"]))
def test_action_rule_property(text, think_tags):
    exp = _expected(text, think_tags)
    if exp is None:
        with pytest.raises(ParseError):
            parse_action(text, think_tags)
    else:
        assert parse_action(text, think_tags).value == exp


@settings(max_examples=200)
@given(texts, st.text(max_size=30).filter(lambda s: "think>" not in s.lower()), texts, st.sampled_from(["f6", "strict"]))
def test_reasoning_never_decides_the_action(before, thought, after, think_tags):
    """A complete think span anywhere, with anything inside, changes nothing."""
    plain = before + after
    spliced = before + "<think>" + thought + "</think>" + after
    if "<think>" in before.lower():  # an open tag in the prefix would swallow the span's start
        return
    try:
        want = parse_action(plain, think_tags).value
    except ParseError:
        with pytest.raises(ParseError):
            parse_action(spliced, think_tags)
    else:
        assert parse_action(spliced, think_tags).value == want


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_messages_are_the_stripped_answer_or_an_error(text):
    answer = strip_think(text).strip()
    if not is_blank(answer):  # a message of only invisible characters (a lone ESC, U+200B) is empty
        assert parse_message(text).value == answer
    else:
        with pytest.raises(ParseError):
            parse_message(text)
