"""The prefix-break benchmark sorts each later turn by its first cause, on hand-built turns."""

from __future__ import annotations

from types import SimpleNamespace as T

from benchmarks.online_prefix import classify

SYS = {"role": "system", "content": "rules"}


def turn(context, text, prompt_ids, completion_ids, prompt_built="rendered"):
    return T(context=context, text=text, prompt_ids=prompt_ids, completion_ids=completion_ids,
             prompt_built=prompt_built)


def test_each_cause_is_counted_once_in_the_order_given():
    first = turn([SYS, {"role": "user", "content": "go"}], "A", [1, 2], [3])
    grown = [*first.context, {"role": "assistant", "content": "A"}, {"role": "user", "content": "again"}]
    extends = turn(grown, "B", [1, 2, 3, 4], [5])
    retokenised = turn(grown, "B", [1, 2, 9, 4], [5])
    normalised = turn([*first.context, {"role": "assistant", "content": " A"}, {"role": "user", "content": "x"}],
                      "B", [1, 2, 3, 4], [5])
    rebuilt = turn([SYS, {"role": "user", "content": "fresh"}], "B", [1, 7], [5])
    for nxt, kind in ((extends, "extends"), (retokenised, "retokenised"), (normalised, "answer normalised"),
                      (rebuilt, "context rebuilt")):
        assert classify(T(turns=[first, nxt])) == {kind: 1}
    assert sum(classify(T(turns=[first, extends, rebuilt])).values()) == 2
    # a prompt built from tokens extends, and is counted as such besides
    built = turn(grown, "B", [1, 2, 3, 4], [5], prompt_built="extended")
    assert classify(T(turns=[first, built])) == {"extends": 1, "from tokens": 1}
