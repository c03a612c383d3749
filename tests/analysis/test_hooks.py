"""A game's analysis hooks (:mod:`negotiation_env.analysis.hooks`) are what the report,
the cells listing and the viewer ask of it: a fake game registered with an ``analysis``
part gets its own section, labels, tags, detail page, search text and summary chart; a
registered game without one, and a game this install does not know, get the generic
answers."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

import pytest

from negotiation_env.analysis.cells import condition_label, outcome_tags
from negotiation_env.analysis.hooks import Figure, GameAnalysis, ReportSection, analysis_of
from negotiation_env.analysis.report import build_report, resamples_of
from negotiation_env.analysis.tables import Table
from negotiation_env.analysis.viewer import render_html, search_text
from negotiation_env.core import registry
from negotiation_env.core.registry import GameSpec

SEEN: dict[str, object] = {}


def plot_fake(data, path: Path) -> Path:
    """The fake game's figure: its data as JSON (no matplotlib needed)."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class FakeAnalysis(GameAnalysis):
    resamples = 7
    chart_caption = "fake share"
    chart_kind = "fraction"
    headline_label = "fake headline"
    summary_note = "fake: how the headline reads"
    headline_tables = ("fake_table",)

    def condition_label(self, trace):
        return f"fake cond {trace['config']['level']}"

    def outcome_tags(self, trace):
        return ["won"] if trace.get("returns", {}).get("a", 0) > 0 else ["lost"]

    def cell_fields(self, trace):
        return {"pairing": "a × b", "condition": f"level {trace['config']['level']}"}

    def left_out(self, traces):
        return [f"{t['game_id']} ({t['status']})" for t in traces if t["status"] != "complete"]

    def report(self, traces, *, n_resamples, include_fallbacks, labels):
        SEEN["report"] = ([t["game_id"] for t in traces], n_resamples, include_fallbacks)
        kept = [t for t in traces if t["status"] == "complete"]
        return ReportSection(tables=[Table("fake_table", "Fake games", ["game", "return a"],
                                           [[t["game_id"], t["returns"]["a"]] for t in kept], ["text", "num"])],
                             notes=["fake: a note of its own"],
                             figures=[Figure("fig_fake.png", f"{__name__}:plot_fake", {"n": len(kept)}),
                                      Figure("fig_fake_empty.png", f"{__name__}:plot_fake", None)])

    def meta_rows(self, trace):
        return [("level", f"<b>{trace['config']['level']}</b>")]

    def detail_html(self, trace):
        return '<p class="fake">FAKE DETAIL</p>'

    def search_extra(self, trace):
        return ["a hidden password", "  "]

    def headline(self, group, figures):
        return {"measure": "share", "value": sum(t["returns"]["a"] > 0 for t in group) / len(group)}


FAKE_ANALYSIS = FakeAnalysis()


def _cls(env_id: str) -> type:
    return type(env_id, (), {"metadata": {"name": env_id}})


@pytest.fixture
def fake_games():
    registry.register(GameSpec(name="fakegame", config_cls=_cls("fakecfg"), game_cls=_cls("fakegame_v0"),
                               analysis=f"{__name__}:FAKE_ANALYSIS"))
    registry.register(GameSpec(name="plaingame", config_cls=_cls("plaincfg"), game_cls=_cls("plaingame_v0")))
    yield
    registry.unregister("fakegame")
    registry.unregister("plaingame")


def _trace(game: str, gid: str, *, status: str = "complete", ret: float = 1.0, **config) -> dict:
    return {"game": game, "game_id": gid, "status": status, "agents": ["a", "b"],
            "policies": {"a": {"name": "alice"}, "b": {"name": "bob"}}, "config": config,
            "steps": [{"index": 0, "agent": "a", "action": "I offer 3", "parsed": {"text": "I offer 3"}}],
            "rounds": [{"round": 1, "outcome": {"payoff": ret}}], "returns": {"a": ret, "b": -ret}}


def _traces() -> list[dict]:
    return [_trace("fakegame", "f1", ret=2.0, level=1), _trace("plaingame", "p1", condition="x", talk=True),
            _trace("fakegame", "f2", status="error", ret=-1.0, level=2), _trace("zzz", "z1"),
            _trace("fakegame", "f3", ret=-1.0, level=3)]


