"""Reinforcement learning on the numeric view with Tianshou: learning curves against
scripted opponents, and behaviour cloning from the runner's transitions table.

The experiments a user runs with ``negotiation-env train rl`` (or :func:`run` from
Python), configured by one :class:`RLRunConfig`; they need the ``rl`` extra (Tianshou,
torch, matplotlib: ``pip install 'negotiation_env[rl]'``). All are single-agent: the
learner's seat is ``numeric(env)``, the other seats a scripted policy, through
:func:`negotiation_env.wrappers.against`:

* ``matrix-vs-tft``: the ``matrix`` game against tit-for-tat;
* ``resource-vs-oracle`` / ``resource-vs-greedy``: the ``resource`` game (default
  scenario mc080_1, 4 rounds) as ``agent_b`` against the scripted ``oracle`` / ``greedy``;
* ``offline-bc``: plays a small cohort with the tournament runner (the equivalent of
  ``negotiation-env run CONFIG --out DIR`` then ``negotiation-env export DIR --kind
  transitions --out FILE``), maps the table's structured actions onto the menu
  (``ResourceMenu.index_of``), clones the oracle's rows with Tianshou's offline imitation
  learner, and evaluates the clone back in the env against the oracle.

Learner (online): Tianshou's DQN (masked Q-values: the view's ``action_mask`` goes to
Tianshou as ``obs.mask``), an MLP over the symlog of the observation vector,
epsilon-greedy exploration decayed linearly over the first half of training and
restricted to legal entries. Every epoch ends with a test step: the greedy policy plays
the same ``eval_episodes`` seeded games; those returns are the learning curve.
Reference lines: scripted policies played in the learner's seat on the same seeds, the
uniform random legal menu policy, and a ceiling (what a best response can earn, where
it is known: :func:`ceiling`).

Determinism: every reset is seeded (training games ``seed * 1_000_000 + 100_000 + k``,
test games ``seed * 1_000_000 + k``, references the same test seeds), network weights come
from ``torch.manual_seed(seed)`` (one thread), exploration draws from a
``numpy.random.Generator`` seeded from ``seed`` and Tianshou's buffers from their own
``random_seed``; no global numpy random state is used, so a run repeats exactly.
"""

from __future__ import annotations

import importlib
import json
import math
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Literal

import gymnasium as gym
import numpy as np

import negotiation_env
from negotiation_env.core import registry
from negotiation_env.core.config import ConfigError
from negotiation_env.wrappers import against, numeric

from .fields import check_fields
from .progress import TrainProgress

__all__ = ["RLRunConfig", "Online", "Offline", "EXPERIMENTS", "settings", "run", "run_experiments",
           "format_result", "plot"]

PACKAGES = ("negotiation_env", "pettingzoo", "gymnasium", "numpy", "torch", "tianshou", "matplotlib", "pyarrow")
#: the packages a run needs (the ``rl`` extra), as they import
REQUIRED = ("torch", "tianshou")
EXPERIMENTS = ("matrix-vs-tft", "resource-vs-oracle", "resource-vs-greedy", "offline-bc")
TEST_BASE, TRAIN_BASE = 0, 100_000
Experiment = Literal["matrix-vs-tft", "resource-vs-oracle", "resource-vs-greedy", "offline-bc"]


