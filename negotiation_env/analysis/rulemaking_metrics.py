"""Per-cell metrics and comparisons of rulemaking runs (seed 001 §5–§6).

Inputs are run outcome dicts as the game writes them into ``info["outcome"]`` after the
final turn (and as traces store them): ``label``, ``worst_case_label``, ``entropy``,
``horizon_exhausted``, ``concession_arc``, ``trajectory``, ``provenance``,
``genuine_share``. Nothing here touches an env, so any trace file gives the same tables.

* :func:`cell_summary`: outcome distribution, agreements with the Wilson interval, the
  two-sided plausibility screen on the labels and on the worst-case recode, the
  certification of a no-agreement cell (:func:`certification`), mean normalised entropy
  with a bootstrap CI, horizon exhaustion, concession-arc and softening rates,
  trajectory uniqueness, mean genuine share.
* :func:`certification`: §6.3's rule: a no-agreement cell is behavioural if recoding
  every non-genuine turn to Concede "still leaves agreements far below the Ledger
  range".
* :func:`compare_cells`: one cell against another: one-sided Fisher exact test on
  agreements; for run entropy and horizon exhaustion (0/1 per run) the two-sided
  permutation test on the run-level means, Cliff's delta and a bootstrap 95% CI of the
  difference of means.
* :func:`compare_to_baseline`: many cells against one, with Holm-adjusted p-values.
* :func:`condition_contrasts`: seed 001 §5 "Statistics" for one family and environment:
  the Ledger against each other condition (Native first: the primary contrast), the
  entropy and exhaustion permutation p-values Holm-adjusted within each contrast.
* :func:`threshold_relabelling`: Appendix B's 3 x 3 relabelling of a cell: the label
  counts under each (compromise_parties, consensus_share) pair, from each run's stored
  ``sensitivity`` labels.
* :func:`provenance_audit`: Table 3's per-cell provenance: genuine, retried and fallback
  turns, and their shares of the cell's turns (pooled over runs, so a long run weighs
  more than a short one, unlike the mean of per-run shares in :func:`cell_summary`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

import numpy as np

from ..games.rulemaking.rules import PROVENANCES
from .stats import (OUTCOMES, bootstrap_ci, bootstrap_diff_ci, cliffs_delta, fisher_one_sided, holm,
                    permutation_test, plausibility_screen, wilson_interval)

__all__ = ["cell_summary", "certification", "compare_cells", "compare_to_baseline", "condition_contrasts", "AGREEMENT",
           "PERMUTATIONS", "threshold_relabelling", "threshold_key", "provenance_audit", "PROVENANCES"]

#: seed 001 §5: "two-sided permutation tests on run-level means (10,000 shuffles)"
PERMUTATIONS = 10_000

AGREEMENT = ("compromise", "consensus")
_REQUIRED = ("label", "worst_case_label", "entropy", "horizon_exhausted", "concession_arc", "trajectory")


def _check(outcomes: Sequence[Mapping[str, Any]], name: str = "outcomes") -> None:
    if not outcomes:
        raise ValueError(f"{name} is empty; a cell needs at least one run")
    for i, o in enumerate(outcomes):
        missing = [k for k in _REQUIRED if k not in o]
        if missing:
            raise ValueError(f"{name}[{i}] lacks {', '.join(missing)} (expected a rulemaking run outcome)")
        for key in ("label", "worst_case_label"):
            if o[key] not in OUTCOMES:
                raise ValueError(f"{name}[{i}].{key} is {o[key]!r}; expected one of {', '.join(OUTCOMES)}")


def certification(verdict: str, runs: int, worst_case_agreements: int, flips: int,
                  ledger: Sequence[tuple[int, int]] | None = None, confidence: float = 0.95) -> dict[str, Any]:
    """Seed 001 §6.3's certification of one cell: "a no-agreement result counts as
    behavioral only if recoding every non-genuine turn to Concede, the most
    agreement-favorable action, still leaves agreements far below the Ledger range".

    ``verdict``: the cell's plausibility-screen verdict; ``runs``: its runs;
    ``worst_case_agreements``: its agreements once every run is recoded (and played by
    the ending rule, the game's ``worst_case_label``); ``flips``: runs without
    agreement whose recode agrees; ``ledger``: ``(agreements, runs)`` of each Ledger cell
    to compare with (the same family's, every environment: the paper's "Ledger range"
    is a family's range over its environments, "the Ledger's 13 to 15").

    The rule, with "far below" made exact:

    * only a cell failing the screen from below (``fail_no_agreement``) needs it; any
      other cell is ``certified`` with basis ``"not a no-agreement cell"``;
    * a recode that flips no run certifies the cell: no label hinges on a non-genuine
      turn (basis ``"no flips"``);
    * otherwise the recoded agreements are *far below* the Ledger range when their
      two-sided Wilson interval (at ``confidence``) lies wholly below that of the
      lowest Ledger cell, the one with the lowest Wilson lower bound: recoded upper
      bound < that lower bound. Both cells' sampling error counts, so a cell whose
      recode could reach the Ledger's level is not certified, whatever the point counts
      (recoded 10 of 15 against 13 of 15 is not far below). The paper's DeepSeek cells,
      1 and 3 flips of 15 (upper bounds 0.30, 0.45) against the Ledger's 13 to 15 (lowest
      lower bound 0.62), are certified; so is anything up to 5 of 15 (upper 0.58);
    * with flips and no Ledger cell to compare with, ``certified`` is None (basis
      ``"no Ledger cell"``).

    Returns ``certified`` (True, False or None), ``certification`` (the basis, in
    words), ``flips``, ``worst_case_agreements``, ``worst_case_upper`` (the recoded
    rate's Wilson upper bound), ``ledger_range`` (the lowest and highest Ledger
    ``(agreements, runs)``, None without one) and ``ledger_lower`` (the lowest Ledger
    cell's Wilson lower bound)."""
    upper = wilson_interval(worst_case_agreements, runs, confidence)[1]
    out: dict[str, Any] = {"flips": flips, "worst_case_agreements": worst_case_agreements,
                           "worst_case_upper": upper, "ledger_range": None, "ledger_lower": None}
    cells = [(int(k), int(n)) for k, n in (ledger or ()) if n > 0]
    if cells:
        lowest = min(cells, key=lambda kn: (wilson_interval(kn[0], kn[1], confidence)[0], kn[0] / kn[1]))
        highest = max(cells, key=lambda kn: kn[0] / kn[1])
        out["ledger_range"] = (lowest, highest)
        out["ledger_lower"] = wilson_interval(lowest[0], lowest[1], confidence)[0]
    if verdict != "fail_no_agreement":
        return {**out, "certified": True, "certification": "not a no-agreement cell"}
    if flips == 0:
        return {**out, "certified": True, "certification": "no flips"}
    if not cells:
        return {**out, "certified": None, "certification": "no Ledger cell"}
    far = upper < out["ledger_lower"]
    k, n = out["ledger_range"][0]
    return {**out, "certified": far,
            "certification": f"recoded {worst_case_agreements}/{runs}, upper {upper:.2f} "
                             f"{'<' if far else '>='} Ledger {k}/{n} lower {out['ledger_lower']:.2f}"}


def cell_summary(outcomes: Sequence[Mapping[str, Any]], *, ledger: Sequence[tuple[int, int]] | None = None,
                 confidence: float = 0.95, n_resamples: int = 2000,
                 rng: int | np.random.Generator | None = 0) -> dict[str, Any]:
    """The per-cell figures of seed 001 Table 2 and §6 (see the module docstring).
    ``ledger``: ``(agreements, runs)`` of the Ledger cells the certification compares
    with (:func:`certification`)."""
    _check(outcomes)
    n = len(outcomes)
    counts = Counter(o["label"] for o in outcomes)
    worst = Counter(o["worst_case_label"] for o in outcomes)
    agree = sum(counts[k] for k in AGREEMENT)
    worst_agree = sum(worst[k] for k in AGREEMENT)
    flips = sum(o["label"] not in AGREEMENT and o["worst_case_label"] in AGREEMENT for o in outcomes)
    entropy = np.array([float(o["entropy"]) for o in outcomes])
    screen = plausibility_screen({k: counts.get(k, 0) for k in OUTCOMES}, confidence)
    worst_screen = plausibility_screen({k: worst.get(k, 0) for k in OUTCOMES}, confidence)
    cert = certification(screen["verdict"], n, worst_agree, flips, ledger, confidence)
    ent_ci = bootstrap_ci(entropy, confidence=confidence, n_resamples=n_resamples, rng=rng) if n > 1 else \
        (float(entropy[0]), float(entropy[0]))
    return {
        "runs": n,
        "counts": {k: counts.get(k, 0) for k in OUTCOMES},
        "agreements": agree,
        "agreement_rate": agree / n,
        "agreement_ci": wilson_interval(agree, n, confidence),
        "verdict": screen["verdict"],
        "worst_case_counts": {k: worst.get(k, 0) for k in OUTCOMES},
        "worst_case_verdict": worst_screen["verdict"],
        **cert,
        "entropy_mean": float(entropy.mean()),
        "entropy_ci": tuple(float(v) for v in ent_ci),
        "horizon_exhaustion_rate": sum(bool(o["horizon_exhausted"]) for o in outcomes) / n,
        "concession_arc_rate": sum(bool(o["concession_arc"]) for o in outcomes) / n,
        "softening_rate": sum(bool({"Support", "Concede"} & set(o["trajectory"])) for o in outcomes) / n,
        "trajectory_uniqueness": len({tuple(o["trajectory"]) for o in outcomes}) / n,
        "genuine_share": float(np.mean([float(o.get("genuine_share", 1.0)) for o in outcomes])),
    }


def compare_cells(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]], *, n_resamples: int = PERMUTATIONS,
                  rng: int | np.random.Generator | None = 0, n_bootstrap: int = 2000) -> dict[str, Any]:
    """Cell ``a`` against cell ``b``: Fisher's one-sided p for "a agrees more often";
    for ``entropy`` and ``exhaustion`` (1 when the run used every turn) the means of
    both cells, the two-sided permutation p of the difference of means
    (``n_resamples`` shuffles), Cliff's delta (a over b) and the 95% percentile
    bootstrap interval of ``mean(a) - mean(b)``. Keys ``{measure}_mean_a``,
    ``{measure}_mean_b``, ``{measure}_permutation_p``, ``{measure}_cliffs_delta``,
    ``{measure}_diff_ci``. ``rng`` seeds every resampling (the same seed each)."""
    _check(a, "a")
    _check(b, "b")
    ka = sum(o["label"] in AGREEMENT for o in a)
    kb = sum(o["label"] in AGREEMENT for o in b)
    out: dict[str, Any] = {
        "agreements_a": ka, "runs_a": len(a), "agreements_b": kb, "runs_b": len(b),
        "fisher_p": fisher_one_sided(ka, len(a), kb, len(b)),
    }
    for measure, get in (("entropy", lambda o: float(o["entropy"])),
                         ("exhaustion", lambda o: float(bool(o["horizon_exhausted"])))):
        xa, xb = [get(o) for o in a], [get(o) for o in b]
        out[f"{measure}_mean_a"] = float(np.mean(xa))
        out[f"{measure}_mean_b"] = float(np.mean(xb))
        out[f"{measure}_permutation_p"] = permutation_test(xa, xb, n_resamples=n_resamples, rng=rng)
        out[f"{measure}_cliffs_delta"] = cliffs_delta(xa, xb)
        out[f"{measure}_diff_ci"] = bootstrap_diff_ci(xa, xb, n_resamples=n_bootstrap, rng=rng)
    return out


