"""The resource game's discrete menu and numeric observation.

Talk acts are sentences of the game's mini-grammar (:mod:`negotiation_env.games.resource.grammar`,
what the scripted negotiators say), read from the agent's own view of the dialogue
(:class:`~negotiation_env.games.resource.view.OwnView`) as the scripted agents read it; decisions are
the agent's own purchase options. An agent's **options** are its affordable run vectors
(:func:`~negotiation_env.games.resource.solver.feasible_run_vectors`: within budget,
type limit and supply) that no other option dominates (uses no more of any resource
for no less reward), sorted by reward (highest first), then cost, then runs; option
``k`` buys exactly what its runs consume and names those runs. Buying more is never
better (leftovers are worth nothing and risk an overdraw), and every joint optimum of
the game is reachable with non-dominated options. The menu keeps the first
``max_options`` (``D``) of them; ``D`` is the most any agent has in any scenario the
env can play (its rotation pool), capped at ``max_options``.

Menu (``n = 5 + 2 D``):

| index | label | act | legal when |
| --- | --- | --- | --- |
| 0 | ``pass`` | nothing (the action does not count) | the agent does not act now |
| 1 | ``disclose`` | ``My project_a needs 2 stone and 3 gold per run and pays 17.`` for every own project, then ``What are your projects?`` | talk |
| 2 | ``accept`` | ``Agreed.`` and decide at once on the best option inside the share the partner's latest proposal offers | talk, the partner proposed this round |
| 3 | ``reject`` | ``I can't accept that.`` | talk, the partner proposed this round |
| 4 .. 3+D | ``propose_k`` | ``I propose: you take <pool minus option k>, I take <option k>.`` | talk, option k exists |
| 4+D .. 3+2D | ``decide_k`` | decide on option k (``Here is my decision.``); in talk an early decision | talk or decision, option k exists |
| 4+2D | ``reflect`` | a templated reflection | the post-game reflection step |

Observation (``numeric`` view), index by index: the game's own feature vector first
(:mod:`negotiation_env.games.resource.features`: phase, active flag, round, turns,
budget, type limit, supply, cost, own project table, last purchases of both agents,
last outcome and reward, cumulative reward), then what the partner revealed this round
and the options (see :attr:`ResourceMenu.layout`'s entries and the table in the
README section "Training RL agents"). The partner block is read from the agent's own conversation
(what the partner said, as the reader reads it), so it respects context resets exactly as
the text does: disclosures count from the last change of projects on.

Recorded actions (the ``action`` column of the runner's transitions export) map back
onto this menu with :meth:`ResourceMenu.index_of` (exact where the menu sends the same
act, else the nearest entry), which is how an offline learner reads that table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from negotiation_env.games.resource import grammar as G
from negotiation_env.games.resource.features import FeatureLayout
from negotiation_env.games.resource.solver import feasible_run_vectors
from negotiation_env.games.resource.themes import THEMES
from negotiation_env.games.resource.view import OwnView

from . import Layout, Menu

__all__ = ["ResourceMenu", "Options", "options_of", "position_of_name"]

PASS, DISCLOSE, ACCEPT, REJECT = 0, 1, 2, 3
DECISION_SPEECH = "Here is my decision."
REFLECTION = ("We negotiated over {n} round(s). Coordinating on a split of the pool decided what each of us "
              "could run; disclosing projects and proposing splits that fit both of us is what pays.")


@dataclass(frozen=True)
class Options:
    """One agent's non-dominated options in one scenario, best first."""

    runs: np.ndarray  # [n, projects]
    usage: np.ndarray  # [n, resources]
    value: np.ndarray  # [n]

    def __len__(self) -> int:
        return len(self.value)

    def best_within(self, share: np.ndarray) -> int:
        """The first (best) option whose usage fits inside ``share``; the empty option always fits."""
        fits = np.all(self.usage <= share[None, :], axis=1)
        return int(np.argmax(fits))


