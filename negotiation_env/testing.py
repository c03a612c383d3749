"""A conformance checker for the registered games: :func:`check_game`.

A game added to the registry (:mod:`negotiation_env.core.registry`) passes
``check_game(name)`` for its main conditions; the package's own test suite runs it over
every registered game (``tests/test_check_game.py``).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import warnings
from typing import Any, Callable

import numpy as np
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

__all__ = ["check_game", "CHECKS", "INFO_KEYS", "INVALID_ACTIONS"]

#: the keys every agent's info carries, in both APIs, at every state: the ones the trace
#: recorder reads (``round``, ``phase``, ``events``, ``last_turn``, ``last_round``) and the
#: ones the adapters add (``active_agents``, ``active_agent``)
INFO_KEYS: tuple[str, ...] = ("round", "phase", "events", "last_turn", "last_round", "active_agents", "active_agent")

#: answers no game accepts: each must be refused without raising (the env asks again or
#: falls back)
INVALID_ACTIONS: tuple[Any, ...] = ("nonsense", {}, "{", "")

#: the checks :func:`check_game` runs, in order, by the name its error gives
CHECKS: tuple[str, ...] = ("api_test", "parallel_api_test", "seed_test", "parallel_seed_test", "invalid_action",
                           "info_keys", "reused_env", "spec_parts", "answer_format")

#: PettingZoo's api_test recommends Box/Discrete spaces and player_N names; the games'
#: text-first Dict spaces and scenario agent ids are deliberate
_API_WARNINGS = ("Observation space for each agent probably", "Action space for each agent probably",
                 "We recommend agents to be named", "Observation is not a NumPy array")

#: how many agent turns a checked game plays at most
_MAX_STEPS = 400


class _Failed(Exception):
    """One check's failure, with what it found."""


def _play(env, seed: int, choose: Callable[[str, Any, int], Any], on_info: Callable | None = None) -> list:
    """One AEC game from ``reset(seed=seed)``, each action ``choose(agent, obs, step)``:
    the list of (agent, observation, reward, termination, truncation) per turn."""
    env.reset(seed=seed)
    log = []
    for n, agent in enumerate(env.agent_iter(_MAX_STEPS)):
        obs, reward, term, trunc, info = env.last()
        if on_info is not None:
            on_info(f"AEC last() of {agent} at turn {n}", info)
            for a, i in env.infos.items():
                on_info(f"AEC infos[{a!r}] at turn {n}", i)
        log.append((agent, obs, reward, term, trunc))
        env.step(None if term or trunc else choose(agent, obs, n))
    return log


def _random_chooser(env, seed: int) -> Callable[[str, Any, int], Any]:
    """Actions sampled from each agent's action space, with an invalid answer now and
    then, all drawn from ``seed`` (no global random state)."""
    rng = np.random.default_rng(seed)
    spaces = {}

    def choose(agent: str, obs: Any, n: int) -> Any:
        if rng.random() < 0.2:
            return INVALID_ACTIONS[int(rng.integers(len(INVALID_ACTIONS)))]
        if agent not in spaces:
            space = spaces[agent] = env.action_space(agent)
            space.seed(int(rng.integers(2**31)))
        return spaces[agent].sample()

    return choose


def _check_info(where: str, info: Any) -> None:
    if not isinstance(info, dict):
        raise _Failed(f"{where} is a {type(info).__name__}, not a dict")
    missing = [k for k in INFO_KEYS if k not in info]
    if missing:
        raise _Failed(f"{where} lacks {', '.join(map(repr, missing))} (has {', '.join(map(repr, sorted(info)))})")
    if not isinstance(info["events"], list):
        raise _Failed(f"{where}['events'] is a {type(info['events']).__name__}, not a list")


def _info_keys(make_env, make_parallel, seed: int) -> None:
    env = make_env()
    _play(env, seed, _random_chooser(env, seed), on_info=_check_info)
    penv = make_parallel()
    _, infos = penv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for a, i in infos.items():
        _check_info(f"parallel reset() infos[{a!r}]", i)
    for a in penv.possible_agents:
        penv.action_space(a).seed(int(rng.integers(2**31)))
    n = 0
    while penv.agents and n < _MAX_STEPS:
        actions = {a: penv.action_space(a).sample() for a in penv.agents}
        _, _, _, _, infos = penv.step(actions)
        for a, i in infos.items():
            _check_info(f"parallel step() infos[{a!r}] at step {n}", i)
        n += 1


