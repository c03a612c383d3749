"""The client's CPU per call of the ``openai:`` policy: :class:`~negotiation_env.api.client.APIClient`
posting its own JSON body, beside the same client sending through the ``openai``
client's ``chat.completions.create`` (its request transformation walks every message on
every call), for conversations of 1, 10, 40 and 80 messages, side by side in one run.

    python -m benchmarks.api_client_cost                  # 5 repetitions x 60 calls per cell
    python -m benchmarks.api_client_cost --quick          # 2 x 15 (a smoke run)
    python -m benchmarks.api_client_cost --sizes 40 --reps 9 --calls 100

Needs the ``api`` extra. The server is a separate process (an asyncio HTTP/1.1 server
on 127.0.0.1, keep-alive, answering every request at once with a fixed chat completion),
so ``time.process_time()`` in this process counts the client's work alone: building the
request, posting it, reading and checking the answer, its bookkeeping; the server's own
CPU is read from it (``GET /cpu``) before and after each cell and reported beside. Rows:

* ``openai create``: the client with its request posted by ``openai``'s
  ``chat.completions.with_raw_response.create`` through the same guarded HTTP client
  (every other step of the call the same);
* ``APIClient``: the client as it is;
* ``httpx post``: the same body bytes posted with the HTTP client directly, nothing
  else (the floor a client that posts through httpx cannot go under).

Each repetition runs every row of every size in turn (interleaved, so load changes hit
all alike); a cell is the median over repetitions of CPU per call. The target (at most
1 ms of client CPU per call at 40 messages) is printed beside the figure. Table on
stdout, JSON in ``benchmarks/results/api_client_cost.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable

from benchmarks.machine import ROOT, machine_info, write_result

TARGET_MS = 1.0
TARGET_SIZE = 40
ANSWER = json.dumps({
    "id": "chatcmpl-bench", "object": "chat.completion", "created": 1700000000, "model": "bench-model",
    "choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant",
        "content": "I propose we split it: you take 6 wood and 4 stone, I take the rest. "
                   "{\"offer\": {\"wood\": 6, \"stone\": 4}}"}}],
    "usage": {"prompt_tokens": 1834, "completion_tokens": 41, "total_tokens": 1875}}).encode()


# --------------------------------------------------------------------------- the server


class _Protocol(asyncio.Protocol):
    """HTTP/1.1 with keep-alive: ``POST`` answered with :data:`ANSWER`, ``GET /cpu`` with
    the server's ``time.process_time()``."""

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.buf = b""

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buf[:head_end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if len(self.buf) < head_end + 4 + length:
                return
            self.buf = self.buf[head_end + 4 + length:]
            body = (json.dumps({"cpu": time.process_time()}).encode() if head.startswith("GET /cpu")
                    else ANSWER)
            self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                 b"Content-Length: %d\r\n\r\n%s" % (len(body), body))


