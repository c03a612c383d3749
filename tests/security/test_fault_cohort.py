"""A cohort of API-backed games against the fault-injecting local server: every
game completes, every injected fault is recorded in the traces, games whose model calls ran
out of retries are marked degraded and left out of the report's tables, and the API key
appears in no file, log line or terminal output."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

pytest.importorskip("openai")

from negotiation_env.analysis.report import report_run  # noqa: E402
from negotiation_env.analysis.resource_metrics import fallback_rounds  # noqa: E402
from negotiation_env.cli import main as cli_main  # noqa: E402
from negotiation_env.traces import read_traces  # noqa: E402
from tests.fakeserver import FakeServer  # noqa: E402

KEY = "sk-FAKE-negenv-chaos-key-51e0d2b7"
TALK = '{"thinking": "private plan", "speech": "Let us share the pool.", "action": null}'
DECIDE = '{"thinking": "t", "speech": "Done.", "action": {"r1": 1}}'
RETRIED = {"slow": "timeout", "429": "rate_limit", "500": "server_error", "malformed": "malformed",
           "cutoff": "connection"}


@pytest.fixture()
def server():
    s = FakeServer()
    s.slow_seconds = 0.6
    s.retry_after = "0"
    s.reply = lambda req: DECIDE if "DECISION" in req["messages"][-1]["content"] else TALK
    yield s
    s.close()


def test_a_cohort_completes_through_mixed_faults(server, monkeypatch, tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("NEGENV_CHAOS_KEY", KEY)
    rng = np.random.default_rng(11)
    # a third of the requests get a fault, the kinds mixed; then a run of 500s long enough to
    # exhaust one call's retries (3 attempts), so at least one game is degraded
    kinds = list(RETRIED)
    plan = [str(rng.choice(kinds)) if rng.random() < 0.35 else "ok" for _ in range(60)] + ["500"] * 3
    server.faults = ["ok"] + plan  # the first request is the run's preflight probe
    cfg = tmp_path / "cohort.yaml"
    cfg.write_text(json.dumps({"name": "faults", "seed": 5, "games": [{
        "game": "resource",
        "policies": [{"spec": f"openai:test-model@{server.url}", "label": "fake",
                      "options": {"api_key_env": "NEGENV_CHAOS_KEY", "timeout": 0.3, "max_retries": 2,
                                  "backoff": 0.01, "seed": 1}}],
        "pairings": "self", "games_per_cell": 4,
        "config": {"num_rounds": 1, "max_retries": 1}}]}))  # default talk: the main cohort the tables pool
    out = tmp_path / "run"
    rc = cli_main(["run", str(cfg), "--out", str(out), "--batch-games", "2"])
    traces = [t.to_dict() for t in read_traces(out / "traces.jsonl").traces]
    assert len(traces) == 4 and all(t["status"] == "complete" for t in traces)
    # every planned game is there, but degraded games past --max-degraded (5%) fail the run
    n_degraded = sum(bool((t["meta"].get("model_calls") or {}).get("degraded")) for t in traces)
    assert n_degraded >= 1 and rc == (4 if n_degraded / 4 > 0.05 else 0)
    # every fault the server injected is in some step's tokens.faults, kind by kind
    served = [f for f in server.served if f != "ok"]
    recorded = [f["kind"] for t in traces for s in t["steps"] for f in (s["tokens"] or {}).get("faults", [])]
    for fault, kind in RETRIED.items():
        assert recorded.count(kind) == served.count(fault), (fault, served.count(fault), recorded.count(kind))
    assert sum(t["meta"]["model_calls"]["faults"] for t in traces) == len(recorded) == len(served)
    # the calls that ran out of retries are marked on the step and on the game
    degraded = [t for t in traces if t["meta"]["model_calls"]["degraded"]]
    assert degraded, "the closing run of 500s should exhaust one call"
    for t in traces:
        failed_steps = sum(1 for s in t["steps"] if (s["tokens"] or {}).get("failed"))
        assert sum(t["meta"]["model_calls"]["failed"].values()) == failed_steps
        assert t["meta"]["model_calls"]["degraded"] == (failed_steps > 0)
    # ... and never silently scored: the report leaves them out and says so
    rep = report_run(out, plots=False)
    t3 = rep.table("resource_table3")
    counted = sum(v for c in t3.columns if c.endswith(" games") for v in t3.column(c)[:-1] if v)  # rows, not "All"
    # a one-round game whose round fell back has no round left to count (fallback rounds are left out)
    all_fell_back = [t for t in traces if t not in degraded and len(fallback_rounds(t)) == len(t["rounds"])]
    assert counted == len(traces) - len(degraded) - len(all_fell_back)
    assert all(any(t["game_id"] in n and "degraded" in n for n in rep.notes) for t in degraded)
    # the terminal said how many games were degraded
    printed = capsys.readouterr()
    assert f"{len(degraded)} games degraded" in printed.out
    # the key authenticated every request and is nowhere else
    assert all({k.lower(): v for k, v in h.items()}["authorization"] == f"Bearer {KEY}" for h in server.headers)
    written = [p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()]
    for text in written + [caplog.text, printed.out, printed.err]:
        assert KEY not in text
