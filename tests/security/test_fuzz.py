"""Property-based fuzzing of every text parser and loader: the only outcomes allowed are a
parsed value or the typed error with its message, never a crash.

The default suite runs ``FUZZ_EXAMPLES`` (300) cases per target (the three games' parsers, the
judge-output validator, the human-label CSV, scenario, game-config and run-config loaders). The long run:

    NEGOTIATION_ENV_FUZZ_EXAMPLES=10000 pytest tests/security/test_fuzz.py

Strategies mix free text (control characters, astral-plane characters, look-alike
letters), JSON-shaped text built from the fields each parser knows (NaN, Infinity,
negative, float and huge quantities, unknown names, deep nesting, duplicate keys,
``<think>`` without its end), and JSON documents for the loaders. Hostile input of issue
19 on top: numerals of up to 6,000 digits, floods of up to 30,000 repeated openers
(``{``, ``{"a":``, ``[``, code fences, ``<think>``), nesting up to 5,000 levels, and
speech or rationale made only of invisible characters; scenario files as text with those
pieces spliced in; YAML run configs with alias bombs, cyclic aliases, long numbers and
deep nesting. Each has one allowed outcome: the typed error, with a message.
"""

from __future__ import annotations

import json
import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import negotiation_env
from negotiation_env.core.config import ConfigError
from negotiation_env.core.visible import is_blank
from negotiation_env.core.jsontext import ParseError, extract_json_object
from negotiation_env.games.resource.parser import parse_text as resource_parse
from negotiation_env.games.resource.scenario import Scenario, ScenarioError, load_scenario
from negotiation_env.games.matrix.parser import parse_action as matrix_action
from negotiation_env.games.matrix.parser import parse_message as matrix_message
from negotiation_env.games.matrix.parser import parse_structured as matrix_structured
from negotiation_env.games.rulemaking.parser import parse_text as rulemaking_parse
from negotiation_env.games.rulemaking.scenario import RulemakingScenario, load_scenario as load_rm
from negotiation_env.games.rulemaking.scenario import ScenarioError as RMScenarioError
from negotiation_env.analysis.judge import (HumanLabelError, JudgeOutputError, load_taxonomy, read_human_labels,
                                            validate_labels)
from negotiation_env.runner.config import RunConfigError, load_config, parse_config

FUZZ_EXAMPLES = int(os.environ.get("NEGOTIATION_ENV_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

RES = load_scenario("mc080_1")
RES_NAMES = negotiation_env.make_game("resource", theme="medieval")
RES_NAMES.reset(__import__("numpy").random.default_rng(0))
NAMES = RES_NAMES.names
RM = load_rm("E1")

LOOKALIKES = ["ｗｏｏｄ", "wооd", "Ｓupport", "Соnсede", "r１", "project_а"]  # fullwidth, Cyrillic
WORDS = list(NAMES.display.values()) + list(NAMES.display) + ["project_a", "project_b", "projects", "thinking",
                                                               "speech", "action", "move", "issue", "rationale",
                                                               "ledger", "notes", "Support", "Exit", "hedging",
                                                               "unknown_resource"] + LOOKALIKES
class _HugeInt(int):
    """``sign * 10**exponent`` past Python's 4,300-digit print limit, with a repr hypothesis
    can print (``repr`` of the plain int raises ValueError, in hypothesis's own reports
    too) and its JSON text (json.dumps refuses it)."""

    def __new__(cls, exponent: int, sign: int = 1):
        obj = super().__new__(cls, sign * 10**exponent)
        obj.text = ("-" if sign < 0 else "") + "1" + "0" * exponent
        return obj

    def __repr__(self) -> str:
        return f"<{self.text[:3]}... of {len(self.text)} characters>"


NUMBERS = st.one_of(st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([0, 1, 2, -1, 3.0, 2.5, 1e308, -0.0, 2**63, 10**99, 10**100, 10**4000]),
                    # past 4,300 digits (in text: see _numeral)
                    st.sampled_from([_HugeInt(5000), _HugeInt(5000, -1), _HugeInt(4301)]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=40), st.sampled_from(WORDS))
JSON_VALUES = st.recursive(SCALARS, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=8), kids, max_size=5)),
    max_leaves=20)


