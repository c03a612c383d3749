"""Replication cards: a paper's published numbers beside the same figures of a run, with a
verdict per number (``negotiation-env report DIR --card``).

Each game that has a card says so through its analysis hooks
(:meth:`~.hooks.GameAnalysis.replication_card`; the generic answer is "no card"), with
the published numbers transcribed in its own package (``games/<game>/card.py``). This
module holds what every card shares: the published number (:class:`Published`), the
run's figure (:class:`Observed`), the verdict rule (:func:`judge`), the seat's model name
(:func:`seat_model`, for the papers' model rows) and the card as a table.

Verdicts, one per published number:

* **not comparable** (with the reason): the run has no games of the paper's row (another
  model or policy, or the row's condition is absent from the run), or fewer than the
  row's ``min_n`` (the run's n is too small to say anything), or no interval to compare
  with.
* **consistent** / **not consistent**, by the first rule that applies:

  1. the paper gives a count (k of n): the two-sided Fisher exact test of the run's count
     against the paper's (a two-sample test: both sides' sampling spread); consistent
     when p >= 0.05;
  2. the paper gives its own 95% interval: a two-sample z test of the difference, each
     side's standard error read from its 95% interval (half-width / 1.96); consistent
     when p >= 0.05;
  3. otherwise (a value without its spread): consistent when the paper's value lies in
     the run's 95% interval.

The basis column names the rule and its p where there is one. A consistent verdict is
"no evidence of a difference at this n", not proof of equality.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .tables import Table

__all__ = ["Published", "Observed", "CardLine", "ReplicationCard", "judge", "not_comparable", "seat_model",
           "model_key", "models_match", "paper_models", "model_rows", "seats_text", "cards_table", "CONSISTENT", "NOT_CONSISTENT", "NOT_COMPARABLE", "ALPHA"]

CONSISTENT, NOT_CONSISTENT, NOT_COMPARABLE = "consistent", "not consistent", "not comparable"
#: the level of the two-sample tests
ALPHA = 0.05
_Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


@dataclass(frozen=True)
class Published:
    """One number a paper publishes. ``value`` is a fraction for a rate or a share (shown
    as a percentage); ``n`` the paper's sample size in ``unit``; ``count`` the paper's k
    of n where it gives one; ``interval`` its own 95% interval where it gives one.
    ``row`` names the paper's row (a policy, a model or a pairing of models); ``where``
    is what a game's card matches in a run (its keys are the game's). ``min_n``: the
    smallest run n the card compares (fewer is "n too small")."""

    row: str
    measure: str
    value: float
    n: int
    unit: str
    source: str
    count: int | None = None
    interval: tuple[float, float] | None = None
    where: tuple[tuple[str, Any], ...] = ()
    min_n: int = 10
    note: str = ""

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.where).get(key, default)


@dataclass(frozen=True)
class Observed:
    """The run's figure for one published number: ``value`` (a fraction where the paper's
    is), its 95% ``interval`` (None where there is none), ``n`` in the paper's unit,
    ``count`` (k of n) where the figure is a count, and how the interval was made."""

    value: float | None
    n: int
    interval: tuple[float, float] | None = None
    count: int | None = None
    method: str = ""


@dataclass(frozen=True)
class CardLine:
    published: Published
    observed: Observed | None
    verdict: str
    basis: str


def _p_text(p: float) -> str:
    # two significant digits, as the rulemaking paper quotes p; below double precision's
    # resolution of a tail probability the bound, not a 0
    return "p < 1e-16" if p < 1e-16 else f"p = {p:.2g}"


def not_comparable(pub: Published, why: str, observed: Observed | None = None) -> CardLine:
    return CardLine(pub, observed, NOT_COMPARABLE, why)


def judge(pub: Published, obs: Observed) -> CardLine:
    """The verdict on ``pub`` given the run's ``obs`` (module docstring)."""
    if obs.value is None or obs.n == 0:
        return not_comparable(pub, f"no {pub.unit} of this row in the run", obs)
    if obs.n < pub.min_n:
        return not_comparable(pub, f"n too small: {obs.n} {pub.unit} (the card compares from {pub.min_n})", obs)
    if pub.count is not None and obs.count is not None:
        from .stats import fisher_one_sided

        p = fisher_one_sided(obs.count, obs.n, pub.count, pub.n, alternative="two-sided")
        return CardLine(pub, obs, CONSISTENT if p >= ALPHA else NOT_CONSISTENT,
                        f"two-sided Fisher exact test, {obs.count}/{obs.n} against the paper's "
                        f"{pub.count}/{pub.n}: {_p_text(p)}")
    if pub.interval is not None:
        if obs.interval is None:
            return not_comparable(pub, "the run's figure has no interval (too few games to resample)", obs)
        se_p = (pub.interval[1] - pub.interval[0]) / (2 * _Z95)
        se_o = (obs.interval[1] - obs.interval[0]) / (2 * _Z95)
        se = math.hypot(se_p, se_o)
        if se == 0:
            p = 1.0 if obs.value == pub.value else 0.0
        else:
            from scipy.stats import norm

            p = float(2 * norm.sf(abs(obs.value - pub.value) / se))
        return CardLine(pub, obs, CONSISTENT if p >= ALPHA else NOT_CONSISTENT,
                        f"two-sample z test of the difference, each standard error from its 95% interval: "
                        f"{_p_text(p)}")
    if obs.interval is None:
        return not_comparable(pub, "the run's figure has no interval (too few games to resample)", obs)
    inside = obs.interval[0] <= pub.value <= obs.interval[1]
    return CardLine(pub, obs, CONSISTENT if inside else NOT_CONSISTENT,
                    "the paper's value is " + ("inside" if inside else "outside") + " this run's 95% interval "
                    "(the paper gives no spread)")


