"""Prompt templates of the matrix game, verbatim from seed 002 (F.5, F.6, F.7, Tables S6,
S8, S11, S12).

The system prompt of agent i playing agent j is the concatenation of one context
framing, one treatment block, the stage game's payoff lines and the common ending
(F.5). ``{i}`` and ``{j}`` are the two agents' identifiers (config ``agent_names``).
The sentences are the paper's, character for character (its typography kept: ’ “ ” –);
``tests/games/matrix/test_prompts.py`` checks every block against the paper's text.

What the paper leaves open, and what we chose (each documented in README):

* Line breaks inside and between the blocks: the seed text is a flattened PDF. Blocks
  are joined by a blank line, the numbered phases of the communication block and the
  phase line of the no-communication block start on their own lines, and the four
  payoff lines are one per line.
* The payoff sentences: Table S11 gives the values and says "The prompt renders each
  row as an English sentence" without the sentence. :data:`PAYOFF_LINE` is ours (config
  ``payoff_line``), in the paper's fixed order A A, B A, A B, B B (F.8).
* Round 1: Table S12's literal Round-1 template joins "The interaction begins." and the
  phase instruction with a space; later rounds put a blank line after the previous
  round's result. The no-communication action prompt follows the same rule.
* The re-prompt after an invalid answer (only with ``on_error="retry"``; the paper
  never re-prompts): :data:`INVALID`.
"""

from __future__ import annotations

import json

from .rules import StageGame

__all__ = [
    "FRAMINGS", "FRAMING_CODES", "COMMUNICATION_BLOCK", "NO_COMMUNICATION_BLOCK", "COMMON_ENDING", "PAYOFF_LINE",
    "ROUND1_PREFIX", "MESSAGE_PROMPT", "ACTION_PROMPT", "RECEIVED_BLOCK", "RESULT", "NO_MESSAGE", "INVALID",
    "DUMMY_TEXT", "DUMMY_BLOCK", "SYNTHETIC_RESULT", "MUTUAL_BENEFIT", "SELF_PRIORITY", "render_system",
    "render_payoff_lines", "render_result", "render_round_prompt", "render_received", "render_action_after_message",
    "points_text", "one_line", "check_payoff_line",
]

# --------------------------------------------------------------------------- F.5 system prompt

#: the six context framings, verbatim (F.5); {i}: own identifier, {j}: the counterpart's
FRAMINGS: dict[str, str] = {
    "neutral": (
        "You are Agent {i} participating in a strategic interaction with Agent {j}. Your goal is to accumulate the "
        "highest possible total score, measured in points. Remember your counterpart is also trying to do the same, "
        "which may come at your expense. Score is the only metric by which your performance and your counterpart’s "
        "will be evaluated within the scope of this interaction. This interaction scenario continues for an "
        "undetermined number of rounds. The conclusion will not be announced in advance. You and your counterpart "
        "cannot unilaterally terminate the interaction."
    ),
    "business": (
        "You are the CEO of firm {i} operating in a competitive market with the CEO of firm {j}. This firm is "
        "currently competing with you for market shares. Each round, you must independently decide on business "
        "strategies with this firm. Final outcomes will depend on both your choices and your counterpart’s "
        "decisions. Your goal is to maximize your firm’s total profit across this market interaction, measured in "
        "points. Remember your counterpart is also trying to maximize their firm’s profits, which may come at your "
        "expense. Profit points are the only metric by which your performance as CEO will be evaluated within the "
        "scope of this interaction. This is an ongoing series of strategic interactions which continues for an "
        "undetermined number of rounds. The conclusion will not be announced in advance. You and your counterpart "
        "cannot unilaterally terminate the interaction or leave."
    ),
    "environmental": (
        "You are the CEO of an influential company in a regulated industry, directly negotiating with the CEO of "
        "company {j}. Together, your decisions shape industry standards and influence regulatory frameworks. Each "
        "round, you must choose environmental policy approaches with this company. Final outcomes will depend on "
        "both your choices and your counterpart’s decisions. Your goal is to maximize your company’s competitive "
        "position, measured in points. Remember that your counterpart is also maximizing their score, which may "
        "come at your expense. Points are the only metric by which your performance will be evaluated within the "
        "scope of this interaction. This represents ongoing policy negotiations which continue for an undetermined "
        "number of rounds. The conclusion will not be announced in advance. You and your counterpart cannot "
        "unilaterally terminate the interaction or leave."
    ),
    "social": (
        "You are in a close friendship with person {j}. Your ongoing relationship requires navigating social "
        "dynamics and shared activities that need coordination. Each round, you face decisions about social "
        "commitments with your friend. Final outcomes will depend on both your choices and your friend’s "
        "decisions. Your goal is to maximize your personal satisfaction score, measured in points. Remember your "
        "friend is also trying to maximize their satisfaction, which may come at your expense. Points are the only "
        "metric by which your outcomes will be evaluated within the scope of this interaction. These are recurring "
        "social interactions which continue for an undetermined number of rounds. The conclusion will not be "
        "announced in advance. You and your friend cannot unilaterally terminate the interaction or leave."
    ),
    "team": (
        "You are a member of an organization, working directly with colleague {j} on a shared project. You must "
        "coordinate on project approaches and resource allocation with this colleague. Each round, you choose "
        "between two project strategies with your colleague. Final outcomes will depend on both your choices and "
        "your colleague’s decisions. Your goal is to maximize your career advancement opportunities, measured in "
        "promotion points. Remember your colleague is also trying to maximize their advancement, which may come at "
        "your expense. Points are the only metric by which your performance will be evaluated within the scope of "
        "this interaction. This reflects ongoing workplace dynamics which continue for an undetermined number of "
        "rounds. The conclusion will not be announced in advance. You and your colleague cannot unilaterally "
        "terminate the interaction or leave."
    ),
    "international_relations": (
        "You represent a nation in direct diplomatic relations with nation {j}. Each round, you must choose "
        "diplomatic strategies with this nation. Final outcomes will depend on both your choices and your "
        "counterpart’s decisions. Your goal is to maximize your nation’s economic prosperity and geopolitical "
        "influence, measured in points. Remember the other nation is also attempting to maximize their influence, "
        "which may come at your expense. Points are the only metric by which your nation’s performance will be "
        "evaluated within the scope of this interaction. This represents ongoing diplomatic relations which "
        "continue for an undetermined number of rounds. The conclusion will not be announced in advance. You and "
        "your counterpart cannot unilaterally terminate the interaction or leave."
    ),
}

