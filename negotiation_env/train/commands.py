"""The ``train`` subcommands of ``negotiation-env`` (the CLI layer of training: the only
part of :mod:`negotiation_env.train` that draws on the terminal, with rich).

    negotiation-env train sft [--quick] [--work DIR] [--out FILE] [one flag per SFTRunConfig field]
    negotiation-env train rl [--quick] [--out FILE] [--set GAME.FIELD=VALUE] [one flag per RLRunConfig field]

The flags are made from the config dataclasses' fields (:mod:`.fields`), so a field and
its flag cannot drift apart; a bad value exits 2 naming the field, a missing extra
exits 3 with the ``pip install`` line.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from .. import exitcodes
from ..console import print_error
from ..core.config import ConfigError
from ..storage import write_text
from .fields import add_config_arguments, config_from_arguments

__all__ = ["add_subcommands", "missing_extra"]

#: exit codes of ``train sft`` / ``train rl`` (their --help epilog)
SFT_CODES = (exitcodes.OK,
             (exitcodes.NOTHING, "the collection gave nothing to train on (no teacher turn; the message says which "
                                 "setting to change)"),
             (exitcodes.USAGE, "usage error: a bad flag value (the message names the field), a --work folder that "
                               "is not empty, an --out file that exists (pass --force)"),
             (exitcodes.MODEL, "the sft extra is not installed (the message has the pip line), or the model could "
                               "not be loaded"),
             exitcodes.STORAGE, exitcodes.INTERRUPTED)
RL_CODES = (exitcodes.OK,
            (exitcodes.NOTHING, "no experiment could run in this tree (the message says why)"),
            (exitcodes.USAGE, "usage error: a bad flag value (the message names the field), a bad --set, an --out "
                              "file that exists (pass --force)"),
            (exitcodes.MODEL, "the rl extra is not installed (the message has the pip line)"),
            exitcodes.STORAGE, exitcodes.INTERRUPTED)


def missing_extra(modules: tuple[str, ...], extra: str) -> str | None:
    """The message for the first of ``modules`` that is not installed, naming the
    ``extra`` that brings it; None when all are there."""
    for name in modules:
        if importlib.util.find_spec(name) is None:
            return f"{name} is not installed; this command needs the {extra} extra: pip install 'negotiation_env[{extra}]'"
    return None


def _parser(sub: Any, name: str, help: str, description: str, codes: tuple) -> argparse.ArgumentParser:
    return sub.add_parser(name, help=help, description=description, epilog=exitcodes.epilog(codes),
                          usage=f"negotiation-env train {name} [options]",
                          formatter_class=exitcodes._Formatter)


def add_subcommands(sub: Any) -> None:
    """Add ``train`` (with ``sft`` and ``rl``) to the CLI's subparsers ``sub``."""
    from .rl import RLRunConfig
    from .sft import QUICK, SFTRunConfig

    train = sub.add_parser("train", help="fine-tune a model on a teacher's games (sft), or train RL agents on the "
                                         "numeric view (rl)",
                           description="Training as library code with one config dataclass per kind "
                                       "(negotiation_env.train.sft.SFTRunConfig, negotiation_env.train.rl.RLRunConfig): "
                                       "each flag is one of its fields.",
                           epilog=exitcodes.epilog((exitcodes.OK, exitcodes.USAGE, exitcodes.MODEL)),
                           formatter_class=exitcodes._Formatter)
    kinds = train.add_subparsers(dest="train_command", required=True, metavar="{sft,rl}")

    sft = _parser(kinds, "sft", "collect a teacher's games, export them, fine-tune a model with TRL, evaluate it",
                  "Collect the teacher's games on the resource game, export the SFT table, fine-tune the model "
                  "(default: a tiny random chat model built here) with TRL's SFTTrainer in stages, and evaluate it "
                  "before and after through the runner. Prints the figures table; --out writes every figure as "
                  "JSON. Needs the sft extra.", SFT_CODES)
    run_opts = sft.add_argument_group("run")
    run_opts.add_argument("--quick", action="store_true",
                          help="smoke-run sizes for the fields left at their defaults: "
                               + ", ".join(f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in QUICK.items()))
    run_opts.add_argument("--work", default=None, metavar="DIR",
                          help="keep the run folders, the SFT table and the models here (an empty or new folder; "
                               "default: a temporary folder, removed at the end)")
    run_opts.add_argument("--out", default=None, metavar="FILE", help="write the result (every figure) as JSON")
    run_opts.add_argument("--force", action="store_true", help="replace an existing --out file")
    add_config_arguments(sft.add_argument_group("SFTRunConfig fields"), SFTRunConfig)
    sft.set_defaults(func=_sft)

    rl = _parser(kinds, "rl", "train DQN agents against scripted opponents and clone the oracle from a run's "
                              "transitions (Tianshou)",
                 "Train and evaluate RL experiments on the numeric view with Tianshou: DQN against a scripted "
                 "opponent, and behaviour cloning from the runner's transitions table. Prints each learning curve "
                 "with its reference lines; --out writes the results as JSON (and, with matplotlib, the curves as a "
                 "PNG beside it). Needs the rl extra.", RL_CODES)
    rl_opts = rl.add_argument_group("run")
    rl_opts.add_argument("--out", default=None, metavar="FILE",
                         help="write the results as JSON, and the curves as a PNG of the same name")
    rl_opts.add_argument("--force", action="store_true", help="replace an existing --out file")
    rl_opts.add_argument("--set", action="append", default=[], metavar="GAME.FIELD=VALUE", dest="set_fields",
                         help="override a game's config field (repeat; VALUE read as JSON where it parses, else as "
                              "text), e.g. resource.rotation=rotating")
    add_config_arguments(rl.add_argument_group("RLRunConfig fields"), RLRunConfig, skip=("overrides",))
    rl.set_defaults(func=_rl)
    train.set_defaults(func=lambda args, console: train.print_help() or exitcodes.USAGE)


