"""Scripted negotiators: the grammar, the observation view, and each policy's behaviour
pinned on hand-made and shipped scenarios."""

from __future__ import annotations


import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import negotiation_env
from baselines.scripted import POLICIES, MixedPopulation, OwnView, make
from baselines.scripted import grammar as G
from baselines.scripted.negotiators import ConcessionNegotiator, Deferent, OracleNegotiator, Plan, Reciprocator
from negotiation_env.games.resource import list_scenarios, load_scenario, solve
from negotiation_env.games.resource.solver import individual_best

# --------------------------------------------------------------------------- grammar

names = st.sampled_from(["wood", "stone", "gold", "ice"])
shares = st.dictionaries(names, st.integers(1, 20), max_size=3)


@settings(max_examples=200, deadline=None)
@given(you=shares, me=shares)
def test_proposal_round_trips(you, me):
    act = G.Propose(tuple(you.items()), tuple(me.items()))
    assert G.parse(G.render(act)) == [act]


@settings(max_examples=100, deadline=None)
@given(req=shares.filter(bool), reward=st.integers(1, 99), project=st.sampled_from(["project_a", "project_c"]))
def test_disclosure_round_trips(req, reward, project):
    act = G.Disclose(project, tuple(req.items()), float(reward))
    assert G.parse(G.render(act)) == [act]


def test_person_phrasings_are_understood():
    assert G.parse("ok, i propose you take 3 Wood, i take nothing!") == [G.Propose((("wood", 3),), ())]
    assert G.parse("Deal. See you") == [G.Accept()]
    assert G.parse("It's a deal") == [G.Accept()]
    assert G.parse("What deal would you like?") == []
    assert G.parse("No deal.") == [G.Reject()]
    assert G.parse("I cannot accept that. What are your projects?") == [G.Reject(), G.Ask()]
    assert G.parse("I need 4 stone for project_a.") == [G.Need(4, "stone", "project_a")]
    # an unreadable share is not named: the readable one is a claim
    assert G.parse("I propose: you take lots, I take 3 wood.") == [G.Propose(None, (("wood", 3),))]


# --------------------------------------------------------------------------- helpers


def play(a, b, scenario="mc080_1", seed=0, output="text", **config):
    env = negotiation_env.env(scenario=scenario, **config)
    env.reset(seed=seed)
    pols = {"agent_a": make(a, seed=1, output=output), "agent_b": make(b, seed=2, output=output)}
    speech = {"agent_a": [], "agent_b": []}
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(pols[agent].act(obs))
        if info["phase"] != "reflection" and agent in env.infos and env.infos[agent]["last_turn"]:
            speech[agent].append(env.infos[agent]["last_turn"]["speech"])
    game = env.unwrapped.game
    outcomes = [game.round_outcome(i) for i in range(len(game.history))]
    errors = [e for e in game.events if e["type"] in ("validation_error", "decision_auto_filled", "talk_turn_forfeited")]
    return outcomes, speech, errors, game


# --------------------------------------------------------------------------- coordination agents


@pytest.mark.parametrize("first", ["agent_a", "agent_b"])
def test_oracle_pair_reaches_the_joint_optimum_in_every_round_of_every_scenario(first):
    for name in list_scenarios():
        outcomes, _, errors, _ = play("oracle", "oracle", scenario=name, first_speaker=first)
        assert all(o["optimal"] for o in outcomes), name
        assert errors == []


def test_oracle_discloses_and_asks_first():
    _, speech, _, game = play("oracle", "oracle", num_rounds=1)
    first = G.parse(speech["agent_a"][0])
    sc = load_scenario("mc080_1")
    assert [a.project for a in first if isinstance(a, G.Disclose)] == [p.name for p in sc.projects_of("agent_a")]
    assert isinstance(first[-1], G.Ask)


def test_oracle_pair_optimal_without_thinking_and_when_shifting():
    for cfg in ({"thinking": False}, {"partner": "shifting"}, {"rotation": "rotating"}):
        outcomes, _, errors, _ = play("oracle", "oracle", scenario="mc050_1", **cfg)
        assert all(o["optimal"] for o in outcomes) and errors == [], cfg


@pytest.mark.parametrize("name", [n for n in list_scenarios() if n.startswith("mc050")])
def test_greedy_pair_overdraws_exactly_when_individual_optima_collide(name):
    sc = load_scenario(name)
    pa, _ = individual_best(sc, "agent_a")
    pb, _ = individual_best(sc, "agent_b")
    collide = any(pa[r.id] + pb[r.id] > r.supply for r in sc.resources)
    outcomes, speech, _, _ = play("greedy", "greedy", scenario=name)
    assert all(o["overdraw"] == collide for o in outcomes)
    assert len(speech["agent_a"]) == 4  # one turn per round: it decides at once


