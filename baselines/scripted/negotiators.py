"""Scripted negotiators for the resource game: a concession family from the bargaining
literature, coordination agents, and one agent per failure mode of seed 000 §5.

Every agent reads only its observation (:class:`~baselines.scripted.view.OwnView`),
talks in the mini-grammar of :mod:`~negotiation_env.games.resource.grammar`, and answers either with
the structured Dict action or with the text a model would write (``output="text"``;
the D.1.4 JSON with thinking on, plain speech or a bare purchase with thinking off).

The private ``thinking`` an agent sends is its actual reasoning in a few plain
sentences, written from the decision it just made (its target and what an offer is
worth to it, the joint optimum it found, why it accepts or refuses, what it buys and
what that is worth). It never names the agent, its class or its preset: who played a
seat is trace metadata (``policies``, the exports' ``policy`` column), never text a
model could learn to copy. Nor does its wording: each turn's thinking opens with
sentences about the situation from a pool every agent shares, and every sentence has
several wordings (:mod:`~baselines.scripted.thoughts`), drawn from the agent's own
phrasing stream: a generator derived from its seed and the observation it answers,
apart from the one its decisions use (:attr:`ResourceNegotiator.rng`), so the same seed
answering the same observation writes the same words, and the decisions are the same
whatever the wording.

Speech varies too by default (``phrasing="varied"``): each act's wording is drawn from
:func:`~negotiation_env.games.resource.grammar.phrasings` with a second stream of the same kind, and
every wording reads alike (:mod:`negotiation_env.games.resource.reader`);
``phrasing="fixed"`` speaks the mini-grammar's sentence for each act.

Shared vocabulary:

* a **claim** is the units of each resource an agent intends to buy (resource ids);
  a **split** is a proposal "you take X, I take Y";
* an agent's **value** of a share is the best reward its own projects can make from it
  (exact, over its feasible run vectors);
* an **agreement** in a round is a proposal followed by the other party's ``Agreed.``;
  the agent that accepts decides at once on its share, the proposer decides on its own
  share when it reads the acceptance.

Concession convention (state it, since tools disagree): the aspiration at time
t in [0, 1] (this agent's talk turns used / (turn limit - 1)) is

    target(t) = V_max * (r + (1 - r) * (1 - t ** e))

with V_max the agent's individual maximum and r the reservation fraction. This is
NegMAS's ``PolyAspiration`` form, max * (1 - t^e): e > 1 concedes late (Boulware,
preset e = 4), e = 1 is linear, e < 1 concedes early (conceder, preset e = 0.25). The
Faratin/GENIUS formula writes the exponent as 1/e, i.e. the other way round.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from negotiation_env.core.policy import BasePolicy
from negotiation_env.games.resource.scenario import Scenario
from negotiation_env.games.resource.solver import feasible_run_vectors, solve

from negotiation_env.games.resource import grammar as G
from negotiation_env.games.resource.view import OwnView

from . import thoughts as T
from .concession import aspiration

__all__ = [
    "ResourceNegotiator",
    "ConcessionNegotiator",
    "Reciprocator",
    "OracleNegotiator",
    "SilentGreedy",
    "RandomNegotiator",
    "FairSplitter",
    "Anchorer",
    "Deferent",
    "Abandoner",
    "PRESETS",
]


# --------------------------------------------------------------------------- planning

@dataclass
class Plan:
    """The agent's own options: every affordable run vector with its usage and value."""

    runs: np.ndarray
    usage: np.ndarray
    value: np.ndarray
    supply: np.ndarray

    @classmethod
    def of(cls, view: OwnView) -> "Plan":
        runs, usage, value = feasible_run_vectors(view.scenario, "agent_a")
        supply = np.array([r.supply for r in view.scenario.resources], dtype=np.int64)
        return cls(runs, usage, value, supply)

    @property
    def v_max(self) -> float:
        return float(self.value.max())

    def vec(self, claim: dict[str, int]) -> np.ndarray:
        v = np.zeros(len(self.supply), dtype=np.int64)
        for rid, q in claim.items():
            v[int(rid[1:])] += q
        return v

    def claim(self, vec: np.ndarray) -> dict[str, int]:
        return {f"r{j}": int(q) for j, q in enumerate(vec) if q}

    def best_within(self, share: dict[str, int]) -> int:
        """Index of the best run vector whose usage fits inside ``share``."""
        fits = np.all(self.usage <= self.vec(share), axis=1)
        vals = np.where(fits, self.value, -np.inf)
        return int(np.argmax(vals))

    def value_of(self, share: dict[str, int]) -> float:
        return float(self.value[self.best_within(share)])

    def best(self) -> int:
        return int(np.argmax(self.value))

    def best_claim(self) -> dict[str, int]:
        """What the individual optimum consumes."""
        return self.claim(self.usage[self.best()])

    def cheapest_at_least(self, target: float, cost: np.ndarray) -> int:
        """The option worth at least ``target`` that claims the least (by cost), ties to value."""
        ok = self.value >= target - 1e-9
        if not ok.any():
            return self.best()
        spend = self.usage @ cost
        order = np.lexsort((-self.value, np.where(ok, spend, np.inf)))
        return int(order[0])


