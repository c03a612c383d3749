"""The resource paper's published numbers for the replication card (seed 000 §5), as
plain data; the analysis layer
(:meth:`negotiation_env.analysis.resource.ResourceAnalysis.replication_card`) reads them
as :class:`negotiation_env.analysis.cards.Published` and puts the run's figures beside
them.

Every number is a model row: the paper's main cohort is Claude Sonnet 4.5, GPT-5 Mini and
Qwen 3.5 Flash in all-to-all cross-play, 10 games per pairing and condition (3 M/C levels
x 2 partner stabilities x 2 rotations): 720 games of 4 rounds, so a pairing x M/C cell
holds 40 games (160 rounds) and an M/C level 240 games (960 rounds). The seed text lacks
Table 3's body; the numbers here are the ones §5's text quotes from it. "Sonnet 4.5 x GPT-5
Mini achieves 79.8% joint efficiency (vs. 68.2% and 63.7% self-play)" is read with the
next sentence ("GPT-5 Mini x Qwen 3.5 reaches 74.0% (vs. 68.2%)", the stronger model's
self-play) as GPT-5 Mini 68.2%, Sonnet 4.5 63.7%.

``where``: ``models`` (the paper's models of the row's seats, names of :data:`MODELS`;
``cohort``: every game whose seats are all of the three, and the run must hold all
three), ``mc`` (the M/C level, None for all), ``measure`` (``efficiency``: mean joint
reward / M over rounds; ``overdraw`` and ``optimum``: shares of rounds;
``optimal_game``: share of games with a jointly optimal round).
"""

from __future__ import annotations

PAPER = ("Yao, Zou and Hawkins 2026 (Talk is Cheap, Communication is Hard), §5 main cohort: Claude Sonnet 4.5, GPT-5 Mini, Qwen 3.5 "
         "Flash, 720 games of 4 rounds")
#: each paper model and the reduced names (lower-case letters and digits) a policy spec's
#: model name must contain to be that model
MODELS = {"Claude Sonnet 4.5": ("sonnet45", "claudesonnet45", "claude45sonnet"),
          "GPT-5 Mini": ("gpt5mini",),
          "Qwen 3.5 Flash": ("qwen35flash",)}
COHORT = tuple(MODELS)
S, G, Q = COHORT
#: (models, M/C, measure, value, n, unit, source)
NUMBERS = (
    ((S, G), 0.5, "efficiency", 0.798, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((G, G), 0.5, "efficiency", 0.682, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((S, S), 0.5, "efficiency", 0.637, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((G, Q), 0.5, "efficiency", 0.740, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((Q, S), 0.5, "efficiency", 0.638, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((G, Q), 0.8, "efficiency", 0.774, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((G, G), 0.8, "efficiency", 0.856, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((S, G), 1.0, "overdraw", 0.013, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    ((S, G), 0.5, "overdraw", 0.106, 160, "rounds", "Yao et al. 2026 §5 (Table 3)"),
    (COHORT, None, "overdraw", 0.157, 2880, "rounds", "Yao et al. 2026 §5"),
    (COHORT, 0.5, "overdraw", 0.247, 960, "rounds", "Yao et al. 2026 §5"),
    (COHORT, 1.0, "overdraw", 0.069, 960, "rounds", "Yao et al. 2026 §5"),
    (COHORT, None, "optimal_game", 0.817, 720, "games", "Yao et al. 2026 §5"),
)
MEASURES = {"efficiency": "efficiency (joint reward / M, mean over rounds)",
            "overdraw": "overdraw rate (rounds with a supply violation)",
            "optimum": "optimum rate (rounds reaching M)",
            "optimal_game": "games with a jointly optimal round"}
#: the smallest run n the card compares: 10 games' worth
MIN_N = {"rounds": 40, "games": 10}


def published() -> list[dict]:
    """The card's published numbers, one dict per :class:`~negotiation_env.analysis.cards.Published`."""
    out = []
    for models, mc, measure, value, n, unit, source in NUMBERS:
        cohort = models == COHORT
        row = ("main cohort (" + ", ".join(COHORT) + ")" if cohort
               else (f"{models[0]} self-play" if models[0] == models[1] else " × ".join(models)))
        out.append({"row": row, "measure": MEASURES[measure] + ("" if mc is None else f", M/C {mc}"),
                    "value": value, "n": n, "unit": unit, "source": source, "min_n": MIN_N[unit],
                    "where": (("models", "cohort" if cohort else tuple(sorted(models))), ("mc", mc),
                              ("measure", measure))})
    return out
