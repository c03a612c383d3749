"""The client of any OpenAI-compatible chat-completions server (the ``api`` extra):
OpenAI, vLLM, SGLang, Ollama, OpenRouter.

    client = APIClient("qwen3-8b", "http://localhost:8000/v1", api_key_env="MY_KEY")
    completion, response = client.complete([{"role": "user", "content": "Hello"}])

:class:`APIClient` is the one client of the code base: the API policies
(:class:`baselines.llm.api.APIPolicy`) and the LLM judge
(:mod:`negotiation_env.analysis.judge`) both send through it, so it lives in the
environment package, which the policies build on.

Each call's request body is built once, as a plain dict in the order and with the values
the official ``openai`` client sends for ``chat.completions.create`` (``extra_body``
merged over the top level as it merges it), encoded once (:func:`encode_body`: compact
UTF-8 JSON, as ``openai`` encodes it) and posted through the package's own HTTP client
(:func:`~.transport.make_http_client`), with the headers ``openai`` sends that a server
reads (``Authorization: Bearer``, ``Content-Type`` and ``Accept: application/json``,
``OpenAI-Organization`` / ``OpenAI-Project`` from ``OPENAI_ORG_ID`` /
``OPENAI_PROJECT_ID``) and its own ``User-Agent``. The ``openai`` client's request
transformation walks every message of the conversation on every call, a CPU cost that
grows with the conversation and, with one process driving many games, caps how many
calls a second a run can make; none of its work is needed to post a JSON body. The
client adds:

* retries with exponential backoff and jitter (``backoff * 2**k``, drawn in
  ``[d/2, d]`` from a per-call ``random.Random``), honouring ``Retry-After`` /
  ``retry-after-ms`` on 429 (the wait, jitter included, capped at ``max_retry_after``);
  every call (all its attempts and waits) within ``call_budget`` seconds; retried: timeouts,
  connection errors (a response cut off mid-way), 408/409/425/429/5xx, malformed JSON,
  empty answers; not retried: other 4xx;
* a concurrency limit (``max_concurrency`` requests in flight per client, whichever
  thread sends them); ``complete_many`` sends a batch concurrently;
* the token-limit and temperature rules of seed 000, Appendix B: OpenAI reasoning
  models (``gpt-5*``, ``o1``/``o3``/``o4*``) take ``max_completion_tokens`` and no
  temperature, the others ``max_tokens`` and temperature 0.7 (``token_param`` and
  ``temperature`` override it; a server that refuses one name with a 400 naming the other
  is answered by switching, recorded as a fault);
* native reasoning: ``reasoning_content`` / ``reasoning`` fields and ``<think>`` spans are
  kept apart from the answer; the reasoning switch is sent as ``reasoning_effort``
  (``reasoning_via="reasoning_effort"``, OpenAI), as ``chat_template_kwargs.enable_thinking``
  (``"chat_template_kwargs"``: vLLM, SGLang serving Qwen3-style models) or as
  OpenRouter's ``reasoning`` object (``"openrouter"``);
* tokens (``record_tokens=True``): the request also asks for the sampled tokens'
  log-probabilities (``logprobs``) and, in ``extra_body``, for token ids
  (``return_token_ids``: vLLM 0.10.2 and later answer with the prompt's
  ``prompt_token_ids`` and the choice's ``token_ids``, recent SGLang with both on the
  choice; ``return_tokens_as_token_ids``: vLLM writes each log-probability's token as
  ``token_id:N``); whatever comes back fills the completion's ``prompt_ids``,
  ``completion_ids`` and ``logprobs``, and what does not stays None, never guessed
  (:meth:`APIClient._record_tokens`). A server that refuses those two fields with a 400
  naming one (OpenAI's own API) is answered by dropping them, recorded as a fault;
* usage: prompt, completion and reasoning tokens (``completion_tokens_details``), summed
  over the attempts that returned one; every fault goes into the
  :class:`~negotiation_env.core.completion.Completion` and from there into the trace step's ``tokens``.

Hostile servers (the HTTP side is :mod:`.transport`):

* ``timeout`` is a deadline for the whole attempt, connect to last byte (httpx's own
  timeouts are per read, so a server dripping one byte at a time could keep a call alive
  indefinitely); past it the attempt is a ``timeout`` fault and is retried;
* an answer longer than ``max_response_bytes`` (inflated, when compressed) stops being
  read there: a ``too_large`` fault, retried;
* redirects are not followed (the prompt and the key would be posted wherever the
  server points): a ``redirect`` fault, not retried;
* the body is decoded by the package's bounded JSON decoder
  (:func:`negotiation_env.core.jsontext.loads_document`, at most
  :data:`MAX_ANSWER_DEPTH` levels) and checked before anything reads it: ``choices`` a
  list of objects whose ``message`` is an object with text or null ``content``,
  ``usage`` an object of non-negative integer counts; anything else is a ``malformed``
  fault, retried like the others (an empty ``choices`` is ``empty``); so is an answer
  any string of which (content, reasoning, tool arguments, any field or key) holds a
  surrogate escape without its other half (``"\\ud800"``: no character, and no trace
  could be written with it); no exception of
  the client, the HTTP stack or the decoding escapes :meth:`APIClient.complete`;
* fault messages are cut to :data:`MAX_FAULT_CHARS` characters.

The API key is read from the environment variable ``api_key_env`` (default
``OPENAI_API_KEY``; unset, the placeholder ``EMPTY`` that local servers accept). It is
never stored in settings, repr, faults, logs or traces: every string of an answer
(content, reasoning, finish reason, any other field) and every fault message is scrubbed
of it (``[REDACTED]``), and records logged by ``openai``, httpx and httpcore are too
(:class:`~.transport.ScrubFilter`: a server echoing the ``Authorization`` header into a
response header reaches their debug logs). :class:`~baselines.llm.api.APIPolicy` refuses a
key given as an option (config files must not hold one).
"""

