"""The simulated-annealing scenario generator (generator.py) and `scenarios generate`.

Every constraint is checked here with the exact solver directly (``solve(..., "enumerate")``
and the scenario's own fields), not with the generator's ``verify`` or its loss.
"""

from __future__ import annotations

import json
import math
import random
from importlib import resources as importlib_resources

import numpy as np
import pytest

from negotiation_env.cli import main
from negotiation_env.games.resource import Scenario, list_scenarios, load_scenario, solve
from negotiation_env.games.resource import generator
from negotiation_env.games.resource.generator import (
    APPENDIX_C_RESOURCES,
    PAPER_BANDS,
    PAPER_POOL,
    GenerationError,
    _Env,
    _evaluate,
    equal_split,
    generate,
    generate_pool,
    generate_with_stats,
    optimal_splits,
    scenario_key,
)

AGENTS = ("agent_a", "agent_b")
LEVELS = {"mc050": 0.5, "mc080": 0.8, "mc100": 1.0}
APPENDIX_C = {"r1": (10, 1.0), "r2": (10, 1.5), "r3": (6, 3.0)}


def _share(s: Scenario, agent: str, runs) -> float:
    reward = {p.name: p.reward for p in s.projects_of(agent)}
    return sum(reward[name] * n for name, n in runs)


def has_equal_split(s: Scenario, sol) -> bool:
    """The set of (share_a, share_b) pairs over every joint optimum is symmetric under
    swapping the agents (shares are integer sums, so exact comparison is safe)."""
    shares = {(_share(s, "agent_a", ra), _share(s, "agent_b", rb)) for ra, rb in sol.joint_optima}
    return shares == {(b, a) for a, b in shares}


def assert_constraints(s: Scenario, level: float, tolerance: float = 0.05, n_projects: int = 3, band=None):
    """Every generator constraint, checked from the solver's output and the scenario itself."""
    sol = solve(s, "enumerate")
    if band is None:
        assert abs(sol.ratio - level) <= tolerance, (s.name, sol.ratio)
    else:
        assert band[0] <= sol.ratio <= band[1], (s.name, sol.ratio, band)
    assert sol.ratio == pytest.approx(sol.joint_max / (sol.individual_max["agent_a"] + sol.individual_max["agent_b"]))
    assert sol.individual_max["agent_a"] == sol.individual_max["agent_b"] > 0
    assert sol.n_joint_optima >= 2 and len(sol.joint_optima) == sol.n_joint_optima
    shares = [(_share(s, "agent_a", ra), _share(s, "agent_b", rb)) for ra, rb in sol.joint_optima]
    for a, b in shares:
        assert a + b == pytest.approx(sol.joint_max)
    # equal optimal split: every split a joint optimum pays, another pays with the agents swapped
    assert has_equal_split(s, sol), sorted(set(shares))
    # every project is individually affordable: one run alone fits budget, supply, type limit
    for agent in AGENTS:
        ps = s.projects_of(agent)
        assert len(ps) == n_projects
        for p in ps:
            assert 1 <= len(p.requires) <= min(3, s.max_types)
            assert all(isinstance(u, int) and u > 0 for _, u in p.requires)
            assert isinstance(p.reward, int) and p.reward > 0
            assert sum(s.resource(rid).cost * u for rid, u in p.requires) <= s.budget
            assert all(u <= s.resource(rid).supply for rid, u in p.requires)
        # and no agent holds two identical projects
        specs = [(dict(p.requires), p.reward) for p in ps]
        assert all(specs[i] != specs[j] for i in range(len(specs)) for j in range(i + 1, len(specs)))
    return sol


def _is_appendix_c(s: Scenario) -> bool:
    return (
        {r.id: (r.supply, r.cost) for r in s.resources} == APPENDIX_C
        and s.budget == 18
        and s.max_types == 2
    )


# --------------------------------------------------------------------------- generate()


