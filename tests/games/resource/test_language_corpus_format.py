"""The labelled corpus of negotiation language (``data/language_corpus.jsonl``) is well formed.

The corpus is what a reader of negotiation language is measured on: hand-written utterances
in the forms chat models write in the resource game, each labelled with the offer it makes
(from the speaker's side: ``you`` is the listener's share, ``me`` the speaker's), whether it
accepts or rejects the partner's proposal, the speaker's projects it discloses, whether it
asks something and whether it mentions an allocation that is not proposed. This test checks
the file, not any reader: the schema, that every labelled resource is named in the text,
the coverage of each kind of utterance and that a third of each kind is held out.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "data" / "language_corpus.jsonl"

THEMES: dict[str, tuple[str, str, str]] = {
    "wood": ("wood", "stone", "gold"),
    "flour": ("flour", "sugar", "saffron"),
    "copper": ("copper", "silicon", "lithium"),
    "seeds": ("seeds", "water", "fertilizer"),
    "cotton": ("cotton", "wool", "silk"),
    "sand": ("sand", "steel", "glass"),
    "herbs": ("herbs", "crystals", "mercury"),
    "kelp": ("kelp", "coral", "pearls"),
    "coal": ("coal", "oil", "uranium"),
    "ice": ("ice", "titanium", "helium"),
}
STYLES = {"gpt-4o", "gpt-4.1", "o-series", "claude", "llama", "gemini", "qwen", "mistral", "deepseek"}
TAGS = {"number_words", "contraction", "markdown", "listener_last", "near_miss", "chitchat"}
PROJECTS = {"project_a", "project_b", "project_c"}
FIELDS = {
    "id": str,
    "split": str,
    "style": str,
    "resources": list,
    "text": str,
    "offer": (dict, type(None)),
    "accept": bool,
    "reject": bool,
    "disclosures": list,
    "question": bool,
    "hypothetical": bool,
    "tags": list,
}
OPTIONAL = {"note": str}

# kind -> the least number of lines of that kind
KINDS: dict[str, int] = {
    "offer": 150,
    "claim": 25,
    "number_words": 15,
    "contraction": 15,
    "markdown": 10,
    "listener_last": 10,
    "accept": 110,
    "near_miss": 60,
    "reject": 50,
    "disclosure": 50,
    "question": 40,
    "hypothetical": 30,
    "multi_act": 40,
    "chitchat": 10,
}
HELDOUT_SHARE = (0.30, 0.37)

# The corpus grows in batches (see make_language_corpus.py): the last id of every batch but
# the last, which runs to the end of the file. Each batch's split is drawn on its own, so a
# later batch leaves the split of an earlier one as it was; the splits of batches 1 and 2 are
# pinned by digests of their held-out ids (sorted, comma-joined), as first released.
BATCH_ENDS = (595, 1063)
BATCH_1_HELDOUT_SHA256 = "7ef878e4930dcd1dcfc04c656970c96610a4fb160357f4de3a255fd892eb9571"
BATCH_2_HELDOUT_SHA256 = "390c7f1c56023e4b3c2dcfb15e824cd38e102116675c341430b4f20133773b31"
PINNED_SPLITS = (BATCH_1_HELDOUT_SHA256, BATCH_2_HELDOUT_SHA256)

# exact texts the corpus must hold, with the labels they must carry
EXACT: dict[str, dict] = {
    "How about you take 5 copper and I will take 3 lithium?": {
        "offer": {"you": {"copper": 5}, "me": {"lithium": 3}},
        "accept": False,
    },
    "Sounds good to me": {"offer": None, "accept": True},
    "You take 5 copper and I'll take 3 lithium": {
        "offer": {"you": {"copper": 5}, "me": {"lithium": 3}},
        "accept": False,
    },
    "You take 5 copper and I\u2019ll take 3 lithium": {
        "offer": {"you": {"copper": 5}, "me": {"lithium": 3}},
        "accept": False,
    },
    "I can work with that.": {"offer": None, "accept": True},
    "I'll take your offer": {"offer": None, "accept": True},
    "I concur with your proposal": {"offer": None, "accept": True},
    "You've got yourself a deal": {"offer": None, "accept": True},
    "Sounds like a good plan!": {"offer": None, "accept": True},
    "Let's do it differently: you take 4 copper and I take 6 lithium.": {
        "offer": {"you": {"copper": 4}, "me": {"lithium": 6}},
        "accept": False,
    },
    "5 copper for you, 3 lithium for me": {
        "offer": {"you": {"copper": 5}, "me": {"lithium": 3}},
        "accept": False,
    },
    "Me: 3 lithium. You: 6 copper": {
        "offer": {"you": {"copper": 6}, "me": {"lithium": 3}},
        "accept": False,
    },
    "if you take 6 lithium we will overdraw": {"offer": None, "accept": False, "hypothetical": True},
}

NUMBER_WORDS = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b",
    re.IGNORECASE,
)
CONTRACTION = re.compile(r"\b(I|you|we)(['\u2019])(ll|d|re|m|ve)\b", re.IGNORECASE)
MARKDOWN = re.compile(r"\*\*|^\s*(?:[-*\u2022>]|\d+\.)\s|^#{1,6}\s|\|", re.MULTILINE)
SENTENCE_BREAK = re.compile(r"(?<=[.!?\u2026])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_BREAK.split(text) if re.search(r"\w", s)]


def acts(row: dict) -> int:
    return sum(
        [
            row["offer"] is not None,
            row["accept"],
            row["reject"],
            bool(row["disclosures"]),
            row["question"],
            row["hypothetical"],
        ]
    )


def kinds(row: dict) -> set[str]:
    """The kinds of KINDS a line counts under (a line can count under several)."""
    out = {t for t in row["tags"]}
    offer = row["offer"]
    if offer is not None:
        out.add("offer")
        if (offer["you"] is None) != (offer["me"] is None):
            out.add("claim")
    for k in ("accept", "reject", "question", "hypothetical"):
        if row[k]:
            out.add(k)
    if row["disclosures"]:
        out.add("disclosure")
    if acts(row) >= 2 and len(sentences(row["text"])) >= 2:
        out.add("multi_act")
    return out


def named(resource: str, text: str) -> bool:
    """The resource's name occurs in the text as a word, singular or plural."""
    forms = {resource, resource + "s", resource + "es"}
    if resource.endswith("s"):
        forms.add(resource[:-1])
    pattern = r"(?<![A-Za-z])(" + "|".join(map(re.escape, forms)) + r")(?![A-Za-z])"
    return re.search(pattern, text, re.IGNORECASE) is not None


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _check_share(share, resources, text, where):
    assert isinstance(share, dict), where
    for name, units in share.items():
        assert name in resources, f"{where}: {name!r} is not one of {resources}"
        assert type(units) is int and units > 0, f"{where}: units of {name!r} must be a positive int"
        assert named(name, text), f"{where}: {name!r} is not named in the text"


