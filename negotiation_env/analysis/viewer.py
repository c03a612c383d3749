"""A static HTML transcript viewer for a run folder: ``negotiation-env view DIR``.

One self-contained file (inline CSS and JS, no server, no network: its
Content-Security-Policy forbids every outside request). Left: the list of games with
filters (game, condition, pairing, outcome) and a search over the transcripts. Right: the
run summary until a game is chosen, then the selected game. Navigation is by URL
fragment, so a game can be linked and opened directly:

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

The list. Each game id is shortened (:func:`short_ids`: the parts of a runner key
``BLOCK|CONDITION|SET|LINEUP|REP`` that differ between the games of one game kind, and
the repetition, cut in the middle past :data:`SHORT_ID_MAX` characters) with the full id
as the link's ``title``; a cell never wraps (it ends in an ellipsis, its full text in its
``title``). The seats column is the game's own seating, seat by seat in ``agents`` order
from its trace's ``policies`` (:func:`seats_text`), so a game whose seats were swapped
shows its first seat first; the pairing filter groups both seatings of a pairing.

Search. Each row carries the text of its transcript (:func:`search_text`: speech,
rationales, moves and messages, decisions, private thinking and model reasoning, the
messages of events, and the raw answer where the step has no parsed form or was
refused); the box keeps the rows whose text contains the query (case-insensitive, plain
substring) and says how many games contain it.

Summary. :func:`run_summary` groups the games by game and seating (as the runner's
"by pairing (seat order)" table) and gives per group the counts (games, complete,
error, truncated, degraded), the mean return per seat, the run summary's own measures
(:func:`negotiation_env.runner.summary.figures`) and the game's headline measure:
resource efficiency (joint reward / M over the kept rounds), matrix payoff per agent per
round (complete-case dyads, as the report), rulemaking outcome counts. The panel shows
them as a table and an inline SVG bar chart per game, and carries the groups as JSON in
its ``data-summary`` attribute.

Leaderboard. A tab beside the run summary (``viewer.html#leaderboard``) holds the
boards of :func:`negotiation_env.analysis.leaderboard.leaderboard` with the
``leaderboard`` command's defaults, one sortable table per game (a header click sorts by
that column, a second click reverses it) with its notes; each policy links to
``#policy=LABEL&game=GAME``, which filters the list to that policy's games of that game
(the list's policy filter: a game matches when the policy holds any of its seats).

Every piece of text from a trace (agent speech, thinking, rationales, raw answers, error
messages, labels, ids) goes through :func:`html.escape`, and the script never parses
markup (it toggles ``hidden``, reads ``data-*`` attributes and the search box, and writes
counts through ``textContent``), so agent text cannot inject markup.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence
from urllib.parse import quote

from .cells import as_dict, condition_label, lineup, outcome_tags, pairing
from .hooks import analysis_of
from ..storage import write_text

__all__ = ["render_html", "write_viewer", "view_run", "DEFAULT_FILE", "short_ids", "seats_text", "search_text",
           "run_summary", "SHORT_ID_MAX", "game_section", "VIEWER_CSS"]

DEFAULT_FILE = "viewer.html"

#: the longest shortened game id; a longer one keeps its start and end around an ellipsis
SHORT_ID_MAX = 28


def esc(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _num(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return esc(v)


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


def game_section(i: int, t: Mapping[str, Any]) -> str:
    """One game's section of the viewer: its header, seats, outcome and round-by-round
    transcript, every agent string escaped (the page that watches a run shows the same)."""
    game = t.get("game")
    agents = list(t.get("agents") or [])
    seats = "<br>".join(f"{esc(a)}: {esc(lab)}" for a, lab in zip(agents, lineup(t)))
    meta = [("game", esc(game)), ("condition", esc(condition_label(t))), ("seats", seats),
            ("status", f'<span class="badge {"ok" if t.get("status") == "complete" else "bad"}">'
                       f'{esc(t.get("status"))}</span>'),
            ("env seed", esc((t.get("seeds") or {}).get("env"))),
            ("returns", esc(", ".join(f"{a} {v:g}" if isinstance(v, (int, float)) else f"{a} {v}"
                                      for a, v in (t.get("returns") or {}).items())))]
    hooks = analysis_of(game)
    meta[1:1] = hooks.meta_rows(t)
    refused = sum(not s.get("valid", True) for s in t.get("steps") or [])
    if refused:
        meta.append(("refused answers", f'<span class="badge bad">{refused}</span>'))
    err = f'<pre class="error">{esc(t.get("error"))}</pre>' if t.get("error") else ""
    body = hooks.detail_html(t)
    if body is None:
        body = _generic_detail(t)
    return (f'<section class="game" id="sec-g{i}" data-key="g{i}" data-game-id="{esc(t.get("game_id"))}" hidden>'
            f'<p><a href="#" class="back">← all games</a></p><h2>{esc(t.get("game_id"))}</h2>'
            f"{_kv_table(meta)}{err}<div class=\"transcript\">{body}</div></section>")


# --------------------------------------------------------------------------- the list


def middle_ellipsis(text: str, limit: int = SHORT_ID_MAX) -> str:
    """``text`` if it has at most ``limit`` characters, else its start and end around ``…``."""
    if len(text) <= limit:
        return text
    head = limit // 2
    return text[:head] + "…" + text[len(text) - (limit - head - 1):]


def _strip_shared_kind(values: Sequence[str]) -> list[str]:
    """Lineup parts without the policy kind their labels all share (``scripted:``)."""
    tokens = [x for v in values for x in v.split("+")]
    kinds = {x.split(":", 1)[0] if ":" in x else None for x in tokens}
    if len(kinds) != 1 or None in kinds:
        return list(values)
    cut = len(next(iter(kinds))) + 1
    return ["+".join(x[cut:] for x in v.split("+")) for v in values]


def _same_seats(value: str) -> str:
    """``a+a+a`` as ``a×3`` (a lineup of more than two seats held by one policy)."""
    tokens = value.split("+")
    return f"{tokens[0]}×{len(tokens)}" if len(tokens) > 2 and len(set(tokens)) == 1 else value


def _factor_values(values: Sequence[str]) -> list[str]:
    """Condition parts as their factor values, without the names and without the values
    that are the same in every part (``stability=stable,rotation=fixed`` gives
    ``stable`` when only the stability varies)."""
    items = [[x.split("=", 1)[-1] for x in v.split(",")] for v in values]
    if len({len(it) for it in items}) != 1:
        return [",".join(it) for it in items]
    vary = [j for j in range(len(items[0])) if len({it[j] for it in items}) > 1] or list(range(len(items[0])))
    return [",".join(it[j] for j in vary) for it in items]


def short_ids(traces: Sequence[Mapping[str, Any]]) -> list[str]:
    """A short form of each trace's ``game_id`` for the list. Ids are split on ``|`` (the
    runner's ``BLOCK|CONDITION|SET|LINEUP|REP``) and grouped by game and part count. Of
    the parts before the last, those that differ between the ids of the group stay (the
    part before the last when none does, e.g. an id alone in its group); the last part,
    the repetition, always stays. A part that stays is written compactly: the factor
    values that differ, without their names (``stability=stable,rotation=fixed`` gives
    ``stable`` when only the stability differs), lineups without the policy kind shared
    by every label of the group (``scripted:``) and one label in every seat as ``label×N``.
    An id of one or two parts is kept whole. Each result is cut in the middle past
    :data:`SHORT_ID_MAX` characters."""
    parts = [str(t.get("game_id") if t.get("game_id") is not None else "").split("|") for t in traces]
    groups: dict[tuple[str, int], list[int]] = {}
    for i, (t, ps) in enumerate(zip(traces, parts)):
        groups.setdefault((str(t.get("game")), len(ps)), []).append(i)
    out = [""] * len(parts)
    for (_game, n), idx in groups.items():
        if n <= 2:
            for i in idx:
                out[i] = middle_ellipsis("|".join(parts[i]))
            continue
        keep = [k for k in range(n - 1) if len({parts[i][k] for i in idx}) > 1] or [n - 2]
        cols = []
        for k in keep:
            values = _strip_shared_kind(_factor_values([parts[i][k] for i in idx]))
            cols.append([_same_seats(v) for v in values])
        for j, i in enumerate(idx):
            out[i] = middle_ellipsis("|".join([c[j] for c in cols] + [parts[i][n - 1]]))
    return out


def seats_text(trace: Mapping[str, Any]) -> str:
    """Who sat where, seat by seat in the trace's ``agents`` order (its ``policies``):
    ``"tiny × scripted:oracle"`` when ``tiny`` holds the first seat; for more than two
    seats held by one policy, ``"LABEL ×N seats"``."""
    labels = lineup(trace)
    if len(labels) > 2 and len(set(labels)) == 1:
        return f"{labels[0]} ×{len(labels)} seats"
    return " × ".join(labels)


def _plain_alloc(d: Any) -> str:
    if not isinstance(d, Mapping):
        return ""
    return " ".join(f"{k} {v}" for k, v in d.items() if v)


#: the parsed fields of a step that hold what an agent said or chose, in text
_SAID = ("speech", "message", "rationale", "move", "issue", "text")


def search_text(trace: Mapping[str, Any]) -> str:
    """What the search box searches in one game: per step its speech, messages,
    rationales and moves (parsed fields), the resource decision (purchase and runs),
    private thinking and model reasoning, the messages of its events, and the raw answer
    where the step has no parsed form (free-text games) or was refused; then the matrix
    rounds' messages and the game's error. One line per piece."""
    out: list[str] = []

    def add(x: Any) -> None:
        if isinstance(x, str) and x.strip():
            out.append(x)

    for st in trace.get("steps") or []:
        if not isinstance(st, Mapping):
            continue
        parsed = st.get("parsed") if isinstance(st.get("parsed"), Mapping) else None
        if parsed is not None:
            for key in _SAID:
                add(parsed.get(key))
            dec = parsed.get("decision")
            if isinstance(dec, Mapping):
                add(" ".join(x for x in (_plain_alloc(dec.get("purchase")), _plain_alloc(dec.get("runs"))) if x))
        if parsed is None or not st.get("valid", True):
            add(st.get("action") if isinstance(st.get("action"), str) else None)
        add(st.get("thinking"))
        add(st.get("reasoning"))
        for ev in st.get("events") or []:
            if isinstance(ev, Mapping):
                add(ev.get("message"))
    for x in analysis_of(trace.get("game")).search_extra(trace):
        add(x)
    add(trace.get("error"))
    return "\n".join(out)


def _filter_values(key: str, value: str) -> list[str]:
    """The filter values a row's ``data-KEY`` holds: outcome tags are space-separated,
    the policies a JSON list (a label may hold any character), the rest one value."""
    if key == "outcome":
        return value.split(" ")
    if key == "policy":
        return json.loads(value)
    return [value]


def _cell(text: str, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return f'<td{c} title="{esc(text)}">{esc(text)}</td>'


def _list_row(i: int, t: Mapping[str, Any], short: str) -> tuple[str, dict[str, str]]:
    attrs = {"game": str(t.get("game")), "condition": condition_label(t), "pairing": pairing(t),
             "seats": seats_text(t), "outcome": " ".join(outcome_tags(t)),
             "policy": json.dumps(sorted(set(lineup(t))), ensure_ascii=False)}
    data = " ".join(f'data-{k}="{esc(v)}"' for k, v in attrs.items())
    tags = " ".join(f'<span class="tag t-{esc(x)}">{esc(x)}</span>' for x in outcome_tags(t))
    gid = "" if t.get("game_id") is None else str(t.get("game_id"))
    row = (f'<tr class="row" id="row-g{i}" {data} data-text="{esc(search_text(t))}"><td>{i}</td>'
           f'<td class="id"><a class="open" href="#g{i}" title="{esc(gid)}">{esc(short)}</a></td>'
           f'{_cell(attrs["game"])}{_cell(attrs["condition"])}{_cell(attrs["seats"], "seats")}'
           f'<td class="tags">{tags}</td></tr>')
    return row, attrs


# --------------------------------------------------------------------------- the run summary


def _headline(game: str, group: Sequence[Mapping[str, Any]], figs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game's headline measure over one group's games (:meth:`~.hooks.GameAnalysis.headline`;
    None for a game without one)."""
    return analysis_of(game).headline(group, figs)


