"""The OpenAI-compatible back end against a fake server on 127.0.0.1: requests, reasoning,
usage, every fault kind (retried, recorded, reaching the trace), concurrency, log-probs,
and no API key anywhere it does not belong."""

from __future__ import annotations

import json
import logging
import math
import time

import pytest

pytest.importorskip("openai")

from baselines.llm.api import APIPolicy, LogprobsUnavailable  # noqa: E402
from negotiation_env.runner import make_plan, parse_config, play_game, run  # noqa: E402

KEY = "sk-FAKE-negenv-test-key-7f3a9c"
TALK = '{"thinking": "plan privately", "speech": "I propose we share the pool.", "action": null}'
CONV = {"prompt": "go", "conversation": ({"role": "system", "content": "sys"}, {"role": "user", "content": "go"})}


@pytest.fixture()
def key_env(monkeypatch):
    monkeypatch.setenv("NEGENV_TEST_KEY", KEY)
    return "NEGENV_TEST_KEY"


def policy(server, key_env, **kw):
    waits = kw.pop("waits", None)
    opts = {"api_key_env": key_env, "timeout": 5, "max_retries": 3, "backoff": 0.01}
    opts.update(kw)
    if waits is not None:
        opts["sleep"] = waits.append
    return APIPolicy("test-model", server.url, **opts)


def test_answer_usage_and_reasoning_are_read(server, key_env):
    server.reply = lambda req: {"content": "<think>inline plan</think>A", "reasoning_content": "server-side plan",
                                "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18,
                                          "completion_tokens_details": {"reasoning_tokens": 5}}}
    pol = policy(server, key_env)
    assert pol.act(CONV) == "A"
    assert pol.last_reasoning == "server-side plan\n\ninline plan"
    u = pol.last_usage
    assert (u["prompt_tokens"], u["completion_tokens"], u["reasoning_tokens"], u["total_tokens"]) == (11, 7, 5, 18)
    assert u["faults"] == [] and u["attempts"] == 1 and u["failed"] is False
    req = server.requests[-1]
    assert req["messages"] == [{"role": "system", "content": "sys"}, {"role": "user", "content": "go"}]
    assert {k.lower(): v for k, v in server.headers[-1].items()}["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("model,param,temperature", [
    ("gpt-5-mini", "max_completion_tokens", None),
    ("openai/o3-mini", "max_completion_tokens", None),
    ("qwen/qwen3.5-flash", "max_tokens", 0.7),
    ("claude-sonnet-4-5", "max_tokens", 0.7),
])
def test_appendix_b_token_parameter_and_temperature(server, key_env, model, param, temperature):
    server.reply = lambda req: "ok"
    APIPolicy(model, server.url, api_key_env=key_env, max_tokens=64).act(CONV)
    req = server.requests[-1]
    assert req[param] == 64 and ({"max_tokens", "max_completion_tokens"} - {param}).isdisjoint(req)
    assert req.get("temperature") == temperature


def test_explicit_settings_override_the_defaults(server, key_env):
    server.reply = lambda req: "ok"
    APIPolicy("gpt-5-mini", server.url, api_key_env=key_env, max_tokens=9, token_param="max_tokens",
              temperature=0.2, top_p=0.9, seed=3).act(CONV)
    req = server.requests[-1]
    assert req["max_tokens"] == 9 and req["temperature"] == 0.2 and req["top_p"] == 0.9
    assert isinstance(req["seed"], int)


def test_a_400_naming_the_other_token_parameter_switches_it(server, key_env):
    server.reply = lambda req: "ok"
    server.reject = lambda req: (400, "Unsupported parameter: 'max_tokens' is not supported with this model. "
                                      "Use 'max_completion_tokens' instead.") if "max_tokens" in req else None
    pol = policy(server, key_env, max_tokens=5)
    assert pol.act(CONV) == "ok"
    f = pol.last_usage["faults"]
    assert f[0]["kind"] == "http_error" and f[0]["status"] == 400 and f[0]["adapted"] == "max_tokens -> max_completion_tokens"
    assert server.requests[-1]["max_completion_tokens"] == 5 and pol.client.settings()["token_param"] == "max_completion_tokens"
    pol.act(CONV)  # remembered: no second refusal
    assert pol.last_usage["faults"] == []


