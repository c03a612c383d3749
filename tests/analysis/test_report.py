"""`negotiation-env report`: tables and figures from traces of real scripted games,
checked against the metrics computed directly on the same traces."""

from __future__ import annotations

import copy
import csv
import io
from collections import Counter

import pytest

from negotiation_env.analysis.cells import mc_level, pairing, resource_cell, rulemaking_cell
from negotiation_env.analysis.report import build_report, report_run, resource_tables, rulemaking_tables
from negotiation_env.analysis.rulemaking_metrics import condition_contrasts
from negotiation_env.analysis.resource_metrics import game_metrics, model_metrics, pooled_metrics
from negotiation_env.analysis.stats import wilson_interval
from negotiation_env.cli import main

from .tracesets import Garbage, Metered, play_resource, play_rulemaking, resource_cohort, rulemaking_cohort


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("run")
    resource_cohort(d / "traces.jsonl")
    rulemaking_cohort(d / "rulemaking.jsonl")
    return d


@pytest.fixture(scope="module")
def report(run_dir):
    return report_run(run_dir)


@pytest.fixture(scope="module")
def traces(run_dir):
    from negotiation_env.traces import read_traces

    res = read_traces(run_dir)
    assert not res.problems
    return [t.to_dict() for t in res.traces]


def names(t):
    return sorted(p["name"] for p in t["policies"].values())


def select(traces, *, pair=None, scenario=None, talk=True, partner=None):
    """Games chosen from the raw trace fields, independently of analysis.cells."""
    out = []
    for t in traces:
        if t["game"] != "resource" or t["config"]["cheap_talk"] is not talk:
            continue
        if pair is not None and names(t) != sorted(pair):
            continue
        if scenario is not None and t["config"]["scenario"] != scenario:
            continue
        if partner is not None and t["config"]["partner"] != partner:
            continue
        out.append(t)
    return out


# --------------------------------------------------------------------------- cells


def test_cell_definitions_read_config_policies_and_scenario_meta(traces):
    assert mc_level("mc050_1") == 0.5 and mc_level("mc080_1") == 0.8 and mc_level("mc100_1") == 1.0
    assert mc_level("no_such_scenario") is None
    # a legacy scenario has its level; a resource_v0 trace names the pool of its version,
    # kept as legacy_*, never today's scenario of the same name
    assert mc_level("legacy_mc050_g1") == 0.5 and mc_level("legacy_mc100_4") == 1.0
    old = {"game": "resource", "env_name": "resource_v0", "scenario": "mc050_g1", "agents": ["agent_a", "agent_b"]}
    assert resource_cell(old).mc == 0.5  # mc050_g1 is not among the shipped scenarios
    from negotiation_env.analysis.cells import _scenario_name
    assert _scenario_name({**old, "scenario": "mc080_1"}) == "legacy_mc080_1"
    assert _scenario_name({**old, "env_name": "resource_v1", "scenario": "mc080_1"}) == "mc080_1"
    t = select(traces, pair=("oracle", "fair_splitter"), scenario="mc100_1", partner="shifting")[0]
    c = resource_cell(t)
    assert (c.pairing, c.self_play, c.mc, c.talk, c.partner, c.rotation, c.variant) == \
        ("fair_splitter × oracle", False, 1.0, True, "shifting", "fixed", "")
    nt = select(traces, pair=("greedy", "greedy"), talk=False)[0]
    assert resource_cell(nt).self_play and not resource_cell(nt).talk
    rm = next(t for t in traces if t["game"] == "rulemaking")
    assert rulemaking_cell(rm).environment in ("E1 Fragmented", "E2 Unified")
    assert pairing(rm) in ("conceder", "hardliner")
    varied = play_resource("oracle", "oracle", scenario="mc080_1", rounds=2, transparency="full", cheap_talk_turns=3)
    assert resource_cell(varied).variant == "transparency=full, turns=3, rounds=2"


# --------------------------------------------------------------------------- resource tables


MCS = {"0.5": "mc050_1", "1.0": "mc100_1"}
PAIRS = {"oracle × oracle": ("oracle", "oracle"), "greedy × greedy": ("greedy", "greedy"),
         "fair_splitter × oracle": ("oracle", "fair_splitter")}


def test_table3_matches_pooled_metrics_per_pairing_and_mc(report, traces):
    t3 = report.table("resource_table3")
    assert t3.column("Pairing") == ["greedy × greedy", "oracle × oracle", "fair_splitter × oracle", "All"]
    assert t3.value("Type", Pairing="fair_splitter × oracle") == "cross-play"
    for label, pair in PAIRS.items():
        for mc, scenario in MCS.items():
            m = pooled_metrics(select(traces, pair=pair, scenario=scenario))
            row = {"Pairing": label}
            assert t3.value(f"M/C {mc} Overdraw %", row) == pytest.approx(m["overdraw_rate"])
            assert t3.value(f"M/C {mc} Efficiency %", row) == pytest.approx(m["efficiency"])
            assert t3.value(f"M/C {mc} Optimum %", row) == pytest.approx(m["optimum_rate"])
            assert t3.value(f"M/C {mc} games", row) == 2
    # known behaviour of the scripted pairs: oracles always reach M, greedy pairs collide at 0.5
    assert t3.value("M/C 0.5 Optimum %", Pairing="oracle × oracle") == 1.0
    assert t3.value("M/C 0.5 Overdraw %", Pairing="greedy × greedy") == 1.0
    m_all = pooled_metrics(select(traces, scenario="mc050_1"))
    assert t3.value("M/C 0.5 Efficiency %", Pairing="All") == pytest.approx(m_all["efficiency"])


