"""negotiation_env.make: versioned env ids, as PettingZoo and TextArena users expect."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pettingzoo import AECEnv, ParallelEnv

import negotiation_env
from negotiation_env import ConfigError


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_every_game_has_one_versioned_id_matching_its_metadata_and_its_version_history():
    assert sorted(negotiation_env.ENV_IDS.values()) == sorted(negotiation_env.GAMES)
    for env_id, game in negotiation_env.ENV_IDS.items():
        assert re.fullmatch(rf"{game}_v\d+", env_id)
        assert negotiation_env.env(game=game).metadata["name"] == env_id
        # the game page's version history opens with the id the package plays, and lists
        # every earlier one down to _v0
        page = (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")
        history = page.split("\n## Versions\n", 1)[1]
        ids = re.findall(rf"^\| `({game}_v\d+)` \|", history, flags=re.M)
        version = int(env_id.rpartition("_v")[2])
        assert ids == [f"{game}_v{v}" for v in range(version, -1, -1)], (game, ids)


@pytest.mark.parametrize("env_id", sorted(negotiation_env.ENV_IDS))
def test_make_builds_the_aec_or_parallel_env_of_the_id(env_id):
    game = negotiation_env.ENV_IDS[env_id]
    aec = negotiation_env.make(env_id)
    par = negotiation_env.make(env_id, parallel=True)
    assert isinstance(aec, AECEnv) and not isinstance(aec, ParallelEnv)
    assert isinstance(par, ParallelEnv)
    assert aec.metadata["name"] == par.metadata["name"] == env_id
    # the same env as the game-name entry points: same first observation for a seed
    aec.reset(seed=4)
    ref = negotiation_env.env(game=game)
    ref.reset(seed=4)
    first = ref.agent_selection
    assert aec.agent_selection == first and aec.observe(first)["prompt"] == ref.observe(first)["prompt"]
    obs, _ = par.reset(seed=4)
    assert obs[first]["prompt"] == ref.observe(first)["prompt"]


def test_make_passes_config_and_render_mode():
    env = negotiation_env.make("resource_v1", num_rounds=2, render_mode="ansi")
    env.reset(seed=0)
    assert env.unwrapped.game.config.num_rounds == 2
    assert env.render().startswith("Scenario mc080_1")
    with pytest.raises(ConfigError, match="num_rounds"):
        negotiation_env.make("resource_v1", num_rounds=0)


@pytest.mark.parametrize("bad", ["resource_v9", "chess_v0", ""])
def test_an_unknown_id_lists_the_known_ones(bad):
    with pytest.raises(ConfigError) as e:
        negotiation_env.make(bad)
    assert f"unknown env id {bad!r}" in str(e.value)
    assert "known ids: resource_v1, rulemaking_v1, matrix_v1" in str(e.value)


def test_a_bare_game_name_points_to_its_id():
    with pytest.raises(ConfigError, match="the game 'matrix' is the env id 'matrix_v1'"):
        negotiation_env.make("matrix")


def test_an_earlier_version_is_named_as_such():
    with pytest.raises(ConfigError, match="'resource_v0' is an earlier version of the resource game, no longer "
                                          "played: this package plays 'resource_v1'"):
        negotiation_env.make("resource_v0")
