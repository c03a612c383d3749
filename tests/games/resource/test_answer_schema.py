"""The resource game's answer formats equal what its validator accepts, both ways:
every answer a description admits parses (the strict one's is also a legal decision
within supply), and every legal structured action, rendered as the env renders it into
the conversation, is admitted (by the description, and by the llguidance engine that
decodes under it)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import negotiation_env
from negotiation_env.core.answer_format import answer_format
from negotiation_env.core.jsontext import ParseError
from negotiation_env.games.resource import answer_schema as A
from negotiation_env.games.resource.parser import parse_plain, parse_text
from negotiation_env.games.resource.prompts import Names
from negotiation_env.games.resource.scenario import list_scenarios, load_scenario
from negotiation_env.games.resource.solver import feasible_run_vectors
from negotiation_env.games.resource.themes import THEMES, theme_names
from tests.answer_strategies import admits, from_format

#: what validate_decision says when a well-formed purchase breaks a rule
RULES = re.compile(r"exceeds the budget|resource types bought|not covered by purchases")
SCENARIOS = ["mc050_4", "mc080_1", "mc100_1", "mc100_4"]
MODES = [(phase, thinking) for phase in ("talk", "decision") for thinking in (False, True)]
#: text in the descriptions' character set (module answer_format: no ``"``, ``\\``, ``<`` or
#: control characters; a message starts with a visible character other than ``{`` and a backtick)
MESSAGE = st.from_regex(r"[A-Za-z0-9!#-;=-\[\]-_|}~][ !#-;=-\[\]-~]{0,40}", fullmatch=True)


def _setup(name, theme):
    sc = load_scenario(name)
    return sc, Names(theme_names(theme, sc.resource_ids))


def _parse(text, sc, names, phase, thinking):
    parse = parse_text if thinking else parse_plain
    return parse(text, sc, "agent_a", names, require_decision=phase == "decision")


def _formats(sc, names, phase, thinking, text_chars=None):
    f = A.build(A.spec(sc, "agent_a", names, phase=phase, thinking=thinking), text_chars=text_chars)
    return f, f.strict


@pytest.mark.parametrize("phase,thinking", MODES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(SCENARIOS), theme=st.sampled_from([None, *THEMES]))
def test_every_admitted_answer_parses(data, phase, thinking, name, theme):
    sc, names = _setup(name, theme)
    general, strict = _formats(sc, names, phase, thinking, text_chars=60)
    text = data.draw(from_format(general))
    try:
        turn = _parse(text, sc, names, phase, thinking)
    except ParseError as e:  # the form is right; only the rules may refuse it
        assert RULES.search(str(e)), (text, str(e))
    else:
        assert phase == "talk" or turn.decision is not None
    text = data.draw(from_format(strict))
    turn = _parse(text, sc, names, phase, thinking)  # strict: never refused
    if turn.decision is not None:
        bought = np.array([q for _, q in turn.decision.purchase])
        # within supply (budget and type limit: parsing above refuses past them)
        assert np.all(bought <= [r.supply for r in sc.resources])
        if not turn.decision.auto_assigned:
            # runs named: a feasible run vector, and the purchase is exactly what it consumes
            runs, usage, _ = feasible_run_vectors(sc, "agent_a")
            named = np.array([n for _, n in turn.decision.runs])
            assert any(np.array_equal(named, r) and np.array_equal(bought, u) for r, u in zip(runs, usage))
    else:
        assert phase == "talk" and turn.speech.strip()


def _rendered(name, theme, phase, thinking, action):
    """The env's own text of a structured action: the assistant message it commits."""
    env = negotiation_env.env(game="resource", scenario=name, theme=theme, thinking=thinking, num_rounds=1,
                              cheap_talk=phase == "talk", max_retries=0)
    env.reset(seed=0)
    agent = env.agent_selection
    obs = env.observe(agent)
    env.step(action)
    conv = env.unwrapped.game.observe(agent)["conversation"]
    assert env.unwrapped.game.info(agent)["events"] == [] or all(
        e["type"] != "validation_error" for e in env.unwrapped.game.info(agent)["events"])
    return obs, conv[-1]["content"]


