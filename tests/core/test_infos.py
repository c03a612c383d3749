"""env.infos made on demand: a LazyInfos reads like the dict it stands for,
an infos mapping someone keeps never changes under them, and the plain AEC loop makes
one info a step instead of one per agent."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

import negotiation_env
from negotiation_env.core.infos import LazyInfos
from negotiation_env.wrappers import numeric


def _lazy(made=None):
    made = [] if made is None else made

    def make(agent):
        made.append(agent)
        return {"agent": agent, "n": len(made)}

    return LazyInfos(["a", "b", "c"], make), made


def test_every_way_of_reading_gives_the_made_values():
    expected = {"a": {"agent": "a"}, "b": {"agent": "b"}, "c": {"agent": "c"}}

    def plain(d):
        return {k: {"agent": v["agent"]} for k, v in d.items()}

    readers = [
        lambda d: dict(d), lambda d: {**d}, lambda d: d.copy(), lambda d: copy.copy(d), lambda d: copy.deepcopy(d),
        lambda d: pickle.loads(pickle.dumps(d)), lambda d: json.loads(json.dumps(d)),
        lambda d: dict(d.items()), lambda d: dict(zip(d.keys(), d.values())), lambda d: {k: d[k] for k in d},
        lambda d: {k: d.get(k) for k in d}, lambda d: d | {}, lambda d: {} | d,
    ]
    for read in readers:
        d, _ = _lazy()
        assert plain(read(d)) == expected
    d, _ = _lazy()
    assert isinstance(d, dict) and len(d) == 3 and "b" in d and list(d) == ["a", "b", "c"]
    assert "PENDING" not in repr(d) and "'agent': 'a'" in repr(d)
    d1, _ = _lazy()
    d2, _ = _lazy()
    assert d1 == d2 and not d1 != d2 and {"a": d2["a"], "b": d2["b"], "c": d2["c"]} == d1
    assert d1 != {"a": 1}


def test_values_are_made_once_on_first_read_and_changes_work_as_on_a_dict():
    d, made = _lazy()
    assert made == []
    first = d["b"]
    assert d["b"] is first and made == ["b"]
    assert d.get("zz", 7) == 7 and made == ["b"]
    del d["a"]
    assert list(d) == ["b", "c"] and made == ["b"]
    d["c"] = {"set": True}
    assert d["c"] == {"set": True} and made == ["b"]
    assert d.pop("b") is first and "b" not in d
    assert d.setdefault("new", 1) == 1 and d.setdefault("c") == {"set": True}
    d.update({"x": 2})
    assert dict(d) == {"c": {"set": True}, "new": 1, "x": 2} and made == ["b"]


def test_retire_makes_only_what_someone_still_holds():
    d, made = _lazy()
    holder = {"infos": d}
    LazyInfos.retire(holder["infos"], owners=1)  # held by the test's local name too
    assert made == ["a", "b", "c"]

    class Owner:
        pass

    owner = Owner()
    owner.infos, made2 = _lazy()
    LazyInfos.retire(owner.__dict__.get("infos"))  # only the owner refers to it
    assert made2 == []


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


def test_the_plain_loop_makes_one_info_a_step(monkeypatch):
    from negotiation_env.games.rulemaking.game import RulemakingGame

    calls = []
    info = RulemakingGame.info
    monkeypatch.setattr(RulemakingGame, "info", lambda self, agent: calls.append(agent) or info(self, agent))
    env = negotiation_env.env(game="rulemaking")
    env.reset(seed=0)
    steps = 0
    for agent in env.agent_iter():
        _obs, _r, term, trunc, got = env.last()
        assert got["active_agents"] == ([] if term or trunc else [agent])
        env.step(None if term or trunc else {"move": 1, "issue": 0, "rationale": "We keep our position."})
        steps += 1
    # five parties: building every info would be five a step
    assert len(calls) <= steps + 1 and len(env.possible_agents) == 5


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
