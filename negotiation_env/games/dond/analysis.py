"""Deal or No Deal's part in the analysis layer (:class:`~negotiation_env.analysis.hooks.GameAnalysis`).

* condition label: the config's ``max_turns`` and ``walk_away``;
* outcome tags: ``agreement`` or ``no_deal``;
* report section: one table, one row per condition and a row for all games, with the
  games read and kept, the agreement rate, the mean joint value against the mean best
  joint value of the same instances and the share of games ending on the Pareto
  frontier, and the mean Nash product against the mean best achievable; a note names
  every game left out and why (:func:`negotiation_env.analysis.cells.usable`: not
  complete, degraded, or without an outcome);
* the run chart's headline: the agreement rate.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...analysis.hooks import GameAnalysis, ReportSection
from .summary import outcome_of

__all__ = ["DondAnalysis", "ANALYSIS", "COLUMNS", "table_rows"]

#: the report table's columns and formats
COLUMNS = [("condition", "text"), ("games", "int"), ("kept", "int"), ("agreement", "pct"), ("joint", "num"),
           ("max joint", "num"), ("on frontier", "pct"), ("Nash product", "num"), ("max Nash product", "num")]


def table_rows(kept: Sequence[Mapping[str, Any]], games: Mapping[str, int], label) -> list[list[Any]]:
    """One row per condition (in first-seen order) and one for all, over ``kept`` traces;
    ``games``: traces read per condition (kept or not)."""
    groups: dict[str, list[dict[str, Any]]] = {c: [] for c in games}
    for t in kept:
        o = outcome_of(t)
        if o is not None:
            groups.setdefault(label(t), []).append(dict(o))
    everything = [o for os in groups.values() for o in os]
    rows = []
    for name, outcomes in [*groups.items(), ("all", everything)]:
        n = len(outcomes)

        def mean(key: str, os=outcomes, n=n) -> float | None:
            return sum(float(o[key]) for o in os) / n if n else None

        rows.append([name, games.get(name, sum(games.values())), n,
                     sum(bool(o["agreement"]) for o in outcomes) / n if n else None,
                     mean("joint"), mean("max_joint"),
                     sum(bool(o["pareto_optimal"]) for o in outcomes) / n if n else None,
                     mean("nash_product"), mean("max_nash_product")])
    return rows


class DondAnalysis(GameAnalysis):
    label_fields = ("max_turns", "walk_away")
    chart_caption = "agreement rate"
    chart_kind = "fraction"
    headline_tables = ("dond_outcomes",)
    rating_comparison = "each seat's reward for the deal against its partner's (no deal: both zero, a draw)"

    def condition(self, trace: Mapping[str, Any]) -> str:
        """The runner's condition name of ``trace``, else :meth:`condition_label`."""
        run = trace.get("run") or {}
        name = run.get("condition") if isinstance(run, Mapping) else None
        return name if isinstance(name, str) and name else self.condition_label(trace)

    def outcome_tags(self, trace: Mapping[str, Any]) -> list[str]:
        o = outcome_of(trace)
        if o is None:
            return []
        return ["agreement" if o["agreement"] else "no_deal"]

    def report(self, traces, *, n_resamples=None, include_fallbacks=False, labels=None) -> ReportSection:
        from ...analysis.cells import usable
        from ...analysis.tables import Table

        kept, left = usable(traces, "dond")
        no_outcome = [t for t in kept if outcome_of(t) is None]
        kept = [t for t in kept if outcome_of(t) is not None]
        games: dict[str, int] = {}
        for t in traces:
            if t.get("game") == "dond":
                c = self.condition(t)
                games[c] = games.get(c, 0) + 1
        notes = []
        if left or no_outcome:
            why = left + [f"{t.get('game_id')} (no outcome)" for t in no_outcome]
            notes.append(f"left out: {len(why)} game(s): {'; '.join(why)}")
        notes.append("joint: both payoffs summed (0 without a deal); on frontier: games whose payoffs no other split "
                     "improves for one agent without lowering the other's; Nash product: payoffs multiplied, over "
                     "the disagreement point 0; max columns: the best any split of the same instances gives")
        table = Table(name="dond_outcomes", title="Deal or No Deal: agreement, joint value and Nash product",
                      columns=[c for c, _ in COLUMNS], rows=table_rows(kept, games, self.condition),
                      formats=[f for _, f in COLUMNS], notes=notes)
        return ReportSection(tables=[table], notes=notes[:-1])

    def headline(self, group, figures) -> dict[str, Any] | None:
        value = figures.get("agreement")
        return None if value is None else {"measure": "agreement", "value": value}


ANALYSIS = DondAnalysis()
