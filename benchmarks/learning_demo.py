"""Does the tiny model learn? Group-relative policy gradient against ``tit_for_tat``,
evaluated before and after training on held-out game seeds, at several training seeds.

Two trainers (``--trainer``): ``trl`` (the default), TRL's ``GRPOTrainer`` fed by
:func:`negotiation_env.online.trl.rollout_func` with the game return as the reward (its
defaults otherwise: advantages scaled by the group's standard deviation, the learning
rate decayed linearly to 0; no KL term); ``loop``, the plain loop of
``examples/train_pg.py`` (REINFORCE with a GRPO-style group baseline: each episode's
advantage is its return minus the mean return of the games that share its game seed,
one Adam step per group of games, no TRL needed). The learner plays the matrix game's
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
    python -m benchmarks.learning_demo --trainer loop        # the same with the plain loop
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
#: ``loop``: the loop of ``examples/train_pg.py``; ``trl``: TRL's ``GRPOTrainer`` through
#: :func:`negotiation_env.online.trl.rollout_func`
TRAINERS = ("loop", "trl")


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


def _train_trl(model: Any, tokenizer: Any, seed: int, *, steps: int, group_seeds: int, group: int,
               config: dict[str, Any], lr: float) -> list[float]:
    """``steps`` steps of TRL's ``GRPOTrainer`` through the package's ``rollout_func``:
    ``group_seeds`` game starts of ``group`` games per step, the whole return as reward,
    no KL term; returns the mean training return per step."""
    import os

    from transformers import PrinterCallback
    from trl import GRPOConfig, GRPOTrainer

    from negotiation_env.online import LEARNER, grpo_dataset
    from negotiation_env.online.trl import game_return, rollout_func

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    seeds = [s for step in range(steps) for s in _train_seeds(seed, step, group_seeds)]
    args = GRPOConfig(output_dir=tempfile.mkdtemp(), per_device_train_batch_size=group_seeds * group,
                      num_generations=group, max_steps=steps, learning_rate=lr, beta=0.0, temperature=1.0,
                      seed=seed, use_cpu=True, report_to="none", logging_steps=1, save_strategy="no",
                      disable_tqdm=True)
    func = rollout_func([LEARNER, OPPONENT], generation={"max_new_tokens": 4, "constrained": True, "seed": seed})
    trainer = GRPOTrainer(model=model, args=args, processing_class=tokenizer, reward_funcs=[game_return],
                          rollout_func=func, train_dataset=grpo_dataset("matrix", seeds, "agent_0", config=config))
    trainer.remove_callback(PrinterCallback)  # the table is the output; the curve goes to the JSON
    trainer.train()
    return [round(h["rewards/game_return/mean"], 3) for h in trainer.state.log_history
            if "rewards/game_return/mean" in h]


def run_seed(seed: int, *, steps: int, group_seeds: int, group: int, rounds: int, eval_games: int,
             lr: float, trainer: str = "trl") -> dict[str, Any]:
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
    if trainer == "trl":  # TRL reads max_steps=0 as "train by epochs": no steps, no trainer
        curve = [] if steps == 0 else _train_trl(model, tokenizer, seed, steps=steps, group_seeds=group_seeds,
                                                 group=group, config=config, lr=lr)
        after = evaluate()
        return {"seed": seed, "untrained": before, "trained": after, "train_curve": curve,
                "seconds": round(time.perf_counter() - t0, 1)}
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
        eval_games: int = 32, lr: float = 3e-3, trainer: str = "trl") -> dict[str, Any]:
    """The whole demonstration: one row per training seed, the settings and references."""
    import torch

    for name, value, lo in (("steps", steps, 0), ("group_seeds", group_seeds, 1), ("group", group, 2),
                            ("rounds", rounds, 1), ("eval_games", eval_games, 1)):
        if not isinstance(value, int) or value < lo:
            raise ValueError(f"{name} must be an int >= {lo}; got {value!r}")
    if trainer not in TRAINERS:
        raise ValueError(f"trainer must be one of {', '.join(TRAINERS)}; got {trainer!r}")
    torch.set_num_threads(1)
    settings = {"trainer": trainer, "steps": steps, "group_seeds": group_seeds, "group": group, "rounds": rounds,
                "eval_games": eval_games, "lr": lr, "opponent": OPPONENT, "config": _config(rounds),
                "eval_seeds": [EVAL_SEED_BASE, EVAL_SEED_BASE + eval_games - 1]}
    rows = [run_seed(s, steps=steps, group_seeds=group_seeds, group=group, rounds=rounds, eval_games=eval_games,
                     lr=lr, trainer=trainer) for s in seeds]
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
    ap.add_argument("--trainer", choices=TRAINERS, default="trl")
    ap.add_argument("--out", default=None, help="JSON path (default benchmarks/results/learning_demo.json; "
                    "--trainer loop: learning_demo_loop.json)")
    args = ap.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds takes comma-separated integers; got {args.seeds!r}")
    t0 = time.perf_counter()
    result = run(seeds, steps=args.steps, group_seeds=args.group_seeds, group=args.group, rounds=args.rounds,
                 eval_games=args.eval_games, lr=args.lr, trainer=args.trainer)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    result["machine"] = machine_info(("negotiation_env", "torch", "transformers"))
    print(table(result))
    print(f"total {result['seconds']} s")
    name = "learning_demo.json" if args.trainer == "trl" else f"learning_demo_{args.trainer}.json"
    write_result(Path(args.out) if args.out else ROOT / "benchmarks" / "results" / name, result)
    return result


if __name__ == "__main__":
    main()