def _dumps(v):
    try:
        return json.dumps(v, allow_nan=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return "{}"


INVISIBLE = st.lists(st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u3164",
                                       "\u2800", "\u0301", "\u202e", " ", "\t", "\x1b", "\u3000"]),
                     min_size=1, max_size=6).map("".join)
FLOOD_PIECES = ["{", '{"a":', '{"a"', "[", '{"speech":', "```", "```json\n{", "<think>", '"', "\\", "1", "-"]


@st.composite
def _numeral(draw):
    """A JSON numeral of up to 6,000 digits (json.dumps cannot write past 4,300)."""
    digits = "".join(draw(st.lists(st.sampled_from("0123456789"), min_size=1, max_size=4))) * draw(
        st.integers(1, 1500))
    digits = digits.lstrip("0") or "0"
    tail = draw(st.sampled_from(["", ".5", "e10", "e400", "E-400", ".0" + "0" * 50]))
    return draw(st.sampled_from(["", "-"])) + digits + tail


@st.composite
def adversarial_text(draw):
    kind = draw(st.integers(0, 10))
    if kind == 0:
        return draw(st.text(max_size=400))
    if kind == 1:  # a JSON object of known fields
        return _dumps(draw(st.dictionaries(st.sampled_from(WORDS), JSON_VALUES, max_size=6)))
    if kind == 2:  # duplicate keys
        k = draw(st.sampled_from(WORDS))
        return '{"%s": %s, "%s": %s}' % (k, _dumps(draw(JSON_VALUES)), k, _dumps(draw(JSON_VALUES)))
    if kind == 3:  # deep nesting
        d = draw(st.integers(1, 80))
        return '{"action": ' + "[" * d + "1" + "]" * d + "}"
    if kind == 4:  # think span without its end, then JSON
        return "<think>" + draw(st.text(max_size=50)) + _dumps(draw(JSON_VALUES))
    if kind == 5:  # a valid-looking answer with a hostile value
        number = draw(NUMBERS)
        text = json.dumps({"thinking": draw(st.text(max_size=30)), "speech": draw(st.text(max_size=30)),
                           "action": {draw(st.sampled_from(WORDS)): "@NUMBER@",
                                      "projects": json.loads(_dumps(draw(JSON_VALUES)))}}, allow_nan=True)
        return text.replace('"@NUMBER@"', number.text if isinstance(number, _HugeInt) else _dumps(number), 1)
    if kind == 7:  # a huge numeral where a number or any value goes
        n = draw(_numeral())
        return draw(st.sampled_from([
            '{"thinking": "t", "speech": "s", "action": {"%s": %s}}' % (draw(st.sampled_from(WORDS)), n),
            '{"speech": "s", "action": {"projects": {"project_a": %s}}}' % n,
            '{"move": "Support", "issue": null, "rationale": "r", "x": %s}' % n,
            '{"move": %s, "rationale": "r"}' % n, n]))
    if kind == 8:  # a flood of openers, maybe ending in a valid answer
        body = draw(st.sampled_from(FLOOD_PIECES)) * draw(st.integers(1, 30_000))
        return body + draw(st.sampled_from(["", '{"speech": "hi", "action": null}', '{"move": "Exit", "rationale": "r"}']))
    if kind == 9:  # nesting up to 5,000 levels, closed or not
        d = draw(st.integers(1, 5000))
        opener = draw(st.sampled_from(["[", '{"a": ', '{"action": ']))
        closer = {"[": "]", '{"a": ': "}", '{"action": ': "}"}[opener]
        return '{"speech": "s", "action": ' + opener * d + "1" + closer * draw(st.sampled_from([0, d])) + "}"
    if kind == 10:  # required text made only of invisible characters
        inv = draw(INVISIBLE)
        return draw(st.sampled_from([json.dumps({"thinking": "", "speech": inv, "action": None}),
                                     json.dumps({"move": "Support", "issue": None, "rationale": inv}),
                                     json.dumps({"move": "Counter", "rationale": inv}, ensure_ascii=False)]))
    # prose with a fenced JSON block and control characters
    return draw(st.text(max_size=30)) + "```json\n" + _dumps(draw(JSON_VALUES)) + "\n```\x00\x07" + draw(st.text(max_size=10))


