"""The matrix game's valid answers as regexes (see
:mod:`negotiation_env.core.answer_format`).

| phase | description |
| --- | --- |
| ``action`` | ``A`` or ``B`` (F.6: the stripped answer; the parser also finds a standalone letter in prose, which a description has no reason to offer) |
| ``message`` | one line of text that starts with a visible character (the prompt asks for one SHORT sentence; the parser takes any non-blank text) |
| ``acknowledge`` | the same (never parsed or scored, F.5) |
"""

from __future__ import annotations

from typing import Any, Mapping

from ...core.answer_format import AnswerFormat, text_regex

__all__ = ["spec", "build", "ONE_LINE"]

#: a character of a one-line message: no ``<``, no control character
ONE_LINE = r"[^<\x00-\x1f\x7f]"


def spec(phase: str) -> dict[str, Any]:
    return {"game": "matrix", "phase": phase}


def build(s: Mapping[str, Any], *, text_chars: int | None = None) -> AnswerFormat:
    phase = s["phase"]
    if phase == "action":
        return AnswerFormat("matrix.action", regex="(?:A|B)")
    if phase in ("message", "acknowledge"):
        return AnswerFormat(f"matrix.{phase}", regex=text_regex(ONE_LINE, text_chars, visible_first=True),
                            text_fields=1)
    raise ValueError(f"matrix answer spec: unknown phase {phase!r}")
