"""The words of the resource-game negotiators' private thinking and post-game reflection.

A negotiator's thinking is its actual reasoning (see :mod:`.negotiators`), but written
with one fixed sentence per move it lets a model trained on the traces learn the
sentence instead of the negotiation: the opening of an answer would tell which agent
wrote it, or whether it was the chosen or the rejected answer of a preference pair.
So every sentence here has several wordings of the same meaning, and each turn's
thinking opens with a sentence about the situation, drawn from one pool that every agent
shares: the round and the pool, the agent's budget and best reward, or its projects,
facts every agent sees alike at every turn, so the opening says what the agent sees,
not who it is. A sentence on what the partner said last follows it (what an agent has
heard depends on how it plays, so it never opens the thinking).

The wording is drawn from the agent's own phrasing stream, a generator derived from its
seed and the observation it answers, separate from the one its decisions use, so the
same seed gives the same words at the same observation and the decisions do not depend
on them.

Templates are :meth:`str.format` strings; each tuple of :data:`REASONS` lists the
wordings of one move, the first being the plain statement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from negotiation_env.games.resource import grammar as G

if TYPE_CHECKING:  # pragma: no cover
    from negotiation_env.games.resource.view import OwnView

__all__ = ["REASONS", "SITUATIONS", "REFLECTION_OPENINGS", "reason", "situation", "reflection", "pick"]


def pick(rng: np.random.Generator, options) -> str:
    """One of ``options``, uniformly, from ``rng``."""
    return options[int(rng.integers(len(options)))]


#: the wordings of each move's reasoning, by move
REASONS: dict[str, tuple[str, ...]] = {
    # -- every agent ---------------------------------------------------------------
    "buy": (
        "I buy {bought} to run {runs}, worth {value} to me.",
        "My purchase is {bought}, which runs {runs} and is worth {value} to me.",
        "So I buy {bought}: that runs {runs} and earns me {value}.",
        "Buying {bought} lets me run {runs}, which pays me {value}.",
    ),
    "agreed_share": (
        "We reached an agreement this round, so I buy my share of it.",
        "This round ended in an agreement; I buy my share of it.",
        "We have a deal for this round, so I buy my share of it.",
        "An agreement stands for this round, and I buy my part of it.",
    ),
    "keep_proposal": (
        "There is no agreement; I keep to my last proposal.",
        "No agreement was reached, so I buy what my last proposal gave me.",
        "Without an agreement I stay with my own last proposal.",
        "We did not agree; I keep to the share I last proposed.",
    ),
    "no_deal_no_proposal": (
        "There is no agreement and I made no proposal, so I buy the best plan for my own projects.",
        "Nobody agreed and I proposed nothing, so I buy what is best for my own projects.",
        "With no agreement and no proposal of mine on the table, I buy my own best plan.",
        "No agreement, and no proposal from me: I buy the plan that suits my projects best.",
    ),
    # -- concession ----------------------------------------------------------------
    "accepted_mine": (
        "They accepted my proposal, so I buy my share of it.",
        "They said yes to my proposal, so I buy my share.",
        "My proposal was accepted; I buy the share it gives me.",
        "They agreed to what I proposed, so I buy my part.",
    ),
    "target": (
        "My target now is {target}, out of the {vmax} my projects can make at best.",
        "I am aiming for {target} now; my projects can make {vmax} at most.",
        "At this point I want at least {target}, against a best possible {vmax} for my projects.",
        "My aim for now is {target} of the {vmax} my projects could earn at best.",
    ),
    "offer_meets_target": (
        "Their offer is worth {worth} to me, which meets my target, so I accept.",
        "What they offer me is worth {worth}, enough for my target, so I accept.",
        "Their offer gives me {worth}, which reaches my target: I accept.",
        "At {worth} for me, their offer meets my target, so I take it.",
    ),
    "offer_below_target": (
        "Their offer is worth only {worth} to me, below my target, so I turn it down.",
        "What they offer me is worth just {worth}, short of my target, so I refuse it.",
        "Their offer gives me only {worth}, under my target: I turn it down.",
        "At {worth} for me their offer falls below my target, so I say no.",
    ),
    "offer_last_round": (
        "Last round's allocation went through, so I offer the same split again.",
        "The split of last round went through, so I propose it once more.",
        "Last round's allocation worked, and I offer it again.",
        "Since last round's split went through, I put the same one forward again.",
    ),
    "propose_for_them": (
        "From the projects they disclosed, I propose the split that leaves them the most ({theirs}) "
        "while my share is worth {mine} to me.",
        "Knowing their projects, I pick the split that gives them the most ({theirs}) while mine is "
        "still worth {mine} to me.",
        "Among the splits that meet my target, I propose the one that leaves them the most ({theirs}); "
        "my share is worth {mine} to me.",
        "Their disclosed projects let me leave them as much as possible ({theirs}) while my share is "
        "worth {mine} to me.",
    ),
    "propose_cheapest": (
        "I ask for the cheapest share worth at least my target ({value} to me) and offer them the rest of the pool.",
        "I ask for the cheapest share that meets my target ({value} to me) and leave them the rest of the pool.",
        "My proposal claims the least costly share worth my target ({value} to me); the rest of the pool is theirs.",
        "I claim the cheapest share worth at least my target, {value} to me, and offer them everything else.",
    ),
    "reciprocate": (
        "They have improved their offer to me {times} this round, and I give ground only as far as they do.",
        "Their offers to me have got better {times} this round; I concede only as much as they have.",
        "I match their concessions: they have improved their offer to me {times} this round.",
        "So far this round they have raised their offer to me {times}, and I move only as far as they move.",
    ),
    # -- joint optimum -------------------------------------------------------------
    "agreed_split": (
        "We agreed on a split this round, so I buy my share of it.",
        "A split was agreed this round; I buy my share of it.",
        "Since we agreed on a split this round, I buy the share it gives me.",
        "This round's split is agreed, so I buy my part of it.",
    ),
    "own_proposal_stands": (
        "There is no agreement and they proposed nothing, so I buy the share I proposed.",
        "No agreement, and they made no proposal, so I buy the share I proposed.",
        "They proposed nothing and we did not agree; I buy the share from my own proposal.",
        "Without an agreement or a proposal from them, I buy what I proposed for myself.",
    ),
    "nobody_proposed": (
        "Nobody proposed a split, so I buy the best plan for my own projects.",
        "No split was proposed by either of us, so I buy my own best plan.",
        "Neither of us proposed a split; I buy what is best for my own projects.",
        "With no proposal on the table, I buy the plan that suits my own projects best.",
    ),
    "joint_plan": (
        "Both parties' projects are known: the best joint reward this round is {joint}. Of the plans that "
        "reach it, the one that gives {whom} the most is {mine} for me and {theirs} for them; I buy my part of it.",
        "I know both sides' projects, so the best joint reward this round is {joint}. Among the plans reaching "
        "it I take the one best for {whom}, {mine} for me and {theirs} for them, and buy my part.",
        "With both parties' projects revealed, the joint optimum this round is {joint}; of its plans, the one "
        "that favours {whom} gives {mine} to me and {theirs} to them, and I buy my part of it.",
    ),
    "optimum_accepted": (
        "They accepted the jointly optimal split I proposed, so I buy my share of it.",
        "My jointly optimal proposal was accepted, so I buy my share.",
        "They agreed to the jointly optimal split I put forward; I buy my part.",
        "They said yes to my jointly optimal split, so I buy the share it gives me.",
    ),
    "share_and_ask": (
        "I share my projects and ask for theirs: with both known I can compute the joint optimum.",
        "I tell them my projects and ask for theirs, since knowing both lets me work out the joint optimum.",
        "To compute the best joint plan I need both sides' projects, so I share mine and ask for theirs.",
        "I disclose my projects and ask about theirs; with both known I can find the joint optimum.",
    ),
    "joint_max": (
        "With their projects known, the best joint reward this round is {joint}.",
        "Now that I know their projects, the most we can make together this round is {joint}.",
        "Their projects are known, so the joint optimum this round is {joint}.",
        "Knowing their projects, I find that the best joint reward this round is {joint}.",
    ),
    "reaches_optimum": (
        "Their proposal reaches it, so I accept.",
        "Their proposal achieves that, so I accept.",
        "What they propose reaches the joint optimum; I accept.",
        "Their split is jointly optimal, so I say yes.",
    ),
    "short_of_optimum": (
        "Their proposal would make only {value} together, so I turn it down.",
        "Together we would make only {value} under their proposal, so I refuse it.",
        "Their split falls short of it at {value} in total; I turn it down.",
        "Their proposal totals only {value} for both of us, so I say no.",
    ),
    "best_already": (
        "Their offer already gives me my best reward of {value}; nothing to gain by refusing.",
        "Their offer already gives me {value}, the most I can get, so refusing gains nothing.",
        "I cannot do better than the {value} their offer gives me, so I accept.",
        "With {value}, their offer already matches my best reward; there is nothing to gain by saying no.",
    ),
    "ask_again": (
        "I still do not know their projects, so I ask again.",
        "Their projects are still unknown to me, so I ask once more.",
        "I have not learned their projects yet and ask again.",
        "Without their projects I cannot plan jointly, so I ask for them again.",
    ),
    "no_deal_own_best": (
        "There is no agreement, so I buy the best plan for my own projects.",
        "Without an agreement, I buy my own best plan.",
        "We did not agree, so I buy what is best for my own projects.",
        "No agreement was reached; I buy the plan that suits my projects best.",
    ),
    "take_what_is_left": (
        "There is no agreement; I take the best I can from what their last proposal leaves, "
        "so that we do not overdraw the pool.",
        "Without an agreement I take the best of what their last proposal leaves me, to avoid overdrawing the pool.",
        "We did not agree, so I stay inside what their last proposal leaves and buy the best of it; that keeps "
        "the pool from being overdrawn.",
        "No agreement: to keep us from overdrawing, I buy the best I can from what their last proposal leaves.",
    ),
    "even_split": (
        "Among the jointly optimal splits I propose the one with the most even rewards: "
        "{mine} for me and {theirs} for them.",
        "Of the jointly optimal splits, I propose the most even one: {mine} for me and {theirs} for them.",
        "I propose the jointly optimal split whose rewards are closest to even, {mine} for me and {theirs} for them.",
        "Several splits are jointly optimal; I propose the most even, with {mine} for me and {theirs} for them.",
    ),
    # -- own plan only -------------------------------------------------------------
    "no_talk": (
        "I do not negotiate: I buy the plan that is best for my own projects, whatever they need.",
        "I will not bargain; I buy my own best plan, whatever they need.",
        "Negotiating is not my plan: I buy what is best for my own projects, regardless of their needs.",
        "Their needs do not enter my choice; I skip the talk and buy my own best plan.",
    ),
    "own_best": (
        "I buy the plan that is best for my own projects, whatever they need.",
        "I buy my own best plan, whatever they need.",
        "What they need does not matter to my choice: I buy the best plan for my projects.",
        "I go with the plan that is best for my own projects, regardless of their needs.",
    ),
    "by_chance": (
        "I pick one of my affordable plans by chance.",
        "I choose one of the plans I can afford by chance.",
        "Any affordable plan will do; I let chance pick one.",
        "I draw one of my affordable plans by lot.",
    ),
    "keep_chatting": (
        "I am not deciding yet; I keep the conversation going.",
        "No decision yet; I keep talking.",
        "I hold off deciding and keep the conversation going.",
        "It is not time for me to decide yet, so I keep chatting.",
    ),
    # -- equal split ---------------------------------------------------------------
    "equal_accepted": (
        "They accepted an equal split, so I buy my half of the pool.",
        "They said yes to splitting everything equally, so I buy my half.",
        "My equal split was accepted; I buy my half of the pool.",
        "They agreed to halve every resource, so I buy my half.",
    ),
    "equal_offered": (
        "Their proposal splits every resource equally, so I accept and buy my share.",
        "What they propose divides every resource evenly, so I accept and buy my share.",
        "Their split is equal on every resource; I accept it and buy my part.",
        "Every resource is shared equally in their proposal, so I say yes and buy my share.",
    ),
    "equal_proposed": (
        "An equal split of every resource is fair, so I propose that.",
        "Splitting every resource in half is fair, and that is what I propose.",
        "I propose halving every resource, since an equal split is fair.",
        "Fair means equal to me, so I propose an equal split of every resource.",
    ),
    "all_of_share": (
        "We agreed on a split, so I buy all of my share.",
        "A split was agreed, so I buy the whole of my share.",
        "We have an agreed split; I buy all of my part.",
        "Since we agreed on a split, I buy my full share of it.",
    ),
    "half_of_pool": (
        "There is no agreement, so I buy my half of the pool.",
        "Without an agreement I buy half of the pool.",
        "We did not agree, so my purchase is my half of the pool.",
        "No agreement was reached, so I buy my half of the pool.",
    ),
    # -- last round's allocation ---------------------------------------------------
    "repeat_accepted": (
        "They accepted last round's allocation again, so I buy my share of it.",
        "They agreed to repeat last round's allocation, so I buy my share.",
        "Last round's allocation was accepted once more; I buy my part of it.",
        "They said yes to last round's split again, so I buy my share of it.",
    ),
    "repeat_offered": (
        "Their proposal repeats last round's allocation, so I accept.",
        "What they propose is last round's allocation again, so I accept.",
        "Their split is the same as last round's, so I say yes.",
        "They proposed last round's allocation once more; I accept it.",
    ),
    "repeat_proposed": (
        "Last round's allocation stands: I propose it again and accept nothing else.",
        "I keep last round's allocation: I propose it again and will accept nothing else.",
        "Last round's split is the one I hold to; I propose it again and refuse anything else.",
        "I stick to last round's allocation, propose it once more, and accept no other split.",
    ),
    "repeat_purchase": (
        "I buy what I bought last round.",
        "I repeat last round's purchase.",
        "I buy the same as last round.",
        "My purchase is the one I made last round.",
    ),
    # -- first proposal ------------------------------------------------------------
    "agreed_buy_share": (
        "We agreed on a split, so I buy my share of it.",
        "A split was agreed, so I buy my share.",
        "Since we agreed on a split, I buy the share it gives me.",
        "We have agreed on a split; I buy my part of it.",
    ),
    "first_offer_later": (
        "They made a proposal: I accept the first one, and I will buy exactly the share it offers me.",
        "They proposed a split; I accept the first proposal I hear and will buy exactly the share it gives me.",
        "I go with the first proposal they made: I accept it and will buy exactly what it offers me.",
        "Their first proposal is the one I take; I accept, and I will buy exactly the share it offers.",
    ),
    "first_offer_now": (
        "They made a proposal: I accept the first one and buy exactly the share it offers me.",
        "They proposed a split; I accept the first proposal I hear and buy exactly the share it gives me.",
        "I go with the first proposal they made: I accept it and buy exactly what it offers me.",
        "Their first proposal is the one I take; I accept and buy exactly the share it offers.",
    ),
    "ask_needs": (
        "I ask what they need.",
        "I ask about their needs.",
        "I want to hear what they need, so I ask.",
        "I ask them what their projects need.",
    ),
    "share_then_ask_needs": (
        "I ask what they need, after sharing my projects.",
        "I share my projects and then ask what they need.",
        "I tell them my projects and ask about their needs.",
        "After sharing my projects, I ask what they need.",
    ),
    "buy_agreed": (
        "I buy the share we agreed on.",
        "I buy the agreed share.",
        "My purchase is the share we agreed on.",
        "I stick to the share we agreed and buy it.",
    ),
    "nothing_to_accept": (
        "Nobody proposed a split I could accept, so I buy the best plan for my own projects.",
        "There was no proposal to accept, so I buy my own best plan.",
        "Without a proposal to accept, I buy what is best for my own projects.",
        "Nobody proposed a split, so I fall back on the best plan for my own projects.",
    ),
    # -- saying yes, buying otherwise ------------------------------------------------
    "accepted_but_own_best": (
        "They accepted my proposal, but I buy the best plan for my own projects instead.",
        "My proposal was accepted, yet I buy my own best plan instead of my share.",
        "They agreed to my split; I buy the plan best for my own projects all the same.",
        "They said yes to my proposal, but I buy my own best plan rather than my share.",
    ),
    "yes_but_own_best": (
        "I say yes to their proposal, but I buy the best plan for my own projects instead.",
        "I agree to their proposal in words, yet I buy my own best plan.",
        "I accept what they propose, but what I buy is the plan best for my own projects.",
        "I tell them yes, but I buy my own best plan instead of the share they offer.",
    ),
    "whatever_was_said": (
        "Whatever was said, I buy the best plan for my own projects.",
        "Whatever we said, I buy my own best plan.",
        "Regardless of the talk, I buy the plan that is best for my projects.",
        "The conversation aside, I buy what is best for my own projects.",
    ),
}


def reason(key: str, rng: np.random.Generator, **fields) -> str:
    """One wording of the move ``key``, drawn from ``rng``, filled with ``fields``."""
    return pick(rng, REASONS[key]).format(**fields)


#: the sentences on the situation that start a turn's thinking, by what they describe:
#: ``round``, ``holdings`` and ``projects`` open it (every wording is long enough to fill
#: an answer's first words on its own), ``silent`` or ``heard`` follows
SITUATIONS: dict[str, tuple[str, ...]] = {
    "round": (
        "Round {round} of {rounds}: the pool holds {pool}.",
        "This is round {round} of {rounds}, with {pool} in the pool.",
        "In round {round} of {rounds} the supply is {pool}.",
        "We are in round {round} of {rounds}; the pool has {pool}.",
    ),
    "holdings": (
        "My budget this round is ${budget}, and my projects can make at most {vmax}.",
        "I have ${budget} to spend this round; the most my projects can earn is {vmax}.",
        "With a budget of ${budget} this round, the best my projects can make is {vmax}.",
        "This round I can spend ${budget}, and my projects are worth at most {vmax}.",
    ),
    "projects": (
        "I hold {count} projects: {by_name} per run.",
        "My projects pay {by_reward} per run.",
        "Per run, my projects pay {by_reward}.",
        "My projects and what each pays per run: {by_name}.",
    ),
    "silent": (
        "They have not said anything yet this round.",
        "So far this round they have not said anything.",
        "They have not spoken yet in this round of talks.",
        "I have heard nothing from them yet this round.",
    ),
    "heard": (
        "Their last message {said}.",
        "In their latest message they {said}.",
        "The last thing they said: they {said}.",
        "Most recently, they {said}.",
    ),
}

#: the kinds of opening, drawn alike
_OPENINGS = ("round", "holdings", "projects")


def _n(x: float) -> str:
    x = round(float(x), 1)
    return str(int(x)) if x.is_integer() else f"{x:.1f}"


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _heard(acts: list[G.Act]) -> str:
    """What the partner's message did, as a predicate ("proposed that I take ...")."""
    parts: list[str] = []
    for a in acts:
        if isinstance(a, G.Disclose):
            part = "shared their projects"
        elif isinstance(a, G.Need):
            part = "said what they need"
        elif isinstance(a, G.Ask):
            part = "asked about my projects"
        elif isinstance(a, G.Propose):
            part = f"proposed that I take {G.render_units(a.you or ())} and they take {G.render_units(a.me or ())}"
        elif isinstance(a, G.Accept):
            part = "accepted my proposal"
        else:
            part = "turned down my proposal"
        if part not in parts:
            parts.append(part)
    return _listing(parts) if parts else "held no proposal and no answer to one"


