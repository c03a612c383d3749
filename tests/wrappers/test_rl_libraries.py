"""The numeric view, unchanged, inside the RL libraries' own PettingZoo wrappers.

Tianshou (``tianshou.env.PettingZooEnv``, AEC) and TorchRL (``torchrl.envs.PettingZooWrapper``,
AEC and parallel) are the ``rl`` extra; each test is skipped where its library is not
installed and runs where it is.
"""

from __future__ import annotations

import numpy as np
import pytest

import negotiation_env
from negotiation_env.wrappers import against, numeric

GAMES = ["resource", "rulemaking", "matrix"]


@pytest.mark.parametrize("game", GAMES)
def test_tianshou_pettingzoo_env_collects_masked_random_play(game):
    pytest.importorskip("tianshou")
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make():
        return PettingZooEnv(numeric(negotiation_env.env(game=game), infos="numeric"))

    probe = make()
    assert probe.action_space.n == numeric(negotiation_env.env(game=game)).menu.n
    policy = MultiAgentPolicy(
        {a: MARLRandomDiscreteMaskedOffPolicyAlgorithm(probe.action_space).policy for a in probe.agents}
    )
    buffer = VectorReplayBuffer(2000, 2)
    collector = Collector(policy, DummyVectorEnv([make, make]), buffer)
    collector.reset()
    stats = collector.collect(n_step=150)
    assert stats.n_collected_steps >= 150 and stats.n_collected_episodes >= 1
    batch, _ = buffer.sample(0)
    # every stored action was legal under its own mask, and the game accepted every one
    assert np.all(batch.obs.mask[np.arange(len(batch)), batch.act])
    assert float(np.sum(batch.info["invalid"])) == 0.0


def test_tianshou_dqn_trains_a_step_on_the_single_agent_view():
    pytest.importorskip("tianshou")
    import gymnasium as gym
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.algorithm_base import policy_within_training_step
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.utils.net.common import Net

    from baselines.scripted import make

    class Keys(gym.ObservationWrapper):  # Tianshou reads the mask from obs.mask
        def __init__(self, env):
            super().__init__(env)
            o = env.observation_space
            self.observation_space = gym.spaces.Dict({"obs": o["observation"], "mask": o["action_mask"]})

        def observation(self, obs):
            return {"obs": obs["observation"], "mask": obs["action_mask"].astype(bool)}

    def make_env():
        return Keys(against(negotiation_env.env(game="resource"), "agent_b", {"agent_a": make("greedy", seed=0)},
                            infos="numeric"))

    env = make_env()
    torch.manual_seed(0)
    net = Net(state_shape=env.observation_space["obs"].shape, action_shape=env.action_space.n, hidden_sizes=[32])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.5)
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), n_step_return_horizon=1, target_update_freq=10)
    buffer = VectorReplayBuffer(500, 1)
    collector = Collector(algo, DummyVectorEnv([make_env]), buffer, exploration_noise=True)
    collector.reset()
    collector.collect(n_step=64)
    before = [p.detach().clone() for p in net.parameters()]
    with policy_within_training_step(policy):
        stats = algo.update(sample_size=32, buffer=buffer)
    assert np.isfinite(stats.loss)
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters()))


@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested using version")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["aec", "parallel"])
def test_torchrl_pettingzoo_wrapper_rolls_out(game, kind):
    pytest.importorskip("torchrl")
    from torchrl.envs import PettingZooWrapper

    base = negotiation_env.env(game=game) if kind == "aec" else negotiation_env.parallel_env(game=game)
    view = numeric(base, infos="numeric")
    env = PettingZooWrapper(view, use_mask=True, categorical_actions=True, seed=0)
    # TorchRL groups agents named NAME_INT (the matrix game's agent_0, agent_1) into one
    # group NAME, stacked along a group dimension; other names get a group each
    groups = env.group_map
    assert sorted(a for members in groups.values() for a in members) == sorted(view.possible_agents)
    td = env.rollout(60, break_when_any_done=False)
    assert td.batch_size[0] == 60
    resets = 0
    for group, members in groups.items():
        mask = td[group, "action_mask"]
        act = td[group, "action"]
        assert mask.shape[-2:] == (len(members), view.menu.n)
        # the random actions TorchRL drew respect each agent's mask, and the game refused none
        assert bool(mask.gather(-1, act.long().unsqueeze(-1)).all())
        assert float(td["next", group, "info", "invalid"].sum()) == 0.0
        resets += int(td["next", group, "done"].sum())
    assert resets >= 1  # at least one game ran to its end inside the rollout
