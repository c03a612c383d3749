"""The reader of negotiation language: the forms chat models write, read as the partner
would; and the process metrics, which read with it, unchanged by wording."""

from __future__ import annotations

import copy
import re

import pytest

from negotiation_env.analysis import resource_metrics as rm
from negotiation_env.games.resource.acceptance import accepts, rejects
from negotiation_env.games.resource.reader import Accept, Ask, Disclose, Need, Propose, Reject, normalise, read

N = ["copper", "silicon", "lithium"]


def offer(text):
    r = read(text, N)
    return None if r.offer is None else (r.offer.you_dict(), r.offer.me_dict())


@pytest.mark.parametrize("text, you, me", [
    ("How about you take 5 copper and I will take 3 lithium?", {"copper": 5}, {"lithium": 3}),
    ("You take 5 copper and I'll take 3 lithium", {"copper": 5}, {"lithium": 3}),
    ("You take 5 copper and I\u2019ll take 3 lithium", {"copper": 5}, {"lithium": 3}),
    ("5 copper for you, 3 lithium for me", {"copper": 5}, {"lithium": 3}),
    ("Me: 3 lithium. You: 6 copper", {"copper": 6}, {"lithium": 3}),
    ("I'd take four of the lithium and you'd get copper x6.", {"copper": 6}, {"lithium": 4}),
    ("I propose: you take 5 copper, I take 2 silicon and 3 lithium.", {"copper": 5}, {"silicon": 2, "lithium": 3}),
    ("- **You:** 5 copper\n- **Me:** 3 lithium\nDoes that work?", {"copper": 5}, {"lithium": 3}),
    ("You take nothing and I take 5 copper.", {}, {"copper": 5}),
    ("I'll take 6 silicon.", None, {"silicon": 6}),
    ("If you take 6 lithium, I'll take 4 copper.", {"lithium": 6}, {"copper": 4}),
    ("Let\u2019s do it differently:\u00a0you take 4 copper and I take 6 lithium.", {"copper": 4}, {"lithium": 6}),
    ("You take twenty-one copper, I take 2 units of silicon.", {"copper": 21}, {"silicon": 2}),
])
def test_offers_in_the_forms_models_write(text, you, me):
    assert offer(text) == (you, me)


@pytest.mark.parametrize("text", [
    "if you take 6 lithium we will overdraw",
    "Last round you took 7 copper.",
    "I won't take more than 4 silicon.",
])
def test_allocations_talked_about_are_not_offers(text):
    r = read(text, N)
    assert r.offer is None and r.hypothetical


@pytest.mark.parametrize("text", [
    "Sounds good to me", "I can work with that.", "I'll take your offer", "I concur with your proposal",
    "You've got yourself a deal", "Sounds like a good plan!", "Agreed.", "Deal \u2014 I'll buy 4 copper.",
])
def test_acceptances_models_write(text):
    assert accepts(text) and not rejects(text)
    assert Accept() in read(text, N).acts


@pytest.mark.parametrize("text", [
    "Let's do it differently: you take 4 copper and I take 6 lithium.",
    "Ok, I propose you take 3 copper, I take nothing.",
    "Deal?", "That might work.", "I agree that lithium is the bottleneck.",
])
def test_near_misses_are_not_acceptances(text):
    assert not accepts(text)


def test_disclosures_in_model_forms():
    r = read("**Project A** requires 2 copper + 1 lithium (reward: $16/run). Project B: 3 silicon, 3 lithium "
             "\u2192 20 points. What about yours?", N)
    assert r.disclosures == (Disclose("project_a", (("copper", 2), ("lithium", 1)), 16.0),
                             Disclose("project_b", (("silicon", 3), ("lithium", 3)), 20.0))
    assert Ask() in r.acts and r.question
    assert read("My project_a needs 2 silicon and 3 lithium per run and pays 17.", N).disclosures == (
        Disclose("project_a", (("silicon", 2), ("lithium", 3)), 17.0),)
    # a total over several runs is not a requirement per run
    assert read("I need 6 copper for two runs of project_a.", N).disclosures == ()
    assert read("Your project_a needs 2 copper, right?", N).disclosures == ()


