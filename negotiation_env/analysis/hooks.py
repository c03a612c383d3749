"""A game's part in the analysis layer: what the report, the cells listing and the
viewer ask of each game, so that none of them branches on a game's name.

A game's spec names an instance of a :class:`GameAnalysis` subclass as its ``analysis``
part (:mod:`negotiation_env.core.registry`); :func:`analysis_of` looks it up and falls
back to the plain :class:`GameAnalysis` for a game without one (or a trace of a game this
install does not know), whose answers are the generic ones: a condition label from the
config, no outcome tags, no report section, the plain transcript in the viewer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

__all__ = ["GameAnalysis", "ReportSection", "Figure", "analysis_of"]


@dataclass(frozen=True)
class Figure:
    """One figure of a report section: ``plot(data, path) -> path`` writes ``file``
    (a ``fig_*.png`` name) from ``data``; a figure with no data is not drawn. ``plot``
    names a function of :mod:`negotiation_env.analysis.plots`, or any function as
    ``"module:function"`` (matplotlib is optional, so the plot function is imported only
    when figures are drawn)."""

    file: str
    plot: str
    data: Any


@dataclass
class ReportSection:
    """What one game adds to a report: its tables (:class:`~.tables.Table`), notes (what
    was left out and why) and figures."""

    tables: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)


class GameAnalysis:
    """The analysis hooks of one game; every method has the generic answer, so a game
    overrides only what it has. Methods take one trace as a plain dict (or a group of
    them) and never change it."""

    #: the config fields a generic condition label names, in order
    label_fields: Sequence[str] = ("condition", "framing", "game", "cheap_talk", "talk")
    #: the bootstrap resamples of the game's report intervals (None: the game has none)
    resamples: int | None = None
    #: the run-summary chart: its caption, and how a bar reads the headline value
    #: (``"fraction"``: already on 0-1, shown as a percentage; ``"relative"``: relative
    #: to the largest; ``"stacked"``: a mapping of counts, stacked)
    chart_caption: str = ""
    chart_kind: str = "relative"
    #: the colour of each part of a stacked bar (``{label: "#rrggbb"}``), shown as a legend
    #: under the chart; empty: no legend (parts it does not name get a neutral colour)
    chart_legend: Mapping[str, str] = {}
    #: the headline column's header in the viewer's run summary (empty: the measure's name)
    headline_label: str = ""
    #: the line under the game's run-summary table in the viewer (empty: none)
    summary_note: str = ""
    #: the report tables ``negotiation-env report`` prints on the terminal as the game's
    #: headline: the first of these the report holds
    headline_tables: Sequence[str] = ()
    #: what "winning" one game means in the ratings (:mod:`.ratings`): the comparison of
    #: two seats' returns, in words for the ratings' note
    rating_comparison: str = "each seat's total reward against its partner's"
    #: whether the game's report reads LLM-judge labels (the report's judge-labels note
    #: goes with the notes of the first such game)
    reads_judge_labels: bool = False

    # ---- cells (analysis/cells.py)
    def condition_label(self, trace: Mapping[str, Any]) -> str:
        """The game's condition name of ``trace`` where the runner did not name one."""
        cfg = trace.get("config") or {}
        keys = [k for k in self.label_fields if k in cfg]
        return " | ".join(f"{k}={cfg[k]}" for k in keys) or "default"

    def outcome_tags(self, trace: Mapping[str, Any]) -> list[str]:
        """The game's own outcome tags for filtering (the shared ones, ``retry``,
        ``error`` and ``truncated``, are added by the caller)."""
        return []

    def cell_fields(self, trace: Mapping[str, Any]) -> dict[str, Any]:
        """The ``cells.csv`` columns the game fills (``pairing``, ``mc``, ``talk``,
        ``partner``, ``rotation``, ``variant``, ``environment``, ``condition``); the
        rest stay empty."""
        return {}

    # ---- report (analysis/report.py)
    def left_out(self, traces: Sequence[Mapping[str, Any]]) -> list[str]:
        """The ids (each with why) of the game's traces in ``traces`` (already filtered to
        this game) that its report section does not count; the report lists them in a note
        before every section's notes. Empty: the section counts every trace, or notes its
        own."""
        return []

    def report(self, traces: Sequence[Mapping[str, Any]], *, n_resamples: int | None,
               include_fallbacks: bool, labels: Mapping[str, Mapping[str, Any]] | None) -> ReportSection | None:
        """The game's report section over every trace of the game in ``traces``
        (already filtered to this game, in the order read); None: the game has no report
        section, and the report says so in a note. ``n_resamples``: the bootstrap
        resamples the user asked for, or the game's own :attr:`resamples` (None where the
        game has none and the user gave none). ``labels``: LLM-judge labels by game id
        (:func:`~.judge.load_labels`), or None."""
        return None

    # ---- replication card (analysis/cards.py)
    def replication_card(self, traces: Sequence[Mapping[str, Any]]) -> Any:
        """The game's paper's published numbers beside this run's
        (:class:`~.cards.ReplicationCard`) over every trace of the game in ``traces``
        (already filtered to this game); None: the game has no card, and
        ``report --card`` says so."""
        return None

    # ---- viewer (analysis/viewer.py)
    def meta_rows(self, trace: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Extra (label, escaped HTML) rows for the top of the game's detail page, shown
        right after its ``game`` row."""
        return []

    def detail_html(self, trace: Mapping[str, Any]) -> str | None:
        """The game's transcript as HTML (escaped); None: the viewer's generic one."""
        return None

    def search_extra(self, trace: Mapping[str, Any]) -> list[str]:
        """Text the viewer's search box finds in the game beyond its steps (after the
        steps' text, before the game's error; blank pieces are dropped)."""
        return []

    def headline(self, group: Sequence[Mapping[str, Any]], figures: Mapping[str, Any]) -> dict[str, Any] | None:
        """The headline measure of a group of games (``{"measure", "value"}``), from the
        run summary's ``figures``; None: no chart for the game."""
        return None


_GENERIC = GameAnalysis()


def analysis_of(game: Any) -> GameAnalysis:
    """The analysis hooks of the game named ``game``: its spec's ``analysis`` part, or
    the generic :class:`GameAnalysis` where the game is unknown or declares none."""
    from ..core import registry

    spec = registry.find(game) if isinstance(game, str) else None
    if spec is None or not spec.has("analysis"):
        return _GENERIC
    return spec.part("analysis")
