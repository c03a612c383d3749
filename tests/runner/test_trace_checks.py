"""Traces are keyed and checked: duplicate and foreign records are dropped and
counted by the reader and by resume, a record that fails the schema is moved aside and its
game played again, the run folder is set up under a lock, links are refused, and degraded
runs are not successes."""

from __future__ import annotations

import json
import multiprocessing as mp
from pathlib import Path

import pytest

from negotiation_env.analysis.report import report_run
from negotiation_env.analysis.viewer import view_run
from negotiation_env.cli import main
from negotiation_env.runner.engine import RunnerError, run
from negotiation_env.traces import read_traces
from negotiation_env.traces.export import transitions

from .helpers import small_config

# 2 pairings x 2 stability x 2 scenario sets... keep it small: one pairing, one game per cell
CONFIG = small_config(games_per_cell=1, policies=["scripted:oracle", "scripted:greedy"], rounds=1, pairings="self")
OTHER = small_config(games_per_cell=1, policies=["scripted:oracle", "scripted:greedy"], rounds=1, pairings="self",
                     seed=99)


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    a, b = tmp_path_factory.mktemp("a"), tmp_path_factory.mktemp("b")
    sa, sb = run(CONFIG, a), run(OTHER, b)
    assert sa.complete and sb.complete and sa.run_id != sb.run_id
    return a, b


def _tampered(tmp_path: Path, runs) -> tuple[Path, int]:
    """A copy of run a with one line repeated and one line of run b appended."""
    a, b = runs
    d = tmp_path / "t"
    d.mkdir()
    (d / "run.json").write_bytes((a / "run.json").read_bytes())
    own, other = _lines(a / "traces.jsonl"), _lines(b / "traces.jsonl")
    (d / "traces.jsonl").write_bytes(b"".join(own + [own[1], other[0]]))
    return d, len(own)


def test_reader_drops_and_reports_duplicate_and_foreign_lines(tmp_path, runs):
    d, n = _tampered(tmp_path, runs)
    res = read_traces(d)
    assert len(res.traces) == n
    assert len({(t.run.run_id, t.run.game_key) for t in res.traces}) == n
    assert sorted(p.kind for p in res.problems) == ["duplicate", "foreign"]
    dup = next(p for p in res.problems if p.kind == "duplicate")
    assert dup.line == n + 1 and "already read at traces.jsonl:2" in dup.message
    # on purpose, several runs: the foreign game is kept, the duplicate still dropped
    every = read_traces(d, runs="all")
    assert len(every.traces) == n + 1 and [p.kind for p in every.problems] == ["duplicate"]
    # without run.json the first record names the run
    (d / "run.json").unlink()
    assert len(read_traces(d).traces) == n


def test_report_export_and_view_count_each_game_once(tmp_path, runs):
    d, n = _tampered(tmp_path, runs)
    clean = runs[0]
    rep = report_run(d, tmp_path / "rep", plots=False)
    assert rep.games == {"resource": n}
    assert sum("duplicate" in note for note in rep.notes) == 1
    assert sum("foreign" in note for note in rep.notes) == 1
    assert len(list(transitions(d))) == len(list(transitions(clean)))
    problems: list = []
    _path, games = view_run(d, tmp_path / "v.html", problems=problems)
    assert games == n and len(problems) == 2
    assert report_run(d, tmp_path / "rep2", plots=False, runs="all").games == {"resource": n + 1}


def test_cli_prints_what_it_dropped(tmp_path, runs, capsys):
    d, n = _tampered(tmp_path, runs)
    assert main(["view", str(d), "--out", str(tmp_path / "v.html")]) == 0
    out = " ".join(capsys.readouterr().out.split())  # rich wraps at the terminal width
    assert f"({n} games; 2 trace lines left out" in out
    assert "duplicate:" in out and "foreign:" in out
    assert main(["report", str(d), "--no-plots", "--all-runs"]) == 0
    assert f"resource {n + 1}" in " ".join(capsys.readouterr().out.split())


