"""Checking every policy of a plan before the first game: build each one, probe each model.

A run whose model never answers must not end "complete" with every turn a fallback, and a
typo must not error every game one by one. :func:`preflight` takes each distinct policy of
the plan (one per game and policy entry: the unit the pool builds) and, before any game:

1. **checks** it without building it (:func:`check_specs`, cheap, also what ``run`` does
   with ``preflight=False``): the back end imports (a missing extra names its
   ``pip install 'negotiation_env[...]'``), a ``scripted:`` name exists for the game, every
   option is a parameter of the policy (an unknown one is named with a did-you-mean:
   ``temprature`` -> ``temperature``), an ``hf:`` path that points at the file system is a
   folder with a ``config.json``;
2. **builds** it once (a model-backed policy into the pool the run will use, so a
   transformers model is loaded once; or into a throwaway pool released before the games
   when the games run in other processes);
3. **probes** each built policy that has a ``probe()`` method (``probe=True``): one
   short generation for ``hf:`` (:meth:`baselines.llm.hf.HFPolicy.probe`), one request of a
   token for ``openai:`` with a short connect timeout and no retry loop
   (:meth:`baselines.llm.api.APIClient.probe`), so a dead server is reported in seconds.

Every problem of every policy is collected and raised together as one
:class:`PreflightError` (one line each, naming the spec), before any game is played and
before the output folder is touched. The CLI exits with :attr:`PreflightError.exit_code`:
2 when the config names something unknown (a scripted name, an option, a module or
factory of a ``python:`` spec: the file is wrong), else :data:`EXIT_PREFLIGHT` (3: a
missing extra, a model that cannot be loaded or does not answer).
API keys never appear in a message: each is scrubbed from every line.
"""

from __future__ import annotations

import gc
import inspect
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import exitcodes
from ..core.config import closest
from ..traces.schema import redact
from .config import PolicyEntry
from .playing import RunnerError
from .plan import Plan
from .policies import HEAVY_KINDS, PolicyFactory, PolicyPool, PolicyUnavailable, resolve_factory

__all__ = ["preflight", "check_specs", "PreflightError", "PreflightReport", "PolicyCheck", "EXIT_PREFLIGHT"]

#: the exit status of ``negotiation-env run`` when a model cannot be built or loaded or does not answer
EXIT_PREFLIGHT = exitcodes.MODEL

_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")


class PreflightError(RunnerError):
    """One or more policies of the plan cannot be built, or their model did not answer the
    probe; no game was played. ``report`` holds every check; the message lists each
    problem on its own line."""

    def __init__(self, message: str, report: "PreflightReport") -> None:
        super().__init__(message)
        self.report = report

    @property
    def exit_code(self) -> int:
        """2 when a problem is the config's (it names something unknown), else 3."""
        return self.report.exit_code


