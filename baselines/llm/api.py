"""Any OpenAI-compatible chat-completions server as a policy (the ``api`` extra): OpenAI,
vLLM, SGLang, Ollama, OpenRouter.

    policy = APIPolicy(model="gpt-5-mini", api_key_env="OPENAI_API_KEY", max_tokens=4096)
    policy = APIPolicy(model="qwen3-8b", base_url="http://localhost:8000/v1", temperature=0.7)

Requests go through :class:`~negotiation_env.api.client.APIClient`, the one client of the
code base (the LLM judge uses it too): retries with backoff and jitter, a concurrency
limit, the token-limit and temperature rules of seed 000, Appendix B, native reasoning
kept apart from the answer, bounded and checked answers from hostile servers, and the
API key kept out of settings, faults, logs and traces (its module docstring says how).
The client, :func:`api_key_from_env` and the client's constants are importable from
here too.
"""

from __future__ import annotations

import inspect
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

from negotiation_env.traces.schema import redact

from .policy import PROBE_CONVERSATION, LLMPolicy, ProbeFailed, reasoning_requested, token_budget  # noqa: F401
from .prompting import ActionProbs, Completion, conversation_of, call_seed, renormalise

try:
    import openai  # noqa: F401 - the client needs it; named here so the error names this module
except ImportError as _e:  # pragma: no cover - depends on the install
    raise ImportError(f"baselines.llm.api needs the openai client ({_e}); "
                      "install the extra: pip install 'negotiation_env[api]'") from None

from negotiation_env.api.client import (  # noqa: E402, F401 - re-exported
    DEFAULT_TEMPERATURE, EFFORTS, MAX_ANSWER_DEPTH, MAX_FAULT_CHARS, MAX_RESPONSE_BYTES, REASONING_VIA, TOKEN_PARAMS,
    APIClient, _number, api_key_from_env, uses_completion_tokens)

__all__ = ["APIClient", "APIPolicy", "api_key_from_env", "LogprobsUnavailable", "TOKEN_PARAMS", "REASONING_VIA",
           "uses_completion_tokens"]


class LogprobsUnavailable(RuntimeError):
    """The server returned no usable log-probabilities for the action tokens."""


def _with_budgets(completions: list[Completion], budgets: list[tuple[int | None, str]]) -> list[Completion]:
    """Each completion with the output-token cap its request was sent with (the trace keeps it)."""
    for comp, (cap, source) in zip(completions, budgets):
        comp.max_tokens, comp.budget_from = cap, source
    return completions


