"""Throughput benchmark: the games' envs next to PettingZoo's classic envs (and TextArena's
negotiation games when installed), the per-step cost over a long game, the default
scripted cohort, and the solver.

Run from the repository root:

    python -m benchmarks.env_throughput            # default sizes (several minutes on 2 busy cores)
    python -m benchmarks.env_throughput --quick    # smoke run, a few seconds (no cohort)
    pip install -e .[bench]                        # adds the TextArena peer rows

What it measures, all in one process so that ratios are taken side by side:

1. **Env rows**, each played with the cheapest valid policy so that the figure
   is the env's own cost (actions built once a game, chosen from a few feature entries or
   the action mask):

   * ``resource aec``: ``negotiation_env.env(game="resource")``, default config (mc080_1,
     4 rounds, random themes); each agent talks once a round, then buys its individual
     optimum (structured actions, engine-assigned runs). Goal: at most 0.5x tictactoe_v3.
   * ``matrix aec``: the default matrix game (10 rounds, communication, acknowledgement);
     one structured action valid in every phase. Goal: at most 0.6x rps_v2.
   * ``rulemaking aec``: the default rulemaking run (E1, condition none); every party
     plays Oppose, so runs go to the 15-turn horizon. Goal: at most 1.0x tictactoe_v3.
   * ``matrix numeric aec``: ``wrappers.numeric`` over the matrix AEC env (Discrete actions,
     action mask); the first index the mask allows. Goal: at most 1.0x rps_v2.
   * ``resource parallel``: the parallel env, the same policy for every live agent. Goal:
     at most 0.5x ``rps_v2.parallel_env()``.
   * ``resource aec random`` (structured and text): the seeded ``RandomPolicy``, comparable
     with the figures on the benchmarks page taken with it.

   The env time is ``env.step`` plus ``env.last()`` (the observation, reward and info the
   loop reads) per ``env.step`` call of the standard ``agent_iter`` loop, including the
   final ``env.step(None)`` each agent makes after termination; the live steps (actions
   actually taken) are reported too. Parallel rows: ``env.step`` per call. The policy's
   time and ``reset`` are timed separately and are in neither figure.
2. **PettingZoo references**: ``pettingzoo.classic.rps_v2`` and ``tictactoe_v3`` (AEC, as
   shipped, with their wrappers) and ``rps_v2.parallel_env()``, stepped with seeded random
   legal actions (tictactoe samples from the observation's ``action_mask``), timed the
   same way. Repetitions are interleaved (each round runs every row once) and the
   figures are medians over rounds; every ratio is the median of the per-round ratios,
   so machine noise hits numerator and denominator alike. Every round plays new games
   (the env seeds of round r start at ``seed + (r + 1) * 1,000,003``), so what an env
   keeps between games (rendered texts, parsed actions) counts only as far as games
   really repeat content (themes, scenarios, messages).
3. **TextArena peers** (``bench`` extra): ``SimpleNegotiation-v0`` and
   ``IteratedPrisonersDilemma-v0`` with one constant valid answer, ``get_observation`` +
   ``step`` per step, a fresh env per game (see :func:`run_textarena_games`); skipped,
   and said so, when textarena is not installed.
4. **Long games**: one resource game of ``--long-rounds`` rounds (100) and one matrix game
   of 10x as many, every step timed and filed under its round; µs per step (and steps/s)
   over the first and the last 5% of the rounds. A per-step cost that grows with the
   game's length shows as last/first above 1.
5. **Cohort**: ``negotiation-env run`` of the shipped default config (720 games of the
   scripted cohort) on ``--cohort-workers`` (2) workers, in a subprocess, wall time of the
   whole command. The goal, 4 s for the 720-game cohort, is scaled by the games actually
   played (4 s x games/720).
6. **Solver**: ``solve(scenario, "auto")`` (and, for reference, ``"milp"``) per shipped
   scenario, and a seeded random 6-resource x 6-projects-per-agent scenario with
   ``"milp"`` and ``"auto"``; median milliseconds over ``--solver-reps`` repetitions.
7. Tables on stdout and a JSON file with every figure and the machine's description
   (default ``benchmarks/results/env_throughput.json``; ``--quick`` writes
   ``env_throughput_quick.json`` next to it unless ``--out`` is given).

Only numpy Generators are used for randomness in what this script draws (TextArena seeds
Python's ``random`` inside its own reset); all timing uses ``time.perf_counter``.
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

import negotiation_env
from benchmarks.machine import machine_info as _machine_info, write_result
from baselines.scripted import make as make_policy
from negotiation_env.games.resource.scenario import Scenario, list_scenarios, load_scenario
from negotiation_env.games.resource.solver import feasible_run_vectors, individual_best, solve
from negotiation_env.wrappers import numeric
from pettingzoo import ParallelEnv
from pettingzoo.classic import rps_v2, tictactoe_v3

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


# --------------------------------------------------------------------------- trivial valid policies
#
# The rows with a goal are played by the cheapest policy that plays a valid game, so the
# figure is the env's own cost: the policy answers from a few feature entries (or the
# action mask) with actions built once per game.

TALK = "I plan to buy what my projects need; please do the same."


def resource_trivial_actors(env) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    """Resource: talk once a round (the opening turn), then buy the own individual optimum
    (``solver.individual_best``) with engine-assigned runs; valid in every state."""
    game = env.unwrapped.game
    layout = game.layout
    talk_i, used_i = layout.slice("phase").start, layout.slice("turns_used").start
    sc = game.base_scenario
    acts = {}
    for agent in env.possible_agents:
        purchase, _ = individual_best(sc, agent)
        talk = {"message": TALK, "decide": 0}
        buy = {"message": "", "decide": 1, "purchase": np.array([purchase[r] for r in sc.resource_ids], dtype=np.int64),
               "auto_runs": 1}

        def act(obs, talk=talk, buy=buy):
            f = obs["features"]
            return talk if f[talk_i] == 1 and f[used_i] == 0 else buy

        acts[agent] = act
    return lambda g: acts


def matrix_trivial_actors(env) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    """Matrix: one structured action valid in every phase (a message and action A)."""
    action = {"message": "I will choose A this round.", "action": 0}
    acts = {a: (lambda obs: action) for a in env.possible_agents}
    return lambda g: acts


def rulemaking_trivial_actors(env) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    """Rulemaking: every party plays Oppose with no issue (the run goes to the horizon)."""
    action = {"move": 1, "issue": 0, "rationale": "We keep our position on the draft rule."}
    acts = {a: (lambda obs: action) for a in env.possible_agents}
    return lambda g: acts


def dond_trivial_actors(env) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    """Deal or No Deal: every turn a proposal that keeps nothing (valid in every state,
    never accepted, so the game goes to its turn limit)."""
    action = {"message": "You take everything.", "action": "propose", "take": {"books": 0, "hats": 0, "balls": 0}}
    acts = {a: (lambda obs: action) for a in env.possible_agents}
    return lambda g: acts


def masked_first_actors(env) -> Callable[[int], dict[str, Callable[[Any], Any]]]:
    """Numeric view: the first index the action mask allows."""
    acts = {a: (lambda obs: int(obs["action_mask"].argmax())) for a in env.possible_agents}
    return lambda g: acts


# --------------------------------------------------------------------------- parallel and TextArena loops


def run_parallel_games(env, n_games: int, seed0: int, make_actors) -> dict[str, float]:
    """The plain parallel loop, ``env.step({a: policy(obs[a]) for a in env.agents})``;
    a "step" is one ``env.step`` call. ``t_last`` stays 0 (observations come back from step)."""
    c = _new_counts()
    pc = time.perf_counter
    for g in range(n_games):
        actors = make_actors(g)
        t0 = pc()
        obs, _infos = env.reset(seed=seed0 + g)
        c["t_reset"] += pc() - t0
        t_step = t_policy = 0.0
        calls = live = 0
        while env.agents:
            t0 = pc()
            actions = {a: actors[a](obs[a]) for a in env.agents}
            t1 = pc()
            obs, _r, _term, _trunc, _infos = env.step(actions)
            t2 = pc()
            t_policy += t1 - t0
            t_step += t2 - t1
            calls += 1
            live += len(actions)
        c["games"] += 1
        c["step_calls"] += calls
        c["live_steps"] += live
        c["t_step"] += t_step
        c["t_policy"] += t_policy
    return c


def textarena_available() -> str | None:
    """TextArena's version when the ``bench`` extra is installed, else None."""
    try:
        import textarena  # noqa: F401
    except ImportError:
        return None
    return _version_of("textarena")