def test_table3_markdown_and_csv_agree_with_the_values(report, run_dir):
    t3 = report.table("resource_table3")
    md = (run_dir / "report" / "resource_table3.md").read_text()
    v = t3.value("M/C 1.0 Efficiency %", Pairing="fair_splitter × oracle")
    assert f"| fair_splitter × oracle | cross-play |" in md and f"{100 * v:.1f}" in md
    rows = list(csv.DictReader(io.StringIO((run_dir / "report" / "resource_table3.csv").read_text())))
    row = next(r for r in rows if r["Pairing"] == "fair_splitter × oracle")
    assert float(row["M/C 1.0 Efficiency %"]) == pytest.approx(100 * v, rel=1e-5)  # percent, as the header says
    assert len(rows) == 4


def test_table10_talk_vs_no_talk(report, traces):
    t10 = report.table("resource_table10")
    assert t10.column("Pairing") == ["greedy × greedy", "oracle × oracle"]  # the pairings with no-talk games
    for label, pair in (("oracle × oracle", ("oracle", "oracle")), ("greedy × greedy", ("greedy", "greedy"))):
        for mc, scenario in MCS.items():
            talk = pooled_metrics(select(traces, pair=pair, scenario=scenario, partner="stable"))
            quiet = pooled_metrics(select(traces, pair=pair, scenario=scenario, talk=False))
            cell = t10.value(f"M/C {mc} Efficiency %", Pairing=label, Partner="stable")
            assert cell == f"{100 * talk['efficiency']:.1f} / {100 * quiet['efficiency']:.1f}"
            data = t10.data
            assert data.value(f"M/C {mc} Overdraw % no-talk", Pairing=label) == pytest.approx(quiet["overdraw_rate"])
            assert data.value(f"M/C {mc} Optimum % talk", Pairing=label) == pytest.approx(talk["optimum_rate"])
    # oracles need talk at M/C 0.5: silent, both take their individual optimum and collide
    assert t10.value("M/C 0.5 Optimum %", Pairing="oracle × oracle", Partner="stable") == "100.0 / 0.0"


def test_table4_and_process_rates_match_pooled_metrics(report, traces):
    t4 = report.table("resource_table4")
    proc = report.table("resource_process")
    for label, pair in PAIRS.items():
        m = pooled_metrics(select(traces, pair=pair))
        for col, key in (("Payoff alternation %", "payoff_alternation"), ("Win-stay %", "win_stay"),
                         ("Lose-shift %", "lose_shift"), ("Sustained alternation %", "sustained_alternation")):
            assert t4.value(col, Pairing=label) == (None if m[key] is None else pytest.approx(m[key]))
        for col, key in (("Equal split %", "equal_split_rate"), ("Stubborn anchoring %", "stubborn_anchoring"),
                         ("Abandonment %", "abandonment_rate"), ("Early decision %", "early_decision_rate")):
            assert proc.value(col, Pairing=label) == (None if m[key] is None else pytest.approx(m[key]))
    # the oracle pair is never suboptimal: no opportunity for lose-shift
    assert t4.value("Lose-shift %", Pairing="oracle × oracle") is None


def test_summary_and_stability(report, traces):
    s = report.table("resource_summary")
    talk = select(traces)
    m = pooled_metrics(talk)
    assert s.value("Games", {"M/C": "All"}) == 12 and s.value("Rounds", {"M/C": "All"}) == 48
    assert s.value("Overdraw %", {"M/C": "All"}) == pytest.approx(m["overdraw_rate"])
    stable = [t for t in talk if t["config"]["partner"] == "stable"]
    firsts = [g["rounds_to_first_optimum"] for g in map(game_metrics, stable) if g["rounds_to_first_optimum"]]
    assert s.value("Rounds to first optimum (stable)", {"M/C": "All"}) == pytest.approx(sum(firsts) / len(firsts))
    st = report.table("resource_stability")
    for mc, scenario in MCS.items():
        a = pooled_metrics(select(traces, pair=("oracle", "fair_splitter"), scenario=scenario, partner="stable"))
        b = pooled_metrics(select(traces, pair=("oracle", "fair_splitter"), scenario=scenario, partner="shifting"))
        assert st.data.value(f"M/C {mc} Optimum % stable", Pairing="fair_splitter × oracle") == \
            pytest.approx(a["optimum_rate"])
        assert st.data.value(f"M/C {mc} Efficiency % shifting", Pairing="fair_splitter × oracle") == \
            pytest.approx(b["efficiency"])


# --------------------------------------------------------------------------- rulemaking


def test_rulemaking_table2_counts_and_wilson_bounds(report, traces):
    t2 = report.table("rulemaking_table2")
    assert t2.column("Family") == ["conceder", "hardliner"]
    for fam in ("conceder", "hardliner"):
        for env in ("E1 Fragmented", "E2 Unified"):
            runs = [t["rounds"][0]["outcome"] for t in traces if t["game"] == "rulemaking"
                    and {p["name"] for p in t["policies"].values()} == {fam}
                    and rulemaking_cell(t).environment == env]
            counts = Counter(o["label"] for o in runs)
            row = {"Family": fam, "Cond.": "none"}
            for label, code in (("compromise", "C"), ("consensus", "S"), ("authority", "A"), ("deadlock", "D")):
                assert t2.value(f"{env} {code}", row) == counts.get(label, 0)
            agree = counts["compromise"] + counts["consensus"]
            assert t2.value(f"{env} n", row) == 3
            assert t2.value(f"{env} agreement 95% CI", row) == pytest.approx(wilson_interval(agree, 3))
    # the hardliner family never agrees, the conceder family always does (seed 001 §7)
    assert t2.value("E1 Fragmented A", Family="hardliner") == 3
    assert t2.value("E2 Unified C", Family="conceder") + t2.value("E2 Unified S", Family="conceder") == 3
    cells = report.table("rulemaking_cells")
    assert cells.value("Agreement rate", Environment="E1 Fragmented", Family="hardliner") == 0.0
    assert cells.value("Mean entropy", Environment="E1 Fragmented", Family="hardliner") == 0.0  # one action only
    csv_text = (report.files[0].parent / "rulemaking_table2.csv").read_text()
    assert "E1 Fragmented agreement 95% CI low" in csv_text.splitlines()[0]


