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
