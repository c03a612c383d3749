"""`negotiation-env experiments` and :mod:`negotiation_env.analysis.matrix_experiments`
without a model: a scripted matrix run scored by a deterministic stand-in
(``tests.analysis.fake_scorer``), so the selection, the tables, their exact values, the
files and the error paths are checked fast; the tiny-model run is in
``tests/llm/test_matrix_experiments.py``."""

from __future__ import annotations

import csv
import json
import sys

import pytest

from negotiation_env.analysis import matrix_experiments as mx
from negotiation_env.analysis.matrix_experiments import ExperimentsConfig, ExperimentsError
from negotiation_env.cli import main
from negotiation_env.games.matrix import EXPERIMENT_1, EXPERIMENT_2, replay_observation
from negotiation_env.runner import run
from negotiation_env.traces import TraceWriter, read_traces
from tests.analysis.fake_scorer import Scorer, p_of
from tests.analysis.tracesets import play_resource

SCORER = "python:tests.analysis.fake_scorer:Scorer"
N_RES = 200
TABLES = ("matrix_table2", "matrix_tableS7", "matrix_tableS9", "matrix_exp2_rounds")
FIGURES = ("fig2_matrix_exp1_decomposition.png", "figS2_matrix_exp1_decomposition.png", "fig3_matrix_exp2_rounds.png",
           "figS3_matrix_exp2_decomposition.png")


def matrix_run(path, treatments=("communication", "none"), games_per_cell=2):
    cfg = {"name": "mx", "seed": 3, "games": [{
        "game": "matrix", "pairings": "cross", "games_per_cell": games_per_cell, "config": {"num_rounds": 3},
        "policies": ["scripted:tit_for_tat", "scripted:wsls",
                     {"spec": "scripted:bernoulli", "label": "b", "options": {"p": 0.5}}],
        "factors": {"treatment": {t: {"treatment": t} for t in treatments},
                    "game": {"pd": {"stage_game": "prisoners_dilemma"}, "sh": {"stage_game": "stag_hunt"}}}}]}
    run(cfg, path)
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return matrix_run(tmp_path_factory.mktemp("mxrun") / "run")


@pytest.fixture(scope="module")
def traces(run_dir):
    return [t.to_dict() for t in read_traces(run_dir).traces]


