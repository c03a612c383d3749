"""Oversized agent output is bounded, and the cut is recorded."""

from __future__ import annotations

import json

import negotiation_env


def test_resource_caps_speech_and_thinking_and_records_the_cut():
    env = negotiation_env.env(game="resource", max_message_chars=50, max_thinking_chars=10, num_rounds=1)
    env.reset(seed=0)
    env.step(json.dumps({"thinking": "t" * 100, "speech": "x" * 500, "action": None}))
    ev = [(e["type"], e["field"], e["length"], e["limit"]) for e in env.infos["agent_a"]["events"]]
    assert ev == [("output_truncated", "speech", 500, 50), ("output_truncated", "thinking", 100, 10)]
    assert env.observe("agent_b")["prompt"].endswith('said: "' + "x" * 50 + '"')
    own = env.observe("agent_a")["conversation"][-1]["content"]
    assert json.loads(own) == {"thinking": "t" * 10, "speech": "x" * 50, "action": None}
    assert env.infos["agent_a"]["last_turn"]["speech"] == "x" * 50


def test_resource_refuses_a_runaway_response():
    env = negotiation_env.env(game="resource", num_rounds=1)
    env.reset(seed=0)
    env.step("x" * 100_001)
    (e,) = env.infos["agent_a"]["events"]
    assert e["type"] == "validation_error" and "limit is 100000" in e["message"]


def test_rulemaking_bounds_rationale_and_notebook_fields():
    env = negotiation_env.env(game="rulemaking", condition="ledger", max_rationale_chars=20, max_field_chars=30)
    env.reset(seed=0)
    ledger = {f: "short." for f in ("my_concessions", "their_concessions", "current_state", "opponent_assessment",
                                    "open_issues")}
    env.step(json.dumps({"ledger": {**ledger, "current_state": "y" * 31}, "move": "Counter", "rationale": "r"}))
    (e,) = env.infos["authority"]["events"]
    assert e["type"] == "validation_error" and '"ledger.current_state" is 31 characters long; at most 30' in e["message"]
    env.step(json.dumps({"ledger": ledger, "move": "Counter", "rationale": "z" * 200}))
    assert env.unwrapped.game.turns[0].rationale == "z" * 20
    assert [e["type"] for e in env.infos["authority"]["events"]] == ["output_format_warning"]
