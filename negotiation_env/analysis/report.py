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

Resource game (seed 000); rows are pairings (self-play first). Every resource table leaves
out the rounds with a fallback decision (no valid allocation after every retry: the
paper's Agent errors section excludes them from all analyses), says in a note how many,
and the report's notes list the count per table; ``include_fallbacks=True``
(``--include-fallbacks``) counts them as play. The main cohort is the paper's main
conditions (cheap talk with 5 turns, thinking on, no transparency, no prompt intervention;
partner stability and rotation are main factors): the headline figures, Tables 3, 4 and
12, the stability and failed-improvement tables and the judge tables pool it alone, and
every intervention arm is shown against its matched baseline (the main-cohort games of the
same pairing, M/C, partner stability, rotation and protocol; rule in
:mod:`.resource_metrics`). A protocol column splits rows when games of more than one
number of rounds are read.

* ``resource_summary``: the §5 headline figures per M/C level and overall.
* ``resource_table3``: Table 3, Overdraw / Efficiency / Optimum (%) per pairing x M/C.
* ``resource_table4``: Table 4, payoff alternation, sustained 4-round alternation,
  win-stay, lose-shift per pairing, non-rotating games only.
* ``resource_process``: §5.4-5.6 process rates per pairing (early decision, equal split and
  its suboptimal share, perfunctory fairness, repeats and repeats after overdraw, stubborn
  anchoring, proposals and their median turn, deference over all rounds and in round 1 of
  non-rotating games with its suboptimal / optimal parts, abandonment); talk games, rows
  split by ``variant`` (:class:`~.cells.ResourceCell`).
* ``resource_process_models``: §5.4-5.5 per model: equal split, perfunctory fairness,
  compliance with the first other-directed proposals addressed to it.
* ``resource_anchoring``: §5.5 repeats and stubborn anchoring per partner stability x M/C.
* ``resource_table10``: Table 10, talk / no-talk per pairing x partner stability x M/C, the
  talk side the no-talk games' matched baseline (only when the traces hold no-talk games).
* ``resource_table9``: Table 9, each transparency arm against its matched baseline
  (overdraw, efficiency, optimum, perfunctory fairness, stubborn anchoring; "baseline →
  transparency") per pairing x partner x M/C and pooled over the matched cells.
* ``resource_interventions``: the same layout for every other arm (project sharing,
  theory of mind, unlimited talk, other turn limits, thinking off, combinations).
* ``resource_stability``: Figure 4's data, stable / shifting per pairing x M/C.
* ``resource_failed_improvement``: Figure 6's data: after an overdrawn and after a
  suboptimal round, the next round's share reaching the optimum, improving, failing to
  improve.
* ``resource_table12``: Table 12, token usage per model and part (all rounds, talk,
  decision, each round, reflection) per agent-round (when steps report ``tokens``).
* ``resource_errors``: the Agent errors section per model: validation errors, format
  warnings, heuristic fallbacks, auto-filled decisions, forfeited talk turns, their rates
  per agent-round, games with an error (every complete game, fallbacks counted).
* ``resource_understanding``: per pairing and scripted reader, the partner's talk
  messages it received, how many it could not read (``unread_message`` events) and the
  share read.
* ``judge_prevalence`` / ``judge_enrichment`` (with judge labels: ``DIR/judge/merged.jsonl``
  or ``labels.jsonl``): Table 13's prevalence by round outcome and Figure 7's enrichment.

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
* ``rulemaking_provenance``: Table 3's audit, genuine, retried and fallback turns per cell
  and their shares of the cell's turns, counted turn by turn
  (:func:`~.rulemaking_metrics.provenance_audit`).

Matrix game (seed 002; metrics of :mod:`.matrix_metrics`), rows are policy pairings x
stage games:

* ``matrix_table1``: Table 1, switching without and with talk, ΔS with its stratified
  dyad-bootstrap CI and permutation p over dyads, and the Benjamini-Hochberg symbol of
  every framing cell (``n/a`` and no p or CI where the dyads are too few to test).
* ``matrix_pooled_effects``: ΔS pooled per stage game, per pairing and overall (§4's
  "45.8 points in Prisoner's Dilemma"), cells weighted equally, with CI, p and the
  group's stabilizing / destabilizing cells of Table 1.
* ``matrix_outcomes``: Appendix A.1-A.2 per treatment: switching, period-two adherence,
  action-A rate, payoff per agent per round, joint outcomes.
* ``matrix_outcome_effects`` / ``matrix_outcome_effects_by_game``: A.1 Tables S2 / S1,
  action-A rate and payoff per agent per round without and with talk, their difference
  (message minus no message) and its 95% dyad-bootstrap CI.
* ``matrix_joint_outcomes``: Table S3, joint-action shares per game and treatment, cells
  weighted equally.
* ``matrix_alternation``: A.2 Table S4 (no-talk dyads): agents switching 9/9 and at least
  8/9, median [IQR] period-two adherence, and for Snowdrift and Harmony the dyads whose
  agents both switch 9/9, in phase and antiphase.
* ``matrix_error_audit``: A.3 Table S5 per pairing and treatment: dyads, error-marked
  dyads, malformed outputs (unparsable actions, empty messages), API failures, partial
  and complete clean dyads.
* ``matrix_sensitivity``: A.3, the complete-case and all-available-transition analyses
  side by side, with how many corrected classifications differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .cells import as_dict, condition_label, lineup, matrix_cell, outcome_tags, resource_cell, rulemaking_cell
from .cells import usable as _usable
from .cells import mc_text as _mc_text
from .resource_metrics import (game_metrics, intervention_of, match_key, model_metrics, pool, protocol_of,
                               token_usage)
from .rulemaking_metrics import (AGREEMENT, PERMUTATIONS, cell_summary, condition_contrasts, provenance_audit,
                                 threshold_key, threshold_relabelling)
from .stats import OUTCOMES, plausibility_screen
from ..traces.reader import check_env_versions
from ..storage import write_text
from .tables import _DASH, Table, _fmt  # noqa: F401  (Table re-exported: the report's tables)

__all__ = ["Table", "Report", "resource_tables", "rulemaking_tables", "matrix_tables", "cells_table",
           "build_report", "report_run", "resamples_of", "DEFAULT_OUT", "MATRIX_RESAMPLES", "RULEMAKING_RESAMPLES"]

DEFAULT_OUT = "report"
#: bootstrap resamples (and random relabellings of the permutation test) of the matrix
#: tables: the matrix paper's 10,000 (Methods, A.1)
MATRIX_RESAMPLES = 10_000
#: bootstrap resamples of the rulemaking intervals (the rulemaking paper gives no number)
RULEMAKING_RESAMPLES = 2000
_LABEL_CODES = {"compromise": "C", "consensus": "S", "authority": "A", "deadlock": "D"}


# --------------------------------------------------------------------------- tables


@dataclass
class Tables:
    """Tables, the figure files and every file an analysis wrote, and its notes."""

    tables: list[Table] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(f"no table {name!r}; tables: {', '.join(t.name for t in self.tables)}")

    def write_index(self, path: Path, head: list[str]) -> None:
        """A markdown page at ``path``: ``head``, the notes, every table with its CSV
        link and every figure; added to :attr:`files`."""
        lines = list(head)
        if self.notes:
            lines += ["## Notes", ""] + [f"- {n}" for n in self.notes] + [""]
        lines += ["## Tables", ""]
        for t in self.tables:
            lines += [t.markdown(), f"CSV: [{t.name}.csv]({t.name}.csv)", ""]
        if self.figures:
            lines += ["## Figures", ""] + [f"![{f.stem}]({f.name})\n" for f in self.figures]
        write_text(path, "\n".join(lines) + "\n")
        self.files.append(path)


@dataclass
class Report(Tables):
    """What :func:`build_report` produced: the tables, the figure files, every file it
    wrote, notes (games left out, sections skipped), and the games read per game id."""

    games: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- selection


def _oracle_arm(arm: str) -> bool:
    """An arm of the oracle check (individual or joint): a pass@1 test, not negotiation."""
    return bool({"oracle-check", "joint-oracle-check"} & set(arm.split(" + ")))


def _mc_key(mc: float | None) -> tuple[int, float]:
    return (1, 0.0) if mc is None else (0, mc)


def _pairing_order(cells: Iterable[Any]) -> list[str]:
    pairs = {(c.pairing, c.self_play) for c in cells}
    return [p for p, _ in sorted(pairs, key=lambda x: (not x[1], x[0]))]


def _get(m: Mapping[str, Any] | None, key: str) -> Any:
    return None if m is None else m.get(key)


# --------------------------------------------------------------------------- resource


def _left_note(m: Mapping[str, Any] | None, include_fallbacks: bool) -> str:
    """The table line saying what the fallback rule did to the rounds a table draws on."""
    if m is None:
        return "Fallback rounds: none read."
    if include_fallbacks:
        return (f"Fallback rounds counted as play (--include-fallbacks): {m['fallback_rounds']} of "
                f"{m['rounds_total']} rounds; the paper leaves them out.")
    if not m["excluded_rounds"]:
        return f"Fallback rounds left out: none of {m['rounds_total']} rounds."
    whole = f", {m['games_excluded']} of them with no other round" if m["games_excluded"] else ""
    return (f"Fallback rounds left out: {m['excluded_rounds']} of {m['rounds_total']} rounds, in "
            f"{m['games_with_fallback']} game(s){whole}; game-level figures are over the {m['whole_games']} "
            "game(s) without one (--include-fallbacks counts them).")


_FALLBACK_RULE = ("resource: rounds with a fallback decision (heuristic_fallback / decision_auto_filled: no valid "
                  "allocation after every retry) are left out of every table, as the paper's Agent errors section "
                  "does; pairs and windows of rounds only join adjacent kept rounds, and the game-level figures "
                  "(games with an optimal round, rounds to first optimum) are over games without such a round. "
                  "The count per table follows; --include-fallbacks (include_fallbacks=True) counts them as play.")


def _fb(m: Mapping[str, Any] | None, include_fallbacks: bool) -> int:
    return 0 if m is None else (m["fallback_rounds"] if include_fallbacks else m["excluded_rounds"])


@dataclass
class _ResourceRun:
    """What every resource table draws on, built once per report: the counted games with
    their cells, arms and protocols, the main cohort, the row and column layout, each
    game's metrics (computed once, :meth:`pm`) and the lines for the report's notes."""

    traces: list[dict[str, Any]]
    games: list[dict[str, Any]]
    include_fallbacks: bool
    rows_all: list[tuple[Any, dict[str, Any]]]
    arm_of: dict[int, str]
    proto_of: dict[int, str]
    key_of: dict[int, tuple]
    notes: list[str] = field(default_factory=list)
    memo: dict[int, dict[str, Any]] = field(default_factory=dict)
    # derived in __post_init__
    main: list[tuple[Any, dict[str, Any]]] = field(init=False)
    main_games: list[dict[str, Any]] = field(init=False)
    talk: list[tuple[Any, dict[str, Any]]] = field(init=False)
    variants: list[str] = field(init=False)
    show_variant: bool = field(init=False)
    protos: list[str] = field(init=False)
    show_proto: bool = field(init=False)
    mcs: list[Any] = field(init=False)
    pairings: list[str] = field(init=False)
    self_play: dict[str, bool] = field(init=False)
    arms: list[str] = field(init=False)
    lead_cols: list[str] = field(init=False)
    lead_fmt: list[str] = field(init=False)
    fb_col: str = field(init=False)
    base_by_key: dict[tuple, list[dict[str, Any]]] = field(init=False)

    @classmethod
    def of(cls, traces: Iterable[Any], include_fallbacks: bool) -> _ResourceRun | None:
        """The run of ``traces`` (None when no resource game is counted)."""
        traces = [as_dict(t) for t in traces]
        games, _ = _usable(traces, "resource")
        if not games:
            return None
        return cls(traces, games, include_fallbacks, [(resource_cell(g), g) for g in games],
                   {id(g): intervention_of(g) for g in games}, {id(g): protocol_of(g) for g in games},
                   {id(g): match_key(g) for g in games})

    def __post_init__(self) -> None:
        self.main = [(c, g) for c, g in self.rows_all if not self.arm_of[id(g)]]
        self.main_games = [g for _, g in self.main]
        self.talk = [(c, g) for c, g in self.rows_all if c.talk]
        self.variants = sorted({c.variant for c, _ in self.talk})
        self.show_variant = self.variants != [""]
        self.protos = sorted({self.proto_of[id(g)] for g in self.main_games})
        self.show_proto = len(self.protos) > 1
        self.mcs = sorted({c.mc for c, _ in self.rows_all}, key=_mc_key)
        self.pairings = _pairing_order(c for c, _ in self.rows_all)
        self.self_play = {c.pairing: c.self_play for c, _ in self.rows_all}
        self.arms = sorted({a for a in self.arm_of.values() if a})
        self.lead_cols = ["Pairing", "Type"] + (["Protocol"] if self.show_proto else [])
        self.lead_fmt = ["text"] * len(self.lead_cols)
        self.fb_col = "Fallback rounds included" if self.include_fallbacks else "Fallback rounds left out"
        self.base_by_key = {}
        for g in self.main_games:
            self.base_by_key.setdefault(self.key_of[id(g)], []).append(g)

    def pm(self, sub: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """Pooled metrics of ``sub`` (None when empty); each game's metrics computed once."""
        if not sub:
            return None
        for g in sub:
            if id(g) not in self.memo:
                self.memo[id(g)] = game_metrics(g, include_fallbacks=self.include_fallbacks)
        return pool([self.memo[id(g)] for g in sub])

    def fb(self, m: Mapping[str, Any] | None) -> int:
        return _fb(m, self.include_fallbacks)

    def main_sub(self, proto: str, pairing: str = "All") -> list[tuple[Any, dict[str, Any]]]:
        """The main-cohort (cell, game) pairs of ``proto`` and ``pairing`` (``"All"``: every one)."""
        return [(c, g) for c, g in self.main if self.proto_of[id(g)] == proto
                and (pairing == "All" or c.pairing == pairing)]

    @staticmethod
    def proto_text(p: str) -> str:
        return p or "rounds=4"

    def kind(self, pairing: str) -> str:
        return "all" if pairing == "All" else ("self-play" if self.self_play[pairing] else "cross-play")

    def lead(self, pairing: str, proto: str) -> list[Any]:
        return [pairing, self.kind(pairing)] + ([self.proto_text(proto)] if self.show_proto else [])

    def vlead(self, pairing: str, variant: str) -> list[Any]:
        return [pairing, self.kind(pairing)] + ([variant or "main"] if self.show_variant else [])

    def matched(self, arm_sub: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        """(arm games with a matched baseline, those baselines, arm games without one)."""
        keys_ = {self.key_of[id(g)] for g in arm_sub}
        with_base = [g for g in arm_sub if self.key_of[id(g)] in self.base_by_key]
        base = [b for k in sorted(keys_, key=repr) if k in self.base_by_key for b in self.base_by_key[k]]
        return with_base, base, len(arm_sub) - len(with_base)

    def finish(self, t: Table, sub: Sequence[dict[str, Any]], main_only: bool = True) -> Table:
        """``t`` with its fallback line (and the main-cohort line), both noted in the report."""
        m = self.pm(list(sub))
        t.notes.append(_left_note(m, self.include_fallbacks))
        if m is not None and self.fb(m):
            if not any(n.startswith("resource: rounds with a fallback") for n in self.notes) \
                    and not self.include_fallbacks:
                self.notes.append(_FALLBACK_RULE)
            verb = "counted as play" if self.include_fallbacks else "left out"
            self.notes.append(f"{t.name}: {self.fb(m)} of {m['rounds_total']} rounds (fallback) {verb}"
                              f" in {m['games_with_fallback']} game(s).")
        if main_only and len(self.main) < len(self.games):
            t.notes.append(_main_line(len(self.games) - len(self.main)))
        return t


_Plot = dict[str, dict[str, dict[str, Any]]]


def resource_tables(traces: Iterable[Any], *, include_fallbacks: bool = False,
                    labels: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[list[Table], dict[str, Any]]:
    """The resource-game tables and the data the figures plot (``"notes"``: the lines for
    the report's notes). Rounds with a fallback decision are left out of every table
    unless ``include_fallbacks``; each table says how many. The headline figures and
    Tables 3 and 4 (and the stability, failure-breakdown and token tables) pool only the
    main cohort (:func:`~.resource_metrics.intervention_of`); each intervention arm is
    shown against its matched baseline (Table 9 for transparency, Table 10 for no talk,
    ``resource_interventions`` for the others). ``labels``: judge labels
    (:func:`~.judge.load_labels`) for the judge prevalence and enrichment tables."""
    run = _ResourceRun.of(traces, include_fallbacks)
    if run is None:
        return [], {"notes": []}
    if len(run.main) < len(run.games):
        run.notes.append("resource: " + _main_note(len(run.games) - len(run.main), run.arms))
    if not run.show_proto and run.protos and run.protos[0]:
        run.notes.append(f"resource: every main-cohort game plays {run.protos[0]} (the paper plays 4 rounds).")
    # each builder may add lines to run.notes: they run in the tables' order
    tables = [_resource_summary(run), _resource_table3(run), _resource_table4(run), _resource_process(run),
              _resource_process_models(run), _resource_anchoring(run)]
    t10, talk_plot = _resource_table10(run)
    tables += [t10, _resource_table9(run), _resource_interventions(run)]
    n_oracle = sum(_oracle_arm(a) for a in run.arm_of.values())
    if n_oracle:
        run.notes.append(f"resource: {n_oracle} oracle-check game(s) (solo=True: one agent deciding alone; "
                         "joint_plan=True: both seats told to carry out one plan) are not negotiation: in no "
                         "resource table but the agent-error table.")
    stability, stability_plot = _resource_stability(run)
    failed, failure_plot = _resource_failed_improvement(run)
    tables += [stability, failed, _resource_table12(run)]
    tables += _resource_agent_tables(run)
    judge, enrichment_plot = _resource_judge_tables(run, labels)
    tables += judge
    return [t for t in tables if t is not None], {
        "by_mc": _resource_by_mc(run), "stability": stability_plot, "talk": talk_plot, "failure": failure_plot,
        "enrichment": enrichment_plot, "notes": run.notes}


def _resource_summary(run: _ResourceRun) -> Table | None:
    """The §5 headline figures per M/C level and overall, main cohort."""
    rows = []
    for proto in run.protos:
        for mc in run.mcs + ["All"]:
            sub = [(c, g) for c, g in run.main_sub(proto) if mc == "All" or c.mc == mc]
            if not sub:
                continue
            m = run.pm([g for _, g in sub])
            ms = run.pm([g for c, g in sub if c.partner == "stable"])
            rows.append(([run.proto_text(proto)] if run.show_proto else []) + [
                "All" if mc == "All" else _mc_text(mc), m["games"], m["rounds"], run.fb(m),
                m["overdraw_rate"], m["efficiency"], m["optimum_rate"], m["games_with_optimal_round"],
                _get(ms, "mean_rounds_to_first_optimum"), m["positive_after_overdraw"]])
    if not rows:
        return None
    return run.finish(Table(
        "resource_summary", "Resource game: headline outcome figures (seed 000 §5), main cohort",
        (["Protocol"] if run.show_proto else []) + [
            "M/C", "Games", "Rounds", run.fb_col, "Overdraw %", "Efficiency %", "Optimum %",
            "Games with an optimal round %", "Rounds to first optimum (stable)", "Positive after overdraw %"],
        rows, ["text"] * run.show_proto + ["text", "int", "int", "int", "pct", "pct", "pct", "pct", "num", "pct"],
        ["Overdraw, efficiency and optimum are pooled over rounds; rounds to first optimum is the mean over "
         "stable-partner games that reached one; positive after overdraw is the share of rounds right "
         "after an overdrawn round with joint reward > 0."]), run.main_games)


def _resource_table3(run: _ResourceRun) -> Table | None:
    """Table 3: overdraw, efficiency and optimum per pairing x M/C, main cohort."""
    cols = list(run.lead_cols)
    fmts = list(run.lead_fmt)
    for mc in run.mcs:
        cols += [f"M/C {_mc_text(mc)} Overdraw %", f"M/C {_mc_text(mc)} Efficiency %",
                 f"M/C {_mc_text(mc)} Optimum %", f"M/C {_mc_text(mc)} games"]
        fmts += ["pct", "pct", "pct", "int"]
    cols.append(run.fb_col)
    fmts.append("int")
    rows = []
    for proto in run.protos:
        for p in run.pairings + ["All"]:
            sub = run.main_sub(proto, p)
            if not sub:
                continue
            row = run.lead(p, proto)
            for mc in run.mcs:
                m = run.pm([g for c, g in sub if c.mc == mc])
                row += [_get(m, "overdraw_rate"), _get(m, "efficiency"), _get(m, "optimum_rate"),
                        _get(m, "games") or 0]
            rows.append(row + [run.fb(run.pm([g for _, g in sub]))])
    if not rows:
        return None
    return run.finish(Table(
        "resource_table3", "Table 3 layout: self-play vs. cross-play performance by M/C (main cohort)",
        cols, rows, fmts,
        ["Overdraw (%): rounds with a supply violation; Efficiency (%): joint reward / joint optimum M, "
         "mean over rounds; Optimum (%): rounds reaching M. All partner stabilities and rotations pooled."]),
        run.main_games)


def _resource_table4(run: _ResourceRun) -> Table | None:
    """Table 4: the game-strategy rates per pairing, non-rotating main-cohort games."""
    fixed = [(c, g) for c, g in run.main if c.rotation == "fixed"]
    rows = []
    for proto in run.protos:
        for p in run.pairings + ["All"]:
            sub = [g for c, g in fixed if run.proto_of[id(g)] == proto and (p == "All" or c.pairing == p)]
            if not sub:
                continue
            m = run.pm(sub)
            rows.append(run.lead(p, proto) + [m["games"], m["payoff_alternation"], m["sustained_alternation"],
                                              m["win_stay"], m["lose_shift"], run.fb(m)])
    if not rows:
        return None
    return run.finish(Table(
        "resource_table4", "Table 4 layout: game-strategy rates across repeated rounds (non-rotating games, "
        "main cohort)",
        run.lead_cols + ["Games", "Payoff alternation %", "Sustained alternation %", "Win-stay %", "Lose-shift %",
                         run.fb_col],
        rows, run.lead_fmt + ["int", "pct", "pct", "pct", "pct", "int"],
        ["Payoff alternation: adjacent round pairs where the higher-reward agent flips (a pair with an equal-"
         "reward round does not flip); sustained: 4-round windows alternating A B A B; win-stay: joint "
         "allocation repeated after a "
         "non-overdrawn round; lose-shift: changed after a non-optimal round (Appendix E). Pairs and windows "
         "are of adjacent rounds both kept."]), [g for _, g in fixed])


_PROCESS_KEYS = [
    ("early_decision_rate", "Early decision %", "pct"), ("equal_split_rate", "Equal split %", "pct"),
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


def _resource_process(run: _ResourceRun) -> Table | None:
    """The §5.2-5.6 process rates per pairing (and variant), talk games."""
    keys = _PROCESS_KEYS
    vlead_cols = ["Pairing", "Type"] + (["Variant"] if run.show_variant else [])
    rows = []
    na_rows = []  # the rows with rounds whose early decision is n/a, and why
    for variant in run.variants:
        for p in run.pairings + ["All"]:
            sub = [g for c, g in run.talk if c.variant == variant and (p == "All" or c.pairing == p)]
            if not sub:
                continue
            m = run.pm(sub)
            rows.append(run.vlead(p, variant) + [m["rounds"]] + [m[k] for k, _, _ in keys])
            if m["early_decision_na"]:
                why = ", ".join(f"{r}: {n}" for r, n in m["early_decision_na"].items())
                row_name = p + (f" ({variant or 'main'})" if run.show_variant else "")
                na_rows.append(f"{row_name}: {sum(m['early_decision_na'].values())} of {m['rounds']} rounds ({why})")
    early_notes = [
        "Early decision: a decision sent during cheap talk on a turn before the decider's last allowed one "
        "(cheap_talk_turns per agent; a decision on the last allowed turn is not early)."]
    if na_rows:
        early_notes.append(
            f"Early decision n/a ({_DASH} where every round is; otherwise over the other rounds only): no per-agent "
            "turn limit to decide before under unlimited talk, in a no-talk game or when a trace's config does not "
            "record cheap_talk_turns. " + "; ".join(na_rows) + ".")
    if not rows:
        return None
    return run.finish(Table(
        "resource_process", "Process metrics (seed 000 §5.2-5.6), talk games",
        vlead_cols + ["Rounds"] + [h for _, h, _ in keys], rows,
        ["text"] * len(vlead_cols) + ["int"] + [f for _, _, f in keys],
        ["Over rounds unless said: equal splits suboptimal over equal-split rounds (perfunctory fairness = "
         "equal split in a suboptimal, non-overdrawn round, over all rounds); repeats over consecutive round "
         "pairs of one-scenario games (after an overdrawn round; stubborn anchoring: of the rounds that are "
         "suboptimal and not overdrawn, with a previous round, the share repeating its allocation); "
         "deference (followed exactly; suboptimal = in a round that is not jointly "
         "optimal) over rounds with an other-directed proposal, round-1 deference over round 1 of "
         "non-rotating games with one; median proposal turn: the proposer's own talk turn of the round "
         "(1 = its first message, whoever opened; up to 5 turns each) of the round's first other-directed "
         "proposal; deference after a yes (ours, not the paper's) also needs "
         "the addressee's acceptance; abandonment in overdraw over overdrawn rounds. Definitions: "
         "negotiation_env.analysis.resource_metrics."] + early_notes), [g for _, g in run.talk], main_only=False)


def _resource_process_models(run: _ResourceRun) -> Table | None:
    """Per model: the §5.4 equal-split and perfunctory rates and the §5.5 compliance, talk games."""
    rows = []
    for variant in run.variants:
        for model, mm in model_metrics([g for c, g in run.talk if c.variant == variant],
                                       include_fallbacks=run.include_fallbacks).items():
            rows.append([model] + ([variant or "main"] if run.show_variant else []) + [
                mm["games"], mm["rounds"], mm["equal_split_rate"], mm["perfunctory_fairness_rate"],
                mm["proposals_received"], mm["compliance_rate"], mm["accepted_compliance_rate"]])
    if not rows:
        return None
    return run.finish(Table(
        "resource_process_models", "Process metrics per model (seed 000 §5.4-5.5), talk games",
        ["Model"] + (["Variant"] if run.show_variant else []) + [
            "Games", "Rounds", "Equal split %", "Perfunctory fairness %", "Proposals received", "Compliance %",
            "Compliance after a yes %"],
        rows, ["text"] * (2 if run.show_variant else 1) + ["int", "int", "pct", "pct", "int", "pct", "pct"],
        ["Equal split and perfunctory fairness: over the rounds of the games the model played (dyad-level; a "
         "self-play game counts once). Compliance: of the rounds' first other-directed proposals addressed "
         "to the model, the share it followed exactly (after a yes: ours, not the paper's)."]),
        [g for _, g in run.talk], main_only=False)


def _resource_anchoring(run: _ResourceRun) -> Table | None:
    """§5.5 repeats and stubborn anchoring by partner stability and M/C, talk games."""
    rows = []
    for variant in run.variants:
        for partner in sorted({c.partner for c, _ in run.talk}) + ["All"]:
            for mc in run.mcs + ["All"]:
                sub = [g for c, g in run.talk if c.variant == variant and (partner == "All" or c.partner == partner)
                       and (mc == "All" or c.mc == mc)]
                if not sub:
                    continue
                m = run.pm(sub)
                cnt = m["counts"]
                rows.append([partner, "All" if mc == "All" else _mc_text(mc)]
                            + ([variant or "main"] if run.show_variant else [])
                            + [m["games"], cnt["repeat_rate"][1], m["repeat_rate"], m["win_stay"],
                               m["repeat_after_overdraw"], cnt["stubborn_anchoring"][1], m["stubborn_anchoring"]])
    if not rows:
        return None
    return run.finish(Table(
        "resource_anchoring", "Stubborn anchoring by partner stability and M/C (seed 000 §5.5), talk games",
        ["Partner", "M/C"] + (["Variant"] if run.show_variant else []) + [
            "Games", "Round pairs", "Exact repeat %", "Repeat after non-overdrawn %", "Repeat after overdraw %",
            "Suboptimal non-overdrawn rounds", "Stubborn anchoring %"],
        rows, ["text"] * (3 if run.show_variant else 2) + ["int", "int", "pct", "pct", "pct", "int", "pct"],
        ["Consecutive round pairs of one-scenario games: the joint allocation repeated, after a non-overdrawn "
         "round (= win-stay), after an overdrawn one; stubborn anchoring: of the rounds that are suboptimal "
         "and not overdrawn and have a previous round (counted in the column before it), the share that "
         "repeat the previous round's allocation."]), [g for _, g in run.talk],
        main_only=False)


def _resource_table10(run: _ResourceRun) -> tuple[Table | None, _Plot]:
    """Table 10: talk (the matched baseline) / no-talk per pairing x partner x M/C, and the
    talk figure's points."""
    notalk = [(c, g) for c, g in run.rows_all if run.arm_of[id(g)] == "no-talk"]
    talk_plot: _Plot = {}
    if not notalk:
        return None, talk_plot
    disp_cols = ["Pairing", "Partner"] + (["Protocol"] if run.show_proto else [])
    data_cols = list(disp_cols)
    disp_fmt = ["text"] * len(disp_cols)
    data_fmt = list(disp_fmt)
    metric_keys = [("overdraw_rate", "Overdraw %"), ("efficiency", "Efficiency %"), ("optimum_rate", "Optimum %")]
    for mc in run.mcs:
        for _, h in metric_keys:
            disp_cols.append(f"M/C {_mc_text(mc)} {h}")
            disp_fmt.append("text")
            data_cols += [f"M/C {_mc_text(mc)} {h} talk", f"M/C {_mc_text(mc)} {h} no-talk"]
            data_fmt += ["pct", "pct"]
    drows, xrows = [], []
    unmatched = 0
    quiet_protos = sorted({run.proto_of[id(g)] for _, g in notalk})
    for proto in quiet_protos:
        for p in [q for q in run.pairings if any(c.pairing == q for c, _ in notalk)]:
            for partner in sorted({c.partner for c, _ in notalk}):
                cell = [g for c, g in notalk if c.pairing == p and c.partner == partner
                        and run.proto_of[id(g)] == proto]
                if not cell:
                    continue
                head = [p, partner] + ([run.proto_text(proto)] if run.show_proto else [])
                drow, xrow = list(head), list(head)
                for mc in run.mcs:
                    quiet, base, lost = run.matched([g for g in cell if resource_cell(g).mc == mc])
                    unmatched += lost
                    mt, mn = run.pm(base), run.pm(quiet)
                    for k, _ in metric_keys:
                        a, b = _get(mt, k), _get(mn, k)
                        drow.append(f"{_fmt(a, 'pct')} / {_fmt(b, 'pct')}")
                        xrow += [a, b]
                drows.append(drow)
                xrows.append(xrow)
    for mc in run.mcs:
        quiet, base, _ = run.matched([g for c, g in notalk if c.mc == mc])
        for name, sub in (("talk", base), ("no-talk", quiet)):
            m = run.pm(sub)
            if m is not None:
                talk_plot.setdefault(_mc_text(mc), {})[name] = {
                    k: m[k] for k in ("efficiency", "overdraw_rate", "optimum_rate")}
    if not drows:
        return None, talk_plot
    t10_notes = ["Overdraw (%): fraction of rounds with supply violation. Efficiency (%): joint reward / oracle "
                 "optimum. Optimum (%): fraction of rounds achieving the theoretical maximum. Rows: pairings "
                 "with no-talk games. Talk: the matched baseline, main-cohort games of the same pairing, "
                 "M/C, partner stability, rotation and protocol as the no-talk games."]
    if unmatched:
        t10_notes.append(f"{unmatched} no-talk game(s) have no matched talk game and are left out (–).")
        run.notes.append(f"resource_table10: {unmatched} no-talk game(s) without a matched baseline left out.")
    t = Table("resource_table10", "Table 10 layout: cheap talk vs. no-talk baseline (each cell: talk / "
              "no-talk)", disp_cols, drows, disp_fmt, t10_notes,
              data=Table("resource_table10", "talk vs no-talk (data)", data_cols, xrows, data_fmt))
    quiet_games = [g for _, g in notalk]
    return run.finish(t, quiet_games + run.matched(quiet_games)[1], main_only=False), talk_plot


def _resource_table9(run: _ResourceRun) -> Table | None:
    """Table 9: each transparency arm against its matched baseline."""
    return _arm_table(run, "resource_table9", "Table 9 layout: full-transparency intervention vs. matched "
                      "baseline (each cell: baseline → transparency)",
                      [a for a in run.arms if a.startswith("transparency=") and " + " not in a])


def _resource_interventions(run: _ResourceRun) -> Table | None:
    """Every other arm (not no-talk, not an oracle check) against its matched baseline."""
    return _arm_table(run, "resource_interventions", "Interventions vs. matched baseline (Table 9 layout; each "
                      "cell: baseline → intervention)",
                      [a for a in run.arms if a != "no-talk" and not _oracle_arm(a)
                       and not (a.startswith("transparency=") and " + " not in a)])


def _resource_stability(run: _ResourceRun) -> tuple[Table | None, _Plot]:
    """Figure 4's data: stable / shifting per pairing x M/C, main cohort, and its points."""
    disp_cols = list(run.lead_cols)
    data_cols = list(run.lead_cols)
    disp_fmt = list(run.lead_fmt)
    data_fmt = list(run.lead_fmt)
    for mc in run.mcs:
        for h in ("Optimum %", "Efficiency %"):
            disp_cols.append(f"M/C {_mc_text(mc)} {h}")
            disp_fmt.append("text")
            data_cols += [f"M/C {_mc_text(mc)} {h} stable", f"M/C {_mc_text(mc)} {h} shifting"]
            data_fmt += ["pct", "pct"]
    drows, xrows = [], []
    stability_plot: _Plot = {}
    if len({c.partner for c, _ in run.main}) <= 1:
        return None, stability_plot
    for proto in run.protos:
        for p in run.pairings + ["All"]:
            sub = run.main_sub(proto, p)
            if not sub:
                continue
            drow, xrow = run.lead(p, proto), run.lead(p, proto)
            for mc in run.mcs:
                ms = run.pm([g for c, g in sub if c.mc == mc and c.partner == "stable"])
                mh = run.pm([g for c, g in sub if c.mc == mc and c.partner == "shifting"])
                for k in ("optimum_rate", "efficiency"):
                    a, b = _get(ms, k), _get(mh, k)
                    drow.append(f"{_fmt(a, 'pct')} / {_fmt(b, 'pct')}")
                    xrow += [a, b]
                if p != "All" and proto == run.protos[0]:
                    stability_plot.setdefault(p, {})[_mc_text(mc)] = {
                        "stable": _get(ms, "optimum_rate"), "shifting": _get(mh, "optimum_rate")}
            drows.append(drow)
            xrows.append(xrow)
    if not drows:
        return None, stability_plot
    return run.finish(Table(
        "resource_stability", "Stable vs. shifting partners (Figure 4 data; each cell: stable / shifting)",
        disp_cols, drows, disp_fmt, ["Main cohort; shifting: one agent's context resets each round."],
        data=Table("resource_stability", "stable vs shifting (data)", data_cols, xrows, data_fmt)),
        run.main_games), stability_plot


def _resource_failed_improvement(run: _ResourceRun) -> tuple[Table | None, _Plot]:
    """Figure 6's data: what follows a non-optimal round, main cohort, and its points."""
    failure_plot: _Plot = {}
    rows = []
    for proto in run.protos:
        for p in run.pairings + ["All"]:
            sub = [g for _, g in run.main_sub(proto, p)]
            if not sub:
                continue
            m = run.pm(sub)
            row = run.lead(p, proto)
            for prev in ("overdraw", "suboptimal"):
                row.append(m["counts"][f"after_{prev}_optimal"][1])
                row += [m[f"after_{prev}_{to}"] for to in ("optimal", "improved", "failed")]
                if proto == run.protos[0]:
                    failure_plot.setdefault(p, {})[prev] = {
                        "pairs": m["counts"][f"after_{prev}_optimal"][1],
                        **{to: m[f"after_{prev}_{to}"] for to in ("optimal", "improved", "failed")}}
            rows.append(row)
    if not rows:
        return None, failure_plot
    return run.finish(Table(
        "resource_failed_improvement", "Failed improvement: what follows a non-optimal round (Figure 6 data, "
        "main cohort)",
        run.lead_cols + ["After overdraw: pairs", "Overdraw → optimal %", "Overdraw → improved %",
                         "Overdraw → failed %", "After suboptimal: pairs", "Suboptimal → optimal %",
                         "Suboptimal → improved %", "Suboptimal → failed %"],
        rows, run.lead_fmt + ["int", "pct", "pct", "pct", "int", "pct", "pct", "pct"],
        ["Adjacent round pairs (both kept) whose first round was overdrawn / suboptimal (not optimal, not "
         "overdrawn): the next round reaches the joint optimum, improves (efficiency above the first round's, "
         "not optimal) or fails to improve (efficiency not above it; after an overdraw: efficiency 0 again). "
         "The paper's Figure 6 definition is not in seed 000; this rule is ours "
         "(negotiation_env.analysis.resource_metrics)."]), run.main_games), failure_plot


def _resource_table12(run: _ResourceRun) -> Table | None:
    """Table 12: token usage per model and part, main cohort (a note when no step reports any)."""
    usage = token_usage(run.main_games, include_fallbacks=run.include_fallbacks)
    t12 = _token_table(usage)
    if t12 is None:
        if run.main_games:
            run.notes.append("resource_table12: no step of the main-cohort games reports token usage (scripted "
                             "policies report none), so there is no token table.")
        return None
    excluded = sum(p.get("rounds", {}).get("excluded_calls", 0) for p in usage.values())
    if excluded:
        t12.notes.append(f"{excluded} call(s) of left-out fallback rounds are not counted.")
    return run.finish(t12, run.main_games)


def _resource_agent_tables(run: _ResourceRun) -> list[Table]:
    """The Agent errors section and the scripted readers' understanding: every complete
    game, fallback rounds counted."""
    complete = [d for d in run.traces if d.get("game") == "resource"
                and d.get("status", "complete") == "complete" and d.get("rounds")]
    read = _understanding_table(complete)
    return [_error_table(complete)] + ([read] if read is not None else [])


def _resource_judge_tables(run: _ResourceRun, labels: Mapping[str, Mapping[str, Any]] | None
                           ) -> tuple[list[Table], dict[str, Any]]:
    """The judge's labels: Table 13 prevalence and Figure 7 enrichment (and its points), main cohort."""
    if not labels:
        return [], {}
    from .judge import enrichment_table, prevalence_table

    prev = prevalence_table(run.main_games, labels, include_fallbacks=run.include_fallbacks)
    enr = enrichment_table(run.main_games, labels, include_fallbacks=run.include_fallbacks)
    for t in (prev, enr):
        if len(run.main) < len(run.games):
            t.notes.append(_main_line(len(run.games) - len(run.main)))
    return [prev, enr], {r[0]: {"failed": r[4], "overdraw": r[7]} for r in enr.rows}


def _resource_by_mc(run: _ResourceRun) -> _Plot:
    """The by-M/C figure's points: efficiency, overdraw and optimum per pairing x M/C
    (main cohort, first protocol)."""
    by_mc: _Plot = {}
    if not run.protos:
        return by_mc
    for p in run.pairings:
        for mc in run.mcs:
            m = run.pm([g for c, g in run.main_sub(run.protos[0], p) if c.mc == mc])
            if m is not None and m["rounds"]:
                by_mc.setdefault(p, {})[_mc_text(mc)] = {k: m[k] for k in ("efficiency", "overdraw_rate", "optimum_rate")}
    return by_mc


def _main_line(n: int) -> str:
    return (f"Main cohort only: {n} intervention game(s) are shown against their matched baselines in "
            "resource_table9, resource_table10 and resource_interventions.")


def _main_note(n: int, arms: Sequence[str]) -> str:
    return (f"Main cohort only (the headline figures, Tables 3, 4, 12, stability, failed improvement and the "
            f"judge tables): {n} intervention game(s) ({', '.join(arms)}) are shown against their matched "
            "baselines in resource_table9 (transparency), resource_table10 (no talk) and resource_interventions "
            "(the others). Main: cheap talk with 5 turns, thinking on, no transparency, no prompt intervention "
            "(negotiation_env.analysis.resource_metrics.intervention_of).")


def _arm_table(run: _ResourceRun, name: str, title: str, picked: Sequence[str]) -> Table | None:
    """Each arm of ``picked`` against its matched baseline, per pairing x partner x M/C
    and pooled (over the matched cells only)."""
    if not picked:
        return None
    metric_keys = [("overdraw_rate", "Overdraw %"), ("efficiency", "Efficiency %"), ("optimum_rate", "Optimum %"),
                   ("perfunctory_fairness_rate", "Perfunctory fairness %"),
                   ("stubborn_anchoring", "Stubborn anchoring %")]
    head = ["Intervention", "Pairing", "Partner", "M/C"]
    disp_cols = head + ["Games baseline", "Games intervention"] + [h for _, h in metric_keys]
    disp_fmt = ["text"] * 4 + ["int", "int"] + ["text"] * len(metric_keys)
    data_cols = head + ["Games baseline", "Games intervention"]
    data_fmt = ["text"] * 4 + ["int", "int"]
    for _, h in metric_keys:
        data_cols += [f"{h} baseline", f"{h} intervention"]
        data_fmt += ["pct", "pct"]
    drows, xrows = [], []
    unmatched = 0

    def add(arm: str, p: str, partner: str, mc: Any, sub: list[dict[str, Any]], cell: bool) -> None:
        nonlocal unmatched
        with_base, base, lost = run.matched(sub)
        if cell:
            unmatched += lost
        mb, mi = run.pm(base), run.pm(with_base)
        lead = [arm, p, partner, mc if isinstance(mc, str) else _mc_text(mc)]
        counts = [_get(mb, "games") or 0, _get(mi, "games") or 0]
        drow, xrow = lead + counts, lead + counts
        for k, _ in metric_keys:
            a, b = _get(mb, k), _get(mi, k)
            drow.append(f"{_fmt(a, 'pct')} → {_fmt(b, 'pct')}")
            xrow += [a, b]
        drows.append(drow)
        xrows.append(xrow)

    for arm in picked:
        arm_games = [(c, g) for c, g in run.rows_all if run.arm_of[id(g)] == arm]
        arm_pairings = [q for q in run.pairings if any(c.pairing == q for c, _ in arm_games)]
        for p in arm_pairings:
            cells_ = sorted({(c.partner, c.mc) for c, _ in arm_games if c.pairing == p},
                            key=lambda x: (x[0], _mc_key(x[1])))
            for partner, mc in cells_:
                add(arm, p, partner, mc, [g for c, g in arm_games if c.pairing == p and c.partner == partner
                                          and c.mc == mc], True)
            if len(cells_) > 1:
                add(arm, p, "All", "All", [g for c, g in arm_games if c.pairing == p], False)
        if len(arm_pairings) > 1:
            add(arm, "All", "All", "All", [g for _, g in arm_games], False)
    if not drows:
        return None
    t_notes = ["Each cell: matched baseline → intervention. The matched baseline of an intervention game is the "
               "main-cohort games of the same pairing, M/C, partner stability, rotation and protocol; an All row "
               "pools the matched cells only, so both sides cover the same cells. Perfunctory fairness: equal "
               "split in a suboptimal round, over rounds; stubborn anchoring: allocation repeated after a "
               "suboptimal, non-overdrawn round (§5.7)."]
    if unmatched:
        t_notes.append(f"{unmatched} intervention game(s) have no matched baseline and are left out.")
        run.notes.append(f"{name}: {unmatched} intervention game(s) without a matched baseline left out.")
    sub = [g for _, g in run.rows_all if run.arm_of[id(g)] in picked]
    return run.finish(Table(name, title, disp_cols, drows, disp_fmt, t_notes,
                            data=Table(name, title + " (data)", data_cols, xrows, data_fmt)),
                      sub + run.matched(sub)[1], main_only=False)


_TOKEN_PARTS = ("rounds", "talk", "decision")


def _token_table(usage: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> Table | None:
    """Table 12: token usage per model and part of the game, averaged per agent-round."""
    rows = []
    partial = 0
    for model, parts in usage.items():
        rounds_ = sorted((p for p in parts if p.startswith("round ")), key=lambda p: int(p.split()[1]))
        for part in [p for p in _TOKEN_PARTS if p in parts] + rounds_ + (["reflection"] if "reflection" in parts
                                                                           else []):
            r = parts[part]
            if not r["calls"]:
                continue
            u = r["units"]
            full = r["thinking_calls"] == r["calls"]
            partial += not full
            think = r["thinking"] / u if full else None
            rows.append([model, "all rounds" if part == "rounds" else part, r["calls"], u, r["prompt"] / u,
                         r["completion"] / u, think, None if think is None else r["completion"] / u - think,
                         (r["thinking"] / r["completion"] if r["completion"] else None) if full else None])
    if not rows:
        return None
    t_notes = ["API-reported token counts summed per agent-round (every call of the agent in that round, retries "
               "included), then averaged over agent-rounds (per agent-game for the reflection); a talk, decision "
               "or round row is over the agent-rounds with a call in it (the Agent-rounds column); thinking = "
               "reasoning tokens, part of completion; visible output = completion − thinking; think % = thinking "
               "/ completion (seed 000 Table 12)."]
    if partial:
        t_notes.append(f"{partial} row(s) have calls that report no thinking count: thinking, visible and think % "
                       "are – there.")
    return Table("resource_table12", "Table 12 layout: average token usage per agent-round by model and part "
                 "(main cohort)",
                 ["Model", "Part", "Calls", "Agent-rounds", "Prompt", "Completion", "Thinking", "Visible output",
                  "Think %"], rows, ["text", "text", "int", "int", "num", "num", "num", "num", "pct"], t_notes)


def _error_table(complete: Sequence[dict[str, Any]]) -> Table:
    """The paper's Agent errors figures per model over every complete resource game."""
    from .resource_metrics import error_rates

    rows = []
    for model, r in error_rates(complete).items():
        ar = r["agent_rounds"]
        rows.append([model, r["games"], ar, r["validation_error"], r["output_format_warning"],
                     r["heuristic_fallback"], r["decision_auto_filled"], r["talk_turn_forfeited"], r["events"],
                     r["events"] / ar if ar else None,
                     (r["validation_error"] + r["output_format_warning"]) / ar if ar else None,
                     r["heuristic_fallback"] / ar if ar else None, r["fallback_rounds"],
                     r["games_with_error"] / r["games"] if r["games"] else None,
                     r["events"] / r["games"] if r["games"] else None])
    return Table("resource_errors", "Agent errors per model (seed 000 Agent errors section)",
                 ["Model", "Games", "Agent-rounds", "Validation errors", "Format warnings", "Heuristic fallbacks",
                  "Auto-filled decisions", "Talk turns forfeited", "Error events", "Errors / agent-round",
                  "Retriable / agent-round", "Fallbacks / agent-round", "Fallback rounds", "Games with an error %",
                  "Error events / game"],
                 rows, ["text", "int", "int", "int", "int", "int", "int", "int", "int", "num", "num", "num", "int",
                        "pct", "num"],
                 ["Every complete resource game read (main cohort and interventions; degraded games too, since "
                  "their errors are what this table counts). Error events are the paper's four: validation_error "
                  "and output_format_warning (retriable: the agent is asked again up to max_retries times), "
                  "heuristic_fallback (no valid allocation after every retry) and decision_auto_filled (the "
                  "substituted decision). Talk turns forfeited (a talk turn with no valid answer after every retry) "
                  "are ours and not in the total. Agent-rounds: resolved rounds x the model's seats (a self-play "
                  "round counts twice). Fallback rounds are counted here, not left out."])


def _understanding_table(complete: Sequence[dict[str, Any]]) -> Table | None:
    """How much of its partners' talk each scripted negotiator read, per pairing."""
    from .resource_metrics import understanding

    rows = [[pair, reader, r["games"], r["messages"], r["unread"],
             1 - r["unread"] / r["messages"] if r["messages"] else None]
            for (pair, reader), r in understanding(complete).items()]
    if not rows:
        return None
    return Table("resource_understanding", "Partner messages the scripted negotiators read, per pairing",
                 ["Pairing", "Reader", "Games", "Partner messages", "Unread", "Read %"], rows,
                 ["text", "text", "int", "int", "int", "pct"],
                 ["Every complete resource game read. A scripted negotiator logs an unread_message event for each "
                  "partner message about the negotiation (a number, a resource, a split, a deal, a project) in "
                  "which the reader of negotiation language read nothing, and answers it by asking for the offer "
                  "in words; small talk is not counted as unread. Read % = 1 - unread / partner messages "
                  "delivered in talk. Only scripted seats report: a model's seat has no row."])


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


# --------------------------------------------------------------------------- matrix


@dataclass
class _MatrixRun:
    """What every matrix table draws on, read once per report: the matrix traces, the
    dyads of those with a resolved round, the complete-case dyads, Table 1's rows (the
    pooled and sensitivity tables read its marks), the bootstrap resamples and the notes."""

    games: list[dict[str, Any]]
    usable: list[Any]
    kept: list[Any]
    rows_in: list[dict[str, Any]]
    n_resamples: int
    notes: list[str]

    @classmethod
    def of(cls, traces: Iterable[Any], n_resamples: int) -> _MatrixRun | None:
        """The run of ``traces`` (None when they hold no matrix game)."""
        from . import matrix_metrics as mm

        games = [as_dict(t) for t in traces]
        games = [g for g in games if g.get("game") == "matrix"]
        if not games:
            return None
        usable = [g for g in games if g.get("rounds")]
        notes = []
        if len(usable) < len(games):
            notes.append(f"{len(games) - len(usable)} matrix game(s) without a resolved round left out: "
                         + ", ".join(str(g.get("game_id")) for g in games if not g.get("rounds"))[:400])
        usable = [mm.dyad_of(g) for g in usable]  # read once; every metric takes Dyads as well as traces
        kept = mm.dyads_of(usable, "complete")
        if len(kept) < len(usable):
            notes.append(f"{len(usable) - len(kept)} matrix dyad(s) left out of the complete-case tables (an error "
                         "fallback, fewer rounds than planned or a game that ended in an error); the all-available "
                         "row of matrix_sensitivity keeps them.")
        return cls(games, usable, kept, mm.switching_table(usable, n_resamples=n_resamples), n_resamples, notes)


def matrix_tables(traces: Iterable[Any], *, n_resamples: int = MATRIX_RESAMPLES) -> tuple[list[Table], list[dict[str, Any]], list[str]]:
    """Seed 002 from matrix-game traces: Table 1, the pooled game / pairing / overall
    effects (§4), the outcome table (Appendix A.1), the A.1 differences (Tables S1, S2),
    the equal-cell joint outcomes (Table S3), the alternation audit (Table S4), the error
    audit (Table S5) and the complete-case vs all-available sensitivity (A.3); plus
    Figure rows and notes.

    Rows are policy pairings x stage games, each pooling its framings with equal weight
    (:func:`~.matrix_metrics.switching_table`); per-framing symbols are the
    Benjamini-Hochberg classification across every tested cell of the table. A cell or
    row whose dyads are too few for any permutation test to reach .05 gets no p, no
    interval and ``n/a``, and a note says how many.
    """
    run = _MatrixRun.of(traces, n_resamples)
    if run is None:
        return [], [], []
    # _matrix_table1 adds its lines to run.notes
    return [_matrix_table1(run), _matrix_pooled_effects(run), _matrix_outcomes(run), _matrix_outcome_effects(run),
            _matrix_outcome_effects_by_game(run), _matrix_joint_outcomes(run), _matrix_alternation(run),
            _matrix_error_audit(run), _matrix_sensitivity(run)], run.rows_in, run.notes


def _matrix_table1(run: _MatrixRun) -> Table:
    """Table 1: switching without and with talk per pairing x stage game, with the framing marks."""
    from . import matrix_metrics as mm

    codes = [c for c in ("N", "B", "E", "S", "T", "IR") if any(c in (r.get("contexts") or {}) for r in run.rows_in)]
    cols = ["Pairing", "Game", "S no talk %", "S talk %", "ΔS (pp)", "ΔS 95% CI (pp)", "p", "Dyads no talk",
            "Dyads talk"] + codes
    fmts = ["text", "text", "pct", "pct", "pct", "pct_ci", "p", "int", "int"] + ["text"] * len(codes)
    rows = [[r["model"], r["game"], r["s_no_talk"], r["s_talk"], r["delta"], r["delta_ci"], r["p"], r["dyads_no_talk"],
             r["dyads_talk"]] + [(r.get("contexts") or {}).get(k) for k in codes] for r in run.rows_in]
    t1_notes = ["S: adjacent-round switches / transitions, pooled over agents and dyads within a framing, then "
                "framings weighted equally; ΔS = S(no talk) - S(talk), positive = stabilizing. Percentile 95% CI "
                f"from {run.n_resamples} dyad bootstrap resamples stratified by framing x treatment (seed 42); "
                "two-sided "
                "p of the permutation test over dyads (treatment labels relabelled within each framing; exact when "
                f"there are at most {run.n_resamples} relabellings). Framing columns (N, B, E, S, T, IR): "
                "Benjamini-Hochberg across every tested cell of the table, q < .05: + stabilizing, - destabilizing, "
                "· null. Complete-case dyads only."]
    untested_cells = sum(sym == mm.UNTESTED for r in run.rows_in for sym in (r.get("contexts") or {}).values())
    n_cells = sum(len(r.get("contexts") or {}) for r in run.rows_in)
    untested_rows = sum(not r["tested"] for r in run.rows_in)
    if untested_cells or untested_rows:
        t1_notes.append(f"n/a, and p and CI –: too few dyads to test. With n1 and n2 dyads a cell's smallest two-sided "
                        "permutation p is 2 / C(n1 + n2, n1) (2 vs 2: 2/6 = 0.333; 4 vs 4: 2/70 = 0.029), a row's "
                        "the product over its framings; where it is not below .05 no test can be significant, so "
                        "none is made and the cell is not in the Benjamini-Hochberg family.")
        run.notes.append(f"matrix_table1: {untested_cells} of {n_cells} framing cell(s) and {untested_rows} of "
                     f"{len(run.rows_in)} row(s) have too few dyads to test (no p, CI or mark; marked n/a).")
    small = [min(e["dyads"]) for r in run.rows_in if r["delta_ci"] is not None for e in r["cell_effects"].values()]
    if small and min(small) < 20:
        t1_notes.append(f"Cells here have as few as {min(small)} dyads a treatment: the percentile bootstrap interval "
                        "is then narrower than its nominal 95% (n resampled dyads keep (n - 1)/n of their variance), "
                        "so it can exclude 0 where the test does not reject; p and the marks are the permutation "
                        "test's, valid at any size.")
    if any(r["tested"] and r["delta_ci"] is None for r in run.rows_in):
        t1_notes.append("A tested row's CI is – where one of its framings is too small to test on its own: "
                        "resampling a cell of two dyads halves their variance, so the interval would be too narrow.")
    t1 = Table("matrix_table1", "Table 1 layout: communication effects on adjacent-round switching", cols, rows, fmts,
               t1_notes)
    return t1


def _matrix_pooled_effects(run: _MatrixRun) -> Table:
    """ΔS pooled per stage game, per pairing and overall, with the groups' marks."""
    from . import matrix_metrics as mm

    pooled = mm.pooled_effects(run.usable, n_resamples=run.n_resamples)
    level_key = {"game": "key_stage_game", "pairing": "key_pairing"}
    prow = []
    for r in pooled:
        marks = [sym for t in run.rows_in if r["level"] == "all" or t.get(level_key[r["level"]]) == r["key"]
                 for sym in (t.get("contexts") or {}).values()]
        tested = sum(sym != mm.UNTESTED for sym in marks)
        prow.append([{"game": "game", "pairing": "pairing", "all": "all"}[r["level"]], r["group"], r["cells"],
                     r["s_no_talk"], r["s_talk"], r["delta"], r["relative"], r["delta_ci"], r["p"],
                     r["dyads_no_talk"], r["dyads_talk"], f"{marks.count('+')}/{tested}",
                     f"{marks.count('-')}/{tested}"])
    t_pooled = Table("matrix_pooled_effects", "Pooled communication effects by game, pairing and overall (the "
                     "matrix paper's §4 and Methods)",
                     ["Level", "Group", "Cells", "S no talk %", "S talk %", "ΔS (pp)", "Relative reduction %",
                      "ΔS 95% CI (pp)", "p", "Dyads no talk", "Dyads talk", "Stabilizing cells",
                      "Destabilizing cells"], prow,
                     ["text", "text", "int", "pct", "pct", "pct", "pct", "pct_ci", "p", "int", "int", "text", "text"],
                     ["ΔS pooled over every pairing x stage game x framing cell of the group played in both "
                      "treatments, cells weighted equally (game: its pairing x framing cells; pairing: its stage game "
                      "x framing cells; all: every cell), as the paper's game-level reductions (\"45.8 points in "
                      "Prisoner's Dilemma\") and model-level estimates. Relative reduction = ΔS / S(no talk). As in "
                      f"matrix_table1, the percentile 95% CI from {run.n_resamples} dyad bootstrap resamples "
                      "stratified by "
                      "cell x treatment (seed 42) and p of the permutation test over dyads within cells; – where a "
                      "cell is too small to test on its own. Stabilizing / destabilizing cells: the group's framing cells marked + / - in "
                      "matrix_table1 (Benjamini-Hochberg across every tested cell of that table, q < .05), out of its "
                      "cells with enough dyads to test. Complete-case dyads only."])
    return t_pooled


def _matrix_outcomes(run: _MatrixRun) -> Table:
    """Appendix A.1-A.2 outcomes per pairing x stage game x treatment."""
    from . import matrix_metrics as mm

    orows = []
    for r in mm.outcome_table(run.usable):
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
    return t2


_EFFECT_COLS = ["Dyads no talk", "Dyads talk", "A % no talk", "A % talk", "ΔA (pp)", "ΔA 95% CI (pp)",
                "Payoff no talk", "Payoff talk", "ΔPayoff", "ΔPayoff 95% CI"]
_EFFECT_FMTS = ["int", "int", "pct", "pct", "pct", "pct_ci", "num", "num", "num", "ci"]


def _effect_cells(r: Mapping[str, Any]) -> list[Any]:
    a, pay = r["a_rate"], r["payoff_per_round"]
    return [r["dyads_no_talk"], r["dyads_talk"], a["no_talk"], a["talk"], a["delta"], a["ci"], pay["no_talk"],
            pay["talk"], pay["delta"], pay["ci"]]


def _effect_note(n_resamples: int) -> str:
    return (f"Differences are talk minus no talk. 95% percentile CI from {n_resamples} dyad bootstrap resamples "
            "within each cell, talk and no-talk dyads resampled independently (seed 42); – where a cell's dyads "
            "are too few to test on their own (as in matrix_table1). Complete-case dyads only.")


def _matrix_outcome_effects(run: _MatrixRun) -> Table:
    """Table S2: action-A rate and payoff without and with talk per pairing x stage game."""
    from . import matrix_metrics as mm

    eff = mm.outcome_effects(run.usable, n_resamples=run.n_resamples)
    return Table("matrix_outcome_effects", "Action-A rate and payoff by treatment with differences (seed 002 "
                 "Table S2 layout)", ["Pairing", "Game"] + _EFFECT_COLS,
                 [[r["pairing"], r["game"]] + _effect_cells(r) for r in eff], ["text", "text"] + _EFFECT_FMTS,
                 ["Within each pairing x game, framings weighted equally. " + _effect_note(run.n_resamples)])


def _matrix_outcome_effects_by_game(run: _MatrixRun) -> Table:
    """Table S1: action-A rate and payoff without and with talk per stage game."""
    from . import matrix_metrics as mm

    eff_game = mm.outcome_effects(run.usable, rows=("stage_game",), cells=("pairing", "framing"),
                                  n_resamples=run.n_resamples)
    return Table("matrix_outcome_effects_by_game", "Action-A rate and payoff by game and treatment with "
                 "differences (seed 002 Table S1 layout)", ["Game", "Cells"] + _EFFECT_COLS,
                 [[r["game"], r["cells"]] + _effect_cells(r) for r in eff_game],
                 ["text", "int"] + _EFFECT_FMTS,
                 ["Every pairing x framing cell of a game weighted equally. " + _effect_note(run.n_resamples)])


def _matrix_joint_outcomes(run: _MatrixRun) -> Table:
    """Table S3: joint-action shares per stage game and treatment, cells weighted equally."""
    from . import matrix_metrics as mm

    jrows = []
    for r in mm.joint_outcome_table(run.usable):
        j = r["joint"]
        jrows.append([r["game"], "talk" if r["treatment"] == "communication" else "no talk", r["cells"], r["dyads"],
                      j["AA"], j["AB"], j["BA"], j["BB"]])
    t_joint = Table("matrix_joint_outcomes", "Joint-action frequencies by game and treatment, equal-cell weighting "
                    "(Table S3 layout)", ["Game", "Treatment", "Cells", "Dyads", "AA %", "AB %", "BA %", "BB %"],
                    jrows, ["text", "text", "int", "int", "pct", "pct", "pct", "pct"],
                    ["Share of rounds with each joint action (first letter: the first seat), computed within every "
                     "pairing x framing cell of the game, then the cells weighted equally, as Table S1; only cells "
                     "played in both treatments, so both rows of a game average the same cells. The paper's A, AB, "
                     "BA, B columns are AA, AB, BA, BB here. Complete-case dyads only (matrix_outcomes pools dyads "
                     "instead)."])
    return t_joint


def _matrix_alternation(run: _MatrixRun) -> Table:
    """Table S4: no-talk alternation per pairing x stage game."""
    from . import matrix_metrics as mm

    arows = []
    for r in mm.alternation_table(run.usable):
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
    return t_alt


def _matrix_error_audit(run: _MatrixRun) -> Table:
    """Table S5: the error audit per pairing and treatment, every matrix trace."""
    from . import matrix_metrics as mm

    audit = mm.error_audit(run.games)
    t_audit = Table("matrix_error_audit", "Error audit by pairing and treatment (Table S5 layout)",
                    ["Pairing", "Treatment", "Dyads", "Error-marked dyads", "Malformed-output events",
                     "Unparsable actions", "Empty messages", "API-failure events", "Partial dyads",
                     "Complete clean dyads"],
                    [[r["pairing"] if r["treatment"] != "all" else "all",
                      {"none": "no talk", "communication": "talk", "all": "both"}.get(r["treatment"], r["treatment"]),
                      r["dyads"], r["error_marked"], r["malformed"], r["malformed_actions"], r["malformed_messages"],
                      r["api_failures"], r["partial"], r["complete_clean"]] for r in audit],
                    ["text", "text"] + ["int"] * 8,
                    ["Every matrix trace read, also those without a resolved round (Dyads: the paper's planned "
                     "dyads, one trace per game played or begun). Error-marked: some decision fell back to the "
                     "paper's default (an unreadable action played as B, an empty message sent as \"[No message "
                     "sent]\") or the game ended in an error. Malformed-output events: answers the parser refused "
                     "(each refused try under on_error=\"retry\"), split into unparsable actions and empty messages; "
                     "a dyad may hold more than one. API-failure events: model-call faults the policy recorded "
                     "(timeouts, HTTP and connection errors, unusable answers; each failed try, retried or not; an "
                     "answer cut at its token limit is not one) and games that ended in an exception; a refused "
                     "answer of a call that failed for good counts here, not as malformed. Partial: fewer rounds "
                     "than planned. Complete clean: every planned round and no error mark, the dyads of the "
                     "complete-case tables."])
    return t_audit


def _matrix_sensitivity(run: _MatrixRun) -> Table:
    """A.3: the complete-case and all-available analyses side by side."""
    from . import matrix_metrics as mm

    srows = []
    classes = {}
    # the same dyads make the same figures (each call seeds its own resampling): Table 1 is the
    # complete-case table, and where no dyad is left out the all-available row repeats it
    same = len(mm.dyads_of(run.usable, "all")) == len(run.kept)
    done: dict[str, Any] = {}
    for analysis in ("complete", "all"):
        if analysis == "all" and same:
            e, table = done["effect"], run.rows_in
        else:
            e = done["effect"] = mm.communication_effect(run.usable, analysis=analysis, n_resamples=run.n_resamples)
            table = run.rows_in if analysis == "complete" else mm.switching_table(run.usable, analysis=analysis,
                                                                               n_resamples=run.n_resamples)
        m = mm.pooled_metrics(run.usable, analysis)
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
    return t3


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


def resamples_of(n_resamples: int | None) -> dict[str, int]:
    """The bootstrap resamples of each game's tables: ``n_resamples`` for all of them, or
    by default :data:`MATRIX_RESAMPLES` for the matrix tables and
    :data:`RULEMAKING_RESAMPLES` for the rulemaking intervals."""
    if n_resamples is None:
        return {"matrix": MATRIX_RESAMPLES, "rulemaking": RULEMAKING_RESAMPLES}
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    return {"matrix": n_resamples, "rulemaking": n_resamples}


def build_report(traces: Sequence[Any], out_dir: str | Path, *, plots: bool = True,
                 problems: Sequence[Any] = (), n_resamples: int | None = None, include_fallbacks: bool = False,
                 labels: Mapping[str, Mapping[str, Any]] | None = None, labels_source: str | None = None) -> Report:
    """Write every table (``NAME.md``, ``NAME.csv``), figure (``fig_*.png``),
    ``cells.csv`` and ``report.md`` for ``traces`` into ``out_dir``. Resource rounds with
    a fallback decision are left out (the paper's rule) unless ``include_fallbacks``.
    ``n_resamples``: bootstrap resamples of every interval (:func:`resamples_of`; by
    default the matrix paper's 10,000 for the matrix tables, 2,000 for rulemaking's).
    ``labels``: LLM-judge labels (``game_id -> record``, :func:`~.judge.load_labels`) for
    the judge prevalence and enrichment tables; ``labels_source`` names their file in a
    note."""
    resamples = resamples_of(n_resamples)
    traces = [as_dict(t) for t in traces]
    check_env_versions(traces)  # two versions of one game's rules are never pooled
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
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

    res_tables, res_plot = resource_tables(traces, include_fallbacks=include_fallbacks, labels=labels)
    rep.notes.extend(res_plot.get("notes", []))
    if labels_source and not any((r or {}).get("status") == "ok" for r in (labels or {}).values()):
        rep.notes.append(f"judge labels file {labels_source} holds no ok record: no judge tables")
    elif labels and labels_source:
        rep.notes.append(f"judge tables from {labels_source}")
    rm_tables, rm_points = rulemaking_tables(traces, n_resamples=resamples["rulemaking"])
    mx_tables, mx_rows, mx_notes = matrix_tables(traces, n_resamples=resamples["matrix"])
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
                ("fig_resource_failed_improvement.png", _plots.plot_failed_improvement, res_plot.get("failure")),
                ("fig_judge_enrichment.png", _plots.plot_enrichment, res_plot.get("enrichment")),
                ("fig_rulemaking_entropy_agreement.png", _plots.plot_rulemaking, rm_points),
                ("fig_matrix_switching.png", _plots.plot_switching, mx_rows),
            ]
            for name, fn, data in figs:
                if data:
                    rep.figures.append(fn(data, out / name))

    for t in rep.tables:
        for suffix, text in ((".md", t.markdown()), (".csv", t.csv_text())):
            path = out / f"{t.name}{suffix}"
            write_text(path, text)
            rep.files.append(path)
    ct = cells_table(traces)
    path = out / "cells.csv"
    write_text(path, ct.csv_text())
    rep.files.append(path)
    rep.files.extend(rep.figures)

    rep.write_index(out / "report.md", ["# Report", "", "Games read: " + (
        ", ".join(f"{g} {n}" for g, n in sorted(rep.games.items())) or "none"), ""])
    return rep


def report_run(path: str | Path, out: str | Path | None = None, *, plots: bool = True,
               runs: Any = None, include_fallbacks: bool = False, labels: str | Path | None = None,
               n_resamples: int | None = None) -> Report:
    """Read the traces of ``path`` (a run folder or a ``.jsonl`` file) and write the
    report to ``out`` (default ``DIR/report``, or ``report`` beside a file). One run is
    read unless ``runs`` says otherwise (``"all"``, or run ids; see
    :func:`negotiation_env.traces.iter_traces`); every line dropped (torn, undecodable,
    failing the schema, a duplicate, another run's) becomes a note of the report.
    ``include_fallbacks``: count resource rounds with a fallback decision as play.
    ``labels``: a judge labels file; default ``DIR/judge/merged.jsonl`` (several judges
    merged, :func:`~.judge.merge_labels`) when it exists, else ``DIR/judge/labels.jsonl``.
    ``n_resamples``: see :func:`build_report`."""
    from ..traces import read_traces
    from .judge import LABELS_DIR, LABELS_FILE, MERGED_FILE, load_labels

    src = Path(path)
    res = read_traces(src, runs=runs)
    base = src if src.is_dir() else src.parent
    if out is None:
        out = base / DEFAULT_OUT
    if labels is None:
        labels = next((p for p in (base / LABELS_DIR / MERGED_FILE, base / LABELS_DIR / LABELS_FILE) if p.exists()),
                      None)
    found = load_labels(labels) if labels is not None else None
    return build_report(res.traces, out, plots=plots, problems=res.problems, include_fallbacks=include_fallbacks,
                        labels=found, labels_source=str(labels) if labels is not None else None,
                        n_resamples=n_resamples)
