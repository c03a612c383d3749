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


class _FakeGame:
    metadata = {"name": "fake_v0"}

    def __init__(self, env):
        self.env = env

    def acting(self):
        return [self.env.agent_selection] if self.env.agents else []


class _FakeEnv:
    """Three seats, in order: ``opp`` (its move pays ``me`` 5), ``gone`` (out from the
    start: PettingZoo's dead step, None only), ``me`` (its move pays it 1 and ends it)."""

    def __new__(cls):
        from gymnasium import spaces
        from pettingzoo import AECEnv

        class Fake(AECEnv):
            metadata = {"name": "fake_v0"}
            possible_agents = ["opp", "gone", "me"]

            def __init__(self):
                super().__init__()
                self.game = _FakeGame(self)

            def observation_space(self, agent):
                return spaces.Discrete(1)

            def action_space(self, agent):
                return spaces.Discrete(1)

            def reset(self, seed=None, options=None):
                self.agents = list(self.possible_agents)
                self.rewards = {a: 0.0 for a in self.agents}
                self._cumulative_rewards = dict(self.rewards)
                self.terminations = {a: a == "gone" for a in self.agents}
                self.truncations = {a: False for a in self.agents}
                self.infos = {a: {} for a in self.agents}
                self.agent_selection = "opp"

            def observe(self, agent):
                return 0

            def step(self, action):
                agent = self.agent_selection
                self.rewards = {a: 0.0 for a in self.agents}
                if agent == "gone":
                    if action is not None:
                        raise ValueError("a dead agent's step takes None")
                    self.agents.remove("gone")
                    self.agent_selection = "me"
                elif agent == "opp":
                    self.rewards["me"] = 5.0
                    self.agent_selection = "gone"
                else:
                    self.rewards["me"] = 1.0
                    self.terminations = {a: True for a in self.agents}

        return Fake()


def test_opening_pay_and_seats_already_out(monkeypatch):
    """What the opponents' opening moves pay the learner counts in its first step; a seat
    that is out gets PettingZoo's dead step (None), its policy is never asked."""
    from negotiation_env.core.layout import Layout
    from negotiation_env.wrappers import menus

    class FakeMenu(menus.Menu):
        def __init__(self, game):
            super().__init__(game)
            self.labels = ("pass", "go")
            self.layout = Layout([("x", 1)])

        def read(self, agent):
            return None

        def observation(self, agent):
            return self.layout.empty()

        def legal(self, agent):
            return np.array([0, 1], dtype=np.int8)

        def refused(self, agent):
            return "refused"

        def structured(self, agent, index):
            return "go"

    class Never:
        def act(self, obs):
            raise AssertionError("a seat that is out was asked to act")

    class Opener:
        def act(self, obs):
            return "open"

    monkeypatch.setitem(menus.MENUS, "fake_v0", lambda game, **kw: FakeMenu(game))
    env = against(_FakeEnv(), "me", {"opp": Opener(), "gone": Never()})
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].tolist() == [0, 1]
    _, reward, done, trunc, _ = env.step(1)
    assert (reward, done, trunc) == (6.0, True, False)
    env.reset(seed=1)  # the opening pay is not carried into the next game twice
    assert env.step(1)[1] == 6.0
