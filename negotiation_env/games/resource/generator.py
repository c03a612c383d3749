"""Scenario generation by simulated annealing (paper 000, section 3.1).

:func:`generate` builds a resource-game scenario whose compatibility ratio M/C lies
in a band (``band=(lo, hi)``, or ``ratio`` +- ``tolerance`` when no band is given),
starting from random projects (``n_projects`` per agent) and annealing over three kinds
of move:

* **requirement**: one project's units of one resource go up or down by one, or the
  project starts or stops needing a resource (it always needs 1 to
  ``min(3, max_types, #resources)`` of them);
* **reward**: one project's reward per run moves by 1 to 3 (integers in
  ``1..max_reward``);
* **swap**: a project of agent_a and a project of agent_b trade owners (each agent keeps
  ``n_projects``).

The loss is a weighted sum of six terms, each zero exactly when its constraint holds
and positive otherwise (``_evaluate``):

=================  ======================================================================
ratio              ``max(0, lo - M/C, M/C - hi)`` for the band ``[lo, hi]``
equal maxima       ``|V_a - V_b| / max(V_a, V_b)`` (must be 0: V_a = V_b exactly)
equal split        see below; 0 when the joint optima favour neither agent
multiple optima    0 when at least two joint-optimal allocations exist, else
                   ``(M - M_2) / M`` with M_2 the best joint value below M (1 if none)
affordability      the number of projects that cannot be run once alone: one run must
                   cost at most the budget, need at most the supply of each resource and
                   at most ``max_types`` resource types
distinct projects  the number of pairs of identical projects (same requirements and
                   reward) held by one agent; such twins would make "several joint
                   optima" trivially true by splitting runs between them
=================  ======================================================================

**Equal split** (the paper's swap fairness: "the joint optimum can favor either agent
equally"). A joint-optimal allocation is a pair of run vectors (x_a, x_b) with combined
usage within supply and joint reward M; agent i's *share* in it is
``reward_i . x_i``. The scenario has an equal optimal split when the set of share pairs
``(share_a, share_b)`` over all joint optima is symmetric under swapping the agents:
for every joint optimum paying (s, M - s) another pays (M - s, s). Then whatever a joint
optimum gives one agent, another gives the other, and neither agent is structurally
favoured (a single optimum paying M/2 each satisfies it). The weaker reading "some
optimum gives agent_a at least agent_b's share, and some gives agent_b at least
agent_a's" lets the best optimal share differ between the agents (e.g. optima paying
(14, 22) and (21, 15)); the symmetric one does not. Its loss term: the mean over joint
optima of ``min over optima' |share_a - share_b'| / M``, the distance from each
optimum's split to the nearest swapped one.

Only candidates with loss exactly 0 are accepted, and each is re-verified by
:func:`~negotiation_env.games.resource.solver.solve` (``method="enumerate"``, which lists
every joint optimum) through :func:`verify` before it is returned; a candidate that fails
there is counted as rejected and the search goes on. The search restarts from fresh
random projects when the best loss has not improved for ``patience`` moves or the cooling
schedule runs out, and gives up (:class:`GenerationError`) after ``max_iters`` moves in all.

:func:`generate_paper_pool` builds the shipped pool: :data:`PAPER_POOL` scenarios per
level in the bands of :data:`PAPER_BANDS` (Appendix C.2), all distinct.

Why not ``scipy.optimize.dual_annealing``: it anneals over a continuous box with
gradient-based local search, while the state here is discrete and structured (which
resources a project needs, integer units and rewards, which agent owns which project),
so the moves above and the Metropolis loop are written directly over a
``numpy.random.Generator``.

Randomness comes only from ``np.random.default_rng(seed)``: the same arguments give the
same scenario on every run, and no global random state is read or written.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .scenario import AGENTS, Resource, Scenario, ScenarioError
from .solver import Solution, run_vectors, solve

__all__ = [
    "APPENDIX_C_RESOURCES",
    "GenerationError",
    "GenerationResult",
    "LOSS_WEIGHTS",
    "PAPER_BANDS",
    "PAPER_POOL",
    "PAPER_POOL_SEED",
    "equal_split",
    "generate",
    "generate_paper_pool",
    "generate_pool",
    "generate_with_stats",
    "optimal_splits",
    "scenario_key",
    "verify",
    "write_scenario",
]

#: The Appendix C environment: resource id -> supply and unit cost (budget 18, 2 types).
APPENDIX_C_RESOURCES: dict[str, dict[str, float]] = {
    "r1": {"supply": 10, "cost": 1.0},
    "r2": {"supply": 10, "cost": 1.5},
    "r3": {"supply": 6, "cost": 3.0},
}

#: The M/C band of each level of the paper's pool (Appendix C.2 lists 0.50-0.54,
#: 0.80-0.83 and 1.00), closed intervals.
PAPER_BANDS: dict[float, tuple[float, float]] = {0.5: (0.50, 0.54), 0.8: (0.80, 0.83), 1.0: (1.0, 1.0)}

#: How many scenarios the paper's pool holds per level (Appendix C.2).
PAPER_POOL: dict[float, int] = {0.5: 4, 0.8: 5, 1.0: 6}

#: The pool seed the shipped scenarios were generated from (:func:`generate_paper_pool`).
PAPER_POOL_SEED = 0

#: Weights of the loss terms (see the module docstring).
LOSS_WEIGHTS: dict[str, float] = {
    "ratio": 4.0,
    "equal_maxima": 2.0,
    "equal_split": 1.0,
    "multiple_optima": 1.0,
    "affordability": 1.0,
    "distinct_projects": 1.0,
}

_TOL = 1e-6  # values are sums of integer rewards; this only guards float noise
_MOVES = ("requirement", "reward", "swap")
_MOVE_P = (0.5, 0.3, 0.2)


class GenerationError(RuntimeError):
    """The annealer ran out of iterations without an accepted scenario."""


@dataclass(frozen=True)
class GenerationResult:
    """A generated scenario, its verified solution, and how the search went."""

    scenario: Scenario
    solution: Solution
    seed: int
    target_ratio: float
    tolerance: float
    iterations: int  # moves evaluated, all restarts together (the initial states included)
    restarts: int  # fresh random starts after the first
    rejected: int  # zero-loss candidates that failed re-verification by solve(); in generate_pool,
    #               also the duplicates dropped just before this scenario
    loss: float  # loss of the returned scenario: always 0.0
    seconds: float  # wall time (the only field that varies between identical runs)
    loss_terms: dict[str, float] = field(default_factory=dict)
    band: tuple[float, float] | None = None  # the M/C band searched (None: ratio +- tolerance)
    #: the keyword arguments of generate_with_stats beyond what the scenario itself holds
    #: (its resources, budget and max_types) and its name: with ratio and seed they
    #: regenerate the scenario exactly
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def meta(self) -> dict[str, Any]:
        """The ``meta`` block written next to the scenario in a JSON file."""
        sol = self.solution
        lo, hi = self.band if self.band is not None else (self.target_ratio - self.tolerance,
                                                          self.target_ratio + self.tolerance)
        return {
            "target_ratio": self.target_ratio,
            "ratio": round(sol.ratio, 4),
            "individual_max": {a: float(v) for a, v in sol.individual_max.items()},
            "joint_max": float(sol.joint_max),
            "n_joint_optima": sol.n_joint_optima,
            "optimal_splits": [list(p) for p in optimal_splits(self.scenario, sol)],
            "generator_seed": self.seed,
            "generator_params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()},
            "iterations": self.iterations,
            "restarts": self.restarts,
            "origin": (
                "simulated annealing (negotiation_env.games.resource.generator.generate_with_stats, "
                f"seed {self.seed}): random projects perturbed by requirement, reward and swap moves "
                f"until M/C is in [{lo:g}, {hi:g}], V_a = V_b, the joint optima's splits are "
                "symmetric between the agents (equal optimal split), at least two joint optima "
                "exist, every project is individually affordable and no agent holds two identical "
                "projects; verified by the solver"
            ),
        }

    def to_json_dict(self) -> dict[str, Any]:
        """The scenario as written to a file: :meth:`Scenario.to_dict` plus :attr:`meta`."""
        d = self.scenario.to_dict()
        d["meta"] = self.meta
        return d


# --------------------------------------------------------------------------- argument checks

def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) and math.isfinite(v)


def _check_ratio(ratio: Any, tolerance: Any) -> tuple[float, float]:
    if not _is_number(ratio) or not 0 < ratio <= 1:
        raise ValueError(f"ratio must be a number in (0, 1], got {ratio!r}")
    if not _is_number(tolerance) or tolerance <= 0:
        raise ValueError(f"tolerance must be a positive number, got {tolerance!r}")
    if ratio + tolerance < 0.5:
        raise ValueError(
            f"ratio {ratio!r} with tolerance {tolerance!r} is unreachable: with V_a = V_b the ratio "
            "M/C is at least 0.5 (one agent alone already earns its V), so ratio + tolerance must be >= 0.5"
        )
    return float(ratio), float(tolerance)


def _check_band(band: Any) -> tuple[float, float] | None:
    """``None``, or a band ``(lo, hi)`` with ``0 < lo <= hi <= 1`` and ``hi >= 0.5``."""
    if band is None:
        return None
    if (isinstance(band, (str, bytes)) or not isinstance(band, Sequence) or len(band) != 2
            or not all(_is_number(v) for v in band)):
        raise ValueError(f"band must be None or a pair (lo, hi) of numbers, got {band!r}")
    lo, hi = float(band[0]), float(band[1])
    if not 0 < lo <= hi <= 1:
        raise ValueError(f"band must satisfy 0 < lo <= hi <= 1, got {band!r}")
    if hi < 0.5:
        raise ValueError(
            f"band {band!r} is unreachable: with V_a = V_b the ratio M/C is at least 0.5 "
            "(one agent alone already earns its V), so hi must be >= 0.5"
        )
    return lo, hi


def _in_band(ratio: float, lo: float, hi: float) -> bool:
    # M/C is a quotient of integer sums: a band edge like 0.83 equals 83/100 computed in
    # floating point, so the comparison needs no slack beyond float noise
    return lo - 1e-12 <= ratio <= hi + 1e-12


def _check_resources(resources: Any) -> tuple[Resource, ...]:
    if resources is None:
        resources = APPENDIX_C_RESOURCES
    if isinstance(resources, Mapping):
        spec = dict(resources)
    elif isinstance(resources, Sequence) and not isinstance(resources, (str, bytes)) and all(
        isinstance(r, Resource) for r in resources
    ):
        spec = {r.id: {"supply": r.supply, "cost": r.cost} for r in resources}
    else:
        raise ValueError(
            "resources must be a mapping of resource id -> {'supply': int, 'cost': float} "
            f"or a sequence of Resource, got {type(resources).__name__}"
        )
    stub = {
        "name": "stub",
        "resources": spec,
        "budget": 1,
        "max_types": 1,
        "projects": {a: {"p": {"requires": {next(iter(spec), "x"): 1}, "reward": 1}} for a in AGENTS},
    }
    try:
        sc = Scenario.from_dict(stub, source="resources")
    except ScenarioError as e:
        raise ValueError(f"resources: {e}") from None
    if all(r.supply == 0 for r in sc.resources):
        raise ValueError("resources: every supply is 0, so no project could ever run")
    return sc.resources


def _check_args(ratio, seed, n_projects, resources, budget, max_types, tolerance, max_iters,
                name, max_units, max_reward, patience, band=None) -> dict[str, Any]:
    ratio, tolerance = _check_ratio(ratio, tolerance)
    band = _check_band(band)
    if not _is_int(seed) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not _is_int(n_projects) or n_projects < 1:
        raise ValueError(f"n_projects must be an integer >= 1, got {n_projects!r}")
    if n_projects > 26:
        raise ValueError(f"n_projects must be at most 26 (projects are named project_a .. project_z), got {n_projects!r}")
    res = _check_resources(resources)
    if not _is_number(budget) or budget <= 0:
        raise ValueError(f"budget must be a positive finite number, got {budget!r}")
    if not any(r.supply >= 1 and r.cost <= budget + 1e-9 for r in res):
        raise ValueError(f"budget {budget!r} buys no unit of any resource in supply, so no project could ever run "
                         "(joint optimum 0); raise the budget or lower the costs")
    if not _is_int(max_types) or not 1 <= max_types <= len(res):
        raise ValueError(f"max_types must be an integer between 1 and {len(res)} (the number of resources), got {max_types!r}")
    if not _is_int(max_iters) or max_iters < 1:
        raise ValueError(f"max_iters must be an integer >= 1, got {max_iters!r}")
    if not _is_int(max_units) or max_units < 1:
        raise ValueError(f"max_units must be an integer >= 1, got {max_units!r}")
    if not _is_int(max_reward) or max_reward < 1:
        raise ValueError(f"max_reward must be an integer >= 1, got {max_reward!r}")
    if not _is_int(patience) or patience < 1:
        raise ValueError(f"patience must be an integer >= 1, got {patience!r}")
    if name is not None:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"name must be a non-empty string or None, got {name!r}")
        try:
            _build(name, res, budget, max_types, np.ones((2, 1, len(res)), np.int64), np.ones((2, 1), np.int64))
        except ScenarioError as e:
            raise ValueError(f"name: {e}") from None
    return dict(
        ratio=ratio, seed=int(seed), n_projects=int(n_projects), resources=res,
        budget=int(budget) if float(budget).is_integer() else float(budget), max_types=int(max_types),
        tolerance=tolerance, max_iters=int(max_iters), name=name, max_units=int(max_units),
        max_reward=int(max_reward), patience=int(patience), band=band,
    )


def default_name(ratio: float, seed: int) -> str:
    """``gen_mc080_s7`` for ratio 0.8 and seed 7."""
    return f"gen_mc{round(ratio * 100):03d}_s{seed}"


def _project_names(n: int) -> list[str]:
    return [f"project_{chr(ord('a') + i)}" for i in range(n)]


def _build(name, resources, budget, max_types, R, rew) -> Scenario:
    """Scenario from requirement tensor R [2 x P x nR] and rewards [2 x P] (validated)."""
    names = _project_names(R.shape[1])
    d = {
        "name": name,
        "resources": {r.id: {"supply": r.supply, "cost": r.cost} for r in resources},
        "budget": budget,
        "max_types": max_types,
        "projects": {
            agent: {
                names[j]: {
                    "requires": {r.id: int(R[i, j, k]) for k, r in enumerate(resources) if R[i, j, k] > 0},
                    "reward": int(rew[i, j]),
                }
                for j in range(R.shape[1])
            }
            for i, agent in enumerate(AGENTS)
        },
    }
    return Scenario.from_dict(d, source="generated scenario")


# --------------------------------------------------------------------------- evaluation

class _Env:
    """The fixed part of a scenario as arrays."""

    def __init__(self, resources: tuple[Resource, ...], budget: float, max_types: int):
        self.supply = np.array([r.supply for r in resources], dtype=np.int64)
        self.cost = np.array([r.cost for r in resources], dtype=float)
        self.budget = float(budget)
        self.max_types = max_types
        self.n_res = len(resources)

    def affordable(self, req: np.ndarray) -> bool:
        """One run of a project alone fits the budget, the supply and the type limit."""
        return (
            bool(np.any(req > 0))
            and float(self.cost @ req) <= self.budget + 1e-9
            and bool(np.all(req <= self.supply))
            and int(np.count_nonzero(req)) <= self.max_types
        )

    def options(self, R: np.ndarray, rew: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every run vector one agent can afford alone (the solver's enumeration)."""
        return run_vectors(R, rew, self.supply, self.cost, self.budget, self.max_types)


