"""The run config: a TOML (or YAML) file validated into :class:`RunConfig`.

    name = "my-cohort"          # a label (part of the run id)
    seed = 0                    # the cohort seed: every game's seeds derive from it

    [[games]]                   # one block per game (several blocks may share a game)
    game = "resource"           # an id in negotiation_env.GAMES
    name = "resource"           # the block's name in game keys (default: the game id)
    policies = ["scripted:oracle", "scripted:linear",
                { spec = "openai:gpt-5-mini@https://api.openai.com/v1", label = "gpt5mini",
                  options = { api_key_env = "OPENAI_API_KEY" } }]
    pairings = "all"            # self | cross | all | balanced | ordered | [[label per seat], ...]
    games_per_cell = 10
    swap_first_speaker = true   # game i is opened by agent i mod n (config field first_speaker)
    swap_seats = false          # game i seats the lineup rotated by i mod n (see .plan); not
                                # with swap_first_speaker or pairings balanced / ordered
    max_steps = 10000           # per game; a game past it is stored as "truncated"
    config = { num_rounds = 4 } # overrides of the game's config for every game of the block

    [games.scenario_sets]       # name -> scenarios (names, paths or glob patterns)
    "0.5" = ["mc050_*"]

    [games.factors.stability]   # factors: every combination of their levels is a condition
    stable = { partner = "stable" }
    shifting = { partner = "shifting" }

    [[games.conditions]]        # and/or explicit conditions (crossed with the factors)
    name = "talk"
    config = { cheap_talk = true }

Policy specs: ``scripted:NAME`` (a preset of ``baselines.scripted``), ``hf:PATH`` (a local
or hub transformers model through ``baselines.llm.hf.HFPolicy``), ``openai:MODEL@URL``
(any OpenAI-compatible server through ``baselines.llm.api.APIPolicy``; ``@URL`` may be
left out) and ``python:MODULE:FACTORY`` (your own ``FACTORY(seed=..., **options)``).
Secrets never go in the file: name the environment variable that holds them. A spec or
option holding one (a URL with user information, a secret-named or key-shaped query,
fragment or ``;`` parameter, a key-shaped path segment, a known key prefix: see
:mod:`negotiation_env.core.secrets`) is refused.

Errors name the field: ``run config: games[0].games_per_cell: must be >= 1 (got 0)``.
Every problem of a file is reported at once, one line each: the schema's (unknown or
missing fields, wrong types and bounds) together with the checks that need no valid
schema (an unknown game, unknown fields of a block's ``config``, conditions and factor
levels, an unknown ``scripted:`` name); an unknown key or value comes with the name it
most likely misspells (``games[0].games_per_cel: unknown field (did you mean
'games_per_cell'?)``). :func:`.plan.make_plan` then reports every remaining problem of
every block and condition together.

Bounds (a hostile file is refused with :class:`RunConfigError`, so the CLI exits 2): a
file of at most :data:`MAX_CONFIG_BYTES`; at most :data:`MAX_CONFIG_DEPTH` levels of
nesting and :data:`MAX_CONFIG_VALUES` values once YAML aliases are expanded (a 1 KB
file of nested aliases can stand for ten million values); a YAML or TOML number of at
most :data:`MAX_NUMBER_CHARS` characters (Python's int-string limit would otherwise
raise a bare ``ValueError``, and a long YAML ``1:2:3`` number costs quadratic time);
seeds below 2**63, ``games_per_cell`` and ``max_steps`` at most 1,000,000. The plan's
size has its bound in :mod:`.plan`. Every string, keys included, must be text: one
holding a surrogate code point (a YAML ``"\\ud800"`` escape; :mod:`..core.encodable`) is
refused naming its field.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..core.config import ConfigError, closest
from ..core.datafiles import FileTooLarge, read_bounded
from ..core.encodable import unencodable_problem, where as where_in
from ..core.jsontext import MAX_NUMBER_CHARS
from ..core.visible import shown
from ..core.secrets import CREDENTIAL_ADVICE, find_credential, redact_text

__all__ = ["RunConfig", "GameBlock", "PolicyEntry", "ConditionEntry", "RunConfigError", "load_config",
           "parse_config", "read_config_data", "POLICY_KINDS", "DEFAULT_CONFIG", "MAX_CONFIG_BYTES", "MAX_CONFIG_DEPTH",
           "MAX_CONFIG_VALUES"]

#: the largest config file read (the shipped ones are under 2 KB)
MAX_CONFIG_BYTES = 1_000_000
#: nesting levels of the config's tables and lists (the shipped ones use 5)
MAX_CONFIG_DEPTH = 32
#: values (tables, lists and scalars) in the config, counted with YAML aliases expanded
MAX_CONFIG_VALUES = 100_000

POLICY_KINDS = ("scripted", "hf", "openai", "python")
PAIRINGS = ("self", "cross", "all", "balanced", "ordered")
DEFAULT_CONFIG = Path(__file__).with_name("configs") / "default.toml"
_LABEL = re.compile(r"[^|+\s]+")


class RunConfigError(ConfigError):
    """The run config is invalid; the message names the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PolicyEntry(_Strict):
    spec: str
    label: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("spec")
    @classmethod
    def _spec(cls, v: str) -> str:
        kind, sep, rest = v.partition(":")
        if not sep or not rest:
            raise ValueError(f"a policy spec is KIND:NAME with KIND one of {', '.join(POLICY_KINDS)}; got {v!r}")
        if kind not in POLICY_KINDS:
            raise ValueError(f"unknown policy kind {kind!r} in {v!r}; known kinds: {', '.join(POLICY_KINDS)}")
        if kind == "python" and rest.count(":") != 1:
            raise ValueError(f"a python policy spec is python:MODULE:FACTORY; got {v!r}")
        where = find_credential(v)
        if where:
            raise ValueError(f"a policy spec must not hold credentials; this one carries {where}: {CREDENTIAL_ADVICE}")
        return v

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        stack: list[tuple[str, Any]] = [(str(k), x) for k, x in v.items()]
        while stack:
            name, x = stack.pop()
            if isinstance(x, dict):
                stack.extend((f"{name}.{k}", y) for k, y in x.items())
            elif isinstance(x, list):
                stack.extend((f"{name}[{i}]", y) for i, y in enumerate(x))
            elif isinstance(x, str):
                where = find_credential(x)
                if where:
                    raise ValueError(f"option {redact_text(name)} must not hold credentials; it carries {where}: "
                                     f"{CREDENTIAL_ADVICE}")
        return v

    @field_validator("label")
    @classmethod
    def _label(cls, v: str | None) -> str | None:
        if v is not None and not _LABEL.fullmatch(v):
            raise ValueError(f"a label must be non-empty without spaces, '|' or '+'; got {redact_text(v)!r}")
        where = v is not None and find_credential(v)
        if where:
            raise ValueError(f"a label must not hold credentials; this one carries {where}")
        return v

    @property
    def name(self) -> str:
        """The label naming this policy in game keys and lineups (default: the spec)."""
        return self.label or self.spec

    @property
    def kind(self) -> str:
        return self.spec.partition(":")[0]


