"""Acceptance-detector benchmark: precision and recall of
:func:`negotiation_env.games.resource.acceptance.accepts` on a labelled set of negotiation
utterances (``tests/analysis/data/acceptance_utterances.jsonl``).

Run from the repository root:

    python -m benchmarks.acceptance_detector                  # both parts, tuning-part errors
    python -m benchmarks.acceptance_detector --errors heldout # also list held-out errors

The set (written before the detector was tuned) holds one utterance a line with
``text``, ``label`` (``accept``: the speaker accepts the partner's standing proposal
outright; ``not_accept``: anything else), ``category`` (how it was written: plain,
restated and double-negative acceptances; refusals, negated acceptance words, counter-
offers, conditional and hedged acceptances, questions, agreement words about something
else, own proposals, retractions, information) and ``split``: ``tune`` (the part the
detector was tuned on) or ``heldout`` (a stratified third per category, chosen with a
seeded shuffle before tuning and not looked at while tuning).

Positive class: ``accept``. Printed per part: true/false positives and negatives,
precision, recall, and per category how many the detector labels correctly. Writes the
figures and the machine description to ``benchmarks/results/acceptance_detector.json``
(``--out`` to change).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import machine_info, write_result
from negotiation_env.games.resource.acceptance import accepts, rejects

DATA = ROOT / "tests" / "analysis" / "data" / "acceptance_utterances.jsonl"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "acceptance_detector.json"
REFUSALS = ("refusal", "negated_accept")


def load(path: Path = DATA) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in rows:
        if r.get("label") not in ("accept", "not_accept") or r.get("split") not in ("tune", "heldout"):
            raise SystemExit(f"bad row in {path}: {r}")
    return rows


def score(rows: Iterable[Mapping[str, str]], detect: Callable[[str], bool] = accepts) -> dict[str, Any]:
    """Confusion counts, precision, recall and per-category correctness of ``detect``."""
    c = Counter()
    cats: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    errors = []
    for r in rows:
        truth, said = r["label"] == "accept", bool(detect(r["text"]))
        c[("tp" if truth else "fp") if said else ("fn" if truth else "tn")] += 1
        cats[r["category"]][0] += truth == said
        cats[r["category"]][1] += 1
        if truth != said:
            errors.append({"category": r["category"], "label": r["label"], "text": r["text"]})
    tp, fp, fn, tn = c["tp"], c["fp"], c["fn"], c["tn"]
    return {"n": tp + fp + fn + tn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None,
            "categories": {k: {"correct": v[0], "n": v[1]} for k, v in sorted(cats.items())}, "errors": errors}


def refusal_score(rows: Iterable[Mapping[str, str]]) -> dict[str, Any]:
    """How :func:`rejects` does: refusal and negated items it flags, and acceptances it
    flags (which would be the worst error: an accepted proposal read as turned down)."""
    rows = list(rows)
    ref = [r for r in rows if r["category"] in REFUSALS]
    acc = [r for r in rows if r["label"] == "accept"]
    hit = sum(rejects(r["text"]) for r in ref)
    return {"refusals": len(ref), "flagged": hit, "recall": hit / len(ref) if ref else None,
            "accepts_flagged": sum(rejects(r["text"]) for r in acc), "accepts": len(acc)}


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--errors", choices=("tune", "heldout", "none"), default="tune",
                    help="which part's misclassified utterances to list (held-out: only once tuning is over)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    rows = load(args.data)
    parts = {name: score([r for r in rows if r["split"] == name]) for name in ("tune", "heldout")}
    parts["all"] = score(rows)
    refusal = {name: refusal_score([r for r in rows if name == "all" or r["split"] == name])
               for name in ("tune", "heldout", "all")}
    print(f"{'part':<8} {'n':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>4} {'precision %':>12} {'recall %':>9}")
    for name, s in parts.items():
        print(f"{name:<8} {s['n']:>4} {s['tp']:>4} {s['fp']:>4} {s['fn']:>4} {s['tn']:>4} "
              f"{_pct(s['precision']):>12} {_pct(s['recall']):>9}")
    print("\nrejects(): refusal/negated items flagged; acceptances flagged")
    for name, s in refusal.items():
        print(f"  {name:<8} {s['flagged']}/{s['refusals']} ({_pct(s['recall'])} %); "
              f"{s['accepts_flagged']}/{s['accepts']}")
    print("\ncorrect per category (tune / heldout):")
    for cat in parts["all"]["categories"]:
        cells = [parts[p]["categories"].get(cat, {"correct": 0, "n": 0}) for p in ("tune", "heldout")]
        print(f"  {cat:<24} " + " / ".join(f"{c['correct']}/{c['n']}" for c in cells))
    if args.errors != "none":
        errs = parts[args.errors]["errors"]
        print(f"\nmisclassified ({args.errors}): {len(errs)}")
        for e in errs:
            print(f"  [{e['category']}, {e['label']}] {e['text']}")
    write_result(args.out, {"benchmark": "acceptance_detector", "data": str(args.data.relative_to(ROOT))
                            if args.data.is_relative_to(ROOT) else str(args.data),
                            "parts": {k: {kk: vv for kk, vv in v.items() if kk != "errors" or k == "tune"}
                                      for k, v in parts.items()},
                            "rejects": refusal, "machine": machine_info()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
