"""Oversized agent output is bounded, and the cut is recorded."""

from __future__ import annotations

import json
import re

import numpy as np

import negotiation_env
from negotiation_env.core.config import ConfigError


def test_resource_caps_speech_and_thinking_and_records_the_cut():
    env = negotiation_env.env(game="resource", max_message_chars=50, max_thinking_chars=10, num_rounds=1)
    env.reset(seed=0)
    sent = json.dumps({"thinking": "t" * 100, "speech": "x" * 500, "action": None})
    env.step(sent)
    ev = [(e["type"], e["field"], e["length"], e["limit"]) for e in env.infos["agent_a"]["events"]]
    assert ev == [("output_truncated", "speech", 500, 50), ("output_truncated", "thinking", 100, 10)]
    assert env.observe("agent_b")["prompt"].endswith('said: "' + "x" * 50 + '"')
    # its own history keeps the answer as sent (a model reads back what it generated)
    assert env.observe("agent_a")["conversation"][-1]["content"] == sent
    assert env.infos["agent_a"]["last_turn"]["speech"] == "x" * 50


def test_resource_refuses_a_runaway_response():
    env = negotiation_env.env(game="resource", num_rounds=1)
    env.reset(seed=0)
    env.step("x" * 100_001)
    cut, e = env.infos["agent_a"]["events"]
    assert e["type"] == "validation_error" and "limit is 100000" in e["message"]
    # the refused answer is kept bounded (core.answers), and the cut is recorded
    assert (cut["type"], cut["length"], cut["limit"]) == ("answer_truncated", 100_001, 8_000)
    assert len(e["text"]) < 8_100 and e["text"].startswith("x" * 8_000)


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


# --------------------------------------------------------------------------- hostile input

import time  # noqa: E402
import tracemalloc  # noqa: E402

import pytest  # noqa: E402

from negotiation_env.analysis.judge import JudgeOutputError, validate_labels  # noqa: E402
from negotiation_env.cli import main  # noqa: E402
from negotiation_env.games.resource import solver  # noqa: E402
from negotiation_env.games.resource.scenario import (MAX_PROJECTS, MAX_RESOURCES, Scenario, ScenarioError,  # noqa: E402
                                                     ScenarioTooLarge, load_scenario)
from negotiation_env.games.rulemaking.scenario import ScenarioError as RMScenarioError  # noqa: E402
from negotiation_env.games.rulemaking.scenario import load_scenario as load_rm  # noqa: E402
from negotiation_env.runner import make_plan  # noqa: E402
from negotiation_env.runner.config import RunConfigError, load_config  # noqa: E402

