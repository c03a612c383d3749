"""The ``negotiation-env`` command. The CLI owns the terminal (rich); the library never prints.

    negotiation-env --version
    negotiation-env games [GAME] [--json]    # env ids, seats, conditions, config fields with defaults
    negotiation-env play [--game G] [--a SPEC] [--b SPEC] [--seat AGENT=SPEC]... [--others SPEC] [--set F=V]...
                         [--seed 0] [--text] [--human-retries N] [--trace FILE]   (resource also: --scenario mc080_1 --rounds 4 --turns 5 --theme T)
                         # SPEC: a scripted name, scripted:NAME, hf:PATH, openai:MODEL@URL,
                         # python:MODULE:FACTORY (found from the current folder) or human (you, at the terminal)
    negotiation-env serve [--game G] [--seat AGENT=SPEC|human]... [--host H --token T] [--out DIR]
                          # play in the browser; --session FILE serves a study (negotiation_env.serve)
    negotiation-env scenarios [list]     # the shipped pool with solver figures
    negotiation-env scenarios generate --ratio 0.8 --n 20 --seed 0 --out DIR [--band 0.80 0.83]
    negotiation-env scenarios pool (--out DIR | --check)   # the shipped pool, regenerated
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
import time
import warnings
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Mapping

from rich.console import Console
from rich.markup import escape

from . import GAMES, ConfigError, __version__, env as make_env, exitcodes
from .core import registry
from .core.config import build_config
from .games.resource import ScenarioError, list_scenarios, load_scenario, solve
from .console import add_format_argument, print_error, print_json, print_table, print_text, resolve_format
from .play import HumanSeat, PlayFlag, ending, play_hooks, read_answer  # noqa: F401 - read_answer: the CLI's answer reader


class _SpecField(Mapping):
    """``{game: the spec's field}`` over the registered games (:mod:`negotiation_env.core.registry`)."""

    def __init__(self, field: str):
        self._field = field

    def __getitem__(self, game: str) -> tuple[str, ...]:
        spec = registry.find(game)
        if spec is None:
            raise KeyError(game)
        return getattr(spec, self._field)

    def __iter__(self):
        return iter(registry.names())

    def __len__(self) -> int:
        return len(registry.names())


#: the policies `play` seats where no flag names one, in the game's seat order: each
#: registered game's ``default_seats`` (:mod:`negotiation_env.core.registry`)
DEFAULT_SEATS = _SpecField("default_seats")
SPEC_FORMS = "a scripted name, scripted:NAME, hf:PATH, openai:MODEL@URL, python:MODULE:FACTORY or human"


#: `play`'s exit code for a game an error ended (a policy that raised, a dyad an invalid
#: answer ended): the code `run` gives a run with games that ended in error
EXIT_GAME_ERROR = exitcodes.NOTHING


class PlayError(ValueError):
    """A bad `play` flag; the message names it (exit 2)."""


class ModelUnavailable(RuntimeError):
    """A seat's model did not answer its probe before the game (exit 3, as `run`'s preflight)."""


def scripted_names(game: str) -> list[str]:
    """The scripted policy names of ``game`` (what ``scripted:NAME`` takes there): the
    names of the module its spec names (:mod:`negotiation_env.core.registry`), the ones
    the runner accepts; [] for a game without scripted policies."""
    import importlib

    spec = registry.get(game)
    if not spec.has("scripted"):
        return []
    return list(getattr(importlib.import_module(spec.scripted), "POLICIES", None) or ())


def _retries(text: str) -> int:
    """``--human-retries N``: a whole number >= 0."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return n


def _value(text: str):
    """A ``--set`` value: JSON where it parses (numbers, true/false/null, lists), else the text."""
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


def _play_flags() -> list[tuple[str, "PlayFlag"]]:
    """(game, flag) for every registered game's own ``play`` flags
    (:attr:`~negotiation_env.play.PlayHooks.config_flags`), in registry order; a flag two
    games declare is added once, for the first."""
    out, seen = [], set()
    for name in registry.names():
        hooks = play_hooks(name)
        for f in hooks.config_flags if hooks is not None else ():
            if f.flag not in seen:
                seen.add(f.flag)
                out.append((name, f))
    return out


def _play_config(args: argparse.Namespace) -> dict:
    """The game config from --set FIELD=VALUE and the game's own flags (its play hooks'
    ``config_flags``: the resource game's --scenario, --rounds, --turns, --theme), each of
    which gives its field the flag's default (mc080_1, 4 rounds, 5 talk turns) where
    neither it nor --set sets one."""
    config: dict = {}
    by_flag: dict[str, str] = {}
    hooks = play_hooks(args.game)
    own = list(hooks.config_flags) if hooks is not None else []
    others = [(g, f) for g, f in _play_flags() if f.flag not in {o.flag for o in own}
              and getattr(args, f.dest, None) is not None]
    if others:
        owners = " / ".join(dict.fromkeys(g for g, _ in others))
        raise PlayError(f"{', '.join(f.flag for _, f in others)}: {owners}-game flags; give the {args.game} game's "
                        f"config as --set FIELD=VALUE ('negotiation-env games {args.game}' lists its fields)")
    for item in args.set:
        field, sep, text = item.partition("=")
        if not sep or not field:
            raise PlayError(f"--set expects FIELD=VALUE; got {item!r}")
        if field in by_flag:
            raise PlayError(f"--set {item}: {field} is already set by {by_flag[field]}")
        config[field] = _value(text)
        by_flag[field] = f"--set {item}"
    for f in own:
        v = getattr(args, f.dest, None)
        if f.field in config and v is not None:
            raise PlayError(f"{f.flag} and {by_flag[f.field]} both set {f.field}; give one")
        if v is not None:
            config[f.field] = v if f.convert is None else f.convert(v)
        elif f.field not in config and f.default is not None:
            config[f.field] = f.default
    return config


def _seat_specs(args: argparse.Namespace, agents: list[str]) -> dict[str, tuple[str, str]]:
    """``{seat: (flag, spec text)}`` for every seat: --a/--b (the first two seats), --seat
    AGENT=SPEC, then --others or the game's defaults."""
    seats: dict[str, tuple[str, str]] = {}
    for flag, i in (("--a", 0), ("--b", 1)):
        text = getattr(args, flag[2:])
        if text is not None:
            if i >= len(agents):
                raise PlayError(f"{flag}: the {args.game} game has {len(agents)} seat(s)")
            seats[agents[i]] = (flag, text)
    for item in args.seat:
        agent, sep, text = item.partition("=")
        if not sep or not text:
            raise PlayError(f"--seat expects AGENT=SPEC; got {item!r}")
        if agent not in agents:
            raise PlayError(f"--seat {item}: unknown seat {agent!r}; the {args.game} game's seats: {', '.join(agents)}")
        if agent in seats:
            raise PlayError(f"--seat {item}: seat {agent} is already given by {seats[agent][0]}")
        seats[agent] = ("--seat", text)
    defaults = DEFAULT_SEATS.get(args.game, ())
    for i, agent in enumerate(agents):
        if agent not in seats:
            if args.others is not None:
                seats[agent] = ("--others", args.others)
            elif i < len(defaults):
                seats[agent] = ("default", defaults[i])
            else:
                raise PlayError(f"no policy for seat {agent}: give --seat {agent}=SPEC or --others SPEC")
    return {a: seats[a] for a in agents}


def _build_policy(flag: str, text: str, game: str, output: str, seed: int | None, console: Console,
                  human_retries: int | None = None):
    """The policy of one seat: ``human``, a bare scripted name or a runner policy spec
    (:func:`negotiation_env.runner.policies.resolve_factory`)."""
    from pydantic import ValidationError

    from .runner.config import PolicyEntry
    from .runner.policies import PolicyUnavailable, resolve_factory

    if text == "human":
        return HumanSeat(console, human_retries)
    bare = ":" not in text
    spec = f"scripted:{text}" if bare else text
    options = {"output": output} if spec.startswith("scripted:") else {}
    try:
        entry = PolicyEntry(spec=spec, options=options)
    except ValidationError as e:
        msg = "; ".join(str(err["msg"]).removeprefix("Value error, ") for err in e.errors())
        raise PlayError(f"{flag} {text}: {msg} (a seat takes {SPEC_FORMS})") from None
    try:
        factory = resolve_factory(entry, game)
    except PolicyUnavailable as e:
        if bare:
            raise PlayError(f"{flag}: unknown policy {text!r} for the {game} game; available: "
                            f"{', '.join(scripted_names(game))} (or {SPEC_FORMS})") from None
        raise PlayError(f"{flag} {text}: {e}") from None
    try:
        policy = factory(seed)
    except (TypeError, ValueError, OSError) as e:
        raise PlayError(f"{flag} {text}: {e}") from None
    if callable(getattr(policy, "probe", None)):  # a model: one short call first, as the runner's preflight
        try:
            policy.probe()
        except Exception as e:  # noqa: BLE001 - any failure means no game can be played with it
            raise ModelUnavailable(f"{flag} {text}: the model did not answer a first short call: {e}") from None
    return policy


def _play(args: argparse.Namespace, console: Console) -> int:
    err = Console(stderr=True)
    try:
        config = _play_config(args)
        env = make_env(game=args.game, render_mode="ansi", **config)
        agents = list(env.possible_agents)
        seats = _seat_specs(args, agents)
        output = "text" if args.text else "structured"
        policies, models = {}, {}
        for i, (agent, (flag, text)) in enumerate(seats.items()):
            seed = None if args.seed is None else args.seed + i
            if text.partition(":")[0] in ("hf", "openai"):  # one model for all its seats, as the runner does
                if text not in models:
                    models[text] = _build_policy(flag, text, args.game, output, seed, console)
                policies[agent] = models[text]
            else:
                policies[agent] = _build_policy(flag, text, args.game, output, seed, console, args.human_retries)
        if args.human_retries is not None and not any(isinstance(p, HumanSeat) for p in policies.values()):
            raise PlayError("--human-retries: no seat is human (give --a human, --b human or --seat AGENT=human)")
    except (PlayError, ModelUnavailable) as e:
        return print_error(str(e), 2 if isinstance(e, PlayError) else 3)
    writer = None
    if args.trace is not None:  # the game recorded as a served game records it (negotiation_env.serve)
        from .play import seat_info
        from .storage import describe
        from .traces.recorder import TraceRecorder
        from .traces.writer import TraceWriter

        infos = {agent: seat_info(text, None if isinstance(policies[agent], HumanSeat) else policies[agent],
                                  None if args.seed is None else args.seed + i)
                 for i, (agent, (_, text)) in enumerate(seats.items())}
        try:
            writer = TraceWriter(args.trace)
        except OSError as e:
            return print_error(f"--trace: {describe(e)}", exitcodes.STORAGE)
        env = TraceRecorder(env, policies=policies, policy_info=infos, writer=writer)
    try:
        return _play_game(args, console, err, env, policies, seats, agents)
    finally:
        if writer is not None:
            writer.close()


def _play_game(args, console, err, env, policies, seats, agents) -> int:
    env.reset(seed=args.seed)
    game = env.unwrapped.game
    for agent, policy in policies.items():
        if isinstance(policy, HumanSeat):
            policy.bind(args.game, game, agent)
    totals = {a: 0.0 for a in env.possible_agents}
    events = 0
    try:
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            events += len(info["events"])
            env.step(None if term or trunc else policies[agent].act(obs))
    except (EOFError, KeyboardInterrupt) as e:
        console.print(env.render(), markup=False, highlight=False)
        why = "stdin closed" if isinstance(e, EOFError) else "interrupted"
        err.print(f"game stopped ({why}) at {agent}'s turn; nothing was scored", markup=False, highlight=False)
        return 1
    except Exception as e:  # noqa: BLE001 - a policy under development may raise anything: the game ends in error
        if callable(getattr(env, "abort", None)):  # --trace: the game is recorded as ended in error
            env.abort(e)
        console.print(env.render(), markup=False, highlight=False)
        return print_error(f"the game ended in error at {agent}'s turn ({seats[agent][1]}): "
                           f"{type(e).__name__}: {e}", EXIT_GAME_ERROR)
    console.print(env.render(), markup=False, highlight=False)
    hooks = play_hooks(args.game)
    if hooks is not None and hooks.result_table is not None:
        title, columns, justify, rows = hooks.result_table(game, {a: s[1] for a, s in seats.items()}, totals, events)
    else:
        title = f"{args.game} ({env.metadata['name']}), seed {args.seed}"
        columns, justify = ["seat", "policy", "reward"], ["left", "left", "right"]
        rows = [[agent, seats[agent][1], f"{totals[agent]:g}"] for agent in agents]
    print_table(console, title, columns, rows, resolve_format(None, console), justify=justify)
    why, error_ended = ending(args.game, game)
    console.print(f"Game {why}.", markup=False, highlight=False, soft_wrap=True)
    if error_ended:
        return print_error(f"the game {why}", EXIT_GAME_ERROR)
    return 0


#: the config fields each game's conditions are (the papers' factors): each registered
#: game's ``condition_fields``; their values come from the game's ``condition_values``
#: part or, where the game keeps them only in its validator, from that validator
#: (:func:`_allowed`), so the list cannot drift from what is accepted
CONDITION_FIELDS = _SpecField("condition_fields")


class _Probe:
    def __repr__(self) -> str:
        return "<probe>"


def _allowed(cfg_cls: type, field: str) -> list[str] | None:
    """The values ``cfg_cls`` accepts for a choice or boolean ``field``, read from the
    error its validator gives an impossible value (None when it names no list)."""
    import ast

    try:
        build_config(cfg_cls, {field: _Probe()})
    except ConfigError as e:
        msg = str(e)
        if "must be True or False" in msg:
            return ["True", "False"]
        m = re.search(r"must be one of (.*); got <probe>", msg)
        if m:
            try:
                return [str(v) for v in ast.literal_eval(f"({m.group(1)},)")]
            except (ValueError, SyntaxError):
                return None
    except Exception:  # noqa: BLE001 - a field that does not take a probe names no list
        return None
    return None


def game_conditions(game: str) -> dict[str, list[str]]:
    """``{config field: values}`` of the conditions ``game`` varies."""
    spec = registry.get(game)
    cfg_cls = spec.config_cls
    out: dict[str, list[str]] = dict(spec.part("condition_values")()) if spec.has("condition_values") else {}
    for field in spec.condition_fields:
        if field not in out:
            values = _allowed(cfg_cls, field)
            if values is not None:
                out[field] = values
    return out


def describe_game(game: str) -> dict:
    """What ``negotiation-env games`` prints for ``game``, as data."""
    from .core.configdoc import config_fields, plain

    cfg_cls, game_cls = GAMES[game]
    return {
        "game": game,
        "env_id": game_cls.metadata["name"],
        "config_class": f"{cfg_cls.__module__}.{cfg_cls.__name__}",
        "seats": list(game_cls(cfg_cls()).possible_agents),
        "conditions": game_conditions(game),
        "scripted_policies": scripted_names(game),
        "default_seats": list(DEFAULT_SEATS.get(game, ())),
        "fields": [{"name": f.name, "type": plain(f.type), "default": f.default, "description": plain(f.description)}
                   for f in config_fields(cfg_cls)],
    }


def _games(args: argparse.Namespace, console: Console) -> int:
    infos = [describe_game(g) for g in ([args.game] if args.game else GAMES)]
    fmt = resolve_format(args.format, console)
    if fmt == "json":
        print_json(console, infos)
        return 0
    for d in infos:
        head = f"{d['game']}  (env id {d['env_id']}: negotiation_env.make({d['env_id']!r}))"
        lines = [f"seats: {', '.join(d['seats'])}",
                 f"scripted policies: {', '.join(d['scripted_policies']) or 'none'}",
                 "conditions:"] + [f"  {k}: {', '.join(v)}" for k, v in d["conditions"].items()]
        if fmt == "markdown":
            print_text(console, "\n".join([f"## {head}", ""] + [f"- {ln}" if not ln.startswith(" ") else
                                                                 f"  - {ln.strip()}" for ln in lines]), fmt)
            console.out("", highlight=False)
        else:
            print_text(console, head, fmt, style="bold")
            for ln in lines:
                print_text(console, "  " + ln, fmt)
        print_table(console, f"{d['game']}: config fields ({d['config_class']})",
                    ["field", "type", "default", "description"],
                    [[f["name"], f["type"], str(f["default"]), f["description"] or ""] for f in d["fields"]], fmt,
                    wrap=(1, 2, 3))
    return 0


def _scenarios(args: argparse.Namespace, console: Console) -> int:
    rows = []
    for name in list_scenarios():
        sol = solve(load_scenario(name))
        rows.append([name, f"{sol.individual_max['agent_a']:g}", f"{sol.individual_max['agent_b']:g}",
                     f"{sol.joint_max:g}", f"{sol.ratio:.3f}", str(sol.n_joint_optima)])
    print_table(console, "Shipped resource-game scenarios", ["name", "V_a", "V_b", "M", "M/C", "joint optima"], rows,
                resolve_format(None, console), justify=["left"] + ["right"] * 5)
    return 0


def _out_problem(out: Path, paths: list[Path], force: bool, other_names: str = "") -> str | None:
    """Why scenario files cannot be written to ``paths`` in ``out`` (made if missing), or
    None: not a writable directory, or files there already (unless ``force``)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        return f"--out {str(out)!r} is not a writable directory: {e.strerror or e}"
    clash = [p.name for p in paths if p.exists()]
    if clash and not force:
        return f"--out {str(out)!r} already has {', '.join(clash)}; pass --force to overwrite{other_names}"
    return None


def _generate(args: argparse.Namespace, console: Console) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .games.resource.generator import GenerationError, generate_pool, verify, write_scenario

    err = Console(stderr=True)

    def bad(msg: str) -> int:
        return print_error(msg, 2)

    if not (math.isfinite(args.ratio) and 0 < args.ratio <= 1):
        return bad(f"--ratio must be in (0, 1], got {args.ratio:g}")
    if not (math.isfinite(args.tolerance) and args.tolerance > 0):
        return bad(f"--tolerance must be > 0, got {args.tolerance:g}")
    if args.ratio + args.tolerance < 0.5:
        return bad(f"--ratio {args.ratio:g} is unreachable: with V_a = V_b, M/C is at least 0.5 "
                   f"(--ratio + --tolerance must be >= 0.5)")
    band = tuple(args.band) if args.band is not None else None
    if band is not None and not (all(math.isfinite(v) for v in band) and 0 < band[0] <= band[1] <= 1
                                 and band[1] >= 0.5):
        return bad(f"--band LO HI needs 0 < LO <= HI <= 1 and HI >= 0.5 (M/C is at least 0.5 with V_a = V_b), "
                   f"got {band[0]:g} {band[1]:g}")
    if args.n < 1:
        return bad(f"--n must be >= 1, got {args.n}")
    if args.seed < 0:
        return bad(f"--seed must be >= 0, got {args.seed}")
    if args.n_projects < 1:
        return bad(f"--n-projects must be >= 1, got {args.n_projects}")
    if args.max_iters < 1:
        return bad(f"--max-iters must be >= 1, got {args.max_iters}")
    if args.start < 0:
        return bad(f"--start must be >= 0, got {args.start}")
    prefix = args.prefix if args.prefix is not None else f"mc{round(args.ratio * 100):03d}_g"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\-]{0,50}", prefix):
        return bad(f"--prefix must start with a letter and use letters, digits, '_' or '-' "
                   f"(it names files and scenarios), got {prefix!r}")
    out = Path(args.out)
    paths = [out / f"{prefix}{args.start + k}.json" for k in range(args.n)]
    problem = _out_problem(out, paths, args.force, " or --start/--prefix to pick other names")
    if problem:
        return bad(problem)
    # never hand out a game that is already in the shipped pool or in the out dir
    clashing = {p.resolve() for p in paths}
    pool_dir = Path(str(importlib_resources.files("negotiation_env.games.resource") / "scenarios"))
    exclude = [load_scenario(n) for n in list_scenarios() if (pool_dir / f"{n}.json").resolve() not in clashing]
    for f in sorted(out.glob("*.json")):
        if f.resolve() in clashing:
            continue
        try:
            exclude.append(load_scenario(f))
        except ScenarioError:
            pass
    kw = dict(n_projects=args.n_projects, tolerance=args.tolerance, max_iters=args.max_iters, band=band)
    started = time.perf_counter()
    progress = Progress(
        TextColumn(f"generating M/C ~ {args.ratio:g}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[last]}"), TimeElapsedColumn(), console=console,
    )
    with progress:
        task = progress.add_task("generate", total=args.n, last="")

        def tick(done, total, result):
            progress.update(task, completed=done,
                            last=f"{result.scenario.name}: M/C {result.solution.ratio:.3f}")

        try:
            pool = generate_pool(args.ratio, args.n, args.seed, prefix=prefix, start=args.start,
                                 exclude=exclude, progress=tick, **kw)
        except ValueError as e:
            progress.stop()
            return bad(str(e))
        except GenerationError as e:
            progress.stop()
            return print_error(str(e), 1)
    target = f"{args.ratio:g} +- {args.tolerance:g}" if band is None else f"in [{band[0]:g}, {band[1]:g}]"
    rows = []
    failed = []
    for path, (scenario, result) in zip(paths, pool):
        write_scenario(result, path, pool_seed=args.seed)
        loaded = load_scenario(path)  # what a user will load, re-verified from the file
        sol, problems = verify(loaded, args.ratio, args.tolerance, band)
        if loaded != scenario:
            problems.append("the file does not load back to the generated scenario")
        if problems:
            failed.append(f"{path}: {'; '.join(problems)}")
        rows.append([path.name, f"{sol.individual_max['agent_a']:g}", f"{sol.individual_max['agent_b']:g}",
                     f"{sol.joint_max:g}", f"{sol.ratio:.3f}", str(sol.n_joint_optima),
                     str(result.iterations), str(result.restarts), str(result.seed)])
    seconds = time.perf_counter() - started
    print_table(console, f"Generated scenarios (target M/C {target})",
                ["file", "V_a", "V_b", "M", "M/C", "optima", "moves", "restarts", "seed"], rows,
                resolve_format(None, console), justify=["left"] + ["right"] * 8)
    rejected = sum(r.rejected for _, r in pool)
    console.print(f"written {len(pool)} scenario files to {out} (each re-loaded and verified by the solver); "
                  f"rejected candidates: {rejected}; {seconds:.2f} s", highlight=False, markup=False)
    if failed:
        for line in failed:
            err.print(f"[red]verification failed:[/] {escape(line)}", highlight=False)
        return 1
    return 0


def _pool(args: argparse.Namespace, console: Console) -> int:
    """``scenarios pool``: regenerate the shipped pool (generator.generate_paper_pool) into
    --out, or compare it with the shipped files (--check)."""
    from .games.resource.generator import (PAPER_BANDS, GenerationError, generate_paper_pool, verify,
                                           write_scenario)

    if (args.out is None) == (not args.check):
        return print_error("scenarios pool needs exactly one of --out DIR and --check", 2)
    if args.seed < 0:
        return print_error(f"--seed must be >= 0, got {args.seed}", 2)
    started = time.perf_counter()
    try:
        pool = generate_paper_pool(args.seed)
    except GenerationError as e:  # pragma: no cover - the defaults find every scenario
        return print_error(str(e), 1)
    rows = []
    for scenario, res in pool:
        sol = res.solution
        lo, hi = PAPER_BANDS[res.target_ratio]
        splits = " ".join(f"{a:g}/{b:g}" for a, b in res.meta["optimal_splits"])
        rows.append([scenario.name, f"{lo:g}-{hi:g}", f"{sol.individual_max['agent_a']:g}", f"{sol.joint_max:g}",
                     f"{sol.ratio:.3f}", str(sol.n_joint_optima), splits, str(res.seed)])
    print_table(console, f"The paper's pool (pool seed {args.seed})",
                ["name", "band", "V", "M", "M/C", "optima", "optimal splits", "seed"], rows,
                resolve_format(None, console), justify=["left", "right", "right", "right", "right", "right", "left",
                                                        "right"], wrap=(6,))
    seconds = time.perf_counter() - started
    if args.check:
        pool_dir = importlib_resources.files("negotiation_env.games.resource") / "scenarios"
        want = {s.name: res for s, res in pool}
        differ = []
        for name in sorted(set(want) | set(list_scenarios())):
            if name not in want:
                differ.append(f"{name}: shipped, but not in the regenerated pool")
                continue
            f = pool_dir / f"{name}.json"
            expected = want[name].to_json_dict()
            expected["meta"]["pool_seed"] = args.seed
            if not f.is_file():
                differ.append(f"{name}: in the regenerated pool, but not shipped")
            elif json.loads(f.read_text(encoding="utf-8")) != expected:
                differ.append(f"{name}: the shipped file differs from the regenerated one")
        if differ:
            for line in differ:
                Console(stderr=True).print(f"[red]differs:[/] {escape(line)}", highlight=False)
            return 1
        console.print(f"the shipped pool equals the regenerated one ({len(pool)} scenarios, {seconds:.2f} s)",
                      highlight=False, markup=False)
        return 0
    out = Path(args.out)
    paths = [out / f"{s.name}.json" for s, _ in pool]
    problem = _out_problem(out, paths, args.force)
    if problem:
        return print_error(problem, 2)
    failed = []
    for path, (scenario, res) in zip(paths, pool):
        write_scenario(res, path, pool_seed=args.seed)
        loaded = load_scenario(path)
        _, problems = verify(loaded, res.target_ratio, band=PAPER_BANDS[res.target_ratio])
        if loaded != scenario:
            problems.append("the file does not load back to the generated scenario")
        if problems:  # pragma: no cover - generate_paper_pool verifies already
            failed.append(f"{path}: {'; '.join(problems)}")
    console.print(f"written {len(pool)} scenario files to {out} (each re-loaded and verified by the solver); "
                  f"{seconds:.2f} s", highlight=False, markup=False)
    for line in failed:  # pragma: no cover
        Console(stderr=True).print(f"[red]verification failed:[/] {escape(line)}", highlight=False)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="negotiation-env", description="Negotiation games for LLM agents.")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    games = sub.add_parser("games", help="list the games: env ids, seats, conditions, config fields with defaults",
                           description="Every game (or GAME): its env id for negotiation_env.make, its seats, the "
                                       "conditions it varies, its scripted policies and every config field with "
                                       "type, default and description (from the config dataclass).")
    games.add_argument("game", nargs="?", choices=sorted(GAMES), help="one game (default: all)")
    add_format_argument(games, json_alias=True)
    games.set_defaults(func=_games)
    play = sub.add_parser(
        "play", help="play one game of any game between any policies (a human seat included)",
        description="Play one game and print its transcript and a result table. A seat takes " + SPEC_FORMS
                    + ". --a and --b are the first two seats in the game's order (resource agent_a, agent_b; matrix "
                      "agent_0, agent_1); --seat AGENT=SPEC names any seat (rulemaking has five); seats left "
                      "open get --others, else the game's defaults.")
    play.add_argument("--game", default="resource", choices=sorted(GAMES), help="the game (default resource)")
    play.add_argument("--a", default=None, help="policy of the first seat (resource default: greedy)")
    play.add_argument("--b", default=None, help="policy of the second seat (resource default: random)")
    play.add_argument("--seat", action="append", default=[], metavar="AGENT=SPEC", help="policy of one seat (repeat)")
    play.add_argument("--others", default=None, metavar="SPEC", help="policy of every seat not given otherwise")
    play.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                      help="a game config field (repeat; VALUE read as JSON where it parses, else as text)")
    play.add_argument("--seed", type=int, default=0, help="reset seed; seat i's policy gets seed + i (default 0)")
    for name, f in _play_flags():  # each game's own flags (resource: --scenario, --rounds, --turns, --theme)
        play.add_argument(f.flag, type=f.type, default=None, help=f"{name}: {f.help}")
    play.add_argument("--human-retries", type=_retries, default=None, metavar="N",
                      help="a human seat's refused answers to one prompt before the game's own rule for an invalid "
                           "answer (its retries, then its fallback) applies (default: asked again until accepted)")
    play.add_argument("--trace", default=None, metavar="FILE",
                      help="append the game's trace to FILE (JSON Lines, the schema of a run's traces.jsonl)")
    play.add_argument("--text", action="store_true",
                      help="scripted policies answer with raw text, as an LLM would (default: structured actions)")
    play.set_defaults(func=_play)
    sc = sub.add_parser("scenarios", help="list the shipped scenarios (default) or generate new ones",
                        description="Without a subcommand, 'scenarios' lists the shipped pool (same as 'scenarios list').")
    sc.set_defaults(func=_scenarios)
    sc_sub = sc.add_subparsers(dest="scenarios_command", metavar="{list,generate,pool}")
    sc_list = sc_sub.add_parser("list", help="list the shipped scenarios with their solver figures (the default)")
    sc_list.set_defaults(func=_scenarios)
    gen = sc_sub.add_parser(
        "generate", help="generate scenarios at one M/C level by simulated annealing and write them as JSON",
        description="Generate distinct scenarios on the Appendix C environment with M/C within --tolerance of "
                    "--ratio (or inside --band), V_a = V_b, an equal optimal split (the joint optima's splits "
                    "are symmetric between the agents), at least two joint optima and affordable projects; "
                    "each written file is re-loaded and verified by the exact solver.",
    )
    gen.add_argument("--ratio", type=float, default=0.8, help="target M/C in (0, 1] (default 0.8)")
    gen.add_argument("--n", type=int, default=1, help="number of scenarios (default 1)")
    gen.add_argument("--seed", type=int, default=0, help="pool seed; each scenario records its own seed")
    gen.add_argument("--out", required=True, help="directory for the JSON files (created if missing)")
    gen.add_argument("--tolerance", type=float, default=0.05, help="allowed |M/C - ratio| (default 0.05)")
    gen.add_argument("--band", type=float, nargs=2, default=None, metavar=("LO", "HI"),
                     help="M/C must lie in [LO, HI] instead (the paper's bands: 0.50 0.54, 0.80 0.83, 1 1)")
    gen.add_argument("--n-projects", type=int, default=3, help="projects per agent (default 3)")
    gen.add_argument("--max-iters", type=int, default=200_000, help="annealing moves per scenario before giving up")
    gen.add_argument("--prefix", default=None, help="file/scenario name prefix (default mcXXX_g, e.g. mc080_g)")
    gen.add_argument("--start", type=int, default=1, help="number of the first file (default 1)")
    gen.add_argument("--force", action="store_true", help="overwrite existing files of the same names")
    gen.set_defaults(func=_generate)
    pool = sc_sub.add_parser(
        "pool", help="regenerate the shipped pool (4/5/6 scenarios at M/C 0.50-0.54, 0.80-0.83, 1.00)",
        description="Regenerate the shipped scenario pool of the paper (Appendix C.2) with the annealer: "
                    "mc050_1..4 with M/C in [0.50, 0.54], mc080_1..5 in [0.80, 0.83], mc100_1..6 at 1.00, each "
                    "with V_a = V_b, an equal optimal split, at least two joint optima and affordable projects. "
                    "--out writes the files (then copy them over negotiation_env/games/resource/scenarios); "
                    "--check compares them with the shipped files instead (exit 1 when they differ).",
    )
    pool.add_argument("--out", default=None, help="directory for the JSON files (created if missing)")
    pool.add_argument("--check", action="store_true", help="compare with the shipped files instead of writing")
    pool.add_argument("--seed", type=int, default=0, help="pool seed (default 0, the shipped pool's)")
    pool.add_argument("--force", action="store_true", help="overwrite existing files of the same names")
    pool.set_defaults(func=_pool)
    from .runner.commands import add_subcommands as add_runner_subcommands  # run, export

    add_runner_subcommands(sub)
    from .analysis.commands import add_subcommands as add_analysis_subcommands  # report, view, judge

    add_analysis_subcommands(sub)
    from .train.commands import add_subcommands as add_train_subcommands  # train sft, train rl
    from .serve.commands import add_subcommands as add_serve_subcommands  # serve

    add_serve_subcommands(sub)

    add_train_subcommands(sub)
    from .exitcodes import add_epilogs

    add_epilogs(p)  # each command's --help lists its exit codes
    return p


_PACKAGE = Path(__file__).resolve().parent


def _warning_printer():
    """The CLI's form of a warning the package raises (e.g. a config setting that cannot
    count): one plain line on stderr, never read as markup, each message once per command
    (the plan check and every game build the same config); others keep Python's form."""
    default, shown = warnings.showwarning, set()

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, UserWarning) and Path(filename).resolve().is_relative_to(_PACKAGE):
            if str(message) not in shown:
                shown.add(str(message))
                Console(stderr=True).print(f"warning: {message}", highlight=False, markup=False, style="yellow")
        else:
            default(message, category, filename, lineno, file, line)

    return show


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    # a python:MODULE:FACTORY policy names a module of the folder the user runs from, as
    # `python -m` would find it; the CLI adds that folder for the command (the library
    # never touches sys.path), in front, so it wins over an installed module of that name
    cwd = os.getcwd()
    added = cwd not in sys.path
    if added:
        sys.path.insert(0, cwd)
    with warnings.catch_warnings():
        warnings.showwarning = _warning_printer()
        try:
            return args.func(args, console)
        except (ConfigError, ScenarioError) as e:
            return print_error(str(e), 2)
        finally:
            if added and cwd in sys.path:
                sys.path.remove(cwd)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
