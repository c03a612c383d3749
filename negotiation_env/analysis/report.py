"""The papers' tables and figures from a folder of traces: ``negotiation-env report DIR``.

Reads traces only (:func:`negotiation_env.traces.read_traces`) and writes, for whatever
games they hold, each table as Markdown and CSV, the figures as PNG, ``cells.csv`` (every
game with the cell it was counted in) and ``report.md`` (all tables and figures in one
page). Cells are defined in :mod:`.cells`; the metrics are those of
:mod:`.resource_metrics` (pooled over rounds, :func:`~.resource_metrics.pooled_metrics`)
and :mod:`.rulemaking_metrics` (:func:`~.rulemaking_metrics.cell_summary`).

Only games that ended normally (``status == "complete"``) with at least one resolved
round are counted, and none whose model calls ran out of retries
(``meta.model_calls.degraded``: the env scored a fallback there, so the game is not the
model's play, as the papers exclude error-marked games); the others are listed in the
report's notes.

Resource game (seed 000), talk games unless said otherwise; rows are pairings
(self-play first), and ``variant`` (transparency, interventions, ...) splits rows when
the traces hold more than the main cohort:

* ``resource_summary``: the §5 headline figures per M/C level and overall.
* ``resource_table3``: Table 3, Overdraw / Efficiency / Optimum (%) per pairing x M/C.
* ``resource_table4``: Table 4, payoff alternation, sustained 4-round alternation,
  win-stay, lose-shift per pairing, non-rotating games only.
* ``resource_process``: §5.4-5.6 process rates per pairing (early decision, equal split and
  its suboptimal share, perfunctory fairness, repeats and repeats after overdraw, stubborn
  anchoring, proposals and their median turn, deference over all rounds and in round 1 of
  non-rotating games with its suboptimal / optimal parts, abandonment).
* ``resource_process_models``: §5.4-5.5 per model: equal split, perfunctory fairness,
  compliance with the first other-directed proposals addressed to it.
* ``resource_anchoring``: §5.5 repeats and stubborn anchoring per partner stability x M/C.
* ``resource_table10``: Table 10, talk / no-talk per pairing x partner stability x M/C
  (only when the traces hold no-talk games).
* ``resource_stability``: Figure 4's data, stable / shifting per pairing x M/C.

Rulemaking game (seed 001):

* ``rulemaking_table2``: Table 2, runs labelled C (compromise), S (consensus), A
  (authority decision) and D (deadlock) per family x condition x environment, with the
  agreement rate's two-sided 95% Wilson interval.
* ``rulemaking_cells``: one row per cell: counts, Wilson intervals, the plausibility
  screen verdict and its worst-case recode, mean entropy with its bootstrap CI,
  exhaustion, concession-arc, softening and trajectory uniqueness (Figure 1's data).
* ``rulemaking_contrasts`` (when a family and environment has the Ledger and another
  condition): §5 "Statistics", Ledger against each other condition (Native first):
  one-sided Fisher exact p on agreements; for entropy and horizon exhaustion the
  two-sided permutation p on run-level means (10,000 shuffles) Holm-adjusted within the
  contrast, Cliff's delta and the bootstrap 95% CI of the difference
  (:func:`~.rulemaking_metrics.condition_contrasts`).

Matrix game (seed 002; metrics of :mod:`.matrix_metrics`), rows are policy pairings x
stage games:

* ``matrix_table1``: Table 1, switching without and with talk, ΔS with its stratified
  dyad-bootstrap CI and permutation p over dyads, and the Benjamini-Hochberg symbol of
  every framing cell (``n/a`` and no p or CI where the dyads are too few to test).
* ``matrix_outcomes``: Appendix A.1-A.2 per treatment: switching, period-two adherence,
  action-A rate, payoff per agent per round, joint outcomes.
* ``matrix_outcome_effects`` / ``matrix_outcome_effects_by_game``: A.1 Tables S2 / S1,
  action-A rate and payoff per agent per round without and with talk, their difference
  (message minus no message) and its 95% dyad-bootstrap CI.
* ``matrix_alternation``: A.2 Table S4 (no-talk dyads): agents switching 9/9 and at least
  8/9, median [IQR] period-two adherence, and for Snowdrift and Harmony the dyads whose
  agents both switch 9/9, in phase and antiphase.
* ``matrix_sensitivity``: A.3, the complete-case and all-available-transition analyses
  side by side, with how many corrected classifications differ.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .cells import as_dict, condition_label, lineup, matrix_cell, outcome_tags, resource_cell, rulemaking_cell
from .cells import mc_text as _mc_text
from .resource_metrics import model_metrics, pooled_metrics
from .rulemaking_metrics import PERMUTATIONS, cell_summary, condition_contrasts
from .stats import OUTCOMES, plausibility_screen

__all__ = ["Table", "Report", "resource_tables", "rulemaking_tables", "matrix_tables", "cells_table",
           "build_report", "report_run", "DEFAULT_OUT"]

DEFAULT_OUT = "report"
_DASH = "–"
_LABEL_CODES = {"compromise": "C", "consensus": "S", "authority": "A", "deadlock": "D"}
_PAIRS = ("ci", "pct_ci")


# --------------------------------------------------------------------------- tables


@dataclass
class Table:
    """A table with raw values. ``formats`` per column: ``text``, ``int``, ``pct``
    (a fraction shown as a percentage with one decimal), ``num`` (two decimals),
    ``ci`` (a (low, high) pair; two CSV columns), ``pct_ci`` (a pair of fractions shown
    in percent with one decimal; two CSV columns of fractions), ``p`` (a p-value: three
    decimals, ``<0.001`` below). ``data`` is the table written to CSV
    when the Markdown layout differs (e.g. ``talk / no-talk`` in one cell)."""

    name: str
    title: str
    columns: list[str]
    rows: list[list[Any]]
    formats: list[str]
    notes: list[str] = field(default_factory=list)
    data: "Table | None" = None

    def __post_init__(self):
        if len(self.formats) != len(self.columns):
            raise ValueError(f"table {self.name}: {len(self.columns)} columns but {len(self.formats)} formats")
        for r in self.rows:
            if len(r) != len(self.columns):
                raise ValueError(f"table {self.name}: a row has {len(r)} cells, expected {len(self.columns)}")

    def column(self, name: str) -> list[Any]:
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def row(self, match: Mapping[str, Any] | None = None, **kw: Any) -> list[Any]:
        """The single row whose named columns hold the given values."""
        match = {**(match or {}), **kw}
        idx = {k: self.columns.index(k) for k in match}
        found = [r for r in self.rows if all(r[i] == match[k] for k, i in idx.items())]
        if len(found) != 1:
            raise KeyError(f"table {self.name}: {len(found)} rows match {match}")
        return found[0]

    def value(self, column: str, match: Mapping[str, Any] | None = None, **kw: Any) -> Any:
        return self.row(match, **kw)[self.columns.index(column)]

    def markdown(self) -> str:
        out = [f"### {self.title}", ""]
        out.append("| " + " | ".join(_md(c) for c in self.columns) + " |")
        out.append("| " + " | ".join("---" if f == "text" else "---:" for f in self.formats) + " |")
        for r in self.rows:
            out.append("| " + " | ".join(_md(_fmt(v, f)) for v, f in zip(r, self.formats)) + " |")
        if not self.rows:
            out.append("| " + " | ".join(_DASH for _ in self.columns) + " |")
        if self.notes:
            out.append("")
            out.extend(self.notes)
        return "\n".join(out) + "\n"

    def csv_text(self) -> str:
        t = self.data or self
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        header: list[str] = []
        for c, f in zip(t.columns, t.formats):
            header.extend([f"{c} low", f"{c} high"] if f in _PAIRS else [c])
        w.writerow(header)
        for r in t.rows:
            cells: list[Any] = []
            for v, f in zip(r, t.formats):
                if f in _PAIRS:
                    cells.extend(["", ""] if v is None else [_csv(v[0]), _csv(v[1])])
                else:
                    cells.append(_csv(v))
            w.writerow(cells)
        return buf.getvalue()


def _md(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def _csv(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "" if not math.isfinite(v) else f"{v:.6g}"
    return v


def _fmt(v: Any, f: str) -> str:
    if v is None:
        return _DASH
    if isinstance(v, str):
        return v
    if f == "pct":
        return f"{100 * v:.1f}"
    if f == "num":
        return f"{v:.2f}"
    if f == "ci":
        return f"[{v[0]:.2f}, {v[1]:.2f}]"
    if f == "pct_ci":
        return f"[{100 * v[0]:.1f}, {100 * v[1]:.1f}]"
    if f == "p":
        return "<0.001" if v < 0.001 else f"{v:.3f}"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


@dataclass
class Report:
    """What :func:`build_report` produced: the tables, the figure files, every file it
    wrote, and notes (games left out, sections skipped)."""

    tables: list[Table] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(f"no table {name!r}; tables: {', '.join(t.name for t in self.tables)}")


# --------------------------------------------------------------------------- selection


def _usable(traces: Iterable[Any], game: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Complete traces of ``game`` with resolved rounds, and ids of those left out."""
    keep, left = [], []
    for t in traces:
        d = as_dict(t)
        if d.get("game") != game:
            continue
        if ((d.get("meta") or {}).get("model_calls") or {}).get("degraded"):
            left.append(f"{d.get('game_id')} (degraded: a model call ran out of retries)")
        elif d.get("status", "complete") == "complete" and d.get("rounds"):
            keep.append(d)
        else:
            left.append(f"{d.get('game_id')} ({d.get('status')})")
    return keep, left


