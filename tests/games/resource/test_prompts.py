"""Prompts: golden files of whole games, and literal agreement with seed 000 Appendix D.

Regenerate the golden files after a deliberate template change with
``NEGOTIATION_ENV_UPDATE_GOLDEN=1 pytest tests/games/resource/test_prompts.py`` and
review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import negotiation_env
from negotiation_env.games.resource import load_scenario
from negotiation_env.games.resource.prompts import Names, render_system_prompt
from negotiation_env.games.resource.themes import theme_names

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("NEGOTIATION_ENV_UPDATE_GOLDEN") == "1"


def T(speech, action=None, thinking="private"):
    return json.dumps({"thinking": thinking, "speech": speech, "action": action})


#: the scenario the script below is written for (agent_a: stone×2 + gold×3 runs project_a;
#: agent_b: wood runs project_a); a legacy scenario, so the shipped pool can change
SCRIPTED = "legacy_mc080_1"

# round 1: early decision by agent_b after one invalid response; round 2: all turns used
SCRIPT = [
    T("Hi, I need stone and gold."),
    T("I mostly need wood."),
    T("Then take the wood, I take stone and gold?"),
    '{"speech": "Deal", "action": {"iron": 3}}',
    T("Deal.", {"wood": 10}),
    T("Great.", {"stone": 2, "gold": 3}),
] + [T(f"talk {i}") for i in range(10)] + [
    T("final", {"stone": 2, "gold": 3, "projects": {"project_a": 1}}),
    '```json\n{"thinking": "", "speech": "ok", "action": {"wood": 5}}\n```',
    "We found the split early; next time I would name my projects first.",  # D.5 reflections
    "Asking for wood paid; I should check the totals before deciding.",
]


def transcript(conv) -> str:
    return "\n\n".join(f"### {m['role']}\n{m['content']}" for m in conv) + "\n"


def play_script():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=2)
    env.reset(seed=0)
    script = iter(SCRIPT)
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else next(script))
    return env


def test_golden_whole_game_conversations():
    env = negotiation_env.env(scenario=SCRIPTED, theme="medieval", num_rounds=2)
    env.reset(seed=0)
    script = iter(SCRIPT)
    final = {}
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = obs["conversation"]
            env.step(None)
        else:
            env.step(next(script))
    assert next(script, None) is None, "the script was not consumed exactly"
    for agent, conv in final.items():
        path = GOLDEN / f"resource_two_rounds_{agent}.txt"
        text = transcript(conv)
        if UPDATE:
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8"), f"{path.name} differs; see the module docstring"


def flat(s: str) -> str:
    """The appendix prints templates on one line; compare with line breaks as spaces."""
    return re.sub(r"\s+", " ", s).strip()


def test_system_prompt_matches_appendix_d_examples():
    sc = load_scenario(SCRIPTED)
    text = render_system_prompt(sc, "agent_a", Names(theme_names("medieval", sc.resource_ids)))
    # D.1.1 example instantiation, verbatim
    assert flat(
        "- Resources available: wood, stone, gold - Resource supply per round: {\"wood\": 10, \"stone\": 10, \"gold\": 6} "
        "- Resource costs: {\"wood\": 1, \"stone\": 1.5, \"gold\": 3} - Your budget per round: $18 "
        "- You may purchase at most 2 different resource types per round."
    ) in flat(text)
    assert flat("- Resources do NOT carry over between rounds — each round starts fresh with a new budget and new supply. "
                "- If total demand for ANY resource exceeds supply, the round is ANNULLED and both parties get 0 reward.") in flat(text)
    # D.1.3 with the example purchase, D.1.4 examples, D.1.5 stable partners
    assert flat('{"wood": 3, "gold": 1, "projects": {"project_a": 1, "project_b": 2}} The "projects" field specifies how many '
                "times to run each project. If omitted, the engine assigns resources to projects automatically by "
                "prioritizing projects in the order presented to you.") in flat(text)
    assert flat('Example — purchasing: {"thinking": "I’ll buy wood for my projects.", "speech": "Good luck!", "action": '
                '{"wood": 5, "stone": 2, "projects": {"project_a": 1, "project_b": 1}}}') in flat(text)
    assert flat('Example — chatting: {"thinking": "They might want gold. I should bluff.", "speech": "I’m thinking about gold. '
                'What about you?", "action": null}') in flat(text)
    assert text.endswith("## Your Situation\n- Your goal: maximize your cumulative reward across all rounds\n"
                         "- The other party is also purchasing from the same shared pool.")
    assert "- project_a: requires [stone×2, gold×3], reward = 17/run" in text
    # D.1.2 example project line format on a scenario with the appendix's own projects
    d = sc.to_dict()
    d["projects"]["agent_a"] = {
        "project_a": {"requires": {"r2": 2}, "reward": 6},
        "project_b": {"requires": {"r1": 5, "r3": 3}, "reward": 15},
        "project_c": {"requires": {"r2": 4}, "reward": 10},
    }
    sc2 = type(sc).from_dict(d)
    text2 = render_system_prompt(sc2, "agent_a", Names(theme_names("medieval", sc.resource_ids)))
    assert flat("- project_a: requires [stone×2], reward = 6/run - project_b: requires [wood×5, gold×3], reward = 15/run "
                "- project_c: requires [stone×4], reward = 10/run") in flat(text2)


def test_user_prompts_match_appendix_d_examples():
    env = play_script()
    conv_a = env.unwrapped.game._states["agent_a"].conversation
    users = [m["content"] for m in conv_a if m["role"] == "user"]
    # D.2.1 example for Round 1 of a 4-round game (our game has 2 rounds: check the shape on a fresh env)
    e4 = negotiation_env.env(theme="medieval")
    e4.reset(seed=0)
    assert flat(e4.observe("agent_a")["prompt"]) == flat(
        "--- CHEAP TALK PHASE (Round 1/4) --- Exchange messages with the other party (up to 5 exchanges this round). "
        'Respond with JSON. Set "action" to null to keep chatting, or to a purchase object to finalize.'
    )
    # D.2.2
    assert flat('The other party said: "I mostly need wood." Respond with JSON.') == flat(users[1])
    # D.3 example
    assert flat(
        "--- DECISION PHASE --- Now submit your resource purchases and project allocations. Choose at most 2 resource "
        "types. Total cost must not exceed $18. Respond with JSON. You MUST set \"action\" to your purchase object "
        "(include \"projects\" to specify runs)."
    ) in flat(users[2])


@pytest.mark.parametrize("agent", ["agent_a", "agent_b"])
def test_golden_files_exist_and_are_nontrivial(agent):
    text = (GOLDEN / f"resource_two_rounds_{agent}.txt").read_text(encoding="utf-8")
    assert text.count("--- Round result:") == 2 and text.startswith("### system\n## Game Rules")
