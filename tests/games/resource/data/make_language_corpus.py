"""Write ``language_corpus.jsonl`` from the hand-written lines in ``language_corpus_lines*.py``.

Run from the repository root::

    PYTHONPATH=$PWD python tests/games/resource/data/make_language_corpus.py

The utterances and their labels are written by hand, one ``L(...)`` call each, in a short
notation that this script expands into the JSON schema that
``tests/games/resource/test_language_corpus_format.py`` checks:

* ``o="you: copper 5, lithium 1 / me: silicon 3"``: the offer, from the speaker's side. A side
  left out is ``null``; ``me: -`` is a share stated as nothing (``{}``). No ``o``: no offer.
* ``d="a: copper 2, lithium 1 = 16; b: silicon 3 = ?"``: the speaker's disclosed projects,
  requirements per run and reward per run (``?``: reward not given).
* ``a``, ``r``, ``q``, ``h``: accept, reject, question, hypothetical (1 for true).
* ``t="nw ct md ll nm cc"``: style tags that the labels alone do not show (number words,
  contraction, markdown, listener's share after the speaker's, near miss of an acceptance,
  chit-chat).
* ``n``: a note on a tricky label.

The lines come in batches, one module each, numbered on in the order of ``BATCHES``:

* batch 1, ``language_corpus_lines.py``: ids c0001-c0595;
* batch 2, ``language_corpus_lines_2.py``: ids c0596-c1063, written later and independently of
  batch 1 and of any reader;
* batch 3, ``language_corpus_lines_3.py``: ids c1064 on, written independently of batches 1
  and 2 and of any reader, weighted towards offers, acceptances and their near misses.

The split is seeded and stratified, and drawn for each batch on its own with that batch's
seed: a random third of the batch is held out, then single lines are moved between the splits
until every kind in ``KINDS`` has a held-out share near a third. So a later batch never
changes the split of an earlier one.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from language_corpus_lines import LINES  # noqa: E402
from language_corpus_lines_2 import LINES as LINES_2  # noqa: E402
from language_corpus_lines_3 import LINES as LINES_3  # noqa: E402

from tests.games.resource.test_language_corpus_format import (  # noqa: E402
    KINDS,
    STYLES,
    TAGS,
    THEMES,
    kinds,
)

SEED = 20240611
# (lines, seed of their split), in id order; append a batch, never edit or reorder one
BATCHES = ((LINES, SEED), (LINES_2, 20250318), (LINES_3, 20250611))
OUT = HERE / "language_corpus.jsonl"
TAG_NAMES = {
    "nw": "number_words",
    "ct": "contraction",
    "md": "markdown",
    "ll": "listener_last",
    "nm": "near_miss",
    "cc": "chitchat",
}


def _share(spec: str, theme: tuple[str, ...]) -> dict[str, int]:
    spec = spec.strip()
    if spec == "-":
        return {}
    out: dict[str, int] = {}
    for part in spec.split(","):
        name, units = part.split()
        if name not in theme:
            raise ValueError(f"{name!r} is not in theme {theme}")
        if name in out:
            raise ValueError(f"{name!r} twice in {spec!r}")
        out[name] = int(units)
    return out


def _offer(spec: str | None, theme: tuple[str, ...]):
    if spec is None:
        return None
    offer: dict[str, dict[str, int] | None] = {"you": None, "me": None}
    for side in spec.split("/"):
        who, _, rest = side.partition(":")
        who = who.strip()
        if who not in offer or offer[who] is not None:
            raise ValueError(f"bad offer side in {spec!r}")
        offer[who] = _share(rest, theme)
    return offer


def _disclosures(spec: str | None, theme: tuple[str, ...]) -> list[dict]:
    if not spec:
        return []
    out = []
    for part in spec.split(";"):
        proj, _, rest = part.partition(":")
        req, _, reward = rest.partition("=")
        reward = reward.strip()
        out.append(
            {
                "project": f"project_{proj.strip()}",
                "requires": _share(req, theme),
                "reward": None if reward == "?" else int(reward),
            }
        )
    return out


def build() -> list[dict]:
    lines = [line for batch, _ in BATCHES for line in batch]
    rows = []
    for i, (style, theme_key, text, kw) in enumerate(lines, 1):
        unknown = set(kw) - {"o", "a", "r", "d", "q", "h", "t", "n"}
        if unknown:
            raise ValueError(f"line {i}: unknown keys {unknown}")
        if style not in STYLES:
            raise ValueError(f"line {i}: unknown style {style!r}")
        theme = THEMES[theme_key]
        tags = [TAG_NAMES[t] for t in kw.get("t", "").split()]
        assert all(t in TAGS for t in tags)
        row = {
            "id": f"c{i:04d}",
            "split": "dev",
            "style": style,
            "resources": list(theme),
            "text": text,
            "offer": _offer(kw.get("o"), theme),
            "accept": bool(kw.get("a", 0)),
            "reject": bool(kw.get("r", 0)),
            "disclosures": _disclosures(kw.get("d"), theme),
            "question": bool(kw.get("q", 0)),
            "hypothetical": bool(kw.get("h", 0)),
            "tags": tags,
        }
        if kw.get("n"):
            row["note"] = kw["n"]
        rows.append(row)
    return rows


def assign_splits(rows: list[dict], seed: int = SEED) -> None:
    """Hold out a third, stratified over the (overlapping) kinds by seeded local search."""
    rng = random.Random(seed)
    n = len(rows)
    order = list(range(n))
    rng.shuffle(order)
    held = set(order[: round(n / 3)])
    ks = [kinds(r) | {"all"} for r in rows]
    names = sorted({k for s in ks for k in s})
    total = {k: sum(k in s for s in ks) for k in names}

    def cost(h: set[int]) -> float:
        c = 0.0
        for k in names:
            got = sum(1 for i in h if k in ks[i])
            c += (got / total[k] - 1 / 3) ** 2 * total[k]
        return c

    best = cost(held)
    for _ in range(20000):
        i = rng.choice(sorted(held))
        j = rng.randrange(n)
        if j in held:
            continue
        trial = (held - {i}) | {j}
        c = cost(trial)
        if c < best:
            held, best = trial, c
    for i, r in enumerate(rows):
        r["split"] = "heldout" if i in held else "dev"


def split_batches(rows: list[dict]) -> list[list[dict]]:
    """Split each batch on its own; return the batches' rows."""
    batches, start = [], 0
    for lines, seed in BATCHES:
        batch = rows[start : start + len(lines)]
        assign_splits(batch, seed)
        batches.append(batch)
        start += len(lines)
    assert start == len(rows)
    return batches


def _table(rows: list[dict]) -> None:
    for k in KINDS:
        all_k = [r for r in rows if k in kinds(r)]
        held = sum(r["split"] == "heldout" for r in all_k)
        print(f"{k:15s} {len(all_k):4d}  heldout {held:3d}  dev {len(all_k) - held:3d}")
    held = sum(r["split"] == "heldout" for r in rows)
    print(f"{'all':15s} {len(rows):4d}  heldout {held:3d}  dev {len(rows) - held:3d}")


def main() -> None:
    rows = build()
    batches = split_batches(rows)
    with OUT.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} lines to {OUT}")
    _table(rows)
    for n, batch in enumerate(batches, 1):
        print(f"\nbatch {n}: {batch[0]['id']}-{batch[-1]['id']}")
        _table(batch)


if __name__ == "__main__":
    main()
