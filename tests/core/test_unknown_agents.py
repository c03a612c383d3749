"""An agent the env does not have is a clear ValueError naming the env's agents: in
``observe``, the spaces and a parallel ``step``; a parallel step still needs an action
for every agent whose turn it is."""

from __future__ import annotations

import pytest

import negotiation_env

AGENTS = {
    "resource": "agent_a, agent_b",
    "matrix": "agent_0, agent_1",
    "rulemaking": "authority, continental_bank, apex_financial, industry_council, public_interest",
}
WRONG = ["nobody", "AGENT_A", "", 0, None, ("agent_a",), ["agent_a"], {"agent": 1}]


@pytest.mark.parametrize("game", sorted(AGENTS))
@pytest.mark.parametrize("api", ["aec", "parallel"])
def test_observe_and_spaces_of_an_unknown_agent(game, api):
    env = (negotiation_env.env if api == "aec" else negotiation_env.parallel_env)(game=game)
    env.reset(seed=0)
    for wrong in WRONG:
        for call in ("observe", "observation_space", "action_space"):
            with pytest.raises(ValueError) as e:
                getattr(env, call)(wrong)
            assert str(e.value) == f"{call}(): unknown agent {wrong!r}; this env's agents are {AGENTS[game]}"
    first = env.possible_agents[0]
    assert env.observation_space(first).contains(env.observe(first))


@pytest.mark.parametrize("game", sorted(AGENTS))
def test_a_parallel_step_naming_an_unknown_agent_is_refused_and_changes_nothing(game):
    env = negotiation_env.parallel_env(game=game)
    obs, infos = env.reset(seed=0)
    acting = infos[env.agents[0]]["active_agents"]
    now = ", ".join(acting)
    may = f"the agents that may act now are {now}" if len(acting) > 1 else f"the agent that may act now is {now}"
    before = repr({a: env.observe(a) for a in env.agents})
    for extra in ("ghost", 0, None, ("agent_a",)):
        with pytest.raises(ValueError) as e:
            env.step({**{a: "x" for a in env.agents}, extra: "y"})
        assert str(e.value) == (f"step(): unknown agent {extra!r} in the actions; this env's agents are "
                                f"{AGENTS[game]}, and {may}")
    with pytest.raises(ValueError, match=rf"^step\(\) takes a dict of agent -> action; got list \(agents that may "
                                         rf"act now: {now}\)$"):
        env.step(["x"])
    with pytest.raises(ValueError, match=rf"^no action for {acting[0]}, whose turn it is"):
        env.step({a: "x" for a in env.agents if a != acting[0]})
    assert repr({a: env.observe(a) for a in env.agents}) == before  # nothing was played
