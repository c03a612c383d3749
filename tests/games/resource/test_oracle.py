"""Oracle validation (§3.1): pass@1 of the joint allocation (default) or of each agent's
individual allocation (``mode="individual"``)."""

from __future__ import annotations

import json

import pytest

import negotiation_env
from baselines.scripted import GreedyPolicy, OracleNegotiator
from baselines.scripted.view import OwnView
from negotiation_env import ConfigError
from negotiation_env.games.resource import list_scenarios, load_scenario, solve
from negotiation_env.games.resource.oracle import JointOracleReport, OracleReport, filter_pool, oracle_check
from negotiation_env.games.resource.solver import individual_best


class Fixed:
    """Answers every prompt with the same text."""

    def __init__(self, text):
        self.text = text
        self.prompts = []

    def act(self, obs):
        self.prompts.append(obs["prompt"])
        return self.text


class Recorder(Fixed):
    def act(self, obs):
        self.systems = getattr(self, "systems", []) + [obs["conversation"][0]["content"]]
        return super().act(obs)


def _answer(**purchase):
    return json.dumps({"thinking": "", "speech": "My part.", "action": purchase})


# ---------------------------------------------------------------- joint (default)

@pytest.mark.parametrize("output", ["structured", "text"])
@pytest.mark.parametrize("lead", ["agent_a", "agent_b"])
def test_scripted_oracle_passes_joint_on_every_shipped_scenario(output, lead):
    for name in list_scenarios():
        rep = oracle_check(name, OracleNegotiator(output=output), first_speaker=lead)
        M = solve(load_scenario(name)).joint_max
        assert isinstance(rep, JointOracleReport) and rep.mode == "joint", name
        assert rep.passed and rep.all_passed and rep.pass_at_1 == 1.0, name
        assert rep.joint_reward == rep.joint_max == M and not rep.overdraw and rep.overdrawn_resources == (), name
        assert rep.lead == lead and rep.seat_passed == {"agent_a": True, "agent_b": True}, name
        assert rep.rule_pins_plan is True and rep.fallback_agents == (), name  # the tie rule names one plan
        assert sum(rep.rewards.values()) == M and rep.events == {"agent_a": [], "agent_b": []}, name


def test_selfish_policy_fails_joint_and_passes_individual():
    """Each seat buying its individual optimum (solver.individual_best) overdraws legacy_mc080_1:
    agent_a's project_a takes 3 gold (r3), agent_b's project_a + project_b 4, of 6."""
    sc = load_scenario("legacy_mc080_1")
    best = {a: individual_best(sc, a) for a in ("agent_a", "agent_b")}
    assert best["agent_a"] == ({"r1": 0, "r2": 2, "r3": 3}, {"project_a": 1, "project_b": 0, "project_c": 0})
    assert best["agent_b"] == ({"r1": 5, "r2": 0, "r3": 4}, {"project_a": 1, "project_b": 1, "project_c": 0})
    sol = solve(sc)
    assert (sol.joint_max, sol.individual_max) == (27.0, {"agent_a": 17.0, "agent_b": 17.0})

    rep = oracle_check(sc, GreedyPolicy())
    assert not rep.passed and not rep.all_passed and rep.pass_at_1 == 0.0
    assert rep.overdraw and rep.overdrawn_resources == ("r3",)
    assert rep.joint_reward == 0.0 and rep.joint_max == 27.0 and rep.rewards == {"agent_a": 0.0, "agent_b": 0.0}
    assert rep.purchases == {a: best[a][0] for a in best} and rep.runs == {a: best[a][1] for a in best}
    # the lead's 17 is its part of the plan (17 + 10); agent_b's 17 is not
    assert rep.seat_passed == {"agent_a": True, "agent_b": False} and rep.rule_pins_plan is True

    ind = oracle_check(sc, GreedyPolicy(), mode="individual")
    assert isinstance(ind, OracleReport) and ind.mode == "individual"
    assert ind.all_passed and ind.value == {"agent_a": 17.0, "agent_b": 17.0}


def test_selfish_policy_fails_joint_exactly_where_the_individual_optima_overdraw():
    for name in list_scenarios():
        sc = load_scenario(name)
        a, b = (individual_best(sc, ag)[0] for ag in ("agent_a", "agent_b"))
        collide = any(a[r.id] + b[r.id] > r.supply for r in sc.resources)
        rep = oracle_check(sc, GreedyPolicy())
        assert rep.passed is (not collide) and rep.overdraw is collide, name
        assert collide is (solve(sc).ratio < 1.0), name  # shipped: M = C exactly when they fit


