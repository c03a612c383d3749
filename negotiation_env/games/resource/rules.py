"""Rules of the shared-pool resource game (seed 000, §3 and Appendix D.1): pure Python.

No PettingZoo, no prompt text, no randomness. Everything above this layer (text, env,
policies, analysis) is tested against these functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from .scenario import Project, Scenario

__all__ = [
    "Decision",
    "InvalidDecision",
    "RoundOutcome",
    "validate_decision",
    "auto_assign",
    "paid_runs",
    "runs_usage",
    "purchase_cost",
    "resolve_round",
    "zero_decision",
]

_EPS = 1e-9


class InvalidDecision(ValueError):
    """A decision breaks the rules; ``problems`` lists every violation in plain words."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Decision:
    """A validated purchase plus the project runs it pays for.

    ``purchase`` holds every resource of the scenario, in scenario order (zeros included).
    ``runs`` holds every project of the agent, in presented order: the runs paid
    (:func:`paid_runs`). ``declared`` holds the runs the agent named, in the same form,
    or None when it omitted them. ``auto_assigned`` is True when the agent omitted runs
    and the engine assigned them all (Appendix D.1.3).
    """

    purchase: tuple[tuple[str, int], ...]
    runs: tuple[tuple[str, int], ...]
    auto_assigned: bool = False
    declared: tuple[tuple[str, int], ...] | None = None

    def purchase_dict(self) -> dict[str, int]:
        return dict(self.purchase)

    def runs_dict(self) -> dict[str, int]:
        return dict(self.runs)

    def declared_dict(self) -> dict[str, int] | None:
        return None if self.declared is None else dict(self.declared)

    @property
    def adjusted(self) -> bool:
        """The runs paid differ from the runs declared (declared runs only)."""
        return self.declared is not None and self.declared != self.runs


@dataclass(frozen=True)
class RoundOutcome:
    """What resolution produced. ``kind[agent]`` is ``standard``, ``annulled`` or ``no_runs`` (D.4)."""

    decisions: tuple[tuple[str, Decision], ...]
    overdraw: bool
    overdrawn_resources: tuple[str, ...]
    rewards: tuple[tuple[str, float], ...]
    kind: tuple[tuple[str, str], ...]

    def reward(self, agent: str) -> float:
        return dict(self.rewards)[agent]

    def decision(self, agent: str) -> Decision:
        return dict(self.decisions)[agent]

    def kind_of(self, agent: str) -> str:
        return dict(self.kind)[agent]

    @property
    def joint_reward(self) -> float:
        return sum(r for _, r in self.rewards)


def purchase_cost(scenario: Scenario, purchase: Mapping[str, int]) -> float:
    return sum(scenario.resource(rid).cost * q for rid, q in purchase.items())


def runs_usage(projects: tuple[Project, ...], runs: Mapping[str, int]) -> dict[str, int]:
    """Resources consumed by the given runs."""
    use: dict[str, int] = {}
    for p in projects:
        n = runs.get(p.name, 0)
        if n:
            for rid, units in p.requires:
                use[rid] = use.get(rid, 0) + units * n
    return use


