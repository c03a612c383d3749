"""Constrained decoding for the ``transformers`` back end: every generated token is one
the observation's answer format allows (:mod:`negotiation_env.core.answer_format`), so
the answer parses by construction.

The engine is `llguidance <https://github.com/guidance-ai/llguidance>`_ (the
``constrained`` extra): a JSON Schema or a regex becomes a token-level matcher over the
model's own tokenizer, and each step's allowed tokens are a bitmask computed in Rust
(all rows of a batch at once, in parallel). It is chosen over xgrammar, outlines and
lm-format-enforcer by measurement (``benchmarks/constrained_decoding.py``; the figures
are on the LLM back ends docs page): its step time is close to xgrammar's, xgrammar
writes a JSON Schema ``enum`` of objects in its own serialization, so the strict
purchase descriptions would not admit the games' own rendering of a legal purchase, and
lm-format-enforcer 0.11.3 does not import with transformers 5). It is one wheel with no Python dependency (xgrammar needs torch,
triton and tvm-ffi).

:class:`Constrainer` holds the llguidance tokenizer of one model and caches compiled
grammars by description. :meth:`Constrainer.processor` gives a ``LogitsProcessor`` for
one left-padded batch, one matcher per row (a row without a format is left free): at
each step it advances every live row's matcher by the token chosen at the previous step
and masks the disallowed tokens to ``-inf``. It runs before the policy's own per-row
sampler, so greedy decoding, temperature/top-p and per-row seeds work as without
constraints (an answer still depends only on its own prompt and seed). After the
grammar is complete only the end-of-sequence token is allowed; a row that reached the
end is not advanced further (``generate`` pads it).

JSON is generated in the form the games render it (``json.dumps``: ``", "`` between
items, ``": "`` after keys, no other whitespace), so a fine-tuned model's answers and
the constrained ones agree token for token.
"""

from __future__ import annotations

import json
import os
from typing import Any, Sequence

import numpy as np

try:
    import llguidance
    import llguidance.hf
    from llguidance import LLExecutor, LLMatcher
except ImportError as _e:  # pragma: no cover - depends on the install
    raise ImportError(f"constrained decoding needs llguidance ({_e}); "
                      "install the extra: pip install 'negotiation_env[constrained]'") from None

import torch
from transformers import LogitsProcessor

from negotiation_env.core.answer_format import AnswerFormat

__all__ = ["Constrainer", "GrammarMask", "JSON_OPTIONS", "ConstraintError"]

#: how llguidance writes JSON: as ``json.dumps`` does
JSON_OPTIONS = {"item_separator": ", ", "key_separator": ": ", "whitespace_flexible": False}


class ConstraintError(ValueError):
    """A description llguidance cannot compile (the message says which and why)."""


def grammar_of(fmt: AnswerFormat) -> str:
    """The llguidance grammar of one description."""
    if fmt.json_schema is not None:
        return LLMatcher.grammar_from_json_schema(fmt.json_schema, defaults=dict(JSON_OPTIONS))
    return LLMatcher.grammar_from_regex(fmt.regex)


