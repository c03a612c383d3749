"""``swap_seats``: the policies of a lineup exchange seats every other repetition (the
resource paper's §4 design: projects, first-speaker role and the shifting role swap
together), a pairing is one cell, and every trace records the seating its game had."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from rich.console import Console

from negotiation_env.analysis.cells import lineup as lineup_of
from negotiation_env.runner import RunConfigError, make_plan, parse_config, run
from negotiation_env.runner.commands import _merge, print_summary
from negotiation_env.runner.plan import derive_seed
from negotiation_env.traces import read_traces

from .helpers import small_config

O, R, L = "scripted:oracle", "scripted:random", "scripted:linear"


def swapped(**block) -> dict:
    return small_config(**{"swap_first_speaker": False, "swap_seats": True, **block})


def test_seating_alternates_and_each_scenario_is_played_in_both():
    plan = make_plan(parse_config(swapped(games_per_cell=6)))
    # one cell per pairing: "all" of two policies is 3 cells per condition and set, as without the swap
    assert len(plan.cells) == 2 * 2 * 3 and len(plan) == 2 * 2 * 3 * 6
    cell = [s for s in plan.specs if s.cell == f"resource|stability=stable|hi|{O}+{R}"]
    assert [s.key.rsplit("|", 1)[1] for s in cell] == [str(r) for r in range(6)]
    assert [s.lineup for s in cell] == [(O, R), (R, O)] * 3
    assert [s.config["scenario"] for s in cell] == ["mc100_1", "mc100_1", "mc100_2", "mc100_2", "mc100_1", "mc100_1"]
    for s in cell:  # the policies and seeds follow the seating
        assert [p.spec for p in s.policies] == list(s.lineup)
        assert s.policy_seeds == tuple(derive_seed(3, "policy", "resource", "stability=stable", "hi", s.repetition,
                                                   seat, label) for seat, label in enumerate(s.lineup))
        assert "first_speaker" not in s.config  # the first speaker stays the seat agent_a
    # every scenario once in each seating, within each cell
    per_scenario: dict = {}
    for s in plan.specs:
        if len(set(s.lineup)) == 2:
            per_scenario.setdefault((s.cell, s.config["scenario"]), Counter())[s.lineup] += 1
    assert len(per_scenario) == 2 * (1 + 2)  # conditions x scenarios (lo: 1, hi: 2)
    assert all(c[(O, R)] == c[(R, O)] > 0 for c in per_scenario.values())
    # self-play rotates onto itself; every pairing plays the same env games (common random numbers)
    assert all(s.lineup == (O, O) for s in plan.specs if s.cell.endswith(f"|{O}+{O}"))
    envs = {}
    for s in plan.specs:
        envs.setdefault((s.condition, s.scenario_set, s.repetition), set()).add((s.env_seed, json.dumps(s.config)))
    assert all(len(v) == 1 for v in envs.values())
    keys = plan.keys
    assert len(set(keys)) == len(keys)


def test_more_seats_rotate():
    """Rulemaking (five seats): repetition r seats the lineup rotated by r % 5."""
    a, b = "scripted:hardliner", "scripted:noisy_conceder"
    cfg = {"name": "rm", "seed": 0, "games": [{"game": "rulemaking", "policies": [a, b], "swap_seats": True,
                                               "pairings": [[a, a, a, a, b]], "games_per_cell": 10}]}
    plan = make_plan(parse_config(cfg))
    assert len(plan.cells) == 1 and len(plan) == 10
    lineup = (a, a, a, a, b)
    for s in plan.specs:
        k = s.repetition % 5
        assert s.lineup == lineup[k:] + lineup[:k]
    # over whole cycles b holds every seat equally often
    assert Counter(s.lineup.index(b) for s in plan.specs) == {seat: 2 for seat in range(5)}


@pytest.mark.parametrize("block, fields", [
    ({"swap_first_speaker": True}, "swap_seats and swap_first_speaker"),
    ({"pairings": "balanced"}, "swap_seats with pairings = 'balanced'"),
    ({"pairings": "ordered"}, "swap_seats with pairings = 'ordered'"),
])
def test_nonsense_combinations_are_refused(block, fields):
    with pytest.raises(RunConfigError, match=r"^run config: games\[0\]: " + fields):
        parse_config(swapped(**block))


def test_a_lineup_and_its_rotation_are_refused_under_swap_seats():
    cfg = swapped(pairings=[[O, R], [O, O], [R, O]])
    with pytest.raises(RunConfigError, match=r"games\[0\]\.pairings\[2\]: with swap_seats, lineup "
                                             r"scripted:random\+scripted:oracle is a seat rotation of pairings\[0\]"):
        make_plan(parse_config(cfg))
    assert len(make_plan(parse_config(small_config(pairings=[[O, R], [R, O]])))) > 0  # fine without the swap


def test_the_run_id_of_a_config_without_swap_seats_is_the_one_it_had_before_the_field():
    """An off swap_seats is left out of the id, so runs of such configs stay resumable."""
    import hashlib

    plain = parse_config(small_config())
    data = plain.model_dump(mode="json")
    assert data["games"][0].pop("swap_seats") is False
    before = hashlib.sha256(json.dumps(data, separators=(",", ":")).encode()).hexdigest()[:16]
    assert plain.run_id() == parse_config(small_config(swap_seats=False)).run_id() == before
    assert parse_config(swapped()).run_id() != parse_config(small_config(swap_first_speaker=False)).run_id()


CROSS = {"name": "swap", "seed": 5, "games": [{
    "game": "resource", "policies": [O, L], "pairings": "cross", "games_per_cell": 4, "swap_seats": True,
    "config": {"num_rounds": 2, "partner": "shifting"}, "scenario_sets": {"mid": ["mc080_1"]}}]}


def _no_time(d: dict) -> dict:
    d = dict(d)
    d.pop("started_at"), d.pop("ended_at")
    return d


def test_traces_record_the_seating_each_game_had(tmp_path):
    out = tmp_path / "run"
    summary = run(CROSS, out)
    assert summary.complete and summary.errors == 0
    plan = make_plan(parse_config(CROSS))
    traces = {t.game_id: t for t in read_traces(out).traces}
    assert sorted(traces) == sorted(plan.keys)
    cell = f"resource|default|mid|{O}+{L}"
    names = {O: "oracle", L: "linear"}
    for spec in plan.specs:
        t = traces[spec.key]
        seating = [O, L] if spec.repetition % 2 == 0 else [L, O]
        assert t.run.cell == cell and t.run.lineup == seating == list(spec.lineup)
        d = t.to_dict()
        assert lineup_of(d) == seating  # the analysis reads the seat labels from the trace's policies
        # the policy object built for each seat is the one named there, with that seat's seed
        assert [t.policies[a].name for a in t.agents] == [names[x] for x in seating]
        assert t.seeds["policies"] == dict(zip(t.agents, spec.policy_seeds))
    # a swapped game is exactly the game of its seating listed as a lineup of its own
    plain = {**CROSS, "games": [{**CROSS["games"][0], "swap_seats": False, "pairings": [[L, O]]}]}
    ref = {t.run.repetition: t.to_dict() for t in read_traces(run(plain, tmp_path / "plain").out_dir).traces}
    for rep in (1, 3):
        a, b = _no_time(traces[f"{cell}|{rep}"].to_dict()), _no_time(ref[rep])
        for k in ("steps", "rounds", "returns", "policies", "seeds", "config", "agents"):
            assert a[k] == b[k], k
    # the summary's rows by seat order hold one seating each, so a seat's return is one policy's
    assert summary.cells[cell].lineup == [O, L] and summary.cells[cell].games == 4
    rows = {c.lineup[0]: c for c in summary.seatings.values()}
    assert {k: c.games for k, c in rows.items()} == {O: 2, L: 2}
    for first, c in rows.items():
        games = [traces[k] for k in plan.keys if list(traces[k].run.lineup) == c.lineup]
        assert len(games) == 2
        for a in ("agent_a", "agent_b"):
            assert _merge([c])["ret"][a] == sum(g.returns[a] for g in games)
    console = Console(record=True, width=300)
    print_summary(summary, console)
    text = console.export_text()
    assert f"{O} vs {L}" in text and f"{L} vs {O}" in text


def test_resume_replays_a_swapped_game_in_its_seating(tmp_path):
    out = tmp_path / "run"
    run(CROSS, out)
    path = out / "traces.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    full = {json.loads(x)["game_id"]: _no_time(json.loads(x)) for x in lines}
    path.write_text("".join(lines[:1]), encoding="utf-8")  # games 1-3 (two of them swapped) are lost
    summary = run(CROSS, out, resume=True)
    assert summary.already_done == 1 and summary.played == 3 and summary.complete
    again = {json.loads(x)["game_id"]: _no_time(json.loads(x)) for x in path.read_text(encoding="utf-8").splitlines()}
    assert again == full
    assert Counter(tuple(c.lineup) for c in summary.seatings.values() for _ in range(c.games)) == {(O, L): 2, (L, O): 2}
