"""Scenarios of the rulemaking game: the shipped E1/E2/E3 files, validation, parameter draws."""

from __future__ import annotations

import copy
import json
from collections import Counter

import numpy as np
import pytest

from negotiation_env.games.rulemaking.scenario import (
    Brief,
    Objective,
    RulemakingScenario,
    ScenarioError,
    attention_bands,
    attention_value,
    list_scenarios,
    load_scenario,
)

SHIPPED = ("E1", "E2", "E3")
INDUSTRY = ("continental_bank", "apex_financial", "industry_council")


@pytest.fixture(scope="module")
def scenarios():
    return {n: load_scenario(n) for n in SHIPPED}


@pytest.fixture(scope="module")
def base():
    """A valid scenario dict (E1's) that each malformed variant starts from."""
    return load_scenario("E1").to_dict()


# --------------------------------------------------------------------------- shipped files


def test_list_scenarios():
    assert list_scenarios() == list(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenario_loads_and_round_trips(name, scenarios):
    s = scenarios[name]
    assert isinstance(s, RulemakingScenario)
    assert s.id == name
    assert RulemakingScenario.from_dict(s.to_dict()) == s
    assert RulemakingScenario.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    # the authority speaks first; four stakeholders follow
    assert s.party_ids[0] == s.authority == "authority"
    assert s.party(s.authority).role == "authority"
    assert len(s.stakeholders) == 4 and s.authority not in s.stakeholders
    assert all(s.party(p).role == "stakeholder" for p in s.stakeholders)
    assert 4 <= len(s.issues) <= 6
    for p in s.parties:
        assert [o.priority for o in p.brief.objectives] == list(range(1, len(p.brief.objectives) + 1))
        assert all(s.issue(o.issue) for o in p.brief.objectives)
        assert 1 <= len(p.brief.red_lines) <= 3
        assert all(r.strip() for r in p.brief.red_lines)


def test_shipped_names_and_ids(scenarios):
    assert [(s.id, s.name) for s in scenarios.values()] == [("E1", "Fragmented"), ("E2", "Unified"), ("E3", "Grid")]
    assert scenarios["E1"].stakeholders == INDUSTRY + ("public_interest",)
    assert scenarios["E3"].stakeholders == ("manufacturers", "datacenters", "utilities", "essential_services")
    assert scenarios["E1"].party("continental_bank").name == "Continental Bank"
    assert scenarios["E3"].party("authority").name == "Grid Reliability Authority"


def test_load_by_path_equals_load_by_name(scenarios, tmp_path):
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(scenarios["E3"].to_dict()), encoding="utf-8")
    assert load_scenario(f) == scenarios["E3"]
    assert load_scenario(str(f)) == scenarios["E3"]


def test_e1_e2_share_authority_issues_and_public_interest(scenarios):
    e1, e2 = scenarios["E1"], scenarios["E2"]
    assert e1.authority == e2.authority
    assert e1.party(e1.authority) == e2.party(e2.authority)
    assert e1.issues == e2.issues
    assert e1.party("public_interest") == e2.party("public_interest")
    assert e1.party_ids == e2.party_ids
    for pid in INDUSTRY:
        assert e1.party(pid).brief != e2.party(pid).brief, pid
    # E1's industry is divided; in E2 the three industry parties carry one aligned brief
    assert len({e1.party(p).brief for p in INDUSTRY}) == 3
    assert len({e2.party(p).brief for p in INDUSTRY}) == 1
    assert e2.party("public_interest").brief not in {e2.party(p).brief for p in INDUSTRY}


def test_brief_objectives_sorted_by_priority(base):
    d = copy.deepcopy(base)
    d["parties"]["apex_financial"]["brief"]["objectives"].reverse()
    s = RulemakingScenario.from_dict(d)
    objs = s.party("apex_financial").brief.objectives
    assert [o.priority for o in objs] == [1, 2, 3, 4]
    assert isinstance(s.party("apex_financial").brief, Brief) and isinstance(objs[0], Objective)
    assert s == load_scenario("E1")


