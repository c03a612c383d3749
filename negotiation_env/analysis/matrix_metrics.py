"""Matrix-game metrics of seed 002 (Methods, Table 1, Appendix A) as pure functions of traces.

Input: game traces as JSON dicts (:mod:`negotiation_env.traces.schema`) of the
``matrix`` game; everything is read from ``trace["rounds"][i]["outcome"]`` (the game's
``info["last_round"]``: actions, joint outcome, payoffs, fallbacks), ``config``
(stage_game, framing, treatment, num_rounds), ``status`` and ``policies``. Nothing here
touches an env, so re-imported traces give the same tables.

Definitions (seed 002; where the paper is brief, the rule is ours and stated here):

Switching (Eq. 1): for an agent's action sequence a_1..a_T, S = (1 / (T - 1)) *
    #{t >= 2 : a_t != a_(t-1)}. Condition-level rates pool the indicators: S = total
    switches / total adjacent-round transitions (a complete 10-round dyad gives 18,
    nine per agent). A sequence shorter than 2 has no transition (S None).
Period-two adherence (Eq. S1): C = (1 / (T - 2)) * #{t >= 3 : a_t = a_(t-2) and
    a_t != a_(t-1)} (None for T < 3).
Communication effect (Eq. 2): ΔS = S(no message) - S(message); positive = stabilizing.
    Over several cells (e.g. the six framings of a pairing x game row) each treatment's
    S is the equally weighted mean of the cells' pooled rates, and only cells played in
    both treatments count.
Bootstrap interval (Methods): whole dyads are resampled with replacement separately in
    every cell x treatment stratum (the draws of ``scipy.stats.bootstrap`` on dyad
    indices, independent samples, written out in numpy), the statistic recomputed, the
    percentile interval reported. Default B = 10,000 and seed 42, as the paper's.
Test (``test=``): ``"permutation"`` (default) relabels treatments among the dyads of each
    stratum (the dyad is the unit; a stratified design keeps each stratum's talk /
    no-talk counts), recomputes ΔS and gives the two-sided p ``min(1, 2 min(P(ΔS* <=
    ΔS), P(ΔS* >= ΔS)))`` as ``scipy.stats.permutation_test`` does: exact over every
    relabelling when there are at most B of them, else B random relabellings with the +1
    correction. It is valid at any number of dyads; the dyad bootstrap p of the paper
    (``"bootstrap"``: ``min(1, 2 (1 + min(#{ΔS* <= 0}, #{ΔS* >= 0})) / (1 + B))``) is
    not: with 2 vs 2 identical dyads it gives p < 0.001. At the paper's 100 dyads per
    cell the two agree.
Too few dyads to test: with n_no and n_talk dyads in each stratum the smallest two-sided
    permutation p is ``2 / prod C(n_no + n_talk, n_no)``; where that is not below alpha
    (0.05) no test is made, whatever ``test``: p, interval and q are None and the cell
    is marked ``"n/a"`` (2 vs 2: 2/6 = 0.33; 3 vs 3: 0.10; 3 vs 5 or 4 vs 4 is the first
    testable cell: 2/56, 2/70). A 95% interval that excluded zero would be a test at .05,
    so the bootstrap interval is refused with it; it is refused too unless every cell
    could be tested on its own (a row pooling many 2 vs 2 framings can be tested, but
    resampling two dyads halves their variance, so its percentile interval would be
    too narrow).
Benjamini-Hochberg: across every tested cell of a table (:func:`switching_table`; cells
    too small to test cannot be significant and are left out of the family, a filter
    that does not depend on the outcome), q < alpha (0.05) marks a cell "+"
    (stabilizing) or "-" (destabilizing), else "·"; untested cells "n/a".
Complete-case vs all-available (A.3): ``analysis="complete"`` (default) keeps dyads that
    finished every planned round without an error mark; an error-marked dyad is one in
    which some decision fell back to the paper's default (an unreadable action played as
    B, an empty message sent as "[No message sent]"), or whose game ended in an error.
    ``analysis="all"`` keeps every dyad with its fallback actions and all available
    transitions of partial dyads.
Outcomes (A.1): action-A rate (over agent-rounds), joint outcomes AA / AB / BA / BB
    (first letter: the first seat, ``trace["agents"][0]``) as shares of rounds, payoff
    per agent per round. Their differences (Tables S1, S2; :func:`outcome_effects`) are
    message minus no message (the opposite sign of ΔS), computed within every cell
    (a framing, or framing x pairing for a per-game row), cells weighted equally, with
    the stratified dyad bootstrap interval (talk and no-talk dyads resampled
    independently); an interval only where every cell's dyads could support a test
    (the rule above).
Pooled effects (§4, Methods; :func:`pooled_effects`): ΔS per stage game (its pairing x
    framing cells), per pairing (its stage game x framing cells) and overall (every
    pairing x stage game x framing cell), cells played in both treatments weighted
    equally, with the interval and test above.
Joint outcomes (Table S3; :func:`joint_outcome_table`): each cell's shares of AA / AB /
    BA / BB rounds, then the mean over the cells of a game (pairing x framing), cells
    played in both treatments only, each treatment apart.
Error audit (A.3, Table S5; :func:`error_audit`): per pairing and treatment, over every
    matrix trace: dyads, error-marked dyads, malformed outputs (``validation_error``
    events of answers the model gave: unparsable actions, empty messages), API failures
    (model-call faults other than an answer cut at its token limit or a grammar note, each
    failed try counted; and games that ended in an exception), partial dyads (fewer rounds
    than planned) and complete clean dyads.
Alternation (A.2, Table S4; :func:`alternation_table`), no-talk dyads by default: the
    share of agent trajectories switching on every transition (9/9 in a complete
    dyad) and on at least 8/9 of them (``9 k >= 8 n``: such an agent has S >= 8/9, so
    rho_1 < 0 whatever its marginals), the median and interquartile range of C
    (numpy's linear quantiles), and for Snowdrift and Harmony (``PHASE_GAMES``; the
    paper reports phase only there) the dyads whose agents both switch on every
    transition, split in phase (equal actions every round: cycling AA <-> BB) and
    antiphase (different actions every round: AB <-> BA).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from .cells import as_dict, lineup, pairing
from .stats import _generator, benjamini_hochberg
from ..games.matrix.spec import NAME as GAME

__all__ = ["Dyad", "dyad_of", "dyads_of", "switch_count", "switch_rate", "period_two_adherence", "dyad_metrics",
           "pooled_metrics", "communication_effect", "switching_table", "outcome_table", "smallest_permutation_p",
           "outcome_effects", "alternation_table", "pooled_effects", "joint_outcome_table", "error_audit",
           "ANALYSES", "JOINT", "TESTS", "UNTESTED", "OUTCOMES", "PHASE_GAMES", "POOLED_LEVELS"]

ANALYSES = ("complete", "all")
#: the test behind ΔS's p (module docstring): the permutation test over dyads, or the paper's dyad bootstrap
TESTS = ("permutation", "bootstrap")
#: a cell with too few dyads to reach alpha: no test, this instead of a mark
UNTESTED = "n/a"
#: the Appendix A.1 quantities of :func:`outcome_effects`
OUTCOMES = ("a_rate", "payoff_per_round")
#: the stage games whose dyad phase Table S4 reports (in-phase vs antiphase alternation)
PHASE_GAMES = ("snowdrift", "harmony")
JOINT = ("AA", "AB", "BA", "BB")
_DEFAULTS = {"stage_game": "prisoners_dilemma", "framing": "neutral", "treatment": "communication", "num_rounds": 10}


# --------------------------------------------------------------------------- one dyad


@dataclass(frozen=True)
class Dyad:
    """One matrix-game trace, reduced to what the metrics need."""

    game_id: str
    agents: tuple[str, str]
    lineup: tuple[str, str]
    pairing: str
    stage_game: str
    framing: str
    treatment: str
    planned_rounds: int
    actions: tuple[tuple[str, ...], tuple[str, ...]]  # per seat, round by round
    payoffs: tuple[tuple[int, ...], tuple[int, ...]]
    error_marked: bool
    status: str

    @property
    def talk(self) -> bool:
        return self.treatment == "communication"

    @property
    def rounds(self) -> int:
        return len(self.actions[0])

    @property
    def complete(self) -> bool:
        """Every planned round played, the game ended normally, no error mark."""
        return self.status == "complete" and self.rounds == self.planned_rounds and not self.error_marked

    def key(self, name: str) -> Any:
        return getattr(self, name)


def dyad_of(trace: Any) -> Dyad:
    """A :class:`Dyad` from a matrix trace (dict or GameTrace); ValueError otherwise."""
    t = as_dict(trace)
    if t.get("game") != GAME:
        raise ValueError(f"trace {t.get('game_id')!r} is of game {t.get('game')!r}; expected 'matrix'")
    agents = tuple(t.get("agents") or ())
    if len(agents) != 2:
        raise ValueError(f"trace {t.get('game_id')!r}: a matrix dyad has two agents; got {list(agents)}")
    cfg = {**_DEFAULTS, **(t.get("config") or {})}
    rounds = sorted(t.get("rounds") or [], key=lambda r: r["round"])
    acts: list[list[str]] = [[], []]
    pays: list[list[int]] = [[], []]
    marked = t.get("status") == "error"
    for r in rounds:
        o = r["outcome"]
        for i, a in enumerate(agents):
            acts[i].append(str(o["actions"][a]))
            pays[i].append(int(o["payoffs"][a]))
        if o.get("error_agents") or any((o.get("fallbacks") or {}).get(a) for a in agents):
            marked = True
    labels = lineup(t)
    return Dyad(
        game_id=str(t.get("game_id")), agents=agents, lineup=(labels[0], labels[1]), pairing=pairing(t),
        stage_game=str(cfg["stage_game"]), framing=str(cfg["framing"]), treatment=str(cfg["treatment"]),
        planned_rounds=int(cfg["num_rounds"]), actions=(tuple(acts[0]), tuple(acts[1])),
        payoffs=(tuple(pays[0]), tuple(pays[1])), error_marked=marked, status=str(t.get("status", "complete")),
    )


def _check_analysis(analysis: str) -> None:
    if analysis not in ANALYSES:
        raise ValueError(f"analysis must be one of {', '.join(ANALYSES)}; got {analysis!r}")


def dyads_of(traces: Iterable[Any], analysis: str = "complete") -> list[Dyad]:
    """The matrix dyads of ``traces`` the analysis keeps (other games are skipped):
    ``"complete"``: complete, error-free dyads; ``"all"``: every dyad with a round."""
    _check_analysis(analysis)
    out = []
    for t in traces:
        d = t if isinstance(t, Dyad) else (dyad_of(t) if as_dict(t).get("game") == GAME else None)
        if d is None or d.rounds == 0:
            continue
        if analysis == "complete" and not d.complete:
            continue
        out.append(d)
    return out


# --------------------------------------------------------------------------- sequences


def switch_count(actions: Sequence[str]) -> tuple[int, int]:
    """(switches, adjacent-round transitions) of one action sequence."""
    a = list(actions)
    return sum(x != y for x, y in zip(a, a[1:])), max(0, len(a) - 1)


def switch_rate(actions: Sequence[str]) -> float | None:
    """S of Eq. 1 (None without a transition)."""
    k, n = switch_count(actions)
    return k / n if n else None


def period_two_adherence(actions: Sequence[str]) -> float | None:
    """C of Eq. S1 (None for fewer than three rounds)."""
    a = list(actions)
    if len(a) < 3:
        return None
    return sum(a[t] == a[t - 2] and a[t] != a[t - 1] for t in range(2, len(a))) / (len(a) - 2)


def dyad_metrics(trace: Any) -> dict[str, Any]:
    """One dyad: per agent S, C, action-A rate and payoff per round; pooled S; joint counts."""
    d = trace if isinstance(trace, Dyad) else dyad_of(trace)
    per = {}
    for i, a in enumerate(d.agents):
        seq = d.actions[i]
        per[a] = {"S": switch_rate(seq), "C": period_two_adherence(seq), "switches": switch_count(seq)[0],
                  "transitions": switch_count(seq)[1], "a_rate": seq.count("A") / len(seq) if seq else None,
                  "payoff_per_round": float(np.mean(d.payoffs[i])) if seq else None}
    k = sum(p["switches"] for p in per.values())
    n = sum(p["transitions"] for p in per.values())
    joint = [x + y for x, y in zip(*d.actions)]
    return {"game_id": d.game_id, "rounds": d.rounds, "complete": d.complete, "error_marked": d.error_marked,
            "agents": per, "switches": k, "transitions": n, "S": k / n if n else None,
            "joint": {j: joint.count(j) for j in JOINT}}


# --------------------------------------------------------------------------- pooled


def pooled_metrics(traces: Iterable[Any], analysis: str = "complete") -> dict[str, Any]:
    """Pooled rates over the kept dyads (see the module docstring); ``None`` rates when
    nothing is kept. ``S`` pools every transition; ``S_agent_mean`` averages the agents'
    own rates; ``all_switch_share`` is the share of agent trajectories switching on every
    transition (the paper's 9/9 count); ``C_mean`` / ``C_median`` over agent trajectories."""
    traces = list(traces)
    dyads = dyads_of(traces, analysis)
    n_matrix = sum(1 for t in traces if isinstance(t, Dyad) or as_dict(t).get("game") == GAME)
    k = n = 0
    s_agents, c_agents, all_switch = [], [], []
    a_count = agent_rounds = 0
    payoff_sum = 0
    joint = dict.fromkeys(JOINT, 0)
    rounds = 0
    for d in dyads:
        for i in range(2):
            seq = d.actions[i]
            ki, ni = switch_count(seq)
            k, n = k + ki, n + ni
            if ni:
                s_agents.append(ki / ni)
                all_switch.append(ki == ni)
            c = period_two_adherence(seq)
            if c is not None:
                c_agents.append(c)
            a_count += seq.count("A")
            agent_rounds += len(seq)
            payoff_sum += sum(d.payoffs[i])
        for x, y in zip(*d.actions):
            joint[x + y] += 1
        rounds += d.rounds
    return {
        "analysis": analysis, "dyads": len(dyads), "excluded": n_matrix - len(dyads), "rounds": rounds,
        "switches": k, "transitions": n, "S": k / n if n else None,
        "S_agent_mean": float(np.mean(s_agents)) if s_agents else None,
        "all_switch_share": float(np.mean(all_switch)) if all_switch else None,
        "C_mean": float(np.mean(c_agents)) if c_agents else None,
        "C_median": float(np.median(c_agents)) if c_agents else None,
        "a_rate": a_count / agent_rounds if agent_rounds else None,
        "joint": {j: (v / rounds if rounds else None) for j, v in joint.items()},
        "payoff_per_round": payoff_sum / agent_rounds if agent_rounds else None,
    }


# --------------------------------------------------------------------------- communication effect


def _counts(dyads: Sequence[Dyad]) -> tuple[np.ndarray, np.ndarray]:
    """Per dyad (switches, transitions), both agents pooled; dyads without a transition dropped."""
    rows = [(sum(switch_count(d.actions[i])[0] for i in range(2)), sum(switch_count(d.actions[i])[1] for i in range(2)))
            for d in dyads]
    rows = [r for r in rows if r[1] > 0]
    arr = np.array(rows, dtype=float).reshape(-1, 2)
    return arr[:, 0], arr[:, 1]


def smallest_permutation_p(sizes: Sequence[tuple[int, int]]) -> float:
    """The smallest two-sided p a permutation test can reach with ``(n_no_talk, n_talk)``
    dyads in each stratum: ``2 / prod C(n_no + n_talk, n_no)`` (at most 1)."""
    relabellings = 1
    for a, b in sizes:
        relabellings *= math.comb(int(a) + int(b), int(a))
    return min(1.0, 2 / relabellings)  # int / int: exact for any size (2.0 / int overflows past 1e308)


def _interval_ok(sizes: Sequence[tuple[int, int]], alpha: float) -> bool:
    """A bootstrap interval is reported only where every cell could be tested on its own."""
    return all(smallest_permutation_p([s]) < alpha for s in sizes)


def _check_test(test: str, alpha: float) -> None:
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}; got {test!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}")


