"""The papers' tables and figures from a folder of traces: ``negotiation-env report DIR``.

Reads traces only (:func:`negotiation_env.traces.read_traces`) and writes, for whatever
games they hold, each table as Markdown and CSV, the figures as PNG, ``cells.csv`` (every
game with the cell it was counted in) and ``report.md`` (all tables and figures in one
page). Cells are defined in :mod:`.cells`.

Each game's tables, notes and figures are its report section, from its analysis hooks
(:func:`~.hooks.analysis_of`, the ``analysis`` part of the game's spec):
:mod:`.resource` (seed 000), :mod:`.rulemaking` (seed 001) and :mod:`.matrix` (seed 002)
list their tables. The sections come in the registry's order; a game without one (or a
trace of a game this install does not know) gets a note saying so.

Only games that ended normally (``status == "complete"``) with at least one resolved
round are counted, and none whose model calls ran out of retries
(``meta.model_calls.degraded``: the env scored a fallback there, so the game is not the
model's play, as the papers exclude error-marked games); the others are listed in the
report's notes (a game's :meth:`~.hooks.GameAnalysis.left_out`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .cells import as_dict, cell_fields, condition_label, lineup, outcome_tags
from .hooks import Figure, ReportSection, analysis_of
from .matrix import RESAMPLES as MATRIX_RESAMPLES, matrix_tables
from .resource import resource_tables
from .rulemaking import RESAMPLES as RULEMAKING_RESAMPLES, rulemaking_tables
from ..core import registry
from ..traces.reader import check_env_versions
from ..storage import write_text
from .tables import Table

__all__ = ["Table", "Report", "resource_tables", "rulemaking_tables", "matrix_tables", "cells_table",
           "build_report", "report_run", "resamples_of", "DEFAULT_OUT", "MATRIX_RESAMPLES", "RULEMAKING_RESAMPLES"]

DEFAULT_OUT = "report"


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
    #: the replication cards (``card=True``), one per game that has one
    cards: list[Any] = field(default_factory=list)
    #: every card's lines as one table (``card.md`` / ``card.csv``), None without ``card=True``
    card: Table | None = None




# --------------------------------------------------------------------------- cells listing

#: the ``cells.csv`` columns a game fills through :meth:`~.hooks.GameAnalysis.cell_fields`
CELL_FIELDS = ("pairing", "mc", "talk", "partner", "rotation", "variant", "environment", "condition")


def cells_table(traces: Iterable[Any]) -> Table:
    """Every trace with the cell it is counted in (``cells.csv``)."""
    rows = []
    for t in traces:
        d = as_dict(t)
        fields = cell_fields(d)
        rows.append([d.get("game_id"), d.get("game"), d.get("status"), " + ".join(lineup(d))]
                    + [fields.get(k) for k in CELL_FIELDS] + [condition_label(d), " ".join(outcome_tags(d))])
    return Table("cells", "Games and their cells",
                 ["game_id", "game", "status", "lineup", *CELL_FIELDS, "condition_label", "outcome_tags"],
                 rows, ["text"] * 14)


# --------------------------------------------------------------------------- writing


def resamples_of(n_resamples: int | None) -> dict[str, int]:
    """The bootstrap resamples of each game's tables, for every registered game whose
    report has intervals (:attr:`~.hooks.GameAnalysis.resamples`): ``n_resamples`` for
    all of them, or by default each game's own (the matrix paper's 10,000 for the matrix
    tables, :data:`RULEMAKING_RESAMPLES` for the rulemaking intervals)."""
    if n_resamples is not None and (isinstance(n_resamples, bool) or not isinstance(n_resamples, int)
                                    or n_resamples < 1):
        raise ValueError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    own = {g: analysis_of(g).resamples for g in registry.names()}
    return {g: (n if n_resamples is None else n_resamples) for g, n in own.items() if n is not None}


def _games_in_order(counts: Mapping[str, int]) -> list[str]:
    """The games of ``counts`` in the registry's order, then the unknown ones by name."""
    known = [g for g in registry.names() if g in counts]
    return known + sorted(set(counts) - set(known))


def _plot_function(name: str) -> Any:
    """A figure's plot function: ``name`` in :mod:`.plots`, or a ``"module:function"`` path."""
    if ":" in name:
        module, _, attr = name.partition(":")
        return getattr(importlib.import_module(module), attr)
    from . import plots

    return getattr(plots, name)


