"""Watching a run live (:mod:`negotiation_env.serve.watch`, ``negotiation-env run --serve``):
games appear as their lines are written and not before they are whole, the summary is the
runner's own, trace text comes back escaped, and a browser sees the count rise while a
run plays."""

from __future__ import annotations

import json
import os
import shutil
import threading
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient  # noqa: E402

from negotiation_env.cli import main  # noqa: E402
from negotiation_env.exitcodes import TRACES_FILE  # noqa: E402
from negotiation_env.runner import run  # noqa: E402
from negotiation_env.runner.commands import summary_tables  # noqa: E402
from negotiation_env.runner.engine import RUN_FILE, RunObserver  # noqa: E402
from negotiation_env.serve import watch as watch_module  # noqa: E402
from negotiation_env.serve.watch import WatchServer, watch_app  # noqa: E402

from ..analysis.browser import Browser, chromium_path  # noqa: E402

#: two matrix pairings (three seatings with "all"), two games each, three rounds: six games
CONFIG = {"name": "watch", "seed": 5, "games": [
    {"game": "matrix", "policies": ["scripted:tit_for_tat", "scripted:alternator"], "pairings": "all",
     "games_per_cell": 2, "config": {"num_rounds": 3}}]}
MARKUP = '<script>alert("x")</script><img src=x onerror="alert(1)"> & <b>bold</b>'
LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished tiny run: its folder, summary and trace lines (bytes, newline included)."""
    out = tmp_path_factory.mktemp("watch") / "run"
    summary = run(CONFIG, out)
    assert summary.complete and summary.errors == 0 and summary.planned == 6
    lines = (out / TRACES_FILE).read_bytes().splitlines(keepends=True)
    assert len(lines) == 6
    return out, summary, lines


def _empty_copy(played, tmp_path: Path) -> Path:
    """The run's folder as the runner leaves it before its first game: run.json, no games."""
    out, _, _ = played
    d = tmp_path / "live"
    d.mkdir()
    shutil.copy(out / RUN_FILE, d / RUN_FILE)
    (d / TRACES_FILE).write_bytes(b"")
    return d


