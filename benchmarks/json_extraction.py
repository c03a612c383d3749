"""Cost of the JSON extraction on adversarial text: it must grow linearly with the text.

Run from the repository root:

    python -m benchmarks.json_extraction            # 10k, 100k and 1M characters (under a minute)
    python -m benchmarks.json_extraction --quick    # 1k and 10k, a few seconds

What it measures. :func:`negotiation_env.core.jsontext.extract_json_object` (the parser of
every model answer, with its 100,000-character cap lifted by ``max_chars=None`` so the scan
itself is measured at 1M) and :func:`~negotiation_env.core.jsontext.loads_document` (data
files and trace records) on shapes a runaway or hostile model writes:

* ``brace flood``: ``{{{{...`` (each ``{`` once started a decode, and each failed decode
  built an error that scanned back to the line start: quadratic);
* ``key flood``: ``{"a"{"a"...`` (every position is a possible object start);
* ``digit flood``: ``{"a": 99999...}`` (one numeral of the whole length);
* ``nested arrays``: ``{"a": [[[[...`` (nesting far past the limit);
* ``long string``: ``{"a": "xxxx..."}`` (a valid answer, decoded whole);
* ``fence flood``: ````` ```json\\n{ ````` repeated (a code fence per few characters).

Each (shape, size) is timed ``--reps`` times (median, ``time.perf_counter``); the table
gives microseconds, nanoseconds per character and the ratio of time per character at the
largest size to that at the smallest: about 1 (or below, as fixed costs amortise) is
linear, 100 would be quadratic over 10k -> 1M. For reference, an unbounded
extraction (a decode at every ``{``, :func:`legacy_extract`) is timed on the
brace flood up to ``--legacy-max`` characters. The JSON goes to
``benchmarks/results/json_extraction.json`` (``--quick``: ``json_extraction_quick.json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import machine_info, write_result
from negotiation_env.core import jsontext
from negotiation_env.core.jsontext import JSONTextError, ParseError, extract_json_object, loads_document

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "json_extraction.json"
QUICK_OUT = DEFAULT_OUT.with_name("json_extraction_quick.json")


def _fill(prefix: str, piece: str, suffix: str, n: int) -> str:
    body = n - len(prefix) - len(suffix)
    return prefix + (piece * (body // len(piece) + 1))[:body] + suffix


SHAPES: dict[str, Callable[[int], str]] = {
    "brace flood": lambda n: "{" * n,
    "key flood": lambda n: _fill("", '{"a"', "", n),
    "digit flood": lambda n: _fill('{"a": ', "9", "}", n),
    "nested arrays": lambda n: _fill('{"a": ', "[", "", n),
    "long string": lambda n: _fill('{"a": "', "x", '"}', n),
    "fence flood": lambda n: _fill("", "```json\n{", "", n),
}


def legacy_extract(text: str) -> Any:
    """An unbounded extraction, reduced to its loop: a decode at every ``{``
    (fences and warnings left out; they do not change the cost on these shapes)."""
    first_error = None
    pos = text.find("{")
    while pos != -1:
        try:
            obj, _ = jsontext._DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            first_error = first_error or e.msg
        except (jsontext._Refused, RecursionError) as e:
            return str(e)
        else:
            return obj
        pos = text.find("{", pos + 1)
    return first_error


def _outcome(fn: Callable[[str], Any], text: str) -> str:
    try:
        got = fn(text)
    except (ParseError, JSONTextError) as e:
        return "refused: " + str(e)[:60]
    return "accepted" if isinstance(got, (dict, tuple)) else str(got)[:60]


def time_call(fn: Callable[[str], Any], text: str, reps: int) -> tuple[float, str]:
    """(median seconds, outcome) of ``fn(text)``; exceptions are the outcome, not failures."""
    outcome = _outcome(fn, text)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        try:
            fn(text)
        except (ParseError, JSONTextError):
            pass
        times.append(time.perf_counter() - t0)
    return statistics.median(times), outcome


FUNCTIONS: dict[str, Callable[[str], Any]] = {
    "extract_json_object": lambda t: extract_json_object(t, max_chars=None),
    "loads_document": loads_document,
}


def run(sizes: list[int], reps: int, legacy_max: int) -> dict[str, Any]:
    rows = []
    for shape, make in SHAPES.items():
        for fname, fn in FUNCTIONS.items():
            per = {}
            for n in sizes:
                text = make(n)
                assert len(text) == n, (shape, n, len(text))
                sec, outcome = time_call(fn, text, reps)
                per[n] = {"seconds": sec, "ns_per_char": sec / n * 1e9, "outcome": outcome}
            ns = [per[n]["ns_per_char"] for n in sizes]
            rows.append({"shape": shape, "function": fname, "by_size": per,
                         "ratio_ns_per_char_largest_over_smallest": ns[-1] / ns[0] if ns[0] > 0 else None,
                         "ratio_ns_per_char_step_by_step": [b / a if a > 0 else None for a, b in zip(ns, ns[1:])]})
    legacy = {}
    for n in [s for s in sizes if s <= legacy_max]:
        sec, outcome = time_call(legacy_extract, SHAPES["brace flood"](n), 1)
        legacy[n] = {"seconds": sec, "ns_per_char": sec / n * 1e9, "outcome": outcome}
    return {"sizes": sizes, "reps": reps, "rows": rows, "legacy_brace_flood": legacy,
            "limits": {"MAX_RESPONSE_CHARS": jsontext.MAX_RESPONSE_CHARS, "MAX_CANDIDATES": jsontext.MAX_CANDIDATES,
                       "MAX_JSON_DEPTH": jsontext.MAX_JSON_DEPTH, "MAX_DOCUMENT_DEPTH": jsontext.MAX_DOCUMENT_DEPTH,
                       "MAX_NUMBER_CHARS": jsontext.MAX_NUMBER_CHARS}}


def _size(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k"


def print_table(result: dict[str, Any]) -> None:
    sizes = result["sizes"]
    steps = [f"{_size(b)}/{_size(a)}" for a, b in zip(sizes, sizes[1:])]
    header = ["shape", "function"] + [f"µs @{_size(n)}" for n in sizes] + [
        f"ns/char @{_size(n)}" for n in (sizes[0], sizes[-1])] + [f"ratio {_size(sizes[-1])}/{_size(sizes[0])}"] + (
        [f"steps {', '.join(steps)}"] if len(steps) > 1 else []) + ["outcome"]
    rows = []
    for r in result["rows"]:
        per = r["by_size"]
        rows.append([r["shape"], r["function"]] + [f"{per[n]['seconds'] * 1e6:,.0f}" for n in sizes]
                    + [f"{per[n]['ns_per_char']:.2f}" for n in (sizes[0], sizes[-1])]
                    + [f"{r['ratio_ns_per_char_largest_over_smallest']:.2f}"]
                    + ([" ".join(f"{x:.2f}" for x in r["ratio_ns_per_char_step_by_step"])] if len(steps) > 1 else [])
                    + [per[sizes[-1]]["outcome"][:44]])
    for n, v in result["legacy_brace_flood"].items():
        rows.append(["brace flood", "legacy (every '{')"] + [f"{v['seconds'] * 1e6:,.0f}" if m == n else ""
                                                             for m in sizes] + [""] * (3 + (len(steps) > 1))
                    + [v["outcome"][:44]])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    print("JSON extraction on adversarial text (median of %d runs)" % result["reps"])
    print("  ".join(h.ljust(w) if i < 2 or i == len(header) - 1 else h.rjust(w)
                    for i, (h, w) in enumerate(zip(header, widths))))
    for row in rows:
        print("  ".join(c.ljust(w) if i < 2 or i == len(header) - 1 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
    print("ratio = ns per character at the largest size / at the smallest: ~1 or below is linear, "
          f"{sizes[-1] // sizes[0]} would be quadratic.")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="1k and 10k characters only")
    p.add_argument("--reps", type=int, default=5, help="timed runs per shape and size (default 5)")
    p.add_argument("--legacy-max", type=int, default=100_000,
                   help="largest brace flood for the pre-bound extraction (default 100,000; 1M takes minutes)")
    p.add_argument("--sizes", type=lambda v: [int(x) for x in v.split(",")], default=None,
                   help="comma-separated text sizes (default 10000,100000,1000000)")
    p.add_argument("--out", type=Path, default=None, help="JSON output path")
    args = p.parse_args(argv)
    sizes = args.sizes or ([1_000, 10_000] if args.quick else [10_000, 100_000, 1_000_000])
    t0 = time.perf_counter()
    result = run(sizes, args.reps, args.legacy_max)
    result["seconds_total"] = time.perf_counter() - t0
    result["machine"] = machine_info()
    result["command"] = " ".join(["python", "benchmarks/json_extraction.py", *(argv if argv is not None else sys.argv[1:])])
    print_table(result)
    write_result(args.out or (QUICK_OUT if args.quick else DEFAULT_OUT), result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
