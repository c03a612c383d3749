"""The probe each model makes before play (runner preflight): one token for
``hf:`` on the tiny local model, one request of a token for ``openai:`` against the fake
server: what passes, what fails, how fast, and that it leaves no trace in the games."""

from __future__ import annotations

import json
import time

import pytest

from negotiation_env.runner import make_plan, parse_config, run
from negotiation_env.runner.preflight import PreflightError, preflight

KEY = "sk-FAKE-negenv-probe-key-2c7e"


# --------------------------------------------------------------------------- hf


def test_hf_probe_generates_one_token_and_changes_nothing(greedy):
    pytest.importorskip("transformers")
    greedy.reset(seed=4)
    before = (greedy.seed, greedy._calls, list(greedy.last_completions))
    got = greedy.probe()
    assert got["model"] == greedy.model_name and got["device"] == "cpu" and got["seconds"] >= 0
    assert (greedy.seed, greedy._calls, list(greedy.last_completions)) == before


def test_hf_probe_failure_names_the_model(greedy, monkeypatch):
    from baselines.llm.policy import ProbeFailed

    def boom(**kw):
        raise RuntimeError("CUDA out of memory")

    monkeypatch.setattr(greedy.model, "generate", boom)
    with pytest.raises(ProbeFailed, match=r"on cpu .*one-token generation failed: RuntimeError: CUDA out of memory"):
        greedy.probe()


def hf_config(path, **options):
    opts = {"temperature": 0.0, "max_new_tokens": 6, "device": "cpu", **options}
    return {"name": "hfp", "seed": 2, "games": [{
        "game": "matrix", "policies": [{"spec": f"hf:{path}", "label": "tiny", "options": opts}],
        "pairings": "self", "games_per_cell": 2, "config": {"num_rounds": 2, "on_error": "retry"}}]}


def strip(line):
    d = json.loads(line)
    d.pop("started_at"), d.pop("ended_at")
    return d


def test_hf_run_loads_the_model_once_and_the_probe_leaves_the_traces_alone(tiny_model, tmp_path, monkeypatch):
    import baselines.llm.hf as hf

    loads = []

    class Counted(hf.HFPolicy):
        def __init__(self, *a, **k):
            loads.append(a)
            super().__init__(*a, **k)

    monkeypatch.setattr(hf, "HFPolicy", Counted)
    seen = []

    from negotiation_env.runner import RunObserver

    class Obs(RunObserver):
        def on_preflight(self, report):
            seen.append(report)

    monkeypatch.setattr("negotiation_env.runner.playing._POOL", None)
    summary = run(hf_config(tiny_model), tmp_path / "probed", observer=Obs())
    assert summary.complete and summary.played == 2 and summary.errors == 0
    assert len(loads) == 1  # preflight's build is the one the games used
    assert len(seen) == 1 and seen[0].ok and seen[0].probed[0].probe["device"] == "cpu"
    monkeypatch.setattr("negotiation_env.runner.playing._POOL", None)
    run(hf_config(tiny_model), tmp_path / "plain", preflight=False)
    a = [strip(x) for x in (tmp_path / "probed" / "traces.jsonl").read_text().splitlines()]
    b = [strip(x) for x in (tmp_path / "plain" / "traces.jsonl").read_text().splitlines()]
    assert a == b  # same answers, same seeds: the probe touched nothing a game sees


def test_hf_preflight_for_other_processes_releases_its_model(tiny_model, monkeypatch):
    """With the games in other processes (pool=None) or no games (--plan), the model
    preflight loaded and probed is let go before it returns."""
    import gc
    import weakref

    import baselines.llm.hf as hf

    made = []

    class Tracked(hf.HFPolicy):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            made.append(weakref.ref(self))

    monkeypatch.setattr(hf, "HFPolicy", Tracked)
    report = preflight(make_plan(parse_config(hf_config(tiny_model))), pool=None)
    assert report.ok and report.checks[0].built and report.checks[0].probe is not None
    gc.collect()
    assert len(made) == 1 and made[0]() is None


