"""Token-exact rollouts: HFPolicy.from_model's token ids and log-probabilities, and
negotiation_env.online's episodes, samples and streams, on the tiny local model."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import negotiation_env  # noqa: E402
from negotiation_env.core.completion import Completion  # noqa: E402
from negotiation_env.online import (LEARNER, Episode, NotAppendOnly, Turn, rollouts, to_samples,  # noqa: E402
                                    to_stream)

#: each game's main condition (its defaults) with a scripted opponent for mixed seats
OPPONENTS = {"matrix": "scripted:tit_for_tat", "resource": "scripted:linear", "rulemaking": "scripted:conceder",
             "dond": "scripted:fair_split"}


@pytest.fixture(scope="module")
def model_and_tokenizer(tiny_model):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    return AutoModelForCausalLM.from_pretrained(tiny_model), AutoTokenizer.from_pretrained(tiny_model)


@pytest.fixture(scope="module")
def learner(model_and_tokenizer):
    from baselines.llm.hf import HFPolicy

    model, tok = model_and_tokenizer
    return HFPolicy.from_model(model, tok, temperature=0.9, max_new_tokens=12)


def _template_ids(tok, conversation, **kwargs) -> list[int]:
    ids = tok.apply_chat_template(list(conversation), tokenize=True, add_generation_prompt=True, **kwargs)
    return list(ids["input_ids"] if hasattr(ids, "keys") else ids)


def _text(tok, ids) -> str:
    return tok.decode(list(ids), skip_special_tokens=False, clean_up_tokenization_spaces=False)


def _recomputed_logprobs(model, prompt_ids, completion_ids, temperature) -> list[float]:
    ids = torch.tensor([prompt_ids + completion_ids])
    with torch.no_grad():
        logits = model(ids).logits[0, len(prompt_ids) - 1:-1].float() / temperature
    return torch.log_softmax(logits, -1).gather(1, torch.tensor(completion_ids)[:, None])[:, 0].tolist()


def _matrix_obs():
    env = negotiation_env.env(game="matrix")
    env.reset(seed=0)
    return env.last()[0]


# ----------------------------------------------------------------------------- from_model


@pytest.mark.parametrize("temperature", [0.0, 0.9])
def test_from_model_tokens_are_what_the_model_read_and_sampled(model_and_tokenizer, temperature):
    from baselines.llm.hf import HFPolicy

    model, tok = model_and_tokenizer
    tok.padding_side = "right"
    model.train()
    policy = HFPolicy.from_model(model, tok, temperature=temperature, max_new_tokens=10)
    obs = _matrix_obs()
    comps = policy.complete([obs, obs], seeds=[1, 2])
    assert model.training and tok.padding_side == "right"  # the caller's model and tokenizer keep their settings
    model.eval()
    for c in comps:
        assert c.prompt_ids == _template_ids(tok, obs["conversation"])
        assert len(c.logprobs) == len(c.completion_ids) > 0
        # with EOS sampled it is the last token; either way the rest decodes to the raw answer
        body = c.completion_ids[:-1] if c.finish_reason == "stop" else c.completion_ids
        assert tok.decode(body, skip_special_tokens=False) == c.raw
        expected = _recomputed_logprobs(model, c.prompt_ids, c.completion_ids, temperature or 1.0)
        assert max(abs(a - b) for a, b in zip(c.logprobs, expected)) < 1e-4
    if temperature == 0.0:  # greedy: each token is the argmax, and both rows agree
        assert comps[0].completion_ids == comps[1].completion_ids


def test_complete_generates_from_given_prompt_ids(model_and_tokenizer):
    from baselines.llm.hf import HFPolicy

    model, tok = model_and_tokenizer
    policy = HFPolicy.from_model(model, tok, temperature=0.0, max_new_tokens=6)
    obs = _matrix_obs()
    a = policy.complete([obs], seeds=[1])[0]
    assert policy.encode(policy.prompt_text(obs)) == a.prompt_ids and policy.decode(a.prompt_ids) == \
        policy.prompt_text(obs)
    b = policy.complete([obs, obs], seeds=[1, 1], prompt_ids=[a.prompt_ids, None])
    assert [c.prompt_ids for c in b] == [a.prompt_ids] * 2
    assert b[0].completion_ids == b[1].completion_ids == a.completion_ids  # greedy: the same answer
    # a longer prompt given as ids (left-padded next to a shorter one) is read as given
    longer = a.prompt_ids + a.completion_ids + policy.encode("\n<|user|>\nAgain.<|end|>\n<|assistant|>\n")
    c = policy.complete([obs, obs], seeds=[1, 1], prompt_ids=[longer, None])
    assert c[0].prompt_ids == longer and c[1].completion_ids == a.completion_ids
    assert c[0].completion_ids == policy.complete([obs], seeds=[1], prompt_ids=[longer])[0].completion_ids
    with pytest.raises(ValueError, match="1 prompt_ids for 2 observations"):
        policy.complete([obs, obs], prompt_ids=[None])
    from baselines.llm.api import APIPolicy

    with pytest.raises(ValueError, match="APIPolicy cannot generate from token ids"):  # refused before any call
        APIPolicy("m", "http://127.0.0.1:9/v1").complete([obs], prompt_ids=[a.prompt_ids])


def test_continue_prompt_appends_the_rest_of_the_rendering_or_refuses():
    from negotiation_env.online.tokens import continue_prompt

    def encode(text):  # one token per character
        return [ord(ch) for ch in text]

    def decode(ids):
        return "".join(map(chr, ids))

    prompt, completion = encode("<u>hi</u><a>"), encode(" yes</a>")
    ids = continue_prompt(prompt, completion, "<u>hi</u><a> yes</a><u>more</u><a>", encode, decode)
    assert ids == prompt + completion + encode("<u>more</u><a>") and decode(ids).endswith("more</u><a>")
    # the answer stored stripped (or a template dropping what the model read): no prefix, no ids
    assert continue_prompt(prompt, completion, "<u>hi</u><a>yes</a><u>more</u><a>", encode, decode) is None


def test_from_model_refuses_unknown_options_and_non_models(model_and_tokenizer):
    from baselines.llm.hf import HFPolicy

    model, tok = model_and_tokenizer
    with pytest.raises(ValueError, match="unknown option.*'device'"):
        HFPolicy.from_model(model, tok, device="cpu")
    with pytest.raises(ValueError, match="causal LM"):
        HFPolicy.from_model("path/to/model", tok)


def test_a_loaded_policy_records_no_tokens_unless_asked(greedy):
    assert greedy.complete([_matrix_obs()])[0].prompt_ids is None
    with pytest.raises(ValueError, match="carry no token ids"):
        rollouts(greedy, game="matrix", seeds=[0], seats=[LEARNER, "scripted:always_a"])


# ----------------------------------------------------------------------------- rollouts


@pytest.mark.parametrize("game", sorted(OPPONENTS))
def test_every_sample_is_the_rendering_of_the_context_the_seat_saw(learner, model_and_tokenizer, game):
    from baselines.llm.prompting import split_reasoning

    _model, tok = model_and_tokenizer
    n = len(negotiation_env.env(game=game).possible_agents)
    seats = [LEARNER] * n if n == 2 else [LEARNER, OPPONENTS[game]] + [LEARNER] * (n - 2)
    eps = rollouts(learner, game=game, seeds=[0, 1], seats=seats, batch_games=2, max_steps=14)
    assert len(eps) == 2 * seats.count(LEARNER)
    assert [(e.seed, e.seat) for e in eps] == [(s, a) for s in (0, 1) for a, x in
                                                zip(negotiation_env.env(game=game).possible_agents, seats)
                                                if x == LEARNER]
    turns = [t for e in eps for t in e.turns]
    assert turns
    # a game that sets the observation's reasoning flag has the template switch reasoning on or off
    env = negotiation_env.env(game=game)
    env.reset(seed=0)
    flag = env.last()[0].get("reasoning")
    kwargs = {} if flag is None else {"enable_thinking": bool(int(flag))}
    for t in turns:
        assert t.context[0]["role"] == "system"
        # what the model read is the rendering of the context, to the character
        assert _text(tok, t.prompt_ids) == tok.apply_chat_template(t.context, tokenize=False,
                                                                   add_generation_prompt=True, **kwargs)
        if t.prompt_built == "rendered":
            assert t.prompt_ids == _template_ids(tok, t.context, **kwargs)
        body = t.completion_ids[:-1] if t.completion_ids and t.completion_ids[-1] == tok.eos_token_id \
            else t.completion_ids
        # the env got the answer as sampled (the end token left out), reasoning and all
        assert _text(tok, body) == t.text
        assert split_reasoning(t.text)[0] == split_reasoning(tok.decode(body, skip_special_tokens=False))[0]
        assert len(t.logprobs) == len(t.completion_ids) and all(math.isfinite(x) and x <= 0 for x in t.logprobs)
    for e in eps:
        assert e.append_only == (not e.breaks)
        assert [s.prompt_ids for s in to_samples(e)] == [t.prompt_ids for t in e.turns]
    check_token_exact(tok, eps)


def check_token_exact(tok, episodes) -> int:
    """The invariants of token-built prompts on ``episodes``; returns how many later turns
    extend the previous one at the message level.

    Every later turn whose context is the previous context, the previous answer exactly
    as sent, then new messages, has its prompt built from tokens: it starts with the
    previous prompt and the sampled tokens (re-tokenising never breaks the stream). An
    episode is append-only exactly when no turn's context was rebuilt, and its stream
    carries the sampled tokens and log-probabilities at the model's mask positions."""
    extending = 0
    for e in episodes:
        assert e.turns[0].prompt_built == "rendered"
        for prev, t in zip(e.turns, e.turns[1:]):
            n = len(prev.context)
            grows = (len(t.context) > n + 1 and t.context[:n] == prev.context
                     and t.context[n] == {"role": "assistant", "content": prev.text})
            assert t.prompt_built == ("extended" if grows else "rendered"), (prev.text, t.context[n:n + 1])
            if grows:
                extending += 1
                assert t.prompt_ids[:len(prev.prompt_ids) + len(prev.completion_ids)] == \
                    prev.prompt_ids + prev.completion_ids
        assert e.append_only == all(t.prompt_built == "extended" for t in e.turns[1:])
        if e.append_only:
            s = to_stream(e)
            assert s.prompt_ids + s.completion_ids == e.turns[-1].prompt_ids + e.turns[-1].completion_ids
            at = 0
            for k, t in enumerate(e.turns):
                start = len(t.prompt_ids) - len(s.prompt_ids)
                assert not any(s.env_mask[at:start])  # the env's tokens between two answers
                assert s.completion_ids[start:start + len(t.completion_ids)] == t.completion_ids
                assert s.logprobs[start:start + len(t.completion_ids)] == t.logprobs
                assert all(s.env_mask[start:start + len(t.completion_ids)])
                at = start + len(t.completion_ids)
            assert at == len(s.completion_ids)
    return extending


