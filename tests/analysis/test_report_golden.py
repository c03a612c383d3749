"""Every table of a report on a small fixed run, pinned: the SHA-256 of each table's
Markdown and CSV (and of ``report.md``) against ``data/report_golden.json``, so that a
refactoring of the table builders that changes any output byte fails here. After an
intended change to a table, regenerate the file with
``python -m tests.analysis.test_report_golden`` and review the tables' diff."""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from baselines.scripted.matrix import make as make_matrix
from negotiation_env.analysis.report import build_report

from .tracesets import Garbage, Metered, play_matrix_env, play_resource, play_rulemaking

GOLDEN = Path(__file__).parent / "data" / "report_golden.json"


def fixed_run() -> list[dict]:
    """Resource games reaching every resource table (talk and no-talk, both partner
    stabilities, two M/C levels, a transparency and a theory-of-mind arm, one arm game
    with no matched baseline, a fallback round, token usage), rulemaking runs with a
    Ledger contrast, and matrix dyads with and without talk."""
    tr = []
    for i, (a, b) in enumerate((("oracle", "oracle"), ("greedy", "fair_splitter"))):
        for sc in ("mc050_1", "mc100_1"):
            for partner in ("stable", "shifting"):
                tr.append(play_resource(a, b, seed=i, scenario=sc, partner=partner))
    tr += [play_resource("oracle", "oracle", seed=5, scenario=sc, cheap_talk=False) for sc in ("mc050_1", "mc100_1")]
    tr.append(play_resource("greedy", "fair_splitter", seed=6, scenario="mc050_1", transparency="full"))
    tr.append(play_resource("oracle", "oracle", seed=7, scenario="mc100_1", intervention="theory_of_mind"))
    tr.append(play_resource("greedy", "greedy", seed=8, scenario="mc050_1", intervention="theory_of_mind"))
    tr.append(play_resource(Garbage(seed=0, bad=(2,)), "oracle", scenario="mc050_1", game_id="fallback"))
    tr.append(play_resource(Metered(seed=1), "oracle", scenario="mc100_1", game_id="metered"))
    tr += [play_rulemaking("conceder", seed=s, condition="ledger", early_end="window") for s in range(2)]
    tr += [play_rulemaking("conceder", seed=s, condition="native", early_end="never") for s in range(2)]
    for k, treatment in enumerate(("none", "communication") * 2):
        env = play_matrix_env(make_matrix("always_a", output="text"), make_matrix("alternator", output="text"),
                              seed=k, treatment=treatment, stage_game="prisoners_dilemma")
        tr.append(env.last_trace.to_dict())
    return tr


def digests(out: Path) -> dict[str, dict[str, str]]:
    """Each table's (and report.md's) file digests, by name."""
    tr = fixed_run()
    found: dict[str, dict[str, str]] = {}
    for fallbacks in (False, True):
        d = out / str(fallbacks)
        build_report(tr, d, plots=False, include_fallbacks=fallbacks, n_resamples=50)
        for p in sorted(d.iterdir()):
            key = f"{'with' if fallbacks else 'without'} fallbacks/{p.stem}"
            found.setdefault(key, {})[p.suffix.lstrip(".")] = hashlib.sha256(p.read_bytes()).hexdigest()
    return found


def test_every_report_table_is_byte_identical_to_the_golden_digests(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    found = digests(tmp_path)
    assert sorted(found) == sorted(golden)
    assert {k: v for k, v in found.items() if v != golden[k]} == {}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(digests(Path(tempfile.mkdtemp())), indent=1, sort_keys=True) + "\n",
                      encoding="utf-8")
    sys.exit(0)
