"""Random play in all three games, through both PettingZoo APIs (AEC and parallel).

Agents sample structured actions from their action spaces. The env refuses an illegal
sample (a validation error), asks again, then applies the game's fallback: games end.

    python examples/random_play.py [--seed 0] [--env resource_v1]
"""

from __future__ import annotations

import argparse

import negotiation_env


def seed_spaces(env, seed: int) -> None:
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + i)  # the spaces sample from their own seeded streams


def play_aec(env_id: str, seed: int) -> tuple[int, dict[str, float]]:
    env = negotiation_env.make(env_id)
    env.reset(seed=seed)
    seed_spaces(env, seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():  # one agent at a time, in the game's order
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        env.step(None if terminated or truncated else env.action_space(agent).sample())
        steps += 1
    return steps, returns


def play_parallel(env_id: str, seed: int) -> tuple[int, dict[str, float]]:
    env = negotiation_env.make(env_id, parallel=True)
    obs, infos = env.reset(seed=seed)
    seed_spaces(env, seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:  # an action for every live agent; infos[a]["active_agents"] says whose count
        obs, rewards, terminations, truncations, infos = env.step({a: env.action_space(a).sample() for a in env.agents})
        for agent, reward in rewards.items():
            returns[agent] += reward
        steps += 1
    return steps, returns


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--env", action="append", choices=sorted(negotiation_env.ENV_IDS),
                        help="an env id (repeat; default: all three games)")
    args = parser.parse_args(argv)
    results = {}
    for env_id in args.env or list(negotiation_env.ENV_IDS):
        for api, play in (("aec", play_aec), ("parallel", play_parallel)):
            steps, returns = play(env_id, args.seed)
            results[env_id, api] = (steps, returns)
            shown = ", ".join(f"{a} {r:g}" for a, r in returns.items())
            print(f"{env_id:14} {api:8} {steps:4} steps  returns {shown}")
    return results


if __name__ == "__main__":
    main()
