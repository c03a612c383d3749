"""What every model-backed policy does the same way, whatever answers it.

:class:`LLMPolicy` turns observations into chat conversations
(:func:`~.prompting.conversation_of`), decides per observation whether native
reasoning is asked for (the ``reasoning`` switch), hands out one seed per call, and
keeps what the trace recorder and the lock-step runner read:

* ``last_usage`` / ``last_reasoning``: the token counts (with faults) and the reasoning
  of the *last* observation answered, read by the recorder after ``act``;
* ``last_batch_usage`` / ``last_batch_reasoning``: one entry per observation of the
  last ``act_batch`` call, in order, read by the lock-step runner so that each game's
  trace gets its own item's usage;
* ``last_completions``: the :class:`~.prompting.Completion` objects themselves.

Back ends implement :meth:`LLMPolicy._complete`: answer a list of conversations at once
(the observations come along;
``think``: per item, True/False to switch native reasoning on/off, None for the model's
default; ``seeds``: per item, the call's seed). ``act(obs)`` is ``act_batch([obs])``.

Output budget (:func:`token_budget`): a budget set on the policy (``max_new_tokens`` for
``hf:``, ``max_tokens`` for ``openai:``) caps every call; without one, a call is capped at
the observation's ``"max_tokens"`` (the rulemaking game's per-condition budget, seed 001
Table 1); without either, at the back end's default. Each :class:`~.prompting.Completion`
keeps the cap it was generated under and where it came from, which the trace step's
``tokens`` records (``max_tokens``, ``budget_from``).

Seeds: call ``i`` after ``reset(seed=s)`` uses ``call_seed(s, i)``. ``act_batch``
takes explicit per-item ``seeds`` too; the lock-step runner passes each game's own
sequence, so a game gets the same seeds whether it is played alone or in a batch.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from negotiation_env.core.policy import PROBE_CONVERSATION, BasePolicy, ProbeFailed  # noqa: F401 - re-exported

from .prompting import Completion, conversation_of, call_seed

__all__ = ["LLMPolicy", "REASONING_MODES", "reasoning_requested", "ProbeFailed", "PROBE_CONVERSATION",
           "BUDGET_SOURCES", "observation_budget", "token_budget"]

#: ``auto``: follow the observation's ``"reasoning"`` flag (the rulemaking game's
#: ``native`` condition sets it to 1, the other conditions to 0) and leave the model's
#: default where the observation has no flag; ``on`` / ``off``: always / never;
#: ``default``: never pass a reasoning option (the model's or server's default).
REASONING_MODES = ("auto", "on", "off", "default")


def reasoning_requested(observation: Any, mode: str = "auto") -> bool | None:
    """True/False to switch native reasoning on/off for ``observation``; None to leave
    the back end's default."""
    if mode == "on":
        return True
    if mode == "off":
        return False
    if mode == "default":
        return None
    flag = observation.get("reasoning") if isinstance(observation, dict) else None
    if flag is None:
        return None
    return bool(int(flag))


#: where a call's output-token cap came from: set on the policy, the observation's
#: ``"max_tokens"``, or the back end's default (for ``openai:``: none sent, the server's)
BUDGET_SOURCES = ("policy", "observation", "default")


def observation_budget(observation: Any) -> int | None:
    """The output-token budget ``observation`` carries (its ``"max_tokens"``), or None
    when it has none. Raises ``ValueError`` for a budget that is not a positive integer."""
    if not isinstance(observation, Mapping):
        return None
    value = observation.get("max_tokens")
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"observation['max_tokens'] must be a positive integer (an output-token budget); "
                         f"got {value!r}")
    return int(value)


def token_budget(observation: Any, explicit: int | None, default: int | None) -> tuple[int | None, str]:
    """``(cap, source)`` of one call: ``explicit`` (the policy's own setting) when given,
    else the observation's budget, else ``default``; ``source`` is one of
    :data:`BUDGET_SOURCES`."""
    if explicit is not None:
        return int(explicit), "policy"
    budget = observation_budget(observation)
    if budget is not None:
        return budget, "observation"
    return default, "default"