def test_optional_description_and_meta_accepted(base):
    d = copy.deepcopy(base)
    d["description"] = "anything"
    d["meta"] = {"source": "test"}
    assert RulemakingScenario.from_dict(d) == load_scenario("E1")


def test_helpers_raise_key_error(scenarios):
    with pytest.raises(KeyError):
        scenarios["E1"].party("nobody")
    with pytest.raises(KeyError):
        scenarios["E1"].issue("nothing")


# --------------------------------------------------------------------------- malformed variants


def _set(path, value):
    def f(d):
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value

    return f


def _del(path):
    def f(d):
        node = d
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]

    return f


def _rename_party(old, new):
    def f(d):
        d["parties"] = {(new if k == old else k): v for k, v in d["parties"].items()}

    return f


def _authority_last(d):
    auth = d["parties"].pop("authority")
    d["parties"]["authority"] = auth


def _add_issue(n):
    def f(d):
        for k in range(n):
            d["issues"][f"extra_{k}"] = {"title": "Extra", "description": "An extra issue."}

    return f


def _drop_issue(d):
    # four issues remain (a valid count), but briefs still refer to the dropped one
    del d["issues"]["covered_funds"]


OBJ = ["parties", "apex_financial", "brief", "objectives"]
PAR = ["parameters"]

