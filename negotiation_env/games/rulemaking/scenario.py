"""Scenarios of the rulemaking game (seed 001 §3): the authority, the stakeholders, their
private briefs, the bundled issues and the per-run parameter distribution.

A scenario is data (a JSON file), validated on load. Every error names the offending
field with a JSON-path-like location, e.g. ``parties.apex_financial.brief.objectives[2].issue``.

Three scenarios ship with the package: ``E1`` (Fragmented: proprietary-trading rules,
divided industry), ``E2`` (Unified: the same case, industry presents a united front) and
``E3`` (Grid: emergency load-shedding priority).
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...core.datafiles import read_json, shipped_ids
from ...core.encodable import unencodable_problem
from ...core.visible import is_blank, shown

__all__ = [
    "Issue",
    "Objective",
    "Brief",
    "Party",
    "Parameters",
    "RulemakingScenario",
    "ScenarioError",
    "ROLES",
    "load_scenario",
    "list_scenarios",
    "ATTENTION_MODES",
    "attention_bands",
    "attention_value",
]

_ID = re.compile(r"[a-z][a-z0-9_]{0,63}")  # issue and party ids; used with fullmatch
_SCENARIO_ID = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{0,63}")
ROLES = ("authority", "stakeholder")
N_PARTIES = 5
N_ISSUES = (4, 6)
N_OBJECTIVES = (3, 5)
N_RED_LINES = (1, 3)
WEIGHT_TOL = 1e-9
MAX_ATTENTION_LEVELS = 32


#: how a run's external attention is drawn and shown: ``"scale"`` (a value on [0, 1] in
#: two decimals, within the band of the drawn level, shown as "high (0.62)") or
#: ``"levels"`` (the level's name only)
ATTENTION_MODES = ("scale", "levels")


def attention_bands(n_levels: int) -> list[tuple[int, int]]:
    """The band of each of ``n_levels`` attention levels, in hundredths: the levels split
    [0, 1] into equal parts in order, each band the two-decimal values inside its part
    (4 levels: 0.00-0.24, 0.25-0.49, 0.50-0.74, 0.75-1.00)."""
    bands = []
    for i in range(n_levels):
        lo = -(-100 * i // n_levels)  # ceil(100 i / n)
        hi = 100 if i == n_levels - 1 else -(-100 * (i + 1) // n_levels) - 1
        bands.append((lo, hi))
    return bands


def attention_value(index: int, n_levels: int, frac: float) -> float:
    """The attention value of level ``index`` (of ``n_levels``) at relative position
    ``frac`` in [0, 1] of its band: each two-decimal value of the band equally likely
    when ``frac`` is uniform."""
    lo, hi = attention_bands(n_levels)[index]
    n = hi - lo + 1
    return (lo + min(int(frac * n), n - 1)) / 100


class ScenarioError(ValueError):
    """A scenario file or dict is malformed; the message names the field."""


@dataclass(frozen=True)
class Issue:
    id: str
    title: str
    description: str


@dataclass(frozen=True)
class Objective:
    issue: str
    priority: int  # 1 = most important
    text: str


@dataclass(frozen=True)
class Brief:
    objectives: tuple[Objective, ...]  # sorted by priority (1 first)
    red_lines: tuple[str, ...]


@dataclass(frozen=True)
class Party:
    id: str
    name: str
    role: str  # "authority" or "stakeholder"
    description: str
    brief: Brief


@dataclass(frozen=True)
class Parameters:
    attention_levels: tuple[str, ...]
    attention_weights: tuple[float, ...]
    salience_low: float
    salience_high: float
    coordination_p: float


@dataclass(frozen=True)
class RulemakingScenario:
    id: str
    name: str
    title: str
    context: str
    authority: str  # party id of the convening authority (always parties[0])
    issues: tuple[Issue, ...]
    parties: tuple[Party, ...]  # in turn order, the authority first
    parameters: Parameters

    # -- derived views ---------------------------------------------------------
    @property
    def party_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.parties)

    @property
    def stakeholders(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.parties if p.id != self.authority)

    @property
    def issue_ids(self) -> tuple[str, ...]:
        return tuple(i.id for i in self.issues)

    def party(self, pid: str) -> Party:
        for p in self.parties:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def issue(self, iid: str) -> Issue:
        for i in self.issues:
            if i.id == iid:
                return i
        raise KeyError(iid)

    # -- per-run parameters ----------------------------------------------------
    def draw_parameters(self, rng, *, attention: str = "scale") -> dict[str, Any]:
        """Draw one run's parameters using only ``rng`` (a ``numpy.random.Generator``).

        Draw order: the external attention (one ``rng.random()``), then each party's
        salience in party order (one ``rng.uniform(low, high)`` each, rounded to two
        decimals and kept inside [low, high]), then opposition coordination (one
        ``rng.random() < p``).

        Attention: the one number ``u`` picks a level by the scenario's weights
        (``external_attention``, the level's name) and, with ``attention="scale"``, also
        where in that level's band it falls (``attention_value``, see
        :func:`attention_value`); ``"levels"`` leaves the value out. Both modes draw the
        same numbers, so a seed gives the same level, salience and coordination in both.
        """
        if attention not in ATTENTION_MODES:
            raise ValueError(f"attention must be one of {', '.join(ATTENTION_MODES)}; got {attention!r}")
        pr = self.parameters
        u = float(rng.random())
        index = frac = None
        acc = 0.0
        for k, w in enumerate(pr.attention_weights):
            start, acc = acc, acc + w
            if w > 0 and u < acc:
                index, frac = k, (u - start) / w
                break
        if index is None:  # u beyond the float-rounded cumulative sum: the top of the last level with weight
            index = max(k for k, w in enumerate(pr.attention_weights) if w > 0)
            frac = 1.0
        out: dict[str, Any] = {"external_attention": pr.attention_levels[index]}
        if attention == "scale":
            out["attention_value"] = attention_value(index, len(pr.attention_levels), frac)
        salience = {}
        for pid in self.party_ids:
            s = round(float(rng.uniform(pr.salience_low, pr.salience_high)), 2)
            salience[pid] = min(max(s, pr.salience_low), pr.salience_high)
        out["salience"] = salience
        out["opposition_coordinated"] = bool(float(rng.random()) < pr.coordination_p)
        return out

    # -- (de)serialisation -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        pr = self.parameters
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "context": self.context,
            "authority": self.authority,
            "issues": {i.id: {"title": i.title, "description": i.description} for i in self.issues},
            "parties": {
                p.id: {
                    "name": p.name,
                    "role": p.role,
                    "description": p.description,
                    "brief": {
                        "objectives": [
                            {"issue": o.issue, "priority": o.priority, "text": o.text} for o in p.brief.objectives
                        ],
                        "red_lines": list(p.brief.red_lines),
                    },
                }
                for p in self.parties
            },
            "parameters": {
                "external_attention": {"levels": list(pr.attention_levels), "weights": list(pr.attention_weights)},
                "salience": {"low": pr.salience_low, "high": pr.salience_high},
                "opposition_coordination": {"p": pr.coordination_p},
            },
        }

    @classmethod
    def from_dict(cls, d: Any, *, source: str = "scenario") -> "RulemakingScenario":
        _check_text(d, str(source))
        return _parse(d, str(source))


# --------------------------------------------------------------------------- validation


def _fail(source: str, where: str, msg: str) -> ScenarioError:
    return ScenarioError(f"{source}: field '{where}': {msg}")


def _check_text(d: Any, source: str) -> None:
    """Every string of the scenario (keys included) is text: a surrogate code point (no
    character; :mod:`negotiation_env.core.encodable`) would reach prompts and traces."""
    found = unencodable_problem(d)
    if found is not None:
        raise _fail(source, *found)


def _number(v: Any) -> bool:
    """A finite number a float can hold (math.isfinite raises OverflowError on an int past that)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return math.isfinite(v) if isinstance(v, float) else abs(v) <= sys.float_info.max


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(source: str, where: str, v: Any) -> str:
    if not isinstance(v, str) or is_blank(v):
        raise _fail(source, where, f"must be a non-empty string, got {shown(v)}")
    return v


