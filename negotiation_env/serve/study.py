"""Sessions for studies: ``negotiation-env serve --session FILE --out DIR``.

The session file is a run config (:mod:`negotiation_env.runner.config`: games,
conditions, scenario sets, policies, seed) where a policy may be ``human`` (or ``{spec =
"human", label = "..."}``), plus one ``[session]`` table::

    [session]
    title = "Negotiation study"      # optional
    consent = "You are invited ..."  # required: shown before anything else

The runner's plan (:func:`~negotiation_env.runner.plan.make_plan`) gives the games, in
order, with their keys and seeds; every planned game must seat at least one human. An
arriving participant reads the consent text, agrees, and gets a participant code (six
hexadecimal characters, the only thing recorded about them) and a private link; the
participant takes the first open human seat of the first game not yet played. A game
starts when all its human seats are taken (a two-human game waits for the second
participant). Each finished game is appended to ``DIR/traces.jsonl`` as a run's games
are (same schema, key and seeds; ``meta.participants`` maps each human seat to its
code), so ``report``, ``view`` and ``export`` read the folder unchanged.

What survives a restart: ``DIR/session.json`` (written whole or not at all) holds each
participant's code, a SHA-256 of their link's secret (never the secret), when they
consented and a SHA-256 of the consent text they saw, and the seat they hold. On a
browser reload the page asks the server again (the state is on the server) and
resumes. On a server restart the finished games are read back from ``traces.jsonl``
(never played again); an unfinished game restarts from its first step, with the same
seeds and the same participants in its seats, when the server starts (the moves made
before the restart are lost, and the participant plays the game again from the start).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Mapping

from .. import exitcodes
from ..core.config import ConfigError
from ..play import HUMAN, seat_info
from ..traces.recorder import utc_now
from .app import find_secret
from .page import landing_page
from .table import Table

__all__ = ["Study", "StudyError", "STATE_FILE", "HUMAN_SPEC", "human"]

STATE_FILE = "session.json"
#: the runner spec a ``human`` policy of a session file stands for in the plan (the
#: runner never builds it: the study seats a person there)
HUMAN_SPEC = "python:negotiation_env.serve.study:human"
_SESSION_FIELDS = {"consent", "title"}


class StudyError(ConfigError):
    """The session file or its output folder cannot be served; the message says why."""


def human(seed: int | None = None, **options: Any) -> Any:
    """Stands for a person's seat in a session's plan; never played by the runner."""
    raise StudyError("a 'human' seat is played in the browser by 'negotiation-env serve --session', not by a run")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _humanize(data: Any) -> Any:
    """The session file's data with each ``human`` policy as :data:`HUMAN_SPEC`."""
    for block in data.get("games") or () if isinstance(data, dict) else ():
        if isinstance(block, dict) and isinstance(block.get("policies"), list):
            out = []
            for p in block["policies"]:
                if p == HUMAN:
                    p = {"spec": HUMAN_SPEC, "label": HUMAN}
                elif isinstance(p, dict) and p.get("spec") == HUMAN:
                    p = {**p, "spec": HUMAN_SPEC, "label": p.get("label") or HUMAN}
                out.append(p)
            block["policies"] = out
    return data


@dataclass
class Participant:
    code: str
    secret_sha256: str
    consented_at: str
    consent_sha256: str
    game: str | None = None
    agent: str | None = None