@dataclass(frozen=True)
class RLRunConfig:
    """Every setting of an RL run (:func:`run`), validated when it is built (a
    :class:`~negotiation_env.core.config.ConfigError` names the field). The fields map
    onto the flags of ``negotiation-env train rl`` (``eval_episodes`` is
    ``--eval-episodes``; ``overrides`` is ``--set GAME.FIELD=VALUE``).

    experiments: the experiments to run, in order: ``matrix-vs-tft``,
        ``resource-vs-oracle``, ``resource-vs-greedy``, ``offline-bc``
    seed: the seed of every reset, network and exploration draw (see the module's notes)
    quick: smoke-run sizes: a few steps of each experiment, the shapes, not the figures
    eval_episodes: test games per curve point (None: 10; with ``quick`` 2)
    stop_after: end each online experiment after this epoch of its full schedule: the
        first ``stop_after`` + 1 points of the full curve, in a fraction of the time
        (None: the whole schedule)
    overrides: game config overrides, ``{game: {field: value}}`` (e.g.
        ``{"resource": {"rotation": "rotating"}}``)
    """

    experiments: tuple[Experiment, ...] = EXPERIMENTS
    seed: int = 0
    quick: bool = False
    eval_episodes: int | None = None
    stop_after: int | None = None
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = check_fields(self)
        if problems:
            raise ConfigError("RLRunConfig: " + "; ".join(problems))
        if not self.experiments:
            problems.append(f"experiments names none; choose from {', '.join(EXPERIMENTS)}")
        if self.eval_episodes is not None and self.eval_episodes < 1:
            problems.append(f"eval_episodes must be >= 1; got {self.eval_episodes}")
        if self.stop_after is not None and self.stop_after < 0:
            problems.append(f"stop_after takes an epoch >= 0; got {self.stop_after}")
        for game, fields in self.overrides.items():
            if registry.find(game) is None:
                problems.append(f"overrides: unknown game {game!r}")
            elif not isinstance(fields, dict):
                problems.append(f"overrides[{game!r}] must be a dict of config fields; got {fields!r}")
        if problems:
            raise ConfigError("RLRunConfig: " + "; ".join(problems))


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Online:
    """One online experiment: DQN in ``learner``'s seat, ``opponent`` (scripted) elsewhere."""

    name: str
    game: str
    learner: str
    opponent: str
    config: dict[str, Any] = field(default_factory=dict)
    #: scripted policies played in the learner's seat as reference lines
    references: tuple[str, ...] = ()
    steps: int = 12_000  # env steps of the learner in total
    epochs: int = 12
    hidden: tuple[int, ...] = (64, 64)
    lr: float = 1e-3
    gamma: float = 1.0  # episodic, finite horizon: the undiscounted return is the objective
    n_step: int = 3
    target_update: int = 100
    batch_size: int = 64
    buffer: int = 20_000
    eps_start: float = 1.0
    eps_end: float = 0.05
    collect: int = 16  # env steps per collect; gradient steps = collect * updates_per_step
    updates_per_step: float = 0.25


@dataclass(frozen=True)
class Offline:
    """Behaviour cloning of ``clone`` from a runner cohort, evaluated against ``opponent``."""

    name: str = "offline-bc"
    game: str = "resource"
    learner: str = "agent_b"
    opponent: str = "oracle"
    clone: str = "oracle"
    #: clone only games in which every other seat played one of these (None: every game)
    clone_against: tuple[str, ...] | None = None
    cohort: tuple[str, ...] = ("oracle", "greedy", "linear")
    games_per_cell: int = 12
    config: dict[str, Any] = field(default_factory=lambda: {"num_rounds": 4, "scenario": "mc080_1"})
    references: tuple[str, ...] = ("oracle", "greedy", "linear")
    epochs: int = 10
    steps_per_epoch: int = 200  # gradient steps
    batch_size: int = 64
    hidden: tuple[int, ...] = (64, 64)
    lr: float = 1e-3