def situation(view: "OwnView", supply, v_max: float, rng: np.random.Generator) -> str:
    """The sentences on the situation that start a turn's thinking: one fact every agent
    sees alike (the round and the pool, the budget and the best own reward, or the own
    projects), then what the partner said last this round; the kind and the wordings
    drawn from ``rng``."""
    kind = pick(rng, _OPENINGS)
    if kind == "round":
        pool = G.render_units(list(zip(view.resource_names, (int(q) for q in supply))))
        opening = pick(rng, SITUATIONS["round"]).format(
            round=view.round_index + 1, rounds=max(view.num_rounds, view.round_index + 1), pool=pool)
    elif kind == "holdings":
        opening = pick(rng, SITUATIONS["holdings"]).format(budget=_n(view.scenario.budget), vmax=_n(v_max))
    else:
        projects = view.scenario.projects_of("agent_a")
        opening = pick(rng, SITUATIONS["projects"]).format(
            count=len(projects), by_name=_listing([f"{p.name} pays {_n(p.reward)}" for p in projects]),
            by_reward=_listing([f"{_n(p.reward)} for {p.name}" for p in projects]))
    said = [acts for who, acts in view.current.message_acts() if who == "them"]
    if not said:
        return opening + " " + pick(rng, SITUATIONS["silent"])
    return opening + " " + pick(rng, SITUATIONS["heard"]).format(said=_heard(said[-1]))


