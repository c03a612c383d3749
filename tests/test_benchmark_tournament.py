"""Smoke test of benchmarks/scripted_tournament.py at its smallest settings (not a timing test)."""

from __future__ import annotations

import json

import pytest

from benchmarks import scripted_tournament


@pytest.fixture(scope="module")
def tournament():
    return scripted_tournament


def test_smallest_run_writes_json_and_markdown(tournament, tmp_path, capsys):
    out = tmp_path / "t.json"
    rc = tournament.main(["--policies", "greedy,random", "--levels", "0.5", "--scenarios-per-level", "1",
                          "--workers", "1", "--no-progress", "--out", str(out)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "greedy vs random" in printed and "random vs random" in printed

    data = json.loads(out.read_text())
    for key in ("settings", "machine", "runtime_s", "summary", "per_level", "per_ordered_pair", "errors", "anomalies"):
        assert key in data
    assert data["errors"] == [] and data["anomalies"] == []
    assert data["settings"]["policies"] == ["greedy", "random"]
    assert data["settings"]["n_games"] == 4 * 1 * 2  # ordered pairs x scenarios x speaker orders
    assert "python" in data["machine"] and "packages" in data["machine"]

    pairs = {r["pair"]: r for r in data["summary"]}
    assert set(pairs) == {"greedy vs greedy", "greedy vs random", "random vs random"}
    assert pairs["greedy vs random"]["games"] == 4 and not pairs["greedy vs random"]["self_play"]
    assert pairs["greedy vs greedy"]["games"] == 2 and pairs["greedy vs greedy"]["self_play"]
    rows = data["summary"] + data["per_level"] + data["per_ordered_pair"]
    assert len(data["per_level"]) == 3 and len(data["per_ordered_pair"]) == 4
    for r in rows:
        assert r["rounds"] == 4 * r["games"] and r["crashed_games"] == 0
        for k in ("efficiency", "overdraw_rate", "optimum_rate"):
            assert 0.0 <= r[k] <= 1.0, (r.get("pair"), k, r[k])
        assert r["talk_turns_per_round"] >= 0 and r["invalid_events"] >= 0

    md = out.with_suffix(".md").read_text()
    assert "| pair (X vs Y) |" in md and "| greedy vs random |" in md


def test_bad_policy_name_is_refused(tournament, capsys):
    with pytest.raises(SystemExit) as e:
        tournament.main(["--policies", "greedy,nope", "--out", "/dev/null"])
    assert e.value.code == 2
    assert "unknown policy 'nope'" in capsys.readouterr().err


class _Garbage:
    """Writes text that is never valid JSON: every response is refused."""

    def __init__(self, seed=None, output="structured"):
        pass

    def act(self, observation):
        return "no json here"


def test_invalid_actions_are_counted(tournament, tmp_path, monkeypatch):
    from baselines.scripted import POLICIES

    monkeypatch.setitem(POLICIES, "garbage", _Garbage)
    out = tmp_path / "t.json"
    rc = tournament.main(["--policies", "greedy,garbage", "--levels", "1.0", "--scenarios-per-level", "1",
                          "--workers", "1", "--no-progress", "--out", str(out)])
    assert rc == 0
    pairs = {r["pair"]: r for r in json.loads(out.read_text())["summary"]}
    cross = pairs["greedy vs garbage"]
    assert cross["invalid_events_x"] == 0 and cross["invalid_events_y"] > 0
    assert cross["events"]["validation_error"] > 0 and cross["events"]["decision_auto_filled"] > 0
    selfp = pairs["garbage vs garbage"]
    assert selfp["talk_turns_per_round"] == 0  # refused and forfeited turns are not talk turns
    assert selfp["events"]["talk_turn_forfeited"] > 0
    assert selfp["efficiency"] == 0.0 and selfp["overdraw_rate"] == 0.0