def settings(quick: bool, overrides: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every experiment's settings; ``quick`` shrinks them to a smoke run of seconds;
    ``overrides`` ({game: {config field: value}}) change the games' configs."""
    exps: dict[str, Any] = {
        "matrix-vs-tft": Online(
            "matrix-vs-tft", "matrix", learner="agent_1", opponent="tit_for_tat",
            references=("tit_for_tat", "always_a", "always_b", "wsls", "alternator"),
            steps=8_000, epochs=10, updates_per_step=0.5),
        "resource-vs-oracle": Online(
            "resource-vs-oracle", "resource", learner="agent_b", opponent="oracle",
            references=("oracle", "greedy", "linear", "reciprocator"), steps=6_000, epochs=12),
        "resource-vs-greedy": Online(
            "resource-vs-greedy", "resource", learner="agent_b", opponent="greedy",
            references=("greedy", "oracle", "fair_splitter"), steps=4_000, epochs=8),
        "offline-bc": Offline(),
    }
    for k, e in list(exps.items()):
        extra = (overrides or {}).get(e.game)
        if extra:
            exps[k] = type(e)(**{**asdict(e), "config": {**e.config, **extra}})
    if quick:
        for k, e in list(exps.items()):
            if isinstance(e, Online):
                exps[k] = Online(**{**asdict(e), "steps": 96, "epochs": 2, "collect": 8, "batch_size": 16,
                                    "references": e.references[:1]})
            else:
                exps[k] = Offline(**{**asdict(e), "games_per_cell": 1, "epochs": 2, "steps_per_epoch": 5,
                                     "batch_size": 16, "references": e.references[:1], "cohort": e.cohort[:2]})
    return exps


# --------------------------------------------------------------------------- env plumbing


def scripted(game: str, name: str, seed: int):
    """A scripted policy of ``game`` by name, from the module its game spec names
    (:mod:`negotiation_env.core.registry`), answering with structured actions."""
    spec = registry.find(game)
    if spec is None or not spec.has("scripted"):
        raise ConfigError(f"the {game} game has no scripted policies")
    return importlib.import_module(spec.scripted).make(name, seed=seed)


def other_seats(env, learner: str) -> list[str]:
    return [a for a in env.possible_agents if a != learner]


def single_agent(exp, opponent_seed: int):
    """``against(env)`` for the experiment: the learner's numeric view, scripted seats."""
    base = negotiation_env.env(game=exp.game, **exp.config)
    opps = {a: scripted(exp.game, exp.opponent, opponent_seed + i) for i, a in enumerate(other_seats(base, exp.learner))}
    return against(base, exp.learner, opps, infos="numeric")


class SeededResets(gym.Wrapper):
    """Resets with ``first, first + 1, ...`` when the caller gives no seed (Tianshou's
    collectors do not); :meth:`restart` goes back to ``first``."""

    def __init__(self, env: gym.Env, first: int):
        super().__init__(env)
        self.first = self.next_seed = int(first)

    def restart(self) -> None:
        self.next_seed = self.first

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is None:
            seed, self.next_seed = self.next_seed, self.next_seed + 1
        return self.env.reset(seed=seed, options=options)


def symlog(x: np.ndarray) -> np.ndarray:
    """sign(x) log(1 + |x|): scale-free squashing of counts, budgets and rewards."""
    return (np.sign(x) * np.log1p(np.abs(x))).astype(np.float32)


class TianshouKeys(gym.ObservationWrapper):
    """The view's ``{"observation", "action_mask"}`` as Tianshou's ``{"obs", "mask"}``
    (symlog of the vector, or of one slice of it; mask as bool)."""

    def __init__(self, env: gym.Env, select: slice | None = None):
        super().__init__(env)
        o = env.observation_space
        d = len(range(*select.indices(o["observation"].shape[0]))) if select is not None else o["observation"].shape[0]
        self.select = select
        self.observation_space = gym.spaces.Dict({
            "obs": gym.spaces.Box(-25.0, 25.0, shape=(d,), dtype=np.float32),
            "mask": gym.spaces.MultiBinary(o["action_mask"].shape[0]),
        })

    def observation(self, obs):
        v = obs["observation"] if self.select is None else obs["observation"][self.select]
        return {"obs": symlog(v), "mask": obs["action_mask"].astype(bool)}


def learner_env(exp, seed: int, first_reset: int, select: slice | None = None) -> TianshouKeys:
    return TianshouKeys(SeededResets(single_agent(exp, opponent_seed=seed * 1_000 + 7), first_reset), select)


# --------------------------------------------------------------------------- references


def play_reference(exp, policy: str, seeds: Iterable[int], seed: int) -> list[float]:
    """Returns of a scripted ``policy`` in the learner's seat (the other seats as in
    training), one game per seed."""
    out = []
    for k, s in enumerate(seeds):
        env = numeric(negotiation_env.env(game=exp.game, **exp.config))
        env.reset(seed=s)
        pols = {a: scripted(exp.game, exp.opponent, seed * 1_000 + 7 + i)
                for i, a in enumerate(other_seats(env, exp.learner))}
        pols[exp.learner] = scripted(exp.game, policy, seed * 1_000 + 11 + k)
        total = 0.0
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                env.step_game_action(pols[agent].act(env.game_observation(agent)))
            total += float(env.rewards.get(exp.learner, 0.0))
        out.append(total)
    return out


def play_random(exp, seeds: Iterable[int], seed: int) -> list[float]:
    """Returns of the uniform random legal menu policy in the learner's seat."""
    rng = np.random.default_rng([seed, 99])
    env = single_agent(exp, opponent_seed=seed * 1_000 + 7)
    out = []
    for s in seeds:
        obs, _ = env.reset(seed=s)
        total, done, trunc = 0.0, False, False
        while not (done or trunc):
            obs, r, done, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += r
        out.append(total)
    return out


def ceiling(exp) -> tuple[float | None, str]:
    """What a best response earns against the experiment's opponent, where it is known
    (:data:`CEILINGS`, by experiment name), else ``(None, "")``."""
    known = CEILINGS.get(exp.name)
    return known(exp) if known is not None else (None, "")


def _resource_ceiling(exp) -> tuple[float | None, str]:
    """Against the oracle or greedy in the resource game: the learner's best share of a
    jointly optimal split, or its best response to greedy's fixed purchase, every round."""
    if exp.opponent in ("oracle", "greedy"):
        from negotiation_env.games.resource import solve
        from negotiation_env.wrappers.menus.resource import options_of

        game = negotiation_env.env(game="resource", **exp.config).unwrapped.game
        sc, rounds = game.base_scenario, game.config.num_rounds
        if game.config.rotation != "fixed" or game.config.partner != "stable":
            return None, ""
        mine = options_of(sc, exp.learner)
        theirs = options_of(sc, next(a for a in sc.agents if a != exp.learner))
        supply = np.array([r.supply for r in sc.resources])
        if exp.opponent == "greedy":  # it buys its individual optimum at once, every round
            fits = np.all(mine.usage + theirs.usage[0] <= supply, axis=1)
            return rounds * float(mine.value[fits].max()), "best response to greedy's fixed purchase, every round"
        joint = solve(sc).joint_max  # the oracle accepts any jointly optimal split
        best = max(float(mine.value[j]) for i in range(len(theirs)) for j in range(len(mine))
                   if np.all(theirs.usage[i] + mine.usage[j] <= supply)
                   and theirs.value[i] + mine.value[j] >= joint - 1e-9)
        return rounds * best, "the learner's best share of a jointly optimal split (the oracle accepts any), every round"
    return None, ""


def _tft_best_response(exp) -> tuple[float | None, str]:
    """Against tit-for-tat (A first, then the learner's previous action) the best fixed
    horizon plan, by dynamic programming over the learner's previous action."""
    from negotiation_env.games.matrix.rules import stage_game

    game = negotiation_env.env(game="matrix", **exp.config).unwrapped.game
    cfg = game.config
    g, n = stage_game(cfg.stage_game), cfg.num_rounds
    value = {"A": 0.0, "B": 0.0}  # best return from the rounds left, given my previous action
    for _ in range(n):
        value = {prev: max(g.payoff(a, prev) + value[a] for a in "AB") for prev in "AB"}
    return value["A"], f"best response to tit-for-tat over the {n} rounds (its horizon known)"


def references(exp, seeds: list[int], seed: int) -> list[dict[str, Any]]:
    refs = []
    for p in exp.references:
        r = play_reference(exp, p, seeds, seed)
        refs.append({"name": f"scripted {p}", "mean": float(np.mean(r)), "std": float(np.std(r))})
    r = play_random(exp, seeds, seed)
    refs.append({"name": "random legal menu entry", "mean": float(np.mean(r)), "std": float(np.std(r))})
    top, what = ceiling(exp)
    if top is not None:
        refs.append({"name": "ceiling", "mean": top, "std": 0.0, "note": what})
    return refs


# --------------------------------------------------------------------------- Tianshou


def _tianshou():
    try:
        import tianshou  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        raise ImportError(f"RL training needs the rl extra: pip install 'negotiation_env[rl]' ({e})") from None


class CurveLogger:
    """A Tianshou logger that keeps what the trainer reports (no interval filtering)."""

    def __new__(cls):
        from tianshou.utils.logger.logger_base import LazyLogger

        class _Curve(LazyLogger):
            def __init__(self):
                super().__init__()
                self.tests: list[tuple[int, np.ndarray]] = []
                self.train_returns: list[tuple[int, np.ndarray]] = []
                self.losses: list[tuple[int, float]] = []

            def log_test_data(self, log_data: dict, step: int) -> None:
                self.tests.append((int(step), np.asarray(log_data["returns"], dtype=float)))

            def log_training_data(self, log_data: dict, step: int) -> None:
                if log_data.get("n_collected_episodes"):
                    self.train_returns.append((int(step), np.asarray(log_data["returns"], dtype=float)))

            def log_update_data(self, log_data: dict, step: int) -> None:
                loss = log_data.get("loss")
                if isinstance(loss, (int, float)):
                    self.losses.append((int(step), float(loss)))

        return _Curve()


def masked_dqn_policy(model, action_space, rng: np.random.Generator):
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy

    class MaskedEpsGreedy(DiscreteQLearningPolicy):
        """Tianshou's masked DQN policy; exploration from an explicit Generator, legal entries only."""

        def add_exploration_noise(self, act, batch):
            eps = self.eps_training if self.is_within_training_step else self.eps_inference
            if np.isclose(eps, 0.0):
                return act
            mask = np.asarray(batch.obs.mask, dtype=bool)
            for i in np.flatnonzero(rng.random(len(act)) < eps):
                act[i] = rng.choice(np.flatnonzero(mask[i]))
            return act

    return MaskedEpsGreedy(model=model, action_space=action_space, eps_training=1.0, eps_inference=0.0)


def greedy_game(policy, env: TianshouKeys, seed: int) -> dict[str, Any]:
    """One test game of the trained policy (no exploration): its menu labels and return."""
    import torch
    from tianshou.data import Batch

    labels = env.unwrapped.numeric.action_labels()
    obs, _ = env.reset(seed=seed)
    played, total, done, trunc = [], 0.0, False, False
    policy.eval()
    while not (done or trunc):
        batch = Batch(obs=Batch(obs=obs["obs"][None], mask=obs["mask"][None]), info=Batch())
        with torch.no_grad():
            a = int(np.asarray(policy(batch).act)[0])
        played.append(labels[a])
        obs, r, done, trunc, _ = env.step(a)
        total += float(r)
    return {"seed": seed, "actions": played, "return": total}


def _runs(labels: list[str]) -> str:
    """Repeats compressed: ``a a a b`` -> ``a x3, b``; ``a b a b`` -> ``(a, b) x2`` (the
    shorter of the period-1 and period-2 readings)."""
    best = None
    for p in (1, 2):
        out: list[list[Any]] = []
        i = 0
        while i < len(labels):
            chunk = tuple(labels[i:i + p])
            if out and out[-1][0] == chunk:
                out[-1][1] += 1
            else:
                out.append([chunk, 1])
            i += p
        text = ", ".join((c[0] if len(c) == 1 else "(" + ", ".join(c) + ")") + (f" x{n}" if n > 1 else "")
                         for c, n in out)
        if best is None or len(text) < len(best):
            best = text
    return best or ""


def _curve(logger) -> list[dict[str, Any]]:
    """One point per test step (the untrained policy first): test returns, and the
    training episodes that ended since the previous test step."""
    points = []
    for i, (step, rets) in enumerate(logger.tests):
        lo = logger.tests[i - 1][0] if i else -1
        train = [x for s, r in logger.train_returns if lo < s <= step for x in r]
        points.append({
            "epoch": i, "env_steps": step, "test_mean": float(np.mean(rets)), "test_std": float(np.std(rets)),
            "train_mean": float(np.mean(train)) if train else None, "train_episodes": len(train),
        })
    return points


def train_online(exp: Online, seed: int, eval_episodes: int, log: Callable[[str], None],
                 stop_after: int | None = None, progress: TrainProgress | None = None) -> dict[str, Any]:
    _tianshou()
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    t0 = time.perf_counter()
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    base = seed * 1_000_000
    train_env = learner_env(exp, seed, base + TRAIN_BASE)
    test_env = learner_env(exp, seed, base + TEST_BASE)
    n = int(train_env.action_space.n)
    net = Net(state_shape=train_env.observation_space["obs"].shape, action_shape=n, hidden_sizes=list(exp.hidden))
    policy = masked_dqn_policy(net, train_env.action_space, np.random.default_rng([seed, 1]))
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=exp.lr), gamma=exp.gamma,
               n_step_return_horizon=exp.n_step, target_update_freq=exp.target_update)
    buffer = ReplayBuffer(exp.buffer, random_seed=seed)
    train_collector = Collector(algo, DummyVectorEnv([lambda: train_env]), buffer, exploration_noise=True)
    test_venv = DummyVectorEnv([lambda: test_env])
    test_collector = Collector(algo, test_venv)
    decay = max(1, exp.steps // 2)

    def training_fn(epoch: int, env_step: int) -> None:
        policy.set_eps_training(exp.eps_end + (exp.eps_start - exp.eps_end) * max(0.0, 1.0 - env_step / decay))

    epochs = exp.epochs if stop_after is None else min(exp.epochs, stop_after)

    def test_fn(epoch: int, env_step: int | None) -> None:
        test_env.env.restart()  # every test step plays the same seeded games
        test_collector.reset(reset_stats=False)
        if progress is not None:
            progress.epoch(exp.name, epoch, epochs)

    logger = CurveLogger()
    per_epoch = max(exp.collect, exp.steps // exp.epochs)
    algo.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector,
        max_epochs=epochs,
        epoch_num_steps=per_epoch, collection_step_num_env_steps=exp.collect, test_step_num_episodes=eval_episodes,
        batch_size=exp.batch_size, update_step_num_gradient_steps_per_sample=exp.updates_per_step,
        training_fn=training_fn, test_fn=test_fn, logger=logger, verbose=False, show_progress=False,
    ))
    train_time = time.perf_counter() - t0
    seeds = [base + TEST_BASE + k for k in range(eval_episodes)]
    game = greedy_game(policy, test_env, seeds[0])
    refs = references(exp, seeds, seed)
    curve = _curve(logger)
    log(f"{exp.name}: {len(curve) - 1} epochs, {curve[-1]['env_steps']} learner steps, {train_time:.1f} s")
    return {
        "experiment": exp.name, "kind": "online", "library": "tianshou", "algorithm": "DQN (masked)",
        "settings": {k: v for k, v in asdict(exp).items() if k not in ("name",)},
        "observation_size": int(train_env.observation_space["obs"].shape[0]), "actions": n,
        "action_labels": train_env.unwrapped.numeric.action_labels(),
        "curve": curve, "references": refs, "eval_seeds": seeds, "train_seconds": round(train_time, 2),
        "final_losses": [x for _, x in logger.losses[-5:]], "greedy_game": game,
    }


