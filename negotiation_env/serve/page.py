"""The served pages: one static seat page with its script and style, and the study's
landing page.

The seat page holds no data: its script asks the server for the seat's state (``state``,
then server-sent ``events``) and builds every element with ``textContent``, never
``innerHTML``, so text from a message, a prompt or a name is shown as text and no markup
in it is parsed, let alone run. The script and style are served as files of their own
and every page carries a Content-Security-Policy without ``'unsafe-inline'``
(:data:`HEADERS`), so even markup that reached the page could run no script. The
landing page is the only page built on the server; every text in it goes through
:func:`html.escape`, the viewer's rule.
"""

from __future__ import annotations

import html

__all__ = ["SEAT_PAGE", "SCRIPT", "STYLE", "HEADERS", "landing_page", "message_page"]

#: headers of every response: no inline or foreign script, no framing, no referrer (the
#: links hold secrets), nothing cached
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}

SEAT_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>negotiation-env</title><link rel="stylesheet" href="/static/play.css"></head>
<body>
<header><h1 id="title">negotiation-env</h1><div id="code"></div></header>
<div id="status" class="status">connecting...</div>
<main>
<section id="messages" aria-live="polite"></section>
<section id="ask" hidden>
  <div id="phase"></div>
  <div id="problem" class="problem" hidden></div>
  <div id="control"></div>
  <form id="free">
    <label for="answer">your answer (free text or a short form)</label>
    <textarea id="answer" rows="3"></textarea>
    <button id="send" type="submit">send</button>
  </form>
