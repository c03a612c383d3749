"""Bounded waiting: a 429 asking for an enormous wait, the cap applied after jitter, a
time budget per call (attempts and waits together), and a probe that reports a
rate-limited server. The waits go to an injected ``sleep``: no test really waits."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("openai")

from baselines.llm.api import APIClient, APIPolicy  # noqa: E402
from negotiation_env.cli import main  # noqa: E402
from negotiation_env.runner import PreflightError, make_plan, parse_config  # noqa: E402
from negotiation_env.runner.preflight import preflight  # noqa: E402

KEY = "sk-FAKE-negenv-wait-key-41c2"
CONV = [{"role": "user", "content": "go"}]


@pytest.fixture()
def key_env(monkeypatch):
    monkeypatch.setenv("NEGENV_WAIT_KEY", KEY)
    return "NEGENV_WAIT_KEY"


def client(server, key_env, waits, **kw):
    return APIClient("test-model", server.url, api_key_env=key_env, timeout=5, backoff=0.01, sleep=waits.append,
                     **kw)


# the three forms of an enormous wait: seconds, an HTTP date, milliseconds
HUGE = [("1000000000", None), ("Fri, 01 Jan 2100 00:00:00 GMT", None), (None, "1000000000000")]


@pytest.mark.parametrize("retry_after,retry_after_ms", HUGE)
def test_an_enormous_retry_after_waits_at_most_the_cap_and_the_call_ends_within_its_budget(
        server, key_env, retry_after, retry_after_ms):
    server.default = "429"
    server.retry_after, server.retry_after_ms = retry_after, retry_after_ms
    waits: list[float] = []
    comp, _ = client(server, key_env, waits, max_retries=4).complete(CONV, seed=1)
    # defaults: a wait is capped at 300 s, jitter included; a call may take 600 s in all:
    # one wait of 300 s, and the second would end at 600 s, so it is not started
    assert waits == [300.0]
    assert comp.failed and comp.attempts == 2 and len(server.requests) == 2
    assert [f["kind"] for f in comp.faults] == ["rate_limit", "rate_limit"]
    assert comp.faults[0]["delay"] == 300.0 and "delay" not in comp.faults[1]
    assert comp.faults[1]["budget"].startswith("a wait of 300 s would end past the call budget of 600 s")


def test_the_cap_holds_after_jitter(server, key_env):
    server.faults = ["429"] * 3
    server.retry_after = "100"
    waits: list[float] = []
    comp, _ = client(server, key_env, waits, max_retries=3, max_retry_after=100, call_budget=10_000).complete(
        CONV, seed=7)
    assert not comp.failed and waits == [100.0, 100.0, 100.0]


def test_the_budget_bounds_every_wait_together(server, key_env):
    server.default = "429"
    server.retry_after = "1"
    waits: list[float] = []
    comp, _ = client(server, key_env, waits, max_retries=50, call_budget=5).complete(CONV, seed=3)
    assert comp.failed and len(waits) == 4 and all(1.0 <= w <= 1.1 for w in waits)
    assert sum(waits) < 5 and "call budget of 5 s" in comp.faults[-1]["budget"]


def test_the_budget_holds_in_real_time(server, key_env):
    server.default = "429"
    server.retry_after = "0.3"
    c = APIClient("test-model", server.url, api_key_env=key_env, timeout=5, max_retries=50, call_budget=1)
    t0 = time.perf_counter()
    comp, _ = c.complete(CONV, seed=3)
    # waits of 0.3-0.33 s: three fit in the budget of 1 s, and the attempt after them
    # gets what is left as its deadline
    assert comp.failed and len(comp.faults) == 4 and time.perf_counter() - t0 < 1.5
    assert sum(f["delay"] for f in comp.faults[:3]) < 1 and "budget" in comp.faults[3]


def test_a_call_past_its_budget_is_degraded_like_one_out_of_retries(server, key_env):
    server.default = "429"
    server.retry_after = "1000000000"
    waits: list[float] = []
    pol = APIPolicy("test-model", server.url, api_key_env=key_env, timeout=5, sleep=waits.append, call_budget=120,
                    max_retry_after=100)
    assert pol.act({"prompt": "go", "conversation": tuple(CONV)}) == ""
    assert pol.last_usage["failed"] and waits == [100.0]
    assert "call_budget" in APIPolicy.option_names()


def test_call_budget_must_be_positive(key_env):
    with pytest.raises(ValueError, match="'call_budget' must be a number >= 0.001; got 0"):
        APIClient("m", "http://127.0.0.1:9/v1", api_key_env=key_env, call_budget=0)


@pytest.mark.parametrize("retry_after,retry_after_ms", HUGE)
def test_the_probe_reports_a_rate_limited_server(server, key_env, retry_after, retry_after_ms):
    server.faults = ["429"]
    server.retry_after, server.retry_after_ms = retry_after, retry_after_ms
    waits: list[float] = []
    got = client(server, key_env, waits).probe()
    assert got["status"] == 429 and got["rate_limited"] is True and got["retry_after"] > 1e8
    assert got["note"].startswith("rate limited: HTTP 429, asking to wait ")
    assert "(a wait is capped at 300 s)" in got["note"] and waits == []


def run_config(server, key_env):
    return {"name": "rl", "games": [{"game": "matrix", "policies": [
        {"spec": f"openai:test-model@{server.url}", "options": {"api_key_env": key_env}}],
        "pairings": "self", "config": {"num_rounds": 1}}]}


def test_preflight_stops_or_plays_on_as_the_user_chooses(server, key_env, tmp_path, capsys):
    plan = make_plan(parse_config(run_config(server, key_env)))
    server.faults = ["429"]
    report = preflight(plan, on_rate_limit="wait")
    assert report.ok and report.checks[0].probe["rate_limited"] is True
    assert "rate limited: HTTP 429, asking to wait 1 s" in report.lines()[0]
    server.faults = ["429"]
    with pytest.raises(PreflightError, match=r"the server is rate limited: .*\(--on-rate-limit stop"):
        preflight(plan, on_rate_limit="stop")
    cfg = tmp_path / "rl.yaml"
    import yaml

    cfg.write_text(yaml.safe_dump(run_config(server, key_env)))
    server.faults = ["429"]
    assert main(["run", str(cfg), "--out", str(tmp_path / "o"), "--on-rate-limit", "stop"]) == 3
    err = capsys.readouterr().err
    assert "the server is rate limited" in err and KEY not in err and not (tmp_path / "o").exists()
