"""No text a model trains on names the policy that produced it.

A scripted policy that sent its preset name as its private ``thinking`` (``"oracle"``,
``"greedy"``) would make the preference export's chosen answer say "oracle" and the
rejected one "greedy": a label any model learns instead of the negotiation. This test
plays every scripted policy of every game through the runner (resource: every preset of
``baselines.scripted.POLICIES``, in self-play, answering as text and as structured
actions; rulemaking: every policy of ``baselines.scripted.rulemaking.POLICIES`` in every
seat, under three private-state conditions; matrix: every pairing of
``baselines.scripted.matrix.POLICIES``, with and without talk) and exports every kind:
transitions, sft, sft_prompt_completion, preferences and Minari.

What is checked, and why two levels:

* answer text (what the policy wrote: an assistant message, ``action_text``, a
  preference's chosen and rejected answers, a Minari action) must not contain any
  registry name of any game, case-insensitive, as a whole word ("greedy", "oracle",
  "tit_for_tat", ...);
* all other text (system and user messages, prompts, Minari observation prompts, system
  prompts and messages) must not contain the names that are not ordinary English words
  (``boulware``, ``satisficer``, ``tit_for_tat``, ...). Names that are ordinary words (:data:`ORDINARY_WORDS`: random,
  linear, greedy, oracle, hardliner, alternator) may appear in a prompt in their plain
  sense (a game's rules could well say "random"), so there they are not forbidden; in
  answers they are, since no scripted answer needs them.
"""

from __future__ import annotations

import json
import re
import warnings

import pytest

from baselines.scripted import POLICIES as RESOURCE
from baselines.scripted.matrix import POLICIES as MATRIX
from baselines.scripted.rulemaking import POLICIES as RULEMAKING
from negotiation_env.runner import run
from negotiation_env.traces import export

REGISTRIES = {"resource": RESOURCE, "rulemaking": RULEMAKING, "matrix": MATRIX}
NAMES = sorted({n for reg in REGISTRIES.values() for n in reg})
#: registry names that are ordinary English words: forbidden in answers only (see the module doc)
ORDINARY_WORDS = {"random", "linear", "greedy", "oracle", "hardliner", "alternator"}

ANY_NAME = re.compile(r"\b(" + "|".join(map(re.escape, NAMES)) + r")\b", re.I)
RARE_NAME = re.compile(r"\b(" + "|".join(re.escape(n) for n in NAMES if n not in ORDINARY_WORDS) + r")\b", re.I)


def _config() -> dict:
    rule = list(RULEMAKING)
    return {"name": "label-leak", "seed": 5, "games": [
        {"game": "resource", "name": "resource_text", "policies": [f"scripted:{n}" for n in RESOURCE],
         "pairings": "self", "games_per_cell": 1, "config": {"num_rounds": 2}, "scenario_sets": {"s": ["mc080_1"]}},
        {"game": "resource", "name": "resource_structured", "pairings": "self", "games_per_cell": 1,
         "policies": [{"spec": f"scripted:{n}", "label": f"structured-{n}", "options": {"output": "structured"}}
                      for n in RESOURCE],
         "config": {"num_rounds": 2}, "scenario_sets": {"s": ["mc080_1"]}},
        {"game": "rulemaking", "policies": [f"scripted:{n}" for n in rule], "games_per_cell": 1,
         "pairings": [[f"scripted:{rule[(seat + k) % len(rule)]}" for seat in range(5)] for k in range(len(rule))],
         "config": {"environment": "E1"},
         "factors": {"private": {"notebook": {"condition": "notebook_state"}, "notes": {"condition": "notes"},
                                 "ledger": {"condition": "ledger"}}}},
        {"game": "matrix", "policies": [f"scripted:{n}" for n in MATRIX], "pairings": "all", "games_per_cell": 1,
         "config": {"num_rounds": 3},
         "factors": {"talk": {"on": {"treatment": "communication"}, "off": {"treatment": "none"}}}},
    ]}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("label_leak")
    summary = run(_config(), out)
    assert summary.complete and summary.errors == 0
    return out


