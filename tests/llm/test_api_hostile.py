"""The API client against a hostile server: a deadline per attempt whatever the
server drips, a cap on the answer's size (compressed or not), no redirect followed, every
malformed answer a recorded and retried fault, and the key scrubbed from every field the
server can echo it into. Each test fails on a client without that defence (a dripping
server outliving the deadline, a huge body read whole, a 307 followed, a usage of 1e400
or a 100,000-level body raising out of the call, an echoed key reaching the answer text
or the debug logs); the before/after figures are on the reliability docs page."""

from __future__ import annotations

import json
import logging
import time
import tracemalloc

import pytest

pytest.importorskip("openai")

from baselines.llm.api import APIClient, APIPolicy  # noqa: E402
from baselines.llm.policy import ProbeFailed  # noqa: E402
from tests.fakeserver import FakeServer  # noqa: E402

KEY = "sk-FAKE-negenv-hostile-key-93b1e4"
CONV = [{"role": "user", "content": "go"}]
OK = json.dumps({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                                                                               "content": "fine"}}]})


@pytest.fixture()
def key_env(monkeypatch):
    monkeypatch.setenv("NEGENV_HOSTILE_KEY", KEY)
    return "NEGENV_HOSTILE_KEY"


def client(server, key_env, **kw):
    opts = {"api_key_env": key_env, "timeout": 1.0, "max_retries": 1, "backoff": 0.0, "sleep": lambda s: None}
    opts.update(kw)
    return APIClient("test-model", server.url, **opts)


# --------------------------------------------------------------------------- the deadline


@pytest.mark.parametrize("fault", ["drip", "drip_head"])
def test_a_dripping_server_meets_the_deadline_of_each_attempt(server, key_env, fault):
    server.reply = lambda req: "fine"
    server.faults = [fault, fault]
    server.drip_interval, server.drip_max_seconds = 0.25, 10.0  # never silent long enough for a read timeout
    c = client(server, key_env, timeout=1.0)
    t0 = time.perf_counter()
    comp, _ = c.complete(CONV)
    took = time.perf_counter() - t0
    assert [f["kind"] for f in comp.faults] == ["timeout", "timeout"] and comp.failed
    assert "1 s deadline" in comp.faults[0]["message"]
    assert took < 2 * 1.0 + 1.0, took  # two attempts of at most 1 s (the server would drip for 10 s each)


def test_the_deadline_leaves_a_prompt_answer_alone_and_retries_into_one(server, key_env):
    server.reply = lambda req: "fine"
    server.faults = ["drip", "ok"]
    server.drip_interval = 0.25
    comp, _ = client(server, key_env).complete(CONV)
    assert comp.text == "fine" and [f["kind"] for f in comp.faults] == ["timeout"] and comp.attempts == 2


# --------------------------------------------------------------------------- the size cap


@pytest.mark.parametrize("fault", ["huge", "gzip_bomb"])
def test_an_answer_past_the_size_cap_is_not_read_and_is_a_fault(server, key_env, fault):
    server.reply = lambda req: "fine"
    server.faults = [fault]
    server.huge_bytes = 48 * 2**20
    c = client(server, key_env, timeout=20.0, max_response_bytes=2**20)
    FakeServer._bomb(server.huge_bytes)  # built before measuring (the server's work, not the client's)
    tracemalloc.start()
    try:
        comp, _ = c.complete(CONV)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert comp.faults[0]["kind"] == "too_large" and "1,048,576 bytes" in comp.faults[0]["message"]
    assert comp.text == "fine" and comp.attempts == 2  # retried like the other faults
    assert peak < 12 * 2**20, peak  # read whole, the body alone is 48 MiB


