"""The exit codes of every ``negotiation-env`` command, and the words the commands share.

One table (:data:`EXIT_CODES`, printed in ``docs/cli.md``) serves every command; each
command's ``--help`` lists the codes it can return (:func:`epilog`), in that table's
words unless the command says more. A command that reads a run names a missing source
and a folder that is not a run the same way (:func:`source_problem`), with exit code
:data:`USAGE`; a command that writes a file refuses an existing one the same way
(:func:`exists_message`).
"""

from __future__ import annotations

import argparse
import signal
import textwrap
from pathlib import Path
from typing import Iterable

__all__ = ["OK", "NOTHING", "USAGE", "MODEL", "DEGRADED", "STORAGE", "TRUNCATED", "INTERRUPTED", "TERMINATED",
           "EXIT_CODES", "COMMAND_CODES", "epilog", "add_epilogs", "source_problem", "exists_message", "TRACES_FILE"]

#: the command did what it was asked
OK = 0
#: the command ran but has nothing to show (no rows selected, a run with games in error or missing)
NOTHING = 1
#: a usage, config or input error: a flag, a config file, a source that is not a run
USAGE = 2
#: a model that did not answer its first short call, could not be loaded, or needs an extra not installed
MODEL = 3
#: more than ``--max-degraded`` of a run's games were degraded
DEGRADED = 4
#: could not read or write storage: disk full, read-only folder, no permission
STORAGE = 5
#: more than ``--max-truncated`` of a run's games were cut by the step cap
TRUNCATED = 6
#: interrupted (SIGINT, Ctrl-C): 128 + the signal's number, as a shell reports it
INTERRUPTED = 128 + signal.SIGINT
#: terminated (SIGTERM)
TERMINATED = 128 + signal.SIGTERM

#: every code and what it means, for every command
EXIT_CODES: dict[int, str] = {
    OK: "success",
    NOTHING: "the command ran but has nothing to show (the message says why)",
    USAGE: "usage, config or input error: a bad flag or config (every problem listed), a missing source, a folder "
           "that is not a run (no traces.jsonl), an output that exists (pass --force)",
    MODEL: "a model did not answer its first short call, could not be loaded, or needs an extra that is not "
           "installed",
    DEGRADED: "more than --max-degraded of the games were degraded (a model call ran out of retries)",
    STORAGE: "could not read or write: disk full, read-only folder or no permission (the message names the path)",
    TRUNCATED: "more than --max-truncated of the games were cut by the step cap (max_steps)",
    INTERRUPTED: "interrupted (SIGINT, Ctrl-C)",
    TERMINATED: "terminated (SIGTERM)",
}

#: the trace file of a run folder
TRACES_FILE = "traces.jsonl"


def epilog(codes: Iterable[int | tuple[int, str]]) -> str:
    """The ``exit codes:`` block of a command's ``--help``: each code with the table's
    words, or the command's own (a ``(code, text)`` pair)."""
    rows = [c if isinstance(c, tuple) else (c, EXIT_CODES[c]) for c in codes]
    return "exit codes:\n" + "\n".join(
        textwrap.fill(text, 88, initial_indent=f"  {code:<4} ", subsequent_indent=" " * 7) for code, text in rows)


_SOURCE_USAGE = (USAGE, "usage error, a missing source, or a folder that is not a run (no traces.jsonl)")

#: the codes each command can return, for the commands whose parser sets no epilog of its own
COMMAND_CODES: dict[str, tuple[int | tuple[int, str], ...]] = {
    "games": (OK, (USAGE, "usage error (an unknown game)")),
    "play": (OK, (NOTHING, "the game stopped before its end (stdin closed, Ctrl-C: nothing was scored), or an "
                           "error ended it"),
             (USAGE, "usage error: a bad flag, seat, policy or config field (the message names it)"),
             (MODEL, "a model seat did not answer its first short call"), STORAGE),
    "scenarios": (OK,),
    "scenarios list": (OK,),
    "scenarios generate": (OK, (NOTHING, "no scenario could be generated, or a written file failed verification"),
                           (USAGE, "usage error, or files of the same names in --out (pass --force)")),
    "scenarios pool": (OK, (NOTHING, "--check: the shipped pool differs from the regenerated one"),
                       (USAGE, "usage error, or files of the same names in --out (pass --force)")),
    "report": (OK, (NOTHING, "the source's trace files hold no game"), _SOURCE_USAGE, STORAGE),
    "view": (OK, _SOURCE_USAGE, STORAGE),
    "leaderboard": (OK, (NOTHING, "the sources' trace files hold no game, or no game that can be rated (the notes "
                                  "say why)"), _SOURCE_USAGE,
                    (MODEL, "--openskill needs the ratings extra (the message gives the pip install line)"), STORAGE),
    "judge": (OK, _SOURCE_USAGE, STORAGE),
    "experiments": (OK, _SOURCE_USAGE, (MODEL, "a scoring model could not be loaded"), STORAGE),
}


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, which wraps the description, keeping an ``exit codes:``
    block as it is laid out."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("exit codes:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def add_epilogs(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """Give every subcommand of ``parser`` (and theirs) that has no epilog the ``exit
    codes:`` block of :data:`COMMAND_CODES`."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                full = f"{prefix}{name}"
                if sub.epilog is None and full in COMMAND_CODES:
                    sub.epilog = epilog(COMMAND_CODES[full])
                    if sub.formatter_class is argparse.HelpFormatter:
                        sub.formatter_class = _Formatter
                add_epilogs(sub, full + " ")


def source_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a source a command can read traces from, or None: it does not
    exist, or it is a folder holding no trace file (``*.jsonl``; a run writes
    ``traces.jsonl``). A file is a trace file as given."""
    p = Path(path)
    if not p.exists():
        return f"no run folder or trace file at {p}"
    if p.is_dir() and not any(q.is_file() for q in p.glob("*.jsonl")):
        return f"{p} is not a run folder (no {TRACES_FILE})"
    return None


def exists_message(path: str | Path, what: str = "") -> str:
    """The refusal of an output that exists: one sentence naming it and ``--force``."""
    return f"{path} already exists{what}; pass --force to replace it, or choose another --out"
