"""Run-level statistics for negotiation experiments (seed 001 §5 "Statistics", §5 "A
two-sided plausibility screen", §6).

Every function is pure. Randomness comes only from a :class:`numpy.random.Generator`
passed in (or built from a seed); the global NumPy random state is never touched.

Where SciPy or statsmodels has the procedure we call it:

* :func:`wilson_interval` - ``statsmodels.stats.proportion.proportion_confint(method="wilson")``
* :func:`clopper_pearson_interval` - the same with ``method="beta"`` (exact)
* :func:`fisher_one_sided` - ``scipy.stats.fisher_exact`` on the 2 x 2 table
* :func:`permutation_test` - ``scipy.stats.permutation_test(permutation_type="independent")``
* :func:`holm`, :func:`benjamini_hochberg` - ``statsmodels.stats.multitest.multipletests``
* :func:`bootstrap_ci`, :func:`bootstrap_diff_ci` - ``scipy.stats.bootstrap``
* :func:`normalized_entropy` - ``scipy.stats.entropy``

Written here, because neither library has it: :func:`cliffs_delta` and the screen rule
of :func:`plausibility_screen` (which is the paper's, not a library procedure).

Values for the paper's figures with these functions (checked in the tests):

* Wilson 95% lower bound, 15 of 15: 0.7961 (paper: 0.80); 135 of 135: 0.9723 (0.97);
  pooled Gemini Ledger compromise, 42 of 45: 0.8214 (0.82).
* One-sided Fisher, 13/15 vs 0/15: p = 8.77e-7 (paper: p <= 8.8e-7 for all six
  primary contrasts, each at least 13 of 15 against 0 of 15); 15/15 vs 0/15: 6.45e-9.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import scipy.stats
from numpy.typing import ArrayLike
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

__all__ = [
    "OUTCOMES",
    "wilson_interval",
    "clopper_pearson_interval",
    "plausibility_screen",
    "fisher_one_sided",
    "permutation_test",
    "ratio_bootstrap_ci",
    "holm",
    "benjamini_hochberg",
    "cliffs_delta",
    "bootstrap_ci",
    "bootstrap_diff_ci",
    "normalized_entropy",
]

#: Run outcome labels accepted by :func:`plausibility_screen`. They mirror the labels of
#: the rulemaking classifier (``negotiation_env.games.rulemaking.classifier.OUTCOMES``);
#: they are repeated here so that this module does not depend on any one game.
OUTCOMES: tuple[str, ...] = ("compromise", "consensus", "authority", "deadlock")

Verdict = Literal["pass", "fail_no_agreement", "fail_agreement_saturated"]
RngLike = np.random.Generator | int | None


# --------------------------------------------------------------------------- helpers


def _count(name: str, value: Any) -> int:
    """An integer count >= 0; a bool or a non-integral number is refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer count, got {value!r}")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def _proportion_args(successes: Any, n: Any, sname: str = "successes", nname: str = "n") -> tuple[int, int]:
    k = _count(sname, successes)
    m = _count(nname, n)
    if m == 0:
        raise ValueError(f"{nname} must be > 0 (no trials, no proportion)")
    if k > m:
        raise ValueError(f"{sname} ({k}) cannot exceed {nname} ({m})")
    return k, m


def _confidence(confidence: float) -> float:
    c = float(confidence)
    if not 0.0 < c < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return c


def _sample(name: str, x: ArrayLike) -> np.ndarray:
    """A non-empty, one-dimensional, finite float sample."""
    a = np.asarray(x, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name} is empty; need at least one observation")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return a


def _pvalues(pvalues: ArrayLike) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"pvalues must be one-dimensional, got shape {p.shape}")
    if p.size == 0:
        raise ValueError("pvalues is empty; need at least one p-value")
    if not np.all(np.isfinite(p)) or np.any((p < 0.0) | (p > 1.0)):
        raise ValueError("pvalues must all lie in [0, 1]")
    return p


