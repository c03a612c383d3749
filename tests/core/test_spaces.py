"""Observation text spaces: short repr, same behaviour as gymnasium's Text."""

from __future__ import annotations

import pytest
from gymnasium import spaces

import negotiation_env
from negotiation_env.core.spaces import OBS_CHARSET, AnswerText, ObsText


def test_obs_text_repr_names_the_charset_without_printing_it():
    assert len(OBS_CHARSET) == 55_508
    assert repr(ObsText(10)) == "Text(0, 10, charset=<55,508 characters: printable BMP, newline and tab>)"
    # equality, membership and sampling are gymnasium's, only the repr is short
    plain = spaces.Text(10, min_length=0, charset=OBS_CHARSET)
    assert ObsText(10) == plain and ObsText(11) != plain
    assert ObsText(10).contains("héllo\tΩ\n") and not ObsText(3).contains("four")
    assert len(repr(plain)) > 55_508  # what the short repr replaces


def test_answer_text_holds_any_answer_a_tokenizer_can_carry():
    space = AnswerText(12)
    sent = " \x07A\U0001F600\r\n\u202e"  # control, astral, bidi characters: outside OBS_CHARSET
    assert space.contains(sent) and not ObsText(12).contains(sent)
    assert not space.contains("a\ud800") and not space.contains("x" * 13) and not space.contains(b"A")
    assert space.contains(space.sample()) and space == AnswerText(12) and space != ObsText(12)
    assert repr(space) == "AnswerText(0, 12)"


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_every_game_space_prints_in_under_a_thousand_characters(game):
    env = negotiation_env.env(game=game)
    for agent in env.possible_agents:
        assert len(repr(env.observation_space(agent))) < 1_000
        assert len(repr(env.action_space(agent))) < 1_000


def test_the_observation_charset_is_built_on_first_use_not_at_import():
    import subprocess
    import sys

    code = ("import negotiation_env\n"
            "from negotiation_env.core import spaces\n"
            "print(sorted(n for n in ('OBS_CHARSET', '_OUTSIDE', '_PROTOTYPE') if n in vars(spaces)))\n"
            "print(spaces.sanitize('ok\\x07'), len(spaces.OBS_CHARSET), spaces.OBS_CHARSET is spaces.OBS_CHARSET)\n"
            "env = negotiation_env.env(game='matrix')\n"
            "print(env.observation_space(env.possible_agents[0])['prompt']._char_list is spaces._PROTOTYPE._char_list)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout == "[]\nok\ufffd 55508 True\nTrue\n"
    with pytest.raises(AttributeError, match="has no attribute 'NO_SUCH'"):
        from negotiation_env.core import spaces as mod

        mod.NO_SUCH  # noqa: B018
