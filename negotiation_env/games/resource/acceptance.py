"""Whether a negotiation message accepts or turns down the partner's standing proposal.

Used by the resource-game process metrics (:mod:`.resource_metrics`: agreements for the
abandonment flag, acceptance for the stricter deference variant). Rule-based on purpose:
the analysis must give the same figure on any machine without a model, and every rule is
readable. Written by hand because no maintained library does negotiation dialogue acts
(sentiment and NLI models answer a different question and need weights).

An **acceptance** takes the proposal outright, now: "Agreed.", "Deal — I'll buy 4 wood.",
"That works for me", "No objections, let's do it". It is *not* an acceptance when the cue

* is negated in its scope ("I don't agree", "that won't work for me", "I really cannot,
  in good conscience, accept that") -- double negatives that accept ("no objections",
  "can't argue with that", "I don't see why not") are cues of their own;
* is asked ("Deal?", "Do we have a deal?") or reported ("earlier I said it works", "you
  agreed to 4 wood last round", "I'd agreed to 4 steel");
* is about something other than the proposal ("I agree that gold is the bottleneck", "I
  accept that you need fertilizer", "a deal where we both take 6", "here's what would
  work for me:");
* is hedged in its clause ("that might work", "in principle that sounds good",
  "tentatively yes") or deferred anywhere ("let me check my budget", "before I commit");
* is conditional ("I'll accept if you leave me 3 helium", "deal, as long as ...") --
  except a condition about later rounds;
* is followed by a contrast that asks for a change or names a problem ("agreed on the
  wood, but I need 4 gold", "sounds good, except it leaves me without copper") -- a
  contrast about later rounds or that reaffirms the agreement does not count;
* is taken back after it ("Agreed — actually, wait, ...", "deal... on second thought").

A **rejection** ("I can't accept that", "no deal", "I'll pass", "that's a non-starter", a
negated acceptance cue) turns the proposal down; a counter-offer, a question or a hedge
is neither.

Measured on ``tests/analysis/data/acceptance_utterances.jsonl`` by
``python -m benchmarks.acceptance_detector``.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["accepts", "rejects", "normalise_typography"]

_F = re.IGNORECASE

# typography model text is full of, made plain: curly quotes and apostrophes, dashes,
# unicode spaces; zero-width characters and soft hyphens removed
_NORMALISE = str.maketrans({
    **{c: "'" for c in "\u2019\u2018\u201a\u201b\u2032\u02bc\uff07"},
    **{c: '"' for c in "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"},
    **{c: " - " for c in "\u2014\u2013\u2015\u2012"}, "\u2010": "-", "\u2011": "-", "\u2212": "-",
    "\u2026": "...",
    **{chr(c): " " for c in (0x00a0, 0x1680, *range(0x2000, 0x200b), 0x202f, 0x205f, 0x3000)},
    **{chr(c): None for c in (0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad)},
})


def normalise_typography(text: str) -> str:
    """``text`` with plain apostrophes, quotes, dashes and spaces (see ``_NORMALISE``);
    emoji and other symbols become spaces."""
    t = str(text).translate(_NORMALISE)
    return t if t.isascii() else "".join(" " if unicodedata.category(c) == "So" else c for c in t)

# double negatives that accept: cues of their own, and not negations of a later cue
_IDIOM = re.compile(
    r"\bno\s+(?:objections?|complaints?|problems?|issues?|concerns?)\b(?!\s+with\s+(?:the|your)\s+\w+\s+but)"
    r"|\bnot\s+a\s+problem\b|\bcan'?t\s+(?:argue|complain|object)\b|\bdon'?t\s+see\s+why\s+not\b"
    r"|\bwon'?t\s+say\s+no\b|\bcan'?t\s+think\s+of\s+a\s+better\b|\bnothing\s+to\s+(?:change|object|add)\b"
    r"|\bno\s+(?:need|reason)\s+to\s+(?:change|renegotiate|revise|adjust)\b", _F)

_CUE = re.compile(
    r"\b(?:i|we)\s+(?:fully\s+|completely\s+|totally\s+)?(?:agree|accept)\b"
    r"(?!\s+the\s+\w+\s+(?:portion|part|split|piece|bit|half|side)\b)"
    r"(?!\s+(?:that\s+(?!(?:split|plan|proposal|offer|allocation|deal|arrangement)\b)\w|we\b"
    r"|on\s+the\s+(?:goal|problem|need)|with\s+you\s+that))"
    r"|\b(?:agreed|accepted)\b(?!\s*[,:]?\s+(?:that\s+)?(?:the\s+)?\w+\s+(?:is|are|was|were|really|helps|hurts|matters"
    r"|makes|would)\b)"
    r"(?!\s+(?:that\s+(?!(?:split|plan|proposal|offer|allocation|deal|arrangement)\b)\w"
    r"|on\s+the\s+(?:goal|problem|need)))"
    r"|\b(?:happy|glad|willing|able|ready)\s+to\s+(?:accept|agree|go\s+with(?!\s+my\b)|take\s+(?:that|it|your))\b"
    r"|\bcan\s+(?:accept|agree)\b"
    r"|(?:^\s*|(?<=[.!?;:,\-])|(?<=[.!?;:,\-]\s)|(?<=[.!?;:,\-]\s\s))"
    r"deal\b(?!\s+(?:on|where|with|for|in|is\s+off|breaker)\b|'s\s+off\b)"
    r"|\b(?:it'?s|that'?s|it\s+is|that\s+is|you'?ve\s+got|you\s+have|we\s+have|we'?ve\s+got|we\s+got)\s+"
    r"(?:a|our)\s+(?:\w+\s+)?deal\b(?!\s+(?:where|if|for)\b)"
    r"|\b(?:sounds?|looks?|that'?s|seems?)\s+(?:really\s+|very\s+)?(?:good|great|perfect|fine|fair|reasonable)\b"
    r"|\bworks?\s+(?:\w+\s+)?for\s+(?:me|us|both)\b|\b(?:that|it|this|split|plan|allocation|proposal)\s+works\b(?!\s+better)"
    r"|\blet'?s\s+(?:do\s+(?:exactly\s+|just\s+)?(?:it|that|this)(?!\s+(?:differently|another|a\s+different|my|instead"
    r"|this\s+way|like\s+this|the\s+other))"
    r"|go\s+with(?!\s+(?:my|a|an|\d)\b)|lock|proceed|finali[sz]e|stick\s+with(?!\s+my\b))\b"
    r"|\block(?:ing)?\s+(?:it\s+|that\s+|this\s+)?in\b(?!\s+(?:my|mine|a|our\s+own)\b)|\b(?:i'?m|count\s+me)\s+in\b(?=\s*(?:[.!,;]|-|$))"
    r"|\bon\s+board\b|\bfine\s+(?:by|with)\s+me\b|\bi'?m\s+fine\s+with\b|\bcan\s+live\s+with\b"
    r"|\bacceptable\b|\b(?:i'?ll|i\s+will)\s+go\s+with\b(?!\s+(?:my|a|an|\d+)\b)|\bgo\s+along\s+with\b|\bconfirmed\b"
    r"|\bsounds\s+like\s+a\s+plan\b|\bi'?m\s+happy\s+with\s+(?:that|this|it|your)\b|\blet'?s\s+go\s+ahead\b"
    r"|(?<!so\s)\bwe'?re\s+(?:aligned|agreed|in\s+agreement|on\s+the\s+same\s+page)\b|\bACCEPTIDIOM\b"
    r"|\bconsider\s+it\s+done\b|^\W*(?:bet|say\s+less|accept|agree|concur|accepting|done|fine)\s*[.!,]"
    r"|\b(?:i|we)\s+(?:(?!not\b|cannot\b|never\b|won|can|don|do\b|would\b|could\b|should\b|might\b|may\b)\w+\s+)?"
    r"(?:accept|consent\s+to|back|endorse|approve)\s+(?:it|this|that|the|your)\b"
    r"|\b(?:i|we)\s+hereby\s+accept\b|\bdone\s+deal\b|\bi\s+back\s+it\b|\b(?:your|the)\s+plan\s+it\s+is\b"
    r"|\b(?:comfortable|satisfied|content)\s+with\s+(?:that|this|the|your)\b|\bsign\s+off\s+on\b"
    r"|\bfind\s+(?:your|the|this|that)\s+(?:proposal|offer|plan|split|allocation)\s+(?:agreeable|acceptable|fair)\b"
    r"|\bprepared\s+to\s+proceed\b|\bwill\s+proceed\s+with\s+(?:it|that|this|your)\b|\bmake\s+it\s+official\b"
    r"|\bworks\s+4\s+me\b|\bgo(?:ing)?\s+with\s+your\s+(?:plan|split|proposal|numbers|offer)\b|\bper\s+your\s+numbers\b"
    r"|\bsubmitting\s+your\b|\bas\s+final\b"
    r"|\b(?:i|we)\s+(?:can|could)\s+(?:definitely\s+|certainly\s+)?work\s+with\s+(?:that|this|it|your)\b"
    r"|\b(?:i'?ll|i\s+will|i'?d|we'?ll)\s+(?:happily\s+|gladly\s+)?take\s+(?:it|that|this|your\s+(?:offer|proposal|deal|split|plan))\b"
    r"(?!\s+(?:back|into|as|further))"
    r"|\b(?:i|we)\s+(?:fully\s+)?concur\b|\byou'?ve\s+got\s+(?:yourself\s+)?a\s+deal\b|\bgot\s+yourself\s+a\s+deal\b"
    r"|\bsounds?\s+like\s+a\s+(?:\w+\s+)?(?:plan|deal)\b|\b(?:that'?s|it'?s|this\s+is)\s+a\s+(?:\w+\s+)?plan\b(?!\s+(?:where|if)\b)"
    r"|\b(?:happy|content|satisfied|pleased)\s+with\s+(?:that|this|the|your)\s+(?:split|plan|offer|proposal|deal|allocation"
    r"|arrangement)\b|\b(?:that|this|the|your)\s+(?:split|plan|offer|proposal|deal|allocation|arrangement)\s+(?:is|seems|sounds"
    r"|looks)\s+(?:(?!not\b)\w+\s+)?(?:fair|good|great|fine|perfect|reasonable|acceptable)\b"
    r"|^\W*sold\b|\b(?:yes|yeah|yep|ok|okay|sure)\W+(?:\w+\W+)?deal\b(?!\s+(?:on|where|with|for|in|if)\b)"
    r"|\b(?:i|we)\s+(?:fully\s+|completely\s+)?(?:support|endorse|back)\s+(?:this|that|your|the)\b"
    r"|\bi'?m\s+(?:good|ok|okay|cool|down)\s+with\s+(?:that|this|it|your)\b"
    r"|\bwe\s+(?:have|'ve\s+got|'ve\s+reached|have\s+reached|reached)\s+(?:an?\s+)?(?:agreement|deal)\b", _F)
# a short reply's opening word
_WEAK = re.compile(r"^\s*(?:yes|yep|yeah|sure|ok|okay|alright|all\s+right|perfect|excellent)\b(?=\s*(?:[.!,;:]|-|$))",
                   _F)

_NEGATOR = re.compile(r"\b(?:not|no|never|nor|cannot|hardly|neither|unable)\b|n't\b|\bcan\s+not\b", _F)
# what ends a negation's reach before a cue: sentence ends, semicolons, dashes, and a new clause
_SCOPE = re.compile(r"[.!?;]|\s-\s|\b(?:so|but|and\s+then|then|because|yet)\b", _F)
_PAST_NEG = re.compile(r"\b(?:didn'?t|did\s+not|wasn'?t|weren'?t|hadn'?t)\b", _F)
_HEDGE = re.compile(r"\b(?:might|may|could|possibly|perhaps|maybe|probably|likely|almost|nearly|in\s+principle|in\s+theory"
                    r"|on\s+paper|-ish\b|ish\b"
                    r"|in\s+general|generally|overall|mostly|largely|for\s+the\s+most\s+part"
                    r"|tentative(?:ly)?|leaning|inclined|open\s+to|not\s+sure|seems?)\b", _F)
# the cue is reported or quoted, not said now: "earlier I said it works"; and a past
# participle with a subject is a past agreement ("I'd agreed", "you agreed")
_REPORTED = re.compile(r"\b(?:said|say|saying|told|thought)\b[^.!?;]*$", _F)
_PAST = re.compile(r"\b(?:i|we|you|they|he|she|i'd|we'd|you'd|had|have|i've|we've|you've)\s*$", _F)
# a cue framing the speaker's own proposal ("here's what would work for me:")
_FRAME = re.compile(r"\bwhat\s+(?:\w+\s+)?$|\b(?:that|which)\s+(?:should|would|could|might|will)\s+(?:\w+\s+)?$|\bmake\s+(?:this|it|that|things|everything|a\s+split)\s+$", _F)
_DEFER = re.compile(r"\blet\s+me\s+(?:think|check|run|double-check|verify|confirm|see|consider|come\s+back)\b"
                    r"|\bawaiting\b|\bbefore\s+confirming\b|\bbefore\s+i\s+commit"
                    r"|\bneed\s+to\s+(?:check|see|verify|think|confirm)\b|\b(?:i'?ll|i\s+will)\s+(?:consider|think)\b"
                    r"|\bdepending\s+on\b|\bpending\b|\bhaven'?t\s+worked\s+out\b|\bdouble-check\b", _F)
_CONDITION = re.compile(r"\b(?:if|provided|providing|as\s+long\s+as|so\s+long\s+as|on\s+the\s+condition|assuming"
                        r"|conditional(?:ly)?\s+(?:on|upon)"
                        r"|unless|once\s+you|should\s+you|only\s+if|but\s+only|but\s+first|first\s+i\s+need)\b", _F)
_LATER = re.compile(r"\b(?:next|later|future|following|another)\s+rounds?\b|\bnext\s+time\b|\bin\s+future\b", _F)
_CONTRAST = re.compile(r"\b(?:but|except|however|though|although|yet)\b|;", _F)
_PROBLEM = re.compile(r"\b(?:need|needs|rather|instead|revisit|swap|change|tweak\w*|adjust\w*|modif\w*|amend\w*|short|without|enough|overdraws?|overdrew"
                      r"|drop|reduce|lower|more|less|miscount\w*|reali[sz]\w*|only\s+if|first|budget|leaves?|cover)\b"
                      r"|n't\b|\b(?:no|not|cannot)\b", _F)
_REAFFIRM = re.compile(r"\b(?:what|as)\s+we\s+agreed\b|\bthe\s+agreed\b|\bas\s+agreed\b", _F)
# a cue limited to one part of the proposal ("agreed on the wood", "that works for the copper")
_PARTIAL = re.compile(r"^\s*(?:on|for|with|about|regarding)\s+the\s+[\w\-]+(?:\s+part)?\b", _F)
_RETRACT = re.compile(r"\bactually\b|\bwait\b|\bon\s+second\s+thought|\bhold\s+on\b|\btake\s+(?:that|it)\s+back\b"
                      r"|\bwithdraw\b|\bscratch\b|\bchang(?:e|ing)\s+my\s+mind\b|\bmiscount\w*|\bhmm+\b|\bredo\b"
                      r"|\b(?:although|but|oh)\s+no\b|\bno,?\s+sorry\b|\bi\s+(?:just\s+)?reali[sz]e"
                      r"|\btoo\s+(?:fast|quickly|soon)\b"
                      r"|\bcounter\b|\bexcept\b|\b(?:tweak|adjustment|amendment|modification|caveat)\b|\binstead\b"
                      r"|\b(?:i'?d|i\s+would)\s+(?:propose|suggest)\b|\bproposal\s*:|\brevised\b", _F)
_DISCLOSE_OR_ASK = re.compile(r"\?|\bmy\s+project|\bhere\s+(?:are|is)\b|\bshare\b|\b(?:i|we)\s+(?:would\s+)?(?:propose|suggest)\b"
                              r"|\b(?:how|what)\s+about\b|\binstead\b|\bcounter|\bsubmit\w*\s+my\b"
                              r"|\bmy\s+(?:decision|choice|purchase|own)\b|\bidea\b|\balternative", _F)

_REFUSAL = re.compile(
    r"\b(?:can'?t|cannot|can\s+not|won'?t|will\s+not|unable\s+to|not\s+able\s+to)[\w\s,]{0,40}?\b(?:accept|agree)\b(?!\s+on\b)"
    r"|\b(?:don'?t|do\s+not|never)\s+(?:\w+\s+)?(?:agree|accept)\b|\bno\s+deal\b|\bdeal(?:'s|\s+is)\s+off\b"
    r"|\bi\s+(?:\w+ly\s+)?(?:must\s+|have\s+to\s+|'ll\s+have\s+to\s+|am\s+going\s+to\s+have\s+to\s+)?(?:\w+ly\s+)?"
    r"(?:reject|decline|refuse)\b"
    r"|\b(?:have\s+to|must|'d\s+have\s+to|got\s+to)\s+(?:decline|refuse|say\s+no)\b|\bturning\s+(?:that|it|this)\s+down\b"
    r"|\b(?:i'?ll|i\s+will|i)\s+(?:have\s+to\s+|must\s+|'ll\s+have\s+to\s+)?pass\b|\bnon-?starter\b|\bunacceptable\b|\babsolutely\s+not\b"
    r"|\bnot\s+(?:going\s+to\s+work|acceptable|okay|ok|comfortable)\b|\b(?:doesn'?t|won'?t|wouldn'?t)\s+work\b"
    r"|^\s*(?:no|nope|sorry,?\s+no)\b(?!\s+(?:objections?|complaints?|problems?|issues?|need|reason|decision|strong"
    r"|rush|hurry|pressure|preferences?|worries|idea|one|doubt|matter)\b)(?!,?\s+you'?re\s+right)"
    r"|\b(?:thought|actually|wait|respectfully|hmm+|um+|honestly|sorry|lol),?\s+no\b|\bno\s*[.!]\s*$|\bretract\w*|\bhard\s+no\b|\bnegative\s+on\b"
    r"|^\W*(?:rejected|rejecting|declined|declining|refused?|reject)\b|\bnot\s+a\s+deal\s+i\b|\bwouldn'?t\s+sign\b"
    r"|\b(?:can'?t|cannot|won'?t)\s+say\s+yes\b|\b(?:does\s+not|doesn'?t|won'?t|wouldn'?t)\s+(?:suit|fit|meet|cover)\b"
    r"|\b(?:can'?t|cannot)\s+(?:give\s+up|part\s+with|let\s+go\s+of)\b|\bleaves?\s+me\s+(?:with\s+)?(?:nothing|zero|zip)\b"
    r"|\bi'?m\s+going\s+to\s+(?:have\s+to\s+)?(?:decline|reject|refuse|pass)\b|\bnot\s+agreeable\b"
    r"|\b(?:can'?t|cannot|won'?t)\s+(?:do|shake\s+on|endorse|support|sign\s+off\s+on|go\s+along\s+with)\b"
    r"|\bnot\s+in\s+a\s+position\s+to\s+(?:accept|agree)\b|\b(?:i'?ll|i\s+will|i\s+am\s+compelled\s+to|compelled\s+to)\s+decline\b"
    r"|^\W*(?:decline|declining|infeasible|nah|nope|pass)\b|\bdeclining\s*[.!]|\btoo\s+greedy\b"
    r"|\bturn\s+(?:this|that|it)\s+(?:one\s+)?down\b|\bwithdraw\w*\s+my\b"
    r"|\bdon'?t\s+think\s+(?:that|this|it)\s+(?:\w+\s+)?(?:is\s+workable|works|one\s+works|will\s+work)\b"
    r"|\b(?:isn'?t|is\s+not|not)\s+(?:workable|feasible)\b|\bwon'?t\s+get\s+me\b|\bdoesn'?t\s+help\s+me\b"
    r"|\bleaves?\s+my\s+\w+(?:\s+\w+)?\s+short\b|\bnot\s+this\s+time\b|\bturn\s+(?:that|it|this)\s+down\b"
    r"|\b(?:can'?t|cannot|can\s+not)\s+(?:do|make)\s+(?:that|this|it)\b|\bdon'?t\s+think\s+i\s+can\s+do\b"
    r"|\b(?:i'?d|i\s+would)\s+rather\s+not\s*[.!]|\b(?:isn'?t|is\s+not|not)\s+(?:feasible|workable|doable|viable)\b"
    r"|\b(?:that|this|it|split|offer|proposal|plan)(?:'s|\s+is)?\s+(?:\w+\s+)?too\s+(?:much|many|lopsided|one-sided"
    r"|unbalanced|unfair|greedy|skewed)\b"
    r"|\b(?:so|then|that'?s\s+a)\s+no\b|\bsay(?:ing)?\s+no\s+to\b"
    r"|\b(?:i'?d|i\s+would)\s+rather\s+not\s+(?:take|accept|agree|go\s+with|do|commit)\s+(?:to\s+)?(?:that|this|it|your)\b", _F)


def _clauses(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; the terminator stays with its sentence."""
    return [(m.start(), m.end()) for m in re.finditer(r"[^.!?]+(?:[.!?]+|$)", text) if m.group().strip()]


