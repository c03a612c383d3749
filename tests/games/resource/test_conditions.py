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

# explicit pools keep the golden files independent of how many scenarios ship; four, so
# that a default 4-round rotating game can play four different scenarios
POOL = ("mc080_1", "mc080_2", "mc080_3", "mc080_4")
#: the scenario of the hand-scripted games below, whose moves and rewards are its projects'
#: (agent_a: stone×2 + gold×3 runs project_a for 17; agent_b: wood×10 runs project_a twice
#: for 10, wood×5 once for 5); a legacy scenario, so the shipped pool can change
SCRIPTED = "legacy_mc080_1"

CONDITIONS = {
    "shifting": {"partner": "shifting"},
    "rotating": {"rotation": "rotating", "rotation_pool": POOL},
    "no_talk": {"cheap_talk": False},
    "no_talk_rotating": {"cheap_talk": False, "rotation": "rotating", "rotation_pool": POOL},
    "thinking_off": {"thinking": False},
    "full_transparency": {"transparency": "full"},
    "requirements_transparency": {"transparency": "requirements"},
    "joint_transparency": {"transparency": "joint"},
    "json_suffix": {"json_suffix": ["agent_b"]},
    "project_sharing": {"intervention": "project_sharing"},
    "theory_of_mind": {"intervention": "theory_of_mind"},
    "unlimited_talk": {"cheap_talk_turns": 0, "max_talk_turns": 2},
    "first_speaker_b": {"first_speaker": "agent_b"},
    "reflection": {"reflection": True},
    "shifting_rotating": {"partner": "shifting", "rotation": "rotating", "rotation_pool": POOL},
    # ours, for small models (prompt_style="compact"): the per-round themes rename resources mid-game
    "compact": {"thinking": False, "prompt_style": "compact"},
    "compact_rotating": {"thinking": False, "prompt_style": "compact", "rotation": "rotating", "rotation_pool": POOL},
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
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", partner="shifting", num_rounds=2)
    env.reset(seed=0)
    env.step(json.dumps({"speech": "hi", "action": {"stone": 2, "gold": 3}}))
    env.step(json.dumps({"speech": "ok", "action": {"wood": 10}}))
    # round 2: agent_b's context is only the system prompt and the current round
    conv_b = env.observe("agent_b")["conversation"]
    system_b = conv_b[0]["content"]
    # the reset agent sees one round: a standalone one-round negotiation (ours)
    assert system_b.endswith(P.SITUATION_STANDALONE)
    assert "DIFFERENT opponent" not in system_b and "across all rounds" not in system_b
    assert "do NOT carry over" not in system_b
    assert all("Round result" not in m["content"] for m in conv_b)
    # D.1.5's line is true of the agent whose partner changes every round
    system_a = env.observe("agent_a")["conversation"][0]["content"]
    assert system_a.endswith(P.SITUATION_SHIFTING) and "do NOT carry over" in system_a
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
    assert len(names) == 3 and len(set(names)) == 3 and names[0] == "mc080_1"
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
    # a pool too small for a new scenario every round is refused, not repeated
    with pytest.raises(ConfigError, match=r"num_rounds=4 plays 4 different scenarios, but the pool with the first "
                                          r"round's 'mc080_1' has 2 \(mc080_1, mc080_2\)"):
        negotiation_env.env(rotation="rotating", rotation_pool=["mc080_1", "mc080_2"], num_rounds=4)
    with pytest.raises(ConfigError, match="has 3 .*mc080_1, mc080_2, mc080_3"):  # the base counts once
        negotiation_env.env(rotation="rotating", rotation_pool=["mc080_2", "mc080_3"], num_rounds=4)
    with pytest.raises(ConfigError, match="lists scenario 'mc080_2' twice"):
        negotiation_env.env(rotation="rotating", rotation_pool=["mc080_2", "mc080_2", "mc080_3"], num_rounds=3)
    env = negotiation_env.env(rotation="rotating", rotation_pool=["mc080_2", "mc080_3", "mc080_4"], num_rounds=4)
    env.reset(seed=0)
    assert sorted(s.name for s in env.unwrapped.game.round_scenarios) == ["mc080_1", "mc080_2", "mc080_3", "mc080_4"]


@pytest.mark.parametrize("pool", [None, POOL], ids=["default_pool", "pool_of_four"])
def test_rotating_game_never_repeats_a_scenario(pool):
    """§4.1: rotating projects are a new scenario every round. With the old draw (never
    the previous round's) a 4-round game could come back to a scenario (A B A C)."""
    env = negotiation_env.env(rotation="rotating", rotation_pool=pool, num_rounds=4)
    seen = set()
    for seed in range(200):
        env.reset(seed=seed)
        names = [sc.name for sc in env.unwrapped.game.round_scenarios]
        assert len(names) == 4 and len(set(names)) == 4 and names[0] == "mc080_1", (seed, names)
        seen.add(tuple(names))
    others = len(env.unwrapped.game.pool) - 1
    assert others >= 3 and len(seen) == others * (others - 1) * (others - 2)  # every ordered draw of 3 turns up


def test_no_talk_goes_straight_to_decisions_and_skips_reflection():
    # D.7: the no-talk baseline has no reflection, though reflection is on by default
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", cheap_talk=False, num_rounds=1)
    assert env.unwrapped.game.config.reflection is True
    env.reset(seed=0)
    for a in ("agent_a", "agent_b"):
        assert env.observe(a)["prompt"] == P.render_decision_prompt(load_scenario(SCRIPTED))
    assert env.infos["agent_a"]["active_agents"] == ["agent_a", "agent_b"]
    env.step(json.dumps({"speech": "buying", "action": {"stone": 2, "gold": 3}}))
    env.step(json.dumps({"speech": "buying", "action": {"wood": 10}}))
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
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", thinking=False, num_rounds=1)
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


@pytest.mark.parametrize("mode", ["none", "full", "requirements", "joint"])
def test_transparency(mode):
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", transparency=mode)
    env.reset(seed=0)
    system = env.observe("agent_a")["conversation"][0]["content"]
    revealed = system.split("The other party's projects")[1].split("## Decision Format")[0] if mode != "none" else ""
    # agent_b's projects: a {r1:5}->5, b {r3:4}->12, c {r1:3, r3:4}->12
    with_rewards = ("The other party's projects (revealed to both parties):\n- project_a: requires [wood×5], reward = 5/run\n"
                    "- project_b: requires [gold×4], reward = 12/run\n- project_c: requires [wood×3, gold×4], reward = 12/run")
    if mode == "none":
        assert "The other party's projects" not in system
    elif mode == "full":  # §5.7: the complete project specifications, rewards included
        assert with_rewards + "\n\n## Decision Format" in system
        assert "reward function" not in revealed and P.OPPONENT_REWARD_FUNCTION not in system
    elif mode == "requirements":  # what "full" showed before: requirements only
        assert "The other party's projects (revealed to both parties):\n- project_a: requires [wood×5]\n- project_b: requires [gold×4]\n- project_c: requires [wood×3, gold×4]\n\n" in system
        assert "reward" not in revealed
    else:  # the joint variant adds the other party's reward function
        assert with_rewards + "\n" + P.OPPONENT_REWARD_FUNCTION + "\n\n## Decision Format" in system


def test_transparency_reveals_the_partners_new_projects_each_rotating_round():
    env = negotiation_env.env(theme="medieval", transparency="full", rotation="rotating", rotation_pool=POOL,
                              num_rounds=2)
    env.reset(seed=0)
    env.step(json.dumps({"speech": "x", "action": {"gold": 1}}))
    env.step(json.dumps({"speech": "y", "action": {"wood": 1}}))
    game = env.unwrapped.game
    second = game.round_scenarios[1]
    partner = P.project_lines(second, "agent_b", game.names)
    assert ("NEW PROJECTS FOR THIS ROUND:\n" + P.project_lines(second, "agent_a", game.names)
            + "\n\nThe other party's projects (revealed to both parties):\n" + partner) in env.observe("agent_a")["prompt"]


def test_json_suffix_of_d14_for_the_seats_that_need_it():
    env = negotiation_env.env(json_suffix="agent_b")
    env.reset(seed=0)
    sys_a, sys_b = (env.observe(a)["conversation"][0]["content"] for a in ("agent_a", "agent_b"))
    suffix = ("IMPORTANT: You MUST respond with ONLY a valid JSON object. No other text before or after. The JSON must "
              "have exactly three fields: 'thinking' (string), 'speech' (string), and 'action' (null or object).")
    assert suffix not in sys_a
    assert "I will guide you through each phase with instructions.\n" + suffix + "\n\n## Your Situation" in sys_b
    assert negotiation_env.env(json_suffix=True).unwrapped.game.config.json_suffix == ("agent_a", "agent_b")
    assert negotiation_env.env(json_suffix=False).unwrapped.game.config.json_suffix == ()
    with pytest.raises(ConfigError, match="json_suffix.*unknown seat 'agent_c'"):
        negotiation_env.env(json_suffix=["agent_c"])
    with pytest.warns(UserWarning, match="'json_suffix' .* has no effect with thinking=False"):
        negotiation_env.env(json_suffix=True, thinking=False)


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
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", reflection=True, num_rounds=2)
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
        ({"prompt_style": "short"}, "prompt_style"),
        ({"prompt_style": "compact"}, r"prompt_style.*thinking=True"),  # thinking is on by default
        ({"prompt_style": "compact", "thinking": False, "transparency": "full"}, r"prompt_style.*transparency='full'"),
        ({"prompt_style": "compact", "thinking": False, "partner": "shifting"}, r"prompt_style.*partner='shifting'"),
        ({"prompt_style": "compact", "thinking": False, "intervention": "theory_of_mind"}, r"prompt_style.*intervention"),
        ({"prompt_style": "compact", "thinking": False, "cheap_talk": False, "solo": True}, r"prompt_style.*solo=True"),
    ],
)
def test_condition_values_are_validated(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        negotiation_env.env(**kwargs)


def _decide_in_current_names(env, agent, units_by_id):
    names = env.infos[agent]["resource_names"]
    return json.dumps({"thinking": "", "speech": "deal", "action": {names[r]: q for r, q in units_by_id.items()}})


def test_themes_are_drawn_per_round_and_announced_to_agents_that_keep_their_context():
    """C.1's reading (theme_scope="round"): each game round is assigned a random theme."""
    themes = []
    for seed in range(50):
        env = negotiation_env.env(num_rounds=4, theme_scope="round")
        env.reset(seed=seed)
        themes.append(env.unwrapped.game.round_themes)
    assert sum(len(set(t)) > 1 for t in themes) >= 45
    seed = next(i for i, t in enumerate(themes) if t[0] != t[1])
    env = negotiation_env.env(scenario=SCRIPTED, num_rounds=2, partner="shifting", theme_scope="round")
    env.reset(seed=seed)
    game = env.unwrapped.game
    old, new = game.round_names
    env.step(_decide_in_current_names(env, "agent_a", {"r2": 2, "r3": 3}))
    env.step(_decide_in_current_names(env, "agent_b", {"r1": 10}))
    last = env.infos["agent_a"]["last_round"]
    assert last["theme"] == themes[seed][0] and last["resource_names"] == old.display and last["joint_reward"] == 27
    # agent_a keeps its context: round 1's result in round 1's names, then the new names
    prompt = env.observe("agent_a")["prompt"]
    r1, r2, r3 = (new.name(r) for r in ("r1", "r2", "r3"))
    mapping = ", ".join(f"{old.name(r)} → {new.name(r)}" for r in ("r1", "r2", "r3") if old.name(r) != new.name(r))
    assert prompt == (
        f'--- Round result: You purchased {{"{old.name("r2")}": 2, "{old.name("r3")}": 3}}, ran projects [project_a×1], '
        f'and earned reward = 17. Opponent purchased {{"{old.name("r1")}": 10}}. ---\n\n'
        f"RESOURCES RENAMED FOR THIS ROUND (same supply, costs and rules; only the names change): {mapping}.\n"
        f"- Resources available: {r1}, {r2}, {r3}\n"
        f'- Resource supply per round: {{"{r1}": 10, "{r2}": 10, "{r3}": 6}}\n'
        f'- Resource costs: {{"{r1}": 1, "{r2}": 1.5, "{r3}": 3}}\n\n'
        "YOUR PROJECTS WITH THE NEW NAMES:\n"
        f"- project_a: requires [{r2}×2, {r3}×3], reward = 17/run\n"
        f"- project_b: requires [{r2}×3, {r3}×1], reward = 5/run\n"
        f"- project_c: requires [{r3}×4], reward = 11/run\n\n"
        "--- CHEAP TALK PHASE (Round 2/2) ---\n"
        'Exchange messages with the other party (up to 5 exchanges this round). Respond with JSON. Set "action" to null '
        "to keep chatting, or to a purchase object to finalize."
    )
    assert env.infos["agent_a"]["theme"] == themes[seed][1]
    # the shifting agent starts afresh: its new system prompt names this round's resources
    env.step(_decide_in_current_names(env, "agent_a", {"r2": 2, "r3": 3}))
    conv_b = env.observe("agent_b")["conversation"]
    assert f"- Resources available: {r1}, {r2}, {r3}" in conv_b[0]["content"]
    assert not any("RESOURCES RENAMED" in m["content"] for m in conv_b)
    env.step(_decide_in_current_names(env, "agent_b", {"r1": 10}))
    assert env.rewards == {"agent_a": 17.0, "agent_b": 10.0}  # the new names are the ones parsed
    assert env.infos["agent_a"]["last_round"]["resource_names"] == new.display


def test_theme_per_game_is_the_default_and_draws_round_ones_theme():
    """§4 and D.8: thematic names are "sampled randomly at game initialization"."""
    seen = set()
    for seed in range(20):
        per_round = negotiation_env.env(num_rounds=4, theme_scope="round")
        per_round.reset(seed=seed)
        per_game = negotiation_env.env(num_rounds=4)
        per_game.reset(seed=seed)
        themes = per_game.unwrapped.game.round_themes
        assert themes == [per_round.unwrapped.game.round_themes[0]] * 4
        seen.add(themes[0])
        # the names an agent reads stay the same over a whole default game
        names = [per_game.unwrapped.game.round_names[i].display for i in range(4)]
        assert all(n == names[0] for n in names)
    assert len(seen) > 3  # the game's theme is still drawn from the seed
    with pytest.warns(UserWarning, match="'theme_scope' = 'round' has no effect with theme='medieval'"):
        negotiation_env.env(theme="medieval", theme_scope="round")
    with pytest.raises(ConfigError, match="theme_scope"):
        negotiation_env.env(theme_scope="match")


def test_shifting_line_on_the_reset_agent_is_an_option():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", partner="shifting", shifting_line="reset",
                              num_rounds=2)
    env.reset(seed=0)
    assert env.observe("agent_a")["conversation"][0]["content"].endswith(P.SITUATION_STABLE)
    env.step(json.dumps({"speech": "hi", "action": {"stone": 2, "gold": 3}}))
    assert env.observe("agent_b")["conversation"][0]["content"].endswith(P.SITUATION_SHIFTING)
    with pytest.raises(ConfigError, match="shifting_line"):
        negotiation_env.env(partner="shifting", shifting_line="both")
    with pytest.warns(UserWarning, match="'shifting_line' = 'reset' has no effect with partner='stable'"):
        negotiation_env.env(shifting_line="reset")