class Constrainer:
    """llguidance over one Hugging Face tokenizer (module docstring).

    vocab_size: the model's logits width (may exceed the tokenizer's: the extra ids are
    never allowed). eos_ids: the ids that end an answer."""

    def __init__(self, tokenizer: Any, vocab_size: int, eos_ids: Sequence[int]):
        eos = sorted(int(i) for i in eos_ids)
        self.tokenizer = llguidance.hf.from_tokenizer(tokenizer, n_vocab=int(vocab_size), eos_token=eos)
        self.vocab_size = int(vocab_size)
        self.eos_ids = frozenset(eos)
        self._grammars: dict[str, str] = {}
        self._executor = LLExecutor(num_threads=max(1, min(8, (os.cpu_count() or 2) // 2)))

    def grammar(self, fmt: AnswerFormat) -> str:
        key = json.dumps(fmt.to_dict(), sort_keys=True)
        g = self._grammars.get(key)
        if g is None:
            g = grammar_of(fmt)
            err = LLMatcher.validate_grammar(g, self.tokenizer)
            if err and not err.startswith("WARNING"):
                raise ConstraintError(f"answer format {fmt.name!r} cannot be compiled: {err}")
            if len(self._grammars) > 256:  # one game's formats are few; a long run's are many
                self._grammars.clear()
            self._grammars[key] = g
        return g

    def matcher(self, fmt: AnswerFormat) -> LLMatcher:
        m = LLMatcher(self.tokenizer, self.grammar(fmt), log_level=0)
        if m.is_error():
            raise ConstraintError(f"answer format {fmt.name!r}: {m.get_error()}")
        return m

    def processor(self, formats: Sequence[AnswerFormat | None]) -> "GrammarMask":
        return GrammarMask([None if f is None else self.matcher(f) for f in formats], self)

    def accepts(self, fmt: AnswerFormat, text: str) -> bool:
        """Whether ``text`` (tokenized as the model would write it) is a complete answer
        of ``fmt``: for tests and checks."""
        m = self.matcher(fmt)
        ids = self.tokenizer.tokenize_str(text)
        return m.consume_tokens(ids) and m.is_accepting()


class GrammarMask(LogitsProcessor):
    """Masks each row's scores to the tokens its matcher allows (module docstring).
    ``complete[i]`` is True once row ``i``'s answer is a complete match; ``errors[i]``
    holds a matcher error, if one happened (it should not: only allowed tokens are
    sampled)."""

    def __init__(self, matchers: list[LLMatcher | None], constrainer: Constrainer):
        self.matchers = matchers
        self.c = constrainer
        self.started = False
        self.done = [m is None for m in matchers]
        self.complete = [False] * len(matchers)
        self.errors: list[str | None] = [None] * len(matchers)
        words = (constrainer.vocab_size + 31) // 32
        self._bits = torch.zeros((len(matchers), words), dtype=torch.int32)

    def _advance(self, input_ids: torch.Tensor) -> None:
        last = input_ids[:, -1].tolist()
        for i, m in enumerate(self.matchers):
            if self.done[i] or m is None:
                continue
            tok = int(last[i])
            if tok in self.c.eos_ids:
                self.done[i] = True
                self.complete[i] = m.is_accepting()
                continue
            if not m.consume_token(tok):
                self.errors[i] = m.get_error() or f"token {tok} refused"
                self.done[i] = True

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.started:
            self._advance(input_ids)
        self.started = True
        live = [(m, i) for i, m in enumerate(self.matchers) if m is not None and not self.done[i]]
        if not live:
            return scores
        self._bits.fill_(-1)  # rows left free keep every token
        self._executor_fill(live)
        bits = np.unpackbits(self._bits.numpy().view(np.uint8), axis=1, bitorder="little")
        vocab = scores.shape[-1]
        blocked = torch.from_numpy(bits[:, :vocab] == 0)
        if vocab > blocked.shape[-1]:  # logits wider than the bitmask: never allowed
            blocked = torch.cat([blocked, torch.ones((blocked.shape[0], vocab - blocked.shape[-1]), dtype=torch.bool)],
                                dim=1)
        for i, done in enumerate(self.done):  # finished rows (and free ones) are not masked
            if done:
                blocked[i] = False
        return scores.masked_fill_(blocked.to(scores.device), float("-inf"))

    def _executor_fill(self, live: list[tuple[LLMatcher, int]]) -> None:
        bits = self._bits
        self.c._executor.unsafe_compute_mask_ptr(live, bits.data_ptr(), bits.shape[1] * 4, bits.shape[0])

    def finish(self, generated: Sequence[Sequence[int]]) -> None:
        """After ``generate`` (``generated``: each row's new tokens): the last token of a
        row that did not end was never fed back to its matcher; a row cut at the token
        limit is complete only if its match is."""
        for i, m in enumerate(self.matchers):
            if m is None or self.done[i]:
                continue
            row = list(generated[i])
            if self.started and row and int(row[-1]) not in self.c.eos_ids:
                if not m.consume_token(int(row[-1])):
                    self.errors[i] = m.get_error() or f"token {row[-1]} refused"
            elif row and int(row[-1]) in self.c.eos_ids:
                self.done[i] = True
            self.complete[i] = m.is_accepting() and self.errors[i] is None
