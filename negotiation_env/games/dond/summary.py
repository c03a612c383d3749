"""Deal or No Deal's measures in the run summary (the closing tables of ``negotiation-env
run``), from the same outcome fields the report reads (:mod:`.analysis`).

A game counts (``kept``) when the report counts it: complete, no degraded model call,
with an outcome (:func:`negotiation_env.analysis.cells.usable`). Over the kept games:

* ``agreement``: the share that ended in a deal;
* ``pareto``: the share whose payoffs lie on the Pareto frontier (no other split pays one
  agent more and the other no less; no deal never does);
* ``joint``: the mean joint value (both payoffs summed, 0 without a deal), and
  ``joint / max``: the summed joint values over the summed best joint values of the same
  instances;
* ``Nash / max``: the summed Nash products (payoffs multiplied, over the disagreement
  point 0) over the summed best Nash products of the same instances.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...runner.summary import GameSummary

__all__ = ["SUMMARY", "measures", "figures", "outcome_of"]

#: the outcome fields a counted game must carry
FIELDS = ("agreement", "joint", "max_joint", "pareto_optimal", "nash_product", "max_nash_product")


def outcome_of(trace: Mapping[str, Any]) -> dict[str, Any] | None:
    """The negotiation's outcome in ``trace`` (its one round's), None where it has none."""
    rounds = trace.get("rounds") or []
    out = rounds[0].get("outcome") if rounds and isinstance(rounds[0], Mapping) else None
    return out if isinstance(out, Mapping) and all(k in out for k in FIELDS) else None


def measures(trace: Mapping[str, Any]) -> dict[str, float]:
    """One game: 1 game; if the report counts it, its additive counts."""
    from ...analysis.cells import usable

    out: dict[str, float] = {"games": 1, "kept": 0}
    kept, _ = usable([dict(trace)], "dond")
    for g in kept:
        o = outcome_of(g)
        if o is None:
            continue
        out["kept"] += 1
        out["agreements"] = out.get("agreements", 0) + bool(o["agreement"])
        out["pareto"] = out.get("pareto", 0) + bool(o["pareto_optimal"])
        for k in ("joint", "max_joint", "nash_product", "max_nash_product"):
            out[k] = out.get(k, 0) + float(o[k])
    return out


def _ratio(num: float | None, den: float | None) -> float | None:
    return num / den if den else None


def figures(totals: Mapping[str, float]) -> dict[str, float | None]:
    t = dict(totals)
    kept = t.get("kept", 0)
    return {"games": t.get("games", 0), "kept": kept, "agreement": _ratio(t.get("agreements", 0), kept),
            "pareto": _ratio(t.get("pareto", 0), kept), "joint": _ratio(t.get("joint", 0), kept),
            "joint_ratio": _ratio(t.get("joint", 0), t.get("max_joint", 0)),
            "nash_ratio": _ratio(t.get("nash_product", 0), t.get("max_nash_product", 0))}


SUMMARY = GameSummary(
    columns=[("games kept", "kept", "int"), ("agreement", "agreement", "pct"), ("pareto", "pareto", "pct"),
             ("joint", "joint", "num"), ("joint / max", "joint_ratio", "pct"), ("Nash / max", "nash_ratio", "pct")],
    description=("agreement: share of games ending in a deal; pareto: share ending on the Pareto frontier; joint: "
                 "mean joint value (0 without a deal); joint / max and Nash / max: summed joint values and Nash "
                 "products over the best achievable on the same instances"),
    kept="complete games with an outcome and no degraded model call, as in the report's Deal or No Deal table",
    measures=measures, figures=figures)
