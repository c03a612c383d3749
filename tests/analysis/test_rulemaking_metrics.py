"""Per-cell rulemaking metrics on hand-built run outcomes, against hand-computed values."""

from __future__ import annotations

import pytest
import scipy.stats

from negotiation_env.analysis.rulemaking_metrics import (cell_summary, compare_cells, compare_to_baseline,
                                                         condition_contrasts, provenance_audit, threshold_key,
                                                         threshold_relabelling)
from negotiation_env.analysis.stats import wilson_interval


def outcome(label, entropy=0.5, worst=None, traj=("Counter",) * 15, arc=False, horizon=True, genuine=1.0):
    return {"label": label, "worst_case_label": worst or label, "entropy": entropy, "trajectory": list(traj),
            "concession_arc": arc, "horizon_exhausted": horizon, "genuine_share": genuine}


def test_cell_summary_counts_rates_and_screen():
    runs = [outcome("compromise", 0.6, traj=("Counter", "Concede"), arc=True)] * 13 + \
           [outcome("authority", 0.2)] * 2
    s = cell_summary(runs)
    assert s["counts"] == {"compromise": 13, "consensus": 0, "authority": 2, "deadlock": 0}
    assert s["agreements"] == 13 and s["agreement_rate"] == pytest.approx(13 / 15)
    assert s["agreement_ci"][0] == pytest.approx(0.6212, abs=1e-4)  # Wilson lower bound of 13/15
    assert s["verdict"] == "pass" and s["certified"]
    assert s["entropy_mean"] == pytest.approx((13 * 0.6 + 2 * 0.2) / 15)
    assert s["entropy_ci"][0] <= s["entropy_mean"] <= s["entropy_ci"][1]
    assert s["concession_arc_rate"] == pytest.approx(13 / 15) and s["softening_rate"] == pytest.approx(13 / 15)
    assert s["trajectory_uniqueness"] == pytest.approx(2 / 15)
    assert s["horizon_exhaustion_rate"] == 1.0


def test_certification_rule_uses_the_worst_case_recode():
    # all 15 runs fail to agree, but each was mostly harness fallbacks that recode to agreement
    fake = [outcome("authority", 0.0, worst="compromise", genuine=0.2)] * 15
    s = cell_summary(fake, ledger=[(13, 15)])
    assert s["verdict"] == "fail_no_agreement" and s["worst_case_verdict"] != "fail_no_agreement"
    assert s["flips"] == 15 and s["worst_case_agreements"] == 15
    assert s["certified"] is False and s["genuine_share"] == pytest.approx(0.2)
    # nothing flips: certified, with or without a Ledger cell to compare with
    real = [outcome("authority", 0.0)] * 15
    assert cell_summary(real)["certified"] and cell_summary(real)["certification"] == "no flips"
    # flips and no Ledger cell: no verdict
    one = [outcome("authority", worst="compromise")] + [outcome("authority")] * 14
    assert cell_summary(one)["certified"] is None and cell_summary(one)["certification"] == "no Ledger cell"


@pytest.mark.parametrize("flips, certified", [(1, True), (3, True), (5, True), (6, False), (10, False)])
def test_certification_compares_the_recoded_agreements_with_the_ledger_range(flips, certified):
    # seed 001 §6.3: DeepSeek cells flip 1 and 3 of 15, "nowhere near the Ledger's 13 to
    # 15", and stay certified; certified while the recoded Wilson interval lies wholly
    # below the lowest Ledger cell's (13/15: lower bound 0.621; 5/15: upper 0.583, 6/15: 0.643)
    cell = [outcome("authority", worst="compromise")] * flips + [outcome("authority")] * (15 - flips)
    s = cell_summary(cell, ledger=[(15, 15), (13, 15), (14, 15)])
    assert s["verdict"] == "fail_no_agreement" and s["flips"] == flips and s["certified"] is certified
    assert s["ledger_range"] == ((13, 15), (15, 15)) and s["ledger_lower"] == pytest.approx(0.6212, abs=1e-4)
    assert s["worst_case_upper"] == pytest.approx(wilson_interval(flips, 15)[1])
    assert s["certification"].startswith(f"recoded {flips}/15, upper ")
    # a weaker Ledger (GPT-5.2's 5 of 15, lower bound 0.152) leaves no room for a flip
    assert cell_summary(cell, ledger=[(5, 15), (13, 15)])["certified"] is False


