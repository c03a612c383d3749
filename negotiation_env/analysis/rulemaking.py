"""The rulemaking game's part in the analysis layer (seed 001): its report tables and
figure, its cells-listing columns, condition label and outcome tag, its viewer detail and
run-summary chart, as the :class:`~.hooks.GameAnalysis` the game's spec names
(``ANALYSIS``).

Rulemaking game (seed 001):

* ``rulemaking_table2``: Table 2, runs labelled C (compromise), S (consensus), A
  (authority decision) and D (deadlock) per family x condition x environment, with the
  agreement rate's two-sided 95% Wilson interval.
* ``rulemaking_cells``: one row per cell: counts, Wilson intervals, the plausibility
  screen verdict and its worst-case recode, the §6.3 certification beside its basis
  (recode flips, recoded agreements, the family's Ledger range), mean entropy with its
  bootstrap CI, exhaustion, concession-arc, softening and trajectory uniqueness
  (Figure 1's data).
* ``rulemaking_contrasts`` (when a family and environment has the Ledger and another
  condition): §5 "Statistics", Ledger against each other condition (Native first):
  one-sided Fisher exact p on agreements; for entropy and horizon exhaustion the
  two-sided permutation p on run-level means (10,000 shuffles) Holm-adjusted within the
  contrast, Cliff's delta and the bootstrap 95% CI of the difference
  (:func:`~.rulemaking_metrics.condition_contrasts`).
* ``rulemaking_relabelling``: Appendix B, the agreements of every cell under each of the
  3 x 3 compromise x consensus threshold pairs (the runs' stored sensitivity labels), with
  the plausibility screen's verdicts over the nine
  (:func:`~.rulemaking_metrics.threshold_relabelling`).
* The replication card (``report --card``, :meth:`RulemakingAnalysis.replication_card`):
  the §7 scripted baseline's agreements and softening per policy
  (:mod:`negotiation_env.games.rulemaking.card`) beside the run's E1 cells of the same
  scripted population, each with a two-sided Fisher exact test against the paper's 15
  runs.
* ``rulemaking_provenance``: Table 3's audit, genuine, retried and fallback turns per cell
  and their shares of the cell's turns, counted turn by turn
  (:func:`~.rulemaking_metrics.provenance_audit`).

"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Sequence

from .cards import Observed, Published, ReplicationCard, judge, not_comparable
from .cells import lineup, rulemaking_cell
from .cells import usable as _usable
from .hooks import Figure, GameAnalysis, ReportSection
from .rulemaking_metrics import (AGREEMENT, PERMUTATIONS, cell_summary, condition_contrasts, provenance_audit,
                                 threshold_key, threshold_relabelling)
from .stats import OUTCOMES, plausibility_screen, wilson_interval
from .tables import Table
from .viewer import _events, _fold, _kv_table, esc
from ..games.rulemaking.spec import NAME as GAME

__all__ = ["rulemaking_tables", "rulemaking_card", "RulemakingAnalysis", "ANALYSIS", "RESAMPLES"]

#: bootstrap resamples of the rulemaking intervals (the rulemaking paper gives no number)
RESAMPLES = 2000
_LABEL_CODES = {"compromise": "C", "consensus": "S", "authority": "A", "deadlock": "D"}
#: the run-summary chart's colour of each outcome
OUTCOME_COLOURS = {"compromise": "#4c9f70", "consensus": "#2f6fab", "authority": "#d9a441", "deadlock": "#c62828"}




def _cond_key(c: str) -> tuple[int, str]:
    from ..games.rulemaking.features import CONDITIONS

    return (CONDITIONS.index(c), c) if c in CONDITIONS else (len(CONDITIONS), c)


def rulemaking_tables(traces: Iterable[Any], *, n_resamples: int = 2000,
                      n_permutations: int = PERMUTATIONS) -> tuple[list[Table], list[dict[str, Any]]]:
    """Seed 001 Table 2, the per-cell summary and (where the traces hold the Ledger and
    another condition of one family and environment) the §5 contrasts; plus Figure 1's
    points. ``n_resamples``: bootstrap resamples; ``n_permutations``: shuffles per
    permutation test (the paper's 10,000)."""
    games, _ = _usable(traces, GAME)
    if not games:
        return [], []
    by_cell: dict[Any, list[dict[str, Any]]] = {}
    for g in games:
        by_cell.setdefault(rulemaking_cell(g), []).append(g["rounds"][0]["outcome"])
    envs = sorted({c.environment for c in by_cell})
    rows_keys = sorted({(c.family, c.condition) for c in by_cell}, key=lambda fc: (fc[0], _cond_key(fc[1])))
    # §6.3's certification compares a cell's recode with its family's Ledger cells
    ledger_agreements = {c: (sum(o["label"] in AGREEMENT for o in outs), len(outs))
                         for c, outs in by_cell.items() if c.condition == "ledger"}

    def ledger_of(cell: Any) -> list[tuple[int, int]]:
        return [kn for c, kn in ledger_agreements.items() if c.family == cell.family and c != cell]

    summaries = {c: cell_summary(o, ledger=ledger_of(c), n_resamples=n_resamples, rng=0) for c, o in sorted(
        by_cell.items(), key=lambda kv: (kv[0].environment, kv[0].family, _cond_key(kv[0].condition)))}

    cols, fmts = ["Family", "Cond."], ["text", "text"]
    for e in envs:
        cols += [f"{e} {code}" for code in _LABEL_CODES.values()] + [f"{e} n", f"{e} agreement 95% CI"]
        fmts += ["int"] * 5 + ["ci"]
    rows = []
    for fam, cond in rows_keys:
        row: list[Any] = [fam, cond]
        for e in envs:
            s = next((v for c, v in summaries.items() if (c.environment, c.family, c.condition) == (e, fam, cond)), None)
            if s is None:
                row += [None] * 6
            else:
                row += [s["counts"][k] for k in _LABEL_CODES] + [s["runs"], s["agreement_ci"]]
        rows.append(row)
    t2 = Table("rulemaking_table2", "Table 2 layout: how every cell ends (C compromise, S consensus, A authority "
               "decision, D deadlock)", cols, rows, fmts,
               ["Agreement = C + S; the interval is the two-sided 95% Wilson score interval of the agreement rate."])

    cols = ["Environment", "Family", "Condition", "Runs"] + [_LABEL_CODES[k] for k in OUTCOMES] + [
        "Agreements", "Agreement rate", "Agreement 95% CI", "Non-agreement Wilson lower", "Screen verdict",
        "Worst-case verdict", "Recode flips", "Recoded agreements", "Ledger range", "Certified",
        "Certification basis", "Mean entropy", "Entropy 95% CI", "Horizon exhaustion",
        "Concession arc", "Softening", "Trajectory uniqueness", "Genuine share"]
    fmts = ["text", "text", "text", "int"] + ["int"] * 4 + ["int", "num", "ci", "num", "text", "text", "int", "text",
                                                             "text", "text", "text", "num", "ci", "num", "num", "num",
                                                             "num", "num"]
    rows, points = [], []
    for c, s in summaries.items():
        screen = plausibility_screen(s["counts"])
        rows.append([c.environment, c.family, c.condition, s["runs"]] + [s["counts"][k] for k in OUTCOMES] + [
            s["agreements"], s["agreement_rate"], s["agreement_ci"], screen["non_agreement_lower"], s["verdict"],
            s["worst_case_verdict"], s["flips"], f"{s['worst_case_agreements']}/{s['runs']} "
            f"(upper {s['worst_case_upper']:.2f})", _ledger_range_text(s), _CERTIFIED[s["certified"]],
            s["certification"], s["entropy_mean"], s["entropy_ci"],
            s["horizon_exhaustion_rate"], s["concession_arc_rate"], s["softening_rate"],
            s["trajectory_uniqueness"], s["genuine_share"]])
        points.append({"environment": c.environment, "family": c.family, "condition": c.condition,
                       "entropy_mean": s["entropy_mean"], "agreement_rate": s["agreement_rate"],
                       "agreement_ci": s["agreement_ci"], "runs": s["runs"]})
    cells = Table("rulemaking_cells", "Rulemaking cells: outcome, screen and process measures (seed 001 §5-§6, "
                  "Figure 1 data)", cols, rows, fmts,
                  ["Screen: the two-sided plausibility screen (negotiation_env.analysis.stats.plausibility_screen). "
                   "Recode: every non-genuine turn recoded to Concede and the record played by the ending rule; "
                   "flips: runs without agreement whose recode agrees; recoded agreements with the Wilson 95% "
                   "upper bound. Certified (seed 001 §6.3, rulemaking_metrics.certification), for a cell failing "
                   "the screen from below: no flips, or the recoded agreements' Wilson interval wholly below that "
                   "of the family's lowest Ledger cell (upper < its lower bound; the Ledger range is the family's "
                   "Ledger cells over every environment, the lowest first); n/a with flips and no Ledger cell. "
                   "Entropy: mean normalised action entropy per run with a percentile bootstrap CI (seed 0)."])
    contrasts = _rulemaking_contrasts(by_cell, n_resamples=n_resamples, n_permutations=n_permutations)
    audits = [_rulemaking_relabelling(by_cell), _rulemaking_provenance(by_cell)]
    return [t2, cells] + ([contrasts] if contrasts is not None else []) + audits, points


_CERTIFIED = {True: "yes", False: "no", None: "n/a"}


def _ledger_range_text(s: Mapping[str, Any]) -> str:
    """The Ledger range a cell's certification compares with: lowest (with its Wilson
    lower bound) to highest agreement count, or a dash without a Ledger cell."""
    if s["ledger_range"] is None:
        return "-"
    (k0, n0), (k1, n1) = s["ledger_range"]
    return f"{k0}/{n0} (lower {s['ledger_lower']:.2f}) to {k1}/{n1}"


def _p_text(p: float) -> str:
    # the paper quotes p-values down to 1e-9 (p <= 8.8e-7): two significant digits, not "<0.001"
    return f"{p:.2g}"


def _rulemaking_contrasts(by_cell: Mapping[Any, list[dict[str, Any]]], *, n_resamples: int,
                          n_permutations: int) -> Table | None:
    groups: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}
    for c, outs in by_cell.items():
        groups.setdefault((c.environment, c.family), {})[c.condition] = outs
    cols = ["Environment", "Family", "Contrast", "Ledger agreements", "Other agreements", "Fisher one-sided p",
            "Ledger mean entropy", "Other mean entropy", "Entropy difference 95% CI", "Entropy p (Holm)",
            "Entropy Cliff's delta", "Ledger exhaustion", "Other exhaustion", "Exhaustion difference 95% CI",
            "Exhaustion p (Holm)", "Exhaustion Cliff's delta"]
    fmts = ["text"] * 6 + ["num", "num", "ci", "text", "num", "num", "num", "ci", "text", "num"]
    rows, data = [], []
    for (env, fam) in sorted(groups):
        conds = {k: groups[(env, fam)][k] for k in sorted(groups[(env, fam)], key=_cond_key)}
        for other, r in condition_contrasts(conds, "ledger", n_resamples=n_permutations, rng=0,
                                            n_bootstrap=n_resamples).items():
            ps = [r["fisher_p"], r["entropy_p_holm"], r["exhaustion_p_holm"]]
            row = [env, fam, f"ledger vs {other}", f"{r['agreements_a']}/{r['runs_a']}",
                   f"{r['agreements_b']}/{r['runs_b']}", ps[0], r["entropy_mean_a"], r["entropy_mean_b"],
                   r["entropy_diff_ci"], ps[1], r["entropy_cliffs_delta"], r["exhaustion_mean_a"],
                   r["exhaustion_mean_b"], r["exhaustion_diff_ci"], ps[2], r["exhaustion_cliffs_delta"]]
            data.append(row)
            rows.append([_p_text(v) if i in (5, 9, 14) else v for i, v in enumerate(row)])
    if not rows:
        return None
    data_fmts = [("p" if i in (5, 9, 14) else f) for i, f in enumerate(fmts)]
    return Table("rulemaking_contrasts", "Ledger against the other conditions per family and environment "
                 "(seed 001 §5 Statistics)", cols, rows, fmts,
                 ["Fisher: one-sided exact test that the Ledger agrees more often (unadjusted, as in the paper). "
                  f"Entropy, exhaustion: two-sided permutation tests on run-level means ({n_permutations:,} "
                  "shuffles, seed 0), Holm-adjusted over the two measures of each contrast; Cliff's delta is "
                  "Ledger over the other condition; the CI is the percentile bootstrap of the difference of "
                  "means (Ledger minus other)."],
                 data=Table("rulemaking_contrasts", "", cols, data, data_fmts))


