"""Tests of negotiation_env.analysis.stats against closed forms and independent checks."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

from negotiation_env.analysis.stats import (
    OUTCOMES,
    benjamini_hochberg,
    bootstrap_ci,
    bootstrap_diff_ci,
    cliffs_delta,
    clopper_pearson_interval,
    fisher_one_sided,
    holm,
    normalized_entropy,
    permutation_test,
    plausibility_screen,
    wilson_interval,
)

Z95 = 1.959963984540054  # standard normal 0.975 quantile


def wilson_closed_form(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def fisher_greater_by_hand(a: int, an: int, b: int, bn: int) -> float:
    """P(X >= a) for X hypergeometric: an draws from an + bn runs, a + b of them successes."""
    total, succ = an + bn, a + b
    hi = min(an, succ)
    return sum(math.comb(succ, i) * math.comb(total - succ, an - i) for i in range(a, hi + 1)) / math.comb(total, an)


# --------------------------------------------------------------------------- Wilson


@pytest.mark.parametrize("k,n", [(0, 15), (1, 15), (7, 15), (13, 15), (15, 15), (135, 135), (42, 45), (3, 7)])
def test_wilson_matches_closed_form(k, n):
    low, high = wilson_interval(k, n)
    ref_low, ref_high = wilson_closed_form(k, n)
    assert low == pytest.approx(max(ref_low, 0.0), abs=1e-12)
    assert high == pytest.approx(min(ref_high, 1.0), abs=1e-12)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_wilson_paper_figures():
    # Paper: 15 of 15 -> 0.80, 135 of 135 -> 0.97, pooled Gemini Ledger compromise -> 0.82.
    assert wilson_interval(15, 15)[0] == pytest.approx(0.7961, abs=1e-4)
    assert wilson_interval(135, 135)[0] == pytest.approx(0.9723, abs=1e-4)
    assert wilson_interval(15 + 14 + 13, 45)[0] == pytest.approx(0.8214, abs=1e-4)
    assert wilson_interval(15, 15)[1] == 1.0


def test_wilson_confidence_level_orders_intervals():
    l90, h90 = wilson_interval(10, 15, 0.90)
    l99, h99 = wilson_interval(10, 15, 0.99)
    assert l99 < l90 and h90 < h99
    z90 = 1.6448536269514722
    assert l90 == pytest.approx(wilson_closed_form(10, 15, z90)[0], abs=1e-12)


@pytest.mark.parametrize(
    "args,match",
    [((0, 0), "n must be > 0"), ((16, 15), "cannot exceed"), ((-1, 15), ">= 0"), ((1, -15), ">= 0")],
)
def test_wilson_bad_inputs(args, match):
    with pytest.raises(ValueError, match=match):
        wilson_interval(*args)


def test_wilson_bad_confidence_and_types():
    for c in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="confidence"):
            wilson_interval(3, 15, c)
    with pytest.raises(TypeError, match="integer"):
        wilson_interval(3.0, 15)
    with pytest.raises(TypeError, match="integer"):
        wilson_interval(True, 15)
    assert wilson_interval(np.int64(3), np.int64(15)) == wilson_interval(3, 15)


# --------------------------------------------------------------------------- screen


def test_screen_15_of_15_no_agreement_fails_from_below():
    r = plausibility_screen({"authority": 15})
    assert r["verdict"] == "fail_no_agreement"
    assert r["fails_from_below"] and not r["fails_from_above"]
    assert r["n"] == 15 and r["non_agreement"] == 15 and r["agreement"] == 0
    assert r["non_agreement_lower"] == pytest.approx(0.7961, abs=1e-4)
    assert r["counts"] == {"compromise": 0, "consensus": 0, "authority": 15, "deadlock": 0}
    # Deadlock counts as non-agreement too.
    assert plausibility_screen({"authority": 10, "deadlock": 5})["verdict"] == "fail_no_agreement"


def test_screen_13_and_14_of_15_pass():
    assert plausibility_screen({"authority": 13, "compromise": 2})["verdict"] == "pass"
    assert plausibility_screen({"authority": 14, "compromise": 1})["verdict"] == "pass"
    assert plausibility_screen({"compromise": 13, "authority": 2})["verdict"] == "pass"
    assert plausibility_screen({"compromise": 14, "authority": 1})["verdict"] == "pass"


def test_screen_pooled_native_fails_with_097():
    r = plausibility_screen({"authority": 135})
    assert r["verdict"] == "fail_no_agreement"
    assert round(r["non_agreement_lower"], 2) == 0.97


def test_screen_fails_from_above_compromise_and_agreement_bases():
    # Gemini Ledger E1: 15 C -> fails from above on either basis.
    assert plausibility_screen({"compromise": 15})["verdict"] == "fail_agreement_saturated"
    # Gemini Ledger E2: 14 C, 1 S -> compromise bound 0.70 passes, agreement bound 0.80 fails.
    cell = {"compromise": 14, "consensus": 1}
    assert plausibility_screen(cell)["verdict"] == "pass"
    r = plausibility_screen(cell, upper_basis="agreement")
    assert r["verdict"] == "fail_agreement_saturated" and r["fails_from_above"]
    # Pooled Gemini Ledger (42 C, 1 S, 2 A of 45): compromise lower bound 0.82 -> fails.
    pooled = plausibility_screen({"compromise": 42, "consensus": 1, "authority": 2})
    assert pooled["verdict"] == "fail_agreement_saturated"
    assert round(pooled["compromise_lower"], 2) == 0.82


def test_screen_rounding_switch_and_ceiling():
    # Unrounded, 0.796 < 0.8 passes; a ceiling at or below the bound then fails it.
    assert plausibility_screen({"authority": 15}, decimals=None)["verdict"] == "pass"
    assert plausibility_screen({"authority": 15}, ceiling=0.79, decimals=None)["verdict"] == "fail_no_agreement"
    # A stricter ceiling lets 15 of 15 pass; a looser one fails 13 of 15.
    assert plausibility_screen({"authority": 15}, ceiling=0.9)["verdict"] == "pass"
    assert plausibility_screen({"authority": 13, "compromise": 2}, ceiling=0.6)["verdict"] == "fail_no_agreement"


def test_screen_failures_mutually_exclusive_over_all_15_run_cells():
    for c, s, a in product(range(16), repeat=3):
        d = 15 - c - s - a
        if d < 0:
            continue
        for basis in ("compromise", "agreement"):
            r = plausibility_screen(
                {"compromise": c, "consensus": s, "authority": a, "deadlock": d}, ceiling=0.52, upper_basis=basis
            )
            assert not (r["fails_from_below"] and r["fails_from_above"])


def test_screen_bad_inputs():
    with pytest.raises(ValueError, match="0 runs"):
        plausibility_screen({})
    with pytest.raises(ValueError, match="0 runs"):
        plausibility_screen({"authority": 0})
    with pytest.raises(ValueError, match=">= 0"):
        plausibility_screen({"authority": -1, "compromise": 3})
    with pytest.raises(ValueError, match="unknown outcome"):
        plausibility_screen({"agreement": 3})
    with pytest.raises(ValueError, match="ceiling"):
        plausibility_screen({"authority": 3}, ceiling=0.5)
    with pytest.raises(ValueError, match="upper_basis"):
        plausibility_screen({"authority": 3}, upper_basis="consensus")
    with pytest.raises(TypeError):
        plausibility_screen([("authority", 3)])
    assert set(OUTCOMES) == {"compromise", "consensus", "authority", "deadlock"}


# --------------------------------------------------------------------------- Fisher


def test_fisher_paper_figure():
    p = fisher_one_sided(13, 15, 0, 15)
    assert p == pytest.approx(fisher_greater_by_hand(13, 15, 0, 15), rel=1e-12)
    assert p == pytest.approx(8.7675e-7, rel=1e-4)  # the paper's "p <= 8.8e-7"
    assert p <= 8.8e-7
    # More agreements give smaller p, so "at least 13 of 15 vs 0 of 15" means p <= 8.8e-7.
    assert fisher_one_sided(14, 15, 0, 15) < p
    assert fisher_one_sided(15, 15, 0, 15) == pytest.approx(6.4467e-9, rel=1e-4)


@pytest.mark.parametrize("a,an,b,bn", [(9, 15, 3, 15), (5, 15, 5, 15), (0, 15, 2, 15), (7, 10, 1, 12), (2, 2, 0, 1)])
def test_fisher_matches_hypergeometric_sum(a, an, b, bn):
    assert fisher_one_sided(a, an, b, bn) == pytest.approx(fisher_greater_by_hand(a, an, b, bn), rel=1e-10)
    # "less" for A is "greater" for B.
    assert fisher_one_sided(a, an, b, bn, alternative="less") == pytest.approx(
        fisher_greater_by_hand(b, bn, a, an), rel=1e-10
    )


def test_fisher_bad_inputs():
    with pytest.raises(ValueError, match="a_n must be > 0"):
        fisher_one_sided(0, 0, 0, 15)
    with pytest.raises(ValueError, match="cannot exceed"):
        fisher_one_sided(16, 15, 0, 15)
    with pytest.raises(ValueError, match=">= 0"):
        fisher_one_sided(3, 15, -1, 15)
    with pytest.raises(ValueError, match="alternative"):
        fisher_one_sided(3, 15, 1, 15, alternative="bigger")


# --------------------------------------------------------------------------- permutation


def test_permutation_identical_vs_separated():
    rng = np.random.default_rng(0)
    x = rng.normal(size=15)
    y = rng.normal(size=15)
    p_same = permutation_test(x, y, n_resamples=2000, rng=np.random.default_rng(1))
    assert p_same > 0.05
    assert permutation_test(x, x, n_resamples=2000, rng=1) > 0.9
    sep = permutation_test(np.arange(15.0), np.arange(15.0) + 100, n_resamples=2000, rng=np.random.default_rng(2))
    # Only the observed split is as extreme; Monte Carlo counts it (+1), two-sided doubles.
    assert sep == pytest.approx(2 / 2001)


def test_permutation_exact_small_sample():
    # 3 vs 3, fully separated: C(6,3) = 20 splits, the two extreme ones give |diff| = 3.
    assert permutation_test([0, 1, 2], [3, 4, 5], n_resamples=10000, rng=0) == pytest.approx(2 / 20)


def test_permutation_deterministic_under_seed_and_global_state_untouched():
    x, y = [0.1, 0.3, 0.2, 0.5, 0.4, 0.35, 0.2, 0.15], [0.3, 0.6, 0.45, 0.5, 0.7, 0.4, 0.55, 0.65]
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    a = permutation_test(x, y, n_resamples=3000, rng=7)
    b = permutation_test(x, y, n_resamples=3000, rng=np.random.default_rng(7))
    assert a == b
    assert np.array_equal(np.random.get_state()[1], before)


def test_permutation_custom_statistic_and_bad_inputs():
    def med(a, b, axis):
        return np.median(a, axis=axis) - np.median(b, axis=axis)

    # Median difference -3 arises for x = {0,1,2} and {0,1,3}: 2 of 20 splits per tail.
    assert permutation_test([0, 1, 2], [3, 4, 5], rng=0, statistic=med) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="empty"):
        permutation_test([], [1.0, 2.0])
    with pytest.raises(ValueError, match="statistic"):
        permutation_test([1.0], [2.0], statistic="median")
    with pytest.raises(ValueError, match="NaN"):
        permutation_test([1.0, np.nan], [2.0])
    with pytest.raises(TypeError, match="rng"):
        permutation_test([1.0, 2.0], [2.0, 3.0], rng="seed")


# --------------------------------------------------------------------------- multiplicity


def test_holm_hand_computed():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06.
    p = [0.01, 0.04, 0.03, 0.005]
    assert np.allclose(holm(p), [0.03, 0.06, 0.06, 0.02])
    assert np.allclose(holm([0.5, 0.9]), [1.0, 1.0])  # capped at 1
    assert np.allclose(holm([0.02]), [0.02])


def test_bh_hand_computed():
    # Sorted 0.005, 0.01, 0.03, 0.04 times 4/rank: 0.02, 0.02, 0.04, 0.04 (step-up minima).
    p = [0.01, 0.04, 0.03, 0.005]
    assert np.allclose(benjamini_hochberg(p), [0.02, 0.04, 0.04, 0.02])
    assert np.allclose(benjamini_hochberg([0.01, 0.02, 0.9]), [0.03, 0.03, 0.9])


def test_adjusted_monotone_and_bounds():
    p = np.random.default_rng(5).uniform(size=30) ** 3
    order = np.argsort(p)
    for adj in (holm(p), benjamini_hochberg(p)):
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)
        assert np.all(np.diff(adj[order]) >= -1e-15)
    assert np.all(holm(p) >= benjamini_hochberg(p) - 1e-15)


def test_multiplicity_bad_inputs():
    for f in (holm, benjamini_hochberg):
        with pytest.raises(ValueError, match="empty"):
            f([])
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            f([0.1, 1.2])
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            f([-0.1])


# --------------------------------------------------------------------------- Cliff's delta


def test_cliffs_delta_extremes_and_identity():
    assert cliffs_delta([5, 6, 7], [1, 2, 3, 4]) == 1.0
    assert cliffs_delta([1, 2, 3, 4], [5, 6, 7]) == -1.0
    assert cliffs_delta([1, 2, 3], [1, 2, 3]) == 0.0
    assert cliffs_delta([2, 2, 2], [2, 2]) == 0.0


def test_cliffs_delta_matches_pairwise_count():
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.integers(0, 6, size=rng.integers(1, 20))
        y = rng.integers(0, 6, size=rng.integers(1, 20))
        ref = sum(np.sign(a - b) for a in x for b in y) / (len(x) * len(y))
        d = cliffs_delta(x, y)
        assert d == pytest.approx(ref, abs=1e-12) and -1.0 <= d <= 1.0
        assert cliffs_delta(y, x) == pytest.approx(-d, abs=1e-12)


def test_cliffs_delta_bad_inputs():
    with pytest.raises(ValueError, match="empty"):
        cliffs_delta([], [1])
    with pytest.raises(ValueError, match="empty"):
        cliffs_delta([1], [])


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_contains_mean_and_deterministic():
    x = np.random.default_rng(11).normal(0.4, 0.1, size=15)
    ci = bootstrap_ci(x, n_resamples=2000, rng=42)
    assert ci[0] < x.mean() < ci[1]
    assert ci == bootstrap_ci(x, n_resamples=2000, rng=np.random.default_rng(42))
    assert ci != bootstrap_ci(x, n_resamples=2000, rng=43)
    bca = bootstrap_ci(x, n_resamples=2000, rng=42, method="BCa")
    assert bca[0] < x.mean() < bca[1]


def test_bootstrap_binary_sample_and_other_statistic():
    # A horizon-exhaustion-like 0/1 sample, 7 of 15.
    x = np.array([1] * 7 + [0] * 8)
    low, high = bootstrap_ci(x, n_resamples=2000, rng=0)
    assert 0.0 <= low < 7 / 15 < high <= 1.0
    lo_med, hi_med = bootstrap_ci(np.arange(20.0), statistic=np.median, n_resamples=1000, rng=0)
    assert lo_med <= 9.5 <= hi_med


def test_bootstrap_degenerate_and_bad_inputs():
    assert bootstrap_ci([1.0] * 15, rng=0) == (1.0, 1.0)
    assert bootstrap_ci([0.3], rng=0) == (0.3, 0.3)
    with pytest.raises(ValueError, match="empty"):
        bootstrap_ci([])
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci([1.0, 2.0], confidence=95)
    with pytest.raises(ValueError, match="method"):
        bootstrap_ci([1.0, 2.0], method="studentized")


# --------------------------------------------------------------------------- entropy


def test_normalized_entropy_closed_forms():
    assert normalized_entropy([3, 3, 3, 3, 3]) == pytest.approx(1.0)
    assert normalized_entropy([15]) == 0.0
    assert normalized_entropy([0, 15, 0, 0, 0]) == 0.0
    assert normalized_entropy([1, 1]) == pytest.approx(1 / math.log2(5))
    assert normalized_entropy([1, 1], k=2) == pytest.approx(1.0)
    c = [8, 4, 2, 1, 0]
    p = np.array(c[:4]) / 15
    assert normalized_entropy(c) == pytest.approx(-(p * np.log2(p)).sum() / math.log2(5))
    assert normalized_entropy({"Counter": 10, "Oppose": 5}) == normalized_entropy([10, 5])


def test_normalized_entropy_bad_inputs():
    with pytest.raises(ValueError, match=">= 0"):
        normalized_entropy([3, -1])
    with pytest.raises(ValueError, match="total 0"):
        normalized_entropy([0, 0])
    with pytest.raises(ValueError, match="empty"):
        normalized_entropy([])
    with pytest.raises(ValueError, match="categories"):
        normalized_entropy([1] * 6)
    with pytest.raises(ValueError, match="k must be"):
        normalized_entropy([1], k=1)


# --------------------------------------------------------------------------- exact interval, two-sample bootstrap


@pytest.mark.parametrize("n", [1, 5, 15, 300])
def test_clopper_pearson_closed_forms_at_the_ends(n):
    # k = 0: the upper bound solves (1 - p)^n = a/2; k = n: the lower bound solves p^n = a/2
    assert clopper_pearson_interval(0, n) == (0.0, pytest.approx(1 - 0.025 ** (1 / n)))
    assert clopper_pearson_interval(n, n) == (pytest.approx(0.025 ** (1 / n)), 1.0)


def test_clopper_pearson_is_the_beta_quantiles_and_wider_than_wilson():
    import scipy.stats

    for k, n in ((14, 15), (13, 15), (7, 15), (1, 15), (250, 300)):
        lo, hi = clopper_pearson_interval(k, n)
        assert lo == pytest.approx(scipy.stats.beta.ppf(0.025, k, n - k + 1))
        assert hi == pytest.approx(scipy.stats.beta.ppf(0.975, k + 1, n - k))
        w = wilson_interval(k, n)
        assert lo <= w[0] and hi >= w[1]
    assert clopper_pearson_interval(14, 15) == (pytest.approx(0.6805, abs=1e-4), pytest.approx(0.9983, abs=1e-4))
    with pytest.raises(ValueError):
        clopper_pearson_interval(3, 2)


def test_bootstrap_diff_ci_hand_computed():
    # mean(x*) is always 1; mean(y*) = K/4 with K ~ Binomial(4, 1/4): P(K <= 2) = 0.949,
    # P(K <= 3) = 0.996, so the 97.5% quantile of mean(y*) is 0.75 and the 2.5% quantile 0;
    # the 95% percentile interval of mean(x) - mean(y) is [1 - 0.75, 1 - 0] = [0.25, 1]
    assert bootstrap_diff_ci([1, 1, 1, 1], [0, 0, 0, 1], rng=0) == (pytest.approx(0.25), pytest.approx(1.0))
    assert bootstrap_diff_ci([1, 1, 1], [0, 0, 0]) == (1.0, 1.0)  # no spread at all
    a = bootstrap_diff_ci([0.5, 0.2, 0.9, 0.4], [0.1, 0.3, 0.0], rng=3)
    assert a == bootstrap_diff_ci([0.5, 0.2, 0.9, 0.4], [0.1, 0.3, 0.0], rng=3)
    assert a[0] <= 0.5 - 0.4 / 3 <= a[1]
    with pytest.raises(ValueError):
        bootstrap_diff_ci([], [1.0])
