import importlib.util
import json
import sys
import types

import pytest

from negotiation_env.runner import RunnerError, RunObserver, make_plan, parse_config, play_game, run
from negotiation_env.runner.policies import PolicyUnavailable, resolve_factory
from negotiation_env.runner.preflight import PreflightError
from negotiation_env.traces import read_traces

from .helpers import small_config


def records(out):
    """trace records by key, without the timestamps"""
    res = {}
    for line in (out / "traces.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        r.pop("started_at")
        r.pop("ended_at")
        res[r["game_id"]] = r
    return res


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("serial")
    summary = run(small_config(), out)
    return out, summary


def test_serial_run_writes_the_planned_set(serial_run):
    out, summary = serial_run
    plan = make_plan(parse_config(small_config()))
    recs = records(out)
    assert sorted(recs) == sorted(plan.keys) and summary.played == len(plan) and summary.complete
    assert summary.errors == 0 and summary.already_done == 0
    meta = json.loads((out / "run.json").read_text())
    assert meta["run_id"] == plan.run_id and meta["planned"] == len(plan)
    t = read_traces(out).traces[0]
    spec = plan.specs[0]
    assert t.run.game_key == spec.key and t.run.lineup == list(spec.lineup) and t.run.plan_index == 0
    assert t.seeds == {"env": spec.env_seed, "policies": dict(zip(t.agents, spec.policy_seeds)), "cohort": 3}
    assert t.policies["agent_a"].spec == "scripted:oracle" and t.policies["agent_a"].settings["output"] == "text"
    assert len(t.rounds) == 2 and t.status == "complete"
    cell = summary.cells[spec.cell]
    assert cell.games == cell.planned == 2 and cell.rounds == 4 and 0 <= cell.efficiency <= 1


def test_play_game_is_reproducible():
    spec = make_plan(parse_config(small_config())).specs[5]
    a, b = play_game(spec), play_game(spec)
    for d in (a, b):
        d.pop("started_at"), d.pop("ended_at")
    assert a == b


def test_process_pool_gives_identical_traces(serial_run, tmp_path):
    out, _ = serial_run
    summary = run(small_config(), tmp_path / "pool", workers=2)
    assert summary.played == summary.planned
    assert records(tmp_path / "pool") == records(out)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (optional extra 'ray')")
def test_ray_backend_gives_identical_traces(serial_run, tmp_path):
    out, _ = serial_run
    summary = run(small_config(), tmp_path / "ray", backend="ray", workers=2)
    assert summary.played == summary.planned
    assert records(tmp_path / "ray") == records(out)


def test_errors_and_truncation_are_recorded_and_the_run_goes_on(tmp_path):
    cfg = small_config(games_per_cell=1, policies=["python:tests.runner.helpers:Crasher", "scripted:oracle"],
                       pairings=[["python:tests.runner.helpers:Crasher", "scripted:oracle"],
                                 ["scripted:oracle", "scripted:oracle"]])
    seen = []

    class Obs(RunObserver):
        def on_game(self, game, summary):
            seen.append(game["status"])

    summary = run(cfg, tmp_path / "a", observer=Obs())
    assert summary.played == 8 and summary.errors == 4 and summary.complete
    assert seen.count("error") == 4
    bad = [t for t in read_traces(tmp_path / "a").traces if t.status == "error"]
    assert all("RuntimeError: policy exploded" in t.error for t in bad)
    assert all(len(t.steps) >= 1 for t in bad)  # the partial game is kept
    capped = run(small_config(games_per_cell=1, max_steps=3), tmp_path / "b")
    traces = read_traces(tmp_path / "b").traces
    assert capped.errors == 0 and {t.status for t in traces} == {"truncated"}
    assert all(len(t.steps) == 3 and "max_steps=3" in t.error for t in traces)


def test_output_folder_rules(serial_run, tmp_path):
    out, _ = serial_run
    with pytest.raises(RunnerError, match="already holds a run"):
        run(small_config(), out)
    with pytest.raises(RunnerError, match="another config"):
        run(small_config(seed=99), out, resume=True)
    again = run(small_config(), out, resume=True)
    assert again.played == 0 and again.already_done == again.planned and again.complete
    with pytest.raises(RunnerError, match="--backend must be one of"):
        run(small_config(), tmp_path / "x", backend="slurm")
    with pytest.raises(RunnerError, match="--workers must be"):
        run(small_config(), tmp_path / "x", workers=0)


def test_llm_specs_are_lazy_and_fail_clearly(tmp_path, monkeypatch):
    cfg = small_config(policies=["hf:/models/tiny", "scripted:oracle"])
    make_plan(parse_config(cfg))  # planning never imports a back end
    monkeypatch.setitem(sys.modules, "baselines.llm.hf", None)  # as if torch/transformers were missing
    with pytest.raises(PreflightError, match=r"hf:/models/tiny \(game resource\): needs baselines\.llm\.hf.*"
                                             r"pip install 'negotiation_env\[llm\]'"):
        run(cfg, tmp_path / "hf")
    with pytest.raises(PolicyUnavailable, match=r"'hf:/models/tiny' needs baselines\.llm\.hf.*'llm' extra"):
        resolve_factory(parse_config(cfg).games[0].policies[0], "resource")


def test_openai_spec_builds_the_api_policy_once_per_worker(tmp_path, monkeypatch):
    from tests.runner.helpers import Secretive

    built = []

    class APIPolicy(Secretive):
        def __init__(self, model, base_url=None, api_key_env=None, seed=None):
            super().__init__(seed=seed, api_key="sk-from-env", base_url=base_url)
            self.model = model
            self.resets = []
            built.append(self)

        def reset(self, seed=None):
            self.resets.append(seed)

    fake = types.ModuleType("baselines.llm.api")
    fake.APIPolicy = APIPolicy
    monkeypatch.setitem(sys.modules, "baselines.llm", types.ModuleType("baselines.llm"))
    monkeypatch.setitem(sys.modules, "baselines.llm.api", fake)
    monkeypatch.setattr("negotiation_env.runner.playing._POOL", None)
    spec = {"spec": "openai:gpt-x@http://127.0.0.1:9/v1", "label": "gptx", "options": {"api_key_env": "MY_KEY"}}
    cfg = small_config(games_per_cell=1, policies=[spec, "scripted:oracle"], pairings=[["gptx", "scripted:oracle"]])
    summary = run(cfg, tmp_path / "api")
    assert summary.played == 4 and summary.errors == 0
    assert len(built) == 1 and built[0].model == "gpt-x" and built[0].base_url == "http://127.0.0.1:9/v1"
    assert len(built[0].resets) == 4
    text = (tmp_path / "api" / "traces.jsonl").read_text() + (tmp_path / "api" / "run.json").read_text()
    assert "sk-from-env" not in text
    t = read_traces(tmp_path / "api").traces[0]
    assert t.policies["agent_a"].label == "gptx" and t.policies["agent_a"].settings["api_key"] == "[REDACTED]"
    assert t.policies["agent_a"].settings["options"] == {"api_key_env": "MY_KEY"}
    assert sum(c.tokens for c in summary.cells.values()) > 0


def test_reused_envs_play_exactly_as_new_ones():
    """play_game takes the env of a finished game of the same kind (engine._FREE_ENVS);
    games played one after another that way give the traces of games each played on a new
    env. Specs of all three games, several configs each, interleaved; a rulemaking block
    is cut short by the step cap (its env is reused mid-run)."""
    from itertools import chain, zip_longest

    from negotiation_env.runner import engine, load_config
    from negotiation_env.runner.config import DEFAULT_CONFIG

    from .test_summary import RULEMAKING

    def sample(plan, kinds=4, per_kind=3):
        """``per_kind`` specs of each of the first ``kinds`` kinds of env in the plan"""
        by_kind: dict = {}
        for spec in plan.specs:
            by_kind.setdefault(engine._env_kind(spec), []).append(spec)
        return [spec for group in list(by_kind.values())[:kinds] for spec in group[:per_kind]]

    groups = [sample(make_plan(load_config())), sample(make_plan(load_config(DEFAULT_CONFIG.with_name("matrix.toml")))),
              sample(make_plan(parse_config(RULEMAKING)), per_kind=4)]
    specs = [s for s in chain.from_iterable(zip_longest(*groups)) if s is not None]
    kinds = {engine._env_kind(s) for s in specs}
    assert {s.game for s in specs} == {"resource", "matrix", "rulemaking"} and len(kinds) >= 8
    assert len(specs) >= len(kinds) + 15  # at least fifteen games on a reused env

    def strip(d):
        d.pop("started_at"), d.pop("ended_at")
        return d

    engine._FREE_ENVS.clear()
    reused = [strip(play_game(s)) for s in specs]
    assert sum(len(v) for v in engine._FREE_ENVS.values()) == len(kinds)  # one env per kind did all the games
    fresh = []
    for s in specs:
        engine._FREE_ENVS.clear()
        fresh.append(strip(play_game(s)))
    assert any(d["status"] == "truncated" for d in reused)
    assert reused == fresh


def test_an_env_whose_game_raised_is_not_reused():
    from negotiation_env.runner import engine

    cfg = small_config(policies=("python:tests.runner.helpers:Crasher", "scripted:oracle"))
    spec = make_plan(parse_config(cfg)).specs[0]
    engine._FREE_ENVS.clear()
    d = play_game(spec)
    assert d["status"] == "error" and "policy exploded" in d["error"]
    assert engine._FREE_ENVS == {}
    ok = make_plan(parse_config(small_config())).specs[0]
    play_game(ok)
    assert list(engine._FREE_ENVS.values()) == [[engine._FREE_ENVS[engine._env_kind(ok)][0]]]


def test_a_default_resource_trace_holds_the_reflection_of_both_agents(tmp_path):
    """D.5: after all rounds both agents reflect (reflection on by default); the trace
    keeps each answer as a step of its own after the last round's decisions."""
    cfg = small_config(games_per_cell=1)
    cfg["games"][0]["scenario_sets"] = {"lo": ["mc050_1"]}
    cfg["games"][0]["factors"] = {}
    run(cfg, tmp_path / "r", preflight=False)
    for rec in records(tmp_path / "r").values():
        reflections = [st for st in rec["steps"] if st["phase"] == "reflection"]
        assert sorted(st["agent"] for st in reflections) == ["agent_a", "agent_b"]
        assert all(st["parsed"]["speech"] for st in reflections)
        assert rec["steps"][-2:] == reflections[-2:]  # the game's last steps
