"""benchmarks/train_rl.py cannot rot: every entry point runs a handful of steps (the
script's --quick settings) and reports a learning curve, references and a played game."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.scripts import loaded_script

pytest.importorskip("tianshou")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def train_rl():
    with loaded_script(ROOT / "benchmarks" / "train_rl.py") as mod:
        yield mod


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


@pytest.mark.parametrize("name", ["matrix-vs-tft", "resource-vs-oracle", "resource-vs-greedy", "offline-bc"])
def test_entry_point_reports_a_curve(train_rl, name):
    if name == "matrix-vs-tft" and not train_rl.matrix_available():
        pytest.skip("the matrix game, its menu or its scripted policies are not in this tree")
    exp = train_rl.settings(quick=True)[name]
    (res,) = train_rl.run_experiments([name], seed=0, quick=True, eval_episodes=1, log=lambda _m: None)
    assert res["experiment"] == name and res["library"] == "tianshou"
    curve = res["curve"]
    assert len(curve) == exp.epochs + 1  # the untrained policy, then one point per epoch
    x = "gradient_steps" if name == "offline-bc" else "env_steps"
    steps = [p[x] for p in curve]
    assert steps[0] == 0 and all(b > a for a, b in zip(steps, steps[1:]))
    assert all(_finite(p["test_mean"]) and _finite(p["test_std"]) for p in curve)
    names = [r["name"] for r in res["references"]]
    assert f"scripted {exp.references[0]}" in names and "random legal menu entry" in names
    assert all(_finite(r["mean"]) for r in res["references"])
    game = res["greedy_game"]
    assert game["actions"] and set(game["actions"]) <= set(res["action_labels"]) and _finite(game["return"])
    if name == "offline-bc":
        assert res["cloned_rows"] > 0 and res["mapping"]["unmapped"] == 0
        assert 0.0 <= res["training_accuracy"] <= 1.0
    else:
        assert any(p["train_episodes"] > 0 for p in curve[1:])


def test_ceilings_are_the_best_responses(train_rl):
    exps = train_rl.settings(quick=False)
    # mc080_1, 4 rounds: greedy (agent_a) buys its optimum (stone×3 + gold×3 for 20); agent_b's
    # best option beside it (project_a once, project_b twice) pays 12
    assert train_rl.ceiling(exps["resource-vs-greedy"])[0] == 48.0
    # the oracle accepts any jointly optimal split; the best one gives agent_b its maximum, 20
    assert train_rl.ceiling(exps["resource-vs-oracle"])[0] == 80.0
    # legacy_mc080_1, where docs/rl.md's figures were measured: 10 and 17 a round
    old = train_rl.settings(quick=False, overrides={"resource": {"scenario": "legacy_mc080_1"}})
    assert (train_rl.ceiling(old["resource-vs-greedy"])[0], train_rl.ceiling(old["resource-vs-oracle"])[0]) == (40.0, 68.0)
    if train_rl.matrix_available():
        # Prisoner's Dilemma, 10 rounds against tit-for-tat: cooperate, defect in the last round
        assert train_rl.ceiling(exps["matrix-vs-tft"])[0] == 3 * 9 + 5
    rotating = train_rl.settings(quick=False, overrides={"resource": {"rotation": "rotating"}})
    assert rotating["resource-vs-oracle"].config == {"rotation": "rotating"}
    assert train_rl.ceiling(rotating["resource-vs-oracle"]) == (None, "")


def test_a_seed_repeats_exactly(train_rl):
    def once():
        (res,) = train_rl.run_experiments(["resource-vs-oracle"], seed=3, quick=True, eval_episodes=2,
                                          log=lambda _m: None)
        return res["curve"], res["greedy_game"], res["references"], res["final_losses"]

    assert once() == once()


def test_main_prints_and_writes_json_and_png(train_rl, tmp_path, capsys):
    out = tmp_path / "rl.json"
    assert train_rl.main(["resource-vs-greedy", "--quick", "--eval-episodes", "1", "--out", str(out),
                          "--set", "resource.num_rounds=2"]) == 0
    printed = capsys.readouterr().out
    assert "## resource-vs-greedy" in printed and "references (same test seeds):" in printed
    data = json.loads(out.read_text())
    assert data["overrides"] == {"resource": {"num_rounds": 2}}
    (res,) = data["results"]
    assert res["settings"]["config"] == {"num_rounds": 2}
    assert out.with_suffix(".png").stat().st_size > 1000
    with pytest.raises(SystemExit):
        train_rl.main(["resource-vs-nobody", "--quick"])
    with pytest.raises(SystemExit):
        train_rl.main(["--quick", "--set", "num_rounds=2"])
