"""Oracle validation of scenarios (seed 000 §3.1): can a policy solve the allocation
under full information in one attempt (pass@1)?

Two checks; ``mode="joint"`` is the default.

**Joint** (``mode="joint"``): the policy plays both seats of a one-round, no-talk game
(D.7 prompts) with no retry, under full information: both parties' complete project
specifications are in each seat's system prompt (``transparency="full"``, as in §5.7).
Each seat's Situation section says the two parties carry out one joint plan for the
highest joint reward, each submitting its own part without seeing the other's, and that
among several such plans the one that gives the first speaker (the *lead*) the highest
reward is the plan (config ``joint_plan``; the paper does not print its oracle prompt,
this wording is ours). The two answers resolve as any round does (:func:`resolve_round`
in the env), and the check passes when together they reach the joint maximum M with no
overdraw and neither answer fell back. A policy that buys each seat's individual
optimum fails wherever the two optima overdraw together (M/C < 1).

The tie rule matters because the two seats decide at once and a scenario usually has
several joint optima (the generator asks for them): two seats that each carry out a
different optimum can overdraw. :attr:`JointOracleReport.rule_pins_plan` says whether
every part the rule allows one seat fits every part it allows the other (true for every
shipped scenario, either seat leading), and :attr:`JointOracleReport.seat_passed` whether
each seat's allocation, with the other seat's part of the rule's plan, reaches M: it
shows which seat strayed from the plan.

**Individual** (``mode="individual"``): each agent in turn decides alone under full
information, its Situation section saying the other party buys nothing (``solo=True``;
ours too), and the other party does buy nothing, so the agent's reward is the value of
its own allocation with the whole pool available. It passes when that reward equals its
individual maximum V_i from the exact solver.

Any policy that plugs into the env works: an LLM policy, a scripted one, a person at a
prompt. A scenario is a :class:`Scenario`, a shipped name or a path.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any, ClassVar, Iterable

from ...core.config import ConfigError
from .rules import runs_usage
from .scenario import AGENTS, Scenario, ScenarioError, ScenarioTooLarge, load_scenario
from .solver import solve

__all__ = ["OracleReport", "JointOracleReport", "oracle_check", "filter_pool", "MODES"]

MODES = ("joint", "individual")
_TOL = 1e-6
# set by the check itself; a caller's value for one of these is refused, not overridden
_FIXED = ("game", "scenario", "num_rounds", "cheap_talk", "max_retries", "fallback", "solo", "joint_plan")
# the empty purchase the absent partner of the individual check submits (a decision
# carries speech like any other)
_BUY_NOTHING = {"message": "I buy nothing this round.", "decide": 1}


@dataclass(frozen=True)
class OracleReport:
    """The individual check: each agent alone (``mode="individual"``)."""

    mode: ClassVar[str] = "individual"
    scenario: str
    passed: dict[str, bool]  # agent -> pass@1
    value: dict[str, float]  # agent -> reward of the policy's allocation
    individual_max: dict[str, float]
    events: dict[str, list[dict[str, Any]]]  # agent -> validation errors / fallbacks

    @property
    def pass_at_1(self) -> float:
        return sum(self.passed.values()) / len(self.passed)

    @property
    def all_passed(self) -> bool:
        return all(self.passed.values())


@dataclass(frozen=True)
class JointOracleReport:
    """The joint check: the policy's two seats of one round (``mode="joint"``)."""

    mode: ClassVar[str] = "joint"
    scenario: str
    passed: bool  # pass@1: joint reward == M, no overdraw, no fallback
    joint_reward: float
    joint_max: float  # M
    overdraw: bool
    overdrawn_resources: tuple[str, ...]
    purchases: dict[str, dict[str, int]]  # agent -> resource id -> units (each seat's allocation)
    runs: dict[str, dict[str, int]]  # agent -> project -> runs
    rewards: dict[str, float]  # agent -> reward as resolved (0 when annulled)
    lead: str  # the first speaker, whom the tie rule favours
    # agent -> whether its allocation, with the other seat's part of the plan the tie rule
    # names, reaches M with no overdraw (and did not fall back); None past the solver's
    # enumeration bound
    seat_passed: dict[str, bool | None]
    # whether every pairing of the lead's and the other's parts among the plans the tie
    # rule allows reaches M without overdraw (None: past the enumeration bound)
    rule_pins_plan: bool | None
    fallback_agents: tuple[str, ...]
    events: dict[str, list[dict[str, Any]]]  # agent -> validation errors / fallbacks

    @property
    def pass_at_1(self) -> float:
        return 1.0 if self.passed else 0.0

    @property
    def all_passed(self) -> bool:
        return self.passed


