"""Every failure is an exit code with a sentence: a disk that refuses a write (full,
read-only, no permission) in run, --resume, report, view and export; SIGTERM; games cut
by the step cap. The disk's refusals are simulated by raising the OSError itself."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from negotiation_env.cli import main
from negotiation_env.runner import make_plan, parse_config, run
from negotiation_env.traces import writer as writer_mod

from .helpers import small_config

ROOT = Path(__file__).resolve().parents[2]
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0
NOT_AS_ROOT = "root ignores file permissions, so a read-only folder cannot be made for it"


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines() if path.exists() else []


def keys(path: Path) -> list[str]:
    return [json.loads(x)["run"]["game_key"] for x in lines(path)]


def leftovers(folder: Path) -> list[str]:
    """Temporary or partial files: what a refused write must not leave."""
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".part")))


def config_file(tmp_path: Path, **block) -> Path:
    cfg = tmp_path / "cohort.yaml"
    cfg.write_text(yaml.safe_dump(small_config(**block), sort_keys=False))
    return cfg


def one_line(err: str) -> str:
    return " ".join(err.split())


# --------------------------------------------------------------------------- run


def test_a_full_disk_mid_run_stops_with_a_sentence_and_resume_completes(tmp_path, monkeypatch, capsys):
    cfg = config_file(tmp_path)
    planned = len(make_plan(parse_config(small_config())))
    out = tmp_path / "run"
    real_write, traces_written, trace_fds = os.write, [], set()

    def write(fd, data):
        if b'"game_id"' in bytes(data[:4096]):  # the trace file's descriptor
            trace_fds.add(fd)
        if fd not in trace_fds:
            return real_write(fd, data)
        traces_written.append(fd)
        if len(traces_written) <= 3:
            return real_write(fd, data)
        if len(traces_written) == 4:  # half the record reaches the disk, then it is full
            return real_write(fd, bytes(data[:len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", write)
    assert main(["run", str(cfg), "--out", str(out)]) == 5
    err = one_line(capsys.readouterr().err)
    assert (f"error: could not write {out / 'traces.jsonl'}: No space left on device (ENOSPC); 3 of {planned} "
            f"planned games are in {out}/traces.jsonl and kept, {planned - 3} to play: free space or fix the "
            "folder's permissions, then rerun with --resume to go on") in err
    assert "Traceback" not in err
    # the refused append was taken back whole: three whole records, no half line
    assert len(lines(out / "traces.jsonl")) == 3 and (out / "traces.jsonl").read_bytes().endswith(b"\n")
    monkeypatch.setattr(os, "write", real_write)
    assert main(["run", str(cfg), "--out", str(out), "--resume"]) == 0
    got = keys(out / "traces.jsonl")
    assert len(got) == planned and len(set(got)) == planned
    assert not (out / "traces.jsonl.torn").exists() and leftovers(out) == []


def test_the_writer_takes_a_refused_append_back(tmp_path, monkeypatch):
    w = writer_mod.TraceWriter(tmp_path / "t.jsonl")
    w.write_lines([b'{"a": 1}\n'])
    real_write = os.write

    def half_then_full(fd, data):
        if fd != w._fd:
            return real_write(fd, data)
        if len(data) > 6:
            return real_write(fd, bytes(data[:6]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(OSError) as info:
        w.write_lines([b'{"b": 2}\n', b'{"c": 3}\n'])
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(tmp_path / "t.jsonl")
    assert (tmp_path / "t.jsonl").read_bytes() == b'{"a": 1}\n' and w.written == 1
    w.close()


def test_a_read_only_run_json_write_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    cfg = config_file(tmp_path)
    out = tmp_path / "run"

    def fsync(fd):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(os, "fsync", fsync)
    assert main(["run", str(cfg), "--out", str(out)]) == 5
    err = one_line(capsys.readouterr().err)
    assert f"error: could not write {out / 'run.json'}: Read-only file system (EROFS); the games already in" in err
    assert sorted(p.name for p in out.iterdir()) == ["run.lock"]


def test_resume_on_a_read_only_folder_is_a_sentence(tmp_path, monkeypatch, capsys):
    cfg = config_file(tmp_path)
    out = tmp_path / "run"
    assert main(["run", str(cfg), "--out", str(out)]) == 0
    capsys.readouterr()
    real_open = os.open

    def ro_open(path, flags, *a, **k):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and Path(os.fsdecode(path)).parent == out:
            raise OSError(errno.EROFS, "Read-only file system", os.fsdecode(path))
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", ro_open)
    assert main(["run", str(cfg), "--out", str(out), "--resume"]) == 5
    err = one_line(capsys.readouterr().err)
    assert f"error: could not write {out / 'run.lock'}: Read-only file system (EROFS)" in err
    assert "rerun with --resume to go on" in err and "Traceback" not in err


@pytest.mark.skipif(ROOT_USER, reason=NOT_AS_ROOT)
def test_resume_in_a_folder_without_write_permission(tmp_path, capsys):  # pragma: no cover - not as root
    cfg = config_file(tmp_path)
    out = tmp_path / "run"
    assert main(["run", str(cfg), "--out", str(out)]) == 0
    (out / "run.lock").unlink()
    capsys.readouterr()
    out.chmod(0o555)
    try:
        assert main(["run", str(cfg), "--out", str(out), "--resume"]) == 5
    finally:
        out.chmod(0o755)
    err = one_line(capsys.readouterr().err)
    assert f"error: could not write {out / 'run.lock'}: Permission denied (EACCES)" in err


# --------------------------------------------------------------------------- report, view, export


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("finished") / "run"
    run(small_config(games_per_cell=1), out)
    return out


def failing_open(after: int):
    """An ``open`` for writing whose file takes half its text, then finds the disk full,
    from the ``after + 1``-th file on."""
    import builtins

    opened = []

    class Half:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            self.f.write(text[:len(text) // 2])
            self.f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def fake(file, mode="r", *a, **k):
        f = builtins.open(file, mode, *a, **k)
        if "w" not in mode:
            return f
        opened.append(file)
        return f if len(opened) <= after else Half(f)

    return fake


def test_view_onto_a_full_disk_leaves_no_partial_page(finished, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("negotiation_env.storage.open", failing_open(0), raising=False)
    page = tmp_path / "v" / "viewer.html"
    assert main(["view", str(finished), "--out", str(page)]) == 5
    err = one_line(capsys.readouterr().err)
    assert (f"error: could not write {page}: No space left on device (ENOSPC); no partial page is left there: free "
            "space or choose a writable --out") in err
    assert list(page.parent.iterdir()) == []


def test_report_onto_a_full_disk_keeps_only_whole_files(finished, tmp_path, monkeypatch, capsys):
    whole = tmp_path / "whole"
    assert main(["report", str(finished), "--out", str(whole), "--no-plots"]) == 0
    monkeypatch.setattr("negotiation_env.storage.open", failing_open(3), raising=False)
    out = tmp_path / "r"
    assert main(["report", str(finished), "--out", str(out), "--no-plots"]) == 5
    err = one_line(capsys.readouterr().err)
    assert "error: could not write " + str(out) in err and "No space left on device (ENOSPC); the files written " \
        "before it are whole, none is partial" in err
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 3 and leftovers(out) == []
    assert all((out / n).read_bytes() == (whole / n).read_bytes() for n in written)


@pytest.mark.parametrize("kind,name", [("sft", "x.jsonl"), ("transitions", "x.jsonl")])
def test_export_onto_a_full_disk_writes_nothing(finished, tmp_path, monkeypatch, capsys, kind, name):
    monkeypatch.setattr("negotiation_env.traces.export.open", failing_open(0), raising=False)
    dest = tmp_path / "e" / name
    assert main(["export", str(finished), "--kind", kind, "--out", str(dest)]) == 5
    err = one_line(capsys.readouterr().err)
    assert f"error: could not write {dest}.part: No space left on device (ENOSPC)" not in err  # the real name
    assert f"error: could not write {dest}: No space left on device (ENOSPC); nothing partial is left there" in err
    assert list(dest.parent.iterdir()) == []


# --------------------------------------------------------------------------- SIGTERM


@pytest.mark.parametrize("how", [["--workers", "2"], ["--concurrency", "3"], ["--workers", "2", "--concurrency", "2"]],
                         ids=["pool", "threads", "pool-threads"])
def test_sigterm_stops_a_pool_run_with_a_sentence_no_orphans_and_resume_completes(tmp_path, how):
    psutil = pytest.importorskip("psutil")
    cfg = config_file(tmp_path, games_per_cell=1, policies=["python:tests.runner.helpers:Slow", "scripted:random"])
    planned = len(make_plan(parse_config(small_config(games_per_cell=1, policies=[
        "python:tests.runner.helpers:Slow", "scripted:random"]))))
    out = tmp_path / "run"
    # PYTHONFAULTHANDLER: a run that does not stop is made to print every thread's stack
    env = {**os.environ, "NEGENV_TEST_SLOW": "0.01", "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "negotiation_env.cli", "run", str(cfg), "--out", str(out), *how],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not lines(out / "traces.jsonl") and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, f"the run ended before SIGTERM: {proc.stderr.read().decode()[-2000:]}"
        children = psutil.Process(proc.pid).children(recursive=True)
        assert bool(children) == ("--workers" in how)  # the fork server and the workers
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            _, err = proc.communicate(timeout=30)
            pytest.fail(f"the run did not stop within 30 s of SIGTERM; its threads:\n{err.decode()[-6000:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143
    err = one_line(err.decode())
    assert "terminated (SIGTERM): " in err and "rerun with --resume to go on" in err and "Traceback" not in err
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert alive == []
    done = keys(out / "traces.jsonl")
    assert 1 <= len(done) < planned and f"{len(done)} of {planned} planned games are in" in err
    assert main(["run", str(cfg), "--out", str(out), "--resume"]) == 0
    got = keys(out / "traces.jsonl")
    assert len(got) == planned and len(set(got)) == planned and got[:len(done)] == done


# --------------------------------------------------------------------------- step cap


@pytest.mark.parametrize("flag,code", [([], 6), (["--max-truncated", "0"], 6), (["--max-truncated", "1"], 0)])
def test_games_cut_by_the_step_cap_are_counted_and_fail_past_the_threshold(tmp_path, capsys, monkeypatch, flag,
                                                                           code):
    monkeypatch.setenv("COLUMNS", "200")
    cfg = config_file(tmp_path, games_per_cell=1, max_steps=3)
    planned = len(make_plan(parse_config(small_config(games_per_cell=1, max_steps=3))))
    assert main(["run", str(cfg), "--out", str(tmp_path / "run"), *flag]) == code
    out = one_line(capsys.readouterr().out)
    limit = flag[1] if flag else "0.05"
    verdict = f"more than --max-truncated {limit}: run failed" if code else f"within --max-truncated {limit}"
    assert (f"{planned} of {planned} games (100.0%) were cut by the step cap (max_steps; status truncated), "
            f"{verdict}") in out


def test_a_run_without_truncated_games_says_nothing_of_them(tmp_path, capsys):
    summary = run(small_config(games_per_cell=1), tmp_path / "run")
    assert summary.truncated == 0 and not summary.too_truncated
    s = run(small_config(games_per_cell=1, max_steps=3), tmp_path / "cut", max_truncated=0.5)
    assert s.truncated == s.games == s.planned and s.too_truncated and s.truncated_fraction == 1.0


def test_a_source_that_cannot_be_read_is_a_read_failure_not_a_write(finished, tmp_path, capsys, monkeypatch):
    """A refused read of the run's traces says "could not read" and names the trace file,
    in export, report and view alike; a refused write beside it still says "could not write"."""
    from negotiation_env.storage import failed_verb

    run_dir = tmp_path / "run"
    shutil.copytree(finished, run_dir)
    traces = run_dir / "traces.jsonl"
    real_open = open

    def refuse(file, *a, **kw):
        if os.fspath(file) == os.fspath(traces):
            raise PermissionError(errno.EACCES, "Permission denied", str(traces))
        return real_open(file, *a, **kw)

    monkeypatch.setattr("builtins.open", refuse)
    for argv in (["export", str(run_dir), "--kind", "sft", "--out", str(tmp_path / "sft.jsonl")],
                 ["report", str(run_dir), "--no-plots"], ["view", str(run_dir)]):
        assert main(argv) == 5, argv
        err = " ".join(capsys.readouterr().err.split())
        assert f"could not read {traces}: Permission denied (EACCES)" in err and "could not write" not in err, argv
    # the verb alone: a temporary file being written inside the source is a write
    tmp = run_dir / f".viewer.html.{os.getpid()}.tmp"
    assert failed_verb(OSError(errno.ENOSPC, "full", str(tmp)), run_dir, None) == "write"
    assert failed_verb(OSError(errno.EACCES, "denied", str(traces)), run_dir, run_dir / "report") == "read"
    assert failed_verb(OSError(errno.ENOSPC, "full", str(run_dir / "report" / "a.csv")), run_dir,
                       run_dir / "report") == "write"
