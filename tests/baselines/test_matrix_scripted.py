"""Scripted matrix players: exact trajectories of the classic strategies, honest
announcements, seeding, both output forms, and resolution through the runner."""

from __future__ import annotations

import pytest

from baselines.scripted.matrix import POLICIES, announcement, make
from negotiation_env.runner.config import PolicyEntry
from negotiation_env.runner.policies import PolicyUnavailable, resolve_factory
from tests.analysis.tracesets import play_matrix_env

A0, A1 = "agent_0", "agent_1"


def play(p0, p1, *, seed=0, **cfg):
    """Play one dyad; return the game (outcomes) and the trace."""
    env = play_matrix_env(p0, p1, seed=seed, **cfg)
    return env.unwrapped.game, env.last_trace


def joint(game):
    return [o["joint"] for o in game.outcomes]


@pytest.mark.parametrize("output", ["structured", "text"])
@pytest.mark.parametrize("treatment", ["communication", "none"])
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_plays_whole_games_without_an_error(name, treatment, output):
    game, trace = play(make(name, seed=1, output=output), make("tit_for_tat", output=output), treatment=treatment,
                       acknowledgement=True)
    assert len(game.outcomes) == 10 and all(s.valid for s in trace.steps)
    assert all(not o["error_agents"] for o in game.outcomes)
    assert {s.action_type for s in trace.steps if s.agent == A0} == {"text" if output == "text" else "structured"}


def test_always():
    g, _ = play(make("always_a"), make("always_b"))
    assert joint(g) == ["AB"] * 10


def test_tit_for_tat_from_a_symmetric_start_never_switches():
    for first in ("A", "B"):
        g, _ = play(make("tit_for_tat", first=first), make("tit_for_tat", first=first), stage_game="snowdrift")
        assert joint(g) == [first * 2] * 10


def test_tit_for_tat_from_an_asymmetric_start_alternates_in_antiphase():
    g, _ = play(make("tit_for_tat", first="A"), make("tit_for_tat", first="B"))
    assert joint(g) == ["AB", "BA"] * 5


def test_win_stay_lose_shift():
    # PD: against always-B, A earns S = 0 (lose) and B earns P = 1 (lose): it flips every round
    g, _ = play(make("wsls"), make("always_b"))
    assert [o["actions"][A0] for o in g.outcomes] == ["A", "B"] * 5
    # Harmony: A against B earns S = 3 > 2.25 (win): it stays
    g, _ = play(make("wsls"), make("always_b"), stage_game="harmony")
    assert [o["actions"][A0] for o in g.outcomes] == ["A"] * 10
    # PD self-play from A: R = 3 is a win, mutual A forever; a fixed aspiration of 4 makes R a loss
    g, _ = play(make("wsls"), make("wsls"))
    assert joint(g) == ["AA"] * 10
    g, _ = play(make("wsls", aspiration=4), make("wsls", aspiration=4))
    assert joint(g) == ["AA", "BB"] * 5


def test_alternator_is_period_two():
    g, _ = play(make("alternator"), make("alternator", first="B"), treatment="none")
    assert joint(g) == ["AB", "BA"] * 5


def test_bernoulli_is_seeded_and_extreme_p_is_constant():
    a, _ = play(make("bernoulli", seed=7, p=0.5), make("bernoulli", seed=8, p=0.5))
    b, _ = play(make("bernoulli", seed=7, p=0.5), make("bernoulli", seed=8, p=0.5))
    c, _ = play(make("bernoulli", seed=9, p=0.5), make("bernoulli", seed=8, p=0.5))
    assert joint(a) == joint(b) and joint(a) != joint(c)
    g, _ = play(make("bernoulli", p=1.0), make("bernoulli", p=0.0))
    assert joint(g) == ["AB"] * 10


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_messages_honestly_announce_the_action_played(name):
    g, _ = play(make(name, seed=3, output="text"), make("bernoulli", seed=4, output="text"), num_rounds=12)
    for o in g.outcomes:
        for a in (A0, A1):
            assert o["messages"][a] == announcement(o["actions"][a])


def test_a_reused_player_does_not_carry_a_plan_into_the_next_game():
    p = make("bernoulli", seed=0)
    for _ in range(3):
        g, _ = play(p, make("always_a"), num_rounds=1)
        assert g.outcomes[0]["messages"][A0] == announcement(g.outcomes[0]["actions"][A0])


def test_bad_names_and_options_are_refused():
    with pytest.raises(ValueError, match="unknown matrix policy 'grim'; available: always_a, always_b"):
        make("grim")
    with pytest.raises(ValueError, match="p must be a probability in \\[0, 1\\]; got 1.5"):
        make("bernoulli", p=1.5)
    with pytest.raises(ValueError, match="first must be 'A' or 'B'; got 'C'"):
        make("tit_for_tat", first="C")
    with pytest.raises(ValueError, match="matrix policy 'always_a':.*unexpected keyword argument 'p'"):
        make("always_a", p=0.3)
    with pytest.raises(ValueError, match="output must be one of structured, text"):
        make("wsls", output="json")


def test_the_runner_resolves_scripted_matrix_policies_with_options():
    factory = resolve_factory(PolicyEntry(spec="scripted:bernoulli", options={"p": 0.25}), "matrix")
    p = factory(11)
    assert (p.name, p.p, p.seed, p.output) == ("bernoulli", 0.25, 11, "text")
    with pytest.raises(PolicyUnavailable, match="unknown scripted policy 'oracle' for game 'matrix'; available: always_a"):
        resolve_factory(PolicyEntry(spec="scripted:oracle"), "matrix")
