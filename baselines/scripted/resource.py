"""Simple scripted policies for the resource game: a random one and a greedy one.

Both read only the observation: the numeric features (budget, supply, costs, own
projects; see :mod:`negotiation_env.games.resource.features`) and, for names, the system
prompt's "Resources available" and project lines. ``output="structured"`` returns the
Dict action; ``output="text"`` returns the JSON string a model would write, so the same
policy exercises either action path.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np

from negotiation_env.core.policy import BasePolicy
from negotiation_env.games.resource.features import FeatureLayout
from negotiation_env.games.resource.scenario import Scenario
from negotiation_env.games.resource.solver import feasible_run_vectors

__all__ = ["OwnView", "RandomPolicy", "GreedyPolicy", "POLICIES", "make"]

_RESOURCES = re.compile(r"^- Resources available: (.+)$", re.M)
_PROJECT = re.compile(r"^- (\S+): requires \[", re.M)


@dataclass
class OwnView:
    """What one agent knows of the game, decoded from its observation."""

    scenario: Scenario  # own projects under both agent ids; the opponent's are unknown
    resource_names: list[str]
    project_names: list[str]
    phase: str
    active: bool
    turns_used: int
    turns_limit: int

    @classmethod
    def from_observation(cls, obs: dict) -> "OwnView":
        system = obs["conversation"][0]["content"]
        m = _RESOURCES.search(system)
        if m is None:
            raise ValueError("observation has no resource list in its system prompt")
        rnames = [s.strip() for s in m.group(1).split(",")]
        pnames = _PROJECT.findall(system.split("## Decision Format")[0])
        L = FeatureLayout(len(rnames), len(pnames))
        f = obs["features"]
        if f.shape != (L.size,):
            raise ValueError(f"feature vector has {f.shape[0]} entries; expected {L.size}")
        req = L.get(f, "requires").astype(int)
        rew = L.get(f, "reward")
        supply = L.get(f, "supply").astype(int)
        cost = L.get(f, "cost")
        projects = {
            pn: {"requires": {f"r{j}": int(req[i, j]) for j in range(len(rnames)) if req[i, j] > 0}, "reward": float(rew[i])}
            for i, pn in enumerate(pnames)
        }
        sc = Scenario.from_dict(
            {
                "name": "own-view",
                "resources": {f"r{j}": {"supply": int(supply[j]), "cost": float(cost[j])} for j in range(len(rnames))},
                "budget": float(L.get(f, "budget")[0]),
                "max_types": int(L.get(f, "max_types")[0]),
                "projects": {"agent_a": projects, "agent_b": projects},
            }
        )
        phase = ("talk", "decision", "done")[int(np.argmax(L.get(f, "phase")))]
        return cls(sc, rnames, pnames, phase, bool(obs["active"]), int(L.get(f, "turns_used")[0]),
                   int(L.get(f, "turns_limit")[0]))


class _ScriptedResourcePolicy(BasePolicy):
    def __init__(self, seed: int | None = None, output: str = "structured"):
        if output not in ("structured", "text"):
            raise ValueError(f"output must be 'structured' or 'text'; got {output!r}")
        self.output = output
        self.rng = np.random.default_rng(seed)

    def _emit(self, view: OwnView, speech: str, thinking: str, runs: np.ndarray | None):
        """Build the action: a talk turn when ``runs`` is None, else a decision buying
        exactly what the runs consume."""
        if runs is None:
            if self.output == "text":
                return json.dumps({"thinking": thinking, "speech": speech, "action": None})
            return {"message": speech, "thinking": thinking, "decide": 0}
        R = np.array(view.scenario.requirement_matrix("agent_a"), dtype=np.int64)
        purchase = (np.asarray(runs, dtype=np.int64) @ R).astype(np.int64)
        if self.output == "text":
            action = {n: int(q) for n, q in zip(view.resource_names, purchase) if q}
            action["projects"] = {p: int(n) for p, n in zip(view.project_names, runs)}
            return json.dumps({"thinking": thinking, "speech": speech, "action": action})
        return {"message": speech, "thinking": thinking, "decide": 1, "purchase": purchase,
                "runs": np.asarray(runs, dtype=np.int64), "auto_runs": 0}


class GreedyPolicy(_ScriptedResourcePolicy):
    """Decides at its first turn on its individual optimum and says so (the no-talk
    reference of seed 000: it ignores the partner entirely)."""

    name = "greedy"

    def act(self, obs):
        view = OwnView.from_observation(obs)
        runs, _, value = feasible_run_vectors(view.scenario, "agent_a")
        best = runs[int(np.argmax(value))]
        return self._emit(view, "I'll go with my own best plan. Good luck!", "Individual optimum.", best)


_PHRASES = (
    "Hello! What are you planning to buy this round?",
    "I'm flexible. Which resources matter most to you?",
    "Let's avoid overdrawing the pool.",
    "I might need some of the expensive resource.",
)


class RandomPolicy(_ScriptedResourcePolicy):
    """Chats with stock phrases and, each turn with probability ``p_decide`` (always in
    the decision phase), decides on a uniformly random affordable run vector."""

    name = "random"

    def __init__(self, seed: int | None = None, output: str = "structured", p_decide: float = 0.3):
        super().__init__(seed, output)
        if not 0.0 <= p_decide <= 1.0:
            raise ValueError(f"p_decide must be in [0, 1]; got {p_decide}")
        self.p_decide = p_decide

    def act(self, obs):
        view = OwnView.from_observation(obs)
        if view.phase == "talk" and self.rng.random() >= self.p_decide:
            return self._emit(view, _PHRASES[int(self.rng.integers(len(_PHRASES)))], "", None)
        runs, _, _ = feasible_run_vectors(view.scenario, "agent_a")
        pick = runs[int(self.rng.integers(len(runs)))]
        return self._emit(view, "Here is my decision.", "Random pick.", pick)


POLICIES = {"greedy": GreedyPolicy, "random": RandomPolicy}


def make(name: str, seed: int | None = None, output: str = "structured"):
    if name not in POLICIES:
        raise ValueError(f"unknown scripted policy {name!r}; available: {', '.join(POLICIES)}")
    return POLICIES[name](seed=seed, output=output)