@FUZZ
@given(adversarial_text())
def test_json_extraction(text):
    try:
        obj, warnings = extract_json_object(text)
    except ParseError as e:
        assert str(e)
    else:
        assert isinstance(obj, dict) and all(isinstance(w, str) for w in warnings)


@FUZZ
@given(adversarial_text(), st.booleans(), st.sampled_from(["agent_a", "agent_b"]))
def test_resource_action_parser(text, decision, agent):
    try:
        turn = resource_parse(text, RES, agent, NAMES, require_decision=decision)
    except ParseError as e:
        assert str(e)
    else:
        if turn.decision is None:
            assert not is_blank(turn.speech)  # a talk turn says something
        if turn.decision is not None:
            assert all(isinstance(q, int) and q >= 0 for _, q in turn.decision.purchase)
            assert sum(q * RES.resource(r).cost for r, q in turn.decision.purchase) <= RES.budget + 1e-9
        assert not decision or turn.decision is not None


@FUZZ
@given(adversarial_text(), st.sampled_from(["none", "ledger", "notes", "notebook_message", "native"]))
def test_rulemaking_move_parser(text, condition):
    try:
        mv = rulemaking_parse(text, RM, condition)
    except ParseError as e:
        assert str(e)
    else:
        assert mv.move in ("Support", "Oppose", "Concede", "Counter", "Exit")
        assert mv.issue is None or mv.issue in RM.issue_ids
        assert not is_blank(mv.rationale)


MATRIX_TEXT = st.one_of(adversarial_text(), st.lists(st.sampled_from(
    ["<think>", "</think>", "<THINK>", "A", "B", "a", "b", " ", "\n", "Á", "Ａ", "AB", "I choose", "\x00"]),
    max_size=40).map("".join))


@FUZZ
@given(MATRIX_TEXT, st.one_of(JSON_VALUES, st.dictionaries(st.sampled_from(["message", "action"]), JSON_VALUES)),
       st.sampled_from(["message", "action", "acknowledge"]))
def test_matrix_parsers(text, structured, phase):
    try:
        assert matrix_action(text).value in ("A", "B")
    except ParseError as e:
        assert str(e)
    try:
        m = matrix_message(text).value
        assert m and m == m.strip() and "<think>" not in m.lower()  # every opening tag is reasoning
    except ParseError as e:
        assert str(e)
    try:
        v = matrix_structured(structured, phase).value
        assert v in ("A", "B") if phase == "action" else isinstance(v, str) and v
    except ParseError as e:
        assert str(e)


def _mutate(doc, path, value):
    """A copy of ``doc`` with the element at ``path`` replaced (or a key added)."""
    doc = json.loads(json.dumps(doc))
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return doc


def _paths(doc, prefix=()):
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


RES_DOC = RES.to_dict()
RM_DOC = RM.to_dict()


@FUZZ
@given(st.data())
def test_resource_scenario_loader(data):
    path = data.draw(st.sampled_from(_paths(RES_DOC)))
    doc = _mutate(RES_DOC, path, data.draw(JSON_VALUES))
    try:
        Scenario.from_dict(doc, source="fuzz")
    except ScenarioError as e:
        assert str(e).startswith("fuzz")


@FUZZ
@given(st.data())
def test_rulemaking_scenario_loader(data):
    path = data.draw(st.sampled_from(_paths(RM_DOC)))
    doc = _mutate(RM_DOC, path, data.draw(JSON_VALUES))
    try:
        RulemakingScenario.from_dict(doc, source="fuzz")
    except RMScenarioError as e:
        assert "fuzz" in str(e)


@FUZZ
@given(st.sampled_from(["resource", "rulemaking", "matrix"]),
       st.dictionaries(st.sampled_from(["num_rounds", "cheap_talk_turns", "theme", "partner", "rotation", "condition",
                                        "environment", "max_turns", "consensus_share", "scenario", "fallback",
                                        "max_retries", "reward", "stage_game", "framing", "treatment", "on_error",
                                        "agent_names", "max_message_chars", "message_text", "bogus"]),
                       SCALARS, max_size=3))
def test_game_config_builder(game, kwargs):
    try:
        negotiation_env.make_game(game, **kwargs)
    except ConfigError as e:
        assert str(e)


