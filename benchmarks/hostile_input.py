"""Hostile input, class by class: every case must end in the typed error (or be accepted
where it is legitimately valid), within a time bound, and a game must go on.

    python -m benchmarks.hostile_input               # 100 cases per class and target
    python -m benchmarks.hostile_input --quick       # 10 cases, a second or two
    python -m benchmarks.hostile_input --cases 500 --seed 3
    python -m benchmarks.hostile_input --class "credential in URL" --out /tmp/cred.json
    python -m benchmarks.hostile_input --class "lone surrogate"   # one class (repeatable)

Attack classes (each case drawn from a ``numpy`` Generator seeded by ``--seed``):

* ``huge integer``: a numeral of 101 to 6,000 digits (sign, fraction, exponent mixed);
* ``deep nesting``: arrays or objects nested past the limit, up to 5,000 levels, closed or not;
* ``brace flood``: 1,000 to 100,000 characters of a repeated opener (``{``, ``{"a":``, ``[``,
  a code fence, ...);
* ``alias bomb``: YAML anchors nested 1 to 9 levels, 2 to 10 wide (up to 10^9 values),
  or a cyclic alias: past 100,000 values refused on load, smaller ones refused by the plan
  (they sit in a config field the game does not have);
* ``duplicate key``: a key given twice in one object;
* ``invisible text``: a rationale, speech or message of only zero-width, format or blank
  characters;
* ``forged rendering``: agent text (resource speech and thinking, a matrix message, a
  rulemaking rationale) of 3 to 8 pieces: line breaks (LF, CR LF, CR, U+2028, NEL), fake
  env lines (a result, ``=== Game over ===``, a round header, a turn, a fallback notice),
  terminal sequences (CSI clear and cursor moves, OSC window title, the one-byte C1 CSI
  and OSC, backspace, DEL, NUL) and bidi controls, stepped into the env and rendered in
  both modes (``ansi`` and ``human``, stdout captured). A case fails when a control
  character (C0 but the newline between lines, DEL, C1, line separators, bidi controls)
  is in a rendering or a line of it starts with a fake env line;
* ``unknown agent``: ``observe`` (AEC and parallel), ``observation_space``,
  ``action_space`` and a parallel ``step`` with a name the env does not have (another
  game's agent, a case or whitespace variant, random text, an integer, None, a tuple, a
  list, a dict). A case fails unless it raises ``ValueError`` naming every agent of the env.
* ``credential in URL``: a policy URL with a planted key as the user name alone or
  ``user:password``, in a query or fragment parameter or a ``;`` path parameter under a
  secret name (``api_key``, ``code``, ``auth``, ``sig``, ``jwt``, ``bearer``,
  ``access_token`` ...) or any name, or as a path segment (a known key prefix, a
  hexadecimal key, a random-looking run of letters and digits); one case in four is an
  ordinary URL (hosts, ports, model names in the path, ``api-version``) that must be
  accepted unchanged.
* ``lone surrogate``: a surrogate code point without its pair (U+D800-U+DFFF: no
  character, no UTF-8) at a random place in a string, as a JSON escape (``"\\ud800"``, what
  a model or a file can write) or, for an env, in the Python string a policy returns.
  Parsers, scenario files and run configs must refuse it (TOML refuses the escape
  itself); an env must ask again or take the answer repaired (U+FFFD, an
  ``answer_unencodable`` event) with nothing unencodable left in any observation or info;
  the trace reader must report a line holding one as an ``undecodable`` problem naming
  its line, keep the other games, and export them.

Targets: the resource, matrix and rulemaking renderings and APIs (the last two
classes), the resource and rulemaking answer parsers, the judge validator, the resource
and rulemaking envs (the hostile answer is stepped; the game must not end, the same
agent must be asked again), the matrix message parser, both scenario loaders (a file),
and the run config loader (YAML and TOML files); for credentials: the run config loader
(the URL in the policy spec, then in the ``base_url`` option), the API client's
constructor, and ``redact`` with the reprs of the API policy and the recorded policy
info; for ``lone surrogate`` also the three
envs through the AEC and the parallel API, and a trace file through the reader and the
SFT export. A case *fails* when anything other than
the target's typed error escapes, when a case that must be refused is accepted (a flood
may hold a valid answer, ``{}`` for one, and may be accepted), when a
game ends or moves on, or when it takes longer than ``--max-seconds``; a credential case
fails when a planted key is accepted or shows in an error message, a redacted text or a
repr, or when an ordinary URL is refused or changed. Table on stdout,
JSON in ``benchmarks/results/hostile_input.json`` (``--quick``: ``hostile_input_quick.json``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

import negotiation_env
from benchmarks.machine import machine_info, write_result
from negotiation_env.analysis.judge import JudgeOutputError, load_taxonomy, validate_labels
from negotiation_env.core.jsontext import ParseError
from negotiation_env.games.matrix.parser import parse_message
from negotiation_env.games.resource.parser import parse_text as resource_parse
from negotiation_env.games.resource.scenario import ScenarioError, load_scenario
from negotiation_env.games.rulemaking.parser import parse_text as rulemaking_parse
from negotiation_env.games.rulemaking.scenario import ScenarioError as RMScenarioError
from negotiation_env.games.rulemaking.scenario import load_scenario as load_rm
from negotiation_env.core.secrets import KEY_PREFIXES, redact_text
from negotiation_env.runner.config import RunConfigError, load_config
from negotiation_env.traces import PolicyInfo

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "hostile_input.json"
QUICK_OUT = DEFAULT_OUT.with_name("hostile_input_quick.json")

FLOOD = ["{", '{"a":', '{"a"', "[", '{"speech":', "```", "```json\n{", "<think>", '"', "\\", "{ {", "{}{"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u3164", "\u2800", "\u0301", "\u202e",
             " ", "\t", "\x1b", "\u3000", "\U000e0041"]
RES = load_scenario("mc080_1")
RM = load_rm("E1")
GAME = negotiation_env.make_game("resource", theme="medieval")
GAME.reset(np.random.default_rng(0))
NAMES = GAME.names
TAX = load_taxonomy()


# --------------------------------------------------------------------------- cases


def numeral(rng) -> str:
    digits = "".join(rng.choice(list("0123456789"), size=int(rng.integers(101, 6001))))
    digits = "1" + digits[1:]
    return str(rng.choice(["", "-"])) + digits + str(rng.choice(["", ".5", "e7", "E-3"]))


def nesting(rng, limit: int) -> str:
    d = int(rng.integers(limit + 1, 5001))
    opener, closer = [("[", "]"), ('{"a": ', "}")][int(rng.integers(2))]
    return opener * d + "1" + (closer * d if rng.random() < 0.5 else "")


def flood(rng) -> str:
    piece = str(rng.choice(FLOOD))
    return (piece * (int(rng.integers(1_000, 100_001)) // len(piece) + 1))[:100_000]


def invisible(rng) -> str:
    return "".join(rng.choice(INVISIBLE, size=int(rng.integers(1, 7))))


def answer_case(cls: str, rng, game: str) -> str:
    """A model answer of ``game`` ('resource', 'rulemaking' or 'judge') with the attack."""
    if cls == "brace flood":
        return flood(rng)
    if game == "resource":
        if cls == "huge integer":
            return '{"thinking": "t", "speech": "s", "action": {"r1": %s}}' % numeral(rng)
        if cls == "deep nesting":
            return '{"speech": "s", "action": ' + nesting(rng, 32) + "}"
        if cls == "duplicate key":
            k = str(rng.choice(["speech", "action", "thinking"]))
            return '{"%s": "a", "speech": "s", "action": null, "%s": null}' % (k, k)
        return json.dumps({"thinking": "", "speech": invisible(rng), "action": None})
    if game == "rulemaking":
        if cls == "huge integer":
            return '{"move": "Support", "issue": null, "rationale": "r", "x": %s}' % numeral(rng)
        if cls == "deep nesting":
            return '{"move": "Support", "rationale": "r", "x": ' + nesting(rng, 32) + "}"
        if cls == "duplicate key":
            k = str(rng.choice(["move", "rationale", "issue"]))
            return '{"%s": null, "move": "Support", "issue": null, "rationale": "r", "%s": null}' % (k, k)
        return json.dumps({"move": str(rng.choice(["Support", "Counter"])), "issue": None, "rationale": invisible(rng)},
                          ensure_ascii=bool(rng.integers(2)))
    if cls == "huge integer":  # judge
        return '{"rounds": [{"round_number": %s}]}' % numeral(rng)
    if cls == "deep nesting":
        return '{"rounds": ' + nesting(rng, 32) + "}"
    return '{"rounds": [], "rounds": []}'


def scenario_case(cls: str, rng, doc: dict) -> str:
    text = json.dumps(doc)
    if cls == "huge integer":
        import re
        spots = [m.span() for m in re.finditer(r"(?<=: )-?\d+(\.\d+)?", text)]
        a, b = spots[int(rng.integers(len(spots)))]
        return text[:a] + numeral(rng) + text[b:]
    if cls == "deep nesting":
        return '{"meta": ' + nesting(rng, 100) + ", " + text[1:]
    if cls == "brace flood":
        return flood(rng)
    braces = [i for i, ch in enumerate(text) if ch == "{"]
    i = braces[int(rng.integers(len(braces)))]
    key = str(rng.choice(["name", "budget", "supply", "id", "p", "x"]))
    return text[:i + 1] + f'"{key}": 1, "{key}": 2, ' + text[i + 1:]


CONFIG_TAIL = {"yaml": "games:\n  - game: resource\n    policies: ['scripted:oracle']\n",
               "toml": "[[games]]\ngame = 'resource'\npolicies = ['scripted:oracle']\n"}


def config_case(cls: str, rng, fmt: str) -> tuple[str, bool]:
    """(file text, must it be refused?)"""
    tail = CONFIG_TAIL[fmt]
    if cls == "huge integer":
        return (f"seed: {numeral(rng)}\n" if fmt == "yaml" else f"seed = {numeral(rng)}\n") + tail, True
    if cls == "deep nesting":
        inner = nesting(rng, 32)
        inner = inner if fmt == "yaml" or inner.startswith("[") else inner.replace('{"a": ', "{a = ")
        line = f"    config: {{x: {inner}}}\n" if fmt == "yaml" else f"config = {{x = {inner}}}\n"
        return tail + line, True
    # alias bomb (YAML only)
    if rng.random() < 0.2:
        return tail + "    config: " + str(rng.choice(["&c {a: *c}", "{a: &l [*l]}", "&m {a: [1, {b: *m}]}"])) + "\n", True
    width, levels = int(rng.integers(2, 11)), int(rng.integers(1, 10))
    lines = ["a0: &a0 [" + ",".join(['"x"'] * width) + "]"]
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * width) + "]" for i in range(1, levels)]
    # a bomb past MAX_CONFIG_VALUES must be refused on load; a smaller one may load (it sits
    # in a game config field that does not exist, so the plan refuses it)
    return tail + "    config:\n      bomb: {" + ", ".join(lines) + "}\n", width ** levels > 100_000


def surrogate(rng) -> str:
    return chr(int(rng.integers(0xD800, 0xE000)))


def _insert(rng, text: str, s: str) -> str:
    i = int(rng.integers(len(text) + 1))
    return text[:i] + s + text[i:]


LONE_ANSWERS = {"resource": ({"thinking": "I think we share.", "speech": "Let us share the work.", "action": None},
                             ("thinking", "speech")),
                "rulemaking": ({"move": "Support", "issue": None, "rationale": "It serves the public."},
                               ("rationale", "move"))}


def lone_answer(rng, game: str, escaped: bool) -> str:
    """A JSON answer of ``game`` with a lone surrogate in one of its strings: written as
    the escape (``escaped``) or held raw in the Python string (a policy's answer)."""
    doc, fields = LONE_ANSWERS[game]
    doc = dict(doc)
    f = str(rng.choice(fields))
    doc[f] = _insert(rng, doc[f], surrogate(rng))
    text = json.dumps(doc, ensure_ascii=escaped)
    return text if escaped or rng.random() < 0.7 else _insert(rng, "Here it is: " + text, surrogate(rng))


def lone_json(rng, text: str) -> str:
    """``text`` (a JSON document) with a surrogate escape at the start of a random string
    value or key."""
    import re

    spots = [m.end() for m in re.finditer(r'[:,{\[]\s*"', text)]
    i = spots[int(rng.integers(len(spots)))]
    return text[:i] + "\\u%04x" % ord(surrogate(rng)) + text[i:]


def lone_config(rng, fmt: str) -> str:
    """A run config with a lone surrogate escape in one of its strings (or a key)."""
    s = "\\u%04x" % ord(surrogate(rng))
    names = {"name": "enc", "cond": "talk", "set": "s", "label": "oracle"}
    which = str(rng.choice(list(names) + ["key"]))
    if which != "key":
        names[which] = _insert(rng, names[which], s)
    if fmt == "toml":
        return (f'name = "{names["name"]}"\n[[games]]\ngame = "resource"\n'
                f'policies = [{{ spec = "scripted:oracle", label = "{names["label"]}" }}]\n'
                f'[games.scenario_sets]\n"{names["set"]}" = ["mc080_1"]\n'
                f'[[games.conditions]]\nname = "{names["cond"]}"\n'
                + (f'config = {{ "x{s}" = 1 }}\n' if which == "key" else ""))
    return (f'name: "{names["name"]}"\ngames:\n  - game: resource\n'
            f'    policies: [{{spec: "scripted:oracle", label: "{names["label"]}"}}]\n'
            f'    scenario_sets: {{"{names["set"]}": ["mc080_1"]}}\n'
            f'    conditions:\n      - name: "{names["cond"]}"\n'
            + (f'        config: {{"x{s}": 1}}\n' if which == "key" else ""))


# --------------------------------------------------------------------------- targets


def _file(text: str, suffix: str) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False, encoding="utf-8") as f:
        f.write(text)
    return f.name


