"""Policy replay and closed-loop interventions on the matrix game (seed 002, Experiments
1-3), for any policy with ``action_probs_batch`` (:class:`~.hf.HFPolicy`, or
:class:`~.api.APIPolicy` on a server that returns top log-probabilities).

* :func:`replay_decisions` (:func:`negotiation_env.games.matrix.replay.replay_decisions`,
  where the analysis reads it too): every recorded action decision of complete matrix
  traces, re-rendered under the Experiment 1 (Table S6) and Experiment 2 (Table S8)
  conditions by the game's own replay hook and scored as P(A) (A.4). Rows feed
  :mod:`negotiation_env.analysis.expected_switching` (Eq. 4/S4-S6) and can be written
  as JSONL.
* :func:`split_decisions`: the deterministic 65/35 construction / held-out split of
  decision keys (D.1; seed 20260701 as F.3).
* :func:`message_direction`: the history-balanced mutual-benefit minus self-prioritizing
  direction per layer (Eq. S7) from the four Experiment 2 variants of each decision.
* :func:`is_action_decision`: True for matrix observations that ask for A or B (the
  env's features say the phase), so interventions can spare message generation.
* :func:`play_matrix`: one closed-loop game with optional interventions at every action
  decision (D.3: clean and ablated play share the seed), returning its trace.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

import negotiation_env
from negotiation_env.games.matrix import EXPERIMENT_1, EXPERIMENT_2, LAYOUT, decision_keys, replay_observation
from negotiation_env.games.matrix.features import PHASES
from negotiation_env.games.matrix.replay import NATURAL, ReplayTexts, replay_decisions
from negotiation_env.traces import record

__all__ = ["replay_decisions", "split_decisions", "message_direction", "is_action_decision", "play_matrix",
           "EXPERIMENT_1", "EXPERIMENT_2", "NATURAL", "SPLIT_SEED"]

#: F.3: event keys are shuffled with this seed and split 65/35
SPLIT_SEED = 20_260_701
_ACTION = PHASES.index("action")


def _as_dict(trace: Any) -> dict[str, Any]:
    return trace if isinstance(trace, Mapping) else trace.to_dict()


def is_action_decision(observation: Any) -> bool:
    """A matrix observation that asks for an action: a replayed decision, or one whose
    features' phase is ``action``."""
    if not isinstance(observation, Mapping):
        return False
    if "replay" in observation:
        return True
    f = observation.get("features")
    if f is None:
        return False
    phase = np.asarray(f, dtype=float).ravel()[LAYOUT.slice("phase")]
    return bool(phase.size == len(PHASES) and phase[_ACTION] == 1)


def split_decisions(keys: Sequence[Any], construction: float = 0.65, seed: int = SPLIT_SEED) -> tuple[list, list]:
    """``(construction, held_out)``: ``keys`` (complete decisions, e.g. ``(game_id,
    agent, round)``) shuffled by ``numpy.random.default_rng(seed)`` and cut at
    ``round(construction * n)`` (D.1: 780 / 420 of 1,200)."""
    if not 0 < construction < 1:
        raise ValueError(f"construction must be a fraction in (0, 1); got {construction!r}")
    order = np.random.default_rng(seed).permutation(len(keys))
    cut = int(round(construction * len(keys)))
    shuffled = [keys[i] for i in order]
    return shuffled[:cut], shuffled[cut:]


def message_direction(policy: Any, decisions: Iterable[tuple[Any, str, int]], layers: Sequence[int], *,
                      texts: ReplayTexts = ReplayTexts(), batch_size: int = 32) -> dict[int, Any]:
    """Eq. S7 per layer from the construction decisions ``(trace, agent, round)``: the
    final-token activations of each decision's four Experiment 2 variants (mutual-benefit
    and self-prioritizing message, each after a synthetic partner-A and partner-B
    round), so both classes see both histories equally; returns ``{layer: unit vector}``
    (mutual-benefit minus self-prioritizing)."""
    from .steering import balanced_direction

    obs, classes, histories = [], [], []
    for trace, agent, rnd in decisions:
        for cell in EXPERIMENT_2:
            history, kind = cell.split("/")
            obs.append(replay_observation(_as_dict(trace), agent, rnd, cell, texts))
            classes.append(kind)
            histories.append(history)
    if not obs:
        raise ValueError("message_direction needs at least one decision")
    acts: dict[int, list] = {int(l): [] for l in layers}
    for start in range(0, len(obs), batch_size):
        got = policy.final_token_activations(obs[start:start + batch_size], list(acts))
        for l, a in got.items():
            acts[l].append(a)
    import torch

    return balanced_direction({l: torch.cat(v) for l, v in acts.items()}, classes, histories,
                              positive="MB", negative="SP")


def play_matrix(policy: Any, *, seed: int, interventions: Sequence[Any] = (), when: Any = is_action_decision,
                **config: Any) -> Any:
    """Play one matrix game with ``policy`` in both seats (env and policy seeded with
    ``seed``) and return its :class:`~negotiation_env.traces.GameTrace`; with
    ``interventions`` (:class:`~.steering.Steer` / :class:`~.steering.Ablate`) applied
    at every observation ``when`` accepts (default: action decisions only, D.3)."""
    env = record(negotiation_env.env(game="matrix", **config), keep=True)
    agents = list(env.possible_agents)
    env.set_policies({a: policy for a in agents})
    policy.reset(seed=seed)
    ctx = policy.intervene(*interventions, when=when) if interventions else contextlib.nullcontext()
    with ctx:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            env.step(None if term or trunc else policy.act(obs))
    return env.last_trace
