"""TextSeatEnv: one seat as a single-agent text Gymnasium env against runner-spec policies."""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import negotiation_env
from baselines.scripted import make
from negotiation_env.traces import record
from negotiation_env.wrappers import TEXT_SEAT_ID, TextSeatEnv


def test_registered_id_and_gymnasium_checker():
    env = gym.make(TEXT_SEAT_ID, game="matrix", learner="agent_1", config={"num_rounds": 2},
                   opponents={"agent_0": {"spec": "scripted:tit_for_tat"}})
    assert env.spec.entry_point == "negotiation_env.wrappers.text_seat:TextSeatEnv"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Gymnasium warns about the unbounded feature Box
        check_env(env.unwrapped, skip_render_check=True)


def test_an_episode_pays_the_seats_game_return():
    """The learner (linear) against the oracle: the env's rewards sum to what the same game
    pays agent_b when played directly with the same seeds."""
    env = TextSeatEnv("resource", "agent_b", {"num_rounds": 2}, {"agent_a": "scripted:oracle"})
    me = make("linear", seed=1, output="text")
    obs, info = env.reset(options={"seeds": {"env": 3, "policies": {"agent_a": 7}}})
    assert obs["features"].dtype == np.float32 and obs["prompt"].startswith("--- CHEAP TALK PHASE")
    total, steps, done = 0.0, 0, False
    while not done:
        obs, r, term, trunc, info = env.step(me.act(env.env.observe("agent_b")))
        total, steps, done = total + r, steps + 1, term or trunc
    assert term and not trunc and obs["prompt"] == ""
    with pytest.raises(RuntimeError, match="after the game ended"):
        env.step("hello")

    pol = {"agent_a": make("oracle", seed=7, output="text"), "agent_b": make("linear", seed=1, output="text")}
    direct = record(negotiation_env.env(game="resource", num_rounds=2), policies=pol)
    direct.reset(seed=3)
    for agent in direct.agent_iter():
        o, _r, t, tr, _i = direct.last()
        direct.step(None if t or tr else pol[agent].act(o))
    trace = direct.last_trace
    assert total == pytest.approx(trace.returns["agent_b"])
    assert steps == sum(s.agent == "agent_b" for s in trace.steps)


def test_reset_draws_variants_by_weight_and_reproducibly():
    variants = [{"config": {"num_rounds": 1, "stage_game": "stag_hunt"}, "opponents": {"agent_0": "scripted:always_a"},
                 "weight": 3},
                {"config": {"num_rounds": 1, "stage_game": "harmony"}, "opponents": {"agent_0": "scripted:always_b"},
                 "weight": 1}]
    env = TextSeatEnv("matrix", "agent_1", variants=variants)
    drawn = [env.reset(seed=s)[1]["variant"] for s in range(200)]
    assert 0.65 < drawn.count(0) / 200 < 0.85  # weight 3 of 4 (a fixed seed sequence: no flake)
    a, b = env.reset(seed=11), env.reset(seed=11)
    assert a[1]["variant"] == b[1]["variant"] and a[0]["prompt"] == b[0]["prompt"]
    assert env.reset(options={"variant": 1})[1]["variant"] == 1


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="learner must be one of agent_0, agent_1"):
        TextSeatEnv("matrix", "agent_9", {}, {"agent_0": "scripted:always_a"})
    with pytest.raises(ValueError, match=r"must name every seat but the learner's \(agent_a\)"):
        TextSeatEnv("resource", "agent_b", {}, {})
    with pytest.raises(ValueError, match="weight must be a positive number"):
        TextSeatEnv("matrix", "agent_1", variants=[{"config": {}, "opponents": {"agent_0": "scripted:always_a"},
                                                     "weight": 0}])
    with pytest.raises(ValueError, match="game must be one of"):
        TextSeatEnv("chess", "white", {}, {})
    env = TextSeatEnv("matrix", "agent_1", {}, {"agent_0": "scripted:always_a"})
    with pytest.raises(RuntimeError, match="call reset"):
        env.step("A")
    with pytest.raises(ValueError, match=r"options\['variant'\] must be an int in \[0, 1\)"):
        env.reset(options={"variant": 1})


# --------------------------------------------------------------------------- the seat's context

RULEMAKING_OTHERS = {s: "scripted:hardliner" for s in ("continental_bank", "apex_financial", "industry_council",
                                                       "public_interest")}
