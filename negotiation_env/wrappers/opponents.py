"""One learner against fixed policies: a single-agent Gymnasium env over the numeric view.

    import negotiation_env
    from baselines.scripted import make
    from negotiation_env.wrappers import against

    env = against(negotiation_env.env(game="resource"), learner="agent_b",
                  opponents={"agent_a": make("oracle", seed=0)})
    obs, info = env.reset(seed=0)      # obs: {"observation": ..., "action_mask": ...}
    obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

The learner sees the numeric view (:mod:`.numeric`) and acts with menu indices; every
other seat is played by a policy (anything with ``act(observation)``) that reads the
game's own observation (text and features), exactly as in a tournament. ``step`` plays
the learner's action, then the opponents' turns, until the learner acts again or the
game ends; the reward is what the learner was paid over that stretch (anything paid
while the opponents open the game, before the learner's first action, counts in its
first step's reward). Single-agent
libraries (Tianshou, TorchRL, SB3's Gymnasium API) train on it unchanged.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

import gymnasium as gym
from pettingzoo import AECEnv

from .numeric import NumericAECEnv, numeric

__all__ = ["AgainstPolicies", "against"]


def against(env: AECEnv, learner: str, opponents: Mapping[str, Any], *, infos: str = "full",
            **menu_options: Any) -> "AgainstPolicies":
    """The single-agent env for ``learner`` with ``opponents`` ({seat: policy}) playing
    every other seat of the AEC ``env`` (plain or already ``numeric``)."""
    return AgainstPolicies(env, learner, opponents, infos=infos, **menu_options)


class AgainstPolicies(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, env: AECEnv, learner: str, opponents: Mapping[str, Any], *, infos: str = "full",
                 **menu_options: Any):
        super().__init__()
        self.numeric: NumericAECEnv = env if isinstance(env, NumericAECEnv) else numeric(env, infos=infos, **menu_options)
        agents = list(self.numeric.possible_agents)
        if learner not in agents:
            raise ValueError(f"learner must be one of {', '.join(agents)}; got {learner!r}")
        missing = [a for a in agents if a != learner and a not in opponents]
        unknown = [a for a in opponents if a not in agents or a == learner]
        if missing or unknown:
            raise ValueError(
                f"opponents must give a policy for every seat but the learner's ({', '.join(a for a in agents if a != learner)})"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; not opponents' seats: {', '.join(map(str, unknown))}" if unknown else "")
            )
        self.learner = learner
        self.opponents = dict(opponents)
        self._opening = 0.0
        self.observation_space = self.numeric.observation_space(learner)
        self.action_space = self.numeric.action_space(learner)

    @property
    def game(self):
        return self.numeric.game

    def _advance(self) -> float:
        """Play the opponents until the learner acts or the game ends; the learner's pay."""
        env, reward = self.numeric, 0.0
        while env.agents and not env.terminations[self.learner] and not env.truncations[self.learner]:
            agent = env.agent_selection
            if agent == self.learner:
                break
            if env.terminations.get(agent) or env.truncations.get(agent):
                env.step_game_action(None)  # a seat that is out already: PettingZoo's dead step
            else:
                env.step_game_action(self.opponents[agent].act(env.game_observation(agent)))
            reward += float(env.rewards.get(self.learner, 0.0))
        return reward

    def _result(self):
        env = self.numeric
        done = bool(env.terminations.get(self.learner, True) or not env.agents)
        trunc = bool(env.truncations.get(self.learner, False))
        # a copy: Gymnasium envs hand out fresh data, and the game's info shares its records
        return env.observe(self.learner), done, trunc, copy.deepcopy(env.infos.get(self.learner, {}))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.numeric.reset(seed=seed, options=options)
        self._opening = self._advance()  # paid before the learner acts: counted in its first step
        obs, _, _, info = self._result()
        return obs, info

    def step(self, action):
        env = self.numeric
        if env.terminations.get(self.learner) or env.truncations.get(self.learner):
            raise RuntimeError("step() after the game ended; call reset()")
        env.step(int(action))
        reward = self._opening + float(env.rewards.get(self.learner, 0.0)) + self._advance()
        self._opening = 0.0
        obs, done, trunc, info = self._result()
        return obs, reward, done, trunc, info