def _partner_scenario(view: OwnView, disclosures: dict[str, G.Disclose]) -> Scenario | None:
    """The partner's projects as disclosed, on the known environment (None if none usable)."""
    projects = {}
    for name, d in disclosures.items():
        req = view.ids(dict(d.requires))
        if req and len(req) == len(d.requires) and d.reward is not None:
            projects[name] = {"requires": req, "reward": d.reward}
    if not projects:
        return None
    base = view.scenario.to_dict()
    base["projects"] = {"agent_a": base["projects"]["agent_a"], "agent_b": projects}
    try:
        return Scenario.from_dict(base)
    except ValueError:
        return None


# --------------------------------------------------------------------------- the engine

class Exact(dict):
    """A claim to buy exactly as given (resource id -> units), not only what the best runs
    inside it consume: how an agent that *takes a share* (its fair half, the share it was
    offered) submits. Build it with :meth:`ResourceNegotiator.take_share`, which keeps it
    within the budget and the type limit."""


#: what an agent says when it cannot read the partner's message
UNREAD_REPLY = ("I could not read an offer in your last message; could you state it as "
                "\"you take <numbers and resources>, I take <numbers and resources>\"?")
#: how much of an unread message its event keeps
UNREAD_CHARS = 300


#: other wordings of the stock phrases, for varied speech
_STOCK = {
    "Let's keep talking.": ("Let's keep talking.", "Let's talk a bit more.", "Let's keep going."),
    "Here is my decision.": ("Here is my decision.", "I've made my decision.", "This is my decision."),
    "I'll go with my own best plan. Good luck!": (
        "I'll go with my own best plan. Good luck!", "I'm going with my own best plan. Good luck!",
        "My own best plan it is. Good luck!"),
}

#: the spawn keys of an agent's phrasing streams (thinking, speech): children of its seed
#: that its decision stream (a generator of the seed itself) never draws from
_THINKING_STREAM, _SPEECH_STREAM = 0x7468696E6B, 0x737065656368
PHRASINGS = ("fixed", "varied")


def _say(acts, rng: np.random.Generator | None = None) -> str:
    """Acts rendered as sentences; plain strings (stock phrases) pass through. With
    ``rng``, each act and stock phrase in one of its wordings, drawn from it."""
    if rng is None:
        return " ".join(a if isinstance(a, str) else G.render(a) for a in acts)
    return " ".join(T.pick(rng, _STOCK.get(a, (a,))) if isinstance(a, str) else G.render(a, rng) for a in acts)


def _n(x: float) -> str:
    """A reward or value for the agent's reasoning: 12, 12.5 (one decimal at most)."""
    x = round(float(x), 1)
    return str(int(x)) if x.is_integer() else f"{x:.1f}"


def _runs_text(names: list[str], runs) -> str:
    done = [f"{p} {int(k)} time{'s' if int(k) != 1 else ''}" for p, k in zip(names, runs) if int(k)]
    return " and ".join(done) if done else "none of my projects"


