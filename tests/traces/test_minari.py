"""Minari export: one dataset per seat, loaded back and compared with the traces."""

from __future__ import annotations

import json
import os
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
    config = mixed_run_config()
    # every game, and a resource seat whose context is reset each round (a shifting partner)
    config["games"] += [
        {"game": "dond", "policies": ["scripted:greedy_concede", "scripted:random"], "pairings": "all",
         "games_per_cell": 1, "config": {"max_turns": 6}},
        {"game": "resource", "name": "shifting", "policies": ["scripted:oracle", "scripted:greedy"],
         "pairings": "all", "games_per_cell": 1, "config": {"num_rounds": 3, "partner": "shifting"}, "scenario_sets": {"s": ["mc080_1"]}},
    ]
    assert run(config, out).complete
    return out


@pytest.mark.parametrize("game", ["resource", "matrix", "rulemaking", "dond"])
def test_recover_environment_replays_the_recorded_games(mixed_run, tmp_path, game):
    """The recovered env has the dataset's spaces, and fed an episode's recorded actions with
    that game's seeds it gives back the episode's observations (the system prompt and whole
    context included: the game's own conversation of the seat), rewards and ending, and its
    append_only flags are the episode metadata's."""
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
            obs, info = env.reset(options={"variant": k, "seeds": seeds})
            (meta,) = ds.storage.get_episode_metadata([ep.id])
            flags = []
            for t, action in enumerate(ep.actions):
                np.testing.assert_array_equal(obs["features"], ep.observations["features"][t])
                assert obs["prompt"] == ep.observations["prompt"][t]
                # the game's own view of the seat: its system message first, its whole conversation
                own = [{"role": m["role"], "content": m["content"]}
                       for m in env.unwrapped.env.observe(agent)["conversation"]]
                assert own[0]["role"] == "system" and len(own[0]["content"]) > 1000
                assert ep.observations["system"][t] == own[0]["content"] == obs["system"]
                assert json.loads(ep.observations["messages"][t]) == own == json.loads(obs["messages"])
                flags.append(info["append_only"])
                obs, reward, term, trunc, info = env.step(str(action))
                assert reward == pytest.approx(float(ep.rewards[t]))
                assert (term, trunc) == (bool(ep.terminations[t]), bool(ep.truncations[t]))
            assert term
            np.testing.assert_array_equal(obs["features"], ep.observations["features"][-1])
            assert obs["prompt"] == ep.observations["prompt"][-1] == ""
            assert obs["messages"] == ep.observations["messages"][-1] == ""
            assert obs["system"] == ep.observations["system"][-1] == ep.observations["system"][-2]
            assert meta["append_only_steps"] == flags and meta["append_only"] == all(flags)
        # by the games' rules: rulemaking renders every turn afresh; a shifting partner's
        # seat (agent_b) is reset each round; every other context only grows
        metas = ds.storage.get_episode_metadata(range(ds.total_episodes))
        shifting = [v["config"].get("partner") == "shifting" for v in
                    (env_variants([t], agent)[0][0] for t in played)]
        expected = [not (game == "rulemaking" or (s and agent == "agent_b")) for s in shifting]
        assert [m["append_only"] for m in metas] == expected
        if game == "resource" and agent == "agent_b":
            assert set(expected) == {True, False}  # both kinds of episode are in the dataset
        assert ds.storage.metadata["append_only"] == all(expected)
        assert ds.storage.metadata["context_keys"] == ["system", "messages"]


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
    with pytest.raises(MinariExportError, match=r"mix \['dond', 'matrix', 'resource', 'rulemaking'\]: choose one"):
        to_minari(mixed_run, root=tmp_path)
    with pytest.raises(MinariEmptyError, match="no traces"):
        to_minari([], root=tmp_path)
    with pytest.raises(MinariExportError, match="prefix 'x' does not make a valid Minari dataset id"):
        to_minari(path, root=tmp_path, prefix="x")
    assert not list(tmp_path.iterdir())


def test_traces_without_context_are_refused(traces, tmp_path):
    """A seat's system prompt and messages are rebuilt from the recorded context deltas: a
    trace recorded without them is refused, naming the game and step, and nothing is written."""
    import copy

    _, games = traces
    bare = copy.deepcopy(games)
    bare[1].steps[2].context = None
    with pytest.raises(MinariExportError, match=rf"game {bare[1].game_id!r}, step 2: no context recorded"):
        to_minari(bare, root=tmp_path, prefix="bare", env=False)
    assert not list(tmp_path.iterdir())


def test_system_prompt_in_every_observation(traces, tmp_path):
    """Each decision's system observation is the first (system) message of the context the
    trace recorded for it, and its messages the recorded deltas joined from the last reset."""
    _, games = traces
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        made = to_minari(games, root=tmp_path, prefix="sys", env=False)
    for agent, ds in made.items():
        for ep, game in zip(ds.iterate_episodes(), games):
            steps = [s for s in game.steps if s.agent == agent]
            seen = []
            for t, s in enumerate(steps):
                seen = (seen if not s.context_reset else []) + s.context
                assert seen[0]["role"] == "system" and ep.observations["system"][t] == seen[0]["content"]
                assert json.loads(ep.observations["messages"][t]) == seen
                assert seen[-1]["content"] == ep.observations["prompt"][t]


def test_a_two_key_dataset_recovers_with_context_false(tmp_path):
    """A dataset of the earlier format (features and prompt only, id -v0) stores a TextSeat
    spec without ``context``: ``recover_environment(context=False)`` gives its spaces."""
    from gymnasium import spaces
    from gymnasium.envs.registration import EnvSpec
    from minari.data_collector import EpisodeBuffer

    from negotiation_env.core.spaces import ObsText, action_text
    from negotiation_env.traces.minari_export import TEXT_MAX
    from negotiation_env.wrappers import TextSeatEnv
    from negotiation_env.wrappers.text_seat import ENTRY_POINT, GYM_ID

    kwargs = {"game": "matrix", "learner": "agent_1", "text_max": TEXT_MAX,
              "variants": [{"config": {"num_rounds": 1}, "opponents": {"agent_0": {"spec": "scripted:always_a"}},
                            "weight": 1}]}
    os.environ["MINARI_DATASETS_PATH"] = str(tmp_path)
    try:
        env = TextSeatEnv(**kwargs, context=False)
        obs, _ = env.reset(seed=0)
        final, *_ = env.step("A")
        obs_space = spaces.Dict({"features": spaces.Box(-np.inf, np.inf, obs["features"].shape, np.float32),
                                 "prompt": ObsText(TEXT_MAX)})
        buffer = EpisodeBuffer(id=0, observations={"features": np.stack([obs["features"], final["features"]]),
                                                   "prompt": [obs["prompt"], final["prompt"]]},
                               actions=["A"], rewards=[0.0], terminations=[True], truncations=[False], infos={})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ds = minari.create_dataset_from_buffers("old/matrix-agent-1-v0", [buffer], env=EnvSpec(
                id=GYM_ID, entry_point=ENTRY_POINT, kwargs=kwargs), observation_space=obs_space,
                action_space=action_text(TEXT_MAX), data_format="arrow")
            assert ds.recover_environment(context=False).observation_space == ds.observation_space
            assert ds.recover_environment().observation_space != ds.observation_space  # the -v1 keys
    finally:
        os.environ.pop("MINARI_DATASETS_PATH")
