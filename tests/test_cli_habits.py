"""CLI habits: --version, `games`, `play` of any game with any policy kind (a human seat
fed through stdin included), and python:MODULE:FACTORY specs found from the current folder."""

from __future__ import annotations

import io
import json
import sys

import pytest

import negotiation_env
from negotiation_env.cli import describe_game, main, read_answer
from negotiation_env.core.config import build_config
from negotiation_env.core.configdoc import config_fields

TALK = json.dumps({"thinking": "mine", "speech": "I will buy little.", "action": None})
BUY = json.dumps({"thinking": "mine", "speech": "Done.", "action": {}})


def out_lines(out: str, start: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(start)]


def _same_game(a: str, b: str) -> bool:
    """The same transcript and result rows (the table titles, Markdown headings in a pipe,
    name the specs as given)."""
    ta, tb = a.index("\n### "), b.index("\n### ")
    return a[:ta].split("=== Game over")[0] == b[:tb].split("=== Game over")[0] \
        and a[ta:].split("\n", 2)[2] == b[tb:].split("\n", 2)[2]


# --------------------------------------------------------------------------- --version, games


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"negotiation-env {negotiation_env.__version__}"


def test_games_lists_every_game_its_id_seats_conditions_and_fields(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for game, (cfg_cls, game_cls) in negotiation_env.GAMES.items():
        env_id = game_cls.metadata["name"]
        assert f"{game}  (env id {env_id}: negotiation_env.make('{env_id}'))" in out
        for f in config_fields(cfg_cls):
            assert f"| {f.name} | " in out and f" | {f.default} | " in out  # a row of the fields' Markdown table
    assert "seats: authority, continental_bank, apex_financial, industry_council, public_interest" in out
    assert "partner: stable, shifting" in out and "treatment: communication, none" in out


def test_games_json_is_the_config_dataclasses(capsys):
    assert main(["games", "matrix", "--json"]) == 0
    (d,) = json.loads(capsys.readouterr().out)
    cfg_cls = negotiation_env.GAMES["matrix"][0]
    assert d["env_id"] == negotiation_env.GAMES["matrix"][1].metadata["name"] and d["seats"] == ["agent_0", "agent_1"]
    assert [(f["name"], f["default"]) for f in d["fields"]] == [(f.name, f.default) for f in config_fields(cfg_cls)]
    assert "tit_for_tat" in d["scripted_policies"]


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_every_listed_condition_value_is_accepted_and_others_refused(game):
    cfg_cls = negotiation_env.GAMES[game][0]
    conditions = describe_game(game)["conditions"]
    assert conditions
    for field, values in conditions.items():
        if field in ("scenario", "environment"):
            values = [v for v in values if " " not in v]  # the shipped ids, not "a JSON path"
        for v in values:
            value = {"True": True, "False": False, "None": None}.get(v, v)
            assert getattr(build_config(cfg_cls, {field: value}), field) is not None or value is None
        if field not in ("scenario",):
            with pytest.raises(negotiation_env.ConfigError):
                build_config(cfg_cls, {field: "no_such_value"})
    if game == "rulemaking":
        from negotiation_env.games.rulemaking import CONDITIONS

        assert conditions["condition"] == list(CONDITIONS)


# --------------------------------------------------------------------------- play, any game, any spec


def test_a_bare_name_and_its_scripted_spec_play_the_same_game(capsys):
    assert main(["play", "--a", "oracle", "--b", "linear", "--seed", "2"]) == 0
    bare = capsys.readouterr().out
    assert main(["play", "--a", "scripted:oracle", "--b", "scripted:linear", "--seed", "2"]) == 0
    spec = capsys.readouterr().out
    assert _same_game(bare, spec) and "scripted:oracle (agent_a)" in spec


@pytest.mark.parametrize("argv,seats", [
    (["--game", "matrix", "--set", "num_rounds=3", "--a", "always_a", "--b", "scripted:always_b"],
     {"agent_0": "always_a", "agent_1": "scripted:always_b"}),
    (["--game", "rulemaking", "--seat", "public_interest=hardliner", "--others", "scripted:conceder"],
     {"authority": "scripted:conceder", "public_interest": "hardliner"}),
    (["--game", "rulemaking", "--set", "max_turns=6"], {"authority": "reciprocator", "public_interest": "noisy_conceder"}),
])
def test_play_other_games_with_seats(argv, seats, capsys):
    assert main(["play", *argv]) == 0
    out = capsys.readouterr().out
    for seat, spec in seats.items():
        assert any(seat in line and spec in line for line in out.splitlines()), (seat, spec)
    if "matrix" in argv:
        assert out.count("--- Round") == 3
        # always_a vs always_b in the Prisoner's Dilemma: 0 and 5 points a round
        assert any("agent_0" in line and line.rstrip(" │|").endswith(" 0") for line in out.splitlines())
        assert any("agent_1" in line and line.rstrip(" │|").endswith(" 15") for line in out.splitlines())
    else:
        assert "=== Outcome:" in out


@pytest.mark.parametrize("argv,message", [
    (["--game", "matrix", "--rounds", "3"], "--rounds: resource-game flags"),
    (["--game", "rulemaking", "--seat", "nobody=conceder"], "unknown seat 'nobody'"),
    (["--seat", "agent_a=oracle", "--a", "greedy"], "seat agent_a is already given by --a"),
    (["--set", "num_rounds"], "--set expects FIELD=VALUE"),
    (["--rounds", "2", "--set", "num_rounds=3"], "both set num_rounds"),
    (["--game", "matrix", "--a", "greedy"], "unknown policy 'greedy' for the matrix game; available: always_a"),
    (["--a", "wizard:x"], "unknown policy kind 'wizard'"),
    (["--a", "python:nomodule_here_xyz:make"], "nomodule_here_xyz"),
    (["--set", "no_field=1"], "unknown config field(s) 'no_field'"),
])
def test_play_flag_errors_name_the_flag(argv, message, capsys):
    assert main(["play", *argv]) == 2
    cap = capsys.readouterr()
    assert message in " ".join((cap.out + cap.err).split())


def test_an_unreachable_model_stops_before_the_game(capsys):
    pytest.importorskip("openai")
    assert main(["play", "--a", "openai:m@http://127.0.0.1:9/v1"]) == 3
    cap = capsys.readouterr()
    assert "did not answer a first short call" in " ".join(cap.err.split()) and "=== Round" not in cap.out


def test_an_openai_seat_plays_through_a_local_server(capsys, monkeypatch):
    pytest.importorskip("openai")
    from tests.fakeserver import FakeServer

    server = FakeServer()
    server.reply = lambda req: BUY if "DECISION PHASE" in req["messages"][-1]["content"] else TALK
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    try:
        assert main(["play", "--a", f"openai:test-model@{server.url}", "--rounds", "1", "--turns", "1"]) == 0
    finally:
        server.close()
    out = capsys.readouterr().out
    assert "agent_a: \"I will buy little.\"" in out and "agent_a decides: buys {}, runs []" in out
    assert server.requests[0]["max_tokens"] == 1  # the probe, then the game's calls
    # talk, decision and the D.5 reflection (on by default)
    assert len(server.requests) == 4 and server.requests[1]["model"] == "test-model"
    assert "--- GAME COMPLETE (1 rounds) ---" in server.requests[3]["messages"][-1]["content"]


# --------------------------------------------------------------------------- the human seat


def test_read_answer_forms():
    assert read_answer(io.StringIO("B\nnext\n")) == "B"
    assert read_answer(io.StringIO('{"a": 1,\n "b": 2}\nnext\n')) == '{"a": 1,\n "b": 2}'
    assert read_answer(io.StringIO("\nline one\nline two\n\nnext\n")) == "line one\nline two"
    assert read_answer(io.StringIO('{"open": \n\nnext\n')) == '{"open": '  # a blank line ends a broken one
    with pytest.raises(EOFError):
        read_answer(io.StringIO(""))


def test_a_human_seat_sees_its_prompts_and_the_envs_errors(capsys, monkeypatch):
    # plain text for a talk turn, a talk answer where a decision is owed (refused), a
    # decision pasted over two lines, the reflection
    answers = ["hello", TALK, BUY[:30], BUY[30:], "", "I bought too little.", ""]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers)))
    assert main(["play", "--a", "human", "--b", "oracle", "--rounds", "1", "--turns", "1", "--theme", "none"]) == 0
    out = capsys.readouterr().out
    assert out.index("[system]") < out.index("--- CHEAP TALK PHASE (Round 1/1) ---") < out.index("your answer> ")
    assert out.count("[system]") == 1  # the system prompt once, then only what is new
    # the env's own validator explains the refused answer, and the seat is asked again
    assert ('not accepted: you MUST set "action" to your purchase object now; null is not allowed in the '
            "decision phase\n>>> try again: round 1 of 1: decide what to buy") in out
    assert "[invalid]" not in out and "[fallback]" not in out
    assert 'agent_a: "hello"' in out and "agent_a decides: buys {}, runs []" in out
    assert "human (agent_a) vs oracle (agent_b)" in out
    assert out.rstrip().endswith("Game played its one round.")


