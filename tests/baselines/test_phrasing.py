"""How scripted resource negotiators word their thinking and speech.

Their thinking varies with the seed and the situation, from a phrasing stream apart from
the one their decisions draw from, and opens with a sentence every agent shares; their
speech varies too (``phrasing="varied"``, the default) unless ``phrasing="fixed"``."""

from __future__ import annotations

import itertools
import json
import re
import string

import numpy as np
import pytest

import negotiation_env
from baselines.scripted import POLICIES, OwnView, make
from baselines.scripted import grammar as G
from baselines.scripted import thoughts as T
from negotiation_env.games.resource.acceptance import accepts, rejects
from tests.traces.test_label_leak import ANY_NAME

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
    fixed = {make("oracle", seed=s, output="structured", phrasing="fixed").act(obs)["message"] for s in range(8)}
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
        assert make(name).phrasing == "varied" and make(name, phrasing="fixed").phrasing == "fixed"


# --------------------------------------------------------------------------- thinking


def test_every_move_has_several_wordings_with_the_same_fields():
    for key, forms in T.REASONS.items():
        assert len(set(forms)) == len(forms) >= 3, key
        fields = [{f for _, f, _, _ in string.Formatter().parse(s) if f} for s in forms]
        assert all(f == fields[0] for f in fields), key
    for key, forms in T.SITUATIONS.items():
        assert len(set(forms)) >= 3, key


def test_no_wording_names_a_policy():
    texts = [s for forms in T.REASONS.values() for s in forms] + [s for forms in T.SITUATIONS.values() for s in forms]
    texts += list(T.REFLECTION_OPENINGS)
    assert not [t for t in texts if ANY_NAME.search(t)]


def play_structured(a, b, *, reword=None, scenario="mc100_2", seed=0, phrasing="fixed", **config):
    """A structured-output game; ``reword`` re-keys both agents' phrasing streams. Returns
    (every action without its thinking, every thinking, the round outcomes, the resource
    names each action was made under), without the post-game reflections (worded from the
    same stream as the thinking)."""
    env = negotiation_env.env(scenario=scenario, num_rounds=3, **config)
    env.reset(seed=seed)
    pols = {"agent_a": make(a, seed=11, output="structured", phrasing=phrasing),
            "agent_b": make(b, seed=12, output="structured", phrasing=phrasing)}
    if reword is not None:
        for p in pols.values():
            p._phrasing_seed += reword
    actions, thinking, names = [], [], []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = pols[agent].act(obs)
        env.step(action)
        if info["phase"] == "reflection":
            continue
        names.append(OwnView.from_observation(obs).resource_names)
        thinking.append(action["thinking"] if isinstance(action, dict) else None)
        if isinstance(action, dict):
            action = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in action.items() if k != "thinking"}
        actions.append(action)
    game = env.unwrapped.game
    return actions, thinking, [game.round_outcome(i) for i in range(len(game.history))], names


@pytest.mark.parametrize("name", list(POLICIES))
def test_the_wording_of_the_thinking_leaves_the_decisions_unchanged(name):
    """Another phrasing stream (same decision seed) words the thinking otherwise and plays
    the very same game: every message, purchase and outcome."""
    partner = "noisy_linear" if name != "noisy_linear" else "random"
    base = play_structured(name, partner)
    other = play_structured(name, partner, reword=1000)
    assert other[0] == base[0] and other[2] == base[2] and other[3] == base[3]
    assert other[1] != base[1]


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_the_wording_of_the_speech_leaves_the_game_unchanged(name):
    """Varied speech (the default) under another phrasing stream: other words, the same
    acts as the reader reads them, the same purchases and outcomes."""
    partner = "oracle" if name != "oracle" else "linear"
    base = play_structured(name, partner, phrasing="varied")
    other = play_structured(name, partner, reword=1000, phrasing="varied")

    def decisions(actions):
        return [{k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in a.items() if k != "message"}
                for a in actions]

    assert decisions(other[0]) == decisions(base[0]) and other[2] == base[2]
    assert [G.parse(a["message"]) for a in other[0]] == [G.parse(a["message"]) for a in base[0]]
    assert [a["message"] for a in other[0]] != [a["message"] for a in base[0]] or name in ("greedy", "random")


def test_every_agent_opens_its_thinking_alike_and_at_length():
    """At the same observation and seed, every agent's thinking opens with the same
    sentences on the situation; they alone fill an answer's first 50 characters."""
    for config in ({}, {"rotation": "rotating"}):
        obs = first_turn(**config)
        for seed in range(6):
            thoughts = [make(n, seed=seed, output="structured").act(obs)["thinking"] for n in POLICIES]
            openings = {re.match(r"(.+?\. .+?\.) ", t).group(1) for t in thoughts}
            assert len(openings) == 1, openings
            assert len('{"thinking": "' + openings.pop()) >= 50


def test_thinking_varies_over_a_game_and_stays_true():
    actions, thinking, outcomes, names = play_structured("oracle", "linear", seed=3)
    assert len(set(thinking)) == len(thinking)
    assert len({t.split(" ", 2)[1] for t in thinking}) >= 4  # openings of several kinds and wordings
    decisions = [(a, t, n) for a, t, n in zip(actions, thinking, names) if a["decide"]]
    assert decisions
    for action, t, n in decisions:  # it says what it buys
        assert G.render_units(list(zip(n, action["purchase"]))) in t


def test_the_reflection_opens_alike_and_reports_the_earnings():
    for seed in range(8):
        text = T.reflection(4, 4, 52.5, 1, np.random.default_rng(seed))
        assert text.startswith(tuple(o.format(rounds=4) for o in T.REFLECTION_OPENINGS))
        assert "52.5" in text and "4 rounds I saw" in text and "1 of them annulled by overdraw" in text
        assert len(text.split(". ", 1)[0]) >= 50
    assert len({T.reflection(4, 4, 10, 0, np.random.default_rng(s)) for s in range(20)}) > 5


def test_no_reflection_reads_as_an_acceptance_or_a_rejection():
    """The speech measures read a round's messages, the reflection after the last round
    included: no wording of it may say yes or no to a proposal."""
    for opening, earned, lesson in itertools.product(T.REFLECTION_OPENINGS, T._EARNED, T._LESSON):
        for annulled in ("", ", 2 of them annulled by overdraw"):
            text = " ".join([opening.format(rounds=4), earned.format(earned=3, seen="4 rounds I saw",
                                                                     annulled=annulled), lesson])
            assert not accepts(text) and not rejects(text), text


def test_text_answers_carry_the_varied_thinking_and_the_fixed_speech():
    obs = first_turn()
    texts = [json.loads(make("oracle", seed=s, output="text", phrasing="fixed").act(obs)) for s in range(6)]
    assert len({t["thinking"] for t in texts}) > 1 and len({t["speech"] for t in texts}) == 1
