"""The matrix game's part in the analysis layer (seed 002): its report tables and
figure, its cells-listing columns, condition label and outcome tags, its viewer search text
and run-summary headline, as the :class:`~.hooks.GameAnalysis` the game's spec names
(``ANALYSIS``).

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
* The replication card (``report --card``, :func:`matrix_card`): Table 1's ΔS per model
  and game beside the run's dyads of the same model, "not comparable" for any other run.
* ``matrix_sensitivity``: A.3, the complete-case and all-available-transition analyses
  side by side, with how many corrected classifications differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from .cards import Observed, Published, ReplicationCard, judge, model_rows, not_comparable
from .cells import as_dict, matrix_cell
from .hooks import Figure, GameAnalysis, ReportSection
from .tables import Table
from ..games.matrix.spec import NAME as GAME

__all__ = ["matrix_tables", "matrix_card", "MatrixAnalysis", "ANALYSIS", "RESAMPLES"]

#: bootstrap resamples (and random relabellings of the permutation test) of the matrix
#: tables: the matrix paper's 10,000 (Methods, A.1)
RESAMPLES = 10_000




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
        games = [g for g in games if g.get("game") == GAME]
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


def matrix_tables(traces: Iterable[Any], *, n_resamples: int = RESAMPLES) -> tuple[list[Table], list[dict[str, Any]], list[str]]:
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




# --------------------------------------------------------------------------- replication card


def matrix_card(traces: Iterable[Any], *, n_resamples: int = RESAMPLES) -> ReplicationCard:
    """The seed 002 Table 1 card (:mod:`negotiation_env.games.matrix.card`): ΔS of each
    model's self-play per stage game (and overall), compared with the run's dyads whose
    two seats play that model (a policy spec's model name, :func:`~.cards.paper_models`);
    any other run is "not comparable" with the reason. The run's ΔS and its interval are
    :func:`~.matrix_metrics.communication_effect` over the row's framings (complete-case
    dyads, cells weighted equally, stratified dyad bootstrap, seed 42, as the matrix
    tables); the verdict is the two-sample z test against the paper's interval."""
    from ..games.matrix import card
    from .matrix_metrics import communication_effect

    games = [d for d in (as_dict(t) for t in traces) if d.get("game") == GAME]
    lines = []
    for d in card.published():
        pub = Published(**d)
        chosen, why = model_rows(pub, games, card.MODELS)
        if why is not None:
            lines.append(not_comparable(pub, why))
            continue
        stage = pub.get("stage_game")
        sel = [g for g in chosen if stage is None or matrix_cell(g).stage_game == stage]
        e = communication_effect(sel, cells=("framing",) if stage else ("pairing", "stage_game", "framing"),
                                 n_resamples=n_resamples, rng=42) if sel else None
        if e is None or e["delta"] is None:
            lines.append(not_comparable(pub, f"condition absent: the run's dyads of {pub.row} play no "
                                             f"{'stage game' if stage is None else stage} framing both with "
                                             "and without talk"))
            continue
        n = int(sum(e["dyads"]))
        method = (f"stratified dyad bootstrap ({n_resamples:,} resamples, seed 42)" if e["tested"]
                  else "none: too few dyads per framing to test")
        lines.append(judge(pub, Observed(e["delta"], n, e["delta_ci"], None, method)))
    return ReplicationCard(GAME, card.PAPER, lines, [
        "This run's figure: ΔS over its complete-case dyads whose two seats play the row's model (a policy "
        "spec's model name, openai:MODEL@URL or hf:PATH, matched by name to the paper's), framings weighted "
        "equally as the paper's rows."])


# --------------------------------------------------------------------------- the hooks


class MatrixAnalysis(GameAnalysis):
    """The matrix game's analysis hooks (module docstring)."""

    resamples = RESAMPLES
    chart_caption = "payoff per agent per round (bar: relative to the largest)"
    chart_kind = "relative"
    headline_label = "payoff / round"
    summary_note = "payoff / round: per agent per round over the complete-case dyads, as the report"
    headline_tables = ("matrix_table1", "matrix_outcomes")
    rating_comparison = "each seat's summed payoff over the repeated stage game against its partner's"

    def condition_label(self, trace: Mapping[str, Any]) -> str:
        m = matrix_cell(trace)
        return f"{m.stage_game} | {m.framing} | {'talk' if m.talk else 'no-talk'}"

    def outcome_tags(self, trace: Mapping[str, Any]) -> list[str]:
        """``fallback`` (a default action or message was used), ``ended_by_error``."""
        outs = [r.get("outcome") or {} for r in trace.get("rounds") or []]
        tags = []
        if any(o.get("error_agents") for o in outs):
            tags.append("fallback")
        if any(o.get("ended_by_error") for o in outs):
            tags.append("ended_by_error")
        return tags

    def cell_fields(self, trace: Mapping[str, Any]) -> dict[str, Any]:
        """environment: the stage game; condition: the framing."""
        m = matrix_cell(trace)
        return {"pairing": m.pairing, "talk": m.talk, "environment": m.stage_game, "condition": m.framing}

    def report(self, traces: Sequence[Mapping[str, Any]], *, n_resamples: int | None, include_fallbacks: bool,
               labels: Mapping[str, Mapping[str, Any]] | None) -> ReportSection:
        tables, rows, notes = matrix_tables(traces, n_resamples=RESAMPLES if n_resamples is None else n_resamples)
        return ReportSection(tables=tables, notes=notes,
                             figures=[Figure("fig_matrix_switching.png", "plot_switching", rows)])

    def replication_card(self, traces: Sequence[Mapping[str, Any]]) -> ReplicationCard:
        return matrix_card(traces)

    def search_extra(self, trace: Mapping[str, Any]) -> list[str]:
        """The rounds' cheap-talk messages."""
        out = []
        for r in trace.get("rounds") or []:
            msgs = (r.get("outcome") or {}).get("messages") if isinstance(r, Mapping) else None
            if isinstance(msgs, Mapping):
                out.extend(msgs.values())
        return out

    def headline(self, group: Sequence[Mapping[str, Any]], figures: Mapping[str, Any]) -> dict[str, Any]:
        from .matrix_metrics import pooled_metrics

        try:
            value = pooled_metrics(group, "complete")["payoff_per_round"]
        except (ValueError, KeyError, TypeError):  # records the metrics cannot read: no figure
            value = None
        return {"measure": "payoff per round", "value": value}


ANALYSIS = MatrixAnalysis()