# --------------------------------------------------------------------------- offline


def cohort_config(exp: Offline, seed: int) -> str:
    pols = ", ".join(f'"scripted:{p}"' for p in exp.cohort)
    cfg = ", ".join(f"{k} = {json.dumps(v)}" for k, v in exp.config.items())
    return (f'name = "train-rl-offline"\nseed = {seed}\n\n[[games]]\ngame = "{exp.game}"\npolicies = [{pols}]\n'
            f'pairings = "all"\ngames_per_cell = {exp.games_per_cell}\nswap_first_speaker = true\n'
            f"config = {{ {cfg} }}\n")


def transitions_table(exp: Offline, seed: int, workdir: Path, log: Callable[[str], None]):
    """Play the cohort with the runner and export its transitions table (pyarrow)."""
    from negotiation_env.runner import run
    from negotiation_env.traces import export

    cfg = workdir / "offline_cohort.toml"
    cfg.write_text(cohort_config(exp, seed), encoding="utf-8")
    out = workdir / "run"
    summary = run(cfg, out)
    table_path = workdir / "transitions.parquet"
    n = export.write("transitions", out, table_path)
    log(f"offline-bc: negotiation-env run {cfg} --out {out}  ({summary.planned} games)")
    log(f"offline-bc: negotiation-env export {out} --kind transitions --out {table_path}  ({n} rows)")
    import pyarrow.parquet as pq

    return pq.read_table(table_path), str(cfg)


