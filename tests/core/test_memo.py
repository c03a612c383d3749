"""core.memo: the content key of a structured action tells apart every value that could
parse or print differently, the store stays bounded, tuple_with copies once and leaves
its list as it was."""

from __future__ import annotations

import numpy as np

from negotiation_env.core.memo import Memo, action_key, tuple_with


def test_action_key_tells_apart_what_parses_differently():
    base = {"message": "hi", "decide": 1, "purchase": np.array([1, 2], dtype=np.int64)}
    variants = [
        {"message": "hi", "decide": True, "purchase": np.array([1, 2], dtype=np.int64)},
        {"message": "hi", "decide": 1.0, "purchase": np.array([1, 2], dtype=np.int64)},
        {"message": "hi", "decide": 1, "purchase": np.array([1, 2], dtype=np.int32)},
        {"message": "hi", "decide": 1, "purchase": np.array([1.0, 2.0])},
        {"message": "hi", "decide": 1, "purchase": np.array([[1, 2]], dtype=np.int64)},
        {"message": "hi", "decide": 1, "purchase": np.array([2, 1], dtype=np.int64)},
        {"decide": 1, "message": "hi", "purchase": np.array([1, 2], dtype=np.int64)},
        {"message": "hi ", "decide": 1, "purchase": np.array([1, 2], dtype=np.int64)},
        {"message": "hi", "decide": np.int64(1), "purchase": np.array([1, 2], dtype=np.int64)},
        {1: "hi"}, {True: "hi"}, {"message": None}, {"x": 0.0}, {"x": -0.0},
    ]
    keys = [action_key(base)] + [action_key(v) for v in variants]
    assert all(k is not None for k in keys)
    assert len(set(keys)) == len(keys)
    assert action_key(dict(base)) == action_key(base)  # same content, same key


def test_action_key_refuses_what_it_cannot_name():
    for action in ({"purchase": [1, 2]}, {"a": {"b": 1}}, {"a": object()}, {"a": np.array([object()])},
                   "text", None, [1, 2]):
        assert action_key(action) is None


def test_memo_is_bounded_and_makes_once():
    m = Memo(size=3)
    made = []
    for k in range(10):
        assert m.get_or(k, lambda k=k: made.append(k) or k * 10) == k * 10
        assert len(m) <= 3
    assert m.get_or(9, lambda: made.append("again")) == 90 and "again" not in made


def test_tuple_with_is_the_tuple_and_restores_the_list():
    items = [{"a": 1}, {"b": 2}]
    last = {"c": 3}
    t = tuple_with(items, last)
    assert t == (items[0], items[1], last) and t[0] is items[0] and t[2] is last
    assert items == [{"a": 1}, {"b": 2}]
