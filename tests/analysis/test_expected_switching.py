"""Expected switching from replayed P(A) (seed 002, Eq. 4 / S3-S6) on hand-made rows."""

from __future__ import annotations

import pytest

from negotiation_env.analysis.expected_switching import (condition_contrast, condition_effects, expected_switching,
                                                         history_message_interaction, transitions)


def rows_of(gid, cond, ps, agent="agent_0", **strata):
    return [{"game_id": gid, "agent": agent, "round": t + 1, "condition": cond, "p_a": p, **strata}
            for t, p in enumerate(ps)]


def test_decomposition_is_exact():
    e, d, u = expected_switching(0.2, 0.7)
    assert e == pytest.approx(0.2 * 0.3 + 0.8 * 0.7) and d == pytest.approx(0.25) and u == pytest.approx(0.16 + 0.21)
    assert e == pytest.approx(d + u)
    assert expected_switching(1.0, 0.0) == (1.0, 1.0, 0.0)        # pure drift: certain alternation
    assert expected_switching(0.5, 0.5) == (0.5, 0.0, 0.5)        # pure uncertainty: a coin each round
    assert expected_switching(0.3, 0.6) == pytest.approx(expected_switching(0.7, 0.4))  # label-symmetric
    with pytest.raises(ValueError, match="p_next must be a probability"):
        expected_switching(0.5, 1.2)


def test_transitions_pair_consecutive_rounds_only():
    rows = rows_of("g", "c", [0.1, 0.9]) + [{"game_id": "g", "agent": "agent_0", "round": 4, "condition": "c",
                                             "p_a": 0.5}]
    t = transitions(rows)
    assert len(t) == 1 and t[0]["round"] == 2 and t[0]["E"] == pytest.approx(0.1 * 0.1 + 0.9 * 0.9)
    with pytest.raises(ValueError, match="repeat round 1"):
        transitions(rows + rows_of("g", "c", [0.3]))
    with pytest.raises(ValueError, match="no field 'p_a'"):
        transitions([{"game_id": "g", "agent": "a", "round": 1, "condition": "c"}])


def test_condition_effect_against_no_message_with_equal_strata():
    rows = []
    # stratum PD: two dyads; stratum SH: one dyad. no_message alternates, the message holds steady
    for gid, stage in (("g1", "pd"), ("g2", "pd"), ("g3", "sh")):
        rows += rows_of(gid, "no_message", [0.1, 0.9, 0.1], stage_game=stage, framing="n")
        rows += rows_of(gid, "partner_message", [0.9, 0.9, 0.9], stage_game=stage, framing="n")
    e_no = 0.1 * 0.1 + 0.9 * 0.9
    e_msg = 2 * 0.9 * 0.1
    eff = condition_effects(rows, n_resamples=200, rng=1)["partner_message"]
    assert eff["total"] == pytest.approx(e_no - e_msg) and eff["mean_E"] == pytest.approx(e_msg)
    assert eff["drift"] == pytest.approx(0.64) and eff["uncertainty"] == pytest.approx(0.18 - 0.18)
    assert eff["dyads"] == 3 and eff["strata"] == 2
    assert eff["ci"][0] == pytest.approx(eff["total"]) and eff["p"] is None  # identical dyads: no spread


def test_strata_weigh_equally_and_the_bootstrap_is_paired_and_seeded():
    rows = []
    for i, p in enumerate((0.5, 0.6, 0.7, 0.8)):
        rows += rows_of(f"a{i}", "no_message", [p, 1 - p], stage_game="pd", framing="n")
        rows += rows_of(f"a{i}", "dummy", [p, p], stage_game="pd", framing="n")
    rows += rows_of("b0", "no_message", [0.9, 0.9], stage_game="sh", framing="n")
    rows += rows_of("b0", "dummy", [0.5, 0.5], stage_game="sh", framing="n")
    pd = sum((1 - 2 * p) ** 2 for p in (0.5, 0.6, 0.7, 0.8)) / 4
    sh = 2 * 0.9 * 0.1 - 0.5
    a = condition_effects(rows, ["dummy"], n_resamples=500, rng=3)["dummy"]
    assert a["total"] == pytest.approx((pd + sh) / 2)  # strata, not dyads, weigh equally
    b = condition_effects(rows, ["dummy"], n_resamples=500, rng=3)["dummy"]
    assert a["ci"] == b["ci"] and a["ci"][0] < a["total"] < a["ci"][1] and 0 < a["p"] <= 1
    # a dyad missing the condition is left out (paired design)
    alone = rows + rows_of("c0", "no_message", [0.2, 0.8], stage_game="pd", framing="n")
    assert condition_effects(alone, ["dummy"], n_resamples=0)["dummy"]["dyads"] == 5
    with pytest.raises(ValueError, match="reference condition 'no_message'"):
        condition_effects([r for r in rows if r["condition"] == "dummy"])


def test_contrast_and_history_message_interaction():
    rows = []
    cells = {"A/MB": [0.9, 0.9, 0.9], "A/SP": [0.5, 0.5, 0.5], "B/MB": [0.2, 0.8, 0.2], "B/SP": [0.9, 0.9, 0.9]}
    for gid in ("g1", "g2"):
        for cond, ps in cells.items():
            rows += rows_of(gid, cond, ps, stage_game="pd", framing="n")
    E = {c: expected_switching(ps[0], ps[1])[0] for c, ps in cells.items()}
    hm = history_message_interaction(rows, n_resamples=100, by_round=True)
    want = 0.5 * ((E["A/SP"] - E["A/MB"]) - (E["B/SP"] - E["B/MB"]))
    assert hm["total"] == pytest.approx(want) and hm["total"] == pytest.approx(hm["drift"] + hm["uncertainty"])
    assert hm["sp_minus_mb_after_A"] == pytest.approx(E["A/SP"] - E["A/MB"])
    assert set(hm["rounds"]) == {2, 3} and hm["rounds"][2]["total"] == pytest.approx(want)
    c = condition_contrast(rows, "A/MB", "A/SP", n_resamples=0)
    assert c["total"] == pytest.approx(E["A/SP"] - E["A/MB"]) and c["ci"] is None
    with pytest.raises(ValueError, match="no dyad has transitions under all of"):
        history_message_interaction([r for r in rows if r["condition"] != "B/SP"])
    with pytest.raises(ValueError, match="n_resamples"):
        history_message_interaction(rows, n_resamples=-1)
