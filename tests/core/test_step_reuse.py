"""What the envs reuse between steps reads exactly as what they made anew:
infos kept by a caller, sanitize's ASCII fast path, the shared NO_REWARDS, and
observations built from kept parts that a later step never changes."""

from __future__ import annotations

import copy
import random

import numpy as np

import negotiation_env
from negotiation_env.core.game import NO_REWARDS
from negotiation_env.core.spaces import REPLACEMENT, _OUTSIDE, sanitize
from negotiation_env.wrappers import numeric


def test_aec_infos_kept_by_a_caller_never_change_and_fresh_ones_follow_the_game():
    env = negotiation_env.env(game="matrix")
    env.reset(seed=3)
    action = {"message": "I will choose A this round.", "action": 0}
    kept, snapshots = [], []
    for _ in range(12):
        agent = env.agent_selection
        infos = env.infos  # held across the step
        kept.append(infos)
        snapshots.append(copy.deepcopy(dict(infos)))
        env.step(action)
    assert [dict(i) for i in kept] == snapshots
    # the mapping made after the steps reads as the same game's played without holding any
    env2 = negotiation_env.env(game="matrix")
    env2.reset(seed=3)
    for _ in range(12):
        env2.step(action)
    assert dict(env.infos) == dict(env2.infos)


def test_sanitize_fast_path_matches_the_regex():
    rng = random.Random(0)
    alphabet = [chr(c) for c in range(0, 0x80)] + ["\u00e9", "\ufffd", "\U0001f600", "\u2028"]
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        assert sanitize(text) == _OUTSIDE.sub(REPLACEMENT, text)
    assert sanitize("tab\tand\nnewline ok ~") == "tab\tand\nnewline ok ~"
    assert sanitize("bell\x07 del\x7f cr\r") == f"bell{REPLACEMENT} del{REPLACEMENT} cr{REPLACEMENT}"


def test_games_return_no_rewards_when_nothing_resolves_and_envs_still_pay_zeros():
    for game in ("resource", "matrix", "rulemaking"):
        g = negotiation_env.make_game(game)
        g.reset(np.random.default_rng(0))
        agent = g.acting()[0]
        out = g.step(agent, "")  # an empty answer resolves nothing
        assert out is NO_REWARDS and dict(out) == {}
        env = negotiation_env.env(game=game)
        env.reset(seed=0)
        env.step("")
        assert env.rewards == {a: 0.0 for a in env.agents}
        assert all(type(v) is float for v in env.rewards.values())


def test_observations_from_kept_parts_never_change_after_later_steps():
    for game, action in (("matrix", {"message": "I will choose A this round.", "action": 0}),
                         ("rulemaking", {"move": 1, "issue": 0, "rationale": "We keep our position."})):
        env = negotiation_env.env(game=game)
        env.reset(seed=1)
        seen = []
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            seen.append((obs, copy.deepcopy(obs)))
            env.step(None if term or trunc else action)
        for obs, copied in seen:
            assert obs["prompt"] == copied["prompt"] and obs["conversation"] == copied["conversation"]
            assert np.array_equal(obs["features"], copied["features"])
    env = numeric(negotiation_env.env(game="matrix"))
    env.reset(seed=2)
    masks = []
    for agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        masks.append((obs["action_mask"], obs["action_mask"].copy()))
        obs["action_mask"][:] = 0  # a caller writing into its copy changes nothing kept
        env.step(None if term or trunc else int(env.observe(agent)["action_mask"].argmax()))
    assert all(not m.any() for m, _ in masks)
