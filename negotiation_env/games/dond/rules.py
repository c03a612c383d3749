"""The rules of Deal or No Deal as plain Python: instances, splits, payoffs, and the
frontier a result is measured against.

An **instance** is a pool of items of three types (books, hats, balls) and each agent's
private value per item. The generator follows OpenSpiel's
``bargaining_instance_generator.cc``, itself the rule of Lewis et al. (2017), Section 2.2:

* each type's count is drawn uniformly from 1..7, and the pool is kept when it holds
  5 to 7 items in all (so a type has 1 to 5 items);
* each agent's value of each type is drawn uniformly from 0..10; a draw is kept when
  every type is worth something to at least one agent, some type is worth something to
  both, and each agent's whole pool is worth exactly 10.

OpenSpiel draws again, from the pool on, when a draw breaks a condition (rejection
sampling from a uniform proposal), so an instance is uniform over every instance the
conditions allow. :func:`generate` draws from that distribution directly: it enumerates
the allowed instances once (:func:`all_instances`) and picks one by index with the
``numpy.random.Generator`` the caller passes, since a rejection sampler needs thousands
of draws for each instance it keeps.

A **split** is what one agent takes, a count per type from 0 to the pool's count; the
other agent gets the rest. An agreed split pays each agent its value of its share; no
agreement pays both 0 (the disagreement point of the Nash product).

The **Pareto frontier** and the **Nash product** are found by enumerating every split
(at most 36, for a pool of 2, 2 and 3 items: nothing to optimise).
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

__all__ = ["ITEMS", "POOL_MIN", "POOL_MAX", "TOTAL_VALUE", "Instance", "InstanceError", "all_instances", "generate", "splits",
           "rest", "value_of", "payoffs", "frontier", "is_pareto_optimal", "max_joint", "nash_product",
           "max_nash_product", "DEFAULT_INSTANCES"]

#: the item types, in the order of every count and value vector
ITEMS: tuple[str, ...] = ("books", "hats", "balls")
#: fewest and most items in a pool (each type has at least one)
POOL_MIN, POOL_MAX = 5, 7
#: what each agent's whole pool is worth
TOTAL_VALUE = 10

#: OpenSpiel's ten test instances (``kDefaultInstancesString``: pool, agent_0's values,
#: agent_1's values), in its text form
DEFAULT_INSTANCES: tuple[str, ...] = (
    "1,2,3 8,1,0 4,0,2", "1,4,1 4,1,2 2,2,0", "2,2,1 1,1,6 0,4,2", "1,4,1 9,0,1 2,2,0", "1,4,1 5,1,1 0,1,6",
    "4,1,1 2,1,1 1,0,6", "3,1,1 1,4,3 0,2,8", "1,1,3 0,1,3 1,3,2", "1,3,1 2,2,2 10,0,0", "1,2,2 2,3,1 4,0,3",
)

Bundle = tuple[int, int, int]

_TEXT = re.compile(r"\s*(\d{1,2}),(\d{1,2}),(\d{1,2})\s+(\d{1,2}),(\d{1,2}),(\d{1,2})\s+(\d{1,2}),(\d{1,2}),(\d{1,2})\s*")


class InstanceError(ValueError):
    """An instance that breaks the generator's conditions (the message says which)."""


@dataclass(frozen=True)
class Instance:
    """A pool and both agents' values (``values[0]``: agent_0's), checked on creation."""

    pool: Bundle
    values: tuple[Bundle, Bundle]

    def __post_init__(self) -> None:
        problem = _problem(self.pool, self.values)
        if problem:
            raise InstanceError(f"not a Deal or No Deal instance ({self.to_text()}): {problem}")

    def to_text(self) -> str:
        """OpenSpiel's form: ``"pool v0 v1"``, each three comma-separated integers."""
        return " ".join(",".join(map(str, v)) for v in (self.pool, *self.values))

    @classmethod
    def from_text(cls, text: str) -> "Instance":
        """The instance of OpenSpiel's text form (:meth:`to_text`)."""
        m = _TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise InstanceError(f"an instance is written 'pool v0 v1', each three comma-separated integers "
                                f"(e.g. {DEFAULT_INSTANCES[0]!r}); got {text!r}")
        n = [int(x) for x in m.groups()]
        return cls(tuple(n[0:3]), (tuple(n[3:6]), tuple(n[6:9])))  # type: ignore[arg-type]

    @property
    def items(self) -> int:
        return sum(self.pool)


