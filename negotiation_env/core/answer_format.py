"""What a valid answer looks like, for constrained decoding: one description per game
and phase, built from the same types the game's validator reads.

Every game puts ``observation["answer_format"]`` in the acting agent's observation: a
short JSON text (the *spec*) naming the game, the phase and what the validator needs
(the resource game: the agent's own resources, prices, budget, type limit and projects;
the rulemaking game: its condition, issue ids and limits; the matrix game: the phase).
It is ``""`` for an agent that does not act. :func:`answer_format` turns it into an
:class:`AnswerFormat`, by the game's own ``answer_schema`` module, so a policy that reads
only the observation can constrain its decoding, and nobody writes a second copy of the
rules:

* ``json_schema``: where the answer is one JSON object (the resource game with thinking
  on, its thinking-off decision, a rulemaking move);
* ``regex``: where the answer is plain text (a matrix action ``A``/``B`` and its
  one-sentence message, the resource game's thinking-off talk turn: a message or ONLY a
  purchase object), matched against the whole answer.

Each description admits only answers the game accepts *as to form*: every string it
admits parses. Where the set of legal actions is finite and small, ``strict`` is a
second description admitting only legal actions (the resource game's purchases within
budget, supply and type limit, each with the runs it pays for: the menus' option set
before dominance); :meth:`AnswerFormat.best` picks it. ``tests/games/*/test_answer_schema.py``
check both directions with hypothesis: what a description admits parses (and, strict,
is legal), and every legal structured action, rendered as the env renders it, is
admitted.

Where a description narrows what the parser tolerates, it does so on purpose (it is a
generation target, not a second parser): canonical key order and separators
(``json.dumps``'s ``", "`` and ``": "``) in regexes, integers without a fraction, free
text without ``<`` (a ``<think>`` tag would move text out of the answer), without ``"``,
``\\`` and control characters inside JSON strings (so that a pattern reads the same on the
encoded and the decoded string), and a visible ASCII or Latin-1 character where the
validator requires visible text. ``text_chars`` caps every free-text field (a small
model sampling free text under a constraint may otherwise not stop before its token
budget); the game's own caps apply where exceeding them is refused.

The regex dialect is the common subset of Python's ``re``, Rust's ``regex`` (llguidance)
and ECMAScript (xgrammar, vLLM): literals, ``[...]`` classes with ranges and ``\\xHH``,
``(?:...)``, ``|``, ``*``, ``+``, ``?``, ``{m,n}``; no anchors, no lookaround.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from . import registry

__all__ = ["AnswerFormat", "answer_format", "spec_of", "OBS_KEY", "regex_escape", "VISIBLE", "JSON_TEXT",
           "PLAIN_TEXT", "text_regex", "json_text_pattern", "integer_regex"]

#: the observation key holding the spec
OBS_KEY = "answer_format"

#: one character a reader sees: printable ASCII but space, and Latin-1 letters and signs
#: (no soft hyphen), never ``"``, ``\\`` or ``<``
VISIBLE = r"[!#-;=-\[\]-~\xa1-\xac\xae-\xff]"
#: a character of a JSON string's content: no ``"``, ``\\``, ``<`` or control character
JSON_TEXT = r'[^"\\<\x00-\x1f\x7f]'
#: a character of plain text: no ``<`` and no control character but tab and newline
PLAIN_TEXT = r"[^<\x00-\x08\x0b-\x1f\x7f]"

_META = set("\\.^$|?*+()[]{}/")


def regex_escape(text: str) -> str:
    """``text`` as a regex literal in the common dialect (only metacharacters escaped;
    Python's ``re.escape`` also escapes spaces and ``#``, which Rust's regex refuses)."""
    return "".join("\\" + c if c in _META else c for c in text)


def _rep(lo: int, hi: int | None) -> str:
    if hi is None:
        return "*" if lo == 0 else "+" if lo == 1 else f"{{{lo},}}"
    if hi < lo:
        raise ValueError(f"repetition {lo}..{hi} is empty")
    return "" if lo == hi == 1 else f"{{{lo},{hi}}}"


def text_regex(chars: str, max_chars: int | None, *, visible_first: bool = False, first: str | None = None) -> str:
    """Free text of at most ``max_chars`` characters (None: any length) from the class
    ``chars``; ``visible_first``: it starts with a :data:`VISIBLE` character (or ``first``)."""
    if visible_first or first is not None:
        head = first or VISIBLE
        if max_chars is not None and max_chars < 1:
            raise ValueError("text that must show a character needs max_chars >= 1")
        return head + chars + _rep(0, None if max_chars is None else max_chars - 1)
    return chars + _rep(0, max_chars)


def json_text_pattern(max_chars: int | None, *, visible_first: bool = False) -> str:
    """The ``pattern`` of a JSON string field (anchored, content as :data:`JSON_TEXT`)."""
    return "^" + text_regex(JSON_TEXT, max_chars, visible_first=visible_first) + "$"


def integer_regex(maximum: int) -> str:
    """A non-negative integer without leading zeros and with at most as many digits as
    ``maximum`` (a bound on length only: the value is the validator's business)."""
    digits = len(str(max(0, int(maximum))))
    return "(?:0|[1-9][0-9]" + _rep(0, digits - 1) + ")" if digits > 1 else "[0-9]"


@dataclass(frozen=True)
class AnswerFormat:
    """One valid-answer description: exactly one of ``json_schema`` and ``regex``.

    name: ``game.phase[.variant]`` (e.g. ``resource.decision.plain``), for traces and errors.
    json_schema: a JSON Schema (draft 2020-12 subset: type, properties, required,
        additionalProperties, enum, anyOf, minimum, maximum, pattern).
    regex: a full-match regular expression (module docstring's dialect).
    strict: the legal-actions-only description, where there is one.
    text_fields: how many free-text fields the answer has (``text_chars`` caps each), so
        that a policy can size the cap to its token budget.
    """

    name: str
    json_schema: dict[str, Any] | None = None
    regex: str | None = None
    strict: "AnswerFormat | None" = None
    text_fields: int = 0

    def __post_init__(self) -> None:
        if (self.json_schema is None) == (self.regex is None):
            raise ValueError(f"answer format {self.name!r} needs exactly one of json_schema and regex")

    @property
    def kind(self) -> str:
        return "json_schema" if self.json_schema is not None else "regex"

    def best(self, strict: bool = True) -> "AnswerFormat":
        """The strict description when asked for and there is one, else this one."""
        return self.strict if strict and self.strict is not None else self

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "text_fields": self.text_fields}
        if self.json_schema is not None:
            d["json_schema"] = self.json_schema
        else:
            d["regex"] = self.regex
        if self.strict is not None:
            d["strict"] = self.strict.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "AnswerFormat":
        strict = d.get("strict")
        return cls(name=d["name"], json_schema=d.get("json_schema"), regex=d.get("regex"),
                   strict=cls.from_dict(strict) if strict else None, text_fields=int(d.get("text_fields", 0)))