@dataclass
class _Eval:
    loss: float
    terms: dict[str, float]


def _evaluate(env: _Env, R: np.ndarray, rew: np.ndarray, target: float, tolerance: float,
              cache: dict | None = None, band: tuple[float, float] | None = None) -> _Eval:
    """The composite loss of state (R, rew); see the module docstring."""
    terms = dict.fromkeys(LOSS_WEIGHTS, 0.0)
    P = R.shape[1]
    terms["affordability"] = float(sum(not env.affordable(R[i, j]) for i in range(2) for j in range(P)))
    terms["distinct_projects"] = float(sum(
        rew[i, j] == rew[i, k] and np.array_equal(R[i, j], R[i, k])
        for i in range(2) for j in range(P) for k in range(j + 1, P)
    ))
    opts = []
    for i in range(2):
        key = (R[i].tobytes(), rew[i].tobytes())
        got = cache.get(key) if cache is not None else None
        if got is None:
            got = env.options(R[i], rew[i].astype(float))
            if cache is not None:
                if len(cache) > 50_000:
                    cache.clear()
                cache[key] = got
        opts.append(got)
    (_, ua, va), (_, ub, vb) = opts
    Va, Vb = float(va.max()), float(vb.max())
    if Va <= 0 or Vb <= 0:  # some agent can run nothing: everything else is meaningless
        terms["ratio"] = 0.5
        terms["equal_maxima"] = 1.0 if max(Va, Vb) > 0 else 0.0
        terms["equal_split"] = 1.0
        terms["multiple_optima"] = 1.0
        return _Eval(sum(LOSS_WEIGHTS[k] * v for k, v in terms.items()), terms)
    ok = np.all(ua[:, None, :] + ub[None, :, :] <= env.supply, axis=2)
    val = np.where(ok, va[:, None] + vb[None, :], -np.inf)
    M = float(val.max())
    ratio = M / (Va + Vb)
    if band is None:
        terms["ratio"] = max(0.0, abs(ratio - target) - tolerance)
    elif not _in_band(ratio, *band):
        terms["ratio"] = max(band[0] - ratio, ratio - band[1])
    terms["equal_maxima"] = abs(Va - Vb) / max(Va, Vb)
    opt = val >= M - _TOL
    ii, jj = np.nonzero(opt)
    sa, sb = va[ii], vb[jj]
    # each optimum's distance to the nearest optimum with the shares swapped: sa_i + sb_i =
    # M for every optimum, so |sa_i - sb_j| = 0 exactly when optimum j pays (sb_i, sa_i)
    gap = np.min(np.abs(sa[:, None] - sb[None, :]), axis=1)
    gap[gap <= _TOL] = 0.0
    terms["equal_split"] = float(gap.mean()) / M
    if len(ii) < 2:
        rest = val[~opt]
        rest = rest[np.isfinite(rest)]
        terms["multiple_optima"] = (M - float(rest.max())) / M if rest.size else 1.0
    loss = sum(LOSS_WEIGHTS[k] * v for k, v in terms.items())
    return _Eval(loss, terms)