BAD = [
    ("missing id", _del(["id"]), "'id'"),
    ("missing context", _del(["context"]), "'context'"),
    ("missing parameters", _del(["parameters"]), "'parameters'"),
    ("missing party name", _del(["parties", "continental_bank", "name"]), "parties.continental_bank.name"),
    ("missing brief", _del(["parties", "industry_council", "brief"]), "parties.industry_council.brief"),
    ("missing red_lines", _del(["parties", "public_interest", "brief", "red_lines"]), "parties.public_interest.brief.red_lines"),
    ("missing issue description", _del(["issues", "hedging", "description"]), "issues.hedging.description"),
    ("missing salience high", _del(PAR + ["salience", "high"]), "parameters.salience.high"),
    ("unknown top-level field", _set(["colour"], "blue"), "'colour'"),
    ("unknown party field", _set(["parties", "apex_financial", "budget"], 3), "parties.apex_financial.budget"),
    ("unknown objective field", lambda d: d["parties"]["apex_financial"]["brief"]["objectives"][1].update(weight=2),
     "parties.apex_financial.brief.objectives[1].weight"),
    ("unknown parameter", _set(PAR + ["deadline"], 15), "parameters.deadline"),
    ("bad scenario id", _set(["id"], "1E"), "'id'"),
    ("bad party id", _rename_party("apex_financial", "Apex"), "parties.Apex"),
    ("party id with trailing newline", _rename_party("apex_financial", "apex\n"), "parties.apex\n"),
    ("bad issue id", lambda d: d["issues"].update({"9lives": {"title": "t", "description": "d"}}), "issues.9lives"),
    ("empty name", _set(["name"], "   "), "'name'"),
    ("non-string title", _set(["title"], 7), "'title'"),
    ("empty issue title", _set(["issues", "hedging", "title"], ""), "issues.hedging.title"),
    ("two authorities", _set(["parties", "public_interest", "role"], "authority"), "'parties'"),
    ("no authority role", _set(["parties", "authority", "role"], "stakeholder"), "'parties'"),
    ("unknown role", _set(["parties", "apex_financial", "role"], "observer"), "parties.apex_financial.role"),
    ("authority not a party", _set(["authority"], "regulator"), "'authority'"),
    ("authority field names a stakeholder", _set(["authority"], "apex_financial"), "parties.apex_financial.role"),
    ("authority not first", _authority_last, "'parties'"),
    ("4 parties", _del(["parties", "public_interest"]), "'parties'"),
    ("6 parties", lambda d: d["parties"].update(extra=copy.deepcopy(d["parties"]["public_interest"])), "'parties'"),
    ("3 issues", lambda d: [d["issues"].pop(k) for k in ("metrics_reporting", "compliance_timeline")], "'issues'"),
    ("7 issues", _add_issue(2), "'issues'"),
    ("objective with unknown issue", _set(OBJ + [2, "issue"], "leverage"), "parties.apex_financial.brief.objectives[2].issue"),
    ("objective for a dropped issue", _drop_issue, "parties.authority.brief.objectives[4].issue"),
    ("two objectives on one issue", _set(OBJ + [3, "issue"], "hedging"), "parties.apex_financial.brief.objectives[3].issue"),
    ("duplicate priority", _set(OBJ + [2, "priority"], 1), "parties.apex_financial.brief.objectives[2].priority"),
    ("priority out of range", _set(OBJ + [0, "priority"], 9), "parties.apex_financial.brief.objectives[0].priority"),
    ("priority zero", _set(OBJ + [0, "priority"], 0), "parties.apex_financial.brief.objectives[0].priority"),
    ("bool priority", _set(OBJ + [0, "priority"], True), "parties.apex_financial.brief.objectives[0].priority"),
    ("float priority", _set(OBJ + [0, "priority"], 1.0), "parties.apex_financial.brief.objectives[0].priority"),
    ("empty objective text", _set(OBJ + [1, "text"], " "), "parties.apex_financial.brief.objectives[1].text"),
    ("too few objectives", lambda d: d["parties"]["apex_financial"]["brief"].update(objectives=d["parties"]["apex_financial"]["brief"]["objectives"][:2]),
     "parties.apex_financial.brief.objectives"),
    ("objectives not a list", _set(OBJ, {"a": 1}), "parties.apex_financial.brief.objectives"),
    ("empty red_lines entry", _set(["parties", "continental_bank", "brief", "red_lines", 1], ""),
     "parties.continental_bank.brief.red_lines[1]"),
    ("no red lines", _set(["parties", "continental_bank", "brief", "red_lines"], []), "parties.continental_bank.brief.red_lines"),
    ("four red lines", _set(["parties", "continental_bank", "brief", "red_lines"], ["a", "b", "c", "d"]),
     "parties.continental_bank.brief.red_lines"),
    ("weights not summing to 1", _set(PAR + ["external_attention", "weights"], [0.25, 0.35, 0.25, 0.1]),
     "parameters.external_attention.weights"),
    ("weights off by 1e-6", _set(PAR + ["external_attention", "weights"], [0.25, 0.35, 0.25, 0.150001]),
     "parameters.external_attention.weights"),
    ("negative weight", _set(PAR + ["external_attention", "weights"], [0.5, 0.6, -0.1, 0.0]),
     "parameters.external_attention.weights[2]"),
    ("weights length mismatch", _set(PAR + ["external_attention", "weights"], [0.5, 0.5]),
     "parameters.external_attention.weights"),
    ("NaN weight", _set(PAR + ["external_attention", "weights", 0], float("nan")), "parameters.external_attention.weights[0]"),
    ("empty levels", _set(PAR + ["external_attention", "levels"], []), "parameters.external_attention.levels"),
    ("duplicate level", _set(PAR + ["external_attention", "levels", 3], "low"), "parameters.external_attention.levels[3]"),
    ("low > high", _set(PAR + ["salience"], {"low": 0.8, "high": 0.3}), "parameters.salience"),
    ("high > 1", _set(PAR + ["salience", "high"], 1.5), "parameters.salience.high"),
    ("negative low", _set(PAR + ["salience", "low"], -0.1), "parameters.salience.low"),
    ("p > 1", _set(PAR + ["opposition_coordination", "p"], 1.2), "parameters.opposition_coordination.p"),
    ("p negative", _set(PAR + ["opposition_coordination", "p"], -0.01), "parameters.opposition_coordination.p"),
    ("bool p", _set(PAR + ["opposition_coordination", "p"], True), "parameters.opposition_coordination.p"),
    ("issues not an object", _set(["issues"], ["market_making"]), "'issues'"),
]