@dataclass
class PolicyCheck:
    """What preflight found for one policy (a policy entry in one game)."""

    game: str
    entry: PolicyEntry
    seed: int | None = None
    built: bool = False
    build_seconds: float | None = None
    probe: dict[str, Any] | None = None  # what the policy's probe() returned
    note: str | None = None
    #: where the run plays more games at once than the policy sends requests at once: what
    #: caps the requests in flight, and the option that raises it
    capped: str | None = None
    problems: list[str] = field(default_factory=list)
    #: whether a problem is the config's: it names an unknown scripted policy, option, module or factory
    unknown_name: bool = False

    @property
    def spec(self) -> str:
        return self.entry.spec

    @property
    def where(self) -> str:
        """The spec, with its label when it has one, and the game."""
        label = f"label {self.entry.label}, " if self.entry.label else ""
        return f"{self.entry.spec} ({label}game {self.game})"

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class PreflightReport:
    checks: list[PolicyCheck]
    probe: bool
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def problems(self) -> list[str]:
        """One line per problem, each naming its spec."""
        return [f"{c.where}: {p}" for c in self.checks for p in c.problems]

    @property
    def exit_code(self) -> int:
        """The CLI's exit code for these problems: 2 (usage) when the config names
        something unknown, else 3 (a model or back end that cannot be used)."""
        return exitcodes.USAGE if any(c.unknown_name for c in self.checks if not c.ok) else EXIT_PREFLIGHT

    @property
    def probed(self) -> list[PolicyCheck]:
        return [c for c in self.checks if c.probe is not None]

    NOT_LOADED = "not loaded: models are loaded and probed once the problems above are fixed"

    def message(self) -> str:
        bad = sum(1 for c in self.checks if not c.ok)
        head = (f"preflight: {bad} of {len(self.checks)} {'policy' if len(self.checks) == 1 else 'policies'} "
                "cannot be used; no game was played:")
        tail = [f"  {c.where}: {c.note}" for c in self.checks if c.ok and c.note == self.NOT_LOADED]
        return "\n".join([head, *(f"  {line}" for line in self.problems), *tail])

    def lines(self) -> list[str]:
        """A line per policy: built, probed (with its time) or why not."""
        out = []
        for c in self.checks:
            if not c.ok:
                state = "; ".join(c.problems)
            elif c.probe is not None:
                state = f"answered the probe in {c.probe.get('seconds', 0):.2f} s"
                if c.probe.get("note"):
                    state += f" ({c.probe['note']})"
            elif c.built:
                state = "built" + (f" ({c.note})" if c.note else "")
            else:
                state = "checked" + (f" ({c.note})" if c.note else "")
            if c.ok and c.capped:
                state += f"; {c.capped}"
            out.append(f"{c.where}: {state}")
        return out


# --------------------------------------------------------------------------- the checks


def _distinct(plan: Plan) -> list[PolicyCheck]:
    """One check per (game, policy entry) of the plan, in plan order, with the seed of the
    first game that seats it (the pool builds with it; every game resets it anyway)."""
    seen: dict[tuple[str, str], PolicyCheck] = {}
    for s in plan.first_games():  # a cell's first game seats every policy of its lineup
        for entry, seed in zip(s.policies, s.policy_seeds):
            k = PolicyPool.key(entry, s.game)
            if k not in seen:
                seen[k] = PolicyCheck(game=s.game, entry=entry, seed=seed)
    return list(seen.values())


def _secrets(checks: list[PolicyCheck]) -> list[str]:
    """The API keys these policies read from the environment (to scrub from messages)."""
    out = []
    for c in checks:
        if c.entry.kind == "openai":
            var = c.entry.options.get("api_key_env") or "OPENAI_API_KEY"
            key = os.environ.get(var) if isinstance(var, str) else None
            if key and len(key) >= 4:
                out.append(key)
    return out


def _scrub(text: str, secrets: list[str]) -> str:
    for s in secrets:
        text = text.replace(s, "[REDACTED]")
    return redact(text)


def _unprefix(message: str, spec: str) -> str:
    """A :class:`PolicyUnavailable` message without its leading ``policy spec '...':``
    (the report names the spec already)."""
    for prefix in (f"policy spec {spec!r}: ", f"policy spec {spec!r} "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


def _option_names(factory: PolicyFactory) -> list[str] | None:
    """The options ``factory`` takes (None when its signature does not say: ``**kwargs``)."""
    target = factory.option_target or factory.target
    named = getattr(target, "option_names", None)
    if callable(named):
        return [n for n in named() if n not in factory.given]
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in factory.given
            and p.name != "self"]


def _did_you_mean(name: str, names: list[str]) -> str:
    close = closest(name, names, cutoff=0.6)
    return f" (did you mean {close!r}?)" if close else ""


def _option_problems(entry: PolicyEntry, factory: PolicyFactory) -> list[str]:
    out = []
    for k in entry.options:
        if k in factory.given:
            out.append(f"option {k!r} is set by the spec itself; leave it out of the options")
    names = _option_names(factory)
    if names is None:
        return out
    for k in entry.options:
        if k not in names and k not in factory.given:
            out.append(f"unknown option {k!r}{_did_you_mean(k, names)}; "
                       f"options: {', '.join(sorted(names)) or '(none)'}")
    return out


