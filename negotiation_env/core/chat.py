"""The conversation bookkeeping of a game played as chats: :class:`ChatGame`.

Every game of this package talks to its agents in chat messages, and most of what it
keeps for that is the same from game to game: the events of each agent's latest step,
the game's transcript, env text rendered once per what it is made from, a printable form
of a structured action, and the observation assembled from a prompt, a conversation, a
feature vector and the spec of the answer owed. :class:`ChatGame` holds that part once.

The base is opt-in: a game may subclass :class:`~.game.Game` directly and keep its own
bookkeeping; the adapters only use the :class:`~.game.Game` protocol.

A game whose agents each hold one growing conversation (the env text waiting for an
agent is queued and becomes one user message when the agent answers) keeps one
:class:`Seat` per agent in ``self._states`` and gets :meth:`ChatGame._say`,
:meth:`ChatGame._commit` and the observation's prompt and conversation from the base. A
game that builds each turn's conversation afresh overrides
:meth:`ChatGame._chat_view` instead and keeps no seats.
"""

from __future__ import annotations

import abc
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .game import Game, joined_prompt
from .memo import Memo, list_snapshot, tuple_with
from .spaces import sanitize, terminal_line

__all__ = ["ChatGame", "Seat", "describe"]


def describe(action: Any) -> str:
    """A printable form of a structured action, for the conversation, events and traces:
    its JSON (arrays as lists, other objects by ``repr``), or its ``repr`` when it has none."""
    try:
        return json.dumps(action, default=lambda o: o.tolist() if hasattr(o, "tolist") else repr(o), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(action)


@dataclass
class Seat:
    """One agent's side of a chat game: its conversation as committed, the env text
    waiting for its next answer, its latest turn and retries. Games subclass it (a
    dataclass) to add what they keep per agent."""

    #: the committed messages, system prompt first (a reset of the agent's context
    #: replaces the list; otherwise it is only appended to)
    conversation: list[dict[str, str]]
    #: env text queued for the agent (sanitized); one user message at its next answer
    pending: list[str] = field(default_factory=list)
    #: what ``info["last_turn"]`` shows of the agent's latest accepted or refused answer
    last_turn: dict[str, Any] | None = None
    #: invalid answers in a row to the decision the agent owes now
    retries: int = 0
    #: (pending list, its length, the user message it joins to): kept while ``pending``
    #: is the same list with the same length (it is only appended to, extended or
    #: replaced), so observe() and the commit that follows join the prompt once
    pending_message: tuple | None = None

    #: the pending env text as one user message (``pending`` is not empty); the shared
    #: function itself, so a call costs no extra frame
    prompt_message = joined_prompt


class ChatGame(Game):
    """Base class of a game played as chats (module docstring).

    A subclass calls ``super().__init__()`` in its ``__init__`` and :meth:`_start_record`
    in its ``reset``, and implements :meth:`_event_place`, :meth:`_features` and
    :meth:`_answer_format` besides the :class:`~.game.Game` protocol. It keeps per-game
    what differs: its rules, prompts, info dict, and what a seat holds beyond
    :class:`Seat`."""

    #: each agent's seat (games with one conversation per agent; see :class:`Seat`)
    _states: dict[str, Seat]

    def __init__(self) -> None:
        #: every event of the game, in order
        self.events: list[dict[str, Any]] = []
        #: agent -> the events of its latest step (``info["events"]``)
        self.agent_events: dict[str, list[dict[str, Any]]] = {}
        #: one readable line per entry (:meth:`render_text`)
        self.transcript: list[str] = []
        self._states = {}
        self._conv_cache: dict[str, tuple[list, int, tuple]] = {}  # (_chat_view)
        self._texts = Memo()  # env text by what it is rendered from (_text)
        self._described = Memo()  # describe(action) by content (_describe)

    def _start_record(self) -> None:
        """A new game's record: no events, an empty transcript, no kept conversation
        snapshots (``reset`` calls it; the stores keyed by content stay)."""
        self.events = []
        self.agent_events = {a: [] for a in self.possible_agents}
        self.transcript = []
        self._conv_cache = {}

    # ----------------------------------------------------------------- events

    @abc.abstractmethod
    def _event_place(self) -> dict[str, Any]:
        """Where in the game an event happens: the fields every event carries after
        ``type`` and ``agent`` (``round`` and ``phase``, or the game's own)."""

    def _event(self, agent: str, kind: str, **fields: Any) -> None:
        """Record an event of ``agent``'s step: in ``self.events`` and in the agent's
        ``info["events"]`` until its next step (:meth:`_begin_step`)."""
        ev = {"type": kind, "agent": agent, **self._event_place(), **fields}
        self.agent_events[agent].append(ev)
        self.events.append(ev)

    def _begin_step(self, agent: str) -> None:
        """A step of ``agent`` starts: its info's events are this step's only."""
        self.agent_events[agent] = []

    # ----------------------------------------------------------------- texts

    def _text(self, key: tuple, render: Callable[[], Any]) -> Any:
        """``sanitize(render())`` (each text, when it renders a list or tuple of them),
        rendered once per ``key``: what the text is made from besides the config, which
        is the game's own. Kept for the game object's life in a bounded store."""
        text = self._texts.get(key)
        if text is None:
            raw = render()
            text = self._texts.put(key, tuple(sanitize(t) for t in raw) if isinstance(raw, (list, tuple))
                                   else sanitize(raw))
        return text

    def _describe(self, action: Any, key: tuple | None = None) -> str:
        """:func:`describe`, kept per action content (``key``: its
        :func:`~.memo.action_key`, None: not kept)."""
        return describe(action) if key is None else self._described.get_or(key, lambda: describe(action))

    def render_text(self) -> str:
        # one transcript entry, one line, nothing a terminal acts on (agent text is quoted
        # where it enters; error messages and names may still hold what an agent sent)
        return "\n".join(map(terminal_line, self.transcript))

    # ----------------------------------------------------------------- seats

    def _say(self, agent: str, text: str) -> None:
        """Queue env text for the agent; it becomes one user message at its next answer."""
        self._states[agent].pending.append(sanitize(text))

    def _say_kept(self, agent: str, key: tuple, render: Callable[[], str]) -> None:
        """:meth:`_say` of ``render()``, rendered and sanitized once per ``key`` (:meth:`_text`)."""
        self._states[agent].pending.append(self._text(key, render))

    def _commit(self, agent: str, content: str) -> None:
        """Commit the agent's pending prompt (one user message) and its answer as its
        history keeps it (``content``): a text answer exactly as the agent sent it, so a
        model reads back what it generated (the caller bounds it; display, parsing and
        what other agents are shown use the sanitized, parsed form)."""
        st = self._states[agent]
        if st.pending:
            st.conversation.append(st.prompt_message())
            st.pending = []
        st.conversation.append({"role": "assistant", "content": content})

    def conversation(self, agent: str) -> list[dict[str, str]]:
        """The agent's whole context as the env holds it, its pending prompt last."""
        st = self._states[agent]
        conv = list(st.conversation)
        if st.pending:
            conv.append({"role": "user", "content": "\n\n".join(st.pending)})
        return conv

    # ----------------------------------------------------------------- observation

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation every game gives (:meth:`.Game.observe`): ``prompt``,
        ``conversation``, ``features``, ``active``, the game's own keys
        (:meth:`_extra_observation`) and ``answer_format``, in that order."""
        acting = agent in self.acting()
        prompt, conversation = self._chat_view(agent, acting)
        obs = {"prompt": prompt, "conversation": conversation, "features": self._features(agent, acting),
               "active": int(acting)}
        extra = self._extra_observation(agent, acting)
        if extra:
            obs.update(extra)
        obs["answer_format"] = self._answer_format(agent, acting)
        return obs

    def _chat_view(self, agent: str, acting: bool) -> tuple[str, tuple]:
        """(prompt, conversation) of the observation. With a seat: the pending env text
        as the prompt and the committed messages with it, copied into a tuple once
        (:func:`~.memo.tuple_with`); without pending text, :meth:`_idle_prompt` and the
        committed messages (one tuple kept while the list is unchanged)."""
        st = self._states[agent]
        if st.pending:
            message = st.prompt_message()
            return message["content"], tuple_with(st.conversation, message)
        return self._idle_prompt(agent, acting), list_snapshot(self._conv_cache, agent, st.conversation)

    def _idle_prompt(self, agent: str, acting: bool) -> str:
        """The observation's prompt while no env text waits for the agent: ``""``."""
        return ""

    @abc.abstractmethod
    def _features(self, agent: str, acting: bool) -> np.ndarray:
        """The observation's feature vector (``acting``: whether ``agent`` acts now)."""

    @abc.abstractmethod
    def _answer_format(self, agent: str, acting: bool) -> str:
        """The spec of the answer ``agent`` owes now, as JSON text; ``""`` when it does
        not act."""

    def _extra_observation(self, agent: str, acting: bool) -> Mapping[str, Any] | None:
        """The game's own observation keys, placed before ``answer_format``; None: none."""
        return None
