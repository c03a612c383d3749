"""The numeric RL view of the matrix game: PettingZoo's suites, the menu (a message from a
small set, then A or B), exact masks and observations, simultaneity, refusals."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import negotiation_env
from negotiation_env.games.matrix.features import LAYOUT
from negotiation_env.wrappers import numeric
from negotiation_env.wrappers.menus.matrix import LABELS, MESSAGES, MatrixMenu

A0, A1 = "agent_0", "agent_1"
CASES = [{}, {"treatment": "none"}, {"acknowledgement": False, "on_error": "retry"}]


def acknowledged(env):
    """``env`` after both agents answered the acknowledgement call (on by default)."""
    while env.agents and env.game.phase == "acknowledge":
        env.step(LABELS.index("acknowledge"))
    return env


@pytest.mark.parametrize("cfg", CASES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_pettingzoo_suites(cfg):
    api_test(numeric(negotiation_env.env(game="matrix", **cfg)), num_cycles=100)
    parallel_api_test(numeric(negotiation_env.parallel_env(game="matrix", **cfg)), num_cycles=100)
    seed_test(lambda: numeric(negotiation_env.env(game="matrix", **cfg)), num_cycles=50)
    parallel_seed_test(lambda: numeric(negotiation_env.parallel_env(game="matrix", **cfg)), num_cycles=50)


def test_menu_is_registered_and_spaces_are_identical():
    env = numeric(negotiation_env.env(game="matrix"))
    assert isinstance(env.menu, MatrixMenu) and env.action_labels() == list(LABELS)
    assert env.metadata["name"] == "numeric_matrix_v1"
    space = env.observation_space(A0)
    assert space == env.observation_space(A1) and env.action_space(A0).n == 8
    assert space["observation"].shape == (LAYOUT.size + 10,)
    env.reset(seed=0)
    for a in (A0, A1):
        assert space.contains(env.observe(a))


@pytest.mark.parametrize("cfg", CASES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_masked_play_is_always_accepted_and_uses_every_entry(cfg):
    env = numeric(negotiation_env.env(game="matrix", **cfg))
    rng = np.random.default_rng(0)
    used = collections.Counter()
    for g in range(15):
        env.reset(seed=g)
        for agent in env.agent_iter():
            obs, _r, term, trunc, info = env.last()
            assert not [e for e in info["events"] if e["type"] == "validation_error"]
            if term or trunc:
                env.step(None)
                continue
            i = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            used[LABELS[i]] += 1
            env.step(i)
        assert len(env.game.outcomes) == 10
    expected = {"choose_a", "choose_b"}
    if cfg.get("treatment") != "none":
        expected |= {"say_intend_a", "say_intend_b", "say_mutual_benefit", "say_self_priority"}
    if env.game.config.acknowledgement:
        expected.add("acknowledge")
    assert set(used) == expected


def test_masks_by_phase_and_what_each_entry_sends():
    env = numeric(negotiation_env.env(game="matrix", num_rounds=1))
    env.reset(seed=0)
    assert env.observe(A0)["action_mask"].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]  # the acknowledgement call
    acknowledged(env)
    says = [0, 0, 1, 1, 1, 1, 0, 0]
    assert env.observe(A0)["action_mask"].tolist() == says and env.observe(A1)["action_mask"].tolist() == says
    env.step(LABELS.index("say_mutual_benefit"))
    assert env.observe(A0)["action_mask"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]  # its message is in: pass only
    env.step(LABELS.index("say_intend_b"))
    assert env.game.outcomes == [] and env.game.messages == {A0: MESSAGES[2], A1: "I intend to choose B this round."}
    assert env.observe(A0)["action_mask"].tolist() == [0, 0, 0, 0, 0, 0, 1, 1]
    env.step(LABELS.index("choose_b"))
    env.step(LABELS.index("choose_a"))
    assert env.game.outcomes[0]["actions"] == {A0: "B", A1: "A"}
    assert env.observe(A0)["action_mask"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]


def test_observation_hides_the_partners_message_until_both_are_in():
    env = numeric(negotiation_env.env(game="matrix"))
    env.reset(seed=0)
    acknowledged(env)
    L = env.menu.layout
    env.step(LABELS.index("say_self_priority"))
    v0, v1 = env.observe(A0)["observation"], env.observe(A1)["observation"]
    assert L.get(v0, "own_message").tolist() == [0, 0, 0, 1, 0]
    assert L.get(v1, "partner_message").tolist() == [0] * 5 and L.get(v1, "own_message").tolist() == [0] * 5
    env.step(LABELS.index("say_intend_a"))
    v1 = env.observe(A1)["observation"]
    assert L.get(v1, "partner_message").tolist() == [0, 0, 0, 1, 0] and L.get(v1, "own_message").tolist() == [1, 0, 0, 0, 0]
    assert np.array_equal(L.get(v1, "features"), env.game.features(A1))
    env.step(LABELS.index("choose_a"))
    env.step(LABELS.index("choose_a"))
    v0 = env.observe(A0)["observation"]
    assert L.get(v0, "partner_message").tolist() == [0] * 5  # a new round: nothing sent yet
    assert LAYOUT.get(L.get(v0, "features"), "cumulative")[0] == 3


def test_a_free_text_partner_message_is_other():
    env = numeric(negotiation_env.env(game="matrix"))
    env.reset(seed=0)
    acknowledged(env)
    env.step_game_action("Let us be friends.")
    env.step(LABELS.index("say_intend_a"))
    assert env.menu.layout.get(env.observe(A1)["observation"], "partner_message").tolist() == [0, 0, 0, 0, 1]


def test_masked_out_index_reaches_the_game_and_is_refused():
    env = numeric(negotiation_env.env(game="matrix", on_error="retry", max_retries=1))
    env.reset(seed=0)
    acknowledged(env)
    env.step(LABELS.index("choose_a"))  # not a message
    assert env.agent_selection == A0 and env.infos[A0]["events"][0]["type"] == "validation_error"
    paper = numeric(negotiation_env.env(game="matrix"), infos="numeric")
    paper.reset(seed=0)
    acknowledged(paper)
    paper.step(0)  # pass while acting: refused, the paper's default message, the dyad ends after the round
    assert paper.infos[A0] == {"active": 0.0, "invalid": 1.0}
    for _ in range(3):
        paper.step(LABELS.index("say_intend_a") if paper.game.phase == "message" else LABELS.index("choose_a"))
    assert paper.game.done and len(paper.game.outcomes) == 1 and paper.game.outcomes[0]["ended_by_error"]


def test_parallel_masked_play():
    env = numeric(negotiation_env.parallel_env(game="matrix"))
    rng = np.random.default_rng(4)
    obs, infos = env.reset(seed=0)
    steps = 0
    while env.agents:
        for a in env.agents:
            assert (a in infos[a]["active_agents"]) == (obs[a]["action_mask"][0] == 0)
        obs, _r, _t, _tr, infos = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
        steps += 1
    assert steps == 1 + 20 and len(env.game.outcomes) == 10  # 1: the acknowledgement call
