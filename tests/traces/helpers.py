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


def mixed_run_config(seed: int = 4) -> dict:
    """A small runner config with a block of each game (scripted policies, with specs)."""
    return {"name": "mixed", "seed": seed, "games": [
        {"game": "resource", "policies": ["scripted:oracle", "scripted:greedy"], "pairings": "all",
         "games_per_cell": 2, "swap_first_speaker": True, "config": {"num_rounds": 2},
         "scenario_sets": {"s": ["mc080_1"]}},
        {"game": "matrix", "policies": ["scripted:tit_for_tat", "scripted:always_b"], "pairings": "all",
         "games_per_cell": 1, "config": {"num_rounds": 3, "treatment": "communication"}},
        {"game": "rulemaking", "policies": ["scripted:conceder", "scripted:hardliner"], "pairings": "self",
         "games_per_cell": 1, "config": {"environment": "E1"}},
    ]}
