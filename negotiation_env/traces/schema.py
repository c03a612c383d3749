"""The trace schema: one record per game, the same for every game in ``GAMES``.

A trace file is JSON Lines, one :class:`GameTrace` per line (see :mod:`.writer`). The
schema is versioned by :data:`SCHEMA_VERSION`; a reader refuses a record whose
``schema_version`` it does not know instead of misreading it. Every field is plain JSON
(numpy arrays become lists, non-finite floats become ``null``).

GameTrace (one line)
    schema_version  int, :data:`SCHEMA_VERSION`
    game_id         str, unique within a run: the runner's game key, or the recorder's
                    ``"{game}:{env seed}:{n}"``
    game            str, the id in ``negotiation_env.GAMES`` (``"resource"``, ...)
    env_name        str | null, the PettingZoo metadata name (``"resource_v1"``)
    agents          [str], ``env.possible_agents`` in seat order
    config          {field: JSON}, the game config as built (objects with a ``name``,
                    such as scenarios, are stored by name)
    scenario        str | null, the config's scenario name when it has one
    seeds           {"env": int | null, "policies": {agent: int | null}, "cohort": int | null}
    policies        {agent: PolicyInfo}, who played each seat
    package         {"name", "version", "git_commit"} (commit best effort, null outside git)
    started_at      str, ISO 8601 UTC, when reset ran
    ended_at        str | null, when the record was closed
    status          "complete" (the env terminated), "truncated" (a step cap, or a reset
                    before the end) or "error" (a policy or the env raised; see ``error``)
    error           str | null, "ExceptionType: message" and a short traceback
    steps           [StepRecord], every action the env took, retries included
    rounds          [RoundRecord], one per resolved round
    returns         {agent: float}, the sum of every step's rewards
    final_features  {agent: [float]} | null, each agent's numeric features after the last
                    step (the next-observation of terminal transitions)
    run             RunInfo | null, the game's place in a runner cohort
    meta            {str: JSON}, free-form extras; the recorder adds ``model_calls``
                    ``{"faults": int, "failed": {agent: int}, "degraded": bool}`` when
                    policies report model usage: ``degraded`` marks a game in which some
                    model call ran out of retries (the env then scored a fallback), so
                    analyses can leave it out instead of scoring it silently

PolicyInfo
    spec      str | null, the runner's policy spec (``"scripted:oracle"``, ``"hf:PATH"``,
              ``"openai:MODEL@URL"``), or null
    label     str | null, the name the run gives it (defaults to the spec)
    name      str | null, the policy's class or preset name
    settings  {str: JSON}, its settings, passed through :func:`redact` (never secrets)
    seed      int | null

StepRecord (one action the env took)
    index          int, position in the game (0-based, retries included)
    agent          str, who acted
    round, phase   int | null, str | null: ``info["round"]`` and ``info["phase"]`` before
                   the step, i.e. the round and phase the agent acted in
    observation    str | null, the latest prompt the agent read (``obs["prompt"]``, or the
                   observation itself when it is text)
    context        [{"role", "content"}] | null, the chat messages this agent's
                   ``obs["conversation"]`` gained since its previous step (all of them at
                   its first step or after a context reset); concatenating an agent's
                   deltas from its latest ``context_reset`` gives exactly what it saw
    context_reset  bool, the conversation did not extend the previous one (first step,
                   a shifting partner's reset)
    features       [float] | null, ``obs["features"]`` (the numeric view)
    action         str, the raw action: the text as given, or a structured action as JSON
    action_type    "text" | "structured"
    parsed         JSON | null, what the env made of it (``info["last_turn"]``, or
                   ``info["parsed_action"]``); null when the step was refused
    thinking       str | null, the private reasoning the action carried (parsed "thinking")
    reasoning      str | null, model-side reasoning the policy reported apart from its
                   answer (``policy.last_reasoning``, e.g. a ``<think>`` span)
    events         [JSON], ``info["events"]`` after the step (validation errors,
                   fallbacks, warnings)
    valid          bool, no error event (an event type ending in ``_error``)
    attempt        int, 1 for a first try, n for the (n-1)-th retry of the same decision
    tokens         {str: int} | null, the policy's token usage for this action
                   (``policy.last_usage``, or ``info["usage"]``), when exposed
    rewards        {agent: float}, what this step paid every agent
    terminated     bool, truncated: bool, the game's state after the step
    parallel_step  int | null, with the parallel API: the index of the env step this action
                   was part of (that step's rewards are on its last record)

RoundRecord
    round    int, 1-based
    step     int, index of the step that resolved it
    outcome  JSON, ``info["last_round"]`` (resource: rewards, joint_reward, joint_max,
             efficiency, optimal, purchases, runs, overdraw, ...)

RunInfo
    run_id, game_key, plan_index, cell, condition, scenario_set, lineup ([label per seat]),
    repetition
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.secrets import REDACTED, redact_text, secret_name

__all__ = [
    "SCHEMA_VERSION",
    "SchemaError",
    "GameTrace",
    "StepRecord",
    "RoundRecord",
    "PolicyInfo",
    "RunInfo",
    "to_jsonable",
    "config_to_json",
    "redact",
    "REDACTED",
    "package_info",
    "is_error_event",
]

SCHEMA_VERSION = 1


class SchemaError(ValueError):
    """A record does not follow the trace schema; the message names the field."""


# --------------------------------------------------------------------------- JSON helpers


def to_jsonable(x: Any) -> Any:
    """``x`` as plain JSON values: numpy arrays and scalars become lists and numbers,
    tuples become lists, dict keys become strings, non-finite floats become None,
    dataclasses become dicts and anything else its ``str``. Plain JSON values come back
    equal (a fixed point: ``to_jsonable(to_jsonable(x)) == to_jsonable(x)``)."""
    t = type(x)  # the exact built-in types first (nearly every value of a trace), one check each
    if t is str or t is bool or x is None:
        return x
    if t is float:
        return x if math.isfinite(x) else None
    if t is int:
        return x
    if t is dict:
        return {k if type(k) is str else str(k): to_jsonable(v) for k, v in x.items()}
    if t is list or t is tuple:
        if all(type(v) is str for v in x):  # e.g. agents, lineups, string lists
            return list(x)
        if all(type(v) is float for v in x):  # e.g. feature vectors
            isfinite = math.isfinite
            return [v if isfinite(v) else None for v in x]
        return [to_jsonable(v) for v in x]
    return _to_jsonable_other(x)


def _to_jsonable_other(x: Any) -> Any:
    """:func:`to_jsonable` of subclasses, numpy values, dataclasses and the rest."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, np.ndarray):
        return to_jsonable(x.tolist())
    if isinstance(x, np.generic):
        return to_jsonable(x.item())
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: to_jsonable(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, Path):
        return str(x)
    return str(x)


