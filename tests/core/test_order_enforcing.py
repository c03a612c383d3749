"""negotiation_env.env() is PettingZoo's own OrderEnforcingWrapper over the AEC env,
with its checks and errors."""

from __future__ import annotations

import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import negotiation_env
from negotiation_env.core.adapters import GameAECEnv


@pytest.mark.parametrize("game", ["resource", "rulemaking", "matrix"])
def test_env_is_pettingzoos_own_order_enforcing_wrapper(game):
    env = negotiation_env.env(game=game)
    assert type(env) is OrderEnforcingWrapper and type(env.env) is GameAECEnv
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.last()
    env.reset(seed=5)
    steps = 0
    for agent in env.agent_iter():
        _obs, _r, term, trunc, _info = env.last()
        action = None if term or trunc else env.action_space(agent).sample()
        if action is not None and game == "matrix":
            action = {"message": "I pick A.", "action": 0}
        env.step(action)
        steps += 1
    assert steps > 5 and not env.agents


def test_agent_iter_asks_for_a_step_between_agents_as_pettingzoos_does():
    ours = negotiation_env.env(game="matrix")
    theirs = OrderEnforcingWrapper(negotiation_env.raw_env(game="matrix"))
    for env in (ours, theirs):
        env.reset(seed=0)
        it = iter(env.agent_iter(max_iter=3))
        assert next(it) == env.agent_selection
        with pytest.raises(AssertionError, match="need to call step"):
            next(it)
    for env in (ours, theirs):
        env.reset(seed=0)
        seen = [a for a in env.agent_iter(max_iter=4) if env.step({"message": "I pick A.", "action": 0}) is None]
        assert len(seen) == 4