HUGE = "9" * 5000  # past Python's 4,300-digit int-string limit
HOSTILE_ANSWERS = {  # model text -> what the agent is told
    "huge integer": ('{"thinking": "t", "speech": "s", "action": {"r1": %s}}' % HUGE, "numbers have at most 100"),
    "huge float": ('{"thinking": "t", "speech": "s", "action": {"r1": 1e999}}', "use a finite number"),
    "brace flood": ("{" * 100_000, "invalid JSON"),
    "deep nesting": ('{"action": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
    "duplicate key": ('{"speech": "a", "speech": "b", "action": null}', "duplicate key 'speech'"),
}


def _peak_mb(fn):
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return peak


@pytest.mark.parametrize("attack", list(HOSTILE_ANSWERS))
def test_a_hostile_answer_is_refused_and_the_resource_game_goes_on(attack):
    text, told = HOSTILE_ANSWERS[attack]
    env = negotiation_env.env(game="resource", num_rounds=1)
    env.reset(seed=0)
    env.step(text)
    # a long refused answer is also cut where it is kept (answer_truncated, core.answers)
    (e,) = [e for e in env.infos["agent_a"]["events"] if e["type"] != "answer_truncated"]
    assert e["type"] == "validation_error" and told in e["message"]
    assert env.agent_selection == "agent_a" and not any(env.terminations.values())
    env.step(json.dumps({"thinking": "", "speech": "hello", "action": None}))
    assert env.agent_selection == "agent_b"


@pytest.mark.parametrize("attack, text, told", [
    ("huge integer", '{"move": "Support", "issue": null, "rationale": "r", "x": %s}' % HUGE, "numbers have at most"),
    ("brace flood", "{" * 100_000, "invalid JSON"),
    ("deep nesting", '{"move": "Support", "rationale": "r", "x": ' + '{"a": ' * 5000, "nested too deeply"),
    ("duplicate key", '{"move": "Support", "move": "Exit", "rationale": "r"}', "duplicate key 'move'"),
    ("zero-width rationale", '{"move": "Support", "issue": null, "rationale": "\u200b"}', '"rationale" must be a non-empty'),
    ("invisible rationale", '{"move": "Support", "issue": null, "rationale": " \u2060\ufeff\u3164 "}', "non-empty"),
])
def test_a_hostile_answer_is_refused_and_the_rulemaking_game_goes_on(attack, text, told):
    env = negotiation_env.env(game="rulemaking")
    env.reset(seed=0)
    first = env.agent_selection
    env.step(text)
    (e,) = [e for e in env.infos[first]["events"] if e["type"] != "answer_truncated"]
    assert e["type"] == "validation_error" and told in e["message"]
    assert env.agent_selection == first and not any(env.terminations.values())
    env.step(json.dumps({"move": "Support", "issue": None, "rationale": "I support the package."}))
    assert env.agent_selection != first


def test_an_invisible_speech_is_an_empty_speech():
    env = negotiation_env.env(game="resource", num_rounds=1)
    env.reset(seed=0)
    env.step(json.dumps({"thinking": "", "speech": "\u200b\u200b", "action": None}))
    (e,) = env.infos["agent_a"]["events"]
    assert e["type"] == "validation_error" and '"speech" MUST NOT be empty' in e["message"]


@pytest.mark.parametrize("attack, text, told", [
    ("huge integer", '{"rounds": [{"round_number": %s}]}' % HUGE, "numbers have at most"),
    ("brace flood", "{" * 100_000, "invalid JSON"),
    ("deep nesting", '{"rounds": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
    ("duplicate key", '{"rounds": [], "rounds": []}', "duplicate key 'rounds'"),
])
def test_the_judge_validator_refuses_hostile_answers_with_its_error(attack, text, told):
    with pytest.raises(JudgeOutputError, match=told):
        validate_labels(text, 1)


# -- scenario files


def _resource_text():
    return json.dumps(load_scenario("mc080_1").to_dict(), indent=1)


def _rulemaking_text():
    return json.dumps(load_rm("E1").to_dict(), indent=1)


SCENARIO_ATTACKS = {  # name -> (edit of the file text, what the error says)
    "huge integer": (lambda t, key: t.replace(f'"{key}": ', f'"{key}": {HUGE}, "_x": ', 1), "numbers have at most"),
    "deep nesting": (lambda t, key: t.replace("{", '{"meta": ' + "[" * 5000 + "]" * 5000 + ",", 1),
                     "nested too deeply (limit 100 levels)"),
    "duplicate key": (lambda t, key: t.replace("{", '{"name": "a",', 1), "duplicate key 'name'"),
    "brace flood": (lambda t, key: "{" * 100_000, "not valid JSON"),
    "oversized file": (lambda t, key: t + " " * 1_000_001, "larger than 1000000 bytes"),
}


@pytest.mark.parametrize("attack", list(SCENARIO_ATTACKS))
@pytest.mark.parametrize("game", ["resource", "rulemaking"])
def test_scenario_files_refuse_hostile_content_with_the_scenario_error(tmp_path, game, attack):
    edit, told = SCENARIO_ATTACKS[attack]
    text, key, loader, error = ((_resource_text(), "budget", load_scenario, ScenarioError) if game == "resource"
                                else (_rulemaking_text(), "p", load_rm, RMScenarioError))
    path = tmp_path / "s.json"
    path.write_text(edit(text, key), encoding="utf-8")
    with pytest.raises(error, match=re.escape(told)):
        loader(path)
    field = "scenario" if game == "resource" else "environment"
    with pytest.raises(ConfigError, match=re.escape(told)):  # through the game config, as the env and runner load it
        negotiation_env.make_game(game, **{field: str(path)})


def _sixty() -> dict:
    """The issue's 5.6 KB scenario: 60 one-unit projects per agent on a 100-unit resource
    (about 10^50 run vectors; enumerating them reached 5 GB and MemoryError)."""
    res = {f"r{j}": {"supply": 100, "cost": 1.0} for j in (1, 2, 3)}
    projects = {f"p{i}": {"requires": {"r1": 1}, "reward": 1 + i % 7} for i in range(60)}
    return {"name": "sixty", "resources": res, "budget": 100, "max_types": 3,
            "projects": {"agent_a": projects, "agent_b": json.loads(json.dumps(projects))}}


def test_a_scenario_past_the_enumeration_bound_is_solved_by_the_ilp_in_bounded_memory(tmp_path):
    path = tmp_path / "sixty.json"
    path.write_text(json.dumps(_sixty()), encoding="utf-8")
    sc = load_scenario(path)
    out = {}
    assert _peak_mb(lambda: out.setdefault("sol", solver.solve(sc))) < 200
    sol = out["sol"]
    assert sol.method == "milp" and sol.individual_max == {"agent_a": 700.0, "agent_b": 700.0}
    assert sol.joint_max == 700.0 and sol.ratio == 0.5  # 100 units of r1, best reward 7 a run, shared
    with pytest.raises(ScenarioTooLarge, match="solver.ENUMERATION_CELLS"):
        solver.solve(sc, "enumerate")
    with pytest.raises(ScenarioTooLarge, match="agent_a"):
        solver.feasible_run_vectors(sc, "agent_a")
    purchase, runs = solver.individual_best(sc, "agent_a")
    assert purchase == {"r1": 100, "r2": 0, "r3": 0} and sum(runs.values()) == 100
    env = negotiation_env.env(game="resource", scenario=str(path), num_rounds=1)  # env creation solves it too
    env.reset(seed=0)
    env.step(json.dumps({"thinking": "", "speech": "hello", "action": None}))
    assert env.agent_selection == "agent_b"


def test_run_vectors_refuse_before_allocating():
    R = np.ones((2, 1), dtype=np.int64)
    cost, supply, rew = np.ones(1), np.array([3000]), np.ones(2)
    assert len(solver.run_vectors(R[:1], rew[:1], supply, cost, 1e9, 1)[0]) == 3001
    with pytest.raises(ScenarioTooLarge, match=r"3,001 vectors so far x 3001 run counts x 1 resources"):
        solver.run_vectors(R, rew, supply, cost, 1e9, 1)  # 9 million cells: refused, never built
    # a tiny cost makes budget / cost overflow to inf: the supply bounds the runs
    assert len(solver.run_vectors(R[:1], rew[:1], np.array([5]), np.array([1e-300]), 1e12, 1)[0]) == 6


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["resources"].update({f"x{j}": {"supply": 1, "cost": 1.0} for j in range(MAX_RESOURCES)}), "resources"),
    (lambda d: d["projects"]["agent_a"].update({f"q{i}": {"requires": {"r1": 1}, "reward": 1}
                                                for i in range(MAX_PROJECTS)}), "projects.agent_a"),
    (lambda d: d["resources"]["r1"].update(supply=10**7), "resources.r1.supply"),
    (lambda d: d["projects"]["agent_b"]["p0"]["requires"].update(r2=10**7), "projects.agent_b.p0.requires.r2"),
    (lambda d: d.update(budget=1e13), "budget"),
    (lambda d: d["projects"]["agent_a"]["p1"].update(reward=1e300), "projects.agent_a.p1.reward"),
])
def test_scenarios_past_a_size_limit_are_refused_naming_the_field(edit, field):
    doc = _sixty()
    edit(doc)
    with pytest.raises(ScenarioTooLarge, match=re.escape(f"field '{field}'") + ".*at most"):
        Scenario.from_dict(doc, source="big")