#: game id -> module with ``build(spec, text_chars=None) -> AnswerFormat``: each
#: registered game's ``answer_format`` part (:mod:`negotiation_env.core.registry`)
_BUILDERS = registry.PartTable("answer_format")


def spec_of(observation: Any) -> dict[str, Any] | None:
    """The spec in ``observation`` (None: not a dict observation, no key, or the agent
    does not act). Raises ``ValueError`` for a spec that is not a JSON object."""
    if not isinstance(observation, Mapping):
        return None
    raw = observation.get(OBS_KEY)
    if not raw:
        return None
    spec = json.loads(raw) if isinstance(raw, str) else raw
    if not isinstance(spec, Mapping) or spec.get("game") not in _BUILDERS:
        raise ValueError(f"observation[{OBS_KEY!r}] must be a JSON object naming one of the games "
                         f"{', '.join(_BUILDERS)}; got {str(raw)[:80]!r}")
    return dict(spec)


def answer_format(observation: Any, *, text_chars: int | None = None) -> AnswerFormat | None:
    """The :class:`AnswerFormat` of the answer ``observation`` asks for (None where the
    observation carries no spec: another game, or the agent does not act now).

    text_chars: cap on every free-text field (speech, thinking, a message, a rationale);
    None: only the game's own refusing caps."""
    if text_chars is not None and (isinstance(text_chars, bool) or not isinstance(text_chars, int)
                                   or text_chars < 1):
        raise ValueError(f"text_chars must be an integer >= 1 or None; got {text_chars!r}")
    spec = spec_of(observation)
    if spec is None:
        return None
    module = _BUILDERS[spec["game"]]
    return module.build(spec, text_chars=text_chars)
