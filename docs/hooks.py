"""MkDocs hook: generated content in the docs pages, so it cannot drift from the code.

``<!-- config-table: dotted.path.ConfigClass -->`` becomes the Markdown table of that
config dataclass's fields (:func:`negotiation_env.core.configdoc.config_table`).
"""

from __future__ import annotations

import importlib
import re

_CONFIG = re.compile(r"<!--\s*config-table:\s*([\w.]+)\s*-->")


def _config_table(m: re.Match) -> str:
    from negotiation_env.core.configdoc import config_table

    module, _, name = m.group(1).rpartition(".")
    return config_table(getattr(importlib.import_module(module), name))


def render(markdown: str) -> str:
    """The page's Markdown with every generated block filled in."""
    return _CONFIG.sub(_config_table, markdown)


def on_page_markdown(markdown, page, config, files):  # noqa: ARG001 - MkDocs hook signature
    return render(markdown)