class ResourceNegotiator(BasePolicy):
    """Base of the talking agents. Subclasses decide what to say and what to claim:
    :meth:`talk` returns (acts, claim or None) for a talk turn (a claim makes the turn
    an early decision) and :meth:`final_claim` the claim at the forced decision prompt.

    Under unlimited talk (``cheap_talk_turns=0``: the env reports a turn limit of 0 and
    never forces a decision) an agent paces itself over :attr:`horizon` turns of its own,
    as if that were the limit, and then decides (its :meth:`final_claim`, as an early
    decision), so two scripted agents never talk forever."""

    name = "negotiator"
    #: own talk turns per round under unlimited talk (the paper's default limit is 5)
    horizon: int = 5

    def __init__(self, seed: int | None = None, output: str = "structured", *, name_runs: bool = True,
                 phrasing: str = "varied"):
        if output not in ("structured", "text"):
            raise ValueError(f"output must be 'structured' or 'text'; got {output!r}")
        if phrasing not in PHRASINGS:
            raise ValueError(f"phrasing must be one of {', '.join(PHRASINGS)}; got {phrasing!r}")
        self.output = output
        #: how the agent speaks: "fixed" (the mini-grammar's sentence for each act) or
        #: "varied" (one of several wordings of each act, from its own speech stream)
        self.phrasing = phrasing
        #: text output names the runs in the purchase's "projects"; False leaves them out, and
        #: the engine assigns runs in the order the projects are presented (Appendix D.1.3),
        #: which can earn less than the best runs the purchase allows (the follower of
        #: benchmarks/train_sft.py: efficiency 0.942 against the oracle, not 1)
        self.name_runs = bool(name_runs)
        self.seed = seed
        #: the decision stream: every choice the agent makes by chance draws from it
        self.rng = np.random.default_rng(seed)
        # the phrasing streams (how its thinking and its varied speech are worded), renewed
        # at every turn from the seed and the observation answered (see :meth:`_phrasing`);
        # an unseeded agent words as seed 0 does
        self._phrasing_seed = 0 if seed is None else int(seed)
        self._thinking_rng = self._phrasing(_THINKING_STREAM)
        self._speech_rng = self._phrasing(_SPEECH_STREAM)
        self._why: list[str] = []
        self._last_acts: list | None = None

    @property
    def last_acts(self) -> list | None:
        """What the latest turn said, as the list its speech was rendered from (acts and
        stock phrases; empty when the agent fell back on its default sentence), or None
        before the first turn and after a turn that says nothing to the partner (the
        reflection). A wrapper reads it to know what was said without parsing the words.
        (Not an instance attribute: the trace's policy settings stay as they were.)"""
        return self._last_acts

    @staticmethod
    def _observation_key(obs: dict | None) -> int:
        """A digest of ``obs`` (its conversation and features): what keys the phrasing."""
        if obs is None:
            return 0
        h = hashlib.blake2b(digest_size=8)
        for m in obs["conversation"]:
            h.update(f"{m['role']}\0{m['content']}\1".encode("utf-8", "surrogatepass"))
        h.update(np.ascontiguousarray(obs["features"]).tobytes())
        return int.from_bytes(h.digest(), "little")

    def _phrasing(self, stream: int, key: int = 0) -> np.random.Generator:
        """The phrasing stream ``stream`` for answering the observation of digest ``key``
        (:meth:`_observation_key`): a child of the agent's seed keyed by the observation, so
        the same seed answering the same observation words it the same way (asked twice, or
        in the batch form), and no draw from it touches :attr:`rng`."""
        return np.random.default_rng(np.random.SeedSequence(self._phrasing_seed, spawn_key=(stream, key)))

    def why(self, reason: str, **fields: Any) -> None:
        """Note one sentence of this turn's reasoning (sent as the private thinking):
        ``reason`` is a move of :data:`~baselines.scripted.thoughts.REASONS`, worded in
        one of its ways (from the phrasing stream) with ``fields``, or a sentence as is."""
        self._why.append(T.reason(reason, self._thinking_rng, **fields) if reason in T.REASONS else reason)

    def say(self, acts) -> str:
        """``acts`` as the agent speaks them (see :attr:`phrasing`)."""
        return _say(acts, self._speech_rng if self.phrasing == "varied" else None)

    def thinking(self) -> str:
        """This turn's reasoning so far, as the private ``thinking`` text."""
        return " ".join(self._why)

    # -- the policy protocol -----------------------------------------------------
    def act(self, obs: dict) -> Any:
        self.last_events = []
        self._last_acts = None
        view = OwnView.from_observation(obs)
        key = self._observation_key(obs)
        self._thinking_rng = self._phrasing(_THINKING_STREAM, key)
        self._speech_rng = self._phrasing(_SPEECH_STREAM, key)
        if view.phase == "done":  # asked to act after the last result: the D.5 reflection step
            return self.reflect(view)
        unlimited = view.phase == "talk" and view.turns_limit == 0
        if unlimited:  # pace over the own horizon, then decide
            view = dataclasses.replace(view, turns_limit=self.horizon)
        plan = Plan.of(view)
        self._why = [T.situation(view, plan.supply, plan.v_max, self._thinking_rng)]
        unread = self.unread(view)
        if view.phase == "decision" or (unlimited and view.turns_used >= self.horizon):
            acts, claim = [], self.final_claim(view, plan)
        else:
            acts, claim = self.talk(view, plan)
            if unread:
                self.why("I could not read their last message, so I ask them to state their offer with numbers.")
                acts = [UNREAD_REPLY] + list(acts)
        if claim is not None:
            return self._decide(view, plan, acts, claim)
        self._last_acts = list(acts)
        text = self.say(acts) or self.say(["Let's keep talking."])
        if self.output == "text":
            return json.dumps({"thinking": self.thinking(), "speech": text, "action": None}) if view.thinking else text
        return {"message": text, "thinking": self.thinking(), "decide": 0}

    def unread(self, view: OwnView) -> list[str]:
        """The partner's messages since my last one that talk about the negotiation but
        say nothing the reader reads; each is recorded as an ``unread_message`` event of
        this turn (:attr:`last_events`)."""
        msgs = view.current.messages
        k = len(msgs)
        while k > 0 and msgs[k - 1][0] == "them":
            k -= 1
        out = [text for _who, text in msgs[k:] if view.current.reading(text).unread]
        self.last_events = [{"type": "unread_message", "source": "policy", "round": view.round_index,
                             "message": text[:UNREAD_CHARS]} for text in out]
        return out

    def reflect(self, view: OwnView) -> Any:
        """The post-game reflection (D.5): a sentence of what the agent saw of its own
        rounds (its results; it never sees the partner's rewards), plain text."""
        seen = [r.result for r in view.rounds if r.result is not None]
        earned = sum(float(r.get("reward") or 0) for r in seen)
        annulled = sum(r.get("kind") == "annulled" for r in seen)
        text = T.reflection(view.num_rounds, len(seen), earned, annulled, self._thinking_rng)
        return {"message": text, "thinking": "", "decide": 0} if self.output == "structured" else text

    def _decide(self, view: OwnView, plan: Plan, acts: list, claim: dict[str, int]):
        """Buy what the best runs inside ``claim`` consume (all of ``claim`` when it is an
        :class:`Exact` claim), and name those runs."""
        i = plan.best_within(claim)
        runs, usage = plan.runs[i], plan.usage[i]
        if isinstance(claim, Exact):
            usage = plan.vec(claim)
        bought = G.render_units([(n, int(q)) for n, q in zip(view.resource_names, usage)])
        self.why("buy", bought=bought, runs=_runs_text(view.project_names, runs), value=_n(plan.value[i]))
        self._last_acts = list(acts)
        speech = self.say(acts) or self.say(["Here is my decision."])
        if self.output == "text":
            action = {n: int(q) for n, q in zip(view.resource_names, usage) if q}
            if self.name_runs:
                action["projects"] = {p: int(n) for p, n in zip(view.project_names, runs)}
            if view.thinking:
                return json.dumps({"thinking": self.thinking(), "speech": speech, "action": action})
            return json.dumps(action)
        return {"message": speech, "thinking": self.thinking(), "decide": 1, "purchase": usage.astype(np.int64),
                "runs": runs.astype(np.int64), "auto_runs": 0}

    # -- helpers for subclasses ---------------------------------------------------
    @staticmethod
    def time(view: OwnView) -> float:
        limit = max(1, view.turns_limit)
        return min(1.0, view.turns_used / max(1, limit - 1))

    @staticmethod
    def last_partner_proposal(view: OwnView) -> G.Propose | None:
        return view.last_partner_proposal()

    @staticmethod
    def my_last_proposal(view: OwnView) -> G.Propose | None:
        return view.my_last_proposal()

    @staticmethod
    def partner_accepted_mine(view: OwnView) -> bool:
        """:meth:`OwnView.partner_accepted_mine`."""
        return view.partner_accepted_mine()

    def agreed_claim(self, view: OwnView) -> dict[str, int] | None:
        """My share under this round's agreement, if one was reached."""
        return view.agreed_claim()

    def partner_disclosures(self, view: OwnView, use_history: bool = True) -> dict[str, G.Disclose]:
        return view.partner_disclosures(use_history)

    def split_for(self, view: OwnView, plan: Plan, my_vec: np.ndarray, their_vec: np.ndarray | None = None) -> G.Propose:
        if their_vec is None:
            their_vec = plan.supply - my_vec
        return G.Propose(tuple(view.names(plan.claim(their_vec)).items()), tuple(view.names(plan.claim(my_vec)).items()))

    def take_share(self, view: OwnView, plan: Plan, share: dict[str, int]) -> Exact:
        """``share`` (capped at the supply) as an exact purchase: all of it when it is
        affordable and within the type limit; else the offered quantities of the best set of
        its resources that is (most reward for this agent, then most resources its projects
        use, then most spent)."""
        cost = np.array([r.cost for r in view.scenario.resources])
        vec = np.minimum(plan.vec(share), plan.supply)
        offered = [j for j in range(len(vec)) if vec[j] > 0]
        used = np.any(plan.usage > 0, axis=0)
        best = None
        for k in range(min(len(offered), view.scenario.max_types), -1, -1):
            for subset in combinations(offered, k):
                v = np.zeros_like(vec)
                v[list(subset)] = vec[list(subset)]
                spend = float(v @ cost)
                if spend > view.scenario.budget + 1e-9:
                    continue
                key = (plan.value_of(plan.claim(v)), int(used[list(subset)].sum()), spend)
                if best is None or key > best[0]:
                    best = (key, v)
        return Exact(plan.claim(best[1]))

    def disclose_all(self, view: OwnView) -> list[G.Act]:
        acts = []
        for p in view.scenario.projects_of("agent_a"):
            req = tuple((view.resource_names[int(rid[1:])], u) for rid, u in p.requires)
            acts.append(G.Disclose(p.name, req, p.reward))
        return acts

    # -- to override --------------------------------------------------------------
    def talk(self, view: OwnView, plan: Plan) -> tuple[list[G.Act], dict[str, int] | None]:
        raise NotImplementedError

    def final_claim(self, view: OwnView, plan: Plan) -> dict[str, int]:
        agreed = self.agreed_claim(view)
        if agreed is not None:
            self.why("agreed_share")
            return agreed
        mine = self.my_last_proposal(view)
        if mine is not None:
            self.why("keep_proposal")
            return view.ids(dict(mine.me))
        return self.fallback_claim(view, plan)

    def fallback_claim(self, view: OwnView, plan: Plan) -> dict[str, int]:
        """The claim at the decision prompt without agreement or own proposal."""
        self.why("no_deal_no_proposal")
        return plan.best_claim()


