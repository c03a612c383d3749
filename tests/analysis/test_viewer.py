"""The static HTML transcript viewer: content, escaping, and a real browser run."""

from __future__ import annotations

import copy
import html
import json
import os
import re
import shutil
from pathlib import Path

import pytest

import negotiation_env
from baselines.scripted.rulemaking import make_rulemaking
from negotiation_env.analysis.viewer import render_html, search_text, short_ids, view_run, write_viewer
from negotiation_env.cli import main
from negotiation_env.runner import run
from negotiation_env.runner.summary import figures
from negotiation_env.traces import TraceWriter, record

from .browser import Browser, chromium_path, dump_dom
from .tracesets import play_resource, play_rulemaking

EVIL = '<script>alert("x")</script><img src=x onerror="alert(1)"> & </details></section>'


class Flaky:
    """Answers garbage on every ``every``-th call, otherwise what ``inner`` says."""

    def __init__(self, inner, every=4):
        self.inner, self.every, self.calls = inner, every, 0

    def act(self, obs):
        self.calls += 1
        if self.calls % self.every == 1:
            return "this is <b>not</b> JSON"
        return self.inner.act(obs)


def flaky_resource_game():
    from baselines.scripted import make

    pol = {"agent_a": Flaky(make("oracle", seed=0, output="text")), "agent_b": make("linear", seed=1, output="text")}
    env = record(negotiation_env.env(game="resource", scenario="mc050_1", num_rounds=2), policies=pol, keep=True)
    env.prepare(game_id="flaky-resource")
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env.last_trace.to_dict()


def flaky_rulemaking_run():
    env = record(negotiation_env.env(game="rulemaking", environment="E2", condition="none", max_turns=10), keep=True)
    agents = env.unwrapped.possible_agents
    pol = {a: (Flaky(make_rulemaking("conceder", seed=i, output="text"), every=3) if i == 1 else
               make_rulemaking("conceder", seed=i, output="text")) for i, a in enumerate(agents)}
    env.set_policies(pol)
    env.prepare(game_id="flaky-rulemaking")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env.last_trace.to_dict()


@pytest.fixture(scope="module")
def games():
    ok = play_resource("oracle", "fair_splitter", scenario="mc080_1", rounds=2, game_id="ok-resource")
    evil = copy.deepcopy(play_resource("greedy", "greedy", scenario="mc050_1", rounds=1, game_id='evil"<id>'))
    talk = next(s for s in evil["steps"] if s["parsed"] and s["parsed"].get("speech"))
    talk["parsed"]["speech"] = "Hello " + EVIL
    talk["thinking"] = "secret plan " + EVIL
    evil["policies"]["agent_a"]["label"] = "label" + EVIL
    evil["status"] = "error"
    evil["error"] = "RuntimeError: " + EVIL
    return [ok, flaky_resource_game(), play_rulemaking("conceder", seed=1, environment="E1"), flaky_rulemaking_run(),
            evil]


@pytest.fixture(scope="module")
def page(games):
    return render_html(games)


def section(page, i):
    m = re.search(rf'<section class="game" id="sec-g{i}".*?</section>', page, re.S)
    assert m, f"no section g{i}"
    return m.group(0)


def test_agent_text_is_escaped_everywhere(page):
    assert page.count("<script>") == 1  # the viewer's own script only
    assert "<img" not in page and 'onerror="' not in page and "</details></section>" not in page
    assert html.escape("Hello " + EVIL) in page
    assert html.escape("secret plan " + EVIL) in page
    assert html.escape("RuntimeError: " + EVIL) in page
    assert 'data-game-id="evil&quot;&lt;id&gt;"' in page
    assert page.count("<section") == page.count("</section>") == 5


