"""negotiation_env.train.sft at its smallest settings: the collect, export, train, evaluate
loop end to end (a tiny model, two training steps, one evaluation game), through the
library and through ``negotiation-env train sft``, and its figures on hand-made traces.
Not a timing or learning test."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from negotiation_env.cli import main as cli_main
from negotiation_env.core.config import ConfigError
from negotiation_env.train.fields import add_config_arguments, config_from_arguments

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("datasets")
trl = pytest.importorskip("trl")

from negotiation_env.traces import export  # noqa: E402
from negotiation_env.traces.reader import iter_records  # noqa: E402

TINY = ["--steps", "2", "--batch-size", "2", "--tiny-hidden", "16", "--tiny-layers", "1",
        "--tiny-heads", "2", "--tiny-vocab", "320", "--max-new-tokens", "8", "--batch-games", "1", "--heldout", "1"]


@pytest.fixture(scope="module")
def bench():
    from negotiation_env.train import sft

    return sft


def config(argv: list[str]):
    """The SFTRunConfig of ``negotiation-env train sft`` flags (the fields they name)."""
    from negotiation_env.train.sft import SFTRunConfig

    p = argparse.ArgumentParser()
    add_config_arguments(p, SFTRunConfig)
    return config_from_arguments(SFTRunConfig, p.parse_args(argv))


def tiny(bench, *flags: str):
    """The smallest run's config: ``--quick`` sizes, TINY, then ``flags``."""
    return bench.quick(config(TINY + list(flags)))


def run_json(bench, cfg, work: Path) -> dict:
    """A run's result as its JSON reads back."""
    return json.loads(json.dumps(bench.run(cfg, work), default=str))