def _env_step(game: str, text: str) -> None:
    env = negotiation_env.env(game=game, **({"num_rounds": 1} if game == "resource" else {}))
    env.reset(seed=0)
    who = env.agent_selection
    env.step(text)
    if any(env.terminations.values()) or any(env.truncations.values()):
        raise AssertionError("the game ended")
    if not any(e["type"] == "validation_error" for e in env.infos[who]["events"]):
        raise AssertionError("accepted")  # the turn counted: right only where the text held a valid answer
    if env.agent_selection != who:
        raise AssertionError("refused, but the game moved on")


def _lone_env(game: str, rng, parallel: bool) -> str:
    """Step ``game`` (AEC or parallel) with an answer holding a lone surrogate (escaped
    or raw): asked again, or taken repaired with an event; nothing unencodable may be
    left in any observation or info."""
    from negotiation_env.core.encodable import first_unencodable

    env = (negotiation_env.parallel_env if parallel else negotiation_env.env)(
        game=game, **({"num_rounds": 1} if game == "resource" else {}))
    if parallel:
        obs, infos = env.reset(seed=0)
        who = env.unwrapped.game.acting()[0]
    else:
        env.reset(seed=0)
        who = env.agent_selection
    if game == "matrix":
        while env.unwrapped.game.phase == "acknowledge":
            if parallel:
                env.step({a: "Understood." for a in env.unwrapped.game.acting()})
            else:
                env.step("Understood.")
        who = env.unwrapped.game.acting()[0]
        text = _insert(rng, "I will play A this round.", surrogate(rng))
        if rng.random() < 0.5:
            text = {"message": text}
    else:
        text = lone_answer(rng, game, bool(rng.integers(2)))
    if parallel:
        obs, _r, terms, truncs, infos = env.step({a: (text if a == who else "B")
                                                  for a in env.unwrapped.game.acting()})
        events = infos[who]["events"]
        views = [obs, infos]
        ended = any(terms.values()) or any(truncs.values())
    else:
        env.step(text)
        events = env.infos[who]["events"]
        views = [{a: env.observe(a) for a in env.possible_agents}, env.infos]
        ended = any(env.terminations.values()) or any(env.truncations.values())
    if ended:
        raise AssertionError("the game ended")
    for v in views:
        found = first_unencodable(v)
        if found is not None:
            raise AssertionError(f"unencodable text left at {found[0]}")
    kinds = {e["type"] for e in events}
    if "validation_error" in kinds:
        if who not in env.unwrapped.game.acting():
            raise AssertionError("refused, but the game moved on")
        return "asked again"
    if "answer_unencodable" not in kinds:
        raise AssertionError(f"taken with no answer_unencodable event: {sorted(kinds)}")
    return "taken repaired, with an event"


