"""Does the tiny model learn? Group-relative policy gradient against ``tit_for_tat``,
evaluated before and after training on held-out game seeds, at several training seeds.

The trainer is the plain loop of ``examples/train_pg.py`` (REINFORCE with a GRPO-style
group baseline: each episode's advantage is its return minus the mean return of the
games that share its game seed), not TRL's ``GRPOTrainer``: the loop runs in the time a
CPU demonstration allows and needs no TRL. The learner plays the matrix game's
Prisoner's Dilemma (no talk, ``--rounds`` rounds, no acknowledgement call) against
``scripted:tit_for_tat`` with constrained decoding, so every answer is a legal move and
the returns of a group differ by the moves alone.

Per training seed ``s``: the tiny model is built with weight seed ``s``; it plays
``--eval-games`` held-out games (game seeds from :data:`EVAL_SEED_BASE`, never used in
training) before and after ``--steps`` training steps of ``--group-seeds`` game seeds
times ``--group`` games each. Reported: the mean game return of the learner's seat and
its share of A answers (A is the cooperative move). References for ``n`` rounds: always
A earns ``3 n``; the best sequence against tit_for_tat is A in every round but the last
and B in the last, ``3 n + 2`` (the prompt shows the round, never the number of rounds).

    python -m benchmarks.learning_demo                       # seeds 0,1,2, the documented settings
    python -m benchmarks.learning_demo --seeds 0 --steps 5   # one quick seed
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.machine import ROOT, machine_info, write_result

#: the first held-out game seed; training game seeds stay below it
EVAL_SEED_BASE = 1_000_000
OPPONENT = "scripted:tit_for_tat"


def _config(rounds: int) -> dict[str, Any]:
    return {"stage_game": "prisoners_dilemma", "treatment": "none", "num_rounds": rounds,
            "acknowledgement": False}


def _train_seeds(seed: int, step: int, group_seeds: int) -> list[int]:
    first = (seed * 10_000 + step) * group_seeds
    out = list(range(first, first + group_seeds))
    if out[-1] >= EVAL_SEED_BASE:
        raise ValueError("training game seeds reach the held-out range: fewer steps or group seeds")
    return out


def _answer_logprob(model: Any, prompt_ids: list[int], completion_ids: list[int]):
    import torch

    ids = torch.tensor([prompt_ids + completion_ids], device=model.device)
    logits = model(input_ids=ids).logits[0, len(prompt_ids) - 1:-1].float()
    return torch.log_softmax(logits, -1).gather(1, ids[0, len(prompt_ids):, None]).sum()


def _score(episodes: list) -> dict[str, float]:
    moves = [t.text.strip() for e in episodes for t in e.turns]
    return {"return": sum(e.game_return for e in episodes) / len(episodes),
            "a_share": sum(m == "A" for m in moves) / len(moves),
            "valid": sum(t.valid for e in episodes for t in e.turns) / len(moves)}


def run_seed(seed: int, *, steps: int, group_seeds: int, group: int, rounds: int, eval_games: int,
             lr: float) -> dict[str, Any]:
    """Build, evaluate, train and evaluate again one tiny model (module docstring)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from baselines.llm.hf import HFPolicy
    from negotiation_env.online import LEARNER, rollouts, to_samples
    from negotiation_env.train.tiny import build_tiny_model

    t0 = time.perf_counter()
    torch.manual_seed(seed)
    path = build_tiny_model(Path(tempfile.mkdtemp()) / "tiny", seed=seed)
    model, tokenizer = AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path)
    # temperature 1, no top-p: the answers are drawn from the model's own distribution
    learner = HFPolicy.from_model(model, tokenizer, temperature=1.0, max_new_tokens=4, seed=seed, constrained=True)
    config, seats = _config(rounds), [LEARNER, OPPONENT]
    eval_seeds = list(range(EVAL_SEED_BASE, EVAL_SEED_BASE + eval_games))

    def evaluate() -> dict[str, float]:
        return _score(rollouts(learner, game="matrix", config=config, seeds=eval_seeds, seats=seats))

    before = evaluate()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    curve = []
    for step in range(steps):
        seeds = _train_seeds(seed, step, group_seeds)
        episodes = rollouts(learner, game="matrix", config=config, seeds=seeds, repeats=group, seats=seats)
        mean = {s: sum(e.game_return for e in episodes if e.seed == s) / group for s in seeds}
        turns = sum(len(e.turns) for e in episodes)
        optimizer.zero_grad()
        for e in episodes:
            for sample in to_samples(e):
                logp = _answer_logprob(model, sample.prompt_ids, sample.completion_ids)
                (-(e.game_return - mean[e.seed]) * logp / turns).backward()
        optimizer.step()
        curve.append(round(_score(episodes)["return"], 3))
    after = evaluate()
    return {"seed": seed, "untrained": before, "trained": after, "train_curve": curve,
            "seconds": round(time.perf_counter() - t0, 1)}


def run(seeds: list[int], *, steps: int = 30, group_seeds: int = 2, group: int = 4, rounds: int = 5,
        eval_games: int = 32, lr: float = 3e-3) -> dict[str, Any]:
    """The whole demonstration: one row per training seed, the settings and references."""
    import torch

    for name, value, lo in (("steps", steps, 0), ("group_seeds", group_seeds, 1), ("group", group, 2),
                            ("rounds", rounds, 1), ("eval_games", eval_games, 1)):
        if not isinstance(value, int) or value < lo:
            raise ValueError(f"{name} must be an int >= {lo}; got {value!r}")
    torch.set_num_threads(1)
    settings = {"steps": steps, "group_seeds": group_seeds, "group": group, "rounds": rounds,
                "eval_games": eval_games, "lr": lr, "opponent": OPPONENT, "config": _config(rounds),
                "eval_seeds": [EVAL_SEED_BASE, EVAL_SEED_BASE + eval_games - 1]}
    rows = [run_seed(s, steps=steps, group_seeds=group_seeds, group=group, rounds=rounds, eval_games=eval_games,
                     lr=lr) for s in seeds]
    return {"settings": settings, "references": {"always_A": 3 * rounds, "best": 3 * rounds + 2},
            "rows": rows}


def table(result: dict[str, Any]) -> str:
    ref = result["references"]
    head = (f"{'seed':>4} {'return before':>13} {'return after':>12} {'A share before':>14} "
            f"{'A share after':>13} {'seconds':>8}")
    lines = [head]
    for r in result["rows"]:
        b, a = r["untrained"], r["trained"]
        lines.append(f"{r['seed']:>4} {b['return']:>13.2f} {a['return']:>12.2f} {b['a_share']:>14.2f} "
                     f"{a['a_share']:>13.2f} {r['seconds']:>8.1f}")
    lines.append(f"references: always A {ref['always_A']}, best {ref['best']} (A then B in the last round)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0,1,2", help="training seeds, comma-separated")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--group-seeds", type=int, default=2, help="game seeds per step")
    ap.add_argument("--group", type=int, default=4, help="games per game seed (the baseline is their mean)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--eval-games", type=int, default=32, help="held-out games before and after training")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "learning_demo.json"))
    args = ap.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds takes comma-separated integers; got {args.seeds!r}")
    t0 = time.perf_counter()
    result = run(seeds, steps=args.steps, group_seeds=args.group_seeds, group=args.group, rounds=args.rounds,
                 eval_games=args.eval_games, lr=args.lr)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    result["machine"] = machine_info(("negotiation_env", "torch", "transformers"))
    print(table(result))
    print(f"total {result['seconds']} s")
    write_result(Path(args.out), result)
    return result


if __name__ == "__main__":
    main()
