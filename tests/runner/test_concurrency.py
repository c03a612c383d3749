"""Games played at once in threads (``run --concurrency N``): the same traces as one game
at a time, up to N model calls in flight, and a slow game holding back only itself."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from negotiation_env.cli import main
from negotiation_env.core.policy import call_seed
from negotiation_env.runner import RunnerError, make_plan, parse_config, run
from negotiation_env.runner.concurrent import DEFAULT_CONCURRENCY, play_concurrent
from negotiation_env.runner.engine import default_concurrency

from .helpers import small_config


def strip(d: dict) -> dict:
    """A record without its wall-clock fields (when the game started and ended)."""
    d = dict(d)
    d.pop("started_at")
    d.pop("ended_at")
    return d


def records(out: Path) -> dict[str, dict]:
    return {r["game_id"]: strip(r) for r in map(json.loads, (out / "traces.jsonl").read_text().splitlines())}


def api_config(url: str, games: int = 6, rounds: int = 3, **options) -> dict:
    """Self-play of one ``openai:`` policy in the matrix game with talk."""
    return {"name": "conc", "seed": 7, "games": [{
        "game": "matrix", "policies": [{"spec": f"openai:m@{url}", "label": "api",
                                        "options": {"max_concurrency": 64, "max_retries": 0, **options}}],
        "pairings": "self", "games_per_cell": games,
        "config": {"num_rounds": rounds, "treatment": "communication"}}]}


def seeded_reply(request: dict) -> str:
    """An answer that depends on the call's seed and on the conversation, so that a game
    given another game's seeds, or another game's answers, plays differently."""
    seed = request.get("seed") or 0
    turns = len(request.get("messages") or [])
    return "AB"[(seed + turns) % 2] + ("" if seed % 3 else " and I mean it")


@pytest.fixture
def server():
    pytest.importorskip("openai")
    from tests.fakeserver import FakeServer

    srv = FakeServer()
    srv.reply = seeded_reply
    yield srv
    srv.close()


def test_scripted_run_with_threads_writes_identical_traces(tmp_path):
    run(small_config(games_per_cell=1), tmp_path / "serial", concurrency=1)
    summary = run(small_config(games_per_cell=1), tmp_path / "threads", concurrency=5)
    assert summary.complete and summary.played == summary.planned and summary.errors == 0
    assert records(tmp_path / "threads") == records(tmp_path / "serial")


def test_api_run_with_threads_writes_identical_traces_and_fills_the_server(tmp_path, server):
    cfg = api_config(server.url, games=8)
    run(cfg, tmp_path / "serial", concurrency=1)
    one = server.max_in_flight
    serial_seeds = sorted(r.get("seed") for r in server.requests[1:])  # (after the probe)
    server.delay = 0.05  # every answer takes a while: the games overlap
    server.max_in_flight = 0
    n = len(server.requests)
    summary = run(cfg, tmp_path / "threads", concurrency=8)
    assert summary.complete and summary.played == 8 and summary.errors == 0 and summary.degraded == 0
    got, want = records(tmp_path / "threads"), records(tmp_path / "serial")
    assert set(got) == set(want)
    for key in want:
        assert got[key] == want[key], key
    assert one == 1 and server.max_in_flight == 8
    assert sorted(r.get("seed") for r in server.requests[n + 1:]) == serial_seeds
    # the answers differ between games and calls, so equal traces are not trivially equal
    actions = {s["action"] for d in want.values() for s in d["steps"]}
    assert {"A", "B"} <= {a.split()[0] for a in actions}


def test_a_slow_game_does_not_hold_back_the_others(tmp_path, server):
    cfg = api_config(server.url, games=10, rounds=2)
    specs = make_plan(parse_config(cfg)).specs
    slow = specs[0]
    slow_seeds = {call_seed(s, i) for s in slow.policy_seeds for i in range(50)}
    release, held = threading.Event(), threading.Event()
    waited: list[bool] = []

    def reply(request):
        if request.get("seed") in slow_seeds:
            held.set()
            waited.append(release.wait(timeout=60))
        return seeded_reply(request)

    server.reply = reply
    out = tmp_path / "run"
    result: dict = {}
    runner = threading.Thread(target=lambda: result.setdefault("summary", run(cfg, out, concurrency=3)))
    runner.start()
    try:
        deadline = time.monotonic() + 60
        others = {s.key for s in specs[1:]}
        while time.monotonic() < deadline:
            done = set(records(out)) if (out / "traces.jsonl").exists() else set()
            if others <= done:
                break
            time.sleep(0.02)
        # every other game ended while the slow one waits on its first answer
        assert held.is_set() and not release.is_set()
        assert done == others
    finally:
        release.set()
        runner.join(timeout=60)
    summary = result["summary"]
    assert summary.complete and summary.played == 10 and summary.errors == 0
    assert set(records(out)) == others | {slow.key}
    assert waited and all(waited)


def test_worker_processes_each_play_games_in_threads(tmp_path, server):
    cfg = api_config(server.url, games=6, rounds=2)
    run(cfg, tmp_path / "serial", concurrency=1)
    server.delay = 0.05
    server.max_in_flight = 0
    summary = run(cfg, tmp_path / "pool", workers=2, concurrency=3)
    assert summary.complete and summary.played == 6 and summary.errors == 0
    assert records(tmp_path / "pool") == records(tmp_path / "serial")
    assert 3 < server.max_in_flight <= 6  # more than one process's threads at once


def test_resume_with_threads_plays_only_the_missing_games(tmp_path):
    cfg = small_config(games_per_cell=1)
    full = tmp_path / "full"
    run(cfg, full)
    out = tmp_path / "part"
    run(cfg, out)
    path = out / "traces.jsonl"
    kept = path.read_text().splitlines(keepends=True)[::3]
    path.write_text("".join(kept))
    summary = run(cfg, out, resume=True, concurrency=4)
    assert summary.already_done == len(kept) and summary.played == summary.planned - len(kept)
    assert summary.complete and records(out) == records(full)


def test_a_failure_of_the_machinery_is_raised_after_the_games_before_it():
    specs = make_plan(parse_config(small_config(games_per_cell=1))).specs[:6]
    bad = specs[3].key

    def play(spec):
        if spec.key == bad:
            raise OSError("disk gone")
        return (spec.key.encode(), {"key": spec.key})

    seen = []
    with pytest.raises(OSError, match="disk gone"):
        for batch in play_concurrent(specs, 1, play):
            seen += [g["key"] for _line, g in batch]
    assert seen == [s.key for s in specs[:3]]


def test_default_concurrency_is_for_servers_only(server):
    api = make_plan(parse_config(api_config(server.url)))
    scripted = make_plan(parse_config(small_config(games_per_cell=1)))
    assert default_concurrency(api) == DEFAULT_CONCURRENCY == 16
    assert default_concurrency(api, batch_games=8) == 1
    assert default_concurrency(scripted) == 1


@pytest.mark.parametrize("kw,words", [
    ({"concurrency": 0}, "--concurrency must be an integer >= 1; got 0"),
    ({"concurrency": True}, "--concurrency must be an integer >= 1; got True"),
    ({"concurrency": 2.0}, "--concurrency must be an integer >= 1; got 2.0"),
    ({"concurrency": 4, "batch_games": 4}, "--concurrency 4 and --batch-games 4 are two ways"),
])
def test_bad_concurrency_is_refused_before_the_folder_is_touched(tmp_path, kw, words):
    with pytest.raises(RunnerError, match=words.replace(".", r"\.")):
        run(small_config(games_per_cell=1), tmp_path / "out", **kw)
    assert not (tmp_path / "out").exists()


def test_cli_takes_concurrency(tmp_path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(json.dumps(small_config(games_per_cell=1)))
    assert main(["run", str(cfg), "--out", str(tmp_path / "a"), "--concurrency", "4"]) == 0
    assert main(["run", str(cfg), "--out", str(tmp_path / "b")]) == 0
    assert records(tmp_path / "a") == records(tmp_path / "b")
    assert main(["run", str(cfg), "--out", str(tmp_path / "c"), "--concurrency", "0"]) == 2
    assert "--concurrency must be an integer >= 1; got 0" in capsys.readouterr().err
