"""The API key of an OpenAI-compatible server, read from the environment.

Keys never come from a config file or a command-line value: a run names the environment
variable that holds one (``api_key_env``), and :func:`api_key_from_env` reads it.
Needs no HTTP client, so a command can check its key before anything is sent.
"""

from __future__ import annotations

import os
import re

__all__ = ["api_key_from_env"]


def api_key_from_env(var: str | None) -> tuple[str, str | None]:
    """``(key, note)``: the key from environment variable ``var`` (default
    ``OPENAI_API_KEY``); a missing default gives the placeholder ``EMPTY`` (local servers
    need none) with a note; a missing named variable is an error naming it."""
    name = var or "OPENAI_API_KEY"
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"api_key_env must name an environment variable; got {var!r}")
    key = os.environ.get(name)
    if key:
        return key, None
    if var and var != "OPENAI_API_KEY":
        raise ValueError(f"environment variable {var} (api_key_env) is not set")
    return "EMPTY", f"{name} is not set; sending the placeholder key 'EMPTY' (fine for local servers)"
