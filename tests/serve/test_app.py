"""The served app without a browser (starlette's TestClient): the token, the host rule,
the size limit, answers the game refuses, and study sessions (consent, codes, traces
that `report` reads, a restart that keeps a finished game)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from rich.console import Console  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from negotiation_env import cli  # noqa: E402
from negotiation_env.serve.app import MAX_BODY, TOKEN_COOKIE, GameHall, serve_app  # noqa: E402
from negotiation_env.serve.commands import build_game  # noqa: E402
from negotiation_env.serve.study import STATE_FILE, Study, StudyError  # noqa: E402

RESOURCE = ["serve", "--seat", "agent_a=human", "--b", "oracle", "--rounds", "1", "--turns", "1"]


def _hall(argv=RESOURCE):
    table = build_game(cli.build_parser().parse_args(argv), Console())
    hall = GameHall(table)
    table.start()
    return hall


def _state(client, link, want="your-turn", timeout=20.0):
    deadline = time.monotonic() + timeout
    while True:
        s = client.get(f"{link}/state").json()
        if s["status"] == want or time.monotonic() > deadline:
            return s
        time.sleep(0.02)


@pytest.fixture()
def hall():
    h = _hall()
    yield h
    h.close()


def test_a_seat_sees_only_its_own_observation_and_the_control(hall):
    c = TestClient(serve_app(hall))
    link = f"/s/{next(iter(hall.links))}"
    s = _state(c, link)
    assert s["agent"] == "agent_a" and s["status"] == "your-turn"
    assert s["messages"][0]["role"] == "system"
    obs_a = hall.table.seats["agent_a"].observation
    assert [m["content"] for m in s["messages"]][:len(obs_a["conversation"])] == \
        [m["content"] for m in obs_a["conversation"]]
    game = hall.table.game
    # agent_b's private projects (its system prompt's project lines) never reach agent_a's page
    b_system = hall.table.env.unwrapped.observe("agent_b")["conversation"][0]["content"]
    a_system = obs_a["conversation"][0]["content"]
    b_only = [line for line in b_system.splitlines() if line.startswith("- project_") and line not in a_system]
    assert b_only
    text = json.dumps(s, ensure_ascii=False)
    for line in b_only:
        assert line not in text
    assert [f["name"] for f in s["control"]["fields"]] == list(game.names.display)
    assert c.get("/").status_code == 404
    assert c.post("/join", data={"consent": "yes"}).status_code == 404  # a single game has no landing page
    assert c.get("/s/not-a-secret/state").status_code == 404


def test_answers_the_game_refuses_get_its_message(hall):
    c = TestClient(serve_app(hall))
    link = f"/s/{next(iter(hall.links))}"
    _state(c, link)
    budget = hall.table.game.scenario.budget["agent_a"] if isinstance(hall.table.game.scenario.budget, dict) \
        else hall.table.game.scenario.budget
    r = c.post(f"{link}/answer", json={"control": {"r1": "999"}})
    assert r.status_code == 422 and f"exceeds the budget of ${budget:g}" in r.json()["error"]
    assert _state(c, link)["problem"] == r.json()["error"]
    r = c.post(f"{link}/answer", json={"control": {"r9": "1"}})
    assert r.status_code == 422 and r.json()["error"].startswith("unknown control field(s) r9")
    r = c.post(f"{link}/answer", json={"control": {"r1": "-2"}})
    assert r.status_code == 422 and "expected a whole number >= 0" in r.json()["error"]
    assert c.post(f"{link}/answer", json={"nothing": 1}).status_code == 400
    assert c.post(f"{link}/answer", content=b"not json").status_code == 400
    r = c.post(f"{link}/answer", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413 and f"{MAX_BODY:,} bytes" in r.json()["error"]
    assert c.post(f"{link}/answer", json={"text": "y" * MAX_BODY}).status_code == 413
    assert c.post(f"{link}/answer", json={"control": {"r2": "10"}}).json() == {"ok": True}
    assert c.post(f"{link}/answer", json={"text": "again"}).status_code in (409, 200)  # off turn, or the reflection


def test_the_token_guards_every_route(hall):
    c = TestClient(serve_app(hall, token="tok-123"))
    link = f"/s/{next(iter(hall.links))}"
    assert c.get(link).status_code == 401
    assert c.get(f"{link}?token=wrong").status_code == 401
    r = c.get(f"{link}?token=tok-123")
    assert r.status_code == 200 and r.headers["content-security-policy"].startswith("default-src 'none'")
    assert "unsafe-inline" not in r.headers["content-security-policy"]
    assert TOKEN_COOKIE in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    assert c.get(f"{link}/state").status_code == 200  # the cookie carries it now
    c.cookies.clear()
    assert c.get(f"{link}/state").status_code == 401


def test_host_off_loopback_needs_a_token(capsys):
    rc = cli.main([*RESOURCE, "--host", "0.0.0.0"])
    assert rc == 2
    assert "--host 0.0.0.0 listens beyond this machine: give --token" in capsys.readouterr().err
    assert cli.main(["serve", "--b", "oracle", "--rounds", "1"]) == 2  # no human seat
    assert "no seat is human" in capsys.readouterr().err


def test_serve_watch_refuses_a_missing_run_and_a_short_token(capsys, tmp_path):
    assert cli.main(["serve", "--watch", str(tmp_path / "nowhere")]) == 2
    assert "no run folder there" in capsys.readouterr().err
    assert cli.main(["serve", "--watch", str(tmp_path), "--host", "0.0.0.0", "--token", "short"]) == 2
    assert "a watch token must be a string of at least 16 characters" in capsys.readouterr().err


# --------------------------------------------------------------------------- studies

SESSION = """name = "pilot"
seed = 0

