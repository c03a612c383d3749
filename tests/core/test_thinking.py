"""The linear-time <think> splitter agrees with the regex definition of the rule."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from negotiation_env.core.thinking import split_think, strip_think

_SPAN = re.compile(r"<think>(.*?)</think>", re.DOTALL | re.IGNORECASE)
_UNCLOSED = re.compile(r"<think>(.*)\Z", re.DOTALL | re.IGNORECASE)


def by_regex(text):
    spans = [m.group(1) for m in _SPAN.finditer(text)]
    rest = _SPAN.sub("", text)
    tail = _UNCLOSED.search(rest)
    if tail:
        spans.append(tail.group(1))
    return _UNCLOSED.sub("", rest), spans


PIECES = st.lists(st.sampled_from(["<think>", "</think>", "<THINK>", "</Think>", "<thi", "nk>", "A", "B", " ", "\n",
                                   "x", "<", ">", "/"]), max_size=30).map("".join)


@settings(max_examples=500)
@given(PIECES)
def test_agrees_with_the_regex_rule(text):
    assert split_think(text) == by_regex(text)


@settings(max_examples=300)
@given(PIECES)
def test_complete_spans_only(text):
    assert split_think(text, unclosed=False) == (_SPAN.sub("", text), [m.group(1) for m in _SPAN.finditer(text)])


def test_examples():
    assert split_think("<think>a</think>B") == ("B", ["a"])
    assert split_think("x<THINK>a</think>y<think>b") == ("xy", ["a", "b"])
    assert split_think("no tags") == ("no tags", [])
    assert strip_think("</think>A") == "</think>A"
    # a span removed can join an opening tag that the second pass then treats as unclosed
    assert split_think("<thi<think>z</think>nk>tail") == ("", ["z", "tail"])


def test_many_unclosed_tags_take_linear_time():
    # the regex took ~15 s on this; a linear scan takes milliseconds
    text = "<think>" * 16000
    assert split_think(text) == ("", ["<think>" * 15999])
