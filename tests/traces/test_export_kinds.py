"""The prompt-completion SFT kind, the games filter, filter errors and the 0-row report,
and the matrix and rulemaking action vectors."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from negotiation_env.games.matrix.rules import ACTIONS
from negotiation_env.games.rulemaking.rules import MOVES
from negotiation_env.games.rulemaking.scenario import load_scenario
from negotiation_env.runner import run
from negotiation_env.traces import export, read_traces
from negotiation_env.traces.schema import GameTrace, StepRecord

from .helpers import mixed_run_config

GAMES = ("matrix", "resource", "rulemaking")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("mixed")
    assert run(mixed_run_config(), out).complete
    return out


@pytest.fixture(scope="module")
def traces(run_dir):
    return read_traces(run_dir).traces


# --------------------------------------------------------------------------- prompt-completion


def test_prompt_completion_rows_are_the_sft_rows_split(run_dir, tmp_path):
    sft = list(export.sft_examples(run_dir, only_optimal=True))
    pc = list(export.sft_prompt_completion(run_dir, only_optimal=True))
    assert len(pc) == len(sft) > 0
    for a, b in zip(sft, pc):
        assert b["prompt"] == a["messages"][:-1] and b["completion"] == a["messages"][-1:]
        assert b["completion"][0]["role"] == "assistant" and b["prompt"][-1]["role"] == "user"
        assert {k: v for k, v in b.items() if k not in ("prompt", "completion")} == \
            {k: v for k, v in a.items() if k != "messages"}
    n = export.write("sft_prompt_completion", run_dir, tmp_path / "pc.parquet", only_optimal=True)
    table = pq.read_table(tmp_path / "pc.parquet")
    assert n == table.num_rows == len(pc) and table.schema == export.SCHEMAS["sft_prompt_completion"]
    assert table.column_names[:2] == ["prompt", "completion"]


@pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in ("trl", "transformers", "datasets", "torch")),
                    reason="needs the 'sft' extra (trl, transformers, datasets, torch)")
def test_trl_sft_trainer_puts_the_loss_on_the_completion_only(run_dir, tmp_path):
    import datasets
    import trl
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from baselines.llm.tiny import build_tiny_model

    rows = list(export.sft_prompt_completion(run_dir, games=["matrix"]))[:4]
    corpus = [m["content"] for r in rows for m in r["prompt"] + r["completion"]]
    path = build_tiny_model(tmp_path / "tiny", hidden_size=16, num_layers=1, num_heads=2, vocab_size=320, seed=0,
                            corpus=corpus)
    tok = AutoTokenizer.from_pretrained(path)
    ds = datasets.Dataset.from_list([{"prompt": r["prompt"], "completion": r["completion"]} for r in rows])
    cfg = trl.SFTConfig(output_dir=str(tmp_path / "ck"), max_steps=1, report_to=[], use_cpu=True, disable_tqdm=True,
                        save_strategy="no", max_length=None)
    assert cfg.completion_only_loss is None  # TRL's default: completion-only for prompt-completion data
    trainer = trl.SFTTrainer(model=AutoModelForCausalLM.from_pretrained(path), args=cfg, train_dataset=ds,
                             processing_class=tok)
    assert len(trainer.train_dataset) == len(rows)
    for ex, r in zip(trainer.train_dataset, rows):
        trained = [i for i, lab in zip(ex["input_ids"], ex["labels"]) if lab != -100]
        # the tokens with a loss are the answer and the template's end-of-turn, nothing of the prompt
        assert tok.decode(trained) == r["completion"][0]["content"] + "<|end|>\n"
        assert len(trained) < len(ex["input_ids"]) / 10


# --------------------------------------------------------------------------- games filter


@pytest.mark.parametrize("kind", export.KINDS)
def test_games_filter_keeps_exactly_that_games_rows(run_dir, traces, kind):
    opts = {"score": "return"} if kind == "preferences" else {}
    everything = list(export.rows(kind, run_dir, **opts))
    # pairs need a state reached with different answers: the resource games have some
    assert {r["game"] for r in everything} >= ({"resource"} if kind == "preferences" else set(GAMES))
    for game in GAMES:
        rows = list(export.rows(kind, run_dir, games=[game], **opts))
        assert rows == [r for r in everything if r["game"] == game]
        if kind == "transitions":
            assert len(rows) == sum(len(t.steps) for t in traces if t.game == game)
    both = list(export.rows(kind, run_dir, games=["matrix", "resource"], **opts))
    assert both == [r for r in everything if r["game"] in ("matrix", "resource")]


# --------------------------------------------------------------------------- filter errors


def test_a_filter_naming_what_the_source_lacks_raises(run_dir, tmp_path):
    with pytest.raises(export.FilterError) as e:
        list(export.transitions(run_dir, games=["chess"]))
    assert (e.value.field, e.value.unknown, e.value.available) == ("games", ["chess"], list(GAMES))
    labels = ["scripted:always_b", "scripted:conceder", "scripted:greedy", "scripted:hardliner", "scripted:oracle",
              "scripted:tit_for_tat"]
    with pytest.raises(export.FilterError) as e:  # one right name does not hide a wrong one
        list(export.sft_examples(run_dir, policies=["scripted:oracle", "scripted:nosuch"]))
    assert (e.value.field, e.value.unknown, e.value.available) == ("policies", ["scripted:nosuch"], labels)
    assert "it holds scripted:always_b, scripted:conceder" in str(e.value)
    with pytest.raises(export.FilterError, match="agents: 'nobody' does not occur"):
        list(export.sft_prompt_completion(run_dir, agents=["nobody"]))
    with pytest.raises(export.FilterError, match="phases: 'lunch'"):
        list(export.sft_examples(run_dir, phases=["lunch"]))
    with pytest.raises(export.FilterError, match="games"):
        list(export.preference_pairs(run_dir, games=["chess"]))
    # write() leaves no partial file and does not touch an existing one
    out = tmp_path / "sft.jsonl"
    out.write_text("earlier export\n")
    with pytest.raises(export.FilterError):
        export.write("sft", run_dir, out, policies=["scripted:nosuch"])
    assert out.read_text() == "earlier export\n" and sorted(p.name for p in tmp_path.iterdir()) == ["sft.jsonl"]


def test_zero_rows_are_counted_and_explained(run_dir, traces, tmp_path):
    sel = export.Selection()
    assert list(export.sft_examples(run_dir, games=["matrix"], only_optimal=True, selection=sel)) == []
    matrix_steps = [s for t in traces if t.game == "matrix" for s in t.steps]
    assert sel.traces == len(traces) and sel.steps == sum(len(t.steps) for t in traces)
    assert sel.dropped == {"games": sel.steps - len(matrix_steps), "only_optimal": sum(s.valid for s in matrix_steps)}
    assert sel.rows + sum(sel.dropped.values()) == sel.steps  # every step is a row or left out by one filter
    assert sel.outcome_fields == {"optimal": {"resource"}, "efficiency": {"resource"}}
    text = sel.explain({"games": "--game", "only_optimal": "--only-optimal"})
    assert text.startswith(f"0 rows from {len(traces)} traces ({sel.steps} steps; games: matrix, resource, rulemaking)")
    assert f"--only-optimal left out {sum(s.valid for s in matrix_steps)}" in text
    assert "--only-optimal: no round outcome of these traces has an 'optimal' field" not in text  # resource has one
    only = export.Selection()
    list(export.sft_examples([t for t in traces if t.game == "matrix"], only_optimal=True, selection=only))
    assert "no round outcome of these traces has an 'optimal' field (games: matrix" in only.explain()
    # the library still returns the count; keep_empty=False writes nothing
    assert export.write("sft", run_dir, tmp_path / "none.parquet", games=["matrix"], only_optimal=True,
                        keep_empty=False) == 0
    assert not list(tmp_path.iterdir())
    assert export.write("sft", run_dir, tmp_path / "empty.parquet", games=["matrix"], only_optimal=True) == 0
    assert pq.read_table(tmp_path / "empty.parquet").schema == export.SCHEMAS["sft"]


def test_preference_selection_counts_the_states(run_dir):
    sel = export.Selection()
    rows = list(export.preference_pairs(run_dir, games=["resource"], selection=sel))
    assert sel.rows == len(rows) == sel.over_margin > 0
    assert sel.states >= sel.contested >= sel.over_margin
    none = export.Selection()
    assert list(export.preference_pairs(run_dir, games=["resource"], margin=1e9, selection=none)) == []
    assert (none.states, none.contested, none.over_margin) == (sel.states, sel.contested, 0)
    assert "0 of them with a score gap over the margin 1e+09" in none.explain()


# --------------------------------------------------------------------------- action vectors


def test_matrix_action_vectors(run_dir, traces):
    rows = [r for r in export.transitions(run_dir, games=["matrix"])]
    assert rows
    by_game = {t.game_id: t for t in traces}
    for r in rows:
        s = by_game[r["episode_id"]].steps[r["step"]]
        choice = s.parsed.get("action")
        if s.phase == "action":
            assert choice in ACTIONS and r["action_vector"] == [1.0, float(choice == "A"), float(choice == "B")]
        else:
            assert r["action_vector"] == [0.0, 0.0, 0.0]
    # the last decision of each seat in a round is what the round resolved
    for t in (t for t in traces if t.game == "matrix"):
        mine = [r for r in rows if r["episode_id"] == t.game_id and r["action_vector"][0] == 1.0]
        for rd in t.rounds:
            for a in t.agents:
                v = [r["action_vector"] for r in mine if r["agent"] == a and r["round"] == rd.round][-1]
                assert ACTIONS[int(np.argmax(v[1:]))] == rd.outcome["actions"][a]


def test_rulemaking_action_vectors(run_dir, traces):
    issues = load_scenario("E1").issue_ids
    rows = list(export.transitions(run_dir, games=["rulemaking"]))
    assert rows and all(len(r["action_vector"]) == len(MOVES) + len(issues) + 1 for r in rows)
    for t in (t for t in traces if t.game == "rulemaking"):
        assert t.config["environment"] == "Fragmented"  # traces store E1 by name; the encoder finds it
        mine = sorted((r for r in rows if r["episode_id"] == t.game_id), key=lambda r: r["step"])
        moves = [MOVES[int(np.argmax(r["action_vector"][:len(MOVES)]))] for r in mine]
        assert moves == t.rounds[0].outcome["trajectory"]
        assert all(r["action_vector"][len(MOVES):] == [1.0] + [0.0] * len(issues) for r in mine)  # no issue named
    # an issue-specific move, by hand: one-hot move, then the issue's position after "none"
    enc = export.ACTION_ENCODERS["rulemaking"](GameTrace(game_id="g", game="rulemaking", agents=["a"],
                                                         config={"environment": "E1"}))
    step = StepRecord(index=0, agent="a", action="{}", parsed={"move": "Concede", "issue": issues[1]})
    assert enc(step) == [0.0, 0.0, 1.0, 0.0, 0.0] + [0.0, 0.0, 1.0] + [0.0] * (len(issues) - 2)
    assert enc(StepRecord(index=1, agent="a", action="x", valid=False)) is None
    unknown = export.ACTION_ENCODERS["rulemaking"](GameTrace(game_id="g", game="rulemaking", agents=["a"],
                                                             config={"environment": "no-such-scenario"}))
    assert unknown(step) is None  # a scenario that does not load gives no vector rather than a wrong one


def test_action_vectors_round_trip_through_jsonl(run_dir, tmp_path):
    export.write("transitions", run_dir, tmp_path / "t.jsonl", games=["matrix", "rulemaking"])
    rows = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert {len(r["action_vector"]) for r in rows if r["game"] == "matrix"} == {3}
    assert {len(r["action_vector"]) for r in rows if r["game"] == "rulemaking"} == {11}