def compare_to_baseline(cells: Mapping[str, Sequence[Mapping[str, Any]]], baseline: str, *,
                        n_resamples: int = 10000, rng: int | None = 0) -> dict[str, dict[str, float]]:
    """Every cell against ``baseline``, with Holm-adjusted Fisher and permutation p-values
    across the family of comparisons."""
    if baseline not in cells:
        raise ValueError(f"baseline {baseline!r} is not one of the cells: {', '.join(cells)}")
    others = [c for c in cells if c != baseline]
    if not others:
        raise ValueError("need at least one cell besides the baseline")
    out = {c: compare_cells(cells[c], cells[baseline], n_resamples=n_resamples, rng=rng) for c in others}
    for key in ("fisher_p", "entropy_permutation_p"):
        adj = holm([out[c][key] for c in others])
        for c, p in zip(others, adj):
            out[c][key + "_holm"] = float(p)
    return out


def condition_contrasts(cells: Mapping[str, Sequence[Mapping[str, Any]]], reference: str = "ledger", *,
                        n_resamples: int = PERMUTATIONS, rng: int | None = 0,
                        n_bootstrap: int = 2000) -> dict[str, dict[str, Any]]:
    """Seed 001 §5 "Statistics" for the cells of one family and environment
    (``{condition: run outcomes}``): :func:`compare_cells` of ``reference`` (a) against
    every other condition present (b), Native first (the paper's primary contrast), the
    rest in the order given. The entropy and exhaustion permutation p-values are
    Holm-adjusted within each contrast (``entropy_p_holm``, ``exhaustion_p_holm``): the
    paper adjusts "within each family-environment pair", where it makes one contrast.
    The Fisher p is left unadjusted, as the paper reports it. Empty when ``reference`` or
    every other condition is missing."""
    if reference not in cells:
        return {}
    others = sorted((c for c in cells if c != reference), key=lambda c: c != "native")
    out: dict[str, dict[str, Any]] = {}
    for c in others:
        r = compare_cells(cells[reference], cells[c], n_resamples=n_resamples, rng=rng, n_bootstrap=n_bootstrap)
        adj = holm([r["entropy_permutation_p"], r["exhaustion_permutation_p"]])
        r["entropy_p_holm"], r["exhaustion_p_holm"] = float(adj[0]), float(adj[1])
        out[c] = r
    return out


