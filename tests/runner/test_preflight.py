"""Preflight: every policy is built once and every model probed before
the first game, so a dead server, a wrong model path, a misspelt option, an unknown
scripted name or a missing extra stops the run at once, with one message naming the spec
and exit code 3, and nothing in the output folder."""

from __future__ import annotations

import json
import socket
import sys
import time

import pytest

from negotiation_env.cli import main
from negotiation_env.runner import make_plan, parse_config, run
from negotiation_env.runner.preflight import EXIT_PREFLIGHT, PreflightError, check_specs, preflight

KEY = "sk-FAKE-negenv-preflight-key-93b1"


def free_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, read, closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def matrix_config(*policies, games=3, pairings=None) -> dict:
    block = {"game": "matrix", "policies": list(policies), "games_per_cell": games,
             "config": {"num_rounds": 2}}
    block["pairings"] = pairings or "self"
    return {"name": "pf", "seed": 1, "games": [block]}


def write(tmp_path, cfg) -> str:
    path = tmp_path / "c.yaml"  # JSON is YAML
    path.write_text(json.dumps(cfg))
    return str(path)


class Forwarding:
    """A python policy whose factory takes **options and passes them on (so only building
    it finds a wrong one)."""

    def __init__(self, seed=None, **options):
        self.inner = _Inner(**options)

    def act(self, obs):  # pragma: no cover - never played
        return "A"


class _Inner:
    def __init__(self, temperature=0.7):
        self.temperature = temperature


# --------------------------------------------------------------------------- dead server


def test_a_dead_server_stops_the_run_before_any_game(tmp_path, capsys, monkeypatch):
    pytest.importorskip("openai")
    monkeypatch.setenv("NEGENV_PF_KEY", KEY)
    url = f"http://127.0.0.1:{free_port()}/v1"
    # without the probe these options would wait ~5 retries x 30 s backoff per call
    dead = {"spec": f"openai:test-model@{url}", "label": "dead",
            "options": {"api_key_env": "NEGENV_PF_KEY", "timeout": 30, "max_retries": 5, "backoff": 30}}
    cfg = write(tmp_path, matrix_config(dead, "scripted:always_a", pairings=[["dead", "scripted:always_a"]]))
    out = tmp_path / "run"
    t0 = time.perf_counter()
    rc = main(["run", cfg, "--out", str(out)])
    seconds = time.perf_counter() - t0
    printed = capsys.readouterr()
    assert rc == EXIT_PREFLIGHT == 3
    assert seconds < 10, seconds
    assert url in printed.err and "did not answer the probe" in printed.err and "cannot connect" in printed.err
    assert "no game was played" in printed.err and "label dead" in printed.err
    assert KEY not in printed.err + printed.out
    assert not (out / "traces.jsonl").exists() and not out.exists()
    # the library says the same with the report attached
    with pytest.raises(PreflightError) as info:
        run(matrix_config(dead, "scripted:always_a", pairings=[["dead", "scripted:always_a"]]), out)
    assert [c.spec for c in info.value.report.checks if not c.ok] == [dead["spec"]]
    assert url in info.value.report.problems[0] and not out.exists()


def test_without_the_probe_the_dead_server_is_only_built(tmp_path):
    pytest.importorskip("openai")
    url = f"http://127.0.0.1:{free_port()}/v1"
    plan = make_plan(parse_config(matrix_config(f"openai:m@{url}")))
    report = preflight(plan, probe=False)
    assert report.ok and [c.built for c in report.checks] == [True] and report.probed == []
    with pytest.raises(PreflightError, match="cannot connect"):
        preflight(plan)


# --------------------------------------------------------------------------- a live server


