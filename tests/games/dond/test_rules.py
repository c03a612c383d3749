"""Deal or No Deal's rules against hand-worked instances and an independent enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from negotiation_env.games.dond.rules import (DEFAULT_INSTANCES, POOL_MAX, POOL_MIN, TOTAL_VALUE, Instance,
                                              InstanceError, all_instances, frontier, generate, is_pareto_optimal,
                                              max_joint, max_nash_product, nash_product, payoffs, splits)


def test_hand_worked_instance_frontier_joint_and_nash():
    # pool 1 book, 2 hats, 3 balls; agent_0 values 8, 1, 0; agent_1 values 4, 0, 2.
    # Hats are worth nothing to agent_1 and balls nothing to agent_0, so a Pareto-optimal
    # split gives agent_0 both hats and agent_1 every ball; the book decides:
    # book to agent_0: (8 + 2, 3 * 2) = (10, 6); book to agent_1: (2, 4 + 6) = (2, 10)
    inst = Instance.from_text("1,2,3 8,1,0 4,0,2")
    assert sorted(p for _, p in frontier(inst)) == [(2, 10), (10, 6)]
    assert sorted(t for t, _ in frontier(inst)) == [(0, 2, 0), (1, 2, 0)]
    assert max_joint(inst) == 16
    assert max_nash_product(inst) == 60
    assert payoffs(inst, (1, 0, 0)) == (8, 6) and not is_pareto_optimal(inst, (1, 0, 0))
    assert is_pareto_optimal(inst, (1, 2, 0)) and nash_product(10, 6) == 60.0


def test_second_hand_worked_instance():
    # pool 1 book, 3 hats, 1 ball; agent_0 values 2 each; agent_1 values only the book (10).
    # Everything but the book to agent_0 in any efficient split: (8, 10) or (10, 0)
    inst = Instance.from_text("1,3,1 2,2,2 10,0,0")
    assert sorted(p for _, p in frontier(inst)) == [(8, 10), (10, 0)]
    assert max_joint(inst) == 18 and max_nash_product(inst) == 80


def test_frontier_joint_and_nash_of_every_instance_match_brute_force():
    # every split against every other, as the definitions read, on every allowed instance
    for inst in all_instances():
        out = [(t, payoffs(inst, t)) for t in splits(inst.pool)]
        brute = [(t, p) for t, p in out if not any(q[0] >= p[0] and q[1] >= p[1] and q != p for _, q in out)]
        assert frontier(inst) == brute, inst.to_text()
        assert max_joint(inst) == max(a + b for _, (a, b) in out)
        assert max_nash_product(inst) == max(a * b for _, (a, b) in out)
        assert [is_pareto_optimal(inst, t) for t, _ in out] == [any(q == p for _, q in brute) for _, p in out]
    # a returned frontier is the caller's own list
    inst = all_instances()[0]
    frontier(inst).clear()
    assert frontier(inst)


def test_splits_enumerate_every_bundle():
    assert len(list(splits((1, 2, 3)))) == 2 * 3 * 4
    assert list(splits((1, 1, 1)))[:3] == [(0, 0, 0), (0, 0, 1), (0, 1, 0)]


def _enumerated_independently() -> set[tuple]:
    """The allowed instances by numpy broadcasting over every value pair of every pool."""
    grid = np.array(list(itertools.product(range(TOTAL_VALUE + 1), repeat=3)))
    out = set()
    for pool in itertools.product(range(1, POOL_MAX + 1), repeat=3):
        if not POOL_MIN <= sum(pool) <= POOL_MAX:
            continue
        vs = grid[grid @ np.array(pool) == TOTAL_VALUE]
        a, b = vs[:, None, :], vs[None, :, :]
        ok = (~((a == 0) & (b == 0))).all(-1) & ((a > 0) & (b > 0)).any(-1)
        for i, j in zip(*np.nonzero(ok)):
            out.add((pool, tuple(int(x) for x in vs[i]), tuple(int(x) for x in vs[j])))
    return out


def test_all_instances_are_exactly_the_allowed_ones():
    got = {(i.pool, i.values[0], i.values[1]) for i in all_instances()}
    assert len(got) == len(all_instances())
    assert got == _enumerated_independently()


def test_openspiel_default_instances_are_allowed():
    every = set(all_instances())
    assert all(Instance.from_text(t) in every for t in DEFAULT_INSTANCES)
    assert Instance.from_text(DEFAULT_INSTANCES[0]).to_text() == DEFAULT_INSTANCES[0]


@pytest.mark.parametrize("seed", range(200))
def test_generated_instances_keep_the_rules(seed):
    inst = generate(np.random.default_rng(seed))
    assert all(c >= 1 for c in inst.pool) and POOL_MIN <= sum(inst.pool) <= POOL_MAX
    for vs in inst.values:
        assert min(vs) >= 0 and sum(c * v for c, v in zip(inst.pool, vs)) == TOTAL_VALUE
    assert all(a > 0 or b > 0 for a, b in zip(*inst.values))
    assert any(a > 0 and b > 0 for a, b in zip(*inst.values))
    assert generate(np.random.default_rng(seed)) == inst


def test_generator_spreads_over_the_instances():
    drawn = {generate(np.random.default_rng(s)) for s in range(300)}
    assert len(drawn) > 250  # uniform over thousands: few repeats in 300 draws


@pytest.mark.parametrize("text,problem", [
    ("1,2,3 8,1,0 4,0,3", "agent_1's pool is worth 13, not 10"),
    ("1,1,1 5,5,0 5,0,5", "the pool holds 5 to 7 items, not 3"),
    ("1,2,3 10,0,0 0,2,2", "some item type is worth something to both agents"),
    ("2,2,1 5,0,0 0,5,0", "every item type is worth something to at least one agent"),
    ("0,3,3 0,2,1 0,1,2", "every item type has at least one item"),
    ("1,2", "an instance is written 'pool v0 v1'"),
])
def test_bad_instances_are_refused_with_the_reason(text, problem):
    with pytest.raises(InstanceError) as e:
        Instance.from_text(text)
    assert problem in str(e.value)