def run_summary(traces: Iterable[Any]) -> list[dict[str, Any]]:
    """The run's figures per game and seating, in the order the games first appear: one
    dict per group with ``game``, ``seats`` (labels by seat), ``seats_text``, ``agents``,
    ``games``, ``complete``, ``error``, ``truncated``, ``degraded``, ``mean_return`` (per
    agent: its returns summed over the group's games / games, as the runner's summary),
    ``figures`` (:func:`negotiation_env.runner.summary.figures` of the summed
    :func:`~negotiation_env.runner.summary.game_measures`) and ``headline``."""
    from ..runner.summary import add_measures, figures, game_measures

    groups: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for t in traces:
        d = as_dict(t)
        groups.setdefault((str(d.get("game")), tuple(lineup(d))), []).append(d)
    out = []
    for (game, seats), ts in groups.items():
        agents: list[str] = []
        for d in ts:
            agents += [str(a) for a in d.get("agents") or [] if str(a) not in agents]
        returns: dict[str, float] = {}
        measures: dict[str, float] = {}
        for d in ts:
            for a, r in (d.get("returns") or {}).items():
                if isinstance(r, (int, float)) and not isinstance(r, bool) and math.isfinite(r):
                    returns[str(a)] = returns.get(str(a), 0.0) + float(r)
            add_measures(measures, game_measures(d))
        figs = figures(game, measures)
        n = len(ts)
        out.append({
            "game": game, "seats": list(seats), "seats_text": seats_text(ts[0]), "agents": agents, "games": n,
            "complete": sum(d.get("status") == "complete" for d in ts),
            "error": sum(d.get("status") == "error" for d in ts),
            "truncated": sum(d.get("status") == "truncated" for d in ts),
            "degraded": sum(bool(((d.get("meta") or {}).get("model_calls") or {}).get("degraded")) for d in ts),
            "mean_return": {a: returns.get(a, 0.0) / n for a in agents},
            "figures": figs, "headline": _headline(game, ts, figs)})
    return out