# --------------------------------------------------------------------------- verification

def _share(scenario: Scenario, agent: str, runs: Iterable[tuple[str, int]]) -> float:
    reward = {p.name: p.reward for p in scenario.projects_of(agent)}
    return float(sum(reward[p] * n for p, n in runs))


def optimal_splits(scenario: Scenario, solution: Solution) -> list[tuple[float, float]]:
    """The distinct ``(share_a, share_b)`` pairs the joint optima pay, sorted
    (``solution`` must come from ``solve(scenario, "enumerate")``, which lists them all)."""
    if solution.joint_optima is None:
        raise ValueError("optimal_splits needs a solution from solve(scenario, 'enumerate') (every joint optimum)")
    a, b = scenario.agents
    return sorted({(_share(scenario, a, ra), _share(scenario, b, rb)) for ra, rb in solution.joint_optima})


def equal_split(scenario: Scenario, solution: Solution) -> bool:
    """The scenario's optimal split is equal for both agents: the set of joint optima's
    share pairs is symmetric under swapping the agents, so for every joint optimum paying
    (s, M - s) another pays (M - s, s) (``solution`` from ``solve(scenario, "enumerate")``).
    The paper's swap fairness, "the joint optimum can favor either agent equally"."""
    splits = optimal_splits(scenario, solution)
    return all(any(abs(x - y2) <= _TOL and abs(y - x2) <= _TOL for x2, y2 in splits) for x, y in splits)


