"""The report's table: raw values, per-column formats, and the Markdown and CSV it writes.

Kept apart from :mod:`.report` so that modules which build tables (the judge's, the
matrix experiments') import it without importing the report that reads them."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["Table"]

_DASH = "–"
_PAIRS = ("ci", "pct_ci")


@dataclass
class Table:
    """A table with raw values. ``formats`` per column: ``text``, ``int``, ``pct``
    (a fraction shown as a percentage with one decimal), ``num`` (two decimals),
    ``ci`` (a (low, high) pair; two CSV columns), ``pct_ci`` (a pair of fractions shown
    in percent with one decimal; two CSV columns), ``p`` (a p-value: three
    decimals, ``<0.001`` below). ``data`` is the table written to CSV
    when the Markdown layout differs (e.g. ``talk / no-talk`` in one cell).

    The CSV holds each value in the unit the Markdown shows it in: ``pct`` and
    ``pct_ci`` columns as percentages (0 to 100, not fractions), with as many digits
    as it takes for the CSV number, printed in the Markdown's format, to give the
    Markdown cell exactly."""

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
                    cells.extend(["", ""] if v is None else [_csv(v[0], f), _csv(v[1], f)])
                else:
                    cells.append(_csv(v, f))
            w.writerow(cells)
        return buf.getvalue()


def _md(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def _csv(v: Any, f: str = "text") -> Any:
    """One CSV cell of value ``v`` in column format ``f``: a ``pct``/``pct_ci`` number in
    percent, a float with the fewest of 6, 10 or 17 significant digits that still prints
    as the Markdown cell does (so the two files never disagree by rounding)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)) and f in ("pct", "pct_ci"):
        v = 100 * float(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            return ""
        shown = _shown(v, f)
        for digits in (6, 10):
            text = f"{v:.{digits}g}"
            if _shown(float(text), f) == shown:
                return text
        return repr(v)
    return v


def _shown(x: float, f: str) -> str:
    """A number in its header's unit (a percentage for ``pct``) as the Markdown prints it."""
    if f in ("pct", "pct_ci"):
        return f"{x:.1f}"
    if f in ("num", "ci"):
        return f"{x:.2f}"
    if f == "p":
        return "<0.001" if x < 0.001 else f"{x:.3f}"
    return str(x)


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
