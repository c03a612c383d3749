"""The resource game's valid answers as JSON Schemas and regexes (see
:mod:`negotiation_env.core.answer_format`).

The spec the game puts in the acting agent's observation (:func:`spec`) carries what
:func:`~.rules.validate_decision` and the parsers read: the resources in scenario order
with the names the agent knows them by (its theme), their cost and supply, the budget,
the type limit, the agent's own projects (never the other party's), the phase and the
answer mode (thinking on: the D.1.4 JSON wrapper; off: D.6's plain text or ONLY a
purchase object).

Descriptions (``text_chars`` caps speech and thinking):

| phase | thinking on (JSON Schema) | thinking off |
| --- | --- | --- |
| talk | ``{"thinking", "speech", "action"}``: visible speech, ``action`` null or a purchase | regex: a message (not starting with ``{`` or a backtick) or ONLY a purchase object |
| decision | ``{"thinking", "speech", "action": purchase}`` with visible speech | JSON Schema: the purchase object |
| reflection | regex: plain text | regex: plain text |

A purchase object is ``{"<resource name>": units, ..., "projects": {"<project>": runs, ...}}``
with every key optional, integers from 0 to what the budget could buy. It does not say
that the purchase fits the budget or the type limit: those are the rules' (and the
strict description's); runs the purchase does not cover are legal (they are cut). **Strict**: any purchase within budget, supply
and type limit (:func:`~.solver.purchase_vectors`) with the runs omitted (the engine
assigns them), or one of the agent's feasible run vectors (:func:`~.solver.run_vectors`)
with exactly the resources its runs consume and those runs named, rendered as the env
renders a structured decision (``json.dumps``, zero quantities left out, every project
named or none): each is legal, and each legal decision of those two kinds is admitted.
Left out: buying more than the supply alone (legal, but it annuls the round) and naming
runs that leave part of the purchase unused (the same runs with exactly their usage are
admitted; :func:`legal_decisions` says why).
"""

from __future__ import annotations

import json
import math
from typing import Any, Mapping, Sequence

import numpy as np

from ...core.answer_format import AnswerFormat, PLAIN_TEXT, integer_regex, json_text_pattern, regex_escape, text_regex
from .solver import purchase_vectors, run_vectors

__all__ = ["spec", "build", "canonical_decision", "legal_decisions"]

#: the first character of a thinking-off message: visible, and neither ``{`` nor a
#: backtick (a text that starts so could be ONLY a purchase object, or one in a fence)
_MESSAGE_FIRST = r"[!#-;=-\[\]-_a-z|}~\xa1-\xac\xae-\xff]"


def spec(scenario, agent: str, names, *, phase: str, thinking: bool) -> dict[str, Any]:
    """The observation's spec for ``agent`` answering in ``phase`` (``talk``,
    ``decision`` or ``reflection``)."""
    return {
        "game": "resource", "phase": phase, "thinking": bool(thinking),
        "resources": [{"id": r.id, "name": names.name(r.id), "cost": r.cost, "supply": r.supply}
                      for r in scenario.resources],
        "budget": scenario.budget, "max_types": scenario.max_types,
        "projects": [{"name": p.name, "requires": [[rid, u] for rid, u in p.requires], "reward": p.reward}
                     for p in scenario.projects_of(agent)],
    }


def _arrays(s: Mapping[str, Any]):
    rids = [r["id"] for r in s["resources"]]
    R = np.zeros((len(s["projects"]), len(rids)), dtype=np.int64)
    for i, p in enumerate(s["projects"]):
        for rid, u in p["requires"]:
            R[i, rids.index(rid)] += int(u)
    rew = np.array([float(p["reward"]) for p in s["projects"]])
    supply = np.array([int(r["supply"]) for r in s["resources"]], dtype=np.int64)
    cost = np.array([float(r["cost"]) for r in s["resources"]])
    return R, rew, supply, cost


def canonical_decision(names: Sequence[str], purchase: Sequence[int], project_names: Sequence[str],
                       runs: Sequence[int] | None) -> dict[str, Any]:
    """A decision as the env renders a structured one: nonzero quantities by resource
    name in scenario order, then ``"projects"`` (every project) unless runs are omitted."""
    action: dict[str, Any] = {n: int(q) for n, q in zip(names, purchase) if q}
    if runs is not None:
        action["projects"] = {p: int(n) for p, n in zip(project_names, runs)}
    return action


