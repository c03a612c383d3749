"""Hostile servers and runaway answers, class by class: every case
must end as a recorded fault (or a bounded, scrubbed answer) within its deadline, and no
secret may reach what it must not.

    python -m benchmarks.hostile_server              # 20 cases per class (about a minute)
    python -m benchmarks.hostile_server --quick      # 3 cases per class
    python -m benchmarks.hostile_server --measure    # the two headline figures only
    python -m benchmarks.hostile_server --class "huge retry-after" --class "rate-limited probe"
    python -m benchmarks.hostile_server --class "surrogate answer"   # one class (repeatable)

Attack classes (each case drawn from a ``numpy`` Generator seeded by ``--seed``; the
server is ``tests/fakeserver.py`` on 127.0.0.1, the client the real ``APIClient``):

* ``slow drip``: the body, or the status line and headers, one byte every 0.05-0.9 s
  against a deadline of 0.5-1.5 s. Fails when the call outlives attempts x deadline + 0.5 s
  or records no ``timeout``.
* ``huge body``: 2-48 MiB against a 1 MiB cap. Fails without a ``too_large`` fault.
* ``compression bomb``: a gzip body inflating to 2-48 MiB. As above.
* ``redirect``: a 307 to another server on 127.0.0.1. Fails when that server gets a
  request or no ``redirect`` fault is recorded.
* ``malformed answer``: ``choices``/``message``/``content``/``usage`` of the wrong type, a
  usage of 1e400 or below zero, nesting of 33-100,000 levels, a 101-5,000-digit numeral,
  bad JSON, bad UTF-8, a duplicate key. Fails when anything escapes the call, when no
  ``malformed``/``empty`` fault is recorded, or when the retry does not answer.
* ``echoed key``: the server puts the ``Authorization`` value into the content, reasoning,
  finish reason, usage, error message, headers or a redirect's Location. Fails when the key
  appears in the answer, the faults, any log record (every logger at DEBUG) or stdout/stderr.
* ``thinking shape``: a secret in reasoning (an orphan ``</think>``, nested spans, an
  unclosed span, a JSON answer inside a span, text whose lower case is longer), random text
  around it, through the matrix (its ``strict`` rule: under the default ``f6`` rule text
  before a stray ``</think>`` is answer, as the paper writes it), resource and rulemaking
  parsers and ``split_reasoning``. Fails when the secret is in what the partner would read.
* ``runaway answer``: 1-4 refused answers of 10 kB-20 MB in a resource or rulemaking game.
  Fails when an observation leaves its space, the trace line passes 2 MiB, or a retry
  re-sends more than 60,000 characters.
* ``huge retry-after``: every answer a 429 asking for an enormous wait: 10^3-10^12 s as a
  number, an HTTP date in 2030-9999, or ``retry-after-ms`` of 10^6-10^15, against a cap
  (``max_retry_after``) of 1-300 s, a ``call_budget`` of 10-1,000 s and 1-20 retries; the
  waits go to an injected ``sleep``. Fails when a wait passes the cap, when the waits and
  the attempts together pass the budget, or when the call does not end failed.
* ``rate-limited probe``: the probe's request answered with a 429 in one of those forms.
  Fails unless the probe returns at once (no wait) saying ``rate_limited`` with the wait
  asked for.
* ``surrogate answer``: valid JSON whose text holds a lone surrogate escape (``"\\ud800"``,
  U+D800-U+DFFF: no character) at a random place in the content, the reasoning, the finish
  reason, a tool call's arguments or a key; one case in four is a whole resource game
  between two API policies whose server poisons each answer with probability 0.1-0.5.
  Fails when the call records no ``malformed`` fault or its retry does not answer; for a
  game, when a poisoned answer is not a ``malformed`` fault, the game does not complete, or
  its trace line is not valid UTF-8 holding no surrogate.

``--measure`` prints the drip-server call time (a 2 s timeout, one byte every 0.8 s, for
up to 20 s) and the trace line of four refused 20 MB answers; it uses only client APIs
that older checkouts have too, so it can be run on one for comparison (copy this script
and ``tests/fakeserver.py`` there). Table on stdout, JSON in
``benchmarks/results/hostile_server.json`` (``--quick``: ``hostile_server_quick.json``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

import negotiation_env
from baselines.scripted import make as make_resource
from benchmarks.machine import machine_info, write_result
from negotiation_env.traces import record
from negotiation_env.traces.writer import encode_trace
from tests.fakeserver import FakeServer

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "hostile_server.json"
KEY = "sk-FAKE-negenv-bench-hostile-5e8a"
OK = json.dumps({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                                                                               "content": "fine"}}]})
MSG = '"message": {"role": "assistant", "content": "A"}'


def client(server: FakeServer, **kw: Any):
    from baselines.llm.api import APIClient

    opts = {"api_key_env": "NEGENV_BENCH_KEY", "timeout": 1.0, "max_retries": 1, "backoff": 0.0,
            "sleep": lambda s: None}
    opts.update(kw)
    return APIClient("m", server.url, **opts)


# --------------------------------------------------------------------------- cases: each returns a failure or None


def slow_drip(rng, server, other) -> str | None:
    timeout = float(rng.uniform(0.5, 1.5))
    server.drip_interval, server.drip_max_seconds = float(rng.uniform(0.05, 0.9)), 10.0
    server.faults = [str(rng.choice(["drip", "drip_head"]))] * 2
    c = client(server, timeout=timeout)  # built outside the clock (it loads the CA bundle)
    t0 = time.perf_counter()
    comp, _ = c.complete([{"role": "user", "content": "go"}])
    took = time.perf_counter() - t0
    if took > comp.attempts * timeout + 0.5:
        return f"took {took:.2f} s for {comp.attempts} attempts of {timeout:.2f} s"
    if not any(f["kind"] == "timeout" for f in comp.faults):
        return f"no timeout fault: {comp.faults}"
    return None


def _too_large(rng, server, fault: str) -> str | None:
    server.huge_bytes = int(rng.integers(2, 49)) * 2**20
    server.faults = [fault]
    FakeServer._bomb(server.huge_bytes) if fault == "gzip_bomb" else None
    comp, _ = client(server, timeout=20.0, max_response_bytes=2**20).complete([{"role": "user", "content": "go"}])
    if not comp.faults or comp.faults[0]["kind"] != "too_large" or comp.text != "fine":
        return f"faults {[f['kind'] for f in comp.faults]}, text {comp.text[:20]!r}"
    return None


def huge_body(rng, server, other) -> str | None:
    return _too_large(rng, server, "huge")


def compression_bomb(rng, server, other) -> str | None:
    return _too_large(rng, server, "gzip_bomb")


def redirect(rng, server, other) -> str | None:
    server.redirect_to = other.url
    server.faults = [str(rng.choice(["redirect", "echo_redirect"]))]
    before = len(other.requests)
    comp, _ = client(server, max_retries=2).complete([{"role": "user", "content": "go"}])
    if len(other.requests) != before:
        return "the redirect was followed"
    if [f["kind"] for f in comp.faults] != ["redirect"]:
        return f"faults {comp.faults}"
    return None


def _malformed_body(rng) -> bytes:
    depth = int(rng.integers(33, 100_001))
    bodies = [
        '{"choices": "abc"}', '{"choices": [1]}', '{"choices": [{"message": "A"}]}',
        '{"choices": [{"message": {"content": 5}}]}', '{"choices": [{%s}], "usage": "abc"}' % MSG,
        '{"choices": [{%s}], "usage": [1, 2]}' % MSG, '{"choices": [{%s}], "usage": {"prompt_tokens": 1e400}}' % MSG,
        '{"choices": [{%s}], "usage": {"completion_tokens": -%d}}' % (MSG, int(rng.integers(1, 10**6))),
        '{"choices": [{%s}], "usage": {"completion_tokens": true}}' % MSG,
        '{"choices": [{%s}], "x": %s}' % (MSG, "[" * depth + "]" * depth),
        '{"choices": [{%s}], "x": %s}' % (MSG, "7" * int(rng.integers(101, 5001))),
        '{"choices": [ this is not json', '[1, 2]', '{"choices": [], "choices": [{%s}]}' % MSG,
    ]
    k = int(rng.integers(len(bodies) + 1))
    return b'{"choices": [{"message": {"content": "\xff\xfe"}}]}' if k == len(bodies) else bodies[k].encode()


def _bad_then_good(server, body: bytes, expected: tuple[list[str], ...]) -> str | None:
    """One call whose first answer is ``body`` and whose retry answers well: a failure
    unless the call records the faults ``expected`` (one of) and returns the good answer."""
    bodies = iter([body, OK.encode()])
    server.raw_body = lambda req: next(bodies)
    server.faults = ["raw", "raw"]
    try:
        comp, _ = client(server).complete([{"role": "user", "content": "go"}])
    except Exception as e:  # noqa: BLE001 - what the benchmark counts
        return f"raised {type(e).__name__}: {str(e)[:80]}"
    if [f["kind"] for f in comp.faults] not in expected or comp.text != "fine":
        return f"faults {[f['kind'] for f in comp.faults]}, text {comp.text!r}"
    return None


def malformed_answer(rng, server, other) -> str | None:
    return _bad_then_good(server, _malformed_body(rng), (["malformed"], ["empty"]))


def echoed_key(rng, server, other) -> str | None:
    server.faults = [str(rng.choice(["echo", "echo_usage", "echo_error", "echo_redirect"]))] * 3
    logs, out, err = io.StringIO(), io.StringIO(), io.StringIO()
    handler = logging.StreamHandler(logs)
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            c = client(server, max_retries=2)
            comp, resp = c.complete([{"role": "user", "content": "go"}])
            try:
                c.probe()
            except Exception as e:  # noqa: BLE001 - a probe failure's text is checked too
                print(e)
    finally:
        root.removeHandler(handler)
        root.setLevel(old)
    seen = {"answer": comp.text + (comp.raw or "") + (comp.reasoning or "") + str(comp.finish_reason),
            "faults": json.dumps(comp.trace_usage()), "logs": logs.getvalue(), "stdout": out.getvalue(),
            "stderr": err.getvalue(), "response": "" if resp is None else repr(vars(resp))}
    leaks = [k for k, v in seen.items() if KEY in v]
    return f"the key is in {', '.join(leaks)}" if leaks else None


SHAPES = [
    lambda s, a, j: f"{s}</think>{a}", lambda s, a, j: f"<think><think>x</think>{s}</think>{a}",
    lambda s, a, j: f"{a}<think>{s}", lambda s, a, j: f"<think>{j}</think>{a}", lambda s, a, j: f"<think>{j}",
    lambda s, a, j: "\u0130" * 14 + f" <think>{s}</think>{a}", lambda s, a, j: f"<think>x</think>{s}</think>{a}",
]
NOISE = ["<think>", "</think>", "<THINK>", "<thi", "nk>", " ", "\n", "x", "\u0130", "A"]


def thinking_shape(rng, server, other) -> str | None:
    from baselines.llm.prompting import split_reasoning
    from negotiation_env.core.jsontext import ParseError
    from negotiation_env.games.matrix.parser import parse_message
    from negotiation_env.games.resource.parser import parse_text as resource_parse
    from negotiation_env.games.resource.scenario import load_scenario
    from negotiation_env.games.rulemaking.parser import parse_text as rulemaking_parse
    from negotiation_env.games.rulemaking.scenario import load_scenario as load_rm

    secret = f"SECRET{int(rng.integers(10**6))}"
    prefix = "".join(rng.choice(NOISE, size=int(rng.integers(0, 6))))
    shape = SHAPES[int(rng.integers(len(SHAPES)))]
    game = negotiation_env.make_game("resource", theme="medieval")
    game.reset(np.random.default_rng(0))
    targets: dict[str, tuple[str, str, Callable[[str], str]]] = {
        # the strict rule: the matrix default reads tags as F.6 writes them, where text before a
        # stray </think> is answer by design (docs/games/matrix.md)
        "matrix": ("Let us both choose A.", secret, lambda t: parse_message(t, think_tags="strict").value),
        "resource": (json.dumps({"thinking": "", "speech": "hello", "action": None}),
                     json.dumps({"thinking": "", "speech": secret, "action": None}),
                     lambda t: resource_parse(t, load_scenario("mc080_1"), "agent_a", game.names,
                                              require_decision=False).speech),
        "rulemaking": (json.dumps({"move": "Support", "issue": None, "rationale": "ok"}),
                       json.dumps({"move": "Support", "issue": None, "rationale": secret}),
                       lambda t: rulemaking_parse(t, load_rm("E1"), "none").rationale),
        "back ends": ("A", secret, lambda t: split_reasoning(t)[0]),
    }
    for name, (answer, inside, read) in targets.items():
        text = prefix + shape(secret, answer, inside)
        try:
            shown = read(text)
        except ParseError:
            continue  # refused: nothing reaches the partner
        if secret in shown:
            return f"{name}: {text[:80]!r} shows the secret"
    return None


def runaway_answer(rng, server, other) -> str | None:
    game = str(rng.choice(["resource", "rulemaking"]))
    length = int(10 ** rng.uniform(4, np.log10(2e7)))
    count = int(rng.integers(1, 5))
    return _runaway(game, "x" * length, count)


def _runaway(game: str, junk: str, count: int) -> str | None:
    if game == "resource":
        env = negotiation_env.env(game="resource", num_rounds=1, max_retries=3)
        pols = {a: make_resource("greedy", seed=1) for a in env.possible_agents}
    else:
        from baselines.scripted.rulemaking import make_rulemaking

        env = negotiation_env.env(game="rulemaking", max_retries=3)
        pols = {a: make_rulemaking("conceder", seed=1) for a in env.possible_agents}
    rec = record(env, policies=pols)
    rec.reset(seed=0)
    first, left, resent, out_of_space = None, count, 0, 0
    for agent in rec.agent_iter():
        obs, _, term, trunc, _ = rec.last()
        if term or trunc:
            rec.step(None)
            continue
        out_of_space += not env.observation_space(agent).contains(obs)
        first = first or agent
        if agent == first and left:
            resent = max(resent, sum(len(m["content"]) for m in obs["conversation"]))
            left -= 1
            rec.step(junk)
        else:
            rec.step(pols[agent].act(obs))
    line = len(encode_trace(rec.last_trace))
    problems = [f"{out_of_space} observations out of their space"] if out_of_space else []
    if line > 2 * 2**20:
        problems.append(f"a trace line of {line / 2**20:.1f} MiB")
    if resent > 60_000:
        problems.append(f"a retry re-sent {resent:,} characters")
    return "; ".join(problems) or None


def _huge_wait(rng, server) -> str:
    """Set ``server`` to ask for an enormous wait in one of three forms; return which."""
    form = str(rng.choice(["seconds", "http date", "ms"]))
    server.retry_after, server.retry_after_ms = None, None
    if form == "seconds":
        server.retry_after = str(int(10 ** rng.uniform(3, 12)))
    elif form == "http date":
        year = int(rng.integers(2030, 10000))
        server.retry_after = f"Fri, 01 Jan {year} 00:00:00 GMT"
    else:
        server.retry_after_ms = str(int(10 ** rng.uniform(6, 15)))
    return form


def huge_retry_after(rng, server, other) -> str | None:
    form = _huge_wait(rng, server)
    cap, budget = float(rng.uniform(1, 300)), float(rng.uniform(10, 1000))
    retries = int(rng.integers(1, 21))
    server.default = "429"
    waits: list[float] = []
    try:
        c = client(server, max_retries=retries, max_retry_after=cap, call_budget=budget, sleep=waits.append)
        t0 = time.perf_counter()
        comp, _ = c.complete([{"role": "user", "content": "go"}])
        took = time.perf_counter() - t0
    finally:
        server.default = "ok"
        server.retry_after, server.retry_after_ms = "1", None
    if any(w > cap for w in waits):
        return f"{form}: a wait of {max(waits):.1f} s past the cap of {cap:.1f} s"
    if sum(waits) + took > budget:
        return f"{form}: {sum(waits) + took:.1f} s of waits and attempts past the budget of {budget:.1f} s"
    if not comp.failed:
        return f"{form}: the call did not end failed"
    return None


def rate_limited_probe(rng, server, other) -> str | None:
    form = _huge_wait(rng, server)
    server.faults = ["429"]
    waits: list[float] = []
    try:
        got = client(server, sleep=waits.append).probe()
    finally:
        server.retry_after, server.retry_after_ms = "1", None
    if got.get("status") != 429 or got.get("rate_limited") is not True or waits:
        return f"{form}: probe returned {got} after waits {waits}"
    if not isinstance(got.get("retry_after"), float) or got["retry_after"] < 999:
        return f"{form}: the wait asked for is not reported ({got.get('retry_after')!r})"


def _surrogate_escape(rng) -> str:
    return "\\u%04x" % int(rng.integers(0xD800, 0xE000))


def _surrogate_body(rng) -> bytes:
    s = _surrogate_escape(rng)
    text = "I will share the work."
    i = int(rng.integers(len(text) + 1))
    poisoned = text[:i] + s + text[i:]
    where = str(rng.choice(["content", "reasoning_content", "reasoning", "finish_reason", "arguments", "key"]))
    message: dict[str, Any] = {"role": "assistant", "content": "A"}
    choice: dict[str, Any] = {"index": 0, "finish_reason": "stop", "message": message}
    body: dict[str, Any] = {"choices": [choice]}
    mark = "@@POISON@@"
    if where in ("content", "reasoning_content", "reasoning"):
        message[where] = mark
    elif where == "finish_reason":
        choice["finish_reason"] = mark
    elif where == "arguments":
        message["tool_calls"] = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": mark}}]
    else:
        body["x" + mark] = 1
    return json.dumps(body).replace(mark, poisoned).encode()


def surrogate_answer(rng, server, other) -> str | None:
    if rng.random() < 0.25:
        return _surrogate_game(rng, server)
    return _bad_then_good(server, _surrogate_body(rng), (["malformed"],))


def _surrogate_game(rng, server) -> str | None:
    """A resource game between two API policies; each answer poisoned with probability p."""
    import threading

    from baselines.llm.api import APIPolicy
    from negotiation_env.core.encodable import first_unencodable

    p = float(rng.uniform(0.1, 0.5))
    draws = np.random.default_rng(int(rng.integers(2**32)))
    talk = '{"thinking": "t", "speech": "Let us share the work.", "action": null}'
    lock, poisoned = threading.Lock(), [0]

    def reply(req):
        with lock:
            if draws.random() < p:
                poisoned[0] += 1
                return talk.replace("share", "share \ud800")  # the server's JSON writes it as the escape
        return talk

    server.reply = reply
    try:
        env = negotiation_env.env(game="resource", num_rounds=1, cheap_talk_turns=2, max_retries=1)
        pols = {a: APIPolicy("m", server.url, api_key_env="NEGENV_BENCH_KEY", timeout=2.0, max_retries=2,
                             backoff=0.0) for a in env.possible_agents}
        rec = record(env, policies=pols)
        rec.reset(seed=int(rng.integers(1000)))
        for agent in rec.agent_iter():
            obs, _, term, trunc, _ = rec.last()
            rec.step(None if term or trunc else pols[agent].act(obs))
        line = encode_trace(rec.last_trace).decode("utf-8")
    finally:
        server.reply = lambda req: "fine"
    trace = json.loads(line)
    faults = [f["kind"] for s in trace["steps"] for f in (s["tokens"] or {}).get("faults", [])]
    if trace["status"] != "complete":
        return f"game {trace['status']}: {str(trace['error'])[:80]}"
    if faults != ["malformed"] * poisoned[0]:
        return f"{poisoned[0]} poisoned answers, faults {faults}"
    if first_unencodable(trace) is not None or "unencodable_text" in trace["meta"]:
        return "unencodable text reached the trace"
    return None


CLASSES: dict[str, Callable] = {"slow drip": slow_drip, "huge body": huge_body, "compression bomb": compression_bomb,
                                "redirect": redirect, "malformed answer": malformed_answer, "echoed key": echoed_key,
                                "thinking shape": thinking_shape, "runaway answer": runaway_answer,
                                "huge retry-after": huge_retry_after, "rate-limited probe": rate_limited_probe,
                                "surrogate answer": surrogate_answer}


# --------------------------------------------------------------------------- the headline figures


def measure() -> dict[str, Any]:
    """Drip-server call time and the trace line of four refused 20 MB answers (see the
    module docstring); only APIs the older code had too."""
    from baselines.llm.api import APIClient

    s = FakeServer()
    s.reply = lambda r: "A"
    out: dict[str, Any] = {}
    try:
        for fault in ("drip", "drip_head"):
            s.faults, s.drip_interval, s.drip_max_seconds = [fault], 0.8, 20.0
            c = APIClient("m", s.url, api_key_env="NEGENV_BENCH_KEY", timeout=2.0, max_retries=0)
            t0 = time.perf_counter()
            comp, _ = c.complete([{"role": "user", "content": "hi"}])
            out[f"{fault}_call_s"] = round(time.perf_counter() - t0, 2)
            out[f"{fault}_faults"] = [f["kind"] for f in comp.faults]
    finally:
        s.close()
    junk = "x" * 20_000_000
    env = negotiation_env.env(game="resource", num_rounds=1, max_retries=3)
    pols = {a: make_resource("greedy", seed=1) for a in env.possible_agents}
    rec = record(env, policies=pols)
    rec.reset(seed=0)
    left, resent, in_space = 4, 0, True
    for agent in rec.agent_iter():
        obs, _, term, trunc, _ = rec.last()
        if term or trunc:
            rec.step(None)
            continue
        in_space &= bool(env.observation_space(agent).contains(obs))
        if agent == "agent_a" and left:
            resent = max(resent, sum(len(m["content"]) for m in obs["conversation"]))
            left -= 1
            rec.step(junk)
        else:
            rec.step(pols[agent].act(obs))
    out["trace_line_MiB"] = round(len(encode_trace(rec.last_trace)) / 2**20, 2)
    out["largest_resent_conversation_chars"] = resent
    out["observations_in_space"] = in_space
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=20, help="cases per class (default 20)")
    ap.add_argument("--quick", action="store_true", help="3 cases per class")
    ap.add_argument("--measure", action="store_true", help="only the drip time and the trace-line size")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=25.0, help="a case taking longer fails")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--class", dest="only", action="append", choices=list(CLASSES), default=None,
                    help="run only this attack class (repeatable)")
    args = ap.parse_args(argv)
    os.environ["NEGENV_BENCH_KEY"] = KEY
    # the client's per-attempt warnings are the faults the table counts; keep them off the terminal
    logging.getLogger("baselines.llm").addHandler(logging.NullHandler())
    if args.measure:
        result = measure()
        for k, v in result.items():
            print(f"{k:>36}: {v}")
        return 0
    n = 3 if args.quick else args.cases
    rng = np.random.default_rng(args.seed)
    server, other = FakeServer(), FakeServer()
    for s in (server, other):
        s.reply = lambda req: "fine"
    rows = []
    t_all = time.perf_counter()
    try:
        for name, fn in CLASSES.items():
            if args.only and name not in args.only:
                continue
            failures, examples, t0 = 0, [], time.perf_counter()
            for _ in range(n):
                t = time.perf_counter()
                try:
                    why = fn(rng, server, other)
                except Exception as e:  # noqa: BLE001 - a case that raises fails
                    why = f"raised {type(e).__name__}: {str(e)[:100]}"
                if why is None and time.perf_counter() - t > args.max_seconds:
                    why = f"took {time.perf_counter() - t:.1f} s"
                server.faults = []
                if why is not None:
                    failures += 1
                    examples.append(why)
            rows.append({"class": name, "cases": n, "failures": failures, "seconds": round(time.perf_counter() - t0, 1),
                         "examples": examples[:3]})
    finally:
        server.close()
        other.close()
    print(f"{'attack class':<18} {'cases':>6} {'failures':>9} {'seconds':>8}")
    for r in rows:
        print(f"{r['class']:<18} {r['cases']:>6} {r['failures']:>9} {r['seconds']:>8}")
        for e in r["examples"]:
            print(f"    {e}")
    ok = all(r["failures"] == 0 for r in rows)
    print("PASS" if ok else "FAIL", f"({time.perf_counter() - t_all:.0f} s)")
    out = args.out or (DEFAULT_OUT.with_name("hostile_server_quick.json") if args.quick else DEFAULT_OUT)
    write_result(out, {"benchmark": "hostile_server", "args": {k: str(v) for k, v in vars(args).items()},
                       "machine": machine_info(), "result": {"rows": rows, "ok": ok}})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
