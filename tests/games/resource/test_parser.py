"""Text and structured actions of the resource game: one validator, exact error messages."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from negotiation_env.core.jsontext import MAX_JSON_DEPTH, MAX_RESPONSE_CHARS, ParseError, extract_json_object
from negotiation_env.games.resource import load_scenario
from negotiation_env.games.resource.parser import parse_structured, parse_text
from negotiation_env.games.resource.prompts import Names
from negotiation_env.games.resource.themes import theme_names

SC = load_scenario("legacy_mc080_1")  # agent_a: a {r2:2,r3:3}->17, b {r2:3,r3:1}->5, c {r3:4}->11
NAMES = Names(theme_names("medieval", SC.resource_ids))  # r1 wood, r2 stone, r3 gold


def text(t, decision=False, agent="agent_a"):
    return parse_text(t, SC, agent, NAMES, require_decision=decision)


def err(t, decision=False):
    with pytest.raises(ParseError) as e:
        text(t, decision)
    return str(e.value)


def test_talk_turn():
    t = text('{"thinking": "hmm", "speech": "Hello!", "action": null}')
    assert (t.thinking, t.speech, t.decision, t.warnings) == ("hmm", "Hello!", None, ())


def test_decision_with_runs_and_auto_assignment():
    t = text('{"thinking": "", "speech": "ok", "action": {"stone": 2, "gold": 3, "projects": {"project_a": 1}}}')
    assert t.decision.purchase_dict() == {"r1": 0, "r2": 2, "r3": 3}
    assert t.decision.runs_dict() == {"project_a": 1, "project_b": 0, "project_c": 0} and not t.decision.auto_assigned
    t = text('{"speech": "ok", "action": {"stone": 3, "gold": 4}}')
    # presented order: project_a (stone2+gold3) x1 leaves stone1 gold1; b needs stone3: 0; c needs gold4: 0
    assert t.decision.runs_dict() == {"project_a": 1, "project_b": 0, "project_c": 0} and t.decision.auto_assigned


def test_tolerated_wrappers_warn():
    t = text('Sure! ```json\n{"speech": "hi", "action": null}\n``` hope that helps')
    assert t.speech == "hi"
    assert "JSON object was wrapped in a code fence" in t.warnings
    assert "text before or after the JSON object was ignored" in t.warnings
    t = text('My answer: {"speech": "hi", "action": null, "mood": "good"}')
    assert t.warnings == ("text before or after the JSON object was ignored", "ignored unknown fields: mood")


def test_bare_purchase_in_decision_phase():
    t = text('{"wood": 5}', decision=True, agent="agent_b")
    assert t.decision.purchase_dict()["r1"] == 5 and t.warnings == ("bare purchase object accepted as the action",)


@pytest.mark.parametrize(
    "raw,decision,message",
    [
        ("", False, "empty response"),
        ("I want wood", False, "no JSON object found"),
        ('{"speech": "hi", "action": nul}', False, "invalid JSON"),
        ('{"thinking": "x", "action": null}', False, 'missing field "speech"'),
        ('{"speech": "", "action": null}', False, '"speech" MUST NOT be empty'),
        ('{"speech": "hi", "action": null}', True, 'MUST set "action"'),
        ('{"speech": 3, "action": null}', False, '"speech" must be a string'),
        ('{"speech": "x", "action": [1]}', False, '"action" must be null or a purchase object'),
        ('{"speech": "x", "action": {"iron": 2}}', False, "unknown resource 'iron' (valid resources: wood, stone, gold"),
        ('{"speech": "x", "action": {"gold": 2.5}}', False, "quantity of 'gold' must be a non-negative whole number, got 2.5"),
        ('{"speech": "x", "action": {"gold": -1}}', False, "quantity of 'gold' must be a non-negative whole number"),
        ('{"speech": "x", "action": {"gold": true}}', False, "quantity of 'gold' must be a non-negative whole number"),
        ('{"speech": "x", "action": {"gold": "3"}}', False, "quantity of 'gold' must be a non-negative whole number"),
        ('{"speech": "x", "action": {"gold": 7}}', False, "total cost $21 exceeds the budget of $18"),
        ('{"speech": "x", "action": {"wood": 1, "stone": 1, "gold": 1}}', False, "3 resource types bought (wood, stone, gold); at most 2 allowed"),
        ('{"speech": "x", "action": {"gold": 3, "projects": {"project_z": 1}}}', False, "unknown project 'project_z' (your projects: project_a, project_b, project_c)"),
        ('{"speech": "x", "action": {"gold": 3, "projects": {"project_c": 0.5}}}', False, "runs of 'project_c' must be a non-negative whole number"),
        ('{"speech": "x", "action": {"gold": 3, "projects": [1]}}', False, '"projects" must be an object'),
        ('{"speech": "x", "action": {"gold": 1, "gold": 2}}', False, "duplicate key 'gold'"),
        ('{"speech": "x", "action": {"gold": NaN}}', False, "NaN is not allowed"),
        ('{"speech": "x", "action": {"gold": Infinity}}', False, "Infinity is not allowed"),
        ('{"speech": "x", "action": {"gold": 1, "GOLD": 1}}', False, "resource 'GOLD' given twice"),
    ],
)
def test_refusals_say_exactly_what_is_wrong(raw, decision, message):
    assert message in err(raw, decision)


def test_several_problems_are_all_named():
    m = err('{"speech": "x", "action": {"wood": 10, "stone": 10, "gold": 6}}')
    assert "exceeds the budget" in m and "3 resource types bought" in m


def test_case_insensitive_names_and_integral_floats():
    t = text('{"speech": "x", "action": {"Gold": 4.0}}')
    assert t.decision.purchase_dict()["r3"] == 4 and t.decision.runs_dict()["project_c"] == 1


def test_caps_on_size_and_depth():
    assert "limit is" in err("{" + " " * MAX_RESPONSE_CHARS + "}")
    deep = '{"a":' * (MAX_JSON_DEPTH + 5) + "1" + "}" * (MAX_JSON_DEPTH + 5)
    assert "nested too deeply" in err(deep)
    assert "no JSON object found" in err("[" * 1000)
    assert "nested too deeply" in err('{"a": ' + "[" * 50000)
    assert "invalid JSON: Expecting property name" in err("{" * 50000)


def test_unclosed_think_prefix_and_later_object():
    obj, warnings = extract_json_object('<think>{broken\n</think> {"speech": "hi", "action": null}')
    assert obj == {"speech": "hi", "action": None}
    assert warnings == ["text before or after the JSON object was ignored"]


def structured(action, decision=False, agent="agent_a"):
    return parse_structured(action, SC, agent, NAMES, require_decision=decision)


def test_structured_errors():
    with pytest.raises(ParseError, match='"message" MUST NOT be empty'):
        structured({"message": " ", "decide": 0})
    with pytest.raises(ParseError, match="you MUST decide now"):
        structured({"message": "hi", "decide": 0}, decision=True)
    with pytest.raises(ParseError, match="unknown action keys: bogus"):
        structured({"bogus": 1})
    with pytest.raises(ParseError, match='"purchase" must have 3 entries'):
        structured({"message": "mine", "decide": 1, "purchase": np.array([1, 2])})
    # D.1.4: "speech" MUST NOT be empty, with a purchase too (thinking on); with thinking
    # off a decision is the bare purchase object, which has no speech
    with pytest.raises(ParseError, match='"message" MUST NOT be empty, also when deciding'):
        structured({"message": " ", "decide": 1, "purchase": np.array([0, 2, 3])})
    assert parse_structured({"decide": 1, "purchase": np.array([0, 2, 3])}, SC, "agent_a", NAMES,
                            require_decision=True, require_speech=False).decision is not None
    with pytest.raises(ParseError, match="action must be a string or a dict"):
        structured(42)


purchases = st.lists(st.integers(0, 12), min_size=3, max_size=3)
runs = st.lists(st.integers(0, 4), min_size=3, max_size=3)


@settings(max_examples=300, deadline=None)
@given(p=purchases, r=runs, auto=st.booleans(), agent=st.sampled_from(["agent_a", "agent_b"]))
def test_text_and_structured_paths_agree(p, r, auto, agent):
    """Same decision through both paths: same Decision, or the same error message."""
    action = {n: q for n, q in zip(["wood", "stone", "gold"], p)}
    pnames = [x.name for x in SC.projects_of(agent)]
    if not auto:
        action["projects"] = dict(zip(pnames, r))
    raw = json.dumps({"thinking": "t", "speech": "s", "action": action})
    sa = {"message": "s", "thinking": "t", "decide": 1, "purchase": np.array(p), "runs": np.array(r), "auto_runs": int(auto)}
    try:
        a = parse_text(raw, SC, agent, NAMES, require_decision=False).decision
    except ParseError as e:
        with pytest.raises(ParseError) as e2:
            structured(sa, agent=agent)
        assert str(e2.value) == str(e)
        return
    b = structured(sa, agent=agent).decision
    assert a == b


def test_astronomical_quantities_are_refused_with_a_message_not_an_overflow():
    # found by the fuzz suite: 1.2e308 units of stone made the cost overflow to inf, and
    # formatting that cost for the error message raised OverflowError
    msg = err('{"stone": 1.1984620899082105e+308}', decision=True)
    assert "exceeds the budget" in msg and "$inf" in msg
    msg = err('{"stone": 1e20}', decision=True)
    assert "total cost $" in msg and "e+" in msg
