"""The lock-step driver writes the traces play_game writes, game by game, while batching
every model call across the open games."""

from __future__ import annotations

import json

import pytest

from negotiation_env.cli import main
from negotiation_env.runner import RunnerError, make_plan, parse_config, play_game, run
from negotiation_env.runner.lockstep import play_lockstep
from tests.runner.helpers import small_config


def strip(d):
    d = dict(d)
    d.pop("started_at")
    d.pop("ended_at")
    return d


def records(out):
    return {r["game_id"]: strip(r) for r in map(json.loads, (out / "traces.jsonl").read_text().splitlines())}


def hf_config(path, games=3, **options):
    opts = {"temperature": 0.0, "max_new_tokens": 8, "device": "cpu", **options}
    return {"name": "hf", "seed": 5, "games": [{
        "game": "resource", "policies": [{"spec": f"hf:{path}", "label": "tiny", "options": opts}, "scripted:oracle"],
        "pairings": [["tiny", "tiny"], ["tiny", "scripted:oracle"]], "games_per_cell": games,
        "config": {"num_rounds": 1, "cheap_talk_turns": 1, "max_retries": 1}}]}


@pytest.fixture
def batch_sizes(monkeypatch):
    """The size of every batch HFPolicy generates, in order."""
    from baselines.llm.hf import HFPolicy

    sizes: list[int] = []
    real = HFPolicy._generate

    def spy(self, prompts, *rest):
        sizes.append(len(prompts))
        return real(self, prompts, *rest)

    monkeypatch.setattr(HFPolicy, "_generate", spy)
    return sizes


def test_scripted_run_in_lockstep_writes_identical_traces(tmp_path):
    run(small_config(games_per_cell=1), tmp_path / "serial")
    summary = run(small_config(games_per_cell=1), tmp_path / "lock", batch_games=5)
    assert summary.complete and summary.played == summary.planned and summary.errors == 0
    assert records(tmp_path / "lock") == records(tmp_path / "serial")


def test_policy_reporting_usage_without_batch_usage_is_asked_one_by_one():
    cfg = small_config(games_per_cell=1, policies=["python:tests.runner.helpers:Secretive", "scripted:oracle"])
    specs = make_plan(parse_config(cfg)).specs[:4]
    serial = {d["game_id"]: strip(d) for d in map(play_game, specs)}
    batched = {d["game_id"]: strip(d) for d in play_lockstep(specs, 4)}
    assert batched == serial
    tokens = [s["tokens"] for d in serial.values() for s in d["steps"] if s["tokens"]]
    assert tokens and len({json.dumps(t) for t in tokens}) > 1


@pytest.mark.parametrize("options", [{}, {"temperature": 1.0, "top_p": 0.95}], ids=["greedy", "sampled"])
def test_hf_lockstep_traces_equal_one_game_at_a_time(tiny_model, options):
    specs = make_plan(parse_config(hf_config(tiny_model, **options))).specs
    serial = {d["game_id"]: strip(d) for d in map(play_game, specs)}
    batched = {d["game_id"]: strip(d) for d in play_lockstep(specs, len(specs))}
    assert set(batched) == set(serial)
    for k in serial:
        assert batched[k] == serial[k], k
    assert all(d["status"] == "complete" for d in serial.values())
    # usage is per item: games' prompts differ, and each trace holds its own counts
    per_game = [[s["tokens"]["prompt_tokens"] for s in d["steps"] if s["agent"] == "agent_a"] for d in serial.values()]
    assert len({tuple(x) for x in per_game}) > 1


def test_hf_calls_are_batched_across_games(tiny_model, batch_sizes):
    specs = make_plan(parse_config(hf_config(tiny_model, games=4))).specs
    traces = list(play_lockstep(specs, 8))
    assert len(traces) == 8 and max(batch_sizes) >= 8  # both seats of self-play games, across games


def test_a_failing_game_does_not_stop_the_others():
    cfg = small_config(games_per_cell=1, policies=["python:tests.runner.helpers:Crasher", "scripted:oracle"],
                       pairings=[["python:tests.runner.helpers:Crasher", "scripted:oracle"],
                                 ["scripted:oracle", "scripted:oracle"]])
    specs = make_plan(parse_config(cfg)).specs
    out = list(play_lockstep(specs, 3))
    status = {d["game_id"]: d["status"] for d in out}
    assert len(out) == len(specs)
    for s in specs:
        want = "error" if "Crasher" in s.key else "complete"
        assert status[s.key] == want
    err = next(d for d in out if d["status"] == "error")
    assert "policy exploded" in err["error"] and err["steps"]


def test_resume_in_lockstep_completes_the_plan_without_duplicates(tmp_path):
    cfg = small_config(games_per_cell=1)
    run(cfg, tmp_path / "ref")
    full = (tmp_path / "ref" / "traces.jsonl").read_text().splitlines()
    out = tmp_path / "run"
    run(cfg, out)
    (out / "traces.jsonl").write_text("\n".join(full[:3]) + "\n" + full[3][:40])  # torn last line
    summary = run(cfg, out, resume=True, batch_games=4)
    assert summary.already_done == 3 and summary.played == len(full) - 3 and summary.complete
    assert records(out) == records(tmp_path / "ref")


def test_batch_games_needs_one_local_worker(tmp_path):
    with pytest.raises(RunnerError, match="--batch-games 4.*--workers 1"):
        run(small_config(), tmp_path / "a", batch_games=4, workers=2)
    with pytest.raises(RunnerError, match="--batch-games must be an integer >= 1"):
        run(small_config(), tmp_path / "b", batch_games=0)
    with pytest.raises(ValueError, match="batch_games"):
        list(play_lockstep([], 0))


def test_cli_batch_games(tmp_path):
    cfg = tmp_path / "c.yaml"  # JSON is YAML
    cfg.write_text(json.dumps(small_config(games_per_cell=1)))
    assert main(["run", str(cfg), "--out", str(tmp_path / "o"), "--batch-games", "3"]) == 0
    run(small_config(games_per_cell=1), tmp_path / "ref")
    assert records(tmp_path / "o") == records(tmp_path / "ref")


def test_hf_batch_stays_full_across_scripted_turns_and_finished_games(tiny_model, batch_sizes):
    cfg = hf_config(tiny_model, games=3)
    cfg["games"][0]["pairings"] = [["tiny", "scripted:oracle"], ["scripted:oracle", "tiny"]]
    specs = make_plan(parse_config(cfg)).specs
    serial = {d["game_id"]: strip(d) for d in map(play_game, specs)}
    batch_sizes.clear()
    batched = {d["game_id"]: strip(d) for d in play_lockstep(specs, 4)}
    assert batched == serial
    # the model speaks first in half the games and second in the others: the oracle's
    # turns are played on the way, so every batch is full (4) while planned games
    # remain, then it only shrinks
    assert batch_sizes[0] == 4 and batch_sizes == sorted(batch_sizes, reverse=True), batch_sizes
    # 6 games of 5 model calls: 5 full rounds, then 2 games left
    assert sum(batch_sizes) == 30 and len(batch_sizes) == 10


def test_hf_games_in_threads_write_the_traces_of_one_game_at_a_time(tiny_model, tmp_path):
    cfg = hf_config(tiny_model, games=2)
    run(cfg, tmp_path / "serial")
    summary = run(cfg, tmp_path / "threads", concurrency=3)
    assert summary.complete and summary.errors == 0
    assert records(tmp_path / "threads") == records(tmp_path / "serial")
