"""The rulemaking game's answer format equals what its validator accepts, both ways, in
every condition: every admitted move parses (private state included, within the
sentence and character limits), every legal structured move rendered as the JSON the
prompt asks for is admitted, and the engine reads the schema the same way."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import negotiation_env
from negotiation_env.core.answer_format import answer_format
from negotiation_env.games.rulemaking import answer_schema as A
from negotiation_env.games.rulemaking.features import CONDITIONS
from negotiation_env.games.rulemaking.parser import ParseLimits, count_sentences, parse_text, private_key
from negotiation_env.games.rulemaking.prompts import NOTEBOOK_FIELDS
from negotiation_env.games.rulemaking.rules import MOVES
from tests.answer_strategies import admits, from_format

SENTENCE = st.from_regex(r"[A-Za-z][A-Za-z ,;:'-]{0,30}[.!?]", fullmatch=True)


def _env(condition):
    env = negotiation_env.env(game="rulemaking", condition=condition, max_turns=5)
    env.reset(seed=0)
    return env


@pytest.mark.parametrize("condition", CONDITIONS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), cap=st.one_of(st.none(), st.integers(10, 200)))
def test_every_admitted_move_parses(data, condition, cap):
    env = _env(condition)
    game = env.unwrapped.game
    fmt = answer_format(env.observe(env.agent_selection), text_chars=cap)
    text = data.draw(from_format(fmt))
    mv = parse_text(text, game.scenario, condition, game.config.limits)
    obj = json.loads(text)
    assert mv.move == obj["move"] and mv.issue == obj["issue"]
    key = private_key(condition)
    if key in ("ledger", "notebook"):
        assert set(mv.private) == set(NOTEBOOK_FIELDS[condition])


@pytest.mark.parametrize("condition", CONDITIONS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_legal_structured_move_rendered_is_admitted(data, condition):
    env = _env(condition)
    game = env.unwrapped.game
    limits: ParseLimits = game.config.limits
    fmt = answer_format(env.observe(env.agent_selection))
    obj = {}
    key = private_key(condition)
    if key == "notes":
        obj["notes"] = data.draw(st.from_regex(r"[ -!#-;=-\[\]-~]{0,100}", fullmatch=True))
    elif key is not None:
        obj[key] = {f: " ".join(data.draw(st.lists(SENTENCE, max_size=limits.max_sentences)))
                    for f in NOTEBOOK_FIELDS[condition]}
        assert all(count_sentences(v) <= limits.max_sentences for v in obj[key].values())
    obj["move"] = data.draw(st.sampled_from(MOVES))
    obj["issue"] = data.draw(st.sampled_from([None, *game.scenario.issue_ids]))
    obj["rationale"] = data.draw(SENTENCE)
    text = json.dumps(obj, ensure_ascii=False)
    env.step(text)  # legal: the env takes it as the move
    assert not [e for e in game.info(game.possible_agents[0])["events"] if e["type"] == "validation_error"]
    assert admits(fmt, text), text


def test_sentence_pattern_counts_like_the_validator():
    import re

    p = A.sentences_pattern(2, 40)[1:-1]
    for text, ok in [("One. Two.", True), ("One. Two", True), ("One. Two. Three", False), ("3.5 apples", False),
                     ("", True), ("Wait!", True)]:
        assert (re.fullmatch(p, text) is not None) == ok, text
        if ok:
            assert count_sentences(text) <= 2


@pytest.mark.parametrize("condition", ["ledger", "notes", "none"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_engine_admits_what_the_description_admits(engine_fixture, data, condition):
    env = _env(condition)
    fmt = answer_format(env.observe(env.agent_selection), text_chars=40)
    assert engine_fixture.accepts(fmt, data.draw(from_format(fmt)))


@pytest.fixture(scope="module")
def engine_fixture():
    pytest.importorskip("llguidance")
    from tests.answer_strategies import engine

    return engine()
