"""The matrix paper's published numbers for the replication card (seed 002 Table 1), as
plain data; the analysis layer
(:meth:`negotiation_env.analysis.matrix.MatrixAnalysis.replication_card`) reads them as
:class:`negotiation_env.analysis.cards.Published` and puts the run's figures beside them.

Table 1: per model (self-play) and stage game, adjacent-round switching without and with
one-sentence cheap talk and the communication effect ΔS = S(no message) - S(message)
with its 95% interval (10,000 dyad-level bootstrap resamples), six framings weighted
equally, 100 ten-round dyads per model x game x framing x treatment cell: 600 dyads per
treatment, 1,200 per row. The overall effect weights all 96 model x game x framing cells
equally: 63.8% -> 18.9%, ΔS 44.9 points [44.1, 45.6], 19,200 dyads. Every number is a
model row; the card compares ΔS, the number the paper gives with its spread.

``where``: ``models`` (the row's model, a name of :data:`MODELS`, both seats; ``cohort``:
every self-play dyad of the four, and the run must hold all four), ``stage_game`` (None:
all four).
"""

from __future__ import annotations

PAPER = ("Lorè, Zhu and Heydari 2026 (Cheap Talk Stabilizes Strategic Interaction), Table 1: self-play of four open-weight models, "
         "four stage games, six framings, 100 dyads per cell and treatment")
MODELS = {"Qwen 2.5 7B": ("qwen257b",), "Granite 3.3 8B": ("granite338b",), "Gemma 2 9B": ("gemma29b",),
          "Falcon 3 7B": ("falcon37b",)}
GAMES = ("prisoners_dilemma", "snowdrift", "stag_hunt", "harmony")
#: model -> (S no message %, S message %, ΔS points, ΔS 95% CI) per stage game, in GAMES order
TABLE1 = {
    "Qwen 2.5 7B": ((85.2, 13.1, 72.1, (69.5, 74.8)), (99.5, 12.6, 86.9, (84.9, 88.8)),
                    (93.3, 10.1, 83.2, (81.1, 85.3)), (99.8, 9.3, 90.5, (88.7, 92.2))),
    "Granite 3.3 8B": ((95.2, 23.6, 71.6, (69.1, 74.1)), (98.5, 19.1, 79.3, (77.1, 81.5)),
                       (80.5, 14.7, 65.8, (62.3, 69.1)), (92.7, 15.5, 77.2, (74.5, 79.9))),
    "Gemma 2 9B": ((44.0, 21.5, 22.6, (18.4, 26.6)), (53.8, 25.8, 28.0, (24.0, 32.1)),
                   (16.7, 11.5, 5.2, (1.9, 8.6)), (13.4, 11.0, 2.4, (-0.7, 5.6))),
    "Falcon 3 7B": ((52.3, 35.5, 16.8, (12.8, 20.8)), (42.5, 30.3, 12.2, (8.2, 16.1)),
                    (25.1, 24.6, 0.5, (-3.1, 4.1)), (27.9, 24.1, 3.8, (0.2, 7.4))),
}
OVERALL = (63.8, 18.9, 44.9, (44.1, 45.6))
DYADS_PER_ROW = 1200
DYADS_OVERALL = 19200
#: the smallest run n (dyads, both treatments) the card compares
MIN_DYADS = 20


def published() -> list[dict]:
    """The card's published numbers, one dict per :class:`~negotiation_env.analysis.cards.Published`."""
    from .rules import NAMES

    out = []
    rows = [(m, g, v) for m, vals in TABLE1.items() for g, v in zip(GAMES, vals)] + [("cohort", None, OVERALL)]
    for model, game, (s_no, s_msg, delta, ci) in rows:
        out.append({"row": (f"{model} self-play" if model != "cohort" else "all four models, self-play"),
                    "measure": f"ΔS = S(no message) - S(message), {NAMES[game] if game else 'all games'}",
                    "value": delta / 100, "interval": (ci[0] / 100, ci[1] / 100),
                    "n": DYADS_PER_ROW if game else DYADS_OVERALL, "unit": "dyads",
                    "source": "Lorè et al. 2026 Table 1" if game else "Lorè et al. 2026 §4 (Table 1 text)",
                    "note": f"S {s_no}% -> {s_msg}%", "min_n": MIN_DYADS,
                    "where": (("models", model), ("stage_game", game))})
    return out