#: main conditions besides each game's defaults (covered above): no talk in the matrix
#: game; a shifting partner in the resource game, whose reset agent's context starts afresh
#: every round (short rounds: the tiny model's answers are refused, and forfeit at once)
@pytest.mark.parametrize("game,config", [
    ("matrix", {"treatment": "none"}),
    ("resource", {"partner": "shifting", "num_rounds": 2, "cheap_talk_turns": 1, "max_retries": 0})])
def test_token_exact_under_the_main_conditions(learner, model_and_tokenizer, game, config):
    _model, tok = model_and_tokenizer
    eps = rollouts(learner, game=game, config=config, seeds=[0], seats=[LEARNER, LEARNER], max_steps=40)
    for t in (t for e in eps for t in e.turns):
        assert _text(tok, t.prompt_ids) == tok.apply_chat_template(t.context, tokenize=False,
                                                                   add_generation_prompt=True)
    assert check_token_exact(tok, eps) > 0
    if game == "resource":  # the shifting agent's context is reset every round: rebuilt, not append-only
        reset = next(e for e in eps if e.seat == "agent_b")
        assert any(t.prompt_built == "rendered" for t in reset.turns[1:]) and not reset.append_only


def test_a_frozen_model_plays_a_fixed_seat(learner, greedy):
    eps = rollouts(learner, game="matrix", seeds=[0, 1], seats=[greedy, LEARNER], max_steps=8)
    assert [(e.seat, e.seed) for e in eps] == [("agent_1", 0), ("agent_1", 1)]
    assert all(e.turns for e in eps)


