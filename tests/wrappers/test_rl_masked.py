"""One seat of the numeric view in Stable-Baselines3 (sb3-contrib's MaskablePPO) and
RLlib (PPO with RLlib's action-masking RLModule): both train with no index outside the
mask, counted by the numeric view itself. Each library's tests are skipped where it is
not installed (the ``rl`` extra has sb3-contrib, the ``rllib`` extra RLlib's own deps).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import negotiation_env
from negotiation_env.train.rl import scripted
from negotiation_env.wrappers import (MaskIgnoredWarning, RLlibSeat, SB3Seat, against, numeric, rllib,
                                      rllib_module_spec, sb3)

# (game, learner, scripted opponent in every other seat)
SEATS = {
    "matrix": ("agent_1", "tit_for_tat"),
    "resource": ("agent_b", "greedy"),
    "rulemaking": (None, "conceder"),
    "dond": ("agent_1", "greedy_concede"),
}


def _single(game: str, seed: int = 0):
    base = negotiation_env.env(game=game)
    learner, opponent = SEATS[game]
    learner = learner or base.possible_agents[0]
    opps = {a: scripted(game, opponent, seed + i) for i, a in enumerate(a for a in base.possible_agents if a != learner)}
    return against(base, learner, opps)


def _illegal_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


# ----------------------------------------------------------------- the view's count


def test_numeric_view_counts_indices_outside_the_mask_aec():
    env = numeric(negotiation_env.env(game="matrix"))
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.illegal_actions == {"agent_0": 0, "agent_1": 0}
    agent = env.agent_selection
    env.step(_illegal_index(env.observe(agent)["action_mask"]))
    assert env.illegal_actions[agent] == 1 and sum(env.illegal_actions.values()) == 1
    env.step(env.menu.n)  # out of range counts too
    env.reset(seed=1)  # the count is over the view's life
    assert sum(env.illegal_actions.values()) == 2


def test_numeric_view_counts_indices_outside_the_mask_parallel():
    env = numeric(negotiation_env.parallel_env(game="matrix"))
    obs, _ = env.reset(seed=0)
    a, b = env.agents
    env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]), b: _illegal_index(obs[b]["action_mask"])})
    assert env.illegal_actions == {a: 0, b: 1}


# ----------------------------------------------------------------- the seats' spaces


@pytest.mark.parametrize("game", ["matrix", "resource"])
def test_sb3_seat_observation_is_the_view_then_the_mask(game):
    env = sb3(_single(game))
    obs, _ = env.reset(seed=0)
    d, n = env.menu.size, env.menu.n
    assert env.observation_space.shape == (d + n,) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    inner = env.single.numeric.observe(env.learner)
    np.testing.assert_array_equal(obs[:d], inner["observation"])
    np.testing.assert_array_equal(obs[d:], inner["action_mask"])
    np.testing.assert_array_equal(env.action_masks(), inner["action_mask"].astype(bool))
    obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    np.testing.assert_array_equal(env.action_masks(), env.single.numeric.observe(env.learner)["action_mask"] == 1)


def test_rllib_seat_observation_has_rllibs_keys():
    env = rllib(_single("resource"))
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"observations", "action_mask"}
    assert obs["action_mask"].dtype == np.float32 and env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], env.single.numeric.observe(env.learner)["action_mask"])


def test_seat_wrappers_check_their_arguments():
    single = _single("matrix")
    with pytest.raises(ValueError, match="already a single-agent env"):
        sb3(single, "agent_1", {})
    with pytest.raises(ValueError, match="learner= and opponents="):
        rllib(negotiation_env.env(game="matrix"))
    assert isinstance(sb3(single), SB3Seat) and isinstance(rllib(_single("matrix")), RLlibSeat)


def test_an_index_outside_the_mask_warns_once_and_is_counted():
    env = sb3(_single("matrix"))
    env.reset(seed=0)
    with pytest.warns(MaskIgnoredWarning, match="outside its action mask"):
        env.step(_illegal_index(env.action_masks()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.step(_illegal_index(env.action_masks()))  # counted, not warned again
    assert env.illegal_actions == 2


# ----------------------------------------------------------------- Stable-Baselines3


@pytest.mark.parametrize("game", list(SEATS))
def test_maskable_ppo_trains_with_no_illegal_action(game):
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    env = sb3(_single(game))
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    before = [p.detach().clone() for p in model.policy.parameters()]
    with warnings.catch_warnings():
        warnings.simplefilter("error", MaskIgnoredWarning)
        model.learn(256)
    assert model.num_timesteps >= 256
    assert env.illegal_actions == 0
    assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters()))  # it trained


def test_plain_ppo_ignores_the_mask_and_is_warned():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO

    env = sb3(_single("matrix"))
    with pytest.warns(MaskIgnoredWarning, match="MaskablePPO"):
        PPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu").learn(64)
    assert env.illegal_actions > 0


def test_sb3_env_checker_accepts_the_seat():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MaskIgnoredWarning)  # the checker steps random indices
        check_env(sb3(_single("resource")))


# ----------------------------------------------------------------- RLlib


@pytest.fixture(scope="module")
def ray_session():
    pytest.importorskip("ray.rllib", reason="RLlib needs the ray[rllib] deps (the rllib extra): dm_tree, lz4, "
                                            "ormsgpack, tensorboardX")
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


@pytest.mark.parametrize("game", ["matrix", "resource"])
def test_rllib_ppo_with_the_masking_module_trains_with_no_illegal_action(game, ray_session):
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    name = f"negotiation_env_test_{game}"
    register_env(name, lambda cfg: rllib(_single(game)))
    config = (
        PPOConfig()
        .environment(name)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1, rollout_fragment_length=64)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
        .rl_module(rl_module_spec=rllib_module_spec(head_fcnet_hiddens=[32]))
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        module = algo.get_module()
        before = [p.detach().clone() for p in module.parameters()]
        for _ in range(2):
            result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
        (env,) = algo.env_runner.env.unwrapped.envs  # num_env_runners=0: sampled in this process
        assert env.get_wrapper_attr("illegal_actions") == 0
        after = algo.get_module().parameters()
        assert any(not torch.equal(a, b.detach()) for a, b in zip(before, after))  # it trained
    finally:
        algo.stop()
