import json
import math
from collections import Counter

import pytest

from negotiation_env.runner import make_plan, parse_config
from negotiation_env.runner.config import GameBlock
from negotiation_env.runner.plan import _lineup_count, _lineups

from .helpers import small_config


def test_plan_is_deterministic_and_keys_unique():
    a = make_plan(parse_config(small_config(games_per_cell=4)))
    b = make_plan(parse_config(small_config(games_per_cell=4)))
    assert a.specs == b.specs
    assert len(set(a.keys)) == len(a) == 2 * 2 * 3 * 4  # conditions x sets x lineups x games
    assert [s.plan_index for s in a.specs] == list(range(len(a)))
    assert a.specs[0].key == "resource|stability=stable|lo|scripted:oracle+scripted:oracle|0"
    assert a.run_id == b.run_id
    # the order of a mapping orders the plan, so it is part of the run id
    cfg = small_config(games_per_cell=4)
    cfg["games"][0]["scenario_sets"] = dict(reversed(cfg["games"][0]["scenario_sets"].items()))
    c = make_plan(parse_config(cfg))
    assert sorted(c.keys) == sorted(a.keys) and c.keys != a.keys and c.run_id != a.run_id


def test_seeds_depend_on_the_cohort_seed_and_the_key_only():
    a = make_plan(parse_config(small_config(seed=1)))
    b = make_plan(parse_config(small_config(seed=2)))
    assert a.keys == b.keys
    assert all(x.env_seed != y.env_seed for x, y in zip(a.specs, b.specs))
    # a bigger plan contains the smaller one's games with the same seeds
    big = make_plan(parse_config(small_config(seed=1, games_per_cell=5)))
    by_key = {s.key: s for s in big.specs}
    for s in a.specs:
        assert (by_key[s.key].env_seed, by_key[s.key].policy_seeds, by_key[s.key].config) == \
            (s.env_seed, s.policy_seeds, s.config)


def test_common_random_numbers_across_pairings():
    plan = make_plan(parse_config(small_config(games_per_cell=2)))
    games = {}
    for s in plan.specs:
        games.setdefault((s.condition, s.scenario_set, s.repetition), set()).add((s.env_seed, str(s.config)))
    assert all(len(v) == 1 for v in games.values())  # every lineup plays the same env game
    # a policy keeps its seed in a seat whoever its partner is
    seeds = {}
    for s in plan.specs:
        for seat, (label, seed) in enumerate(zip(s.lineup, s.policy_seeds)):
            seeds.setdefault((s.condition, s.scenario_set, s.repetition, seat, label), set()).add(seed)
    assert all(len(v) == 1 for v in seeds.values())


def test_first_speaker_swap_and_scenario_cycle():
    plan = make_plan(parse_config(small_config(games_per_cell=6)))
    cell = [s for s in plan.specs if s.cell == "resource|stability=stable|hi|scripted:oracle+scripted:random"]
    assert [s.config["first_speaker"] for s in cell] == ["agent_a", "agent_b"] * 3
    assert [s.config["scenario"] for s in cell] == ["mc100_1", "mc100_1", "mc100_2", "mc100_2", "mc100_1", "mc100_1"]
    no_swap = small_config(games_per_cell=3, swap_first_speaker=False)
    cell = [s for s in make_plan(parse_config(no_swap)).specs if s.scenario_set == "hi"][:3]
    assert [s.config["scenario"] for s in cell] == ["mc100_1", "mc100_2", "mc100_1"]
    assert all("first_speaker" not in s.config for s in cell)


def test_pairings():
    def lineups(p, policies=("scripted:oracle", "scripted:random", "scripted:greedy")):
        plan = make_plan(parse_config(small_config(games_per_cell=1, pairings=p, policies=list(policies))))
        return list(dict.fromkeys(s.lineup for s in plan.specs))

    o, r, g = "scripted:oracle", "scripted:random", "scripted:greedy"
    assert lineups("self") == [(o, o), (r, r), (g, g)]
    assert lineups("cross") == [(o, r), (o, g), (r, g)]
    assert lineups("all") == [(o, o), (o, r), (o, g), (r, r), (r, g), (g, g)]
    assert len(lineups("ordered")) == 9
    # balanced: "all" with each cross pairing also in the other seat order, right after it
    assert lineups("balanced") == [(o, o), (o, r), (r, o), (o, g), (g, o), (r, r), (r, g), (g, r), (g, g)]
    assert set(lineups("balanced")) == set(lineups("ordered"))
    assert lineups([[g, o], [o, o]]) == [(g, o), (o, o)]


def test_balanced_pairings_add_the_other_seat_order_and_keep_every_existing_key():
    """Seat balance: with "all" the first-listed policy always holds seat A, so under
    partner shifting the other is always the one whose context resets. "balanced"
    plays each cross pairing in both seat orders; the games "all" planned keep their keys,
    seeds and configs, and the new seat order plays the very same env games."""
    old = make_plan(parse_config(small_config(games_per_cell=4)))
    new = make_plan(parse_config(small_config(games_per_cell=4, pairings="balanced")))
    assert len(old) == 2 * 2 * 3 * 4 and len(new) == 2 * 2 * 4 * 4  # conditions x sets x lineups x games
    by_key = {s.key: s for s in new.specs}
    for s in old.specs:
        t = by_key[s.key]
        assert (t.env_seed, t.policy_seeds, t.config, t.lineup) == (s.env_seed, s.policy_seeds, s.config, s.lineup)
    games = Counter(s.lineup for s in new.specs)
    for (x, y), n in games.items():
        assert games[(y, x)] == n == 2 * 2 * 4
    mirrored = {}
    for s in new.specs:
        mirrored.setdefault((s.condition, s.scenario_set, s.repetition, frozenset(s.lineup)), set()).add(
            (s.env_seed, json.dumps(s.config, sort_keys=True)))
    assert all(len(v) == 1 for v in mirrored.values())  # both seat orders: the same game
    # per pairing, scenario and seat that opens: each policy is once the shifted seat (agent_b)
    o, r = "scripted:oracle", "scripted:random"
    cell = [s for s in new.specs if s.condition == "stability=shifting" and s.scenario_set == "lo" and set(s.lineup) == {o, r}]
    assert Counter((s.lineup[1], s.config["first_speaker"]) for s in cell) == Counter(
        {(r, "agent_a"): 2, (r, "agent_b"): 2, (o, "agent_a"): 2, (o, "agent_b"): 2})