def _mc_key(mc: float | None) -> tuple[int, float]:
    return (1, 0.0) if mc is None else (0, mc)


def _pairing_order(cells: Iterable[Any]) -> list[str]:
    pairs = {(c.pairing, c.self_play) for c in cells}
    return [p for p, _ in sorted(pairs, key=lambda x: (not x[1], x[0]))]


def _pool(games: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    return pooled_metrics(games) if games else None


def _get(m: Mapping[str, Any] | None, key: str) -> Any:
    return None if m is None else m.get(key)


# --------------------------------------------------------------------------- resource


def resource_tables(traces: Iterable[Any]) -> tuple[list[Table], dict[str, Any]]:
    """The resource-game tables and the data the figures plot."""
    games, _ = _usable(traces, "resource")
    if not games:
        return [], {}
    cells = [resource_cell(g) for g in games]
    rows_all = list(zip(cells, games))
    talk = [(c, g) for c, g in rows_all if c.talk]
    notalk = [(c, g) for c, g in rows_all if not c.talk]
    variants = sorted({c.variant for c, _ in rows_all})
    show_variant = variants != [""]
    mcs = sorted({c.mc for c, _ in rows_all}, key=_mc_key)
    pairings = _pairing_order(c for c, _ in rows_all)
    self_play = {c.pairing: c.self_play for c, _ in rows_all}

    def select(rows, **kw) -> list[dict[str, Any]]:
        return [g for c, g in rows if all(getattr(c, k) == v for k, v in kw.items())]

    def lead(pairing: str, variant: str) -> list[Any]:
        kind = "all" if pairing == "All" else ("self-play" if self_play[pairing] else "cross-play")
        return [pairing, kind] + ([variant or "main"] if show_variant else [])

    lead_cols = ["Pairing", "Type"] + (["Variant"] if show_variant else [])
    lead_fmt = ["text"] * len(lead_cols)
    tables: list[Table] = []

    # §5 headline figures
    rows = []
    for mc in mcs + ["All"]:
        sub = [g for c, g in talk if mc == "All" or c.mc == mc]
        if not sub:
            continue
        m = pooled_metrics(sub)
        stable = [g for c, g in talk if (mc == "All" or c.mc == mc) and c.partner == "stable"]
        ms = _pool(stable)
        rows.append(["All" if mc == "All" else _mc_text(mc), m["games"], m["rounds"], m["overdraw_rate"],
                     m["efficiency"], m["optimum_rate"], m["games_with_optimal_round"],
                     _get(ms, "mean_rounds_to_first_optimum"), m["positive_after_overdraw"]])
    if rows:
        tables.append(Table(
            "resource_summary", "Resource game: headline outcome figures (seed 000 §5), talk games",
            ["M/C", "Games", "Rounds", "Overdraw %", "Efficiency %", "Optimum %", "Games with an optimal round %",
             "Rounds to first optimum (stable)", "Positive after overdraw %"],
            rows, ["text", "int", "int", "pct", "pct", "pct", "pct", "num", "pct"],
            ["Overdraw, efficiency and optimum are pooled over rounds; rounds to first optimum is the mean over "
             "stable-partner games that reached one; positive after overdraw is the share of rounds right "
             "after an overdrawn round with joint reward > 0."]))

    # Table 3
    cols = list(lead_cols)
    fmts = list(lead_fmt)
    for mc in mcs:
        cols += [f"M/C {_mc_text(mc)} Overdraw %", f"M/C {_mc_text(mc)} Efficiency %",
                 f"M/C {_mc_text(mc)} Optimum %", f"M/C {_mc_text(mc)} games"]
        fmts += ["pct", "pct", "pct", "int"]
    rows = []
    for variant in variants:
        for p in pairings + ["All"]:
            sub = [(c, g) for c, g in talk if c.variant == variant and (p == "All" or c.pairing == p)]
            if not sub:
                continue
            row = lead(p, variant)
            for mc in mcs:
                m = _pool([g for c, g in sub if c.mc == mc])
                row += [_get(m, "overdraw_rate"), _get(m, "efficiency"), _get(m, "optimum_rate"),
                        _get(m, "games") or 0]
            rows.append(row)
    if rows:
        tables.append(Table(
            "resource_table3", "Table 3 layout: self-play vs. cross-play performance by M/C (talk games)",
            cols, rows, fmts,
            ["Overdraw (%): rounds with a supply violation; Efficiency (%): joint reward / joint optimum M, "
             "mean over rounds; Optimum (%): rounds reaching M. All partner stabilities and rotations pooled."]))

    # Table 4
    fixed = [(c, g) for c, g in talk if c.rotation == "fixed"]
    rows = []
    for variant in variants:
        for p in pairings + ["All"]:
            sub = [g for c, g in fixed if c.variant == variant and (p == "All" or c.pairing == p)]
            if not sub:
                continue
            m = pooled_metrics(sub)
            rows.append(lead(p, variant) + [m["games"], m["payoff_alternation"], m["sustained_alternation"],
                                            m["win_stay"], m["lose_shift"]])
    if rows:
        tables.append(Table(
            "resource_table4", "Table 4 layout: game-strategy rates across repeated rounds (non-rotating talk games)",
            lead_cols + ["Games", "Payoff alternation %", "Sustained alternation %", "Win-stay %", "Lose-shift %"],
            rows, lead_fmt + ["int", "pct", "pct", "pct", "pct"],
            ["Payoff alternation: adjacent round pairs where the higher-reward agent flips (a pair with an equal-"
             "reward round does not flip); sustained: 4-round windows alternating A B A B; win-stay: joint "
             "allocation repeated after a "
             "non-overdrawn round; lose-shift: changed after a non-optimal round (Appendix E)."]))

    # process metrics
    keys = [("early_decision_rate", "Early decision %", "pct"), ("equal_split_rate", "Equal split %", "pct"),
            ("equal_split_suboptimal_share", "Equal splits suboptimal %", "pct"),
            ("perfunctory_fairness_rate", "Perfunctory fairness %", "pct"), ("repeat_rate", "Exact repeat %", "pct"),
            ("repeat_after_overdraw", "Repeat after overdraw %", "pct"),
            ("stubborn_anchoring", "Stubborn anchoring %", "pct"),
            ("proposal_rate", "Other-directed proposal %", "pct"),
            ("median_proposal_turn", "Median proposal turn", "num"),
            ("deference_rate", "First-proposal deference %", "pct"),
            ("deference_suboptimal_rate", "Deference, suboptimal %", "pct"),
            ("deference_optimal_rate", "Deference, optimal %", "pct"),
            ("r1_deference_rate", "Round-1 deference %", "pct"),
            ("r1_deference_suboptimal_rate", "Round-1 deference, suboptimal %", "pct"),
            ("r1_deference_optimal_rate", "Round-1 deference, optimal %", "pct"),
            ("deference_accepted_rate", "Deference after a yes %", "pct"),
            ("abandonment_rate", "Abandonment %", "pct"),
            ("abandonment_in_overdraw", "Abandonment in overdraw %", "pct")]
    rows = []
    for variant in variants:
        for p in pairings + ["All"]:
            sub = [g for c, g in talk if c.variant == variant and (p == "All" or c.pairing == p)]
            if not sub:
                continue
            m = pooled_metrics(sub)
            rows.append(lead(p, variant) + [m["rounds"]] + [m[k] for k, _, _ in keys])
    if rows:
        tables.append(Table(
            "resource_process", "Process metrics (seed 000 §5.2-5.6), talk games",
            lead_cols + ["Rounds"] + [h for _, h, _ in keys], rows, lead_fmt + ["int"] + [f for _, _, f in keys],
            ["Over rounds unless said: equal splits suboptimal over equal-split rounds (perfunctory fairness = "
             "equal split in a suboptimal, non-overdrawn round, over all rounds); repeats over consecutive round "
             "pairs of one-scenario games (after an overdrawn round; stubborn anchoring: after a suboptimal, "
             "non-overdrawn one); deference (followed exactly; suboptimal = in a round that is not jointly "
             "optimal) over rounds with an other-directed proposal, round-1 deference over round 1 of "
             "non-rotating games with one; median proposal turn: the cheap-talk message (1 = opening) of the "
             "round's first other-directed proposal; deference after a yes (ours, not the paper's) also needs "
             "the addressee's acceptance; abandonment in overdraw over overdrawn rounds. Definitions: "
             "negotiation_env.analysis.resource_metrics."]))

    # per model: the §5.4 equal-split and perfunctory rates and the §5.5 compliance
    rows = []
    for variant in variants:
        for model, mm in model_metrics([g for c, g in talk if c.variant == variant]).items():
            rows.append([model] + ([variant or "main"] if show_variant else []) + [
                mm["games"], mm["rounds"], mm["equal_split_rate"], mm["perfunctory_fairness_rate"],
                mm["proposals_received"], mm["compliance_rate"], mm["accepted_compliance_rate"]])
    if rows:
        tables.append(Table(
            "resource_process_models", "Process metrics per model (seed 000 §5.4-5.5), talk games",
            ["Model"] + (["Variant"] if show_variant else []) + [
                "Games", "Rounds", "Equal split %", "Perfunctory fairness %", "Proposals received", "Compliance %",
                "Compliance after a yes %"],
            rows, ["text"] * (2 if show_variant else 1) + ["int", "int", "pct", "pct", "int", "pct", "pct"],
            ["Equal split and perfunctory fairness: over the rounds of the games the model played (dyad-level; a "
             "self-play game counts once). Compliance: of the rounds' first other-directed proposals addressed "
             "to the model, the share it followed exactly (after a yes: ours, not the paper's)."]))

    # stubborn anchoring by partner stability and M/C (§5.5)
    rows = []
    for variant in variants:
        for partner in sorted({c.partner for c, _ in talk}) + ["All"]:
            for mc in mcs + ["All"]:
                sub = [g for c, g in talk if c.variant == variant and (partner == "All" or c.partner == partner)
                       and (mc == "All" or c.mc == mc)]
                if not sub:
                    continue
                m = pooled_metrics(sub)
                cnt = m["counts"]
                rows.append([partner, "All" if mc == "All" else _mc_text(mc)]
                            + ([variant or "main"] if show_variant else [])
                            + [m["games"], cnt["repeat_rate"][1], m["repeat_rate"], m["win_stay"],
                               m["repeat_after_overdraw"], cnt["stubborn_anchoring"][1], m["stubborn_anchoring"]])
    if rows:
        tables.append(Table(
            "resource_anchoring", "Stubborn anchoring by partner stability and M/C (seed 000 §5.5), talk games",
            ["Partner", "M/C"] + (["Variant"] if show_variant else []) + [
                "Games", "Round pairs", "Exact repeat %", "Repeat after non-overdrawn %", "Repeat after overdraw %",
                "Suboptimal non-overdrawn rounds", "Stubborn anchoring %"],
            rows, ["text"] * (3 if show_variant else 2) + ["int", "int", "pct", "pct", "pct", "int", "pct"],
            ["Consecutive round pairs of one-scenario games: the joint allocation repeated, after a non-overdrawn "
             "round (= win-stay), after an overdrawn one; stubborn anchoring: repeated after a suboptimal, "
             "non-overdrawn round, of the rounds counted in the column before it."]))

    # Table 10: talk / no-talk
    if notalk:
        disp_cols = ["Pairing", "Partner"] + (["Variant"] if show_variant else [])
        data_cols = list(disp_cols)
        disp_fmt = ["text"] * len(disp_cols)
        data_fmt = list(disp_fmt)
        metric_keys = [("overdraw_rate", "Overdraw %"), ("efficiency", "Efficiency %"), ("optimum_rate", "Optimum %")]
        for mc in mcs:
            for _, h in metric_keys:
                disp_cols.append(f"M/C {_mc_text(mc)} {h}")
                disp_fmt.append("text")
                data_cols += [f"M/C {_mc_text(mc)} {h} talk", f"M/C {_mc_text(mc)} {h} no-talk"]
                data_fmt += ["pct", "pct"]
        drows, xrows = [], []
        partners = sorted({c.partner for c, _ in notalk})
        for variant in sorted({c.variant for c, _ in notalk}):
            for p in [q for q in pairings if any(c.pairing == q for c, _ in notalk)]:
                for partner in partners:
                    if not any(c.pairing == p and c.partner == partner and c.variant == variant for c, _ in notalk):
                        continue
                    head = [p, partner] + ([variant or "main"] if show_variant else [])
                    drow, xrow = list(head), list(head)
                    for mc in mcs:
                        mt = _pool(select(talk, pairing=p, partner=partner, variant=variant, mc=mc))
                        mn = _pool(select(notalk, pairing=p, partner=partner, variant=variant, mc=mc))
                        for k, _ in metric_keys:
                            a, b = _get(mt, k), _get(mn, k)
                            drow.append(f"{_fmt(a, 'pct')} / {_fmt(b, 'pct')}")
                            xrow += [a, b]
                    drows.append(drow)
                    xrows.append(xrow)
        if drows:
            data = Table("resource_table10", "talk vs no-talk (data)", data_cols, xrows, data_fmt)
            tables.append(Table(
                "resource_table10", "Table 10 layout: cheap talk vs. no-talk baseline (each cell: talk / no-talk)",
                disp_cols, drows, disp_fmt,
                ["Overdraw (%): fraction of rounds with supply violation. Efficiency (%): joint reward / oracle "
                 "optimum. Optimum (%): fraction of rounds achieving the theoretical maximum. Rows: pairings "
                 "with no-talk games."], data=data))

    # stable / shifting
    disp_cols = list(lead_cols)
    data_cols = list(lead_cols)
    disp_fmt = list(lead_fmt)
    data_fmt = list(lead_fmt)
    for mc in mcs:
        for h in ("Optimum %", "Efficiency %"):
            disp_cols.append(f"M/C {_mc_text(mc)} {h}")
            disp_fmt.append("text")
            data_cols += [f"M/C {_mc_text(mc)} {h} stable", f"M/C {_mc_text(mc)} {h} shifting"]
            data_fmt += ["pct", "pct"]
    drows, xrows = [], []
    stability_plot: dict[str, dict[str, dict[str, float | None]]] = {}
    if len({c.partner for c, _ in talk}) > 1:
        for variant in variants:
            for p in pairings + ["All"]:
                sub = [(c, g) for c, g in talk if c.variant == variant and (p == "All" or c.pairing == p)]
                if not sub:
                    continue
                drow, xrow = lead(p, variant), lead(p, variant)
                for mc in mcs:
                    ms = _pool([g for c, g in sub if c.mc == mc and c.partner == "stable"])
                    mh = _pool([g for c, g in sub if c.mc == mc and c.partner == "shifting"])
                    for k in ("optimum_rate", "efficiency"):
                        a, b = _get(ms, k), _get(mh, k)
                        drow.append(f"{_fmt(a, 'pct')} / {_fmt(b, 'pct')}")
                        xrow += [a, b]
                    if p != "All" and not variant:
                        stability_plot.setdefault(p, {})[_mc_text(mc)] = {
                            "stable": _get(ms, "optimum_rate"), "shifting": _get(mh, "optimum_rate")}
                drows.append(drow)
                xrows.append(xrow)
        if drows:
            tables.append(Table(
                "resource_stability", "Stable vs. shifting partners (Figure 4 data; each cell: stable / shifting)",
                disp_cols, drows, disp_fmt, ["Talk games; shifting: one agent's context resets each round."],
                data=Table("resource_stability", "stable vs shifting (data)", data_cols, xrows, data_fmt)))

    by_mc: dict[str, dict[str, dict[str, float | None]]] = {}
    for p in pairings:
        for mc in mcs:
            m = _pool([g for c, g in talk if c.pairing == p and c.mc == mc and not c.variant])
            if m is not None:
                by_mc.setdefault(p, {})[_mc_text(mc)] = {k: m[k] for k in ("efficiency", "overdraw_rate", "optimum_rate")}
    talk_plot: dict[str, dict[str, dict[str, float | None]]] = {}
    if notalk:
        for mc in mcs:
            for name, rows_ in (("talk", talk), ("no-talk", notalk)):
                m = _pool([g for c, g in rows_ if c.mc == mc and not c.variant])
                if m is not None:
                    talk_plot.setdefault(_mc_text(mc), {})[name] = {
                        k: m[k] for k in ("efficiency", "overdraw_rate", "optimum_rate")}
    return tables, {"by_mc": by_mc, "stability": stability_plot, "talk": talk_plot}


# --------------------------------------------------------------------------- rulemaking


def _cond_key(c: str) -> tuple[int, str]:
    from ..games.rulemaking.features import CONDITIONS

    return (CONDITIONS.index(c), c) if c in CONDITIONS else (len(CONDITIONS), c)


def rulemaking_tables(traces: Iterable[Any], *, n_resamples: int = 2000,
                      n_permutations: int = PERMUTATIONS) -> tuple[list[Table], list[dict[str, Any]]]:
    """Seed 001 Table 2, the per-cell summary and (where the traces hold the Ledger and
    another condition of one family and environment) the §5 contrasts; plus Figure 1's
    points. ``n_resamples``: bootstrap resamples; ``n_permutations``: shuffles per
    permutation test (the paper's 10,000)."""
    games, _ = _usable(traces, "rulemaking")
    if not games:
        return [], []
    by_cell: dict[Any, list[dict[str, Any]]] = {}
    for g in games:
        by_cell.setdefault(rulemaking_cell(g), []).append(g["rounds"][0]["outcome"])
    envs = sorted({c.environment for c in by_cell})
    rows_keys = sorted({(c.family, c.condition) for c in by_cell}, key=lambda fc: (fc[0], _cond_key(fc[1])))
    summaries = {c: cell_summary(o, n_resamples=n_resamples, rng=0) for c, o in sorted(
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
        "Worst-case verdict", "Certified", "Mean entropy", "Entropy 95% CI", "Horizon exhaustion",
        "Concession arc", "Softening", "Trajectory uniqueness", "Genuine share"]
    fmts = ["text", "text", "text", "int"] + ["int"] * 4 + ["int", "num", "ci", "num", "text", "text", "text",
                                                             "num", "ci", "num", "num", "num", "num", "num"]
    rows, points = [], []
    for c, s in summaries.items():
        screen = plausibility_screen(s["counts"])
        rows.append([c.environment, c.family, c.condition, s["runs"]] + [s["counts"][k] for k in OUTCOMES] + [
            s["agreements"], s["agreement_rate"], s["agreement_ci"], screen["non_agreement_lower"], s["verdict"],
            s["worst_case_verdict"], s["certified"], s["entropy_mean"], s["entropy_ci"],
            s["horizon_exhaustion_rate"], s["concession_arc_rate"], s["softening_rate"],
            s["trajectory_uniqueness"], s["genuine_share"]])
        points.append({"environment": c.environment, "family": c.family, "condition": c.condition,
                       "entropy_mean": s["entropy_mean"], "agreement_rate": s["agreement_rate"],
                       "agreement_ci": s["agreement_ci"], "runs": s["runs"]})
    cells = Table("rulemaking_cells", "Rulemaking cells: outcome, screen and process measures (seed 001 §5-§6, "
                  "Figure 1 data)", cols, rows, fmts,
                  ["Screen: the two-sided plausibility screen (negotiation_env.analysis.stats.plausibility_screen); "
                   "certified: a no-agreement verdict survives the worst-case recode. Entropy: mean normalised "
                   "action entropy per run with a percentile bootstrap CI (seed 0)."])
    contrasts = _rulemaking_contrasts(by_cell, n_resamples=n_resamples, n_permutations=n_permutations)
    return [t2, cells] + ([contrasts] if contrasts is not None else []), points


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


# --------------------------------------------------------------------------- matrix


def matrix_tables(traces: Iterable[Any], *, n_resamples: int = 10_000) -> tuple[list[Table], list[dict[str, Any]], list[str]]:
    """Seed 002 from matrix-game traces: Table 1, the outcome table (Appendix A.1), the
    A.1 differences (Tables S1, S2), the alternation audit (Table S4) and the
    complete-case vs all-available sensitivity (A.3); plus Figure rows and notes.

    Rows are policy pairings x stage games, each pooling its framings with equal weight
    (:func:`~.matrix_metrics.switching_table`); per-framing symbols are the
    Benjamini-Hochberg classification across every tested cell of the table. A cell or
    row whose dyads are too few for any permutation test to reach .05 gets no p, no
    interval and ``n/a``, and a note says how many.
    """
    from . import matrix_metrics as mm

    games = [as_dict(t) for t in traces]
    games = [g for g in games if g.get("game") == "matrix"]
    if not games:
        return [], [], []
    usable = [g for g in games if g.get("rounds")]
    notes = []
    if len(usable) < len(games):
        notes.append(f"{len(games) - len(usable)} matrix game(s) without a resolved round left out: "
                     + ", ".join(str(g.get("game_id")) for g in games if not g.get("rounds"))[:400])
    kept = mm.dyads_of(usable, "complete")
    if len(kept) < len(usable):
        notes.append(f"{len(usable) - len(kept)} matrix dyad(s) left out of the complete-case tables (an error "
                     "fallback, fewer rounds than planned or a game that ended in an error); the all-available "
                     "row of matrix_sensitivity keeps them.")
    rows_in = mm.switching_table(usable, n_resamples=n_resamples)
    codes = [c for c in ("N", "B", "E", "S", "T", "IR") if any(c in (r.get("contexts") or {}) for r in rows_in)]
    cols = ["Pairing", "Game", "S no talk %", "S talk %", "ΔS (pp)", "ΔS 95% CI (pp)", "p", "Dyads no talk",
            "Dyads talk"] + codes
    fmts = ["text", "text", "pct", "pct", "pct", "pct_ci", "p", "int", "int"] + ["text"] * len(codes)
    rows = [[r["model"], r["game"], r["s_no_talk"], r["s_talk"], r["delta"], r["delta_ci"], r["p"], r["dyads_no_talk"],
             r["dyads_talk"]] + [(r.get("contexts") or {}).get(k) for k in codes] for r in rows_in]
    t1_notes = ["S: adjacent-round switches / transitions, pooled over agents and dyads within a framing, then "
                "framings weighted equally; ΔS = S(no talk) - S(talk), positive = stabilizing. Percentile 95% CI "
                f"from {n_resamples} dyad bootstrap resamples stratified by framing x treatment (seed 42); two-sided "
                "p of the permutation test over dyads (treatment labels relabelled within each framing; exact when "
                f"there are at most {n_resamples} relabellings). Framing columns (N, B, E, S, T, IR): "
                "Benjamini-Hochberg across every tested cell of the table, q < .05: + stabilizing, - destabilizing, "
                "· null. Complete-case dyads only."]
    untested_cells = sum(sym == mm.UNTESTED for r in rows_in for sym in (r.get("contexts") or {}).values())
    n_cells = sum(len(r.get("contexts") or {}) for r in rows_in)
    untested_rows = sum(not r["tested"] for r in rows_in)
    if untested_cells or untested_rows:
        t1_notes.append(f"n/a, and p and CI –: too few dyads to test. With n1 and n2 dyads a cell's smallest two-sided "
                        "permutation p is 2 / C(n1 + n2, n1) (2 vs 2: 2/6 = 0.333; 4 vs 4: 2/70 = 0.029), a row's "
                        "the product over its framings; where it is not below .05 no test can be significant, so "
                        "none is made and the cell is not in the Benjamini-Hochberg family.")
        notes.append(f"matrix_table1: {untested_cells} of {n_cells} framing cell(s) and {untested_rows} of "
                     f"{len(rows_in)} row(s) have too few dyads to test (no p, CI or mark; marked n/a).")
    small = [min(e["dyads"]) for r in rows_in if r["delta_ci"] is not None for e in r["cell_effects"].values()]
    if small and min(small) < 20:
        t1_notes.append(f"Cells here have as few as {min(small)} dyads a treatment: the percentile bootstrap interval "
                        "is then narrower than its nominal 95% (n resampled dyads keep (n - 1)/n of their variance), "
                        "so it can exclude 0 where the test does not reject; p and the marks are the permutation "
                        "test's, valid at any size.")
    if any(r["tested"] and r["delta_ci"] is None for r in rows_in):
        t1_notes.append("A tested row's CI is – where one of its framings is too small to test on its own: "
                        "resampling a cell of two dyads halves their variance, so the interval would be too narrow.")
    t1 = Table("matrix_table1", "Table 1 layout: communication effects on adjacent-round switching", cols, rows, fmts,
               t1_notes)

    orows = []
    for r in mm.outcome_table(usable):
        j = r["joint"]
        orows.append([r["pairing"], _stage_name(r["stage_game"]), "talk" if r["treatment"] == "communication"
                      else "no talk", r["dyads"], r["S"], r["C_mean"], r["a_rate"], r["payoff_per_round"],
                      j["AA"], j["AB"], j["BA"], j["BB"]])
    t2 = Table("matrix_outcomes", "Behavioural outcomes by treatment (seed 002 Appendix A.1-A.2)",
               ["Pairing", "Game", "Treatment", "Dyads", "S %", "Mean C", "Action A %", "Payoff / agent / round",
                "AA %", "AB %", "BA %", "BB %"], orows,
               ["text", "text", "text", "int", "pct", "num", "pct", "num", "pct", "pct", "pct", "pct"],
               ["Pooled over dyads and agents; C: period-two adherence (Eq. S1), mean over agent trajectories; "
                "joint outcomes: first letter = first seat. Complete-case dyads only."])

    effect_cols = ["Dyads no talk", "Dyads talk", "A % no talk", "A % talk", "ΔA (pp)", "ΔA 95% CI (pp)",
                   "Payoff no talk", "Payoff talk", "ΔPayoff", "ΔPayoff 95% CI"]
    effect_fmts = ["int", "int", "pct", "pct", "pct", "pct_ci", "num", "num", "num", "ci"]

    def effect_cells(r: Mapping[str, Any]) -> list[Any]:
        a, pay = r["a_rate"], r["payoff_per_round"]
        return [r["dyads_no_talk"], r["dyads_talk"], a["no_talk"], a["talk"], a["delta"], a["ci"], pay["no_talk"],
                pay["talk"], pay["delta"], pay["ci"]]

    eff = mm.outcome_effects(usable, n_resamples=n_resamples)
    eff_note = (f"Differences are talk minus no talk. 95% percentile CI from {n_resamples} dyad bootstrap resamples "
                "within each cell, talk and no-talk dyads resampled independently (seed 42); – where a cell's dyads "
                "are too few to test on their own (as in matrix_table1). Complete-case dyads only.")
    t_eff = Table("matrix_outcome_effects", "Action-A rate and payoff by treatment with differences (seed 002 "
                  "Table S2 layout)", ["Pairing", "Game"] + effect_cols,
                  [[r["pairing"], r["game"]] + effect_cells(r) for r in eff], ["text", "text"] + effect_fmts,
                  ["Within each pairing x game, framings weighted equally. " + eff_note])
    eff_game = mm.outcome_effects(usable, rows=("stage_game",), cells=("pairing", "framing"), n_resamples=n_resamples)
    t_eff_game = Table("matrix_outcome_effects_by_game", "Action-A rate and payoff by game and treatment with "
                       "differences (seed 002 Table S1 layout)", ["Game", "Cells"] + effect_cols,
                       [[r["game"], r["cells"]] + effect_cells(r) for r in eff_game],
                       ["text", "int"] + effect_fmts,
                       ["Every pairing x framing cell of a game weighted equally. " + eff_note])

    arows = []
    for r in mm.alternation_table(usable):
        both = r["both_all_switch"]
        arows.append([r["pairing"], r["game"], r["dyads"], r["agents"], r["all_switch_share"],
                      r["at_least_8_9_share"], r["C_median"], r["C_iqr"],
                      None if both is None else f"{both}/{r['dyads']}",
                      None if both is None else f"{r['in_phase']}/{both}",
                      None if both is None else f"{r['antiphase']}/{both}"])
    t_alt = Table("matrix_alternation", "No-talk alternation (seed 002 Table S4 layout)",
                  ["Pairing", "Game", "Dyads", "Agents", "9/9 switches %", "≥ 8/9 switches %", "C median", "C IQR",
                   "Both agents 9/9", "In phase | both 9/9", "Antiphase | both 9/9"], arows,
                  ["text", "text", "int", "int", "pct", "pct", "num", "ci", "text", "text", "text"],
                  ["No-talk complete-case dyads; each contributes two agent trajectories. 9/9: every adjacent-round "
                   "transition a switch; ≥ 8/9: S ≥ 8/9, which implies a negative lag-1 autocorrelation whatever "
                   "the action marginals (Eq. 3). C: period-two adherence (Eq. S1), median and interquartile range "
                   "(linear quantiles). Dyad phase for Snowdrift and Harmony, as Table S4: in phase = both agents "
                   "alternate with equal actions (AA <-> BB), antiphase = opposite actions (AB <-> BA)."])

    srows = []
    classes = {}
    for analysis in ("complete", "all"):
        e = mm.communication_effect(usable, analysis=analysis, n_resamples=n_resamples)
        m = mm.pooled_metrics(usable, analysis)
        table = mm.switching_table(usable, analysis=analysis, n_resamples=n_resamples)
        classes[analysis] = {(r["model"], r["game"], c): sym for r in table for c, sym in r["contexts"].items()}
        srows.append(["complete-case" if analysis == "complete" else "all available", m["dyads"], m["transitions"],
                      e["s_no_talk"], e["s_talk"], e["delta"], e["delta_ci"], e["p"],
                      sum(sym in ("+", "-") for sym in classes[analysis].values()), len(classes[analysis]),
                      sum(sym == mm.UNTESTED for sym in classes[analysis].values())])
    common = set(classes["complete"]) & set(classes["all"])
    changed = sum(classes["complete"][k] != classes["all"][k] for k in common)
    t3 = Table("matrix_sensitivity", "Complete-case vs all-available transitions (seed 002 A.3)",
               ["Analysis", "Dyads", "Transitions", "S no talk %", "S talk %", "ΔS (pp)", "ΔS 95% CI (pp)", "p",
                "Corrected cells (+/-)", "Cells", "Cells too few to test"], srows,
               ["text", "int", "int", "pct", "pct", "pct", "pct_ci", "p", "int", "int", "int"],
               ["Overall ΔS weights every stage game x framing cell equally; p: permutation test over dyads within "
                "cells. All available: fallback actions and every transition of partial dyads kept. Corrected "
                f"classifications that differ between the two: {changed} of {len(common)} cells."])
    return [t1, t2, t_eff, t_eff_game, t_alt, t3], rows_in, notes


def _stage_name(stage_game: str) -> str:
    from ..games.matrix.rules import NAMES

    return NAMES.get(stage_game, stage_game)


# --------------------------------------------------------------------------- cells listing


def cells_table(traces: Iterable[Any]) -> Table:
    """Every trace with the cell it is counted in (``cells.csv``)."""
    rows = []
    for t in traces:
        d = as_dict(t)
        game = d.get("game")
        mc = talk = partner = rotation = variant = env = cond = family = None
        if game == "resource":
            c = resource_cell(d)
            mc, talk, partner, rotation, variant = c.mc, c.talk, c.partner, c.rotation, c.variant
            family = c.pairing
        elif game == "rulemaking":
            r = rulemaking_cell(d)
            env, cond, family = r.environment, r.condition, r.family
        elif game == "matrix":  # environment: the stage game; condition: the framing
            m = matrix_cell(d)
            family, talk, env, cond = m.pairing, m.talk, m.stage_game, m.framing
        rows.append([d.get("game_id"), game, d.get("status"), " + ".join(lineup(d)), family, mc, talk, partner,
                     rotation, variant, env, cond, condition_label(d), " ".join(outcome_tags(d))])
    return Table("cells", "Games and their cells",
                 ["game_id", "game", "status", "lineup", "pairing", "mc", "talk", "partner", "rotation", "variant",
                  "environment", "condition", "condition_label", "outcome_tags"],
                 rows, ["text"] * 14)


# --------------------------------------------------------------------------- writing


def build_report(traces: Sequence[Any], out_dir: str | Path, *, plots: bool = True,
                 problems: Sequence[Any] = (), n_resamples: int = 2000) -> Report:
    """Write every table (``NAME.md``, ``NAME.csv``), figure (``fig_*.png``),
    ``cells.csv`` and ``report.md`` for ``traces`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    traces = [as_dict(t) for t in traces]
    rep = Report()
    for t in traces:
        rep.games[str(t.get("game"))] = rep.games.get(str(t.get("game")), 0) + 1
    for p in problems:
        rep.notes.append(f"skipped trace line: {p}")
    for game in ("resource", "rulemaking"):  # matrix_tables notes its own
        _, left = _usable(traces, game)
        if left:
            rep.notes.append(f"{len(left)} {game} game(s) not counted (not complete or no resolved round): "
                             + ", ".join(left[:20]) + (" ..." if len(left) > 20 else ""))
    known = {"resource", "rulemaking", "matrix"}
    for g in sorted(set(rep.games) - known):
        rep.notes.append(f"{rep.games[g]} trace(s) of game {g!r}: no report section for it.")

    res_tables, res_plot = resource_tables(traces)
    rm_tables, rm_points = rulemaking_tables(traces, n_resamples=n_resamples)
    mx_tables, mx_rows, mx_notes = matrix_tables(traces, n_resamples=n_resamples)
    rep.notes.extend(mx_notes)
    rep.tables = res_tables + rm_tables + mx_tables

    if plots:
        try:
            from . import plots as _plots
        except ImportError as e:  # matplotlib is the optional "report" extra
            rep.notes.append(f"figures skipped: {e} (pip install 'negotiation_env[report]')")
        else:
            figs = [
                ("fig_resource_by_mc.png", _plots.plot_resource_by_mc, res_plot.get("by_mc")),
                ("fig_resource_stability.png", _plots.plot_stability, res_plot.get("stability")),
                ("fig_resource_talk.png", _plots.plot_talk, res_plot.get("talk")),
                ("fig_rulemaking_entropy_agreement.png", _plots.plot_rulemaking, rm_points),
                ("fig_matrix_switching.png", _plots.plot_switching, mx_rows),
            ]
            for name, fn, data in figs:
                if data:
                    rep.figures.append(fn(data, out / name))

    for t in rep.tables:
        for suffix, text in ((".md", t.markdown()), (".csv", t.csv_text())):
            path = out / f"{t.name}{suffix}"
            path.write_text(text, encoding="utf-8")
            rep.files.append(path)
    ct = cells_table(traces)
    path = out / "cells.csv"
    path.write_text(ct.csv_text(), encoding="utf-8")
    rep.files.append(path)
    rep.files.extend(rep.figures)

    lines = ["# Report", "", "Games read: " + (", ".join(f"{g} {n}" for g, n in sorted(rep.games.items())) or "none"), ""]
    if rep.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in rep.notes] + [""]
    lines += ["## Tables", ""]
    for t in rep.tables:
        lines += [t.markdown(), f"CSV: [{t.name}.csv]({t.name}.csv)", ""]
    if rep.figures:
        lines += ["## Figures", ""] + [f"![{f.stem}]({f.name})\n" for f in rep.figures]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rep.files.append(path)
    return rep


def report_run(path: str | Path, out: str | Path | None = None, *, plots: bool = True,
               runs: Any = None) -> Report:
    """Read the traces of ``path`` (a run folder or a ``.jsonl`` file) and write the
    report to ``out`` (default ``DIR/report``, or ``report`` beside a file). One run is
    read unless ``runs`` says otherwise (``"all"``, or run ids; see
    :func:`negotiation_env.traces.iter_traces`); every line dropped (torn, undecodable,
    failing the schema, a duplicate, another run's) becomes a note of the report."""
    from ..traces import read_traces

    src = Path(path)
    res = read_traces(src, runs=runs)
    if out is None:
        out = (src if src.is_dir() else src.parent) / DEFAULT_OUT
    return build_report(res.traces, out, plots=plots, problems=res.problems)
