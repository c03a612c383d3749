"""``negotiation-env export``: the prompt-completion kind, --game, and exit code 1 with
an explanation (and no file) when the filters select nothing."""

from __future__ import annotations

import json
import warnings
from collections import Counter

import pytest

from negotiation_env.cli import main
from negotiation_env.runner import run
from negotiation_env.traces import export, read_traces

from .helpers import mixed_run_config


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli_mixed")
    assert run(mixed_run_config(), out).complete
    return out


def _export(capsys, *args):
    rc = main(["export", *map(str, args)])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_prompt_completion_and_game_filter(run_dir, tmp_path, capsys):
    out = tmp_path / "pc.jsonl"
    rc, stdout, _ = _export(capsys, run_dir, "--kind", "sft_prompt_completion", "--game", "resource", "--out", out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rc == 0 and rows == list(export.sft_prompt_completion(run_dir, games=["resource"]))
    assert stdout.strip() == f"wrote {len(rows)} sft_prompt_completion rows to {out}"
    rc, stdout, _ = _export(capsys, run_dir, "--kind", "transitions", "--game", "matrix", "--game", "rulemaking",
                            "--out", tmp_path / "t.jsonl")
    games = {json.loads(line)["game"] for line in (tmp_path / "t.jsonl").read_text().splitlines()}
    assert rc == 0 and games == {"matrix", "rulemaking"}


def test_nothing_selected_exits_1_says_why_and_writes_nothing(run_dir, tmp_path, capsys):
    out = tmp_path / "sft.parquet"
    rc, stdout, err = _export(capsys, run_dir, "--kind", "sft", "--game", "matrix", "--only-optimal", "--out", out)
    assert rc == 1 and stdout == ""
    assert err.startswith("error: no sft rows selected: 0 rows from ")
    assert "--game left out" in err and "--only-optimal left out" in err
    assert f"nothing was written to {out}" in err and not out.exists()
    # a matrix-only source: the filter cannot match anything, and the message says so
    matrix = tmp_path / "matrix.jsonl"
    assert _export(capsys, run_dir, "--kind", "transitions", "--game", "matrix", "--out", matrix)[0] == 0
    src = tmp_path / "matrix_traces.jsonl"
    src.write_text("".join(line for line in (run_dir / "traces.jsonl").read_text().splitlines(keepends=True)
                           if json.loads(line)["game"] == "matrix"))
    out.write_text("an earlier export")
    rc, _, err = _export(capsys, src, "--kind", "sft", "--only-optimal", "--out", out, "--force")
    assert rc == 1 and "--only-optimal: no round outcome of these traces has an 'optimal' field (games: matrix" in err
    assert out.read_text() == "an earlier export"  # left as it was
    rc, _, err = _export(capsys, run_dir, "--kind", "preferences", "--margin", "1000000", "--out", tmp_path / "p.jsonl")
    assert rc == 1 and "0 of them with a score gap over the margin 1e+06" in err and not (tmp_path / "p.jsonl").exists()


def test_unknown_names_list_what_exists_and_keep_brackets(run_dir, tmp_path, capsys):
    rc, _, err = _export(capsys, run_dir, "--kind", "sft", "--policy", "scripted:nosuch", "--policy", "scripted:[api]",
                         "--out", tmp_path / "x.jsonl")
    assert rc == 1
    assert err.startswith("error: --policy scripted:nosuch, scripted:[api]: not in the source, which holds "
                          "scripted:always_b, scripted:conceder, scripted:greedy, scripted:hardliner, "
                          "scripted:oracle, scripted:tit_for_tat;")  # "[api]" survives: no rich markup
    rc, _, err = _export(capsys, run_dir, "--kind", "preferences", "--game", "chess", "--out", tmp_path / "x.jsonl")
    assert rc == 1 and "--game chess: not in the source, which holds matrix, resource, rulemaking" in err
    assert not list(tmp_path.iterdir())
    # usage errors keep exit code 2
    rc, _, err = _export(capsys, run_dir, "--kind", "transitions", "--agent", "agent_a", "--out", tmp_path / "x.jsonl")
    assert rc == 2 and "apply to --kind sft and sft_prompt_completion only" in err


def test_minari_game_filter_and_exit_codes(run_dir, tmp_path, capsys):
    pytest.importorskip("minari", reason="the 'minari' extra is not installed")
    root = tmp_path / "root"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        rc, stdout, _ = _export(capsys, run_dir, "--kind", "minari", "--game", "matrix", "--game", "resource",
                                "--prefix", "cli", "--out", root)
        assert rc == 0
        n = Counter(t.game for t in read_traces(run_dir).traces)
        for game, seat in (("matrix", "agent-0"), ("matrix", "agent-1"), ("resource", "agent-a"), ("resource", "agent-b")):
            assert f"cli/{game}-{seat}-v1: {n[game]} episodes" in stdout
        assert "wrote 4 Minari datasets" in stdout
        rc, _, err = _export(capsys, run_dir, "--kind", "minari", "--game", "chess", "--out", root)
        assert rc == 1 and "game 'chess' does not occur in the traces; they hold matrix, resource, rulemaking" in err
        rc, _, err = _export(capsys, run_dir, "--kind", "minari", "--out", root)  # three games: say which
        assert rc == 2 and "the CLI's --game" in err
        rc, _, err = _export(capsys, run_dir, "--kind", "minari", "--game", "resource", "--agent", "nobody",
                             "--out", root)
        assert rc == 1 and "unknown agents ['nobody']" in err
