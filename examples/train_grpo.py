"""GRPO with TRL's GRPOTrainer on a causal LM against tit_for_tat in the matrix game.

Every prompt row is a game start (negotiation_env.online.grpo_dataset); the package's
rollout_func plays each row's games with the trained model (transformers' generate,
batched across games) and hands TRL token-exact streams; the reward is the game return.

    python examples/train_grpo.py --model Qwen/Qwen2.5-0.5B-Instruct --steps 200   # a GPU
    python examples/train_grpo.py --model PATH --steps 1 --group 2 --seeds-per-step 1  # CPU check
"""

from __future__ import annotations

import argparse
import os
import tempfile


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True, help="a model path or hub id (a chat template is needed)")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--seeds-per-step", type=int, default=8, help="game starts (GRPO groups) per step")
    p.add_argument("--group", type=int, default=8, help="games per game start (num_generations)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--max-new-tokens", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-6)
    p.add_argument("--constrained", action="store_true", help="constrained decoding (needs llguidance)")
    p.add_argument("--output", default=None, help="checkpoint folder (default: a temporary one)")
    args = p.parse_args(argv)

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from negotiation_env.online import LEARNER, grpo_dataset
    from negotiation_env.online.trl import game_return, rollout_func, valid_share

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    gpu = torch.cuda.is_available()
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.bfloat16 if gpu else torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    config = {"stage_game": "prisoners_dilemma", "treatment": "none", "num_rounds": args.rounds,
              "acknowledgement": False}
    rows = grpo_dataset("matrix", range(args.steps * args.seeds_per_step), "agent_0", config=config)
    trainer = GRPOTrainer(
        model=model, processing_class=tokenizer, reward_funcs=[game_return, valid_share], train_dataset=rows,
        args=GRPOConfig(output_dir=args.output or tempfile.mkdtemp(), max_steps=args.steps,
                        per_device_train_batch_size=args.seeds_per_step * args.group, num_generations=args.group,
                        reward_weights=[1.0, 0.0], learning_rate=args.lr, beta=0.0, temperature=1.0,
                        bf16=gpu, use_cpu=not gpu, report_to="none", logging_steps=1, save_strategy="no"),
        rollout_func=rollout_func([LEARNER, "scripted:tit_for_tat"],
                                  generation={"max_new_tokens": args.max_new_tokens, "constrained": args.constrained},
                                  on_break="prefix"))
    trainer.train()
    history = [{"step": h["step"], "return": h["rewards/game_return/mean"], "valid": h["rewards/valid_share/mean"]}
               for h in trainer.state.log_history if "rewards/game_return/mean" in h]
    for h in history:
        print(f"step {h['step']:4d}  return {h['return']:6.2f}  valid {h['valid']:.2f}")
    return {"model": model, "history": history}


if __name__ == "__main__":
    main()
