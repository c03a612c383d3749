"""Config dataclasses described from themselves: each field's name, type, default and the
sentence the class docstring gives it.

The documentation site's game pages and ``negotiation-env games`` both call
:func:`config_table` / :func:`config_fields`, so the tables cannot drift from the code.
A field is documented in its class docstring as an entry ``name: text`` (several names
may share one entry: ``a, b: text``), continued on more-indented lines; a field without
an entry is listed with an empty description (and ``tests/test_docs.py`` fails on it).
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["FieldDoc", "config_fields", "config_table", "field_descriptions", "plain"]

_ENTRY = re.compile(r"^(\s*)([a-z_][a-z0-9_]*(?:,\s*[a-z_][a-z0-9_]*)*):\s+(.*)$")


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    default: str
    description: str


def field_descriptions(cls: type) -> dict[str, str]:
    """``{field: text}`` from the ``name: text`` entries of ``cls``'s docstring (only
    names that are fields of ``cls``)."""
    names = {f.name for f in dataclasses.fields(cls)}
    out: dict[str, str] = {}
    current: list[str] = []
    indent = -1
    for line in inspect.cleandoc(cls.__doc__ or "").splitlines():
        m = _ENTRY.match(line)
        if m and all(n.strip() in names for n in m.group(2).split(",")):
            current = [n.strip() for n in m.group(2).split(",")]
            indent = len(m.group(1))
            for n in current:
                out[n] = m.group(3).strip()
            continue
        stripped = line.strip()
        lead = len(line) - len(line.lstrip())
        if current and stripped and lead > indent:
            for n in current:
                out[n] += " " + stripped
        else:
            current = []
    return out


def _type_name(t: Any) -> str:
    if isinstance(t, str):
        return t
    return getattr(t, "__name__", None) or str(t).replace("typing.", "")


def _default(f: dataclasses.Field) -> str:
    if f.default is not dataclasses.MISSING:
        v = f.default
    elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        v = f.default_factory()  # type: ignore[misc]
    else:
        return "(required)"
    return repr(v)


def config_fields(cls: type) -> list[FieldDoc]:
    """Every field of the config dataclass ``cls``, in declaration order."""
    docs = field_descriptions(cls)
    return [FieldDoc(f.name, _type_name(f.type), _default(f), docs.get(f.name, ""))
            for f in dataclasses.fields(cls)]


_ROLE = re.compile(r":[a-z]+:`~?\.?([^`]+)`")


def _md(text: str) -> str:
    # reST literals to Markdown code, Sphinx roles to their text, pipes escaped for tables
    text = _ROLE.sub(lambda m: f"`{m.group(1).split('.')[-1]}`", text)
    return text.replace("``", "`").replace("|", "\\|")


def plain(text: str) -> str:
    """A description (or type, or default) for a terminal: reST literals and Sphinx
    roles as their bare text (``negotiation-env games``)."""
    return _ROLE.sub(lambda m: m.group(1).split(".")[-1], text).replace("``", "")


def config_table(cls: type) -> str:
    """A Markdown table of ``cls``'s fields: field, type, default, description."""
    rows = ["| field | type | default | description |", "| --- | --- | --- | --- |"]
    for f in config_fields(cls):
        rows.append(f"| `{f.name}` | `{_md(f.type)}` | `{_md(f.default)}` | {_md(f.description)} |")
    return "\n".join(rows)
