"""The human seat of ``negotiation-env play`` and how a played game is summed up.

A human at the terminal is told, in one line before each prompt, which phase it answers
(:func:`phase_line`, read from the game's info), may type the short forms a person types
(:func:`short_form`: ``A``, ``buy 3 r1 2 r2``, ``counter 2 because ...``), and is asked
again after an answer the game would refuse, with the game's own message
(:meth:`~negotiation_env.core.game.Game.check_answer`), so a typo never becomes a
fallback. ``--human-retries N`` bounds that: after N refused answers to one prompt the
answer goes to the game as it stands and the game's own rule for an invalid answer
applies (its ``max_retries`` re-prompts, then its fallback), as for any seat.
:func:`ending` says why a game ended and whether an error ended it.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from rich.console import Console

__all__ = ["HumanSeat", "read_answer", "phase_line", "short_form", "ending", "PlayHooks", "PlayFlag", "play_hooks",
           "Control", "ControlField", "controls", "ShortFormError", "HUMAN", "seat_info"]

#: the seat spec of a person (``play --seat AGENT=human``, a session file's ``human``)
HUMAN = "human"


def _complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def read_answer(stream) -> str:
    """One answer from ``stream`` (see :class:`HumanSeat`); EOFError when it is closed
    before any answer."""
    line = stream.readline()
    if line == "":
        raise EOFError("stdin closed")
    first = line.rstrip("\r\n")
    opens_json = first.lstrip().startswith("{")
    if first.strip() and not (opens_json and not _complete_json(first)):
        return first
    lines = [first] if first.strip() else []
    while True:
        line = stream.readline()
        text = line.rstrip("\r\n")
        if line == "" or not text.strip():
            break
        lines.append(text)
        if lines[0].lstrip().startswith("{") and _complete_json("\n".join(lines)):
            break
    return "\n".join(lines)


# --------------------------------------------------------------------------- phase lines


def _other(game, agent: str) -> str:
    others = [a for a in game.possible_agents if a != agent]
    return others[0] if len(others) == 1 else "the other parties"


def _resource_example(game) -> str:
    names = list(game.names.display.values())
    pairs = " ".join(f"{n} {name}" for n, name in zip((3, 2), names))
    return f"buy {pairs}, buy nothing, {', '.join(f'{n} {name}' for n, name in zip((3, 2), names))}"


def phase_line(game_name: str, game, agent: str) -> str:
    """What ``agent`` is asked for now, in one line, with the short forms it may type."""
    hooks = _hooks(game_name)
    if hooks is None:
        return f"{game.info(agent).get('phase')}: your answer"
    return hooks.phase_line(game, agent)


def _matrix_phase_line(game, agent: str) -> str:
    info = game.info(agent)
    phase = info.get("phase")
    r = info["round"]
    if phase == "acknowledge":
        return "acknowledge the rules (type OK; the answer is not scored)"
    if phase == "message":
        return f"round {r}, cheap talk: send one short message to {_other(game, agent)} (plain text)"
    # the number of rounds is never told to the agents (MatrixConfig.num_rounds)
    return f"round {r}: choose A or B (type A, b or option A)"


def _resource_phase_line(game, agent: str) -> str:
    info = game.info(agent)
    phase = info.get("phase")
    cfg = game.config
    r, n = info["round"], cfg.num_rounds
    if phase == "talk":
        used = game._states[agent].turns_used + 1
        limit = cfg.cheap_talk_turns
        turn = f"turn {used} of {limit}" if limit else f"turn {used}"
        return (f"round {r} of {n}, cheap talk, {turn}: say something to {_other(game, agent)} "
                f"(plain text; or end the talk with a purchase: {_resource_example(game).split(',')[0]})")
    if phase == "decision":
        return f"round {r} of {n}: decide what to buy (e.g. {_resource_example(game)})"
    if phase == "reflection":
        return "the game is over: reflect on it in 2-4 sentences (plain text)"
    return f"{phase}: your answer"


def _rulemaking_phase_line(game, agent: str) -> str:
    from .games.rulemaking.rules import MOVES

    info = game.info(agent)
    issues = ", ".join(f"{k} {i.id}" for k, i in enumerate(game.scenario.issues, 1))
    return (f"turn {info['turn']} of {game.config.max_turns}: your move (e.g. counter 2 because ..., "
            f"support because ...; moves {', '.join(m.lower() for m in MOVES)}; issues {issues})")


# --------------------------------------------------------------------------- short forms


class ShortFormError(ValueError):
    """A short form that cannot be read; the message says how to write it."""


_MATRIX_ACTION = re.compile(r"(?:option\s+)?([ab])[.!]?", re.IGNORECASE)
_NOTHING = re.compile(r"(?:buy\s+)?(?:nothing|none|0)[.!]?", re.IGNORECASE)
_PAIR = re.compile(r"(\d+)\s*(?:x\s+|\*\s*)?([^\W\d][^\s,;]*)")


def _purchase(text: str, game) -> dict[str, int] | None:
    """``buy 3 r1 2 r2`` / ``3 r1, 2 r2`` / ``buy nothing`` as a purchase object in the
    game's display names (a resource id is taken for its name); None when the text is not
    such a list."""
    if _NOTHING.fullmatch(text.strip()):
        return {}
    body = re.sub(r"^\s*buy\s+", "", text, flags=re.IGNORECASE)
    body = re.sub(r"\band\b", ",", body, flags=re.IGNORECASE)
    rest = _PAIR.sub("", body)
    if rest.strip(" ,;.") or not _PAIR.search(body):
        return None
    display = game.names.display
    by_lower = {**{rid.lower(): name for rid, name in display.items()},
                **{name.lower(): name for name in display.values()}}
    out: dict[str, int] = {}
    for qty, name in _PAIR.findall(body):
        key = by_lower.get(name.lower(), name)  # an unknown name is left to the game's validator
        if key in out:
            raise ShortFormError(f"resource {name!r} given twice")
        out[key] = int(qty)
    return out


def _resource(text: str, game, phase: str) -> str:
    stripped = text.strip()
    if stripped.startswith("{") or phase == "reflection":
        return text
    thinking = game.config.thinking
    purchase = _purchase(stripped, game)
    if phase == "talk" and (purchase is None or not re.match(r"\s*buy\b", stripped, re.IGNORECASE)):
        # plain text is what the agent says (a purchase ends the talk only when it opens with "buy")
        return json.dumps({"thinking": "", "speech": text, "action": None}) if thinking else text
    if purchase is None:
        names = list(game.names.display.values())
        raise ShortFormError(f"not a purchase: write {_resource_example(game)} (resources: {', '.join(names)}), "
                             "or the JSON answer")
    if not thinking:
        return json.dumps(purchase)
    return json.dumps({"thinking": "", "speech": stripped, "action": purchase})


def _rulemaking(text: str, game) -> str:
    from .games.rulemaking.rules import MOVES

    stripped = text.strip()
    if not stripped or stripped.startswith("{"):
        return text
    word, _, rest = stripped.partition(" ")
    word = word.rstrip(":,.").lower()
    moves = [m for m in MOVES if m.lower().startswith(word)]
    if len(moves) != 1:
        said = "matches " + ", ".join(moves) if moves else "is no move"
        raise ShortFormError(f"{word!r} {said}: start with a move ({', '.join(m.lower() for m in MOVES)}; a "
                             "unique first part is enough), then optionally an issue (its number or id), then "
                             "the rationale")
    issue = None
    issues = game.scenario.issues
    first, _, after = rest.strip().partition(" ")
    token = first.rstrip(":,.").lower()
    if token:
        if token.isdigit() and 1 <= int(token) <= len(issues):
            issue = issues[int(token) - 1].id
        else:
            hits = [i.id for i in issues if i.id.lower() == token] or \
                   [i.id for i in issues if len(token) >= 3 and i.id.lower().startswith(token)]
            if len(hits) == 1:
                issue = hits[0]
        if issue is not None:
            rest = after
    rationale = re.sub(r"^\s*(?:because\b|[:\-\u2014])\s*", "", rest.strip(), flags=re.IGNORECASE)
    return json.dumps({"move": moves[0], "issue": issue, "rationale": rationale})


def short_form(game_name: str, game, agent: str, text: str) -> str:
    """``text`` as the game's answer format where it is a short form a person types
    (module docstring); anything else is returned unchanged, for the game's parser to
    judge. Raises ShortFormError for a short form that cannot be read."""
    hooks = _hooks(game_name)
    return text if hooks is None else hooks.short_form(game, agent, text)


def _matrix_short_form(game, agent: str, text: str) -> str:
    m = _MATRIX_ACTION.fullmatch(text.strip())
    return m.group(1).upper() if game.info(agent).get("phase") == "action" and m else text


def _resource_short_form(game, agent: str, text: str) -> str:
    return _resource(text, game, game.info(agent).get("phase"))


def _rulemaking_short_form(game, agent: str, text: str) -> str:
    return _rulemaking(text, game)


# --------------------------------------------------------------------------- the seat


class HumanSeat:
    """A seat played from the terminal: shows what the env tells the seat that it has not
    shown yet (the system prompt first, then each new prompt), names the phase it answers
    (:func:`phase_line`) and reads the answer from stdin. A short form is turned into the
    game's answer format (:func:`short_form`); an answer the game would refuse is
    explained with the game's own message and asked again (``retries``: None, as often as
    needed; N: after N refused answers to one prompt the answer goes to the game as it
    stands, and the game's own rule for an invalid answer applies).

    An answer is one line, unless that line is empty or opens a JSON object that is not
    complete yet: then lines are read until the object is complete or a blank line comes
    (paste a pretty-printed JSON answer, or start with an empty line to type several)."""

    def __init__(self, console: Console, retries: int | None = None):
        self.console = console
        self.retries = retries
        self.game = None
        self.game_name = ""
        self.agent = ""
        self._seen: list[dict] = []
        self._refused: tuple[str, int] = ("", 0)  # (phase line, refused answers to it)

    def bind(self, game_name: str, game, agent: str) -> None:
        """The game this seat plays (its ``env.unwrapped.game``) and its seat."""
        self.game_name, self.game, self.agent = game_name, game, agent

    def _print(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)  # lines as they are

    def act(self, observation) -> str:
        conversation = [dict(m) for m in observation.get("conversation") or ()]
        k = len(self._seen)
        new = conversation[k:] if conversation[:k] == self._seen else conversation
        shown = [m for m in new if m.get("role") != "assistant"]
        if not shown or shown[-1].get("content") != observation["prompt"]:
            shown.append({"role": "user", "content": observation["prompt"]})
        self._seen = conversation
        for m in shown:
            self._print(f"\n[{m.get('role', 'user')}]\n{m.get('content', '')}")
        if self.game is None:  # not bound: the text goes to the game as typed
            self.console.print("your answer> ", end="", markup=False, highlight=False)
            return read_answer(sys.stdin)
        line = phase_line(self.game_name, self.game, self.agent)
        self._print(f"\n>>> {self.agent}, {line}")
        while True:
            self.console.print("your answer> ", end="", markup=False, highlight=False)
            text = read_answer(sys.stdin)
            try:
                answer = short_form(self.game_name, self.game, self.agent, text)
                problem = self.game.check_answer(self.agent, answer)
            except ShortFormError as e:
                answer, problem = text, str(e)
            if problem is None:
                return answer
            seen, n = self._refused
            n = n + 1 if seen == line else 1
            self._refused = (line, n)
            if self.retries is not None and n > self.retries:
                self._print(f"not accepted: {problem} (--human-retries {self.retries} used up: the game's "
                            "own rule for an invalid answer applies)")
                return answer
            self._print(f"not accepted: {problem}\n>>> try again: {line}")


# --------------------------------------------------------------------------- how it ended


def _all(n: int, what: str) -> str:
    return f"its one {what}" if n == 1 else f"all {n} {what}s"


def ending(game_name: str, game) -> tuple[str, bool]:
    """(why the game ended, in one sentence; whether an error ended it)."""
    hooks = _hooks(game_name)
    return ("the game is over", False) if hooks is None else hooks.ending(game)


def _matrix_ending(game) -> tuple[str, bool]:
    n = game.config.num_rounds
    played = len(game.outcomes)
    if game.ended_by_error:
        last = game.outcomes[-1]
        who = "; ".join(f"{a} ({', '.join(phases)})" for a, phases in last["fallbacks"].items() if phases)
        return (f"ended after round {played} of {n}: an invalid answer got the default (fallback: {who}), "
                f"and on_error='{game.config.on_error}' ends the dyad after it", True)
    return f"played {_all(n, 'round')}", False


def _resource_ending(game) -> tuple[str, bool]:
    n = game.config.num_rounds
    fallbacks = [f"round {r} {a} ({s})" for r, fb in enumerate(game.history_fallbacks, 1) for a, s in fb.items()]
    tail = f" (fallback decisions: {'; '.join(fallbacks)})" if fallbacks else ""
    return f"played {_all(n, 'round')}{tail}", False


def _rulemaking_ending(game) -> tuple[str, bool]:
    o, cfg = game.outcome or {}, game.config
    turns, label, reason = o.get("turns", 0), o.get("label"), o.get("end_reason")
    if reason == "agreement":
        return (f"ended at turn {turns} of {cfg.max_turns}: the parties reached agreement ({label}), "
                f"which ends the game early (early_end='{cfg.early_end}')", False)
    if reason == "exits":
        return (f"ended at turn {turns} of {cfg.max_turns}: fewer than two parties left "
                f"(exited: {', '.join(o.get('exited') or [])}; outcome {label})", False)
    return f"played {_all(cfg.max_turns, 'turn')} (outcome {label})", False


# --------------------------------------------------------------------------- the result table


def _resource_result(game, seats: Mapping[str, str], totals: Mapping[str, float], events: int):
    title = f"{seats['agent_a']} (agent_a) vs {seats['agent_b']} (agent_b) on {game.scenario.name}"
    columns, justify = ["round", "agent_a", "agent_b", "joint / M", "outcome"], ["left"] + ["right"] * 3 + ["left"]
    rows = []
    for i in range(len(game.history)):
        o = game.round_outcome(i)
        kind = "overdraw" if o["overdraw"] else ("optimal" if o["optimal"] else "suboptimal")
        rows.append([str(i + 1), f"{o['rewards']['agent_a']:g}", f"{o['rewards']['agent_b']:g}",
                     f"{o['joint_reward']:g} / {o['joint_max']:g}", kind])
    rows.append(["total", f"{totals['agent_a']:g}", f"{totals['agent_b']:g}", "", f"{events} events"])
    return title, columns, justify, rows


# --------------------------------------------------------------------------- structured controls


@dataclass(frozen=True)
class ControlField:
    """One input of a :class:`Control`: a choice among ``options``, a whole number in
    [``minimum``, ``maximum``] or free text."""

    name: str
    label: str
    #: ``"choice"``, ``"int"`` or ``"text"``
    kind: str
    options: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind, "options": list(self.options),
                "min": self.minimum, "max": self.maximum}


@dataclass(frozen=True)
class Control:
    """A structured way to give the answer a seat is asked for now (beside free text):
    its fields, and ``compose``, which turns the field values (text, as a form sends
    them) into the answer text, a short form or the game's JSON, which is then judged
    like a typed answer (:func:`short_form`, then ``Game.check_answer``). ``compose``
    raises :class:`ShortFormError` for values it cannot read."""

    title: str
    fields: tuple[ControlField, ...]
    compose: Callable[[Mapping[str, str]], str]

    def describe(self) -> dict[str, Any]:
        """The control as JSON (what a web page renders)."""
        return {"title": self.title, "fields": [f.describe() for f in self.fields]}

    def answer(self, values: Mapping[str, Any]) -> str:
        """The answer text of ``values`` (one text per field; a missing field is empty)."""
        if not isinstance(values, Mapping):
            raise ShortFormError("the control's values must be an object of field name -> value")
        known = {f.name for f in self.fields}
        unknown = sorted(str(k) for k in values if k not in known)
        if unknown:
            raise ShortFormError(f"unknown control field(s) {', '.join(unknown)}; the fields: {', '.join(sorted(known))}")
        texts: dict[str, str] = {}
        for f in self.fields:
            v = values.get(f.name, "")
            v = "" if v is None else str(v).strip()
            if f.kind == "choice" and v and v not in f.options:
                raise ShortFormError(f"{f.label}: {v!r} is not one of {', '.join(f.options)}")
            if f.kind == "int" and v:
                if not re.fullmatch(r"\d{1,9}", v):
                    raise ShortFormError(f"{f.label}: expected a whole number >= 0, got {v!r}")
                n = int(v)
                if (f.minimum is not None and n < f.minimum) or (f.maximum is not None and n > f.maximum):
                    raise ShortFormError(f"{f.label}: {n} is outside {f.minimum}..{f.maximum}")
            texts[f.name] = v
        return self.compose(texts)


def controls(game_name: str, game, agent: str) -> Control | None:
    """The structured control for what ``agent`` is asked now, or None where the game
    has none for this phase (free text only)."""
    hooks = _hooks(game_name)
    return None if hooks is None or hooks.controls is None else hooks.controls(game, agent)


def _int(texts: Mapping[str, str], name: str) -> int:
    return int(texts.get(name) or 0)


def _matrix_controls(game, agent: str) -> Control | None:
    phase = game.info(agent).get("phase")
    if phase == "action":
        return Control("your choice", (ControlField("action", "option", "choice", ("A", "B")),),
                       lambda t: t["action"])
    if phase == "acknowledge":
        return Control("acknowledge the rules", (ControlField("ok", "acknowledge", "choice", ("OK",)),),
                       lambda t: t["ok"])
    return None


def _resource_controls(game, agent: str) -> Control | None:
    phase = game.info(agent).get("phase")
    if phase not in ("talk", "decision"):
        return None
    display = game.names.display
    fields = tuple(ControlField(rid, name, "int", minimum=0) for rid, name in display.items())

    def compose(texts: Mapping[str, str]) -> str:
        pairs = " ".join(f"{_int(texts, rid)} {rid}" for rid in display if _int(texts, rid))
        return f"buy {pairs}" if pairs else "buy nothing"

    title = "purchase (ends the talk)" if phase == "talk" else "purchase"
    return Control(title, fields, compose)


def _rulemaking_controls(game, agent: str) -> Control | None:
    from .games.rulemaking.rules import MOVES

    issues = tuple(i.id for i in game.scenario.issues)
    fields = (ControlField("move", "move", "choice", tuple(MOVES)),
              ControlField("issue", "issue (optional)", "choice", issues),
              ControlField("rationale", "rationale", "text"))

    def compose(texts: Mapping[str, str]) -> str:
        if not texts["move"]:
            raise ShortFormError("choose a move")
        return json.dumps({"move": texts["move"], "issue": texts["issue"] or None, "rationale": texts["rationale"]})

    return Control("your move", fields, compose)


# --------------------------------------------------------------------------- seats in a trace


def seat_info(text: str, policy: Any, seed: int | None, options: Mapping[str, Any] | None = None):
    """The trace's description of the seat given ``text`` (a scripted name, a runner
    spec or :data:`HUMAN`) and played by ``policy``: the same for a terminal and a
    served game, so their traces agree. A person's seat has spec and label ``human``
    and no settings or seed."""
    from .traces.recorder import describe_policy

    if text == HUMAN:
        return describe_policy(None, spec=HUMAN, label=HUMAN)
    spec = text if ":" in text else f"scripted:{text}"
    info = describe_policy(policy, spec=spec, label=text, seed=seed)
    if options is not None:
        info.settings = {"options": dict(options), **info.settings}
    return info


# --------------------------------------------------------------------------- each game's hooks


@dataclass(frozen=True)
class PlayFlag:
    """A ``negotiation-env play`` flag of one game that sets one config field (beside
    ``--set FIELD=VALUE``, which sets any). Its help on the command line is prefixed with
    the game's name; the flag given while another game is played is refused."""

    #: the flag, e.g. ``"--rounds"``
    flag: str
    #: the config field it sets
    field: str
    #: what it sets, for ``--help`` (the game's name is put before it)
    help: str
    #: the argparse type of its value
    type: Callable[[str], Any] = str
    #: the value the field gets where neither the flag nor ``--set`` gives one (None: the
    #: config's own default)
    default: Any = None
    #: the given value -> the config value (None: as given)
    convert: Callable[[Any], Any] | None = None

    @property
    def dest(self) -> str:
        """The argparse attribute the flag's value lands in."""
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class PlayHooks:
    """A game's human-seat hooks: its ``play`` part in the game registry
    (:mod:`negotiation_env.core.registry`)."""

    #: (game, agent) -> what the agent is asked for now, in one line
    phase_line: Callable[[Any, str], str]
    #: (game, agent, text) -> the text in the game's answer format
    short_form: Callable[[Any, str, str], str]
    #: game -> (why it ended, whether an error ended it)
    ending: Callable[[Any], tuple[str, bool]]
    #: the game's own ``play`` flags, each setting one config field
    config_flags: tuple[PlayFlag, ...] = ()
    #: (game, seat label by agent, total reward by agent, events) -> (title, columns,
    #: justification per column, rows) of the table printed after the game; None: one row
    #: per seat with its policy and total reward
    result_table: Callable[[Any, Mapping[str, str], Mapping[str, float], int],
                           tuple[str, list[str], list[str], list[list[str]]]] | None = None
    #: (game, agent) -> the structured :class:`Control` for what the agent is asked now,
    #: or None (free text only); None: the game has no controls
    controls: Callable[[Any, str], Control | None] | None = None


