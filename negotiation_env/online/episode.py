"""What one learner seat lived through in one game, at the token level, and the two
shapes a trainer takes it in.

An :class:`Episode` holds, per turn of the seat, the exact tokens the model read
(``prompt_ids``: the chat-template rendering of the conversation the env gave the seat,
system prompt included), the tokens it sampled (``completion_ids``, up to and including
the end-of-sequence token when one was sampled) and their log-probabilities, whether
the env accepted the answer, the events of the step and the reward that followed it.

Two conversions:

* :func:`to_samples`: one :class:`Sample` per turn (``prompt_ids``, ``completion_ids``,
  ``logprobs``), always exact: each turn is trained on the context it was generated
  from.
* :func:`to_stream`: the whole episode as one token stream (the first prompt, then
  every completion and the env text between them), with an environment mask (1 on the
  model's tokens, 0 on the env's). Exact only when every turn's prompt starts with the
  previous turn's prompt and completion (:attr:`Episode.append_only`); otherwise the
  stream would train on contexts the model never saw, and it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

__all__ = ["Turn", "Episode", "Sample", "Stream", "NotAppendOnly", "to_samples", "to_stream", "extends"]


@dataclass
class Turn:
    """One answer of the learner seat.

    context: the conversation the seat saw (chat messages, system prompt first), which
        ``prompt_ids`` renders. text: the answer the env received: the model's whole
        answer as generated (the completion's ``raw`` text: reasoning spans and
        surrounding whitespace included, the end-of-sequence token left out), which the
        env parses by its own rules and keeps verbatim in the seat's later context.
    valid: the env accepted the answer (no validation error among ``events``).
    reward: the seat's reward from this answer until its next one (or the game's end).
    prompt_built: how ``prompt_ids`` was made: ``"extended"``, the previous turn's
        ``prompt_ids`` and ``completion_ids`` followed by the tokens of what the chat
        template renders after them (the context is the previous one, the answer as sent,
        then new messages; :func:`~.tokens.continue_prompt`), or ``"rendered"``, the
        tokens of the context's whole rendering (a first turn, a context the game
        rebuilt or reset, or a learner that does not build prompts from tokens). Either
        way ``prompt_ids`` decodes to the rendering of ``context``."""

    prompt_ids: list[int]
    completion_ids: list[int]
    logprobs: list[float]
    text: str
    valid: bool
    events: list[dict[str, Any]]
    reward: float = 0.0
    context: list[dict[str, str]] = field(default_factory=list, repr=False)
    prompt_built: str = "rendered"


def extends(prefix_ids: Sequence[int], completion_ids: Sequence[int], prompt_ids: Sequence[int]) -> bool:
    """Whether ``prompt_ids`` starts with ``prefix_ids + completion_ids``: the next
    context holds the earlier one and the answer exactly as the model generated it."""
    n, m = len(prefix_ids), len(completion_ids)
    return (len(prompt_ids) >= n + m and list(prompt_ids[:n]) == list(prefix_ids)
            and list(prompt_ids[n:n + m]) == list(completion_ids))


@dataclass
class Episode:
    """One learner seat's game (module docstring).

    game, config, seat (the agent name), seed (the env's reset seed), repeat (which
    play of that seed: plays of one seed start from the same state and differ in the
    learner's sampling), turns, game_return (the seat's whole reward in the game, every
    reward before its first turn included), truncated (the game was cut at the step
    cap before it ended), joint_efficiency (where the game scores rounds by joint
    efficiency, the resource game: the mean over its played rounds of the joint reward
    over the round's joint optimum; None in games without it)."""

    game: str
    config: dict[str, Any]
    seat: str
    seed: int
    repeat: int
    turns: list[Turn]
    game_return: float
    truncated: bool = False
    joint_efficiency: float | None = None

    @property
    def append_only(self) -> bool:
        """Every turn's ``prompt_ids`` start with the previous turn's ``prompt_ids`` and
        ``completion_ids`` (True for an episode of one turn or none)."""
        return not self.breaks

    @property
    def breaks(self) -> list[int]:
        """The turns (indices from 1) whose prompt does not extend the previous turn's
        prompt and completion."""
        return [k for k in range(1, len(self.turns))
                if not extends(self.turns[k - 1].prompt_ids, self.turns[k - 1].completion_ids,
                               self.turns[k].prompt_ids)]

    @property
    def valid_share(self) -> float | None:
        """The share of turns the env accepted; None without turns."""
        return sum(t.valid for t in self.turns) / len(self.turns) if self.turns else None


@dataclass
class Sample:
    """One turn as a training sample: the context's tokens, the sampled tokens and their
    log-probabilities; ``turn`` its index in the episode, ``reward`` its turn reward."""

    prompt_ids: list[int]
    completion_ids: list[int]
    logprobs: list[float]
    turn: int
    reward: float


@dataclass
class Stream:
    """A whole append-only episode as one sequence, in the shape of TRL's
    ``rollout_func`` rows: ``prompt_ids`` (the first turn's prompt), ``completion_ids``
    (everything after it), ``env_mask`` (per completion token: 1 where the model
    sampled it, 0 where the env wrote it) and ``logprobs`` (per completion token: the
    sampled log-probability, 0.0 on env tokens)."""

    prompt_ids: list[int]
    completion_ids: list[int]
    env_mask: list[int]
    logprobs: list[float]


class NotAppendOnly(ValueError):
    """The episode's contexts are not one growing token sequence: no single stream holds
    them (use :func:`to_samples`)."""


def to_samples(episode: Episode) -> list[Sample]:
    """One :class:`Sample` per turn of ``episode``, in order."""
    return [Sample(list(t.prompt_ids), list(t.completion_ids), list(t.logprobs), k, t.reward)
            for k, t in enumerate(episode.turns)]


def to_stream(episode: Episode) -> Stream:
    """``episode`` as one token stream with an environment mask (:class:`Stream`).
    Raises :class:`NotAppendOnly` naming the first turn that breaks the prefix, and
    ``ValueError`` for an episode without turns."""
    if not episode.turns:
        raise ValueError(f"episode of {episode.seat} (game {episode.game}, seed {episode.seed}) has no turns: "
                         "there is no stream to build")
    breaks = episode.breaks
    if breaks:
        k = breaks[0]
        raise NotAppendOnly(
            f"episode of {episode.seat} (game {episode.game}, seed {episode.seed}) is not append-only: turn {k}'s "
            f"prompt does not start with turn {k - 1}'s prompt and completion ({len(breaks)} of "
            f"{len(episode.turns) - 1} later turns break the prefix); train on to_samples(episode) instead")
    first = episode.turns[0]
    seq = list(first.prompt_ids)
    completion: list[int] = []
    mask: list[int] = []
    logprobs: list[float] = []
    for k, t in enumerate(episode.turns):
        if k:
            env = t.prompt_ids[len(seq):]
            seq.extend(env)
            completion.extend(env)
            mask.extend([0] * len(env))
            logprobs.extend([0.0] * len(env))
        seq.extend(t.completion_ids)
        completion.extend(t.completion_ids)
        mask.extend([1] * len(t.completion_ids))
        logprobs.extend(t.logprobs)
    return Stream(prompt_ids=list(first.prompt_ids), completion_ids=completion, env_mask=mask, logprobs=logprobs)