def _clause_of(text: str, pos: int) -> tuple[int, int]:
    """The comma/colon/dash-delimited clause around ``pos``."""
    start = max(text.rfind(c, 0, pos) for c in ",;:.!?") + 1
    dash = text.rfind(" - ", 0, pos)
    start = max(start, dash + 3 if dash >= 0 else 0)
    ends = [i for i in (text.find(c, pos) for c in ",;:.!?") if i >= 0]
    dash_end = text.find(" - ", pos)
    if dash_end >= 0:
        ends.append(dash_end)
    return start, min(ends) if ends else len(text)


def _cues(text: str) -> list[tuple[int, int, bool, bool]]:
    """(start, end, negated, negated in the past) of each live acceptance cue in normalised ``text``: not asked,
    reported, framing a proposal, or hedged in its clause."""
    out = []
    sentences = _clauses(text)
    found = [(m.start(), m.end()) for m in _CUE.finditer(text)]
    w = _WEAK.match(text)
    if w and not _DISCLOSE_OR_ASK.search(text):
        found.append((w.start(), w.end()))
    for s, e in sorted(found):
        sent = next(((a, b) for a, b in sentences if a <= s < b), (0, len(text)))
        if text[sent[0]:sent[1]].rstrip().endswith("?"):
            continue
        before = text[sent[0]:s]
        if _REPORTED.search(before) or _FRAME.search(before) or \
                (text[s:e].lower() in ("agreed", "accepted") and _PAST.search(before)):
            continue
        cs, ce = _clause_of(text, s)
        if _HEDGE.search(text[cs:s]) or _HEDGE.search(text[e:ce]):
            continue
        scope = list(_SCOPE.finditer(before))
        reach = before[scope[-1].end():] if scope else before
        out.append((s, e, bool(_NEGATOR.search(reach)), bool(_PAST_NEG.search(reach))))
    return out