def test_rollouts_are_deterministic_and_repeats_share_the_initial_state(learner):
    kw = dict(game="matrix", seeds=[3, 4], seats=[LEARNER, "scripted:tit_for_tat"], repeats=2)
    a = rollouts(learner, batch_games=4, **kw)
    b = rollouts(learner, batch_games=1, **kw)
    assert [(e.seed, e.repeat) for e in a] == [(3, 0), (3, 1), (4, 0), (4, 1)]
    assert [[t.completion_ids for t in e.turns] for e in a] == [[t.completion_ids for t in e.turns] for e in b]
    assert a[0].turns[0].prompt_ids == a[1].turns[0].prompt_ids  # one seed: one initial state
    assert a[0].turns[0].completion_ids != a[1].turns[0].completion_ids  # its repeats: their own samples


class _Canned:
    """A learner answering every decision as ``always_a`` does, with its text's canonical
    tokens: the env stores such answers as sent, so the contexts grow append-only."""

    def __init__(self, tok):
        from baselines.scripted.matrix import make

        self.tok, self.script = tok, make("always_a", output="text")

    def complete(self, observations, seeds=None):
        out = []
        for k, o in enumerate(observations):
            text = self.script.act(o)
            ids = self.tok.encode(text, add_special_tokens=False) + [self.tok.eos_token_id]
            out.append(Completion(text=text, prompt_ids=_template_ids(self.tok, o["conversation"]),
                                  completion_ids=ids, logprobs=[-0.5 - k] * len(ids)))
        return out


