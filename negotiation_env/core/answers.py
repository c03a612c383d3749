"""An agent's answer as the env keeps it: never longer than a bound.

An answer is kept in several places: the agent's own conversation (re-sent to the model
with every later prompt, retries included), events (``validation_error`` carries the
refused text), ``info["last_turn"]["raw"]`` and the trace step. Unbounded, one runaway
answer is paid for again at every retry and in every copy: four refused 20 MB answers made
one 240 MB trace line, and a 1,000,001-character answer put the observation outside its
own space (:data:`~negotiation_env.core.spaces.OBS_TEXT_MAX`).

:func:`cut` keeps the first ``limit`` characters and appends :data:`MARKER`, which tells
the model (and a reader) how long the answer was; the games record an
``answer_truncated`` event (``length``: the answer's length, ``limit``) whenever they cut
one. The limits, shared by every game:

* :data:`REFUSED_ANSWER_CHARS` (8,000): a refused answer. The agent needs its start to see
  what it got wrong (the error message says the rest); every legitimate answer of the
  three games fits (a matrix message is at most 4,000 characters by default, a
  rulemaking answer with a full notebook about 6,000), and four retries re-send at most
  32,000 characters instead of megabytes.
* :data:`ANSWER_CHARS` (200,000): any answer, accepted ones too. Text answers are parsed
  from at most 100,000 characters (:data:`~negotiation_env.core.jsontext.MAX_RESPONSE_CHARS`)
  once reasoning is removed, and reasoning is kept by each game's own caps; this bound
  only stops a huge ``<think>`` span from being stored whole in the raw copies, and keeps
  every kept answer far inside :data:`~negotiation_env.core.spaces.OBS_TEXT_MAX`.
"""

from __future__ import annotations

__all__ = ["REFUSED_ANSWER_CHARS", "ANSWER_CHARS", "MARKER", "cut"]

REFUSED_ANSWER_CHARS = 8_000
ANSWER_CHARS = 200_000
#: appended to a cut answer (``{length}``: the answer's length, ``{limit}``: what was kept)
MARKER = "\n[... answer cut here: {length:,} characters in all, the first {limit:,} kept]"


def cut(text: str, limit: int) -> tuple[str, int | None]:
    """``(kept, length)``: ``text`` itself and None when it is at most ``limit``
    characters, else its first ``limit`` characters plus :data:`MARKER` and its length."""
    if len(text) <= limit:
        return text, None
    return text[:limit] + MARKER.format(length=len(text), limit=limit), len(text)
