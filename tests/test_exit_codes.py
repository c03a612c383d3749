"""One exit-code table for every command: an existing export output refused unless
--force, the same words and code for a source that is not a run in every command that
reads one, usage and config errors exit 2 (an unknown scripted policy included), and
every problem of a config file reported at once with a did-you-mean."""

from __future__ import annotations

import warnings

import pytest

from negotiation_env import exitcodes
from negotiation_env.cli import build_parser, main
from negotiation_env.runner import run

CONFIG = {"name": "exit", "seed": 0, "games": [{"game": "resource", "policies": ["scripted:oracle", "scripted:greedy"],
                                                "pairings": "cross", "games_per_cell": 1,
                                                "config": {"num_rounds": 1, "cheap_talk_turns": 1}}]}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("exit_run")
    assert run(CONFIG, out).complete
    return out


def _main(capsys, *args):
    rc = main([str(a) for a in args])
    return rc, capsys.readouterr().err


# --------------------------------------------------------------------------- export refuses an existing output


def test_export_refuses_an_existing_file_and_force_replaces_it(run_dir, tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    out.write_text("an earlier export\n")
    rc, err = _main(capsys, "export", run_dir, "--kind", "transitions", "--out", out)
    assert rc == 2
    assert err == f"error: {out} already exists; pass --force to replace it, or choose another --out\n"
    assert out.read_text() == "an earlier export\n"  # untouched
    rc, _ = _main(capsys, "export", run_dir, "--kind", "transitions", "--out", out, "--force")
    assert rc == 0
    fresh = tmp_path / "fresh.jsonl"
    assert _main(capsys, "export", run_dir, "--kind", "transitions", "--out", fresh)[0] == 0
    assert out.read_text() == fresh.read_text() and out.read_text().count("\n") == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.jsonl", "t.jsonl"]  # no temporary file left


def test_export_minari_refuses_an_existing_dataset_and_force_replaces_it(run_dir, tmp_path, capsys):
    pytest.importorskip("minari", reason="the 'minari' extra is not installed")
    root = tmp_path / "root"
    args = ("export", run_dir, "--kind", "minari", "--agent", "agent_a", "--prefix", "ex", "--out", root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert _main(capsys, *args)[0] == 0
        marker = root / "ex" / "resource-agent-a-v1" / "marker"
        marker.write_text("the old dataset")
        rc, err = _main(capsys, *args)
        assert rc == 2
        assert err == (f"error: {root.resolve() / 'ex' / 'resource-agent-a-v1'} already exists; pass --force to "
                       "replace it, or choose another --out\n")
        assert marker.exists()
        assert _main(capsys, *args, "--force")[0] == 0
    assert not marker.exists() and (root / "ex" / "resource-agent-a-v1" / "data" / "metadata.json").is_file()
    assert sorted(p.name for p in (root / "ex").iterdir()) == ["namespace_metadata.json", "resource-agent-a-v1"]


# --------------------------------------------------------------------------- a source that is not a run

READERS = {
    "report": (), "view": (), "leaderboard": (), "judge": ("--tables-only",),
    "export": ("--kind", "transitions", "--out", "{tmp}/x.jsonl"),
    "experiments": ("--model", "hf:nowhere"),
}


@pytest.mark.parametrize("command", sorted(READERS))
def test_a_missing_source_and_a_folder_that_is_not_a_run(command, tmp_path, capsys):
    extra = [a.format(tmp=tmp_path) for a in READERS[command]]
    rc, err = _main(capsys, command, tmp_path / "nowhere", *extra)
    assert (rc, err) == (2, f"error: no run folder or trace file at {tmp_path / 'nowhere'}\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a trace")
    rc, err = _main(capsys, command, empty, *extra)
    assert (rc, err) == (2, f"error: {empty} is not a run folder (no traces.jsonl)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]  # nothing written
    assert sorted(p.name for p in empty.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("argv", [
    ["games", "chess"], ["play", "--seed", "x"], ["scenarios", "generate"], ["run", "--workers", "two"],
    ["export", "DIR"], ["report"], ["view", "DIR", "--bogus"], ["judge"], ["experiments", "DIR"],
])
def test_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == exitcodes.USAGE
    assert "error:" in capsys.readouterr().err


def test_every_command_lists_its_exit_codes_in_help():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    helps = {name: p.format_help() for name, p in sub.choices.items()}
    assert sorted(helps) == ["experiments", "export", "games", "judge", "leaderboard", "play", "report", "run",
                             "scenarios", "serve", "train", "view"]
    for name, text in helps.items():
        assert "\nexit codes:\n  0    " in text, name
    assert "\n  2    usage error, a missing source, or a folder that is not a run (no traces.jsonl)\n" in helps["view"]
    assert "\n  1    the filters select nothing" in helps["export"]
    assert "\n  143  terminated (SIGTERM)" in helps["run"]


# --------------------------------------------------------------------------- config errors


def test_every_config_problem_at_once_with_suggestions(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[[games]]\ngame = "resource"\npolicies = ["scripted:oracle", "scripted:greedyy"]\n'
                   'games_per_cel = 2\nconfig = { num_round = 3 }\n'
                   '[[games]]\ngame = "matrx"\npolicies = ["scripted:always_a"]\n')
    rc, err = _main(capsys, "run", cfg, "--out", tmp_path / "out")
    assert rc == 2
    assert err == (f"error: run config {cfg}: 4 problems:\n"
                   "  games[0].games_per_cel: unknown field (did you mean 'games_per_cell'?)\n"
                   "  games[0].config.num_round: unknown config field of the resource game (did you mean "
                   "'num_rounds'?)\n"
                   "  games[0].policies[1]: unknown scripted policy 'greedyy' for game 'resource' (did you mean "
                   "'scripted:greedy'?)\n"
                   "  games[1].game: unknown game 'matrx' (did you mean 'matrix'?)\n")
    assert not (tmp_path / "out").exists()
    assert _main(capsys, "run", cfg, "--plan")[0] == 2


def test_a_misspelt_scripted_policy_exits_2_with_a_suggestion(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[[games]]\ngame = "resource"\npolicies = ["scripted:oracle", "scripted:greedyy"]\n')
    rc, err = _main(capsys, "run", cfg, "--out", tmp_path / "out")
    assert (rc, err) == (2, f"error: run config {cfg}: games[0].policies[1]: unknown scripted policy 'greedyy' for "
                            "game 'resource' (did you mean 'scripted:greedy'?)\n")


def test_problems_of_several_conditions_and_values_are_reported_together(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[[games]]\ngame = "resource"\npolicies = ["scripted:oracle"]\npairings = "self"\n'
                   '[games.factors.stability]\nstable = { partner = "stabel" }\nshifting = { partner = "shiftng" }\n')
    rc, err = _main(capsys, "run", cfg, "--plan")
    assert rc == 2
    assert err == ("error: run config: 2 problems:\n"
                   "  games[0] condition 'stability=stable': config field 'partner' must be one of 'stable', "
                   "'shifting'; got 'stabel' (did you mean 'stable'?)\n"
                   "  games[0] condition 'stability=shifting': config field 'partner' must be one of 'stable', "
                   "'shifting'; got 'shiftng' (did you mean 'shifting'?)\n")


def test_a_block_problem_shared_by_its_conditions_is_reported_once(capsys):
    from negotiation_env.runner import RunConfigError, make_plan, parse_config

    cfg = {"games": [{"game": "resource", "policies": ["scripted:oracle", "scripted:greedy"],
                      "pairings": [["scripted:oracle", "scripted:nobody"]],
                      "factors": {"stability": {"stable": {"partner": "stable"}, "shifting": {"partner": "shifting"}}}},
                     {"game": "resource", "name": "second", "policies": ["scripted:oracle"], "pairings": "cross"}]}
    with pytest.raises(RunConfigError) as e:
        make_plan(parse_config(cfg))
    assert str(e.value) == ("run config: 2 problems:\n"
                            "  games[0].pairings[0]: unknown policy 'scripted:nobody'; policies: scripted:oracle, "
                            "scripted:greedy\n"
                            "  games[1].pairings: 'cross' needs at least two policies")
