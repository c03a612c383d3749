"""The negotiation-env command."""

from __future__ import annotations

import pytest

from negotiation_env.cli import main


def test_play_default_prints_transcript_and_table(capsys):
    assert main(["play"]) == 0
    out = capsys.readouterr().out
    assert "=== Round 4/4 ===" in out and "Game over" in out
    assert "greedy (agent_a) vs random (agent_b) on mc080_1" in out


def test_play_text_actions_same_outcome_as_structured(capsys):
    assert main(["play", "--seed", "3"]) == 0
    structured = capsys.readouterr().out
    assert main(["play", "--seed", "3", "--text"]) == 0
    assert capsys.readouterr().out == structured


def test_scenarios_lists_pool(capsys):
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "mc050_1" in out and "mc100_4" in out and "0.500" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["play", "--rounds", "0"], "num_rounds"),
        (["play", "--scenario", "nope"], "unknown scenario 'nope'"),
        (["play", "--a", "wizard"], "unknown policy 'wizard'"),
        (["play", "--theme", "jungle"], "theme"),
    ],
)
def test_bad_flags_give_clear_errors(argv, message, capsys):
    assert main(argv) == 2
    cap = capsys.readouterr()
    assert message in (cap.out + cap.err).replace("\n", " ")


# --------------------------------------------------------------------------- train


def test_train_sft_help_has_a_flag_per_config_field_and_the_exit_codes(capsys):
    import dataclasses

    from negotiation_env.train.sft import SFTRunConfig

    with pytest.raises(SystemExit) as e:
        main(["train", "sft", "--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    for f in dataclasses.fields(SFTRunConfig):
        assert "--" + f.name.replace("_", "-") in text, f.name
    assert "--no-constrained" in text and "{follower,oracle}" in text
    assert "(default 600)" in text  # steps, from the dataclass
    assert "\nexit codes:\n  0    success\n" in text and "\n  3    the sft extra is not installed" in text


@pytest.mark.parametrize("argv,message", [
    (["train", "sft", "--steps", "0"], "steps must be >= 1; got 0"),
    (["train", "sft", "--train-on", "conversations"], "use context=0"),
    (["train", "sft", "--curriculum-disclosures", "nan"], "curriculum_disclosures must be a number >= 0"),
    (["train", "rl", "--eval-episodes", "0"], "eval_episodes must be >= 1"),
])
def test_train_bad_values_exit_2_naming_the_field(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err


@pytest.mark.parametrize("argv", [["train", "sft", "--steps", "many"], ["train", "sft", "--teacher", "nobody"],
                                  ["train", "sft", "--levels", "mc0.7"], ["train", "rl", "--experiments", "chess"]])
def test_train_unreadable_values_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and "error: argument" in capsys.readouterr().err


def test_train_without_its_extra_exits_3_with_the_pip_line(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in ("trl", "tianshou") else real(name, *a))
    assert main(["train", "sft", "--quick"]) == 3
    assert "pip install 'negotiation_env[sft]'" in capsys.readouterr().err
    assert main(["train", "rl", "--quick"]) == 3
    assert "pip install 'negotiation_env[rl]'" in capsys.readouterr().err


def test_train_sft_refuses_a_work_folder_in_use(tmp_path, capsys):
    (tmp_path / "old.txt").write_text("x")
    assert main(["train", "sft", "--quick", "--work", str(tmp_path)]) == 2
    assert "is not an empty folder" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]