_TRACE_LINES: list[str] = []


def _trace_lines() -> list[str]:
    """Three recorded resource games, one trace line each (made once)."""
    if not _TRACE_LINES:
        from negotiation_env.traces import record
        from negotiation_env.traces.writer import encode_trace
        from baselines.scripted import make as make_resource

        env = negotiation_env.env(game="resource", num_rounds=1)
        pols = {a: make_resource("oracle", seed=1) for a in env.possible_agents}
        rec = record(env, policies=pols)
        for seed in range(3):
            rec.reset(seed=seed)
            for agent in rec.agent_iter():
                obs, _, term, trunc, _ = rec.last()
                rec.step(None if term or trunc else pols[agent].act(obs))
            _TRACE_LINES.append(encode_trace(rec.last_trace).decode("utf-8"))
    return _TRACE_LINES


def _lone_trace(rng) -> str:
    """A trace file whose one line holds a lone surrogate escape: reported as that line,
    the other games read and exported."""
    from negotiation_env.traces import read_traces
    from negotiation_env.traces.export import sft_examples

    lines = list(_trace_lines())
    k = int(rng.integers(len(lines)))
    lines[k] = lone_json(rng, lines[k].rstrip("\n")) + "\n"
    path = _file("".join(lines), ".jsonl")
    quiet = logging.getLogger("negotiation_env.traces.reader")
    level, quiet.level = quiet.level, logging.ERROR  # the skipped line is the case's expected outcome
    try:
        res = read_traces(path)
        probs = [(p.line, p.kind) for p in res.problems]
        if probs != [(k + 1, "undecodable")] or "surrogate" not in res.problems[0].message:
            raise AssertionError(f"problems {probs}")
        if len(res.traces) != len(lines) - 1:
            raise AssertionError(f"{len(res.traces)} games read of {len(lines) - 1}")
        rows = list(sft_examples(path))
        if not rows:
            raise AssertionError("nothing exported")
        for r in rows:
            json.dumps(r, ensure_ascii=False).encode("utf-8")
    finally:
        quiet.setLevel(level)
        os.unlink(path)
    return "line reported, the rest read and exported"


