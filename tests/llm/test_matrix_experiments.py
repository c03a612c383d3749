"""`negotiation-env experiments` end to end on the tiny random model (CPU): a scripted
matrix run replayed under every Experiment 1 and 2 condition, scored by ``hf:`` through
HFPolicy, written as Table 2, S7, S9 and Figures 2, 3, S2, S3; each scored P(A) is the
policy's ``action_probs`` on the same replayed prompt."""

from __future__ import annotations

import csv
import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from baselines.llm.hf import HFPolicy  # noqa: E402
from negotiation_env.analysis import matrix_experiments as mx  # noqa: E402
from negotiation_env.cli import main  # noqa: E402
from negotiation_env.games.matrix import EXPERIMENT_1, EXPERIMENT_2, replay_observation  # noqa: E402
from negotiation_env.runner import run  # noqa: E402
from negotiation_env.traces import read_traces  # noqa: E402

FILES = ("matrix_table2.md", "matrix_table2.csv", "matrix_tableS7.md", "matrix_tableS7.csv", "matrix_tableS9.md",
         "matrix_tableS9.csv", "matrix_exp2_rounds.md", "matrix_exp2_rounds.csv", "replays.jsonl", "experiments.json",
         "experiments.md", "fig2_matrix_exp1_decomposition.png", "figS2_matrix_exp1_decomposition.png",
         "fig3_matrix_exp2_rounds.png", "figS3_matrix_exp2_decomposition.png")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """Four three-round talk dyads (two per game) and two no-talk dyads, scripted."""
    policies = ["scripted:tit_for_tat", {"spec": "scripted:bernoulli", "label": "b", "options": {"p": 0.5}}]
    talk = {"name": "talk", "game": "matrix", "pairings": "cross", "games_per_cell": 2, "policies": policies,
            "config": {"num_rounds": 3, "treatment": "communication"},
            "factors": {"game": {"pd": {"stage_game": "prisoners_dilemma"}, "sh": {"stage_game": "stag_hunt"}}}}
    no_talk = {"name": "no_talk", "game": "matrix", "pairings": "cross", "games_per_cell": 2, "policies": policies,
               "config": {"num_rounds": 3, "treatment": "none"}}
    cfg = {"name": "mx", "seed": 5, "games": [talk, no_talk]}
    path = tmp_path_factory.mktemp("mxrun") / "run"
    run(cfg, path)
    return path


@pytest.fixture(scope="module")
def out(run_dir, tiny_model):
    dest = run_dir.parent / "experiments"
    assert main(["experiments", str(run_dir), "--model", f"tiny=hf:{tiny_model}", "--device", "cpu", "--out",
                 str(dest), "--resamples", "200"]) == 0
    return dest


def test_the_command_writes_every_table_and_figure(out, capsys):
    assert set(FILES) <= {p.name for p in out.iterdir()}
    table2 = (out / "matrix_table2.md").read_text(encoding="utf-8")
    assert table2.startswith("### Table 2: Experiment 1") and "| Condition | tiny |" in table2
    settings = json.loads((out / "experiments.json").read_text(encoding="utf-8"))
    assert settings["scorers"]["tiny"]["settings"]["device"] == "cpu" and len(settings["dyads"]) == 4
    assert any("played without communication" in n for n in settings["notes"])


def test_each_replay_is_the_policys_action_probs_on_that_prompt(out, run_dir, tiny_model):
    rows = [json.loads(line) for line in (out / "replays.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4 * 2 * 3 * (len(EXPERIMENT_1) + len(EXPERIMENT_2))
    traces = {t.game_id: t.to_dict() for t in read_traces(run_dir).traces}
    policy = HFPolicy(tiny_model, device="cpu")
    for r in rows[::29]:
        obs = replay_observation(traces[r["game_id"]], r["agent"], r["round"], r["condition"])
        # batched scoring pads prompts, which moves float32 logits by ~1e-6
        assert r["p_a"] == pytest.approx(policy.action_probs(obs).p, abs=1e-4)
    # the decomposition's identity holds in the written tables
    with open(out / "matrix_table2.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            assert float(row["reduced drift (pp)"]) + float(row["reduced uncertainty (pp)"]) == \
                pytest.approx(float(row["dS (pp)"]), abs=1e-3)


def test_log_probabilities_at_a_temperature(run_dir, tiny_model):
    traces = [t.to_dict() for t in read_traces(run_dir).traces]
    cfg = mx.ExperimentsConfig(temperature=0.5, experiments=(2,), agents=("agent_0",), limit=1)
    dyads, _ = mx.select_dyads(traces, cfg)
    policy = mx.load_scorer(f"hf:{tiny_model}", device="cpu")
    rows = mx.score_replays(dyads, policy, "tiny", cfg)
    assert len(rows) == 3 * 4
    for r in rows:
        obs = replay_observation(dyads[0], r["agent"], r["round"], r["condition"])
        assert r["p_a"] == pytest.approx(policy.action_probs(obs, temperature=0.5).p, abs=1e-4)
        assert r["p_a"] != pytest.approx(policy.action_probs(obs).p, abs=1e-4)


def test_a_model_that_cannot_load(run_dir, tmp_path, capsys):
    assert main(["experiments", str(run_dir), "--model", f"hf:{tmp_path / 'no-model'}", "--device", "cpu"]) == 3
    assert "cannot be loaded" in capsys.readouterr().err
    assert not (run_dir / "experiments").exists()