def test_acts_come_in_the_order_said():
    assert read("I cannot accept that. What are your projects?", N).acts == (Reject(), Ask())
    assert read("I need 4 silicon for project_a.", N).acts == (Need(4, "silicon", "project_a"),)
    assert read("No deal. You take 2 copper, I take 6 lithium.", N).acts == (
        Reject(), Propose((("copper", 2),), (("lithium", 6),)))


def test_typography_is_made_plain():
    assert normalise("I\u2019ll\u202ftake\u00a0**5**\u200b copper \u2014 ok \U0001f91d") == "I'll take 5 copper - ok "
    assert normalise("- **Lithium** \u2014 2 for you") == "Lithium: 2 for you"


def test_unread_is_on_topic_text_with_nothing_read():
    assert read("How about a 60/40 split?", N).question  # asked: read as a question
    assert read("Let's split it sixty-forty.", N).unread
    assert not read("Let's keep talking.", N).unread
    assert not read("You take 5 copper.", N).unread


# --------------------------------------------------------------------------- metrics
OUTCOME = {"purchases": {"agent_a": {"r1": 0, "r2": 0, "r3": 0}, "agent_b": {"r1": 0, "r2": 0, "r3": 0}},
           "resource_names": {"r1": "copper", "r2": "silicon", "r3": "lithium"}}


@pytest.mark.parametrize("text", [
    "You take 5 copper and I'll take 3 lithium", "You take 5 copper and I\u2019ll take 3 lithium",
    "5 copper for you, 3 lithium for me.", "I propose: you take 5 copper, I take 3 lithium."])
def test_a_contraction_does_not_give_the_listener_both_shares(text):
    assert rm.extract_proposals(text, OUTCOME) == ({"r1": 5}, {"r3": 3})


def test_a_hypothetical_commits_no_one():
    assert rm.commitments_in("If you take 6 lithium we will overdraw.", OUTCOME) == ({}, {}, {})
    assert rm.commitments_in("I'll take 6 lithium.", OUTCOME) == ({}, {}, {"r3": 6})


REWORDINGS = [
    (r"I propose: you take (.+?), I take (.+?)\.", r"How about you take \1 and I'll take \2?"),
    (r"\bAgreed\.", "I can work with that."),
    (r"I can't accept that\.", "Unfortunately that doesn\u2019t work for me."),
]


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    from negotiation_env.runner.engine import run
    from negotiation_env.traces.reader import iter_records
    out = tmp_path_factory.mktemp("cohort") / "run"
    cfg = {"name": "reader-cohort", "seed": 0, "games": [{
        "game": "resource", "policies": ["scripted:oracle", "scripted:linear", "scripted:greedy", "scripted:deferent",
                                         "scripted:abandoner"],
        "pairings": "all", "games_per_cell": 2, "swap_seats": True,
        "config": {"num_rounds": 4, "cheap_talk_turns": 5, "theme": "random"},
        "scenario_sets": {"mc0.8": ["mc080_*"]}}]}
    run(cfg, out, preflight=False)
    return list(iter_records(out / "traces.jsonl"))


def _reworded(trace):
    t = copy.deepcopy(trace)
    for st in t["steps"]:
        p = st.get("parsed")
        if isinstance(p, dict) and isinstance(p.get("speech"), str):
            for pat, rep in REWORDINGS:
                p["speech"] = re.sub(pat, rep, p["speech"])
    return t


def test_metrics_read_the_same_negotiation_in_other_words(cohort):
    reworded = [_reworded(t) for t in cohort]
    changed = sum(a["steps"] != b["steps"] for a, b in zip(cohort, reworded))
    assert changed > len(cohort) / 2  # the rewording reached most games
    for a, b in zip(cohort, reworded):
        assert rm.game_metrics(a) == rm.game_metrics(b), a["game_id"]
