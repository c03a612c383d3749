import importlib.util
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from negotiation_env.runner import run
from negotiation_env.traces import export, read_traces
from tests.runner.helpers import small_config


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("export_run")
    run(small_config(games_per_cell=2, policies=["scripted:oracle", "scripted:linear", "scripted:greedy"]), out)
    return out


@pytest.fixture(scope="module")
def traces(run_dir):
    return read_traces(run_dir).traces


def test_transitions_parquet_matches_the_traces(run_dir, traces, tmp_path):
    n = export.write("transitions", run_dir, tmp_path / "t.parquet")
    table = pq.read_table(tmp_path / "t.parquet")
    assert table.schema == export.SCHEMAS["transitions"]
    assert n == table.num_rows == sum(len(t.steps) for t in traces)
    rows = table.to_pylist()
    by_ep = {}
    for r in rows:
        by_ep.setdefault(r["episode_id"], []).append(r)
    for t in traces:
        ep = by_ep[t.game_id]
        for a in t.agents:
            mine = sorted((r for r in ep if r["agent"] == a), key=lambda r: r["step"])
            assert [r["t"] for r in mine] == list(range(len(mine)))
            assert sum(r["reward"] for r in mine) == pytest.approx(t.returns[a])  # no reward lost or doubled
            assert mine[0]["return_to_go"] == pytest.approx(t.returns[a])
            assert [r["done"] for r in mine] == [False] * (len(mine) - 1) + [True]
            assert mine[-1]["terminated"] and mine[-1]["next_observation"] == pytest.approx(t.final_features[a])
            for r, nxt in zip(mine, mine[1:]):
                assert r["next_observation"] == nxt["observation"]
            assert all(r["policy"] == t.policies[a].label for r in mine)
        for r in ep:
            s = t.steps[r["step"]]
            np.testing.assert_array_equal(np.float32(r["observation"]), np.float32(s.features))
            assert r["action_text"] == s.action and r["valid"] == s.valid and r["phase"] == s.phase
            if s.parsed and s.parsed.get("decision"):
                d = s.parsed["decision"]
                assert r["action_vector"] == [1.0, *map(float, d["purchase"].values()), *map(float, d["runs"].values())]
                assert json.loads(r["action"])["decision"] == d
            elif s.valid:
                assert r["action_vector"] == [0.0] * 7  # 3 resources + 3 projects + decide
        # the purchases the env resolved are the decisions in the table
        for rd in t.rounds:
            for a in t.agents:
                bought = [r for r in ep if r["agent"] == a and r["round"] == rd.round and r["action_vector"]
                          and r["action_vector"][0] == 1.0]
                assert bought[-1]["action_vector"][1:4] == [float(v) for v in rd.outcome["purchases"][a].values()]


def test_sft_examples_filter_by_outcome(run_dir, traces, tmp_path):
    n = export.write("sft", run_dir, tmp_path / "sft.parquet", only_optimal=True)
    table = pq.read_table(tmp_path / "sft.parquet")
    assert table.schema == export.SCHEMAS["sft"]
    rows = table.to_pylist()
    expected = [(t.game_id, s.index) for t in traces for s in t.steps
                if s.valid and (t.round_outcome(s.round) or {}).get("optimal")]
    assert n == len(rows) == len(expected) > 0
    assert [(r["episode_id"], r["step"]) for r in rows] == expected
    by_id = {t.game_id: t for t in traces}
    for r in rows:
        t = by_id[r["episode_id"]]
        s = t.steps[r["step"]]
        assert r["optimal"] is True and r["efficiency"] == 1.0
        assert r["messages"][-1] == {"role": "assistant", "content": s.action}
        assert r["messages"][:-1] == t.contexts()[s.index]
        assert r["messages"][0]["role"] == "system" and r["messages"][-2]["role"] == "user"
    everything = list(export.sft_examples(traces))
    assert len(everything) == sum(s.valid for t in traces for s in t.steps) > len(rows)
    only_greedy = list(export.sft_examples(traces, policies=["scripted:greedy"]))
    assert only_greedy and all(r["policy"] == "scripted:greedy" for r in only_greedy)
    assert all(r["efficiency"] >= 0.9 for r in export.sft_examples(traces, min_efficiency=0.9))


def test_preference_pairs_share_a_state_and_rank_by_outcome(run_dir, traces, tmp_path):
    n = export.write("preferences", run_dir, tmp_path / "p.parquet")
    rows = pq.read_table(tmp_path / "p.parquet").to_pylist()
    assert n == len(rows) > 0
    by_id = {t.game_id: t for t in traces}

    def occurrence(episode, answer, prompt):
        t = by_id[episode]
        for s, ctx in zip(t.steps, t.contexts()):
            if s.valid and ctx == prompt and s.action == answer:
                return t, s
        raise AssertionError("the pair's answer does not occur at its state in its episode")

    for r in rows:
        assert r["chosen"] != r["rejected"] and r["score_chosen"] > r["score_rejected"]
        tc, sc = occurrence(r["episode_chosen"], r["chosen"][0]["content"], r["prompt"])
        tr, sr = occurrence(r["episode_rejected"], r["rejected"][0]["content"], r["prompt"])
        assert sc.agent == sr.agent == r["agent"]
        if r["n_chosen"] == 1:
            assert tc.round_outcome(sc.round)["rewards"][sc.agent] == r["score_chosen"]
        if r["n_rejected"] == 1:
            assert tr.round_outcome(sr.round)["rewards"][sr.agent] == r["score_rejected"]
    assert len(list(export.preference_pairs(traces, margin=1e9))) == 0
    with pytest.raises(ValueError, match="score must be one of"):
        list(export.preference_pairs(traces, score="happiness"))


def test_jsonl_output_and_bad_names(run_dir, tmp_path):
    n = export.write("transitions", run_dir, tmp_path / "t.jsonl")
    assert n == len((tmp_path / "t.jsonl").read_text().splitlines())
    with pytest.raises(ValueError, match=r"\.parquet or \.jsonl"):
        export.write("transitions", run_dir, tmp_path / "t.csv")
    with pytest.raises(ValueError, match="kind must be one of"):
        export.write("rewards", run_dir, tmp_path / "t.parquet")


@pytest.mark.skipif(importlib.util.find_spec("datasets") is None,
                    reason="Hugging Face datasets is not installed (optional extra 'data')")
def test_hf_dataset(traces):
    ds = export.to_dataset("sft", traces, only_optimal=True)
    assert len(ds) > 0 and ds.column_names[0] == "messages"
    assert ds[0]["messages"][-1]["role"] == "assistant"
