"""Oracle validation (pass@1 of each agent's individual allocation)."""

from __future__ import annotations

import json

import pytest

from baselines.scripted import GreedyPolicy
from negotiation_env.games.resource import list_scenarios, load_scenario, solve
from negotiation_env.games.resource.oracle import filter_pool, oracle_check


class Fixed:
    """Answers every prompt with the same text."""

    def __init__(self, text):
        self.text = text
        self.prompts = []

    def act(self, obs):
        self.prompts.append(obs["prompt"])
        return self.text


@pytest.mark.parametrize("output", ["structured", "text"])
def test_solver_backed_greedy_passes_every_shipped_scenario(output):
    for name in list_scenarios():
        sc = load_scenario(name)
        rep = oracle_check(sc, GreedyPolicy(output=output))
        assert rep.all_passed and rep.pass_at_1 == 1.0, name
        assert rep.value == solve(sc).individual_max


def test_suboptimal_and_invalid_answers_fail_in_one_attempt():
    sc = load_scenario("mc080_1")  # agent_a: project_a stone2+gold3 -> 17 = V_a; gold4 -> 11
    rep = oracle_check(sc, Fixed(json.dumps({"thinking": "", "speech": "", "action": {"gold": 4}})))
    assert rep.passed == {"agent_a": False, "agent_b": False} and rep.value["agent_a"] == 11
    bad = Fixed("I cannot decide")
    rep = oracle_check(sc, bad)
    assert rep.pass_at_1 == 0.0 and len(bad.prompts) == 2  # one attempt per agent, no retry
    assert [e["type"] for e in rep.events["agent_a"]] == ["validation_error", "decision_auto_filled"]
    assert all(p.startswith("--- DECISION PHASE ---") for p in bad.prompts)


def test_filter_pool_and_bad_policy():
    pool = [load_scenario(n) for n in ("mc080_1", "mc100_1")]
    assert filter_pool(pool, [GreedyPolicy()]) == pool
    # stone2+gold3 is optimal for mc080_1's agent_a only; nothing passes for both agents
    assert filter_pool(pool, [GreedyPolicy(), Fixed('{"stone": 2, "gold": 3}')]) == []
    with pytest.raises(TypeError, match="act"):
        oracle_check(pool[0], object())
