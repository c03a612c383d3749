"""Throughput benchmark: the resource game's AEC env next to PettingZoo's classic envs, plus the solver.

Run from the repository root:

    python benchmarks/env_throughput.py            # default sizes (about a minute on 2 cores)
    python benchmarks/env_throughput.py --quick    # smoke run, a few seconds

What it measures, all in one process so that ratios are taken side by side:

1. **Resource game, AEC API** (``negotiation_env.env(game="resource")``, default scenario):
   two seeded :class:`~baselines.scripted.RandomPolicy` instances play complete
   4-round games, once with ``output="structured"`` (Dict actions) and once with
   ``output="text"`` (raw JSON strings the env parses). The env time is ``env.step`` plus
   ``env.last()`` (the observation); the policy's ``act`` is timed separately; ``reset``
   is timed separately too and is in neither figure.
2. **PettingZoo baselines**: ``pettingzoo.classic.rps_v2`` and ``tictactoe_v3`` (AEC,
   as shipped, with their wrappers), stepped with seeded random legal actions
   (tictactoe samples from the observation's ``action_mask``), timed the same way.
   Repetitions are interleaved (each round runs every env once, same seeds every round)
   and the figures are medians over rounds; the ratios resource/rps and resource/tictactoe
   are the medians of the per-round ratios, so machine noise hits numerator and
   denominator alike.

   "Per agent step" means per ``env.step`` call of the standard ``agent_iter`` loop,
   including the final ``env.step(None)`` each agent makes after termination; the
   number of live steps (actions actually taken) is reported too.
3. **Solver**: ``solve(scenario, "auto")`` (and, for reference, ``"milp"``) per shipped
   scenario, and a seeded random 6-resource x 6-projects-per-agent scenario with
   ``"milp"`` and ``"auto"``; median milliseconds over ``--solver-reps`` repetitions.
4. A table on stdout and a JSON file with every figure and the machine's description
   (default ``benchmarks/results/env_throughput.json``; ``--quick`` writes
   ``env_throughput_quick.json`` next to it unless ``--out`` is given).

Only numpy Generators are used for randomness (never the global state); all timing uses
``time.perf_counter``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # so `baselines` imports when run as a script from anywhere
    sys.path.insert(0, str(ROOT))

# PettingZoo's classic envs import pygame at module level (it comes with the
# ``pettingzoo[classic]`` extra) and use it only to render, except that their reset()
# allocates an off-screen ``pygame.Surface`` even with render_mode=None. pygame is not a
# dependency of this project; when it is missing, a stand-in module lets rps/tictactoe
# import and reset. step() and last() never touch pygame, so the per-step figures are the
# same either way; only the baselines' reset time (reported, not used in any ratio)
# lacks the Surface allocation. The JSON records which one ran.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's import banner would go to stdout
try:  # pragma: no cover - depends on the environment
    import pygame  # noqa: F401

    PYGAME = f"pygame {pygame.version.ver}"
except ImportError:  # pragma: no cover

    class _Surface:
        def __init__(self, *args, **kwargs):
            pass

    _stub = types.ModuleType("pygame")
    _stub.Surface = _Surface
    sys.modules["pygame"] = _stub
    PYGAME = "stand-in (pygame not installed; baselines' reset skips its Surface allocation)"

import negotiation_env  # noqa: E402
from machine import machine_info as _machine_info, write_result  # noqa: E402
from baselines.scripted import make as make_policy  # noqa: E402
from negotiation_env.games.resource.scenario import Scenario, list_scenarios, load_scenario  # noqa: E402
from negotiation_env.games.resource.solver import feasible_run_vectors, solve  # noqa: E402
from pettingzoo.classic import rps_v2, tictactoe_v3  # noqa: E402

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "env_throughput.json"
QUICK_OUT = DEFAULT_OUT.with_name("env_throughput_quick.json")  # smoke runs never overwrite real results


# --------------------------------------------------------------------------- timing loop


def _new_counts() -> dict[str, float]:
    return {"games": 0, "step_calls": 0, "live_steps": 0, "t_step": 0.0, "t_last": 0.0, "t_policy": 0.0, "t_reset": 0.0}


def run_aec_games(env, n_games: int, seed0: int, make_actors: Callable[[int], dict[str, Callable[[Any], Any]]]) -> dict[str, float]:
    """Play ``n_games`` complete games with the standard ``agent_iter`` loop.

    Game ``g`` is reset with seed ``seed0 + g`` and played by ``make_actors(g)`` (agent ->
    callable(obs) -> action), so every call with the same arguments plays the same games.
    """
    c = _new_counts()
    pc = time.perf_counter
    for g in range(n_games):
        actors = make_actors(g)
        t0 = pc()
        env.reset(seed=seed0 + g)
        c["t_reset"] += pc() - t0
        t_step = t_last = t_policy = 0.0
        calls = live = 0
        for agent in env.agent_iter():
            t0 = pc()
            obs, _reward, term, trunc, _info = env.last()
            t1 = pc()
            if term or trunc:
                action = None
                t2 = t1
            else:
                action = actors[agent](obs)
                t2 = pc()
                live += 1
            env.step(action)
            t3 = pc()
            t_last += t1 - t0
            t_policy += t2 - t1
            t_step += t3 - t2
            calls += 1
        c["games"] += 1
        c["step_calls"] += calls
        c["live_steps"] += live
        c["t_step"] += t_step
        c["t_last"] += t_last
        c["t_policy"] += t_policy
    return c


def resource_actors(output: str, seed0: int) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    def make(g: int):
        a = make_policy("random", seed=seed0 + 2 * g, output=output)
        b = make_policy("random", seed=seed0 + 2 * g + 1, output=output)
        return {"agent_a": a.act, "agent_b": b.act}

    return make


def rps_actors(env, seed0: int) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    def make(g: int):
        rng = np.random.default_rng(seed0 + g)
        actors = {}
        for agent in env.possible_agents:
            n = int(env.action_space(agent).n)
            actors[agent] = lambda obs, n=n: int(rng.integers(n))
        return actors

    return make


def tictactoe_actors(env, seed0: int) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    def make(g: int):
        rng = np.random.default_rng(seed0 + g)

        def act(obs):
            legal = np.flatnonzero(obs["action_mask"])
            return int(legal[rng.integers(len(legal))])

        return {agent: act for agent in env.possible_agents}

    return make


def derived(c: dict[str, float]) -> dict[str, float]:
    calls, live = c["step_calls"], c["live_steps"]
    return {
        "us_per_step": (c["t_step"] + c["t_last"]) / calls * 1e6,  # env.step + env.last, per env.step call
        "us_step_only": c["t_step"] / calls * 1e6,
        "us_last_only": c["t_last"] / calls * 1e6,
        "us_policy_per_action": c["t_policy"] / live * 1e6 if live else 0.0,
        "ms_reset_per_game": c["t_reset"] / c["games"] * 1e3,
        "steps_per_game": calls / c["games"],
    }


def summarize(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def count_validation_errors(env, n_games: int, seed0: int, actors) -> int:
    """Replays the games untimed and counts invalid actions (should be 0 for RandomPolicy)."""
    game = env.unwrapped.game
    errors = 0
    for g in range(n_games):
        acts = actors(g)
        env.reset(seed=seed0 + g)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            env.step(None if term or trunc else acts[agent](obs))
        errors += sum(1 for e in game.events if e["type"] == "validation_error")
    return errors


def bench_envs(args) -> dict[str, Any]:
    seed = args.seed
    envs: dict[str, tuple[Any, int, Callable]] = {}
    res_env_s = negotiation_env.env(game="resource")
    res_env_t = negotiation_env.env(game="resource")
    rps_env = rps_v2.env()
    ttt_env = tictactoe_v3.env()
    envs["resource_structured"] = (res_env_s, args.games, resource_actors("structured", seed))
    envs["resource_text"] = (res_env_t, args.games, resource_actors("text", seed))
    envs["rps_v2"] = (rps_env, args.rps_games, rps_actors(rps_env, seed))
    envs["tictactoe_v3"] = (ttt_env, args.ttt_games, tictactoe_actors(ttt_env, seed))

    # warm-up: imports, caches, the resource game's cached solver figures
    for env, n, actors in envs.values():
        run_aec_games(env, min(2, n), seed, actors)

    rounds: dict[str, list[dict[str, float]]] = {k: [] for k in envs}
    for r in range(args.reps):
        for name, (env, n, actors) in envs.items():
            gc.collect()
            c = run_aec_games(env, n, seed, actors)
            rounds[name].append({**c, **derived(c)})
        print(f"  round {r + 1}/{args.reps} done", file=sys.stderr, flush=True)

    out: dict[str, Any] = {"envs": {}, "ratios": {}}
    for name, rs in rounds.items():
        first = rs[0]
        out["envs"][name] = {
            "games": first["games"],
            "step_calls_per_round": first["step_calls"],
            "live_steps_per_round": first["live_steps"],
            "identical_rounds": all(x["step_calls"] == first["step_calls"] for x in rs),
            **{k: summarize([x[k] for x in rs]) for k in ("us_per_step", "us_step_only", "us_last_only",
                                                           "us_policy_per_action", "ms_reset_per_game",
                                                           "steps_per_game")},
            "rounds": rs,
        }
    for num in ("resource_structured", "resource_text"):
        for den in ("rps_v2", "tictactoe_v3"):
            per_round = [a["us_per_step"] / b["us_per_step"] for a, b in zip(rounds[num], rounds[den])]
            out["ratios"][f"{num}/{den}"] = {**summarize(per_round), "per_round": per_round}
    per_round = [a["us_per_step"] / b["us_per_step"] for a, b in zip(rounds["resource_text"], rounds["resource_structured"])]
    out["ratios"]["resource_text/resource_structured"] = {**summarize(per_round), "per_round": per_round}
    out["validation_errors"] = {
        name: count_validation_errors(envs[name][0], envs[name][1], seed, envs[name][2])
        for name in ("resource_structured", "resource_text")
    }
    sc = res_env_s.unwrapped.game.scenario
    out["resource_scenario"] = sc.name
    return out


# --------------------------------------------------------------------------- solver


def random_scenario(n_resources: int = 6, n_projects: int = 6, seed: int = 0) -> Scenario:
    """Random scenario: per resource supply 5-15 and cost from {0.5, 1, 1.5, 2, 3} (drawn
    in that order, resource by resource); budget 30, max_types 3; per agent and project
    1-3 distinct resources, each 1-4 units per run, and an integer reward 5-40."""
    rng = np.random.default_rng(seed)
    rids = [f"r{i}" for i in range(n_resources)]
    costs = (0.5, 1.0, 1.5, 2.0, 3.0)
    resources = {}
    for rid in rids:
        supply = int(rng.integers(5, 16))
        resources[rid] = {"supply": supply, "cost": float(costs[int(rng.integers(len(costs)))])}
    projects = {}
    for agent in ("agent_a", "agent_b"):
        ps = {}
        for p in range(n_projects):
            k = int(rng.integers(1, 4))
            chosen = sorted(int(j) for j in rng.choice(n_resources, size=k, replace=False))
            requires = {rids[j]: int(rng.integers(1, 5)) for j in chosen}
            ps[f"p{p}"] = {"requires": requires, "reward": int(rng.integers(5, 41))}
        projects[agent] = ps
    return Scenario.from_dict(
        {"name": f"random{n_resources}x{n_projects}_seed{seed}", "resources": resources, "budget": 30,
         "max_types": 3, "projects": projects}
    )


def time_solve(scenario: Scenario, method: str) -> tuple[float, Any]:
    t0 = time.perf_counter()
    sol = solve(scenario, method)
    return (time.perf_counter() - t0) * 1e3, sol


def bench_solver(args) -> dict[str, Any]:
    reps = args.solver_reps
    rows = []
    cases = [(name, load_scenario(name)) for name in list_scenarios()]
    rand = random_scenario(6, 6, seed=0)
    cases.append((rand.name, rand))
    for name, sc in cases:
        times: dict[str, list[float]] = {"auto": [], "milp": []}
        sols: dict[str, Any] = {}
        for _ in range(reps):  # interleave the two methods
            for method in ("auto", "milp"):
                ms, sols[method] = time_solve(sc, method)
                times[method].append(ms)
        n_opts = [len(feasible_run_vectors(sc, a)[0]) for a in sc.agents]
        rows.append({
            "scenario": name,
            "random": sc is rand,
            "resources": len(sc.resources),
            "projects_per_agent": [len(sc.projects_of(a)) for a in sc.agents],
            "run_vectors_per_agent": n_opts,
            "auto_used": sols["auto"].method,
            "ms_auto": summarize(times["auto"]),
            "ms_milp": summarize(times["milp"]),
            "ms_auto_all": times["auto"],
            "ms_milp_all": times["milp"],
            "joint_max": sols["auto"].joint_max,
            "ratio_M_over_C": sols["auto"].ratio,
            "milp_agrees": abs(sols["auto"].joint_max - sols["milp"].joint_max) < 1e-6
            and all(abs(sols["auto"].individual_max[a] - sols["milp"].individual_max[a]) < 1e-6 for a in sc.agents),
        })
    return {"reps": reps, "rows": rows, "random_scenario": rand.to_dict()}


# --------------------------------------------------------------------------- machine info


def machine_info() -> dict[str, Any]:
    return {**_machine_info(), "pygame": PYGAME}


# --------------------------------------------------------------------------- output


def _f(x: float, digits: int = 1) -> str:
    return f"{x:,.{digits}f}"


def build_tables(envs: dict[str, Any], solver: dict[str, Any], args) -> list[tuple[str, list[str], list[list[str]], str]]:
    """(title, header, rows, caption) for each table."""
    e = envs["envs"]
    header = ["env", "games", "steps (live)", "env µs/step", "min–max", "step() µs", "last() µs",
              "policy µs/act", "reset ms", "× rps", "× tictactoe"]
    rows = []
    for name in ("resource_structured", "resource_text", "rps_v2", "tictactoe_v3"):
        d = e[name]
        if name.startswith("resource"):
            rr = envs["ratios"][f"{name}/rps_v2"]["median"]
            rt = envs["ratios"][f"{name}/tictactoe_v3"]["median"]
            ratios = [f"{rr:.1f}", f"{rt:.1f}"]
        else:
            ratios = ["", ""]
        u = d["us_per_step"]
        rows.append([
            name, str(d["games"]), f"{d['step_calls_per_round']} ({d['live_steps_per_round']})",
            _f(u["median"]), f"{_f(u['min'])}–{_f(u['max'])}", _f(d["us_step_only"]["median"]),
            _f(d["us_last_only"]["median"]), _f(d["us_policy_per_action"]["median"]),
            _f(d["ms_reset_per_game"]["median"], 3), *ratios,
        ])
    tr = envs["ratios"]["resource_text/resource_structured"]["median"]
    cap1 = (f"Median of {args.reps} interleaved rounds, same seeds every round; games and steps are per round.\n"
            f"env µs/step = time in env.step + env.last() per env.step call (incl. each agent's final step(None)); "
            f"policy and reset excluded.\n"
            f"× rps, × tictactoe = median of the per-round ratios of env µs/step. "
            f"resource text/structured = {tr:.2f}.\n"
            f"Resource scenario {envs['resource_scenario']}; invalid actions: "
            + ", ".join(f"{k} {v}" for k, v in envs["validation_errors"].items()) + ".")
    sh = ["scenario", "run vectors a×b", "auto used", "auto ms", "milp ms", "M", "M/C", "milp agrees"]
    srows = []
    for r in solver["rows"]:
        a, b = r["run_vectors_per_agent"]
        srows.append([
            r["scenario"] + (" (6 res × 6 proj)" if r["random"] else ""), f"{a}×{b}", r["auto_used"],
            _f(r["ms_auto"]["median"], 2), _f(r["ms_milp"]["median"], 2), f"{r['joint_max']:g}",
            f"{r['ratio_M_over_C']:.3f}", "yes" if r["milp_agrees"] else "NO",
        ])
    cap2 = (f"Median of {solver['reps']} repetitions, auto and milp interleaved. run vectors = feasible run vectors "
            f"per agent (auto enumerates while a×b <= 4,000,000).")
    return [("Env throughput (AEC, µs per agent step)", header, rows, cap1),
            ("Solver (ms per scenario)", sh, srows, cap2)]


def print_tables(tables) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        Console = None
    if Console is not None:
        console = Console(width=160, highlight=False)
        for title, header, rows, caption in tables:
            t = Table(title=title, title_justify="left")
            for i, h in enumerate(header):
                t.add_column(h, justify="left" if i == 0 else "right", no_wrap=True)
            for row in rows:
                t.add_row(*row)
            console.print(t)
            console.print(caption, soft_wrap=True)
            console.print()
        return
    for title, header, rows, caption in tables:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        print(title)
        print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths))))
        for r in rows:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
        print(caption)
        print()


# --------------------------------------------------------------------------- main


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="resource games per variant per round (default 200)")
    p.add_argument("--reps", type=int, default=5, help="interleaved rounds of [resource, rps, tictactoe] (default 5)")
    p.add_argument("--rps-games", type=int, default=None, help="rps games per round (default: 3 x --games)")
    p.add_argument("--ttt-games", type=int, default=None, help="tictactoe games per round (default: 6 x --games)")
    p.add_argument("--solver-reps", type=int, default=None, help="solver repetitions per scenario (default 5; quick 1)")
    p.add_argument("--seed", type=int, default=0, help="base seed of envs and policies (default 0)")
    p.add_argument("--out", type=Path, default=None,
                   help=f"JSON output (default {DEFAULT_OUT.relative_to(ROOT)}; with --quick {QUICK_OUT.name})")
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes for a smoke run (overrides --games/--reps; writes its own JSON unless --out)")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.reps = 3, 2
        args.solver_reps = args.solver_reps or 1
    args.out = args.out or (QUICK_OUT if args.quick else DEFAULT_OUT)
    # rps: 15 cycles = 32 step calls a game; tictactoe: about 10; resource: about 18. The
    # baselines get more games so each env's block in a round lasts a comparable time.
    args.rps_games = args.rps_games or 3 * args.games
    args.ttt_games = args.ttt_games or 6 * args.games
    args.solver_reps = args.solver_reps or 5
    for name in ("games", "reps", "rps_games", "ttt_games", "solver_reps"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    return args


def _load(avg: list[float] | None) -> str:
    return "n/a" if avg is None else f"{avg[0]:.2f}"


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    info = machine_info()
    print(f"env throughput: {args.reps} rounds x (2 x {args.games} resource games, {args.rps_games} rps, "
          f"{args.ttt_games} tictactoe) ...", file=sys.stderr, flush=True)
    envs = bench_envs(args)
    print(f"solver: {len(list_scenarios()) + 1} scenarios x {args.solver_reps} reps ...", file=sys.stderr, flush=True)
    solver = bench_solver(args)
    info["loadavg_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    wall = time.perf_counter() - t_start

    print_tables(build_tables(envs, solver, args))
    print(f"wall time {wall:.1f} s · python {info['python']} · {info['platform']} · {info['cpu_count']} CPUs "
          f"({info['processor']}) · load avg {_load(info['loadavg_at_start'])} -> {_load(info['loadavg_at_end'])} · "
          f"pygame: {info['pygame']}")

    result = {
        "benchmark": "env_throughput",
        "created_unix": time.time(),
        "wall_s": wall,
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "machine": info,
        "env_throughput": envs,
        "solver": solver,
        "notes": {
            "us_per_step": "(time in env.step + env.last()) / env.step calls, standard agent_iter loop, "
                           "incl. each agent's final env.step(None); reset and policy excluded",
            "us_policy_per_action": "policy time / live steps (actions taken)",
            "ratios": "median over rounds of the per-round ratio of us_per_step",
        },
    }
    write_result(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