# --------------------------------------------------------------------------- concession family

class ConcessionNegotiator(ResourceNegotiator):
    """Time-based concession (Boulware / linear / conceder), optionally noisy, or a
    satisficer (constant aspiration). Accepts a proposal whose share is worth at least the
    current target, else proposes the cheapest own option worth the target and offers
    the rest of the pool (or, when the partner has disclosed its projects, the share
    that is best for the partner among splits meeting the target). With ``use_history``
    it opens a round by offering the previous round's agreement again, when that round
    was not annulled."""

    def __init__(self, seed=None, output="structured", *, exponent: float = 1.0, reservation: float = 0.0,
                 noise: float = 0.0, aspiration: float | None = None, use_history: bool = True, name: str = "linear",
                 phrasing: str = "varied"):
        super().__init__(seed, output, phrasing=phrasing)
        if exponent <= 0:
            raise ValueError(f"exponent must be > 0; got {exponent}")
        if not 0.0 <= reservation <= 1.0:
            raise ValueError(f"reservation must be in [0, 1]; got {reservation}")
        if aspiration is not None and not 0.0 <= aspiration <= 1.0:
            raise ValueError(f"aspiration must be in [0, 1]; got {aspiration}")
        if noise < 0:
            raise ValueError(f"noise must be >= 0; got {noise}")
        self.exponent, self.reservation, self.noise = exponent, reservation, noise
        self.aspiration, self.use_history, self.name = aspiration, use_history, name

    def target(self, view: OwnView, plan: Plan) -> float:
        vmax = plan.v_max
        if self.aspiration is not None:
            t = self.aspiration * vmax
        else:
            t = vmax * aspiration(self.time(view), self.exponent, self.reservation)
        if self.noise:
            t += float(self.rng.normal(0.0, self.noise * vmax))
        return float(min(vmax, max(self.reservation * vmax, t)))

    def talk(self, view, plan):
        if self.partner_accepted_mine(view):
            self.why("accepted_mine")
            return [], view.ids(dict(self.my_last_proposal(view).me))
        target = self.target(view, plan)
        self.why("target", target=_n(target), vmax=_n(plan.v_max))
        offer = self.last_partner_proposal(view)
        if offer is not None:
            share = view.ids(dict(offer.you))
            worth = plan.value_of(share)
            if worth >= target - 1e-9:
                self.why("offer_meets_target", worth=_n(worth))
                return [G.Accept()], share
            self.why("offer_below_target", worth=_n(worth))
        acts: list[G.Act] = [G.Reject()] if offer is not None else []
        if self.use_history and view.turns_used == 0 and view.previous is not None:
            prev = view.previous.result
            if prev and prev["kind"] != "annulled" and not view.current.new_projects:
                mine, theirs = view.ids(prev["own"]), view.ids(prev["opponent"])
                if plan.value_of(mine) >= plan.value_of({}) and mine:
                    self.why("offer_last_round")
                    return acts + [self.split_for(view, plan, plan.vec(mine), plan.vec(theirs))], None
        return acts + [self.propose(view, plan, target)], None

    def propose(self, view: OwnView, plan: Plan, target: float) -> G.Propose:
        cost = np.array([r.cost for r in view.scenario.resources])
        partner = _partner_scenario(view, self.partner_disclosures(view, self.use_history))
        if partner is not None:
            pr, pu, pv = feasible_run_vectors(partner, "agent_b")
            mine = np.nonzero(plan.value >= target - 1e-9)[0]
            best = None
            for i in mine:
                fits = np.all(pu + plan.usage[i] <= plan.supply, axis=1)
                j = int(np.argmax(np.where(fits, pv, -np.inf)))
                key = (pv[j], plan.value[i])
                if best is None or key > best[0]:
                    best = (key, i, j)
            if best is not None:
                self.why("propose_for_them", theirs=_n(best[0][0]), mine=_n(best[0][1]))
                return self.split_for(view, plan, plan.usage[best[1]], pu[best[2]])
        i = plan.cheapest_at_least(target, cost)
        self.why("propose_cheapest", value=_n(plan.value[i]))
        return self.split_for(view, plan, plan.usage[i])


