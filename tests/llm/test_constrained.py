"""Constrained decoding on the tiny random model (HFPolicy ``constrained``): an
untrained model completes whole games of every game with no refused answer, batched
and sampled answers keep their per-row seeds, and the usage records the constraint."""

from __future__ import annotations

import re

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("llguidance")

import negotiation_env  # noqa: E402
from baselines.llm.hf import HFPolicy  # noqa: E402
from negotiation_env.core.answer_format import answer_format  # noqa: E402
from negotiation_env.traces import record  # noqa: E402

GAMES = {
    "resource_plain": ("resource", {"num_rounds": 2, "cheap_talk_turns": 1, "thinking": False, "max_retries": 1}),
    "resource_json": ("resource", {"num_rounds": 1, "cheap_talk_turns": 1, "thinking": True, "max_retries": 1}),
    "matrix": ("matrix", {"num_rounds": 2, "max_retries": 1}),
    "rulemaking": ("rulemaking", {"max_turns": 5, "max_retries": 1, "condition": "ledger"}),
    "dond": ("dond", {"max_turns": 4, "max_retries": 1}),
}


@pytest.fixture(scope="module")
def constrained(tiny_model):
    return HFPolicy(tiny_model, temperature=0.0, max_new_tokens=160, device="cpu", constrained=True)


def _play(game, config, policy, seed=0):
    env = record(negotiation_env.env(game=game, **config), policies=None, keep=True)
    env.set_policies({a: policy for a in env.possible_agents})
    policy.reset(seed=seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else policy.act(obs))
    return env.last_trace


@pytest.mark.parametrize("name", list(GAMES))
def test_untrained_model_completes_every_game_with_no_refused_answer(constrained, name):
    game, config = GAMES[name]
    trace = _play(game, config, constrained)
    assert trace.status == "complete"
    steps = trace.steps
    assert steps and all(s.valid for s in steps), [(s.phase, s.action) for s in steps if not s.valid][:3]
    # every answer was decoded under its game's description, and matches it whole
    formats = {s.tokens["constrained"]["format"] for s in steps}
    assert all(s.tokens["constrained"]["complete"] and s.tokens["constrained"]["via"] == "llguidance" for s in steps)
    assert all(f.startswith(game) for f in formats)
    # and the same model unconstrained is refused (the constraint is what made the difference)
    if name == "resource_plain":
        assert any(f.endswith(".strict") for f in formats)


def test_unconstrained_tiny_model_is_refused(greedy):
    game, config = GAMES["resource_json"]
    trace = _play(game, config, greedy)
    assert any(not s.valid for s in trace.steps)
    assert all("constrained" not in (s.tokens or {}) for s in trace.steps)


def _obs(game, config, steps=0):
    env = negotiation_env.env(game=game, **config)
    env.reset(seed=1)
    for _ in range(steps):
        env.step("x")
    return env.observe(env.agent_selection)


def test_batched_sampled_constrained_answers_depend_only_on_their_own_seed(tiny_model):
    pol = HFPolicy(tiny_model, temperature=1.0, top_p=0.95, max_new_tokens=96, device="cpu", constrained=True,
                   seed=3)
    obs = [_obs("resource", GAMES["resource_plain"][1]), _obs("matrix", GAMES["matrix"][1], 1),
           _obs("resource", GAMES["resource_json"][1]), _obs("rulemaking", GAMES["rulemaking"][1])]
    seeds = [11, 22, 33, 44]
    batch = pol.act_batch(obs, seeds=seeds)
    alone = [pol.act_batch([o], seeds=[s])[0] for o, s in zip(obs, seeds)]
    assert batch == alone
    assert pol.act_batch(obs, seeds=[12, 23, 34, 45]) != batch
    for o, text, u in zip(obs, batch, [c.trace_usage() for c in pol.complete(obs, seeds=seeds)]):
        fmt = answer_format(o).best()
        assert u["constrained"]["format"] == fmt.name
        if fmt.regex is not None:  # the whole answer matches the game's regex (text cap applied)
            capped = answer_format(o, text_chars=96 // 2).best()
            assert re.fullmatch(capped.regex, text), (fmt.name, text)


def test_option_checks_and_free_rows(tiny_model):
    with pytest.raises(ValueError, match="constrained"):
        HFPolicy(tiny_model, device="cpu", constrained="always")
    with pytest.raises(ValueError, match="constrained_text_chars"):
        HFPolicy(tiny_model, device="cpu", constrained=True, constrained_text_chars=0)
    pol = HFPolicy(tiny_model, temperature=0.0, max_new_tokens=8, device="cpu", constrained="schema")
    assert pol.settings()["constrained"] == "schema"
    # a bare prompt has no answer format: answered freely, next to a constrained row
    env = negotiation_env.env(game="matrix", **GAMES["matrix"][1])
    env.reset(seed=1)
    while '"action"' not in env.observe(env.agent_selection)["answer_format"]:
        env.step("A sentence.")
    out = pol.complete(["Say hi.", env.observe(env.agent_selection)])
    assert out[0].constrained is None and out[1].constrained["format"] == "matrix.action"
    assert out[1].text in ("A", "B")