def _cell_order(by_cell: Mapping[Any, Any]) -> list[Any]:
    return sorted(by_cell, key=lambda c: (c.environment, c.family, _cond_key(c.condition)))


def _rulemaking_relabelling(by_cell: Mapping[Any, list[dict[str, Any]]]) -> Table:
    grids = {c: threshold_relabelling(by_cell[c]) for c in _cell_order(by_cell)}
    keys = sorted({k for g in grids.values() for k in g}, key=threshold_key)
    cols = ["Environment", "Family", "Condition", "Runs", "Agreements as run"] + keys + [
        "Agreements range", "Screen verdicts"]
    fmts = ["text", "text", "text", "int", "int"] + ["int"] * len(keys) + ["text", "text"]
    rows = []
    for c, grid in grids.items():
        outs = by_cell[c]
        agree = {k: grid[k]["compromise"] + grid[k]["consensus"] for k in keys if k in grid}
        verdicts = sorted({plausibility_screen(grid[k])["verdict"] for k in grid})
        low, high = (min(agree.values()), max(agree.values())) if agree else (None, None)
        rows.append([c.environment, c.family, c.condition, len(outs),
                     sum(o["label"] in ("compromise", "consensus") for o in outs)]
                    + [agree.get(k) for k in keys]
                    + [None if low is None else f"{low}–{high}", ", ".join(verdicts) or None])
    return Table("rulemaking_relabelling", "Threshold relabelling: agreements under each compromise x consensus "
                 "threshold pair (seed 001 Appendix B)", cols, rows, fmts,
                 ["Each run's record relabelled by the outcome classifier under every pair KxS of the 3 x 3 grid "
                  "(K = compromise_parties in {1, 2, 3}, S = consensus_share in {0.6, 0.8, 1.0}; the runs' stored "
                  "outcome.sensitivity labels); an entry counts the cell's runs labelled compromise or consensus "
                  "under that pair. 'Agreements as run' counts the labels at the run's own thresholds (2x0.8 by "
                  "default). Screen verdicts: the plausibility screen's verdicts over the nine relabelled "
                  "outcome distributions (one verdict: no pair changes the cell's conclusion). A run ended early "
                  "by agreement is relabelled on the record as played, which stopped at its own thresholds."])


