"""The server benchmark's smoke run: its server answers, every row plays its games, and
the figures it reports agree with one another."""

from __future__ import annotations

import json

import pytest

from benchmarks import llm_server


def test_quick_run_reports_consistent_figures(tmp_path, capsys):
    pytest.importorskip("openai")
    out = tmp_path / "r.json"
    assert llm_server.main(["--quick", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    rows = result["rows"]
    assert [r["row"] for r in rows] == ["batch64", "c16"]
    for r in rows:
        assert r["errors"] == 0 and r["degraded"] == 0
        assert r["calls"] == 11 * r["games"]  # this cohort: 11 model calls a game
        assert 1 <= r["max_in_flight"] <= r["games"] and 0 < r["mean_in_flight"] <= r["max_in_flight"]
        assert r["calls_per_s"] == pytest.approx(r["calls"] / r["play_s"])
        assert r["share_of_limit"] == pytest.approx(r["calls_per_s"] / (min(16, r["games"]) / 0.02))
        assert r["server_cpu_s"] > 0
    assert "| `--concurrency 16` | 8 | 0.02 s |" in capsys.readouterr().out


def test_log_normal_latency_has_the_fixed_mean():
    import asyncio

    async def draw():
        server = llm_server.Server(0.2, "lognormal", 4, seed=1)
        return [server.delay() for _ in range(200_000)]

    xs = asyncio.run(draw())
    assert sum(xs) / len(xs) == pytest.approx(0.2, rel=0.02)
    assert sorted(xs)[len(xs) // 2] == pytest.approx(0.2 * 2.718281828 ** -0.5, rel=0.02)  # median e^mu
