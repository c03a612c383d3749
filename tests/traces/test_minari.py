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
    assert "cli/resource-agent-a-v1: 3 episodes" in out


# --------------------------------------------------------------------------- recover_environment


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory):
    from negotiation_env.runner import run

    from .helpers import mixed_run_config

    out = tmp_path_factory.mktemp("minari_mixed")
    assert run(mixed_run_config(), out).complete
    return out


@pytest.mark.parametrize("game", ["resource", "matrix", "rulemaking"])
def test_recover_environment_replays_the_recorded_games(mixed_run, tmp_path, game):
    """The recovered env has the dataset's spaces, and fed an episode's recorded actions with
    that game's seeds it gives back the episode's observations, rewards and ending."""
    from negotiation_env.traces import read_traces
    from negotiation_env.traces.minari_export import env_variants

    notes = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        made = to_minari(mixed_run, root=tmp_path, prefix="rec", game=game, notes=notes)
    assert notes == []
    traces = [t for t in read_traces(mixed_run).traces if t.game == game]
    for agent, ds in made.items():
        env = ds.recover_environment()
        assert env.spec.id == "negotiation_env/TextSeat-v0"
        assert env.observation_space == ds.observation_space and env.action_space == ds.action_space
        played = [t for t in traces if any(s.agent == agent for s in t.steps)]
        variants = env.unwrapped.variants
        assert sum(v["weight"] for v in variants) == len(played) == ds.total_episodes
        for ep, trace in zip(ds.iterate_episodes(), played):
            (mine,), _ = env_variants([trace], agent)
            k = [(v["config"], v["opponents"]) for v in variants].index((mine["config"], mine["opponents"]))
            seeds = {"env": trace.seeds["env"], "policies": {s: trace.seeds["policies"][s] for s in mine["opponents"]}}
            obs, _ = env.reset(options={"variant": k, "seeds": seeds})
            np.testing.assert_array_equal(obs["features"], ep.observations["features"][0])
            assert obs["prompt"] == ep.observations["prompt"][0]
            for t, action in enumerate(ep.actions):
                obs, reward, term, trunc, _ = env.step(str(action))
                np.testing.assert_array_equal(obs["features"], ep.observations["features"][t + 1])
                assert obs["prompt"] == ep.observations["prompt"][t + 1]
                assert reward == pytest.approx(float(ep.rewards[t]))
                assert (term, trunc) == (bool(ep.terminations[t]), bool(ep.truncations[t]))
            assert term


def test_no_env_spec_without_policy_specs(traces, tmp_path):
    path, _ = traces  # recorded outside the runner: the policies have no spec
    notes = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        made = to_minari(path, root=tmp_path, prefix="nospec", notes=notes)
        assert len(notes) == 2 and all("has no policy spec" in n for n in notes)
        assert "no env spec: seat" in made["agent_a"].storage.metadata["description"]
        with pytest.raises(ValueError, match="env_spec is None"):
            made["agent_a"].recover_environment()
        with pytest.raises(MinariExportError, match="no environment to store"):
            to_minari(path, root=tmp_path, prefix="strict", env=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nospec"]  # the refused export wrote nothing


def test_game_and_prefix_errors(traces, mixed_run, tmp_path):
    from negotiation_env.traces.export import FilterError
    from negotiation_env.traces.minari_export import MinariEmptyError, MinariFilterError

    path, _ = traces
    with pytest.raises(MinariFilterError, match="game 'matrix' does not occur in the traces; they hold resource") as e:
        to_minari(path, root=tmp_path, game="matrix")
    assert isinstance(e.value, FilterError) and e.value.available == ["resource"]
    with pytest.raises(MinariExportError, match=r"mix \['matrix', 'resource', 'rulemaking'\]: choose one"):
        to_minari(mixed_run, root=tmp_path)
    with pytest.raises(MinariEmptyError, match="no traces"):
        to_minari([], root=tmp_path)
    with pytest.raises(MinariExportError, match="prefix 'x' does not make a valid Minari dataset id"):
        to_minari(path, root=tmp_path, prefix="x")
    assert not list(tmp_path.iterdir())