def verify(scenario: Scenario, ratio: float, tolerance: float = 0.05,
           band: tuple[float, float] | None = None) -> tuple[Solution, list[str]]:
    """Solve ``scenario`` exactly and list every generator constraint it breaks (empty: all
    hold). M/C must lie in ``band`` when given, else within ``tolerance`` of ``ratio``."""
    sol = solve(scenario, "enumerate")
    a, b = scenario.agents
    problems = []
    if sol.joint_max <= 0:
        problems.append(f"scenario {scenario.name!r}: joint optimum M is 0 (no project can ever run)")
    if band is None:
        if not abs(sol.ratio - ratio) <= tolerance:
            problems.append(f"M/C = {sol.ratio:.4f} is not within {tolerance} of {ratio}")
    elif not _in_band(sol.ratio, *band):
        problems.append(f"M/C = {sol.ratio:.4f} is not in [{band[0]:g}, {band[1]:g}]")
    if sol.individual_max[a] != sol.individual_max[b]:
        problems.append(f"V_a = {sol.individual_max[a]:g} differs from V_b = {sol.individual_max[b]:g}")
    if not equal_split(scenario, sol):
        problems.append(f"no equal optimal split: the joint optima pay {optimal_splits(scenario, sol)}, "
                        "not symmetric between the agents")
    if sol.n_joint_optima < 2:
        problems.append(f"only {sol.n_joint_optima} joint-optimal allocation")
    supply = {r.id: r.supply for r in scenario.resources}
    for agent in scenario.agents:
        for p in scenario.projects_of(agent):
            cost = sum(scenario.resource(rid).cost * u for rid, u in p.requires)
            if cost > scenario.budget + 1e-9 or any(u > supply[rid] for rid, u in p.requires) or len(
                p.requires
            ) > scenario.max_types:
                problems.append(f"{agent}.{p.name} cannot be run once alone")
        specs = [(dict(p.requires), p.reward) for p in scenario.projects_of(agent)]
        if any(specs[j] == specs[k] for j in range(len(specs)) for k in range(j + 1, len(specs))):
            problems.append(f"{agent} has two identical projects")
    return sol, problems


