"""Hypothesis strategies for what an answer format admits, and the engine's own check.

:func:`from_schema` draws JSON values from the subset of JSON Schema the games' answer
formats use (object with properties/required/additionalProperties false, enum, anyOf,
null, integer with minimum/maximum, string with an anchored pattern); :func:`from_format`
draws whole answer texts: ``json.dumps`` of such a value (the separators the games and
constrained decoding write), or a full match of the regex. :func:`admits` asks the
description itself (``jsonschema`` or ``re.fullmatch``), so a test can check both
directions without trusting the generator alone; :func:`engine` builds llguidance over a
tiny tokenizer, so a test can also check that the decoding engine reads the description
the same way.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

from negotiation_env.core.answer_format import AnswerFormat

__all__ = ["from_schema", "from_format", "admits"]


def _pattern(p: str) -> str:
    assert p.startswith("^") and p.endswith("$"), p
    return p[1:-1]


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy:
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"]])
    t = schema.get("type")
    if t == "null":
        return st.none()
    if t == "integer":
        return st.integers(schema.get("minimum", 0), schema.get("maximum", 10**6))
    if t == "string":
        return st.from_regex(_pattern(schema["pattern"]), fullmatch=True) if "pattern" in schema else st.text()
    if t == "object":
        assert schema.get("additionalProperties") is False
        props = schema["properties"]
        required = set(schema.get("required", ()))

        @st.composite
        def obj(draw):
            out = {}
            for k, sub in props.items():  # in the schema's order, as the engine writes them
                if k in required or draw(st.booleans()):
                    out[k] = draw(from_schema(sub))
            return out

        return obj()
    raise AssertionError(f"schema keyword set not covered: {schema}")


def from_format(fmt: AnswerFormat) -> st.SearchStrategy[str]:
    if fmt.json_schema is not None:
        return from_schema(fmt.json_schema).map(lambda v: json.dumps(v, ensure_ascii=False))
    return st.from_regex(fmt.regex, fullmatch=True)


def admits(fmt: AnswerFormat, text: str) -> bool:
    if fmt.regex is not None:
        return re.fullmatch(fmt.regex, text) is not None
    import jsonschema

    try:
        value = json.loads(text)
    except ValueError:
        return False
    return jsonschema.Draft202012Validator(fmt.json_schema).is_valid(value)


def engine():
    """An llguidance :class:`~baselines.llm.constrained.Constrainer` over a small BPE
    tokenizer trained here (no model needed)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    from baselines.llm.constrained import Constrainer

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<pad>", "<|end|>"], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(['{"thinking": "", "speech": "Hello there.", "action": null}',
                             '{"r1": 3, "projects": {"project_a": 1}}', "Support Oppose Counter"], trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<|end|>")
    return Constrainer(fast, len(fast), [fast.eos_token_id])
