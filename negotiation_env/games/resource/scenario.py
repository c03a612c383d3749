"""Scenarios of the resource game: the shared pool, the budget and each agent's private projects.

A scenario is data (a JSON file), validated on load. Every error names the offending
field with a JSON-path-like location, e.g. ``projects.agent_a.project_b.requires.r9``.

Size limits, checked on load, keep every scenario within what the solver handles in a
bounded memory and time (the integer programme has one variable per project and one per
resource and agent; enumeration has its own bound, see
:data:`~negotiation_env.games.resource.solver.ENUMERATION_CELLS`): at most
:data:`MAX_RESOURCES` resources and :data:`MAX_PROJECTS` projects per agent, supplies
and units per run at most :data:`MAX_UNITS`, budget, costs and rewards at most
:data:`MAX_AMOUNT`. A scenario past one is refused with :class:`ScenarioTooLarge`, naming
the limit; the shipped ones use 3 resources, 3 projects, supply 10 and budget 18.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...core.datafiles import read_json, shipped_ids
from ...core.encodable import unencodable_problem
from ...core.visible import shown

__all__ = ["Resource", "Project", "Scenario", "ScenarioError", "ScenarioTooLarge", "load_scenario", "list_scenarios",
           "UnplayableScenario", "check_playable", "MAX_RESOURCES", "MAX_PROJECTS", "MAX_UNITS", "MAX_AMOUNT"]

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{0,63}")  # used with fullmatch: "$" would admit a trailing newline
AGENTS = ("agent_a", "agent_b")

MAX_RESOURCES = 32
MAX_PROJECTS = 64
MAX_UNITS = 1_000_000
MAX_AMOUNT = 1e12


class ScenarioError(ValueError):
    """A scenario file or dict is malformed; the message names the field."""


class ScenarioTooLarge(ScenarioError):
    """A scenario past a size limit (on load), or one the solver cannot solve within its
    memory or time bound; the message names the limit."""


class UnplayableScenario(ScenarioError):
    """A well-formed scenario in which no project can ever run: its joint optimum M is 0."""


@dataclass(frozen=True)
class Resource:
    id: str
    supply: int
    cost: float


@dataclass(frozen=True)
class Project:
    name: str
    requires: tuple[tuple[str, int], ...]  # (resource id, units per run), in file order, all > 0
    reward: float

    def need(self, resource: str) -> int:
        for rid, units in self.requires:
            if rid == resource:
                return units
        return 0


@dataclass(frozen=True)
class Scenario:
    name: str
    resources: tuple[Resource, ...]
    budget: float
    max_types: int
    projects: tuple[tuple[str, tuple[Project, ...]], ...]  # (agent id, projects in presented order)

    # -- derived views ---------------------------------------------------------
    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(a for a, _ in self.projects)

    @property
    def resource_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.resources)

    def resource(self, rid: str) -> Resource:
        for r in self.resources:
            if r.id == rid:
                return r
        raise KeyError(rid)

    def projects_of(self, agent: str) -> tuple[Project, ...]:
        for a, ps in self.projects:
            if a == agent:
                return ps
        raise KeyError(agent)

    def requirement_matrix(self, agent: str) -> list[list[int]]:
        """Units of each resource (columns, in resource order) per run of each project (rows)."""
        return [[p.need(rid) for rid in self.resource_ids] for p in self.projects_of(agent)]

    # -- (de)serialisation -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "resources": {r.id: {"supply": r.supply, "cost": r.cost} for r in self.resources},
            "budget": self.budget,
            "max_types": self.max_types,
            "projects": {
                agent: {
                    p.name: {"requires": dict(p.requires), "reward": p.reward} for p in ps
                }
                for agent, ps in self.projects
            },
        }

    @classmethod
    def from_dict(cls, d: Any, *, source: str = "scenario") -> "Scenario":
        _check_text(d, source)
        return _parse(d, source)


def _fail(source: str, where: str, msg: str) -> ScenarioError:
    return ScenarioError(f"{source}: field '{where}': {msg}")


def _check_text(d: Any, source: str) -> None:
    """Every string of the scenario (keys included) is text: a surrogate code point (no
    character; :mod:`negotiation_env.core.encodable`) would reach prompts and traces."""
    found = unencodable_problem(d)
    if found is not None:
        raise _fail(source, *found)


def _too_large(source: str, where: str, msg: str) -> ScenarioTooLarge:
    return ScenarioTooLarge(f"{source}: field '{where}': {msg} (the size limit of a scenario)")


def _number(v: Any) -> bool:
    """A finite number a float can hold (math.isfinite raises OverflowError on an int past that)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return math.isfinite(v) if isinstance(v, float) else abs(v) <= sys.float_info.max


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _parse(d: Any, source: str) -> Scenario:
    if not isinstance(d, Mapping):
        raise ScenarioError(f"{source}: a scenario must be a JSON object, got {type(d).__name__}")
    allowed = {"name", "resources", "budget", "max_types", "projects", "description", "meta"}
    for key in d:
        if key not in allowed:
            raise _fail(source, str(key), f"unknown field; allowed fields: {', '.join(sorted(allowed))}")
    for key in ("name", "resources", "budget", "max_types", "projects"):
        if key not in d:
            raise _fail(source, key, "missing required field")

    name = d["name"]
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, "name", "must be a non-empty string")

    res = d["resources"]
    if not isinstance(res, Mapping) or not res:
        raise _fail(source, "resources", "must be a non-empty object of resource id -> {supply, cost}")
    if len(res) > MAX_RESOURCES:
        raise _too_large(source, "resources", f"has {len(res)} resources; at most {MAX_RESOURCES}")
    resources = []
    for rid, spec in res.items():
        where = f"resources.{rid}"
        if not isinstance(rid, str) or not _ID.fullmatch(rid):
            raise _fail(source, where, "resource id must start with a letter and use letters, digits, '_' or '-'")
        if not isinstance(spec, Mapping) or set(spec) != {"supply", "cost"}:
            raise _fail(source, where, "must be an object with exactly the keys 'supply' and 'cost'")
        if not _int(spec["supply"]) or spec["supply"] < 0:
            raise _fail(source, where + ".supply", f"must be a non-negative integer, got {shown(spec['supply'])}")
        if spec["supply"] > MAX_UNITS:
            raise _too_large(source, where + ".supply", f"is {spec['supply']}; at most {MAX_UNITS}")
        if not _number(spec["cost"]) or spec["cost"] <= 0:
            raise _fail(source, where + ".cost", f"must be a positive finite number, got {shown(spec['cost'])}")
        if spec["cost"] > MAX_AMOUNT:
            raise _too_large(source, where + ".cost", f"is {shown(spec['cost'])}; at most {MAX_AMOUNT:g}")
        resources.append(Resource(rid, int(spec["supply"]), float(spec["cost"])))
    rids = {r.id for r in resources}

    budget = d["budget"]
    if not _number(budget) or budget < 0:
        raise _fail(source, "budget", f"must be a non-negative finite number, got {shown(budget)}")
    if budget > MAX_AMOUNT:
        raise _too_large(source, "budget", f"is {shown(budget)}; at most {MAX_AMOUNT:g}")
    max_types = d["max_types"]
    if not _int(max_types) or not 1 <= max_types <= len(resources):
        raise _fail(source, "max_types", f"must be an integer between 1 and {len(resources)}, got {shown(max_types)}")

    projs = d["projects"]
    if not isinstance(projs, Mapping) or list(projs) != list(AGENTS):
        raise _fail(source, "projects", f"must be an object with exactly the agents {list(AGENTS)} in that order")
    projects = []
    for agent, plist in projs.items():
        if not isinstance(plist, Mapping) or not plist:
            raise _fail(source, f"projects.{agent}", "must be a non-empty object of project name -> {requires, reward}")
        if len(plist) > MAX_PROJECTS:
            raise _too_large(source, f"projects.{agent}", f"has {len(plist)} projects; at most {MAX_PROJECTS}")
        parsed = []
        for pname, spec in plist.items():
            where = f"projects.{agent}.{pname}"
            if not isinstance(pname, str) or not _ID.fullmatch(pname):
                raise _fail(source, where, "project name must start with a letter and use letters, digits, '_' or '-'")
            if not isinstance(spec, Mapping) or set(spec) != {"requires", "reward"}:
                raise _fail(source, where, "must be an object with exactly the keys 'requires' and 'reward'")
            req = spec["requires"]
            if not isinstance(req, Mapping) or not req:
                raise _fail(source, where + ".requires", "must be a non-empty object of resource id -> units per run")
            reqs = []
            for rid, units in req.items():
                if rid not in rids:
                    raise _fail(source, f"{where}.requires.{rid}", f"unknown resource; known: {', '.join(sorted(rids))}")
                if not _int(units) or units <= 0:
                    raise _fail(source, f"{where}.requires.{rid}", f"units per run must be a positive integer, got {shown(units)}")
                if units > MAX_UNITS:
                    raise _too_large(source, f"{where}.requires.{rid}", f"is {units} units per run; at most {MAX_UNITS}")
                reqs.append((rid, int(units)))
            if not _number(spec["reward"]) or spec["reward"] <= 0:
                raise _fail(source, where + ".reward", f"must be a positive finite number, got {shown(spec['reward'])}")
            if spec["reward"] > MAX_AMOUNT:
                raise _too_large(source, where + ".reward", f"is {shown(spec['reward'])}; at most {MAX_AMOUNT:g}")
            reward = spec["reward"]
            parsed.append(Project(pname, tuple(reqs), int(reward) if float(reward).is_integer() else float(reward)))
        projects.append((agent, tuple(parsed)))
    return Scenario(
        name=name,
        resources=tuple(resources),
        budget=int(budget) if float(budget).is_integer() else float(budget),
        max_types=int(max_types),
        projects=tuple(projects),
    )


