"""The rulemaking game's discrete menu and numeric observation.

Menu (``n = 6``), the closed move vocabulary of the game with the whole package as
the issue (the outcome classifier reads moves only):

| index | label | move | legal when |
| --- | --- | --- | --- |
| 0 | ``pass`` | nothing (the action does not count) | the party does not act now |
| 1 | ``support`` | Support | the party's turn |
| 2 | ``oppose`` | Oppose | the party's turn |
| 3 | ``concede`` | Concede | the party's turn |
| 4 | ``counter`` | Counter | the party's turn |
| 5 | ``exit`` | Exit (leaves the negotiation for good) | the party's turn |

Each move carries the templated rationale and, where the condition keeps private state
(``ledger``, ``notes``, the three notebooks), the templated notebook the scripted
policies send too (:func:`negotiation_env.games.rulemaking.templates.templated_action`),
so every condition plays without a validation error.

Observation, index by index: the game's feature vector
(:mod:`negotiation_env.games.rulemaking.features`: turn, limits, active flag, role,
salience, attention, coordination, move counts overall, recent and own, own last move,
condition), then the party's seat, its brief (priority of its objective on each issue,
number of red lines), the other parties' last moves by seat, the previous turn's move,
and the run's outcome label once it is over (see the README section "Training RL agents").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from negotiation_env.games.rulemaking.features import LAYOUT
from negotiation_env.games.rulemaking.rules import MOVES
from negotiation_env.games.rulemaking.templates import condition_of, private_state, templated_action

from . import Layout, Menu

__all__ = ["RulemakingMenu", "LABELS"]

LABELS = ("consensus", "compromise", "authority", "deadlock")


@dataclass
class _Reading:
    obs: dict[str, Any]


class RulemakingMenu(Menu):
    game_name = "rulemaking_v1"

    def __init__(self, game: Any):
        super().__init__(game)
        sc = game.scenario
        self.parties = tuple(game.possible_agents)
        self.issues = tuple(sc.issue_ids)
        k, others = len(MOVES), len(self.parties) - 1
        self.labels = ("pass",) + tuple(m.lower() for m in MOVES)
        self.layout = Layout([
            ("features", LAYOUT.size),
            ("seat", len(self.parties)),
            ("objective_priority", len(self.issues)),
            ("red_lines", 1),
            ("others_last_move", others * k),
            ("others_exited", others),
            ("previous_move", k),
            ("outcome", len(LABELS)),
        ])
        # the brief, once per party: 1 / priority of its objective on each issue (0: none)
        self._brief = {}
        for p in self.parties:
            pr = np.zeros(len(self.issues), dtype=np.float32)
            for o in sc.party(p).brief.objectives:
                pr[self.issues.index(o.issue)] = max(pr[self.issues.index(o.issue)], 1.0 / o.priority)
            self._brief[p] = (pr, len(sc.party(p).brief.red_lines))

    def read(self, agent: str) -> _Reading:
        return _Reading(self.game.observe(agent))

    def observation(self, agent: str) -> np.ndarray:
        game, L = self.game, self.layout
        v = L.empty()
        v[L.slice("features")] = self.reading(agent).obs["features"]
        seat = self.parties.index(agent)
        v[L.slice("seat")][seat] = 1
        pr, red = self._brief[agent]
        v[L.slice("objective_priority")] = pr
        v[L.slice("red_lines")] = red
        k = len(MOVES)
        turns = game.run.turns
        last: dict[str, str] = {}
        for t in turns:
            last[t.party] = t.move
        others = [self.parties[(seat + i) % len(self.parties)] for i in range(1, len(self.parties))]
        block = np.zeros((len(others), k), dtype=np.float32)
        exited = np.zeros(len(others), dtype=np.float32)
        for i, p in enumerate(others):
            if p in last:
                block[i, MOVES.index(last[p])] = 1
            exited[i] = float(p in game.run.exited)
        v[L.slice("others_last_move")] = block.ravel()
        v[L.slice("others_exited")] = exited
        if turns:
            v[L.slice("previous_move")][MOVES.index(turns[-1].move)] = 1
        if game.outcome is not None:
            v[L.slice("outcome")][LABELS.index(game.outcome["label"])] = 1
        return v

    def legal(self, agent: str) -> np.ndarray:
        m = np.zeros(self.n, dtype=np.int8)
        m[1:] = 1
        return m

    def refused(self, agent: str) -> dict[str, Any]:
        return {"move": 0, "issue": 0, "rationale": ""}

    def structured(self, agent: str, index: int) -> dict[str, Any]:
        obs = self.reading(agent).obs
        return templated_action(obs, index - 1, "structured", private_state(obs, condition_of(obs)))
