"""Observation text spaces: short repr, same behaviour as gymnasium's Text."""

from __future__ import annotations

import pytest
from gymnasium import spaces

import negotiation_env
from negotiation_env.core.spaces import OBS_CHARSET, ObsText


def test_obs_text_repr_names_the_charset_without_printing_it():
    assert len(OBS_CHARSET) == 55_508
    assert repr(ObsText(10)) == "Text(0, 10, charset=<55,508 characters: printable BMP, newline and tab>)"
    # equality, membership and sampling are gymnasium's, only the repr is short
    plain = spaces.Text(10, min_length=0, charset=OBS_CHARSET)
    assert ObsText(10) == plain and ObsText(11) != plain
    assert ObsText(10).contains("héllo\tΩ\n") and not ObsText(3).contains("four")
    assert len(repr(plain)) > 55_508  # what the short repr replaces


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_every_game_space_prints_in_under_a_thousand_characters(game):
    env = negotiation_env.env(game=game)
    for agent in env.possible_agents:
        assert len(repr(env.observation_space(agent))) < 1_000
        assert len(repr(env.action_space(agent))) < 1_000
