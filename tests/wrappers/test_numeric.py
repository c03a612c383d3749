"""The numeric RL view: PettingZoo's suites, identical spaces, exact masks, what the menu sends."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import negotiation_env
from baselines.scripted import make
from negotiation_env.games.resource.solver import feasible_run_vectors, solve
from negotiation_env.games.rulemaking.features import CONDITIONS
from negotiation_env.wrappers import numeric
from negotiation_env.wrappers.menus.resource import options_of

SUITE_CASES = [
    ("resource", {}),
    ("resource", {"cheap_talk": False, "num_rounds": 2}),
    ("resource", {"reflection": True, "num_rounds": 2, "rotation": "rotating"}),
    ("rulemaking", {}),
    ("rulemaking", {"condition": "ledger", "environment": "E3"}),
    ("matrix", {}),
    ("matrix", {"treatment": "none", "stage_game": "stag_hunt", "num_rounds": 3}),
    ("matrix", {"acknowledgement": False, "on_error": "retry"}),
]


def _id(case):
    game, cfg = case
    return game + ("," + ",".join(f"{k}={v}" for k, v in cfg.items()) if cfg else "")


@pytest.mark.parametrize("case", SUITE_CASES, ids=_id)
def test_pettingzoo_suites(case):
    game, cfg = case
    api_test(numeric(negotiation_env.env(game=game, **cfg)), num_cycles=300)
    parallel_api_test(numeric(negotiation_env.parallel_env(game=game, **cfg)), num_cycles=300)
    seed_test(lambda: numeric(negotiation_env.env(game=game, **cfg)), num_cycles=100)
    # parallel_seed_test samples unmasked actions: it also drives the refusal path
    parallel_seed_test(lambda: numeric(negotiation_env.parallel_env(game=game, **cfg)), num_cycles=100)


@pytest.mark.parametrize("game", ["resource", "rulemaking", "matrix"])
def test_spaces_are_identical_for_every_agent(game):
    env = numeric(negotiation_env.env(game=game))
    first = env.possible_agents[0]
    obs_space, act_space = env.observation_space(first), env.action_space(first)
    assert obs_space["observation"].dtype == np.float32 and obs_space["observation"].shape == (env.menu.size,)
    assert obs_space["action_mask"].dtype == np.int8 and obs_space["action_mask"].shape == (act_space.n,)
    for a in env.possible_agents:
        assert env.observation_space(a) == obs_space and env.action_space(a) == act_space
        assert env.observation_space(a) is env.observation_space(a)
    env.reset(seed=0)
    for a in env.possible_agents:
        obs = env.observe(a)
        assert obs_space.contains(obs)
        assert obs["action_mask"].sum() >= 1


def test_wrapping_anything_else_is_refused():
    with pytest.raises(TypeError, match="AECEnv or ParallelEnv"):
        numeric(object())
    with pytest.raises(ValueError, match="infos"):
        numeric(negotiation_env.env(), infos="some")


def masked_choice(obs, groups, rng) -> int:
    """A random legal menu index, its act type drawn first so rare acts (accept, reject)
    are played too; ``groups[i]`` is entry i's act type."""
    legal = np.flatnonzero(obs["action_mask"])
    kinds = sorted({groups[i] for i in legal})
    kind = kinds[int(rng.integers(len(kinds)))]
    choice = [i for i in legal if groups[i] == kind]
    return int(choice[int(rng.integers(len(choice)))])


def _play_masked(env, games, rng, weights=None):
    """Random masked play; returns (validation errors seen, label counts, steps)."""
    labels = env.action_labels()
    groups = [lab.split("_")[0] for lab in labels]
    errors, used, steps = [], collections.Counter(), 0
    for g in range(games):
        env.reset(seed=g)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            errors += [e for e in info.get("events", []) if e["type"] == "validation_error"]
            if term or trunc:
                env.step(None)
                continue
            a = masked_choice(obs, groups, rng)
            used[groups[a]] += 1
            env.step(a)
            steps += 1
    return errors, used, steps


RESOURCE_CONDITIONS = [
    {},
    {"thinking": False, "first_speaker": "agent_b"},
    {"cheap_talk_turns": 0, "max_talk_turns": 4},
    {"rotation": "rotating", "partner": "shifting", "shifting_agent": "agent_a"},
    {"reflection": True, "num_rounds": 2, "transparency": "joint"},
    {"scenario": "mc100_1", "num_rounds": 2},
    {"cheap_talk": False},
]


