"""env.infos: plain dicts, made when read, that a caller may keep: a kept mapping never
changes when the game moves on, the plain loop makes one info a step, and last() and
env.infos give the same info object."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

import negotiation_env
from negotiation_env.wrappers import numeric


@pytest.mark.parametrize("game", ["resource", "matrix"])
def test_infos_are_plain_dicts_in_every_view(game):
    aec = negotiation_env.env(game=game)
    aec.reset(seed=0)
    view = numeric(negotiation_env.env(game=game), infos="numeric")
    view.reset(seed=0)
    par = negotiation_env.parallel_env(game=game)
    _obs, par_infos = par.reset(seed=0)
    for infos in (aec.infos, aec.unwrapped.infos, view.infos, par_infos):
        assert type(infos) is dict and list(infos) == list(aec.possible_agents)
        assert pickle.loads(pickle.dumps(infos)) == infos == copy.deepcopy(infos)
    active = {"resource": ["agent_a"], "matrix": ["agent_0", "agent_1"]}[game]
    assert {a: (float(v["active"]), float(v["invalid"])) for a, v in view.infos.items()} == {
        a: (float(a in active), 0.0) for a in aec.possible_agents}
    assert json.loads(json.dumps(aec.infos[aec.agent_selection]))["active_agents"] == active


def _lockstep_aec(game: str, steps: int):
    """Two envs of one game played alike (random legal menu indices, chosen through the
    numeric view without reading its infos): each step, the first env's infos are kept
    unread, the second's are copied at once."""
    envs = [numeric(negotiation_env.env(game=game)) for _ in range(2)]
    rngs = [np.random.default_rng(0) for _ in range(2)]
    for e in envs:
        e.reset(seed=3)
    kept, copies = [], []
    iters = [e.agent_iter(steps) for e in envs]
    for agent, other in zip(*iters):
        assert agent == other
        kept.append(envs[0].unwrapped.infos)
        copies.append(copy.deepcopy(dict(envs[1].unwrapped.infos)))
        for e, rng in zip(envs, rngs):
            raw = e.unwrapped
            if raw.terminations[agent] or raw.truncations[agent]:
                e.step(None)
                continue
            legal = np.flatnonzero(e.observe(agent)["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
    return kept, copies


@pytest.mark.parametrize("game", ["resource", "rulemaking", "matrix"])
def test_kept_infos_do_not_change_when_the_game_moves_on(game):
    """Infos kept unread at every step and read only once the game is over hold what a
    twin env's infos held, read at once at the same step."""
    kept, copies = _lockstep_aec(game, 40)
    assert len(kept) > 10
    # (the dead steps after the end delete agents from the env's current infos in place,
    # as PettingZoo's _was_dead_step does with any dict: compare what is left)
    assert [dict(k) for k in kept] == [{a: v for a, v in c.items() if a in k} for k, c in zip(kept, copies)]
    assert sum(len(k) for k in kept) > len(kept)


@pytest.mark.parametrize("game", ["resource", "matrix", "rulemaking"])
def test_kept_parallel_infos_do_not_change(game):
    actions = {"resource": {"message": "hello", "decide": 0}, "matrix": {"message": "I pick A.", "action": 0},
               "rulemaking": {"move": 1, "issue": 0, "rationale": "We keep our position."}}[game]
    envs = [negotiation_env.parallel_env(game=game) for _ in range(2)]
    kept, copies = [envs[0].reset(seed=1)[1]], [copy.deepcopy(dict(envs[1].reset(seed=1)[1]))]
    for _ in range(8):
        if not envs[0].agents:
            break
        kept.append(envs[0].step({a: actions for a in envs[0].agents})[4])
        copies.append(copy.deepcopy(dict(envs[1].step({a: actions for a in envs[1].agents})[4])))
    assert len(kept) > 3
    assert [dict(k) for k in kept] == copies


def test_env_infos_is_made_once_a_state_and_anew_when_the_game_moves(monkeypatch):
    from negotiation_env.games.rulemaking.game import RulemakingGame

    calls = []
    info = RulemakingGame.info
    monkeypatch.setattr(RulemakingGame, "info", lambda self, agent: calls.append(agent) or info(self, agent))
    env = negotiation_env.env(game="rulemaking")
    env.reset(seed=0)
    first = env.infos
    assert env.infos is first and env.last()[4] is first[env.agent_selection]
    assert calls == list(env.possible_agents)  # five parties, each info made once
    env.step({"move": 1, "issue": 0, "rationale": "We keep our position."})
    assert env.infos is not first and len(calls) == 10


@pytest.mark.parametrize("read_mapping_first", [False, True])
def test_last_and_env_infos_give_the_same_info_object_in_either_order(read_mapping_first):
    """last() makes the selected agent's info without the mapping; a mapping read later
    at the same state holds that very object (and last() after the mapping reads it)."""
    env = negotiation_env.env(game="matrix")
    env.reset(seed=2)
    action = {"message": "I will choose A this round.", "action": 0}
    for _ in range(6):
        agent = env.agent_selection
        if read_mapping_first:
            mapped = env.infos[agent]
            assert env.last()[4] is mapped
        else:
            info = env.last()[4]
            assert env.infos[agent] is info and env.last()[4] is info
        other = next(a for a in env.agents if a != agent)
        assert env.infos[other]["round"] == env.unwrapped.game.round
        env.step(action)


def test_an_assigned_infos_mapping_is_what_the_env_reads_until_the_game_moves():
    env = negotiation_env.env(game="matrix").unwrapped
    env.reset(seed=0)
    agent = env.agent_selection
    env.infos = {a: {"mine": a} for a in env.agents}
    assert env.last()[4] == {"mine": agent} and env.infos[agent] == {"mine": agent}
    env.step({"message": "I will choose A this round.", "action": 0})
    assert "mine" not in env.last()[4] and env.infos[env.agent_selection] is env.last()[4]