@FUZZ
@given(st.dictionaries(st.sampled_from(["name", "seed", "games", "bogus"]), JSON_VALUES, max_size=4),
       st.dictionaries(st.sampled_from(["game", "policies", "pairings", "games_per_cell", "config",
                                        "scenario_sets", "factors", "swap_first_speaker"]), JSON_VALUES, max_size=6))
def test_run_config_loader(top, block):
    doc = dict(top)
    if "games" not in doc or not isinstance(doc.get("games"), list):
        doc["games"] = [block]
    try:
        parse_config(doc)
    except RunConfigError as e:
        assert str(e)


TAX = load_taxonomy()
CORE = [x["id"] for x in TAX["core_labels"]]
AUX = [x["id"] for x in TAX["auxiliary_tags"]]
LABEL_WORDS = CORE + AUX + ["rounds", "round_number", "core", "auxiliary", "present", "agents", "agent_a",
                            "agent_b", "agent_c", "Agent_A"]
LABEL_VALUES = st.recursive(st.one_of(SCALARS, st.sampled_from(LABEL_WORDS)), lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.sampled_from(LABEL_WORDS) | st.text(max_size=6), kids, max_size=6)),
    max_leaves=30)


def _valid_round(i, draw):
    return {"round_number": i, **{c: draw(st.booleans()) for c in CORE},
            **{a: {"present": False, "agents": []} for a in AUX}}


@st.composite
def judge_answer(draw):
    """A judge answer: a valid one with one hostile value, or free JSON of the right words."""
    n = draw(st.integers(1, 4))
    if draw(st.booleans()):
        doc = {"rounds": [_valid_round(i + 1, draw) for i in range(n)]}
        paths = _paths(doc)
        doc = _mutate(doc, draw(st.sampled_from(paths)), draw(LABEL_VALUES))
        text = _dumps(doc)
    else:
        text = _dumps(draw(st.dictionaries(st.sampled_from(LABEL_WORDS), LABEL_VALUES, max_size=4)))
    if draw(st.booleans()):
        text = draw(st.text(max_size=20)) + "```json\n" + text + "\n```" + draw(st.text(max_size=10))
    return text, n


@FUZZ
@given(judge_answer())
def test_judge_output_validator(answer):
    text, n = answer
    try:
        rounds, warnings = validate_labels(text, n, TAX)
    except JudgeOutputError as e:
        assert str(e)
    else:
        assert [r["round"] for r in rounds] == list(range(1, n + 1))
        for r in rounds:
            assert set(r["core"]) == set(CORE) and all(isinstance(v, bool) for v in r["core"].values())
            for tag in AUX:
                present, agents = r["auxiliary"][tag]["present"], r["auxiliary"][tag]["agents"]
                assert isinstance(present, bool) and set(agents) <= {"agent_a", "agent_b"}
                assert bool(agents) == present


@FUZZ
@given(st.lists(st.sampled_from(["game_id", "round"] + CORE + AUX + [f"{a}_agents" for a in AUX]
                                + ["notes", "bogus", "Round", ""]), min_size=1, max_size=6),
       st.lists(st.lists(st.one_of(st.text(max_size=12), st.sampled_from(["1", "0", "yes", "n", "agent_a;agent_b",
                                                                         "-3", "2.5", "nan", ""])),
                         min_size=0, max_size=7), max_size=5))
def test_human_label_csv_reader(header, rows):
    import csv
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    try:
        out = read_human_labels(f.name, TAX)
    except HumanLabelError as e:
        assert str(e)
    else:
        assert all(isinstance(k, tuple) and isinstance(k[1], int) and k[1] >= 1 for k in out)
    finally:
        os.unlink(f.name)


def test_huge_and_pathological_inputs_are_refused_with_a_message():
    for text in ("x" * 200_000, "{" * 100_000, '{"a": ' + "[" * 5000 + "]" * 5000 + "}",
                 '{"thinking": "t", "speech": "s", "action": {"r1": NaN}}'):
        with pytest.raises(ParseError):
            resource_parse(text, RES, "agent_a", NAMES, require_decision=True)


@pytest.mark.parametrize("text, message", [
    ("game_id,round\n,,\n", "3 fields, but the header has 2"),  # found by the fuzz run: raised AttributeError
    ("game_id,round,round\nx,1,1\n", "appear more than once"),
])
def test_malformed_human_label_csv_is_refused_with_a_message(tmp_path, text, message):
    p = tmp_path / "human.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(HumanLabelError, match=message):
        read_human_labels(p, TAX)


