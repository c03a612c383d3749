"""A training config dataclass as command-line flags, and its fields checked against
their annotations.

Each field becomes one flag (``batch_size`` -> ``--batch-size``) whose help is the
field's entry in the class docstring (:func:`negotiation_env.core.configdoc.field_descriptions`)
and whose type comes from the annotation: ``int``, ``float``, ``str`` read as such, a
``Literal`` as its choices, ``bool`` as ``--x`` / ``--no-x``, a ``tuple`` as a
comma-separated list, ``X | None`` as ``X`` (``none`` reads as None). A flag left out
keeps the dataclass default, so the config is built from the flags given only and its
``__post_init__`` validates the whole.
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from typing import Any, Literal

from ..core.configdoc import field_descriptions, plain

__all__ = ["check_fields", "add_config_arguments", "config_from_arguments", "flag"]


def flag(name: str) -> str:
    """The flag of field ``name``: ``batch_size`` -> ``--batch-size``."""
    return "--" + name.replace("_", "-")


def _optional(hint: Any) -> tuple[Any, bool]:
    """``(X, True)`` for ``X | None``; ``(hint, False)`` otherwise."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return rest[0], True
    return hint, False


def _reader(hint: Any, optional: bool, name: str):
    """The argparse ``type`` of a field: text -> value, ValueError on a bad one."""
    if typing.get_origin(hint) is tuple:
        item = _reader(typing.get_args(hint)[0], False, name)

        def read_tuple(text: str) -> tuple:
            return tuple(item(x.strip()) for x in text.split(",") if x.strip())

        read_tuple.__name__ = "comma-separated list"
        return read_tuple
    if typing.get_origin(hint) is Literal:
        choices = typing.get_args(hint)

        def read_choice(text: str) -> Any:
            if text not in choices:
                raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from "
                                                 f"{', '.join(map(str, choices))})")
            return text

        return read_choice
    base = hint if hint in (int, float, str) else str

    def read(text: str) -> Any:
        if optional and text.lower() == "none":
            return None
        return base(text)

    read.__name__ = {int: "integer", float: "number", str: "text"}[base]
    return read


def add_config_arguments(parser: argparse.ArgumentParser, cls: type, skip: tuple[str, ...] = ()) -> None:
    """One flag per field of the dataclass ``cls`` (but ``skip``), in declaration order,
    each defaulting to "not given" (the dataclass default applies)."""
    hints = typing.get_type_hints(cls)
    docs = field_descriptions(cls)
    for f in dataclasses.fields(cls):
        if f.name in skip:
            continue
        hint, optional = _optional(hints[f.name])
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
        text = plain(docs.get(f.name, "")) + f" (default {shown})"
        kw: dict[str, Any] = {"dest": f.name, "default": argparse.SUPPRESS, "help": text.replace("%", "%%")}
        if hint is bool:
            parser.add_argument(flag(f.name), action=argparse.BooleanOptionalAction, **kw)
            continue
        if typing.get_origin(hint) is Literal:
            kw["metavar"] = "{" + ",".join(map(str, typing.get_args(hint))) + "}"
        elif typing.get_origin(hint) is tuple:
            kw["metavar"] = "A,B,..."
        else:
            kw["metavar"] = {int: "N", float: "X"}.get(hint, "TEXT")
        parser.add_argument(flag(f.name), type=_reader(hint, optional, f.name), **kw)


def config_from_arguments(cls: type, args: argparse.Namespace, **extra: Any) -> Any:
    """``cls`` built from the fields ``args`` holds (the flags given) and ``extra``; the
    dataclass validates it (a :class:`~negotiation_env.core.config.ConfigError` names
    the field)."""
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in vars(args).items() if k in names}, **extra)


def check_fields(config: Any) -> list[str]:
    """The type and choice problems of a config dataclass's fields: each value against
    its annotation (``int``, ``float``, ``bool``, ``str``, ``None`` where allowed, a
    ``Literal``'s choices, a tuple's items)."""
    hints = typing.get_type_hints(type(config))
    problems = []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        why = _type_problem(value, hints[f.name])
        if why:
            problems.append(f"{f.name} {why}; got {value!r}")
    return problems


def _type_problem(value: Any, hint: Any) -> str | None:
    hint, optional = _optional(hint)
    if value is None:
        return None if optional else "must not be None"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return None if value in args else f"must be one of {', '.join(map(str, args))}"
    if origin is tuple:
        if not isinstance(value, tuple):
            return "must be a tuple"
        for item in value:
            why = _type_problem(item, args[0])
            if why:
                return f"item {item!r} {why}"
        return None
    if origin is dict:
        return None if isinstance(value, dict) else "must be a dict"
    if hint is bool:
        return None if isinstance(value, bool) else "must be true or false"
    if hint is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else "must be an integer"
    if hint is float:
        return None if isinstance(value, (int, float)) and not isinstance(value, bool) else "must be a number"
    if hint is str:
        return None if isinstance(value, str) else "must be text"
    return None
