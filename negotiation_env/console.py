"""The command line's terminal output that every subcommand shares (the library never prints)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from .core.secrets import redact_text

__all__ = ["print_error"]


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
