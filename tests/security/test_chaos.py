"""A short run of benchmarks/chaos.py: kill -9 a tournament three times, resume, and get the
uninterrupted run's records exactly (timestamps aside), no torn or duplicate line."""

from __future__ import annotations

from benchmarks import chaos


def test_three_kill_resume_cycles_lose_and_duplicate_nothing(tmp_path):
    res = chaos.chaos(cycles=3, seed=1, work=tmp_path, games_per_cell=4, slow=0.01, wait=(1.2, 2.0))
    assert res["planned"] == 24 and res["games"] == 24 and res["final_rc"] == 0
    assert res["duplicates"] == 0 and res["lost"] == 0 and res["unexpected"] == 0
    assert res["differing_records"] == 0
    assert res["kills_mid_run"] >= 1 and res["torn_tails_added"] == 1
