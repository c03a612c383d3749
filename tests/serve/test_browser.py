"""The served pages in headless Chromium (one browser for the module): a person wins a
resource game against scripted:oracle by clicking, reloads mid-game and goes on, and
the trace equals a terminal `play` of the same moves; two people (two browser contexts)
play a matrix game against each other, and a message holding markup shows as text with
no script run.

``SERVE_SCREENSHOTS=DIR`` saves the pages as ``DIR/serve_*.png`` (docs/serve_screenshots.py
sets it to docs/img)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from rich.console import Console  # noqa: E402

from negotiation_env import cli  # noqa: E402
from negotiation_env.serve.app import GameHall, Server, serve_app  # noqa: E402
from negotiation_env.serve.commands import build_game
from negotiation_env.serve.table import TraceAppender  # noqa: E402
from tests.analysis.browser import Browser, chromium_path  # noqa: E402

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="needs headless Chromium")

#: resource scenario mc080_1 (seed 0, its default theme), two rounds of one talk turn,
#: against scripted:oracle in agent_b: buying 10 of the second resource runs project_a
#: twice (12 points) while the oracle earns 20, so each round reaches the solver's joint
#: maximum, 32 (the test checks each round's outcome): the person wins the coordination
RESOURCE = ["--seat", "agent_a=human", "--b", "oracle", "--rounds", "2", "--turns", "1", "--seed", "0"]
MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
TURN = "document.body.dataset.status === 'your-turn'"


def _shot(b: Browser, name: str, tmp: Path) -> None:
    folder = Path(os.environ.get("SERVE_SCREENSHOTS") or tmp)
    folder.mkdir(parents=True, exist_ok=True)
    b.screenshot(folder / f"serve_{name}.png")


@pytest.fixture(scope="module")
def browser():
    with Browser(width=1100, height=900, timeout=60) as b:
        yield b


def _serve(argv, out=None):
    appender = TraceAppender(out) if out is not None else None
    table = build_game(cli.build_parser().parse_args(["serve", *argv]), Console(), on_trace=appender)
    hall = GameHall(table)
    server = Server(serve_app(hall), on_close=hall.close).start()
    table.start()
    links = {agent: f"{server.url}/s/{secret}" for secret, agent in hall.links.items()}
    return server, hall, links, appender


def _buy(b: Browser, field: str, n: int) -> None:
    b.eval(f"document.querySelector('[data-field=\"{field}\"]').value = ''")
    b.type(f'[data-field="{field}"]', str(n))
    b.click("#send-control")


def test_a_person_wins_a_resource_game_by_clicking_and_reloads_midway(browser, tmp_path, monkeypatch, capsys):
    b = browser
    server, hall, links, appender = _serve(RESOURCE, tmp_path / "served")
    try:
        b.open(links["agent_a"], ready=TURN)
        assert b.eval("document.querySelector('.msg.role-system pre').textContent").startswith("## Game Rules")
        assert "round 1 of 2, cheap talk" in b.eval("document.getElementById('phase').textContent")
        _shot(b, "resource_turn", tmp_path)
        _buy(b, "r2", 999)  # over budget: refused with the game's message, asked again
        b.wait_for("!document.getElementById('problem').hidden")
        assert "exceeds the budget" in b.eval("document.getElementById('problem').textContent")
        _buy(b, "r2", 10)
        b.wait_for(f"{TURN} && document.getElementById('phase').textContent.indexOf('round 2 of 2') >= 0")
        b.reload(ready=TURN)  # the state is on the server: the page resumes where it was
        assert "round 2 of 2" in b.eval("document.getElementById('phase').textContent")
        assert "earned reward = 12" in b.eval("document.getElementById('messages').textContent")
        _buy(b, "r2", 10)
        b.wait_for(f"{TURN} && document.getElementById('phase').textContent.indexOf('reflect') >= 0")
        b.type("#answer", "We split the pool well.")
        b.click("#send")
        b.wait_for("document.body.dataset.status === 'over'")
        ending = b.eval("document.getElementById('ending').textContent")
        assert ending == "Game played all 2 rounds. Your total reward: 24."
        _shot(b, "resource_over", tmp_path)
    finally:
        server.stop()
        appender.close()
    game = hall.table.game
    for r in range(2):
        o = game.round_outcome(r)
        assert o["rewards"] == {"agent_a": 12, "agent_b": 20} and o["optimal"] and o["joint_max"] == 32
    (served,) = [json.loads(x) for x in (tmp_path / "served" / "traces.jsonl").read_text().splitlines()]
    # the terminal play of the same moves and seed writes the same trace but for the
    # wall-clock fields started_at and ended_at
    monkeypatch.setattr("sys.stdin", io.StringIO("buy 10 r2\nbuy 10 r2\nWe split the pool well.\n"))
    assert cli.main(["play", *RESOURCE, "--trace", str(tmp_path / "terminal.jsonl")]) == 0
    capsys.readouterr()
    (terminal,) = [json.loads(x) for x in (tmp_path / "terminal.jsonl").read_text().splitlines()]
    for t in (served, terminal):
        assert t.pop("started_at") and t.pop("ended_at")
    assert served == terminal
    assert served["returns"] == {"agent_a": 24.0, "agent_b": 40.0}


def test_two_people_play_a_matrix_game_and_markup_shows_as_text(browser, tmp_path):
    from negotiation_env.games.matrix.rules import resolve, stage_game

    b = browser
    server, hall, links, _ = _serve(["--game", "matrix", "--seat", "agent_0=human", "--seat", "agent_1=human",
                                     "--set", "treatment=communication", "--set", "num_rounds=1"])
    try:
        p0 = b.new_page(links["agent_0"], ready=TURN, own_context=True)
        p1 = b.new_page(links["agent_1"], ready="document.body.dataset.status", own_context=True)
        for page in (p0, p1):  # acknowledge the rules: one button
            b.use(page)
            b.wait_for(TURN)
            assert b.eval("[...document.querySelectorAll('button.choice')].map(e => e.textContent)") == ["OK"]
            b.click('button.choice[data-value="OK"]')
        b.use(p0)
        b.wait_for(f"{TURN} && document.getElementById('phase').textContent.indexOf('cheap talk') >= 0")
        b.type("#answer", MARKUP)
        b.click("#send")
        b.use(p1)
        b.wait_for(f"{TURN} && document.getElementById('phase').textContent.indexOf('cheap talk') >= 0")
        b.type("#answer", "Let us both choose A.")
        b.click("#send")
        b.use(p0)  # agent_0 chooses first (both choices are revealed together)
        b.wait_for(f"{TURN} && document.querySelector('button.choice[data-value=\"A\"]') !== null")
        b.click('button.choice[data-value="A"]')
        b.use(p1)
        b.wait_for(f"{TURN} && document.querySelector('button.choice[data-value=\"B\"]') !== null")
        # agent_0's message reaches agent_1's page as text: no element made, nothing run
        assert MARKUP in b.eval("document.getElementById('messages').textContent")
        assert b.eval("document.querySelectorAll('#messages img, #messages script').length") == 0
        assert b.eval("typeof window.__pwned") == "undefined"
        _shot(b, "matrix_choice", tmp_path)
        b.click('button.choice[data-value="B"]')
        b.wait_for("document.body.dataset.status === 'over'")
        b.use(p0)
        b.wait_for("document.body.dataset.status === 'over'")
        assert b.eval("typeof window.__pwned") == "undefined"
        expected = resolve(stage_game("prisoners_dilemma"), 0, "A", "B")
        ending = b.eval("document.getElementById('ending').textContent")
        assert ending == f"Game played its one round. Your total reward: {expected.payoffs[0]:g}."
        b.use(p1)
        assert b.eval("document.getElementById('ending').textContent").endswith(
            f"Your total reward: {expected.payoffs[1]:g}.")
        assert b.eval("typeof window.__pwned") == "undefined"
    finally:
        server.stop()
    assert hall.table.trace.returns == {"agent_0": expected.payoffs[0], "agent_1": expected.payoffs[1]}


def test_a_participant_consents_and_gets_a_code_and_a_seat(browser, tmp_path):
    from negotiation_env.serve.study import Study

    from .test_app import SESSION

    f = tmp_path / "study.toml"
    f.write_text(SESSION)
    study = Study(f, tmp_path / "study")
    server = Server(serve_app(study, token="tok-9"), on_close=study.close).start()
    b = browser
    try:
        # with a token: the landing link carries it, the cookie carries it on (the form, the seat page)
        b.new_page(f"{server.url}/?token=tok-9", ready="document.getElementById('join') !== null",
                   own_context=True)
        assert "<b>No</b> personal data" in b.eval("document.getElementById('consent').textContent")
        _shot(b, "study_consent", tmp_path)
        b.click("#agree")
        b.click("#join")
        b.wait_for(f"location.pathname.startsWith('/s/') && {TURN}")
        code = b.eval("document.getElementById('code').textContent")
        assert code.startswith("participant code: ") and len(code.split(": ")[1]) == 6
        assert "round 1 of 1, cheap talk" in b.eval("document.getElementById('phase').textContent")
    finally:
        server.stop()
    (p,) = study.participants
    assert code.endswith(p.code)
