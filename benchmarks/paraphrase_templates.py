"""Paraphrase templates for the scripted negotiators' speech, and the wrapper policy that
speaks them (``benchmarks/paraphrase.py`` plays the default cohort with it).

The scripted agents talk in the mini-grammar of :mod:`baselines.scripted.grammar`, one
fixed sentence per act. Chat models say the same things in many ways; these templates
say each act the way models of several families tend to: questions and suggestions,
speaker's share first or the listener's first, "Me: ... You: ...", markdown bullets and
bold, number words for small numbers, "+" between resources, "$" before a reward,
typographic apostrophes and dashes. They were written from how the messages read, not
from any reader of them, and each one keeps the act's meaning exactly: the same
quantities, the same share to the same party, the same acceptance or refusal.

Kinds (``KINDS``), each with at least ten templates:

========== ===============================================================================
kind       what it says and the fields its templates fill (``str.format``)
========== ===============================================================================
Propose    a split of the pool, the listener's share and the speaker's: ``{you}`` / ``{me}``
           as "5 copper and 3 lithium"; ``_w`` number words ("five copper and three
           lithium"), ``_plus`` "5 copper + 3 lithium", ``_comma`` "5 copper, 3 lithium",
           ``_units`` "5 units of copper and 3 units of lithium", ``_rev`` the resources in
           the other order; an empty share is "nothing"
Accept     accepts the partner's latest proposal (no fields)
Reject     turns the partner's latest proposal down (no fields)
Disclose   one of the speaker's projects: ``{project}`` ("project_a"), ``{Project}``
           ("Project A"), its per-run requirements ``{req}``, ``{req_w}``, ``{req_plus}``,
           ``{req_comma}``, ``{req_units}``, and its reward per run ``{reward}`` ("17", "12.5")
Need       a requirement without the reward: ``{units}`` / ``{units_w}`` of ``{resource}``
           for ``{project}`` / ``{Project}``
Ask        asks the partner for its projects (no fields)
stock      the agents' fixed sentences (``STOCK``: the phrase -> its paraphrases), e.g.
           "Let's keep talking." and "Here is my decision."
========== ===============================================================================

The templates of a message's acts are drawn with a numpy Generator (one per game and
seat, see :func:`paraphrased`); the pieces are joined with a space, or a line break
around a piece that spans lines (bullets), never a blank line.

The wrapper (:class:`ParaphrasingPolicy`) lets the scripted agent decide exactly as it
would: the agent reads its own earlier messages as it said them (the paraphrases in its
history are put back to its own words before it acts), and only its partner reads the
paraphrase. With ``restore_partner=True`` (the invariance check of the tests) it also
puts the partner's paraphrases back, so a run must then play exactly as the original.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Iterable, Mapping

import numpy as np

from baselines.scripted import grammar as G

__all__ = ["KINDS", "TEMPLATES", "STOCK", "COUNTS", "kind_of", "fields_of", "render_template", "paraphrase_piece",
           "paraphrase_pieces", "ParaphrasingPolicy", "paraphrased", "number_word"]

# --------------------------------------------------------------------------- templates

PROPOSE = (
    "How about you take {you} and I will take {me}?",
    "{you} for you, {me} for me \u2014 does that work?",
    "Me: {me_comma}. You: {you_comma}.",
    "I'd take {me}; you'd get {you}.",
    "You take {you_w} and I\u2019ll take {me_w}.",
    "Here's what I suggest:\n- You: {you_plus}\n- Me: {me_plus}",
    "What if I get {me_units}, and you get {you_units}?",
    "Let\u2019s split it this way: {you_w} to you, {me_w} to me.",
    "My offer: **you** get {you}, **I** get {me}.",
    "Proposal \u2014 I keep {me_plus}, and you receive {you_plus}.",
    "Would you be OK with {you_rev} going to you while I take {me_rev}?",
    "To make this work for both of us, I suggest {me_w} for me and {you_w} for you.",
)

ACCEPT = (
    "Sounds good to me.",
    "I can work with that.",
    "You've got yourself a deal!",
    "That works for me \u2014 let's do it.",
    "Yes, I accept your proposal.",
    "Perfect, I\u2019m on board with that split.",
    "OK, let's go with your split.",
    "Great, we have an agreement.",
    "Happy with that. Let's lock it in.",
    "Yep, that split is fine with me.",
    "Works for me, thanks!",
)

REJECT = (
    "Unfortunately that doesn't work for me.",
    "I\u2019m afraid I can\u2019t agree to that split.",
    "That won't work on my end.",
    "Sorry, I have to pass on that one.",
    "No, that split doesn't work for me.",
    "I'll have to decline that offer.",
    "That isn't acceptable to me, unfortunately.",
    "I don't think I can go along with that.",
    "Hmm, that doesn\u2019t quite work for me.",
    "Thanks, but I'm going to say no to that proposal.",
    "I'd rather not take that deal.",
)

DISCLOSE = (
    "{Project} requires {req_plus} (reward: ${reward}/run).",
    "- **{project}**: {req_comma} per run, pays {reward}",
    "For {project} I need {req} for each run; it pays {reward}.",
    "Each run of my {Project} uses {req_w} and earns ${reward}.",
    "{project}: needs {req_plus} per run, reward {reward}.",
    "I\u2019m working on {project}, which takes {req} per run and pays out {reward}.",
    "My {Project} pays {reward} per run and needs {req} each time.",
    "One run of {project} costs me {req_units} and brings in {reward}.",
    "{Project} (worth {reward} per run) needs {req_w} for every run.",
    "On my side there's {project}: {reward} per run, requiring {req} per run.",
    "I have {Project}, which needs {req_w} per run and rewards me {reward} per run.",
)

NEED = (
    "For {Project} I need {units} {resource}.",
    "I\u2019d need {units_w} {resource} to run {project}.",
    "{Project} takes {units} {resource} on my end.",
    "I'm going to need {units} units of {resource} for {project}.",
    "To run {project} I need {units_w} {resource}.",
    "My {Project} needs {units} {resource}.",
    "- {project}: {units} {resource} needed",
    "Getting {units} {resource} matters for me \u2014 that's what {project} needs.",
    "I require {units_w} {resource} for {Project}.",
    "{units} {resource} is what I need for {project}.",
)

ASK = (
    "What projects are you working on?",
    "Could you tell me about your projects?",
    "What do your projects need, and what do they pay?",
    "What are you hoping to build this round?",
    "Which projects do you have, and what resources do they require?",
    "Can you share your project requirements and rewards?",
    "What\u2019s on your side \u2014 which projects, and how much do they need?",
    "Tell me about your projects: what does each one need per run?",
    "What are you trying to run this round?",
    "Mind sharing what your projects require?",
    "And you? What are your projects like?",
)

#: the agents' fixed sentences (``baselines/scripted/negotiators.py``) -> their paraphrases
STOCK: dict[str, tuple[str, ...]] = {
    "Let's keep talking.": (
        "Let's keep the conversation going.",
        "Let\u2019s keep talking this through.",
        "I'd like to keep discussing.",
        "Let's talk a bit more.",
        "Can we keep negotiating?",
        "Let's continue the discussion.",
        "I'm not ready to decide yet \u2014 let's keep going.",
        "Let's chat a little longer before deciding.",
        "I think we should keep talking.",
        "No decision from me yet; let's talk more.",
    ),
    "Here is my decision.": (
        "Here\u2019s my decision.",
        "This is my final call.",
        "I'm making my decision now.",
        "Okay, I'm submitting my choice.",
        "Here's what I'm going with.",
        "That's my decision.",
        "I've decided \u2014 here it is.",
        "My decision is in.",
        "Alright, I'm locking in my purchase.",
        "Decision time: here's mine.",
    ),
    "I'll go with my own best plan. Good luck!": (
        "I'm just going to buy what's best for my own projects. Good luck!",
        "I'll stick with my own optimal plan \u2014 good luck!",
        "I'm going with my best plan on my own. Best of luck!",
        "I\u2019ll just do what\u2019s best for my projects. Good luck to you!",
        "I'm sticking to my own plan. Good luck!",
        "Going with my individual best plan here. Good luck!",
        "I'll pursue my own best option. Good luck!",
        "My plan: buy what's best for me. Good luck with yours!",
        "I'm doing my own thing this round \u2014 the best plan for me. Good luck!",
        "I'll take my own best route. Good luck!",
    ),
    "Hello! What are you planning to buy this round?": (
        "Hi there! What are you looking to buy this round?",
        "Hey! What's your shopping list for this round?",
        "Hello \u2014 what do you plan to purchase this round?",
        "Hi! Which resources are you going to buy this time?",
        "Good to meet you! What are you aiming to buy this round?",
        "Hello! What's your plan for purchases this round?",
        "Hey there, what are you buying this round?",
        "Hi! What do you want to pick up this round?",
        "Hello! Tell me what you intend to buy this round.",
        "Hi \u2014 what\u2019s on your list to buy this round?",
    ),
    "I'm flexible. Which resources matter most to you?": (
        "I'm open to options. Which resources are most important to you?",
        "I can be flexible \u2014 what resources do you care about most?",
        "No strong preferences here. Which resources matter to you?",
        "I\u2019m easy. Which resources are your priority?",
        "I'm flexible on my end. What resources do you value most?",
        "I can adapt. Which resources do you need most?",
        "Flexible here! Which resources are top of your list?",
        "I'm willing to bend. What resources matter the most to you?",
        "I don't mind much. Which resources are key for you?",
        "Happy to be flexible \u2014 which resources count most for you?",
    ),
    "Let's avoid overdrawing the pool.": (
        "Let's make sure we don't overdraw the pool.",
        "We should be careful not to take more than the pool has.",
        "Let\u2019s not overdraw the shared pool.",
        "It would be good to stay within the pool's supply.",
        "Let's keep our combined purchases within the supply.",
        "We should avoid asking for more than is available.",
        "Let's not exceed what the pool holds.",
        "Can we make sure our purchases don't overdraw the pool?",
        "I'd like us to avoid overdrawing the pool.",
        "Let's stay under the pool's limits together.",
    ),
    "I might need some of the expensive resource.": (
        "I may need a bit of the expensive resource.",
        "I could use some of the pricey resource.",
        "Some of the expensive resource might be necessary for me.",
        "I\u2019ll possibly need some of the most expensive resource.",
        "The expensive resource might matter for me.",
        "I might want some of the costly resource.",
        "Heads up: I may need some of the expensive one.",
        "I could end up needing a little of the expensive resource.",
        "Possibly I'll need some of the expensive resource.",
        "I might have to get some of the expensive resource.",
    ),
}

TEMPLATES: dict[str, tuple[str, ...]] = {
    "Propose": PROPOSE, "Accept": ACCEPT, "Reject": REJECT, "Disclose": DISCLOSE, "Need": NEED, "Ask": ASK,
}
KINDS = (*TEMPLATES, "stock")

#: pieces paraphrased by kind (stock phrases as ``"stock"``), messages paraphrased
#: (``"messages"``) and messages left as they were with the reason (``"left: ..."``),
#: counted in this process; the benchmark clears it before each run and plays serially
COUNTS: Counter = Counter()

# --------------------------------------------------------------------------- fields

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def number_word(n: int) -> str:
    """A small count in words ("three"); 13 and above in digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _items(units: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    return [(str(n), int(q)) for n, q in units if int(q) > 0]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _share_fields(prefix: str, units: Iterable[tuple[str, int]]) -> dict[str, str]:
    items = _items(units)
    if not items:
        return {f"{prefix}{s}": "nothing" for s in ("", "_w", "_plus", "_comma", "_units", "_rev")}
    digits = [f"{q} {n}" for n, q in items]
    return {
        prefix: _and(digits),
        f"{prefix}_w": _and([f"{number_word(q)} {n}" for n, q in items]),
        f"{prefix}_plus": " + ".join(digits),
        f"{prefix}_comma": ", ".join(digits),
        f"{prefix}_units": _and([f"{q} unit{'s' if q != 1 else ''} of {n}" for n, q in items]),
        f"{prefix}_rev": _and(digits[::-1]),
    }


def _pretty(project: str) -> str:
    """``project_a`` -> ``Project A``; other names stay as they are."""
    m = re.fullmatch(r"project_([a-z0-9]+)", project)
    return f"Project {m.group(1).upper()}" if m else project


def _num(x: float) -> str:
    x = float(x)
    return str(int(x)) if x.is_integer() else f"{x:g}"


def kind_of(piece: Any) -> str:
    """The template kind of one piece of a message: an act's class name, or ``"stock"``."""
    if isinstance(piece, str):
        return "stock"
    name = type(piece).__name__
    if name not in TEMPLATES:
        raise TypeError(f"not an act: {piece!r}")
    return name


def fields_of(act: Any) -> dict[str, str]:
    """The ``str.format`` fields of an act's templates."""
    if isinstance(act, G.Propose):
        return {**_share_fields("you", act.you), **_share_fields("me", act.me)}
    if isinstance(act, G.Disclose):
        req = _share_fields("req", act.requires)
        return {"project": act.project, "Project": _pretty(act.project), "reward": _num(act.reward), **req}
    if isinstance(act, G.Need):
        return {"units": str(int(act.units)), "units_w": number_word(int(act.units)), "resource": act.resource,
                "project": act.project, "Project": _pretty(act.project)}
    return {}


def render_template(template: str, act: Any) -> str:
    """``template`` filled with the act's fields; a sentence that opens with a field gets
    a capital letter, unless it opens with an identifier such as ``project_a``."""
    text = template.format(**fields_of(act))
    first = text.split(" ", 1)[0]
    return text if "_" in first else text[:1].upper() + text[1:]


def paraphrase_piece(piece: Any, rng: np.random.Generator) -> str | None:
    """One act or stock phrase said with a template drawn by ``rng``; None for a phrase
    that has no templates (left as it is)."""
    kind = kind_of(piece)
    options = STOCK.get(piece) if kind == "stock" else TEMPLATES[kind]
    if not options:
        return None
    template = options[int(rng.integers(len(options)))]
    return template if kind == "stock" else render_template(template, piece)


def _join(parts: list[str]) -> str:
    out = parts[0]
    for prev, part in zip(parts, parts[1:]):
        out += ("\n" if "\n" in prev or "\n" in part else " ") + part
    return out


def paraphrase_pieces(pieces: list[Any], rng: np.random.Generator, counts: Counter | None = None) -> str | None:
    """A message's pieces (acts and stock phrases, in order) said with templates; None
    when a piece has no templates (the message is then left as it is)."""
    parts = []
    for piece in pieces:
        text = paraphrase_piece(piece, rng)
        if text is None:
            return None
        parts.append(text)
    if counts is not None:
        counts.update(kind_of(p) for p in pieces)
    return _join(parts)


# --------------------------------------------------------------------------- the wrapper

_SAID = 'The other party said: "'
#: paraphrase -> the original words, shared by the wrappers of this process when they put
#: the partner's words back (``restore_partner=True``)
_DELIVERED: dict[str, str] = {}


def _said(acts: list[Any]) -> str:
    return " ".join(a if isinstance(a, str) else G.render(a) for a in acts)


class ParaphrasingPolicy:
    """A scripted resource negotiator whose outgoing speech is paraphrased.

    The inner agent acts on the observation with its own earlier words put back in its
    history (so it decides exactly as it would have), and says what it says; the wrapper
    then rewrites only the speech of that answer (the structured action's ``message``, the
    JSON answer's ``"speech"`` or a plain-text answer), from the acts the agent reports in
    ``last_acts``; the private thinking and the decision are untouched. A message that
    does not match what the acts render, or holds a phrase without templates, is left as
    it is (counted under ``"left: ..."`` in :data:`COUNTS`)."""

    def __init__(self, inner: Any, rng: np.random.Generator, *, restore_partner: bool = False,
                 counts: Counter | None = None):
        self.inner = inner
        self.rng = rng
        self.restore_partner = bool(restore_partner)
        self.counts = COUNTS if counts is None else counts
        self.name = f"paraphrased {getattr(inner, 'name', type(inner).__name__)}"
        self.seed = getattr(inner, "seed", None)
        self._own: dict[str, str] = {}  # an answer as the history keeps it -> the inner agent's answer
        self._speech: dict[str, str] = {}  # paraphrased speech -> the inner agent's speech

    def settings(self) -> dict[str, Any]:
        inner = getattr(self.inner, "settings", None)
        base = dict(inner()) if callable(inner) else {
            k: v for k, v in vars(self.inner).items()
            if not k.startswith("_") and isinstance(v, (str, int, float, bool, type(None)))}
        return {**base, "paraphrased": True, "restore_partner": self.restore_partner}

    # -- history ------------------------------------------------------------------
    def _own_content(self, content: str) -> str:
        if content in self._own:
            return self._own[content]
        if content in self._speech:  # thinking off: plain speech
            return self._speech[content]
        try:
            obj = json.loads(content)
        except ValueError:
            return content
        if isinstance(obj, dict) and isinstance(obj.get("speech"), str) and obj["speech"] in self._speech:
            return json.dumps({**obj, "speech": self._speech[obj["speech"]]}, ensure_ascii=False)
        return content

    @staticmethod
    def _partner_content(content: str) -> str:
        out, start = [], 0
        while True:
            i = content.find(_SAID, start)
            if i == -1:
                break
            j = content.find('"', i + len(_SAID))
            if j == -1:
                break
            said = content[i + len(_SAID): j]
            out.append(content[start: i + len(_SAID)] + _DELIVERED.get(said, said))
            start = j
        out.append(content[start:])
        return "".join(out)

    def _restored(self, obs: Any) -> Any:
        conv = obs.get("conversation") if isinstance(obs, Mapping) else None
        if not conv or not (self._own or self.restore_partner):
            return obs
        new = []
        for msg in conv:
            role, content = msg.get("role"), msg.get("content")
            if not isinstance(content, str):
                new.append(msg)
            elif role == "assistant" and self._own:
                new.append({**msg, "content": self._own_content(content)})
            elif role == "user" and self.restore_partner:
                new.append({**msg, "content": self._partner_content(content)})
            else:
                new.append(msg)
        return {**obs, "conversation": new}

    # -- speech -------------------------------------------------------------------
    def _paraphrase(self, speech: str) -> str | None:
        acts = getattr(self.inner, "last_acts", None)
        if acts is None or not speech:
            return None
        pieces = list(acts) if acts else [speech]  # no acts: the agent's default sentence
        if acts and _said(acts) != speech:
            self.counts["left: speech is not what the acts render"] += 1
            return None
        text = paraphrase_pieces(pieces, self.rng, self.counts)
        if text is None:
            self.counts["left: a phrase without templates"] += 1
            return None
        self.counts["messages"] += 1
        self._speech[text] = speech
        if self.restore_partner:
            _DELIVERED[text] = speech
        return text

    def act(self, obs: Any) -> Any:
        from negotiation_env.core.spaces import sanitize

        answer = self.inner.act(self._restored(obs))
        if isinstance(answer, dict):
            speech = answer.get("message")
            text = self._paraphrase(speech) if isinstance(speech, str) else None
            return answer if text is None else {**answer, "message": text}
        if not isinstance(answer, str):
            return answer
        try:
            obj = json.loads(answer)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            speech = obj.get("speech")
            text = self._paraphrase(speech) if isinstance(speech, str) else None
            if text is None:
                return answer
            new = json.dumps({**obj, "speech": text}, ensure_ascii=False)
        elif obj is None:  # plain text: all of it is speech
            new = self._paraphrase(answer)
            if new is None:
                return answer
        else:
            return answer
        self._own[sanitize(new)] = sanitize(answer)
        return new


def paraphrased(seed: int | None = None, inner: str = "oracle", paraphrase_seed: int = 0, output: str = "text",
                restore_partner: bool = False) -> ParaphrasingPolicy:
    """The runner's ``python:benchmarks.paraphrase_templates:paraphrased`` factory: the scripted
    policy ``inner`` built as ``baselines.scripted.make(inner, seed=seed, output=output,
    phrasing="fixed")`` (the agent the runner would build for ``scripted:INNER``, speaking
    the grammar's sentences; its decisions do not depend on its wording), wrapped so that its speech
    is paraphrased with templates drawn from ``default_rng([paraphrase_seed, seed])``:
    one Generator per game and seat, since the runner gives each seat of each game its
    own seed."""
    from baselines.scripted import make

    rng = np.random.default_rng([int(paraphrase_seed)] + ([] if seed is None else [int(seed)]))
    # the grammar's sentences, which the templates reword act by act (the agent's own
    # varied wording would be a paraphrase of its own)
    return ParaphrasingPolicy(make(inner, seed=seed, output=output, phrasing="fixed"), rng,
                              restore_partner=restore_partner)
