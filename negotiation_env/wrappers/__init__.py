"""Wrappers over the games' PettingZoo envs.

``numeric(env)``: the numeric RL view of any game (Box observation + action mask,
``Discrete`` menu of actions), see :mod:`.numeric` and :mod:`.menus`.
``against(env, learner, opponents)``: a single-agent Gymnasium env over the numeric view
in which the other seats are played by policies (scripted baselines), see :mod:`.opponents`.
``sb3(...)`` / ``rllib(...)``: one seat of that env for Stable-Baselines3 (Box observation,
``action_masks()`` for sb3-contrib's MaskablePPO) and RLlib (``{"observations",
"action_mask"}`` and ``rllib_module_spec()``, RLlib's action-masking PPO module), see
:mod:`.masked`.
``TextSeatEnv``: one seat as a single-agent *text* Gymnasium env (features, prompt,
system prompt and whole context in, model text out) against policies given as runner
specs, registered as
``negotiation_env/TextSeat-v0``: what Minari datasets record and ``recover_environment()``
rebuilds, see :mod:`.text_seat`.
"""

from .numeric import INFO_MODES, NumericAECEnv, NumericParallelEnv, numeric
from .masked import MaskedSeat, MaskIgnoredWarning, RLlibSeat, SB3Seat, rllib, rllib_module_spec, sb3
from .opponents import AgainstPolicies, against
from .text_seat import GYM_ID as TEXT_SEAT_ID
from .text_seat import TextSeatEnv, register as _register_text_seat

_register_text_seat()

__all__ = ["numeric", "NumericAECEnv", "NumericParallelEnv", "INFO_MODES", "against", "AgainstPolicies",
           "sb3", "rllib", "rllib_module_spec", "SB3Seat", "RLlibSeat", "MaskedSeat", "MaskIgnoredWarning",
           "TextSeatEnv", "TEXT_SEAT_ID"]
