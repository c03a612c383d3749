"""Replication cards (``report --card``): the rulemaking §7 card's verdicts on a scripted
run, a perturbed trace that makes a verdict "not consistent", n too small, model rows
that are not comparable (with the reason) and one that becomes comparable when the run's
seats play the paper's model, the verdict rules, and the CLI and the files it writes."""

from __future__ import annotations

import copy
import json

import pytest

from negotiation_env.analysis.cards import (CONSISTENT, NOT_COMPARABLE, NOT_CONSISTENT, Observed, Published, judge,
                                            model_key, seat_model)
from negotiation_env.analysis.matrix import matrix_card
from negotiation_env.analysis.report import build_report
from negotiation_env.analysis.resource import resource_card
from negotiation_env.analysis.rulemaking import rulemaking_card
from negotiation_env.games.rulemaking import card as rulemaking_paper

from .tracesets import play_resource


@pytest.fixture(scope="module")
def scripted_run(tmp_path_factory) -> list[dict]:
    """Seed 001 §7's setting through the runner: E1, condition none, homogeneous scripted
    populations, 10 runs each of the conceder and the hardliner."""
    from negotiation_env.runner import run
    from negotiation_env.traces import read_traces

    out = tmp_path_factory.mktemp("s7")
    run({"name": "s7", "seed": 0, "games": [{
        "game": "rulemaking", "policies": ["scripted:conceder", "scripted:hardliner"], "pairings": "self",
        "games_per_cell": 10, "config": {"environment": "E1", "condition": "none"}}]}, out, preflight=False)
    return [t.to_dict() for t in read_traces(out).traces]


def _line(card, row: str, measure: str = "agreement"):
    return next(ln for ln in card.lines if ln.published.row == row and ln.published.measure.startswith(measure))


def test_the_rulemaking_card_reproduces_the_expected_verdicts(scripted_run):
    card = rulemaking_card(scripted_run)
    assert len(card.lines) == len(rulemaking_paper.AGREEMENTS) + len(rulemaking_paper.SOFTENING)
    conceder = _line(card, "conceder")
    # every conceder run agrees (ours 10/10 against the paper's 14/15: Fisher p = 1)
    assert (conceder.observed.count, conceder.observed.n, conceder.verdict) == (10, 10, CONSISTENT)
    assert conceder.published.count == 14 and conceder.published.n == 15
    assert "Fisher" in conceder.basis
    hard = _line(card, "hardliner")
    assert (hard.observed.count, hard.verdict) == (0, CONSISTENT)
    assert _line(card, "hardliner", "runs with a softening").verdict == CONSISTENT
    for row in ("noisy_conceder", "satisficer", "reciprocator"):
        ln = _line(card, row)
        assert ln.verdict == NOT_COMPARABLE and ln.basis.startswith("policy absent") and ln.observed is None
    assert "draws each seat's policy per run" in _line(card, "mixed").basis


def test_a_perturbed_trace_set_is_not_consistent(scripted_run):
    perturbed = copy.deepcopy(scripted_run)
    for t in perturbed:
        if "hardliner" in t["game_id"]:
            t["rounds"][0]["outcome"]["label"] = "compromise"  # 10/10 agreements against the paper's 0/15
    hard = _line(rulemaking_card(perturbed), "hardliner")
    assert hard.observed.count == 10
    assert hard.verdict == NOT_CONSISTENT and "p = 3.1e-07" in hard.basis  # 1 / C(25, 10)


def test_a_condition_absent_and_a_small_n_are_not_comparable(scripted_run):
    few = [t for t in scripted_run if "conceder" in t["game_id"]][:3]
    ln = _line(rulemaking_card(few), "conceder")
    assert ln.verdict == NOT_COMPARABLE and ln.basis.startswith("n too small: 3 runs")
    moved = copy.deepcopy(scripted_run)
    for t in moved:
        t["config"]["condition"] = "ledger"
    ln = _line(rulemaking_card(moved), "conceder")
    assert ln.verdict == NOT_COMPARABLE and ln.basis.startswith("condition absent") and "E1/none" in ln.basis


@pytest.fixture(scope="module")
def resource_games() -> list[dict]:
    return [play_resource("oracle", "oracle", seed=s, scenario="mc050_1", rounds=4) for s in range(10)]


def test_a_model_row_is_not_comparable_with_a_scripted_run(resource_games):
    card = resource_card(resource_games, n_resamples=100)
    assert {ln.verdict for ln in card.lines} == {NOT_COMPARABLE}
    ln = next(ln for ln in card.lines if ln.published.row == "GPT-5 Mini self-play")
    assert ln.basis.startswith("different model: no game of GPT-5 Mini self-play") and "oracle" in ln.basis
    cohort = next(ln for ln in card.lines if ln.published.row.startswith("main cohort"))
    assert "Claude Sonnet 4.5, GPT-5 Mini, Qwen 3.5 Flash" in cohort.basis
    assert {ln.verdict for ln in matrix_card([]).lines} == {NOT_COMPARABLE}


