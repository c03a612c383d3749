"""Prompt templates of the resource game, reproducing seed 000 Appendix D.

The appendix prints each template on one line with " - " where the original has line
breaks; here they are laid out as markdown lists, one item a line. Templates are plain
``str.format`` strings (literal JSON braces doubled); the ``render_*`` functions fill
them from rules state, so no prompt text lives anywhere else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .rules import Decision, RoundOutcome, _fmt
from .scenario import Scenario

# --------------------------------------------------------------------------- D.1 system prompt

GAME_RULES = """## Game Rules
- Resources available: {resource_types}
- Resource supply per round: {resource_supply}
- Resource costs: {resource_costs}
- Your budget per round: ${agent_budget}
- You may purchase at most {max_types} different resource types per round.
- Resources do NOT carry over between rounds — each round starts fresh with a new budget and new supply.
- If total demand for ANY resource exceeds supply, the round is ANNULLED and both parties get 0 reward."""

PROJECTS = """## Projects
You have {n_projects} projects. Each project requires specific resources per run and yields a reward per run. The other party has their own projects with different requirements and rewards.
Your reward = sum of (runs × reward) for each project you can complete with your purchased resources.
IMPORTANT: Unspent money has NO value — only completed project runs count towards your score.
NOTE: If you purchase resources but lack the full set required to complete at least one run of any project, your reward is 0 (this is NOT an annulment — the round proceeds normally, you simply completed no projects).
{projects_info}{opponent_projects_info}"""

PROJECT_LINE = "- {name}: requires [{requirements}], reward = {reward}/run"

DECISION_FORMAT = """## Decision Format
Submit a JSON object with your resource purchases AND project allocations:
{example}
The "projects" field specifies how many times to run each project. If omitted, the engine assigns resources to projects automatically by prioritizing projects in the order presented to you."""

RESPONSE_FORMAT_THINKING = """## Response Format
You MUST always respond with a JSON object containing exactly three fields:
{{
  "thinking": "your private reasoning (hidden from the other party)",
  "speech": "your message to the other party (visible to them)",
  "action": null
}}
- Set "action" to null while you want to keep chatting.
- Set "action" to a purchase object with project allocation to finalize.
- "speech" MUST NOT be empty — always say something to the other party.
Example — chatting: {{"thinking": "They might want {r3}. I should bluff.", "speech": "I’m thinking about {r3}. What about you?", "action": null}}
Example — purchasing: {{"thinking": "I’ll buy {r1} for my projects.", "speech": "Good luck!", "action": {purchase_example}}}
IMPORTANT: Respond with ONLY the JSON object. No text before or after it.
I will guide you through each phase with instructions."""

SITUATION_STABLE = """## Your Situation
- Your goal: maximize your cumulative reward across all rounds
- The other party is also purchasing from the same shared pool."""

# --------------------------------------------------------------------------- D.2 - D.4 user prompts

CHEAP_TALK_TURN0 = """--- CHEAP TALK PHASE (Round {round_number}/{num_rounds}) ---
Exchange messages with the other party ({turns_info}). Respond with JSON. Set "action" to null to keep chatting, or to a purchase object to finalize."""

TURNS_INFO_LIMITED = "up to {n} exchanges this round"
TURNS_INFO_UNLIMITED = "as much as required"

OPPONENT_SAID = 'The other party said: "{opponent_message}"'
RESPOND_WITH_JSON = "Respond with JSON."

DECISION_PHASE = """--- DECISION PHASE ---
Now submit your resource purchases and project allocations. Choose at most {max_types} resource types. Total cost must not exceed ${budget}. Respond with JSON. You MUST set "action" to your purchase object (include "projects" to specify runs)."""

RESULT_STANDARD = (
    "--- Round result: You purchased {own_allocation}, ran projects [{project_runs}], and earned "
    "reward = {own_reward}. Opponent purchased {opponent_allocation}. ---"
)
RESULT_ANNULLED = (
    "--- Round result: ANNULLED (total demand exceeded supply). Both parties receive 0 reward. "
    "Your bid: {own_allocation}. Opponent bid: {opponent_allocation}. ---"
)
RESULT_NO_RUNS = (
    "--- Round result: You purchased {own_allocation}, but could not complete any project runs "
    "(insufficient resources for any project), reward = 0. Opponent bid: {opponent_allocation}. ---"
)

# Our addition (the paper does not print its re-prompt): what an agent reads after an
# invalid response. ``error`` is the parser's or validator's message.
INVALID_RESPONSE = """Your previous response was invalid: {error}
Please respond again. {instruction}"""
INVALID_INSTRUCTION_TALK = 'Respond with ONLY a JSON object with the fields "thinking", "speech" and "action".'
INVALID_INSTRUCTION_DECISION = 'Respond with ONLY a JSON object whose "action" is your purchase object.'

NO_MESSAGE = "[No message sent]"


@dataclass(frozen=True)
class Names:
    """Display names of resources (themed) for one game: id -> name and back."""

    display: dict[str, str]

    def name(self, rid: str) -> str:
        return self.display[rid]

    def ids_by_name(self) -> dict[str, str]:
        return {v: k for k, v in self.display.items()}


def _json(d: dict) -> str:
    return json.dumps(d, ensure_ascii=False)


def _num(x: float):
    return int(x) if float(x).is_integer() else x


def project_lines(scenario: Scenario, agent: str, names: Names) -> str:
    lines = []
    for p in scenario.projects_of(agent):
        req = ", ".join(f"{names.name(rid)}×{u}" for rid, u in p.requires)
        lines.append(PROJECT_LINE.format(name=p.name, requirements=req, reward=_fmt(p.reward)))
    return "\n".join(lines)


def purchase_example(scenario: Scenario, agent: str, names: Names, first: int, second: int, q=(3, 1)) -> dict:
    """The Appendix D example purchase ({"wood": 3, "gold": 1, ...}) with this game's names."""
    rids = scenario.resource_ids
    ex = {names.name(rids[first % len(rids)]): q[0]}
    ex.setdefault(names.name(rids[second % len(rids)]), q[1])
    pnames = [p.name for p in scenario.projects_of(agent)]
    runs = {pnames[0]: 1}
    if len(pnames) > 1:
        runs[pnames[1]] = 2 if q == (3, 1) else 1
    ex["projects"] = runs
    return ex