def legal_decisions(s: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The strict set: every feasible run vector of the spec's agent as the purchase
    object that buys exactly what it consumes and names its runs (the all-zero one first),
    then every purchase within budget, supply and type limit with the runs omitted (the
    engine assigns them, Appendix D.1.3; the empty purchase first). A purchase that no
    runs use up exactly is legal, and a deferent agent buying the share it was offered
    makes one, so it is admitted. Left out: naming runs that leave part of the purchase
    unused (the same runs named with exactly their usage are admitted, same reward for
    less money), which keeps the set a few hundred entries (the shipped scenarios: at
    most 209) where all pairs would be up to 1,562, an ``enum`` that is much slower for
    llguidance to build a matcher for, on every turn (figures on the benchmarks page)."""
    R, rew, supply, cost = _arrays(s)
    budget, max_types = float(s["budget"]), int(s["max_types"])
    runs, usage, _value = run_vectors(R, rew, supply, cost, budget, max_types)
    names = [r["name"] for r in s["resources"]]
    pnames = [p["name"] for p in s["projects"]]
    named = [canonical_decision(names, u.tolist(), pnames, r.tolist()) for r, u in zip(runs, usage)]
    purchases = purchase_vectors(supply, cost, budget, max_types)
    return named + [canonical_decision(names, q, pnames, None) for q in purchases.tolist()]


def _bounds(s: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """Most units of each resource and most runs of each project the budget could buy."""
    budget = float(s["budget"])

    def most(c: float) -> int:
        return int(math.floor(budget / c + 1e-9)) if c > 0 else max(int(r["supply"]) for r in s["resources"])

    q = [most(float(r["cost"])) for r in s["resources"]]
    costs = {r["id"]: float(r["cost"]) for r in s["resources"]}
    n = [most(sum(costs[rid] * u for rid, u in p["requires"])) for p in s["projects"]]
    return q, n


def _purchase_schema(s: Mapping[str, Any]) -> dict[str, Any]:
    q, n = _bounds(s)
    runs = {p["name"]: {"type": "integer", "minimum": 0, "maximum": m} for p, m in zip(s["projects"], n)}
    props: dict[str, Any] = {r["name"]: {"type": "integer", "minimum": 0, "maximum": m}
                             for r, m in zip(s["resources"], q)}
    props["projects"] = {"type": "object", "properties": runs, "additionalProperties": False}
    return {"type": "object", "properties": props, "additionalProperties": False}


def _strict_purchase_schema(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"enum": legal_decisions(s)}


def _in_order(items: Sequence[str]) -> str:
    """Any in-order subsequence of ``items`` joined by ``", "`` (the empty one included)."""
    if not items:
        return ""
    alts = [items[i] + "".join(f"(?:, {items[j]})?" for j in range(i + 1, len(items))) for i in range(len(items))]
    return "(?:" + "|".join(alts) + ")?"


def _key(name: str) -> str:
    return regex_escape(json.dumps(name, ensure_ascii=False)) + ": "


def _purchase_regex(s: Mapping[str, Any]) -> str:
    q, n = _bounds(s)
    runs = [_key(p["name"]) + integer_regex(m) for p, m in zip(s["projects"], n)]
    entries = [_key(r["name"]) + integer_regex(m) for r, m in zip(s["resources"], q)]
    entries.append(_key("projects") + r"\{" + _in_order(runs) + r"\}")
    return r"\{" + _in_order(entries) + r"\}"


def _strict_purchase_regex(s: Mapping[str, Any]) -> str:
    return "(?:" + "|".join(regex_escape(json.dumps(d, ensure_ascii=False)) for d in legal_decisions(s)) + ")"


def _wrapper(purchase: dict[str, Any] | None, text_chars: int | None) -> dict[str, Any]:
    """D.1.4's three fields; the speech starts with a visible character, with a purchase
    too ("speech" MUST NOT be empty)."""
    return {
        "type": "object",
        "properties": {
            "thinking": {"type": "string", "pattern": json_text_pattern(text_chars)},
            "speech": {"type": "string", "pattern": json_text_pattern(text_chars, visible_first=True)},
            "action": {"type": "null"} if purchase is None else purchase,
        },
        "required": ["thinking", "speech", "action"],
        "additionalProperties": False,
    }


def build(s: Mapping[str, Any], *, text_chars: int | None = None) -> AnswerFormat:
    """The :class:`AnswerFormat` of the spec ``s`` (module docstring)."""
    phase, thinking = s["phase"], bool(s["thinking"])
    mode = "json" if thinking else "plain"
    if phase == "reflection":
        return AnswerFormat("resource.reflection", text_fields=1,
                            regex=r"[ \t\n]*" + text_regex(PLAIN_TEXT, text_chars, visible_first=True))
    if phase not in ("talk", "decision"):
        raise ValueError(f"resource answer spec: unknown phase {phase!r}")
    name = f"resource.{phase}.{mode}"
    if thinking:
        def schema(purchase: dict[str, Any]) -> dict[str, Any]:
            if phase == "decision":
                return _wrapper(purchase, text_chars)
            return {"anyOf": [_wrapper(None, text_chars), _wrapper(purchase, text_chars)]}

        return AnswerFormat(name, json_schema=schema(_purchase_schema(s)), text_fields=2,
                            strict=AnswerFormat(name + ".strict", json_schema=schema(_strict_purchase_schema(s)),
                                                text_fields=2))
    if phase == "decision":
        return AnswerFormat(name, json_schema=_purchase_schema(s),
                            strict=AnswerFormat(name + ".strict", json_schema=_strict_purchase_schema(s)))
    message = text_regex(PLAIN_TEXT, text_chars, first=_MESSAGE_FIRST)
    return AnswerFormat(name, regex=f"(?:{message}|{_purchase_regex(s)})", text_fields=1,
                        strict=AnswerFormat(name + ".strict", regex=f"(?:{message}|{_strict_purchase_regex(s)})",
                                            text_fields=1))
