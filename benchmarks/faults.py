"""A cohort of API-backed games against a fault-injecting OpenAI-compatible server on
127.0.0.1: how many faults were injected, how many reached the traces, how many games were
degraded (a model call ran out of retries) and lost, and whether the API key leaked.

    python -m benchmarks.faults                         # 24 games, 30% of requests faulted
    python -m benchmarks.faults --games 48 --rate 0.5 --seed 3

The server (``tests/fakeserver.py``) answers each request with a fault drawn from the
``--seed`` Generator: a timeout (an answer slower than the client's timeout), HTTP 429 with
Retry-After, HTTP 500, a 200 whose body is not JSON, or a body cut off mid-way; otherwise a
valid answer. The policy is ``openai:test-model@URL`` (the real APIPolicy, 2 retries), the
cohort the resource game in self-play, one round, two talk turns, played 4 games at a time in
lock-step. Checked: every game is in the traces exactly once and complete; per fault kind,
injected == recorded; every call that ran out of retries is marked on its step and its game
(``meta.model_calls``); the fake key appears in no file written and not in the output.
JSON in ``benchmarks/results/faults.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import machine_info, write_result
from negotiation_env.runner import run
from negotiation_env.traces import read_traces
from tests.fakeserver import FakeServer

KEY = "sk-FAKE-negenv-benchmark-key-0c41"
KINDS = {"slow": "timeout", "429": "rate_limit", "500": "server_error", "malformed": "malformed",
         "cutoff": "connection"}
TALK = '{"thinking": "plan", "speech": "Let us share the pool.", "action": null}'
DECIDE = '{"thinking": "t", "speech": "Done.", "action": {"r1": 1}}'


class DrawnFaults(list):
    """The server pops faults from the front; this list draws a fresh one each time."""

    def __init__(self, rng: np.random.Generator, rate: float):
        super().__init__()
        self.rng, self.rate = rng, rate

    def __bool__(self) -> bool:
        return True

    def pop(self, i: int = -1) -> str:
        return str(self.rng.choice(list(KINDS))) if self.rng.random() < self.rate else "ok"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--rate", type=float, default=0.3, help="share of requests that get a fault")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "faults.json")
    args = ap.parse_args(argv)
    server = FakeServer()
    server.slow_seconds, server.retry_after = 0.6, "0"
    server.reply = lambda req: DECIDE if "DECISION" in req["messages"][-1]["content"] else TALK
    server.faults = DrawnFaults(np.random.default_rng(args.seed), args.rate)
    os.environ["NEGENV_BENCH_KEY"] = KEY
    cfg = {"name": "faults", "seed": args.seed, "games": [{
        "game": "resource",
        "policies": [{"spec": f"openai:test-model@{server.url}", "label": "fake",
                      "options": {"api_key_env": "NEGENV_BENCH_KEY", "timeout": 0.3, "max_retries": 2,
                                  "backoff": 0.01, "seed": 1}}],
        "pairings": "self", "games_per_cell": args.games,
        "config": {"num_rounds": 1, "cheap_talk_turns": 2, "max_retries": 1}}]}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            # no preflight probe: its request would draw a fault no game records
            summary = run(cfg, out, batch_games=4, probe=False)
        wall = time.perf_counter() - t0
        traces = [t.to_dict() for t in read_traces(out / "traces.jsonl").traces]
        leaked = [p.name for p in out.rglob("*") if p.is_file() and KEY in p.read_text(errors="replace")]
    server.close()
    leaked += ["output"] if KEY in captured.getvalue() else []
    served = [f for f in server.served if f != "ok"]
    recorded = [f["kind"] for t in traces for s in t["steps"] for f in (s["tokens"] or {}).get("faults", [])]
    rows = [{"fault": f, "kind": k, "injected": served.count(f), "recorded": recorded.count(k)} for f, k in KINDS.items()]
    failed_steps = sum(1 for t in traces for s in t["steps"] if (s["tokens"] or {}).get("failed"))
    degraded = sum(1 for t in traces if t["meta"]["model_calls"]["degraded"])
    keys = [t["game_id"] for t in traces]
    result = {
        "games_planned": args.games, "games_in_traces": len(traces), "games_complete": sum(
            t["status"] == "complete" for t in traces), "duplicates": len(keys) - len(set(keys)),
        "lost": args.games - len(set(keys)), "requests": len(server.served), "faults_injected": len(served),
        "faults_recorded": len(recorded), "per_kind": rows, "calls_out_of_retries": failed_steps,
        "games_degraded": degraded, "key_leaks": leaked, "wall_s": round(wall, 1),
        "ok": (len(served) == len(recorded) and all(r["injected"] == r["recorded"] for r in rows)
               and len(traces) == args.games and not leaked and summary.complete),
    }
    print(f"{'fault':<10} {'kind':<13} {'injected':>8} {'recorded':>8}")
    for r in rows:
        print(f"{r['fault']:<10} {r['kind']:<13} {r['injected']:>8} {r['recorded']:>8}")
    for k in ("requests", "faults_injected", "faults_recorded", "calls_out_of_retries", "games_in_traces",
              "games_complete", "games_degraded", "lost", "duplicates", "key_leaks", "wall_s"):
        print(f"{k:>22}: {result[k]}")
    print("PASS" if result["ok"] else "FAIL")
    write_result(args.out, {"benchmark": "faults", "args": {k: str(v) for k, v in vars(args).items()},
                            "machine": machine_info(), "result": result})
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
