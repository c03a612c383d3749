"""Playing many games at once in threads, so that a model server always has work.

``play_concurrent(specs, concurrency=N)`` starts N game threads in this process. Each
takes the next planned game, plays it to the end with blocking policy calls
(:func:`~.engine.play_game` with ``shared=True``) and takes the next one, so up to N
games' requests are in flight at all times: a game advances as soon as its own answer
arrives, a finished game is replaced at once, and a slow answer holds back only its own
game. The HTTP client waits on its socket without the interpreter lock, so the other
threads play on meanwhile.

The threads never write: each finished game's encoded line goes to a queue that the
run's thread drains (:func:`~.engine.run` writes and fsyncs it), so trace writing never
blocks a request. Lines are in completion order, as with several worker processes; the
reader and ``--resume`` go by game key, not by line.

Model-backed policies are built once per process and shared by the threads; each game
gets a :class:`~.playing.SharedSeat` per model seat, with its own call seeds and its own
usage for the recorder, so its trace equals the one written when the game is played
alone (exactly so for deterministic policies). Scripted and ``python:`` policies are
built per game, as always. ``openai:`` calls of different games go out concurrently
(the client's ``max_concurrency`` caps the requests in flight per policy); a local
``hf:`` model answers one call at a time (use ``--batch-games`` to batch its calls).

:func:`play_pool` runs the same threads in each of ``workers`` processes, and
:func:`play_ray` in each of ``workers`` Ray actors: ``concurrency`` games per worker.
"""

from __future__ import annotations

import os
import queue
import signal
import threading
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from .engine import Results, RunnerError, _finished, _mp_context, _play_encoded, _watch_parent, ray_session
from .plan import GameSpec

__all__ = ["play_concurrent", "play_pool", "play_ray", "DEFAULT_CONCURRENCY"]

#: games in flight per process when a run has an ``openai:`` seat and no ``--concurrency``
#: is given: enough to keep a local server's batch busy, few enough for a hosted API's
#: default rate limits to absorb
DEFAULT_CONCURRENCY = 16

_END = object()
#: how often (seconds) the run's thread wakes up while no game ends, so that a signal
#: (SIGINT, SIGTERM) is handled at once
_POLL = 0.5


class _Failed:
    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error


def _shared_play(spec: GameSpec) -> tuple[bytes, dict[str, Any]]:
    return _play_encoded(spec, True)


def play_concurrent(specs: Iterable[GameSpec], concurrency: int,
                    play: Callable[[GameSpec], tuple[bytes, dict[str, Any]]] = _shared_play) -> Results:
    """Play ``specs`` in ``concurrency`` threads of this process; yield lists of
    ``(encoded line, summary)`` of the games that have ended, as they end. A failure of
    the playing machinery itself (a game's own failure is its trace) is raised after the
    games that ended before it are yielded. When the caller stops (an interrupt, an
    error), no thread starts another game; the games in flight are not waited for."""
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency must be an integer >= 1; got {concurrency!r}")
    try:
        n = max(1, min(concurrency, len(specs)))  # type: ignore[arg-type]
    except TypeError:
        n = concurrency
    source: Iterator[GameSpec] = iter(specs)
    take = threading.Lock()
    out: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()

    def next_spec() -> GameSpec | None:
        with take:
            return None if stop.is_set() else next(source, None)

    def player() -> None:
        try:
            while (spec := next_spec()) is not None:
                try:
                    out.put(play(spec))
                except BaseException as e:  # noqa: BLE001 - handed to the run's thread, raised there
                    stop.set()
                    out.put(_Failed(e))
                    return
        finally:
            out.put(_END)

    threads = [threading.Thread(target=player, name=f"negenv-game-{i}", daemon=True) for i in range(n)]
    try:
        for t in threads:
            t.start()
        running = len(threads)
        while running:
            try:
                item = out.get(timeout=_POLL)
            except queue.Empty:
                continue
            batch, error = [], None
            while True:  # the games that ended meanwhile go out as one write
                if item is _END:
                    running -= 1
                elif isinstance(item, _Failed):
                    error = error or item.error
                else:
                    batch.append(item)
                try:
                    item = out.get_nowait()
                except queue.Empty:
                    break
            if batch:
                yield batch
            if error is not None:
                raise error
    finally:
        stop.set()


