"""Replay hooks (seed 002 Experiments 1 and 2): every condition of Tables S6 and S8 along a
fixed recorded history, the same from a live game, a trace with context and a trace
without context; golden text of all conditions of one decision."""

from __future__ import annotations

import json

import pytest

import negotiation_env
from baselines.scripted.matrix import make
from negotiation_env.games.matrix import prompts
from negotiation_env.games.matrix.replay import (EXPERIMENT_1, EXPERIMENT_2, REPLAY_CONDITIONS, ReplayError, ReplayTexts,
                                                 decision_keys, replay_observation)
from negotiation_env.traces import GameTrace, record

from .test_prompts import check_golden

A0, A1 = "agent_0", "agent_1"
ACTION = prompts.ACTION_PROMPT


def play(context=True, **cfg):
    """A recorded dyad of text answers (wsls vs tit_for_tat) and its env."""
    pol = {A0: make("wsls", seed=0, output="text"), A1: make("tit_for_tat", seed=1, output="text", first="B")}
    env = record(negotiation_env.env(game="matrix", **{"num_rounds": 4, **cfg}), policies=pol, keep=True,
                 context=context)
    env.reset(seed=5)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env, env.last_trace.to_dict()


@pytest.fixture(scope="module")
def dyad():
    return play()


def test_the_three_sources_agree_on_every_decision_and_condition(dyad):
    env, trace = dyad
    _, no_context = play(context=False)
    assert all(s["context"] is None for s in no_context["steps"])
    keys = decision_keys(trace)
    assert keys == decision_keys(env) == [(a, r) for r in range(1, 5) for a in (A0, A1)]
    for agent, rnd in keys:
        for cond in REPLAY_CONDITIONS:
            want = replay_observation(env, agent, rnd, cond)
            assert replay_observation(trace, agent, rnd, cond) == {**want, "replay": {**want["replay"],
                                                                                    "game_id": trace["game_id"]}}
            got = replay_observation(GameTrace.from_dict(no_context), agent, rnd, cond)
            assert got["conversation"] == want["conversation"]
            assert want["conversation"][-1]["role"] == "user" and want["prompt"] == want["conversation"][-1]["content"]


def test_pre_action_is_exactly_what_the_agent_answered(dyad):
    _, trace = dyad
    steps = [s for s in trace["steps"] if s["agent"] == A1]
    conv = []
    for s in steps:
        conv = conv + s["context"]
        if s["round"] == 3 and s["phase"] == "action":
            break
    assert list(replay_observation(trace, A1, 3, "pre_action")["conversation"]) == conv


def test_experiment_1_blocks(dyad):
    env, trace = dyad
    g = env.unwrapped.game
    own, partner = g.outcomes[1]["messages"][A0], g.outcomes[1]["messages"][A1]
    assert (own, partner) == ("I intend to choose B this round.", "I intend to choose A this round.")
    prev = g.outcomes[0]
    prefix = prompts.render_result(1, "1", prev["actions"][A0], prev["actions"][A1], prev["payoffs"][A0],
                                   prev["cumulative"][A0])
    history = g.history_before(A0, 2)
    obs = {c: replay_observation(trace, A0, 2, c) for c in EXPERIMENT_1}
    for c in ("partner_message", "own_as_partner", "dummy", "partner_dummy", "no_message"):
        assert list(obs[c]["conversation"][:-1]) == history
    assert obs["partner_message"]["prompt"] == f"{prefix}\n\nMessage received from counterpart:\nAgent 1: {partner}\n\n{ACTION}"
    assert obs["own_as_partner"]["prompt"] == f"{prefix}\n\nMessage received from counterpart:\nAgent 1: {own}\n\n{ACTION}"
    assert obs["dummy"]["prompt"] == (f"{prefix}\n\nExtra unrelated text shown before the action phase:\n"
                                      f"The sky is blue. Grass is green. Seven is odd. Squares have four sides.\n\n{ACTION}")
    assert obs["partner_dummy"]["prompt"] == (f"{prefix}\n\nMessage received from counterpart:\nAgent 1: The sky is blue. "
                                              f"Grass is green. Seven is odd. Squares have four sides.\n\n{ACTION}")
    assert obs["no_message"]["prompt"] == f"{prefix}\n\n{ACTION}"
    for c, text in (("own_public", own), ("partner_as_own_public", partner)):
        conv = list(obs[c]["conversation"])
        assert conv[:-3] == history
        assert conv[-3:] == [{"role": "user", "content": f"{prefix}\n\n{prompts.MESSAGE_PROMPT}"},
                             {"role": "assistant", "content": text}, {"role": "user", "content": ACTION}]
    # own_public is the real exchange without the received block
    assert list(obs["own_public"]["conversation"][:-1]) == list(replay_observation(trace, A0, 2, "pre_action")["conversation"][:-1])
    assert obs["no_message"]["replay"] == {"agent": A0, "round": 2, "condition": "no_message", "own_action": g.outcomes[1]["actions"][A0],
                                           "partner_action": g.outcomes[1]["actions"][A1], "own_message": own,
                                           "partner_message": partner, "game_id": trace["game_id"]}


