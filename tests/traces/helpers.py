from __future__ import annotations

import negotiation_env
from baselines.scripted import make


def play_aec(policies_names=("oracle", "linear"), seed=0, rounds=2, output="text", **config):
    """One recorded AEC game; returns (trace, observations seen per step, env)."""
    from negotiation_env.traces import record

    pol = {a: make(n, seed=i, output=output) for i, (a, n) in enumerate(zip(("agent_a", "agent_b"), policies_names))}
    env = record(negotiation_env.env(game="resource", num_rounds=rounds, **config), policies=pol)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seen.append((agent, obs))
        env.step(pol[agent].act(obs))
    return env.last_trace, seen, env
