"""The API client posts the request the ``openai`` client would post (same bytes, same
URL, same headers that a server reads), without going through ``openai``'s request
path; and it stays correct when many threads share one client."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

openai = pytest.importorskip("openai")

from negotiation_env.api.client import (  # noqa: E402
    BODY_FIELDS, TOKEN_ID_FIELDS, APIClient, chat_completions_url, encode_body)
from negotiation_env.api.transport import httpx, make_http_client  # noqa: E402

KEY = "sk-body-test-0123456789"
ANSWER = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"},
                                  "finish_reason": "stop"}],
                     "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}).encode()


class CaptureServer:
    """Records every request's path, headers (lower-case names) and raw body bytes on
    127.0.0.1 and answers each with :data:`ANSWER`."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, str], bytes]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                server.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}, raw))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(ANSWER)))
                self.end_headers()
                self.wfile.write(ANSWER)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture()
def capture():
    s = CaptureServer()
    yield s
    s.close()


CONVERSATION = [{"role": "system", "content": "You negotiate. Answer in JSON."},
                {"role": "user", "content": "Offer: 3 hats — for you, é, 漢字, \U0001f600 and \"quotes\"\n\\n"},
                {"role": "assistant", "content": "{\"offer\": [1, 2]}"},
                {"role": "user", "content": "Round 2 of 5."}]
SCHEMA = {"type": "object", "properties": {"offer": {"type": "array", "items": {"type": "integer"}}},
          "required": ["offer"], "additionalProperties": False}

#: (client options, call keywords): every field the client writes, alone and together
CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"model": "qwen3-8b"}, {}),
    ({"model": "qwen3-8b", "max_tokens": 256, "top_p": 0.9}, {"seed": 1234}),
    ({"model": "qwen3-8b", "send_seed": False}, {"seed": 7, "max_tokens": 12, "temperature": 0.0}),
    ({"model": "gpt-5-mini"}, {"seed": 3, "think": True, "max_tokens": 64}),
    ({"model": "o3", "reasoning_effort_off": "minimal"}, {"think": False}),
    ({"model": "qwen3-8b", "reasoning_via": "chat_template_kwargs",
      "extra_body": {"chat_template_kwargs": {"add_generation_prompt": True}, "top_k": 20}}, {"think": False}),
    ({"model": "deepseek/deepseek-r1", "reasoning_via": "openrouter", "reasoning_effort": "high"}, {"think": True}),
    ({"model": "deepseek/deepseek-r1", "reasoning_via": "openrouter"}, {"think": False}),
    ({"model": "qwen3-8b", "temperature": None}, {"logprobs": 5, "max_tokens": 1}),
    # extra_body over top-level fields: a key of both keeps its place, takes extra_body's value
    ({"model": "qwen3-8b", "extra_body": {"temperature": 0.2, "model": "other", "stop": ["\n\n"],
                                          "tools": [{"type": "function", "function": {
                                              "name": "offer", "parameters": SCHEMA}}],
                                          "tool_choice": "auto", "repetition_penalty": 1.05}}, {"seed": 0}),
    ({"model": "gpt-4o-mini"}, {"structured": {"top": {"response_format": {"type": "json_schema", "json_schema": {
        "name": "offer", "schema": SCHEMA, "strict": True}}}, "extra_body": {}}}),
    ({"model": "qwen3-8b"}, {"structured": {"top": {}, "extra_body": {"structured_outputs": {"json": SCHEMA}}}}),
    ({"model": "qwen3-8b", "extra_body": {"min_p": 0.05}},
     {"structured": {"top": {}, "extra_body": {"guided_regex": r"(ACCEPT|REJECT)( \d+)?"}}, "think": True}),
    # record_tokens: logprobs at the top level, the token-id fields in extra_body
    ({"model": "qwen3-8b", "record_tokens": True, "extra_body": {"top_k": 20}}, {"seed": 9, "max_tokens": 32}),
    ({"model": "qwen3-8b", "record_tokens": True, "reasoning_via": "chat_template_kwargs"}, {"think": False}),
    ({"model": "qwen3-8b", "record_tokens": False}, {"seed": 9}),
]

