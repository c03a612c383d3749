"""The linear-time <think> splitter: agrees with a plain restatement of the rule, keeps
reasoning out of the answer whatever surrounds it (nested spans, orphan closing tags,
unclosed spans), and cuts the text where the tags really are."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from negotiation_env.core.thinking import split_think, strip_think


def _one_pass(text):
    """The rule restated on re.split tokens (text, tag, text, tag, ...): ``(answer,
    reasoning)`` with the reasoning as one string in text order."""
    tokens = re.split(r"(<think>|</think>)", text, flags=re.IGNORECASE)
    pieces = []  # [is_reasoning, text] in text order
    depth = 0
    for i, tok in enumerate(tokens):
        if i % 2 == 0:
            pieces.append([depth > 0, tok])
        elif tok.lower() == "<think>":
            if depth:
                pieces.append([True, tok])
            depth += 1
        elif depth:
            depth -= 1
            if depth:
                pieces.append([True, tok])
        else:  # an orphan closing tag: everything before it is reasoning
            for p in pieces:
                p[0] = True
    return "".join(t for r, t in pieces if not r), "".join(t for r, t in pieces if r)


def by_reference(text):
    answer, reasoning = _one_pass(text)
    if re.search(r"</?think>", answer, re.IGNORECASE):
        answer, more = _one_pass(answer)
        reasoning += more
    return answer, reasoning


PIECES = st.lists(st.sampled_from(["<think>", "</think>", "<THINK>", "</Think>", "<thi", "nk>", "A", "B", " ", "\n",
                                   "x", "<", ">", "/", "\u0130"]), max_size=30).map("".join)
SECRET = "\u00a7secret\u00a7"  # no piece can spell it


@settings(max_examples=500)
@given(PIECES)
def test_agrees_with_the_restated_rule(text):
    answer, reasoning = by_reference(text)
    got_answer, got_reasoning = split_think(text)
    assert got_answer == answer
    assert "".join(got_reasoning) == reasoning  # the same reasoning text, in the same order


@settings(max_examples=500)
@given(PIECES, PIECES)
def test_reasoning_never_reaches_the_answer_whatever_surrounds_it(before, after):
    shapes = [
        before + SECRET + "</think>" + after,                          # opened by the template
        before + "<think>" + SECRET + "</think>" + after,              # a span
        before + "<think><think>a</think>" + SECRET + "</think>" + after,  # nested
        before + "<THINK>" + SECRET,                                   # cut off while thinking
        before + "<think>" + SECRET + "<think>" + after,               # never closed
    ]
    for text in shapes:
        answer, reasoning = split_think(text)
        assert SECRET not in answer, text
        assert any(SECRET in r for r in reasoning), text


def test_examples():
    assert split_think("<think>a</think>B") == ("B", ["a"])
    assert split_think("x<THINK>a</think>y<think>b") == ("xy", ["a", "b"])
    assert split_think("no tags") == ("no tags", [])
    assert split_think("secret</think>answer") == ("answer", ["secret"])
    assert split_think("<think><think>a</think>b</think>c") == ("c", ["<think>a</think>b"])
    assert split_think("<think>x</think>mid</think>end") == ("end", ["x", "mid"])
    assert strip_think("</think>A") == "A"
    assert strip_think("A<think>then B") == "A"
    # a span removed can join an opening tag that the second pass then treats as unclosed
    assert split_think("<thi<think>z</think>nk>tail") == ("", ["z", "tail"])


def test_positions_are_those_of_the_text_not_of_its_lower_case():
    # "\u0130".lower() is two characters: cutting the text at positions found in text.lower()
    # would shift every cut and put "I will" into the answer
    text = "\u0130" * 14 + " Deal. <think>I will defect</think> Cooperate?"
    assert split_think(text) == ("\u0130" * 14 + " Deal.  Cooperate?", ["I will defect"])


def test_many_unclosed_tags_take_linear_time():
    # quadratic for a backtracking regex; the scan visits each tag once
    text = "<think>" * 16000
    assert split_think(text) == ("", ["<think>" * 15999])


def test_many_tags_of_every_kind_take_linear_time():
    import math
    import time

    t0 = time.perf_counter()
    for text in ("</think>" * 16000, "<think></think>" * 16000, "<think>" * 8000 + "</think>" * 8000 + "x",
                 "a</think>" * 16000):
        split_think(text)
    assert time.perf_counter() - t0 < 2.0
    assert split_think("a</think>" * 3) == ("", ["a", "a", "a"])


def _f6_regexes(text):
    """Seed 002's F.6 as the two regexes it describes: complete spans, then an unclosed suffix."""
    text = re.sub(r"<think>.*?</think>", "", text, flags=re.IGNORECASE | re.DOTALL)
    return re.sub(r"<think>.*", "", text, flags=re.IGNORECASE | re.DOTALL)


@settings(max_examples=500)
@given(PIECES)
def test_f6_rule_is_the_two_regexes(text):
    answer, reasoning = split_think(text, "f6")
    assert answer == _f6_regexes(text)
    assert len(answer) + sum(len(r) for r in reasoning) <= len(text)


def test_f6_examples_and_linear_time():
    import math
    import time

    assert split_think("A</think>", "f6") == ("A</think>", [])  # a stray closing tag is text
    assert split_think("<think><think>a</think>b</think>c", "f6") == ("b</think>c", ["<think>a"])
    assert split_think("x<THINK>a</think>y<think>b", "f6") == ("xy", ["a", "b"])
    assert split_think("A</think>") == ("", ["A"])  # the default stays the strict rule of every game
    def cost(n: int) -> float:  # the best of five, so a busy machine only adds noise upward
        best = math.inf
        for _ in range(5):
            t0 = time.perf_counter()
            split_think("<think>" * n + "x" + "</think>" * 3, "f6")
            split_think("<think>" * n, "f6")
            best = min(best, time.perf_counter() - t0)
        return best

    # 16 times the text costs about 16 times the time; F.6's regex is quadratic (256 times)
    assert cost(64_000) < 64 * cost(4_000)
