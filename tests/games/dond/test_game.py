"""Deal or No Deal played whole: moves and their ends, scripted players, the numeric view,
the run summary and report hooks, and every command on a tiny run."""

from __future__ import annotations

import json

import numpy as np
import pytest

import negotiation_env
from negotiation_env.cli import main
from negotiation_env.core.config import ConfigError
from negotiation_env.games.dond.analysis import ANALYSIS
from negotiation_env.games.dond.encoder import vector
from negotiation_env.games.dond.menu import LABELS
from negotiation_env.games.dond.scripted import POLICIES, generous_split, make
from negotiation_env.games.dond.summary import SUMMARY
from negotiation_env.wrappers import numeric

INSTANCE = "1,2,3 8,1,0 4,0,2"


def _play(answers, **config):
    env = negotiation_env.env("dond", instance=INSTANCE, **config)
    env.reset(seed=0)
    answers = iter(answers)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else next(answers))
    return env.unwrapped.game


def _propose(b, h, l):
    return {"action": "propose", "take": [b, h, l]}


def test_accepting_pays_each_its_value_of_its_share():
    g = _play([_propose(1, 2, 0), {"action": "accept", "message": "ok"}])
    o = g.outcome
    assert (o["end_reason"], o["rewards"], o["joint"], o["pareto_optimal"]) == (
        "agreement", {"agent_0": 10, "agent_1": 6}, 16, True)
    assert o["nash_product"] == 60 == o["max_nash_product"]


def test_walking_away_and_the_turn_limit_pay_nothing():
    assert _play([_propose(1, 2, 0), {"action": "walk_away"}]).outcome["rewards"] == {"agent_0": 0, "agent_1": 0}
    g = _play([_propose(1, 2, 0), _propose(0, 0, 3), _propose(1, 1, 0)], max_turns=3)
    assert (g.outcome["end_reason"], g.outcome["agreement"], g.outcome["turns"]) == ("turn_limit", False, 3)


def test_refused_moves_are_retried_then_the_turn_passes():
    # accept with nothing on the table, twice: agent_0's turn passes; agent_1 keeps hats and balls
    g = _play([{"action": "accept"}, {"action": "accept"}, _propose(0, 2, 3), {"action": "accept"}], max_retries=1)
    kinds = [e["type"] for e in g.events]
    assert kinds == ["validation_error", "validation_error", "action_fallback"]
    assert g.outcome["rewards"] == {"agent_0": 8, "agent_1": 6} and g.outcome["fallbacks"]["agent_0"] == 1


def test_walk_away_off_is_refused():
    g = _play([{"action": "walk_away"}, _propose(1, 2, 0), {"action": "accept"}], walk_away=False)
    assert g.events[0]["message"] == "walking away is not allowed in this negotiation; propose a split or accept"
    assert g.outcome["agreement"]


@pytest.mark.parametrize("config,field", [({"max_turns": 0}, "max_turns"), ({"instance": "1,1,1 1,1,1 1,1,1"},
                                                                                    "instance"),
                                          ({"walk_away": "yes"}, "walk_away")])
def test_bad_config_names_the_field(config, field):
    with pytest.raises(ConfigError) as e:
        negotiation_env.env("dond", **config)
    assert field in str(e.value)


def _scripted_game(a, b, seed, output="structured"):
    env = negotiation_env.env("dond")
    pols = {"agent_0": make(a, seed=seed, output=output), "agent_1": make(b, seed=seed + 1, output=output)}
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else pols[agent].act(obs))
    g = env.unwrapped.game
    return g.outcome, g.render_text()


@pytest.mark.parametrize("a", list(POLICIES))
@pytest.mark.parametrize("b", list(POLICIES))
def test_scripted_players_finish_deterministically_and_text_agrees(a, b):
    first = _scripted_game(a, b, 7)
    assert first == _scripted_game(a, b, 7)
    assert first[0] == _scripted_game(a, b, 7, output="text")[0]
    assert first[0]["fallbacks"] == {"agent_0": 0, "agent_1": 0}


def test_scripted_closed_forms():
    # accept_anything opens by keeping what it values: the book and the hats; the partner accepts
    g = negotiation_env.env("dond", instance=INSTANCE)
    pols = {"agent_0": make("accept_anything"), "agent_1": make("accept_anything")}
    g.reset(seed=0)
    for agent in g.agent_iter():
        obs, _, term, trunc, _ = g.last()
        g.step(None if term or trunc else pols[agent].act(obs))
    assert g.unwrapped.game.outcome["rewards"] == {"agent_0": 10, "agent_1": 6}
    # the most generous split worth at least 5 to agent_1 (values 4, 0, 2): 3 balls (6) or book + 1 ball (6);
    # fewest items kept wins: the book and one ball
    assert generous_split((1, 2, 3), (4, 0, 2), 5) == (1, 0, 1)


def test_numeric_view_masks_and_plays():
    env = numeric(negotiation_env.env("dond", instance=INSTANCE))
    env.reset(seed=0)
    obs = env.observe("agent_0")
    mask = obs["action_mask"]
    assert env.action_labels() == list(LABELS) and len(LABELS) == 30
    # no offer yet: no accept; walk away allowed; 1 book (none = half), 2 hats, 3 balls: 2 * 3 * 3 distinct splits
    assert (mask[0], mask[1], mask[2], int(mask[3:].sum())) == (0, 0, 1, 18)
    env.step(LABELS.index("propose_all_all_none"))
    assert env.observe("agent_1")["action_mask"][1] == 1
    env.step(1)
    assert env.unwrapped.game.outcome["rewards"] == {"agent_0": 10, "agent_1": 6}