def map_rows(table, menu, clone_label: str, against_labels: Iterable[str] | None = None,
             ) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Features and menu indices of ``clone_label``'s valid rows (only from games whose
    other seats all played one of ``against_labels``, when given); mapping counts by label."""
    from negotiation_env.games.resource import load_scenario

    scen: dict[str, Any] = {}
    X, y = [], []
    stats: dict[str, dict[str, int]] = {}
    unmapped = 0
    rows = table.select(["episode_id", "policy", "scenario", "agent", "phase", "action", "observation",
                         "valid"]).to_pylist()
    seats: dict[str, dict[str, str]] = {}
    for r in rows:
        seats.setdefault(r["episode_id"], {})[r["agent"]] = r["policy"]
    allowed = None if against_labels is None else set(against_labels)
    for r in rows:
        if r["policy"] != clone_label or not r["valid"]:
            continue
        if allowed is not None and any(p not in allowed for a, p in seats[r["episode_id"]].items() if a != r["agent"]):
            continue
        sc = scen.setdefault(r["scenario"], load_scenario(r["scenario"]))
        idx, how = menu.index_of(sc, r["agent"], r["action"], r["phase"])
        if idx is None:
            unmapped += 1
            continue
        label = menu.labels[idx]
        stats.setdefault(label, {"exact": 0, "nearest": 0})[how] += 1
        X.append(r["observation"])
        y.append(idx)
    return np.asarray(X, dtype=np.float32), np.asarray(y, dtype=np.int64), {"by_label": stats, "unmapped": unmapped}


def train_offline(exp: Offline, seed: int, eval_episodes: int, log: Callable[[str], None],
                  progress: TrainProgress | None = None) -> dict[str, Any]:
    _tianshou()
    import torch
    from tianshou.algorithm.imitation.imitation_base import ImitationPolicy, OfflineImitationLearning
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Batch, Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OfflineTrainerParams
    from tianshou.utils.net.common import Net

    t0 = time.perf_counter()
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    base = seed * 1_000_000
    probe = single_agent(exp, 0)
    menu, layout = probe.numeric.menu, probe.numeric.menu.layout
    cfg = probe.game.config
    if cfg.rotation != "fixed" or cfg.partner != "stable":
        # the table names the game's (first) scenario only, not each round's
        raise ValueError("offline-bc maps actions with the row's scenario: it needs rotation='fixed' and partner='stable'")
    with tempfile.TemporaryDirectory(prefix="train_rl_offline_") as tmp:
        table, cfg_path = transitions_table(exp, seed, Path(tmp), log)
        cfg_text = Path(cfg_path).read_text(encoding="utf-8")
    against_labels = None if exp.clone_against is None else [f"scripted:{p}" for p in exp.clone_against]
    X, y, mapping = map_rows(table, menu, f"scripted:{exp.clone}", against_labels)
    if len(y) == 0:
        raise RuntimeError(f"no rows of scripted:{exp.clone} in the transitions table")
    feats = layout.slice("features")
    if X.shape[1] != feats.stop - feats.start:
        raise RuntimeError(f"table features have {X.shape[1]} entries, the view's features slice {feats.stop - feats.start}")
    n = menu.n
    # the table keeps no action mask: rows are stored with every entry allowed; the
    # policy masks with the env's mask when it plays
    buffer = ReplayBuffer(max(len(y), 1), random_seed=seed)
    ones = np.ones(n, dtype=bool)
    for x, a in zip(X, y):
        o = {"obs": symlog(x), "mask": ones}
        buffer.add(Batch(obs=o, act=int(a), rew=0.0, terminated=False, truncated=False, obs_next=o, info={}))

    class MaskedActor(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = Net(state_shape=(X.shape[1],), action_shape=n, hidden_sizes=list(exp.hidden))

        def forward(self, obs, state=None, info=None):
            logits, h = self.net(obs.obs, state)
            mask = torch.as_tensor(np.asarray(obs.mask, dtype=bool))
            return logits.masked_fill(~mask, -1e9), h

    actor = MaskedActor()
    test_env = learner_env(exp, seed, base + TEST_BASE, select=feats)
    policy = ImitationPolicy(actor=actor, action_space=test_env.action_space, action_bound_method=None)
    algo = OfflineImitationLearning(policy=policy, optim=AdamOptimizerFactory(lr=exp.lr))
    test_collector = Collector(algo, DummyVectorEnv([lambda: test_env]))

    def test_fn(epoch: int, env_step: int | None) -> None:
        test_env.env.restart()
        test_collector.reset(reset_stats=False)
        if progress is not None:
            progress.epoch(exp.name, epoch, exp.epochs)

    logger = CurveLogger()
    algo.run_training(OfflineTrainerParams(
        buffer=buffer, test_collector=test_collector, max_epochs=exp.epochs, epoch_num_steps=exp.steps_per_epoch,
        batch_size=exp.batch_size, test_step_num_episodes=eval_episodes, test_fn=test_fn, logger=logger,
        verbose=False, show_progress=False,
    ))
    with torch.no_grad():
        logits, _ = actor.net(symlog(X))
        accuracy = float((logits.argmax(-1).numpy() == y).mean())
    train_time = time.perf_counter() - t0
    seeds = [base + TEST_BASE + k for k in range(eval_episodes)]
    game = greedy_game(policy, test_env, seeds[0])
    refs = references(exp, seeds, seed)
    curve = _curve(logger)
    for p in curve:  # the offline trainer counts sampled transitions
        p["gradient_steps"] = p.pop("env_steps") // exp.batch_size
    log(f"offline-bc: {len(y)} rows cloned, training accuracy {accuracy:.3f}, {train_time:.1f} s")
    return {
        "experiment": exp.name, "kind": "offline", "library": "tianshou",
        "algorithm": "behaviour cloning (OfflineImitationLearning)",
        "settings": {k: v for k, v in asdict(exp).items() if k not in ("name",)}, "cohort_config": cfg_text,
        "rows": int(table.num_rows), "cloned_rows": int(len(y)), "mapping": mapping,
        "training_accuracy": accuracy, "observation": "the table's features = the view's 'features' slice",
        "actions": n, "action_labels": menu.describe(), "curve": curve, "references": refs, "eval_seeds": seeds,
        "train_seconds": round(train_time, 2), "final_losses": [x for _, x in logger.losses[-5:]],
        "greedy_game": game,
    }


# --------------------------------------------------------------------------- report


#: experiment name -> its known ceiling (what a best response earns against its opponent)
CEILINGS = {"resource-vs-oracle": _resource_ceiling, "resource-vs-greedy": _resource_ceiling,
            "matrix-vs-tft": _tft_best_response}


def game_available(game: str) -> bool:
    """Whether ``game``, its numeric menu and its scripted policies are registered."""
    spec = registry.find(game)
    return spec is not None and spec.has("menu") and spec.has("scripted")


def format_result(res: dict[str, Any]) -> str:
    """One experiment's result as text: its learning curve, references, a played game."""
    lines: list[str] = []
    x = "gradient_steps" if res["kind"] == "offline" else "env_steps"
    lines.append(f"\n## {res['experiment']}  ({res['library']}, {res['algorithm']}; {res['train_seconds']} s)")
    lines.append(f"{'epoch':>5} {x:>15} {'test return':>17} {'train return':>13}")
    for p in res["curve"]:
        tr = f"{p['train_mean']:.2f}" if p.get("train_mean") is not None else "-"
        lines.append(f"{p['epoch']:>5} {p[x]:>15} {p['test_mean']:>9.2f} ± {p['test_std']:<5.2f} {tr:>13}")
    lines.append("references (same test seeds):")
    for r in res["references"]:
        note = f"  ({r['note']})" if r.get("note") else ""
        lines.append(f"  {r['name']:<28} {r['mean']:8.2f} ± {r['std']:.2f}{note}")
    g = res["greedy_game"]
    lines.append(f"trained policy, test game {g['seed']} (return {g['return']:.2f}): {_runs(g['actions'])}")
    final = res["curve"][-1]["test_mean"]
    beaten = [r["name"] for r in res["references"] if final > r["mean"] + 1e-9]
    lines.append(f"final test return {final:.2f}; above: {', '.join(beaten) or 'none'}")
    if res["kind"] == "offline":
        lines.append(f"cloned rows {res['cloned_rows']} of {res['rows']}; mapping {json.dumps(res['mapping'])}; "
              f"training accuracy {res['training_accuracy']:.3f}")
    return "\n".join(lines)


