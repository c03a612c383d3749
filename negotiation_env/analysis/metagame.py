"""The empirical meta-game of a cross-play run: payoff matrix over policies, Nash averaging,
α-rank, regret against the meta-game equilibrium and replicator dynamics.

Reads traces only (through :func:`~negotiation_env.analysis.ratings.pair_games`, so the
games counted and left out are the ratings' own). OpenSpiel is imported only by the
functions that use it (the ``metagame`` extra; its α-rank module also imports matplotlib).

The meta-game
    A symmetric two-player game whose strategies are the policies. ``M[i, j]`` is the mean
    reward (``returns``, the seat's summed reward) of policy ``i`` in its games against
    policy ``j``, both seat orders pooled: a game of ``i`` against ``j`` adds ``i``'s reward
    to ``M[i, j]`` and ``j``'s to ``M[j, i]`` whichever seat each held. A self-play game adds
    both seats' rewards to ``M[i, i]``. ``counts[i, j]`` is the number of games in which
    ``i`` met ``j``. The game's payoff to the column player is ``M.T``.

    A cell with no game is NaN and is never filled: every computation that needs it
    refuses with a message naming the pairs. Nash averaging and α-rank (local selection
    model) use only the cells of distinct policies; the symmetric equilibrium, its regret
    and the replicator dynamics also use the self-play diagonal.

Nash averaging (Balduzzi et al. 2018)
    The antisymmetric advantage matrix ``A = M - M.T`` is a symmetric zero-sum game
    (value 0). ``p*`` is its maximum-entropy Nash equilibrium, which is unique and gives
    clones of a policy equal shares of what one copy would get; the rating of policy ``i``
    is ``(A @ p*)[i]``: its mean advantage against the equilibrium mix, 0 for every policy
    in the mix's support and negative for the rest.

α-rank (Omidshafiei et al. 2019)
    OpenSpiel's single-population α-rank on ``M`` (``payoff_tables=[M]``) with its local
    selection model and population size ``m`` (default 50, OpenSpiel's). ``alpha=None``
    picks the selection intensity with OpenSpiel's ``sweep_pi_vs_alpha`` (doubling α from
    1e-4 until the stationary distribution stops changing); the α used is reported.

Regret against the meta-game equilibrium
    ``x*`` is a symmetric Nash equilibrium of ``(M, M.T)``: the one with the highest
    equilibrium payoff ``v* = x*ᵀ M x*``, found as a mixed-integer program (Sandholm,
    Gilpin and Conitzer 2005) with HiGHS (``scipy.optimize.milp``). The regret of policy
    ``i`` is ``max_j (M x*)_j - (M x*)_i = v* - (M x*)_i``: what a player of ``i`` against
    the equilibrium mix gives up to the best response; zero on the support of ``x*``.
    Where several mixes reach ``v*``, HiGHS returns one of them; the table shows it.

Replicator dynamics
    OpenSpiel's single-population replicator (``open_spiel.python.egt.dynamics``) on
    ``M / (max M - min M)`` (so that time is in the same units for any reward scale),
    integrated from the uniform mix with ``scipy.integrate.solve_ivp`` (RK45 at tight
    tolerances); a trajectory that leaves the simplex by more than 1e-6 is refused.

Intervals
    Percentile bootstrap over the same common-random-number blocks as the ratings
    (:func:`~negotiation_env.analysis.ratings.crn_block`): within each pairing (self-play
    included) as many blocks as it has, drawn with replacement; each resample rebuilds
    ``M`` and recomputes the Nash-averaging ratings and the α-rank masses (at the α of the
    point estimate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from .ratings import MissingExtra, PairGame, block_resamples, crn_block, described_pair_games
from .tables import Table

__all__ = ["MetaGame", "metagame", "fit_metagame", "payoff_matrix", "missing_pairs", "max_entropy_nash",
           "nash_averaging", "symmetric_nash", "regret", "alpha_rank", "replicator_trajectory",
           "plot_replicator"]

_SUPPORT_TOL = 1e-7


def payoff_matrix(games: Sequence[PairGame], policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(M, counts)`` of :class:`PairGame` results over ``policies`` (module docstring):
    ``M[i, j]`` the mean reward of ``i`` against ``j`` (NaN where they never met),
    ``counts[i, j]`` the games in which they met."""
    index = {p: i for i, p in enumerate(policies)}
    k = len(policies)
    total, seats, counts = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k), dtype=int)
    for g in games:
        i, j = index[g.a], index[g.b]
        total[i, j] += g.payoff_a
        seats[i, j] += 1
        total[j, i] += g.payoff_b
        seats[j, i] += 1
        counts[i, j] += 1
        if i != j:
            counts[j, i] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(seats > 0, total / np.where(seats > 0, seats, 1), np.nan)
    return m, counts