def test_action_vector_summary_and_analysis_of_a_finished_game():
    from negotiation_env.traces import record

    env = record(negotiation_env.env("dond", instance=INSTANCE), policies=None, keep=True)
    env.reset(seed=0)
    for agent, move in zip(env.agent_iter(), [_propose(1, 2, 0), {"action": "accept"}]):
        env.step(move)
    for agent in env.agent_iter():
        env.step(None)
    trace = env.last_trace.to_dict()
    assert [vector(s["parsed"]) for s in trace["steps"]] == [[1, 0, 0, 1, 2, 0], [0, 1, 0, 0, 0, 0]]
    figures = SUMMARY.figures(SUMMARY.measures(trace))
    assert figures == {"games": 1, "kept": 1, "agreement": 1.0, "pareto": 1.0, "joint": 16.0, "joint_ratio": 1.0,
                       "nash_ratio": 1.0}
    assert ANALYSIS.outcome_tags(trace) == ["agreement"]
    section = ANALYSIS.report([trace, {**trace, "game_id": "x", "status": "error"}], n_resamples=None,
                              include_fallbacks=False, labels=None)
    (table,) = section.tables
    assert table.rows[-1] == ["all", 2, 1, 1.0, 16.0, 16.0, 1.0, 60.0, 60.0]
    assert any("left out: 1 game(s): x (error)" in n for n in section.notes)


def test_every_command_on_a_tiny_run(tmp_path, capsys):
    cfg = tmp_path / "dond.toml"
    cfg.write_text('name = "tiny"\nseed = 0\n[[games]]\ngame = "dond"\n'
                   'policies = ["scripted:greedy_concede", "scripted:random"]\npairings = "cross"\n'
                   'games_per_cell = 2\nconfig = { max_turns = 6 }\n', encoding="utf-8")
    run = tmp_path / "run"
    assert main(["run", str(cfg), "--out", str(run)]) == 0
    assert "games kept | agreement | pareto" in capsys.readouterr().out
    assert main(["play", "--game", "dond", "--seed", "1"]) == 0
    assert "Game ended at turn" in capsys.readouterr().out
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    assert main(["view", str(run), "--out", str(tmp_path / "view.html")]) == 0
    for kind in ("transitions", "sft", "sft_prompt_completion"):
        assert main(["export", str(run), "--kind", kind, "--out", str(tmp_path / f"{kind}.jsonl")]) == 0
    assert main(["export", str(run), "--kind", "preferences", "--score", "return",
                 "--out", str(tmp_path / "pref.jsonl")]) in (0, 1)
    rows = [json.loads(line) for line in (tmp_path / "transitions.jsonl").read_text().splitlines()]
    assert rows and all(r["action_vector"] is None or len(r["action_vector"]) == 6 for r in rows)
    pytest.importorskip("minari")
    assert main(["export", str(run), "--kind", "minari", "--out", str(tmp_path / "minari")]) == 0


def test_what_a_game_keeps_per_structured_move_follows_its_content():
    # one env, the same moves again and again: what the game keeps between steps (the
    # move's description, its surrogate repair, its parse) is keyed by the move's content,
    # its key order and value types included
    env = negotiation_env.env("dond", instance=INSTANCE, max_retries=5)
    env.reset(seed=0)
    g = env.unwrapped.game
    as_sent = [
        {"message": "a", "action": "propose", "take": {"books": 1, "hats": 2, "balls": 0}},
        {"message": "a", "action": "propose", "take": {"balls": 0, "books": 1, "hats": 2}},
        {"message": "a", "action": "propose", "take": {"books": True, "hats": 2, "balls": 0}},
        {"message": "a", "action": "propose", "take": {"books": 1.0, "hats": 2, "balls": 0}},
        {"message": "\ud800", "action": "propose", "take": {"books": 1, "hats": 2, "balls": 0}},
        {"message": "\ud800", "action": "propose", "take": {"books": 1, "hats": 2, "balls": 0}},
    ]
    seen = []
    for move in as_sent:
        agent = env.agent_selection
        env.step(move)
        info = g.info(agent)
        seen.append(([e["type"] for e in info["events"]], info["last_turn"]["raw"] if info["last_turn"] else None))
    assert seen[0] == ([], '{"message": "a", "action": "propose", "take": {"books": 1, "hats": 2, "balls": 0}}')
    assert seen[1] == ([], '{"message": "a", "action": "propose", "take": {"balls": 0, "books": 1, "hats": 2}}')
    assert seen[2][0] == ["validation_error"]  # True is no count, though 1 was
    assert seen[3][0] == []
    assert seen[3][1] == '{"message": "a", "action": "propose", "take": {"books": 1.0, "hats": 2, "balls": 0}}'
    for kinds, raw in seen[4:]:  # repaired every time it is sent
        assert kinds == ["answer_unencodable"]
        assert raw == '{"message": "\ufffd", "action": "propose", "take": {"books": 1, "hats": 2, "balls": 0}}'
