"""Deal or No Deal's answer description: what it admits parses and is legal, and every
legal move, written as JSON, is admitted."""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from negotiation_env.core.answer_format import answer_format
from negotiation_env.games.dond.answer_schema import build, spec
from negotiation_env.games.dond.parser import legality, parse_text
from negotiation_env.games.dond.rules import ITEMS, splits

POOL = (1, 2, 3)


@pytest.mark.parametrize("offer", [True, False])
@pytest.mark.parametrize("walk_away", [True, False])
def test_admits_exactly_the_legal_moves(offer, walk_away):
    fmt = build(spec(POOL, offer=offer, walk_away=walk_away, max_message_chars=50))
    assert fmt.name == "dond.move" and fmt.kind == "json_schema"
    schema = fmt.json_schema
    candidates = [{"message": "hi", "action": "propose", "take": dict(zip(ITEMS, t))} for t in splits((3, 3, 3))]
    candidates += [{"message": "ok", "action": a} for a in ("accept", "walk_away")]
    for c in candidates:
        admitted = jsonschema.Draft202012Validator(schema).is_valid(c)
        move = parse_text(json.dumps(c)).move
        assert admitted == (legality(move, POOL, offer=offer, walk_away=walk_away) is None), c


def test_message_cap_and_text_chars():
    s = spec(POOL, offer=True, walk_away=True, max_message_chars=10)
    v = jsonschema.Draft202012Validator(build(s).json_schema)
    assert v.is_valid({"message": "x" * 10, "action": "accept"})
    assert not v.is_valid({"message": "x" * 11, "action": "accept"})
    v3 = jsonschema.Draft202012Validator(build(s, text_chars=3).json_schema)
    assert not v3.is_valid({"message": "xxxx", "action": "accept"})


def test_the_observation_carries_the_spec():
    import negotiation_env

    env = negotiation_env.env("dond", instance="1,2,3 8,1,0 4,0,2", walk_away=False)
    env.reset(seed=0)
    fmt = answer_format(env.observe("agent_0"))
    assert fmt is not None and "anyOf" not in fmt.json_schema  # only a proposal is legal at the first turn


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x24f, blacklist_categories=("Cc", "Cs"), blacklist_characters='"\\<'),
               max_size=20), st.sampled_from(list(splits(POOL))))
def test_admitted_proposals_with_any_message_parse_to_themselves(message, take):
    d = {"message": message, "action": "propose", "take": dict(zip(ITEMS, take))}
    schema = build(spec(POOL, offer=False, walk_away=True, max_message_chars=20)).json_schema
    assert jsonschema.Draft202012Validator(schema).is_valid(d)
    move = parse_text(json.dumps(d, ensure_ascii=False)).move
    assert move.take == take and move.message == message.strip()