def test_resource_transcript_has_speech_thinking_decisions_supply_and_optimum(page, games):
    s = section(page, 0)
    assert s.count('class="round"') == 2
    speeches = [st["parsed"]["speech"] for st in games[0]["steps"]
                if st["parsed"] and st["parsed"].get("speech") and st["phase"] != "reflection"]
    for sp in speeches[:4]:
        assert html.escape(sp) in s
    assert s.count('<details class="thinking"><summary>private thinking</summary>') >= len(speeches)
    assert "decision: buys" in s
    assert "<h4>Supply check</h4>" in s and "<th>supply</th>" in s
    # the scenario's supply: mc080_1 has 10, 10 and 6 units
    assert re.search(r"\(r3\)</small></th><td>6</td>", s)
    o = games[0]["rounds"][0]["outcome"]
    assert f"{o['joint_reward']:g} / {o['joint_max']:g}" in s
    assert "optimal runs (one of 2 joint optima)" in s  # mc080_1 has two joint optima


def test_retries_fallbacks_and_errors_are_highlighted(page, games):
    flaky = section(page, 1)
    refused = [st for st in games[1]["steps"] if not st["valid"]]
    assert refused and flaky.count('class="step agent_a invalid"') == len(refused)
    assert '<div class="error"><b>validation_error</b>' in flaky
    assert "attempt 2" in flaky and html.escape("this is <b>not</b> JSON") in flaky
    evil = section(page, 4)
    assert '<pre class="error">' in evil and 'badge bad">error<' in evil


def test_rulemaking_turn_list_with_provenance_and_outcome(page, games):
    s = section(page, 2)
    o = games[2]["rounds"][0]["outcome"]
    assert s.count('<tr class="turn ') == o["turns"]
    assert f"<b>{o['label']}</b>" in s and "worst-case recode" in s
    flaky = section(page, 3)
    assert 'class="turn retried"' in flaky and 'class="turn invalid"' in flaky
    assert "prov-retried" in flaky


def test_filters_list_every_value(page):
    for key, value in (("game", "rulemaking"), ("pairing", "fair_splitter × oracle"), ("outcome", "retry"),
                       ("outcome", "error"), ("outcome", "compromise")):
        assert re.search(rf'<select data-key="{key}".*?<option value="{re.escape(html.escape(value))}">', page, re.S), \
            (key, value)
    assert 'data-condition="M/C 0.8 | talk | stable | fixed | rounds=2"' in page


def test_view_run_and_cli(tmp_path, games):
    with TraceWriter(tmp_path / "traces.jsonl") as w:
        for g in games[:3]:
            w.write(g)
    path, n = view_run(tmp_path)
    assert path == tmp_path / "viewer.html" and n == 3
    assert main(["view", str(tmp_path), "--out", str(tmp_path / "v.html")]) == 0
    assert (tmp_path / "v.html").read_text() == path.read_text()
    assert main(["view", str(tmp_path / "nothing")]) == 2


# A run as the runner plays it: a resource pairing under swap_seats (the second game seats
# the policies the other way round) and a matrix dyad.
SWAPPED_RUN = {"name": "swapped", "seed": 0, "games": [
    {"game": "resource", "policies": [{"spec": "scripted:linear", "label": "tiny"}, "scripted:oracle"],
     "pairings": "cross", "games_per_cell": 2, "swap_seats": True, "config": {"num_rounds": 1},
     "scenario_sets": {"mc0.8": ["mc080_1"]}},
    {"game": "matrix", "policies": ["scripted:tit_for_tat", "scripted:always_b"], "pairings": "cross",
     "games_per_cell": 1, "config": {"num_rounds": 3}}]}


@pytest.fixture(scope="module")
def swapped_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("swapped") / "run"
    summary = run(SWAPPED_RUN, out, preflight=False)
    path, n = view_run(out)
    assert n == 3
    return summary, path.read_text(), out


def list_row(page, i):
    m = re.search(rf'<tr class="row" id="row-g{i}".*?</tr>', page, re.S)
    assert m, f"no row g{i}"
    return m.group(0)


def test_seats_column_follows_each_games_own_seating(swapped_run):
    _, page, _ = swapped_run
    # game 0 seats tiny first; game 1, its swapped twin, seats scripted:oracle first
    for i, seats in ((0, "tiny × scripted:oracle"), (1, "scripted:oracle × tiny"),
                     (2, "scripted:tit_for_tat × scripted:always_b")):
        row = list_row(page, i)
        assert f'data-seats="{seats}"' in row
        assert f'<td class="seats" title="{seats}">{seats}</td>' in row
    # the pairing filter still groups both seatings of the pairing
    assert list_row(page, 0).count('data-pairing="scripted:oracle × tiny"') == 1
    assert list_row(page, 1).count('data-pairing="scripted:oracle × tiny"') == 1