def test_a_closed_stdin_stops_the_game(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(TALK + "\n"))
    assert main(["play", "--a", "human", "--rounds", "1", "--turns", "1"]) == 1
    cap = capsys.readouterr()
    assert "game stopped (stdin closed) at agent_a's turn" in cap.err and "agent_a: \"I will buy little.\"" in cap.out


def test_a_human_matrix_seat_is_told_each_phase_and_asked_again_after_a_typo(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("ok\nC\nA\noption b\n"))
    assert main(["play", "--game", "matrix", "--b", "human", "--a", "always_a", "--set", "num_rounds=2",
                 "--set", "treatment=none"]) == 0
    out = capsys.readouterr().out
    phases = [line for line in out.splitlines() if line.startswith(">>> ")]
    assert phases == [
        ">>> agent_1, acknowledge the rules (type OK; the answer is not scored)",
        ">>> agent_1, round 1: choose A or B (type A, b or option A)",
        ">>> try again: round 1: choose A or B (type A, b or option A)",
        ">>> agent_1, round 2: choose A or B (type A, b or option A)",
    ]
    assert "your answer> not accepted: no action found; respond with only: A or B\n" in out
    assert "Result round 1: AA" in out and "Result round 2: AB" in out
    assert "[invalid]" not in out and "[fallback]" not in out and "Dyad ended after an error" not in out
    assert out.rstrip().endswith("Game played all 2 rounds.")


