"""The game registry: every registered game's spec is consistent, and the CLI and the
runner read the same spec (a game registered here, with no scripted policies and no
numeric menu, shows both)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

import negotiation_env
from negotiation_env import cli
from negotiation_env.core import registry
from negotiation_env.core.config import ConfigError, build_config
from negotiation_env.games.matrix.game import MatrixConfig, MatrixGame
from negotiation_env.runner.policies import PolicyUnavailable, scripted_registry
from negotiation_env.wrappers.menus import menu_for


class ToyGame(MatrixGame):
    metadata = {**MatrixGame.metadata, "name": "toy_v1"}


TOY = registry.GameSpec(name="toy", config_cls=MatrixConfig, game_cls=ToyGame, condition_fields=("framing",))


@pytest.fixture
def toy():
    registry.register(TOY)
    yield TOY
    registry.unregister("toy")


def test_the_four_games_are_registered_in_order():
    assert registry.names() == ["resource", "rulemaking", "matrix", "dond"]
    assert list(negotiation_env.GAMES) == ["resource", "rulemaking", "matrix", "dond"]
    assert dict(negotiation_env.ENV_IDS) == {"resource_v1": "resource", "rulemaking_v1": "rulemaking",
                                             "matrix_v1": "matrix", "dond_v0": "dond"}


@pytest.mark.parametrize("name", ["resource", "rulemaking", "matrix", "dond"])
def test_each_spec_is_consistent(name):
    spec = registry.get(name)
    assert spec.env_id == spec.game_cls.metadata["name"] == negotiation_env.ENV_ID_OF[name]
    assert registry.by_env_id(spec.env_id) is spec
    cfg = build_config(spec.config_cls, {})
    assert spec.game_cls(cfg).possible_agents
    fields = {f.name for f in dataclasses.fields(spec.config_cls)}
    assert set(spec.condition_fields) <= fields
    if spec.has("condition_values"):  # optional: bool and choice fields list their own values
        assert set(spec.part("condition_values")()) <= set(spec.condition_fields)
    assert callable(spec.part("answer_format").build)
    assert callable(spec.part("menu")) and callable(spec.part("action_encoder"))
    summary = spec.part("summary")
    assert [len(c) for c in summary.columns] == [3] * 6 and summary.description and summary.kept
    assert summary.figures({})["games"] == 0
    hooks = spec.part("play")
    assert [len(inspect.signature(f).parameters) for f in (hooks.phase_line, hooks.short_form, hooks.ending)] \
        == [2, 3, 1]
    # what `negotiation-env games` lists is what the runner accepts, and play's default seats are among them
    names = cli.scripted_names(name)
    assert names and names == list(scripted_registry(name))
    assert set(spec.default_seats) <= set(names)


def test_a_registered_game_without_scripted_policies_lists_none_and_the_runner_agrees(toy):
    assert list(negotiation_env.GAMES)[-1] == "toy" and negotiation_env.ENV_IDS["toy_v1"] == "toy"
    assert negotiation_env.make("toy_v1").unwrapped.game.metadata["name"] == "toy_v1"
    assert cli.scripted_names("toy") == []
    assert cli.describe_game("toy")["scripted_policies"] == []
    with pytest.raises(PolicyUnavailable, match=r"^policy spec 'scripted:\* \(toy\)': the toy game has no scripted "
                                                r"policies$"):
        scripted_registry("toy")
    assert list(cli.game_conditions("toy")) == ["framing"]


def test_a_missing_optional_part_is_a_clear_error(toy):
    with pytest.raises(registry.PartMissing, match=r"^the toy game has no numeric menu$"):
        toy.part("menu")
    with pytest.raises(NotImplementedError, match=r"^the toy game has no scripted policies$"):
        toy.part("scripted")
    with pytest.raises(TypeError, match=r"^the toy game \(toy_v1\) has no numeric menu; menus exist for: "
                                        r"resource_v1, rulemaking_v1, matrix_v1, dond_v0$"):
        menu_for(negotiation_env.make_game("toy"))


def test_a_game_registered_twice_under_another_spec_is_refused(toy):
    registry.register(TOY)  # the same spec again: nothing changes
    with pytest.raises(ValueError, match="a game named 'toy' is already registered"):
        registry.register(dataclasses.replace(TOY, default_seats=("x",)))
    with pytest.raises(ValueError, match="env id 'matrix_v1' is already the matrix game's"):
        registry.register(dataclasses.replace(TOY, name="toy2", game_cls=MatrixGame))


def test_an_unknown_game_names_the_games_and_the_closest():
    msg = "unknown game 'matrx' (did you mean 'matrix'?); available games: resource, rulemaking, matrix, dond"
    with pytest.raises(ConfigError) as e:
        registry.get("matrx")
    assert str(e.value) == msg
    with pytest.raises(ConfigError) as e:
        negotiation_env.env(game="matrx")
    assert str(e.value) == msg
    with pytest.raises(ConfigError,
                       match=r"^unknown game 'chess'; available games: resource, rulemaking, matrix, dond$"):
        registry.get("chess")