def test_identity_is_asked_for_and_another_coding_is_refused(server, key_env):
    server.reply = lambda req: "fine"
    comp, _ = client(server, key_env).complete(CONV)
    assert comp.text == "fine"
    assert {k.lower(): v for k, v in server.headers[-1].items()}["accept-encoding"] == "identity"
    server.faults, server.raw_body, server.raw_headers = ["raw"], OK.encode(), {"Content-Encoding": "br"}
    comp, _ = client(server, key_env).complete(CONV)  # a coding it cannot inflate in bounded steps
    assert comp.faults[0]["kind"] == "malformed" and "'br'" in comp.faults[0]["message"] and comp.text == "fine"


# --------------------------------------------------------------------------- redirects


def test_a_redirect_to_another_server_is_refused_not_followed(server, key_env):
    other = FakeServer()
    try:
        other.reply = lambda req: "elsewhere"
        server.redirect_to = other.url
        server.faults = ["redirect"]
        comp, _ = client(server, key_env, max_retries=3).complete(CONV)
        assert other.requests == [] and other.headers == []  # neither the prompt nor the key went there
        (f,) = comp.faults
        assert f["kind"] == "redirect" and f["status"] == 307 and "127.0.0.1" in f["message"]
        assert comp.failed and comp.attempts == 1  # not retried: the server will say the same
        with pytest.raises(ProbeFailed, match="redirect"):
            server.faults = ["redirect"]
            client(server, key_env).probe()
        assert other.requests == []
    finally:
        other.close()


# --------------------------------------------------------------------------- malformed answers

