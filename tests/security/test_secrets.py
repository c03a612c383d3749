"""A key planted in every place a URL carries credentials is refused before anything runs
and never printed; a run whose key is only in the environment leaves it out of every
artifact: stdout, stderr, logs, run.json, traces, report, viewer, every export kind, the
resumed run, and the repr and str of the objects and exceptions a user holds."""

from __future__ import annotations

import json
import logging

import pytest

pytest.importorskip("openai")

from baselines.llm.api import APIClient, APIPolicy  # noqa: E402
from negotiation_env.cli import main as cli_main  # noqa: E402
from negotiation_env.core.secrets import find_credential, redact_text, url_credential  # noqa: E402
from negotiation_env.runner import RunConfigError, parse_config  # noqa: E402
from negotiation_env.traces import PolicyInfo, read_traces, redact  # noqa: E402
from tests.fakeserver import FakeServer  # noqa: E402

KEY = "sk-proj-PLANTEDnegenv7Qx2Lm9Zt4"
KEY_BARE = "PLANTEDa7Kx9Qm2Lp4Zt8Wv3Rn6Yb"  # no prefix: a random-looking token
HEX = "abcdef0123456789abcdef0123456789"
KEY_ENV = "NEGENV_SECRETS_TEST_KEY"

#: (URL shape, the planted secret) on a server at HOST
HOST = "http://127.0.0.1:9/v1"
PLANTED = [
    ("http://{k}@127.0.0.1:9/v1", KEY),                              # user name alone
    ("http://user:{k}@127.0.0.1:9/v1", "PLANTEDpw77"),               # user:password
    ("http://127.0.0.1:9/v1?api_key={k}", "PLANTEDqk1"),
    ("http://127.0.0.1:9/v1?code={k}", "PLANTEDcode1"),
    ("http://127.0.0.1:9/v1?model=m&auth={k}", "PLANTEDauth1"),
    ("http://127.0.0.1:9/v1?sig={k}", "PLANTEDsig1"),
    ("http://127.0.0.1:9/v1?jwt={k}", "PLANTEDjwt1"),
    ("http://127.0.0.1:9/v1?bearer={k}", "PLANTEDbearer1"),
    ("http://127.0.0.1:9/v1?X-Api-Key={k}", "PLANTEDxak1"),
    ("http://127.0.0.1:9/v1?session={k}", "PLANTEDsess1"),
    ("http://127.0.0.1:9/v1?q={k}", KEY),                           # a key-shaped value under any name
    ("http://127.0.0.1:9/v1?{k}", KEY_BARE),                        # a bare key-shaped query
    ("http://127.0.0.1:9/v1;token={k}/chat", "PLANTEDmx1"),
    ("http://127.0.0.1:9/v1#access_token={k}", "PLANTEDfrag1"),
    ("http://127.0.0.1:9/v1#{k}", KEY),
    ("http://127.0.0.1:9/v1/{k}/chat", "sk-proj-XXXX"),
    ("http://127.0.0.1:9/{k}/v1", "ghp_PLANTED0123456789abcdefABCDEF0123"),
    ("http://127.0.0.1:9/{k}/v1", "hf_PLANTEDabcdefghijklmnopqrstuvwxyz"),
    ("http://127.0.0.1:9/{k}/v1", "AIzaPLANTEDSyD4-abcdefghijklmnop"),
    ("http://127.0.0.1:9/{k}/v1", "AKIAPLANTED2345ABCD"),
    ("http://127.0.0.1:9/{k}/v1", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJQTEFOVEVEIn0.c2lnbmF0dXJl"),
    ("http://127.0.0.1:9/key/{k}/v1", HEX),
    ("http://127.0.0.1:9/v1/{k}", KEY_BARE),
]

#: URLs and specs that hold no credential and must be accepted as they are
ORDINARY_URLS = [
    "http://localhost:8000/v1", "http://127.0.0.1:30000/v1", "https://api.openai.com/v1", "https://openrouter.ai/api/v1",
    "https://api.together.xyz/v1", "https://api.groq.com/openai/v1", "https://generativelanguage.googleapis.com/v1beta/openai",
    "https://myres.openai.azure.com/openai/deployments/gpt-4o-mini?api-version=2024-02-01",
    "https://api-inference.huggingface.co/models/meta-llama/Meta-Llama-3-8B-Instruct/v1",
    "https://router.huggingface.co/v1", "https://api.runpod.ai/v2/abc123xyz4567/openai/v1",
    "http://gpu-node-07.cluster.local:8080/v1/", "https://org--vllm-serve.modal.run/v1",
    "http://[::1]:8000/v1", "https://host/v1#section", "https://host/v1?model=Qwen2.5-7B-Instruct&max_tokens=64",
]
ORDINARY_SPECS = [
    "openai:gpt-5-mini", "openai:gpt-4o-mini-2024-07-18@https://api.openai.com/v1",
    "openai:Qwen/Qwen2.5-7B-Instruct@http://localhost:8000/v1",
    "openai:meta-llama/Llama-3.1-8B-Instruct@http://127.0.0.1:8000/v1",
    "openai:deepseek-ai/DeepSeek-R1-Distill-Qwen-32B@http://localhost:8000/v1",
    "openai:mistralai/Mistral-Small-3.1-24B-Instruct-2503@https://openrouter.ai/api/v1",
    "openai:claude-3-5-sonnet-20241022@https://api.anthropic.com/v1/",
    "openai:ft:gpt-4o-mini-2024-07-18:my-org:custom-suffix:9sWd7A2b", "hf:Qwen/Qwen3-8B",
    "hf:/models/snapshots/a09a35458c702b33eeacc393d103063234e8bc28", "scripted:tit_for_tat",
    "python:my_pkg.policies:make_policy",
]


def _config(spec: str, options: dict | None = None, game: str = "matrix", games: int = 2) -> dict:
    return {"name": "secrets", "seed": 3, "games": [{
        "game": game, "policies": [{"spec": spec, "label": "model", "options": options or {}}],
        "pairings": "self", "games_per_cell": games, "config": {"num_rounds": 2}}]}


@pytest.mark.parametrize("url", ORDINARY_URLS)
def test_ordinary_urls_are_accepted_unchanged(url):
    assert url_credential(url) is None and redact_text(url) == url
    parse_config(_config(f"openai:m@{url}"))


@pytest.mark.parametrize("spec", ORDINARY_SPECS)
def test_ordinary_specs_are_accepted_unchanged(spec):
    assert find_credential(spec) is None and redact_text(spec) == spec
    parse_config(_config(spec))


@pytest.mark.parametrize("shape, secret", PLANTED)
def test_every_url_shape_is_refused_and_blanked(shape, secret):
    url = shape.format(k=secret)
    assert url_credential(url) is not None and secret not in redact_text(url) and "[REDACTED]" in redact_text(url)
    with pytest.raises(RunConfigError) as e:
        parse_config(_config(f"openai:m@{url}"))
    assert "games[0].policies[0].spec: a policy spec must not hold credentials" in str(e.value)
    assert "api_key_env" in str(e.value) and secret not in str(e.value)
    with pytest.raises(RunConfigError) as e:
        parse_config(_config("openai:m", {"base_url": url}))
    assert "games[0].policies[0].options: option base_url must not hold credentials" in str(e.value)
    assert secret not in str(e.value)
    with pytest.raises(ValueError, match="'base_url' must not hold credentials.*api_key_env") as e:
        APIPolicy("m", url)
    assert secret not in str(e.value)


def test_each_refusal_names_where_the_credential_is():
    assert url_credential("https://sk-abc123@host/v1") == "user information (a user name@)"
    assert url_credential("https://me:pw@host/v1") == "user information (user:password@)"
    assert url_credential("https://host/v1?model=m&code=x") == "query parameter 'code'"
    assert url_credential("https://host/v1;token=x/chat") == "';' path parameter 'token'"
    assert url_credential("https://host/v1#access_token=x&token_type=bearer") == "fragment parameter 'access_token'"
    assert url_credential("https://host/v1/sk-proj-XXXX/chat") == "path segment 2"
    assert url_credential(f"https://host/key/{HEX}/v1") == "path segment 2"
    assert redact_text("https://me:pw@host/v1/sk-proj-XXXX/chat?sig=s&model=m#jwt=j") == \
        "https://[REDACTED]@host/v1/[REDACTED]/chat?sig=[REDACTED]&model=m#jwt=[REDACTED]"


def test_settings_named_token_are_kept_and_secret_values_are_blanked():
    out = redact({"token_param": "max_completion_tokens", "max_tokens": 64, "tokenizer": "Qwen/Qwen3-8B",
                  "tokens_per_second": "fast", "token_limit": "none", "eos_token": "</s>", "access_token": "t",
                  "hf_token": "t", "bearer": "b", "auth": "a", "note": f"use {KEY} here", "endpoint": KEY_BARE,
                  "revision": "a09a35458c702b33eeacc393d103063234e8bc28"})
    assert out == {"token_param": "max_completion_tokens", "max_tokens": 64, "tokenizer": "Qwen/Qwen3-8B",
                   "tokens_per_second": "fast", "token_limit": "none", "eos_token": "</s>",
                   "access_token": "[REDACTED]", "hf_token": "[REDACTED]", "bearer": "[REDACTED]", "auth": "[REDACTED]",
                   "note": "use [REDACTED] here", "endpoint": "[REDACTED]",
                   "revision": "a09a35458c702b33eeacc393d103063234e8bc28"}


def test_repr_and_str_blank_credentials(monkeypatch):
    monkeypatch.setenv(KEY_ENV, "local")
    url = f"http://u:{KEY}@127.0.0.1:9/v1?code=PLANTEDcode1"
    pol = APIPolicy("m", HOST, api_key_env=KEY_ENV)
    pol.client.base_url = url  # set behind the constructor's back: the repr still blanks it
    info = PolicyInfo(spec=f"openai:m@{url}", label="x", name=f"openai:m@{url}", settings={"base_url": url})
    for text in (repr(pol), str(pol), repr(pol.client), repr(info), str(info)):
        assert KEY not in text and "PLANTEDcode1" not in text and "[REDACTED]" in text
    with pytest.raises(ValueError) as e:
        APIClient("m", f"ftp://{KEY}@host/v1", api_key_env=KEY_ENV)
    assert KEY not in str(e.value)


@pytest.fixture()
def server():
    s = FakeServer()
    s.reply = lambda req: "A"
    yield s
    s.close()


def _grep(root, texts) -> list[str]:
    """Every file under ``root`` and every text of ``texts`` that holds the key."""
    found = [str(p) for p in sorted(root.rglob("*")) if p.is_file() and KEY.encode() in p.read_bytes()]
    return found + [t[:80] for t in texts if KEY in t]


@pytest.mark.parametrize("shape, secret", [(s, k) for s, k in PLANTED if k == KEY] + [
    ("http://127.0.0.1:9/v1?token={k}", KEY), ("http://127.0.0.1:9/v1;sig={k}", KEY),
    ("http://127.0.0.1:9/v1#code={k}", KEY), ("http://127.0.0.1:9/v1/{k}/chat", KEY)])
def test_the_cli_refuses_a_planted_key_without_printing_it(shape, secret, server, tmp_path, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    url = shape.format(k=secret).replace("http://127.0.0.1:9/v1", server.url)
    cfg = tmp_path / "run.yaml"
    cfg.write_text(json.dumps(_config(f"openai:test-model@{url}")))
    assert cli_main(["run", str(cfg), "--plan"]) == 2
    assert cli_main(["run", str(cfg), "--out", str(tmp_path / "run")]) == 2
    assert cli_main(["play", "--game", "matrix", "--a", f"openai:test-model@{url}", "--b", "tit_for_tat"]) == 2
    assert cli_main(["judge", str(tmp_path), "--model", "m", "--base-url", url]) == 2
    out = capsys.readouterr()
    assert "must not hold credentials" in out.err
    assert not (tmp_path / "run").exists() and server.requests == []
    assert _grep(tmp_path, [out.out, out.err, caplog.text]) == [str(cfg)]  # only the file the user wrote


def test_a_run_with_the_key_in_the_environment_leaves_it_nowhere(server, tmp_path, monkeypatch, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv(KEY_ENV, KEY)
    cfg = tmp_path / "run.yaml"
    cfg.write_text(json.dumps(_config(f"openai:test-model@{server.url}", {"api_key_env": KEY_ENV, "seed": 1})))
    out = tmp_path / "run"
    assert cli_main(["run", str(cfg), "--out", str(out)]) == 0
    traces = read_traces(out / "traces.jsonl").traces
    assert len(traces) == 2 and all(t.status == "complete" for t in traces)
    assert {k.lower(): v for k, v in server.headers[-1].items()}["authorization"] == f"Bearer {KEY}"
    (out / "traces.jsonl").write_text((out / "traces.jsonl").read_text().splitlines(True)[0])  # lose a game
    assert cli_main(["run", str(cfg), "--out", str(out), "--resume"]) == 0
    assert len(read_traces(out / "traces.jsonl").traces) == 2
    assert cli_main(["report", str(out), "--no-plots"]) == 0
    assert cli_main(["view", str(out)]) == 0
    # every kind; one model answering "A" in self-play gives no preference pair (exit 1, said on stderr)
    for kind, name, rc in (("transitions", "t.jsonl", 0), ("sft", "s.jsonl", 0), ("sft_prompt_completion", "p.jsonl", 0),
                           ("preferences", "d.jsonl", 1), ("minari", "minari", 0)):
        assert cli_main(["export", str(out), "--kind", kind, "--out", str(tmp_path / "exports" / name)]) == rc, kind
    pol = APIPolicy("test-model", server.url, api_key_env=KEY_ENV)
    texts = [repr(pol), str(pol), repr(pol.client), json.dumps(pol.settings())]
    texts += [repr(t.policies[a]) for t in traces for a in t.policies]
    server.status = 401
    pol.act({"prompt": "hi"})
    texts += [json.dumps(pol.last_usage)]
    printed = capsys.readouterr()
    assert (out / "run.json").is_file() and (out / "viewer.html").is_file() and (out / "report").is_dir()
    assert _grep(tmp_path, texts + [printed.out, printed.err, caplog.text]) == []
    assert KEY_ENV in (out / "run.json").read_text()  # the variable's name is recorded
