"""Collect, train, evaluate: fine-tune a model on a teacher's traces and play it back.

Run from the repository root (needs the ``llm`` and ``data`` extras and TRL):

    python benchmarks/train_sft.py                      # tiny random model, CPU: ~12 minutes on 2 cores
    python benchmarks/train_sft.py --quick              # smoke run (smaller settings; minutes on 2 cores)
    python benchmarks/train_sft.py --model Qwen/Qwen2.5-0.5B-Instruct --steps 200 --batch-games 8   # a GPU box

The loop, each step through the code a user would run:

1. **Collect.** ``negotiation_env.runner.run`` plays the teacher's games on the resource
   game into ``WORK/collect`` (traces and all). ``--teacher follower`` (default): the
   deferent agent (``Deferent(decide_early=False, name_runs=False)``: it discloses its
   projects, says "Agreed." to the first proposal and buys exactly the offered share at
   the decision prompt, runs left to the engine) in seat agent_a against
   ``scripted:oracle``, the seat and opponent the model is evaluated in: every answer it
   gives copies what it read. ``--teacher oracle``: oracle self-play (its proposals need
   the joint optimum worked out). The scenarios: the shipped ones of each M/C level (0.5,
   0.8, 1.0; sets ``mcXXX_*``) plus ``--train-scenarios`` (64) generated ones per level
   (seed ``--train-seed``, none shipped or held out; ``WORK/train``), each played once
   with each first speaker (``--games`` sets a number per level). The env config is
   small so that a tiny model on a CPU has a chance: ``--rounds`` 2, ``--talk-turns`` 2,
   ``--theme`` none (abstract resource ids r1, r2, ...), ``--max-retries`` 1, thinking
   off (Appendix D.6: a talk turn is plain text, a decision ONLY a JSON purchase object
   such as ``{"r1": 2, "r3": 3}``; ``--thinking`` asks for the JSON wrapper) and the
   compact prompt (``--prompt-style compact``; ``paper`` for Appendix D).
2. **Export.** ``negotiation_env.traces.export.write("sft", ...)`` writes the SFT table
   (TRL's conversational format: the exact context each agent saw plus its answer) to
   ``WORK/sft.parquet``; by default only turns of jointly optimal rounds
   (``--all-rounds`` keeps every valid turn), and of those the teacher's
   (:func:`teacher_rows`). Every row becomes one prompt-completion example: ``prompt`` =
   what ``HFPolicy(context_messages=N)`` shows the model in play (``--context`` N, default
   3: the system message and the last N messages,
   :func:`baselines.llm.hf.compact_conversation`; 0: the whole conversation),
   ``completion`` = the teacher's answer, so the loss is on the answer only.
   ``--train-on conversations`` (needs ``--context 0``) makes one example per agent and
   game instead, the loss on exactly the exported answers (:func:`conversation_examples`).
3. **Train.** TRL's ``SFTTrainer`` fine-tunes ``--model`` (default: a tiny Llama-style
   chat model built here with :func:`baselines.llm.tiny.build_tiny_model`: hidden size
   128, 4 layers, about 0.83 M parameters (``--tiny-*``), initial weights of spread
   ``--tiny-init`` 0.02, its byte-level BPE tokenizer trained on the collected texts;
   ``--tiny-tokenizer words`` lets BPE merge ids such as ``r3`` into one token):
   first ``--copy-steps`` (150) on synthetic disclosures: the teacher's disclosures with
   new units and rewards in the system message's project lines and in the answer, so
   that only copying from the prompt gets them right (``--copy-lines disclosures``,
   :func:`synthetic_disclosures`; ``tokens``: repeat a line of random tokens of the
   vocabulary, :func:`copy_lines`; ``words``: of random words of the answers,
   :func:`copy_examples`), then
   ``--curriculum-steps`` (500) on the decision turns alone, their window without the
   system message (:func:`curriculum_examples`; ``--curriculum-disclosures F`` adds F
   synthetic disclosures per decision turn, ``--curriculum-first`` runs it before the
   warm-up), then ``--steps`` (600) on every
   example (``--disclosure-steps`` N adds N steps on every example plus each disclosure
   twice more, :func:`disclosure_examples`; default 0; ``--train-disclosures
   real+synthetic`` adds to them as many synthetic disclosures as the export holds real
   ones, ``synthetic`` puts those in place of the real ones, :func:`training_examples`;
   ``--synthetic-shapes`` also changes which resources a synthetic line needs); batch ``--batch-size`` (16), learning rate ``--lr`` (3e-3; cosine, 5%
   warm-up), completion-only loss, no truncation (``--max-length`` to set one). Saved to
   ``WORK/model-sft``.
4. **Evaluate.** The same env config is played by the runner with an ``hf:`` policy
   (``baselines.llm.hf.HFPolicy``, greedy unless ``--temperature``) for the model before
   and after training, against the oracle (``--eval-pairing oracle``, the model in seat
   agent_a, the first speaker swapped) or in self-play (``self``; ``both``: both), with
   ``--eval-games`` games per M/C level and the cohort seed ``--seed + 1`` (new games;
   the scenarios are the shipped ones, so they overlap the training games'). Each stage
   is played in up to four variants: free decoding and, with ``--constrained`` (default
   on), decoding under the games' answer formats (``constrained=true``, the strict
   purchase grammar, free text capped at ``--constrained-text-chars``), each on the
   shipped scenarios and on ``--heldout`` (default 2) new scenarios per M/C level
   generated for the run (:func:`~negotiation_env.games.resource.generator.generate_pool`,
   seed ``--heldout-seed``, none equal to a shipped one; written to ``WORK/heldout``).

Figures (per stage and pairing, from the traces only):

* parse-error rate: the share of the model's turns (a prompt and its retries, i.e.
  the steps with ``attempt == 1``) whose first answer the env refused (a validation
  error, so a retry or, after the last retry, a fallback), also per phase (talk,
  decision) and per round; the fallback rate (turns that ended in a forfeited talk turn
  or an auto-filled decision); the format-warning rate (first answers accepted only with
  a warning, e.g. a purchase object found inside other text); and the share of refused
  steps among all the model's steps;
* joint efficiency, optimum rate, overdraw rate, games and rounds: pooled over every
  resolved round with :func:`negotiation_env.analysis.resource_metrics.pooled_metrics`,
  fallback rounds included (``include_fallbacks=True``: a model's refused decisions are
  part of how it plays; the analysis default leaves them out, as the paper does).

The teacher's own figures (the training data's games) are printed for reference.
Deterministic under ``--seed``: the tiny model's weights and tokenizer, the games, the
training order and greedy decoding are all seeded (up to floating-point effects of the
device). Writes ``benchmarks/results/train_sft.json`` (``--quick``: ``train_sft_quick.json``)
with every figure, the settings, the training loss curve and ``machine_info()``.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from machine import PACKAGES, machine_info, write_result  # noqa: E402

SCENARIO_SETS = {"mc0.5": ["mc050_*"], "mc0.8": ["mc080_*"], "mc1.0": ["mc100_*"]}
ORACLE = "scripted:oracle"
#: ``--teacher follower``: the oracle's ideal partner, the deferent agent saying "Agreed." to
#: the first proposal and buying exactly the offered share at the decision prompt, with the
#: runs left to the engine (Appendix D.1.3), so that every answer it gives is a copy of what
#: it read: its own projects (a disclosure), "Agreed.", or the quantities after "you take"
FOLLOWER = {"spec": "python:baselines.scripted.negotiators:Deferent", "label": "follower",
            "options": {"output": "text", "decide_early": False, "name_runs": False, "phrasing": "fixed"}}
TEACHERS = ("follower", "oracle")
MODEL_LABEL = "model"
PAIRINGS = ("oracle", "self", "both")
#: events that close a turn without a valid answer (the resource game's fallbacks; a fallback
#: decision logs heuristic_fallback and decision_auto_filled together, so a step counts once)
FALLBACK_EVENTS = ("talk_turn_forfeited", "decision_auto_filled", "heuristic_fallback", "reflection_skipped")
#: ``--copy-steps``, ``--copy-lines`` and ``--disclosure-steps`` defaults
COPY_STEPS = 150
DISCLOSURE_STEPS = 0
COPY_LINES = "disclosures"
TRAIN_DISCLOSURES = ("real", "real+synthetic", "synthetic")
SYNTHETIC_SHAPES = False
EXTRA_PACKAGES = ("torch", "transformers", "trl", "datasets", "accelerate", "tokenizers")

QUICK = {"games": 2, "train_scenarios": 1, "copy_steps": 2, "curriculum_steps": 2, "steps": 4, "disclosure_steps": 2,
         "batch_size": 2,
         "eval_games": 1, "rounds": 1, "talk_turns": 1, "max_new_tokens": 24, "levels": "mc0.8"}


# --------------------------------------------------------------------------- settings


def env_config(args: argparse.Namespace) -> dict[str, Any]:
    """The resource-game config of every game (collection and evaluation)."""
    return {"num_rounds": args.rounds, "cheap_talk_turns": args.talk_turns, "thinking": args.thinking,
            "theme": None if args.theme in (None, "none") else args.theme, "max_retries": args.max_retries,
            "prompt_style": args.prompt_style}


def scenario_sets(args: argparse.Namespace) -> dict[str, list[str]]:
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    unknown = [x for x in levels if x not in SCENARIO_SETS]
    if unknown:
        raise SystemExit(f"--levels: unknown level {unknown[0]!r}; choose from {', '.join(SCENARIO_SETS)}")
    return {k: SCENARIO_SETS[k] for k in levels}


def collect_config(args: argparse.Namespace, sets: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The runner config of step 1: the teacher's games on ``sets`` (default: the shipped
    scenario sets). ``--teacher follower``: the follower in seat agent_a against the
    oracle (the seat and opponent the model is evaluated in); ``oracle``: oracle
    self-play. ``--games`` games per level (default: every scenario of the level once with
    each first speaker; the games are deterministic, so more would repeat them)."""
    sets = dict(sets) if sets is not None else scenario_sets(args)
    if args.teacher == "follower":
        game = {"policies": [FOLLOWER, ORACLE], "pairings": [[FOLLOWER["label"], ORACLE]]}
    else:
        game = {"policies": [ORACLE], "pairings": "self"}
    games = args.games or 2 * max(set_size(v) for v in sets.values())
    return {"name": "sft-collect", "seed": args.seed, "games": [{
        "game": "resource", **game, "games_per_cell": games,
        "swap_first_speaker": True, "config": env_config(args), "scenario_sets": sets}]}


