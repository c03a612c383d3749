"""Ratings of policies from cross-play traces: Bradley–Terry (Elo-scaled) with bootstrap
intervals, and win/draw/loss and mean-payoff matrices.

Reads traces only (dicts or :class:`~negotiation_env.traces.GameTrace`).

The comparison of one game
    A negotiation game is not won or lost, so each two-seat game is turned into one
    pairwise result by comparing the two seats' rewards in that game: ``returns[agent]``,
    the sum of every reward the seat received. Per game that is

    - ``resource``: each seat's total reward over the game's rounds against its partner's;
    - ``matrix``: each seat's summed payoff over the repeated stage game;
    - ``dond``: each seat's reward for the deal (zero for both when no deal is made);
    - any other two-seat game: the same reward-against-reward rule.

    The seat with the higher reward wins, equal rewards (within ``1e-9``) are a draw.
    A game with more than two seats (``rulemaking``: five parties) is not pairwise and is
    left out with a note, as are incomplete, errored and degraded games
    (:func:`~negotiation_env.analysis.cells.usable`). A policy is named by its seat label
    (:func:`~negotiation_env.analysis.cells.seat_label`). Self-play games count in the
    matrices and carry no information about a rating, so the fit skips them.

Bradley–Terry
    P(i beats j) = p_i / (p_i + p_j), fitted by Hunter's minorisation–maximisation with a
    draw as half a win to each side. ``prior`` adds that many virtual draws to every pair
    of policies that met, which keeps a rating finite when a policy never wins or never
    loses (the maximum-likelihood strength is then 0 or infinite); it shrinks towards
    equal strengths by ``prior`` games out of each pairing's count. Elo scale:
    ``400 / ln 10 * ln p_i``, shifted so that the mean rating is 1500, or the ``anchor``
    policy's rating is 1500.

Intervals
    Percentile bootstrap: each resample draws, within every pairing (the unordered pair of
    policies), as many blocks as the pairing has, with replacement, and refits. A block
    keeps common-random-number games together: for runner traces the games of one run
    cell (same run, cell and scenario) whose repetitions ``2k`` and ``2k + 1`` are the two
    seat orders of one draw (``swap_seats``); for traces without runner info, games with
    the same env seed. ``block`` replaces this key with a function of a trace.

OpenSkill, a second view
    :func:`openskill_ratings` plays the same two-policy games, self-play left out, through
    an online Bayesian rating (OpenSkill's Plackett–Luce model, or its Weng–Lin
    Bradley–Terry model): each game updates the two policies' ``mu`` and ``sigma`` in
    turn, a draw as a tie, and the ordinal ``mu - 3 sigma`` is a conservative rating. An
    online rating depends on the order of the games, so they are played in one fixed
    order (:func:`game_order`: by run id, cell, scenario, repetition, then game id); the
    Bradley–Terry fit, which no order changes, is the primary rating. OpenSkill is the
    ``ratings`` extra (``pip install 'negotiation_env[ratings]'``), imported only here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from .cells import as_dict, seat_label, usable
from .hooks import GameAnalysis, analysis_of

__all__ = ["PairGame", "Ratings", "pair_games", "crn_block", "bradley_terry", "elo_scale", "fit_ratings",
           "ratings", "comparison_of", "ELO_SCALE", "game_order", "OpenSkillRating", "openskill_ratings",
           "OPENSKILL_MODELS", "MissingExtra", "described_pair_games", "block_resamples"]

#: Elo points per unit of natural-log strength
ELO_SCALE = 400.0 / math.log(10.0)

def comparison_of(game: str) -> str:
    """What "winning" one game of ``game`` means, in words: its analysis hooks'
    ``rating_comparison`` (:class:`~.hooks.GameAnalysis`)."""
    return analysis_of(game).rating_comparison

_DRAW_TOL = 1e-9


@dataclass(frozen=True)
class PairGame:
    """One game as a pairwise result: policy ``a`` scored ``payoff_a``, ``b`` scored
    ``payoff_b``; ``block`` groups games that resample together; ``order`` is the game's
    place in the fixed order an online rating plays games in (:func:`game_order`)."""
    a: str
    b: str
    payoff_a: float
    payoff_b: float
    block: Hashable = None
    order: tuple = ()

    @property
    def score_a(self) -> float:
        """1 for a win of ``a``, 0.5 for a draw, 0 for a loss."""
        d = self.payoff_a - self.payoff_b
        return 0.5 if abs(d) <= _DRAW_TOL else (1.0 if d > 0 else 0.0)


def crn_block(trace: Mapping[str, Any]) -> Hashable:
    """The resampling block of a trace (see the module docstring)."""
    run = trace.get("run")
    if isinstance(run, Mapping) and isinstance(run.get("repetition"), int):
        return ("run", run.get("run_id"), run.get("cell"), trace.get("scenario"), run["repetition"] // 2)
    seed = (trace.get("seeds") or {}).get("env")
    if seed is None:
        return ("game", trace.get("game_id"))
    return ("env", trace.get("game"), trace.get("scenario"), seed)


def game_order(trace: Mapping[str, Any]) -> tuple[str, str, str, int, str]:
    """The sort key of a trace in the order an online rating plays games: run id, cell,
    scenario, repetition, game id (empty text and ``-1`` where a trace has none)."""
    run = trace.get("run") if isinstance(trace.get("run"), Mapping) else {}
    rep = run.get("repetition")
    return (str(run.get("run_id") or ""), str(run.get("cell") or ""), str(trace.get("scenario") or ""),
            rep if isinstance(rep, int) and not isinstance(rep, bool) else -1, str(trace.get("game_id") or ""))


def pair_games(traces: Iterable[Any], game: str | None = None, *,
               block: Callable[[Mapping[str, Any]], Hashable] = crn_block) -> tuple[list[PairGame], list[str]]:
    """Every usable two-seat game of ``traces`` (of ``game`` only, when given) as a
    :class:`PairGame`, and the games left out with why."""
    dicts = [as_dict(t) for t in traces]
    games = [game] if game is not None else sorted({str(d.get("game")) for d in dicts})
    out: list[PairGame] = []
    left: list[str] = []
    for g in games:
        keep, dropped = usable(dicts, g)
        left.extend(dropped)
        for d in keep:
            agents = list(d.get("agents") or [])
            if len(agents) != 2:
                left.append(f"{d.get('game_id')} (not pairwise: {len(agents)} seats)")
                continue
            returns = d.get("returns") or {}
            vals = [returns.get(a) for a in agents]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in vals):
                left.append(f"{d.get('game_id')} (no finite reward for every seat)")
                continue
            la, lb = (seat_label(d, a) for a in agents)
            out.append(PairGame(la, lb, float(vals[0]), float(vals[1]), block(d), game_order(d)))
    return out, left


def bradley_terry(wins: np.ndarray, *, tol: float = 1e-10, max_iter: int = 100_000) -> np.ndarray:
    """Bradley–Terry strengths (geometric mean 1) from ``wins[i, j]`` = wins of ``i`` over
    ``j`` (draws counted half to each), by Hunter's (2004) minorisation–maximisation.

    Written here rather than taken from ``choix``: the update is a few lines of numpy, and
    the bootstrap refits thousands of times from a warm start, which this loop does
    without a dependency. Raises ``ValueError`` when a policy has no win or no loss
    (its maximum-likelihood strength is 0 or infinite): pass a ``prior``."""
    w = np.asarray(wins, dtype=float)
    if w.ndim != 2 or w.shape[0] != w.shape[1] or (w < 0).any():
        raise ValueError("wins must be a square matrix of non-negative counts")
    n = w + w.T
    total = w.sum(axis=1)
    if (total <= 0).any() or (w.sum(axis=0) <= 0).any():
        raise ValueError("a policy has no win or no loss: its strength is not finite (use a prior)")
    p = np.ones(len(w))
    for _ in range(max_iter):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            return new
        p = new
    raise RuntimeError("Bradley–Terry fit did not converge (is the comparison graph connected?)")


def elo_scale(strengths: np.ndarray, *, anchor: int | None = None) -> np.ndarray:
    """Elo ratings of strengths: mean 1500, or 1500 for policy index ``anchor``."""
    r = ELO_SCALE * np.log(np.asarray(strengths, dtype=float))
    return r - (r[anchor] if anchor is not None else r.mean()) + 1500.0


@dataclass
class Ratings:
    """A rating table. Arrays are indexed like ``policies``; matrices ``[i, j]`` are from
    row policy ``i``'s side against column policy ``j``."""
    policies: list[str]
    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    games: np.ndarray                 # games each policy played against another policy
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray
    mean_payoff: np.ndarray           # NaN where the two never met
    comparison: str
    left_out: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per policy, best rating first."""
        order = np.argsort(-self.elo, kind="stable")
        return [{"policy": self.policies[i], "elo": float(self.elo[i]), "low": float(self.low[i]),
                 "high": float(self.high[i]), "games": int(self.games[i])} for i in order]


def _matrices(games: Sequence[PairGame], index: Mapping[str, int]) -> tuple[np.ndarray, ...]:
    k = len(index)
    wins, draws, losses = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    pay, cnt = np.zeros((k, k)), np.zeros((k, k))
    for g in games:
        i, j = index[g.a], index[g.b]
        s = g.score_a
        for (x, y, sx, px) in ((i, j, s, g.payoff_a), (j, i, 1.0 - s, g.payoff_b)):
            if sx == 1.0:
                wins[x, y] += 1
            elif sx == 0.0:
                losses[x, y] += 1
            else:
                draws[x, y] += 1
            pay[x, y] += px
            cnt[x, y] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(cnt > 0, pay / np.where(cnt > 0, cnt, 1), np.nan)
    return wins, draws, losses, mean


def _win_matrix(games: Sequence[PairGame], index: Mapping[str, int], prior: float) -> np.ndarray:
    k = len(index)
    w = np.zeros((k, k))
    met = np.zeros((k, k), dtype=bool)
    for g in games:
        i, j = index[g.a], index[g.b]
        if i == j:
            continue
        s = g.score_a
        w[i, j] += s
        w[j, i] += 1.0 - s
        met[i, j] = met[j, i] = True
    return w + prior / 2.0 * met


def block_resamples(games: Sequence[PairGame], n_resamples: int, seed: int) -> Iterator[list[PairGame]]:
    """``n_resamples`` bootstrap resamples of ``games``: within each pairing (the unordered
    pair of policies, self-play included), as many of its blocks as it has, drawn with
    replacement (a game without a block is a block of its own)."""
    pairings: dict[tuple[str, str], dict[Hashable, list[PairGame]]] = {}
    for n, g in enumerate(games):
        blk = g.block if g.block is not None else ("game", n)
        pairings.setdefault(tuple(sorted((g.a, g.b))), {}).setdefault(blk, []).append(g)
    block_lists = [list(b.values()) for b in pairings.values()]
    rng = np.random.default_rng(seed)
    for _ in range(n_resamples):
        sample: list[PairGame] = []
        for blocks in block_lists:
            for b in rng.integers(0, len(blocks), size=len(blocks)):
                sample.extend(blocks[b])
        yield sample


def fit_ratings(games: Sequence[PairGame], *, level: float = 0.9, n_resamples: int = 1000, seed: int = 0,
                anchor: str | None = None, prior: float = 0.5, comparison: str = GameAnalysis.rating_comparison,
                left_out: Sequence[str] = (), progress: Callable[[int, int], None] | None = None) -> Ratings:
    """Bradley–Terry ratings of :class:`PairGame` results with bootstrap intervals
    (see the module docstring); ``n_resamples=0`` gives point ratings with NaN bounds.
    ``progress(done, total)`` is called after each bootstrap resample."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if prior < 0 or not math.isfinite(prior):
        raise ValueError(f"prior must be a finite number >= 0, got {prior!r}")
    if n_resamples < 0:
        raise ValueError(f"n_resamples must be >= 0, got {n_resamples!r}")
    policies = sorted({g.a for g in games} | {g.b for g in games})
    cross = [g for g in games if g.a != g.b]
    if len(policies) < 2 or not cross:
        raise ValueError("ratings need games between at least two different policies")
    index = {p: i for i, p in enumerate(policies)}
    if anchor is not None and anchor not in index:
        raise ValueError(f"anchor {anchor!r} is not one of the policies {policies}")
    a_idx = None if anchor is None else index[anchor]
    notes: list[str] = []
    unrated = sorted(set(policies) - ({g.a for g in cross} | {g.b for g in cross}))
    if unrated:
        raise ValueError(f"policies with self-play games only cannot be rated: {unrated}")
    elo = elo_scale(bradley_terry(_win_matrix(cross, index, prior)), anchor=a_idx)
    k = len(policies)
    met = np.zeros((k, k), dtype=bool)
    for g in cross:
        met[index[g.a], index[g.b]] = met[index[g.b], index[g.a]] = True
    missing = [f"{policies[i]} × {policies[j]}" for i in range(k) for j in range(i + 1, k) if not met[i, j]]
    if missing:
        notes.append("pairings never played: " + ", ".join(missing))

    low = np.full(k, np.nan)
    high = np.full(k, np.nan)
    if n_resamples:
        draws = np.empty((n_resamples, k))
        for r, sample in enumerate(block_resamples(cross, n_resamples, seed)):
            draws[r] = elo_scale(bradley_terry(_win_matrix(sample, index, prior)), anchor=a_idx)
            if progress is not None:
                progress(r + 1, n_resamples)
        alpha = (1.0 - level) / 2.0
        low, high = np.quantile(draws, [alpha, 1.0 - alpha], axis=0)

    wins, dr, losses, mean = _matrices(games, index)
    n_games = np.array([sum(1 for g in cross if p in (g.a, g.b)) for p in policies])
    return Ratings(policies, elo, low, high, level, n_games, wins, dr, losses, mean, comparison,
                   list(left_out), notes)