MESSAGE = '"message": {"role": "assistant", "content": "A"}'
MALFORMED = {
    "choices not a list": ('{"choices": "abc"}', "'choices' must be a list"),
    "choice not an object": ('{"choices": [1]}', "choices[0] must be an object"),
    "message not an object": ('{"choices": [{"message": "A"}]}', "message must be an object"),
    "content a number": ('{"choices": [{"message": {"content": 5}}]}', "content must be text or null"),
    "finish reason a list": ('{"choices": [{"finish_reason": [], %s}]}' % MESSAGE, "finish_reason must be text"),
    "usage text": ('{"choices": [{%s}], "usage": "abc"}' % MESSAGE, "'usage' must be an object"),
    "usage a list": ('{"choices": [{%s}], "usage": [1, 2]}' % MESSAGE, "'usage' must be an object"),
    "usage 1e400": ('{"choices": [{%s}], "usage": {"prompt_tokens": 1e400}}' % MESSAGE, "out of range"),
    "usage negative": ('{"choices": [{%s}], "usage": {"prompt_tokens": -5}}' % MESSAGE, "non-negative integer"),
    "usage a float": ('{"choices": [{%s}], "usage": {"completion_tokens": 1.5}}' % MESSAGE, "non-negative integer"),
    "usage a bool": ('{"choices": [{%s}], "usage": {"completion_tokens": true}}' % MESSAGE, "non-negative integer"),
    "usage huge": ('{"choices": [{%s}], "usage": {"prompt_tokens": %s}}' % (MESSAGE, "9" * 90), "non-negative"),
    "reasoning tokens text": ('{"choices": [{%s}], "usage": {"completion_tokens_details": {"reasoning_tokens": "x"}}}'
                              % MESSAGE, "reasoning_tokens must be"),
    "deep nesting": ('{"choices": [{%s}], "x": %s}' % (MESSAGE, "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    "long numeral": ('{"choices": [{%s}], "x": %s}' % (MESSAGE, "1" * 5000), "too long"),
    "not JSON": ('{"choices": [ this is not json', "not valid JSON"),
    "not an object": ('[1, 2, 3]', "not a JSON object"),
    "duplicate key": ('{"choices": [], "choices": [{%s}]}' % MESSAGE, "duplicate key"),
    "not UTF-8": (b'{"choices": [{"message": {"content": "\xff\xfe"}}]}', "not UTF-8"),
    # valid JSON whose text is not Unicode: a lone surrogate escape in any string or key
    "lone surrogate in content": (r'{"choices": [{"message": {"content": "hi \ud800"}}]}',
                                  "'choices[0].message.content' holds \\ud800"),
    "lone low surrogate": (r'{"choices": [{"message": {"content": "\udc00hi"}}]}', "holds \\udc00"),
    "surrogates in the wrong order": (r'{"choices": [{"message": {"content": "\ude00\ud83d"}}]}', "holds \\ude00"),
    "lone surrogate in reasoning": (r'{"choices": [{"message": {"content": "A", "reasoning_content": "x\udbff"}}]}',
                                    "'choices[0].message.reasoning_content' holds \\udbff"),
    "lone surrogate in tool arguments": (
        r'{"choices": [{"message": {"content": null, "tool_calls": [{"type": "function", "function": '
        r'{"name": "f", "arguments": "{\"a\": 1}\ud800"}}]}}]}',
        "'choices[0].message.tool_calls[0].function.arguments' holds \\ud800"),
    "lone surrogate in a key": (r'{"choices": [{%s}], "x\ud800": 1}' % MESSAGE, "a key holds \\ud800"),
    "lone surrogate in the finish reason": (r'{"choices": [{"finish_reason": "st\udfffop", %s}]}' % MESSAGE,
                                            "'choices[0].finish_reason' holds \\udfff"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_answer_is_a_fault_and_retried_never_a_crash(server, key_env, case):
    body, said = MALFORMED[case]
    bodies = iter([body if isinstance(body, bytes) else body.encode(), OK.encode()])
    server.raw_body = lambda req: next(bodies)
    server.faults = ["raw", "raw"]
    comp, _ = client(server, key_env).complete(CONV)
    assert [f["kind"] for f in comp.faults] == ["malformed"] and said in comp.faults[0]["message"], comp.faults
    assert comp.text == "fine" and comp.attempts == 2 and not comp.failed
    assert len(comp.faults[0]["message"]) <= 600


def test_a_surrogate_pair_is_the_character_it_stands_for(server, key_env):
    server.raw_body = r'{"choices": [{"message": {"content": "fine \ud83d\ude00"}}]}'.encode()
    server.faults = ["raw"]
    comp, _ = client(server, key_env).complete(CONV)
    assert comp.text == "fine \U0001f600" and comp.faults == [] and comp.attempts == 1


def test_empty_choices_are_an_empty_answer_fault(server, key_env):
    server.raw_body = b'{"choices": []}'
    server.faults = ["raw", "raw"]
    comp, _ = client(server, key_env).complete(CONV)
    assert [f["kind"] for f in comp.faults] == ["empty", "empty"] and comp.failed and comp.text == ""


def test_a_malformed_answer_ends_no_game(server, key_env, tmp_path):
    """Through the runner: the game completes with the fault recorded (it ended in error)."""
    from negotiation_env.runner import run

    server.raw_body = b'{"choices": [{%s}], "usage": {"prompt_tokens": 1e400}}' % MESSAGE.encode()
    talk = '{"thinking": "t", "speech": "Let us share.", "action": null}'
    server.reply = lambda req: talk
    server.faults = ["ok", "raw", "raw", "raw"]  # the probe, then every attempt of the first call
    cfg = {"name": "hostile", "seed": 2, "games": [{
        "game": "resource", "pairings": "self", "games_per_cell": 1,
        "policies": [{"spec": f"openai:test-model@{server.url}", "label": "fake",
                      "options": {"api_key_env": key_env, "timeout": 2.0, "max_retries": 2, "backoff": 0.0}}],
        "config": {"num_rounds": 1, "cheap_talk_turns": 2, "max_retries": 1}}]}
    summary = run(cfg, tmp_path / "run", batch_games=1)
    assert summary.errors == 0
    trace = json.loads((tmp_path / "run" / "traces.jsonl").read_text().splitlines()[0])
    assert trace["status"] == "complete" and trace["error"] is None
    kinds = [f["kind"] for s in trace["steps"] for f in (s["tokens"] or {}).get("faults", [])]
    assert kinds[:3] == ["malformed"] * 3


def test_a_server_answering_lone_surrogates_one_time_in_seven_ends_no_game(server, key_env, tmp_path, capsys):
    """Through ``negotiation-env run``: every game complete, each poisoned answer a
    recorded ``malformed`` fault, the trace file valid UTF-8."""
    import threading

    from negotiation_env.cli import main

    talk = '{"thinking": "t", "speech": "Let us share.", "action": null}'
    lock, served = threading.Lock(), {"n": 0, "poisoned": 0}

    def reply(req):
        with lock:
            served["n"] += 1
            if served["n"] % 7 == 0:
                served["poisoned"] += 1
                return talk.replace("share", "share \ud800")  # the server's JSON writes it as the escape
            return talk

    server.reply = reply
    cfg = tmp_path / "run.toml"
    cfg.write_text(f"""name = "surrogates"
seed = 3
[[games]]
game = "resource"
pairings = "self"
games_per_cell = 3
config = {{ num_rounds = 1, cheap_talk_turns = 2, max_retries = 1 }}
[[games.policies]]
spec = "openai:test-model@{server.url}"
label = "fake"
options = {{ api_key_env = "{key_env}", timeout = 2.0, max_retries = 2, backoff = 0.0 }}
""")
    assert main(["run", str(cfg), "--out", str(tmp_path / "run")]) == 0
    text = (tmp_path / "run" / "traces.jsonl").read_bytes().decode("utf-8")  # strict: valid UTF-8
    traces = [json.loads(x) for x in text.splitlines()]
    assert len(traces) == 3 and all(t["status"] == "complete" and t["error"] is None for t in traces)
    faults = [f for t in traces for s in t["steps"] for f in (s["tokens"] or {}).get("faults", [])]
    assert served["poisoned"] >= 3
    assert [f["kind"] for f in faults] == ["malformed"] * served["poisoned"]
    assert all("'choices[0].message.content' holds \\ud800" in f["message"] for f in faults)
    assert "\ufffd" not in text and "\\ud800" not in text.replace("holds \\\\ud800", "")


def test_an_odd_logprob_is_an_unusable_answer_not_a_crash(server, key_env):
    server.reply = lambda req: {"content": "A", "logprobs": [("A", 1e300), ("B", -1.0)]}
    pol = APIPolicy("test-model", server.url, api_key_env=key_env, timeout=2, max_retries=1, backoff=0.0)
    from baselines.llm.api import LogprobsUnavailable

    with pytest.raises(LogprobsUnavailable, match="could not be checked"):
        pol.action_probs({"prompt": "go"})


# --------------------------------------------------------------------------- the key


@pytest.mark.parametrize("fault", ["echo", "echo_usage", "echo_error", "echo_redirect"])
def test_an_echoed_key_appears_in_no_answer_fault_log_or_terminal(server, key_env, fault, caplog, capfd):
    caplog.set_level(logging.DEBUG)  # openai's and httpcore's debug logs print response headers
    server.reply = lambda req: "fine"
    server.faults = [fault, fault, fault]
    c = client(server, key_env, max_retries=2)
    comp, resp = c.complete(CONV)
    assert server.served[0] == fault and {k.lower(): v for k, v in server.headers[0].items()}[
        "authorization"] == f"Bearer {KEY}"  # the server did get the key to echo
    if fault == "echo":
        assert comp.text == "echo Bearer [REDACTED] A" and comp.reasoning == "I was sent Bearer [REDACTED]"
    else:
        assert comp.failed and comp.faults
    try:
        c.probe()
    except ProbeFailed as e:
        probe_text = str(e)
    else:
        probe_text = ""
    out = capfd.readouterr()
    seen = [json.dumps(comp.trace_usage()), comp.text, comp.raw or "", comp.reasoning or "",
            "" if resp is None else repr(vars(resp)),
            caplog.text, out.out, out.err, probe_text, comp.finish_reason or ""]
    for text in seen:
        assert KEY not in text
    assert any("[REDACTED]" in t for t in seen)
