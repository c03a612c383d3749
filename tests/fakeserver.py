"""A small OpenAI-compatible chat-completions server on 127.0.0.1 for tests.

    server = FakeServer()
    server.reply = lambda request: "A"          # content of the answer (str), or a dict
    server.faults = ["429", "slow", "ok"]       # what the next requests get, in order
    ...                                         # server.url is the base URL (".../v1")
    server.close()

``reply(request_json)`` returns the answer's content, or a dict with any of
``content``, ``reasoning_content``, ``reasoning``, ``finish_reason``, ``usage`` (a dict)
and ``logprobs`` (a list of ``(token, logprob)`` pairs: the first token's top
log-probabilities). Faults, consumed one per request (then ``default``):

=============  ==============================================================
``ok``         a normal answer
``slow``       a normal answer after ``slow_seconds`` (longer than the client timeout)
``429``        HTTP 429 with ``Retry-After: retry_after`` (none when it is None) and,
               when ``retry_after_ms`` is set, ``retry-after-ms`` too
``500``        HTTP 500
``malformed``  HTTP 200, ``application/json``, a body that is not JSON
``cutoff``     HTTP 200 whose body stops mid-way (the connection closes)
``drip``       HTTP 200, headers at once, then the body one byte every
               ``drip_interval`` seconds (at most ``drip_bytes`` bytes, and never
               longer than ``drip_max_seconds``: a read timeout never fires)
``drip_head``  the status line and headers themselves sent that way
``huge``       HTTP 200 whose body is ``huge_bytes`` long (a completion whose content
               is that many ``x``; written in 64 KiB pieces, never held whole)
``gzip_bomb``  HTTP 200, ``Content-Encoding: gzip``, a small body that inflates to
               ``huge_bytes`` (a completion padded with spaces)
``redirect``   HTTP 307 to ``redirect_to`` (e.g. another FakeServer's URL)
``raw``        HTTP 200, ``application/json``, the bytes ``raw_body`` (or
               ``raw_body(request_json)``) with the headers ``raw_headers``: malformed
               ``choices``/``usage``, deep nesting, a content coding
``echo``       HTTP 200 echoing the request's ``Authorization`` value into every field
               of the answer (content, reasoning_content, finish_reason, usage, model,
               id) and into the headers ``x-request-id``, ``retry-after``, ``x-echo``
``echo_usage`` HTTP 200 with that value as the usage's token counts
``echo_error`` HTTP ``echo_status`` (default 500) with that value in the error message,
               the body and the same headers
``echo_redirect``  HTTP 307 whose ``Location`` carries that value
=============  ==============================================================

Every loop above is bounded in count and in time, and the server listens on 127.0.0.1
only.

``status`` (default 200) forces an HTTP error on every request (the judge tests use it);
``reject(request_json)`` may return ``(status, message)`` to refuse one request (a server
that does not take a parameter), or None.
Every request body, its headers and the fault it got are kept (``requests``,
``headers``, ``served``); ``max_in_flight`` is the most requests handled at once. The
listen backlog is deep (1024), so many clients connecting at once are all accepted.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

__all__ = ["FakeServer", "FAULTS"]

FAULTS = ("ok", "slow", "429", "500", "malformed", "cutoff", "drip", "drip_head", "huge", "gzip_bomb", "redirect",
          "raw", "echo", "echo_usage", "echo_error", "echo_redirect")
#: hard bounds of the hostile behaviours, whatever a test sets
_MAX_DRIP_SECONDS = 60.0
_MAX_HUGE_BYTES = 512 * 2**20


class FakeServer:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.served: list[str] = []
        self.reply: Callable[[dict], Any] = lambda req: "{}"
        self.reject: Callable[[dict], Any] = lambda req: None
        self.faults: list[str] = []
        self.default = "ok"
        self.status = 200
        self.slow_seconds = 2.0
        self.retry_after: str | None = "1"
        self.retry_after_ms: str | None = None
        self.delay = 0.0  # added to every normal answer (to observe concurrency)
        self.drip_interval = 0.8
        self.drip_bytes = 10_000
        self.drip_max_seconds = 30.0
        self.huge_bytes = 300 * 2**20
        self.redirect_to: str | None = None
        self.raw_body: Any = b"{}"
        self.raw_headers: dict[str, str] = {}
        self.echo_status = 500
        #: (fault, seconds the server spent answering) per request, for the hostile faults
        self.timings: list[tuple[str, float]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep pytest output clean
                pass

            def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None,
                      length: int | None = None) -> None:
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body) if length is None else length))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.loads(raw)
                with server._lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                    fault = server.faults.pop(0) if server.faults else server.default
                    if server.status != 200:
                        fault = f"status {server.status}"
                    server.served.append(fault)
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                t0 = time.monotonic()
                try:
                    self._answer(body, fault)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up first
                    self.close_connection = True
                finally:
                    with server._lock:
                        server.in_flight -= 1
                        server.timings.append((fault, time.monotonic() - t0))

            def _drip(self, data: bytes) -> None:
                """``data`` one byte at a time, bounded in bytes and seconds."""
                end = time.monotonic() + min(server.drip_max_seconds, _MAX_DRIP_SECONDS)
                for i in range(min(len(data), server.drip_bytes)):
                    if time.monotonic() > end:
                        break
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    time.sleep(server.drip_interval)
                self.close_connection = True

            def _hostile(self, body: dict, fault: str) -> bool:
                """The hostile faults; True when one answered."""
                auth = str(self.headers.get("Authorization", ""))
                if fault == "drip":
                    data = json.dumps(server.completion(body)).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.flush()
                    self._drip(data)
                    return True
                if fault == "drip_head":
                    data = json.dumps(server.completion(body)).encode()
                    head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                            f"X-Pad: {'p' * 4000}\r\nContent-Length: {len(data)}\r\n\r\n").encode()
                    self._drip(head + data)
                    return True
                if fault == "huge":
                    n = min(server.huge_bytes, _MAX_HUGE_BYTES)
                    head = b'{"id": "c1", "object": "chat.completion", "model": "m", "choices": [{"index": 0, ' \
                           b'"finish_reason": "stop", "message": {"role": "assistant", "content": "'
                    tail = b'"}}]}'
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(head) + n + len(tail)))
                    self.end_headers()
                    self.wfile.write(head)
                    piece = b"x" * 65536
                    left = n
                    while left > 0:
                        self.wfile.write(piece[:left])
                        left -= len(piece)
                    self.wfile.write(tail)
                    self.wfile.flush()
                    return True
                if fault == "gzip_bomb":
                    n = min(server.huge_bytes, _MAX_HUGE_BYTES)
                    comp = server._bomb(n)
                    self._send(200, comp, {"Content-Encoding": "gzip"})
                    return True
                if fault == "redirect":
                    target = (server.redirect_to or server.url).rstrip("/") + "/chat/completions"
                    self._send(307, b'{"error": {"message": "moved"}}', {"Location": target})
                    return True
                if fault == "raw":
                    raw = server.raw_body(body) if callable(server.raw_body) else server.raw_body
                    self._send(200, raw if isinstance(raw, bytes) else str(raw).encode(), dict(server.raw_headers))
                    return True
                echo_headers = {"x-request-id": auth, "retry-after": auth, "x-echo": auth}
                if fault == "echo":
                    data = server.completion(body)
                    choice = data["choices"][0]
                    choice["message"]["content"] = f"echo {auth} A"
                    choice["message"]["reasoning_content"] = f"I was sent {auth}"
                    choice["finish_reason"] = auth
                    data["model"] = data["id"] = auth
                    data["usage"] = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
                                     "completion_tokens_details": {"reasoning_tokens": 0, "note": auth}}
                    self._send(200, json.dumps(data).encode(), echo_headers)
                    return True
                if fault == "echo_usage":
                    data = server.completion(body)
                    data["usage"] = {"prompt_tokens": auth, "completion_tokens": auth}
                    self._send(200, json.dumps(data).encode(), echo_headers)
                    return True
                if fault == "echo_error":
                    err = {"error": {"message": f"bad key {auth}", "type": auth, "code": auth}, "echo": auth}
                    self._send(server.echo_status, json.dumps(err).encode(), echo_headers)
                    return True
                if fault == "echo_redirect":
                    self._send(307, json.dumps({"error": {"message": auth}}).encode(),
                               {"Location": f"http://127.0.0.1:9/v1/chat/completions?key={auth}", **echo_headers})
                    return True
                return False

            def _answer(self, body: dict, fault: str) -> None:
                if not self.path.endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "not found"}}')
                    return
                refused = server.reject(body)
                if refused:
                    code, message = refused
                    self._send(int(code), json.dumps({"error": {"message": message}}).encode())
                    return
                if fault.startswith("status "):
                    self._send(int(fault.split()[1]), b'{"error": {"message": "boom"}}')
                    return
                if fault == "429":
                    waits = {"Retry-After": server.retry_after, "retry-after-ms": server.retry_after_ms}
                    self._send(429, b'{"error": {"message": "rate limited", "type": "rate_limit"}}',
                               {k: v for k, v in waits.items() if v is not None})
                    return
                if fault == "500":
                    self._send(500, b'{"error": {"message": "internal error"}}')
                    return
                if fault == "malformed":
                    self._send(200, b'{"id": "c1", "choices": [ this is not json')
                    return
                if self._hostile(body, fault):
                    return
                if fault == "slow":
                    time.sleep(server.slow_seconds)
                elif server.delay:
                    time.sleep(server.delay)
                data = json.dumps(server.completion(body)).encode()
                if fault == "cutoff":
                    self._send(200, data[: len(data) // 2], length=len(data))
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                try:
                    self._send(200, data)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out first
                    pass

        class Server(ThreadingHTTPServer):
            # the listen backlog: the default 5 resets connections when many clients
            # connect at once (a concurrent run, a benchmark)
            request_queue_size = 1024

            def handle_error(self, request, client_address):  # a client that hung up is no error here
                import sys

                if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
                    super().handle_error(request, client_address)

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def completion(self, body: dict) -> dict:
        out = self.reply(body)
        spec = {"content": out} if isinstance(out, str) or out is None else dict(out)
        message: dict[str, Any] = {"role": "assistant", "content": spec.get("content")}
        for k in ("reasoning_content", "reasoning"):
            if k in spec:
                message[k] = spec[k]
        prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4
        completion = len(spec.get("content") or "") // 4 + 1
        usage = spec.get("usage") or {"prompt_tokens": prompt, "completion_tokens": completion,
                                      "total_tokens": prompt + completion}
        choice: dict[str, Any] = {"index": 0, "finish_reason": spec.get("finish_reason", "stop"), "message": message,
                                  "logprobs": None}
        if spec.get("logprobs") is not None:
            top = [{"token": t, "logprob": lp, "bytes": None} for t, lp in spec["logprobs"]]
            first = top[0] if top else {"token": "", "logprob": 0.0, "bytes": None}
            choice["logprobs"] = {"content": [{**first, "top_logprobs": top}], "refusal": None}
        return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                "choices": [choice], "usage": usage}

    _bombs: dict[int, bytes] = {}

    @classmethod
    def _bomb(cls, n: int) -> bytes:
        """A gzip body inflating to a completion of about ``n`` bytes (built in 1 MiB
        pieces, cached per size)."""
        if n not in cls._bombs:
            import io

            head = b'{"id": "c1", "object": "chat.completion", "model": "m", "choices": [{"index": 0, ' \
                   b'"finish_reason": "stop", "message": {"role": "assistant", "content": "A"}}], "pad": "'
            buf = io.BytesIO()
            with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9) as z:
                z.write(head)
                piece = b" " * 2**20
                for _ in range(max(1, n // len(piece))):
                    z.write(piece)
                z.write(b'"}')
            cls._bombs[n] = buf.getvalue()
        return cls._bombs[n]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


# --------------------------------------------------------------------------- constrained answers

#: texts a constrained fake answer tries for a regex or a string pattern, in order
_CANDIDATES = ("negotiation-env-probe", "A", "Hello there.", "ok", "Support", "")


def constraint_of(request: dict) -> tuple[str, str, Any] | None:
    """The constraint a request carries: ``(via, "json" | "regex", schema or regex)`` from
    ``response_format`` (json_schema), vLLM's ``structured_outputs`` or its older
    ``guided_json`` / ``guided_regex``; None when it carries none."""
    rf = request.get("response_format")
    if isinstance(rf, dict) and rf.get("type") == "json_schema":
        return "response_format", "json", rf["json_schema"]["schema"]
    so = request.get("structured_outputs")
    if isinstance(so, dict):
        for key in ("json", "regex"):
            if key in so:
                return "structured_outputs", key, so[key]
    for key in ("json", "regex"):
        if f"guided_{key}" in request:
            return "guided", key, request[f"guided_{key}"]
    return None


def _instance(schema: dict) -> Any:
    """The simplest value of the games' schema subset (first enum value, first anyOf
    branch, required properties, minimum integers, the first candidate string that fits)."""
    import re

    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return _instance(schema["anyOf"][0])
    t = schema.get("type")
    if t == "object":
        props = schema.get("properties", {})
        return {k: _instance(props[k]) for k in schema.get("required", list(props))}
    if t == "integer":
        return schema.get("minimum", 0)
    if t == "null":
        return None
    if t == "string":
        pattern = schema.get("pattern", "^.*$")[1:-1]
        return next(c for c in _CANDIDATES if re.fullmatch(pattern, c))
    raise ValueError(f"no instance for {schema}")


def structured_reply(free: Callable[[dict], Any] = lambda req: "OK") -> Callable[[dict], Any]:
    """A ``FakeServer.reply`` that follows the constraint a request carries, as a
    constraining server does (the simplest valid answer), and answers ``free(request)``
    when it carries none."""

    def reply(request: dict) -> Any:
        import re

        c = constraint_of(request)
        if c is None:
            return free(request)
        _via, kind, value = c
        if kind == "json":
            return json.dumps(_instance(value))
        return next(t for t in _CANDIDATES if re.fullmatch(value, t))

    return reply


# --------------------------------------------------------------------------- token ids and log-probabilities

#: the shapes :func:`token_answer` answers in
TOKEN_SHAPES = ("vllm", "vllm_old", "sglang", "openai")


def token_answer(content: str, completion_ids: list[int], logprobs: list[float], prompt_ids: list[int], *,
                 shape: str = "vllm") -> Callable[[dict], bytes]:
    """A ``FakeServer.raw_body`` answering ``content`` with the token fields a server of
    ``shape`` returns for what the request asks (nothing it does not ask for):

    * ``vllm`` (0.10.2 and later): ``logprobs: true`` gives ``choices[0].logprobs.content``
      (one entry per token, its ``token`` the token's text, or ``token_id:N`` with
      ``return_tokens_as_token_ids``); ``return_token_ids`` gives the answer's
      ``prompt_token_ids`` and the choice's ``token_ids``;
    * ``vllm_old`` (before 0.10.2): as ``vllm`` without ``return_token_ids``;
    * ``sglang``: log-probabilities as ``vllm`` (token texts), ``return_token_ids`` gives
      both id lists on the choice;
    * ``openai``: log-probabilities with token texts only.

    Use with ``server.default = "raw"`` (and ``raw_headers`` left empty)."""
    if shape not in TOKEN_SHAPES:
        raise ValueError(f"shape must be one of {TOKEN_SHAPES}; got {shape!r}")

    def body(request: dict) -> bytes:
        choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content},
                                  "logprobs": None, "finish_reason": "stop"}
        answer: dict[str, Any] = {"id": "chatcmpl-t", "object": "chat.completion", "created": 0,
                                  "model": request.get("model", "m"), "choices": [choice],
                                  "usage": {"prompt_tokens": len(prompt_ids), "completion_tokens": len(completion_ids),
                                            "total_tokens": len(prompt_ids) + len(completion_ids)}}
        spelled = shape in ("vllm", "vllm_old") and request.get("return_tokens_as_token_ids") is True
        if request.get("logprobs") is True:
            choice["logprobs"] = {"content": [
                {"token": f"token_id:{t}" if spelled else f"<{t}>", "logprob": lp, "bytes": None, "top_logprobs": []}
                for t, lp in zip(completion_ids, logprobs)]}
        if request.get("return_token_ids") is True and shape in ("vllm", "sglang"):
            choice["token_ids"] = list(completion_ids)
            (answer if shape == "vllm" else choice)["prompt_token_ids"] = list(prompt_ids)
        return json.dumps(answer).encode()

    return body
