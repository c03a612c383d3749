"""The conformance checker over every registered game and its main conditions, and on
deliberately broken games, each caught by the check it breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from negotiation_env.core import registry
from negotiation_env.games.matrix.game import MatrixGame
from negotiation_env.testing import CHECKS, check_game

#: a few main conditions per game, small enough to play in a fraction of a second
CONDITIONS: dict[str, list[dict]] = {
    "resource": [{"num_rounds": 2}, {"num_rounds": 2, "cheap_talk": False},
                 {"num_rounds": 2, "rotation": "rotating"}, {"num_rounds": 2, "thinking": False}],
    "matrix": [{"num_rounds": 3}, {"num_rounds": 3, "treatment": "none"},
               {"num_rounds": 3, "stage_game": "stag_hunt", "framing": "business"}],
    "rulemaking": [{}, {"environment": "E2", "condition": "ledger"}],
    "dond": [{}, {"walk_away": False, "max_turns": 4}, {"instance": "1,3,1 2,2,2 10,0,0", "max_retries": 0}],
}

CASES = [pytest.param(game, cfg, id=f"{game}-" + (",".join(f"{k}={v}" for k, v in cfg.items()) or "default"))
         for game in registry.names() for cfg in CONDITIONS.get(game, [{}])]


@pytest.mark.parametrize("game, config", CASES)
def test_every_registered_game_passes(game, config):
    check_game(game, **config)


def test_every_registered_game_has_conditions_here():
    assert sorted(CONDITIONS) == sorted(registry.names())


class NoEvents(MatrixGame):
    metadata = {**MatrixGame.metadata, "name": "matrix_no_events_v0"}

    def info(self, agent):
        info = super().info(agent)
        del info["events"]
        return info


class RaisesOnNonsense(MatrixGame):
    metadata = {**MatrixGame.metadata, "name": "matrix_raises_v0"}

    def step(self, agent, action):
        if action == "nonsense":
            raise ValueError("cannot read 'nonsense'")
        return super().step(agent, action)


class KeepsScore(MatrixGame):
    """Carries its cumulative score over from one game to the next."""

    metadata = {**MatrixGame.metadata, "name": "matrix_keeps_score_v0"}
    _games = 0

    def reset(self, rng):
        super().reset(rng)
        self._games += 1

    def observe(self, agent):
        obs = dict(super().observe(agent))
        obs["prompt"] = f"game {self._games}: " + obs["prompt"]
        return obs


BROKEN = {"no_events": NoEvents, "raises": RaisesOnNonsense, "keeps_score": KeepsScore}


@pytest.fixture
def broken():
    """Register the broken games under test names; remove them afterwards."""
    matrix = registry.get("matrix")
    names = []
    for name, cls in BROKEN.items():
        registry.register(replace(matrix, name=f"matrix_{name}", game_cls=cls))
        names.append(f"matrix_{name}")
    yield
    for name in names:
        registry.unregister(name)


def test_info_without_events_fails_info_keys(broken):
    with pytest.raises(AssertionError) as e:
        check_game("matrix_no_events", num_rounds=2)
    msg = str(e.value)
    assert msg.startswith("check_game('matrix_no_events', num_rounds=2): info_keys failed: AEC last() of agent_0 at "
                          "turn 0 lacks 'events' (has ")


def test_step_raising_on_nonsense_fails_invalid_action(broken):
    with pytest.raises(AssertionError) as e:
        check_game("matrix_raises", num_rounds=2)
    assert str(e.value) == ("check_game('matrix_raises', num_rounds=2): invalid_action failed: answering 'nonsense' "
                            "at every turn raised ValueError: cannot read 'nonsense'")


def test_state_kept_across_resets_fails_reused_env(broken):
    with pytest.raises(AssertionError) as e:
        check_game("matrix_keeps_score", num_rounds=2)
    assert str(e.value) == ("check_game('matrix_keeps_score', num_rounds=2): reused_env failed: a reused env reset "
                            "with seed=11 played other than a new one: turn 0 differs ('agent_0': reward 0.0 vs 0.0, "
                            "observation different)")


def test_broken_games_are_gone_after_the_fixture():
    assert [registry.find(f"matrix_{name}") for name in BROKEN] == [None, None, None]
    assert registry.names() == ["resource", "rulemaking", "matrix", "dond"]


def test_checks_are_named_in_order():
    assert CHECKS == ("api_test", "parallel_api_test", "seed_test", "parallel_seed_test", "invalid_action",
                      "info_keys", "reused_env", "spec_parts", "answer_format")