def test_human_retries_hands_a_refused_answer_to_the_games_own_rule(capsys, monkeypatch):
    # --human-retries 1: one refused answer is asked again, the second goes to the game,
    # whose default rule (on_error="end") plays B and ends the dyad: an error-ended game
    monkeypatch.setattr(sys, "stdin", io.StringIO("ok\nC\nD\n"))
    assert main(["play", "--game", "matrix", "--b", "human", "--a", "always_a", "--set", "num_rounds=3",
                 "--set", "treatment=none", "--human-retries", "1"]) == 1
    cap = capsys.readouterr()
    assert out_lines(cap.out, "your answer> not accepted") == [
        "your answer> not accepted: no action found; respond with only: A or B",
        "your answer> not accepted: no action found; respond with only: A or B (--human-retries 1 used up: the "
        "game's own rule for an invalid answer applies)"]
    assert "agent_1 chooses (hidden): B [fallback]" in cap.out and "=== Dyad ended after an error ===" in cap.out
    why = ("ended after round 1 of 3: an invalid answer got the default (fallback: agent_1 (action)), and "
           "on_error='end' ends the dyad after it")
    assert cap.out.rstrip().endswith(f"Game {why}.")
    assert " ".join(cap.err.split()) == f"error: the game {why}"


def test_a_policy_that_raises_ends_the_game_in_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "broken_seat.py").write_text(
        "class Seat:\n"
        "    def act(self, observation):\n"
        "        raise RuntimeError('no answer today')\n"
        "def build(seed=None):\n"
        "    return Seat()\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "broken_seat", raising=False)
    assert main(["play", "--game", "matrix", "--a", "python:broken_seat:build"]) == 1
    assert " ".join(capsys.readouterr().err.split()) == (
        "error: the game ended in error at agent_0's turn (python:broken_seat:build): RuntimeError: no answer today")


def test_human_short_forms_in_the_resource_game(capsys, monkeypatch):
    # talk as plain text, a decision as "buy 3 r1" after one that is no purchase
    answers = ["I will buy a little.", "buy lots", "buy 3 r1", "Three was right."]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["play", "--a", "human", "--b", "oracle", "--rounds", "1", "--turns", "1", "--theme", "none"]) == 0
    out = capsys.readouterr().out
    assert out_lines(out, ">>> ") == [
        ">>> agent_a, round 1 of 1, cheap talk, turn 1 of 1: say something to agent_b (plain text; or end the "
        "talk with a purchase: buy 3 r1 2 r2)",
        ">>> agent_a, round 1 of 1: decide what to buy (e.g. buy 3 r1 2 r2, buy nothing, 3 r1, 2 r2)",
        ">>> try again: round 1 of 1: decide what to buy (e.g. buy 3 r1 2 r2, buy nothing, 3 r1, 2 r2)",
        ">>> agent_a, the game is over: reflect on it in 2-4 sentences (plain text)"]
    assert ("not accepted: not a purchase: write buy 3 r1 2 r2, buy nothing, 3 r1, 2 r2 (resources: r1, r2, "
            "r3), or the JSON answer") in out
    assert 'agent_a: "I will buy a little."' in out and 'agent_a decides: buys {"r1": 3}, runs []' in out
    assert 'agent_a reflects: "Three was right."' in out and "[invalid]" not in out