def test_rulemaking_contrasts_ledger_vs_native_by_hand():
    # conceders under the Ledger end on agreement, read within one closing window (turns 7,
    # 10, 9 at seeds 0-2); the Native runs are played with early_end="never", so they
    # exhaust the horizon by construction
    traces = [play_rulemaking("conceder", seed=s, condition="ledger", early_end="window") for s in range(3)] + \
             [play_rulemaking("conceder", seed=s, condition="native", early_end="never") for s in range(3)]
    outs = {c: [t["rounds"][0]["outcome"] for t in traces if t["config"]["condition"] == c] for c in ("ledger", "native")}
    assert [o["turns"] for o in outs["ledger"]] == [7, 10, 9] and {o["turns"] for o in outs["native"]} == {15}
    # every Ledger run's entropy is below every Native run's (0.37, 0.31, 0.33 vs 0.43, 0.42, 0.43)
    assert max(o["entropy"] for o in outs["ledger"]) < min(o["entropy"] for o in outs["native"])
    tables, _ = rulemaking_tables(traces)
    t = next(t for t in tables if t.name == "rulemaking_contrasts")
    row = {"Environment": "E1 Fragmented", "Family": "conceder", "Contrast": "ledger vs native"}
    assert t.column("Contrast") == ["ledger vs native"]
    assert (t.value("Ledger agreements", row), t.value("Other agreements", row)) == ("3/3", "3/3")
    assert t.value("Fisher one-sided p", row) == "1"  # [[3, 0], [3, 0]]: no evidence either way
    d = t.data
    # both measures: the observed 3 + 3 split is the single most extreme of C(6,3) = 20, so the
    # two-sided exact p is 2/20; Holm over the two: max(2 * 0.1, 0.1) = 0.2 each
    assert d.value("Entropy p (Holm)", row) == pytest.approx(0.2)
    assert d.value("Exhaustion p (Holm)", row) == pytest.approx(0.2)
    assert d.value("Entropy Cliff's delta", row) == -1.0 and d.value("Exhaustion Cliff's delta", row) == -1.0
    assert (d.value("Ledger exhaustion", row), d.value("Other exhaustion", row)) == (0.0, 1.0)
    assert d.value("Exhaustion difference 95% CI", row) == (-1.0, -1.0)  # no spread in either cell
    # the table is the metric computed directly on the same outcomes
    direct = condition_contrasts(outs, n_bootstrap=2000)["native"]
    assert d.value("Entropy difference 95% CI", row) == pytest.approx(direct["entropy_diff_ci"])
    assert d.value("Ledger mean entropy", row) == pytest.approx(direct["entropy_mean_a"])
    assert "Exhaustion p (Holm),Exhaustion Cliff's delta" in t.csv_text().splitlines()[0]
    # no Ledger cell, no contrast table
    assert [t.name for t in rulemaking_tables(traces[3:])[0]] == ["rulemaking_table2", "rulemaking_cells",
                                                                  "rulemaking_relabelling", "rulemaking_provenance"]


def test_rulemaking_relabelling_and_provenance_tables_on_a_hand_made_cohort():
    # a cell of three runs counted by hand (tests/analysis/test_rulemaking_metrics.py) and
    # a Native cell of 15 runs that fail to agree under every threshold pair, one of which
    # has a retried and two fallback turns
    from .test_rulemaking_metrics import GRID, grid, hand_cohort

    def with_outcome(trace, outcome, n):
        t = copy.deepcopy(trace)
        t["game_id"] = f"{t['game_id']}:{n}"
        t["rounds"][0]["outcome"].update(outcome)
        return t

    base = play_rulemaking("hardliner", seed=0, max_turns=5)
    native = play_rulemaking("hardliner", seed=0, max_turns=5, condition="native")
    traces = [with_outcome(base, o, n) for n, o in enumerate(hand_cohort())]
    for n in range(15):
        prov = {"genuine": 12, "retried": 1, "fallback": 2} if n == 4 else {"genuine": 15, "retried": 0, "fallback": 0}
        traces.append(with_outcome(native, {"label": "authority", "sensitivity": grid("authority"),
                                            "provenance": prov}, n))
    tables, _ = rulemaking_tables(traces, n_resamples=200)
    t = next(t for t in tables if t.name == "rulemaking_relabelling")
    assert t.columns[5:14] == GRID
    none = {"Environment": "E1 Fragmented", "Family": "hardliner", "Condition": "none"}
    nat = {**none, "Condition": "native"}
    assert [t.value(c, none) for c in ["Runs", "Agreements as run"] + GRID] == [3, 1, 3, 2, 2, 1, 1, 1, 0, 0, 0]
    assert (t.value("Agreements range", none), t.value("Screen verdicts", none)) == ("0–3", "pass")
    assert [t.value(c, nat) for c in ["Runs", "Agreements as run"] + GRID] == [15] + [0] * 10
    assert (t.value("Agreements range", nat), t.value("Screen verdicts", nat)) == ("0–0", "fail_no_agreement")
    assert t.column("Condition") == ["none", "native"]
    assert t.csv_text().splitlines()[0].startswith("Environment,Family,Condition,Runs,Agreements as run,1x0.6,")

    a = next(t for t in tables if t.name == "rulemaking_provenance")
    counts = ["Runs", "Turns", "Genuine", "Retried", "Fallback", "Runs with a fallback"]
    assert [a.value(c, none) for c in counts] == [3, 37, 30, 4, 3, 2]
    assert [a.value(c, none) for c in ("Genuine %", "Non-genuine %", "Fallback %")] == \
        pytest.approx([30 / 37, 7 / 37, 3 / 37])
    assert [a.value(c, nat) for c in counts] == [15, 225, 222, 1, 2, 1]
    assert [a.value(c, nat) for c in ("Genuine %", "Non-genuine %", "Fallback %")] == \
        pytest.approx([222 / 225, 3 / 225, 2 / 225])
    md = a.markdown()
    assert "| E1 Fragmented | hardliner | none | 3 | 37 | 30 | 4 | 3 | 81.1 | 18.9 | 8.1 | 2 |" in md
    assert "not a mean of per-run shares" in md



