"""A setting that cannot count in the chosen configuration is refused or
warned about when the env is built, naming both fields and the value that would make
it count; defaults never are."""

from __future__ import annotations

import warnings

import pytest

import negotiation_env
from negotiation_env import ConfigError
from negotiation_env.games.matrix.game import MESSAGE_TEXT, ON_ERROR, TREATMENTS, MatrixConfig
from negotiation_env.games.rulemaking.features import CONDITIONS as RM_CONDITIONS
from negotiation_env.runner.config import RunConfigError, parse_config
from negotiation_env.runner.plan import make_plan

POOL = ("mc080_1", "mc080_2", "mc080_3", "mc080_4")  # four: a 4-round rotating game plays four
#: the matrix message display that is not the default (whichever the default is)
MT_DEFAULT = MatrixConfig().message_text
MT_OTHER = next(v for v in MESSAGE_TEXT if v != MT_DEFAULT)

#: (game, config that sets a field it cannot use, the message's words)
WARNED = [
    ("resource", {"cheap_talk": False, "cheap_talk_turns": 3},
     "'cheap_talk_turns' = 3 has no effect with cheap_talk=False: it counts only with cheap_talk=True"),
    ("resource", {"cheap_talk": False, "max_talk_turns": 3},
     "'max_talk_turns' = 3 has no effect with cheap_talk=False: it counts only with cheap_talk=True"),
    ("resource", {"cheap_talk": False, "reflection": False},
     "'reflection' = False has no effect with cheap_talk=False: it counts only with cheap_talk=True"),
    ("resource", {"max_talk_turns": 3},
     "'max_talk_turns' = 3 has no effect with cheap_talk_turns=5: it counts only with cheap_talk_turns=0"),
    ("resource", {"shifting_agent": "agent_a"},
     "'shifting_agent' = 'agent_a' has no effect with partner='stable': it counts only with partner='shifting'"),
    ("resource", {"rotation": "rotating", "rotation_pool": POOL, "num_rounds": 1},
     "'rotation' = 'rotating' has no effect with num_rounds=1: it counts only with num_rounds > 1"),
    ("resource", {"theme": None, "theme_scope": "round"},
     "'theme_scope' = 'round' has no effect with theme=None: it counts only with theme='random'"),
    ("resource", {"shifting_line": "reset"},
     "'shifting_line' = 'reset' has no effect with partner='stable': it counts only with partner='shifting'"),
    ("resource", {"thinking": False, "json_suffix": True},
     "'json_suffix' = ('agent_a', 'agent_b') has no effect with thinking=False: it counts only with thinking=True"),
    ("matrix", {"treatment": "none", "message_text": MT_OTHER},
     f"'message_text' = {MT_OTHER!r} has no effect with treatment='none': it counts only with "
     "treatment='communication'"),
    ("rulemaking", {"notes_max_chars": 100},
     "'notes_max_chars' = 100 has no effect with condition='none': it counts only with condition='notes'"),
    ("rulemaking", {"condition": "notes", "max_sentences": 2},
     "'max_sentences' = 2 has no effect with condition='notes': it counts only with condition='ledger' or "
     "'notebook_state'"),
    ("rulemaking", {"condition": "digest", "max_field_chars": 50},
     "'max_field_chars' = 50 has no effect with condition='digest': it counts only with condition='ledger'"),
]

#: the same fields where they count: no warning
COUNTING = [
    ("resource", {"cheap_talk_turns": 3}),
    ("resource", {"cheap_talk_turns": 0, "max_talk_turns": 3}),
    ("resource", {"reflection": False}),
    ("resource", {"partner": "shifting", "shifting_agent": "agent_a"}),
    ("resource", {"rotation": "rotating", "rotation_pool": POOL, "num_rounds": 2}),
    ("resource", {"theme_scope": "round"}),
    ("resource", {"partner": "shifting", "shifting_line": "reset"}),
    ("resource", {"json_suffix": ["agent_a"]}),
    ("matrix", {"message_text": MT_OTHER}),
    ("matrix", {"on_error": "retry", "max_retries": 3}),
    ("rulemaking", {"condition": "notes", "notes_max_chars": 100}),
    ("rulemaking", {"condition": "ledger", "max_sentences": 2, "max_field_chars": 50}),
    ("rulemaking", {"condition": "notebook_message", "max_sentences": 2}),
]