def test_greedy_overdraws_somewhere_in_the_competitive_pool():
    assert any(play("greedy", "greedy", scenario=n)[0][0]["overdraw"] for n in list_scenarios() if n.startswith("mc050"))


# --------------------------------------------------------------------------- concession family


class _View:
    def __init__(self, used, limit):
        self.turns_used, self.turns_limit = used, limit


class _Plan:
    v_max = 20.0


@pytest.mark.parametrize(
    "preset,exponent", [("boulware", 4.0), ("linear", 1.0), ("conceder", 0.25)]
)
def test_aspiration_curve_closed_form(preset, exponent):
    pol = make(preset)
    assert isinstance(pol, ConcessionNegotiator) and pol.exponent == exponent
    for used, limit in ((0, 5), (2, 5), (4, 5), (1, 3)):
        t = used / (limit - 1)
        assert pol.target(_View(used, limit), _Plan()) == pytest.approx(20.0 * (1 - t ** exponent))
    # Boulware stays high, conceder drops early (NegMAS PolyAspiration convention)
    mid = _View(2, 5)
    assert make("boulware").target(mid, _Plan()) == pytest.approx(18.75)
    assert make("conceder").target(mid, _Plan()) == pytest.approx(20 * (1 - 0.5 ** 0.25))


def test_satisficer_and_hardliner_targets_are_constant():
    for used in range(5):
        assert make("satisficer").target(_View(used, 5), _Plan()) == pytest.approx(12.0)
        assert make("hardliner").target(_View(used, 5), _Plan()) == pytest.approx(20.0)


def test_noisy_variant_is_seeded():
    a = [make("noisy_linear", seed=3).target(_View(1, 5), _Plan()) for _ in range(1)]
    b = [make("noisy_linear", seed=3).target(_View(1, 5), _Plan()) for _ in range(1)]
    c = [make("noisy_linear", seed=4).target(_View(1, 5), _Plan()) for _ in range(1)]
    assert a == b and a != c


def test_hardliner_never_moves_from_its_individual_optimum():
    sc = load_scenario("mc050_1")
    outcomes, speech, _, game = play("hardliner", "conceder", scenario="mc050_1", theme_scope="game")  # one set of names
    best, _ = individual_best(sc, "agent_a")
    names = game.names
    for text in speech["agent_a"]:
        for act in G.parse(text):
            if isinstance(act, G.Propose):
                claimed = {k: v for k, v in act.me}
                value = solve_value(sc, "agent_a", {names.ids_by_name()[k]: v for k, v in claimed.items()})
                assert value == solve(sc).individual_max["agent_a"]
            if isinstance(act, G.Accept):  # it only accepts shares worth its maximum
                raise AssertionError("the hardliner accepted against a conceder that never offers its optimum")
    assert all(o["rewards"]["agent_a"] in (0.0, solve(sc).individual_max["agent_a"]) for o in outcomes)


def solve_value(sc, agent, share):
    from negotiation_env.games.resource.solver import feasible_run_vectors

    _, usage, value = feasible_run_vectors(sc, agent)
    vec = np.array([share.get(r.id, 0) for r in sc.resources])
    return float(np.where(np.all(usage <= vec, axis=1), value, -np.inf).max())


def test_hardliner_pair_overdraws_or_stalls():
    for name in [n for n in list_scenarios() if n.startswith("mc050")]:
        outcomes, _, _, _ = play("hardliner", "hardliner", scenario=name)
        assert all(o["overdraw"] or not o["optimal"] for o in outcomes), name


def test_reciprocator_concedes_only_after_the_partner_does():
    pol = Reciprocator()
    plan = type("P", (), {"v_max": 10.0, "value_of": staticmethod(lambda share: float(sum(share.values())))})()

    class V:
        def __init__(self, offers):
            self.current = type("R", (), {"acts": lambda _self, who: offers if who == "them" else []})()

        def ids(self, d):
            return dict(d)

    same = [G.Propose((("r0", 2),), ()), G.Propose((("r0", 2),), ())]
    more = [G.Propose((("r0", 2),), ()), G.Propose((("r0", 5),), ()), G.Propose((("r0", 7),), ())]
    assert pol.target(V(same), plan) == 10.0
    assert pol.target(V(more), plan) == pytest.approx(6.0)  # two concessions x 0.2


