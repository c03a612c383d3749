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
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core import registry
from ..core.config import closest
from .config import PolicyEntry, RunConfigError

__all__ = ["PolicyUnavailable", "PolicyFactory", "resolve_factory", "PolicyPool", "split_openai", "hf_policy_class"]

HEAVY_KINDS = ("hf", "openai")
_OPENAI = re.compile(r"^(?P<model>[^@]+?)(?:@(?P<url>[a-z][a-z0-9+.\-]*://.+))?$", re.I)


class PolicyUnavailable(RunConfigError):
    """A policy spec names something that cannot be imported or built here.
    ``unknown``: the config names something that does not exist (a scripted name, a
    module, a factory: a config error, exit code 2), rather than a back end that is not
    installed here (a missing extra: exit code 3)."""

    def __init__(self, message: str, *, unknown: bool = True):
        super().__init__(message)
        self.unknown = unknown


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
        # the named module itself missing is a name the config got wrong; anything else is this installation
        unknown = (extra is None and isinstance(e, ModuleNotFoundError) and e.name is not None
                   and (module == e.name or module.startswith(e.name + ".")))
        raise PolicyUnavailable(f"policy spec {what!r} needs {module}, which cannot be imported here: {e}{hint}",
                                unknown=unknown) from None


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


def unknown_scripted(name: str, game: str, registry: Any) -> str:
    """The words for an unknown scripted policy ``name``: the name it most likely
    misspells, else the game's scripted policies."""
    close = closest(name, list(registry))
    hint = f" (did you mean 'scripted:{close}'?)" if close else f"; available: {', '.join(registry)}"
    return f"unknown scripted policy {name!r} for game {game!r}{hint}"


def scripted_registry(game: str) -> Any:
    """The scripted policy names of ``game`` (None when its ``make`` keeps no list);
    raises :class:`PolicyUnavailable` for a game without scripted policies."""
    return _scripted_make(game, f"scripted:* ({game})")[1]


def _scripted_make(game: str, what: str) -> tuple[Callable, Any]:
    """``(make, POLICIES)`` of the module the game's spec names as its scripted policies
    (:mod:`negotiation_env.core.registry`)."""
    spec = registry.find(game)
    if spec is None or not spec.has("scripted"):
        raise PolicyUnavailable(f"policy spec {what!r}: the {game} game has no scripted policies")
    mod = _import(spec.scripted, what, None)
    if not hasattr(mod, "make"):
        raise PolicyUnavailable(f"policy spec {what!r}: {spec.scripted}, the {game} game's scripted policies, "
                                "has no make()")
    return mod.make, getattr(mod, "POLICIES", None)


@dataclass(frozen=True)
class PolicyFactory:
    """``seed -> policy`` for one spec: calls ``target(*args, **kwargs)`` (plus ``seed``
    where ``target`` takes one). ``given`` names the parameters the spec itself fills
    (the scripted name, the model path, the model and URL of an ``openai:`` spec), so that
    an option of that name is a mistake; ``option_target`` is the callable whose
    signature says which options are valid (the preset's class when a scripted ``make``
    forwards ``**options`` to it). :mod:`.preflight` reads them; the pool just calls."""

    spec: str
    kind: str
    target: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    given: tuple[str, ...] = ()
    option_target: Callable[..., Any] | None = None

    def __call__(self, seed: int | None) -> Any:
        return self.target(*self.args, **_with_seed(self.target, self.kwargs, seed))


def _forwards_options(factory: Callable) -> bool:
    try:
        return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return False


