"""The transformers back end on a tiny random model saved to disk and loaded through the
real path: generation, batching, seeds, reasoning, usage, errors, complete games."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import negotiation_env  # noqa: E402
from baselines.llm.hf import HFPolicy  # noqa: E402
from negotiation_env.traces import record  # noqa: E402

OBS = [
    {"prompt": "ACTION PHASE: Choose an action (A or B).", "conversation": (
        {"role": "system", "content": "You are Agent 1 in a repeated game."},
        {"role": "user", "content": "ACTION PHASE: Choose an action (A or B)."})},
    {"prompt": "Propose a split.", "conversation": (
        {"role": "user", "content": "Round 1. Propose a split of the resources."},)},
    "The interaction begins. Send a single message to your counterpart.",
    {"prompt": "Say something", "conversation": (
        {"role": "system", "content": "Short."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello"},
        {"role": "user", "content": "Your move: the bargaining goes on, with many words in between to pad it."})},
]


def resource_obs():
    env = negotiation_env.env(game="resource", num_rounds=1, cheap_talk_turns=1, max_retries=1)
    env.reset(seed=0)
    return env.observe(env.agent_selection)


def test_greedy_batch_equals_one_by_one(greedy):
    obs = OBS + [resource_obs()]
    alone = [greedy.complete([o])[0] for o in obs]
    together = greedy.complete(obs)
    assert [c.raw for c in together] == [c.raw for c in alone]
    assert [c.usage for c in together] == [c.usage for c in alone]
    # the prompts differ in length, so the batch really was left-padded
    lens = [c.usage.prompt_tokens for c in alone]
    assert len(set(lens)) == len(lens)
    # and the answers are not all the same string (the model reads its prompt)
    assert len({c.raw for c in alone}) > 1


def test_usage_counts_prompt_and_generated_tokens(greedy):
    c = greedy.complete([OBS[0]])[0]
    prompt = greedy.render(list(OBS[0]["conversation"]))
    assert c.usage.prompt_tokens == len(greedy.tokenizer(prompt, add_special_tokens=False)["input_ids"])
    assert 1 <= c.usage.completion_tokens <= greedy.max_new_tokens
    u = greedy.last_usage
    assert u["total_tokens"] == u["prompt_tokens"] + u["completion_tokens"]
    if c.finish_reason == "length":
        assert u["faults"][0]["kind"] == "length" and c.usage.completion_tokens == greedy.max_new_tokens


def test_sampling_is_reproducible_per_item_and_independent_of_the_batch(tiny_model):
    pol = HFPolicy(tiny_model, temperature=1.0, top_p=0.9, max_new_tokens=10, seed=7, device="cpu")
    first = pol.act_batch(OBS)
    pol.reset(seed=7)
    again = pol.act_batch(OBS)
    assert first == again
    pol.reset(seed=8)
    assert pol.act_batch(OBS) != first
    # an item's answer depends on its own seed only: alone, with the same seed, it is the same
    pol.reset(seed=7)
    seeds = [101, 202, 303, 404]
    batch = pol.act_batch(OBS, seeds=seeds)
    alone = [pol.act_batch([o], seeds=[s])[0] for o, s in zip(OBS, seeds)]
    assert batch == alone


def test_reasoning_switch_reaches_the_chat_template(tiny_model):
    pol = HFPolicy(tiny_model, temperature=0.0, max_new_tokens=4, device="cpu")
    conv = [{"role": "user", "content": "hi"}]
    assert pol.render(conv, False).endswith("<think>\n\n</think>\n\n")
    assert not pol.render(conv, True).endswith("</think>\n\n")
    seen = []
    real = pol.render
    pol.render = lambda c, t=None: seen.append(t) or real(c, t)
    pol.act({"conversation": conv, "reasoning": 1})        # rulemaking, condition native
    pol.act({"conversation": conv, "reasoning": 0})        # rulemaking, other conditions
    pol.act({"conversation": conv})                        # games without the flag
    assert seen == [True, False, None]
    off = HFPolicy(tiny_model, temperature=0.0, max_new_tokens=4, device="cpu", reasoning="off")
    seen.clear()
    off.render = lambda c, t=None: seen.append(t) or real(c, t)
    off.act({"conversation": conv, "reasoning": 1})
    assert seen == [False]


def test_think_spans_are_split_from_the_answer_and_counted(greedy, monkeypatch):
    tok = greedy.tokenizer
    answer = tok.encode("<think>I should pick A</think>A", add_special_tokens=False) + [tok.eos_token_id]

    def fake_generate(input_ids, attention_mask, **kw):
        n = input_ids.shape[0]
        return torch.cat([input_ids, torch.tensor([answer] * n)], dim=1)

    monkeypatch.setattr(greedy.model, "generate", fake_generate)
    c = greedy.complete([OBS[0]])[0]
    assert c.text == "A" and c.reasoning == "I should pick A" and c.finish_reason == "stop"
    close = tok.encode("</think>", add_special_tokens=False)[0]
    assert c.usage.completion_tokens == len(answer)
    assert c.usage.reasoning_tokens == answer.index(close) + 1
    assert greedy.last_reasoning == "I should pick A" and c.faults == []


@pytest.mark.parametrize("raw, answer", [
    ("my plan: B</think>A", "A"),                            # the template opened the span
    ("<think><think>plan</think>pick B</think>A", "A"),      # nested: all of it is reasoning
    ("A<think>pick B", "A"),                                 # cut off while thinking
    ("<think>x</think>pick B</think>A", "A"),                # an orphan after a span
])
def test_every_reasoning_shape_is_split_from_the_answer(greedy, monkeypatch, raw, answer):
    tok = greedy.tokenizer
    ids = tok.encode(raw, add_special_tokens=False) + [tok.eos_token_id]
    monkeypatch.setattr(greedy.model, "generate",
                        lambda input_ids, attention_mask, **kw: torch.cat(
                            [input_ids, torch.tensor([ids] * input_ids.shape[0])], dim=1))
    c = greedy.complete([OBS[0]])[0]
    assert c.text == answer and "B" in c.reasoning and "B" not in c.text


def test_bad_settings_name_the_field(tiny_model):
    for kw, field in [({"temperature": -1}, "temperature"), ({"top_p": 0}, "top_p"),
                      ({"max_new_tokens": 0}, "max_new_tokens"), ({"dtype": "int8"}, "dtype"),
                      ({"device": "tpu"}, "device"), ({"reasoning": "maybe"}, "reasoning"),
                      ({"seed": "x"}, "seed"), ({"max_batch_size": 0}, "max_batch_size")]:
        with pytest.raises(ValueError, match=field):
            HFPolicy(tiny_model, **kw)


def test_settings_and_repr_describe_the_policy(greedy, tiny_model):
    s = greedy.settings()
    assert s["model"] == tiny_model and s["temperature"] == 0.0 and s["dtype"] == "float32" and s["device"] == "cpu"
    assert "HFPolicy(" in repr(greedy)


def test_prompt_longer_than_the_model_fails_cleanly(tiny_model):
    pol = HFPolicy(tiny_model, temperature=0.0, max_new_tokens=4, device="cpu")
    pol.model.config.max_position_embeddings = 64
    c = pol.complete([OBS[0], {"prompt": "word " * 200}])
    assert not c[0].failed
    assert c[1].failed and c[1].text == "" and c[1].faults[0]["kind"] == "prompt_too_long"


@pytest.mark.parametrize("game,config", [
    ("resource", {"num_rounds": 1, "cheap_talk_turns": 1, "max_retries": 1}),
    ("rulemaking", {"max_turns": 5, "condition": "native"}),
])
def test_a_complete_game_with_gibberish_goes_through_retries_and_fallbacks(greedy, game, config):
    env = record(negotiation_env.env(game=game, **config), policies=None, keep=True)
    agents = list(env.possible_agents)
    env.set_policies({a: greedy for a in agents})
    greedy.reset(seed=0)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else greedy.act(obs))
    t = env.last_trace
    assert t.status == "complete"
    assert any(not s.valid for s in t.steps)  # gibberish is refused ...
    events = [e["type"] for s in t.steps for e in s.events]
    assert any(e.endswith(("_forfeited", "_fallback", "_auto_filled")) for e in events)  # ... and fallen back on
    for s in t.steps:
        assert s.tokens["prompt_tokens"] > 0 and s.tokens["completion_tokens"] >= 1
        # the policy's own max_new_tokens wins over the rulemaking observation's budget
        assert (s.tokens["max_tokens"], s.tokens["budget_from"]) == (greedy.max_new_tokens, "policy")


def test_missing_extra_names_the_install_command(monkeypatch):
    import importlib
    import sys

    from negotiation_env.runner.config import PolicyEntry
    from negotiation_env.runner.policies import PolicyUnavailable, resolve_factory

    monkeypatch.delitem(sys.modules, "baselines.llm.hf", raising=False)
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(ImportError, match=r"pip install 'negotiation_env\[llm\]'"):
        importlib.import_module("baselines.llm.hf")
    with pytest.raises(PolicyUnavailable, match=r"pip install 'negotiation_env\[llm\]'"):
        resolve_factory(PolicyEntry(spec="hf:/nowhere"), "resource")


def test_action_probs_at_a_temperature_are_softmax_of_logits_over_t(tiny_model):
    """At temperature T the renormalised P(A) is softmax(logits / T) over A and B, with the
    logits computed here independently (chat template, tokenizer, one forward pass of the
    model); None is T = 1 and "policy" the policy's own sampling temperature."""
    pol = HFPolicy(tiny_model, temperature=0.35, max_new_tokens=4, device="cpu")
    obs = [OBS[0], OBS[3]]
    a, b = (pol.tokenizer.encode(c, add_special_tokens=False)[0] for c in "AB")
    for o in obs:
        text = pol.tokenizer.apply_chat_template(list(o["conversation"]), tokenize=False, add_generation_prompt=True)
        ids = pol.tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            logits = pol.model(input_ids=ids).logits[0, -1].double()
        seen = set()
        for arg, t in ((None, 1.0), ("policy", 0.35), (2.5, 2.5)):
            full = torch.softmax(logits / t, dim=-1)
            got = pol.action_probs(o, temperature=arg)
            assert got.p == pytest.approx(float(full[a] / (full[a] + full[b])), rel=1e-5, abs=1e-9)
            assert got.logprobs["A"] == pytest.approx(float(torch.log(full[a])), abs=1e-4)
            assert got.margin == pytest.approx(float(logits[a] - logits[b]) / t, rel=1e-4, abs=1e-5)
            seen.add(round(got.p, 6))
        assert len(seen) == 3  # the temperature changes the policy
    batch = pol.action_probs_batch(obs, temperature="policy")
    # (batched rows are padded: float32 sums differ by ~1e-11, the scale of abs)
    assert [p.p for p in batch] == pytest.approx([pol.action_probs(o, temperature="policy").p for o in obs], rel=1e-5,
                                                 abs=1e-9)
    greedy = HFPolicy(tiny_model, temperature=0.0, max_new_tokens=4, device="cpu")
    with pytest.raises(ValueError, match="temperature='policy' needs a sampling policy"):
        greedy.action_probs(obs[0], temperature="policy")
    for bad in (0, -1.0, "hot"):
        with pytest.raises(ValueError, match="'temperature'"):
            pol.action_probs(obs[0], temperature=bad)


