"""Each game's own measures in the run summary (the closing tables of ``negotiation-env run``).

:func:`game_measures` reduces one finished game's trace dict to counts that add up
across games (:func:`add_measures`), so a row of the summary, pooling any cells, gives
the figure ``negotiation-env report`` gives on the same traces; :func:`figures` turns the
summed counts into the printed rates. The definitions are the analysis modules' own
(reused here, not re-derived):

* **resource** (:mod:`negotiation_env.analysis.resource_metrics`): the games the report
  counts (complete, no degraded model call) and in them the rounds it counts: rounds with
  a fallback decision (no valid allocation after every retry) are left out, as the paper's
  Agent errors section does (``fallback`` counts them). ``overdraw``, ``efficiency``
  (joint reward / M, mean over rounds) and ``optimal``: shares of the kept rounds, the
  report's Overdraw / Efficiency / Optimum %. A summary row is one run cell (or a pool of
  cells), so an intervention cell's row is its own figure; the report's Table 3 pools
  the main cohort only.
* **matrix** (:mod:`negotiation_env.analysis.matrix_metrics`): complete-case dyads only,
  as the report's tables (``dyads_of(..., "complete")``: every planned round played, no
  error fallback, not ended in an error). ``S``: switches / adjacent-round transitions
  pooled over agents and dyads (Eq. 1); ``C``: period-two adherence (Eq. S1), mean over
  agent trajectories; ``A``: action-A share of agent-rounds; ``AA`` (mutual A: mutual
  cooperation in the Prisoner's Dilemma) and ``BB``: joint-outcome shares of rounds.
* **rulemaking** (:mod:`negotiation_env.analysis.rulemaking_metrics`): the runs the
  report counts (complete, not degraded, with an outcome); the classifier's labels
  (compromise C, consensus S, authority decision A, deadlock D) as counts, and the share
  of runs that used every turn (horizon exhaustion).

Games a measure leaves out are counted (``games`` minus ``kept``), so the summary says
how many figures rest on fewer games than the row has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..core import registry

__all__ = ["game_measures", "add_measures", "figures", "COLUMNS", "DESCRIPTIONS", "matrix_measures",
           "rulemaking_measures", "resource_measures", "GameSummary", "KEPT", "MEASURES"]

@dataclass(frozen=True)
class GameSummary:
    """One game's own measures in the run summary: the game's ``summary`` part in the
    game registry (:mod:`negotiation_env.core.registry`)."""

    #: the summary columns: (header, figure key, "pct" | "num" | "int")
    columns: list[tuple[str, str, str]]
    #: what the measure columns are, for the note under the game's table
    description: str
    #: what "kept" counts, for the note under the game's table
    kept: str
    #: one finished game's trace dict -> its additive counts
    measures: Callable[[Mapping[str, Any]], dict[str, float]]
    #: summed counts -> the printed figures (None where nothing was kept)
    figures: Callable[[Mapping[str, float]], dict[str, float | None]]


_SUMMARIES: Mapping[str, GameSummary] = registry.PartTable("summary")
#: game -> the summary columns of its own measures: (header, figure key, "pct" | "num" | "int")
COLUMNS: Mapping[str, list[tuple[str, str, str]]] = registry.PartTable("summary", "columns")
#: game -> what its measure columns are, for the note under its table
DESCRIPTIONS: Mapping[str, str] = registry.PartTable("summary", "description")
#: game -> what "kept" counts, for the note under its table
KEPT: Mapping[str, str] = registry.PartTable("summary", "kept")


def matrix_measures(trace: Mapping[str, Any]) -> dict[str, float]:
    """One matrix game: 1 game; if it is a complete-case dyad, its switch, adherence,
    action and joint-outcome counts."""
    from ..analysis import matrix_metrics as mm

    out: dict[str, float] = {"games": 1, "kept": 0}
    try:
        kept = mm.dyads_of([dict(trace)], "complete")
    except (ValueError, KeyError, TypeError):  # a record the metrics cannot read is left out, and counted so
        kept = []
    for d in kept:
        out["kept"] += 1
        for seq in d.actions:
            k, n = mm.switch_count(seq)
            out["switches"] = out.get("switches", 0) + k
            out["transitions"] = out.get("transitions", 0) + n
            c = mm.period_two_adherence(seq)
            if c is not None:
                out["c_sum"] = out.get("c_sum", 0.0) + c
                out["c_n"] = out.get("c_n", 0) + 1
            out["a"] = out.get("a", 0) + seq.count("A")
            out["agent_rounds"] = out.get("agent_rounds", 0) + len(seq)
        for x, y in zip(*d.actions):
            out[x + y] = out.get(x + y, 0) + 1
        out["dyad_rounds"] = out.get("dyad_rounds", 0) + d.rounds
    return out


def rulemaking_measures(trace: Mapping[str, Any]) -> dict[str, float]:
    """One rulemaking game: 1 game; if the report counts it, its label and horizon exhaustion."""
    from ..analysis.cells import usable
    from ..analysis.rulemaking_metrics import cell_summary

    out: dict[str, float] = {"games": 1, "kept": 0}
    kept, _ = usable([dict(trace)], "rulemaking")
    for g in kept:
        try:
            s = cell_summary([g["rounds"][0]["outcome"]], n_resamples=1)
        except (ValueError, KeyError, TypeError, IndexError):  # the report could not read it either
            continue
        out["kept"] += 1
        for label, n in s["counts"].items():
            out[label] = out.get(label, 0) + n
        out["horizon_exhausted"] = out.get("horizon_exhausted", 0) + round(s["horizon_exhaustion_rate"])
    return out


def resource_measures(trace: Mapping[str, Any]) -> dict[str, float]:
    """One resource game: 1 game; if the report counts it, its kept rounds (no fallback
    decision), the rounds left out, and the overdrawn / optimal counts and efficiency sum
    of the kept rounds."""
    from ..analysis.cells import usable
    from ..analysis.resource_metrics import kept_round_counts  # game_metrics' round figures, no talk measures

    out: dict[str, float] = {"games": 1, "kept": 0}
    kept, _ = usable([dict(trace)], "resource")
    for g in kept:
        try:
            m = kept_round_counts(g)
        except (ValueError, KeyError, TypeError):  # the report could not read it either
            continue
        out["kept"] += bool(m["rounds"])
        out["rounds"] = out.get("rounds", 0) + m["rounds"]
        out["fallback"] = out.get("fallback", 0) + m["excluded_rounds"]
        out["overdrawn"] = out.get("overdrawn", 0) + m["overdrawn"]
        out["optimal_rounds"] = out.get("optimal_rounds", 0) + m["optimal"]
        out["efficiency_sum"] = out.get("efficiency_sum", 0.0) + m["efficiency_sum"]
    return out


#: game -> (one finished game's trace dict -> its additive counts)
MEASURES: Mapping[str, Callable[[Mapping[str, Any]], dict[str, float]]] = registry.PartTable("summary", "measures")


def game_measures(trace: Mapping[str, Any]) -> dict[str, float]:
    """The additive counts of one finished game's own measures ({} for a game without any)."""
    fn = MEASURES.get(str(trace.get("game")))
    return fn(trace) if fn else {}