class APIPolicy(LLMPolicy):
    """A chat model behind an OpenAI-compatible server, as a policy: ``act`` sends the
    conversation the env holds for the agent and returns the raw answer text; faults are
    retried (:class:`APIClient`) and recorded; a call that runs out of retries answers
    ``""``, which the env treats as an invalid answer (retry, then its fallback).

    Options are :class:`APIClient`'s plus ``seed`` and ``reasoning`` (see
    :mod:`.policy`) and ``top_logprobs`` (for :meth:`action_probs`, default 20).

    Output budget: ``max_tokens`` set on the policy caps every request; left at None
    (the default), a request is capped at its observation's ``"max_tokens"`` (the
    rulemaking game's per-condition budget), and without one none is sent (the server's
    default). The cap sent and its source reach the trace step's ``tokens``.

    Constrained decoding (:mod:`.structured`): ``constrained`` (True: each request
    carries the observation's answer format, the strict legal-actions-only one where
    the game has one; ``"schema"``: the form only), ``constrained_via``
    (``response_format``, default; ``structured_outputs`` or ``guided`` for vLLM's own
    fields), ``constrained_text_chars`` (cap on free-text fields; default none). With it
    on, :meth:`probe` also checks that the server follows the field."""

    name = "api"

    def __init__(self, model: str, base_url: str | None = None, *, seed: int | None = None, reasoning: Any = "auto",
                 top_logprobs: int = 20, constrained: Any = False, constrained_via: str = "response_format",
                 constrained_text_chars: int | None = None, **options: Any) -> None:
        for secret in ("api_key", "key", "token", "password"):
            if secret in options:
                raise ValueError(f"APIPolicy does not take {secret!r}: keys come from the environment; set "
                                 f"'api_key_env' to the name of the variable that holds it (default OPENAI_API_KEY)")
        super().__init__(seed=seed, reasoning=reasoning)
        self.top_logprobs = _number("top_logprobs", top_logprobs, 1, integer=True)
        # --- constrained decoding (baselines.llm.structured)
        from .structured import check_via

        if constrained not in (False, True, None, "strict", "schema"):
            raise ValueError(f"API option 'constrained' must be true, false, 'strict' or 'schema'; got {constrained!r}")
        self.constrained = "strict" if constrained in (True, "strict") else ("schema" if constrained == "schema" else False)
        self.constrained_via = check_via(constrained_via)
        self.constrained_text_chars = None if constrained_text_chars is None else _number(
            "constrained_text_chars", constrained_text_chars, 1, integer=True)
        # ---
        try:
            self.client = APIClient(model, base_url, **options)
        except TypeError as e:
            raise ValueError(f"APIPolicy: {e}") from None

    @classmethod
    def option_names(cls) -> list[str]:
        """The options a run config may give this policy: its own and :class:`APIClient`'s
        (the model and URL come from the spec; keys never come from a file)."""
        names = []
        for fn in (cls.__init__, APIClient.__init__):
            for p in inspect.signature(fn).parameters.values():
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in names:
                    names.append(p.name)
        return [n for n in names if n not in ("self", "model", "base_url", "api_key", "sleep")]

    @property
    def model(self) -> str:
        return self.client.model

    def probe(self) -> dict[str, Any]:
        """:meth:`APIClient.probe`: one request of a token before play; with
        ``constrained``, then one short request under a probe schema (and, for vLLM's
        fields, a probe regex) whose answer must follow it (:func:`.structured.probe_requests`):
        a server that refuses or ignores the field raises :class:`ProbeFailed`."""
        out = self.client.probe()
        if self.constrained:  # --- constrained decoding
            from .structured import probe_failure, probe_requests

            for what, fields, expected in probe_requests(self.constrained_via):
                comp, _ = self.client.complete([dict(m) for m in PROBE_CONVERSATION], max_tokens=32,
                                               structured=fields, max_retries=0)
                why = (f"the request with {what} as {self.constrained_via} failed: "
                       f"{comp.faults[-1]['message'] if comp.faults else 'no answer'}") if comp.failed else \
                    probe_failure(self.constrained_via, what, comp.text, expected)
                if why:
                    self.client._probe_failed(self.client.endpoint, why)
            out["constrained"] = self.constrained_via
        return out

    def settings(self) -> dict[str, Any]:
        return {**self.client.settings(), "reasoning": self.reasoning, "top_logprobs": self.top_logprobs,
                "constrained": self.constrained, "constrained_via": self.constrained_via,
                "constrained_text_chars": self.constrained_text_chars}

    def __repr__(self) -> str:
        return (f"APIPolicy(model={redact(self.client.model)!r}, base_url={redact(self.client.base_url)!r}, "
                f"seed={self.seed})")

    def output_budget(self, observation: Any) -> tuple[int | None, str]:
        """``(cap, source)`` of the request for ``observation``: the client's ``max_tokens``
        when set, else the observation's ``"max_tokens"``, else None (none sent: the
        server's default); :func:`~.policy.token_budget`."""
        return token_budget(observation, self.client.max_tokens, None)

    def _complete(self, observations, conversations, think, seeds):
        budgets = [self.output_budget(o) for o in observations]
        if not self.constrained:
            out = self.client.complete_many([{"messages": c, "think": t, "seed": s, "max_tokens": b[0]}
                                             for c, t, s, b in zip(conversations, think, seeds, budgets)])
            return _with_budgets(out, budgets)
        # --- constrained decoding: each request carries its observation's format
        from negotiation_env.core.answer_format import answer_format

        from .structured import record, request_fields

        formats = [answer_format(o, text_chars=self.constrained_text_chars) for o in observations]
        formats = [None if f is None else f.best(self.constrained == "strict") for f in formats]
        fields = [None if f is None else request_fields(f, self.constrained_via) for f in formats]
        out = self.client.complete_many([{"messages": c, "think": t, "seed": s, "structured": x, "max_tokens": b[0]}
                                         for c, t, s, x, b in zip(conversations, think, seeds, fields, budgets)])
        for comp, f, x in zip(out, formats, fields):
            if f is not None:
                comp.constrained = record(f, self.constrained_via, comp.text, x is not None)
        return _with_budgets(out, budgets)

    # ------------------------------------------------------------------ log-probabilities

    def action_probs(self, observation: Any, choices: Sequence[str] = ("A", "B"), *,
                     max_attempts: int = 3) -> ActionProbs:
        """The renormalised first-token action policy from the server's top
        log-probabilities (seed 002, A.4): one generated token, ``top_logprobs``
        candidates; a choice's log-probability is the log-sum of the candidates that are
        the choice up to surrounding whitespace (``"A"``, ``" A"``). A choice outside the
        returned window is interval-censored at the lowest returned log-probability
        (:func:`~.prompting.renormalise`). A response without log-probabilities or
        without any choice among them is retried (``max_attempts`` in all, as the paper's
        replay runner); then :class:`LogprobsUnavailable` is raised."""
        return self.action_probs_batch([observation], choices, max_attempts=max_attempts)[0]

    def action_probs_batch(self, observations: Sequence[Any], choices: Sequence[str] = ("A", "B"), *,
                           max_attempts: int = 3) -> list[ActionProbs]:
        """:meth:`action_probs` for each observation, sent concurrently."""
        choices = tuple(choices)
        obs = list(observations)
        seeds = [call_seed(self.seed, self._calls + i) for i in range(len(obs))]
        if self.seed is not None:
            self._calls += len(obs)
        items = [(o, s) for o, s in zip(obs, seeds)]
        if len(items) <= 1:
            return [self._probs(o, s, choices, max_attempts) for o, s in items]
        with ThreadPoolExecutor(max_workers=min(len(items), self.client.max_concurrency),
                                thread_name_prefix="llm-api") as ex:
            return list(ex.map(lambda it: self._probs(it[0], it[1], choices, max_attempts), items))

    def _probs(self, observation: Any, seed: int | None, choices: tuple[str, ...], max_attempts: int) -> ActionProbs:
        found: dict[str, Any] = {}

        def accept(resp: Any) -> str | None:
            try:
                top = resp.choices[0].logprobs.content[0].top_logprobs
                pairs = [(str(t.token), float(t.logprob)) for t in top]
            except (AttributeError, IndexError, TypeError, ValueError):
                return "the response has no log-probabilities"
            if not pairs:
                return "the response has no top log-probabilities"
            lp: dict[str, float | None] = {}
            for c in choices:
                vals = [v for tok, v in pairs if tok.strip() == c]
                lp[c] = math.log(sum(math.exp(v) for v in vals)) if vals else None
            if all(v is None for v in lp.values()):
                return f"none of {', '.join(choices)} is among the top {len(pairs)} first tokens"
            found["lp"], found["floor"] = lp, min(v for _, v in pairs)
            return None

        comp, _ = self.client.complete(conversation_of(observation), seed=seed,
                                       think=reasoning_requested(observation, self.reasoning), max_tokens=1,
                                       logprobs=self.top_logprobs, accept=accept, max_retries=max(0, max_attempts - 1))
        if comp.failed or "lp" not in found:
            last = comp.faults[-1]["message"] if comp.faults else "no answer"
            raise LogprobsUnavailable(f"{self.client.model}: no usable log-probabilities after {comp.attempts} "
                                      f"attempts ({last})")
        out = renormalise(found["lp"], choices, floor=found["floor"])
        out.usage = comp.trace_usage()
        return out
