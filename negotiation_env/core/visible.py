"""Text as its reader sees it: whether it shows anything, and values shown in messages.

A required field (a rulemaking rationale, a resource-game speech, a matrix message) must
say something. ``str.strip`` only removes what Python calls whitespace, so a rationale of
one zero-width space (U+200B, a format character) or a Hangul filler passed as
non-empty while the other parties read nothing. :func:`is_blank` treats as blank every
character that renders as nothing on its own:

* whitespace (``str.isspace``) and the separators (Unicode categories Zs, Zl, Zp);
* control, format, surrogate, private-use and unassigned code points (Cc, Cf, Cs, Co,
  Cn): zero-width spaces and joiners, direction marks, the BOM, soft hyphen, tag characters;
* combining marks (Mn, Me) with nothing to combine with: they belong to a letter, and
  alone show at most a dotted circle;
* letters and symbols drawn as empty: the Hangul fillers (U+115F, U+1160, U+3164,
  U+FFA0) and the braille blank (U+2800).

One pass, stopping at the first visible character.

:func:`shown` is ``repr`` for an error message about a hostile value: cut short, and never
raising (``repr`` of an integer past 4,300 digits raises ``ValueError``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["is_blank", "shown"]

_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"})
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _shows(ch: str) -> bool:
    return not (ch.isspace() or ch in _BLANK_GLYPHS or unicodedata.category(ch) in _INVISIBLE_CATEGORIES)


def is_blank(text: str) -> bool:
    """True when ``text`` has no character a reader would see (see the module docstring)."""
    return not any(_shows(ch) for ch in text)


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters; an integer too long to print is
    described by its number of digits."""
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    try:
        text = repr(value)
    except ValueError:  # a container holding such an integer
        return f"a {type(value).__name__} holding an integer too long to print"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