def _refused(call: Callable[[], Any], error: type[BaseException]) -> None:
    try:
        call()
    except error:
        return
    raise AssertionError("accepted")


TARGETS: dict[str, tuple[tuple[str, ...], Callable[[str, Any], None]]] = {
    # target -> (classes it takes, run(class, rng))
    "resource parser": (("huge integer", "deep nesting", "brace flood", "duplicate key", "invisible text"),
                        lambda c, rng: _refused(lambda: resource_parse(answer_case(c, rng, "resource"), RES, "agent_a",
                                                                       NAMES, require_decision=False), ParseError)),
    "resource env": (("huge integer", "deep nesting", "brace flood", "duplicate key", "invisible text"),
                     lambda c, rng: _env_step("resource", answer_case(c, rng, "resource"))),
    "rulemaking parser": (("huge integer", "deep nesting", "brace flood", "duplicate key", "invisible text"),
                          lambda c, rng: _refused(lambda: rulemaking_parse(answer_case(c, rng, "rulemaking"), RM,
                                                                           "none"), ParseError)),
    "rulemaking env": (("huge integer", "deep nesting", "brace flood", "duplicate key", "invisible text"),
                       lambda c, rng: _env_step("rulemaking", answer_case(c, rng, "rulemaking"))),
    "matrix message": (("invisible text",), lambda c, rng: _refused(lambda: parse_message(invisible(rng)), ParseError)),
    "judge validator": (("huge integer", "deep nesting", "brace flood", "duplicate key"),
                        lambda c, rng: _refused(lambda: validate_labels(answer_case(c, rng, "judge"), 1, TAX),
                                                JudgeOutputError)),
    "resource scenario file": (("huge integer", "deep nesting", "brace flood", "duplicate key"),
                               lambda c, rng: _load(load_scenario, scenario_case(c, rng, RES.to_dict()), ".json",
                                                    ScenarioError)),
    "rulemaking scenario file": (("huge integer", "deep nesting", "brace flood", "duplicate key"),
                                 lambda c, rng: _load(load_rm, scenario_case(c, rng, RM.to_dict()), ".json",
                                                      RMScenarioError)),
    "run config (YAML)": (("huge integer", "deep nesting", "alias bomb"), lambda c, rng: _config(c, rng)),
    "run config (TOML)": (("huge integer", "deep nesting"),
                          lambda c, rng: _load(load_config, config_case(c, rng, "toml")[0], ".toml", RunConfigError)),
    **{f"{g} render": (("forged rendering",), lambda c, rng, g=g: _forged_rendering(g, rng))
       for g in ("resource", "matrix", "rulemaking")},
    **{f"{g} API": (("unknown agent",), lambda c, rng, g=g: _unknown_agent(g, rng))
       for g in ("resource", "matrix", "rulemaking")},
    # --- lone surrogate only
    "resource parser (escaped)": (("lone surrogate",), lambda c, rng: _refused(
        lambda: resource_parse(lone_answer(rng, "resource", True), RES, "agent_a", NAMES, require_decision=False),
        ParseError)),
    "rulemaking parser (escaped)": (("lone surrogate",), lambda c, rng: _refused(
        lambda: rulemaking_parse(lone_answer(rng, "rulemaking", True), RM, "none"), ParseError)),
    "resource env (AEC)": (("lone surrogate",), lambda c, rng: _lone_env("resource", rng, False)),
    "resource env (parallel)": (("lone surrogate",), lambda c, rng: _lone_env("resource", rng, True)),
    "rulemaking env (AEC)": (("lone surrogate",), lambda c, rng: _lone_env("rulemaking", rng, False)),
    "rulemaking env (parallel)": (("lone surrogate",), lambda c, rng: _lone_env("rulemaking", rng, True)),
    "matrix env (AEC)": (("lone surrogate",), lambda c, rng: _lone_env("matrix", rng, False)),
    "matrix env (parallel)": (("lone surrogate",), lambda c, rng: _lone_env("matrix", rng, True)),
    "resource scenario file (escaped)": (("lone surrogate",), lambda c, rng: _load(
        load_scenario, lone_json(rng, json.dumps(RES.to_dict())), ".json", ScenarioError)),
    "rulemaking scenario file (escaped)": (("lone surrogate",), lambda c, rng: _load(
        load_rm, lone_json(rng, json.dumps(RM.to_dict())), ".json", RMScenarioError)),
    "run config YAML (escaped)": (("lone surrogate",), lambda c, rng: _load(
        load_config, lone_config(rng, "yaml"), ".yaml", RunConfigError)),
    "run config TOML (escaped)": (("lone surrogate",), lambda c, rng: _load(
        load_config, lone_config(rng, "toml"), ".toml", RunConfigError)),
    "trace file (reader, export)": (("lone surrogate",), lambda c, rng: _lone_trace(rng)),
}