def _version_of(pkg: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return None


def run_textarena_games(make_env, n_games: int, seed0: int, make_actors) -> dict[str, float]:
    """TextArena's loop: ``pid, obs = env.get_observation(); done, info = env.step(action)``
    until done, then ``env.close()``; the env time is get_observation + step (making the env,
    reset and close are timed as reset). Each game gets a fresh ``ta.make`` env: TextArena
    0.7.4's observation wrappers keep their messages across ``reset`` (a SimpleNegotiation
    observation grew from 1 kB to 55 kB over 50 games on one env), so a reused env would
    be timed on an ever longer history."""
    c = _new_counts()
    pc = time.perf_counter
    for g in range(n_games):
        actors = make_actors(g)
        t0 = pc()
        env = make_env()
        env.reset(num_players=2, seed=seed0 + g)
        c["t_reset"] += pc() - t0
        t_step = t_last = t_policy = 0.0
        calls = 0
        done = False
        while not done:
            t0 = pc()
            pid, obs = env.get_observation()
            t1 = pc()
            action = actors[pid](obs)
            t2 = pc()
            done, _info = env.step(action=action)
            t3 = pc()
            t_last += t1 - t0
            t_policy += t2 - t1
            t_step += t3 - t2
            calls += 1
        t0 = pc()
        env.close()
        c["t_reset"] += pc() - t0
        c["games"] += 1
        c["step_calls"] += calls
        c["live_steps"] += calls
        c["t_step"] += t_step
        c["t_last"] += t_last
        c["t_policy"] += t_policy
    return c


def textarena_actors(text: str) -> Callable[[int], dict[int, Callable[[Any], str]]]:
    acts = {0: (lambda obs: text), 1: (lambda obs: text)}
    return lambda g: acts


#: TextArena peers: env id, the constant valid answer, the row of ours it is set beside
TEXTARENA_ENVS = (
    ("SimpleNegotiation-v0", "[Deny] Let us keep what we have.", "resource_aec"),
    ("IteratedPrisonersDilemma-v0", "I will cooperate. [Cooperate]", "matrix_aec"),
)


# --------------------------------------------------------------------------- per-step cost over a long game


def long_game(game: str, config: dict[str, Any], make_actors, seed: int, window: int) -> dict[str, float]:
    """One long AEC game with the trivial policy, each step timed (``env.last()`` +
    ``env.step``) and filed under the round it was taken in (``game.round`` before the
    step); returns the steps and seconds of the first ``window`` rounds and of the last
    ``window`` rounds."""
    env = negotiation_env.env(game=game, **config)
    actors = make_actors(env)(0)
    inner = env.unwrapped.game
    env.reset(seed=seed)
    pc = time.perf_counter
    per_round: dict[int, list[float]] = {}
    for agent in env.agent_iter():
        r = inner.round
        t0 = pc()
        obs, _rew, term, trunc, _info = env.last()
        t1 = pc()
        action = None if term or trunc else actors[agent](obs)
        t2 = pc()
        env.step(action)
        t3 = pc()
        per_round.setdefault(r, []).append((t1 - t0) + (t3 - t2))
    rounds = sorted(per_round)
    first = [t for r in rounds[:window] for t in per_round[r]]
    last = [t for r in rounds[-window:] for t in per_round[r]]
    conv = len(env.observe(env.possible_agents[0])["conversation"])
    return {"first_steps": len(first), "first_s": sum(first), "last_steps": len(last), "last_s": sum(last),
            "rounds": len(rounds), "conversation_messages_at_end": conv}


# --------------------------------------------------------------------------- the default scripted cohort


def run_cohort(workers: int) -> dict[str, Any]:
    """``negotiation-env run --out TMP --workers N`` (the shipped default config), in a
    subprocess; the wall time of the whole command and the runner's own figure."""
    import re
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "negotiation_env.cli", "run", "--out", str(Path(tmp) / "run"),
               "--workers", str(workers)]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - t0
    out = proc.stdout + proc.stderr
    m = re.search(r"(\d[\d,]*)/(\d[\d,]*) games.*?played (\d[\d,]*) now in ([\d.]+) s", out, re.S)
    games = int(m.group(3).replace(",", "")) if m else None
    return {"returncode": proc.returncode, "workers": workers, "wall_s": wall, "games": games,
            "runner_s": float(m.group(4)) if m else None, "command": " ".join(cmd[1:]),
            "tail": out[-600:] if proc.returncode else ""}


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
    """Replays the games untimed and counts invalid actions (0 for every policy here)."""
    game = env.unwrapped.game
    errors = 0
    for g in range(n_games):
        acts = actors(g)
        if isinstance(env, ParallelEnv):
            obs, _ = env.reset(seed=seed0 + g)
            while env.agents:
                obs = env.step({a: acts[a](obs[a]) for a in env.agents})[0]
        else:
            env.reset(seed=seed0 + g)
            for agent in env.agent_iter():
                obs, _r, term, trunc, _i = env.last()
                env.step(None if term or trunc else acts[agent](obs))
        errors += sum(1 for e in game.events if e["type"] == "validation_error")
    return errors