class ConditionEntry(_Strict):
    name: str
    config: dict[str, Any] = Field(default_factory=dict)


class GameBlock(_Strict):
    game: str
    name: str | None = None
    policies: list[PolicyEntry] = Field(min_length=1)
    pairings: Literal["self", "cross", "all", "balanced", "ordered"] | list[list[str]] = "all"
    games_per_cell: int = Field(1, ge=1, le=1_000_000)
    swap_first_speaker: bool = False
    swap_seats: bool = False
    max_steps: int = Field(10_000, ge=1, le=1_000_000)
    config: dict[str, Any] = Field(default_factory=dict)
    scenario_field: str = "scenario"
    scenario_sets: dict[str, list[str]] | None = None
    factors: dict[str, dict[str, dict[str, Any]]] | None = None
    conditions: list[ConditionEntry] | None = None

    @field_validator("policies", mode="before")
    @classmethod
    def _policies(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [{"spec": p} if isinstance(p, str) else p for p in v]
        return v

    @field_validator("pairings", mode="before")
    @classmethod
    def _pairings(cls, v: Any) -> Any:
        if isinstance(v, str) and v not in PAIRINGS:
            raise ValueError(f"must be one of {', '.join(PAIRINGS)} or a list of lineups; got {v!r}")
        if isinstance(v, list) and not all(isinstance(x, list) and all(isinstance(y, str) for y in x) for x in v):
            raise ValueError("a list of lineups is a list of lists of policy labels, one per seat")
        if isinstance(v, list) and not v:
            raise ValueError("the list of lineups is empty")
        return v

    @field_validator("scenario_sets", mode="before")
    @classmethod
    def _sets(cls, v: Any) -> Any:
        if isinstance(v, dict):
            return {k: [x] if isinstance(x, str) else x for k, x in v.items()}
        return v

    @field_validator("scenario_sets")
    @classmethod
    def _sets_nonempty(cls, v: dict[str, list[str]] | None) -> Any:
        if v is not None:
            if not v:
                raise ValueError("scenario_sets is empty; leave it out to use the game's default scenario")
            for k, x in v.items():
                if not x:
                    raise ValueError(f"scenario set {k!r} is empty")
                if not _LABEL.fullmatch(k):
                    raise ValueError(f"a scenario set name must be non-empty without spaces, '|' or '+'; got {k!r}")
        return v

    @field_validator("factors")
    @classmethod
    def _factors(cls, v: dict | None) -> Any:
        if v is not None:
            for f, levels in v.items():
                if not levels:
                    raise ValueError(f"factor {f!r} has no levels")
        return v

    @model_validator(mode="after")
    def _swaps(self) -> "GameBlock":
        # swap_seats moves every seat-bound role (first speaker, projects, the shifting
        # seat) with the policies; each combination below would undo or repeat that
        if self.swap_seats and self.swap_first_speaker:
            raise ValueError("swap_seats and swap_first_speaker are both on: swap_seats already alternates which "
                             "policy speaks first (the first speaker keeps its seat and the policies change seats); "
                             "with two seats both together give one policy the opening of every game. Turn one "
                             "off (swap_first_speaker with pairings = 'balanced' crosses seat and first speaker)")
        if self.swap_seats and self.pairings in ("balanced", "ordered"):
            raise ValueError(f"swap_seats with pairings = {self.pairings!r}: {self.pairings!r} already plays every "
                             "seat order as its own cell, so swap_seats would play each seat order twice; use "
                             "swap_seats with pairings 'self', 'cross', 'all' or a list of lineups")
        return self

    @property
    def block_name(self) -> str:
        return self.name or self.game


#: game-block fields -> the value at which :meth:`RunConfig.run_id` leaves them out
_ID_OMITTED_AT: dict[str, Any] = {"swap_seats": False}


class RunConfig(_Strict):
    name: str = "run"
    seed: int = Field(0, ge=0, lt=2**63)
    games: list[GameBlock] = Field(min_length=1)

    def run_id(self) -> str:
        """A stable id of this config (the same file gives the same id on any machine).
        Order counts (it orders the plan), so keys are not sorted. A block field of
        :data:`_ID_OMITTED_AT` is left out at its off value, which plans what a block
        without the field plans: a config not using it keeps its id, and its runs stay
        resumable, across versions with and without the field."""
        data = self.model_dump(mode="json")
        for block in data["games"]:
            for k, off in _ID_OMITTED_AT.items():
                if block.get(k, off) == off:
                    block.pop(k, None)
        blob = json.dumps(data, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]




_MODELS = {"": RunConfig, "games": GameBlock, "policies": PolicyEntry, "conditions": ConditionEntry}


def _fields_at(loc: tuple) -> list[str]:
    names = [p for p in loc[:-1] if isinstance(p, str)]
    model = _MODELS.get(names[-1] if names else "", None)
    return list(model.model_fields) if model is not None else []


def _name(key: Any) -> str:
    """A key as a location shows it: whole when short, else cut (:func:`shown`)."""
    text = str(key)
    return text if len(text) <= 60 else shown(text)


def _unknown_key(where: str, what: str, key: Any, names: list[str], pointer: str | None = None) -> str:
    """``WHERE: unknown WHAT (did you mean 'X'?)``; without a close name the valid names
    (or ``pointer``, where they are many)."""
    close = closest(key, names)
    if close is not None:
        return f"{where}: unknown {what} (did you mean {close!r}?)"
    return f"{where}: unknown {what}; " + (pointer or f"available: {', '.join(names)}")


def _messages(err: ValidationError) -> list[str]:
    lines = []
    for e in err.errors():
        loc = tuple(e["loc"])
        where = where_in(loc)
        if e["type"] == "extra_forbidden":
            allowed = _fields_at(loc)
            close = closest(loc[-1], allowed)
            if close is not None:
                lines.append(f"{where}: unknown field (did you mean {close!r}?)")
            else:
                lines.append(f"{where}: unknown field" + (f"; valid fields: {', '.join(allowed)}" if allowed else ""))
            continue
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        got = e.get("input")
        if e["type"] == "missing":
            lines.append(f"{where}: required field is missing")
        else:
            got = redact_text(got) if isinstance(got, str) else got  # a refused credential is not echoed
            lines.append(f"{where}: {msg} (got {shown(got)})" if not isinstance(got, (dict, list)) else f"{where}: {msg}")
    return lines


def join_problems(lines: list[str]) -> str:
    """One :class:`RunConfigError` message for every problem: ``run config: LINE``, or a
    count and a line each."""
    if len(lines) == 1:
        return f"run config: {lines[0]}"
    return f"run config: {len(lines)} problems:\n" + "\n".join(f"  {line}" for line in lines)


def _block_problems(i: int, block: Any) -> list[str]:
    """The checks of game block ``i`` that need no valid schema: its game, the fields of
    its ``config``, of each condition's and each factor level's config, and its
    ``scripted:`` names (each where the part it reads has the right type)."""
    from .. import GAMES

    if not isinstance(block, dict):
        return []
    where = f"games[{i}]"
    game = block.get("game")
    if not isinstance(game, str):
        return []
    if game not in GAMES:
        return [_unknown_key(f"{where}.game", f"game {shown(game)}", game, list(GAMES))]
    out = []
    fields = [f.name for f in dataclasses.fields(GAMES[game][0])]
    pointer = f"`negotiation-env games {game}` lists its fields"
    configs: list[tuple[str, Any]] = [(f"{where}.config", block.get("config"))]
    conditions = block.get("conditions")
    if isinstance(conditions, list):
        configs += [(f"{where}.conditions[{j}].config", c.get("config")) for j, c in enumerate(conditions)
                    if isinstance(c, dict)]
    factors = block.get("factors")
    if isinstance(factors, dict):
        configs += [(f"{where}.factors.{_name(f)}.{_name(lv)}", ov) for f, levels in factors.items()
                    if isinstance(levels, dict) for lv, ov in levels.items()]
    for at, cfg in configs:
        if isinstance(cfg, dict):
            out += [_unknown_key(f"{at}.{_name(k)}", f"config field of the {game} game", k, fields, pointer)
                    for k in cfg if k not in fields]
    policies = block.get("policies")
    if isinstance(policies, list):
        from .policies import PolicyUnavailable, scripted_registry, unknown_scripted

        for j, p in enumerate(policies):
            spec = p.get("spec") if isinstance(p, dict) else p
            if not (isinstance(spec, str) and spec.startswith("scripted:")):
                continue
            try:
                registry = scripted_registry(game)
            except PolicyUnavailable:
                break  # no scripted policies for this game: preflight names the spec
            name = spec.partition(":")[2]
            if registry is not None and name and name not in registry:
                out.append(f"{where}.policies[{j}]: {unknown_scripted(name, game, registry)}")
    return out


def _raw_problems(data: dict) -> list[str]:
    games = data.get("games")
    return [x for i, b in enumerate(games) for x in _block_problems(i, b)] if isinstance(games, list) else []


def _check_size(data: Any) -> None:
    """At most MAX_CONFIG_DEPTH levels and MAX_CONFIG_VALUES values, shared values counted
    each time they occur (what YAML aliases expand to). Stops at the first bound passed, so
    its cost is bounded too (a cyclic alias is an endless expansion: refused the same way)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen = 0
    while stack:
        value, level = stack.pop()
        seen += 1
        if seen > MAX_CONFIG_VALUES:
            raise RunConfigError(f"run config: more than {MAX_CONFIG_VALUES:,} values once YAML aliases are expanded; "
                                 "a run config is a few hundred (write the values out, or split the run)")
        if isinstance(value, (dict, list)):
            if level > MAX_CONFIG_DEPTH:
                raise RunConfigError(f"run config: nested more than {MAX_CONFIG_DEPTH} levels deep")
            stack.extend((v, level + 1) for v in (value.values() if isinstance(value, dict) else value))


def _check_text(data: Any) -> None:
    """Refuse a string (key or value) holding a surrogate code point: no character, so
    not text that names, keys, traces or terminals can carry (a YAML ``"\\ud800"``
    escape, or a dict built in Python; TOML refuses the escape itself)."""
    found = unencodable_problem(data)
    if found is not None:
        raise RunConfigError(f"run config: {found[0]}: {found[1]}; write the character itself")


def parse_config(data: Any) -> RunConfig:
    """Validate a config given as a dict (what the TOML/YAML file holds)."""
    if isinstance(data, RunConfig):
        return data
    if not isinstance(data, dict):
        raise RunConfigError(f"run config: the top level must be a table/mapping; got {type(data).__name__}")
    _check_size(data)
    _check_text(data)
    problems: list[str] = []
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as e:
        problems = _messages(e)
    problems += _raw_problems(data)
    if problems:
        raise RunConfigError(join_problems(problems)) from None
    return config


def load_config(path: str | Path | None = None) -> RunConfig:
    """Read and validate a ``.toml``, ``.yaml`` or ``.yml`` run config (default: the
    shipped scripted resource cohort, ``configs/default.toml``)."""
    p = Path(path) if path is not None else DEFAULT_CONFIG
    data = read_config_data(p)
    try:
        return parse_config(data)
    except RunConfigError as e:
        raise RunConfigError(str(e).replace("run config:", f"run config {p}:", 1)) from None


def read_config_data(path: str | Path) -> Any:
    """What a ``.toml``, ``.yaml`` or ``.yml`` config file holds, read within the bounds
    (module docstring) but not validated (:func:`parse_config` does that)."""
    p = Path(path)
    if not p.is_file():
        raise RunConfigError(f"run config: no such file {str(p)!r}")
    suffix = p.suffix.lower()
    try:
        text = read_bounded(p, MAX_CONFIG_BYTES)
    except FileTooLarge:
        raise RunConfigError(f"run config {p}: the file is larger than {MAX_CONFIG_BYTES:,} bytes, the limit") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RunConfigError(f"run config {p}: cannot read the file: {e}") from None
    if suffix == ".toml":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RunConfigError(f"run config {p}: invalid TOML: {e}") from None
        except RecursionError:  # tomllib parses nested arrays and inline tables recursively
            raise RunConfigError(f"run config {p}: nested more than {MAX_CONFIG_DEPTH} levels deep") from None
        except ValueError as e:  # int() past Python's int-string limit (4,300 digits)
            if "integer string conversion" not in str(e):
                raise RunConfigError(f"run config {p}: invalid TOML: {e}") from None
            raise RunConfigError(f"run config {p}: a number of more than 4,300 digits is too long; numbers have "
                                 f"at most {MAX_NUMBER_CHARS} characters") from None
    elif suffix in (".yaml", ".yml"):
        try:
            import yaml  # noqa: F401
        except ModuleNotFoundError:
            raise RunConfigError("run config: YAML needs PyYAML (pip install pyyaml), or write the config as TOML") from None
        data = _load_yaml(text, p)
    else:
        raise RunConfigError(f"run config {p}: unknown format {suffix!r}; use .toml, .yaml or .yml")
    return data


def _load_yaml(text: str, p: Path) -> Any:
    """``yaml.safe_load`` with bounds that hold while the file is read: nesting at most
    MAX_CONFIG_DEPTH levels (PyYAML composes recursively: 5,000 levels raised
    RecursionError) and numbers of at most MAX_NUMBER_CHARS characters, checked before
    conversion. Aliases are cheap to compose (each names one node); what they expand to is
    bounded by :func:`parse_config`'s walk."""
    import yaml

    class Refused(Exception):
        pass

    class BoundedLoader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent, index):
            self.depth += 1
            try:
                if self.depth > MAX_CONFIG_DEPTH:
                    raise Refused(f"nested more than {MAX_CONFIG_DEPTH} levels deep")
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    def number(base):
        def construct(loader, node):
            if len(node.value) > MAX_NUMBER_CHARS:
                raise Refused(f"a number of {len(node.value)} characters ({node.value[:12]}...) is too long; "
                              f"numbers have at most {MAX_NUMBER_CHARS} characters (line {node.start_mark.line + 1})")
            return base(loader, node)
        return construct

    BoundedLoader.add_constructor("tag:yaml.org,2002:int", number(yaml.SafeLoader.construct_yaml_int))
    BoundedLoader.add_constructor("tag:yaml.org,2002:float", number(yaml.SafeLoader.construct_yaml_float))
    try:
        return yaml.load(text, Loader=BoundedLoader)  # noqa: S506 - a SafeLoader subclass
    except Refused as e:
        raise RunConfigError(f"run config {p}: {e}") from None
    except yaml.YAMLError as e:
        raise RunConfigError(f"run config {p}: invalid YAML: {e}") from None
