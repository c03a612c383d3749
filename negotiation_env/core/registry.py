"""The game registry: one :class:`GameSpec` per game, the one place the shared modules
look a game's parts up.

Each game declares its spec in its own package (``negotiation_env/games/<game>/spec.py``)
and :mod:`negotiation_env` registers it with one :func:`register` call. A spec names the
game, its config and game classes, and its optional parts as ``"module:attr"`` (or
``"module"``) paths, imported only when asked for (:meth:`GameSpec.part`), so that
registering stays cheap and a game's package never imports the layers above it:

* ``answer_format``: the module with ``build(spec, text_chars=None) -> AnswerFormat``
  (:mod:`negotiation_env.core.answer_format`);
* ``menu``: ``factory(game, **options) -> Menu``, the numeric menu of
  :mod:`negotiation_env.wrappers.menus`;
* ``action_encoder``: ``trace -> (step -> numeric action or None)``, the ``action``
  column of the ``transitions`` export;
* ``summary``: the game's measures in the run summary (an object with ``columns``,
  ``description``, ``kept``, ``measures(trace)`` and ``figures(totals)``);
* ``condition_values``: ``() -> {config field: values}``, the known values of the
  conditions the game varies, where its config validator does not list them;
* ``scripted``: the module of the game's scripted policies (``POLICIES``, the names, and
  ``make(name, seed, ...)``); None: the game has none;
* ``play``: the human seat's hooks (``phase_line``, ``short_form``, ``ending``);
* ``trace_config``: ``config dict -> config dict``, a trace's stored config as the env
  takes it back;
* ``analysis``: a :class:`~negotiation_env.analysis.hooks.GameAnalysis`, the game's part
  in the report, the cells listing and the viewer.

``condition_fields`` (the config fields that are the game's conditions) and
``default_seats`` (the scripted policies ``negotiation-env play`` seats where no flag
names one) are plain data.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Iterator, MutableMapping

from .config import ConfigError, closest

__all__ = ["GameSpec", "register", "get", "names", "specs", "by_env_id", "find", "unregister", "PartMissing", "PartTable", "PARTS"]

#: the optional parts a spec names by path, and what each is, for the missing-part error
PARTS: dict[str, str] = {
    "answer_format": "answer format",
    "menu": "numeric menu",
    "action_encoder": "numeric action encoder",
    "summary": "run-summary measures",
    "condition_values": "condition values",
    "scripted": "scripted policies",
    "play": "human-seat hooks",
    "trace_config": "trace-config reader",
    "analysis": "analysis hooks",
}


class PartMissing(NotImplementedError):
    """A game's spec does not declare the optional part asked for."""


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    obj = importlib.import_module(module)
    for name in attr.split(".") if attr else ():
        obj = getattr(obj, name)
    return obj


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared modules need to know about one game (module docstring)."""

    name: str
    config_cls: type
    game_cls: type
    answer_format: str | None = None
    menu: str | None = None
    action_encoder: str | None = None
    summary: str | None = None
    condition_values: str | None = None
    scripted: str | None = None
    play: str | None = None
    trace_config: str | None = None
    analysis: str | None = None
    condition_fields: tuple[str, ...] = ()
    default_seats: tuple[str, ...] = ()

    @property
    def env_id(self) -> str:
        """The versioned env id: the game class's ``metadata["name"]`` (``resource_v1``)."""
        return self.game_cls.metadata["name"]

    def has(self, part: str) -> bool:
        """Whether the spec declares the optional ``part`` (a key of :data:`PARTS`)."""
        if part not in PARTS:
            raise ValueError(f"unknown game part {part!r}; parts: {', '.join(PARTS)}")
        return getattr(self, part) is not None

    def part(self, part: str) -> Any:
        """The optional ``part``, imported; :class:`PartMissing` where the spec has none."""
        if not self.has(part):
            raise PartMissing(f"the {self.name} game has no {PARTS[part]}")
        return _load(getattr(self, part))


_SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec``; a second spec of the same name or env id is refused
    (:class:`ValueError`), the same spec again is a no-op."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register() takes a GameSpec, got {type(spec).__name__}")
    old = _SPECS.get(spec.name)
    if old is not None:
        if old == spec:
            return spec
        raise ValueError(f"a game named {spec.name!r} is already registered")
    taken = [s.name for s in _SPECS.values() if s.env_id == spec.env_id]
    if taken:
        raise ValueError(f"env id {spec.env_id!r} is already the {taken[0]} game's")
    _SPECS[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove the game ``name`` (for tests that register a game of their own)."""
    _SPECS.pop(name, None)


def get(name: str) -> GameSpec:
    """The spec of the game ``name``; an unknown name raises :class:`ConfigError` naming
    the registered games and the one it most likely misspells."""
    spec = _SPECS.get(name) if isinstance(name, str) else None
    if spec is None:
        close = closest(name, _SPECS)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ConfigError(f"unknown game {name!r}{hint}; available games: {', '.join(_SPECS)}")
    return spec


def find(name: str) -> GameSpec | None:
    """The spec of the game ``name``, or None where no game of that name is registered."""
    return _SPECS.get(name) if isinstance(name, str) else None


def names() -> list[str]:
    """The registered games' names, in registration order."""
    return list(_SPECS)


def specs() -> list[GameSpec]:
    """The registered specs, in registration order."""
    return list(_SPECS.values())


def by_env_id(env_id: str) -> GameSpec | None:
    """The spec whose env id is ``env_id`` (None: no registered game plays under it)."""
    for spec in _SPECS.values():
        if spec.env_id == env_id:
            return spec
    return None


class PartTable(MutableMapping):
    """``{game name: part}`` over the registered games that declare ``part``, each
    imported when read: the registry seen as a per-game table. Entries set on the table
    itself (a test's stand-in, a part for a game kept outside the registry) are looked
    up first, and deleting one removes only it."""

    def __init__(self, part: str, attr: str | None = None):
        if part not in PARTS:
            raise ValueError(f"unknown game part {part!r}; parts: {', '.join(PARTS)}")
        self._part, self._attr = part, attr
        self._extra: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name in self._extra:
            return self._extra[name]
        spec = _SPECS.get(name) if isinstance(name, str) else None
        if spec is None or not spec.has(self._part):
            raise KeyError(name)
        value = spec.part(self._part)
        return getattr(value, self._attr) if self._attr else value

    def __setitem__(self, name: str, value: Any) -> None:
        self._extra[name] = value

    def __delitem__(self, name: str) -> None:
        del self._extra[name]

    def _names(self) -> list[str]:
        return [s.name for s in specs() if s.has(self._part) and s.name not in self._extra] + list(self._extra)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, name: object) -> bool:
        if name in self._extra:
            return True
        spec = _SPECS.get(name) if isinstance(name, str) else None
        return spec is not None and spec.has(self._part)

    def __repr__(self) -> str:
        return f"PartTable({self._part!r}: {', '.join(self)})"