def test_schema(rows):
    for row in rows:
        where = row.get("id", "?")
        for field, kind in FIELDS.items():
            assert field in row, f"{where}: no {field!r}"
            assert isinstance(row[field], kind), f"{where}: {field!r} has type {type(row[field]).__name__}"
        extra = set(row) - set(FIELDS) - set(OPTIONAL)
        assert not extra, f"{where}: unknown fields {extra}"
        for field, kind in OPTIONAL.items():
            if field in row:
                assert isinstance(row[field], kind) and row[field].strip(), f"{where}: {field!r}"
        assert re.fullmatch(r"c\d{4}", row["id"]), where
        assert row["split"] in {"dev", "heldout"}, where
        assert row["style"] in STYLES, where
        assert row["text"].strip(), where
        res = row["resources"]
        assert len(res) == 3 and len(set(res)) == 3 and all(isinstance(r, str) for r in res), where
        assert tuple(res) in THEMES.values(), f"{where}: {res} is not a theme"
        assert set(row["tags"]) <= TAGS and len(set(row["tags"])) == len(row["tags"]), where


def test_labels_name_the_lines_resources(rows):
    for row in rows:
        where, res, text = row["id"], row["resources"], row["text"]
        if row["offer"] is not None:
            assert set(row["offer"]) == {"you", "me"}, where
            assert row["offer"] != {"you": None, "me": None}, f"{where}: an offer names a share"
            for side, share in row["offer"].items():
                if share is not None:
                    _check_share(share, res, text, f"{where} offer.{side}")
        seen = set()
        for d in row["disclosures"]:
            assert set(d) == {"project", "requires", "reward"}, where
            assert d["project"] in PROJECTS and d["project"] not in seen, where
            seen.add(d["project"])
            assert d["requires"], f"{where}: a disclosure names its requirements"
            _check_share(d["requires"], res, text, f"{where} {d['project']}")
            assert d["reward"] is None or (type(d["reward"]) is int and d["reward"] >= 0), where


