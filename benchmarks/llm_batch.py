"""Throughput of model-backed play, one game at a time versus games batched in lock-step.

Run from the repository root:

    python -m benchmarks.llm_batch                         # tiny random model, batch sizes 1,4,16,64
    python -m benchmarks.llm_batch --model PATH --device cuda --games 64
    python -m benchmarks.llm_batch --quick                 # batch sizes 1,4; 8 games (smoke run)

One model (``--model``: a local folder or hub id; default: a tiny random 2-layer Llama
built into a temporary folder by ``baselines.llm.tiny``, no download) is loaded once as
an ``hf:`` policy and plays the same ``--games`` self-play games (resource game, 1 round,
1 talk turn each, 1 retry: short games whose gibberish goes through the env's retries and
fallbacks) with the runner's lock-step driver (``negotiation_env.runner.lockstep``) at
each batch size: up to B games open at once, every pending turn answered in one
``act_batch`` (one left-padded ``generate`` call of up to B prompts). Batch size 1 is
exactly one game at a time. Decoding is greedy by default, so every batch size plays
the same games token for token (the script checks that the traces agree) and the
figures compare the same work.

Reported per batch size: wall seconds, the process's CPU seconds, games/s, generated
tokens/s (completion tokens of every call), prompt tokens/s, model calls and the mean
batch of a ``generate`` call, and the ratios to batch size 1 of games/s (= tokens/s:
the same games) and of CPU seconds. On a machine shared with other work, wall-clock
rates move with the load; with ``--threads 1`` the CPU-time ratio is the work saved,
whatever else runs. A table on stdout; JSON with the settings and
``machine_info()`` to ``benchmarks/results/llm_batch.json`` (``--quick``:
``llm_batch_quick.json``). Untimed: model building and loading, and one warm-up game.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import PACKAGES, machine_info, write_result


def game_config(model: str, games: int, opts: dict[str, Any], game: str) -> dict:
    config = {"resource": {"num_rounds": 1, "cheap_talk_turns": 1, "max_retries": 1}}.get(game, {})
    return {"name": "llm-batch-benchmark", "seed": 0, "games": [{
        "game": game, "policies": [{"spec": f"hf:{model}", "label": "model", "options": opts}],
        "pairings": "self", "games_per_cell": games, "config": config}]}


def measure(specs: list, batch: int) -> tuple[dict[str, Any], dict[str, Any]]:
    from baselines.llm.hf import HFPolicy
    from negotiation_env.runner.lockstep import play_lockstep

    sizes: list[int] = []
    real = HFPolicy._generate

    def counting(self, prompts, *rest):
        sizes.append(len(prompts))
        return real(self, prompts, *rest)

    HFPolicy._generate = counting
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        traces = list(play_lockstep(specs, batch))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        HFPolicy._generate = real
    gen = prompt = calls = 0
    for t in traces:
        for s in t["steps"]:
            tok = s.get("tokens") or {}
            gen += tok.get("completion_tokens", 0)
            prompt += tok.get("prompt_tokens", 0)
            calls += 1
    errors = sum(t["status"] != "complete" for t in traces)
    row = {"batch_games": batch, "games": len(traces), "errors": errors, "wall_s": wall, "cpu_s": cpu,
           "games_per_s": len(traces) / wall, "generated_tokens": gen, "generated_tokens_per_s": gen / wall,
           "games_per_cpu_s": len(traces) / cpu, "generated_tokens_per_cpu_s": gen / cpu,
           "prompt_tokens": prompt, "prompt_tokens_per_s": prompt / wall, "model_calls": calls,
           "generate_calls": len(sizes), "mean_generate_batch": sum(sizes) / max(1, len(sizes)),
           "max_generate_batch": max(sizes, default=0)}
    keyed = {t["game_id"]: [(s["action"], s["tokens"]) for s in t["steps"]] for t in traces}
    return row, keyed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default=None, help="model folder or hub id (default: a tiny random model, built here)")
    p.add_argument("--batch-sizes", default="1,4,16,64", help="comma-separated (default 1,4,16,64)")
    p.add_argument("--games", type=int, default=64, help="games played at every batch size (default 64)")
    p.add_argument("--game", default="resource", help="game id (default resource)")
    p.add_argument("--max-new-tokens", type=int, default=64, help="per call (default 64)")
    p.add_argument("--temperature", type=float, default=0.0, help="0 = greedy (default), the same games at every size")
    p.add_argument("--device", default="auto")
    p.add_argument("--dtype", default="auto")
    p.add_argument("--max-batch-size", type=int, default=None, help="prompts per generate call (default: the largest "
                                                                     "batch size)")
    p.add_argument("--threads", type=int, default=None,
                   help="torch CPU threads (default: torch's own; 1 is fastest for the tiny model on a busy machine)")
    p.add_argument("--quick", action="store_true", help="batch sizes 1,4 and 8 games (smoke run)")
    p.add_argument("--out", default=None, help="result JSON (default benchmarks/results/llm_batch.json)")
    args = p.parse_args(argv)
    try:
        import torch
    except ImportError:
        sys.stderr.write("this benchmark needs the llm extra: pip install 'negotiation_env[llm]'\n")
        return 2
    from negotiation_env.runner import make_plan, parse_config
    from negotiation_env.runner.playing import _pool

    if args.threads:
        torch.set_num_threads(args.threads)
    sizes = [1, 4] if args.quick else [int(x) for x in args.batch_sizes.split(",")]
    games = 8 if args.quick else args.games
    tmp = None
    model = args.model
    if model is None:
        from baselines.llm.tiny import build_tiny_model

        tmp = tempfile.TemporaryDirectory(prefix="llm-batch-")
        model = str(build_tiny_model(Path(tmp.name) / "tiny"))
    opts = {"temperature": args.temperature, "max_new_tokens": args.max_new_tokens, "device": args.device,
            "dtype": args.dtype, "max_batch_size": args.max_batch_size or max(sizes), "seed": 0}
    specs = make_plan(parse_config(game_config(model, games, opts, args.game))).specs
    warm = make_plan(parse_config(game_config(model, 1, opts, args.game))).specs
    measure(warm, 1)  # loads the model into the runner's pool and warms it up
    policy = next(iter(_pool()._heavy.values()))
    rows, ref, same = [], None, True
    for b in sizes:
        row, keyed = measure(specs, b)
        if ref is None:
            ref = keyed
        elif keyed != ref:
            same = False
        rows.append(row)
    base = rows[0]
    for r in rows:
        r["games_per_s_ratio"] = r["games_per_s"] / base["games_per_s"]
        r["generated_tokens_per_s_ratio"] = r["generated_tokens_per_s"] / base["generated_tokens_per_s"]
        r["cpu_ratio"] = base["cpu_s"] / r["cpu_s"]
    head = (f"{'batch':>5} {'games':>5} {'wall s':>8} {'cpu s':>8} {'games/s':>8} {'gen tok/s':>10} "
            f"{'prompt tok/s':>12} {'calls':>6} {'gen batch':>9} {'x games/s':>9} {'x tok/s':>8} {'x cpu':>6}")
    print(f"model {model} on {policy.device} ({policy.dtype}), {games} games of {args.game}, "
          f"max_new_tokens={args.max_new_tokens}, temperature={args.temperature}, torch threads "
          f"{torch.get_num_threads()}")
    print(head)
    for r in rows:
        print(f"{r['batch_games']:>5} {r['games']:>5} {r['wall_s']:>8.2f} {r['cpu_s']:>8.2f} {r['games_per_s']:>8.2f} "
              f"{r['generated_tokens_per_s']:>10.0f} {r['prompt_tokens_per_s']:>12.0f} {r['model_calls']:>6} "
              f"{r['mean_generate_batch']:>9.1f} {r['games_per_s_ratio']:>9.2f} {r['generated_tokens_per_s_ratio']:>8.2f} "
              f"{r['cpu_ratio']:>6.2f}")
    if args.temperature == 0:
        print("traces agree across batch sizes (greedy):", "yes" if same else "NO")
    default = "llm_batch_quick.json" if args.quick else "llm_batch.json"
    out = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default
    write_result(out, {
        "benchmark": "llm_batch", "model": args.model or "tiny random Llama (baselines.llm.tiny, 2 layers, hidden 64)",
        "game": args.game, "games": games, "settings": {**opts, "torch_threads": torch.get_num_threads()},
        "device": policy.device, "dtype": policy.dtype, "identical_across_batch_sizes": same if args.temperature == 0
        else None, "results": rows,
        "machine": machine_info(PACKAGES + ("torch", "transformers", "tokenizers")),
    })
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
