"""The command line's terminal output that every subcommand shares (the library never prints)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import PurePath
from typing import Any, Mapping, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .core.secrets import redact_text

__all__ = ["print_error", "FORMATS", "add_format_argument", "resolve_format", "print_table", "print_text",
           "print_json", "markdown_table"]


def print_error(msg: str, code: int) -> int:
    """Print ``error: msg`` on stderr and return ``code``: the one error printer of the CLI.
    The message is library or user text (paths, install hints such as
    ``pip install 'negotiation_env[api]'``), so it is escaped (rich markup never eats a part
    of it), and each line is printed whole, not wrapped at the terminal's width, so a path or
    a command in it can be copied as it is. Credentials in it (a URL's user information or
    key parameters, key-shaped tokens) are blanked."""
    Console(stderr=True).print("[red]error:[/] " + escape(redact_text(msg)), highlight=False, markup=True,
                               soft_wrap=True)
    return code


# --------------------------------------------------------------------------- tables and documents

#: the output formats of the commands that print results (``--format``)
FORMATS = ("table", "markdown", "json")
FORMAT_HELP = ("table: boxed tables that fit the terminal's width; markdown: GitHub pipe tables, full values, "
               "no colour; json: one JSON document on stdout (progress and warnings go to stderr); default: "
               "table on a terminal, markdown when stdout is a pipe or a file")

#: the narrowest a column that may wrap is made before the table is split instead
_MIN_WRAP = 12
#: a column's share of a boxed table's width beyond its text: a border and one space each side
_COLUMN_EXTRA = 3


def add_format_argument(parser: argparse.ArgumentParser, json_alias: bool = False) -> None:
    """``--format table|markdown|json`` (and ``--json``, the same as ``--format json``)."""
    parser.add_argument("--format", choices=FORMATS, default=None, dest="format", help=FORMAT_HELP)
    if json_alias:
        parser.add_argument("--json", action="store_const", const="json", dest="format",
                            help="the same as --format json")


def resolve_format(fmt: str | None, console: Console) -> str:
    """The format to print in: the one asked for, else ``table`` on a terminal and
    ``markdown`` anywhere else (a pipe, a file, a CI log)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
        return fmt
    return "table" if console.is_terminal else "markdown"


def print_text(console: Console, text: str, fmt: str, style: str | None = None) -> None:
    """A line of prose among tables: wrapped at the console's width, in ``style``, in the
    ``table`` format; whole and plain (no colour, no wrapping) in the others."""
    if fmt == "table":
        console.print(text, style=style, markup=False, highlight=False, emoji=False)
    else:
        console.out(text, highlight=False)