def _clean(texts, pattern, where):
    for t in texts:
        m = pattern.search(t or "")
        assert m is None, f"{where} names the policy {m.group(0)!r}: {t[:300]!r}"


def _messages(msgs, where):
    _clean([m["content"] for m in msgs if m["role"] == "assistant"], ANY_NAME, f"{where} (assistant)")
    _clean([m["content"] for m in msgs if m["role"] != "assistant"], RARE_NAME, f"{where} ({'/'.join({m['role'] for m in msgs})})")


def test_the_patterns_catch_a_name_and_nothing_else():
    assert ANY_NAME.search('{"thinking": "Oracle", "speech": "hi"}') and ANY_NAME.search("play tit_for_tat")
    assert not ANY_NAME.search("randomly linearity concede conceded")  # whole words only
    assert RARE_NAME.search("BOULWARE") and not RARE_NAME.search("a random greedy oracle")
    assert set(NAMES) >= {"oracle", "greedy", "conceder", "bernoulli"} and len(NAMES) == 22  # 15 resource + 6 matrix + noisy_conceder


@pytest.mark.parametrize("game", sorted(REGISTRIES))
def test_every_policy_of_the_game_played(run_dir, game):
    labels = {r["policy"] for r in export.transitions(run_dir, games=[game])}
    names = {label.split(":", 1)[1] for label in labels if label.startswith("scripted:")}
    assert names == set(REGISTRIES[game])


@pytest.mark.parametrize("game", sorted(REGISTRIES))
def test_transitions_action_text(run_dir, game):
    rows = list(export.transitions(run_dir, games=[game]))
    assert rows
    _clean([r["action_text"] for r in rows], ANY_NAME, f"{game} transitions action_text")
    _clean([r["action"] for r in rows], ANY_NAME, f"{game} transitions action")


@pytest.mark.parametrize("kind", ["sft", "sft_prompt_completion"])
@pytest.mark.parametrize("game", sorted(REGISTRIES))
def test_sft_messages(run_dir, game, kind):
    rows = list(export.rows(kind, run_dir, games=[game], valid_only=False))
    assert rows
    for r in rows:
        msgs = r["messages"] if kind == "sft" else r["prompt"] + r["completion"]
        _messages(msgs, f"{game} {kind} {r['episode_id']} step {r['step']}")


@pytest.mark.parametrize("game", sorted(REGISTRIES))
def test_preference_pairs(run_dir, game):
    # resource rounds carry each agent's reward; matrix and rulemaking rank by the game return
    score = "reward" if game == "resource" else "return"
    rows = list(export.preference_pairs(run_dir, games=[game], score=score, state="prompt"))
    assert rows, "no pairs: the check would be empty"
    for r in rows:
        _clean([r["chosen"][0]["content"], r["rejected"][0]["content"]], ANY_NAME, f"{game} preference answers")
        _messages(r["prompt"], f"{game} preference prompt")


def test_the_old_leak_is_gone_from_preferences(run_dir):
    """The reported case: in resource pairs the answers' thinking held the preset name."""
    rows = list(export.preference_pairs(run_dir, games=["resource"], state="prompt"))
    for r in rows:
        for side in ("chosen", "rejected"):
            obj = json.loads(r[side][0]["content"])
            assert obj["thinking"] and obj["thinking"].lower() not in NAMES


@pytest.mark.parametrize("game", sorted(REGISTRIES))
def test_minari_actions_and_prompts(run_dir, game, tmp_path):
    pytest.importorskip("minari", reason="the 'minari' extra is not installed")
    from negotiation_env.traces.minari_export import to_minari

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        made = to_minari(run_dir, root=tmp_path, prefix="leak", game=game, env=False)
    assert set(made) and all(ds.total_episodes for ds in made.values())
    for agent, ds in made.items():
        for ep in ds.iterate_episodes():
            _clean([str(a) for a in ep.actions], ANY_NAME, f"{game} minari {agent} actions")
            _clean([str(p) for p in ep.observations["prompt"]], RARE_NAME, f"{game} minari {agent} prompts")
            for key in ("system", "messages"):  # the seat's context: its answers are checked above
                _clean([str(p) for p in ep.observations[key]], RARE_NAME, f"{game} minari {agent} {key}")