def test_history_use_and_amnesia():
    """In a stable game the linear agent opens round 2 with round 1's split; the amnesiac
    renegotiates from its aspiration curve."""
    outcomes, speech, _, _ = play("linear", "linear", scenario="mc100_1", num_rounds=2)
    assert outcomes[0]["overdraw"] is False
    opening_r2 = next(a for t in speech["agent_a"][1:] for a in G.parse(t) if isinstance(a, G.Propose))
    purchases = outcomes[0]["purchases"]
    assert sorted(q for _, q in opening_r2.me) == sorted(q for q in purchases["agent_a"].values() if q)
    assert sorted(q for _, q in opening_r2.you) == sorted(q for q in purchases["agent_b"].values() if q)
    _, sp_am, _, _ = play("amnesiac", "linear", scenario="mc100_1", num_rounds=2, theme_scope="game")  # same names
    first_am = [a for a in G.parse(sp_am["agent_a"][0]) if isinstance(a, G.Propose)]
    # the amnesiac's round-2 opening equals its round-1 opening (curve restarts, no history)
    r2_am = next(t for t in sp_am["agent_a"][1:] if any(isinstance(a, G.Propose) for a in G.parse(t)))
    assert [a for a in G.parse(r2_am) if isinstance(a, G.Propose)] == first_am


@pytest.mark.parametrize("a,b", [("linear", "linear"), ("anchorer", "fair_splitter"), ("abandoner", "oracle"),
                                 ("reciprocator", "boulware")])
@pytest.mark.parametrize("partner", ["stable", "shifting"])
@pytest.mark.parametrize("scenario", ["mc100_1", "mc050_1"])
def test_a_theme_per_round_renames_resources_without_changing_play(a, b, partner, scenario):
    """C.1 themes per round: a scripted agent reads the renamed resources, and re-keys
    what earlier rounds said (disclosures the oracle remembers) and their results (which
    history-using agents repeat), so it plays in resource ids exactly as under one theme
    per game."""
    for seed, first in ((0, "agent_a"), (1, "agent_b"), (2, "agent_b")):
        kw = dict(scenario=scenario, seed=seed, partner=partner, first_speaker=first)
        per_round, _, err_r, g_r = play(a, b, theme_scope="round", **kw)
        per_game, _, err_g, g_g = play(a, b, **kw)
        assert len(set(g_r.round_themes)) > 1 and len(set(g_g.round_themes)) == 1
        assert [(o["purchases"], o["runs"]) for o in per_round] == [(o["purchases"], o["runs"]) for o in per_game]
        assert err_r == err_g == []


def test_linear_opens_round_two_with_round_ones_split_under_new_names():
    """The history-using agent repeats last round's split in the round's names."""
    for seed in range(20):
        outcomes, speech, _, game = play("linear", "linear", scenario="mc100_1", num_rounds=2, seed=seed)
        if game.round_names[0] != game.round_names[1]:
            break
    new = game.round_names[1]
    opening_r2 = next(a for t in speech["agent_a"][1:] for a in G.parse(t) if isinstance(a, G.Propose))
    mine = {new.name(r): q for r, q in outcomes[0]["purchases"]["agent_a"].items() if q}
    assert dict(opening_r2.me) == mine


@pytest.mark.parametrize("a,b", [("linear", "linear"), ("oracle", "greedy"), ("hardliner", "hardliner"),
                                 ("random", "conceder"), ("anchorer", "deferent")])
def test_unlimited_talk_scripted_agents_pace_over_their_horizon_and_decide(a, b):
    """cheap_talk_turns=0 has no hidden cap, so a scripted agent decides itself after its
    horizon (5 turns) instead of waiting for a decision prompt that never comes."""
    outcomes, speech, errors, game = play(a, b, num_rounds=2, cheap_talk_turns=0)
    assert len(outcomes) == 2 and errors == []
    assert not any(o["talk_truncated"] for o in outcomes)
    turns = len(speech["agent_a"]) + len(speech["agent_b"])
    assert turns <= 2 * 2 * 6  # per round and agent at most horizon + 1 turns (the deciding one)


# --------------------------------------------------------------------------- failure modes


