"""The leaderboard: the command on a tiny scripted run (exact counts, notes, files), bad
paths, the OpenSkill view, and the viewer's leaderboard tab in headless Chromium."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import sys

import numpy as np
import pytest

from negotiation_env.analysis.leaderboard import leaderboard
from negotiation_env.analysis.ratings import PairGame, openskill_ratings
from negotiation_env.analysis.viewer import render_html, write_viewer
from negotiation_env.cli import main
from negotiation_env.runner import run
from negotiation_env.traces import read_traces

from .browser import Browser, chromium_path

O, L, G = "scripted:oracle", "scripted:linear", "scripted:greedy"

# oracle meets linear and greedy (both seatings of each draw), linear plays itself, greedy
# never meets linear; one five-seat rulemaking game. On mc080_1 with one round, oracle
# earns 20 to linear's 12, and oracle and greedy overdraw (0 each: a draw).
RUN = {"name": "board", "seed": 0, "games": [
    {"game": "resource", "policies": [O, L, G], "pairings": [[O, L], [O, G], [L, L]], "games_per_cell": 2,
     "swap_seats": True, "config": {"num_rounds": 1}, "scenario_sets": {"mc0.8": ["mc080_1"]}},
    {"game": "rulemaking", "policies": ["scripted:conceder"], "pairings": "self", "games_per_cell": 1,
     "config": {"environment": "E1", "max_turns": 5}}]}
DEGRADED = f"resource|default|mc0.8|{O}+{L}|1"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """The run, with one oracle-linear game marked degraded (a model call ran out of retries)."""
    out = tmp_path_factory.mktemp("board") / "run"
    run(RUN, out, preflight=False)
    path = out / "traces.jsonl"
    lines = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec["game_id"] == DEGRADED:
            rec.setdefault("meta", {})["model_calls"] = {"faults": 3, "failed": {"agent_b": 1}, "degraded": True}
        lines.append(json.dumps(rec))
    path.write_text("\n".join(lines) + "\n")
    return out


def _json(capsys, *argv):
    rc = main(["leaderboard", *map(str, argv), "--format", "json"])
    return rc, json.loads(capsys.readouterr().out)


def test_counts_notes_and_the_closed_form(run_dir, tmp_path, capsys):
    rc, doc = _json(capsys, run_dir, "--out", tmp_path / "lb", "--resamples", "20", "--anchor", G)
    assert rc == 0
    assert [f.rsplit("/", 1)[1] for f in doc["files"]] == ["leaderboard.csv", "leaderboard.md"]
    resource, rulemaking = doc["games"]
    assert (resource["game"], resource["games"], resource["rated"]) == ("resource", 6, True)
    rows = {r["policy"]: r for r in resource["rows"]}
    got = {p: (r["games"], r["wins"], r["draws"], r["losses"], r["pairings"], r["opponents"], r["left_out"])
           for p, r in rows.items()}
    # the degraded game is left out: oracle and linear keep one game of their pairing
    assert got == {O: (3, 1, 2, 0, 2, 2, 1), G: (2, 0, 2, 0, 1, 2, 0), L: (1, 0, 0, 1, 1, 2, 1)}
    # Bradley-Terry with 0.5 virtual draws a pairing: greedy = oracle (2.5 draws), and
    # linear wins 0.25 of 1.5 games against oracle: p_o / p_l = 5, 400 log10(5) Elo apart
    assert rows[G]["elo"] == 1500.0
    assert rows[O]["elo"] == pytest.approx(1500.0, abs=1e-6)
    assert rows[L]["elo"] == pytest.approx(1500.0 - 400 * math.log10(5), abs=1e-6)
    assert [r["rank"] for r in resource["rows"]] == [1, 2, 3] and resource["rows"][2]["policy"] == L
    assert resource["notes"] == [
        f"pairings never played: {G} × {L}",
        "2 self-play games counted in neither the fit nor the table (a policy against itself says nothing about a "
        "rating)",
        f"{L}: 1 game left out (1 degraded)", f"{O}: 1 game left out (1 degraded)"]
    assert (rulemaking["rated"], rulemaking["rows"]) == (False, [])
    assert rulemaking["notes"] == ["rulemaking: not rated: a rating compares the two seats of a game, and none of "
                                   "its 1 game has two seats (1 with 5 seats)"]


def test_csv_equals_markdown(run_dir, tmp_path, capsys):
    assert main(["leaderboard", str(run_dir), "--out", str(tmp_path), "--resamples", "30", "--openskill"]) == 0
    out = capsys.readouterr().out
    md = (tmp_path / "leaderboard.md").read_text()
    table = [ln for ln in md.split("### resource", 1)[1].split("### rulemaking")[0].splitlines() if ln.startswith("|")]
    header, body = [c.strip() for c in table[0].strip("|").split("|")], table[2:]
    assert header == ["rank", "policy", "Elo", "90% interval", "games", "wins", "draws", "losses", "pairings",
                      "left out", "mu", "sigma", "ordinal"]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "leaderboard.csv").read_text())))
    assert [r["game"] for r in rows] == ["resource"] * 3 and len(body) == 3
    for line, r in zip(body, rows):
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|"))))
        assert cells["90% interval"] == f"[{float(r['90% interval low']):.2f}, {float(r['90% interval high']):.2f}]"
        for col in ("Elo", "mu", "sigma", "ordinal"):
            assert cells[col] == f"{float(r[col]):.2f}", col
        for col in ("rank", "policy", "games", "wins", "draws", "losses", "pairings", "left out"):
            assert cells[col] == r[col], col
    assert "### rulemaking: not rated" in md and "none of its 1 game has two seats" in md
    assert "pairings never played: scripted:greedy × scripted:linear" in md and table[0] in out


def test_a_run_given_twice_or_copied_counts_once(run_dir, tmp_path, capsys):
    rc = main(["leaderboard", str(run_dir), str(run_dir) + "/", "--out", str(tmp_path / "x")])
    assert rc == 2 and "is given twice" in capsys.readouterr().err
    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    rc, doc = _json(capsys, run_dir, copy, "--out", tmp_path / "lb", "--resamples", "0")
    assert rc == 0 and doc["games"][0]["games"] == 6
    assert doc["notes"] == ["7 games already read from an earlier RUN (the same run given twice, or a copy of it) "
                            "were left out: the first record of each game counts"]
    assert all(r["low"] is None for r in doc["games"][0]["rows"])  # --resamples 0: no intervals


def test_bad_paths_and_flags(run_dir, tmp_path, capsys):
    for argv, msg in (
            ([tmp_path / "nowhere"], f"no run folder or trace file at {tmp_path / 'nowhere'}"),
            ([tmp_path], f"{tmp_path} is not a run folder (no traces.jsonl)"),
            ([run_dir, "--level", "1.5"], "--level must be between 0 and 1"),
            ([run_dir, "--anchor", "nobody"], "'nobody' is not a rated policy"),
            ([run_dir, "--game", "chess"], "no games of 'chess'")):
        assert main(["leaderboard", *map(str, argv), "--out", str(tmp_path / "never"), "--resamples", "0"]) == 2, argv
        assert msg in capsys.readouterr().err
    assert not (tmp_path / "never").exists()
    # a game that cannot be rated: its board and note are written, and the exit code says nothing was rated
    assert main(["leaderboard", str(run_dir), "--game", "rulemaking", "--out", str(tmp_path / "rm")]) == 1
    captured = capsys.readouterr()
    assert "none of its 1 game has two seats" in captured.out and "no game could be rated" in captured.err
    assert "### rulemaking: not rated" in (tmp_path / "rm" / "leaderboard.md").read_text()


def test_openskill_needs_its_extra(run_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert main(["leaderboard", str(run_dir), "--openskill", "--out", str(tmp_path)]) == 3
    assert "pip install 'negotiation_env[ratings]'" in capsys.readouterr().err


def test_openskill_orders_a_dominant_policy_first_in_any_input_order():
    elo = {"strong": 1800.0, "mid": 1500.0, "weak": 1300.0}
    rng = np.random.default_rng(1)
    games = []
    for rnd in range(40):  # a round robin, played round by round
        for a, b in (("strong", "mid"), ("strong", "weak"), ("mid", "weak")):
            p = 1.0 / (1.0 + 10 ** ((elo[b] - elo[a]) / 400))
            win = rng.random() < p
            games.append(PairGame(a, b, float(win), float(not win), order=("run", "", "", rnd, f"{a}-{b}")))
    view = openskill_ratings(games)
    assert [r.policy for r in view] == ["strong", "mid", "weak"]
    assert all(r.games == 80 and r.ordinal == pytest.approx(r.mu - 3 * r.sigma) for r in view)
    shuffled = [games[i] for i in rng.permutation(len(games))]
    assert openskill_ratings(shuffled) == view  # the fixed order, not the input order, decides
    assert [r.policy for r in openskill_ratings(games, model="bradley_terry")][0] == "strong"


def test_viewer_board_is_escaped_and_links_each_policy(run_dir):
    traces = [t.to_dict() for t in read_traces(run_dir).traces]
    evil = '<img src=x onerror="alert(1)">&'
    for t in traces:
        for p in t["policies"].values():
            if p.get("label") == L:
                p["label"] = evil
    page = render_html(traces, boards=leaderboard(traces, n_resamples=0))
    assert "<img" not in page and page.count("<script>") == 1
    board = page[page.index('<div id="board"'):]
    href = "#policy=%3Cimg%20src%3Dx%20onerror%3D%22alert%281%29%22%3E%26&amp;game=resource"
    assert f'<a class="policy" href="{href}"' in board
    assert '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;</a>' in board


needs_chromium = pytest.mark.skipif(chromium_path() is None,
                                    reason="chromium not installed (apt-get install -y chromium)")


@needs_chromium
def test_browser_leaderboard_sorts_and_links_to_the_games(run_dir, tmp_path):
    traces = read_traces(run_dir).traces
    page = write_viewer(traces, tmp_path / "viewer.html", boards=leaderboard(traces, n_resamples=50))
    col = "Array.from(document.querySelectorAll('#board .lgame[data-game=resource] tbody tr')).map(" \
          "function(r){return r.cells[%d].textContent})"
    with Browser() as b:
        b.open(page.as_uri())
        assert b.eval("document.getElementById('board').hidden") is True
        b.click('a.tab[data-tab="leaderboard"]')
        b.wait_for("document.body.dataset.tab === 'leaderboard'")
        assert b.eval("document.getElementById('summary').hidden") is True
        assert b.eval(col % 1) == [O, G, L]  # by rank
        b.click('#board .lgame[data-game=resource] th[data-col="1"]')  # policy: A to Z
        assert b.eval(col % 1) == [G, L, O]
        b.click('#board .lgame[data-game=resource] th[data-col="1"]')  # again: Z to A
        assert b.eval(col % 1) == [O, L, G]
        b.click('#board .lgame[data-game=resource] th[data-col="4"]')  # games: most first
        assert b.eval(col % 4) == ["3", "2", "1"]
        assert b.eval(col % 1) == [O, G, L]
        b.click('#board .lgame[data-game=resource] th[data-col="4"]')
        assert b.eval(col % 4) == ["1", "2", "3"]
        assert "rulemaking: not rated" in b.eval("document.getElementById('board').innerText")
        # a policy's link filters the list to its games of that game, the degraded one included
        b.click(f'#board .lgame[data-game=resource] a.policy[title="list the games of {L}"]')
        b.wait_for("document.getElementById('count').textContent === '4 of 7 games'")
        assert b.eval("document.getElementById('f-policy').value") == L
        assert b.eval("document.getElementById('f-game').value") == "resource"
        shown = b.eval("Array.from(document.querySelectorAll('tr.row')).filter(function(r){return !r.hidden})"
                       ".map(function(r){return r.querySelector('a.open').title})")
        assert len(shown) == 4 and all(L in s for s in shown) and any(s.endswith(f"{O}+{L}|1") for s in shown)
        assert b.eval("document.getElementById('board').hidden") is False
        b.click('a.tab[data-tab="summary"]')
        b.wait_for("document.body.dataset.tab === 'summary'")
        assert b.eval("document.getElementById('summary').hidden") is False


def test_meta_adds_each_rated_games_metagame_and_says_what_it_refused(run_dir, tmp_path, capsys):
    rc, doc = _json(capsys, run_dir, "--out", tmp_path, "--resamples", "0", "--meta", "--meta-resamples", "0")
    assert rc == 0
    assert sorted(doc["metagame"]) == ["resource"]  # rulemaking is not rated, so it has no meta-game
    payoff = doc["metagame"]["resource"]["metagame_payoff"]
    cells = {r["policy"]: r for r in payoff["rows"]}
    # the one oracle-linear game left (the other is degraded): oracle earns 20, linear 12
    assert cells[O][L].startswith("20.00 (1)") and cells[L][O].startswith("12.00 (1)")
    notes = " ".join(doc["metagame"]["resource"]["metagame_ratings"]["notes"])
    # greedy and linear never met: the computations that need that cell are refused, naming it
    assert "Nash averaging refused" in notes and "α-rank refused" in notes
    assert "scripted:greedy" in notes and "scripted:linear" in notes
    names = sorted(p.rsplit("/", 1)[1] for p in doc["files"])
    assert [n for n in names if n.startswith("metagame_")] == [
        "metagame_resource.md", "metagame_resource_payoff.csv", "metagame_resource_ratings.csv"]
    assert "# Meta-game: resource" in (tmp_path / "metagame_resource.md").read_text()


def test_meta_needs_its_extra(run_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "open_spiel", None)
    assert main(["leaderboard", str(run_dir), "--meta", "--resamples", "0", "--out", str(tmp_path)]) == 3
    assert "pip install 'negotiation_env[metagame]'" in capsys.readouterr().err
