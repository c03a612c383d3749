"""Outcome space of a resource round: achievable reward pairs, Pareto frontier, Nash and
Kalai–Smorodinsky points, and where a round's outcome lies among them.

**Achievable outcomes.** A round pays a pair ``(reward_a, reward_b)``. Without an
overdraw each agent earns ``reward . x`` for the runs ``x`` its purchase pays
(:mod:`.rules`); the runs use at most what was bought, so they are a run vector the agent
can afford alone (budget, supply, type limit) and the two usages fit the supply together.
Conversely every such pair of run vectors is paid by buying exactly its usage and
declaring its runs. So the achievable pairs are exactly

    {(reward_a . x_a, reward_b . x_b) : x_i feasible for agent i alone (see
    :func:`~.solver.feasible_run_vectors`), usage(x_a) + usage(x_b) <= supply}

An overdraw annuls the round and pays ``(0, 0)``, which the pair of empty run vectors
(both agents buying nothing) pays too. The set is finite: outcomes are pure allocations,
no lotteries over them.

**Disagreement point** ``d = (0, 0)``: what an annulled round, or both agents buying
nothing, pays. Every agent can guarantee itself no more than 0 against an agent that
overdraws, so 0 is each agent's security level.

**Pareto frontier.** The achievable pairs that no achievable pair weakly dominates with
one strict improvement, in increasing ``reward_a`` (so decreasing ``reward_b``). Its
largest ``reward_a + reward_b`` is the joint optimum M of :func:`~.solver.solve`.

**Distance to the frontier.** The Euclidean distance from an outcome to the nearest
frontier point, in reward units; 0 exactly when the outcome is Pareto-optimal.

**Nash-bargaining point.** The achievable pair maximising the Nash product
``(reward_a - d_a)(reward_b - d_b)`` over pairs with both gains non-negative (over the
finite set: a dominated pair never has a larger product, so a maximiser on the frontier
always exists and only frontier points are returned). Ties go to the larger joint reward,
then the larger ``reward_a``; :attr:`OutcomeSpace.nash_points` lists every maximiser on
the frontier. When no pair gives both agents a positive gain the product is 0 everywhere
and there is no Nash point (``None``).

**Kalai–Smorodinsky point.** The ideal point ``I = (V_a, V_b)`` holds each agent's best
achievable reward (the other agent running nothing: the individual maxima of the solver).
On the segment from ``d`` to ``I``, the point ``d + t (I - d)`` is weakly dominated by
some achievable pair up to ``t* = max over pairs of min_i (reward_i - d_i) / (I_i - d_i)``;
the Kalai–Smorodinsky point is the achievable pair attaining ``t*`` (it weakly dominates
``d + t* (I - d)``, and is that point itself whenever the frontier crosses the segment at
an achievable pair). Ties go to the larger joint reward, then the larger ``reward_a``.
With an ideal coordinate equal to ``d`` (an agent can earn nothing) there is no such point
(``None``).

Sizes. Pairing the run vectors costs the product of the two agents' numbers of distinct
(usage, value) rows; past :data:`PAIR_LIMIT` pairs :func:`outcome_space` raises
:class:`~.scenario.ScenarioTooLarge`, as does the enumeration of run vectors past its own
bound. The shipped scenarios pair a few thousand rows.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

from .rules import RoundOutcome
from .scenario import Scenario, ScenarioTooLarge, check_playable
from .solver import SOLVER_CACHE_SIZE, feasible_run_vectors

__all__ = ["OutcomeSpace", "RoundMetrics", "RoundsSummary", "outcome_space", "round_metrics", "summarise_rounds",
           "DISAGREEMENT", "PAIR_LIMIT"]

#: the disagreement point: an annulled round, or both agents buying nothing
DISAGREEMENT = (0.0, 0.0)
#: run-vector pairs :func:`outcome_space` scores before refusing the scenario
PAIR_LIMIT = 4_000_000
#: absolute tolerance when matching an outcome to an achievable pair (reward units)
TOL = 1e-6
_CHUNK_CELLS = 500_000  # pair-matrix cells scored per numpy step


Point = tuple[float, float]


@dataclass(frozen=True)
class OutcomeSpace:
    """The achievable reward pairs of a scenario (see the module docstring for every term)."""

    agents: tuple[str, str]
    points: tuple[Point, ...]  # every achievable (reward_a, reward_b), sorted
    frontier: tuple[Point, ...]  # Pareto-optimal pairs, reward_a increasing
    ideal: Point  # (V_a, V_b)
    nash_product: float  # the largest (reward_a - d_a)(reward_b - d_b)
    nash_points: tuple[Point, ...]  # every frontier pair attaining it (empty when it is 0)
    nash_point: Point | None
    kalai_t: float | None  # t*: how far along d -> ideal the achievable pairs reach
    kalai_point: Point | None
    disagreement: Point = DISAGREEMENT

    @property
    def joint_max(self) -> float:
        """The largest reward_a + reward_b: the solver's M."""
        return max(a + b for a, b in self.frontier)

    def is_achievable(self, outcome: Point) -> bool:
        return _nearest(self.points, outcome)[1] <= TOL

    def is_pareto_optimal(self, outcome: Point) -> bool:
        """An achievable outcome no achievable pair improves for one agent without the other losing."""
        self._check_achievable(outcome)
        return _nearest(self.frontier, outcome)[1] <= TOL

    def distance_to_frontier(self, outcome: Point) -> float:
        """Euclidean distance from an achievable outcome to the nearest frontier pair (0 on it)."""
        self._check_achievable(outcome)
        d = _nearest(self.frontier, outcome)[1]
        return 0.0 if d <= TOL else d

    def nearest_frontier_point(self, outcome: Point) -> Point:
        self._check_achievable(outcome)
        return _nearest(self.frontier, outcome)[0]

    def _check_achievable(self, outcome: Point) -> None:
        if not self.is_achievable(outcome):
            raise ValueError(f"outcome {tuple(outcome)} is not an achievable reward pair {self.agents} of this "
                             f"scenario (ideal point {self.ideal}, joint optimum {self.joint_max:g})")


