"""REINFORCE with a baseline: a language model learns the matrix game online, plain PyTorch.

``rollouts`` plays a group of games per seed (model vs a scripted player), ``to_samples``
gives each turn's exact tokens; loss: ``-(return - group mean) * log p(answer | prompt)``.
Answers follow the game's answer format (``constrained`` extra; ``--free``: off), so an
untrained model plays legal moves too; the loss uses the unconstrained log-probability.

    python examples/train_pg.py [--model PATH] [--steps 20] [--seeds 2] [--group 4] [--free]
"""

from __future__ import annotations

import argparse
import tempfile

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from baselines.llm.hf import HFPolicy
from baselines.llm.tiny import build_tiny_model
from negotiation_env.online import LEARNER, rollouts, to_samples


def answer_logprob(model, prompt_ids: list[int], completion_ids: list[int]) -> torch.Tensor:
    """log p(completion | prompt) under the model now (one forward pass, with gradient)."""
    ids = torch.tensor([prompt_ids + completion_ids], device=model.device)
    logits = model(input_ids=ids).logits[0, len(prompt_ids) - 1:-1].float()
    return torch.log_softmax(logits, -1).gather(1, ids[0, len(prompt_ids):, None]).sum()


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a causal LM with a chat template (default: the tiny random model)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=2, help="game seeds per step")
    parser.add_argument("--group", type=int, default=4, help="games per seed (the baseline is their mean)")
    parser.add_argument("--opponent", default="tit_for_tat")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-new-tokens", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--free", action="store_true", help="no constrained decoding")
    args = parser.parse_args(argv)
    path = args.model or str(build_tiny_model(tempfile.mkdtemp() + "/tiny"))
    model, tokenizer = AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path)
    # temperature 1, no top-p: the answers are drawn from the model's own distribution
    learner = HFPolicy.from_model(model, tokenizer, temperature=1.0, max_new_tokens=args.max_new_tokens, seed=0,
                                  constrained=not args.free)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)  # no weight decay: no return gap, no change
    history = []
    for step in range(args.steps):
        seeds = [step * args.seeds + k for k in range(args.seeds)]
        episodes = rollouts(learner, game="matrix", config={"treatment": "none", "num_rounds": args.rounds},
                            seeds=seeds, repeats=args.group, seats=[LEARNER, f"scripted:{args.opponent}"])
        group_mean = {s: sum(e.game_return for e in episodes if e.seed == s) / args.group for s in seeds}
        turns = sum(len(e.turns) for e in episodes)
        optimizer.zero_grad()
        for e in episodes:
            for sample in to_samples(e):  # each turn on the context it was sampled from
                logp = answer_logprob(model, sample.prompt_ids, sample.completion_ids)
                (-(e.game_return - group_mean[e.seed]) * logp / turns).backward()
        optimizer.step()
        mean_return = sum(e.game_return for e in episodes) / len(episodes)
        valid = sum(e.valid_share or 0.0 for e in episodes) / len(episodes)
        history.append({"step": step, "return": mean_return, "valid": valid})
        print(f"step {step:3}  return {mean_return:6.2f}  valid {valid:.2f}")
    return {"model": model, "path": path, "history": history}


if __name__ == "__main__":
    main()