def _looks_like_path(name: str) -> bool:
    return (os.path.isabs(name) or name.startswith(("./", "../", "~", ".\\", "..\\")) or name in (".", "..")
            or not _HUB_ID.match(name))


def _model_path_problem(name: str) -> str | None:
    """Why ``hf:NAME`` cannot be a model folder, if it names a place on disk; None for a
    folder with a ``config.json`` or a hub id (``org/model``, loaded or downloaded when built)."""
    path = Path(os.path.expanduser(name))
    if path.exists():
        if not path.is_dir():
            return f"model path {name!r} is a file; give the model's folder (with config.json)"
        if not (path / "config.json").is_file():
            return f"model folder {name!r} has no config.json (not a transformers model folder)"
        if not os.access(path / "config.json", os.R_OK):
            return f"model folder {name!r}: config.json is not readable"
        return None
    if _looks_like_path(name):
        return f"model folder {name!r} does not exist"
    return None  # a hub id


def check_specs(plan: Plan, checks: list[PolicyCheck] | None = None) -> list[PolicyCheck]:
    """The checks that build nothing (imports, scripted names, options, model paths) for
    every distinct policy of ``plan``; raises :class:`PreflightError` listing every
    problem. Returns the checks (problem-free)."""
    checks = _distinct(plan) if checks is None else checks
    for c in checks:
        _check_static(c)
    if not all(c.ok for c in checks):
        report = PreflightReport(checks=checks, probe=False)
        raise PreflightError(_scrub(report.message(), _secrets(checks)), report)
    return checks


def _check_static(c: PolicyCheck) -> None:
    """Add to ``c`` the problems found without building anything, marking those that are
    the config's (:attr:`PolicyCheck.unknown_name`)."""
    try:
        factory = resolve_factory(c.entry, c.game)
    except PolicyUnavailable as e:
        c.problems.append(_unprefix(str(e), c.spec))
        c.unknown_name = c.unknown_name or e.unknown
        return
    options = _option_problems(c.entry, factory)
    c.problems.extend(options)
    c.unknown_name = c.unknown_name or bool(options)
    if c.entry.kind == "hf":
        problem = _model_path_problem(c.spec.partition(":")[2])
        if problem:
            c.problems.append(problem)


# --------------------------------------------------------------------------- building and probing


def _describe(e: BaseException, entry: PolicyEntry, factory: PolicyFactory | None) -> str:
    msg = f"{type(e).__name__}: {e}" if not isinstance(e, (ValueError, OSError)) else str(e)
    m = re.search(r"unexpected keyword argument '([^']+)'", str(e))
    if m:  # a factory taking **kwargs passed an option on to something that does not take it
        names = (_option_names(factory) if factory is not None else None) or []
        return f"unknown option {m.group(1)!r}{_did_you_mean(m.group(1), names)} ({msg})"
    return f"cannot build it: {msg}"


def _release(policies: list[Any]) -> None:
    """Free what the throwaway pool held (models, connections) before the games start."""
    for p in policies:
        client = getattr(p, "client", None)
        close = getattr(client, "close", None)
        if callable(close):
            try:
                close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
    policies.clear()
    gc.collect()
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        torch.cuda.empty_cache()


def _capped(policy: Any, concurrency: int) -> str | None:
    """What caps ``policy``'s requests in flight below ``concurrency``: its client's
    ``max_concurrency`` (None where it has none, or it is not below)."""
    limit = getattr(getattr(policy, "client", None), "max_concurrency", None)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit >= concurrency:
        return None
    return (f"at most {limit} of its requests in flight (its max_concurrency) under --concurrency {concurrency}: "
            f"set options.max_concurrency = {concurrency} to use them all")