@pytest.mark.parametrize("label, mutate, where", BAD, ids=[b[0] for b in BAD])
def test_malformed_scenario_names_field(label, mutate, where, base):
    d = copy.deepcopy(base)
    mutate(d)
    with pytest.raises(ScenarioError) as e:
        RulemakingScenario.from_dict(d, source="t")
    assert where in str(e.value), str(e.value)
    assert str(e.value).startswith("t: ")


def test_unmutated_base_is_valid(base):
    assert RulemakingScenario.from_dict(copy.deepcopy(base)) == load_scenario("E1")


def test_scenario_error_is_value_error():
    assert issubclass(ScenarioError, ValueError)


def test_non_mapping_scenario():
    with pytest.raises(ScenarioError, match="JSON object"):
        RulemakingScenario.from_dict([1, 2, 3])


def test_load_unknown_name_lists_shipped():
    with pytest.raises(ScenarioError) as e:
        load_scenario("E9")
    assert "'E9'" in str(e.value)
    for n in SHIPPED:
        assert n in str(e.value)


def test_load_missing_file_and_directory(tmp_path):
    with pytest.raises(ScenarioError, match="not found"):
        load_scenario(tmp_path / "absent.json")
    with pytest.raises(ScenarioError, match="not a file"):
        load_scenario(tmp_path)


