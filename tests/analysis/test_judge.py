"""The LLM judge: taxonomy prompt, strict validation, retries, storage, kappa and
prevalence, against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from negotiation_env.analysis.judge import (HumanLabelError, JudgeOutputError, OpenAIChat, agreement_table,
                                            cohen_kappa, enrichment_table, judge_game, judge_run, kappa_table,
                                            load_labels, load_taxonomy, merge_labels, prevalence_table,
                                            read_human_labels, render_game, render_system_prompt, validate_labels,
                                            write_merged)
from negotiation_env.analysis.report import report_run
from negotiation_env.cli import main
from negotiation_env.traces import TraceWriter, read_traces
from tests.fakeserver import FakeServer

from .tracesets import play_resource, play_rulemaking

TAX = load_taxonomy()
CORE = [x["id"] for x in TAX["core_labels"]]
AUX = [x["id"] for x in TAX["auxiliary_tags"]]
KEY = "sk-test-not-a-real-key-1234"


def answer(n, *, core=None, aux=None):
    """A valid judge answer for ``n`` rounds: core labels true where ``core`` lists
    (round, label); auxiliary tags present where ``aux`` lists (round, tag, agents)."""
    core = set(core or ())
    aux = {(k, t): a for k, t, a in (aux or ())}
    return {"rounds": [{"round_number": k,
                        "core_labels": {c: (k, c) in core for c in CORE},
                        "auxiliary_tags": {t: {"present": (k, t) in aux, "agents": list(aux.get((k, t), []))}
                                           for t in AUX}} for k in range(1, n + 1)]}


# --------------------------------------------------------------------------- fake server


@pytest.fixture(scope="module")
def server():
    s = FakeServer()
    yield s
    s.close()


def game_of(req) -> str:
    return re.search(r"^Game (\S+):", req["messages"][1]["content"], re.M).group(1)


def rounds_of(req) -> int:
    return int(re.search(r"Label each of the (\d+) rounds", req["messages"][1]["content"]).group(1))


def scripted_reply(req):
    """good: valid at once; retry: invalid (a round missing), then valid; junk: never JSON."""
    gid, n = game_of(req), rounds_of(req)
    attempt = sum(m["role"] == "assistant" for m in req["messages"]) + 1
    if gid == "good":
        return json.dumps(answer(n, core=[(1, "domain_specialization")],
                                 aux=[(1, "voluntary_project_disclosure", ["agent_a", "agent_b"])]))
    if gid == "retry":
        if attempt == 1:
            bad = answer(n)
            bad["rounds"] = bad["rounds"][:-1]
            return json.dumps(bad)
        return "```json\n" + json.dumps(answer(n, core=[(2, "agreement_abandonment")],
                                               aux=[(2, "fairness_appeal", ["agent_b"])])) + "\n```"
    return "I think the agents negotiated well. No labels."


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("judge_run")
    with TraceWriter(d / "traces.jsonl") as w:
        play_resource("oracle", "oracle", scenario="mc080_1", rounds=2, game_id="good", writer=w)
        play_resource("abandoner", "oracle", scenario="mc050_1", rounds=2, game_id="retry", writer=w,
                      first_speaker="agent_b")
        play_resource("greedy", "greedy", scenario="mc050_1", rounds=2, game_id="junk", writer=w)
        play_rulemaking("conceder", writer=w)  # not a resource game: never sent to the judge
    return d


# --------------------------------------------------------------------------- prompt


def test_system_prompt_is_g4_rendered_from_the_taxonomy():
    prompt = render_system_prompt()
    assert len(TAX["core_labels"]) == 5 and len(TAX["auxiliary_tags"]) == 3
    for x in TAX["core_labels"] + TAX["auxiliary_tags"]:
        assert f"### {x['id']} ({x['name']}) [{x['polarity']}]\nDefinition: {x['definition']}\n" in prompt
        for c in x["inclusion"] + x["exclusion"]:
            assert f"\n- {c}\n" in prompt
    skeleton = json.loads(re.search(r"Respond with ONLY a JSON object:\n(\{.*\})\n", prompt).group(1))
    assert list(skeleton["rounds"][0]["core_labels"]) == CORE and list(skeleton["rounds"][0]["auxiliary_tags"]) == AUX
    # the paper's prompt, word for word (its text lost the line breaks)
    seed = Path(__file__).resolve().parents[2].parent / "shared" / "seeds" / "000_271e8bca84ee6e61.txt"
    if not seed.exists():
        seed = Path("/work/shared/seeds/000_271e8bca84ee6e61.txt")
    if seed.exists():
        line = next(s for s in seed.read_text(encoding="utf-8").splitlines()
                    if s.startswith("You are an expert annotator for multi-agent negotiation research."))
        assert " ".join(prompt.split()) == " ".join(line.split())


def test_render_game_holds_every_round_in_order(run_dir):
    from negotiation_env.traces import read_traces

    t = next(x for x in read_traces(run_dir).traces if x.game_id == "retry").to_dict()
    text = render_game(t)
    assert text.index("=== Round 1 of 2 ===") < text.index("=== Round 2 of 2 ===")
    assert "private projects (not visible to the partner)" in text
    speech = next(s["parsed"]["speech"] for s in t["steps"] if s["parsed"] and s["parsed"].get("speech"))
    assert speech in text
    assert "private thinking of" in text and "private thinking of" not in render_game(t, include_thinking=False)
    o = t["rounds"][0]["outcome"]
    assert f"joint reward {o['joint_reward']:g} of joint optimum {o['joint_max']:g}" in text


# --------------------------------------------------------------------------- validation


def test_valid_answers_are_normalised():
    rounds, warnings = validate_labels(json.dumps(answer(2, aux=[(2, "threatening_language", ["agent_b", "agent_a"])])),
                                       2)
    assert [r["round"] for r in rounds] == [1, 2] and not warnings
    assert rounds[1]["auxiliary"]["threatening_language"] == {"present": True, "agents": ["agent_a", "agent_b"]}
    assert rounds[0]["core"] == {c: False for c in CORE}
    shuffled = answer(3)
    shuffled["rounds"].reverse()
    assert [r["round"] for r in validate_labels(shuffled, 3)[0]] == [1, 2, 3]
    _, warnings = validate_labels("Here you go:\n```json\n" + json.dumps(answer(1)) + "\n```", 1)
    assert warnings


def broken(mutate, n=2):
    a = answer(n)
    mutate(a)
    return a


@pytest.mark.parametrize("mutate, message", [
    (lambda a: a["rounds"].pop(), "has 1 entries; the game has 2 rounds"),
    (lambda a: a["rounds"][1].update(round_number=1), "round_number 1 appears more than once"),
    (lambda a: a["rounds"][1].update(round_number=3), "must be an integer from 1 to 2"),
    (lambda a: a["rounds"][0]["core_labels"].update(heroic_effort=True), "unknown labels ['heroic_effort']"),
    (lambda a: a["rounds"][0]["core_labels"].pop("domain_specialization"), "missing ['domain_specialization']"),
    (lambda a: a["rounds"][0]["core_labels"].update(agreement_abandonment="yes"), "must be true or false"),
    (lambda a: a["rounds"][0]["auxiliary_tags"]["fairness_appeal"].update(agents=["agent_a"]),
     "present is false, so agents must be []"),
    (lambda a: a["rounds"][0]["auxiliary_tags"]["fairness_appeal"].update(present=True),
     "present is true, so agents must name at least one agent"),
    (lambda a: a["rounds"][0]["auxiliary_tags"]["fairness_appeal"].update(present=True, agents=["agent_c"]),
     "unknown agents ['agent_c']"),
    (lambda a: a["rounds"][0]["auxiliary_tags"]["fairness_appeal"].update(present=True, agents=["agent_a"] * 2),
     "lists an agent twice"),
    (lambda a: a["rounds"][0]["auxiliary_tags"].pop("threatening_language"), "missing ['threatening_language']"),
    (lambda a: a.update(summary="fine"), "unexpected top-level keys ['summary']"),
    (lambda a: a["rounds"][0].update(explanation="x"), "unexpected ['explanation']"),
])
def test_invalid_answers_are_refused_with_the_reason(mutate, message):
    with pytest.raises(JudgeOutputError, match=re.escape(message)):
        validate_labels(json.dumps(broken(mutate)), 2)


def test_garbage_is_refused():
    for text in ("no labels here", "[1, 2]", '{"rounds": 5}', ""):
        with pytest.raises(JudgeOutputError):
            validate_labels(text, 1)


# --------------------------------------------------------------------------- calls


def test_judge_run_valid_retry_and_garbage(server, run_dir, monkeypatch):
    server.reply = scripted_reply
    server.status = 200
    server.requests.clear()
    server.headers.clear()
    client = OpenAIChat(model="judge-model", base_url=server.url, api_key=KEY, timeout=10, max_retries=0)
    res = judge_run(run_dir, client, max_attempts=3, judge_info=client.settings())
    assert (res.judged, res.ok, res.invalid, res.errors) == (3, 2, 1, 0)
    labels = load_labels(run_dir)
    assert set(labels) == {"good", "retry", "junk"}
    good, retry, junk = labels["good"], labels["retry"], labels["junk"]
    assert good["status"] == "ok" and good["attempts"] == 1 and good["errors"] == []
    assert good["rounds"][0]["core"]["domain_specialization"] is True
    assert good["rounds"][0]["auxiliary"]["voluntary_project_disclosure"]["agents"] == ["agent_a", "agent_b"]
    assert retry["status"] == "ok" and retry["attempts"] == 2 and "has 1 entries" in retry["errors"][0]
    assert retry["warnings"]  # the code fence of the second answer
    assert junk["status"] == "invalid" and junk["attempts"] == 3 and junk["rounds"] is None
    assert good["judge"]["model"] == "judge-model" and good["judge"]["taxonomy_version"] == "v3"
    # one conversation per game; the error goes back to the model with its bad answer
    assert len(server.requests) == 1 + 2 + 3
    second = [r for r in server.requests if game_of(r) == "retry"][1]
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "user"]
    assert "Your answer was invalid:" in second["messages"][3]["content"] and "has 1 entries" in \
        second["messages"][3]["content"]
    assert all(r["messages"][0]["content"] == render_system_prompt() for r in server.requests)
    assert all(r["model"] == "judge-model" and r["temperature"] == 0 for r in server.requests)
    # the key authenticates each request and is stored nowhere
    assert all({k.lower(): v for k, v in h.items()}.get("authorization") == f"Bearer {KEY}" for h in server.headers)
    stored = (run_dir / "judge" / "labels.jsonl").read_text()
    assert KEY not in stored
    # resume: only the game without valid labels is sent again
    server.requests.clear()
    res2 = judge_run(run_dir, client, max_attempts=1)
    assert res2.skipped == 2 and res2.judged == 1 and [game_of(r) for r in server.requests] == ["junk"]


def test_a_second_judge_labels_into_its_own_file(server, run_dir, tmp_path):
    server.reply = scripted_reply
    server.status = 200
    client = OpenAIChat(model="judge-two", base_url=server.url, api_key=KEY, timeout=10, max_retries=0)
    own = tmp_path / "second.jsonl"
    before = (run_dir / "judge" / "labels.jsonl").read_text() if (run_dir / "judge" / "labels.jsonl").exists() else ""
    res = judge_run(run_dir, client, max_attempts=3, judge_info=client.settings(), labels_file=own)
    assert res.labels_file == own and res.judged == 3 and res.skipped == 0  # none of its own labels yet
    assert {g: r["judge"]["model"] for g, r in load_labels(own).items()} == {g: "judge-two" for g in
                                                                            ("good", "retry", "junk")}
    after = (run_dir / "judge" / "labels.jsonl").read_text() if (run_dir / "judge" / "labels.jsonl").exists() else ""
    assert after == before  # the first judge's file is untouched


def test_transport_errors_are_recorded_not_raised(server, run_dir):
    server.status = 500
    try:
        client = OpenAIChat(model="m", base_url=server.url, api_key=KEY, timeout=5, max_retries=0)
        from negotiation_env.traces import read_traces

        t = next(x for x in read_traces(run_dir).traces if x.game_id == "good")
        rec = judge_game(t, client, max_attempts=3)
    finally:
        server.status = 200
    assert rec["status"] == "error" and rec["attempts"] == 1 and "500" in rec["errors"][0]
    assert KEY not in json.dumps(rec)


def test_cli_judge_with_human_labels(server, run_dir, tmp_path, monkeypatch):
    server.reply = scripted_reply
    human = tmp_path / "human.csv"
    human.write_text(
        "game_id,round," + ",".join(CORE) + "," + ",".join(f"{t},{t}_agents" for t in AUX) + ",notes\n"
        "good,1,0,0,0,1,0,1,agent_a;agent_b,0,,0,,first round\n"
        "good,2,0,0,0,0,0,0,,0,,\n"
        "retry,1,0,0,0,0,0,0,,0,,0,,\n"
        "retry,2,0,1,0,0,1,0,,1,agent_a,0,,\n".replace(",0,,\n", ",0,\n") if False else
        "game_id,round," + ",".join(CORE) + "," + ",".join(f"{t},{t}_agents" for t in AUX) + "\n"
        "good,1,0,0,0,1,0,1,agent_a;agent_b,0,,0,\n"
        "good,2,0,0,0,0,0,0,,0,,0,\n"
        "retry,1,0,0,0,0,0,0,,0,,0,\n"
        "retry,2,0,1,0,0,1,0,,1,agent_a,0,\n", encoding="utf-8")
    monkeypatch.setenv("JUDGE_TEST_KEY", KEY)
    args = ["judge", str(run_dir), "--model", "judge-model", "--base-url", server.url,
            "--api-key-env", "JUDGE_TEST_KEY", "--retries", "0", "--human", str(human)]
    assert main(args) == 0
    out = run_dir / "judge"
    kappa = (out / "kappa.md").read_text()
    assert "| agreement_abandonment | core | 4 |" in kappa
    assert "| domain_specialization | core | 4 | 25.0 | 25.0 | 100.0 | 1.00 |" in kappa
    # the human saw a misalignment recovery the judge did not: kappa 0 at 75% agreement
    assert "| misalignment_recovery | core | 4 | 25.0 | 0.0 | 75.0 | 0.00 |" in kappa
    assert "| fairness_appeal [agent_b] | attribution | 4 | 0.0 | 25.0 | 75.0 | 0.00 |" in kappa
    assert (out / "prevalence.csv").exists()
    monkeypatch.delenv("JUDGE_TEST_KEY")
    assert main(args) == 2  # the named variable is missing
    assert main(["judge", str(run_dir), "--tables-only"]) == 0


# --------------------------------------------------------------------------- statistics


def test_cohen_kappa_values():
    assert cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0]) == pytest.approx(0.5)
    assert cohen_kappa([1, 0, 1, 0], [1, 0, 1, 0]) == pytest.approx(1.0)
    assert cohen_kappa([1, 0, 1, 0], [0, 1, 0, 1]) == pytest.approx(-1.0)
    assert cohen_kappa([0, 0, 0], [0, 0, 0]) is None  # both raters no positives: undefined
    assert cohen_kappa([], []) is None


def test_kappa_table_and_prevalence_by_outcome(tmp_path):
    traces = [{"game_id": "g", "game": "resource", "agents": ["agent_a", "agent_b"],
               "rounds": [{"round": k, "outcome": o} for k, o in
                          enumerate([{"overdraw": True, "optimal": False}, {"overdraw": False, "optimal": False},
                                     {"overdraw": False, "optimal": True}, {"overdraw": False, "optimal": True}],
                                    start=1)]}]
    labels = {"g": {"status": "ok", "rounds": validate_labels(answer(
        4, core=[(1, "agreement_abandonment"), (3, "domain_specialization"), (4, "domain_specialization")],
        aux=[(1, "threatening_language", ["agent_a"]), (2, "fairness_appeal", ["agent_b"])]), 4)[0]}}
    prev = prevalence_table(traces, labels)
    assert prev.columns == ["Label", "Type", "All %", "Overdrawn %", "Suboptimal %", "Optimal %"]
    assert prev.rows[0][2:] == ["4", "1", "1", "2"]
    row = prev.row(Label="Agreement Abandonment")
    assert row[2:] == [0.25, 1.0, 0.0, 0.0]
    assert prev.row(Label="Domain Specialization")[2:] == [0.5, 0.0, 0.0, 1.0]
    assert prev.row(Label="Fairness Appeal")[2:] == [0.25, 0.0, 1.0, 0.0]
    human = tmp_path / "h.csv"
    human.write_text("game_id,round,agreement_abandonment,domain_specialization,threatening_language,"
                     "threatening_language_agents\n"
                     "g,1,yes,no,1,agent_a\ng,2,no,no,0,\ng,3,no,yes,0,\ng,4,no,no,1,agent_b\n", encoding="utf-8")
    k = kappa_table(read_human_labels(human), labels)
    assert k.value("Cohen's kappa", Label="agreement_abandonment") == pytest.approx(1.0)
    assert k.value("Cohen's kappa", Label="domain_specialization") == pytest.approx(cohen_kappa([0, 0, 1, 0],
                                                                                                [0, 0, 1, 1]))
    assert k.value("Rounds", Label="misaligned_mental_models") == 0  # not in the human file
    assert k.value("Cohen's kappa", Label="threatening_language [agent_b]") is None or \
        k.value("Human prevalence %", Label="threatening_language [agent_b]") == 0.25


@pytest.mark.parametrize("text, message", [
    ("game_id,round,heroic\ng,1,1\n", "unknown column(s) ['heroic']"),
    ("game_id,agreement_abandonment\ng,1\n", "missing column 'round'"),
    ("game_id,round,agreement_abandonment\ng,1,maybe\n", "expected 1/0"),
    ("game_id,round,agreement_abandonment\ng,1,1\ng,1,0\n", "labelled twice"),
    ("game_id,round,fairness_appeal,fairness_appeal_agents\ng,1,1,agent_z\n", "unknown agents"),
])
def test_human_label_csv_errors(tmp_path, text, message):
    p = tmp_path / "h.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(HumanLabelError, match=re.escape(message)):
        read_human_labels(p)


def test_rulemaking_and_duplicate_ids_are_not_judged(tmp_path):
    d = tmp_path / "dup"
    with TraceWriter(d / "traces.jsonl") as w:
        first = play_resource("oracle", "oracle", rounds=1, game_id="same", writer=w)
        play_resource("greedy", "greedy", rounds=1, game_id="same", writer=w)
    # the reader keeps the first record of a game id and reports the second as a duplicate
    res = read_traces(d)
    assert [t.game_id for t in res.traces] == ["same"]
    assert res.traces[0].policies["agent_a"].name == first["policies"]["agent_a"]["name"]
    assert [p.kind for p in res.problems] == ["duplicate"]
    # records of one id that reach the judge otherwise (several runs read on purpose) are refused:
    # labels are keyed by game_id
    from negotiation_env.analysis.judge import _resource_games

    with pytest.raises(ValueError, match="appears 2 times"):
        _resource_games([first, first])


# --------------------------------------------------------------------------- failure regions, several judges


def _outcome(kind, eff=None, fallback=False):
    o = {"overdraw": kind == "over", "optimal": kind == "opt",
         "efficiency": 0.0 if kind == "over" else (1.0 if kind == "opt" else eff)}
    if fallback:
        o["fallback"] = {"agent_a": "zero"}
    return o


def test_enrichment_table_failed_improvement_and_overdraw_regions():
    # rounds: 1 overdrawn; 2 suboptimal 0.5 (improved on the overdraw); 3 suboptimal 0.5 and
    # 4 suboptimal 0.4 (failed to improve); 5 optimal; 6 suboptimal 0.3 after the optimum (no
    # room to improve: "other"); 7 suboptimal 0.2, a fallback round
    kinds = [("over",), ("sub", 0.5), ("sub", 0.5), ("sub", 0.4), ("opt",), ("sub", 0.3), ("sub", 0.2)]
    rounds = [{"round": k, "outcome": _outcome(*x, fallback=k == 7)} for k, x in enumerate(kinds, start=1)]
    traces = [{"game_id": "g", "game": "resource", "agents": ["agent_a", "agent_b"], "rounds": rounds}]
    labels = {"g": {"status": "ok", "rounds": validate_labels(answer(
        7, core=[(3, "coordination_withdrawal"), (6, "coordination_withdrawal"), (7, "coordination_withdrawal"),
                 (1, "agreement_abandonment"), (5, "agreement_abandonment")]), 7)[0]}}
    t = enrichment_table(traces, labels)
    assert t.columns[2:] == ["Failed improvement %", "Other suboptimal %", "Δ failed improvement (pp)",
                             "Overdrawn %", "Non-overdrawn %", "Δ overdrawn (pp)"]
    cw = t.row(Label="Coordination Withdrawal")[2:]
    assert cw == [0.5, 0.5, 0.0, 0.0, pytest.approx(2 / 5), pytest.approx(-2 / 5)]  # rounds {3, 4} vs {2, 6}
    aa = t.row(Label="Agreement Abandonment")[2:]
    assert aa == [0.0, 0.0, 0.0, 1.0, pytest.approx(1 / 5), pytest.approx(4 / 5)]
    assert "2 failed-improvement and 2 other suboptimal rounds; 1 overdrawn and 5 non-overdrawn" in t.notes[0]
    assert "left out: 1" in t.notes[1]
    # counted as play, round 7 (0.3 -> 0.2) is one more failed improvement
    t = enrichment_table(traces, labels, include_fallbacks=True)
    assert t.value("Failed improvement %", Label="Coordination Withdrawal") == pytest.approx(2 / 3)
    # the prevalence table leaves the fallback round out too: 6 judged rounds, 4 suboptimal
    prev = prevalence_table(traces, labels)
    assert prev.rows[0][2:] == ["6", "1", "4", "1"]
    assert prevalence_table(traces, labels, include_fallbacks=True).rows[0][2:] == ["7", "1", "5", "1"]


def _judged(n, core=(), aux=()):
    return {"status": "ok", "rounds": validate_labels(answer(n, core=core, aux=aux), n)[0], "judge": {"model": "m"}}


def test_merge_labels_picks_each_label_from_its_judge():
    a = {"g1": _judged(4, core=[(1, "agreement_abandonment"), (2, "agreement_abandonment")],
                       aux=[(1, "fairness_appeal", ["agent_a"])]),
         "g2": _judged(1, core=[(1, "domain_specialization")])}
    b = {"g1": _judged(4, core=[(1, "agreement_abandonment"), (1, "coordination_withdrawal"),
                                (3, "coordination_withdrawal")], aux=[(2, "fairness_appeal", ["agent_b"])]),
         "g2": {"status": "invalid", "rounds": None}}
    merged, left = merge_labels({"gemini": a, "opus": b}, pick={"coordination_withdrawal": "opus"})
    assert list(merged) == ["g1"] and left == ["g2: no ok record from opus"]
    r1, r2, r3 = merged["g1"]["rounds"][:3]
    # agreement abandonment and every auxiliary tag from the default judge (the first), withdrawal from opus
    assert (r1["core"]["agreement_abandonment"], r2["core"]["agreement_abandonment"]) == (True, True)
    assert (r1["core"]["coordination_withdrawal"], r3["core"]["coordination_withdrawal"]) == (True, True)
    assert r1["auxiliary"]["fairness_appeal"] == {"present": True, "agents": ["agent_a"]}
    assert r2["auxiliary"]["fairness_appeal"] == {"present": False, "agents": []}
    assert r2["by_judge"]["opus"]["auxiliary"]["fairness_appeal"]["agents"] == ["agent_b"]
    assert r1["by_judge"]["gemini"]["core"]["coordination_withdrawal"] is False
    assert merged["g1"]["sources"]["coordination_withdrawal"] == "opus"
    assert merged["g1"]["sources"]["agreement_abandonment"] == "gemini"
    # a judge the picks do not use may miss a game: g2 merges from gemini alone
    merged, left = merge_labels({"gemini": a, "opus": b})
    assert merged["g1"]["rounds"][0]["core"]["coordination_withdrawal"] is False and left == []
    assert merged["g2"]["rounds"][0]["core"]["domain_specialization"] is True
    assert list(merged["g2"]["rounds"][0]["by_judge"]) == ["gemini"]
    merged, left = merge_labels({"gemini": a, "opus": b}, default="opus", pick={"domain_specialization": "gemini"})
    assert left == ["g2: no ok record from opus"]
    with pytest.raises(ValueError, match="unknown label"):
        merge_labels({"gemini": a, "opus": b}, pick={"heroism": "opus"})
    with pytest.raises(ValueError, match="unknown judge"):
        merge_labels({"gemini": a, "opus": b}, pick={"coordination_withdrawal": "claude"})
    with pytest.raises(ValueError, match="at least two"):
        merge_labels({"gemini": a})


def test_agreement_table_kappa_between_judges():
    # agreement abandonment on g1's 4 rounds: gemini 1,1,0,0 and opus 1,0,0,0: p_o = 0.75,
    # p_e = 0.5 * 0.25 + 0.5 * 0.75 = 0.5, kappa = 0.5; g2 has no ok opus record
    a = {"g1": _judged(4, core=[(1, "agreement_abandonment"), (2, "agreement_abandonment")]),
         "g2": _judged(1)}
    b = {"g1": _judged(4, core=[(1, "agreement_abandonment"), (3, "coordination_withdrawal")])}
    t = agreement_table({"gemini": a, "opus": b})
    row = {"Judges": "gemini vs opus", "Label": "agreement_abandonment"}
    assert t.value("Rounds", row) == 4 and t.value("Agreement %", row) == 0.75
    assert t.value("Cohen's kappa", row) == pytest.approx(0.5)
    assert (t.value("First judge prevalence %", row), t.value("Second judge prevalence %", row)) == (0.5, 0.25)
    # withdrawal: only opus says yes, once: p_o = 0.75, p_e = 1 * 0.75 = 0.75 -> kappa 0
    assert t.value("Cohen's kappa", Judges="gemini vs opus", Label="coordination_withdrawal") == pytest.approx(0.0)
    # nobody says yes: undefined
    assert t.value("Cohen's kappa", Judges="gemini vs opus", Label="domain_specialization") is None
    assert len(t.rows) == len(CORE) + len(AUX)


def test_cli_judge_merge_and_the_report_reads_the_merged_labels(run_dir, tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    (d / "traces.jsonl").write_bytes((run_dir / "traces.jsonl").read_bytes())
    ids = [t.game_id for t in read_traces(d).traces if t.game == "resource"]
    assert ids == ["good", "retry", "junk"]
    # each judge's labels in its own file under DIR/judge (not DIR itself: its *.jsonl are read as traces)
    j = d / "judge"
    write_merged(j / "gemini.jsonl", {g: dict(_judged(2, core=[(1, "agreement_abandonment")]), game_id=g)
                                      for g in ids})
    write_merged(j / "opus.jsonl", {g: dict(_judged(2, core=[(1, "coordination_withdrawal")]), game_id=g)
                                    for g in ids[:2]})
    args = ["judge", str(d), "--merge", f"gemini={j / 'gemini.jsonl'}", "--merge", f"opus={j / 'opus.jsonl'}"]
    assert main(args + ["--pick", "coordination_withdrawal=opus"]) == 0
    merged = load_labels(d / "judge" / "merged.jsonl")
    assert sorted(merged) == ["good", "retry"]  # junk has no opus labels
    assert merged["good"]["rounds"][0]["core"]["coordination_withdrawal"] is True
    agreement = (d / "judge" / "agreement.md").read_text()
    # gemini says abandonment in round 1 of both games, opus never: 50% agreement, kappa 0
    assert "| gemini vs opus | agreement_abandonment | core | 4 | 50.0 | 0.0 | 50.0 | 0.00 |" in agreement
    assert "1 game(s) not merged: junk: no ok record from opus" in agreement
    assert (d / "judge" / "enrichment.md").exists() and (d / "judge" / "prevalence.md").exists()
    rep = report_run(d, tmp_path / "rep", plots=False)
    assert any(n == f"judge tables from {d / 'judge' / 'merged.jsonl'}" for n in rep.notes)
    prev = rep.table("judge_prevalence")
    assert prev.rows[0][2] == "4"  # the two merged games' rounds
    assert prev.value("All %", Label="Coordination Withdrawal") == 0.5
    assert rep.table("judge_enrichment").columns[0] == "Label"
    # an explicit labels file: the first judge's alone; a missing one is a usage error
    rep = report_run(d, tmp_path / "rep1", plots=False, labels=j / "gemini.jsonl")
    assert rep.table("judge_prevalence").rows[0][2] == "6"  # all three games
    assert main(["report", str(d), "--no-plots", "--labels", str(j / "nope.jsonl")]) == 2
    empty = j / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    rep = report_run(d, tmp_path / "rep2", plots=False, labels=empty)
    assert f"judge labels file {empty} holds no ok record: no judge tables" in rep.notes
    assert not any(t.name.startswith("judge_") for t in rep.tables)
    # usage errors: one judge, a pick without judges, an unknown label
    assert main(["judge", str(d), "--merge", f"gemini={j / 'gemini.jsonl'}"]) == 2
    assert main(["judge", str(d), "--tables-only", "--pick", "coordination_withdrawal=opus"]) == 2
    assert main(args + ["--pick", "heroism=opus"]) == 2
    assert main(args + ["--pick", "nonsense"]) == 2
    assert main(["judge", str(d), "--merge", "a=/nowhere.jsonl", "--merge", f"opus={j / 'opus.jsonl'}"]) == 2