@pytest.mark.parametrize("level", [0.5, 0.8, 1.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_generated_scenarios_meet_every_constraint(level, seed):
    res = generate_with_stats(level, seed)
    s = res.scenario
    assert _is_appendix_c(s)
    sol = assert_constraints(s, level)
    # the returned solution is the solver's
    assert res.solution.joint_max == sol.joint_max and res.solution.individual_max == sol.individual_max
    assert res.solution.n_joint_optima == sol.n_joint_optima
    assert res.loss == 0.0 and res.iterations >= 1 and res.restarts >= 0 and res.rejected >= 0
    assert res.seed == seed and res.target_ratio == level
    assert s.name == f"gen_mc{round(level * 100):03d}_s{seed}"
    # the scenario is valid data
    assert Scenario.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_tight_tolerance_and_custom_environment():
    s = generate(1.0, 5, tolerance=1e-9, name="exact")
    sol = assert_constraints(s, 1.0, tolerance=1e-9)
    assert sol.ratio == 1.0 and s.name == "exact"
    env = {"wood": {"supply": 8, "cost": 2.0}, "ore": {"supply": 5, "cost": 1.0}}
    s2 = generate(0.8, 2, n_projects=2, resources=env, budget=12, max_types=2)
    assert [r.id for r in s2.resources] == ["wood", "ore"] and s2.budget == 12
    assert_constraints(s2, 0.8, n_projects=2)
    s3 = generate(0.5, 1, n_projects=1, max_types=1)
    assert_constraints(s3, 0.5, n_projects=1)


def test_same_seed_same_scenario_and_no_global_random_state():
    np_state = np.random.get_state()
    py_state = random.getstate()
    a = generate_with_stats(0.8, 7)
    b = generate_with_stats(0.8, 7)
    assert a.scenario.to_dict() == b.scenario.to_dict()
    assert (a.iterations, a.restarts, a.rejected) == (b.iterations, b.restarts, b.rejected)
    assert generate(0.8, 7) == a.scenario
    after = np.random.get_state()
    assert after[0] == np_state[0] and np.array_equal(after[1], np_state[1]) and after[2:] == np_state[2:]
    assert random.getstate() == py_state


def test_different_seeds_give_different_scenarios():
    for level in (0.5, 0.8, 1.0):
        dicts = [generate(level, seed, name="same").to_dict() for seed in (0, 1, 2)]
        assert dicts[0] != dicts[1] and dicts[0] != dicts[2] and dicts[1] != dicts[2]


@pytest.mark.parametrize(
    "kwargs,arg",
    [
        ({"ratio": 0}, "ratio"),
        ({"ratio": -0.5}, "ratio"),
        ({"ratio": 1.01}, "ratio"),
        ({"ratio": math.nan}, "ratio"),
        ({"ratio": "0.8"}, "ratio"),
        ({"ratio": 0.3}, "ratio"),  # below 0.5 - tolerance: unreachable with V_a = V_b
        ({"tolerance": 0}, "tolerance"),
        ({"tolerance": -0.1}, "tolerance"),
        ({"n_projects": 0}, "n_projects"),
        ({"n_projects": 2.5}, "n_projects"),
        ({"n_projects": True}, "n_projects"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"budget": 0}, "budget"),
        ({"budget": math.inf}, "budget"),
        ({"max_types": 0}, "max_types"),
        ({"max_types": 4}, "max_types"),
        ({"max_iters": 0}, "max_iters"),
        ({"resources": {}}, "resources"),
        ({"resources": "r1"}, "resources"),
        ({"resources": {"r1": {"supply": -1, "cost": 1.0}}}, "resources"),
        ({"resources": {"r1": {"supply": 0, "cost": 1.0}}}, "resources"),
        ({"name": ""}, "name"),
        ({"name": 3}, "name"),
        ({"max_units": 0}, "max_units"),
        ({"max_reward": 0}, "max_reward"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_argument(kwargs, arg):
    with pytest.raises(ValueError, match=arg):
        generate(**kwargs)


def test_gives_up_with_a_clear_error():
    with pytest.raises(GenerationError, match="max_iters=20"):
        generate(0.8, 0, max_iters=20)


def test_enumeration_used_by_the_generator_matches_a_brute_force():
    """The generator scores candidates with the solver's run_vectors; check that against
    an independent product over all run counts, on every shipped scenario."""
    import itertools

    for name in list_scenarios():
        s = load_scenario(name)
        env = _Env(s.resources, s.budget, s.max_types)
        supply = np.array([r.supply for r in s.resources])
        cost = np.array([r.cost for r in s.resources])
        for agent in AGENTS:
            R = np.array(s.requirement_matrix(agent), dtype=np.int64)
            rew = np.array([p.reward for p in s.projects_of(agent)], dtype=float)
            ours = sorted(map(tuple, env.options(R, rew)[0].tolist()))
            brute = []
            for x in itertools.product(*(range(0, int(supply.max()) + 1) for _ in range(R.shape[0]))):
                use = np.array(x) @ R
                if cost @ use <= s.budget + 1e-9 and np.all(use <= supply) and np.count_nonzero(use) <= s.max_types:
                    brute.append(tuple(x))
            assert ours == sorted(brute), (name, agent)


# --------------------------------------------------------------------------- generate_pool()


def test_pool_is_distinct_named_and_reports_progress():
    calls = []
    pool = generate_pool(0.5, 3, seed=3, start=7,
                         progress=lambda done, total, res: calls.append((done, total, res.scenario.name)))
    names = [s.name for s, _ in pool]
    assert names == ["mc050_g7", "mc050_g8", "mc050_g9"]
    assert calls == [(i + 1, 3, n) for i, n in enumerate(names)]
    assert len({scenario_key(s) for s, _ in pool}) == 3
    for s, res in pool:
        assert res.scenario is s
        assert_constraints(s, 0.5)
        # each scenario's recorded seed reproduces it alone
        assert generate(0.5, res.seed, name=s.name) == s


def test_pool_excludes_given_scenarios_and_mirrors():
    (first, _), = generate_pool(1.0, 1, seed=0, prefix="x")
    mirrored = Scenario(first.name, first.resources, first.budget, first.max_types,
                        (("agent_a", first.projects_of("agent_b")), ("agent_b", first.projects_of("agent_a"))))
    assert scenario_key(mirrored) == scenario_key(first)
    (other, res), = generate_pool(1.0, 1, seed=0, prefix="x", exclude=[mirrored])
    assert scenario_key(other) != scenario_key(first)
    assert res.rejected >= 1  # the duplicate was counted


@pytest.mark.parametrize(
    "kwargs,arg",
    [({"n": 0}, "n"), ({"n": 1, "seed": -2}, "seed"), ({"n": 1, "ratio": 2.0}, "ratio"),
     ({"n": 1, "name": "x"}, "name"), ({"n": 2, "max_attempts": 1}, "max_attempts")],
)
def test_pool_bad_arguments(kwargs, arg):
    kwargs = {"ratio": 0.8, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=arg):
        generate_pool(**kwargs)


# --------------------------------------------------------------------------- CLI


def test_cli_generate_writes_verified_files(tmp_path, capsys):
    out = tmp_path / "new"
    assert main(["scenarios", "generate", "--ratio", "0.8", "--n", "3", "--seed", "0", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "written 3 scenario files" in text and "rejected candidates: 0" in text
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["mc080_g1.json", "mc080_g2.json", "mc080_g3.json"]
    keys = set()
    for f in files:
        s = load_scenario(f)
        assert s.name == f.stem and _is_appendix_c(s)
        sol = assert_constraints(s, 0.8)
        keys.add(scenario_key(s))
        raw = json.loads(f.read_text(encoding="utf-8"))
        assert list(raw) == ["name", "resources", "budget", "max_types", "projects", "meta"]
        meta = raw["meta"]
        assert meta["target_ratio"] == 0.8
        assert meta["ratio"] == pytest.approx(sol.ratio, abs=5e-5)
        assert meta["individual_max"] == sol.individual_max
        assert meta["joint_max"] == sol.joint_max
        assert meta["n_joint_optima"] == sol.n_joint_optima
        assert meta["pool_seed"] == 0 and isinstance(meta["generator_seed"], int)
        assert meta["origin"].startswith("simulated annealing")
        assert generate(0.8, meta["generator_seed"], name=s.name) == s
    assert len(keys) == 3
    # the shipped pool is never repeated
    shipped = {scenario_key(load_scenario(n)) for n in list_scenarios()}
    assert not keys & shipped
    # same names again: refused unless --force
    assert main(["scenarios", "generate", "--n", "1", "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err.replace("\n", " ")
    assert main(["scenarios", "generate", "--n", "1", "--out", str(out), "--force", "--ratio", "0.8"]) == 0


def test_cli_generate_in_a_band(tmp_path, capsys):
    assert main(["scenarios", "generate", "--ratio", "0.8", "--band", "0.80", "0.83", "--n", "1", "--seed", "5",
                 "--out", str(tmp_path)]) == 0
    assert "target M/C in [0.8, 0.83]" in capsys.readouterr().out
    f = tmp_path / "mc080_g1.json"
    assert_constraints(load_scenario(f), 0.8, band=(0.80, 0.83))
    assert json.loads(f.read_text(encoding="utf-8"))["meta"]["generator_params"]["band"] == [0.8, 0.83]


def test_cli_list_is_the_default(capsys):
    assert main(["scenarios", "list"]) == 0
    listed = capsys.readouterr().out
    assert main(["scenarios"]) == 0
    assert capsys.readouterr().out == listed
    assert "mc050_1" in listed and "mc100_6" in listed and "legacy" not in listed


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--ratio", "1.5"], "--ratio"),
        (["--ratio", "0"], "--ratio"),
        (["--ratio", "0.3"], "--ratio"),
        (["--n", "0"], "--n must be >= 1"),
        (["--tolerance", "0"], "--tolerance"),
        (["--seed", "-1"], "--seed"),
        (["--n-projects", "0"], "--n-projects"),
        (["--prefix", "bad/name"], "--prefix"),
        (["--prefix", ""], "--prefix"),
        (["--band", "0.9", "0.8"], "--band"),
        (["--band", "0.2", "0.4"], "--band"),
    ],
)
def test_cli_bad_flags(argv, message, tmp_path, capsys):
    assert main(["scenarios", "generate", "--out", str(tmp_path), *argv]) == 2
    cap = capsys.readouterr()
    assert message in (cap.out + cap.err).replace("\n", " ")
    assert not list(tmp_path.glob("*.json"))


def test_cli_unwritable_out_dir(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["scenarios", "generate", "--out", str(blocker / "sub")]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["scenarios", "generate", "--out", str(blocker)]) == 2
    assert "not a writable directory" in capsys.readouterr().err.replace("\n", " ")


def test_cli_non_numeric_flag_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["scenarios", "generate", "--ratio", "abc", "--out", str(tmp_path)])
    assert e.value.code == 2
    assert "--ratio" in capsys.readouterr().err


# --------------------------------------------------------------------------- the shipped pool


def _raw(name: str) -> dict:
    f = importlib_resources.files("negotiation_env.games.resource") / "scenarios" / f"{name}.json"
    return json.loads(f.read_text(encoding="utf-8"))


def test_shipped_pool_is_the_papers_four_five_six():
    """Appendix C.2: 4 scenarios at M/C 0.50-0.54, 5 at 0.80-0.83, 6 at 1.00, all distinct."""
    names = list_scenarios()
    assert names == [f"mc{round(level * 100):03d}_{k}" for level, n in PAPER_POOL.items() for k in range(1, n + 1)]
    assert PAPER_POOL == {0.5: 4, 0.8: 5, 1.0: 6}
    assert PAPER_BANDS == {0.5: (0.50, 0.54), 0.8: (0.80, 0.83), 1.0: (1.0, 1.0)}
    assert len({scenario_key(load_scenario(n)) for n in names}) == len(names)  # no game twice, up to renaming
    # the default scenario and every level's default rotation pool (within 0.05 of its M/C)
    # hold at least the 4 rounds of a rotating game
    from negotiation_env.games.resource.game import _default_pool

    assert "mc080_1" in names
    for level, n in PAPER_POOL.items():
        assert len(_default_pool(load_scenario(f"mc{round(level * 100):03d}_1"))) == n >= 4


@pytest.mark.parametrize("name", list_scenarios())
def test_shipped_scenario_meets_the_papers_constraints(name):
    """M/C inside the paper's band, V_a = V_b, an equal optimal split, more than one joint
    optimum, every project affordable alone, the Appendix C environment, made by the
    annealer with its seed and parameters recorded."""
    s = load_scenario(name)
    level = LEVELS[name.split("_")[0]]
    sol = assert_constraints(s, level, band=PAPER_BANDS[level])
    assert _is_appendix_c(s)
    meta = _raw(name)["meta"]
    assert meta["target_ratio"] == level and meta["origin"].startswith("simulated annealing")
    assert meta["generator_params"]["band"] == list(PAPER_BANDS[level]) and meta["pool_seed"] == 0
    assert isinstance(meta["generator_seed"], int)
    assert meta["n_joint_optima"] == sol.n_joint_optima and meta["joint_max"] == sol.joint_max
    assert meta["optimal_splits"] == [list(p) for p in optimal_splits(s, sol)]


def test_the_cheapest_shipped_scenario_regenerates_from_its_meta():
    """The annealer rebuilds a shipped file exactly from the seed and parameters in its meta
    block (the one that took the fewest moves; `negotiation-env scenarios pool --check`
    rebuilds them all)."""
    name = min(list_scenarios(), key=lambda n: _raw(n)["meta"]["iterations"])
    raw = _raw(name)
    meta = raw["meta"]
    params = dict(meta["generator_params"], band=tuple(meta["generator_params"]["band"]))
    res = generate_with_stats(meta["target_ratio"], meta["generator_seed"], name=name, resources=raw["resources"],
                              budget=raw["budget"], max_types=raw["max_types"], **params)
    assert res.scenario == load_scenario(name)
    assert dict(res.to_json_dict(), meta=dict(res.meta, pool_seed=0)) == raw


def test_equal_split_is_the_symmetric_set_of_optimal_splits():
    """The definition, on legacy scenarios: legacy_mc080_2's joint optima pay (14, 22) and
    (21, 15), so each agent is favoured by some optimum (the weaker reading holds) but the
    best optimal share is 22 for agent_b and 21 for agent_a: no equal split. Of the eight
    legacy scenarios at 0.8, four fail it; the loss term is 0 exactly when it holds."""
    s = load_scenario("legacy_mc080_2")
    sol = solve(s, "enumerate")
    assert optimal_splits(s, sol) == [(14.0, 22.0), (21.0, 15.0)]
    assert not equal_split(s, sol) and not has_equal_split(s, sol)
    legacy_08 = [f"legacy_mc080_{k}" for k in (1, 2, 3, 4, "g1", "g2", "g3", "g4")]
    failing = [n for n in legacy_08 if not equal_split(load_scenario(n), solve(load_scenario(n), "enumerate"))]
    assert failing == ["legacy_mc080_2", "legacy_mc080_3", "legacy_mc080_4", "legacy_mc080_g3"]
    for n in legacy_08 + list_scenarios():
        sc = load_scenario(n)
        sol = solve(sc, "enumerate")
        assert equal_split(sc, sol) == has_equal_split(sc, sol), n
        env = _Env(sc.resources, sc.budget, sc.max_types)
        R = np.array([sc.requirement_matrix(a) for a in AGENTS], dtype=np.int64)
        rew = np.array([[p.reward for p in sc.projects_of(a)] for a in AGENTS], dtype=np.int64)
        term = _evaluate(env, R, rew, 0.8, 0.05).terms["equal_split"]
        assert (term == 0.0) == equal_split(sc, sol), (n, term)


def test_legacy_scenarios_load_by_name_only():
    s = load_scenario("legacy_mc080_1")
    assert s.name == "legacy_mc080_1"
    assert not any(n.startswith("legacy_") for n in list_scenarios())
    raw = json.loads((importlib_resources.files("negotiation_env.games.resource") / "scenarios_legacy"
                      / "legacy_mc080_1.json").read_text(encoding="utf-8"))
    assert "M/C = 0.7941 is not in [0.8, 0.83]" in raw["meta"]["pool_constraints_failed"]


# --------------------------------------------------------------------------- bands and the paper's pool


@pytest.mark.parametrize("level", [0.5, 0.8, 1.0])
def test_band_bounds_the_ratio(level):
    band = PAPER_BANDS[level]
    res = generate_with_stats(level, 3, band=band)
    assert_constraints(res.scenario, level, band=band)
    assert res.band == band and res.meta["generator_params"]["band"] == list(band)
    assert res.meta["origin"].startswith("simulated annealing")


@pytest.mark.parametrize("band", [(0.9, 0.8), (0, 0.5), (0.2, 0.4), (0.5, 1.2), "0.5", (0.5,), (0.5, math.nan)])
def test_bad_band_is_a_value_error(band):
    with pytest.raises(ValueError, match="band"):
        generate(0.8, 0, band=band)


def test_cli_pool_writes_and_checks(tmp_path, capsys, monkeypatch):
    """`scenarios pool` on a cut-down pool (two scenarios at 1.0): the files it writes are
    the shipped mc100_1 and mc100_2, and --check reports the shipped files it did not
    rebuild (exit 1)."""
    monkeypatch.setattr(generator, "PAPER_POOL", {1.0: 2})
    out = tmp_path / "pool"
    assert main(["scenarios", "pool", "--out", str(out)]) == 0
    assert "written 2 scenario files" in capsys.readouterr().out
    for name in ("mc100_1", "mc100_2"):
        assert json.loads((out / f"{name}.json").read_text(encoding="utf-8")) == _raw(name)
    assert main(["scenarios", "pool", "--out", str(out)]) == 2  # refuses to overwrite without --force
    assert "--force" in capsys.readouterr().err.replace("\n", " ")
    assert main(["scenarios", "pool", "--check"]) == 1
    err = capsys.readouterr().err
    assert "mc050_1: shipped, but not in the regenerated pool" in err.replace("\n", " ") and "mc100_1" not in err
    assert main(["scenarios", "pool"]) == 2  # neither --out nor --check
    assert main(["scenarios", "pool", "--check", "--out", str(out)]) == 2