def _same(a: list, b: list, what: str) -> None:
    for n, (x, y) in enumerate(zip(a, b)):
        if not data_equivalence(x, y):
            raise _Failed(f"{what}: turn {n} differs ({x[0]!r}: reward {x[2]!r} vs {y[2]!r}, "
                          f"observation {'equal' if data_equivalence(x[1], y[1]) else 'different'})")
    if len(a) != len(b):
        raise _Failed(f"{what}: {len(a)} turns vs {len(b)}")


def _reused_env(make_env, seed: int) -> None:
    fresh = make_env()
    expected = _play(fresh, seed, _random_chooser(fresh, seed))
    env = make_env()
    _play(env, seed + 1, _random_chooser(env, seed + 1))  # another game first
    again = _play(env, seed, _random_chooser(env, seed))
    _same(expected, again, f"a reused env reset with seed={seed} played other than a new one")


def _invalid_action(make_env, seed: int) -> None:
    for bad in INVALID_ACTIONS:
        env = make_env()
        try:
            _play(env, seed, lambda agent, obs, n: bad)
        except Exception as e:  # noqa: BLE001 - any exception is the failure reported
            raise _Failed(f"answering {bad!r} at every turn raised {type(e).__name__}: {e}") from e


def _shape(spec, part: str, value: Any) -> str | None:
    """What is wrong with the imported ``part`` of ``spec`` (None: nothing)."""
    def lacks(*attrs: str) -> str | None:
        gone = [a for a in attrs if not hasattr(value, a)]
        return f"lacks {', '.join(gone)}" if gone else None

    if part == "answer_format":
        return lacks("build")
    if part == "summary":
        return lacks("columns", "description", "kept", "measures", "figures")
    if part == "scripted":
        return lacks("POLICIES", "make")
    if part == "play":
        return lacks("phase_line", "short_form", "ending")
    if part == "analysis":
        from .analysis.hooks import GameAnalysis

        return None if isinstance(value, GameAnalysis) else f"is a {type(value).__name__}, not a GameAnalysis"
    if not callable(value):
        return "is not callable"
    if part == "condition_values":
        values = value()
        if not isinstance(values, dict) or not all(isinstance(v, list) for v in values.values()):
            return f"returned {values!r}, not a dict of lists"
    return None


def _spec_parts(game_id: str) -> None:
    from .core import registry

    spec = registry.get(game_id)
    for part in registry.PARTS:
        if not spec.has(part):
            try:
                spec.part(part)
            except registry.PartMissing:
                continue
            raise _Failed(f"the undeclared part {part!r} did not raise PartMissing")
        try:
            value = spec.part(part)
        except Exception as e:  # noqa: BLE001
            raise _Failed(f"part {part!r} ({getattr(spec, part)}) does not import: {type(e).__name__}: {e}") from e
        wrong = _shape(spec, part, value)
        if wrong:
            raise _Failed(f"part {part!r} ({getattr(spec, part)}) {wrong}")
    if not set(spec.condition_fields) <= set(_fields(spec.config_cls)):
        raise _Failed(f"condition_fields {spec.condition_fields} are not all fields of {spec.config_cls.__name__}")


def _fields(cls) -> list[str]:
    import dataclasses

    return [f.name for f in dataclasses.fields(cls)]


def _answer_format(game_id: str, make_env, seed: int) -> None:
    from .core import registry
    from .core.answer_format import AnswerFormat, answer_format, spec_of

    if not registry.get(game_id).has("answer_format"):
        return
    seen = 0

    def choose(agent, obs, n):
        nonlocal seen
        spec = spec_of(obs)
        if spec is not None:
            fmt = answer_format(obs)
            if not isinstance(fmt, AnswerFormat):
                raise _Failed(f"turn {n}: answer_format(observation) gave {fmt!r}, not an AnswerFormat")
            for f in (fmt, fmt.strict):
                if f is not None and f.regex is not None:
                    re.compile(f.regex)
                if f is not None and f.json_schema is not None:
                    json.dumps(f.json_schema)
            seen += 1
        return chooser(agent, obs, n)

    env = make_env()
    chooser = _random_chooser(env, seed)
    _play(env, seed, choose)
    if not seen:
        raise _Failed("the spec declares an answer format, but no acting agent's observation carried one")