class Reciprocator(ConcessionNegotiator):
    """Concedes only after the partner concedes: its target starts at V_max and drops by
    ``step`` x V_max each time the partner's latest proposal gives it more than the
    partner's previous one; it never drops on its own."""

    def __init__(self, seed=None, output="structured", *, step: float = 0.2, reservation: float = 0.3, **kw):
        super().__init__(seed, output, reservation=reservation, name="reciprocator", **kw)
        if not 0 < step <= 1:
            raise ValueError(f"step must be in (0, 1]; got {step}")
        self.step = step

    def target(self, view, plan):
        offers = [view.ids(dict(a.you)) for a in view.current.acts("them") if isinstance(a, G.Propose)]
        concessions = sum(1 for a, b in zip(offers, offers[1:]) if plan.value_of(b) > plan.value_of(a) + 1e-9)
        self.why("reciprocate", times=f"{concessions} time{'s' if concessions != 1 else ''}")
        vmax = plan.v_max
        return max(self.reservation * vmax, vmax * (1 - self.step * concessions))


# --------------------------------------------------------------------------- coordination agents

class OracleNegotiator(ResourceNegotiator):
    """Discloses its projects and asks for the partner's; once it knows them, computes
    the joint optimum with the exact solver and proposes it (among joint optima, the
    most even split of rewards; ties go to the partner). Accepts any proposal that is a
    joint optimum. Without an agreement it does not insist on its own rejected proposal:
    when the partner's last proposal claims a share it takes the best of what that leaves
    (a positive joint reward rather than an annulled round), else its own last proposal,
    else, in the joint oracle check (the partner's projects revealed, the joint-plan
    Situation), its part of the plan that check names, else its individual optimum."""

    name = "oracle"

    def final_claim(self, view, plan):
        agreed = self.agreed_claim(view)
        if agreed is not None:
            self.why("agreed_split")
            return agreed
        if self.last_partner_proposal(view) is not None:
            return self.fallback_claim(view, plan)
        mine = self.my_last_proposal(view)
        if mine is not None:
            self.why("own_proposal_stands")
            return view.ids(dict(mine.me))
        planned = self.joint_plan_claim(view, plan)
        if planned is not None:
            return planned
        self.why("nobody_proposed")
        return plan.best_claim()

    def joint_plan_claim(self, view: OwnView, plan: Plan) -> dict[str, int] | None:
        """In the joint oracle check: my part of the joint optimum that gives the lead (the
        first speaker: me when ``view.joint_plan == "lead"``) the highest reward, the first
        such in the solver's order (None outside that check or when the revealed projects
        do not make a scenario)."""
        if view.joint_plan is None or not view.revealed:
            return None
        base = view.scenario.to_dict()
        base["projects"] = {"agent_a": base["projects"]["agent_a"],
                            "agent_b": {n: {"requires": dict(req), "reward": r} for n, req, r in view.revealed}}
        try:
            partner = Scenario.from_dict(base)
            sol = solve(partner, method="enumerate")
        except ValueError:  # a malformed reveal, or a scenario past the enumeration bound
            return None
        if not sol.joint_optima:
            return None

        def worth(agent, runs):
            runs = dict(runs)
            return sum(p.reward * runs[p.name] for p in partner.projects_of(agent))

        values = [(worth("agent_a", ra), worth("agent_b", rb)) for ra, rb in sol.joint_optima]
        k = 0 if view.joint_plan == "lead" else 1  # whose reward breaks the tie: the lead's
        i = max(range(len(values)), key=lambda j: (values[j][k], -j))
        va, vb = values[i]
        mine = dict(sol.joint_optima[i][0])
        self.why("joint_plan", joint=_n(sol.joint_max), whom="me" if k == 0 else "them", mine=_n(va), theirs=_n(vb))
        return plan.claim(_usage(partner, "agent_a", mine))

    def joint(self, view: OwnView, plan: Plan):
        partner = _partner_scenario(view, self.partner_disclosures(view))
        if partner is None:
            return None, None
        sol = solve(partner, method="enumerate")
        return partner, sol

    def talk(self, view, plan):
        if self.partner_accepted_mine(view):
            self.why("optimum_accepted")
            return [], view.ids(dict(self.my_last_proposal(view).me))
        disclosed = any(isinstance(a, G.Disclose) for a in view.current.acts("me"))
        acts: list[G.Act] = [] if disclosed else self.disclose_all(view) + [G.Ask()]
        if not disclosed:
            self.why("share_and_ask")
        partner, sol = self.joint(view, plan)
        offer = self.last_partner_proposal(view)
        if partner is not None:
            self.why("joint_max", joint=_n(sol.joint_max))
            if offer is not None:
                mine = view.ids(dict(offer.you))
                theirs = view.ids(dict(offer.me))
                value = plan.value_of(mine) + _value(partner, "agent_b", theirs)
                if value >= sol.joint_max - 1e-9:
                    self.why("reaches_optimum")
                    return acts + [G.Accept()], mine
                self.why("short_of_optimum", value=_n(value))
            split = self._optimum_split(view, plan, partner, sol)
            return acts + ([G.Reject()] if offer is not None else []) + [split], None
        if offer is not None and plan.value_of(view.ids(dict(offer.you))) >= plan.v_max - 1e-9:
            self.why("best_already", value=_n(plan.v_max))
            return acts + [G.Accept()], view.ids(dict(offer.you))  # nothing to gain by refusing
        if not acts:
            self.why("ask_again")
            acts = [G.Ask()]
        return acts, None

    def fallback_claim(self, view, plan):
        """Without agreement: the best that leaves the partner's last claimed share
        untouched (no overdraw on what it announced)."""
        offer = self.last_partner_proposal(view)
        if offer is None:
            self.why("no_deal_own_best")
            return plan.best_claim()
        self.why("take_what_is_left")
        left = np.maximum(plan.supply - plan.vec(view.ids(dict(offer.me))), 0)
        return plan.claim(plan.usage[plan.best_within(plan.claim(left))])

    def _optimum_split(self, view, plan, partner: Scenario, sol) -> G.Propose:
        best = None
        for runs_a, runs_b in sol.joint_optima:
            ra, rb = dict(runs_a), dict(runs_b)
            va = sum(p.reward * ra[p.name] for p in partner.projects_of("agent_a"))
            vb = sum(p.reward * rb[p.name] for p in partner.projects_of("agent_b"))
            key = (abs(va - vb), va - vb)
            if best is None or key < best[0]:
                best = (key, ra, rb, va, vb)
        _, ra, rb, va, vb = best
        self.why("even_split", mine=_n(va), theirs=_n(vb))
        return self.split_for(view, plan, _usage(partner, "agent_a", ra), _usage(partner, "agent_b", rb))


