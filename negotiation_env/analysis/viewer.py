"""A static HTML transcript viewer for a run folder: ``negotiation-env view DIR``.

One self-contained file (inline CSS and JS, no server, no network: its
Content-Security-Policy forbids every outside request). Left: the list of games with
filters (game, condition, pairing, outcome). Right: the selected game. Navigation is by
URL fragment, so a game can be linked and opened directly:

* ``viewer.html#g12``: the 13th game of the list (0-based index);
* ``viewer.html#game=<game_id>``: by trace ``game_id`` (URL-encoded).

Per resource game, round by round: every step in order with its speech, the private
thinking and model reasoning folded away (``<details>``), decisions (purchase and runs),
refused answers with the error the agent was told (highlighted, raw answer folded), and
fallbacks; then the supply check (supply vs. both purchases per resource), rewards,
joint reward / M and one joint optimum of the scenario beside the achieved allocation.
Supply and the optimum come from the scenario the round names (the shipped pool or a
file path); where it cannot be loaded the viewer says so and shows what the outcome
holds. Per rulemaking run: the turn list with provenance (retried and fallback turns
highlighted) and the run outcome. Any other game: its steps and round outcomes as JSON.

Every piece of text from a trace (agent speech, thinking, rationales, raw answers, error
messages, labels, ids) goes through :func:`html.escape`, and the script never parses
markup (it only toggles ``hidden`` and reads ``data-*`` attributes), so agent text cannot
inject markup.
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .cells import as_dict, condition_label, lineup, outcome_tags, pairing, resource_cell
from ..storage import write_text

__all__ = ["render_html", "write_viewer", "view_run", "DEFAULT_FILE"]

DEFAULT_FILE = "viewer.html"


def esc(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _num(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return esc(v)


# --------------------------------------------------------------------------- scenarios


@functools.lru_cache(maxsize=256)
def _scenario_info(name: str) -> dict[str, Any] | None:
    """Supply, display order and one joint optimum (runs and usage) of a resource
    scenario name; None when it cannot be loaded."""
    from ..games.resource.scenario import ScenarioError, load_scenario
    from ..games.resource.solver import solve

    try:
        sc = load_scenario(name)
    except (ScenarioError, OSError, TypeError, ValueError):
        return None
    sol = solve(sc)
    usage = {}
    for agent, runs in sol.joint_allocation.items():
        use = {r: 0 for r in sc.resource_ids}
        for p in sc.projects_of(agent):
            for rid, units in p.requires:
                use[rid] += units * int(runs.get(p.name, 0))
        usage[agent] = use
    return {"supply": {r.id: r.supply for r in sc.resources}, "resources": list(sc.resource_ids),
            "opt_runs": {a: dict(r) for a, r in sol.joint_allocation.items()}, "opt_usage": usage,
            "joint_max": sol.joint_max, "n_optima": sol.n_joint_optima, "ratio": sol.ratio,
            "individual_max": dict(sol.individual_max)}


# --------------------------------------------------------------------------- pieces


def _kv_table(pairs: Sequence[tuple[str, Any]], cls: str = "meta") -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in pairs)
    return f'<table class="{cls}">{rows}</table>'


def _fold(summary: str, text: Any, cls: str) -> str:
    if text is None or text == "":
        return ""
    return f'<details class="{cls}"><summary>{esc(summary)}</summary><pre>{esc(text)}</pre></details>'


def _events(step: Mapping[str, Any]) -> str:
    out = []
    for ev in step.get("events") or []:
        if not isinstance(ev, Mapping):
            out.append(f'<div class="event">{esc(ev)}</div>')
            continue
        kind = str(ev.get("type", "event"))
        msg = ev.get("message") or ""
        extra = {k: v for k, v in ev.items() if k not in ("type", "message", "agent", "text", "turn", "round")}
        detail = f" <code>{esc(json.dumps(extra, ensure_ascii=False, sort_keys=True))}</code>" if extra else ""
        cls = "error" if kind.endswith("_error") else ("warn" if kind.endswith(
            ("_fallback", "_forfeited", "_auto_filled", "_skipped", "_warning")) else "event")
        out.append(f'<div class="{cls}"><b>{esc(kind)}</b>: {esc(msg)}{detail}</div>')
    return "".join(out)


def _alloc(d: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    if not d:
        return "nothing"
    parts = [f"{esc(names.get(k, k))} {_num(v)}" for k, v in d.items() if v]
    return ", ".join(parts) if parts else "nothing"


def _runs(d: Mapping[str, Any] | None) -> str:
    if not d:
        return "none"
    parts = [f"{esc(k)} ×{_num(v)}" for k, v in d.items() if v]
    return ", ".join(parts) if parts else "none"


def _step_head(st: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    agent = st.get("agent")
    bits = [f'<span class="agent">{esc(agent)}</span>']
    if labels.get(agent):
        bits.append(f'<span class="label">{esc(labels[agent])}</span>')
    if st.get("phase"):
        bits.append(f'<span class="phase">{esc(st["phase"])}</span>')
    if (st.get("attempt") or 1) > 1:
        bits.append(f'<span class="badge retry">attempt {esc(st["attempt"])}</span>')
    if not st.get("valid", True):
        bits.append('<span class="badge bad">refused</span>')
    if st.get("_reset_shown"):
        bits.append('<span class="badge note">context reset</span>')
    return f'<div class="head">#{esc(st.get("index"))} ' + " ".join(bits) + "</div>"


def _resource_step(st: Mapping[str, Any], labels: Mapping[str, str], names: Mapping[str, str]) -> str:
    parsed = st.get("parsed") if isinstance(st.get("parsed"), Mapping) else None
    body = [_step_head(st, labels)]
    if parsed is not None:
        if parsed.get("speech"):
            body.append(f'<p class="speech">{esc(parsed["speech"])}</p>')
        dec = parsed.get("decision")
        if isinstance(dec, Mapping):
            body.append(f'<div class="decision">decision: buys {_alloc(dec.get("purchase"), names)}; '
                        f'runs {_runs(dec.get("runs"))}</div>')
    body.append(_fold("private thinking", st.get("thinking"), "thinking"))
    body.append(_fold("model reasoning", st.get("reasoning"), "thinking"))
    body.append(_events(st))
    if not st.get("valid", True):
        body.append(_fold("raw answer", st.get("action"), "raw"))
    cls = "step " + esc(st.get("agent")) + ("" if st.get("valid", True) else " invalid")
    return f'<li class="{cls}">' + "".join(body) + "</li>"


def _supply_table(o: Mapping[str, Any], info: dict[str, Any] | None, names: Mapping[str, str],
                  agents: Sequence[str]) -> str:
    purchases = o.get("purchases") or {}
    resources = info["resources"] if info else sorted({r for p in purchases.values() for r in p})
    over = set(o.get("overdrawn_resources") or [])
    head = "".join(f"<th>{esc(a)}</th>" for a in agents)
    rows = []
    for r in resources:
        buys = [int((purchases.get(a) or {}).get(r, 0)) for a in agents]
        total = sum(buys)
        supply = info["supply"].get(r) if info else None
        bad = r in over or (supply is not None and total > supply)
        check = '<span class="badge bad">OVER</span>' if bad else '<span class="badge ok">ok</span>'
        cells = "".join(f"<td>{b}</td>" for b in buys)
        rows.append(f'<tr class="{"over" if bad else ""}"><th>{esc(names.get(r, r))} <small>({esc(r)})</small></th>'
                    f"<td>{'?' if supply is None else supply}</td>{cells}<td>{total}</td><td>{check}</td></tr>")
    note = "" if info else '<p class="note">supply unknown: the scenario could not be loaded by name</p>'
    return (f'<table class="supply"><tr><th>resource</th><th>supply</th>{head}<th>total</th><th>check</th></tr>'
            + "".join(rows) + "</table>" + note)


def _optimum_table(o: Mapping[str, Any], info: dict[str, Any] | None, names: Mapping[str, str],
                   agents: Sequence[str]) -> str:
    if info is None:
        return '<p class="note">joint optimum unavailable: the scenario could not be loaded by name</p>'
    rows = []
    rewards = o.get("rewards") or {}
    for a in agents:
        rows.append(f"<tr><th>{esc(a)}</th><td>{_runs((o.get('runs') or {}).get(a))}</td>"
                    f"<td>{_alloc((o.get('purchases') or {}).get(a), names)}</td><td>{_num(rewards.get(a))}</td>"
                    f"<td>{_runs(info['opt_runs'].get(a))}</td><td>{_alloc(info['opt_usage'].get(a), names)}</td></tr>")
    n = info["n_optima"]
    caption = f"one of {n} joint optima" if n else "a joint optimum"
    return ('<table class="optimum"><tr><th>agent</th><th>achieved runs</th><th>achieved purchase</th>'
            f'<th>reward</th><th>optimal runs ({esc(caption)})</th><th>optimal usage</th></tr>'
            + "".join(rows) + "</table>")


def _round_badge(o: Mapping[str, Any]) -> str:
    if o.get("overdraw"):
        return '<span class="badge bad">overdraw</span>'
    if o.get("optimal"):
        return '<span class="badge ok">optimal</span>'
    return '<span class="badge mid">suboptimal</span>'


def _resource_detail(t: Mapping[str, Any]) -> str:
    agents = list(t.get("agents") or [])
    labels = dict(zip(agents, lineup(t)))
    rounds = {int(r["round"]): r.get("outcome") or {} for r in t.get("rounds") or []}
    steps_by_round: dict[Any, list[Mapping[str, Any]]] = {}
    seen: set[str] = set()
    for st in t.get("steps") or []:
        # a context reset is news only after the agent's first step (shifting partners)
        st = {**st, "_reset_shown": bool(st.get("context_reset")) and st.get("agent") in seen}
        seen.add(st.get("agent"))
        steps_by_round.setdefault(st.get("round"), []).append(st)
    keys = sorted({k for k in steps_by_round if isinstance(k, int)} | set(rounds))
    out = []
    for k in keys:
        o = rounds.get(k)
        names = dict((o or {}).get("resource_names") or {})
        head = f"Round {k}"
        if o is not None:
            head += f" · {esc(o.get('scenario'))} " + _round_badge(o)
        else:
            head += ' <span class="badge bad">not resolved</span>'
        steps = "".join(_resource_step(st, labels, names) for st in steps_by_round.get(k, []))
        parts = [f'<div class="round" data-round="{k}"><h3>{head}</h3><ol class="steps">{steps}</ol>']
        if o is not None:
            info = _scenario_info(str(o.get("scenario"))) if o.get("scenario") else None
            rw = o.get("rewards") or {}
            summary = [("joint reward / M", f"{_num(o.get('joint_reward'))} / {_num(o.get('joint_max'))}"),
                       ("efficiency", f"{100 * float(o.get('efficiency') or 0):.1f}%"),
                       ("rewards", ", ".join(f"{esc(a)} {_num(rw.get(a))}" for a in agents))]
            if o.get("fallback_agents"):
                summary.append(("fallback decisions", '<span class="badge bad">'
                                + esc(", ".join(o["fallback_agents"])) + "</span>"))
            parts.append('<div class="outcome"><h4>Supply check</h4>' + _supply_table(o, info, names, agents)
                         + "<h4>Result</h4>" + _kv_table(summary) + "<h4>Achieved vs. joint optimum</h4>"
                         + _optimum_table(o, info, names, agents) + "</div>")
        parts.append("</div>")
        out.append("".join(parts))
    other = [st for k, v in steps_by_round.items() if not isinstance(k, int) for st in v]
    if other:
        out.append('<div class="round"><h3>Other steps</h3><ol class="steps">'
                   + "".join(_resource_step(st, labels, {}) for st in other) + "</ol></div>")
    return "".join(out)


def _rulemaking_detail(t: Mapping[str, Any]) -> str:
    labels = dict(zip(t.get("agents") or [], lineup(t)))
    rows = []
    for st in t.get("steps") or []:
        p = st.get("parsed") if isinstance(st.get("parsed"), Mapping) else None
        if p is not None and st.get("valid", True):
            prov = str(p.get("provenance", ""))
            cls = "" if prov == "genuine" else ("fallback" if prov == "fallback" else "retried")
            rows.append(f'<tr class="turn {cls}"><td>{esc(p.get("turn"))}</td><td>{esc(st.get("agent"))}'
                        f' <small>{esc(labels.get(st.get("agent")))}</small></td><td><b>{esc(p.get("move"))}</b></td>'
                        f'<td>{esc(p.get("issue") or "")}</td><td class="speech">{esc(p.get("rationale"))}'
                        f'{_events(st)}</td><td><span class="badge prov-{esc(prov)}">{esc(prov)}</span></td></tr>')
        else:
            rows.append(f'<tr class="turn invalid"><td></td><td>{esc(st.get("agent"))}</td>'
                        f'<td colspan="3">{_events(st)}{_fold("raw answer", st.get("action"), "raw")}</td>'
                        f'<td><span class="badge bad">refused (attempt {esc(st.get("attempt"))})</span></td></tr>')
    turns = ('<table class="turns"><tr><th>turn</th><th>party</th><th>move</th><th>issue</th><th>rationale</th>'
             "<th>provenance</th></tr>" + "".join(rows) + "</table>")
    rounds = t.get("rounds") or []
    if not rounds:
        return turns + '<p class="note">the run has no outcome (not finished)</p>'
    o = rounds[0].get("outcome") or {}
    pairs = [("label", f'<b>{esc(o.get("label"))}</b>'), ("worst-case recode", esc(o.get("worst_case_label"))),
             ("certified", esc(o.get("certified"))), ("turns", esc(o.get("turns"))),
             ("entropy", f"{float(o.get('entropy') or 0):.3f}"), ("horizon exhausted", esc(o.get("horizon_exhausted"))),
             ("concession arc", esc(o.get("concession_arc"))),
             ("provenance", esc(json.dumps(o.get("provenance"), sort_keys=True))),
             ("moves", esc(json.dumps(o.get("move_counts"), sort_keys=True))),
             ("exited", esc(", ".join(o.get("exited") or []) or "none"))]
    return turns + '<div class="outcome"><h4>Run outcome</h4>' + _kv_table(pairs) + "</div>"


def _generic_detail(t: Mapping[str, Any]) -> str:
    items = []
    for st in t.get("steps") or []:
        items.append(f'<li class="step{"" if st.get("valid", True) else " invalid"}">'
                     + _step_head(st, dict(zip(t.get("agents") or [], lineup(t))))
                     + f'<pre>{esc(st.get("action"))}</pre>'
                     + _fold("parsed", json.dumps(st.get("parsed"), ensure_ascii=False, indent=1), "raw")
                     + _fold("private thinking", st.get("thinking"), "thinking") + _events(st) + "</li>")
    rounds = "".join(f'<div class="outcome"><h4>Round {esc(r.get("round"))}</h4><pre>'
                     f'{esc(json.dumps(r.get("outcome"), ensure_ascii=False, indent=1, sort_keys=True))}</pre></div>'
                     for r in t.get("rounds") or [])
    return f'<ol class="steps">{"".join(items)}</ol>{rounds}'


def _game_section(i: int, t: Mapping[str, Any]) -> str:
    game = t.get("game")
    agents = list(t.get("agents") or [])
    seats = "<br>".join(f"{esc(a)}: {esc(lab)}" for a, lab in zip(agents, lineup(t)))
    meta = [("game", esc(game)), ("condition", esc(condition_label(t))), ("seats", seats),
            ("status", f'<span class="badge {"ok" if t.get("status") == "complete" else "bad"}">'
                       f'{esc(t.get("status"))}</span>'),
            ("env seed", esc((t.get("seeds") or {}).get("env"))),
            ("returns", esc(", ".join(f"{a} {v:g}" if isinstance(v, (int, float)) else f"{a} {v}"
                                      for a, v in (t.get("returns") or {}).items())))]
    if game == "resource":
        c = resource_cell(t)
        meta.insert(1, ("scenario", f"{esc(t.get('scenario'))} (M/C {esc(c.mc_text)})"))
    refused = sum(not s.get("valid", True) for s in t.get("steps") or [])
    if refused:
        meta.append(("refused answers", f'<span class="badge bad">{refused}</span>'))
    err = f'<pre class="error">{esc(t.get("error"))}</pre>' if t.get("error") else ""
    if game == "resource":
        body = _resource_detail(t)
    elif game == "rulemaking":
        body = _rulemaking_detail(t)
    else:
        body = _generic_detail(t)
    return (f'<section class="game" id="sec-g{i}" data-key="g{i}" data-game-id="{esc(t.get("game_id"))}" hidden>'
            f'<p><a href="#" class="back">← all games</a></p><h2>{esc(t.get("game_id"))}</h2>'
            f"{_kv_table(meta)}{err}<div class=\"transcript\">{body}</div></section>")


def _list_row(i: int, t: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    attrs = {"game": str(t.get("game")), "condition": condition_label(t), "pairing": pairing(t),
             "outcome": " ".join(outcome_tags(t))}
    data = " ".join(f'data-{k}="{esc(v)}"' for k, v in attrs.items())
    tags = " ".join(f'<span class="tag t-{esc(x)}">{esc(x)}</span>' for x in outcome_tags(t))
    row = (f'<tr class="row" id="row-g{i}" {data}><td>{i}</td><td><a class="open" href="#g{i}">'
           f'{esc(t.get("game_id"))}</a></td><td>{esc(attrs["game"])}</td><td>{esc(attrs["condition"])}</td>'
           f'<td>{esc(attrs["pairing"])}</td><td>{tags}</td></tr>')
    return row, attrs


_CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{padding:10px 16px;background:#243b53;color:#fff}header h1{font-size:18px;margin:0}
#wrap{display:flex;align-items:flex-start}#list{width:42%;min-width:340px;padding:10px;border-right:1px solid #ddd;
max-height:calc(100vh - 50px);overflow:auto;position:sticky;top:0}#detail{flex:1;padding:10px 18px;min-width:0}
.filters{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:8px}.filters label{font-size:12px}
select{max-width:190px}table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;padding:3px 6px;
vertical-align:top;text-align:left}table.games{width:100%}tr.row:hover{background:#eef4fb}tr.row.current{background:#dbe9f8}
.tag,.badge{white-space:nowrap;display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;background:#e4e7eb;margin-right:2px}
.t-overdraw,.badge.bad{background:#f8d0d0;color:#8a1c1c}.t-optimal,.badge.ok{background:#d2f2d9;color:#12622b}
.t-suboptimal,.badge.mid{background:#fdebc8;color:#7a4e00}.t-error,.t-retry{background:#f8d0d0}
.badge.retry{background:#fdebc8}.badge.note{background:#dde7f5}
ol.steps{list-style:none;padding:0}li.step{border-left:4px solid #9fb3c8;background:#fff;margin:6px 0;padding:4px 8px}
li.step.agent_b{border-left-color:#d9a441;margin-left:28px}li.step.invalid{background:#fff0f0;border-left-color:#c62828}
.head{font-size:12px;color:#52606d}.agent{font-weight:600;color:#102a43}.label{color:#627d98}.phase{font-style:italic}
.speech{margin:3px 0;white-space:pre-wrap}.decision{font-family:ui-monospace,monospace;font-size:12px;color:#0b4f6c}
details.thinking summary{color:#7b8794;font-size:12px;cursor:pointer}details pre,pre{white-space:pre-wrap;
background:#f4f5f7;padding:6px;margin:3px 0;font-size:12px}.error{color:#8a1c1c;background:#fde4e4;padding:2px 6px;margin:2px 0}
.warn{color:#7a4e00;background:#fff4d6;padding:2px 6px;margin:2px 0}.event{color:#52606d;font-size:12px}
.round{border:1px solid #d9e2ec;background:#fdfdfd;padding:6px 10px;margin:10px 0;border-radius:6px}
.round h3{margin:4px 0;font-size:15px}.outcome h4{margin:8px 0 2px}tr.over{background:#fde4e4}
tr.turn.fallback{background:#fde4e4}tr.turn.retried{background:#fff4d6}tr.turn.invalid{background:#fff0f0}
.note{color:#7b8794;font-style:italic}table.games td{overflow-wrap:anywhere}#empty{color:#7b8794}
"""