def test_a_400_refusing_the_temperature_drops_it(server, key_env):
    server.reply = lambda req: "ok"
    server.reject = lambda req: (400, "Unsupported value: 'temperature' does not support 0.7 with this model.") \
        if "temperature" in req else None
    pol = policy(server, key_env)
    assert pol.act(CONV) == "ok" and "temperature" not in server.requests[-1]
    assert pol.last_usage["faults"][0]["adapted"] == "temperature dropped"


@pytest.mark.parametrize("via,flag,check", [
    ("reasoning_effort", 1, lambda r: r["reasoning_effort"] == "high"),
    ("reasoning_effort", 0, lambda r: "reasoning_effort" not in r),
    ("chat_template_kwargs", 1, lambda r: r["chat_template_kwargs"] == {"enable_thinking": True}),
    ("chat_template_kwargs", 0, lambda r: r["chat_template_kwargs"] == {"enable_thinking": False}),
    ("openrouter", 0, lambda r: r["reasoning"] == {"enabled": False}),
])
def test_native_reasoning_switch_maps_to_the_server_option(server, key_env, via, flag, check):
    server.reply = lambda req: "ok"
    policy(server, key_env, reasoning_via=via, reasoning_effort="high").act({**CONV, "reasoning": flag})
    assert check(server.requests[-1])


def test_without_the_flag_nothing_reasoning_related_is_sent(server, key_env):
    server.reply = lambda req: "ok"
    policy(server, key_env, reasoning_via="chat_template_kwargs").act(CONV)
    req = server.requests[-1]
    assert "chat_template_kwargs" not in req and "reasoning_effort" not in req


@pytest.mark.parametrize("fault,kind", [("slow", "timeout"), ("429", "rate_limit"), ("500", "server_error"),
                                        ("malformed", "malformed"), ("cutoff", "connection")])
def test_each_fault_is_retried_and_recorded(server, key_env, fault, kind):
    server.reply = lambda req: "fine"
    server.faults = [fault, fault]
    server.slow_seconds = 1.0
    waits = []
    pol = policy(server, key_env, timeout=0.4, waits=waits)
    assert pol.act(CONV) == "fine"
    u = pol.last_usage
    assert u["attempts"] == 3 and not u["failed"]
    assert [f["kind"] for f in u["faults"]] == [kind, kind] and [f["attempt"] for f in u["faults"]] == [1, 2]
    assert len(waits) == 2 and [f["delay"] for f in u["faults"]] == pytest.approx(waits, abs=1e-3)
    if fault == "429":
        assert all(f["retry_after"] == 1.0 and 1.0 <= f["delay"] <= 1.1 for f in u["faults"])
    else:  # exponential backoff with jitter: d/2 <= wait <= d, d = 0.01 * 2**k
        assert 0.005 <= waits[0] <= 0.01 and 0.01 <= waits[1] <= 0.02
    if fault == "500":
        assert u["faults"][0]["status"] == 500


def test_retry_after_is_waited_for_real(server, key_env):
    server.reply = lambda req: "fine"
    server.faults = ["429"]
    t0 = time.perf_counter()
    assert policy(server, key_env).act(CONV) == "fine"
    assert time.perf_counter() - t0 >= 1.0


def test_retries_run_out_into_an_empty_answer(server, key_env):
    server.faults = ["500"] * 3
    pol = policy(server, key_env, max_retries=2, waits=[])
    assert pol.act(CONV) == ""
    u = pol.last_usage
    assert u["failed"] and u["attempts"] == 3 and len(u["faults"]) == 3 and "delay" not in u["faults"][-1]


def test_client_errors_are_not_retried(server, key_env):
    server.status = 401
    pol = policy(server, key_env, waits=[])
    assert pol.act(CONV) == ""
    assert pol.last_usage["attempts"] == 1 and pol.last_usage["faults"][0]["status"] == 401
    assert len(server.requests) == 1


def test_a_cut_off_answer_at_the_token_limit_is_a_fault(server, key_env):
    server.reply = lambda req: {"content": "half an ans", "finish_reason": "length"}
    pol = policy(server, key_env)
    assert pol.act(CONV) == "half an ans"
    assert pol.last_usage["faults"][0]["kind"] == "length" and pol.last_usage["finish_reason"] == "length"