# --------------------------------------------------------------------------- openai


@pytest.fixture()
def client(server, monkeypatch):
    pytest.importorskip("openai")
    from baselines.llm.api import APIClient

    monkeypatch.setenv("NEGENV_PROBE_KEY", KEY)
    waits = []
    c = APIClient("test-model", server.url, api_key_env="NEGENV_PROBE_KEY", timeout=0.5, max_retries=4,
                  backoff=0.01, sleep=waits.append)
    c.waits = waits
    return c


def test_probe_sends_one_minimal_request(server, client):
    got = client.probe()
    assert got["status"] == 200 and got["attempts"] == 1 and got["url"] == server.url
    assert len(server.requests) == 1
    req = server.requests[0]
    assert req["max_tokens"] == 1 and req["model"] == "test-model" and len(req["messages"]) == 1


@pytest.mark.parametrize("fault,match", [
    ("slow", r"no answer within 0\.5 s \(ReadTimeout\)"),
    ("malformed", r"not a chat completion"),
    ("cutoff", r"cannot connect|not a chat completion"),
])
def test_probe_fails_at_once_on_what_play_would_retry(server, client, fault, match):
    server.faults = [fault]
    server.slow_seconds = 1.0
    from baselines.llm.policy import ProbeFailed

    with pytest.raises(ProbeFailed, match=match) as info:
        client.probe()
    assert len(server.requests) == 1 and client.waits == []  # no retry loop
    assert server.url in str(info.value)


def test_probe_refused_key_and_wrong_model_say_so_without_the_key(server, client):
    from baselines.llm.policy import ProbeFailed

    server.status = 401
    with pytest.raises(ProbeFailed, match=r"HTTP 401.*api_key_env") as info:
        client.probe()
    assert KEY not in str(info.value)
    server.status = 404
    with pytest.raises(ProbeFailed, match=r"HTTP 404.*does the server serve this model"):
        client.probe()


def test_probe_tolerates_a_busy_server_and_adapts_like_play(server, client):
    server.faults = ["500", "ok"]
    assert client.probe()["attempts"] == 2 and client.waits == [0.01]
    server.faults = ["429"]
    assert "rate limited" in client.probe()["note"]
    server.reject = lambda req: (400, "Unsupported parameter: 'max_tokens' is not supported with this model. "
                                      "Use 'max_completion_tokens' instead.") if "max_tokens" in req else None
    assert client.probe()["status"] == 200
    assert server.requests[-1]["max_completion_tokens"] == 1  # and play will send the adapted name too
    assert client.request([{"role": "user", "content": "x"}], max_tokens=5).get("max_completion_tokens") == 5


def test_probe_of_a_dead_port_is_quick(client, monkeypatch):
    import socket

    from baselines.llm.api import APIClient
    from baselines.llm.policy import ProbeFailed

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = APIClient("m", f"http://127.0.0.1:{port}/v1", api_key_env="NEGENV_PROBE_KEY", timeout=60, max_retries=8)
    t0 = time.perf_counter()
    with pytest.raises(ProbeFailed, match=rf"model 'm' at http://127\.0\.0\.1:{port}/v1: cannot connect"):
        dead.probe()
    assert time.perf_counter() - t0 < 5


def test_run_with_the_probe_failing_writes_nothing(server, tmp_path, monkeypatch):
    pytest.importorskip("openai")
    monkeypatch.setenv("NEGENV_PROBE_KEY", KEY)
    server.status = 401
    cfg = {"name": "p", "games": [{"game": "matrix", "policies": [
        {"spec": f"openai:test-model@{server.url}", "options": {"api_key_env": "NEGENV_PROBE_KEY"}}],
        "pairings": "self", "config": {"num_rounds": 1}}]}
    with pytest.raises(PreflightError, match="HTTP 401") as info:
        run(cfg, tmp_path / "run")
    assert KEY not in str(info.value) and len(server.requests) == 1 and not (tmp_path / "run").exists()