def missing_pairs(payoff: np.ndarray, policies: Sequence[str], *, diagonal: bool = True) -> list[str]:
    """The pairs ``"a × b"`` whose cell of ``payoff`` is NaN (self-play cells only when
    ``diagonal``)."""
    k = len(policies)
    out = []
    for i in range(k):
        for j in range(i, k):
            if (i != j or diagonal) and (np.isnan(payoff[i, j]) or np.isnan(payoff[j, i])):
                out.append(f"{policies[i]} × {policies[j]}")
    return out


def _require(payoff: np.ndarray, what: str, policies: Sequence[str] | None, *, diagonal: bool) -> np.ndarray:
    """A checked copy of ``payoff`` (callers may overwrite its diagonal)."""
    m = np.array(payoff, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0:
        raise ValueError(f"{what} needs a non-empty square payoff matrix, got shape {m.shape}")
    names = list(policies) if policies is not None else [str(i) for i in range(len(m))]
    gaps = missing_pairs(m, names, diagonal=diagonal)
    if gaps:
        raise ValueError(f"{what} needs every {'' if diagonal else 'cross-play '}pairing played; "
                         f"never played: {', '.join(gaps)}")
    off = m.copy()
    if not diagonal:
        np.fill_diagonal(off, 0.0)
    if not np.isfinite(off).all():
        raise ValueError(f"{what} needs finite payoffs")
    return m


# -- Nash averaging ------------------------------------------------------------------------

def max_entropy_nash(game: np.ndarray) -> np.ndarray:
    """The maximum-entropy maximin strategy of the row player of the zero-sum game
    ``game`` (row payoff ``pᵀ game q``): among all equilibrium strategies, the one of
    highest Shannon entropy (unique: entropy is strictly concave on a convex set).

    OpenSpiel's ``nash_averaging`` solves this with cvxpy, which this package does not
    depend on; the same problem is three scipy steps: the game value ``v`` by a linear
    program; the strategies that some equilibrium plays (a linear program per strategy:
    the largest mass it gets in any equilibrium), the others fixed at 0; and entropy
    maximised over the equilibrium set ``{p : gameᵀ p >= v}`` of those strategies by
    SLSQP under the linear constraints, started from an interior point of the set."""
    from scipy.optimize import linprog, minimize

    g = np.asarray(game, dtype=float)
    if g.ndim != 2 or 0 in g.shape or not np.isfinite(g).all():
        raise ValueError("the game must be a non-empty matrix of finite payoffs")
    k, n = g.shape
    tol = 1e-9 * max(1.0, float(np.abs(g).max()))
    # value: maximise v subject to (gᵀ p)_j >= v, sum p = 1, p >= 0
    res = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-g.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(k), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * k + [(None, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"the game-value linear program failed: {res.message}")
    v = -res.fun
    a_ub, b_ub = -g.T, np.full(n, -(v - tol))
    best = np.zeros((k, k))
    for i in range(k):
        r = linprog(-np.eye(k)[i], A_ub=a_ub, b_ub=b_ub, A_eq=np.ones((1, k)), b_eq=[1.0],
                    bounds=[(0, None)] * k, method="highs")
        if r.status != 0:
            raise RuntimeError(f"the support linear program failed: {r.message}")
        best[i] = r.x
    support = np.flatnonzero(best[np.arange(k), np.arange(k)] > _SUPPORT_TOL)
    start = best[support].mean(axis=0)[support]
    start /= start.sum()
    if len(support) == 1:
        out = np.zeros(k)
        out[support] = 1.0
        return out
    gs = g[support]

    def neg_entropy(p):
        q = np.clip(p, 1e-300, None)
        return float(np.sum(q * np.log(q)))

    def grad(p):
        return np.log(np.clip(p, 1e-300, None)) + 1.0

    cons = [{"type": "eq", "fun": lambda p: np.sum(p) - 1.0, "jac": lambda p: np.ones_like(p)},
            {"type": "ineq", "fun": lambda p: gs.T @ p - (v - tol), "jac": lambda p: gs.T}]
    r = minimize(neg_entropy, start, jac=grad, constraints=cons, bounds=[(0.0, 1.0)] * len(support),
                 method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    if not r.success:
        raise RuntimeError(f"the maximum-entropy step failed: {r.message}")
    out = np.zeros(k)
    out[support] = np.clip(r.x, 0.0, None)
    return out / out.sum()


def nash_averaging(payoff: np.ndarray, policies: Sequence[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(p*, ratings)`` of Nash averaging on the meta-game ``payoff`` (module docstring):
    the maximum-entropy Nash mix of ``A = M - Mᵀ`` and ``A @ p*``."""
    m = _require(payoff, "Nash averaging", policies, diagonal=False)
    np.fill_diagonal(m, 0.0)
    adv = m - m.T
    p = max_entropy_nash(adv)
    return p, adv @ p


# -- symmetric equilibrium and regret ----------------------------------------------------

def symmetric_nash(payoff: np.ndarray, policies: Sequence[str] | None = None) -> tuple[np.ndarray, float]:
    """``(x*, v*)``: the symmetric Nash equilibrium of ``(M, Mᵀ)`` with the highest payoff
    (module docstring), by a mixed-integer program: ``x`` a mix, ``u = M x``, ``u_i <= v``
    for every ``i``, and a binary ``b_i`` per strategy with ``x_i <= 1 - b_i`` and
    ``v - u_i <= R b_i`` (``R`` the payoff range): a strategy played is a best response."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    m = _require(payoff, "the symmetric equilibrium", policies, diagonal=True)
    k = len(m)
    lo, hi = float(m.min()), float(m.max())
    big = max(hi - lo, 1e-12)
    # variables: x (k), b (k), v (1)
    eye, zero = np.eye(k), np.zeros((k, k))
    ones = np.ones((k, 1))
    rows = [
        (np.c_[np.ones((1, k)), np.zeros((1, k)), [[0.0]]], 1.0, 1.0),   # sum x = 1
        (np.c_[m, zero, -ones], -np.inf, 0.0),                           # (M x)_i - v <= 0
        (np.c_[-m, -big * eye, ones], -np.inf, 0.0),                     # v - (M x)_i <= R b_i
        (np.c_[eye, eye, np.zeros((k, 1))], -np.inf, 1.0),               # x_i + b_i <= 1
    ]
    cons = [LinearConstraint(a, lb, ub) for a, lb, ub in rows]
    c = np.r_[np.zeros(2 * k), -1.0]
    # presolve off: HiGHS's MIP presolve can write a debug line to stdout from C++, and
    # library code never prints; these programs are small enough to solve without it
    res = milp(c, constraints=cons, integrality=np.r_[np.zeros(k), np.ones(k), 0.0],
               bounds=Bounds(np.r_[np.zeros(2 * k), lo], np.r_[np.ones(2 * k), hi]), options={"presolve": False})
    if res.status != 0:
        raise RuntimeError(f"the symmetric-equilibrium program failed: {res.message}")
    x = np.clip(res.x[:k], 0.0, None)
    x /= x.sum()
    return x, float(x @ m @ x)


def regret(payoff: np.ndarray, mix: np.ndarray, policies: Sequence[str] | None = None) -> np.ndarray:
    """Per policy ``i``: ``max_j u(e_j, mix) - u(e_i, mix)`` with ``u(e_i, mix) = (M mix)_i``."""
    m = _require(payoff, "regret", policies, diagonal=True)
    u = m @ np.asarray(mix, dtype=float)
    return u.max() - u


# -- α-rank ---------------------------------------------------------------------------------

def alpha_rank(payoff: np.ndarray, policies: Sequence[str] | None = None, *, alpha: float | None = None,
               m: int = 50) -> tuple[np.ndarray, float]:
    """``(pi, alpha)``: OpenSpiel's single-population α-rank stationary distribution on
    ``payoff`` and the selection intensity used (``alpha=None``: OpenSpiel's sweep)."""
    mat = _require(payoff, "α-rank", policies, diagonal=False)
    np.fill_diagonal(mat, 0.0)  # the local selection model never reads the diagonal
    if alpha is not None and not (math.isfinite(alpha) and alpha > 0):
        raise ValueError(f"alpha must be a finite number > 0, got {alpha!r}")
    if int(m) != m or m < 2:
        raise ValueError(f"m (population size) must be an integer >= 2, got {m!r}")
    from open_spiel.python.egt import alpharank

    with np.errstate(over="ignore"):
        if alpha is None:
            try:
                pi, alpha = alpharank.sweep_pi_vs_alpha([mat], m=int(m), return_alpha=True)
            except (ValueError, IndexError, UnboundLocalError) as e:
                # the sweep fails this way when no α in its range gives a single stationary distribution
                raise ValueError(f"OpenSpiel's α sweep found no usable α ({e}); pass alpha") from e
        else:
            pi = alpharank.compute([mat], m=int(m), alpha=float(alpha))[2]
    pi = np.asarray(pi, dtype=float)
    if not np.isfinite(pi).all() or pi.min() < -1e-9:
        raise ValueError(f"α-rank at alpha={alpha} gave no stationary distribution (try a smaller alpha)")
    # the eigenvector solve leaves rounding-size negatives where a mass is 0
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum(), float(alpha)


# -- replicator dynamics ----------------------------------------------------------------------

def replicator_trajectory(payoff: np.ndarray, policies: Sequence[str] | None = None, *,
                          start: Sequence[float] | None = None, t_max: float = 50.0,
                          steps: int = 201) -> tuple[np.ndarray, np.ndarray]:
    """``(times, shares)``: single-population replicator dynamics on ``payoff`` scaled by
    its range (module docstring), from ``start`` (default the uniform mix); ``shares`` has
    one row per time, one column per policy."""
    from open_spiel.python.egt import dynamics
    from scipy.integrate import solve_ivp

    mat = _require(payoff, "the replicator dynamics", policies, diagonal=True)
    k = len(mat)
    x0 = np.full(k, 1.0 / k) if start is None else np.asarray(start, dtype=float)
    if x0.shape != (k,) or (x0 < 0).any() or not math.isclose(float(x0.sum()), 1.0, abs_tol=1e-9):
        raise ValueError(f"start must be a mix of {k} non-negative shares summing to 1")
    if not (t_max > 0 and steps >= 2):
        raise ValueError("t_max must be > 0 and steps >= 2")
    span = float(mat.max() - mat.min())
    scaled = mat / span if span > 0 else np.zeros_like(mat)
    field_ = dynamics.SinglePopulationDynamics(np.stack([scaled, scaled.T]), dynamics.replicator)
    times = np.linspace(0.0, t_max, steps)
    sol = solve_ivp(lambda t, x: field_(x), (0.0, t_max), x0, t_eval=times, rtol=1e-9, atol=1e-12)
    if not sol.success:
        raise RuntimeError(f"replicator integration failed: {sol.message}")
    shares = sol.y.T
    if np.abs(shares.sum(axis=1) - 1.0).max() > 1e-6 or shares.min() < -1e-6:
        raise RuntimeError("replicator integration left the simplex (shorten t_max)")
    return sol.t, shares


def plot_replicator(times: np.ndarray, shares: np.ndarray, policies: Sequence[str], path: str | Path) -> Path:
    """A PNG of the replicator trajectory: each policy's share against time (the ``report``
    extra: matplotlib)."""
    try:
        from matplotlib import colormaps
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("plot_replicator needs matplotlib: pip install 'negotiation_env[report]'") from e
    shares = np.asarray(shares)
    if shares.ndim != 2 or shares.shape[1] != len(policies) or len(times) != len(shares):
        raise ValueError("shares must have one row per time and one column per policy")
    fig = Figure(figsize=(8.0, 4.0))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    cmap = colormaps["tab20"]
    styles = ("-", "--", ":")
    for i, name in enumerate(policies):
        ax.plot(times, shares[:, i], label=name, color=cmap(i % 20), linestyle=styles[(i // 20) % 3])
    ax.set_xlabel("time (payoff range units)")
    ax.set_ylabel("population share")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Replicator dynamics")
    ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    return path


# -- the analysis --------------------------------------------------------------------------

@dataclass
class MetaGame:
    """A meta-game analysis. Arrays are indexed like ``policies``; an entry is None where
    its computation was refused (the reason is in ``notes``)."""
    policies: list[str]
    payoff: np.ndarray                      # M[i, j], NaN where never played
    counts: np.ndarray                      # games in which i met j
    advantage: np.ndarray                   # A = M - M.T (NaN where a cell is missing)
    nash_mix: np.ndarray | None             # maximum-entropy Nash of A
    nash_rating: np.ndarray | None          # A @ nash_mix
    alpharank: np.ndarray | None            # stationary distribution
    alpha: float | None
    m: int
    equilibrium: np.ndarray | None          # symmetric Nash of (M, M.T)
    equilibrium_payoff: float | None
    regret: np.ndarray | None
    times: np.ndarray | None
    trajectory: np.ndarray | None
    level: float
    n_resamples: int
    nash_rating_ci: np.ndarray | None = None    # (k, 2) bootstrap bounds
    alpharank_ci: np.ndarray | None = None
    comparison: str = ""
    left_out: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def alpharank_rank(self) -> list[int | None]:
        """Per policy, 1 + the number of policies with a larger α-rank mass (by more than
        1e-9): equal masses share a rank."""
        if self.alpharank is None:
            return [None] * len(self.policies)
        return [1 + int(np.sum(self.alpharank > x + 1e-9)) for x in self.alpharank]

    def alpharank_order(self) -> list[str]:
        """The policies by α-rank mass, highest first (ties in name order)."""
        if self.alpharank is None:
            return []
        order = sorted(range(len(self.policies)), key=lambda i: (-self.alpharank[i], self.policies[i]))
        return [self.policies[i] for i in order]

    def plot(self, path: str | Path) -> Path:
        """The replicator trajectory as a PNG (:func:`plot_replicator`)."""
        if self.trajectory is None:
            raise ValueError("no replicator trajectory: " + "; ".join(self.notes))
        return plot_replicator(self.times, self.trajectory, self.policies, path)

    def tables(self) -> list[Table]:
        """``metagame_payoff`` (M with game counts), ``metagame_ratings`` (one row per
        policy, by Nash-averaging rating) as report tables."""
        k = len(self.policies)
        pay_rows, pay_data = [], []
        for i, p in enumerate(self.policies):
            cells = [None if np.isnan(self.payoff[i, j]) else float(self.payoff[i, j]) for j in range(k)]
            pay_data.append([p, *cells, *[int(self.counts[i, j]) for j in range(k)]])
            pay_rows.append([p, *[("–" if c is None else f"{c:.2f}") + f" ({int(self.counts[i, j])})"
                                  for j, c in enumerate(cells)]])
        base = ["The row policy's mean reward against the column policy over usable games, both "
                "seat orders pooled (self-play: both seats); games in parentheses."]
        if self.comparison:
            base.append(f"A seat's reward per game, as the ratings compare it: {self.comparison}.")
        data = Table("metagame_payoff", "Meta-game payoff matrix", ["policy", *self.policies,
                     *[f"games vs {p}" for p in self.policies]], pay_data,
                     ["text"] + ["num"] * k + ["int"] * k)
        payoff = Table("metagame_payoff", "Meta-game payoff matrix (row vs column: mean reward)",
                       ["policy", *self.policies], pay_rows, ["text"] * (k + 1), notes=base, data=data)

        order = list(range(k))
        if self.nash_rating is not None:
            order.sort(key=lambda i: (-self.nash_rating[i], self.policies[i]))
        arank = self.alpharank_rank()
        pct = f"{round(100 * self.level)}%"
        rows = []
        for i in order:
            def at(a):
                return None if a is None else float(a[i])

            def ci(a):
                return None if a is None else (float(a[i, 0]), float(a[i, 1]))
            rows.append([self.policies[i], at(self.nash_rating), ci(self.nash_rating_ci), at(self.nash_mix),
                         at(self.alpharank), ci(self.alpharank_ci), arank[i],
                         at(self.equilibrium), at(self.regret)])
        notes = ["Nash rating: mean advantage (A = M − Mᵀ) against the maximum-entropy Nash mix of A "
                 "(Nash averaging); Nash mass: that mix."]
        if self.alpha is not None:
            notes.append(f"α-rank: OpenSpiel single-population, local selection model, m = {self.m}, "
                         f"α = {self.alpha:.4g}.")
        if self.equilibrium_payoff is not None:
            notes.append(f"Equilibrium: the symmetric Nash equilibrium of the meta-game with the highest payoff "
                         f"({self.equilibrium_payoff:.2f}); regret: best-response payoff against it minus the "
                         "policy's own.")
        if self.n_resamples:
            notes.append(f"Intervals: {pct} percentile bootstrap, {self.n_resamples} resamples of "
                         "common-random-number blocks within each pairing.")
        else:
            notes.append("No intervals (no bootstrap resamples).")
        if self.left_out:
            notes.append(f"{len(self.left_out)} games left out (incomplete, errored, degraded or not pairwise).")
        notes.extend(self.notes)
        ratings = Table("metagame_ratings", "Meta-game: Nash averaging, α-rank and regret",
                        ["policy", "Nash rating", f"Nash rating {pct}", "Nash mass", "α-rank mass",
                         f"α-rank mass {pct}", "α-rank", "equilibrium mass", "regret"], rows,
                        ["text", "num", "ci", "num", "num", "ci", "int", "num", "num"], notes=notes)
        return [payoff, ratings]


def _resample(games: Sequence[PairGame], policies: Sequence[str], n: int, seed: int,
              stat: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap draws of ``stat(M)`` over the games' blocks within each pairing."""
    k = len(policies)
    first, second = np.empty((n, k)), np.empty((n, k))
    for r, sample in enumerate(block_resamples(games, n, seed)):
        first[r], second[r] = stat(payoff_matrix(sample, policies)[0])
    return first, second


def require_openspiel() -> None:
    """Raise :class:`~.ratings.MissingExtra` naming the extra when OpenSpiel is not installed."""
    import importlib.util

    if importlib.util.find_spec("open_spiel") is None:
        raise MissingExtra("the meta-game analysis needs OpenSpiel (α-rank, replicator dynamics): "
                           "pip install 'negotiation_env[metagame]'")


def fit_metagame(games: Sequence[PairGame], *, alpha: float | None = None, m: int = 50, level: float = 0.9,
                 n_resamples: int = 0, seed: int = 0, comparison: str = "", left_out: Sequence[str] = (),
                 t_max: float = 50.0) -> MetaGame:
    """The meta-game analysis of :class:`PairGame` results (module docstring). Each
    computation whose cells are missing is refused with a note naming the pairs."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if n_resamples < 0:
        raise ValueError(f"n_resamples must be >= 0, got {n_resamples!r}")
    if alpha is not None and not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and alpha > 0):
        raise ValueError(f"alpha must be a finite number > 0 or None, got {alpha!r}")
    if not isinstance(m, int) or m < 2:
        raise ValueError(f"m (α-rank population size) must be an integer >= 2, got {m!r}")
    require_openspiel()
    policies = sorted({g.a for g in games} | {g.b for g in games})
    if len(policies) < 2:
        raise ValueError("a meta-game needs games of at least two different policies")
    pay, counts = payoff_matrix(games, policies)
    with np.errstate(invalid="ignore"):
        adv = pay - pay.T
    notes: list[str] = []
    nash_mix = nash_rating = pi = eq = eq_v = reg = times = traj = None
    try:
        nash_mix, nash_rating = nash_averaging(pay, policies)
    except ValueError as e:
        notes.append(f"Nash averaging refused: {e}.")
    try:
        pi, alpha = alpha_rank(pay, policies, alpha=alpha, m=m)
    except ValueError as e:
        notes.append(f"α-rank refused: {e}.")
    try:
        eq, eq_v = symmetric_nash(pay, policies)
        reg = regret(pay, eq, policies)
        times, traj = replicator_trajectory(pay, policies, t_max=t_max)
    except ValueError as e:
        notes.append(f"Equilibrium, regret and replicator dynamics refused: {e}.")
    rating_ci = pi_ci = None
    if n_resamples and nash_rating is not None and pi is not None:
        fixed_alpha = alpha

        def stat(mat):
            return nash_averaging(mat)[1], alpha_rank(mat, alpha=fixed_alpha, m=m)[0]
        r_draws, pi_draws = _resample(games, policies, n_resamples, seed, stat)
        q = [(1.0 - level) / 2.0, 1.0 - (1.0 - level) / 2.0]
        rating_ci = np.quantile(r_draws, q, axis=0).T
        pi_ci = np.quantile(pi_draws, q, axis=0).T
    return MetaGame(policies, pay, counts, adv, nash_mix, nash_rating, pi, alpha if pi is not None else None, m,
                    eq, eq_v, reg, times, traj, level, n_resamples if rating_ci is not None else 0,
                    rating_ci, pi_ci, comparison, list(left_out), notes)


def metagame(traces: Iterable[Any], *, game: str | None = None, alpha: float | None = None, m: int = 50,
             level: float = 0.9, n_resamples: int = 0, seed: int = 0,
             block: Callable[[Mapping[str, Any]], Hashable] = crn_block, t_max: float = 50.0) -> MetaGame:
    """The meta-game of the policies in ``traces``: of one ``game``, or pooled over every
    two-seat game when ``game`` is None (the games of
    :func:`~negotiation_env.analysis.ratings.pair_games`)."""
    games, left, desc = described_pair_games(traces, game, block=block)
    if not games:
        raise ValueError("no usable two-seat games for a meta-game" + (f" ({len(left)} left out)" if left else ""))
    return fit_metagame(games, alpha=alpha, m=m, level=level, n_resamples=n_resamples, seed=seed,
                        comparison=desc, left_out=left, t_max=t_max)