def plot(results: list[dict[str, Any]], path: Path) -> Path:
    """The learning curves of ``results`` with their references as horizontal lines, as
    a PNG at ``path`` (needs matplotlib); returns ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(2, len(results))
    rows = math.ceil(len(results) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.0 * cols, 4.0 * rows), squeeze=False)
    for ax in axes.flat[len(results):]:
        ax.set_visible(False)
    for ax, res in zip(axes.flat, results):
        x = "gradient_steps" if res["kind"] == "offline" else "env_steps"
        xs = [p[x] for p in res["curve"]]
        ys = np.array([p["test_mean"] for p in res["curve"]])
        sd = np.array([p["test_std"] for p in res["curve"]])
        ax.plot(xs, ys, marker="o", color="black", label=f"{res['algorithm'].split(' (')[0]} (test)")
        ax.fill_between(xs, ys - sd, ys + sd, color="black", alpha=0.1)
        levels: dict[float, list[str]] = {}  # references at the same level share one line
        for r in res["references"]:
            levels.setdefault(round(r["mean"], 6), []).append(r["name"])
        for i, (level, names) in enumerate(levels.items()):
            ax.axhline(level, ls=":" if "ceiling" in names else "--", color=f"C{i}", label=" = ".join(names))
        ax.set_title(res["experiment"])
        ax.set_xlabel(x.replace("_", " "))
        ax.set_ylabel("learner's return per game")
        ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def run_experiments(names: list[str], seed: int = 0, quick: bool = False, eval_episodes: int | None = None,
                    overrides: dict[str, dict[str, Any]] | None = None,
                    log: Callable[[str], None] = lambda _m: None, stop_after: int | None = None,
                    progress: TrainProgress | None = None) -> list[dict[str, Any]]:
    """Train and evaluate ``names``; ``stop_after=K`` ends each online experiment after
    epoch K of its unchanged schedule, so its curve is the first K + 1 points of the full
    run's (the exploration decay and epoch size still follow the full step count)."""
    exps = settings(quick, overrides)
    k = eval_episodes or (2 if quick else 10)
    results = []
    for name in names:
        exp = exps[name]
        if not game_available(exp.game):
            log(f"{name}: skipped, the {exp.game} game (or its menu / scripted policies) is not available")
            continue
        if isinstance(exp, Offline) and (exp.config.get("rotation", "fixed") != "fixed"
                                         or exp.config.get("partner", "stable") != "stable"):
            log(f"{name}: skipped, the table names each game's first scenario only (needs fixed rotation, stable partner)")
            continue
        results.append(train_offline(exp, seed, k, log, progress) if isinstance(exp, Offline)
                       else train_online(exp, seed, k, log, stop_after, progress))
    return results




def run(config: RLRunConfig, log: Callable[[str], None] = lambda _m: None,
        progress: TrainProgress | None = None) -> list[dict[str, Any]]:
    """Train and evaluate the experiments of ``config``; one result per experiment run
    (an experiment the tree cannot run is skipped, and ``log`` says why)."""
    _tianshou()
    return run_experiments(list(dict.fromkeys(config.experiments)), seed=config.seed, quick=config.quick,
                           eval_episodes=config.eval_episodes, overrides=config.overrides, log=log,
                           stop_after=config.stop_after, progress=progress)
