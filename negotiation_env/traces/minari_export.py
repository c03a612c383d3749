"""Minari datasets from traces: one single-agent dataset per seat.

Minari 0.5 has no multi-agent datasets, so a game's seats become separate datasets
``{prefix}/{game}-{agent}-v1`` (Minari's ``namespace/name-vN`` id syntax;
:data:`DATASET_VERSION`). Each episode of seat ``a`` is that seat's own decisions in one game, retries
included:

* ``observations``: ``Dict({"features": Box(float32, (d,)), "prompt": Text, "system":
  Text, "messages": Text})`` with one entry per decision plus the final one (the
  features after the last step, an empty prompt and messages, the last decision's
  system prompt), the Minari convention of ``T + 1`` observations. ``system`` is the
  seat's system prompt (the rules and its private setting) and ``messages`` the whole
  context it read, as JSON text of ``{"role", "content"}`` chat messages (system message
  first, the prompt it answered last): the observations of
  :class:`~negotiation_env.wrappers.text_seat.TextSeatEnv`. Both are rebuilt from the
  trace's context deltas (``StepRecord.context``), so traces recorded without context
  cannot be exported;
* ``actions``: ``Text``, the raw action as the env received it (model text, or the
  structured action as JSON), so an offline learner sees exactly what was played;
* ``rewards``: what the seat was paid from its decision up to its next one (the
  transitions table's definition, so rewards sum to the seat's game return);
* ``terminations`` / ``truncations``: on the last step, by the game's status;
* episode metadata (``dataset.storage.get_episode_metadata([k])``): ``append_only``,
  whether every decision's context extends the one before (one token stream holds the
  episode), and ``append_only_steps``, that flag per decision (the first is True): what
  ``info["append_only"]`` of the text env says. Minari 0.5.4's Arrow reader cannot read
  per-step infos back, so they live here;
* dataset metadata: ``context_keys`` (``["system", "messages"]``) and ``append_only``
  (every episode is), also stated in the description.

The datasets are written with Minari's ``arrow`` storage by
``minari.create_dataset_from_buffers``. Two Minari 0.5.4 quirks shape this module:
``EpisodeBuffer.add_step_data`` imports jax, so buffers are built whole here; and the
Arrow reader breaks on 1-D ndarray info fields, so no infos are stored (the trace file
keeps everything). Minari's storage imports pillow, which it does not declare: the
``minari`` extra installs it. Minari finds datasets under ``MINARI_DATASETS_PATH``;
:func:`to_minari` sets it for the duration of the call when ``root`` is given.

``game`` selects the traces of one game (a dataset holds one; a source that mixes games
needs it). An unknown ``game`` or ``agents`` value raises :class:`MinariFilterError`
(also an :class:`~.export.FilterError`, listing what the source holds); a selection with
no episode raises :class:`MinariEmptyError`: a Minari dataset is never written empty.

Recovering the environment. Each dataset stores the Gymnasium spec of
:class:`~negotiation_env.wrappers.text_seat.TextSeatEnv` (id
``negotiation_env/TextSeat-v0``): the seat's view as a text env whose spaces are the
dataset's, with the other seats played by the policies the traces name (their runner
specs and options) and one variant ``{config, opponents, weight}`` per distinct game
config and line-up of the exported games, drawn per reset with the games' frequencies.
So ``dataset.recover_environment()`` builds an env that plays the games the dataset
came from. With ``env="auto"`` (default) the spec is stored when every game can be
rebuilt (every opponent has a spec, every config builds); otherwise none is stored and
the reason is appended to ``notes`` (and the description); ``env=True`` makes that an
error, ``env=False`` never stores one. Traces recorded outside the runner (no policy
specs) get no env.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ..core import registry
from ..core.spaces import ObsText, action_text, sanitize
from .export import FilterError, transitions
from .reader import iter_traces
from .schema import GameTrace

__all__ = ["to_minari", "dataset_id", "DATASET_VERSION", "env_variants", "MinariExportError", "MinariFilterError", "MinariEmptyError",
           "MinariExistsError", "TEXT_MAX"]

TEXT_MAX = 1_000_000
#: the version in the dataset ids; it goes up with the datasets' format
DATASET_VERSION = 1
#: the observation keys that hold the seat's context
CONTEXT_KEYS = ("system", "messages")


class MinariExportError(ValueError):
    """The traces cannot become Minari datasets (mixed games, no steps, ...)."""


class MinariFilterError(MinariExportError, FilterError):
    """``game`` or ``agents`` names something the traces do not hold."""


class MinariEmptyError(MinariExportError):
    """The selection holds no episode to export (no traces, or a seat that never acted)."""


class MinariExistsError(MinariExportError):
    """A dataset to write exists already (``replace=False``); ``paths`` are its folders."""

    def __init__(self, message: str, paths: list[Path]):
        super().__init__(message)
        self.paths = paths


def _datasets_dir(root: str | Path | None) -> Path:
    """The folder Minari keeps its datasets in for this call (``root``, else
    ``MINARI_DATASETS_PATH``, else ``~/.minari/datasets``)."""
    if root is not None:
        return Path(root).resolve()
    return Path(os.environ.get("MINARI_DATASETS_PATH") or Path.home() / ".minari" / "datasets")


def dataset_id(prefix: str, game: str, agent: str, version: int = DATASET_VERSION) -> str:
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


def _select(source: Any, game: str | None) -> list[GameTrace]:
    traces = list(iter_traces(source)) if isinstance(source, (str, Path)) else list(source)
    if not traces:
        raise MinariEmptyError("no traces to export")
    games = sorted({t.game for t in traces})
    if game is not None:
        if game not in games:
            raise MinariFilterError("game", [game], games, f"game {game!r} does not occur in the traces; they hold "
                                                             f"{', '.join(games)}")
        traces = [t for t in traces if t.game == game]
    elif len(games) != 1:
        raise MinariExportError(f"a Minari dataset holds one game; these traces mix {games}: choose one with "
                                "game= (the CLI's --game)")
    return traces


def _contexts(traces: list[GameTrace]) -> dict[tuple[str, int], tuple[list[dict[str, str]], bool]]:
    """(game id, step index) -> (the acting seat's whole context at that step, whether it
    extends the context of the seat's previous step), from the context deltas."""
    out = {}
    for t in traces:
        held: dict[str, list[dict[str, str]]] = {}
        for s in t.steps:
            if s.context is None:
                raise MinariExportError(f"game {t.game_id!r}, step {s.index}: no context recorded (traces recorded "
                                        "with record(..., context=False)), so the seat's system prompt and messages "
                                        "cannot be rebuilt")
            prev = held.get(s.agent)
            extends = prev is not None and not s.context_reset
            messages = (prev if extends else []) + [{"role": m["role"], "content": m["content"]} for m in s.context]
            held[s.agent] = messages
            out[(t.game_id, s.index)] = (messages, extends or prev is None)
    return out


def _episodes(traces: list[GameTrace]) -> tuple[str, list[str], dict[str, list[dict[str, Any]]]]:
    """game, agents, and per agent a list of episodes (dicts of per-step lists)."""
    from ..wrappers.text_seat import context_text

    game = traces[0].game
    agents = list(traces[0].agents)
    prompts = {(t.game_id, s.index): s.observation for t in traces for s in t.steps}
    contexts = _contexts(traces)
    eps: dict[str, dict[tuple[str, str], dict[str, Any]]] = {a: {} for a in agents}
    for row in transitions(traces):
        a = row["agent"]
        if a not in eps:
            raise MinariExportError(f"agent {a!r} is not a seat of the first trace ({agents}); mixed line-ups")
        ep = eps[a].setdefault((row["episode_id"], a), {"features": [], "prompts": [], "systems": [],
                                                         "messages": [], "append_only": [], "actions": [],
                                                         "rewards": [], "terminations": [], "truncations": [],
                                                         "final": None})
        if row["observation"] is None:
            raise MinariExportError(f"episode {row['episode_id']}: step {row['step']} has no numeric features")
        ep["features"].append(row["observation"])
        ep["prompts"].append(sanitize(prompts.get((row["episode_id"], row["step"])) or ""))
        messages, extends = contexts[(row["episode_id"], row["step"])]
        ep["systems"].append(sanitize(messages[0]["content"]) if messages and messages[0]["role"] == "system" else "")
        ep["messages"].append(context_text(messages))
        ep["append_only"].append(extends)
        ep["actions"].append(row["action_text"])
        ep["rewards"].append(float(row["reward"]))
        ep["terminations"].append(bool(row["terminated"]))
        ep["truncations"].append(bool(row["truncated"]))
        if row["done"]:
            ep["final"] = row["next_observation"] if row["next_observation"] is not None else row["observation"]
    return game, agents, {a: list(v.values()) for a, v in eps.items()}


def _buildable_config(trace: GameTrace) -> dict[str, Any]:
    """The trace's game config as ``negotiation_env.env(game=..., **config)`` takes it
    (rulemaking traces store a shipped scenario by name: its id is what loads)."""
    spec = registry.find(trace.game)
    if spec is None or not spec.has("trace_config"):
        return dict(trace.config)
    return spec.part("trace_config")(trace.config)


def env_variants(traces: list[GameTrace], learner: str) -> tuple[list[dict[str, Any]] | None, str | None]:
    """The :class:`~negotiation_env.wrappers.text_seat.TextSeatEnv` variants that replay
    ``traces`` from ``learner``'s seat ({config, opponents, weight} per distinct game
    config and line-up, weight = games), or None and the reason they cannot."""
    import json

    counts: dict[str, list[Any]] = {}
    for t in traces:
        if not any(s.agent == learner for s in t.steps):
            continue
        opponents = {}
        for seat in t.agents:
            if seat == learner:
                continue
            p = t.policies.get(seat)
            if p is None or not p.spec:
                return None, (f"seat {seat!r} of game {t.game_id!r} has no policy spec (recorded outside the "
                              "runner), so its policy cannot be rebuilt")
            opts = p.settings.get("options") if isinstance(p.settings.get("options"), dict) else {}
            opponents[seat] = {"spec": p.spec, "options": opts}
        v = {"config": _buildable_config(t), "opponents": opponents}
        key = json.dumps(v, sort_keys=True)
        if key in counts:
            counts[key][1] += 1
        else:
            counts[key] = [v, 1]
    return [{**v, "weight": n} for v, n in counts.values()], None


def _env_spec(game: str, learner: str, traces: list[GameTrace], obs_space, act_space):
    """(EnvSpec, None) for the dataset of ``learner``, or (None, reason)."""
    from gymnasium.envs.registration import EnvSpec

    from ..wrappers.text_seat import ENTRY_POINT, GYM_ID, TextSeatEnv

    variants, why = env_variants(traces, learner)
    if variants is None:
        return None, why
    kwargs = {"game": game, "learner": learner, "variants": variants, "text_max": TEXT_MAX}
    try:
        env = TextSeatEnv(**kwargs)
    except Exception as e:  # noqa: BLE001 - any reason the games cannot be rebuilt is reported, not raised
        return None, f"the recorded games cannot be rebuilt ({type(e).__name__}: {e})"
    if env.observation_space != obs_space or env.action_space != act_space:
        return None, (f"the rebuilt env's spaces ({env.observation_space}, {env.action_space}) differ from the "
                      "dataset's")
    return EnvSpec(id=GYM_ID, entry_point=ENTRY_POINT, kwargs=kwargs), None


def to_minari(source: Any, *, prefix: str = "negotiation", root: str | Path | None = None,
              agents: list[str] | None = None, game: str | None = None, author: str | None = None,
              description: str | None = None, env: bool | str = "auto", notes: list[str] | None = None,
              replace: bool = False) -> dict[str, Any]:
    """Write one Minari dataset per seat; returns ``{agent: MinariDataset}``.

    ``source``: a trace file, a run directory, or GameTrace objects. ``root``: where the
    datasets go (default: Minari's own, ``MINARI_DATASETS_PATH`` or ``~/.minari/datasets``).
    ``game``: the game to export (needed when the source mixes games). ``env``: store the
    env spec for ``recover_environment()`` (``"auto"``, True, False; see the module
    docstring); ``notes`` receives why a dataset has none. An existing dataset id raises
    :class:`MinariExistsError` before anything is written, unless ``replace``: then the
    old dataset is moved to a temporary name, removed once the new one is whole, and
    put back if writing the new one fails."""
    if env not in ("auto", True, False):
        raise ValueError(f"env must be 'auto', True or False; got {env!r}")
    try:
        import minari
        from gymnasium import spaces
        from minari.data_collector import EpisodeBuffer
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise MinariExportError(f"Minari export needs the 'minari' extra (pip install 'negotiation_env[minari]'): {e}") \
            from None
    traces = _select(source, game)
    game, seats, episodes = _episodes(traces)
    chosen = agents or seats
    unknown = [a for a in chosen if a not in seats]
    if unknown:
        raise MinariFilterError("agents", unknown, seats, f"unknown agents {unknown}; the traces' seats are {seats}")
    from minari.dataset.minari_dataset import parse_dataset_id

    try:
        parse_dataset_id(dataset_id(prefix, game, chosen[0]))
    except ValueError:
        raise MinariExportError(f"prefix {prefix!r} does not make a valid Minari dataset id "
                                f"({dataset_id(prefix, game, chosen[0])!r}); Minari namespaces take two or more "
                                "letters, digits, '_' or '-'") from None
    # every check before the first dataset is written: a failure leaves no partial export
    plans = {}
    for a in chosen:
        eps = [e for e in episodes[a] if e["actions"]]
        if not eps:
            raise MinariEmptyError(f"agent {a!r} never acted in these traces")
        dims = {len(f) for e in eps for f in e["features"] + [e["final"]]}
        if len(dims) != 1:
            raise MinariExportError(f"agent {a!r}: feature vectors of different lengths {sorted(dims)}")
        d = dims.pop()
        obs_space = spaces.Dict({"features": spaces.Box(-np.inf, np.inf, (d,), np.float32),
                                 "prompt": ObsText(TEXT_MAX), **{k: ObsText(TEXT_MAX) for k in CONTEXT_KEYS}})
        act_space = action_text(TEXT_MAX)
        spec, why = (None, None) if env is False else _env_spec(game, a, traces, obs_space, act_space)
        if spec is None and env is True:
            raise MinariExportError(f"agent {a!r}: no environment to store: {why}")
        plans[a] = (eps, obs_space, act_space, spec, why)
    base = _datasets_dir(root)
    existing = [dataset_id(prefix, game, a) for a in plans if (base / dataset_id(prefix, game, a)).exists()]
    if existing and not replace:
        raise MinariExistsError(f"{base / existing[0]} already exists (Minari dataset {existing[0]}); "
                                "replace=True replaces it", [base / x for x in existing])
    out = {}
    with _datasets_root(root):
        for a, (eps, obs_space, act_space, spec, why) in plans.items():
            buffers = []
            for k, e in enumerate(eps):
                feats = np.asarray(e["features"] + [e["final"]], dtype=np.float32)
                buffers.append(EpisodeBuffer(
                    id=k,
                    observations={"features": feats, "prompt": e["prompts"] + [""],
                                  "system": e["systems"] + e["systems"][-1:], "messages": e["messages"] + [""]},
                    actions=list(e["actions"]),
                    rewards=list(e["rewards"]),
                    terminations=list(e["terminations"]),
                    truncations=list(e["truncations"]),
                    infos={},
                ))
            if why is not None and notes is not None:
                notes.append(f"{dataset_id(prefix, game, a)}: no env spec stored, recover_environment() will "
                             f"not work: {why}")
            append_only = all(all(e["append_only"]) for e in eps)
            text = description or f"{game}: seat {a}, {len(buffers)} episodes exported from negotiation_env traces"
            text += ("; observations carry the seat's system prompt ('system') and whole context ('messages', JSON "
                     "chat messages); " + ("every episode's context is append-only" if append_only else
                                           "some contexts are rebuilt between decisions (episode metadata "
                                           "'append_only', 'append_only_steps')"))
            if spec is not None:
                text += (f"; recover_environment() rebuilds the seat's text env ({spec.id}) against the recorded "
                         f"opponents, {len(spec.kwargs['variants'])} game variants")
            elif why is not None:
                text += f"; no env spec: {why}"
            ds_id = dataset_id(prefix, game, a)
            folder = base / ds_id
            old = folder.with_name(f".{folder.name}.{os.getpid()}.old") if folder.exists() else None
            if old is not None:  # replace: the old dataset waits under a temporary name
                folder.rename(old)
            try:
                out[a] = minari.create_dataset_from_buffers(
                    ds_id, buffers, env=spec, observation_space=obs_space, action_space=act_space,
                    algorithm_name="negotiation_env traces", author=author, data_format="arrow", description=text,
                )
                out[a].storage.update_episode_metadata(
                    [{"append_only": all(e["append_only"]), "append_only_steps": list(e["append_only"])} for e in eps])
                out[a].storage.update_metadata({"context_keys": list(CONTEXT_KEYS), "append_only": append_only})
            except BaseException:
                # a dataset the disk refused half-way is not left looking like one
                shutil.rmtree(folder, ignore_errors=True)
                if old is not None:
                    old.rename(folder)
                raise
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
    return out