SECRET_NAMES = ("key", "api_key", "apikey", "api-key", "X-Api-Key", "token", "access_token", "auth", "Authorization",
                "code", "sig", "signature", "jwt", "bearer", "secret", "client_secret", "password", "passwd", "pwd",
                "session", "sid", "credential", "subscription-key", "auth_token")
ORDINARY_URLS = ("http://localhost:8000/v1", "http://127.0.0.1:30000/v1", "https://api.openai.com/v1",
                 "https://openrouter.ai/api/v1", "https://api.together.xyz/v1", "https://api.groq.com/openai/v1",
                 "https://myres.openai.azure.com/openai/deployments/gpt-4o-mini?api-version=2024-02-01",
                 "https://api-inference.huggingface.co/models/meta-llama/Meta-Llama-3-8B-Instruct/v1",
                 "https://api-inference.huggingface.co/models/Qwen/Qwen2.5-7B-Instruct/v1",
                 "https://api.runpod.ai/v2/abc123xyz4567/openai/v1", "http://gpu-node-07.cluster.local:8080/v1/",
                 "https://org--vllm-serve.modal.run/v1", "http://[::1]:8000/v1", "https://host/v1#section",
                 "https://host/v1?model=DeepSeek-R1-Distill-Qwen-32B&max_tokens=64")
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _draw(rng, alphabet: str, lo: int, hi: int) -> str:
    return "".join(alphabet[i] for i in rng.integers(0, len(alphabet), int(rng.integers(lo, hi + 1))))