from __future__ import annotations

import email.utils
import json
import logging
import math
import os
import random
import re
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any, Callable, Mapping, Sequence

from negotiation_env.core.completion import Completion, Usage
from negotiation_env.core.jsontext import JSONTextError, UnencodableText, loads_document
from negotiation_env.core.policy import PROBE_CONVERSATION, ProbeFailed
from negotiation_env.core.secrets import CREDENTIAL_ADVICE, url_credential
from negotiation_env.core.thinking import split_reasoning
from negotiation_env.core.visible import shown
from negotiation_env.traces.schema import redact

from .keys import api_key_from_env

try:
    import openai  # noqa: F401 - the extra that brings the HTTP stack (and picks its flavour)
except ImportError as _e:  # pragma: no cover - depends on the install
    raise ImportError(f"negotiation_env.api.client needs the openai client ({_e}); "
                      "install the extra: pip install 'negotiation_env[api]'") from None

from .transport import AnswerRefused, budget, httpx, make_http_client, register_secret  # noqa: E402 - openai's httpx

__all__ = ["APIClient", "api_key_from_env", "TOKEN_PARAMS", "REASONING_VIA", "EFFORTS", "DEFAULT_TEMPERATURE",
           "MAX_RESPONSE_BYTES", "MAX_ANSWER_DEPTH", "MAX_FAULT_CHARS", "uses_completion_tokens", "BODY_FIELDS",
           "DEFAULT_BASE_URL", "encode_body", "chat_completions_url", "TOKEN_ID_FIELDS", "tokens_of"]

log = logging.getLogger(__name__)

TOKEN_PARAMS = ("auto", "max_tokens", "max_completion_tokens")
REASONING_VIA = ("reasoning_effort", "chat_template_kwargs", "openrouter")
EFFORTS = ("none", "minimal", "low", "medium", "high")
DEFAULT_TEMPERATURE = 0.7  # seed 000, Appendix B: every model that takes a temperature
_REASONING_MODELS = re.compile(r"^(?:openai/)?(?:gpt-5|o\d)", re.I)
_RETRY_STATUS = {408, 409, 425, 429}
_REDACTED = "[REDACTED]"
#: the default cap on an answer's body: a chat completion with a long reasoning trace is
#: well under 1 MiB; 8 MiB leaves room for top log-probabilities and still bounds memory
MAX_RESPONSE_BYTES = 8 * 2**20
#: nesting levels of an answer's JSON body (a completion with top log-probabilities has 7)
MAX_ANSWER_DEPTH = 32
#: a fault message is cut to this many characters (an error body may be megabytes)
MAX_FAULT_CHARS = 500
#: token counts above this are not counts (a hostile or broken server)
_MAX_TOKENS_COUNT = 10**12
#: the base URL when none is given and ``OPENAI_BASE_URL`` is unset (as ``openai`` has it)
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: the top-level fields of a chat-completions request, in the order ``openai`` writes
#: them (its ``chat.completions.create`` builds the body in this order, then merges
#: ``extra_body`` over it); a request field outside this list is refused, as ``create``
#: refuses an unknown keyword
BODY_FIELDS = ("model", "stream", "service_tier", "messages", "audio", "frequency_penalty", "function_call",
               "functions", "logit_bias", "logprobs", "max_completion_tokens", "max_tokens", "metadata",
               "modalities", "moderation", "n", "parallel_tool_calls", "prediction", "presence_penalty",
               "prompt_cache_key", "prompt_cache_options", "prompt_cache_retention", "reasoning_effort",
               "response_format", "safety_identifier", "seed", "stop", "store", "stream_options", "temperature",
               "tool_choice", "tools", "top_logprobs", "top_p", "user", "verbosity", "web_search_options")
_BODY_FIELD_SET = frozenset(BODY_FIELDS) | {"extra_body"}


def encode_body(kw: Mapping[str, Any]) -> bytes:
    """The request body of :meth:`APIClient.request`'s fields, as bytes: the fields in
    :data:`BODY_FIELDS` order, ``extra_body`` merged over them (a key of both keeps its
    place and takes ``extra_body``'s value), encoded as compact UTF-8 JSON without NaN or
    infinities: the bytes ``openai`` posts for ``chat.completions.create(**kw)``.
    Raises ``ValueError`` for a field ``create`` does not take or a value JSON cannot
    hold, ``UnicodeEncodeError`` for text that is not Unicode (a lone surrogate)."""
    unknown = kw.keys() - _BODY_FIELD_SET
    if unknown:
        raise ValueError(f"not a chat-completions request field: {', '.join(sorted(map(str, unknown)))} "
                         "(send it in extra_body)")
    body = {k: kw[k] for k in BODY_FIELDS if k in kw}
    extra = kw.get("extra_body")
    if extra:
        body.update(extra)
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def chat_completions_url(base_url: str) -> Any:
    """The URL requests are posted to: ``base_url``'s path with ``/chat/completions``
    appended (one slash between them), its query kept."""
    u = httpx.URL(base_url)
    path = u.raw_path.split(b"?", 1)[0].rstrip(b"/") + b"/chat/completions"
    return u.copy_with(raw_path=path + (b"?" + u.query if u.query else b""))