#: the openings of the post-game reflection, shared by every agent and long enough to
#: fill its first words
REFLECTION_OPENINGS = (
    "The game is over after {rounds} rounds, and here is what I take away from it.",
    "All {rounds} rounds have been played, so it is time to look back on them.",
    "Now that the {rounds} rounds are done, I look back at how they went for me.",
    "Looking back over the whole game of {rounds} rounds, here is my summary.",
)
_EARNED = (
    "I earned {earned} over the {seen}{annulled}.",
    "Over the {seen}, I earned {earned}{annulled}.",
    "My total over the {seen} is {earned}{annulled}.",
)
_LESSON = (
    "Agreeing on a split that covers both parties' projects before buying is what pays.",
    "What pays is agreeing, before buying, on a split that covers both parties' projects.",
    "Settling, before buying, on a split that covers both parties' projects is what pays.",
)


def reflection(rounds: int, seen: int, earned: float, annulled: int, rng: np.random.Generator) -> str:
    """The post-game reflection: what the agent earned over the rounds it saw (it never
    sees the partner's rewards) and how many were annulled, after a shared opening."""
    fields = {"rounds": max(rounds, seen), "earned": _n(earned),
              "seen": f"{seen} round{'s' if seen != 1 else ''} I saw",
              "annulled": f", {annulled} of them annulled by overdraw" if annulled else ""}
    return " ".join(pick(rng, opts).format(**fields) for opts in (REFLECTION_OPENINGS, _EARNED, _LESSON))