#: the headers a server reads, sent the same both ways (the User-Agent differs)
SAME_HEADERS = ("authorization", "content-type", "accept", "accept-encoding", "openai-organization",
                "openai-project")


def _sdk_post(client: APIClient, base_url: str, kw: dict[str, Any]) -> None:
    """What the ``openai`` client posts for these fields, through the package's HTTP client."""
    sdk = openai.OpenAI(api_key=KEY, base_url=base_url, max_retries=0, http_client=make_http_client(5.0))
    try:
        sdk.chat.completions.with_raw_response.create(**kw)
    finally:
        sdk.close()


@pytest.mark.parametrize("options,call", CASES)
def test_the_body_is_the_bytes_openai_posts(capture, monkeypatch, options, call):
    monkeypatch.setenv("BODY_TEST_KEY", KEY)
    monkeypatch.setenv("OPENAI_ORG_ID", "org-body-test")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj_body_test")
    client = APIClient(base_url=capture.url, api_key_env="BODY_TEST_KEY", max_retries=0, **options)
    try:
        comp, _ = client.complete([dict(m) for m in CONVERSATION], **call)
        assert not comp.failed and comp.text == "ok", comp.faults
        fields = {k: v for k, v in call.items() if k != "structured"}
        _sdk_post(client, capture.url, client.request([dict(m) for m in CONVERSATION],
                                                      structured=call.get("structured"), **fields))
    finally:
        client.close()
    (ours_path, ours_headers, ours), (sdk_path, sdk_headers, sdk) = capture.seen
    assert ours == sdk, (ours, sdk)
    assert ours_path == sdk_path == "/v1/chat/completions"
    for h in SAME_HEADERS:
        assert ours_headers.get(h) == sdk_headers.get(h), h
    assert ours_headers["authorization"] == f"Bearer {KEY}" and ours_headers["content-type"] == "application/json"
    assert ours_headers["openai-organization"] == "org-body-test"
    assert ours_headers["user-agent"].startswith("negotiation-env/")
    assert not any(h.startswith("x-stainless") for h in ours_headers)  # openai's telemetry, not sent
    body = json.loads(ours)
    assert body["messages"] == CONVERSATION
    assert list(body)[:2] == ["model", "messages"]  # extra_body's "model" keeps its place


def test_the_fields_the_client_writes_are_in_the_body(capture):
    """The values of a full request, read back from the bytes the server got."""
    client = APIClient("gpt-5-mini", capture.url, api_key="k", max_retries=0, max_tokens=99, top_p=0.5,
                       extra_body={"service_tier": "flex"})
    try:
        client.complete([{"role": "user", "content": "x"}], seed=11, think=True, logprobs=3)
    finally:
        client.close()
    body = json.loads(capture.seen[0][2])
    assert body == {"model": "gpt-5-mini", "messages": [{"role": "user", "content": "x"}],
                    "logprobs": True, "max_completion_tokens": 99, "reasoning_effort": "medium", "seed": 11,
                    "top_logprobs": 3, "top_p": 0.5, "service_tier": "flex"}
    assert list(body) == [k for k in BODY_FIELDS if k in body and k != "service_tier"] + ["service_tier"]


@pytest.mark.parametrize("options,call", CASES)
def test_record_tokens_adds_its_fields_and_nothing_else(options, call):
    """Off (the default), the body is the one without the option; on, it differs by
    ``logprobs: true`` and the token-id fields alone (a call asking for top
    log-probabilities sends none of them)."""
    options = {k: v for k, v in options.items() if k != "record_tokens"}
    bodies = {}
    for record in (None, False, True):
        extra = {} if record is None else {"record_tokens": record}
        client = APIClient(api_key="k", **options, **extra)
        try:
            bodies[record] = json.loads(encode_body(client.request([dict(m) for m in CONVERSATION], **call)))
        finally:
            client.close()
    assert bodies[False] == bodies[None]
    expected = dict(bodies[None])
    if "logprobs" not in call:
        expected.update({"logprobs": True, **dict.fromkeys(TOKEN_ID_FIELDS, True)})
    assert bodies[True] == expected


