from collections import Counter

import pytest

from negotiation_env.runner import RunConfigError, load_config, make_plan, parse_config

from .helpers import small_config


def plan_of(cfg):
    return make_plan(parse_config(cfg))


def block(**kw):
    cfg = small_config()
    cfg["games"][0].update(kw)
    return cfg


@pytest.mark.parametrize("change, message", [
    ({"games_per_cell": 0}, r"games\[0\]\.games_per_cell: Input should be greater than or equal to 1 \(got 0\)"),
    ({"pairings": "round-robin"}, r"games\[0\]\.pairings: must be one of self, cross, all, balanced, ordered"),
    ({"policies": []}, r"games\[0\]\.policies: List should have at least 1 item"),
    ({"policies": ["oracle"]}, r"games\[0\]\.policies\[0\]\.spec: a policy spec is KIND:NAME"),
    ({"policies": ["magic:x"]}, r"unknown policy kind 'magic'"),
    ({"policies": ["openai:gpt@https://me:pw@host/v1"]}, r"must not hold credentials"),
    ({"policies": [{"spec": "scripted:oracle", "label": "a b"}]}, r"policies\[0\]\.label: a label must be"),
    ({"colour": "red"}, r"games\[0\]\.colour: unknown field; valid fields: game, name, policies"),
    ({"scenario_sets": {"x": []}}, r"scenario set 'x' is empty"),
])
def test_schema_errors_name_the_field(change, message):
    with pytest.raises(RunConfigError, match=message):
        parse_config(block(**change))


def test_top_level_errors():
    with pytest.raises(RunConfigError, match=r"games: required field is missing"):
        parse_config({"seed": 1})
    with pytest.raises(RunConfigError, match=r"seed: Input should be greater than or equal to 0"):
        parse_config({**small_config(), "seed": -1})
    with pytest.raises(RunConfigError, match="top level must be a table"):
        parse_config([1, 2])


@pytest.mark.parametrize("change, message", [
    ({"game": "chess"}, r"games\[0\]\.game: unknown game 'chess'; available: resource"),
    ({"config": {"num_rounds": 0}}, r"config field 'num_rounds' must be an integer between 1 and 1000"),
    ({"config": {"colour": 1}}, r"games\[0\]\.config\.colour: unknown config field of the resource game; "
                                r"`negotiation-env games resource` lists its fields"),
    ({"factors": {"stability": {"weird": {"partner": "sometimes"}}}},
     r"condition 'stability=weird'.*config field 'partner' must be one of 'stable', 'shifting'"),
    ({"scenario_sets": {"x": ["mc999_*"]}}, r"scenario_sets\.x\[0\]: pattern 'mc999_\*' matches no scenario"),
    ({"scenario_sets": {"x": ["mc080_1", "nope"]}}, r"scenario_sets\.x\[1\]: config field 'scenario'"),
    ({"config": {"first_speaker": "agent_b"}}, r"'first_speaker' is set both in the config and by swap_first_speaker"),
    ({"config": {"scenario": "mc080_1"}}, r"'scenario' is set both in the config and by scenario_sets"),
    ({"pairings": [["scripted:oracle"]]}, r"pairings\[0\]: a lineup names one policy per seat \(2"),
    ({"pairings": [["scripted:oracle", "scripted:nobody"]]}, r"pairings\[0\]: unknown policy 'scripted:nobody'"),
    ({"policies": ["scripted:oracle", "scripted:oracle"]}, r"'scripted:oracle' is listed twice"),
    ({"policies": ["scripted:oracle"], "pairings": "cross"}, r"'cross' needs at least two policies"),
    ({"factors": {"a": {"x": {"partner": "stable"}}, "b": {"y": {"partner": "shifting"}}}},
     r"factors\.b\.y: sets partner, which another factor or condition sets too"),
])
def test_semantic_errors_name_the_field(change, message):
    with pytest.raises(RunConfigError, match=message):
        plan_of(block(**change))