def _generator(rng: RngLike) -> np.random.Generator:
    """A Generator as given, or a fresh one from a seed (None: fresh OS entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be a numpy.random.Generator, an int seed or None, got {rng!r}")


def _rng_kwarg(func: Callable[..., Any], gen: np.random.Generator) -> dict[str, Any]:
    """SciPy >= 1.15 takes ``rng=``; older releases (the project allows >= 1.11) only
    ``random_state=``, which accepts a Generator too."""
    name = "rng" if "rng" in inspect.signature(func).parameters else "random_state"
    return {name: gen}


def _n_resamples(n_resamples: Any) -> int:
    r = _count("n_resamples", n_resamples)
    if r < 1:
        raise ValueError("n_resamples must be >= 1")
    return r


# --------------------------------------------------------------------------- proportions


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Two-sided Wilson score interval (Wilson, 1927) for a binomial proportion.

    ``confidence`` is the two-sided level, so the lower bound at 0.95 is the one the
    paper quotes (15 of 15 gives 0.796, reported as 0.80; 135 of 135 gives 0.972).

    Raises:
        ValueError: ``n`` is 0, a count is negative, ``successes > n``, or ``confidence``
            is not in (0, 1).
        TypeError: a count is not an integer.
    """
    k, m = _proportion_args(successes, n)
    c = _confidence(confidence)
    low, high = proportion_confint(k, m, alpha=1.0 - c, method="wilson")
    # Clip float noise only (e.g. a bound of -1e-17 at k = 0).
    return float(min(max(low, 0.0), 1.0)), float(min(max(high, 0.0), 1.0))


