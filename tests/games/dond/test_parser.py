"""Reading Deal or No Deal answers: text and structured actions give one move; bad input
is a typed error, never a crash."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from negotiation_env.games.dond.parser import (MOVES, IllegalMove, Move, ParseError, legality, parse_structured,
                                               parse_text)

MOVE_DICTS = [
    {"message": "I keep the book.", "action": "propose", "take": {"books": 1, "hats": 0, "balls": 2}},
    {"message": "Deal.", "action": "accept", "take": None},
    {"message": "", "action": "walk_away", "take": None},
]


@pytest.mark.parametrize("d", MOVE_DICTS)
def test_text_and_structured_give_the_same_move(d):
    from_text = parse_text(json.dumps(d)).move
    assert from_text == parse_structured(d).move
    assert from_text.as_dict() == d


def test_structured_forms_of_the_same_proposal_agree():
    want = Move("propose", (2, 1, 0), "hi")
    forms = [{"message": "hi", "action": "propose", "take": [2, 1, 0]},
             {"message": "hi", "action": 0, "take": np.array([2, 1, 0])},
             {"message": "hi", "action": np.int64(0), "take": (2, 1, 0)},
             {"message": "hi", "action": "Propose", "take": {"balls": 0, "hats": 1, "books": 2}}]
    assert {parse_structured(f).move for f in forms} == {want}


def test_take_of_accept_is_ignored_and_text_says_so():
    p = parse_text('{"message": "ok", "action": "accept", "take": {"books": 1, "hats": 0, "balls": 0}}')
    assert p.move == Move("accept", None, "ok")
    assert p.warnings == ('"take" was ignored: it belongs to a proposal, not to accept',)
    assert parse_structured({"action": 1, "take": np.array([7, 7, 7])}).move == Move("accept")


def test_reasoning_is_cut_out_and_kept():
    p = parse_text('<think>they like balls</think>{"action": "walk_away"}')
    assert p.move == Move("walk_away") and p.thinking == "they like balls" and p.warnings == ()


def test_prose_around_the_object_is_tolerated_with_a_warning():
    p = parse_text('Sure! {"action": "accept", "message": "fine"} Thanks')
    assert p.move == Move("accept", None, "fine")
    assert p.warnings == ("text before or after the JSON object was ignored",)


@pytest.mark.parametrize("text,error", [
    ("nonsense", "no JSON object found in the response"),
    ("", "empty response; a JSON object is required"),
    ('{"action": "haggle"}', '"action" must be one of propose, accept, walk_away; got '),
    ('{"message": "hi"}', 'missing "action": one of propose, accept, walk_away'),
    ('{"action": "propose"}', 'a proposal needs "take"'),
    ('{"action": "propose", "take": {"books": 1, "hats": 0}}', '"take" must give every item (books, hats, balls); '
                                                               "missing balls"),
    ('{"action": "propose", "take": {"books": 1, "hats": 0, "balls": 0, "cats": 1}}', '"take" has unknown items'),
    ('{"action": "propose", "take": {"books": -1, "hats": 0, "balls": 0}}', '"take" of books must be a whole number'),
    ('{"action": "propose", "take": {"books": 1.5, "hats": 0, "balls": 0}}', '"take" must give books as a whole'),
    ('{"action": "accept", "message": 3}', '"message" must be text; got int'),
])
def test_bad_text_is_a_parse_error_with_the_reason(text, error):
    with pytest.raises(ParseError) as e:
        parse_text(text)
    assert error in str(e.value)


def test_legality_depends_on_the_state():
    pool = (1, 2, 3)
    assert legality(Move("propose", (1, 2, 3)), pool, offer=False, walk_away=True) is None
    assert legality(Move("propose", (2, 0, 0)), pool, offer=False, walk_away=True) == (
        "you cannot keep more than the pool holds: 2 books (the pool has 1)")
    assert "no proposal from the other agent to accept" in legality(Move("accept"), pool, offer=False, walk_away=True)
    assert legality(Move("accept"), pool, offer=True, walk_away=False) is None
    assert "not allowed" in legality(Move("walk_away"), pool, offer=True, walk_away=False)
    assert issubclass(IllegalMove, ParseError)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_is_a_parse_error(text):
    try:
        p = parse_text(text)
    except ParseError:
        return
    assert p.move.action in MOVES


_JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=True) | st.text(max_size=8),
                        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["message", "action", "take", "x"]), _JSONISH, max_size=4) | _JSONISH)
def test_any_structured_value_parses_or_is_a_parse_error(value):
    try:
        parse_structured(value)
    except ParseError:
        pass
