"""The web application: routes, the access token, the size limit, and the server.

Routes (``SECRET``: the secret of one seat or participant, in the link it was given)::

    GET  /                       a study's landing page (consent); 404 for a single game
    POST /join                   consent given: a participant code and a link (303 to it)
    GET  /s/SECRET               the seat page (static; its script reads the next three)
    GET  /s/SECRET/state         what the seat sees now, as JSON
    GET  /s/SECRET/events        the same, as server-sent events whenever it changes
    POST /s/SECRET/answer        {"text": ...} or {"control": {field: value}}: 200, or 422
                                 with the game's message, 409 off turn, 413 too large
    GET  /static/play.js, /static/play.css

A secret is compared with every known one by :func:`secrets.compare_digest` (constant
time), so a guess learns nothing from how long the answer took. With a token
(:func:`serve_app`'s ``token``; required off loopback) every request must carry it, as
``?token=`` (the printed links do; the answer sets a same-site, HTTP-only cookie so the
page's own requests carry it) or that cookie; others get 401. A request body over
``max_body`` bytes is refused with 413 before it is read whole. The server writes no
access log, so no link (and no secret in it) reaches a log.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
import threading
from typing import Any, Mapping, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response, \
    StreamingResponse
from starlette.routing import Route

from . import is_loopback  # noqa: F401 - part of this module's API
from .page import HEADERS, SCRIPT, SEAT_PAGE, STYLE, landing_page, message_page
from .table import NotYourTurn, Table

__all__ = ["Hall", "GameHall", "serve_app", "with_token", "Server", "is_loopback", "MAX_BODY", "TOKEN_COOKIE", "find_secret"]

#: the largest request body accepted (an answer is a few hundred characters; the games
#: cut what they keep far below this)
MAX_BODY = 16_384
TOKEN_COOKIE = "negotiation_env_token"
#: how often the event stream looks for a change (seconds), and sends a keep-alive comment
_POLL_S = 0.1
_KEEPALIVE_S = 15.0


def find_secret(given: str, known: Mapping[str, Any]) -> Any:
    """The value of the key of ``known`` equal to ``given``, compared in constant time
    with every key (no early exit); None when none is."""
    found = None
    g = given.encode("utf-8", "replace")
    for key, value in known.items():
        if secrets.compare_digest(g, key.encode("utf-8")):
            found = value
    return found


class Hall(Protocol):
    """What the app serves: seats found by secret, and optionally a landing page."""

    title: str

    def find(self, secret: str) -> Any: ...

    def view(self, who: Any) -> dict[str, Any]: ...

    def submit(self, who: Any, text: str | None, values: Mapping[str, Any] | None) -> str | None: ...

    def landing(self) -> str | None: ...

    def join(self) -> str | None: ...

    def close(self) -> None: ...


class GameHall:
    """One game (``negotiation-env serve --game ...``): each human seat has its link."""

    def __init__(self, table: Table):
        self.table = table
        self.title = f"negotiation-env: {table.game_name}"
        self.links = {secrets.token_urlsafe(24): agent for agent in table.seats}
        self.closing = False

    def find(self, secret: str) -> Any:
        return find_secret(secret, self.links)

    def view(self, who: str) -> dict[str, Any]:
        return self.table.view(who)

    def submit(self, who: str, text: str | None, values: Mapping[str, Any] | None) -> str | None:
        return self.table.submit(who, text, values)

    def landing(self) -> str | None:
        return None

    def join(self) -> str | None:
        return None

    def close(self) -> None:
        self.closing = True
        self.table.stop()


def _headers(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    return {**HEADERS, **(extra or {})}


async def _body(request: Request, limit: int) -> bytes | None:
    """The request body, or None when it is larger than ``limit`` bytes (read no further)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"the request is larger than {limit:,} bytes, the limit; send a shorter answer"},
                        status_code=413, headers=_headers())


class _TokenGate:
    """ASGI middleware: every HTTP request carries the token (module docstring)."""

    def __init__(self, app, token: str):
        self.app = app
        self.token = token.encode("utf-8")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        given = request.query_params.get("token")
        via_query = given is not None
        if given is None:
            given = request.cookies.get(TOKEN_COOKIE, "")
        if not secrets.compare_digest(given.encode("utf-8", "replace"), self.token):
            response = PlainTextResponse("401: this server needs its access token (the link you were given "
                                         "carries it)", status_code=401, headers=_headers())
            return await response(scope, receive, send)
        if not via_query:
            return await self.app(scope, receive, send)

        async def send_with_cookie(message):
            if message["type"] == "http.response.start":
                cookie = (f"{TOKEN_COOKIE}={self.token.decode()}; Path=/; HttpOnly; SameSite=Strict").encode()
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        return await self.app(scope, receive, send_with_cookie)