@pytest.mark.parametrize("phase,thinking", MODES)
@pytest.mark.parametrize("name", SCENARIOS)
def test_every_feasible_decision_as_rendered_is_admitted_strictly(phase, thinking, name):
    sc = load_scenario(name)
    runs, usage, _ = feasible_run_vectors(sc, "agent_a")
    seen = 0
    for r, u in list(zip(runs, usage))[:: max(1, len(runs) // 12)]:
        action = {"message": "Deal.", "thinking": "mine", "decide": 1, "purchase": u, "runs": r, "auto_runs": 0}
        obs, text = _rendered(name, None, phase, thinking, action)
        fmt = answer_format(obs)
        assert admits(fmt, text) and admits(fmt.strict, text), text
        seen += 1
    assert seen >= min(len(runs), 5)


@pytest.mark.parametrize("phase,thinking", MODES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(SCENARIOS))
def test_every_legal_structured_action_as_rendered_is_admitted(data, phase, thinking, name):
    sc = load_scenario(name)
    n = len(sc.resources)
    # a purchase within budget and type limit, runs omitted (the engine assigns them) or named
    types = data.draw(st.lists(st.integers(0, n - 1), max_size=sc.max_types, unique=True))
    purchase = np.zeros(n, dtype=np.int64)
    left = sc.budget
    for j in types:
        q = data.draw(st.integers(0, int(left // sc.resources[j].cost)))
        purchase[j] = q
        left -= q * sc.resources[j].cost
    decide = data.draw(st.booleans()) if phase == "talk" else True
    message = data.draw(MESSAGE)
    action = {"message": message, "thinking": data.draw(MESSAGE | st.just("")), "decide": int(decide),
              "purchase": purchase, "auto_runs": 1}
    obs, text = _rendered(name, None, phase, thinking, action)
    fmt = answer_format(obs)
    assert admits(fmt, text), text
    # the strict set admits every legal purchase with the runs left to the engine, used up or
    # not (a deferent agent buys the share it is offered), when it is within supply
    if not decide or np.all(purchase <= [r.supply for r in sc.resources]):
        assert admits(fmt.strict, text), text


def test_spec_holds_only_the_agents_own_projects_and_the_current_names():
    env = negotiation_env.env(game="resource", scenario="mc080_1", theme="random", num_rounds=1)
    env.reset(seed=4)
    agent = env.agent_selection
    spec = json.loads(env.observe(agent)["answer_format"])
    game = env.unwrapped.game
    assert [p["name"] for p in spec["projects"]] == [p.name for p in game.scenario.projects_of(agent)]
    assert [r["name"] for r in spec["resources"]] == [game.names.name(r) for r in game.scenario.resource_ids]
    other = next(a for a in env.possible_agents if a != agent)
    assert env.observe(other)["answer_format"] == ""  # not acting: no format
    strict = answer_format(env.observe(agent)).strict
    # the strict set is the feasible run vectors, every one of them with its runs named,
    # then every purchase within budget, supply and type limit with the runs omitted
    runs, usage = feasible_run_vectors(game.scenario, agent)[:2]
    legal = A.legal_decisions(spec)
    assert sum("projects" in d for d in legal) == len(runs)
    assert legal[len(runs)] == {}  # the empty purchase, runs omitted, first of its kind
    omitted = [d for d in legal if "projects" not in d]
    assert len({json.dumps(d) for d in omitted}) == len(omitted)
    assert {json.dumps(d) for d in omitted} == {json.dumps(d) for d in _brute_force_purchases(spec)}
    assert {tuple(u) for u in usage.tolist()} <= {tuple(d.get(r["name"], 0) for r in spec["resources"])
                                                 for d in omitted}
    assert strict.name == "resource.talk.json.strict"


def _brute_force_purchases(spec):
    """Every purchase within budget, supply and type limit, by plain nested loops."""
    import itertools

    res = spec["resources"]
    out = []
    for q in itertools.product(*(range(r["supply"] + 1) for r in res)):
        cost = sum(n * r["cost"] for n, r in zip(q, res))
        if cost <= spec["budget"] + 1e-9 and sum(1 for n in q if n) <= spec["max_types"]:
            out.append({r["name"]: n for n, r in zip(q, res) if n})
    return out


@pytest.mark.parametrize("name", ["mc050_1", "mc080_3", "mc100_4"])
def test_strict_purchases_equal_a_brute_force_enumeration_in_order(name):
    sc, names = _setup(name, None)
    spec = A.spec(sc, "agent_b", names, phase="decision", thinking=False)
    legal = A.legal_decisions(spec)
    omitted = [d for d in legal if "projects" not in d]
    assert omitted == _brute_force_purchases(spec)  # lexicographic, the empty purchase first
    assert len(legal) <= 209  # the docstring's bound over the shipped scenarios


def test_text_cap_bounds_every_free_text_field():
    sc, names = _setup("mc080_1", None)
    general, _ = _formats(sc, names, "talk", True, text_chars=5)
    ok = json.dumps({"thinking": "abcde", "speech": "hi", "action": None})
    assert admits(general, ok)
    assert not admits(general, json.dumps({"thinking": "abcdef", "speech": "hi", "action": None}))
    assert not admits(general, json.dumps({"thinking": "", "speech": " ", "action": None}))  # blank speech
    plain, _ = _formats(sc, names, "talk", False, text_chars=3)
    assert admits(plain, "Hi!") and not admits(plain, "Hi!!") and not admits(plain, "{x")


def test_all_shipped_scenarios_compile_in_the_engine():
    pytest.importorskip("llguidance")
    from tests.answer_strategies import engine

    eng = engine()
    for name in list_scenarios():
        sc, names = _setup(name, None)
        for phase, thinking in MODES:
            for fmt in _formats(sc, names, phase, thinking, text_chars=40):
                eng.grammar(fmt)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(SCENARIOS), mode=st.sampled_from(MODES))
def test_the_engine_admits_what_the_description_admits(engine_fixture, data, name, mode):
    sc, names = _setup(name, None)
    for fmt in _formats(sc, names, *mode, text_chars=30):
        text = data.draw(from_format(fmt))
        assert engine_fixture.accepts(fmt, text), (fmt.name, text)


@pytest.fixture(scope="module")
def engine_fixture():
    pytest.importorskip("llguidance")
    from tests.answer_strategies import engine

    return engine()