# --------------------------------------------------------------------------- models


def model_key(name: str) -> str:
    """A model name reduced for matching: lower case, letters and digits only
    (``"Qwen/Qwen2.5-7B-Instruct"`` -> ``"qwenqwen257binstruct"``)."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def seat_model(trace: Mapping[str, Any], agent: str) -> str | None:
    """The model behind ``agent``'s seat from its policy spec: ``openai:MODEL@URL`` ->
    MODEL, ``hf:PATH`` -> PATH (a local folder or a hub id), a ``model`` setting of any
    other policy; None for a seat without a model (a scripted policy)."""
    p = (trace.get("policies") or {}).get(agent) or {}
    spec = p.get("spec")
    if isinstance(spec, str):
        kind, _, rest = spec.partition(":")
        if kind == "openai" and rest:
            return rest.split("@", 1)[0]
        if kind == "hf" and rest:
            return rest
    settings = p.get("settings")
    if isinstance(settings, Mapping) and isinstance(settings.get("model"), str):
        return settings["model"]
    return None


def models_match(model: str | None, aliases: Sequence[str]) -> bool:
    """Whether ``model`` (a seat's model name) is the paper's model of ``aliases``
    (reduced names, :func:`model_key`): one of them occurs in the reduced name."""
    return model is not None and any(a in model_key(model) for a in aliases)


def paper_models(trace: Mapping[str, Any], models: Mapping[str, Sequence[str]]) -> list[str | None]:
    """The paper model (a name of ``models``: name -> aliases) in each seat of ``trace``,
    in ``agents`` order; None for a seat playing none of them."""
    out: list[str | None] = []
    for agent in trace.get("agents") or []:
        m = seat_model(trace, agent)
        out.append(next((name for name, aliases in models.items() if models_match(m, aliases)), None))
    return out


def seats_text(traces: Sequence[Mapping[str, Any]], limit: int = 6) -> str:
    """The distinct seats of ``traces`` for a reason text: each seat's model where it has
    one, else its policy label."""
    from .cells import seat_label

    seen: list[str] = []
    for t in traces:
        for a in t.get("agents") or []:
            s = seat_model(t, a) or seat_label(t, a)
            if s not in seen:
                seen.append(s)
    return ", ".join(seen[:limit]) + (" ..." if len(seen) > limit else "") if seen else "none"


def model_rows(pub: Published, games: Sequence[Mapping[str, Any]], models: Mapping[str, Sequence[str]]
               ) -> tuple[list[Mapping[str, Any]], str | None]:
    """The games of ``games`` playing ``pub``'s model row (``where["models"]``: a tuple of
    model names, one per seat in any order, or ``"cohort"``: every game whose seats are all
    paper models, which needs every model of ``models`` in the run), or why none is
    comparable ("different model")."""
    row = pub.get("models")
    idents = [(g, paper_models(g, models)) for g in games]
    if row == "cohort":
        full = [(g, ms) for g, ms in idents if ms and all(m is not None for m in ms)]
        chosen = [g for g, _ in full]
        present = {m for _, ms in full for m in ms}
        missing = [m for m in models if m not in present]
        if missing:
            return [], (f"different model: the paper pools {', '.join(models)}; the run has no game of "
                        f"{', '.join(missing)} (its seats: {seats_text(games)})")
        return chosen, None
    want = sorted(row if isinstance(row, (tuple, list)) else (row,))
    chosen = [g for g, ms in idents if sorted(m or "" for m in ms) == want
              or (len(want) == 1 and ms and all(m == want[0] for m in ms))]
    if not chosen:
        return [], f"different model: no game of {pub.row} in the run (its seats: {seats_text(games)})"
    return chosen, None


# --------------------------------------------------------------------------- the card


@dataclass
class ReplicationCard:
    """A game's card: its paper, one line per published number, and notes."""

    game: str
    paper: str
    lines: list[CardLine]
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = {CONSISTENT: 0, NOT_CONSISTENT: 0, NOT_COMPARABLE: 0}
        for line in self.lines:
            out[line.verdict] += 1
        return out

    def table(self) -> Table:
        cols = ["Game", "Paper row", "Measure", "Source", "Paper value", "Paper n", "This run", "Run 95% CI",
                "Run n", "Unit", "Verdict", "Basis"]
        fmts = ["text", "text", "text", "text", "pct", "int", "pct", "pct_ci", "int", "text", "text", "text"]
        rows = []
        for ln in self.lines:
            p, o = ln.published, ln.observed
            source = p.source + (f" ({p.note})" if p.note else "")
            rows.append([self.game, p.row, p.measure, source, p.value, p.n, None if o is None else o.value,
                         None if o is None else o.interval, None if o is None else o.n, p.unit, ln.verdict,
                         ln.basis + (f"; interval: {o.method}" if o is not None and o.method and o.interval
                                     else "")])
        c = self.counts()
        notes = [f"{self.paper}. Verdicts: {c[CONSISTENT]} consistent, {c[NOT_CONSISTENT]} not consistent, "
                 f"{c[NOT_COMPARABLE]} not comparable (negotiation_env.analysis.cards: the rule)."] + list(self.notes)
        return Table(f"card_{self.game}", f"Replication card: {self.game}", cols, rows, fmts, notes)


def cards_table(cards: Sequence[ReplicationCard]) -> Table:
    """Every card's lines in one table (``card.md`` / ``card.csv``)."""
    tables = [c.table() for c in cards]
    if not tables:
        return Table("card", "Replication cards", ["Game", "Note"], [], ["text", "text"])
    first = tables[0]
    return Table("card", "Replication cards", first.columns, [r for t in tables for r in t.rows], first.formats,
                 [n for t in tables for n in t.notes])
