"""The ``negotiation-env serve`` command: one game, a study session, or a run to watch.

    negotiation-env serve [--game G] [--set F=V]... [--seat AGENT=SPEC|human]... [--seed S]
                          [--host 127.0.0.1] [--port 0] [--token T] [--out DIR]
    negotiation-env serve --session FILE --out DIR [--host ...] [--port ...] [--token T]
    negotiation-env serve --watch RUN

Seats take the specs of ``play`` (a scripted name, ``scripted:NAME``, ``hf:PATH``,
``openai:MODEL@URL``, ``python:MODULE:FACTORY``) or ``human``; a game with no human seat
is refused (``play`` plays it). The links, one per human seat (or the study's landing
link), are printed on the terminal and nowhere else.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

from rich.console import Console

from .. import exitcodes

__all__ = ["add_subcommands", "build_game"]

CODES = (exitcodes.OK,
         (exitcodes.USAGE, "usage error: a bad flag, seat, policy, config field or session file, no human seat, "
                           "or --host off loopback without --token"),
         (exitcodes.MODEL, "a model seat did not answer its first short call, or the 'serve' extra is missing"),
         exitcodes.STORAGE)


def build_game(args: argparse.Namespace, console: Console, on_trace=None):
    """The :class:`~.table.Table` of ``serve``'s single game from the ``play`` flags
    (raises the CLI's PlayError / ModelUnavailable)."""
    import negotiation_env

    from ..cli import PlayError, _build_policy, _play_config, _seat_specs
    from ..play import HUMAN, seat_info
    from .table import Table

    config = _play_config(args)
    env = negotiation_env.env(game=args.game, **config)
    agents = list(env.possible_agents)
    seats = _seat_specs(args, agents)
    if not any(text == HUMAN for _, text in seats.values()):
        raise PlayError(f"no seat is human: give --seat AGENT=human (the {args.game} game's seats: "
                        f"{', '.join(agents)}); 'negotiation-env play' plays a game without one")
    built, infos = {}, {}
    for i, (agent, (flag, text)) in enumerate(seats.items()):
        seed = None if args.seed is None else args.seed + i
        policy = None if text == HUMAN else _build_policy(flag, text, args.game, "structured", seed, console)
        built[agent] = (text, policy)
        infos[agent] = seat_info(text, policy, seed)
    return Table(args.game, env, built, infos, args.seed, on_trace=on_trace)


def _serve(args: argparse.Namespace, console: Console) -> int:
    from ..console import print_error

    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        return print_error(f"serve needs the 'serve' extra ({', '.join(missing)} not installed): "
                           "pip install 'negotiation_env[serve]'", exitcodes.MODEL)
    from ..cli import ModelUnavailable, PlayError
    from ..storage import describe
    from .app import GameHall, Server, is_loopback, serve_app, with_token
    from .table import TraceAppender

    if args.watch is not None:
        from .watch import watch_app

        if not Path(args.watch).is_dir():
            return print_error(f"--watch {args.watch}: no run folder there (start the run first, or watch it "
                               "from the start with `negotiation-env run ... --serve`)", exitcodes.USAGE)
        try:
            # the watch app checks the token itself (and answers any host name with one)
            app = watch_app(args.watch, token=args.token)
        except ValueError as e:
            return print_error(f"--watch {args.watch}: {e}", exitcodes.USAGE)
        hall, closer, what = None, None, f"the run in {args.watch}"
    if not is_loopback(args.host) and not args.token:
        return print_error(f"--host {args.host} listens beyond this machine: give --token T as well (every "
                           "request must then carry it), or keep the default 127.0.0.1", exitcodes.USAGE)
    appender = None
    try:
        if args.watch is None and args.session is not None:
            from .study import Study, StudyError

            if args.out is None:
                return print_error("--session needs --out DIR: the folder of the study's traces and state",
                                   exitcodes.USAGE)
            try:
                hall = Study(args.session, Path(args.out))
            except StudyError as e:
                return print_error(str(e), exitcodes.USAGE)
            app, closer, what = serve_app(hall, token=args.token), hall.close, "the study"
        elif args.watch is None:
            if args.out is not None:
                from ..traces.writer import TraceFileLocked

                try:
                    appender = TraceAppender(Path(args.out))
                except TraceFileLocked as e:
                    return print_error(f"--out {args.out}: {e}", exitcodes.USAGE)
            try:
                table = build_game(args, console, on_trace=appender)
            except (PlayError, ModelUnavailable) as e:
                return print_error(str(e), exitcodes.USAGE if isinstance(e, PlayError) else exitcodes.MODEL)
            hall = GameHall(table)
            app, closer, what = serve_app(hall, token=args.token), hall.close, "the game"
        server = Server(app, args.host, args.port, on_close=closer)
    except OSError as e:
        return print_error(describe(e) if hasattr(e, "errno") else str(e), exitcodes.STORAGE)
    query = f"?token={args.token}" if args.token else ""
    say = lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    say(f"serving {what} on {server.url} (Ctrl-C stops)")
    if args.watch is None and args.session is not None:
        say(f"participants open: {server.url}/{query}")
    elif args.watch is None:
        for secret, agent in hall.links.items():
            say(f"{agent}: {server.url}/s/{secret}{query}")
        hall.table.start()
    else:
        say(f"open: {server.url}/{query}")
    try:
        server.run()
    finally:
        if appender is not None:
            appender.close()
    return exitcodes.OK


def add_subcommands(sub: Any) -> None:
    from ..cli import GAMES, SPEC_FORMS, _play_flags

    s = sub.add_parser(
        "serve", help="play a game in the browser (human seats against any policy), run a study, or watch a run",
        description="Serve one game in the browser: each human seat (--seat AGENT=human) gets its own link; the "
                    "other seats take " + SPEC_FORMS + ". --session FILE serves a study instead: a run config "
                    "whose policies include 'human', with a [session] table holding the consent text; "
                    "participants open the landing link, agree, get a code and a seat, and every finished "
                    "game is appended to --out DIR/traces.jsonl as a run's are. Listens on 127.0.0.1 unless "
                    "--host says otherwise (which needs --token).",
        epilog=exitcodes.epilog(CODES), formatter_class=exitcodes._Formatter)
    s.add_argument("--game", default="resource", choices=sorted(GAMES), help="the game (default resource)")
    s.add_argument("--seat", action="append", default=[], metavar="AGENT=SPEC", help="policy of one seat, or human")
    s.add_argument("--a", default=None, help=argparse.SUPPRESS)
    s.add_argument("--b", default=None, help=argparse.SUPPRESS)
    s.add_argument("--others", default=None, metavar="SPEC", help="policy of every seat not given otherwise")
    s.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="a game config field (repeat; VALUE read as JSON where it parses, else as text)")
    s.add_argument("--seed", type=int, default=0, help="reset seed; seat i's policy gets seed + i (default 0)")
    for name, f in _play_flags():
        s.add_argument(f.flag, type=f.type, default=None, help=f"{name}: {f.help}")
    s.add_argument("--session", default=None, metavar="FILE", help="serve a study from this session file")
    s.add_argument("--watch", default=None, metavar="RUN", help="watch the run in this folder as it is played")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; another needs --token)")
    s.add_argument("--port", type=int, default=0, help="port (default 0: a free one, printed)")
    s.add_argument("--token", default=None, help="access token every request must carry (the printed links do)")
    s.add_argument("--out", default=None, metavar="DIR",
                   help="folder whose traces.jsonl gets each finished game (required with --session)")
    s.set_defaults(func=_serve, human_retries=None, text=False)
