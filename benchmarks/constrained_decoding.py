"""Overhead of constrained decoding per generated token, by library, on the tiny model.

Run from the repository root (needs the ``llm`` extra and the libraries to compare):

    pip install llguidance xgrammar outlines lm-format-enforcer
    python -m benchmarks.constrained_decoding
    python -m benchmarks.constrained_decoding --quick    # smoke run

What it measures. One tiny random Llama chat model (:func:`baselines.llm.tiny.build_tiny_model`,
hidden 64, 2 layers: the model costs little, so the constraint's own cost shows) answers
the resource game's thinking-on decision prompt (``mc080_1``) with greedy decoding under
the game's JSON Schema for it (:mod:`negotiation_env.games.resource.answer_schema`:
``thinking`` and ``speech`` strings without a length cap, then a purchase object; every
library below compiles it), for at most ``--tokens`` new tokens at batch sizes 1 and 8
(left-padded, one ``generate`` call; the random model rarely closes the free ``thinking``
string, so most calls run to the limit). Each setting is timed ``--repeats`` times after
one warm-up; the table gives the median milliseconds per generation step (wall time /
steps of the longest row) and the overhead over free decoding. A second table says which of the games' descriptions each library compiles
(the strict ``enum`` of purchase objects, the rulemaking notebook's sentence patterns,
the thinking-off talk regex).

Libraries, each through its own transformers integration:

* ``llguidance``: ours, :class:`baselines.llm.constrained.GrammarMask` (one matcher per
  row, masks computed in one parallel call);
* ``xgrammar``: ``xgrammar.contrib.hf.LogitsProcessor`` over compiled grammars;
* ``outlines``: ``outlines.backends`` JSON-schema logits processor (outlines-core);
* ``lm-format-enforcer``: ``build_transformers_prefix_allowed_tokens_fn`` with a
  ``JsonSchemaParser``.

Writes ``benchmarks/results/constrained_decoding.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import PACKAGES, machine_info, write_result

LIBRARIES = ("none", "llguidance", "xgrammar", "outlines", "lm-format-enforcer")


def _formats():
    """(name, AnswerFormat) of the descriptions the compile table checks."""
    import negotiation_env
    from negotiation_env.core.answer_format import answer_format

    out = []
    for game, config, steps in [("resource", {"thinking": False, "scenario": "mc080_1", "theme": None}, 0),
                                ("resource", {"thinking": False, "scenario": "mc080_1", "theme": None,
                                              "cheap_talk": False}, 0),
                                ("resource", {"thinking": True, "scenario": "mc080_1", "theme": None}, 0),
                                ("rulemaking", {"condition": "ledger"}, 0), ("matrix", {}, 2)]:
        env = negotiation_env.env(game=game, **config)
        env.reset(seed=0)
        for _ in range(steps):
            env.step("A.")
        f = answer_format(env.observe(env.agent_selection), text_chars=64)
        out.append((f.name, f))
        if f.strict is not None:
            out.append((f.strict.name, f.strict))
    return out


def _decision_prompt() -> tuple[Any, Any]:
    """The thinking-on decision observation and its format (a JSON Schema: free-text
    thinking and speech without a length cap, then a purchase object)."""
    import negotiation_env
    from negotiation_env.core.answer_format import answer_format

    env = negotiation_env.env(game="resource", scenario="mc080_1", theme=None, thinking=True, cheap_talk=False)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    return obs, answer_format(obs)


def _processors(lib: str, tok, model, schema: dict, n: int) -> tuple[list, dict]:
    """(logits processors, extra generate kwargs) of one library for ``n`` rows."""
    import torch  # noqa: F401

    if lib == "none":
        return [], {}
    if lib == "llguidance":
        from baselines.llm.constrained import Constrainer
        from negotiation_env.core.answer_format import AnswerFormat

        c = Constrainer(tok, model.get_output_embeddings().weight.shape[0], [tok.eos_token_id])
        return [c.processor([AnswerFormat("bench", json_schema=schema)] * n)], {}
    if lib == "xgrammar":
        import xgrammar as xgr

        info = xgr.TokenizerInfo.from_huggingface(tok, vocab_size=model.get_output_embeddings().weight.shape[0])
        compiled = xgr.GrammarCompiler(info).compile_json_schema(json.dumps(schema), any_whitespace=False,
                                                                 separators=(", ", ": "))
        return [xgr.contrib.hf.LogitsProcessor([compiled] * n)], {}
    if lib == "outlines":
        import outlines
        from outlines.backends import get_json_schema_logits_processor

        om = outlines.from_transformers(model, tok)
        return [get_json_schema_logits_processor("outlines_core", om, json.dumps(schema))], {}
    if lib == "lm-format-enforcer":
        from lmformatenforcer import JsonSchemaParser
        from lmformatenforcer.integrations.transformers import build_transformers_prefix_allowed_tokens_fn

        fn = build_transformers_prefix_allowed_tokens_fn(tok, JsonSchemaParser(schema))
        return [], {"prefix_allowed_tokens_fn": fn}
    raise ValueError(lib)


def _time(lib: str, tok, model, prompts: list[str], schema: dict, tokens: int, repeats: int) -> dict[str, Any]:
    import torch
    from transformers import GenerationConfig, LogitsProcessorList

    enc = tok(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
    cfg = GenerationConfig(max_new_tokens=tokens, do_sample=False, num_beams=1,
                           pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id)
    per_step = []
    steps = []
    for k in range(repeats + 1):
        procs, extra = _processors(lib, tok, model, schema, len(prompts))  # fresh matchers per call
        t0 = time.perf_counter()
        with torch.no_grad():
            out = model.generate(**enc, generation_config=cfg, logits_processor=LogitsProcessorList(procs), **extra)
        seconds = time.perf_counter() - t0
        n = out.shape[1] - enc["input_ids"].shape[1]  # generate steps (the longest row)
        if k:  # the first call warms up (and compiles where a library compiles lazily)
            per_step.append(seconds / max(1, n))
            steps.append(int(n))
    return {"ms_per_token": 1000 * statistics.median(per_step), "steps": steps}


def _compiles(lib: str, tok, model, fmt) -> str:
    try:
        if lib == "llguidance":
            from baselines.llm.constrained import Constrainer

            Constrainer(tok, model.get_output_embeddings().weight.shape[0], [tok.eos_token_id]).grammar(fmt)
        elif lib == "xgrammar":
            import xgrammar as xgr

            comp = xgr.GrammarCompiler(xgr.TokenizerInfo.from_huggingface(tok, vocab_size=len(tok)))
            if fmt.json_schema is not None:
                comp.compile_json_schema(json.dumps(fmt.json_schema), any_whitespace=False, separators=(", ", ": "))
            else:
                comp.compile_regex(fmt.regex)
        elif lib == "outlines":
            import outlines_core

            if fmt.json_schema is not None:
                outlines_core.json_schema.build_regex_from_schema(json.dumps(fmt.json_schema))
            else:
                import re

                re.compile(fmt.regex)
        elif lib == "lm-format-enforcer":
            from lmformatenforcer import JsonSchemaParser, RegexParser

            JsonSchemaParser(fmt.json_schema) if fmt.json_schema is not None else RegexParser(fmt.regex)
        return "yes"
    except Exception as e:  # noqa: BLE001 - the table reports what each library refuses
        return f"no ({type(e).__name__}: {str(e)[:60]})"


def _check_accepts(lib: str, tok, model, fmt, text: str) -> bool | None:
    """Whether the library's matcher accepts ``text`` whole (only where it has a matcher API)."""
    try:
        if lib == "llguidance":
            from baselines.llm.constrained import Constrainer

            return Constrainer(tok, model.get_output_embeddings().weight.shape[0], [tok.eos_token_id]).accepts(fmt, text)
        if lib == "xgrammar":
            import xgrammar as xgr

            comp = xgr.GrammarCompiler(xgr.TokenizerInfo.from_huggingface(tok, vocab_size=len(tok)))
            cg = (comp.compile_json_schema(json.dumps(fmt.json_schema), any_whitespace=False, separators=(", ", ": "))
                  if fmt.json_schema is not None else comp.compile_regex(fmt.regex))
            m = xgr.GrammarMatcher(cg)
            return all(m.accept_token(t) for t in tok.encode(text, add_special_tokens=False)) and \
                m.accept_token(tok.eos_token_id)
    except Exception:  # noqa: BLE001
        return False
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", type=int, default=48)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="tokens 8, repeats 1, batch 1 only")
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    if args.quick:
        args.tokens, args.repeats = 8, 1
    import importlib.util

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from baselines.llm.tiny import build_tiny_model

    torch.set_num_threads(args.threads)
    libs = [lib for lib in LIBRARIES if lib == "none" or importlib.util.find_spec(
        {"lm-format-enforcer": "lmformatenforcer"}.get(lib, lib)) is not None]
    with tempfile.TemporaryDirectory() as tmp:
        path = build_tiny_model(Path(tmp) / "m")
        tok = AutoTokenizer.from_pretrained(path)
        tok.padding_side = "left"
        model = AutoModelForCausalLM.from_pretrained(path).eval()
        obs, fmt = _decision_prompt()
        prompt = tok.apply_chat_template(list(obs["conversation"]), tokenize=False, add_generation_prompt=True,
                                         enable_thinking=False)
        schema = fmt.json_schema
        rows = []
        for batch in ((1,) if args.quick else (1, 8)):
            base = None
            for lib in libs:
                try:
                    r = _time(lib, tok, model, [prompt] * batch, schema, args.tokens, args.repeats)
                except Exception as e:  # noqa: BLE001 - a library that does not run here is a row too
                    rows.append({"library": lib, "batch": batch, "ms_per_token": None, "overhead_ms_per_token": None,
                                 "relative": None, "error": f"{type(e).__name__}: {str(e)[:120]}"})
                    continue
                base = r["ms_per_token"] if lib == "none" else base
                rows.append({"library": lib, "batch": batch, **r,
                             "overhead_ms_per_token": r["ms_per_token"] - base,
                             "relative": r["ms_per_token"] / base})
        canonical = json.dumps({"r2": 2, "r3": 3, "projects": {"project_a": 1, "project_b": 0, "project_c": 0}})
        compiles = {name: {lib: _compiles(lib, tok, model, f) for lib in libs if lib != "none"}
                    for name, f in _formats()}
        strict = dict(_formats())["resource.decision.plain.strict"]
        accepts = {lib: _check_accepts(lib, tok, model, strict, canonical) for lib in libs if lib != "none"}
    print(f"{'library':<20} {'batch':>5} {'ms/token':>9} {'overhead ms/token':>18} {'x free':>7}")
    for r in rows:
        if r["ms_per_token"] is None:
            print(f"{r['library']:<20} {r['batch']:>5} did not run: {r['error']}")
            continue
        print(f"{r['library']:<20} {r['batch']:>5} {r['ms_per_token']:>9.2f} {r['overhead_ms_per_token']:>18.2f} "
              f"{r['relative']:>7.2f}")
    print()
    print(f"{'description':<34} " + " ".join(f"{lib:<20}" for lib in libs if lib != "none"))
    for name, by in compiles.items():
        print(f"{name:<34} " + " ".join(f"{v[:20]:<20}" for v in by.values()))
    print("strict purchase accepted whole:", accepts)
    result = {"benchmark": "constrained_decoding", "settings": vars(args), "timing": rows, "compiles": compiles,
              "strict_accepts_canonical": accepts, "machine": machine_info(PACKAGES + ("torch", "transformers",
                                                                                       "llguidance", "xgrammar",
                                                                                       "outlines", "lm-format-enforcer"))}
    default = "constrained_decoding_quick.json" if args.quick else "constrained_decoding.json"
    write_result(Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
