"""The acceptance detector on the labelled set (tests/analysis/data/acceptance_utterances.jsonl)
and on hand-picked cases: negation, hedging, conditions, questions, retractions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from negotiation_env.games.resource.acceptance import accepts, rejects

DATA = Path(__file__).parent / "data" / "acceptance_utterances.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
REFUSALS = ("refusal", "negated_accept")


def confusion(rows):
    tp = sum(accepts(r["text"]) and r["label"] == "accept" for r in rows)
    fp = sum(accepts(r["text"]) and r["label"] != "accept" for r in rows)
    fn = sum(not accepts(r["text"]) and r["label"] == "accept" for r in rows)
    return tp, fp, fn


def test_the_set_is_large_varied_and_has_a_held_out_third():
    assert len(ROWS) >= 150
    assert len({r["text"] for r in ROWS}) == len(ROWS)  # no duplicates
    assert {r["label"] for r in ROWS} == {"accept", "not_accept"}
    cats = Counter(r["category"] for r in ROWS)
    assert len(cats) == 14 and min(cats.values()) >= 15
    held = [r for r in ROWS if r["split"] == "heldout"]
    assert {r["split"] for r in ROWS} == {"tune", "heldout"}
    assert 0.3 <= len(held) / len(ROWS) <= 0.36
    assert {r["category"] for r in held} == set(cats)  # stratified: every category held out in part
    # one category, one label
    assert all(len({r["label"] for r in ROWS if r["category"] == c}) == 1 for c in cats)


@pytest.mark.parametrize("split", ["tune", "heldout"])
def test_precision_and_recall_floors_on_each_part(split):
    tp, fp, fn = confusion([r for r in ROWS if r["split"] == split])
    assert tp / (tp + fp) >= 0.95
    assert tp / (tp + fn) >= 0.9


@pytest.mark.parametrize("row", [r for r in ROWS if r["category"] in REFUSALS], ids=lambda r: r["text"][:40])
def test_no_refusal_or_negated_acceptance_is_an_acceptance(row):
    assert not accepts(row["text"])


def test_no_acceptance_in_the_set_reads_as_a_rejection():
    assert [r["text"] for r in ROWS if r["label"] == "accept" and rejects(r["text"])] == []
    ref = [r for r in ROWS if r["category"] in REFUSALS]
    assert sum(rejects(r["text"]) for r in ref) / len(ref) >= 0.9


@pytest.mark.parametrize("text", [
    "Agreed.", "Deal.", "Sounds good.", "I accept.", "That works for me.", "Agreed. I'll take 6 wood.",
    "No objections, let's do it.", "I can't argue with that; deal.", "I don't see why not. Let's go with it.",
    "Not a bad idea at all \u2014 deal.", "That\u2019s a deal!", "Deal, though next round I want more stone.",
    "Sounds good \u2014 and if next round goes the same way, let's repeat it.",
    "I don't need any gold, so your proposal works for me.",
])
def test_acceptances(text):
    assert accepts(text) and not rejects(text)


@pytest.mark.parametrize("text", [
    "I don't agree.", "No deal.", "I can't accept that.", "That won't work for me.", "Not agreed.", "No.",
    "I really cannot, in good conscience, accept 2 gold.", "Deal's off.", "I'll pass.",
])
def test_rejections(text):
    assert rejects(text) and not accepts(text)


@pytest.mark.parametrize("text", [
    "Deal?", "Do we have a deal?",                                       # asked
    "That might work.", "In principle that sounds good, but 6 stone is over budget.", "Tentatively yes.",
    "I'm leaning towards yes, but let me check my budget.",              # hedged / deferred
    "I'll accept if you leave me 3 helium.", "If you drop to 4 stone, we have a deal.",  # conditional
    "Agreed on the wood, but I need 4 gold.", "Sounds good, except it leaves me without copper.",  # counter
    "Agreed \u2014 actually, wait, I need 2 more gold.",                  # retracted
    "I agree that gold is the bottleneck.", "You agreed to 4 wood last round.", "Earlier I said it works.",
    "Here's what would work for me: 5 wood.", "What deal do you want?", "Let's agree: you take 5 wood.",
    "If we can't agree, we both get zero.",
    "I'll go with my own best plan. Good luck!", "Let's go with my split: you take 4 stone.",  # own plan
])
def test_neither_acceptance_nor_rejection(text):
    assert not accepts(text) and not rejects(text)


def test_kept_answers_are_the_computed_ones():
    """accepts/rejects keep each short text's answer: the same as computing it afresh,
    for every labelled text, for texts over the kept length and for non-strings."""
    from negotiation_env.games.resource import acceptance as acc

    long_ok = "Agreed. " + "x" * acc._CACHE_CHARS
    long_no = "No deal. " + "x" * acc._CACHE_CHARS
    texts = [r["text"] for r in ROWS] + [long_ok, long_no]
    for _ in range(2):  # the second pass reads the kept answers
        for t in texts:
            assert accepts(t) == acc._accepts(t) and rejects(t) == acc._rejects(t), t
    assert accepts(long_ok) and rejects(long_no) and not accepts(long_no)
    assert accepts(None) == acc._accepts(None) and rejects(None) == acc._rejects(None)