# --------------------------------------------------------------------------- annealing

def _random_project(rng: np.random.Generator, env: _Env, kmax: int, max_units: int, max_reward: int):
    req = np.zeros(env.n_res, dtype=np.int64)
    for _ in range(100):  # start from an affordable project when one is easy to find
        req[:] = 0
        k = int(rng.integers(1, kmax + 1))
        idx = rng.choice(env.n_res, size=k, replace=False)
        req[idx] = rng.integers(1, max_units + 1, size=k)
        if env.affordable(req):
            break
    return req, int(rng.integers(1, max_reward + 1))


def _random_state(rng, env, P, kmax, max_units, max_reward):
    R = np.zeros((2, P, env.n_res), dtype=np.int64)
    rew = np.zeros((2, P), dtype=np.int64)
    for i in range(2):
        for j in range(P):
            R[i, j], rew[i, j] = _random_project(rng, env, kmax, max_units, max_reward)
    return R, rew


def _propose(rng, R, rew, kmax, max_units, max_reward):
    R = R.copy()
    rew = rew.copy()
    P, nR = R.shape[1], R.shape[2]
    move = _MOVES[int(rng.choice(3, p=_MOVE_P))]
    if move == "requirement":
        i, j, k = int(rng.integers(2)), int(rng.integers(P)), int(rng.integers(nR))
        req = R[i, j]
        used = int(np.count_nonzero(req))
        if req[k] > 0 and rng.random() < 0.8:  # change the units of a needed resource
            step = 1 if req[k] == 1 else (-1 if req[k] == max_units else int(rng.choice((-1, 1))))
            if max_units > 1:
                req[k] += step
            elif used > 1:
                req[k] = 0
        elif req[k] > 0:  # stop needing it; when it is the only one, its units move elsewhere
            if used == 1 and nR > 1:
                other = int(rng.choice([x for x in range(nR) if x != k]))
                req[other] = req[k]
            if used > 1 or nR > 1:
                req[k] = 0
        else:  # start needing k; at the type cap, it replaces a needed resource
            if used >= kmax:
                drop = int(rng.choice(np.nonzero(req)[0]))
                req[drop] = 0
            req[k] = int(rng.integers(1, max_units + 1))
    elif move == "reward":
        i, j = int(rng.integers(2)), int(rng.integers(P))
        delta = int(rng.integers(1, 4)) * (1 if rng.random() < 0.5 else -1)
        rew[i, j] = min(max_reward, max(1, rew[i, j] + delta))
    else:
        ja, jb = int(rng.integers(P)), int(rng.integers(P))
        R[0, ja], R[1, jb] = R[1, jb].copy(), R[0, ja].copy()
        rew[0, ja], rew[1, jb] = rew[1, jb], rew[0, ja]
    return R, rew