def test_experiment_2_cells_and_round_one(dyad):
    _, trace = dyad
    for cell in EXPERIMENT_2:
        hist, kind = cell.split("/")
        msg = prompts.MUTUAL_BENEFIT if kind == "MB" else prompts.SELF_PRIORITY
        p = replay_observation(trace, A1, 3, cell)["prompt"]
        assert p == (f"Round 2 complete.\n\nInteraction results:\nWith Agent 0: You chose A, they chose {hist}\n\n"
                     f"Message received from counterpart:\nAgent 0: {msg}\n\n{ACTION}")
    first = replay_observation(trace, A0, 1, "B/SP")["prompt"]
    assert first.startswith("Round 0 complete.\n\nInteraction results:\nWith Agent 1: You chose A, they chose B\n\n")
    assert replay_observation(trace, A0, 1, "no_message")["prompt"] == f"The interaction begins. {ACTION}"
    assert [m["role"] for m in replay_observation(trace, A0, 1, "no_message")["conversation"]] == \
        ["system", "assistant", "user"]  # the acknowledgement (default) stays in the history


def test_golden_all_conditions_of_one_decision(dyad):
    _, trace = dyad
    parts = []
    for cond in REPLAY_CONDITIONS:
        conv = replay_observation(trace, A0, 2, cond)["conversation"]
        tail = conv[len(conv) - 3:] if cond in ("own_public", "partner_as_own_public", "pre_action") else conv[-1:]
        parts.append(f"##### {cond} ({len(conv)} messages)\n" + "\n---\n".join(f"[{m['role']}] {m['content']}" for m in tail))
    check_golden("replay_round2_agent_0.txt", "\n\n".join(parts) + "\n")


def test_acknowledgement_stays_in_the_replayed_history(dyad):
    _, trace = dyad  # the default: with the acknowledgement call
    conv = replay_observation(trace, A1, 1, "no_message")["conversation"]
    assert [m["role"] for m in conv] == ["system", "assistant", "user"] and conv[1]["content"] == "Understood."
    _, without = play(acknowledgement=False)
    assert [m["role"] for m in replay_observation(without, A1, 1, "no_message")["conversation"]] == ["system", "user"]


def test_no_communication_dyads_replay_only_conditions_without_their_messages():
    _, trace = play(treatment="none")
    assert replay_observation(trace, A0, 2, "pre_action")["prompt"].endswith(ACTION)
    assert replay_observation(trace, A0, 2, "no_message")["conversation"] == \
        replay_observation(trace, A0, 2, "pre_action")["conversation"]
    assert "Agent 1: I intend to pursue" in replay_observation(trace, A0, 2, "A/MB")["prompt"]
    for cond in ("partner_message", "own_as_partner", "partner_as_own_public", "own_public"):
        with pytest.raises(ReplayError, match="played without communication"):
            replay_observation(trace, A0, 2, cond)


def test_texts_can_be_replaced(dyad):
    _, trace = dyad
    t = ReplayTexts(dummy="Water is wet.", mutual_benefit="Let us both win.", self_priority="Me first.")
    assert "Agent 1: Water is wet." in replay_observation(trace, A0, 2, "partner_dummy", t)["prompt"]
    assert "Agent 1: Me first." in replay_observation(trace, A0, 2, "B/SP", t)["prompt"]


@pytest.mark.parametrize("message_text, shown", [("verbatim", "two\nlines"), ("one_line", "two\\nlines")])
def test_rendering_of_endogenous_text_follows_the_config(message_text, shown):
    env = negotiation_env.env(game="matrix", num_rounds=1, message_text=message_text)
    env.reset(seed=0)
    for answer in ("Understood.", "Understood.", "two\nlines", "ok", "A", "A"):
        env.step(answer)
    assert f"Agent 0: {shown}\n\n" in replay_observation(env, A1, 1, "partner_message")["prompt"]
    assert replay_observation(env, A0, 1, "own_public")["conversation"][-2]["content"] == "two\nlines"


def test_errors_name_the_problem(dyad):
    env, trace = dyad
    with pytest.raises(ReplayError, match="unknown replay condition 'C/MB'; one of pre_action, partner_message"):
        replay_observation(trace, A0, 1, "C/MB")
    with pytest.raises(ReplayError, match="round must be a resolved round, 1 to 4; got 5"):
        replay_observation(trace, A0, 5, "no_message")
    with pytest.raises(ReplayError, match="round must be a resolved round"):
        replay_observation(trace, A0, 0, "no_message")
    with pytest.raises(ReplayError, match="unknown agent 'agent_2'"):
        replay_observation(env, "agent_2", 1, "no_message")
    with pytest.raises(ReplayError, match="of game 'resource', not 'matrix'"):
        replay_observation({**trace, "game": "resource"}, A0, 1, "no_message")
    with pytest.raises(ReplayError, match="source must be a matrix trace"):
        replay_observation(42, A0, 1, "no_message")
    bad = json.loads(json.dumps(trace))
    for s in bad["steps"]:
        s["context"] = None
    bad["steps"] = bad["steps"][1:]  # the resimulation cannot follow a trace that skips a step
    with pytest.raises(ReplayError, match="does not act at this point"):
        replay_observation(bad, A0, 1, "no_message")


def test_a_parallel_recorded_trace_replays_the_same(dyad):
    _, trace = dyad
    pol = {A0: make("wsls", seed=0, output="text"), A1: make("tit_for_tat", seed=1, output="text", first="B")}
    env = record(negotiation_env.parallel_env(game="matrix", num_rounds=4), policies=pol, keep=True)
    obs, _ = env.reset(seed=5)
    while env.agents:
        obs, *_ = env.step({a: pol[a].act(obs[a]) for a in env.agents})
    ptrace = env.last_trace.to_dict()
    assert [r["outcome"] for r in ptrace["rounds"]] == [r["outcome"] for r in trace["rounds"]]
    for agent, rnd in decision_keys(trace):
        for cond in ("pre_action", "partner_message", "own_public", "B/MB"):
            assert replay_observation(ptrace, agent, rnd, cond)["conversation"] == \
                replay_observation(trace, agent, rnd, cond)["conversation"]
