"""benchmarks/sft_levers.py (the lever harness) at its smallest settings: one
collection, a recipe of every stage kind, exact-match scoring; and its pieces."""

from __future__ import annotations

import json

import pytest


pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("trl")

TINY = ["--no-progress", "--", "--tiny-hidden", "16", "--tiny-layers", "1", "--tiny-heads", "2", "--tiny-vocab", "320",
        "--batch-size", "2"]


@pytest.fixture(scope="module")
def levers():
    from benchmarks import sft_levers

    return sft_levers


def test_recipe_parsing(levers):
    assert levers.parse_recipe("copy:150, curriculum:500,full:600") == [("copy", 150), ("curriculum", 500),
                                                                        ("full", 600)]
    for bad, why in (("warm:3", "unknown kind"), ("full", "KIND:N"), ("full:0", "KIND:N"), ("", "no stage")):
        with pytest.raises(ValueError, match=why):
            levers.parse_recipe(bad)


def test_within_one_word_and_answer_kinds(levers):
    gold = "My project_a needs 3 r1 and 5 r2 per run and pays 20."
    assert levers.within_one_word(gold, gold)
    assert levers.within_one_word(gold, gold.replace("pays 20", "pays 13"))
    assert not levers.within_one_word(gold, gold.replace("3 r1 and 5", "2 r1 and 4"))
    assert not levers.within_one_word(gold, gold + " What are your projects?")
    row = lambda phase, text: {"phase": phase, "messages": [{"role": "assistant", "content": text}]}  # noqa: E731
    rows = [row("talk", gold), row("talk", "Agreed."), row("decision", '{"r1": 4}')]
    args = levers.sft_config(["--context", "3"])
    picked = levers.stage_examples("disclosure", rows, args, "unused", 40)
    assert [e["completion"][0]["content"] for e in picked] == [gold]
    assert levers.answer_kind(row("decision", '{"r1": 4}')) == "purchase"
    assert levers.answer_kind(row("talk", gold)) == "disclosure"
    assert levers.answer_kind(row("talk", "Agreed.")) == "other talk"


def test_quick_run_trains_every_stage_kind_and_scores(levers, tmp_path, capsys):
    work = tmp_path / "work"
    recipe = "copy:1,handwords:1,tokens:1,curriculum:1,full:1"
    assert levers.main(["--quick", "--work", str(work), "--recipe", recipe, *TINY]) == 0
    out = json.loads((work / "levers-copy1-handwords1-tokens1-curriculum1-full1.json").read_text())
    assert out["recipe"] == recipe
    assert [(s["kind"], s["steps"]) for s in out["stages"]] == [("copy", 1), ("handwords", 1), ("tokens", 1),
                                                                ("curriculum", 1), ("full", 1)]
    assert all(s["examples"] > 0 for s in out["stages"])
    scores = out["scores"]
    assert set(scores) <= {"purchase", "disclosure", "other talk"} and "purchase" in scores
    assert sum(v["of"] for v in scores.values()) == out["scoring_rows"] > 0
    assert all(0 <= v["right"] <= v["of"] for v in scores.values())
    assert out["training_rows"] > 0 and out["score_scenarios"] == 1
    printed = capsys.readouterr().out
    assert f"{recipe}: " in printed and "purchase " in printed
    assert "every valid teacher turn" in printed  # --quick scores every turn, and says so
    # the collections are made once: scoring an existing model reuses them
    rows = json.loads((work / "rows.json").read_text())
    assert len(rows["rows"]) == out["training_rows"] and len(rows["score_rows"]) == out["scoring_rows"]
    model = work / "m-copy1-handwords1-tokens1-curriculum1-full1-4"
    assert levers.main(["--quick", "--work", str(work), "--score", str(model), *TINY]) == 0
    again = json.loads((work / f"levers-score-{model.name}.json").read_text())
    assert again["stages"] == [] and again["scores"] == scores  # greedy: the same answers
    # --start: one more stage on a trained model
    assert levers.main(["--quick", "--work", str(work), "--start", str(model), "--recipe", "full:1", *TINY]) == 0
    more = json.loads((work / f"levers-{model.name}+full1.json").read_text())
    assert more["start"] == str(model) and [s["kind"] for s in more["stages"]] == ["full"]
    assert (work / f"m-{model.name}+full1-0" / "config.json").exists()
    # a folder made with other settings is refused, never reused silently
    with pytest.raises(SystemExit, match="other settings .*seed"):
        levers.main(["--quick", "--work", str(work), "--score", str(model), *TINY, "--seed", "1"])
    # a folder without the --tiny-tokenizer setting is read as made with the byte-level rule
    saved = json.loads((work / "rows.json").read_text())
    saved["settings"].pop("tiny_tokenizer")
    (work / "rows.json").write_text(json.dumps(saved))
    with pytest.raises(SystemExit, match=r"other settings \(tiny_tokenizer\)"):
        levers.main(["--quick", "--work", str(work), "--score", str(model), *TINY, "--tiny-tokenizer", "words"])
    assert levers.main(["--quick", "--work", str(work), "--score", str(model), *TINY,
                        "--tiny-tokenizer", "bytelevel"]) == 0