def _scenario(scenario: Any) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, (str, Path)):
        try:
            return load_scenario(scenario)
        except ScenarioError as e:
            raise ConfigError(f"oracle check: {e}") from None
    raise TypeError(f"scenario must be a Scenario, a shipped scenario name or a path; got {type(scenario).__name__}")


def _check_args(mode: Any, policy: Any, config: dict[str, Any]) -> None:
    if not isinstance(mode, str) or mode not in MODES:
        raise ConfigError(f"oracle check: mode must be one of {', '.join(map(repr, MODES))}; got {mode!r}")
    if not hasattr(policy, "act"):
        raise TypeError("policy must have an act(observation) method")
    fixed = [k for k in config if k in _FIXED or (mode == "individual" and k == "first_speaker")]
    if fixed:
        raise ConfigError(f"oracle check: {', '.join(sorted(fixed))} set by the check (a one-round no-talk game, "
                          f"one attempt, the {mode} Situation); "
                          + ("first_speaker is each agent in turn" if "first_speaker" in fixed else
                             "pass other resource config fields only"))


def oracle_check(scenario: Scenario | str | Path, policy: Any, *, mode: str = "joint", theme: str | None = "medieval",
                 seed: int = 0, transparency: str = "full", **config: Any) -> JointOracleReport | OracleReport:
    """Run the oracle check of ``mode`` (``"joint"``, the default, or ``"individual"``)
    with ``policy`` (``act(observation) -> action``), one attempt per seat.

    ``transparency``: ``"full"`` (default) or ``"joint"``; the individual check also
    takes ``"none"`` (only the agent's own projects). ``config``: further resource config
    fields (e.g. ``thinking=False``; ``first_speaker`` names the joint check's lead).
    Fields the check sets itself are refused."""
    _check_args(mode, policy, config)
    scenario = _scenario(scenario)
    if mode == "individual":
        return _individual(scenario, policy, theme=theme, seed=seed, transparency=transparency, **config)
    return _joint(scenario, policy, theme=theme, seed=seed, transparency=transparency, **config)


def _play(env: Any, seed: int, act) -> dict[str, list[dict[str, Any]]]:
    """One no-talk round: each acting seat answers through ``act(agent, obs)`` once.
    Returns each seat's events."""
    env.reset(seed=seed)
    events: dict[str, list[dict[str, Any]]] = {a: [] for a in AGENTS}
    for a in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(act(a, obs))
        events[a].extend(env.infos[a]["events"])
    return events


def _individual(scenario: Scenario, policy: Any, *, theme, seed, transparency, **config) -> OracleReport:
    from ... import env as make_env  # local: the env factory sits above this layer

    sol = solve(scenario)
    passed, value, events = {}, {}, {}
    for agent in AGENTS:
        env = make_env(game="resource", scenario=scenario, num_rounds=1, cheap_talk=False, max_retries=0,
                       fallback="zero", theme=theme, first_speaker=agent, transparency=transparency, solo=True,
                       **config)
        evs = _play(env, seed, lambda a, obs: policy.act(obs) if a == agent else _BUY_NOTHING)
        outcome = env.unwrapped.game.round_outcome(0)
        reward = outcome["rewards"][agent]
        value[agent] = reward
        passed[agent] = reward >= sol.individual_max[agent] - _TOL and agent not in outcome["fallback_agents"]
        events[agent] = evs[agent]
    return OracleReport(scenario.name, passed, value, dict(sol.individual_max), events)