def generate_with_stats(
    ratio: float = 0.8,
    seed: int = 0,
    *,
    n_projects: int = 3,
    resources: Mapping[str, Mapping[str, float]] | Sequence[Resource] | None = None,
    budget: float = 18,
    max_types: int = 2,
    tolerance: float = 0.05,
    max_iters: int = 200_000,
    name: str | None = None,
    max_units: int = 5,
    max_reward: int = 20,
    patience: int = 1_500,
    t0: float = 0.3,
    t_end: float = 0.003,
    schedule: int = 6_000,
    band: tuple[float, float] | None = None,
) -> GenerationResult:
    """Like :func:`generate`, but returns the scenario with its solution and search statistics.

    Extra knobs: ``band`` (``(lo, hi)``: M/C must lie in ``[lo, hi]``, replacing ``ratio``
    +- ``tolerance``; ``ratio`` then only names the level, see :data:`PAPER_BANDS`),
    ``max_units`` (most units of one resource per run), ``max_reward`` (largest reward per
    run), ``patience`` (moves without improving the best loss before a restart), and the
    cooling schedule: temperature ``t0`` decays geometrically to ``t_end`` over
    ``schedule`` moves, then the search restarts.
    """
    a = _check_args(ratio, seed, n_projects, resources, budget, max_types, tolerance, max_iters,
                    name, max_units, max_reward, patience, band)
    for key, v in (("t0", t0), ("t_end", t_end)):
        if not _is_number(v) or v <= 0:
            raise ValueError(f"{key} must be a positive number, got {v!r}")
    if not _is_int(schedule) or schedule < 1:
        raise ValueError(f"schedule must be an integer >= 1, got {schedule!r}")
    ratio, tolerance, seed, band = a["ratio"], a["tolerance"], a["seed"], a["band"]
    params = dict(band=band, tolerance=tolerance, n_projects=a["n_projects"], max_units=a["max_units"],
                  max_reward=a["max_reward"], patience=a["patience"], t0=float(t0), t_end=float(t_end),
                  schedule=int(schedule), max_iters=a["max_iters"])
    name = a["name"] or default_name(ratio, seed)
    env = _Env(a["resources"], a["budget"], a["max_types"])
    P = a["n_projects"]
    kmax = min(3, a["max_types"], env.n_res)
    mu, mr = a["max_units"], a["max_reward"]
    cool = (t_end / t0) ** (1.0 / schedule)

    rng = np.random.default_rng(seed)
    cache: dict = {}
    started = time.perf_counter()
    iterations = restarts = rejected = 0
    best_loss = math.inf
    best_terms: dict[str, float] = {}
    while True:
        R, rew = _random_state(rng, env, P, kmax, mu, mr)
        cur = _evaluate(env, R, rew, ratio, tolerance, cache, band)
        iterations += 1
        run_best = cur.loss
        since = 0
        T = float(t0)
        for _step in range(schedule + 1):
            if cur.loss == 0.0:
                sc = _build(name, a["resources"], a["budget"], a["max_types"], R, rew)
                sol, problems = verify(sc, ratio, tolerance, band)
                if not problems:
                    return GenerationResult(
                        scenario=sc, solution=sol, seed=seed, target_ratio=ratio, tolerance=tolerance,
                        iterations=iterations, restarts=restarts, rejected=rejected, loss=0.0,
                        seconds=time.perf_counter() - started, loss_terms=dict(cur.terms),
                        band=band, params=params,
                    )
                rejected += 1  # pragma: no cover - the evaluator and the solver agree
                cur = _Eval(math.inf, cur.terms)  # pragma: no cover
            if iterations >= a["max_iters"] or since >= a["patience"]:
                break
            R2, rew2 = _propose(rng, R, rew, kmax, mu, mr)
            new = _evaluate(env, R2, rew2, ratio, tolerance, cache, band)
            iterations += 1
            d = new.loss - cur.loss
            if d <= 0 or rng.random() < math.exp(-d / T):
                R, rew, cur = R2, rew2, new
            if cur.loss < run_best - 1e-12:
                run_best = cur.loss
                since = 0
            else:
                since += 1
            if cur.loss < best_loss:
                best_loss, best_terms = cur.loss, dict(cur.terms)
            T *= cool
        if iterations >= a["max_iters"]:
            failing = ", ".join(f"{k} {v:.3g}" for k, v in best_terms.items() if v > 0) or "none"
            where = f"within {tolerance} of {ratio}" if band is None else f"in [{band[0]:g}, {band[1]:g}]"
            raise GenerationError(
                f"no scenario with M/C {where} found in max_iters={a['max_iters']} "
                f"moves ({restarts} restarts, {rejected} rejected); best loss {best_loss:.4g} "
                f"(terms still > 0: {failing}); raise max_iters or relax the constraints"
            )
        restarts += 1