def test_unknown_scripted_policy_is_refused_before_playing(tmp_path):
    from negotiation_env.runner import RunConfig, run
    from negotiation_env.runner.preflight import PreflightError

    cfg = block(policies=["scripted:oracle", "scripted:nobody"])
    with pytest.raises(RunConfigError, match=r"^run config: games\[0\]\.policies\[1\]: unknown scripted policy "
                                             r"'nobody' for game 'resource'; available: random, boulware"):
        run(cfg, tmp_path / "out")
    # a RunConfig built in Python skips the file's checks: preflight names it, a config error (exit 2)
    with pytest.raises(PreflightError, match=r"scripted:nobody \(game resource\): unknown scripted policy 'nobody'"
                                             r".*available: random") as e:
        run(RunConfig.model_validate(cfg), tmp_path / "out")
    assert e.value.exit_code == 2
    assert not (tmp_path / "out").exists()  # refused before the output folder is made


def test_files_toml_yaml_and_errors(tmp_path):
    toml = tmp_path / "c.toml"
    toml.write_text('seed = 1\n[[games]]\ngame = "resource"\npolicies = ["scripted:oracle"]\npairings = "self"\n')
    yaml = tmp_path / "c.yaml"
    yaml.write_text("seed: 1\ngames:\n  - game: resource\n    policies: [scripted:oracle]\n    pairings: self\n")
    assert load_config(toml) == load_config(yaml)
    assert load_config(toml).run_id() == load_config(yaml).run_id()
    bad = tmp_path / "bad.toml"
    bad.write_text("seed = [\n")
    with pytest.raises(RunConfigError, match="invalid TOML"):
        load_config(bad)
    wrong = tmp_path / "w.toml"
    wrong.write_text('seed = 1\n[[games]]\ngame = "resource"\npolicies = ["scripted:oracle"]\ngames_per_cell = "ten"\n')
    with pytest.raises(RunConfigError, match=r"w\.toml: games\[0\]\.games_per_cell"):
        load_config(wrong)
    with pytest.raises(RunConfigError, match="unknown format '.ini'"):
        (tmp_path / "c.ini").write_text("")
        load_config(tmp_path / "c.ini")
    with pytest.raises(RunConfigError, match="no such file"):
        load_config(tmp_path / "missing.toml")


def test_default_config_is_the_seed_000_cohort_shape():
    plan = make_plan(load_config())
    # §4: 12 conditions x 6 pairings (3 self-play + 3 cross, one cell each) x 10 games = 720
    assert len(plan) == 720 and len(plan.cells) == 72
    conditions = {s.condition for s in plan.specs}
    assert conditions == {f"stability={a},rotation={b}" for a in ("stable", "shifting") for b in ("fixed", "rotating")}
    assert {s.scenario_set for s in plan.specs} == {"mc0.5", "mc0.8", "mc1.0"}
    # every pairing the same number of games, so rows pooled over pairings weigh them alike
    pairings = Counter(frozenset(s.lineup) for s in plan.specs)
    assert len(pairings) == 6 and set(pairings.values()) == {120}
    # seat balance: within a cross pairing each policy holds each seat in half its games, so
    # it speaks first (agent_a opens) and, under partner shifting, is the one whose context
    # resets (agent_b) equally often
    seats = Counter((frozenset(s.lineup), seat, label) for s in plan.specs if len(set(s.lineup)) == 2
                    for seat, label in enumerate(s.lineup))
    assert len(seats) == 3 * 2 * 2 and set(seats.values()) == {60}
    shifted = Counter(s.lineup[1] for s in plan.specs if s.config["partner"] == "shifting" and len(set(s.lineup)) == 2)
    assert set(shifted.values()) == {60}  # each policy is the reset one in 60 cross-play games
    assert all("first_speaker" not in s.config for s in plan.specs)  # agent_a opens: the seat, not the policy
    assert all(s.config["num_rounds"] == 4 for s in plan.specs)