def test_game_ids_are_shortened_with_the_full_id_as_title(swapped_run):
    _, page, _ = swapped_run
    links = re.findall(r'<a class="open" href="#g(\d+)" title="([^"]*)">([^<]*)</a>', page)
    assert links == [
        ("0", "resource|default|mc0.8|tiny+scripted:oracle|0", "tiny+scripted:oracle|0"),
        ("1", "resource|default|mc0.8|tiny+scripted:oracle|1", "tiny+scripted:oracle|1"),
        ("2", "matrix|default|default|scripted:tit_for_tat+scripted:always_b|0", "tit_for_tat+always_b|0"),
    ]
    assert "overflow-wrap:anywhere" not in page
    assert "table.games td,table.games th{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}" in page


def test_short_ids_keep_what_differs_and_the_repetition():
    def ts(*ids, game="resource"):
        return [{"game_id": i, "game": game} for i in ids]

    assert short_ids(ts("resource|stable|mc0.8|a+b|0", "resource|shifting|mc0.8|a+b|0",
                        "resource|stable|mc0.8|a+b|1")) == ["stable|0", "shifting|0", "stable|1"]
    assert short_ids(ts("r|c|s|a+b|0", "r|c|s|a+c|0")) == ["a+b|0", "a+c|0"]
    assert short_ids(ts("plain-id", 'evil"<id>', "two|parts")) == ["plain-id", 'evil"<id>', "two|parts"]
    # factor values without names, only those that differ; the shared policy kind left out
    assert short_ids(ts("resource|stability=stable,rotation=fixed|mc0.8|scripted:oracle+scripted:linear|3",
                        "resource|stability=shifting,rotation=fixed|mc0.8|scripted:oracle+scripted:greedy|0")) == [
        "stable|oracle+linear|3", "shifting|oracle+greedy|0"]
    assert short_ids(ts("r|c|s|hf:x+scripted:y|0")) == ["hf:x+scripted:y|0"]
    assert short_ids(ts("rulemaking|default|default|" + "+".join(["scripted:conceder"] * 5) + "|0",
                        game="rulemaking")) == ["conceder×5|0"]
    # past SHORT_ID_MAX (28) characters: the start and the end around an ellipsis
    assert short_ids(ts("x|" + "a" * 20 + "+" + "b" * 20 + "|7")) == ["aaaaaaaaaaaaaa…bbbbbbbbbbb|7"]
    assert short_ids([{"game": "matrix"}]) == [""]


def test_summary_panel_holds_the_run_summary_per_seating(swapped_run):
    summary, page, _ = swapped_run
    m = re.search(r'<div id="summary" data-summary="([^"]*)">', page)
    groups = json.loads(html.unescape(m.group(1)))
    assert [(g["game"], g["seats"]) for g in groups] == [
        ("resource", ["tiny", "scripted:oracle"]), ("resource", ["scripted:oracle", "tiny"]),
        ("matrix", ["scripted:tit_for_tat", "scripted:always_b"])]
    # the same figures as the runner's summary of the same games (one row per seating)
    for g in groups:
        c = next(c for (_cell, seats), c in summary.seatings.items() if seats == tuple(g["seats"]))
        assert (g["games"], g["error"], g["mean_return"]) == (c.games, c.errors, c.mean_returns())
        assert g["figures"] == figures(g["game"], c.measures)
    assert [(g["complete"], g["error"], g["truncated"], g["degraded"]) for g in groups] == [(1, 0, 0, 0)] * 3
    assert groups[0]["mean_return"] == {"agent_a": 12.0, "agent_b": 20.0}  # tiny earns 12 in either seat
    assert groups[1]["mean_return"] == {"agent_a": 20.0, "agent_b": 12.0}
    assert [g["headline"] for g in groups] == [
        {"measure": "efficiency", "value": 1.0}, {"measure": "efficiency", "value": 1.0},
        # tit-for-tat vs always-B over 3 rounds: AB (0, 5), BB (1, 1), BB (1, 1): 9 points / 6 agent-rounds
        {"measure": "payoff per round", "value": 1.5}]
    panel = page[m.start():page.index("</main>")]
    assert panel.count('<svg class="chart"') == 2  # one chart per game
    assert "<td>tiny × scripted:oracle</td>" not in panel and '<td class="seats" title="tiny × scripted:oracle">' in panel
    assert "<td>100.0%</td>" in panel and "<td>1.50</td>" in panel


