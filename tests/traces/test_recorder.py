import re

import numpy as np

import negotiation_env
from baselines.scripted import make
from negotiation_env.traces import TraceWriter, read_traces, record
from negotiation_env.traces.recorder import ParallelTraceRecorder, TraceRecorder

from .helpers import play_aec


def test_aec_recorder_matches_the_loop():
    trace, seen, env = play_aec(seed=2, rounds=3)
    game = env.unwrapped.game
    assert isinstance(env, TraceRecorder)
    assert [s.agent for s in trace.steps] == [a for a, _ in seen]
    assert [s.observation for s in trace.steps] == [o["prompt"] for _, o in seen]
    for s, (_, o) in zip(trace.steps, seen):
        np.testing.assert_array_equal(np.asarray(s.features, dtype=np.float32), o["features"])
    # the rebuilt context of every step is exactly the conversation the agent saw
    for ctx, (_, o) in zip(trace.contexts(), seen):
        assert ctx == [dict(m) for m in o["conversation"]]
    assert sum(s.context_reset for s in trace.steps) == 2  # one first step per agent (stable partner)
    assert [r.round for r in trace.rounds] == [1, 2, 3]
    assert [r.outcome for r in trace.rounds] == [game.round_outcome(i) for i in range(3)]
    for r in trace.rounds:  # the round's step is the one that paid it
        assert sum(trace.steps[r.step].rewards.values()) == r.outcome["joint_reward"]
    assert trace.returns == {a: sum(game.round_outcome(i)["rewards"][a] for i in range(3)) for a in trace.agents}
    assert trace.steps[-1].terminated and not any(s.terminated for s in trace.steps[:-1])
    decisions = [s for s in trace.steps if s.parsed and s.parsed.get("decision")]
    assert len(decisions) == 6
    for s in decisions:  # the thinking is the agent's reasoning, ending with what it buys and what that pays
        runs = " and ".join(f"{p} {k} time{'s' if k != 1 else ''}" for p, k in s.parsed["decision"]["runs"].items() if k)
        reward = trace.round_outcome(s.round)["rewards"][s.agent]
        # its last sentence (in one of its wordings) names the runs and ends with their reward
        assert re.search(rf"\bruns? {re.escape(runs)}\b[^.]*\b{reward:g}( to me)?\.$", s.thinking), s.thinking
        assert not re.search(r"\b(oracle|linear)\b", s.thinking, re.I)  # never the policy's name
    assert trace.final_features is not None and set(trace.final_features) == set(trace.agents)


def test_shifting_partner_context_resets_are_recorded():
    trace, seen, _ = play_aec(seed=1, rounds=3, partner="shifting")
    resets = [s for s in trace.steps if s.context_reset]
    assert sum(s.agent == "agent_b" for s in resets) == 3  # a fresh context every round
    assert sum(s.agent == "agent_a" for s in resets) == 1
    for ctx, (_, o) in zip(trace.contexts(), seen):
        assert ctx == [dict(m) for m in o["conversation"]]


def test_parallel_recorder_gives_the_aec_game():
    aec, _, _ = play_aec(seed=4, rounds=2, output="structured")
    pol = {a: make(n, seed=i, output="structured") for i, (a, n) in enumerate([("agent_a", "oracle"), ("agent_b", "linear")])}
    penv = record(negotiation_env.parallel_env(game="resource", num_rounds=2), policies=pol)
    assert isinstance(penv, ParallelTraceRecorder)
    obs, infos = penv.reset(seed=4)
    n_env_steps = 0
    while penv.agents:
        obs, _, _, _, infos = penv.step({a: pol[a].act(obs[a]) for a in penv.agents
                                         if a in infos[a]["active_agents"]} | {a: None for a in penv.agents
                                                                              if a not in infos[a]["active_agents"]})
        n_env_steps += 1
    par = penv.last_trace
    assert [(s.agent, s.action, s.phase, s.round) for s in par.steps] == \
        [(s.agent, s.action, s.phase, s.round) for s in aec.steps]
    assert par.returns == aec.returns
    assert [r.outcome for r in par.rounds] == [r.outcome for r in aec.rounds]
    assert par.steps[-1].parallel_step == n_env_steps - 1


