"""Wrappers over the games' PettingZoo envs.

``numeric(env)``: the numeric RL view of any game (Box observation + action mask,
``Discrete`` menu of actions), see :mod:`.numeric` and :mod:`.menus`.
``against(env, learner, opponents)``: a single-agent Gymnasium env over the numeric view
in which the other seats are played by policies (scripted baselines), see :mod:`.opponents`.
"""

from .numeric import INFO_MODES, NumericAECEnv, NumericParallelEnv, numeric
from .opponents import AgainstPolicies, against

__all__ = ["numeric", "NumericAECEnv", "NumericParallelEnv", "INFO_MODES", "against", "AgainstPolicies"]
