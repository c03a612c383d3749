"""A local model through Hugging Face ``transformers`` (the ``llm`` extra).

    policy = HFPolicy("Qwen/Qwen2.5-7B-Instruct", temperature=0.8, seed=1)
    text = policy.act(observation)              # the model's raw answer; the env parses it
    texts = policy.act_batch(observations)      # one left-padded generate call

The model is loaded from a local folder or a hub id (``AutoModelForCausalLM`` and its
tokenizer), on ``device`` (``auto``: CUDA when available, else CPU) in ``dtype``
(``auto``: bfloat16 on a GPU that supports it, else float32). Prompts are the
conversation the env holds for the agent, rendered with the tokenizer's chat template.

Sampling. ``temperature=0`` is greedy decoding (deterministic; the same answer alone or
in a batch, up to floating-point effects of padding). With ``temperature > 0`` each item
of a batch is sampled from its own ``torch.Generator`` seeded with the call's seed
(:func:`negotiation_env.core.policy.call_seed` of the policy seed and the call index), so a game's
answers do not depend on which other games shared its batch; no global RNG is touched.
Temperature and top-p are applied by that sampler; the model's own generation defaults
(repetition penalty and the like) are not used.

Output budget: ``max_new_tokens`` set on the policy caps every answer; left at None (the
default), each answer is capped at its observation's ``"max_tokens"`` (the rulemaking
game's per-condition budget), else at :data:`DEFAULT_MAX_NEW_TOKENS`
(:func:`~.policy.token_budget`). A batch mixing budgets is generated in one ``generate``
call per budget. The cap and its source reach the trace step's ``tokens``.

Native reasoning: ``reasoning`` (see :mod:`.policy`) becomes the chat template's
``enable_thinking`` (Qwen3-style templates); ``<think>`` spans are split from the answer
and kept as the step's reasoning; ``reasoning_tokens`` counts the tokens through the
closing ``</think>``.

Mechanistic access (seed 002): :meth:`HFPolicy.action_probs` (first-token policy over
the valid actions, A.4; ``temperature=``: the model's distribution by default, or the
policy's sampling distribution with ``"policy"``), :meth:`HFPolicy.final_token_activations` (residual stream after
chosen decoder blocks at the final prompt token, D.1) and :meth:`HFPolicy.intervene`
(add a direction or project it out at the final prompt token, S8/S9; see
:mod:`.steering`).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import secrets
import time
from typing import Any, Callable, Iterator, Sequence

from negotiation_env.core.policy import compact_conversation
from negotiation_env.core.threads import check_threads, warn_oversubscribed

from .policy import PROBE_CONVERSATION, LLMPolicy, ProbeFailed, reasoning_requested, token_budget
from .prompting import ActionProbs, Completion, Usage, conversation_of, renormalise, split_reasoning

try:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig, LogitsProcessor, LogitsProcessorList
except ImportError as _e:  # pragma: no cover - depends on the install
    raise ImportError(f"baselines.llm.hf needs torch and transformers ({_e}); "
                      "install the extra: pip install 'negotiation_env[llm]'") from None

__all__ = ["HFPolicy", "DTYPES", "DEFAULT_MAX_NEW_TOKENS", "compact_conversation"]

DTYPES = ("auto", "float32", "bfloat16", "float16")
#: the cap of an answer when neither the policy nor the observation sets a budget
DEFAULT_MAX_NEW_TOKENS = 512


def _check_number(name: str, value: Any, lo: float, hi: float | None = None, *, lo_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"HFPolicy option {name!r} must be a number; got {value!r}")
    ok = (value > lo if lo_open else value >= lo) and (hi is None or value <= hi)
    if not ok:
        rng = f"{'(' if lo_open else '['}{lo}, {hi if hi is not None else 'inf'}{']' if hi is not None else ')'}"
        raise ValueError(f"HFPolicy option {name!r} must be in {rng}; got {value!r}")
    return float(value)


def _check_int(name: str, value: Any, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise ValueError(f"HFPolicy option {name!r} must be an integer >= {lo}; got {value!r}")
    return value


#: values of HFPolicy's ``constrained`` option (True means "strict")
CONSTRAINED = (False, True, "strict", "schema")


def _check_constrained(value: Any) -> Any:
    if value is True:
        return "strict"
    if value is None or value is False:
        return False
    if value not in ("strict", "schema"):
        raise ValueError(f"HFPolicy option 'constrained' must be true, false, 'strict' or 'schema'; got {value!r}")
    return value


class _RowSampler(LogitsProcessor):
    """Samples each row from its own generator with temperature and top-p, and returns
    scores that are 0 at the drawn token and -inf elsewhere, so that ``generate`` in
    greedy mode emits exactly the drawn token. (``generate``'s own sampling draws every
    row from the global RNG; this keeps each item's randomness its own.)"""

    def __init__(self, generators: list[torch.Generator], temperature: float, top_p: float,
                 logprobs: list[torch.Tensor] | None = None):
        self.generators = generators
        self.temperature = temperature
        self.top_p = top_p
        #: when a list: each step appends the drawn tokens' log-probabilities ``[rows]``
        self.logprobs = logprobs

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        logits = scores.float() / self.temperature
        probs = torch.softmax(logits, dim=-1)
        full = torch.log_softmax(logits, dim=-1) if self.logprobs is not None else None
        if self.top_p < 1.0:
            sorted_p, idx = torch.sort(probs, dim=-1, descending=True)
            cum = torch.cumsum(sorted_p, dim=-1)
            drop = (cum - sorted_p) >= self.top_p  # keep the smallest prefix reaching top_p
            sorted_p = sorted_p.masked_fill(drop, 0.0)
            probs = torch.zeros_like(probs).scatter(-1, idx, sorted_p)
        out = torch.full_like(scores, float("-inf"))
        drawn = []
        for i, g in enumerate(self.generators):
            tok = torch.multinomial(probs[i], 1, generator=g)
            out[i, tok] = 0.0
            drawn.append(tok)
        if full is not None:
            self.logprobs.append(full.gather(1, torch.cat(drawn)[:, None])[:, 0])
        return out


class _GreedyLogprobs(LogitsProcessor):
    """Records, at each step of greedy decoding, the log-probability (temperature 1) of
    the token ``generate`` picks (the argmax of the processed scores); the scores pass
    through unchanged."""

    def __init__(self, logprobs: list[torch.Tensor]):
        self.logprobs = logprobs

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        logits = scores.float()
        self.logprobs.append(torch.log_softmax(logits, dim=-1).gather(1, logits.argmax(dim=-1, keepdim=True))[:, 0])
        return scores


class HFPolicy(LLMPolicy):
    """A ``transformers`` causal LM answering the env's conversation (module docstring).

    model: a local folder or hub id. device: ``auto``, ``cpu``, ``cuda``, ``cuda:N``,
    ``mps``. dtype: one of :data:`DTYPES`. temperature (0 = greedy), top_p, seed:
    generation settings. max_new_tokens: the cap of every answer; None (default): the
    observation's ``"max_tokens"``, else :data:`DEFAULT_MAX_NEW_TOKENS` (module
    docstring). reasoning: see :mod:`.policy`.
    max_batch_size: the most prompts in one ``generate`` call (``act_batch`` splits
    larger batches, grouping prompts of similar length). chat_template_kwargs: extra
    keyword arguments for ``apply_chat_template``. attn_implementation,
    trust_remote_code, revision: passed to ``from_pretrained``.

    constrained: decode under the observation's answer format
    (:func:`negotiation_env.core.answer_format.answer_format`, through :mod:`.constrained`): ``True`` or
    ``"strict"``: the legal-actions-only description where the game has one, else the
    form; ``"schema"``: the form only; ``False`` (default): free decoding. An observation
    without a format (a bare prompt) is answered freely. Native reasoning is not
    generated under a constraint (the answer starts at the first token; the chat
    template is rendered with reasoning off). constrained_text_chars: cap on each
    free-text field of a constrained answer; None (default): half of the answer's
    token cap shared among the format's text fields, so that the whole answer
    fits the token budget (a token holds at least one character). Each constrained
    answer's usage has ``constrained``: ``{"format", "via": "llguidance", "complete"}``.

    context_messages: a compact prompt for small models: the model reads the system
    message and only the last ``context_messages`` messages of the conversation
    (:func:`compact_conversation`); None (default): the whole conversation the env holds.
    A model fine-tuned on compacted prompts (``benchmarks/train_sft.py --context``) must
    be played with the same setting.

    record_tokens: every :class:`~negotiation_env.core.completion.Completion` carries the
    call's ``prompt_ids``, ``completion_ids`` and sampled ``logprobs`` (what an online
    trainer needs; :meth:`from_model` turns it on). Default False.

    threads: torch's CPU threads (``torch.set_num_threads``), an integer >= 1; None
    (default): torch's default, with one logged warning when that exceeds the CPUs
    available to the process. The setting is process-global: it applies to every model
    in the process, the last policy built wins, and each worker process of
    ``run --workers N`` sets its own (N x threads in all).
    """

    name = "hf"

    def __init__(self, model: str, *, device: str = "auto", dtype: str = "auto", temperature: float = 0.7,
                 top_p: float = 1.0, max_new_tokens: int | None = None, seed: int | None = None,
                 reasoning: Any = "auto",
                 max_batch_size: int = 16, chat_template_kwargs: dict[str, Any] | None = None,
                 attn_implementation: str | None = None, trust_remote_code: bool = False,
                 revision: str | None = None, constrained: Any = False,
                 constrained_text_chars: int | None = None, context_messages: int | None = None,
                 threads: int | None = None, record_tokens: bool = False) -> None:
        self._configure(model, temperature=temperature, top_p=top_p, max_new_tokens=max_new_tokens, seed=seed,
                        reasoning=reasoning, max_batch_size=max_batch_size, chat_template_kwargs=chat_template_kwargs,
                        constrained=constrained, constrained_text_chars=constrained_text_chars,
                        context_messages=context_messages, threads=threads, record_tokens=record_tokens)
        if dtype not in DTYPES:
            raise ValueError(f"HFPolicy option 'dtype' must be one of {', '.join(DTYPES)}; got {dtype!r}")
        self.device = self._resolve_device(device)
        self.dtype = self._resolve_dtype(dtype)
        self._set_threads()
        self.revision = revision
        tokenizer = AutoTokenizer.from_pretrained(model, revision=revision, trust_remote_code=trust_remote_code)
        if tokenizer.chat_template is None:
            raise ValueError(f"the tokenizer of {model!r} has no chat template; HFPolicy needs a chat model")
        kw: dict[str, Any] = {"dtype": getattr(torch, self.dtype), "revision": revision,
                              "trust_remote_code": trust_remote_code}
        if attn_implementation:
            kw["attn_implementation"] = attn_implementation
        loaded = AutoModelForCausalLM.from_pretrained(model, **kw).to(self.device)
        loaded.eval()
        self._attach(loaded, tokenizer)

    @classmethod
    def from_model(cls, model: Any, tokenizer: Any, *, name: str | None = None, record_tokens: bool = True,
                   **generation: Any) -> "HFPolicy":
        """An HFPolicy answering with a model already in memory (one being trained, say):
        ``model`` a ``transformers`` causal LM, ``tokenizer`` its tokenizer with a chat
        template. The model is used where it is, on its device and in its dtype, and is
        never moved or copied: an update to its weights shows in the next answer. Each
        generation runs in eval mode and restores the model's training mode after. The
        tokenizer is copied (the policy pads on the left; the caller's keeps its settings).

        ``generation``: the generation options of :class:`HFPolicy` (``temperature``,
        ``top_p``, ``max_new_tokens``, ``seed``, ``reasoning``, ``max_batch_size``,
        ``chat_template_kwargs``, ``constrained``, ``constrained_text_chars``,
        ``context_messages``, ``threads``). ``name``: the model's name in traces (default:
        the config's ``_name_or_path``, else the class name). ``record_tokens`` (default
        True): every :class:`~negotiation_env.core.completion.Completion` carries its
        ``prompt_ids``, ``completion_ids`` and ``logprobs``."""
        allowed = {"temperature", "top_p", "max_new_tokens", "seed", "reasoning", "max_batch_size",
                   "chat_template_kwargs", "constrained", "constrained_text_chars", "context_messages", "threads"}
        unknown = sorted(set(generation) - allowed)
        if unknown:
            raise ValueError(f"HFPolicy.from_model: unknown option(s) {', '.join(map(repr, unknown))}; "
                             f"allowed: {', '.join(sorted(allowed))}")
        if not isinstance(model, torch.nn.Module) or not callable(getattr(model, "generate", None)):
            raise ValueError(f"HFPolicy.from_model needs a transformers causal LM (a torch module with generate()); "
                             f"got {type(model).__name__}")
        if getattr(tokenizer, "chat_template", None) is None:
            raise ValueError("HFPolicy.from_model: the tokenizer has no chat template; HFPolicy needs a chat model")
        if name is None:
            name = getattr(getattr(model, "config", None), "_name_or_path", None) or type(model).__name__
        self = cls.__new__(cls)
        self._configure(str(name), record_tokens=record_tokens, **generation)
        self.device = str(model.device)
        self.dtype = str(model.dtype).removeprefix("torch.")
        self._set_threads()
        self.revision = None
        self._attach(model, copy.deepcopy(tokenizer))
        return self

    def _configure(self, model_name: str, *, temperature: float = 0.7, top_p: float = 1.0,
                   max_new_tokens: int | None = None, seed: int | None = None, reasoning: Any = "auto",
                   max_batch_size: int = 16, chat_template_kwargs: dict[str, Any] | None = None,
                   constrained: Any = False, constrained_text_chars: int | None = None,
                   context_messages: int | None = None, threads: int | None = None,
                   record_tokens: bool = False) -> None:
        """Check and keep the generation options (everything but where the model comes from)."""
        super().__init__(seed=seed, reasoning=reasoning)
        if threads is not None:
            try:
                check_threads(threads)
            except ValueError:
                raise ValueError(f"HFPolicy option 'threads' must be an integer >= 1; got {threads!r}") from None
        self.threads = threads
        self.constrained = _check_constrained(constrained)
        if constrained_text_chars is not None:
            _check_int("constrained_text_chars", constrained_text_chars, 1)
        self.constrained_text_chars = constrained_text_chars
        if context_messages is not None:
            _check_int("context_messages", context_messages, 1)
        self.context_messages = context_messages
        if not isinstance(model_name, str) or not model_name:
            raise ValueError(f"HFPolicy needs a model path or hub id; got {model_name!r}")
        self.model_name = model_name
        self.temperature = _check_number("temperature", temperature, 0.0)
        self.top_p = _check_number("top_p", top_p, 0.0, 1.0, lo_open=True)
        self.max_new_tokens = None if max_new_tokens is None else _check_int("max_new_tokens", max_new_tokens, 1)
        self.max_batch_size = _check_int("max_batch_size", max_batch_size, 1)
        if chat_template_kwargs is not None and not isinstance(chat_template_kwargs, dict):
            raise ValueError(f"HFPolicy option 'chat_template_kwargs' must be a mapping; got {chat_template_kwargs!r}")
        self.chat_template_kwargs = dict(chat_template_kwargs or {})
        if not isinstance(record_tokens, bool):
            raise ValueError(f"HFPolicy option 'record_tokens' must be true or false; got {record_tokens!r}")
        self.record_tokens = record_tokens

    def _set_threads(self) -> None:
        if self.threads is not None:
            torch.set_num_threads(self.threads)
        elif self.device == "cpu":
            warn_oversubscribed(torch.get_num_threads())

    def _attach(self, model: Any, tokenizer: Any) -> None:
        """Take ``model`` and ``tokenizer`` (this policy's own: it sets left padding)."""
        self.tokenizer = tokenizer
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model = model
        self._eos = self._eos_ids()
        self._think_close = self._single_token("</think>")
        self._interventions: list[tuple[Any, Callable[[Any], bool] | None]] = []
        self._layers_cache: Any = None
        self._keep_last = "logits_to_keep" in inspect.signature(self.model.forward).parameters
        self._constrainer: Any = None
        self._formats: dict[str, Any] = {}
        if self.constrained:
            from .constrained import Constrainer

            vocab = int(self.model.get_output_embeddings().weight.shape[0])
            self._constrainer = Constrainer(self.tokenizer, vocab, sorted(self._eos))

    # ------------------------------------------------------------------ setup

    @staticmethod
    def _resolve_device(device: str) -> str:
        if not isinstance(device, str):
            raise ValueError(f"HFPolicy option 'device' must be a string; got {device!r}")
        if device == "auto":
            if torch.cuda.is_available():
                return "cuda"
            return "cpu"
        if device == "cpu" or device == "mps" or device == "cuda" or device.startswith("cuda:"):
            if device.startswith("cuda") and not torch.cuda.is_available():
                raise ValueError(f"HFPolicy option 'device' is {device!r} but CUDA is not available here")
            return device
        raise ValueError(f"HFPolicy option 'device' must be auto, cpu, cuda, cuda:N or mps; got {device!r}")

    def _resolve_dtype(self, dtype: str) -> str:
        if dtype != "auto":
            return dtype
        if self.device.startswith("cuda") and torch.cuda.is_bf16_supported():
            return "bfloat16"
        return "float32"

    def _eos_ids(self) -> set[int]:
        ids: set[int] = set()
        for src in (getattr(self.model.generation_config, "eos_token_id", None), self.tokenizer.eos_token_id):
            if isinstance(src, int):
                ids.add(src)
            elif isinstance(src, (list, tuple)):
                ids.update(int(x) for x in src)
        if not ids:
            raise ValueError(f"the model {self.model_name!r} defines no end-of-sequence token")
        return ids

    def _single_token(self, text: str) -> int | None:
        ids = self.tokenizer.encode(text, add_special_tokens=False)
        return ids[0] if len(ids) == 1 else None

    def settings(self) -> dict[str, Any]:
        return {"model": self.model_name, "revision": self.revision, "device": self.device, "dtype": self.dtype,
                "temperature": self.temperature, "top_p": self.top_p, "max_new_tokens": self.max_new_tokens,
                "reasoning": self.reasoning, "max_batch_size": self.max_batch_size,
                "chat_template_kwargs": dict(self.chat_template_kwargs), "constrained": self.constrained,
                "constrained_text_chars": self.constrained_text_chars, "context_messages": self.context_messages,
                "threads": self.threads}

    def __repr__(self) -> str:
        return (f"HFPolicy({self.model_name!r}, device={self.device!r}, dtype={self.dtype!r}, "
                f"temperature={self.temperature}, top_p={self.top_p}, max_new_tokens={self.max_new_tokens}, "
                f"seed={self.seed})")

    # ------------------------------------------------------------------ prompts

    def render(self, conversation: list[dict[str, str]], think: bool | None = None) -> str:
        """The prompt text for ``conversation`` (chat template, generation prompt)."""
        kw = dict(self.chat_template_kwargs)
        if think is not None:
            kw["enable_thinking"] = think
        return self.tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True, **kw)

    def _encode(self, prompts: list[str | list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """The batch's ids and attention mask, left-padded: a prompt is its text (tokenized
        here) or its token ids (taken as they are)."""
        if all(isinstance(p, str) for p in prompts):
            enc = self.tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        else:
            rows = [self.encode(p) if isinstance(p, str) else list(p) for p in prompts]
            enc = self.tokenizer.pad({"input_ids": rows}, return_tensors="pt", padding=True)
        return enc["input_ids"].to(self.device), enc["attention_mask"].to(self.device)

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text`` as a prompt holds it (no special tokens added; a
        special token's text inside it is that token)."""
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``, special tokens included, with no clean-up of spaces: the
        inverse of :meth:`encode` on the tokens a prompt or completion holds."""
        return self.tokenizer.decode(list(ids), skip_special_tokens=False, clean_up_tokenization_spaces=False)

    def prompt_text(self, observation: Any) -> str:
        """The prompt this policy reads for ``observation``: the chat-template rendering of
        its conversation (history window and reasoning switch applied, as :meth:`complete`
        renders it)."""
        think = reasoning_requested(observation, self.reasoning)
        if self.constrained and think and self._format(observation) is not None:
            think = False
        return self.render(compact_conversation(conversation_of(observation), self.context_messages), think)

    def _limit(self) -> int | None:
        n = getattr(self.model.config, "max_position_embeddings", None)
        return int(n) if isinstance(n, int) else None

    def _prompts(self, observations: Sequence[Any]) -> list[str]:
        return [self.render(compact_conversation(conversation_of(o), self.context_messages),
                            reasoning_requested(o, self.reasoning)) for o in observations]

    # ------------------------------------------------------------------ generation

    def output_budget(self, observation: Any) -> tuple[int, str]:
        """``(cap, source)`` of the answer to ``observation`` (:func:`~.policy.token_budget`)."""
        cap, source = token_budget(observation, self.max_new_tokens, DEFAULT_MAX_NEW_TOKENS)
        assert cap is not None
        return cap, source

    def _format(self, observation: Any) -> Any:
        """The answer format this policy decodes ``observation`` under (None: free)."""
        if not self.constrained:
            return None
        from negotiation_env.core.answer_format import OBS_KEY, answer_format

        key = observation.get(OBS_KEY) if isinstance(observation, dict) else None
        if not key:
            return None
        cap = self.output_budget(observation)[0]
        cache = self._formats
        if (key, cap) in cache:
            return cache[(key, cap)]
        strict = self.constrained == "strict"
        fmt = answer_format(observation).best(strict)
        chars = self.constrained_text_chars
        if chars is None and fmt.text_fields:
            chars = max(1, cap // (2 * fmt.text_fields))
        if chars is not None and fmt.text_fields:
            fmt = answer_format(observation, text_chars=chars).best(strict)
        if len(cache) > 512:
            cache.clear()
        cache[(key, cap)] = fmt
        return fmt

    #: :meth:`complete` takes ``prompt_ids``: token ids to generate from instead of the rendering
    takes_prompt_ids = True

    def _complete(self, observations, conversations, think, seeds, prompt_ids=None):
        if self.constrained:  # the answer is constrained from its first token: no reasoning span
            think = [False if t and self._format(o) is not None else t for o, t in zip(observations, think)]
        prompts: list[Any] = [self.render(compact_conversation(c, self.context_messages), t)
                              if prompt_ids is None or prompt_ids[i] is None else list(prompt_ids[i])
                              for i, (c, t) in enumerate(zip(conversations, think))]
        lengths = [len(p) if isinstance(p, list) else len(self.tokenizer(p, add_special_tokens=False)["input_ids"])
                   for p in prompts]
        budgets = [self.output_budget(o) for o in observations]
        out: list[Completion | None] = [None] * len(prompts)
        limit = self._limit()
        ok = []
        for i, n in enumerate(lengths):
            cap, source = budgets[i]
            if limit is not None and n + cap > limit:
                out[i] = self._no_tokens(prompts[i], Completion(text="", failed=True, usage=Usage(prompt_tokens=n), faults=[{
                    "kind": "prompt_too_long", "attempt": 1,
                    "message": f"prompt of {n} tokens + max_new_tokens={cap} exceeds the model's "
                               f"{limit} positions"}], max_tokens=cap, budget_from=source))
            else:
                ok.append(i)
        # one generate call per budget (max_new_tokens is one setting per call); within it,
        # similar lengths share a call (less padding); results go back in order
        ok.sort(key=lambda i: (budgets[i][0], lengths[i]))
        start = 0
        while start < len(ok):
            cap = budgets[ok[start]][0]
            chunk = [i for i in ok[start:start + self.max_batch_size] if budgets[i][0] == cap]
            for i, c in zip(chunk, self._generate([prompts[i] for i in chunk], [seeds[i] for i in chunk],
                                                  [observations[i] for i in chunk], cap)):
                c.max_tokens, c.budget_from = budgets[i]
                out[i] = c
            start += len(chunk)
        return [c for c in out if c is not None]

    def _no_tokens(self, prompt: str, completion: Completion) -> Completion:
        """``completion`` (of a call that generated nothing) with its prompt's tokens and
        no completion tokens, when this policy records tokens."""
        if self.record_tokens:
            completion.prompt_ids = list(prompt) if isinstance(prompt, list) else self.encode(prompt)
            completion.completion_ids, completion.logprobs = [], []
        return completion

    @contextlib.contextmanager
    def _eval_mode(self) -> Iterator[None]:
        """The model in eval mode for a generation, its own mode restored after (a model
        being trained, :meth:`from_model`, goes back to training mode)."""
        training = self.model.training
        if training:
            self.model.eval()
        try:
            yield
        finally:
            if training:
                self.model.train()

    @torch.no_grad()
    def _generate(self, prompts: list[Any], seeds: list[int | None], observations: list[Any],
                  max_new_tokens: int) -> list[Completion]:
        t0 = time.perf_counter()
        ids, mask = self._encode(prompts)
        cfg = GenerationConfig(max_new_tokens=max_new_tokens, do_sample=False, num_beams=1,
                               pad_token_id=self.tokenizer.pad_token_id, eos_token_id=sorted(self._eos))
        procs = LogitsProcessorList()
        steps: list[torch.Tensor] | None = [] if self.record_tokens else None
        if self.temperature > 0:
            gens = []
            for s in seeds:
                g = torch.Generator(device=self.device)
                g.manual_seed(s if s is not None else secrets.randbits(63))
                gens.append(g)
            procs.append(_RowSampler(gens, self.temperature, self.top_p, steps))
        elif steps is not None:
            procs.append(_GreedyLogprobs(steps))
        formats = [self._format(o) for o in observations] if self.constrained else [None] * len(prompts)
        grammar = None
        if any(f is not None for f in formats):
            grammar = self._constrainer.processor(formats)
            procs.insert(0, grammar)  # before the sampler: it draws among the allowed tokens
        with self._hooks(observations), self._eval_mode():
            seq = self.model.generate(input_ids=ids, attention_mask=mask, generation_config=cfg,
                                      logits_processor=procs)
        new = seq[:, ids.shape[1]:].tolist()
        step_logprobs = torch.stack(steps, dim=1).tolist() if steps else [[] for _ in prompts]
        if grammar is not None:
            grammar.finish(new)
        prompt_lens = mask.sum(dim=1).tolist()
        seconds = (time.perf_counter() - t0) / max(1, len(prompts))
        out = []
        for k, (row, n_prompt) in enumerate(zip(new, prompt_lens)):
            cut = next((k for k, t in enumerate(row) if t in self._eos), None)
            gen = row if cut is None else row[:cut + 1]
            # everything sampled but the end token (a padding token the model sampled is part
            # of its text: the answer is what it generated)
            body = [t for t in gen if t not in self._eos]
            raw = self.tokenizer.decode(body, skip_special_tokens=False)
            text, reasoning = split_reasoning(raw)
            reasoning_tokens = None
            if self._think_close is not None and self._think_close in gen:
                reasoning_tokens = gen.index(self._think_close) + 1
            elif reasoning:
                reasoning_tokens = len(self.tokenizer.encode(reasoning, add_special_tokens=False))
            finish = "stop" if cut is not None else "length"
            faults = []
            if finish == "length":
                faults.append({"kind": "length", "attempt": 1,
                               "message": f"the answer was cut at max_new_tokens={max_new_tokens}"})
            constrained = None
            if formats[k] is not None:
                constrained = {"format": formats[k].name, "via": "llguidance", "complete": bool(grammar.complete[k])}
                if grammar.errors[k]:
                    faults.append({"kind": "constraint", "attempt": 1, "message": grammar.errors[k]})
            comp = Completion(text=text, reasoning=reasoning, raw=raw, finish_reason=finish, seconds=seconds,
                              usage=Usage(prompt_tokens=int(n_prompt), completion_tokens=len(gen),
                                          reasoning_tokens=reasoning_tokens), faults=faults,
                              constrained=constrained)
            if self.record_tokens:
                comp.prompt_ids = ids[k, ids.shape[1] - int(n_prompt):].tolist()
                comp.completion_ids = list(gen)
                comp.logprobs = [float(x) for x in step_logprobs[k][:len(gen)]]
            out.append(comp)
        return out

    @torch.no_grad()
    def probe(self) -> dict[str, Any]:
        """One greedy token on a tiny prompt (:data:`~.policy.PROBE_CONVERSATION`) through
        the chat template, tokenizer and ``generate``, as play will: the runner calls it
        once before the first game so that a model that cannot generate here (device,
        dtype, template, memory) stops the run instead of erroring every game. Touches no
        seed or call counter. Returns ``{"model", "device", "dtype", "seconds"}``; raises
        :class:`~.policy.ProbeFailed`."""
        t0 = time.perf_counter()
        try:
            ids, mask = self._encode([self.render([dict(m) for m in PROBE_CONVERSATION])])
            cfg = GenerationConfig(max_new_tokens=1, do_sample=False, num_beams=1,
                                   pad_token_id=self.tokenizer.pad_token_id, eos_token_id=sorted(self._eos))
            seq = self.model.generate(input_ids=ids, attention_mask=mask, generation_config=cfg)
        except Exception as e:  # noqa: BLE001 - whatever stops generation stops the run
            raise ProbeFailed(f"{self.model_name} on {self.device} ({self.dtype}): a one-token generation failed: "
                              f"{type(e).__name__}: {e}") from e
        if seq.shape[1] <= ids.shape[1]:
            raise ProbeFailed(f"{self.model_name} on {self.device}: a one-token generation returned no token")
        return {"model": self.model_name, "device": self.device, "dtype": self.dtype,
                "seconds": round(time.perf_counter() - t0, 3)}

    # ------------------------------------------------------------------ log-probabilities

    def choice_token_ids(self, choices: Sequence[str]) -> list[int]:
        """The first token of each choice as the answer's first token; raises
        ``ValueError`` when two choices share it."""
        ids = []
        for c in choices:
            toks = self.tokenizer.encode(c, add_special_tokens=False)
            if not toks:
                raise ValueError(f"choice {c!r} encodes to no token")
            ids.append(toks[0])
        if len(set(ids)) != len(ids):
            raise ValueError(f"choices {list(choices)!r} share a first token; action_probs cannot tell them apart")
        return ids

    @torch.no_grad()
    def next_token_logits(self, observations: Sequence[Any]) -> torch.Tensor:
        """``[n, vocab]`` float32 logits of the first answer token for each observation
        (one forward pass; active interventions apply)."""
        obs = list(observations)
        prompts = self._prompts(obs)
        rows = []
        for start in range(0, len(prompts), self.max_batch_size):
            ids, mask = self._encode(prompts[start:start + self.max_batch_size])
            with self._hooks(obs[start:start + self.max_batch_size]):
                logits = self._forward(ids, mask).logits[:, -1, :]
            rows.append(logits.float().cpu())
        return torch.cat(rows, dim=0)

    def _forward(self, ids: torch.Tensor, mask: torch.Tensor) -> Any:
        """One forward pass computing logits at the last position only."""
        if self._keep_last:
            return self.model(input_ids=ids, attention_mask=mask, logits_to_keep=1)
        return self.model(input_ids=ids, attention_mask=mask)

    def _probs_temperature(self, temperature: Any) -> float:
        if temperature is None:
            return 1.0
        if temperature == "policy":
            if self.temperature <= 0:
                raise ValueError("action_probs temperature='policy' needs a sampling policy (temperature > 0); "
                                 "greedy decoding has no distribution to report")
            return self.temperature
        return _check_number("temperature", temperature, 0.0, lo_open=True)

    def action_probs_batch(self, observations: Sequence[Any], choices: Sequence[str] = ("A", "B"), *,
                           temperature: float | str | None = None) -> list[ActionProbs]:
        """:meth:`action_probs` for many observations in batched forward passes."""
        choices = tuple(choices)
        tok = self.choice_token_ids(choices)
        t = self._probs_temperature(temperature)
        logp = torch.log_softmax(self.next_token_logits(observations) / t, dim=-1)[:, tok].tolist()
        return [renormalise(dict(zip(choices, row)), choices) for row in logp]

    def action_probs(self, observation: Any, choices: Sequence[str] = ("A", "B"), *,
                     temperature: float | str | None = None) -> ActionProbs:
        """Renormalised first-token probabilities over the valid action tokens (seed
        002, Eq. S2): ``p(c) = exp(l_c) / sum_k exp(l_k)`` with ``l`` the first-token
        log-probabilities of each choice's first token.

        ``temperature``: the log-probabilities are those of ``softmax(logits / T)``.
        None (default): T = 1, the model's own distribution, which is what the paper's
        Ollama replay returned (Ollama computes log-probabilities from the raw logits,
        whatever the request's temperature:
        https://github.com/ollama/ollama/issues/16196) and what
        OpenAI-compatible servers return; ``"policy"``: the policy's own sampling
        temperature (the distribution its answers are drawn from, before top-p; an
        error for a greedy policy); a number > 0: that T. ``logprobs`` and ``margin``
        are then on that scale (the margin is the logit margin divided by T)."""
        return self.action_probs_batch([observation], choices, temperature=temperature)[0]

    # ------------------------------------------------------------------ activations and interventions

    def decoder_layers(self) -> Any:
        """The model's list of decoder blocks (``model.model.layers`` for Llama/Qwen)."""
        if self._layers_cache is None:
            n = getattr(self.model.config, "num_hidden_layers", None)
            for path in ("model.layers", "transformer.h", "gpt_neox.layers", "model.decoder.layers"):
                obj = self.model
                for part in path.split("."):
                    obj = getattr(obj, part, None)
                    if obj is None:
                        break
                if isinstance(obj, torch.nn.ModuleList) and (n is None or len(obj) == n):
                    self._layers_cache = obj
                    break
            else:
                for mod in self.model.modules():
                    if isinstance(mod, torch.nn.ModuleList) and len(mod) == n:
                        self._layers_cache = mod
                        break
            if self._layers_cache is None:
                raise ValueError(f"cannot find the decoder layers of {type(self.model).__name__}")
        return self._layers_cache

    def _layer(self, layer: int) -> Any:
        layers = self.decoder_layers()
        if isinstance(layer, bool) or not isinstance(layer, int) or not 1 <= layer <= len(layers):
            raise ValueError(f"layer must be an integer in [1, {len(layers)}] (the output of decoder block "
                             f"'layer', 1-based); got {layer!r}")
        return layers[layer - 1]

    @torch.no_grad()
    def final_token_activations(self, observations: Sequence[Any], layers: Sequence[int]) -> dict[int, torch.Tensor]:
        """``{layer: [n, hidden]}`` float32 residual-stream activations after decoder block
        ``layer`` (1-based, as ``hidden_states[layer]``) at the final prompt token, i.e.
        just before the first answer token is generated (seed 002, D.1)."""
        obs = list(observations)
        prompts = self._prompts(obs)
        store: dict[int, list[torch.Tensor]] = {int(l): [] for l in layers}
        handles = []

        def grab(layer):
            def hook(_mod, _inp, output):
                h = output[0] if isinstance(output, tuple) else output
                store[layer].append(h[:, -1, :].float().cpu())
            return hook

        for start in range(0, len(prompts), self.max_batch_size):
            ids, mask = self._encode(prompts[start:start + self.max_batch_size])
            # interventions first, so that a block's capture sees its intervened output
            with self._hooks(obs[start:start + self.max_batch_size]):
                handles = [self._layer(l).register_forward_hook(grab(l)) for l in store]
                try:
                    self._forward(ids, mask)
                finally:
                    for h in handles:
                        h.remove()
        return {l: torch.cat(v, dim=0) for l, v in store.items()}

    @contextlib.contextmanager
    def intervene(self, *interventions: Any, when: Callable[[Any], bool] | None = None) -> Iterator["HFPolicy"]:
        """Within the block, apply each intervention (:class:`~.steering.Steer`,
        :class:`~.steering.Ablate`) at the final prompt token of every call whose
        observation satisfies ``when`` (default: every call): generation (``act``,
        ``act_batch``), :meth:`action_probs` and :meth:`final_token_activations`.
        Interventions stack; leaving the block removes these ones."""
        for iv in interventions:
            self._layer(iv.layer)
            if int(iv.direction.numel()) != int(self.model.config.hidden_size):
                raise ValueError(f"intervention direction has {iv.direction.numel()} entries; the model's hidden size "
                                 f"is {self.model.config.hidden_size}")
        added = [(iv, when) for iv in interventions]
        self._interventions.extend(added)
        try:
            yield self
        finally:
            for a in added:
                self._interventions.remove(a)

    @contextlib.contextmanager
    def _hooks(self, rows: Sequence[Any]) -> Iterator[None]:
        """Register the active interventions for one forward pass or generate call over
        the observations ``rows`` (``when`` looks at them). Each hook acts once, on the
        first forward pass (the prompt), at the last position: the final prompt token."""
        if not self._interventions:
            yield
            return
        handles = []
        try:
            for iv, when in self._interventions:
                mask = [True if when is None else bool(when(r)) for r in rows]
                if not any(mask):
                    continue
                handles.append(self._layer(iv.layer).register_forward_hook(self._make_hook(iv, mask)))
            yield
        finally:
            for h in handles:
                h.remove()

    def _make_hook(self, iv: Any, mask: list[bool]) -> Callable:
        state = {"done": False}
        rows = torch.tensor(mask, device=self.device)

        def hook(_mod, _inp, output):
            if state["done"]:
                return None
            state["done"] = True
            h = output[0] if isinstance(output, tuple) else output
            last = h[:, -1, :]
            new_last = torch.where(rows[:, None], iv.apply(last), last)
            h = torch.cat([h[:, :-1, :], new_last[:, None, :]], dim=1)
            return (h,) + tuple(output[1:]) if isinstance(output, tuple) else h

        return hook
