"""Text that can be written: no string of the package holds a surrogate code point.

A Python string may hold a surrogate code point (U+D800 to U+DFFF) on its own: a JSON
escape such as ``"\\ud800"`` decodes to one, and a policy written in Python may return
one. Such a string is no Unicode text: encoding it as UTF-8 raises
``UnicodeEncodeError``, so one of them in a model answer, a policy's output or a config
name would stop the trace writer, the exports and every printed message. (A pair of
surrogate escapes in JSON, ``"\\ud83d\\ude00"``, decodes to the one character it stands
for, and is fine.)

Where such text is met (see ``docs/reliability.md``, "Text is text everywhere"):

* decoded JSON (model answers, server responses, data files, trace lines) is refused
  by :mod:`.jsontext`, naming where the escape is;
* an agent's answer is repaired where the env takes it (:meth:`.game.Game._encodable`):
  each surrogate becomes U+FFFD (the replacement character) and an
  ``answer_unencodable`` event records how many;
* the trace writer repairs any string left and notes it in the record's ``meta``;
* run configs refuse such a string, naming the field.

The checks cost nothing on ASCII text (``str.isascii``) and one encoding attempt on
other text; only text that fails it is walked character by character.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["REPLACEMENT", "is_encodable", "surrogate_in", "first_unencodable", "unencodable_problem",
           "replace_unencodable", "where", "NOT_A_CHARACTER"]

#: why a string holding a surrogate code point is refused
NOT_A_CHARACTER = "half of a surrogate pair without its other half: not a character"
#: what a surrogate code point is replaced by
REPLACEMENT = "\ufffd"
#: containers deeper than this are not walked (every decoder of the package refuses
#: documents nested more than 100 levels deep)
MAX_WALK_DEPTH = 200

_SURROGATE = re.compile("[\ud800-\udfff]")


def is_encodable(text: str) -> bool:
    """True when ``text`` encodes as UTF-8 (holds no surrogate code point)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def surrogate_in(text: str) -> tuple[int, str] | None:
    """``(index, escape)`` of the first surrogate code point of ``text`` (``escape``:
    ``"\\ud800"`` as JSON writes it), None when there is none."""
    if is_encodable(text):
        return None
    m = _SURROGATE.search(text)
    assert m is not None
    return m.start(), f"\\u{ord(m.group()):04x}"


def where(path: tuple) -> str:
    """A path of keys and indexes as ``a.b[0].c`` (``(top level)`` when empty)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part).encode("utf-8", "replace").decode("utf-8")
    return out or "(top level)"


def first_unencodable(obj: Any) -> tuple[tuple, str, int, bool] | None:
    """The first string in ``obj`` (dicts, lists and tuples walked; keys included) holding
    a surrogate code point: ``(path, escape, index, is_key)``, the path of keys and indexes
    to it (for a key, to the key itself); None when there is none."""
    stack: list[tuple[Any, tuple, int]] = [(obj, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        t = type(value)
        if t is str or isinstance(value, str):
            found = surrogate_in(value)
            if found is not None:
                return path, found[1], found[0], False
        elif isinstance(value, dict):
            if depth >= MAX_WALK_DEPTH:
                continue
            items = list(value.items())
            for k, v in reversed(items):
                stack.append((v, path + (k,), depth + 1))
            for k, _v in items:  # keys before any value below them
                if isinstance(k, str):
                    found = surrogate_in(k)
                    if found is not None:
                        return path + (k,), found[1], found[0], True
        elif isinstance(value, (list, tuple)):
            if depth >= MAX_WALK_DEPTH:
                continue
            for i in range(len(value) - 1, -1, -1):
                stack.append((value[i], path + (i,), depth + 1))
    return None


def unencodable_problem(obj: Any) -> tuple[str, str] | None:
    """``(where, what)`` of the first string in ``obj`` holding a surrogate code point
    (:func:`first_unencodable`), worded for a loader's error: the field as ``a.b[0]``
    and what is wrong with it; None when every string is text."""
    found = first_unencodable(obj)
    if found is None:
        return None
    path, escape, index, is_key = found
    return where(path), f"{'a key holds' if is_key else 'holds'} {escape} at character {index}, {NOT_A_CHARACTER}"


def _fix(text: str) -> tuple[str, int]:
    return _SURROGATE.subn(REPLACEMENT, text)


def replace_unencodable(obj: Any, *, max_paths: int = 10) -> tuple[Any, int, list[str]]:
    """``(fixed, count, paths)``: ``obj`` with every surrogate code point of its strings
    (in dicts, lists and tuples, keys included) replaced by U+FFFD, how many were
    replaced, and where (the first ``max_paths`` paths, as :func:`where` writes them).
    Containers holding none are returned as they are (no copy); ``count`` 0 means
    ``fixed is obj``."""
    paths: list[str] = []
    total = [0]

    def walk(value: Any, path: tuple, depth: int) -> Any:
        if isinstance(value, str):
            if is_encodable(value):
                return value
            fixed, n = _fix(value)
            total[0] += n
            if len(paths) < max_paths:
                paths.append(where(path))
            return fixed
        if depth >= MAX_WALK_DEPTH:
            return value
        if isinstance(value, dict):
            out: dict | None = None
            for i, (k, v) in enumerate(value.items()):
                nk = walk(k, path + (k,), depth + 1) if isinstance(k, str) else k
                nv = walk(v, path + (nk,), depth + 1)
                if out is None and (nk is not k or nv is not v):
                    out = dict(list(value.items())[:i])
                if out is not None:
                    out[nk] = nv
            return value if out is None else out
        if isinstance(value, (list, tuple)):
            new = [walk(v, path + (i,), depth + 1) for i, v in enumerate(value)]
            if all(a is b for a, b in zip(new, value)):
                return value
            return new if isinstance(value, list) else type(value)(new) if type(value) is tuple else tuple(new)
        return value

    fixed = walk(obj, (), 0)
    return (obj if total[0] == 0 else fixed), total[0], paths