#: (game, learner, config, opponents, the learner's own policy): one case per game, and the
#: resource game with a shifting partner (the learner's context reset every round)
CONTEXT_CASES = {
    "resource": ("resource", "agent_b", {"num_rounds": 2}, {"agent_a": "scripted:oracle"}, "scripted:greedy"),
    "resource_shifting": ("resource", "agent_b", {"num_rounds": 3, "partner": "shifting"},
                          {"agent_a": "scripted:oracle"}, "scripted:greedy"),
    "matrix": ("matrix", "agent_1", {"num_rounds": 3, "treatment": "communication"},
               {"agent_0": "scripted:tit_for_tat"}, "scripted:always_b"),
    "rulemaking": ("rulemaking", "authority", {"environment": "E1"}, RULEMAKING_OTHERS, "scripted:conceder"),
    "dond": ("dond", "agent_1", {}, {"agent_0": "scripted:greedy_concede"}, "scripted:greedy_concede"),
}


def _play_seat(case, seed=1):
    """Play the case's learner with its own policy; per decision (observation, the game's own
    observation of the learner, info), then the final (observation, info)."""
    game, learner, config, opponents, mine = CONTEXT_CASES[case]
    env = TextSeatEnv(game, learner, config, opponents)
    me = env._policy({"spec": mine, "options": {}}, 5)
    obs, info = env.reset(seed=seed)
    decisions, done = [], False
    while not done:
        own = env.env.observe(learner)
        decisions.append((obs, own, info))
        obs, _r, term, trunc, info = env.step(me.act(own))
        done = term or trunc
    return env, decisions, (obs, info)


@pytest.mark.parametrize("case", sorted(CONTEXT_CASES))
def test_observations_carry_the_system_prompt_and_whole_context(case):
    env, decisions, (final, _) = _play_seat(case)
    assert len(decisions) >= 2
    for obs, own, _info in decisions:
        conversation = [{"role": m["role"], "content": m["content"]} for m in own["conversation"]]
        assert conversation[0]["role"] == "system" and len(conversation[0]["content"]) > 1000
        assert obs["system"] == conversation[0]["content"]
        assert json.loads(obs["messages"]) == conversation
        assert conversation[-1]["content"] == obs["prompt"]  # the pending prompt, last
        assert env.observation_space.contains(obs)
    assert final["prompt"] == final["messages"] == "" and final["system"] == decisions[-1][0]["system"]
    assert env.observation_space.contains(final)


@pytest.mark.parametrize("case", sorted(CONTEXT_CASES))
def test_append_only_says_where_the_context_is_rebuilt(case):
    """By the games' rules: a stable resource seat, matrix and dond seats only ever append to
    their conversation; a shifting-partner seat is reset to a fresh system prompt at each
    new round; every rulemaking turn is rendered afresh."""
    _env, decisions, (_, final_info) = _play_seat(case)
    flags = [info["append_only"] for _obs, _own, info in decisions]
    rounds = [info["game_info"].get("round") for _obs, _own, info in decisions]
    if case == "resource_shifting":
        expected = [k == 0 or rounds[k] == rounds[k - 1] for k in range(len(flags))]
        assert len(set(rounds)) == 3 and expected.count(False) == 2
    elif case == "rulemaking":
        expected = [True] + [False] * (len(flags) - 1)
    else:
        expected = [True] * len(flags)
    assert flags == expected
    assert final_info["append_only"] is True
    # where it holds, the previous decision's context is the start of this one
    for (prev, _, _), (obs, _, info) in zip(decisions, decisions[1:]):
        before, now = json.loads(prev["messages"]), json.loads(obs["messages"])
        assert (now[:len(before)] == before) == info["append_only"]


def test_context_false_keeps_the_two_key_spaces():
    env = TextSeatEnv("matrix", "agent_1", {"num_rounds": 2}, {"agent_0": "scripted:tit_for_tat"}, context=False)
    assert sorted(env.observation_space.spaces) == ["features", "prompt"]
    obs, info = env.reset(seed=0)
    assert sorted(obs) == ["features", "prompt"] and info["append_only"] is True
    assert env.observation_space.contains(obs)
    with pytest.raises(ValueError, match="context must be True or False"):
        TextSeatEnv("matrix", "agent_1", {}, {"agent_0": "scripted:always_a"}, context="yes")