def _nearest(points: tuple[Point, ...], outcome: Point) -> tuple[Point, float]:
    arr = np.asarray(points, dtype=float)
    dist = np.hypot(arr[:, 0] - outcome[0], arr[:, 1] - outcome[1])
    i = int(dist.argmin())
    return points[i], float(dist[i])


def outcome_space(scenario: Scenario) -> OutcomeSpace:
    """The outcome space of ``scenario``: every achievable reward pair, its Pareto frontier,
    the ideal, Nash-bargaining and Kalai–Smorodinsky points. Computed once per scenario
    and process (the result is frozen). Raises :class:`~.scenario.ScenarioTooLarge` past
    :data:`PAIR_LIMIT` pairs or the solver's enumeration bound."""
    return _outcome_space(scenario)


def _distinct(scenario: Scenario, agent: str) -> tuple[np.ndarray, np.ndarray]:
    """The agent's distinct (usage, value) rows of its feasible run vectors."""
    _, use, value = feasible_run_vectors(scenario, agent)
    rows = np.unique(np.column_stack([use.astype(float), value]), axis=0)
    return rows[:, :-1].astype(np.int64), rows[:, -1]


@functools.lru_cache(maxsize=SOLVER_CACHE_SIZE)
def _outcome_space(scenario: Scenario) -> OutcomeSpace:
    a, b = scenario.agents
    supply = np.array([r.supply for r in scenario.resources], dtype=np.int64)
    ua, va = _distinct(scenario, a)
    ub, vb = _distinct(scenario, b)
    if len(ua) * len(ub) > PAIR_LIMIT:
        raise ScenarioTooLarge(f"scenario {scenario.name!r}: the outcome space pairs {len(ua):,} x {len(ub):,} "
                               f"(usage, value) rows; the bound is {PAIR_LIMIT:,} (outcome_space.PAIR_LIMIT)")
    vals_a, idx_a = np.unique(va, return_inverse=True)
    vals_b, idx_b = np.unique(vb, return_inverse=True)
    seen = np.zeros((len(vals_a), len(vals_b)), dtype=bool)
    chunk = max(1, _CHUNK_CELLS // max(1, len(ub) * len(supply)))
    for start in range(0, len(ua), chunk):
        ok = np.all(ua[start:start + chunk, None, :] + ub[None, :, :] <= supply, axis=2)
        ii, jj = np.nonzero(ok)
        seen[idx_a[ii + start], idx_b[jj]] = True
    ia, ib = np.nonzero(seen)
    points = tuple((float(vals_a[i]), float(vals_b[j])) for i, j in zip(ia, ib))  # sorted: row-major nonzero
    # frontier: for each reward_a (descending) the best reward_b, kept when it beats every larger reward_a's
    frontier: list[Point] = []
    best_b = -math.inf
    for i in range(len(vals_a) - 1, -1, -1):
        row = np.nonzero(seen[i])[0]
        if len(row) and vals_b[row[-1]] > best_b:
            best_b = float(vals_b[row[-1]])
            frontier.append((float(vals_a[i]), best_b))
    frontier.reverse()
    ideal = (float(vals_a[-1]), float(vals_b[-1]))
    da, db = DISAGREEMENT

    def tie_key(p: Point) -> tuple[float, float]:
        return (p[0] + p[1], p[0])

    products = [(x - da) * (y - db) for x, y in frontier]
    nash_product = max(products)
    nash_points = tuple(p for p, v in zip(frontier, products) if v == nash_product) if nash_product > 0 else ()
    nash_point = max(nash_points, key=tie_key) if nash_points else None
    if ideal[0] > da and ideal[1] > db:
        ts = [min((x - da) / (ideal[0] - da), (y - db) / (ideal[1] - db)) for x, y in frontier]
        kalai_t = max(ts)
        kalai_point = max((p for p, t in zip(frontier, ts) if t == kalai_t), key=tie_key)
    else:
        kalai_t, kalai_point = None, None
    return OutcomeSpace(
        agents=(a, b), points=points, frontier=tuple(frontier), ideal=ideal,
        nash_product=float(nash_product), nash_points=nash_points, nash_point=nash_point,
        kalai_t=None if kalai_t is None else float(kalai_t), kalai_point=kalai_point,
    )


@dataclass(frozen=True)
class RoundMetrics:
    """Where one round's outcome lies in its scenario's outcome space.

    ``nash_share`` is the outcome's Nash product over the largest one (1 at the Nash
    point, 0 for an annulled round; ``None`` when the scenario has no Nash point).
    ``efficiency`` is the joint reward over the joint optimum M. ``distance_to_kalai`` is
    the Euclidean distance from the outcome to the Kalai–Smorodinsky point, in reward
    units (``None`` when the scenario has none)."""

    outcome: Point
    pareto_optimal: bool
    distance_to_frontier: float
    nearest_frontier_point: Point
    nash_share: float | None
    efficiency: float
    nash_point: Point | None
    kalai_point: Point | None
    distance_to_kalai: float | None = None


def _outcome_pair(scenario: Scenario, rewards: Mapping[str, float] | RoundOutcome) -> Point:
    if isinstance(rewards, RoundOutcome):
        rewards = dict(rewards.rewards)
    if not isinstance(rewards, Mapping):
        raise TypeError(f"rewards must be a mapping agent -> reward or a RoundOutcome, got {type(rewards).__name__}")
    if set(rewards) != set(scenario.agents):
        raise ValueError(f"rewards must name exactly the agents {list(scenario.agents)}, got {sorted(rewards)}")
    pair = []
    for agent in scenario.agents:
        v = rewards[agent]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"reward of {agent} must be a finite number, got {v!r}")
        pair.append(float(v))
    return pair[0], pair[1]


