"""The resource game's part in the analysis layer (seed 000): its report tables and
figures, its cells-listing columns, condition label and outcome tags, and its viewer
detail, as the :class:`~.hooks.GameAnalysis` the game's spec names (``ANALYSIS``).

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
* ``resource_outcome_space``: where the rounds' outcomes lie in their scenarios' outcome
  spaces (:mod:`negotiation_env.games.resource.outcome_space`) per pairing x M/C, main
  cohort: the share of Pareto-optimal rounds, the mean distance to the Pareto frontier,
  the mean share of the largest Nash product and the mean distance to the
  Kalai–Smorodinsky point, each with a game-cluster bootstrap 95% interval. An annulled
  (overdrawn) round counts as the outcome (0, 0): every scenario can produce it (both
  agents buying nothing), so it is a real, if poor, outcome, never Pareto-optimal in a
  playable scenario and worth 0 of the Nash product.
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
* The replication card (``report --card``, :func:`resource_card`): §5's model rows
  beside the run's games of the same models, "not comparable" for any other run.
* ``judge_prevalence`` / ``judge_enrichment`` (with judge labels: ``DIR/judge/merged.jsonl``
  or ``labels.jsonl``): Table 13's prevalence by round outcome and Figure 7's enrichment.

"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .cards import Observed, Published, ReplicationCard, judge, model_rows, not_comparable
from .cells import as_dict, lineup, resource_cell
from .cells import usable as _usable
from .cells import mc_text as _mc_text
from .hooks import Figure, GameAnalysis, ReportSection
from .resource_metrics import (fallback_rounds, game_metrics, intervention_of, match_key, model_metrics, pool,
                               protocol_of, rounds_of,
                               token_usage)
from .stats import ratio_bootstrap_ci
from ..games.resource.outcome_space import RoundMetrics, outcome_space, round_metrics
from .tables import _DASH, Table, _fmt
from ..games.resource.spec import NAME as GAME
from .viewer import _events, _fold, _kv_table, _num, _step_head, esc

__all__ = ["resource_tables", "ResourceAnalysis", "ANALYSIS", "RESAMPLES", "round_outcome_metrics",
           "game_outcome_space", "resource_card"]

#: bootstrap resamples of the resource intervals (the outcome-space table's; the resource
#: paper gives intervals nowhere)
RESAMPLES = 2000


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
    n_resamples: int = RESAMPLES
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
    def of(cls, traces: Iterable[Any], include_fallbacks: bool, n_resamples: int = RESAMPLES) -> _ResourceRun | None:
        """The run of ``traces`` (None when no resource game is counted)."""
        traces = [d for d in (as_dict(t) for t in traces) if d.get("game") == GAME]
        games, _ = _usable(traces, GAME)
        if not games:
            return None
        return cls(traces, games, include_fallbacks, [(resource_cell(g), g) for g in games],
                   {id(g): intervention_of(g) for g in games}, {id(g): protocol_of(g) for g in games},
                   {id(g): match_key(g) for g in games}, n_resamples=n_resamples)

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
                    labels: Mapping[str, Mapping[str, Any]] | None = None,
                    n_resamples: int = RESAMPLES) -> tuple[list[Table], dict[str, Any]]:
    """The resource-game tables and the data the figures plot (``"notes"``: the lines for
    the report's notes). Rounds with a fallback decision are left out of every table
    unless ``include_fallbacks``; each table says how many. The headline figures and
    Tables 3 and 4 (and the stability, failure-breakdown and token tables) pool only the
    main cohort (:func:`~.resource_metrics.intervention_of`); each intervention arm is
    shown against its matched baseline (Table 9 for transparency, Table 10 for no talk,
    ``resource_interventions`` for the others). ``labels``: judge labels
    (:func:`~.judge.load_labels`) for the judge prevalence and enrichment tables.
    ``n_resamples``: bootstrap resamples of the outcome-space intervals (seed 0)."""
    run = _ResourceRun.of(traces, include_fallbacks, n_resamples)
    if run is None:
        return [], {"notes": []}
    if len(run.main) < len(run.games):
        run.notes.append("resource: " + _main_note(len(run.games) - len(run.main), run.arms))
    if not run.show_proto and run.protos and run.protos[0]:
        run.notes.append(f"resource: every main-cohort game plays {run.protos[0]} (the paper plays 4 rounds).")
    # each builder may add lines to run.notes: they run in the tables' order
    tables = [_resource_summary(run), _resource_table3(run), _resource_outcome_space(run), _resource_table4(run),
              _resource_process(run),
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


def round_outcome_metrics(outcome: Mapping[str, Any]) -> RoundMetrics | str:
    """Where one round outcome of a trace lies in its scenario's outcome space
    (:func:`~negotiation_env.games.resource.outcome_space.round_metrics`), or why it
    cannot be placed: the scenario it names cannot be loaded, is too large to enumerate,
    has another joint optimum than the round recorded (not the scenario that was
    played), or cannot produce the recorded rewards. An annulled round is scored as the
    rewards it recorded, (0, 0)."""
    from ..games.resource.scenario import ScenarioError, ScenarioTooLarge, load_scenario

    name = outcome.get("scenario")
    if not isinstance(name, str) or not name:
        return "the round names no scenario"
    try:
        scenario = load_scenario(name)
        space = outcome_space(scenario)
    except ScenarioTooLarge as e:
        return f"scenario {name!r} is too large to enumerate ({e})"
    except (ScenarioError, OSError, TypeError, ValueError):
        return f"scenario {name!r} cannot be loaded by that name"
    recorded = outcome.get("joint_max")
    if isinstance(recorded, (int, float)) and abs(float(recorded) - space.joint_max) > 1e-6:
        return (f"scenario {name!r} has joint optimum {space.joint_max:g}, the round recorded {recorded:g} "
                "(not the scenario played)")
    try:
        return round_metrics(scenario, outcome.get("rewards") or {})
    except ValueError as e:
        return f"scenario {name!r}: {e}"


def game_outcome_space(trace: Mapping[str, Any], *, include_fallbacks: bool = False
                       ) -> tuple[list[tuple[RoundMetrics, bool]], list[str]]:
    """The kept rounds of one resource game placed in their outcome spaces, as
    ``(metrics, annulled)`` in round order, and the reasons of the kept rounds that could
    not be placed (:func:`round_outcome_metrics`). Rounds with a fallback decision are
    left out unless ``include_fallbacks``, as in every resource table."""
    fb = {} if include_fallbacks else fallback_rounds(trace)
    placed: list[tuple[RoundMetrics, bool]] = []
    unplaced: list[str] = []
    for rd in rounds_of(trace):
        if rd.index in fb:
            continue
        m = round_outcome_metrics(rd.outcome)
        if isinstance(m, str):
            unplaced.append(f"{trace.get('game_id')} round {rd.index}: {m}")
        else:
            placed.append((m, bool(rd.outcome.get("overdraw"))))
    return placed, unplaced


def _space_sums(placed: Sequence[tuple[RoundMetrics, bool]]) -> dict[str, float]:
    """One game's sums for the outcome-space table: each mean is a sum over a count."""
    nash = [m.nash_share for m, _ in placed if m.nash_share is not None]
    kalai = [m.distance_to_kalai for m, _ in placed if m.distance_to_kalai is not None]
    return {"rounds": len(placed), "annulled": sum(a for _, a in placed),
            "pareto": sum(m.pareto_optimal for m, _ in placed),
            "distance": sum(m.distance_to_frontier for m, _ in placed),
            "nash_rounds": len(nash), "nash": sum(nash), "kalai_rounds": len(kalai), "kalai": sum(kalai)}


def _ratio(sums: Sequence[Mapping[str, float]], num: str, den: str, n_resamples: int
           ) -> tuple[float | None, tuple[float, float] | None]:
    """The pooled ratio sum(num) / sum(den) over games, and its game-cluster bootstrap
    95% interval (seed 0; None with fewer than two games having a positive count)."""
    have = [g for g in sums if g[den] > 0]
    if not have:
        return None, None
    value = sum(g[num] for g in have) / sum(g[den] for g in have)
    ci = ratio_bootstrap_ci([g[num] for g in have], [g[den] for g in have], n_resamples=n_resamples, rng=0)
    return value, ci


def _resource_outcome_space(run: _ResourceRun) -> Table | None:
    """The outcome-space measures per pairing x M/C, main cohort."""
    per_game: dict[int, dict[str, float]] = {}
    unplaced: list[str] = []
    for g in run.main_games:
        placed, missing = game_outcome_space(g, include_fallbacks=run.include_fallbacks)
        per_game[id(g)] = _space_sums(placed)
        unplaced += missing
    cols = run.lead_cols + ["M/C", "Games", "Rounds", "Annulled rounds", run.fb_col, "Pareto-optimal %",
                            "Pareto-optimal 95% CI", "Distance to frontier", "Distance 95% CI", "Nash rounds",
                            "Nash product share %", "Nash share 95% CI", "Distance to Kalai point",
                            "Kalai distance 95% CI"]
    fmts = run.lead_fmt + ["text", "int", "int", "int", "int", "pct", "pct_ci", "num", "ci", "int", "pct", "pct_ci",
                           "num", "ci"]
    rows = []
    for proto in run.protos:
        for p in run.pairings + ["All"]:
            sub = run.main_sub(proto, p)
            for mc in run.mcs + ["All"]:
                games = [g for c, g in sub if mc == "All" or c.mc == mc]
                if not games:
                    continue
                sums = [per_game[id(g)] for g in games]
                pareto, pareto_ci = _ratio(sums, "pareto", "rounds", run.n_resamples)
                dist, dist_ci = _ratio(sums, "distance", "rounds", run.n_resamples)
                nash, nash_ci = _ratio(sums, "nash", "nash_rounds", run.n_resamples)
                kalai, kalai_ci = _ratio(sums, "kalai", "kalai_rounds", run.n_resamples)
                rows.append(run.lead(p, proto) + [
                    "All" if mc == "All" else _mc_text(mc), len(games), int(sum(x["rounds"] for x in sums)),
                    int(sum(x["annulled"] for x in sums)), run.fb(run.pm(games)), pareto, pareto_ci, dist, dist_ci,
                    int(sum(x["nash_rounds"] for x in sums)), nash, nash_ci, kalai, kalai_ci])
    if not rows:
        return None
    notes = ["Each kept round's outcome (the two agents' rewards) is placed in the outcome space of the scenario "
             "it played (negotiation_env.games.resource.outcome_space): Pareto-optimal % is the share of rounds no "
             "achievable reward pair improves for one agent without the other losing; distance to frontier is "
             "the mean Euclidean distance, in reward units, to the nearest Pareto-optimal pair; Nash product "
             "share is the mean of the round's (reward_a x reward_b) over the scenario's largest such product, "
             "over the rounds whose scenario has a Nash point (Nash rounds); distance to Kalai point is the mean "
             "Euclidean distance to the Kalai-Smorodinsky point. Pooled over rounds; each interval is a "
             "percentile bootstrap over games (whole games resampled, "
             f"{run.n_resamples:,} resamples, seed 0), a dash with fewer than two games.",
             "Annulled (overdrawn) rounds are counted as the outcome (0, 0): both agents buying nothing pays it "
             "too, so it is an achievable outcome (the disagreement point), never Pareto-optimal in a playable "
             "scenario and 0 of the Nash product."]
    if unplaced:
        notes.append(f"Rounds not placed (left out of this table): {len(unplaced)}: " + "; ".join(unplaced[:5])
                     + (" ..." if len(unplaced) > 5 else ""))
        run.notes.append(f"resource_outcome_space: {len(unplaced)} kept round(s) could not be placed in an outcome "
                         "space and are left out of it (the table's note says why).")
    return run.finish(Table(
        "resource_outcome_space", "Outcome space: Pareto optimality, Nash and Kalai points by pairing x M/C "
        "(main cohort)", cols, rows, fmts, notes), run.main_games)


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
    complete = [d for d in run.traces if d.get("status", "complete") == "complete" and d.get("rounds")]
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




# --------------------------------------------------------------------------- viewer


@functools.lru_cache(maxsize=256)
def _scenario_info(name: str) -> dict[str, Any] | None:
    """Supply, display order and one joint optimum (runs and usage) of a resource
    scenario name; None when it cannot be loaded."""
    from ..games.resource.scenario import ScenarioError, load_scenario
    from ..games.resource.solver import solve

    try:
        sc = load_scenario(name)
    except (ScenarioError, OSError, TypeError, ValueError):
        return None
    sol = solve(sc)
    usage = {}
    for agent, runs in sol.joint_allocation.items():
        use = {r: 0 for r in sc.resource_ids}
        for p in sc.projects_of(agent):
            for rid, units in p.requires:
                use[rid] += units * int(runs.get(p.name, 0))
        usage[agent] = use
    return {"supply": {r.id: r.supply for r in sc.resources}, "resources": list(sc.resource_ids),
            "opt_runs": {a: dict(r) for a, r in sol.joint_allocation.items()}, "opt_usage": usage,
            "joint_max": sol.joint_max, "n_optima": sol.n_joint_optima, "ratio": sol.ratio,
            "individual_max": dict(sol.individual_max)}



def _alloc(d: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    if not d:
        return "nothing"
    parts = [f"{esc(names.get(k, k))} {_num(v)}" for k, v in d.items() if v]
    return ", ".join(parts) if parts else "nothing"


def _runs(d: Mapping[str, Any] | None) -> str:
    if not d:
        return "none"
    parts = [f"{esc(k)} ×{_num(v)}" for k, v in d.items() if v]
    return ", ".join(parts) if parts else "none"


def _resource_step(st: Mapping[str, Any], labels: Mapping[str, str], names: Mapping[str, str]) -> str:
    parsed = st.get("parsed") if isinstance(st.get("parsed"), Mapping) else None
    body = [_step_head(st, labels)]
    if parsed is not None:
        if parsed.get("speech"):
            body.append(f'<p class="speech">{esc(parsed["speech"])}</p>')
        dec = parsed.get("decision")
        if isinstance(dec, Mapping):
            body.append(f'<div class="decision">decision: buys {_alloc(dec.get("purchase"), names)}; '
                        f'runs {_runs(dec.get("runs"))}</div>')
    body.append(_fold("private thinking", st.get("thinking"), "thinking"))
    body.append(_fold("model reasoning", st.get("reasoning"), "thinking"))
    body.append(_events(st))
    if not st.get("valid", True):
        body.append(_fold("raw answer", st.get("action"), "raw"))
    cls = "step " + esc(st.get("agent")) + ("" if st.get("valid", True) else " invalid")
    return f'<li class="{cls}">' + "".join(body) + "</li>"


def _supply_table(o: Mapping[str, Any], info: dict[str, Any] | None, names: Mapping[str, str],
                  agents: Sequence[str]) -> str:
    purchases = o.get("purchases") or {}
    resources = info["resources"] if info else sorted({r for p in purchases.values() for r in p})
    over = set(o.get("overdrawn_resources") or [])
    head = "".join(f"<th>{esc(a)}</th>" for a in agents)
    rows = []
    for r in resources:
        buys = [int((purchases.get(a) or {}).get(r, 0)) for a in agents]
        total = sum(buys)
        supply = info["supply"].get(r) if info else None
        bad = r in over or (supply is not None and total > supply)
        check = '<span class="badge bad">OVER</span>' if bad else '<span class="badge ok">ok</span>'
        cells = "".join(f"<td>{b}</td>" for b in buys)
        rows.append(f'<tr class="{"over" if bad else ""}"><th>{esc(names.get(r, r))} <small>({esc(r)})</small></th>'
                    f"<td>{'?' if supply is None else supply}</td>{cells}<td>{total}</td><td>{check}</td></tr>")
    note = "" if info else '<p class="note">supply unknown: the scenario could not be loaded by name</p>'
    return (f'<table class="supply"><tr><th>resource</th><th>supply</th>{head}<th>total</th><th>check</th></tr>'
            + "".join(rows) + "</table>" + note)


def _optimum_table(o: Mapping[str, Any], info: dict[str, Any] | None, names: Mapping[str, str],
                   agents: Sequence[str]) -> str:
    if info is None:
        return '<p class="note">joint optimum unavailable: the scenario could not be loaded by name</p>'
    rows = []
    rewards = o.get("rewards") or {}
    for a in agents:
        rows.append(f"<tr><th>{esc(a)}</th><td>{_runs((o.get('runs') or {}).get(a))}</td>"
                    f"<td>{_alloc((o.get('purchases') or {}).get(a), names)}</td><td>{_num(rewards.get(a))}</td>"
                    f"<td>{_runs(info['opt_runs'].get(a))}</td><td>{_alloc(info['opt_usage'].get(a), names)}</td></tr>")
    n = info["n_optima"]
    caption = f"one of {n} joint optima" if n else "a joint optimum"
    return ('<table class="optimum"><tr><th>agent</th><th>achieved runs</th><th>achieved purchase</th>'
            f'<th>reward</th><th>optimal runs ({esc(caption)})</th><th>optimal usage</th></tr>'
            + "".join(rows) + "</table>")


def _round_badge(o: Mapping[str, Any]) -> str:
    if o.get("overdraw"):
        return '<span class="badge bad">overdraw</span>'
    if o.get("optimal"):
        return '<span class="badge ok">optimal</span>'
    return '<span class="badge mid">suboptimal</span>'


def _resource_detail(t: Mapping[str, Any]) -> str:
    agents = list(t.get("agents") or [])
    labels = dict(zip(agents, lineup(t)))
    rounds = {int(r["round"]): r.get("outcome") or {} for r in t.get("rounds") or []}
    steps_by_round: dict[Any, list[Mapping[str, Any]]] = {}
    seen: set[str] = set()
    for st in t.get("steps") or []:
        # a context reset is news only after the agent's first step (shifting partners)
        st = {**st, "_reset_shown": bool(st.get("context_reset")) and st.get("agent") in seen}
        seen.add(st.get("agent"))
        steps_by_round.setdefault(st.get("round"), []).append(st)
    keys = sorted({k for k in steps_by_round if isinstance(k, int)} | set(rounds))
    out = []
    for k in keys:
        o = rounds.get(k)
        names = dict((o or {}).get("resource_names") or {})
        head = f"Round {k}"
        if o is not None:
            head += f" · {esc(o.get('scenario'))} " + _round_badge(o)
        else:
            head += ' <span class="badge bad">not resolved</span>'
        steps = "".join(_resource_step(st, labels, names) for st in steps_by_round.get(k, []))
        parts = [f'<div class="round" data-round="{k}"><h3>{head}</h3><ol class="steps">{steps}</ol>']
        if o is not None:
            info = _scenario_info(str(o.get("scenario"))) if o.get("scenario") else None
            rw = o.get("rewards") or {}
            summary = [("joint reward / M", f"{_num(o.get('joint_reward'))} / {_num(o.get('joint_max'))}"),
                       ("efficiency", f"{100 * float(o.get('efficiency') or 0):.1f}%"),
                       ("rewards", ", ".join(f"{esc(a)} {_num(rw.get(a))}" for a in agents))]
            if o.get("fallback_agents"):
                summary.append(("fallback decisions", '<span class="badge bad">'
                                + esc(", ".join(o["fallback_agents"])) + "</span>"))
            parts.append('<div class="outcome"><h4>Supply check</h4>' + _supply_table(o, info, names, agents)
                         + "<h4>Result</h4>" + _kv_table(summary) + "<h4>Achieved vs. joint optimum</h4>"
                         + _optimum_table(o, info, names, agents) + "</div>")
        parts.append("</div>")
        out.append("".join(parts))
    other = [st for k, v in steps_by_round.items() if not isinstance(k, int) for st in v]
    if other:
        out.append('<div class="round"><h3>Other steps</h3><ol class="steps">'
                   + "".join(_resource_step(st, labels, {}) for st in other) + "</ol></div>")
    return "".join(out)




# --------------------------------------------------------------------------- replication card


def resource_card(traces: Iterable[Any], *, n_resamples: int = RESAMPLES) -> ReplicationCard:
    """The seed 000 §5 card (:mod:`negotiation_env.games.resource.card`): every number is
    a model row, compared with the run's main-cohort games whose seats play the row's
    models (a policy spec's model name, :func:`~.cards.paper_models`); any other run is
    "not comparable" with the reason. Rates and means pool the kept rounds (fallback
    rounds left out, as every resource table) with a game-cluster bootstrap 95% interval
    (seed 0); the share of games with an optimal round is over games without a fallback
    round, with its Wilson interval. Verdict: the paper's value inside the run's interval
    (the paper gives no spread)."""
    from ..games.resource import card
    from .resource_metrics import kept_round_counts
    from .stats import wilson_interval

    run = _ResourceRun.of(traces, False, n_resamples)
    main = run.main_games if run is not None else []
    lines = []
    for d in card.published():
        pub = Published(**d)
        chosen, why = model_rows(pub, main, card.MODELS)
        if why is not None:
            lines.append(not_comparable(pub, why + ("" if main else "; no counted main-cohort resource game")))
            continue
        mc, measure = pub.get("mc"), pub.get("measure")
        sel = [g for g in chosen if mc is None or resource_cell(g).mc == mc]
        if not sel:
            lines.append(not_comparable(pub, f"condition absent: the run's games of {pub.row} are at no M/C {mc}"))
            continue
        counts = [kept_round_counts(g) for g in sel]
        if measure == "optimal_game":
            whole = [c for c in counts if c["excluded_rounds"] == 0 and c["rounds"]]
            k = sum(c["optimal"] > 0 for c in whole)
            obs = Observed(k / len(whole) if whole else None, len(whole),
                           wilson_interval(k, len(whole)) if whole else None, None, "Wilson score")
        else:
            kept = [c for c in counts if c["rounds"]]
            key = {"efficiency": "efficiency_sum", "overdraw": "overdrawn", "optimum": "optimal"}[measure]
            n = sum(c["rounds"] for c in kept)
            value = sum(c[key] for c in kept) / n if n else None
            ci = ratio_bootstrap_ci([c[key] for c in kept], [c["rounds"] for c in kept], n_resamples=n_resamples,
                                    rng=0) if n else None
            obs = Observed(value, n, ci, None, f"bootstrap over games ({n_resamples:,} resamples, seed 0)")
        lines.append(judge(pub, obs))
    return ReplicationCard(GAME, card.PAPER, lines, [
        "This run's figure: its main-cohort games (cheap talk with 5 turns, thinking on, no transparency, no "
        "prompt intervention) whose seats play the row's models, fallback rounds left out; a seat's model is "
        "its policy spec's (openai:MODEL@URL, hf:PATH) matched by name to the paper's."])


# --------------------------------------------------------------------------- the hooks


class ResourceAnalysis(GameAnalysis):
    """The resource game's analysis hooks (module docstring)."""

    chart_caption = "efficiency (joint reward / M, kept rounds)"
    chart_kind = "fraction"
    headline_label = "efficiency"
    summary_note = ("efficiency: joint reward / M over the kept rounds (complete games, no fallback decision), as "
                    "the run summary and the report")
    headline_tables = ("resource_table3", "resource_summary")
    rating_comparison = "each seat's total reward over the game's rounds against its partner's"
    reads_judge_labels = True
    resamples = RESAMPLES

    def condition_label(self, trace: Mapping[str, Any]) -> str:
        c = resource_cell(trace)
        parts = [f"M/C {c.mc_text}", "talk" if c.talk else "no-talk", c.partner, c.rotation]
        if c.variant:
            parts.append(c.variant)
        return " | ".join(parts)

    def outcome_tags(self, trace: Mapping[str, Any]) -> list[str]:
        """``overdraw`` / ``optimal`` / ``suboptimal`` for each kind of round the game had."""
        tags: list[str] = []
        for r in trace.get("rounds") or []:
            o = r.get("outcome") or {}
            kind = "overdraw" if o.get("overdraw") else ("optimal" if o.get("optimal") else "suboptimal")
            if kind not in tags:
                tags.append(kind)
        return tags

    def cell_fields(self, trace: Mapping[str, Any]) -> dict[str, Any]:
        c = resource_cell(trace)
        return {"pairing": c.pairing, "mc": c.mc, "talk": c.talk, "partner": c.partner, "rotation": c.rotation,
                "variant": c.variant}

    def left_out(self, traces: Sequence[Mapping[str, Any]]) -> list[str]:
        return _usable(traces, GAME)[1]

    def report(self, traces: Sequence[Mapping[str, Any]], *, n_resamples: int | None, include_fallbacks: bool,
               labels: Mapping[str, Mapping[str, Any]] | None) -> ReportSection:
        tables, plot = resource_tables(traces, include_fallbacks=include_fallbacks, labels=labels,
                                       n_resamples=RESAMPLES if n_resamples is None else n_resamples)
        return ReportSection(tables=tables, notes=list(plot.get("notes", [])), figures=[
            Figure("fig_resource_by_mc.png", "plot_resource_by_mc", plot.get("by_mc")),
            Figure("fig_resource_stability.png", "plot_stability", plot.get("stability")),
            Figure("fig_resource_talk.png", "plot_talk", plot.get("talk")),
            Figure("fig_resource_failed_improvement.png", "plot_failed_improvement", plot.get("failure")),
            Figure("fig_judge_enrichment.png", "plot_enrichment", plot.get("enrichment"))])

    def replication_card(self, traces: Sequence[Mapping[str, Any]]) -> ReplicationCard:
        return resource_card(traces)

    def meta_rows(self, trace: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [("scenario", f"{esc(trace.get('scenario'))} (M/C {esc(resource_cell(trace).mc_text)})")]

    def detail_html(self, trace: Mapping[str, Any]) -> str:
        return _resource_detail(trace)

    def headline(self, group: Sequence[Mapping[str, Any]], figures: Mapping[str, Any]) -> dict[str, Any]:
        return {"measure": "efficiency", "value": figures.get("efficiency")}


ANALYSIS = ResourceAnalysis()
