"""Prompt templates of the resource game, reproducing seed 000 Appendix D.

The appendix prints each template on one line with " - " where the original has line
breaks; here they are laid out as markdown lists, one item a line. Templates are plain
``str.format`` strings (literal JSON braces doubled); the ``render_*`` functions fill
them from rules state, so no prompt text lives anywhere else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...core.spaces import quote_speech
from .rules import Decision, RoundOutcome, _fmt
from .scenario import Scenario

# --------------------------------------------------------------------------- D.1 system prompt

GAME_RULES = """## Game Rules
- Resources available: {resource_types}
- Resource supply per round: {resource_supply}
- Resource costs: {resource_costs}
- Your budget per round: ${agent_budget}
- You may purchase at most {max_types} different resource types per round.{carry_over}
- If total demand for ANY resource exceeds supply, the round is ANNULLED and both parties get 0 reward."""

CARRY_OVER = "\n- Resources do NOT carry over between rounds — each round starts fresh with a new budget and new supply."

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

# D.1.4: "For Anthropic models, an additional suffix is appended to enforce JSON
# compliance" (config json_suffix names the seats that get it)
JSON_SUFFIX = (
    "IMPORTANT: You MUST respond with ONLY a valid JSON object. No other text before or after. The JSON must have "
    "exactly three fields: 'thinking' (string), 'speech' (string), and 'action' (null or object)."
)

RESPONSE_FORMAT_PLAIN = """## Response Format
Everything you say is passed VERBATIM to the other party — you have NO private channel. The other party sees your FULL response. Think carefully about what you reveal.
To send a message, respond with plain natural language text — NOT JSON, NOT a wrapper object. Just write your message directly as plain text.
To finalize a purchase, respond with ONLY a JSON object with your resource purchases and project allocations:
{purchase_example}
I will guide you through each phase with instructions."""

SITUATION_STABLE = """## Your Situation
- Your goal: maximize your cumulative reward across all rounds
- The other party is also purchasing from the same shared pool."""

SITUATION_SHIFTING = """## Your Situation
- Your goal: maximize your cumulative reward across all rounds
- You are playing against a DIFFERENT opponent each round."""

# Ours: the agent whose context resets each round under shifting partners (D.8: it "sees
# only the current round; prompts hide multi-round context"), so to it every game is a
# standalone one-round negotiation; the paper does not print this agent's Situation.
SITUATION_STANDALONE = """## Your Situation
- Your goal: maximize your reward in this negotiation, which is a single round
- The other party is also purchasing from the same shared pool."""

# Ours: the oracle check of §3.1 (config solo), an agent solving its allocation alone;
# the paper does not print its oracle prompt.
SITUATION_SOLO = """## Your Situation
- Your goal: maximize your reward this round
- You decide alone: the other party buys nothing this round, so the whole supply is available to you."""

# Ours: the joint oracle check of §3.1 (config joint_plan), both parties' allocations of
# one joint plan under full information; the paper does not print its oracle prompt.
# The seats decide at once without seeing each other's purchase, and a scenario usually
# has several joint optima (§3.1 asks for several), so the last line names the plan both
# seats carry out: the one that gives the first speaker the highest reward. FAVOURED
# fills it for each seat.
SITUATION_JOINT = """## Your Situation
- Your goal: the highest joint reward this round (your reward plus the other party's), with no overdraw
- You and the other party carry out one joint plan: each of you submits your own part of it without seeing the other's, and the other party submits the part that complements yours
- If several plans reach the highest joint reward, the plan is the one that gives {favoured} the highest reward"""
SITUATION_JOINT_FAVOURED = {"lead": "you", "other": "the other party"}

INTERVENTION_PROJECT_SHARING = (
    "IMPORTANT — As a FIRST step in each round’s cheap talk, share your project details (names, resource "
    "requirements, rewards) with the other party and ask them to share theirs."
)
INTERVENTION_THEORY_OF_MIND = (
    "IMPORTANT — During each round’s cheap talk, actively reason about the other party’s goals and which "
    "projects they might be trying to run. Consider what resources they need, how their interests align or "
    "conflict with yours, and how you can use this understanding to inform your strategy."
)
TOM_REMINDER = (
    "Reminder: Actively reason about the other party’s goals and which projects they might be trying to run. "
    "Consider what resources they need and how their interests align or conflict with yours."
)

# Transparency (§5.7). The paper does not print this block; ours. "full" (the paper's
# "complete project specifications") shows the other party's projects as D.1.2 shows
# one's own, requirements and reward per run; "requirements" only the requirements;
# "joint" adds the other party's reward function (the paper's joint-transparency variant
# "additionally exposed each agent's reward function").
OPPONENT_PROJECTS = """

The other party's projects (revealed to both parties):
{lines}"""
OPPONENT_PROJECT_LINE_REQUIREMENTS = "- {name}: requires [{requirements}]"
OPPONENT_REWARD_FUNCTION = (
    "The other party's reward = sum of (runs × reward) for each of its projects it can complete with its purchased "
    "resources; unspent money has no value for it either."
)

# Ours, not the paper's: config prompt_style="compact", a short system prompt for small
# models trained from scratch (benchmarks/train_sft.py). The same facts as D.1 with
# thinking off (resources, costs, supply, budget, type limit, annulment, own projects,
# the two answer forms and that speech is seen verbatim), in about a third of the
# characters; the per-turn prompts are shortened the same way. Never used by the
# paper's conditions (default prompt_style="paper").
COMPACT_SYSTEM = """Resources (cost, supply per round): {resources}. Budget ${budget} per round, at most {max_types} resource types. Nothing carries over between rounds. If both parties together want more of a resource than its supply, the round is annulled and both get 0.
Your projects (the other party has its own):
{projects}
Reward: runs x reward of the projects your purchase completes; unspent money is worth nothing.
Talk: plain text, passed verbatim to the other party. Purchase: ONLY a JSON object such as {purchase_example}"""
COMPACT_PROJECT_LINE = "- {name} needs {requirements} per run and pays {reward}"
COMPACT_TURN0 = "--- TALK (round {round_number}/{num_rounds}, {turns_info}) --- Your message, or ONLY a JSON purchase to end the talk."
COMPACT_DECISION = "--- DECISION --- ONLY a JSON purchase: at most {max_types} types, cost at most ${budget}."


def compact_project_lines(scenario: Scenario, agent: str, names: Names) -> str:
    return "\n".join(
        COMPACT_PROJECT_LINE.format(name=p.name, reward=_fmt(p.reward),
                                    requirements=" and ".join(f"{u} {names.name(rid)}" for rid, u in p.requires))
        for p in scenario.projects_of(agent))


def render_compact_system_prompt(scenario: Scenario, agent: str, names: Names) -> str:
    resources = ", ".join(f"{names.name(r.id)} ${_fmt(r.cost)} x{r.supply}" for r in scenario.resources)
    projects = compact_project_lines(scenario, agent, names)
    example = _json(purchase_example(scenario, agent, names, 0, 2, q=(3, 1), runs_all_one=True))
    return COMPACT_SYSTEM.format(resources=resources, budget=_fmt(scenario.budget), max_types=scenario.max_types,
                                 projects=projects, purchase_example=example)


# --------------------------------------------------------------------------- D.2 - D.4 user prompts

CHEAP_TALK_HEADER = "--- CHEAP TALK PHASE (Round {round_number}/{num_rounds}) ---"
# D.8: the shifting agent sees only the current round, so its header carries no round count
CHEAP_TALK_HEADER_REDACTED = "--- CHEAP TALK PHASE ---"
CHEAP_TALK_TURN0 = """{header}
Exchange messages with the other party ({turns_info}). Respond with JSON. Set "action" to null to keep chatting, or to a purchase object to finalize."""
# D.6: with thinking off, cheap talk prompts do not request JSON
CHEAP_TALK_TURN0_PLAIN = """{header}
Exchange messages with the other party ({turns_info}). Send your opening message. Or end the round early by responding with ONLY a JSON purchase."""

NEW_PROJECTS = """NEW PROJECTS FOR THIS ROUND:
{lines}"""

# Ours (C.1 themes per round): an agent whose context carries over reads the new names
# before the round's first prompt; the lines repeat D.1.1's, so the names can be read
# the same way.
RESOURCES_RENAMED = """RESOURCES RENAMED FOR THIS ROUND (same supply, costs and rules; only the names change): {mapping}
- Resources available: {resource_types}
- Resource supply per round: {resource_supply}
- Resource costs: {resource_costs}"""
PROJECTS_RENAMED = """YOUR PROJECTS WITH THE NEW NAMES:
{lines}"""

TURNS_INFO_LIMITED = "up to {n} exchanges this round"
TURNS_INFO_UNLIMITED = "as much as required"

OPPONENT_SAID = 'The other party said: "{opponent_message}"'
RESPOND_WITH_JSON = "Respond with JSON."

DECISION_PHASE = """--- DECISION PHASE ---
Now submit your resource purchases and project allocations. Choose at most {max_types} resource types. Total cost must not exceed ${budget}. Respond with JSON. You MUST set "action" to your purchase object (include "projects" to specify runs)."""
# Ours: with thinking off there is no "action" wrapper (D.6), so the last sentence names the bare object.
DECISION_PHASE_PLAIN = """--- DECISION PHASE ---
Now submit your resource purchases and project allocations. Choose at most {max_types} resource types. Total cost must not exceed ${budget}. Respond with ONLY a JSON object with your resource purchases and project allocations (include "projects" to specify runs)."""

REFLECTION = """--- GAME COMPLETE ({total_rounds} rounds) ---
Your cumulative reward: {own_cumulative_reward}. Opponent’s cumulative reward: {opponent_cumulative_reward}. Joint total: {joint_actual}. Theoretical joint maximum (optimal collaboration): {theoretical_max}. Efficiency achieved: {efficiency_pct}%.
Reflect on the game and summarize key learnings that could help you achieve better outcomes in future games. Consider:
- What strategies worked well or poorly?
- How effective was your communication and negotiation approach?
- What would you do differently next time?
- Any patterns you noticed in resource allocation or opponent behavior?
- How close did you get to the theoretical optimum?
Provide a concise reflection (2-4 sentences) focusing on actionable insights."""

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
INVALID_INSTRUCTION_PLAIN_TALK = "Respond with a plain-text message, or with ONLY a JSON purchase object to finalize."
INVALID_INSTRUCTION_PLAIN_DECISION = "Respond with ONLY a JSON object with your resource purchases and project allocations."
INVALID_INSTRUCTION_REFLECTION = "Respond with a short plain-text reflection."

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


# Two pieces most prompts repeat (the resource lines and an agent's project lines) are
# rendered once per scenario, theme names and agent and kept for the process (bounded),
# so a game's round-opening text under a new pair of themes costs little. A key names a
# scenario by id() and the entry holds that scenario, so the id cannot be reused while
# the entry exists.
_PIECES: dict[tuple, tuple[Scenario, object]] = {}
_PIECES_KEPT = 4096


def _piece(kind: str, scenario: Scenario, names: Names, agent: str | None, make):
    key = (kind, id(scenario), tuple(names.display.items()), agent)
    hit = _PIECES.get(key)
    if hit is not None and hit[0] is scenario:
        return hit[1]
    value = make()
    if len(_PIECES) >= _PIECES_KEPT:
        _PIECES.clear()
    _PIECES[key] = (scenario, value)
    return value


def project_lines(scenario: Scenario, agent: str, names: Names) -> str:
    return _piece("projects", scenario, names, agent, lambda: _project_lines(scenario, agent, names))


def _project_lines(scenario: Scenario, agent: str, names: Names) -> str:
    lines = []
    for p in scenario.projects_of(agent):
        req = ", ".join(f"{names.name(rid)}×{u}" for rid, u in p.requires)
        lines.append(PROJECT_LINE.format(name=p.name, requirements=req, reward=_fmt(p.reward)))
    return "\n".join(lines)


def purchase_example(
    scenario: Scenario, agent: str, names: Names, first: int, second: int, q=(3, 1), runs_all_one: bool = False
) -> dict:
    """The Appendix D example purchase ({"wood": 3, "gold": 1, ...}) with this game's names."""
    rids = scenario.resource_ids
    ex = {names.name(rids[first % len(rids)]): q[0]}
    ex.setdefault(names.name(rids[second % len(rids)]), q[1])
    pnames = [p.name for p in scenario.projects_of(agent)]
    runs = {pnames[0]: 1}
    if len(pnames) > 1:
        runs[pnames[1]] = 2 if q == (3, 1) and not runs_all_one else 1
    ex["projects"] = runs
    return ex


@dataclass(frozen=True)
class PromptOptions:
    """The conditions that change an agent's prompts (validated in the game's config)."""

    thinking: bool = True
    shifting: bool = False  # this agent's context is reset every round (D.8): multi-round context hidden
    #: the Situation section (D.1.5): stable | different_opponent | standalone (ours: the
    #: reset agent's one-round game); ``solo`` overrides it
    situation: str = "stable"
    transparency: str = "none"  # none | full | joint (§5.7)
    intervention: str | None = None  # None | project_sharing | theory_of_mind (D.1.5)
    cheap_talk_turns: int = 5
    num_rounds: int = 4
    json_suffix: bool = False  # D.1.4's JSON-compliance suffix (thinking on only)
    solo: bool = False  # the oracle check: the agent decides alone (§3.1)
    joint_plan: str | None = None  # the joint oracle check (§3.1): "lead" (first speaker) or "other"
    style: str = "paper"  # paper | compact (ours, for small models: COMPACT_*)


_SITUATIONS = {"stable": SITUATION_STABLE, "different_opponent": SITUATION_SHIFTING,
               "standalone": SITUATION_STANDALONE}


def _opponent_projects(scenario: Scenario, agent: str, names: Names, transparency: str) -> str:
    if transparency == "none":
        return ""
    other = next(a for a in scenario.agents if a != agent)
    if transparency == "requirements":
        lines = "\n".join(
            OPPONENT_PROJECT_LINE_REQUIREMENTS.format(
                name=p.name, requirements=", ".join(f"{names.name(rid)}×{u}" for rid, u in p.requires)
            )
            for p in scenario.projects_of(other)
        )
    else:
        lines = project_lines(scenario, other, names)
    if transparency == "joint":
        lines += "\n" + OPPONENT_REWARD_FUNCTION
    return OPPONENT_PROJECTS.format(lines=lines)


def render_system_prompt(scenario: Scenario, agent: str, names: Names, opts: PromptOptions = PromptOptions()) -> str:
    if opts.style == "compact":
        return render_compact_system_prompt(scenario, agent, names)
    rids = scenario.resource_ids
    rules = GAME_RULES.format(
        **_resource_fields(scenario, names),
        agent_budget=_fmt(scenario.budget),
        max_types=scenario.max_types,
        carry_over="" if opts.shifting else CARRY_OVER,
    )
    projects = PROJECTS.format(
        n_projects=len(scenario.projects_of(agent)),
        projects_info=project_lines(scenario, agent, names),
        opponent_projects_info=_opponent_projects(scenario, agent, names, opts.transparency),
    )
    decision = DECISION_FORMAT.format(example=_json(purchase_example(scenario, agent, names, 0, 2)))
    if opts.thinking:
        response = RESPONSE_FORMAT_THINKING.format(
            r1=names.name(rids[0]),
            r3=names.name(rids[min(2, len(rids) - 1)]),
            purchase_example=_json(purchase_example(scenario, agent, names, 0, 1, q=(5, 2))),
        )
        if opts.json_suffix:
            response += "\n" + JSON_SUFFIX
    else:
        response = RESPONSE_FORMAT_PLAIN.format(
            purchase_example=_json(purchase_example(scenario, agent, names, 0, 2, q=(3, 1), runs_all_one=True))
        )
    if opts.joint_plan is not None:
        situation = SITUATION_JOINT.format(favoured=SITUATION_JOINT_FAVOURED[opts.joint_plan])
    else:
        situation = SITUATION_SOLO if opts.solo else _SITUATIONS[opts.situation]
    if opts.intervention == "project_sharing":
        situation += "\n\n" + INTERVENTION_PROJECT_SHARING
    elif opts.intervention == "theory_of_mind":
        situation += "\n\n" + INTERVENTION_THEORY_OF_MIND
    return "\n\n".join([rules, projects, decision, response, situation])


def render_turn0(round_number: int, opts: PromptOptions) -> str:
    n = opts.cheap_talk_turns
    if opts.style == "compact":
        return COMPACT_TURN0.format(round_number=round_number, num_rounds=opts.num_rounds,
                                    turns_info=(f"up to {n} message{'s' if n > 1 else ''} each" if n else "no message limit"))
    info = TURNS_INFO_LIMITED.format(n=n) if n else TURNS_INFO_UNLIMITED
    header = (
        CHEAP_TALK_HEADER_REDACTED
        if opts.shifting
        else CHEAP_TALK_HEADER.format(round_number=round_number, num_rounds=opts.num_rounds)
    )
    text = (CHEAP_TALK_TURN0 if opts.thinking else CHEAP_TALK_TURN0_PLAIN).format(header=header, turns_info=info)
    if opts.intervention == "theory_of_mind":
        text += "\n" + TOM_REMINDER
    return text


def _resource_fields(scenario: Scenario, names: Names) -> dict[str, str]:
    return dict(_piece("resources", scenario, names, None, lambda: _render_resource_fields(scenario, names)))


def _render_resource_fields(scenario: Scenario, names: Names) -> dict[str, str]:
    return dict(
        resource_types=", ".join(names.name(r) for r in scenario.resource_ids),
        resource_supply=_json({names.name(r.id): r.supply for r in scenario.resources}),
        resource_costs=_json({names.name(r.id): _num(r.cost) for r in scenario.resources}),
    )


def render_new_projects(scenario: Scenario, agent: str, names: Names, transparency: str = "none",
                        style: str = "paper") -> str:
    """D.2.3's block; under transparency the other party's new projects follow it, as the
    system prompt shows them in round 1. ``style="compact"``: the lines as the compact
    system prompt words them (no transparency there)."""
    if style == "compact":
        return NEW_PROJECTS.format(lines=compact_project_lines(scenario, agent, names))
    return NEW_PROJECTS.format(lines=project_lines(scenario, agent, names)) + _opponent_projects(
        scenario, agent, names, transparency)


def render_renamed_resources(scenario: Scenario, previous: Names, names: Names) -> str:
    mapping = ", ".join(f"{previous.name(r)} → {names.name(r)}" for r in scenario.resource_ids
                        if previous.name(r) != names.name(r))
    return RESOURCES_RENAMED.format(mapping=mapping + ".", **_resource_fields(scenario, names))


def render_projects_renamed(scenario: Scenario, agent: str, names: Names, transparency: str = "none",
                            style: str = "paper") -> str:
    if style == "compact":
        return PROJECTS_RENAMED.format(lines=compact_project_lines(scenario, agent, names))
    return PROJECTS_RENAMED.format(lines=project_lines(scenario, agent, names)) + _opponent_projects(
        scenario, agent, names, transparency)


def render_opponent_said(message: str, verbatim: bool = True) -> str:
    """D.2.2's quoted message. ``verbatim`` (the paper: D.6 "Everything you say is passed
    VERBATIM to the other party"): the words as accepted, line breaks and quotation marks
    included. Otherwise the hardened form: escaped (:func:`quote_speech`) so they stay
    inside the quotes on one line and can never pass as env text."""
    if not message:
        return OPPONENT_SAID.format(opponent_message=NO_MESSAGE)
    return OPPONENT_SAID.format(opponent_message=message if verbatim else quote_speech(message))


#: the fixed openings of the env's own lines (Appendix D's templates and ours): a message
#: shown verbatim that holds one can read to its partner as env text
ENV_MARKERS = (
    "--- CHEAP TALK PHASE", "--- DECISION PHASE ---", "--- Round result:", "--- GAME COMPLETE", "--- TALK (round",
    "--- DECISION ---", "The other party said:", "NEW PROJECTS FOR THIS ROUND", "RESOURCES RENAMED FOR THIS ROUND",
    "YOUR PROJECTS WITH THE NEW NAMES", "Your previous response was invalid", "## Game Rules", "## Projects",
    "## Decision Format", "## Response Format", "## Your Situation", NO_MESSAGE,
)


def env_markers(message: str) -> list[str]:
    """The :data:`ENV_MARKERS` a message holds, in that order."""
    return [m for m in ENV_MARKERS if m in message]


def render_reply_prompt(message: str, opts: PromptOptions, verbatim: bool = True) -> str:
    """D.2.2: a later cheap-talk turn (no JSON request with thinking off, D.6)."""
    said = render_opponent_said(message, verbatim)
    return said + "\n" + RESPOND_WITH_JSON if opts.thinking else said


def render_decision_prompt(scenario: Scenario, opts: PromptOptions = PromptOptions()) -> str:
    if opts.style == "compact":
        return COMPACT_DECISION.format(max_types=scenario.max_types, budget=_fmt(scenario.budget))
    template = DECISION_PHASE if opts.thinking else DECISION_PHASE_PLAIN
    return template.format(max_types=scenario.max_types, budget=_fmt(scenario.budget))


def render_reflection(total_rounds: int, own: float, opponent: float, theoretical_max: float) -> str:
    joint = own + opponent
    pct = 100.0 * joint / theoretical_max if theoretical_max > 0 else 100.0
    return REFLECTION.format(
        total_rounds=total_rounds,
        own_cumulative_reward=_fmt(own),
        opponent_cumulative_reward=_fmt(opponent),
        joint_actual=_fmt(joint),
        theoretical_max=_fmt(theoretical_max),
        efficiency_pct=f"{pct:.1f}",
    )


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


def render_invalid(error: str, phase: str, thinking: bool = True) -> str:
    if phase == "reflection":
        instr = INVALID_INSTRUCTION_REFLECTION
    elif thinking:
        instr = INVALID_INSTRUCTION_DECISION if phase == "decision" else INVALID_INSTRUCTION_TALK
    else:
        instr = INVALID_INSTRUCTION_PLAIN_DECISION if phase == "decision" else INVALID_INSTRUCTION_PLAIN_TALK
    return INVALID_RESPONSE.format(error=error, instruction=instr)
