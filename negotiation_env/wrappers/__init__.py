"""Wrappers over the games' PettingZoo envs.

``numeric(env)``: the numeric RL view of any game (Box observation + action mask,
``Discrete`` menu of actions), see :mod:`.numeric` and :mod:`.menus`.
``against(env, learner, opponents)``: a single-agent Gymnasium env over the numeric view
in which the other seats are played by policies (scripted baselines), see :mod:`.opponents`.
``TextSeatEnv``: one seat as a single-agent *text* Gymnasium env (features, prompt,
system prompt and whole context in, model text out) against policies given as runner specs, registered as
``negotiation_env/TextSeat-v0``: what Minari datasets record and ``recover_environment()``
rebuilds, see :mod:`.text_seat`.
"""

from .numeric import INFO_MODES, NumericAECEnv, NumericParallelEnv, numeric
from .opponents import AgainstPolicies, against
from .text_seat import GYM_ID as TEXT_SEAT_ID
from .text_seat import TextSeatEnv, register as _register_text_seat

_register_text_seat()

__all__ = ["numeric", "NumericAECEnv", "NumericParallelEnv", "INFO_MODES", "against", "AgainstPolicies",
           "TextSeatEnv", "TEXT_SEAT_ID"]
