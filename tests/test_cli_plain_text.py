"""CLI messages reach the terminal as plain text. rich reads ``[api]`` as a
markup tag and drops it, so ``pip install 'negotiation_env[api]'`` would read as
``pip install 'negotiation_env'``; every message with library or user text is escaped."""

from __future__ import annotations

import json

from negotiation_env.cli import main

HINT = "pip install 'negotiation_env[api]'"


class NeedsExtra:
    """A policy whose model library is missing: it fails with the install hint."""

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, obs):
        raise ImportError(f"this policy needs the openai client; install the extra: {HINT}")


def _flat(text: str) -> str:
    return " ".join(text.split())  # rich wraps long lines at the terminal width


def test_runner_errors_keep_brackets(tmp_path, capsys):
    assert main(["run", str(tmp_path / "cohort[api].toml"), "--out", str(tmp_path / "o")]) == 2
    assert "cohort[api].toml" in _flat(capsys.readouterr().err)
    assert main(["export", str(tmp_path / "run[api]"), "--kind", "sft", "--out", str(tmp_path / "x.parquet")]) == 2
    assert "run[api]" in _flat(capsys.readouterr().err)


def test_analysis_errors_keep_brackets(tmp_path, capsys):
    assert main(["report", str(tmp_path / "run[api]")]) == 2
    assert f"no run folder or trace file at {tmp_path / 'run[api]'}" in _flat(capsys.readouterr().err)
    assert main(["view", str(tmp_path / "run[report]")]) == 2
    assert "run[report]" in _flat(capsys.readouterr().err)


def test_config_errors_through_main_keep_brackets(tmp_path, capsys):
    assert main(["play", "--scenario", str(tmp_path / "pool[api].json")]) == 2
    assert "pool[api].json" in _flat(capsys.readouterr().err)


def test_the_error_helpers_print_an_install_hint_in_full(capsys):
    from negotiation_env.analysis.commands import _err as analysis_err
    from negotiation_env.runner.commands import _err as runner_err

    for err in (runner_err, analysis_err):
        assert err(f"needs the extra: {HINT}") == 2
        printed = _flat(capsys.readouterr().err)
        assert printed == f"error: needs the extra: {HINT}"


def test_a_game_error_on_the_progress_console_keeps_the_install_hint(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    cfg = tmp_path / "c.json"
    cfg.write_text(json.dumps({"name": "hint", "games": [{
        "game": "matrix", "pairings": "self", "config": {"num_rounds": 1},
        "policies": [{"spec": "python:tests.test_cli_plain_text:NeedsExtra", "label": "needs[api]"}]}]}))
    cfg = cfg.rename(tmp_path / "c.yaml")  # JSON is YAML
    code = main(["run", str(cfg), "--out", str(tmp_path / "run")])
    printed = capsys.readouterr()
    assert code == 1
    assert f"install the extra: {HINT}" in _flat(printed.err)  # the game-error line of the progress display
    assert "needs[api] vs needs[api]" in _flat(printed.out)  # the summary table's lineup


def test_a_config_warning_is_one_plain_line(tmp_path, capsys):
    from negotiation_env.games.matrix.game import MESSAGE_TEXT, MatrixConfig

    default = MatrixConfig().message_text
    other = next(v for v in MESSAGE_TEXT if v != default)
    cfg = tmp_path / "w.yaml"
    cfg.write_text(json.dumps({"name": "w", "games": [{
        "game": "matrix", "policies": ["scripted:always_a"], "pairings": "self",
        "config": {"num_rounds": 2, "treatment": "none", "message_text": other}}]}))
    assert main(["run", str(cfg), "--out", str(tmp_path / "run")]) == 0
    err = _flat(capsys.readouterr().err)
    msg = (f"warning: config field 'message_text' = {other!r} has no effect with treatment='none': it counts only "
           f"with treatment='communication' (its default is {default!r})")
    assert err.count(msg) == 1  # once, though the plan check and the game both built the config
