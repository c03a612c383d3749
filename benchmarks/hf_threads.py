"""Torch CPU threads and an ``hf:`` policy: the same greedy answers timed with
``threads=1`` and with torch's default, each in a fresh process (the setting is
process-global), side by side.

    python -m benchmarks.hf_threads                    # tiny random model, 3 repeats, 8 answers each
    python -m benchmarks.hf_threads --model PATH --repeats 5

Needs the ``llm`` extra. The tiny model (:func:`baselines.llm.tiny.build_tiny_model`) is
built once in a temporary folder unless ``--model`` names one. Prints one line per
setting (median seconds per answer) and the ratio default / threads=1; on a busy machine
the default's threads wait for cores, which is what the ratio shows.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import json, sys, time, torch
from baselines.llm.hf import HFPolicy
model, threads, answers, tokens = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
pol = HFPolicy(model, device="cpu", temperature=0.0, max_new_tokens=tokens,
               threads=None if threads == "default" else int(threads))
obs = {"prompt": "You are agent_a. Propose how to split 10 stone and 10 wood."}
pol.complete([obs])  # warm-up
t0 = time.perf_counter()
for _ in range(answers):
    pol.complete([obs])
print(json.dumps({"threads": torch.get_num_threads(), "seconds": (time.perf_counter() - t0) / answers}))
"""


def measure(model: str, threads: str, answers: int, tokens: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    out = subprocess.run([sys.executable, "-c", _CHILD, model, threads, str(answers), str(tokens)],
                         capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=None, help="local model folder (default: a tiny random model)")
    ap.add_argument("--repeats", type=int, default=3, help="fresh processes per setting, alternated")
    ap.add_argument("--answers", type=int, default=8, help="timed answers per process")
    ap.add_argument("--tokens", type=int, default=32, help="max_new_tokens of each answer")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            from baselines.llm.tiny import build_tiny_model

            model = str(build_tiny_model(Path(tmp) / "model"))
        runs: dict[str, list[float]] = {"1": [], "default": []}
        count = {}
        for _ in range(args.repeats):
            for setting in runs:  # alternated, so load changes hit both alike
                r = measure(model, setting, args.answers, args.tokens)
                runs[setting].append(r["seconds"])
                count[setting] = r["threads"]
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{cpus} CPUs available, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    med = {k: statistics.median(v) for k, v in runs.items()}
    for k, v in runs.items():
        print(f"threads={k:<8} torch threads {count[k]}: median {med[k] * 1000:.1f} ms per answer "
              f"({', '.join(f'{x * 1000:.1f}' for x in v)})")
    print(f"ratio default / threads=1: {med['default'] / med['1']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