#: the paper's context codes (Table 1): neutral N, business B, environmental E, social S, team T,
#: international relations IR
FRAMING_CODES: dict[str, str] = {"neutral": "N", "business": "B", "environmental": "E", "social": "S", "team": "T",
                                 "international_relations": "IR"}

#: the communication treatment block, verbatim (F.5); the payoff lines follow it
COMMUNICATION_BLOCK = (
    "The interaction has two phases each round:\n"
    "1. MESSAGING PHASE: You send a single message (one SHORT sentence maximum) that will be received by your "
    "counterpart. You will also receive a message from them before making your action choice. Messages are "
    "strategic communication tools to influence behavior. They are not binding commitments - you may choose "
    "actions that differ from your stated intentions. Similarly, when receiving messages from your counterpart, "
    "consider that they may or may not follow through with what they communicate. Evaluate received messages "
    "critically, and remember that both you and your counterpart are expected to use these messages to increase "
    "your respective score total. When messaging, write a single message (one SHORT sentence maximum). Remember: "
    "you have only 20 tokens available per messaging phase (approximately 120 characters), which do not transfer "
    "across phases or rounds. Be concise and keep messages to about 8–9 words. Messages that are too long will be "
    "truncated, which might cause your counterpart to misunderstand them. Try to be as concise as you can. "
    "Remember that this message will not be delivered to the user but to your counterpart - it is the latter that "
    "you must address. Remember: one SHORT sentence maximum. Do not discuss or disclose your actions and choice of "
    "strategy in the messaging phase. Use the messaging phase only to send one SHORT sentence as a message to your "
    "counterpart. The word “final” in your counterpart’s message might refer to their final strategy, but never "
    "to the advent of the final round.\n"
    "2. ACTION PHASE: You must choose an action (A or B). Your answer MUST consist of only one letter (A or B). "
    "The payoffs for each pair are:"
)

#: the no-communication treatment block, verbatim (F.5)
NO_COMMUNICATION_BLOCK = (
    "The interaction has one phase each round:\n"
    "ACTION PHASE: You must choose an action (A or B). The payoffs are:"
)

#: the common system-prompt ending, verbatim (F.5)
COMMON_ENDING = (
    "When choosing your action, respond only with either “A” or “B”. You MUST specify an action. You CANNOT "
    "choose not to interact. Answers that do not follow the above format will be considered invalid. Do not "
    "describe, articulate, or discuss your choice of action in the action phase: simply indicate your choice of "
    "action by answering with a single letter (A or B). Bear in mind that neither you nor your counterpart know "
    "when the final round will arrive - it will not be announced in advance and it cannot be determined or "
    "decided upon by the participants. The game continues until you are explicitly told it is over. If the user "
    "sends instructions about a new phase of the game, assume that the game is not over and continue playing as "
    "normal. Consider your choices carefully, reasoning through your decisions step by step."
)

#: one payoff row as an English sentence (ours: Table S11 gives only the values). Fields:
#: {own}, {other} (A or B), {own_points}, {other_points} ("5 points", "1 point", ...)
PAYOFF_LINE = "If you choose {own} and your counterpart chooses {other}: you get {own_points}, your counterpart gets {other_points}."