def _append(path: Path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


def test_games_appear_as_whole_lines_are_appended(played, tmp_path):
    _, _, lines = played
    d = _empty_copy(played, tmp_path)
    with TestClient(watch_app(d), base_url=LOCAL) as c:
        s = c.get("/state").json()
        assert (s["state"], s["games"], s["planned"], s["rows"]) == ("running", 0, 6, [])
        _append(d / TRACES_FILE, lines[0])
        s = c.get("/state").json()
        first = json.loads(lines[0])
        assert s["games"] == 1 and [r["id"] for r in s["rows"]] == [first["run"]["game_key"]]
        assert s["rows"][0]["game"] == "matrix" and s["rows"][0]["status"] == "complete"
        # half of the next line: a game still being written is not shown
        half = len(lines[1]) // 2
        _append(d / TRACES_FILE, lines[1][:half])
        s2 = c.get("/state", params={"since": 1, "epoch": s["epoch"]}).json()
        assert s2["games"] == 1 and s2["rows"] == []
        _append(d / TRACES_FILE, lines[1][half:])
        s3 = c.get("/state", params={"since": 1, "epoch": s["epoch"]}).json()
        assert s3["games"] == 2 and [r["i"] for r in s3["rows"]] == [1]
        assert s3["rows"][0]["id"] == json.loads(lines[1])["run"]["game_key"]
        # a line repeated (the first record of a key counts) and a line of garbage are not games
        _append(d / TRACES_FILE, lines[0] + b'{"not": "a trace"}\n')
        s4 = c.get("/state").json()
        assert s4["games"] == 2 and len(s4["rows"]) == 2 and s4["skipped"] == {"duplicate": 1, "invalid": 1}
        # the file cut back (a resume moved records aside): read again from its start
        (d / TRACES_FILE).write_bytes(lines[2])
        s5 = c.get("/state", params={"since": 2, "epoch": s["epoch"]}).json()
        assert s5["epoch"] != s["epoch"] and s5["since"] == 0 and s5["games"] == 1
        assert [r["id"] for r in s5["rows"]] == [json.loads(lines[2])["run"]["game_key"]]


def test_lines_longer_than_one_look_are_read_whole(played, tmp_path, monkeypatch):
    _, _, lines = played
    monkeypatch.setattr(watch_module, "MAX_READ_BYTES", 64)  # every line is longer
    d = _empty_copy(played, tmp_path)
    _append(d / TRACES_FILE, b"".join(lines[:3]))
    with TestClient(watch_app(d), base_url=LOCAL) as c:
        assert [c.get("/state").json()["games"] for _ in range(4)] == [1, 2, 3, 3]


def test_summary_is_the_runners_and_the_stream_ends_with_the_run(played, tmp_path):
    _, summary, lines = played
    d = _empty_copy(played, tmp_path)
    _append(d / TRACES_FILE, b"".join(lines[:3]))
    app = watch_app(d, poll=0.01)
    assert app.state.watch.refresh() and app.state.watch._plan is not None  # tables in plan order
    with TestClient(app, base_url=LOCAL) as c:
        part = c.get("/state").json()
        assert (part["games"], part["state"]) == (3, "running")
        _append(d / TRACES_FILE, b"".join(lines[3:]))
        with c.stream("GET", "/events") as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            events = [line for line in r.iter_lines() if line.startswith(("event:", "data:"))]
    assert [e for e in events if e.startswith("event:")] == ["event: state", "event: end"]
    s = json.loads(events[1][len("data: "):])
    assert (s["state"], s["games"], s["planned"], s["errors"], s["truncated"], s["degraded"]) == \
        ("ended", 6, 6, summary.errors, summary.truncated, summary.degraded)
    assert s["tables"] == summary_tables(summary)  # the runner's closing tables, cell for cell
    assert [r["i"] for r in s["rows"]] == list(range(6))
    assert json.loads(events[3][len("data: "):]) == {"games": 6, "planned": 6}


def test_trace_text_comes_back_escaped(played, tmp_path):
    _, _, lines = played
    d = _empty_copy(played, tmp_path)
    rec = json.loads(lines[0])
    step = next(s for s in rec["steps"] if s.get("phase") == "message")
    step["action"] = MARKUP
    step["parsed"] = {**(step.get("parsed") or {}), "message": MARKUP}
    rec["rounds"][0]["outcome"]["messages"][step["agent"]] = MARKUP
    _append(d / TRACES_FILE, json.dumps(rec).encode() + b"\n")
    with TestClient(watch_app(d), base_url=LOCAL) as c:
        assert c.get("/state").json()["games"] == 1
        r = c.get("/game/0")
        assert r.status_code == 200
        assert "<script>" not in r.text and "<img" not in r.text and "<b>bold" not in r.text
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x" in r.text
        assert c.get("/game/1").status_code == 404 and c.get("/game/x").status_code == 404
        page = c.get("/")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert "<script>" not in page.text  # the page's one script is served from its own file


def test_loopback_names_only_unless_a_token(played, tmp_path):
    d = _empty_copy(played, tmp_path)
    with TestClient(watch_app(d), base_url="http://evil.example") as c:
        assert c.get("/state").status_code == 400
    with TestClient(watch_app(d), base_url="http://[::1]:8765") as c:
        assert c.get("/state").status_code == 200
    token = "t" * 24
    with TestClient(watch_app(d, token=token), base_url="http://10.1.2.3:8765") as c:
        assert c.get("/state").status_code == 403
        assert c.get("/state", params={"token": "x" * 24}).status_code == 403
        assert c.get("/state", params={"token": token}).status_code == 200
        assert f'watch.js?token={token}' in c.get("/", params={"token": token}).text
    with pytest.raises(ValueError, match="16 characters"):
        watch_app(d, token="short")


def test_run_serve_flags(tmp_path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(json.dumps(CONFIG))  # JSON is YAML
    assert main(["run", str(cfg), "--out", str(tmp_path / "a"), "--port", "1"]) == 2
    assert "--port apply with --serve only" in capsys.readouterr().err
    assert main(["run", str(cfg), "--plan", "--serve"]) == 2
    assert "--plan plays nothing" in capsys.readouterr().err
    assert main(["run", str(cfg), "--out", str(tmp_path / "a"), "--serve", "--port", "70000"]) == 2
    assert "--port must be in 0..65535" in capsys.readouterr().err
    out = tmp_path / "b"
    assert main(["run", str(cfg), "--out", str(out), "--serve", "--port", "0", "--format", "json"]) == 0
    cap = capsys.readouterr()
    assert "watching the run at http://127.0.0.1:" in cap.err and "has stopped" in cap.err
    assert json.loads(cap.out)["games"] == 6


needs_chromium = pytest.mark.skipif(chromium_path() is None,
                                    reason="chromium not installed (apt-get install -y chromium)")


class _Gate(RunObserver):
    """Holds the run after each game until the test lets it go on."""

    def __init__(self):
        self.written = threading.Semaphore(0)
        self.go = threading.Semaphore(0)

    def on_game(self, game, summary):
        self.written.release()
        if not self.go.acquire(timeout=60):
            raise TimeoutError("the test never let the run go on")


@needs_chromium
def test_browser_sees_the_count_rise_while_a_run_plays(tmp_path):
    out = tmp_path / "run"
    server = WatchServer(out, port=0, poll=0.05).start()
    gate = _Gate()
    result: dict = {}
    runner = threading.Thread(target=lambda: result.update(summary=run(CONFIG, out, observer=gate)), daemon=True)
    try:
        with Browser() as b:
            b.open(server.url)
            b.wait_for("document.body.dataset.state === 'waiting'")  # no run.json yet
            runner.start()
            seen = []
            for n in (1, 2, 3):
                assert gate.written.acquire(timeout=60)
                b.wait_for(f"document.body.dataset.games === '{n}'")
                seen.append(b.eval("document.getElementById('count').textContent"))
                assert b.eval("document.body.dataset.state") == "running"
                gate.go.release()
            for _ in range(3):
                gate.go.release()
            runner.join(60)
            b.wait_for("document.body.dataset.state === 'ended'")
            assert seen == [f"{n} of 6 planned games" for n in (1, 2, 3)]
            assert b.eval("document.querySelectorAll('#rows tr.row').length") == 6
            assert b.eval("document.querySelectorAll('#tables table.summary').length") == 2
            shot = b.screenshot(tmp_path / "watch_run.png")  # the picture on the Runner page
            b.click("#row-4")
            b.wait_for("document.body.dataset.shown === 'g4'")
            assert b.eval("document.querySelector('#game section.game').dataset.gameId") == \
                b.eval("document.querySelector('#row-4 td.id').title")
            # the polling fallback shows the same run
            b.open(server.url + "?poll=1")
            b.wait_for("document.body.dataset.state === 'ended'")
            assert b.eval("document.getElementById('count').textContent") == "6 of 6 planned games"
            assert b.eval("document.querySelectorAll('#rows tr.row').length") == 6
        keep = os.environ.get("NEGOTIATION_ENV_TEST_ARTIFACTS")
        if keep:  # CI: keep the screenshot as an artefact
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(keep) / shot.name)
    finally:
        for _ in range(6):
            gate.go.release()
        server.stop()
    assert result["summary"].complete
    with pytest.raises(OSError):  # stopped: nothing answers any more
        urllib.request.urlopen(server.url, timeout=2)
