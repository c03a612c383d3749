"""Recorded actions back onto the resource menu: ResourceMenu.index_of reads the
transitions export's ``action`` column (what offline learners train from)."""

from __future__ import annotations

import collections
import json

import numpy as np
import pytest

import negotiation_env
from baselines.scripted import grammar as G
from negotiation_env.games.resource import load_scenario
from negotiation_env.traces import record
from negotiation_env.traces.export import transitions
from negotiation_env.wrappers import numeric
from negotiation_env.wrappers.menus.resource import options_of, position_of_name
from tests.wrappers.test_numeric import masked_choice


@pytest.mark.parametrize("cfg", [{"reflection": True, "num_rounds": 2}, {"scenario": "mc100_1", "theme": "space"},
                                 {"cheap_talk": False, "num_rounds": 2}],
                         ids=["reflection", "mc100_1-themed", "no-talk"])
def test_every_played_index_maps_back_exactly_from_the_export(cfg):
    """Random masked play through the numeric view, recorded and exported: each row's
    structured action maps back to the very index played, and its features are the
    view's ``features`` slice the agent saw."""
    rec = record(negotiation_env.env(game="resource", **cfg))
    env = numeric(rec)
    labels = env.action_labels()
    groups = [lab.split("_")[0] for lab in labels]
    feats = env.menu.layout.slice("features")
    rng = np.random.default_rng(0)
    seen = collections.Counter()
    for g in range(5):
        played: dict[str, list[tuple[int, list[float]]]] = collections.defaultdict(list)
        env.reset(seed=g)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = masked_choice(obs, groups, rng)
            played[agent].append((a, obs["observation"][feats].tolist()))
            env.step(a)
        trace = rec.last_trace
        sc = load_scenario(trace.scenario)
        rows = list(transitions([trace]))
        assert len(rows) == sum(len(v) for v in played.values())
        for row in rows:
            idx, how = env.menu.index_of(sc, row["agent"], row["action"], row["phase"])
            want, features = played[row["agent"]][row["t"]]
            assert (labels[idx], how) == (labels[want], "exact")
            assert row["observation"] == pytest.approx(features)
            seen[groups[want]] += 1
    expected = {"decide"} if cfg.get("cheap_talk") is False else {"disclose", "accept", "reject", "propose", "decide"}
    if cfg.get("reflection"):
        expected.add("reflect")
    assert expected <= set(seen)


def _menu():
    env = numeric(negotiation_env.env(game="resource"))
    env.reset(seed=0)
    return env.menu, env.game.scenario


def test_scripted_speech_maps_to_the_nearest_entry():
    menu, sc = _menu()
    opts = options_of(sc, "agent_b")
    L = menu.labels
    # the oracle's opening: its disclosures and a question, and a proposal in one message
    medieval = dict(zip(sc.resource_ids, ("wood", "stone", "gold")))
    disclose = " ".join(G.render(G.Disclose(p.name, tuple((medieval[r], u) for r, u in p.requires), p.reward))
                        for p in sc.projects_of("agent_b"))
    mine = opts.usage[1]
    prop = G.render(G.Propose((("gold", 1),), tuple((n, int(q)) for n, q in zip(("wood", "stone", "gold"), mine) if q)))
    assert menu.index_of(sc, "agent_b", {"speech": disclose + " What are your projects?", "decision": None}) \
        == (L.index("disclose"), "exact")
    # one act a turn: the disclosure goes first, the proposal can follow next turn
    assert menu.index_of(sc, "agent_b", {"speech": disclose + " What are your projects? " + prop, "decision": None}) \
        == (L.index("disclose"), "nearest")
    assert menu.index_of(sc, "agent_b", {"speech": "What are your projects? " + prop, "decision": None}) \
        == (L.index("propose_1"), "nearest")
    assert menu.index_of(sc, "agent_b", {"speech": prop, "decision": None}) == (L.index("propose_1"), "exact")
    assert menu.index_of(sc, "agent_b", {"speech": "What are your projects?", "decision": None}) \
        == (L.index("disclose"), "nearest")
    assert menu.index_of(sc, "agent_b", {"speech": "I can't accept that. " + prop, "decision": None}) \
        == (L.index("propose_1"), "nearest")
    assert menu.index_of(sc, "agent_b", {"speech": "I can't accept that.", "decision": None}) == (L.index("reject"), "exact")
    # free text the grammar does not read has no menu entry
    assert menu.index_of(sc, "agent_b", {"speech": "Hello! What are you planning?", "decision": None}) == (None, "unmapped")
    assert menu.index_of(sc, "agent_b", None) == (None, "unmapped")


def test_decisions_map_to_options_exactly_or_to_the_nearest():
    menu, sc = _menu()
    opts = options_of(sc, "agent_b")
    L = menu.labels

    def decision(vec, speech="Here is my decision."):
        return json.dumps({"speech": speech, "decision": {
            "purchase": {rid: int(q) for rid, q in zip(sc.resource_ids, vec)}, "runs": {}}})

    for k in range(len(opts)):
        assert menu.index_of(sc, "agent_b", decision(opts.usage[k])) == (L.index(f"decide_{k}"), "exact")
    # greedy's stock sentence with its decision: the same option, but not the menu's words
    assert menu.index_of(sc, "agent_b", decision(opts.usage[0], "I'll go with my own best plan. Good luck!")) \
        == (L.index("decide_0"), "nearest")
    # one unit more than option 0 buys (dominated): option 0 is nearest
    over = opts.usage[0].copy()
    over[0] += 1
    assert menu.index_of(sc, "agent_b", decision(over)) == (L.index("decide_0"), "nearest")
    assert menu.index_of(sc, "agent_b", decision(opts.usage[2], "Agreed.")) == (L.index("accept"), "exact")


def test_resource_names_are_read_in_every_theme():
    assert position_of_name("Gold", 3) == 2 and position_of_name("helium", 3) == 2
    assert position_of_name("r2", 3) == 1 and position_of_name("r4", 4) == 3
    assert position_of_name("r4", 3) is None and position_of_name("unobtainium", 3) is None