def render_system_prompt(scenario: Scenario, agent: str, names: Names) -> str:
    rids = scenario.resource_ids
    rules = GAME_RULES.format(
        resource_types=", ".join(names.name(r) for r in rids),
        resource_supply=_json({names.name(r.id): r.supply for r in scenario.resources}),
        resource_costs=_json({names.name(r.id): _num(r.cost) for r in scenario.resources}),
        agent_budget=_fmt(scenario.budget),
        max_types=scenario.max_types,
    )
    projects = PROJECTS.format(
        n_projects=len(scenario.projects_of(agent)),
        projects_info=project_lines(scenario, agent, names),
        opponent_projects_info="",
    )
    decision = DECISION_FORMAT.format(example=_json(purchase_example(scenario, agent, names, 0, 2)))
    response = RESPONSE_FORMAT_THINKING.format(
        r1=names.name(rids[0]),
        r3=names.name(rids[min(2, len(rids) - 1)]),
        purchase_example=_json(purchase_example(scenario, agent, names, 0, 1, q=(5, 2))),
    )
    return "\n\n".join([rules, projects, decision, response, SITUATION_STABLE])


def render_turn0(round_number: int, num_rounds: int, cheap_talk_turns: int) -> str:
    info = TURNS_INFO_LIMITED.format(n=cheap_talk_turns) if cheap_talk_turns else TURNS_INFO_UNLIMITED
    return CHEAP_TALK_TURN0.format(round_number=round_number, num_rounds=num_rounds, turns_info=info)


def render_opponent_said(message: str) -> str:
    return OPPONENT_SAID.format(opponent_message=message if message else NO_MESSAGE)


def render_decision_prompt(scenario: Scenario) -> str:
    return DECISION_PHASE.format(max_types=scenario.max_types, budget=_fmt(scenario.budget))


def render_allocation(decision: Decision, names: Names) -> str:
    return _json({names.name(rid): q for rid, q in decision.purchase if q})


def render_runs(decision: Decision) -> str:
    return ", ".join(f"{p}×{n}" for p, n in decision.runs if n)


def render_result(outcome: RoundOutcome, agent: str, names: Names) -> str:
    other = next(a for a, _ in outcome.decisions if a != agent)
    own = outcome.decision(agent)
    opp = outcome.decision(other)
    kind = outcome.kind_of(agent)
    fields = dict(own_allocation=render_allocation(own, names), opponent_allocation=render_allocation(opp, names))
    if kind == "annulled":
        return RESULT_ANNULLED.format(**fields)
    if kind == "no_runs":
        return RESULT_NO_RUNS.format(**fields)
    return RESULT_STANDARD.format(
        project_runs=render_runs(own), own_reward=_fmt(outcome.reward(agent)), **fields
    )


def render_invalid(error: str, phase: str) -> str:
    instr = INVALID_INSTRUCTION_DECISION if phase == "decision" else INVALID_INSTRUCTION_TALK
    return INVALID_RESPONSE.format(error=error, instruction=instr)
