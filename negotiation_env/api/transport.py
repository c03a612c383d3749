"""The HTTP layer under :class:`~.client.APIClient`: a deadline per call, a cap on the
answer's size, no redirects, and secrets kept out of the HTTP libraries' logs.

The ``openai`` client sends through ``httpx``; what it offers does not bound a hostile
server:

* httpx's timeouts apply to each read, connect and write, never to the whole call (there
  is no total timeout; https://github.com/encode/httpcore/issues/936 is the open
  proposal): a server that drips one byte at a time, each within the read timeout,
  keeps a call alive for as long as it likes.
  :func:`budget` opens a per-call :class:`Budget` (a ``contextvars`` variable, so each
  thread's call has its own) and :class:`DeadlineBackend`, the network backend under
  httpcore's connection pool, gives every connect, read and write only the time left
  before the deadline, then raises httpcore's own timeout (so httpx and ``openai`` map
  it to their timeout errors as usual). It covers the status line and headers too,
  which no transport wrapper can interrupt.
* httpx reads a body whole, however long. :class:`GuardedTransport` counts the body's
  bytes while it is read and raises :class:`AnswerRefused` (``kind="too_large"``) past
  ``Budget.max_bytes``; a ``gzip``/``deflate`` body (we ask for ``identity``) is inflated
  here, in bounded steps, and counted inflated, so a small bomb cannot become hundreds
  of megabytes; any other content coding is refused.
* Redirects: the client is built with ``follow_redirects=False``, so a 3xx reaches the
  API client as a status, which refuses it (the prompt and the key would be posted to
  wherever the server points).

:class:`ScrubFilter` takes registered secrets (:func:`register_secret`) out of every
record logged by ``openai``, httpx and httpcore (httpcore's debug trace prints response
headers, openai's the ``x-request-id`` header: a server that echoes the
``Authorization`` header there would otherwise put the key into a log).

Written here rather than taken from a library because neither httpx nor ``openai``
offers a whole-call deadline or a size cap; the two hooks used are public extension
points (a transport, a network backend), set on the client httpx builds through three
private attributes (the client's ``_transport`` and ``_mounts``, the pool's
``_network_backend``); :func:`make_http_client` refuses to build a client it cannot
bound, and the tests drive every guard.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.util
import logging
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterator

if importlib.util.find_spec("openai._httpx2") is not None:  # openai >= 3 sends through httpx2
    import httpcore2 as httpcore
    import httpx2 as httpx
else:  # pragma: no cover - older openai clients send through httpx
    import httpcore
    import httpx

__all__ = ["Budget", "budget", "AnswerRefused", "DeadlineBackend", "GuardedTransport", "make_http_client",
           "ScrubFilter", "register_secret", "scrub_secrets", "httpx", "REDACTED", "LOGGERS"]

REDACTED = "[REDACTED]"
#: the loggers of the HTTP stack that a record can be created on (a logging filter
#: acts only on the logger a record is created at, so each is named)
LOGGERS = ("negotiation_env.api.client", "negotiation_env.api.transport", "baselines.llm.api", "openai",
           "openai._base_client", "openai._response",
           "openai._legacy_response", "httpx", "httpx2", "httpcore.http11", "httpcore.http2", "httpcore.connection",
           "httpcore.connection_pool", "httpcore.proxy", "httpcore.socks", "httpcore2.http11", "httpcore2.http2",
           "httpcore2.connection", "httpcore2.connection_pool", "httpcore2.proxy", "httpcore2.socks")


class AnswerRefused(Exception):
    """An answer refused while it was read: ``kind`` is ``"too_large"`` (more than the
    budget's bytes) or ``"malformed"`` (a content coding we cannot bound)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class Budget:
    """What one call may take: until ``deadline`` (``time.monotonic()``) and
    ``max_bytes`` of body (inflated). ``read``: body bytes so far."""

    seconds: float
    max_bytes: int
    deadline: float = 0.0
    read: int = 0
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.deadline = self.started + self.seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("negotiation_env_http_budget", default=None)


@contextlib.contextmanager
def budget(seconds: float, max_bytes: int) -> Iterator[Budget]:
    """Bound the HTTP calls made inside the block (in this thread) by one deadline of
    ``seconds`` from now and ``max_bytes`` of answer."""
    b = Budget(float(seconds), int(max_bytes))
    token = _BUDGET.set(b)
    try:
        yield b
    finally:
        _BUDGET.reset(token)


def _left(timeout: float | None, exc: type[Exception]) -> float | None:
    """``timeout`` cut to what the current budget has left; ``exc`` once nothing is left."""
    b = _BUDGET.get()
    if b is None:
        return timeout
    left = b.left()
    if left <= 0:
        raise exc(f"the call's deadline of {b.seconds:g} s passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None):
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname,
                                                     _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """A network backend whose every connect, read and write ends at the current
    :class:`Budget`'s deadline (unchanged outside :func:`budget`)."""

    def __init__(self, inner: Any | None = None) -> None:
        self._inner = inner if inner is not None else httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None):
        return _DeadlineStream(self._inner.connect_tcp(host, port, _left(timeout, httpcore.ConnectTimeout),
                                                       local_address, socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None):
        return _DeadlineStream(self._inner.connect_unix_socket(path, _left(timeout, httpcore.ConnectTimeout),
                                                               socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _BoundedBody(httpx.SyncByteStream):
    """A response body counted (inflated, when ``coding`` is gzip/deflate) against the
    budget while it is read."""

    def __init__(self, inner: Any, b: Budget, coding: str | None) -> None:
        self._inner = inner
        self._budget = b
        # 32 + MAX_WBITS: a gzip or zlib header, detected (HTTP "deflate" is zlib-wrapped)
        self._inflate = zlib.decompressobj(32 + zlib.MAX_WBITS) if coding else None

    def _count(self, n: int) -> None:
        b = self._budget
        b.read += n
        if b.read > b.max_bytes:
            raise AnswerRefused("too_large", f"the answer is longer than {b.max_bytes:,} bytes (max_response_bytes); "
                                             "the rest was not read")
        if b.left() <= 0:
            raise httpx.ReadTimeout(f"the call's deadline of {b.seconds:g} s passed")

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._inner:
            if self._inflate is None:
                self._count(len(chunk))
                yield chunk
                continue
            data = chunk
            while data:
                try:  # at most what the budget has left (+1, to see it exceeded)
                    out = self._inflate.decompress(data, self._budget.max_bytes - self._budget.read + 1)
                except zlib.error as e:
                    raise AnswerRefused("malformed", f"the compressed answer does not inflate ({e})") from None
                self._count(len(out))
                if out:
                    yield out
                data = self._inflate.unconsumed_tail
        if self._inflate is not None:
            rest = self._inflate.flush()
            self._count(len(rest))
            if rest:
                yield rest

    def close(self) -> None:
        self._inner.close()


class GuardedTransport(httpx.BaseTransport):
    """An httpx transport whose answers are bounded by the current :class:`Budget` (see
    the module docstring); outside :func:`budget` it passes answers through."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def handle_request(self, request: Any) -> Any:
        response = self._inner.handle_request(request)
        b = _BUDGET.get()
        if b is None:
            return response
        coding = response.headers.get("content-encoding", "").strip().lower()
        if coding in ("", "identity"):
            response.stream = _BoundedBody(response.stream, b, None)
        elif coding in ("gzip", "x-gzip", "deflate"):
            # inflated here (bounded) instead of by httpx (unbounded)
            del response.headers["content-encoding"]
            if "content-length" in response.headers:
                del response.headers["content-length"]
            response.stream = _BoundedBody(response.stream, b, coding)
        else:
            response.close()
            raise AnswerRefused("malformed", f"the answer uses the content coding {coding[:40]!r}; "
                                             "'identity' was asked for (gzip and deflate are read too)")
        return response

    def close(self) -> None:
        self._inner.close()


def _guarded(transport: Any) -> Any:
    """``transport`` (an ``HTTPTransport``) with its pool connecting through
    :class:`DeadlineBackend`, inside a :class:`GuardedTransport`."""
    pool = getattr(transport, "_pool", None)
    if pool is None or not hasattr(pool, "_network_backend"):  # pragma: no cover - a future httpx layout
        raise RuntimeError("this httpx has no connection pool network backend to bound; the API client cannot "
                           "enforce its per-call deadline")
    if not isinstance(pool._network_backend, DeadlineBackend):
        pool._network_backend = DeadlineBackend(pool._network_backend)
    return GuardedTransport(transport)


def make_http_client(timeout: float, *, connect: float | None = None) -> Any:
    """The ``httpx.Client`` an API client sends through: redirects not followed,
    ``Accept-Encoding: identity``, and every transport it may use (the default one and
    those of the proxies named by ``HTTP(S)_PROXY`` / ``ALL_PROXY``, as httpx builds them,
    so proxies still work) wrapped by :func:`_guarded`. The client is built as httpx
    builds it, then its transports are wrapped: passing ``transport=`` instead would make
    httpx ignore the environment's proxies."""
    client = httpx.Client(follow_redirects=False,
                          timeout=httpx.Timeout(timeout, connect=connect if connect is not None else timeout),
                          headers={"Accept-Encoding": "identity"})
    client._transport = _guarded(client._transport)
    client._mounts = {pattern: None if t is None else _guarded(t) for pattern, t in client._mounts.items()}
    return client


# --------------------------------------------------------------------------- secrets in logs

#: replaced whole under the lock, read without it (a tuple cannot change while iterated)
_SECRETS: tuple[str, ...] = ()
_SECRETS_LOCK = threading.Lock()


def scrub_secrets(text: str) -> str:
    """``text`` with every registered secret replaced by ``[REDACTED]``."""
    for s in _SECRETS:
        if s in text:
            text = text.replace(s, REDACTED)
    return text


class ScrubFilter(logging.Filter):
    """Rewrites a log record whose message (or exception text) holds a registered
    secret, so no handler ever formats the secret."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _SECRETS:
            return True
        try:
            msg = record.getMessage()
        except Exception:  # noqa: BLE001 - a record whose args do not format: leave it to logging
            return True
        clean = scrub_secrets(msg)
        if clean != msg:
            record.msg, record.args = clean, None
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_info, record.exc_text = None, scrub_secrets(text)
        elif record.exc_text:
            record.exc_text = scrub_secrets(record.exc_text)
        return True


_FILTER = ScrubFilter()


def register_secret(secret: str) -> None:
    """Keep ``secret`` out of every record of :data:`LOGGERS` from now on (secrets
    shorter than 4 characters, and the placeholder ``EMPTY``, are not secrets)."""
    global _SECRETS
    if not secret or secret == "EMPTY" or len(secret) < 4:
        return
    with _SECRETS_LOCK:
        if secret in _SECRETS:
            return
        _SECRETS = tuple(sorted((*_SECRETS, secret), key=len, reverse=True))  # longest first
        for name in LOGGERS:
            lg = logging.getLogger(name)
            if _FILTER not in lg.filters:
                lg.addFilter(_FILTER)