def _permutation_p(counts: Sequence[tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]],
                   n_resamples: int, gen: np.random.Generator) -> tuple[float, bool]:
    """Two-sided p of the stratified permutation test of ΔS, and whether it is exact.

    Written here rather than with ``scipy.stats.permutation_test`` because that has no
    strata: relabellings must stay within each cell (its talk / no-talk counts fixed).
    The p-value rule is scipy's (``tests/analysis/test_matrix_metrics.py`` checks one
    stratum against it): exact when the relabellings number at most ``n_resamples``,
    else ``n_resamples`` random ones with the +1 correction; ties within a relative
    1e-13 (plus 1e-12 absolute: rates are ratios of small integers, so distinct values
    differ by far more) count as equal."""
    m = len(counts)
    pooled = [(np.concatenate([sn, sy]), np.concatenate([tn, ty]), len(sn)) for (sn, tn), (sy, ty) in counts]

    def part(sw: np.ndarray, tr: np.ndarray, mask: np.ndarray) -> np.ndarray:
        no = (mask * sw).sum(axis=1) / (mask * tr).sum(axis=1)
        yes = (~mask * sw).sum(axis=1) / (~mask * tr).sum(axis=1)
        return (no - yes) / m

    observed = 0.0
    for sw, tr, k in pooled:
        mask = np.zeros((1, len(sw)), dtype=bool)
        mask[0, :k] = True
        observed += float(part(sw, tr, mask)[0])
    total = 1
    for sw, _, k in pooled:
        total *= math.comb(len(sw), k)
    exact = total <= n_resamples
    if exact:
        dist = np.zeros(1)
        for sw, tr, k in pooled:
            combos = np.array(list(itertools.combinations(range(len(sw)), k)), dtype=np.intp).reshape(-1, k)
            mask = np.zeros((len(combos), len(sw)), dtype=bool)
            mask[np.arange(len(combos))[:, None], combos] = True
            dist = np.add.outer(dist, part(sw, tr, mask)).ravel()
        adjustment, draws = 0, total
    else:
        dist = np.zeros(n_resamples)
        for sw, tr, k in pooled:
            perm = gen.permuted(np.tile(np.arange(len(sw)), (n_resamples, 1)), axis=1)
            # part() of the mask that marks perm[:, :k], summed by gathering those k dyads; the
            # counts are whole numbers, so the sums (and the complement's) are exactly part()'s
            pick = perm[:, :k]
            sw_no, tr_no = sw[pick].sum(axis=1), tr[pick].sum(axis=1)
            dist += (sw_no / tr_no - (sw.sum() - sw_no) / (tr.sum() - tr_no)) / m
        adjustment, draws = 1, n_resamples
    tol = 1e-13 * abs(observed) + 1e-12
    less = (np.sum(dist <= observed + tol) + adjustment) / (draws + adjustment)
    greater = (np.sum(dist >= observed - tol) + adjustment) / (draws + adjustment)
    return float(min(1.0, 2.0 * min(less, greater))), exact


