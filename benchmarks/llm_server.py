"""Model calls per second the runner gets out of a model server, beside the server's limit.

Run from the repository root:

    python -m benchmarks.llm_server                  # the matrix below, about two minutes
    python -m benchmarks.llm_server --quick          # a smoke run of a few seconds
    python -m benchmarks.llm_server --rows c64,c64-lognormal --games 256

A local OpenAI-compatible server runs in its own process (asyncio, HTTP/1.1 keep-alive,
a listen backlog of 4096, ``--slots`` requests served at once, the rest queued) and
answers every chat completion after a fixed latency ``L`` or, for the log-normal rows,
after a log-normal one of the same mean (``sigma`` 1: ``mu = ln L - 1/2``; a seeded
generator). It never parses a request, so its CPU time stays far below the run's (it is
reported). It counts the requests in flight, their time-weighted mean and their maximum.

The cohort is the matrix game with talk, 5 rounds, an ``openai:`` policy against the
scripted ``tit_for_tat`` (11 model calls a game), played by the real runner
(``negotiation_env.runner.run``, traces and all) in a fresh subprocess per row, in the
ways ``negotiation-env run`` can be started: ``--workers N``, ``--batch-games N`` and
``--concurrency N``. The client's ``max_concurrency`` is 64.

Reported per row: games, wall seconds (the ``run`` call) and play seconds (from the
server's first request in to its last answer out: the run without its setup), games/s
and model calls/s over the play seconds,
requests in flight at the server (mean and max), the run's CPU per model call (the
runner's process and its workers: client, env, scripted opponent and traces together),
(worker processes' CPU sampled with ``psutil`` while they live) and the share of the limit ``C / L`` (``C``: the server's slots, at most one per game
of the run, so a run of fewer games than slots is measured against what it could use).
A table on stdout; JSON with the settings, the server's CPU seconds and
``machine_info()`` to ``benchmarks/results/llm_server.json`` (``--quick``:
``llm_server_quick.json``). The machine's load average before and after is recorded:
on a shared machine, rates move with it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.machine import machine_info, write_result

ROOT = Path(__file__).resolve().parents[1]

#: name -> (how the run is started, latency kind); games and latency come from the command line
ROWS: dict[str, dict[str, Any]] = {
    "workers1": {"workers": 1, "concurrency": 1},
    "workers2": {"workers": 2, "concurrency": 1},
    "batch32": {"batch_games": 32},
    "batch64": {"batch_games": 64},
    "batch64-lognormal": {"batch_games": 64, "latency": "lognormal"},
    "c16": {"concurrency": 16},
    "c32": {"concurrency": 32},
    "c64": {"concurrency": 64},
    "c64-lognormal": {"concurrency": 64, "latency": "lognormal"},
    "w2c32": {"workers": 2, "concurrency": 32},
}
DEFAULT_ROWS = "workers1,batch64,batch64-lognormal,c16,c32,c64,c64-lognormal,w2c32"
#: games of the rows that play one game per process at a time (slow by design)
SERIAL_GAMES = 8


# --------------------------------------------------------------------------- the server


class Server:
    """The asyncio chat-completions server (run in its own process by :func:`serve`)."""

    def __init__(self, latency: float, kind: str, slots: int, seed: int):
        self.latency, self.kind = latency, kind
        self.slots = asyncio.Semaphore(slots)
        self.rng = random.Random(seed)
        self.mu = math.log(latency) - 0.5 if latency > 0 else 0.0
        self.reset()

    def reset(self) -> None:
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.area = 0.0  # integral of requests in flight over time
        self.first = self.last = None

    def _tick(self, delta: int) -> None:
        now = time.monotonic()
        if self.first is None:
            self.first = self.last = now
        self.area += self.in_flight * (now - self.last)
        self.last = now
        self.in_flight += delta
        self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def delay(self) -> float:
        if self.kind == "lognormal":
            return self.rng.lognormvariate(self.mu, 1.0)
        return self.latency

    def stats(self) -> dict[str, Any]:
        span = (self.last - self.first) if self.first is not None else 0.0
        ru = resource.getrusage(resource.RUSAGE_SELF)
        return {"requests": self.requests, "max_in_flight": self.max_in_flight,
                "mean_in_flight": self.area / span if span > 0 else 0.0, "span_s": span,
                "cpu_s": ru.ru_utime + ru.ru_stime}

    async def complete(self) -> bytes:
        self.requests += 1
        self._tick(+1)
        try:
            async with self.slots:
                await asyncio.sleep(self.delay())
        finally:
            self._tick(-1)
        return (b'{"id":"c","object":"chat.completion","created":0,"model":"bench","choices":[{"index":0,'
                b'"finish_reason":"stop","message":{"role":"assistant","content":"A"},"logprobs":null}],'
                b'"usage":{"prompt_tokens":100,"completion_tokens":1,"total_tokens":101}}')

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                path = line.split(b" ")[1] if line.count(b" ") >= 2 else b"/"
                length, close = 0, False
                while True:
                    h = await reader.readline()
                    if h in (b"\r\n", b"\n", b""):
                        break
                    k, _, v = h.partition(b":")
                    k = k.strip().lower()
                    if k == b"content-length":
                        length = int(v)
                    elif k == b"connection" and v.strip().lower() == b"close":
                        close = True
                if length:
                    await reader.readexactly(length)
                if path.endswith(b"/chat/completions"):
                    body = await self.complete()
                elif path == b"/stats":
                    body = json.dumps(self.stats()).encode()
                elif path == b"/reset":
                    self.reset()
                    body = b"{}"
                else:
                    body = b'{"error":"not found"}'
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                             + str(len(body)).encode() + b"\r\n\r\n" + body)
                await writer.drain()
                if close:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()


def serve(latency: float, kind: str, slots: int, seed: int) -> None:
    """The server process: print the port, serve until stdin closes."""

    async def main() -> None:
        server = Server(latency, kind, slots, seed)
        srv = await asyncio.start_server(server.handle, "127.0.0.1", 0, backlog=4096)
        print(srv.sockets[0].getsockname()[1], flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)  # the benchmark closes our stdin to stop us
        srv.close()

    asyncio.run(main())


class ServerProcess:
    def __init__(self, latency: float, kind: str, slots: int, seed: int = 0):
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.llm_server", "--serve", str(latency), kind,
                                      str(slots), str(seed)], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline())
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def get(self, path: str) -> dict[str, Any]:
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
            return json.loads(r.read())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


# --------------------------------------------------------------------------- one row


def cohort(url: str, games: int) -> dict[str, Any]:
    return {"name": "llm-server-benchmark", "seed": 0, "games": [{
        "game": "matrix",
        "policies": [{"spec": f"openai:bench@{url}", "label": "api", "options": {"max_concurrency": 64}},
                     "scripted:tit_for_tat"],
        "pairings": [["api", "scripted:tit_for_tat"]], "games_per_cell": games,
        "config": {"num_rounds": 5, "treatment": "communication"}}]}


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One row, in this (fresh) process: the run's wall and CPU seconds."""
    import baselines.llm.api  # noqa: F401 - imported before the clock starts, as a long run has it
    from negotiation_env.runner import run

    workers: dict[int, float] = {}
    stop = threading.Event()

    def sample() -> None:
        # worker processes are the fork server's children, never waited for by this
        # process (RUSAGE_CHILDREN misses them): their CPU is read while they live
        import psutil

        me = psutil.Process()
        while not stop.wait(0.05):
            for p in me.children(recursive=True):
                try:
                    t = p.cpu_times()
                    workers[p.pid] = t.user + t.system
                except psutil.Error:
                    pass

    sampler = threading.Thread(target=sample, daemon=True)
    if spec.get("workers", 1) > 1:
        sampler.start()
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        summary = run(cohort(spec["url"], spec["games"]), Path(tmp) / "run", workers=spec.get("workers", 1),
                      batch_games=spec.get("batch_games", 1), concurrency=spec.get("concurrency"), probe=False)
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
    stop.set()
    return {"wall_s": wall, "cpu_s": cpu + sum(workers.values()), "played": summary.played,
            "errors": summary.errors, "degraded": summary.degraded}


