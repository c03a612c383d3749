"""Open-loop expected switching from replayed action policies (seed 002, Experiments 1
and 2; Eq. 4 / S3-S6), as pure functions of replay rows.

A replay row is one scored decision: ``{"game_id", "agent", "round", "condition",
"p_a", ...}`` plus any stratum fields (``stage_game``, ``framing``, ``model``, ...), as
:func:`baselines.llm.replay.replay_decisions` writes them. Along the fixed history of one
agent in one dyad, under one condition, adjacent rounds ``t, t+1`` with ``p = P(A)``
give the probability that independent draws disagree (S3) and its exact split (S4)::

    E = p_t (1 - p_{t+1}) + (1 - p_t) p_{t+1}
      = (p_{t+1} - p_t)^2                              probability drift
      + p_t (1 - p_t) + p_{t+1} (1 - p_{t+1})          action uncertainty

Aggregation (A.5): transitions are averaged within dyad (both agents pooled), dyads
within a stratum, and strata with equal weight. Estimands are linear in the condition
means, and so are their drift and uncertainty parts, which add up to the total exactly:

* :func:`condition_effects` (Eq. S5): ``dS_c = E_ref - E_c`` for each condition against
  the reference (``no_message``); positive = condition c is more persistent.
* :func:`condition_contrast` (Table S7): ``E_second - E_first``; positive favours the
  first condition.
* :func:`history_message_interaction` (Eq. S6): ``1/2 [(E_A,SP - E_A,MB) - (E_B,SP -
  E_B,MB)]``, overall or per transition-ending round (the round profile).

Intervals: the paired stratified bootstrap of A.5 (dyads resampled with replacement
inside each stratum, the same draw for every condition), percentile intervals and the
two-sided bootstrap p-value ``min(1, 2 (1 + min(#<=0, #>=0)) / (1 + B))`` (None when
the resamples do not vary, e.g. one dyad a stratum); numpy ``Generator`` only. Only dyads with every needed condition enter (paired design).

Testing families (A.5: Benjamini-Hochberg "applied separately to the prespecified
testing families"), each estimate gaining ``q`` (None for an estimate without a p):

* :func:`experiment1_tests`, per model (the replay rows' ``policy`` field by default):
  the six condition-versus-no-message tests (Table 2's family: "q < .05 across the six
  nonreference conditions within model") and, as a second family, the five
  specificity contrasts :data:`SPECIFICITY_CONTRASTS`. The paper names the families but
  lists only two of the five contrasts (Table S7); the other three are ours, the
  attribution contrasts its B.3 discusses (``joint=True`` puts all eleven in one family,
  the other reading of A.5's sentence).
* :func:`experiment2_tests`: the pooled history-by-message interaction of every model
  (one family: Table S9's "four model tests") and, separately, the model x game
  interactions (one family: "the 16 model-game tests").
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np

__all__ = ["expected_switching", "transitions", "condition_effects", "condition_contrast",
           "history_message_interaction", "experiment1_tests", "experiment2_tests", "EXPERIMENT_1_REFERENCE",
           "EXPERIMENT_1_CONDITIONS", "EXPERIMENT_2_CELLS", "SPECIFICITY_CONTRASTS", "PARTS"]

EXPERIMENT_1_REFERENCE = "no_message"
#: Table 2's six non-reference conditions (Table S6), the first Experiment 1 family
EXPERIMENT_1_CONDITIONS = ("partner_message", "own_as_partner", "partner_as_own_public", "own_public", "dummy",
                           "partner_dummy")
#: the five specificity contrasts (first, second): ``E_second - E_first``, positive favours
#: the first. Table S7's two (content under partner framing; framing with dummy content
#: fixed), then ours: apparent source (B.3's 13.13 vs 4.38 points) and the partner
#: attribution of the partner's and of the focal agent's own text
SPECIFICITY_CONTRASTS = (
    ("partner_message", "partner_dummy"),
    ("dummy", "partner_dummy"),
    ("own_as_partner", "partner_as_own_public"),
    ("partner_message", "partner_as_own_public"),
    ("own_as_partner", "own_public"),
)
EXPERIMENT_2_CELLS = ("A/MB", "A/SP", "B/MB", "B/SP")
PARTS = ("total", "drift", "uncertainty")


def expected_switching(p_t: float, p_next: float) -> tuple[float, float, float]:
    """``(E, drift, uncertainty)`` of one adjacent pair of P(A) (Eq. S3/S4)."""
    for name, p in (("p_t", p_t), ("p_next", p_next)):
        if not 0.0 <= float(p) <= 1.0:
            raise ValueError(f"{name} must be a probability in [0, 1]; got {p!r}")
    p, q = float(p_t), float(p_next)
    drift = (q - p) ** 2
    unc = p * (1 - p) + q * (1 - q)
    return drift + unc, drift, unc


def _need(row: Mapping[str, Any], i: int) -> None:
    for k in ("game_id", "agent", "round", "condition", "p_a"):
        if k not in row:
            raise ValueError(f"replay row {i} has no field {k!r}")


def transitions(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One record per adjacent-round pair of the same agent, dyad and condition:
    ``game_id``, ``agent``, ``condition``, ``round`` (the transition's ending round),
    ``E``, ``drift``, ``uncertainty``, and the first row's other fields (strata).
    Rounds must be consecutive to pair (a gap leaves the pair out)."""
    groups: dict[tuple, dict[int, Mapping[str, Any]]] = {}
    for i, r in enumerate(rows):
        _need(r, i)
        key = (r["game_id"], r["agent"], r["condition"])
        rounds = groups.setdefault(key, {})
        if int(r["round"]) in rounds:
            raise ValueError(f"replay rows repeat round {r['round']} of {key}")
        rounds[int(r["round"])] = r
    out = []
    for (gid, agent, cond), rounds in groups.items():
        for t in sorted(rounds):
            if t + 1 not in rounds:
                continue
            e, d, u = expected_switching(rounds[t]["p_a"], rounds[t + 1]["p_a"])
            rec = {k: v for k, v in rounds[t].items() if k not in ("round", "p_a")}
            rec.update(game_id=gid, agent=agent, condition=cond, round=t + 1, E=e, drift=d, uncertainty=u)
            out.append(rec)
    return out


