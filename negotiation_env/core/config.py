"""Building a game's config from keyword arguments, with errors that name the field."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["ConfigError", "build_config", "check_bool", "check_choice", "check_int"]

T = TypeVar("T")


class ConfigError(ValueError):
    """A config field has a wrong value; the message names it and what is allowed."""


def build_config(cls: type[T], kwargs: dict[str, Any]) -> T:
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = [k for k in kwargs if k not in names]
    if unknown:
        raise ConfigError(
            f"unknown config field(s) {', '.join(map(repr, unknown))} for {cls.__name__}; "
            f"valid fields: {', '.join(names)}"
        )
    return cls(**kwargs)


def check_choice(field: str, value: Any, allowed: tuple) -> None:
    if value not in allowed:
        raise ConfigError(f"config field '{field}' must be one of {', '.join(map(repr, allowed))}; got {value!r}")


def check_int(field: str, value: Any, lo: int, hi: int | None = None) -> None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= lo and (hi is None or value <= hi)
    if not ok:
        rng = f">= {lo}" if hi is None else f"between {lo} and {hi}"
        raise ConfigError(f"config field '{field}' must be an integer {rng}; got {value!r}")


def check_bool(field: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"config field '{field}' must be True or False; got {value!r}")
