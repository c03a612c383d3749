"""`negotiation-env play` with an hf: seat on the tiny local model: loaded once for all
its seats, probed, and played through the game's parser."""

from __future__ import annotations

import pytest

from negotiation_env.cli import main

pytest.importorskip("torch")
pytest.importorskip("transformers")


def test_hf_seats_share_one_model_and_play_a_game(tiny_model, capsys, monkeypatch):
    import baselines.llm.hf as hf

    built = []

    class Counting(hf.HFPolicy):
        def __init__(self, *args, **kwargs):
            built.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(hf, "HFPolicy", Counting)
    spec = f"hf:{tiny_model}"
    # one decision per seat, no retries: a random model's answer is refused, then the fallback
    argv = ["play", "--a", spec, "--b", spec, "--rounds", "1", "--set", "cheap_talk=false", "--set", "max_retries=0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert built == [(tiny_model,)]  # both seats, one model
    assert "agent_a decides:" in out or "[fallback] agent_a" in out
    assert "agent_b decides:" in out or "[fallback] agent_b" in out
    assert "=== Game over" in out and "| total |" in out