def planted_key(rng, kind: str) -> str:
    """A key of ``kind``: 'prefix' (a known prefix and a random body), 'hex' or 'random'
    (letters and digits mixed, as a random draw mixes them)."""
    if kind == "prefix":
        return str(rng.choice(KEY_PREFIXES)) + _draw(rng, _ALNUM, 16, 40)
    if kind == "hex":
        return _draw(rng, "0123456789abcdef", 32, 64)
    while True:
        key = _draw(rng, _ALNUM, 24, 48)
        if any(c.isdigit() for c in key) and any(c.isalpha() for c in key):
            return key


def credential_url(rng) -> tuple[str, str | None]:
    """(a policy URL, the key planted in it, or None for an ordinary URL)."""
    if rng.random() < 0.25:
        return str(rng.choice(ORDINARY_URLS)), None
    base = str(rng.choice(ORDINARY_URLS[:6]))
    scheme, rest = base.split("://", 1)
    host, path = rest.split("/", 1)
    shape = str(rng.choice(["user", "user:password", "query", "fragment", "matrix", "segment", "any name"]))
    key = planted_key(rng, str(rng.choice(["prefix", "hex", "random"])))
    name = str(rng.choice(SECRET_NAMES))
    if shape == "user":
        return f"{scheme}://{key}@{host}/{path}", key
    if shape == "user:password":
        return f"{scheme}://me:{key}@{host}/{path}", key
    if shape == "query":
        return f"{base}?model=m&{name}={key}", key
    if shape == "fragment":
        return f"{base}#{name}={key}", key
    if shape == "matrix":
        return f"{scheme}://{host}/{path.rstrip('/')};{name}={key}/chat", key
    if shape == "segment":
        return f"{scheme}://{host}/{key}/{path}", key
    return f"{base}?{str(rng.choice(['q', 'x', 'ref', 'id']))}={key}", key


def _credential(target: str, rng) -> str:
    url, key = credential_url(rng)
    leak = "the planted key shows in the "
    if target == "redact and repr":
        texts = [redact_text(url), repr(PolicyInfo(spec=f"openai:m@{url}", settings={"base_url": url}))]
        pol = _policy()
        pol.client.base_url = url
        texts.append(repr(pol))
        if key is None:
            if texts[0] != url:
                raise AssertionError("an ordinary URL was changed by redaction")
            return "kept (ordinary URL)"
        if any(key in t for t in texts):
            raise AssertionError(leak + "redacted text or a repr")
        return "blanked"
    try:
        if target == "API client":
            from baselines.llm.api import APIClient

            APIClient("m", url, api_key="EMPTY")
        else:
            spec, options = (f"openai:m@{url}", {}) if target == "run config (spec)" else ("openai:m", {"base_url": url})
            path = _file(json.dumps({"games": [{"game": "matrix", "policies": [
                {"spec": spec, "label": "model", "options": options}]}]}), ".yaml")
            try:
                load_config(path)
            finally:
                os.unlink(path)
    except (RunConfigError, ValueError) as e:
        if key is None:
            raise AssertionError(f"an ordinary URL was refused: {e}") from None
        if key in str(e):
            raise AssertionError(leak + "error message") from None
        return "refused"
    if key is not None:
        raise AssertionError("accepted")
    return "accepted (ordinary URL)"


_POLICY: list = []


def _policy():
    """One API policy (building the HTTP client once)."""
    if not _POLICY:
        from baselines.llm.api import APIPolicy

        _POLICY.append(APIPolicy("m", "http://127.0.0.1:9/v1"))
    return _POLICY[0]


for _target in ("run config (spec)", "run config (base_url)", "API client", "redact and repr"):
    TARGETS[_target] = (("credential in URL",), lambda c, rng, t=_target: _credential(t, rng))