def test_rulemaking_summary_counts_outcomes(page, games):
    m = re.search(r'<div id="summary" data-summary="([^"]*)">', page)
    groups = json.loads(html.unescape(m.group(1)))
    rm = [g for g in groups if g["game"] == "rulemaking"]
    labels = [t["rounds"][0]["outcome"]["label"] for t in games if t["game"] == "rulemaking"]
    total = {k: sum(g["headline"]["value"][k] for g in rm) for k in ("compromise", "consensus", "authority",
                                                                      "deadlock")}
    assert total == {k: labels.count(k) for k in total} and sum(total.values()) == 2


def test_search_box_and_transcript_text_per_row(page, games):
    assert '<input type="search" id="search"' in page and '<span id="search-count"></span>' in page
    rm = search_text(games[2])
    rationale = next(st["parsed"]["rationale"] for st in games[2]["steps"] if st["parsed"])
    move = next(st["parsed"]["move"] for st in games[2]["steps"] if st["parsed"])
    assert rationale in rm and move in rm
    assert "You are" not in rm  # the prompts are not the transcript
    res = search_text(games[0])
    speech = next(st["parsed"]["speech"] for st in games[0]["steps"] if st["parsed"] and st["parsed"].get("speech"))
    assert speech in res and games[0]["steps"][0]["thinking"] in res
    # a refused answer is searchable as the agent wrote it, and its error as it was told
    assert "this is <b>not</b> JSON" in search_text(games[1])
    # the evil game's text is in the row escaped, never as markup
    assert f'data-text="{html.escape(search_text(games[4]))}"' in list_row(page, 4)
    assert "Hello " + EVIL in search_text(games[4])


needs_chromium = pytest.mark.skipif(chromium_path() is None,
                                    reason="chromium not installed (apt-get install -y chromium)")


@pytest.fixture(scope="module")
def viewer_file(games, tmp_path_factory):
    return write_viewer(games, tmp_path_factory.mktemp("viewer") / "viewer.html")


@needs_chromium
def test_browser_fragment_opens_a_game(viewer_file):
    dom = dump_dom(viewer_file.as_uri() + "#g2")
    assert re.search(r'<body data-shown="g2">', dom)
    shown = re.findall(r'<section class="game" id="sec-(g\d)"[^>]*?(hidden="")?>', dom)
    assert [(g, h) for g, h in shown if not h] == [("g2", "")]
    assert dom.count('hidden=""') >= 4 and 'id="empty" hidden=""' in dom
    dom = dump_dom(viewer_file.as_uri() + "#game=" + "flaky-resource")
    assert '<body data-shown="g1">' in dom