def test_rulemaking_cells_certify_a_cell_by_its_family_ledger_range():
    # hardliners never agree; their outcomes are edited into a Ledger cell of 13/15 and a
    # Native cell whose recode flips one run: §6.3 certifies it (1/15, upper 0.30, below
    # the Ledger's lower bound 0.62), and the table says so beside the flips
    import copy

    runs = {c: [play_rulemaking("hardliner", seed=s, condition=c) for s in range(15)] for c in ("ledger", "native")}
    traces = copy.deepcopy(runs["ledger"] + runs["native"])
    for t in traces[:13]:
        t["rounds"][0]["outcome"].update(label="compromise", worst_case_label="compromise")
    traces[15]["rounds"][0]["outcome"]["worst_case_label"] = "compromise"
    tables, _ = rulemaking_tables(traces, n_resamples=200, n_permutations=200)
    cells = next(t for t in tables if t.name == "rulemaking_cells")
    native = {"Environment": "E1 Fragmented", "Family": "hardliner", "Condition": "native"}
    assert cells.value("Screen verdict", native) == "fail_no_agreement"
    assert cells.value("Recode flips", native) == 1
    assert cells.value("Recoded agreements", native) == "1/15 (upper 0.30)"
    assert cells.value("Ledger range", native) == "13/15 (lower 0.62) to 13/15"
    assert cells.value("Certified", native) == "yes"
    assert cells.value("Certification basis", native) == "recoded 1/15, upper 0.30 < Ledger 13/15 lower 0.62"
    ledger = {**native, "Condition": "ledger"}
    assert cells.value("Certified", ledger) == "yes" and cells.value("Ledger range", ledger) == "-"
    assert cells.value("Certification basis", ledger) == "not a no-agreement cell"
    # without the Ledger cell there is nothing to compare the flip with
    alone = rulemaking_tables(traces[15:], n_resamples=200)[0][1]
    assert alone.value("Certified", native) == "n/a" and alone.value("Certification basis", native) == "no Ledger cell"


# --------------------------------------------------------------------------- files


def test_files_figures_and_determinism(report, run_dir, tmp_path):
    out = run_dir / "report"
    for name in ("report.md", "cells.csv", "fig_resource_by_mc.png", "fig_resource_stability.png",
                 "fig_resource_talk.png", "fig_rulemaking_entropy_agreement.png"):
        assert (out / name).is_file(), name
    for f in report.figures:
        data = f.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    page = (out / "report.md").read_text()
    assert "![fig_resource_by_mc](fig_resource_by_mc.png)" in page and "Table 10 layout" in page
    cells = list(csv.DictReader(io.StringIO((out / "cells.csv").read_text())))
    assert len(cells) == 28 and {c["game"] for c in cells} == {"resource", "rulemaking"}
    # the same traces give byte-identical tables and figures
    again = report_run(run_dir, tmp_path / "again")
    for f in report.files:
        assert (tmp_path / "again" / f.name).read_bytes() == f.read_bytes(), f.name
    assert len(again.files) == len(report.files)


def test_incomplete_games_are_left_out_and_noted(traces, tmp_path):
    broken = dict(select(traces, pair=("oracle", "oracle"))[0], status="error", game_id="broken-1")
    rep = build_report([broken] + select(traces, pair=("greedy", "greedy")), tmp_path, plots=False)
    assert any("broken-1" in n for n in rep.notes)
    assert rep.table("resource_table3").column("Pairing") == ["greedy × greedy", "All"]
    assert not rep.figures


def test_matrix_traces_get_table1_or_a_clear_note(tmp_path):
    fake = {"game_id": "m1", "game": "matrix", "agents": ["a", "b"], "status": "complete", "steps": [],
            "rounds": [], "config": {}, "policies": {}}
    rep = build_report([fake], tmp_path, plots=False)
    try:
        from negotiation_env.analysis import matrix_metrics  # noqa: F401
        has_hook = hasattr(matrix_metrics, "switching_table")
    except ImportError:
        has_hook = False
    if has_hook:
        assert any(t.name == "matrix_table1" for t in rep.tables)
    else:
        assert any("matrix" in n and "left out" in n for n in rep.notes)


def test_cli_report(run_dir, tmp_path, capsys):
    assert main(["report", str(run_dir), "--out", str(tmp_path / "r"), "--no-plots"]) == 0
    assert (tmp_path / "r" / "resource_table3.md").exists() and not list((tmp_path / "r").glob("*.png"))
    assert main(["report", str(tmp_path / "missing")]) == 2


# --------------------------------------------------------------------------- failure modes


@pytest.fixture(scope="module")
def failure_modes():
    tr = []
    for sc in ("mc050_2", "mc080_1", "mc100_2"):
        tr.append(play_resource("fair_splitter", "fair_splitter", scenario=sc))
        tr.append(play_resource("oracle", "oracle", scenario=sc))
    tr.append(play_resource("anchorer", "fair_splitter", scenario="mc080_1"))
    for sc in ("mc050_1", "mc050_2", "mc050_3", "mc050_4"):
        tr.append(play_resource("abandoner", "oracle", scenario=sc, first_speaker="agent_b"))
        tr.append(play_resource("oracle", "oracle", scenario=sc, first_speaker="agent_b", seed=1))
    tables, _ = resource_tables(tr)
    return {t.name: t for t in tables}