def measure(name: str, games: int, latency: float, slots: int) -> dict[str, Any]:
    row = dict(ROWS[name])
    kind = row.pop("latency", "fixed")
    server = ServerProcess(latency, kind, slots)
    try:
        server.get("/reset")
        out = subprocess.run([sys.executable, "-m", "benchmarks.llm_server", "--child",
                              json.dumps({"url": server.url, "games": games, **row})],
                             cwd=ROOT, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"row {name} failed:\n{out.stderr[-3000:]}")
        got = json.loads(out.stdout.strip().splitlines()[-1])
        stats = server.get("/stats")
    finally:
        server.close()
    calls = stats["requests"]
    c = min(slots, games)
    limit = c / latency
    play = stats["span_s"]  # first request in to last answer out: the run's play, without its setup
    rate = calls / play
    return {"row": name, **row, "latency": kind, "latency_s": latency, "games": games, "calls": calls,
            "wall_s": got["wall_s"], "play_s": play, "games_per_s": games / play, "calls_per_s": rate,
            "mean_in_flight": stats["mean_in_flight"], "max_in_flight": stats["max_in_flight"],
            "cpu_ms_per_call": 1000 * got["cpu_s"] / max(1, calls), "limit_calls_per_s": limit,
            "share_of_limit": rate / limit, "server_cpu_s": stats["cpu_s"], "errors": got["errors"],
            "degraded": got["degraded"]}


