"""Precision and recall of the reader of negotiation language on its labelled corpus.

Reads ``tests/games/resource/data/language_corpus.jsonl`` (utterances in the forms chat
models write, each with its structured reading; a third held out, never used to tune
the reader) with :func:`negotiation_env.games.resource.reader.read` and scores each kind
per split:

* ``offer``: the reader's offer equals the labelled one exactly (both shares; a share
  not named is None, "nothing" is empty; zero quantities are left out of both sides);
  a wrong offer counts as a false positive and a false negative;
* ``accept``, ``reject``, ``question``, ``hypothetical``: the flag;
* ``disclosure``: each labelled disclosure found with its project, requirements and
  reward.

    python -m benchmarks.language_reader                  # both splits, a table each
    python -m benchmarks.language_reader --split heldout --errors   # and each miss
    python -m benchmarks.language_reader --json out.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping

ROOT = Path(__file__).resolve().parents[1]

from negotiation_env.games.resource.reader import Reading, read

CORPUS = ROOT / "tests" / "games" / "resource" / "data" / "language_corpus.jsonl"
KINDS = ("offer", "accept", "reject", "disclosure", "question", "hypothetical")
FLAGS = ("accept", "reject", "question", "hypothetical")


def load(path: Path = CORPUS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _share(units: Mapping[str, int] | None) -> tuple | None:
    if units is None:
        return None
    return tuple(sorted((str(k).lower(), int(v)) for k, v in units.items() if int(v)))


def offer_of(r: Reading) -> tuple | None:
    if r.offer is None:
        return None
    return _share(r.offer.you_dict()), _share(r.offer.me_dict())


def label_offer(row: Mapping[str, Any]) -> tuple | None:
    o = row.get("offer")
    return None if o is None else (_share(o.get("you")), _share(o.get("me")))


def _disclosures(items: Iterable[Any]) -> Counter:
    out: Counter = Counter()
    for d in items:
        if isinstance(d, Mapping):
            out[(d["project"], _share(d["requires"]), None if d.get("reward") is None else float(d["reward"]))] += 1
        else:
            out[(d.project, _share(dict(d.requires)), d.reward)] += 1
    return out


def score(rows: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Counter], list[tuple[str, str, Any, Any]]]:
    """({kind: Counter(tp, fp, fn)}, [(id, kind, label, reading) of each miss])."""
    counts = {k: Counter() for k in KINDS}
    misses: list[tuple[str, str, Any, Any]] = []
    for row in rows:
        r = read(row["text"], row["resources"])
        want, got = label_offer(row), offer_of(r)
        c = counts["offer"]
        if want is not None and got == want:
            c["tp"] += 1
        else:
            c["fp"] += got is not None
            c["fn"] += want is not None
            if want != got:
                misses.append((row["id"], "offer", want, got))
        for k in FLAGS:
            w, g = bool(row[k]), bool(getattr(r, {"accept": "accepts", "reject": "rejects"}.get(k, k)))
            counts[k]["tp" if w and g else "fp" if g else "fn" if w else "tn"] += 1
            if w != g:
                misses.append((row["id"], k, w, g))
        want_d, got_d = _disclosures(row["disclosures"]), _disclosures(r.disclosures)
        counts["disclosure"]["tp"] += sum((want_d & got_d).values())
        counts["disclosure"]["fp"] += sum((got_d - want_d).values())
        counts["disclosure"]["fn"] += sum((want_d - got_d).values())
        if want_d != got_d:
            misses.append((row["id"], "disclosure", sorted(want_d), sorted(got_d)))
    return counts, misses


def pr(c: Counter) -> tuple[float | None, float | None, int]:
    """(precision, recall, labelled) of one kind; None where nothing was predicted or labelled."""
    p = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else None
    r = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else None
    return p, r, c["tp"] + c["fn"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--split", choices=("dev", "heldout", "both"), default="both")
    ap.add_argument("--errors", action="store_true", help="print every miss")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    rows = load(args.corpus)
    by_id = {r["id"]: r for r in rows}
    console = Console()
    out: dict[str, Any] = {}
    for split in (("dev", "heldout") if args.split == "both" else (args.split,)):
        part = [r for r in rows if r["split"] == split]
        counts, misses = score(part)
        table = Table(title=f"{split}: {len(part)} utterances")
        for col in ("kind", "labelled", "precision", "recall"):
            table.add_column(col, justify="left" if col == "kind" else "right")
        out[split] = {}
        for k in KINDS:
            p, r, n = pr(counts[k])
            out[split][k] = {"labelled": n, "precision": p, "recall": r, **dict(counts[k])}
            table.add_row(k, str(n), "n/a" if p is None else f"{p:.3f}", "n/a" if r is None else f"{r:.3f}")
        console.print(table)
        if args.errors:
            for rid, kind, want, got in misses:
                console.print(f"[bold]{rid}[/] {kind}: label {want!r} read {got!r}\n  {by_id[rid]['text']!r}",
                              markup=True, highlight=False)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