def options_of(scenario, agent: str) -> Options:
    runs, usage, value = feasible_run_vectors(scenario, agent)
    cost = usage @ np.array([r.cost for r in scenario.resources], dtype=float)
    keep = []
    for i in range(len(value)):
        le = np.all(usage <= usage[i], axis=1) & (value >= value[i])
        strictly = np.any(usage < usage[i], axis=1) | (value > value[i])
        if not np.any(le & strictly):
            keep.append(i)
    keep = np.array(keep, dtype=np.int64)
    # reward high first, then cheaper, then the solver's run order (stable)
    order = keep[np.lexsort((keep, cost[keep], -value[keep]))]
    return Options(runs[order], usage[order], value[order])


#: every theme's display name -> its position (themes map names onto r1, r2, r3 in order)
_THEMED_POSITION = {name: i for names in THEMES.values() for i, name in enumerate(names)}


def position_of_name(name: str, n_resources: int) -> int | None:
    """The scenario position of a resource named in speech, whatever the game's theme:
    a theme's ``i``-th name is the scenario's ``i``-th resource, an abstract id ``rK``
    is position ``K - 1``; ``None`` for anything else."""
    name = name.lower()
    pos = _THEMED_POSITION.get(name)
    if pos is None and len(name) > 1 and name[0] == "r" and name[1:].isdigit():
        pos = int(name[1:]) - 1
    return pos if pos is not None and 0 <= pos < n_resources else None


@dataclass
class _Reading:
    phase: str
    options: Options
    names: list[str]  # resource display names in scenario order
    features: np.ndarray
    view: OwnView | None
    offer: np.ndarray | None  # the partner's latest proposal this round: my share
    claim: np.ndarray | None  # and the partner's
    accepted: bool
    rejected: bool
    asked: bool
    partner_messages: int
    own_disclosed: bool
    own_claim: np.ndarray | None
    agreed: np.ndarray | None
    partner_projects: list[tuple[np.ndarray, float]]