class _StatusError(Exception):
    """An answer whose status is not 2xx: ``status_code``, the answer's ``headers``; the
    message is ``openai``'s: ``Error code: N``, then `` - `` and the error's message when
    the body is JSON that holds one (``{"error": {"message": ...}}`` or ``{"message": ...}``)."""

    def __init__(self, status: int, content: bytes, headers: Any) -> None:
        message = f"Error code: {status}"
        try:
            body = json.loads(content.decode("utf-8", "replace").strip())
        except Exception:  # noqa: BLE001 - any body: the status alone
            body = None
        error = body.get("error", body) if isinstance(body, dict) else None
        said = error.get("message") if isinstance(error, dict) else None
        if isinstance(said, str) and said:
            message += f" - {said}"
        super().__init__(message)
        self.status_code = status
        self.headers = headers


class _BadAnswer(Exception):
    """A 200 answer that is no usable chat completion: ``kind`` ``malformed`` or ``empty``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _brief(text: str, limit: int = MAX_FAULT_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _count(where: str, v: Any) -> int:
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= _MAX_TOKENS_COUNT:
        raise _BadAnswer("malformed", f"usage.{where} must be a non-negative integer count; got {shown(v)}")
    return v


def _usage_of(doc: Mapping[str, Any]) -> tuple[int, int, int | None] | None:
    """``(prompt, completion, reasoning)`` token counts of a decoded answer, None without
    usage; raises :class:`_BadAnswer` for a usage that is not counts."""
    u = doc.get("usage")
    if u is None:
        return None
    if not isinstance(u, dict):
        raise _BadAnswer("malformed", f"'usage' must be an object of token counts; got {shown(u)}")
    prompt, completion = _count("prompt_tokens", u.get("prompt_tokens")), _count("completion_tokens",
                                                                                  u.get("completion_tokens"))
    _count("total_tokens", u.get("total_tokens"))
    details = u.get("completion_tokens_details")
    if details is not None and not isinstance(details, dict):
        raise _BadAnswer("malformed", f"usage.completion_tokens_details must be an object; got {shown(details)}")
    rt = None if details is None or details.get("reasoning_tokens") is None else \
        _count("completion_tokens_details.reasoning_tokens", details.get("reasoning_tokens"))
    return prompt, completion, rt


def _first_choice(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The first choice of a decoded answer, checked; raises :class:`_BadAnswer`."""
    choices = doc.get("choices")
    if choices is None or choices == []:
        raise _BadAnswer("empty", "the response has no choices")
    if not isinstance(choices, list):
        raise _BadAnswer("malformed", f"'choices' must be a list; got {shown(choices)}")
    choice = choices[0]
    if not isinstance(choice, dict):
        raise _BadAnswer("malformed", f"choices[0] must be an object; got {shown(choice)}")
    msg = choice.get("message")
    if not isinstance(msg, dict):
        raise _BadAnswer("malformed", f"choices[0].message must be an object; got {shown(msg)}")
    if not isinstance(msg.get("content"), (str, type(None))):
        raise _BadAnswer("malformed", f"choices[0].message.content must be text or null; got {shown(msg['content'])}")
    if not isinstance(choice.get("finish_reason"), (str, type(None))):
        raise _BadAnswer("malformed", f"choices[0].finish_reason must be text or null; "
                                      f"got {shown(choice['finish_reason'])}")
    return choice


def _namespace(obj: Any) -> Any:
    """A decoded answer with attribute access (``resp.choices[0].logprobs``), as
    ``accept`` callbacks read it; depth is bounded by the decoder."""
    if isinstance(obj, dict):
        ns = SimpleNamespace()
        for k, v in obj.items():
            setattr(ns, k, _namespace(v))
        return ns
    if isinstance(obj, list):
        return [_namespace(v) for v in obj]
    return obj


#: the ``extra_body`` fields ``record_tokens`` sends: vLLM's and SGLang's token ids of the
#: prompt and the answer, and vLLM's ``token_id:N`` spelling of each log-probability's token
TOKEN_ID_FIELDS = ("return_token_ids", "return_tokens_as_token_ids")
#: a token id at or past this is no token id (the largest vocabularies hold a few hundred thousand)
_MAX_TOKEN_ID = 2**31
_TOKEN_ID_TEXT = re.compile(r"token_id:(\d{1,10})")


def _token_ids(where: str, v: Any) -> list[int]:
    if not isinstance(v, list) or not all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t < _MAX_TOKEN_ID
                                          for t in v):
        raise ValueError(f"{where} must be a list of token ids (integers >= 0); got {shown(v)}")
    return list(v)


