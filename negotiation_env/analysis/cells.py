"""Which cell of an experiment a trace belongs to, read from the trace alone.

Reports, the viewer and the judge group games by the fields below. Everything is read
from the trace (its ``config``, ``policies``, ``run`` and round outcomes); the only
outside data is the shipped scenario file a scenario name points to (for the M/C level).

Who played (every game)
    seat label: ``policies[agent].label``, else its ``spec``, else its ``name``, else
    ``"?"`` (the runner sets labels; :func:`negotiation_env.traces.record` alone gives
    the policy's name, e.g. ``"oracle"``).
    lineup: the seat labels in ``agents`` order.

Resource game (seed 000 §4.1): :class:`ResourceCell`
    pairing: the two seat labels sorted and joined by ``" × "`` (seats are unordered:
    the cohort swaps first speakers and seats); ``self_play`` when both labels are equal.
    mc: the M/C level of the game's scenario (``trace["scenario"]``, else
    ``config["scenario"]``): the scenario file's ``meta.target_ratio`` when it has one
    (the shipped pool and generated files do), else the exact solver ratio snapped to the
    nearest paper level (0.5, 0.8, 1.0) within 0.05, else rounded to two decimals; None
    when the scenario cannot be loaded by that name. Rotating games keep one level.
    talk: ``config["cheap_talk"]`` (the no-talk baseline is ``False``).
    partner: ``config["partner"]`` (``stable`` / ``shifting``).
    rotation: ``config["rotation"]`` (``fixed`` / ``rotating``).
    variant: the other settings that change the game, joined by ``", "`` (empty for the
    paper's main cohort): ``transparency=full|joint``, ``intervention=NAME``,
    ``no-thinking``, ``unlimited-talk`` (``cheap_talk_turns = 0``), ``turns=N`` (other
    than 5), ``rounds=N`` (other than 4).

Rulemaking game (seed 001 §4): :class:`RulemakingCell`
    environment: ``config["environment"]``; traces store the scenario's name, which for
    a shipped scenario is shown as ``"ID name"`` (``"E1 Fragmented"``).
    family: the seat label when all five seats share one (the paper's model family),
    else ``"mixed:"`` + the sorted distinct labels joined by ``"+"``.
    condition: ``config["condition"]`` (``none``/``ledger``/``native``/...).

Matrix game (seed 002): :class:`MatrixCell`
    pairing: as for the resource game (two seats, labels sorted, ``" × "``).
    stage_game, framing: ``config["stage_game"]``, ``config["framing"]``.
    talk: ``config["treatment"] == "communication"``.

Any game
    condition label (:func:`condition_label`): the runner's ``run.condition`` when set,
    else the game's own label (:meth:`~.hooks.GameAnalysis.condition_label`: the cell
    fields above joined by ``" | "``; for a game without analysis hooks, its config's
    condition fields as ``field=value``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .hooks import analysis_of

__all__ = [
    "as_dict", "seat_label", "lineup", "pairing", "mc_level", "mc_text", "scenario_ratio", "ResourceCell", "RulemakingCell",
    "resource_cell", "rulemaking_cell", "condition_label", "outcome_tags", "MC_LEVELS", "MatrixCell", "matrix_cell",
    "usable", "unusable_reason", "cell_fields",
]

#: the compatibility levels of seed 000 §4.1
MC_LEVELS = (0.5, 0.8, 1.0)


def as_dict(trace: Any) -> dict[str, Any]:
    """A trace as the JSON dict the metrics read (a :class:`GameTrace` or a dict)."""
    if isinstance(trace, Mapping):
        return dict(trace)
    to_dict = getattr(trace, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise TypeError(f"expected a trace dict or GameTrace, got {type(trace).__name__}")


def usable(traces: Iterable[Any], game: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Complete traces of ``game`` with resolved rounds, and ids of those left out (with
    why): the games the report's tables count. (Here, not in :mod:`.report`, so the
    runner's per-game summary can use it without importing the statistics stack.)"""
    keep, left = [], []
    for t in traces:
        d = as_dict(t)
        if d.get("game") != game:
            continue
        why = unusable_reason(d)
        if why is None:
            keep.append(d)
        else:
            left.append(f"{d.get('game_id')} ({why})")
    return keep, left