@needs_chromium
def test_browser_click_into_a_game_and_filter(viewer_file, tmp_path):
    with Browser() as b:
        b.open(viewer_file.as_uri())
        assert b.eval("document.querySelectorAll('section.game:not([hidden])').length") == 0
        assert b.eval("document.getElementById('count').textContent") == "5 of 5 games"
        b.click('#row-g0 a.open')
        b.wait_for("document.body.dataset.shown === 'g0'")
        assert b.eval("location.hash") == "#g0"
        assert b.eval("document.getElementById('sec-g0').hidden") is False
        assert b.eval("document.querySelectorAll('#sec-g0 .round').length") == 2
        text = b.eval("document.getElementById('sec-g0').innerText")
        assert "Supply check" in text and "Achieved vs. joint optimum" in text and "agent_b" in text
        # the private thinking is folded: present, not shown until opened
        assert b.eval("document.querySelector('#sec-g0 details.thinking').open") is False
        shot = b.screenshot(tmp_path / "viewer_game.png")
        # filter the list to rulemaking runs
        b.eval("var s=document.getElementById('f-game'); s.value='rulemaking'; "
               "s.dispatchEvent(new Event('change')); 1")
        assert b.eval("document.getElementById('count').textContent") == "2 of 5 games"
        assert b.eval("document.getElementById('row-g0').hidden") is True
        b.click('#row-g3 a.open')
        b.wait_for("document.body.dataset.shown === 'g3'")
        assert "retried" in b.eval("document.getElementById('sec-g3').innerText")
        b.click('#sec-g3 a.back')
        b.wait_for("document.body.dataset.shown === ''")
        # the evil game's text stayed text: no element was injected into the page
        assert b.eval("document.querySelectorAll('img, script').length") == 1
        assert b.eval("document.getElementById('sec-g4').innerText").count('<script>alert("x")</script>') >= 2
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    keep = os.environ.get("NEGOTIATION_ENV_TEST_ARTIFACTS")
    if keep:  # CI: keep the screenshot as an artefact
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)


@needs_chromium
def test_browser_list_search_and_summary(swapped_run, viewer_file):
    _, _, out = swapped_run
    with Browser() as b:
        b.open((out / "viewer.html").as_uri())
        # the summary is shown at load, before any game is chosen
        assert b.eval("document.body.dataset.shown") == ""
        assert b.eval("var r=document.getElementById('summary').getBoundingClientRect(); r.width>300 && r.height>200")
        assert b.eval("document.querySelectorAll('#summary svg.chart').length") == 2
        # short ids with the full id on hover, each on one line
        assert b.eval("document.querySelector('#row-g1 a.open').textContent") == "tiny+scripted:oracle|1"
        assert b.eval("document.querySelector('#row-g1 a.open').title") == "resource|default|mc0.8|tiny+scripted:oracle|1"
        assert b.eval("getComputedStyle(document.querySelector('#row-g2 td.id')).whiteSpace") == "nowrap"
        heights = b.eval("Array.from(document.querySelectorAll('tr.row')).map(function(r){return r.offsetHeight})")
        assert len(heights) == 3 and max(heights) < 2 * min(heights)  # no row wraps onto more lines
        # the swapped game shows its own first seat first
        assert b.eval("document.querySelector('#row-g0 td.seats').textContent") == "tiny × scripted:oracle"
        assert b.eval("document.querySelector('#row-g1 td.seats').textContent") == "scripted:oracle × tiny"
        b.screenshot(out / "viewer_list_summary.png")
    with Browser() as b:
        b.open(viewer_file.as_uri())
        b.type("#search", "SECRET plan")  # case-insensitive: the evil game's private thinking
        b.wait_for("document.getElementById('count').textContent === '1 of 5 games'")
        assert b.eval("document.getElementById('search-count').textContent") == "1 game contains \u201cSECRET plan\u201d"
        assert b.eval("Array.from(document.querySelectorAll('tr.row')).filter(function(r){return !r.hidden})"
                      ".map(function(r){return r.id})") == ["row-g4"]
        b.eval("var s=document.getElementById('search'); s.value=''; s.dispatchEvent(new Event('input')); 1")
        assert b.eval("document.getElementById('count').textContent") == "5 of 5 games"
        # a query that is markup stays text in the count, and runs nothing
        b.type("#search", '<script>alert("x")</script>')
        b.wait_for("document.getElementById('count').textContent === '1 of 5 games'")
        assert b.eval("document.getElementById('search-count').textContent").endswith('<script>alert("x")</script>\u201d')
        assert b.eval("document.querySelectorAll('img, script').length") == 1
        # search and filters together: rulemaking runs whose transcript says "interest"
        b.eval("var s=document.getElementById('search'); s.value='interest'; s.dispatchEvent(new Event('input')); 1")
        b.eval("var f=document.getElementById('f-game'); f.value='rulemaking'; f.dispatchEvent(new Event('change')); 1")
        assert b.eval("document.getElementById('count').textContent") == "2 of 5 games"
