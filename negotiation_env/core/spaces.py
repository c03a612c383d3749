"""Space helpers: text spaces whose ``contains`` accepts what the env really returns.

``gymnasium.spaces.Text`` defaults to ``min_length=1`` and an alphanumeric charset (no
space, no punctuation), which rejects every prompt. Observation text uses
:data:`OBS_CHARSET`: every printable character of the Basic Multilingual Plane plus
newline and tab, in code-point order. Anything else (control characters, astral-plane
characters such as emoji, lone surrogates) is replaced by U+FFFD in env text by
:func:`sanitize`; the raw text stays in ``info`` and traces. An agent's own answers stay
in its conversation exactly as it sent them (what a model generated is what it reads
back), so a conversation message's content is :class:`AnswerText`, which accepts any
text without a lone surrogate. Action text uses the
printable-ASCII :data:`ACTION_CHARSET` so that ``sample()`` draws readable strings; the
env accepts any string as a message regardless. An observation text space prints short,
``Text(0, 1000000, charset=<55,508 characters: printable BMP, newline and tab>)``, not
its whole charset.
"""

from __future__ import annotations

import functools
import re
import string

from gymnasium import spaces

__all__ = ["OBS_CHARSET", "ACTION_CHARSET", "REPLACEMENT", "OBS_TEXT_MAX", "sanitize", "quote_speech",
           "terminal_line", "quoted_line", "obs_text", "AnswerText", "encodable",
           "action_text", "chat_observation_space"]

REPLACEMENT = "\ufffd"


@functools.cache
def _bmp_printable() -> str:
    """:data:`OBS_CHARSET`, built on first use (it takes a scan of the whole plane)."""
    chars = ["\n", "\t"]
    chars.extend(chr(c) for c in range(0x20, 0x10000) if not 0xD800 <= c <= 0xDFFF and chr(c).isprintable())
    if REPLACEMENT not in chars:
        chars.append(REPLACEMENT)
    return "".join(chars)


ACTION_CHARSET: str = string.ascii_letters + string.digits + string.punctuation + " "


@functools.cache
def _outside() -> re.Pattern[str]:
    """The characters outside :data:`OBS_CHARSET`, as one character class."""
    return re.compile("[^" + re.escape(_bmp_printable()) + "]")


@functools.cache
def _prototype() -> spaces.Text:
    """The one plain ``Text`` over :data:`OBS_CHARSET` whose tables every :class:`ObsText` shares."""
    return spaces.Text(1, min_length=0, charset=_bmp_printable())


def __getattr__(name: str):
    # OBS_CHARSET and what is built from it are made on first use, not at import
    if name == "OBS_CHARSET":
        return _bmp_printable()
    if name == "_OUTSIDE":
        return _outside()
    if name == "_PROTOTYPE":
        return _prototype()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: the ASCII bytes inside :data:`OBS_CHARSET` (tab, newline, space to tilde)
_ASCII_INSIDE = bytes([9, 10, *range(0x20, 0x7F)])


def sanitize(text: str) -> str:
    """Map ``text`` into :data:`OBS_CHARSET` (characters outside become U+FFFD).

    Most env text is ASCII; an ASCII text with nothing outside the charset (checked as
    bytes, several times faster than the character-class regex) is returned as is."""
    if text.isascii() and not text.encode("ascii").translate(None, _ASCII_INSIDE):
        return text
    return _outside().sub(REPLACEMENT, text)


def quote_speech(text: str) -> str:
    """An agent's words made safe to place inside a template's quotation marks.

    Backslashes, double quotes, newlines, tabs and other control characters are escaped
    as in a JSON string (``\\``, ``\"``, ``\n``, ...), so the words stay on the one
    line and inside the quotes the template puts them in: a message that contains
    "--- DECISION PHASE ---" or a fake result notice can never start a line of its own
    and pass as env text. Then :func:`sanitize` maps what is left into the charset."""
    import json

    return sanitize(json.dumps(text, ensure_ascii=False)[1:-1])


