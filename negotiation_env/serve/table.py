"""One served game: the env, recorded like any runner game, played in its own thread.

A person's seat is a :class:`WebSeat`: when the env asks it, the game thread stores the
observation (with the phase line and the structured control of that moment) and blocks
on a queue until the page sends an answer the game accepts. Every other seat is an
ordinary policy and answers in the game thread. :meth:`Table.view` is what one seat's
page shows: only that seat's observation (the system prompt and conversation the env
gives it), never another seat's, and :meth:`Table.submit` judges an answer with the
game's own parser (:func:`negotiation_env.play.short_form`, then
``Game.check_answer``) before it reaches the env, so a refused answer is explained and
asked again, as in the terminal.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any, Callable, Mapping

from ..play import HUMAN, ShortFormError, controls, ending, phase_line, short_form
from ..traces.recorder import TraceRecorder
from ..traces.schema import GameTrace, PolicyInfo, RunInfo

__all__ = ["Table", "WebSeat", "Stopped", "NotYourTurn", "TraceAppender"]

_STOP = object()


class Stopped(Exception):
    """The server is closing: the game stops where it is (nothing is recorded)."""


class NotYourTurn(Exception):
    """An answer came from a seat the game is not asking now."""


def shown_messages(observation: Any) -> list[dict[str, str]]:
    """The messages a person's page shows for ``observation``: the conversation the env
    gives the seat (system prompt first), then the prompt where it is not the last
    message already."""
    if isinstance(observation, str):
        return [{"role": "user", "content": observation}]
    if not isinstance(observation, Mapping):
        return []
    out = [{"role": str(m.get("role", "")), "content": str(m.get("content", ""))}
           for m in observation.get("conversation") or ()]
    prompt = observation.get("prompt")
    if isinstance(prompt, str) and prompt and (not out or out[-1]["content"] != prompt):
        out.append({"role": "user", "content": prompt})
    return out


class WebSeat:
    """A seat a person plays from a web page (module docstring)."""

    def __init__(self, table: "Table", agent: str):
        self.table = table
        self.agent = agent
        self.answers: queue.Queue = queue.Queue()
        self.observation: Any = None
        self.asked = False
        self.phase = ""
        self.control = None
        self.sent: str | None = None
        self.problem: str | None = None

    def act(self, observation: Any) -> str:
        t = self.table
        line = phase_line(t.game_name, t.game, self.agent)
        control = controls(t.game_name, t.game, self.agent)
        with t.cond:
            self.observation, self.phase, self.control = observation, line, control
            self.asked, self.sent, self.problem = True, None, None
            t.changed()
        answer = self.answers.get()
        if answer is _STOP:
            raise Stopped()
        return answer


class Table:
    """One game between ``seats`` (``{agent: (seat text, policy)}``; seat text
    :data:`~negotiation_env.play.HUMAN` makes a :class:`WebSeat`, the policy then None)
    played from :meth:`start` in a daemon thread. ``infos`` describes each seat in the
    trace; ``game_id``, ``run``, ``cohort_seed`` and ``meta`` are the trace's identity
    (the runner's, for a session game). ``on_trace`` gets the finished game's trace."""

    def __init__(self, game_name: str, env: Any, seats: Mapping[str, tuple[str, Any]],
                 infos: Mapping[str, PolicyInfo], seed: int | None, *, game_id: str | None = None,
                 run: RunInfo | None = None, cohort_seed: int | None = None, meta: Mapping[str, Any] | None = None,
                 on_trace: Callable[[GameTrace], None] | None = None):
        self.game_name = game_name
        self.env = env
        self.seed = seed
        self.cond = threading.Condition()
        self.version = 0
        self.seats: dict[str, WebSeat] = {}
        policies: dict[str, Any] = {}
        for agent, (text, policy) in seats.items():
            if text == HUMAN:
                policy = self.seats[agent] = WebSeat(self, agent)
            policies[agent] = policy
        self.labels = {a: text for a, (text, _) in seats.items()}
        self.rec = TraceRecorder(env, policies=policies, policy_info=infos, keep=True)
        self._identity = {"game_id": game_id, "run": run, "cohort_seed": cohort_seed, "meta": dict(meta or {})}
        self.on_trace = on_trace
        self.policies = policies
        self.status = "starting"  # starting, playing, over, error, stopped
        self.why = ""
        self.trace: GameTrace | None = None
        self.final: dict[str, Any] = {}
        self._thread: threading.Thread | None = None

    @property
    def game(self) -> Any:
        return self.env.unwrapped.game

    def changed(self) -> None:
        """Called with ``cond`` held: the state changed; wake the pages' waiters."""
        self.version += 1
        self.cond.notify_all()

    def start(self) -> "Table":
        self._thread = threading.Thread(target=self._play, name=f"game {self._identity['game_id'] or ''}",
                                        daemon=True)
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self) -> None:
        """End the game where it is (the server is closing): a waiting seat's wait ends."""
        for seat in self.seats.values():
            seat.answers.put(_STOP)

    def _play(self) -> None:
        rec = self.rec
        rec.prepare(**self._identity)
        rec.reset(seed=self.seed)
        with self.cond:
            self.status = "playing"
            self.changed()
        agent = None
        try:
            for agent in rec.agent_iter():
                obs, _reward, term, trunc, _info = rec.last()
                if term or trunc:
                    if agent in self.seats:
                        self.final[agent] = obs
                    rec.step(None)
                    continue
                rec.step(self.policies[agent].act(obs))
        except Stopped:
            with self.cond:
                self.status, self.why = "stopped", "the server closed before the game ended; nothing was recorded"
                self.changed()
            return
        except Exception as e:  # noqa: BLE001 - a policy may raise anything: the game ends in error, recorded
            rec.abort(e)
            self._finish("error", f"the game ended in error at {agent}'s turn ({self.labels.get(agent)}): "
                                  f"{type(e).__name__}")
            return
        why, error_ended = ending(self.game_name, self.game)
        self._finish("error" if error_ended else "over", f"Game {why}.")

    def _finish(self, status: str, why: str) -> None:
        trace = self.rec.last_trace
        problem = None
        if self.on_trace is not None and trace is not None:
            try:
                self.on_trace(trace)
            except OSError as e:  # the disk refused the trace: the page says so
                problem = f"the game could not be saved ({type(e).__name__}: {e.strerror or e})"
            except RuntimeError as e:  # another process holds the trace file (TraceFileLocked)
                problem = f"the game could not be saved ({type(e).__name__}: {e})"
        with self.cond:
            self.trace = trace
            self.status, self.why = ("error", problem) if problem else (status, why)
            self.changed()

    # -- what a page sees and sends

    def view(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s page shows: only its own observation (module docstring)."""
        seat = self.seats[agent]
        with self.cond:
            status = self.status
            over = status in ("over", "error", "stopped")
            obs = self.final.get(agent, seat.observation) if over else seat.observation
            out: dict[str, Any] = {
                "version": self.version, "game": self.game_name,
                "env": (getattr(self.env.unwrapped, "metadata", None) or {}).get("name"),
                "agent": agent, "messages": shown_messages(obs),
                "status": status if over else ("your-turn" if seat.asked else
                                               ("starting" if status == "starting" else "wait")),
                "phase": seat.phase if seat.asked and not over else "",
                "control": seat.control.describe() if seat.asked and seat.control is not None and not over else None,
                "sent": seat.sent, "problem": seat.problem, "ending": self.why if over else "",
                "reward": (self.trace.returns.get(agent) if self.trace is not None else None),
            }
        return out

    def submit(self, agent: str, text: str | None = None, values: Mapping[str, Any] | None = None) -> str | None:
        """Judge ``agent``'s answer (typed ``text`` or the control's ``values``) with the
        game's own parser; None when it was accepted and passed to the game, else the
        message saying why not. Raises :class:`NotYourTurn` when the seat is not asked."""
        seat = self.seats[agent]
        with self.cond:
            if not seat.asked:
                raise NotYourTurn(f"{agent} is not asked for an answer now")
            try:
                if values is not None:
                    if seat.control is None:
                        raise ShortFormError("this question has no structured control: type the answer")
                    text = seat.control.answer(values)
                answer = short_form(self.game_name, self.game, agent, text or "")
                problem = self.game.check_answer(agent, answer)
            except ShortFormError as e:
                problem = str(e)
            if problem is not None:
                seat.problem = problem
                self.changed()
                return problem
            seat.asked, seat.sent, seat.problem = False, text, None
            self.changed()
        seat.answers.put(answer)
        return None

    def wait_change(self, since: int, timeout: float) -> int:
        """Block until the version passes ``since`` or ``timeout`` seconds pass; the version."""
        with self.cond:
            self.cond.wait_for(lambda: self.version != since, timeout)
            return self.version


class TraceAppender:
    """Appends finished games to ``DIR/traces.jsonl``, one thread at a time."""

    def __init__(self, out: Path):
        from ..exitcodes import TRACES_FILE
        from ..traces.writer import TraceWriter

        out.mkdir(parents=True, exist_ok=True)
        self.path = out / TRACES_FILE
        self.writer = TraceWriter(self.path)
        self.lock = threading.Lock()

    def __call__(self, trace) -> None:
        with self.lock:
            self.writer.write(trace)

    def close(self) -> None:
        self.writer.close()
