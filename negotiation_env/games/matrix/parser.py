"""Reading an agent's answer in the matrix game: the F.6 parsing rules.

Raw model text:

1. Complete ``<think>...</think>`` spans are removed, then any unclosed ``<think>``
   suffix (tags matched ignoring case, spans may cross lines). With ``think_tags="f6"``
   (the game's default) this is F.6 as written: a span ends at the first ``</think>``
   after its opening tag, and a ``</think>`` outside any span stays in the text, where
   rule 3 reads past it (``A</think>`` is A, with a warning). ``think_tags="strict"`` is
   every other game's rule (:mod:`negotiation_env.core.thinking`): nested spans are
   reasoning whole, and a stray ``</think>`` makes everything before it reasoning (a chat
   template that opens the span in the prompt), so ``A</think>`` has no action.
2. A message is what is left, stripped of surrounding whitespace; empty is an error
   (the game then delivers ``"[No message sent]"``).
3. An action is accepted when the stripped text is ``A`` or ``B`` ignoring case;
   otherwise the first standalone capital ``A`` or ``B`` (regex ``\\b([AB])\\b``) is
   taken, so prose around it is tolerated (with a warning) and the first valid token
   wins when several occur; otherwise it is an error (the game then plays ``B``).

Structured actions (``gymnasium`` Dict ``{"message": Text, "action": Discrete(2)}``):
the message phase reads ``message`` (empty is an error), the action phase reads
``action`` (0 = A, 1 = B); an int 0/1 is accepted as an action too. Both paths raise
:class:`~negotiation_env.core.jsontext.ParseError` whose message is what the agent is
told on a retry; the game decides between retry and the paper's defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from ...core.jsontext import ParseError
from ...core.thinking import F6, STRICT, split_think
from ...core.visible import is_blank, shown
from .rules import ACTIONS

__all__ = ["ParseError", "Parsed", "strip_think", "think_spans", "parse_message", "parse_action", "parse_structured",
           "THINK_TAGS"]

#: the ``think_tags`` rules (module docstring): F.6 as written, or every other game's strict one
THINK_TAGS = (F6, STRICT)

_STANDALONE = re.compile(r"\b([AB])\b")


@dataclass(frozen=True)
class Parsed:
    """An accepted answer: the message text or the action, and format warnings."""

    value: str
    warnings: tuple[str, ...] = ()


def strip_think(text: str, think_tags: str = F6) -> str:
    """``text`` without its reasoning, by the ``think_tags`` rule (module docstring)."""
    return split_think(text, think_tags)[0]


def think_spans(text: str, think_tags: str = F6) -> str | None:
    """The reasoning :func:`strip_think` removes (spans joined by blank lines), or None."""
    parts = [p.strip() for p in split_think(text, think_tags)[1] if p.strip()]
    return "\n\n".join(parts) or None


def _text(text: Any, think_tags: str) -> str:
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    return strip_think(text, think_tags)


def parse_message(text: Any, think_tags: str = F6) -> Parsed:
    """A message: the answer without reasoning spans, stripped; empty is a ParseError."""
    msg = _text(text, think_tags).strip()
    if is_blank(msg):  # not only strip(): a zero-width space alone says nothing
        raise ParseError("empty message; send one SHORT sentence to your counterpart")
    return Parsed(msg)


def parse_action(text: Any, think_tags: str = F6) -> Parsed:
    """``A`` or ``B`` by the F.6 rules (see the module docstring)."""
    answer = _text(text, think_tags).strip()
    if answer.upper() in ACTIONS:
        return Parsed(answer.upper())
    m = _STANDALONE.search(answer)
    if m is None:
        raise ParseError("no action found; respond with only: A or B")
    return Parsed(m.group(1), ("text around the action was ignored",))


def parse_structured(action: Any, phase: str, think_tags: str = F6) -> Parsed:
    """The structured action of ``phase`` (``"message"``/``"acknowledge"`` or ``"action"``);
    a message's text loses its reasoning by ``think_tags``."""
    if phase == "action":
        if isinstance(action, Mapping):
            if "action" not in action:
                raise ParseError('missing "action"; 0 for A or 1 for B')
            v = action["action"]
        else:
            v = action
        if isinstance(v, np.ndarray) and v.shape == ():
            v = v.item()
        if isinstance(v, np.integer):
            v = int(v)
        if isinstance(v, str) and v.strip().upper() in ACTIONS:
            return Parsed(v.strip().upper())
        if isinstance(v, bool) or not isinstance(v, int) or v not in (0, 1):
            raise ParseError(f'"action" must be 0 (A) or 1 (B); got {shown(v)}')
        return Parsed(ACTIONS[v])
    if not isinstance(action, Mapping):
        raise ParseError(f"a structured message is a dict with \"message\"; got {type(action).__name__}")
    msg = action.get("message")
    if msg is None:
        raise ParseError('missing "message"; send one SHORT sentence to your counterpart')
    if not isinstance(msg, str):
        raise ParseError(f'"message" must be text; got {type(msg).__name__}')
    return parse_message(msg, think_tags)