def _assign(projects: tuple[Project, ...], left: dict[str, int], cap: Mapping[str, int] | None) -> dict[str, int]:
    """Projects in presented order, each run as many times as ``left`` allows (at most
    ``cap[name]`` when a cap is given); what the runs use is taken out of ``left``."""
    runs: dict[str, int] = {}
    for p in projects:
        n = min(left.get(rid, 0) // units for rid, units in p.requires)
        if cap is not None:
            n = min(n, cap.get(p.name, 0))
        runs[p.name] = n
        if n:
            for rid, units in p.requires:
                left[rid] -= units * n
    return runs


def auto_assign(projects: tuple[Project, ...], purchase: Mapping[str, int]) -> dict[str, int]:
    """Engine assignment when runs are omitted: projects in presented order, each run as
    many times as the remaining resources allow (Appendix D.1.3)."""
    return _assign(projects, dict(purchase), None)


def paid_runs(projects: tuple[Project, ...], purchase: Mapping[str, int],
              declared: Mapping[str, int] | None) -> dict[str, int]:
    """The runs a purchase pays for (Appendix D.1.2: "sum of (runs × reward) for each
    project you can complete with your purchased resources").

    Declared runs are honoured in presented order, each cut to what the resources still
    left cover; whatever the purchase has left then goes to further runs as the engine
    assigns omitted runs (:func:`auto_assign`, D.1.3). Without declared runs this is
    :func:`auto_assign`. So a purchase that completes some run of some project always
    pays at least one run, and declared runs never cost the agent a run its purchase
    completes."""
    if declared is None:
        return auto_assign(projects, purchase)
    left = dict(purchase)
    runs = _assign(projects, left, declared)
    for name, extra in _assign(projects, left, None).items():
        runs[name] += extra
    return runs


def zero_decision(scenario: Scenario, agent: str) -> Decision:
    return Decision(
        purchase=tuple((rid, 0) for rid in scenario.resource_ids),
        runs=tuple((p.name, 0) for p in scenario.projects_of(agent)),
        auto_assigned=True,
    )


def validate_decision(
    scenario: Scenario,
    agent: str,
    purchase: Mapping[str, int],
    runs: Mapping[str, int] | None,
    *,
    name=lambda rid: rid,
) -> Decision:
    """Check a purchase (and optional runs) against the rules; raise :class:`InvalidDecision`
    naming every problem, or return the normalised :class:`Decision`.

    Buying more than the supply on one's own is legal: it annuls the round at resolution
    (combined demand exceeds supply), exactly as two agents jointly overdrawing does.
    Declared runs the purchase does not cover are legal too: the decision pays the runs
    the purchase completes (:func:`paid_runs`) and keeps what was declared.
    ``name`` maps a resource id to the name the agent knows it by (themed), for messages.
    """
    problems: list[str] = []
    projects = scenario.projects_of(agent)
    rids = scenario.resource_ids
    pnames = [p.name for p in projects]
    clean: dict[str, int] = {}
    for rid, q in purchase.items():
        if rid not in rids:
            problems.append(f"unknown resource {rid!r} (valid: {', '.join(map(name, rids))})")
        elif not isinstance(q, int) or isinstance(q, bool) or q < 0:
            problems.append(f"quantity of {name(rid)!r} must be a non-negative integer, got {q!r}")
        else:
            clean[rid] = clean.get(rid, 0) + q
    cost = purchase_cost(scenario, clean)
    if cost > scenario.budget + _EPS:
        problems.append(f"total cost ${_fmt(cost)} exceeds the budget of ${_fmt(scenario.budget)}")
    types = [rid for rid in rids if clean.get(rid, 0) > 0]
    if len(types) > scenario.max_types:
        problems.append(
            f"{len(types)} resource types bought ({', '.join(map(name, types))}); at most {scenario.max_types} allowed"
        )
    run_map: dict[str, int] | None = None
    if runs is not None:
        run_map = {}
        for pname, n in runs.items():
            if pname not in pnames:
                problems.append(f"unknown project {pname!r} (your projects: {', '.join(pnames)})")
            elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
                problems.append(f"runs of {pname!r} must be a non-negative integer, got {n!r}")
            else:
                run_map[pname] = run_map.get(pname, 0) + n
    if problems:
        raise InvalidDecision(problems)
    paid = paid_runs(projects, clean, run_map)
    return Decision(
        purchase=tuple((rid, clean.get(rid, 0)) for rid in rids),
        runs=tuple((p, paid.get(p, 0)) for p in pnames),
        auto_assigned=run_map is None,
        declared=None if run_map is None else tuple((p, run_map.get(p, 0)) for p in pnames),
    )


def agent_reward(scenario: Scenario, agent: str, decision: Decision) -> float:
    """Reward of one agent's decision if the round is not annulled."""
    rewards = {p.name: p.reward for p in scenario.projects_of(agent)}
    return float(sum(rewards[name] * n for name, n in decision.runs))


def resolve_round(scenario: Scenario, decisions: Mapping[str, Decision]) -> RoundOutcome:
    """Simultaneous resolution: overdraw of any resource annuls the round (both get 0);
    otherwise each agent earns runs x reward of its projects."""
    agents = scenario.agents
    missing = [a for a in agents if a not in decisions]
    if missing:
        raise ValueError(f"resolve_round needs a decision from every agent; missing {missing}")
    demand = {rid: sum(decisions[a].purchase_dict()[rid] for a in agents) for rid in scenario.resource_ids}
    over = tuple(r.id for r in scenario.resources if demand[r.id] > r.supply)
    rewards: list[tuple[str, float]] = []
    kinds: list[tuple[str, str]] = []
    for a in agents:
        if over:
            rewards.append((a, 0.0))
            kinds.append((a, "annulled"))
        else:
            r = agent_reward(scenario, a, decisions[a])
            rewards.append((a, r))
            kinds.append((a, "standard" if any(n for _, n in decisions[a].runs) else "no_runs"))
    return RoundOutcome(
        decisions=tuple((a, decisions[a]) for a in agents),
        overdraw=bool(over),
        overdrawn_resources=over,
        rewards=tuple(rewards),
        kind=tuple(kinds),
    )


def _fmt(x: float) -> str:
    """Money as the prompts print it: integers without a decimal point. Amounts no
    scenario can reach (an agent asking for 1e308 units) print in short scientific form,
    and an overflowed cost prints as ``inf``, instead of raising."""
    if not math.isfinite(x) or abs(x) >= 1e15:
        return f"{x:.3g}"
    if math.isclose(x, round(x), abs_tol=1e-9):
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")
