"""Scripted negotiators for the rulemaking game (seed 001 §7): no language model.

They read only the observation's numeric features (:mod:`negotiation_env.games.rulemaking.features`)
and emit the structured action (or, with ``output="text"``, the JSON a model would
write). Time is ``t = (turn + 1) / max_turns``, the share of the run elapsed once this
turn is played, and concession follows the shared aspiration curve of
:mod:`.concession` (``a(t) = r + (1 - r)(1 - t^e)``). A party's *resistance* is its
salience this run (drawn per run by the environment): the more the negotiation matters
to it, the later it gives ground.

* ``conceder`` (time-based): Counter while ``a(t) > 1 - salience``, then Concede for
  the rest of the run. With the linear curve a party concedes once ``t >= salience``.
* ``noisy_conceder``: the conceder, but with probability ``noise`` (:data:`NOISE_E1`,
  0.5) a turn's move is replaced by one drawn uniformly from Support, Oppose, Concede,
  Counter. The paper does not give its noise level; 0.5 is calibrated on its E1 count
  (13 of 15 against the conceder's 14): once agreement ends a run (the game's
  ``early_end``), a random Concede can only bring agreement forward, and at 0.3 ours
  closed 298 of 300 E1 runs, a rate under which 13 or fewer of 15 has probability 0.004;
  at 0.5, 289 of 300 (figures under ``early_end="window"``, the rule it was calibrated
  with; 273 of 300 under the default sustained rule, where a random Counter also undoes
  a held concession; see benchmarks/rulemaking_baselines.py).
* ``satisficer`` (aspiration): settles when what it sees is good enough. Its value of
  the current state is ``w * (1 - salience) + (1 - w) * others' softening share``
  (Support or Concede by other parties in the last window, over the other parties still
  at the table); it plays Concede when that value reaches its constant aspiration
  ``level`` (0.4), else Support when its own stake is small (``1 - salience >=
  support_level``, 0.6), else Counter. Whether it closes depends on the run's draw of
  saliences: it agrees when enough parties care little, which is roughly half the time.
* ``hardliner``: Counter on every turn (one repeated action, the GPT-5.2 Native signature).
* ``reciprocator``: Concede only after another party has conceded within the window;
  otherwise Counter, with a Support probe (probability ``probe`` per turn) before the
  closing stretch. It softens but never concedes first, so a population of them does
  not close (the DeepSeek Native signature). The paper's reciprocator softens "in 67% of
  runs" (§7); ``probe`` defaults to :data:`PROBE_E1` = 1 - (1/3)^(1/10) = 0.104, the
  per-turn rate at which a population probes at least once in the ten turns before the
  closing stretch of a 15-turn run with probability 2/3 (0.3, the old default, softened
  in 97% of runs, and its chance Support runs closed 8% of E1 runs by consensus once
  agreement ends a run).
* ``mixed``: :class:`RulemakingMix` draws each seat's policy per run from a roster.

Each policy fills the condition's private state when it has one (a templated notebook
or notes), so every condition can be played by scripts.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from negotiation_env.core.policy import BasePolicy
from negotiation_env.games.rulemaking import templates
from negotiation_env.games.rulemaking.features import LAYOUT
from negotiation_env.games.rulemaking.rules import MOVES
from negotiation_env.games.rulemaking.templates import RATIONALES  # noqa: F401 - re-exported

from .concession import aspiration

__all__ = ["RulemakingNegotiator", "Conceder", "Satisficer", "Hardliner", "Reciprocator", "RulemakingMix",
           "RULEMAKING_POLICIES", "make_rulemaking"]

SUPPORT, OPPOSE, CONCEDE, COUNTER, EXIT = range(len(MOVES))
#: the reciprocator's per-turn Support probe: (1 - p)^10 = 1/3, so a homogeneous
#: population softens in 2/3 of 15-turn runs (ten turns before a 5-turn closing stretch;
#: seed 001 §7: "softening in 67% of runs")
PROBE_E1 = 1.0 - (1.0 / 3.0) ** (1.0 / 10.0)
#: the noisy conceder's replacement probability, calibrated on seed 001 §7's E1 count (13/15)
NOISE_E1 = 0.5
# features are float32: comparisons allow this much rounding
_EPS = 1e-6

class RulemakingNegotiator(BasePolicy):
    """Base: turns the features into a view and a chosen move into an action."""

    name = "rulemaking"

    def __init__(self, seed: int | None = None, output: str = "structured"):
        if output not in ("structured", "text"):
            raise ValueError(f"output must be 'structured' or 'text'; got {output!r}")
        self.rng = np.random.default_rng(seed)
        self.output = output

    # -- what every policy reads
    @staticmethod
    def feature(obs: Mapping[str, Any], name: str) -> np.ndarray:
        return np.asarray(obs["features"])[LAYOUT.slice(name)]

    def time(self, obs) -> float:
        turn = float(self.feature(obs, "turn")[0])
        T = max(1.0, float(self.feature(obs, "max_turns")[0]))
        return min(1.0, (turn + 1.0) / T)

    def resistance(self, obs) -> float:
        return float(self.feature(obs, "salience")[0])

    def choose(self, obs) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def act(self, obs: Mapping[str, Any]) -> Any:
        move = int(self.choose(obs))
        return self.render(obs, move)

    # -- the action
    def render(self, obs, move: int) -> Any:
        """Move ``move`` as this policy's output
        (:func:`~negotiation_env.games.rulemaking.templates.templated_action`)."""
        private = self.private_state(obs, templates.condition_of(obs))
        return templates.templated_action(obs, move, self.output, private)

    def private_state(self, obs, condition: str):
        """:func:`~negotiation_env.games.rulemaking.templates.private_state`."""
        return templates.private_state(obs, condition)


class Conceder(RulemakingNegotiator):
    """Time-based conceder (optionally noisy): Concede once ``a(t) <= 1 - salience``."""

    def __init__(self, seed=None, output="structured", *, exponent: float = 1.0, noise: float = 0.0,
                 name: str = "conceder"):
        super().__init__(seed, output)
        if exponent <= 0:
            raise ValueError(f"exponent must be > 0; got {exponent}")
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be in [0, 1]; got {noise}")
        self.exponent, self.noise, self.name = exponent, noise, name

    def choose(self, obs) -> int:
        move = CONCEDE if aspiration(self.time(obs), self.exponent) <= 1.0 - self.resistance(obs) + _EPS else COUNTER
        if self.noise and self.rng.random() < self.noise:
            move = int(self.rng.choice([SUPPORT, OPPOSE, CONCEDE, COUNTER]))
        return move


class Satisficer(RulemakingNegotiator):
    """Aspiration satisficer (Simon): Concede once the value of settling reaches a
    constant aspiration ``level``; Support when its own stake is small; else Counter."""

    name = "satisficer"

    def __init__(self, seed=None, output="structured", *, level: float = 0.4, weight: float = 0.5,
                 support_level: float = 0.6):
        super().__init__(seed, output)
        for field, v in (("level", level), ("weight", weight), ("support_level", support_level)):
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{field} must be in [0, 1]; got {v}")
        self.level, self.weight, self.support_level = level, weight, support_level

    def value(self, obs) -> float:
        others = max(1.0, float(self.feature(obs, "active_parties")[0]) - 1.0)
        social = min(1.0, float(self.feature(obs, "others_recent_softening")[0]) / others)
        return self.weight * (1.0 - self.resistance(obs)) + (1.0 - self.weight) * social

    def choose(self, obs) -> int:
        if self.value(obs) >= self.level - _EPS:
            return CONCEDE
        if 1.0 - self.resistance(obs) >= self.support_level:
            return SUPPORT
        return COUNTER


class Hardliner(RulemakingNegotiator):
    name = "hardliner"

    def choose(self, obs) -> int:
        return COUNTER


class Reciprocator(RulemakingNegotiator):
    """Concede only after someone else has; otherwise Counter (Support probes early)."""

    name = "reciprocator"

    def __init__(self, seed=None, output="structured", *, probe: float = PROBE_E1, closing_turns: int = 5):
        super().__init__(seed, output)
        if not 0.0 <= probe <= 1.0:
            raise ValueError(f"probe must be in [0, 1]; got {probe}")
        self.probe, self.closing_turns = probe, closing_turns

    def choose(self, obs) -> int:
        if self.feature(obs, "others_recent_concessions")[0] >= 1:
            return CONCEDE
        if self.feature(obs, "turns_left")[0] > self.closing_turns and self.rng.random() < self.probe:
            return SUPPORT
        return COUNTER


def _conceder(seed=None, output="structured"):
    return Conceder(seed, output)


def _noisy(seed=None, output="structured"):
    return Conceder(seed, output, noise=NOISE_E1, name="noisy_conceder")


RULEMAKING_POLICIES = {
    "conceder": _conceder,
    "noisy_conceder": _noisy,
    "satisficer": Satisficer,
    "hardliner": Hardliner,
    "reciprocator": Reciprocator,
}

#: the default roster of the mixed population (equal weights)
MIXED_ROSTER = ("conceder", "noisy_conceder", "satisficer", "reciprocator")


def make_rulemaking(name: str, seed: int | None = None, output: str = "structured") -> RulemakingNegotiator:
    if name not in RULEMAKING_POLICIES:
        raise ValueError(f"unknown rulemaking policy {name!r}; available: {', '.join(RULEMAKING_POLICIES)}, mixed")
    return RULEMAKING_POLICIES[name](seed=seed, output=output)


class RulemakingMix:
    """A mixed population: each seat's policy drawn per run from ``roster``.

    ``draw(seats, run_index)`` returns ``{seat: policy}``, fresh instances seeded from
    (seed, run_index), so run k gets the same population however many runs came before."""

    def __init__(self, roster: Sequence[str] = MIXED_ROSTER, seed: int = 0, output: str = "structured"):
        unknown = [n for n in roster if n not in RULEMAKING_POLICIES]
        if not roster or unknown:
            raise ValueError(f"roster must name rulemaking policies ({', '.join(RULEMAKING_POLICIES)}); got {list(roster)}")
        self.roster, self.seed, self.output = tuple(roster), seed, output

    def draw_names(self, seats: Sequence[str], run_index: int) -> dict[str, str]:
        rng = np.random.default_rng([self.seed, run_index])
        return {s: self.roster[int(i)] for s, i in zip(seats, rng.integers(len(self.roster), size=len(seats)))}

    def draw(self, seats: Sequence[str], run_index: int) -> dict[str, RulemakingNegotiator]:
        names = self.draw_names(seats, run_index)
        ss = np.random.SeedSequence([self.seed, run_index, 1]).generate_state(len(seats))
        return {s: make_rulemaking(names[s], seed=int(x), output=self.output) for s, x in zip(seats, ss)}


# the names the runner looks up (``scripted:NAME`` specs for game "rulemaking")
make = make_rulemaking
POLICIES = RULEMAKING_POLICIES
