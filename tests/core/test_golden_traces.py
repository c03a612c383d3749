"""Every step of a fixed small cohort returns exactly what it returned when the golden
file was written (:mod:`tests.core.golden_traces`: the cohort, the canonical JSON and
how to regenerate). Guards the cached and lazy observation and info paths:
a cache read in a stale state, an info computed for the wrong step, a shared object a
later step mutates, a tuple turned into a list: each changes some step's digest."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.core import golden_traces as g

GOLDEN = json.loads(g.GOLDEN.read_text(encoding="utf-8"))


def test_golden_file_covers_the_cohort():
    assert GOLDEN["fields"] == list(g.FIELDS)
    assert list(GOLDEN["cases"]) == [c.id for c in g.CASES]
    games_apis = {(c.game, c.api) for c in g.CASES}
    assert games_apis == {(game, api) for game in ("resource", "matrix", "rulemaking")
                          for api in ("aec", "parallel", "numeric_aec", "numeric_parallel")}


@pytest.mark.parametrize("case", g.CASES, ids=lambda c: c.id)
def test_steps_match_the_golden_traces(case, tmp_path):
    expected = GOLDEN["cases"][case.id]
    steps = g.play_case(case)
    got = [" ".join(g.digest(t) if t else "-" for t in step) for step in steps]
    if got != expected:
        dump = tmp_path / f"{case.id}.jsonl"
        dump.write_text("".join(json.dumps(dict(zip(g.FIELDS, s)), ensure_ascii=False) + "\n" for s in steps),
                        encoding="utf-8")
        for i, (a, b) in enumerate(zip(got, expected)):
            if a != b:
                fields = [f for f, x, y in zip(g.FIELDS, a.split(), b.split()) if x != y]
                pytest.fail(f"{case.id}: step {i} differs in {', '.join(fields)} (this run's records: {dump}; "
                            f"the golden run's: python -m tests.core.golden_traces --dump DIR at its commit)")
        pytest.fail(f"{case.id}: {len(got)} steps, the golden traces have {len(expected)} (records: {dump})")


def test_canonical_form_tells_types_apart():
    c = g.canonical
    assert c((1, 2)) != c([1, 2])
    assert c(1) != c(1.0) != c(np.float32(1.0))
    assert c(np.zeros(2, np.float32)) != c(np.zeros(2, np.float64)) != c([0.0, 0.0])
    assert c({"a": 1, "b": 2}) != c({"b": 2, "a": 1})  # key order is part of what an env returns
    assert c({"__tuple__": [1]}) != c((1,))
    with pytest.raises(TypeError):
        c(object())


def test_the_digests_see_a_small_change(monkeypatch):
    """The harness would catch the mistakes it guards against: a conversation handed out
    as a list instead of a tuple, an info one key short."""
    from negotiation_env.games.resource.game import ResourceGame

    case = g.CASES[0]
    expected = GOLDEN["cases"][case.id]
    observe, info = ResourceGame.observe, ResourceGame.info

    def as_list(self, agent):
        obs = observe(self, agent)
        return {**obs, "conversation": list(obs["conversation"])}

    monkeypatch.setattr(ResourceGame, "observe", as_list)
    got = [" ".join(g.digest(t) if t else "-" for t in s) for s in g.play_case(case)]
    changed = {f for a, b in zip(got, expected) for f, x, y in zip(g.FIELDS, a.split(), b.split()) if x != y}
    assert changed == {"last", "observations"}

    monkeypatch.setattr(ResourceGame, "observe", observe)
    monkeypatch.setattr(ResourceGame, "info", lambda self, agent: {k: v for k, v in info(self, agent).items()
                                                                   if k != "theme"})
    got = [" ".join(g.digest(t) if t else "-" for t in s) for s in g.play_case(case)]
    changed = {f for a, b in zip(got, expected) for f, x, y in zip(g.FIELDS, a.split(), b.split()) if x != y}
    assert changed == {"last", "infos"}