def test_fair_splitter_proposes_equal_halves_and_takes_its_half():
    outcomes, speech, _, game = play("fair_splitter", "fair_splitter", scenario="mc080_1", num_rounds=1, theme="medieval")
    first = G.parse(speech["agent_a"][0])
    assert first == [G.Propose((("wood", 5), ("stone", 5), ("gold", 3)), (("wood", 5), ("stone", 5), ("gold", 3)))]
    assert G.parse(speech["agent_b"][0]) == [G.Accept()]
    assert not outcomes[0]["overdraw"] and not outcomes[0]["optimal"]  # fair, and below M
    # each buys exactly its half of two resources (budget 18, at most 2 types), not just what
    # its runs use: a needs stone+gold, b wood (+gold for its other projects); both take 3 gold
    ids = game.names.ids_by_name()
    assert outcomes[0]["purchases"] == {"agent_a": {ids["wood"]: 0, ids["stone"]: 5, ids["gold"]: 3},
                                        "agent_b": {ids["wood"]: 5, ids["stone"]: 0, ids["gold"]: 3}}


def test_anchorer_repeats_a_suboptimal_allocation():
    outcomes, speech, _, _ = play("anchorer", "fair_splitter", scenario="mc080_1", num_rounds=3, theme="medieval")
    assert not outcomes[0]["overdraw"]
    for o in outcomes[1:]:
        assert o["purchases"] == outcomes[0]["purchases"]
    assert not any(o["optimal"] for o in outcomes)


def test_anchorer_refuses_the_oracles_optimum_but_corrects_an_overdraw():
    # legacy_mc080_2 (a legacy scenario: no equal optimal split): the anchorer's opening (its
    # individual optimum) is in no joint optimum; it discloses, so the oracle proposes the
    # optimum every round, and it refuses every time
    outcomes, speech, _, _ = play("anchorer", "oracle", scenario="legacy_mc080_2", num_rounds=3)
    assert all(not o["optimal"] and not o["overdraw"] for o in outcomes)
    assert all(o["purchases"] == outcomes[0]["purchases"] for o in outcomes)
    said = [a for t in speech["agent_a"] for a in G.parse(t)]
    assert any(isinstance(a, G.Disclose) for a in said) and not any(isinstance(a, G.Accept) for a in said)
    assert sum(isinstance(a, G.Reject) for t in speech["agent_b"] for a in G.parse(t)) >= 3
    # two anchorers collide in round 1 (both open with their individual optimum), then
    # renegotiate as linear conceders after the annulled round and keep that allocation
    outcomes, _, _, _ = play("anchorer", "anchorer", scenario="legacy_mc080_1", num_rounds=3)
    assert outcomes[0]["overdraw"] and not outcomes[1]["overdraw"]
    assert outcomes[2]["purchases"] == outcomes[1]["purchases"]


def test_oracle_without_agreement_takes_the_best_of_what_the_partner_claimed():
    # the anchorer never accepts the oracle's optimum; the oracle does not insist on its own
    # rejected proposal (which would overdraw) but leaves the anchorer's claimed share alone
    # (legacy_mc080_4, a legacy scenario: no equal optimal split)
    outcomes, speech, _, game = play("oracle", "anchorer", scenario="legacy_mc080_4", num_rounds=1)
    last = [a for t in speech["agent_b"] for a in G.parse(t) if isinstance(a, G.Propose)][-1]
    ids = game.names.ids_by_name()
    claimed = {ids[n]: q for n, q in last.me}
    bought = outcomes[0]["purchases"]["agent_a"]
    sc = load_scenario("legacy_mc080_4")
    assert all(bought[r.id] + claimed.get(r.id, 0) <= r.supply for r in sc.resources)
    assert not outcomes[0]["overdraw"] and not outcomes[0]["optimal"]
    # (here the anchorer's claim holds all the resource every oracle project needs: the oracle
    # earns 0, still more than an annulled round gives either side)


def test_deferent_accepts_the_first_proposal_unverified():
    # against a hardliner: the deferent takes whatever it is left, even if useless
    outcomes, speech, _, game = play("hardliner", "deferent", scenario="mc080_1", num_rounds=1, theme="medieval")
    a_first = [x for x in G.parse(speech["agent_a"][0]) if isinstance(x, G.Propose)][0]
    assert G.parse(speech["agent_b"][0]) == [G.Accept()]
    offered = game.names.ids_by_name()
    given_b = {offered[n]: q for n, q in a_first.you}
    bought = {k: v for k, v in outcomes[0]["purchases"]["agent_b"].items() if v}
    assert all(bought[k] <= given_b.get(k, 0) for k in bought)