def test_batches_are_sent_concurrently_up_to_the_limit(server, key_env):
    server.reply = lambda req: req["messages"][-1]["content"].upper()
    server.delay = 0.3
    pol = policy(server, key_env, max_concurrency=3)
    obs = [{"prompt": f"m{i}", "conversation": ({"role": "user", "content": f"m{i}"},)} for i in range(6)]
    t0 = time.perf_counter()
    out = pol.act_batch(obs)
    took = time.perf_counter() - t0
    assert out == [f"M{i}" for i in range(6)]  # in order
    assert server.max_in_flight == 3 and took < 6 * 0.3
    assert [u["prompt_tokens"] for u in pol.last_batch_usage] == [0] * 6  # 2-char prompts: 0 "tokens" each
    assert len(pol.last_batch_usage) == 6


def test_seeds_follow_the_policy_seed_and_reset(server, key_env):
    server.reply = lambda req: "ok"
    pol = policy(server, key_env, seed=11)
    pol.act(CONV), pol.act(CONV)
    first = [r["seed"] for r in server.requests]
    pol.reset(seed=11)
    pol.act(CONV), pol.act(CONV)
    assert [r["seed"] for r in server.requests[2:]] == first and first[0] != first[1]


def test_bad_options_name_the_field(server, key_env):
    with pytest.raises(ValueError, match="api_key_env"):
        APIPolicy("m", server.url, api_key=KEY)
    for kw, field in [({"timeout": 0}, "timeout"), ({"max_retries": -1}, "max_retries"),
                      ({"token_param": "max"}, "token_param"), ({"reasoning_via": "x"}, "reasoning_via"),
                      ({"reasoning_effort": "extreme"}, "reasoning_effort"), ({"max_concurrency": 0}, "max_concurrency"),
                      ({"temperature": -1}, "temperature"), ({"max_tokens": 0}, "max_tokens"),
                      ({"api_key_env": "NOT_SET_ANYWHERE_X"}, "NOT_SET_ANYWHERE_X"), ({"colour": 1}, "colour")]:
        with pytest.raises(ValueError, match=field):
            APIPolicy("m", server.url, **kw)
    with pytest.raises(ValueError, match="base_url"):
        APIPolicy("m", "localhost:8000")


# --------------------------------------------------------------------------- log-probabilities


def test_action_probs_renormalise_the_two_action_tokens(server, key_env):
    server.reply = lambda req: {"content": "A", "logprobs": [("A", -0.5), (" B", -1.5), ("The", -2.0), ("B", -3.0)]}
    p = policy(server, key_env).action_probs(CONV)
    b = math.log(math.exp(-1.5) + math.exp(-3.0))  # " B" and "B" are the same action
    assert p.p == pytest.approx(math.exp(-0.5) / (math.exp(-0.5) + math.exp(b)))
    assert sum(p.probs.values()) == pytest.approx(1.0) and not p.censored
    req = server.requests[-1]
    assert req["logprobs"] is True and req["top_logprobs"] == 20 and req["max_tokens"] == 1


def test_action_probs_censor_a_missing_token_at_the_floor(server, key_env):
    server.reply = lambda req: {"content": "A", "logprobs": [("A", -0.1), ("The", -4.0), ("I", -6.0)]}
    p = policy(server, key_env).action_probs(CONV)
    at_floor = math.exp(-0.1) / (math.exp(-0.1) + math.exp(-6.0))
    assert p.censored and p.floor == -6.0
    assert p.interval == pytest.approx((at_floor, 1.0))
    assert p.p == pytest.approx(at_floor)  # the endpoint nearest 0.5
    assert p.logprobs["B"] is None and p.margin is None


def test_action_probs_retry_then_give_up(server, key_env):
    replies = iter([{"content": "x"}, {"content": "x", "logprobs": [("The", -1.0)]},
                    {"content": "A", "logprobs": [("B", -0.2), ("A", -2.0)]}])
    server.reply = lambda req: next(replies)
    p = policy(server, key_env, waits=[]).action_probs(CONV)
    assert p.p == pytest.approx(1 / (1 + math.exp(1.8)))
    assert [f["kind"] for f in p.usage["faults"]] == ["unusable", "unusable"]
    server.reply = lambda req: {"content": "x", "logprobs": [("The", -1.0)]}
    with pytest.raises(LogprobsUnavailable, match="none of A, B"):
        policy(server, key_env, waits=[]).action_probs(CONV)


