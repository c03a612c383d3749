"""Reading an agent's answer in Deal or No Deal: text and structured actions, one result.

A move is ``{"message": str, "action": "propose" | "accept" | "walk_away", "take": {...}}``;
``take`` (how many of each item the mover keeps, by item name) belongs to ``propose``
only. Both paths give the same :class:`Move`, so a text answer and the structured action
of the same content are one move (``tests/games/dond/test_parser.py`` checks it):

* **text** (:func:`parse_text`): ``<think>`` spans are cut out (the strict rule of
  :mod:`negotiation_env.core.thinking`, kept as the move's ``thinking``), then the first
  JSON object is read (:func:`~negotiation_env.core.jsontext.extract_json_object`: code
  fences and prose around it are tolerated with a warning);
* **structured** (:func:`parse_structured`): a mapping as the action space samples it:
  ``action`` a name or its index in :data:`MOVES` (an int or a numpy integer), ``take`` a
  mapping by item name or a sequence of three counts in :data:`~.rules.ITEMS` order (a
  list, tuple or numpy array), ``message`` text (missing: no message).

In both, ``take`` of an ``accept`` or ``walk_away`` is ignored (the action space always
carries one), and a missing ``message`` is the empty message. What a move may do in the
current state (a count above the pool, accepting with no offer from the partner, walking
away where the config forbids it) is :func:`legality`'s to say.

Every refusal is a :class:`ParseError` (:class:`IllegalMove` for a well-formed move the
state does not allow) whose message is what the agent reads on its retry.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ...core.jsontext import ParseError, extract_json_object
from ...core.thinking import STRICT, split_think
from ...core.visible import shown
from .rules import ITEMS

__all__ = ["MOVES", "Move", "Parsed", "ParseError", "IllegalMove", "parse_text", "parse_structured", "legality"]

#: the moves, in the order of the structured action's ``action`` index
MOVES: tuple[str, ...] = ("propose", "accept", "walk_away")
_KEYS = ("message", "action", "take")
#: the largest count read (any count above the pool is refused by :func:`legality`)
_MAX_COUNT = 99


class IllegalMove(ParseError):
    """A well-formed move the current state does not allow."""


@dataclass(frozen=True)
class Move:
    """One agent's move: what it says, what it does, and for a proposal what it keeps."""

    action: str
    take: tuple[int, int, int] | None = None
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The move as a structured action (``take`` by item name; None unless a proposal)."""
        take = None if self.take is None else dict(zip(ITEMS, self.take))
        return {"message": self.message, "action": self.action, "take": take}


@dataclass(frozen=True)
class Parsed:
    """An accepted answer: the move, format warnings, and the reasoning cut out of it."""

    move: Move
    warnings: tuple[str, ...] = ()
    thinking: str | None = None


def _count(item: str, v: Any) -> int:
    if isinstance(v, np.ndarray) and v.shape == ():
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise ParseError(f'"take" must give {item} as a whole number; got {shown(v)}')
    v = int(v)
    if not 0 <= v <= _MAX_COUNT:
        raise ParseError(f'"take" of {item} must be a whole number from 0 to the number in the pool; got {v}')
    return v


def _take(v: Any) -> tuple[int, int, int]:
    names = ", ".join(ITEMS)
    if v is None:
        raise ParseError(f'a proposal needs "take": how many {names} you keep, e.g. '
                         '{"books": 1, "hats": 0, "balls": 2}')
    if isinstance(v, Mapping):
        unknown = [k for k in v if k not in ITEMS]
        if unknown:
            raise ParseError(f'"take" has unknown items {", ".join(map(shown, unknown))}; the items are {names}')
        missing = [k for k in ITEMS if k not in v]
        if missing:
            raise ParseError(f'"take" must give every item ({names}); missing {", ".join(missing)}')
        return tuple(_count(k, v[k]) for k in ITEMS)  # type: ignore[return-value]
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if isinstance(v, (list, tuple)) and len(v) == len(ITEMS):
        return tuple(_count(k, x) for k, x in zip(ITEMS, v))  # type: ignore[return-value]
    raise ParseError(f'"take" must be an object with {names} (or a list of three counts); got {shown(v)}')


def _action(v: Any) -> str:
    if isinstance(v, np.ndarray) and v.shape == ():
        v = v.item()
    if isinstance(v, str) and v.strip().lower().replace(" ", "_").replace("-", "_") in MOVES:
        return v.strip().lower().replace(" ", "_").replace("-", "_")
    if isinstance(v, numbers.Integral) and not isinstance(v, bool) and 0 <= int(v) < len(MOVES):
        return MOVES[int(v)]
    if v is None:
        raise ParseError(f'missing "action": one of {", ".join(MOVES)}')
    raise ParseError(f'"action" must be one of {", ".join(MOVES)}; got {shown(v)}')


def _move(obj: Mapping[str, Any]) -> Move:
    action = _action(obj.get("action"))
    message = obj.get("message")
    if message is None:
        message = ""
    if not isinstance(message, str):
        raise ParseError(f'"message" must be text; got {type(message).__name__}')
    take = _take(obj.get("take")) if action == "propose" else None
    return Move(action, take, message.strip())


def parse_structured(action: Any) -> Parsed:
    """The move of a structured action (module docstring)."""
    if not isinstance(action, Mapping):
        raise ParseError(f'a move is an object with "message", "action" and "take"; got {type(action).__name__}')
    return Parsed(_move(action))


def parse_text(text: Any, max_chars: int | None = None) -> Parsed:
    """The move in a text answer (module docstring); ``max_chars`` caps the text read."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    answer, reasoning = split_think(text, STRICT)
    thinking = "\n\n".join(p.strip() for p in reasoning if p.strip()) or None
    kwargs = {} if max_chars is None else {"max_chars": max_chars}
    obj, warnings = extract_json_object(answer, **kwargs)
    extra = [k for k in obj if k not in _KEYS]
    move = _move(obj)
    if extra:
        warnings = [*warnings, f"keys other than {', '.join(_KEYS)} were ignored"]
    if move.action != "propose" and obj.get("take") is not None:
        warnings = [*warnings, f'"take" was ignored: it belongs to a proposal, not to {move.action}']
    return Parsed(move, tuple(warnings), thinking)


def legality(move: Move, pool: Sequence[int], *, offer: bool, walk_away: bool) -> str | None:
    """Why ``move`` is not allowed now (None: it is): ``offer`` whether the partner's
    proposal is on the table, ``walk_away`` whether the config allows walking away."""
    if move.action == "propose":
        assert move.take is not None
        over = [f"{t} {item} (the pool has {c})" for item, t, c in zip(ITEMS, move.take, pool) if t > c]
        if over:
            return f"you cannot keep more than the pool holds: {', '.join(over)}"
        return None
    if move.action == "accept" and not offer:
        return "there is no proposal from the other agent to accept; propose a split instead"
    if move.action == "walk_away" and not walk_away:
        return "walking away is not allowed in this negotiation; propose a split or accept"
    return None
