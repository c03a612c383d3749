"""What both LLM back ends share: reading the chat out of an observation, splitting
native reasoning from the answer, and the per-call record runners store.

* :func:`conversation_of` turns any observation of this package into chat messages.
  Every game's observation is a dict whose ``"conversation"`` is the whole chat the env
  holds for the agent (the env owns context resets and history windows), ending with
  the pending user prompt; a bare string or a dict with only ``"prompt"`` becomes one
  user message. Policies read nothing else.
* :func:`split_reasoning` (:func:`negotiation_env.core.thinking.split_reasoning`)
  separates ``<think>`` spans from the answer with the one splitter of the package, the
  rule every game applies too: spans (nested ones whole), an unclosed ``<think>`` suffix
  and everything before an orphan ``</think>`` (chat templates that put ``<think>`` in
  the prompt, e.g. Qwen3 with ``enable_thinking``) are reasoning.
* :class:`Usage` and :class:`Completion` (:mod:`negotiation_env.core.completion`, where
  the API client that fills them lives too) are what a policy knows about one call:
  the answer text the env receives, the reasoning kept apart from it, token counts,
  and every fault met on the way (API back end). ``Completion.trace_usage()`` is the
  dict the trace recorder stores as the step's ``tokens``.
* :class:`ActionProbs` and :func:`renormalise` are the first-token action policy of
  seed 002, A.4 (Eq. S2): probabilities over the valid action tokens only, with the
  interval-censoring rule for a choice missing from a server's top log-probabilities.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from negotiation_env.core.completion import Completion, Usage  # noqa: F401 - re-exported
from negotiation_env.core.policy import call_seed  # noqa: F401 - re-exported
from negotiation_env.core.thinking import split_reasoning  # noqa: F401 - re-exported

__all__ = ["ROLES", "conversation_of", "split_reasoning", "Usage", "Completion", "call_seed", "ActionProbs",
           "renormalise"]

ROLES = ("system", "user", "assistant")


def _message(m: Any, i: int) -> dict[str, str]:
    if not isinstance(m, Mapping):
        raise ValueError(f"observation['conversation'][{i}] must be a {{'role', 'content'}} mapping; got {type(m).__name__}")
    role, content = m.get("role"), m.get("content")
    if role not in ROLES:
        raise ValueError(f"observation['conversation'][{i}]['role'] must be one of {', '.join(ROLES)}; got {role!r}")
    if not isinstance(content, str):
        raise ValueError(f"observation['conversation'][{i}]['content'] must be a string; got {type(content).__name__}")
    return {"role": role, "content": content}


def conversation_of(observation: Any) -> list[dict[str, str]]:
    """The chat messages a model answers, from an observation of any game.

    Accepts the package's observation dict (``"conversation"``, else ``"prompt"``) or a
    plain prompt string. Raises ``ValueError`` naming the field when there is nothing to
    answer (an empty conversation, or one whose last message is the model's own)."""
    if isinstance(observation, str):
        return [{"role": "user", "content": observation}]
    if not isinstance(observation, Mapping):
        raise ValueError(f"an LLM policy reads a dict observation with 'conversation' or a prompt string; "
                         f"got {type(observation).__name__}")
    conv = observation.get("conversation")
    if conv is not None:
        msgs = [_message(m, i) for i, m in enumerate(conv)]
        if not msgs:
            raise ValueError("observation['conversation'] is empty: nothing to answer (is this agent acting?)")
        if msgs[-1]["role"] == "assistant":
            raise ValueError("observation['conversation'] ends with an assistant message: nothing to answer")
        return msgs
    prompt = observation.get("prompt")
    if isinstance(prompt, str) and prompt:
        return [{"role": "user", "content": prompt}]
    raise ValueError("observation has neither a 'conversation' nor a non-empty 'prompt'")


@dataclass
class ActionProbs:
    """The renormalised first-token policy over the valid action tokens (seed 002, A.4).

    probs: ``{choice: probability}``, summing to 1 over ``choices``.
    logprobs: ``{choice: log-probability}`` as the model or server gave it (the full
        first-token distribution's, before renormalisation); None for a choice missing
        from a server's top log-probabilities.
    censored: a choice was missing, so its log-probability is known only to be at most
        ``floor`` (the lowest returned); ``probs`` then holds the endpoint of the
        identification interval nearest to an even split (A.4's conservative rule).
    interval: ``(low, high)`` of the first choice's probability: a point when nothing
        is censored.
    floor: the lowest log-probability the server returned (None for a local model).
    usage: token counts of the call (None for a local model).
    """

    choices: tuple[str, ...]
    probs: dict[str, float]
    logprobs: dict[str, float | None]
    censored: bool = False
    interval: tuple[float, float] | None = None
    floor: float | None = None
    usage: dict[str, Any] | None = None

    @property
    def p(self) -> float:
        """Probability of the first choice (P(A) for choices ("A", "B"))."""
        return self.probs[self.choices[0]]

    @property
    def margin(self) -> float | None:
        """``logprob(first) - logprob(second)`` (the A-B logit margin: the softmax
        normaliser cancels); None when censored or with fewer than two choices."""
        if len(self.choices) < 2:
            return None
        a, b = self.logprobs.get(self.choices[0]), self.logprobs.get(self.choices[1])
        return None if a is None or b is None else a - b

    def to_dict(self) -> dict[str, Any]:
        return {"choices": list(self.choices), "probs": dict(self.probs), "logprobs": dict(self.logprobs),
                "censored": self.censored, "interval": list(self.interval) if self.interval else None,
                "floor": self.floor}


def _softmax(values: Sequence[float]) -> list[float]:
    m = max(values)
    e = [math.exp(v - m) for v in values]
    s = sum(e)
    return [x / s for x in e]


def renormalise(logprobs: Mapping[str, float | None], choices: Sequence[str], floor: float | None = None) -> ActionProbs:
    """:class:`ActionProbs` from (possibly incomplete) log-probabilities of ``choices``.

    A choice whose log-probability is None is censored: it is at most ``floor`` (the
    lowest log-probability the server returned). For two choices the first choice's
    probability is then known only to lie in an interval, one end of which is the
    censored choice at ``floor`` and the other the censored choice at probability 0;
    the reported probability is the endpoint nearest 0.5 (A.4). With more than two
    choices every censored choice is set to ``floor`` (the most even assignment).
    Raises ``ValueError`` when no choice has a log-probability, or when one is censored
    and ``floor`` is None."""
    choices = tuple(choices)
    if len(choices) < 2 or len(set(choices)) != len(choices):
        raise ValueError(f"choices must be at least two distinct actions; got {choices!r}")
    lp = {c: (None if logprobs.get(c) is None else float(logprobs[c])) for c in choices}
    known = [c for c in choices if lp[c] is not None]
    if not known:
        raise ValueError(f"none of the choices {', '.join(choices)} has a log-probability")
    missing = [c for c in choices if lp[c] is None]
    if missing and floor is None:
        raise ValueError(f"choices {', '.join(missing)} have no log-probability and no floor was given")
    filled = [lp[c] if lp[c] is not None else float(floor) for c in choices]
    probs = dict(zip(choices, _softmax(filled)))
    interval: tuple[float, float] | None
    if not missing:
        interval = (probs[choices[0]], probs[choices[0]])
    elif len(choices) == 2:
        at_floor = probs[choices[0]]
        at_zero = 1.0 if choices[0] in known else 0.0  # the censored choice's mass goes to 0
        interval = (min(at_floor, at_zero), max(at_floor, at_zero))
        # the endpoint nearest an even split is the one with the censored choice at the floor
        nearest = min((at_floor, at_zero), key=lambda v: abs(v - 0.5))
        probs = {choices[0]: nearest, choices[1]: 1.0 - nearest}
    else:
        interval = None
    return ActionProbs(choices=choices, probs=probs, logprobs=lp, censored=bool(missing), interval=interval,
                       floor=floor)