def _usage(sc: Scenario, agent: str, runs: dict[str, int]) -> np.ndarray:
    R = np.array(sc.requirement_matrix(agent), dtype=np.int64)
    return np.array([runs[p.name] for p in sc.projects_of(agent)], dtype=np.int64) @ R


def _value(sc: Scenario, agent: str, share: dict[str, int]) -> float:
    runs, usage, value = feasible_run_vectors(sc, agent)
    vec = np.array([share.get(r.id, 0) for r in sc.resources])
    fits = np.all(usage <= vec, axis=1)
    return float(np.where(fits, value, -np.inf).max())


class SilentGreedy(ResourceNegotiator):
    """The no-talk reference: decides its individual optimum at its first turn, with one
    stock sentence (a talk turn cannot be empty), ignoring the partner entirely."""

    name = "greedy"

    def talk(self, view, plan):
        self.why("no_talk")
        return ["I'll go with my own best plan. Good luck!"], plan.best_claim()

    def final_claim(self, view, plan):
        self.why("own_best")
        return plan.best_claim()


_PHRASES = (
    "Hello! What are you planning to buy this round?",
    "I'm flexible. Which resources matter most to you?",
    "Let's avoid overdrawing the pool.",
    "I might need some of the expensive resource.",
)


class RandomNegotiator(ResourceNegotiator):
    """Chats with stock phrases and, each turn with probability ``p_decide`` (always at the
    decision prompt), decides on a uniformly random affordable run vector."""

    name = "random"

    def __init__(self, seed=None, output="structured", p_decide: float = 0.3, *, phrasing: str = "varied"):
        super().__init__(seed, output, phrasing=phrasing)
        if not 0.0 <= p_decide <= 1.0:
            raise ValueError(f"p_decide must be in [0, 1]; got {p_decide}")
        self.p_decide = p_decide

    def _pick(self, plan):
        self.why("by_chance")
        return plan.claim(plan.usage[int(self.rng.integers(len(plan.usage)))])

    def talk(self, view, plan):
        if self.rng.random() >= self.p_decide:
            self.why("keep_chatting")
            return [_PHRASES[int(self.rng.integers(len(_PHRASES)))]], None
        return ["Here is my decision."], self._pick(plan)

    def final_claim(self, view, plan):
        return self._pick(plan)