def check_reasoning_mode(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "auto"
    if value not in REASONING_MODES:
        raise ValueError(f"policy option 'reasoning' must be one of {', '.join(REASONING_MODES)} (or a bool); "
                         f"got {value!r}")
    return value


class LLMPolicy(BasePolicy):
    """Base of the model-backed policies (see the module docstring)."""

    name = "llm"

    def __init__(self, *, seed: int | None = None, reasoning: Any = "auto") -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"policy option 'seed' must be an integer or None; got {seed!r}")
        self.seed = seed
        self.reasoning = check_reasoning_mode(reasoning)
        self._calls = 0
        self.last_completions: list[Completion] = []

    # ------------------------------------------------------------------ protocol

    def reset(self, seed: int | None = None) -> None:
        """Start a new game: the call counter restarts (and the seed changes if given)."""
        if seed is not None:
            self.seed = int(seed)
        self._calls = 0
        self.last_completions = []

    def act(self, observation: Any) -> str:
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Any], *, seeds: Sequence[int | None] | None = None) -> list[str]:
        """The model's answer text for every observation, answered together."""
        completions = self.complete(observations, seeds=seeds)
        return [c.text for c in completions]

    #: whether :meth:`complete` takes ``prompt_ids`` (a back end that generates from token ids)
    takes_prompt_ids = False

    def complete(self, observations: Sequence[Any], *, seeds: Sequence[int | None] | None = None,
                 prompt_ids: Sequence[Sequence[int] | None] | None = None) -> list[Completion]:
        """Like :meth:`act_batch`, returning the full :class:`Completion` records.

        ``prompt_ids`` (back ends with :attr:`takes_prompt_ids`): per observation, the
        token ids to generate from instead of the rendering of its conversation (None: the
        rendering), as an online trainer builds a seat's next prompt from its previous
        prompt and the tokens it sampled."""
        obs = list(observations)
        if prompt_ids is not None:
            if not self.takes_prompt_ids:
                raise ValueError(f"{type(self).__name__} cannot generate from token ids (prompt_ids); it renders "
                                 "each conversation itself")
            if len(prompt_ids) != len(obs):
                raise ValueError(f"complete: {len(prompt_ids)} prompt_ids for {len(obs)} observations")
        convs = [conversation_of(o) for o in obs]
        think = [reasoning_requested(o, self.reasoning) for o in obs]
        if seeds is None:
            seeds = [call_seed(self.seed, self._calls + i) for i in range(len(obs))]
            self._calls += len(obs)
        elif len(seeds) != len(obs):
            raise ValueError(f"act_batch: {len(seeds)} seeds for {len(obs)} observations")
        extra = {} if prompt_ids is None else {"prompt_ids": list(prompt_ids)}
        out = self._complete(obs, convs, think, list(seeds), **extra) if obs else []
        self.last_completions = out
        return out

    def probe(self) -> dict[str, Any]:  # pragma: no cover - every back end has its own
        """One minimal call (a token or so) to check that the model answers before any game
        is played; returns what it learnt (``seconds``, ...), raises :class:`ProbeFailed`.
        It changes nothing a game sees (no seed, no call counter, no ``last_*``)."""
        raise NotImplementedError

    def _complete(self, observations: list[Any], conversations: list[list[dict[str, str]]],
                  think: list[bool | None], seeds: list[int | None]) -> list[Completion]:  # pragma: no cover
        """One :class:`Completion` per item, in order (the observations are given for
        back ends that look at more than the conversation, e.g. intervention filters)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ what the recorder reads

    @property
    def last_usage(self) -> dict[str, Any] | None:
        return self.last_completions[-1].trace_usage() if self.last_completions else None

    @property
    def last_reasoning(self) -> str | None:
        return self.last_completions[-1].reasoning if self.last_completions else None

    @property
    def last_batch_usage(self) -> list[dict[str, Any]]:
        return [c.trace_usage() for c in self.last_completions]

    @property
    def last_batch_reasoning(self) -> list[str | None]:
        return [c.reasoning for c in self.last_completions]
