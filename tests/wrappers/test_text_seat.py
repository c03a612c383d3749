"""TextSeatEnv: one seat as a single-agent text Gymnasium env against runner-spec policies."""

from __future__ import annotations

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
