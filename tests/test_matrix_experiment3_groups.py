"""benchmarks/matrix_experiment3.py: the one-step test's decisions and their context x
simulation groups (A.5), on hand-made keys with known groups and on the paper's design
(the 1,200 decision keys and the split seed give A.5's 25 groups). No model needed."""

from __future__ import annotations

import pytest

from baselines.llm.replay import split_decisions
from benchmarks import matrix_experiment3


@pytest.fixture(scope="module")
def bench():
    return matrix_experiment3


def groups_of(bench, held, contexts, per_context, order):
    """Keys are (context, trajectory, round, seat)."""
    return bench.one_step_groups(held, contexts, per_context, order=order, context=lambda k: k[0],
                                 trajectory=lambda k: k[1], position=lambda k: k[1:])


def test_capture_order_takes_a_contexts_first_decisions(bench):
    # the split's shuffled held-out keys: two contexts, trajectories 0-2 in each
    held = [("n", 2, 1, 0), ("t", 1, 3, 1), ("n", 0, 4, 1), ("n", 1, 1, 0), ("t", 0, 2, 0), ("n", 0, 2, 0),
            ("t", 2, 1, 1), ("n", 2, 3, 1), ("t", 0, 1, 1), ("n", 1, 2, 1), ("t", 1, 1, 0)]
    got = groups_of(bench, held, ["n", "t"], 3, "capture")
    # per context the first three in (trajectory, round, seat) order: n: (0,2,0) (0,4,1) (1,1,0); t: (0,1,1)
    # (0,2,0) (1,1,0): four groups
    assert got == {("n", 0): [("n", 0, 2, 0), ("n", 0, 4, 1)], ("n", 1): [("n", 1, 1, 0)],
                   ("t", 0): [("t", 0, 1, 1), ("t", 0, 2, 0)], ("t", 1): [("t", 1, 1, 0)]}
    # the split's order instead: n: (2,1,0) (0,4,1) (1,1,0); t: (1,3,1) (0,2,0) (2,1,1): six groups
    shuffled = groups_of(bench, held, ["n", "t"], 3, "shuffled")
    assert shuffled == {("n", 0): [("n", 0, 4, 1)], ("n", 1): [("n", 1, 1, 0)], ("n", 2): [("n", 2, 1, 0)],
                        ("t", 0): [("t", 0, 2, 0)], ("t", 1): [("t", 1, 3, 1)], ("t", 2): [("t", 2, 1, 1)]}
    assert groups_of(bench, held, ["t"], 10, "capture") == {
        ("t", 0): [("t", 0, 1, 1), ("t", 0, 2, 0)], ("t", 1): [("t", 1, 1, 0), ("t", 1, 3, 1)],
        ("t", 2): [("t", 2, 1, 1)]}  # fewer than asked: all of them
    with pytest.raises(ValueError, match="order must be one of capture, shuffled"):
        groups_of(bench, held, ["n"], 3, "random")


def test_the_papers_design_makes_25_groups(bench):
    """D.1 and F.3: six contexts x ten trajectories x ten rounds x two seats = 1,200 keys in
    capture order, split 65/35 with seed 20,260,701 (780 / 420); 25 held-out decisions a
    context. A.5 and F.7 average the one-step slopes over 25 context-simulation groups."""
    contexts = list(bench.CONTEXTS)
    keys = [(c, k * 10 + i, r, seat) for k, c in enumerate(contexts) for i in range(10) for r in range(1, 11)
            for seat in (0, 1)]
    construction, held = split_decisions(keys, 0.65, bench.SPLIT_SEED)
    assert (len(construction), len(held)) == (780, 420)
    got = groups_of(bench, held, contexts, 25, "capture")
    assert len(got) == 25 and sum(map(len, got.values())) == 150
    assert [sum(g[0] == c for g in got) for c in contexts] == [4, 5, 4, 4, 4, 4]
    assert len(groups_of(bench, held, contexts, 25, "shuffled")) == 59  # nearly a group per decision's trajectory


def test_the_default_is_capture_order(bench):
    assert bench.parse_args(["--quick"]).heldout_order == "capture"
    assert bench.parse_args(["--heldout-order", "shuffled"]).heldout_order == "shuffled"
    with pytest.raises(SystemExit):
        bench.parse_args(["--heldout-order", "random"])