def tokens_of(doc: Mapping[str, Any], choice: Mapping[str, Any]) -> tuple[
        list[int] | None, list[int] | None, list[float] | None, list[str]]:
    """``(prompt_ids, completion_ids, logprobs, problems)`` of a decoded answer and its
    first choice, each None where the answer does not hold it:

    * prompt_ids: the answer's ``prompt_token_ids`` (vLLM), else the choice's (SGLang);
    * completion_ids: the choice's ``token_ids``, else the ids of
      ``choice.logprobs.content[i].token`` when every one is spelled ``token_id:N``
      (vLLM's ``return_tokens_as_token_ids``);
    * logprobs: ``choice.logprobs.content[i].logprob``, one per sampled token, when
      every one is a finite number and, with ``completion_ids``, there is one per id.

    ``problems`` names each field present in a shape that is not what it should be
    (left None)."""
    problems: list[str] = []
    prompt_ids = completion_ids = logprobs = None
    for where, holder in (("prompt_token_ids", doc), ("choices[0].prompt_token_ids", choice)):
        v = holder.get("prompt_token_ids")
        if v is not None:
            try:
                prompt_ids = _token_ids(where, v)
                break
            except ValueError as e:
                problems.append(str(e))
    lp = choice.get("logprobs")
    content = lp.get("content") if isinstance(lp, dict) else None
    if lp is not None and not isinstance(lp, dict):
        problems.append(f"choices[0].logprobs must be an object; got {shown(lp)}")
    elif content is not None and not (isinstance(content, list) and all(isinstance(c, dict) for c in content)):
        problems.append(f"choices[0].logprobs.content must be a list of objects; got {shown(content)}")
        content = None
    ids = choice.get("token_ids")
    if ids is not None:
        try:
            completion_ids = _token_ids("choices[0].token_ids", ids)
        except ValueError as e:
            problems.append(str(e))
    elif content:
        spelled = [_TOKEN_ID_TEXT.fullmatch(c["token"]) if isinstance(c.get("token"), str) else None for c in content]
        if all(spelled) and all(int(m.group(1)) < _MAX_TOKEN_ID for m in spelled):
            completion_ids = [int(m.group(1)) for m in spelled]
    if content is not None:
        values = [c.get("logprob") for c in content]
        bad = [v for v in values if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)]
        if bad:
            problems.append(f"choices[0].logprobs.content[].logprob must be finite numbers; got {shown(bad[0])}")
        elif completion_ids is not None and len(values) != len(completion_ids):
            problems.append(f"{len(values)} log-probabilities for {len(completion_ids)} completion token ids: "
                            "they cannot be paired")
        else:
            logprobs = [float(v) for v in values]
    return prompt_ids, completion_ids, logprobs, problems


def uses_completion_tokens(model: str) -> bool:
    """OpenAI's reasoning models (gpt-5*, o1/o3/o4*) take ``max_completion_tokens`` and
    no temperature (seed 000, Appendix B)."""
    return bool(_REASONING_MODELS.match(model))


def _number(name: str, value: Any, lo: float, *, allow_none: bool = False, integer: bool = False) -> Any:
    if value is None and allow_none:
        return None
    ok_type = isinstance(value, int) if integer else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok_type or value < lo:
        kind = "an integer" if integer else "a number"
        raise ValueError(f"API option {name!r} must be {kind} >= {lo}{' or None' if allow_none else ''}; got {value!r}")
    return value


def _retry_after(headers: Any) -> float | None:
    """The wait a 429 asks for, in seconds; None when absent or not a finite number."""
    wait = _retry_after_raw(headers)
    return wait if wait is not None and math.isfinite(wait) else None


def _retry_after_raw(headers: Any) -> float | None:
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
        ra = headers.get("retry-after")
    except Exception:  # noqa: BLE001 - odd header containers
        return None
    if ra is None:
        return None
    try:
        return max(0.0, float(ra))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(ra)
    except Exception:  # noqa: BLE001 - whatever a hostile header holds
        return None
    return max(0.0, when.timestamp() - time.time())