#: Ids starting with this name a legacy scenario (``scenarios_legacy/``): scenarios that
#: do not meet the pool's constraints (M/C outside the paper's bands, unequal optimal
#: splits, or found by random search), kept for the tests that need their structure and
#: the documented figures measured on them. :func:`load_scenario` loads them by id;
#: :func:`list_scenarios`, the CLI's list and the default rotation pool never show them.
LEGACY_PREFIX = "legacy_"


def _runnable_once(sc: Scenario, project: Project) -> bool:
    """One run of ``project`` fits the supply, the budget and the type limit: the
    solver's individual constraints for the smallest useful decision."""
    supply = {r.id: r.supply for r in sc.resources}
    cost = {r.id: r.cost for r in sc.resources}
    return (len(project.requires) <= sc.max_types
            and all(units <= supply[rid] for rid, units in project.requires)
            and sum(cost[rid] * units for rid, units in project.requires) <= sc.budget + 1e-9)


def check_playable(sc: Scenario, where: str = "scenario") -> Scenario:
    """``sc`` unchanged when at least one project can run once; else a
    :class:`ScenarioError` naming ``where`` and the scenario. With no project runnable
    the joint optimum M is 0 and every round would score efficiency 1.0 and optimal
    whatever the agents do (:class:`UnplayableScenario`), so such a scenario is never played. Rewards are positive,
    so M > 0 exactly when some project runs once within one agent's budget, the supply
    and the type limit (the solver's constraints)."""
    if any(_runnable_once(sc, p) for _, ps in sc.projects for p in ps):
        return sc
    if sc.budget <= 0:
        why = f"the budget is {shown(sc.budget)}"
    elif all(r.supply == 0 for r in sc.resources):
        why = "every supply is 0"
    else:
        why = (f"every project needs more than the supply, the budget ({shown(sc.budget)}) or the type limit "
               f"(max_types {sc.max_types}) allows for one run")
    raise UnplayableScenario(f"{where}: scenario {sc.name!r}: no project can ever run ({why}), so its joint optimum M is "
                        "0 and every round would score efficiency 1.0; give a supply, budget and projects that "
                        "let at least one project run")