def test_resume_moves_bad_lines_aside_and_replays_a_broken_game(tmp_path, runs):
    d, n = _tampered(tmp_path, runs)
    lines = _lines(d / "traces.jsonl")
    broken = lines[0].replace(b'"game_key":', b'"game_kex":', 1)  # still JSON, but not the schema
    assert broken != lines[0]
    json.loads(broken)
    (d / "traces.jsonl").write_bytes(b"".join([broken] + lines[1:]))
    summary = run(CONFIG, d, resume=True)
    assert summary.complete and summary.already_done == n - 1 and summary.played == 1
    assert summary.rejected == {"invalid": 1, "duplicate": 1, "foreign": 1}
    kept = read_traces(d)
    assert kept.problems == [] and len(kept.traces) == n
    rejected = [json.loads(x) for x in (d / "traces.jsonl.rejected").read_text().splitlines()]
    assert [r["line"] for r in rejected] == [1, n + 1, n + 2]
    assert rejected[0]["record"].encode() + b"\n" == broken
    # the replayed game is the game the broken line held
    first = json.loads(lines[0])
    again = [t for t in kept.traces if t.run.game_key == first["run"]["game_key"]]
    assert len(again) == 1 and again[0].returns == first["returns"]
    # a second resume finds nothing to do and nothing to move
    s2 = run(CONFIG, d, resume=True)
    assert s2.played == 0 and s2.rejected == {} and s2.complete


def _race(args):
    cfg, out, barrier = args
    barrier.wait()
    try:
        run(cfg, out)
        return "ok"
    except RunnerError as e:
        return f"refused: {e}"


def _racer(cfg, out, barrier, q):
    q.put(_race((cfg, out, barrier)))