def teacher_rows(rows: Iterable[Mapping[str, Any]], args: argparse.Namespace) -> list[Mapping[str, Any]]:
    """The exported rows the model is trained on: the teacher's turns (``--teacher
    follower``: the follower's, not its partner's, whose proposals need the joint optimum
    worked out; ``oracle``: every row, both seats being the oracle)."""
    if args.teacher == "follower":
        return [r for r in rows if r["policy"] == FOLLOWER["label"]]
    return list(rows)


def context_of(args: argparse.Namespace) -> int | None:
    """The compact prompt's message window (``--context``; 0: the whole conversation)."""
    return args.context or None


def hf_options(args: argparse.Namespace, constrained: bool = False) -> dict[str, Any]:
    opts = {"temperature": args.temperature, "max_new_tokens": args.max_new_tokens, "device": args.device,
            "dtype": args.dtype, "max_batch_size": max(1, args.batch_games)}
    if context_of(args) is not None:
        opts["context_messages"] = context_of(args)
    if constrained:
        opts["constrained"] = True
        opts["constrained_text_chars"] = args.constrained_text_chars
    return opts


#: evaluation variants: (decoding, scenarios)
VARIANTS = (("free", "shipped"), ("constrained", "shipped"), ("free", "held-out"), ("constrained", "held-out"))


def variants(args: argparse.Namespace) -> list[tuple[str, str]]:
    return [(d, sc) for d, sc in VARIANTS
            if (d == "free" or args.constrained) and (sc == "shipped" or args.heldout)]


def generated_sets(args: argparse.Namespace, work: Path, kind: str, n: int, seed: int,
                   exclude: Sequence[Any] = (), progress: "_Progress | None" = None) -> dict[str, list[str]]:
    """``n`` new scenarios per M/C level from the scenario generator
    (:func:`~negotiation_env.games.resource.generator.generate_pool`, ``seed``), none equal
    to a shipped scenario or to one in ``exclude``, written to ``WORK/<kind>``: scenario
    sets of paths, one per level (names ``<kind>050_1`` ...)."""
    from negotiation_env.games.resource.generator import generate_pool, write_scenario
    from negotiation_env.games.resource.scenario import list_scenarios, load_scenario

    avoid = [load_scenario(name) for name in list_scenarios()] + list(exclude)
    folder = work / kind
    folder.mkdir(parents=True, exist_ok=True)
    levels = scenario_sets(args)
    task = progress.task(f"generate {kind}", n * len(levels)) if progress is not None else None
    out: dict[str, list[str]] = {}
    for level in levels:
        ratio = float(level[2:])
        pool = generate_pool(ratio, n, seed=seed, prefix=f"{kind}{round(ratio * 100):03d}_",
                             exclude=avoid, progress=None if task is None else (lambda *_: task()))
        out[level] = [str(write_scenario(res, folder / f"{sc.name}.json")) for sc, res in pool]
    return out


def heldout_sets(args: argparse.Namespace, work: Path, progress: "_Progress | None" = None) -> dict[str, list[str]]:
    """``--heldout`` new scenarios per M/C level for the evaluation (seed
    ``--heldout-seed``), written to ``WORK/heldout``."""
    return generated_sets(args, work, "heldout", args.heldout, args.heldout_seed, progress=progress)


def train_sets(args: argparse.Namespace, work: Path, heldout: Mapping[str, list[str]] | None,
               progress: "_Progress | None" = None) -> dict[str, list[str]]:
    """The collection's scenario sets: the shipped scenarios of each level plus
    ``--train-scenarios`` generated ones (seed ``--train-seed``, none equal to a shipped or
    a held-out scenario, written to ``WORK/train``). With a handful of scenarios a small
    model learns each scenario's answers by heart; with many it has to read them."""
    sets = {k: list(v) for k, v in scenario_sets(args).items()}
    if args.train_scenarios:
        from negotiation_env.games.resource.scenario import load_scenario

        exclude = [load_scenario(p) for paths in (heldout or {}).values() for p in paths]
        for level, paths in generated_sets(args, work, "train", args.train_scenarios, args.train_seed, exclude,
                                           progress).items():
            sets[level] += paths
    return sets


def set_size(entries: Sequence[str]) -> int:
    """How many scenarios a scenario set's entries name (patterns of shipped names, or paths),
    counted as the runner expands them (``runner.plan._scenario_sets``: case-sensitive
    ``fnmatchcase`` on the shipped names, anything else one scenario)."""
    from fnmatch import fnmatchcase

    from negotiation_env.games.resource.scenario import list_scenarios

    names = list_scenarios()
    return sum(sum(1 for n in names if fnmatchcase(n, e)) if any(c in e for c in "*?[") else 1 for e in entries)