def _ref(v: Any) -> Any:
    """A config value for the trace: named objects (scenarios) by name."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type) and isinstance(getattr(v, "name", None), str):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_ref(x) for x in v]
    return to_jsonable(v)


def config_to_json(config: Any) -> dict[str, Any]:
    """A game config dataclass (or dict) as JSON; scenarios and other named objects are
    stored by their ``name``."""
    if config is None:
        return {}
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return {f.name: _ref(getattr(config, f.name)) for f in dataclasses.fields(config)}
    if isinstance(config, dict):
        return {str(k): _ref(v) for k, v in config.items()}
    raise SchemaError(f"config must be a dataclass or a dict; got {type(config).__name__}")


def redact(settings: Any) -> Any:
    """A copy of ``settings`` safe for a trace.

    The value of every dict key named like a secret
    (:func:`negotiation_env.core.secrets.secret_name`: ``api_key``, ``OPENAI_API_KEY``,
    ``auth_token``, ``access_token``, ``client_secret``, ``password``, ``credential``,
    ``bearer`` ...) is replaced by ``"[REDACTED]"`` unless it is a number, a bool or None.
    A name is not a secret only because it holds "token": ``max_tokens``, ``token_param``,
    ``tokenizer``, ``eos_token``, ``tokens_per_second`` and ``token_limit`` are settings;
    nor is the name of the environment variable that holds one (``api_key_env``). Values
    are judged whatever their name (:func:`~negotiation_env.core.secrets.redact_text`):
    the credentials of a URL (user information, secret-named or key-shaped parameters,
    key-shaped path segments) and key-shaped tokens are blanked in every string."""
    if isinstance(settings, dict):
        out = {}
        for k, v in settings.items():
            if secret_name(str(k)) and not (v is None or isinstance(v, (bool, int, float))):
                out[str(k)] = REDACTED
            else:
                out[str(k)] = redact(v)
        return out
    if isinstance(settings, (list, tuple)):
        return [redact(v) for v in settings]
    if isinstance(settings, str):
        return redact_text(settings)
    return to_jsonable(settings)


@functools.lru_cache(maxsize=1)
def _git_commit() -> str | None:
    root = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", commit) else None


def package_info() -> dict[str, Any]:
    """Name, version and git commit (best effort) of the installed package."""
    from .. import __version__

    return {"name": "negotiation_env", "version": __version__, "git_commit": _git_commit()}


def is_error_event(event: Any) -> bool:
    """An event that means the step was refused (``validation_error`` and any ``*_error``)."""
    return isinstance(event, dict) and str(event.get("type", "")).endswith("_error")


# --------------------------------------------------------------------------- records


def _need(d: dict, name: str, types: tuple, where: str, nullable: bool = False) -> Any:
    if name not in d:
        raise SchemaError(f"{where}: missing field '{name}'")
    v = d[name]
    if v is None and nullable:
        return v
    if isinstance(v, bool) and bool not in types:
        raise SchemaError(f"{where}: field '{name}' must be {'/'.join(t.__name__ for t in types)}; got bool")
    if not isinstance(v, types):
        raise SchemaError(
            f"{where}: field '{name}' must be {'/'.join(t.__name__ for t in types)}"
            f"{' or null' if nullable else ''}; got {type(v).__name__}"
        )
    return v


@dataclass
class PolicyInfo:
    spec: str | None = None
    label: str | None = None
    name: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"spec": redact(self.spec), "label": redact(self.label), "name": to_jsonable(self.name),
                "settings": redact(self.settings), "seed": to_jsonable(self.seed)}

    def __repr__(self) -> str:
        # what is shown is what is written: credentials blanked
        d = self.to_dict()
        return (f"PolicyInfo(spec={d['spec']!r}, label={d['label']!r}, name={redact(d['name'])!r}, "
                f"settings={d['settings']!r}, seed={d['seed']!r})")

    __str__ = __repr__

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str = "policy") -> "PolicyInfo":
        if not isinstance(d, dict):
            raise SchemaError(f"{where} must be an object")
        return cls(spec=d.get("spec"), label=d.get("label"), name=d.get("name"),
                   settings=dict(d.get("settings") or {}), seed=d.get("seed"))


@dataclass
class RunInfo:
    run_id: str
    game_key: str
    plan_index: int
    cell: str
    condition: str
    scenario_set: str
    lineup: list[str]
    repetition: int

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(dataclasses.asdict(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str = "run") -> "RunInfo":
        if not isinstance(d, dict):
            raise SchemaError(f"{where} must be an object or null")
        # the reader keys records by (run_id, game_key): both must be strings
        for name in ("run_id", "game_key"):
            if name in d:
                _need(d, name, (str,), where)
        try:
            return cls(**{f.name: d[f.name] for f in dataclasses.fields(cls)})
        except KeyError as e:
            raise SchemaError(f"{where}: missing field {e.args[0]!r}") from None


@dataclass
class StepRecord:
    index: int
    agent: str
    action: str
    action_type: str = "text"
    round: int | None = None
    phase: str | None = None
    observation: str | None = None
    context: list[dict[str, str]] | None = None
    context_reset: bool = False
    features: list[float] | None = None
    parsed: Any = None
    thinking: str | None = None
    reasoning: str | None = None
    events: list[Any] = field(default_factory=list)
    valid: bool = True
    attempt: int = 1
    tokens: dict[str, Any] | None = None
    rewards: dict[str, float] = field(default_factory=dict)
    terminated: bool = False
    truncated: bool = False
    parallel_step: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: to_jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str = "step") -> "StepRecord":
        if not isinstance(d, dict):
            raise SchemaError(f"{where} must be an object")
        _need(d, "index", (int,), where)
        _need(d, "agent", (str,), where)
        _need(d, "action", (str,), where)
        if d.get("action_type", "text") not in ("text", "structured"):
            raise SchemaError(f"{where}: field 'action_type' must be 'text' or 'structured'; got {d.get('action_type')!r}")
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


@dataclass
class RoundRecord:
    round: int
    step: int
    outcome: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"round": to_jsonable(self.round), "step": to_jsonable(self.step), "outcome": to_jsonable(self.outcome)}

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str = "round") -> "RoundRecord":
        if not isinstance(d, dict):
            raise SchemaError(f"{where} must be an object")
        return cls(round=_need(d, "round", (int,), where), step=_need(d, "step", (int,), where),
                   outcome=_need(d, "outcome", (dict,), where))


STATUSES = ("complete", "truncated", "error")


@dataclass
class GameTrace:
    game_id: str
    game: str
    agents: list[str]
    env_name: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    scenario: str | None = None
    seeds: dict[str, Any] = field(default_factory=lambda: {"env": None, "policies": {}, "cohort": None})
    policies: dict[str, PolicyInfo] = field(default_factory=dict)
    package: dict[str, Any] = field(default_factory=dict)
    started_at: str = ""
    ended_at: str | None = None
    status: str = "complete"
    error: str | None = None
    steps: list[StepRecord] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    returns: dict[str, float] = field(default_factory=dict)
    final_features: dict[str, list[float]] | None = None
    run: RunInfo | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON values (:func:`to_jsonable` leaves it as it is, so the
        writer encodes it without another pass)."""
        return {
            "schema_version": to_jsonable(self.schema_version),
            "game_id": to_jsonable(self.game_id),
            "game": to_jsonable(self.game),
            "env_name": to_jsonable(self.env_name),
            "agents": to_jsonable(list(self.agents)),
            "config": to_jsonable(self.config),
            "scenario": to_jsonable(self.scenario),
            "seeds": to_jsonable(self.seeds),
            "policies": {a if type(a) is str else str(a): p.to_dict() for a, p in self.policies.items()},
            "package": to_jsonable(self.package),
            "started_at": to_jsonable(self.started_at),
            "ended_at": to_jsonable(self.ended_at),
            "status": to_jsonable(self.status),
            "error": to_jsonable(self.error),
            "steps": [s.to_dict() for s in self.steps],
            "rounds": [r.to_dict() for r in self.rounds],
            "returns": to_jsonable(self.returns),
            "final_features": to_jsonable(self.final_features),
            "run": None if self.run is None else self.run.to_dict(),
            "meta": to_jsonable(self.meta),
        }

    @classmethod
    def from_dict(cls, d: Any) -> "GameTrace":
        if not isinstance(d, dict):
            raise SchemaError(f"a trace record must be a JSON object; got {type(d).__name__}")
        version = d.get("schema_version")
        if version != SCHEMA_VERSION:
            raise SchemaError(f"unsupported schema_version {version!r}; this reader knows {SCHEMA_VERSION}")
        where = f"trace {d.get('game_id')!r}"
        _need(d, "game_id", (str,), where)
        _need(d, "game", (str,), where)
        agents = _need(d, "agents", (list,), where)
        status = d.get("status", "complete")
        if status not in STATUSES:
            raise SchemaError(f"{where}: field 'status' must be one of {', '.join(STATUSES)}; got {status!r}")
        steps = [StepRecord.from_dict(s, f"{where} steps[{i}]") for i, s in enumerate(_need(d, "steps", (list,), where))]
        rounds = [RoundRecord.from_dict(r, f"{where} rounds[{i}]") for i, r in enumerate(d.get("rounds") or [])]
        pols = d.get("policies") or {}
        if not isinstance(pols, dict):
            raise SchemaError(f"{where}: field 'policies' must be an object")
        return cls(
            schema_version=version,
            game_id=d["game_id"],
            game=d["game"],
            env_name=d.get("env_name"),
            agents=list(agents),
            config=dict(d.get("config") or {}),
            scenario=d.get("scenario"),
            seeds=dict(d.get("seeds") or {}),
            policies={a: PolicyInfo.from_dict(p, f"{where} policies[{a!r}]") for a, p in pols.items()},
            package=dict(d.get("package") or {}),
            started_at=d.get("started_at", ""),
            ended_at=d.get("ended_at"),
            status=status,
            error=d.get("error"),
            steps=steps,
            rounds=rounds,
            returns=dict(d.get("returns") or {}),
            final_features=d.get("final_features"),
            run=None if d.get("run") is None else RunInfo.from_dict(d["run"], f"{where} run"),
            meta=dict(d.get("meta") or {}),
        )

    # ---- views used by exporters and analysis

    def round_outcome(self, round_number: int | None) -> dict[str, Any] | None:
        """The outcome of round ``round_number`` (1-based), if it resolved."""
        if round_number is None:
            return None
        for r in self.rounds:
            if r.round == round_number:
                return r.outcome
        return None

    def contexts(self) -> list[list[dict[str, str]] | None]:
        """For each step, the full chat context its agent saw (system prompt, history and
        the latest prompt), rebuilt from the per-step deltas; None where not recorded."""
        current: dict[str, list[dict[str, str]]] = {}
        out: list[list[dict[str, str]] | None] = []
        for s in self.steps:
            if s.context is None:
                out.append(None)
                continue
            if s.context_reset or s.agent not in current:
                current[s.agent] = list(s.context)
            else:
                current[s.agent] = current[s.agent] + list(s.context)
            out.append(current[s.agent])
        return out
