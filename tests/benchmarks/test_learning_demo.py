"""The learning demonstration's table and JSON, at the smallest settings (structure, not learning)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from benchmarks import learning_demo  # noqa: E402


def test_rows_references_and_held_out_seeds(tmp_path):
    out = tmp_path / "demo.json"
    result = learning_demo.main(["--trainer", "loop", "--seeds", "1", "--steps", "1", "--group-seeds", "1",
                                 "--group", "2", "--rounds", "2", "--eval-games", "2", "--out", str(out)])
    assert json.loads(out.read_text()) == json.loads(json.dumps(result))
    assert result["references"] == {"always_A": 6, "best": 8}
    assert [r["seed"] for r in result["rows"]] == [1]
    for row in result["rows"]:
        assert len(row["train_curve"]) == 1
        for when in ("untrained", "trained"):
            score = row[when]
            assert set(score) == {"return", "a_share", "valid"}
            assert score["valid"] == 1.0  # constrained decoding: every answer is a legal move
            assert 0 <= score["return"] <= 10  # 2 rounds, at most 5 points each
            assert score["a_share"] * 4 == int(score["a_share"] * 4)  # 2 games x 2 moves
    lo, hi = result["settings"]["eval_seeds"]
    assert (lo, hi) == (learning_demo.EVAL_SEED_BASE, learning_demo.EVAL_SEED_BASE + 1)
    text = learning_demo.table(result)
    assert text.splitlines()[0].split()[:3] == ["seed", "return", "before"]
    assert len(text.splitlines()) == 3 and "always A 6, best 8" in text


@pytest.mark.parametrize("trainer", learning_demo.TRAINERS)
def test_no_training_steps_leave_the_evaluation_unchanged(trainer):
    result = learning_demo.run([3], steps=0, trainer=trainer, group_seeds=1, group=2, rounds=2, eval_games=2)
    row = result["rows"][0]
    assert row["untrained"] == row["trained"] and row["train_curve"] == []


def test_training_seeds_stay_below_the_held_out_range():
    assert learning_demo._train_seeds(2, 5, 3) == [60015, 60016, 60017]
    with pytest.raises(ValueError, match="held-out"):
        learning_demo._train_seeds(100, 0, 1000)


def test_trl_trainer_logs_one_training_return_per_step():
    pytest.importorskip("trl")
    result = learning_demo.run([0], steps=2, group_seeds=1, group=2, rounds=2, eval_games=1, trainer="trl")
    row = result["rows"][0]
    assert result["settings"]["trainer"] == "trl"
    assert len(row["train_curve"]) == 2 and all(0 <= r <= 10 for r in row["train_curve"])
    assert row["trained"]["valid"] == 1.0


@pytest.mark.parametrize("kwargs", [{"group": 1}, {"rounds": 0}, {"eval_games": 0}, {"steps": -1}])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError, match="must be an int"):
        learning_demo.run([0], **kwargs)


def test_an_unknown_trainer_is_refused():
    with pytest.raises(ValueError, match="trainer must be one of loop, trl"):
        learning_demo.run([0], trainer="ppo")