@pytest.fixture(scope="module")
def tiny_run(bench, tmp_path_factory):
    """One smallest run; records the dataset every SFTTrainer was given."""
    tmp = tmp_path_factory.mktemp("train_sft")
    seen: list = []

    class Recording(trl.SFTTrainer):
        def __init__(self, *a, **kw):
            seen.append(kw["train_dataset"])
            super().__init__(*a, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(trl, "SFTTrainer", Recording)
    try:
        data = run_json(bench, tiny(bench), tmp / "work")
    finally:
        mp.undo()
    return {"data": data, "work": tmp / "work", "datasets": seen}


def test_output_structure(tiny_run, capsys):
    d = tiny_run["data"]
    for key in ("settings", "env_config", "scenario_sets", "collect", "data", "model", "training",
                "eval", "table", "seconds"):
        assert key in d, key
    assert d["env_config"] == {"num_rounds": 1, "cheap_talk_turns": 1, "thinking": False, "theme": None, "max_retries": 1,
                            "prompt_style": "compact"}
    assert d["settings"]["seed"] == 0 and d["settings"]["steps"] == 2
    assert d["model"]["tiny"] and d["model"]["parameters"] > 0
    assert d["training"]["steps"] == 2 and d["training"]["examples"] == d["data"]["rows"] > 0
    assert d["training"]["first_loss"] is not None and d["training"]["last_loss"] is not None

    # the teacher's data: 2 games (one M/C level), the follower in seat agent_a against the
    # oracle, never refused; the scenarios are the shipped ones and one generated for training
    c = d["collect"]["figures"]
    assert d["collect"]["games"] == c["games"] == 2 and c["parse_error_rate"] == 0.0 and c["turns"] >= 1
    assert d["collect"]["scenarios"] == {"mc0.8": 6}  # 5 shipped + 1 generated
    collected = list(iter_records(tiny_run["work"] / "collect" / "traces.jsonl"))
    assert {(t["policies"]["agent_a"]["label"], t["policies"]["agent_b"]["spec"]) for t in collected} == {
        ("follower", "scripted:oracle")}
    train_scenarios = sorted(p.name for p in (tiny_run["work"] / "train").iterdir())
    assert train_scenarios == ["train080_1.json"]

    stages = [(r["stage"], r["pairing"], r["decoding"], r["scenarios"]) for r in d["table"]]
    assert stages == [("data", "follower vs oracle", "-", "shipped"),
                      ("before", "model vs oracle", "free", "shipped"), ("after", "model vs oracle", "free", "shipped"),
                      ("before", "model vs oracle", "constrained", "shipped"),
                      ("before", "model vs oracle", "free", "held-out"),
                      ("before", "model vs oracle", "constrained", "held-out"),
                      ("after", "model vs oracle", "constrained", "shipped"),
                      ("after", "model vs oracle", "free", "held-out"),
                      ("after", "model vs oracle", "constrained", "held-out")]
    # the held-out scenarios are new (generated here, none shipped) and the held-out games played them
    from negotiation_env.games.resource.scenario import list_scenarios

    held = [p for ps in d["heldout_scenarios"].values() for p in ps]
    assert len(held) == 1 and all(Path(p).stem not in list_scenarios() for p in held)
    ho = list(iter_records(tiny_run["work"] / "eval-after-constrained-held-out" / "traces.jsonl"))
    assert ho and {t["scenario"] for t in ho} <= {Path(p).stem for p in held}
    assert all(t["policies"]["agent_a"]["settings"]["constrained"] == "strict" for t in ho)
    for r in d["table"]:
        assert r["games"] >= 1 and r["complete"] == r["games"] and r["errors"] == 0
        assert r["rounds"] == r["games"]  # one round a game
        assert r["turns"] >= 1
        for k in ("parse_error_rate", "fallback_rate", "refused_step_rate", "efficiency", "optimum_rate",
                  "overdraw_rate"):
            assert 0.0 <= r[k] <= 1.0, (r["stage"], k, r[k])
    for stage in ("before", "after"):
        assert set(d["eval"][stage]) >= {"run_dir", "seconds", "oracle"}

    # the evaluation went through the runner with an hf: policy in seat agent_a
    traces = list(iter_records(tiny_run["work"] / "eval-after" / "traces.jsonl"))
    assert len(traces) == d["eval"]["after"]["oracle"]["games"]
    for t in traces:
        assert t["policies"]["agent_a"]["spec"] == f"hf:{tiny_run['work'] / 'model-sft'}"
        assert t["policies"]["agent_b"]["spec"] == "scripted:oracle"
    assert (tiny_run["work"] / "model-sft" / "config.json").exists()


def test_trainer_gets_exactly_the_export_rows(tiny_run, bench):
    """The datasets handed to SFTTrainer: first the synthetic disclosures (the teacher's
    disclosures with new numbers, --copy-lines disclosures), then the teacher's rows of the SFT export (only jointly optimal
    rounds, the default): the curriculum (its decision turns, the window without the
    system message), then every row, one example per row in order, prompt + completion =
    the row's window; last every row again and each disclosure twice more."""
    assert len(tiny_run["datasets"]) == 4
    warm, first, ds, last = tiny_run["datasets"]
    assert ds.column_names == first.column_names == warm.column_names == last.column_names == ["prompt", "completion"]
    exported = list(export.sft_examples(tiny_run["work"] / "collect", only_optimal=True))
    rows = [r for r in exported if r["policy"] == "follower"]
    assert rows and len(rows) < len(exported)  # the oracle's own turns are not trained on
    assert len(ds) == len(rows) == tiny_run["data"]["data"]["rows"]
    from baselines.llm.hf import compact_conversation

    for ex, row in zip(ds, rows):  # the compact prompt (--context 3): system + the last 3 messages
        assert ex["prompt"] == compact_conversation(row["messages"][:-1], 3)
        assert ex["prompt"][0] == row["messages"][0] and ex["prompt"][-1] == row["messages"][-2]
        assert ex["completion"] == row["messages"][-1:]
        assert [m["role"] for m in ex["completion"]] == ["assistant"]
    decisions = [r for r in rows if r["phase"] == "decision"]
    assert len(first) == len(decisions) == tiny_run["data"]["data"]["curriculum_examples"] > 0
    for ex, row in zip(first, decisions):
        assert ex["prompt"] == compact_conversation(row["messages"][:-1], 3)[1:]  # no system message
        assert all(m["role"] != "system" for m in ex["prompt"]) and ex["completion"] == row["messages"][-1:]
    assert tiny_run["data"]["data"]["sha256"] == bench.digest([r["messages"] for r in rows])
    assert tiny_run["data"]["data"]["only_optimal"] is True
    assert tiny_run["data"]["training"]["curriculum"]["steps"] == 2
    assert tiny_run["data"]["training"]["copy"]["steps"] == 2
    args = tiny(bench)
    assert args.copy_lines == "disclosures"
    assert list(warm) == bench.warmup_examples(rows, args, str(tiny_run["work"] / "model-base"))
    assert list(warm) == bench.synthetic_disclosures(rows, args)
    assert all(ex["completion"][0]["content"].startswith("My ") for ex in warm)
    disclosures = [r for r in rows if r["phase"] == "talk" and r["messages"][-1]["content"].startswith("My ")]
    assert list(last) == list(ds) + 2 * bench.prompt_completion(disclosures, 3)
    assert len(last) == len(rows) + 2 * len(disclosures) == tiny_run["data"]["data"]["disclosure_examples"]
    assert tiny_run["data"]["training"]["disclosures"]["steps"] == 2
    assert len(warm) == tiny_run["data"]["data"]["copy_examples"] == bench.COPY_EXAMPLES


def test_copy_examples_repeat_a_random_line_of_the_answers_words(bench):
    """Each synthetic example asks for the last line of its system message, a line of 12
    to 39 words and marks of the teacher's answers after 0 to 59 others; seeded by --seed."""
    rows = [{"messages": [{"role": "system", "content": "never copied from"}, {"role": "user", "content": "Talk."},
                          {"role": "assistant", "content": 'My project_a needs 5 r1 per run and pays 7.'}]},
            {"messages": [{"role": "user", "content": "Decide."}, {"role": "assistant", "content": '{"r2": 4}'}]}]
    words = {"My", "project_a", "needs", "5", "r1", "per", "run", "and", "pays", "7", ".", "{", '"', "r2", ":", "4",
             "}"}
    args = config(["--seed", "3"])
    ex = bench.copy_examples(rows, args, n=300)
    assert len(ex) == 300
    lengths, befores = set(), set()
    for e in ex:
        system, user = e["prompt"]
        line = e["completion"][0]["content"]
        assert system["role"] == "system" and user == {"role": "user", "content": bench.COPY_INSTRUCTION}
        assert e["completion"][0]["role"] == "assistant"
        assert system["content"].split("\n")[-1] == line
        assert set(line.split(" ")) <= words and set(system["content"].replace("\n", " ").split(" ")) <= words
        lengths.add(len(line.split(" ")))
        befores.add(len(system["content"].split("\n")[0].split(" ")) if "\n" in system["content"] else 0)
    assert min(lengths) >= 12 and max(lengths) <= 39 and len(lengths) > 20
    assert 0 in befores and max(befores) <= 59 and len(befores) > 30
    assert bench.copy_examples(rows, args, n=300) == ex  # deterministic
    assert bench.copy_examples(rows, config(["--seed", "4"]), n=300) != ex
    assert bench.copy_examples([], args) == []


def test_tiny_model_trained_from_scratch_starts_from_narrow_weights(tiny_run):
    """--tiny-init 0.02 (default): the usual initial spread, not build_tiny_model's 0.3."""
    import torch
    from transformers import AutoModelForCausalLM

    assert tiny_run["data"]["settings"]["tiny_init"] == 0.02
    model = AutoModelForCausalLM.from_pretrained(tiny_run["work"] / "model-base", dtype=torch.float32)
    std = float(model.get_input_embeddings().weight.detach().std())
    assert 0.015 < std < 0.025, std


def test_turn_errors_counts_turns_retries_and_fallbacks(bench):
    def step(agent, valid, attempt, events=(), rnd=1, phase="talk"):
        return {"agent": agent, "valid": valid, "attempt": attempt, "events": list(events), "round": rnd,
                "phase": phase}

    trace = {"agents": ["agent_a", "agent_b"],
             "policies": {"agent_a": {"spec": "hf:x", "label": "model"}, "agent_b": {"spec": "scripted:oracle"}},
             "steps": [
                 step("agent_a", True, 1),                                   # clean turn
                 step("agent_b", False, 1),                                  # not the model's
                 step("agent_a", False, 1, [{"type": "validation_error", "agent": "agent_a"}]),
                 step("agent_a", True, 2),                                   # retry succeeded
                 step("agent_a", False, 1, [{"type": "validation_error", "agent": "agent_a"}], 2, "decision"),
                 step("agent_a", False, 2, [{"type": "validation_error", "agent": "agent_a"},  # one fallback,
                                            {"type": "heuristic_fallback", "agent": "agent_a"},  # two events
                                            {"type": "decision_auto_filled", "agent": "agent_a"}], 2, "decision"),
                 step("agent_a", True, 1, [{"type": "output_format_warning", "agent": "agent_a"}], 2),
             ]}
    e = bench.turn_errors([trace], ["model"])
    assert (e["turns"], e["turns_with_error"], e["fallbacks"], e["warned_turns"]) == (4, 2, 1, 1)
    assert (e["steps"], e["refused_steps"]) == (6, 3)
    assert e["parse_error_rate"] == 0.5 and e["fallback_rate"] == 0.25 and e["format_warning_rate"] == 0.25
    assert e["by_phase"]["decision"] == {"turns": 1, "turns_with_error": 1, "warned": 0, "parse_error_rate": 1.0}
    assert e["by_phase"]["talk"]["turns"] == 3 and e["by_phase"]["talk"]["turns_with_error"] == 1
    assert e["by_round"]["1"]["turns"] == 2 and e["by_round"]["2"]["parse_error_rate"] == 0.5
    everyone = bench.turn_errors([trace])
    assert everyone["turns"] == 5 and everyone["turns_with_error"] == 3
    assert bench.turn_errors([], ["model"])["parse_error_rate"] is None


def test_configs_and_prompt_completion(bench):
    args = config(["--seed", "5", "--eval-pairing", "both", "--levels", "mc0.5", "--batch-games", "1"])
    c = bench.collect_config(args)
    assert c["seed"] == 5 and c["games"][0]["policies"] == [bench.FOLLOWER, "scripted:oracle"]
    assert c["games"][0]["pairings"] == [["follower", "scripted:oracle"]] and c["games"][0]["swap_first_speaker"]
    assert c["games"][0]["games_per_cell"] == 8  # the 4 shipped mc0.5 scenarios, each first speaker once
    assert bench.FOLLOWER["options"] == {"output": "text", "decide_early": False, "name_runs": False,
                                         "phrasing": "fixed"}
    oracle = bench.collect_config(config(["--teacher", "oracle", "--games", "3", "--batch-games", "1"]))
    assert oracle["games"][0]["policies"] == ["scripted:oracle"] and oracle["games"][0]["pairings"] == "self"
    assert oracle["games"][0]["games_per_cell"] == 3
    assert bench.teacher_rows([{"policy": "follower"}, {"policy": "scripted:oracle"}], args) == [{"policy": "follower"}]
    e = bench.eval_config(args, "/m", "after")
    block = e["games"][0]
    assert e["seed"] == 6 and block["config"] == c["games"][0]["config"]
    assert block["scenario_sets"] == c["games"][0]["scenario_sets"] == {"mc0.5": ["mc050_*"]}
    assert block["pairings"] == [["model", "oracle"], ["model", "model"]]
    assert block["policies"][0]["spec"] == "hf:/m" and block["policies"][0]["options"]["temperature"] == 0.0
    assert block["policies"][0]["options"]["context_messages"] == 3 and "constrained" not in block["policies"][0]["options"]
    held = bench.eval_config(args, "/m", "after", constrained=True, sets={"mc0.5": ["/h/x.json"]})["games"][0]
    assert held["policies"][0]["options"]["constrained"] is True and held["scenario_sets"] == {"mc0.5": ["/h/x.json"]}
    assert held["policies"][0]["options"]["constrained_text_chars"] == 320
    assert "context_messages" not in bench.hf_options(config(["--context", "0", "--batch-games", "1"]))
    assert bench.eval_config(config(["--eval-pairing", "self", "--batch-games", "1"]), "/m",
                             "x")["games"][0]["policies"] == [block["policies"][0]]

    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}]
    assert bench.prompt_completion([{"messages": msgs}]) == [{"prompt": msgs[:2], "completion": msgs[2:]}]
    long = msgs[:2] + [{"role": "assistant", "content": "a1"}, {"role": "user", "content": "u2"}] + msgs[2:]
    assert bench.prompt_completion([{"messages": long}], 1) == [{"prompt": [long[0], long[3]], "completion": long[4:]}]
    with pytest.raises(ValueError):
        bench.prompt_completion([{"messages": msgs[:2]}])


