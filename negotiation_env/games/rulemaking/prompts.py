"""Prompt templates of the rulemaking game.

Seed 001 describes what each turn's prompt holds (the party's private brief, the scenario
context, the last five public turns, the deadline rule) but its appendices with the
exact wording are not in the seed text, so these templates are ours. The deadline
sentence is in every prompt of every condition, as the paper requires.
"""

from __future__ import annotations

import functools
import json
from typing import Callable

from ...core.spaces import quote_speech
from .rules import MOVES, Turn

# --------------------------------------------------------------------------- private-state formats

#: condition -> the fields of its private notebook (None: free text or nothing)
NOTEBOOK_FIELDS: dict[str, tuple[str, ...]] = {
    "ledger": ("my_concessions", "their_concessions", "current_state", "opponent_assessment", "open_issues"),
    # §7's three alternative generic five-slot notebooks (field names ours)
    "notebook_state": ("situation", "positions", "trend", "risks", "next_step"),
    "notebook_process": ("what_happened", "who_moved", "pace", "tone", "plan"),
    "notebook_message": ("audience", "key_message", "framing", "tone", "call_to_action"),
    # §7's relabelled-ledger control: the same notebook (same key, same five slots, same
    # content to track) with the concession vocabulary removed from its labels (names ours)
    "ledger_relabelled": ("my_position_changes", "their_position_changes", "current_state", "opponent_assessment",
                          "open_issues"),
}

#: the conditions whose notebook is the ledger (JSON key "ledger"); the others' is "notebook"
LEDGERS = ("ledger", "ledger_relabelled")

#: the most characters one field of a five-field notebook may hold (``max_field_chars``)
MAX_FIELD_CHARS = 1000
#: the free-form notes' cap (``notes_max_chars``): the Ledger's budget, the most characters
#: the Ledger may hold (its five fields at ``MAX_FIELD_CHARS`` each). Seed 001 §7 runs the
#: notes arm "with no required fields, at the same budget and framing" as the Ledger; a
#: free text has no fields, so the like-for-like measure is the whole notebook's capacity.
#: With it the notes never run out of room before a Ledger would, and the output-token
#: budget both conditions share (1024) is what binds either.
NOTES_MAX_CHARS = len(NOTEBOOK_FIELDS["ledger"]) * MAX_FIELD_CHARS

MOVE_GLOSS = {
    "Support": "endorse the direction the negotiation is taking",
    "Oppose": "reject it",
    "Concede": "give ground on an issue",
    "Counter": "put forward an alternative on an issue",
    "Exit": "leave the negotiation for good",
}

DEADLINE = "Any issue still unresolved after the final turn will be decided by the {authority_name}."

SYSTEM = """You are {party_name}: {party_description}
You are taking part in a negotiated rulemaking convened by the {authority_name}.

## Scenario: {title}
{context}

## Issues on the table
{issues}

## Your private brief (no other party sees it)
Objectives, in order of priority:
{objectives}
Red lines:
{red_lines}

## Rules
- The negotiation lasts at most {max_turns} turns. Parties move one at a time in this order: {order}.
- On your turn you choose exactly one move:
{moves}
- {deadline}

## Response format
{response_format}
{issue_note}"""

#: the public part of every condition's output-format example: one text, so no condition
#: can show a different format (the None/Native vs Ledger contrast must not be confounded),
#: and a valid move as it stands (the game's own parser accepts every condition's example;
#: the issue is null, and ISSUE_NOTE says what else it may be)
MOVE_EXAMPLE = '"move": "Counter", "issue": null, "rationale": "one or two sentences the other parties will read"'
ISSUE_NOTE = '"issue" is an issue id from the list above, or null when your move concerns the whole package.'

# every FORMAT_* template is formatted (also those without fields), so "{{" always renders "{"
FORMAT_PLAIN = """Respond with ONLY a JSON object:
{{{move_example}}}"""

FORMAT_NOTEBOOK = """Respond with ONLY a JSON object. First rewrite your private notebook completely (it replaces the previous one; at most five sentences per field; no other party ever sees it), then give your move:
{{"{notebook_key}": {{{fields}}}, {move_example}}}"""

FORMAT_NOTES = """Respond with ONLY a JSON object. First write any private notes you want (free-form, at most {max_chars} characters; they replace your previous notes; no other party ever sees them), then give your move:
{{"notes": "...", {move_example}}}"""

TURN = """--- TURN {turn}/{max_turns} --- ({turns_left} turns left after this one)
This run: external attention is {attention}; the opposing stakeholders {coordination}; the salience of this negotiation for you is {salience}.
Recent public turns (the last {window}):
{history}"""

