"""benchmarks/paraphrase.py and its templates: every template keeps the act's quantities,
resources, project and reward; each kind has at least ten, pairwise distinct; the
wrapper changes the words only (with the partner's words put back, a run plays exactly
as the original); the script's smallest run writes its tables."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from baselines.scripted import grammar as G
from baselines.scripted import negotiators
from benchmarks import paraphrase, paraphrase_templates


# one scenario, no factors: 6 pairings x 2 games (both seatings)
TINY = """
name = "paraphrase-tiny"
seed = 0

[[games]]
game = "resource"
policies = ["scripted:oracle", "scripted:linear", "scripted:greedy"]
pairings = "all"
games_per_cell = 2
swap_seats = true
config = { num_rounds = 2, cheap_talk_turns = 5, theme = "random" }

[games.scenario_sets]
"mc0.5" = ["mc050_1"]
"""


@pytest.fixture(scope="module")
def bench():
    return paraphrase


@pytest.fixture(scope="module")
def templates(bench):
    return paraphrase_templates


def test_templates_keep_the_meaning(bench, templates):
    assert bench.check_templates() == []
    for kind, ts in templates.TEMPLATES.items():
        assert len(ts) >= 10 and len(set(ts)) == len(ts), kind
    for phrase, ts in templates.STOCK.items():
        assert len(ts) >= 10 and len(set(ts)) == len(ts), phrase


def test_every_sentence_the_agents_say_has_templates(templates):
    said = {"Let's keep talking.", "Here is my decision.", "I'll go with my own best plan. Good luck!",
            *negotiators._PHRASES}
    assert said <= set(templates.STOCK)


def test_quantities_and_names_survive(templates):
    act = G.Propose((("copper", 5), ("silicon", 11)), (("lithium", 3),))
    for t in templates.TEMPLATES["Propose"]:
        text = templates.render_template(t, act)
        for n in ("copper", "silicon", "lithium"):
            assert n in text, (t, text)
        assert ("5" in text or "five" in text) and ("11" in text or "eleven" in text) \
            and ("3" in text or "three" in text), (t, text)


def test_draws_are_seeded(templates):
    acts = [G.Disclose("project_a", (("stone", 2),), 9.0), G.Ask(), G.Propose((("wood", 1),), (("gold", 2),))]
    a = [templates.paraphrase_pieces(acts, np.random.default_rng([0, s])) for s in range(20)]
    b = [templates.paraphrase_pieces(acts, np.random.default_rng([0, s])) for s in range(20)]
    assert a == b and len(set(a)) > 1
    counts = Counter()
    templates.paraphrase_pieces(acts, np.random.default_rng(1), counts)
    assert counts == Counter({"Disclose": 1, "Ask": 1, "Propose": 1})


def test_last_acts_is_what_the_speech_renders():
    import negotiation_env

    env = negotiation_env.env(game="resource", scenario="mc050_1", num_rounds=1)
    env.reset(seed=3)
    agents = {a: negotiators.PRESETS["oracle"](seed=i, output="text", phrasing="fixed")
              for i, a in enumerate(env.possible_agents)}
    seen = 0
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        answer = agents[agent].act(obs)
        acts = agents[agent].last_acts
        if acts is None:  # the reflection after the game: plain text, said to no one
            assert not answer.startswith("{")
            env.step(answer)
            continue
        speech = json.loads(answer).get("speech")
        if acts:
            assert speech == " ".join(a if isinstance(a, str) else G.render(a) for a in acts)
        else:
            assert speech in ("Let's keep talking.", "Here is my decision.")
        seen += 1
        env.step(answer)
    assert seen >= 3
    assert "last_acts" not in vars(agents["agent_a"])  # not a setting the trace records


def _purchases(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        d = json.loads(line)
        out[d["run"]["game_key"]] = [r["outcome"]["purchases"] for r in d["rounds"]]
    return out


def test_only_the_words_change(bench, templates, tmp_path):
    """With the partner's words put back as well, the paraphrased run is the original run."""
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    original, restored = bench.cohort_configs(None, 7, cfg, restore_partner=True)
    assert bench.check_same_games(original, restored) == 12
    a = bench.play(original, tmp_path / "a")
    b = bench.play(restored, tmp_path / "b")
    assert a["errors"] == b["errors"] == 0
    assert _purchases(tmp_path / "a" / "traces.jsonl") == _purchases(tmp_path / "b" / "traces.jsonl")
    counts = b["counts"]
    for kind in ("Propose", "Accept", "Disclose", "Ask", "stock"):
        assert counts.get(kind, 0) > 0, (kind, counts)
    assert not [k for k in counts if k.startswith("left")], counts
    # and the words did change: no message of the restored run is the original's sentence
    spoken = [json.loads(line) for line in open(tmp_path / "b" / "traces.jsonl", encoding="utf-8")]
    speech = [s["parsed"]["speech"] for d in spoken for s in d["steps"] if (s.get("parsed") or {}).get("speech")]
    assert speech and not any("I propose:" in s or s == "Agreed." for s in speech)


def test_smallest_run_writes_tables(bench, tmp_path, capsys):
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    out = tmp_path / "p.json"
    rc = bench.main(["--config", str(cfg), "--games-per-cell", "2", "--no-progress", "--summary-only",
                     "--out", str(out)])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["settings"]["games"] == 12 and data["errors"] == {"original": 0, "paraphrased": 0}
    assert set(data["pairings"]) == {"all pairings", "oracle vs oracle", "linear vs linear", "greedy vs greedy",
                                     "oracle vs linear", "oracle vs greedy", "linear vs greedy"}
    rows = data["pairings"]["all pairings"]["metrics"]
    assert set(rows) == set(bench.metric_keys()) and len(rows) > 30
    for r in rows.values():
        assert set(r) == {"original", "paraphrased", "diff", "moved"}
    # greedy ignores its partner: its self-play plays the same games, words apart
    assert not any(r["moved"] for r in data["pairings"]["greedy vs greedy"]["metrics"].values())
    assert data["paraphrased_counts"]["messages"] > 0
    md = out.with_suffix(".md").read_text()
    assert "| pairing | games | eff orig |" in md and "## oracle vs linear" in md
    assert "Original -> paraphrased" in capsys.readouterr().out


def test_templates_only_mode(bench, capsys):
    assert bench.main(["--templates-only"]) == 0
    assert "OK" in capsys.readouterr().out
