"""Text is text everywhere: a surrogate code point on its own (no character, no UTF-8)
never stops a game, a run, the writer or a reader. An agent's answer holding one is
repaired where the env takes it (U+FFFD, an ``answer_unencodable`` event), a JSON escape
of one is an answer the env asks again for, the writer repairs and notes whatever is
left, a trace line holding one is a line problem like any other, and run configs and
scenario files refuse one naming the field. (The API client's side is in
``tests/llm/test_api_hostile.py``.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import negotiation_env
from baselines.scripted import make as make_resource
from baselines.scripted.matrix import make as make_matrix
from baselines.scripted.rulemaking import make_rulemaking
from negotiation_env.cli import main
from negotiation_env.core.encodable import first_unencodable, replace_unencodable
from negotiation_env.runner import run
from negotiation_env.runner.config import RunConfigError, load_config, parse_config
from negotiation_env.traces import TraceWriter, read_traces, record
from negotiation_env.traces.writer import encode_jsonable

LONE = "\ud800"


def _poisoned(action):
    """``action`` with one lone surrogate in its text (a string), or in each non-empty
    string of a structured action."""
    if isinstance(action, str):
        return action + " " + LONE
    if isinstance(action, dict):
        return {k: (v + LONE if isinstance(v, str) and v else v) for k, v in action.items()}
    return action


def _policies(game: str, output: str) -> dict:
    if game == "resource":
        return {"agent_a": make_resource("oracle", 1, output=output),
                "agent_b": make_resource("linear", 2, output=output)}
    if game == "matrix":
        return {"agent_0": make_matrix("tit_for_tat", 1, output=output),
                "agent_1": make_matrix("wsls", 2, output=output)}
    agents = negotiation_env.env(game="rulemaking").possible_agents
    return {a: make_rulemaking("conceder", seed=i, output=output) for i, a in enumerate(agents)}


def _strings_poisoned(action) -> int:
    if isinstance(action, str):
        return 1
    return sum(1 for v in action.values() if isinstance(v, str) and v) if isinstance(action, dict) else 0


def _play(game: str, output: str, parallel: bool, path: Path) -> tuple[dict, int, int]:
    """One game whose every third answer is poisoned, recorded to ``path``: (the trace
    as read back, the answers poisoned, the surrogates put in)."""
    pols = _policies(game, output)
    env = negotiation_env.parallel_env(game=game) if parallel else negotiation_env.env(game=game)
    n = poisoned = planted = 0
    with TraceWriter(path) as w:
        rec = record(env, policies=pols, writer=w)
        if parallel:
            obs, _ = rec.reset(seed=3)
            while rec.agents:
                acts = {}
                for a in rec.agents:
                    act = pols[a].act(obs[a])
                    if n % 3 == 0:
                        poisoned, planted, act = poisoned + 1, planted + _strings_poisoned(act), _poisoned(act)
                    acts[a] = act
                    n += 1
                obs, *_ = rec.step(acts)
        else:
            rec.reset(seed=3)
            for agent in rec.agent_iter():
                obs, _r, term, trunc, _i = rec.last()
                if term or trunc:
                    rec.step(None)
                    continue
                act = pols[agent].act(obs)
                if n % 3 == 0:
                    poisoned, planted, act = poisoned + 1, planted + _strings_poisoned(act), _poisoned(act)
                rec.step(act)
                n += 1
    line = path.read_bytes().decode("utf-8")  # strict: valid UTF-8
    return json.loads(line), poisoned, planted


@pytest.mark.parametrize("parallel", [False, True], ids=["aec", "parallel"])
@pytest.mark.parametrize("output", ["text", "structured"])
@pytest.mark.parametrize("game", ["resource", "matrix", "rulemaking"])
def test_an_answer_with_a_lone_surrogate_is_repaired_at_the_env_with_an_event(tmp_path, game, output, parallel):
    trace, poisoned, planted = _play(game, output, parallel, tmp_path / "t.jsonl")
    assert trace["status"] == "complete" and poisoned >= 3
    events = [e for s in trace["steps"] for e in s["events"] if e["type"] == "answer_unencodable"]
    repaired = [s for s in trace["steps"] if "\ufffd" in s["action"]]
    # one event per poisoned answer the env took (a parallel action for an agent not asked is not taken)
    assert len(events) == len(repaired) >= 3
    assert [e["count"] for e in events] == [s["action"].count("\ufffd") for s in repaired]
    assert all(e["fields"] for e in events) if output == "structured" else all(e["count"] == 1 for e in events)
    assert first_unencodable(trace) is None  # nothing left to repair: the writer's note is absent
    assert "unencodable_text" not in trace["meta"]
    if output == "structured":  # the message the partners read carries the replacement character
        assert any("\ufffd" in (s["observation"] or "") for s in trace["steps"])


@pytest.mark.parametrize("game, answer", [
    ("resource", r'{"thinking": "t", "speech": "Let us share \ud800 it.", "action": null}'),
    ("rulemaking", r'{"reasoning": "r", "move": "Oppose", "rationale": "no \ud83d"}'),
])
def test_an_escaped_lone_surrogate_in_a_json_answer_is_refused_and_asked_again(game, answer):
    """(A matrix answer is plain text, not JSON: there ``\\udc00`` is six characters.)"""
    env = negotiation_env.env(game=game)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(answer)
    (e,) = [e for e in env.infos[agent]["events"] if e["type"] == "validation_error"]
    assert "half of a surrogate pair without its other half" in e["message"]
    assert "write the character itself" in e["message"]
    assert env.agent_selection == agent  # asked again
    assert json.dumps(env.infos[agent]["events"], ensure_ascii=False).encode("utf-8")


# --------------------------------------------------------------------------- the writer


def test_the_writer_repairs_any_string_and_notes_it_in_meta(tmp_path):
    d = {"schema_version": 3, "game_id": "g" + LONE, "policies": {"agent_a": {"settings": {"x": "a\udc00b"}}},
         "steps": [{"events": [{"type": "custom", "text": LONE + LONE}]}], "error": "boom " + LONE,
         "run": {"game_key": "cell" + LONE}, "meta": {"kept": 1}, "k" + LONE: 2}
    line = encode_jsonable(d)
    back = json.loads(line.decode("utf-8"))
    assert back["game_id"] == "g\ufffd" and back["steps"][0]["events"][0]["text"] == "\ufffd\ufffd"
    assert back["policies"]["agent_a"]["settings"]["x"] == "a\ufffdb" and back["k\ufffd"] == 2
    assert back["meta"] == {"kept": 1, "unencodable_text": {"count": 7, "fields": [
        "game_id", "policies.agent_a.settings.x", "steps[0].events[0].text", "error", "run.game_key", "k?"]}}
    assert d["game_id"] == "g" + LONE and d["meta"] == {"kept": 1}  # the record given is left as it is
    clean = {"a": "ü", "meta": {}}
    assert encode_jsonable(clean) == (json.dumps(clean, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


# --------------------------------------------------------------------------- readers


def _small_run(tmp_path: Path) -> Path:
    cfg = {"name": "enc", "seed": 1, "games": [{"game": "resource", "policies": ["scripted:oracle", "scripted:linear"],
                                                "pairings": "self", "games_per_cell": 2,
                                                "config": {"num_rounds": 1}}]}
    out = tmp_path / "run"
    s = run(cfg, out)
    assert (s.planned, s.games, s.complete) == (4, 4, True)
    (tmp_path / "enc.json").write_text(json.dumps(cfg))
    return out


def _poison_line(path: Path, n: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(True)
    i = lines[n - 1].index('"action":"') + len('"action":"')
    lines[n - 1] = lines[n - 1][:i] + "\\ud800" + lines[n - 1][i:]
    path.write_text("".join(lines), encoding="utf-8")


def test_a_trace_line_with_an_escaped_lone_surrogate_is_a_line_problem(tmp_path, capsys):
    out = _small_run(tmp_path)
    traces = out / "traces.jsonl"
    _poison_line(traces, 2)
    res = read_traces(out)
    assert len(res.traces) == 3
    (p,) = res.problems
    assert (Path(p.path).name, p.line, p.kind) == ("traces.jsonl", 2, "undecodable")
    assert p.message == ("the string at 'steps[0].action' holds \\ud800, half of a surrogate pair without its "
                         "other half: not a character")
    for kind, name in (("sft", "sft.jsonl"), ("transitions", "t.jsonl"), ("preferences", "p.jsonl")):
        capsys.readouterr()
        rc = main(["export", str(out), "--kind", kind, "--out", str(tmp_path / name)])
        said = capsys.readouterr()
        assert rc in (0, 1), (kind, said)  # 1: a kind whose filters select nothing here, said so
        assert "undecodable" in said.out + said.err
        assert (said.out + said.err).count("traces.jsonl:2") == 1, (kind, said)  # said once, not logged again
    assert (tmp_path / "sft.jsonl").read_bytes().decode("utf-8").count("\n") > 0
    assert main(["report", str(out), "--out", str(tmp_path / "report")]) == 0


def test_resume_moves_a_line_with_an_escaped_lone_surrogate_aside_and_completes(tmp_path):
    out = _small_run(tmp_path)
    traces = out / "traces.jsonl"
    _poison_line(traces, 3)
    summary = run(json.loads((tmp_path / "enc.json").read_text()), out, resume=True)
    assert (summary.already_done, summary.played, summary.complete, summary.errors) == (3, 1, True, 0)
    assert summary.rejected == {"invalid": 1}
    (rej,) = [json.loads(x) for x in (out / "traces.jsonl.rejected").read_text(encoding="utf-8").splitlines()]
    assert rej["line"] == 3
    assert rej["reason"] == "not a valid trace record (see the run's warnings); its game is played again"
    res = read_traces(out)
    assert len(res.traces) == 4 and res.problems == []


# --------------------------------------------------------------------------- configs and scenarios


_YAML = """name: enc
seed: 1
games:
  - game: resource
    policies: [{spec: "scripted:oracle", label: %(label)s}, "scripted:linear"]
    pairings: self
    config: {num_rounds: 1}
    scenario_sets: {%(set)s: ["mc080_1"]}
    conditions:
      - name: %(cond)s
        config: {}