# --------------------------------------------------------------------------- output budget


def test_the_observations_budget_caps_generation_unless_the_policy_sets_one(tiny_model, monkeypatch):
    pol = HFPolicy(tiny_model, temperature=0.0, device="cpu")  # no max_new_tokens: the observation's
    calls = []
    generate = pol.model.generate

    def spy(*args, **kw):
        calls.append((kw["input_ids"].shape[0], kw["generation_config"].max_new_tokens))
        return generate(*args, **kw)

    monkeypatch.setattr(pol.model, "generate", spy)
    small, large = {**OBS[0], "max_tokens": 3}, {**OBS[1], "max_tokens": 5}
    out = pol.complete([small, large, small])
    assert sorted(calls) == [(1, 5), (2, 3)]  # one generate call per budget
    assert [c.max_tokens for c in out] == [3, 5, 3] and {c.budget_from for c in out} == {"observation"}
    assert all(1 <= c.usage.completion_tokens <= c.max_tokens for c in out)
    assert [u["max_tokens"] for u in pol.last_batch_usage] == [3, 5, 3]
    assert pol.last_usage["budget_from"] == "observation"
    # the batch gives each item what it gets alone
    assert [c.raw for c in out] == [pol.complete([o])[0].raw for o in (small, large, small)]
    # a budget set on the policy wins over the observation's
    calls.clear()
    pol.max_new_tokens = 4
    c = pol.complete([small])[0]
    assert calls == [(1, 4)] and (c.max_tokens, c.budget_from) == (4, "policy")
    assert pol.last_usage["max_tokens"] == 4 and pol.last_usage["budget_from"] == "policy"
    # neither: the back end's default
    pol.max_new_tokens = None
    assert pol.output_budget(OBS[0]) == (512, "default")
    with pytest.raises(ValueError, match="max_tokens"):
        pol.output_budget({**OBS[0], "max_tokens": 0})


def test_a_rulemaking_game_is_played_at_its_conditions_budget(tiny_model):
    # the game's per-condition budget reaches generate through the observation and the trace
    pol = HFPolicy(tiny_model, temperature=0.0, device="cpu")
    plain = negotiation_env.env(game="rulemaking", condition="none")
    plain.reset(seed=0)
    assert pol.output_budget(plain.observe("authority")) == (384, "observation")  # Table 1's None
    env = negotiation_env.env(game="rulemaking", max_turns=3, condition="ledger", output_budgets={"ledger": 6})
    env = record(env, policies=None, keep=True)
    env.set_policies({a: pol for a in env.possible_agents})
    pol.reset(seed=0)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else pol.act(obs))
    steps = env.last_trace.steps
    assert steps and all((s.tokens["max_tokens"], s.tokens["budget_from"]) == (6, "observation") for s in steps)
    assert all(s.tokens["completion_tokens"] <= 6 for s in steps)