_JS = """
(function(){
  var sections = document.querySelectorAll('section.game');
  function target(){
    var h = location.hash.slice(1);
    try { h = decodeURIComponent(h); } catch (e) { return null; }
    if (!h) return null;
    if (h.indexOf('game=') === 0) {
      var id = h.slice(5);
      for (var i = 0; i < sections.length; i++) if (sections[i].getAttribute('data-game-id') === id) return sections[i];
      return null;
    }
    // sections are "sec-" + key, so the browser does not jump to them on its own
    var el = document.getElementById('sec-' + h);
    return el && el.classList.contains('game') ? el : null;
  }
  function show(){
    var t = target();
    for (var i = 0; i < sections.length; i++) sections[i].hidden = sections[i] !== t;
    document.getElementById('empty').hidden = !!t;
    var rows = document.querySelectorAll('tr.row');
    for (var j = 0; j < rows.length; j++) rows[j].classList.toggle('current', !!t && rows[j].id === 'row-' + t.getAttribute('data-key'));
    document.body.setAttribute('data-shown', t ? t.getAttribute('data-key') : '');
    if (t) window.scrollTo(0, 0);
  }
  function filter(){
    var sel = document.querySelectorAll('.filters select'), n = 0;
    var rows = document.querySelectorAll('tr.row');
    for (var j = 0; j < rows.length; j++) {
      var ok = true;
      for (var k = 0; k < sel.length; k++) {
        var key = sel[k].getAttribute('data-key'), v = sel[k].value;
        if (!v) continue;
        var have = rows[j].getAttribute('data-' + key) || '';
        if (key === 'outcome' ? have.split(' ').indexOf(v) < 0 : have !== v) ok = false;
      }
      rows[j].hidden = !ok;
      if (ok) n++;
    }
    document.getElementById('count').textContent = n + ' of ' + rows.length + ' games';
  }
  var sels = document.querySelectorAll('.filters select');
  for (var k = 0; k < sels.length; k++) sels[k].addEventListener('change', filter);
  window.addEventListener('hashchange', show);
  filter();
  show();
})();
"""


