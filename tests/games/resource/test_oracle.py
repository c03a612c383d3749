"""Oracle validation (pass@1 of each agent's individual allocation)."""

from __future__ import annotations

import json

import pytest

from baselines.scripted import GreedyPolicy
from negotiation_env import ConfigError
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
    sc = load_scenario("legacy_mc080_1")  # agent_a: project_a stone2+gold3 -> 17 = V_a; gold4 -> 11
    rep = oracle_check(sc, Fixed(json.dumps({"thinking": "", "speech": "", "action": {"gold": 4}})))
    assert rep.passed == {"agent_a": False, "agent_b": False} and rep.value["agent_a"] == 11
    bad = Fixed("I cannot decide")
    rep = oracle_check(sc, bad)
    assert rep.pass_at_1 == 0.0 and len(bad.prompts) == 2  # one attempt per agent, no retry
    assert [e["type"] for e in rep.events["agent_a"]] == ["validation_error", "heuristic_fallback",
                                                          "decision_auto_filled"]
    assert all(p.startswith("--- DECISION PHASE ---") for p in bad.prompts)


class Recorder(Fixed):
    def act(self, obs):
        self.systems = getattr(self, "systems", []) + [obs["conversation"][0]["content"]]
        return super().act(obs)


def test_oracle_runs_under_full_information_and_alone():
    """§3.1: each agent solves its allocation in isolation with full information: both
    parties' projects with rewards, and the word that the other party buys nothing."""
    rec = Recorder(json.dumps({"thinking": "", "speech": "", "action": {"stone": 2, "gold": 3}}))
    rep = oracle_check("legacy_mc080_1", rec)  # a scenario name is accepted
    assert rep.scenario == "legacy_mc080_1" and rep.passed["agent_a"] and rep.value["agent_a"] == 17
    system_a = rec.systems[0]
    # agent_b's projects of legacy_mc080_1, with their rewards (transparency "full")
    assert ("The other party's projects (revealed to both parties):\n- project_a: requires [wood×5], reward = 5/run\n"
            "- project_b: requires [gold×4], reward = 12/run\n- project_c: requires [wood×3, gold×4], reward = 12/run"
            ) in system_a
    assert system_a.endswith("## Your Situation\n- Your goal: maximize your reward this round\n- You decide alone: "
                             "the other party buys nothing this round, so the whole supply is available to you.")
    plain = Recorder('{"stone": 2, "gold": 3}')
    oracle_check("legacy_mc080_1", plain, transparency="none")
    assert "The other party's projects" not in plain.systems[0]


def test_oracle_refuses_an_unknown_scenario_name():
    with pytest.raises(ConfigError, match="oracle check: .*no_such_scenario"):
        oracle_check("no_such_scenario", GreedyPolicy())
    with pytest.raises(TypeError, match="scenario must be"):
        oracle_check(42, GreedyPolicy())


def test_filter_pool_and_bad_policy():
    pool = [load_scenario(n) for n in ("legacy_mc080_1", "mc100_1")]
    assert filter_pool(pool, [GreedyPolicy()]) == pool
    assert filter_pool(["legacy_mc080_1", "mc100_1"], [GreedyPolicy()]) == pool  # names too
    # stone2+gold3 is optimal for legacy_mc080_1's agent_a only; nothing passes for both agents
    assert filter_pool(pool, [GreedyPolicy(), Fixed('{"stone": 2, "gold": 3}')]) == []
    with pytest.raises(TypeError, match="act"):
        oracle_check(pool[0], object())