# --------------------------------------------------------------------------- failure modes

class FairSplitter(ResourceNegotiator):
    """Perfunctory fairness: proposes to split every resource of the pool equally, accepts
    an equal split (each resource within one unit), and takes its fair share whatever the
    projects need: it buys exactly its half (or the near-equal share it accepted) of as
    many resources as the budget and the type limit allow (:meth:`take_share`), not just
    what its runs consume. Two fair splitters thus request identical quantities of every
    resource both take."""

    name = "fair_splitter"

    def _half(self, plan: Plan) -> np.ndarray:
        return plan.supply // 2

    def talk(self, view, plan):
        if self.partner_accepted_mine(view):
            self.why("equal_accepted")
            return [], self.take_share(view, plan, plan.claim(self._half(plan)))
        offer = self.last_partner_proposal(view)
        half = self._half(plan)
        if offer is not None:
            mine, theirs = plan.vec(view.ids(dict(offer.you))), plan.vec(view.ids(dict(offer.me)))
            if np.all(np.abs(mine - theirs) <= 1):
                self.why("equal_offered")
                return [G.Accept()], self.take_share(view, plan, plan.claim(mine))
        self.why("equal_proposed")
        return [self.split_for(view, plan, half, plan.supply - half)], None

    def final_claim(self, view, plan):
        agreed = self.agreed_claim(view)
        if agreed is not None:
            self.why("all_of_share")
        else:
            self.why("half_of_pool")
        return self.take_share(view, plan, agreed if agreed is not None else plan.claim(self._half(plan)))


class Anchorer(ConcessionNegotiator):
    """Stubborn anchoring: open about its needs (discloses its projects at its first turn
    of every round), closed to renegotiation. It anchors on its first offer: in the first
    round (and when new projects arrive) it opens with its individual optimum, with the
    partner's best share of the rest when the partner has disclosed, repeats it, accepts
    only a share worth as much, and submits it. After any round that was not annulled
    (suboptimal ones included) it proposes exactly the previous round's joint allocation
    again, accepts nothing else, and submits its previous purchase. Only an annulled
    round -- the clear failure the paper's agents do correct -- makes it renegotiate,
    as a linear conceder."""

    def __init__(self, seed=None, output="structured", **kw):
        super().__init__(seed, output, name="anchorer", **kw)

    def target(self, view, plan):
        prev = view.previous
        after_annulled = (prev is not None and prev.result is not None and prev.result["kind"] == "annulled"
                          and not view.current.new_projects)
        return super().target(view, plan) if after_annulled else plan.v_max

    def anchor(self, view: OwnView):
        prev = view.previous
        if prev is None or prev.result is None or prev.result["kind"] == "annulled" or view.current.new_projects:
            return None
        return view.ids(prev.result["own"]), view.ids(prev.result["opponent"])

    def talk(self, view, plan):
        opening = [] if any(isinstance(a, G.Disclose) for a in view.current.acts("me")) else self.disclose_all(view)
        anchor = self.anchor(view)
        if anchor is None:
            acts, claim = super().talk(view, plan)
            return (opening + acts if claim is None else acts), claim
        mine, theirs = anchor
        if self.partner_accepted_mine(view):
            self.why("repeat_accepted")
            return [], mine
        offer = self.last_partner_proposal(view)
        if offer is not None and view.ids(dict(offer.you)) == mine:
            self.why("repeat_offered")
            return [G.Accept()], mine
        self.why("repeat_proposed")
        acts = [G.Reject()] if offer is not None else []
        return opening + acts + [self.split_for(view, plan, plan.vec(mine), plan.vec(theirs))], None

    def final_claim(self, view, plan):
        anchor = self.anchor(view)
        if anchor is not None:
            self.why("repeat_purchase")
            return anchor[0]
        return super().final_claim(view, plan)