def list_scenarios() -> list[str]:
    """Ids of the scenarios shipped with the package (file stems); legacy ones excluded."""
    return shipped_ids("negotiation_env.games.resource")


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load a shipped scenario by id (see :func:`list_scenarios`; a ``legacy_`` id loads
    a legacy scenario, see :data:`LEGACY_PREFIX`) or any JSON file by path.

    A shipped scenario is read once a process and the same (frozen) :class:`Scenario`
    is returned for its id every time after: every env a runner builds for a game loads
    its scenario by id, and the per-scenario caches (the solver's, the envs') then find
    it. A path is read on every call."""
    if isinstance(name_or_path, str):
        p = Path(name_or_path)
        if p.suffix != ".json" and not p.exists():  # read_json's test for "a shipped id"
            return _load_shipped(name_or_path)
    data, source = read_json(name_or_path, "negotiation_env.games.resource", ScenarioError)
    return check_playable(Scenario.from_dict(data, source=source), source)


@functools.lru_cache(maxsize=256)
def _load_shipped(name: str) -> Scenario:
    """A shipped scenario (package data, never rewritten while the process runs); an
    unknown id raises ScenarioError each time (errors are not cached)."""
    folder = "scenarios_legacy" if name.startswith(LEGACY_PREFIX) else "scenarios"
    data, source = read_json(name, "negotiation_env.games.resource", ScenarioError, folder=folder)
    return check_playable(Scenario.from_dict(data, source=source), source)