def test_certification_concerns_only_cells_failing_from_below():
    cell = [outcome("compromise")] * 5 + [outcome("authority", worst="compromise")] * 10
    s = cell_summary(cell, ledger=[(15, 15)])
    assert s["verdict"] == "pass" and s["flips"] == 10
    assert s["certified"] is True and s["certification"] == "not a no-agreement cell"
    # an agreeing run whose recode does not agree is no flip
    s = cell_summary([outcome("compromise", worst="authority")] + [outcome("authority")] * 14, ledger=[(15, 15)])
    assert s["flips"] == 0 and s["worst_case_agreements"] == 0


def test_compare_cells_matches_scipy():
    a = [outcome("compromise", 0.5 + i / 100) for i in range(13)] + [outcome("authority", 0.1)] * 2
    b = [outcome("authority", i / 100) for i in range(15)]
    c = compare_cells(a, b, n_resamples=2000)
    assert c["fisher_p"] == pytest.approx(scipy.stats.fisher_exact([[13, 2], [0, 15]], alternative="greater").pvalue)
    assert c["fisher_p"] == pytest.approx(8.77e-7, rel=1e-2)
    assert c["entropy_permutation_p"] < 0.01
    assert 0.8 < c["entropy_cliffs_delta"] <= 1.0


def test_compare_to_baseline_applies_holm():
    base = [outcome("authority", 0.0)] * 15
    cells = {"base": base, "x": [outcome("compromise", 0.5)] * 15, "y": [outcome("authority", 0.0)] * 15}
    out = compare_to_baseline(cells, "base", n_resamples=500)
    assert set(out) == {"x", "y"}
    raw = sorted([out["x"]["fisher_p"], out["y"]["fisher_p"]])
    assert out["x"]["fisher_p_holm"] == pytest.approx(min(1, 2 * raw[0]))
    assert out["y"]["fisher_p_holm"] == 1.0
    with pytest.raises(ValueError, match="baseline"):
        compare_to_baseline(cells, "nope")


def test_bad_input_is_refused_with_a_message():
    with pytest.raises(ValueError, match="empty"):
        cell_summary([])
    with pytest.raises(ValueError, match="lacks entropy"):
        cell_summary([{"label": "authority", "worst_case_label": "authority"}])
    with pytest.raises(ValueError, match="label is 'agreed'"):
        cell_summary([outcome("agreed")])


def small_cells():
    """Three Ledger runs against three Native runs, small enough to count by hand."""
    ledger = [outcome("compromise", 0.6, horizon=False), outcome("compromise", 0.4, horizon=False),
              outcome("authority", 0.2, horizon=True)]
    native = [outcome("authority", 0.1), outcome("authority", 0.1), outcome("authority", 0.0)]
    return {"none": native[:2], "native": native, "ledger": ledger}


def test_ledger_against_native_by_hand():
    c = condition_contrasts(small_cells())
    assert list(c) == ["native", "none"]  # Native first: the paper's primary contrast
    r = c["native"]
    # Fisher one-sided on [[2, 1], [0, 3]]: P(X >= 2), X hypergeometric (6 runs, 2 agreements,
    # 3 drawn) = C(2,2) C(4,1) / C(6,3) = 4/20
    assert r["fisher_p"] == pytest.approx(0.2)
    # entropy: 20 equally likely splits of {.6,.4,.2,.1,.1,0} into 3 + 3; only the observed
    # one has a Ledger sum >= 1.2, so one-sided p = 1/20 and two-sided (twice it) 0.1
    assert r["entropy_mean_a"] == pytest.approx(0.4) and r["entropy_mean_b"] == pytest.approx(0.2 / 3)
    assert r["entropy_permutation_p"] == pytest.approx(0.1)
    assert r["entropy_cliffs_delta"] == 1.0  # every Ledger entropy above every Native one
    # exhaustion {0,0,1} vs {1,1,1}: a Ledger sum <= 1 needs both zeros, 4 of 20 splits:
    # one-sided 0.2, two-sided 0.4; Cliff's delta (0 - 6) / 9
    assert (r["exhaustion_mean_a"], r["exhaustion_mean_b"]) == (pytest.approx(1 / 3), 1.0)
    assert r["exhaustion_permutation_p"] == pytest.approx(0.4)
    assert r["exhaustion_cliffs_delta"] == pytest.approx(-2 / 3)
    # Holm over the pair's two tests: 2 * 0.1 = 0.2, max(0.2, 1 * 0.4) = 0.4
    assert (r["entropy_p_holm"], r["exhaustion_p_holm"]) == (pytest.approx(0.2), pytest.approx(0.4))
    lo, hi = r["entropy_diff_ci"]
    assert lo <= 0.4 - 0.2 / 3 <= hi and hi <= 0.6 - 0.0 + 1e-12
    assert r["exhaustion_diff_ci"][1] <= 0.0 + 1e-12  # Ledger never exhausts more than Native here
    assert condition_contrasts({"native": small_cells()["native"]}) == {}