def described_pair_games(traces: Iterable[Any], game: str | None = None, *,
                         block: Callable[[Mapping[str, Any]], Hashable] = crn_block
                         ) -> tuple[list[PairGame], list[str], str]:
    """:func:`pair_games` and, in words, the comparison that made each result: the
    game's, or each game's in turn when ``game`` is None (games pooled)."""
    traces_list = list(traces)
    games, left = pair_games(traces_list, game, block=block)
    if game is not None:
        desc = comparison_of(game)
    else:
        played = sorted({str(as_dict(t).get("game")) for t in traces_list})
        desc = "; ".join(f"{g}: {comparison_of(g)}" for g in played)
    return games, left, desc


def ratings(traces: Iterable[Any], *, game: str | None = None, level: float = 0.9, n_resamples: int = 1000,
            seed: int = 0, anchor: str | None = None, prior: float = 0.5,
            block: Callable[[Mapping[str, Any]], Hashable] = crn_block,
            progress: Callable[[int, int], None] | None = None) -> Ratings:
    """Ratings of the policies in ``traces``: of one ``game``, or pooled over every
    two-seat game when ``game`` is None (see the module docstring for the comparison,
    the fit and the intervals)."""
    games, left, desc = described_pair_games(traces, game, block=block)
    if not games:
        raise ValueError("no usable two-seat games to rate" + (f" ({len(left)} left out)" if left else ""))
    return fit_ratings(games, level=level, n_resamples=n_resamples, seed=seed, anchor=anchor, prior=prior,
                       comparison=desc, left_out=left, progress=progress)