def _problem(pool: Sequence[int], values: Sequence[Sequence[int]]) -> str | None:
    if len(pool) != len(ITEMS) or len(values) != 2 or any(len(v) != len(ITEMS) for v in values):
        return f"a pool and two value vectors of {len(ITEMS)} entries each are needed"
    if any(not isinstance(x, int) or isinstance(x, bool) for x in (*pool, *values[0], *values[1])):
        return "counts and values are integers"
    if any(c < 1 for c in pool):
        return "every item type has at least one item"
    if not POOL_MIN <= sum(pool) <= POOL_MAX:
        return f"the pool holds {POOL_MIN} to {POOL_MAX} items, not {sum(pool)}"
    if any(v < 0 for vs in values for v in vs):
        return "values are non-negative"
    for k, vs in enumerate(values):
        total = sum(c * v for c, v in zip(pool, vs))
        if total != TOTAL_VALUE:
            return f"agent_{k}'s pool is worth {total}, not {TOTAL_VALUE}"
    if any(a == 0 and b == 0 for a, b in zip(*values)):
        return "every item type is worth something to at least one agent"
    if not any(a > 0 and b > 0 for a, b in zip(*values)):
        return "some item type is worth something to both agents"
    return None


@functools.lru_cache(maxsize=1)
def all_instances() -> tuple[Instance, ...]:
    """Every instance the generator's conditions allow (module docstring), in
    lexicographic order of (pool, agent_0's values, agent_1's values)."""
    out = []
    for pool in itertools.product(range(1, POOL_MAX + 1), repeat=len(ITEMS)):
        if not POOL_MIN <= sum(pool) <= POOL_MAX:
            continue
        vectors = [v for v in itertools.product(range(TOTAL_VALUE + 1), repeat=len(ITEMS))
                   if value_of(v, pool) == TOTAL_VALUE]
        for v0 in vectors:
            for v1 in vectors:
                if _problem(pool, (v0, v1)) is None:
                    out.append(Instance(pool, (v0, v1)))  # type: ignore[arg-type]
    return tuple(out)


def generate(rng: np.random.Generator) -> Instance:
    """A random instance, uniform over :func:`all_instances` (module docstring)."""
    instances = all_instances()
    return instances[int(rng.integers(len(instances)))]


def splits(pool: Sequence[int]) -> Iterator[Bundle]:
    """Every split (what one agent takes) of ``pool``, in lexicographic order."""
    return itertools.product(*(range(c + 1) for c in pool))  # type: ignore[return-value]


def rest(pool: Sequence[int], take: Sequence[int]) -> Bundle:
    """What the other agent gets when one takes ``take``."""
    return tuple(map(operator.sub, pool, take))  # type: ignore[return-value]


def value_of(values: Sequence[int], bundle: Sequence[int]) -> int:
    return sum(map(operator.mul, values, bundle))


def payoffs(instance: Instance, take0: Sequence[int]) -> tuple[int, int]:
    """Both agents' points when agent_0 takes ``take0`` and agent_1 the rest."""
    return value_of(instance.values[0], take0), value_of(instance.values[1], rest(instance.pool, take0))


@dataclass(frozen=True)
class _Bounds:
    """What every split of an instance can reach: the Pareto frontier (agent_0's take,
    both payoffs), its set of payoff pairs, the largest joint value and Nash product."""

    frontier: tuple[tuple[Bundle, tuple[int, int]], ...]
    frontier_payoffs: frozenset[tuple[int, int]]
    max_joint: int
    max_nash_product: int


@functools.lru_cache(maxsize=None)
def _bounds(instance: Instance) -> _Bounds:
    # keyed by the instance (frozen, equal and hashed by its pool and values, which are
    # all the result depends on); unbounded, as the instances are the finite set of
    # all_instances(): Instance refuses any other on creation
    out = [(t, payoffs(instance, t)) for t in splits(instance.pool)]
    # a payoff pair is Pareto-optimal when no other pair is at least as good for both:
    # taken by agent_0's payoff from the highest down, it is the highest agent_1 payoff
    # among the pairs with its agent_0 payoff, and above every agent_1 payoff of a higher
    # agent_0 payoff
    optimal = set()
    above = -1  # the highest agent_1 payoff of the pairs seen, all with a higher agent_0 payoff
    by_first: dict[int, int] = {}
    for a, b in {p for _, p in out}:
        by_first[a] = max(b, by_first.get(a, b))
    for a in sorted(by_first, reverse=True):
        if by_first[a] > above:
            optimal.add((a, by_first[a]))
            above = by_first[a]
    front = tuple((t, p) for t, p in out if p in optimal)
    return _Bounds(front, frozenset(optimal), max(a + b for _, (a, b) in out), max(a * b for _, (a, b) in out))


def frontier(instance: Instance) -> list[tuple[Bundle, tuple[int, int]]]:
    """The Pareto-optimal splits (agent_0's take, both payoffs): no other split pays one
    agent more and the other no less. Splits with the same payoffs are all listed."""
    return list(_bounds(instance).frontier)


def is_pareto_optimal(instance: Instance, take0: Sequence[int]) -> bool:
    return payoffs(instance, take0) in _bounds(instance).frontier_payoffs


def max_joint(instance: Instance) -> int:
    """The largest joint value (sum of both payoffs) of any split."""
    return _bounds(instance).max_joint


def nash_product(p0: float, p1: float) -> float:
    """The Nash product over the disagreement point (0, 0)."""
    return float(p0) * float(p1)


def max_nash_product(instance: Instance) -> int:
    """The largest Nash product of any split."""
    return _bounds(instance).max_nash_product