def round_metrics(scenario: Scenario, rewards: Mapping[str, float] | RoundOutcome) -> RoundMetrics:
    """Pareto optimality, distance to the frontier, share of the Nash product and
    efficiency of one round's outcome (``rewards``: agent -> reward, or the
    :class:`~.rules.RoundOutcome`). Raises ``ValueError`` for an outcome the scenario
    cannot produce, :class:`~.scenario.UnplayableScenario` for a scenario whose joint
    optimum is 0 (no efficiency to report)."""
    space = outcome_space(check_playable(scenario))
    pair = _outcome_pair(scenario, rewards)
    da, db = space.disagreement
    share = None
    if space.nash_product > 0:
        share = max(0.0, (pair[0] - da) * (pair[1] - db)) / space.nash_product
    return RoundMetrics(
        outcome=pair,
        pareto_optimal=space.is_pareto_optimal(pair),
        distance_to_frontier=space.distance_to_frontier(pair),
        nearest_frontier_point=space.nearest_frontier_point(pair),
        nash_share=share,
        efficiency=(pair[0] + pair[1]) / space.joint_max,
        nash_point=space.nash_point,
        kalai_point=space.kalai_point,
        distance_to_kalai=None if space.kalai_point is None else math.hypot(
            pair[0] - space.kalai_point[0], pair[1] - space.kalai_point[1]),
    )


@dataclass(frozen=True)
class RoundsSummary:
    """Over ``rounds`` rounds: the share that were Pareto-optimal, the mean distance to the
    frontier, the mean share of the Nash product (over the rounds whose scenario has a
    Nash point, ``nash_rounds`` of them; ``None`` when none has) and the mean efficiency."""

    rounds: int
    pareto_optimal_share: float
    mean_distance_to_frontier: float
    nash_rounds: int
    mean_nash_share: float | None
    mean_efficiency: float


def summarise_rounds(metrics: Iterable[RoundMetrics]) -> RoundsSummary:
    """Aggregate :func:`round_metrics` results; raises ``ValueError`` for no rounds."""
    ms = list(metrics)
    if not ms:
        raise ValueError("summarise_rounds needs at least one round")
    shares = [m.nash_share for m in ms if m.nash_share is not None]
    return RoundsSummary(
        rounds=len(ms),
        pareto_optimal_share=sum(m.pareto_optimal for m in ms) / len(ms),
        mean_distance_to_frontier=sum(m.distance_to_frontier for m in ms) / len(ms),
        nash_rounds=len(shares),
        mean_nash_share=sum(shares) / len(shares) if shares else None,
        mean_efficiency=sum(m.efficiency for m in ms) / len(ms),
    )