@pytest.mark.parametrize("text,answer", [
    ("buy 3 r1 2 r2", {"r1": 3, "r2": 2}), ("3 r1, 2 R2", {"r1": 3, "r2": 2}), ("buy nothing", {}),
    ("buy 1 r3 and 4 r1", {"r3": 1, "r1": 4}),
])
def test_resource_purchase_short_forms(text, answer):
    from negotiation_env.play import short_form

    env = negotiation_env.env(game="resource", num_rounds=1, cheap_talk=False, theme=None)
    env.reset(seed=0)
    got = json.loads(short_form("resource", env.unwrapped.game, "agent_a", text))
    assert got == {"thinking": "", "speech": text, "action": answer}


def test_human_rulemaking_moves_by_name_and_the_early_end(capsys, monkeypatch):
    answers = ["c fine", "counter 2 because the hedging rules are too wide", "support market because fine",
               "concede", "concede: ok then"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    assert main(["play", "--game", "rulemaking", "--seat", "authority=human"]) == 0
    out = capsys.readouterr().out
    assert ("not accepted: 'c' matches Concede, Counter: start with a move (support, oppose, concede, counter, "
            "exit; a unique first part is enough), then optionally an issue (its number or id), then the "
            "rationale") in out
    assert 'not accepted: "rationale" must be a non-empty string' in out
    assert out_lines(out, ">>> authority")[0] == (
        ">>> authority, turn 1 of 15: your move (e.g. counter 2 because ..., support because ...; moves support, "
        "oppose, concede, counter, exit; issues 1 market_making, 2 hedging, 3 metrics_reporting, "
        "4 compliance_timeline, 5 covered_funds)")
    assert 'Turn 1, authority: Counter on hedging — "the hedging rules are too wide"' in out
    assert 'Turn 6, authority: Support on market_making — "fine"' in out
    assert 'Turn 11, authority: Concede — "ok then"' in out
    assert out.rstrip().endswith("Game ended at turn 14 of 15: the parties reached agreement (compromise), which "
                                 "ends the game early (early_end='agreement').")


def test_human_retries_needs_a_human_seat(capsys):
    assert main(["play", "--game", "matrix", "--human-retries", "2"]) == 2
    assert "--human-retries: no seat is human" in capsys.readouterr().err


def test_a_human_matrix_seat(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("ok\nB\nB\n"))
    assert main(["play", "--game", "matrix", "--b", "human", "--a", "always_a", "--set", "num_rounds=2",
                 "--set", "treatment=none"]) == 0
    out = capsys.readouterr().out
    assert "Result round 2: AB" in out
    assert any("agent_1" in line and "human" in line and line.rstrip(" │|").endswith(" 10") for line in out.splitlines())


# --------------------------------------------------------------------------- python: specs from the current folder


def test_a_python_spec_resolves_from_the_current_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "my_negotiator.py").write_text(
        "from baselines.scripted import make as scripted\n"
        "CALLS = []\n"
        "def build(seed=None):\n"
        "    CALLS.append(seed)\n"
        "    return scripted('oracle', seed=seed, output='text')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "my_negotiator", raising=False)
    before = list(sys.path)
    assert main(["play", "--a", "python:my_negotiator:build", "--seed", "5"]) == 0
    ours = capsys.readouterr().out
    assert sys.modules["my_negotiator"].CALLS == [5]
    assert sys.path == before  # the folder was added for the command only
    assert main(["play", "--a", "oracle", "--text", "--seed", "5"]) == 0
    ref = capsys.readouterr().out
    assert _same_game(ours, ref)
