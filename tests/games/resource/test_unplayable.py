"""A scenario in which no project can ever run (joint optimum M = 0) is refused when
loaded, configured or generated: it would score every round efficiency 1.0 and optimal."""

from __future__ import annotations

import json

import pytest

import negotiation_env
from negotiation_env.core.config import ConfigError
from negotiation_env.games.resource.game import ResourceConfig
from negotiation_env.games.resource.generator import generate, verify
from negotiation_env.games.resource.scenario import (Scenario, ScenarioError, UnplayableScenario,
                                                     list_scenarios, load_scenario)
from negotiation_env.games.resource.solver import solve
from negotiation_env.core.datafiles import shipped_ids


def scenario(name="dead", budget=18, supply=10, cost=2.0, units=1, max_types=2):
    proj = {"p": {"requires": {"r1": units, "r2": 1}, "reward": 5}}
    return {"name": name, "resources": {"r1": {"supply": supply, "cost": cost}, "r2": {"supply": supply, "cost": 1}},
            "budget": budget, "max_types": max_types, "projects": {"agent_a": proj, "agent_b": proj}}


CASES = {
    "zero budget": (scenario(budget=0), "the budget is 0"),
    "zero supply": (scenario(supply=0), "every supply is 0"),
    "over budget": (scenario(cost=20.0), "every project needs more than the supply, the budget (18)"),
    "over supply": (scenario(units=11), "every project needs more than the supply"),
    "over the type limit": (scenario(max_types=1), "the type limit (max_types 1)"),
}


@pytest.mark.parametrize("case", CASES)
def test_loading_an_unplayable_scenario_is_refused(case, tmp_path):
    d, why = CASES[case]
    Scenario.from_dict(d)  # well formed: only playing it is meaningless
    assert solve(Scenario.from_dict(d)).joint_max == 0
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(d))
    with pytest.raises(UnplayableScenario) as e:
        load_scenario(path)
    assert isinstance(e.value, ScenarioError) and str(e.value).startswith(f"{path}: scenario 'dead': no project can "
                                                                         "ever run (")
    assert why in str(e.value) and "joint optimum M is 0" in str(e.value)


@pytest.mark.parametrize("form", ["dict", "path", "object"])
def test_a_config_or_env_with_an_unplayable_scenario_is_refused(form, tmp_path):
    d = scenario(budget=0)
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(d))
    value = {"dict": d, "path": str(path), "object": Scenario.from_dict(d)}[form]
    with pytest.raises(ConfigError, match=r"^config field 'scenario' \(round 1\): .*scenario 'dead': no project can "
                                          r"ever run \(the budget is 0\)") as e:
        ResourceConfig(scenario=value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError, match="scenario 'dead': no project can ever run"):
        negotiation_env.env(game="resource", scenario=value)


def test_an_unplayable_rotation_pool_scenario_is_refused():
    base = load_scenario("mc080_1").to_dict()
    dead = json.loads(json.dumps(base))
    dead["name"] = "dead_pool"
    for agent in dead["projects"]:
        for p in dead["projects"][agent].values():
            p["requires"] = {r: 11 for r in p["requires"]}  # past every supply of 10
    with pytest.raises(ConfigError, match=r"^config field 'rotation_pool' \(rounds 2 on of a rotating game\): "
                                          r"scenario 'dead_pool': no project can ever run"):
        ResourceConfig(scenario="mc080_1", rotation="rotating", num_rounds=2, rotation_pool=["mc080_1", dead])


def test_every_shipped_and_legacy_scenario_is_playable():
    names = list_scenarios() + [n for n in shipped_ids("negotiation_env.games.resource", folder="scenarios_legacy")]
    assert len(names) > 20
    for n in names:
        sc = load_scenario(n)
        assert solve(sc).joint_max > 0, n


def test_the_generator_refuses_a_budget_that_buys_nothing_and_its_verify_flags_m_zero():
    with pytest.raises(ValueError, match=r"^budget 1 buys no unit of any resource in supply, so no project could "
                                         r"ever run \(joint optimum 0\)"):
        generate(0.8, 0, resources={"r1": {"supply": 10, "cost": 2.0}}, budget=1, max_types=1)
    _, problems = verify(Scenario.from_dict(scenario(budget=0)), 0.8)
    assert problems[0] == "scenario 'dead': joint optimum M is 0 (no project can ever run)"
