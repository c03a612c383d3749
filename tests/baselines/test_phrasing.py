"""How scripted resource negotiators word their speech: the mini-grammar's fixed
sentences, unless ``phrasing="varied"`` draws each act's wording from a phrasing stream
apart from the one their decisions draw from."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import negotiation_env
from baselines.scripted import POLICIES, make
from baselines.scripted import grammar as G
from negotiation_env.analysis.acceptance import accepts, rejects

ACTS = [
    G.Disclose("project_a", (("stone", 2), ("gold", 3)), 17.0),
    G.Need(4, "stone", "project_a"),
    G.Ask(),
    G.Propose((("wood", 5),), (("stone", 2),)),
    G.Propose((), (("stone", 2), ("gold", 3))),
    G.Accept(),
    G.Reject(),
]
#: what render writes without a generator: the grammar's sentences, unchanged
FIXED = [
    "My project_a needs 2 stone and 3 gold per run and pays 17.",
    "I need 4 stone for project_a.",
    "What are your projects?",
    "I propose: you take 5 wood, I take 2 stone.",
    "I propose: you take nothing, I take 2 stone and 3 gold.",
    "Agreed.",
    "I can't accept that.",
]


# --------------------------------------------------------------------------- speech


def test_render_without_a_generator_writes_the_grammars_sentence():
    assert [G.render(a) for a in ACTS] == FIXED
    assert [G.render(a, None) for a in ACTS] == FIXED
    assert [G.phrasings(a)[0] for a in ACTS] == FIXED
    assert [G.parse(s) for s in FIXED] == [[a] for a in ACTS]


@pytest.mark.parametrize("act", ACTS, ids=lambda a: type(a).__name__)
def test_render_with_a_generator_draws_every_wording_of_the_act(act):
    forms = G.phrasings(act)
    assert len(set(forms)) == len(forms) >= 3
    drawn = {G.render(act, np.random.default_rng(s)) for s in range(60)}
    assert drawn == set(forms)
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    assert [G.render(act, rng_a) for _ in range(5)] == [G.render(act, rng_b) for _ in range(5)]


def test_the_wordings_keep_the_meaning():
    propose = G.phrasings(G.Propose((("wood", 5),), (("stone", 2),)))
    assert propose == ("I propose: you take 5 wood, I take 2 stone.", "How about you take 5 wood and I take 2 stone?",
                       "You take 5 wood; I take 2 stone.", "5 wood for you, 2 stone for me.")
    assert G.phrasings(G.Propose((), (("gold", 1),)))[3] == "Nothing for you, 1 gold for me."
    assert G.phrasings(G.Accept()) == ("Agreed.", "Deal.", "That works for me.", "Sounds good, let's do it.")
    for form in G.phrasings(G.Disclose("project_a", (("stone", 2),), 17.0)):
        assert "project_a" in form and "2 stone" in form and "17" in form


def test_the_analysis_reads_every_acceptance_and_rejection_wording():
    for act in ACTS:
        for form in G.phrasings(act):
            assert accepts(form) == isinstance(act, G.Accept), form
            assert rejects(form) == isinstance(act, G.Reject), form


def first_turn(**config):
    env = negotiation_env.env(scenario="mc080_1", **config)
    env.reset(seed=0)
    return env.observe(env.agent_selection)


def test_varied_speech_differs_across_seeds_and_says_the_same_acts():
    obs = first_turn()
    fixed = {make("oracle", seed=s, output="structured").act(obs)["message"] for s in range(8)}
    assert len(fixed) == 1  # fixed phrasing: the grammar's sentences whatever the seed
    acts = G.parse(fixed.pop())
    assert [type(a) for a in acts] == [G.Disclose] * 3 + [G.Ask]
    wordings = {" ".join(c) for c in itertools.product(*(G.phrasings(a) for a in acts))}
    varied = [make("oracle", seed=s, output="structured", phrasing="varied").act(obs) for s in range(8)]
    assert len({v["message"] for v in varied}) > 4
    assert all(v["message"] in wordings for v in varied)
    again = make("oracle", seed=3, output="structured", phrasing="varied").act(obs)
    assert again["message"] == varied[3]["message"]  # the same seed words it the same way


def test_phrasing_is_validated_and_reaches_every_preset():
    with pytest.raises(ValueError, match="phrasing"):
        make("oracle", phrasing="florid")
    for name in POLICIES:
        assert make(name, phrasing="varied").phrasing == "varied" and make(name).phrasing == "fixed"