[session]
title = "Pilot <study>"
consent = "You will play one short game. <b>No</b> personal data is recorded."

[[games]]
game = "resource"
policies = ["human", "scripted:oracle"]
pairings = [["human", "scripted:oracle"]]
games_per_cell = 1
config = { num_rounds = 1, cheap_talk_turns = 1 }

[games.scenario_sets]
"mc0.8" = ["mc080_1"]
"""


def _play_through(c, link):
    assert c.post(f"{link}/answer", json={"control": {"r2": "10"}}).json() == {"ok": True}
    s = _state(c, link)
    assert "reflect" in s["phase"]
    assert c.post(f"{link}/answer", json={"text": "We split the pool well."}).json() == {"ok": True}
    return _state(c, link, "over")


def test_a_study_records_consent_codes_and_ordinary_traces(tmp_path, capsys):
    f = tmp_path / "study.toml"
    f.write_text(SESSION)
    out = tmp_path / "out"
    study = Study(f, out)
    c = TestClient(serve_app(study))
    page = c.get("/").text
    assert "&lt;b&gt;No&lt;/b&gt;" in page and "Pilot &lt;study&gt;" in page and "<b>" not in page
    assert c.post("/join", data={}, follow_redirects=False).status_code == 400  # no consent, no seat
    r = c.post("/join", data={"consent": "yes"}, follow_redirects=False)
    assert r.status_code == 303
    link = r.headers["location"]
    secret = link.rsplit("/", 1)[1]
    s = _state(c, link)
    code = s["code"]
    assert len(code) == 6 and int(code, 16) >= 0
    # the study is full: one game, one human seat
    assert "no open places left" in c.get("/").text
    assert c.post("/join", data={"consent": "yes"}, follow_redirects=False).status_code == 409
    s = _play_through(c, link)
    assert s["message"] == f"Thank you. Your participant code is {code}."
    study.close()
    state = json.loads((out / STATE_FILE).read_text())
    (p,) = state["participants"]
    assert p["code"] == code and p["agent"] == "agent_a" and p["consent_sha256"]
    text = (out / "traces.jsonl").read_text() + (out / STATE_FILE).read_text()
    assert secret not in text  # the link's secret is never written
    (trace,) = [json.loads(line) for line in (out / "traces.jsonl").read_text().splitlines()]
    assert trace["game_id"] == "resource|default|mc0.8|human+scripted:oracle|0"
    assert trace["meta"]["participants"] == {"agent_a": code}
    assert trace["policies"]["agent_a"]["spec"] == "human" and trace["status"] == "complete"
    assert trace["run"]["game_key"] == trace["game_id"]
    # report, view, export and leaderboard read the folder unchanged
    assert cli.main(["report", str(out), "--out", str(tmp_path / "report"), "--no-plots"]) == 0
    assert cli.main(["view", str(out), "--out", str(tmp_path / "viewer.html")]) == 0
    assert cli.main(["export", str(out), "--kind", "sft", "--out", str(tmp_path / "sft.jsonl")]) == 0
    capsys.readouterr()
    assert cli.main(["leaderboard", str(out), "--resamples", "0", "--out", str(tmp_path / "lb"), "--format", "json"]) == 0
    (board,) = json.loads(capsys.readouterr().out)["games"]
    assert sorted(r["policy"] for r in board["rows"]) == ["human", "scripted:oracle"] and board["games"] == 1
    # a restart keeps the finished game: the link shows it done, nothing is played again
    again = Study(f, out)
    c2 = TestClient(serve_app(again))
    s = c2.get(f"{link}/state").json()
    assert s["status"] == "done" and s["code"] == code
    assert again.tables == {} and again.open_seats() == 0
    again.close()
    assert len((out / "traces.jsonl").read_text().splitlines()) == 1


def test_an_unfinished_study_game_restarts_with_its_participant(tmp_path):
    f = tmp_path / "study.toml"
    f.write_text(SESSION)
    out = tmp_path / "out"
    study = Study(f, out)
    c = TestClient(serve_app(study))
    link = c.post("/join", data={"consent": "yes"}, follow_redirects=False).headers["location"]
    _state(c, link)
    study.close()
    again = Study(f, out)
    c2 = TestClient(serve_app(again))
    s = _state(c2, link)
    assert s["status"] == "your-turn" and "round 1 of 1, cheap talk, turn 1" in s["phase"]
    _play_through(c2, link)
    again.close()
    assert len((out / "traces.jsonl").read_text().splitlines()) == 1


@pytest.mark.parametrize("change, message", [
    (("[session]\ntitle", "[other]\ntitle"), "needs a [session] table with consent"),
    (('"human", "scripted:oracle"]]', '"scripted:oracle", "scripted:oracle"]]'), "seat no human"),
    (("title = ", "colour = "), "session.colour: unknown field"),
])
def test_bad_session_files_are_refused(tmp_path, change, message):
    f = tmp_path / "study.toml"
    f.write_text(SESSION.replace(*change))
    with pytest.raises(StudyError, match=message.replace("[", r"\[")):
        Study(f, tmp_path / "out")


def test_a_study_folder_of_another_study_is_refused(tmp_path):
    f = tmp_path / "study.toml"
    f.write_text(SESSION)
    out = tmp_path / "out"
    Study(f, out).close()
    (out / STATE_FILE).write_text(json.dumps({"run_id": "other", "participants": []}))
    with pytest.raises(StudyError, match="holds the study 'other'"):
        Study(f, out)


def test_session_flag_needs_out(tmp_path, capsys):
    f = tmp_path / "study.toml"
    f.write_text(SESSION)
    assert cli.main(["serve", "--session", str(f)]) == 2
    assert "--session needs --out DIR" in capsys.readouterr().err


def test_play_trace_is_the_schema_of_a_run(tmp_path, monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("buy 10 r2\nfine\n"))
    f = tmp_path / "t.jsonl"
    assert cli.main(["play", "--seat", "agent_a=human", "--b", "oracle", "--rounds", "1", "--turns", "1",
                     "--trace", str(f)]) == 0
    capsys.readouterr()
    (trace,) = [json.loads(line) for line in f.read_text().splitlines()]
    assert trace["policies"]["agent_a"]["spec"] == "human"
    assert trace["policies"]["agent_b"]["spec"] == "scripted:oracle"
    assert trace["returns"]["agent_a"] == 12.0 and trace["status"] == "complete"
    assert cli.main(["report", str(f), "--out", str(tmp_path / "r"), "--no-plots"]) == 0


@pytest.mark.parametrize("game, values", [
    ("rulemaking", {"move": "Counter", "issue": None, "rationale": "a shorter deadline"}),
    ("dond", {"action": "propose", "books": "1", "hats": "0", "balls": "0", "message": "one book for me"}),
    ("matrix", {"ok": "OK"}),
    ("resource", {"r1": "0"}),
])
def test_each_games_control_gives_an_answer_the_game_accepts(game, values):
    import negotiation_env

    first = negotiation_env.env(game=game).possible_agents[0]
    h = _hall(["serve", "--game", game, "--seat", f"{first}=human"])
    try:
        c = TestClient(serve_app(h))
        link = f"/s/{next(iter(h.links))}"
        s = _state(c, link)
        assert s["status"] == "your-turn" and s["control"] is not None
        if values.get("issue", "") is None:
            values = {**values, "issue": s["control"]["fields"][1]["options"][0]}
        names = [f["name"] for f in s["control"]["fields"]]
        assert set(values) <= set(names)
        r = c.post(f"{link}/answer", json={"control": values})
        assert r.json() == {"ok": True}, r.json()
    finally:
        h.close()


def test_the_server_writes_no_access_log_and_binds_loopback(hall):
    from negotiation_env.serve.app import Server

    server = Server(serve_app(hall))
    try:
        assert server.server.config.access_log is False  # no link (and no secret in it) reaches a log
        assert server.host == "127.0.0.1" and server.port > 0
    finally:
        server.sock.close()
