"""``record_tokens``: the API client asks a server for token ids and sampled
log-probabilities and records exactly what comes back, leaving None what does not."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("openai")

from baselines.llm.api import APIPolicy  # noqa: E402
from negotiation_env.api.client import TOKEN_ID_FIELDS, APIClient, tokens_of  # noqa: E402
from negotiation_env.online import LEARNER, rollouts, to_samples  # noqa: E402
from tests.fakeserver import token_answer  # noqa: E402

PROMPT = [151644, 8948, 198, 2610, 525]
IDS = [32, 13, 151645]
LOGPROBS = [-0.25, -1.5, -0.0078125]
MESSAGES = [{"role": "system", "content": "sys"}, {"role": "user", "content": "go"}]


def client(server, **kw):
    return APIClient("m", server.url, api_key="k", max_retries=1, backoff=0.0, **kw)


def answer(server, shape, **kw):
    server.default = "raw"
    server.raw_body = token_answer("A.", IDS, LOGPROBS, PROMPT, shape=shape)
    c = client(server, **kw)
    try:
        comp, _ = c.complete(MESSAGES, seed=3)
    finally:
        c.close()
    assert not comp.failed and comp.text == "A.", comp.faults
    return comp


@pytest.mark.parametrize("shape,prompt,ids", [
    ("vllm", PROMPT, IDS),          # return_token_ids: both id lists
    ("sglang", PROMPT, IDS),        # both on the choice
    ("vllm_old", None, IDS),        # only the token_id:N spelling of the answer's tokens
])
def test_what_the_server_returns_is_recorded(server, shape, prompt, ids):
    comp = answer(server, shape, record_tokens=True)
    assert (comp.prompt_ids, comp.completion_ids, comp.logprobs) == (prompt, ids, LOGPROBS)
    assert comp.faults == []
    req = server.requests[-1]
    assert req["logprobs"] is True and "top_logprobs" not in req
    assert all(req[f] is True for f in TOKEN_ID_FIELDS)


def test_a_server_without_token_ids_leaves_them_none(server):
    """Log-probabilities whose tokens are text: no ids are guessed from them."""
    comp = answer(server, "openai", record_tokens=True)
    assert comp.prompt_ids is None and comp.completion_ids is None and comp.logprobs == LOGPROBS


def test_a_server_that_returns_nothing_leaves_every_field_none(server):
    server.reply = lambda req: "A."
    c = client(server, record_tokens=True)
    try:
        comp, _ = c.complete(MESSAGES)
    finally:
        c.close()
    assert not comp.failed and comp.faults == []
    assert (comp.prompt_ids, comp.completion_ids, comp.logprobs) == (None, None, None)


def test_off_nothing_is_asked_or_recorded(server):
    comp = answer(server, "vllm")
    assert (comp.prompt_ids, comp.completion_ids, comp.logprobs) == (None, None, None)
    req = server.requests[-1]
    assert not {"logprobs", "top_logprobs", *TOKEN_ID_FIELDS} & set(req)


def test_a_server_refusing_the_id_fields_is_asked_without_them(server):
    """OpenAI's own API refuses fields it does not know: the client drops the two id
    fields (a recorded fault), keeps asking for log-probabilities, and does not send the
    fields again."""
    server.reject = lambda req: ((400, "Unrecognized request argument supplied: return_token_ids")
                                 if "return_token_ids" in req else None)
    server.default = "raw"
    server.raw_body = token_answer("A.", IDS, LOGPROBS, PROMPT, shape="openai")
    c = client(server, record_tokens=True)
    try:
        first, _ = c.complete(MESSAGES)
        second, _ = c.complete(MESSAGES)
    finally:
        c.close()
    assert [f["kind"] for f in first.faults] == ["http_error"]
    assert first.faults[0]["adapted"] == "return_token_ids and return_tokens_as_token_ids dropped"
    assert second.faults == []
    for comp in (first, second):
        assert not comp.failed and comp.logprobs == LOGPROBS and comp.completion_ids is None
    assert [sorted(set(TOKEN_ID_FIELDS) & set(r)) for r in server.requests] == [sorted(TOKEN_ID_FIELDS), [], []]
    assert all(r["logprobs"] is True for r in server.requests)


@pytest.mark.parametrize("change,problem", [
    (lambda d: d["choices"][0].update(token_ids=["32", 13, 151645]), "token_ids must be a list of token ids"),
    (lambda d: d["choices"][0].update(token_ids=[32, True, 1]), "token_ids must be a list of token ids"),
    (lambda d: d.update(prompt_token_ids=[-1]), "prompt_token_ids must be a list of token ids"),
    (lambda d: d["choices"][0]["logprobs"]["content"][1].update(logprob="x"), "must be finite numbers"),
    (lambda d: d["choices"][0]["logprobs"]["content"].pop(), "2 log-probabilities for 3 completion token ids"),
    (lambda d: d["choices"][0].update(logprobs=[1, 2]), "logprobs must be an object"),
])
def test_malformed_token_fields_are_left_none_and_named(server, change, problem):
    """A token field of the wrong shape is not recorded (the answer text still is): the
    completion says why in a ``tokens`` fault."""
    make = token_answer("A.", IDS, LOGPROBS, PROMPT, shape="vllm")

    def body(request):
        doc = json.loads(make(request))
        change(doc)
        return json.dumps(doc).encode()

    server.default = "raw"
    server.raw_body = body
    c = client(server, record_tokens=True)
    try:
        comp, _ = c.complete(MESSAGES)
    finally:
        c.close()
    assert not comp.failed and comp.text == "A."
    assert [f["kind"] for f in comp.faults] == ["tokens"]
    assert problem in comp.faults[0]["message"]
    fields = {"prompt_ids": comp.prompt_ids, "completion_ids": comp.completion_ids, "logprobs": comp.logprobs}
    assert None in fields.values()
    assert {k: v for k, v in fields.items() if v is not None} == {
        k: v for k, v in {"prompt_ids": PROMPT, "completion_ids": IDS, "logprobs": LOGPROBS}.items()
        if fields[k] is not None}


def test_tokens_of_reads_the_shapes_without_a_server():
    choice = {"message": {"content": "x"}, "logprobs": {"content": [{"token": "token_id:7", "logprob": -1}]}}
    assert tokens_of({}, choice) == (None, [7], [-1.0], [])
    choice["logprobs"]["content"].append({"token": "tok", "logprob": -2})  # one not spelled: no ids at all
    assert tokens_of({}, choice) == (None, None, [-1.0, -2.0], [])
    choice["logprobs"]["content"][1]["token"] = "token_id:7\n"
    assert tokens_of({}, choice)[1] is None
    assert tokens_of({}, {"message": {}, "logprobs": None}) == (None, None, None, [])


def test_option_checked_and_in_settings(server):
    with pytest.raises(ValueError, match="record_tokens"):
        APIClient("m", server.url, api_key="k", record_tokens="yes")
    c = client(server, record_tokens=True)
    try:
        assert c.settings()["record_tokens"] is True
    finally:
        c.close()
    assert "record_tokens" in APIPolicy.option_names()


def test_action_probs_send_no_token_fields(server, monkeypatch):
    """A log-probability probe of the first token asks for top candidates whose token
    text it reads: the id spelling would hide it, so the id fields are not sent."""
    monkeypatch.setenv("TOKENS_TEST_KEY", "k")
    server.reply = lambda req: {"content": "A", "logprobs": [("A", -0.1), ("B", -2.4)]}
    pol = APIPolicy("m", server.url, api_key_env="TOKENS_TEST_KEY", max_retries=0, record_tokens=True)
    try:
        probs = pol.action_probs({"prompt": "go", "conversation": MESSAGES})
    finally:
        pol.client.close()
    assert probs.p == pytest.approx(1 / (1 + math.exp(-2.3)))
    assert not set(TOKEN_ID_FIELDS) & set(server.requests[-1])


def test_an_api_learner_plays_rollouts_with_the_servers_tokens(server, monkeypatch):
    """An ``openai:`` model recording tokens can be the learner of :func:`rollouts`: each
    turn holds the ids and log-probabilities the server returned."""
    monkeypatch.setenv("TOKENS_TEST_KEY", "k")
    server.default = "raw"
    server.raw_body = token_answer("A", IDS, LOGPROBS, PROMPT, shape="vllm")
    learner = APIPolicy("m", server.url, api_key_env="TOKENS_TEST_KEY", max_retries=0, record_tokens=True)
    try:
        eps = rollouts(learner, game="matrix", seeds=[0], seats=[LEARNER, "scripted:tit_for_tat"], max_steps=6)
    finally:
        learner.client.close()
    (ep,) = eps
    samples = to_samples(ep)
    assert samples and all((s.prompt_ids, s.completion_ids, s.logprobs) == (PROMPT, IDS, LOGPROBS) for s in samples)
    assert len(server.requests) == len(samples)