def test_equal_split_and_perfunctory_fairness_fire_on_the_fair_splitter_not_the_oracle(failure_modes):
    p = failure_modes["resource_process"]
    assert p.value("Equal split %", Pairing="fair_splitter × fair_splitter") > 0
    assert p.value("Perfunctory fairness %", Pairing="fair_splitter × fair_splitter") > 0
    assert p.value("Perfunctory fairness %", Pairing="oracle × oracle") == 0


def test_stubborn_anchoring_fires_on_the_anchorer_not_the_oracle(failure_modes):
    p = failure_modes["resource_process"]
    assert p.value("Stubborn anchoring %", Pairing="anchorer × fair_splitter") == 1.0
    # the oracle pair is never suboptimal, so it never anchors on a suboptimal allocation
    assert p.value("Stubborn anchoring %", Pairing="oracle × oracle") is None


def test_abandonment_flag_fires_on_the_abandoner_not_the_oracle(failure_modes):
    p = failure_modes["resource_process"]
    assert p.value("Abandonment %", Pairing="abandoner × oracle") > 0.25
    assert p.value("Abandonment in overdraw %", Pairing="abandoner × oracle") == 1.0
    assert p.value("Abandonment %", Pairing="oracle × oracle") == 0.0


def test_first_proposal_deference_fires_on_the_deferent_not_the_oracle():
    # the deferent speaks first (discloses, asks); the satisficer's first offer is informed but
    # not jointly optimal in legacy_mc080_4: the deferent says yes and takes it exactly. The
    # oracle in its seat never says yes, but the offer (the rest of the pool, the satisficer
    # claiming its part) is also the best it can buy: followed exactly, the paper's measure,
    # counts it; the accepted variant does not. In legacy_mc080_g3 the abandoner's offer is no
    # best response: the paper's measure fires on the deferent and not on the oracle. (Both are
    # legacy scenarios, loaded by name: their joint optima favour one side.)
    tr = [play_resource(x, "satisficer", scenario="legacy_mc080_4") for x in ("deferent", "oracle")]
    tr += [play_resource(x, "abandoner", scenario="legacy_mc080_g3") for x in ("deferent", "oracle")]
    tables, _ = resource_tables(tr)
    p = next(t for t in tables if t.name == "resource_process")
    assert p.value("First-proposal deference %", Pairing="deferent × satisficer") == 1.0
    assert p.value("Deference, suboptimal %", Pairing="deferent × satisficer") == 1.0
    assert p.value("Round-1 deference, suboptimal %", Pairing="deferent × satisficer") == 1.0
    assert p.value("Deference after a yes %", Pairing="deferent × satisficer") == 1.0
    assert p.value("First-proposal deference %", Pairing="oracle × satisficer") == 1.0
    assert p.value("Deference after a yes %", Pairing="oracle × satisficer") == 0.0
    assert p.value("First-proposal deference %", Pairing="abandoner × deferent") == 1.0
    assert p.value("First-proposal deference %", Pairing="abandoner × oracle") == 0.0
    models = next(t for t in tables if t.name == "resource_process_models")
    # the oracle is addressed in its 4 rounds against the satisficer and round 1 against the abandoner
    assert models.value("Proposals received", Model="oracle") == 5
    assert models.value("Compliance %", Model="oracle") == pytest.approx(4 / 5)
    assert models.value("Compliance after a yes %", Model="oracle") == 0.0
    assert models.value("Compliance %", Model="deferent") == 1.0
    assert models.value("Proposals received", Model="satisficer") == 0
    assert models.value("Compliance %", Model="satisficer") is None


def test_early_decision_is_na_under_unlimited_talk_and_the_note_says_why():
    # the oracle decides on its 2nd of 5 turns: early; under unlimited talk there is no
    # limit to decide before, so the row says n/a (None, shown as a dash) and the note says why
    tr = [play_resource("oracle", "oracle", scenario="mc080_1"),
          play_resource("oracle", "oracle", scenario="mc080_1", cheap_talk_turns=0)]
    tables, _ = resource_tables(tr)
    p = next(t for t in tables if t.name == "resource_process")
    assert p.value("Early decision %", Pairing="oracle × oracle", Variant="main") == 1.0
    assert p.value("Early decision %", Pairing="oracle × oracle", Variant="unlimited-talk") is None
    row = "| oracle × oracle | self-play | unlimited-talk | 4 | – |"
    assert row in p.markdown()
    assert any("Early decision n/a" in n and "oracle × oracle (unlimited-talk): 4 of 4 rounds (unlimited talk: 4)" in n
               for n in p.notes)


