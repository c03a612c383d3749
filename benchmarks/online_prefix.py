"""How often a learner's next context is not its previous context plus its answer, at
the token level, per game, and why.

Plays each game's main condition (its defaults) in self-play with the tiny local model
through :func:`negotiation_env.online.rollouts` and sorts every later turn of every
episode into one of:

* ``extends``: the prompt starts with the previous prompt and completion (append-only);
* ``context rebuilt``: the conversation is not the previous one with messages added;
* ``answer normalised``: the previous answer is stored in the conversation other than
  as sent (leading whitespace stripped, control characters replaced, cut);
* ``retokenised``: the messages extend and the answer is stored as sent, but the prompt
  does not start with the previous prompt and the sampled tokens (the answer's text
  re-encoded to other tokens, or a template that renders earlier turns otherwise).

A further column counts the later turns whose prompt was built from tokens
(``Turn.prompt_built == "extended"``), a subset of ``extends``.

    python -m benchmarks.online_prefix --seeds 2 --max-steps 40 --out /tmp/prefix.json
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
import time


def classify(episode) -> collections.Counter:
    from negotiation_env.online import extends

    out: collections.Counter = collections.Counter()
    for a, b in zip(episode.turns, episode.turns[1:]):
        prev, cur = a.context, b.context
        if not (len(cur) > len(prev) and cur[:len(prev)] == prev):
            out["context rebuilt"] += 1
        elif cur[len(prev)].get("role") != "assistant" or cur[len(prev)].get("content") != a.text:
            out["answer normalised"] += 1
        elif extends(a.prompt_ids, a.completion_ids, b.prompt_ids):
            out["extends"] += 1
            if b.prompt_built == "extended":
                out["from tokens"] += 1
        else:
            out["retokenised"] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="matrix,resource,rulemaking,dond")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--max-steps", type=int, default=40)
    ap.add_argument("--max-new-tokens", type=int, default=16)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    import negotiation_env
    from baselines.llm.hf import HFPolicy
    from negotiation_env.online import LEARNER, rollouts
    from negotiation_env.train.tiny import build_tiny_model

    torch.set_num_threads(1)
    path = build_tiny_model(tempfile.mkdtemp() + "/tiny")
    learner = HFPolicy.from_model(AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path),
                                  temperature=1.0, max_new_tokens=args.max_new_tokens)
    rows = {}
    kinds = ("extends", "answer normalised", "retokenised", "context rebuilt", "from tokens")
    print(f"{'game':<11} {'later turns':>11} " + " ".join(f"{k:>17}" for k in kinds) + f" {'seconds':>8}")
    for game in args.games.split(","):
        t0 = time.perf_counter()
        n = len(negotiation_env.env(game=game).possible_agents)
        eps = rollouts(learner, game=game, seeds=list(range(args.seeds)), seats=[LEARNER] * n,
                       max_steps=args.max_steps)
        c: collections.Counter = collections.Counter()
        for e in eps:
            c.update(classify(e))
        total = sum(c.values()) - c.get("from tokens", 0)
        rows[game] = {"later_turns": total, **{k: c.get(k, 0) for k in kinds},
                      "seconds": round(time.perf_counter() - t0, 1)}
        print(f"{game:<11} {total:>11} " + " ".join(f"{c.get(k, 0):>17}" for k in kinds)
              + f" {rows[game]['seconds']:>8}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"args": vars(args), "games": rows}, f, indent=2)


if __name__ == "__main__":
    main()