def _config(cls: str, rng) -> str | None:
    """Load a YAML case; one that may load must then be refused by the plan."""
    text, must_refuse = config_case(cls, rng, "yaml")
    if must_refuse:
        return _load(load_config, text, ".yaml", RunConfigError)
    path = _file(text, ".yaml")
    try:
        from negotiation_env.runner import make_plan

        _refused(lambda: make_plan(load_config(path)), RunConfigError)
    finally:
        os.unlink(path)
    return "loaded, refused by the plan"


def _load(loader, text: str, suffix: str, error) -> None:
    path = _file(text, suffix)
    try:
        _refused(lambda: loader(path), error)
    finally:
        os.unlink(path)


#: what a terminal acts on rather than shows (the newline between lines aside)
_ACTS = frozenset(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x2028, 0x202F),
                                   *range(0x2066, 0x206A)]) - {"\n"}
_BREAKS = ("\n", "\r\n", "\r", "\u2028", "\x85")
_FAKE_LINES = ("Result: agent_a earns 999 · joint 999 of M=32", "=== Game over ===", "=== Round 7/4 ===",
               "Turn 99, authority: Support — agreed", "[fallback] agent_b: zero decision substituted",
               "Result round 9: AA · points agent_0 99, agent_1 0")
_SEQUENCES = ("\x1b[2J", "\x1b[H", "\x1b[10;10H", "\x1b[1A\x1b[2K", "\x1b]0;pwned\x07", "\x1b]8;;http://x\x1b\\",
              "\x9b31m", "\x9d0;title\x9c", "\x08\x08\x08", "\x7f", "\x00", "\x1bc")
_BIDI = ("\u202e", "\u202d", "\u2066", "\u2067", "\u2069", "\u200f", "\u061c")


def forged_text(rng) -> str:
    pieces = []
    for _ in range(int(rng.integers(3, 9))):
        kind = int(rng.integers(4))
        if kind == 0:
            pieces.append(_BREAKS[int(rng.integers(len(_BREAKS)))] + _FAKE_LINES[int(rng.integers(len(_FAKE_LINES)))])
        elif kind == 1:
            pieces.append(_SEQUENCES[int(rng.integers(len(_SEQUENCES)))])
        elif kind == 2:
            pieces.append(_BIDI[int(rng.integers(len(_BIDI)))] + "evil")
        else:
            pieces.append(_BREAKS[int(rng.integers(len(_BREAKS)))])
    return "ok" + "".join(pieces)


def _forged_rendering(game: str, rng) -> str:
    import contextlib
    import io

    text = forged_text(rng)
    out = []
    for mode in ("ansi", "human"):
        env = negotiation_env.env(game=game, render_mode=mode, **({"num_rounds": 1} if game != "rulemaking" else {}))
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            env.reset(seed=0)
            if game == "resource":
                env.step(json.dumps({"thinking": text, "speech": text, "action": None}))
            elif game == "matrix":
                env.step("ok")
                env.step("ok")
                env.step(text)
                env.step(text)
            else:
                env.step(json.dumps({"move": "Counter", "issue": None, "rationale": text}))
        out.append(env.render() if mode == "ansi" else buf.getvalue())
    for rendering in out:
        bad = _ACTS & set(rendering)
        if bad:
            raise AssertionError(f"control characters {sorted(bad)!r} in the rendering")
        forged = [ln for ln in rendering.splitlines() if ln.startswith(_FAKE_LINES)]
        if forged:
            raise AssertionError(f"forged line {forged[0][:60]!r}")
    return "escaped"


_ENVS: dict[tuple[str, str], Any] = {}
_WRONG_NAMES = ("agent_0", "agent_a", "authority", "AGENT_A", " agent_a", "agent_a ", "agent_b\n", "", "nobody",
                "__class__", "agent_\u0430")


def _wrong_agent(rng) -> Any:
    k = int(rng.integers(8))
    if k < 3:
        return _WRONG_NAMES[int(rng.integers(len(_WRONG_NAMES)))]
    if k == 3:
        return "".join(chr(int(c)) for c in rng.integers(0x21, 0x7F, size=int(rng.integers(1, 12))))
    return (int(rng.integers(-5, 5)), None, ("agent_a",), ["agent_a"], {"agent": 1})[k - 4]


