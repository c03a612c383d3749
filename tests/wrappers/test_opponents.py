"""against(): one learner on the numeric view, scripted policies in the other seats."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import negotiation_env
from baselines.scripted import make, make_rulemaking
from negotiation_env.games.resource import load_scenario, solve
from negotiation_env.wrappers import against


def _oracle_env(learner="agent_b", **cfg):
    seat = "agent_a" if learner == "agent_b" else "agent_b"
    return against(negotiation_env.env(game="resource", **cfg), learner, {seat: make("oracle", seed=0)})


def test_gymnasium_env_checker_passes():
    check_env(_oracle_env(), skip_render_check=True)
    rm = negotiation_env.env(game="rulemaking")
    seats = rm.possible_agents
    check_env(against(rm, seats[1], {s: make_rulemaking("conceder", seed=i) for i, s in enumerate(seats) if s != seats[1]}),
              skip_render_check=True)


@pytest.mark.parametrize("learner", ["agent_a", "agent_b"])
def test_disclose_then_accept_reaches_the_joint_optimum_with_the_oracle(learner):
    env = _oracle_env(learner, num_rounds=2)
    labels = env.numeric.action_labels()
    obs, _ = env.reset(seed=0)
    total, done = 0.0, False
    while not done:
        m = obs["action_mask"]
        if m[labels.index("accept")]:
            a = labels.index("accept")
        elif m[labels.index("disclose")] and not env.numeric.menu.layout.get(obs["observation"], "own_disclosed")[0]:
            a = labels.index("disclose")
        else:  # a forced decision without agreement: the individual optimum
            a = int(np.flatnonzero(m)[0]) if not m[labels.index("decide_0")] else labels.index("decide_0")
        obs, r, done, trunc, _ = env.step(a)
        total += r
        assert not trunc
    game = env.game
    joint = sum(game.round_outcome(i)["joint_reward"] for i in range(2))
    assert joint == pytest.approx(2 * solve(load_scenario("mc080_1")).joint_max)
    assert total == pytest.approx(sum(game.round_outcome(i)["rewards"][learner] for i in range(2)))
    assert total > 0


def test_rewards_sum_to_the_learners_game_total_and_runs_are_reproducible():
    def run(seed):
        env = against(negotiation_env.env(game="resource"), "agent_a", {"agent_b": make("greedy", seed=0)})
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        rewards, done = [], False
        while not done:
            obs, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            rewards.append(r)
        return rewards, env.game

    rewards, game = run(3)
    assert sum(rewards) == pytest.approx(sum(o.reward("agent_a") for o in game.history))
    assert run(3)[0] == rewards
    with pytest.raises(RuntimeError, match="reset"):
        env = against(negotiation_env.env(game="resource", cheap_talk=False, num_rounds=1), "agent_a",
                      {"agent_b": make("greedy", seed=0)})
        env.reset(seed=0)
        env.step(int(np.flatnonzero(env.numeric.observe("agent_a")["action_mask"])[0]))
        env.step(0)


def test_bad_seats_are_named():
    env = negotiation_env.env(game="resource")
    with pytest.raises(ValueError, match="learner must be one of agent_a, agent_b"):
        against(env, "agent_c", {"agent_a": make("greedy")})
    with pytest.raises(ValueError, match="missing agent_b"):
        against(env, "agent_a", {})
    with pytest.raises(ValueError, match="not opponents' seats: agent_a"):
        against(env, "agent_a", {"agent_a": make("greedy"), "agent_b": make("greedy")})