def test_reflection_is_on_by_default_and_a_reset_agent_reflects_on_its_round_only():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", partner="shifting", num_rounds=2)
    env.reset(seed=0)
    env.step(json.dumps({"speech": "hi", "action": {"stone": 2, "gold": 3}}))  # a: 17
    env.step(json.dumps({"speech": "ok", "action": {"wood": 10}}))  # b: 10; M = 27
    env.step(json.dumps({"speech": "hi", "action": {"stone": 2, "gold": 3}}))  # a: 17
    env.step(json.dumps({"speech": "ok", "action": {"wood": 5}}))  # b: 5
    game = env.unwrapped.game
    assert game.phase == "reflection" and not any(env.terminations.values())
    # agent_a kept its context: the whole game's totals (D.5)
    assert env.observe("agent_a")["prompt"].endswith(P.render_reflection(2, 34, 15, 54))
    # agent_b saw round 2 only: its reflection is about that round (1 round, 5 vs 17 of M 27)
    prompt_b = env.observe("agent_b")["prompt"]
    assert prompt_b.endswith(P.render_reflection(1, 5, 17, 27))
    assert "34" not in prompt_b and "54" not in prompt_b
    env.step("We split well.")
    env.step("I should ask for more wood.")
    assert all(env.terminations.values())
    assert env.infos["agent_b"]["reflection"] == "I should ask for more wood."
