"""Per-cell rulemaking metrics on hand-built run outcomes, against hand-computed values."""

from __future__ import annotations

import pytest
import scipy.stats

from negotiation_env.analysis.rulemaking_metrics import cell_summary, compare_cells, compare_to_baseline


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
    s = cell_summary(fake)
    assert s["verdict"] == "fail_no_agreement" and s["worst_case_verdict"] != "fail_no_agreement"
    assert not s["certified"] and s["genuine_share"] == pytest.approx(0.2)
    real = [outcome("authority", 0.0)] * 15
    assert cell_summary(real)["certified"]


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