def test_deferent_buys_exactly_the_first_offer_it_can_buy():
    # speaking first it discloses and asks; the satisficer's informed first offer (9 stone) is
    # not jointly optimal, and the deferent buys exactly it, to the unit (legacy_mc080_4)
    outcomes, speech, _, game = play("deferent", "satisficer", scenario="legacy_mc080_4", num_rounds=1,
                                     theme="medieval")
    said = G.parse(speech["agent_a"][0])
    assert [type(a) for a in said] == [G.Disclose, G.Disclose, G.Disclose, G.Ask]
    offer = [x for x in G.parse(speech["agent_b"][0]) if isinstance(x, G.Propose)][0]
    assert G.parse(speech["agent_a"][1]) == [G.Accept()]
    ids = game.names.ids_by_name()
    bought = {k: v for k, v in outcomes[0]["purchases"]["agent_a"].items() if v}
    assert bought == {ids[n]: q for n, q in offer.you}
    assert not outcomes[0]["optimal"] and not outcomes[0]["overdraw"]


@pytest.mark.parametrize("first", ["agent_a", "agent_b"])
def test_deferent_deciding_late_buys_the_oracles_offer_at_the_decision_prompt(first):
    """decide_early=False, name_runs=False (train_sft's follower): against the oracle with
    two talk turns, it discloses or says exactly "Agreed.", buys at the decision prompt
    exactly the share the oracle offered it, without naming runs, and never overdraws."""
    for name in list_scenarios():
        env = negotiation_env.env(scenario=name, num_rounds=2, cheap_talk_turns=2, thinking=False,
                                  prompt_style="compact", first_speaker=first)
        env.reset(seed=0)
        pols = {"agent_a": Deferent(seed=1, output="text", decide_early=False, name_runs=False),
                "agent_b": OracleNegotiator(seed=2, output="text")}
        offers, bought = [], []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            answer = pols[agent].act(obs)
            if agent == "agent_b":
                offers += [a.you for a in G.parse(answer) if isinstance(a, G.Propose)]
            elif json.loads(obs["answer_format"])["phase"] == "decision":
                assert "projects" not in json.loads(answer), answer
                bought.append(json.loads(answer))
            elif json.loads(obs["answer_format"])["phase"] == "talk":
                said = G.parse(answer)
                assert said == [G.Accept()] or [type(a) for a in said] == [G.Disclose] * 3 + [G.Ask], answer
            env.step(answer)
        game = env.unwrapped.game
        outcomes = [game.round_outcome(i) for i in range(len(game.history))]
        assert len(offers) == len(bought) == 2, name  # one offer a round, bought at the decision prompt
        assert bought == [{n: q for n, q in offer if q} for offer in offers], name
        assert not any(o["overdraw"] for o in outcomes), name
        assert not any(e["type"] in ("validation_error", "decision_auto_filled") for e in game.events)


@pytest.mark.parametrize("partner", ["oracle", "linear"])
def test_abandoner_agrees_then_submits_its_individual_best(partner):
    overdrawn_after_agreeing = 0
    for name in [n for n in list_scenarios() if n.startswith("mc050")]:
        sc = load_scenario(name)
        best, _ = individual_best(sc, "agent_a")
        outcomes, speech, _, game = play("abandoner", partner, scenario=name, num_rounds=2, first_speaker="agent_b")
        for o in outcomes:
            assert o["purchases"]["agent_a"] == best, name  # whatever was said
        agreed = any(isinstance(a, G.Accept) for t in speech["agent_a"] for a in G.parse(t))
        overdrawn_after_agreeing += agreed and any(o["overdraw"] for o in outcomes)
    assert overdrawn_after_agreeing >= 1


# --------------------------------------------------------------------------- plumbing


@pytest.mark.parametrize("name", list(POLICIES))
def test_structured_and_text_outputs_give_identical_games(name):
    a, _, ea, _ = play(name, "linear", output="structured", scenario="mc100_2")
    b, _, eb, _ = play(name, "linear", output="text", scenario="mc100_2")
    assert a == b and ea == eb == []


@pytest.mark.parametrize("name", list(POLICIES))
def test_every_policy_plays_the_parallel_loop(name):
    env = negotiation_env.parallel_env(scenario="mc050_2", thinking=False)
    obs, infos = env.reset(seed=1)
    pols = {a: make(name, seed=i, output="text") for i, a in enumerate(env.possible_agents)}
    steps = 0
    while env.agents:
        obs, rew, term, trunc, infos = env.step({a: pols[a].act(obs[a]) for a in env.agents})
        steps += 1
        assert not any(e["type"] == "validation_error" for i in infos.values() for e in i["events"])
    assert steps >= 4


