"""The reader of negotiation language (resource game): what a message offers, accepts,
refuses, discloses and asks, in the forms chat models write.

One reader serves the scripted negotiators (:mod:`baselines.scripted`), which negotiate
with what it reads, and the process metrics (:mod:`negotiation_env.analysis.resource_metrics`),
which count proposals, agreements and commitments with it, so an agent and the analysis
never disagree about what a message said.

:func:`read` takes a message and the game's resource names and gives a :class:`Reading`:

* **offers** -- an allocation the speaker proposes now, from the speaker's side:
  ``you`` (the listener's share) and ``me`` (the speaker's own), each a mapping of
  resource name to units, ``None`` where the message does not name that share, ``{}``
  for "nothing". "You take 5 copper and I'll take 3 lithium", "5 copper for you, 3
  lithium for me", "Me: 3 lithium. You: 6 copper", "copper x6 to you", "I'd take four of
  the lithium", "How about you take 5 copper?" (an offer phrased as a question), "I'll
  take 6 stone" (a claim: ``you`` is None).
* **hypothetical** -- allocations that are talked about and not proposed: conditional
  ("if you take 6 lithium we will overdraw"), reported ("last round you took 7 wood",
  "you said you'd take 5"), negated ("I won't take 5 copper"). They are not offers. A
  condition whose consequence is itself an allocation ("if you take 6 lithium, I'll
  take 4 copper") is an offer of both.
* **accepts / rejects** -- :mod:`.acceptance` on the message (negation, hedges,
  conditions, counter-offers dressed as agreement).
* **disclosures** -- the speaker's projects with their requirements per run and the
  reward per run where given: "My project_a needs 2 copper and 1 lithium per run and
  pays 16", "Project A requires 2 copper + 1 lithium (reward: $16/run)", "- project_b: 3
  silicon, 3 lithium -> 20 points". A total for several runs ("6 copper for two runs")
  is not a requirement per run and is not read as one. "I need 4 stone for project_a"
  is a :class:`Need`.
* **questions** -- a sentence that asks (ends with "?", or "tell me", "let me know",
  "share your ..."), other than an offer whose only question is the offer itself ("How
  about ...?", "Would you take ...?"); :class:`Ask` when it asks for the partner's
  projects or needs.

Text is normalised first (:func:`normalise`): curly quotes and apostrophes, dashes,
unicode spaces and zero-width characters, markdown emphasis, headers and bullets; for
quantities, number words become digits (``text2num``, a maintained parser of English
number words; "twenty-one" -> 21).

The rules are written by hand: no maintained library reads negotiation dialogue acts,
and the analysis must give the same figure on any machine without a model. Measured
on ``tests/games/resource/data/language_corpus.jsonl`` (a third held out) by
``python -m benchmarks.language_reader``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Union

from text_to_num import alpha2digit

from .acceptance import accepts, normalise_typography, rejects

__all__ = ["Disclose", "Need", "Ask", "Propose", "Accept", "Reject", "Act", "Reading", "read", "normalise",
           "quantities"]


# --------------------------------------------------------------------------- acts
@dataclass(frozen=True)
class Disclose:
    """One of the speaker's projects: requirements per run, reward per run (None when
    the message does not give it)."""

    project: str
    requires: tuple[tuple[str, int], ...]
    reward: float | None


@dataclass(frozen=True)
class Need:
    units: int
    resource: str
    project: str


@dataclass(frozen=True)
class Ask:
    """Asks the listener for its projects or needs."""


@dataclass(frozen=True)
class Propose:
    """A proposed allocation from the speaker's side: ``you`` the listener's share,
    ``me`` the speaker's; None for a share not named, ``()`` for "nothing"."""

    you: tuple[tuple[str, int], ...] | None
    me: tuple[tuple[str, int], ...] | None

    def you_dict(self) -> dict[str, int] | None:
        return None if self.you is None else dict(self.you)

    def me_dict(self) -> dict[str, int] | None:
        return None if self.me is None else dict(self.me)

    @property
    def is_split(self) -> bool:
        """Both shares named."""
        return self.you is not None and self.me is not None


@dataclass(frozen=True)
class Accept:
    pass


@dataclass(frozen=True)
class Reject:
    pass


Act = Union[Disclose, Need, Ask, Propose, Accept, Reject]


@dataclass(frozen=True)
class Reading:
    """What one message says (module docstring); ``acts`` in the order they are said, a
    refusal or an acceptance first and the message's offer (:attr:`offer`) once."""

    acts: tuple[Act, ...] = ()
    #: the allocation the message finally proposes (its last offer), None without one
    offer: Propose | None = None
    accepts: bool = False
    rejects: bool = False
    disclosures: tuple[Disclose, ...] = ()
    question: bool = False
    hypothetical: bool = False
    #: the message talks about the negotiation (a number, a resource, a split, a deal, a
    #: project) but the reader found nothing in it: see :attr:`unread`
    on_topic: bool = False

    @property
    def understood(self) -> bool:
        """The message says something the reader reads: an act of any kind, a question or
        a hypothetical allocation."""
        return bool(self.acts) or self.question or self.hypothetical

    @property
    def unread(self) -> bool:
        """The message is about the negotiation and the reader understood none of it
        ("How about a 60/40 split?"); small talk ("Let's keep talking.") is not unread."""
        return self.on_topic and not self.understood


# --------------------------------------------------------------------------- normalising
_MD = re.compile(r"\*\*|__|`+|^\s{0,3}#{1,6}\s*|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|~~", re.M)
_BULLET = re.compile(r"^\s*(?:[-*+\u2022\u25aa\u25e6\u2023>]|\d+[.)])\s+", re.M)
_ARROW = re.compile(r"\s*(?:->|=>|\u2192|\u27f6|\u21d2)\s*")
_LEFT_ARROW = re.compile(r"\s*(?:<-|\u2190|\u27f5|\u21d0)\s*")
_DOT = re.compile(r"\s*[\u00b7\u2022]\s*(?=\S)")


def normalise(text: str) -> str:
    """Typography and markdown made plain: what every rule below reads. Lines stay lines
    (a bullet is a sentence of its own)."""
    t = normalise_typography(text)
    t = _BULLET.sub("", t)
    t = _MD.sub("", t)
    t = _ARROW.sub(" -> ", t)
    t = _LEFT_ARROW.sub(": ", t)  # "you <- steel 9" gives the listener steel 9
    t = _DOT.sub("; ", t)  # "copper 10 (you) · silicon 4 (me)": one share a clause
    t = re.sub(r'["{}\[\]]', " ", t) if "{" in t else t  # JSON-ish: {"you": {"copper": 8}}
    t = re.sub(r"[ \t]{2,}", " ", t)
    # "Lithium - 2 for you": a resource named as a label, not the end of a sentence
    t = re.sub(r"(?m)^(\W*)([A-Za-z]+) - (?=\d|all\b)", r"\1\2: ", t)
    return t