def _linear_quantile(values: np.ndarray, q: float) -> float:
    """The linear (Hyndman-Fan type 7) quantile, computed as ``scipy.stats.quantile`` does
    (``(1 - g) y[j] + g y[j + 1]``), so the interval is scipy's to the last bit."""
    y = np.sort(values)
    n = len(y)
    jg = q * n + (1 - q)
    jp1 = jg // 1
    j = jp1 - 1
    g = 0.0 if j < 0 else jg % 1
    j, jp1 = int(min(max(j, 0), n - 1)), int(min(max(jp1, 0), n - 1))
    return float((1 - g) * y[j] + g * y[jp1])


#: at most this many resampled dyads are drawn at once (memory: 8 bytes each)
_BOOTSTRAP_CHUNK = 4_000_000


def _bootstrap_interval(num: Sequence[np.ndarray], den: Sequence[np.ndarray], m: int, point: float,
                        n_resamples: int, confidence: float, gen: np.random.Generator) -> tuple[tuple[float, float], np.ndarray]:
    """Percentile interval of ``mean_s(sum num / sum den)`` over the first ``m`` samples
    minus the same over the last ``m``, resampling the dyads of every sample
    independently; and the resampled values.

    The draws and the interval are ``scipy.stats.bootstrap``'s (``method="percentile"``,
    independent samples): sample by sample, ``n_resamples`` rows of ``n`` dyad indices
    from ``gen.integers(0, n)`` (a lone dyad resampled as two copies of itself, as scipy
    needs two observations), the interval at its linear quantiles. Written out because
    scipy gathers the indices and then the statistic gathers the values again; one gather
    per sample makes the paper's 10,000 resamples cost about what 2,000 did through
    scipy."""
    rates = np.empty((len(num), n_resamples))
    for s, (x, y) in enumerate(zip(num, den)):
        if len(x) == 1:
            x, y = np.repeat(x, 2), np.repeat(y, 2)
        n = len(x)
        step = max(1, _BOOTSTRAP_CHUNK // n)
        for lo in range(0, n_resamples, step):  # row chunks draw the same stream as one array
            idx = gen.integers(0, n, (min(step, n_resamples - lo), n))
            rates[s, lo:lo + len(idx)] = x[idx].sum(axis=1) / y[idx].sum(axis=1)
    dist = np.mean(rates[:m], axis=0) - np.mean(rates[m:], axis=0)
    alpha = (1 - confidence) / 2
    lo, hi = _linear_quantile(dist, alpha), _linear_quantile(dist, 1 - alpha)
    if np.all(dist == dist.flat[0]):  # no sampling spread: the interval is the point
        lo = hi = point
    return (float(lo), float(hi)), dist


def _effect(strata: Sequence[tuple[Sequence[Dyad], Sequence[Dyad]]], n_resamples: int, confidence: float,
            rng: Any, test: str = "permutation", alpha: float = 0.05) -> dict[str, Any]:
    """ΔS over equally weighted cells, each a (no-talk dyads, talk dyads) pair: the
    stratified dyad bootstrap interval and the ``test`` p, or neither where the dyads
    are too few to test (see the module docstring)."""
    counts = []
    for no, yes in strata:
        counts.append((_counts(no), _counts(yes)))
    counts = [c for c in counts if len(c[0][0]) and len(c[1][0])]
    if not counts:
        return {"s_no_talk": None, "s_talk": None, "delta": None, "delta_ci": None, "p": None, "cells": 0,
                "test": test, "tested": False, "min_p": None, "exact": None, "dyads": (0, 0)}
    sw = [c[0][0] for c in counts] + [c[1][0] for c in counts]  # no-talk strata first, then talk
    tr = [c[0][1] for c in counts] + [c[1][1] for c in counts]
    m = len(counts)
    rates = [sw[s].sum() / tr[s].sum() for s in range(2 * m)]
    s_no, s_yes = float(np.mean(rates[:m])), float(np.mean(rates[m:]))
    delta = s_no - s_yes
    sizes = [(len(c[0][0]), len(c[1][0])) for c in counts]
    min_p = smallest_permutation_p(sizes)
    out = {"s_no_talk": s_no, "s_talk": s_yes, "delta": delta, "delta_ci": None, "p": None, "cells": m,
           "test": test, "tested": min_p < alpha, "min_p": min_p, "exact": None,
           "dyads": (sum(a for a, _ in sizes), sum(b for _, b in sizes))}
    if not out["tested"]:  # too few dyads: no p and no interval (one excluding 0 would be a test)
        return out
    gen = _generator(rng)
    ci, dist = _bootstrap_interval(sw, tr, m, delta, n_resamples, confidence, gen)
    if _interval_ok(sizes, alpha):
        out["delta_ci"] = ci
    if test == "bootstrap":
        below, above = int(np.sum(dist <= 0)), int(np.sum(dist >= 0))
        out["p"] = min(1.0, 2.0 * (1 + min(below, above)) / (1 + dist.size))
    else:
        out["p"], out["exact"] = _permutation_p(counts, n_resamples, gen)
    return out


def _group(dyads: Iterable[Dyad], keys: Sequence[str]) -> dict[tuple, list[Dyad]]:
    out: dict[tuple, list[Dyad]] = {}
    for d in dyads:
        out.setdefault(tuple(d.key(k) for k in keys), []).append(d)
    return out


def _row_order(rows: Sequence[str]):
    """The sort key of a ``rows`` group key: stage games in their canonical order, every
    other value as text."""
    from ..games.matrix.rules import STAGE_GAMES

    order = {g: i for i, g in enumerate(STAGE_GAMES)}

    def key(values: tuple) -> tuple:
        return tuple((order.get(v, len(order)), str(v)) if r == "stage_game" else (0, str(v))
                     for r, v in zip(rows, values))

    return key


def _groups_with_strata(dyads: Sequence[Dyad], rows: Sequence[str], cells: Sequence[str]):
    """``(row values, strata)`` of each ``rows`` group in :func:`_row_order`, its strata the
    ``cells`` levels played in both treatments (``(no-talk dyads, talk dyads)`` each);
    groups with none are left out."""
    sort_key = _row_order(rows)
    for key, members in sorted(_group(dyads, rows).items(), key=lambda kv: sort_key(kv[0])):
        strata = [pair for pair in _cell_strata(members, cells).values() if pair[0] and pair[1]]
        if strata:
            yield dict(zip(rows, key)), strata


def _cell_strata(dyads: Sequence[Dyad], cell_keys: Sequence[str]) -> dict[tuple, tuple[list[Dyad], list[Dyad]]]:
    cells: dict[tuple, tuple[list[Dyad], list[Dyad]]] = {}
    for key, ds in _group(dyads, cell_keys).items():
        cells[key] = ([d for d in ds if not d.talk], [d for d in ds if d.talk])
    return cells


def communication_effect(traces: Iterable[Any], *, cells: Sequence[str] = ("stage_game", "framing"),
                         analysis: str = "complete", n_resamples: int = 10_000, confidence: float = 0.95,
                         rng: Any = 42, test: str = "permutation", alpha: float = 0.05) -> dict[str, Any]:
    """ΔS of Eq. 2 for ``traces``: ``s_no_talk``, ``s_talk`` (equally weighted over the
    ``cells`` played in both treatments), ``delta``, ``delta_ci``, ``p``, ``cells``, and
    the test: ``test``, ``tested`` (False: too few dyads to reach ``alpha``, then ``p``
    and ``delta_ci`` are None), ``min_p`` (the smallest attainable permutation p),
    ``exact`` (the permutation p enumerated every relabelling), ``dyads`` (no talk, talk)."""
    _check_test(test, alpha)
    dyads = dyads_of(traces, analysis)
    strata = _cell_strata(dyads, cells)
    return _effect(list(strata.values()), n_resamples, confidence, rng, test, alpha)


def _stage_name(game_id: str) -> str:
    from ..games.matrix.rules import NAMES

    return NAMES.get(game_id, game_id)


def switching_table(traces: Iterable[Any], *, rows: Sequence[str] = ("pairing", "stage_game"),
                    cell: str = "framing", analysis: str = "complete", n_resamples: int = 10_000,
                    confidence: float = 0.95, rng: Any = 42, alpha: float = 0.05,
                    test: str = "permutation") -> list[dict[str, Any]]:
    """Seed 002 Table 1: one row per ``rows`` group (default: policy pairing x stage game),
    pooling its ``cell`` levels (the framings) with equal weight; per-cell effects with
    Benjamini-Hochberg correction across every tested cell of the table.

    Each row: ``model`` (the pairing), ``game`` (the stage game's name), ``s_no_talk``,
    ``s_talk``, ``delta``, ``delta_ci``, ``p``, ``tested``, ``min_p``, ``cells``,
    ``dyads_no_talk``, ``dyads_talk``, ``contexts`` ({framing code: "+", "-", "·", or
    :data:`UNTESTED` where the cell's dyads are too few to test}) and ``cell_effects``
    ({framing: effect dict with ``q``, None when untested}). A group with no cell played
    in both treatments has no row. Rows are sorted by pairing, then in the stage games'
    order. ``test``: see the module docstring."""
    from ..games.matrix.prompts import FRAMING_CODES

    _check_test(test, alpha)
    dyads = dyads_of(traces, analysis)
    sort_key = _row_order(rows)

    out = []
    flat: list[tuple[dict[str, Any], str]] = []
    for key in sorted(_group(dyads, rows), key=sort_key):
        members = [d for d in dyads if tuple(d.key(r) for r in rows) == key]
        strata = _cell_strata(members, (cell,))
        row_effect = _effect(list(strata.values()), n_resamples, confidence, rng, test, alpha)
        if not row_effect["cells"]:  # no cell played in both treatments: no comparison to report
            continue
        cell_effects = {}
        for (level,), pair in sorted(strata.items(), key=lambda kv: str(kv[0][0])):
            e = _effect([pair], n_resamples, confidence, rng, test, alpha)
            if e["delta"] is not None:
                e["q"] = None
                cell_effects[level] = e
                if e["tested"]:
                    flat.append((e, level))
        values = dict(zip(rows, key))
        out.append({
            "model": values.get("pairing", " · ".join(str(values[r]) for r in rows if r != "stage_game")),
            "game": _stage_name(values["stage_game"]) if "stage_game" in values else None,
            **{f"key_{r}": v for r, v in values.items()},
            "s_no_talk": row_effect["s_no_talk"], "s_talk": row_effect["s_talk"], "delta": row_effect["delta"],
            "delta_ci": row_effect["delta_ci"], "p": row_effect["p"], "tested": row_effect["tested"],
            "min_p": row_effect["min_p"], "cells": row_effect["cells"],
            "dyads_no_talk": sum(not d.talk for d in members), "dyads_talk": sum(d.talk for d in members),
            "cell_effects": cell_effects, "contexts": {},
        })
    if flat:
        qs = benjamini_hochberg([e["p"] for e, _ in flat])
        for (e, _), q in zip(flat, qs):
            e["q"] = float(q)
    for r in out:
        for level, e in r["cell_effects"].items():
            code = FRAMING_CODES.get(level, str(level)) if cell == "framing" else str(level)
            if e["q"] is None:
                r["contexts"][code] = UNTESTED
                continue
            sig = e["q"] < alpha
            r["contexts"][code] = "+" if sig and e["delta"] > 0 else "-" if sig and e["delta"] < 0 else "·"
    return out


def outcome_table(traces: Iterable[Any], *, rows: Sequence[str] = ("pairing", "stage_game"),
                  analysis: str = "complete") -> list[dict[str, Any]]:
    """Appendix A.1 per ``rows`` group and treatment (no talk first): action-A rate, payoff
    per agent per round, joint-outcome shares, switching and period-two adherence (pooled
    over dyads); stage games in :data:`~negotiation_env.games.matrix.rules.STAGE_GAMES` order."""
    from ..games.matrix.rules import STAGE_GAMES

    dyads = dyads_of(traces, analysis)
    keys = list(rows) + ["treatment"]
    order = {"stage_game": {g: i for i, g in enumerate(STAGE_GAMES)}, "treatment": {"none": 0, "communication": 1}}

    def sort_key(kv):
        return tuple((order.get(k, {}).get(v, len(order.get(k, {}))), str(v)) for k, v in zip(keys, kv[0]))

    out = []
    for key, ds in sorted(_group(dyads, keys).items(), key=sort_key):
        m = pooled_metrics(ds, analysis)
        values = dict(zip(list(rows) + ["treatment"], key))
        out.append({**values, **{k: m[k] for k in ("dyads", "S", "C_mean", "a_rate", "payoff_per_round", "joint")}})
    return out


# --------------------------------------------------------------------------- A.1 differences, A.2 alternation


def _outcome_counts(dyads: Sequence[Dyad], what: str) -> tuple[np.ndarray, np.ndarray]:
    """Per dyad (numerator, agent-rounds) of an A.1 quantity, both agents pooled."""
    rows = []
    for d in dyads:
        n = sum(len(d.actions[i]) for i in range(2))
        if not n:
            continue
        if what == "a_rate":
            rows.append((sum(d.actions[i].count("A") for i in range(2)), n))
        else:
            rows.append((sum(sum(d.payoffs[i]) for i in range(2)), n))
    arr = np.array(rows, dtype=float).reshape(-1, 2)
    return arr[:, 0], arr[:, 1]


def outcome_effects(traces: Iterable[Any], *, rows: Sequence[str] = ("pairing", "stage_game"),
                    cells: Sequence[str] = ("framing",), analysis: str = "complete", n_resamples: int = 10_000,
                    confidence: float = 0.95, rng: Any = 42, alpha: float = 0.05) -> list[dict[str, Any]]:
    """Appendix A.1 Tables S1 / S2: per ``rows`` group, the action-A rate and the payoff per
    agent per round without and with talk and their difference (message minus no
    message) with its 95% stratified dyad-bootstrap interval, the ``cells`` levels
    played in both treatments weighted equally (Table S2: rows pairing x game, cells the
    framings; Table S1: rows the game, cells pairing x framing).

    Each row: the ``rows`` values, ``game`` (the stage game's name if a row key),
    ``cells``, ``dyads_no_talk``, ``dyads_talk``, ``tested`` (False: a cell has too few
    dyads for an interval, see the module docstring) and per quantity of :data:`OUTCOMES` a dict
    ``{"no_talk", "talk", "delta", "ci"}``. Stage games in their order."""

    _check_test("permutation", alpha)
    dyads = dyads_of(traces, analysis)
    sort_key = _row_order(rows)

    gen = _generator(rng)
    out = []
    for values, strata in _groups_with_strata(dyads, rows, cells):
        sizes = [(len(no), len(yes)) for no, yes in strata]
        row: dict[str, Any] = {**values, "game": _stage_name(values["stage_game"]) if "stage_game" in values else None,
                               "cells": len(strata), "dyads_no_talk": sum(len(no) for no, _ in strata),
                               "dyads_talk": sum(len(yes) for _, yes in strata),
                               "tested": smallest_permutation_p(sizes) < alpha and _interval_ok(sizes, alpha)}
        for what in OUTCOMES:
            talk = [_outcome_counts(yes, what) for _, yes in strata]
            none = [_outcome_counts(no, what) for no, _ in strata]
            num = [c[0] for c in talk] + [c[0] for c in none]  # talk first: message minus no message
            den = [c[1] for c in talk] + [c[1] for c in none]
            m = len(strata)
            rates = [num[i].sum() / den[i].sum() for i in range(2 * m)]
            t, n = float(np.mean(rates[:m])), float(np.mean(rates[m:]))
            ci = _bootstrap_interval(num, den, m, t - n, n_resamples, confidence, gen)[0] if row["tested"] else None
            row[what] = {"no_talk": n, "talk": t, "delta": t - n, "ci": ci}
        out.append(row)
    return out


def alternation_table(traces: Iterable[Any], *, rows: Sequence[str] = ("pairing", "stage_game"),
                      treatment: str | None = "none", analysis: str = "complete",
                      phase_games: Sequence[str] | None = PHASE_GAMES) -> list[dict[str, Any]]:
    """Appendix A.2 Table S4 per ``rows`` group of the ``treatment`` dyads (None: both):
    ``agents`` (trajectories with a transition), ``all_switch`` / ``all_switch_share``
    (every transition a switch: 9/9), ``at_least_8_9`` / ``at_least_8_9_share``
    (``9 k >= 8 n``), ``C_median`` and ``C_iqr`` (25th, 75th percentiles), ``dyads``,
    and for stage games in ``phase_games`` (None: every game) ``both_all_switch``,
    ``in_phase``, ``antiphase`` (dyad counts; None for other games)."""

    dyads = [d for d in dyads_of(traces, analysis) if treatment is None or d.treatment == treatment]
    sort_key = _row_order(rows)

    out = []
    for key, ds in sorted(_group(dyads, rows).items(), key=lambda kv: sort_key(kv[0])):
        agents = all_sw = near = 0
        cs: list[float] = []
        both = in_phase = anti = 0
        for d in ds:
            full = []
            for i in range(2):
                k, n = switch_count(d.actions[i])
                if n:
                    agents += 1
                    all_sw += k == n
                    near += 9 * k >= 8 * n
                full.append(n > 0 and k == n)
                c = period_two_adherence(d.actions[i])
                if c is not None:
                    cs.append(c)
            if all(full):
                both += 1
                joint = list(zip(*d.actions))
                in_phase += all(x == y for x, y in joint)
                anti += all(x != y for x, y in joint)
        values = dict(zip(rows, key))
        phase = phase_games is None or values.get("stage_game") in phase_games or "stage_game" not in values
        out.append({
            **values, "game": _stage_name(values["stage_game"]) if "stage_game" in values else None,
            "treatment": treatment, "dyads": len(ds), "agents": agents,
            "all_switch": all_sw, "all_switch_share": all_sw / agents if agents else None,
            "at_least_8_9": near, "at_least_8_9_share": near / agents if agents else None,
            "C_median": float(np.median(cs)) if cs else None,
            "C_iqr": tuple(float(v) for v in np.quantile(cs, [0.25, 0.75])) if cs else None,
            "both_all_switch": both if phase else None, "in_phase": in_phase if phase else None,
            "antiphase": anti if phase else None,
        })
    return out


# --------------------------------------------------------------------------- pooled ΔS, Table S3, Table S5


#: :func:`pooled_effects` levels: each a group key and the cells it pools with equal weight
POOLED_LEVELS = {"game": (("stage_game",), ("pairing", "framing")),
                 "pairing": (("pairing",), ("stage_game", "framing")),
                 "all": ((), ("pairing", "stage_game", "framing"))}


def pooled_effects(traces: Iterable[Any], *, levels: Sequence[str] = ("game", "pairing", "all"),
                   analysis: str = "complete", n_resamples: int = 10_000, confidence: float = 0.95, rng: Any = 42,
                   test: str = "permutation", alpha: float = 0.05) -> list[dict[str, Any]]:
    """ΔS pooled over many cells (§4: "pooled reductions are 45.8 points in Prisoner's
    Dilemma"; Methods: "Model-, game-, and overall estimates weight their constituent
    cells equally and use the same stratified bootstrap"): per ``levels`` entry of
    :data:`POOLED_LEVELS`, one row per group, its pairing x stage game x framing cells
    played in both treatments weighted equally, with the stratified dyad-bootstrap
    interval and the ``test`` p of :func:`communication_effect`.

    Each row: ``level`` (``"game"``, ``"pairing"`` or ``"all"``), ``group`` (the stage
    game's name, the pairing, or ``"all"``), ``key`` (the raw value; None for ``all``),
    ``s_no_talk``, ``s_talk``, ``delta``, ``relative`` (``delta / s_no_talk``, None at
    0), ``delta_ci``, ``p``, ``tested``, ``min_p``, ``cells``, ``dyads_no_talk``,
    ``dyads_talk`` (of those cells). Stage games in their order, pairings sorted."""
    from ..games.matrix.rules import STAGE_GAMES

    _check_test(test, alpha)
    bad = [lv for lv in levels if lv not in POOLED_LEVELS]
    if bad:
        raise ValueError(f"levels must be among {', '.join(POOLED_LEVELS)}; got {bad}")
    dyads = dyads_of(traces, analysis)
    order = {g: i for i, g in enumerate(STAGE_GAMES)}
    out = []
    for level in levels:
        keys, cells = POOLED_LEVELS[level]
        groups = _group(dyads, keys)
        for key in sorted(groups, key=lambda k: (order.get(k[0], len(order)), str(k[0])) if keys == ("stage_game",)
                          else tuple(str(v) for v in k)):
            strata = [pair for pair in _cell_strata(groups[key], cells).values() if pair[0] and pair[1]]
            e = _effect(strata, n_resamples, confidence, rng, test, alpha)
            if not e["cells"]:
                continue
            value = key[0] if key else None
            out.append({
                "level": level, "key": value,
                "group": "all" if not key else _stage_name(value) if level == "game" else str(value),
                "s_no_talk": e["s_no_talk"], "s_talk": e["s_talk"], "delta": e["delta"],
                "relative": e["delta"] / e["s_no_talk"] if e["s_no_talk"] else None,
                "delta_ci": e["delta_ci"], "p": e["p"], "tested": e["tested"], "min_p": e["min_p"],
                "cells": e["cells"], "dyads_no_talk": e["dyads"][0], "dyads_talk": e["dyads"][1],
            })
    return out


def joint_outcome_table(traces: Iterable[Any], *, rows: Sequence[str] = ("stage_game",),
                        cells: Sequence[str] = ("pairing", "framing"),
                        analysis: str = "complete") -> list[dict[str, Any]]:
    """Table S3: joint-action shares (AA, AB, BA, BB; first letter the first seat) per
    ``rows`` group and treatment (no talk first) "under the same equal-cell weighting as
    Table S1": within each ``cells`` level the share of the rounds of its dyads, then the
    mean over the cells, each cell weighted equally. Only cells played in both treatments
    count, so both rows of a group average the same cells (as :func:`outcome_effects`).

    Each row: the ``rows`` values, ``game`` (the stage game's name if a row key),
    ``treatment``, ``cells``, ``dyads``, ``rounds`` and ``joint`` ({outcome: share})."""

    dyads = dyads_of(traces, analysis)
    sort_key = _row_order(rows)

    def shares(ds: Sequence[Dyad]) -> dict[str, float]:
        counts = dict.fromkeys(JOINT, 0)
        for d in ds:
            for x, y in zip(*d.actions):
                counts[x + y] += 1
        total = sum(counts.values())
        return {j: c / total for j, c in counts.items()}

    out = []
    for values, strata in _groups_with_strata(dyads, rows, cells):
        for treatment, side in (("none", 0), ("communication", 1)):
            per_cell = [shares(pair[side]) for pair in strata]
            out.append({**values, "game": _stage_name(values["stage_game"]) if "stage_game" in values else None,
                        "treatment": treatment, "cells": len(strata),
                        "dyads": sum(len(pair[side]) for pair in strata),
                        "rounds": sum(d.rounds for pair in strata for d in pair[side]),
                        "joint": {j: float(np.mean([c[j] for c in per_cell])) for j in JOINT}})
    return out


#: model-call faults that are notes on an answer the call did return, not failed calls
_ANSWER_FAULTS = ("length", "constraint")


def _get(x: Any, name: str) -> Any:
    return x.get(name) if isinstance(x, dict) else getattr(x, name, None)


def error_audit(traces: Iterable[Any], *, rows: Sequence[str] = ("pairing",)) -> list[dict[str, Any]]:
    """Table S5 (A.3's error audit) per ``rows`` group and treatment (no talk first), then
    a total row (``treatment`` ``"all"``, the ``rows`` values None), from every matrix
    trace (those without a resolved round included):

    ``dyads``: the traces (a runner writes one per planned game, also for a game that
    ended early; the paper's "planned dyads"). ``error_marked``: dyads with an error mark
    (some decision fell back to the paper's default, or the game ended in an error; see
    the module docstring). ``malformed``: answers the parser refused (``validation_error``
    events; under ``on_error="end"`` or ``"continue"`` each one fell back, under
    ``"retry"`` each refused try counts), split into ``malformed_actions`` (unparsable
    actions) and ``malformed_messages`` (empty messages); a refusal of an answer the
    model call never gave (the call failed for good) counts as an API failure instead.
    ``api_failures``: model-call faults recorded by the policy (timeouts, HTTP and
    connection errors, unusable answers, prompts too long; each try that failed counts,
    retried or not, as the paper records an Ollama exception before its retry; an answer
    cut at its token limit or a grammar note is not a failed call), plus one for each game
    that ended in an exception (trace ``status`` ``"error"``). ``partial``: dyads with
    fewer resolved rounds than planned. ``complete_clean``: every planned round, no error
    mark, the game ended normally (the complete-case analysis' dyads)."""
    by: dict[tuple, dict[str, Any]] = {}
    total = {k: 0 for k in ("dyads", "error_marked", "malformed", "malformed_actions", "malformed_messages",
                            "api_failures", "partial", "complete_clean")}
    for t in traces:
        td = as_dict(t)
        if td.get("game") != GAME:
            continue
        d = dyad_of(td)
        key = tuple(d.key(r) for r in rows) + (d.treatment,)
        row = by.setdefault(key, dict.fromkeys(total, 0))
        counts = dict.fromkeys(total, 0)
        counts["dyads"] = 1
        counts["error_marked"] = int(d.error_marked)
        counts["partial"] = int(d.rounds < d.planned_rounds)
        counts["complete_clean"] = int(d.complete)
        counts["api_failures"] = int(td.get("status") == "error")
        for st in td.get("steps") or ():
            tok = _get(st, "tokens")
            failed = isinstance(tok, dict) and bool(tok.get("failed"))
            if isinstance(tok, dict):
                counts["api_failures"] += sum(1 for f in tok.get("faults") or ()
                                              if not (isinstance(f, dict) and f.get("kind") in _ANSWER_FAULTS))
            refused = sum(1 for e in _get(st, "events") or ()
                          if isinstance(e, dict) and e.get("type") == "validation_error")
            if refused and not failed:
                counts["malformed"] += refused
                kind = "malformed_messages" if _get(st, "phase") == "message" else "malformed_actions"
                counts[kind] += refused
        for k, v in counts.items():
            row[k] += v
            total[k] += v
    order = {"none": 0, "communication": 1}
    out = []
    for key in sorted(by, key=lambda k: tuple(str(v) for v in k[:-1]) + (order.get(k[-1], 2),)):
        out.append({**dict(zip(rows, key[:-1])), "treatment": key[-1], **by[key]})
    if out:
        out.append({**dict.fromkeys(rows), "treatment": "all", **total})
    return out