# -- run configs and plans

CONFIG_TAIL_YAML = "games:\n  - game: resource\n    policies: ['scripted:oracle']\n"
CONFIG_TAIL_TOML = "[[games]]\ngame = 'resource'\npolicies = ['scripted:oracle']\n"


def _alias_bomb(levels: int = 7) -> str:
    """About 500 bytes that stand for 10**levels strings."""
    lines = ['l0: &l0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "name: bomb\n" + CONFIG_TAIL_YAML + "    config:\n      bomb:\n" + "".join(f"        {x}\n" for x in lines)


RUN_CONFIG_ATTACKS = {  # name -> (file name, text, what the error says)
    "alias bomb": ("bomb.yaml", _alias_bomb(), "more than 100,000 values once YAML aliases are expanded"),
    "cyclic alias": ("cycle.yaml", CONFIG_TAIL_YAML + "    config: &c {a: *c}\n", "nested more than 32 levels"),
    "huge seed (YAML)": ("seed.yaml", f"seed: {HUGE}\n" + CONFIG_TAIL_YAML, "numbers have at most 100 characters"),
    "huge seed (TOML)": ("seed.toml", f"seed = {HUGE}\n" + CONFIG_TAIL_TOML, "more than 4,300 digits"),
    "long seed (TOML)": ("seed4k.toml", f"seed = {'9' * 4000}\n" + CONFIG_TAIL_TOML, "(got an integer of about 4,0"),
    "sexagesimal (YAML)": ("sexa.yaml", "seed: 1" + ":1" * 50_000 + "\n" + CONFIG_TAIL_YAML, "numbers have at most"),
    "deep nesting (YAML)": ("deep.yaml", CONFIG_TAIL_YAML + "    config: {a: " + "[" * 5000 + "]" * 5000 + "}\n",
                            "nested more than 32 levels"),
    "deep nesting (TOML)": ("deep.toml", CONFIG_TAIL_TOML + "config = {a = " + "[" * 5000 + "]" * 5000 + "}\n",
                            "nested more than 32 levels"),
    "oversized file": ("big.toml", CONFIG_TAIL_TOML + "#" * 1_000_001 + "\n", "larger than 1,000,000 bytes"),
}


@pytest.mark.parametrize("attack", list(RUN_CONFIG_ATTACKS))
def test_hostile_run_configs_are_config_errors_and_the_cli_exits_2(tmp_path, capsys, attack):
    name, text, told = RUN_CONFIG_ATTACKS[attack]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    t = time.perf_counter()
    with pytest.raises(RunConfigError, match=re.escape(told)) as e:
        load_config(path)
    assert time.perf_counter() - t < 10 and len(str(e.value)) < 400
    assert main(["run", str(path), "--plan"]) == 2
    assert told in " ".join(capsys.readouterr().err.split())


def test_the_alias_bomb_is_refused_without_expanding_it(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_alias_bomb(), encoding="utf-8")
    assert len(path.read_bytes()) < 1000
    peak = _peak_mb(lambda: pytest.raises(RunConfigError, load_config, path))
    assert peak < 20  # the ten million strings would be hundreds of MB (515 MB for a run before the bound)


@pytest.mark.parametrize("block, told", [
    ({"policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"], "games_per_cell": 500_000,
      "scenario_sets": {"a": ["mc050_*"], "b": ["mc080_*"], "c": ["mc100_*"]}},
     "1 conditions x 3 scenario sets x its lineups x 500,000 games per cell = at least 1,500,000 games"),
    ({"policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"], "games_per_cell": 200_000},
     "1 conditions x 1 scenario sets x 6 lineups x 200,000 games per cell = 1,200,000 games"),
    ({"policies": ["scripted:oracle"], "factors": {f"f{i}": {"a": {}, "b": {}} for i in range(24)}},
     "16,777,216 conditions"),
])
def test_a_plan_past_a_million_games_is_refused_before_it_is_expanded(block, told):
    from negotiation_env.runner import parse_config
    config = parse_config({"name": "big", "games": [{"game": "resource", **block}]})
    t = time.perf_counter()
    with pytest.raises(RunConfigError, match=re.escape(told) + ".*at most 1,000,000 games"):
        make_plan(config)
    assert time.perf_counter() - t < 1.0  # building them took minutes