# --------------------------------------------------------------------------- whole games


def api_config(server, key_env, **options):
    opts = {"api_key_env": key_env, "timeout": 0.5, "max_retries": 2, "backoff": 0.01, "seed": 1, **options}
    return {"name": "api", "seed": 2, "games": [{
        "game": "resource",
        "policies": [{"spec": f"openai:test-model@{server.url}", "label": "fake", "options": opts}],
        "pairings": "self", "games_per_cell": 1,
        "config": {"num_rounds": 1, "cheap_talk_turns": 2, "max_retries": 1}}]}


def test_a_full_game_completes_through_every_fault_and_records_them(server, key_env, tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    server.reply = lambda req: {"content": TALK, "reasoning_content": "server-side chain of thought"}
    server.slow_seconds = 0.8
    server.retry_after = "0"
    # the preflight probe first (one request of one token), then every fault kind (3
    # attempts a call: the first call fails for good, the second succeeds at its third
    # attempt), then another call whose retries all fail
    server.faults = ["ok", "slow", "429", "500", "malformed", "cutoff", "ok", "500", "500", "500"]
    summary = run(api_config(server, key_env), tmp_path / "run", batch_games=2)
    assert summary.complete and summary.errors == 0
    assert server.requests[0]["max_tokens"] == 1 and server.served[0] == "ok"  # the probe, not a game's call
    trace = json.loads((tmp_path / "run" / "traces.jsonl").read_text())
    assert trace["status"] == "complete"
    faults = [f for s in trace["steps"] for f in (s["tokens"] or {}).get("faults", [])]
    kinds = {f["kind"] for f in faults}
    assert {"timeout", "rate_limit", "server_error", "malformed", "connection"} <= kinds
    assert any(s["tokens"]["failed"] for s in trace["steps"])  # a call that ran out of retries ...
    assert any(not s["valid"] for s in trace["steps"])          # ... is an invalid answer to the env
    assert all(s["tokens"]["prompt_tokens"] >= 0 for s in trace["steps"])
    talk = next(s for s in trace["steps"] if s["valid"])
    assert talk["parsed"]["speech"] == "I propose we share the pool." and talk["tokens"]["attempts"] == 3
    assert talk["reasoning"] == "server-side chain of thought" and talk["thinking"] == "plan privately"
    # the key authenticated every request and is nowhere else
    assert all({k.lower(): v for k, v in h.items()}["authorization"] == f"Bearer {KEY}" for h in server.headers)
    out = capsys.readouterr()
    written = [p.read_text() for p in (tmp_path / "run").rglob("*") if p.is_file()]
    for text in written + [caplog.text, out.out, out.err]:
        assert KEY not in text
    assert "NEGENV_TEST_KEY" in (tmp_path / "run" / "run.json").read_text()  # the variable's name is fine


def test_secrets_stay_out_of_repr_settings_faults_and_errors(server, key_env):
    pol = policy(server, key_env, waits=[])
    server.status = 500
    pol.act(CONV)
    seen = [repr(pol), repr(pol.client), json.dumps(pol.settings()), json.dumps(pol.last_usage)]
    assert all(KEY not in s for s in seen)
    assert pol.client.scrub(f"echo {KEY} back") == "echo [REDACTED] back"


def test_play_game_and_lockstep_agree_with_the_api_policy(server, key_env):
    server.reply = lambda req: TALK
    from negotiation_env.runner.lockstep import play_lockstep

    cfg = api_config(server, key_env)
    cfg["games"][0]["games_per_cell"] = 2
    specs = make_plan(parse_config(cfg)).specs
    strip = lambda d: {k: v for k, v in d.items() if k not in ("started_at", "ended_at")}  # noqa: E731
    serial = {d["game_id"]: strip(d) for d in map(play_game, specs)}
    n = len(server.requests)
    batched = {d["game_id"]: strip(d) for d in play_lockstep(specs, 2)}
    assert batched == serial
    # each game sent the same seeds in both modes
    seeds = [r["seed"] for r in server.requests]
    assert sorted(seeds[:n]) == sorted(seeds[n:])


def test_matrix_game_and_policy_replay_through_the_server(server, key_env):
    from baselines.llm.replay import NATURAL, play_matrix, replay_decisions

    def reply(req):
        if req.get("logprobs"):
            last = req["messages"][-1]["content"]
            # a censored B when the partner's message is the self-prioritizing one
            if "prioritize my own" in last:
                return {"content": "A", "logprobs": [("A", -0.2), ("I", -3.0)]}
            return {"content": "A", "logprobs": [("A", -0.3), ("B", -1.4)]}
        return "A"

    server.reply = reply
    pol = policy(server, key_env, seed=2)
    trace = play_matrix(pol, seed=1, num_rounds=3)
    assert trace.status == "complete" and [r.outcome["actions"]["agent_0"] for r in trace.rounds] == ["A"] * 3
    rows = list(replay_decisions([trace], pol, (NATURAL, "no_message", "A/SP")))
    assert len(rows) == 2 * 3 * 3
    plain = 1 / (1 + math.exp(-1.1))
    for r in rows:
        if r["condition"] == "A/SP":
            assert r["censored"] and r["p_a"] == pytest.approx(1 / (1 + math.exp(-2.8)))
        else:
            assert not r["censored"] and r["p_a"] == pytest.approx(plain)


def test_missing_extra_names_the_install_command(monkeypatch):
    import importlib
    import sys

    from negotiation_env.runner.config import PolicyEntry
    from negotiation_env.runner.policies import PolicyUnavailable, resolve_factory

    monkeypatch.delitem(sys.modules, "baselines.llm.api", raising=False)
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(ImportError, match=r"pip install 'negotiation_env\[api\]'"):
        importlib.import_module("baselines.llm.api")
    with pytest.raises(PolicyUnavailable, match=r"pip install 'negotiation_env\[api\]'"):
        resolve_factory(PolicyEntry(spec="openai:m@http://127.0.0.1:1/v1"), "resource")


# --------------------------------------------------------------------------- output budget


@pytest.mark.parametrize("model,param", [("test-model", "max_tokens"), ("gpt-5-mini", "max_completion_tokens")])
def test_the_observations_budget_is_sent_unless_the_policy_sets_one(server, key_env, model, param):
    server.reply = lambda req: "A"
    pol = APIPolicy(model, server.url, api_key_env=key_env)  # no max_tokens: the observation's
    pol.act_batch([{**CONV, "max_tokens": 384}, {**CONV, "max_tokens": 1024}])
    assert sorted(r[param] for r in server.requests) == [384, 1024]
    assert [(u["max_tokens"], u["budget_from"]) for u in pol.last_batch_usage] == [(384, "observation"),
                                                                                    (1024, "observation")]
    # a budget set on the policy wins
    pol = APIPolicy(model, server.url, api_key_env=key_env, max_tokens=64)
    pol.act({**CONV, "max_tokens": 384})
    assert server.requests[-1][param] == 64
    assert (pol.last_usage["max_tokens"], pol.last_usage["budget_from"]) == (64, "policy")
    # neither: nothing is sent, the server's default
    pol = APIPolicy(model, server.url, api_key_env=key_env)
    pol.act(CONV)
    assert {"max_tokens", "max_completion_tokens"}.isdisjoint(server.requests[-1])
    assert (pol.last_usage["max_tokens"], pol.last_usage["budget_from"]) == (None, "default")


def test_a_rulemaking_run_sends_each_conditions_budget_and_the_trace_keeps_it(server, key_env, tmp_path):
    server.reply = lambda req: '{"move": "Counter", "issue": null, "rationale": "We hold."}'
    cfg = {"name": "api", "seed": 2, "games": [{
        "game": "rulemaking",
        "policies": [{"spec": f"openai:test-model@{server.url}", "label": "fake",
                      "options": {"api_key_env": key_env, "timeout": 5, "max_retries": 0}}],
        "pairings": "self", "games_per_cell": 1,
        "config": {"max_turns": 3, "condition": "native"}}]}
    summary = run(cfg, tmp_path / "run", batch_games=1)
    assert summary.complete and summary.errors == 0
    game_requests = server.requests[1:]  # after the preflight probe
    assert len(game_requests) == 3 and {r["max_tokens"] for r in game_requests} == {1024}  # Table 1's Native
    trace = json.loads((tmp_path / "run" / "traces.jsonl").read_text())
    assert [(s["tokens"]["max_tokens"], s["tokens"]["budget_from"]) for s in trace["steps"]] == \
        [(1024, "observation")] * 3
