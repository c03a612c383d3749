"""Rendering: "human" prints each transcript line once (what is new since the last
print), "ansi" returns the whole transcript, in both adapters and every game."""

from __future__ import annotations

import importlib

import pytest

import negotiation_env

NAMES = {"resource": ("greedy", "random"), "matrix": ("tit_for_tat", "always_a"), "rulemaking": ("conceder",) * 5}


def _policies(env, game):
    mod = importlib.import_module("baselines.scripted" if game == "resource" else f"baselines.scripted.{game}")
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