class Study:
    """A study session served from ``path`` into ``out`` (module docstring)."""

    def __init__(self, path: str | Path, out: Path):
        from ..runner.config import RunConfigError, parse_config, read_config_data
        from ..runner.plan import make_plan
        from .table import TraceAppender

        try:
            data = read_config_data(path)
        except RunConfigError as e:
            raise StudyError(str(e).replace("run config", "session file", 1)) from None
        if not isinstance(data, dict):
            raise StudyError(f"session file {path}: the top level must be a table")
        session = data.pop("session", None)
        if not isinstance(session, dict) or not isinstance(session.get("consent"), str) \
                or not session["consent"].strip():
            raise StudyError(f"session file {path}: needs a [session] table with consent = \"the consent text "
                             "participants agree to\"")
        unknown = sorted(set(session) - _SESSION_FIELDS)
        if unknown:
            raise StudyError(f"session file {path}: session.{unknown[0]}: unknown field; the fields: "
                             f"{', '.join(sorted(_SESSION_FIELDS))}")
        try:
            self.config = parse_config(_humanize(data))
            self.plan = make_plan(self.config)
        except RunConfigError as e:
            raise StudyError(str(e).replace("run config", f"session file {path}", 1)) from None
        self.consent = session["consent"]
        self.title = str(session.get("title") or "Negotiation study")
        self.specs = list(self.plan.specs)
        self.run_id = self.specs[0].run_id if self.specs else self.config.name
        no_human = [s.key for s in self.specs if not any(e.spec == HUMAN_SPEC for e in s.policies)]
        if no_human:
            raise StudyError(f"session file {path}: {len(no_human)} planned game(s) seat no human (first: "
                             f"{no_human[0]}); give the blocks explicit pairings with a human in each lineup, "
                             "e.g. pairings = [[\"human\", \"oracle\"]]")
        self.out = out
        self.state_path = out / STATE_FILE
        self.lock = threading.RLock()
        self.closing = False
        self.participants: list[Participant] = []
        self.tables: dict[str, Table] = {}
        self.finished: set[str] = set()
        out.mkdir(parents=True, exist_ok=True)
        self._load_state()
        from ..traces.writer import TraceFileLocked

        try:
            self.appender = TraceAppender(out)
        except TraceFileLocked as e:
            raise StudyError(f"{out}: {e}") from None
        for spec in self.specs:  # unfinished games whose seats are all taken restart now
            if spec.key not in self.finished and self._seated(spec.key) == self._humans(spec):
                self._start(spec)

    # -- state on disk

    def _load_state(self) -> None:
        from ..traces.reader import iter_records

        if self.state_path.exists():
            try:
                state = json.loads(self.state_path.read_text(encoding="utf-8"))
                run_id = state["run_id"]
                self.participants = [Participant(**p) for p in state["participants"]]
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise StudyError(f"{self.state_path}: not a session state this server wrote ({e})") from None
            if run_id != self.run_id:
                raise StudyError(f"{self.out} holds the study {run_id!r}, not this file's {self.run_id!r}; "
                                 "choose another --out")
        traces = self.out / exitcodes.TRACES_FILE
        if traces.exists():
            for rec in iter_records(traces):
                key = (rec.get("run") or {}).get("game_key") or rec.get("game_id")
                if isinstance(key, str):
                    self.finished.add(key)

    def _save_state(self) -> None:
        from ..storage import replacing

        state = {"run_id": self.run_id, "participants": [asdict(p) for p in self.participants]}
        with replacing(self.state_path) as tmp:
            tmp.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")

    # -- seats

    @staticmethod
    def _humans(spec) -> int:
        return sum(e.spec == HUMAN_SPEC for e in spec.policies)

    def _seated(self, key: str) -> int:
        return sum(p.game == key for p in self.participants)

    def open_seats(self) -> int:
        with self.lock:
            return sum(self._humans(s) - self._seated(s.key) for s in self.specs if s.key not in self.finished)

    def _start(self, spec) -> None:
        import negotiation_env

        from ..runner.policies import resolve_factory

        env = negotiation_env.env(game=spec.game, **spec.config)
        agents = list(env.possible_agents)
        seats, infos, codes = {}, {}, {}
        for i, agent in enumerate(agents):
            entry, seed = spec.policies[i], spec.policy_seeds[i]
            if entry.spec == HUMAN_SPEC:
                seats[agent] = (HUMAN, None)
                infos[agent] = seat_info(HUMAN, None, None)
                infos[agent].label = entry.name
                codes[agent] = next(p.code for p in self.participants if p.game == spec.key and p.agent == agent)
            else:
                policy = resolve_factory(entry, spec.game)(seed)
                seats[agent] = (entry.spec, policy)
                infos[agent] = seat_info(entry.spec, policy, seed, options=entry.options)
                infos[agent].label = entry.name
        self.tables[spec.key] = Table(spec.game, env, seats, infos, spec.env_seed, game_id=spec.key,
                                      run=spec.run_info(), cohort_seed=spec.cohort_seed,
                                      meta={"participants": codes}, on_trace=self._finished).start()

    def _finished(self, trace) -> None:
        self.appender(trace)
        with self.lock:
            self.finished.add(trace.game_id)

    # -- the Hall protocol (negotiation_env.serve.app)

    def landing(self) -> str:
        return landing_page(self.title, self.consent, self.open_seats())

    def join(self) -> str | None:
        """A new participant who consented: their link's secret, or None when no seat is open."""
        with self.lock:
            for spec in self.specs:
                if spec.key in self.finished or spec.key in self.tables and self._seated(spec.key) >= self._humans(spec):
                    continue
                taken = {p.agent for p in self.participants if p.game == spec.key}
                agents = self._agents(spec)
                free = [a for i, a in enumerate(agents) if spec.policies[i].spec == HUMAN_SPEC and a not in taken]
                if not free:
                    continue
                secret = secrets.token_urlsafe(24)
                codes = {p.code for p in self.participants}
                code = secrets.token_hex(3).upper()
                while code in codes:
                    code = secrets.token_hex(3).upper()
                self.participants.append(Participant(code, _sha(secret), utc_now(), _sha(self.consent),
                                                     spec.key, free[0]))
                self._save_state()
                if self._seated(spec.key) == self._humans(spec):
                    self._start(spec)
                return secret
        return None

    @staticmethod
    def _agents(spec) -> list[str]:
        import negotiation_env

        return list(negotiation_env.env(game=spec.game, **spec.config).possible_agents)

    def find(self, secret: str) -> Any:
        with self.lock:
            return find_secret(_sha(secret), {p.secret_sha256: p for p in self.participants})

    def view(self, who: Participant) -> dict[str, Any]:
        with self.lock:
            table = self.tables.get(who.game)
            finished = who.game in self.finished
        if table is not None:
            v = table.view(who.agent)
        else:
            v = {"version": 0, "game": None, "agent": who.agent, "messages": [], "phase": "", "control": None,
                 "sent": None, "problem": None, "ending": "", "reward": None,
                 "status": "done" if finished else "lobby"}
        v["code"] = who.code
        if v["status"] in ("over", "error", "done"):
            v["message"] = f"Thank you. Your participant code is {who.code}."
        return v

    def submit(self, who: Participant, text: str | None, values: Mapping[str, Any] | None) -> str | None:
        from .table import NotYourTurn

        table = self.tables.get(who.game)
        if table is None:
            raise NotYourTurn("the game has not started")
        return table.submit(who.agent, text, values)

    def close(self) -> None:
        self.closing = True
        for t in list(self.tables.values()):
            t.stop()
        self.appender.close()