# --------------------------------------------------------------------------- worker processes


def _serve(specs: Any, results: Any, concurrency: int, parent: int) -> None:
    """A worker process: play the specs read from ``specs`` (None ends them) in
    ``concurrency`` threads, putting each list of finished games on ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the run's process decides; it ends its workers
    _watch_parent(parent)
    try:
        for batch in play_concurrent(iter(specs.get, None), concurrency):
            results.put(batch)
    except BaseException as e:  # noqa: BLE001 - reported to the run, which stops
        results.put(("error", f"{type(e).__name__}: {e}"))


def play_pool(todo: Iterable[GameSpec], workers: int, concurrency: int) -> Results:
    """:func:`play_concurrent` in each of ``workers`` processes: ``workers x
    concurrency`` games in flight; each finished game is sent back at once and its slot
    filled from the plan."""
    ctx = _mp_context()
    specs, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=_serve, args=(specs, results, concurrency, os.getpid()), daemon=True,
                         name=f"negenv-worker-{i}") for i in range(workers)]
    it = iter(todo)
    ahead = 2 * workers * concurrency  # queued beyond the games in flight: a worker never waits for one
    sent = received = 0
    exhausted = False

    def feed() -> None:
        nonlocal sent, exhausted
        while not exhausted and sent - received < ahead:
            spec = next(it, None)
            if spec is None:
                exhausted = True
                for _ in procs:
                    specs.put(None)
                return
            specs.put(spec)
            sent += 1

    try:
        for p in procs:
            p.start()
        feed()
        while received < sent or not exhausted:
            try:
                item = results.get(timeout=_POLL)
            except queue.Empty:
                dead = [p for p in procs if p.exitcode not in (None, 0)]
                if dead:
                    raise RunnerError(f"worker process {dead[0].name} ended with exit code {dead[0].exitcode} "
                                      "while playing; the games it held are not written (rerun with --resume)")
                continue
            if isinstance(item, tuple):
                raise RunnerError(f"a worker process failed: {item[1]}")
            received += len(item)
            feed()
            yield item
    finally:
        for p in procs:
            if p.is_alive() and (received < sent or not exhausted):
                p.terminate()  # interrupted or failed: the games in flight are not waited for
        for p in procs:
            p.join(timeout=10)
        for q in (specs, results):
            q.cancel_join_thread()
            q.close()


# --------------------------------------------------------------------------- Ray


class _RayPlayer:
    """A Ray actor playing up to ``max_concurrency`` games at once in its threads."""

    def play(self, spec: GameSpec) -> tuple[bytes, dict[str, Any]]:
        return _play_encoded(spec, True)


def play_ray(todo: Iterable[GameSpec], workers: int, concurrency: int) -> Results:
    """``workers`` Ray actors (one CPU each) playing ``concurrency`` games each; a
    finished game's actor gets the next game of the plan at once."""
    with ray_session(workers) as ray:
        player = ray.remote(num_cpus=1, max_concurrency=concurrency)(_RayPlayer)
        actors = [player.remote() for _ in range(workers)]
        it = iter(todo)
        owner: dict[Any, Any] = {}

        def submit(actor: Any, k: int) -> None:
            for spec in islice(it, k):
                owner[actor.play.remote(spec)] = actor

        try:
            for a in actors:
                submit(a, concurrency)
            while owner:
                done, _ = ray.wait(list(owner), num_returns=1)
                for ref in done:
                    submit(owner.pop(ref), 1)
                yield from _finished(done, ray.get)
        finally:
            for a in actors:
                ray.kill(a)
