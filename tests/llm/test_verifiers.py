"""negotiation_env.online.verifiers: the games as a verifiers 0.4 environment, played
against the project's fake OpenAI-compatible server on 127.0.0.1.

Matrix game (Prisoner's Dilemma, payoffs 3/5/0/1, 3 rounds, no talk): a seat that
always answers B against tit_for_tat earns 5 + 1 + 1 = 7 and leaves it 0 + 1 + 1 = 2;
always A against always B earns 0 per round and leaves the other 5 per round."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

pytest.importorskip("verifiers.v1", reason="verifiers 0.4 is not installed: not part of the test extra "
                                      "(it requires openai<3); see docs/online.md")

import verifiers.v1 as vf  # noqa: E402

from negotiation_env.online import grpo_dataset  # noqa: E402
from negotiation_env.online.verifiers import REWARDS, NegotiationEnv, environment  # noqa: E402

CONFIG = {"treatment": "none", "acknowledgement": False, "num_rounds": 3}
TALK = json.dumps({"thinking": "plan", "speech": "I will buy little this round.", "action": None})
BUY = json.dumps({"thinking": "plan", "speech": "Done.", "action": {}})


def _reply(req: dict) -> str:
    """The learner "m" defects in the matrix game and buys nothing in the resource game;
    the frozen model "opp" cooperates."""
    last = req["messages"][-1]["content"]
    if "DECISION PHASE" in last:
        return BUY
    if "PHASE" in last and "ACTION PHASE" not in last:
        return TALK
    return "B" if req["model"] == "m" else "A"
KEY_VAR = "NEGOTIATION_ENV_TEST_VF_KEY"


async def _episodes(env: NegotiationEnv, ctx: vf.ModelContext, plays: int) -> list:
    tasks = list(env.taskset)
    async with env.serving():
        return [await env.run_episode(t, ctx) for t in tasks for _ in range(plays)]


@pytest.fixture(scope="module")
def played():
    from tests.fakeserver import FakeServer

    server = FakeServer()
    server.reply = _reply
    os.environ[KEY_VAR] = "test-key"
    ctx = vf.ModelContext(model="m", client=vf.EvalClientConfig(base_url=server.url, api_key_var=KEY_VAR))
    try:
        scripted = environment("matrix", [5], ["learner", "scripted:tit_for_tat"], config=CONFIG)
        n_scripted = len(server.requests)
        out = {"scripted": asyncio.run(_episodes(scripted, ctx, plays=2))}
        out["scripted_requests"] = server.requests[n_scripted:]
        frozen = environment("matrix", [0], ["frozen", "learner"], config=CONFIG, seat="agent_1",
                             frozen={"model": "opp"})
        out["frozen"] = asyncio.run(_episodes(frozen, ctx, plays=1))
        cut = environment("matrix", [5], ["learner", "scripted:tit_for_tat"], config=CONFIG, max_steps=3)
        out["cut"] = asyncio.run(_episodes(cut, ctx, plays=1))
        out["resource"] = asyncio.run(_episodes(
            environment("resource", [0], ["learner", "scripted:greedy"], config={"num_rounds": 1}), ctx, plays=1))
        out["rulemaking"] = asyncio.run(_episodes(
            environment("rulemaking", [0], ["learner"] + ["scripted:conceder"] * 4), ctx, plays=1))
        yield out
    finally:
        server.close()
        os.environ.pop(KEY_VAR, None)


def test_learner_against_tit_for_tat_scores_the_closed_form(played):
    eps = played["scripted"]
    assert len(eps) == 2 and all(e.ok for e in eps)
    for e in eps:
        (trace,) = e.traces
        assert trace.agent.name == "learner" and trace.agent.trainable
        assert trace.info["seat"] == "agent_0" and trace.info["row"]["seed"] == 5
        assert trace.info["returns"] == {"agent_0": 7.0, "agent_1": 2.0}
        assert {k: (r.score, r.weight) for k, r in trace.rewards.items()} == {
            "game_return": (7.0, REWARDS["game_return"]), "valid_share": (1.0, REWARDS["valid_share"])}
        assert trace.reward == 7.0
        assert trace.num_turns == 3


def test_a_group_starts_from_the_rows_state(played):
    """Both plays of the row open on the same conversation: the grpo_dataset row's
    prompt (system prompt first), and each later request extends the one before."""
    (row,) = grpo_dataset("matrix", [5], "agent_0", config=CONFIG, as_list=True)
    expected = [{"role": m["role"], "content": m["content"]} for m in row["prompt"]]
    reqs = played["scripted_requests"]
    assert len(reqs) == 6
    firsts = [reqs[0]["messages"], reqs[3]["messages"]]
    assert firsts[0] == firsts[1] == expected
    for a, b in zip(reqs[:2], reqs[1:3]):
        assert b["messages"][:len(a["messages"])] == a["messages"]
        assert b["messages"][len(a["messages"])] == {"role": "assistant", "content": "B"}


def test_frozen_role_plays_untrained_with_its_own_model(played):
    (e,) = played["frozen"]
    assert e.ok
    by_role = {t.agent.name: t for t in e.traces}
    assert set(by_role) == {"frozen", "learner"}
    assert by_role["frozen"].agent.trainable is False and by_role["learner"].agent.trainable is True
    assert by_role["frozen"].agent.config.model == "opp"
    for t in e.traces:  # the frozen seat (A) against the learner (B): 0 and 5 per round
        assert t.info["returns"] == {"agent_0": 0.0, "agent_1": 15.0}
    assert by_role["frozen"].rewards["game_return"].score == 0.0
    assert by_role["learner"].rewards["game_return"].score == 15.0


def test_a_game_cut_at_max_steps_keeps_what_each_seat_earned(played):
    """Three answers: round 1 (B against A: 5 and 0) and the learner's round-2 answer;
    the game is cut at tit_for_tat's round-2 turn."""
    (e,) = played["cut"]
    (trace,) = e.traces
    assert e.ok and trace.info["truncated"] is True and trace.num_turns == 2
    assert trace.info["returns"] == {"agent_0": 5.0, "agent_1": 0.0}
    assert trace.rewards["game_return"].score == 5.0