</section>
<section id="ending" hidden></section>
</main>
<script src="/static/play.js"></script>
</body></html>
"""

SCRIPT = r"""(function () {
  'use strict';
  var base = location.pathname.replace(/\/+$/, '');
  var shownMessages = '', shownAsk = '', scrolledTo = '', busy = false;
  var live = !!window.EventSource;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function byId(id) { return document.getElementById(id); }

  var ROLE = {system: 'rules (system prompt)', user: 'game', assistant: 'you'};
  var STATUS = {
    'your-turn': 'Your turn.', wait: 'Waiting for the other player(s)...', starting: 'The game is starting...',
    over: 'The game is over.', error: 'The game ended in error.', stopped: 'The game was stopped.',
    lobby: 'Waiting for another participant to join...', done: 'You have finished. Thank you!'
  };

  function renderMessages(list) {
    var key = JSON.stringify(list);
    if (key === shownMessages) { return; }
    shownMessages = key;
    var box = byId('messages');
    while (box.firstChild) { box.removeChild(box.firstChild); }
    list.forEach(function (m) {
      var div = el('div', 'msg role-' + String(m.role).replace(/[^a-z]/g, ''));
      div.appendChild(el('div', 'role', ROLE[m.role] || m.role));
      div.appendChild(el('pre', 'content', m.content));
      box.appendChild(div);
    });
    var last = box.lastElementChild;
    if (last) { last.scrollIntoView({block: 'start'}); }
  }

  function send(body) {
    if (busy) { return; }
    busy = true;
    fetch(base + '/answer', {method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, body: j}; }); })
      .then(function (res) {
        busy = false;
        if (!res.ok) { showProblem(res.body.error || 'not accepted'); }
        else { byId('answer').value = ''; }
        if (!live) { refresh(); }
      })
      .catch(function (e) { busy = false; showProblem('could not reach the server: ' + e); });
  }

  function showProblem(text) {
    var p = byId('problem');
    p.textContent = text ? 'Not accepted: ' + text : '';
    p.hidden = !text;
  }

  function renderControl(control) {
    var box = byId('control');
    while (box.firstChild) { box.removeChild(box.firstChild); }
    if (!control) { return; }
    var form = el('form', 'control');
    form.appendChild(el('div', 'control-title', control.title));
    var fields = control.fields || [];
    if (fields.length === 1 && fields[0].kind === 'choice') {
      fields[0].options.forEach(function (opt) {
        var b = el('button', 'choice', opt);
        b.type = 'button';
        b.setAttribute('data-field', fields[0].name);
        b.setAttribute('data-value', opt);
        b.addEventListener('click', function () {
          var values = {}; values[fields[0].name] = opt; send({control: values});
        });
        form.appendChild(b);
      });
      box.appendChild(form);
      return;
    }
    fields.forEach(function (f) {
      var label = el('label', 'field');
      label.appendChild(el('span', 'field-label', f.label));
      var input;
      if (f.kind === 'choice') {
        input = el('select');
        input.appendChild(el('option', '', ''));
        f.options.forEach(function (o) { var op = el('option', '', o); op.value = o; input.appendChild(op); });
      } else if (f.kind === 'int') {
        input = el('input'); input.type = 'number'; input.value = '0';
        if (f.min !== null) { input.min = String(f.min); }
        if (f.max !== null) { input.max = String(f.max); }
      } else {
        input = el('input'); input.type = 'text';
      }
      input.name = f.name;
      input.setAttribute('data-field', f.name);
      label.appendChild(input);
      form.appendChild(label);
    });
    var submit = el('button', '', 'send');
    submit.type = 'submit';
    submit.id = 'send-control';
    form.appendChild(submit);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var values = {};
      fields.forEach(function (f) { values[f.name] = form.querySelector('[data-field="' + f.name + '"]').value; });
      send({control: values});
    });
    box.appendChild(form);
  }

  function render(s) {
    var title = s.game ? (s.game + (s.env ? ' (' + s.env + ')' : '') + ' - you are ' + s.agent) : 'negotiation-env';
    byId('title').textContent = title;
    byId('code').textContent = s.code ? 'participant code: ' + s.code : '';
    var st = STATUS[s.status] || s.status;
    byId('status').textContent = st;
    document.body.setAttribute('data-status', s.status);
    renderMessages(s.messages || []);
    var asking = s.status === 'your-turn';
    var ask = byId('ask');
    ask.hidden = !asking;
    var key = asking ? JSON.stringify([s.version_key || '', s.phase, s.control]) : '';
    if (key !== shownAsk) {
      shownAsk = key;
      byId('phase').textContent = s.phase || '';
      renderControl(asking ? s.control : null);
    }
    showProblem(asking ? s.problem : '');
    if (asking && key !== scrolledTo) { scrolledTo = key; ask.scrollIntoView({block: 'end'}); }
    var end = byId('ending');
    var text = s.ending || '';
    if (s.reward !== null && s.reward !== undefined) { text += ' Your total reward: ' + s.reward + '.'; }
    if (s.message) { text = s.message + (text ? ' ' + text : ''); }
    end.textContent = text;
    end.hidden = !text;
  }

  function refresh() {
    fetch(base + '/state', {credentials: 'same-origin'})
      .then(function (r) { return r.json(); }).then(render)
      .catch(function () { byId('status').textContent = 'connection lost; retrying...'; });
  }

  byId('free').addEventListener('submit', function (ev) {
    ev.preventDefault();
    send({text: byId('answer').value});
  });

  // one source of states, so that an older answer never overwrites a newer one: the event
  // stream (it sends the current state on every (re)connection), else polling
  if (live) {
    var es = new EventSource(base + '/events');
    es.onmessage = function (e) { render(JSON.parse(e.data)); };
    es.onerror = function () { byId('status').textContent = 'connection lost; reconnecting...'; };
  } else {
    refresh();
    setInterval(refresh, 1500);
  }
})();
"""

STYLE = """body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #222; }
header { display: flex; justify-content: space-between; align-items: baseline; }
h1 { font-size: 1.2rem; }
#code { font-family: monospace; }
.status { padding: .5rem .8rem; background: #eef; border-radius: 4px; margin-bottom: .8rem; }
body[data-status="your-turn"] .status { background: #dfd; font-weight: bold; }
.msg { border-left: 4px solid #ccc; padding: .2rem .8rem; margin: .6rem 0; }
.msg.role-system { border-color: #999; background: #f6f6f6; }
.msg.role-assistant { border-color: #4a4; }
.msg.role-user { border-color: #48c; }
.role { font-size: .8rem; color: #666; text-transform: uppercase; }
pre.content { white-space: pre-wrap; word-wrap: break-word; font-family: inherit; margin: .2rem 0; }
#ask { border-top: 2px solid #4a4; padding: .6rem 0; }
#phase { font-weight: bold; margin-bottom: .4rem; }
.problem { color: #a00; margin: .4rem 0; }
form.control { margin: .4rem 0; display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; }
.control-title { width: 100%; font-size: .9rem; color: #444; }
label.field { display: flex; flex-direction: column; font-size: .85rem; }
label.field input[type=number] { width: 5rem; }
button { padding: .4rem 1rem; font-size: 1rem; cursor: pointer; }
button.choice { min-width: 4rem; }
textarea { width: 100%; box-sizing: border-box; font: inherit; }
#ending { padding: .6rem .8rem; background: #ffd; border-radius: 4px; margin-top: 1rem; }
.consent { white-space: pre-wrap; border: 1px solid #ccc; padding: 1rem; background: #fafafa; }
"""


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<link rel="stylesheet" href="/static/play.css"></head><body>{body}</body></html>\n')


def landing_page(title: str, consent: str, open_seats: int) -> str:
    """The study's first page: its consent text and the button that records consent."""
    if open_seats <= 0:
        return message_page(title, "This study has no open places left. Thank you for your interest.")
    body = (f"<h1>{html.escape(title)}</h1><div class=\"consent\" id=\"consent\">{html.escape(consent)}</div>"
            '<form method="post" action="/join"><p><label><input type="checkbox" name="consent" value="yes" '
            'id="agree" required> I have read the text above and I agree to take part.</label></p>'
            '<button type="submit" id="join">start</button></form>'
            "<p>You will get a participant code; no other personal data is asked or recorded.</p>")
    return _page(title, body)


def message_page(title: str, text: str) -> str:
    return _page(title, f"<h1>{html.escape(title)}</h1><p id=\"message\">{html.escape(text)}</p>")
