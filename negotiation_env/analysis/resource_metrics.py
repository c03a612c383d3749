"""Resource-game metrics of seed 000 (§4.2, §5, Appendix E) as pure functions of traces.

Input: game traces as JSON dicts (:mod:`negotiation_env.traces.schema`): the round
outcomes in ``trace["rounds"][i]["outcome"]`` (the game's ``info["last_round"]``:
overdraw, rewards, joint_reward, joint_max, efficiency, optimal, purchases, resource
display names, scenario) and, for the speech-based measures, the accepted steps in
``trace["steps"]`` (agent, round, phase, ``parsed.speech``, ``parsed.decision``).
Nothing here touches an env, so re-imported traces give the same tables.

Definitions (where the paper is brief, the rule is ours and stated here):

Outcome (per round, then per game or pooled):
    overdraw rate, joint efficiency (joint reward / M), optimum rate (joint reward = M);
    ``rounds_to_first_optimum`` (1-based round of the first optimal round, None if none);
    ``has_optimal_round``; positive score after overdraw: among rounds right after an
    overdrawn round, the share with joint reward > 0.
Process:
    Early decision (§5.2: "submitting a resource allocation before the 5-turn conversation
    limit is reached"): a round in which an agent submitted its purchase during cheap talk
    (an accepted talk-phase step carrying a decision) on its k-th talk turn of the round
    with k below the per-agent limit, ``cheap_talk_turns`` of the trace's config
    (:func:`turn_limit`). A decision on the decider's last allowed turn is not early: the
    limit is reached there (the first speaker's 5th turn too, though its partner has a
    turn left; the limit each agent decides before is its own). Turns are counted per
    agent as the env's ``turns_used`` counts them (see the proposal turn below). Over the
    kept rounds. Without a per-agent limit there is no "before the limit", so the rate is
    None (n/a, never 0) and ``early_decision_na`` says why: unlimited talk
    (``cheap_talk_turns = 0``; D.8: talk goes on until an agent decides, so every decision
    is made in talk), a no-talk game (no cheap talk to leave early; both decide at the
    decision prompt), and a trace whose config does not record ``cheap_talk_turns`` (the
    limit is not guessed: the paper's default 5 may not be what the game played). Pooled,
    the rate is over the rounds of games with a limit; ``early_decision_na`` counts the
    others by reason.
    Payoff alternation (§5.3, Table 4: "higher-reward agent flips between consecutive
    rounds", reported as "16.3% of adjacent round pairs"): over every adjacent round
    pair, the share where both rounds have a higher-reward agent and it differs. A round
    without one (equal rewards; an overdraw pays both 0) is a pair that does not flip,
    not a pair left out: the paper's denominator is all adjacent pairs. Sustained
    ("sustained 4-round alternation"): over every 4-round window, the share whose four
    rounds all have a higher-reward agent alternating A B A B (or B A B A). The seed's
    Appendix E.1 text is lost (only its heading is in seed 000), so §5.3 and Table 4's
    caption are the definition.
    Win-stay / lose-shift (E.2): win-stay = exact-match rate of consecutive joint
    allocations when the previous round was not overdrawn; lose-shift = 1 - exact-match
    when the previous round was not jointly optimal.
    Equal split (§5.4: "rounds where both agents request identical quantities of a
    shared resource"): both agents bought the same positive quantity of at least one
    resource. ``equal_split_suboptimal_share`` ("Of these, 48.8% co-occur with suboptimal
    outcomes"): among equal-split rounds, the share that are suboptimal; perfunctory
    fairness ("yielding an overall perfunctory fairness rate of 6.1%", i.e. 12.5% x
    48.8% of all rounds): an equal split in a suboptimal round, over all rounds.
    Suboptimal is the paper's outcome class between optimal and overdrawn (E.2: "not
    jointly optimal, meaning either overdrawn or suboptimal"): not optimal and not
    overdrawn -- §5.4's equal division is the "safe" one; two agents grabbing the same
    quantity and overdrawing is a collision, not a split.
    Exact repeat (§5.5: "agents repeat their exact joint allocation"): the joint
    allocation (both purchases) equals the previous round's, over rounds with a previous
    round; ``repeat_after_overdraw`` ("0.6% after overdraw"): the same over rounds after
    an overdrawn round (after a non-overdrawn round it is win-stay, "55.1%"); stubborn
    anchoring ("of the 339 rounds that were suboptimal and non-overdrawn ..., 29.2%
    repeat the same allocation unchanged"; §5.2: "Among suboptimal non-overdrawn ...
    rounds ..., stable dyads repeat their prior allocation in 60.8% of cases"): over the
    rounds that are themselves suboptimal and not overdrawn and have a previous round
    (adjacent, both kept), the share whose joint allocation repeats the previous round's.
    The condition is on the round that repeats or not, not on the round before it: a
    suboptimal round after an optimal or overdrawn one is counted, an optimal round after
    a suboptimal one is not. A game's first round has no allocation to repeat, so it is
    never counted. All are dyad-level: a repeat is the pair's, whoever insisted on it. The
    report splits stubborn anchoring by partner stability and M/C as §5.5 does.
    Explicit other-directed proposal (§5.5: "you take N of resource X"): a clause "you
    take/get/buy/have N X (and M Y ...)" naming resources of the game ("you take nothing"
    names none, so it is not one) in a cheap-talk message (speech sent with a
    decision-phase answer is recorded but never delivered, so it proposes nothing).
    ``proposal_rate``: rounds with one. Its turn (``first_proposal_turn``, pooled
    ``median_proposal_turn``, "median turn 1"): the proposer's own 1-based talk turn of
    the round in which it made the first one (1 = its first message of the round, whoever
    opened). Turns are counted per agent because the paper counts them so ("up to 5 turns
    each"; the limit is per agent), and as the env counts them (``turns_used``): every
    talk turn, a forfeited one (``talk_turn_forfeited``, no message delivered) included,
    so a proposal's turn number is the one the proposer's turn limit is reckoned in.
    First-proposal deference (§5.5: "20.4% of these proposals are followed exactly"):
    among rounds with such a proposal, the share whose addressee bought exactly the
    named quantities of the round's first one (``first_proposal_followed``; what else it
    bought is free). ``r1_deference_rate``: the same on round 1 of non-rotating games
    ("In round 1 of non-rotating games, before either agent has observed an allocation
    outcome"), with ``r1_deference_suboptimal_rate`` / ``r1_deference_optimal_rate``
    ("8.2% vs. 12.2%", which sum to the 20.4%) and over all rounds
    ``deference_suboptimal_rate`` / ``deference_optimal_rate`` ("15.5% of exact-match
    deferences produce suboptimal outcomes versus 16.9% optimal"): followed in a round
    that is not / is jointly optimal, over the same proposals (the paper's two parts add
    up to the whole, so here "suboptimal" is "not optimal"). Compliance per model
    (:func:`model_metrics`, "Sonnet 4.5 accepts 44% of proposals"): the same share over
    the proposals addressed to that model. ``deference_accepted_rate`` is our stricter
    variant (not the paper's): followed exactly after the addressee said yes
    (:func:`~.acceptance.accepts` on one of its later messages), which leaves out a party
    that never agreed but whose own best choice equals the offer.
    Agreement abandonment (rule-based flag, §5.6; per agent): an agent is committed to a
    share by an agreement -- a split or "you take N X" offer that the addressee accepts
    (:func:`~.acceptance.accepts` on a later message: "agreed", "deal", "no objections";
    "no deal", "I don't agree", "deal if ...", "that might work" are not) commits the addressee to the share offered and
    the proposer to its own share in that split -- or by a unilateral claim ("I'll take
    N X" in a sentence offering the partner nothing), until the partner rejects it
    (:func:`~.acceptance.rejects`: "I can't accept that", "no deal", "I don't agree"). A proposed split nobody accepted
    commits no one. The agent abandons when it buys MORE of some resource than its share
    allows: the share is a cap, since buying less of a claimed resource breaks nothing
    the partner relied on (abandonment is taking what was left to the partner; it
    concentrates in overdraw). In a sentence naming both shares ("you take 5 X, I take 3
    Y"), a resource named in one share only is 0 in the other, and "nothing" is 0 of
    every resource. A later commitment revises an earlier one resource by resource.

Repeat-based measures (WSLS, repeats, stubborn anchoring) are meant for non-rotating
games with one scenario; :func:`game_metrics` reports them as None when the rounds of a
game used different scenarios. The round-1 deference figures are None for a rotating
game (:func:`is_rotating`). Payoff alternation is computed for every game; Table 4 reads
it on non-rotating games.

Fallback rounds (the paper's Agent errors section: "Rounds containing heuristic fallbacks
are excluded from all analyses"): a round in which some agent gave no valid allocation
after every retry, so the env substituted one (:func:`fallback_rounds` reads the round
outcome's ``fallback`` -- ``{agent: substitute}``, a list of agents or ``True`` --, its
``fallback_agents`` list, and the round's ``heuristic_fallback`` / ``decision_auto_filled``
step events, so traces of every version are read). Every measure here leaves such rounds
out unless ``include_fallbacks=True``: per-round rates over the kept rounds; a measure
over round pairs or windows only uses pairs (windows) of kept rounds that are adjacent
in the game; round-1 deference needs round 1 kept. The game-level figures (rounds to the
first optimum, games with an optimal round) are over games without a left-out round,
since a substituted round may hide the first optimum. ``rounds`` counts the kept rounds;
``excluded_rounds`` the ones left out (``fallback_rounds``: rounds with a fallback, kept
or not).

Failed improvement (§5.8: "failed improvement across repeated interaction", Figure 6's
rule-based breakdown and Figure 7's "failed-improvement rounds"; the paper's exact
definition is not in seed 000, so this is ours): a round whose previous round (adjacent,
both kept) was not jointly optimal had room to improve. Its transition is ``optimal``
(it reaches M), ``improved`` (not optimal, efficiency above the previous round's) or
``failed`` (not optimal, efficiency not above the previous round's), read after an
overdrawn and after a suboptimal round separately (``after_overdraw_*`` /
``after_suboptimal_*``, over such pairs). Efficiency, not joint reward, so rotating games
compare rounds of different scenarios on one scale. Figure 7's failed-improvement
rounds are the failed ones that are themselves suboptimal (not overdrawn).

Main cohort and interventions (:func:`intervention_of`, :func:`protocol_of`; the rule is
the paper's §4-§5.7): a game belongs to the main cohort when cheap talk is on with the
default 5 turns, thinking is on, there is no transparency and no prompt intervention,
and it is not an oracle check (``solo``, ``joint_plan``). Partner stability (stable / shifting), project
rotation (fixed / rotating), M/C, first speaker, theme, reflection, ``json_suffix`` and
the fallback substitute are main factors or settings, not interventions. Anything else
is an intervention arm named by its parts joined with ``" + "``: ``no-talk``,
``unlimited-talk`` (``cheap_talk_turns = 0``), ``turns=N`` (another turn limit),
``no-thinking``, ``transparency=full|requirements|joint``,
``intervention=project_sharing|theory_of_mind``, ``oracle-check`` (``solo``),
``joint-oracle-check`` (``joint_plan``). The number of rounds
is the protocol (``rounds=N`` when not the paper's 4): not an intervention, but games of
different protocols are never pooled. An arm's matched baseline is the main-cohort games
of the same pairing, M/C, partner stability, rotation and protocol (:func:`match_key`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from negotiation_env.games.resource.acceptance import accepts, rejects
from negotiation_env.games.resource.reader import read
from negotiation_env.games.resource.spec import NAME as GAME

__all__ = ["RoundData", "rounds_of", "turn_limit", "NO_TALK", "UNLIMITED_TALK", "LIMIT_NOT_RECORDED",
           "extract_proposals", "commitments_in", "accepts", "rejects", "game_metrics",
           "kept_round_counts",
           "pooled_metrics", "pool", "model_metrics", "is_rotating", "fallback_rounds", "FALLBACK_EVENTS",
           "intervention_of", "protocol_of", "match_key", "round_kind", "round_classes", "token_usage", "error_rates", "ERROR_EVENTS",
           "understanding",
           "TRANSITION_KEYS"]


@dataclass
class RoundData:
    """One resolved round of one game: its outcome and what was said in it."""

    index: int  # 1-based
    outcome: Mapping[str, Any]
    speech: list[tuple[str, str]] = field(default_factory=list)  # (agent, speech) in order
    # whether the round had an early decision; None where the game has no per-agent turn
    # limit to decide before (:func:`turn_limit`)
    early: bool | None = False
    # the speaker's own 1-based talk turn of each entry of ``speech`` (its n-th talk turn of
    # the round, a forfeited turn counted as the env counts it), None for a message said
    # at the decision prompt
    turns: list[int | None] = field(default_factory=list)
    # the decider's own talk turn of a decision made during cheap talk, None without one
    decision_turn: int | None = None

    @property
    def purchases(self) -> dict[str, dict[str, int]]:
        return {a: {r: int(q) for r, q in p.items()} for a, p in self.outcome["purchases"].items()}

    @property
    def joint_allocation(self) -> tuple:
        return tuple(sorted((a, tuple(sorted(p.items()))) for a, p in self.purchases.items()))

    @property
    def winner(self) -> str | None:
        rw = self.outcome["rewards"]
        agents = sorted(rw)
        if len(agents) != 2 or rw[agents[0]] == rw[agents[1]]:
            return None
        return max(agents, key=lambda a: rw[a])


#: why a game has no early-decision rate (:func:`turn_limit`)
NO_TALK, UNLIMITED_TALK, LIMIT_NOT_RECORDED = "no talk", "unlimited talk", "turn limit not recorded"


def turn_limit(trace: Mapping[str, Any]) -> tuple[int | None, str | None]:
    """``(per-agent talk turns per round, None)`` from the trace's config
    (``cheap_talk_turns``), or ``(None, reason)`` when there is no limit to decide before:
    :data:`NO_TALK` (``cheap_talk`` is False), :data:`UNLIMITED_TALK` (``cheap_talk_turns
    = 0``) or :data:`LIMIT_NOT_RECORDED` (the config has no integer ``cheap_talk_turns``;
    the limit is not guessed)."""
    cfg = trace.get("config")
    cfg = cfg if isinstance(cfg, Mapping) else {}
    if cfg.get("cheap_talk") is False:
        return None, NO_TALK
    turns = cfg.get("cheap_talk_turns")
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
        return None, LIMIT_NOT_RECORDED
    if turns == 0:
        return None, UNLIMITED_TALK
    return turns, None


def _forfeited(step: Mapping[str, Any]) -> bool:
    return any(isinstance(ev, Mapping) and ev.get("type") == "talk_turn_forfeited" for ev in step.get("events") or [])


def rounds_of(trace: Mapping[str, Any]) -> list[RoundData]:
    """The trace's resolved rounds with their speech, each message's talk turn and the
    early-decision flags (module docstring)."""
    if trace.get("game") not in (None, GAME):
        raise ValueError(f"resource metrics need a resource-game trace; got game {trace.get('game')!r}")
    out = []
    for r in trace.get("rounds") or []:
        o = r["outcome"]
        for key in ("purchases", "rewards", "joint_reward", "joint_max", "overdraw", "optimal"):
            if key not in o:
                raise ValueError(f"round {r.get('round')} outcome lacks {key!r}; not a resource round outcome")
        out.append(RoundData(int(r["round"]), o))
    by_round = {rd.index: rd for rd in out}
    # (round, agent) -> talk turns used so far, as the env's turns_used counts them: every
    # accepted talk step and every forfeited one (refused retries before a forfeit are not turns)
    used: dict[tuple[int, str], int] = {}
    for st in trace.get("steps") or []:
        rd = by_round.get(st.get("round"))
        if rd is None:
            continue
        parsed = st.get("parsed")
        accepted = isinstance(parsed, Mapping)
        talk = st.get("phase") == "talk"
        turn = None
        if talk and (accepted or _forfeited(st)):
            key = (rd.index, st.get("agent"))
            turn = used[key] = used.get(key, 0) + 1
        if not accepted:
            continue
        speech = parsed.get("speech")
        if speech:
            rd.speech.append((st["agent"], str(speech)))
            rd.turns.append(turn)
        if talk and parsed.get("decision") is not None:
            rd.decision_turn = turn
    limit, _why = turn_limit(trace)
    for rd in out:
        # early: decided during talk on a turn before the decider's last allowed one
        rd.early = None if limit is None else (rd.decision_turn is not None and rd.decision_turn < limit)
    return out


def _names(outcome: Mapping[str, Any]) -> dict[str, str]:
    """display name (lower case) -> resource id; ids map to themselves too."""
    names = {str(k).lower(): k for p in outcome["purchases"].values() for k in p}
    for rid, name in (outcome.get("resource_names") or {}).items():
        names[str(name).lower()] = rid
    return names


def _offer(speech: str, outcome: Mapping[str, Any]) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    """The offer of ``speech`` as the reader reads it (its sentences' shares together):
    (listener's share, speaker's share), None for a share not named, ``{}`` for
    "nothing"; (None, None) without one."""
    offer = read(speech, _names(outcome)).offer
    return (None, None) if offer is None else (offer.you_dict(), offer.me_dict())


def extract_proposals(speech: str, outcome: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """(share offered to the listener, share the speaker claims) named in ``speech``, as
    :func:`~negotiation_env.games.resource.reader.read` reads its offer (a hypothetical,
    reported or negated allocation is none; "Me: 3 lithium. You: 6 copper." is one
    offer); empty dicts when none. Only quantities of the game's resources count."""
    you, me = _offer(speech, outcome)
    return dict(you or {}), dict(me or {})


def commitments_in(speech: str, outcome: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """The caps ``speech`` states, for the abandonment flag: (share offered to the listener,
    speaker's own share in that proposed split, speaker's unilateral claim). Quantities as
    :func:`extract_proposals` reads them, plus 0 of every resource for a share of
    "nothing" and, in an offer naming both shares, 0 for a resource named only in the
    other one. A claim in a message that also offers the listener a share is part of a
    proposal; one without ("I'll take 6 stone") is unilateral."""
    return _caps(*_offer(speech, outcome), outcome)


def _caps(y: dict[str, int] | None, m: dict[str, int] | None, outcome: Mapping[str, Any]
          ) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """:func:`commitments_in` of an offer already read."""
    every = {rid: 0 for rid in set(_names(outcome).values())}
    y = every.copy() if y == {} else y
    m = every.copy() if m == {} else m
    if y is not None and m is not None:
        return {**{r: 0 for r in m}, **y}, {**{r: 0 for r in y}, **m}, {}
    return dict(y or {}), {}, dict(m or {})


def _other(agent: str, agents: Iterable[str]) -> str:
    return next(a for a in agents if a != agent)


def _round_process(rd: RoundData) -> dict[str, Any]:
    agents = sorted(rd.outcome["purchases"])
    buys = rd.purchases
    equal = any(buys[agents[0]].get(r, 0) == buys[agents[1]].get(r, 0) > 0 for r in buys[agents[0]]) \
        if len(agents) == 2 else False
    first_prop = None
    # agent -> resource -> (cap, whether it is a unilateral claim the partner may still reject)
    commitments: dict[str, dict[str, tuple[int, bool]]] = {a: {} for a in agents}
    # listener -> (cap offered to it, the proposer's own share in that split), awaiting an answer
    pending: dict[str, tuple[dict[str, int], dict[str, int]]] = {}
    proposals = 0
    turns = rd.turns if len(rd.turns) == len(rd.speech) else [None] * len(rd.speech)
    for k, (agent, text) in enumerate(rd.speech):
        read_you, read_me = _offer(text, rd.outcome)  # read once: the proposal and the caps
        you = dict(read_you or {})
        # a proposal said at the decision prompt is recorded, never delivered: none to defer to
        you = you if turns[k] is not None else {}
        offer, split, solo = _caps(read_you, read_me, rd.outcome)
        if len(agents) == 2:
            listener = _other(agent, agents)
            if rejects(text):  # turned down: the partner's pending split and unilateral claims
                pending.pop(agent, None)
                commitments[listener] = {r: c for r, c in commitments[listener].items() if not c[1]}
            elif agent in pending and accepts(text):
                theirs, mine = pending.pop(agent)
                commitments[agent].update({r: (n, False) for r, n in theirs.items()})
                commitments[listener].update({r: (n, False) for r, n in mine.items()})
            if offer:
                pending[listener] = (offer, split)
            if you:
                proposals += 1
                if first_prop is None:
                    first_prop = (listener, you, k)
        commitments[agent].update({r: (n, True) for r, n in solo.items()})
    followed = accepted = turn = listener = None
    if first_prop is not None:
        listener, share, k = first_prop
        turn = turns[k]
        followed = all(buys[listener].get(r, 0) == n for r, n in share.items())
        accepted = any(a == listener and accepts(text) for a, text in rd.speech[k + 1:])
    abandoned = [a for a in agents if any(buys[a].get(r, 0) > n for r, (n, _own) in commitments[a].items())]
    return {"equal_split": equal, "proposals": proposals, "first_proposal_to": listener,
            "first_proposal_turn": turn, "first_proposal_followed": followed,
            "first_proposal_accepted": accepted, "abandonment": abandoned}


def _frac(xs: Sequence[bool]) -> tuple[int, int]:
    return int(sum(bool(x) for x in xs)), len(xs)


#: the failed-improvement counts: after an overdrawn / a suboptimal round, the next round's transition
TRANSITION_KEYS = tuple(f"after_{prev}_{to}" for prev in ("overdraw", "suboptimal")
                        for to in ("optimal", "improved", "failed"))

RATE_KEYS = ("overdraw_rate", "optimum_rate", "positive_after_overdraw", "early_decision_rate", "payoff_alternation",
             "sustained_alternation", "equal_split_rate", "perfunctory_fairness_rate", "equal_split_suboptimal_share",
             "proposal_rate", "deference_rate", "deference_accepted_rate", "deference_suboptimal_rate",
             "deference_optimal_rate", "r1_deference_rate", "r1_deference_suboptimal_rate", "r1_deference_optimal_rate",
             "abandonment_rate", "abandonment_in_overdraw", "win_stay", "lose_shift", "repeat_rate",
             "repeat_after_overdraw", "stubborn_anchoring") + TRANSITION_KEYS


def is_rotating(trace: Mapping[str, Any]) -> bool:
    """Whether the game rotated projects: ``config["rotation"] == "rotating"``, or (a trace
    without that field) its rounds used more than one scenario."""
    rotation = (trace.get("config") or {}).get("rotation")
    if rotation is not None:
        return rotation == "rotating"
    return len({(r.get("outcome") or {}).get("scenario") for r in trace.get("rounds") or []}) > 1


#: the step events that mark a fallback decision (the paper's Agent errors section)
FALLBACK_EVENTS = ("heuristic_fallback", "decision_auto_filled")


def _agents_of(flag: Any) -> list[str] | None:
    """The agents a round outcome's fallback field names; None when it marks none. A
    flag that says "fallback" without naming agents (``True``, a non-empty string) gives
    ``["?"]``."""
    if isinstance(flag, Mapping):
        return sorted(str(a) for a in flag) or None
    if isinstance(flag, (list, tuple)):
        return sorted(str(a) for a in flag) or None
    if flag is True or (isinstance(flag, str) and flag):  # a flag that names no agent (or only the substitute)
        return ["?"]
    return None


def fallback_rounds(trace: Mapping[str, Any]) -> dict[int, list[str]]:
    """``{round: [agents]}`` for the rounds of ``trace`` in which some agent's decision
    was a fallback: named by the round outcome's ``fallback`` (a dict, a list or
    ``True``) or ``fallback_agents``, or by a ``heuristic_fallback`` /
    ``decision_auto_filled`` event of a step of that round (any of them is enough)."""
    out: dict[int, set[str]] = {}
    for r in trace.get("rounds") or []:
        o = r.get("outcome") if isinstance(r.get("outcome"), Mapping) else {}
        for key in ("fallback", "fallback_agents"):
            who = _agents_of(o.get(key))
            if who:
                out.setdefault(int(r["round"]), set()).update(who)
    for st in trace.get("steps") or []:
        for ev in st.get("events") or []:
            if isinstance(ev, Mapping) and ev.get("type") in FALLBACK_EVENTS and st.get("phase") != "reflection":
                k = ev.get("round", st.get("round"))
                if isinstance(k, int) and not isinstance(k, bool):
                    out.setdefault(k, set()).add(str(ev.get("agent") or st.get("agent") or "?"))
    return {k: sorted(v - {"?"} if len(v) > 1 else v) for k, v in sorted(out.items())}


def intervention_of(trace: Mapping[str, Any]) -> str:
    """The game's intervention arm: ``""`` for the main cohort, else its parts joined by
    ``" + "`` (the rule is in the module docstring)."""
    cfg = trace.get("config") or {}
    parts = []
    if cfg.get("solo") is True:
        parts.append("oracle-check")
    if cfg.get("joint_plan") is True:
        parts.append("joint-oracle-check")
    if cfg.get("cheap_talk", True) is False:
        parts.append("no-talk")
    else:
        turns = cfg.get("cheap_talk_turns", 5)
        if turns == 0:
            parts.append("unlimited-talk")
        elif turns != 5:
            parts.append(f"turns={turns}")
    if cfg.get("thinking", True) is False:
        parts.append("no-thinking")
    if cfg.get("transparency", "none") not in (None, "none"):
        parts.append(f"transparency={cfg['transparency']}")
    if cfg.get("intervention") is not None:
        parts.append(f"intervention={cfg['intervention']}")
    return " + ".join(parts)


def protocol_of(trace: Mapping[str, Any]) -> str:
    """``""`` for the paper's 4 rounds, else ``"rounds=N"``."""
    rounds = (trace.get("config") or {}).get("num_rounds", 4)
    return "" if rounds == 4 else f"rounds={rounds}"


def match_key(trace: Mapping[str, Any]) -> tuple[str, Any, str, str, str]:
    """What an intervention game and its matched baseline share: (pairing, M/C level,
    partner stability, rotation, protocol)."""
    from .cells import resource_cell

    c = resource_cell(trace)
    return (c.pairing, c.mc, c.partner, c.rotation, protocol_of(trace))


def round_kind(outcome: Mapping[str, Any]) -> str:
    """``overdraw``, ``optimal`` or ``suboptimal`` (not optimal, not overdrawn)."""
    return "overdraw" if outcome["overdraw"] else ("optimal" if outcome["optimal"] else "suboptimal")


def _efficiency(o: Mapping[str, Any]) -> float | None:
    if isinstance(o.get("efficiency"), (int, float)):
        return float(o["efficiency"])
    if isinstance(o.get("joint_reward"), (int, float)) and isinstance(o.get("joint_max"), (int, float)):
        return o["joint_reward"] / o["joint_max"] if o["joint_max"] else 1.0
    return None


def _transition(prev_optimal: bool, prev_eff: float | None, optimal: bool, eff: float | None) -> str | None:
    """The failed-improvement class of a round after its previous one (module docstring);
    None when the previous round was optimal (nothing to improve) or an efficiency is unknown."""
    if prev_optimal:
        return None
    if optimal:
        return "optimal"
    if prev_eff is None or eff is None:
        return None
    return "improved" if eff > prev_eff + 1e-12 else "failed"


def round_classes(trace: Mapping[str, Any], *, include_fallbacks: bool = False) -> tuple[dict[int, dict[str, Any]], int]:
    """``({round: {"kind", "transition"}}, rounds left out)`` for the kept rounds of a
    resource trace (fallback rounds out unless ``include_fallbacks``); reads only each
    outcome's ``overdraw``, ``optimal`` and efficiency (``efficiency``, else joint reward
    / joint max), as :func:`game_metrics` classifies them."""
    fb = {} if include_fallbacks else fallback_rounds(trace)
    rounds = sorted((r for r in trace.get("rounds") or [] if isinstance(r.get("outcome"), Mapping)),
                    key=lambda r: int(r["round"]))
    out: dict[int, dict[str, Any]] = {}
    prev = None
    for r in rounds:
        k, o = int(r["round"]), r["outcome"]
        if k in fb:
            prev = None
            continue
        cur = (k, bool(o.get("optimal")), _efficiency(o))
        t = _transition(prev[1], prev[2], cur[1], cur[2]) if prev is not None and prev[0] == k - 1 else None
        out[k] = {"kind": round_kind({"overdraw": bool(o.get("overdraw")), "optimal": bool(o.get("optimal"))}),
                  "transition": t}
        prev = cur
    return out, sum(1 for r in rounds if int(r["round"]) in fb)



def _deference(proc: Sequence[Mapping[str, Any]], opt: Sequence[bool]) -> dict[str, tuple[int, int]]:
    """First-proposal deference counts over the rounds in ``proc`` that had an
    other-directed proposal: followed exactly, followed after saying yes, and followed in a
    round that was (not) jointly optimal."""
    rows = [(p, o) for p, o in zip(proc, opt) if p["first_proposal_followed"] is not None]
    return {"rate": _frac([p["first_proposal_followed"] for p, _ in rows]),
            "accepted": _frac([p["first_proposal_followed"] and p["first_proposal_accepted"] for p, _ in rows]),
            "suboptimal": _frac([p["first_proposal_followed"] and not o for p, o in rows]),
            "optimal": _frac([p["first_proposal_followed"] and o for p, o in rows])}


def _round_outcomes(trace: Mapping[str, Any], include_fallbacks: bool):
    """What :func:`game_metrics` and :func:`kept_round_counts` read first: the rounds,
    the fallback rounds, which rounds are kept, and each round's efficiency, overdraw and
    optimum."""
    every = rounds_of(trace)
    if not every:
        raise ValueError("the trace has no resolved rounds")
    fb = fallback_rounds(trace)
    keep = [include_fallbacks or r.index not in fb for r in every]
    eff_all = [float(r.outcome["efficiency"]) if "efficiency" in r.outcome else
               (r.outcome["joint_reward"] / r.outcome["joint_max"] if r.outcome["joint_max"] else 1.0) for r in every]
    over_all = [bool(r.outcome["overdraw"]) for r in every]
    opt_all = [bool(r.outcome["optimal"]) for r in every]
    return every, fb, keep, eff_all, over_all, opt_all


def kept_round_counts(trace: Mapping[str, Any], *, include_fallbacks: bool = False) -> dict[str, Any]:
    """The round figures of :func:`game_metrics` without its talk measures (no message is
    read): ``rounds`` (kept), ``excluded_rounds``, ``overdrawn`` and ``optimal`` (counts
    over the kept rounds: ``counts["overdraw_rate"][0]`` and ``counts["optimum_rate"][0]``)
    and ``efficiency_sum`` (of the kept rounds' ``per_round`` efficiencies, in round
    order). The runner's per-game summary uses it."""
    every, _fb, keep, eff_all, over_all, opt_all = _round_outcomes(trace, include_fallbacks)
    kept = [i for i in range(len(every)) if keep[i]]
    return {"rounds": len(kept), "excluded_rounds": len(every) - len(kept),
            "overdrawn": _frac([over_all[i] for i in kept])[0], "optimal": _frac([opt_all[i] for i in kept])[0],
            "efficiency_sum": sum(eff_all[i] for i in kept)}


def game_metrics(trace: Mapping[str, Any], *, include_fallbacks: bool = False) -> dict[str, Any]:
    """Per-game figures: each rate, and under ``counts`` its (events, opportunities) pair
    so games pool exactly; a rate with no opportunity is None. The early-decision rate
    and its counts are None in a game without a per-agent turn limit, whose reason is
    ``early_decision_na`` (:func:`turn_limit`; None where the rate applies). Fallback rounds
    (:func:`fallback_rounds`) are left out unless ``include_fallbacks`` (module
    docstring); a game whose every round is left out has ``rounds == 0`` and no rates."""
    every, fb, keep, eff_all, over_all, opt_all = _round_outcomes(trace, include_fallbacks)
    n = len(every)
    proc_all = [_round_process(r) for r in every]
    winners_all = [r.winner for r in every]
    kept = [i for i in range(n) if keep[i]]
    rounds = [every[i] for i in kept]
    eff = [eff_all[i] for i in kept]
    over = [over_all[i] for i in kept]
    opt = [opt_all[i] for i in kept]
    proc = [proc_all[i] for i in kept]
    # pairs (windows) of kept rounds that are adjacent in the game; a left-out round
    # breaks the sequence, it is not skipped over
    pairs = [i for i in range(n - 1) if keep[i] and keep[i + 1] and every[i + 1].index == every[i].index + 1]
    windows = [i for i in range(n - 3) if all(keep[i:i + 4]) and every[i + 3].index == every[i].index + 3]
    suboptimal = [not o and not v for o, v in zip(opt, over)]
    defer = _deference(proc, opt)
    limit, no_limit = turn_limit(trace)
    r1 = _deference(proc[:1], opt[:1]) if rounds and rounds[0].index == 1 and not is_rotating(trace) else None
    # every adjacent pair and every 4-round window is an opportunity; a tie (an overdraw
    # pays both 0) has no higher-reward agent, so a pair or window with one never flips
    w = winners_all
    transition: dict[int, str | None] = {}
    for i in pairs:
        if not opt_all[i]:
            transition[i + 1] = _transition(opt_all[i], eff_all[i], opt_all[i + 1], eff_all[i + 1])
    counts: dict[str, tuple[int, int] | None] = {
        "overdraw_rate": _frac(over),
        "optimum_rate": _frac(opt),
        "positive_after_overdraw": _frac([every[i + 1].outcome["joint_reward"] > 0 for i in pairs if over_all[i]]),
        "early_decision_rate": None if limit is None else _frac([bool(r.early) for r in rounds]),
        "payoff_alternation": _frac([w[i] is not None and w[i + 1] is not None and w[i] != w[i + 1] for i in pairs]),
        "sustained_alternation": _frac([all(w[i:i + 4]) and w[i] == w[i + 2] != w[i + 1] == w[i + 3]
                                        for i in windows]),
        "equal_split_rate": _frac([p["equal_split"] for p in proc]),
        "perfunctory_fairness_rate": _frac([p["equal_split"] and s for p, s in zip(proc, suboptimal)]),
        "equal_split_suboptimal_share": _frac([s for p, s in zip(proc, suboptimal) if p["equal_split"]]),
        "proposal_rate": _frac([p["proposals"] > 0 for p in proc]),
        "deference_rate": defer["rate"],
        "deference_accepted_rate": defer["accepted"],
        "deference_suboptimal_rate": defer["suboptimal"],
        "deference_optimal_rate": defer["optimal"],
        "r1_deference_rate": r1 and r1["rate"],
        "r1_deference_suboptimal_rate": r1 and r1["suboptimal"],
        "r1_deference_optimal_rate": r1 and r1["optimal"],
        "abandonment_rate": _frac([bool(p["abandonment"]) for p in proc]),
        "abandonment_in_overdraw": _frac([bool(p["abandonment"]) for p, o in zip(proc, over) if o]),
        "win_stay": None, "lose_shift": None, "repeat_rate": None, "repeat_after_overdraw": None,
        "stubborn_anchoring": None,
    }
    for prev in ("overdraw", "suboptimal"):
        after = [transition[i + 1] for i in pairs if i + 1 in transition and over_all[i] == (prev == "overdraw")]
        for to in ("optimal", "improved", "failed"):
            counts[f"after_{prev}_{to}"] = _frac([t == to for t in after])
    same_scenario = len({r.outcome.get("scenario") for r in every}) == 1
    if same_scenario and pairs:
        match = {i: every[i].joint_allocation == every[i + 1].joint_allocation for i in pairs}
        counts["win_stay"] = _frac([match[i] for i in pairs if not over_all[i]])
        counts["lose_shift"] = _frac([not match[i] for i in pairs if not opt_all[i]])
        counts["repeat_rate"] = _frac([match[i] for i in pairs])
        counts["repeat_after_overdraw"] = _frac([match[i] for i in pairs if over_all[i]])
        # of the rounds that are suboptimal and not overdrawn (with a previous kept round), the
        # share that repeat the previous round's allocation
        counts["stubborn_anchoring"] = _frac([match[i] for i in pairs if not opt_all[i + 1] and not over_all[i + 1]])
    # the game-level figures need every round: a substituted round may hide the first optimum
    whole = len(kept) == n
    first_opt = next((r.index for r, o in zip(rounds, opt) if o), None) if whole else None
    out: dict[str, Any] = {
        "rounds": len(kept),
        "rounds_total": n,
        "fallback_rounds": sum(r.index in fb for r in every),
        "excluded_rounds": n - len(kept),
        "efficiency": float(np.mean(eff)) if eff else None,
        "rounds_to_first_optimum": first_opt,
        "has_optimal_round": (first_opt is not None) if whole else None,
        # why early_decision_rate is None by rule (no per-agent turn limit), None when it applies
        "early_decision_na": no_limit,
    }
    for k in RATE_KEYS:
        c = counts[k]
        out[k] = c[0] / c[1] if c and c[1] else None
    out["counts"] = counts
    out["proposal_turns"] = [p["first_proposal_turn"] for p in proc if p["first_proposal_turn"] is not None]
    out["per_round"] = [{"round": every[i].index, "overdraw": over_all[i], "optimal": opt_all[i],
                         "efficiency": eff_all[i], "early": every[i].early, "kind": round_kind(every[i].outcome),
                         "transition": transition.get(i), "fallback": fb.get(every[i].index, []), **proc_all[i]}
                        for i in kept]
    return out


def pool(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Pool :func:`game_metrics` results over every kept round of every game (the paper's
    "x% of rounds"): each rate is total events / total opportunities (both under
    ``counts``); plus the game-level shares over the games with no left-out round
    (games with an optimal round, mean rounds to first optimum), the median turn of the
    rounds' first other-directed proposals, what was left out (``excluded_rounds``,
    ``games_excluded``: games with no kept round) and ``early_decision_na``: ``{reason:
    kept rounds}`` of the games without a per-agent turn limit (:func:`turn_limit`), which
    the early-decision rate does not count (the rate is None when every game is one)."""
    if not games:
        raise ValueError("no traces")
    rounds = [r for g in games for r in g["per_round"]]
    whole = [g for g in games if g["has_optimal_round"] is not None]
    out: dict[str, Any] = {
        "games": sum(1 for g in games if g["rounds"]),
        "games_total": len(games),
        "games_excluded": sum(1 for g in games if not g["rounds"]),
        "games_with_fallback": sum(1 for g in games if g["fallback_rounds"]),
        "rounds": len(rounds),
        "rounds_total": sum(g["rounds_total"] for g in games),
        "fallback_rounds": sum(g["fallback_rounds"] for g in games),
        "excluded_rounds": sum(g["excluded_rounds"] for g in games),
        "efficiency": float(np.mean([r["efficiency"] for r in rounds])) if rounds else None,
        "whole_games": len(whole),
        "games_with_optimal_round": sum(g["has_optimal_round"] for g in whole) / len(whole) if whole else None,
    }
    firsts = [g["rounds_to_first_optimum"] for g in whole if g["rounds_to_first_optimum"] is not None]
    out["mean_rounds_to_first_optimum"] = float(np.mean(firsts)) if firsts else None
    out["counts"] = {}
    for k in RATE_KEYS:
        cs = [g["counts"][k] for g in games if g["counts"][k] is not None]
        num, den = sum(c[0] for c in cs), sum(c[1] for c in cs)
        out[k] = num / den if den else None
        out["counts"][k] = (num, den)
    turns = [t for g in games for t in g["proposal_turns"]]
    out["median_proposal_turn"] = float(np.median(turns)) if turns else None
    # kept rounds of games without a per-agent turn limit, by reason: early decision is n/a
    # there (not 0), and the pooled rate is over the other rounds only
    na: dict[str, int] = {}
    for g in games:
        if g.get("early_decision_na") and g["rounds"]:
            na[g["early_decision_na"]] = na.get(g["early_decision_na"], 0) + g["rounds"]
    out["early_decision_na"] = dict(sorted(na.items()))
    return out


def pooled_metrics(traces: Iterable[Mapping[str, Any]], *, include_fallbacks: bool = False) -> dict[str, Any]:
    """:func:`pool` of :func:`game_metrics` over ``traces``."""
    return pool([game_metrics(t, include_fallbacks=include_fallbacks) for t in traces])


def model_metrics(traces: Iterable[Mapping[str, Any]], label: Any = None, *,
                  include_fallbacks: bool = False) -> dict[str, dict[str, Any]]:
    """Per-model figures of §5.4-5.5: for each model (``label(trace, agent)``, default the
    seat label of :func:`negotiation_env.analysis.cells.seat_label`), the dyad-level
    equal-split and perfunctory-fairness rates over the rounds of the games it played
    (a self-play game counts once), and its compliance: of the rounds' first
    other-directed proposals addressed to it, the share it followed exactly (and the
    share it followed after saying yes). Each figure comes with its (events,
    opportunities) pair under ``counts``. Fallback rounds are left out unless
    ``include_fallbacks``; a game with no kept round does not count."""
    if label is None:
        from .cells import seat_label as label
    acc: dict[str, dict[str, list[int]]] = {}
    keys = ("equal_split_rate", "perfunctory_fairness_rate", "equal_split_suboptimal_share")

    def add(model: str, key: str, c: tuple[int, int]) -> None:
        slot = acc.setdefault(model, {}).setdefault(key, [0, 0])
        slot[0] += c[0]
        slot[1] += c[1]

    for t in traces:
        g = game_metrics(t, include_fallbacks=include_fallbacks)
        if not g["rounds"]:
            continue
        seats = {a: label(t, a) for a in (t.get("agents") or sorted((t["rounds"][0]["outcome"]["purchases"])))}
        for model in set(seats.values()):
            add(model, "games", (1, 1))
            add(model, "rounds", (g["rounds"], g["rounds"]))
            for k in keys:
                add(model, k, g["counts"][k])
            add(model, "compliance_rate", (0, 0))
            add(model, "accepted_compliance_rate", (0, 0))
        for r in g["per_round"]:
            to = r["first_proposal_to"]
            if to is None or to not in seats:
                continue
            add(seats[to], "compliance_rate", (int(r["first_proposal_followed"]), 1))
            add(seats[to], "accepted_compliance_rate",
                (int(r["first_proposal_followed"] and r["first_proposal_accepted"]), 1))
    out = {}
    for model, c in sorted(acc.items()):
        row: dict[str, Any] = {"games": c["games"][0], "rounds": c["rounds"][0],
                               "proposals_received": c["compliance_rate"][1]}
        for k in keys + ("compliance_rate", "accepted_compliance_rate"):
            row[k] = c[k][0] / c[k][1] if c[k][1] else None
        row["counts"] = {k: tuple(v) for k, v in c.items()}
        out[model] = row
    return out


def _int(v: Any) -> int | None:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) else None


def token_usage(traces: Iterable[Mapping[str, Any]], label: Any = None, *,
                include_fallbacks: bool = False) -> dict[str, dict[str, dict[str, Any]]]:
    """Token counts per model and part of the game (Table 12): ``{model: {part: row}}``
    with ``part`` one of ``"rounds"`` (every talk and decision call), ``"talk"``,
    ``"decision"``, ``"round N"`` and ``"reflection"``. A row sums, over the steps (calls)
    whose ``tokens`` hold integer ``prompt_tokens`` and ``completion_tokens`` (retries
    included: they are billed), ``prompt``, ``completion`` and ``thinking``
    (``reasoning_tokens``, part of completion, summed over the calls that report it;
    ``thinking_calls`` counts them), ``calls``, and ``units``: the agent-rounds with such
    a call in that part (agent-games for the reflection). Steps of left-out fallback
    rounds are not counted unless ``include_fallbacks``; ``excluded_calls`` counts
    them per model (under part ``"rounds"``)."""
    if label is None:
        from .cells import seat_label as label
    acc: dict[str, dict[str, dict[str, Any]]] = {}
    for t in traces:
        fb = {} if include_fallbacks else fallback_rounds(t)
        for st in t.get("steps") or []:
            tok = st.get("tokens")
            if not isinstance(tok, Mapping):
                continue
            p, c = _int(tok.get("prompt_tokens")), _int(tok.get("completion_tokens"))
            if p is None or c is None:
                continue
            agent, k, phase = st.get("agent"), st.get("round"), st.get("phase")
            model = label(t, agent)
            parts = acc.setdefault(model, {})
            if phase != "reflection" and k in fb:
                row = parts.setdefault("rounds", _token_row())
                row["excluded_calls"] += 1
                continue
            unit = (t.get("game_id"), agent, "reflection" if phase == "reflection" else k)
            names = ["reflection"] if phase == "reflection" else ["rounds", str(phase), f"round {k}"]
            r = _int(tok.get("reasoning_tokens"))
            for name in names:
                row = parts.setdefault(name, _token_row())
                row["calls"] += 1
                row["prompt"] += p
                row["completion"] += c
                if r is not None:
                    row["thinking"] += r
                    row["thinking_calls"] += 1
                row["_units"].add(unit)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for model, parts in sorted(acc.items()):
        out[model] = {}
        for name, row in parts.items():
            row = dict(row)
            row["units"] = len(row.pop("_units"))
            out[model][name] = row
    return out


def _token_row() -> dict[str, Any]:
    return {"calls": 0, "prompt": 0, "completion": 0, "thinking": 0, "thinking_calls": 0, "excluded_calls": 0,
            "_units": set()}


#: the error events of the paper's Agent errors section, in its order: retriable ones
#: (re-prompted up to ``max_retries`` times) and the two that mark a fallback decision
ERROR_EVENTS = ("validation_error", "output_format_warning", "heuristic_fallback", "decision_auto_filled")
#: other events this game logs about an agent's output (ours, not the paper's)
OTHER_EVENTS = ("talk_turn_forfeited", "output_truncated", "reflection_skipped")


def error_rates(traces: Iterable[Mapping[str, Any]], label: Any = None) -> dict[str, dict[str, Any]]:
    """The Agent errors section's figures per model (``label(trace, agent)``, default the
    seat label): ``games`` it played, ``agent_rounds`` (resolved rounds x its seats: a
    self-play round counts twice), the count of each event of :data:`ERROR_EVENTS` and
    :data:`OTHER_EVENTS` its seats logged, ``events`` (the :data:`ERROR_EVENTS` total),
    ``games_with_error`` (games in which its seats logged one) and ``fallback_rounds``
    (agent-rounds with a fallback decision). Under ``"All"`` the same over all games
    (``games_with_error``: games with any error event). Fallback rounds are counted,
    not left out: they are what this table is about."""
    if label is None:
        from .cells import seat_label as label
    acc: dict[str, dict[str, Any]] = {}

    def row(name: str) -> dict[str, Any]:
        return acc.setdefault(name, {"games": 0, "agent_rounds": 0, "events": 0, "games_with_error": 0,
                                     "fallback_rounds": 0, **{k: 0 for k in ERROR_EVENTS + OTHER_EVENTS}})

    for t in traces:
        agents = list(t.get("agents") or [])
        seats = {a: label(t, a) for a in agents}
        n_rounds = len(t.get("rounds") or [])
        fb = fallback_rounds(t)
        hit: set[str] = set()
        total = row("All")
        total["games"] += 1
        total["agent_rounds"] += n_rounds * len(agents)
        for model in set(seats.values()):
            r = row(model)
            r["games"] += 1
            r["agent_rounds"] += n_rounds * sum(1 for m in seats.values() if m == model)
        for who in fb.values():
            for a in who:
                total["fallback_rounds"] += 1
                if a in seats:
                    row(seats[a])["fallback_rounds"] += 1
        for st in t.get("steps") or []:
            for ev in st.get("events") or []:
                kind = ev.get("type") if isinstance(ev, Mapping) else None
                if kind not in ERROR_EVENTS + OTHER_EVENTS:
                    continue
                a = ev.get("agent") or st.get("agent")
                for r in ([row(seats[a])] if a in seats else []) + [total]:
                    r[kind] += 1
                    if kind in ERROR_EVENTS:
                        r["events"] += 1
                if kind in ERROR_EVENTS:
                    hit.add(seats.get(a, "?"))
        for model in hit & set(seats.values()):
            row(model)["games_with_error"] += 1
        total["games_with_error"] += bool(hit)
    return dict(sorted(acc.items(), key=lambda kv: (kv[0] == "All", kv[0])))


def understanding(traces: Iterable[Mapping[str, Any]], label: Any = None) -> dict[tuple[str, str], dict[str, int]]:
    """How much of what its partners said a reporting policy read, per (pairing, reader
    label): ``messages`` (the partner's talk messages delivered to the reader: accepted
    talk steps with speech), ``unread`` (``unread_message`` events the reader logged:
    messages about the negotiation in which it read nothing) and ``games``. Only seats of
    policies that report unread messages are counted: the scripted resource negotiators
    (label or spec ``scripted:...``); another policy's silence says nothing."""
    if label is None:
        from .cells import seat_label as label
    from .cells import pairing

    out: dict[tuple[str, str], dict[str, int]] = {}
    for t in traces:
        agents = list(t.get("agents") or [])
        if len(agents) != 2:
            continue
        for reader in agents:
            info = (t.get("policies") or {}).get(reader) or {}
            if not any(str(info.get(k) or "").startswith("scripted:") for k in ("spec", "label")):
                continue
            row = out.setdefault((pairing(t), label(t, reader)), {"games": 0, "messages": 0, "unread": 0})
            row["games"] += 1
            for st in t.get("steps") or []:
                parsed = st.get("parsed")
                if st.get("agent") != reader and st.get("phase") == "talk" and isinstance(parsed, Mapping) \
                        and parsed.get("speech"):
                    row["messages"] += 1
                if st.get("agent") == reader:
                    row["unread"] += sum(1 for e in st.get("events") or []
                                         if isinstance(e, Mapping) and e.get("type") == "unread_message")
    return dict(sorted(out.items()))
