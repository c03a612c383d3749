"""The mini-grammar scripted negotiators speak and understand (resource game).

One sentence per act; resource names are the game's themed names (``wood``), project
names stay abstract (``project_a``). Matching is case-insensitive and tolerant of extra
words around a sentence, so a person typing the same sentences is understood too.

| act | sentence | meaning |
| --- | --- | --- |
| ``Disclose`` | ``My project_a needs 2 stone and 3 gold per run and pays 17.`` | one of the speaker's projects |
| ``Need`` | ``I need 4 stone for project_a.`` | a requirement, without the reward |
| ``Ask`` | ``What are your projects?`` | asks the listener to disclose |
| ``Propose`` | ``I propose: you take 5 wood, I take 2 stone and 3 gold.`` | a split of the pool; ``nothing`` for an empty share |
| ``Accept`` | ``Agreed.`` (also ``Deal.`` as a sentence, ``It's a deal``, ``I accept.``) | accepts the listener's latest proposal |
| ``Reject`` | ``I can't accept that.`` (also ``cannot accept``, ``no deal``) | rejects it |

:func:`render` writes the sentence of this table; given a generator it draws one of the
act's :func:`phrasings` instead, several wordings of the same meaning ("How about you take
5 wood and I take 2 stone?", "Deal.", "That doesn't work for me."). :func:`parse` reads the sentences of the
table (with the alternatives named there), not every other wording.

Acts are kept in the speaker's perspective: in ``Propose``, ``you`` is the listener's
share and ``me`` the speaker's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping, Union

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["Disclose", "Need", "Ask", "Propose", "Accept", "Reject", "Act", "parse", "phrasings", "render",
           "render_units"]


@dataclass(frozen=True)
class Disclose:
    project: str
    requires: tuple[tuple[str, int], ...]
    reward: float


@dataclass(frozen=True)
class Need:
    units: int
    resource: str
    project: str


@dataclass(frozen=True)
class Ask:
    pass


@dataclass(frozen=True)
class Propose:
    you: tuple[tuple[str, int], ...]  # the listener's share
    me: tuple[tuple[str, int], ...]  # the speaker's share

    def you_dict(self) -> dict[str, int]:
        return dict(self.you)

    def me_dict(self) -> dict[str, int]:
        return dict(self.me)


@dataclass(frozen=True)
class Accept:
    pass


@dataclass(frozen=True)
class Reject:
    pass


Act = Union[Disclose, Need, Ask, Propose, Accept, Reject]

_NUM = r"(\d+(?:\.\d+)?)"
_DISCLOSE = re.compile(r"\bmy\s+(\w+)\s+needs\s+(.+?)\s+per\s+run\s+and\s+pays\s+" + _NUM, re.I)
_NEED = re.compile(r"\bI\s+need\s+(\d+)\s+(\w+)\s+for\s+(\w+)", re.I)
_ASK = re.compile(r"\bwhat\s+are\s+your\s+projects\b", re.I)
_PROPOSE = re.compile(r"\bI\s+propose:?\s*you\s+take\s+(.+?),\s*(?:and\s+)?I\s+take\s+(.+?)(?:\.(?:\s|$)|$|;|!|\?)", re.I | re.S)
_REJECT = re.compile(r"\b(?:can'?t|cannot|can\s+not)\s+accept\b|\bno\s+deal\b|\bI\s+reject\b", re.I)
# "Deal." only as a sentence of its own, so "what deal do you want?" is not an acceptance
_ACCEPT = re.compile(r"\bagreed\b|\bit'?s\s+a\s+deal\b|(?:^|(?<=[.!?])\s*)deal\s*[.!]|\bI\s+accept\b", re.I)
_ITEM = re.compile(r"^\s*(\d+)\s*(?:x\s*|×\s*)?(\w+)\s*$", re.I)


def _units(text: str) -> tuple[tuple[str, int], ...] | None:
    """``5 wood and 2 gold`` -> (("wood", 5), ("gold", 2)); ``nothing`` -> (); else None."""
    text = text.strip().rstrip(".")
    if re.fullmatch(r"(?:nothing|none|no\s+resources)", text, re.I):
        return ()
    out: list[tuple[str, int]] = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", text):
        m = _ITEM.match(part)
        if not m:
            return None
        out.append((m.group(2).lower(), int(m.group(1))))
    return tuple(out)


def parse(text: str) -> list[Act]:
    """Every act in ``text``, in order of appearance (position of its sentence).

    Parsed once per text and process (a negotiator re-reads the whole dialogue at every
    turn); acts are frozen, and each call returns a new list."""
    return list(_parse(text))


@functools.lru_cache(maxsize=8192)
def _parse(text: str) -> tuple[Act, ...]:
    found: list[tuple[int, Act]] = []
    for m in _DISCLOSE.finditer(text):
        req = _units(m.group(2))
        if req is not None:
            found.append((m.start(), Disclose(m.group(1).lower(), req, float(m.group(3)))))
    for m in _NEED.finditer(text):
        found.append((m.start(), Need(int(m.group(1)), m.group(2).lower(), m.group(3).lower())))
    for m in _ASK.finditer(text):
        found.append((m.start(), Ask()))
    for m in _PROPOSE.finditer(text):
        you, me = _units(m.group(1)), _units(m.group(2))
        if you is not None and me is not None:
            found.append((m.start(), Propose(you, me)))
    rejects = [m.start() for m in _REJECT.finditer(text)]
    for pos in rejects:
        found.append((pos, Reject()))
    for m in _ACCEPT.finditer(text):
        # "no deal" is a rejection, not an acceptance
        if not any(r <= m.start() <= r + 12 for r in rejects):
            found.append((m.start(), Accept()))
    found.sort(key=lambda x: x[0])
    return tuple(a for _, a in found)


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
