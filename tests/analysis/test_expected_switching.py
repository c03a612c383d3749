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


def _family_rows():
    """Two models x two games, six dyads a stratum, rounds 1-3 of agent_0: no message
    alternates (0.1, 0.9, 0.1, plus noise), the partner message holds P(A) at 0.9 (a large effect),
    the other conditions are the reference plus independent noise (null); Experiment 2:
    after A the self-prioritizing message is flippier than the mutual-benefit one."""
    import numpy as np

    gen = np.random.default_rng(5)
    rows = []
    for model in ("m1", "m2"):
        for stage in ("pd", "sh"):
            for d in range(6):
                gid = f"{model}-{stage}-{d}"
                base = [0.1, 0.9, 0.1]
                noisy = lambda: [float(np.clip(p + gen.normal(0, 0.05), 0, 1)) for p in base]  # noqa: E731
                conds = {"no_message": noisy(), "partner_message": [0.9, 0.9, 0.9]}
                for c in ("own_as_partner", "partner_as_own_public", "own_public", "dummy", "partner_dummy"):
                    conds[c] = noisy()
                conds.update({"A/MB": [0.9, 0.9, 0.9], "A/SP": noisy(), "B/MB": noisy(), "B/SP": noisy()})
                for cond, ps in conds.items():
                    rows += rows_of(gid, cond, ps, stage_game=stage, framing="n", policy=model)
    return rows


def test_experiment1_families_are_the_six_conditions_and_the_five_contrasts_within_model():
    from statsmodels.stats.multitest import multipletests

    from negotiation_env.analysis.expected_switching import (EXPERIMENT_1_CONDITIONS, SPECIFICITY_CONTRASTS,
                                                             experiment1_tests)

    rows = _family_rows()
    res = experiment1_tests(rows, n_resamples=400, rng=1)
    assert sorted(res) == ["m1", "m2"]
    for model, fam in res.items():
        conds, cons = fam["conditions"], fam["contrasts"]
        assert tuple(conds) == EXPERIMENT_1_CONDITIONS and tuple(cons) == SPECIFICITY_CONTRASTS
        for family in (list(conds.values()), list(cons.values())):  # each family corrected on its own
            want = multipletests([e["p"] for e in family], method="fdr_bh")[1]
            assert [e["q"] for e in family] == pytest.approx(list(want))
            assert [e["significant"] for e in family] == [q < 0.05 for q in want]
        # the partner message: E falls from about 0.82 (0.1 -> 0.9 -> 0.1) to 0.18
        pm = conds["partner_message"]
        assert pm["total"] == pytest.approx(0.82 - 0.18, abs=0.05) and pm["significant"]
        assert not conds["dummy"]["significant"]
        # real vs dummy content under partner framing: E_partner_dummy - E_partner_message > 0
        assert cons[("partner_message", "partner_dummy")]["total"] > 0.5
        assert cons[("partner_message", "partner_dummy")]["significant"]
    joint = experiment1_tests(rows, n_resamples=400, rng=1, joint=True)["m1"]
    family = list(joint["conditions"].values()) + list(joint["contrasts"].values())
    assert [e["q"] for e in family] == pytest.approx(list(multipletests([e["p"] for e in family],
                                                                         method="fdr_bh")[1]))
    with pytest.raises(ValueError, match="has no field 'model'"):
        experiment1_tests(rows, model="model")
    # a condition identical to the reference in every dyad has no spread, so no p: it stays out of the family
    same = [r for r in rows if r["condition"] in ("no_message", "partner_message")]
    same += [{**r, "condition": "dummy"} for r in rows if r["condition"] == "no_message"]
    fam = experiment1_tests(same, n_resamples=200)["m1"]
    assert list(fam["conditions"]) == ["partner_message", "dummy"] and fam["contrasts"] == {}
    assert fam["conditions"]["dummy"]["p"] is None and fam["conditions"]["dummy"]["q"] is None
    assert fam["conditions"]["partner_message"]["q"] == fam["conditions"]["partner_message"]["p"]  # a family of one


def test_experiment2_families_are_the_pooled_model_tests_and_the_model_game_tests():
    from statsmodels.stats.multitest import multipletests

    from negotiation_env.analysis.expected_switching import experiment2_tests

    rows = _family_rows()
    res = experiment2_tests(rows, n_resamples=400, rng=2)
    assert sorted(res["pooled"]) == ["m1", "m2"]
    assert sorted(res["by_game"]) == [("m1", "pd"), ("m1", "sh"), ("m2", "pd"), ("m2", "sh")]
    for family in (list(res["pooled"].values()), list(res["by_game"].values())):
        want = multipletests([e["p"] for e in family], method="fdr_bh")[1]
        assert [e["q"] for e in family] == pytest.approx(list(want))
    # the pooled estimate of a model is the equal-weight mean of its two games'
    m1 = res["pooled"]["m1"]["total"]
    assert m1 == pytest.approx((res["by_game"][("m1", "pd")]["total"] + res["by_game"][("m1", "sh")]["total"]) / 2)
    # after A, SP (noisy 0.1/0.9) is flippier than MB (steady 0.9): the interaction is positive
    assert m1 > 0.2 and res["pooled"]["m1"]["significant"]
