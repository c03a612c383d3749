"""The rulemaking game through PettingZoo: suites for every environment x condition,
the turn order, Exit, retries and provenance, private state, rewards and features.

Regenerate the golden prompt files after a deliberate template change with
``NEGOTIATION_ENV_UPDATE_GOLDEN=1 pytest tests/games/rulemaking/test_game.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import negotiation_env
from baselines.scripted.rulemaking import Conceder, Hardliner
from negotiation_env import ConfigError
from negotiation_env.games.rulemaking.features import CONDITIONS, LAYOUT
from negotiation_env.games.rulemaking.game import TOKEN_BUDGETS
from negotiation_env.games.rulemaking.prompts import NOTEBOOK_FIELDS

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("NEGOTIATION_ENV_UPDATE_GOLDEN") == "1"
E1 = ("authority", "continental_bank", "apex_financial", "industry_council", "public_interest")
DEADLINE = "Any issue still unresolved after the final turn will be decided by the"


def move(m, rationale="r", issue=None, **private):
    return json.dumps({**private, "move": m, "issue": issue, "rationale": rationale})


def ledger_of(text="x."):
    return {f: text for f in NOTEBOOK_FIELDS["ledger"]}


@pytest.mark.parametrize("environment", ["E1", "E2", "E3"])
@pytest.mark.parametrize("condition", CONDITIONS)
def test_pettingzoo_suites(environment, condition):
    cfg = {"game": "rulemaking", "environment": environment, "condition": condition}
    api_test(negotiation_env.env(**cfg), num_cycles=20)
    parallel_api_test(negotiation_env.parallel_env(**cfg), num_cycles=20)
    seed_test(lambda: negotiation_env.env(**cfg), num_cycles=10)
    parallel_seed_test(lambda: negotiation_env.parallel_env(**cfg), num_cycles=10)


def aec(**cfg):
    env = negotiation_env.env(game="rulemaking", **cfg)
    env.reset(seed=3)
    return env


def game_of(env):
    return env.unwrapped.game


def test_parties_move_in_scenario_order_authority_first_cycling():
    env = aec()
    assert tuple(env.possible_agents) == E1
    order = []
    for _ in range(15):
        order.append(env.agent_selection)
        env.step(move("Counter"))
    assert order == list(E1) * 3
    assert all(env.terminations.values())
    assert game_of(env).outcome["label"] == "authority"


def test_the_run_ends_when_fewer_than_two_parties_remain():
    env = aec()
    seen = []
    while not all(env.terminations.values()):
        a = env.agent_selection
        seen.append(a)
        env.step(move("Counter" if a == "authority" else "Exit"))
    # all four stakeholders walk out on their first turn: only the authority is left
    g = game_of(env)
    assert seen == list(E1)
    assert g.run.exited == set(E1[1:])
    assert g.outcome["turns"] == 5 and g.outcome["exited"] == sorted(E1[1:])
    assert g.outcome["label"] == "authority"  # the authority decides what stays unresolved


def test_an_authority_walkout_is_a_deadlock():
    env = aec(max_turns=6)
    while not all(env.terminations.values()):
        env.step(move("Exit" if env.agent_selection == "authority" else "Counter"))
    assert game_of(env).outcome["label"] == "deadlock"


def test_exit_skips_the_party_in_later_cycles():
    env = aec()
    order = []
    while not all(env.terminations.values()):
        a = env.agent_selection
        order.append(a)
        env.step(move("Exit" if a == "apex_financial" else "Counter"))
    assert len(order) == 15
    assert order[:5] == list(E1)
    assert "apex_financial" not in order[5:]
    assert order[5:9] == ["authority", "continental_bank", "industry_council", "public_interest"]


def test_retry_then_genuine_retried_and_fallback_provenance():
    env = aec(max_retries=1)
    g = game_of(env)
    env.step(move("Support"))  # authority: genuine
    env.step("nonsense")  # continental_bank: invalid, re-prompted
    obs = env.observe("continental_bank")
    assert obs["conversation"][-2] == {"role": "assistant", "content": "nonsense"}
    assert obs["conversation"][-1]["content"].startswith("Your previous response was invalid: no JSON object")
    assert env.agent_selection == "continental_bank"
    env.step(move("Concede"))  # valid after one retry
    env.step("bad")  # apex: invalid
    env.step('{"move": "Maybe", "rationale": "r"}')  # invalid again: retries exhausted -> Oppose
    provs = [(t.party, t.move, t.provenance) for t in g.turns]
    assert provs == [("authority", "Support", "genuine"), ("continental_bank", "Concede", "retried"),
                     ("apex_financial", "Oppose", "fallback")]
    info = env.infos["apex_financial"]
    assert [e["type"] for e in info["events"]] == ["validation_error", "move_fallback"]
    assert env.agent_selection == "industry_council"
    # the next prompt is fresh: no leftover retry messages
    assert len(env.observe("industry_council")["conversation"]) == 2


def test_every_prompt_of_every_condition_states_the_deadline_rule():
    for condition in CONDITIONS:
        env = aec(condition=condition, environment="E3")
        obs = env.observe(env.agent_selection)
        system, user = (m["content"] for m in obs["conversation"])
        assert DEADLINE in system and DEADLINE in user
        assert "Grid Reliability Authority" in user


def test_history_window_shows_the_last_five_public_turns():
    env = aec()
    for i in range(7):
        env.step(move("Counter", rationale=f"reason {i}"))
    prompt = env.observe(env.agent_selection)["prompt"]
    assert "reason 1" not in prompt and "reason 2" in prompt and "reason 6" in prompt
    assert prompt.count("- Turn ") == 5
    env3 = aec(history_window=2)
    for i in range(4):
        env3.step(move("Counter", rationale=f"reason {i}"))
    assert env3.observe(env3.agent_selection)["prompt"].count("- Turn ") == 2


def test_ledger_is_private_overwritten_and_shown_only_to_its_owner():
    env = aec(condition="ledger")
    env.step(move("Counter", ledger=ledger_of("SECRET-A1.")))
    for _ in range(4):
        env.step(move("Counter", ledger=ledger_of("other.")))
    obs = env.observe("authority")
    assert "SECRET-A1." in obs["prompt"]
    for other in E1[1:]:
        o = env.observe(other)
        assert all("SECRET-A1" not in m["content"] for m in o["conversation"])
    assert env.infos["authority"]["private"] == ledger_of("SECRET-A1.")
    assert env.infos["continental_bank"]["private"] == ledger_of("other.")
    env.step(move("Counter", ledger=ledger_of("SECRET-A2.")))  # overwritten every turn
    assert env.infos["authority"]["private"] == ledger_of("SECRET-A2.")


def test_long_notes_are_accepted_at_the_ledgers_budget():
    env = aec(condition="notes")
    system = env.observe("authority")["conversation"][0]["content"]
    assert "free-form, at most 5,000 characters;" in system
    long_notes = "n" * 5000
    env.step(move("Counter", notes=long_notes))
    assert env.infos["authority"]["private"] == long_notes
    assert env.infos["authority"]["last_turn"]["provenance"] == "genuine"
    assert not any(e["type"] == "validation_error" for e in game_of(env).events)
    # the earlier cap stays available, and the prompt states whichever cap is set
    env = aec(condition="notes", notes_max_chars=600)
    assert "free-form, at most 600 characters;" in env.observe("authority")["conversation"][0]["content"]
    env.step(move("Counter", notes="n" * 601))
    assert game_of(env).events[-1]["type"] == "validation_error"


def test_notes_and_digest_and_native():
    env = aec(condition="notes")
    env.step(move("Counter", notes="my note"))
    for _ in range(4):
        env.step(move("Counter", notes="n"))
    assert "my note" in env.observe("authority")["prompt"]
    env = aec(condition="digest")
    env.step(move("Concede"))
    env.step(move("Support"))
    p = env.observe(env.agent_selection)["prompt"]
    assert "- Capital Markets Authority: softened 1 time(s)" in p
    assert "- Continental Bank: softened 1 time(s)" in p and "Turns remaining: 13" in p
    assert aec(condition="native").observe("authority")["reasoning"] == 1
    assert aec().observe("authority")["reasoning"] == 0


def test_relabelled_ledger_is_the_ledger_with_only_its_concession_labels_changed():
    led, rel = NOTEBOOK_FIELDS["ledger"], NOTEBOOK_FIELDS["ledger_relabelled"]
    assert len(rel) == len(led) == 5 and not any("conce" in f for f in rel)
    renames = {r: l for r, l in zip(rel, led) if r != l}
    assert set(renames.values()) == {"my_concessions", "their_concessions"}  # only those two change
    envs = {c: aec(condition=c, early_end="never") for c in ("ledger", "ledger_relabelled")}
    for c, env in envs.items():
        for i in range(6):
            fields = NOTEBOOK_FIELDS[c]
            env.step(move("Concede" if i % 2 else "Counter", rationale=f"r{i}", ledger={f: f"{f} note." for f in fields}))
    texts = {}
    for c, env in envs.items():
        conv = env.observe(env.agent_selection)["conversation"]
        texts[c] = "\n".join(m["content"] for m in conv)
    relabelled = texts["ledger_relabelled"]
    for r, l in renames.items():
        relabelled = relabelled.replace(r, l)
    # system prompt, turn prompt and the party's own notebook: identical up to the labels
    assert relabelled == texts["ledger"]
    system = envs["ledger_relabelled"].observe("authority")["conversation"][0]["content"]
    assert "concession" not in system.split("## Response format", 1)[1].lower()
    assert '"ledger": {"my_position_changes": "..."' in system
    # the ledger's own labels are refused in the relabelled condition, and the other way round
    env = aec(condition="ledger_relabelled")
    env.step(move("Counter", ledger=ledger_of("x.")))
    assert env.infos["authority"]["events"][0]["type"] == "validation_error"
    assert "my_position_changes" in env.infos["authority"]["events"][0]["message"]


@pytest.mark.parametrize("condition", CONDITIONS)
def test_the_token_budget_of_table_1_reaches_the_party_and_the_record(condition):
    expected = {"none": 384, "ledger": 1024, "native": 1024, "digest": 384}.get(condition, 1024)
    assert TOKEN_BUDGETS[condition] == expected
    env = negotiation_env.parallel_env(game="rulemaking", condition=condition)
    obs, infos = env.reset(seed=0)
    assert all(o["max_tokens"] == expected for o in obs.values())
    assert all(i["max_tokens"] == expected for i in infos.values())
    assert env.observation_space("authority").contains(obs["authority"])
    pol = Hardliner()
    while env.agents:
        obs, _, _, _, infos = env.step({a: pol.act(obs[a]) for a in env.agents})
    assert infos["authority"]["outcome"]["max_tokens"] == expected


def test_token_budget_overrides_merge_over_table_1():
    # §7: None rerun at the Ledger's budget; DeepSeek's Native floor
    env = aec(condition="none", output_budgets={"none": 1024, "native": 768})
    g = game_of(env)
    assert g.config.output_budgets == {**TOKEN_BUDGETS, "none": 1024, "native": 768}
    assert env.observe("authority")["max_tokens"] == 1024
    assert aec(condition="native", output_budgets={"native": 768}).observe("authority")["max_tokens"] == 768


def test_run_parameters_come_from_the_seed_and_reach_the_prompt():
    def params(seed):
        env = negotiation_env.env(game="rulemaking")
        env.reset(seed=seed)
        return env.infos["authority"]["params"], env.observe("authority")["prompt"]

    (p1, t1), (p2, _) = params(1), params(1)
    assert p1 == p2
    assert any(params(s)[0] != p1 for s in range(2, 8))
    assert f"external attention is {p1['external_attention']} ({p1['attention_value']:.2f});" in t1
    assert f"({p1['salience']['authority']:.2f})" in t1


def test_attention_takes_many_sampled_levels_over_15_runs():
    # §6.2: "those 15 runs received 12 distinct sampled attention levels"
    import re

    def attention(seed, **cfg):
        env = negotiation_env.env(game="rulemaking", **cfg)
        env.reset(seed=seed)
        prompt = env.observe("authority")["prompt"]
        shown = re.search(r"external attention is ([^;]+);", prompt).group(1)
        return shown, env.infos["authority"]["params"], env.observe("authority")["features"][LAYOUT.slice("attention")]

    runs = [attention(seed) for seed in range(15)]
    assert len({shown for shown, _, _ in runs}) > 10
    for shown, params, feature in runs:
        assert shown == f"{params['external_attention']} ({params['attention_value']:.2f})"
        assert feature[0] == pytest.approx(params["attention_value"])
    assert attention(3) == attention(3)  # reproducible from the env seed
    # the four-level form stays available; each seed draws the same level in both forms
    levels = [attention(seed, attention="levels") for seed in range(15)]
    assert {shown for shown, _, _ in levels} <= {"low", "moderate", "high", "intense"}
    assert [shown for shown, _, _ in levels] == [p["external_attention"] for _, p, _ in runs]
    assert all("attention_value" not in p for _, p, _ in levels)
    assert [f[0] for _, _, f in levels] == [
        ("low", "moderate", "high", "intense").index(p["external_attention"]) / 3 for _, p, _ in runs]
    with pytest.raises(ConfigError, match="attention"):
        negotiation_env.env(game="rulemaking", attention="words")


def test_agreement_reward_and_outcome_info():
    env = negotiation_env.parallel_env(game="rulemaking")
    obs, _ = env.reset(seed=0)
    sal = env.game.params["salience"]
    pols = {a: Conceder(seed=i) for i, a in enumerate(env.possible_agents)}
    total = {a: 0.0 for a in env.possible_agents}
    while env.agents:
        obs, rew, term, trunc, info = env.step({a: pols[a].act(obs[a]) for a in env.agents})
        for a, r in rew.items():
            total[a] += r
    out = info["authority"]["outcome"]
    assert out["label"] == "compromise" and out["agreement"] and out["certified"]
    assert total == {a: 1.0 for a in E1}
    # the run ended when a second party had held its concession for two of its turns
    n = conceder_end_turn([sal[p] for p in E1])
    assert n < 15 and out["turns"] == n and out["end_reason"] == "agreement"
    assert out["provenance"] == {"genuine": n, "retried": 0, "fallback": 0}
    assert sum(out["move_counts"].values()) == n
    assert not out["horizon_exhausted"]
    assert set(out["sensitivity"]) == {f"{k}x{s}" for k in (1, 2, 3) for s in ("0.6", "0.8", "1")}


def conceder_end_turn(saliences, max_turns=15, closing=5, sustain=2):
    """Where a run of linear conceders ends, from the rules alone: seat i (0-based) moves at
    turns i+1, i+6, ... and concedes from its first turn n with n / max_turns >= its
    salience, never going back; a seat sustains its concession once it has held it for
    ``sustain`` of its turns, at turn n + 5 (sustain - 1), so the record is a compromise
    (two sustained concessions) from the second seat to sustain on, and not before a
    full stretch is played."""
    step = len(saliences)
    held = sorted(next((n for n in range(i + 1, max_turns + 1, step) if n / max_turns >= s - 1e-6),
                       max_turns + 1) + step * (sustain - 1) for i, s in enumerate(saliences))
    return min(max_turns, max(closing, held[1]))


def play_moves(moves, **cfg):
    """AEC run fed ``moves`` in order until it ends; returns the game."""
    env = aec(**cfg)
    for m in moves:
        if all(env.terminations.values()):
            break
        env.step(move(m))
    return game_of(env), env


@pytest.mark.parametrize("early_end, ended_after", [("window", 5), ("agreement", None), ("consensus", None),
                                                  ("never", None)])
def test_a_compromise_ends_the_run_once_a_full_closing_stretch_is_played(early_end, ended_after):
    # read within one window, two concessions at turns 1 and 2 are a compromise of the
    # record from turn 2 on, but the run cannot end before a full closing stretch (5
    # turns) has been played; neither concession is held for a second turn, so under the
    # sustained reading they are no agreement at all
    g, env = play_moves(["Concede", "Concede", "Counter", "Counter", "Counter"] + ["Counter"] * 10,
                        early_end=early_end)
    if ended_after is None:
        assert len(g.turns) == 15 and g.outcome["end_reason"] == "horizon" and g.outcome["horizon_exhausted"]
        assert g.outcome["label"] == "authority"  # by turn 15 the concessions left the stretch
    else:
        assert len(g.turns) == ended_after and g.outcome["end_reason"] == "agreement"
        assert g.outcome["label"] == "compromise" and not g.outcome["horizon_exhausted"]
        assert all(env.terminations.values()) and env.rewards == {a: 1.0 for a in E1}


def test_early_end_waits_for_the_agreement_and_consensus_mode_waits_for_support():
    # window reading: Concede at turn 4 only: the stretch of turns 2-6 holds one
    # concession until the authority concedes at turn 6: the run ends there
    g, _ = play_moves(["Counter", "Counter", "Counter", "Concede", "Counter", "Concede"] + ["Counter"] * 9,
                      early_end="window")
    assert len(g.turns) == 6 and g.outcome["label"] == "compromise"
    # sustained: industry_council (turns 4, 9) holds its concession at turn 9, the
    # authority (turns 6, 11) at turn 11: the run ends there
    g, _ = play_moves(["Counter", "Counter", "Counter", "Concede", "Counter", "Concede", "Counter", "Counter",
                       "Concede", "Counter", "Concede"] + ["Counter"] * 4)
    assert len(g.turns) == 11 and g.outcome["label"] == "compromise" and g.outcome["end_reason"] == "agreement"
    # a consensus (4 of 5 Support, no Oppose or Exit in the stretch) ends it in both modes
    for mode in ("agreement", "consensus"):
        g, _ = play_moves(["Counter", "Support", "Support", "Support", "Support", "Counter"], early_end=mode)
        assert len(g.turns) == 5 and g.outcome["label"] == "consensus" and g.outcome["end_reason"] == "agreement"
    # consensus mode ignores a compromise
    g, _ = play_moves(["Counter", "Counter", "Counter", "Concede", "Counter", "Concede"] + ["Counter"] * 9,
                      early_end="consensus")
    assert len(g.turns) == 15 and g.outcome["end_reason"] == "horizon"


def test_a_transient_concession_runs_to_the_horizon():
    # Counter, Counter, Counter, Concede, Concede, then the two conceders counter again:
    # under the window reading the run ended at turn 5 as a compromise
    transient = ["Counter", "Counter", "Counter", "Concede", "Concede"]
    g, env = play_moves(transient + ["Counter"] * 10)
    assert len(g.turns) == 15 and g.outcome["end_reason"] == "horizon" and g.outcome["label"] == "authority"
    assert env.rewards == {a: 0.0 for a in E1}
    g, _ = play_moves(transient + ["Counter"] * 10, early_end="window")
    assert len(g.turns) == 5 and g.outcome["label"] == "compromise"
    # the same two parties conceding again one cycle later end it at turn 10
    g, _ = play_moves(transient * 2 + ["Counter"] * 5)
    assert len(g.turns) == 10 and g.outcome["label"] == "compromise" and g.outcome["end_reason"] == "agreement"


def test_the_worst_case_recode_ends_where_the_ending_rule_ends_it():
    # industry_council and public_interest fail at turns 4-5 and 9-10 (no valid answer,
    # no retry: the harness records Oppose), then counter at 14-15. Recoded to Concede,
    # the two hold their concessions from turn 10: the recoded run ends there, agreed
    bad = "no json here"
    script = ["Counter"] * 3 + [bad] * 2 + ["Counter"] * 3 + [bad] * 2 + ["Counter"] * 5
    env = aec(max_retries=0)
    for a in script:
        env.step(a if a == bad else move(a))
    out = game_of(env).outcome
    assert out["label"] == "authority" and out["turns"] == 15 and out["provenance"]["fallback"] == 4
    assert out["worst_case_label"] == "compromise" and out["worst_case_turns"] == 10
    assert not out["certified"]
    # all genuine: the recode is the record
    g, _ = play_moves(["Counter"] * 15)
    assert g.outcome["worst_case_label"] == "authority" and g.outcome["worst_case_turns"] == 15


@pytest.mark.parametrize("early_end", ["agreement", "window", "never"])
def test_a_played_record_replays_to_its_own_label_and_length(early_end):
    # classify_as_played, which labels the worst-case recode, gives every played run back
    # its own label and length: the recode is played by the rule the game played
    from negotiation_env.games.rulemaking.classifier import classify_as_played

    for seed in range(12):
        env = negotiation_env.parallel_env(game="rulemaking", early_end=early_end)
        obs, _ = env.reset(seed=seed)
        pols = {a: Conceder(seed=seed * 10 + i, noise=0.5) for i, a in enumerate(env.possible_agents)}
        while env.agents:
            obs, _, _, _, info = env.step({a: pols[a].act(obs[a]) for a in env.agents})
        out = info["authority"]["outcome"]
        g = env.game
        assert classify_as_played(g.turns, "authority", early_end, g.config.classifier) == (out["label"], out["turns"])
        assert (out["worst_case_label"], out["worst_case_turns"]) == (out["label"], out["turns"])  # all genuine


def test_end_reason_exits():
    g, _ = play_moves(["Counter", "Exit", "Exit", "Exit", "Exit"])
    assert g.outcome["end_reason"] == "exits" and g.outcome["turns"] == 5


@pytest.mark.parametrize("environment", ["E1", "E2", "E3"])
def test_conceders_end_early_exactly_where_the_rule_says_and_hardliners_never(environment):
    early = 0
    for seed in range(15):
        env = negotiation_env.parallel_env(game="rulemaking", environment=environment)
        obs, _ = env.reset(seed=seed)
        sal = [env.game.params["salience"][p] for p in env.possible_agents]
        pols = {a: Conceder(seed=i) for i, a in enumerate(env.possible_agents)}
        while env.agents:
            obs, _, _, _, info = env.step({a: pols[a].act(obs[a]) for a in env.agents})
        out = info[env.possible_agents[0]]["outcome"]
        assert out["turns"] == conceder_end_turn(sal), seed
        assert out["label"] == "compromise", seed  # a conceder never goes back
        early += out["turns"] < 15
        env = negotiation_env.parallel_env(game="rulemaking", environment=environment)
        obs, _ = env.reset(seed=seed)
        while env.agents:
            obs, _, _, _, info = env.step({a: Hardliner().act(obs[a]) for a in env.agents})
        out = info[env.possible_agents[0]]["outcome"]
        assert out["turns"] == 15 and out["end_reason"] == "horizon" and out["horizon_exhausted"]
    # most E1/E2 conceder runs end before the horizon; E3's saliences are higher (from
    # 0.3), so its conceders hold their concessions later
    assert early >= {"E1": 8, "E2": 8, "E3": 1}[environment]


def test_no_reward_mode_and_hardliners_get_nothing():
    for reward in ("agreement", "none"):
        env = negotiation_env.parallel_env(game="rulemaking", reward=reward)
        obs, _ = env.reset(seed=0)
        pol = Hardliner()
        total = 0.0
        while env.agents:
            obs, rew, *_ = env.step({a: pol.act(obs[a]) for a in env.agents})
            total += sum(rew.values())
        assert total == 0.0


def test_features_index_by_index():
    env = aec()
    env.step(move("Concede"))
    env.step(move("Support"))
    env.step(move("Counter"))
    f = env.observe("authority")["features"]
    L = LAYOUT
    assert f[L.slice("turn")][0] == 3 and f[L.slice("turns_left")][0] == 12
    assert f[L.slice("own_turns_left")][0] == 2  # turns 6 and 11
    assert f[L.slice("is_authority")][0] == 1 and f[L.slice("active")][0] == 0
    assert list(f[L.slice("moves")]) == [1, 0, 1, 1, 0]
    assert f[L.slice("others_recent_softening")][0] == 1  # continental's Support
    assert f[L.slice("others_recent_concessions")][0] == 0
    assert list(f[L.slice("own_last_move")]) == [0, 0, 1, 0, 0]
    assert list(f[L.slice("condition")]) == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    g = game_of(env)
    assert f[L.slice("salience")][0] == pytest.approx(g.params["salience"]["authority"])
    fa = env.observe("apex_financial")["features"]
    assert fa[L.slice("others_recent_concessions")][0] == 1 and fa[L.slice("own_turns_left")][0] == 2
    assert env.observe("industry_council")["features"][L.slice("active")][0] == 1
    assert env.observation_space("authority").contains(env.observe("authority"))


def test_structured_and_text_actions_give_the_same_run():
    def run(output):
        env = negotiation_env.parallel_env(game="rulemaking", condition="ledger")
        obs, _ = env.reset(seed=5)
        pols = {a: Conceder(seed=i, output=output, noise=0.3) for i, a in enumerate(env.possible_agents)}
        while env.agents:
            obs, *_ = env.step({a: pols[a].act(obs[a]) for a in env.agents})
        return [(t.party, t.move, t.provenance) for t in env.game.turns]

    assert run("structured") == run("text")


def test_parallel_whole_run_determinism():
    def play(seed):
        env = negotiation_env.parallel_env(game="rulemaking")
        obs, infos = env.reset(seed=seed)
        pols = {a: Conceder(seed=seed + i, noise=0.5) for i, a in enumerate(env.possible_agents)}
        log = [(obs, infos)]
        while env.agents:
            log.append(env.step({a: pols[a].act(obs[a]) for a in env.agents}))
            obs = log[-1][0]
        return log

    a, b, c = play(4), play(4), play(5)
    assert len(a) == len(b) > 1
    assert not all(data_equivalence(x, y) for x, y in zip(a, c))
    for x, y in zip(a, b):
        assert data_equivalence(x, y)


@pytest.mark.parametrize("bad, message", [
    ({"environment": "E9"}, "environment"),
    ({"environment": 3}, "environment"),
    ({"condition": "chatty"}, "condition"),
    ({"max_turns": 0}, "max_turns"),
    ({"consensus_share": 0}, "consensus_share"),
    ({"reward": "money"}, "reward"),
    ({"compromise_parties": 6}, "compromise_parties"),
    ({"early_end": "sometimes"}, "early_end"),
    ({"sustain_turns": 0}, "sustain_turns"),
    ({"output_budgets": 512}, "output_budgets"),
    ({"output_budgets": {"chatty": 512}}, "unknown condition 'chatty'"),
    ({"output_budgets": {"none": 0}}, "output_budgets.none"),
    ({"output_budgets": {"none": 1.5}}, "output_budgets.none"),
    ({"colour": "red"}, "unknown config field"),
])
def test_bad_config_names_the_field(bad, message):
    with pytest.raises(ConfigError, match=message):
        negotiation_env.env(game="rulemaking", **bad)


def test_sustain_turns_without_effect_under_the_window_reading_warns():
    with pytest.warns(UserWarning, match="sustain_turns"):
        negotiation_env.env(game="rulemaking", early_end="window", sustain_turns=3)


@pytest.mark.parametrize("condition", ["none", "ledger", "digest", "notes"])
def test_golden_prompts(condition):
    # early_end="never": turn 6 closes a compromise (two sustained concessions) and the
    # golden files show the prompt of turn 7
    env = aec(condition=condition, early_end="never")
    private = {"ledger": ledger_of("Held firm.")} if condition == "ledger" else \
        {"notes": "watch the bank"} if condition == "notes" else {}
    for i in range(6):
        env.step(move(["Counter", "Concede", "Support", "Oppose", "Counter", "Concede"][i], rationale=f"rationale {i}",
                      issue="hedging" if i % 2 else None, **private))
    conv = env.observe(env.agent_selection)["conversation"]
    text = "\n\n=====\n\n".join(f"[{m['role']}]\n{m['content']}" for m in conv)
    path = GOLDEN / f"turn7_{condition}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
