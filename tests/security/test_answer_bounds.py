"""Refused and runaway answers are kept bounded: in the agent's own
conversation (re-sent with every retry), in events, in the last turn and in the trace,
with an ``answer_truncated`` event; every observation stays inside its space. Unbounded,
four refused 20 MB answers make a trace line of hundreds of MiB, the last retry re-sends
tens of millions of characters, and a 1,000,001-character answer puts the resource
observation outside its space (figures on the reliability docs page)."""

from __future__ import annotations

import json

import pytest

import negotiation_env
from baselines.scripted import make as make_resource
from negotiation_env.core.answers import ANSWER_CHARS, MARKER, REFUSED_ANSWER_CHARS, cut
from negotiation_env.traces import record
from negotiation_env.traces.writer import encode_trace

LONG = 1_000_001


def test_cut_keeps_the_start_and_says_how_long_the_answer_was():
    assert cut("abc", 3) == ("abc", None)
    kept, n = cut("x" * 10, 4)
    assert n == 10 and kept == "xxxx" + MARKER.format(length=10, limit=4)
    assert "10 characters in all" in kept


def _conversation_chars(obs) -> int:
    return sum(len(m["content"]) for m in obs["conversation"])


def _all_in_space(env) -> bool:
    return all(env.observation_space(a).contains(env.observe(a)) for a in env.possible_agents)


@pytest.mark.parametrize("game, config, answer", [
    ("resource", {"num_rounds": 1}, "x" * LONG),                                       # refused
    ("resource", {"num_rounds": 1}, "<think>" + "y" * LONG + "</think>"                # accepted around
     + json.dumps({"thinking": "t", "speech": "hi", "action": None})),                 # a runaway span
    ("rulemaking", {}, "x" * LONG),
    ("rulemaking", {}, json.dumps({"move": "Support", "issue": None, "rationale": "r"}) + " " + "z" * LONG),
    ("matrix", {"acknowledgement": False, "treatment": "none", "on_error": "retry"}, "x" * LONG),
    ("matrix", {"acknowledgement": False}, "y" * LONG),                                # an accepted message
])
def test_a_million_character_answer_leaves_every_observation_in_its_space(game, config, answer):
    env = negotiation_env.env(game=game, **config)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(answer)
    assert _all_in_space(env)
    events = env.infos[agent]["events"]
    refused = any(e["type"] == "validation_error" for e in events)
    cuts = [e for e in events if e["type"] == "answer_truncated"]
    if cuts:  # the answer itself was cut where it is kept
        assert cuts[0]["length"] >= LONG and cuts[0]["limit"] == (REFUSED_ANSWER_CHARS if refused else ANSWER_CHARS)
    else:  # or the game kept only the accepted turn, its fields cut to their caps
        assert not refused and any(e["type"] == "output_truncated" and e["length"] >= LONG for e in events)
    kept = [e.get("text") for e in events if isinstance(e.get("text"), str)]
    assert all(len(t) <= ANSWER_CHARS + 100 for t in kept)
    if refused and env.agent_selection == agent:  # asked again: what it is re-sent is bounded
        assert _conversation_chars(env.observe(agent)) < 60_000


@pytest.mark.parametrize("game", ["resource", "rulemaking"])
def test_four_refused_20_mb_answers_make_a_trace_line_of_a_few_hundred_kb(game):
    junk = "x" * 20_000_000
    config = {"num_rounds": 1, "max_retries": 3} if game == "resource" else {"max_retries": 3}
    env = negotiation_env.env(game=game, **config)
    if game == "resource":
        pols = {a: make_resource("greedy", seed=1) for a in env.possible_agents}
    else:
        from baselines.scripted.rulemaking import make_rulemaking

        pols = {a: make_rulemaking("conceder", seed=1) for a in env.possible_agents}
    rec = record(env, policies=pols)
    rec.reset(seed=0)
    first, left, resent = None, 4, []
    for agent in rec.agent_iter():
        obs, _, term, trunc, _ = rec.last()
        if term or trunc:
            rec.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        first = first or agent
        if agent == first and left:
            resent.append(_conversation_chars(obs))
            left -= 1
            rec.step(junk)
        else:
            rec.step(pols[agent].act(obs))
    trace = rec.last_trace
    line = encode_trace(trace)
    assert len(line) < 2 * 2**20, len(line)  # hundreds of MiB when unbounded
    assert max(resent) < 60_000  # unbounded: tens of millions of characters
    refused = [s for s in trace.steps if s.agent == first and not s.valid][:4]
    assert len(refused) == 4 and all(len(s.action) < REFUSED_ANSWER_CHARS + 100 for s in refused)
    assert all(any(e.get("type") == "answer_truncated" and e.get("length") == 20_000_000 for e in s.events)
               for s in refused)


def test_the_recorder_bounds_what_a_game_did_not_and_says_so():
    """An accepted structured action with a 300,000-character field: the trace's action
    text is cut (the game took only its bounded message) and an event records it."""
    env = negotiation_env.env(game="resource", num_rounds=1)
    rec = record(env, policies={})
    rec.reset(seed=0)
    rec.step({"message": "hi", "thinking": "t" * 300_000, "decide": 0})
    rec.reset(seed=1)  # closes the game (truncated): its record is last_trace
    step = rec.last_trace.steps[0]
    assert step.valid
    assert len(step.action) < ANSWER_CHARS + 100
    assert any(e.get("type") == "answer_truncated" and e.get("field") == "action" for e in step.events)