def _rulemaking_provenance(by_cell: Mapping[Any, list[dict[str, Any]]]) -> Table:
    cols = ["Environment", "Family", "Condition", "Runs", "Turns", "Genuine", "Retried", "Fallback", "Genuine %",
            "Non-genuine %", "Fallback %", "Runs with a fallback"]
    fmts = ["text", "text", "text"] + ["int"] * 5 + ["pct"] * 3 + ["int"]
    rows = []
    for c in _cell_order(by_cell):
        a = provenance_audit(by_cell[c])
        rows.append([c.environment, c.family, c.condition, a["runs"], a["turns"], a["genuine"], a["retried"],
                     a["fallback"], a["genuine_share"], a["non_genuine_share"], a["fallback_share"],
                     a["runs_with_fallback"]])
    return Table("rulemaking_provenance", "Provenance audit: genuine, retried and fallback turns per cell "
                 "(seed 001 §6.3, Table 3)", cols, rows, fmts,
                 ["Counted turn by turn: each share is of all the cell's recorded turns (pooled over its runs), "
                  "not a mean of per-run shares, so long runs weigh more (the 'Genuine share' of rulemaking_cells "
                  "is the mean of per-run shares). Genuine: a valid answer at the first attempt; retried: valid "
                  "after a re-prompt; fallback: no valid answer after every retry, Oppose recorded by the harness. "
                  "Non-genuine = retried + fallback."])