def test_the_hooks_are_looked_up_by_name_with_the_generic_answers_as_fallback(fake_games):
    assert analysis_of("fakegame") is FAKE_ANALYSIS
    generic = analysis_of("plaingame")
    assert type(generic) is GameAnalysis and analysis_of("zzz") is generic and analysis_of(None) is generic
    # the shipped games name their own
    assert [type(analysis_of(g)).__name__ for g in ("resource", "rulemaking", "matrix")] == [
        "ResourceAnalysis", "RulemakingAnalysis", "MatrixAnalysis"]
    assert resamples_of(None) == {"rulemaking": 2000, "matrix": 10_000, "resource": 2000, "fakegame": 7}
    assert resamples_of(3) == {"rulemaking": 3, "matrix": 3, "resource": 3, "fakegame": 3}


def test_cells_use_the_games_hooks_and_the_generic_ones(fake_games):
    f1, p1, f2, z1, _ = _traces()
    assert condition_label(f1) == "fake cond 1"
    assert condition_label(p1) == "condition=x | talk=True"  # the generic label: the config's condition fields
    assert condition_label(z1) == "default"
    assert condition_label({**f1, "run": {"condition": "named"}}) == "named"  # the runner's name wins
    assert outcome_tags(f1) == ["won"]
    assert outcome_tags(f2) == ["lost", "error"]  # the game's tags, then the shared ones
    assert outcome_tags(p1) == []


def test_the_report_has_the_games_section_and_notes_the_others(fake_games, tmp_path):
    rep = build_report(_traces(), tmp_path, n_resamples=None, include_fallbacks=True)
    assert SEEN["report"] == (["f1", "f2", "f3"], 7, True)  # only its traces, its own resamples
    assert [t.name for t in rep.tables] == ["fake_table"]
    assert rep.table("fake_table").rows == [["f1", 2.0], ["f3", -1.0]]
    assert rep.notes == ["1 fakegame game(s) not counted (not complete or no resolved round): f2 (error)",
                         "1 trace(s) of game 'plaingame': no report section for it.",
                         "1 trace(s) of game 'zzz': no report section for it.",
                         "fake: a note of its own"]
    assert [f.name for f in rep.figures] == ["fig_fake.png"]  # a figure without data is not drawn
    assert json.loads((tmp_path / "fig_fake.png").read_text()) == {"n": 2}
    rows = list(csv.DictReader(io.StringIO((tmp_path / "cells.csv").read_text(encoding="utf-8"))))
    by_id = {r["game_id"]: r for r in rows}
    assert [r["game_id"] for r in rows] == ["f1", "p1", "f2", "z1", "f3"]
    assert (by_id["f1"]["pairing"], by_id["f1"]["condition"], by_id["f1"]["condition_label"],
            by_id["f1"]["outcome_tags"]) == ("a × b", "level 1", "fake cond 1", "won")
    assert (by_id["p1"]["pairing"], by_id["p1"]["condition"], by_id["p1"]["condition_label"]) == (
        "", "", "condition=x | talk=True")
    assert "fake_table" in (tmp_path / "report.md").read_text(encoding="utf-8")


def test_the_viewer_uses_the_games_hooks_and_the_generic_page(fake_games):
    f1, p1, *_ = _traces()
    assert search_text(f1) == "I offer 3\na hidden password"  # blank extras dropped
    assert search_text(p1) == "I offer 3"
    page = render_html([f1, p1, _trace("fakegame", "f4", ret=-3.0, level=4)])
    sec_f1 = page[page.index('id="sec-g0"'):page.index('id="sec-g1"')]
    sec_p1 = page[page.index('id="sec-g1"'):page.index('id="sec-g2"')]
    # the extra meta row right after the game row; the game's own transcript
    assert "<tr><th>game</th><td>fakegame</td></tr><tr><th>level</th><td><b>1</b></td></tr>" in sec_f1
    assert '<p class="fake">FAKE DETAIL</p>' in sec_f1 and '<ol class="steps">' not in sec_f1
    assert "<th>level</th>" not in sec_p1 and '<ol class="steps">' in sec_p1 and "FAKE DETAIL" not in sec_p1
    # the run summary: the fake game's chart (a fraction: 1 of 2 games won is 50.0%), header and note
    summary = page[page.index('id="summary"'):page.index('<div id="board"')]  # the leaderboard tab follows
    fake = summary[summary.index('data-game="fakegame"'):summary.index('data-game="plaingame"')]
    plain = summary[summary.index('data-game="plaingame"'):]
    assert "fakegame: fake share" in fake and "<th>fake headline</th>" in fake and ">50.0%<" in fake
    assert '<p class="note">fake: how the headline reads</p>' in fake
    assert "<svg" not in plain and '<p class="note">' not in plain  # no headline: no chart, no note
    data = json.loads(html.unescape(summary.split('data-summary="', 1)[1].split('"', 1)[0]))
    assert [(g["game"], g["headline"]) for g in data] == [("fakegame", {"measure": "share", "value": 0.5}),
                                                          ("plaingame", None)]
