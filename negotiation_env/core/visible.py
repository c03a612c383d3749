"""Whether a text shows anything to the reader it is for.

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
"""

from __future__ import annotations

import unicodedata

__all__ = ["is_blank"]

_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"})
_BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _shows(ch: str) -> bool:
    return not (ch.isspace() or ch in _BLANK_GLYPHS or unicodedata.category(ch) in _INVISIBLE_CATEGORIES)


def is_blank(text: str) -> bool:
    """True when ``text`` has no character a reader would see (see the module docstring)."""
    return not any(_shows(ch) for ch in text)
