"""Playing the planned games and writing their traces, resumably.

``run(config, out_dir)`` writes ``out_dir/run.json`` (the run id, the validated config,
the planned count) and appends one line per finished game to ``out_dir/traces.jsonl``
(:class:`~negotiation_env.traces.TraceWriter`: fsync'ed before the game counts as played;
games that end together share one write and one fsync). With ``resume=True`` it reads
the keys already in ``traces.jsonl`` (a torn last line is cut off first and reported),
checks that ``run.json`` holds the same run id, and plays only the planned keys that are
missing, so a run killed at any moment and resumed ends with exactly the
planned set: no key lost, none twice. Games that ended in an error are recorded (status
``"error"``) and count as played; they are not retried.

Back ends: ``local`` (default) plays in this process with ``workers=1`` or in a pool of
``workers`` processes; ``ray`` runs each game as a Ray task (``pip install ray``). A
game's trace depends only on its spec, so every back end writes the same records; with
several workers the lines are in completion order (``run.plan_index`` gives plan order).
At most ``4 x workers`` games are in flight and nothing is kept per game beyond a small
summary, so memory stays flat however many games a run has. ``concurrency=N`` plays up to
N games at once in threads of each process (this one, each worker, each Ray actor:
:mod:`.concurrent`), so that a model server always has N requests to answer.
``batch_games=N`` (local, one worker) plays N games in lock-step so that model calls are
batched across them (:mod:`.lockstep`). The traces are the same either way.

The library never prints: progress goes to an optional :class:`RunObserver`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..core.jsontext import JSONTextError, loads_document
from ..exitcodes import TRACES_FILE
from ..storage import replacing
from ..traces.reader import LineProblem, record_key, validated_lines
from ..traces.recorder import TraceRecorder, utc_now
from ..traces.schema import SCHEMA_VERSION, package_info, redact
from ..traces.writer import TraceFileLocked, TraceWriter, encode_jsonable, encode_trace, move_aside
from .config import RunConfig, load_config, parse_config
from .plan import GameSpec, Plan, make_plan
from .policies import resolve_factory  # noqa: F401
from .summary import add_measures, game_measures
from .playing import (_FREE_ENVS, _FREE_ENVS_KINDS, RunnerError, _env_kind, _give_back_env,  # noqa: F401
                      _pool, _take_env, error_trace, open_game, release_models, step_cap_reason)

try:  # POSIX only; elsewhere the run lock is skipped (the trace writer's own lock stays)
    import fcntl
except ImportError:  # pragma: no cover - not on Linux
    fcntl = None  # type: ignore[assignment]

__all__ = ["run", "play_game", "default_concurrency", "release_models", "summarize_trace", "RunObserver", "RunSummary", "CellStats", "RunnerError",
           "BACKENDS", "TRACES_FILE", "RUN_FILE", "LOCK_FILE", "DEFAULT_MAX_DEGRADED", "DEFAULT_MAX_TRUNCATED",
           "RATE_LIMIT_CHOICES"]

BACKENDS = ("local", "ray")
RUN_FILE = "run.json"
LOCK_FILE = "run.lock"
#: the share of a run's games that may be degraded (a model call ran out of retries and
#: the env scored a fallback) before the run counts as failed; see :attr:`RunSummary.too_degraded`
DEFAULT_MAX_DEGRADED = 0.05
#: the share of a run's games that may be cut by the step cap (``max_steps``; status
#: ``"truncated"``) before the run counts as failed; see :attr:`RunSummary.too_truncated`
DEFAULT_MAX_TRUNCATED = 0.05
#: what the preflight does when a model's server answers its probe with HTTP 429
RATE_LIMIT_CHOICES = ("wait", "stop")

def play_game(spec: GameSpec, shared: bool = False) -> dict[str, Any]:
    """Play one planned game with the standard AEC loop under the trace recorder; return
    its trace as a dict. Never raises: a failure is the trace's ``error``.
    ``shared``: other threads of this process play games at the same time with the same
    model-backed policies (:mod:`.concurrent`; :func:`.playing.open_game`). The trace is
    the same either way. (:mod:`.lockstep` plays many at once and writes the same traces.)"""
    agents: list[str] = []
    rec: TraceRecorder | None = None
    try:
        rec, policies = open_game(spec, agents, reuse=True, shared=shared)
        steps = 0
        for agent in rec.agent_iter():
            obs, _reward, term, trunc, _info = rec.last()
            if term or trunc:
                rec.step(None)
                continue
            if steps >= spec.max_steps:
                rec.truncate(step_cap_reason(spec))
                break
            rec.step(policies[agent].act(obs))
            steps += 1
    except Exception as e:  # noqa: BLE001 - a policy under development may raise anything
        if rec is not None and rec.recording:
            rec.abort(e)
        else:
            return error_trace(spec, agents, e)
        failed = True
    else:
        failed = False
    assert rec is not None and rec.last_trace is not None
    trace = rec.last_trace.to_dict()
    if not failed:  # (after the trace is made: the next game may reset the env)
        _give_back_env(spec, rec.env)
    return trace


def summarize_trace(d: dict[str, Any]) -> dict[str, Any]:
    """The few figures the progress display and the summary table need from a trace."""
    run = d.get("run") or {}
    steps = d.get("steps") or []
    effs, opts = [], []
    for r in d.get("rounds") or []:
        o = r.get("outcome") or {}
        if isinstance(o.get("efficiency"), (int, float)):
            effs.append(float(o["efficiency"]))
        if isinstance(o.get("optimal"), bool):
            opts.append(o["optimal"])
    tokens = 0
    for s in steps:
        t = s.get("tokens") or {}
        if isinstance(t.get("total_tokens"), int):
            tokens += t["total_tokens"]
        else:
            tokens += sum(v for k, v in t.items() if k in ("prompt_tokens", "completion_tokens") and isinstance(v, int))
    return {
        "key": run.get("game_key", d.get("game_id")),
        "run_id": run.get("run_id"),
        "cell": run.get("cell", d.get("game_id")),
        "game": d.get("game"),
        "condition": run.get("condition"),
        "scenario_set": run.get("scenario_set"),
        "lineup": list(run.get("lineup") or []),
        "agents": list(d.get("agents") or []),
        "status": d.get("status"),
        "error": (d.get("error") or "").split("\n", 1)[0] or None,
        "steps": len(steps),
        "invalid": sum(1 for s in steps if not s.get("valid", True)),
        "rounds": len(d.get("rounds") or []),
        "efficiency": effs,
        "optimal": opts,
        "returns": dict(d.get("returns") or {}),
        "tokens": tokens,
        "degraded": bool(((d.get("meta") or {}).get("model_calls") or {}).get("degraded")),
        "faults": int(((d.get("meta") or {}).get("model_calls") or {}).get("faults") or 0),
        "measures": game_measures(d),  # the game's own measures (runner.summary), additive counts
    }


def _play_encoded(spec: GameSpec, shared: bool = False) -> tuple[bytes, dict[str, Any]]:
    d = play_game(spec, shared)  # GameTrace.to_dict(): plain JSON already, encoded as it is
    return encode_jsonable(d), summarize_trace(d)


# --------------------------------------------------------------------------- summary


@dataclass
class CellStats:
    """Counts over the finished games of one cell (or of one seating of a cell).
    ``lineup``: the policies by seat, in ``agents`` order. A cell of a ``swap_seats`` block
    holds games of every seat rotation of its lineup (the key's, set from the plan), so its
    per-seat returns pool the policies; :attr:`RunSummary.seatings` splits them."""

    cell: str
    game: str | None = None
    condition: str | None = None
    scenario_set: str | None = None
    lineup: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    planned: int = 0
    games: int = 0
    errors: int = 0
    truncated: int = 0
    steps: int = 0
    invalid: int = 0
    rounds: int = 0
    tokens: int = 0
    _eff: list[float] = field(default_factory=lambda: [0.0, 0.0])
    _opt: list[float] = field(default_factory=lambda: [0.0, 0.0])
    _returns: dict[str, float] = field(default_factory=dict)
    measures: dict[str, float] = field(default_factory=dict)

    def add(self, s: dict[str, Any]) -> None:
        for k in ("game", "condition", "scenario_set"):
            if getattr(self, k) is None:
                setattr(self, k, s.get(k))
        self.lineup = self.lineup or s["lineup"]
        self.agents = self.agents or s["agents"]
        self.games += 1
        self.errors += s["status"] == "error"
        self.truncated += s["status"] == "truncated"
        self.steps += s["steps"]
        self.invalid += s["invalid"]
        self.rounds += s["rounds"]
        self.tokens += s["tokens"]
        self._eff[0] += sum(s["efficiency"])
        self._eff[1] += len(s["efficiency"])
        self._opt[0] += sum(s["optimal"])
        self._opt[1] += len(s["optimal"])
        for a, r in s["returns"].items():
            self._returns[a] = self._returns.get(a, 0.0) + float(r)
        add_measures(self.measures, s.get("measures") or {})

    @property
    def efficiency(self) -> float | None:
        return self._eff[0] / self._eff[1] if self._eff[1] else None

    @property
    def optimal_rate(self) -> float | None:
        return self._opt[0] / self._opt[1] if self._opt[1] else None

    def mean_returns(self) -> dict[str, float]:
        return {a: r / self.games for a, r in self._returns.items()} if self.games else {}


@dataclass
class RunSummary:
    run_id: str
    out_dir: Path
    planned: int
    already_done: int = 0
    played: int = 0
    errors: int = 0
    degraded: int = 0
    #: games cut by the step cap (status ``"truncated"``)
    truncated: int = 0
    faults: int = 0
    missing: int = 0
    repaired_bytes: int = 0
    problems: list[LineProblem] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    #: records moved out of traces.jsonl at resume, by kind: "invalid" (undecodable, or failing the reader's
    #: schema), "duplicate", "foreign" (another run, or not in the plan) and, with
    #: ``retry_errors``, "retried" (error/degraded games played again)
    rejected: dict[str, int] = field(default_factory=dict)
    rejected_file: Path | None = None
    retried: int = 0
    max_degraded: float = DEFAULT_MAX_DEGRADED
    max_truncated: float = DEFAULT_MAX_TRUNCATED
    cells: dict[str, CellStats] = field(default_factory=dict)
    #: (cell, seating) -> the cell's games with that seating: the policy in each seat is
    #: the same in all of them, so per-seat figures are per policy (summarize_trace's
    #: ``lineup``, the game's own seating from its trace)
    seatings: dict[tuple[str, tuple[str, ...]], CellStats] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.missing == 0

    @property
    def games(self) -> int:
        """Games of the run now in the trace file (earlier ones and this session's)."""
        return self.already_done + self.played

    @property
    def degraded_fraction(self) -> float:
        return self.degraded / self.games if self.games else 0.0

    @property
    def too_degraded(self) -> bool:
        """More than ``max_degraded`` of the run's games were degraded: the run is not a
        success even when every planned game is in the file."""
        return self.degraded_fraction > self.max_degraded

    @property
    def truncated_fraction(self) -> float:
        return self.truncated / self.games if self.games else 0.0

    @property
    def too_truncated(self) -> bool:
        """More than ``max_truncated`` of the run's games were cut by the step cap: the
        run is not a success even when every planned game is in the file."""
        return self.truncated_fraction > self.max_truncated

    def count(self, g: dict[str, Any]) -> None:
        """Add one finished game (:func:`summarize_trace`'s dict) to its cell and the totals."""
        self.cells[g["cell"]].add(g)
        seating = tuple(g["lineup"])
        self.seatings.setdefault((g["cell"], seating), CellStats(cell=g["cell"], lineup=list(seating))).add(g)
        self.errors += g["status"] == "error"
        self.degraded += g["degraded"]
        self.truncated += g["status"] == "truncated"
        self.faults += g["faults"]


class RunObserver:
    """Progress hooks (the CLI draws bars from them); every method is optional."""

    def on_preflight(self, report: Any) -> None:
        """After the preflight built and probed every policy (a :class:`~.preflight.PreflightReport`)."""

    def on_start(self, plan: Plan, summary: RunSummary, todo: int) -> None: ...

    def on_game(self, game: dict[str, Any], summary: RunSummary) -> None: ...

    def on_finish(self, summary: RunSummary) -> None: ...


# --------------------------------------------------------------------------- back ends


# Every back end yields lists of (encoded line, summary) of games that have ended: the
# run writes each list with one write and one fsync before it counts any of its games.
Results = Iterator[list[tuple[bytes, dict[str, Any]]]]


class _Todo:
    """The planned games not in ``done``, in plan order, each made when reached (a run of
    a near-limit plan starts without listing its games first); ``len`` counts them."""

    def __init__(self, plan: Plan, done: set[str]):
        self._plan, self._done = plan, frozenset(done)
        self._len = len(plan) - sum(1 for k in self._done if plan.has(k))

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[GameSpec]:
        done = self._done
        return (s for s in self._plan.specs if s.key not in done)


def _serial(todo: Iterable[GameSpec]) -> Results:
    for spec in todo:
        yield [_play_encoded(spec)]


def _lockstep(todo: list[GameSpec], batch_games: int) -> Results:
    from .lockstep import play_lockstep

    for d in play_lockstep(todo, batch_games):
        yield [(encode_trace(d), summarize_trace(d))]


def _concurrent(name: str, *args: Any) -> Results:
    from . import concurrent

    return getattr(concurrent, name)(*args)


def _watch_parent(parent: int) -> None:
    """Pool-worker initializer: exit when the run's process is gone (e.g. SIGKILL),
    instead of lingering as an orphan."""

    def loop():
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # pragma: no cover - pid reused by another user
                os._exit(1)

    threading.Thread(target=loop, daemon=True).start()


#: what the fork server imports once, before it forks any worker: the modules a worker
#: needs to play a game (each worker then starts with them loaded instead of importing
#: them itself); plus the command line's module when the parent has it (the console
#: script, the workers' ``__main__``, imports it)
_PRELOAD = ("negotiation_env.runner.engine", "negotiation_env.runner.concurrent")


def _mp_context():
    import multiprocessing as mp
    import sys

    # forkserver: workers fork from a clean server, never from a process whose progress
    # thread may hold a lock; spawn where there is no forkserver
    methods = mp.get_all_start_methods()
    if "forkserver" not in methods:
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    # the server's own default preload (["__main__"]) imports nothing in CPython 3.11 (it
    # is not given the main path), so every worker imported the package on its own
    extra = [m for m in ("negotiation_env.cli",) if m in sys.modules]
    ctx.set_forkserver_preload([*_PRELOAD, *extra, "__main__"])  # "__main__" as the default has it
    return ctx


def _start_workers_server(backend: str, workers: int) -> None:
    """Start the fork server now (local back end, several workers), so that its imports
    run while this process plans, checks the policies and reads the trace file."""
    if backend != "local" or isinstance(workers, bool) or not isinstance(workers, int) or workers <= 1:
        return  # (a bad --workers is reported by the checks that follow)
    ctx = _mp_context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _finished(done: Iterable[Any], result: Any) -> Results:
    """The results of the finished tasks ``done`` as one list; a task that failed raises
    after the ones read before it are yielded (and so written)."""
    batch, error = [], None
    for task in done:
        try:
            batch.append(result(task))
        except BaseException as e:  # noqa: BLE001 - re-raised below, after the good ones
            error = e
            break
    if batch:
        yield batch
    if error is not None:
        raise error


#: how long an interrupted run waits for each terminated worker to end
_WORKER_EXIT_SECONDS = 5.0


def _close_result_writer(ex: ProcessPoolExecutor) -> None:
    """Close this process's end for writing of the executor's result pipe, once its
    workers are gone. A worker terminated while it wrote a result leaves part of a
    message in the pipe, and the executor's management thread then waits for the missing
    bytes for ever, and ``shutdown`` (and the interpreter's exit) with it; with no writer
    left the wait ends in end-of-file, which the executor treats as a broken pool. The
    pipe is a private attribute of :class:`ProcessPoolExecutor`: where it is absent
    nothing is closed."""
    writer = getattr(getattr(ex, "_result_queue", None), "_writer", None)
    close = getattr(writer, "close", None)
    if callable(close):
        try:
            close()
        except OSError:  # already closed
            pass


def _process_pool(todo: list[GameSpec], workers: int) -> Results:
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context(), initializer=_watch_parent,
                             initargs=(os.getpid(),))
    try:
        it = iter(todo)
        pending = {ex.submit(_play_encoded, s) for s in islice(it, 4 * workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            # refill first: the workers play on while the finished games are written and synced
            pending |= {ex.submit(_play_encoded, s) for s in islice(it, len(done))}
            yield from _finished(done, lambda fut: fut.result())
    except BaseException:
        # interrupted (SIGINT, SIGTERM) or failed: the games in flight are not waited for;
        # their workers end now, so none outlives the run
        procs = list((getattr(ex, "_processes", None) or {}).values())
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join(_WORKER_EXIT_SECONDS)
        _close_result_writer(ex)
        raise
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def ray_session(workers: int) -> Iterator[Any]:
    """The ``ray`` module, with Ray started for ``workers`` CPUs unless it is running
    already; Ray is shut down on leaving only when this call started it."""
    try:
        import ray
    except ImportError:
        raise RunnerError("--backend ray needs Ray: pip install 'negotiation_env[ray]' (or pip install ray)") from None
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _ray(todo: list[GameSpec], workers: int) -> Results:
    with ray_session(workers) as ray:
        remote = ray.remote(num_cpus=1)(_play_encoded)
        it = iter(todo)
        pending = [remote.remote(s) for s in islice(it, 4 * max(1, workers))]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            pending += [remote.remote(s) for s in islice(it, len(done))]
            yield from _finished(done, ray.get)


# --------------------------------------------------------------------------- the run


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    with replacing(path) as tmp:  # whole or not at all; no temporary file left behind
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())


class _RunLock:
    """An exclusive ``flock`` on ``out/run.lock``, taken before anything in the folder is
    read or written (``run.json`` included), so two runners started at the same instant
    on one ``--out`` cannot mix one config's ``run.json`` with the other's games: the
    second stops with :class:`RunnerError`. Released when the run ends (or its process
    dies)."""

    def __init__(self, out: Path):
        if out.exists() and not out.is_dir():
            raise RunnerError(f"--out {out} is a file, not a folder; choose a folder (it is created if missing)")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise RunnerError(f"cannot create the output folder {out}: {e.strerror or e}") from None
        for name in (RUN_FILE, TRACES_FILE, LOCK_FILE):
            if (out / name).is_symlink():
                raise RunnerError(f"{out / name} is a symbolic link; a run writes only regular files in its own "
                                  "folder (replace the link by the file, or choose another --out)")
        self.path = out / LOCK_FILE
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(self.fd)
                raise RunnerError(f"another run is writing to {out} (it holds {self.path}); wait for it to end, "
                                  "or choose another --out") from None

    def __enter__(self) -> "_RunLock":
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.fd)  # closing releases the flock


def _prepare_dir(plan: Plan, out: Path, resume: bool) -> None:
    """Check or write ``run.json``; the caller holds the :class:`_RunLock`."""
    meta_path, traces_path = out / RUN_FILE, out / TRACES_FILE
    if meta_path.exists():
        if not resume:
            raise RunnerError(f"{out} already holds a run ({RUN_FILE}); pass --resume to continue it, "
                              "or choose an empty --out")
        try:
            meta = loads_document(meta_path.read_text(encoding="utf-8"))
            if not isinstance(meta, dict):
                raise JSONTextError(f"expected a JSON object, got {type(meta).__name__}")
        except (OSError, UnicodeDecodeError, JSONTextError) as e:
            raise RunnerError(f"{meta_path} is unreadable ({e}); move it away to start over") from None
        if meta.get("run_id") != plan.run_id:
            raise RunnerError(f"{out} holds run {meta.get('run_id')!r} of another config (this config is run "
                              f"{plan.run_id!r}); resume with the same config or choose another --out")
        return
    if traces_path.exists() and traces_path.stat().st_size > 0 and not resume:
        raise RunnerError(f"{traces_path} already has traces; pass --resume or choose an empty --out")
    _write_json_atomic(meta_path, {
        "schema_version": SCHEMA_VERSION, "run_id": plan.run_id, "name": plan.config.name,
        "planned": len(plan), "cells": len(plan.cells), "created_at": utc_now(),
        "package": package_info(), "config": redact(plan.config.model_dump(mode="json")),
    })


def _check_backend(plan: Plan, backend: str, workers: int) -> None:
    if backend not in BACKENDS:
        raise RunnerError(f"--backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if not isinstance(workers, int) or workers < 1:
        raise RunnerError(f"--workers must be an integer >= 1; got {workers!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise RunnerError("--backend ray needs Ray: pip install 'negotiation_env[ray]' (or pip install ray)")
    from .preflight import check_specs

    check_specs(plan)  # back ends import, names exist, options are known, model paths exist: all at once


def _scan_traces(plan: Plan, path: Path, summary: RunSummary,
                 retry_errors: bool) -> tuple[set[str], dict[int, tuple[str, str]]]:
    """Check every record already in ``path`` with the reader's schema; return the planned
    keys it holds (each counted once into ``summary``) and the lines to move aside, by
    line number, as (kind, reason): ``"invalid"`` a line that fails the schema (its game
    is played again), ``"duplicate"`` a repeated key (the first record counts),
    ``"foreign"`` a record of another run or not in this plan, and with ``retry_errors``
    ``"retried"`` a game that ended in error or was degraded. A record played under
    another env id of its game (another version of its rules) raises
    :class:`RunnerError`: the run is never finished with a different game."""
    from .. import ENV_ID_OF as env_id_of  # the package root sits above the runner

    planned = plan.has
    done: set[str] = set()
    drop: dict[int, tuple[str, str]] = {}
    for where, rec, trace in validated_lines(path, summary.problems):
        if trace is None:
            drop[where.line] = ("invalid", "not a valid trace record (see the run's warnings); its game is played again")
            continue
        run_id, key = record_key(trace)
        if run_id != plan.run_id or not planned(key):
            summary.unexpected.append(str(key))
            drop[where.line] = ("foreign", f"game {key!r} of run {run_id!r} is not in the plan of run {plan.run_id!r}")
            continue
        current = env_id_of.get(trace.game)
        if trace.env_name and current and trace.env_name != current:
            raise RunnerError(f"{path} holds game {key!r} played under {trace.env_name!r}, another version of the "
                              f"{trace.game} game than the one installed ({current!r}); a run never mixes two "
                              "versions: play this config into a new --out")
        if key in done:
            summary.duplicates.append(key)
            drop[where.line] = ("duplicate", f"a second record of game {key!r}; the first counts")
            continue
        g = summarize_trace(rec)
        if retry_errors and (g["status"] == "error" or g["degraded"]):
            summary.retried += 1
            why = "ended in error" if g["status"] == "error" else "was degraded"
            drop[where.line] = ("retried", f"game {key!r} {why}; replayed (--retry-errors)")
            continue
        done.add(key)
        summary.count(g)
    return done, drop


def run(config: RunConfig | dict | str | Path | None, out_dir: str | Path, *, resume: bool = False,
        backend: str = "local", workers: int = 1, observer: RunObserver | None = None,
        batch_games: int = 1, retry_errors: bool = False,
        max_degraded: float = DEFAULT_MAX_DEGRADED, preflight: bool = True, probe: bool = True,
        max_truncated: float = DEFAULT_MAX_TRUNCATED, on_rate_limit: str = "wait",
        concurrency: int | None = None) -> RunSummary:
    """Play every planned game of ``config`` not yet in ``out_dir`` and append its trace.

    The folder is set up under an exclusive lock (``out_dir/run.lock``): a second runner
    on the same folder stops at once. With ``resume=True`` every record already in
    ``traces.jsonl`` is checked with the trace reader's schema; lines that fail it,
    repeated game keys, records of another run and (``retry_errors=True``) games that
    ended in error or were degraded are moved to ``traces.jsonl.rejected`` (one JSON
    line each, with the reason) and their planned games are played again, so the file
    ends holding each planned game exactly once.

    ``max_degraded``: the share of the run's games that may be degraded (some model call
    ran out of retries) before :attr:`RunSummary.too_degraded` says the run failed (the
    CLI then exits 4). ``max_truncated``: the same for games cut by the step cap
    (:attr:`RunSummary.too_truncated`; the CLI exits 6).

    ``on_rate_limit``: what a probe answered with HTTP 429 (a rate-limited server) does:
    ``"wait"`` (default) plays on, each call waiting as the server asks within its call
    budget; ``"stop"`` raises :class:`~.preflight.PreflightError` (the CLI exits 3).

    ``preflight=True`` (default): before any game, and before ``out_dir`` is touched,
    every distinct policy of the plan is built once and (``probe=True``) each model makes
    one short call (one token for ``hf:``, one request of a token with a short connect
    timeout for ``openai:``); a policy that cannot be built or a model that does not
    answer raises :class:`~.preflight.PreflightError` listing every problem (the CLI
    exits 3, or 2 when the config names an unknown policy or option). In the local back end with one worker the models built then are the ones
    the games use (loaded once). ``preflight=False`` still checks, without building
    anything, that every back end imports, every name exists, every option is known and
    every ``hf:`` path exists; ``probe=False`` builds without calling any model.

    ``batch_games=N > 1`` plays up to N games in lock-step in this process
    (:mod:`.lockstep`): every pending turn of a model-backed policy across those games is
    answered in one ``act_batch`` call. The traces are the same as one game at a time
    (exactly so for deterministic policies); each is written when its game ends. It
    needs the local back end with one worker (one process holds the model).

    ``concurrency=N``: each process (this one, each of ``workers`` processes, each Ray
    worker) plays up to N games at once in threads (:mod:`.concurrent`), so that up to N
    model calls are in flight: a game goes on as soon as its own answer arrives and a
    finished game is replaced at once. The traces are the same as one game at a time.
    None (default): :data:`~.concurrent.DEFAULT_CONCURRENCY` when the plan has an
    ``openai:`` seat and ``batch_games`` is 1, else 1. It cannot be combined with
    ``batch_games > 1`` (the lock-step player of local models).

    ``config``: a :class:`RunConfig`, a dict, a path to a TOML/YAML file, or None for the
    shipped default. Raises :class:`RunConfigError` for a bad config and
    :class:`RunnerError` for a folder that holds another run or a missing back end.
    """
    _start_workers_server(backend, workers)  # its imports run while the config is read, planned and checked
    if config is None or isinstance(config, (str, Path)):
        config = load_config(config)
    else:
        config = parse_config(config)
    observer = observer or RunObserver()
    started = time.perf_counter()
    plan = make_plan(config)
    _check_backend(plan, backend, workers)
    if isinstance(batch_games, bool) or not isinstance(batch_games, int) or batch_games < 1:
        raise RunnerError(f"--batch-games must be an integer >= 1; got {batch_games!r}")
    if batch_games > 1 and (backend != "local" or workers != 1):
        raise RunnerError(f"--batch-games {batch_games} batches model calls inside one process: it needs "
                          f"--backend local and --workers 1 (got --backend {backend} --workers {workers})")
    concurrency = _check_concurrency(plan, concurrency, batch_games)
    if isinstance(max_degraded, bool) or not isinstance(max_degraded, (int, float)) or not 0 <= max_degraded <= 1:
        raise RunnerError(f"--max-degraded must be a fraction in [0, 1]; got {max_degraded!r}")
    if isinstance(max_truncated, bool) or not isinstance(max_truncated, (int, float)) or not 0 <= max_truncated <= 1:
        raise RunnerError(f"--max-truncated must be a fraction in [0, 1]; got {max_truncated!r}")
    if on_rate_limit not in RATE_LIMIT_CHOICES:
        raise RunnerError(f"--on-rate-limit must be one of {', '.join(RATE_LIMIT_CHOICES)}; got {on_rate_limit!r}")
    if retry_errors and not resume:
        raise RunnerError("--retry-errors replays games of an earlier run: it needs --resume")
    if preflight:  # build each policy, probe each model: stop before any game if one fails
        from .preflight import preflight as check_policies

        check_policies(plan, probe=probe, pool=_pool() if backend == "local" and workers == 1 else None,
                       observer=observer, on_rate_limit=on_rate_limit, concurrency=concurrency)
    out = Path(out_dir)
    with _RunLock(out):
        _prepare_dir(plan, out, resume)
        return _play_into(plan, out, backend, workers, observer, batch_games, retry_errors, float(max_degraded),
                          started, float(max_truncated), concurrency)


def default_concurrency(plan: Plan, batch_games: int = 1) -> int:
    """The games in flight per process when ``--concurrency`` is not given:
    :data:`~.concurrent.DEFAULT_CONCURRENCY` when some seat of the plan is an
    ``openai:`` policy (its calls wait on a server) and ``batch_games`` is 1, else 1."""
    from .concurrent import DEFAULT_CONCURRENCY

    if batch_games > 1:
        return 1
    api = any(p.kind == "openai" for block in plan.config.games for p in block.policies)
    return DEFAULT_CONCURRENCY if api else 1


def _check_concurrency(plan: Plan, concurrency: Any, batch_games: int) -> int:
    if concurrency is None:
        return default_concurrency(plan, batch_games)
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise RunnerError(f"--concurrency must be an integer >= 1; got {concurrency!r}")
    if concurrency > 1 and batch_games > 1:
        raise RunnerError(f"--concurrency {concurrency} and --batch-games {batch_games} are two ways of playing "
                          "games at once; choose one (--batch-games for hf: models, --concurrency for servers)")
    return concurrency


def _play_into(plan: Plan, out: Path, backend: str, workers: int, observer: RunObserver, batch_games: int,
               retry_errors: bool, max_degraded: float, started: float,
               max_truncated: float = DEFAULT_MAX_TRUNCATED, concurrency: int = 1) -> RunSummary:
    summary = RunSummary(run_id=plan.run_id, out_dir=out, planned=len(plan), max_degraded=max_degraded,
                         max_truncated=max_truncated)
    for (cell, seating), k in plan.seatings().items():
        # a cell's first game (repetition 0) seats the cell's own lineup; seatings in plan order
        summary.cells.setdefault(cell, CellStats(cell=cell, lineup=list(seating))).planned += k
        summary.seatings[(cell, seating)] = CellStats(cell=cell, lineup=list(seating), planned=k)
    path = out / TRACES_FILE
    try:
        writer = TraceWriter(path)
    except TraceFileLocked as e:
        raise RunnerError(f"{e}: another run is writing to {out}") from None
    try:
        summary.repaired_bytes = writer.repaired_bytes
        done, drop = _scan_traces(plan, path, summary, retry_errors)
        if drop:  # under the run lock: nobody else appends while the file is replaced
            writer.close()
            summary.rejected_file = move_aside(path, {n: why for n, (_kind, why) in drop.items()})
            for kind, _why in drop.values():
                summary.rejected[kind] = summary.rejected.get(kind, 0) + 1
            writer = TraceWriter(path)
        summary.already_done = len(done)
        todo = _Todo(plan, done)
        observer.on_start(plan, summary, len(todo))
        if batch_games > 1:
            results = _lockstep(todo, batch_games)
        elif backend == "ray":
            results = _ray(todo, workers) if concurrency == 1 else _concurrent("play_ray", todo, workers, concurrency)
        elif workers > 1 and len(todo) > 1:
            results = (_process_pool(todo, workers) if concurrency == 1
                       else _concurrent("play_pool", todo, workers, concurrency))
        elif concurrency > 1 and len(todo) > 1:
            results = _concurrent("play_concurrent", todo, concurrency)
        else:
            results = _serial(todo)
        try:
            for batch in results:
                writer.write_lines([line for line, _g in batch])  # on disk before any of them counts
                for _line, g in batch:
                    done.add(g["key"])
                    summary.played += 1
                    summary.count(g)
                    observer.on_game(g, summary)
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
    finally:
        writer.close()
    summary.missing = len(plan) - sum(1 for k in done if plan.has(k))
    summary.seconds = time.perf_counter() - started
    observer.on_finish(summary)
    return summary