def test_per_model_and_anchoring_tables_match_the_metrics(report, traces):
    models = report.table("resource_process_models")
    talk = select(traces)
    mm = model_metrics(talk, label=lambda t, a: t["policies"][a]["name"])
    assert models.column("Model") == sorted(mm) == ["fair_splitter", "greedy", "oracle"]
    for name, row in mm.items():
        for col, key in (("Games", "games"), ("Rounds", "rounds"), ("Equal split %", "equal_split_rate"),
                         ("Perfunctory fairness %", "perfunctory_fairness_rate"),
                         ("Proposals received", "proposals_received"), ("Compliance %", "compliance_rate")):
            assert models.value(col, Model=name) == (None if row[key] is None else pytest.approx(row[key]))
    # the oracle plays 8 talk games here (4 self-play, counted once, and 4 against the fair splitter)
    assert models.value("Games", Model="oracle") == 8
    anchoring = report.table("resource_anchoring")
    for partner in ("stable", "shifting"):
        for mc in ("0.5", "1.0"):
            sub = [t for t in talk
                   if t["config"]["partner"] == partner and str(mc_level(t["config"]["scenario"])) == mc]
            m = pooled_metrics(sub)
            row = {"Partner": partner, "M/C": mc}
            assert anchoring.value("Games", row) == len(sub) == 3
            assert anchoring.value("Round pairs", row) == 3 * 3
            assert anchoring.value("Suboptimal non-overdrawn rounds", row) == m["counts"]["stubborn_anchoring"][1]
            for col, key in (("Exact repeat %", "repeat_rate"), ("Repeat after overdraw %", "repeat_after_overdraw"),
                             ("Repeat after non-overdrawn %", "win_stay"),
                             ("Stubborn anchoring %", "stubborn_anchoring")):
                assert anchoring.value(col, row) == (None if m[key] is None else pytest.approx(m[key]))
    assert anchoring.value("Games", Partner="All", **{"M/C": "All"}) == len(talk) == 12


# --------------------------------------------------------------------------- main cohort, interventions, fallbacks


def main_only(traces):
    """The main cohort from the raw config fields (talk with 5 turns, thinking, no
    transparency, no intervention), independently of resource_metrics.intervention_of."""
    return [t for t in traces if t["game"] == "resource" and t["config"]["cheap_talk"] is True
            and t["config"]["cheap_talk_turns"] == 5 and t["config"]["thinking"] is True
            and t["config"]["transparency"] == "none" and t["config"]["intervention"] is None]


@pytest.fixture(scope="module")
def arms():
    """The small cohort plus intervention games: transparency for the cross pairing at both
    levels, theory of mind for the greedy pair, and one theory-of-mind game of a pairing
    with no main games (no matched baseline)."""
    tr = resource_cohort()
    for i, sc in enumerate(("mc050_1", "mc100_1")):
        tr.append(play_resource("oracle", "fair_splitter", seed=40 + i, scenario=sc, transparency="full"))
    tr.append(play_resource("greedy", "greedy", seed=50, scenario="mc050_1", intervention="theory_of_mind"))
    tr.append(play_resource("oracle", "greedy", seed=51, scenario="mc050_1", intervention="theory_of_mind"))
    return tr


def test_headline_and_table3_pool_the_main_cohort_only(arms):
    tables, data = resource_tables(arms)
    t = {x.name: x for x in tables}
    main = main_only(arms)
    assert len(main) == 12 and len(arms) == 12 + 4 + 4  # 4 no-talk, 4 intervention games
    m = pooled_metrics(main)
    s = t["resource_summary"]
    assert (s.value("Games", {"M/C": "All"}), s.value("Rounds", {"M/C": "All"})) == (12, 48)
    assert s.value("Efficiency %", {"M/C": "All"}) == pytest.approx(m["efficiency"])
    t3 = t["resource_table3"]
    assert "oracle × greedy" not in t3.column("Pairing") and "greedy × oracle" not in t3.column("Pairing")
    fair = [g for g in main if names(g) == ["fair_splitter", "oracle"] and g["config"]["scenario"] == "mc050_1"]
    assert t3.value("M/C 0.5 games", Pairing="fair_splitter × oracle") == len(fair) == 2
    assert t3.value("M/C 0.5 Efficiency %", Pairing="fair_splitter × oracle") == \
        pytest.approx(pooled_metrics(fair)["efficiency"])
    assert t["resource_table4"].value("Games", Pairing="All") == 12
    assert any("Main cohort only: 8 intervention game(s)" in n for n in t3.notes)
    assert any(n.startswith("resource: Main cohort only") and "intervention=theory_of_mind, no-talk, "
               "transparency=full" in n for n in data["notes"])
    # the same tables as without the intervention games
    alone = {x.name: x for x in resource_tables(main + [g for g in arms if not g["config"]["cheap_talk"]])[0]}
    for name in ("resource_summary", "resource_table3", "resource_table4", "resource_stability",
                 "resource_failed_improvement"):
        assert t[name].rows == alone[name].rows, name


def test_table9_and_interventions_against_their_matched_baselines(arms):
    t = {x.name: x for x in resource_tables(arms)[0]}
    t9 = t["resource_table9"].data
    main = main_only(arms)
    assert t9.column("Intervention") == ["transparency=full"] * 3
    for mc, sc in (("0.5", "mc050_1"), ("1.0", "mc100_1")):
        row = {"Pairing": "fair_splitter × oracle", "Partner": "stable", "M/C": mc}
        base = [g for g in main if names(g) == ["fair_splitter", "oracle"] and g["config"]["scenario"] == sc
                and g["config"]["partner"] == "stable"]
        arm = [g for g in arms if g["config"]["transparency"] == "full" and g["config"]["scenario"] == sc]
        assert (t9.value("Games baseline", row), t9.value("Games intervention", row)) == (len(base), len(arm)) == (1, 1)
        for h, k in (("Efficiency %", "efficiency"), ("Optimum %", "optimum_rate"), ("Overdraw %", "overdraw_rate")):
            assert t9.value(f"{h} baseline", row) == pytest.approx(pooled_metrics(base)[k])
            assert t9.value(f"{h} intervention", row) == pytest.approx(pooled_metrics(arm)[k])
    # the pooled row covers the matched cells only: stable games, never the shifting baseline games
    pooled = {"Pairing": "fair_splitter × oracle", "Partner": "All", "M/C": "All"}
    base = [g for g in main if names(g) == ["fair_splitter", "oracle"] and g["config"]["partner"] == "stable"]
    assert t9.value("Games baseline", pooled) == 2
    assert t9.value("Efficiency % baseline", pooled) == pytest.approx(pooled_metrics(base)["efficiency"])
    shown = t["resource_table9"].value("Efficiency %", pooled)
    assert shown == f"{100 * pooled_metrics(base)['efficiency']:.1f} → " \
                    f"{100 * pooled_metrics([g for g in arms if g['config']['transparency'] == 'full'])['efficiency']:.1f}"
    ti = t["resource_interventions"]
    assert ti.column("Pairing") == ["greedy × greedy", "greedy × oracle", "All"]
    tom = {"Intervention": "intervention=theory_of_mind", "Pairing": "greedy × greedy"}
    assert (ti.data.value("Games baseline", tom), ti.data.value("Games intervention", tom)) == (1, 1)
    # greedy × oracle has no main games: no baseline, the intervention side empty too, and a note
    lonely = {"Intervention": "intervention=theory_of_mind", "Pairing": "greedy × oracle"}
    assert (ti.data.value("Games baseline", lonely), ti.data.value("Games intervention", lonely)) == (0, 0)
    assert ti.value("Efficiency %", lonely) == "– → –"
    assert "1 intervention game(s) have no matched baseline and are left out." in ti.notes
    # the arm's pooled row holds the matched game only
    every = {"Intervention": "intervention=theory_of_mind", "Pairing": "All"}
    assert ti.data.row(every)[4:] == ti.data.row(tom)[4:]