def test_text_uses_only_the_lines_resources(rows):
    others = {n for names in THEMES.values() for n in names}
    for row in rows:
        for name in others - set(row["resources"]):
            assert not named(name, row["text"]), f"{row['id']}: names {name!r} of another theme"


def test_labels_are_consistent(rows):
    for row in rows:
        where, tags = row["id"], set(row["tags"])
        assert not (row["accept"] and row["reject"]), where
        if tags & {"number_words", "contraction", "markdown", "listener_last"}:
            assert row["offer"] is not None, f"{where}: style tags count offers"
        if "number_words" in tags:
            assert NUMBER_WORDS.search(row["text"]), where
        if "contraction" in tags:
            assert CONTRACTION.search(row["text"]), where
        if "markdown" in tags:
            assert MARKDOWN.search(row["text"]), where
        if "listener_last" in tags:
            assert None not in row["offer"].values(), where
        if "near_miss" in tags:
            assert not row["accept"], where
        if "chitchat" in tags:
            assert acts(row) == 0 and not row["disclosures"], where


def test_ids_unique_and_size(rows):
    ids = Counter(r["id"] for r in rows)
    assert not [i for i, n in ids.items() if n > 1]
    assert len(rows) >= 450
    texts = Counter(r["text"] for r in rows)
    assert not [t for t, n in texts.items() if n > 1], "each utterance once"


def test_coverage_and_heldout_share(rows):
    lo, hi = HELDOUT_SHARE
    for kind, least in KINDS.items():
        of_kind = [r for r in rows if kind in kinds(r)]
        assert len(of_kind) >= least, f"{kind}: {len(of_kind)} lines, want {least}"
        share = sum(r["split"] == "heldout" for r in of_kind) / len(of_kind)
        assert lo <= share <= hi, f"{kind}: held-out share {share:.3f}"
    share = sum(r["split"] == "heldout" for r in rows) / len(rows)
    assert lo <= share <= hi


def test_contractions_both_apostrophes(rows):
    marks = Counter(
        m.group(2) for r in rows if "contraction" in r["tags"] for m in CONTRACTION.finditer(r["text"])
    )
    assert marks["'"] >= 5 and marks["\u2019"] >= 5, marks


def test_themes_and_styles_vary(rows):
    themes = Counter(tuple(r["resources"]) for r in rows)
    assert set(themes) == set(THEMES.values())
    assert min(themes.values()) >= 20, themes
    styles = Counter(r["style"] for r in rows)
    assert set(styles) == STYLES and min(styles.values()) >= 20, styles


def test_exact_cases(rows):
    by_text = {r["text"]: r for r in rows}
    for text, want in EXACT.items():
        assert text in by_text, f"missing exact case {text!r}"
        row = by_text[text]
        for field, value in want.items():
            assert row[field] == value, f"{text!r}: {field} is {row[field]!r}, want {value!r}"


def _batches(rows: list[dict]) -> list[list[dict]]:
    bounds = (0, *BATCH_ENDS, float("inf"))
    return [
        [r for r in rows if lo < int(r["id"][1:]) <= hi] for lo, hi in zip(bounds, bounds[1:])
    ]


@pytest.mark.parametrize("n", range(len(PINNED_SPLITS)))
def test_earlier_batch_splits_unchanged(rows, n):
    batch = _batches(rows)[n]
    assert len(batch) == BATCH_ENDS[n] - (BATCH_ENDS[n - 1] if n else 0)
    held = ",".join(sorted(r["id"] for r in batch if r["split"] == "heldout"))
    assert hashlib.sha256(held.encode()).hexdigest() == PINNED_SPLITS[n], f"batch {n + 1}"


def test_each_batch_holds_out_a_third(rows):
    lo, hi = HELDOUT_SHARE
    for n, batch in enumerate(_batches(rows), 1):
        assert batch, f"batch {n} is empty"
        share = sum(r["split"] == "heldout" for r in batch) / len(batch)
        assert lo <= share <= hi, f"batch {n}: held-out share {share:.3f}"
        for kind in KINDS:
            of_kind = [r for r in batch if kind in kinds(r)]
            if len(of_kind) >= 20:
                share = sum(r["split"] == "heldout" for r in of_kind) / len(of_kind)
                assert lo <= share <= hi, f"batch {n}, {kind}: held-out share {share:.3f}"
