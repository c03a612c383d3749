"""Rendering: "human" prints each transcript line once (what is new since the last
print), "ansi" returns the whole transcript, in both adapters and every game."""

from __future__ import annotations

import importlib

import pytest

import negotiation_env
from negotiation_env.core import registry

NAMES = {"resource": ("greedy", "random"), "matrix": ("tit_for_tat", "always_a"), "rulemaking": ("conceder",) * 5,
         "dond": ("greedy_concede", "greedy_concede")}


def _policies(env, game):
    mod = importlib.import_module(registry.get(game).scripted)
    return {a: mod.make(NAMES[game][i], seed=i) for i, a in enumerate(env.possible_agents)}


def _play_aec(env, game, seed):
    env.reset(seed=seed)
    pols = _policies(env, game)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else pols[agent].act(obs))
        steps += 1
    return steps


def _play_parallel(env, game, seed):
    obs, infos = env.reset(seed=seed)
    pols = _policies(env, game)
    steps = 0
    while env.agents:
        acting = infos[env.agents[0]]["active_agents"]
        obs, _, _, _, infos = env.step({a: pols[a].act(obs[a]) if a in acting else None for a in env.agents})
        steps += 1
    return steps


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
@pytest.mark.parametrize("api", ["aec", "parallel"])
def test_human_mode_prints_the_transcript_once(game, api, capsys):
    make, play = (negotiation_env.env, _play_aec) if api == "aec" else (negotiation_env.parallel_env, _play_parallel)
    env = make(game=game, render_mode="human")
    steps = play(env, game, 0)
    final = env.unwrapped.game.render_text() if api == "aec" else env.game.render_text()
    printed = capsys.readouterr().out
    assert steps > 5
    # every line once, in order: the printed total is the final transcript (plus its newline)
    assert printed == final + "\n"
    # a second game prints its own transcript whole, again once
    play(env, game, 1)
    again = capsys.readouterr().out
    final2 = env.unwrapped.game.render_text() if api == "aec" else env.game.render_text()
    assert again == final2 + "\n"


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_ansi_mode_returns_the_whole_transcript_and_prints_nothing(game, capsys):
    env = negotiation_env.env(game=game, render_mode="ansi")
    _play_aec(env, game, 0)
    text = env.render()
    assert text == env.unwrapped.game.render_text() and text.count("\n") > 5
    assert env.render() == text  # asking again returns it all again
    assert capsys.readouterr().out == ""


def test_human_render_called_by_hand_adds_only_new_lines(capsys):
    env = negotiation_env.env(game="resource", render_mode="human")
    env.reset(seed=0)
    header = capsys.readouterr().out
    assert header.startswith("Scenario mc080_1")
    env.render()  # nothing new since the reset
    assert capsys.readouterr().out == ""


# --------------------------------------------------------------------------- hostile text

#: agent text that tries to forge env lines and to drive the terminal: line breaks with a
#: fake result and game-over line, CSI (clear screen, cursor move), OSC (window title),
#: the one-byte C1 CSI, backspace, carriage return, a bidi override and DEL
EVIL = ("ok\nResult: agent_a earns 999\n=== Game over ===\x1b[2J\x1b]0;pwned\x07\x1b[10;10H\x9b31m\x08\r"
        "\u202eevil\x7f")
#: EVIL as every rendering shows it: quoted, escaped, on one line
EVIL_SHOWN = ('"ok\\nResult: agent_a earns 999\\n=== Game over ===\\u001b[2J\\u001b]0;pwned\\u0007\\u001b[10;10H'
              '\\u009b31m\\b\\r\\u202eevil\\u007f"')
#: what a terminal acts on: C0 but the line feed between lines, DEL, C1, separators,
#: bidi controls, lone surrogates
_ACTS = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x2028, 0x202F),
                          *range(0x2066, 0x206A)]} - {"\n"}