def test_oracle_check_games_are_in_no_table():
    """The individual (solo) and joint (joint_plan) oracle checks are pass@1 tests, not
    negotiation: counted in a note, in no intervention table."""
    main = resource_cohort()
    checks = [play_resource(p, p, rounds=1, scenario="mc050_1", cheap_talk=False, transparency="full", **{field: True})
              for p, field in (("greedy", "solo"), ("oracle", "joint_plan"))]
    tables, data = resource_tables(main + checks)
    base = {x.name: x.rows for x in resource_tables(main)[0]}
    # the agent-error table counts every game's answers; no other table holds the checks
    every_game = ("resource_errors", "resource_understanding")
    assert {x.name: x.rows for x in tables if x.name not in every_game} == \
        {k: v for k, v in base.items() if k not in every_game}
    assert any(n.startswith("resource: 2 oracle-check game(s)") for n in data["notes"])


def fallback_games():
    """Two games in which the garbage policy falls back in round 2 (one fallback round
    each), and a clean one."""
    return [play_resource(Garbage(seed=0, bad=(2,)), "oracle", scenario="mc050_1", game_id="fb-1"),
            play_resource(Garbage(seed=1, bad=(2,)), "oracle", scenario="mc100_1", game_id="fb-2"),
            play_resource("oracle", "oracle", scenario="mc050_1", game_id="clean")]


def test_fallback_rounds_are_left_out_and_counted_in_every_table(tmp_path):
    tr = fallback_games()
    marked = {t["game_id"]: [r["round"] for r in t["rounds"] if r["outcome"]["fallback"]] for t in tr}
    assert marked == {"fb-1": [2], "fb-2": [2], "clean": []}
    rep = build_report(tr, tmp_path / "out", plots=False)
    t3 = rep.table("resource_table3")
    pair = "garbage[oracle] × oracle"
    assert t3.value("Fallback rounds left out", Pairing=pair) == 2
    assert t3.value("Fallback rounds left out", Pairing="oracle × oracle") == 0
    for mc, sc in (("0.5", "mc050_1"), ("1.0", "mc100_1")):
        g = [t for t in tr if t["game_id"].startswith("fb") and t["config"]["scenario"] == sc]
        kept = pooled_metrics(g)
        assert kept["rounds"] == 3 and kept["excluded_rounds"] == 1
        assert t3.value(f"M/C {mc} Efficiency %", Pairing=pair) == pytest.approx(kept["efficiency"])
        assert t3.value(f"M/C {mc} Optimum %", Pairing=pair) == pytest.approx(kept["optimum_rate"])
    s = rep.table("resource_summary")
    assert (s.value("Rounds", {"M/C": "All"}), s.value("Fallback rounds left out", {"M/C": "All"})) == (10, 2)
    assert "Fallback rounds left out: 2 of 12 rounds, in 2 game(s); game-level figures are over the 1 game(s) " \
           "without one (--include-fallbacks counts them)." in s.notes
    assert "resource_table3: 2 of 12 rounds (fallback) left out in 2 game(s)." in rep.notes
    assert any(n.startswith("resource: rounds with a fallback decision") for n in rep.notes)
    for t in rep.tables:  # every resource table says what it did with them
        if t.name.startswith("resource_") and t.name not in ("resource_errors", "resource_understanding"):
            assert any(n.startswith("Fallback rounds") for n in t.notes), t.name
    # counted as play: the substituted rounds drag efficiency down
    inc = build_report(tr, tmp_path / "inc", plots=False, include_fallbacks=True)
    t3i = inc.table("resource_table3")
    assert t3i.columns[-1] == "Fallback rounds included" and t3i.value("Fallback rounds included", Pairing=pair) == 2
    for mc, sc in (("0.5", "mc050_1"), ("1.0", "mc100_1")):
        g = [t for t in tr if t["game_id"].startswith("fb") and t["config"]["scenario"] == sc]
        both = pooled_metrics(g, include_fallbacks=True)
        assert both["rounds"] == 4
        assert t3i.value(f"M/C {mc} Efficiency %", Pairing=pair) == pytest.approx(both["efficiency"])
        assert t3i.value(f"M/C {mc} Efficiency %", Pairing=pair) < t3.value(f"M/C {mc} Efficiency %", Pairing=pair)
    assert "resource_table3: 2 of 12 rounds (fallback) counted as play in 2 game(s)." in inc.notes
    # the Agent errors table counts what the steps logged
    err = rep.table("resource_errors")
    events = [e for t in tr for st in t["steps"] for e in st["events"]]
    for col, kind in (("Validation errors", "validation_error"), ("Heuristic fallbacks", "heuristic_fallback"),
                      ("Auto-filled decisions", "decision_auto_filled"), ("Talk turns forfeited", "talk_turn_forfeited")):
        assert err.value(col, Model="garbage[oracle]") == sum(e["type"] == kind for e in events), col
        assert err.value(col, Model="oracle") == 0
    assert err.value("Heuristic fallbacks", Model="garbage[oracle]") == 2
    assert err.value("Agent-rounds", Model="garbage[oracle]") == 8
    assert err.value("Fallbacks / agent-round", Model="garbage[oracle]") == 0.25
    assert err.value("Games with an error %", Model="All") == pytest.approx(2 / 3)


