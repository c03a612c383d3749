"""Separating ``<think>`` reasoning from an answer, in linear time.

The rule (seed 002, F.6, used by every game): complete ``<think>...</think>`` spans are
removed, then an unclosed ``<think>`` and everything after it; tags match ignoring case.

Written with ``str.find`` rather than the obvious ``re.sub(r"<think>.*?</think>", ...)``:
on an answer holding many ``<think>`` tags and no closing tag, that regex retries from
every opening tag and takes quadratic time (16,000 repeated tags, 112k characters, took
15 s), so one runaway model output could stall a game. This scan is one pass.
"""

from __future__ import annotations

__all__ = ["split_think", "strip_think", "OPEN", "CLOSE"]

OPEN, CLOSE = "<think>", "</think>"


def split_think(text: str, *, unclosed: bool = True) -> tuple[str, list[str]]:
    """``(answer, reasoning)``: ``text`` without its reasoning, and the reasoning pieces in
    order (each complete span's inside, then the unclosed suffix's, when there is one).
    ``unclosed=False`` removes complete spans only."""
    low = text.lower()
    kept: list[str] = []
    spans: list[str] = []
    i = 0
    while True:
        j = low.find(OPEN, i)
        k = low.find(CLOSE, j + len(OPEN)) if j >= 0 else -1
        if k < 0:  # no further complete span: a later opening tag cannot have a closing one either
            kept.append(text[i:])
            break
        kept.append(text[i:j])
        spans.append(text[j + len(OPEN):k])
        i = k + len(CLOSE)
    answer = "".join(kept)
    if not unclosed:
        return answer, spans
    # the unclosed suffix is looked for in what is left, as a second regex pass would
    j = answer.lower().find(OPEN)
    if j >= 0:
        spans.append(answer[j + len(OPEN):])
        answer = answer[:j]
    return answer, spans


def strip_think(text: str) -> str:
    """``text`` without complete ``<think>`` spans and an unclosed ``<think>`` suffix."""
    return split_think(text)[0]