def add_measures(into: dict[str, float], measures: Mapping[str, float]) -> None:
    """Add one game's (or one cell's) counts into ``into``."""
    for k, v in measures.items():
        into[k] = into.get(k, 0) + v


def _ratio(num: float | None, den: float | None) -> float | None:
    return num / den if den else None


def figures(game: str, totals: Mapping[str, float]) -> dict[str, float | None]:
    """The printed figures of ``game`` from summed counts (None where nothing was kept;
    {} for a game without measures of its own)."""
    summary = _SUMMARIES.get(game)
    return summary.figures(totals) if summary is not None else {}


def _matrix_figures(totals: Mapping[str, float]) -> dict[str, float | None]:
    t = dict(totals)
    rounds = t.get("dyad_rounds", 0)
    return {"games": t.get("games", 0), "kept": t.get("kept", 0),
            "S": _ratio(t.get("switches", 0), t.get("transitions", 0)),
            "C": _ratio(t.get("c_sum", 0.0), t.get("c_n", 0)),
            "a_rate": _ratio(t.get("a", 0), t.get("agent_rounds", 0)),
            "AA": _ratio(t.get("AA", 0), rounds), "BB": _ratio(t.get("BB", 0), rounds)}


def _rulemaking_figures(totals: Mapping[str, float]) -> dict[str, float | None]:
    from ..games.rulemaking.classifier import OUTCOMES

    t = dict(totals)
    kept = t.get("kept", 0)
    return {"games": t.get("games", 0), "kept": kept, **{k: t.get(k, 0) for k in OUTCOMES},
            "horizon": _ratio(t.get("horizon_exhausted", 0), kept)}


def _resource_figures(totals: Mapping[str, float]) -> dict[str, float | None]:
    t = dict(totals)
    rounds = t.get("rounds", 0)
    return {"games": t.get("games", 0), "kept": t.get("kept", 0), "rounds": rounds,
            "fallback": t.get("fallback", 0), "overdraw": _ratio(t.get("overdrawn", 0), rounds),
            "efficiency": _ratio(t.get("efficiency_sum", 0.0), rounds),
            "optimal": _ratio(t.get("optimal_rounds", 0), rounds)}


MATRIX = GameSummary(
    columns=[("dyads", "kept", "int"), ("S", "S", "pct"), ("C", "C", "num"), ("A", "a_rate", "pct"),
             ("AA", "AA", "pct"), ("BB", "BB", "pct")],
    description=("S: adjacent-round switching rate (Eq. 1, pooled); C: period-two adherence (Eq. S1, mean over "
                 "agents); A: action-A share; AA, BB: both-A (mutual cooperation) and both-B shares of rounds"),
    kept="complete-case dyads (every planned round, no error fallback), as in the report's matrix tables",
    measures=matrix_measures, figures=_matrix_figures)

RULEMAKING = GameSummary(
    columns=[("runs", "kept", "int"), ("C", "compromise", "int"), ("S", "consensus", "int"),
             ("A", "authority", "int"), ("D", "deadlock", "int"), ("horizon", "horizon", "pct")],
    description="C, S, A, D: compromise, consensus, authority decision, deadlock runs; horizon: runs using every turn",
    kept="complete runs with an outcome and no degraded model call, as in the report's rulemaking tables",
    measures=rulemaking_measures, figures=_rulemaking_figures)

RESOURCE = GameSummary(
    columns=[("games kept", "kept", "int"), ("rounds kept", "rounds", "int"), ("fallback", "fallback", "int"),
             ("overdraw", "overdraw", "pct"), ("efficiency", "efficiency", "pct"), ("optimal", "optimal", "pct")],
    description=("games kept: games counted; rounds kept: their rounds without a fallback decision; fallback: rounds "
                 "left out "
                 "(a decision substituted after every retry failed, the paper's Agent errors rule); overdraw, "
                 "efficiency (joint reward / M), optimal: over the kept rounds"),
    kept=("complete games with no degraded model call, and in them the rounds without a fallback decision, "
          "as in the report's resource tables"),
    measures=resource_measures, figures=_resource_figures)