def test_a_model_row_compares_the_games_whose_seats_play_that_model(resource_games):
    games = copy.deepcopy(resource_games)
    for g in games:
        for agent in g["agents"]:
            g["policies"][agent]["spec"] = "openai:openai/gpt-5-mini@http://127.0.0.1:9/v1"
    card = resource_card(games, n_resamples=100)
    ln = next(ln for ln in card.lines
              if ln.published.row == "GPT-5 Mini self-play" and ln.published.get("mc") == 0.5)
    # oracle play reaches the optimum every round: efficiency 1 in all 40 rounds, the paper's
    # 68.2% outside the run's interval
    assert (ln.observed.value, ln.observed.n, ln.observed.interval) == (1.0, 40, (1.0, 1.0))
    assert ln.verdict == NOT_CONSISTENT and "outside" in ln.basis
    few = next(x for x in resource_card(games[:2], n_resamples=100).lines if x.published == ln.published)
    assert few.verdict == NOT_COMPARABLE and few.basis.startswith("n too small: 8 rounds")
    at08 = next(ln for ln in card.lines
                if ln.published.row == "GPT-5 Mini self-play" and ln.published.get("mc") == 0.8)
    assert at08.verdict == NOT_COMPARABLE and at08.basis.startswith("condition absent")


def test_the_verdict_rules():
    pub = Published(row="r", measure="m", value=0.5, n=100, unit="runs", source="s", min_n=10)
    assert judge(pub, Observed(0.45, 50, (0.4, 0.6))).verdict == CONSISTENT
    assert judge(pub, Observed(0.8, 50, (0.7, 0.9))).verdict == NOT_CONSISTENT
    assert judge(pub, Observed(0.5, 5, (0.1, 0.9))).verdict == NOT_COMPARABLE
    spread = Published(row="r", measure="m", value=0.5, n=100, unit="dyads", source="s", interval=(0.4, 0.6))
    # each standard error 0.1 / 1.96, so the difference's is 0.0722: a difference of 0.1 is
    # z = 1.386 (p = 0.17), one of 0.15 is z = 2.079 (p = 0.038)
    assert judge(spread, Observed(0.6, 50, (0.5, 0.7))).verdict == CONSISTENT
    far = judge(spread, Observed(0.65, 50, (0.55, 0.75)))
    assert far.verdict == NOT_CONSISTENT and "p = 0.038" in far.basis


def test_a_seats_model_comes_from_its_policy_spec():
    t = {"agents": ["a", "b", "c"], "policies": {
        "a": {"spec": "openai:Qwen/Qwen2.5-7B-Instruct@http://x:1/v1"}, "b": {"spec": "hf:models/gemma-2-9b-it"},
        "c": {"spec": "scripted:oracle"}}}
    assert [seat_model(t, a) for a in "abc"] == ["Qwen/Qwen2.5-7B-Instruct", "models/gemma-2-9b-it", None]
    assert model_key("Qwen/Qwen2.5-7B-Instruct") == "qwenqwen257binstruct"


def test_report_card_writes_the_card_and_the_cli_prints_it(scripted_run, resource_games, tmp_path, capsys):
    from negotiation_env.cli import main

    rep = build_report(scripted_run + resource_games[:2], tmp_path / "rep", plots=False, card=True, n_resamples=20)
    assert [c.game for c in rep.cards] == ["resource", "rulemaking"]
    csv_text = (tmp_path / "rep" / "card.csv").read_text()
    assert "rulemaking,conceder,agreement rate" in csv_text and "Run 95% CI low" in csv_text
    assert "Replication card" in (tmp_path / "rep" / "card.md").read_text()
    src = tmp_path / "run.jsonl"
    src.write_text("".join(json.dumps(t) + "\n" for t in scripted_run))
    assert main(["report", str(src), "--card", "--no-plots", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = {(r["Paper row"], r["Measure"][:9]): r for r in doc["card"]["rows"]}
    assert rows[("conceder", "agreement")]["Verdict"] == CONSISTENT
    assert doc["card"]["notes"][0].startswith("Andric 2026 (Diversity Without Fidelity)") and len(doc["card"]["notes"]) == 2


def test_a_matrix_model_row_compares_the_dyads_whose_seats_play_that_model():
    from baselines.scripted.matrix import make as make_matrix

    from .tracesets import play_matrix_env

    dyads = []
    for k in range(24):  # 6 dyads per framing and treatment: every framing testable
        env = play_matrix_env(make_matrix("alternator", output="text"), make_matrix("always_a", output="text"),
                              seed=k, treatment=("none", "communication")[k % 2], stage_game="snowdrift",
                              framing=("neutral", "business")[k // 12])
        t = env.last_trace.to_dict()
        for agent in t["agents"]:
            t["policies"][agent]["spec"] = "hf:Qwen/Qwen2.5-7B-Instruct"
        dyads.append(t)
    lines = {ln.published.measure: ln for ln in matrix_card(dyads, n_resamples=200).lines
             if ln.published.row == "Qwen 2.5 7B self-play"}
    snow = lines["ΔS = S(no message) - S(message), Snowdrift"]
    # scripted play ignores the talk: ΔS = 0 exactly, against the paper's 86.9 points [84.9, 88.8]
    assert (snow.observed.value, snow.observed.n, snow.observed.interval) == (0.0, 24, (0.0, 0.0))
    assert snow.verdict == NOT_CONSISTENT and "z test" in snow.basis and "p < 1e-16" in snow.basis
    pd = lines["ΔS = S(no message) - S(message), Prisoner's Dilemma"]
    assert pd.verdict == NOT_COMPARABLE and pd.basis.startswith("condition absent")
    few = [ln for ln in matrix_card(dyads[:4] + dyads[12:16], n_resamples=200).lines
           if ln.published.measure.endswith("Snowdrift") and ln.published.row == "Qwen 2.5 7B self-play"][0]
    assert few.verdict == NOT_COMPARABLE and few.basis.startswith("n too small: 8 dyads")