@pytest.fixture
def live_server(monkeypatch):
    """A fake OpenAI-compatible server answering "A" to every call, and the run config's
    policy entry of an ``openai:`` policy on it (its key in NEGENV_PF_KEY)."""
    pytest.importorskip("openai")
    from tests.fakeserver import FakeServer

    monkeypatch.setenv("NEGENV_PF_KEY", KEY)
    monkeypatch.setattr("negotiation_env.runner.playing._POOL", None)
    server = FakeServer()
    server.reply = lambda req: "A"
    try:
        yield server, {"spec": f"openai:test-model@{server.url}", "label": "live",
                       "options": {"api_key_env": "NEGENV_PF_KEY", "timeout": 5, "max_retries": 1}}
    finally:
        server.close()


def test_a_live_server_passes_the_probe_and_the_run_completes(tmp_path, capsys, live_server):
    server, live = live_server
    cfg = write(tmp_path, matrix_config(live, games=2))
    rc = main(["run", cfg, "--out", str(tmp_path / "run")])
    printed = capsys.readouterr()
    assert rc == 0, printed.err
    probe = server.requests[0]
    assert probe["max_tokens"] == 1 and probe["messages"] == [{"role": "user", "content": "Reply with OK."}]
    assert "seed" not in probe  # the probe uses no call seed: the games' seeds are untouched
    assert "answered the probe" in printed.out and "2/2 games (complete)" in printed.out
    traces = (tmp_path / "run" / "traces.jsonl").read_text().splitlines()
    assert len(traces) == 2
    assert len(server.requests) > 1  # the games asked the same server
    assert KEY not in printed.out + printed.err + "".join(traces)


# --------------------------------------------------------------------------- building


def test_a_misspelt_option_is_named_with_a_suggestion(tmp_path, capsys):
    pytest.importorskip("openai")
    cfg = matrix_config({"spec": "openai:m@http://127.0.0.1:9/v1", "options": {"temprature": 0.2}},
                        {"spec": "scripted:bernoulli", "label": "b", "options": {"pp": 0.2}},
                        {"spec": "scripted:bernoulli", "label": "b2", "options": {"p": 0.2, "output": "text"}})
    with pytest.raises(PreflightError) as info:
        run(cfg, tmp_path / "run")
    msg = str(info.value)
    assert "unknown option 'temprature' (did you mean 'temperature'?)" in msg
    assert "unknown option 'pp' (did you mean 'p'?)" in msg
    assert "2 of 3 policies cannot be used" in msg and "label b2" not in msg  # the right one passes
    assert len(msg.splitlines()) == 3  # a heading and one line per problem
    assert not (tmp_path / "run").exists()
    assert info.value.exit_code == 2  # the config names options that do not exist: a config error
    # the same in --plan, which builds nothing it does not need to and calls no model
    assert main(["run", write(tmp_path, cfg), "--plan"]) == 2
    assert "did you mean 'temperature'" in capsys.readouterr().err


def test_an_option_the_factory_passes_on_is_caught_when_it_is_built(tmp_path):
    cfg = matrix_config({"spec": "python:tests.runner.test_preflight:Forwarding", "options": {"temperture": 1}})
    plan = make_plan(parse_config(cfg))
    check_specs(plan)  # **options: the signature cannot say
    with pytest.raises(PreflightError, match=r"unknown option 'temperture'.*unexpected keyword"):
        preflight(plan, probe=False)


def test_an_unknown_scripted_name_fails_in_run_and_in_plan(tmp_path, capsys):
    cfg = write(tmp_path, matrix_config("scripted:always_a", "scripted:oracle"))
    assert main(["run", cfg, "--plan"]) == 2  # a config error, not a model that cannot be used
    err = capsys.readouterr().err
    assert "games[0].policies[1]: unknown scripted policy 'oracle' for game 'matrix'; available: always_a" in err
    assert main(["run", cfg, "--out", str(tmp_path / "run")]) == 2
    assert "unknown scripted policy 'oracle'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    good = write(tmp_path, matrix_config("scripted:always_a", "scripted:tit_for_tat"))
    assert main(["run", good, "--plan"]) == 0
    assert "2 policies built; no model was called" in capsys.readouterr().out


