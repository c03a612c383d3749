"""The matrix game with model policies: complete games, policy replay of recorded
decisions under the Experiment 1 and 2 conditions, and closed-loop interventions."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from baselines.llm.hf import HFPolicy  # noqa: E402
from baselines.llm.replay import (EXPERIMENT_1, EXPERIMENT_2, NATURAL, is_action_decision,  # noqa: E402
                                  message_direction, play_matrix, replay_decisions, split_decisions)
from baselines.llm.steering import Ablate, Steer, random_direction  # noqa: E402
from negotiation_env.analysis.expected_switching import condition_effects, history_message_interaction  # noqa: E402
from negotiation_env.games.matrix import LAYOUT  # noqa: E402
from negotiation_env.runner import make_plan, parse_config, play_game  # noqa: E402

MATRIX = {"num_rounds": 4, "on_error": "continue"}


@pytest.fixture(scope="module")
def sampler(tiny_model):
    return HFPolicy(tiny_model, temperature=1.0, max_new_tokens=6, seed=0, device="cpu")


@pytest.fixture(scope="module")
def played(sampler):
    """A 4-round communication dyad, with the observation of every action decision."""
    seen = {}
    real = sampler.act

    def act(obs):
        if is_action_decision(obs):
            rnd = int(np.asarray(obs["features"])[LAYOUT.slice("round")][0]) + 1
            agent = "agent_0" if obs["conversation"][0]["content"].startswith("You are Agent 0") else None
            seen.setdefault(rnd, []).append((agent, obs))
        return real(obs)

    sampler.act = act
    try:
        trace = play_matrix(sampler, seed=4, **MATRIX)
    finally:
        del sampler.act
    return trace, seen


@pytest.fixture(scope="module")
def rows(played, sampler):
    """Every decision of the dyad under every condition (a trace of another game is skipped)."""
    return list(replay_decisions([played[0], {"game": "resource"}], sampler, batch_size=7))


def test_a_complete_matrix_game_through_the_runner(tiny_model):
    cfg = {"name": "m", "seed": 1, "games": [{
        "game": "matrix", "policies": [{"spec": f"hf:{tiny_model}", "label": "tiny",
                                        "options": {"temperature": 0.0, "max_new_tokens": 6, "device": "cpu"}}],
        "pairings": "self", "games_per_cell": 1, "config": {"num_rounds": 3, "on_error": "retry"}}]}
    spec = make_plan(parse_config(cfg)).specs[0]
    t = play_game(spec)
    assert t["status"] == "complete" and len(t["rounds"]) == 3
    events = [e["type"] for s in t["steps"] for e in s["events"]]
    assert "validation_error" in events and "action_fallback" in events  # gibberish, retried, then B
    assert all(s["tokens"]["completion_tokens"] >= 1 for s in t["steps"])


def test_is_action_decision_reads_the_phase(played):
    trace, seen = played
    assert sum(len(v) for v in seen.values()) == 2 * 4  # two agents, four rounds
    message_obs = {"features": np.zeros(LAYOUT.size), "prompt": "x", "conversation": ()}
    message_obs["features"][LAYOUT.slice("phase")][1] = 1
    assert not is_action_decision(message_obs) and not is_action_decision("text")


def test_replay_rows_cover_every_decision_and_condition(rows):
    conds = (NATURAL,) + EXPERIMENT_1 + EXPERIMENT_2
    assert len(rows) == 2 * 4 * len(conds)
    assert {(r["agent"], r["round"], r["condition"]) for r in rows} == \
        {(a, t, c) for a in ("agent_0", "agent_1") for t in range(1, 5) for c in conds}
    assert all(0.0 <= r["p_a"] <= 1.0 and not r["censored"] for r in rows)
    assert rows[0]["stage_game"] == "prisoners_dilemma" and rows[0]["framing"] == "neutral"
    assert rows[0]["treatment"] == "communication" and rows[0]["policy"] == "hf"
    # conditions are different prompts, so their policies differ
    by = {(r["agent"], r["round"], r["condition"]): r["p_a"] for r in rows}
    assert len({round(by[("agent_0", 2, c)], 9) for c in conds}) > 5
    json.dumps(rows)  # rows are plain JSON


def test_pre_action_replay_is_the_decision_the_agent_faced(played, sampler):
    trace, seen = played
    # one decision a forward pass, as action_probs(obs) is scored (batch padding moves float32 logits ~1e-5)
    rows = {(r["agent"], r["round"]): r["p_a"] for r in replay_decisions([trace], sampler, (NATURAL,),
                                                                           agents=["agent_0"], batch_size=1)}
    for rnd, decisions in seen.items():
        for agent, obs in decisions:
            if agent == "agent_0":
                assert rows[("agent_0", rnd)] == pytest.approx(sampler.action_probs(obs).p, rel=1e-5)


def test_replay_at_the_policys_temperature(played, sampler):
    trace, seen = played
    hot = {(r["agent"], r["round"]): r["p_a"] for r in replay_decisions([trace], sampler, (NATURAL,), agents=["agent_0"],
                                                                          batch_size=1, temperature=0.5)}
    for rnd, decisions in seen.items():
        for agent, obs in decisions:
            if agent == "agent_0":
                assert hot[("agent_0", rnd)] == pytest.approx(sampler.action_probs(obs, temperature=0.5).p, rel=1e-5)
                assert hot[("agent_0", rnd)] != pytest.approx(sampler.action_probs(obs).p, rel=1e-4)


def test_replay_feeds_the_expected_switching_tables(rows):
    eff = condition_effects(rows, n_resamples=50)
    assert set(eff) == set(EXPERIMENT_1 + EXPERIMENT_2 + (NATURAL,)) - {"no_message"}
    for e in eff.values():
        assert e["total"] == pytest.approx(e["drift"] + e["uncertainty"]) and e["dyads"] == 1
    hm = history_message_interaction(rows, n_resamples=50, by_round=True)
    assert hm["total"] == pytest.approx(hm["drift"] + hm["uncertainty"])
    assert hm["total"] == pytest.approx((hm["sp_minus_mb_after_A"] - hm["sp_minus_mb_after_B"]) / 2)
    assert sorted(hm["rounds"]) == [2, 3, 4]


def test_message_direction_and_closed_loop_ablation(played, sampler, tiny_model):
    trace, _ = played
    keys = [(trace, a, r) for a in ("agent_0", "agent_1") for r in range(1, 5)]
    build, held = split_decisions(keys)
    assert len(build) == 5 and len(held) == 3 and set(map(id, build + held)) == set(map(id, keys))
    assert split_decisions(keys)[0] == build  # deterministic
    d = message_direction(sampler, build, [1, 2])
    assert set(d) == {1, 2} and float(d[2].norm()) == pytest.approx(1.0, abs=1e-5)
    held_obs = [__import__("negotiation_env.games.matrix", fromlist=["x"]).replay_observation(t, a, r, "no_message")
                for t, a, r in held]
    clean = sampler.next_token_logits(held_obs)
    with sampler.intervene(Ablate(2, d[2])):
        assert not torch.allclose(sampler.next_token_logits(held_obs), clean, atol=1e-4)

    # closed loop: the same seed replays the clean game exactly; an intervention at action
    # decisions only leaves round 1's messages alone and changes what the actions read
    pol = HFPolicy(tiny_model, temperature=1.0, max_new_tokens=6, seed=0, device="cpu")
    clean_a = play_matrix(pol, seed=9, **MATRIX)
    clean_b = play_matrix(pol, seed=9, **MATRIX)
    assert [s.action for s in clean_a.steps] == [s.action for s in clean_b.steps]
    big = Steer(1, random_direction(pol.model.config.hidden_size, seed=1, norm=50.0), 1.0)
    steered = play_matrix(pol, seed=9, interventions=[big], **MATRIX)
    first = lambda t, phase: [s.action for s in t.steps if s.round == 1 and s.phase == phase]  # noqa: E731
    every = lambda t, phase: [s.action for s in t.steps if s.phase == phase]  # noqa: E731
    assert first(steered, "acknowledge") == first(clean_a, "acknowledge")  # the acknowledgement call (default)
    assert first(steered, "message") == first(clean_a, "message")
    assert every(steered, "action") != every(clean_a, "action")
    assert steered.status == "complete"