def _write_json(path: Path, data: Any) -> None:
    """``data`` as JSON at ``path``, written whole or not at all (:func:`~negotiation_env.storage.write_text`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(data, indent=2, default=str) + "\n")


def _refused(out: str | None, force: bool, required: Any, extra: str) -> int | None:
    """The exit status (after printing why) when the run cannot start: ``--out`` exists
    without ``--force`` (usage), or the ``extra`` the run needs is not installed (model);
    None: it can start."""
    if out is not None and Path(out).exists() and not force:
        return print_error(exitcodes.exists_message(out), exitcodes.USAGE)
    missing = missing_extra(required, extra)
    if missing:
        return print_error(missing, exitcodes.MODEL)
    return None


def _sft(args: argparse.Namespace, console: Console) -> int:
    from . import sft
    from .progress import RichProgress

    try:
        config = config_from_arguments(sft.SFTRunConfig, args)
        if args.quick:
            config = sft.quick(config)
    except ConfigError as e:
        return print_error(str(e), exitcodes.USAGE)
    refused = _refused(args.out, args.force, sft.REQUIRED, "sft")
    if refused is not None:
        return refused
    if args.work:
        work = Path(args.work)
        if work.exists() and (not work.is_dir() or any(work.iterdir())):
            return print_error(f"--work {work} is not an empty folder; the runner refuses to mix runs", exitcodes.USAGE)
        work.mkdir(parents=True, exist_ok=True)
        result = _sft_run(sft, config, work, RichProgress(console))
    else:
        with tempfile.TemporaryDirectory(prefix="negotiation-env-sft-") as tmp:
            result = _sft_run(sft, config, Path(tmp), RichProgress(console))
    if isinstance(result, int):
        return result
    console.print(escape(sft.render_table(result["table"])), highlight=False)
    console.print(escape(sft.summary_line(result)), highlight=False)
    if args.out:
        _write_json(Path(args.out), result)
        console.print(f"wrote {escape(str(args.out))}", highlight=False)
    return exitcodes.OK


def _sft_run(sft: Any, config: Any, work: Path, progress: Any) -> Any:
    try:
        return sft.run(config, work, progress)
    except sft.SFTError as e:
        return print_error(str(e), exitcodes.NOTHING)


def _overrides(items: list[str]) -> dict[str, dict[str, Any]] | str:
    """``--set GAME.FIELD=VALUE`` items as ``{game: {field: value}}``, or the problem."""
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        game, dot, name = key.partition(".")
        if not sep or not dot or not game or not name:
            return f"--set takes GAME.FIELD=VALUE; got {item!r}"
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        out.setdefault(game, {})[name] = parsed
    return out


def _rl(args: argparse.Namespace, console: Console) -> int:
    from . import rl
    from .progress import RichProgress

    overrides = _overrides(args.set_fields)
    if isinstance(overrides, str):
        return print_error(overrides, exitcodes.USAGE)
    try:
        config = config_from_arguments(rl.RLRunConfig, args, overrides=overrides)
    except ConfigError as e:
        return print_error(str(e), exitcodes.USAGE)
    refused = _refused(args.out, args.force, rl.REQUIRED, "rl")
    if refused is not None:
        return refused
    notes: list[str] = []
    with RichProgress(console) as progress:
        results = rl.run(config, log=lambda m: (notes.append(m), progress.note(escape(m))), progress=progress)
    for res in results:
        console.print(escape(rl.format_result(res)), highlight=False)
    if not results:
        return print_error("no experiment ran: " + "; ".join(notes), exitcodes.NOTHING)
    if args.out:
        out = Path(args.out)
        _write_json(out, {"config": {**vars(config), "experiments": list(config.experiments)}, "results": results})
        console.print(f"wrote {escape(str(out))}", highlight=False)
        if importlib.util.find_spec("matplotlib") is not None:
            console.print(f"wrote {escape(str(rl.plot(results, out.with_suffix('.png'))))}", highlight=False)
    return exitcodes.OK