def test_the_openai_request_path_is_not_used(capture, monkeypatch):
    """A call never goes through ``chat.completions.create`` (whose request transformation
    walks every message on every call)."""
    def refuse(*args, **kwargs):
        raise AssertionError("openai's chat.completions.create was called")

    monkeypatch.setattr(openai.resources.chat.completions.Completions, "create", refuse)
    client = APIClient("m", capture.url, api_key="k", max_retries=0)
    try:
        comp, _ = client.complete([{"role": "user", "content": "x"}] * 40)
    finally:
        client.close()
    assert not comp.failed and comp.text == "ok" and len(capture.seen) == 1


def test_encode_body_refuses_what_create_refuses():
    with pytest.raises(ValueError, match="not a chat-completions request field: top_k"):
        encode_body({"model": "m", "messages": [], "top_k": 5})
    with pytest.raises(ValueError):  # no NaN in JSON
        encode_body({"model": "m", "messages": [], "temperature": float("nan")})
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate is no text
        encode_body({"model": "m", "messages": [{"role": "user", "content": "\ud800"}]})
    assert encode_body({"messages": [], "model": "m", "extra_body": {}}) == b'{"model":"m","messages":[]}'


@pytest.mark.parametrize("base,url", [
    ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/chat/completions"),
    ("http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1/chat/completions"),
    ("http://localhost:11434", "http://localhost:11434/chat/completions"),
    ("https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1/chat/completions"),
    ("https://h.example/openai/deployments/m?api-version=2024-02-01",
     "https://h.example/openai/deployments/m/chat/completions?api-version=2024-02-01"),
])
def test_the_url_requests_go_to(base, url):
    assert str(chat_completions_url(base)) == url


@pytest.mark.parametrize("base", ["http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/", "http://localhost:11434",
                                  "https://api.groq.com/openai/v1"])
def test_the_url_is_openais(base):
    """Where ``openai`` builds a URL a server can take, the client builds the same."""
    seen = []

    def handler(request):
        seen.append(str(request.url))
        return httpx.Response(200, content=ANSWER, headers={"Content-Type": "application/json"})

    sdk = openai.OpenAI(api_key="k", base_url=base, max_retries=0,
                        http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    sdk.chat.completions.with_raw_response.create(model="m", messages=[])
    assert seen == [str(chat_completions_url(base))]


def test_the_default_base_url(monkeypatch, capture):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert APIClient("m", api_key="k").endpoint == "https://api.openai.com/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", capture.url + "/")
    client = APIClient("m", api_key="k", max_retries=0)
    try:
        assert client.endpoint == capture.url
        assert not client.complete([{"role": "user", "content": "x"}])[0].failed
    finally:
        client.close()
    assert capture.seen[0][0] == "/v1/chat/completions"


def test_one_client_many_threads(server):
    """Threads sharing one client each get the answer to their own conversation."""
    server.reply = lambda req: req["messages"][-1]["content"].upper()
    client = APIClient("m", server.url, api_key="k", max_retries=0, max_concurrency=8)
    got: dict[int, list[str]] = {}

    def play(t: int) -> None:
        conv = [{"role": "user", "content": f"start {t}"}]
        out = []
        for i in range(12):
            conv = conv + [{"role": "user", "content": f"thread {t} turn {i}"}]
            comp, _ = client.complete(conv, seed=t * 100 + i)
            out.append(comp.text)
            conv = conv + [{"role": "assistant", "content": comp.text}]
        got[t] = out

    threads = [threading.Thread(target=play, args=(t,)) for t in range(8)]
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
    finally:
        client.close()
    assert got == {t: [f"THREAD {t} TURN {i}" for i in range(12)] for t in range(8)}
    assert len(server.requests) == 96
    assert sorted(r["seed"] for r in server.requests) == sorted(t * 100 + i for t in range(8) for i in range(12))