def generate(ratio: float = 0.8, seed: int = 0, **kw: Any) -> Scenario:
    """A scenario with ``|M/C - ratio| <= tolerance`` (or M/C in ``band``) found by
    simulated annealing: the ``scenario`` of :func:`generate_with_stats`, which takes the
    same arguments and documents them (``n_projects``, ``resources``, ``budget``,
    ``max_types``, ``tolerance``, ``band``, ``max_iters``, ``name``, ...).

    The returned scenario also has V_a = V_b, an equal optimal split (:func:`equal_split`),
    at least two joint-optimal allocations and only individually affordable projects, all
    checked by :func:`verify` (the exact solver). Deterministic in ``seed``. Raises
    ``ValueError`` on bad arguments (the message names the argument) and
    :class:`GenerationError` when ``max_iters`` moves find nothing.
    """
    return generate_with_stats(ratio, seed, **kw).scenario


def scenario_key(scenario: Scenario) -> tuple:
    """Identity of a scenario's game, ignoring its name, the order of each agent's projects,
    project names and which agent is called agent_a: two scenarios with the same key are
    the same game (possibly with roles swapped)."""
    env = (tuple((r.id, r.supply, r.cost) for r in scenario.resources), scenario.budget, scenario.max_types)
    sides = [
        tuple(sorted((tuple(sorted(p.requires)), p.reward) for p in scenario.projects_of(agent)))
        for agent in scenario.agents
    ]
    return (env, min(tuple(sides), tuple(reversed(sides))))