def _plain_json(value: Any) -> Any:
    """``value`` as JSON can hold it: tuples and sets as lists, paths as text, NaN and
    infinities as null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _plain_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain_json(v) for v in value]
    if isinstance(value, PurePath):
        return str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


def print_json(console: Console, document: Any) -> None:
    """``document`` as one JSON document on the console (indented, ASCII, never wrapped)."""
    console.out(json.dumps(_plain_json(document), indent=2, ensure_ascii=True), highlight=False)


def _md_cell(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[str]],
                   justify: Sequence[str] | None = None) -> list[str]:
    """The lines of a GitHub pipe table: header, separator (``---:`` for a right-aligned
    column), one line per row."""
    just = list(justify or ["left"] * len(columns))
    lines = ["| " + " | ".join(_md_cell(c) for c in columns) + " |",
             "| " + " | ".join("---:" if j == "right" else "---" for j in just) + " |"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def _longest_word(text: str) -> int:
    return max((cell_len(w) for w in str(text).split()), default=0)


def _rich_table(title: str | None, columns: Sequence[str], rows: Sequence[Sequence[str]], just: Sequence[str],
                keep: Sequence[int], widths: Sequence[int]) -> Table:
    """A boxed table of the columns ``keep``, each exactly as wide as ``widths`` says
    (a header may wrap at its spaces; a cell wider than its column, one of ``wrap``,
    folds: nothing is cut)."""
    t = Table(title=Text(title) if title else None, title_justify="left")
    for i, w in zip(keep, widths):
        t.add_column(Text(columns[i]), justify=just[i], width=w, overflow="fold")  # type: ignore[arg-type]
    for row in rows:
        t.add_row(*(Text(str(row[i])) for i in keep))
    return t


def _boxed_width(widths: Sequence[int]) -> int:
    return sum(widths) + _COLUMN_EXTRA * len(widths) + 1


def _fit(keep: Sequence[int], narrowest: Sequence[int], natural: Sequence[int], wraps: set[int],
         room: int) -> list[int] | None:
    """Widths of the columns ``keep`` in a boxed table at most ``room`` wide: each at
    least its narrowest, the room left given to headers first, then to the columns that
    wrap; None when even the narrowest do not fit."""
    widths = {i: narrowest[i] for i in keep}
    spare = room - _boxed_width(list(widths.values()))
    if spare < 0:
        return None
    for i in sorted(keep, key=lambda i: i in wraps):
        grow = min(spare, natural[i] - widths[i])
        widths[i] += grow
        spare -= grow
    return [widths[i] for i in keep]


def _parts(narrowest: Sequence[int], room: int) -> list[list[int]] | None:
    """Column indices of the tables a too-wide table splits into, each led by column 0
    and fitting in ``room``; None when column 0 and one other do not fit."""
    parts: list[list[int]] = []
    for i in range(1, len(narrowest)):
        if parts and _boxed_width([narrowest[j] for j in parts[-1]] + [narrowest[i]]) <= room:
            parts[-1].append(i)
        elif _boxed_width([narrowest[0], narrowest[i]]) <= room:
            parts.append([0, i])
        else:
            return None
    return parts or [[0]]


def _print_blocks(console: Console, title: str | None, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """One block per row: its first cell, then a ``column  value`` line per other column
    (for a console too narrow for even two columns of the table)."""
    if title:
        console.print(Text(title, style="bold"), overflow="fold")
    for row in rows:
        console.print()
        console.print(Text(str(row[0]), style="bold"), overflow="fold")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(overflow="fold", style="dim")
        grid.add_column(overflow="fold")
        for name, value in zip(columns[1:], row[1:]):
            grid.add_row(Text(name), Text(str(value)))
        console.print(grid)


def print_table(console: Console, title: str | None, columns: Sequence[str], rows: Sequence[Sequence[Any]],
                fmt: str, *, justify: Sequence[str] | None = None, wrap: Sequence[int] = (),
                notes: Sequence[str] = ()) -> None:
    """The one table printer of the CLI: every command's tables go through it, so each
    reads the same in every place.

    ``table``: a boxed table when it fits the console's width (the columns in ``wrap``,
    e.g. a description, may wrap; no other cell is ever wrapped or cut); else the same
    table split into several stacked ones, each led by the first column; where even the
    first column and one other do not fit, one block per row with ``column  value``
    lines. ``markdown``: a heading, a GitHub pipe table with every value whole, no colour.
    Cells are text as given (never read as markup). ``notes`` follow the table."""
    fmt = resolve_format(fmt, console)
    if fmt == "json":
        raise ValueError("print_table prints table and markdown; a json document is printed by print_json")
    cols = [str(c) for c in columns]
    body = [[str(c) for c in row] for row in rows]
    just = list(justify or ["left"] * len(cols))
    if fmt == "markdown":
        lines = ([f"### {title}", ""] if title else []) + markdown_table(cols, body, just)
        console.out("\n".join(lines + ([""] + list(notes) if notes else []) + [""]), highlight=False)
        return
    wraps = {i for i in wrap if 0 <= i < len(cols)}
    values = [max([0, *(cell_len(r[i]) for r in body)]) for i in range(len(cols))]
    natural = [max(cell_len(cols[i]), values[i]) for i in range(len(cols))]
    # the narrowest a column gets: a header may wrap at its spaces, a value never, except
    # in a column that wraps (down to its longest word, or _MIN_WRAP)
    narrowest = [max(_longest_word(cols[i]), min(values[i], max(_MIN_WRAP, *(_longest_word(r[i]) for r in body)))
                     if i in wraps else values[i], 1) for i in range(len(cols))]
    room = console.width
    whole = _fit(range(len(cols)), narrowest, natural, wraps, room)
    if whole is not None:
        console.print(_rich_table(title, cols, body, just, range(len(cols)), whole))
    else:
        parts = _parts(narrowest, room)
        if parts is None:
            _print_blocks(console, title, cols, body)
        else:
            for k, keep in enumerate(parts):
                head = f"{title} ({k + 1}/{len(parts)})" if title else None
                widths = _fit(keep, narrowest, natural, wraps, room)
                assert widths is not None  # _parts packs only what fits
                console.print(_rich_table(head, cols, body, just, keep, widths))
    for n in notes:
        print_text(console, n, fmt)
