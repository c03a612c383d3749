"""Round-robin tournament of the scripted policies on the resource game.

Run from the repository root:

    python -m benchmarks.scripted_tournament                       # every policy in POLICIES
    python -m benchmarks.scripted_tournament --policies greedy,random --scenarios-per-level 0
    python -m benchmarks.scripted_tournament --quick               # smoke run

What it plays. Every ordered pair (X as agent_a, Y as agent_b) of the policies in
``baselines.scripted.POLICIES`` (or ``--policies a,b,c``), self-play included, on a subset
of the shipped scenarios at each M/C level (``--levels``, default 0.5,0.8,1.0; level L is
the scenarios named ``mcXXX_*`` with XXX = 100 L), with both speaker orders
(``first_speaker`` agent_a and agent_b), ``--games-per-cell`` games per (scenario, order).
Each game is ``--rounds`` (4) rounds of ``negotiation_env.env(game="resource",
scenario=..., first_speaker=..., theme="random")`` played with the standard AEC loop, with
fresh policy instances built by ``make(name, seed=..., output="text")`` (the policies write
the JSON text a model would, so every action goes through the text parser).

Which scenarios. All 15 scenarios x 2 orders x N^2 ordered pairs is too many for ~12
policies on a small machine, so by default ``--scenarios-per-level 4`` of the 4, 5 and 6
per level are played (``--quick``: 2; ``0``: all), the same number at every level. They
are taken in the order of their number (``mcXXX_1, mcXXX_2, ...``; names with a letter
before the number sort after the plain one of the same number). The run prints which ones
it used.

Seeds. A game is identified by (scenario, speaker order, repetition) alone; its index k is
stable (the scenario's position in ``list_scenarios()``), so every pair plays the same
games and changing ``--policies`` or ``--levels`` does not move the seeds. The env is
reset with ``seed + k``; the policy in seat s (0 = agent_a, 1 = agent_b) gets
``SeedSequence(seed, spawn_key=(k, s))``. Only numpy Generators are used; no global
random state is touched. Results do not depend on ``--workers``.

What it measures, per round, from ``info["last_round"]`` read right after the step that
resolves it (when ``last_round["round"]`` increases; ``info["round"]`` itself stays at the
last round once the game ends): efficiency (joint_reward / joint_max), overdraw, optimal,
joint reward, joint max and each agent's reward. Per step, from the acting agent's
``info["events"]``: counts of every event type; the "invalid" figure is the sum of
validation_error, heuristic_fallback (one per fallback decision: its companion
decision_auto_filled event is not counted again) and talk_turn_forfeited. Talk
turns: accepted responses given in the talk phase (an early decision made while talking
counts; a refused response does not), divided by rounds.

Reported per unordered pair {X, Y} (X as agent_a and as agent_b pooled; self-play rows
apart) and per M/C level: games, rounds, joint efficiency (mean of per-round efficiency),
overdraw rate, optimum rate, talk turns per round, invalid events, and the mean reward per
round of X and of Y. The JSON (default ``benchmarks/results/scripted_tournament.json``;
``--quick``: ``scripted_tournament_quick.json``) has every figure, the per ordered pair
figures, the settings and ``machine_info()``; a markdown version of the tables goes next to
it (same name, ``.md``).

Every round is also checked for consistency (efficiency = joint_reward / joint_max within
[0, 1], optimal iff joint_reward = joint_max, an overdraw pays 0); violations are listed as
anomalies. A policy that raises ends only its game, which is listed under errors (the
script then exits 1 after writing the results).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

import negotiation_env
from benchmarks.machine import machine_info, write_result
from negotiation_env.games.resource.scenario import list_scenarios

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "scripted_tournament.json"
QUICK_OUT = DEFAULT_OUT.with_name("scripted_tournament_quick.json")  # smoke runs never overwrite real results
DEFAULT_SCENARIOS_PER_LEVEL = 4
QUICK_SCENARIOS_PER_LEVEL = 2
ORDERS = ("agent_a", "agent_b")
# a fallback decision logs heuristic_fallback and decision_auto_filled together (the paper's
# Agent errors section); counting one of them counts each fallback once
INVALID_EVENTS = ("validation_error", "heuristic_fallback", "talk_turn_forfeited")
MAX_STEPS_PER_GAME = 100_000  # a guard against a policy/env pair that never ends a game


def _policies() -> dict[str, type]:
    """The registry, read at call time so that policies added to it are picked up."""
    from baselines.scripted import POLICIES

    return POLICIES


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class GameSpec:
    level: float
    scenario: str
    first_speaker: str
    rep: int
    index: int  # stable game index k: env seed = seed + k
    policy_a: str
    policy_b: str
    seed: int
    rounds: int

    def env_seed(self) -> int:
        return self.seed + self.index

    def policy_seed(self, seat: int) -> int:
        ss = np.random.SeedSequence(self.seed, spawn_key=(self.index, seat))
        return int(ss.generate_state(1, dtype=np.uint32)[0])


def level_prefix(level: float) -> str:
    return f"mc{int(round(level * 100)):03d}_"


def _scenario_order(name: str) -> tuple:
    m = re.fullmatch(r"mc\d{3}_([a-z]*)(\d+)", name)
    if m is None:
        return (math.inf, "~", name)
    return (int(m.group(2)), m.group(1), name)


def scenarios_for_level(level: float, per_level: int, pool: list[str]) -> list[str]:
    names = sorted((n for n in pool if n.startswith(level_prefix(level))), key=_scenario_order)
    return names if per_level <= 0 else names[:per_level]


def build_specs(policies: list[str], levels: list[float], scenarios: dict[float, list[str]], games_per_cell: int,
                seed: int, rounds: int) -> list[GameSpec]:
    pool = list_scenarios()
    specs = []
    for level in levels:
        for sc in scenarios[level]:
            for o, order in enumerate(ORDERS):
                for rep in range(games_per_cell):
                    k = (pool.index(sc) * len(ORDERS) + o) * games_per_cell + rep
                    for pa in policies:
                        for pb in policies:
                            specs.append(GameSpec(level, sc, order, rep, k, pa, pb, seed, rounds))
    return specs


def play_game(spec: GameSpec) -> dict[str, Any]:
    """One game; never raises (an exception is returned as the game's error)."""
    from baselines.scripted import make

    out: dict[str, Any] = {"spec": spec, "rounds": [], "events": {"agent_a": Counter(), "agent_b": Counter()},
                           "talk_turns": 0, "steps": 0, "error": None, "anomalies": []}
    try:
        env = negotiation_env.env(game="resource", scenario=spec.scenario, first_speaker=spec.first_speaker,
                                  theme="random", num_rounds=spec.rounds)
        env.reset(seed=spec.env_seed())
        actors = {"agent_a": make(spec.policy_a, seed=spec.policy_seed(0), output="text"),
                  "agent_b": make(spec.policy_b, seed=spec.policy_seed(1), output="text")}
        seen_round = 0
        for agent in env.agent_iter():
            obs, _reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            phase = info["phase"]
            env.step(actors[agent].act(obs))
            out["steps"] += 1
            if out["steps"] > MAX_STEPS_PER_GAME:
                raise RuntimeError(f"game did not end within {MAX_STEPS_PER_GAME} steps")
            after = env.infos[agent]
            events = Counter(ev["type"] for ev in after["events"])
            out["events"][agent].update(events)
            if phase == "talk" and not events["validation_error"]:
                out["talk_turns"] += 1
            lr = after.get("last_round")
            if lr and lr["round"] > seen_round:
                seen_round = lr["round"]
                out["rounds"].append(_round_record(lr))
                out["anomalies"].extend(_check_round(spec, lr))
        if seen_round != spec.rounds:
            out["anomalies"].append(f"{_where(spec)}: {seen_round} rounds resolved, expected {spec.rounds}")
    except Exception as e:  # noqa: BLE001 - a policy under development may raise anything
        out["error"] = f"{_where(spec)}: {type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}"
    return out


def _round_record(lr: dict[str, Any]) -> dict[str, Any]:
    return {"efficiency": float(lr["efficiency"]), "overdraw": bool(lr["overdraw"]), "optimal": bool(lr["optimal"]),
            "joint_reward": float(lr["joint_reward"]), "joint_max": float(lr["joint_max"]),
            "reward_a": float(lr["rewards"]["agent_a"]), "reward_b": float(lr["rewards"]["agent_b"])}


def _where(spec: GameSpec) -> str:
    return (f"{spec.policy_a} (agent_a) vs {spec.policy_b} (agent_b), {spec.scenario}, first {spec.first_speaker}, "
            f"env seed {spec.env_seed()}")


def _check_round(spec: GameSpec, lr: dict[str, Any]) -> list[str]:
    bad = []
    jr, jm, eff = lr["joint_reward"], lr["joint_max"], lr["efficiency"]
    where = f"{_where(spec)}, round {lr['round']}"
    if not jm > 0:
        bad.append(f"{where}: joint_max {jm} <= 0")
    elif not math.isclose(eff, jr / jm, rel_tol=1e-9, abs_tol=1e-12):
        bad.append(f"{where}: efficiency {eff} != joint_reward/joint_max {jr}/{jm}")
    if not 0.0 <= eff <= 1.0 + 1e-12:
        bad.append(f"{where}: efficiency {eff} outside [0, 1]")
    if bool(lr["optimal"]) != math.isclose(jr, jm, rel_tol=1e-9, abs_tol=1e-9):
        bad.append(f"{where}: optimal={lr['optimal']} but joint_reward {jr}, joint_max {jm}")
    if lr["overdraw"] and jr != 0:
        bad.append(f"{where}: overdraw with joint_reward {jr}")
    if not math.isclose(lr["rewards"]["agent_a"] + lr["rewards"]["agent_b"], jr, abs_tol=1e-9):
        bad.append(f"{where}: rewards {lr['rewards']} do not sum to joint_reward {jr}")
    return bad


def _play_chunk(specs: list[GameSpec]) -> list[dict[str, Any]]:
    return [play_game(s) for s in specs]


def run_games(specs: list[GameSpec], workers: int, progress_factory=None) -> list[dict[str, Any]]:
    """Play every game; the result is in spec order whatever ``workers`` is.

    ``progress_factory()`` is a context manager yielding ``advance(n)``; it is entered only
    after the worker processes exist, so no process is forked while its refresh thread runs.
    """
    progress_factory = progress_factory or _no_progress
    if workers <= 1:
        results = []
        with progress_factory() as advance:
            for s in specs:
                results.append(play_game(s))
                advance(1)
        return results
    chunk = max(1, min(64, len(specs) // (workers * 8)))
    chunks = [specs[i:i + chunk] for i in range(0, len(specs), chunk)]
    by_chunk: dict[int, list[dict[str, Any]]] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context()) as ex:
        futures = {ex.submit(_play_chunk, c): i for i, c in enumerate(chunks)}
        with progress_factory() as advance:
            for fut in as_completed(futures):
                i = futures[fut]
                by_chunk[i] = fut.result()
                advance(len(chunks[i]))
    return [r for i in range(len(chunks)) for r in by_chunk[i]]


def _mp_context():
    """fork where there is one: the workers then run the very policy code the parent
    imported (policies may be edited while a run is going) and start fast."""
    import multiprocessing as mp

    return mp.get_context("fork" if "fork" in mp.get_all_start_methods() else None)


@contextmanager
def _no_progress():
    yield lambda n: None


# --------------------------------------------------------------------------- aggregation


class _Acc:
    """Sums for one cell (a pair, a pair at a level, or an ordered pair at a level)."""

    def __init__(self):
        self.games = self.rounds = self.talk_turns = self.crashed = 0
        self.eff = self.overdraw = self.optimal = self.reward_x = self.reward_y = 0.0
        self.events_x: Counter = Counter()
        self.events_y: Counter = Counter()

    def add(self, res: dict[str, Any], x_seat: str) -> None:
        y_seat = "agent_b" if x_seat == "agent_a" else "agent_a"
        if res["error"] is not None:
            self.crashed += 1
            return  # a crashed game's partial rounds are not counted
        self.games += 1
        self.talk_turns += res["talk_turns"]
        self.events_x.update(res["events"][x_seat])
        self.events_y.update(res["events"][y_seat])
        rx, ry = ("reward_a", "reward_b") if x_seat == "agent_a" else ("reward_b", "reward_a")
        for r in res["rounds"]:
            self.rounds += 1
            self.eff += r["efficiency"]
            self.overdraw += r["overdraw"]
            self.optimal += r["optimal"]
            self.reward_x += r[rx]
            self.reward_y += r[ry]

    def figures(self) -> dict[str, Any]:
        n = self.rounds

        def mean(v):
            return v / n if n else None

        events = self.events_x + self.events_y
        return {
            "games": self.games, "rounds": n, "crashed_games": self.crashed,
            "efficiency": mean(self.eff), "overdraw_rate": mean(self.overdraw), "optimum_rate": mean(self.optimal),
            "talk_turns_per_round": mean(self.talk_turns),
            "invalid_events": sum(events[t] for t in INVALID_EVENTS),
            "invalid_events_x": sum(self.events_x[t] for t in INVALID_EVENTS),
            "invalid_events_y": sum(self.events_y[t] for t in INVALID_EVENTS),
            "events": dict(sorted(events.items())),
            "reward_x_per_round": mean(self.reward_x), "reward_y_per_round": mean(self.reward_y),
        }


def aggregate(results: list[dict[str, Any]], policies: list[str], levels: list[float]) -> dict[str, Any]:
    rank = {p: i for i, p in enumerate(policies)}
    pairs = [(x, y) for i, x in enumerate(policies) for y in policies[i:]]
    pooled = {p: _Acc() for p in pairs}
    per_level = {(p, lv): _Acc() for p in pairs for lv in levels}
    ordered = {(a, b, lv): _Acc() for a in policies for b in policies for lv in levels}
    for res in results:
        s: GameSpec = res["spec"]
        a, b = s.policy_a, s.policy_b
        x, y = (a, b) if rank[a] <= rank[b] else (b, a)
        x_seat = "agent_a" if x == a else "agent_b"
        pooled[(x, y)].add(res, x_seat)
        per_level[((x, y), s.level)].add(res, x_seat)
        ordered[(a, b, s.level)].add(res, "agent_a")

    def row(p, acc, **extra):
        x, y = p
        return {"pair": f"{x} vs {y}", "x": x, "y": y, "self_play": x == y, **extra, **acc.figures()}

    return {
        "summary": [row(p, pooled[p]) for p in pairs],
        "per_level": [row(p, per_level[(p, lv)], level=lv) for p in pairs for lv in levels],
        "per_ordered_pair": [
            {"agent_a": a, "agent_b": b, "level": lv, **ordered[(a, b, lv)].figures()}
            for a in policies for b in policies for lv in levels
        ],
    }


# --------------------------------------------------------------------------- output


def _lv(level: float) -> str:
    return f"{level:.1f}" if round(level, 1) == level else f"{level:g}"


def _f(v, digits=3) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def _sorted_rows(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return [r for r in rows if not r["self_play"]], [r for r in rows if r["self_play"]]


SUMMARY_HEADER = ["pair (X vs Y)", "games", "rounds", "eff", "overdraw", "optimum", "talk/round", "invalid X/Y",
                  "reward X", "reward Y"]


def summary_rows(agg: dict[str, Any]) -> tuple[list[list[str]], list[list[str]]]:
    def cells(r):
        crashed = f" ({r['crashed_games']} crashed)" if r["crashed_games"] else ""
        return [r["pair"], f"{r['games']}{crashed}", str(r["rounds"]), _f(r["efficiency"]), _f(r["overdraw_rate"]),
                _f(r["optimum_rate"]), _f(r["talk_turns_per_round"], 2),
                f"{r['invalid_events']} ({r['invalid_events_x']}/{r['invalid_events_y']})",
                _f(r["reward_x_per_round"], 2), _f(r["reward_y_per_round"], 2)]

    cross, selfp = _sorted_rows(agg["summary"])
    return [cells(r) for r in cross], [cells(r) for r in selfp]


def level_header(levels: list[float]) -> list[str]:
    h = ["pair (X vs Y)"]
    for lv in levels:
        h += [f"eff {_lv(lv)}", f"ovr {_lv(lv)}", f"opt {_lv(lv)}"]
    return h + ["talk/round", "invalid"]


def level_rows(agg: dict[str, Any], levels: list[float]) -> tuple[list[list[str]], list[list[str]]]:
    by = {(r["pair"], r["level"]): r for r in agg["per_level"]}

    def cells(pr):
        out = [pr["pair"]]
        for lv in levels:
            r = by[(pr["pair"], lv)]
            out += [_f(r["efficiency"]), _f(r["overdraw_rate"]), _f(r["optimum_rate"])]
        return out + [_f(pr["talk_turns_per_round"], 2), str(pr["invalid_events"])]

    cross, selfp = _sorted_rows(agg["summary"])
    return [cells(r) for r in cross], [cells(r) for r in selfp]


def settings_line(result: dict[str, Any]) -> str:
    s = result["settings"]
    scen = "; ".join(f"{_lv(lv)}: {', '.join(names)}" for lv, names in zip(s["levels"], s["scenarios"].values()))
    avail = "/".join(str(v) for v in dict.fromkeys(s["scenarios_available_per_level"].values()))
    subset = ("all scenarios per level" if s["scenarios_per_level"] <= 0
              else f"{s['scenarios_per_level']} scenarios per level (of {avail}; "
                   f"--scenarios-per-level 0 for all)")
    return (f"{len(s['policies'])} policies, {len(s['policies']) ** 2} ordered pairs (self-play included), "
            f"{subset} [{scen}], both speaker orders, {s['games_per_cell']} game(s) per scenario x order, "
            f"{s['rounds']} rounds, text actions, theme random, seed {s['seed']}: {s['n_games']} games.")


def print_tables(result: dict[str, Any], console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console(highlight=False, width=160)
    agg, levels = result, result["settings"]["levels"]
    for title, header, (cross, selfp) in (
        ("Scripted tournament: pooled over M/C levels", SUMMARY_HEADER, summary_rows(agg)),
        ("Scripted tournament: per M/C level (eff = joint efficiency, ovr = overdraw rate, opt = optimum rate)",
         level_header(levels), level_rows(agg, levels)),
    ):
        t = Table(title=title, title_justify="left")
        for i, h in enumerate(header):
            t.add_column(h, justify="left" if i == 0 else "right", no_wrap=True)
        for r in cross:
            t.add_row(*r)
        if cross and selfp:
            t.add_section()
        for r in selfp:
            t.add_row(*r)
        console.print(t)
    console.print(settings_line(result), soft_wrap=True)
    console.print("X vs Y pools X as agent_a and X as agent_b; self-play rows below the line. eff = mean per-round "
                  "joint_reward/joint_max; invalid = validation_error + heuristic_fallback (one per fallback) + "
                  "talk_turn_forfeited events (caused by X / by Y); reward = mean per round.", soft_wrap=True)


def _md_table(header: list[str], cross: list[list[str]], selfp: list[list[str]]) -> str:
    def line(cells):
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    rows = cross + ([["**self-play**"] + [""] * (len(header) - 1)] if cross and selfp else []) + selfp
    return "\n".join([line(header), line(["---"] * len(header)), *map(line, rows)])


def markdown(result: dict[str, Any]) -> str:
    levels = result["settings"]["levels"]
    m = result["machine"]
    return (
        "**Scripted tournament** — `" + " ".join(["python -m benchmarks.scripted_tournament", *result["settings"]["argv"]])
        + "`\n\n"
        + _md_table(SUMMARY_HEADER, *summary_rows(result)) + "\n\n"
        + settings_line(result) + " X vs Y pools both seat assignments; eff = mean per-round joint efficiency; "
        "invalid = validation_error + heuristic_fallback (one per fallback) + talk_turn_forfeited events "
        "(caused by X/Y); reward per round. "
        f"{result['runtime_s']:.1f} s with {result['settings']['workers']} worker(s), Python {m['python']}, "
        f"{m['cpu_count']} CPUs.\n\n"
        "Per M/C level (eff, overdraw rate, optimum rate):\n\n"
        + _md_table(level_header(levels), *level_rows(result, levels)) + "\n"
    )


# --------------------------------------------------------------------------- main


def _default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def parse_args(argv: Iterable[str] | None = None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--policies", default=None, help="comma-separated policy names (default: all in POLICIES)")
    p.add_argument("--levels", default="0.5,0.8,1.0", help="M/C levels, comma-separated (default 0.5,0.8,1.0)")
    p.add_argument("--scenarios-per-level", type=int, default=None,
                   help=f"scenarios per level, 0 = all (default {DEFAULT_SCENARIOS_PER_LEVEL}; "
                        f"--quick {QUICK_SCENARIOS_PER_LEVEL})")
    p.add_argument("--games-per-cell", type=int, default=1,
                   help="games per (pair, scenario, speaker order) (default 1)")
    p.add_argument("--rounds", type=int, default=4, help="rounds per game (default 4)")
    p.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes (default: the CPUs this process may use); results do not depend on it")
    p.add_argument("--quick", action="store_true",
                   help=f"{QUICK_SCENARIOS_PER_LEVEL} scenarios per level; writes its own JSON unless --out")
    p.add_argument("--out", type=Path, default=None,
                   help=f"JSON output (default {DEFAULT_OUT.relative_to(ROOT)}; with --quick {QUICK_OUT.name}); "
                        "the markdown goes next to it with suffix .md")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(None if argv is None else list(argv))

    registry = _policies()
    if args.policies is None:
        args.policies = list(registry)
    else:
        args.policies = [s.strip() for s in args.policies.split(",") if s.strip()]
        unknown = [n for n in args.policies if n not in registry]
        if unknown:
            p.error(f"unknown policy {', '.join(map(repr, unknown))}; available: {', '.join(registry)}")
        if len(set(args.policies)) != len(args.policies):
            p.error("--policies lists a policy twice")
    if not args.policies:
        p.error("no policies to play")
    try:
        args.levels = [float(s) for s in args.levels.split(",") if s.strip()]
    except ValueError:
        p.error(f"--levels must be comma-separated numbers; got {args.levels!r}")
    if not args.levels or len(set(map(level_prefix, args.levels))) != len(args.levels):
        p.error("--levels must list distinct levels")
    if args.scenarios_per_level is None:
        args.scenarios_per_level = QUICK_SCENARIOS_PER_LEVEL if args.quick else DEFAULT_SCENARIOS_PER_LEVEL
    if args.scenarios_per_level < 0:
        p.error("--scenarios-per-level must be >= 0 (0 = all)")
    if args.games_per_cell < 1:
        p.error("--games-per-cell must be >= 1")
    if args.rounds < 1:
        p.error("--rounds must be >= 1")
    args.workers = _default_workers() if args.workers is None else args.workers
    if args.workers < 1:
        p.error("--workers must be >= 1")
    pool = list_scenarios()
    args.scenarios = {}
    for lv in args.levels:
        names = scenarios_for_level(lv, args.scenarios_per_level, pool)
        if not names:
            p.error(f"no shipped scenario at level {_lv(lv)} (names {level_prefix(lv)}*)")
        args.scenarios[lv] = names
    args.out = args.out or (QUICK_OUT if args.quick else DEFAULT_OUT)
    return args


def main(argv: Iterable[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    console = Console(highlight=False)
    if not console.is_terminal:  # piped or captured: rich would assume 80 columns and squeeze the tables
        console = Console(highlight=False, width=160)
    info = machine_info()
    specs = build_specs(args.policies, args.levels, args.scenarios, args.games_per_cell, args.seed, args.rounds)
    pool = list_scenarios()
    settings = {
        "policies": args.policies, "levels": args.levels,
        "scenarios": {f"{_lv(lv)}": names for lv, names in args.scenarios.items()},
        "scenarios_per_level": args.scenarios_per_level,
        "scenarios_available_per_level": {f"{_lv(lv)}": len(scenarios_for_level(lv, 0, pool)) for lv in args.levels},
        "first_speakers": list(ORDERS), "games_per_cell": args.games_per_cell, "rounds": args.rounds,
        "seed": args.seed, "output": "text", "theme": "random", "workers": args.workers, "n_games": len(specs),
        "quick": args.quick, "argv": argv,
        "seeding": "env.reset(seed=seed+k), k = (list_scenarios().index(scenario)*2 + order)*games_per_cell + rep; "
                   "policy in seat s: SeedSequence(seed, spawn_key=(k, s)).generate_state(1)[0]",
    }
    console.print(settings_line({"settings": settings}), soft_wrap=True)

    @contextmanager
    def bar():
        with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=console) as prog:
            task = prog.add_task("games", total=len(specs))
            yield lambda n: prog.advance(task, n)

    t0 = time.perf_counter()
    results = run_games(specs, args.workers, None if args.no_progress else bar)
    runtime = time.perf_counter() - t0
    info["loadavg_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None

    agg = aggregate(results, args.policies, args.levels)
    errors = [r["error"] for r in results if r["error"] is not None]
    anomalies = [a for r in results for a in r["anomalies"]]
    result = {
        "benchmark": "scripted_tournament",
        "settings": settings,
        "runtime_s": runtime,
        "games_per_s": len(specs) / runtime if runtime > 0 else None,
        "steps": sum(r["steps"] for r in results),
        **agg,
        "errors": errors,
        "anomalies": anomalies,
        "machine": info,
    }

    print_tables(result, console)
    console.print(f"{len(specs)} games, {result['steps']} steps in {runtime:.1f} s "
                  f"({result['games_per_s']:.1f} games/s, {args.workers} worker(s)); "
                  f"{len(errors)} crashed games, {len(anomalies)} anomalies.")
    for e in errors[:5]:
        console.print(f"[red]error[/red] {escape(e)}", soft_wrap=True)
    for a in anomalies[:10]:
        console.print(f"[yellow]anomaly[/yellow] {escape(a)}", soft_wrap=True)
    write_result(args.out, result)
    md = args.out.with_suffix(".md")
    md.write_text(markdown(result), encoding="utf-8")
    print(f"wrote {md}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