class APIClient:
    """One OpenAI-compatible endpoint (see the module docstring).

    model, base_url (None: the client's default, ``OPENAI_BASE_URL`` or OpenAI's),
    api_key_env; api_key: for callers that read the key themselves (the judge CLI),
    kept private. timeout (seconds per attempt, connect to the answer's last byte: a
    deadline, not a per-read limit), max_response_bytes (the longest answer read),
    max_retries (retries after the first attempt), backoff / backoff_max /
    max_retry_after (seconds; the longest wait between attempts, jitter included),
    call_budget (seconds: one call's attempts and waits together; a wait that would end
    past it is not started, and an attempt's deadline is cut to what is left: the call
    then gives up as when its retries run out), max_concurrency.
    Generation: temperature (``"auto"``: Appendix B; None: never sent), top_p,
    max_tokens (sent as ``token_param``), reasoning_via, reasoning_effort (sent when
    reasoning is switched on), reasoning_effort_off (sent when switched off; None: send
    nothing), send_seed (send each call's seed), extra_body (merged into every request).
    record_tokens: ask for token ids and sampled log-probabilities and fill the
    completion's ``prompt_ids``, ``completion_ids`` and ``logprobs`` with what the server
    returns (module docstring; off: the request is as without the option).
    sleep: the wait function (tests pass a recorder).
    """

    def __init__(self, model: str, base_url: str | None = None, *, api_key_env: str | None = None,
                 api_key: str | None = None, timeout: float = 120.0, max_retries: int = 4, backoff: float = 1.0,
                 backoff_max: float = 60.0, max_retry_after: float = 300.0, call_budget: float = 600.0,
                 max_concurrency: int = 8,
                 temperature: Any = "auto", top_p: float | None = None, max_tokens: int | None = None,
                 token_param: str = "auto", reasoning_via: str = "reasoning_effort",
                 reasoning_effort: str = "medium", reasoning_effort_off: str | None = None, send_seed: bool = True,
                 extra_body: Mapping[str, Any] | None = None, max_response_bytes: int = MAX_RESPONSE_BYTES,
                 record_tokens: bool = False, sleep: Callable[[float], None] = time.sleep) -> None:
        if not isinstance(model, str) or not model:
            raise ValueError(f"API option 'model' must be a non-empty string; got {model!r}")
        if base_url is not None and (not isinstance(base_url, str) or not re.match(r"^https?://", base_url)):
            raise ValueError(f"API option 'base_url' must be an http(s) URL; got {redact(base_url)!r}")
        where = url_credential(base_url) if base_url is not None else None
        if where:
            raise ValueError(f"API option 'base_url' must not hold credentials; it carries {where}: "
                             f"{CREDENTIAL_ADVICE}")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env or "OPENAI_API_KEY"
        self.timeout = float(_number("timeout", timeout, 0.001))
        self.max_retries = _number("max_retries", max_retries, 0, integer=True)
        self.backoff = float(_number("backoff", backoff, 0))
        self.backoff_max = float(_number("backoff_max", backoff_max, 0))
        self.max_retry_after = float(_number("max_retry_after", max_retry_after, 0))
        self.call_budget = float(_number("call_budget", call_budget, 0.001))
        self.max_concurrency = _number("max_concurrency", max_concurrency, 1, integer=True)
        self.max_response_bytes = _number("max_response_bytes", max_response_bytes, 1024, integer=True)
        if temperature != "auto":
            _number("temperature", temperature, 0, allow_none=True)
        self.temperature = temperature
        self.top_p = _number("top_p", top_p, 0, allow_none=True)
        self.max_tokens = _number("max_tokens", max_tokens, 1, allow_none=True, integer=True)
        if token_param not in TOKEN_PARAMS:
            raise ValueError(f"API option 'token_param' must be one of {', '.join(TOKEN_PARAMS)}; got {token_param!r}")
        self.token_param = token_param
        if reasoning_via not in REASONING_VIA:
            raise ValueError(f"API option 'reasoning_via' must be one of {', '.join(REASONING_VIA)}; "
                             f"got {reasoning_via!r}")
        self.reasoning_via = reasoning_via
        for name, v in (("reasoning_effort", reasoning_effort), ("reasoning_effort_off", reasoning_effort_off)):
            if v is not None and v not in EFFORTS:
                raise ValueError(f"API option {name!r} must be one of {', '.join(EFFORTS)}; got {v!r}")
        self.reasoning_effort = reasoning_effort
        self.reasoning_effort_off = reasoning_effort_off
        self.send_seed = bool(send_seed)
        if extra_body is not None and not isinstance(extra_body, Mapping):
            raise ValueError(f"API option 'extra_body' must be a mapping; got {extra_body!r}")
        self.extra_body = dict(extra_body or {})
        if not isinstance(record_tokens, bool):
            raise ValueError(f"API option 'record_tokens' must be true or false; got {record_tokens!r}")
        self.record_tokens = record_tokens
        self._token_fields = record_tokens  # False once the server refused the token-id fields
        self._sleep = sleep
        if api_key is None:
            api_key, note = api_key_from_env(api_key_env)
            if note:
                log.info(note)
        self._key = api_key or "EMPTY"
        register_secret(self._key)  # out of every log record of the HTTP stack from now on
        self._param = (token_param if token_param != "auto"
                       else "max_completion_tokens" if uses_completion_tokens(model) else "max_tokens")
        self._drop_temperature = False
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        from negotiation_env import __version__

        self._base = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self._url = chat_completions_url(self._base)
        # built once, read by every call (never changed: calls from many threads share it)
        headers = {"Authorization": f"Bearer {self._key}", "Content-Type": "application/json",
                   "Accept": "application/json", "User-Agent": f"negotiation-env/{__version__}"}
        for header, var in (("OpenAI-Organization", "OPENAI_ORG_ID"), ("OpenAI-Project", "OPENAI_PROJECT_ID")):
            if os.environ.get(var):
                headers[header] = os.environ[var]
        self._headers = headers
        self._http = make_http_client(self.timeout)

    # ------------------------------------------------------------------ description

    def settings(self) -> dict[str, Any]:
        """Everything that shapes a request and its retries, never the key."""
        return {"model": self.model, "base_url": self.base_url, "api_key_env": self.api_key_env,
                "timeout": self.timeout, "max_retries": self.max_retries, "backoff": self.backoff,
                "backoff_max": self.backoff_max, "max_retry_after": self.max_retry_after,
                "call_budget": self.call_budget, "max_concurrency": self.max_concurrency,
                "max_response_bytes": self.max_response_bytes,
                "temperature": self.resolved_temperature(), "top_p": self.top_p, "max_tokens": self.max_tokens,
                "token_param": self._param, "reasoning_via": self.reasoning_via,
                "reasoning_effort": self.reasoning_effort, "reasoning_effort_off": self.reasoning_effort_off,
                "send_seed": self.send_seed, "record_tokens": self.record_tokens}

    def __repr__(self) -> str:
        return (f"APIClient(model={redact(self.model)!r}, base_url={redact(self.base_url)!r}, "
                f"api_key_env={self.api_key_env!r})")

    def resolved_temperature(self) -> float | None:
        if self._drop_temperature:
            return None
        if self.temperature == "auto":
            return None if self._param == "max_completion_tokens" else DEFAULT_TEMPERATURE
        return self.temperature

    def scrub(self, text: str) -> str:
        """``text`` without the key (fault messages, logs, answers)."""
        if self._key and self._key != "EMPTY" and len(self._key) >= 4:
            text = text.replace(self._key, _REDACTED)
        return text

    def _scrub_tree(self, obj: Any) -> Any:
        """A decoded answer with the key out of every string (keys included)."""
        if isinstance(obj, str):
            return self.scrub(obj)
        if isinstance(obj, dict):
            return {self.scrub(k): self._scrub_tree(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self._scrub_tree(v) for v in obj]
        return obj

    def _post(self, kw: dict[str, Any], timeout: Any = None) -> bytes:
        """POST the body of ``kw`` (:func:`encode_body`) and read the answer: its bytes.
        ``timeout``: httpx's per-read limits (default the client's). Raises
        :class:`_StatusError` for a status other than 2xx (a redirect included), httpx's
        timeout and transport errors and :class:`~.transport.AnswerRefused`."""
        extra = {} if timeout is None else {"timeout": timeout}
        request = self._http.build_request("POST", self._url, content=encode_body(kw), headers=self._headers,
                                           **extra)
        response = self._http.send(request)
        if not 200 <= response.status_code < 300:
            raise _StatusError(response.status_code, response.content, response.headers)
        return response.content

    def _send(self, kw: dict[str, Any], *, timeout: Any = None, deadline: float | None = None) -> dict[str, Any]:
        """One request within the call's budget (deadline ``deadline`` seconds, default
        ``timeout``; ``max_response_bytes``): the decoded answer, scrubbed of the key.
        Raises what :meth:`_post` raises and :class:`_BadAnswer`."""
        with budget(self.timeout if deadline is None else max(0.001, deadline), self.max_response_bytes):
            body = self._post(kw, timeout)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:
            raise _BadAnswer("malformed", f"the response is not UTF-8 text ({e.reason} at byte {e.start})") from None
        try:
            doc = loads_document(text, max_depth=MAX_ANSWER_DEPTH)
        except UnencodableText as e:  # a lone surrogate escape: no text, and no trace could hold it
            raise _BadAnswer("malformed", f"the response holds text that is not Unicode: {e}") from None
        except JSONTextError as e:
            raise _BadAnswer("malformed", f"the response is not valid JSON: {e}") from None
        if not isinstance(doc, dict):
            raise _BadAnswer("malformed", f"the response is not a JSON object; got {shown(doc)}")
        return self._scrub_tree(doc)

    # ------------------------------------------------------------------ requests

    def request(self, messages: list[dict[str, str]], *, seed: int | None = None, think: bool | None = None,
                max_tokens: int | None = None, logprobs: int | None = None,
                temperature: Any = "client", structured: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The fields of one call's request, as ``openai``'s ``chat.completions.create``
        takes them (``extra_body`` apart; :func:`encode_body` writes the body)
        (``structured``: the constraint's fields, :func:`baselines.llm.structured.request_fields`)."""
        kw: dict[str, Any] = {"model": self.model, "messages": messages}
        mt = self.max_tokens if max_tokens is None else max_tokens
        if mt is not None:
            kw[self._param] = mt
        t = self.resolved_temperature() if temperature == "client" else temperature
        if t is not None and not self._drop_temperature:
            kw["temperature"] = t
        if self.top_p is not None:
            kw["top_p"] = self.top_p
        if seed is not None and self.send_seed:
            kw["seed"] = int(seed)
        extra = json.loads(json.dumps(self.extra_body))  # a deep copy
        if think is not None:
            if self.reasoning_via == "reasoning_effort":
                effort = self.reasoning_effort if think else self.reasoning_effort_off
                if effort is not None:
                    kw["reasoning_effort"] = effort
            elif self.reasoning_via == "chat_template_kwargs":
                extra.setdefault("chat_template_kwargs", {})["enable_thinking"] = bool(think)
            else:
                extra["reasoning"] = {"effort": self.reasoning_effort} if think else {"enabled": False}
        if logprobs is not None:
            kw["logprobs"] = True
            kw["top_logprobs"] = int(logprobs)
        elif self.record_tokens:  # the sampled tokens' log-probabilities, and their ids where the server gives them
            kw["logprobs"] = True
            if self._token_fields:
                extra.update({field: True for field in TOKEN_ID_FIELDS})
        if structured:  # constrained decoding: response_format or the server's own field
            kw.update(json.loads(json.dumps(structured.get("top") or {})))
            extra.update(json.loads(json.dumps(structured.get("extra_body") or {})))
        if extra:
            kw["extra_body"] = extra
        return kw

    def complete(self, messages: list[dict[str, str]], *, seed: int | None = None, think: bool | None = None,
                 max_tokens: int | None = None, logprobs: int | None = None, temperature: Any = "client",
                 accept: Callable[[Any], str | None] | None = None,
                 max_retries: int | None = None, structured: Mapping[str, Any] | None = None) -> tuple[Completion, Any]:
        """One call with retries: ``(completion, last_response)``, the response being the
        last usable answer as decoded (scrubbed of the key, with attribute access:
        ``response.choices[0].logprobs``), or None. Never raises for anything the server
        sends: faults (see the module docstring) are retried (``max_retries``, default the
        client's) and run out into ``completion.failed``. ``accept(response)`` may refuse
        a response (returning the reason; raising counts as refusing), which counts as a
        retryable fault (e.g. no log-probabilities)."""
        retries = self.max_retries if max_retries is None else max_retries
        rng = random.Random(seed if seed is not None else secrets.randbits(64))
        t0 = time.perf_counter()
        comp = Completion(text="", attempts=0)
        usage = Usage()
        have_usage = False
        response = None
        attempt = 0
        spent = 0.0  # the call's time so far: its attempts, measured, and its waits, as asked of ``sleep``
        while True:
            attempt += 1
            comp.attempts = attempt
            kw = self.request(messages, seed=seed, think=think, max_tokens=max_tokens, logprobs=logprobs,
                              temperature=temperature, structured=structured)
            fault: dict[str, Any] | None = None
            retry_after: float | None = None
            retryable = True
            choice: dict[str, Any] | None = None
            t_attempt = time.monotonic()
            try:
                with self._slots:
                    doc = self._send(kw, deadline=min(self.timeout, self.call_budget - spent))
                counts = _usage_of(doc)  # a malformed usage is a fault, not a crash
                if counts is not None:  # billed, whatever the rest of the answer holds
                    have_usage = True
                    usage.prompt_tokens += counts[0]
                    usage.completion_tokens += counts[1]
                    if counts[2] is not None:
                        usage.reasoning_tokens = (usage.reasoning_tokens or 0) + counts[2]
                choice = _first_choice(doc)
                response = _namespace(doc)
            except httpx.TimeoutException as e:
                fault = {"kind": "timeout", "message": f"no whole answer within the {self.timeout:g} s deadline "
                                                       f"({type(e).__name__})"}
            except _StatusError as e:
                status = e.status_code
                fault = {"kind": "rate_limit" if status == 429 else "server_error" if status >= 500 else "http_error",
                         "status": status, "message": str(e)}
                if status == 429:
                    retry_after = _retry_after(e.headers)
                    if retry_after is not None:
                        fault["retry_after"] = retry_after
                retryable = status in _RETRY_STATUS or status >= 500
                if status == 400 and self._adapt(str(e), fault):
                    retryable = True
                if 300 <= status < 400:
                    fault.update(kind="redirect", message=self._redirect_message(e))
                    retryable = False
            except httpx.TransportError as e:  # refused, reset or cut off mid-way
                fault = {"kind": "connection", "message": f"Connection error. ({type(e).__name__}: {e})"}
            except AnswerRefused as e:  # too long, or a content coding that cannot be bounded
                fault = {"kind": e.kind, "message": str(e)}
            except _BadAnswer as e:
                fault = {"kind": e.kind, "message": str(e)}
            except Exception as e:  # noqa: BLE001 - nothing the server sends may end the game
                fault = {"kind": "client_error", "message": f"{type(e).__name__}: {e}"}
            if fault is None:
                assert choice is not None
                try:
                    refusal = accept(response) if accept is not None else None
                except Exception as e:  # noqa: BLE001 - an odd answer the check did not foresee
                    refusal = f"the response could not be checked ({type(e).__name__}: {e})"
                if refusal:
                    fault = {"kind": "unusable", "message": refusal}
                else:
                    self._fill(comp, choice)
                    if self.record_tokens and logprobs is None:
                        self._record_tokens(comp, doc, choice)
                    break
            assert fault is not None
            spent += time.monotonic() - t_attempt
            fault["attempt"] = attempt
            fault["message"] = _brief(redact(self.scrub(str(fault["message"]))))
            final = not retryable or attempt > retries
            if not final:
                delay = round(self._delay(attempt, retry_after, rng), 3)
                if retry_after is not None:  # the rounding never lifts the server's wait past its cap
                    delay = min(delay, self.max_retry_after)
                if spent + delay >= self.call_budget:  # the wait would end past the call's budget: not started
                    final = True
                    fault["budget"] = (f"a wait of {delay:g} s would end past the call budget of "
                                       f"{self.call_budget:g} s ({spent + delay:.1f} s); giving up")
                else:
                    fault["delay"] = delay
            comp.faults.append(fault)
            log.log(logging.WARNING if final else logging.INFO, "%s: attempt %d: %s%s", self.model, attempt,
                    fault["kind"], " (giving up)" if final else f", retrying in {fault['delay']:.2f} s")
            if final:
                comp.failed = True
                break
            self._sleep(fault["delay"])
            spent += fault["delay"]
        comp.usage = usage if have_usage else Usage()
        comp.seconds = time.perf_counter() - t0
        return comp, response

    def _adapt(self, message: str, fault: dict[str, Any]) -> bool:
        """Answer a 400 that names a parameter this server does not take: swap the token
        parameter's name or drop the temperature. True when the request changed."""
        m = message.lower()
        other = "max_completion_tokens" if self._param == "max_tokens" else "max_tokens"
        if self._param in m and other in m and self.token_param == "auto":
            fault["adapted"] = f"{self._param} -> {other}"
            self._param = other
            return True
        if self._token_fields and any(field in m for field in TOKEN_ID_FIELDS):
            fault["adapted"] = f"{' and '.join(TOKEN_ID_FIELDS)} dropped"
            self._token_fields = False
            return True
        if "temperature" in m and ("unsupported" in m or "not support" in m) and not self._drop_temperature:
            fault["adapted"] = "temperature dropped"
            self._drop_temperature = True
            return True
        return False

    def _delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        if retry_after is not None:
            # the server's wait, plus up to 10% so that clients told the same do not return
            # together; the cap bounds the wait itself, jitter included
            return min(retry_after * (1.0 + 0.1 * rng.random()), self.max_retry_after)
        d = min(self.backoff_max, self.backoff * (2 ** (attempt - 1)))
        return d / 2 + rng.random() * d / 2

    def _fill(self, comp: Completion, choice: Mapping[str, Any]) -> None:
        """The answer of a checked (:func:`_first_choice`), scrubbed choice."""
        msg = choice["message"]
        raw = msg.get("content") or ""
        text, think_spans = split_reasoning(raw)
        server_reasoning = None
        for name in ("reasoning_content", "reasoning"):
            v = msg.get(name)
            if isinstance(v, str) and v.strip():
                server_reasoning = v.strip()
                break
        parts = [p for p in (server_reasoning, think_spans) if p]
        comp.text = text
        comp.raw = raw
        comp.reasoning = "\n\n".join(parts) if parts else None
        finish = choice.get("finish_reason")
        comp.finish_reason = _brief(finish, 40) if isinstance(finish, str) else None
        if comp.finish_reason == "length":
            comp.faults.append({"kind": "length", "attempt": comp.attempts,
                                "message": "the answer was cut at the token limit"})

    def _record_tokens(self, comp: Completion, doc: Mapping[str, Any], choice: Mapping[str, Any]) -> None:
        """The token fields of a checked, scrubbed answer onto ``comp``
        (:func:`tokens_of`); a field the server sent in a shape that is not token ids or
        log-probabilities is left None and named in a ``tokens`` fault."""
        comp.prompt_ids, comp.completion_ids, comp.logprobs, problems = tokens_of(doc, choice)
        for problem in problems:
            comp.faults.append({"kind": "tokens", "attempt": comp.attempts, "message": _brief(problem)})

    def _redirect_message(self, e: _StatusError) -> str:
        """What a refused redirect says: the status and the host it pointed to."""
        import urllib.parse

        status = e.status_code
        try:
            location = str(e.headers.get("location") or "")
            host = urllib.parse.urlsplit(location).hostname or "?"
        except Exception:  # noqa: BLE001 - a Location that is no URL
            host = "?"
        return (f"the server answered HTTP {status}, a redirect to {shown(host)}; redirects are not followed "
                f"(the prompt and the key would be posted there)")

    def complete_many(self, items: Sequence[dict[str, Any]]) -> list[Completion]:
        """``complete(**item)`` for every item, concurrently (at most
        ``max_concurrency`` in flight), results in order."""
        if not items:
            return []
        if len(items) == 1:
            return [self.complete(**items[0])[0]]
        with ThreadPoolExecutor(max_workers=min(len(items), self.max_concurrency),
                                thread_name_prefix="llm-api") as ex:
            return [c for c, _ in ex.map(lambda kw: self.complete(**kw), items)]

    @property
    def endpoint(self) -> str:
        """The base URL requests go to (the client's default when none was given)."""
        return self._base.rstrip("/")

    def probe(self, *, connect_timeout: float = 5.0, attempts: int = 2) -> dict[str, Any]:
        """One minimal request (:data:`~negotiation_env.core.policy.PROBE_CONVERSATION`, a token limit of 1,
        through :meth:`request`, so the same model, parameters and key as play): does the
        endpoint answer this model? Run once before the first game so that a dead server
        stops the run at once instead of after every retry of every call.

        Connecting may take at most ``connect_timeout`` seconds (less if ``timeout`` is
        less); an answer may take ``timeout``, as in play. Not the retry loop of
        :meth:`complete`: a refused or timed-out connection, a read timeout, a 401/403/404
        or a reply that is not a chat completion fail at once; a 5xx is tried
        ``attempts`` times in all; a 400 that :meth:`_adapt` answers (token parameter,
        temperature) is sent again adapted, as play would; a 429 means the server is there
        but rate limited: the result says so (``"rate_limited": True``, the ``retry_after``
        it asked for in seconds or None, and a ``note``), and the caller decides whether to
        play on (each call then waits within its ``call_budget``) or stop. Returns
        ``{"url", "model", "status", "attempts", "seconds"}``; raises
        :class:`~negotiation_env.core.policy.ProbeFailed` naming the URL, never the key."""
        url = self.endpoint
        timeout = httpx.Timeout(self.timeout, connect=min(float(connect_timeout), self.timeout))
        t0 = time.perf_counter()
        attempt, adapted = 0, 0
        while True:
            attempt += 1
            kw = self.request([dict(m) for m in PROBE_CONVERSATION], max_tokens=1)
            try:
                with self._slots:
                    doc = self._send(kw, timeout=timeout)
                _first_choice(doc)
            except httpx.TimeoutException as e:
                what = type(e).__name__
                limit = timeout.connect if "Connect" in what else self.timeout
                self._probe_failed(url, f"no answer within {limit:g} s ({what})")
            except httpx.TransportError as e:
                self._probe_failed(url, f"cannot connect ({type(e).__name__}: {e})")
            except _StatusError as e:
                status = e.status_code
                if status == 429:
                    asked = _retry_after(e.headers)
                    wait = ("without saying how long to wait" if asked is None
                            else f"asking to wait {asked:.3g} s" + (f" (a wait is capped at {self.max_retry_after:g} s)"
                                                                  if asked > self.max_retry_after else ""))
                    return {"url": url, "model": self.model, "status": 429, "attempts": attempt,
                            "seconds": round(time.perf_counter() - t0, 3), "rate_limited": True,
                            "retry_after": asked,
                            "note": f"rate limited: HTTP 429, {wait}; each call waits within its call budget "
                                    f"of {self.call_budget:g} s"}
                if status == 400 and adapted < 2 and self._adapt(str(e), {}):
                    adapted += 1
                    continue
                if 300 <= status < 400:
                    self._probe_failed(url, self._redirect_message(e))
                if status >= 500 and attempt < attempts:
                    self._sleep(min(1.0, self.backoff))
                    continue
                hint = {401: " (is the key in the variable named by api_key_env right?)",
                        403: " (is the key in the variable named by api_key_env right?)",
                        404: " (is the URL right, and does the server serve this model?)"}.get(status, "")
                self._probe_failed(url, f"HTTP {status}: {_brief(str(e))}{hint}")
            except AnswerRefused as e:
                self._probe_failed(url, f"the answer was refused ({e})")
            except _BadAnswer as e:
                why = "no choices" if e.kind == "empty" else str(e)
                self._probe_failed(url, f"the answer is not a chat completion ({why})")
            except Exception as e:  # noqa: BLE001 - a probe reports, never crashes
                self._probe_failed(url, f"the answer could not be read ({type(e).__name__}: {e})")
            else:
                return {"url": redact(url), "model": self.model, "status": 200, "attempts": attempt,
                        "seconds": round(time.perf_counter() - t0, 3)}

    def _probe_failed(self, url: str, why: str) -> None:
        raise ProbeFailed(_brief(redact(self.scrub(f"model {self.model!r} at {url}: {why}")), 2 * MAX_FAULT_CHARS)) from None

    def close(self) -> None:
        self._http.close()