# --------------------------------------------------------------------------- Appendix B, Table 3

def threshold_key(key: str) -> tuple[int, float]:
    """``(compromise_parties, consensus_share)`` of a stored sensitivity key (``"2x0.8"``)."""
    k, _, share = str(key).partition("x")
    try:
        return int(k), float(share)
    except ValueError:
        raise ValueError(f"sensitivity key {key!r} is not 'KxS' (compromise parties x consensus share)") from None


def threshold_relabelling(outcomes: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Appendix B's relabelling of one cell: for each threshold pair of the runs' stored
    ``sensitivity`` labels (keys ``"KxS"``, in (K, S) order), the number of runs per
    label (every label of :data:`~.stats.OUTCOMES`, zeros included). A pair missing
    from some run is left out (the pairs every run has)."""
    if not outcomes:
        raise ValueError("outcomes is empty; a cell needs at least one run")
    grids = []
    for i, o in enumerate(outcomes):
        grid = o.get("sensitivity")
        if not isinstance(grid, Mapping) or not grid:
            raise ValueError(f"outcomes[{i}] lacks sensitivity (expected a rulemaking run outcome)")
        for key, label in grid.items():
            if label not in OUTCOMES:
                raise ValueError(f"outcomes[{i}].sensitivity[{key!r}] is {label!r}; expected one of "
                                 f"{', '.join(OUTCOMES)}")
        grids.append(grid)
    keys = set(grids[0]).intersection(*grids[1:])
    out = {}
    for key in sorted(keys, key=threshold_key):
        counts = Counter(g[key] for g in grids)
        out[key] = {k: counts.get(k, 0) for k in OUTCOMES}
    return out


def provenance_audit(outcomes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Table 3's provenance of one cell, counted turn by turn: ``turns`` (all recorded
    turns of its runs), the turns of each provenance, ``genuine_share``,
    ``non_genuine_share`` (retried or fallback) and ``fallback_share`` as shares of those
    turns, and ``runs_with_fallback``. A run's turns are its ``provenance`` counts."""
    if not outcomes:
        raise ValueError("outcomes is empty; a cell needs at least one run")
    totals = dict.fromkeys(PROVENANCES, 0)
    with_fallback = 0
    for i, o in enumerate(outcomes):
        prov = o.get("provenance")
        if not isinstance(prov, Mapping) or any(not isinstance(prov.get(k), int) or prov[k] < 0 for k in PROVENANCES):
            raise ValueError(f"outcomes[{i}] lacks provenance counts of {', '.join(PROVENANCES)} "
                             f"(expected a rulemaking run outcome)")
        for k in PROVENANCES:
            totals[k] += prov[k]
        with_fallback += prov["fallback"] > 0
    turns = sum(totals.values())
    share = (lambda n: n / turns) if turns else (lambda n: 0.0)
    return {"runs": len(outcomes), "turns": turns, **totals,
            "genuine_share": share(totals["genuine"]) if turns else 1.0,
            "non_genuine_share": share(totals["retried"] + totals["fallback"]),
            "fallback_share": share(totals["fallback"]), "runs_with_fallback": with_fallback}