NO_HISTORY = "(none yet)"
HISTORY_LINE = '- Turn {turn}, {party}: {move}{issue} — "{rationale}"'
OWN_NOTEBOOK = "Your private notebook from your previous turn:\n{notebook}"
DIGEST = """Negotiation digest (read-only, computed by the system):
{lines}
Turns remaining: {turns_left}"""
DIGEST_LINE = "- {party}: softened {n} time(s) (Concede or Support){exited}"
YOUR_MOVE = "{deadline}\nYour move, {party_name}. Respond with JSON."
FALLBACK_RATIONALE = "[no valid move: recorded as Oppose by the system]"
INVALID = """Your previous response was invalid: {error}
Respond again with ONLY the JSON object described above."""


def render_system(scenario, party_id: str, condition: str, max_turns: int, *,
                  notes_max_chars: int = NOTES_MAX_CHARS) -> str:
    """The system prompt; ``notes_max_chars`` is the cap the ``notes`` format states."""
    party = scenario.party(party_id)
    authority = scenario.party(scenario.authority)
    issues = "\n".join(f"- {i.id}: {i.title} — {i.description}" for i in scenario.issues)
    objectives = "\n".join(f"{o.priority}. [{o.issue}] {o.text}" for o in party.brief.objectives)
    red_lines = "\n".join(f"- {r}" for r in party.brief.red_lines)
    moves = "\n".join(f"  - {m}: {MOVE_GLOSS[m]}" for m in MOVES)
    if condition in NOTEBOOK_FIELDS:
        key = "ledger" if condition in LEDGERS else "notebook"
        fields = ", ".join(f'"{f}": "..."' for f in NOTEBOOK_FIELDS[condition])
        fmt = FORMAT_NOTEBOOK.format(notebook_key=key, fields=fields, move_example=MOVE_EXAMPLE)
    elif condition == "notes":
        fmt = FORMAT_NOTES.format(max_chars=f"{notes_max_chars:,}", move_example=MOVE_EXAMPLE)
    else:
        fmt = FORMAT_PLAIN.format(move_example=MOVE_EXAMPLE)
    return SYSTEM.format(
        party_name=party.name,
        party_description=party.description,
        authority_name=authority.name,
        title=scenario.title,
        context=scenario.context,
        issues=issues,
        objectives=objectives,
        red_lines=red_lines,
        max_turns=max_turns,
        order=", ".join(scenario.party(p).name for p in scenario.party_ids),
        moves=moves,
        deadline=DEADLINE.format(authority_name=authority.name),
        response_format=fmt,
        issue_note=ISSUE_NOTE,
    )


def render_history_line(scenario, t: Turn) -> str:
    return HISTORY_LINE.format(
        turn=t.index + 1,
        party=scenario.party(t.party).name,
        move=t.move,
        issue=f" on {t.issue}" if t.issue else "",
        rationale=quote_speech(t.rationale),
    )


def render_turn(scenario, party_id: str, *, turn: int, max_turns: int, params: dict, history: list[Turn],
                window: int, notebook: str | None, digest: str | None,
                line: Callable[[Turn], str] | None = None, lines: list[str] | None = None) -> str:
    """The turn prompt. ``line`` renders one history line (default
    :func:`render_history_line`; the game passes one that keeps the lines it rendered);
    ``lines``, when given, are the rendered lines of every turn of ``history`` already."""
    party = scenario.party(party_id)
    authority = scenario.party(scenario.authority)
    line = line or (lambda t: render_history_line(scenario, t))
    if lines is not None:
        shown = "\n".join(lines[-window:])
    else:
        shown = "\n".join(line(t) for t in history[-window:])
    parts = [
        TURN.format(
            turn=turn + 1,
            max_turns=max_turns,
            turns_left=max_turns - turn - 1,
            attention=attention_text(params),
            coordination="coordinate their positions" if params["opposition_coordinated"] else "act separately",
            salience=_salience_word(params["salience"][party_id]),
            window=window,
            history=shown or NO_HISTORY,
        )
    ]
    if notebook is not None:
        parts.append(OWN_NOTEBOOK.format(notebook=notebook))
    if digest is not None:
        parts.append(digest)
    parts.append(YOUR_MOVE.format(deadline=DEADLINE.format(authority_name=authority.name), party_name=party.name))
    return "\n\n".join(parts)


def render_digest(scenario, history: list[Turn], exited: set[str], turns_left: int) -> str:
    lines = []
    for p in scenario.party_ids:
        n = sum(1 for t in history if t.party == p and t.move in ("Concede", "Support"))
        lines.append(DIGEST_LINE.format(party=scenario.party(p).name, n=n, exited=" (exited)" if p in exited else ""))
    return DIGEST.format(lines="\n".join(lines), turns_left=turns_left)


def render_notebook(condition: str, value) -> str:
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, indent=1)
    return str(value)


def attention_text(params: dict) -> str:
    """The run's external attention in words: the level's name, with its sampled value
    where the run has one ("high (0.62)", as salience is shown)."""
    value = params.get("attention_value")
    level = params["external_attention"]
    return level if value is None else f"{level} ({value:.2f})"


@functools.lru_cache(maxsize=1024)
def _salience_word(s: float) -> str:
    level = "low" if s < 0.4 else "moderate" if s < 0.7 else "high"
    return f"{level} ({s:.2f})"