def test_parallel_simultaneous_decisions_share_an_env_step():
    pol = {a: make("greedy", seed=0, output="structured") for a in ("agent_a", "agent_b")}
    penv = record(negotiation_env.parallel_env(game="resource", num_rounds=2, cheap_talk=False), policies=pol)
    obs, infos = penv.reset(seed=0)
    while penv.agents:
        obs, rewards, _, _, infos = penv.step({a: pol[a].act(obs[a]) for a in penv.agents})
    t = penv.last_trace
    assert [s.parallel_step for s in t.steps] == [0, 0, 1, 1]
    assert [s.agent for s in t.steps] == ["agent_a", "agent_b"] * 2
    assert all(sum(s.rewards.values()) == 0 for s in t.steps[::2])  # the step's rewards sit on its last record
    assert [r.step for r in t.rounds] == [1, 3]
    assert t.returns == {a: sum(r.outcome["rewards"][a] for r in t.rounds) for a in t.agents}
    assert t.status == "complete" and t.steps[-1].terminated


def test_invalid_actions_retries_and_attempts():
    env = record(negotiation_env.env(game="resource", num_rounds=1, max_retries=2))
    env.reset(seed=0)
    oracle = {a: make("oracle", seed=0, output="text") for a in env.possible_agents}
    first = env.agent_selection
    env.step("this is not json")
    env.step('{"thinking": "", "speech": "", "action": null}')  # empty speech: refused
    env.step(oracle[first].act(env.observe(first)))
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else oracle[agent].act(obs))
    t = env.last_trace
    s0, s1, s2 = t.steps[:3]
    assert (s0.valid, s1.valid, s2.valid) == (False, False, True)
    assert (s0.attempt, s1.attempt, s2.attempt) == (1, 2, 3)
    assert s0.parsed is None and s0.events[0]["type"] == "validation_error"
    assert s2.parsed["speech"] and t.steps[3].attempt == 1
    # a talk turn forfeited after max_retries: the next decision starts at attempt 1
    env.reset(seed=0)
    a = env.agent_selection
    for _ in range(3):
        env.step("garbage")
    t2 = env.unwrapped.game
    assert t2 is not None
    env.step(oracle[env.agent_selection].act(env.observe(env.agent_selection)))
    env.reset(seed=1)  # closes the unfinished game as truncated
    cut = env.traces[-1]
    assert cut.status == "truncated" and [s.attempt for s in cut.steps] == [1, 2, 3, 1]
    assert cut.steps[2].agent == a and any(e["type"] == "talk_turn_forfeited" for e in cut.steps[2].events)


def test_recorder_writes_each_finished_game(tmp_path):
    path = tmp_path / "t.jsonl"
    pol = {a: make("greedy", seed=0, output="structured") for a in ("agent_a", "agent_b")}
    with TraceWriter(path) as w:
        env = record(negotiation_env.env(game="resource", num_rounds=1), policies=pol, writer=w)
        for seed in (0, 1):
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else pol[agent].act(obs))
        assert env.traces == []  # with a writer nothing is kept in memory by default
    res = read_traces(path)
    assert [t.seeds["env"] for t in res.traces] == [0, 1]
    assert res.traces[0].steps[0].action_type == "structured"
    assert res.traces[0].game_id != res.traces[1].game_id


def test_policy_usage_and_reasoning_are_recorded():
    from tests.runner.helpers import Secretive

    pol = {a: Secretive(seed=i, api_key="sk-do-not-store") for i, a in enumerate(("agent_a", "agent_b"))}
    env = record(negotiation_env.env(game="resource", num_rounds=1), policies=pol)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    t = env.last_trace
    assert all(s.tokens["completion_tokens"] == 5 for s in t.steps)
    assert all(s.reasoning == "private chain of thought" for s in t.steps)
    d = t.to_dict()
    assert d["policies"]["agent_a"]["settings"]["api_key"] == "[REDACTED]"
    assert d["policies"]["agent_a"]["settings"]["max_tokens"] == 64
    assert "sk-do-not-store" not in str(d)