class ResourceMenu(Menu):
    game_name = "resource_v1"

    def __init__(self, game: Any, max_options: int = 16):
        super().__init__(game)
        if isinstance(max_options, bool) or not isinstance(max_options, int) or max_options < 1:
            raise ValueError(f"max_options must be an integer >= 1; got {max_options!r}")
        base = game.base_scenario
        self.R = len(base.resources)
        self.P = game.layout.n_projects
        self._options: dict[tuple[int, str], tuple[Any, Options]] = {}
        most = max(len(self._options_for(sc, a)) for sc in game.pool for a in game.possible_agents)
        self.D = D = min(max_options, most)
        self.PROPOSE = 4
        self.DECIDE = 4 + D
        self.REFLECT = 4 + 2 * D
        self.labels = tuple(
            ["pass", "disclose", "accept", "reject"]
            + [f"propose_{k}" for k in range(D)]
            + [f"decide_{k}" for k in range(D)]
            + ["reflect"]
        )
        R, P = self.R, self.P
        self.features = FeatureLayout(R, P)
        self.layout = Layout([
            ("features", self.features.size),
            ("reflection", 1),
            ("partner_messages", 1),
            ("partner_disclosed", 1),
            ("partner_requires", P * R),
            ("partner_reward", P),
            ("partner_proposed", 1),
            ("partner_offer", R),
            ("partner_claim", R),
            ("partner_offer_value", 1),
            ("partner_accepted", 1),
            ("partner_rejected", 1),
            ("partner_asked", 1),
            ("own_disclosed", 1),
            ("own_proposed", 1),
            ("own_claim", R),
            ("agreement", 1),
            ("agreed_share", R),
            ("option_exists", D),
            ("option_value", D),
            ("option_usage", D * R),
        ])

    # -- options ---------------------------------------------------------------------
    def _options_for(self, scenario, agent: str) -> Options:
        # keyed by identity; the entry holds the scenario, so its id cannot be reused
        key = (id(scenario), agent)
        hit = self._options.get(key)
        if hit is None or hit[0] is not scenario:
            hit = self._options[key] = (scenario, options_of(scenario, agent))
        return hit[1]

    def options(self, agent: str) -> Options:
        """The agent's options in the current round's scenario (uncapped)."""
        return self._options_for(self.game.scenario, agent)

    # -- reading the state -------------------------------------------------------------
    def read(self, agent: str) -> _Reading:
        game = self.game
        sc = game.scenario
        obs = game.observe(agent)
        names = [game.names.name(rid) for rid in sc.resource_ids]
        r = _Reading(
            phase=game.phase, options=self.options(agent), names=names, features=obs["features"], view=None,
            offer=None, claim=None, accepted=False, rejected=False, asked=False, partner_messages=0,
            own_disclosed=False, own_claim=None, agreed=None, partner_projects=[],
        )
        if not game.config.cheap_talk:
            return r
        view = OwnView.from_observation(obs)
        r.view = view
        cur = view.current
        them = cur.acts("them")
        r.partner_messages = sum(1 for w, _ in cur.messages if w == "them")
        prop = view.last_partner_proposal()
        if prop is not None:
            r.offer = self._vec(view.ids(dict(prop.you)))
            r.claim = self._vec(view.ids(dict(prop.me)))
        r.accepted = view.partner_accepted_mine()
        if cur.messages and cur.messages[-1][0] == "them":
            r.rejected = cur.reading(cur.messages[-1][1]).rejects
        r.asked = any(isinstance(a, G.Ask) for a in them)
        mine = cur.acts("me")
        r.own_disclosed = any(isinstance(a, G.Disclose) for a in mine)
        own = view.my_last_proposal()
        if own is not None:
            r.own_claim = self._vec(view.ids(dict(own.me)))
        agreed = view.agreed_claim()
        if agreed is not None:
            r.agreed = self._vec(agreed)
        for d in view.partner_disclosures().values():
            req = view.ids(dict(d.requires))
            if req and len(req) == len(d.requires) and d.reward is not None:
                r.partner_projects.append((self._vec(req), float(d.reward)))
        return r

    def _vec(self, by_pos: dict[str, int]) -> np.ndarray:
        """{"r0": 3} (OwnView's positional ids) -> a vector over resources."""
        v = np.zeros(self.R, dtype=np.int64)
        for rid, q in by_pos.items():
            v[int(rid[1:])] += int(q)
        return v

    # -- observation -----------------------------------------------------------------------
    def observation(self, agent: str) -> np.ndarray:
        r: _Reading = self.reading(agent)
        L, v = self.layout, self.layout.empty()
        v[L.slice("features")] = r.features
        v[L.slice("reflection")] = float(r.phase == "reflection")
        v[L.slice("partner_messages")] = r.partner_messages
        v[L.slice("partner_disclosed")] = len(r.partner_projects)
        req = np.zeros((self.P, self.R), dtype=np.float32)
        rew = np.zeros(self.P, dtype=np.float32)
        for i, (need, reward) in enumerate(r.partner_projects[: self.P]):
            req[i], rew[i] = need, reward
        v[L.slice("partner_requires")] = req.ravel()
        v[L.slice("partner_reward")] = rew
        if r.offer is not None:
            v[L.slice("partner_proposed")] = 1
            v[L.slice("partner_offer")] = r.offer
            v[L.slice("partner_claim")] = r.claim
            v[L.slice("partner_offer_value")] = r.options.value[r.options.best_within(r.offer)]
        v[L.slice("partner_accepted")] = float(r.accepted)
        v[L.slice("partner_rejected")] = float(r.rejected)
        v[L.slice("partner_asked")] = float(r.asked)
        v[L.slice("own_disclosed")] = float(r.own_disclosed)
        if r.own_claim is not None:
            v[L.slice("own_proposed")] = 1
            v[L.slice("own_claim")] = r.own_claim
        if r.agreed is not None:
            v[L.slice("agreement")] = 1
            v[L.slice("agreed_share")] = r.agreed
        k = min(self.D, len(r.options))
        ex = np.zeros(self.D, dtype=np.float32)
        ex[:k] = 1
        val = np.zeros(self.D, dtype=np.float32)
        val[:k] = r.options.value[:k]
        use = np.zeros((self.D, self.R), dtype=np.float32)
        use[:k] = r.options.usage[:k]
        v[L.slice("option_exists")] = ex
        v[L.slice("option_value")] = val
        v[L.slice("option_usage")] = use.ravel()
        return v

    # -- mask and actions --------------------------------------------------------------------
    def legal(self, agent: str) -> np.ndarray:
        r: _Reading = self.reading(agent)
        m = np.zeros(self.n, dtype=np.int8)
        k = min(self.D, len(r.options))
        if r.phase == "talk":
            m[DISCLOSE] = 1
            if r.offer is not None:
                m[ACCEPT] = m[REJECT] = 1
            m[self.PROPOSE: self.PROPOSE + k] = 1
        if r.phase in ("talk", "decision"):
            m[self.DECIDE: self.DECIDE + k] = 1
        if r.phase == "reflection":
            m[self.REFLECT] = 1
        return m

    def refused(self, agent: str) -> dict[str, Any]:
        return {"message": "", "thinking": "", "decide": 0}

    def structured(self, agent: str, index: int) -> dict[str, Any]:
        r: _Reading = self.reading(agent)
        if index == DISCLOSE:
            sc = self.game.scenario
            pos = {rid: j for j, rid in enumerate(sc.resource_ids)}
            acts: list[G.Act] = [
                G.Disclose(p.name, tuple((r.names[pos[rid]], u) for rid, u in p.requires), p.reward)
                for p in sc.projects_of(agent)
            ]
            return _talk(" ".join(G.render(a) for a in acts + [G.Ask()]))
        if index == ACCEPT:
            return _decide(r.options, r.options.best_within(r.offer), G.render(G.Accept()))
        if index == REJECT:
            return _talk(G.render(G.Reject()))
        if self.PROPOSE <= index < self.DECIDE:
            mine = r.options.usage[index - self.PROPOSE]
            supply = np.array([res.supply for res in self.game.scenario.resources], dtype=np.int64)
            prop = G.Propose(_units(r.names, supply - mine), _units(r.names, mine))
            return _talk(G.render(prop))
        if self.DECIDE <= index < self.REFLECT:
            return _decide(r.options, index - self.DECIDE, DECISION_SPEECH)
        if index == self.REFLECT:
            return {"message": REFLECTION.format(n=self.game.config.num_rounds), "thinking": "", "decide": 0}
        raise AssertionError(f"index {index} has no action")  # pragma: no cover - mask() guards


    # -- recorded actions -> menu indices ------------------------------------------------------
    def index_of(self, scenario, agent: str, action: dict | str | None, phase: str | None = None,
                 ) -> tuple[int | None, str]:
        """The menu index closest to a recorded structured action (the ``action`` column
        of the transitions export: ``{"speech", "decision": {"purchase", "runs"} | null}``)
        of ``agent`` in ``scenario``, and how it maps: ``"exact"`` (the menu sends the same
        act), ``"nearest"`` (the closest entry; see below) or ``"unmapped"`` (index None).

        Stateless, so it reads one row alone: a decision is ``accept`` when its speech
        accepts (the menu's accept buys the best option inside the partner's offer, which
        is what the scripted agents buy), else ``decide_k`` for the option ``k`` whose
        purchase it equals, or the nearest option (L1 over units, then higher reward)
        when it buys something no option buys (dominated, or beyond the first ``D``).
        Talk is read with :func:`negotiation_env.games.resource.reader.read`, first
        matching: a disclosure -> ``disclose``
        (exact when it discloses every project and asks, as the menu's does); a
        proposal -> ``propose_k`` for the option equal to (else nearest to) the speaker's
        own share; a bare question -> ``disclose``; a rejection -> ``reject``. A message
        combining acts maps to the first match and is ``nearest``: the menu sends one act
        a turn, and a disclosure goes first because the partner's answer depends on it
        (the oracle proposes the joint optimum only once it knows both sides) while a
        proposal can follow next turn; a counter-proposal ("I can't accept that. I
        propose: ...") is the proposal; an offer naming only the listener's share
        leaves the speaker the rest of the pool. Free text the reader does not read is
        unmapped.
        The reflection step maps to ``reflect``. Resource names are read in any theme
        (:func:`position_of_name`)."""
        if action is None:
            return None, "unmapped"
        if isinstance(action, str):
            from negotiation_env.core.jsontext import loads_document

            action = loads_document(action)  # bounded: a hostile row is a JSONTextError (a ValueError)
        if phase == "reflection":
            return self.REFLECT, "exact"
        opts = self._options_for(scenario, agent)
        speech = str(action.get("speech") or action.get("message") or "")
        acts = G.parse(speech)
        decision = action.get("decision")
        R = len(scenario.resources)
        if isinstance(decision, dict):
            if any(isinstance(a, G.Accept) for a in acts) and not any(isinstance(a, G.Propose) for a in acts):
                return ACCEPT, "exact"
            purchase = decision.get("purchase") or {}
            ids = list(scenario.resource_ids)
            vec = np.array([int(purchase.get(rid, 0)) for rid in ids], dtype=np.int64)
            k, exact = self._nearest(opts, vec)
            return self.DECIDE + k, "exact" if exact and speech in ("", DECISION_SPEECH) else "nearest"
        if any(isinstance(a, G.Disclose) for a in acts):
            disclosed = {a.project for a in acts if isinstance(a, G.Disclose)}
            full = disclosed == {p.name for p in scenario.projects_of(agent)} and isinstance(acts[-1], G.Ask)
            return DISCLOSE, "exact" if full and all(isinstance(a, (G.Disclose, G.Ask)) for a in acts) else "nearest"
        props = [a for a in acts if isinstance(a, G.Propose)]
        if props:
            # the speaker's share; an offer naming only the listener's leaves it the rest
            share, sign = (props[-1].me, 1) if props[-1].me is not None else (props[-1].you, -1)
            mine = np.zeros(R, dtype=np.int64) if sign > 0 else np.array(
                [r.supply for r in scenario.resources], dtype=np.int64)
            for name, q in share:
                pos = position_of_name(name, R)
                if pos is None:
                    return None, "unmapped"
                mine[pos] += sign * int(q)
            mine = np.maximum(mine, 0)
            k, exact = self._nearest(opts, mine)
            return self.PROPOSE + k, "exact" if exact and len(acts) == 1 else "nearest"
        if any(isinstance(a, G.Ask) for a in acts):
            return DISCLOSE, "nearest"
        if any(isinstance(a, G.Reject) for a in acts):
            return REJECT, "exact" if len(acts) == 1 else "nearest"
        return None, "unmapped"

    def _nearest(self, opts: Options, vec: np.ndarray) -> tuple[int, bool]:
        """The first-``D`` option with this usage (exact), else the nearest one."""
        k = min(self.D, len(opts))
        dist = np.abs(opts.usage[:k] - vec[None, :]).sum(axis=1)
        best = int(np.lexsort((-opts.value[:k], dist))[0])
        return best, bool(dist[best] == 0)


def _units(names: list[str], vec: np.ndarray) -> tuple[tuple[str, int], ...]:
    return tuple((n, int(q)) for n, q in zip(names, vec) if q)


def _talk(message: str) -> dict[str, Any]:
    return {"message": message, "thinking": "", "decide": 0}


def _decide(options: Options, k: int, message: str) -> dict[str, Any]:
    return {"message": message, "thinking": "", "decide": 1, "purchase": options.usage[k].astype(np.int64),
            "runs": options.runs[k].astype(np.int64), "auto_runs": 0}
