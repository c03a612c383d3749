"""The tournament runner: a validated run config, its deterministic plan of games, and
an engine that plays them (locally or on Ray) into append-only traces, resumably.

    from negotiation_env.runner import load_config, make_plan, run
    summary = run("my_cohort.toml", "runs/cohort1", resume=True, workers=4)

See :mod:`.config` for the file format, :mod:`.plan` for keys and seeds,
:mod:`.engine` for resume and back ends and :mod:`.preflight` for the checks made
before the first game. ``negotiation-env run`` is the command.
"""

from .config import DEFAULT_CONFIG, GameBlock, PolicyEntry, RunConfig, RunConfigError, load_config, parse_config
from .engine import (
    BACKENDS,
    RUN_FILE,
    TRACES_FILE,
    CellStats,
    RunnerError,
    RunObserver,
    RunSummary,
    play_game,
    run,
    summarize_trace,
)
from .plan import GameSpec, Plan, derive_seed, make_plan
from .policies import PolicyUnavailable, resolve_factory
from .preflight import PreflightError, PreflightReport

__all__ = [
    "RunConfig", "GameBlock", "PolicyEntry", "RunConfigError", "load_config", "parse_config", "DEFAULT_CONFIG",
    "GameSpec", "Plan", "make_plan", "derive_seed",
    "run", "play_game", "summarize_trace", "RunObserver", "RunSummary", "CellStats", "RunnerError",
    "BACKENDS", "TRACES_FILE", "RUN_FILE", "PolicyUnavailable", "resolve_factory", "PreflightError", "PreflightReport",
]
