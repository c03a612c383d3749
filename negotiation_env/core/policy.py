"""The policy protocol: anything with ``act(observation) -> action``.

Policies read only the observation the env hands them (the env owns memory: context
resets and history windows). ``act_batch`` serves many games at once; the default maps
``act`` over the batch, and LLM back ends override it to batch model calls.

Optional parts a runner uses when a policy has them:

* ``reset(seed=...)``: called before each game by the runner for model-backed policies.
* ``last_usage`` / ``last_reasoning``: after ``act``, the call's token counts (a dict,
  stored as the trace step's ``tokens``) and model-side reasoning text.
* ``last_batch_usage`` / ``last_batch_reasoning``: after ``act_batch``, one entry per
  observation, in order. A policy that reports ``last_usage`` but not these is driven
  one observation at a time by the lock-step runner, so that no game gets another
  game's usage.
* ``act_batch(observations, seeds=[...])``: per-observation call seeds. A policy that
  accepts them promises that the answer to an observation depends only on it and its
  seed, not on the rest of the batch (up to floating-point effects of batching). Call
  ``i`` of a game after ``reset(seed=s)`` uses ``call_seed(s, i)``; the lock-step
  runner passes each game's own sequence, so batched and one-by-one play agree.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

__all__ = ["Policy", "BasePolicy", "call_seed", "ProbeFailed", "PROBE_CONVERSATION", "compact_conversation"]

#: what a model-backed policy's ``probe()`` sends: one short user turn (the answer is not
#: read, only that one comes)
PROBE_CONVERSATION = ({"role": "user", "content": "Reply with OK."},)


class ProbeFailed(RuntimeError):
    """The model did not answer the one short call made before play (``probe()``); the
    message names the model and where it was asked (never a key)."""


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: Any) -> Any: ...

    def act_batch(self, observations: Sequence[Any]) -> list[Any]: ...


class BasePolicy:
    """Convenience base: subclasses implement :meth:`act`."""

    name = "policy"

    def act(self, observation: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def act_batch(self, observations: Sequence[Any]) -> list[Any]:
        return [self.act(o) for o in observations]

    def __call__(self, observation: Any) -> Any:
        return self.act(observation)


def call_seed(seed: int | None, index: int) -> int | None:
    """The seed of a policy's ``index``-th call in a game: a fixed mix (splitmix64) of
    the policy seed and the call index, so consecutive calls differ and a reset replays
    them; None without a policy seed."""
    if seed is None:
        return None
    x = (int(seed) * 0x9E3779B97F4A7C15 + int(index) * 0xBF58476D1CE4E5B9 + 1) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 31
    x = (x * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 29
    return int(x & 0x7FFFFFFF)


def compact_conversation(conversation: Sequence[dict[str, str]], keep: int | None) -> list[dict[str, str]]:
    """The system message(s) at the start of ``conversation`` and its last ``keep``
    other messages (all of them when ``keep`` is None): HFPolicy's ``context_messages``,
    and what ``negotiation-env train sft --context`` trains on. The last message (the
    prompt being answered) is always kept."""
    conv = [dict(m) for m in conversation]
    if keep is None:
        return conv
    head = 0
    while head < len(conv) and conv[head]["role"] == "system":
        head += 1
    return conv[:head] + conv[head:][-keep:]
