"""The ``negotiation-env`` command. The CLI owns the terminal (rich); the library never prints.

    negotiation-env play [--scenario mc080_1] [--seed 0] [--a greedy] [--b random] [--text]
    negotiation-env scenarios            # the shipped pool with solver figures
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

from . import ConfigError, env as make_env
from .games.resource import ScenarioError, list_scenarios, load_scenario, solve


def _play(args: argparse.Namespace, console: Console) -> int:
    from baselines.scripted import POLICIES, make

    for flag in ("a", "b"):
        name = getattr(args, flag)
        if name not in POLICIES:
            console.print(f"[red]error:[/] --{flag}: unknown policy {name!r}; available: {', '.join(POLICIES)}")
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
    table = Table(title=f"{args.a} (agent_a) vs {args.b} (agent_b) on {game.scenario.name}")
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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="negotiation-env", description="Negotiation games for LLM agents.")
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one resource game between two built-in policies")
    play.add_argument("--scenario", default="mc080_1", help="shipped scenario name or JSON path")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--a", default="greedy", help="policy of agent_a (greedy, random)")
    play.add_argument("--b", default="random", help="policy of agent_b (greedy, random)")
    play.add_argument("--rounds", type=int, default=4)
    play.add_argument("--turns", type=int, default=5, help="cheap-talk turns per agent (0: unlimited)")
    play.add_argument("--theme", default=None, help="theme name, 'random' or 'none' (default: random)")
    play.add_argument("--text", action="store_true", help="policies answer with raw JSON text, as an LLM would")
    play.set_defaults(func=_play)
    sc = sub.add_parser("scenarios", help="list the shipped scenarios with their solver figures")
    sc.set_defaults(func=_scenarios)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        return args.func(args, console)
    except (ConfigError, ScenarioError) as e:
        Console(stderr=True).print(f"[red]error:[/] {e}", highlight=False)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