def clopper_pearson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Two-sided exact (Clopper-Pearson) interval for a binomial proportion: the beta
    quantiles ``Beta(a/2; k, n-k+1)`` and ``Beta(1-a/2; k+1, n-k)`` (0 at k = 0, 1 at
    k = n). Wider than Wilson's; 14 of 15 gives [0.681, 0.998]. Same errors as
    :func:`wilson_interval`."""
    k, m = _proportion_args(successes, n)
    c = _confidence(confidence)
    low, high = proportion_confint(k, m, alpha=1.0 - c, method="beta")
    low = 0.0 if k == 0 else float(low)  # the exact ends: 0 at k = 0, 1 at k = n
    high = 1.0 if k == m else float(high)
    return float(min(max(low, 0.0), 1.0)), float(min(max(high, 0.0), 1.0))


def plausibility_screen(
    counts: Mapping[str, int],
    confidence: float = 0.95,
    ceiling: float = 0.8,
    *,
    upper_basis: Literal["compromise", "agreement"] = "compromise",
    decimals: int | None = 2,
) -> dict[str, Any]:
    """The paper's two-sided plausibility screen for one cell (or a pool of cells).

    ``counts`` maps outcome labels (a subset of :data:`OUTCOMES`) to run counts; a missing
    label counts 0, an unknown label is an error. With ``n`` the total number of runs:

    * non-agreement ``= authority + deadlock``; agreement ``= compromise + consensus``;
    * ``L_na``, ``L_c``, ``L_a``: the two-sided Wilson lower bounds at ``confidence`` of
      the non-agreement, compromise and agreement rates;
    * ``r(L)`` is ``round(L, decimals)``, or ``L`` itself when ``decimals`` is None.

    The exact rule (this module's reading of §5 and §6):

    1. **fail_no_agreement** ("fails from below") if ``r(L_na) >= ceiling``;
    2. else **fail_agreement_saturated** ("fails from above") if ``r(L_up) >= ceiling``,
       where ``L_up`` is ``L_c`` when ``upper_basis="compromise"`` (the default, the
       paper's "compromise rate bounded near ceiling", its pooled Gemini Ledger figure
       0.82) or ``L_a`` when ``upper_basis="agreement"`` (agreement of either kind);
    3. else **pass**.

    Why round to two decimals with ``ceiling=0.8``: the paper reports bounds to two
    decimals and calls the 0.796 bound of 15 of 15 "0.80", the smallest cell it flags.
    Comparing the rounded bound keeps the paper's own numbers as the threshold: 15 of 15
    fails (0.796 -> 0.80), 14 of 15 (0.702) and 13 of 15 (0.621) pass. Pass
    ``decimals=None`` for an unrounded comparison (then 15 of 15 needs ``ceiling<=0.796``).

    The two failures cannot both hold for ``ceiling > 0.51`` (two-decimal rounding): a
    Wilson lower bound lies below the observed rate whenever that rate is positive, so
    ``L_na + L_c <= L_na + L_a < 1``. ``ceiling`` must lie in (0.5, 1]; rule 1 is checked
    first regardless.

    Returns a dict with ``n``, the full ``counts``, the three counts ``non_agreement``,
    ``compromise`` and ``agreement``, their observed ``*_rate``, their Wilson intervals
    ``*_ci`` and lower bounds ``*_lower``, the settings (``confidence``, ``ceiling``,
    ``upper_basis``, ``decimals``), ``fails_from_below``, ``fails_from_above`` and the
    ``verdict``: ``"pass"``, ``"fail_no_agreement"`` or ``"fail_agreement_saturated"``.
    """
    if not isinstance(counts, Mapping):
        raise TypeError(f"counts must be a mapping of outcome label to count, got {type(counts).__name__}")
    unknown = sorted(set(counts) - set(OUTCOMES))
    if unknown:
        raise ValueError(f"unknown outcome label(s) {unknown}; expected a subset of {list(OUTCOMES)}")
    full = {label: _count(f"counts[{label!r}]", counts.get(label, 0)) for label in OUTCOMES}
    n = sum(full.values())
    if n == 0:
        raise ValueError("counts total 0 runs; the screen needs at least one run")
    c = _confidence(confidence)
    ceil = float(ceiling)
    if not 0.5 < ceil <= 1.0:
        raise ValueError(f"ceiling must lie in (0.5, 1], got {ceiling!r}")
    if upper_basis not in ("compromise", "agreement"):
        raise ValueError(f"upper_basis must be 'compromise' or 'agreement', got {upper_basis!r}")
    if decimals is not None:
        decimals = _count("decimals", decimals)

    k = {
        "non_agreement": full["authority"] + full["deadlock"],
        "compromise": full["compromise"],
        "agreement": full["compromise"] + full["consensus"],
    }
    ci = {name: wilson_interval(v, n, c) for name, v in k.items()}

    def r(bound: float) -> float:
        return bound if decimals is None else round(bound, decimals)

    below = r(ci["non_agreement"][0]) >= ceil
    above = r(ci[upper_basis][0]) >= ceil
    verdict: Verdict = "fail_no_agreement" if below else ("fail_agreement_saturated" if above else "pass")

    out: dict[str, Any] = {"n": n, "counts": full}
    for name, v in k.items():
        out[name] = v
        out[f"{name}_rate"] = v / n
        out[f"{name}_ci"] = ci[name]
        out[f"{name}_lower"] = ci[name][0]
    out.update(
        confidence=c,
        ceiling=ceil,
        upper_basis=upper_basis,
        decimals=decimals,
        fails_from_below=below,
        fails_from_above=above,
        verdict=verdict,
    )
    return out


def fisher_one_sided(
    a_success: int,
    a_n: int,
    b_success: int,
    b_n: int,
    alternative: Literal["greater", "less", "two-sided"] = "greater",
) -> float:
    """Fisher exact test p-value on the table ``[[a_success, a_n - a_success],
    [b_success, b_n - b_success]]``.

    ``alternative="greater"`` tests whether group A's success odds exceed group B's
    (e.g. Ledger agreements against Native agreements). 13 of 15 against 0 of 15 gives
    p = 8.77e-7, the paper's "p <= 8.8e-7".
    """
    a_k, a_m = _proportion_args(a_success, a_n, "a_success", "a_n")
    b_k, b_m = _proportion_args(b_success, b_n, "b_success", "b_n")
    if alternative not in ("greater", "less", "two-sided"):
        raise ValueError(f"alternative must be 'greater', 'less' or 'two-sided', got {alternative!r}")
    table = [[a_k, a_m - a_k], [b_k, b_m - b_k]]
    return float(scipy.stats.fisher_exact(table, alternative=alternative).pvalue)


# --------------------------------------------------------------------------- multiplicity


def holm(pvalues: ArrayLike) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values, in the input order.

    The adjusted value of the i-th smallest of m p-values is
    ``max_{j <= i} min(1, (m - j + 1) * p_(j))``, so it is monotone in the raw p-values
    and controls the family-wise error rate. Via statsmodels ``multipletests``.
    """
    p = _pvalues(pvalues)
    return np.asarray(multipletests(p, method="holm")[1], dtype=float)


def benjamini_hochberg(pvalues: ArrayLike) -> np.ndarray:
    """Benjamini-Hochberg (1995) step-up adjusted p-values (false discovery rate), in the
    input order: ``min_{j >= i} min(1, m * p_(j) / j)`` for the i-th smallest of m.
    Via statsmodels ``multipletests(method="fdr_bh")``.
    """
    p = _pvalues(pvalues)
    return np.asarray(multipletests(p, method="fdr_bh")[1], dtype=float)


# --------------------------------------------------------------------------- two samples


def _mean_diff(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


def permutation_test(
    x: ArrayLike,
    y: ArrayLike,
    n_resamples: int = 10000,
    rng: RngLike = None,
    statistic: Literal["mean_diff"] | Callable[..., Any] = "mean_diff",
) -> float:
    """Two-sided permutation test p-value for two independent samples of run-level values.

    ``statistic="mean_diff"`` is ``mean(x) - mean(y)``; a callable ``f(x, y, axis)`` is
    passed to SciPy as a vectorized statistic. Labels are shuffled ``n_resamples`` times
    (SciPy enumerates all splits instead when there are fewer; a Monte Carlo p-value then
    includes the observed split, so it is never 0). The two-sided p is SciPy's: twice
    the smaller one-sided p, capped at 1. ``rng`` is a Generator or a seed;
    None draws fresh entropy and leaves the global state alone.
    """
    a = _sample("x", x)
    b = _sample("y", y)
    if statistic == "mean_diff":
        stat: Callable[..., Any] = _mean_diff
    elif callable(statistic):
        stat = statistic
    else:
        raise ValueError(f"statistic must be 'mean_diff' or a callable, got {statistic!r}")
    res = scipy.stats.permutation_test(
        (a, b),
        stat,
        permutation_type="independent",
        vectorized=True,
        n_resamples=_n_resamples(n_resamples),
        alternative="two-sided",
        **_rng_kwarg(scipy.stats.permutation_test, _generator(rng)),
    )
    return float(min(res.pvalue, 1.0))


def cliffs_delta(x: ArrayLike, y: ArrayLike) -> float:
    """Cliff's delta (Cliff, 1993): ``(#{x_i > y_j} - #{x_i < y_j}) / (len(x) * len(y))``.

    In [-1, 1]: +1 when every x exceeds every y, -1 the reverse, 0 for identical samples.
    Written here because SciPy has no Cliff's delta. Counting uses a sorted copy of ``y``
    and binary search (O((n + m) log m)); it equals the O(n*m) pairwise count exactly.
    """
    a = _sample("x", x)
    ys = np.sort(_sample("y", y))
    below = np.searchsorted(ys, a, side="left")  # per x_i: how many y_j < x_i
    above = ys.size - np.searchsorted(ys, a, side="right")  # how many y_j > x_i
    return float((int(below.sum()) - int(above.sum())) / (a.size * ys.size))


# --------------------------------------------------------------------------- one sample


def bootstrap_ci(
    x: ArrayLike,
    statistic: Callable[..., Any] = np.mean,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    rng: RngLike = None,
    *,
    method: Literal["percentile", "basic", "BCa"] = "percentile",
) -> tuple[float, float]:
    """Two-sided bootstrap confidence interval (Efron, 1979) for ``statistic(x)``.

    ``statistic`` takes a 1-D array (and, if it accepts one, an ``axis`` keyword, which
    SciPy uses to vectorize). The default method is the percentile interval, not SciPy's
    default BCa: run-level measures such as horizon exhaustion are 0/1 and heavily tied
    at 15 runs, where BCa's jackknife acceleration can degenerate to NaN. A sample whose
    values are all equal (including a single value) has no sampling spread and returns
    ``(v, v)`` with ``v = statistic(x)``. Deterministic for a given seed or Generator state.
    """
    a = _sample("x", x)
    c = _confidence(confidence)
    if method not in ("percentile", "basic", "BCa"):
        raise ValueError(f"method must be 'percentile', 'basic' or 'BCa', got {method!r}")
    if np.all(a == a[0]):
        v = float(statistic(a))
        return v, v
    res = scipy.stats.bootstrap(
        (a,),
        statistic,
        n_resamples=_n_resamples(n_resamples),
        confidence_level=c,
        method=method,
        **_rng_kwarg(scipy.stats.bootstrap, _generator(rng)),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def bootstrap_diff_ci(
    x: ArrayLike,
    y: ArrayLike,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    rng: RngLike = None,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``mean(x) - mean(y)`` for two independent samples
    (each resampled within itself, ``scipy.stats.bootstrap`` with two samples). Two
    samples each of one repeated value have no spread and return ``(d, d)``; percentile,
    not BCa, for the reason given in :func:`bootstrap_ci`."""
    a = _sample("x", x)
    b = _sample("y", y)
    c = _confidence(confidence)
    if np.all(a == a[0]) and np.all(b == b[0]):
        d = float(a[0] - b[0])
        return d, d
    res = scipy.stats.bootstrap(
        (a, b),
        _mean_diff,
        n_resamples=_n_resamples(n_resamples),
        confidence_level=c,
        method="percentile",
        vectorized=True,
        **_rng_kwarg(scipy.stats.bootstrap, _generator(rng)),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _ratio_of_sums(num: np.ndarray, den: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.sum(num, axis=axis) / np.sum(den, axis=axis)


def ratio_bootstrap_ci(
    numerators: ArrayLike,
    denominators: ArrayLike,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    rng: RngLike = None,
) -> tuple[float, float] | None:
    """Percentile cluster-bootstrap interval of ``sum(numerators) / sum(denominators)``:
    each cluster (a game) contributes one numerator and one denominator (e.g. its
    Pareto-optimal rounds and its rounds), and whole clusters are resampled together
    (``scipy.stats.bootstrap`` with ``paired=True``), so rounds of one game, which are not
    independent, never count as separate draws. Every denominator must be positive. Fewer
    than two clusters: None (no spread to resample); clusters that all give the same
    ratio: ``(r, r)``. Percentile, not BCa, for the reason given in :func:`bootstrap_ci`."""
    num = _sample("numerators", numerators)
    den = _sample("denominators", denominators)
    if num.shape != den.shape:
        raise ValueError(f"numerators and denominators must have the same length; got {num.size} and {den.size}")
    if np.any(den <= 0):
        raise ValueError("every denominator must be positive")
    c = _confidence(confidence)
    if num.size < 2:
        return None
    ratios = num / den
    if np.all(ratios == ratios[0]):
        r = float(num.sum() / den.sum())
        return r, r
    res = scipy.stats.bootstrap(
        (num, den),
        _ratio_of_sums,
        paired=True,
        n_resamples=_n_resamples(n_resamples),
        confidence_level=c,
        method="percentile",
        vectorized=True,
        **_rng_kwarg(scipy.stats.bootstrap, _generator(rng)),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def normalized_entropy(counts: Mapping[Any, float] | Sequence[float] | ArrayLike, k: int = 5) -> float:
    """Shannon entropy (bits) of a category count vector divided by ``log2(k)``.

    With ``k=5`` (the five action types) this is the paper's normalized action entropy:
    0 when one category holds every count, 1 when all ``k`` are equally frequent. Counts
    may be a mapping (its values are used) or a sequence; zeros are allowed, there may be
    at most ``k`` categories, and they must not all be zero.
    """
    kk = _count("k", k)
    if kk < 2:
        raise ValueError(f"k must be >= 2 (log2(k) is the normalizer), got {k}")
    values = list(counts.values()) if isinstance(counts, Mapping) else counts
    c = np.asarray(values, dtype=float)
    if c.ndim != 1:
        raise ValueError(f"counts must be one-dimensional, got shape {c.shape}")
    if c.size == 0:
        raise ValueError("counts is empty")
    if c.size > kk:
        raise ValueError(f"counts has {c.size} categories but k={kk}")
    if not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError("counts must be finite and >= 0")
    if c.sum() == 0:
        raise ValueError("counts total 0; entropy is undefined")
    h = float(scipy.stats.entropy(c, base=2)) / math.log2(kk)
    return min(max(h, 0.0), 1.0)  # clip float noise at the two ends
