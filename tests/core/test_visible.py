"""A required text of only invisible characters is empty."""

from __future__ import annotations

import pytest

from negotiation_env.core.visible import is_blank


@pytest.mark.parametrize("text", [
    "", " \t\n", "\u200b", "\u200b\u200c\u200d\u2060\ufeff", "\u00ad", "\u202e\u200e", "\x1b\x00",
    "\u3164", "\u115f\u1160", "\uffa0", "\u2800", "\u0301\u0308", "\u3000\u00a0\u2028", "\U000e0041",
])
def test_invisible_texts_are_blank(text):
    assert is_blank(text)


@pytest.mark.parametrize("text", ["a", "\u200bok", "1", ".", "é", "e\u0301", "日本", "😀", "\u200b?\u200b", "Ａ"])
def test_texts_with_something_to_read_are_not_blank(text):
    assert not is_blank(text)