def unusable_reason(trace: Mapping[str, Any]) -> str | None:
    """Why :func:`usable` leaves ``trace`` out (``"degraded: ..."``, or its status:
    ``"error"``, ``"truncated"``, ``"complete"`` for a complete game without a resolved
    round), or None when it is counted."""
    if ((trace.get("meta") or {}).get("model_calls") or {}).get("degraded"):
        return "degraded: a model call ran out of retries"
    if trace.get("status", "complete") == "complete" and trace.get("rounds"):
        return None
    return str(trace.get("status"))


def seat_label(trace: Mapping[str, Any], agent: str) -> str:
    """The label of the policy in ``agent``'s seat (label, else spec, else name)."""
    p = (trace.get("policies") or {}).get(agent) or {}
    for key in ("label", "spec", "name"):
        v = p.get(key)
        if isinstance(v, str) and v:
            return v
    return "?"


def lineup(trace: Mapping[str, Any]) -> list[str]:
    return [seat_label(trace, a) for a in trace.get("agents") or []]


def pairing(trace: Mapping[str, Any]) -> str:
    """Unordered pairing of a two-seat game (``"a × b"``, labels sorted); for more seats
    the family (see :func:`rulemaking_cell`)."""
    labels = lineup(trace)
    if len(labels) == 2:
        return " × ".join(sorted(labels))
    distinct = sorted(set(labels))
    if len(distinct) == 1:
        return distinct[0]
    return "mixed:" + "+".join(distinct)


@functools.lru_cache(maxsize=512)
def _scenario_level(name: str) -> tuple[float | None, float | None]:
    from ..core.datafiles import read_json
    from ..games.resource.scenario import Scenario, ScenarioError
    from ..games.resource.solver import solve

    from ..games.resource.scenario import LEGACY_PREFIX

    folder = "scenarios_legacy" if name.startswith(LEGACY_PREFIX) else "scenarios"
    try:
        data, source = read_json(name, "negotiation_env.games.resource", ScenarioError, folder=folder)
        scenario = Scenario.from_dict(data, source=source)
    except (ScenarioError, OSError, TypeError, ValueError):
        return None, None
    ratio = float(solve(scenario).ratio)
    meta = data.get("meta") if isinstance(data, dict) else None
    target = meta.get("target_ratio") if isinstance(meta, dict) else None
    if isinstance(target, (int, float)) and not isinstance(target, bool) and math.isfinite(target):
        return round(float(target), 2), ratio
    nearest = min(MC_LEVELS, key=lambda lv: abs(lv - ratio))
    return (nearest if abs(nearest - ratio) <= 0.05 + 1e-9 else round(ratio, 2)), ratio


def mc_text(mc: float | None) -> str:
    """An M/C level as the tables show it: ``0.5``, ``0.8``, ``1.0``; ``?`` if unknown."""
    if mc is None:
        return "?"
    return f"{mc:.1f}" if round(mc, 1) == mc else f"{mc:g}"


def mc_level(scenario: str | None) -> float | None:
    """The M/C level of a resource scenario name (see the module docstring)."""
    if not isinstance(scenario, str) or not scenario:
        return None
    return _scenario_level(scenario)[0]


def scenario_ratio(scenario: str | None) -> float | None:
    """The exact solver ratio M / (V_a + V_b) of a scenario name (None if unknown)."""
    if not isinstance(scenario, str) or not scenario:
        return None
    return _scenario_level(scenario)[1]


#: env ids of the resource game whose shipped scenario ids now load with the legacy prefix
#: (``resource_v0`` played the pool kept in ``scenarios_legacy/``, under the bare names)
_LEGACY_POOL_IDS = ("resource_v0",)


def _scenario_name(trace: Mapping[str, Any]) -> str | None:
    """The id that loads the scenario a trace played: a shipped id recorded under an env id
    of the earlier pool names that pool's scenario (``legacy_`` + id), never today's
    scenario of the same name."""
    name = trace.get("scenario")
    if not isinstance(name, str):
        name = (trace.get("config") or {}).get("scenario")
    if not isinstance(name, str):
        return None
    from ..games.resource.scenario import LEGACY_PREFIX

    if (trace.get("env_name") in _LEGACY_POOL_IDS and not name.startswith(LEGACY_PREFIX)
            and not name.endswith(".json") and "/" not in name):
        return LEGACY_PREFIX + name
    return name


@dataclass(frozen=True)
class ResourceCell:
    pairing: str
    self_play: bool
    mc: float | None
    talk: bool
    partner: str
    rotation: str
    variant: str

    @property
    def mc_text(self) -> str:
        return mc_text(self.mc)