def eval_config(args: argparse.Namespace, model_path: str | Path, stage: str, *, constrained: bool = False,
                sets: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The runner config of step 4 for one stage: the same env config, an ``hf:`` policy
    (``constrained``: decoding under the answer formats; ``sets``: other scenario sets,
    e.g. the held-out ones)."""
    lineups = {"oracle": [[MODEL_LABEL, "oracle"]], "self": [[MODEL_LABEL, MODEL_LABEL]],
               "both": [[MODEL_LABEL, "oracle"], [MODEL_LABEL, MODEL_LABEL]]}[args.eval_pairing]
    policies: list[Any] = [{"spec": f"hf:{model_path}", "label": MODEL_LABEL,
                            "options": hf_options(args, constrained)}]
    if args.eval_pairing != "self":
        policies.append({"spec": ORACLE, "label": "oracle"})
    return {"name": f"sft-eval-{stage}", "seed": args.seed + 1, "games": [{
        "game": "resource", "policies": policies, "pairings": lineups, "games_per_cell": args.eval_games,
        "swap_first_speaker": True, "config": env_config(args),
        "scenario_sets": dict(sets) if sets is not None else scenario_sets(args)}]}


# --------------------------------------------------------------------------- progress


class _Progress:
    """One rich progress display for the whole script: a bar per runner run and one for
    training (a TrainerCallback)."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.progress = None
        if enabled:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self.progress = Progress(TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(),
                                     TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                     transient=False)

    def __enter__(self):
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.stop()

    def print(self, *a: Any) -> None:
        if self.progress is not None:
            self.progress.console.print(*a, highlight=False)
        else:
            print(*a)

    def task(self, name: str, total: int):
        """A bar of ``total`` steps; returns the function that advances it by one."""
        prog = self.progress
        if prog is None:
            return lambda: None
        tid = prog.add_task(name, total=total, info="")
        return lambda: prog.update(tid, advance=1)

    def observer(self, name: str):
        from negotiation_env.runner import RunObserver

        prog = self.progress

        class Obs(RunObserver):
            task = None
            invalid = 0
            steps = 0

            def on_start(self, plan, summary, todo):
                if prog is not None:
                    self.task = prog.add_task(name, total=todo, info="")

            def on_game(self, game, summary):
                self.invalid += game["invalid"]
                self.steps += game["steps"]
                if prog is not None and self.task is not None:
                    prog.update(self.task, advance=1, info=f"{self.steps} steps, {self.invalid} refused")

        return Obs()

    def trainer_callback(self, total: int, name: str = "train"):
        from transformers import TrainerCallback

        prog = self.progress

        class Bar(TrainerCallback):
            task = None

            def on_train_begin(self, args, state, control, **kw):
                if prog is not None:
                    self.task = prog.add_task(name, total=total, info="")

            def on_step_end(self, args, state, control, **kw):
                if prog is not None and self.task is not None:
                    prog.update(self.task, completed=state.global_step)

            def on_log(self, args, state, control, logs=None, **kw):
                if prog is not None and self.task is not None and logs and "loss" in logs:
                    prog.update(self.task, info=f"loss {logs['loss']:.3f}")

        return Bar()


# --------------------------------------------------------------------------- steps 1-2: collect, export


def _run(config: dict[str, Any], out: Path, progress: _Progress, name: str, batch_games: int = 1):
    from negotiation_env.runner import run

    kw: dict[str, Any] = {"observer": progress.observer(name)}
    if batch_games > 1:
        if not lockstep_available():
            raise SystemExit("--batch-games needs a runner with lock-step batching (run(..., batch_games=N))")
        kw["batch_games"] = batch_games
    summary = run(config, out, **kw)
    if summary.errors:
        first = next((c for c in summary.cells.values() if c.errors), None)
        progress.print(f"[yellow]{summary.errors} games of {name} ended in an error[/] (cell {first.cell if first else '?'}; "
                       f"see {out / 'traces.jsonl'})")
    return summary


def export_sft(run_dir: Path, out: Path, only_optimal: bool) -> list[dict[str, Any]]:
    """Step 2: write the SFT table to ``out`` and return its rows as written (read back)."""
    import pyarrow.parquet as pq

    from negotiation_env.traces import export

    export.write("sft", run_dir, out, only_optimal=only_optimal)
    return pq.read_table(out).to_pylist()


def prompt_completion(rows: Iterable[Mapping[str, Any]], context: int | None = None) -> list[dict[str, Any]]:
    """Each SFT row as TRL's conversational prompt-completion example: the messages but
    the last, and the last (the recorded answer). With ``context`` None, ``prompt +
    completion`` is the row's ``messages``, unchanged; with ``context`` N the prompt is
    what ``HFPolicy(context_messages=N)`` shows the model
    (:func:`baselines.llm.hf.compact_conversation`: the system message and the last N
    messages), so training and play read the same prompt."""
    out = []
    for r in rows:
        msgs = [{"role": m["role"], "content": m["content"]} for m in r["messages"]]
        if not msgs or msgs[-1]["role"] != "assistant":
            raise ValueError(f"an SFT row must end with the assistant's answer; got {msgs[-1:]!r}")
        prompt = msgs[:-1]
        if context is not None:
            from baselines.llm.hf import compact_conversation

            prompt = compact_conversation(prompt, context)
        out.append({"prompt": prompt, "completion": msgs[-1:]})
    return out


def conversation_examples(rows: Iterable[Mapping[str, Any]], tokenizer: Any) -> list[dict[str, Any]]:
    """``--train-on conversations``: one pre-tokenized example per agent and game, the
    longest exported conversation of that agent (every other exported row of it is a
    prefix of it; checked), with the loss on exactly the answers the export kept
    (``assistant_masks``: 1 on the tokens of those answers, their end-of-turn marker
    included; 0 on everything else, answers of rounds the export left out too).

    The text is cut at every kept answer's start and end, and each piece is tokenized on
    its own (``add_special_tokens=False``): the prompt before an answer is exactly what
    ``HFPolicy`` encodes in play (the chat template with the generation prompt), and an
    answer's tokens are those of its text alone, as in TRL's prompt-completion examples.
    A chat template whose rendering of a conversation does not begin with its rendering
    of an earlier prefix (some templates drop earlier reasoning) cannot be cut so: that
    is an error naming ``--train-on turns``. Every answer of a conversation costs one
    pass over it, not one pass over its own context each, which is the point: a game's
    four answers train in about the time of one."""
    groups: dict[tuple[str, str], list[list[dict[str, str]]]] = {}
    for r in rows:
        msgs = [{"role": m["role"], "content": m["content"]} for m in r["messages"]]
        if not msgs or msgs[-1]["role"] != "assistant":
            raise ValueError(f"an SFT row must end with the assistant's answer; got {msgs[-1:]!r}")
        groups.setdefault((str(r["episode_id"]), str(r["agent"])), []).append(msgs)

    def render(msgs: list[dict[str, str]], gen: bool) -> str:
        return tokenizer.apply_chat_template(msgs, tokenize=False, add_generation_prompt=gen)

    out = []
    for key, convs in groups.items():
        convs.sort(key=len)
        full = convs[-1]
        keep = []
        for c in convs:
            if c != full[:len(c)]:
                raise ValueError(f"the exported turns of {key} are not one conversation (a turn is not a prefix "
                                 "of the agent's last one)")
            keep.append(len(c) - 1)
        text = render(full, False)
        cuts: list[tuple[int, int]] = []
        for i in sorted(set(keep)):
            start, end = render(full[:i], True), render(full[:i + 1], False)
            if not (end.startswith(start) and text.startswith(end)):
                raise ValueError("this chat template does not render a conversation as an extension of its "
                                 "prefixes, so its answers cannot be cut out; use --train-on turns")
            cuts.append((len(start), len(end)))
        ids: list[int] = []
        mask: list[int] = []
        pos = 0
        for a, b in cuts:
            for piece, bit in ((text[pos:a], 0), (text[a:b], 1)):
                if piece:
                    t = tokenizer(piece, add_special_tokens=False)["input_ids"]
                    ids += t
                    mask += [bit] * len(t)
            pos = b
        if text[pos:]:
            t = tokenizer(text[pos:], add_special_tokens=False)["input_ids"]
            ids += t
            mask += [0] * len(t)
        out.append({"input_ids": ids, "assistant_masks": mask})
    return out


def digest(examples: Sequence[Sequence[Mapping[str, str]]]) -> str:
    """SHA-256 of a list of conversations (to check what was trained on)."""
    blob = json.dumps([[{"role": m["role"], "content": m["content"]} for m in c] for c in examples],
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- step 3: model, training


def build_tiny(path: Path, rows: Sequence[Mapping[str, Any]], args: argparse.Namespace) -> Path:
    """The default model: tiny random Llama with a BPE tokenizer trained on the
    collected texts (prompts and answers)."""
    from baselines.llm.tiny import build_tiny_model

    corpus = [m["content"] for r in rows for m in r["messages"]]
    # generous positions: a context is a few thousand characters, and the evaluation's
    # retries make it longer
    return build_tiny_model(path, hidden_size=args.tiny_hidden, num_layers=args.tiny_layers,
                            num_heads=args.tiny_heads, vocab_size=args.tiny_vocab, seed=args.seed, corpus=corpus,
                            initializer_range=args.tiny_init, pretokenizer=args.tiny_tokenizer)


def _device_kwargs(device: str) -> dict[str, Any]:
    import torch

    cuda = device.startswith("cuda") or (device == "auto" and torch.cuda.is_available())
    if not cuda:
        return {"use_cpu": True}
    return {"bf16": bool(torch.cuda.is_bf16_supported())}


def curriculum_examples(rows: Sequence[Mapping[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """``--curriculum-steps``: the decision turns' prompt-completion examples with the
    system message left out of their window (the purchase the follower makes copies the
    share offered in the conversation; with the 200-token system prompt in front, a model
    trained from scratch does not find it in the time: the curriculum teaches the copy
    first, then the full windows). ``--curriculum-disclosures F`` adds round(F x their
    number) :func:`synthetic_disclosures` (full window; a Generator stream apart from the
    warm-up's)."""
    out = []
    for ex in prompt_completion([r for r in rows if r["phase"] == "decision"], context_of(args)):
        out.append({"prompt": [m for m in ex["prompt"] if m["role"] != "system"], "completion": ex["completion"]})
    if out and args.curriculum_disclosures > 0:
        # the curriculum alone makes the model forget the warm-up's copying from the system
        # message (a disclosure's loss goes from 0.36 to 11.25 in the default run); these keep it paying
        n = round(args.curriculum_disclosures * len(out))
        extra = synthetic_disclosures(rows, args, n=n, stream=22)
        if len(extra) < n:
            raise SystemExit("--curriculum-disclosures: the export has no disclosure of the compact prompt's form")
        out += extra
    return out


#: what :func:`copy_examples` splits an answer into: words (ids, numbers) and single punctuation marks
_WORD = re.compile(r"\w+|[^\w\s]")
#: synthetic copy examples made for ``--copy-steps`` (more than the steps x batch ever read)
COPY_EXAMPLES = 4000
COPY_INSTRUCTION = "Repeat the last line."


def copy_examples(rows: Iterable[Mapping[str, Any]], args: argparse.Namespace,
                  n: int = COPY_EXAMPLES) -> list[dict[str, Any]]:
    """``--copy-steps``: a synthetic warm-up before any game text, meant to teach a model
    trained from scratch to copy from its prompt. Each example is a line of 12 to 39 words
    drawn at random from the words and punctuation marks of the teacher's answers (project
    ids, resource ids, numbers, "needs", "pays", braces...), placed after 0 to 59 other
    such words at the end of the system message; the user asks "Repeat the last line."
    and the completion is that line. Nothing in such a line can be guessed from what came
    before it in the line, only copied; a disclosure copies the project lines of the
    system message and a purchase the quantities of the offer, from the same words. How
    much it helps varies a lot from recipe to recipe (Datasets page). Deterministic under
    ``--seed`` (a numpy Generator of its own)."""
    import numpy as np

    words = sorted({w for r in rows for w in _WORD.findall(r["messages"][-1]["content"])})
    if not words:
        return []
    rng = np.random.default_rng([args.seed, 20])
    out = []
    for _ in range(n):
        line = " ".join(rng.choice(words, size=int(rng.integers(12, 40))))
        before = " ".join(rng.choice(words, size=int(rng.integers(0, 60))))
        out.append({"prompt": [{"role": "system", "content": f"{before}\n{line}" if before else line},
                               {"role": "user", "content": COPY_INSTRUCTION}],
                    "completion": [{"role": "assistant", "content": line}]})
    return out


def copy_lines(pieces: Sequence[str], sep: str, seed: int, line_max: int = 40,
               n: int = COPY_EXAMPLES) -> list[dict[str, Any]]:
    """Copy examples of ``--copy-lines tokens`` (and of ``sft_levers.py``'s ``tokens`` and
    ``handwords`` stages): a line of 12 to ``line_max`` - 1 ``pieces`` joined by ``sep``,
    after a line of 0 to 59 others, in the system message; the completion is the line. The
    Generator is seeded by ``seed`` alone and the line break is written even after an empty
    prefix, as in the harness runs the Datasets page reports."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        line = sep.join(rng.choice(pieces, size=int(rng.integers(12, line_max)))).strip()
        before = sep.join(rng.choice(pieces, size=int(rng.integers(0, 60)))).strip()
        out.append({"prompt": [{"role": "system", "content": before + "\n" + line},
                               {"role": "user", "content": COPY_INSTRUCTION}],
                    "completion": [{"role": "assistant", "content": line}]})
    return out


def token_pieces(tokenizer: Any) -> list[str]:
    """Every token id's text as ``decode`` gives it, in id order (byte tokens read U+FFFD,
    about a fifth of a byte-level BPE's entries), but blank ones and any with a line break
    or "<" (no line may spell a special token such as ``<|end|>``)."""
    pieces = (tokenizer.decode([i]) for i in range(len(tokenizer)))
    return [p for p in pieces if p and p.strip() and "\n" not in p and "<" not in p]


def warmup_examples(rows: Sequence[Mapping[str, Any]], args: argparse.Namespace, base: str) -> list[dict[str, Any]]:
    """The ``--copy-steps`` examples of ``--copy-lines``: ``tokens`` (random tokens of the
    base model's vocabulary, :func:`copy_lines`), ``words`` (:func:`copy_examples`) or
    ``disclosures`` (teacher disclosures with new numbers, :func:`synthetic_disclosures`)."""
    if args.copy_lines == "words":
        return copy_examples(rows, args)
    if args.copy_lines == "disclosures":
        return synthetic_disclosures(rows, args)
    from transformers import AutoTokenizer

    return copy_lines(token_pieces(AutoTokenizer.from_pretrained(base)), "", args.seed)


def is_disclosure(row: Mapping[str, Any]) -> bool:
    """A talk turn that discloses the teacher's projects ("My project_a needs ...")."""
    return row["phase"] == "talk" and row["messages"][-1]["content"].startswith("My ")


def training_examples(rows: Sequence[Mapping[str, Any]], args: argparse.Namespace, base: str) -> list[dict[str, Any]]:
    """The ``--steps`` examples: one per row (:func:`prompt_completion`) or per conversation
    (``--train-on conversations``, :func:`conversation_examples`). ``--train-disclosures``
    ``real+synthetic`` adds as many :func:`synthetic_disclosures` as the rows hold
    disclosures; ``synthetic`` puts them in place of the real ones. Either keeps copying
    from the prompt paying during training: with the real ones alone the model can learn
    them by heart instead (each project set recurs a few times), and the warm-up's
    copying fades."""
    if args.train_on == "conversations":
        from transformers import AutoTokenizer

        return conversation_examples(rows, AutoTokenizer.from_pretrained(base))
    if args.train_disclosures == "real":
        return prompt_completion(rows, context_of(args))
    mixed = synthetic_disclosures(rows, args, n=sum(is_disclosure(r) for r in rows))
    if not mixed:
        raise SystemExit(f"--train-disclosures {args.train_disclosures}: the export has no disclosure of the "
                         "compact prompt's form")
    if args.train_disclosures == "synthetic":  # the real disclosures left out: none can be learnt by heart
        rows = [r for r in rows if not is_disclosure(r)]
    return prompt_completion(rows, context_of(args)) + mixed


def disclosure_examples(rows: Sequence[Mapping[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """``--disclosure-steps``: every turn's example (as for ``--steps``) and each disclosure's
    twice more, so that the last steps weigh the answer the model copies worst (a
    disclosure copies a dozen numbers from the system message) without unlearning the
    others (disclosures alone teach it to disclose at every turn)."""
    ctx = context_of(args)
    return prompt_completion(rows, ctx) + 2 * prompt_completion([r for r in rows if is_disclosure(r)], ctx)


#: a project line of the compact system prompt (``COMPACT_PROJECT_LINE``)
_PROJECT_LINE = re.compile(r"^- (\S+) needs (.+) per run and pays (\S+)$", re.M)
#: a requirement's units ("3 r1 and 2 r3": the 3 and the 2)
_UNITS = re.compile(r"\b(\d+)(?= \S)")


def synthetic_disclosures(rows: Sequence[Mapping[str, Any]], args: argparse.Namespace,
                          n: int = COPY_EXAMPLES, stream: int = 21) -> list[dict[str, Any]]:
    """Disclosures of projects nobody has: each is a teacher disclosure (prompt as
    :func:`prompt_completion` gives it) whose project lines in the system message get new
    units and rewards, drawn from those seen in the rows' project lines, and whose answer
    says the new ones ("My project_a needs 3 r1 per run and pays 12. ..."), the rest of
    both unchanged. A real collection repeats each project set a few times, so a model
    trained from scratch can learn its disclosures by heart; here every example has new
    numbers, which only copying from the prompt gets right. With ``--synthetic-shapes``
    each line also takes the resources of a requirement drawn from all those seen ("3 r1"
    may become "2 r2 and 5 r3"), so that the line's form, not only its numbers, has to be
    read from the prompt. Deterministic under ``--seed`` (a numpy Generator of its own;
    ``stream`` tells apart the draws of different stages). Empty when the rows hold no
    disclosure of the compact prompt's form."""
    import numpy as np

    base = []
    for ex in prompt_completion([r for r in rows if is_disclosure(r)], context_of(args)):
        system, answer = ex["prompt"][0]["content"], ex["completion"][0]["content"]
        lines = list(_PROJECT_LINE.finditer(system))
        said = [f"My {m.group(1)} needs {m.group(2)} per run and pays {m.group(3)}." for m in lines]
        if ex["prompt"][0]["role"] == "system" and lines and all(x in answer for x in said):
            base.append((ex, lines, said))
    if not base:
        return []
    units = sorted({int(u) for _, lines, _ in base for m in lines for u in _UNITS.findall(m.group(2))})
    rewards = sorted({m.group(3) for _, lines, _ in base for m in lines})
    shapes = sorted({m.group(2) for _, lines, _ in base for m in lines}) if args.synthetic_shapes else None
    rng = np.random.default_rng([args.seed, stream])
    out = []
    for _ in range(n):
        ex, lines, said = base[int(rng.integers(len(base)))]
        system, answer = ex["prompt"][0]["content"], ex["completion"][0]["content"]
        rest = [dict(m) for m in ex["prompt"][1:]]
        for m, old in zip(lines, said):
            req = m.group(2) if shapes is None else shapes[int(rng.integers(len(shapes)))]
            req = _UNITS.sub(lambda _u: str(units[int(rng.integers(len(units)))]), req)
            pay = rewards[int(rng.integers(len(rewards)))]
            new = f"My {m.group(1)} needs {req} per run and pays {pay}."
            system = system.replace(m.group(0), f"- {m.group(1)} needs {req} per run and pays {pay}", 1)
            answer = answer.replace(old, new, 1)
            for msg in rest:  # an earlier disclosure of the agent's inside the window says the new ones too
                if msg["role"] == "assistant":
                    msg["content"] = msg["content"].replace(old, new)
        out.append({"prompt": [{"role": "system", "content": system}, *rest],
                    "completion": [{"role": "assistant", "content": answer}]})
    return out


def train(model_path: str, examples: list[dict[str, Any]], out: Path, args: argparse.Namespace,
          progress: _Progress, steps: int | None = None, name: str = "train") -> dict[str, Any]:
    """Step 3: TRL SFTTrainer on ``examples`` (prompt-completion) for ``steps`` (default
    ``--steps``); saves to ``out``."""
    steps = args.steps if steps is None else steps
    import datasets
    import torch
    import trl
    from transformers import AutoModelForCausalLM, AutoTokenizer, PrinterCallback, set_seed

    set_seed(args.seed)
    tok = AutoTokenizer.from_pretrained(model_path)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)
    ds = datasets.Dataset.from_list(examples)
    cfg = trl.SFTConfig(
        output_dir=str(out / "checkpoints"), max_steps=steps, per_device_train_batch_size=args.batch_size,
        gradient_accumulation_steps=1, learning_rate=args.lr, lr_scheduler_type="cosine", warmup_steps=max(1, steps // 20),
        weight_decay=0.0, logging_steps=max(1, min(10, steps // 10)), save_strategy="no", report_to=[],
        seed=args.seed, data_seed=args.seed, max_length=args.max_length, completion_only_loss=True,
        disable_tqdm=True, dataloader_num_workers=0, **_device_kwargs(args.device))
    trainer = trl.SFTTrainer(model=model, args=cfg, train_dataset=ds, processing_class=tok,
                             callbacks=[progress.trainer_callback(steps, name)])
    trainer.remove_callback(PrinterCallback)  # the loss goes to the progress bar and the JSON
    t0 = time.perf_counter()
    result = trainer.train()
    seconds = time.perf_counter() - t0
    trainer.save_model(str(out))
    tok.save_pretrained(str(out))
    shutil.rmtree(out / "checkpoints", ignore_errors=True)
    losses = [{"step": h["step"], "loss": h["loss"]} for h in trainer.state.log_history if "loss" in h]
    info = {"steps": trainer.state.global_step, "seconds": seconds, "examples": len(ds),
            "epochs": trainer.state.epoch, "train_loss": result.training_loss, "loss_curve": losses,
            "first_loss": losses[0]["loss"] if losses else None, "last_loss": losses[-1]["loss"] if losses else None,
            "parameters": sum(p.numel() for p in model.parameters())}
    del trainer, model
    _free_memory()
    return info


def _free_memory() -> None:
    import gc

    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:  # pragma: no cover
        pass


def _drop_runner_models() -> None:
    """The runner keeps model-backed policies for reuse within a process; drop them
    between stages so two models are not held at once."""
    from negotiation_env.runner.engine import release_models

    release_models()
    _free_memory()


# --------------------------------------------------------------------------- step 4: figures


def _read(run_dir: Path) -> list[dict[str, Any]]:
    from negotiation_env.traces.reader import iter_records

    return list(iter_records(Path(run_dir) / "traces.jsonl"))


def _label(trace: Mapping[str, Any], agent: str) -> str | None:
    p = (trace.get("policies") or {}).get(agent) or {}
    return p.get("label") or p.get("spec") or p.get("name")


def turn_errors(traces: Iterable[Mapping[str, Any]], labels: Sequence[str] | None = None) -> dict[str, Any]:
    """Parse/validation errors of the agents whose policy label is in ``labels`` (all
    agents when None). A turn is a prompt and its retries: its first attempt is the step
    with ``attempt == 1``. Counts and rates: turns whose first answer was refused
    (``parse_error_rate``), turns that ended in a fallback (a forfeited talk turn or an
    auto-filled decision), turns whose first answer was accepted only with a format
    warning (text around the JSON, a bare purchase object...: ``format_warning_rate``),
    and refused steps among all steps; ``by_phase`` and ``by_round`` have the turn counts
    per phase and per round."""
    turns = bad = warned = fallbacks = steps = refused = 0
    phases: dict[str, dict[str, int]] = {}
    rounds: dict[str, dict[str, int]] = {}
    for t in traces:
        agents = {a for a in t.get("agents") or [] if labels is None or _label(t, a) in labels}
        for s in t.get("steps") or []:
            agent = s.get("agent")
            if agent not in agents:
                continue
            steps += 1
            ok = bool(s.get("valid", True))
            refused += not ok
            kinds = [e.get("type") for e in s.get("events") or []
                     if isinstance(e, Mapping) and e.get("agent", agent) == agent]
            fallbacks += any(k in FALLBACK_EVENTS for k in kinds)
            if (s.get("attempt") or 1) == 1:
                w = ok and "output_format_warning" in kinds
                turns += 1
                bad += not ok
                warned += w
                for table, key in ((phases, str(s.get("phase"))), (rounds, str(s.get("round")))):
                    c = table.setdefault(key, {"turns": 0, "turns_with_error": 0, "warned": 0})
                    c["turns"] += 1
                    c["turns_with_error"] += not ok
                    c["warned"] += w

    def rate(n: int, d: int) -> float | None:
        return n / d if d else None

    return {"turns": turns, "turns_with_error": bad, "parse_error_rate": rate(bad, turns),
            "fallbacks": fallbacks, "fallback_rate": rate(fallbacks, turns),
            "warned_turns": warned, "format_warning_rate": rate(warned, turns),
            "steps": steps, "refused_steps": refused, "refused_step_rate": rate(refused, steps),
            "by_phase": {k: {**v, "parse_error_rate": rate(v["turns_with_error"], v["turns"])}
                         for k, v in sorted(phases.items())},
            "by_round": {k: {**v, "parse_error_rate": rate(v["turns_with_error"], v["turns"])}
                         for k, v in sorted(rounds.items(), key=lambda kv: (len(kv[0]), kv[0]))}}


def figures(traces: Sequence[Mapping[str, Any]], labels: Sequence[str] | None = None) -> dict[str, Any]:
    """The table's figures for a set of traces (one stage, one pairing)."""
    from negotiation_env.analysis.resource_metrics import pooled_metrics

    done = [t for t in traces if t.get("status") == "complete" and t.get("rounds")]
    out: dict[str, Any] = {"games": len(traces), "complete": len(done),
                           "errors": sum(1 for t in traces if t.get("status") == "error"),
                           "truncated": sum(1 for t in traces if t.get("status") == "truncated")}
    if done:
        # every round counts, fallback rounds included: a model's refused decisions are
        # part of how it plays (the analysis default leaves them out, as the paper does)
        m = pooled_metrics(done, include_fallbacks=True)
        out.update(rounds=m["rounds"], efficiency=m["efficiency"], optimum_rate=m["optimum_rate"],
                   overdraw_rate=m["overdraw_rate"], games_with_optimal_round=m["games_with_optimal_round"])
    else:
        out.update(rounds=0, efficiency=None, optimum_rate=None, overdraw_rate=None, games_with_optimal_round=None)
    out.update(turn_errors(traces, labels))
    return out


def _pairing(trace: Mapping[str, Any]) -> str:
    lineup = list((trace.get("run") or {}).get("lineup") or [])
    return "self" if lineup and all(x == MODEL_LABEL for x in lineup) else "oracle"


def evaluate(model_path: str | Path, stage: str, work: Path, args: argparse.Namespace,
             progress: _Progress, *, decoding: str = "free", scenarios: str = "shipped",
             sets: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Step 4 for one stage and variant: play the eval config through the runner,
    figures per pairing. The free, shipped variant's run folder is ``eval-STAGE``, the
    others' ``eval-STAGE-DECODING-SCENARIOS``."""
    tag = "" if (decoding, scenarios) == ("free", "shipped") else f"-{decoding}-{scenarios}"
    out = work / f"eval-{stage}{tag}"
    t0 = time.perf_counter()
    config = eval_config(args, model_path, stage, constrained=decoding == "constrained", sets=sets)
    _run(config, out, progress, f"eval {stage}{tag}", args.batch_games)
    seconds = time.perf_counter() - t0
    _drop_runner_models()
    traces = _read(out)
    res: dict[str, Any] = {"run_dir": str(out), "seconds": seconds, "decoding": decoding, "scenarios": scenarios}
    for pairing in ("oracle", "self"):
        sel = [t for t in traces if _pairing(t) == pairing]
        if sel:
            res[pairing] = figures(sel, [MODEL_LABEL])
    return res


# --------------------------------------------------------------------------- table


def _f(v: Any, fmt: str = ".3f") -> str:
    return "-" if v is None else format(v, fmt)


def table_rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per stage, evaluation variant and pairing: the free, shipped variant of
    each stage first (``result["eval"]``), then the others (``result["variants"]``)."""
    teacher = (result.get("data") or {}).get("teacher", "oracle")
    rows = [{"stage": "data", "pairing": "follower vs oracle" if teacher == "follower" else "oracle self-play",
             "decoding": "-", "scenarios": "shipped",
             **result["collect"]["figures"]}]
    for key in ("eval", "variants"):
        for stage in ("before", "after"):
            runs = [result["eval"][stage]] if key == "eval" else (result.get("variants") or {}).get(stage, [])
            for run in runs:
                for pairing, name in (("oracle", "model vs oracle"), ("self", "model self-play")):
                    f = run.get(pairing)
                    if f is not None:
                        rows.append({"stage": stage, "pairing": name, "decoding": run.get("decoding", "free"),
                                     "scenarios": run.get("scenarios", "shipped"), **f})
    return rows


def render_table(rows: Sequence[Mapping[str, Any]]) -> str:
    head = (f"{'stage':<7} {'pairing':<17} {'decoding':<11} {'scenarios':<9} {'games':>5} {'turns':>6} "
            f"{'parse err':>9} {'talk':>6} {'decision':>8} "
            f"{'fallback':>8} {'warned':>6} {'efficiency':>10} {'optimum':>7} {'overdraw':>8}")
    lines = [head, "-" * len(head)]
    for r in rows:
        ph = r.get("by_phase") or {}
        lines.append(f"{r['stage']:<7} {r['pairing']:<17} {r['decoding']:<11} {r['scenarios']:<9} "
                     f"{r['games']:>5} {r['turns']:>6} "
                     f"{_f(r['parse_error_rate']):>9} {_f((ph.get('talk') or {}).get('parse_error_rate')):>6} "
                     f"{_f((ph.get('decision') or {}).get('parse_error_rate')):>8} {_f(r['fallback_rate']):>8} "
                     f"{_f(r['format_warning_rate']):>6} {_f(r['efficiency']):>10} {_f(r['optimum_rate']):>7} "
                     f"{_f(r['overdraw_rate']):>8}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_argument_group("games (collection and evaluation)")
    g.add_argument("--seed", type=int, default=0, help="cohort seed of the collection (evaluation: seed + 1), "
                   "tiny model and training seed (default 0)")
    g.add_argument("--teacher", choices=TEACHERS, default="follower",
                   help="whose turns the model learns: follower (default; the deferent agent against the oracle, "
                   "seat agent_a: it discloses, says \"Agreed.\" to the oracle's proposal and buys the offered "
                   "share) or oracle (oracle self-play, both seats: its proposals need the joint optimum)")
    g.add_argument("--games", type=int, default=None, help="teacher games per M/C level (default: each scenario "
                   "of the level once with each first speaker)")
    g.add_argument("--train-scenarios", type=int, default=64, help="new scenarios per M/C level generated for the "
                   "collection, besides the shipped ones (default 64; 0: the shipped ones only)")
    g.add_argument("--train-seed", type=int, default=7, help="seed of the training scenario generator (default 7)")
    g.add_argument("--levels", default="mc0.5,mc0.8,mc1.0", help="M/C levels (scenario sets), comma-separated")
    g.add_argument("--rounds", type=int, default=2, help="rounds per game (default 2)")
    g.add_argument("--talk-turns", type=int, default=2, help="cheap-talk turns per agent per round (default 2: "
                   "whoever speaks first, the oracle can propose once it knows both parties' projects, and the "
                   "other can answer)")
    g.add_argument("--theme", default="none", help="resource theme: none (abstract ids, default), random or a name")
    g.add_argument("--thinking", action=argparse.BooleanOptionalAction, default=False,
                   help="the thinking-on answer format (a JSON object with thinking, speech and action for every "
                   "turn); default off: talk is plain text, a decision ONLY a JSON purchase object (Appendix D.6)")
    g.add_argument("--prompt-style", choices=("paper", "compact"), default="compact",
                   help="the resource game's prompt_style: paper (Appendix D, default) or compact (a short prompt "
                   "for small models; thinking off only)")
    g.add_argument("--max-retries", type=int, default=1, help="retries after a refused answer (default 1)")
    g.add_argument("--all-rounds", action="store_true", help="train on every valid turn, not only on the turns "
                   "of jointly optimal rounds")
    m = p.add_argument_group("model and training")
    m.add_argument("--model", default=None, metavar="PATH_OR_ID", help="a causal LM with a chat template (local "
                   "folder or hub id); default: a tiny random Llama built here")
    m.add_argument("--tiny-hidden", type=int, default=128)
    m.add_argument("--tiny-layers", type=int, default=4)
    m.add_argument("--tiny-heads", type=int, default=4)
    m.add_argument("--tiny-vocab", type=int, default=1024)
    m.add_argument("--tiny-tokenizer", choices=("bytelevel", "words"), default="bytelevel",
                   help="where the tiny tokenizer's BPE may merge: bytelevel (GPT-2's rule, default: 'r3' is "
                   "two tokens) or words (letters, digits and '_' together: 'r3', 'project_a' can be one token)")
    m.add_argument("--tiny-init", type=float, default=0.02, help="standard deviation of the tiny model's initial "
                   "weights (default 0.02, as for any model trained from scratch; build_tiny_model's 0.3 suits "
                   "untrained use but stops the model from learning to copy from its prompt)")
    m.add_argument("--context", type=int, default=3, help="compact prompt: train on and play with the system "
                   "message and the last N messages only (HFPolicy context_messages; default 3: a decision sees the "
                   "offer, its \"Agreed.\" and the decision prompt; 0: the whole conversation)")
    m.add_argument("--train-on", choices=("turns", "conversations"), default="turns",
                   help="turns: one prompt-completion example per exported turn (default); conversations: one "
                   "example per agent and game, the loss on every exported answer in it (needs --context 0)")
    m.add_argument("--steps", type=int, default=600, help="optimizer steps (default 600)")
    m.add_argument("--disclosure-steps", type=int, default=DISCLOSURE_STEPS,
                   help="after --steps, this many steps on every example plus each disclosure twice more "
                   f"(disclosure_examples; default {DISCLOSURE_STEPS}: none; 150 is the run on the Datasets page)")
    m.add_argument("--batch-size", type=int, default=16, help="examples per step (default 16)")
    m.add_argument("--copy-steps", type=int, default=COPY_STEPS,
                   help="first of all, this many steps on synthetic examples (what --copy-lines says) that teach "
                   f"copying from the system message (default {COPY_STEPS}, 0: none)")
    m.add_argument("--copy-lines", choices=("words", "tokens", "disclosures"), default=COPY_LINES,
                   help="what the --copy-steps examples are: tokens (repeat a line of random tokens of the model's "
                   "vocabulary, copy_lines), words (of random words and marks of the teacher's answers, "
                   "copy_examples) or disclosures (the teacher's disclosures with new units and rewards in the "
                   f"prompt and the answer, synthetic_disclosures); default {COPY_LINES}")
    m.add_argument("--synthetic-shapes", action=argparse.BooleanOptionalAction, default=SYNTHETIC_SHAPES,
                   help="synthetic disclosures (--copy-lines disclosures, --train-disclosures) also change which "
                   f"resources each project line needs, not only the numbers (default {SYNTHETIC_SHAPES})")
    m.add_argument("--train-disclosures", choices=TRAIN_DISCLOSURES, default=TRAIN_DISCLOSURES[0],
                   help="the disclosures among the --steps examples: real (the export's, default), real+synthetic "
                   "(and as many synthetic_disclosures) or synthetic (as many synthetic ones instead of the real); "
                   "the last two need --train-on turns")
    m.add_argument("--curriculum-steps", type=int, default=500,
                   help="before --steps: this many steps on the decision turns alone, their window without the "
                   "system message (what a purchase copies is in the conversation, and the long system prompt "
                   "keeps a model trained from scratch from finding it); default 500, 0: none")
    m.add_argument("--curriculum-disclosures", type=float, default=0.0, metavar="FRACTION",
                   help="the curriculum's examples also hold this many synthetic disclosures (full window) per "
                   "decision turn, so that the warm-up's copying from the system message is not forgotten while "
                   "the decisions are learnt (default 0: none)")
    m.add_argument("--curriculum-first", action=argparse.BooleanOptionalAction, default=False,
                   help="run the curriculum before the --copy-steps warm-up, not after it: each stage makes the "
                   "model forget the other's task, and the training then starts from a model that copies its "
                   "disclosures rather than one that copies purchases (default: off)")
    m.add_argument("--lr", type=float, default=None, help="learning rate (default 3e-3 for the tiny model, "
                   "1e-5 for --model)")
    m.add_argument("--max-length", type=int, default=None, help="truncate examples to this many tokens "
                   "(default: none; truncation keeps the start and would cut the answer)")
    m.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N (training and evaluation)")
    m.add_argument("--dtype", default="auto", help="evaluation dtype: auto, float32, bfloat16, float16")
    e = p.add_argument_group("evaluation")
    e.add_argument("--eval-games", type=int, default=4, help="games per M/C level and pairing (default 4)")
    e.add_argument("--eval-pairing", choices=PAIRINGS, default="oracle",
                   help="the model against the oracle (default), in self-play, or both")
    e.add_argument("--constrained", action=argparse.BooleanOptionalAction, default=True,
                   help="also evaluate with constrained decoding under the games' answer formats (HFPolicy "
                   "constrained=true, llguidance; default on)")
    e.add_argument("--constrained-text-chars", type=int, default=320,
                   help="cap on a constrained answer's free-text fields (HFPolicy constrained_text_chars; default "
                   "320: the oracle's longest message is about 250 characters)")
    e.add_argument("--heldout", type=int, default=2, help="also evaluate on N new generated scenarios per M/C "
                   "level, none of them shipped (default 2; 0: none)")
    e.add_argument("--heldout-seed", type=int, default=2026, help="seed of the held-out scenario generator")
    e.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0: greedy)")
    e.add_argument("--max-new-tokens", type=int, default=96, help="per answer (default 96: the oracle's longest "
                   "answer is 82 tokens of the tiny model's tokenizer)")
    e.add_argument("--batch-games", type=int, default=None, help="play N evaluation games in lock-step, batching "
                   "the model's calls (default 8 where the runner has lock-step batching, else 1)")
    o = p.add_argument_group("output")
    o.add_argument("--work", default=None, help="keep the run folders, the SFT table and the models here "
                   "(default: a temporary folder, removed at the end)")
    o.add_argument("--out", default=None, help="result JSON (default benchmarks/results/train_sft.json)")
    o.add_argument("--quick", action="store_true", help="smoke run: " + ", ".join(f"{k}={v}" for k, v in QUICK.items()))
    o.add_argument("--no-progress", action="store_true", help="no progress bars")
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(argv)
    if args.quick:
        defaults = {a.dest: a.default for a in p._actions}
        for k, v in QUICK.items():
            if getattr(args, k) == defaults[k]:
                setattr(args, k, v)
    if args.batch_games is None:
        args.batch_games = 8 if lockstep_available() else 1
    if args.lr is None:
        args.lr = 1e-5 if args.model else 3e-3
    if args.context < 0 or args.heldout < 0 or args.train_scenarios < 0 or args.curriculum_steps < 0 \
            or args.copy_steps < 0 or args.disclosure_steps < 0:
        p.error("--context, --heldout, --train-scenarios, --copy-steps, --curriculum-steps and --disclosure-steps "
                "must be >= 0")
    if not args.curriculum_disclosures >= 0:  # a negative or NaN fraction would add nothing, silently
        p.error("--curriculum-disclosures must be a number >= 0")
    if args.train_on == "conversations" and args.train_disclosures != "real":
        p.error("--train-disclosures real+synthetic and synthetic make prompt-completion examples: use --train-on turns")
    if args.train_on == "conversations" and args.context:
        p.error("--train-on conversations trains on whole conversations, so play must see them whole: use --context 0")
    if args.games is not None and args.games < 1:
        p.error("--games must be >= 1")
    for k in ("rounds", "steps", "batch_size", "eval_games", "max_new_tokens", "batch_games"):
        if getattr(args, k) < 1:
            p.error(f"--{k.replace('_', '-')} must be >= 1")
    return args


def quiet_libraries() -> None:
    """No download/loading bars or per-log prints from transformers, datasets and TRL
    (the progress display and the JSON have what matters)."""
    import warnings

    import datasets
    import transformers

    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    datasets.utils.logging.set_verbosity_error()
    datasets.disable_progress_bars()
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"(transformers|trl)(\.|$)")


def lockstep_available() -> bool:
    from negotiation_env.runner import run

    return "batch_games" in inspect.signature(run).parameters


def benchmark(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """The whole loop in ``work``; returns the result dict (also what the JSON holds)."""
    quiet_libraries()
    with _Progress(enabled=not args.no_progress) as progress:
        t0 = time.perf_counter()
        sets = {"shipped": None, "held-out": heldout_sets(args, work, progress) if args.heldout else None}
        collect_sets = train_sets(args, work, sets["held-out"], progress)
        generated = time.perf_counter() - t0
        collect_dir = work / "collect"
        summary = _run(collect_config(args, collect_sets), collect_dir, progress, f"collect {args.teacher}")
        collect_traces = _read(collect_dir)
        collect = {"run_dir": str(collect_dir), "seconds": time.perf_counter() - t0 - generated,
                   "generation_seconds": generated, "games": summary.played,
                   "scenarios": {k: set_size(v) for k, v in collect_sets.items()},
                   "figures": figures(collect_traces, [FOLLOWER["label"]] if args.teacher == "follower" else None)}

        sft_path = work / "sft.parquet"
        exported = export_sft(collect_dir, sft_path, only_optimal=not args.all_rounds)
        rows = teacher_rows(exported, args)
        if not rows:
            raise SystemExit("the export has no rows of the teacher (no jointly optimal round?); try --all-rounds "
                             "or more --games")
        data = {"path": str(sft_path), "exported_rows": len(exported), "rows": len(rows), "teacher": args.teacher,
                "only_optimal": not args.all_rounds,
                "sha256": digest([r["messages"] for r in rows]),
                "phases": {ph: sum(1 for r in rows if r["phase"] == ph) for ph in sorted({r["phase"] for r in rows})}}

        if args.model:
            base = args.model
            model_info = {"model": args.model, "tiny": False}
        else:
            base = str(build_tiny(work / "model-base", rows, args))
            model_info = {"model": "tiny", "tiny": True, "hidden_size": args.tiny_hidden, "layers": args.tiny_layers,
                          "heads": args.tiny_heads, "vocab_size": args.tiny_vocab,
                          "tokenizer": args.tiny_tokenizer}

        examples = training_examples(rows, args, base)
        data["train_on"] = args.train_on
        data["examples"] = len(examples)  # (the synthetic disclosures included)
        data["train_disclosures"] = args.train_disclosures
        if args.train_disclosures != "real":
            data["synthetic_examples"] = sum(map(is_disclosure, rows))

        more: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}

        def stage(model: str | Path, name: str) -> dict[str, Any]:
            main = None
            for decoding, scenarios in variants(args):
                res = evaluate(model, name, work, args, progress, decoding=decoding, scenarios=scenarios,
                               sets=sets[scenarios])
                if (decoding, scenarios) == ("free", "shipped"):
                    main = res
                else:
                    more[name].append(res)
            return main

        before = stage(base, "before")
        sft_dir = work / "model-sft"
        order: list[str] = []  # the stages in the order they ran

        def warm_up(start: str) -> tuple[dict[str, Any] | None, str]:
            if not args.copy_steps:
                return None, start
            warm = warmup_examples(rows, args, base)
            if not warm:
                raise SystemExit(f"--copy-steps: nothing to make warm-up examples of (--copy-lines {args.copy_lines}; "
                                 "disclosures needs the teacher's disclosures in the compact prompt's form)")
            info = train(start, warm, work / "model-copy", args, progress, steps=args.copy_steps, name="copy")
            order.append("copy")
            info["examples_kind"] = {
                "words": "synthetic: repeat a random line of the answers' words",
                "tokens": "synthetic: repeat a line of random tokens of the vocabulary",
                "disclosures": "synthetic: the teacher's disclosures with new units and rewards"}[args.copy_lines]
            data["copy_examples"] = len(warm)
            return info, str(work / "model-copy")

        def curriculum(start: str) -> tuple[dict[str, Any] | None, str]:
            if not args.curriculum_steps:
                return None, start
            first = curriculum_examples(rows, args)
            if not first:
                raise SystemExit("--curriculum-steps: the export has no decision turn of the teacher")
            info = train(start, first, work / "model-curriculum", args, progress, steps=args.curriculum_steps,
                         name="curriculum")
            order.append("curriculum")
            info["examples_kind"] = "decision turns, no system message" + (
                f", and {args.curriculum_disclosures:g} synthetic disclosures (full window) per decision turn"
                if args.curriculum_disclosures > 0 else "")
            data["curriculum_examples"] = len(first)
            return info, str(work / "model-curriculum")

        if args.curriculum_first:  # the full stage then starts from the warm-up's model, which copies
            stage1, start = curriculum(base)
            stage0, start = warm_up(start)
        else:
            stage0, start = warm_up(base)
            stage1, start = curriculum(start)
        data["stage_order"] = order + ["train"] + (["disclosures"] if args.disclosure_steps else [])
        if args.disclosure_steps:
            training = train(start, examples, work / "model-full", args, progress)
            last = disclosure_examples(rows, args)
            stage3 = train(str(work / "model-full"), last, sft_dir, args, progress, steps=args.disclosure_steps,
                           name="disclosures")
            stage3["examples_kind"] = "every turn, each disclosure twice more"
            data["disclosure_examples"] = len(last)
        else:
            training, stage3 = train(start, examples, sft_dir, args, progress), None
        training["copy"] = stage0
        training["curriculum"] = stage1
        training["disclosures"] = stage3
        after = stage(sft_dir, "after")

    result = {
        "benchmark": "train_sft",
        "settings": {k: v for k, v in vars(args).items() if k not in ("out", "no_progress")},
        "env_config": env_config(args), "scenario_sets": scenario_sets(args),
        "collect": collect, "data": data, "model": {**model_info, "parameters": training["parameters"]},
        "training": training, "eval": {"before": before, "after": after}, "variants": more,
        "heldout_scenarios": sets["held-out"],
        "seconds": time.perf_counter() - t0,
    }
    result["table"] = table_rows(result)
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.work:
        work = Path(args.work)
        if work.exists() and any(work.iterdir()):
            raise SystemExit(f"--work {work} is not empty; the runner refuses to mix runs")
        work.mkdir(parents=True, exist_ok=True)
        result = benchmark(args, work)
    else:
        with tempfile.TemporaryDirectory(prefix="train_sft-") as tmp:
            result = benchmark(args, Path(tmp))
    print(render_table(result["table"]))
    t = result["training"]
    d = result["data"]
    made = {"real": "", "real+synthetic": f", plus {d.get('synthetic_examples')} synthetic disclosures",
            "synthetic": f", {d.get('synthetic_examples')} synthetic disclosures in place of the real ones"}
    print(f"trained {t['steps']} steps on {t['examples']} examples ({d['rows']} exported turns"
          f"{made[d.get('train_disclosures', 'real')]}) ({t['epochs']:.1f} epochs) in "
          f"{t['seconds']:.0f} s; loss {_f(t['first_loss'])} -> {_f(t['last_loss'])}; total {result['seconds']:.0f} s")
    result["machine"] = machine_info(PACKAGES + EXTRA_PACKAGES)
    default = "train_sft_quick.json" if args.quick else "train_sft.json"
    write_result(Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
