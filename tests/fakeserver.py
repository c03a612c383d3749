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
``429``        HTTP 429 with ``Retry-After: retry_after``
``500``        HTTP 500
``malformed``  HTTP 200, ``application/json``, a body that is not JSON
``cutoff``     HTTP 200 whose body stops mid-way (the connection closes)
=============  ==============================================================

``status`` (default 200) forces an HTTP error on every request (the judge tests use it);
``reject(request_json)`` may return ``(status, message)`` to refuse one request (a server
that does not take a parameter), or None.
Every request body, its headers and the fault it got are kept (``requests``,
``headers``, ``served``); ``max_in_flight`` is the most requests handled at once.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

__all__ = ["FakeServer", "FAULTS"]

FAULTS = ("ok", "slow", "429", "500", "malformed", "cutoff")


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
        self.retry_after = "1"
        self.delay = 0.0  # added to every normal answer (to observe concurrency)
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
                try:
                    self._answer(body, fault)
                finally:
                    with server._lock:
                        server.in_flight -= 1

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
                    self._send(429, b'{"error": {"message": "rate limited", "type": "rate_limit"}}',
                               {"Retry-After": server.retry_after})
                    return
                if fault == "500":
                    self._send(500, b'{"error": {"message": "internal error"}}')
                    return
                if fault == "malformed":
                    self._send(200, b'{"id": "c1", "choices": [ this is not json')
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

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
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

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
