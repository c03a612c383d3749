"""The ``negotiation-env`` command. The CLI owns the terminal (rich); the library never prints.

    negotiation-env play [--scenario mc080_1] [--seed 0] [--a greedy] [--b random] [--text]
    negotiation-env scenarios [list]     # the shipped pool with solver figures
    negotiation-env scenarios generate --ratio 0.8 --n 20 --seed 0 --out DIR
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
import time
import warnings
from importlib import resources as importlib_resources
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import ConfigError, env as make_env
from .games.resource import ScenarioError, list_scenarios, load_scenario, solve


def _play(args: argparse.Namespace, console: Console) -> int:
    from baselines.scripted import POLICIES, make

    for flag in ("a", "b"):
        name = getattr(args, flag)
        if name not in POLICIES:
            console.print(f"[red]error:[/] {escape(f'--{flag}: unknown policy {name!r}; available: ' + ', '.join(POLICIES))}")
            return 2
    output = "text" if args.text else "structured"
    config = dict(scenario=args.scenario, num_rounds=args.rounds, cheap_talk_turns=args.turns)
    if args.theme is not None:
        config["theme"] = None if args.theme == "none" else args.theme
    env = make_env(game="resource", render_mode="ansi", **config)
    env.reset(seed=args.seed)
    policies = {
        "agent_a": make(args.a, seed=args.seed, output=output),
        "agent_b": make(args.b, seed=None if args.seed is None else args.seed + 1, output=output),
    }
    totals = {a: 0.0 for a in env.possible_agents}
    events = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        events += len(info["events"])
        env.step(None if term or trunc else policies[agent].act(obs))
    console.print(env.render(), markup=False, highlight=False)
    game = env.unwrapped.game
    table = Table(title=escape(f"{args.a} (agent_a) vs {args.b} (agent_b) on {game.scenario.name}"))
    table.add_column("round")
    table.add_column("agent_a", justify="right")
    table.add_column("agent_b", justify="right")
    table.add_column("joint / M", justify="right")
    table.add_column("outcome")
    for i in range(len(game.history)):
        o = game.round_outcome(i)
        kind = "overdraw" if o["overdraw"] else ("optimal" if o["optimal"] else "suboptimal")
        table.add_row(str(i + 1), f"{o['rewards']['agent_a']:g}", f"{o['rewards']['agent_b']:g}",
                      f"{o['joint_reward']:g} / {o['joint_max']:g}", kind)
    table.add_row("total", f"{totals['agent_a']:g}", f"{totals['agent_b']:g}", "", f"{events} events")
    console.print(table)
    return 0


def _scenarios(args: argparse.Namespace, console: Console) -> int:
    table = Table(title="Shipped resource-game scenarios")
    for col in ("name", "V_a", "V_b", "M", "M/C", "joint optima"):
        table.add_column(col, justify="right" if col != "name" else "left")
    for name in list_scenarios():
        sol = solve(load_scenario(name))
        table.add_row(name, f"{sol.individual_max['agent_a']:g}", f"{sol.individual_max['agent_b']:g}",
                      f"{sol.joint_max:g}", f"{sol.ratio:.3f}", str(sol.n_joint_optima))
    console.print(table)
    return 0


def _generate(args: argparse.Namespace, console: Console) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .games.resource.generator import GenerationError, generate_pool, verify, write_scenario

    err = Console(stderr=True)

    def bad(msg: str) -> int:
        err.print(f"[red]error:[/] {escape(msg)}", highlight=False)
        return 2

    if not (math.isfinite(args.ratio) and 0 < args.ratio <= 1):
        return bad(f"--ratio must be in (0, 1], got {args.ratio:g}")
    if not (math.isfinite(args.tolerance) and args.tolerance > 0):
        return bad(f"--tolerance must be > 0, got {args.tolerance:g}")
    if args.ratio + args.tolerance < 0.5:
        return bad(f"--ratio {args.ratio:g} is unreachable: with V_a = V_b, M/C is at least 0.5 "
                   f"(--ratio + --tolerance must be >= 0.5)")
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
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        return bad(f"--out {str(out)!r} is not a writable directory: {e.strerror or e}")
    paths = [out / f"{prefix}{args.start + k}.json" for k in range(args.n)]
    clash = [p.name for p in paths if p.exists()]
    if clash and not args.force:
        return bad(f"--out {str(out)!r} already has {', '.join(clash)}; pass --force to overwrite "
                   "or --start/--prefix to pick other names")
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
    kw = dict(n_projects=args.n_projects, tolerance=args.tolerance, max_iters=args.max_iters)
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
            err.print(f"[red]error:[/] {escape(str(e))}", highlight=False)
            return 1
    table = Table(title=f"Generated scenarios (target M/C {args.ratio:g} +- {args.tolerance:g})")
    for col in ("file", "V_a", "V_b", "M", "M/C", "optima", "moves", "restarts", "seed"):
        table.add_column(col, justify="left" if col == "file" else "right", no_wrap=col in ("file", "seed"))
    failed = []
    for path, (scenario, result) in zip(paths, pool):
        write_scenario(result, path, pool_seed=args.seed)
        loaded = load_scenario(path)  # what a user will load, re-verified from the file
        sol, problems = verify(loaded, args.ratio, args.tolerance)
        if loaded != scenario:
            problems.append("the file does not load back to the generated scenario")
        if problems:
            failed.append(f"{path}: {'; '.join(problems)}")
        table.add_row(path.name, f"{sol.individual_max['agent_a']:g}", f"{sol.individual_max['agent_b']:g}",
                      f"{sol.joint_max:g}", f"{sol.ratio:.3f}", str(sol.n_joint_optima),
                      str(result.iterations), str(result.restarts), str(result.seed))
    seconds = time.perf_counter() - started
    console.print(table)
    rejected = sum(r.rejected for _, r in pool)
    console.print(f"written {len(pool)} scenario files to {out} (each re-loaded and verified by the solver); "
                  f"rejected candidates: {rejected}; {seconds:.2f} s", highlight=False, markup=False)
    if failed:
        for line in failed:
            err.print(f"[red]verification failed:[/] {escape(line)}", highlight=False)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="negotiation-env", description="Negotiation games for LLM agents.")
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one resource game between two built-in policies")
    play.add_argument("--scenario", default="mc080_1", help="shipped scenario name or JSON path")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--a", default="greedy", help="scripted policy of agent_a (any name in baselines.scripted.POLICIES)")
    play.add_argument("--b", default="random", help="scripted policy of agent_b")
    play.add_argument("--rounds", type=int, default=4)
    play.add_argument("--turns", type=int, default=5, help="cheap-talk turns per agent (0: unlimited)")
    play.add_argument("--theme", default=None, help="theme name, 'random' or 'none' (default: random)")
    play.add_argument("--text", action="store_true", help="policies answer with raw JSON text, as an LLM would")
    play.set_defaults(func=_play)
    sc = sub.add_parser("scenarios", help="list the shipped scenarios (default) or generate new ones",
                        description="Without a subcommand, 'scenarios' lists the shipped pool (same as 'scenarios list').")
    sc.set_defaults(func=_scenarios)
    sc_sub = sc.add_subparsers(dest="scenarios_command", metavar="{list,generate}")
    sc_list = sc_sub.add_parser("list", help="list the shipped scenarios with their solver figures (the default)")
    sc_list.set_defaults(func=_scenarios)
    gen = sc_sub.add_parser(
        "generate", help="generate scenarios at one M/C level by simulated annealing and write them as JSON",
        description="Generate distinct scenarios on the Appendix C environment with M/C within --tolerance of "
                    "--ratio, V_a = V_b, swap fairness, at least two joint optima and affordable projects; "
                    "each written file is re-loaded and verified by the exact solver.",
    )
    gen.add_argument("--ratio", type=float, default=0.8, help="target M/C in (0, 1] (default 0.8)")
    gen.add_argument("--n", type=int, default=1, help="number of scenarios (default 1)")
    gen.add_argument("--seed", type=int, default=0, help="pool seed; each scenario records its own seed")
    gen.add_argument("--out", required=True, help="directory for the JSON files (created if missing)")
    gen.add_argument("--tolerance", type=float, default=0.05, help="allowed |M/C - ratio| (default 0.05)")
    gen.add_argument("--n-projects", type=int, default=3, help="projects per agent (default 3)")
    gen.add_argument("--max-iters", type=int, default=200_000, help="annealing moves per scenario before giving up")
    gen.add_argument("--prefix", default=None, help="file/scenario name prefix (default mcXXX_g, e.g. mc080_g)")
    gen.add_argument("--start", type=int, default=1, help="number of the first file (default 1)")
    gen.add_argument("--force", action="store_true", help="overwrite existing files of the same names")
    gen.set_defaults(func=_generate)
    from .runner.commands import add_subcommands as add_runner_subcommands  # run, export

    add_runner_subcommands(sub)
    from .analysis.commands import add_subcommands as add_analysis_subcommands  # report, view, judge

    add_analysis_subcommands(sub)
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
    with warnings.catch_warnings():
        warnings.showwarning = _warning_printer()
        try:
            return args.func(args, console)
        except (ConfigError, ScenarioError) as e:
            Console(stderr=True).print(f"[red]error:[/] {escape(str(e))}", highlight=False)
            return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