def test_cli_report_include_fallbacks(tmp_path):
    from negotiation_env.traces import TraceWriter

    d = tmp_path / "run"
    with TraceWriter(d / "traces.jsonl") as w:
        for t in fallback_games():
            w.write(t)
    assert main(["report", str(d), "--no-plots"]) == 0
    head = (d / "report" / "resource_table3.csv").read_text().splitlines()[0]
    assert head.endswith(",Fallback rounds left out")
    assert main(["report", str(d), "--no-plots", "--include-fallbacks", "--out", str(tmp_path / "inc")]) == 0
    rows = list(csv.DictReader(io.StringIO((tmp_path / "inc" / "resource_table3.csv").read_text())))
    assert {r["Pairing"]: r["Fallback rounds included"] for r in rows} == \
        {"oracle × oracle": "0", "garbage[oracle] × oracle": "2", "All": "2"}


def test_table12_token_usage_per_agent_round():
    tr = [play_resource(Metered(seed=s), "oracle", scenario=sc, seed=s) for s, sc in enumerate(("mc050_1", "mc100_1"))]
    tr.append(play_resource(Metered(seed=9, reasoning=None), "oracle", scenario="mc050_1", seed=9))
    tables, _ = resource_tables(tr)
    t12 = next(t for t in tables if t.name == "resource_table12")
    steps = [(t, st) for t in tr for st in t["steps"] if st["agent"] == "agent_a"]
    every = [(t["game_id"], st["round"], st["phase"]) for t, st in steps]
    calls = [c for c in every if c[2] != "reflection"]
    units = {(g, k) for g, k, p in calls}
    row = {"Model": "metered[oracle]", "Part": "all rounds"}
    assert t12.value("Calls", row) == len(calls)
    # the D.5 reflection (on by default) is its own part, one call per agent-game
    assert len(every) - len(calls) == 3
    assert t12.value("Calls", Model="metered[oracle]", Part="reflection") == 3
    assert t12.value("Agent-rounds", row) == len(units) == 12
    assert t12.value("Prompt", row) == pytest.approx(100 * len(calls) / len(units))
    assert t12.value("Completion", row) == pytest.approx(40 * len(calls) / len(units))
    # one game's calls report no thinking count: thinking is – where it is in the pool
    assert t12.value("Thinking", row) is None and t12.value("Think %", row) is None
    talk = [c for c in calls if c[2] == "talk"]
    assert t12.value("Calls", Model="metered[oracle]", Part="talk") == len(talk)
    assert "oracle" not in t12.column("Model")  # the scripted seat reports nothing
    clean = resource_tables(tr[:2])[0]
    t12c = next(t for t in clean if t.name == "resource_table12")
    r1 = {"Model": "metered[oracle]", "Part": "round 1"}
    n1 = sum(1 for t in tr[:2] for st in t["steps"] if st["agent"] == "agent_a" and st["round"] == 1)
    assert t12c.value("Agent-rounds", r1) == 2 and t12c.value("Prompt", r1) == pytest.approx(100 * n1 / 2)
    assert t12c.value("Thinking", r1) == pytest.approx(30 * n1 / 2)
    assert t12c.value("Visible output", r1) == pytest.approx(10 * n1 / 2)
    assert t12c.value("Think %", r1) == pytest.approx(0.75)


def test_failed_improvement_table_and_figures(tmp_path):
    tr = [play_resource("fair_splitter", "fair_splitter", scenario=sc) for sc in ("mc050_2", "mc080_1")]
    tr += [play_resource("greedy", "greedy", scenario="mc050_1"), play_resource("oracle", "oracle", scenario="mc050_1")]
    rep = build_report(tr, tmp_path, plots=True)
    t = rep.table("resource_failed_improvement")
    for label, pair in (("fair_splitter × fair_splitter", ("fair_splitter", "fair_splitter")),
                        ("greedy × greedy", ("greedy", "greedy"))):
        m = pooled_metrics([g for g in tr if names(g) == sorted(pair)])
        row = {"Pairing": label}
        assert t.value("After overdraw: pairs", row) == m["counts"]["after_overdraw_failed"][1]
        assert t.value("After suboptimal: pairs", row) == m["counts"]["after_suboptimal_failed"][1]
        assert t.value("Overdraw → failed %", row) == m["after_overdraw_failed"]
        assert t.value("Suboptimal → improved %", row) == m["after_suboptimal_improved"]
    # greedy pairs collide every round at M/C 0.5: 3 adjacent pairs after an overdraw, all failed
    assert (t.value("After overdraw: pairs", Pairing="greedy × greedy"),
            t.value("Overdraw → failed %", Pairing="greedy × greedy")) == (3, 1.0)
    assert t.value("After overdraw: pairs", Pairing="oracle × oracle") == 0
    assert (tmp_path / "fig_resource_failed_improvement.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