def how(r: dict[str, Any]) -> str:
    parts = []
    if r.get("batch_games"):
        parts.append(f"--batch-games {r['batch_games']}")
    if r.get("workers", 1) > 1 or not parts and r.get("concurrency") == 1:
        parts.append(f"--workers {r.get('workers', 1)}")
    if r.get("concurrency", 1) > 1:
        parts.append(f"--concurrency {r['concurrency']}")
    return " ".join(parts)


def table(rows: list[dict[str, Any]]) -> str:
    head = ("| how the run was started | games | latency | wall (play) | requests in flight (mean / max) | games/s "
            "| model calls/s | run CPU per call | share of the limit C / L |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    lines = [head]
    for r in rows:
        lat = f"{r['latency_s']:g} s" + (" mean, log-normal (σ = 1)" if r["latency"] == "lognormal" else "")
        lines.append(f"| `{how(r)}` | {r['games']} | {lat} | {r['wall_s']:.1f} s ({r['play_s']:.1f} s) | {r['mean_in_flight']:.1f} / "
                     f"{r['max_in_flight']} | {r['games_per_s']:.2f} | {r['calls_per_s']:.0f} | "
                     f"{r['cpu_ms_per_call']:.1f} ms | {100 * r['share_of_limit']:.0f}% |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        serve(float(argv[1]), argv[2], int(argv[3]), int(argv[4]))
        return 0
    if argv[:1] == ["--child"]:
        print(json.dumps(child(json.loads(argv[1]))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=None, help=f"comma-separated rows of {', '.join(ROWS)}; default {DEFAULT_ROWS}")
    ap.add_argument("--games", type=int, default=128, help="games of a row (the serial rows: at most 8); default 128")
    ap.add_argument("--latency", type=float, default=0.2, help="server latency in seconds (mean); default 0.2")
    ap.add_argument("--slots", type=int, default=64, help="requests the server serves at once; default 64")
    ap.add_argument("--quick", action="store_true", help="two small rows at 0.02 s (a smoke run)")
    ap.add_argument("--out", default=None, help="JSON result path")
    args = ap.parse_args(argv)
    if args.quick:
        names, games, latency, slots = ["batch64", "c16"], 8, 0.02, 16
    else:
        names = (args.rows or DEFAULT_ROWS).split(",")
        games, latency, slots = args.games, args.latency, args.slots
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        ap.error(f"unknown rows {', '.join(unknown)}; known: {', '.join(ROWS)}")
    load_before = os.getloadavg()
    rows = []
    for name in names:
        serial = ROWS[name].get("concurrency") == 1
        rows.append(measure(name, min(games, SERIAL_GAMES) if serial else games, latency, slots))
        print(f"{name}: {rows[-1]['calls_per_s']:.0f} calls/s, {100 * rows[-1]['share_of_limit']:.0f}% of the limit",
              file=sys.stderr, flush=True)
    print(table(rows))
    result = {"settings": {"games": games, "latency_s": latency, "slots": slots, "quick": args.quick},
              "load_before": load_before, "load_after": os.getloadavg(), "rows": rows, "machine": machine_info()}
    path = Path(args.out) if args.out else ROOT / "benchmarks" / "results" / (
        "llm_server_quick.json" if args.quick else "llm_server.json")
    write_result(path, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