#: every condition of every game at its defaults: never a warning
DEFAULT_CONDITIONS = (
    [("resource", c) for c in ({}, {"cheap_talk": False}, {"cheap_talk_turns": 0}, {"partner": "shifting"},
                              {"rotation": "rotating", "rotation_pool": POOL}, {"num_rounds": 1},
                              {"thinking": False}, {"reflection": False}, {"transparency": "full"},
                              {"intervention": "theory_of_mind"}, {"cheap_talk": False, "num_rounds": 1})]
    + [("matrix", {"on_error": e, "treatment": t}) for e in ON_ERROR for t in TREATMENTS]
    + [("rulemaking", {"condition": c}) for c in RM_CONDITIONS]
)


def _build(game, cfg):
    negotiation_env.make_game(game, **cfg)


@pytest.mark.parametrize("game,cfg,words", WARNED, ids=[f"{g}-{'-'.join(c)}" for g, c, _ in WARNED])
def test_a_setting_without_effect_is_warned_about(game, cfg, words):
    with pytest.warns(UserWarning) as rec:
        _build(game, cfg)
    messages = [str(w.message) for w in rec]
    assert any(words in m for m in messages), messages
    # the same env through the public entry point warns too (the env is built from the same config)
    with pytest.warns(UserWarning, match="has no effect with"):
        negotiation_env.env(game=game, **cfg)


@pytest.mark.parametrize("game,cfg", COUNTING, ids=[f"{g}-{'-'.join(c)}" for g, c in COUNTING])
def test_the_same_setting_where_it_counts_is_silent(game, cfg):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _build(game, cfg)


@pytest.mark.parametrize("game,cfg", DEFAULT_CONDITIONS, ids=[f"{g}-{c}" for g, c in DEFAULT_CONDITIONS])
def test_defaults_of_every_condition_are_silent(game, cfg):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _build(game, cfg)


def test_defaults_given_explicitly_are_silent():
    """A default value spelled out (max_retries=1 with on_error='end') is not a setting
    that was changed, so it is never reported."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _build("matrix", {"on_error": "end", "max_retries": 1, "treatment": "none", "message_text": MT_DEFAULT})
        _build("resource", {"cheap_talk": False, "cheap_talk_turns": 5, "max_talk_turns": None, "reflection": True,
                            "shifting_agent": "agent_b", "shifting_line": "partner", "theme_scope": "game",
                            "json_suffix": False})
        _build("rulemaking", {"condition": "none", "notes_max_chars": 5000, "max_sentences": 5,
                              "max_field_chars": 1000})


@pytest.mark.parametrize("on_error", ["end", "continue"])
def test_a_retry_count_without_retries_is_refused(on_error):
    with pytest.raises(ConfigError) as e:
        _build("matrix", {"on_error": on_error, "max_retries": 3})
    assert str(e.value) == (f"config field 'max_retries' = 3 has no effect with on_error={on_error!r}: it counts "
                            "only with on_error='retry' (its default is 1)")


def test_a_refused_setting_is_refused_by_the_run_config_plan():
    doc = {"name": "x", "games": [{"game": "matrix", "policies": ["scripted:always_a"], "pairings": "self",
                                   "config": {"num_rounds": 2, "max_retries": 2},
                                   "factors": {"errors": {"end": {"on_error": "end"}, "retry": {"on_error": "retry"}}}}]}
    with pytest.raises(RunConfigError, match="'max_retries' = 2 has no effect with on_error='end'"):
        make_plan(parse_config(doc))
    doc["games"][0]["factors"]["errors"] = {"retry": {"on_error": "retry"}}
    assert len(make_plan(parse_config(doc))) == 1


def test_the_warning_points_at_the_line_that_built_the_config():
    from negotiation_env.games.resource.game import ResourceConfig
    from negotiation_env.games.rulemaking.game import RulemakingConfig

    for build in (lambda: ResourceConfig(shifting_agent="agent_a"),
                  lambda: MatrixConfig(treatment="none", message_text=MT_OTHER),
                  lambda: RulemakingConfig(notes_max_chars=10)):
        with pytest.warns(UserWarning) as rec:
            build()
        assert [w.filename for w in rec] == [__file__]