@FUZZ
@given(adversarial_text())
def test_judge_output_validator_on_hostile_text(text):
    try:
        validate_labels(text, 1, TAX)
    except JudgeOutputError as e:
        assert str(e)


@st.composite
def hostile_document(draw, doc):
    """A scenario file's text with one hostile piece spliced in: a huge numeral for a
    number, a key given twice, nesting up to 5,000 levels, a flood, or cut anywhere."""
    text = json.dumps(doc)
    kind = draw(st.integers(0, 4))
    if kind == 0:  # a numeral for one of the numbers
        import re as _re
        spots = [m.span() for m in _re.finditer(r"(?<=: )-?\d+(\.\d+)?", text)]
        a, b = draw(st.sampled_from(spots))
        return text[:a] + draw(_numeral()) + text[b:]
    if kind == 1:  # a key of some object given again
        spots = [i for i, ch in enumerate(text) if ch == "{"]
        i = draw(st.sampled_from(spots))
        key = draw(st.sampled_from(["name", "budget", "supply", "r1", "id", "p", "agent_a", "x"]))
        return text[:i + 1] + f'"{key}": 1, "{key}": 2, ' + text[i + 1:]
    if kind == 2:  # deep nesting in a field
        d = draw(st.integers(50, 5000))
        return '{"meta": ' + "[" * d + "]" * d + ", " + text[1:]
    if kind == 3:
        return draw(st.sampled_from(FLOOD_PIECES)) * draw(st.integers(1, 30_000))
    return text[:draw(st.integers(0, len(text)))]


def _load_text(loader, text):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        return loader(f.name)
    finally:
        os.unlink(f.name)


@FUZZ
@given(hostile_document(RES_DOC))
def test_resource_scenario_file_on_hostile_text(text):
    try:
        sc = _load_text(load_scenario, text)
    except ScenarioError as e:
        assert str(e)
    else:
        assert isinstance(sc, Scenario)


@FUZZ
@given(hostile_document(RM_DOC))
def test_rulemaking_scenario_file_on_hostile_text(text):
    try:
        sc = _load_text(load_rm, text)
    except RMScenarioError as e:
        assert str(e)
    else:
        assert isinstance(sc, RulemakingScenario)


@st.composite
def hostile_yaml(draw):
    """A YAML run config with a hostile part: an alias bomb (up to 10^9 values), a cyclic
    alias, a long number (decimal, hex, sexagesimal) or deep nesting, in a random place."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        width, levels = draw(st.integers(2, 10)), draw(st.integers(1, 9))
        lines = ["a0: &a0 [" + ",".join(['"x"'] * width) + "]"]
        lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * width) + "]" for i in range(1, levels)]
        value = "{" + ", ".join(lines) + "}"
    elif kind == 1:
        value = draw(st.sampled_from(["&c {a: *c}", "&l [*l]", "&m {a: [1, {b: *m}]}"]))
    elif kind == 2:
        digits = "1" * draw(st.integers(90, 6000))
        value = draw(st.sampled_from([digits, "-" + digits, "0x" + "f" * len(digits), "1" + ":1" * len(digits),
                                      digits + ".5", "1e" + digits]))
    else:
        d = draw(st.integers(10, 5000))
        value = draw(st.sampled_from(["[" * d + "]" * d, "{a: " * d + "1" + "}" * d]))
    where = draw(st.sampled_from(["seed", "name", "config", "options", "games_per_cell", "factors"]))
    policy = "{spec: 'scripted:oracle', options: {x: %s}}" % value if where == "options" else "'scripted:oracle'"
    top = f"{where}: {value}\n" if where in ("seed", "name") else ""
    block = {"config": f"    config: {{x: {value}}}\n", "games_per_cell": f"    games_per_cell: {value}\n",
             "factors": f"    factors: {{f: {{a: {value}}}}}\n"}.get(where, "")
    return top + f"games:\n  - game: resource\n    policies: [{policy}]\n" + block


@FUZZ
@given(hostile_yaml())
def test_run_config_loader_on_hostile_yaml(text):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        load_config(f.name)
    except RunConfigError as e:
        assert str(e)
    finally:
        os.unlink(f.name)