def _serve(port_out: Any) -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(_Protocol, "127.0.0.1", 0, backlog=1024)
        port_out.send(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    asyncio.run(main())


def _server_cpu(url: str) -> float:
    with urllib.request.urlopen(url.rsplit("/v1", 1)[0] + "/cpu", timeout=10) as r:
        return float(json.loads(r.read())["cpu"])


# --------------------------------------------------------------------------- the clients


def conversation(n: int) -> list[dict[str, str]]:
    """``n`` messages shaped like a game's: a long system prompt, then alternating
    observations (about 400 characters) and answers (about 150)."""
    system = ("You are agent_a in a negotiation over 10 wood and 10 stone. Each round you may talk, then "
              "propose a split. Answer with one JSON object on the last line. ") * 12
    out = [{"role": "system", "content": system}]
    for i in range(1, n):
        if i % 2:
            out.append({"role": "user", "content": f"Round {i // 2 + 1} of 40. Your partner said: 'I can give "
                                                   f"you 4 wood if you give me 6 stone.' Inventory: wood 10, "
                                                   f"stone 10; values: wood 3, stone 5. " * 3})
        else:
            out.append({"role": "assistant", "content": "Counter-offer: 5 wood for 5 stone, final. "
                                                        "{\"offer\": {\"wood\": 5, \"stone\": 5}}" * 2})
    return out[:n]


def _clients(url: str) -> dict[str, Callable[[list[dict[str, str]], int], Any]]:
    """Row name -> ``send(messages, seed)``."""
    import openai

    from negotiation_env.api.client import APIClient, encode_body
    from negotiation_env.api.transport import make_http_client

    class OpenAICreate(APIClient):
        """The client with its request posted by ``openai``'s ``create``."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._sdk = openai.OpenAI(api_key=self._key, base_url=self._base, max_retries=0, timeout=self.timeout,
                                      http_client=make_http_client(self.timeout))

        def _post(self, kw: dict[str, Any], timeout: Any = None) -> bytes:
            extra = {} if timeout is None else {"timeout": timeout}
            return self._sdk.chat.completions.with_raw_response.create(**kw, **extra).content

    opts = {"api_key": "sk-bench-0000", "max_retries": 0, "max_tokens": 256}
    sdk, ours = OpenAICreate("bench-model", url, **opts), APIClient("bench-model", url, **opts)
    http = make_http_client(120.0)
    headers = dict(ours._headers)
    bodies: dict[int, bytes] = {}

    def via(client: APIClient) -> Callable[[list[dict[str, str]], int], Any]:
        def send(messages: list[dict[str, str]], seed: int) -> Any:
            comp, _ = client.complete(messages, seed=seed)
            if comp.failed or not comp.text:
                raise RuntimeError(f"the call failed: {comp.faults}")
            return comp
        return send

    def bare(messages: list[dict[str, str]], seed: int) -> Any:
        body = bodies.get(len(messages))
        if body is None:  # built once, outside the timed calls that follow
            body = bodies[len(messages)] = encode_body(ours.request(messages, seed=0))
        r = http.post(ours._url, content=body, headers=headers)
        if r.status_code != 200:
            raise RuntimeError(f"HTTP {r.status_code}")
        return r.content

    return {"openai create": via(sdk), "APIClient": via(ours), "httpx post": bare}


# --------------------------------------------------------------------------- the run


def run(sizes: list[int], reps: int, calls: int) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    proc = ctx.Process(target=_serve, args=(there,), daemon=True)
    proc.start()
    try:
        if not here.poll(30):
            raise RuntimeError("the benchmark server did not start")
        url = f"http://127.0.0.1:{here.recv()}/v1"
        rows = _clients(url)
        convs = {n: conversation(n) for n in sizes}
        for send in rows.values():  # warm-up: connections open, code paths loaded
            for n in sizes:
                for i in range(3):
                    send(convs[n], i)
        cpu: dict[tuple[str, int], list[float]] = {(r, n): [] for r in rows for n in sizes}
        wall: dict[tuple[str, int], list[float]] = {(r, n): [] for r in rows for n in sizes}
        server: dict[tuple[str, int], list[float]] = {(r, n): [] for r in rows for n in sizes}
        for rep in range(reps):
            for n in sizes:
                for row, send in rows.items():
                    conv = convs[n]
                    s0 = _server_cpu(url)
                    w0, c0 = time.perf_counter(), time.process_time()
                    for i in range(calls):
                        send(conv, rep * calls + i)
                    c1, w1 = time.process_time(), time.perf_counter()
                    s1 = _server_cpu(url)
                    cpu[row, n].append((c1 - c0) / calls)
                    wall[row, n].append((w1 - w0) / calls)
                    server[row, n].append((s1 - s0) / calls)
    finally:
        proc.terminate()
        proc.join(5)
    table = []
    for n in sizes:
        for row in rows:
            table.append({"messages": n, "row": row, "body_bytes": len(json.dumps(convs[n])),
                          "cpu_ms": statistics.median(cpu[row, n]) * 1e3,
                          "cpu_ms_all": [x * 1e3 for x in cpu[row, n]],
                          "wall_ms": statistics.median(wall[row, n]) * 1e3,
                          "server_cpu_ms": statistics.median(server[row, n]) * 1e3})
    return {"sizes": sizes, "reps": reps, "calls": calls, "target_ms": TARGET_MS, "target_size": TARGET_SIZE,
            "rows": table}


def render(result: dict[str, Any]) -> str:
    by = {(r["row"], r["messages"]): r for r in result["rows"]}
    names = list(dict.fromkeys(r["row"] for r in result["rows"]))
    lines = ["| messages | " + " | ".join(f"{n}: client CPU ms/call" for n in names)
             + " | openai create / APIClient | target | met | server CPU ms/call | wall ms/call (APIClient) |",
             "| --- " * (len(names) + 6) + "|"]
    for n in result["sizes"]:
        cells = [f"{by[name, n]['cpu_ms']:.3f}" for name in names]
        ratio = by["openai create", n]["cpu_ms"] / by["APIClient", n]["cpu_ms"]
        ours = by["APIClient", n]["cpu_ms"]
        target = f"≤ {TARGET_MS:g}" if n == TARGET_SIZE else ""
        met = ("yes" if ours <= TARGET_MS else "**no**") if n == TARGET_SIZE else ""
        srv = max(by[name, n]["server_cpu_ms"] for name in names)
        lines.append(f"| {n} | " + " | ".join(cells) + f" | {ratio:.1f}x | {target} | {met} | ≤ {srv:.3f} | "
                     f"{by['APIClient', n]['wall_ms']:.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,10,40,80", help="conversation lengths, comma-separated")
    ap.add_argument("--reps", type=int, default=5, help="interleaved repetitions (the median is reported)")
    ap.add_argument("--calls", type=int, default=60, help="calls per row, size and repetition")
    ap.add_argument("--quick", action="store_true", help="2 repetitions of 15 calls")
    ap.add_argument("--out", default=None, help="JSON path (default benchmarks/results/api_client_cost.json)")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    if not sizes or min(sizes) < 1:
        ap.error("--sizes takes positive conversation lengths, e.g. 1,10,40,80")
    if args.reps < 1 or args.calls < 1:
        ap.error("--reps and --calls must be at least 1")
    reps, calls = (2, 15) if args.quick else (args.reps, args.calls)
    result = run(sizes, reps, calls)
    result["machine"] = machine_info(("negotiation_env", "openai", "httpx", "httpx2", "httpcore2"))
    print(render(result))
    default = "api_client_cost_quick.json" if args.quick else "api_client_cost.json"
    write_result(Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