def generate_pool(
    ratio: float,
    n: int,
    seed: int = 0,
    *,
    prefix: str | None = None,
    start: int = 1,
    exclude: Iterable[Scenario] = (),
    progress: Callable[[int, int, GenerationResult], None] | None = None,
    max_attempts: int | None = None,
    **kw: Any,
) -> list[tuple[Scenario, GenerationResult]]:
    """``n`` distinct scenarios at one level, as (scenario, result) pairs.

    The i-th attempt runs :func:`generate_with_stats` with a seed drawn from
    ``np.random.default_rng(seed)`` (recorded in ``result.seed``, so
    ``generate(ratio, result.seed, name=...)`` reproduces that scenario alone). A
    candidate whose :func:`scenario_key` equals an earlier one's, or one in ``exclude``,
    is dropped and counted in the last result's ``rejected``. Names are
    ``f"{prefix}{start + k}"`` (default prefix ``mc080_g`` for ratio 0.8).
    ``progress(done, n, result)`` is called after each accepted scenario. Gives up with
    :class:`GenerationError` after ``max_attempts`` (default ``20 * n``) attempts.
    """
    if not _is_int(n) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {n!r}")
    if not _is_int(seed) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not _is_int(start) or start < 0:
        raise ValueError(f"start must be a non-negative integer, got {start!r}")
    if "name" in kw or "seed" in kw:
        raise ValueError("generate_pool names and seeds the scenarios itself: use prefix and seed")
    ratio_f, _ = _check_ratio(ratio, kw.get("tolerance", 0.05))
    _check_band(kw.get("band"))
    if prefix is None:
        prefix = f"mc{round(ratio_f * 100):03d}_g"
    if not isinstance(prefix, str):
        raise ValueError(f"prefix must be a string, got {prefix!r}")
    if max_attempts is None:
        max_attempts = 20 * n
    if not _is_int(max_attempts) or max_attempts < n:
        raise ValueError(f"max_attempts must be an integer >= n ({n}), got {max_attempts!r}")
    seen = {scenario_key(s) for s in exclude}
    rng = np.random.default_rng(seed)
    out: list[tuple[Scenario, GenerationResult]] = []
    pending_rejects = 0
    attempts = 0
    while len(out) < n:
        if attempts >= max_attempts:
            raise GenerationError(
                f"only {len(out)} distinct scenarios of {n} after {attempts} attempts "
                "(the others were duplicates); raise max_attempts or change the constraints"
            )
        attempts += 1
        s = int(rng.integers(0, 2**31 - 1))
        res = generate_with_stats(ratio, s, name=f"{prefix}{start + len(out)}", **kw)
        key = scenario_key(res.scenario)
        if key in seen:
            pending_rejects += 1 + res.rejected
            continue
        seen.add(key)
        if pending_rejects:
            res = replace(res, rejected=res.rejected + pending_rejects)
            pending_rejects = 0
        out.append((res.scenario, res))
        if progress is not None:
            progress(len(out), n, res)
    return out


def generate_paper_pool(
    seed: int = PAPER_POOL_SEED,
    *,
    progress: Callable[[int, int, GenerationResult], None] | None = None,
    **kw: Any,
) -> list[tuple[Scenario, GenerationResult]]:
    """The paper's pool (Appendix C.2): for each level of :data:`PAPER_POOL`, that many
    distinct scenarios with M/C in the level's :data:`PAPER_BANDS` band, named
    ``mc050_1..4``, ``mc080_1..5`` and ``mc100_1..6``, on the Appendix C environment.

    Each level runs :func:`generate_pool` with pool seed ``seed`` (the bands differ, so the
    levels' scenarios do too); no scenario repeats another of any level. ``kw`` goes to
    :func:`generate_pool` (the annealer's knobs); ``progress(done, total, result)`` counts
    over the whole pool. With the default seed and knobs this rebuilds the shipped files
    exactly (``negotiation-env scenarios pool``).
    """
    if not _is_int(seed) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    for key in ("band", "prefix", "start", "exclude", "name"):
        if key in kw:
            raise ValueError(f"generate_paper_pool sets {key} itself")
    total = sum(PAPER_POOL.values())
    out: list[tuple[Scenario, GenerationResult]] = []
    for level, n in PAPER_POOL.items():
        done = len(out)
        tick = None if progress is None else (lambda i, _n, res, done=done: progress(done + i, total, res))
        out += generate_pool(level, n, seed, prefix=f"mc{round(level * 100):03d}_", start=1,
                             band=PAPER_BANDS[level], exclude=[s for s, _ in out], progress=tick, **kw)
    return out


def write_scenario(result: GenerationResult, path: str | Path, **extra_meta: Any) -> Path:
    """Write ``result`` as a scenario JSON file (the shipped files' layout: indent 2, a
    ``meta`` block, trailing newline); ``extra_meta`` entries are added to the meta block."""
    d = result.to_json_dict()
    d["meta"].update(extra_meta)
    from ...storage import write_text  # whole or not at all: a temporary name, renamed when complete

    return write_text(path, json.dumps(d, indent=2) + "\n")