@pytest.mark.parametrize("seats", [2, 3, 5])
@pytest.mark.parametrize("n_labels", [1, 2, 3, 4])
def test_balanced_rotations_hold_every_seat_equally_and_are_counted_exactly(seats, n_labels):
    labels = [f"scripted:p{i}" for i in range(n_labels)]
    block = GameBlock(game="resource", policies=labels, pairings="balanced")
    lineups = _lineups(block, labels, seats, "games[0]")
    assert len(lineups) == len(set(lineups)) == _lineup_count(block, n_labels, seats)
    by_combo = {}
    for lu in lineups:
        by_combo.setdefault(tuple(sorted(lu)), []).append(lu)
    assert len(by_combo) == math.comb(n_labels + seats - 1, seats)  # every combination, as "all"
    for combo, rots in by_combo.items():
        for label in set(combo):
            per_seat = [sum(lu[s] == label for lu in rots) for s in range(seats)]
            assert len(set(per_seat)) == 1, (combo, rots)  # the same count in every seat
    if seats == 5 and n_labels == 2:  # (a,a,a,a,b) rotates 5 ways, never a full 2**5 = 32
        assert len(lineups) == 2 + 5 * 4 == 22


def test_conditions_cross_factors_and_labels():
    cfg = small_config(games_per_cell=1, policies=[{"spec": "scripted:oracle", "label": "or"}, "scripted:random"],
                       conditions=[{"name": "talk", "config": {"cheap_talk": True}},
                                   {"name": "silent", "config": {"cheap_talk": False}}])
    plan = make_plan(parse_config(cfg))
    assert list(dict.fromkeys(s.condition for s in plan.specs)) == \
        ["talk,stability=stable", "talk,stability=shifting", "silent,stability=stable", "silent,stability=shifting"]
    assert Counter(s.config["cheap_talk"] for s in plan.specs) == Counter({True: 12, False: 12})
    assert plan.specs[0].lineup == ("or", "or") and plan.specs[0].policies[0].spec == "scripted:oracle"


@pytest.mark.parametrize("swap", ["swap_first_speaker", "swap_seats"])
def test_a_plan_read_lazily_keeps_its_games_order_seeds_and_counts(swap):
    """The plan lists its cells and makes each game when read: its length, order, keys,
    seatings, seeds and per-cell counts are those of the games listed one by one."""
    from negotiation_env.runner import derive_seed

    block = {"swap_first_speaker": swap == "swap_first_speaker", "swap_seats": swap == "swap_seats"}
    plan = make_plan(parse_config(small_config(games_per_cell=5, **block)))
    games = list(plan.specs)
    assert len(plan) == len(games) == 2 * 2 * 3 * 5  # conditions x sets x lineups x games per cell
    assert games[0].key == "resource|stability=stable|lo|scripted:oracle+scripted:oracle|0"
    assert games[-1].key == "resource|stability=shifting|hi|scripted:random+scripted:random|4"
    assert [g.plan_index for g in games] == list(range(60))
    assert [g.key for g in games] == [f"{c}|{r}" for c in plan.cells for r in range(5)] == plan.keys
    assert plan.specs[-1] == games[-1] and plan.specs[7] == games[7] and plan.specs[3:9] == games[3:9]
    with pytest.raises(IndexError):
        plan.specs[60]
    assert plan.cell_games() == Counter(g.cell for g in games) and list(plan.cell_games()) == plan.cells
    assert plan.seatings() == Counter((g.cell, g.lineup) for g in games)
    assert list(plan.seatings()) == list(dict.fromkeys((g.cell, g.lineup) for g in games))
    cross = [g for g in games if g.cell == "resource|stability=stable|hi|scripted:oracle+scripted:random"]
    if swap == "swap_seats":
        assert [g.lineup[0] for g in cross] == ["scripted:oracle", "scripted:random"] * 2 + ["scripted:oracle"]
    else:
        assert [g.config["first_speaker"] for g in cross] == ["agent_a", "agent_b"] * 2 + ["agent_a"]
    assert [g.config["scenario"] for g in cross] == ["mc100_1", "mc100_1", "mc100_2", "mc100_2", "mc100_1"]
    for g in (games[0], games[-1], cross[1]):
        parts = (g.block, g.condition, g.scenario_set, g.repetition)
        assert g.env_seed == derive_seed(3, "env", *parts)
        assert g.policy_seeds == tuple(derive_seed(3, "policy", *parts, s, lab) for s, lab in enumerate(g.lineup))
    assert all(plan.has(g.key) for g in games)
    assert not any(plan.has(k) for k in (games[0].key[:-1] + "5", games[0].key[:-1] + "01", "x|0", None, 3))
    assert [g.key for g in plan.first_games()] == [f"{c}|0" for c in plan.cells]
