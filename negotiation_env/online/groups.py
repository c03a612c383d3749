"""GRPO groups: prompt rows that name a game's starting state, and advantages against a
group's (or a role's) mean return.

GRPO scores each completion against the other completions of its prompt (its *group*).
For a game that is only fair when every member of a group starts from the same state:
the same game, configuration, seat and seed, and opponents drawing the same random
numbers (common random numbers: :func:`~.rollout.rollouts` seeds a fixed seat by the
game's seed alone, so only the learner's sampling differs within a group).

* :func:`grpo_dataset` builds the rows a trainer samples groups from: one per seed and
  learner seat, carrying ``game``, ``config`` (JSON), ``seat``, ``seed`` and ``prompt``
  (the seat's conversation when the game starts: the system prompt and what the env says
  before anyone has answered). The prompt's first message also carries the row's
  identity under :data:`ROW_KEY`, because TRL's ``rollout_func`` receives the prompts
  only, not the other columns.
* :func:`advantages` centres episode returns on their group's mean: ``baseline="group"``
  over every episode of a game start; ``baseline="role"`` over the episodes of the same
  seat only. The second is SPIRAL's role-conditioned advantage for self-play (Liu et al.,
  2025, "SPIRAL: Self-Play on Zero-Sum Games Incentivizes Reasoning via Multi-Agent
  Multi-Turn Reinforcement Learning"): in self-play one model plays every role, the roles
  have different expected returns (a first mover's edge, an asymmetric scenario), and a
  baseline shared across roles would reward the model for having drawn the better role.
  SPIRAL keeps a running mean per role across games; within a GRPO group the role's mean
  over the group's repeats is the same estimate without lag.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from .episode import Episode

__all__ = ["ROW_KEY", "grpo_dataset", "row_of", "advantages"]

#: the key of a prompt's first message holding its row's identity (JSON: game, config,
#: seat, seed); chat templates read only ``role`` and ``content`` and ignore it
ROW_KEY = "rollout"


def _config_json(config: Mapping[str, Any] | None) -> str:
    try:
        return json.dumps(dict(config or {}), sort_keys=True)
    except TypeError as e:
        raise ValueError(f"grpo_dataset: the config must be JSON-serialisable (rows carry it as JSON); {e}") from None


def _start_context(game: str, config: dict[str, Any], seat: str, seed: int) -> list[dict[str, str]]:
    import negotiation_env

    env = negotiation_env.env(game=game, **config)
    env.reset(seed=seed)
    obs = env.observe(seat)
    conv = obs.get("conversation") if isinstance(obs, Mapping) else None
    if not conv:
        raise ValueError(f"the {game} game gives seat {seat} no conversation at the start: it has no text prompt "
                         "to train a language model on")
    return [{"role": str(m["role"]), "content": str(m["content"])} for m in conv]


def grpo_dataset(game: str, seeds: Sequence[int], seat: str | Sequence[str] | None = None, *,
                 config: Mapping[str, Any] | None = None, as_list: bool = False) -> Any:
    """The prompt rows of a GRPO run (module docstring): one per seed and seat, ordered by
    seed then seat. ``seat``: an agent name, several, or None for every seat of the game.
    Returns a ``datasets.Dataset`` (columns ``prompt``, ``game``, ``config``, ``seat``,
    ``seed``), or with ``as_list`` a list of dicts (no ``datasets`` needed).

    Each row's ``prompt`` is the seat's conversation at the start of game ``seed``; its
    first message carries the row identity (:data:`ROW_KEY`, read back by :func:`row_of`).
    Raises ``ValueError`` for an unknown seat, a bad seed or a config that is not JSON."""
    import negotiation_env

    cfg_json = _config_json(config)
    cfg = json.loads(cfg_json)
    agents = list(negotiation_env.env(game=game, **cfg).possible_agents)
    chosen = agents if seat is None else [seat] if isinstance(seat, str) else list(seat)
    for a in chosen:
        if a not in agents:
            raise ValueError(f"grpo_dataset: the {game} game has no seat {a!r}; its seats: {', '.join(agents)}")
    if not chosen:
        raise ValueError("grpo_dataset: no seat chosen")
    rows = []
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, int) or s < 0:
            raise ValueError(f"grpo_dataset: each seed must be an integer >= 0; got {s!r}")
        for a in chosen:
            prompt = _start_context(game, cfg, a, s)
            prompt[0][ROW_KEY] = json.dumps({"game": game, "config": cfg, "seat": a, "seed": s}, sort_keys=True)
            for m in prompt[1:]:  # one schema for every message (a dataset column is typed)
                m[ROW_KEY] = ""
            rows.append({"prompt": prompt, "game": game, "config": cfg_json, "seat": a, "seed": s})
    if as_list:
        return rows
    try:
        from datasets import Dataset
    except ImportError:  # pragma: no cover - depends on the install
        raise ImportError("grpo_dataset needs the datasets library (pip install 'negotiation_env[data]'), "
                          "or pass as_list=True") from None
    return Dataset.from_list(rows)


def row_of(prompt: Any) -> dict[str, Any]:
    """The identity of a :func:`grpo_dataset` row from its prompt: ``{"game", "config",
    "seat", "seed"}`` (config a dict). Raises ``ValueError`` for a prompt without one."""
    first = prompt[0] if isinstance(prompt, Sequence) and not isinstance(prompt, str) and prompt else None
    raw = first.get(ROW_KEY) if isinstance(first, Mapping) else None
    if not raw:
        raise ValueError(f"the prompt does not name a game start (no {ROW_KEY!r} key on its first message): build "
                         "the training dataset with negotiation_env.online.grpo_dataset(...)")
    row = json.loads(raw)
    return {"game": row["game"], "config": dict(row["config"]), "seat": row["seat"], "seed": int(row["seed"])}


def advantages(episodes: Sequence[Episode], *, baseline: str = "role", scale: bool = False) -> list[float]:
    """Per episode, its return minus the mean return of its group (module docstring): the
    episodes of the same game, config and seed, and with ``baseline="role"`` (default)
    the same seat; ``baseline="group"`` pools the seats. ``scale``: divide by the group's
    standard deviation (population; an advantage of 0 where it is 0), as GRPO does."""
    if baseline not in ("role", "group"):
        raise ValueError(f"advantages: baseline must be 'role' or 'group'; got {baseline!r}")
    keys = []
    for e in episodes:
        k = (e.game, json.dumps(e.config, sort_keys=True, default=str), e.seed)
        keys.append(k + (e.seat,) if baseline == "role" else k)
    groups: dict[tuple, list[float]] = {}
    for k, e in zip(keys, episodes):
        groups.setdefault(k, []).append(float(e.game_return))
    stats = {}
    for k, xs in groups.items():
        mean = sum(xs) / len(xs)
        std = (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5
        stats[k] = (mean, std)
    out = []
    for k, e in zip(keys, episodes):
        mean, std = stats[k]
        a = float(e.game_return) - mean
        out.append((a / std if std > 0 else 0.0) if scale else a)
    return out