def _dyad_table(trans: Sequence[Mapping[str, Any]], conditions: Sequence[str], strata: Sequence[str],
                round_: int | None) -> dict[tuple, np.ndarray]:
    """stratum -> [dyads, conditions, 3] means (total, drift, uncertainty); only dyads
    with every condition."""
    acc: dict[tuple, dict[Any, dict[str, list]]] = {}
    for t in trans:
        if t["condition"] not in conditions or (round_ is not None and t["round"] != round_):
            continue
        s = tuple(t.get(k) for k in strata)
        acc.setdefault(s, {}).setdefault(t["game_id"], {}).setdefault(t["condition"], []).append(
            (t["E"], t["drift"], t["uncertainty"]))
    out = {}
    for s, dyads in acc.items():
        rows = [np.array([np.mean(d[c], axis=0) for c in conditions]) for d in dyads.values()
                if all(c in d for c in conditions)]
        if rows:
            out[s] = np.stack(rows)
    return out


def _estimate(table: dict[tuple, np.ndarray], weights: np.ndarray, n_resamples: int, confidence: float,
              rng: Any) -> dict[str, Any]:
    """A linear estimand sum_c w_c E_c (and its parts) over equally weighted strata, with
    the paired stratified bootstrap."""
    if not table:
        return {"total": None, "drift": None, "uncertainty": None, "ci": None, "p": None, "dyads": 0, "strata": 0}
    point = np.mean([np.einsum("c,dcq->dq", weights, x).mean(axis=0) for x in table.values()], axis=0)
    res: dict[str, Any] = {"total": float(point[0]), "drift": float(point[1]), "uncertainty": float(point[2]),
                           "dyads": int(sum(len(x) for x in table.values())), "strata": len(table)}
    if n_resamples <= 0:
        res.update(ci=None, p=None)
        return res
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    draws = np.zeros((n_resamples, 3))
    for x in table.values():
        per = np.einsum("c,dcq->dq", weights, x)  # [dyads, 3]
        idx = gen.integers(0, len(per), size=(n_resamples, len(per)))
        draws += per[idx].mean(axis=1)
    draws /= len(table)
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(draws[:, 0], [alpha, 1 - alpha])
    below, above = int(np.sum(draws[:, 0] <= 0)), int(np.sum(draws[:, 0] >= 0))
    res["ci"] = (float(lo), float(hi))
    # no sampling spread (one dyad a stratum): an interval but no test
    spread = not np.allclose(draws[:, 0], draws[0, 0], rtol=0, atol=1e-12)
    res["p"] = min(1.0, 2.0 * (1 + min(below, above)) / (1 + n_resamples)) if spread else None
    res["parts_ci"] = {q: tuple(float(v) for v in np.quantile(draws[:, i], [alpha, 1 - alpha]))
                       for i, q in enumerate(PARTS)}
    return res