@dataclass(frozen=True)
class RulemakingCell:
    environment: str
    family: str
    condition: str


def _variant(cfg: Mapping[str, Any]) -> str:
    parts = []
    if cfg.get("transparency", "none") not in (None, "none"):
        parts.append(f"transparency={cfg['transparency']}")
    if cfg.get("intervention") is not None:
        parts.append(f"intervention={cfg['intervention']}")
    if cfg.get("thinking", True) is False:
        parts.append("no-thinking")
    turns = cfg.get("cheap_talk_turns", 5)
    if cfg.get("cheap_talk", True) is not False:
        if turns == 0:
            parts.append("unlimited-talk")
        elif turns != 5:
            parts.append(f"turns={turns}")
    rounds = cfg.get("num_rounds", 4)
    if rounds != 4:
        parts.append(f"rounds={rounds}")
    return ", ".join(parts)


def resource_cell(trace: Mapping[str, Any]) -> ResourceCell:
    cfg = trace.get("config") or {}
    labels = lineup(trace)
    return ResourceCell(
        pairing=pairing(trace),
        self_play=len(labels) == 2 and labels[0] == labels[1],
        mc=mc_level(_scenario_name(trace)),
        talk=cfg.get("cheap_talk", True) is not False,
        partner=str(cfg.get("partner", "stable")),
        rotation=str(cfg.get("rotation", "fixed")),
        variant=_variant(cfg),
    )


@functools.lru_cache(maxsize=1)
def _rulemaking_names() -> dict[str, str]:
    """Shipped rulemaking scenarios: name -> "ID name" (traces store the name)."""
    from ..games.rulemaking.scenario import list_scenarios, load_scenario

    out = {}
    for sid in list_scenarios():
        sc = load_scenario(sid)
        out[sc.name] = f"{sc.id} {sc.name}"
        out[sc.id] = f"{sc.id} {sc.name}"
    return out


def rulemaking_cell(trace: Mapping[str, Any]) -> RulemakingCell:
    cfg = trace.get("config") or {}
    env = cfg.get("environment")
    env = "?" if env is None else str(env)
    return RulemakingCell(environment=_rulemaking_names().get(env, env), family=pairing(trace),
                          condition=str(cfg.get("condition", "?")))


@dataclass(frozen=True)
class MatrixCell:
    pairing: str
    self_play: bool
    stage_game: str
    framing: str
    talk: bool


def matrix_cell(trace: Mapping[str, Any]) -> MatrixCell:
    cfg = trace.get("config") or {}
    labels = lineup(trace)
    return MatrixCell(pairing=pairing(trace), self_play=len(labels) == 2 and labels[0] == labels[1],
                      stage_game=str(cfg.get("stage_game", "prisoners_dilemma")),
                      framing=str(cfg.get("framing", "neutral")),
                      talk=cfg.get("treatment", "communication") == "communication")


def condition_label(trace: Mapping[str, Any]) -> str:
    """The runner's condition name, else the game's own label of the trace's cell
    (:meth:`~.hooks.GameAnalysis.condition_label`)."""
    run = trace.get("run") or {}
    if isinstance(run, Mapping) and run.get("condition"):
        return str(run["condition"])
    return analysis_of(trace.get("game")).condition_label(trace)


def outcome_tags(trace: Mapping[str, Any]) -> list[str]:
    """Game-level outcome tags for filtering: the game's own
    (:meth:`~.hooks.GameAnalysis.outcome_tags`; resource: ``overdraw`` / ``optimal`` /
    ``suboptimal`` for each kind of round the game had; rulemaking: the run label;
    matrix: ``fallback`` (a default action or message was used), ``ended_by_error``),
    then ``retry`` (some step was refused and asked again), ``error`` (the game ended in
    an error) and ``truncated``."""
    tags = list(analysis_of(trace.get("game")).outcome_tags(trace))
    if any(not s.get("valid", True) for s in trace.get("steps") or []):
        tags.append("retry")
    if trace.get("status") == "error":
        tags.append("error")
    if trace.get("status") == "truncated":
        tags.append("truncated")
    return tags


def cell_fields(trace: Mapping[str, Any]) -> dict[str, Any]:
    """The cell columns of ``cells.csv`` the trace's game fills
    (:meth:`~.hooks.GameAnalysis.cell_fields`)."""
    return analysis_of(trace.get("game")).cell_fields(trace)
