"""Tabular Q-learning on the numeric view: one learner against a scripted matrix player.

``numeric`` turns the game into vectors and a discrete menu with an action mask;
``against`` seats scripted policies in the other seats and gives a single-agent
Gymnasium env, so any RL library trains on it (benchmarks/train_rl.py uses Tianshou).

    python examples/train_rl_tabular.py [--episodes 300] [--opponent tit_for_tat]
"""

from __future__ import annotations

import argparse

import numpy as np

import negotiation_env
from baselines.scripted.matrix import POLICIES, make
from negotiation_env.games.matrix.features import LAYOUT
from negotiation_env.wrappers import against


def state(obs) -> tuple:
    """The table's key: phase, round and last actions, read by name from the vector."""
    v = obs["observation"]
    return tuple(np.concatenate([v[LAYOUT.slice(n)] for n in ("phase", "round", "last_own_action",
                                                              "last_partner_action")]))


def episode(env, q: dict, seed: int, rng, eps: float = 0.0, alpha: float = 0.3) -> float:
    obs, _ = env.reset(seed=seed)
    done, total = False, 0.0
    while not done:
        s, legal = state(obs), np.flatnonzero(obs["action_mask"])  # legal menu entries now
        row = q.setdefault(s, np.zeros(env.action_space.n))
        a = int(rng.choice(legal)) if rng.random() < eps else int(legal[np.argmax(row[legal])])
        obs, reward, terminated, truncated, _ = env.step(a)
        done, total = terminated or truncated, total + reward
        if alpha:  # the Q-learning update (no discount: the game ends after its rounds)
            nxt = 0.0 if done else q.get(state(obs), np.zeros(env.action_space.n))[obs["action_mask"] == 1].max()
            row[a] += alpha * (reward + nxt - row[a])
    return total


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--opponent", default="tit_for_tat", choices=list(POLICIES))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    # the Prisoner's Dilemma without talk, 10 rounds; the learner sits in agent_1
    base = negotiation_env.make("matrix_v1", treatment="none", num_rounds=10)
    env = against(base, learner="agent_1", opponents={"agent_0": make(args.opponent, seed=args.seed)})
    rng, q = np.random.default_rng(args.seed), {}
    for k in range(args.episodes):  # epsilon decays to 0 over the first 70% of episodes
        episode(env, q, seed=args.seed * 100_000 + k, rng=rng, eps=max(0.0, 1 - k / (0.7 * args.episodes)))
    tests = range(10)  # greedy play on held-out seeds, next to a uniformly random legal policy
    learned = float(np.mean([episode(env, q, 10**6 + s, rng, eps=0.0, alpha=0.0) for s in tests]))
    random_ = float(np.mean([episode(env, {}, 10**6 + s, rng, eps=1.0, alpha=0.0) for s in tests]))
    print(f"{len(q)} states; return per game vs {args.opponent}: learned {learned:g}, random {random_:g}")
    return {"learned": learned, "random": random_, "states": len(q)}


if __name__ == "__main__":
    main()