def test_resource_game_records_joint_efficiency(played):
    """An empty purchase runs no project (return 0); the round's joint efficiency is the
    seats' joint reward over the scenario's joint optimum."""
    import negotiation_env

    (e,) = played["resource"]
    (trace,) = e.traces
    returns = trace.info["returns"]
    assert e.ok and returns["agent_a"] == 0.0 and trace.rewards["valid_share"].score == 1.0
    env = negotiation_env.env(game="resource", num_rounds=1)
    env.reset(seed=0)
    game = env.unwrapped.game
    joint_max = game.solution_for(game.scenario_of(0)).joint_max
    assert joint_max > 0
    assert trace.rewards["joint_efficiency"].score == pytest.approx(sum(returns.values()) / joint_max)
    assert trace.rewards["joint_efficiency"].weight == REWARDS["joint_efficiency"]


def test_a_rebuilt_conversation_fails_the_episode_by_name(played):
    (e,) = played["rulemaking"]
    assert not e.ok
    assert "rebuilt seat authority's conversation" in e.errors[0].message


@pytest.mark.parametrize("kwargs, message", [
    (dict(seats=["learner"]), "has 2 seats"),
    (dict(seats=["scripted:tit_for_tat", "scripted:tit_for_tat"]), "no seat is played by a model role"),
    (dict(seats=["learner", "scripted:tit_for_tat"], seat="agent_1"), "not played by a model role"),
    (dict(seats=["learner", "scripted:tit_for_tat"], weights={"win": 1.0}), "unknown rewards"),
])
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        environment("matrix", [0], config=CONFIG, **kwargs)
