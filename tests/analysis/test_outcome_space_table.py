"""The report's outcome-space table (``resource_outcome_space``): every figure equals the
outcome-space metrics recomputed round by round from the rules, annulled rounds count as
the outcome (0, 0), rounds that cannot be placed are left out with a note, and the
game-cluster bootstrap interval matches its closed form on two games."""

from __future__ import annotations

import copy
import math

import pytest

from negotiation_env.analysis.cells import pairing
from negotiation_env.analysis.resource import resource_tables
from negotiation_env.analysis.stats import ratio_bootstrap_ci
from negotiation_env.games.resource.outcome_space import outcome_space, round_metrics
from negotiation_env.games.resource.scenario import load_scenario

from .tracesets import play_resource


@pytest.fixture(scope="module")
def games() -> list[dict]:
    """Oracle self-play (every round optimal) and greedy x fair splitter (overdraws at M/C
    0.5, suboptimal at 1.0), two games of each per M/C level."""
    out = []
    for seed, (a, b) in enumerate((("oracle", "oracle"), ("greedy", "fair_splitter"))):
        for sc in ("mc050_1", "mc100_1"):
            out += [play_resource(a, b, seed=seed + 10 * k, scenario=sc, rounds=2) for k in range(2)]
    return out


def _table(traces, **kw):
    tables, _ = resource_tables(traces, n_resamples=200, **kw)
    return next(t for t in tables if t.name == "resource_outcome_space")


def _expected(traces) -> dict:
    """The table's point figures recomputed from the rules, independently of the report."""
    rounds = [r["outcome"] for t in traces for r in t["rounds"]]
    ms = [round_metrics(load_scenario(o["scenario"]), o["rewards"]) for o in rounds]
    spaces = [outcome_space(load_scenario(o["scenario"])) for o in rounds]
    kalai = [math.dist(o_m.outcome, s.kalai_point) for o_m, s in zip(ms, spaces)]
    return {"Rounds": len(ms), "Annulled rounds": sum(bool(o["overdraw"]) for o in rounds),
            "Pareto-optimal %": sum(m.pareto_optimal for m in ms) / len(ms),
            "Distance to frontier": sum(m.distance_to_frontier for m in ms) / len(ms),
            "Nash product share %": sum(m.nash_share for m in ms) / len(ms),
            "Distance to Kalai point": sum(kalai) / len(kalai)}


def test_every_row_equals_the_metrics_recomputed_round_by_round(games):
    t = _table(games)
    assert len(t.rows) == 9  # 2 pairings + All, each at M/C 0.5, 1.0 and All
    for row in t.rows:
        r = dict(zip(t.columns, row))
        sub = [g for g in games if r["Pairing"] in ("All", pairing(g)) and (r["M/C"] == "All" or g["scenario"] == {"0.5": "mc050_1", "1.0": "mc100_1"}[r["M/C"]])]
        assert r["Games"] == len(sub)
        for k, v in _expected(sub).items():
            assert r[k] == pytest.approx(v), (r["Pairing"], r["M/C"], k)
        assert r["Nash rounds"] == r["Rounds"]
        for name, ci in (("Pareto-optimal %", "Pareto-optimal 95% CI"), ("Distance to frontier", "Distance 95% CI")):
            low, high = r[ci]
            assert low - 1e-12 <= r[name] <= high + 1e-12


def test_annulled_rounds_count_as_the_disagreement_outcome(games):
    t = _table(games)
    cross = dict(zip(t.columns, t.row(Pairing="fair_splitter × greedy", **{"M/C": "0.5"})))
    # greedy x fair splitter overdraws every mc050_1 round: (0, 0), whose nearest frontier
    # pair (10, 10) and Kalai point (10, 10) are sqrt(200) away; Nash share 0
    assert cross["Annulled rounds"] == cross["Rounds"] == 4
    assert cross["Pareto-optimal %"] == 0
    assert cross["Nash product share %"] == 0
    assert cross["Distance to frontier"] == pytest.approx(math.sqrt(200))
    assert cross["Distance to Kalai point"] == pytest.approx(math.sqrt(200))
    oracle = dict(zip(t.columns, t.row(Pairing="oracle × oracle", **{"M/C": "All"})))
    assert (oracle["Pareto-optimal %"], oracle["Nash product share %"], oracle["Distance to frontier"]) == (1, 1, 0)


def test_a_round_whose_scenario_cannot_be_loaded_is_left_out_with_a_note(games):
    broken = copy.deepcopy(games[:2])
    broken[0]["rounds"][0]["outcome"]["scenario"] = "no_such_scenario"
    t = _table(broken)
    r = dict(zip(t.columns, t.row(Pairing="All", **{"M/C": "All"})))
    assert r["Rounds"] == 3
    assert any("Rounds not placed" in n and "no_such_scenario" in n for n in t.notes)


def test_a_single_game_has_no_interval(games):
    r = dict(zip(_table(games[:1]).columns, _table(games[:1]).rows[0]))
    assert r["Games"] == 1 and r["Pareto-optimal 95% CI"] is None and r["Distance 95% CI"] is None


def test_the_cluster_bootstrap_of_two_games_spans_its_three_resampled_ratios():
    # games (1 of 2) and (3 of 4): resampling whole games gives 2/4, 4/6 or 6/8 with
    # probabilities 1/4, 1/2, 1/4, so the 95% percentile interval is [0.5, 0.75]
    assert ratio_bootstrap_ci([1, 3], [2, 4], n_resamples=2000, rng=0) == pytest.approx((0.5, 0.75))
    assert ratio_bootstrap_ci([1], [2]) is None
    with pytest.raises(ValueError, match="positive"):
        ratio_bootstrap_ci([1, 2], [0, 2])
