"""Turning a policy spec into a policy, importing heavy back ends only when used.

=====================  ==========================================================
``scripted:NAME``      ``baselines.scripted.<game>.make(NAME, seed=..., **options)``
                       when that module exists, else (the resource game)
                       ``baselines.scripted.make``; options default to
                       ``output="text"`` (where the factory takes it) so actions go
                       through the text parser
``hf:PATH``            ``baselines.llm.hf.HFPolicy(PATH, **options)`` (the ``llm`` extra)
``openai:MODEL@URL``   ``baselines.llm.api.APIPolicy(model=MODEL, base_url=URL, **options)``
                       (the ``api`` extra); keys come from the environment, never the file
``python:MOD:FACTORY``  ``FACTORY(seed=..., **options)`` from an importable module
=====================  ==========================================================

Scripted and python policies are built fresh for every game (they are cheap and carry
their own rng). Model-backed policies (``hf``, ``openai``) are built once per worker and
reused; before each game their ``reset(seed=...)`` is called when they have one.
A ``seed`` keyword is passed only to factories that accept one.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any, Callable

from .config import PolicyEntry, RunConfigError

__all__ = ["PolicyUnavailable", "resolve_factory", "PolicyPool", "split_openai"]

HEAVY_KINDS = ("hf", "openai")
_OPENAI = re.compile(r"^(?P<model>[^@]+?)(?:@(?P<url>[a-z][a-z0-9+.\-]*://.+))?$", re.I)


class PolicyUnavailable(RunConfigError):
    """A policy spec names something that cannot be imported or built here."""


def split_openai(rest: str) -> tuple[str, str | None]:
    m = _OPENAI.match(rest)
    if m is None:
        raise PolicyUnavailable(f"policy spec 'openai:{rest}': expected openai:MODEL or openai:MODEL@URL")
    return m.group("model"), m.group("url")


def _import(module: str, what: str, extra: str | None):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        hint = f" (install the '{extra}' extra: pip install 'negotiation_env[{extra}]')" if extra else ""
        raise PolicyUnavailable(f"policy spec {what!r} needs {module}, which cannot be imported here: {e}{hint}") from None


def _accepts(factory: Callable, name: str) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def _with_seed(factory: Callable, kwargs: dict[str, Any], seed: int | None) -> dict[str, Any]:
    if "seed" not in kwargs and _accepts(factory, "seed"):
        return {**kwargs, "seed": seed}
    return kwargs


def _scripted_make(game: str, what: str) -> tuple[Callable, Any]:
    try:
        mod = importlib.import_module(f"baselines.scripted.{game}")
        if hasattr(mod, "make"):
            return mod.make, getattr(mod, "POLICIES", None)
    except ImportError:
        pass
    if game != "resource":
        raise PolicyUnavailable(f"policy spec {what!r}: there are no scripted policies for game {game!r} "
                                f"(no baselines.scripted.{game}.make)")
    mod = _import("baselines.scripted", what, None)
    return mod.make, mod.POLICIES


def resolve_factory(entry: PolicyEntry, game: str) -> Callable[[int | None], Any]:
    """A function ``seed -> policy`` for ``entry`` in ``game``; raises
    :class:`PolicyUnavailable` (naming the spec) if its back end cannot be imported or the
    name is unknown. Nothing heavy is loaded until the function is called."""
    kind, _, rest = entry.spec.partition(":")
    opts = dict(entry.options)
    if kind == "scripted":
        make, registry = _scripted_make(game, entry.spec)
        if registry is not None and rest not in registry:
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: unknown scripted policy {rest!r} for game "
                                    f"{game!r}; available: {', '.join(registry)}")
        if _accepts(make, "output"):  # scripted policies answer in text, like a model
            opts.setdefault("output", "text")
        return lambda seed: make(rest, **_with_seed(make, opts, seed))
    if kind == "python":
        mod_name, attr = rest.split(":")
        mod = _import(mod_name, entry.spec, None)
        factory = getattr(mod, attr, None)
        if not callable(factory):
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: {mod_name} has no callable {attr!r}")
        return lambda seed: factory(**_with_seed(factory, opts, seed))
    if kind == "hf":
        mod = _import("baselines.llm.hf", entry.spec, "llm")
        cls = getattr(mod, "HFPolicy", None)
        if cls is None:
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: baselines.llm.hf has no HFPolicy")
        return lambda seed: cls(rest, **_with_seed(cls, opts, seed))
    if kind == "openai":
        model, url = split_openai(rest)
        mod = _import("baselines.llm.api", entry.spec, "api")
        cls = getattr(mod, "APIPolicy", None)
        if cls is None:
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: baselines.llm.api has no APIPolicy")
        kw = {"model": model, **({"base_url": url} if url else {}), **opts}
        return lambda seed: cls(**_with_seed(cls, kw, seed))
    raise PolicyUnavailable(f"unknown policy kind {kind!r}")  # pragma: no cover - validated earlier


class PolicyPool:
    """Builds the policies of each game; keeps model-backed ones for reuse in this process."""

    def __init__(self) -> None:
        self._factories: dict[tuple[str, str], Callable[[int | None], Any]] = {}
        self._heavy: dict[tuple[str, str], Any] = {}

    def get(self, entry: PolicyEntry, game: str, seed: int | None) -> Any:
        key = (game, entry.model_dump_json())
        if key not in self._factories:
            self._factories[key] = resolve_factory(entry, game)
        if entry.kind not in HEAVY_KINDS:
            return self._factories[key](seed)
        if key not in self._heavy:
            self._heavy[key] = self._factories[key](seed)
        policy = self._heavy[key]
        if callable(getattr(policy, "reset", None)):
            policy.reset(**({"seed": seed} if _accepts(policy.reset, "seed") else {}))
        return policy
