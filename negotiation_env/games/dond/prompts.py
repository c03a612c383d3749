"""What the agents read in Deal or No Deal: the templates, in the package's own wording.

Lewis et al. (2017) collected human dialogues in a web interface and OpenSpiel's
``bargaining`` has no text at all, so there is no paper prompt to reproduce; these
templates say the rules of :mod:`.rules` and :mod:`.game` plainly. Each agent holds one
conversation:

* the **system prompt** (:func:`render_system`): the task, the pool, the agent's own
  values (never the partner's), the three moves, the turn limit, what a deal and no deal
  pay, and the answer format (:data:`ANSWER_FORMAT`);
* on each of its turns a **turn prompt** (:func:`render_turn`): what the partner said and
  did since (its message quoted on one line, its move), the standing proposal and what
  the agent would get from it, how many turns are left, and the instruction;
* after an answer the game refuses, the **retry prompt** (:data:`INVALID`) with the
  parser's message;
* at the end the partner's last move, if it ended the game (:func:`render_partner`),
  and the **result** (:func:`render_result`), for the record.

A partner's words are quoted with :func:`~negotiation_env.core.spaces.quote_speech`, so
a message can never start a line of its own and pass as the env's text.
"""

from __future__ import annotations

from typing import Sequence

from ...core.spaces import quote_speech
from .rules import ITEMS, TOTAL_VALUE

__all__ = ["SYSTEM", "ANSWER_FORMAT", "INVALID", "render_system", "render_partner", "render_turn", "render_result", "bundle_text",
           "SINGULAR", "move_line"]

#: each item type's singular, for counts of one
SINGULAR = {"books": "book", "hats": "hat", "balls": "ball"}

ANSWER_FORMAT = """Answer with one JSON object and nothing else, in one of these forms:
{{"message": "<what you say to the other agent>", "action": "propose", "take": {{"books": 1, "hats": 0, "balls": 2}}}}
{{"message": "<what you say to the other agent>", "action": "accept"}}{walk_away}
"take" is how many of each item YOU keep; the other agent gets the rest."""

_WALK_AWAY_FORMAT = """
{{"message": "<what you say to the other agent>", "action": "walk_away"}}"""

SYSTEM = """You are negotiating with another agent over how to divide a pool of items between the two of you.
Items cannot be cut: each one goes whole to one of you.

The pool: {pool}.
Your values (private: the other agent has its own values, which you are not told): {values}.
The whole pool is worth {total} points to you.

You take turns, {first}. On your turn you send a short message and make one move:
- propose: a split of the whole pool, saying how many of each item you keep; the other agent gets the rest;
- accept: agree to the other agent's proposal on the table, which ends the negotiation with that split;{walk_away_rule}
The negotiation has at most {max_turns} turns in all (both agents' turns counted). If no proposal has been \
accepted by then{walk_away_end}, neither of you gets anything: 0 points each. If a proposal is accepted, each of \
you gets its own value of the items it receives.

{answer_format}"""

_WALK_AWAY_RULE = """
- walk_away: end the negotiation at once without a deal."""

INVALID = """Your answer was not accepted: {error}
Answer again with one JSON object (the form is in your instructions)."""

_TURN_LEFT = {1: "This is the last turn: a proposal now cannot be accepted any more."}


def bundle_text(bundle: Sequence[int]) -> str:
    """``"1 book, 0 hats and 2 balls"``."""
    parts = [f"{n} {SINGULAR[item] if n == 1 else item}" for item, n in zip(ITEMS, bundle)]
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _values_text(values: Sequence[int]) -> str:
    return ", ".join(f"{SINGULAR[item]} {v} point{'' if v == 1 else 's'} each" for item, v in zip(ITEMS, values))


def render_system(pool: Sequence[int], values: Sequence[int], *, first: bool, max_turns: int,
                  walk_away: bool) -> str:
    """The agent's system prompt (module docstring)."""
    fmt = ANSWER_FORMAT.format(walk_away=_WALK_AWAY_FORMAT.format() if walk_away else "")
    return SYSTEM.format(
        pool=bundle_text(pool), values=_values_text(values), total=TOTAL_VALUE,
        first="you first" if first else "the other agent first",
        walk_away_rule=_WALK_AWAY_RULE if walk_away else "",
        walk_away_end=" or if either of you walks away" if walk_away else "",
        max_turns=max_turns, answer_format=fmt)


def move_line(who: str, move: str, take: Sequence[int] | None, pool: Sequence[int]) -> str:
    """One line saying what ``who`` (``"The other agent"``) did: ``move`` is ``propose``,
    ``accept``, ``walk_away`` or ``none`` (no valid answer: the turn passed)."""
    if move == "propose" and take is not None:
        you = [c - t for c, t in zip(pool, take)]
        return f"{who} proposes to keep {bundle_text(take)}; you would get {bundle_text(you)}."
    if move == "accept":
        return f"{who} accepts the proposal on the table."
    if move == "walk_away":
        return f"{who} walks away."
    return f"{who} made no valid move; the turn passed."


def render_partner(message: str, move: str, take: Sequence[int] | None, pool: Sequence[int]) -> str:
    """What the partner said (quoted on one line) and did on its turn just before."""
    said = [f'The other agent says: "{quote_speech(message)}"'] if message else []
    return "\n".join([*said, move_line("The other agent", move, take, pool)])


def render_turn(*, pool: Sequence[int], partner: tuple[str, str, Sequence[int] | None] | None,
                offer: Sequence[int] | None, offer_value: int | None, own_offer: Sequence[int] | None,
                turns_left: int) -> str:
    """The agent's turn prompt. ``partner``: (message, move, take) of the partner's turn
    just before, None at the first turn; ``offer``: what the agent would get from the
    partner's proposal on the table (None: none) and ``offer_value`` its worth to the
    agent; ``own_offer``: what the agent keeps under its own proposal on the table."""
    lines = ["You move first."] if partner is None else [render_partner(*partner, pool)]
    if offer is not None:
        lines.append(f"On the table: you would get {bundle_text(offer)}, worth {offer_value} points to you.")
    elif own_offer is not None:
        lines.append(f"On the table: your own proposal (you keep {bundle_text(own_offer)}); only the other agent "
                     "can accept it.")
    else:
        lines.append("There is no proposal on the table.")
    lines.append(_TURN_LEFT.get(turns_left, f"Turns left, this one included: {turns_left}."))
    lines.append("Your move: one JSON object.")
    return "\n".join(lines)


def render_result(*, agreement: bool, reason: str, own: Sequence[int] | None, points: int) -> str:
    """The end of the negotiation as the agent reads it."""
    if agreement and own is not None:
        return f"The negotiation is over: deal. You get {bundle_text(own)}, worth {points} points to you."
    why = {"walk_away": "an agent walked away", "turn_limit": "no proposal was accepted within the turn limit"}
    return f"The negotiation is over: no deal ({why.get(reason, reason)}). You get 0 points."
