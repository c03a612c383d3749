"""Separating ``<think>`` reasoning from an answer, in linear time: the one splitter of
every game (matrix, rulemaking and resource parsers) and every model back end
(:func:`baselines.llm.prompting.split_reasoning`, used by the HF and API policies).

The rule (seed 002, F.6, extended so that no shape of tags lets reasoning through):
tags ``<think>`` and ``</think>`` match ignoring case; the text is read left to right

* outside a span, text is answer; ``<think>`` opens a span;
* inside a span, ``<think>`` opens a nested one and ``</think>`` closes the innermost;
  the span ends when its outermost level is closed, and all of its inside (inner tags
  included) is one piece of reasoning: ``<think><think>a</think>b</think>c`` answers
  ``c``, where F.6's non-greedy regex left ``b</think>c``;
* a ``</think>`` outside any span (an orphan: the chat template opened the span in the
  prompt, as Qwen3-style templates do, or the model lost count) makes everything before
  it reasoning, answer so far included: ``secret</think>answer`` answers ``answer``;
* a span still open at the end (the model was cut off while thinking) is reasoning to
  the end: ``A<think>then B`` answers ``A``.

Removing spans can splice a tag out of the text around them (``<thi`` + ``nk>``); as
F.6's second regex pass does, the rule is applied once more to what is left, and what
then remains is the answer (a tag spliced twice stays in it as text, and carries no
reasoning: everything around it was answer).

Written as one scan over the tags rather than the obvious ``re.sub(r"<think>.*?</think>", ...)``:
on an answer holding many ``<think>`` tags and no closing tag, that regex retries from
every opening tag and takes quadratic time (16,000 repeated tags, 112k characters, took
15 s), so one runaway model output could stall a game. This scan visits each tag once.
"""

from __future__ import annotations

import re

__all__ = ["split_think", "strip_think", "OPEN", "CLOSE"]

OPEN, CLOSE = "<think>", "</think>"
#: either tag, ignoring case. Found on the text itself, never on ``text.lower()``: lower()
#: can change a string's length ("İ" becomes two characters), so positions found in the
#: lowered copy would cut the original in the wrong places and let reasoning through.
#: A literal pattern: the search is linear.
_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)


def _scan(text: str) -> tuple[str, list[str]]:
    """One left-to-right pass of the rule (module docstring): ``(answer, reasoning)``."""
    # (is_reasoning, piece) in order; pieces before ``orphan_cut`` are all reasoning
    segments: list[tuple[bool, str]] = []
    orphan_cut = 0
    depth = 0
    start = 0  # where the current segment (answer, or the current span's inside) begins
    for m in _TAG.finditer(text):
        if not m.group(1):  # an opening tag
            if depth == 0:
                segments.append((False, text[start:m.start()]))
                start = m.end()
            depth += 1
        elif depth > 0:  # a closing tag inside a span
            depth -= 1
            if depth == 0:
                segments.append((True, text[start:m.start()]))
                start = m.end()
        else:  # an orphan closing tag: everything before it is reasoning
            segments.append((True, text[start:m.start()]))
            orphan_cut = len(segments)
            start = m.end()
    segments.append((depth > 0, text[start:]))
    answer: list[str] = []
    reasoning: list[str] = []
    for i, (thinking, piece) in enumerate(segments):
        if thinking or i < orphan_cut:
            if thinking or piece:  # answer text an orphan tag made reasoning: only if there is some
                reasoning.append(piece)
        else:
            answer.append(piece)
    return "".join(answer), reasoning


def _has_tag(text: str) -> bool:
    return _TAG.search(text) is not None


def split_think(text: str) -> tuple[str, list[str]]:
    """``(answer, reasoning)``: ``text`` without its reasoning, and the reasoning pieces in
    order (each span's inside; the text before an orphan closing tag; an unclosed span's
    inside), by the rule of the module docstring."""
    answer, reasoning = _scan(text)
    if _has_tag(answer):  # a tag spliced together by removing spans: F.6's second pass
        answer, more = _scan(answer)
        reasoning.extend(more)
    return answer, reasoning


def strip_think(text: str) -> str:
    """``text`` without its reasoning (:func:`split_think`)."""
    return split_think(text)[0]