#: what a terminal would act on rather than show: C0 controls (ESC, BEL, backspace,
#: carriage return, line feed, ...), DEL, C1 controls (CSI U+009B, OSC U+009D, NEL
#: U+0085), the line and paragraph separators, the bidirectional embeddings, overrides,
#: isolates and marks, and lone surrogates (no terminal encoding can carry one)
_TERMINAL_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _escape(m: re.Match) -> str:
    c = m.group()
    return _SHORT_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def terminal_line(text: str) -> str:
    """``text`` as one line a terminal shows and never acts on: every character of
    ``_TERMINAL_UNSAFE`` written as a visible JSON-style escape (``\n``, ``\u001b``,
    ``\u009b``, ``\u202e``), everything else (emoji, accents, other scripts) as is.
    A line break inside ``text`` can then never start a line of its own."""
    if text.isascii() and text.isprintable():
        return text
    return _TERMINAL_UNSAFE.sub(_escape, text)


def quoted_line(text: str) -> str:
    """An agent's words for a rendering, as the prompts quote them: inside double
    quotation marks, with quotes, backslashes and control characters escaped as in a JSON
    string (:func:`quote_speech`), on one line and with nothing a terminal acts on
    (:func:`terminal_line`). Unlike the prompts' form it keeps every printable
    character (emoji included) for the person reading."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return '"' + text + '"'  # nothing to escape: what the general form below gives
    import json

    return '"' + terminal_line(json.dumps(text, ensure_ascii=False)[1:-1]) + '"'


class ObsText(spaces.Text):
    """``spaces.Text`` over :data:`OBS_CHARSET` that shares one prototype's tables.

    A plain ``Text`` indexes its whole charset (55k characters) when built, and every env
    builds several, so this subclass shares one prototype's immutable tables.
    Behaviour (``contains``, ``sample``, equality, flattening) is that of ``spaces.Text``.
    """

    def __init__(self, max_length: int, *, seed=None):
        self.min_length = 0
        self.max_length = int(max_length)
        proto = _prototype()
        self._char_set = proto._char_set
        self._char_list = proto._char_list
        self._char_index = proto._char_index
        self._char_str = proto._char_str
        spaces.Space.__init__(self, dtype=str, seed=seed)

    def __repr__(self) -> str:
        # gymnasium's Text repr prints the whole charset: ~55,000 characters per text field,
        # so one chat observation space printed as ~167,000 characters
        return f"Text({self.min_length}, {self.max_length}, charset=<{len(self._char_list):,} characters: {_CHARSET_NAME}>)"


#: how :class:`ObsText` names :data:`OBS_CHARSET` in its repr
_CHARSET_NAME = "printable BMP, newline and tab"

_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> bool:
    """Whether ``text`` holds no lone surrogate (so UTF-8, and any tokenizer, can carry it)."""
    return text.isascii() or _SURROGATE.search(text) is None


class AnswerText(ObsText):
    """The text of a conversation message: env text (inside :data:`OBS_CHARSET`) or an
    agent's own answer, which its later context keeps exactly as the agent sent it
    (control characters, emoji and other astral-plane characters included). ``contains``
    accepts any string of at most ``max_length`` characters without a lone surrogate
    (the env replaces those at the boundary); ``sample`` draws from :data:`OBS_CHARSET`."""

    def contains(self, x) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length and encodable(x)

    def __eq__(self, other) -> bool:
        return isinstance(other, AnswerText) and super().__eq__(other)

    def __repr__(self) -> str:
        return f"AnswerText({self.min_length}, {self.max_length})"


def obs_text(max_length: int) -> spaces.Text:
    return ObsText(max_length)


def action_text(max_length: int) -> spaces.Text:
    return spaces.Text(max_length, min_length=0, charset=ACTION_CHARSET)


#: longest text an observation field may hold (a whole conversation's message)
OBS_TEXT_MAX = 1_000_000


def chat_observation_space(features: spaces.Box, **extra: spaces.Space) -> spaces.Dict:
    """The observation space every game shares: ``prompt`` (the pending prompt),
    ``conversation`` (the whole chat the env holds for the agent, as role/content
    messages; a message's content is :class:`AnswerText`: the agent's own answers are
    kept as it sent them), ``features`` (the game's numeric view), ``active`` (0/1), plus any
    game-specific ``extra`` entries."""
    message = spaces.Dict({"role": obs_text(16), "content": AnswerText(OBS_TEXT_MAX)})
    return spaces.Dict({
        "prompt": obs_text(OBS_TEXT_MAX),
        "conversation": spaces.Sequence(message, stack=False),
        "features": features,
        "active": spaces.Discrete(2),
        **extra,
    })