def test_same_seed_same_figures(tiny_run, bench, tmp_path, capsys):
    """A second run with the same settings, through ``negotiation-env train sft``, gives
    the same data, losses and figures, and prints the table."""
    out = tmp_path / "again.json"
    assert cli_main(["train", "sft", "--quick", *TINY, "--work", str(tmp_path / "work"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "model vs oracle" in printed and "trained 2 steps on" in printed
    again = json.loads(out.read_text())
    first = tiny_run["data"]

    def strip(rows):
        return [{k: v for k, v in r.items() if k not in ("run_dir", "seconds")} for r in rows]

    assert again["data"]["sha256"] == first["data"]["sha256"]
    assert again["training"]["loss_curve"] == first["training"]["loss_curve"]
    assert strip(again["table"]) == strip(first["table"])


def _spans(ids, mask):
    spans, cur = [], []
    for i, bit in zip(ids, mask):
        if bit:
            cur.append(i)
        elif cur:
            spans.append(cur)
            cur = []
    return spans + ([cur] if cur else [])


def test_conversation_examples_train_exactly_the_exported_answers(tiny_run, bench):
    """--train-on conversations: one example per agent and game; the tokens with loss are
    exactly the kept answers (each with its end-of-turn marker), the tokens are the
    conversation's text, and the prompt before each answer tokenizes as HFPolicy encodes
    it in play."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny_run["work"] / "model-base")
    s, u, a = "system", "user", "assistant"
    conv = [{"role": s, "content": "rules"}, {"role": u, "content": "talk?"}, {"role": a, "content": "hello there"},
            {"role": u, "content": "decide"}, {"role": a, "content": '{"r1": 2}'},
            {"role": u, "content": "round 2"}, {"role": a, "content": "bye"}]
    other = [{"role": s, "content": "rules b"}, {"role": u, "content": "hi"}, {"role": a, "content": "ok"}]
    # the filter kept turns 1 and 3 of agent_a (round 2's answer was left out) and agent_b's turn
    rows = [{"episode_id": "e", "agent": "agent_a", "messages": conv[:3]},
            {"episode_id": "e", "agent": "agent_b", "messages": other},
            {"episode_id": "e", "agent": "agent_a", "messages": conv[:5]}]
    ex = bench.conversation_examples(rows, tok)
    assert len(ex) == 2 and all(len(e["input_ids"]) == len(e["assistant_masks"]) for e in ex)
    first = ex[0]
    assert tok.decode(first["input_ids"]) == tok.apply_chat_template(conv[:5], tokenize=False)
    assert [tok.decode(sp) for sp in _spans(first["input_ids"], first["assistant_masks"])] == [
        "hello there<|end|>\n", '{"r1": 2}<|end|>\n']
    prompt = tok.apply_chat_template(conv[:2], tokenize=False, add_generation_prompt=True)
    n = len(tok(prompt, add_special_tokens=False)["input_ids"])
    assert first["input_ids"][:n] == tok(prompt, add_special_tokens=False)["input_ids"] and first["assistant_masks"][n] == 1
    assert [tok.decode(sp) for sp in _spans(ex[1]["input_ids"], ex[1]["assistant_masks"])] == ["ok<|end|>\n"]

    with pytest.raises(ValueError, match="not one conversation"):
        bench.conversation_examples([rows[0], {**rows[2], "messages": conv[:2] + [conv[4]] + conv[3:5]}], tok)
    with pytest.raises(ConfigError, match="context=0"):
        config(["--train-on", "conversations"])  # the compact window would cut the conversation
    assert config(["--train-on", "conversations", "--context", "0", "--batch-games", "1"]).train_on == "conversations"


def test_copy_lines_of_tokens(bench, tiny_run):
    """--copy-lines tokens: lines of random tokens of the base model's vocabulary (decoded
    one by one, id order; none blank, none with a line break or "<", so no line spells
    <|end|>), each after a line break in the system message; seeded by --seed."""
    from transformers import AutoTokenizer

    base = str(tiny_run["work"] / "model-base")
    tok = AutoTokenizer.from_pretrained(base)
    pieces = bench.token_pieces(tok)
    assert pieces == [tok.decode([i]) for i in range(len(tok))
                      if tok.decode([i]).strip() and "\n" not in tok.decode([i]) and "<" not in tok.decode([i])]
    assert not {tok.decode([i]) for i in tok.all_special_ids} & set(pieces)
    args = config(["--copy-lines", "tokens", "--seed", "2"])
    ex = bench.warmup_examples([], args, base)
    assert len(ex) == bench.COPY_EXAMPLES and ex == bench.copy_lines(pieces, "", 2)
    assert ex != bench.copy_lines(pieces, "", 3)
    for e in ex[:200]:
        system, line = e["prompt"][0]["content"], e["completion"][0]["content"]
        assert "\n" in system and system.split("\n")[-1] == line and "<" not in system
        assert not set(tok(line, add_special_tokens=False)["input_ids"]) & set(tok.all_special_ids)
    assert bench.warmup_examples([], config(["--seed", "2"]), base) == []  # the default: disclosures, none here
    # --copy-lines words: the answers' words
    rows = [{"messages": [{"role": "assistant", "content": "My project_a needs 5 r1."}]}]
    words = config(["--copy-lines", "words"])
    assert bench.warmup_examples(rows, words, base) == bench.copy_examples(rows, words)


def test_disclosure_examples_weigh_disclosures_three_times(bench):
    def row(phase, answer):
        return {"phase": phase, "messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"},
                                             {"role": "assistant", "content": answer}]}

    disclose = row("talk", "My project_a needs 5 r1 per run and pays 7.")
    rows = [disclose, row("talk", "Agreed."), row("decision", '{"r1": 5}'), row("decision", "My mistake")]
    assert [bench.is_disclosure(r) for r in rows] == [True, False, False, False]
    ex = bench.disclosure_examples(rows, config([]))
    assert [e["completion"][0]["content"] for e in ex] == [r["messages"][-1]["content"] for r in rows] + [
        disclose["messages"][-1]["content"]] * 2
    assert all(e["prompt"] == [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}] for e in ex)


def test_synthetic_disclosures_say_the_new_projects_of_their_prompt(bench):
    """Each synthetic example is a real disclosure with new units and rewards: the
    system message's project lines and the answer say the same new numbers, drawn from
    those seen, and everything else is the real example's."""
    import re

    system = ("Resources: r1 $1 x10, r2 $1.5 x10.\nYour projects (the other party has its own):\n"
              "- project_a needs 3 r1 and 2 r2 per run and pays 12\n- project_b needs 5 r1 per run and pays 7\n"
              "Reward: runs x reward.")
    answer = ("My project_a needs 3 r1 and 2 r2 per run and pays 12. My project_b needs 5 r1 per run and pays 7. "
              "What are your projects?")
    rows = [{"phase": "talk", "messages": [{"role": "system", "content": system}, {"role": "user", "content": "U"},
                                           {"role": "assistant", "content": answer}]},
            {"phase": "talk", "messages": [{"role": "system", "content": system}, {"role": "user", "content": "V"},
                                           {"role": "assistant", "content": "Agreed."}]}]
    args = config([])
    ex = bench.synthetic_disclosures(rows, args, n=200)
    assert len(ex) == 200 and ex == bench.synthetic_disclosures(rows, args, n=200)  # seeded
    line = re.compile(r"^- (project_\w) needs (\d) r1(?: and (\d) r2)? per run and pays (\d+)$", re.M)
    said = re.compile(r"My (project_\w) needs (\d) r1(?: and (\d) r2)? per run and pays (\d+)\.")
    seen_units, seen_pay = set(), set()
    for e in ex:
        sys_msg, user = e["prompt"]
        assert user == {"role": "user", "content": "U"}  # only the disclosure row, its window unchanged
        lines = line.findall(sys_msg["content"])
        assert [x[0] for x in lines] == ["project_a", "project_b"]
        assert said.findall(e["completion"][0]["content"]) == lines
        assert e["completion"][0]["content"].endswith(" What are your projects?")
        assert sys_msg["content"].startswith("Resources: r1 $1 x10, r2 $1.5 x10.\n")
        assert sys_msg["content"].endswith("\nReward: runs x reward.")
        seen_units |= {int(u) for x in lines for u in x[1:3] if u}
        seen_pay |= {int(x[3]) for x in lines}
    assert seen_units == {2, 3, 5} and seen_pay == {7, 12}  # drawn from what the rows hold, all of it
    assert bench.synthetic_disclosures(rows[1:], args) == []  # no disclosure: none


def test_train_disclosures_real_synthetic_or_both(bench):
    """--train-disclosures: the --steps examples are every row's (real), every row's and
    then as many synthetic disclosures as the rows hold real ones (real+synthetic; the
    draws synthetic_disclosures makes), or the other rows' and the synthetic ones in
    place of the real disclosures (synthetic). Both need --train-on turns and a
    disclosure to copy."""
    system = "Your projects:\n- project_a needs 3 r1 per run and pays 12\n- project_b needs 5 r1 per run and pays 7"
    said = "My project_a needs 3 r1 per run and pays 12. My project_b needs 5 r1 per run and pays 7. What are yours?"

    def row(phase, answer, user="U"):
        return {"phase": phase, "messages": [{"role": "system", "content": system}, {"role": "user", "content": user},
                                             {"role": "assistant", "content": answer}]}

    rows = [row("talk", said), row("talk", "Agreed."), row("decision", '{"r1": 5}'), row("talk", said, "V")]
    real = bench.training_examples(rows, config([]), "unused")
    assert real == bench.prompt_completion(rows, 3) and len(real) == 4
    args = config(["--train-disclosures", "real+synthetic"])
    synthetic = bench.synthetic_disclosures(rows, args, n=2)
    assert len(synthetic) == 2 and all(e["completion"][0]["content"] != said for e in synthetic)
    assert bench.training_examples(rows, args, "unused") == real + synthetic
    args = config(["--train-disclosures", "synthetic"])
    assert bench.training_examples(rows, args, "unused") == real[1:3] + synthetic
    with pytest.raises(bench.SFTError, match="no disclosure"):
        bench.training_examples(rows[1:3], args, "unused")
    with pytest.raises(ConfigError, match="use train_on='turns'"):
        config(["--train-disclosures", "synthetic", "--train-on", "conversations", "--context", "0"])


def test_curriculum_disclosures_add_synthetic_ones_with_their_system_message(bench):
    """--curriculum-disclosures F: the curriculum's decision turns (no system message) and
    round(F x their number) synthetic disclosures, full window, drawn apart from the
    warm-up's; 0 (default): the decision turns alone."""
    system = "Your projects:\n- project_a needs 3 r1 per run and pays 12\n- project_b needs 5 r1 per run and pays 7"
    said = "My project_a needs 3 r1 per run and pays 12. My project_b needs 5 r1 per run and pays 7."

    def row(phase, answer):
        return {"phase": phase, "messages": [{"role": "system", "content": system}, {"role": "user", "content": "U"},
                                             {"role": "assistant", "content": answer}]}

    rows = [row("talk", said), row("talk", "Agreed.")] + [row("decision", '{"r1": %d}' % k) for k in range(1, 5)]
    alone = bench.curriculum_examples(rows, config([]))
    assert [e["completion"][0]["content"] for e in alone] == ['{"r1": %d}' % k for k in range(1, 5)]
    assert all(m["role"] != "system" for e in alone for m in e["prompt"])
    args = config(["--curriculum-disclosures", "0.5"])
    mixed = bench.curriculum_examples(rows, args)
    assert mixed[:4] == alone and len(mixed) == 6
    assert mixed[4:] == bench.synthetic_disclosures(rows, args, n=2, stream=22) != bench.synthetic_disclosures(
        rows, args, n=2)  # not the warm-up's first two
    for e in mixed[4:]:
        assert e["prompt"][0]["role"] == "system" and e["completion"][0]["content"].startswith("My project_a needs ")
    with pytest.raises(bench.SFTError, match="curriculum_disclosures: the export has no disclosure"):
        bench.curriculum_examples(rows[1:], args)
    for bad in ("-0.5", "nan"):
        with pytest.raises(ConfigError, match="curriculum_disclosures must be a number >= 0"):
            config(["--curriculum-disclosures", bad])


def test_synthetic_shapes_change_which_resources_a_line_needs(bench):
    """--synthetic-shapes: a synthetic line takes the resources of any requirement seen
    (so a one-resource project may need two, and others), its units and reward drawn as
    before; prompt and answer still say the same lines. Off, the resources stay."""
    import re

    system = ("Your projects:\n- project_a needs 3 r1 per run and pays 12\n"
              "- project_b needs 5 r2 and 2 r3 per run and pays 7\nReward: runs x reward.")
    answer = "My project_a needs 3 r1 per run and pays 12. My project_b needs 5 r2 and 2 r3 per run and pays 7."
    rows = [{"phase": "talk", "messages": [{"role": "system", "content": system}, {"role": "user", "content": "U"},
                                           {"role": "assistant", "content": answer}]}]
    line = re.compile(r"^- (project_\w) needs (.+) per run and pays (\d+)$", re.M)
    said = re.compile(r"My (project_\w) needs (.+?) per run and pays (\d+)\.")
    forms = {"N r1", "N r2 and N r3"}
    for flag, expect in (("--no-synthetic-shapes", {("project_a", "N r1"), ("project_b", "N r2 and N r3")}),
                         ("--synthetic-shapes", {(p, f) for p in ("project_a", "project_b") for f in forms})):
        ex = bench.synthetic_disclosures(rows, config([flag]), n=100)
        seen = set()
        for e in ex:
            lines = line.findall(e["prompt"][0]["content"])
            assert said.findall(e["completion"][0]["content"]) == lines and len(lines) == 2
            for name, req, pay in lines:
                assert set(re.findall(r"\b\d+(?= r)", req)) <= {"2", "3", "5"} and pay in ("7", "12")
                seen.add((name, re.sub(r"\b\d+(?= r)", "N", req)))
        assert seen == expect


@pytest.mark.parametrize("kind,pieces", [("words", [" 3", " r3", " per"]), ("bytelevel", [" 3", " r", "3", " per"])])
def test_tiny_tokenizer_option_reaches_the_base_model(bench, tmp_path, kind, pieces):
    from transformers import AutoTokenizer

    line = "- project_a needs 3 r3 per run and pays 16"
    rows = [{"messages": [{"role": "system", "content": line}, {"role": "assistant", "content": "My " + line[2:]}]}]
    args = config(["--tiny-tokenizer", kind, "--tiny-hidden", "16", "--tiny-layers", "1", "--tiny-heads", "2",
                             "--tiny-vocab", "300"])
    tok = AutoTokenizer.from_pretrained(bench.build_tiny(tmp_path / kind, rows * 20, args))
    got = [tok.decode([i]) for i in tok(line, add_special_tokens=False)["input_ids"]]
    assert got[got.index(" needs") + 1:got.index(" per") + 1] == pieces


@pytest.mark.parametrize("first", [False, True])
def test_curriculum_first_swaps_the_two_warm_up_stages(bench, tmp_path, monkeypatch, first):
    """Each stage starts from the model the one before it saved; --curriculum-first runs
    the curriculum on the base model and the warm-up on the curriculum's model. The
    stages pass the model on unchanged here (the training itself is the tiny run's)."""
    calls = []

    def recording(model_path, examples, out, args, progress, steps=None, name="train"):
        calls.append((Path(model_path).name, name, Path(out).name))
        shutil.copytree(model_path, out, dirs_exist_ok=True)
        return {"steps": steps or args.steps, "seconds": 0.0, "examples": len(examples), "epochs": 1.0,
                "train_loss": 1.0, "loss_curve": [{"step": 1, "loss": 1.0}], "first_loss": 1.0, "last_loss": 1.0,
                "parameters": 0}

    monkeypatch.setattr(bench, "train", recording)
    cfg = tiny(bench, "--heldout", "0", "--no-constrained", *(["--curriculum-first"] if first else []))
    d = run_json(bench, cfg, tmp_path / "w")
    if first:
        assert calls == [("model-base", "curriculum", "model-curriculum"), ("model-curriculum", "copy", "model-copy"),
                         ("model-copy", "train", "model-full"), ("model-full", "disclosures", "model-sft")]
    else:
        assert calls == [("model-base", "copy", "model-copy"), ("model-copy", "curriculum", "model-curriculum"),
                         ("model-curriculum", "train", "model-full"), ("model-full", "disclosures", "model-sft")]
    assert d["data"]["stage_order"] == [c[1] for c in calls]
    assert d["settings"]["curriculum_first"] is first