def check_game(game_id: str, **config: Any) -> None:
    """Check that the registered game ``game_id``, built with ``config`` (its config
    fields), keeps the contract every game owes; raise ``AssertionError`` naming the
    failed check, the game and the config otherwise. The checks, in order (:data:`CHECKS`):

    * ``api_test``, ``parallel_api_test``, ``seed_test``, ``parallel_seed_test``:
      PettingZoo's own suites on :func:`negotiation_env.env` and
      :func:`negotiation_env.parallel_env` (their warnings about Dict spaces and agent
      names are silenced: they are deliberate);
    * ``invalid_action``: answering each of :data:`INVALID_ACTIONS` (``"nonsense"``, an
      empty dict, broken JSON, empty text) at every turn never raises: the env asks again
      or falls back;
    * ``info_keys``: at every state of a game played with random actions, every agent's
      info, from ``last()`` and ``env.infos`` (AEC) and from ``reset()`` and ``step()``
      (parallel), is a dict with the keys of :data:`INFO_KEYS`: ``round``, ``phase``,
      ``events`` (a list), ``last_turn``, ``last_round``, ``active_agents``,
      ``active_agent``;
    * ``reused_env``: an env that played another game, reset with a seed and given the
      same random actions (sampled from the action spaces, some of
      :data:`INVALID_ACTIONS` among them), plays exactly as a new env: the same
      observations, rewards, terminations and truncations, turn by turn;
    * ``spec_parts``: each optional part the registry spec declares imports and has its
      shape (``answer_format`` has ``build``; ``summary`` has ``columns``,
      ``description``, ``kept``, ``measures``, ``figures``; ``scripted`` has ``POLICIES``
      and ``make``; ``play`` has ``phase_line``, ``short_form``, ``ending``; the others are
      callables, ``condition_values()`` a dict of lists), an undeclared part raises
      :class:`~negotiation_env.core.registry.PartMissing`, and the condition fields are
      config fields;
    * ``answer_format``: where the spec declares an answer format, every acting agent's
      observation that carries one turns into an
      :class:`~negotiation_env.core.answer_format.AnswerFormat` whose regex compiles
      and whose JSON schema is JSON.

    Games play from fixed seeds, so a check gives the same answer on every run.
    """
    import negotiation_env
    from .core import registry

    registry.get(game_id)  # an unknown game is a ConfigError naming the registered ones
    shown = ", ".join(f"{k}={v!r}" for k, v in config.items())
    label = f"check_game({game_id!r}{', ' + shown if shown else ''})"

    def make_env():
        return negotiation_env.env(game_id, **config)

    def make_parallel():
        return negotiation_env.parallel_env(game_id, **config)

    seed = 11
    checks: list[tuple[str, Callable[[], None]]] = [
        ("api_test", lambda: api_test(make_env(), num_cycles=40)),
        ("parallel_api_test", lambda: parallel_api_test(make_parallel(), num_cycles=40)),
        ("seed_test", lambda: seed_test(make_env, num_cycles=20)),
        ("parallel_seed_test", lambda: parallel_seed_test(make_parallel, num_cycles=20)),
        ("invalid_action", lambda: _invalid_action(make_env, seed)),
        ("info_keys", lambda: _info_keys(make_env, make_parallel, seed)),
        ("reused_env", lambda: _reused_env(make_env, seed)),
        ("spec_parts", lambda: _spec_parts(game_id)),
        ("answer_format", lambda: _answer_format(game_id, make_env, seed)),
    ]
    # PettingZoo's suites print their progress; the checker's answer is its exception
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        for message in _API_WARNINGS:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        for name, run in checks:
            try:
                run()
            except _Failed as e:
                raise AssertionError(f"{label}: {name} failed: {e}") from None
            except Exception as e:  # noqa: BLE001 - PettingZoo's suites fail by assert or raise
                raise AssertionError(f"{label}: {name} failed: {type(e).__name__}: {e}") from e