def preflight(plan: Plan, *, probe: bool = True, pool: PolicyPool | None = None,
              observer: Any = None, on_rate_limit: str = "wait", concurrency: int = 1) -> PreflightReport:
    """Check, build and (``probe=True``) probe every distinct policy of ``plan`` before
    any game; return the :class:`PreflightReport` or raise :class:`PreflightError`
    listing every problem (see the module docstring).

    ``pool``: where model-backed policies go once built: the pool the games will use
    (the run's own process, so nothing is loaded twice); None builds them into a
    throwaway pool released before returning (the games run in other processes, or
    nothing runs: ``--plan``). On failure the model-backed policies built here are
    dropped from ``pool`` again. Scripted and python policies are built once and
    dropped (the games build their own). ``observer``: its ``on_preflight(report)`` is
    called when every check passed, if it has one. ``on_rate_limit``: a probe answered
    with HTTP 429 (the probe's ``"rate_limited"``) is reported on its policy's line and
    plays on (``"wait"``: each call then waits as the server asks, within its call
    budget) or is a problem (``"stop"``). ``concurrency``: the games each process plays at
    once (``--concurrency``); a built policy whose client sends fewer requests at once
    (its ``max_concurrency``) gets a line saying so (:attr:`PolicyCheck.capped`), since it
    caps the requests in flight below what the run asked for."""
    t0 = time.perf_counter()
    checks = _distinct(plan)
    secrets = _secrets(checks)
    report = PreflightReport(checks=checks, probe=probe)
    for c in checks:
        _check_static(c)
    static_ok = report.ok
    target = pool if pool is not None else PolicyPool()
    added: list[PolicyCheck] = []
    built: list[tuple[PolicyCheck, Any]] = []
    for c in checks:
        # a model is loaded only when nothing is wrong yet; cheap policies are built anyway
        # so that every problem they have is reported in one go
        if not c.ok or (c.entry.kind == "hf" and not static_ok):
            continue
        factory = None
        t1 = time.perf_counter()
        try:
            factory = resolve_factory(c.entry, c.game)
            if c.entry.kind in HEAVY_KINDS:
                fresh = not target.holds(c.entry, c.game)
                policy = target.get(c.entry, c.game, c.seed, reset=False)  # each game resets it
                if fresh:
                    added.append(c)
            else:
                policy = factory(c.seed)
        except Exception as e:  # noqa: BLE001 - a constructor may raise anything
            c.problems.append(_describe(e, c.entry, factory))
            c.unknown_name = c.unknown_name or c.problems[-1].startswith("unknown option ")
            continue
        c.built, c.build_seconds = True, round(time.perf_counter() - t1, 3)
        c.capped = _capped(policy, concurrency)
        built.append((c, policy))
    if probe:
        for c, policy in built:
            fn = getattr(policy, "probe", None)
            if not callable(fn):
                if c.entry.kind in HEAVY_KINDS:
                    c.note = "no probe: the policy has no probe() method"
                continue
            try:
                c.probe = dict(fn() or {})
                c.probe.setdefault("seconds", 0.0)
                if c.probe.get("rate_limited") and on_rate_limit == "stop":
                    c.problems.append(f"the server is rate limited: {c.probe.get('note', 'HTTP 429')} "
                                      "(--on-rate-limit stop; with --on-rate-limit wait the run plays on and each "
                                      "call waits within its call budget)")
            except Exception as e:  # noqa: BLE001 - ProbeFailed, or whatever the back end raised
                c.problems.append(f"the model did not answer the probe: {e}")
    policy = fn = None  # no reference left here to what _release frees
    if not static_ok:
        for c in checks:
            if c.ok and c.entry.kind == "hf":
                c.note = report.NOT_LOADED
    report.seconds = time.perf_counter() - t0
    for c in checks:  # the report is printed: no key in it
        c.problems = [_scrub(x, secrets) for x in c.problems]
    if pool is None or not report.ok:
        # free the models this call loaded: the run stops here, or its games build their own
        for c in added:
            target.discard(c.entry, c.game)
        mine = [p for c, p in built if any(c is a for a in added)]
        built.clear()
        _release(mine)
    built.clear()
    if not report.ok:
        raise PreflightError(report.message(), report)
    on = getattr(observer, "on_preflight", None)
    if callable(on):
        on(report)
    return report
