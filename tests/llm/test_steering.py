"""First-token action probabilities, residual-stream capture and the S8/S9 interventions
on the tiny model."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from baselines.llm.prompting import renormalise  # noqa: E402
from baselines.llm.steering import (Ablate, Steer, balanced_direction, logit_margin_slope,  # noqa: E402
                                    random_direction)

OBS = [{"prompt": p, "conversation": ({"role": "system", "content": "You are Agent 0."}, {"role": "user", "content": p})}
       for p in ("ACTION PHASE: Choose an action (A or B).", "Round 2 complete. You chose A, they chose B.\n\n"
                 "ACTION PHASE: Choose an action (A or B).", "Message received: cooperate. Choose A or B.")]


def test_action_probs_are_the_renormalised_first_token_probabilities(greedy):
    probs = greedy.action_probs_batch(OBS)
    logits = greedy.next_token_logits(OBS)
    a, b = greedy.choice_token_ids(("A", "B"))
    for p, row in zip(probs, logits):
        assert sum(p.probs.values()) == pytest.approx(1.0)
        assert p.p == pytest.approx(1 / (1 + math.exp(float(row[b] - row[a]))), rel=1e-5)
        assert p.margin == pytest.approx(float(row[a] - row[b]), rel=1e-4, abs=1e-5) and not p.censored
    assert greedy.action_probs(OBS[1]).p == pytest.approx(probs[1].p, rel=1e-5)  # alone = in a batch
    three = greedy.action_probs(OBS[0], ("A", "B", "C"))
    assert sum(three.probs.values()) == pytest.approx(1.0) and three.probs["A"] < probs[0].probs["A"]
    with pytest.raises(ValueError, match="share a first token"):
        greedy.action_probs(OBS[0], ("A", "A"))


def test_renormalise_checks_its_input():
    with pytest.raises(ValueError, match="two distinct"):
        renormalise({"A": -1.0}, ("A",))
    with pytest.raises(ValueError, match="none of the choices A, B has a log-probability"):
        renormalise({"A": None, "B": None}, ("A", "B"), floor=-5)
    with pytest.raises(ValueError, match="no floor"):
        renormalise({"A": -1.0, "B": None}, ("A", "B"))
    p = renormalise({"A": None, "B": -0.1}, ("A", "B"), floor=-3.0)  # A censored: P(A) in [0, at floor]
    at_floor = math.exp(-3.0) / (math.exp(-3.0) + math.exp(-0.1))
    assert p.interval == pytest.approx((0.0, at_floor)) and p.p == pytest.approx(at_floor)


def test_captured_activations_are_the_residual_stream_after_the_block(greedy):
    acts = greedy.final_token_activations(OBS, [1, 2])
    hidden = greedy.model.config.hidden_size
    assert set(acts) == {1, 2} and acts[1].shape == (3, hidden)
    ids, mask = greedy._encode([greedy.render(list(o["conversation"])) for o in OBS])
    with torch.no_grad():
        out = greedy.model(input_ids=ids, attention_mask=mask, output_hidden_states=True)
    assert torch.allclose(acts[1], out.hidden_states[1][:, -1, :].float(), atol=1e-5)
    with pytest.raises(ValueError, match="layer must be an integer in \\[1, 2\\]"):
        greedy.final_token_activations(OBS, [3])


def test_steering_and_ablation_change_the_logits(greedy):
    clean = greedy.next_token_logits(OBS)
    d = random_direction(greedy.model.config.hidden_size, seed=1)
    with greedy.intervene(Steer(1, d, 0.0)):
        assert torch.allclose(greedy.next_token_logits(OBS), clean, atol=1e-5)
    with greedy.intervene(Steer(1, d, 4.0)):
        steered = greedy.next_token_logits(OBS)
    assert not torch.allclose(steered, clean, atol=1e-3)
    # the projection is gone after the block where it is ablated, and the logits move
    h = greedy.final_token_activations(OBS, [1])[1]
    with greedy.intervene(Ablate(1, h[0])):
        ablated = greedy.final_token_activations(OBS, [1])[1]
        ablated_logits = greedy.next_token_logits(OBS)
    unit = h[0] / h[0].norm()
    assert torch.allclose(ablated @ unit, torch.zeros(3), atol=1e-4)
    assert not torch.allclose(ablated_logits, clean, atol=1e-3)
    # leaving the block removes the intervention
    assert torch.allclose(greedy.next_token_logits(OBS), clean, atol=1e-5)


def test_interventions_apply_only_where_when_says(greedy):
    clean = greedy.next_token_logits(OBS)
    d = random_direction(greedy.model.config.hidden_size, seed=2)
    with greedy.intervene(Steer(2, d, 5.0), when=lambda o: "Round 2" in o["prompt"]):
        mixed = greedy.next_token_logits(OBS)
    assert torch.allclose(mixed[0], clean[0], atol=1e-5) and torch.allclose(mixed[2], clean[2], atol=1e-5)
    assert not torch.allclose(mixed[1], clean[1], atol=1e-3)


def test_intervention_errors_name_the_problem(greedy):
    with pytest.raises(ValueError, match="hidden size"):
        with greedy.intervene(Steer(1, torch.ones(3), 1.0)):
            pass
    with pytest.raises(ValueError, match="non-zero"):
        Ablate(1, torch.zeros(8))
    with pytest.raises(ValueError, match="layer must be"):
        with greedy.intervene(Steer(0, torch.ones(greedy.model.config.hidden_size), 1.0)):
            pass


def test_random_direction_is_seeded_with_the_requested_norm():
    a, b = random_direction(64, seed=5, norm=3.0), random_direction(64, seed=5, norm=3.0)
    assert torch.equal(a, b) and float(a.norm()) == pytest.approx(3.0)
    assert not torch.equal(a, random_direction(64, seed=6, norm=3.0))


def test_balanced_direction_is_not_driven_by_unequal_histories():
    g = torch.Generator().manual_seed(0)
    cls_axis, hist_axis = torch.zeros(8), torch.zeros(8)
    cls_axis[0], hist_axis[1] = 1.0, 5.0
    rows, classes, histories = [], [], []
    # MB mostly after partner-A, SP mostly after partner-B: plain means would mix in the history axis
    for cls, hist, n in (("MB", "A", 30), ("MB", "B", 3), ("SP", "A", 3), ("SP", "B", 30)):
        for _ in range(n):
            x = (cls == "MB") * cls_axis + (hist == "A") * hist_axis + 0.01 * torch.randn(8, generator=g)
            rows.append(x)
            classes.append(cls)
            histories.append(hist)
    x = torch.stack(rows)
    d = balanced_direction(x, classes, histories, positive="MB", negative="SP")
    assert float(d.norm()) == pytest.approx(1.0) and float(d[0]) > 0.99
    plain = balanced_direction(x, classes, None, positive="MB", negative="SP")
    assert abs(float(plain[1])) > 0.5  # what balancing prevents
    with pytest.raises(ValueError, match="class 'SP' has no rows with history 'B'"):
        balanced_direction(x[:36], classes[:36], histories[:36])  # SP only after A
    per_layer = balanced_direction({4: x, 6: x}, classes, histories, positive="MB", negative="SP")
    assert set(per_layer) == {4, 6} and torch.allclose(per_layer[4], d)


def test_logit_margin_slope_is_odd_in_the_direction(greedy):
    d = random_direction(greedy.model.config.hidden_size, seed=3)
    s = logit_margin_slope(greedy, OBS, 2, d)
    assert math.isfinite(s) and s != 0.0
    assert logit_margin_slope(greedy, OBS, 2, -d) == pytest.approx(-s, rel=1e-4)
