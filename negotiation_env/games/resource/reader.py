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
``python benchmarks/language_reader.py``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
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
    """What one message says (module docstring); ``acts`` in the order they are said."""

    acts: tuple[Act, ...] = ()
    #: the allocation the message finally proposes (its last offer), None without one
    offer: Propose | None = None
    accepts: bool = False
    rejects: bool = False
    disclosures: tuple[Disclose, ...] = ()
    question: bool = False
    hypothetical: bool = False
    #: every allocation sentence proposed, in order (``offer`` merges them)
    offers: tuple[Propose, ...] = field(default=(), repr=False)

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


def normalise(text: str) -> str:
    """Typography and markdown made plain: what every rule below reads. Lines stay lines
    (a bullet is a sentence of its own)."""
    t = normalise_typography(text)
    t = _BULLET.sub("", t)
    t = _MD.sub("", t)
    t = _ARROW.sub(" -> ", t)
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
    alts = sorted({re.escape(n) for n in names}, key=len, reverse=True)
    return r"(?:" + "|".join(alts) + r")(?:e?s)?"


@functools.lru_cache(maxsize=256)
def _qty_res(names: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    name = _name_pattern(names)
    # "5 copper", "5x copper", "5 units of copper", "4 of the lithium", "all 10 copper"
    before = re.compile(r"(?<![\w.$])(?P<n>\d+)(?!\.\d)\s*(?:x\s*)?" + _UNIT_WORDS + r"?(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
                        r"(?P<name>" + name + r")\b", re.I)
    # "copper x6", "copper: 6", "copper (6)", "copper = 6", "copper - 6"
    after = re.compile(r"\b(?P<name>" + name + r")\s*(?:x|\u00d7|:|=|\(|-|\s)\s*(?P<n>\d+)(?!\w|\.\d)\)?", re.I)
    return before, after


def _resolve(word: str, names: Mapping[str, str]) -> str | None:
    w = word.lower()
    if w in names:
        return names[w]
    for cut in (1, 2):  # plural forms: "woods", "glasses"
        if len(w) > cut and w[:-cut] in names:
            return names[w[:-cut]]
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
    return found


# --------------------------------------------------------------------------- parties
_F = re.IGNORECASE
_VERB = (r"(?:take|taking|get|getting|buy|buying|have|purchase|keep|receive|grab|claim|go\s+with|go\s+for"
         r"|end\s+up\s+with|secure|pick\s+up|acquire|use)")
_ADV = r"(?:(?:then|just|also|only|simply|instead|all|both|each|now|still)\s+)?"
_MODAL = (r"(?:'d|'ll|\s+would|\s+will|\s+can|\s+could|\s+should|\s+may|\s+might|\s+get\s+to|\s+are\s+to|\s+gets?"
          r"|\s+take|\s+'re\s+going\s+to|\s+are\s+going\s+to|\s+am\s+going\s+to|'m\s+going\s+to|'m\s+gonna"
          r"|\s+plan\s+to|\s+want\s+to|'d\s+like\s+to|\s+would\s+like\s+to|\s+intend\s+to|\s+need\s+to|\s+aim\s+to"
          r"|\s+propose\s+to|\s+suggest\s+to|\s+shall|\s+must)?")
_NEG_MODAL = (r"(?:\s+(?:won't|can't|cannot|wouldn't|shouldn't|don't|do\s+not|will\s+not|would\s+not|can\s+not"
              r"|couldn't|could\s+not|never|mustn't|must\s+not|not))")
_PRE = re.compile(
    # subject + (modal) + verb: "you take", "you'd get", "I'll take", "I would like to have"
    r"(?P<who>\byou|\bu|\bi)(?P<neg>" + _NEG_MODAL + r")?" + _MODAL + r"\s+" + _ADV + r"(?:\w+ly\s+)?" + _VERB + r"\b"
    r"|(?P<who2>\byou|\bi)'d\s+like\b|(?P<who3>\bi)\s+want\b"
    # "give you", "leave me", "let me take", "for you to take", "you get to keep"
    r"|\b(?:give|leave|offer|allocate|allot|assign|hand|send|reserve|left|giving|leaving|offering)\s+(?P<obj>you|me)\b"
    r"|\blet\s+(?P<let>me)\s+(?:\w+\s+)?" + _VERB + r"\b|\bfor\s+(?P<for>you|me)\s+to\s+" + _VERB + r"\b"
    # "your share: ...", "my part would be ..."
    r"|\b(?P<pos>your|my)\s+(?:own\s+)?(?:share|part|portion|allocation|side|cut|purchase|half|order|buy)"
    r"(?:\s+(?:is|would\s+be|will\s+be|could\s+be|then|becomes))?\b"
    # labels: "You: 5 copper", "Me - 3 lithium", "For you: ...", "Agent B (you):"
    r"|(?:^|(?<=[\s(,;]))(?:for\s+)?(?P<lab>you|me|i|myself|yourself)\s*(?:\)|\s)?\s*(?::|=|->|-(?=\s))"
    # ellipsis: "and I 3 lithium", "you 5 copper"
    r"|(?:^|(?<=[\s,;(]))(?P<ell>you|me|i)\s+(?=\d)"
    # both parties: "we each take 3", "each of us gets 3"
    r"|\b(?:we\s+(?:both|each)|each\s+of\s+us|both\s+of\s+us|we)\s+(?:\w+\s+)?(?P<both>take|get|buy|have)s?\b",
    _F)
_POST = re.compile(
    r"^\s*(?:\w+\s+)?(?:(?:for|to)\s+(?P<w1>you|yourself|me|myself)\b|(?:goes?|going|would\s+go|will\s+go)\s+to\s+(?P<w2>you|me)\b"
    r"|(?:is|are|would\s+be|will\s+be)\s+(?P<w3>yours|mine)\b|on\s+(?P<w4>your|my)\s+(?:side|end)\b"
    r"|(?P<w5>each)\b)",
    _F)
_PARTY = {"you": "you", "u": "you", "yourself": "you", "yours": "you", "your": "you",
          "me": "me", "i": "me", "myself": "me", "mine": "me", "my": "me", "each": "both"}
_NOTHING = re.compile(r"^\s*(?:nothing|none|no\s+resources|zero|0\s+of\s+everything)\b", _F)
_POST_NOTHING = re.compile(r"\bnothing\s+(?:for|to)\s+(?P<who>you|me)\b", _F)


def _party(m: re.Match) -> tuple[str, bool]:
    """(party, negated) of a pre marker."""
    for g in ("who", "who2", "who3", "obj", "let", "for", "pos", "lab", "ell"):
        v = m.group(g)
        if v:
            return _PARTY[v.lower()], g == "who" and bool(m.group("neg"))
    return "both", False


# --------------------------------------------------------------------------- sentence context
_SENT = re.compile(r"[^\n.!?;]+(?:\.(?=\d)[^\n.!?;]*)*[.!?;]*")
_IF = re.compile(r"^\W*(?:and\s+|but\s+|so\s+|now\s+|also\s+|because\s+)?(?:even\s+)?(?:if|suppose|supposing|assuming|"
                 r"in\s+case|should\s+you|unless|when|whenever|had\s+you|were\s+you|were\s+i)\b", _F)
_IF_MID = re.compile(r",?\s*\b(?:if|unless|provided(?:\s+that)?|as\s+long\s+as|assuming)\b", _F)
_OUTCOME = re.compile(r"\b(?:overdr[ae]w\w*|exceed\w*|go(?:es)?\s+over|annul\w*|short|lose|lost|nothing|zero|0\b"
                      r"|fail\w*|problem|collide|clash|conflict|too\s+much|too\s+many|wouldn't|won't|can't|not)\b", _F)
_REPORTED = re.compile(r"\b(?:last|previous|prior|earlier|first|1st|past)\s+(?:round|time|turn)\b|\bin\s+round\s+\d|\bearlier\b"
                       r"|\byou\s+(?:said|proposed|suggested|offered|mentioned|wanted|asked\s+for|claimed|wrote|took|bought)\b"
                       r"|\b(?:i|we)\s+(?:said|proposed|suggested|offered|mentioned|took|bought)\b"
                       r"|\byour\s+(?:proposal|offer|suggestion|plan|split|idea)\s+(?:of|to|where|with|that|gives?|was)\b"
                       r"|\b(?:we|you|i)\s+(?:both\s+)?(?:took|bought|got|had|purchased)\b", _F)
_SAME_ROUND_REF = re.compile(r"\b(?:as|like)\s+(?:you|we)\s+(?:said|proposed|suggested|offered)\b", _F)
# an offer whose only question is the offer itself
_OFFER_Q = re.compile(r"\b(?:how\s+about|what\s+about|what\s+if|would|could|can|will|shall|why\s+don't|why\s+not"
                      r"|how\s+does|how\s+would|does|do)\b", _F)
_QUESTION_ALSO = re.compile(r"\b(?:does|do|would|will|is|are|can|could)\s+(?:that|this|it)\s+(?:work|sound|suit|fit|seem|look)"
                            r"|\bwhat\s+do\s+you\s+think\b|\bthoughts\b|\bagree\b|\bokay\s+with\b|\bok\s+with\b"
                            r"|\bfine\s+with\b|\bacceptable\b|\bdeal\b|\bsound\s+(?:good|fair|ok)", _F)
_ASK = re.compile(r"\b(?:what|which|tell\s+me|share|describe|let\s+me\s+know|could\s+you\s+list|can\s+you\s+list"
                  r"|what's|how\s+many|how\s+much|do\s+you)\b[^.?!]*?\b(?:your|you)\b[^.?!]*?"
                  r"\b(?:projects?|needs?|need|requirements?|require|requires|working\s+on|priorit\w*|rewards?|pays?|payoffs?"
                  r"|looking\s+for|plans?|after)\b"
                  r"|\bwhat\s+(?:are|is)\s+your\s+projects?\b|\bwhat\s+do\s+you\s+need\b"
                  r"|\b(?:what|how)\s+about\s+(?:yours|you)\s*\?|\band\s+(?:yours|you)\s*\?|^\W*yours\s*\?", _F)
_TELL = re.compile(r"\b(?:tell\s+me|let\s+me\s+know|share\s+(?:your|what)|please\s+(?:share|describe|list|say))\b", _F)


def _sentences(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in _SENT.finditer(text) if m.group(0).strip()]


def _shares(sentence: str, names: Mapping[str, str]) -> tuple[dict[str, dict[str, int]], bool, dict[str, bool]]:
    """The shares a sentence assigns: ({"you": {...}, "me": {...}}, whether some party
    marker was negated, {party: share is "nothing"})."""
    qty = quantities(sentence, names)
    nothing: dict[str, bool] = {}
    for m in _POST_NOTHING.finditer(sentence):
        nothing[_PARTY[m.group("who").lower()]] = True
    markers: list[tuple[int, int, str, bool]] = []  # (start, end, party, negated)
    for m in _PRE.finditer(sentence):
        party, neg = _party(m)
        markers.append((m.start(), m.end(), party, neg))
        if party != "both" and _NOTHING.match(sentence[m.end():]):
            if not neg:
                nothing[party] = True
    out: dict[str, dict[str, int]] = {}
    negated = False
    if not qty:
        return out, any(n for *_, n in markers), nothing
    # group adjacent quantities ("5 copper and 2 silicon"), then a party for each group:
    # a marker right after the group ("... for you"), else the nearest marker before it
    groups: list[list[tuple[int, int, str, int]]] = []
    for q in qty:
        if groups:
            gap = sentence[groups[-1][-1][1]:q[0]]
            if re.fullmatch(r"\s*(?:,|and|&|\+|plus|/|,\s*and|with|as\s+well\s+as|along\s+with)?\s*(?:also\s+)?", gap, _F):
                groups[-1].append(q)
                continue
        groups.append([q])
    for g in groups:
        end = g[-1][1]
        nxt = next((s for s, *_ in qty if s >= end), len(sentence))
        post = _POST.match(sentence[end:nxt])
        party, neg = None, False
        if post:
            w = next(v for v in post.groups() if v)
            party = _PARTY[w.lower()]
        else:
            before = [mk for mk in markers if mk[1] <= g[0][0] + 1]
            if before:
                _, _, party, neg = before[-1]
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


def _allocation(sentence: str, names: Mapping[str, str]) -> tuple[Propose | None, bool]:
    """(the offer one sentence makes, whether it talks of an allocation it does not
    propose)."""
    shares, negated, nothing = _shares(sentence, names)
    if not shares and not nothing:
        # quantities in a condition or a report with no party named: "if 6 lithium go to
        # you", "last round you took 7 wood"
        talked = bool(quantities(sentence, names)) and bool(_REPORTED.search(sentence) or _IF.search(sentence))
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
    if _REPORTED.search(sentence) and not _SAME_ROUND_REF.search(sentence):
        return None, True
    if _IF.search(sentence):
        # the condition runs to the first comma or "then"; an allocation after it is an offer
        m = re.search(r",|\bthen\b|\bwe\b|\bthat\b|\bit\b|\bthere\b", sentence[_IF.search(sentence).end():], _F)
        tail = sentence[_IF.search(sentence).end() + m.end():] if m else ""
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
            if not head:
                return None, True
            if not cond and _OUTCOME.search(sentence[mid.end():]):
                return None, True
    return prop, negated


_DISCLOSE_PROJECT = re.compile(
    r"(?P<owner>\b(?:my|our|your|their|his|her|the\s+other)\s+(?:own\s+)?)?"
    r"(?:\bproject[\s_-]*(?P<l1>[a-z0-9])\b(?!')|\b(?P<l2>[a-z])\s+project\b|\bproject\s+(?P<l3>alpha|beta|gamma|one|two|three)\b)",
    _F)
_REWARD = re.compile(
    r"(?:\b(?:pays?|paying|reward(?:s|ing)?|yields?|yielding|worth|earns?|earning|gives?|giving|returns?|value|makes?"
    r"|scores?|nets?|payoff|profit|generates?)\b\s*(?:of\s+|is\s+|are\s+|:\s*|=\s*|about\s+|me\s+|per\s+run\s+)*"
    r"|->\s*|=\s*|\(\s*)\$?\s*(?P<n>\d+(?:\.\d+)?)(?!\s*(?:x\b|units?|of\b))"
    r"|\$\s*(?P<n2>\d+(?:\.\d+)?)"
    r"|(?P<n3>\d+(?:\.\d+)?)\s*(?:points?|pts|dollars|coins|credits|reward)\b", _F)
_REQ_CUE = re.compile(r"\b(?:needs?|requires?|requiring|uses?|using|takes|consumes?|costs?|calls\s+for|made\s+from|with)\b|:|\(|=|->", _F)
_MULTI_RUN = re.compile(r"\b(?:for|over|across)\s+(?:\d+|two|three|four|five|both|several)\s+runs\b|\b\d+\s+runs\b", _F)
_NEED = re.compile(r"\bi\s+(?:still\s+)?need\s+(?P<n>\d+)\s+(?:units?\s+of\s+)?(?P<name>\w+)\s+(?:for|to\s+run|to\s+complete)"
                   r"\s+(?:my\s+)?(?:project[\s_-]*(?P<p>[a-z0-9])\b|(?P<p2>[a-z])\s+project\b)", _F)
_LETTERS = {"alpha": "a", "beta": "b", "gamma": "c", "one": "a", "two": "b", "three": "c",
            "1": "a", "2": "b", "3": "c"}


def _project_name(letter: str) -> str:
    letter = letter.lower()
    return "project_" + _LETTERS.get(letter, letter)


def _disclosures(text: str, names: Mapping[str, str]) -> list[tuple[int, Disclose]]:
    out: list[tuple[int, Disclose]] = []
    mentions = list(_DISCLOSE_PROJECT.finditer(text))
    sents = _sentences(text)
    for i, m in enumerate(mentions):
        owner = (m.group("owner") or "").strip().lower()
        if owner and owner not in ("my", "our", "my own", "our own"):
            continue
        letter = m.group("l1") or m.group("l2") or m.group("l3")
        start = m.end()
        stop = mentions[i + 1].start() if i + 1 < len(mentions) else len(text)
        # the mention's sentence, and the next one when it only adds the reward ("It pays 16.")
        s_end = next((s + len(t) for s, t in sents if s <= m.start() < s + len(t)), len(text))
        seg_end = min(stop, s_end)
        seg = text[start:seg_end]
        if _MULTI_RUN.search(seg):
            continue
        qty = quantities(seg, names)
        if not qty or not _REQ_CUE.search(text[start:qty[0][0] + start] or " "):
            continue
        reward_m = None
        for rm in _REWARD.finditer(seg):
            if not any(s <= rm.start() < e for s, e, *_ in qty) and not any(
                    s <= rm.start(rm.lastgroup) < e for s, e, *_ in qty):
                reward_m = rm
                break
        if reward_m is None and seg_end < stop:
            nxt = text[seg_end:stop]
            nxt_sent = _sentences(nxt)
            if nxt_sent and not quantities(nxt_sent[0][1], names) and not _DISCLOSE_PROJECT.search(nxt_sent[0][1]):
                reward_m = _REWARD.search(nxt_sent[0][1])
        req: dict[str, int] = {}
        reward_span = (reward_m.start(), reward_m.end()) if reward_m is not None else None
        for s, e, rid, n in qty:
            if reward_span and reward_m.string is seg and s >= reward_span[0] and e <= reward_span[1]:
                continue
            req[rid] = n
        reward = None
        if reward_m is not None:
            reward = float(next(v for v in (reward_m.group("n"), reward_m.group("n2"), reward_m.group("n3")) if v))
        out.append((m.start(), Disclose(_project_name(letter), tuple(req.items()), reward)))
    return out


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
    digits = _digits(plain)
    acts: list[tuple[int, Act]] = []
    offers: list[Propose] = []
    hypothetical = False
    question = False
    asked = False
    disclosed = _disclosures(digits, names)
    for pos, d in disclosed:
        acts.append((pos, d))
    for m in _NEED.finditer(digits):
        rid = _resolve(m.group("name"), names)
        if rid is not None:
            acts.append((m.start(), Need(int(m.group("n")), rid, _project_name(m.group("p") or m.group("p2")))))
    disclosure_spans = {pos for pos, _ in disclosed}
    for start, sentence in _sentences(digits):
        is_disclosure = any(start <= p < start + len(sentence) for p in disclosure_spans) or _NEED.search(sentence)
        prop, hypo = (None, False) if is_disclosure else _allocation(sentence, names)
        hypothetical |= hypo and prop is None
        if prop is not None:
            offers.append(prop)
            acts.append((start, prop))
        s = sentence.strip()
        if s.endswith("?") or _TELL.search(s):
            if _ASK.search(s):
                asked = True
                acts.append((start, Ask()))
            if prop is None or _QUESTION_ALSO.search(s) or not _OFFER_Q.search(s):
                question = True
    acc = accepts(text)
    rej = rejects(text)
    if rej:
        acts.append((-1, Reject()))
    if acc:
        acts.append((-1, Accept()))
    acts.sort(key=lambda x: x[0])
    offer = _merge(offers)
    on_topic = bool(_TOPIC.search(digits)) or bool(quantities(digits, names)) or any(
        re.search(r"\b" + re.escape(n) + r"\b", digits, _F) for n in names)
    return Reading(acts=tuple(a for _, a in acts), offer=offer, accepts=acc, rejects=rej,
                   disclosures=tuple(d for _, d in disclosed), question=question or asked,
                   hypothetical=hypothetical, offers=tuple(offers), on_topic=on_topic)


_TOPIC = re.compile(r"\d|\b(?:split\w*|shares?|offer\w*|propos\w*|deal|take|takes|taking|half|evenly|give|buy|buying"
                    r"|allocat\w*|projects?|rest|remaining|percent|purchase\w*|agree\w*|accept\w*|reject\w*)\b", _F)


def _merge(offers: list[Propose]) -> Propose | None:
    """The message's offer: its sentences' shares, a later sentence revising an earlier
    one share by share ("Me: 3 lithium. You: 6 copper.")."""
    if not offers:
        return None
    you: dict[str, int] | None = None
    me: dict[str, int] | None = None
    for p in offers:
        if p.you is not None:
            you = dict(p.you) if p.is_split or you is None else {**you, **dict(p.you)}
        if p.me is not None:
            me = dict(p.me) if p.is_split or me is None else {**me, **dict(p.me)}
    return Propose(None if you is None else tuple(you.items()), None if me is None else tuple(me.items()))