def test_joint_prompt_names_the_plan_for_each_seat():
    """Full information (both parties' projects with rewards) and a Situation that says
    the two parties carry out one joint plan, the lead's reward breaking ties."""
    rec = Recorder(_answer(stone=2, gold=3, projects={"project_a": 1}))
    rep = oracle_check("legacy_mc080_1", rec)
    assert len(rec.systems) == 2 and all(p.startswith("--- DECISION PHASE ---") for p in rec.prompts)
    lead, other = rec.systems
    assert ("The other party's projects (revealed to both parties):\n- project_a: requires [wood×5], reward = 5/run\n"
            "- project_b: requires [gold×4], reward = 12/run\n- project_c: requires [wood×3, gold×4], reward = 12/run"
            ) in lead
    situation = (
        "## Your Situation\n- Your goal: the highest joint reward this round (your reward plus the other party's), "
        "with no overdraw\n- You and the other party carry out one joint plan: each of you submits your own part of "
        "it without seeing the other's, and the other party submits the part that complements yours\n- If several "
        "plans reach the highest joint reward, the plan is the one that gives {} the highest reward")
    assert lead.endswith(situation.format("you")) and other.endswith(situation.format("the other party"))
    assert "decide alone" not in lead + other
    # both seats bought agent_a's part: gold 3 + 3 fits the 6 of supply, agent_b's part earns nothing
    assert rep.rewards == {"agent_a": 17.0, "agent_b": 0.0} and not rep.passed and not rep.overdraw
    assert rep.seat_passed == {"agent_a": True, "agent_b": False}


def test_joint_invalid_answers_fall_back_in_one_attempt():
    bad = Fixed("I cannot decide")
    rep = oracle_check("legacy_mc080_1", bad, thinking=False)
    assert not rep.passed and len(bad.prompts) == 2  # one attempt per seat, no retry
    assert rep.fallback_agents == ("agent_a", "agent_b") and rep.seat_passed == {"agent_a": False, "agent_b": False}
    assert [e["type"] for e in rep.events["agent_b"]] == ["validation_error", "heuristic_fallback",
                                                          "decision_auto_filled"]


def test_scripted_view_reads_the_revealed_projects_and_the_role():
    sc = load_scenario("legacy_mc080_1")
    env = negotiation_env.env(game="resource", scenario=sc, num_rounds=1, cheap_talk=False, transparency="full",
                              joint_plan=True, first_speaker="agent_b", theme="kitchen")
    env.reset(seed=0)
    views = {}
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        views[agent] = OwnView.from_observation(obs)
        env.step({"message": "My part.", "decide": 1})
    assert views["agent_b"].joint_plan == "lead" and views["agent_a"].joint_plan == "other"
    # agent_b's projects of legacy_mc080_1 in the view's ids (the listed resources from r0)
    assert [(p.name, p.requires, p.reward) for p in sc.projects_of("agent_b")] == [
        ("project_a", (("r1", 5),), 5), ("project_b", (("r3", 4),), 12), ("project_c", (("r1", 3), ("r3", 4)), 12)]
    assert views["agent_a"].revealed == (("project_a", (("r0", 5),), 5.0), ("project_b", (("r2", 4),), 12.0),
                                         ("project_c", (("r0", 3), ("r2", 4)), 12.0))
    plain = negotiation_env.env(game="resource", scenario=sc, cheap_talk=False, transparency="full")
    plain.reset(seed=0)
    view = OwnView.from_observation(plain.last()[0])
    assert view.joint_plan is None and len(view.revealed) == 3


# ---------------------------------------------------------------- individual

@pytest.mark.parametrize("output", ["structured", "text"])
def test_solver_backed_greedy_passes_every_shipped_scenario_individually(output):
    for name in list_scenarios():
        sc = load_scenario(name)
        rep = oracle_check(sc, GreedyPolicy(output=output), mode="individual")
        assert rep.all_passed and rep.pass_at_1 == 1.0, name
        assert rep.value == solve(sc).individual_max


def test_individual_suboptimal_and_invalid_answers_fail_in_one_attempt():
    sc = load_scenario("legacy_mc080_1")  # agent_a: project_a stone2+gold3 -> 17 = V_a; gold4 -> 11
    rep = oracle_check(sc, Fixed(_answer(gold=4)), mode="individual")
    assert rep.passed == {"agent_a": False, "agent_b": False} and rep.value["agent_a"] == 11
    bad = Fixed("I cannot decide")
    rep = oracle_check(sc, bad, mode="individual")
    assert rep.pass_at_1 == 0.0 and len(bad.prompts) == 2  # one attempt per agent, no retry
    assert [e["type"] for e in rep.events["agent_a"]] == ["validation_error", "heuristic_fallback",
                                                          "decision_auto_filled"]
    assert all(p.startswith("--- DECISION PHASE ---") for p in bad.prompts)


