"""A run, and every reader, keeps one version of each game: traces recorded under another
env id (another version of the game's rules or prompts) are refused, never pooled."""

from __future__ import annotations

import json

import pytest

from negotiation_env.analysis.report import build_report
from negotiation_env.runner import RunnerError, run
from negotiation_env.traces import read_traces
from negotiation_env.traces.reader import MixedEnvVersions, check_env_versions, iter_traces

from .helpers import small_config


def _tiny(out, **kw):
    cfg = small_config(games_per_cell=1, **kw)
    cfg["games"][0]["scenario_sets"] = {"lo": ["mc050_1"]}
    cfg["games"][0]["factors"] = {}
    return run(cfg, out, preflight=False)


def _relabel(path, env_name, first_only=False):
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        rec = json.loads(line)
        if not first_only or i == 0:
            rec["env_name"] = env_name
        out.append(json.dumps(rec, ensure_ascii=False))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_traces_record_the_current_env_id(tmp_path):
    _tiny(tmp_path / "r")
    traces = read_traces(tmp_path / "r").traces
    assert traces and {t.env_name for t in traces} == {"resource_v1"}


def test_resume_refuses_a_folder_played_under_another_version(tmp_path):
    out = tmp_path / "r"
    summary = _tiny(out)
    assert summary.planned == 3
    traces = out / "traces.jsonl"
    lines = traces.read_text(encoding="utf-8").splitlines()
    traces.write_text(lines[0] + "\n", encoding="utf-8")  # one game played, two to go
    _relabel(traces, "resource_v0")
    cfg = small_config(games_per_cell=1)
    cfg["games"][0]["scenario_sets"] = {"lo": ["mc050_1"]}
    cfg["games"][0]["factors"] = {}
    with pytest.raises(RunnerError, match="played under 'resource_v0', another version of the resource game than "
                                          "the one installed \\('resource_v1'\\)"):
        run(cfg, out, resume=True, preflight=False)
    assert len(traces.read_text(encoding="utf-8").splitlines()) == 1  # nothing played, nothing moved


def test_readers_refuse_two_versions_of_one_game(tmp_path):
    _tiny(tmp_path / "r")
    traces = tmp_path / "r" / "traces.jsonl"
    _relabel(traces, "resource_v0", first_only=True)
    with pytest.raises(MixedEnvVersions, match="traces of the resource game under two env ids: 1 read under "
                                               "'resource_v0'.*now one under 'resource_v1'"):
        list(iter_traces(traces))
    dicts = [json.loads(line) for line in traces.read_text(encoding="utf-8").splitlines()]
    with pytest.raises(MixedEnvVersions):
        check_env_versions(dicts)
    with pytest.raises(MixedEnvVersions):
        build_report(dicts, tmp_path / "report", plots=False)
    assert not (tmp_path / "report").exists()
    # one version throughout, or traces without an id (re-imported), pass
    check_env_versions(dicts[1:])
    check_env_versions([{**d, "env_name": None} for d in dicts])


def test_the_cli_says_so_and_writes_nothing(tmp_path, capsys):
    from negotiation_env.cli import main

    _tiny(tmp_path / "r")
    _relabel(tmp_path / "r" / "traces.jsonl", "resource_v0", first_only=True)
    assert main(["report", str(tmp_path / "r"), "--out", str(tmp_path / "rep")]) != 0
    assert "two env ids" in " ".join(capsys.readouterr().err.split())
    assert main(["export", str(tmp_path / "r"), "--kind", "sft", "--out", str(tmp_path / "x.jsonl")]) != 0
    assert not (tmp_path / "x.jsonl").exists()
