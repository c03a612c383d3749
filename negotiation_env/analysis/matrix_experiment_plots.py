"""PNG figures of the matrix paper's Experiments 1 and 2 (seed 002 Figures 2, 3, S2 and
S3), drawn as :mod:`.plots` draws the report's: matplotlib's object API on the Agg
canvas, no pyplot, no timestamp in the file. Inputs are in percentage points, as
:mod:`.matrix_experiments` tabulates them.

* :func:`plot_decomposition`: one panel per group (a model, or the pooled interaction);
  per bar, the reduction in expected switching split into reduced probability drift
  (blue) and reduced action uncertainty (orange), positive parts stacked above zero and
  negative parts below, and a diamond at their exact sum (Figures 2, S2, S3).
* :func:`plot_round_profile`: the history-by-message interaction per transition-ending
  round, one line per model with its 95% band (Figure 3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from matplotlib.figure import Figure

from .plots import _MARKERS, _save

__all__ = ["plot_decomposition", "plot_round_profile", "DRIFT_COLOUR", "UNCERTAINTY_COLOUR"]

DRIFT_COLOUR = "tab:blue"
UNCERTAINTY_COLOUR = "tab:orange"


def plot_decomposition(panels: Sequence[tuple[str, Sequence[tuple[str, float, float, float]]]], path: str | Path,
                       title: str, *, ylabel: str = "Reduction in expected switching (pp)",
                       parts: tuple[str, str] = ("reduced drift", "reduced uncertainty")) -> Path:
    """``panels``: ``[(panel title, [(bar label, drift, uncertainty, total), ...]), ...]``;
    ``parts``: the legend's names of the two components."""
    n = max(1, len(panels))
    width = max(len(bars) for _, bars in panels) if panels else 1
    fig = Figure(figsize=(max(4.5, 0.9 * width + 1.5) * min(n, 2), 4.2 * ((n + 1) // 2)), layout="constrained")
    axes = fig.subplots((n + 1) // 2, min(n, 2), squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    for ax, (name, bars) in zip(axes, panels):
        xs = range(len(bars))
        for i, (_label, drift, unc, total) in enumerate(bars):
            up = down = 0.0
            for value, colour, part in ((drift, DRIFT_COLOUR, parts[0]), (unc, UNCERTAINTY_COLOUR, parts[1])):
                base = up if value >= 0 else down
                ax.bar(i, value, 0.6, bottom=base, color=colour, label=part if i == 0 else None)
                if value >= 0:
                    up += value
                else:
                    down += value
            ax.plot(i, total, marker="D", color="black", markersize=6, linestyle="none",
                    label="total" if i == 0 else None)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(list(xs), [b[0] for b in bars], rotation=30, ha="right", fontsize="small")
        ax.set_xlim(*((-1.0, 1.0) if len(bars) < 2 else (-0.75, len(bars) - 0.25)))
        ax.set_ylabel(ylabel)
        ax.set_title(name)
        ax.grid(axis="y", alpha=0.3)
    if panels:  # below the panels (outside, by the constrained layout), where it covers no bar
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize="small", frameon=False)
    fig.suptitle(title)
    return _save(fig, path)


def plot_round_profile(series: Mapping[str, Sequence[tuple[int, float, tuple[float, float] | None]]],
                       path: str | Path) -> Path:
    """``series``: ``{model: [(round, interaction, (low, high) or None), ...]}``."""
    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    for i, (model, points) in enumerate(series.items()):
        xs = [p[0] for p in points]
        line = ax.plot(xs, [p[1] for p in points], marker=_MARKERS[i % len(_MARKERS)], label=model)[0]
        band = [(x, p[2]) for x, p in zip(xs, points) if p[2] is not None]
        if band:
            ax.fill_between([b[0] for b in band], [b[1][0] for b in band], [b[1][1] for b in band],
                            color=line.get_color(), alpha=0.2, linewidth=0)
    ax.axhline(0, color="grey", linewidth=0.8)
    rounds = sorted({p[0] for points in series.values() for p in points})
    ax.set_xticks(rounds, [str(r) for r in rounds])
    ax.set_xlabel("Transition ending at round")
    ax.set_ylabel("History-by-message interaction (pp)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    fig.suptitle("Figure 3: Experiment 2 history-by-message interaction by transition")
    return _save(fig, path)