def _finite(x: Any) -> Any:
    """``x`` with every non-finite float replaced by None (the page's JSON has no NaN)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, Mapping):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


#: a stacked bar's colour for a part the game's chart legend does not name
_OTHER_COLOUR = "#9fb3c8"


def _headline_text(h: Mapping[str, Any] | None, kind: str) -> str:
    """A headline value as the summary shows it: counts joined by ``/``, a fraction
    (``kind == "fraction"``) as a percentage, any other number with two decimals."""
    if h is None:
        return "-"
    v = h.get("value")
    if isinstance(v, Mapping):
        return " / ".join(f"{int(x)}" for x in v.values())
    if v is None:
        return "-"
    return f"{100 * v:.1f}%" if kind == "fraction" else f"{v:.2f}"


def _chart(game: str, rows: Sequence[Mapping[str, Any]]) -> str:
    """A horizontal bar per seating of the game's headline measure, as inline SVG, read as
    the game's hooks say (:attr:`~.hooks.GameAnalysis.chart_kind`): a fraction on 0-100 %
    (resource efficiency), a value relative to the largest (matrix payoff per round), or
    counts stacked as shares (rulemaking outcomes, coloured by the game's
    :attr:`~.hooks.GameAnalysis.chart_legend`, shown under the bars). Labels are text
    nodes (escaped), the full seating in a ``<title>``."""
    hooks = analysis_of(game)
    if not rows or rows[0].get("headline") is None:
        return ""
    label_w, bar_w, row_h = 250, 300, 22
    legend = 22 if hooks.chart_legend else 0
    width, height = label_w + bar_w + 70, row_h * len(rows) + 8 + legend
    caption = hooks.chart_caption
    parts = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(game + ": " + caption)}">'
             f"<title>{esc(game + ': ' + caption)}</title>"]
    values = [r["headline"]["value"] for r in rows]
    top = max((v for v in values if isinstance(v, (int, float))), default=0) or 1
    for k, r in enumerate(rows):
        y = 4 + k * row_h
        parts.append(f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end" font-size="12">'
                     f"<title>{esc(r['seats_text'])}</title>{esc(middle_ellipsis(r['seats_text'], 38))}</text>")
        v = r["headline"]["value"]
        if isinstance(v, Mapping):
            total = sum(v.values())
            x = float(label_w)
            for label, count in v.items():
                w = bar_w * count / total if total else 0
                if w:
                    parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" '
                                 f'fill="{hooks.chart_legend.get(label, _OTHER_COLOUR)}"><title>{esc(label)}: {count}'
                                 "</title></rect>")
                x += w
            text, end = (f"{total} run{'' if total == 1 else 's'}" if total else "no kept runs"), label_w + bar_w
        elif v is None:
            text, end = "no kept games", label_w
        else:
            frac = v if hooks.chart_kind == "fraction" else v / top
            w = bar_w * max(0.0, min(1.0, float(frac)))
            parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" fill="#4c7fb0"/>')
            text, end = _headline_text(r["headline"], hooks.chart_kind), label_w + w
        parts.append(f'<text x="{end + 4:.1f}" y="{y + 15}" font-size="12">{esc(text)}</text>')
    if legend:
        x, y = label_w, height - 6
        for label, colour in hooks.chart_legend.items():
            parts.append(f'<rect x="{x}" y="{y - 10}" width="10" height="10" fill="{colour}"/>'
                         f'<text x="{x + 14}" y="{y}" font-size="12">{esc(label)}</text>')
            x += 24 + 7 * len(label)
    return "".join(parts) + "</svg>"


def _summary_panel(ts: Sequence[Mapping[str, Any]]) -> str:
    groups = run_summary(ts)
    status = {k: sum(g[k] for g in groups) for k in ("complete", "error", "truncated", "degraded")}
    head = (f"<p>{len(ts)} games: {status['complete']} complete, {status['error']} ended in error, "
            f"{status['truncated']} cut by the step cap, {status['degraded']} degraded (a model call ran out of "
            "retries).</p>")
    body = []
    for game in dict.fromkeys(g["game"] for g in groups):
        rows = [g for g in groups if g["game"] == game]
        h = rows[0]["headline"]
        hooks = analysis_of(game)
        hname = hooks.headline_label or str((h or {}).get("measure") or "")
        # a column per seat for up to three seats (as the runner's summary), else their mean
        agents = list(dict.fromkeys(a for g in rows for a in g["agents"]))
        per_seat = 0 < len(agents) <= 3
        ret_heads = "".join(f"<th>return {esc(a)}</th>" for a in agents) if per_seat else "<th>mean return</th>"
        trs = []
        for g in rows:
            mr = g["mean_return"]
            if per_seat:
                rets = "".join(f"<td>{mr[a]:.2f}</td>" if a in mr else "<td>-</td>" for a in agents)
            else:
                rets = f"<td>{sum(mr.values()) / len(mr):.2f}</td>" if mr else "<td>-</td>"
            trs.append(f'<tr><td class="seats" title="{esc(g["seats_text"])}">{esc(g["seats_text"])}</td>'
                       f'<td>{g["games"]}</td><td>{g["complete"]}</td><td>{g["error"]}</td><td>{g["truncated"]}</td>'
                       f'<td>{g["degraded"]}</td>{rets}'
                       + (f"<td>{esc(_headline_text(g['headline'], hooks.chart_kind))}</td>" if h else "") + "</tr>")
        note = hooks.summary_note
        body.append(f'<div class="sgame" data-game="{esc(game)}"><h3>{esc(game)}</h3>{_chart(game, rows)}'
                    '<table class="summary"><tr><th>seats (first seat first)</th><th>games</th><th>complete</th>'
                    f"<th>error</th><th>trunc.</th><th>degraded</th>{ret_heads}"
                    + (f"<th>{esc(hname)}</th>" if h else "") + "</tr>" + "".join(trs) + "</table>"
                    + (f'<p class="note">{esc(note)}</p>' if note else "") + "</div>")
    data = json.dumps(_finite(groups), ensure_ascii=False, sort_keys=True, allow_nan=False)
    return (f'<div id="summary" data-summary="{esc(data)}"><h2>Run summary</h2>{head}{"".join(body)}</div>')


def _leaderboard_panel(boards: Sequence[Any], level: float, problem: str | None = None) -> str:
    """The leaderboard tab: per game, the board of :mod:`.leaderboard` as a sortable
    table (a header click sorts by its column; each cell's sort key is its ``data-v``),
    each policy linking to its games in the list (``#policy=LABEL&game=GAME``), and the
    board's notes."""
    from .leaderboard import board_table
    from .tables import _fmt

    parts = [f'<h2>Leaderboard</h2><p class="note">Bradley–Terry ratings on the Elo scale (mean 1500), '
             f"{100 * level:g}% bootstrap intervals that resample within pairings; the same boards as "
             "<code>negotiation-env leaderboard</code> with its defaults. Click a header to sort; click a policy to "
             "list its games.</p>"]
    if problem:
        parts.append(f'<p class="warn">{esc(problem)}</p>')
    if not boards and not problem:
        parts.append('<p class="note">No games to rate.</p>')
    for b in boards:
        t = board_table(b, level)
        pcol = t.columns.index("policy")
        # the table comes sorted by rank, the first column
        heads = "".join(f'<th data-col="{k}" data-type="{"text" if f == "text" else "num"}"'
                        + (' aria-sort="ascending"' if k == 0 else "") + f">{esc(c)}</th>"
                        for k, (c, f) in enumerate(zip(t.columns, t.formats)))
        trs = []
        for row in t.rows:
            cells = []
            for k, (v, f) in enumerate(zip(row, t.formats)):
                key = v[0] if f == "ci" and v is not None else v
                key = "" if key is None or (isinstance(key, float) and not math.isfinite(key)) else key
                shown = esc(_fmt(v, f))
                if k == pcol:
                    href = "#policy=" + quote(str(v), safe="") + "&game=" + quote(b.game, safe="")
                    shown = f'<a class="policy" href="{esc(href)}" title="list the games of {esc(v)}">{shown}</a>'
                cells.append(f'<td data-v="{esc(key)}">{shown}</td>')
            trs.append("<tr>" + "".join(cells) + "</tr>")
        table = (f'<table class="board"><thead><tr>{heads}</tr></thead><tbody>{"".join(trs)}</tbody></table>'
                 if t.rows else "")
        notes = "".join(f'<p class="note">{esc(n)}</p>' for n in t.notes)
        parts.append(f'<div class="lgame" data-game="{esc(b.game)}"><h3>{esc(t.title)}</h3>{table}{notes}</div>')
    return f'<div id="board" hidden>{"".join(parts)}</div>'


VIEWER_CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{padding:10px 16px;background:#243b53;color:#fff}header h1{font-size:18px;margin:0}
#wrap{display:flex;align-items:flex-start}#list{width:50%;min-width:560px;padding:10px;border-right:1px solid #ddd;
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
.note{color:#7b8794;font-style:italic}#empty>p{color:#7b8794}
table.games{table-layout:fixed;font-size:13px}table.games td,table.games th{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.games td.tags{white-space:normal}col.c-i{width:2.6em}col.c-id{width:25%}col.c-game{width:6.5em}col.c-seats{width:35%}col.c-out{width:7em}
.search{display:flex;gap:8px;align-items:center;margin-bottom:6px}#search{flex:1;min-width:12em;padding:3px 6px}
#search-count{font-size:12px;color:#52606d;white-space:nowrap}#summary h2{margin:4px 0 6px}
.sgame{border:1px solid #d9e2ec;background:#fff;padding:6px 10px;margin:10px 0;border-radius:6px}
.sgame h3{margin:4px 0}svg.chart{display:block;max-width:100%;margin:4px 0}table.summary{font-size:12px}table.summary td{text-align:right}
table.summary td.seats{text-align:left;max-width:18em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tabs{margin:2px 0 8px}.tabs a.tab{padding:3px 10px;margin-right:4px;border:1px solid #d9e2ec;border-radius:6px 6px 0 0;
text-decoration:none;color:#243b53;background:#eef2f7}.tabs a.tab.on{background:#fff;font-weight:600;border-bottom-color:#fff}
table.board{font-size:13px}table.board th{cursor:pointer;user-select:none;white-space:nowrap}table.board td{text-align:right;white-space:nowrap}
table.board td:nth-child(2){text-align:left}th[aria-sort=ascending]::after{content:" \\25B2"}
th[aria-sort=descending]::after{content:" \\25BC"}.lgame{border:1px solid #d9e2ec;background:#fff;padding:6px 10px;overflow-x:auto;
margin:10px 0;border-radius:6px}.lgame h3{margin:4px 0}.lgame p.note{margin:2px 0;font-size:12px}
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
  var board = document.getElementById('board'), summary = document.getElementById('summary');
  function tab(name){
    board.hidden = name !== 'leaderboard';
    summary.hidden = name === 'leaderboard';
    var tabs = document.querySelectorAll('a.tab');
    for (var i = 0; i < tabs.length; i++) tabs[i].classList.toggle('on', tabs[i].getAttribute('data-tab') === name);
    document.body.setAttribute('data-tab', name);
  }
  function choose(id, v){
    var s = document.getElementById(id);
    if (!s) return;
    s.value = v;
    if (s.value !== v) s.value = '';
  }
  // "#policy=LABEL&game=GAME" (each part URL-encoded): the list filtered to that policy's games
  function policyLink(){
    var raw = location.hash.slice(1);
    if (raw.indexOf('policy=') !== 0) return false;
    var parts = raw.split('&'), want = {};
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      try { want[parts[i].slice(0, eq)] = decodeURIComponent(parts[i].slice(eq + 1)); } catch (e) { return false; }
    }
    choose('f-policy', want.policy || '');
    choose('f-game', want.game || '');
    filter();
    return true;
  }
  function sortBy(ev){
    var th = ev.currentTarget, table = th.closest('table'), col = +th.getAttribute('data-col');
    var num = th.getAttribute('data-type') === 'num', was = th.getAttribute('aria-sort');
    // a new column sorts numbers high to low and text A to Z; a second click reverses
    var dir = was ? (was === 'ascending' ? -1 : 1) : (num ? -1 : 1);
    var hs = table.querySelectorAll('th');
    for (var k = 0; k < hs.length; k++) hs[k].removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    var body = table.tBodies[0], list = Array.prototype.slice.call(body.rows);
    list.sort(function(a, b){
      var x = a.cells[col].getAttribute('data-v'), y = b.cells[col].getAttribute('data-v');
      if (num) {
        x = x === '' ? NaN : +x; y = y === '' ? NaN : +y;
        if (isNaN(x) || isNaN(y)) return isNaN(x) - isNaN(y);
        return dir * (x - y);
      }
      return dir * (x < y ? -1 : (x > y ? 1 : 0));
    });
    for (var r = 0; r < list.length; r++) body.appendChild(list[r]);
  }
  var heads = document.querySelectorAll('table.board th');
  for (var q = 0; q < heads.length; q++) heads[q].addEventListener('click', sortBy);
  function show(){
    var t = target();
    if (!t) { var lb = location.hash === '#leaderboard'; if (policyLink()) lb = true; tab(lb ? 'leaderboard' : 'summary'); }
    for (var i = 0; i < sections.length; i++) sections[i].hidden = sections[i] !== t;
    document.getElementById('empty').hidden = !!t;
    for (var j = 0; j < rows.length; j++) rows[j].classList.toggle('current', !!t && rows[j].id === 'row-' + t.getAttribute('data-key'));
    document.body.setAttribute('data-shown', t ? t.getAttribute('data-key') : '');
    if (t) window.scrollTo(0, 0);
  }
  var rows = document.querySelectorAll('tr.row'), box = document.getElementById('search'), texts = null;
  function filter(){
    var sel = document.querySelectorAll('.filters select'), n = 0, hits = 0;
    // plain substring search, case-insensitive, over each row's transcript text
    var q = box.value.trim().toLowerCase();
    if (q && texts === null) {
      texts = [];
      for (var i = 0; i < rows.length; i++) texts.push((rows[i].getAttribute('data-text') || '').toLowerCase());
    }
    for (var j = 0; j < rows.length; j++) {
      var ok = !q || texts[j].indexOf(q) >= 0;
      if (q && ok) hits++;
      for (var k = 0; k < sel.length; k++) {
        var key = sel[k].getAttribute('data-key'), v = sel[k].value;
        if (!v) continue;
        var have = rows[j].getAttribute('data-' + key) || '';
        var among = key === 'outcome' ? have.split(' ') : (key === 'policy' ? JSON.parse(have || '[]') : null);
        if (among ? among.indexOf(v) < 0 : have !== v) ok = false;
      }
      rows[j].hidden = !ok;
      if (ok) n++;
    }
    document.getElementById('count').textContent = n + ' of ' + rows.length + ' games';
    document.getElementById('search-count').textContent =
      q ? hits + (hits === 1 ? ' game contains' : ' games contain') + ' \u201c' + box.value.trim() + '\u201d' : '';
  }
  var sels = document.querySelectorAll('.filters select');
  for (var k = 0; k < sels.length; k++) sels[k].addEventListener('change', filter);
  box.addEventListener('input', filter);
  window.addEventListener('hashchange', show);
  filter();
  show();
})();
"""


def render_html(traces: Iterable[Any], *, title: str = "negotiation_env transcripts",
                problems: Sequence[Any] = (), boards: Sequence[Any] | None = None, level: float = 0.9) -> str:
    """The viewer page for ``traces`` (GameTrace objects or dicts) as one HTML string.
    ``boards``: the leaderboard tab's boards (:func:`~.leaderboard.leaderboard` at
    interval ``level``); None: computed from ``traces`` with the command's defaults."""
    ts = [as_dict(t) for t in traces]
    problem = None
    if boards is None:
        from .leaderboard import leaderboard

        try:
            boards = leaderboard(ts, level=level)
        except (ValueError, RuntimeError) as e:
            boards, problem = [], f"no leaderboard: {e}"
    rows, attrs = [], []
    for i, (t, short) in enumerate(zip(ts, short_ids(ts))):
        r, a = _list_row(i, t, short)
        rows.append(r)
        attrs.append(a)
    filters = []
    for key, label in (("game", "game"), ("condition", "condition"), ("pairing", "pairing"), ("policy", "policy"),
                       ("outcome", "outcome")):
        values = sorted({v for a in attrs for v in _filter_values(key, a[key]) if v})
        opts = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
        filters.append(f'<label>{esc(label)} <select data-key="{key}" id="f-{key}"><option value="">all</option>'
                       f"{opts}</select></label>")
    notes = "".join(f'<p class="warn">skipped trace line: {esc(p)}</p>' for p in problems)
    sections = "".join(game_section(i, t) for i, t in enumerate(ts))
    csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{VIEWER_CSS}</style></head><body>"
        f"<header><h1>{esc(title)}</h1></header><div id=\"wrap\"><nav id=\"list\">"
        f'<div class="filters">{"".join(filters)}</div>'
        '<div class="search"><input type="search" id="search" placeholder="search the transcripts" '
        'aria-label="search the transcripts" autocomplete="off"><span id="search-count"></span></div>'
        f'<p id="count">{len(ts)} games</p>{notes}'
        '<table class="games"><colgroup><col class="c-i"><col class="c-id"><col class="c-game"><col><col class="c-seats"><col class="c-out">'
        '</colgroup><tr><th>#</th><th>game id</th><th>game</th><th>condition</th>'
        '<th title="the policy in each seat, first seat first">seats</th>'
        f'<th>outcome</th></tr>{"".join(rows)}</table></nav>'
        f'<main id="detail"><div id="empty"><p>Select a game on the left.</p>'
        '<p class="tabs"><a class="tab on" href="#summary" data-tab="summary">Run summary</a>'
        '<a class="tab" href="#leaderboard" data-tab="leaderboard">Leaderboard</a></p>'
        f'{_summary_panel(ts)}{_leaderboard_panel(boards, level, problem)}</div>'
        f'{sections}</main></div>'
        f"<script>{_JS}</script></body></html>\n"
    )


def write_viewer(traces: Iterable[Any], out: str | Path, *, title: str = "negotiation_env transcripts",
                 problems: Sequence[Any] = (), boards: Sequence[Any] | None = None, level: float = 0.9) -> Path:
    """Write :func:`render_html`'s page to ``out``."""
    p = Path(out)
    p.parent.mkdir(parents=True, exist_ok=True)
    # whole under its name, or no file
    write_text(p, render_html(traces, title=title, problems=problems, boards=boards, level=level))
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