def render_html(traces: Iterable[Any], *, title: str = "negotiation_env transcripts",
                problems: Sequence[Any] = ()) -> str:
    """The viewer page for ``traces`` (GameTrace objects or dicts) as one HTML string."""
    ts = [as_dict(t) for t in traces]
    rows, attrs = [], []
    for i, t in enumerate(ts):
        r, a = _list_row(i, t)
        rows.append(r)
        attrs.append(a)
    filters = []
    for key, label in (("game", "game"), ("condition", "condition"), ("pairing", "pairing"), ("outcome", "outcome")):
        values = sorted({v for a in attrs for v in (a[key].split(" ") if key == "outcome" else [a[key]]) if v})
        opts = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
        filters.append(f'<label>{esc(label)} <select data-key="{key}" id="f-{key}"><option value="">all</option>'
                       f"{opts}</select></label>")
    notes = "".join(f'<p class="warn">skipped trace line: {esc(p)}</p>' for p in problems)
    sections = "".join(_game_section(i, t) for i, t in enumerate(ts))
    csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{esc(title)}</h1></header><div id=\"wrap\"><nav id=\"list\">"
        f'<div class="filters">{"".join(filters)}</div><p id="count">{len(ts)} games</p>{notes}'
        '<table class="games"><tr><th>#</th><th>game id</th><th>game</th><th>condition</th><th>pairing</th>'
        f'<th>outcome</th></tr>{"".join(rows)}</table></nav>'
        f'<main id="detail"><p id="empty">Select a game on the left.</p>{sections}</main></div>'
        f"<script>{_JS}</script></body></html>\n"
    )


def write_viewer(traces: Iterable[Any], out: str | Path, *, title: str = "negotiation_env transcripts",
                 problems: Sequence[Any] = ()) -> Path:
    p = Path(out)
    p.parent.mkdir(parents=True, exist_ok=True)
    write_text(p, render_html(traces, title=title, problems=problems))  # whole under its name, or no file
    return p


def view_run(path: str | Path, out: str | Path | None = None, *, runs: Any = None,
             problems: list[Any] | None = None) -> tuple[Path, int]:
    """Read the traces of ``path`` (a run folder or a ``.jsonl`` file) and write the
    viewer to ``out`` (default ``DIR/viewer.html``); returns (file, games). One run is
    read unless ``runs`` says otherwise (see :func:`negotiation_env.traces.iter_traces`);
    the lines dropped are listed in the page and appended to ``problems`` if given."""
    from ..traces import read_traces

    src = Path(path)
    res = read_traces(src, runs=runs)
    if problems is not None:
        problems.extend(res.problems)
    if out is None:
        out = (src if src.is_dir() else src.parent) / DEFAULT_FILE
    title = f"negotiation_env transcripts: {src.resolve().name}"
    return write_viewer(res.traces, out, title=title, problems=res.problems), len(res.traces)
