"""The shipped matrix cohort (negotiation_env/runner/configs/matrix.toml) through the runner."""

from __future__ import annotations

from pathlib import Path

import negotiation_env
from negotiation_env.analysis import matrix_metrics as mm
from negotiation_env.runner import engine
from negotiation_env.runner.config import load_config
from negotiation_env.runner.plan import make_plan
from negotiation_env.traces import read_traces

CONFIG = Path(negotiation_env.__file__).parent / "runner" / "configs" / "matrix.toml"


def test_matrix_toml_runs_into_a_folder(tmp_path):
    cfg = load_config(CONFIG)
    plan = make_plan(cfg)
    assert len(plan) == 15 * 4 * 2 * 2 and len(plan.cells) == 15 * 4 * 2
    summary = engine.run(cfg, tmp_path / "run")
    assert summary.played == len(plan)
    res = read_traces(tmp_path / "run")
    assert not res.problems and len(res.traces) == len(plan)
    traces = [t.to_dict() for t in res.traces]
    assert {t["status"] for t in traces} == {"complete"}
    assert all(len(t["rounds"]) == 10 and all(s["valid"] for s in t["steps"]) for t in traces)
    assert {t["config"]["treatment"] for t in traces} == {"communication", "none"}
    # deterministic pairings, exactly: alternator beside always-A switches on half the transitions,
    # tit-for-tat beside win-stay/lose-shift (both open with A) never switches
    by_pair = {}
    for t in traces:
        by_pair.setdefault(" + ".join(t["run"]["lineup"]), []).append(t)
    assert mm.pooled_metrics(by_pair["scripted:always_a + scripted:alternator"])["S"] == 0.5
    assert mm.pooled_metrics(by_pair["scripted:tit_for_tat + scripted:wsls"])["S"] == 0.0
    assert set(by_pair) >= {"scripted:wsls + bernoulli_0.5", "scripted:always_a + scripted:always_b"}
