"""Building a game's config from keyword arguments, with errors that name the field."""

from __future__ import annotations

import dataclasses
import difflib
import warnings
from typing import Any, TypeVar

from .visible import shown

__all__ = ["ConfigError", "build_config", "check_bool", "check_choice", "check_int", "check_no_effect", "closest"]

T = TypeVar("T")


class ConfigError(ValueError):
    """A config field has a wrong value; the message names it and what is allowed."""


def closest(name: Any, names: Any, cutoff: float = 0.75) -> str | None:
    """The one of ``names`` that ``name`` most likely misspells (difflib, at least
    ``cutoff`` alike), or None."""
    if not isinstance(name, str):
        return None
    close = difflib.get_close_matches(name, [str(n) for n in names], n=1, cutoff=cutoff)
    return close[0] if close else None


def build_config(cls: type[T], kwargs: dict[str, Any]) -> T:
    """``cls(**kwargs)``; an unknown field is refused naming it, with the field it most
    likely misspells (the valid fields are listed only when none is close)."""
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = [k for k in kwargs if k not in names]
    if unknown:
        close = {k: closest(k, names) for k in unknown}
        if all(close.values()):
            hint = "did you mean " + ", ".join(
                f"{c!r}" + (f" for {k!r}" if len(unknown) > 1 else "") for k, c in close.items()) + "?"
        else:
            hint = f"valid fields: {', '.join(names)}"
        raise ConfigError(f"unknown config field(s) {', '.join(map(repr, unknown))} for {cls.__name__}; {hint}")
    return cls(**kwargs)


def check_choice(field: str, value: Any, allowed: tuple) -> None:
    if value not in allowed:
        close = closest(value, [a for a in allowed if isinstance(a, str)])
        hint = f" (did you mean {close!r}?)" if close is not None else ""
        raise ConfigError(f"config field '{field}' must be one of {', '.join(map(repr, allowed))}; "
                          f"got {shown(value)}{hint}")


def check_int(field: str, value: Any, lo: int, hi: int | None = None) -> None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= lo and (hi is None or value <= hi)
    if not ok:
        rng = f">= {lo}" if hi is None else f"between {lo} and {hi}"
        raise ConfigError(f"config field '{field}' must be an integer {rng}; got {shown(value)}")


def check_bool(field: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"config field '{field}' must be True or False; got {shown(value)}")


def check_no_effect(config: Any, field: str, *, active: bool, other: str, counts_with: str,
                    refuse: bool = False, stacklevel: int = 4) -> None:
    """A setting that only counts when another field has a given value: set to a
    non-default value where it cannot change anything, warn (``UserWarning``) or, with
    ``refuse``, raise :class:`ConfigError`. ``active``: whether it counts in ``config``;
    ``other``: the field it depends on; ``counts_with``: the setting that would make it
    count (e.g. ``"on_error='retry'"``). A value equal to the dataclass default is never
    reported, so the defaults of every condition stay silent."""
    if active:
        return
    f = next(x for x in dataclasses.fields(config) if x.name == field)
    value = getattr(config, field)
    if f.default is not dataclasses.MISSING and value == f.default:
        return
    msg = (f"config field '{field}' = {value!r} has no effect with {other}={getattr(config, other)!r}: it counts "
           f"only with {counts_with} (its default is {f.default!r})")
    if refuse:
        raise ConfigError(msg)
    # stacklevel 4 (called from __post_init__): past this helper, __post_init__ and the
    # generated __init__, to the line that built the config
    warnings.warn(msg, UserWarning, stacklevel=stacklevel)
