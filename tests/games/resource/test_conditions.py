"""Every experimental condition of seed 000: PettingZoo suites, golden prompts, behaviour.

Regenerate the golden files after a deliberate change with
``NEGOTIATION_ENV_UPDATE_GOLDEN=1 pytest tests/games/resource/test_conditions.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import negotiation_env
from negotiation_env import ConfigError
from negotiation_env.games.resource import load_scenario, solve
from negotiation_env.games.resource import prompts as P

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("NEGOTIATION_ENV_UPDATE_GOLDEN") == "1"

# explicit pools keep the golden files independent of how many scenarios ship
POOL = ("mc080_1", "mc080_2", "mc080_3")

CONDITIONS = {
    "shifting": {"partner": "shifting"},
    "rotating": {"rotation": "rotating", "rotation_pool": POOL},
    "no_talk": {"cheap_talk": False},
    "no_talk_rotating": {"cheap_talk": False, "rotation": "rotating", "rotation_pool": POOL},
    "thinking_off": {"thinking": False},
    "full_transparency": {"transparency": "full"},
    "joint_transparency": {"transparency": "joint"},
    "project_sharing": {"intervention": "project_sharing"},
    "theory_of_mind": {"intervention": "theory_of_mind"},
    "unlimited_talk": {"cheap_talk_turns": 0, "max_talk_turns": 2},
    "first_speaker_b": {"first_speaker": "agent_b"},
    "reflection": {"reflection": True},
    "shifting_rotating": {"partner": "shifting", "rotation": "rotating", "rotation_pool": POOL},
}


@pytest.mark.parametrize("name", list(CONDITIONS))
def test_pettingzoo_suites_per_condition(name):
    cfg = CONDITIONS[name]
    api_test(negotiation_env.env(**cfg), num_cycles=200)
    parallel_api_test(negotiation_env.parallel_env(**cfg), num_cycles=200)
    seed_test(lambda: negotiation_env.env(**cfg), num_cycles=60)
    parallel_seed_test(lambda: negotiation_env.parallel_env(**cfg), num_cycles=60)


def scripted_response(env, agent, k):
    """A fixed, condition-aware answer: chat twice, then decide; reflect when asked."""
    info = env.infos[agent]
    thinking = env.unwrapped.game.config.thinking
    if info["phase"] == "reflection":
        return f"Reflection of {agent}."
    if info["phase"] == "decision" or k % 3 == 2:
        action = {"wood": 1} if agent == "agent_b" else {"stone": 2, "gold": 3}
        return json.dumps({"thinking": "t", "speech": "deciding", "action": action}) if thinking else json.dumps(action)
    msg = f"message {k} from {agent}"
    return json.dumps({"thinking": "t", "speech": msg, "action": None}) if thinking else msg


def play(config, seed=0):
    env = negotiation_env.env(theme="medieval", num_rounds=2, **config)
    env.reset(seed=seed)
    final, k = {}, 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = obs["conversation"]
            env.step(None)
            continue
        k += 1
        env.step(scripted_response(env, agent, k))
    return env, final


@pytest.mark.parametrize("name", list(CONDITIONS))
def test_golden_prompts_per_condition(name):
    env, final = play(CONDITIONS[name])
    text = ""
    for agent in ("agent_a", "agent_b"):
        text += f"######## {agent}\n" + "\n\n".join(f"### {m['role']}\n{m['content']}" for m in final[agent]) + "\n"
    path = GOLDEN / f"condition_{name}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs; see the module docstring"
    assert not any(e["type"] == "validation_error" for e in env.unwrapped.game.events)


def conversation(env, agent):
    return env.unwrapped.game._states[agent].conversation


def test_shifting_resets_one_agent_and_redacts_multi_round_text():
    env = negotiation_env.env(theme="medieval", partner="shifting", num_rounds=2)
    env.reset(seed=0)
    env.step(json.dumps({"speech": "hi", "action": {"stone": 2, "gold": 3}}))
    env.step(json.dumps({"speech": "ok", "action": {"wood": 10}}))
    # round 2: agent_b's context is only the system prompt and the current round
    conv_b = env.observe("agent_b")["conversation"]
    system_b = conv_b[0]["content"]
    assert "You are playing against a DIFFERENT opponent each round." in system_b
    assert "do NOT carry over" not in system_b
    assert all("Round result" not in m["content"] for m in conv_b)
    system_a = env.observe("agent_a")["conversation"][0]["content"]
    assert "The other party is also purchasing from the same shared pool." in system_a and "do NOT carry over" in system_a
    assert "--- Round result:" in env.observe("agent_a")["prompt"] and "(Round 2/2)" in env.observe("agent_a")["prompt"]
    env.step(json.dumps({"speech": "round two", "action": None}))
    prompt_b = env.observe("agent_b")["prompt"]
    assert prompt_b.startswith("--- CHEAP TALK PHASE ---\n") and "Round 2" not in prompt_b
    from negotiation_env.games.resource.features import FeatureLayout

    L = FeatureLayout(3, 3)
    fb = env.observe("agent_b")["features"]
    assert L.get(fb, "round")[0] == 0 and L.get(fb, "num_rounds")[0] == 1 and L.get(fb, "last_outcome").sum() == 0
    fa = env.observe("agent_a")["features"]
    assert L.get(fa, "round")[0] == 1 and L.get(fa, "last_reward")[0] == 17


def test_rotation_announces_new_projects_and_scores_each_round_on_its_scenario():
    env = negotiation_env.env(theme="medieval", rotation="rotating", rotation_pool=POOL, num_rounds=3)
    env.reset(seed=4)
    game = env.unwrapped.game
    names = [sc.name for sc in game.round_scenarios]
    assert len(names) == 3 and all(x != y for x, y in zip(names, names[1:]))
    assert set(names) <= set(POOL)
    default_pool = negotiation_env.env(rotation="rotating").unwrapped.game.pool
    assert {sc.name for sc in default_pool} >= {"mc080_1", "mc080_2", "mc080_3", "mc080_4"}
    assert all(abs(solve(sc).ratio - 0.8) <= 0.05 for sc in default_pool)
    env.step(json.dumps({"speech": "x", "action": {"gold": 1}}))  # early decision
    env.step(json.dumps({"speech": "y", "action": {"wood": 1}}))
    prompt = env.observe("agent_a")["prompt"]
    block = P.render_new_projects(game.round_scenarios[1], "agent_a", game.names)
    assert block.startswith("NEW PROJECTS FOR THIS ROUND:\n- project_a: requires [")
    assert block + "\n\n--- CHEAP TALK PHASE (Round 2/3) ---" in prompt
    assert env.infos["agent_a"]["scenario"] == names[1]
    env2 = negotiation_env.env(theme="medieval", rotation="rotating", rotation_pool=POOL, num_rounds=3)
    env2.reset(seed=4)
    assert [sc.name for sc in env2.unwrapped.game.round_scenarios] == names
    # M of each round is that round's scenario's
    env.step(json.dumps({"speech": "x", "action": {"gold": 1}}))
    env.step(json.dumps({"speech": "y", "action": {"wood": 1}}))
    assert env.infos["agent_a"]["last_round"]["joint_max"] == solve(game.round_scenarios[1]).joint_max


def test_rotation_pool_validation():
    with pytest.raises(ConfigError, match="rotation_pool"):
        negotiation_env.env(rotation_pool=["mc080_2"])
    with pytest.raises(ConfigError, match="must not be empty"):
        negotiation_env.env(rotation="rotating", rotation_pool=[])
    other = load_scenario("mc080_2").to_dict()
    other["budget"] = 20
    with pytest.raises(ConfigError, match="differs from 'mc080_1'"):
        negotiation_env.env(rotation="rotating", rotation_pool=["mc080_1", other])
    env = negotiation_env.env(rotation="rotating", rotation_pool=["mc080_1", "mc080_2"], num_rounds=4)
    env.reset(seed=0)
    assert [s.name for s in env.unwrapped.game.round_scenarios] == ["mc080_1", "mc080_2", "mc080_1", "mc080_2"]


def test_no_talk_goes_straight_to_decisions_and_skips_reflection():
    with pytest.warns(UserWarning, match="'reflection' = True has no effect with cheap_talk=False"):
        env = negotiation_env.env(theme="medieval", cheap_talk=False, num_rounds=1, reflection=True)
    env.reset(seed=0)
    for a in ("agent_a", "agent_b"):
        assert env.observe(a)["prompt"] == P.render_decision_prompt(load_scenario("mc080_1"))
    assert env.infos["agent_a"]["active_agents"] == ["agent_a", "agent_b"]
    env.step(json.dumps({"speech": "", "action": {"stone": 2, "gold": 3}}))
    env.step(json.dumps({"speech": "", "action": {"wood": 10}}))
    assert all(env.terminations.values()) and env.rewards == {"agent_a": 17.0, "agent_b": 10.0}


def test_no_talk_rotating_puts_projects_before_the_decision_prompt():
    env = negotiation_env.env(theme="medieval", cheap_talk=False, rotation="rotating", rotation_pool=POOL, num_rounds=2)
    env.reset(seed=1)
    env.step('{"wood": 1}')
    env.step('{"wood": 1}')
    game = env.unwrapped.game
    expected = (P.render_new_projects(game.round_scenarios[1], "agent_b", game.names) + "\n\n"
                + P.render_decision_prompt(game.round_scenarios[1]))
    assert env.observe("agent_b")["prompt"].endswith(expected)


def test_thinking_off_plain_text_is_speech_and_bare_json_is_the_decision():
    env = negotiation_env.env(theme="medieval", thinking=False, num_rounds=1)
    env.reset(seed=0)
    system = env.observe("agent_a")["conversation"][0]["content"]
    assert "Everything you say is passed VERBATIM to the other party — you have NO private channel." in system
    assert '"thinking"' not in system
    assert env.observe("agent_a")["prompt"].endswith("Send your opening message. Or end the round early by responding with ONLY a JSON purchase.")
    env.step("Hi! I need {stone} and gold, honestly.")
    assert env.observe("agent_b")["prompt"].endswith('The other party said: "Hi! I need {stone} and gold, honestly."')
    env.step('{"wood": 10, "projects": {"project_a": 2}}')
    assert env.infos["agent_b"]["last_turn"]["decision"]["runs"]["project_a"] == 2
    prompt = env.observe("agent_a")["prompt"]
    assert prompt.endswith("Respond with ONLY a JSON object with your resource purchases and project allocations (include \"projects\" to specify runs).")
    env.step("I would rather keep talking")
    assert env.infos["agent_a"]["events"][0]["type"] == "validation_error"
    env.step('Here: ```json\n{"stone": 2, "gold": 3}\n```')
    assert env.rewards == {"agent_a": 17.0, "agent_b": 10.0}


@pytest.mark.parametrize("mode", ["none", "full", "joint"])
def test_transparency(mode):
    env = negotiation_env.env(theme="medieval", transparency=mode)
    env.reset(seed=0)
    system = env.observe("agent_a")["conversation"][0]["content"]
    # agent_b's projects: a {r1:5}->5, b {r3:4}->12, c {r1:3, r3:4}->12
    if mode == "none":
        assert "The other party's projects" not in system
    elif mode == "full":
        assert "The other party's projects (revealed to both parties):\n- project_a: requires [wood×5]\n- project_b: requires [gold×4]\n- project_c: requires [wood×3, gold×4]" in system
        assert "reward" not in system.split("The other party's projects")[1].split("## Decision Format")[0]
    else:
        assert "- project_a: requires [wood×5], reward = 5/run\n- project_b: requires [gold×4], reward = 12/run" in system


def test_interventions():
    env = negotiation_env.env(intervention="project_sharing")
    env.reset(seed=0)
    assert P.INTERVENTION_PROJECT_SHARING in env.observe("agent_a")["conversation"][0]["content"]
    env = negotiation_env.env(intervention="theory_of_mind", theme="medieval")
    env.reset(seed=0)
    assert P.INTERVENTION_THEORY_OF_MIND in env.observe("agent_a")["conversation"][0]["content"]
    assert env.observe("agent_a")["prompt"].endswith(P.TOM_REMINDER)
    env.step(json.dumps({"speech": "hi", "action": None}))
    assert P.TOM_REMINDER + '\nThe other party said: "hi"' in env.observe("agent_b")["prompt"]


def test_reflection_step_with_figures():
    env = negotiation_env.env(theme="medieval", reflection=True, num_rounds=2)
    env.reset(seed=0)
    for _ in range(2):
        env.step(json.dumps({"speech": "x", "action": {"stone": 2, "gold": 3}}))  # 17
        env.step(json.dumps({"speech": "y", "action": {"wood": 5}}))  # 5
    assert not any(env.terminations.values()) and env.infos["agent_a"]["phase"] == "reflection"
    prompt = env.observe("agent_a")["prompt"]
    assert ("--- GAME COMPLETE (2 rounds) ---\nYour cumulative reward: 34. Opponent’s cumulative reward: 10. Joint total: 44. "
            "Theoretical joint maximum (optimal collaboration): 54. Efficiency achieved: 81.5%.") in prompt
    env.step("")  # empty reflection is retried
    assert env.infos["agent_a"]["events"][0]["type"] == "validation_error"
    env.step("Splitting gold earlier would have helped.")
    env.step({"message": "I should disclose projects sooner."})
    assert all(env.terminations.values())
    assert env.infos["agent_a"]["reflection"] == "Splitting gold earlier would have helped."
    assert env.infos["agent_b"]["reflection"] == "I should disclose projects sooner."
    types = [e["type"] for e in env.unwrapped.game.events]
    assert types.count("reflection") == 2


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"partner": "random"}, "partner"),
        ({"rotation": "yes"}, "rotation"),
        ({"cheap_talk": "no"}, "cheap_talk"),
        ({"thinking": 1}, "thinking"),
        ({"transparency": "half"}, "transparency"),
        ({"intervention": "pep_talk"}, "intervention"),
        ({"reflection": None}, "reflection"),
        ({"shifting_agent": "agent_c"}, "shifting_agent"),
    ],
)
def test_condition_values_are_validated(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        negotiation_env.env(**kwargs)