@pytest.fixture(scope="module")
def cli_out(run_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("mxout") / "exp"
    assert main(["experiments", str(run_dir), "--model", f"fake={SCORER}", "--out", str(out), "--resamples",
                 str(N_RES)]) == 0
    return out


@pytest.fixture(scope="module")
def result(traces):
    """The same analysis through the library, the scorer object given directly."""
    cfg = ExperimentsConfig(n_resamples=N_RES)
    dyads, notes = mx.select_dyads(traces, cfg)
    rows = mx.score_replays(dyads, Scorer(), "fake", cfg)
    return mx.analyse_replays(rows, cfg, notes=notes)


def read_csv(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


# --------------------------------------------------------------------------- the command


def test_the_command_writes_every_table_figure_and_file(cli_out, capsys):
    names = {p.name for p in cli_out.iterdir()}
    for t in TABLES:
        assert {f"{t}.md", f"{t}.csv"} <= names
    assert set(FIGURES) <= names
    assert {"replays.jsonl", "experiments.json", "experiments.md"} <= names
    for f in FIGURES:
        assert (cli_out / f).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (cli_out / "experiments.md").read_text(encoding="utf-8")
    assert "Table 2: Experiment 1" in page and "Table S9" in page and "![fig3_matrix_exp2_rounds]" in page
    settings = json.loads((cli_out / "experiments.json").read_text(encoding="utf-8"))
    assert settings["models"] == ["fake"] and settings["config"]["n_resamples"] == N_RES
    assert len(settings["dyads"]) == 12 and settings["scorers"]["fake"]["spec"] == SCORER


def test_replays_cover_every_decision_and_condition_of_the_talk_dyads(cli_out, traces):
    rows = [json.loads(line) for line in (cli_out / "replays.jsonl").read_text(encoding="utf-8").splitlines()]
    talk = [t for t in traces if t["config"]["treatment"] == "communication"]
    assert len(rows) == len(talk) * 2 * 3 * (len(EXPERIMENT_1) + len(EXPERIMENT_2))
    assert {r["game_id"] for r in rows} == {t["game_id"] for t in talk}
    assert {r["model"] for r in rows} == {"fake"}
    by_id = {t["game_id"]: t for t in talk}
    for r in rows[::37]:  # each row's P(A) is the scorer's on the replayed prompt
        obs = replay_observation(by_id[r["game_id"]], r["agent"], r["round"], r["condition"])
        assert r["p_a"] == p_of(obs)


def test_table2_matches_the_library_and_a_hand_computation(cli_out, result, traces):
    csv_rows = {r["condition"]: r for r in read_csv(cli_out / "matrix_table2.csv")}
    assert list(csv_rows) == list(EXPERIMENT_1[:-1])  # every non-reference condition, Table S6's order
    stratum = {t["game_id"]: (t["config"]["stage_game"], t["config"]["framing"]) for t in traces}
    for cond, est in result.experiment1["fake"]["conditions"].items():
        assert float(csv_rows[cond]["dS (pp)"]) == pytest.approx(100 * est["total"], rel=1e-5)
        assert est["total"] == pytest.approx(hand_effect(result.rows, stratum, cond), abs=1e-12)
    md = (cli_out / "matrix_table2.md").read_text(encoding="utf-8")
    e = result.experiment1["fake"]["conditions"]["partner_message"]
    cell = f"{100 * e['total']:.2f} [{100 * e['ci'][0]:.2f}, {100 * e['ci'][1]:.2f}]"
    assert f"| Partner message | {f'**{cell}**' if e['significant'] else cell} |" in md
    assert "| No message | 0.00 (reference) |" in md


def hand_effect(rows, stratum, cond, ref="no_message"):
    """Eq. S5 from scratch: per transition E = p(1-q) + (1-p)q, averaged within dyad
    (both agents), dyads within stratum, strata equally."""
    p = {(r["game_id"], r["agent"], r["condition"], r["round"]): r["p_a"] for r in rows}
    acc = {}
    for (g, a, c, t), x in p.items():
        if c in (cond, ref) and (g, a, c, t + 1) in p:
            y = p[(g, a, c, t + 1)]
            acc.setdefault(stratum[g], {}).setdefault(g, {}).setdefault(c, []).append(x * (1 - y) + (1 - x) * y)
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    return mean([mean([mean(d[ref]) - mean(d[cond]) for d in dyads.values()]) for dyads in acc.values()])


def test_table_s9_interaction_by_hand(result, traces):
    stratum = {t["game_id"]: (t["config"]["stage_game"], t["config"]["framing"]) for t in traces}
    e = {c: -hand_effect(result.rows, stratum, c, ref="A/MB") for c in EXPERIMENT_2}  # E_c - E_A/MB
    want = 0.5 * ((e["A/SP"] - e["A/MB"]) - (e["B/SP"] - e["B/MB"]))
    got = result.experiment2["pooled"]["fake"]
    assert got["total"] == pytest.approx(want, abs=1e-12)
    assert got["sp_minus_mb_after_A"] == pytest.approx(e["A/SP"] - e["A/MB"], abs=1e-12)


def test_drift_and_uncertainty_add_up_to_every_total(result, cli_out):
    ests = list(result.experiment1["fake"]["conditions"].values()) + list(result.experiment1["fake"]["contrasts"].values())
    ests += list(result.experiment2["pooled"].values()) + list(result.experiment2["by_game"].values())
    ests += list(result.rounds["fake"].values())
    assert len(ests) == 6 + 5 + 1 + 2 + 2  # rounds 2 and 3
    for e in ests:
        assert e["drift"] + e["uncertainty"] == pytest.approx(e["total"], abs=1e-12)
    for r in read_csv(cli_out / "matrix_table2.csv"):
        assert float(r["reduced drift (pp)"]) + float(r["reduced uncertainty (pp)"]) == \
            pytest.approx(float(r["dS (pp)"]), abs=1e-3)


def test_tables_s7_s9_and_the_round_profile(cli_out):
    s7 = read_csv(cli_out / "matrix_tableS7.csv")
    assert [(r["first"], r["second"]) for r in s7] == [tuple(c) for c in mx.SPECIFICITY_CONTRASTS]
    md = (cli_out / "matrix_tableS7.md").read_text(encoding="utf-8")
    assert "Real vs. dummy, partner framed | Plain vs. partner-framed dummy" in md
    s9 = read_csv(cli_out / "matrix_tableS9.csv")
    assert [r["game"] for r in s9] == ["pooled", "prisoners_dilemma", "stag_hunt"]
    assert "| Model | Pooled | Prisoner's Dilemma | Stag Hunt |" in (cli_out / "matrix_tableS9.md").read_text()
    assert [int(r["round"]) for r in read_csv(cli_out / "matrix_exp2_rounds.csv")] == [2, 3]


def test_table_s7_bold_by_interval(result):
    res = mx.analyse_replays(result.rows, ExperimentsConfig(n_resamples=N_RES, s7_bold="ci"))
    s7 = res.table("matrix_tableS7")
    for cell, est in zip(s7.rows[0][1:], res.experiment1["fake"]["contrasts"].values()):
        lo, hi = est["ci"]
        assert cell.startswith("**") == (lo > 0 or hi < 0)
    assert "Bold: the 95% interval excludes zero." in s7.notes[0]


def test_the_command_agrees_with_the_library(cli_out, result):
    got = {r["condition"]: float(r["dS (pp)"]) for r in read_csv(cli_out / "matrix_table2.csv")}
    for cond, est in result.experiment1["fake"]["conditions"].items():
        assert got[cond] == pytest.approx(100 * est["total"], rel=1e-5)


# --------------------------------------------------------------------------- selection


def test_selection_keeps_complete_error_free_talk_dyads(traces):
    keep, notes = mx.select_dyads(traces)
    assert len(keep) == 12 and all(t["config"]["treatment"] == "communication" for t in keep)
    assert any("12 matrix dyad(s) left out, played without communication" in n for n in notes)
    marked = json.loads(json.dumps(keep[0]))
    marked["rounds"][1]["outcome"]["fallbacks"] = {"agent_0": ["message"]}
    keep2, notes2 = mx.select_dyads([marked] + keep[1:])
    assert len(keep2) == 11 and any("error-marked" in n for n in notes2)
    assert len(mx.select_dyads([marked] + keep[1:], ExperimentsConfig(include_fallbacks=True))[0]) == 12


def test_dyads_per_cell_limit_and_pairing_filter(traces):
    one, notes = mx.select_dyads(traces, ExperimentsConfig(dyads_per_cell=1))
    assert len(one) == 6 and all(t["game_id"].endswith("|0") for t in one)  # 3 pairings x 2 games, the first of each
    assert any("over 1 dyads in their cell" in n for n in notes)
    few, _ = mx.select_dyads(traces, ExperimentsConfig(limit=6))
    assert sorted(t["game_id"] for t in few) == sorted(t["game_id"] for t in one)  # round-robin: one per cell first
    pairings = {mx.pairing(t) for t in one}
    only = sorted(pairings)[0]
    sel, _ = mx.select_dyads(traces, ExperimentsConfig(pairings=(only,)))
    assert len(sel) == 4 and {mx.pairing(t) for t in sel} == {only}
    cfg = ExperimentsConfig(agents=("agent_0",), experiments=(2,))
    assert mx.replay_count(sel, cfg) == 4 * 3 * 1 * 4 and cfg.conditions() == EXPERIMENT_2


def test_config_rejects_bad_settings():
    for bad in ({"experiments": (3,)}, {"temperature": 0}, {"dyads_per_cell": 0}, {"limit": -1},
                {"agents": ("agent_2",)}, {"strata": ()}, {"contrasts": (("dummy", "A/MB"),)}, {"n_resamples": -1}, {"s7_bold": "p"}):
        with pytest.raises(ExperimentsError):
            ExperimentsConfig(**bad)


def test_model_labels():
    assert mx.model_label("hf:/models/Qwen2.5-7B-Instruct/") == "Qwen2.5-7B-Instruct"
    assert mx.model_label("openai:qwen3-8b@http://127.0.0.1:8000/v1") == "qwen3-8b"
    assert mx.model_label("qwen=hf:Qwen/Qwen2.5-7B-Instruct") == "qwen"


# --------------------------------------------------------------------------- options


def test_two_models_give_two_columns_and_figure_s2_without_the_primary(traces, tmp_path):
    cfg = ExperimentsConfig(n_resamples=0, limit=4, s2_excludes_primary=True, primary="b")
    res = mx.run_experiments(traces, {"a": Scorer(), "b": Scorer()}, tmp_path, cfg)
    assert res.table("matrix_table2").columns == ["Condition", "a", "b"]
    assert res.table("matrix_tableS9").rows[0][0] == "a"
    assert {f.name for f in res.figures} == set(FIGURES)
    # the same scorer twice: identical columns; no resamples: no interval and no bold
    t2 = res.table("matrix_table2")
    assert all(r[1] == r[2] and "[" not in r[1] and "**" not in r[1] for r in t2.rows[:-1])


def test_figures_are_optional_without_matplotlib(traces, tmp_path, monkeypatch):
    import negotiation_env.analysis

    # the plotting module cannot be imported, as without matplotlib
    monkeypatch.setitem(sys.modules, "negotiation_env.analysis.matrix_experiment_plots", None)
    monkeypatch.delattr(negotiation_env.analysis, "matrix_experiment_plots", raising=False)
    res = mx.run_experiments(traces, {"fake": Scorer()}, tmp_path, ExperimentsConfig(n_resamples=0, limit=2))
    assert res.figures == [] and any(n.startswith("figures skipped") for n in res.notes)
    assert (tmp_path / "matrix_table2.csv").exists() and not list(tmp_path.glob("*.png"))


def test_one_experiment_only(traces, tmp_path):
    res = mx.run_experiments(traces, {"fake": Scorer()}, tmp_path, ExperimentsConfig(n_resamples=0, limit=2,
                                                                                    experiments=(2,)))
    assert [t.name for t in res.tables] == ["matrix_tableS9", "matrix_exp2_rounds"]
    assert {r["condition"] for r in res.rows} == set(EXPERIMENT_2)


# --------------------------------------------------------------------------- errors


def test_command_errors(run_dir, tmp_path, capsys):
    def fails(args, code, text):
        assert main(["experiments", *args]) == code
        err = capsys.readouterr().err
        assert text in err, err

    fails([str(tmp_path / "nowhere"), "--model", SCORER], 2, "no run folder or trace file")
    (tmp_path / "empty").mkdir()
    fails([str(tmp_path / "empty"), "--model", SCORER], 2, f"{tmp_path / 'empty'} is not a run folder (no traces.jsonl)")
    res_file = tmp_path / "resource" / "traces.jsonl"
    res_file.parent.mkdir()
    writer = TraceWriter(res_file)
    play_resource("oracle", "greedy", writer=writer)
    writer.close()
    fails([str(res_file.parent), "--model", SCORER], 2, "no matrix traces (games: resource)")
    fails([str(run_dir), "--model", SCORER, "--pairing", "nobody × nobody"], 2, "the selection is empty")
    fails([str(run_dir), "--model", SCORER, "--dyads-per-cell", "0"], 2, "dyads_per_cell must be an integer >= 1")
    fails([str(run_dir), "--model", SCORER, "--model", SCORER], 2, "two models are labelled")
    fails([str(run_dir), "--model", SCORER, "--strata", "stage_game,colour"], 2, "unknown strata field(s) 'colour'")
    fails([str(run_dir), "--model", "scripted:tit_for_tat"], 3, "a scripted policy has no action probabilities")
    fails([str(run_dir), "--model", "python:tests.analysis.tracesets:Garbage"], 3, "has no action_probs_batch")
    fails([str(run_dir), "--model", "python:tests.analysis.fake_scorer:Scorer", "--temperature", "0.5"], 3,
          "takes no temperature")
    assert not (run_dir / "experiments").exists()  # nothing written on an error


def test_no_talk_run_is_an_empty_selection(tmp_path, capsys):
    path = matrix_run(tmp_path / "run", treatments=("none",), games_per_cell=1)
    assert main(["experiments", str(path), "--model", SCORER]) == 2
    assert "played without communication" in capsys.readouterr().err