def resolve_factory(entry: PolicyEntry, game: str) -> PolicyFactory:
    """A :class:`PolicyFactory` (``seed -> policy``) for ``entry`` in ``game``; raises
    :class:`PolicyUnavailable` (naming the spec) if its back end cannot be imported or the
    name is unknown. Nothing heavy is loaded until the factory is called."""
    kind, _, rest = entry.spec.partition(":")
    opts = dict(entry.options)
    if kind == "scripted":
        make, registry = _scripted_make(game, entry.spec)
        if registry is not None and rest not in registry:
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: {unknown_scripted(rest, game, registry)}")
        if _accepts(make, "output"):  # scripted policies answer in text, like a model
            opts.setdefault("output", "text")
        first = next(iter(inspect.signature(make).parameters), "name")
        target = registry[rest] if registry is not None and _forwards_options(make) else make
        return PolicyFactory(entry.spec, kind, make, (rest,), opts, (first,), target)
    if kind == "python":
        mod_name, attr = rest.split(":")
        mod = _import(mod_name, entry.spec, None)
        factory = getattr(mod, attr, None)
        if not callable(factory):
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: {mod_name} has no callable {attr!r}")
        return PolicyFactory(entry.spec, kind, factory, (), opts, (), factory)
    if kind == "hf":
        mod = _import("baselines.llm.hf", entry.spec, "llm")
        cls = getattr(mod, "HFPolicy", None)
        if cls is None:
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: baselines.llm.hf has no HFPolicy")
        return PolicyFactory(entry.spec, kind, cls, (rest,), opts, ("model",), cls)
    if kind == "openai":
        model, url = split_openai(rest)
        mod = _import("baselines.llm.api", entry.spec, "api")
        cls = getattr(mod, "APIPolicy", None)
        if cls is None:
            raise PolicyUnavailable(f"policy spec {entry.spec!r}: baselines.llm.api has no APIPolicy")
        kw = {"model": model, **({"base_url": url} if url else {}), **opts}
        return PolicyFactory(entry.spec, kind, cls, (), kw, ("model", "base_url") if url else ("model",), cls)
    raise PolicyUnavailable(f"unknown policy kind {kind!r}")  # pragma: no cover - validated earlier


def hf_policy_class() -> type:
    """``baselines.llm.hf.HFPolicy``, looked up by name (the ``llm`` extra): what an online
    trainer wraps around the model it trains (``HFPolicy.from_model``)."""
    mod = _import("baselines.llm.hf", "hf", "llm")
    cls = getattr(mod, "HFPolicy", None)
    if cls is None:
        raise PolicyUnavailable("baselines.llm.hf has no HFPolicy")
    return cls


class PolicyPool:
    """Builds the policies of each game; keeps model-backed ones for reuse in this process."""

    def __init__(self) -> None:
        self._factories: dict[tuple[str, str], Callable[[int | None], Any]] = {}
        self._heavy: dict[tuple[str, str], Any] = {}

    @staticmethod
    def key(entry: PolicyEntry, game: str) -> tuple[str, str]:
        """What makes two policies the same one here: the game and the whole entry."""
        return (game, entry.model_dump_json())

    def holds(self, entry: PolicyEntry, game: str) -> bool:
        """Whether a model-backed policy for ``entry`` in ``game`` is already built."""
        return self.key(entry, game) in self._heavy

    def discard(self, entry: PolicyEntry, game: str) -> None:
        """Forget the model-backed policy of ``entry`` in ``game`` (its memory goes with
        the last reference)."""
        self._heavy.pop(self.key(entry, game), None)

    def get(self, entry: PolicyEntry, game: str, seed: int | None, *, reset: bool = True) -> Any:
        """The policy of ``entry`` for a game with ``seed``: a fresh one for scripted and
        python specs; the kept one for model-backed specs, built on first use and reset
        with ``seed`` (``reset=False``: built and kept, not reset; the runner's preflight)."""
        key = self.key(entry, game)
        if key not in self._factories:
            self._factories[key] = resolve_factory(entry, game)
        if entry.kind not in HEAVY_KINDS:
            return self._factories[key](seed)
        if key not in self._heavy:
            self._heavy[key] = self._factories[key](seed)
        policy = self._heavy[key]
        if reset and callable(getattr(policy, "reset", None)):
            policy.reset(**({"seed": seed} if _accepts(policy.reset, "seed") else {}))
        return policy