"""


@pytest.mark.parametrize("field, values, where", [
    ("condition", {"cond": '"talk\\ud800"'}, "games[0].conditions[0].name"),
    ("scenario set", {"set": '"s\\udfff"'}, "games[0].scenario_sets.s?"),
    ("label", {"label": '"or\\ud801acle"'}, "games[0].policies[0].label"),
])
def test_a_run_config_with_a_lone_surrogate_is_refused_naming_the_field(tmp_path, capsys, field, values, where):
    text = _YAML % {"label": "oracle", "set": "s", "cond": "talk", **values}
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    for args in (["run", str(cfg), "--plan"], ["run", str(cfg), "--out", str(tmp_path / "o")]):
        capsys.readouterr()
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{where}: " in err and "half of a surrogate pair" in err, err
        assert "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_a_lone_surrogate_anywhere_in_a_config_dict_is_refused(tmp_path):
    with pytest.raises(RunConfigError,
                       match=r"^run config: games\[0\]\.config\.names\[1\]: holds \\udc00 at character 2"):
        parse_config({"name": "x", "games": [{"game": "resource", "policies": ["scripted:oracle"],
                                              "config": {"names": ["Ann", "Bo\udc00b"]}}]})
    with pytest.raises(RunConfigError, match=r"^run config: x\?: a key holds \\ud800"):
        parse_config({"name": "x", "x" + LONE: 1, "games": []})
    bad = tmp_path / "c.toml"  # TOML itself has no such escape
    bad.write_text('name = "x\\ud800"\n[[games]]\ngame = "resource"\npolicies = ["scripted:oracle"]\n')
    with pytest.raises(RunConfigError, match="invalid TOML"):
        load_config(bad)


def test_scenario_files_and_dicts_with_a_lone_surrogate_are_refused(tmp_path):
    from negotiation_env.games.resource.scenario import Scenario, ScenarioError, load_scenario
    from negotiation_env.games.rulemaking.scenario import RulemakingScenario
    from negotiation_env.games.rulemaking.scenario import ScenarioError as RulemakingError
    from negotiation_env.games.rulemaking.scenario import load_scenario as load_rulemaking

    good = load_scenario("mc080_1").to_dict()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**good, "name": "x" + LONE}))  # written as the escape "\ud800"
    assert "\\ud800" in path.read_text()
    with pytest.raises(ScenarioError, match=r"the string at 'name' holds \\ud800"):
        load_scenario(path)
    with pytest.raises(ScenarioError, match=r"field 'name': holds \\ud800 at character 1"):
        Scenario.from_dict({**good, "name": "x" + LONE})
    raw = json.loads((Path(negotiation_env.__file__).parent / "games/rulemaking/scenarios/E1.json").read_text())
    path.write_text(json.dumps({**raw, "name": "E1" + LONE}))
    with pytest.raises(RulemakingError, match=r"the string at 'name' holds \\ud800"):
        load_rulemaking(path)
    with pytest.raises(RulemakingError, match=r"field 'name': holds \\ud800 at character 2"):
        RulemakingScenario.from_dict({**raw, "name": "E1" + LONE})


# --------------------------------------------------------------------------- a python: policy in a run


class Poisoner:
    """The oracle, every third answer holding a lone surrogate (a ``python:`` policy)."""

    def __init__(self, seed=None):
        self.seed = seed
        self.calls = 0
        self._inner = make_resource("oracle", seed=seed, output="text")

    def act(self, obs):
        self.calls += 1
        out = self._inner.act(obs)
        return _poisoned(out) if self.calls % 3 == 1 else out


def test_a_python_policy_answering_lone_surrogates_finishes_its_run(tmp_path):
    cfg = {"name": "enc", "seed": 2, "games": [{
        "game": "resource", "pairings": "self", "games_per_cell": 2, "config": {"num_rounds": 1},
        "policies": [{"spec": "python:tests.security.test_encodable_text:Poisoner", "label": "poison"}]}]}
    summary = run(cfg, tmp_path / "run")
    assert (summary.games, summary.complete, summary.errors) == (2, True, 0)
    text = (tmp_path / "run" / "traces.jsonl").read_bytes().decode("utf-8")
    traces = [json.loads(x) for x in text.splitlines()]
    assert len(traces) == 2 and all(t["status"] == "complete" for t in traces)
    events = [e for t in traces for s in t["steps"] for e in s["events"] if e["type"] == "answer_unencodable"]
    assert len(events) == sum(1 for t in traces for s in t["steps"] if "\ufffd" in s["action"]) > 0
    assert all(first_unencodable(t) is None for t in traces)


def test_replace_unencodable_leaves_clean_values_alone():
    clean = {"a": ["x", {"b": "ü😀"}], "n": 1}
    fixed, count, paths = replace_unencodable(clean)
    assert fixed is clean and count == 0 and paths == []
    fixed, count, paths = replace_unencodable({"a": ["x", {"b": "\ud83d\ude00" + LONE}]})
    assert fixed == {"a": ["x", {"b": "\ufffd\ufffd\ufffd"}]} and count == 3 and paths == ["a[1].b"]
