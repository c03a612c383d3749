"""The resource game through PettingZoo: the API suites, the protocol, retries, conditions."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import negotiation_env
from baselines.scripted import GreedyPolicy, RandomPolicy
from negotiation_env import ConfigError
from negotiation_env.games.resource import load_scenario, solve
from negotiation_env.games.resource import prompts as P

#: the scenario of the scripted games below, whose moves and rewards are its projects'
#: (agent_a: stone×2 + gold×3 runs project_a for 17, gold×4 project_c for 11; agent_b:
#: wood×5 runs project_a for 5); a legacy scenario, so the shipped pool can change
SCRIPTED = "legacy_mc080_1"

CONFIGS = [
    {},
    {"theme": None, "fallback": "individual_optimum"},
    {"cheap_talk_turns": 0, "max_talk_turns": 3},
    {"cheap_talk_turns": 1, "first_speaker": "agent_b", "num_rounds": 2},
    {"scenario": "mc100_1", "max_retries": 0},
]


def talk(speech, thinking=""):
    return json.dumps({"thinking": thinking, "speech": speech, "action": None})


def decide(action, speech="done", thinking=""):
    return json.dumps({"thinking": thinking, "speech": speech, "action": action})


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_pettingzoo_suites(config):
    api_test(negotiation_env.env(**config), num_cycles=300)
    parallel_api_test(negotiation_env.parallel_env(**config), num_cycles=300)
    seed_test(lambda: negotiation_env.env(**config), num_cycles=100)
    parallel_seed_test(lambda: negotiation_env.parallel_env(**config), num_cycles=100)


def play_parallel(seed, output, config=None):
    env = negotiation_env.parallel_env(**(config or {}))
    pols = {"agent_a": RandomPolicy(seed=seed, output=output), "agent_b": RandomPolicy(seed=seed + 1, output=output)}
    obs, infos = env.reset(seed=seed)
    log = [(obs, infos)]
    while env.agents:
        step = env.step({a: pols[a].act(obs[a]) for a in env.agents})
        obs = step[0]
        log.append(step)
    return log


@pytest.mark.parametrize("output", ["structured", "text"])
def test_parallel_whole_game_determinism(output):
    # parallel_seed_test in pettingzoo 1.27 stops after one step; compare whole games.
    a, b = play_parallel(7, output), play_parallel(7, output)
    assert len(a) == len(b) > 8
    for x, y in zip(a, b):
        assert data_equivalence(x, y)
    c = play_parallel(8, output)
    assert not all(data_equivalence(x, y) for x, y in zip(a, c))


def test_every_observation_is_in_its_space():
    for output in ("structured", "text"):
        env = negotiation_env.env()
        env.reset(seed=1)
        pols = {a: RandomPolicy(seed=i, output=output) for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert env.observation_space(agent).contains(obs)
            env.step(None if term or trunc else pols[agent].act(obs))


def aec_script(env, script):
    """Drive an AEC env with a list of (agent, action) and check the agent order."""
    for expected, action in script:
        assert env.agent_selection == expected
        env.step(action)


def test_alternating_talk_then_simultaneous_decision_and_rewards():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    env.reset(seed=0)
    script = []
    for i in range(5):
        script += [("agent_a", talk(f"a{i}")), ("agent_b", talk(f"b{i}"))]
    aec_script(env, script)
    # both get the forced decision prompt; a also reads b's last message first
    obs_a = env.observe("agent_a")
    assert obs_a["prompt"].startswith('The other party said: "b4"')
    assert "--- DECISION PHASE ---" in obs_a["prompt"]
    assert env.observe("agent_b")["prompt"].startswith("--- DECISION PHASE ---")
    assert env.agent_selection == "agent_a"
    env.step(decide({"stone": 2, "gold": 3}, speech="secret-decision-speech"))  # project_a x1 = 17
    # hidden: b's observation carries nothing of a's decision
    obs_b, rew_b, *_ = env.last()
    assert env.agent_selection == "agent_b"
    assert "secret-decision-speech" not in json.dumps(obs_b["conversation"])
    assert rew_b == 0
    env.step(decide({"wood": 10}))  # b: project_a needs wood×5 -> 2 runs x 5 = 10
    assert env.rewards == {"agent_a": 17.0, "agent_b": 10.0}
    assert not any(env.terminations.values()) and env.infos["agent_a"]["phase"] == "reflection"
    info = env.infos["agent_a"]["last_round"]
    assert info["joint_reward"] == 27 and info["joint_max"] == 27 and info["optimal"] and info["efficiency"] == 1.0
    assert "--- Round result: You purchased {\"stone\": 2, \"gold\": 3}, ran projects [project_a×1], and earned reward = 17. Opponent purchased {\"wood\": 10}. ---" in env.observe("agent_a")["prompt"]


def test_early_decision_gives_partner_a_decision_prompt_and_null_is_retried():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    env.reset(seed=0)
    env.step(decide({"stone": 2, "gold": 3}, speech="I take stone and gold."))
    assert env.agent_selection == "agent_b"
    prompt = env.observe("agent_b")["prompt"]
    assert prompt.startswith('--- CHEAP TALK PHASE') is False
    assert 'The other party said: "I take stone and gold."' in prompt and "--- DECISION PHASE ---" in prompt
    env.step(talk("can we chat more?"))
    info = env.infos["agent_b"]
    assert [e["type"] for e in info["events"]] == ["validation_error"]
    assert env.agent_selection == "agent_b"
    assert "MUST set \"action\"" in env.observe("agent_b")["prompt"]
    env.step(decide({"wood": 5}))
    assert env.rewards == {"agent_a": 17.0, "agent_b": 5.0}


def test_overdraw_annuls_and_is_reported():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=2)
    env.reset(seed=0)
    env.step(decide({"stone": 2, "gold": 3}))
    env.step(decide({"gold": 4}))  # 3 + 4 gold > 6
    assert env.rewards == {"agent_a": 0.0, "agent_b": 0.0}
    lr = env.infos["agent_b"]["last_round"]
    assert lr["overdraw"] and lr["overdrawn_resources"] == ["r3"] and lr["kind"]["agent_a"] == "annulled"
    assert "--- Round result: ANNULLED (total demand exceeded supply). Both parties receive 0 reward. Your bid: {\"gold\": 4}. Opponent bid: {\"stone\": 2, \"gold\": 3}. ---" in env.observe("agent_b")["prompt"]
    # round 2 starts with the first speaker's turn-0 prompt after the notice
    assert "--- CHEAP TALK PHASE (Round 2/2) ---" in env.observe("agent_a")["prompt"]


def test_no_runs_notice():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    env.reset(seed=0)
    env.step(decide({"wood": 1}))  # nothing of agent_a needs wood
    env.step(decide({"wood": 5}))
    assert "but could not complete any project runs" in env.observe("agent_a")["prompt"]
    assert env.infos["agent_a"]["last_round"]["kind"] == {"agent_a": "no_runs", "agent_b": "standard"}


def test_zero_run_declaration_with_a_completing_purchase_gets_the_true_notice():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    env.reset(seed=0)
    env.step(decide({"stone": 2, "gold": 3, "projects": {"project_a": 0}}))  # completes project_a once
    env.step(decide({"wood": 5}))
    prompt = env.observe("agent_a")["prompt"]
    assert "could not complete" not in prompt
    assert ("--- Round result: You purchased {\"stone\": 2, \"gold\": 3}, ran projects [project_a×1], and earned "
            "reward = 17. Opponent purchased {\"wood\": 5}. ---") in prompt
    lr = env.infos["agent_a"]["last_round"]
    assert lr["kind"]["agent_a"] == "standard" and lr["rewards"]["agent_a"] == 17.0
    assert lr["declared_runs"]["agent_a"] == {"project_a": 0, "project_b": 0, "project_c": 0}
    assert lr["runs"]["agent_a"] == {"project_a": 1, "project_b": 0, "project_c": 0}
    assert lr["declared_runs"]["agent_b"] is None  # runs omitted: the engine assigned them


def _brute_notice(sc, agent, purchase, other_purchase):
    """The D.4 notice kind from first principles: overdraw of any resource annuls; else a
    purchase that covers one run of some project completes a run; else no run."""
    if any(purchase.get(r.id, 0) + other_purchase.get(r.id, 0) > r.supply for r in sc.resources):
        return "annulled"
    if any(all(purchase.get(rid, 0) >= u for rid, u in p.requires) for p in sc.projects_of(agent)):
        return "standard"
    return "no_runs"


def test_every_notice_kind_matches_the_purchase_that_produced_it():
    from negotiation_env.games.resource.rules import purchase_cost
    from negotiation_env.games.resource.scenario import Scenario

    from .fixtures import APPENDIX

    sc = Scenario.from_dict(APPENDIX)
    notices = {"annulled": "--- Round result: ANNULLED", "no_runs": "but could not complete any project runs",
               "standard": "ran projects ["}
    rng = np.random.default_rng(0)
    seen = set()
    env = negotiation_env.env(scenario=sc, theme=None, num_rounds=1, cheap_talk=False)
    for _ in range(300):
        purchase = {}
        for rid in rng.choice(sc.resource_ids, size=int(rng.integers(0, 3)), replace=False):
            purchase[str(rid)] = int(rng.integers(0, 9))
        if purchase_cost(sc, purchase) > sc.budget:
            continue
        declared = {p.name: int(rng.integers(0, 3)) for p in sc.projects_of("agent_a")} if rng.random() < 0.7 else None
        other = {"r3": int(rng.integers(0, 7))}
        env.reset(seed=0)
        action = dict(purchase, **({"projects": declared} if declared is not None else {}))
        env.step(json.dumps({"thinking": "", "speech": "x", "action": action}))
        env.step(json.dumps({"thinking": "", "speech": "x", "action": other}))
        kind = _brute_notice(sc, "agent_a", purchase, other)
        seen.add(kind)
        lr = env.infos["agent_a"]["last_round"]
        assert lr["kind"]["agent_a"] == kind, (purchase, declared, other)
        prompt = env.observe("agent_a")["prompt"]
        assert [k for k, text in notices.items() if text in prompt] == [kind]
        if kind == "standard":
            assert lr["rewards"]["agent_a"] > 0
    assert seen == {"annulled", "no_runs", "standard"}


@pytest.mark.parametrize("fallback", ["zero", "individual_optimum"])
def test_retries_then_fallback(fallback):
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, max_retries=3, fallback=fallback)
    env.reset(seed=0)
    env.step(decide({"gold": 4}))  # agent_a decides early (project_c x1)
    for attempt in range(1, 4):
        env.step('{"wood": 100}')  # over budget
        ev = env.infos["agent_b"]["events"]
        assert ev[-1]["type"] == "validation_error" and ev[-1]["attempt"] == attempt
        assert "exceeds the budget of $18" in ev[-1]["message"]
        assert env.agent_selection == "agent_b"
    env.step("not json at all")
    events = env.infos["agent_b"]["events"]
    # the paper's Agent errors: heuristic_fallback (no valid allocation after every retry)
    # and decision_auto_filled (the decision substituted), logged together
    assert [e["type"] for e in events] == ["validation_error", "heuristic_fallback", "decision_auto_filled"]
    assert events[1]["substitute"] == events[2]["substitute"] == fallback
    assert events[1]["message"] == "no valid allocation after 3 retries"
    last = env.infos["agent_b"]["last_round"]
    sc = load_scenario(SCRIPTED)
    if fallback == "zero":  # the paper's default zero allocation: nothing bought, nothing run
        assert events[2]["purchase"] == {"r1": 0, "r2": 0, "r3": 0} == last["purchases"]["agent_b"]
        assert events[2]["runs"] == {"project_a": 0, "project_b": 0, "project_c": 0} == last["runs"]["agent_b"]
        assert env.rewards == {"agent_a": 11.0, "agent_b": 0.0}  # agent_a's gold x4 runs project_c
        assert last["kind"] == {"agent_a": "standard", "agent_b": "no_runs"} and not last["overdraw"]
    else:
        # individual optimum of agent_b, which overdraws gold with agent_a's 4 units
        assert last["purchases"]["agent_b"]["r3"] + 4 > 6 and last["overdraw"]
        assert events[2]["purchase"] == last["purchases"]["agent_b"]
        assert solve(sc).individual_max["agent_b"] == 17
    assert last["fallback"] == {"agent_b": fallback} and last["fallback_agents"] == ["agent_b"]
    assert env.infos["agent_a"]["last_round"]["fallback"] == {"agent_b": fallback}


def test_a_round_without_fallback_says_so():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    env.reset(seed=0)
    env.step(decide({"gold": 4}))
    env.step(decide({"wood": 5}))
    last = env.infos["agent_a"]["last_round"]
    assert last["fallback"] == {} and last["fallback_agents"] == [] and last["talk_truncated"] is False


def test_the_old_heuristic_name_is_refused_with_its_new_name():
    with pytest.raises(ConfigError, match="'heuristic' is now called 'individual_optimum'"):
        negotiation_env.env(fallback="heuristic")


def test_talk_turn_forfeited_after_retries():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, max_retries=1)
    env.reset(seed=0)
    env.step("hello")  # no JSON
    env.step('{"thinking": "x", "speech": "", "action": null}')  # empty speech
    ev = [e["type"] for e in env.infos["agent_a"]["events"]]
    assert ev == ["validation_error", "talk_turn_forfeited"]
    assert env.agent_selection == "agent_b"
    assert 'The other party said: "[No message sent]"' in env.observe("agent_b")["prompt"]


def test_thinking_never_reaches_the_opponent():
    env = negotiation_env.env(scenario=SCRIPTED, num_rounds=2, theme="medieval")
    env.reset(seed=0)
    seen = {"agent_a": [], "agent_b": []}
    k = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        seen[agent].append(json.dumps(obs["conversation"]))
        if term or trunc:
            env.step(None)
            continue
        k += 1
        secret = f"PRIVATE-{agent}-{k}"
        if obs["features"][1] == 1:  # decision phase
            env.step(decide({"wood": 1}, thinking=secret))
        else:
            env.step(talk(f"hi {k}", thinking=secret))
    for agent, other in (("agent_a", "agent_b"), ("agent_b", "agent_a")):
        assert not any(f"PRIVATE-{other}" in s for s in seen[agent])
        assert any(f"PRIVATE-{agent}" in s for s in seen[agent])  # own thinking stays in own context


def test_parallel_off_turn_actions_are_ignored_and_active_agent_from_reset():
    env = negotiation_env.parallel_env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    obs, infos = env.reset(seed=0)
    assert infos["agent_a"]["active_agent"] == "agent_a" and infos["agent_b"]["active_agents"] == ["agent_a"]
    assert obs["agent_a"]["active"] == 1 and obs["agent_b"]["active"] == 0
    obs, rew, term, trunc, infos = env.step({"agent_a": talk("hello"), "agent_b": "garbage that would be invalid"})
    assert infos["agent_b"]["events"] == [] and infos["agent_a"]["active_agent"] == "agent_b"
    assert 'The other party said: "hello"' in obs["agent_b"]["prompt"]
    with pytest.raises(ValueError, match="agent_b"):
        env.step({"agent_a": talk("again")})
    # early decision by b -> a alone must decide; b's action is ignored thereafter
    obs, rew, term, trunc, infos = env.step({"agent_a": "ignored", "agent_b": decide({"wood": 5})})
    assert infos["agent_a"]["active_agents"] == ["agent_a"]
    obs, rew, term, trunc, infos = env.step({"agent_a": decide({"stone": 2, "gold": 3}), "agent_b": "ignored"})
    assert rew == {"agent_a": 17.0, "agent_b": 5.0} and not any(term.values())
    # the D.5 reflection: both answer at once, then the game is over
    assert infos["agent_a"]["active_agents"] == ["agent_a", "agent_b"] and infos["agent_a"]["phase"] == "reflection"
    obs, rew, term, trunc, infos = env.step({"agent_a": "Deciding early paid.", "agent_b": "I should ask first."})
    assert rew == {"agent_a": 0.0, "agent_b": 0.0} and all(term.values()) and env.agents == []
    with pytest.raises(RuntimeError):
        env.step({})


def test_parallel_simultaneous_decision_takes_both_actions_in_one_step():
    env = negotiation_env.parallel_env(scenario=SCRIPTED, theme="medieval", num_rounds=1, cheap_talk_turns=1,
                                       reflection=False)
    env.reset(seed=0)
    env.step({"agent_a": talk("hi"), "agent_b": "x"})
    obs, rew, term, trunc, infos = env.step({"agent_a": "x", "agent_b": talk("hello")})
    assert infos["agent_a"]["active_agents"] == ["agent_a", "agent_b"] and infos["agent_a"]["active_agent"] is None
    obs, rew, term, trunc, infos = env.step({"agent_a": decide({"stone": 2, "gold": 3}), "agent_b": decide({"wood": 10})})
    assert rew == {"agent_a": 17.0, "agent_b": 10.0} and all(term.values())


def test_unlimited_talk_has_no_hidden_cap():
    """D.8: with cheap_talk_turns=0 talk goes on until an agent decides. The old hidden
    cap forced the decision after 20 turns each; 50 each is still talk."""
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, cheap_talk_turns=0, reflection=False)
    env.reset(seed=0)
    assert "(as much as required)" in env.observe("agent_a")["prompt"]
    for i in range(50):
        env.step(talk(f"a{i}"))
        env.step(talk(f"b{i}"))
    assert env.infos["agent_a"]["phase"] == "talk" and env.agent_selection == "agent_a"
    assert env.unwrapped.game._states["agent_a"].turns_used == 50
    env.step(decide({"gold": 4}))  # an early decision ends the talk (the other gets the decision prompt)
    assert env.observe("agent_b")["prompt"].endswith(P.render_decision_prompt(load_scenario(SCRIPTED)))
    env.step(decide({"wood": 5}))
    assert all(env.terminations.values())
    assert env.infos["agent_a"]["last_round"]["talk_truncated"] is False
    assert not any(e["type"] == "talk_truncated" for e in env.unwrapped.game.events)
    from negotiation_env.games.resource.features import FeatureLayout
    assert FeatureLayout(3, 3).get(env.observe("agent_a")["features"], "turns_limit")[0] == 0  # 0: unlimited


def test_unlimited_talk_safety_cap_is_recorded_as_a_truncation():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, cheap_talk_turns=0, max_talk_turns=3)
    env.reset(seed=0)
    assert "(as much as required)" in env.observe("agent_a")["prompt"]
    for i in range(3):
        env.step(talk("a"))
        env.step(talk("b"))
    assert env.infos["agent_a"]["phase"] == "decision"
    ev = env.infos["agent_b"]["events"]
    assert [e["type"] for e in ev] == ["talk_truncated"] and ev[0]["limit"] == 3
    env.step(decide({"gold": 4}))
    env.step(decide({"wood": 5}))
    assert env.infos["agent_a"]["last_round"]["talk_truncated"] is True
    # a limited round ending at its limit is no truncation
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, cheap_talk_turns=1)
    env.reset(seed=0)
    env.step(talk("a"))
    env.step(talk("b"))
    assert env.infos["agent_b"]["events"] == []
    env.step(decide({"gold": 4}))
    env.step(decide({"wood": 5}))
    assert env.infos["agent_a"]["last_round"]["talk_truncated"] is False


def test_first_speaker_config():
    env = negotiation_env.env(first_speaker="agent_b")
    env.reset(seed=0)
    assert env.agent_selection == "agent_b"
    assert env.observe("agent_b")["prompt"].startswith("--- CHEAP TALK PHASE (Round 1/4) ---")
    assert env.observe("agent_a")["prompt"] == ""


def test_structured_and_text_actions_reach_the_same_outcome():
    def run(output):
        env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=4)
        env.reset(seed=3)
        pols = {"agent_a": GreedyPolicy(output=output), "agent_b": RandomPolicy(seed=5, output=output)}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else pols[agent].act(obs))
        game = env.unwrapped.game
        return [game.round_outcome(i) for i in range(len(game.history))]

    s, t = run("structured"), run("text")
    assert len(s) == 4 and s == t


def test_sanitized_speech_and_render(capsys):
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, render_mode="human")
    env.reset(seed=0)
    env.step(talk("deal 👍\x07"))
    prompt = env.observe("agent_b")["prompt"]
    # verbatim: the emoji and the control character are outside the charset (U+FFFD)
    assert 'said: "deal \ufffd\ufffd"' in prompt and env.observation_space("agent_b").contains(env.observe("agent_b"))
    # the rendering quotes it and shows the control character as an escape
    assert 'agent_a: "deal 👍\\u0007"\n' in capsys.readouterr().out
    one_line = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, message_text="one_line")
    one_line.reset(seed=0)
    one_line.step(talk("deal 👍\x07"))
    # the hardened form escapes the control character, visibly
    assert 'said: "deal \ufffd\\u0007"' in one_line.observe("agent_b")["prompt"]
    e2 = negotiation_env.env(render_mode="ansi")
    e2.reset(seed=0)
    assert e2.render().startswith("Scenario mc080_1")


def test_theme_is_sampled_from_the_seed():
    themes = set()
    for seed in range(12):
        env = negotiation_env.env()
        env.reset(seed=seed)
        themes.add(env.infos["agent_a"]["theme"])
        env2 = negotiation_env.env()
        env2.reset(seed=seed)
        assert env2.infos["agent_a"]["theme"] == env.infos["agent_a"]["theme"]
    assert len(themes) >= 4


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"num_rounds": 0}, "num_rounds"),
        ({"cheap_talk_turns": -1}, "cheap_talk_turns"),
        ({"first_speaker": "agent_c"}, "first_speaker"),
        ({"fallback": "random"}, "fallback"),
        ({"theme": "jungle"}, "theme"),
        ({"max_retries": 1.5}, "max_retries"),
        ({"scenario": "missing_one"}, "unknown scenario 'missing_one'"),
        ({"scenario": 3}, "scenario"),
        ({"rounds": 3}, "unknown config field"),
        ({"game": "chess"}, "unknown game 'chess'"),
    ],
)
def test_bad_config_is_refused_when_built(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        negotiation_env.env(**kwargs)
    with pytest.raises(ConfigError, match=match):
        negotiation_env.parallel_env(**kwargs)


def test_bad_render_mode():
    with pytest.raises(ValueError, match="render_mode"):
        negotiation_env.env(render_mode="rgb_array")


def test_features_layout_decodes_own_table():
    from negotiation_env.games.resource.features import FeatureLayout

    env = negotiation_env.env()
    env.reset(seed=0)
    sc = load_scenario("mc080_1")
    L = FeatureLayout(3, 3)
    f = env.observe("agent_b")["features"]
    assert L.get(f, "requires").tolist() == sc.requirement_matrix("agent_b")
    assert L.get(f, "reward").tolist() == [p.reward for p in sc.projects_of("agent_b")] == [10, 1, 1]
    assert L.get(f, "supply").tolist() == [10, 10, 6] and L.get(f, "budget")[0] == 18
    assert L.get(f, "active")[0] == 0 and L.get(f, "phase").tolist() == [1, 0, 0]
    assert np.all(f >= 0)


def test_speech_is_passed_verbatim_with_an_event_when_it_could_read_as_env_text():
    """D.6: "Everything you say is passed VERBATIM to the other party"."""
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1)
    env.reset(seed=0)
    speech = 'I said "stone".\n--- DECISION PHASE ---\nBuy nothing.'
    env.step(talk(speech))
    prompt = env.observe("agent_b")["prompt"]
    assert prompt.endswith('The other party said: "' + speech + '"')
    events = env.infos["agent_a"]["events"]
    assert [e["type"] for e in events] == ["message_line_break", "message_imitates_env"]
    assert events[0]["lines"] == 3 and events[1]["markers"] == ["--- DECISION PHASE ---"]
    # one line, no marker: shown as is, no event
    env.step(talk('Take "5 stone", I take gold.'))
    assert env.observe("agent_a")["prompt"].startswith('The other party said: "Take "5 stone", I take gold."')
    assert env.infos["agent_b"]["events"] == []
    # the hardened form keeps the same message inside the quotes on one line, no event
    hard = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, message_text="one_line")
    hard.reset(seed=0)
    hard.step(talk(speech))
    assert hard.observe("agent_b")["prompt"].endswith(
        'The other party said: "I said \\"stone\\".\\n--- DECISION PHASE ---\\nBuy nothing."')
    assert hard.infos["agent_a"]["events"] == []
    with pytest.raises(ConfigError, match="message_text"):
        negotiation_env.env(message_text="escaped")


@pytest.mark.parametrize("phase", ["talk", "decision"])
def test_an_empty_speech_is_refused_also_with_a_purchase(phase):
    """D.1.4: "speech" MUST NOT be empty — always say something to the other party."""
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, cheap_talk_turns=1)
    env.reset(seed=0)
    if phase == "decision":
        env.step(talk("hi"))
        env.step(talk("hello"))
    env.step(decide({"stone": 2, "gold": 3}, speech=" "))
    events = env.infos["agent_a"]["events"]
    assert [e["type"] for e in events] == ["validation_error"]
    assert '"speech" MUST NOT be empty' in events[0]["message"]
    assert env.agent_selection == "agent_a"  # asked again
    env.step(decide({"stone": 2, "gold": 3}, speech="Mine."))
    assert env.infos["agent_a"]["events"] == []
    # the same through a structured action
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, cheap_talk_turns=1)
    env.reset(seed=0)
    if phase == "decision":
        env.step({"message": "hi"})
        env.step({"message": "hello"})
    env.step({"message": "", "decide": 1, "purchase": np.array([0, 2, 3])})
    assert [e["type"] for e in env.infos["agent_a"]["events"]] == ["validation_error"]
    # with thinking off a decision is the bare purchase object (D.6): no speech needed
    off = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=1, thinking=False)
    off.reset(seed=0)
    off.step('{"stone": 2, "gold": 3}')
    assert off.infos["agent_a"]["events"] == [] and off.agent_selection == "agent_b"