def _obj(source: str, where: str, v: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> Mapping:
    """``v`` must be a JSON object with all of ``required`` and nothing outside required+optional."""
    if not isinstance(v, Mapping):
        raise _fail(source, where, f"must be an object, got {type(v).__name__}")
    allowed = set(required) | set(optional)
    prefix = f"{where}." if where else ""
    for key in v:
        if key not in allowed:
            raise _fail(source, f"{prefix}{key}", f"unknown field; allowed fields: {', '.join(sorted(allowed))}")
    for key in required:
        if key not in v:
            raise _fail(source, f"{prefix}{key}", "missing required field")
    return v


def _parse(d: Any, source: str) -> RulemakingScenario:
    if not isinstance(d, Mapping):
        raise ScenarioError(f"{source}: a scenario must be a JSON object, got {type(d).__name__}")
    top = ("id", "name", "title", "context", "authority", "issues", "parties", "parameters")
    _obj(source, "", d, top, ("description", "meta"))

    sid = d["id"]
    if not isinstance(sid, str) or not _SCENARIO_ID.fullmatch(sid):
        raise _fail(source, "id", f"must start with a letter and use letters, digits, '_' or '-', got {shown(sid)}")
    name = _text(source, "name", d["name"])
    title = _text(source, "title", d["title"])
    context = _text(source, "context", d["context"])

    # issues
    iss = d["issues"]
    if not isinstance(iss, Mapping) or not N_ISSUES[0] <= len(iss) <= N_ISSUES[1]:
        raise _fail(source, "issues", f"must be an object of {N_ISSUES[0]}-{N_ISSUES[1]} issue id -> {{title, description}}")
    issues = []
    for iid, spec in iss.items():
        where = f"issues.{iid}"
        if not isinstance(iid, str) or not _ID.fullmatch(iid):
            raise _fail(source, where, "issue id must match [a-z][a-z0-9_]*")
        _obj(source, where, spec, ("title", "description"))
        issues.append(Issue(iid, _text(source, where + ".title", spec["title"]),
                            _text(source, where + ".description", spec["description"])))
    issue_ids = [i.id for i in issues]

    # parties
    authority = d["authority"]
    ps = d["parties"]
    if not isinstance(ps, Mapping) or len(ps) != N_PARTIES:
        raise _fail(source, "parties", f"must be an object of exactly {N_PARTIES} parties (the authority and {N_PARTIES - 1} stakeholders)")
    parties = []
    for pid, spec in ps.items():
        where = f"parties.{pid}"
        if not isinstance(pid, str) or not _ID.fullmatch(pid):
            raise _fail(source, where, "party id must match [a-z][a-z0-9_]*")
        _obj(source, where, spec, ("name", "role", "description", "brief"))
        pname = _text(source, where + ".name", spec["name"])
        role = spec["role"]
        if role not in ROLES:
            raise _fail(source, where + ".role", f"must be one of {list(ROLES)}, got {shown(role)}")
        description = _text(source, where + ".description", spec["description"])
        parties.append(Party(pid, pname, role, description, _parse_brief(source, where + ".brief", spec["brief"], issue_ids)))

    if not isinstance(authority, str) or authority not in ps:
        raise _fail(source, "authority", f"must be the id of one of the parties ({', '.join(map(str, ps))}), got {shown(authority)}")
    authorities = [p.id for p in parties if p.role == "authority"]
    if len(authorities) != 1:
        raise _fail(source, "parties", f"exactly one party must have role 'authority', found {len(authorities)}: {authorities}")
    if authorities[0] != authority:
        raise _fail(source, f"parties.{authority}.role", f"the authority party must have role 'authority' (party {shown(authorities[0])} has it instead)")
    if parties[0].id != authority:
        raise _fail(source, "parties", f"the authority {shown(authority)} must come first (parties are listed in turn order)")

    return RulemakingScenario(
        id=sid,
        name=name,
        title=title,
        context=context,
        authority=authority,
        issues=tuple(issues),
        parties=tuple(parties),
        parameters=_parse_parameters(source, d["parameters"]),
    )


def _parse_brief(source: str, where: str, spec: Any, issue_ids: list[str]) -> Brief:
    _obj(source, where, spec, ("objectives", "red_lines"))
    objs = spec["objectives"]
    if not isinstance(objs, list) or not N_OBJECTIVES[0] <= len(objs) <= N_OBJECTIVES[1]:
        raise _fail(source, where + ".objectives", f"must be a list of {N_OBJECTIVES[0]}-{N_OBJECTIVES[1]} objectives")
    objectives = []
    seen_priority: dict[int, int] = {}
    seen_issue: dict[str, int] = {}
    for k, o in enumerate(objs):
        w = f"{where}.objectives[{k}]"
        _obj(source, w, o, ("issue", "priority", "text"))
        issue = o["issue"]
        if issue not in issue_ids:
            raise _fail(source, w + ".issue", f"unknown issue {shown(issue)}; known: {', '.join(issue_ids)}")
        if issue in seen_issue:
            raise _fail(source, w + ".issue", f"issue {shown(issue)} already has an objective (objectives[{seen_issue[issue]}])")
        seen_issue[issue] = k
        pr = o["priority"]
        if not _int(pr) or not 1 <= pr <= len(objs):
            raise _fail(source, w + ".priority", f"must be an integer between 1 and {len(objs)}, got {shown(pr)}")
        if pr in seen_priority:
            raise _fail(source, w + ".priority", f"duplicate priority {pr} (also objectives[{seen_priority[pr]}])")
        seen_priority[pr] = k
        objectives.append(Objective(issue, int(pr), _text(source, w + ".text", o["text"])))
    objectives.sort(key=lambda o: o.priority)

    rls = spec["red_lines"]
    if not isinstance(rls, list) or not N_RED_LINES[0] <= len(rls) <= N_RED_LINES[1]:
        raise _fail(source, where + ".red_lines", f"must be a list of {N_RED_LINES[0]}-{N_RED_LINES[1]} non-empty strings")
    red_lines = tuple(_text(source, f"{where}.red_lines[{k}]", r) for k, r in enumerate(rls))
    return Brief(tuple(objectives), red_lines)


def _parse_parameters(source: str, spec: Any) -> Parameters:
    where = "parameters"
    _obj(source, where, spec, ("external_attention", "salience", "opposition_coordination"))

    ea = _obj(source, where + ".external_attention", spec["external_attention"], ("levels", "weights"))
    levels = ea["levels"]
    w = where + ".external_attention.levels"
    if not isinstance(levels, list) or not 1 <= len(levels) <= MAX_ATTENTION_LEVELS:
        raise _fail(source, w, f"must be a list of 1-{MAX_ATTENTION_LEVELS} level names")
    first: dict[str, int] = {}
    for k, lv in enumerate(levels):
        _text(source, f"{w}[{k}]", lv)
        if lv in first:
            raise _fail(source, f"{w}[{k}]", f"duplicate level {shown(lv)}")
        first[lv] = k
    weights = ea["weights"]
    w = where + ".external_attention.weights"
    if not isinstance(weights, list) or len(weights) != len(levels):
        raise _fail(source, w, f"must be a list of {len(levels)} numbers, one per level")
    for k, x in enumerate(weights):
        if not _number(x) or x < 0:
            raise _fail(source, f"{w}[{k}]", f"must be a non-negative finite number, got {shown(x)}")
    total = math.fsum(weights)
    if abs(total - 1.0) > WEIGHT_TOL:
        raise _fail(source, w, f"must sum to 1, got {shown(total)}")

    sal = _obj(source, where + ".salience", spec["salience"], ("low", "high"))
    for key in ("low", "high"):
        x = sal[key]
        if not _number(x) or not 0 <= x <= 1:
            raise _fail(source, f"{where}.salience.{key}", f"must be a number in [0, 1], got {shown(x)}")
    if sal["low"] > sal["high"]:
        raise _fail(source, where + ".salience", f"low ({sal['low']}) must not exceed high ({sal['high']})")

    oc = _obj(source, where + ".opposition_coordination", spec["opposition_coordination"], ("p",))
    p = oc["p"]
    if not _number(p) or not 0 <= p <= 1:
        raise _fail(source, where + ".opposition_coordination.p", f"must be a probability in [0, 1], got {shown(p)}")

    return Parameters(
        attention_levels=tuple(levels),
        attention_weights=tuple(float(x) for x in weights),
        salience_low=float(sal["low"]),
        salience_high=float(sal["high"]),
        coordination_p=float(p),
    )


# --------------------------------------------------------------------------- loading


def list_scenarios() -> list[str]:
    """Ids of the scenarios shipped with the package (file stems)."""
    return shipped_ids("negotiation_env.games.rulemaking")


def load_scenario(name_or_path: str | Path) -> RulemakingScenario:
    """Load a shipped scenario by id (see :func:`list_scenarios`) or any JSON file by path."""
    data, source = read_json(name_or_path, "negotiation_env.games.rulemaking", ScenarioError)
    return RulemakingScenario.from_dict(data, source=source)