# --------------------------------------------------------------------------- replication card


def _family_key(family: str) -> str:
    """A population's label as the card matches it: without a ``scripted:`` prefix."""
    return family.removeprefix("scripted:")


def rulemaking_card(traces: Iterable[Any]) -> ReplicationCard:
    """The §7 scripted-baseline card (:mod:`negotiation_env.games.rulemaking.card`): for
    each published number, the run's counted runs of the same environment, condition and
    scripted population, their count with its Wilson 95% interval, and the verdict
    (:func:`~.cards.judge`: the two-sided Fisher exact test against the paper's count)."""
    from ..games.rulemaking import card

    games, _ = _usable(traces, GAME)
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for g in games:
        c = rulemaking_cell(g)
        cells.setdefault((c.environment.split(" ")[0], c.condition, _family_key(c.family)), []).append(
            g["rounds"][0]["outcome"])
    lines = []
    for d in card.published():
        pub = Published(**d)
        env, cond, family = pub.get("environment"), pub.get("condition"), pub.get("family")
        outs = cells.get((env, cond, family))
        if not outs:
            elsewhere = sorted(f"{e}/{c}" for (e, c, f) in cells if f == family)
            if elsewhere:
                why = (f"condition absent: the run plays the {family} population only in "
                       f"{', '.join(elsewhere)}; the paper's row is {env}/{cond}")
            else:
                families = sorted({f for (_e, _c, f) in cells})
                why = (f"policy absent: no {family} population in the run (its populations: "
                       f"{', '.join(families) or 'none'})")
                if family == "mixed":
                    why += ("; the paper's mixed population draws each seat's policy per run, which a run's fixed "
                            "lineups do not")
            lines.append(not_comparable(pub, why))
            continue
        if pub.get("outcome") == "softening":
            k = sum(bool({"Support", "Concede"} & set(o.get("trajectory") or ())) for o in outs)
        else:
            k = sum(o["label"] in AGREEMENT for o in outs)
        lines.append(judge(pub, Observed(k / len(outs), len(outs), wilson_interval(k, len(outs)), k,
                                         "Wilson score")))
    return ReplicationCard(GAME, card.PAPER, lines, [
        "This run's figure: the counted runs of the row's environment, condition and scripted population "
        "(family, a 'scripted:' prefix ignored), pooled over every seed of the run."])


