"""The matrix game's answer formats equal what its parser accepts, both ways: every
admitted answer parses (to that action, or to that message), every structured action
as the env records it is admitted, and the engine reads the regexes the same way."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import negotiation_env
from negotiation_env.core.answer_format import answer_format
from negotiation_env.games.matrix import answer_schema as A
from negotiation_env.games.matrix.parser import parse_action, parse_message
from tests.answer_strategies import admits, from_format

ONE_LINE = st.from_regex(r"[A-Za-z0-9!#-;=-\[\]-~][ -;=-~]{0,60}", fullmatch=True)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), cap=st.one_of(st.none(), st.integers(1, 50)))
def test_every_admitted_answer_parses(data, cap):
    action = A.build(A.spec("action"), text_chars=cap)
    text = data.draw(from_format(action))
    assert parse_action(text).value == text and not parse_action(text).warnings
    for phase in ("message", "acknowledge"):
        fmt = A.build(A.spec(phase), text_chars=cap)
        text = data.draw(from_format(fmt))
        assert parse_message(text).value == text.strip() and "\n" not in text
        assert cap is None or len(text) <= cap


def _env():
    env = negotiation_env.env(game="matrix", num_rounds=2)
    env.reset(seed=0)
    return env


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(message=ONE_LINE, choice=st.integers(0, 1))
def test_every_structured_action_as_recorded_is_admitted(message, choice):
    env = _env()
    game = env.unwrapped.game
    while not env.unwrapped.game.done:
        agent = env.agent_selection
        obs = env.observe(agent)
        fmt = answer_format(obs)
        phase = game.phase
        env.step({"message": message, "action": choice})
        if phase == "acknowledge":
            continue
        recorded = game.observe(agent)["conversation"]
        said = [m["content"] for m in recorded if m["role"] == "assistant"][-1]
        assert admits(fmt, said), (fmt.name, said)
        if phase == "action":
            assert said == "AB"[choice]


def test_spec_per_phase_and_only_for_the_acting_agent():
    env = _env()
    names = []
    while not env.unwrapped.game.done:
        agent = env.agent_selection
        for a in env.possible_agents:
            spec = env.observe(a)["answer_format"]
            assert (spec != "") == (a in env.unwrapped.game.acting())
        names.append(answer_format(env.observe(agent)).name)
        env.step({"message": "Hello.", "action": 0})
    assert set(names) == {"matrix.acknowledge", "matrix.message", "matrix.action"}
    assert re.fullmatch(A.build(A.spec("action")).regex, "C") is None


@settings(max_examples=30, deadline=None)
@given(data=st.data(), phase=st.sampled_from(["action", "message"]))
def test_the_engine_admits_what_the_description_admits(engine_fixture, data, phase):
    fmt = A.build(A.spec(phase), text_chars=30)
    assert engine_fixture.accepts(fmt, data.draw(from_format(fmt)))
    assert not engine_fixture.accepts(fmt, "<think>A")


@pytest.fixture(scope="module")
def engine_fixture():
    pytest.importorskip("llguidance")
    from tests.answer_strategies import engine

    return engine()
