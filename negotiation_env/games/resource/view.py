"""What a resource-game agent knows, decoded from its observation only.

The numeric features give the environment and the agent's own project table (see
:mod:`negotiation_env.games.resource.features`); the system prompt gives the names (a
RESOURCES RENAMED block, when each round has its own theme, the current ones); the
conversation the env holds gives the dialogue and the result notices, round by round.
Nothing else is read, so a scripted agent under ``partner="shifting"`` loses its history
exactly as an LLM does.

:class:`OwnView` also reads the state of this round's bargaining from the dialogue (the
partner's latest proposal, the agent's own, an agreement, the partner's disclosures):
the scripted negotiators (:mod:`baselines.scripted`) decide on these readings, and the
numeric menu (:mod:`negotiation_env.wrappers.menus.resource`) shows the same readings to
a learner, so both agree on what was said.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from dataclasses import dataclass, field

import numpy as np

from . import grammar
from .features import FeatureLayout
from .grammar import guessed_names as grammar_names
from .prompts import SITUATION_JOINT, SITUATION_JOINT_FAVOURED
from .reader import Reading, read
from .scenario import Scenario

__all__ = ["OwnView", "RoundLog", "restates"]

_RESOURCES = re.compile(r"^- Resources available: (.+)$", re.M)
_PROJECT = re.compile(r"^- (\S+)(?:: requires \[| needs )", re.M)
# the resource game's prompt_style="compact" (prompts.COMPACT_*): "Resources (cost, supply
# per round): r1 $1 x10, r2 $1.5 x10. Budget ...", "--- TALK (round 1/2, ...)", "--- DECISION ---";
# always thinking off
_COMPACT_SYSTEM = "Resources (cost, supply per round): "
_COMPACT_RESOURCES = re.compile(r"^Resources \(cost, supply per round\): (.+?)\. Budget ", re.M)
_TALK_HEADERS = ("--- CHEAP TALK PHASE", "--- TALK (")
_DECISION_HEADERS = ("--- DECISION PHASE", "--- DECISION ---")
_SAID = 'The other party said: "'
_JSON_OBJ = re.compile(r"\{[^{}]*\}")
_REWARD = re.compile(r"reward = (-?\d+(?:\.\d+)?)")
# the other party's projects in the system prompt under transparency "full" or "joint"
# (requirements with rewards; "requirements" alone gives no reward and is not read)
_REVEALED_HEADER = "The other party's projects (revealed to both parties):\n"
_REVEALED_LINE = re.compile(r"^- (\S+): requires \[([^\]]*)\], reward = (-?\d+(?:\.\d+)?)/run$")


@dataclass
class RoundLog:
    """One round as the agent saw it: the dialogue in order and the result notice."""

    messages: list[tuple[str, str]] = field(default_factory=list)  # ("me" | "them", speech)
    result: dict | None = None  # kind, own, opponent (name -> units), reward
    new_projects: bool = False  # the round opened with a NEW PROJECTS block
    #: resource names spoken in this round -> the latest names (set when a later round's
    #: theme renamed them), so that acts read in the names in effect now
    rename: dict[str, str] = field(default_factory=dict)
    #: the resource names in effect in this round (what its messages are read with)
    names: tuple[str, ...] = ()
    #: each resource's supply by its latest name: a proposal naming one share only leaves
    #: the rest of the pool to the other party
    supply: dict[str, int] = field(default_factory=dict)

    def reading(self, text: str) -> Reading:
        """One message of this round as the reader reads it."""
        return read(text, {n.lower(): n for n in self.names} if self.names else grammar_names(text))

    def message_acts(self) -> list[tuple[str, list[grammar.Act]]]:
        """(who, acts) of each message in order, in the names in effect now; a proposal
        naming one share leaves the rest of the pool to the other party."""
        out = []
        for who, text in self.messages:
            acts = list(self.reading(text).acts)
            if self.rename:
                acts = [_renamed(a, self.rename) for a in acts]
            if self.supply:
                acts = [_completed(a, self.supply) for a in acts]
            out.append((who, acts))
        return out

    def acts(self, who: str) -> list[grammar.Act]:
        return [a for w, acts in self.message_acts() if w == who for a in acts]


def _completed(act: grammar.Act, supply: dict[str, int]) -> grammar.Act:
    """A proposal naming one share, with the rest of the pool as the other share."""
    if not isinstance(act, grammar.Propose) or act.is_split:
        return act
    named = dict(act.you if act.you is not None else act.me)
    rest = tuple((n, q - named.get(n, 0)) for n, q in supply.items() if q - named.get(n, 0) > 0)
    return grammar.Propose(rest, act.me) if act.you is None else grammar.Propose(act.you, rest)


def _renamed(act: grammar.Act, rename: dict[str, str]) -> grammar.Act:
    def units(pairs):
        return tuple((rename.get(str(n).lower(), n), q) for n, q in pairs)

    if isinstance(act, grammar.Propose):
        return dataclasses.replace(act, you=units(act.you), me=units(act.me))
    if isinstance(act, grammar.Disclose):
        return dataclasses.replace(act, requires=units(act.requires))
    if isinstance(act, grammar.Need):
        return dataclasses.replace(act, resource=rename.get(act.resource.lower(), act.resource))
    return act


# Per text, kept (bounded, functools.lru_cache): a scripted agent reads its whole
# conversation at every turn, and every message but the last is one it read before.
_TEXTS_KEPT = 4096


def _result_fields(part: str) -> tuple:
    """A round result notice as (kind, own units, opponent units, reward), the units as
    (name, units) pairs: immutable, so :func:`_user_events` can keep it."""
    allocs = [json.loads(m) for m in _JSON_OBJ.findall(part)]
    kind = "annulled" if "ANNULLED" in part else ("no_runs" if "could not complete" in part else "standard")
    m = _REWARD.search(part)
    return (kind, tuple((allocs[0] if allocs else {}).items()), tuple((allocs[1] if len(allocs) > 1 else {}).items()),
            0.0 if kind != "standard" or m is None else float(m.group(1)))


@functools.lru_cache(maxsize=_TEXTS_KEPT)
def _own_speech(content: str) -> str | None:
    try:
        obj = json.loads(content)
    except (json.JSONDecodeError, ValueError):
        return content.strip() or None  # thinking off: plain text is speech
    if isinstance(obj, dict):
        speech = obj.get("speech")
        return speech if isinstance(speech, str) and speech else None
    return None


_RENAMED = "RESOURCES RENAMED FOR THIS ROUND"


def _rekey(units: dict, old: list[str], new: list[str]) -> dict:
    """A result's name -> units under the names of its round, in the latest names (a
    theme per round renames resources in place, position by position)."""
    pos = {n.lower(): j for j, n in enumerate(old)}
    return {new[pos[str(k).lower()]]: q for k, q in units.items() if str(k).lower() in pos}


@functools.lru_cache(maxsize=_TEXTS_KEPT)
def _user_events(content: str) -> tuple[tuple, ...]:
    """What :func:`_dialogue` reads in one env message, part by part, in order:
    ``("renamed", names)``, ``("new_projects",)``, ``("talk",)``, ``("decision",)``,
    ``("result", fields)`` (:func:`_result_fields`), ``("said", speech)`` and
    ``("end",)`` after every part that is not a renamed or new-projects block."""
    events: list[tuple] = []
    for part in content.split("\n\n"):
        if part.startswith(_RENAMED):
            m = _RESOURCES.search(part)
            if m is not None:
                events.append(("renamed", tuple(x.strip() for x in m.group(1).split(","))))
            continue
        if part.startswith("NEW PROJECTS FOR THIS ROUND"):
            events.append(("new_projects",))
            continue
        if part.startswith(_TALK_HEADERS):
            events.append(("talk",))
        elif part.startswith(_DECISION_HEADERS):
            events.append(("decision",))
        if part.startswith("--- Round result:"):
            events.append(("result", _result_fields(part)))
        i = part.find(_SAID)
        if i != -1:
            j = part.rfind('"')
            if j > i + len(_SAID) - 1:
                events.append(("said", part[i + len(_SAID): j]))
        events.append(("end",))
    return tuple(events)


def _dialogue(conversation, names: list[str]) -> tuple[list[RoundLog], list[str]]:
    """The rounds of the conversation and the resource names in effect now. ``names``:
    the system prompt's; a RESOURCES RENAMED block (a theme per round) replaces them,
    and results of rounds played under other names are re-keyed into the latest."""
    rounds: list[RoundLog] = [RoundLog()]
    current = list(names)
    results: list[tuple[dict, list[str]]] = []
    spoken: list[list[str]] = [current]  # the names in effect when each round began
    for msg in conversation[1:]:
        if msg["role"] == "assistant":
            speech = _own_speech(msg["content"])
            if speech:
                rounds[-1].messages.append(("me", speech))
            continue
        for event in _user_events(msg["content"]):
            kind = event[0]
            if kind == "end":
                spoken.extend([current] * (len(rounds) - len(spoken)))
            elif kind == "said":
                rounds[-1].messages.append(("them", event[1]))
            elif kind == "result":  # a new dict each read (its units dicts too: re-keyed below)
                res_kind, own, opponent, reward = event[1]
                rounds[-1].result = {"kind": res_kind, "own": dict(own), "opponent": dict(opponent), "reward": reward}
                results.append((rounds[-1].result, current))
            elif kind == "talk":
                if rounds[-1].result is not None:
                    rounds.append(RoundLog(new_projects=rounds[-1].new_projects and not rounds[-1].messages))
            elif kind == "decision":
                if rounds[-1].result is not None:
                    rounds.append(RoundLog())  # no-talk rounds open with the decision prompt
            elif kind == "renamed":
                current = list(event[1])
            else:  # new_projects
                if rounds[-1].messages or rounds[-1].result is not None:
                    rounds.append(RoundLog())
                rounds[-1].new_projects = True
    for result, seen in results:
        if seen != current:
            result["own"], result["opponent"] = (_rekey(result["own"], seen, current),
                                                 _rekey(result["opponent"], seen, current))
    for r, seen in zip(rounds, spoken):
        r.names = tuple(seen)
        if seen != current:
            r.rename = {old.lower(): new for old, new in zip(seen, current)}
    return rounds, current


#: scenarios OwnView.from_observation built, by the bytes of the feature entries they come from
_SCENARIOS: dict[tuple, Scenario] = {}
_SCENARIOS_KEPT = 1024


def _own_scenario(L: FeatureLayout, f: np.ndarray, rnames: list[str], pnames: list[str]) -> Scenario:
    """The agent's scenario as its features give it: its own projects under both agent
    ids (the opponent's are unknown)."""
    req = L.get(f, "requires").astype(int)
    rew = L.get(f, "reward")
    supply = L.get(f, "supply").astype(int)
    cost = L.get(f, "cost")
    projects = {
        pn: {"requires": {f"r{j}": int(req[i, j]) for j in range(len(rnames)) if req[i, j] > 0},
             "reward": float(rew[i])}
        for i, pn in enumerate(pnames)
    }
    return Scenario.from_dict(
        {
            "name": "own-view",
            "resources": {f"r{j}": {"supply": int(supply[j]), "cost": float(cost[j])} for j in range(len(rnames))},
            "budget": float(L.get(f, "budget")[0]),
            "max_types": int(L.get(f, "max_types")[0]),
            "projects": {"agent_a": projects, "agent_b": projects},
        }
    )


@functools.lru_cache(maxsize=256)
def _read_system(system: str) -> tuple[bool, tuple[str, ...], tuple[str, ...], bool]:
    """(compact prompt style, resource names listed, own project names, thinking on) of a
    system prompt, read once per text."""
    compact = system.startswith(_COMPACT_SYSTEM)
    m = (_COMPACT_RESOURCES if compact else _RESOURCES).search(system)
    if m is None:
        raise ValueError("observation has no resource list in its system prompt")
    listed = [s.strip() for s in m.group(1).split(",")]
    if compact:  # "r1 $1 x10"
        listed = [s.rsplit(" $", 1)[0] for s in listed]
    pnames = _PROJECT.findall(system.split("## Decision Format")[0].split("The other party's projects")[0])
    return compact, tuple(listed), tuple(pnames), not compact and "NO private channel" not in system


@functools.lru_cache(maxsize=256)
def _read_joint(system: str, listed: tuple[str, ...]) -> tuple[str | None, tuple]:
    """(the joint-plan role, the other party's revealed projects) of a system prompt: the
    role is ``"lead"`` or ``"other"`` when the Situation section is the joint oracle
    check's, else None; each project is (name, ((resource id, units), ...), reward), the
    resource names read in the order the system prompt lists them."""
    role = next((r for r, who in SITUATION_JOINT_FAVOURED.items() if SITUATION_JOINT.format(favoured=who) in system),
                None)
    _, sep, rest = system.partition(_REVEALED_HEADER)
    if not sep:
        return role, ()
    index = {n.lower(): j for j, n in enumerate(listed)}
    projects = []
    for line in rest.split("\n"):
        m = _REVEALED_LINE.match(line)
        if m is None:
            break
        req = []
        for part in filter(None, (x.strip() for x in m.group(2).split(","))):
            name, _, units = part.rpartition("×")
            if name.lower() not in index or not units.isdigit():
                return role, ()
            req.append((f"r{index[name.lower()]}", int(units)))
        projects.append((m.group(1), tuple(req), float(m.group(3))))
    return role, tuple(projects)


@functools.lru_cache(maxsize=64)
def _layout(n_resources: int, n_projects: int) -> FeatureLayout:
    return FeatureLayout(n_resources, n_projects)


@dataclass
class OwnView:
    scenario: Scenario  # own projects under both agent ids; the opponent's are unknown
    resource_names: list[str]
    project_names: list[str]
    phase: str
    active: bool
    round_index: int
    turns_used: int
    turns_limit: int
    thinking: bool
    rounds: list[RoundLog]
    #: the other party's projects when the system prompt reveals them with rewards
    #: (transparency "full" or "joint"): (name, ((resource id, units), ...), reward)
    revealed: tuple = ()
    #: the joint oracle check's role, "lead" or "other" (whose reward breaks a tie between
    #: joint optima: the lead's), None in any other game
    joint_plan: str | None = None
    #: rounds in the game (0 when not known)
    num_rounds: int = 0

    @classmethod
    def from_observation(cls, obs: dict) -> "OwnView":
        system = obs["conversation"][0]["content"]
        compact, listed, pnames, thinking = _read_system(system)
        rounds, rnames = _dialogue(obs["conversation"], list(listed))
        pnames = list(pnames)
        L = _layout(len(rnames), len(pnames))
        f = obs["features"]
        if f.shape != (L.size,):
            raise ValueError(f"feature vector has {f.shape[0]} entries; expected {L.size}")
        # the scenario is rebuilt from the same feature entries at every turn of a round:
        # built once per their bytes (a Scenario is frozen)
        key = (tuple(pnames), len(rnames), f.dtype.str) + tuple(
            L.get(f, name).tobytes() for name in ("requires", "reward", "supply", "cost", "budget", "max_types"))
        sc = _SCENARIOS.get(key)
        if sc is None:
            sc = _own_scenario(L, f, rnames, pnames)
            if len(_SCENARIOS) >= _SCENARIOS_KEPT:
                _SCENARIOS.clear()
            _SCENARIOS[key] = sc
        supply = {n: int(q) for n, q in zip(rnames, L.get(f, "supply"))}
        for r in rounds:
            r.supply = supply
        phase = ("talk", "decision", "done")[int(np.argmax(L.get(f, "phase")))]
        joint_plan, revealed = _read_joint(system, listed)
        return cls(
            scenario=sc,
            resource_names=rnames,
            project_names=pnames,
            phase=phase,
            active=bool(obs["active"]),
            round_index=int(L.get(f, "round")[0]),
            turns_used=int(L.get(f, "turns_used")[0]),
            turns_limit=int(L.get(f, "turns_limit")[0]),
            thinking=thinking,
            rounds=rounds,
            revealed=revealed,
            joint_plan=joint_plan,
            num_rounds=int(L.get(f, "num_rounds")[0]),
        )

    # -- names <-> scenario ids ---------------------------------------------------
    def ids(self, units_by_name) -> dict[str, int]:
        """{"wood": 3} -> {"r0": 3}; unknown names are dropped."""
        idx = {n.lower(): j for j, n in enumerate(self.resource_names)}
        out: dict[str, int] = {}
        for name, q in (units_by_name.items() if isinstance(units_by_name, dict) else units_by_name):
            j = idx.get(str(name).lower())
            if j is not None:
                out[f"r{j}"] = out.get(f"r{j}", 0) + int(q)
        return out

    def names(self, units_by_id) -> dict[str, int]:
        return {self.resource_names[int(rid[1:])]: int(q) for rid, q in units_by_id.items() if q}

    @property
    def current(self) -> RoundLog:
        return self.rounds[-1]

    @property
    def previous(self) -> RoundLog | None:
        done = [r for r in self.rounds[:-1] if r.result is not None]
        return done[-1] if done else None

    # -- this round's bargaining, as the dialogue says ----------------------------
    def last_partner_proposal(self) -> grammar.Propose | None:
        """The partner's latest proposal this round, None if it made none."""
        props = [a for a in self.current.acts("them") if isinstance(a, grammar.Propose)]
        return props[-1] if props else None

    def my_last_proposal(self) -> grammar.Propose | None:
        """The agent's own latest proposal this round, None if it made none."""
        props = [a for a in self.current.acts("me") if isinstance(a, grammar.Propose)]
        return props[-1] if props else None

    def partner_accepted_mine(self) -> bool:
        """The partner's latest message accepts, I proposed before it, and it proposes
        nothing else (restating my split from its side is still accepting it)."""
        msgs = self.current.messages
        mine = self.my_last_proposal()
        if not msgs or msgs[-1][0] != "them" or mine is None:
            return False
        last = self.current.message_acts()[-1][1]
        if not any(isinstance(a, grammar.Accept) for a in last):
            return False
        return all(restates(a, mine) for a in last if isinstance(a, grammar.Propose))

    def agreed_claim(self) -> dict[str, int] | None:
        """My share (resource id -> units) under this round's agreement: the first
        proposal the other side accepted; None if none was reached."""
        proposal, proposer = None, None
        for who, acts in self.current.message_acts():
            for a in acts:
                if isinstance(a, grammar.Propose):
                    proposal, proposer = a, who
                elif isinstance(a, grammar.Accept) and proposal is not None and who != proposer:
                    mine = proposal.me if proposer == "me" else proposal.you
                    return self.ids(dict(mine))
        return None

    def partner_disclosures(self, use_history: bool = True) -> dict[str, grammar.Disclose]:
        """The partner's disclosed projects by name, the latest disclosure of each: this
        round's, or with ``use_history`` every round's since the last change of projects."""
        rounds = [self.current]
        if use_history:
            rounds = []
            for r in reversed(self.rounds):
                rounds.append(r)
                if r.new_projects:
                    break
        out: dict[str, grammar.Disclose] = {}
        for r in reversed(rounds):
            for a in r.acts("them"):
                if isinstance(a, grammar.Disclose):
                    out[a.project] = a
        return out


def restates(theirs: grammar.Propose, mine: grammar.Propose) -> bool:
    """The partner's split is mine seen from its side (zero quantities aside)."""
    def d(units):
        return {str(n).lower(): q for n, q in (units or ()) if q}

    return d(theirs.you) == d(mine.me) and d(theirs.me) == d(mine.you)
