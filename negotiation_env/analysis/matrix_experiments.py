"""Experiments 1 and 2 of the matrix paper (seed 002, §3 "Mechanistic Follow-Up", §5,
Appendices B and C) end to end: from a run's traces and one or more scoring models to
Table 2, Tables S7 and S9 and Figures 2, 3, S2 and S3. ``negotiation-env experiments``
is the command.

    from negotiation_env.analysis.matrix_experiments import ExperimentsConfig, run_experiments

    res = run_experiments("runs/matrix", {"qwen": "hf:Qwen/Qwen2.5-7B-Instruct"}, "runs/matrix/experiments",
                          ExperimentsConfig(dyads_per_cell=20), device="cuda")
    res.table("matrix_table2")

The steps, each a function of its own:

1. :func:`select_dyads`: the complete, error-free communication-treatment dyads of the
   run (A.4, F.7), optionally at most ``dyads_per_cell`` per pairing x game x framing
   cell (the paper: 20) and at most ``limit`` in all (drawn round-robin over cells, so a
   quick check still covers every stratum).
2. :func:`score_replays`: every action decision of those dyads re-rendered under the
   Table S6 (Experiment 1) and Table S8 (Experiment 2) conditions by the game's replay
   hook and scored as P(A) by a policy with ``action_probs_batch``
   (:func:`negotiation_env.games.matrix.replay.replay_decisions`; an ``hf:`` model through
   :class:`baselines.llm.hf.HFPolicy`). Each row gains ``model`` (the scoring model's
   label) and ``pairing`` (the dyad's pairing).
3. :func:`analyse_replays`: expected switching and its exact drift / uncertainty split
   (Eq. 4, S3-S6) with the paired stratified bootstrap and the A.5 testing families
   (:mod:`.expected_switching`), per scoring model, into the tables below.
4. :func:`write_experiments`: each table as Markdown and CSV, the figures as PNG (the
   ``report`` extra: matplotlib; skipped with a note without it), ``replays.jsonl``
   (every scored row), ``experiments.json`` (settings and counts) and
   ``experiments.md`` (everything on one page).

Tables (effects in percentage points, positive = more persistent; Markdown cells
"estimate [95% CI]", bold where Benjamini-Hochberg q < alpha in the estimate's family;
the CSV holds the numbers, long form):

* ``matrix_table2``: Table 2, each Experiment 1 condition's reduction in expected
  switching relative to no message (Eq. S5), one column per scoring model; the CSV adds
  p, q and the drift and uncertainty parts (Figures 2 and S2's data).
* ``matrix_tableS7``: Table S7, the specificity contrasts (``E_second - E_first``,
  positive favours the first condition named): the paper's two, then the three of
  :data:`~.expected_switching.SPECIFICITY_CONTRASTS` the paper discusses but does not
  tabulate.
* ``matrix_tableS9``: Table S9, the history-by-message interaction (Eq. S6) pooled and
  per stage game; the CSV adds the drift and uncertainty parts (Figure S3's data) and the
  two conditional SP-minus-MB contrasts.
* ``matrix_exp2_rounds``: Figure 3's data, the interaction per transition-ending round.

Figures: ``fig2_matrix_exp1_decomposition.png`` (the primary model's decomposition,
the paper's Qwen panel), ``figS2_matrix_exp1_decomposition.png`` (one panel per model),
``fig3_matrix_exp2_rounds.png`` (the round profile with 95% bands) and
``figS3_matrix_exp2_decomposition.png`` (the interaction's decomposition per model).
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..games.matrix.features import FRAMINGS
from ..games.matrix.replay import EXPERIMENT_1, EXPERIMENT_2, NATURAL, ReplayTexts
from ..games.matrix.rules import STAGE_GAMES
from ..games.matrix.spec import NAME as GAME
from .cells import as_dict, pairing
from .expected_switching import (EXPERIMENT_1_CONDITIONS, EXPERIMENT_1_REFERENCE, SPECIFICITY_CONTRASTS,
                                 experiment1_tests, experiment2_tests, history_message_interaction, transitions)
from .matrix_metrics import dyad_of
from .report import Tables
from .tables import Table
from ..storage import replacing, write_text

__all__ = ["ExperimentsConfig", "ExperimentsResult", "ExperimentsError", "ScorerUnavailable", "select_dyads",
           "replay_count", "model_label", "load_scorer", "score_replays", "analyse_replays", "write_experiments",
           "run_experiments", "CONDITION_LABELS", "GAME_LABELS", "DEFAULT_OUT", "STRATA_FIELDS"]

DEFAULT_OUT = "experiments"
#: Table 2's row names (Table S6)
CONDITION_LABELS = {
    "partner_message": "Partner message",
    "own_as_partner": "Own text as partner",
    "partner_as_own_public": "Partner text as own public",
    "own_public": "Own public message",
    "dummy": "Dummy text",
    "partner_dummy": "Partner-formatted dummy",
    "no_message": "No message",
}
#: Table S7's column names for the paper's two contrasts; the others read "X vs. Y"
_CONTRAST_LABELS = {
    ("partner_message", "partner_dummy"): "Real vs. dummy, partner framed",
    ("dummy", "partner_dummy"): "Plain vs. partner-framed dummy",
}
GAME_LABELS = {"prisoners_dilemma": "Prisoner's Dilemma", "snowdrift": "Snowdrift", "stag_hunt": "Stag Hunt",
               "harmony": "Harmony"}
_EXPERIMENTS = (1, 2)
#: dyads per model x game x context cell in the paper's replays (A.4)
PAPER_DYADS = 20
#: the fields of a scored row that can form strata (besides any a caller adds to rows)
STRATA_FIELDS = ("stage_game", "framing", "pairing", "policy", "agent", "treatment")


class ExperimentsError(ValueError):
    """The run cannot be analysed as asked (not a matrix run, no dyad selected, ...)."""


class ScorerUnavailable(ExperimentsError):
    """A scoring model cannot be built or cannot score action probabilities."""


@dataclass(frozen=True)
class ExperimentsConfig:
    """Settings of the Experiment 1-2 analysis (defaults: the paper's where it gives one).

    experiments: which experiments to replay and tabulate, ``(1, 2)`` (default), ``(1,)``
        or ``(2,)``.
    temperature: the temperature T of the scored log-probabilities, ``softmax(logits /
        T)``; None (default): T = 1, the model's own distribution, what the paper's Ollama
        replay returned.
    dyads_per_cell: at most this many dyads per pairing x stage game x framing cell, the
        first by game id (the paper: 20); None (default): every selected dyad.
    limit: at most this many dyads in all, taken round-robin over the cells; None: no cap.
    agents: the seats whose decisions are replayed; None (default): both, as the paper.
    pairings: only dyads of these pairings (the report's pairing text: the two seat
        labels sorted, e.g. ``"b × scripted:tit_for_tat"``; self-play ``"m × m"``);
        None: all.
    include_fallbacks: also replay complete dyads with a fallback or error mark (the
        paper replays only complete, error-free dyads).
    natural: also score the ``pre_action`` reference pass (rows only; no table uses it).
    strata: the row fields (:data:`STRATA_FIELDS`) whose combinations are the equally
        weighted strata, inside which the bootstrap resamples dyads (the paper: game x
        context).
    contrasts: Table S7's contrasts ``(first, second)``, one testing family.
    joint: one Experiment 1 testing family of conditions and contrasts together, not two.
    n_resamples: paired stratified bootstrap resamples (the paper: 10,000).
    confidence: interval level. alpha: Benjamini-Hochberg level of the bold marks.
    seed: seed of the bootstrap streams (Experiment 1, Experiment 2 and the round profile
        each draw from their own child of ``numpy.random.SeedSequence(seed)``).
    batch_size: decisions per scoring call (and the HF model's forward batch).
    texts: the dummy, mutual-benefit and self-prioritizing texts (default: the paper's).
    s7_bold: what makes a Table S7 entry bold: ``"q"`` (default), Benjamini-Hochberg q <
        alpha in the contrasts' family (A.5); ``"ci"``: its interval excludes zero (the
        table's own caption).
    primary: the model of Figure 2 (default: the first); Figure S2 shows every model.
    s2_excludes_primary: Figure S2 shows only the other models, as the paper's (no S2
        when there is one model).
    """

    experiments: tuple[int, ...] = _EXPERIMENTS
    temperature: float | None = None
    dyads_per_cell: int | None = None
    limit: int | None = None
    agents: tuple[str, ...] | None = None
    pairings: tuple[str, ...] | None = None
    include_fallbacks: bool = False
    natural: bool = False
    strata: tuple[str, ...] = ("stage_game", "framing")
    contrasts: tuple[tuple[str, str], ...] = SPECIFICITY_CONTRASTS
    joint: bool = False
    n_resamples: int = 10_000
    confidence: float = 0.95
    alpha: float = 0.05
    seed: int = 42
    batch_size: int = 16
    texts: ReplayTexts = ReplayTexts()
    s7_bold: str = "q"
    primary: str | None = None
    s2_excludes_primary: bool = False

    def __post_init__(self) -> None:
        if not self.experiments or any(e not in _EXPERIMENTS for e in self.experiments):
            raise ExperimentsError(f"experiments must name 1, 2 or both; got {self.experiments!r}")
        if self.temperature is not None and (isinstance(self.temperature, bool)
                                             or not isinstance(self.temperature, (int, float))
                                             or not self.temperature > 0):
            raise ExperimentsError(f"temperature must be a number > 0 (or None for T = 1); got {self.temperature!r}")
        for name in ("dyads_per_cell", "limit"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ExperimentsError(f"{name} must be an integer >= 1 (or None); got {v!r}")
        for name in ("n_resamples", "batch_size"):
            v = getattr(self, name)
            lo = 1 if name == "batch_size" else 0
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise ExperimentsError(f"{name} must be an integer >= {lo}; got {v!r}")
        if not 0 < self.confidence < 1 or not 0 < self.alpha < 1:
            raise ExperimentsError(f"confidence and alpha must be in (0, 1); got {self.confidence!r}, {self.alpha!r}")
        if self.agents is not None and (not self.agents or set(self.agents) - {"agent_0", "agent_1"}):
            raise ExperimentsError(f"agents must be agent_0, agent_1 or both; got {self.agents!r}")
        if self.s7_bold not in ("q", "ci"):
            raise ExperimentsError(f"s7_bold must be 'q' or 'ci'; got {self.s7_bold!r}")
        if not self.strata:
            raise ExperimentsError("strata needs at least one field (e.g. stage_game)")
        known = set(EXPERIMENT_1)
        for c in self.contrasts:
            if len(c) != 2 or set(c) - known:
                raise ExperimentsError(f"a contrast is two Experiment 1 conditions ({', '.join(EXPERIMENT_1)}); "
                                       f"got {c!r}")

    def conditions(self) -> tuple[str, ...]:
        """The replay conditions scored, in order."""
        out: tuple[str, ...] = (NATURAL,) if self.natural else ()
        if 1 in self.experiments:
            out += EXPERIMENT_1
        if 2 in self.experiments:
            out += EXPERIMENT_2
        return out

    def as_json(self) -> dict[str, Any]:
        return json.loads(json.dumps(dataclasses.asdict(self)))


@dataclass
class ExperimentsResult(Tables):
    """What the analysis produced: the scored rows, the estimates (as
    :func:`~.expected_switching.experiment1_tests` / ``experiment2_tests`` return them,
    keyed by scoring model), the round profile, the tables, and after writing the
    figures and files; ``notes``: dyads left out, tables skipped."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    experiment1: dict[Any, dict[str, Any]] = field(default_factory=dict)
    experiment2: dict[str, Any] = field(default_factory=dict)
    rounds: dict[Any, dict[int, dict[str, Any]]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- selection


def _natural_key(text: str) -> list[Any]:
    """``game|...|10`` after ``game|...|9``: digit runs compare as numbers."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def _order(value: str, known: Sequence[str]) -> tuple[int, str]:
    return (known.index(value), "") if value in known else (len(known), value)


def select_dyads(traces: Iterable[Any], config: ExperimentsConfig = ExperimentsConfig()
                 ) -> tuple[list[dict[str, Any]], list[str]]:
    """``(dyads, notes)``: the matrix traces to replay, cell by cell (pairing, stage game
    in the paper's order, framing) and by game id within a cell, and one note per reason
    a trace was left out. Raises :class:`ExperimentsError` when the traces hold no matrix
    game."""
    traces = [as_dict(t) for t in traces]
    matrix = [t for t in traces if t.get("game") == GAME]
    if not matrix:
        games = sorted({str(t.get("game")) for t in traces})
        raise ExperimentsError("no matrix traces" + (f" (games: {', '.join(games)})" if games else "")
                               + "; Experiments 1 and 2 replay matrix dyads")
    notes: list[str] = []
    other = len(traces) - len(matrix)
    if other:
        notes.append(f"{other} trace(s) of other games left out")
    left: dict[str, list[str]] = {}
    cells: dict[tuple, list[dict[str, Any]]] = {}
    for t in matrix:
        gid = str(t.get("game_id"))
        d = dyad_of(t)
        if d.treatment != "communication":
            left.setdefault("played without communication (the replays use communication-treatment dyads)",
                            []).append(gid)
            continue
        if d.status != "complete" or d.rounds < 2:
            left.setdefault("not complete or under two rounds", []).append(gid)
            continue
        if not config.include_fallbacks and not d.complete:
            left.setdefault("error-marked or ended early (a fallback, an error, a missing round; "
                            "include_fallbacks keeps them)", []).append(gid)
            continue
        if config.pairings is not None and d.pairing not in config.pairings:
            left.setdefault("of another pairing", []).append(gid)
            continue
        key = (_order(d.pairing, ()), _order(d.stage_game, STAGE_GAMES), _order(d.framing, FRAMINGS))
        cells.setdefault(key, []).append(t)
    ordered = [sorted(v, key=lambda t: _natural_key(str(t.get("game_id")))) for _, v in sorted(cells.items())]
    if config.dyads_per_cell is not None:
        for v in ordered:
            for t in v[config.dyads_per_cell:]:
                left.setdefault(f"over {config.dyads_per_cell} dyads in their cell", []).append(str(t.get("game_id")))
        ordered = [v[:config.dyads_per_cell] for v in ordered]
    keep = [t for v in ordered for t in v]
    if config.limit is not None and len(keep) > config.limit:
        rr = [v[i] for i in range(max(map(len, ordered))) for v in ordered if i < len(v)]  # round-robin
        chosen = {id(t) for t in rr[:config.limit]}
        for t in keep:
            if id(t) not in chosen:
                left.setdefault(f"over the limit of {config.limit} dyads", []).append(str(t.get("game_id")))
        keep = [t for t in keep if id(t) in chosen]
    for why, ids in left.items():
        notes.append(f"{len(ids)} matrix dyad(s) left out, {why}: " + ", ".join(ids[:5])
                     + (" ..." if len(ids) > 5 else ""))
    return keep, notes


def replay_count(dyads: Iterable[Mapping[str, Any]], config: ExperimentsConfig = ExperimentsConfig()) -> int:
    """How many rows :func:`score_replays` writes for these dyads (one per decision and
    condition), for a progress bar."""
    seats = 2 if config.agents is None else len(config.agents)
    return sum(len(t.get("rounds") or []) for t in dyads) * seats * len(config.conditions())


# --------------------------------------------------------------------------- scoring


def model_label(spec: str) -> str:
    """A column name for a scoring model: ``LABEL=SPEC`` gives LABEL; ``hf:PATH`` the
    last part of PATH; ``openai:MODEL@URL`` MODEL; anything else the spec."""
    name, sep, rest = spec.partition("=")
    if sep and ":" not in name:
        return name.strip()
    kind, _, rest = spec.partition(":")
    if kind == "hf":
        return Path(rest.rstrip("/")).name or rest
    if kind == "openai":
        return rest.split("@", 1)[0]
    return spec


def _spec_of(spec: str) -> str:
    name, sep, rest = spec.partition("=")
    return rest.strip() if sep and ":" not in name else spec


def load_scorer(spec: str, *, device: str = "auto", dtype: str = "auto", batch_size: int = 16) -> Any:
    """The scoring policy of ``spec`` (``[LABEL=]hf:PATH``, ``openai:MODEL@URL`` or
    ``python:MODULE:FACTORY``, as the runner reads them). ``hf:`` models are loaded on
    ``device`` (``auto``: CUDA when available, else CPU) in ``dtype`` with forward
    batches of ``batch_size``. Raises :class:`ScorerUnavailable` naming the spec when it
    cannot be built or has no ``action_probs_batch``."""
    from pydantic import ValidationError

    from ..runner.config import PolicyEntry
    from ..runner.policies import PolicyUnavailable, resolve_factory

    text = _spec_of(spec)
    kind = text.partition(":")[0]
    options: dict[str, Any] = {}
    if kind == "hf":
        options = {"device": device, "dtype": dtype, "max_batch_size": batch_size}
    try:
        entry = PolicyEntry(spec=text, options=options)
    except ValidationError as e:
        msg = "; ".join(str(err["msg"]).removeprefix("Value error, ") for err in e.errors())
        raise ScorerUnavailable(f"model {spec!r}: {msg}") from None
    if kind == "scripted":
        raise ScorerUnavailable(f"model {spec!r}: a scripted policy has no action probabilities to score; give "
                                "hf:PATH (or openai:MODEL@URL with log-probabilities)")
    try:
        policy = resolve_factory(entry, GAME)(None)
    except PolicyUnavailable as e:
        raise ScorerUnavailable(f"model {spec!r}: {e}") from None
    except Exception as e:  # noqa: BLE001 - any failure to load means nothing can be scored
        raise ScorerUnavailable(f"model {spec!r} cannot be loaded: {type(e).__name__}: {e}") from None
    if not callable(getattr(policy, "action_probs_batch", None)):
        raise ScorerUnavailable(f"model {spec!r}: {type(policy).__name__} has no action_probs_batch, so it cannot "
                                "score P(A)")
    return policy


def score_replays(dyads: Iterable[Mapping[str, Any]], policy: Any, label: str,
                  config: ExperimentsConfig = ExperimentsConfig(),
                  progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Every decision of ``dyads`` (as :func:`select_dyads` returns them) under every
    condition of ``config``, scored by ``policy``: rows of
    :func:`negotiation_env.games.matrix.replay.replay_decisions` plus ``model`` (``label``) and
    ``pairing``. ``progress(n)`` is called with the number of rows scored so far."""
    from ..games.matrix.replay import replay_decisions

    dyads = list(dyads)
    if config.temperature is not None:
        import inspect

        try:
            params = inspect.signature(policy.action_probs_batch).parameters
        except (TypeError, ValueError):
            params = {}
        if params and "temperature" not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            raise ScorerUnavailable(f"model {label!r}: {type(policy).__name__}.action_probs_batch takes no "
                                    "temperature; leave the temperature at its default (T = 1)")
    pairings = {str(t.get("game_id")): pairing(t) for t in dyads}
    rows: list[dict[str, Any]] = []
    for row in replay_decisions(dyads, policy, config.conditions(), batch_size=config.batch_size,
                                texts=config.texts, agents=None if config.agents is None else list(config.agents),
                                temperature=config.temperature):
        row["model"] = label
        row["pairing"] = pairings.get(str(row["game_id"]))
        rows.append(row)
        if progress is not None:
            progress(len(rows))
    return rows


# --------------------------------------------------------------------------- tables


def _pp(v: Any) -> float | None:
    return None if v is None else 100.0 * float(v)


def _pp_ci(ci: Any) -> tuple[float, float] | None:
    return None if ci is None else (100.0 * ci[0], 100.0 * ci[1])


def _excludes_zero(est: Mapping[str, Any]) -> bool:
    ci = est.get("ci")
    return ci is not None and (ci[0] > 0 or ci[1] < 0)


def _cell(est: Mapping[str, Any] | None, bold: str = "q") -> str:
    """``"12.94 [12.19, 13.68]"`` in percentage points, bold when significant (``bold``
    ``"q"``: Benjamini-Hochberg in its family; ``"ci"``: the interval excludes zero)."""
    if est is None or est.get("total") is None:
        return "–"
    text = f"{100 * est['total']:.2f}"
    if est.get("ci") is not None:
        lo, hi = est["ci"]
        text += f" [{100 * lo:.2f}, {100 * hi:.2f}]"
    marked = _excludes_zero(est) if bold == "ci" else est.get("significant")
    return f"**{text}**" if marked else text


def _parts_ci(est: Mapping[str, Any], part: str) -> tuple[float, float] | None:
    return _pp_ci((est.get("parts_ci") or {}).get(part))


def contrast_label(first: str, second: str) -> str:
    second_label = CONDITION_LABELS.get(second, second)
    generic = f"{CONDITION_LABELS.get(first, first)} vs. {second_label[:1].lower()}{second_label[1:]}"
    return _CONTRAST_LABELS.get((first, second), generic)


_EST_COLUMNS = ["dyads", "strata"]


def _table2(models: Sequence[str], exp1: Mapping[Any, Mapping[str, Any]], alpha: float) -> Table:
    conds = [c for c in EXPERIMENT_1_CONDITIONS if any(c in exp1.get(m, {}).get("conditions", {}) for m in models)]
    rows = []
    for c in conds:
        rows.append([CONDITION_LABELS[c]] + [_cell(exp1.get(m, {}).get("conditions", {}).get(c)) for m in models])
    rows.append([CONDITION_LABELS[EXPERIMENT_1_REFERENCE]] + ["0.00 (reference)"] * len(models))
    data_rows = []
    for m in models:
        for c in conds:
            e = exp1.get(m, {}).get("conditions", {}).get(c)
            if e is None:
                continue
            data_rows.append([m, c, CONDITION_LABELS[c], _pp(e["total"]), _pp_ci(e.get("ci")), e.get("p"), e.get("q"),
                              e.get("significant"), _pp(e["drift"]), _parts_ci(e, "drift"), _pp(e["uncertainty"]),
                              _parts_ci(e, "uncertainty"), _pp(e.get("mean_E")), e["dyads"], e["strata"]])
    data = Table("matrix_table2", "Table 2 data",
                 ["model", "condition", "label", "dS (pp)", "CI (pp)", "p", "q", "significant", "reduced drift (pp)",
                  "reduced drift CI (pp)", "reduced uncertainty (pp)", "reduced uncertainty CI (pp)",
                  "E condition (pp)"] + _EST_COLUMNS,
                 data_rows, ["text"] * 3 + ["num", "ci", "p", "p", "text", "num", "ci", "num", "ci", "num", "int",
                                            "int"])
    return Table("matrix_table2",
                 "Table 2: Experiment 1 reduction in open-loop expected switching relative to no message "
                 "(percentage points; 95% intervals); positive values indicate persistence",
                 ["Condition"] + list(models), rows, ["text"] * (1 + len(models)),
                 notes=[f"Bold: Benjamini-Hochberg q < {alpha:g} across the non-reference conditions within model. "
                        "Strata weighted equally; paired stratified dyad bootstrap. The CSV splits each effect into "
                        "reduced probability drift and reduced action uncertainty (they add up to dS)."],
                 data=data)


def _tableS7(models: Sequence[str], exp1: Mapping[Any, Mapping[str, Any]], contrasts: Sequence[tuple[str, str]],
             alpha: float, joint: bool, bold: str) -> Table:
    present = [c for c in contrasts if any(tuple(c) in exp1.get(m, {}).get("contrasts", {}) for m in models)]
    rows = [[m] + [_cell(exp1.get(m, {}).get("contrasts", {}).get(tuple(c)), bold) for c in present] for m in models]
    data_rows = []
    for m in models:
        for a, b in present:
            e = exp1.get(m, {}).get("contrasts", {}).get((a, b))
            if e is None or e.get("total") is None:
                continue
            data_rows.append([m, a, b, contrast_label(a, b), _pp(e["total"]), _pp_ci(e.get("ci")), e.get("p"),
                              e.get("q"), e.get("significant"), _pp(e["drift"]), _pp(e["uncertainty"]), e["dyads"],
                              e["strata"]])
    data = Table("matrix_tableS7", "Table S7 data",
                 ["model", "first", "second", "label", "difference (pp)", "CI (pp)", "p", "q", "significant",
                  "drift part (pp)", "uncertainty part (pp)"] + _EST_COLUMNS,
                 data_rows, ["text"] * 4 + ["num", "ci", "p", "p", "text", "num", "num", "int", "int"])
    family = ("one family with the condition tests" if joint else "across these contrasts within model")
    paper = [c for c in present if tuple(c) in _CONTRAST_LABELS]
    rule = "the 95% interval excludes zero" if bold == "ci" else f"Benjamini-Hochberg q < {alpha:g} ({family})"
    notes = [f"Expected switching under the second condition minus under the first (pp); positive values favour the "
             f"first condition named. Bold: {rule}."]
    if len(present) > len(paper):
        notes.append(f"The first {len(paper)} column(s) are the paper's Table S7; the others are the attribution "
                     "contrasts its Appendix B.3 discusses, tested in the same family.")
    return Table("matrix_tableS7", "Table S7: Matched Experiment 1 contrasts in percentage points with 95% "
                 "paired-bootstrap intervals", ["Model"] + [contrast_label(*c) for c in present], rows,
                 ["text"] * (1 + len(present)), notes=notes, data=data)


def _tableS9(models: Sequence[str], exp2: Mapping[str, Any], alpha: float) -> Table:
    pooled, by_game = exp2.get("pooled", {}), exp2.get("by_game", {})
    games = sorted({g for (_m, g) in by_game}, key=lambda g: _order(str(g), STAGE_GAMES))
    rows = [[m, _cell(pooled.get(m))] + [_cell(by_game.get((m, g))) for g in games] for m in models]
    data_rows = []
    for m in models:
        for g, e in [("pooled", pooled.get(m))] + [(g, by_game.get((m, g))) for g in games]:
            if e is None:
                continue
            data_rows.append([m, g, _pp(e["total"]), _pp_ci(e.get("ci")), e.get("p"), e.get("q"), e.get("significant"),
                              _pp(e["drift"]), _parts_ci(e, "drift"), _pp(e["uncertainty"]),
                              _parts_ci(e, "uncertainty"), _pp(e.get("sp_minus_mb_after_A")),
                              _pp(e.get("sp_minus_mb_after_B")), e["dyads"], e["strata"]])
    data = Table("matrix_tableS9", "Table S9 data",
                 ["model", "game", "dS_HM (pp)", "CI (pp)", "p", "q", "significant", "drift part (pp)",
                  "drift part CI (pp)", "uncertainty part (pp)", "uncertainty part CI (pp)", "SP-MB after A (pp)",
                  "SP-MB after B (pp)"] + _EST_COLUMNS,
                 data_rows, ["text", "text", "num", "ci", "p", "p", "text", "num", "ci", "num", "ci", "num", "num",
                             "int", "int"])
    return Table("matrix_tableS9", "Table S9: History-by-message interaction dS_HM in percentage points with 95% "
                 "intervals", ["Model", "Pooled"] + [GAME_LABELS.get(str(g), str(g)) for g in games], rows,
                 ["text"] * (2 + len(games)),
                 notes=[f"dS_HM = 1/2 [(E_A,SP - E_A,MB) - (E_B,SP - E_B,MB)]. Pooled: strata weighted equally; per "
                        "game: the other strata weighted equally. Bold: Benjamini-Hochberg q < "
                        f"{alpha:g} across the pooled model tests, and separately across every model x game test."],
                 data=data)


def _rounds_table(models: Sequence[str], rounds: Mapping[Any, Mapping[int, Mapping[str, Any]]]) -> Table:
    rows = []
    for m in models:
        for t, e in sorted((rounds.get(m) or {}).items()):
            rows.append([m, int(t), _pp(e["total"]), _pp_ci(e.get("ci")), e.get("p"), _pp(e["drift"]),
                         _pp(e["uncertainty"]), e["dyads"], e["strata"]])
    return Table("matrix_exp2_rounds", "Figure 3 data: Experiment 2 history-by-message interaction by transition "
                 "(percentage points; the round is the transition's ending round)",
                 ["model", "round", "dS_HM (pp)", "CI (pp)", "p", "drift part (pp)", "uncertainty part (pp)"]
                 + _EST_COLUMNS,
                 rows, ["text", "int", "num", "ci", "p", "num", "num", "int", "int"],
                 notes=["p is uncorrected: the paper reports the round profile with intervals only."])


# --------------------------------------------------------------------------- analysis


def analyse_replays(rows: Iterable[Mapping[str, Any]], config: ExperimentsConfig = ExperimentsConfig(), *,
                    notes: Sequence[str] = ()) -> ExperimentsResult:
    """The estimates and tables of scored replay rows (each with a ``model`` field; rows
    of several models give one column each, in order of first appearance). Raises
    :class:`ExperimentsError` when no row pairs two adjacent rounds."""
    rows = [dict(r) for r in rows]
    for i, r in enumerate(rows):
        if "model" not in r:
            raise ExperimentsError(f"replay row {i} has no 'model' field (the scoring model's label)")
    missing = [k for k in config.strata if any(k not in r for r in rows)]
    if missing:
        raise ExperimentsError(f"strata field(s) {', '.join(map(repr, missing))} missing from the replay rows; "
                               f"scored rows have {', '.join(STRATA_FIELDS)}")
    res = ExperimentsResult(rows=rows, notes=list(notes))
    res.models = list(dict.fromkeys(str(r["model"]) for r in rows))
    for r in rows:
        r["model"] = str(r["model"])
    if not any(transitions([r for r in rows if r["model"] == m]) for m in res.models):
        raise ExperimentsError("no two adjacent rounds of one seat were scored: nothing to analyse "
                               "(do the dyads have at least two rounds?)")
    censored = sum(1 for r in rows if r.get("censored"))
    if censored:
        res.notes.append(f"{censored} of {len(rows)} scored decisions are interval-censored (an action token outside "
                         "the returned log-probabilities); P(A) is the endpoint nearest 0.5 (A.4)")
    per_stratum: dict[tuple, set] = {}
    for r in rows:
        per_stratum.setdefault((r["model"],) + tuple(r.get(k) for k in config.strata), set()).add(r["game_id"])
    fewest = min(len(v) for v in per_stratum.values())
    if fewest < PAPER_DYADS:
        res.notes.append(f"a stratum has as few as {fewest} dyad(s) (the paper: {PAPER_DYADS}): the bootstrap "
                         "resamples too few dyads, so its intervals run narrower than their level and its p-values "
                         "are too small; read the bold marks as a check of the machinery")
    s1, s2, s3 = (np.random.default_rng(s) for s in np.random.SeedSequence(config.seed).spawn(3))
    kw = {"strata": config.strata, "alpha": config.alpha, "n_resamples": config.n_resamples,
          "confidence": config.confidence}
    present = {r["condition"] for r in rows}
    if 1 in config.experiments and EXPERIMENT_1_REFERENCE in present:
        res.experiment1 = experiment1_tests(rows, model="model", contrasts=config.contrasts, joint=config.joint,
                                            rng=s1, **kw)
        res.tables.append(_table2(res.models, res.experiment1, config.alpha))
        res.tables.append(_tableS7(res.models, res.experiment1, config.contrasts, config.alpha, config.joint,
                                   config.s7_bold))
    elif 1 in config.experiments:
        res.notes.append("no row under the no-message reference: Table 2, Table S7 and Figures 2 and S2 skipped")
    if 2 in config.experiments and set(EXPERIMENT_2) <= present:
        res.experiment2 = experiment2_tests(rows, model="model", rng=s2, **kw)
        for m in res.models:
            mrows = [r for r in rows if r["model"] == m]
            try:
                res.rounds[m] = history_message_interaction(
                    mrows, strata=config.strata, by_round=True, n_resamples=config.n_resamples,
                    confidence=config.confidence, rng=s3)["rounds"]
            except ValueError:  # no dyad with all four cells
                continue
        res.tables.append(_tableS9(res.models, res.experiment2, config.alpha))
        res.tables.append(_rounds_table(res.models, res.rounds))
    elif 2 in config.experiments:
        res.notes.append("rows lack an Experiment 2 cell: Table S9 and Figures 3 and S3 skipped")
    estimates = [e for m in res.experiment1.values() for e in m.get("conditions", {}).values()]
    estimates += list(res.experiment2.get("pooled", {}).values())
    if any(e.get("ci") is not None and e.get("p") is None for e in estimates):
        res.notes.append("some estimates have an interval but no p: their bootstrap does not vary (one dyad a "
                         "stratum); they are outside the testing family and never bold")
    return res


# --------------------------------------------------------------------------- figures and files


def _decomposition(est: Mapping[str, Any] | None) -> tuple[float, float, float] | None:
    if est is None or est.get("total") is None:
        return None
    return _pp(est["drift"]), _pp(est["uncertainty"]), _pp(est["total"])  # type: ignore[return-value]


def _exp1_panel(res: ExperimentsResult, model: str) -> list[tuple[str, float, float, float]]:
    out = []
    for c in EXPERIMENT_1_CONDITIONS:
        d = _decomposition(res.experiment1.get(model, {}).get("conditions", {}).get(c))
        if d is not None:
            out.append((CONDITION_LABELS[c], *d))
    return out


def _figures(res: ExperimentsResult, out: Path, config: ExperimentsConfig) -> None:
    try:
        from . import matrix_experiment_plots as mp
    except ImportError as e:  # matplotlib is the optional "report" extra
        res.notes.append(f"figures skipped: {e} (pip install 'negotiation_env[report]')")
        return
    if res.experiment1:
        primary = config.primary if config.primary is not None else res.models[0]
        if primary not in res.models:
            res.notes.append(f"Figure 2: no model {primary!r} among {', '.join(res.models)}; Figure 2 skipped")
        else:
            res.figures.append(mp.plot_decomposition(
                [(primary, _exp1_panel(res, primary))], out / "fig2_matrix_exp1_decomposition.png",
                "Figure 2: Experiment 1 decomposition"))
        others = [m for m in res.models if not (config.s2_excludes_primary and m == primary)]
        if others:
            res.figures.append(mp.plot_decomposition(
                [(m, _exp1_panel(res, m)) for m in others], out / "figS2_matrix_exp1_decomposition.png",
                "Figure S2: Experiment 1 decomposition by model"))
        else:
            res.notes.append("Figure S2 skipped: no model besides the primary one")
    if res.experiment2:
        series = {m: [(t, _pp(e["total"]), _pp_ci(e.get("ci"))) for t, e in sorted(res.rounds.get(m, {}).items())]
                  for m in res.models if res.rounds.get(m)}
        if series:
            res.figures.append(mp.plot_round_profile(series, out / "fig3_matrix_exp2_rounds.png"))
        bars = [(m, *d) for m in res.models
                if (d := _decomposition(res.experiment2.get("pooled", {}).get(m))) is not None]
        if bars:
            res.figures.append(mp.plot_decomposition(
                [("pooled over strata", [(m, a, b, c) for m, a, b, c in bars])],
                out / "figS3_matrix_exp2_decomposition.png",
                "Figure S3: decomposition of the Experiment 2 history-by-message interaction",
                ylabel="History-by-message interaction (pp)", parts=("probability drift", "action uncertainty")))


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (np.floating, np.integer)):
        return v.item()
    return v


def write_experiments(res: ExperimentsResult, out: str | Path, config: ExperimentsConfig = ExperimentsConfig(), *,
                      plots: bool = True) -> ExperimentsResult:
    """Write every table (``NAME.md``, ``NAME.csv``), the figures (``fig*.png``, when
    ``plots`` and matplotlib is installed), ``replays.jsonl``, ``experiments.json`` and
    ``experiments.md`` into ``out``; returns ``res`` with ``figures`` and ``files``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if plots:
        _figures(res, out, config)
    # every file whole or not at all: written under a temporary name, renamed when complete
    for t in res.tables:
        for suffix, text in ((".md", t.markdown()), (".csv", t.csv_text())):
            res.files.append(write_text(out / f"{t.name}{suffix}", text))
    path = out / "replays.jsonl"
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8") as f:
        for r in res.rows:
            f.write(json.dumps(_jsonable(r), ensure_ascii=False) + "\n")
    res.files.append(path)
    res.settings.setdefault("config", config.as_json())
    res.settings.update(models=res.models, rows=len(res.rows), notes=res.notes)
    res.files.append(write_text(out / "experiments.json",
                                json.dumps(_jsonable(res.settings), indent=2, ensure_ascii=False) + "\n"))
    res.files.extend(res.figures)
    dyads = len({(r["model"], r["game_id"]) for r in res.rows})
    res.write_index(out / "experiments.md", [
        "# Experiments 1 and 2", "",
        f"Scoring models: {', '.join(res.models)}; {len(res.rows)} scored decisions of {dyads} model x dyad "
        f"pair(s); logprob temperature {config.temperature if config.temperature is not None else 1}.", ""])
    return res


def run_experiments(source: str | Path | Iterable[Any], models: Mapping[str, Any], out: str | Path | None = None,
                    config: ExperimentsConfig = ExperimentsConfig(), *, plots: bool = True, runs: Any = None,
                    device: str = "auto", dtype: str = "auto",
                    progress: Callable[[str, int, int], None] | None = None) -> ExperimentsResult:
    """Select, replay, score, analyse and write (the module docstring's steps).

    ``source``: a run folder or ``.jsonl`` trace file (one run unless ``runs`` says
    otherwise, as ``report`` reads it) or traces. ``models``: ``{label: policy or spec}``;
    a spec (``hf:PATH``, ...) is loaded by :func:`load_scorer` on ``device`` in ``dtype``
    only after the selection has succeeded, scored, and released before the next.
    ``out``: default ``DIR/experiments``. ``progress(label, done, total)`` is called
    when a model starts (``done`` 0) and after each scored row."""
    if not models:
        raise ExperimentsError("no scoring model given")
    unknown = [k for k in config.strata if k not in STRATA_FIELDS]
    if unknown:  # checked before any model is loaded
        raise ExperimentsError(f"unknown strata field(s) {', '.join(map(repr, unknown))}; one of "
                               f"{', '.join(STRATA_FIELDS)}")
    notes: list[str] = []
    base: Path | None = None
    if isinstance(source, (str, Path)):
        from ..traces import read_traces
        from ..traces.reader import check_env_versions

        src = Path(source)
        if not src.exists():
            raise ExperimentsError(f"no run folder or trace file at {src}")
        read = read_traces(src, runs=runs)
        notes += [f"skipped trace line: {p}" for p in read.problems]
        traces = [as_dict(t) for t in read.traces]
        if not traces:
            raise ExperimentsError(f"no traces in {src}")
        check_env_versions(traces)
        base = src if src.is_dir() else src.parent
    else:
        traces = [as_dict(t) for t in source]
    dyads, left = select_dyads(traces, config)
    notes += left
    if not dyads:
        raise ExperimentsError("no dyad to replay: the selection is empty (" + "; ".join(left or ["no matrix dyad"])
                               + ")")
    if out is None:
        if base is None:
            raise ExperimentsError("out is required when the traces are given as objects")
        out = base / DEFAULT_OUT
    total = replay_count(dyads, config)
    rows: list[dict[str, Any]] = []
    scorers: dict[str, Any] = {}
    for label, scorer in models.items():
        policy = load_scorer(scorer, device=device, dtype=dtype, batch_size=config.batch_size) \
            if isinstance(scorer, str) else scorer
        settings = getattr(policy, "settings", None)
        scorers[label] = {"spec": _spec_of(scorer) if isinstance(scorer, str) else type(policy).__name__,
                          "settings": settings() if callable(settings) else None}
        if progress is not None:
            progress(label, 0, total)
        tick = None if progress is None else (lambda n, label=label: progress(label, n, total))
        rows += score_replays(dyads, policy, label, config, tick)
        del policy
    res = analyse_replays(rows, config, notes=notes)
    res.settings = {"config": config.as_json(), "scorers": scorers, "dyads": [str(t.get("game_id")) for t in dyads],
                    "source": None if base is None else str(source)}
    return write_experiments(res, out, config, plots=plots)