def test_an_append_only_episode_is_one_stream_masked_on_the_model_tokens(model_and_tokenizer):
    _model, tok = model_and_tokenizer
    eps = rollouts(_Canned(tok), game="matrix", seeds=[0, 1], seats=[LEARNER, "scripted:tit_for_tat"])
    for e in eps:
        assert e.append_only and len(e.turns) > 2
        # always_a against tit-for-tat: mutual A every round, 3 points a round (10 rounds)
        assert e.game_return == 30.0 and all(t.valid for t in e.turns)
        s = to_stream(e)
        last = e.turns[-1]
        assert s.prompt_ids == e.turns[0].prompt_ids
        assert s.prompt_ids + s.completion_ids == last.prompt_ids + last.completion_ids
        assert len(s.env_mask) == len(s.logprobs) == len(s.completion_ids)
        model_tokens = [x for x, m in zip(s.completion_ids, s.env_mask) if m]
        assert model_tokens == [x for t in e.turns for x in t.completion_ids]
        assert sum(s.env_mask) == sum(len(t.completion_ids) for t in e.turns)
        assert [x for x, m in zip(s.logprobs, s.env_mask) if m] == [x for t in e.turns for x in t.logprobs]
        assert all(x == 0.0 for x, m in zip(s.logprobs, s.env_mask) if not m)
        # each turn's tokens sit where its prompt ends in the stream
        for t in e.turns:
            at = len(t.prompt_ids) - len(s.prompt_ids)
            assert s.completion_ids[at:at + len(t.completion_ids)] == t.completion_ids
            assert all(s.env_mask[at:at + len(t.completion_ids)])
            assert at == 0 or s.env_mask[at - 1] == 0


def test_rebuilt_contexts_are_not_append_only_and_refuse_a_stream(learner):
    # every rulemaking decision's conversation is built afresh (its retries extend it: none here)
    eps = rollouts(learner, game="rulemaking", config={"max_retries": 0}, seeds=[0], seats=[LEARNER] * 5,
                   max_steps=12)
    e = next(e for e in eps if any(t.prompt_built == "rendered" for t in e.turns[1:]))
    assert not e.append_only
    with pytest.raises(NotAppendOnly, match="not append-only.*to_samples"):
        to_stream(e)
    assert len(to_samples(e)) == len(e.turns)


def test_append_only_compares_tokens():
    def turn(p, c):
        return Turn(prompt_ids=p, completion_ids=c, logprobs=[0.0] * len(c), text="", valid=True, events=[])

    ok = Episode("matrix", {}, "agent_0", 0, 0, [turn([1, 2], [3]), turn([1, 2, 3, 9], [4]), turn([1, 2, 3, 9, 4], [5])], 0)
    assert ok.append_only and ok.breaks == []
    bad = Episode("matrix", {}, "agent_0", 0, 0, [turn([1, 2], [3]), turn([1, 2, 7, 9], [4]), turn([1, 2], [5])], 0)
    assert not bad.append_only and bad.breaks == [1, 2]
    assert to_stream(ok).env_mask == [1, 0, 1, 1]
    with pytest.raises(ValueError, match="no turns"):
        to_stream(Episode("matrix", {}, "agent_0", 0, 0, [], 0))


def test_bad_arguments_are_refused(learner):
    with pytest.raises(ValueError, match="no seat plays the learner"):
        rollouts(learner, game="matrix", seeds=[0], seats=["scripted:always_a", "scripted:always_b"])
    with pytest.raises(ValueError, match="has 2 seats"):
        rollouts(learner, game="matrix", seeds=[0], seats=[LEARNER])
    with pytest.raises(ValueError, match="repeats must be an integer"):
        rollouts(learner, game="matrix", seeds=[0], seats=[LEARNER, LEARNER], repeats=0)
    with pytest.raises(ValueError, match="seat 1"):
        rollouts(learner, game="matrix", seeds=[0], seats=[LEARNER, 42])


def test_the_docs_example_runs(tiny_model, capsys):
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "online.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    exec(compile(code.replace("max_new_tokens=64", "max_new_tokens=8").replace("seeds=[0, 1, 2], repeats=4",
                                                                              "seeds=[0], repeats=2"),
                 "docs/online.md", "exec"), {"path": tiny_model})
    out = capsys.readouterr().out
    assert out.count("return ") == 2 and "append-only" in out