def test_purchase_vectors_refuse_before_allocating():
    supply, cost = np.array([3000, 3000]), np.ones(2)
    assert len(solver.purchase_vectors(supply[:1], cost[:1], 1e9, 1)) == 3001
    # the second resource's step would hold 3,001 x 3,001 x 2 cells: refused, never built
    with pytest.raises(ScenarioTooLarge, match=r"^purchases \(one-unit projects, one per resource\): enumerating the "
                                               r"run vectors needs an array of 18,012,002 cells at project 1 "
                                               r"\(3,001 vectors so far x 3001 run counts x 2 resources\)"):
        solver.purchase_vectors(supply, cost, 1e9, 2)
    # a zero price: the supply bounds the quantity; the type limit prunes as it goes
    assert solver.purchase_vectors(np.array([2, 1]), np.array([0.0, 1.0]), 0.5, 1).tolist() == [[0, 0], [1, 0], [2, 0]]
    assert solver.purchase_vectors(np.array([1, 1]), np.array([1.0, 1.0]), 5, 1).tolist() == [[0, 0], [0, 1], [1, 0]]
    # a tiny price makes budget / cost overflow to inf: the supply bounds the quantity
    assert solver.purchase_vectors(np.array([5]), np.array([1e-300]), 1e12, 1).tolist() == [[i] for i in range(6)]
