"""negotiation_env.env()'s OrderEnforcing: PettingZoo's OrderEnforcingWrapper with a
shorter last() and step(), and the same checks, errors and results."""

from __future__ import annotations

import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import negotiation_env
from negotiation_env.core.adapters import OrderEnforcing


@pytest.mark.parametrize("game", ["resource", "rulemaking", "matrix"])
def test_same_checks_and_results_as_pettingzoos_wrapper(game):
    ours = negotiation_env.env(game=game)
    theirs = OrderEnforcingWrapper(negotiation_env.raw_env(game=game))
    assert isinstance(ours, OrderEnforcingWrapper) and type(ours) is OrderEnforcing
    assert str(ours) == str(theirs) == str(ours.unwrapped)
    for env in (ours, theirs):
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            env.last()
    with pytest.raises(Exception) as a:
        ours.step(None)
    with pytest.raises(Exception) as b:
        theirs.step(None)
    assert type(a.value) is type(b.value) and str(a.value) == str(b.value)
    for env in (ours, theirs):
        env.reset(seed=5)
    steps = 0
    for agent_a, agent_b in zip(ours.agent_iter(), theirs.agent_iter()):
        assert agent_a == agent_b
        la, lb = ours.last(), theirs.last()
        assert la[1:] == lb[1:] and la[0]["prompt"] == lb[0]["prompt"] and (la[0]["features"] == lb[0]["features"]).all()
        assert ours.last(observe=False)[0] is None
        done = la[2] or la[3]
        action = None if done else ours.action_space(agent_a).sample()
        if not done and game == "matrix":
            action = {"message": "I pick A.", "action": 0}
        ours.step(action)
        theirs.step(action)
        steps += 1
    assert steps > 5 and not ours.agents and not theirs.agents
    # after the end both only warn
    ours.step(None)
    theirs.step(None)


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
