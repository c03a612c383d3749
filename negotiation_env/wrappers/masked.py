"""One seat of the numeric view for Stable-Baselines3 and RLlib, the action mask respected.

    import negotiation_env
    from baselines.scripted.matrix import make
    from negotiation_env.wrappers import rllib, rllib_module_spec, sb3

    # Stable-Baselines3: a Box observation and action_masks(), read by sb3-contrib's MaskablePPO
    env = sb3(negotiation_env.env(game="matrix"), "agent_1", {"agent_0": make("tit_for_tat", seed=0)})
    MaskablePPO("MlpPolicy", env, seed=0).learn(2048)

    # RLlib: {"observations", "action_mask"} and RLlib's action-masking RLModule for PPO
    PPOConfig().environment(lambda cfg: rllib(negotiation_env.env(game="matrix"), "agent_1", {...}))
               .rl_module(rl_module_spec=rllib_module_spec())

Both wrap the single-agent env of :func:`.opponents.against` (pass one, or the AEC env,
the learner and its opponents as ``against`` takes them) and leave rules, rewards and
opponents to it:

* :func:`sb3`: observation ``Box(float32, (d + n,))``, the view's observation followed by
  the mask (0/1), so the value function sees what is legal too; ``action_masks()`` returns
  the current mask as booleans, the method ``MaskablePPO`` (and sb3-contrib's
  ``get_action_masks``) reads.
* :func:`rllib`: observation ``Dict({"observations": Box(float32, (d,)), "action_mask":
  Box(0, 1, (n,), float32)})``, the keys and dtype RLlib's ``ActionMaskingTorchRLModule``
  reads; :func:`rllib_module_spec` names that module for ``PPOConfig.rl_module``.

A policy that ignores the mask still runs: the index reaches the game, which refuses it
(``validation_error``, retry, the game's fallback), the numeric view counts it in
``illegal_actions`` (read here as :attr:`MaskedSeat.illegal_actions`), and the first such
step of a wrapper warns with :class:`MaskIgnoredWarning`, which is what plain ``PPO``
(no mask) on either library produces.
"""

from __future__ import annotations

import warnings
from typing import Any, Mapping

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .menus import OBS_HIGH
from .opponents import AgainstPolicies, against

__all__ = ["MaskIgnoredWarning", "MaskedSeat", "SB3Seat", "RLlibSeat", "sb3", "rllib", "rllib_module_spec"]


class MaskIgnoredWarning(UserWarning):
    """A wrapper of this module was stepped with an index outside the learner's mask."""


def _single(env: AECEnv | AgainstPolicies, learner: str | None, opponents: Mapping[str, Any] | None,
            menu_options: dict[str, Any]) -> AgainstPolicies:
    if isinstance(env, AgainstPolicies):
        if learner is not None or opponents is not None or menu_options:
            raise ValueError("env is already a single-agent env (against()): give no learner, opponents or options")
        return env
    if learner is None or opponents is None:
        raise ValueError("give an against() env, or the AEC env with learner= and opponents= ({seat: policy})")
    return against(env, learner, opponents, **menu_options)


class MaskedSeat(gym.Wrapper):
    """What :class:`SB3Seat` and :class:`RLlibSeat` share: the mask of the learner's
    current observation, the illegal-action count and the warning."""

    #: the library named in the warning
    library = ""

    def __init__(self, env: AgainstPolicies):
        super().__init__(env)
        self.single = env
        self.menu = env.numeric.menu
        self._mask = np.ones(self.menu.n, dtype=np.int8)
        self._warned = False

    @property
    def learner(self) -> str:
        return self.single.learner

    @property
    def illegal_actions(self) -> int:
        """Indices outside the learner's mask this wrapper's numeric view was stepped with."""
        return self.single.numeric.illegal_actions[self.learner]

    def action_labels(self) -> list[str]:
        return self.single.numeric.action_labels()

    def _convert(self, obs: dict[str, np.ndarray]) -> Any:
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._mask = obs["action_mask"]
        return self._convert(obs), info

    def step(self, action):
        index = int(action)
        if not self._warned and not (0 <= index < self.menu.n and self._mask[index]):
            self._warned = True
            warnings.warn(
                f"{self.learner} was stepped with menu index {index}, outside its action mask: the policy "
                f"ignores the mask ({self.library}); the game refuses the action (validation error, then its "
                "fallback). This warning is given once per env; illegal_actions counts them all.",
                MaskIgnoredWarning, stacklevel=2)
        obs, reward, terminated, truncated, info = self.env.step(index)
        self._mask = obs["action_mask"]
        return self._convert(obs), reward, terminated, truncated, info


class SB3Seat(MaskedSeat):
    """The learner's seat for Stable-Baselines3 (see the module doc)."""

    library = "use sb3-contrib's MaskablePPO, which reads action_masks()"

    def __init__(self, env: AgainstPolicies):
        super().__init__(env)
        d, n = self.menu.size, self.menu.n
        low = np.concatenate([np.full(d, -OBS_HIGH, np.float32), np.zeros(n, np.float32)])
        high = np.concatenate([np.full(d, OBS_HIGH, np.float32), np.ones(n, np.float32)])
        self.observation_space = spaces.Box(low, high, dtype=np.float32)

    def _convert(self, obs):
        return np.concatenate([obs["observation"], obs["action_mask"].astype(np.float32)])

    def action_masks(self) -> np.ndarray:
        """The learner's current mask as booleans (what MaskablePPO reads before each step)."""
        return self._mask.astype(bool)


class RLlibSeat(MaskedSeat):
    """The learner's seat for RLlib (see the module doc)."""

    library = "give PPOConfig.rl_module(rl_module_spec=rllib_module_spec())"

    def __init__(self, env: AgainstPolicies):
        super().__init__(env)
        d, n = self.menu.size, self.menu.n
        self.observation_space = spaces.Dict({
            "observations": spaces.Box(-OBS_HIGH, OBS_HIGH, shape=(d,), dtype=np.float32),
            "action_mask": spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32),
        })

    def _convert(self, obs):
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}


def sb3(env: AECEnv | AgainstPolicies, learner: str | None = None, opponents: Mapping[str, Any] | None = None,
        **menu_options: Any) -> SB3Seat:
    """The learner's seat for Stable-Baselines3: ``sb3(against(...))`` or
    ``sb3(aec_env, learner, opponents, **menu_options)`` (see the module doc)."""
    return SB3Seat(_single(env, learner, opponents, menu_options))


def rllib(env: AECEnv | AgainstPolicies, learner: str | None = None, opponents: Mapping[str, Any] | None = None,
          **menu_options: Any) -> RLlibSeat:
    """The learner's seat for RLlib: ``rllib(against(...))`` or
    ``rllib(aec_env, learner, opponents, **menu_options)`` (see the module doc)."""
    return RLlibSeat(_single(env, learner, opponents, menu_options))


def rllib_module_spec(**model_config: Any):
    """``RLModuleSpec`` of RLlib's PPO action-masking module (``ActionMaskingTorchRLModule``,
    shipped with RLlib's examples), which adds log(mask) to the action logits so that
    masked-out indices are never sampled; ``model_config`` (e.g. ``head_fcnet_hiddens=[64,
    64]``) goes to the module. Needs ``ray[rllib]``."""
    try:
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec
        from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    except ImportError as err:
        raise ImportError(f"rllib_module_spec() needs RLlib with its action-masking example module "
                          f"(pip install 'ray[rllib]'); importing it failed: {err}") from err
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=dict(model_config) or None)