class Deferent(ResourceNegotiator):
    """First-proposal deference: discloses its projects and asks what the partner needs,
    then accepts the first proposal it hears, unverified, and buys exactly the share it
    was offered (even one its projects cannot use); when that share is not purchasable
    (over budget or too many types) it buys the offered quantities of what it can
    (:meth:`take_share`). Without any proposal it falls back to its individual optimum.

    ``decide_early`` (default True) buys the moment it accepts, ending its talk; False says
    "Agreed." and buys the same share at the decision prompt, so that every purchase is
    answered there (``benchmarks/train_sft.py`` trains a small model on this agent's turns
    against the oracle: with ``name_runs=False`` every answer is a copy of what it read)."""

    name = "deferent"

    def __init__(self, seed: int | None = None, output: str = "structured", *, decide_early: bool = True,
                 name_runs: bool = True, phrasing: str = "varied"):
        super().__init__(seed, output, name_runs=name_runs, phrasing=phrasing)
        self.decide_early = bool(decide_early)

    def talk(self, view, plan):
        offers = [a for a in view.current.acts("them") if isinstance(a, G.Propose)]
        if offers:
            if not self.decide_early:
                agreed = self.agreed_claim(view)
                if agreed is not None:  # accepted at an earlier turn: nothing left to say
                    self.why("agreed_buy_share")
                    return [], self.take_share(view, plan, agreed)
                self.why("first_offer_later")
                return [G.Accept()], None
            self.why("first_offer_now")
            return [G.Accept()], self.take_share(view, plan, view.ids(dict(offers[0].you)))
        disclosed = any(isinstance(a, G.Disclose) for a in view.current.acts("me"))
        self.why("ask_needs" if disclosed else "share_then_ask_needs")
        return ([] if disclosed else self.disclose_all(view)) + [G.Ask()], None

    def final_claim(self, view, plan):
        agreed = self.agreed_claim(view)
        if agreed is not None:
            self.why("buy_agreed")
            return self.take_share(view, plan, agreed)
        self.why("nothing_to_accept")
        return plan.best_claim()


class Abandoner(ConcessionNegotiator):
    """Agreement abandonment: cooperative in speech (discloses its projects at its first
    turn, says "Agreed." to any proposal, and proposes splits as a linear conceder), then
    submits its individual optimum instead of the agreed share: after accepting the
    partner's proposal (proposer-side amnesia in the partner's eyes) or after the partner
    accepted its own (self-commitment abandonment)."""

    def __init__(self, seed=None, output="structured", **kw):
        super().__init__(seed, output, name="abandoner", **kw)

    def talk(self, view, plan):
        best = plan.best_claim()
        if self.partner_accepted_mine(view) or self.last_partner_proposal(view) is not None:
            self.why("accepted_but_own_best" if self.partner_accepted_mine(view) else "yes_but_own_best")
            return ([] if self.partner_accepted_mine(view) else [G.Accept()]), best
        acts, _ = super().talk(view, plan)
        if not any(isinstance(a, G.Disclose) for a in view.current.acts("me")):
            acts = self.disclose_all(view) + acts
        return acts, None

    def final_claim(self, view, plan):
        self.why("whatever_was_said")
        return plan.best_claim()


# --------------------------------------------------------------------------- presets

def _preset(cls, **kw):
    def build(seed=None, output="structured", phrasing="varied"):
        return cls(seed=seed, output=output, phrasing=phrasing, **kw)

    build.__doc__ = f"{cls.__name__}({', '.join(f'{k}={v!r}' for k, v in kw.items())})"
    return build


PRESETS = {
    "random": _preset(RandomNegotiator),
    "boulware": _preset(ConcessionNegotiator, exponent=4.0, name="boulware"),
    "linear": _preset(ConcessionNegotiator, exponent=1.0, name="linear"),
    "conceder": _preset(ConcessionNegotiator, exponent=0.25, name="conceder"),
    "noisy_linear": _preset(ConcessionNegotiator, exponent=1.0, noise=0.1, name="noisy_linear"),
    "satisficer": _preset(ConcessionNegotiator, aspiration=0.6, name="satisficer"),
    "hardliner": _preset(ConcessionNegotiator, aspiration=1.0, use_history=False, name="hardliner"),
    "reciprocator": _preset(Reciprocator),
    "oracle": _preset(OracleNegotiator),
    "greedy": _preset(SilentGreedy),
    "fair_splitter": _preset(FairSplitter),
    "anchorer": _preset(Anchorer),
    "deferent": _preset(Deferent),
    "abandoner": _preset(Abandoner),
    "amnesiac": _preset(ConcessionNegotiator, exponent=1.0, use_history=False, name="amnesiac"),
}
