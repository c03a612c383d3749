"""Minari datasets from traces: one single-agent dataset per seat.

Minari 0.5 has no multi-agent datasets, so a game's seats become separate datasets
``{prefix}/{game}-{agent}-v0`` (Minari's ``namespace/name-vN`` id syntax). Each episode
of seat ``a`` is that seat's own decisions in one game, retries included:

* ``observations``: ``Dict({"features": Box(float32, (d,)), "prompt": Text})`` with one
  entry per decision plus the final one (the features after the last step, an empty
  prompt), the Minari convention of ``T + 1`` observations;
* ``actions``: ``Text``, the raw action as the env received it (model text, or the
  structured action as JSON), so an offline learner sees exactly what was played;
* ``rewards``: what the seat was paid from its decision up to its next one (the
  transitions table's definition, so rewards sum to the seat's game return);
* ``terminations`` / ``truncations``: on the last step, by the game's status.

The datasets are written with Minari's ``arrow`` storage by
``minari.create_dataset_from_buffers``. Two Minari 0.5.4 quirks shape this module:
``EpisodeBuffer.add_step_data`` imports jax, so buffers are built whole here; and the
Arrow reader breaks on 1-D ndarray info fields, so no infos are stored (the trace file
keeps everything). Minari's storage imports pillow, which it does not declare: the
``minari`` extra installs it. Minari finds datasets under ``MINARI_DATASETS_PATH``;
:func:`to_minari` sets it for the duration of the call when ``root`` is given.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ..core.spaces import ObsText, action_text, sanitize
from .export import transitions
from .reader import iter_traces

__all__ = ["to_minari", "dataset_id", "MinariExportError", "TEXT_MAX"]

TEXT_MAX = 1_000_000


class MinariExportError(ValueError):
    """The traces cannot become Minari datasets (mixed games, no steps, ...)."""


def dataset_id(prefix: str, game: str, agent: str, version: int = 0) -> str:
    return f"{prefix}/{game}-{agent.replace('_', '-')}-v{version}"


@contextlib.contextmanager
def _datasets_root(root: str | Path | None) -> Iterator[None]:
    if root is None:
        yield
        return
    old = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(Path(root).resolve())
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MINARI_DATASETS_PATH", None)
        else:
            os.environ["MINARI_DATASETS_PATH"] = old


def _episodes(source: Any) -> tuple[str, list[str], dict[str, list[dict[str, Any]]]]:
    """game, agents, and per agent a list of episodes (dicts of per-step lists)."""
    traces = list(iter_traces(source)) if isinstance(source, (str, Path)) else list(source)
    if not traces:
        raise MinariExportError("no traces to export")
    games = {t.game for t in traces}
    if len(games) != 1:
        raise MinariExportError(f"a Minari dataset holds one game; these traces mix {sorted(games)}")
    game = games.pop()
    agents = list(traces[0].agents)
    prompts = {(t.game_id, s.index): s.observation for t in traces for s in t.steps}
    eps: dict[str, dict[tuple[str, str], dict[str, Any]]] = {a: {} for a in agents}
    for row in transitions(traces):
        a = row["agent"]
        if a not in eps:
            raise MinariExportError(f"agent {a!r} is not a seat of the first trace ({agents}); mixed line-ups")
        ep = eps[a].setdefault((row["episode_id"], a), {"features": [], "prompts": [], "actions": [], "rewards": [],
                                                         "terminations": [], "truncations": [], "final": None})
        if row["observation"] is None:
            raise MinariExportError(f"episode {row['episode_id']}: step {row['step']} has no numeric features")
        ep["features"].append(row["observation"])
        ep["prompts"].append(sanitize(prompts.get((row["episode_id"], row["step"])) or ""))
        ep["actions"].append(row["action_text"])
        ep["rewards"].append(float(row["reward"]))
        ep["terminations"].append(bool(row["terminated"]))
        ep["truncations"].append(bool(row["truncated"]))
        if row["done"]:
            ep["final"] = row["next_observation"] if row["next_observation"] is not None else row["observation"]
    return game, agents, {a: list(v.values()) for a, v in eps.items()}


def to_minari(source: Any, *, prefix: str = "negotiation", root: str | Path | None = None,
              agents: list[str] | None = None, author: str | None = None, description: str | None = None
              ) -> dict[str, Any]:
    """Write one Minari dataset per seat; returns ``{agent: MinariDataset}``.

    ``source``: a trace file, a run directory, or GameTrace objects. ``root``: where the
    datasets go (default: Minari's own, ``MINARI_DATASETS_PATH`` or ``~/.minari/datasets``).
    An existing dataset id is an error (Minari never overwrites)."""
    try:
        import minari
        from gymnasium import spaces
        from minari.data_collector import EpisodeBuffer
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise MinariExportError(f"Minari export needs the 'minari' extra (pip install 'negotiation_env[minari]'): {e}") \
            from None
    game, seats, episodes = _episodes(source)
    chosen = agents or seats
    unknown = [a for a in chosen if a not in seats]
    if unknown:
        raise MinariExportError(f"unknown agents {unknown}; the traces' seats are {seats}")
    out = {}
    with _datasets_root(root):
        for a in chosen:
            eps = [e for e in episodes[a] if e["actions"]]
            if not eps:
                raise MinariExportError(f"agent {a!r} never acted in these traces")
            dims = {len(f) for e in eps for f in e["features"] + [e["final"]]}
            if len(dims) != 1:
                raise MinariExportError(f"agent {a!r}: feature vectors of different lengths {sorted(dims)}")
            d = dims.pop()
            obs_space = spaces.Dict({"features": spaces.Box(-np.inf, np.inf, (d,), np.float32),
                                     "prompt": ObsText(TEXT_MAX)})
            act_space = action_text(TEXT_MAX)
            buffers = []
            for k, e in enumerate(eps):
                feats = np.asarray(e["features"] + [e["final"]], dtype=np.float32)
                buffers.append(EpisodeBuffer(
                    id=k,
                    observations={"features": feats, "prompt": e["prompts"] + [""]},
                    actions=list(e["actions"]),
                    rewards=list(e["rewards"]),
                    terminations=list(e["terminations"]),
                    truncations=list(e["truncations"]),
                    infos={},
                ))
            out[a] = minari.create_dataset_from_buffers(
                dataset_id(prefix, game, a), buffers, observation_space=obs_space, action_space=act_space,
                algorithm_name="negotiation_env traces", author=author, data_format="arrow",
                description=description or f"{game}: seat {a}, {len(buffers)} episodes exported from negotiation_env traces",
            )
    return out