def serve_app(hall: Hall, *, token: str | None = None, max_body: int = MAX_BODY) -> Any:
    """The ASGI app serving ``hall`` (module docstring)."""

    def who(request: Request) -> Any:
        return hall.find(request.path_params["secret"])

    def unknown() -> Response:
        return PlainTextResponse("404: no such link (check it was copied whole)", status_code=404,
                                 headers=_headers())

    async def index(request: Request) -> Response:
        page = hall.landing()
        if page is None:
            return PlainTextResponse("open the link you were given", status_code=404, headers=_headers())
        return HTMLResponse(page, headers=_headers())

    async def join(request: Request) -> Response:
        if hall.landing() is None:
            return PlainTextResponse("open the link you were given", status_code=404, headers=_headers())
        body = await _body(request, max_body)
        if body is None:
            return _too_large(max_body)
        form = dict(pair.split("=", 1) for pair in body.decode("latin-1").split("&") if "=" in pair)
        if form.get("consent") != "yes":
            return HTMLResponse(message_page(hall.title, "Please tick the box to agree before you start."),
                                status_code=400, headers=_headers())
        secret = hall.join()
        if secret is None:
            return HTMLResponse(message_page(hall.title, "This study has no open places left. Thank you."),
                                status_code=409, headers=_headers())
        return RedirectResponse(f"/s/{secret}", status_code=303, headers=_headers())

    async def seat_page(request: Request) -> Response:
        if who(request) is None:
            return unknown()
        return HTMLResponse(SEAT_PAGE, headers=_headers())

    async def state(request: Request) -> Response:
        w = who(request)
        if w is None:
            return unknown()
        return JSONResponse(hall.view(w), headers=_headers())

    async def events(request: Request) -> Response:
        w = who(request)
        if w is None:
            return unknown()

        async def stream():
            last, quiet = None, 0.0
            while not getattr(hall, "closing", False):
                text = json.dumps(hall.view(w))
                if text != last:
                    last, quiet = text, 0.0
                    yield f"data: {text}\n\n"
                elif quiet >= _KEEPALIVE_S:
                    quiet = 0.0
                    yield ": keep-alive\n\n"
                await asyncio.sleep(_POLL_S)
                quiet += _POLL_S

        return StreamingResponse(stream(), media_type="text/event-stream", headers=_headers())

    async def answer(request: Request) -> Response:
        w = who(request)
        if w is None:
            return unknown()
        body = await _body(request, max_body)
        if body is None:
            return _too_large(max_body)
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not (isinstance(data.get("text"), str) or isinstance(data.get("control"), dict)):
            return JSONResponse({"error": 'send {"text": "your answer"} or {"control": {field: value}}'},
                                status_code=400, headers=_headers())
        values = data.get("control") if isinstance(data.get("control"), dict) else None
        try:
            problem = hall.submit(w, data.get("text") if values is None else None, values)
        except NotYourTurn:
            return JSONResponse({"error": "it is not your turn"}, status_code=409, headers=_headers())
        if problem is not None:
            return JSONResponse({"error": problem}, status_code=422, headers=_headers())
        return JSONResponse({"ok": True}, headers=_headers())

    async def script(request: Request) -> Response:
        return Response(SCRIPT, media_type="text/javascript", headers=_headers())

    async def style(request: Request) -> Response:
        return Response(STYLE, media_type="text/css", headers=_headers())

    app = Starlette(routes=[
        Route("/", index), Route("/join", join, methods=["POST"]),
        Route("/s/{secret}", seat_page), Route("/s/{secret}/state", state), Route("/s/{secret}/events", events),
        Route("/s/{secret}/answer", answer, methods=["POST"]),
        Route("/static/play.js", script), Route("/static/play.css", style),
    ])
    return with_token(app, token)


def with_token(app: Any, token: str | None) -> Any:
    """``app`` behind the access token (module docstring); ``app`` itself without one."""
    return _TokenGate(app, token) if token else app


class Server:
    """uvicorn serving ``app`` on ``host:port`` (port 0: a free one, known once bound),
    without an access log. :meth:`run` serves in the calling thread until stopped;
    :meth:`start` serves from a background thread (tests)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, on_close=None):
        import uvicorn

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, port))
        except OSError:
            self.sock.close()
            raise
        self.host, self.port = host, self.sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2,
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.on_close = on_close
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def run(self) -> None:
        try:
            self.server.run(sockets=[self.sock])
        finally:
            if self.on_close is not None:
                self.on_close()

    def start(self) -> "Server":
        self._thread = threading.Thread(target=self.run, name="negotiation-env serve", daemon=True)
        self._thread.start()
        import time

        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self.on_close is not None:
            self.on_close()
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self.sock.close()
