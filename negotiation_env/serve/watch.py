"""Watch a run as it is played, in the browser: ``negotiation-env run ... --serve`` or
``negotiation-env serve --watch RUN``.

:func:`watch_app` is a Starlette application over one run folder. Its page lists the
run's games as they are written, keeps the run summary table up to date and shows a
game's transcript when its row is clicked:

* **the games**: the trace file is tailed (:class:`RunWatch`): each whole line read
  since the last look is checked as the runner's resume checks it (the bounded JSON
  decoder, the trace schema, the run id of ``run.json``, the plan, the first record of a
  game key counts) and becomes a row; a last line without its newline is a game still
  being written and waits until it is whole. A file that shrinks or is replaced (a
  resume that moved records aside) is read again from its start.
* **the summary**: games in the file of the planned ones (``run.json``), errors,
  truncated and degraded games, and the runner's own closing tables
  (:func:`negotiation_env.runner.commands.summary_tables`, fed by the runner's
  :class:`~negotiation_env.runner.engine.RunSummary` and the same per-game summary), so
  every figure is the one ``negotiation-env run`` prints when the run ends.
* **a transcript**: the viewer's rendering of the game
  (:mod:`negotiation_env.analysis.viewer`: every piece of trace text escaped), read
  back from the file by the record's byte offset, so the server keeps only a small row
  per game.

Updates reach the page by server-sent events (``/events``: one ``state`` event per
change, ``end`` when the run is over) with a polling fallback (``/state``) for a browser
or proxy without them. Starlette because its ``StreamingResponse`` serves events with
nothing added, and the project already serves with it; uvicorn runs it.

Safety: the page's own script builds the list and tables with ``textContent`` (no
markup parsed) and inserts only the viewer's escaped transcript HTML; the
Content-Security-Policy allows scripts from the server's own origin only (no inline
script), so a message holding markup shows as text and no script from a trace runs.
Without a token only requests for ``localhost`` / ``127.0.0.1`` / ``::1`` are answered
(a page elsewhere cannot reach the server by rebinding a name to the loopback address);
with a token every request must carry it (``?token=``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ..analysis.cells import condition_label, outcome_tags
from ..analysis.viewer import VIEWER_CSS, esc, game_section, seats_text, short_ids
from ..core.jsontext import JSONTextError, loads_document, loads_record
from ..exitcodes import TRACES_FILE
from ..runner.engine import RUN_FILE, CellStats, RunSummary, summarize_trace
from ..traces.reader import record_key
from ..traces.schema import GameTrace, SchemaError

__all__ = ["watch_app", "RunWatch", "WatchServer", "LOOPBACK_HOSTS", "POLL_SECONDS", "MAX_READ_BYTES"]

#: the host names a server without a token answers to
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: how often an open event stream looks at the trace file, in seconds
POLL_SECONDS = 0.5
#: the most bytes of the trace file read in one look (the rest on the next one), so a
#: large run folder opened by ``serve --watch`` fills the list in steps
MAX_READ_BYTES = 16 << 20


@dataclass(frozen=True)
class _Row:
    """One game of the list: what its row shows, and where its record is in the file."""

    key: str
    short: str
    game: str
    condition: str
    seats: str
    status: str
    tags: tuple[str, ...]
    offset: int
    length: int

    def as_json(self, i: int) -> dict[str, Any]:
        return {"i": i, "id": self.key, "short": self.short, "game": self.game,
                "condition": self.condition, "seats": self.seats, "status": self.status, "tags": list(self.tags)}


class RunWatch:
    """The state of one run folder as its trace file grows; safe to share between
    threads (every method takes one lock). :meth:`refresh` reads what was appended since
    the last call; :meth:`snapshot` and :meth:`transcript` answer the page."""

    def __init__(self, run_dir: str | Path):
        self.run_dir = Path(run_dir)
        self.traces = self.run_dir / TRACES_FILE
        self._lock = threading.Lock()
        self._meta: dict[str, Any] | None = None
        self._plan: Any = None
        self.ended = False
        self.version = 0
        self._reset()

    def _reset(self) -> None:
        """Forget every game read (a new file, or the first look)."""
        self.epoch = getattr(self, "epoch", -1) + 1
        self._ino: int | None = None
        self._offset = 0
        self._rows: list[_Row] = []
        self._keys: set[str] = set()
        self.skipped: dict[str, int] = {}
        meta = self._meta or {}
        self.summary = RunSummary(run_id=str(meta.get("run_id")), out_dir=self.run_dir,
                                  planned=int(meta.get("planned") or 0))
        if self._plan is not None:  # cells and seatings in plan order, as the runner sets its summary up
            for (cell, seating), k in self._plan.seatings().items():
                self.summary.cells.setdefault(cell, CellStats(cell=cell, lineup=list(seating))).planned += k
                self.summary.seatings[(cell, seating)] = CellStats(cell=cell, lineup=list(seating), planned=k)

    # ------------------------------------------------------------------ reading

    def _load_meta(self) -> bool:
        """Read ``run.json`` once it exists (the runner writes it whole before its first
        game); the plan is rebuilt from its config so the tables keep plan order, and left
        out (rows in the order games arrive) where the stored config does not give the
        same run id (a redacted secret)."""
        try:
            meta = loads_document((self.run_dir / RUN_FILE).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, JSONTextError):
            return False
        if not isinstance(meta, dict) or not isinstance(meta.get("run_id"), str):
            return False
        self._meta = meta
        try:
            from ..runner.config import parse_config
            from ..runner.plan import make_plan

            plan = make_plan(parse_config(meta.get("config") or {}))
            self._plan = plan if plan.run_id == meta["run_id"] else None
        except Exception:  # noqa: BLE001 - any config the installed runner cannot plan: rows in arrival order
            self._plan = None
        return True

    def refresh(self) -> bool:
        """Read the whole lines appended since the last call; True if anything shown changed."""
        with self._lock:
            changed = False
            if self._meta is None:
                if not self._load_meta():
                    return False
                self._reset()
                changed = True
            try:
                st = os.stat(self.traces)
            except OSError:
                st = None
            if st is None or (self._ino is not None and st.st_ino != self._ino) or (st.st_size < self._offset):
                if self._offset or self._rows:  # gone, replaced or cut: read the new file from its start
                    self._reset()
                    changed = True
                if st is None:
                    if changed:
                        self.version += 1
                    return changed
            self._ino = st.st_ino
            if st.st_size > self._offset:
                changed |= self._read_new()
            if changed:
                self.version += 1
            return changed

    def _read_new(self) -> bool:
        try:
            with open(self.traces, "rb") as f:
                f.seek(self._offset)
                data = f.read(MAX_READ_BYTES)
                while b"\n" not in data:  # one line longer than a look: read on to its end
                    more = f.read(MAX_READ_BYTES)
                    if not more:
                        break
                    data += more
        except OSError:
            return False
        end = data.rfind(b"\n")
        if end < 0:  # no whole line yet: a game still being written
            return False
        start = self._offset
        pos = 0
        for raw in data[:end + 1].splitlines(keepends=True):
            self._add_line(raw, start + pos)
            pos += len(raw)
        self._offset = start + end + 1
        return True

    def _skip(self, kind: str) -> None:
        self.skipped[kind] = self.skipped.get(kind, 0) + 1

    def _add_line(self, raw: bytes, offset: int) -> None:
        """One whole line: counted and listed as the runner's resume would count it."""
        if not raw.strip():
            return
        try:
            rec = loads_record(raw.decode("utf-8"))
            trace = GameTrace.from_dict(rec)
        except (UnicodeDecodeError, ValueError, SchemaError):
            self._skip("invalid")
            return
        run_id, key = record_key(trace)
        meta_run = (self._meta or {}).get("run_id")
        if run_id != meta_run or (self._plan is not None and not self._plan.has(key)):
            self._skip("foreign")
            return
        if key in self._keys:
            self._skip("duplicate")
            return
        g = summarize_trace(rec)
        if g["cell"] not in self.summary.cells:
            self.summary.cells[g["cell"]] = CellStats(cell=g["cell"], lineup=list(g["lineup"]))
        self.summary.count(g)
        self.summary.already_done += 1
        self._keys.add(key)
        # the viewer's short form of the id, alone: lineup and repetition (the full id is the row's title)
        self._rows.append(_Row(key=str(key), short=short_ids([rec])[0], game=str(rec.get("game")), condition=condition_label(rec),
                               seats=seats_text(rec), status=str(rec.get("status")),
                               tags=tuple(outcome_tags(rec)), offset=offset, length=len(raw)))

    # ------------------------------------------------------------------ answers

    def end(self) -> None:
        """Say that the run is over (its runner returned): event streams send the last
        state and close."""
        with self._lock:
            self.ended = True
            self.version += 1

    @property
    def finished(self) -> bool:
        """The run is over: :meth:`end` was called, or every planned game is in the file."""
        s = self.summary
        return self.ended or (self._meta is not None and s.planned > 0 and s.games >= s.planned)

    def snapshot(self, since: int = 0, epoch: int | None = None) -> dict[str, Any]:
        """The page's state: counts, the summary tables and the rows from ``since`` on (all
        rows when ``epoch`` is not the current one: the file was read again)."""
        from ..runner.commands import summary_tables

        with self._lock:
            s = self.summary
            if epoch != self.epoch:
                since = 0
            since = max(0, min(int(since), len(self._rows)))
            state = ("waiting" if self._meta is None else "ended" if self.finished else "running")
            return {
                "state": state, "epoch": self.epoch, "version": self.version,
                "run_id": (self._meta or {}).get("run_id"), "name": (self._meta or {}).get("name"),
                "planned": s.planned, "games": s.games, "errors": s.errors, "truncated": s.truncated,
                "degraded": s.degraded, "skipped": dict(self.skipped), "since": since,
                "rows": [r.as_json(since + k) for k, r in enumerate(self._rows[since:])],
                "tables": summary_tables(s) if self._meta is not None else [],
            }

    def transcript(self, i: int) -> str | None:
        """The viewer's HTML of game ``i`` of the list (None if there is no such game)."""
        with self._lock:
            if not 0 <= i < len(self._rows):
                return None
            row = self._rows[i]
            try:
                with open(self.traces, "rb") as f:
                    f.seek(row.offset)
                    raw = f.read(row.length)
                rec = loads_record(raw.decode("utf-8"))
            except (OSError, UnicodeDecodeError, ValueError):
                return None
        return game_section(i, rec)


