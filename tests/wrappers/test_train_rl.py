"""negotiation_env.train.rl cannot rot: every experiment runs a handful of steps (its
quick settings) and reports a learning curve, references and a played game; ``negotiation-env
train rl`` prints and writes them."""

from __future__ import annotations

import json
import math

import pytest

from negotiation_env.cli import main as cli_main
from negotiation_env.core.config import ConfigError

pytest.importorskip("tianshou")
pytest.importorskip("matplotlib")



@pytest.fixture(scope="module")
def train_rl():
    from negotiation_env.train import rl

    return rl


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


@pytest.mark.parametrize("name", ["matrix-vs-tft", "resource-vs-oracle", "resource-vs-greedy", "offline-bc"])
def test_entry_point_reports_a_curve(train_rl, name):
    if name == "matrix-vs-tft" and not train_rl.game_available("matrix"):
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
    if train_rl.game_available("matrix"):
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


def test_command_prints_and_writes_json_and_png(tmp_path, capsys):
    out = tmp_path / "rl.json"
    assert cli_main(["train", "rl", "--experiments", "resource-vs-greedy", "--quick", "--eval-episodes", "1",
                     "--out", str(out), "--set", "resource.num_rounds=2"]) == 0
    printed = capsys.readouterr().out
    assert "## resource-vs-greedy" in printed and "references (same test seeds):" in printed
    data = json.loads(out.read_text())
    assert data["config"]["overrides"] == {"resource": {"num_rounds": 2}}
    (res,) = data["results"]
    assert res["settings"]["config"] == {"num_rounds": 2}
    assert out.with_suffix(".png").stat().st_size > 1000
    assert cli_main(["train", "rl", "--experiments", "resource-vs-greedy", "--quick", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        cli_main(["train", "rl", "--experiments", "resource-vs-nobody", "--quick"])
    assert e.value.code == 2 and "invalid choice: 'resource-vs-nobody'" in capsys.readouterr().err
    assert cli_main(["train", "rl", "--quick", "--set", "num_rounds=2"]) == 2
    assert "--set takes GAME.FIELD=VALUE" in capsys.readouterr().err
    assert cli_main(["train", "rl", "--quick", "--set", "chess.depth=2"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_config_is_checked_when_built(train_rl):
    assert train_rl.RLRunConfig().experiments == train_rl.EXPERIMENTS
    for bad, why in ((dict(experiments=("resource-vs-nobody",)), "experiments item 'resource-vs-nobody' must be one of"),
                     (dict(experiments=()), "experiments names none"), (dict(eval_episodes=0), "eval_episodes must be >= 1"),
                     (dict(stop_after=-1), "stop_after takes an epoch >= 0"), (dict(seed="0"), "seed must be an integer")):
        with pytest.raises(ConfigError, match=why):
            train_rl.RLRunConfig(**bad)