def test_a_missing_extra_names_the_whole_install_command(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "baselines.llm.api", None)  # as if the openai client were missing
    cfg = write(tmp_path, matrix_config("openai:m@http://127.0.0.1:9/v1", "openai:n@http://127.0.0.1:9/v1"))
    assert main(["run", cfg, "--out", str(tmp_path / "run")]) == 3
    err = capsys.readouterr().err
    assert "pip install 'negotiation_env[api]'" in err  # the [api] is not eaten as terminal markup
    assert "2 of 2 policies cannot be used" in err  # every problem, not the first one
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("where", ["missing", "empty", "file"])
def test_a_wrong_hf_path_stops_the_run_before_loading_anything(tmp_path, where):
    pytest.importorskip("transformers")
    path = {"missing": tmp_path / "no" / "model", "empty": tmp_path / "empty", "file": tmp_path / "weights.bin"}[where]
    if where == "empty":
        path.mkdir()
    elif where == "file":
        path.write_bytes(b"\0")
    why = {"missing": "does not exist", "empty": "has no config.json", "file": "is a file"}[where]
    cfg = matrix_config({"spec": f"hf:{path}", "label": "tiny", "options": {"device": "cpu"}})
    with pytest.raises(PreflightError, match=f"hf:{path} \\(label tiny, game matrix\\): .*{why}"):
        run(cfg, tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_problems_are_reported_together_and_no_model_is_loaded_meanwhile(tmp_path, monkeypatch):
    """A typo elsewhere stops the run before the (slow) model loads; the hf line says it was not loaded."""
    pytest.importorskip("transformers")
    import baselines.llm.hf as hf

    tiny_model_path = tmp_path / "model"
    tiny_model_path.mkdir()
    (tiny_model_path / "config.json").write_text("{}")

    def refuse(*a, **k):  # pragma: no cover - the point is that it is never called
        raise AssertionError("loaded a model although the run cannot start")

    monkeypatch.setattr(hf.HFPolicy, "__init__", refuse)
    cfg = matrix_config({"spec": f"hf:{tiny_model_path}", "label": "tiny"},
                        {"spec": "scripted:bernoulli", "options": {"q": 1}})
    with pytest.raises(PreflightError) as info:
        preflight(make_plan(parse_config(cfg)))
    msg = str(info.value)
    assert "unknown option 'q'" in msg and "label tiny" in msg and "not loaded" in msg


def test_plan_builds_without_calling_and_probes_when_asked(tmp_path, capsys):
    pytest.importorskip("openai")
    url = f"http://127.0.0.1:{free_port()}/v1"
    cfg = write(tmp_path, matrix_config({"spec": f"openai:m@{url}", "label": "dead"}, "scripted:always_a"))
    assert main(["run", cfg, "--plan"]) == 0  # built, not called: a dead server is not --plan's business
    out = capsys.readouterr().out
    assert "label dead, game matrix): built" in out and "no model was called" in out
    assert main(["run", cfg, "--plan", "--probe"]) == 3
    err = capsys.readouterr().err
    assert url in err and "cannot connect" in err


def test_a_client_that_sends_fewer_requests_than_the_run_plays_is_named(tmp_path, capsys, live_server):
    """An openai: policy sends at most its max_concurrency requests at once; a run playing
    more games at once says so on the policy's preflight line, with the option to raise."""
    _, live = live_server
    cfg = write(tmp_path, matrix_config(live, games=2))
    assert main(["run", cfg, "--plan", "--concurrency", "16"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert "at most 8 of its requests in flight (its max_concurrency) under --concurrency 16" in out
    assert "set options.max_concurrency = 16" in out
    raised = {**live, "options": {**live["options"], "max_concurrency": 16}}
    assert main(["run", write(tmp_path, matrix_config(raised, games=2)), "--plan", "--concurrency", "16"]) == 0
    assert "max_concurrency" not in capsys.readouterr().out
    assert main(["run", cfg, "--plan", "--concurrency", "8"]) == 0  # 8 of 8: nothing caps the run
    assert "max_concurrency" not in capsys.readouterr().out