def _check(n_resamples: Any, confidence: Any) -> None:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 0:
        raise ValueError(f"n_resamples must be an integer >= 0; got {n_resamples!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1); got {confidence!r}")


def condition_effects(rows: Iterable[Mapping[str, Any]], conditions: Sequence[str] | None = None, *,
                      reference: str = EXPERIMENT_1_REFERENCE, strata: Sequence[str] = ("stage_game", "framing"),
                      n_resamples: int = 10_000, confidence: float = 0.95, rng: Any = 42) -> dict[str, Any]:
    """``{condition: {"total": dS_c, "drift", "uncertainty", "ci", "p", "mean_E", "dyads", "strata"}}``
    with ``dS_c = E_reference - E_c`` (Eq. S5) for every condition in the rows (or
    ``conditions``) other than the reference. One bootstrap stream per condition, each
    drawn from ``rng`` in condition order."""
    _check(n_resamples, confidence)
    trans = transitions(rows)
    present = list(dict.fromkeys(t["condition"] for t in trans))
    if reference not in present:
        raise ValueError(f"no transitions under the reference condition {reference!r}")
    conds = [c for c in (conditions or present) if c != reference]
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    out = {}
    for c in conds:
        table = _dyad_table(trans, (reference, c), strata, None)
        est = _estimate(table, np.array([1.0, -1.0]), n_resamples, confidence, gen)
        mean = _estimate(table, np.array([0.0, 1.0]), 0, confidence, gen)
        est["mean_E"] = mean["total"]
        out[c] = est
    return out


def condition_contrast(rows: Iterable[Mapping[str, Any]], first: str, second: str, *,
                       strata: Sequence[str] = ("stage_game", "framing"), n_resamples: int = 10_000,
                       confidence: float = 0.95, rng: Any = 42) -> dict[str, Any]:
    """``E_second - E_first`` over the dyads with both (Table S7: positive values favour
    the first condition named, e.g. ``first="partner_message", second="partner_dummy"``)."""
    _check(n_resamples, confidence)
    table = _dyad_table(transitions(rows), (first, second), strata, None)
    return _estimate(table, np.array([-1.0, 1.0]), n_resamples, confidence, rng)


def history_message_interaction(rows: Iterable[Mapping[str, Any]], *, strata: Sequence[str] = ("stage_game", "framing"),
                                by_round: bool = False, n_resamples: int = 10_000, confidence: float = 0.95,
                                rng: Any = 42) -> dict[str, Any]:
    """Eq. S6, ``1/2 [(E_A,SP - E_A,MB) - (E_B,SP - E_B,MB)]``, with its drift and
    uncertainty parts (Figure S3) and the two conditional contrasts ``sp_minus_mb_after_A``
    and ``_after_B``; ``by_round``: also ``{"rounds": {t: estimate}}`` per transition
    ending round (the round profile)."""
    _check(n_resamples, confidence)
    trans = transitions(rows)
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    cells = EXPERIMENT_2_CELLS  # A/MB, A/SP, B/MB, B/SP
    table = _dyad_table(trans, cells, strata, None)
    if not table:
        raise ValueError(f"no dyad has transitions under all of {', '.join(cells)}")
    out = _estimate(table, np.array([-0.5, 0.5, 0.5, -0.5]), n_resamples, confidence, gen)
    out["sp_minus_mb_after_A"] = _estimate(table, np.array([-1.0, 1.0, 0.0, 0.0]), 0, confidence, gen)["total"]
    out["sp_minus_mb_after_B"] = _estimate(table, np.array([0.0, 0.0, -1.0, 1.0]), 0, confidence, gen)["total"]
    if by_round:
        out["rounds"] = {}
        for t in sorted({x["round"] for x in trans}):
            tab = _dyad_table(trans, cells, strata, t)
            if tab:
                out["rounds"][t] = _estimate(tab, np.array([-0.5, 0.5, 0.5, -0.5]), n_resamples, confidence, gen)
    return out


# --------------------------------------------------------------------------- testing families (A.5)