def _unknown_agent(game: str, rng) -> str:
    key = (game, "aec")
    if key not in _ENVS:
        _ENVS[key] = negotiation_env.env(game=game)
        _ENVS[(game, "parallel")] = negotiation_env.parallel_env(game=game)
        _ENVS[key].reset(seed=0)
        _ENVS[(game, "parallel")].reset(seed=0)
    aec, par = _ENVS[key], _ENVS[(game, "parallel")]
    agents = list(aec.possible_agents)
    wrong = _wrong_agent(rng)
    if isinstance(wrong, str) and wrong in agents:
        wrong = wrong + "?"
    call = int(rng.integers(5))
    if call == 4 and isinstance(wrong, (list, dict)):
        call = 0  # no dict can hold an unhashable key: ask observe instead
    try:
        if call == 0:
            aec.observe(wrong)
        elif call == 1:
            par.observe(wrong)
        elif call == 2:
            (aec if rng.integers(2) else par).observation_space(wrong)
        elif call == 3:
            (aec if rng.integers(2) else par).action_space(wrong)
        else:
            par.step({**{a: "x" for a in par.agents}, wrong: "y"})
    except ValueError as e:
        missing = [a for a in agents if a not in str(e)]
        if missing:
            raise AssertionError(f"ValueError naming not {missing}: {e}") from None
        return "refused"
    raise AssertionError("accepted")


CLASSES = ("huge integer", "deep nesting", "brace flood", "alias bomb", "duplicate key", "invisible text",
           "forged rendering", "unknown agent", "credential in URL", "lone surrogate")
#: classes whose text may hold a valid answer (a flood of "{}{" starts with the empty object,
#: an empty purchase): accepting it is right, so only an escaping exception or the time fails
MAY_ACCEPT = ("brace flood",)


def run(cases: int, seed: int, max_seconds: float, only: tuple[str, ...] = ()) -> dict[str, Any]:
    rows = []
    for ci, cls in enumerate(CLASSES):
        if only and cls not in only:
            continue
        for ti, (target, (classes, fn)) in enumerate(TARGETS.items()):
            if cls not in classes:
                continue
            rng = np.random.default_rng([seed, ci, ti])
            failures: list[str] = []
            outcomes: dict[str, int] = {}
            worst = 0.0
            for _ in range(cases):
                t0 = time.perf_counter()
                try:
                    how = fn(cls, rng) or "refused"
                except Exception as e:  # noqa: BLE001 - any escape is the failure being counted
                    if str(e) == "accepted" and cls in MAY_ACCEPT:
                        how = "accepted (valid answer inside)"
                    else:
                        how = "failed"
                        failures.append(f"{type(e).__name__}: {str(e)[:120]}")
                outcomes[how] = outcomes.get(how, 0) + 1
                dt = time.perf_counter() - t0
                worst = max(worst, dt)
                if dt > max_seconds:
                    failures.append(f"took {dt:.2f} s")
            rows.append({"class": cls, "target": target, "cases": cases, "failures": len(failures),
                         "outcomes": outcomes, "failure_examples": failures[:3], "max_seconds": worst})
    return {"cases_per_target": cases, "seed": seed, "max_seconds_allowed": max_seconds, "rows": rows,
            "by_class": {c: {"cases": sum(r["cases"] for r in rows if r["class"] == c),
                             "targets": [r["target"] for r in rows if r["class"] == c],
                             "failures": sum(r["failures"] for r in rows if r["class"] == c)}
                         for c in CLASSES if not only or c in only}}


def print_tables(result: dict[str, Any]) -> None:
    print(f"Hostile input: {result['cases_per_target']} cases per class and target (seed {result['seed']})")
    w = max(len(r["target"]) for r in result["rows"])
    print(f"{'class':17s} {'target':{w}s} {'cases':>6s} {'failures':>8s} {'max s':>7s}  outcomes")
    for r in result["rows"]:
        how = ", ".join(f"{k} {v}" for k, v in r["outcomes"].items())
        print(f"{r['class']:17s} {r['target']:{w}s} {r['cases']:6d} {r['failures']:8d} {r['max_seconds']:7.3f}  {how}")
        for ex in r["failure_examples"]:
            print(f"    {ex}")
    print()
    print(f"{'class':17s} {'cases':>6s} {'failures':>8s}  targets")
    for c, v in result["by_class"].items():
        print(f"{c:17s} {v['cases']:6d} {v['failures']:8d}  {', '.join(v['targets'])}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="10 cases per class and target")
    p.add_argument("--cases", type=int, default=None, help="cases per class and target (default 100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-seconds", type=float, default=2.0, help="a case slower than this fails (default 2)")
    p.add_argument("--out", type=Path, default=None, help="JSON output path")
    p.add_argument("--class", dest="only", action="append", choices=CLASSES, default=[],
                   help="run only this class (repeatable)")
    args = p.parse_args(argv)
    cases = args.cases or (10 if args.quick else 100)
    t0 = time.perf_counter()
    result = run(cases, args.seed, args.max_seconds, tuple(args.only))
    result["seconds_total"] = time.perf_counter() - t0
    result["machine"] = machine_info()
    result["command"] = " ".join(["python", "benchmarks/hostile_input.py", *(argv if argv is not None else sys.argv[1:])])
    print_tables(result)
    write_result(args.out or (QUICK_OUT if args.quick else DEFAULT_OUT), result)
    total = sum(r["failures"] for r in result["rows"])
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