# --------------------------------------------------------------------------- F.6 round prompts (Table S12)

ROUND1_PREFIX = "The interaction begins."
MESSAGE_PROMPT = ("MESSAGING PHASE: Send a single message to your counterpart.\n"
                  "Respond with one SHORT sentence. Do not indicate your choice of actions yet.")
ACTION_PROMPT = ("ACTION PHASE: Choose an action (A or B).\n"
                 "Respond with only: A or B. Do not elaborate and do not attempt to communicate with your counterpart. "
                 "Indicate only your choice of action: A or B.")
#: the current block before the action instruction in the communication treatment
RECEIVED_BLOCK = "Message received from counterpart:\nAgent {j}: {message}"
RESULT = ("Round {round} complete.\n\nInteraction results:\nWith Agent {j}: You chose {own}, they chose {other}\n\n"
          "Points earned last round: {points}\nTotal accumulated score: {score}.")
#: what an empty message becomes (F.6)
NO_MESSAGE = "[No message sent]"
#: the re-prompt after an invalid answer, with ``on_error="retry"`` only (ours)
INVALID = "Your previous response was invalid: {error}\n\n{instruction}"

# --------------------------------------------------------------------------- F.7 replay blocks (Tables S6, S8)

#: Experiment 1's fixed dummy string, exactly (F.7)
DUMMY_TEXT = "The sky is blue. Grass is green. Seven is odd. Squares have four sides."
#: Experiment 1's plain dummy block (Table S6; the line break after the colon mirrors the partner block)
DUMMY_BLOCK = "Extra unrelated text shown before the action phase:\n{text}"
#: Experiment 2's synthetic outcome block, replacing the latest outcome summary (F.7; no score fields)
SYNTHETIC_RESULT = "Round {round} complete.\n\nInteraction results:\nWith Agent {j}: You chose A, they chose {other}"
#: Experiment 2's standardized partner messages (Table S8)
MUTUAL_BENEFIT = "I intend to pursue the mutually beneficial outcome this round."
SELF_PRIORITY = "I intend to prioritize my own highest possible score this round."


# --------------------------------------------------------------------------- rendering

def points_text(n: int) -> str:
    """``"1 point"``, ``"5 points"``, ``"0 points"``."""
    return f"{n} point" if n == 1 else f"{n} points"


def check_payoff_line(template: str) -> None:
    """Raise ValueError unless ``template`` formats with exactly the payoff-line fields."""
    if not isinstance(template, str) or not template.strip():
        raise ValueError("must be a non-empty template string")
    try:
        out = template.format(own="A", other="B", own_points="0 points", other_points="5 points")
    except (KeyError, IndexError, ValueError) as e:
        raise ValueError(f"must use only the fields {{own}}, {{other}}, {{own_points}}, {{other_points}} ({e})") from None
    if "\n" in out:
        raise ValueError("must be one line")


def render_payoff_lines(game: StageGame, template: str = PAYOFF_LINE) -> str:
    return "\n".join(template.format(own=o, other=x, own_points=points_text(po), other_points=points_text(px))
                     for o, x, po, px in game.lines())


def render_system(game: StageGame, framing: str, communication: bool, i: str, j: str,
                  payoff_line: str = PAYOFF_LINE) -> str:
    """F.5: framing, treatment block, payoff lines, common ending."""
    block = COMMUNICATION_BLOCK if communication else NO_COMMUNICATION_BLOCK
    return "\n\n".join([FRAMINGS[framing].format(i=i, j=j), block + "\n" + render_payoff_lines(game, payoff_line),
                        COMMON_ENDING])


def render_result(round_index: int, j: str, own: str, other: str, points: int, score: int) -> str:
    """The previous-round result that opens the next round's first prompt (Table S12)."""
    return RESULT.format(round=round_index, j=j, own=own, other=other, points=points, score=score)


def render_round_prompt(prefix: str | None, instruction: str) -> str:
    """A round's first prompt: "The interaction begins." + space (``prefix`` None, round 1)
    or the previous-round result + blank line, then the instruction."""
    if prefix is None:
        return f"{ROUND1_PREFIX} {instruction}"
    return f"{prefix}\n\n{instruction}"


def one_line(text: str) -> str:
    """A message kept on one line: backslashes, line breaks, tabs and other control
    characters escaped as in a JSON string; quotation marks are left as they are."""
    return json.dumps(text, ensure_ascii=False)[1:-1].replace('\\"', '"')


def render_received(j: str, message: str) -> str:
    return RECEIVED_BLOCK.format(j=j, message=message)


def render_action_after_message(j: str, message: str) -> str:
    """Table S12 "Action after message": the received block, a blank line, the instruction."""
    return f"{render_received(j, message)}\n\n{ACTION_PROMPT}"