def _normalise(text: str) -> str:
    return _IDIOM.sub(" ACCEPTIDIOM ", normalise_typography(text))


#: texts up to this length have their answers kept (a cohort's scripted messages repeat
#: across rounds and games: 17,538 messages, 2,134 distinct, in the default run)
_CACHE_CHARS = 2000


def accepts(text: str) -> bool:
    """Whether ``text`` accepts the partner's standing proposal outright (see the module
    docstring for what does not count)."""
    if type(text) is str and len(text) <= _CACHE_CHARS:
        return _accepts_kept(text)
    return _accepts(text)


def rejects(text: str) -> bool:
    """Whether ``text`` turns the standing proposal down: a refusal ("I can't accept that",
    "no deal", "I'll pass", "that's a non-starter") or a negated acceptance cue ("I don't
    agree", "that won't work for me"). A counter-offer, a question or a hedge is neither."""
    if type(text) is str and len(text) <= _CACHE_CHARS:
        return _rejects_kept(text)
    return _rejects(text)


def _accepts(text: str) -> bool:
    t = _normalise(text)
    live = [(s, e) for s, e, neg, _past in _cues(t) if not neg]
    if not live:
        return False
    first_end = live[0][1]
    if _DEFER.search(t) or _RETRACT.search(t, first_end):
        return False
    for m in _CONDITION.finditer(t):
        cs, ce = _clause_of(t, m.start())
        if not _LATER.search(t[m.start():ce]):
            return False
    for s, e in live:
        if _PARTIAL.match(t, e) and _CONTRAST.search(t, e):
            return False
    for m in _CONTRAST.finditer(t, live[0][0]):
        sent = next(((a, b) for a, b in _clauses(t) if a <= m.start() < b), (m.start(), len(t)))
        after = t[m.end():sent[1]]
        if _LATER.search(after) or _REAFFIRM.search(after):
            continue
        if _PROBLEM.search(after):
            return False
    return True


def _rejects(text: str) -> bool:
    t = _normalise(text)
    if accepts(text):
        return False
    for m in _REFUSAL.finditer(t):
        sent = next(((a, b) for a, b in _clauses(t) if a <= m.start() < b), (0, len(t)))
        if t[sent[0]:sent[1]].rstrip().endswith("?") and re.search(r"\bor\s+$", t[sent[0]:m.start()]):
            continue  # asked: "Deal or no deal?"
        if not _CONDITION.search(t, sent[0], m.start()):  # "if we can't agree, ..." refuses nothing
            return True
    # a negated cue in the past ("the last deal didn't work for me") or under a condition
    # ("if I took 5, ... which doesn't seem fair") refuses nothing now
    for s, _e, neg, past in _cues(t):
        sent = next(((a, b) for a, b in _clauses(t) if a <= s < b), (0, len(t)))
        if neg and not past and not _CONDITION.search(t, sent[0], s):
            return True
    return False


# the answers depend on the text alone: each distinct text is read once
_accepts_kept = functools.lru_cache(maxsize=4096)(_accepts)
_rejects_kept = functools.lru_cache(maxsize=4096)(_rejects)
