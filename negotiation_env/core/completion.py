"""What one model call returned: the answer, its reasoning, token counts and faults.

:class:`Completion` is filled by every model back end (the API client of
:mod:`negotiation_env.api.client`, the local transformers policy of ``baselines.llm``)
and read by the trace recorder through ``Completion.trace_usage()``, the dict a trace
step stores as its ``tokens``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Usage", "Completion"]


@dataclass
class Usage:
    """Token counts of one call. ``reasoning_tokens`` is part of ``completion_tokens``
    (as in the OpenAI API's ``completion_tokens_details``); None when not known."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["total_tokens"] = self.total_tokens
        return d


@dataclass
class Completion:
    """One answered observation.

    text: what the env receives as the action (the model's answer with native reasoning
        removed); ``""`` when the call failed (``failed=True``), which the env treats as
        an invalid answer (retry, then forfeit or fallback).
    reasoning: model-side reasoning (``<think>`` spans, the server's
        ``reasoning_content``), never part of ``text``.
    raw: the model's text before the reasoning split.
    usage: token counts (summed over every attempt the server billed).
    faults: one dict per problem met on the way (``kind``, ``attempt``, ``message``, and
        e.g. ``status``, ``retry_after``, ``delay``): timeouts, rate limits, server
        errors, malformed or cut-off responses, a completion cut at the token limit.
    failed: retries ran out (or a fault was not retryable); ``text`` is ``""``.
    attempts: requests made (1 for a local model).
    finish_reason: the last response's, when known (``"stop"``, ``"length"``, ...).
    seconds: wall time of the call, including backoff waits.
    constrained: how the answer was constrained (constrained decoding): ``{"format":
        name of the answer format, "via": the engine or request field, "complete": the
        answer is a whole match}``; None when it was not. Stored in the trace step's
        ``tokens`` as ``constrained``.
    max_tokens, budget_from: the output-token cap the call was made under (None: none
        was sent, the server's default) and where it came from (``"policy"``,
        ``"observation"``, ``"default"``: :func:`baselines.llm.policy.token_budget`); None when the
        back end does not say. Stored in the trace step's ``tokens``.
    prompt_ids, completion_ids, logprobs: the tokens of the call, when the back end
        records them (``HFPolicy(record_tokens=True)``, :meth:`HFPolicy.from_model`),
        else None: the prompt as the model read it (the chat-template rendering, or the
        token ids the caller gave, no padding), the sampled tokens up to and including the end-of-sequence token when
        one was sampled, and each sampled token's log-probability under the
        distribution it was drawn from (log-softmax of the processed logits divided by
        the sampling temperature, before top-p truncation; temperature 1 for greedy
        decoding), one per completion token. A server (``APIClient(record_tokens=True)``)
        fills each with what it returns and leaves None what it does not; its
        log-probabilities are the server's (vLLM's default: of the raw logits, before
        the temperature). Not part of the trace.
    """

    text: str
    reasoning: str | None = None
    raw: str | None = None
    usage: Usage = field(default_factory=Usage)
    faults: list[dict[str, Any]] = field(default_factory=list)
    failed: bool = False
    attempts: int = 1
    finish_reason: str | None = None
    seconds: float = 0.0
    constrained: dict[str, Any] | None = None
    max_tokens: int | None = None
    budget_from: str | None = None
    prompt_ids: list[int] | None = None
    completion_ids: list[int] | None = None
    logprobs: list[float] | None = None

    def trace_usage(self) -> dict[str, Any]:
        """The dict the trace recorder stores as the step's ``tokens`` (via the policy's
        ``last_usage``): token counts plus the call's faults, failure flag and attempts."""
        d = self.usage.to_dict()
        d.update(attempts=self.attempts, failed=self.failed, faults=[dict(f) for f in self.faults])
        if self.constrained is not None:
            d["constrained"] = dict(self.constrained)
        if self.finish_reason is not None:
            d["finish_reason"] = self.finish_reason
        if self.budget_from is not None:
            d["max_tokens"] = self.max_tokens
            d["budget_from"] = self.budget_from
        return d