def play_hooks(game_name: str) -> PlayHooks | None:
    """The play hooks of the game ``game_name`` (its spec's ``play`` part), or None."""
    from .core import registry

    spec = registry.find(game_name)
    return spec.part("play") if spec is not None and spec.has("play") else None


_hooks = play_hooks


def _theme(value: str) -> str | None:
    return None if value == "none" else value


MATRIX = PlayHooks(_matrix_phase_line, _matrix_short_form, _matrix_ending, controls=_matrix_controls)
RESOURCE = PlayHooks(
    _resource_phase_line, _resource_short_form, _resource_ending,
    config_flags=(PlayFlag("--scenario", "scenario", "shipped scenario name or JSON path (default mc080_1)",
                           default="mc080_1"),
                  PlayFlag("--rounds", "num_rounds", "rounds (default 4)", type=int, default=4),
                  PlayFlag("--turns", "cheap_talk_turns", "cheap-talk turns per agent (default 5; 0: unlimited)",
                           type=int, default=5),
                  PlayFlag("--theme", "theme", "theme name, 'random' or 'none' (default: random)", convert=_theme)),
    result_table=_resource_result, controls=_resource_controls)
RULEMAKING = PlayHooks(_rulemaking_phase_line, _rulemaking_short_form, _rulemaking_ending,
                       controls=_rulemaking_controls)