def _bh(estimates: Sequence[dict[str, Any]], alpha: float) -> None:
    """Benjamini-Hochberg over the estimates that have a p (in place: ``q``,
    ``significant``); the others get ``q`` None."""
    from .stats import benjamini_hochberg

    tested = [e for e in estimates if e.get("p") is not None]
    qs = benjamini_hochberg([e["p"] for e in tested]) if tested else []
    for e in estimates:
        e["q"], e["significant"] = None, False
    for e, q in zip(tested, qs):
        e["q"] = float(q)
        e["significant"] = bool(q < alpha)


def _by_model(rows: Iterable[Mapping[str, Any]], model: str) -> dict[Any, list[Mapping[str, Any]]]:
    out: dict[Any, list[Mapping[str, Any]]] = {}
    for i, r in enumerate(rows):
        if model not in r:
            raise ValueError(f"replay row {i} has no field {model!r} (the model of the testing family)")
        out.setdefault(r[model], []).append(r)
    return out


def experiment1_tests(rows: Iterable[Mapping[str, Any]], *, model: str = "policy",
                      conditions: Sequence[str] = EXPERIMENT_1_CONDITIONS,
                      contrasts: Sequence[tuple[str, str]] = SPECIFICITY_CONTRASTS, joint: bool = False,
                      strata: Sequence[str] = ("stage_game", "framing"), alpha: float = 0.05,
                      n_resamples: int = 10_000, confidence: float = 0.95, rng: Any = 42) -> dict[Any, dict[str, Any]]:
    """Experiment 1's testing families per model (the rows' ``model`` field):
    ``{model: {"conditions": {condition: estimate}, "contrasts": {(first, second):
    estimate}}}``, each estimate as :func:`condition_effects` / :func:`condition_contrast`
    give it plus ``q`` and ``significant`` (q < ``alpha``). Benjamini-Hochberg runs
    within model over the conditions, and separately over the contrasts (``joint``:
    all together). Conditions or contrasts absent from a model's rows are left out."""
    _check(n_resamples, confidence)
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    out: dict[Any, dict[str, Any]] = {}
    for name, mrows in sorted(_by_model(rows, model).items(), key=lambda kv: str(kv[0])):
        present = {r["condition"] for r in mrows}
        conds = [c for c in conditions if c in present]
        effects = condition_effects(mrows, conds, strata=strata, n_resamples=n_resamples, confidence=confidence,
                                    rng=gen) if conds else {}
        cons = {(a, b): condition_contrast(mrows, a, b, strata=strata, n_resamples=n_resamples,
                                           confidence=confidence, rng=gen)
                for a, b in contrasts if a in present and b in present}
        families = [list(effects.values()) + list(cons.values())] if joint else [list(effects.values()),
                                                                                  list(cons.values())]
        for fam in families:
            _bh(fam, alpha)
        out[name] = {"conditions": effects, "contrasts": cons}
    return out


def experiment2_tests(rows: Iterable[Mapping[str, Any]], *, model: str = "policy", game: str = "stage_game",
                      strata: Sequence[str] = ("stage_game", "framing"), alpha: float = 0.05,
                      n_resamples: int = 10_000, confidence: float = 0.95, rng: Any = 42) -> dict[str, Any]:
    """Experiment 2's two testing families: ``{"pooled": {model: estimate}, "by_game":
    {(model, game): estimate}}``, each :func:`history_message_interaction` over the
    model's rows (pooled: ``strata``; per game: the strata other than ``game``) plus
    ``q`` and ``significant``; Benjamini-Hochberg across the pooled model tests, and
    separately across every model x game test. A model or game without a dyad having
    all four cells is left out."""
    _check(n_resamples, confidence)
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    pooled: dict[Any, dict[str, Any]] = {}
    by_game: dict[tuple, dict[str, Any]] = {}
    inner = tuple(k for k in strata if k != game)
    for name, mrows in sorted(_by_model(rows, model).items(), key=lambda kv: str(kv[0])):
        try:
            pooled[name] = history_message_interaction(mrows, strata=strata, n_resamples=n_resamples,
                                                       confidence=confidence, rng=gen)
        except ValueError:  # no dyad with all four cells
            continue
        games: dict[Any, list[Mapping[str, Any]]] = {}
        for r in mrows:
            games.setdefault(r.get(game), []).append(r)
        for g, grows in sorted(games.items(), key=lambda kv: str(kv[0])):
            try:
                by_game[(name, g)] = history_message_interaction(grows, strata=inner, n_resamples=n_resamples,
                                                                 confidence=confidence, rng=gen)
            except ValueError:
                continue
    _bh(list(pooled.values()), alpha)
    _bh(list(by_game.values()), alpha)
    return {"pooled": pooled, "by_game": by_game}
