"""The numeric feature vector of a resource-game observation, index by index.

``FeatureLayout(n_resources, n_projects)`` names every slot; ``layout.slice(name)``
finds it, so a learner or a scripted policy never hard-codes an offset. Resources are
in scenario order (r1, r2, ...), projects in the agent's presented order.

| name | size | meaning |
| --- | --- | --- |
| phase | 3 | one-hot: talk, decision, done |
| active | 1 | 1 when this agent's action counts now |
| round | 1 | rounds completed so far (0-based index of the current round) |
| num_rounds | 1 | rounds in the game |
| turns_used | 1 | this agent's talk turns used this round |
| turns_limit | 1 | talk turns per agent this round (0: unlimited talk, or no talk) |
| retries | 1 | invalid responses in a row to the current prompt |
| budget | 1 | budget per round |
| max_types | 1 | distinct resource types allowed per round |
| supply | R | supply per resource |
| cost | R | unit cost per resource |
| requires | P*R | own projects' units per run, row-major (project, resource) |
| reward | P | own projects' reward per run |
| last_own_purchase | R | own purchase in the last resolved round |
| last_opponent_purchase | R | opponent's purchase in the last resolved round |
| last_outcome | 3 | one-hot of the last result notice: standard, annulled, no_runs (zeros before round 1 resolves) |
| last_reward | 1 | own reward in the last resolved round |
| cumulative_reward | 1 | own reward so far |

The opponent's rewards and projects never appear here (nor in the text).
"""

from __future__ import annotations

import numpy as np
from ...core.layout import Layout

__all__ = ["FeatureLayout", "FEATURE_HIGH"]

FEATURE_HIGH = 1e9


class FeatureLayout(Layout):
    def __init__(self, n_resources: int, n_projects: int):
        R, P = n_resources, n_projects
        self.n_resources, self.n_projects = R, P
        super().__init__([
            ("phase", 3), ("active", 1), ("round", 1), ("num_rounds", 1), ("turns_used", 1),
            ("turns_limit", 1), ("retries", 1), ("budget", 1), ("max_types", 1),
            ("supply", R), ("cost", R), ("requires", P * R), ("reward", P),
            ("last_own_purchase", R), ("last_opponent_purchase", R), ("last_outcome", 3),
            ("last_reward", 1), ("cumulative_reward", 1),
        ], high=FEATURE_HIGH)

    def get(self, vec: np.ndarray, name: str) -> np.ndarray:
        v = super().get(vec, name)
        if name == "requires":
            return v.reshape(self.n_projects, self.n_resources)
        return v
