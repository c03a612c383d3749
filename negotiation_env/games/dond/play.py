"""Deal or No Deal's human-seat hooks for ``negotiation-env play`` (:mod:`negotiation_env.play`).

Short forms a person may type instead of the JSON answer, each with an optional message
after a colon:

* ``propose 2 1 0`` (keep 2 books, 1 hat, 0 balls), ``propose 2 1 0: you take the balls``;
* ``accept``, ``accept: deal``;
* ``walk away`` (or ``walk_away``), ``walk away: no thanks``.

Anything else goes to the game as typed (a JSON answer, or text the game refuses with
its own message).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...play import Control, ControlField, PlayHooks, ShortFormError
from .prompts import bundle_text

__all__ = ["HOOKS", "phase_line", "short_form", "ending"]

_PROPOSE = re.compile(r"(?:propose|offer)\b\s*(.*?)\s*(?::\s*(.*))?", re.IGNORECASE | re.DOTALL)
_COUNTS = re.compile(r"(\d{1,2})\s+(\d{1,2})\s+(\d{1,2})")
_ACCEPT = re.compile(r"accept\b\s*(?::\s*(.*))?", re.IGNORECASE | re.DOTALL)
_WALK = re.compile(r"walk[\s_-]*away\b\s*(?::\s*(.*))?", re.IGNORECASE | re.DOTALL)


def phase_line(game: Any, agent: str) -> str:
    info = game.info(agent)
    offer = game.offer_for(agent)
    moves = "propose 2 1 0 (keep 2 books, 1 hat, 0 balls)"
    if offer is not None:
        moves += f", accept (you get {bundle_text(offer)})"
    if game.config.walk_away:
        moves += ", walk away"
    return (f"turn {info['turn']} of {game.config.max_turns}: your move ({moves}; add a message after a colon, "
            "e.g. propose 2 1 0: you take the balls)")


def short_form(game: Any, agent: str, text: str) -> str:
    s = text.strip()
    m = _ACCEPT.fullmatch(s)
    if m:
        return json.dumps({"message": (m.group(1) or "").strip(), "action": "accept"})
    m = _WALK.fullmatch(s)
    if m:
        return json.dumps({"message": (m.group(1) or "").strip(), "action": "walk_away"})
    m = _PROPOSE.fullmatch(s)
    if m:
        counts = _COUNTS.fullmatch(m.group(1))
        if counts is None:
            raise ShortFormError("write a proposal as 'propose B H L': how many books, hats and balls you keep, "
                                 "e.g. propose 2 1 0")
        take = dict(zip(("books", "hats", "balls"), (int(x) for x in counts.groups())))
        return json.dumps({"message": (m.group(2) or "").strip(), "action": "propose", "take": take})
    return text


def ending(game: Any) -> tuple[str, bool]:
    o = game.outcome or {}
    p = o.get("rewards") or {}
    pts = ", ".join(f"{a} {v} points" for a, v in p.items())
    where = f"ended at turn {o.get('turns', 0)} of {game.config.max_turns}"
    if o.get("agreement"):
        return f"{where}: deal ({pts})", False
    why = {"walk_away": "an agent walked away", "turn_limit": "no proposal was accepted within the turn limit"}
    return f"{where}: no deal, {why.get(o.get('end_reason'), o.get('end_reason'))} ({pts})", False


def controls(game: Any, agent: str) -> Control:
    """A proposal (how many of each item the agent keeps), an accept where an offer
    stands, a walk-away where the game allows it, and a message."""
    actions = ["propose"] + (["accept"] if game.offer_for(agent) is not None else []) + \
        (["walk_away"] if game.config.walk_away else [])
    fields = (ControlField("action", "action", "choice", tuple(actions)),
              *(ControlField(item, f"{item} you keep", "int", minimum=0) for item in ("books", "hats", "balls")),
              ControlField("message", "message", "text"))

    def compose(texts: dict) -> str:
        action = texts["action"] or "propose"
        answer: dict[str, Any] = {"message": texts["message"], "action": action}
        if action == "propose":
            answer["take"] = {item: int(texts[item] or 0) for item in ("books", "hats", "balls")}
        return json.dumps(answer)

    return Control("your move", fields, compose)


HOOKS = PlayHooks(phase_line, short_form, ending, controls=controls)
