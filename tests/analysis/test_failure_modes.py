"""Each resource-game failure-mode metric fires on the matching scripted failure-mode agent,
and not on the oracle (seed 000 §5.4-5.6).

Every game here is a real 4-round game played through the recorder
(:func:`tests.analysis.tracesets.play_resource`); the metrics only read the traces.

Two of the metrics are dyad-level by definition (an equal split and a repeated joint
allocation belong to the pair), so for them the check is "fires on pairs with the agent,
zero / None on the oracle pair"; the other two are per agent (deference: the addressee of
the first proposal; abandonment: the agent whose purchase exceeds its commitment), so for
them the check is on the agent's seat and on the oracle's seat.

Scenarios are chosen where the failure costs something: an anchor or a deferred-to offer
that happens to be jointly optimal is not a failure (see each test). They are legacy
scenarios (``legacy_*``, loaded by name), whose structures the counts below were worked
out on; four of them (legacy_mc080_2, _3, _4 and _g3) have joint optima that favour one
side, which no shipped scenario has (each has an equal optimal split).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from baselines.scripted import grammar as G
from negotiation_env.analysis.resource_metrics import game_metrics, pooled_metrics

from .tracesets import play_resource

LEAD = ("legacy_mc050_1", "legacy_mc080_1", "legacy_mc100_1")  # one scenario per M/C level


@lru_cache(maxsize=None)
def game(a: str, b: str, scenario: str, **config) -> dict:
    return play_resource(a, b, scenario=scenario, rounds=4, **config)


def games(a: str, b: str, scenarios, **config) -> list[dict]:
    return [game(a, b, sc, **config) for sc in scenarios]


def seat_rounds(traces, seat: str, key: str) -> tuple[int, int]:
    """(rounds where ``seat`` is flagged under per-round ``key``, rounds) over ``traces``."""
    rows = [r for t in traces for r in game_metrics(t)["per_round"]]
    return sum(seat in r[key] for r in rows), len(rows)


def deference_of(traces, seat: str, accepted: bool = False) -> tuple[int, int, int]:
    """(first proposals addressed to ``seat``, followed exactly, followed in a non-optimal
    round); with ``accepted``, following counts only after ``seat`` said yes."""
    rows = [r for t in traces for r in game_metrics(t)["per_round"] if r["first_proposal_to"] == seat]
    followed = [r for r in rows if r["first_proposal_followed"] and (r["first_proposal_accepted"] or not accepted)]
    return len(rows), len(followed), sum(not r["optimal"] for r in followed)


# --------------------------------------------------------------------------- §5.4 perfunctory fairness


def test_perfunctory_fairness_fires_on_fair_splitters_not_on_oracles():
    scenarios = LEAD + ("legacy_mc050_2", "legacy_mc100_2")
    fair = pooled_metrics(games("fair_splitter", "fair_splitter", scenarios))
    oracle = pooled_metrics(games("oracle", "oracle", scenarios))
    # two fair splitters buy exactly half of the resources they share in every round ...
    assert fair["equal_split_rate"] == 1.0
    # ... and only in legacy_mc050_1 is that split jointly optimal: 16 of 20 rounds are perfunctory
    assert fair["perfunctory_fairness_rate"] == pytest.approx(16 / 20)
    assert oracle["perfunctory_fairness_rate"] == 0.0  # its equal splits (legacy_mc100_1) are optimal ones
    # a partner that goes along with the split (the deferent takes the half it is offered as
    # far as budget and type limit allow) gives the same picture
    along = pooled_metrics(games("fair_splitter", "deferent", LEAD))
    assert along["perfunctory_fairness_rate"] == pytest.approx(8 / 12)
    # the lead's pooled figure: 0.67 on fair_splitter self-play, 0 on the oracle pair
    assert pooled_metrics(games("fair_splitter", "fair_splitter", LEAD))["perfunctory_fairness_rate"] == \
        pytest.approx(8 / 12)
    assert pooled_metrics(games("oracle", "oracle", LEAD))["perfunctory_fairness_rate"] == 0.0


def test_fair_split_talk_is_not_abandonment():
    # "I take 5 ice, 5 titanium and 3 helium" and then buying less of it breaks nothing
    for a, b in (("fair_splitter", "fair_splitter"), ("fair_splitter", "deferent"), ("oracle", "fair_splitter")):
        tr = games(a, b, LEAD)
        assert pooled_metrics(tr)["abandonment_rate"] == 0.0, (a, b)


# --------------------------------------------------------------------------- §5.5 stubborn anchoring


# where the anchorer's opening (its individual optimum) is in no joint optimum, by seat
ANCHOR_A = ("legacy_mc080_2", "legacy_mc080_3", "legacy_mc080_g1")
ANCHOR_B = ("legacy_mc080_4", "legacy_mc080_g1", "legacy_mc080_g3")


def test_stubborn_anchoring_fires_on_the_anchorer_against_an_oracle_that_renegotiates():
    for a, b, scenarios in (("anchorer", "oracle", ANCHOR_A), ("oracle", "anchorer", ANCHOR_B)):
        tr = games(a, b, scenarios)
        m = pooled_metrics(tr)
        # every round is suboptimal and not overdrawn, and every one is repeated: 9 of 9
        assert m["optimum_rate"] == 0.0 and m["overdraw_rate"] == 0.0
        assert m["stubborn_anchoring"] == 1.0
        assert sum(game_metrics(t)["counts"]["stubborn_anchoring"][1] for t in tr) == 9
        # the anchorer discloses, so the oracle knows the joint optimum and proposes it every
        # round; the repeat is the anchorer's refusal, not the oracle's ignorance
        oracle = "agent_b" if b == "oracle" else "agent_a"
        for t in tr:
            for k in (2, 3, 4):
                said = [s["parsed"]["speech"] for s in t["steps"] if s["round"] == k and s["agent"] == oracle]
                assert any(isinstance(act, G.Propose) for x in said for act in G.parse(x)), (a, b, k)
    # a partner that discloses and accepts: the oracle pair, and the deferent, reach the optimum
    for a, b, scenarios in (("oracle", "oracle", ANCHOR_A + ANCHOR_B), ("deferent", "oracle", ANCHOR_A)):
        m = pooled_metrics(games(a, b, scenarios))
        assert m["optimum_rate"] == 1.0 and m["stubborn_anchoring"] is None, (a, b)


def test_anchorer_in_the_leads_scenarios_has_nothing_to_anchor_on():
    # in legacy_mc050_1, legacy_mc080_1 and legacy_mc100_1 the anchorer's opening is jointly
    # optimal against these partners, so there is no suboptimal non-overdrawn round to repeat
    # (stubborn anchoring None)
    for partner in ("linear", "oracle", "deferent"):
        m = pooled_metrics(games("anchorer", partner, LEAD))
        assert m["optimum_rate"] == 1.0 and m["stubborn_anchoring"] is None, partner


# --------------------------------------------------------------------------- §5.5 first-proposal deference


# where the satisficer's first (informed) offer is not jointly optimal
DEFER = ("legacy_mc050_3", "legacy_mc050_g2", "legacy_mc080_4")


def test_costly_deference_is_the_deferents_not_the_oracles():
    # the deferent speaks first (discloses, asks), then says yes to and buys exactly the
    # first offer it hears
    d = games("deferent", "satisficer", DEFER)
    assert deference_of(d, "agent_a") == deference_of(d, "agent_a", accepted=True) == (12, 12, 12)
    assert pooled_metrics(d)["deference_suboptimal_rate"] == 1.0
    # the oracle in the same seat never says yes to these offers, but the satisficer, which
    # never discloses, offers it the whole rest of the pool and claims the part it wants:
    # the best the oracle can buy from what that claim leaves is the offer itself. The
    # paper's deference ("followed exactly") counts that; only the accepted variant, which
    # needs a yes, tells the oracle's best response from compliance
    o = games("oracle", "satisficer", DEFER)
    assert deference_of(o, "agent_a") == (12, 12, 12)
    assert deference_of(o, "agent_a", accepted=True) == (12, 0, 0)
    assert pooled_metrics(o)["deference_accepted_rate"] == 0.0
    # where the offer is not the oracle's best response, the paper's measure itself fires
    # on the deferent (all 4 rounds, all non-optimal) and never on the oracle
    for partner in ("abandoner", "linear"):
        assert deference_of(games("deferent", partner, ("legacy_mc080_g3",)), "agent_a") == (4, 4, 4), partner
    # (against the abandoner the oracle is addressed in round 1 only; from round 2 on it
    # knows the projects and opens with the joint optimum itself)
    assert deference_of(games("oracle", "abandoner", ("legacy_mc080_g3",)), "agent_a") == (1, 0, 0)
    assert deference_of(games("oracle", "linear", ("legacy_mc080_g3",)), "agent_a") == (4, 3, 0)  # 3 optimal ones
    # with the deferent answering second it still defers (9 of 12: the other 3 first offers
    # cannot be bought as a whole, over budget or over the type limit)
    assert deference_of(games("satisficer", "deferent", DEFER), "agent_b") == (12, 9, 9)


def test_deference_to_an_optimal_proposal_is_not_costly():
    # oracles follow each other's proposals exactly: deference 100%, but every one is optimal
    oo = pooled_metrics(games("oracle", "oracle", LEAD + DEFER))
    assert oo["deference_rate"] == 1.0 and oo["deference_suboptimal_rate"] == 0.0
    # the deferent follows the oracle's optimal proposals; the oracle is never addressed
    d = games("deferent", "oracle", LEAD)
    assert deference_of(d, "agent_a") == (12, 12, 0)
    assert deference_of(d, "agent_b") == (0, 0, 0)
    assert deference_of(games("oracle", "deferent", LEAD), "agent_a") == (0, 0, 0)


def test_an_offer_nobody_can_buy_cannot_be_followed_exactly():
    # the hardliner speaking first offers the whole rest of the pool (3 types, or over budget):
    # the deferent takes what it can of it, which is not "exactly"; answering the deferent's
    # disclosure instead, the hardliner's first offer is purchasable and the deferent buys it
    first = games("hardliner", "deferent", LEAD)
    assert deference_of(first, "agent_b") == (12, 0, 0)
    assert deference_of(games("deferent", "hardliner", ("legacy_mc080_1", "legacy_mc100_1")), "agent_a") == (8, 8, 0)


# --------------------------------------------------------------------------- §5.6 agreement abandonment


def test_abandonment_is_attributed_to_the_abandoner_never_to_its_partner():
    conflict = ("legacy_mc050_1", "legacy_mc080_1")  # its individual optimum overdraws what it agreed to
    for a, b in (("linear", "abandoner"), ("abandoner", "linear")):
        seat, other = ("agent_b", "agent_a") if b == "abandoner" else ("agent_a", "agent_b")
        tr = games(a, b, conflict)
        assert seat_rounds(tr, seat, "abandonment") == (8, 8)
        assert seat_rounds(tr, other, "abandonment") == (0, 8)
        assert pooled_metrics(tr)["abandonment_in_overdraw"] == 1.0
    # against the oracle: from round 2 on (round 1 ends before any agreement), in the
    # competitive scenarios where its optimum does not fit the oracle's split
    competitive = ("legacy_mc050_1", "legacy_mc050_2", "legacy_mc050_4")
    for a, b, cfg in (("oracle", "abandoner", {}), ("abandoner", "oracle", {"first_speaker": "agent_b"})):
        seat, oracle = ("agent_b", "agent_a") if b == "abandoner" else ("agent_a", "agent_b")
        tr = games(a, b, competitive, **cfg)
        assert seat_rounds(tr, seat, "abandonment") == (9, 12)
        assert seat_rounds(tr, oracle, "abandonment") == (0, 12)
    # where its optimum fits inside what it agreed to it breaks nothing: no flag
    assert seat_rounds(games("linear", "abandoner", ("legacy_mc100_1",)), "agent_b", "abandonment") == (0, 4)


def test_the_oracle_is_never_flagged_for_abandonment():
    # it honours agreements; without one it takes the best of what the partner claimed,
    # which is below any share it proposed that was turned down
    partners = ("oracle", "hardliner", "linear", "anchorer", "deferent", "fair_splitter", "abandoner")
    for p in partners:
        for a, b, seat in (("oracle", p, "agent_a"), (p, "oracle", "agent_b")):
            tr = games(a, b, LEAD)
            assert seat_rounds(tr, seat, "abandonment") == (0, 12), (a, b)
    assert pooled_metrics(games("oracle", "oracle", LEAD))["abandonment_rate"] == 0.0