def test_individual_runs_under_full_information_and_alone():
    """Each agent solves its allocation in isolation with full information: both parties'
    projects with rewards, and the word that the other party buys nothing."""
    rec = Recorder(_answer(stone=2, gold=3))
    rep = oracle_check("legacy_mc080_1", rec, mode="individual")  # a scenario name is accepted
    assert rep.scenario == "legacy_mc080_1" and rep.passed["agent_a"] and rep.value["agent_a"] == 17
    system_a = rec.systems[0]
    assert ("The other party's projects (revealed to both parties):\n- project_a: requires [wood×5], reward = 5/run\n"
            "- project_b: requires [gold×4], reward = 12/run\n- project_c: requires [wood×3, gold×4], reward = 12/run"
            ) in system_a
    assert system_a.endswith("## Your Situation\n- Your goal: maximize your reward this round\n- You decide alone: "
                             "the other party buys nothing this round, so the whole supply is available to you.")
    plain = Recorder('{"stone": 2, "gold": 3}')
    oracle_check("legacy_mc080_1", plain, mode="individual", transparency="none")
    assert "The other party's projects" not in plain.systems[0]


# ---------------------------------------------------------------- pool and bad input

def test_filter_pool_uses_the_joint_check_by_default():
    pool = [load_scenario(n) for n in ("legacy_mc080_1", "mc100_1")]
    assert filter_pool(pool, [OracleNegotiator()]) == pool
    assert filter_pool(["legacy_mc080_1", "mc100_1"], [OracleNegotiator()]) == pool  # names too
    assert filter_pool(pool, [GreedyPolicy()]) == [pool[1]]  # M/C 1.0: the individual optima fit together
    assert filter_pool(pool, [GreedyPolicy()], mode="individual") == pool
    # stone2+gold3 is optimal for legacy_mc080_1's agent_a only; nothing passes for both agents
    assert filter_pool(pool, [GreedyPolicy(), Fixed('{"stone": 2, "gold": 3}')], mode="individual") == []


def test_bad_input_is_refused_with_a_clear_error():
    with pytest.raises(ConfigError, match="oracle check: .*no_such_scenario"):
        oracle_check("no_such_scenario", OracleNegotiator())
    with pytest.raises(TypeError, match="scenario must be"):
        oracle_check(42, OracleNegotiator())
    with pytest.raises(TypeError, match="act"):
        oracle_check("mc080_1", object())
    with pytest.raises(ConfigError, match="mode must be one of 'joint', 'individual'; got 'pairs'"):
        oracle_check("mc080_1", OracleNegotiator(), mode="pairs")
    with pytest.raises(ConfigError, match="joint_plan.*transparency='full' or 'joint'.*'none'"):
        oracle_check("mc080_1", OracleNegotiator(), transparency="none")
    with pytest.raises(ConfigError, match="oracle check: cheap_talk, num_rounds set by the check"):
        oracle_check("mc080_1", OracleNegotiator(), num_rounds=2, cheap_talk=True)
    with pytest.raises(ConfigError, match="first_speaker is each agent in turn"):
        oracle_check("mc080_1", GreedyPolicy(), mode="individual", first_speaker="agent_b")
    with pytest.raises(ValueError, match="at least one policy"):
        filter_pool(["mc080_1"], [])
    with pytest.raises(ConfigError, match="mode must be"):
        filter_pool(["mc080_1"], [GreedyPolicy()], mode="both")


@pytest.mark.parametrize("config, words", [
    ({"joint_plan": True}, "needs cheap_talk=False"),
    ({"joint_plan": True, "cheap_talk": False}, "needs transparency='full' or 'joint'"),
    ({"joint_plan": True, "cheap_talk": False, "transparency": "requirements"}, "got transparency='requirements'"),
    ({"joint_plan": True, "solo": True, "cheap_talk": False, "transparency": "full"}, "cannot both be True"),
    ({"joint_plan": "yes", "cheap_talk": False}, "'joint_plan' must be True or False"),
])
def test_joint_plan_config_is_checked(config, words):
    with pytest.raises(ConfigError, match=words):
        negotiation_env.env(game="resource", **config)
