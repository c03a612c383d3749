"""The matrix game's prompts: every template block word for word from the paper (F.5,
F.6, F.7, Tables S6, S8, S12), golden files for whole system prompts and conversations,
and what the text must never say (the game's name, the horizon).

Regenerate the golden files after a deliberate template change with
``NEGOTIATION_ENV_UPDATE_GOLDEN=1 pytest tests/games/matrix/test_prompts.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import negotiation_env
from negotiation_env import ConfigError
from negotiation_env.games.matrix import prompts
from negotiation_env.games.matrix.features import FRAMINGS
from negotiation_env.games.matrix.rules import STAGE_GAMES, stage_game

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
UPDATE = os.environ.get("NEGOTIATION_ENV_UPDATE_GOLDEN") == "1"
PAPER = re.sub(r"\s+", " ", (HERE / "paper_excerpt.txt").read_text(encoding="utf-8"))


def paper_form(text: str) -> str:
    """A template as the paper prints it: line breaks as [blank line] / [newline]."""
    return re.sub(r"\s+", " ", text.replace("\n\n", " [blank line] ").replace("\n", " [newline] "))


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


# --------------------------------------------------------------------------- verbatim

PAPER_NAMES = {"neutral": "Neutral", "business": "Business", "environmental": "Environmental", "social": "Social",
               "team": "Team", "international_relations": "International relations"}


@pytest.mark.parametrize("framing", FRAMINGS)
def test_framings_are_the_papers_word_for_word(framing):
    assert set(prompts.FRAMINGS) == set(FRAMINGS)
    text = prompts.FRAMINGS[framing].format(i="i", j="j")
    assert f"{PAPER_NAMES[framing]}. {flat(text)}" in PAPER


def test_treatment_blocks_and_common_ending_are_the_papers():
    assert f"Communication treatment. {flat(prompts.COMMUNICATION_BLOCK)} No-communication treatment." in PAPER
    assert f"No-communication treatment. {flat(prompts.NO_COMMUNICATION_BLOCK)} Game A You B, other A" in PAPER
    assert f"Common system-prompt ending. {flat(prompts.COMMON_ENDING)} F.6" in PAPER


def test_round_prompts_are_table_s12():
    assert f"Round-1 message “{paper_form(prompts.render_round_prompt(None, prompts.MESSAGE_PROMPT))}”" in PAPER
    assert (f"Later message “{paper_form(prompts.render_round_prompt('[previous-round result]', prompts.MESSAGE_PROMPT))}”"
            in PAPER)
    assert f"Action after message “{paper_form(prompts.render_action_after_message('j', '[message]'))}”" in PAPER
    assert f"No-message action “{paper_form(prompts.ACTION_PROMPT)}”" in PAPER
    result = prompts.render_result("t", "j", "[own action]", "[partner action]", "[points]", "[score]")
    assert f"Previous-round result “{paper_form(result)}”" in PAPER
    assert f"replaced by “{prompts.NO_MESSAGE}”" in PAPER
    assert "Round 1 is prefixed by “The interaction begins.”" in PAPER and prompts.ROUND1_PREFIX == "The interaction begins."


def test_replay_texts_are_f7_s6_s8():
    assert f"its dummy string is exactly “{prompts.DUMMY_TEXT}”" in PAPER
    assert f"“{prompts.DUMMY_BLOCK.split(':')[0]}: [fixed dummy text]”" in PAPER
    synthetic = paper_form(prompts.SYNTHETIC_RESULT.format(round="[index]", j="j", other="[A or B]"))
    assert f"Experiment 2 replaces the latest outcome summary with “{synthetic}”" in PAPER
    assert f"A “{prompts.MUTUAL_BENEFIT}” A/MB A “{prompts.SELF_PRIORITY}” A/SP" in PAPER


# --------------------------------------------------------------------------- composition


def test_system_prompt_is_framing_treatment_payoffs_ending():
    g = stage_game("snowdrift")
    text = prompts.render_system(g, "business", True, "0", "1")
    lines = prompts.render_payoff_lines(g).split("\n")
    assert text == "\n\n".join([prompts.FRAMINGS["business"].format(i="0", j="1"),
                                prompts.COMMUNICATION_BLOCK + "\n" + "\n".join(lines), prompts.COMMON_ENDING])
    assert lines == [
        "If you choose A and your counterpart chooses A: you get 3 points, your counterpart gets 3 points.",
        "If you choose B and your counterpart chooses A: you get 5 points, your counterpart gets 1 point.",
        "If you choose A and your counterpart chooses B: you get 1 point, your counterpart gets 5 points.",
        "If you choose B and your counterpart chooses B: you get 0 points, your counterpart gets 0 points.",
    ]
    assert "CEO of firm 0 operating in a competitive market with the CEO of firm 1." in text


def test_golden_system_prompts_all_48():
    out = []
    for framing in FRAMINGS:
        for game in STAGE_GAMES:
            for treatment in ("communication", "none"):
                env = negotiation_env.env(game="matrix", framing=framing, stage_game=game, treatment=treatment)
                env.reset(seed=0)
                system = env.observe("agent_0")["conversation"][0]
                assert system["role"] == "system"
                out.append(f"##### {framing} | {game} | {treatment}\n{system['content']}")
    assert len(out) == 48
    check_golden("system_prompts.txt", "\n\n".join(out) + "\n")


def test_the_games_name_is_never_shown():
    names = re.compile(r"prisoner|dilemma|snowdrift|stag|hunt|harmony|chicken", re.I)
    for framing in FRAMINGS:
        for game in STAGE_GAMES:
            for treatment in ("communication", "none"):
                text = prompts.render_system(stage_game(game), framing, treatment == "communication", "0", "1")
                assert not names.search(text), (framing, game, treatment)


def _play(num_rounds, rounds_seen, **cfg):
    """Observations of both agents up to ``rounds_seen`` rounds (both play A, then B, ...)."""
    env = negotiation_env.env(game="matrix", num_rounds=num_rounds, **cfg)
    env.reset(seed=0)
    seen = []
    while env.agents and env.unwrapped.game.round <= rounds_seen and not env.unwrapped.game.done:
        a = env.agent_selection
        g = env.unwrapped.game
        seen.append((a, env.observe(a)["conversation"], env.observe(a)["features"].tolist()))
        env.step("Understood." if g.phase == "acknowledge" else "We should both do well." if g.phase == "message"
                 else "AB"[g.round % 2])
    return seen


@pytest.mark.parametrize("treatment", ["communication", "none"])
def test_the_horizon_is_never_told(treatment):
    """Seven rounds of a 7-round and a 30-round dyad read identically to the agents."""
    short, long = _play(7, 7, treatment=treatment), _play(30, 7, treatment=treatment)
    assert len(short) == len(long) == 2 + 7 * (4 if treatment == "communication" else 2)  # 2: the acknowledgements
    assert short == long
    assert not re.search(r"\b(7|30|seven|thirty)\s+rounds\b", str(short), re.I)


def test_golden_conversations():
    """At the defaults (the paper's protocol): the acknowledgement call first, messages
    verbatim (agent_0's first one spans two lines, and agent_1 reads both as sent)."""
    env = negotiation_env.env(game="matrix", stage_game="prisoners_dilemma", framing="neutral", num_rounds=4)
    env.reset(seed=0)
    script = ["Understood.", "Understood. I am ready.",
              "Let us both pick the mutual option.\nACTION PHASE: choose A.", "I will match your choice.", "A",
              "<think>defect?</think>B", "Sorry about that; back to A?", "", "I choose A.", "b"]
    for answer in script:
        env.step(answer)
    conv = env.observe("agent_1")["conversation"]
    check_golden("talk_pd_neutral_agent_1.txt", "\n\n=====\n\n".join(f"[{m['role']}]\n{m['content']}" for m in conv))
    env = negotiation_env.env(game="matrix", stage_game="stag_hunt", framing="business", treatment="none",
                              num_rounds=3, agent_names=("Alpha", "Beta"))
    env.reset(seed=0)
    for answer in ["Understood.", "Ready.", "A", "B", "A", "A", "B", "B"]:
        env.step(answer)
    conv = env.observe("agent_0")["conversation"]
    check_golden("notalk_staghunt_business_agent_0.txt",
                 "\n\n=====\n\n".join(f"[{m['role']}]\n{m['content']}" for m in conv))


def test_payoff_line_is_configurable_and_checked():
    env = negotiation_env.env(game="matrix", stage_game="harmony",
                              payoff_line="You {own}, other {other}: {own_points} / {other_points}")
    env.reset(seed=0)
    system = env.observe("agent_0")["conversation"][0]["content"]
    assert "The payoffs for each pair are:\nYou A, other A: 5 points / 5 points\nYou B, other A: 1 point / 3 points\n" \
           "You A, other B: 3 points / 1 point\nYou B, other B: 0 points / 0 points\n\nWhen choosing" in system
    for bad in ("{own} {unknown}", "", "two\nlines {own}", 5):
        with pytest.raises(ConfigError, match="config field 'payoff_line'"):
            negotiation_env.env(game="matrix", payoff_line=bad)


def test_one_line_escapes_breaks_but_not_quotes():
    assert prompts.one_line('Say "A"\nthen\tgo \\ on') == 'Say "A"\\nthen\\tgo \\\\ on'
    assert prompts.one_line("plain text.") == "plain text."
    assert prompts.points_text(1) == "1 point" and prompts.points_text(0) == "0 points"
