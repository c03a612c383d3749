"""benchmarks/matrix_experiment3.py (seed 002 Experiment 3) on the tiny model with a few
trajectories: the capture cohort, the 65/35 split, the direction, the one-step and
closed-loop tests, and the per-layer Student t and Benjamini-Hochberg recomputed here
from the values the script saved; its lock-step play equals play_matrix's."""

from __future__ import annotations

import json

import numpy as np
import pytest


torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
import scipy.stats  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402

SMALL = ["--no-progress", "--tiny-layers", "2", "--tiny-hidden", "32", "--layers", "all", "--contexts", "neutral,team",
         "--trajectories", "2", "--rounds", "3", "--heldout-per-context", "3", "--closed-per-context", "2",
         "--message-tokens", "4", "--action-tokens", "2", "--device", "cpu", "--batch-games", "3"]


@pytest.fixture(scope="module")
def bench():
    from benchmarks import matrix_experiment3

    return matrix_experiment3


@pytest.fixture(scope="module")
def result(bench, tmp_path_factory):
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("e3") / "e3.json"
    assert bench.main(SMALL + ["--out", str(out)]) == 0
    return json.loads(out.read_text())


def test_design_counts(result):
    assert result["benchmark"] == "matrix_experiment3" and result["layers"] == [1, 2]
    assert result["model"]["tiny"] and result["model"]["depth"] == 2
    c = result["cohort"]
    # 2 contexts x 2 dyads x 2 agents x 3 rounds = 24 decisions, cut at round(0.65 x 24) = 16
    assert (c["capture_dyads"], c["complete"], c["decisions"], c["construction"], c["held_out"]) == (4, 4, 24, 16, 8)
    assert c["one_step_decisions"] <= 6 and 1 <= c["one_step_groups"] <= 4 and c["closed_loop_pairs"] == 4
    assert result["alphas"] == [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0]
    s = result["settings"]
    assert (s["temperature"], s["top_p"], s["on_error"], s["alpha"]) == (0.8, 1.0, "continue", 0.05)
    seeds = [p["seed"] for p in result["closed_loop"][0]["pairs"]]
    assert seeds == [100_042, 100_043, 100_044, 100_045]  # F.3: closed-loop trajectory i uses 100,042 + i
    assert [p["context"] for p in result["closed_loop"][0]["pairs"]] == ["neutral", "neutral", "team", "team"]


def test_student_t_and_benjamini_hochberg_over_layers(result):
    for outcome, key in (("one_step", "groups"), ("closed_loop", "pairs")):
        ps = []
        for est in result[outcome]:
            values = [g["difference"] for g in est[key]]
            if outcome == "one_step":
                assert all(g["difference"] == pytest.approx(g["learned"] - g["random"]) for g in est[key])
            assert est["n"] == len(values) and est["mean"] == pytest.approx(np.mean(values))
            if max(values) > min(values):
                ref = scipy.stats.ttest_1samp(values, 0.0)
                ci = ref.confidence_interval(0.95)
                assert est["p"] == pytest.approx(ref.pvalue) and est["ci"] == pytest.approx([ci.low, ci.high])
                ps.append(est["p"])
            else:  # no spread: the point, no test
                assert est["p"] is None and est["q"] is None and est["ci"] == [est["mean"], est["mean"]]
        tested = [e for e in result[outcome] if e["p"] is not None]
        if tested:
            want = multipletests(ps, method="fdr_bh")[1]
            assert [e["q"] for e in tested] == pytest.approx(list(want))
            assert [e["significant"] for e in tested] == [q < 0.05 for q in want]
    # the tiny model's gibberish falls back to B, so S = 0 clean and ablated; the ablation still changes answers
    assert any(p["answers_changed"] > 0 for e in result["closed_loop"] for p in e["pairs"])


def test_lockstep_play_is_play_matrix(bench, tmp_path):
    from baselines.llm.hf import HFPolicy
    from baselines.llm.replay import play_matrix
    from baselines.llm.tiny import build_tiny_model

    path = str(build_tiny_model(tmp_path / "m", num_layers=1, hidden_size=16, vocab_size=320))
    cfg = {"num_rounds": 2, "on_error": "continue", "framing": "team"}
    pol = HFPolicy(path, temperature=0.8, max_new_tokens=3, device="cpu")
    alone = play_matrix(pol, seed=7, **cfg)
    (stepped,) = bench.play_games(pol, [(7, cfg)], message_tokens=3, action_tokens=3)
    assert [s.action for s in stepped.steps] == [s.action for s in alone.steps]
    assert [r.outcome for r in stepped.rounds] == [r.outcome for r in alone.rounds]
    assert stepped.policies["agent_0"].seed == 7 and pol.max_new_tokens == 3
    # actions get their own budget: at most 1 new token
    short = bench.play_games(pol, [(7, cfg)], message_tokens=3, action_tokens=1)[0]
    assert all(s.tokens["completion_tokens"] <= 1 for s in short.steps if s.phase == "action")
    # several games in one batch play as each alone (greedy: no sampling flips from padding effects)
    greedy = HFPolicy(path, temperature=0.0, max_new_tokens=3, device="cpu")
    both = bench.play_games(greedy, [(1, cfg), (2, {**cfg, "framing": "social"})], message_tokens=3, action_tokens=3)
    for t, (seed, c) in zip(both, [(1, cfg), (2, {**cfg, "framing": "social"})]):
        assert [s.action for s in t.steps] == [s.action for s in play_matrix(greedy, seed=seed, **c).steps]


def test_t_summary_edge_cases(bench):
    assert bench.t_summary([0.5]) == {"n": 1, "mean": 0.5, "sd": None, "t": None, "df": None, "p": None, "ci": None}
    flat = bench.t_summary([0.2, 0.2, 0.2])
    assert flat["ci"] == (0.2, 0.2) and flat["p"] is None and flat["sd"] == 0.0
    assert bench.layers_of("even", 28) == list(range(2, 29, 2)) and bench.layers_of("even", 1) == [1]
    assert bench.layers_of("even", 40) == list(range(2, 29, 2)) and bench.layers_of("3,1", 4) == [1, 3]
    with pytest.raises(SystemExit, match="must lie in 1..4"):
        bench.layers_of("5", 4)
