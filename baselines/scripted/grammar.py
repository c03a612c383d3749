"""What scripted negotiators say (resource game), and how they read what they are told.

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

Acts are kept in the speaker's perspective: in ``Propose``, ``you`` is the listener's
share and ``me`` the speaker's; a share the message does not name is None.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

from negotiation_env.games.resource.reader import Accept, Act, Ask, Disclose, Need, Propose, Reject, read

__all__ = ["Disclose", "Need", "Ask", "Propose", "Accept", "Reject", "Act", "parse", "guessed_names", "render", "render_units"]

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


def render(act: Act) -> str:
    if isinstance(act, Disclose):
        return f"My {act.project} needs {render_units(act.requires)} per run and pays {_num(act.reward)}."
    if isinstance(act, Need):
        return f"I need {act.units} {act.resource} for {act.project}."
    if isinstance(act, Ask):
        return "What are your projects?"
    if isinstance(act, Propose):
        return f"I propose: you take {render_units(act.you)}, I take {render_units(act.me)}."
    if isinstance(act, Accept):
        return "Agreed."
    if isinstance(act, Reject):
        return "I can't accept that."
    raise TypeError(f"not an act: {act!r}")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
