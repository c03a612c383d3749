"""The rulemaking response parser: text and structured paths, private state per condition."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from negotiation_env.games.rulemaking.parser import (
    ParseError, ParseLimits, count_sentences, parse_structured, parse_text, private_key)
from negotiation_env.games.rulemaking.prompts import NOTEBOOK_FIELDS
from negotiation_env.games.rulemaking.scenario import load_scenario

SC = load_scenario("E1")


def ledger(**over):
    d = {f: "Nothing yet." for f in NOTEBOOK_FIELDS["ledger"]}
    d.update(over)
    return d


def test_move_is_case_insensitive_and_issue_optional():
    mv = parse_text('{"move": " counter ", "issue": null, "rationale": "We propose X."}', SC, "none")
    assert (mv.move, mv.issue, mv.rationale, mv.private) == ("Counter", None, "We propose X.", None)
    mv = parse_text('{"move": "CONCEDE", "rationale": "ok"}', SC, "none")
    assert mv.move == "Concede" and mv.issue is None


def test_issue_by_id_or_title_ignoring_case():
    assert parse_text('{"move": "Concede", "issue": "HEDGING", "rationale": "r"}', SC, "none").issue == "hedging"
    t = '{"move": "Concede", "issue": "market-making exemption", "rationale": "r"}'
    assert parse_text(t, SC, "none").issue == "market_making"
    with pytest.raises(ParseError, match="unknown issue 'tax'.*market_making"):
        parse_text('{"move": "Concede", "issue": "tax", "rationale": "r"}', SC, "none")


@pytest.mark.parametrize("text, message", [
    ('{"move": "Accept", "rationale": "r"}', "must be one of Support, Oppose, Concede, Counter, Exit"),
    ('{"rationale": "r"}', 'missing "move"'),
    ('{"move": "Support"}', "rationale"),
    ('{"move": "Support", "rationale": "   "}', "rationale"),
    ('{"move": 3, "rationale": "r"}', "must be one of"),
    ("I support it", "no JSON object"),
    ("", "empty response"),
    ('{"move": "Support", "move": "Oppose", "rationale": "r"}', "duplicate key"),
])
def test_invalid_responses_raise_typed_errors(text, message):
    with pytest.raises(ParseError, match=message):
        parse_text(text, SC, "none")


def test_think_spans_and_fences_are_tolerated_with_warnings():
    mv = parse_text('<think>I will oppose {"move": "Oppose"}</think>```json\n{"move": "Support", "rationale": "r"}\n```',
                    SC, "none")
    assert mv.move == "Support"
    assert any("code fence" in w for w in mv.warnings)


def test_long_rationale_is_cut_with_a_warning():
    mv = parse_text(json.dumps({"move": "Support", "rationale": "x" * 50}), SC, "none", ParseLimits(max_rationale_chars=10))
    assert mv.rationale == "x" * 10 and mv.warnings == ("rationale cut from 50 to 10 characters",)


def test_ledger_required_with_exactly_its_fields():
    ok = json.dumps({"ledger": ledger(), "move": "Counter", "rationale": "r"})
    assert parse_text(ok, SC, "ledger").private == ledger()
    with pytest.raises(ParseError, match='missing "ledger"'):
        parse_text('{"move": "Counter", "rationale": "r"}', SC, "ledger")
    partial = ledger()
    del partial["open_issues"]
    partial["mood"] = "x"
    with pytest.raises(ParseError, match="missing open_issues; unknown mood"):
        parse_text(json.dumps({"ledger": partial, "move": "Counter", "rationale": "r"}), SC, "ledger")


def test_ledger_fields_hold_at_most_five_sentences():
    six = "One. Two. Three. Four. Five. Six."
    with pytest.raises(ParseError, match='"ledger.current_state" has 6 sentences; at most 5'):
        parse_text(json.dumps({"ledger": ledger(current_state=six), "move": "Counter", "rationale": "r"}), SC, "ledger")
    five = "One. Two! Three? Four... Five"
    assert parse_text(json.dumps({"ledger": ledger(current_state=five), "move": "Counter", "rationale": "r"}), SC,
                      "ledger").private["current_state"] == five


@pytest.mark.parametrize("condition", ["notebook_state", "notebook_process", "notebook_message"])
def test_generic_notebooks_use_the_notebook_key(condition):
    nb = {f: "x." for f in NOTEBOOK_FIELDS[condition]}
    assert private_key(condition) == "notebook"
    assert parse_text(json.dumps({"notebook": nb, "move": "Support", "rationale": "r"}), SC, condition).private == nb
    with pytest.raises(ParseError):
        parse_text(json.dumps({"notebook": ledger(), "move": "Support", "rationale": "r"}), SC, condition)


def test_notes_are_bounded_free_text():
    assert parse_text('{"notes": " hold firm ", "move": "Counter", "rationale": "r"}', SC, "notes").private == "hold firm"
    with pytest.raises(ParseError, match="5001 characters long; at most 5000"):
        parse_text(json.dumps({"notes": "x" * 5001, "move": "Counter", "rationale": "r"}), SC, "notes")
    with pytest.raises(ParseError, match="601 characters long; at most 600"):  # the cap is configurable
        parse_text(json.dumps({"notes": "x" * 601, "move": "Counter", "rationale": "r"}), SC, "notes",
                   ParseLimits(notes_max_chars=600))


def test_notes_get_the_ledgers_budget():
    # §7: the notes arm runs "at the same budget" as the Ledger; the budget is the most the
    # Ledger may hold, five fields of max_field_chars characters
    limits = ParseLimits()
    assert limits.notes_max_chars == len(NOTEBOOK_FIELDS["ledger"]) * limits.max_field_chars == 5000
    full = {f: "y" * limits.max_field_chars for f in NOTEBOOK_FIELDS["ledger"]}
    assert parse_text(json.dumps({"ledger": full, "move": "Counter", "rationale": "r"}), SC, "ledger").private == full
    notes = "x" * sum(map(len, full.values()))
    assert parse_text(json.dumps({"notes": notes, "move": "Counter", "rationale": "r"}), SC, "notes").private == notes


@pytest.mark.parametrize("condition", ["none", "native", "digest"])
def test_private_fields_are_ignored_where_the_condition_has_none(condition):
    mv = parse_text(json.dumps({"ledger": "anything", "notes": 3, "move": "Exit", "rationale": "r"}), SC, condition)
    assert mv.move == "Exit" and mv.private is None


def test_sentence_count():
    assert [count_sentences(s) for s in ("", "One", "One.", "One. Two", "e.g. this", "Wait... what?!", "3.5 is a number.")] \
        == [0, 1, 1, 2, 2, 2, 1]


def test_structured_path_matches_the_text_path():
    s = parse_structured({"move": 2, "issue": 2, "rationale": "We give ground."}, SC, "none")
    t = parse_text('{"move": "Concede", "issue": "hedging", "rationale": "We give ground."}', SC, "none")
    assert s == t
    assert parse_structured({"move": 0, "issue": 0, "rationale": "r"}, SC, "none").issue is None
    led = parse_structured({"move": 3, "rationale": "r", "private": json.dumps(ledger())}, SC, "ledger")
    assert led.private == ledger()
    with pytest.raises(ParseError, match="integer in"):
        parse_structured({"move": 5, "rationale": "r"}, SC, "none")
    with pytest.raises(ParseError, match="integer in"):
        parse_structured({"move": 1, "issue": 6, "rationale": "r"}, SC, "none")
    with pytest.raises(ParseError, match="JSON object"):
        parse_structured({"move": 1, "rationale": "r", "private": "not json"}, SC, "ledger")
    with pytest.raises(ParseError, match='missing "ledger"'):
        parse_structured({"move": 1, "rationale": "r"}, SC, "ledger")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["none", "ledger", "notes", "notebook_state"]))
def test_arbitrary_text_parses_or_raises_parse_error(text, condition):
    try:
        mv = parse_text(text, SC, condition)
    except ParseError as e:
        assert str(e)
    else:
        assert mv.move in ("Support", "Oppose", "Concede", "Counter", "Exit")