# ---------------------------------------------------------------------- the page


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="watch.css{q}"></head>
<body data-token="{token}" data-state="loading"><header><h1>{title}</h1></header>
<div id="wrap"><nav id="list"><p id="status">connecting</p><p id="count">0 games</p>
<table class="games"><colgroup><col class="c-i"><col class="c-id"><col class="c-game"><col><col class="c-seats">
<col class="c-out"></colgroup><thead><tr><th>#</th><th>game id</th><th>game</th><th>condition</th>
<th title="the policy in each seat, first seat first">seats</th><th>outcome</th></tr></thead>
<tbody id="rows"></tbody></table></nav>
<main id="detail"><div id="empty"><p>Select a game on the left.</p><div id="summary"><h2>Run summary</h2>
<p id="counts"></p><div id="tables"></div></div></div><div id="game"></div></main></div>
<script src="watch.js{q}"></script></body></html>
"""

_EXTRA_CSS = """
#status{font-weight:600}#status.ended{color:#12622b}#status.lost{color:#8a1c1c}
table.summary td:first-child{text-align:left}#tables h3{margin:10px 0 2px;font-size:14px}
#tables{overflow-x:auto}table.summary th{white-space:nowrap}
tr.row{cursor:pointer}#game section.game{display:block}
"""

_JS = """
(function(){
  'use strict';
  var token = document.body.getAttribute('data-token') || '';
  function url(path, params){
    var q = [];
    for (var k in params) q.push(k + '=' + encodeURIComponent(params[k]));
    if (token) q.push('token=' + encodeURIComponent(token));
    return path + (q.length ? '?' + q.join('&') : '');
  }
  var epoch = null, have = 0, current = null, es = null, timer = null, over = false;
  var rowsEl = document.getElementById('rows');
  function text(tag, value, cls){
    var e = document.createElement(tag);
    e.textContent = value == null ? '' : String(value);
    if (cls) e.className = cls;
    return e;
  }
  function addRow(r){
    var tr = document.createElement('tr');
    tr.className = 'row';
    tr.id = 'row-' + r.i;
    tr.setAttribute('data-i', r.i);
    tr.appendChild(text('td', r.i));
    var id = text('td', r.short, 'id');
    id.title = r.id;
    tr.appendChild(id);
    tr.appendChild(text('td', r.game));
    var c = text('td', r.condition); c.title = r.condition; tr.appendChild(c);
    var s = text('td', r.seats); s.title = r.seats; tr.appendChild(s);
    var t = document.createElement('td');
    t.className = 'tags';
    for (var k = 0; k < r.tags.length; k++) { t.appendChild(text('span', r.tags[k], 'tag t-' + r.tags[k])); t.appendChild(document.createTextNode(' ')); }
    tr.appendChild(t);
    tr.addEventListener('click', function(){ open(r.i); });
    rowsEl.appendChild(tr);
  }
  function tables(list){
    var box = document.getElementById('tables');
    box.textContent = '';
    for (var g = 0; g < list.length; g++) {
      for (var k = 0; k < list[g].tables.length; k++) {
        var tb = list[g].tables[k];
        box.appendChild(text('h3', tb.title));
        var table = document.createElement('table');
        table.className = 'summary';
        var head = document.createElement('tr');
        for (var c = 0; c < tb.columns.length; c++) head.appendChild(text('th', tb.columns[c]));
        table.appendChild(head);
        for (var r = 0; r < tb.rows.length; r++) {
          var tr = document.createElement('tr');
          for (var d = 0; d < tb.rows[r].length; d++) tr.appendChild(text('td', tb.rows[r][d]));
          table.appendChild(tr);
        }
        box.appendChild(table);
      }
      if (list[g].note) box.appendChild(text('p', list[g].note, 'note'));
    }
  }
  function apply(s){
    if (s.epoch !== epoch || s.since === 0) { rowsEl.textContent = ''; have = 0; epoch = s.epoch; }
    for (var k = 0; k < s.rows.length; k++) if (s.rows[k].i === have) { addRow(s.rows[k]); have++; }
    document.getElementById('count').textContent = s.games + ' of ' + s.planned + ' planned games';
    var skipped = [];
    for (var kind in s.skipped) skipped.push(s.skipped[kind] + ' ' + kind);
    document.getElementById('counts').textContent = s.state === 'waiting' ? 'waiting for the run to start (no run.json yet)' :
      'run ' + s.run_id + ': ' + s.games + ' of ' + s.planned + ' planned games in the trace file, ' + s.errors +
      ' ended in error, ' + s.truncated + ' cut by the step cap, ' + s.degraded + ' degraded' +
      (skipped.length ? '; lines not counted: ' + skipped.join(', ') : '') + '.';
    tables(s.tables);
    var st = document.getElementById('status');
    st.textContent = s.state === 'ended' ? 'run over' : s.state === 'waiting' ? 'waiting for the run' : 'running';
    st.className = s.state;
    document.body.setAttribute('data-state', s.state);
    document.body.setAttribute('data-games', String(have));
  }
  function open(i){
    current = i;
    var rows = rowsEl.querySelectorAll('tr.row');
    for (var k = 0; k < rows.length; k++) rows[k].classList.toggle('current', rows[k].getAttribute('data-i') === String(i));
    fetch(url('game/' + i, {}), {cache: 'no-store'}).then(function(r){
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.text();
    }).then(function(html){
      if (current !== i) return;
      var box = document.getElementById('game');
      // the viewer's rendering: every piece of trace text is escaped on the server
      box.innerHTML = html;
      var sec = box.querySelector('section.game');
      if (sec) sec.hidden = false;
      var back = box.querySelector('a.back');
      if (back) back.addEventListener('click', function(e){ e.preventDefault(); close(); });
      document.getElementById('empty').hidden = true;
      document.body.setAttribute('data-shown', 'g' + i);
    }).catch(function(e){ document.getElementById('game').textContent = 'could not load game ' + i + ': ' + e.message; });
  }
  function close(){
    current = null;
    document.getElementById('game').textContent = '';
    document.getElementById('empty').hidden = false;
    document.body.setAttribute('data-shown', '');
  }
  function finish(){
    over = true;
    if (es) es.close();
    if (timer) clearTimeout(timer);
  }
  function poll(){
    fetch(url('state', {since: have, epoch: epoch === null ? -1 : epoch}), {cache: 'no-store'}).then(function(r){
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.json();
    }).then(function(s){
      apply(s);
      if (s.state === 'ended') finish(); else timer = setTimeout(poll, 2000);
    }).catch(function(){
      var st = document.getElementById('status');
      st.textContent = 'server stopped';
      st.className = 'lost';
      timer = setTimeout(poll, 5000);
    });
  }
  function stream(){
    var got = false;
    es = new EventSource(url('events', {}));
    es.addEventListener('state', function(e){ got = true; apply(JSON.parse(e.data)); });
    es.addEventListener('end', function(){ finish(); });
    es.onerror = function(){
      if (over) return;
      // no event ever arrived: a proxy or browser that does not stream; poll instead
      if (!got) { es.close(); es = null; poll(); }
      else { var st = document.getElementById('status'); st.textContent = 'reconnecting'; st.className = 'lost'; }
    };
  }
  if (window.EventSource && !/[?&]poll=1/.test(location.search)) stream(); else poll();
})();
"""

_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
        "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_HEADERS = {"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store"}


def _event(name: str, data: Any, event_id: str | None = None) -> str:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {name}\ndata: {json.dumps(data, ensure_ascii=False, allow_nan=False)}\n\n"


def _host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` gives ``::1``)."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _int_param(value: str | None, default: int) -> int:
    """A small non-negative integer from a query parameter (``default`` for anything else)."""
    if value is None or not value.isdigit() or len(value) > 9:
        return default
    return int(value)


def watch_app(run_dir: str | Path, *, token: str | None = None, poll: float = POLL_SECONDS,
              watch: RunWatch | None = None):
    """A Starlette application that shows the run in ``run_dir`` as it is played.

    Routes: ``/`` the page, ``/watch.js`` and ``/watch.css`` its script and style,
    ``/state?since=N&epoch=E`` the state as JSON (rows from ``N``), ``/events`` the same
    as server-sent events (a ``state`` event per change, looked for every ``poll``
    seconds; ``end`` once the run is over), ``/game/I`` the transcript of the list's game
    ``I`` as the viewer renders it. ``token``: when given, every request must carry
    ``?token=`` with it (else 403) and any host name is answered; without one, only
    loopback host names are (else 400). The :class:`RunWatch` is ``app.state.watch``
    (pass ``watch`` to share one); call its ``end()`` when the run is over."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
    from starlette.routing import Route

    if token is not None and (not isinstance(token, str) or len(token) < 16):
        raise ValueError("a watch token must be a string of at least 16 characters")
    state = watch if watch is not None else RunWatch(run_dir)
    title = f"negotiation_env run: {Path(run_dir).resolve().name}"
    query = f"?token={token}" if token else ""

    def denied(request: Request) -> Response | None:
        if token is None:
            if _host_name(request.headers.get("host", "")) in LOOPBACK_HOSTS:
                return None
            return PlainTextResponse("this server answers loopback host names only (localhost, 127.0.0.1, ::1)",
                                     status_code=400, headers=_HEADERS)
        given = request.query_params.get("token", "")
        if hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8")):
            return None
        return PlainTextResponse("a valid ?token= is required", status_code=403, headers=_HEADERS)

    async def refresh() -> None:
        await asyncio.to_thread(state.refresh)

    async def page(request: Request) -> Response:
        return denied(request) or HTMLResponse(_PAGE.format(title=esc(title), token=esc(token or ""),
                                                            q=esc(query)), headers=_HEADERS)

    async def script(request: Request) -> Response:
        return denied(request) or Response(_JS, media_type="text/javascript", headers=_HEADERS)

    async def style(request: Request) -> Response:
        return denied(request) or Response(VIEWER_CSS + _EXTRA_CSS, media_type="text/css", headers=_HEADERS)

    async def snapshot(request: Request) -> Response:
        if (no := denied(request)) is not None:
            return no
        await refresh()
        since = _int_param(request.query_params.get("since"), 0)
        epoch = request.query_params.get("epoch")
        return JSONResponse(state.snapshot(since, _int_param(epoch, -1) if epoch is not None else None),
                            headers=_HEADERS)

    async def game(request: Request) -> Response:
        if (no := denied(request)) is not None:
            return no
        i = _int_param(request.path_params["i"], -1)
        body = state.transcript(i) if i >= 0 else None
        if body is None:
            return PlainTextResponse(f"no game {request.path_params['i'][:20]!r} in the list", status_code=404,
                                     headers=_HEADERS)
        return HTMLResponse(body, headers=_HEADERS)

    async def events(request: Request) -> Response:
        if (no := denied(request)) is not None:
            return no
        last = request.headers.get("last-event-id", "")
        epoch_s, _, since_s = last.partition(":")
        epoch, since = _int_param(epoch_s, -1), _int_param(since_s, 0)

        async def stream() -> Iterator[str]:
            nonlocal epoch, since
            sent = -1
            quiet = 0.0
            while True:
                await refresh()
                finished = state.finished
                if state.version != sent:
                    snap = state.snapshot(since, epoch)
                    sent, epoch = snap["version"], snap["epoch"]
                    since = snap["since"] + len(snap["rows"])
                    yield _event("state", snap, f"{epoch}:{since}")
                    quiet = 0.0
                if finished:
                    yield _event("end", {"games": state.summary.games, "planned": state.summary.planned})
                    return
                await asyncio.sleep(poll)
                quiet += poll
                if quiet >= 15:  # a comment line keeps idle proxies from closing the stream
                    yield ": still watching\n\n"
                    quiet = 0.0

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**_HEADERS, "X-Accel-Buffering": "no"})

    app = Starlette(routes=[Route("/", page), Route("/watch.js", script), Route("/watch.css", style),
                            Route("/state", snapshot), Route("/events", events), Route("/game/{i}", game)])
    app.state.watch = state
    return app


class WatchServer:
    """:func:`watch_app` served by uvicorn in a background thread (``run --serve``), on the
    server of ``negotiation-env serve`` (:class:`negotiation_env.serve.app.Server`).

    The socket is bound when the server is made, so a port in use fails at once with
    :class:`OSError`; :attr:`url` is the link to open (with the token, if any).
    :meth:`stop` ends the run's streams and shuts the server down."""

    def __init__(self, run_dir: str | Path, *, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 poll: float = POLL_SECONDS):
        from .app import Server

        self.watch = RunWatch(run_dir)
        self.app = watch_app(run_dir, token=token, poll=poll, watch=self.watch)
        self._server = Server(self.app, host, port)
        self.port = self._server.port
        shown = f"[{host}]" if ":" in host else ("127.0.0.1" if host in ("0.0.0.0", "") else host)
        self.url = f"http://{shown}:{self.port}/" + (f"?token={token}" if token else "")

    def start(self) -> "WatchServer":
        self._server.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self.watch.end()
        self._server.stop(timeout)