# --------------------------------------------------------------------------- viewer


def _rulemaking_detail(t: Mapping[str, Any]) -> str:
    labels = dict(zip(t.get("agents") or [], lineup(t)))
    rows = []
    for st in t.get("steps") or []:
        p = st.get("parsed") if isinstance(st.get("parsed"), Mapping) else None
        if p is not None and st.get("valid", True):
            prov = str(p.get("provenance", ""))
            cls = "" if prov == "genuine" else ("fallback" if prov == "fallback" else "retried")
            rows.append(f'<tr class="turn {cls}"><td>{esc(p.get("turn"))}</td><td>{esc(st.get("agent"))}'
                        f' <small>{esc(labels.get(st.get("agent")))}</small></td><td><b>{esc(p.get("move"))}</b></td>'
                        f'<td>{esc(p.get("issue") or "")}</td><td class="speech">{esc(p.get("rationale"))}'
                        f'{_events(st)}</td><td><span class="badge prov-{esc(prov)}">{esc(prov)}</span></td></tr>')
        else:
            rows.append(f'<tr class="turn invalid"><td></td><td>{esc(st.get("agent"))}</td>'
                        f'<td colspan="3">{_events(st)}{_fold("raw answer", st.get("action"), "raw")}</td>'
                        f'<td><span class="badge bad">refused (attempt {esc(st.get("attempt"))})</span></td></tr>')
    turns = ('<table class="turns"><tr><th>turn</th><th>party</th><th>move</th><th>issue</th><th>rationale</th>'
             "<th>provenance</th></tr>" + "".join(rows) + "</table>")
    rounds = t.get("rounds") or []
    if not rounds:
        return turns + '<p class="note">the run has no outcome (not finished)</p>'
    o = rounds[0].get("outcome") or {}
    pairs = [("label", f'<b>{esc(o.get("label"))}</b>'), ("worst-case recode", esc(o.get("worst_case_label"))),
             ("certified", esc(o.get("certified"))), ("turns", esc(o.get("turns"))),
             ("entropy", f"{float(o.get('entropy') or 0):.3f}"), ("horizon exhausted", esc(o.get("horizon_exhausted"))),
             ("concession arc", esc(o.get("concession_arc"))),
             ("provenance", esc(json.dumps(o.get("provenance"), sort_keys=True))),
             ("moves", esc(json.dumps(o.get("move_counts"), sort_keys=True))),
             ("exited", esc(", ".join(o.get("exited") or []) or "none"))]
    return turns + '<div class="outcome"><h4>Run outcome</h4>' + _kv_table(pairs) + "</div>"




