"""Supervised fine-tuning on a teacher's games: collect, export, train, evaluate.

The loop a user runs with ``negotiation-env train sft`` (or :func:`run` from Python),
configured by one :class:`SFTRunConfig`; it needs the ``sft`` extra (TRL,
transformers, datasets: ``pip install 'negotiation_env[sft]'``). Each step goes
through the code a user would run by hand:

1. **Collect.** :func:`negotiation_env.runner.run` plays the teacher's games on the
   resource game into ``WORK/collect``. ``teacher="follower"`` (default): the deferent
   agent (:data:`FOLLOWER`: it discloses its projects, says "Agreed." to the first
   proposal and buys exactly the offered share) in seat agent_a against
   ``scripted:oracle``, the seat and opponent the model is evaluated in, so every answer
   it gives copies what it read; ``"oracle"``: oracle self-play. The scenarios: the
   shipped ones of each M/C level plus ``train_scenarios`` generated ones per level
   (:func:`train_sets`), each played once with each first speaker. The env config is
   small so that a tiny model on a CPU has a chance (:func:`env_config`).
2. **Export.** :func:`negotiation_env.traces.export.write` writes the SFT table (TRL's
   conversational format) to ``WORK/sft.parquet``, by default only turns of jointly
   optimal rounds, and of those the teacher's (:func:`teacher_rows`). Every row becomes
   a prompt-completion example (:func:`prompt_completion`) whose prompt is what
   ``HFPolicy(context_messages=N)`` shows the model in play.
3. **Train.** TRL's ``SFTTrainer`` (:func:`train`) fine-tunes ``model`` (default: a
   tiny Llama-style chat model built from the collected texts, :func:`build_tiny`) in
   stages: a warm-up of ``copy_steps`` on synthetic copy examples
   (:func:`warmup_examples`), ``curriculum_steps`` on the decision turns alone
   (:func:`curriculum_examples`), ``steps`` on every example (:func:`training_examples`)
   and ``disclosure_steps`` weighing the disclosures (:func:`disclosure_examples`).
   Saved to ``WORK/model-sft``.
4. **Evaluate.** The runner plays the same env config with an ``hf:`` policy for the
   model before and after training (:func:`evaluate`), against the oracle or in
   self-play, with free and (``constrained``) constrained decoding, on the shipped
   scenarios and on ``heldout`` new ones per level.

Figures (per stage and pairing, from the traces only, :func:`figures`): the
parse-error rate (turns whose first answer the env refused), per phase and round; the
fallback and format-warning rates; joint efficiency, optimum and overdraw rates pooled
over every resolved round with
:func:`negotiation_env.analysis.resource_metrics.pooled_metrics`, fallback rounds
included (a model's refused decisions are part of how it plays).

Deterministic under ``seed``: the tiny model's weights and tokenizer, the games, the
training order and greedy decoding are all seeded (up to floating-point effects of the
device).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Literal, Mapping, Sequence

from ..core.config import ConfigError
from .fields import check_fields
from .progress import TrainProgress

__all__ = ["SFTRunConfig", "SFTError", "QUICK", "quick", "run", "render_table", "summary_line"]

SCENARIO_SETS = {"mc0.5": ["mc050_*"], "mc0.8": ["mc080_*"], "mc1.0": ["mc100_*"]}
ORACLE = "scripted:oracle"
#: ``teacher="follower"``: the oracle's ideal partner, the deferent agent saying "Agreed." to
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
COPY_LINES = ("words", "tokens", "disclosures")
TRAIN_DISCLOSURES = ("real", "real+synthetic", "synthetic")
#: the packages a run needs (the ``sft`` extra), as they import
REQUIRED = ("torch", "transformers", "trl", "datasets")
#: the packages whose versions a result records beside its figures
EXTRA_PACKAGES = ("torch", "transformers", "trl", "datasets", "accelerate", "tokenizers")


class SFTError(RuntimeError):
    """A run that cannot go on with what it collected (no teacher row, no disclosure to
    make synthetic examples of); the message names the setting to change."""


@dataclass(frozen=True)
class SFTRunConfig:
    """Every setting of an SFT run (:func:`run`), validated when it is built (a
    :class:`~negotiation_env.core.config.ConfigError` names the field). The fields map
    one to one onto the flags of ``negotiation-env train sft`` (``batch_size`` is
    ``--batch-size``).

    seed: cohort seed of the collection (the evaluation plays seed + 1), of the tiny
        model and of training
    teacher: whose turns the model learns: ``follower`` (the deferent agent against the
        oracle, seat agent_a: it discloses, says "Agreed." to the oracle's proposal and
        buys the offered share) or ``oracle`` (oracle self-play, both seats)
    games: teacher games per M/C level (None: each scenario of the level once with each
        first speaker)
    train_scenarios: new scenarios per M/C level generated for the collection, besides
        the shipped ones (0: the shipped ones only)
    train_seed: seed of the training scenario generator
    levels: the M/C levels (scenario sets) played: ``mc0.5``, ``mc0.8``, ``mc1.0``
    rounds: rounds per game
    talk_turns: cheap-talk turns per agent per round (2: whoever speaks first, the
        oracle can propose once it knows both parties' projects, and the other can answer)
    theme: resource theme: ``none`` (abstract ids r1, r2, ...), ``random`` or a theme name
    thinking: the thinking-on answer format (a JSON object with thinking, speech and
        action for every turn); off: talk is plain text, a decision only a JSON purchase
        object (Appendix D.6)
    prompt_style: the resource game's ``prompt_style``: ``paper`` (Appendix D) or
        ``compact`` (a short prompt for small models; thinking off only)
    max_retries: retries after a refused answer
    all_rounds: train on every valid turn, not only on the turns of jointly optimal rounds
    model: a causal LM with a chat template (local folder or hub id); None: a tiny
        random Llama built from the collected texts
    tiny_hidden, tiny_layers, tiny_heads, tiny_vocab: the tiny model's hidden size,
        layers, attention heads and vocabulary size
    tiny_tokenizer: where the tiny tokenizer's BPE may merge: ``bytelevel`` (GPT-2's
        rule: 'r3' is two tokens) or ``words`` (letters, digits and '_' together)
    tiny_init: standard deviation of the tiny model's initial weights (0.02, as for any
        model trained from scratch; larger spreads stop it from learning to copy from
        its prompt)
    context: train on and play with the system message and the last N messages only
        (``HFPolicy`` ``context_messages``; 3: a decision sees the offer, its "Agreed."
        and the decision prompt; 0: the whole conversation)
    train_on: ``turns``: one prompt-completion example per exported turn;
        ``conversations``: one example per agent and game, the loss on every exported
        answer in it (needs ``context`` 0)
    steps: optimizer steps on every example
    disclosure_steps: after ``steps``, this many steps on every example plus each
        disclosure twice more (0: none)
    batch_size: examples per step
    copy_steps: first of all, this many steps on synthetic examples (what ``copy_lines``
        says) that teach copying from the system message (0: none)
    copy_lines: what the ``copy_steps`` examples are: ``tokens`` (repeat a line of random
        tokens of the model's vocabulary), ``words`` (of random words of the teacher's
        answers) or ``disclosures`` (the teacher's disclosures with new units and rewards)
    synthetic_shapes: synthetic disclosures also change which resources each project
        line needs, not only the numbers
    train_disclosures: the disclosures among the ``steps`` examples: ``real`` (the
        export's), ``real+synthetic`` (and as many synthetic ones) or ``synthetic`` (as
        many synthetic ones instead of the real); the last two need ``train_on`` turns
    curriculum_steps: before ``steps``, this many steps on the decision turns alone,
        their window without the system message (0: none)
    curriculum_disclosures: the curriculum's examples also hold this many synthetic
        disclosures (full window) per decision turn (0: none)
    curriculum_first: run the curriculum before the ``copy_steps`` warm-up, not after it
    lr: learning rate (None: 3e-3 for the tiny model, 1e-5 for ``model``)
    max_length: truncate examples to this many tokens (None: never; truncation keeps the
        start and would cut the answer)
    device: ``auto``, ``cpu``, ``cuda``, ``cuda:N`` (training and evaluation)
    dtype: evaluation dtype: ``auto``, ``float32``, ``bfloat16``, ``float16``
    eval_games: evaluation games per M/C level and pairing
    eval_pairing: the model against the oracle (``oracle``), in self-play (``self``), or
        ``both``
    constrained: also evaluate with constrained decoding under the games' answer formats
        (``HFPolicy`` ``constrained=true``)
    constrained_text_chars: cap on a constrained answer's free-text fields
    heldout: also evaluate on N new generated scenarios per M/C level, none of them
        shipped (0: none)
    heldout_seed: seed of the held-out scenario generator
    temperature: sampling temperature of the evaluation (0: greedy)
    max_new_tokens: tokens per answer in the evaluation
    batch_games: evaluation games played in lock-step, batching the model's calls
    """

    seed: int = 0
    teacher: Literal["follower", "oracle"] = "follower"
    games: int | None = None
    train_scenarios: int = 64
    train_seed: int = 7
    levels: tuple[Literal["mc0.5", "mc0.8", "mc1.0"], ...] = ("mc0.5", "mc0.8", "mc1.0")
    rounds: int = 2
    talk_turns: int = 2
    theme: str = "none"
    thinking: bool = False
    prompt_style: Literal["paper", "compact"] = "compact"
    max_retries: int = 1
    all_rounds: bool = False
    model: str | None = None
    tiny_hidden: int = 128
    tiny_layers: int = 4
    tiny_heads: int = 4
    tiny_vocab: int = 1024
    tiny_tokenizer: Literal["bytelevel", "words"] = "bytelevel"
    tiny_init: float = 0.02
    context: int = 3
    train_on: Literal["turns", "conversations"] = "turns"
    steps: int = 600
    disclosure_steps: int = 0
    batch_size: int = 16
    copy_steps: int = 150
    copy_lines: Literal["words", "tokens", "disclosures"] = "disclosures"
    synthetic_shapes: bool = False
    train_disclosures: Literal["real", "real+synthetic", "synthetic"] = "real"
    curriculum_steps: int = 500
    curriculum_disclosures: float = 0.0
    curriculum_first: bool = False
    lr: float | None = None
    max_length: int | None = None
    device: str = "auto"
    dtype: str = "auto"
    eval_games: int = 4
    eval_pairing: Literal["oracle", "self", "both"] = "oracle"
    constrained: bool = True
    constrained_text_chars: int = 320
    heldout: int = 2
    heldout_seed: int = 2026
    temperature: float = 0.0
    max_new_tokens: int = 96
    batch_games: int = 8

    def __post_init__(self) -> None:
        problems = check_fields(self)
        if problems:  # the range checks below compare numbers
            raise ConfigError("SFTRunConfig: " + "; ".join(problems))
        for name in ("context", "heldout", "train_scenarios", "copy_steps", "curriculum_steps", "disclosure_steps"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must be >= 0; got {getattr(self, name)}")
        for name in ("rounds", "steps", "batch_size", "eval_games", "max_new_tokens", "batch_games",
                     "tiny_hidden", "tiny_layers", "tiny_heads", "tiny_vocab", "constrained_text_chars"):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be >= 1; got {getattr(self, name)}")
        if self.games is not None and self.games < 1:
            problems.append(f"games must be >= 1 (or None: each scenario once with each first speaker); got {self.games}")
        if self.max_length is not None and self.max_length < 1:
            problems.append(f"max_length must be >= 1 (or None: no truncation); got {self.max_length}")
        if not self.curriculum_disclosures >= 0:  # a negative or NaN fraction would add nothing, silently
            problems.append(f"curriculum_disclosures must be a number >= 0; got {self.curriculum_disclosures}")
        for name in ("tiny_init", "temperature"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v >= 0):
                problems.append(f"{name} must be a finite number >= 0; got {v}")
        if self.lr is not None and not (math.isfinite(self.lr) and self.lr > 0):
            problems.append(f"lr must be a finite number > 0 (or None: the default); got {self.lr}")
        if not self.levels:
            problems.append(f"levels names no level; choose from {', '.join(SCENARIO_SETS)}")
        if self.train_on == "conversations" and self.train_disclosures != "real":
            problems.append("train_disclosures real+synthetic and synthetic make prompt-completion examples: "
                            "use train_on='turns'")
        if self.train_on == "conversations" and self.context:
            problems.append("train_on='conversations' trains on whole conversations, so play must see them whole: "
                            "use context=0")
        if problems:
            raise ConfigError("SFTRunConfig: " + "; ".join(problems))

    @property
    def learning_rate(self) -> float:
        """``lr``, or its default: 1e-5 for a given ``model``, 3e-3 for the tiny one."""
        if self.lr is not None:
            return self.lr
        return 1e-5 if self.model else 3e-3


#: the smoke-run sizes (``negotiation-env train sft --quick``): minutes on two CPU cores
QUICK: dict[str, Any] = {"games": 2, "train_scenarios": 1, "copy_steps": 2, "curriculum_steps": 2, "steps": 4,
                         "disclosure_steps": 2, "batch_size": 2, "eval_games": 1, "rounds": 1, "talk_turns": 1,
                         "max_new_tokens": 24, "levels": ("mc0.8",)}


def quick(config: SFTRunConfig) -> SFTRunConfig:
    """``config`` with the :data:`QUICK` sizes in every field it leaves at its default."""
    defaults = {f.name: f.default for f in dataclasses.fields(SFTRunConfig)}
    return dataclasses.replace(config, **{k: v for k, v in QUICK.items() if getattr(config, k) == defaults[k]})


# --------------------------------------------------------------------------- settings


def env_config(config: SFTRunConfig) -> dict[str, Any]:
    """The resource-game config of every game (collection and evaluation)."""
    return {"num_rounds": config.rounds, "cheap_talk_turns": config.talk_turns, "thinking": config.thinking,
            "theme": None if config.theme in (None, "none") else config.theme, "max_retries": config.max_retries,
            "prompt_style": config.prompt_style}


def scenario_sets(config: SFTRunConfig) -> dict[str, list[str]]:
    """The shipped scenario sets of ``config.levels`` (patterns of shipped names)."""
    return {k: SCENARIO_SETS[k] for k in dict.fromkeys(config.levels)}


def collect_config(config: SFTRunConfig, sets: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The runner config of step 1: the teacher's games on ``sets`` (default: the shipped
    scenario sets). ``teacher follower``: the follower in seat agent_a against the
    oracle (the seat and opponent the model is evaluated in); ``oracle``: oracle
    self-play. ``games`` games per level (default: every scenario of the level once with
    each first speaker; the games are deterministic, so more would repeat them)."""
    sets = dict(sets) if sets is not None else scenario_sets(config)
    if config.teacher == "follower":
        game = {"policies": [FOLLOWER, ORACLE], "pairings": [[FOLLOWER["label"], ORACLE]]}
    else:
        game = {"policies": [ORACLE], "pairings": "self"}
    games = config.games or 2 * max(set_size(v) for v in sets.values())
    return {"name": "sft-collect", "seed": config.seed, "games": [{
        "game": "resource", **game, "games_per_cell": games,
        "swap_first_speaker": True, "config": env_config(config), "scenario_sets": sets}]}


def teacher_rows(rows: Iterable[Mapping[str, Any]], config: SFTRunConfig) -> list[Mapping[str, Any]]:
    """The exported rows the model is trained on: the teacher's turns (``teacher
    follower``: the follower's, not its partner's, whose proposals need the joint optimum
    worked out; ``oracle``: every row, both seats being the oracle)."""
    if config.teacher == "follower":
        return [r for r in rows if r["policy"] == FOLLOWER["label"]]
    return list(rows)


def context_of(config: SFTRunConfig) -> int | None:
    """The compact prompt's message window (``context``; 0: the whole conversation)."""
    return config.context or None


def hf_options(config: SFTRunConfig, constrained: bool = False) -> dict[str, Any]:
    opts = {"temperature": config.temperature, "max_new_tokens": config.max_new_tokens, "device": config.device,
            "dtype": config.dtype, "max_batch_size": max(1, config.batch_games)}
    if context_of(config) is not None:
        opts["context_messages"] = context_of(config)
    if constrained:
        opts["constrained"] = True
        opts["constrained_text_chars"] = config.constrained_text_chars
    return opts


#: evaluation variants: (decoding, scenarios)
VARIANTS = (("free", "shipped"), ("constrained", "shipped"), ("free", "held-out"), ("constrained", "held-out"))


def variants(config: SFTRunConfig) -> list[tuple[str, str]]:
    return [(d, sc) for d, sc in VARIANTS
            if (d == "free" or config.constrained) and (sc == "shipped" or config.heldout)]


def generated_sets(config: SFTRunConfig, work: Path, kind: str, n: int, seed: int,
                   exclude: Sequence[Any] = (), progress: "TrainProgress | None" = None) -> dict[str, list[str]]:
    """``n`` new scenarios per M/C level from the scenario generator
    (:func:`~negotiation_env.games.resource.generator.generate_pool`, ``seed``), none equal
    to a shipped scenario or to one in ``exclude``, written to ``WORK/<kind>``: scenario
    sets of paths, one per level (names ``<kind>050_1`` ...)."""
    from negotiation_env.games.resource.generator import generate_pool, write_scenario
    from negotiation_env.games.resource.scenario import list_scenarios, load_scenario

    avoid = [load_scenario(name) for name in list_scenarios()] + list(exclude)
    folder = work / kind
    folder.mkdir(parents=True, exist_ok=True)
    levels = scenario_sets(config)
    task = progress.task(f"generate {kind}", n * len(levels)) if progress is not None else None
    out: dict[str, list[str]] = {}
    for level in levels:
        ratio = float(level[2:])
        pool = generate_pool(ratio, n, seed=seed, prefix=f"{kind}{round(ratio * 100):03d}_",
                             exclude=avoid, progress=None if task is None else (lambda *_: task()))
        out[level] = [str(write_scenario(res, folder / f"{sc.name}.json")) for sc, res in pool]
    return out


def heldout_sets(config: SFTRunConfig, work: Path, progress: "TrainProgress | None" = None) -> dict[str, list[str]]:
    """``heldout`` new scenarios per M/C level for the evaluation (seed
    ``heldout_seed``), written to ``WORK/heldout``."""
    return generated_sets(config, work, "heldout", config.heldout, config.heldout_seed, progress=progress)


def train_sets(config: SFTRunConfig, work: Path, heldout: Mapping[str, list[str]] | None,
               progress: "TrainProgress | None" = None) -> dict[str, list[str]]:
    """The collection's scenario sets: the shipped scenarios of each level plus
    ``train_scenarios`` generated ones (seed ``train_seed``, none equal to a shipped or
    a held-out scenario, written to ``WORK/train``). With a handful of scenarios a small
    model learns each scenario's answers by heart; with many it has to read them."""
    sets = {k: list(v) for k, v in scenario_sets(config).items()}
    if config.train_scenarios:
        from negotiation_env.games.resource.scenario import load_scenario

        exclude = [load_scenario(p) for paths in (heldout or {}).values() for p in paths]
        for level, paths in generated_sets(config, work, "train", config.train_scenarios, config.train_seed, exclude,
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


def eval_config(config: SFTRunConfig, model_path: str | Path, stage: str, *, constrained: bool = False,
                sets: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The runner config of step 4 for one stage: the same env config, an ``hf:`` policy
    (``constrained``: decoding under the answer formats; ``sets``: other scenario sets,
    e.g. the held-out ones)."""
    lineups = {"oracle": [[MODEL_LABEL, "oracle"]], "self": [[MODEL_LABEL, MODEL_LABEL]],
               "both": [[MODEL_LABEL, "oracle"], [MODEL_LABEL, MODEL_LABEL]]}[config.eval_pairing]
    policies: list[Any] = [{"spec": f"hf:{model_path}", "label": MODEL_LABEL,
                            "options": hf_options(config, constrained)}]
    if config.eval_pairing != "self":
        policies.append({"spec": ORACLE, "label": "oracle"})
    return {"name": f"sft-eval-{stage}", "seed": config.seed + 1, "games": [{
        "game": "resource", "policies": policies, "pairings": lineups, "games_per_cell": config.eval_games,
        "swap_first_speaker": True, "config": env_config(config),
        "scenario_sets": dict(sets) if sets is not None else scenario_sets(config)}]}


# --------------------------------------------------------------------------- steps 1-2: collect, export


def play(config: dict[str, Any], out: Path, progress: TrainProgress, name: str, batch_games: int = 1):
    """Play the runner config ``config`` into the run folder ``out`` (``batch_games``
    games in lock-step); games that ended in an error are noted, not hidden."""
    from negotiation_env.runner import run as run_games

    kw: dict[str, Any] = {}
    observer = progress.observer(name)
    if observer is not None:
        kw["observer"] = observer
    if batch_games > 1:
        kw["batch_games"] = batch_games
    summary = run_games(config, out, **kw)
    if summary.errors:
        first = next((c for c in summary.cells.values() if c.errors), None)
        progress.note(f"[yellow]{summary.errors} games of {name} ended in an error[/] (cell {first.cell if first else '?'}; "
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
    (:func:`negotiation_env.core.policy.compact_conversation`: the system message and the last N
    messages), so training and play read the same prompt."""
    out = []
    for r in rows:
        msgs = [{"role": m["role"], "content": m["content"]} for m in r["messages"]]
        if not msgs or msgs[-1]["role"] != "assistant":
            raise ValueError(f"an SFT row must end with the assistant's answer; got {msgs[-1:]!r}")
        prompt = msgs[:-1]
        if context is not None:
            from ..core.policy import compact_conversation

            prompt = compact_conversation(prompt, context)
        out.append({"prompt": prompt, "completion": msgs[-1:]})
    return out


def conversation_examples(rows: Iterable[Mapping[str, Any]], tokenizer: Any) -> list[dict[str, Any]]:
    """``train_on conversations``: one pre-tokenized example per agent and game, the
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
    is an error naming ``train_on turns``. Every answer of a conversation costs one
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
                                 "prefixes, so its answers cannot be cut out; use train_on='turns'")
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


def build_tiny(path: Path, rows: Sequence[Mapping[str, Any]], config: SFTRunConfig) -> Path:
    """The default model: tiny random Llama with a BPE tokenizer trained on the
    collected texts (prompts and answers)."""
    from .tiny import build_tiny_model

    corpus = [m["content"] for r in rows for m in r["messages"]]
    # generous positions: a context is a few thousand characters, and the evaluation's
    # retries make it longer
    return build_tiny_model(path, hidden_size=config.tiny_hidden, num_layers=config.tiny_layers,
                            num_heads=config.tiny_heads, vocab_size=config.tiny_vocab, seed=config.seed, corpus=corpus,
                            initializer_range=config.tiny_init, pretokenizer=config.tiny_tokenizer)


def _device_kwargs(device: str) -> dict[str, Any]:
    import torch

    cuda = device.startswith("cuda") or (device == "auto" and torch.cuda.is_available())
    if not cuda:
        return {"use_cpu": True}
    return {"bf16": bool(torch.cuda.is_bf16_supported())}


def curriculum_examples(rows: Sequence[Mapping[str, Any]], config: SFTRunConfig) -> list[dict[str, Any]]:
    """``curriculum_steps``: the decision turns' prompt-completion examples with the
    system message left out of their window (the purchase the follower makes copies the
    share offered in the conversation; with the 200-token system prompt in front, a model
    trained from scratch does not find it in the time: the curriculum teaches the copy
    first, then the full windows). ``curriculum_disclosures F`` adds round(F x their
    number) :func:`synthetic_disclosures` (full window; a Generator stream apart from the
    warm-up's)."""
    out = []
    for ex in prompt_completion([r for r in rows if r["phase"] == "decision"], context_of(config)):
        out.append({"prompt": [m for m in ex["prompt"] if m["role"] != "system"], "completion": ex["completion"]})
    if out and config.curriculum_disclosures > 0:
        # the curriculum alone makes the model forget the warm-up's copying from the system
        # message (a disclosure's loss goes from 0.36 to 11.25 in the default run); these keep it paying
        n = round(config.curriculum_disclosures * len(out))
        extra = synthetic_disclosures(rows, config, n=n, stream=22)
        if len(extra) < n:
            raise SFTError("curriculum_disclosures: the export has no disclosure of the compact prompt's form")
        out += extra
    return out


#: what :func:`copy_examples` splits an answer into: words (ids, numbers) and single punctuation marks
_WORD = re.compile(r"\w+|[^\w\s]")
#: synthetic copy examples made for ``copy_steps`` (more than the steps x batch ever read)
COPY_EXAMPLES = 4000
COPY_INSTRUCTION = "Repeat the last line."


def copy_examples(rows: Iterable[Mapping[str, Any]], config: SFTRunConfig,
                  n: int = COPY_EXAMPLES) -> list[dict[str, Any]]:
    """``copy_steps``: a synthetic warm-up before any game text, meant to teach a model
    trained from scratch to copy from its prompt. Each example is a line of 12 to 39 words
    drawn at random from the words and punctuation marks of the teacher's answers (project
    ids, resource ids, numbers, "needs", "pays", braces...), placed after 0 to 59 other
    such words at the end of the system message; the user asks "Repeat the last line."
    and the completion is that line. Nothing in such a line can be guessed from what came
    before it in the line, only copied; a disclosure copies the project lines of the
    system message and a purchase the quantities of the offer, from the same words. How
    much it helps varies a lot from recipe to recipe (Datasets page). Deterministic under
    ``seed`` (a numpy Generator of its own)."""
    import numpy as np

    words = sorted({w for r in rows for w in _WORD.findall(r["messages"][-1]["content"])})
    if not words:
        return []
    rng = np.random.default_rng([config.seed, 20])
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
    """Copy examples of ``copy_lines tokens`` (and of ``sft_levers.py``'s ``tokens`` and
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


def warmup_examples(rows: Sequence[Mapping[str, Any]], config: SFTRunConfig, base: str) -> list[dict[str, Any]]:
    """The ``copy_steps`` examples of ``copy_lines``: ``tokens`` (random tokens of the
    base model's vocabulary, :func:`copy_lines`), ``words`` (:func:`copy_examples`) or
    ``disclosures`` (teacher disclosures with new numbers, :func:`synthetic_disclosures`)."""
    if config.copy_lines == "words":
        return copy_examples(rows, config)
    if config.copy_lines == "disclosures":
        return synthetic_disclosures(rows, config)
    from transformers import AutoTokenizer

    return copy_lines(token_pieces(AutoTokenizer.from_pretrained(base)), "", config.seed)


def is_disclosure(row: Mapping[str, Any]) -> bool:
    """A talk turn that discloses the teacher's projects ("My project_a needs ...")."""
    return row["phase"] == "talk" and row["messages"][-1]["content"].startswith("My ")


def training_examples(rows: Sequence[Mapping[str, Any]], config: SFTRunConfig, base: str) -> list[dict[str, Any]]:
    """The ``steps`` examples: one per row (:func:`prompt_completion`) or per conversation
    (``train_on conversations``, :func:`conversation_examples`). ``train_disclosures``
    ``real+synthetic`` adds as many :func:`synthetic_disclosures` as the rows hold
    disclosures; ``synthetic`` puts them in place of the real ones. Either keeps copying
    from the prompt paying during training: with the real ones alone the model can learn
    them by heart instead (each project set recurs a few times), and the warm-up's
    copying fades."""
    if config.train_on == "conversations":
        from transformers import AutoTokenizer

        return conversation_examples(rows, AutoTokenizer.from_pretrained(base))
    if config.train_disclosures == "real":
        return prompt_completion(rows, context_of(config))
    mixed = synthetic_disclosures(rows, config, n=sum(is_disclosure(r) for r in rows))
    if not mixed:
        raise SFTError(f"train_disclosures={config.train_disclosures!r}: the export has no disclosure of the "
                         "compact prompt's form")
    if config.train_disclosures == "synthetic":  # the real disclosures left out: none can be learnt by heart
        rows = [r for r in rows if not is_disclosure(r)]
    return prompt_completion(rows, context_of(config)) + mixed


def disclosure_examples(rows: Sequence[Mapping[str, Any]], config: SFTRunConfig) -> list[dict[str, Any]]:
    """``disclosure_steps``: every turn's example (as for ``steps``) and each disclosure's
    twice more, so that the last steps weigh the answer the model copies worst (a
    disclosure copies a dozen numbers from the system message) without unlearning the
    others (disclosures alone teach it to disclose at every turn)."""
    ctx = context_of(config)
    return prompt_completion(rows, ctx) + 2 * prompt_completion([r for r in rows if is_disclosure(r)], ctx)


#: a project line of the compact system prompt (``COMPACT_PROJECT_LINE``)
_PROJECT_LINE = re.compile(r"^- (\S+) needs (.+) per run and pays (\S+)$", re.M)
#: a requirement's units ("3 r1 and 2 r3": the 3 and the 2)
_UNITS = re.compile(r"\b(\d+)(?= \S)")


def synthetic_disclosures(rows: Sequence[Mapping[str, Any]], config: SFTRunConfig,
                          n: int = COPY_EXAMPLES, stream: int = 21) -> list[dict[str, Any]]:
    """Disclosures of projects nobody has: each is a teacher disclosure (prompt as
    :func:`prompt_completion` gives it) whose project lines in the system message get new
    units and rewards, drawn from those seen in the rows' project lines, and whose answer
    says the new ones ("My project_a needs 3 r1 per run and pays 12. ..."), the rest of
    both unchanged. A real collection repeats each project set a few times, so a model
    trained from scratch can learn its disclosures by heart; here every example has new
    numbers, which only copying from the prompt gets right. With ``synthetic_shapes``
    each line also takes the resources of a requirement drawn from all those seen ("3 r1"
    may become "2 r2 and 5 r3"), so that the line's form, not only its numbers, has to be
    read from the prompt. Deterministic under ``seed`` (a numpy Generator of its own;
    ``stream`` tells apart the draws of different stages). Empty when the rows hold no
    disclosure of the compact prompt's form."""
    import numpy as np

    base = []
    for ex in prompt_completion([r for r in rows if is_disclosure(r)], context_of(config)):
        system, answer = ex["prompt"][0]["content"], ex["completion"][0]["content"]
        lines = list(_PROJECT_LINE.finditer(system))
        said = [f"My {m.group(1)} needs {m.group(2)} per run and pays {m.group(3)}." for m in lines]
        if ex["prompt"][0]["role"] == "system" and lines and all(x in answer for x in said):
            base.append((ex, lines, said))
    if not base:
        return []
    units = sorted({int(u) for _, lines, _ in base for m in lines for u in _UNITS.findall(m.group(2))})
    rewards = sorted({m.group(3) for _, lines, _ in base for m in lines})
    shapes = sorted({m.group(2) for _, lines, _ in base for m in lines}) if config.synthetic_shapes else None
    rng = np.random.default_rng([config.seed, stream])
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


def train(model_path: str, examples: list[dict[str, Any]], out: Path, config: SFTRunConfig,
          progress: TrainProgress, steps: int | None = None, name: str = "train") -> dict[str, Any]:
    """Step 3: TRL SFTTrainer on ``examples`` (prompt-completion) for ``steps`` (default
    ``steps``); saves to ``out``."""
    steps = config.steps if steps is None else steps
    progress = progress if progress is not None else TrainProgress()
    import datasets
    import torch
    import trl
    from transformers import AutoModelForCausalLM, AutoTokenizer, PrinterCallback, set_seed

    set_seed(config.seed)
    tok = AutoTokenizer.from_pretrained(model_path)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)
    ds = datasets.Dataset.from_list(examples)
    cfg = trl.SFTConfig(
        output_dir=str(out / "checkpoints"), max_steps=steps, per_device_train_batch_size=config.batch_size,
        gradient_accumulation_steps=1, learning_rate=config.learning_rate, lr_scheduler_type="cosine", warmup_steps=max(1, steps // 20),
        weight_decay=0.0, logging_steps=max(1, min(10, steps // 10)), save_strategy="no", report_to=[],
        seed=config.seed, data_seed=config.seed, max_length=config.max_length, completion_only_loss=True,
        disable_tqdm=True, dataloader_num_workers=0, **_device_kwargs(config.device))
    trainer = trl.SFTTrainer(model=model, args=cfg, train_dataset=ds, processing_class=tok,
                             callbacks=[cb for cb in [progress.trainer_callback(steps, name)] if cb is not None])
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


def evaluate(model_path: str | Path, stage: str, work: Path, config: SFTRunConfig,
             progress: TrainProgress, *, decoding: str = "free", scenarios: str = "shipped",
             sets: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Step 4 for one stage and variant: play the eval config through the runner,
    figures per pairing. The free, shipped variant's run folder is ``eval-STAGE``, the
    others' ``eval-STAGE-DECODING-SCENARIOS``."""
    tag = "" if (decoding, scenarios) == ("free", "shipped") else f"-{decoding}-{scenarios}"
    out = work / f"eval-{stage}{tag}"
    t0 = time.perf_counter()
    games = eval_config(config, model_path, stage, constrained=decoding == "constrained", sets=sets)
    play(games, out, progress, f"eval {stage}{tag}", config.batch_games)
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




def summary_line(result: Mapping[str, Any]) -> str:
    """One sentence on the training of a :func:`run` result: steps, examples, epochs,
    seconds and the loss from first to last log."""
    t, d = result["training"], result["data"]
    made = {"real": "", "real+synthetic": f", plus {d.get('synthetic_examples')} synthetic disclosures",
            "synthetic": f", {d.get('synthetic_examples')} synthetic disclosures in place of the real ones"}
    return (f"trained {t['steps']} steps on {t['examples']} examples ({d['rows']} exported turns"
            f"{made[d.get('train_disclosures', 'real')]}) ({t['epochs']:.1f} epochs) in "
            f"{t['seconds']:.0f} s; loss {_f(t['first_loss'])} -> {_f(t['last_loss'])}; total {result['seconds']:.0f} s")


# --------------------------------------------------------------------------- the loop


def quiet_libraries() -> None:
    """No download/loading bars or per-log prints from transformers, datasets and TRL
    (the progress display and the result have what matters)."""
    import warnings

    import datasets
    import transformers

    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    datasets.utils.logging.set_verbosity_error()
    datasets.disable_progress_bars()
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"(transformers|trl)(\.|$)")


def run(config: SFTRunConfig, work: str | Path, progress: TrainProgress | None = None) -> dict[str, Any]:
    """The whole loop (collect, export, train, evaluate) in the folder ``work`` (its run
    folders, the SFT table and the models stay there); returns the result: the settings,
    the collection's and every evaluation's figures, the training's losses and
    :func:`table_rows`. Raises :class:`SFTError` when the collection gives nothing to
    train on."""
    work = Path(work)
    progress = progress if progress is not None else TrainProgress()
    quiet_libraries()
    with progress:
        t0 = time.perf_counter()
        sets = {"shipped": None, "held-out": heldout_sets(config, work, progress) if config.heldout else None}
        collect_sets = train_sets(config, work, sets["held-out"], progress)
        generated = time.perf_counter() - t0
        collect_dir = work / "collect"
        summary = play(collect_config(config, collect_sets), collect_dir, progress, f"collect {config.teacher}")
        collect_traces = _read(collect_dir)
        collect = {"run_dir": str(collect_dir), "seconds": time.perf_counter() - t0 - generated,
                   "generation_seconds": generated, "games": summary.played,
                   "scenarios": {k: set_size(v) for k, v in collect_sets.items()},
                   "figures": figures(collect_traces, [FOLLOWER["label"]] if config.teacher == "follower" else None)}

        sft_path = work / "sft.parquet"
        exported = export_sft(collect_dir, sft_path, only_optimal=not config.all_rounds)
        rows = teacher_rows(exported, config)
        if not rows:
            raise SFTError("the export has no rows of the teacher (no jointly optimal round?); try all_rounds=True "
                           "(--all-rounds) or more games")
        data = {"path": str(sft_path), "exported_rows": len(exported), "rows": len(rows), "teacher": config.teacher,
                "only_optimal": not config.all_rounds,
                "sha256": digest([r["messages"] for r in rows]),
                "phases": {ph: sum(1 for r in rows if r["phase"] == ph) for ph in sorted({r["phase"] for r in rows})}}

        if config.model:
            base = config.model
            model_info = {"model": config.model, "tiny": False}
        else:
            base = str(build_tiny(work / "model-base", rows, config))
            model_info = {"model": "tiny", "tiny": True, "hidden_size": config.tiny_hidden,
                          "layers": config.tiny_layers, "heads": config.tiny_heads, "vocab_size": config.tiny_vocab,
                          "tokenizer": config.tiny_tokenizer}

        examples = training_examples(rows, config, base)
        data["train_on"] = config.train_on
        data["examples"] = len(examples)  # (the synthetic disclosures included)
        data["train_disclosures"] = config.train_disclosures
        if config.train_disclosures != "real":
            data["synthetic_examples"] = sum(map(is_disclosure, rows))

        more: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}

        def stage(model: str | Path, name: str) -> dict[str, Any]:
            main = None
            for decoding, scenarios in variants(config):
                res = evaluate(model, name, work, config, progress, decoding=decoding, scenarios=scenarios,
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
            if not config.copy_steps:
                return None, start
            warm = warmup_examples(rows, config, base)
            if not warm:
                raise SFTError(f"copy_steps: nothing to make warm-up examples of (copy_lines={config.copy_lines!r}; "
                               "disclosures needs the teacher's disclosures in the compact prompt's form)")
            info = train(start, warm, work / "model-copy", config, progress, steps=config.copy_steps, name="copy")
            order.append("copy")
            info["examples_kind"] = {
                "words": "synthetic: repeat a random line of the answers' words",
                "tokens": "synthetic: repeat a line of random tokens of the vocabulary",
                "disclosures": "synthetic: the teacher's disclosures with new units and rewards"}[config.copy_lines]
            data["copy_examples"] = len(warm)
            return info, str(work / "model-copy")

        def curriculum(start: str) -> tuple[dict[str, Any] | None, str]:
            if not config.curriculum_steps:
                return None, start
            first = curriculum_examples(rows, config)
            if not first:
                raise SFTError("curriculum_steps: the export has no decision turn of the teacher")
            info = train(start, first, work / "model-curriculum", config, progress, steps=config.curriculum_steps,
                         name="curriculum")
            order.append("curriculum")
            info["examples_kind"] = "decision turns, no system message" + (
                f", and {config.curriculum_disclosures:g} synthetic disclosures (full window) per decision turn"
                if config.curriculum_disclosures > 0 else "")
            data["curriculum_examples"] = len(first)
            return info, str(work / "model-curriculum")

        if config.curriculum_first:  # the full stage then starts from the warm-up's model, which copies
            stage1, start = curriculum(base)
            stage0, start = warm_up(start)
        else:
            stage0, start = warm_up(base)
            stage1, start = curriculum(start)
        data["stage_order"] = order + ["train"] + (["disclosures"] if config.disclosure_steps else [])
        if config.disclosure_steps:
            training = train(start, examples, work / "model-full", config, progress)
            last = disclosure_examples(rows, config)
            stage3 = train(str(work / "model-full"), last, sft_dir, config, progress, steps=config.disclosure_steps,
                           name="disclosures")
            stage3["examples_kind"] = "every turn, each disclosure twice more"
            data["disclosure_examples"] = len(last)
        else:
            training, stage3 = train(start, examples, sft_dir, config, progress), None
        training["copy"] = stage0
        training["curriculum"] = stage1
        training["disclosures"] = stage3
        after = stage(sft_dir, "after")

    result = {
        "settings": {**dataclasses.asdict(config), "lr": config.learning_rate},
        "env_config": env_config(config), "scenario_sets": scenario_sets(config),
        "collect": collect, "data": data, "model": {**model_info, "parameters": training["parameters"]},
        "training": training, "eval": {"before": before, "after": after}, "variants": more,
        "heldout_scenarios": sets["held-out"],
        "seconds": time.perf_counter() - t0,
    }
    result["table"] = table_rows(result)
    return result
