"""Every script in examples/ runs (small arguments; a local fake server where a model is
needed) and does what its page in docs/examples.md says."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TALK = json.dumps({"thinking": "plan", "speech": "I will buy little this round.", "action": None})
BUY = json.dumps({"thinking": "plan", "speech": "Done.", "action": {}})


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_example_is_short_has_a_main_and_a_docs_section():
    page = (ROOT / "docs" / "examples.md").read_text(encoding="utf-8")
    scripts = sorted(EXAMPLES.glob("*.py"))
    assert len(scripts) >= 5
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 70, path.name
        assert "\ndef main(argv" in text and 'if __name__ == "__main__":' in text, path.name
        assert f"python examples/{path.name}" in page, path.name


def test_random_play_finishes_every_game_in_both_apis_reproducibly(capsys):
    mod = load("random_play")
    first = mod.main(["--seed", "3"])
    import negotiation_env

    assert set(first) == {(e, api) for e in negotiation_env.ENV_IDS for api in ("aec", "parallel")}
    assert {"resource_v1", "rulemaking_v1", "matrix_v1", "dond_v0"} <= set(negotiation_env.ENV_IDS)
    for (env_id, api), (steps, returns) in first.items():
        assert steps > 1 and all(math.isfinite(r) for r in returns.values())
        if env_id == "rulemaking_v1":
            assert set(returns.values()) <= {0.0, 1.0} and len(returns) == 5
    out = capsys.readouterr().out
    assert out.count("steps  returns") == 2 * len(negotiation_env.ENV_IDS)
    assert mod.main(["--seed", "3"]) == first  # seeded env and spaces: the same games again
    one = mod.main(["--env", "matrix_v1", "--seed", "3"])
    assert one == {k: v for k, v in first.items() if k[0] == "matrix_v1"}


def test_tournament_report_plays_the_cohort_and_reports_it(tmp_path, capsys):
    mod = load("tournament_report")
    summary, report = mod.main(["--out", str(tmp_path / "run"), "--games-per-cell", "1"])
    # resource: 6 pairings; matrix: 6 pairings x 2 treatments
    assert summary.complete and summary.planned == summary.played == 18 and summary.errors == 0
    assert report.games == {"resource": 6, "matrix": 12}
    assert (tmp_path / "run" / "report" / "report.md").is_file()
    out = capsys.readouterr().out
    assert "18 games played now, 18 of 18 planned" in out
    assert report.table("resource_summary").markdown() in out and "Table 1 layout" in out
    again, _ = mod.main(["--out", str(tmp_path / "run"), "--games-per-cell", "1"])
    assert again.played == 0 and again.games == 18  # resumed: nothing played twice


def test_llm_vs_scripted_through_a_local_server(capsys, monkeypatch):
    pytest.importorskip("openai")
    from tests.fakeserver import FakeServer

    server = FakeServer()
    server.reply = lambda req: BUY if "DECISION PHASE" in req["messages"][-1]["content"] else TALK
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    try:
        returns = load("llm_vs_scripted").main(["--base-url", server.url, "--model", "test-model", "--rounds", "1",
                                                "--opponent", "greedy"])
    finally:
        server.close()
    out = capsys.readouterr().out
    assert server.requests[0]["max_tokens"] == 1  # the probe
    assert {r["model"] for r in server.requests} == {"test-model"} and len(server.requests) >= 3
    assert "agent_a: \"I will buy little this round.\"" in out and "agent_a decides: buys {}, runs []" in out
    assert returns["agent_a"] == 0.0  # an empty purchase runs no project
    assert f"=== Game over: agent_a 0, agent_b {returns['agent_b']:g} ===" in out


def test_traces_to_trl_writes_the_three_dataset_kinds(tmp_path, capsys):
    counts = load("traces_to_trl").main(["--out", str(tmp_path)])
    assert set(counts) == {"sft", "sft_prompt_completion", "preferences"} and all(counts.values())
    files = {"sft": "sft.jsonl", "sft_prompt_completion": "sft_pc.jsonl", "preferences": "preferences.jsonl"}
    rows = {k: [json.loads(line) for line in (tmp_path / f).read_text().splitlines()] for k, f in files.items()}
    assert {k: len(v) for k, v in rows.items()} == counts
    assert counts["sft"] == counts["sft_prompt_completion"]
    sft, pc = rows["sft"][0], rows["sft_prompt_completion"][0]
    assert sft["messages"][0]["role"] == "system" and sft["messages"][-1]["role"] == "assistant"
    assert pc["prompt"] == sft["messages"][:-1] and pc["completion"] == sft["messages"][-1:]
    assert all(p["chosen"] != p["rejected"] and p["score_chosen"] > p["score_rejected"] for p in rows["preferences"])
    out = capsys.readouterr().out
    assert f"sft_prompt_completion  {counts['sft_prompt_completion']:5} rows" in out
    # a second export from the same traces, given with --traces, gives the same rows
    again = load("traces_to_trl").main(["--traces", str(tmp_path / "run"), "--out", str(tmp_path / "again")])
    assert again == counts


def test_tabular_rl_learns_to_beat_random_play(capsys):
    result = load("train_rl_tabular").main(["--episodes", "300"])
    # against tit-for-tat over 10 Prisoner's Dilemma rounds: always A earns 30, always B 14,
    # cooperating until a last-round defection 32
    assert result["learned"] >= 28 and result["learned"] > result["random"] + 3
    assert "return per game vs tit_for_tat: learned" in capsys.readouterr().out


def test_policy_gradient_updates_the_model_from_its_rollouts(tmp_path, capsys):
    """Two REINFORCE steps on the tiny model: constrained answers are legal moves whose
    returns differ within a group, so the weights move; every answer was valid."""
    pytest.importorskip("transformers")
    pytest.importorskip("llguidance")
    import torch
    from transformers import AutoModelForCausalLM

    from baselines.llm.tiny import build_tiny_model

    path = str(build_tiny_model(tmp_path / "tiny"))
    out = load("train_pg").main(["--model", path, "--steps", "2", "--seeds", "1", "--group", "2",
                                 "--max-new-tokens", "8", "--rounds", "2"])
    before = AutoModelForCausalLM.from_pretrained(path).state_dict()
    after = out["model"].state_dict()
    assert set(before) == set(after)
    moved = [k for k in before if not torch.equal(before[k], after[k])]
    # Adam without weight decay moves a weight only through a non-zero gradient
    assert "lm_head.weight" in moved and any(".layers.0." in k for k in moved), moved
    assert [h["step"] for h in out["history"]] == [0, 1] and all(h["valid"] == 1.0 for h in out["history"])
    assert capsys.readouterr().out.count("valid 1.00") == 2

