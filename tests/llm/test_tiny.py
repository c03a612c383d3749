"""build_tiny_model's tokenizer choice (``pretokenizer``)."""

from __future__ import annotations

import pytest

pytest.importorskip("transformers")
pytest.importorskip("tokenizers")

from transformers import AutoTokenizer  # noqa: E402

from baselines.llm.tiny import build_tiny_model  # noqa: E402

CORPUS = ["Your projects:\n- project_a needs 3 r3 per run and pays 16\n- project_b needs 2 r1 and 2 r3 per run "
          "and pays 12\nBudget $18, r2 $1.5 x10."] * 20 + ['{"r1": 3, "r2": 9}'] * 20

#: text the corpus never shows: other words, non-ASCII, runs of spaces, tabs and newlines
ODD = "My project_z needs 13 r7 — ünïcode ×2\t\ttabs  two  spaces\n\n\nand {\"r12\": 0} ok?!"


@pytest.fixture(scope="module")
def tokenizers(tmp_path_factory):
    out = {}
    for kind in ("bytelevel", "words"):
        path = build_tiny_model(tmp_path_factory.mktemp(kind) / "m", hidden_size=16, num_layers=1, num_heads=2,
                                vocab_size=400, corpus=CORPUS, pretokenizer=kind)
        out[kind] = AutoTokenizer.from_pretrained(path)
    return out


def pieces(tok, text):
    return [tok.decode([i]) for i in tok(text, add_special_tokens=False)["input_ids"]]


def test_words_keeps_ids_whole_bytelevel_splits_letters_from_digits(tokenizers):
    line = "- project_a needs 3 r3 per run and pays 16"
    assert pieces(tokenizers["words"], line) == ["-", " project_a", " needs", " 3", " r3", " per", " run", " and",
                                                 " pays", " 16"]
    byte = pieces(tokenizers["bytelevel"], line)
    assert " r3" not in byte and " project_a" not in byte
    assert byte[byte.index(" needs") + 1:byte.index(" per")] == [" 3", " r", "3"]
    # inside the JSON purchase the id has no space before it: its own token under words
    assert pieces(tokenizers["words"], '{"r1": 3}') == ['{"', "r1", '":', " 3", "}"]


@pytest.mark.parametrize("kind", ["bytelevel", "words"])
def test_any_text_round_trips(tokenizers, kind):
    tok = tokenizers[kind]
    for text in (ODD, CORPUS[0], " leading space", "trailing space ", "", "\n"):
        assert tok.decode(tok(text, add_special_tokens=False)["input_ids"]) == text


def test_unknown_pretokenizer_is_refused(tmp_path):
    with pytest.raises(ValueError, match="pretokenizer must be 'bytelevel' or 'words', not 'spaces'"):
        build_tiny_model(tmp_path / "m", corpus=CORPUS, pretokenizer="spaces")