def test_batch_form_and_view():
    env = negotiation_env.env(scenario="mc080_1")
    env.reset(seed=0)
    obs = env.observe("agent_a")
    pol = make("oracle")
    assert pol.act_batch([obs, obs]) == [pol.act(obs), pol.act(obs)]
    view = OwnView.from_observation(obs)
    assert view.project_names == ["project_a", "project_b", "project_c"] and view.thinking
    plan = Plan.of(view)
    assert plan.v_max == 20.0


def test_mixed_population_is_reproducible_and_validated():
    pop = MixedPopulation({"oracle": 1, "greedy": 1, "linear": 2}, seed=5)
    names = [pop.draw_names(i) for i in range(40)]
    assert names == [MixedPopulation({"oracle": 1, "greedy": 1, "linear": 2}, seed=5).draw_names(i) for i in range(40)]
    counts = {n: sum(x.count(n) for x in names) for n in ("oracle", "greedy", "linear")}
    assert counts["linear"] > counts["oracle"] and set(counts) >= {n for x in names for n in x}
    assert pop.draw_names(7) == MixedPopulation({"oracle": 1, "greedy": 1, "linear": 2}, seed=5).draw_names(7)
    pair = pop.draw(3)
    assert set(pair) == {"agent_a", "agent_b"}
    with pytest.raises(ValueError, match="unknown"):
        MixedPopulation(["wizard"])
    with pytest.raises(ValueError, match="weights"):
        MixedPopulation({"oracle": -1})
    with pytest.raises(ValueError, match="unknown scripted policy"):
        make("wizard")


@pytest.mark.parametrize("a,b", [("oracle", "oracle"), ("linear", "linear"), ("anchorer", "fair_splitter"),
                                 ("abandoner", "oracle"), ("reciprocator", "boulware"), ("greedy", "deferent")])
@pytest.mark.parametrize("rotation", ["fixed", "rotating"])
def test_the_compact_prompt_does_not_change_scripted_play(a, b, rotation):
    """prompt_style="compact" (a short thinking-off prompt for small models) words the
    same facts differently; scripted agents read both, so every round's purchases,
    runs and spoken acts are those of the paper's thinking-off prompt (themes renamed
    mid-game included)."""
    for scenario, seed, first in (("mc080_1", 0, "agent_a"), ("mc050_2", 1, "agent_b"), ("mc100_3", 2, "agent_a")):
        kw = dict(scenario=scenario, seed=seed, first_speaker=first, thinking=False, cheap_talk_turns=2,
                  rotation=rotation)
        paper, sp_p, err_p, _ = play(a, b, **kw)
        compact, sp_c, err_c, game = play(a, b, prompt_style="compact", **kw)
        assert game._states["agent_a"].conversation[0]["content"].startswith("Resources (cost, supply per round): ")
        assert [(o["purchases"], o["runs"]) for o in compact] == [(o["purchases"], o["runs"]) for o in paper]
        # the same acts; their wording is drawn per observation, so it may differ
        assert {a: [G.parse(t) for t in v] for a, v in sp_c.items()} == \
            {a: [G.parse(t) for t in v] for a, v in sp_p.items()}
        assert err_c == err_p == []


@pytest.mark.parametrize("config", [{"theme": "random", "num_rounds": 3},
                                    {"rotation": "rotating", "num_rounds": 3, "thinking": False},
                                    {"prompt_style": "compact", "thinking": False, "num_rounds": 2}])
def test_the_view_reads_the_same_with_its_per_text_caches_cold_or_warm(config):
    """OwnView.from_observation keeps what it read of each text (view._user_events and
    friends); a view read with every cache emptied first equals the one read warm, at
    every step of games whose texts repeat (same seed twice) and rename resources."""
    from negotiation_env.games.resource import view as V

    caches = (V._user_events, V._own_speech, V._read_system, V._layout)
    env = negotiation_env.env(game="resource", **config)
    policies = {"agent_a": make("reciprocator", seed=1, output="text"), "agent_b": make("oracle", seed=2, output="text")}
    checked = 0
    for seed in (5, 5, 6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            warm = OwnView.from_observation(obs)
            for c in caches:
                c.cache_clear()
            assert OwnView.from_observation(obs) == warm
            checked += 1
            env.step(policies[agent].act(obs))
    assert checked > 20
