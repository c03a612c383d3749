import json

import pytest

from negotiation_env.traces import GameTrace, SchemaError, StepRecord, redact
from negotiation_env.traces.schema import REDACTED, SCHEMA_VERSION, config_to_json, to_jsonable

from .helpers import play_aec


def test_round_trip_through_json_is_exact():
    trace, _, _ = play_aec(rounds=2)
    d = trace.to_dict()
    back = GameTrace.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d
    assert back.schema_version == SCHEMA_VERSION
    assert back.steps[0] == trace.steps[0]
    assert [r.outcome for r in back.rounds] == [r.outcome for r in trace.rounds]


def test_game_level_fields():
    trace, seen, _ = play_aec(seed=5, rounds=2)
    assert trace.game == "resource" and trace.env_name == "resource_v1"
    assert trace.agents == ["agent_a", "agent_b"]
    assert trace.scenario == "mc080_1" and trace.config["scenario"] == "mc080_1"
    assert trace.config["num_rounds"] == 2
    assert trace.seeds["env"] == 5 and trace.seeds["policies"] == {"agent_a": 0, "agent_b": 1}
    assert trace.package["name"] == "negotiation_env" and trace.package["version"]
    assert trace.started_at and trace.ended_at and trace.started_at <= trace.ended_at
    assert trace.status == "complete" and trace.error is None
    assert trace.policies["agent_a"].name == "oracle" and trace.policies["agent_b"].name == "linear"
    assert len(trace.steps) == len(seen)


def test_unknown_version_and_missing_fields_are_named():
    trace, _, _ = play_aec(rounds=1)
    d = trace.to_dict()
    with pytest.raises(SchemaError, match="unsupported schema_version 99"):
        GameTrace.from_dict({**d, "schema_version": 99})
    bad = json.loads(json.dumps(d))
    del bad["steps"][2]["agent"]
    with pytest.raises(SchemaError, match=r"steps\[2\]: missing field 'agent'"):
        GameTrace.from_dict(bad)
    with pytest.raises(SchemaError, match="field 'status'"):
        GameTrace.from_dict({**d, "status": "finished"})
    with pytest.raises(SchemaError, match="action_type"):
        StepRecord.from_dict({"index": 0, "agent": "a", "action": "x", "action_type": "binary"})


def test_redact_secrets_but_keep_numeric_settings():
    settings = {
        "api_key": "sk-live-123", "OPENAI_API_KEY": "sk-2", "auth_token": "tok", "client_secret": "s",
        "password": "hunter2", "api_key_env": "OPENAI_API_KEY", "max_tokens": 256, "tokenizer": "/models/tok", "temperature": 0.2,
        "token_param": "max_completion_tokens", "access_token": "a", "bearer": "b",
        "nested": {"headers": {"x-api-key": "abc"}, "list": [{"secret": "q"}]},
        "base_url": "https://user:pw@example.org/v1?api_key=zzz&model=m",
    }
    out = redact(settings)
    for k in ("api_key", "OPENAI_API_KEY", "auth_token", "client_secret", "password", "access_token", "bearer"):
        assert out[k] == REDACTED
    assert out["nested"]["headers"]["x-api-key"] == REDACTED
    assert out["nested"]["list"][0]["secret"] == REDACTED
    assert out["api_key_env"] == "OPENAI_API_KEY"
    assert out["max_tokens"] == 256 and out["tokenizer"] == "/models/tok" and out["temperature"] == 0.2
    assert out["token_param"] == "max_completion_tokens"  # named like "token", not a secret
    assert out["base_url"] == f"https://{REDACTED}@example.org/v1?api_key={REDACTED}&model=m"
    assert settings["api_key"] == "sk-live-123"  # the input is untouched


def test_policy_secrets_never_reach_the_written_json():
    from negotiation_env.traces import PolicyInfo

    trace, _, _ = play_aec(rounds=1)
    trace.policies["agent_a"] = PolicyInfo(spec="openai:m@https://u:p4ss@h/v1", settings={"api_key": "sk-XYZ"})
    text = json.dumps(trace.to_dict())
    assert "sk-XYZ" not in text and "p4ss" not in text


def test_jsonable_helpers():
    import numpy as np

    assert to_jsonable({"a": np.arange(3), "b": np.float32(0.5), "c": (1, float("nan"))}) == \
        {"a": [0, 1, 2], "b": 0.5, "c": [1, None]}
    from negotiation_env.games.resource.game import ResourceConfig

    cfg = config_to_json(ResourceConfig(rotation="rotating"))
    assert cfg["scenario"] == "mc080_1" and all(isinstance(x, str) for x in cfg["rotation_pool"])
    json.dumps(cfg)


def test_to_jsonable_fast_paths_give_the_general_results():
    """Exact built-in types take the short paths; subclasses, numpy values and mixed lists
    the general one: the results are the same values either way."""
    import enum
    from collections import OrderedDict

    import numpy as np

    class Level(enum.IntEnum):
        HIGH = 2

    class Name(str):
        pass

    assert to_jsonable([0.5, float("inf"), -1.0, float("nan")]) == [0.5, None, -1.0, None]
    assert to_jsonable(("a", "b")) == ["a", "b"] and to_jsonable([]) == []
    assert to_jsonable([1, 0.5, "x", None, True, np.int64(3)]) == [1, 0.5, "x", None, True, 3]
    assert to_jsonable({1: Level.HIGH, Name("k"): np.float64(0.25), (1, 2): [np.nan]}) == \
        {"1": 2, "k": 0.25, "(1, 2)": [None]}
    assert type(to_jsonable(Level.HIGH)) is int and type(to_jsonable({"a": 1}["a"])) is int
    assert to_jsonable(OrderedDict(a=(1.5, float("-inf")))) == {"a": [1.5, None]}
    d = {"x": [1.0, 2.0], "y": [{"z": "w"}], "t": True, "n": None}
    assert to_jsonable(d) == d and to_jsonable(d) is not d