def _joint(scenario: Scenario, policy: Any, *, theme, seed, transparency, **config) -> JointOracleReport:
    from ... import env as make_env  # local: the env factory sits above this layer

    env = make_env(game="resource", scenario=scenario, num_rounds=1, cheap_talk=False, max_retries=0,
                   fallback="zero", theme=theme, transparency=transparency, joint_plan=True, **config)
    events = _play(env, seed, lambda a, obs: policy.act(obs))
    game = env.unwrapped.game
    o = game.round_outcome(0)
    M = o["joint_max"]
    fallback = tuple(o["fallback_agents"])
    lead = game.config.first_speaker
    rule = _rule_plans(scenario, lead)
    return JointOracleReport(
        scenario=scenario.name,
        passed=bool(not o["overdraw"] and o["joint_reward"] >= M - _TOL and not fallback),
        joint_reward=o["joint_reward"],
        joint_max=M,
        overdraw=o["overdraw"],
        overdrawn_resources=tuple(o["overdrawn_resources"]),
        purchases={a: dict(o["purchases"][a]) for a in AGENTS},
        runs={a: dict(o["runs"][a]) for a in AGENTS},
        rewards=dict(o["rewards"]),
        lead=lead,
        seat_passed={a: None if rule is None else
                     a not in fallback and _seat_passed(scenario, a, o["purchases"][a], o["runs"][a], *rule)
                     for a in AGENTS},
        rule_pins_plan=None if rule is None else _pins(scenario, *rule),
        fallback_agents=fallback,
        events=events,
    )


def _value(scenario: Scenario, agent: str, runs: dict[str, int]) -> float:
    return float(sum(p.reward * runs.get(p.name, 0) for p in scenario.projects_of(agent)))


def _usage(scenario: Scenario, agent: str, runs: Iterable[tuple[str, int]]) -> dict[str, int]:
    """What ``agent``'s runs (``(project, runs)`` pairs) use of each resource."""
    return runs_usage(scenario.projects_of(agent), dict(runs))


def _rule_plans(scenario: Scenario, lead: str) -> tuple[list[dict[str, tuple]], float] | None:
    """The joint optima the tie rule allows (those that give the lead its highest reward),
    each as agent -> runs, with M; None past the solver's enumeration bound."""
    try:
        sol = solve(scenario, method="enumerate")
    except ScenarioTooLarge:
        return None
    if not sol.joint_optima:
        return None
    plans = [dict(zip(AGENTS, pair)) for pair in sol.joint_optima]
    best = max(_value(scenario, lead, dict(p[lead])) for p in plans)
    return [p for p in plans if _value(scenario, lead, dict(p[lead])) >= best - _TOL], sol.joint_max


def _fits(scenario: Scenario, use_a: dict[str, int], use_b: dict[str, int], value: float, M: float) -> bool:
    return value >= M - _TOL and all(use_a.get(r.id, 0) + use_b.get(r.id, 0) <= r.supply for r in scenario.resources)


def _seat_passed(scenario: Scenario, agent: str, purchase: dict[str, int], runs: dict[str, int],
                 plans: list[dict[str, tuple]], M: float) -> bool:
    """Whether ``agent``'s purchase and runs, with the other agent's part of some plan the
    tie rule allows, reach M with no overdraw."""
    other = next(a for a in AGENTS if a != agent)
    mine = _value(scenario, agent, runs)
    return any(_fits(scenario, purchase, _usage(scenario, other, p[other]), mine + _value(scenario, other, dict(p[other])), M)
               for p in plans)


def _pins(scenario: Scenario, plans: list[dict[str, tuple]], M: float) -> bool:
    """Whether any part of the first agent and any part of the second among ``plans`` fit
    together and reach M."""
    a, b = AGENTS
    return all(_fits(scenario, _usage(scenario, a, pa), _usage(scenario, b, pb),
                     _value(scenario, a, dict(pa)) + _value(scenario, b, dict(pb)), M)
               for pa, pb in product({p[a] for p in plans}, {p[b] for p in plans}))


def filter_pool(scenarios: Iterable[Scenario | str | Path], policies: Iterable[Any], *, mode: str = "joint",
                **kwargs: Any) -> list[Scenario]:
    """The scenarios every policy passes at pass@1 in the oracle check of ``mode``
    (``"joint"``, the default: both seats' allocations together reach M; ``"individual"``:
    each agent alone reaches its V_i). ``kwargs`` go to :func:`oracle_check`."""
    policies = list(policies)
    if not policies:
        raise ValueError("filter_pool needs at least one policy (with none, every scenario would pass)")
    for p in policies:
        _check_args(mode, p, kwargs)
    pool = [_scenario(sc) for sc in scenarios]
    return [sc for sc in pool if all(oracle_check(sc, p, mode=mode, **kwargs).all_passed for p in policies)]