def test_load_invalid_json_and_invalid_content(tmp_path, base):
    f = tmp_path / "broken.json"
    f.write_text("{not json", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario(f)
    d = copy.deepcopy(base)
    d["parties"]["apex_financial"]["brief"]["objectives"][2]["issue"] = "leverage"
    f.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_scenario(f)
    assert str(e.value).startswith(str(f))
    assert "parties.apex_financial.brief.objectives[2].issue" in str(e.value)


# --------------------------------------------------------------------------- parameter draws


@pytest.mark.parametrize("name", SHIPPED)
def test_draw_parameters_shape_and_ranges(name, scenarios):
    s = scenarios[name]
    pr = s.parameters
    for seed in range(200):
        d = s.draw_parameters(np.random.default_rng(seed))
        assert list(d) == ["external_attention", "attention_value", "salience", "opposition_coordinated"]
        assert d["external_attention"] in pr.attention_levels
        lo, hi = attention_bands(len(pr.attention_levels))[pr.attention_levels.index(d["external_attention"])]
        assert lo / 100 <= d["attention_value"] <= hi / 100 and d["attention_value"] == round(d["attention_value"], 2)
        assert list(d["salience"]) == list(s.party_ids)
        for v in d["salience"].values():
            assert isinstance(v, float) and pr.salience_low <= v <= pr.salience_high
            assert v == round(v, 2)
        assert isinstance(d["opposition_coordinated"], bool)


def test_draw_parameters_deterministic_and_seed_dependent(scenarios):
    s = scenarios["E1"]
    assert s.draw_parameters(np.random.default_rng(7)) == s.draw_parameters(np.random.default_rng(7))
    draws = [s.draw_parameters(np.random.default_rng(seed)) for seed in range(20)]
    assert len({json.dumps(d, sort_keys=True) for d in draws}) == 20
    # only the given generator is used: a global-state reseed changes nothing
    np.random.seed(0)
    a = s.draw_parameters(np.random.default_rng(3))
    np.random.seed(1)
    assert s.draw_parameters(np.random.default_rng(3)) == a


def test_draw_order_attention_salience_coordination(scenarios):
    s = scenarios["E3"]
    pr = s.parameters
    rng = np.random.default_rng(11)
    u = rng.random()
    sal = [rng.uniform(pr.salience_low, pr.salience_high) for _ in s.party_ids]
    c = rng.random() < pr.coordination_p
    d = s.draw_parameters(np.random.default_rng(11))
    cum = np.cumsum(pr.attention_weights)
    assert d["external_attention"] == pr.attention_levels[int(np.searchsorted(cum, u, side="right"))]
    assert list(d["salience"].values()) == [round(x, 2) for x in sal]
    assert d["opposition_coordinated"] == c


def test_attention_bands_split_the_unit_interval_in_order():
    assert attention_bands(4) == [(0, 24), (25, 49), (50, 74), (75, 100)]
    assert attention_bands(1) == [(0, 100)]
    for n in range(1, 33):
        bands = attention_bands(n)
        assert bands[0][0] == 0 and bands[-1][1] == 100
        assert all(lo <= hi for lo, hi in bands) and all(b[0] == a[1] + 1 for a, b in zip(bands, bands[1:]))
    # the position in the band maps onto its two-decimal values evenly, both ends included
    assert [attention_value(1, 4, f) for f in (0.0, 0.039, 0.04, 0.999, 1.0)] == [0.25, 0.25, 0.26, 0.49, 0.49]


@pytest.mark.parametrize("name", ["E1", "E3"])
def test_attention_is_sampled_on_a_scale_within_the_levels_weights(name, scenarios):
    # §6.2: 15 runs "received 12 distinct sampled attention levels": the value has many
    # distinct values, while the level (its word) keeps the scenario's weights
    s = scenarios[name]
    draws = [s.draw_parameters(np.random.default_rng(seed)) for seed in range(15)]
    assert len({d["attention_value"] for d in draws}) > 10
    levels = [s.draw_parameters(np.random.default_rng(seed), attention="levels") for seed in range(15)]
    assert all("attention_value" not in d for d in levels)
    # the same numbers are drawn in both modes: the same level, salience and coordination
    for a, b in zip(draws, levels):
        assert {k: v for k, v in a.items() if k != "attention_value"} == b
    with pytest.raises(ValueError, match="attention must be one of scale, levels"):
        s.draw_parameters(np.random.default_rng(0), attention="words")


@pytest.mark.parametrize("name", ["E1", "E3"])
def test_attention_frequencies_match_weights(name, scenarios):
    s = scenarios[name]
    rng = np.random.default_rng(2024)
    n = 4000
    counts = Counter(s.draw_parameters(rng)["external_attention"] for _ in range(n))
    for level, w in zip(s.parameters.attention_levels, s.parameters.attention_weights):
        assert abs(counts[level] / n - w) < 0.03, (level, counts[level] / n, w)
    # within a level the value is uniform over its band: the mean is the band's middle
    draws = [s.draw_parameters(rng) for _ in range(n)]
    values = [d["attention_value"] for d in draws if d["external_attention"] == "high"]
    assert abs(np.mean(values) - 0.62) < 0.02
    coordinated = sum(s.draw_parameters(rng)["opposition_coordinated"] for _ in range(n)) / n
    assert abs(coordinated - s.parameters.coordination_p) < 0.03


def test_degenerate_parameters(base):
    d = copy.deepcopy(base)
    d["parameters"] = {
        "external_attention": {"levels": ["calm", "storm"], "weights": [0.0, 1.0]},
        "salience": {"low": 0.5, "high": 0.5},
        "opposition_coordination": {"p": 1.0},
    }
    s = RulemakingScenario.from_dict(d)
    for seed in range(50):
        out = s.draw_parameters(np.random.default_rng(seed))
        assert out["external_attention"] == "storm"
        assert set(out["salience"].values()) == {0.5}
        assert out["opposition_coordinated"] is True
    d["parameters"]["opposition_coordination"]["p"] = 0
    s = RulemakingScenario.from_dict(d)
    assert not any(s.draw_parameters(np.random.default_rng(seed))["opposition_coordinated"] for seed in range(50))