@functools.lru_cache(maxsize=16384)
def _digits(text: str) -> str:
    """Number words to digits ("five" -> 5, "second" -> 2nd); "a"/"an" are never read as 1."""
    try:
        return alpha2digit(text, "en", threshold=0)
    except Exception:  # a parser error on odd input must not lose the message: read it as written
        return text


# --------------------------------------------------------------------------- quantities
_UNIT_WORDS = r"(?:(?:units?|pieces?|portions?|lots?|bundles?|loads?|counts?|pcs)\s+(?:of\s+)?)"


@functools.lru_cache(maxsize=256)
def _name_pattern(names: tuple[str, ...]) -> str:
    forms = set(names) | {n[:-1] for n in names if len(n) > 3 and n.endswith("s") and not n.endswith("ss")}
    alts = sorted({re.escape(n) for n in forms}, key=len, reverse=True)
    return r"(?:" + "|".join(alts) + r")(?:e?s)?"


@functools.lru_cache(maxsize=256)
def _mention_re(names: tuple[str, ...]) -> re.Pattern:
    """A resource named anywhere, in any of its written forms."""
    return re.compile(r"\b" + _name_pattern(names) + r"\b", re.I)


@functools.lru_cache(maxsize=256)
def _qty_res(names: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    name = _name_pattern(names)
    # "5 copper", "5x copper", "5 units of copper", "4 of the lithium", "all 10 copper"
    before = re.compile(r"(?<![\w.$])(?P<n>\d+)(?!\.\d)\s*(?:x\s*)?" + _UNIT_WORDS + r"?(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
                        r"(?P<name>" + name + r")\b", re.I)
    # "copper x6", "copper: 6", "copper (6)", "copper = 6", "copper - 6"
    after = re.compile(r"\b(?P<name>" + name + r")\s*(?:x|\u00d7|:|=|\(|-|\s)\s*(?:all\s+)?(?P<n>\d+)(?:\s*x\b)?(?!\w|\.\d)\)?",
                       re.I)
    return before, after


def _resolve(word: str, names: Mapping[str, str]) -> str | None:
    w = word.lower()
    if w in names:
        return names[w]
    for cut in (1, 2):  # plural forms: "woods", "glasses"
        if len(w) > cut and w[:-cut] in names:
            return names[w[:-cut]]
    for add in ("s", "es"):  # singular forms: "1 pearl"
        if w + add in names:
            return names[w + add]
    return None


def quantities(text: str, names: Mapping[str, str]) -> list[tuple[int, int, str, int]]:
    """Every (start, end, resource, units) ``text`` names, in order: "5 copper", "copper
    x6", "4 of the lithium". ``names`` maps each written name (lower case) to what the
    caller calls the resource."""
    if not names:
        return []
    before, after = _qty_res(tuple(names))
    found: list[tuple[int, int, str, int]] = []
    taken: list[tuple[int, int]] = []
    for m in before.finditer(text):
        rid = _resolve(m.group("name"), names)
        if rid is not None:
            found.append((m.start(), m.end(), rid, int(m.group("n"))))
            taken.append((m.start(), m.end()))
    for m in after.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        rid = _resolve(m.group("name"), names)
        if rid is not None:
            found.append((m.start(), m.end(), rid, int(m.group("n"))))
    found.sort()
    # bounds are not quantities: "at least 3 gold", "no more than 4 stone"
    return [q for q in found if not _BOUND.search(text, max(0, q[0] - 14), q[0])]


_BOUND = re.compile(r"\b(?:at\s+least|at\s+most|more\s+than|less\s+than|fewer\s+than|up\s+to|over|under|beyond"
                    r"|minimum(?:\s+of)?|maximum(?:\s+of)?)\s*$", re.I)


# --------------------------------------------------------------------------- parties
_F = re.IGNORECASE
_VERB = (r"(?:take|taking|takes|took|accept|accepting|get|getting|gets|buy|buying|buys|bought|have|having|purchase|purchasing|keep"
         r"|keeping|receive|receiving|grab|grabbing|claim|claiming|obtain|obtaining|secure|securing|acquire|acquiring"
         r"|go\s+with|go\s+for|going\s+for|end\s+up\s+with|pick\s+up|use|using|submit|submitting|request|ask\s+for"
         r"|live\s+with|plan\s+on|count\s+on|stick\s+(?:to|with)|sticking\s+(?:to|with)|stay\s+(?:on|with)|settle\s+(?:for|on)|aim\s+for"
         r"|(?:do|go|doing|going)(?=\s+\d))")
# adverbs between a subject, its modal and its verb: "I'm only going to buy", "you'd then get"
_ADV = r"(?:(?:then|just|also|only|simply|instead|all|both|each|now|still|happily|gladly|really|probably|definitely|actually)\s+)?"
_MODAL = (r"(?:'d|'ll|\s+would|\s+will|\s+can|\s+could|\s+should|\s+may|\s+might|\s+get\s+to|\s+are\s+to|\s+gets?"
          r"|\s+take|'re|\s+are|'m|\s+am|\s+plan\s+to|\s+want\s+to|\s+intend\s+to|\s+need\s+to|\s+aim\s+to"
          r"|\s+propose\s+to|\s+suggest\s+to|\s+shall|\s+must|\s+might\s+as\s+well)?"
          r"(?:\s+" + _ADV.rstrip("?") + r"?(?:going\s+to|gonna|like\s+to|be\s+(?:open|willing|happy|able|fine|ok|okay|"
          r"ready|agreeable)\s+(?:to|with)|(?:be\s+)?free\s+to|welcome\s+to|happy\s+to|able\s+to|glad\s+to|prefer\s+to))?")
_NEG_MODAL = (r"(?:(?:'m|'re|\s+am|\s+are)\s+not|\s+(?:won't|can't|cannot|wouldn't|shouldn't|don't|do\s+not|will\s+not"
              r"|would\s+not|can\s+not|couldn't|could\s+not|never|mustn't|must\s+not|not)"
              r"(?:\s+(?:going\s+to|gonna|want\s+to|need\s+to|be\s+able\s+to))?)")
_PRE = re.compile(
    # subject + (modal) + verb: "you take", "you'd get", "I'll take", "I would like to have", "ill take"
    r"(?P<who>\byou|\bu|\bi|\bill(?=\s+(?:just\s+)?(?:take|get|buy|have|do|go)\b))(?P<neg>" + _NEG_MODAL + r")?" + _MODAL
    + r"\s+" + _ADV + r"(?:\w+ly\s+)?" + _VERB + r"\b"
    r"|(?P<who6>\bme|\byou|\bi'?m|\byou'?re)\s+(?:(?:taking|getting|buying|keeping|purchasing|on|with)\b(?!\s+(?:the\s+)?"
    r"(?:same|other|side|board|it|that|this)\b))"
    r"|(?P<who7>\bi)(?:'ll|\s+will)\s+be\s+(?:buying|taking|getting|purchasing|going\s+for)\b"
    r"|(?P<who8>\bi)(?:'d|\s+would)\s+be\s+(?:best\s+off|happy|fine|good)\s+with\b"
    r"|(?P<who9>\bi)(?:'m|\s+am)\s+(?:planning|aiming|going)\s+(?:on|for)\b"
    r"|(?:^|(?<=[.!;:,]\s)|(?<=[.!;:,]))\s*(?:just\s+)?(?P<self>gonna|going\s+to)\s+(?:take|buy|get|grab)\b"
    r"|\b(?P<ask>my)\s+(?:ask|request|claim|pick|target|order)\b(?:\s+(?:for\s+this\s+round\s+)?(?:is|would\s+be))?"
    r"|\b(?P<after>i'?m|i\s+am|im)\s+(?:(?:only|just|really|mostly)\s+)?after\b|\b(?:all|what)\s+(?P<hope>i)'?m\s+"
    r"(?:\w+\s+)?(?:after|hoping\s+for|asking\s+for|looking\s+for)\b|\bwhat\s+(?P<want>i)\s+(?:want|need|would\s+like)\s+is\b"
    r"|(?:^|(?<=[.!;:,]\s)|(?<=[.!;:,]))\s*(?P<claim>claiming|taking|submitting|ask|self-allocation|mine|request|for\s+me)\s*:"
    r"|(?:^|(?<=[.!;]\s))\s*(?P<submit>submitting)\b|\b(?P<gimme>gimme|lemme\s+(?:grab|take|get|have))\b"
    r"|(?P<who2>\byou|\bi)'d\s+(?:like|love|prefer)\b|(?P<who3>\bi)(?:'d|\s+would)?\s+(?:want|prefer)\b"
    r"|(?P<need>\bi)\s+(?:still\s+|really\s+|only\s+|just\s+|do\s+)?need\b(?!\s+(?:to|you)\b)|\b(?P<who4>you)'?re\s+welcome\s+to\b"
    # "give you", "leave me", "let me take", "for you to take", "count me in for", "put me down for"
    r"|\b(?:give|leave|offer|allocate|allot|assign|hand|send|reserve|left|giving|leaving|offering|count|put)\s+"
    r"(?P<obj>you|me)\b(?:\s+(?:in|down)\s+for\b)?"
    r"|\blet\s+(?P<let>me)\s+(?:\w+\s+)?" + _VERB + r"\b|\bfor\s+(?P<for>you|me)\s+to\s+" + _VERB + r"\b"
    # imperatives to the listener: "take 6 oil", "feel free to grab 7 water", "go ahead and take"
    r"|(?:^|(?<=[.!;:,]\s)|(?<=[.!;:,]))\s*(?:please\s+)?(?:just\s+)?(?:(?:feel\s+free\s+to|go\s+ahead\s+and|go\s+ahead\s+"
    r"(?:to\s+)?)\s*)?(?P<imp>take|grab|have|buy|keep)\b(?=\s+(?:(?:all|the|half|of|and|other)\s+)*(?:\w+\s+)?\d)"
    r"|\b(?:feel\s+free\s+to|go\s+ahead\s+and)\s+(?P<imp2>take|grab|have|buy|keep)\b"
    # "your share: ...", "my part would be ..."
    r"|\b(?P<pos>your|my)\s+(?:own\s+)?(?:share|part|portion|allocation|side|cut|purchase|half|order|buy|end)"
    r"(?:\s+(?:is|would\s+be|will\s+be|could\s+be|then|becomes))?\b"
    # labels: "You: 5 copper", "Me - 3 lithium", "For you: ...", "for you, 7 flour"
    r"|(?:^|(?<=[\s(,;{\[]))(?:for\s+)?(?P<lab>you|u|me|i|myself|yourself)\s*(?:\)|\s)?\s*(?::|=|->|-(?=\s))"
    r"|\bfor\s+(?P<for2>you|me)\s*,\s*(?=\d)"
    # ellipsis: "and I 3 lithium", "you 5 copper"
    r"|(?:^|(?<=[\s,;({]))(?P<ell>you|u|me|i)\s+(?=\d|[a-z]+\s*(?:x|\u00d7|:)\s*\d|[a-z]+\s+\d+\s*(?:[,+&;.]|and\b|$))"
    # both parties: "we each take 3", "each of us gets 3"
    r"|\b(?:we\s+(?:both|each)|each\s+of\s+us|both\s+of\s+us|we)\s+(?:\w+\s+)?(?P<both>take|get|buy|have|took|got)s?\b",
    _F)
_POST = re.compile(
    r"^\s*\)?\s*(?:(?:each|total|units?|extra|more|only|in\s+total)\s+)?(?:(?:for|to)\s+(?P<w1>you|u|yourself|me|myself)\b"
    r"|(?:go|goes|going|(?:would|will|should|could|can)\s+go)\s+to\s+(?P<w2>you|me)\b"
    r"|(?:,\s*)?(?:is|are|would\s+be|will\s+be|it'?s|they'?re|that'?s)\s+(?:all\s+)?(?P<w3>yours|mine)\b"
    r"|on\s+(?P<w4>your|my)\s+(?:side|end)\b|on\s+(?P<w11>mine|yours)\b|(?P<w5>each)\b|(?:->|:)\s*(?P<w6>you|u|me|yours|mine)\b"
    r"|\(\s*(?P<w8>you|u|me|mine|yours)\s*\)|(?:come|comes|coming)\s+to\s+(?P<w9>me|you)\b"
    r"|,?\s*(?P<w7>you|u|me|mine|yours|urs)\s*(?=[,.;!?)}]|$|\s+and\b))",
    _F)
_PARTY = {"you": "you", "u": "you", "ill": "me", "i'm": "me", "im": "me", "you're": "you", "youre": "you", "yourself": "you", "yours": "you", "your": "you",
          "me": "me", "i": "me", "myself": "me", "mine": "me", "my": "me", "each": "both", "urs": "you"}
_NOTHING = re.compile(r"^\s*(?:nothing|none(?!\s+of)|no\s+resources|zero|0\s+of\s+everything)\b", _F)
# what a need is for, when it is not a claim: "I need 6 copper for two runs", "... per run"
_NEED_FOR = re.compile(r"\s*(?:for\b|to\s+run|per\s+run|in\s+total|each\s+run|a\s+run|more\b)", _F)
# equal and stated splits of one resource: "split the water 5/5", "gold 3/3", "a 4/2 split in my favour"
_SPLIT_RE = (r"(?:\bsplit\s+(?:the\s+)?(?P<a>NAME)\s+(?P<x>\d+)\s*/\s*(?P<y>\d+)"
             r"|\b(?P<b>NAME)\s*(?:->\s*split\s+|:\s*|(?:\w+\s+){1,2}?)?(?P<x2>\d+)\s*/\s*(?P<y2>\d+)"
             r"|\b(?P<x3>\d+)\s*/\s*(?P<y3>\d+)\s+(?:(?P<d>NAME)\s+)?split\s+(?:of\s+(?:the\s+)?(?P<c>NAME)\s+)?)"
             r"(?:\s*(?:split\s+)?in\s+(?P<fav>my|your)\s+favou?r|\s*\(?\s*(?P<ord>you\s*/\s*me|me\s*/\s*you|u\s*/\s*me"
             r"|me\s*/\s*u)\s*\)?)?"
             r"|\b(?P<e>NAME)\s*(?::\s*)?(?P<x4>\d+)\s+and\s+(?P<y4>\d+)\b")
# "seeds -> you (7)"
_ARROW_RE = (r"\b(?P<name>NAME)\s*(?:->|:)\s*(?P<who>you|u|me)\s*(?:\(\s*(?:all\s+)?(?P<n>\d+)\s*\)|x\s*(?P<nx>\d+))"
             r"(?:\s*,\s*(?P<who2>you|u|me)\s*(?:\(\s*(?P<n2>\d+)\s*\)|x\s*(?P<n2x>\d+)))?")
_POST_NOTHING = re.compile(r"\bnothing\s+(?:(?:goes|going|would\s+go|will\s+go|left)\s+)?(?:for|to)\s+(?P<who>you|me)\b", _F)


def _party(m: re.Match) -> tuple[str, bool]:
    """(party, negated) of a pre marker."""
    for g in ("who", "who6", "who7", "who8", "who9", "self", "ask", "after", "hope", "want", "claim", "submit", "gimme",
              "who2", "who3", "need", "who4", "obj", "let", "for", "imp", "imp2", "pos", "lab", "for2", "ell"):
        v = m.group(g)
        if v:
            if g in ("imp", "imp2"):
                return "you", False
            if g in ("self", "ask", "after", "hope", "want", "claim", "submit", "gimme"):
                return "me", False
            return _PARTY[v.lower()], g == "who" and bool(m.group("neg"))
    return "both", False


# --------------------------------------------------------------------------- sentence context
_SENT = re.compile(r"(?:[^\n.!?;-]|-(?!\s)|(?<!\s)-|(?<=\byou\s)-|(?<=\bme\s)-)+(?:\.(?=\d)(?:[^\n.!?;-]|-(?!\s)|(?<!\s)-)*)*[.!?;]*")
_IF = re.compile(r"^\W*(?:and\s+|but\s+|so\s+|now\s+|also\s+|because\s+)?(?:even\s+)?(?:if|suppose|supposing|assuming|"
                 r"in\s+case|should\s+you|unless|when|whenever|had\s+you|were\s+you|were\s+i)\b", _F)
_IF_MID = re.compile(r",?\s*\b(?:if|unless|provided(?:\s+that)?|as\s+long\s+as|assuming)\b", _F)
_OUTCOME = re.compile(r"\b(?:overdr[ae]w\w*|exceed\w*|go(?:es)?\s+over|annul\w*|short|lose|lost|nothing|zero|0\b"
                      r"|fail\w*|problem|collide|clash|conflict|too\s+much|too\s+many|wouldn't|won't|can't|not)\b", _F)
_REPORTED = re.compile(r"\b(?:last|previous|prior|earlier|first|1st|past)\s+(?:round|time|turn)\b|\bin\s+round\s+\d|\bearlier\b"
                       r"|\byou\s+(?:said|proposed|suggested|offered|mentioned|wanted|asked\s+for|claimed|wrote|took|bought)\b"
                       r"|\b(?:i|we)\s+(?:said|proposed|suggested|offered|mentioned|took|bought)\b"
                       r"|\byour\s+(?:proposal|offer|suggestion|plan|split|idea)\s+(?:of|to|where|with|that|gives?|was)\b"
                       r"|\b(?:that|this|it|which|your\s+\w+)\s+(?:gives?|leaves?|would\s+give|would\s+leave)\s+(?:you|me)\b"
                       r"|\b(?:hard\s+no|no|negative|not)\s+on\b|\bno\s+way\b|\b(?:we|you)\s+(?:had\s+)?agreed\s+on\b"
                       r"|\b(?:can'?t|cannot|won'?t|will\s+not|don'?t|refuse\s+to)\s+(?:accept|agree\s+to|do)\b[^.;]*?"
                       r"\b(?:in\s+which|where|with)\b|^\W*(?:round\s+\d+|scenario|example|e\.g\.|say)(?:\s+\w+)?\s*:"
                       r"|\b(?:you'?re|ur|you\s+are)\s+saying\b|\bif\s+i'?m\s+reading\s+you\b|\bjust\s+to\s+confirm\b"
                       r"|\bthought\s+we\b|\bcalled\s+it\b|\bin\s+total\b|\blast\s+game\b|\b(?:partner|they)\s+took\b"
                       r"|\b(?:we|you|i)\s+(?:both\s+)?(?:took|bought|purchased)\b(?!\s+\d+\s+\w+\s+and\s+(?:you|i)\s+took)",
                       _F)
# an allocation that would be, or that replaces another: "would be greedy", "5 copper instead of 6"
_MAYBE = re.compile(r"\b(?:would|could|'d)\b", _F)
_REPLACED = re.compile(r"\b(?:instead\s+of|rather\s+than)\s+\d|,?\s+not\s+\d+\b", _F)
# a verdict on the allocation just named: "is too many", "means my project gets nothing",
# "leaves 1 for me", "-> overdraw"
_VERDICT_AFTER = re.compile(r"\s*(?:(?:for|->)\s*(?:you|me|u)\s+)?(?:,\s*)?(?:(?:is|are|would\s+be|will\s+be|'s)\s+(?:too|way|far|all\s+of\s+it|more|"
                            r"not|over|impossible|greedy|unfair|unworkable)|means|leaves|would\s+(?:leave|mean|overdraw|exceed)"
                            r"|overdraws?|exceeds?|->\s*overdraw|\.\s*overdraw)", _F)
# an acceptance opening a sentence whose condition names a share
_ACCEPT_HEAD = re.compile(r"^\W*(?:yes|yeah|yep|ok|okay|sure|agreed|deal|fine|works\s+for\s+me|that\s+works|i'?m\s+in"
                          r"|i\s+agree|i\s+accept)\b", _F)
_WHAT_IF = re.compile(r"\b(?:what|how\s+about)\s+if\b|\bwould\s+it\s+(?:bother\s+you|be\s+(?:ok|okay|alright|fine))\b"
                      r"|\bwould\s+you\s+mind\b|\bis\s+it\s+(?:ok|okay|alright|fine)\b|\bhow\s+would\s+you\s+feel\b"
                      r"|\bdo\s+you\s+mind\b", _F)
_SAME_ROUND_REF = re.compile(r"\b(?:as|like)\s+(?:you|we)\s+(?:said|proposed|suggested|offered)\b", _F)
# a tag that asks for agreement ("Does that work?", "Thoughts?", "Let me know.", "fair?")
_AGREE_Q = re.compile(r"^\W*(?:so\s+|ok\s+|okay\s+)?(?:\w+\s+){0,2}?(?:does|do|would|will|is|are|can|could|did)\s+"
                      r"(?:that|this|it|these|those)\s+(?:\w+\s+)?(?:work|sound|suit|fit|seem|look|make|do)"
                      r"|^\W*(?:thoughts|deal|agreed|ok|okay|fair|right|yes\s+or\s+no|sound\s+(?:good|fair|ok|okay))\W*\?"
                      r"|\b(?:what\s+do\s+you\s+(?:say|think)|how\s+does\s+that\s+sound|let\s+me\s+know(?:\s+if\s+"
                      r"(?:that|this|it)\s+works)?|(?:that'?s|is\s+that|sound)\s+(?:fair|good|ok|okay|reasonable)"
                      r"(?:\s+right)?|right|fair|ok|okay|reasonable|agreed|deal|yes|acceptable|confirm(?:ed)?|works?"
                      r"(?:\s+for\s+you)?|good\s+with\s+you|on\s+board|in)\W*\??\s*$", _F)
_ASK = re.compile(r"\b(?:what|which|tell\s+me|share|describe|let\s+me\s+know|could\s+you\s+list|can\s+you\s+list"
                  r"|what's|how\s+many|how\s+much|do\s+you)\b[^.?!]*?\b(?:your|you)\b[^.?!]*?"
                  r"\b(?:projects?|needs?|need|requirements?|require|requires|working\s+on|priorit\w*|rewards?|pays?|payoffs?"
                  r"|looking\s+for|plans?|after)\b"
                  r"|\bwhat\s+(?:are|is)\s+your\s+projects?\b|\bwhat\s+do\s+you\s+need\b"
                  r"|\b(?:what|how)\s+about\s+(?:yours|you)\s*\?|\band\s+(?:yours|you)\s*\?|^\W*yours\s*\?"
                  r"|\bwhat\s+(?:are|will|do)\s+you\s+(?:\w+\s+){0,3}?(?:build|run|make|produce|working|buy|purchase)"
                  r"|\b(?:which|what)\s+projects?\b|\bhow\s+(?:much|many)\b[^.?!]*\b(?:they|it|each)\s+(?:need|use|require)", _F)
_TELL = re.compile(r"(?<!not\s)(?<!once\s)(?<!when\s)\b(?:tell\s+me|let\s+me\s+know|share\s+(?:your|what)|please\s+(?:share|describe|list|say))\b", _F)


_SENT_NO_DASH = re.compile(r"[^\n.!?;]+(?:\.(?=\d)[^\n.!?;]*)*[.!?;]*")


def _sentences(text: str, dashes: bool = True) -> list[tuple[int, str]]:
    """(start, text) of each sentence; a spaced dash ends one unless ``dashes`` is False."""
    return [(m.start(), m.group(0)) for m in (_SENT if dashes else _SENT_NO_DASH).finditer(text) if m.group(0).strip()]


_GAP = re.compile(r"\s*(?:,|and|n|&|\+|plus|/|,\s*and|with|as\s+well\s+as|along\s+with|together\s+with)?\s*"
                  r"(?:also\s+|all\s+|the\s+)?", _F)


@functools.lru_cache(maxsize=256)
def _split_res(names: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    name = _name_pattern(names)
    return re.compile(_SPLIT_RE.replace("NAME", name), _F), re.compile(_ARROW_RE.replace("NAME", name), _F)


def _direct(sentence: str, names: Mapping[str, str]) -> tuple[dict[str, dict[str, int]], list[tuple[int, int]]]:
    """Shares stated without a party marker: splits of one resource and arrows."""
    split_re, arrow_re = _split_res(tuple(names))
    out: dict[str, dict[str, int]] = {}
    spans = []
    for m in split_re.finditer(sentence):
        if re.search(r"\btotal\b", m.group(0), _F) or re.search(r"\btotal\s*$", sentence[max(0, m.start() - 8):m.start()], _F):
            continue  # "saffron total 6/6" counts the pool, it does not split it
        word = m.group("a") or m.group("b") or m.group("c") or m.group("d") or m.group("e")
        rid = _resolve(word, names) if word else None
        x = int(m.group("x") or m.group("x2") or m.group("x3") or m.group("x4"))
        y = int(m.group("y") or m.group("y2") or m.group("y3") or m.group("y4"))
        if m.group("ord"):  # the stated order: "2/4 (you/me)"
            if re.sub(r"\s", "", m.group("ord").lower()).startswith(("you", "u/")):
                x, y = y, x
            out.setdefault("me", {})[rid] = x
            out.setdefault("you", {})[rid] = y
            spans.append((m.start(), m.end()))
            continue
        if rid is None and m.group("fav"):  # "a 4/2 split in my favour" of the resource named nearby
            near = quantities(sentence, names)
            rid = near[0][2] if near else None
        if rid is None or (x != y and not m.group("fav")):
            continue
        mine, yours = (x, y) if (m.group("fav") or "my").lower() == "my" else (y, x)
        out.setdefault("me", {})[rid] = mine
        out.setdefault("you", {})[rid] = yours
        spans.append((m.start(), m.end()))
    for m in arrow_re.finditer(sentence):
        rid = _resolve(m.group("name"), names)
        if rid is not None:
            out.setdefault(_PARTY[m.group("who").lower()], {})[rid] = int(m.group("n") or m.group("nx"))
            if m.group("who2"):
                out.setdefault(_PARTY[m.group("who2").lower()], {})[rid] = int(m.group("n2") or m.group("n2x"))
            spans.append((m.start(), m.end()))
    return out, spans


# a bare number given to a party, of the resource named just before: "silk 2 for you / 4
# for me", "Pearls: 2 you, 4 me", "I'm on silk, 4 of it"
_BARE = re.compile(r"(?<![\w.$/])(?P<n>\d+)(?!\s*/\s*\d|\.\d)(?:\s+of\s+(?:it|them|those|that|the\s+\d+)|\s+units?)?\s*"
                   r"(?=(?:for|to)\s+(?:you|u|me)\b|(?:you|u|me|yours|mine|urs)\b\s*(?:[,.;)}]|$|and\b)|->\s*(?:you|u|me)\b"
                   r"|\(\s*(?:you|u|me)\s*\)|each\b|(?:should|would|will|could|can)\s+go\s+to\b|$|[,.;/])", _F)


def _elliptical(sentence: str, names: Mapping[str, str], taken: list[tuple[int, int, str, int]],
                carry: str | None = None, ends: list[int] | None = None) -> list[tuple[int, int, str, int]]:
    """Bare numbers of the resource named last before them (in the sentence, else
    ``carry``, the one named last in the message before it; see _BARE); only where a
    party marker follows the number or comes right before it."""
    mentions = [(m.start(), _resolve(m.group(0), names)) for m in _mention_re(tuple(names)).finditer(sentence)]
    if ends is None:  # where the party markers end
        ends = [m.end() for m in _PRE.finditer(sentence)]
    out = []
    for m in _BARE.finditer(sentence):
        if any(a <= m.start() < b for a, b, *_ in taken):
            continue
        before = [rid for pos, rid in mentions if pos < m.start() and rid is not None] or ([carry] if carry else [])
        if not before:
            continue
        tail = sentence[m.end():]
        after = sentence[m.start() + len(m.group("n")):]
        marked = any(re.fullmatch(r"\s*(?:(?:the\s+)?other\s+|the\s+|another\s+|all\s+|just\s+|only\s+)*",
                                  sentence[e:m.start()], _F) for e in ends if e <= m.start())
        if not (marked or _POST.match(tail) or re.match(r"\s*(?:of\s+(?:it|them)|units?\b(?!\s+of))", after, _F)
                or re.search(r"\b(?:you|u|me)\s*:?\s*$", sentence[:m.start()], _F)):
            continue
        out.append((m.start(), m.start() + len(m.group("n")), before[-1], int(m.group("n"))))
    return out


def _shares(sentence: str, names: Mapping[str, str], carry: str | None = None
            ) -> tuple[dict[str, dict[str, int]], bool, dict[str, bool]]:
    """The shares a sentence assigns: ({"you": {...}, "me": {...}}, whether some party
    marker was negated, {party: share is "nothing"}). ``carry``: the resource named last
    before the sentence, for a bare number ("Helium. I take 4.")."""
    direct, spans = _direct(sentence, names)
    found = list(_PRE.finditer(sentence))
    qty = [q for q in quantities(sentence, names) if not any(a <= q[0] < b for a, b in spans)]
    qty = sorted(qty + _elliptical(sentence, names, qty + [(a, b, "", 0) for a, b in spans], carry,
                                   [m.end() for m in found]))
    nothing: dict[str, bool] = {}
    for m in _POST_NOTHING.finditer(sentence):
        nothing[_PARTY[m.group("who").lower()]] = True
    markers: list[tuple[int, int, str, bool, bool]] = []  # (start, end, party, negated, a need)
    for m in found:
        party, neg = _party(m)
        markers.append((m.start(), m.end(), party, neg, bool(m.group("need"))))
        if party != "both" and _NOTHING.match(sentence[m.end():]):
            if not neg:
                nothing[party] = True
    out: dict[str, dict[str, int]] = {p: dict(sh) for p, sh in direct.items()}
    negated = False
    if not qty:
        return out, any(mk[3] for mk in markers), nothing
    # group adjacent quantities ("5 copper and 2 silicon"), then a party for each group:
    # a marker right after the group ("... for you"), else the nearest marker before it
    groups: list[list[tuple[int, int, str, int]]] = []
    for q in qty:
        if groups:
            gap = sentence[groups[-1][-1][1]:q[0]]
            if _GAP.fullmatch(gap):
                groups[-1].append(q)
                continue
        groups.append([q])
    for g in groups:
        end = g[-1][1]
        nxt = next((s for s, *_ in qty if s >= end), len(sentence))
        post = _POST.match(sentence[end:nxt])
        party, neg = None, False
        before = [mk for mk in markers if mk[1] <= g[0][0] + 1]
        if before:
            _, _, party, neg, need = before[-1]
            if need and (_NEED_FOR.match(sentence, end) or before[-1][1] + 40 < g[0][0]):
                party = None  # a need explained ("I need 6 copper for two runs"), not claimed
        if post:
            w = next(v for v in post.groups() if v)
            party = _PARTY[w.lower()]
        if party is None:
            continue
        if neg:
            negated = True
            continue
        for p in (("you", "me") if party == "both" else (party,)):
            share = out.setdefault(p, {})
            for _s, _e, rid, n in g:
                share[rid] = n
    return out, negated, nothing


def _allocation(sentence: str, names: Mapping[str, str], carry: str | None = None) -> tuple[Propose | None, bool]:
    """(the offer one sentence makes, whether it talks of an allocation it does not
    propose)."""
    shares, negated, nothing = _shares(sentence, names, carry)
    if not shares and not nothing:
        # quantities in a condition or a report with no party named: "if 6 lithium go to
        # you", "last round you took 7 wood"
        talked = bool(quantities(sentence, names)) and bool(
            _REPORTED.search(sentence) or _IF.search(sentence) or _IF_MID.search(sentence) or _MAYBE.search(sentence))
        return None, negated or talked
    you = shares.get("you")
    me = shares.get("me")
    if you is None and nothing.get("you"):
        you = {}
    if me is None and nothing.get("me"):
        me = {}
    if you is None and me is None:
        return None, negated
    prop = Propose(None if you is None else tuple(you.items()), None if me is None else tuple(me.items()))
    if _WHAT_IF.search(sentence):
        return prop, negated
    if _REPORTED.search(sentence) and not _SAME_ROUND_REF.search(sentence) and not accepts(sentence):
        return None, True
    named = quantities(sentence, names)
    last = max(q[1] for q in named) if named else len(sentence)
    if _VERDICT_AFTER.match(sentence[last:]):
        return None, True  # judged, not proposed: "Silk 4 for you is too many", "... -> overdraw"
    if _ACCEPT_HEAD.match(sentence) and _IF_MID.search(sentence):
        return prop, negated  # "Agreed, as long as I get 6 wool": the condition is the offer
    opening = _IF.search(sentence)
    if opening:
        # the condition runs to the first comma or "then"; an allocation after it is an offer
        m = re.search(r",|\bthen\b|\bwe\b|\bthat\b|\bit\b|\bthere\b", sentence[opening.end():], _F)
        tail = sentence[opening.end() + m.end():] if m else ""
        t_shares, _, t_nothing = _shares(tail, names)
        if not t_shares and not t_nothing:
            return None, True
        if _OUTCOME.search(tail) and not t_shares:
            return None, True
    else:
        mid = _IF_MID.search(sentence)
        if mid is not None:
            head, _, _ = _shares(sentence[:mid.start()], names)
            cond, _, _ = _shares(sentence[mid.end():], names)
            if not head and not (len(cond) == 2 and not _OUTCOME.search(sentence[:mid.start()])):
                return None, True  # a full split as the condition of a neutral head is proposed
            if not cond and _OUTCOME.search(sentence[mid.end():]):
                return None, True
    return prop, negated


_DISCLOSE_PROJECT = re.compile(
    r"(?P<owner>\b(?:my|our|your|their|his|her|the\s+other)\s+(?:own\s+)?)?"
    r"(?:\bproject[\s_-]*(?P<l1>[a-z0-9])\b(?!')|\b(?P<l2>[a-z])\s+project\b|\bproject\s+(?P<l3>alpha|beta|gamma|one|two|three)\b"
    r"|\b(?P<l5>1st|2nd|3rd|first|second|third)\s+project\b"
    r"|(?:^|(?<=[\n.;]\s)|(?<=[\n.;]))\s*(?:\(\s*)?(?P<l4>[ABC])\s*(?:\)\s*)?:)",
    _F)
_REWARD = re.compile(
    r"(?:\b(?:pays?|paying|reward(?:s|ing)?|yields?|yielding|worth|earns?|earning|gives?|giving|gets?|returns?|value|makes?"
    r"|scores?|nets?|payoff|profit|generates?|brings?|bringing)\b\s*"
    r"(?:of\s+|is\s+|are\s+|:\s*|=\s*|about\s+|me\s+|per\s+run\s+|out\s+|in\s+|back\s+|up\s+|a\s+)*"
    r"|->\s*|=\s*|\(\s*)\$?\s*(?P<n>\d+(?:\.\d+)?)(?!\s*(?:x\b|units?|of\b))"
    r"|\$\s*(?P<n2>\d+(?:\.\d+)?)"
    r"|(?P<n3>\d+(?:\.\d+)?)\s*(?:points?|pts|dollars|coins|credits|reward|per\s+run|/\s*run|a\s+run|each\s+run)\b"
    r"|\bfor\s+\$?(?P<n4>\d+(?:\.\d+)?)(?=\s*(?:[.,;)!]|$|and\b|-))", _F)
_REQ_CUE = re.compile(r"\b(?:needs?|requires?|requiring|uses?|using|takes|consumes?|costs?|calls\s+for|made\s+from|with|is|are"
                      r"|runs\s+on)\b|:|\(|=|->|-", _F)
_MULTI_RUN = re.compile(r"\b(?:for|over|across|to\s+run\s+it)\s+(?:\d+|two|three|four|five|both|several)\s+(?:runs|times)\b"
                        r"|\b\d+\s+runs\s+of\b|\bin\s+total\b", _F)
_NEED = re.compile(r"\bi\s+(?:still\s+)?need\s+(?P<n>\d+)\s+(?:units?\s+of\s+)?(?P<name>\w+)\s+(?:for|to\s+run|to\s+complete)"
                   r"\s+(?:my\s+)?(?:project[\s_-]*(?P<p>[a-z0-9])\b|(?P<p2>[a-z])\s+project\b)", _F)
_LETTERS = {"alpha": "a", "beta": "b", "gamma": "c", "one": "a", "two": "b", "three": "c",
            "1": "a", "2": "b", "3": "c", "1st": "a", "2nd": "b", "3rd": "c", "first": "a", "second": "b", "third": "c"}


def _project_name(letter: str) -> str:
    letter = letter.lower()
    return "project_" + _LETTERS.get(letter, letter)


def _disclosures(text: str, names: Mapping[str, str]) -> list[tuple[tuple[int, int], Disclose]]:
    """((start, end), disclosure) of each of the speaker's projects described in ``text``."""
    out: list[tuple[tuple[int, int], Disclose]] = []
    mentions = list(_DISCLOSE_PROJECT.finditer(text))
    sents = _sentences(text, dashes=False)
    for i, m in enumerate(mentions):
        owner = (m.group("owner") or "").strip().lower()
        if owner and owner not in ("my", "our", "my own", "our own"):
            continue
        letter = m.group("l1") or m.group("l2") or m.group("l3") or m.group("l4") or m.group("l5")
        start = m.end()
        stop = mentions[i + 1].start() if i + 1 < len(mentions) else len(text)
        s_start, s_end = next(((s, s + len(t)) for s, t in sents if s <= m.start() < s + len(t)), (0, len(text)))
        if _MULTI_RUN.search(text, s_start, m.start()):  # "Two runs of my project_c would need ..."
            continue
        seg_end = min(stop, s_end)
        seg = text[start:seg_end]
        qty = quantities(seg, names)
        if not qty or not _REQ_CUE.search(seg[:qty[0][0]] or " "):
            continue
        reward_m = next((rm for rm in _REWARD.finditer(seg)
                         if not any(s <= rm.start(rm.lastgroup) < e for s, e, *_ in qty)), None)
        if reward_m is not None and reward_m.start() > qty[0][0]:  # the requirements end where the reward is given
            cut = reward_m.end()
            qty = [q for q in qty if q[0] < cut and not (reward_m.start() <= q[0] < reward_m.end())]
            seg = seg[:cut]
        elif reward_m is None and seg_end < stop:  # the next sentence adds only the reward: "It pays 16."
            nxt = _sentences(text[seg_end:stop], dashes=False)
            if nxt and not quantities(nxt[0][1], names) and not _DISCLOSE_PROJECT.search(nxt[0][1]):
                reward_m = _REWARD.search(nxt[0][1])
        if _MULTI_RUN.search(seg):
            continue
        reward = None
        if reward_m is not None:
            reward = float(next(v for v in (reward_m.group("n"), reward_m.group("n2"), reward_m.group("n3"),
                                            reward_m.group("n4")) if v))
        req = {rid: n for _s, _e, rid, n in qty}
        out.append(((m.start(), start + max(len(seg), qty[-1][1])), Disclose(_project_name(letter), tuple(req.items()), reward)))
    return out


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span (a disclosure's requirements) blanked out, positions kept."""
    for a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return text


# --------------------------------------------------------------------------- the reader
def _names_key(names: Mapping[str, str] | Iterable[str]) -> tuple[tuple[str, str], ...]:
    if isinstance(names, Mapping):
        return tuple(sorted((str(k).lower(), v) for k, v in names.items()))
    return tuple(sorted((str(n).lower(), str(n).lower()) for n in names))


def read(text: str, names: Mapping[str, str] | Iterable[str]) -> Reading:
    """What ``text`` says (module docstring). ``names`` are the resources' written names:
    a mapping of written name -> what to call it in the reading (resource ids for the
    metrics), or just the names."""
    return _read(str(text), _names_key(names))


@functools.lru_cache(maxsize=16384)
def _read(text: str, names_key: tuple[tuple[str, str], ...]) -> Reading:
    names = dict(names_key)
    plain = normalise(text)
    digits = _label_lines(_digits(plain))
    acts: list[tuple[int, Act]] = []
    offers: list[Propose] = []
    hypothetical = False
    question = False
    asked = False
    tags: list[bool] = []  # per asking sentence: a tag asking agreement with an offer
    offer_at = 0
    found = _disclosures(digits, names)
    disclosed_spans = [span for span, _ in found]
    disclosed = [(span[0], d) for span, d in found]
    acts.extend(disclosed)
    for m in _NEED.finditer(digits):
        rid = _resolve(m.group("name"), names)
        if rid is not None:
            acts.append((m.start(), Need(int(m.group("n")), rid, _project_name(m.group("p") or m.group("p2")))))
    table, table_spans = _table(digits, names)
    if table is not None:
        offer_at = table_spans[0][0]
        offers.append(table)
    carry = None
    name_re = _mention_re(tuple(names)) if names else None
    for start, sentence in _sentences(_blank(digits, disclosed_spans + table_spans)):
        prop, hypo = (None, False) if _NEED.search(sentence) else _allocation(sentence, names, carry)
        named = name_re.findall(sentence) if name_re else []
        carry = _resolve(named[-1], names) if named else carry
        hypothetical |= (hypo and prop is None) or bool(_REPLACED.search(sentence) and quantities(sentence, names))
        if prop is not None:
            if not offers:
                offer_at = start
            offers.append(prop)
        s = sentence.strip()
        if s.endswith("?") or _TELL.search(s):
            if _ASK.search(s):
                asked = True
                acts.append((start, Ask()))
            if prop is not None:
                continue  # an offer asked: "How about you take ...?", "..., sound fair?"
            tags.append(bool(_AGREE_Q.search(s)))
            if not tags[-1]:
                question = True
    if tags and all(tags) and not offers:
        question = True  # "Deal?" with no offer in the message asks for one
    acc = accepts(text)
    rej = rejects(text)
    if rej:
        acts.append((-1, Reject()))
    if acc:
        acts.append((-1, Accept()))
    offer = _merge(offers)
    if offer is not None:  # one proposal a message: its sentences' shares together
        acts.append((offer_at, offer))
    acts.sort(key=lambda x: x[0])
    on_topic = bool(_TOPIC.search(digits)) or any(re.search(r"\b" + re.escape(n) + r"\b", digits, _F) for n in names)
    return Reading(acts=tuple(a for _, a in acts), offer=offer, accepts=acc, rejects=rej,
                   disclosures=tuple(d for _, d in disclosed), question=question or asked,
                   hypothetical=hypothetical, on_topic=on_topic)


_TOPIC = re.compile(r"\d|\b(?:split\w*|shares?|offer\w*|propos\w*|deal|take|takes|taking|half|evenly|give|buy|buying"
                    r"|allocat\w*|projects?|rest|remaining|percent|purchase\w*|agree\w*|accept\w*|reject\w*)\b", _F)


def _table(text: str, names: Mapping[str, str]) -> tuple[Propose | None, list[tuple[int, int]]]:
    """A markdown table of the split: a row per resource with "you" and "me" columns, or a
    row per party with a column per resource; a cell of 0, "-" or empty gives nothing.
    (the offer, the table's spans)."""
    lines = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"^[ \t]*\|.*\|[ \t]*$", text, re.M)]
    if len(lines) < 2:
        return None, []
    cells = [[c.strip().lower() for c in line.strip().strip("|").split("|")] for _a, _b, line in lines]
    rows = [c for c in cells if not all(re.fullmatch(r":?-+:?|", x) for x in c)]
    header, body = rows[0], rows[1:]
    shares: dict[str, dict[str, int]] = {}

    def num(x: str) -> int | None:
        m = re.fullmatch(r"\D{0,3}(\d+)\D{0,12}", x)
        return int(m.group(1)) if m else None

    cols = {i: _PARTY.get(h) for i, h in enumerate(header) if _PARTY.get(h) in ("you", "me")}
    if len(set(cols.values())) == 2:
        for row in body:
            rid = next((_resolve(x, names) for x in row if _resolve(x, names)), None)
            for i, party in cols.items():
                n = num(row[i]) if rid is not None and i < len(row) else None
                if n:
                    shares.setdefault(party, {})[rid] = n
    else:
        res = {i: _resolve(h, names) for i, h in enumerate(header) if _resolve(h, names)}
        for row in body:
            party = next((_PARTY.get(x) for x in row[:1] if _PARTY.get(x) in ("you", "me")), None)
            for i, rid in res.items():
                n = num(row[i]) if party and i < len(row) else None
                if n:
                    shares.setdefault(party, {})[rid] = n
    if not shares:
        return None, []
    you, me = shares.get("you", {}), shares.get("me", {})
    return Propose(tuple(you.items()), tuple(me.items())), [(lines[0][0], lines[-1][1])]


def _label_lines(text: str) -> str:
    """A party named alone on its line ("me:") labels the lines under it, up to the next
    label or a blank line: "me:\n  pearls: 4" reads as "me: pearls: 4"."""
    if "\n" not in text:
        return text
    out, label = [], None
    for line in text.split("\n"):
        m = re.fullmatch(r"\W*(you|u|me|mine|yours)\s*:\s*", line, _F)
        if m:
            label = m.group(1)
            out.append("")
        elif label and line.strip():
            out.append(f"{label}: {line.strip()}")
        else:
            label = None if not line.strip() else label
            out.append(line)
    return "\n".join(out)


def _merge(offers: list[Propose]) -> Propose | None:
    """The message's offer: its sentences' shares, a later sentence revising an earlier
    one share by share ("Me: 3 lithium. You: 6 copper.")."""
    if not offers:
        return None
    you: dict[str, int] | None = None
    me: dict[str, int] | None = None
    for p in offers:
        named = {n for n, _ in (p.you or ())} | {n for n, _ in (p.me or ())}
        so_far = set(you or {}) | set(me or {})
        replace = p.is_split and named >= so_far  # a whole new split, not one more line of it
        if p.you is not None:
            you = dict(p.you) if replace or you is None else {**you, **dict(p.you)}
        if p.me is not None:
            me = dict(p.me) if replace or me is None else {**me, **dict(p.me)}
    return Propose(None if you is None else tuple(you.items()), None if me is None else tuple(me.items()))