# --------------------------------------------------------------------------- the hooks


class RulemakingAnalysis(GameAnalysis):
    """The rulemaking game's analysis hooks (module docstring)."""

    resamples = RESAMPLES
    chart_caption = "outcomes of the kept runs (share of runs)"
    chart_kind = "stacked"
    chart_legend = OUTCOME_COLOURS
    headline_label = "C / S / A / D"
    summary_note = "C / S / A / D: compromise, consensus, authority decision, deadlock runs among the kept runs"
    headline_tables = ("rulemaking_table2", "rulemaking_cells")

    def condition_label(self, trace: Mapping[str, Any]) -> str:
        c = rulemaking_cell(trace)
        return f"{c.environment} | {c.condition}"

    def outcome_tags(self, trace: Mapping[str, Any]) -> list[str]:
        """The run's outcome label."""
        rounds = trace.get("rounds") or []
        if rounds and isinstance(rounds[0].get("outcome"), Mapping) and rounds[0]["outcome"].get("label"):
            return [str(rounds[0]["outcome"]["label"])]
        return []

    def cell_fields(self, trace: Mapping[str, Any]) -> dict[str, Any]:
        r = rulemaking_cell(trace)
        return {"environment": r.environment, "condition": r.condition, "pairing": r.family}

    def left_out(self, traces: Sequence[Mapping[str, Any]]) -> list[str]:
        return _usable(traces, GAME)[1]

    def report(self, traces: Sequence[Mapping[str, Any]], *, n_resamples: int | None, include_fallbacks: bool,
               labels: Mapping[str, Mapping[str, Any]] | None) -> ReportSection:
        tables, points = rulemaking_tables(traces, n_resamples=RESAMPLES if n_resamples is None else n_resamples)
        return ReportSection(tables=tables, figures=[
            Figure("fig_rulemaking_entropy_agreement.png", "plot_rulemaking", points)])

    def replication_card(self, traces: Sequence[Mapping[str, Any]]) -> ReplicationCard:
        return rulemaking_card(traces)

    def detail_html(self, trace: Mapping[str, Any]) -> str:
        return _rulemaking_detail(trace)

    def headline(self, group: Sequence[Mapping[str, Any]], figures: Mapping[str, Any]) -> dict[str, Any]:
        from ..games.rulemaking.classifier import OUTCOMES as LABELS

        return {"measure": "outcomes", "value": {k: int(figures.get(k) or 0) for k in LABELS}}


ANALYSIS = RulemakingAnalysis()