@pytest.mark.parametrize("cfg", RESOURCE_CONDITIONS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_resource_masked_actions_are_always_accepted(cfg):
    env = numeric(negotiation_env.env(game="resource", **cfg))
    errors, used, steps = _play_masked(env, 25, np.random.default_rng(1))
    assert errors == []
    assert steps > 50
    expected = {"decide"} if cfg.get("cheap_talk") is False else {"disclose", "accept", "reject", "propose", "decide"}
    if cfg.get("reflection"):
        expected.add("reflect")
    assert expected <= set(used)


@pytest.mark.parametrize("cfg", [{}, {"treatment": "none"}, {"acknowledgement": False}, {"on_error": "retry"}],
                         ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_matrix_masked_actions_are_always_accepted(cfg):
    env = numeric(negotiation_env.env(game="matrix", **cfg))
    errors, used, steps = _play_masked(env, 6, np.random.default_rng(4))
    assert errors == []
    expected = {"choose"} | ({"say"} if cfg.get("treatment") != "none" else set())
    ack = env.game.config.acknowledgement  # on by default (the paper's initial call)
    if ack:
        expected.add("acknowledge")
    assert set(used) == expected
    # every game ran its rounds: nothing ended it early on an unreadable answer
    assert steps == 6 * 2 * env.game.config.num_rounds * (2 if cfg.get("treatment") != "none" else 1) \
        + (6 * 2 if ack else 0)


@pytest.mark.parametrize("condition", CONDITIONS)
def test_rulemaking_masked_actions_are_always_accepted(condition):
    env = numeric(negotiation_env.env(game="rulemaking", condition=condition))
    errors, used, steps = _play_masked(env, 8, np.random.default_rng(2))
    assert errors == []
    assert set(used) == {"support", "oppose", "concede", "counter", "exit"}


@pytest.mark.parametrize("game", ["resource", "rulemaking", "matrix"])
def test_parallel_masked_play_never_errs_and_ends(game):
    env = numeric(negotiation_env.parallel_env(game=game))
    rng = np.random.default_rng(3)
    for g in range(10):
        obs, infos = env.reset(seed=g)
        steps = 0
        while env.agents:
            for a in env.agents:
                m = obs[a]["action_mask"]
                if a not in infos[a]["active_agents"]:
                    assert m.tolist() == [1] + [0] * (len(m) - 1)  # only pass while it does not count
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, _, _, _, infos = env.step(actions)
            for a, info in infos.items():
                assert not [e for e in info["events"] if e["type"] == "validation_error"]
            steps += 1
            assert steps < 500
        assert steps > 1


def test_masked_out_index_reaches_the_game_and_is_refused():
    env = numeric(negotiation_env.env(game="resource"))
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    assert mask[0] == 0 and mask[env.menu.labels.index("accept")] == 0  # nobody proposed yet
    env.step(env.menu.labels.index("accept"))
    assert env.agent_selection == agent  # asked again
    events = env.infos[agent]["events"]
    assert [e["type"] for e in events] == ["validation_error"]
    env.step(len(env.menu.labels) + 5)  # out of range: refused the same way
    assert env.infos[agent]["events"][0]["type"] == "validation_error"
    rm = numeric(negotiation_env.env(game="rulemaking"))
    rm.reset(seed=0)
    party = rm.agent_selection
    rm.step(0)
    assert rm.agent_selection == party and rm.infos[party]["events"][0]["type"] == "validation_error"


def test_numeric_infos_count_validation_errors():
    env = numeric(negotiation_env.env(game="resource"), infos="numeric")
    env.reset(seed=0)
    agent = env.agent_selection
    assert env.infos[agent] == {"active": 1.0, "invalid": 0.0}
    env.step(0)
    assert env.infos[agent]["invalid"] == 1.0
    other = next(a for a in env.agents if a != agent)
    assert env.infos[other]["active"] == 0.0


def _aec_pair(cfg=None, learner="agent_b", opponent="oracle"):
    """The numeric view for ``learner``; the other seat is a scripted policy."""
    env = numeric(negotiation_env.env(game="resource", theme=None, **(cfg or {})))
    env.reset(seed=0)
    bot = make(opponent, seed=0)
    return env, bot


def _until(env, learner, bot):
    while env.agents and env.agent_selection != learner:
        env.step_game_action(bot.act(env.game_observation(env.agent_selection)))


def test_resource_decide_k_buys_option_k():
    env, bot = _aec_pair(opponent="greedy", learner="agent_b")
    menu = env.menu
    _until(env, "agent_b", bot)
    opts = options_of(env.game.scenario, "agent_b")
    k = len(opts) - 2
    env.step(menu.labels.index(f"decide_{k}"))
    out = env.game.round_outcome(0)
    assert list(out["purchases"]["agent_b"].values()) == opts.usage[k].tolist()
    assert list(out["runs"]["agent_b"].values()) == opts.runs[k].tolist()


def test_resource_options_are_non_dominated_best_first_and_cover_the_joint_optimum():
    for name in ("mc080_1", "mc100_1", "mc050_3"):
        sc = negotiation_env.games.resource.load_scenario(name)
        sol = solve(sc)
        for agent in sc.agents:
            opts = options_of(sc, agent)
            assert np.all(np.diff(opts.value) <= 1e-9)
            runs, usage, value = feasible_run_vectors(sc, agent)
            assert opts.value[0] == value.max()
            assert opts.usage[-1].sum() == 0  # buying nothing is an option
            for i in range(len(opts)):  # nothing dominates an option
                better = np.all(usage <= opts.usage[i], axis=1) & (value >= opts.value[i])
                strict = np.any(usage < opts.usage[i], axis=1) | (value > opts.value[i])
                assert not np.any(better & strict)
        # some pair of options attains the joint maximum without overdraw
        a, b = (options_of(sc, x) for x in sc.agents)
        supply = np.array([r.supply for r in sc.resources])
        fits = np.all(a.usage[:, None, :] + b.usage[None, :, :] <= supply, axis=2)
        best = np.where(fits, a.value[:, None] + b.value[None, :], -np.inf).max()
        assert best == pytest.approx(sol.joint_max)


def test_resource_observation_reads_what_the_partner_revealed():
    env, bot = _aec_pair(learner="agent_b", opponent="oracle")
    L, menu = env.menu.layout, env.menu
    _until(env, "agent_b", bot)  # the oracle (agent_a) disclosed and asked
    v = env.observe("agent_b")["observation"]
    sc = env.game.scenario
    assert L.get(v, "partner_disclosed")[0] == len(sc.projects_of("agent_a"))
    assert L.get(v, "partner_asked")[0] == 1 and L.get(v, "partner_proposed")[0] == 0
    req = L.get(v, "partner_requires").reshape(menu.P, menu.R)
    assert req[: len(sc.projects_of("agent_a"))].tolist() == sc.requirement_matrix("agent_a")
    assert L.get(v, "partner_reward")[:3].tolist() == [p.reward for p in sc.projects_of("agent_a")]
    env.step(menu.labels.index("disclose"))
    _until(env, "agent_b", bot)  # now the oracle knows both sides and proposes the joint optimum
    obs = env.observe("agent_b")
    v = obs["observation"]
    assert L.get(v, "own_disclosed")[0] == 1 and L.get(v, "partner_proposed")[0] == 1
    offer, claim = L.get(v, "partner_offer"), L.get(v, "partner_claim")
    assert np.all(offer + claim <= [r.supply for r in sc.resources])
    assert obs["action_mask"][menu.labels.index("accept")] == 1
    env.step(menu.labels.index("accept"))
    _until(env, "agent_b", bot)
    out = env.game.round_outcome(0)
    assert out["optimal"] and not out["overdraw"]
    v = env.observe("agent_b")["observation"]
    # a new round: my own talk block starts empty; the oracle, knowing both sides, proposes at once
    assert L.get(v, "own_disclosed")[0] == 0 and L.get(v, "own_proposed")[0] == 0
    assert L.get(v, "partner_proposed")[0] == 1 and L.get(v, "agreement")[0] == 0
    F = env.menu.features
    assert L.get(v, "features")[F.slice("last_reward")][0] == out["rewards"]["agent_b"]


def test_resource_option_block_matches_the_options():
    env = numeric(negotiation_env.env(game="resource", scenario="mc100_1"), max_options=6)
    env.reset(seed=0)
    assert env.menu.D == 6 and env.action_space("agent_a").n == 5 + 2 * 6
    L = env.menu.layout
    for agent in env.possible_agents:
        v = env.observe(agent)["observation"]
        opts = options_of(env.game.scenario, agent)
        k = min(6, len(opts))
        assert L.get(v, "option_exists").tolist() == [1] * k + [0] * (6 - k)
        assert L.get(v, "option_value")[:k].tolist() == opts.value[:k].tolist()
    with pytest.raises(ValueError, match="max_options"):
        numeric(negotiation_env.env(game="resource"), max_options=0)


def test_rulemaking_observation_tracks_seats_brief_and_outcome():
    env = numeric(negotiation_env.env(game="rulemaking", condition="notes"))
    env.reset(seed=4)
    L, menu = env.menu.layout, env.menu
    parties = env.possible_agents
    sc = env.game.scenario
    v = env.observe(parties[2])["observation"]
    assert L.get(v, "seat").tolist() == [0, 0, 1, 0, 0]
    pr = L.get(v, "objective_priority")
    top = next(o for o in sc.party(parties[2]).brief.objectives if o.priority == 1)
    assert pr[sc.issue_ids.index(top.issue)] == 1.0
    moves = ["counter", "concede", "support", "oppose", "counter"]
    for m in moves:
        env.step(menu.labels.index(m))
    # parties[0] sees the other four in seat order after it
    v = env.observe(parties[0])["observation"]
    block = L.get(v, "others_last_move").reshape(4, 5)
    assert [menu.labels[1 + int(np.argmax(r))] for r in block] == moves[1:]
    assert menu.labels[1 + int(np.argmax(L.get(v, "previous_move")))] == "counter"
    while env.agents:
        if env.terminations[env.agent_selection]:
            env.step(None)
        else:
            env.step(menu.labels.index("concede"))
    label = env.game.outcome["label"]
    v = env.observe(parties[0])["observation"]
    assert L.get(v, "outcome")[["consensus", "compromise", "authority", "deadlock"].index(label)] == 1


def test_whole_game_determinism_under_seeds():
    def play(seed):
        env = numeric(negotiation_env.env(game="resource"))
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        trace = []
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            trace.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(), r))
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return trace

    assert play(5) == play(5)
    assert play(5) != play(6)
