"""The rulemaking paper's published numbers for the replication card (seed 001 §7, the
scripted non-LLM baseline), transcribed as plain data; the analysis layer
(:meth:`negotiation_env.analysis.rulemaking.RulemakingAnalysis.replication_card`) reads
them as :class:`negotiation_env.analysis.cards.Published` and puts the run's figures
beside them.

Seed 001 §7 ("The scripted non-LLM baseline"): five hand-coded policies, no language
model, played E1 through the paper's engine and classifier, 15 runs per policy. Agreements
(compromise or consensus) out of 15: a time-based conceder 14, a noisy variant 13, a mixed
population 13, an aspiration satisficer 7, a pure hardliner 0, a pure reciprocator 0. The
reciprocator softens (any Support or Concede) "in 67% of runs", read as 10 of 15; the
hardliner plays "one repeated action" (Counter), so it softens in none. This package's
scripted policies (``baselines.scripted.rulemaking``) are built after the paper's
Appendix H, which the seed text lacks; the paper's mixed population draws each seat's
policy per run, which a run's fixed lineups do not.

``where``: ``environment`` (the shipped scenario id), ``condition`` (the paper's scripted
agents have no thinking condition; the card reads the ``none`` condition, the game's
default), ``family`` (the seat label of a homogeneous population, a ``scripted:`` prefix
ignored; ``mixed`` only matches a family labelled exactly so).
"""

from __future__ import annotations

PAPER = "Andric 2026 (Diversity Without Fidelity), §7 scripted non-LLM baseline, E1, 15 runs per policy"
SOURCE = "Andric 2026 §7"
RUNS = 15
#: agreements (compromise + consensus) of 15 E1 runs per scripted policy
AGREEMENTS = {"conceder": 14, "noisy_conceder": 13, "mixed": 13, "satisficer": 7, "hardliner": 0, "reciprocator": 0}
#: runs of 15 with any softening move (Support or Concede)
SOFTENING = {"reciprocator": (10, "67% of runs, read as 10 of 15"),
             "hardliner": (0, "one repeated action (Counter), read as 0 of 15")}
#: the smallest run cell the card compares (the paper's cell is 15 runs)
MIN_RUNS = 10


def published() -> list[dict]:
    """The card's published numbers, one dict per :class:`~negotiation_env.analysis.cards.Published`."""
    out = []
    for policy, k in AGREEMENTS.items():
        out.append({"row": policy, "measure": "agreement rate (compromise or consensus)", "value": k / RUNS,
                    "n": RUNS, "unit": "runs", "source": SOURCE, "count": k, "min_n": MIN_RUNS,
                    "where": (("environment", "E1"), ("condition", "none"), ("family", policy),
                              ("outcome", "agreement"))})
    for policy, (k, how) in SOFTENING.items():
        out.append({"row": policy, "measure": "runs with a softening move (Support or Concede)", "value": k / RUNS,
                    "n": RUNS, "unit": "runs", "source": SOURCE, "count": k, "min_n": MIN_RUNS, "note": how,
                    "where": (("environment", "E1"), ("condition", "none"), ("family", policy),
                              ("outcome", "softening"))})
    return out