def test_paper_primary_contrast_figures():
    # seed 001 §5/§6.1: at least 13 of 15 against 0 of 15 gives p <= 8.8e-7; 15 of 15, 6.45e-9
    led = [outcome("compromise", 0.43, horizon=i < 7) for i in range(15)]
    nat = [outcome("authority", 0.15) for _ in range(15)]
    r = condition_contrasts({"ledger": led, "native": nat}, n_resamples=2000)["native"]
    assert r["fisher_p"] == pytest.approx(6.45e-9, rel=1e-2)
    assert r["exhaustion_mean_a"] == pytest.approx(7 / 15) and r["exhaustion_mean_b"] == 1.0
    assert r["exhaustion_cliffs_delta"] == pytest.approx(-8 / 15)  # 8 of 15 Ledger runs below all Native
    assert r["entropy_cliffs_delta"] == 1.0


# --------------------------------------------------------------------------- Appendix B, Table 3

GRID = [f"{k}x{s:g}" for k in (1, 2, 3) for s in (0.6, 0.8, 1.0)]


def grid(default, **pairs):
    """A run's stored sensitivity labels: ``default`` everywhere but ``pairs`` (the
    pairs K=1, K=3 or one pair, by name)."""
    g = dict.fromkeys(GRID, default)
    named = {"k1": ["1x0.6", "1x0.8", "1x1"], "k3": ["3x0.6", "3x0.8", "3x1"], "k1s06": ["1x0.6"]}
    for name, label in pairs.items():
        g.update(dict.fromkeys(named[name], label))
    return g


def hand_cohort():
    """Three runs of one cell, small enough to count by hand."""
    return [
        {"label": "authority", "provenance": {"genuine": 13, "retried": 1, "fallback": 1},
         "sensitivity": grid("authority", k1="compromise")},
        {"label": "compromise", "provenance": {"genuine": 7, "retried": 0, "fallback": 0},
         "sensitivity": grid("compromise", k3="authority")},
        {"label": "authority", "provenance": {"genuine": 10, "retried": 3, "fallback": 2},
         "sensitivity": grid("authority", k1s06="consensus")},
    ]


def test_threshold_relabelling_counts_each_pair_by_hand():
    runs = hand_cohort()
    assert runs[0]["sensitivity"]["1x1"] == "compromise" and runs[2]["sensitivity"]["1x0.6"] == "consensus"
    out = threshold_relabelling(runs)
    assert list(out) == GRID  # in (compromise parties, consensus share) order
    assert out["1x0.6"] == {"compromise": 2, "consensus": 1, "authority": 0, "deadlock": 0}
    assert out["1x0.8"] == out["1x1"] == {"compromise": 2, "consensus": 0, "authority": 1, "deadlock": 0}
    for key in ("2x0.6", "2x0.8", "2x1"):
        assert out[key] == {"compromise": 1, "consensus": 0, "authority": 2, "deadlock": 0}
    for key in ("3x0.6", "3x0.8", "3x1"):
        assert out[key] == {"compromise": 0, "consensus": 0, "authority": 3, "deadlock": 0}
    assert threshold_key("3x0.6") == (3, 0.6) and threshold_key("1x1") == (1, 1.0)
    with pytest.raises(ValueError, match="lacks sensitivity"):
        threshold_relabelling([{"label": "authority"}])
    with pytest.raises(ValueError, match="expected one of"):
        threshold_relabelling([{"sensitivity": {"2x0.8": "agreed"}}])


def test_provenance_audit_pools_turns_not_run_shares():
    a = provenance_audit(hand_cohort())
    assert (a["runs"], a["turns"], a["genuine"], a["retried"], a["fallback"]) == (3, 37, 30, 4, 3)
    assert a["genuine_share"] == pytest.approx(30 / 37)
    assert a["non_genuine_share"] == pytest.approx(7 / 37)
    assert a["fallback_share"] == pytest.approx(3 / 37)
    assert a["runs_with_fallback"] == 2
    # the mean of per-run shares would weigh the short run as much as the long ones
    assert a["genuine_share"] != pytest.approx((13 / 15 + 7 / 7 + 10 / 15) / 3)
    with pytest.raises(ValueError, match="lacks provenance"):
        provenance_audit([{"label": "authority"}])

