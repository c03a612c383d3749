"""A tiny randomly initialised chat model, built locally (no download), for tests and
benchmarks of the LLM back ends.

:func:`build_tiny_model` writes a complete Hugging Face model folder: a byte-level BPE
tokenizer trained on a small corpus (by default text rendered by this package's games,
so prompts compress to a few characters a token), wrapped in ``PreTrainedTokenizerFast``
with a chat template, and a randomly initialised ``LlamaForCausalLM`` (2 layers, hidden
size 64 by default). ``HFPolicy(path)`` then loads it through the same code path as a
real checkpoint. Its output is gibberish, which is the point: it exercises the envs'
retry and fallback paths.

The chat template follows the Qwen3 convention for native reasoning: with
``enable_thinking=False`` the generation prompt ends with an empty ``<think></think>``
block; with ``enable_thinking=True`` (or unset) it does not. It is prefix-preserving, as
TRL's training variants of such templates are: with ``enable_thinking=False`` every
earlier assistant message is rendered after the same empty block its generation prompt
held, so a conversation's rendering starts with the rendering of each earlier turn and
the answer sampled there. Given ``tools``, it lists
them (as JSON) in the system message and renders an assistant's ``tool_calls`` as
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` and a tool result as a
``tool`` message; without tools it renders exactly the plain conversation. The
tokenizer's ``response_template`` (:data:`RESPONSE_TEMPLATE`) parses tool calls back, as
TRL's tool-calling trainers need.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

__all__ = ["build_tiny_model", "CHAT_TEMPLATE", "RESPONSE_TEMPLATE", "SPECIAL_TOKENS"]

SPECIAL_TOKENS = ("<pad>", "<|end|>", "<|system|>", "<|user|>", "<|assistant|>", "<think>", "</think>")

CHAT_TEMPLATE = (
    "{% if tools %}<|system|>\n"
    "{% if messages and messages[0]['role'] == 'system' %}{{ messages[0]['content'] }}\n\n{% endif %}"
    "# Tools\nAnswer by calling one of these functions:\n"
    "{% for t in tools %}{{ (t['function'] if t['function'] is defined else t) | tojson }}\n{% endfor %}"
    "Call one as <tool_call>{\"name\": NAME, \"arguments\": ARGUMENTS}</tool_call><|end|>\n{% endif %}"
    "{% for m in messages %}{% if not (tools and loop.first and m['role'] == 'system') %}"
    "<|{{ m['role'] }}|>\n"
    "{% if m['role'] == 'assistant' and enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n"
    "{% endif %}{{ m['content'] if m['content'] is not none else '' }}"
    "{% if m['tool_calls'] is defined and m['tool_calls'] %}{% for c in m['tool_calls'] %}"
    "{% set f = c['function'] if c['function'] is defined else c %}"
    "<tool_call>{\"name\": {{ f['name'] | tojson }}, \"arguments\": "
    "{% if f['arguments'] is string %}{{ f['arguments'] }}{% else %}{{ f['arguments'] | tojson }}{% endif %}}"
    "</tool_call>{% endfor %}{% endif %}<|end|>\n{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n"
    "{% if enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n{% endif %}"
    "{% endif %}"
)

#: how ``tokenizer.parse_response`` reads an answer of :data:`CHAT_TEMPLATE` (transformers'
#: response-template format): reasoning in ``<think>``, tool calls as
#: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, the rest content
RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|assistant|>\n",
    "fields": {
        "reasoning_content": {"open": "<think>", "close_pattern": r"</think>\s*", "content": "text"},
        "tool_calls": {"open": "<tool_call>", "close_pattern": r"</tool_call>\s*", "repeats": True,
                       "content": "json", "transform": {"type": "function", "function": "{content}"}},
        "content": {"close_pattern": r"<\|end\|>\s*", "content": "text"},
    },
}

_FALLBACK_CORPUS = (
    'Respond with a JSON object: {"thinking": "...", "speech": "...", "action": null}. '
    "Round 1 complete. You chose A, they chose B. ACTION PHASE: Choose an action (A or B). "
    "Message received from counterpart: I intend to pursue the mutually beneficial outcome this round. "
)


def _game_corpus(limit_chars: int = 200_000) -> list[str]:
    """Prompts rendered by every registered game at reset and after a few invalid answers."""
    import negotiation_env

    texts: list[str] = []
    total = 0
    for game in negotiation_env.GAMES:
        try:
            env = negotiation_env.env(game=game)
            env.reset(seed=0)
        except Exception:  # noqa: BLE001 - a game that cannot start with defaults adds no text
            continue
        for i, agent in enumerate(env.agent_iter(max_iter=12)):
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if isinstance(obs, dict):
                for m in obs.get("conversation") or ():
                    texts.append(str(m.get("content", "")))
                    total += len(texts[-1])
            env.step("not an answer")
            if total > limit_chars:
                return texts
    return texts


def build_tiny_model(path: str | Path, *, hidden_size: int = 64, num_layers: int = 2, num_heads: int = 4,
                     vocab_size: int = 2048, max_positions: int = 16384, seed: int = 0,
                     corpus: Iterable[str] | None = None, initializer_range: float = 0.3,
                     pretokenizer: str = "bytelevel") -> Path:
    """Write a tiny random Llama chat model and its tokenizer to ``path``; return it.

    ``initializer_range`` is the standard deviation of the initial weights. The default
    0.3 is for untrained use (tests, the "before" of a benchmark): the answer then depends
    on the prompt, where the usual 0.02 gives near-uniform logits and a greedy answer of
    one repeated token. A model to be trained from scratch wants the usual 0.02: weights
    that wide saturate attention, and the model does not learn to copy from its prompt
    (4 layers, hidden size 128, copying 16 random tokens, batch 32, lr 3e-3: loss 0.013
    after 100 steps from 0.02, still 4.79, chance level, after 400 steps from 0.3).

    ``pretokenizer`` decides where BPE may not merge. ``"bytelevel"`` (default) is GPT-2's
    rule: letters, digits and punctuation are separate words, so ``r3`` is two tokens
    (``" r"``, ``"3"``) and ``project_a`` three. ``"words"`` keeps a run of letters,
    digits and underscores (with one leading space) as one word, so BPE can learn
    ``" r3"`` and ``" project_a"`` as single tokens: a model copying "3 r3" from its
    prompt then has one token to find after "3", not a shared ``" r"`` followed by a digit.

    Deterministic: the same arguments give the same weights (``seed`` initialises a
    private ``torch.Generator``-seeded fork of the RNG) and the same tokenizer."""
    try:
        import torch
        from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
        from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(f"build_tiny_model needs torch and transformers ({e}); "
                          "install the extra: pip install 'negotiation_env[llm]'") from None
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    texts = list(corpus) if corpus is not None else _game_corpus()
    texts.append(_FALLBACK_CORPUS)

    tok = Tokenizer(models.BPE())
    if pretokenizer == "bytelevel":
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    elif pretokenizer == "words":
        # the tokenizers library has no word rule that keeps letters and digits together
        # and a leading space attached, so the split is a regular expression (every
        # character lands in exactly one piece), then bytes as ByteLevel maps them
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(r" ?[A-Za-z0-9_]+| ?[^\sA-Za-z0-9_]+|\s+"), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    else:
        raise ValueError(f"pretokenizer must be 'bytelevel' or 'words', not {pretokenizer!r}")
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS), show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(texts, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<|end|>",
                                   bos_token=None, unk_token=None, padding_side="left")
    fast.chat_template = CHAT_TEMPLATE
    if hasattr(fast, "response_template"):  # transformers versions with response parsing
        fast.response_template = RESPONSE_TEMPLATE
    fast.save_pretrained(out)

    cfg = LlamaConfig(vocab_size=len(fast), hidden_size=hidden_size, intermediate_size=2 * hidden_size,
                      num_hidden_layers=num_layers, num_attention_heads=num_heads, num_key_value_heads=num_heads,
                      max_position_embeddings=max_positions, pad_token_id=fast.pad_token_id,
                      eos_token_id=fast.eos_token_id, bos_token_id=None, tie_word_embeddings=False,
                      initializer_range=initializer_range)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(cfg)
    model.generation_config.pad_token_id = fast.pad_token_id
    model.generation_config.eos_token_id = fast.eos_token_id
    model.save_pretrained(out)
    return out