@pytest.mark.parametrize("attempt", range(6))
def test_simultaneous_runners_on_one_folder_never_mix(tmp_path, attempt):
    ctx = mp.get_context("fork")
    out = tmp_path / "race"
    barrier, q = ctx.Barrier(3), ctx.Queue()
    cfgs = [CONFIG, OTHER, CONFIG if attempt % 2 else OTHER]
    procs = [ctx.Process(target=_racer, args=(c, out, barrier, q)) for c in cfgs]
    for p in procs:
        p.start()
    results = [q.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert results.count("ok") == 1, results
    assert all(r == "ok" or "another run is writing" in r or "already holds a run" in r for r in results), results
    run_id = json.loads((out / "run.json").read_text())["run_id"]
    traces = read_traces(out, runs="all").traces
    assert traces and {t.run.run_id for t in traces} == {run_id}


def test_links_and_files_are_refused(tmp_path, runs):
    d = tmp_path / "linked"
    d.mkdir()
    target = tmp_path / "elsewhere.jsonl"
    target.write_bytes(b"")
    (d / "traces.jsonl").symlink_to(target)
    with pytest.raises(RunnerError, match="symbolic link"):
        run(CONFIG, d)
    assert not (d / "run.json").exists() and target.read_bytes() == b""
    f = tmp_path / "afile"
    f.write_text("x")
    with pytest.raises(RunnerError, match="is a file, not a folder"):
        run(CONFIG, f)
    assert main(["run", "--out", str(f)]) == 2


def _flaky(marker: Path) -> dict:
    return small_config(games_per_cell=1, rounds=1, pairings="self",
                        policies=[{"spec": "python:tests.runner.helpers:Flaky", "label": "flaky",
                                   "options": {"marker": str(marker)}}])


def test_degraded_run_fails_then_retry_errors_replays_it(tmp_path, capsys):
    marker = tmp_path / "server_down"
    marker.write_text("")
    out = tmp_path / "run"
    summary = run(_flaky(marker), out)
    n = summary.planned
    assert summary.complete and summary.degraded == n and summary.too_degraded
    # the CLI: every planned game is there, but the run is not a success
    toml = tmp_path / "flaky.yaml"
    toml.write_text(_yaml(_flaky(marker)))
    assert main(["run", str(toml), "--out", str(tmp_path / "cli")]) == 4
    err = " ".join(capsys.readouterr().out.split())
    assert f"run failed: {n} of {n} games (100.0%) were degraded" in err
    # a generous threshold accepts it
    assert main(["run", str(toml), "--out", str(tmp_path / "cli2"), "--max-degraded", "1"]) == 0
    # the server is back: replay the degraded games
    marker.unlink()
    again = run(_flaky(marker), out, resume=True, retry_errors=True)
    assert again.retried == n and again.played == n and again.degraded == 0 and not again.too_degraded
    assert again.rejected == {"retried": n}
    traces = read_traces(out)
    assert traces.problems == [] and len(traces.traces) == n
    assert not any((t.meta.get("model_calls") or {}).get("degraded") for t in traces.traces)
    with pytest.raises(RunnerError, match="needs --resume"):
        run(_flaky(marker), tmp_path / "x", retry_errors=True)
    with pytest.raises(RunnerError, match="max-degraded"):
        run(_flaky(marker), tmp_path / "y", max_degraded=1.5)


def _yaml(cfg: dict) -> str:
    import yaml

    return yaml.safe_dump(cfg)


def test_a_record_with_a_huge_integer_is_reported_not_raised(tmp_path, runs):
    """Python refuses int('9' * 5000) with a bare ValueError; the reader reports the line
    and resume moves it aside and plays its game again."""
    a, _b = runs
    d = tmp_path / "huge"
    d.mkdir()
    (d / "run.json").write_bytes((a / "run.json").read_bytes())
    lines = _lines(a / "traces.jsonl")
    rec = json.loads(lines[0])
    rec["meta"] = {"n": 0}
    bomb = json.dumps(rec).replace('{"n": 0}', '{"n": ' + "9" * 5000 + "}").encode() + b"\n"
    (d / "traces.jsonl").write_bytes(b"".join([bomb] + lines[1:]))
    res = read_traces(d)
    assert len(res.traces) == len(lines) - 1
    assert [p.kind for p in res.problems] == ["undecodable"] and res.problems[0].line == 1
    summary = run(CONFIG, d, resume=True)
    assert summary.played == 1 and summary.rejected == {"invalid": 1} and summary.complete
    assert len(read_traces(d).traces) == len(lines)


def test_export_counts_each_game_once_and_all_runs_on_purpose(tmp_path, runs, capsys):
    d, n = _tampered(tmp_path, runs)
    clean = runs[0]
    rows_one = len(list(transitions(clean)))
    rows_other = len(list(transitions(runs[1])))
    per_game = {t.run.game_key: len(t.steps) for t in read_traces(runs[1]).traces}
    assert main(["export", str(d), "--kind", "transitions", "--out", str(tmp_path / "t.jsonl")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"wrote {rows_one} transitions rows" in out and "duplicate:" in out and "foreign:" in out
    assert main(["export", str(d), "--kind", "transitions", "--out", str(tmp_path / "all.jsonl"), "--all-runs"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    other_key = json.loads(_lines(runs[1] / "traces.jsonl")[0])["run"]["game_key"]
    assert f"wrote {rows_one + per_game[other_key]} transitions rows" in out and "duplicate:" in out
    assert "foreign:" not in out and rows_other >= per_game[other_key]
    assert main(["export", str(d), "--kind", "minari", "--out", str(tmp_path / "m")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "duplicate:" in out and "foreign:" in out and f"{n} episodes" in out


def test_a_run_json_with_a_huge_number_is_a_clear_error(tmp_path):
    d = tmp_path / "bad_meta"
    d.mkdir()
    (d / "run.json").write_text('{"run_id": "x", "planned": ' + "9" * 5000 + "}")
    with pytest.raises(RunnerError, match="run.json is unreadable"):
        run(CONFIG, d, resume=True)
    assert main(["run", "--out", str(d), "--resume"]) == 2
    # the reader ignores it (no run named) and reads the first record's run
    assert read_traces_or_empty(d) == []


def read_traces_or_empty(d: Path) -> list:
    (d / "traces.jsonl").touch()
    return read_traces(d).traces
