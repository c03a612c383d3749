"""Minari export: one dataset per seat, loaded back and compared with the traces."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from negotiation_env.traces import TraceWriter
from negotiation_env.traces.minari_export import MinariExportError, dataset_id, to_minari

from .helpers import play_aec

minari = pytest.importorskip("minari", reason="the 'minari' extra is not installed")


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    out = tmp_path_factory.mktemp("minari") / "t.jsonl"
    w = TraceWriter(out)
    games = []
    for seed in range(3):
        t, _, _ = play_aec(("oracle", "random"), seed=seed, rounds=2)
        w.write(t)
        games.append(t)
    w.close()
    return out, games


def test_round_trip_per_seat(traces, tmp_path):
    path, games = traces
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        made = to_minari(path, root=tmp_path, prefix="rt")
    assert set(made) == {"agent_a", "agent_b"}
    for agent, ds in made.items():
        assert ds.spec.dataset_id == dataset_id("rt", "resource", agent)
        eps = list(ds.iterate_episodes())
        assert len(eps) == 3
        for ep, game in zip(eps, games):
            steps = [s for s in game.steps if s.agent == agent]
            assert list(ep.actions) == [s.action for s in steps]
            feats = np.asarray([s.features for s in steps] + [game.final_features[agent]], dtype=np.float32)
            np.testing.assert_array_equal(ep.observations["features"], feats)
            assert list(ep.observations["prompt"][:-1]) == [s.observation or "" for s in steps]
            assert float(np.sum(ep.rewards)) == pytest.approx(game.returns[agent])
            assert bool(ep.terminations[-1]) and not any(ep.terminations[:-1])
    # loaded again by id from the same root, as a user would
    import os
    os.environ["MINARI_DATASETS_PATH"] = str(tmp_path)
    try:
        again = minari.load_dataset(dataset_id("rt", "resource", "agent_a"))
        assert again.total_episodes == 3
    finally:
        os.environ.pop("MINARI_DATASETS_PATH")


def test_errors(traces, tmp_path):
    path, games = traces
    with pytest.raises(MinariExportError, match="no traces"):
        to_minari([], root=tmp_path)
    with pytest.raises(MinariExportError, match="unknown agents"):
        to_minari(path, root=tmp_path, agents=["nobody"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        to_minari(path, root=tmp_path, prefix="dup", agents=["agent_a"])
        with pytest.raises(ValueError, match="already exists"):
            to_minari(path, root=tmp_path, prefix="dup", agents=["agent_a"])


def test_cli_export_minari(traces, tmp_path, capsys):
    from negotiation_env.cli import main

    path, _ = traces
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert main(["export", str(path), "--kind", "minari", "--out", str(tmp_path / "root"), "--prefix", "cli"]) == 0
    out = capsys.readouterr().out
    assert "cli/resource-agent-a-v0: 3 episodes" in out
