"""The small game protocol the generic PettingZoo adapters run.

A game is a state machine that says, at every moment, which agents it is waiting for
(:meth:`Game.acting`) and takes one agent's action at a time (:meth:`Game.step`).
Alternating talk has one acting agent; a simultaneous decision has several, and the
game buffers each decision hidden from the others until all are in. The adapters in
:mod:`.adapters` add nothing to the rules: they only map this protocol onto
PettingZoo's two APIs, so every game gets both for free and they cannot disagree.

:class:`Game` is the whole contract. The conversation bookkeeping the games share
(events, transcript, per-agent chat, observation assembly) is the opt-in base
:class:`~.chat.ChatGame`; a game may subclass :class:`Game` directly instead.
"""

from __future__ import annotations

import abc
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import numpy as np
from gymnasium import spaces

from .answers import cut
from .encodable import replace_unencodable

__all__ = ["Game", "NO_REWARDS"]

#: what :meth:`Game.step` returns when the step resolved nothing: no agent's reward
#: (each reads as 0.0), one shared read-only mapping, so the adapters know without
#: looking that the step's rewards are all zero
NO_REWARDS: Mapping[str, float] = MappingProxyType({})


def joined_prompt(state: Any) -> dict[str, str]:
    """``state.pending`` (the env text waiting for an agent, not empty) as one user
    message, kept in ``state.pending_message`` as (pending list, its length, message)
    while ``pending`` is the same list with the same length (it is only appended to,
    extended or replaced), so observe() and the commit that follows join the prompt
    once. One copy for every game's per-agent state."""
    kept, pending = state.pending_message, state.pending
    if kept is None or kept[0] is not pending or kept[1] != len(pending):
        kept = state.pending_message = (pending, len(pending), {"role": "user", "content": "\n\n".join(pending)})
    return kept[2]