#: row -> (reference row, the goal: at most this multiple of the reference's µs/step)
GOALS = {
    "resource_aec": ("tictactoe_v3", 0.5),
    "matrix_aec": ("rps_v2", 0.6),
    "rulemaking_aec": ("tictactoe_v3", 1.0),
    "matrix_numeric": ("rps_v2", 1.0),
    "resource_parallel": ("rps_v2_parallel", 0.5),
}
#: rows without a goal and the reference their ratio is taken against
REFERENCE_OF = {"resource_structured": "tictactoe_v3", "resource_text": "tictactoe_v3"}
REFERENCE_ROWS = ("rps_v2", "tictactoe_v3", "rps_v2_parallel")


def build_rows(args) -> dict[str, tuple[str, Any, int, Callable]]:
    """name -> (loop kind, env, games per round, make_actors)."""
    g = args.games
    seed = args.seed
    rows: dict[str, tuple[str, Any, int, Callable]] = {}
    res = negotiation_env.env(game="resource")
    rows["resource_aec"] = ("aec", res, g, resource_trivial_actors(res))
    mat = negotiation_env.env(game="matrix")
    rows["matrix_aec"] = ("aec", mat, max(1, g * 2 // 5), matrix_trivial_actors(mat))
    rul = negotiation_env.env(game="rulemaking")
    rows["rulemaking_aec"] = ("aec", rul, g, rulemaking_trivial_actors(rul))
    matn = numeric(negotiation_env.env(game="matrix"))
    rows["matrix_numeric"] = ("aec", matn, max(1, g * 2 // 5), masked_first_actors(matn))
    resp = negotiation_env.parallel_env(game="resource")
    rows["resource_parallel"] = ("parallel", resp, g, resource_trivial_actors(resp))
    rows["resource_structured"] = ("aec", negotiation_env.env(game="resource"), g, resource_actors("structured", seed))
    rows["resource_text"] = ("aec", negotiation_env.env(game="resource"), g, resource_actors("text", seed))
    rps_env, ttt_env, rpsp = rps_v2.env(), tictactoe_v3.env(), rps_v2.parallel_env()
    rows["rps_v2"] = ("aec", rps_env, args.rps_games, rps_actors(rps_env, seed))
    rows["tictactoe_v3"] = ("aec", ttt_env, args.ttt_games, tictactoe_actors(ttt_env, seed))
    rows["rps_v2_parallel"] = ("parallel", rpsp, args.rps_games, rps_actors(rpsp, seed))
    if args.textarena and textarena_available():
        import textarena as ta

        for env_id, text, _ours in TEXTARENA_ENVS:
            rows[f"textarena:{env_id}"] = ("textarena", lambda env_id=env_id: ta.make(env_id), g,
                                           textarena_actors(text))
    return rows


#: env seeds of round r start at seed + (r + 1) * ROUND_SEED_STRIDE (the warm-up plays seed, seed + 1)
ROUND_SEED_STRIDE = 1_000_003

RUNNERS = {"aec": run_aec_games, "parallel": run_parallel_games, "textarena": run_textarena_games}


def _ratios(rounds, num: str, den: str) -> dict[str, Any]:
    per_round = [a["us_per_step"] / b["us_per_step"] for a, b in zip(rounds[num], rounds[den])]
    return {**summarize(per_round), "per_round": per_round}


def bench_envs(args) -> dict[str, Any]:
    seed = args.seed
    rows = build_rows(args)

    # warm-up: imports, caches, the resource game's cached solver figures
    for kind, env, n, actors in rows.values():
        RUNNERS[kind](env, min(2, n), seed, actors)

    rounds: dict[str, list[dict[str, float]]] = {k: [] for k in rows}
    for r in range(args.reps):
        # every round plays new games (env seeds move on), so what the envs keep between
        # games (rendered texts, parsed actions) helps only as far as games share content
        round_seed = seed + (r + 1) * ROUND_SEED_STRIDE
        for name, (kind, env, n, actors) in rows.items():
            gc.collect()
            c = RUNNERS[kind](env, n, round_seed, actors)
            rounds[name].append({**c, **derived(c)})
        print(f"  round {r + 1}/{args.reps} done", file=sys.stderr, flush=True)

    out: dict[str, Any] = {"envs": {}, "ratios": {}, "goals": {}}
    for name, rs in rounds.items():
        first = rs[0]
        out["envs"][name] = {
            "api": rows[name][0],
            "games": first["games"],
            "step_calls_per_round": first["step_calls"],
            "live_steps_per_round": first["live_steps"],
            "identical_rounds": all(x["step_calls"] == first["step_calls"] for x in rs),
            **{k: summarize([x[k] for x in rs]) for k in ("us_per_step", "us_step_only", "us_last_only",
                                                           "us_policy_per_action", "ms_reset_per_game",
                                                           "steps_per_game")},
            "rounds": rs,
        }
    ours = [n for n in rows if n not in REFERENCE_ROWS]
    for num in ours:
        for den in ("rps_v2", "tictactoe_v3"):
            out["ratios"][f"{num}/{den}"] = _ratios(rounds, num, den)
    for num, (den, goal) in GOALS.items():
        ratio = out["ratios"].get(f"{num}/{den}") or _ratios(rounds, num, den)
        out["ratios"][f"{num}/{den}"] = ratio
        out["goals"][num] = {"reference": den, "goal": goal, "ratio": ratio["median"], "met": ratio["median"] <= goal}
    for env_id, _text, mine in TEXTARENA_ENVS:
        peer = f"textarena:{env_id}"
        if peer in rows:
            out["ratios"][f"{mine}/{peer}"] = _ratios(rounds, mine, peer)
    out["ratios"]["resource_text/resource_structured"] = _ratios(rounds, "resource_text", "resource_structured")
    out["validation_errors"] = {
        name: count_validation_errors(rows[name][1], rows[name][2], seed, rows[name][3])
        for name in rows if rows[name][0] != "textarena" and name not in REFERENCE_ROWS
    }
    out["resource_scenario"] = rows["resource_structured"][1].unwrapped.game.scenario.name
    out["textarena"] = textarena_available() if args.textarena else "skipped (--no-textarena)"
    return out


#: long games of the flat-cost row: game -> (config, actors, rounds in each timed window)
def bench_long(args) -> dict[str, Any]:
    """Per-step cost in the first vs the last rounds of a long game (the cost must not
    grow with the game's length); median over ``--reps`` games of each figure."""
    cases = {
        "resource": ({"num_rounds": args.long_rounds}, resource_trivial_actors),
        "matrix": ({"num_rounds": 10 * args.long_rounds}, matrix_trivial_actors),
    }
    out = {}
    for name, (config, actors) in cases.items():
        window = max(1, config["num_rounds"] // 20)
        runs = []
        long_game(name, config, actors, args.seed + 10_000, window)  # warm-up: imports, solver, kept texts
        for r in range(args.reps):
            gc.collect()
            runs.append(long_game(name, config, actors, args.seed + r, window))
        first = statistics.median(x["first_s"] / x["first_steps"] * 1e6 for x in runs)
        last = statistics.median(x["last_s"] / x["last_steps"] * 1e6 for x in runs)
        n_msgs = runs[0]["conversation_messages_at_end"]
        out[name] = {"config": config, "window_rounds": window, "us_first": first, "us_last": last,
                     "steps_per_s_first": 1e6 / first, "steps_per_s_last": 1e6 / last, "last_over_first": last / first,
                     "conversation_messages_at_end": n_msgs,
                     "ns_per_message_held": (last - first) * 1e3 / n_msgs if n_msgs else None, "runs": runs}
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
    """One cold solve: the solver's per-process caches are emptied first (a cached
    solve would time a dictionary lookup)."""
    from negotiation_env.games.resource import solver as _solver

    for cached in ("_solve", "_feasible_run_vectors"):  # (absent before the caches existed)
        if hasattr(getattr(_solver, cached, None), "cache_clear"):
            getattr(_solver, cached).cache_clear()
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


ROW_LABELS = {
    "resource_aec": "resource aec",
    "matrix_aec": "matrix aec",
    "rulemaking_aec": "rulemaking aec",
    "matrix_numeric": "matrix numeric aec",
    "resource_parallel": "resource parallel",
    "resource_structured": "resource aec random",
    "resource_text": "resource aec random text",
    "rps_v2": "rps_v2",
    "tictactoe_v3": "tictactoe_v3",
    "rps_v2_parallel": "rps_v2 parallel",
    "textarena:SimpleNegotiation-v0": "ta SimpleNegotiation",
    "textarena:IteratedPrisonersDilemma-v0": "ta IteratedPD",
}
SHORT = {"tictactoe_v3": "ttt", "rps_v2": "rps", "rps_v2_parallel": "rps par"}


def build_tables(envs: dict[str, Any], solver: dict[str, Any], args, long: dict[str, Any] | None = None,
                 cohort: dict[str, Any] | None = None) -> list[tuple[str, list[str], list[list[str]], str]]:
    """(title, header, rows, caption) for each table."""
    e = envs["envs"]
    header = ["env", "games", "steps (live)", "µs/step", "min–max", "step()", "last()",
              "policy", "reset ms", "× rps", "× ttt", "goal", "met"]
    rows = []
    for name, d in e.items():
        if name in REFERENCE_ROWS:
            ratios = ["", ""]
        else:
            ratios = [f"{envs['ratios'][f'{name}/{den}']['median']:.2f}" for den in ("rps_v2", "tictactoe_v3")]
        goal = envs["goals"].get(name)
        if goal is not None:
            ref = goal["reference"]
            goal_s = f"≤{goal['goal']:g}× {SHORT[ref]}" + (f" ({goal['ratio']:.2f})" if ref == "rps_v2_parallel" else "")
            met = "yes" if goal["met"] else "NO"
        else:
            goal_s, met = "", ""
        u = d["us_per_step"]
        rows.append([
            ROW_LABELS.get(name, name), str(d["games"]), f"{d['step_calls_per_round']} ({d['live_steps_per_round']})",
            _f(u["median"]), f"{_f(u['min'])}–{_f(u['max'])}", _f(d["us_step_only"]["median"]),
            _f(d["us_last_only"]["median"]), _f(d["us_policy_per_action"]["median"]),
            _f(d["ms_reset_per_game"]["median"], 3), *ratios, goal_s, met,
        ])
    tr = envs["ratios"]["resource_text/resource_structured"]["median"]
    peers = [f"{mine} / {env_id} = {envs['ratios'][f'{mine}/textarena:{env_id}']['median']:.2f}"
             for env_id, _t, mine in TEXTARENA_ENVS if f"{mine}/textarena:{env_id}" in envs["ratios"]]
    ta = envs.get("textarena")
    cap1 = (f"Median of {args.reps} interleaved rounds, new env seeds every round; games and steps are per round.\n"
            f"µs/step = time in env.step + env.last() per env.step call (incl. each agent's final step(None)); "
            f"step(), last(), policy: µs each (policy per action); policy and reset excluded from µs/step. "
            f"Parallel rows: per env.step call (both agents' actions). "
            f"TextArena rows: get_observation + step per step.\n"
            f"× rps, × tictactoe = median of the per-round ratios of env µs/step; the parallel row's goal is "
            f"against rps_v2 parallel. resource text/structured = {tr:.2f}.\n"
            + (f"TextArena {ta}: " + "; ".join(peers) + ".\n" if peers else
               f"TextArena rows: not run ({ta or 'textarena not installed: pip install -e .[bench]'}).\n")
            + f"Resource scenario {envs['resource_scenario']}; invalid actions: "
            + ", ".join(f"{k} {v}" for k, v in envs["validation_errors"].items()) + ".")
    tables = [("Env throughput (µs per agent step)", header, rows, cap1)]
    if long:
        lh = ["game", "rounds", "messages at end", "timed rounds", "first µs/step", "last µs/step",
              "first steps/s", "last steps/s", "last/first", "ns/message"]
        lrows = [[name, str(d["config"]["num_rounds"]), f"{d['conversation_messages_at_end']:,}",
                  f"first {d['window_rounds']} / last {d['window_rounds']}", _f(d["us_first"]), _f(d["us_last"]),
                  f"{d['steps_per_s_first']:,.0f}", f"{d['steps_per_s_last']:,.0f}", f"{d['last_over_first']:.2f}",
                  "" if d["ns_per_message_held"] is None else f"{d['ns_per_message_held']:.1f}"]
                 for name, d in long.items()]
        tables.append(("Per-step cost over a long game (trivial policy, AEC)", lh, lrows,
                       f"Median over {args.reps} games after one warm-up game; messages at end = the first agent's "
                       f"conversation length; ns/message = (last - first) µs/step per message held at the end (the "
                       f"observation's conversation is a tuple copied once a step)."))
    if cohort:
        ch = ["command", "games", "workers", "wall s", "runner s", "s per 720 games", "goal (wall)", "met"]
        games = cohort["games"] or 0
        goal = 4.0 * games / 720 if games else float("nan")
        crow = [cohort["command"], str(games), str(cohort["workers"]), f"{cohort['wall_s']:.1f}",
                "" if cohort["runner_s"] is None else f"{cohort['runner_s']:.1f}",
                f"{cohort['wall_s'] * 720 / games:.1f}" if games else "",
                f"≤ {goal:.1f} s (4 s × {games}/720)", ("yes" if cohort["wall_s"] <= goal else "NO") if games else "failed"]
        tables.append(("Default scripted cohort", ch, [crow],
                       "wall s = the whole command (interpreter start, planning, traces, summary); runner s = "
                       "the runner's own 'played N now in T s'."))
    return tables + _solver_tables(solver)


def _solver_tables(solver: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]], str]]:
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
    return [("Solver (ms per scenario)", sh, srows, cap2)]


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
    p.add_argument("--games", type=int, default=200,
                   help="games per row per round (default 200; matrix rows 2/5 of it)")
    p.add_argument("--reps", type=int, default=5, help="interleaved rounds of every row (default 5)")
    p.add_argument("--long-rounds", type=int, default=None,
                   help="rounds of the long resource game (matrix: 10x; default 100, quick 10)")
    p.add_argument("--cohort", action=argparse.BooleanOptionalAction, default=None,
                   help="time `negotiation-env run` on the shipped default config (default on; off with --quick)")
    p.add_argument("--cohort-workers", type=int, default=2, help="workers of the cohort run (default 2)")
    p.add_argument("--textarena", action=argparse.BooleanOptionalAction, default=True,
                   help="TextArena peer rows when textarena is installed (the bench extra; default on)")
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
        args.long_rounds = args.long_rounds or 10
    args.long_rounds = args.long_rounds or 100
    if args.cohort is None:
        args.cohort = not args.quick
    args.out = args.out or (QUICK_OUT if args.quick else DEFAULT_OUT)
    # rps: 15 cycles = 32 step calls a game; tictactoe: about 10; resource: about 18. The
    # baselines get more games so each env's block in a round lasts a comparable time.
    args.rps_games = args.rps_games or 3 * args.games
    args.ttt_games = args.ttt_games or 6 * args.games
    args.solver_reps = args.solver_reps or 5
    for name in ("games", "reps", "rps_games", "ttt_games", "solver_reps", "long_rounds", "cohort_workers"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    return args


def _load(avg: list[float] | None) -> str:
    return "n/a" if avg is None else f"{avg[0]:.2f}"


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    info = machine_info()
    print(f"env throughput: {args.reps} rounds x (about {args.games} games of each row, {args.rps_games} rps, "
          f"{args.ttt_games} tictactoe) ...", file=sys.stderr, flush=True)
    envs = bench_envs(args)
    print(f"long games: {args.reps} x ({args.long_rounds} resource rounds, {10 * args.long_rounds} matrix rounds) ...",
          file=sys.stderr, flush=True)
    long = bench_long(args)
    cohort = None
    if args.cohort:
        print(f"cohort: negotiation-env run on {args.cohort_workers} workers ...", file=sys.stderr, flush=True)
        cohort = run_cohort(args.cohort_workers)
    print(f"solver: {len(list_scenarios()) + 1} scenarios x {args.solver_reps} reps ...", file=sys.stderr, flush=True)
    solver = bench_solver(args)
    info["loadavg_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    wall = time.perf_counter() - t_start

    print_tables(build_tables(envs, solver, args, long, cohort))
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
        "long_games": long,
        "cohort": cohort,
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
