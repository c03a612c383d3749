"""The resource game's mini-grammar: the sentences scripted negotiators (:mod:`baselines.scripted`)
and the numeric menu's talk acts (:mod:`negotiation_env.wrappers.menus.resource`) say, and
how they read what they are told.

Reading is :func:`negotiation_env.games.resource.reader.read`, the reader the process
metrics use too: offers in the forms chat models write ("5 copper for you, 3 lithium for
me", "You take 5 copper and I'll take 3 lithium", "Me: 3 lithium. You: 6 copper"),
acceptances and refusals, disclosures ("Project A requires 2 copper + 1 lithium
(reward: $16/run)") and questions. Speaking is :func:`render`, one sentence per act;
resource names are the game's themed names (``wood``), project names stay abstract
(``project_a``):

| act | sentence | meaning |
| --- | --- | --- |
| ``Disclose`` | ``My project_a needs 2 stone and 3 gold per run and pays 17.`` | one of the speaker's projects |
| ``Need`` | ``I need 4 stone for project_a.`` | a requirement, without the reward |
| ``Ask`` | ``What are your projects?`` | asks the listener to disclose |
| ``Propose`` | ``I propose: you take 5 wood, I take 2 stone and 3 gold.`` | a split of the pool; ``nothing`` for an empty share |
| ``Accept`` | ``Agreed.`` | accepts the listener's latest proposal |
| ``Reject`` | ``I can't accept that.`` | rejects it |

:func:`render` writes the sentence of this table; given a generator it draws one of the
act's :func:`phrasings` instead, several wordings of the same meaning ("How about you take
5 wood and I take 2 stone?", "Deal.", "That doesn't work for me."), all of which the reader
reads as the table's sentence.

Acts are kept in the speaker's perspective: in ``Propose``, ``you`` is the listener's
share and ``me`` the speaker's; a share the message does not name is None.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Mapping

from .reader import Accept, Act, Ask, Disclose, Need, Propose, Reject, read

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["Disclose", "Need", "Ask", "Propose", "Accept", "Reject", "Act", "parse", "guessed_names", "phrasings",
           "render", "render_units"]

# without the game's names, a word after a quantity is taken for a resource name
_GUESS = re.compile(r"\b\d+\s*(?:x\s*)?(?:units?\s+of\s+|of\s+the\s+)?([^\W\d_]+)", re.I)
_NOT_NAMES = frozenset({"per", "run", "runs", "of", "units", "unit", "and", "for", "times", "time", "points", "x",
                        "more", "each", "the", "to", "or", "in", "is", "are", "round", "rounds", "turns", "turn"})


def parse(text: str, names: Iterable[str] | None = None) -> list[Act]:
    """Every act in ``text``, in the order said (a refusal or an acceptance first), as
    the reader reads it with the resource ``names`` in play (the words that follow a
    quantity when None)."""
    return list(read(text, guessed_names(text) if names is None else names).acts)


def guessed_names(text: str) -> set[str]:
    """The words that follow a quantity in ``text``: its resource names, when the game's
    are not known."""
    return {w.lower() for w in _GUESS.findall(text)} - _NOT_NAMES


def render_units(units: Mapping[str, int] | Iterable[tuple[str, int]]) -> str:
    items = [(n, q) for n, q in (units.items() if isinstance(units, Mapping) else units) if q > 0]
    if not items:
        return "nothing"
    words = [f"{q} {n}" for n, q in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def phrasings(act: Act) -> tuple[str, ...]:
    """Every wording of ``act``, all of the same meaning; the first is the sentence of the
    table above (what :func:`render` writes without a generator)."""
    if isinstance(act, Disclose):
        req, pays = render_units(act.requires), _num(act.reward)
        return (f"My {act.project} needs {req} per run and pays {pays}.",
                f"{act.project} requires {req} per run and yields {pays}.",
                f"Each run of my {act.project} takes {req} and pays {pays}.",
                f"My {act.project} uses {req} per run and earns {pays}.")
    if isinstance(act, Need):
        return (f"I need {act.units} {act.resource} for {act.project}.",
                f"For {act.project} I need {act.units} {act.resource}.",
                f"My {act.project} calls for {act.units} {act.resource}.",
                f"I'd need {act.units} {act.resource} for {act.project}.")
    if isinstance(act, Ask):
        return ("What are your projects?", "What do your projects need?", "Which projects do you have?",
                "Could you tell me about your projects?")
    if isinstance(act, Propose):
        you, me = render_units(act.you), render_units(act.me)
        return (f"I propose: you take {you}, I take {me}.",
                f"How about you take {you} and I take {me}?",
                f"You take {you}; I take {me}.",
                f"{you[:1].upper()}{you[1:]} for you, {me} for me.")
    if isinstance(act, Accept):
        return ("Agreed.", "Deal.", "That works for me.", "Sounds good, let's do it.")
    if isinstance(act, Reject):
        return ("I can't accept that.", "No deal.", "That doesn't work for me.", "I'll pass on that.")
    raise TypeError(f"not an act: {act!r}")


def render(act: Act, rng: "np.random.Generator | None" = None) -> str:
    """``act`` as a sentence: the sentence of the table above, or with ``rng`` one of its
    :func:`phrasings`, drawn from it."""
    forms = phrasings(act)
    return forms[0] if rng is None else forms[int(rng.integers(len(forms)))]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
