"""The lever harness behind the Datasets page's lever tables: train the tiny model on one
collection of the teacher's turns with a recipe of stages, then score it by exact match on
the teacher's turns in games on new scenarios: far quicker per recipe than a full
``negotiation-env train sft`` run, and many more scored answers than its evaluation's decisions.

Run from the repository root (the ``sft`` extra):

    python -m benchmarks.sft_levers --work runs/levers --recipe curriculum:500,full:600
    python -m benchmarks.sft_levers --work runs/levers --recipe synthetic:150,curriculum:500,full:600
    python -m benchmarks.sft_levers --work runs/levers --score runs/sft/model-sft   # a model trained elsewhere
    python -m benchmarks.sft_levers --quick --work /tmp/levers                       # smoke run

What it does, with ``negotiation-env train sft``'s own functions and settings (every ``negotiation-env train sft``
option is accepted after ``--``, e.g. ``-- --seed 1``):

1. **Collect once** into ``--work`` (kept there and reused by later calls): the default
   collection of ``negotiation-env train sft`` (the follower against the oracle on the shipped and
   ``--train-scenarios`` generated scenarios, the teacher's turns of jointly optimal
   rounds), and a scoring collection: the same games on ``--score-scenarios`` (8) new
   scenarios per M/C level (generator seed ``--score-seed`` 999), whose teacher turns are
   the answers to score (both of jointly optimal rounds only, unless ``-- --all-rounds``;
   the run says which). A folder made with other collection or tiny-model settings is
   refused, not reused. The tiny base model is built once too (``sft.build_tiny``).
2. **Train** the stages of ``--recipe`` in order, each from the previous one's model,
   with ``sft.train`` (batch, learning rate and schedule as there); a stage is
   ``KIND:STEPS``:

   * ``copy``: ``sft.copy_examples`` (random lines of the teacher answers' words);
   * ``handwords``: the same task over 51 fixed game words and the numbers 1-30
     (``sft.copy_lines``);
   * ``tokens``: the same task over random single tokens of the model's vocabulary (as
     ``decode`` gives them, byte tokens included, so about a fifth read U+FFFD;
     ``sft.copy_lines`` of ``sft.token_pieces``, as ``--copy-lines tokens``);
   * ``curriculum``: ``sft.curriculum_examples`` (decisions without the system message);
   * ``disclosure``: the teacher's disclosures alone (talk turns starting "My "), full window;
   * ``full+disclosure``: every turn as ``full``, and each disclosure twice more
     (``sft.disclosure_examples``, as ``--disclosure-steps``);
   * ``full``: every teacher turn with its ``--context`` window (``sft.prompt_completion``);
   * ``synthetic``: the teacher's disclosures with new units and rewards in the system
     message's project lines and in the answer, a new draw per example
     (``sft.synthetic_disclosures``, as ``--copy-lines disclosures``);
   * ``full+synthetic``: every turn as ``full``, and as many synthetic disclosures as the
     rows hold real ones (``full`` with ``-- --train-disclosures real+synthetic``).

   ``full`` makes the examples as ``negotiation-env train sft``'s ``--steps`` do
   (``sft.training_examples``), so ``-- --train-disclosures`` applies to it, and
   ``-- --synthetic-shapes`` to every stage of synthetic disclosures.

   The synthetic lines are 12 to ``--line-max`` - 1 words or tokens long (default 40).
3. **Score**: greedy decoding (``max_new_tokens`` 96) of every scoring turn from its
   ``--context`` window, compared with the teacher's answer after stripping: purchases
   (decision turns), disclosures (talk turns starting "My "; also counted "within one
   word": the same number of words with at most one different) and the other talk
   turns ("Agreed."). A few misses of each kind are printed.

Writes a JSON (``--out``, default ``WORK/levers-<recipe>.json``) with the recipe, every
stage's steps, seconds and losses, and the scores. Deterministic under ``--seed`` up to
floating point.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
from pathlib import Path
from typing import Any, Mapping

from benchmarks.machine import PACKAGES, machine_info, write_result
from negotiation_env.train import sft as T
from negotiation_env.train.fields import add_config_arguments, config_from_arguments
from negotiation_env.train.progress import RichProgress, TrainProgress

KINDS = ("copy", "handwords", "tokens", "curriculum", "disclosure", "synthetic", "full", "full+disclosure",
         "full+synthetic")
#: the ``handwords`` vocabulary: the words of the compact prompt's disclosures and offers
HAND_WORDS = ["r1", "r2", "r3", "r4", "project_a", "project_b", "project_c", "needs", "pays", "and", "per", "run",
              "My", "-", "$", "x", "take", "you", "I", ".", ","] + [str(i) for i in range(1, 31)]
_WORD = re.compile(r"\w+")


def parse_recipe(text: str) -> list[tuple[str, int]]:
    """``"copy:150,full:600"`` -> ``[("copy", 150), ("full", 600)]``; a clear error otherwise."""
    stages = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        kind, _, steps = part.partition(":")
        if kind not in KINDS:
            raise ValueError(f"recipe stage {part!r}: unknown kind {kind!r}; choose from {', '.join(KINDS)}")
        if not steps.isdigit() or int(steps) < 1:
            raise ValueError(f"recipe stage {part!r}: give the steps as KIND:N with N >= 1")
        stages.append((kind, int(steps)))
    if not stages:
        raise ValueError("--recipe names no stage")
    return stages


def stage_examples(kind: str, rows: list[Mapping[str, Any]], args: T.SFTRunConfig, base: str,
                   line_max: int) -> list[dict[str, Any]]:
    if kind == "copy":
        return T.copy_examples(rows, args)
    if kind == "handwords":
        return T.copy_lines(HAND_WORDS, " ", args.seed, line_max)
    if kind == "tokens":
        from transformers import AutoTokenizer

        return T.copy_lines(T.token_pieces(AutoTokenizer.from_pretrained(base)), "", args.seed, line_max)
    if kind == "curriculum":
        return T.curriculum_examples(rows, args)
    if kind == "disclosure":
        return T.prompt_completion([r for r in rows if T.is_disclosure(r)], T.context_of(args))
    if kind == "full+disclosure":
        return T.disclosure_examples(rows, args)
    if kind == "synthetic":
        return T.synthetic_disclosures(rows, args)
    # full: as negotiation-env train sft's --steps (-- --train-disclosures and --synthetic-shapes apply);
    # full+synthetic: every turn, and as many synthetic disclosures as real ones
    settings = {"train_on": "turns"}
    if kind == "full+synthetic":
        settings["train_disclosures"] = "real+synthetic"
    return T.training_examples(rows, dataclasses.replace(args, **settings), base)


def answer_kind(row: Mapping[str, Any]) -> str:
    if row["phase"] == "decision":
        return "purchase"
    return "disclosure" if T.is_disclosure(row) else "other talk"


def within_one_word(gold: str, got: str) -> bool:
    g, t = _WORD.findall(gold), _WORD.findall(got)
    return len(g) == len(t) and sum(x != y for x, y in zip(g, t)) <= 1


def score(model_path: str, rows: list[Mapping[str, Any]], args: T.SFTRunConfig, show: int = 2) -> dict[str, Any]:
    """Exact match of greedy answers on ``rows`` (the scoring turns), per answer kind."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_path)
    model = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32).eval()
    counts: dict[str, list[int]] = {}
    misses: dict[str, list[dict[str, str]]] = {}
    near = 0
    for ex, row in zip(T.prompt_completion(rows, T.context_of(args)), rows):
        gold = ex["completion"][0]["content"].strip()
        # as HFPolicy renders it in play: the chat template, generation prompt, nothing else
        text = tok.apply_chat_template(ex["prompt"], tokenize=False, add_generation_prompt=True)
        ids = tok(text, return_tensors="pt", add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            out = model.generate(ids, max_new_tokens=96, do_sample=False, pad_token_id=tok.pad_token_id)
        got = tok.decode(out[0, ids.shape[1]:], skip_special_tokens=True).strip()
        kind = answer_kind(row)
        c = counts.setdefault(kind, [0, 0])
        c[1] += 1
        if got == gold:
            c[0] += 1
        elif len(misses.setdefault(kind, [])) < show:
            misses[kind].append({"expected": gold, "got": got})
        if kind == "disclosure" and within_one_word(gold, got):
            near += 1
    result = {k: {"right": v[0], "of": v[1]} for k, v in sorted(counts.items())}
    if "disclosure" in result:
        result["disclosure"]["within_one_word"] = near
    return {"scores": result, "misses": misses}


#: the negotiation-env train sft settings that make the collections and the base model a --work folder keeps
COLLECTION_SETTINGS = ("seed", "teacher", "games", "train_scenarios", "train_seed", "levels", "rounds", "talk_turns",
                       "theme", "thinking", "prompt_style", "max_retries", "all_rounds", "heldout", "heldout_seed",
                       "tiny_hidden", "tiny_layers", "tiny_heads", "tiny_vocab", "tiny_init", "tiny_tokenizer")


def collection_settings(args: T.SFTRunConfig, score_scenarios: int, score_seed: int) -> dict[str, Any]:
    values = {k: getattr(args, k) for k in COLLECTION_SETTINGS}
    values["levels"] = ",".join(values["levels"])  # as the JSON keeps it
    return {**values, "score_scenarios": score_scenarios,
            "score_seed": score_seed}


def collect(work: Path, args: T.SFTRunConfig, score_scenarios: int, score_seed: int,
            progress: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The training rows and the scoring rows, collected once into ``work`` (rows.json)."""
    cache = work / "rows.json"
    made_with = collection_settings(args, score_scenarios, score_seed)
    if cache.exists():
        d = json.loads(cache.read_text())
        # folders made before --tiny-tokenizer existed hold GPT-2's byte-level rule
        saved = {"tiny_tokenizer": "bytelevel", **(d.get("settings") or {})}
        if saved != made_with:
            differ = sorted(k for k in made_with if saved.get(k) != made_with[k])
            raise SystemExit(f"{work} holds a collection and base model made with other settings "
                             f"({', '.join(differ)}); use another --work")
        return d["rows"], d["score_rows"]
    held = T.heldout_sets(args, work, progress) if args.heldout else None
    sets = T.train_sets(args, work, held, progress)
    T.play(T.collect_config(args, sets), work / "collect", progress, "collect")
    only_optimal = not args.all_rounds
    rows = T.teacher_rows(T.export_sft(work / "collect", work / "sft.parquet", only_optimal), args)
    scoring = T.generated_sets(args, work, "score", score_scenarios, score_seed, progress=progress)
    T.play(T.collect_config(args, scoring), work / "collect-score", progress, "collect scoring games")
    score_rows = T.teacher_rows(T.export_sft(work / "collect-score", work / "score.parquet", only_optimal), args)
    cache.write_text(json.dumps({"settings": made_with, "rows": rows, "score_rows": score_rows}, default=str))
    return rows, score_rows


def sft_parser() -> argparse.ArgumentParser:
    """The options after ``--``: the fields of :class:`~negotiation_env.train.sft.SFTRunConfig`
    and ``--quick`` (its smoke-run sizes)."""
    p = argparse.ArgumentParser(prog="sft_levers.py ... --", add_help=False)
    p.add_argument("--quick", action="store_true")
    add_config_arguments(p, T.SFTRunConfig)
    return p


def sft_config(argv: list[str]) -> T.SFTRunConfig:
    """The SFT settings of the options after ``--`` (exit 2 naming the field on a bad one)."""
    p = sft_parser()
    ns = p.parse_args(argv)
    try:
        config = config_from_arguments(T.SFTRunConfig, ns)
    except ValueError as e:
        p.error(str(e))
    return T.quick(config) if ns.quick else config


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="Options after -- are SFTRunConfig fields as `negotiation-env train sft` takes them "
                                "(e.g. -- --seed 1 --lr 1e-3).")
    p.add_argument("--work", required=True, help="folder of the collections, the base model and the trained models "
                   "(reused: collections and base model are made once)")
    p.add_argument("--recipe", default="synthetic:150,curriculum:500,full:600",
                   help=f"stages KIND:STEPS, comma-separated; kinds {', '.join(KINDS)} "
                   "(default synthetic:150,curriculum:500,full:600, negotiation-env train sft's default recipe)")
    p.add_argument("--score", default=None, metavar="MODEL", help="only score this model folder (no training)")
    p.add_argument("--start", default=None, metavar="MODEL", help="train the recipe from this model folder instead "
                   "of the tiny base model (e.g. a negotiation-env train sft model-sft, to try one more stage)")
    p.add_argument("--line-max", type=int, default=40, help="synthetic lines are 12 to N-1 long (default 40)")
    p.add_argument("--score-scenarios", type=int, default=8, help="new scenarios per M/C level to score on (default 8)")
    p.add_argument("--score-seed", type=int, default=999, help="their generator seed (default 999)")
    p.add_argument("--show", type=int, default=2, help="misses printed per answer kind (default 2)")
    p.add_argument("--out", default=None, help="result JSON (default WORK/levers-<recipe>.json)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--quick", action="store_true", help="smoke run: negotiation-env train sft --quick sizes and --all-rounds, "
                   "2-step stages, 1 scoring scenario")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    rest: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1:]
    p = parser()
    a = p.parse_args(argv)
    if a.quick:
        rest = ["--quick", "--all-rounds", *rest]
        if a.recipe == p.get_default("recipe"):
            a.recipe = "synthetic:2,curriculum:2,full:2"
        a.score_scenarios = min(a.score_scenarios, 1)
    try:
        stages = parse_recipe(a.recipe)
    except ValueError as e:
        p.error(str(e))
    if a.line_max < 13 or a.score_scenarios < 1:
        p.error("--line-max must be >= 13 and --score-scenarios >= 1")
    args = sft_config(rest)
    if args.model:
        p.error("the harness trains the tiny model from scratch; --model is not for it")
    T.quiet_libraries()
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with (TrainProgress() if a.no_progress else RichProgress()) as progress:
        rows, score_rows = collect(work, args, a.score_scenarios, a.score_seed, progress)
        if not rows or not score_rows:
            raise SystemExit("no teacher turn to train on or to score (no jointly optimal round?)")
        kept = "every valid teacher turn" if args.all_rounds else \
            "teacher turns of jointly optimal rounds only (-- --all-rounds: every valid turn)"
        print(f"training rows {len(rows)}, scoring rows {len(score_rows)}: {kept}", flush=True)
        trained: list[dict[str, Any]] = []
        if a.score:
            model, name = a.score, "score-" + Path(a.score).name
        else:
            base = work / "model-base"
            if not (base / "config.json").exists():
                T.build_tiny(base, rows, args)
            model, name = a.start or str(base), a.recipe.replace(":", "").replace(",", "-")
            if a.start:
                name = f"{Path(a.start).name}+{name}"
            for i, (kind, steps) in enumerate(stages):
                ex = stage_examples(kind, rows, args, str(work / "model-base"), a.line_max)
                if not ex:
                    raise SystemExit(f"recipe stage {kind}:{steps} has no example in this collection")
                out = work / f"m-{name}-{i}"
                info = T.train(model, ex, out, args, progress, steps=steps, name=kind)
                trained.append({"kind": kind, "steps": info["steps"], "examples": len(ex),
                                "seconds": info["seconds"], "first_loss": info["first_loss"],
                                "last_loss": info["last_loss"]})
                print(f"{kind}:{steps}  examples {len(ex)}  {info['seconds']:.0f} s  loss {info['first_loss']:.3f} "
                      f"-> {info['last_loss']:.3f}", flush=True)
                model = str(out)
        result = score(model, score_rows, args, a.show)
    for kind, ms in result["misses"].items():
        for m in ms:
            print(f"miss ({kind}): expected {m['expected']!r}\n    got {m['got']!r}")
    line = ", ".join(f"{k} {v['right']}/{v['of']}" + (f" (within one word {v['within_one_word']})"
                                                       if "within_one_word" in v else "")
                     for k, v in result["scores"].items())
    print(f"{a.score or a.recipe}: {line}")
    out = Path(a.out) if a.out else work / f"levers-{name}.json"
    write_result(out, {"benchmark": "sft_levers", "recipe": None if a.score else a.recipe, "start": a.start, "scored_model": model,
                         "settings": dataclasses.asdict(args),
                         "line_max": a.line_max, "score_scenarios": a.score_scenarios, "score_seed": a.score_seed,
                         "training_rows": len(rows), "scoring_rows": len(score_rows), "stages": trained, **result,
                         "seconds": time.perf_counter() - t0,
                         "machine": machine_info(PACKAGES + T.EXTRA_PACKAGES)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