def test_synthetic_lines_are_copies_from_the_system_message(levers):
    ex = levers.T.copy_lines(levers.HAND_WORDS, " ", 0, 40, n=50)
    for e in ex:
        line = e["completion"][0]["content"]
        assert e["prompt"][0]["content"].split("\n")[-1] == line
        assert 12 <= len(line.split(" ")) <= 39 and set(line.split(" ")) <= set(levers.HAND_WORDS)
    assert levers.T.copy_lines(levers.HAND_WORDS, " ", 0, 40, n=50) == ex
    assert levers.T.copy_lines(levers.HAND_WORDS, " ", 1, 40, n=50) != ex


def test_bad_options_are_refused(levers, tmp_path):
    for argv in (["--recipe", "warm:2"], ["--line-max", "5"], ["--", "--model", "x"]):
        with pytest.raises(SystemExit) as e:
            levers.main(["--work", str(tmp_path / "w"), *argv])
        assert e.value.code == 2


def test_synthetic_stages(levers):
    system = "R.\nYour projects:\n- project_a needs 3 r1 per run and pays 12\n- project_b needs 5 r2 per run and pays 7"
    said = "My project_a needs 3 r1 per run and pays 12. My project_b needs 5 r2 per run and pays 7."

    def row(phase, text):
        return {"phase": phase, "messages": [{"role": "system", "content": system}, {"role": "user", "content": "U"},
                                             {"role": "assistant", "content": text}]}

    rows = [row("talk", said), row("talk", "Agreed."), row("decision", '{"r1": 3}')]
    args = levers.sft_config([])
    synthetic = levers.stage_examples("synthetic", rows, args, "unused", 40)
    assert synthetic == levers.T.synthetic_disclosures(rows, args) and len(synthetic) == levers.T.COPY_EXAMPLES
    # every turn once, and as many synthetic disclosures as the rows hold real ones (one)
    mixed = levers.stage_examples("full+synthetic", rows, args, "unused", 40)
    assert mixed[:3] == levers.T.prompt_completion(rows, 3)
    assert mixed[3:] == levers.T.synthetic_disclosures(rows, args, n=1)
    assert levers.stage_examples("full", rows, args, "unused", 40) == levers.T.prompt_completion(rows, 3)
    # full is train_sft.py's --steps examples: -- --train-disclosures applies to it
    args = levers.sft_config(["--train-disclosures", "synthetic"])
    assert levers.stage_examples("full", rows, args, "unused", 40) == (
        levers.T.prompt_completion(rows[1:], 3) + levers.T.synthetic_disclosures(rows, args, n=1))
