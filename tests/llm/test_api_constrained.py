"""Constrained answers through an OpenAI-compatible server (APIPolicy ``constrained``):
the fake server on 127.0.0.1 receives each observation's answer format in the field
``constrained_via`` names and answers under it; whole games then have no refused answer;
the probe refuses a server that ignores or refuses the field before any game."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("openai")

import negotiation_env  # noqa: E402
from baselines.llm.api import APIPolicy  # noqa: E402
from baselines.llm.policy import ProbeFailed  # noqa: E402
from negotiation_env.core.answer_format import answer_format  # noqa: E402
from tests.fakeserver import constraint_of, structured_reply  # noqa: E402


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("NEGENV_TEST_KEY", "sk-FAKE-constrained-test")


def policy(server, **kw):
    return APIPolicy("test-model", server.url, api_key_env="NEGENV_TEST_KEY", timeout=5, max_retries=1,
                     backoff=0.01, **kw)


def play(game, config, pol):
    """One game; returns [(observation, usage)] of every step."""
    env = negotiation_env.env(game=game, **config)
    env.reset(seed=0)
    pol.reset(seed=0)
    seen = []
    for agent in env.agent_iter():
        obs, _r, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(pol.act(obs))
        seen.append((obs, pol.last_usage, env.unwrapped.game.info(agent)["events"]))
    return seen


GAMES = [("resource", {"num_rounds": 1, "cheap_talk_turns": 1, "thinking": True, "max_retries": 0}),
         ("resource", {"num_rounds": 1, "cheap_talk_turns": 1, "thinking": False, "max_retries": 0}),
         ("rulemaking", {"max_turns": 5, "condition": "ledger", "max_retries": 0}),
         ("matrix", {"num_rounds": 2})]


@pytest.mark.parametrize("via", ["structured_outputs", "guided"])
@pytest.mark.parametrize("game,config", GAMES)
def test_vllm_fields_carry_every_format_and_no_answer_is_refused(server, via, game, config):
    server.reply = structured_reply()
    pol = policy(server, constrained=True, constrained_via=via)
    steps = play(game, config, pol)
    assert steps
    assert not [e for _o, _u, ev in steps for e in ev if e["type"] == "validation_error"]
    assert len(server.requests) == len(steps)
    for (obs, usage, _ev), req in zip(steps, server.requests):
        fmt = answer_format(obs).best()
        c = constraint_of(req)
        assert c is not None and c[0] == via
        assert c[2] == (fmt.json_schema if fmt.json_schema is not None else fmt.regex)  # the schema itself
        assert usage["constrained"] == {"format": fmt.name, "via": via, "complete": True}
        assert "response_format" not in req


def test_response_format_carries_json_schemas_and_records_the_free_plain_text_turns(server):
    server.reply = structured_reply(lambda req: "Let us share the pool.")
    pol = policy(server, constrained=True)  # response_format, the default
    steps = play("resource", GAMES[1][1], pol)  # thinking off: talk is plain text, a decision JSON
    assert not [e for _o, _u, ev in steps for e in ev if e["type"] == "validation_error"]
    kinds = []
    for (obs, usage, _ev), req in zip(steps, server.requests):
        fmt = answer_format(obs).best()
        if fmt.json_schema is not None:
            rf = req["response_format"]
            assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
            assert rf["json_schema"]["schema"] == fmt.json_schema
            assert rf["json_schema"]["name"] == fmt.name.replace(".", "_")
            assert usage["constrained"]["via"] == "response_format"
            kinds.append("json")
        else:
            assert constraint_of(req) is None
            assert usage["constrained"]["via"] is None and "JSON Schemas only" in usage["constrained"]["skipped"]
            kinds.append("free")
    assert set(kinds) == {"json", "free"}


def test_unconstrained_requests_carry_no_constraint(server):
    server.reply = structured_reply(lambda req: '{"r1": 0}')
    pol = policy(server)
    steps = play("resource", GAMES[0][1], pol)
    assert all(constraint_of(r) is None for r in server.requests)
    assert all("constrained" not in u for _o, u, _e in steps)


@pytest.mark.parametrize("via", ["response_format", "structured_outputs", "guided"])
def test_probe_passes_when_the_server_follows_the_field(server, via):
    server.reply = structured_reply()
    out = policy(server, constrained=True, constrained_via=via).probe()
    assert out["constrained"] == via
    sent = [constraint_of(r) for r in server.requests]
    assert sent[0] is None  # the plain probe first
    assert [s[1] for s in sent[1:]] == (["json"] if via == "response_format" else ["json", "regex"])


@pytest.mark.parametrize("via", ["response_format", "structured_outputs"])
def test_probe_fails_clearly_when_the_server_ignores_the_field(server, via):
    server.reply = lambda req: "OK"  # a server that drops the field: the model answers freely
    with pytest.raises(ProbeFailed, match="did not follow a JSON Schema") as e:
        policy(server, constrained=True, constrained_via=via).probe()
    assert "'OK'" in str(e.value) and "constrained=false" in str(e.value)


def test_probe_fails_clearly_when_the_server_refuses_the_field(server):
    server.reply = structured_reply()
    server.reject = lambda req: (400, "response_format type json_schema is not supported by this model") \
        if "response_format" in req else None
    with pytest.raises(ProbeFailed, match="failed: .*not supported"):
        policy(server, constrained=True).probe()
    policy(server).probe()  # unconstrained, the same server passes


def test_option_checks(server):
    with pytest.raises(ValueError, match="constrained_via"):
        policy(server, constrained=True, constrained_via="grammar")
    with pytest.raises(ValueError, match="'constrained'"):
        policy(server, constrained="yes")
    pol = policy(server, constrained="schema", constrained_via="guided", constrained_text_chars=20)
    assert {k: pol.settings()[k] for k in ("constrained", "constrained_via", "constrained_text_chars")} == {
        "constrained": "schema", "constrained_via": "guided", "constrained_text_chars": 20}
    assert {"constrained", "constrained_via", "constrained_text_chars"} <= set(APIPolicy.option_names())
    json.dumps(pol.settings())