class MissingExtra(ImportError):
    """An optional library the call needs is not installed; the message names the extra."""


#: the OpenSkill models :func:`openskill_ratings` plays, by name
OPENSKILL_MODELS = {"plackett_luce": "PlackettLuce", "bradley_terry": "BradleyTerryFull"}


@dataclass(frozen=True)
class OpenSkillRating:
    """One policy's OpenSkill rating after every game: ``mu``, ``sigma`` and the
    conservative ``ordinal`` (``mu - 3 sigma``)."""
    policy: str
    mu: float
    sigma: float
    ordinal: float
    games: int


def openskill_ratings(games: Sequence[PairGame], *, model: str = "plackett_luce") -> list[OpenSkillRating]:
    """The OpenSkill view of :class:`PairGame` results (see the module docstring): the
    games between two different policies played one at a time in :func:`game_order`
    order (``PairGame.order``, then policy names), each a win, loss or tie by
    :attr:`PairGame.score_a`; OpenSkill's default prior (``mu`` 25, ``sigma`` 25/3).
    Best ordinal first (empty without such games). Raises :class:`MissingExtra` without
    the ``ratings`` extra."""
    if model not in OPENSKILL_MODELS:
        raise ValueError(f"unknown OpenSkill model {model!r}; models: {', '.join(OPENSKILL_MODELS)}")
    try:
        from openskill import models as os_models
    except ImportError as e:
        raise MissingExtra("the OpenSkill view needs the openskill library: pip install "
                           "'negotiation_env[ratings]'") from e
    m = getattr(os_models, OPENSKILL_MODELS[model])()
    cross = sorted((g for g in games if g.a != g.b), key=lambda g: (g.order, g.a, g.b))
    state: dict[str, Any] = {}
    played: dict[str, int] = {}
    for g in cross:
        ra = state.setdefault(g.a, m.rating(name=g.a))
        rb = state.setdefault(g.b, m.rating(name=g.b))
        s = g.score_a
        ranks = [0, 0] if s == 0.5 else ([0, 1] if s == 1.0 else [1, 0])
        [[state[g.a]], [state[g.b]]] = m.rate([[ra], [rb]], ranks=ranks)
        played[g.a] = played.get(g.a, 0) + 1
        played[g.b] = played.get(g.b, 0) + 1
    out = [OpenSkillRating(p, float(r.mu), float(r.sigma), float(r.ordinal()), played[p]) for p, r in state.items()]
    return sorted(out, key=lambda r: (-r.ordinal, r.policy))