def build_report(traces: Sequence[Any], out_dir: str | Path, *, plots: bool = True,
                 problems: Sequence[Any] = (), n_resamples: int | None = None, include_fallbacks: bool = False,
                 labels: Mapping[str, Mapping[str, Any]] | None = None, labels_source: str | None = None,
                 card: bool = False) -> Report:
    """Write every table (``NAME.md``, ``NAME.csv``), figure (``fig_*.png``),
    ``cells.csv`` and ``report.md`` for ``traces`` into ``out_dir``: each game's report
    section (:meth:`~.hooks.GameAnalysis.report`) in the registry's order. Resource
    rounds with a fallback decision are left out (the paper's rule) unless
    ``include_fallbacks``. ``n_resamples``: bootstrap resamples of every interval
    (:func:`resamples_of`; by default each game's own). ``labels``: LLM-judge labels
    (``game_id -> record``, :func:`~.judge.load_labels`) for the games that read them
    (:attr:`~.hooks.GameAnalysis.reads_judge_labels`: the resource game's judge prevalence
    and enrichment tables); ``labels_source`` names their file in a note, placed with the
    notes of the first registered game that reads labels.
    ``card``: also write the replication cards (``card.md``, ``card.csv``; :mod:`.cards`)
    of every game read that has one (:meth:`~.hooks.GameAnalysis.replication_card`); a
    game without one gets a note in the card.

    The notes come in this order: the skipped trace lines (``problems``), each game's
    traces left out of its count (:meth:`~.hooks.GameAnalysis.left_out`), the games with
    no report section, then each section's own notes."""
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

    sections: dict[str, ReportSection] = {}
    for game in _games_in_order(rep.games):
        hooks = analysis_of(game)
        mine = [t for t in traces if str(t.get("game")) == game]
        left = hooks.left_out(mine)
        if left:
            rep.notes.append(f"{len(left)} {game} game(s) not counted (not complete or no resolved round): "
                             + ", ".join(left[:20]) + (" ..." if len(left) > 20 else ""))
        section = hooks.report(mine, n_resamples=resamples.get(game, n_resamples), include_fallbacks=include_fallbacks,
                               labels=labels)
        if section is not None:
            sections[game] = section
    for g in sorted(set(rep.games) - set(sections)):
        rep.notes.append(f"{rep.games[g]} trace(s) of game {g!r}: no report section for it.")

    judge_notes = []
    if labels_source and not any((r or {}).get("status") == "ok" for r in (labels or {}).values()):
        judge_notes.append(f"judge labels file {labels_source} holds no ok record: no judge tables")
    elif labels and labels_source:
        judge_notes.append(f"judge tables from {labels_source}")
    # the judge note goes with the notes of the first game that reads the labels
    reader = next((g for g in registry.names() if analysis_of(g).reads_judge_labels), None)
    figures: list[Figure] = []
    for game in registry.names() + sorted(set(sections) - set(registry.names())):
        if game in sections:
            rep.notes.extend(sections[game].notes)
            rep.tables.extend(sections[game].tables)
            figures.extend(sections[game].figures)
        if game == reader:
            rep.notes.extend(judge_notes)
            judge_notes = []
    rep.notes.extend(judge_notes)

    if plots:
        try:
            from . import plots as _plots  # noqa: F401  (matplotlib is the optional "report" extra)
        except ImportError as e:
            rep.notes.append(f"figures skipped: {e} (pip install 'negotiation_env[report]')")
        else:
            for fig in figures:
                if fig.data:
                    rep.figures.append(_plot_function(fig.plot)(fig.data, out / fig.file))

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

    if card:
        from .cards import cards_table

        missing = []
        for game in _games_in_order(rep.games):
            c = analysis_of(game).replication_card([t for t in traces if str(t.get("game")) == game])
            if c is None:
                missing.append(f"{game}: no replication card for this game.")
            else:
                rep.cards.append(c)
        rep.card = cards_table(rep.cards)
        rep.card.notes.extend(missing)
        for suffix, text in ((".md", rep.card.markdown()), (".csv", rep.card.csv_text())):
            path = out / f"card{suffix}"
            write_text(path, text)
            rep.files.append(path)

    rep.write_index(out / "report.md", ["# Report", "", "Games read: " + (
        ", ".join(f"{g} {n}" for g, n in sorted(rep.games.items())) or "none"), ""])
    return rep


def report_run(path: str | Path, out: str | Path | None = None, *, plots: bool = True,
               runs: Any = None, include_fallbacks: bool = False, labels: str | Path | None = None,
               n_resamples: int | None = None, card: bool = False) -> Report:
    """Read the traces of ``path`` (a run folder or a ``.jsonl`` file) and write the
    report to ``out`` (default ``DIR/report``, or ``report`` beside a file). One run is
    read unless ``runs`` says otherwise (``"all"``, or run ids; see
    :func:`negotiation_env.traces.iter_traces`); every line dropped (torn, undecodable,
    failing the schema, a duplicate, another run's) becomes a note of the report.
    ``include_fallbacks``: count resource rounds with a fallback decision as play.
    ``labels``: a judge labels file; default ``DIR/judge/merged.jsonl`` (several judges
    merged, :func:`~.judge.merge_labels`) when it exists, else ``DIR/judge/labels.jsonl``.
    ``n_resamples``, ``card``: see :func:`build_report`."""
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
                        n_resamples=n_resamples, card=card)