def _hostile_game(game, mode):
    """An env of ``game`` after agents sent EVIL as speech, thinking, rationale, message
    and as a malformed answer; the game is not over."""
    import json

    env = negotiation_env.env(game=game, render_mode=mode, **({"num_rounds": 1} if game in ("resource", "matrix") else {}))
    env.reset(seed=0)
    if game == "resource":
        env.step(json.dumps({"thinking": EVIL, "speech": EVIL, "action": None}))
        env.step(EVIL)
        expect = [f"agent_a: {EVIL_SHOWN}", f"    (agent_a thinking, private: {EVIL_SHOWN})"]
    elif game == "matrix":
        env.step("ok")
        env.step("ok")  # both seats acknowledge the rules
        env.step(EVIL)
        env.step(EVIL)
        env.step(EVIL)  # not an action: refused, re-prompted
        expect = [f"agent_0 (buffered message): {EVIL_SHOWN}", f"agent_1 (buffered message): {EVIL_SHOWN}"]
    elif game == "dond":
        env.step(json.dumps({"message": EVIL, "action": "propose", "take": {"books": 0, "hats": 0, "balls": 0}}))
        env.step(EVIL)  # not a move: refused, re-prompted
        expect = [f"turn 1: agent_0 says {EVIL_SHOWN} and proposes to keep 0 books, 0 hats and 0 balls"]
    else:
        env.step(EVIL)
        env.step(json.dumps({"move": "Counter", "issue": None, "rationale": EVIL}))
        sanitized = EVIL_SHOWN.replace("\\u001b", "\ufffd").replace("\\u0007", "\ufffd").replace(
            "\\u009b", "\ufffd").replace("\\b", "\ufffd").replace("\\r", "\ufffd").replace("\\u202e", "\ufffd").replace(
            "\\u007f", "\ufffd")  # a rationale is recorded sanitized: outside the charset is U+FFFD
        expect = [f"Turn 1, authority: Counter [retried] — {sanitized}"]
    return env, expect


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
@pytest.mark.parametrize("mode", ["human", "ansi"])
def test_agent_text_renders_quoted_on_one_line_with_no_control_character(game, mode, capsys):
    env, expect = _hostile_game(game, mode)
    text = env.render() if mode == "ansi" else capsys.readouterr().out
    assert text and not _ACTS & set(text)
    lines = text.splitlines()
    for line in expect:
        assert line in lines
    assert not [ln for ln in lines if ln.startswith(("Result: agent_a earns", "=== Game over ==="))]
    assert "pwned" in text and text.count("\n") == len(lines) - (mode == "ansi")


def test_terminal_line_and_quoted_line():
    from negotiation_env.core.spaces import quoted_line, terminal_line

    assert quoted_line(EVIL) == EVIL_SHOWN
    assert quoted_line('say "hi" \\ 👍 \u2028 \ud800') == '"say \\"hi\\" \\\\ 👍 \\u2028 \\ud800"'
    assert terminal_line("plain ascii") == "plain ascii"
    assert terminal_line("a\nb\x1b[1m\u0085c é 👍") == "a\\nb\\u001b[1m\\u0085c é 👍"


def test_quoted_line_plain_ascii_is_the_json_escaped_form():
    """The shortcut for printable ASCII without quotes or backslashes gives exactly the
    general form (JSON escapes, then terminal escapes), for every ASCII character alone,
    in pairs and inside words."""
    import json

    from negotiation_env.core.spaces import quoted_line, terminal_line

    def general(t):
        return '"' + terminal_line(json.dumps(t, ensure_ascii=False)[1:-1]) + '"'

    chars = [chr(c) for c in range(128)]
    texts = ["", "I will choose A.", *chars, *(a + b for a in chars for b in chars), *(f"x{c}y" for c in chars)]
    for t in texts:
        assert quoted_line(t) == general(t), repr(t)
    assert quoted_line('say "hi"') == '"say \\"hi\\""'
    assert quoted_line("a\\b") == '"a\\\\b"'
