"""PNG figures of the report, drawn with matplotlib's object API on the Agg canvas.

No pyplot and no global state: each function builds its own :class:`~matplotlib.figure.Figure`,
attaches an Agg canvas, saves the PNG (without a timestamp or software tag, so the bytes
depend only on the data) and returns the path. Inputs are the plain data structures that
:mod:`.report` computes from traces.

* :func:`plot_resource_by_mc`: efficiency, overdraw and optimum rates (%) against the M/C
  level, one line per pairing (seed 000 Figure 2 / Table 3).
* :func:`plot_stability`: optimum rate (%) of stable vs. shifting partners per pairing,
  one panel per M/C level (seed 000 Figure 4).
* :func:`plot_talk`: talk vs. no-talk efficiency, no-overdraw and optimum rates per M/C
  level (seed 000 Figure 3).
* :func:`plot_rulemaking`: every rulemaking cell at (mean normalised entropy, agreement
  rate) with its Wilson interval; colour = family, marker = condition, text = environment
  (seed 001 Figure 1).
* :func:`plot_switching`: adjacent-round switching with and without talk, one panel per
  stage game, one bar pair per pairing (seed 002 Table 1).
* :func:`plot_failed_improvement`: what follows an overdrawn / a suboptimal round (reaches
  the optimum, improves, fails to improve), stacked per pairing (seed 000 Figure 6).
* :func:`plot_enrichment`: judge-label prevalence differences in the two failure regions
  (seed 000 Figure 7).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..storage import replacing

__all__ = ["plot_resource_by_mc", "plot_stability", "plot_talk", "plot_rulemaking", "plot_switching",
           "plot_failed_improvement", "plot_enrichment"]

_MARKERS = "osD^v<>pPX*h"
_PNG_META = {"Software": None}


def _save(fig: Figure, path: str | Path) -> Path:
    FigureCanvasAgg(fig)
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with replacing(p) as tmp:  # the figure whole under its name, or no file
        fig.savefig(tmp, format="png", dpi=100, metadata=_PNG_META, bbox_inches="tight")
    return p


def _pct(v: Any) -> float:
    return float("nan") if v is None else 100.0 * float(v)


def _mc_sort(keys) -> list[str]:
    def key(k: str):
        try:
            return (0, float(k))
        except ValueError:
            return (1, 0.0)
    return sorted(keys, key=key)


def plot_resource_by_mc(data: Mapping[str, Mapping[str, Mapping[str, float | None]]], path: str | Path) -> Path:
    """``data``: {pairing: {M/C text: {"efficiency", "overdraw_rate", "optimum_rate"}}}."""
    fig = Figure(figsize=(13, 4))
    axes = fig.subplots(1, 3)
    for ax, (key, title) in zip(axes, (("efficiency", "Joint efficiency (%)"), ("overdraw_rate", "Overdraw (%)"),
                                       ("optimum_rate", "Optimum (%)"))):
        for i, (pairing, by_mc) in enumerate(sorted(data.items())):
            mcs = _mc_sort(by_mc)
            ax.plot(range(len(mcs)), [_pct(by_mc[m].get(key)) for m in mcs], marker=_MARKERS[i % len(_MARKERS)],
                    label=pairing)
            ax.set_xticks(range(len(mcs)), mcs)
        ax.set_title(title)
        ax.set_xlabel("M/C")
        ax.set_ylim(-2, 102)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize="small", loc="best")
    fig.suptitle("Resource game by compatibility ratio and pairing (talk games)")
    return _save(fig, path)


def plot_stability(data: Mapping[str, Mapping[str, Mapping[str, float | None]]], path: str | Path) -> Path:
    """``data``: {pairing: {M/C text: {"stable": optimum, "shifting": optimum}}}."""
    mcs = _mc_sort({m for v in data.values() for m in v})
    pairings = sorted(data)
    fig = Figure(figsize=(4.5 * max(1, len(mcs)), 4))
    axes = fig.subplots(1, max(1, len(mcs)), squeeze=False)[0]
    width = 0.38
    for ax, mc in zip(axes, mcs):
        xs = range(len(pairings))
        for j, cond in enumerate(("stable", "shifting")):
            ys = [_pct((data[p].get(mc) or {}).get(cond)) for p in pairings]
            ax.bar([x + (j - 0.5) * width for x in xs], ys, width, label=cond)
        ax.set_xticks(list(xs), pairings, rotation=30, ha="right", fontsize="small")
        ax.set_title(f"M/C {mc}")
        ax.set_ylim(0, 102)
        ax.set_ylabel("Optimum (%)")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize="small")
    fig.suptitle("Stable vs. shifting partners: share of jointly optimal rounds")
    return _save(fig, path)


def plot_talk(data: Mapping[str, Mapping[str, Mapping[str, float | None]]], path: str | Path) -> Path:
    """``data``: {M/C text: {"talk"|"no-talk": {"efficiency", "overdraw_rate", "optimum_rate"}}}."""
    mcs = _mc_sort(data)
    fig = Figure(figsize=(13, 4))
    axes = fig.subplots(1, 3)
    width = 0.38
    for ax, (key, title) in zip(axes, (("efficiency", "Joint efficiency (%)"), ("no_overdraw", "No overdraw (%)"),
                                       ("optimum_rate", "Optimum (%)"))):
        for j, cond in enumerate(("talk", "no-talk")):
            ys = []
            for mc in mcs:
                m = data[mc].get(cond) or {}
                if key == "no_overdraw":
                    v = m.get("overdraw_rate")
                    ys.append(float("nan") if v is None else 100.0 * (1.0 - float(v)))
                else:
                    ys.append(_pct(m.get(key)))
            ax.bar([x + (j - 0.5) * width for x in range(len(mcs))], ys, width, label=cond)
        ax.set_xticks(range(len(mcs)), mcs)
        ax.set_xlabel("M/C")
        ax.set_title(title)
        ax.set_ylim(0, 102)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize="small")
    fig.suptitle("The value of cheap talk")
    return _save(fig, path)


def plot_rulemaking(points: Sequence[Mapping[str, Any]], path: str | Path) -> Path:
    """``points``: dicts with environment, family, condition, entropy_mean,
    agreement_rate, agreement_ci (low, high)."""
    families = sorted({p["family"] for p in points})
    conditions = sorted({p["condition"] for p in points})
    colors = {f: f"C{i % 10}" for i, f in enumerate(families)}
    markers = {c: _MARKERS[i % len(_MARKERS)] for i, c in enumerate(conditions)}
    fig = Figure(figsize=(7, 5))
    ax = fig.subplots()
    stacked: dict[tuple[float, float], int] = {}
    for p in points:
        lo, hi = p["agreement_ci"]
        x, y = float(p["entropy_mean"]), float(p["agreement_rate"])
        ax.errorbar(x, y, yerr=[[max(0.0, y - lo)], [max(0.0, hi - y)]], fmt=markers[p["condition"]],
                    color=colors[p["family"]], capsize=3, markersize=7)
        # coincident cells: stack their environment labels instead of overprinting them
        k = (round(x, 2), round(y, 2))
        n = stacked.get(k, 0)
        stacked[k] = n + 1
        ax.annotate(str(p["environment"]).split(" ")[0], (x, y), textcoords="offset points",
                    xytext=(6, 4 + 9 * n), fontsize="x-small", color=colors[p["family"]])
    for f in families:
        ax.plot([], [], "s", color=colors[f], label=f)
    for c in conditions:
        ax.plot([], [], markers[c], color="gray", label=c)
    ax.set_xlabel("Mean normalised action entropy (within-run diversity)")
    ax.set_ylabel("Agreement rate (compromise + consensus)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.05, 1.05)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    ax.set_title("Rulemaking cells: diversity vs. agreement (95% Wilson intervals)")
    return _save(fig, path)


def plot_switching(rows: Sequence[Mapping[str, Any]], path: str | Path) -> Path:
    """``rows``: dicts with model (the pairing), game, s_no_talk, s_talk (fractions) and
    optionally p. One panel per game, one pair of horizontal bars (no talk, talk) per
    pairing; a star marks ΔS with p < .05 (seed 002 Table 1)."""
    games = list(dict.fromkeys(str(r.get("game")) for r in rows))
    models = list(dict.fromkeys(str(r.get("model")) for r in rows))
    by = {(str(r.get("game")), str(r.get("model"))): r for r in rows}
    fig = Figure(figsize=(3.6 * len(games) + 2.5, 0.42 * len(models) + 1.6))
    axes = fig.subplots(1, len(games), squeeze=False, sharey=True)[0]
    height = 0.38
    ys = list(range(len(models)))
    for ax, game in zip(axes, games):
        for j, (key, label) in enumerate((("s_no_talk", "no talk"), ("s_talk", "talk"))):
            vals = [_pct((by.get((game, m)) or {}).get(key)) for m in models]
            ax.barh([y + (j - 0.5) * height for y in ys], vals, height, label=label, color=f"C{j}")
        for y, m in zip(ys, models):
            r = by.get((game, m)) or {}
            p = r.get("p")
            if isinstance(p, (int, float)) and p < 0.05:
                ax.annotate("*", (101, y), va="center", fontsize="large")
        ax.set_title(game)
        ax.set_xlim(0, 106)
        ax.set_xlabel("Switching S (%)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(ys, models, fontsize="small")
    axes[0].invert_yaxis()
    axes[0].legend(fontsize="small", loc="lower right")
    fig.suptitle("Adjacent-round switching with and without cheap talk (* ΔS p < .05)")
    return _save(fig, path)


def plot_failed_improvement(data: Mapping[str, Mapping[str, Mapping[str, float | None]]], path: str | Path) -> Path:
    """``data``: {pairing: {"overdraw"|"suboptimal": {"pairs", "optimal", "improved",
    "failed"}}}: what follows an overdrawn and a suboptimal round, stacked shares per
    pairing, one panel each (seed 000 Figure 6's rule-based breakdown)."""
    pairings = list(data)
    fig = Figure(figsize=(6.5 * 2, 0.45 * len(pairings) + 1.8))
    axes = fig.subplots(1, 2, squeeze=False, sharey=True)[0]
    ys = list(range(len(pairings)))
    colors = {"optimal": "C2", "improved": "C0", "failed": "C3"}
    for ax, (prev, title) in zip(axes, (("overdraw", "After an overdrawn round"),
                                        ("suboptimal", "After a suboptimal round"))):
        left = [0.0] * len(pairings)
        for to, label in (("optimal", "reaches the optimum"), ("improved", "improves"), ("failed", "fails to improve")):
            vals = [_pct((data[p].get(prev) or {}).get(to)) for p in pairings]
            vals = [0.0 if v != v else v for v in vals]  # nan (no such pair) draws nothing
            ax.barh(ys, vals, 0.6, left=left, color=colors[to], label=label)
            left = [a + b for a, b in zip(left, vals)]
        for y, p in zip(ys, pairings):
            n = (data[p].get(prev) or {}).get("pairs") or 0
            ax.annotate(f"n={n}", (101, y), va="center", fontsize="x-small")
        ax.set_title(title)
        ax.set_xlim(0, 112)
        ax.set_xlabel("Next round (%)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(ys, pairings, fontsize="small")
    axes[0].invert_yaxis()
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, fontsize="small", loc="upper center", ncol=3, bbox_to_anchor=(0.5, 0.0))
    fig.suptitle("Failed improvement: the round after a non-optimal one")
    return _save(fig, path)


def plot_enrichment(data: Mapping[str, Mapping[str, float | None]], path: str | Path) -> Path:
    """``data``: {label: {"failed": Δ pp as a fraction, "overdraw": Δ as a fraction}}:
    the judge labels' prevalence shift in the two failure regions of seed 000 Figure 7
    (failed-improvement vs. other suboptimal rounds; overdrawn vs. non-overdrawn)."""
    labels = list(data)
    fig = Figure(figsize=(12, 0.45 * len(labels) + 1.8))
    axes = fig.subplots(1, 2, squeeze=False, sharey=True)[0]
    ys = list(range(len(labels)))
    for ax, (key, title) in zip(axes, (("failed", "Failed improvement vs. other suboptimal"),
                                       ("overdraw", "Overdrawn vs. non-overdrawn"))):
        vals = [_pct(data[lab].get(key)) for lab in labels]
        ax.barh(ys, [0.0 if v != v else v for v in vals], 0.6, color=["C3" if v > 0 else "C0" for v in vals])
        for y, v in zip(ys, vals):
            if v != v:
                ax.annotate("n/a", (0, y), va="center", fontsize="x-small")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(title)
        ax.set_xlabel("Prevalence difference (percentage points)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(ys, labels, fontsize="small")
    axes[0].invert_yaxis()
    fig.suptitle("LLM judge labels in failure regions")
    return _save(fig, path)
