"""Exact solver of the resource game: individual maxima V_i, joint maximum M, ratio M/C.

An agent's useful decisions are its run vectors: buying exactly what the runs consume is
never worse than buying more (unspent money and leftovers are worth nothing, and extra
units only risk an overdraw). So the solver works over run vectors x_i with
usage u_i = R_i x_i and

* V_i = max reward_i . x_i  s.t. cost . u_i <= budget, |supp(u_i)| <= max_types, u_i <= supply
* M   = max sum_i reward_i . x_i  s.t. each agent's constraints and u_1 + u_2 <= supply
* ratio = M / (V_1 + V_2)

Two exact methods. ``enumerate`` lists every feasible run vector per agent (expanded
project by project, pruned by budget, supply and type limit) and pairs them with numpy, which also yields
every joint-optimal allocation. ``milp`` solves the same integer programme with
scipy.optimize.milp (HiGHS, zero gap tolerance): it scales to large scenarios where
pairing blows up, and returns one joint optimum. ``auto`` enumerates while the pairing
is small and switches to the ILP otherwise.

Bounds. Each expansion step of the enumeration computes the size of the arrays it is
about to build (the candidates: rows so far x (runs of the next project + 1) x resources;
the survivors: rows x (projects + resources)) and refuses past
:data:`ENUMERATION_CELLS` (under 130 MB at the peak) *before* allocating them: ``auto``
then solves by the ILP, ``enumerate`` and :func:`feasible_run_vectors` raise
:class:`~.scenario.ScenarioTooLarge` naming the bound, and :func:`individual_best` asks
the ILP for one agent. (Sixty one-unit projects sharing a 100-unit resource would drive
the enumeration to gigabytes; the ILP solves them at once: figures on the benchmarks
page.) The ILP runs under
:data:`MILP_TIME_LIMIT` seconds; without a proven optimum by then the scenario is refused
the same way. The load checks of :mod:`.scenario` keep the ILP small (at most 2 x (64 + 32)
variables).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field

import numpy as np

from .scenario import Scenario, ScenarioTooLarge

__all__ = ["Solution", "solve", "run_vectors", "purchase_vectors", "feasible_run_vectors", "individual_best",
           "ENUMERATION_CELLS",
           "MILP_TIME_LIMIT"]

_PAIR_LIMIT = 4_000_000  # option pairs the enumerator will score before switching to the ILP
#: the largest array one enumeration step may build, in cells: the candidates (rows x run
#: counts x resources) and the survivors (rows x (projects + resources)); 32 MB of int64
#: each, under 130 MB at the peak with their temporaries (tracemalloc, worst shape found).
#: The shipped scenarios need under 1,000.
ENUMERATION_CELLS = 4_000_000
#: seconds HiGHS may take to prove an optimum
MILP_TIME_LIMIT = 60.0
_TOL = 1e-6


@dataclass(frozen=True)
class Solution:
    joint_max: float
    individual_max: dict[str, float]
    ratio: float
    method: str
    # one joint-optimal allocation: agent -> {project: runs}
    joint_allocation: dict[str, dict[str, int]]
    # agent -> {project: runs} achieving V_i
    individual_allocation: dict[str, dict[str, int]]
    # number of distinct joint-optimal (runs_a, runs_b) pairs; None when the ILP was used
    n_joint_optima: int | None
    joint_optima: tuple[tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]], ...] | None = field(
        default=None, repr=False
    )

    @property
    def C(self) -> float:
        return sum(self.individual_max.values())


# --------------------------------------------------------------------------- enumeration

def _agent_arrays(scenario: Scenario, agent: str):
    R = np.array(scenario.requirement_matrix(agent), dtype=np.int64)  # projects x resources
    rew = np.array([p.reward for p in scenario.projects_of(agent)], dtype=float)
    return R, rew


def run_vectors(
    R: np.ndarray, rew: np.ndarray, supply: np.ndarray, cost: np.ndarray, budget: float, max_types: int,
    *, max_cells: int = ENUMERATION_CELLS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every run vector one agent can afford alone, from arrays: (runs [n x P],
    usage [n x nR], value [n]), the all-zero vector first, rows in lexicographic order
    of (runs of project 0, runs of project 1, ...).

    Feasibility (budget, supply, type limit) is monotone in each project's runs, so
    expanding project by project and dropping infeasible rows is exact; numpy does each
    expansion at once (the generator calls this in its inner loop). A step whose array
    would hold more than ``max_cells`` cells raises :class:`~.scenario.ScenarioTooLarge`
    before it is built.
    """
    R = np.asarray(R, dtype=np.int64)
    supply = np.asarray(supply, dtype=np.int64)
    cost = np.asarray(cost, dtype=float)
    P, nR = R.shape
    runs = np.zeros((1, P), dtype=np.int64)
    use = np.zeros((1, nR), dtype=np.int64)
    for i in range(P):
        r = R[i]
        need = r > 0
        if not need.any():
            continue
        cap = int(np.min(supply[need] // r[need]))
        per_cost = float(cost @ r)
        if per_cost > 0:
            affordable = budget / per_cost + 1e-9  # inf for a tiny cost: then the supply bounds
            if affordable < cap:
                cap = int(math.floor(affordable))
        if cap <= 0:
            continue
        # both arrays a step builds are sized before they exist: the candidates, then the survivors
        _bound(len(runs) * (cap + 1) * nR, max_cells, i,
               f"{len(runs):,} vectors so far x {cap + 1} run counts x {nR} resources")
        ks = np.arange(cap + 1, dtype=np.int64)
        new_use = use[:, None, :] + ks[None, :, None] * r[None, None, :]  # n x (cap+1) x nR
        ok = (
            (new_use @ cost <= budget + 1e-9)
            & np.all(new_use <= supply, axis=2)
            & (np.count_nonzero(new_use, axis=2) <= max_types)
        )
        rows, cols = np.nonzero(ok)
        _bound(len(rows) * (P + nR), max_cells, i, f"{len(rows):,} vectors x ({P} projects + {nR} resources)")
        runs = runs[rows]  # fancy indexing copies
        runs[:, i] = ks[cols]
        use = new_use[rows, cols]
    return runs, use, runs @ np.asarray(rew, dtype=float)


def purchase_vectors(supply: np.ndarray, cost: np.ndarray, budget: float, max_types: int, *,
                     max_cells: int = ENUMERATION_CELLS) -> np.ndarray:
    """Every purchase one agent may make within budget, supply and type limit, as an
    array [n x resources] in lexicographic order (the empty purchase first), whether or
    not any project uses it: the legal purchases the strict answer format admits with
    the runs left to the engine (:mod:`.answer_schema`). They are the run vectors of one
    one-unit project per resource (:func:`run_vectors` with the identity as requirements:
    the same pruning, caps and ``max_cells`` bound, whose
    :class:`~.scenario.ScenarioTooLarge` says it was enumerating purchases)."""
    n = len(supply)
    try:
        runs = run_vectors(np.eye(n, dtype=np.int64), np.zeros(n), supply, cost, budget, max_types,
                           max_cells=max_cells)[0]
    except ScenarioTooLarge as e:
        raise ScenarioTooLarge(f"purchases (one-unit projects, one per resource): {e}") from None
    return runs


def _bound(cells: int, max_cells: int, project: int, shape: str) -> None:
    if cells > max_cells:
        raise ScenarioTooLarge(f"enumerating the run vectors needs an array of {cells:,} cells at project {project} "
                               f"({shape}); the bound is {max_cells:,} (solver.ENUMERATION_CELLS)")


#: scenarios whose solution and run vectors a process keeps (functools.lru_cache, keyed
#: by the frozen Scenario's value: a policy that rebuilds the scenario from its
#: observation every turn finds the same entry)
SOLVER_CACHE_SIZE = 512


def feasible_run_vectors(scenario: Scenario, agent: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every run vector the agent can afford alone: (runs [n x P], usage [n x R], value [n]),
    the all-zero vector included (see :func:`run_vectors`). Raises
    :class:`~.scenario.ScenarioTooLarge` past :data:`ENUMERATION_CELLS`.

    Computed once per (scenario, agent) and process; each call returns fresh copies of
    the arrays, so a caller may change them."""
    runs, use, value = _feasible_run_vectors(scenario, agent)
    return runs.copy(), use.copy(), value.copy()


@functools.lru_cache(maxsize=SOLVER_CACHE_SIZE)
def _feasible_run_vectors(scenario: Scenario, agent: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    R, rew = _agent_arrays(scenario, agent)
    supply = np.array([r.supply for r in scenario.resources], dtype=np.int64)
    cost = np.array([r.cost for r in scenario.resources], dtype=float)
    try:
        return run_vectors(R, rew, supply, cost, float(scenario.budget), scenario.max_types)
    except ScenarioTooLarge as e:
        raise ScenarioTooLarge(f"scenario {scenario.name!r}, {agent}: {e}") from None


def _runs_tuple(scenario: Scenario, agent: str, vec) -> tuple[tuple[str, int], ...]:
    return tuple((p.name, int(n)) for p, n in zip(scenario.projects_of(agent), vec))


def _solve_enumerate(scenario: Scenario, options) -> Solution:
    a, b = scenario.agents
    supply = np.array([r.supply for r in scenario.resources], dtype=np.int64)
    (ra, ua, va), (rb, ub, vb) = options[a], options[b]
    ind = {a: float(va.max()), b: float(vb.max())}
    ind_alloc = {
        a: dict(_runs_tuple(scenario, a, ra[int(va.argmax())])),
        b: dict(_runs_tuple(scenario, b, rb[int(vb.argmax())])),
    }
    best = -math.inf
    pairs: list[tuple[int, int]] = []
    chunk = max(1, _PAIR_LIMIT // 8 // max(1, len(ub)))
    for start in range(0, len(ua), chunk):
        block = ua[start : start + chunk]
        ok = np.all(block[:, None, :] + ub[None, :, :] <= supply, axis=2)
        val = np.where(ok, va[start : start + chunk, None] + vb[None, :], -math.inf)
        m = float(val.max())
        if m > best + _TOL:
            best = m
            pairs = []
        if m >= best - _TOL:
            ii, jj = np.nonzero(val >= best - _TOL)
            pairs.extend(zip((ii + start).tolist(), jj.tolist()))
    optima = tuple((_runs_tuple(scenario, a, ra[i]), _runs_tuple(scenario, b, rb[j])) for i, j in pairs)
    i0, j0 = pairs[0]
    C = ind[a] + ind[b]
    return Solution(
        joint_max=best,
        individual_max=ind,
        ratio=best / C if C > 0 else 1.0,
        method="enumerate",
        joint_allocation={a: dict(optima[0][0]), b: dict(optima[0][1])},
        individual_allocation=ind_alloc,
        n_joint_optima=len(optima),
        joint_optima=optima,
    )


# --------------------------------------------------------------------------- ILP

def _milp(scenario: Scenario, agents: tuple[str, ...]) -> tuple[float, dict[str, dict[str, int]]]:
    """max sum reward.x over the given agents (1 = individual, 2 = joint) with HiGHS.

    Variables per agent: x (runs, integer), y (resource used, binary). Constraints per
    agent: budget, usage <= cap_r * y_r, sum y <= max_types; shared: total usage <= supply.
    """
    # imported here, not at module load: scipy.optimize is about half a second of every
    # process's start-up (each runner worker), and most games never need the ILP
    from scipy.optimize import Bounds, LinearConstraint, milp

    res = scenario.resources
    nR = len(res)
    supply = np.array([r.supply for r in res], dtype=float)
    cost = np.array([r.cost for r in res], dtype=float)
    cap = np.minimum(supply, np.floor(scenario.budget / cost + 1e-9))
    blocks = [_agent_arrays(scenario, ag) for ag in agents]
    sizes = [R.shape[0] + nR for R, _ in blocks]
    nvar = sum(sizes)
    c = np.zeros(nvar)
    integrality = np.ones(nvar)
    ub = np.zeros(nvar)
    rows, lo, hi = [], [], []
    shared = np.zeros((nR, nvar))
    off = 0
    for (R, rew) in blocks:
        P = R.shape[0]
        xs = slice(off, off + P)
        ys = slice(off + P, off + P + nR)
        c[xs] = -rew
        # per-project upper bound on runs: the tightest resource it needs
        with np.errstate(divide="ignore"):
            per = np.where(R > 0, cap[None, :] // np.maximum(R, 1), np.inf).min(axis=1)
        ub[xs] = per
        ub[ys] = 1
        row = np.zeros(nvar)
        row[xs] = cost @ R.T
        rows.append(row); lo.append(-np.inf); hi.append(float(scenario.budget) + 1e-9)
        for r in range(nR):
            row = np.zeros(nvar)
            row[xs] = R[:, r]
            row[off + P + r] = -cap[r]
            rows.append(row); lo.append(-np.inf); hi.append(0.0)
            shared[r, xs] = R[:, r]
        row = np.zeros(nvar)
        row[ys] = 1
        rows.append(row); lo.append(-np.inf); hi.append(scenario.max_types)
        off += P + nR
    for r in range(nR):
        rows.append(shared[r]); lo.append(-np.inf); hi.append(supply[r])
    result = milp(
        c,
        constraints=LinearConstraint(np.array(rows), np.array(lo), np.array(hi)),
        integrality=integrality,
        bounds=Bounds(np.zeros(nvar), ub),
        options={"mip_rel_gap": 0.0, "presolve": True, "time_limit": MILP_TIME_LIMIT},
    )
    if result.status == 1:  # the time limit: no proven optimum, so no number
        raise ScenarioTooLarge(f"scenario {scenario.name!r}: the integer programme found no proven optimum within "
                               f"{MILP_TIME_LIMIT:g} s (solver.MILP_TIME_LIMIT)")
    if not result.success:  # pragma: no cover - the zero vector is always feasible
        raise RuntimeError(f"milp failed: {result.message}")
    x = np.round(result.x).astype(np.int64)
    alloc = {}
    off = 0
    for ag, (R, rew), size in zip(agents, blocks, sizes):
        alloc[ag] = dict(_runs_tuple(scenario, ag, x[off : off + R.shape[0]]))
        off += size
    value = sum(
        p.reward * alloc[ag][p.name] for ag in agents for p in scenario.projects_of(ag)
    )
    return float(value), alloc


def _solve_milp(scenario: Scenario) -> Solution:
    a, b = scenario.agents
    va, alloc_a = _milp(scenario, (a,))
    vb, alloc_b = _milp(scenario, (b,))
    m, joint = _milp(scenario, (a, b))
    C = va + vb
    return Solution(
        joint_max=m,
        individual_max={a: va, b: vb},
        ratio=m / C if C > 0 else 1.0,
        method="milp",
        joint_allocation=joint,
        individual_allocation={a: alloc_a[a], b: alloc_b[b]},
        n_joint_optima=None,
    )


def solve(scenario: Scenario, method: str = "auto") -> Solution:
    """Exact V_i, M and M/C of a scenario. ``method``: ``auto``, ``enumerate`` or ``milp``.

    Solved once per (scenario, method) and process; each call returns its own copy (the
    Solution's dicts included), so a caller may change it."""
    if method not in ("auto", "enumerate", "milp"):
        raise ValueError(f"method must be 'auto', 'enumerate' or 'milp', got {method!r}")
    return _copy_solution(_solve(scenario, method))


def _copy_solution(sol: Solution) -> Solution:
    return dataclasses.replace(
        sol, individual_max=dict(sol.individual_max),
        joint_allocation={a: dict(r) for a, r in sol.joint_allocation.items()},
        individual_allocation={a: dict(r) for a, r in sol.individual_allocation.items()},
    )


@functools.lru_cache(maxsize=SOLVER_CACHE_SIZE)
def _solve(scenario: Scenario, method: str) -> Solution:
    if method == "milp":
        return _solve_milp(scenario)
    try:
        options = {ag: feasible_run_vectors(scenario, ag) for ag in scenario.agents}
    except ScenarioTooLarge:
        if method == "enumerate":
            raise
        return _solve_milp(scenario)  # refused before allocating: the ILP needs no enumeration
    n_pairs = math.prod(len(o[0]) for o in options.values())
    if method == "auto" and n_pairs > _PAIR_LIMIT:
        return _solve_milp(scenario)
    return _solve_enumerate(scenario, options)


def individual_best(scenario: Scenario, agent: str) -> tuple[dict[str, int], dict[str, int]]:
    """The agent's individual optimum as (purchase, runs): what the ``heuristic`` fallback
    and a greedy agent submit. Ties go to the first run vector in enumeration order; past
    the enumeration bound the ILP gives one optimum."""
    try:
        runs_arr, _, values = feasible_run_vectors(scenario, agent)
    except ScenarioTooLarge:
        runs = _milp(scenario, (agent,))[1][agent]
    else:
        runs = dict(_runs_tuple(scenario, agent, runs_arr[int(values.argmax())]))
    use = {rid: 0 for rid in scenario.resource_ids}
    for p in scenario.projects_of(agent):
        for rid, units in p.requires:
            use[rid] += units * runs[p.name]
    return use, runs