class Game(abc.ABC):
    """Base class of every game. Subclasses build their spaces once, in ``__init__``.

    The methods marked abstract are the protocol the adapters run; :meth:`_event` is
    what :meth:`_kept` and :meth:`_encodable` record through (a game that uses them
    defines it; :class:`~.chat.ChatGame` does)."""

    def _event(self, agent: str, kind: str, **fields: Any) -> None:  # pragma: no cover - every game has its own
        """Record an event of ``agent``'s step (a dict with ``type``, ``agent``, where
        in the game it happened and ``fields``) in its ``info["events"]``."""
        raise NotImplementedError

    def _kept(self, agent: str, text: str, limit: int) -> str:
        """``text`` as the game keeps it (conversation, retry messages, events, last turn):
        at most ``limit`` characters and a marker (:func:`~.answers.cut`), with an
        ``answer_truncated`` event when it was cut."""
        kept, length = cut(text, limit)
        if length is not None:
            self._event(agent, "answer_truncated", length=length, limit=limit)
        return kept

    @staticmethod
    def _encodable_parts(action: Any) -> tuple[Any, dict[str, Any] | None]:
        """``(action, event fields)``: ``action`` with every surrogate code point in its
        text (a string, or the strings of a structured action, keys included) replaced by
        U+FFFD, and the fields of its ``answer_unencodable`` event (``count``: how many,
        ``fields``: where in a structured action), None when there was none
        (:mod:`.encodable`). Such a code point is no character and cannot be written: it
        would reach the partner's prompt, the events and the trace. Free on ASCII text
        and on a structured action of ASCII strings and numbers."""
        if type(action) is str:
            if action.isascii():
                return action, None
        elif type(action) is dict:
            for k, v in action.items():
                if type(k) is not str or not k.isascii():
                    break
                tv = type(v)
                if tv is str:
                    if not v.isascii():
                        break
                elif tv is dict or tv is list or tv is tuple or isinstance(v, str):
                    break
            else:
                return action, None
        fixed, count, paths = replace_unencodable(action)
        if not count:
            return action, None
        fields: dict[str, Any] = {"count": count}
        if type(action) is not str:
            fields["fields"] = paths
        fields["message"] = f"{count} surrogate code point(s) without their pair (no characters) replaced by U+FFFD"
        return fixed, fields

    def _encodable(self, agent: str, action: Any) -> Any:
        """:meth:`_encodable_parts`, its event recorded."""
        fixed, fields = self._encodable_parts(action)
        if fields is not None:
            self._event(agent, "answer_unencodable", **fields)
        return fixed

    #: PettingZoo metadata ("name" is the env id, e.g. "resource_v1")
    metadata: dict[str, Any] = {}
    possible_agents: tuple[str, ...] = ()

    @abc.abstractmethod
    def observation_space(self, agent: str) -> spaces.Space: ...

    @abc.abstractmethod
    def action_space(self, agent: str) -> spaces.Space: ...

    @abc.abstractmethod
    def reset(self, rng: np.random.Generator) -> None:
        """Start a new game; all randomness comes from ``rng`` (never a global stream).

        A reset game plays exactly as a newly built one of the same config: ``reset``
        rebuilds every part of the game's state (round, phase, conversations, events,
        transcript, scores, everything a step or an observation reads), whatever the
        previous game left, finished or not. What the game object keeps from one game
        to the next (rendered texts, parsed answers) is keyed by everything it is made
        from, so a kept value is the value a new object would make. The runner relies on
        this to play many games on one env (``runner.playing``), and
        :func:`negotiation_env.testing.check_game` plays a reused env against a new one."""

    @abc.abstractmethod
    def acting(self) -> tuple[str, ...]:
        """Agents whose action the game awaits now, in the order the AEC env asks them.
        Empty once the game is over."""

    @abc.abstractmethod
    def step(self, agent: str, action: Any) -> Mapping[str, float]:
        """Apply ``agent``'s action (structured or raw text). Return the rewards this
        step produced for every agent, or :data:`NO_REWARDS` when nothing resolved (an
        agent missing from the mapping got 0.0). Invalid actions never raise: the game
        records the error and asks the same agent again."""

    def check_answer(self, agent: str, action: Any) -> str | None:
        """The error message :meth:`step` would give ``agent``'s ``action`` now (what the
        agent reads on a retry), or None when step would accept it; changes nothing (no
        event, no retry counted). A seat that answers again until it is accepted (a
        human at the terminal) asks this first. A game without the check says None:
        step judges."""
        return None

    @abc.abstractmethod
    def observe(self, agent: str) -> Any:
        """The agent's observation now, contained in ``observation_space(agent)``, for
        every agent at every state (acting or not, the game over included).

        A dict with the keys policies, wrappers and the recorder read (the space of
        :func:`~.spaces.chat_observation_space`):

        * ``prompt`` (str): the env text the agent answers now; ``""`` when it has none;
        * ``conversation`` (tuple of ``{"role", "content"}`` dicts): the whole chat the
          env holds for the agent, system prompt first and ``prompt`` last while there is
          one (the env, not the policy, owns what the agent remembers);
        * ``features`` (float32 array): the game's numeric view, laid out as its
          ``features.LAYOUT`` (the numeric wrapper and the RL exports read it);
        * ``active`` (0 or 1): whether the game awaits this agent's action;
        * ``answer_format`` (str): the JSON spec of the answer owed now (the game's
          ``answer_schema``, for constrained decoding); ``""`` when the agent does not act;
        * any keys of the game's own (``reasoning`` and ``max_tokens`` in rulemaking)."""

    @abc.abstractmethod
    def info(self, agent: str) -> dict[str, Any]:
        """The agent's info dict after the latest step: a new dict on every call
        (:meth:`full_info` adds ``active_agents`` and ``active_agent`` to it in place).
        What it holds may be shared between calls; infos are read-only.

        The keys the recorder (:mod:`negotiation_env.traces.recorder`), the runner and
        the analysis read, in every game:

        * ``round`` (int, from 1) and ``phase`` (str, ``"done"`` once the game is over):
          where the game stands (a game of one round says ``round`` 1);
        * ``events`` (list of dicts with ``type`` and ``agent``): what the agent's latest
          step recorded (validation errors, fallbacks, truncations, ...); empty until it
          acts;
        * ``last_turn`` (dict or None): the agent's latest answer as the game read it,
          with its ``raw`` text;
        * ``last_round`` (dict or None): the latest resolved round's outcome, with
          ``round``: a new ``round`` value means a round resolved and the recorder adds
          it to the trace's rounds.

        A game adds its own keys (scenario, condition, cumulative score, ...)."""

    def full_info(self, agent: str) -> dict[str, Any]:
        """The info the envs give ``agent``: :meth:`info` with ``active_agents`` (list)
        and ``active_agent`` (the single acting agent, or None) added. A game may make
        it in one step, as long as the result is the same."""
        info = self.info(agent)  # a new dict on every call, so it is added to in place
        acting = list(self.acting())
        info["active_agents"] = acting
        info["active_agent"] = acting[0] if len(acting) == 1 else None
        return info

    def full_infos(self, agents: Sequence[str], known: tuple[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
        """:meth:`full_info` of every agent in ``agents``, in that order, reading the acting
        agents once for all of them. ``known``: an ``(agent, info)`` already made at this
        state, kept as that agent's entry (the same object)."""
        acting = self.acting()
        single = acting[0] if len(acting) == 1 else None
        info_of = self.info
        out = {}
        for a in agents:
            if known is not None and known[0] == a:
                out[a] = known[1]
                continue
            info = info_of(a)
            info["active_agents"] = list(acting)
            info["active_agent"] = single
            out[a] = info
        return out

    @property
    @abc.abstractmethod
    def done(self) -> bool: ...

    @abc.abstractmethod
    def render_text(self) -> str:
        """A readable transcript of the game so far."""
