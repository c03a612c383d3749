"""Separating ``<think>`` reasoning from an answer, in linear time: the one splitter of
every game (matrix, rulemaking and resource parsers) and every model back end
(:func:`split_reasoning`, used by the API client and the HF and API policies).

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
every opening tag and takes quadratic time (figures on the reliability docs page), so
one runaway model output could stall a game. This scan visits each tag once.

The rule above is ``rule="strict"`` (the default, every game's). ``rule="f6"`` is seed
002's F.6 as written, for the matrix game's protocol: "the runner removes complete
``<think>...</think>`` spans and any unclosed ``<think>`` suffix", that is

* first every complete span, each ending at the first ``</think>`` after its opening tag
  (F.6's non-greedy regex: ``<think><think>a</think>b</think>c`` keeps ``b</think>c``),
* then, on what is left, everything from the first ``<think>`` to the end;

a ``</think>`` outside any span is left in the answer as text (``A</think>`` answers
``A</think>``, where the strict rule makes ``A`` reasoning). It is computed by the same
kind of linear scan, with the regexes' result.
"""

from __future__ import annotations

import re

__all__ = ["split_think", "strip_think", "split_reasoning", "OPEN", "CLOSE", "RULES", "STRICT", "F6"]

OPEN, CLOSE = "<think>", "</think>"
#: the two rules of the module docstring: every game's, and seed 002's F.6 as written
STRICT, F6 = "strict", "f6"
RULES = (STRICT, F6)
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


def _f6(text: str) -> tuple[str, list[str]]:
    """F.6 as written (module docstring): ``re.sub(r"<think>.*?</think>", "", text)`` then
    ``re.sub(r"<think>.*", "", ...)`` (both ignoring case, ``.`` matching line breaks),
    with the reasoning each removed."""
    tags = list(_TAG.finditer(text))
    answer: list[str] = []
    reasoning: list[str] = []
    start = 0  # where the answer text not yet taken begins
    i = 0
    while i < len(tags):
        if tags[i].group(1):  # a closing tag outside a span: text
            i += 1
            continue
        j = i + 1  # the span ends at the first closing tag after its opening tag
        while j < len(tags) and not tags[j].group(1):
            j += 1
        if j == len(tags):  # no closing tag after this one, so none after any later one either
            break
        answer.append(text[start:tags[i].start()])
        reasoning.append(text[tags[i].end():tags[j].start()])
        start = tags[j].end()
        i = j + 1
    answer.append(text[start:])
    left = "".join(answer)
    for m in _TAG.finditer(left):  # the unclosed suffix: from the first opening tag left (maybe spliced)
        if not m.group(1):
            reasoning.append(left[m.end():])
            left = left[:m.start()]
            break
    return left, reasoning


def split_think(text: str, rule: str = STRICT) -> tuple[str, list[str]]:
    """``(answer, reasoning)``: ``text`` without its reasoning, and the reasoning pieces in
    order (each span's inside; the text before an orphan closing tag; an unclosed span's
    inside), by ``rule`` (:data:`RULES`, module docstring; default the strict one)."""
    if rule == F6:
        return _f6(text)
    if rule != STRICT:
        raise ValueError(f"rule must be one of {', '.join(RULES)}; got {rule!r}")
    answer, reasoning = _scan(text)
    if _has_tag(answer):  # a tag spliced together by removing spans: F.6's second pass
        answer, more = _scan(answer)
        reasoning.extend(more)
    return answer, reasoning


def strip_think(text: str, rule: str = STRICT) -> str:
    """``text`` without its reasoning (:func:`split_think`)."""
    return split_think(text, rule)[0]


def split_reasoning(text: str) -> tuple[str, str | None]:
    """``(answer, reasoning)``: ``<think>`` spans out of ``text``; reasoning None if none
    (or only empty spans).

    Several spans are joined with blank lines. The answer is stripped of surrounding
    whitespace; nothing else in it changes."""
    text, parts = split_think(text)
    reasoning = "\n\n".join(p.strip() for p in parts if p.strip())
    return text.strip(), reasoning or None
