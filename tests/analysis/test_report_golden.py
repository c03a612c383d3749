"""Every table of a report on a small fixed run, pinned: the SHA-256 of each table's
Markdown and CSV (and of ``report.md``) against ``data/report_golden.json``, so that a
refactoring of the table builders that changes any output byte fails here, naming the
tables that changed. After an intended change to a table, regenerate the file with
``NEGOTIATION_ENV_UPDATE_GOLDEN=1 pytest tests/analysis/test_report_golden.py``."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from baselines.scripted.matrix import make as make_matrix
from negotiation_env.analysis.judge import load_taxonomy, validate_labels
from negotiation_env.analysis.report import build_report

from .tracesets import Garbage, Metered, play_matrix_env, play_resource, play_rulemaking

GOLDEN = Path(__file__).parent / "data" / "report_golden.json"
UPDATE = os.environ.get("NEGOTIATION_ENV_UPDATE_GOLDEN") == "1"


def fixed_run() -> list[dict]:
    """Resource games reaching every resource table (talk and no-talk, both partner
    stabilities, two M/C levels, a transparency and a theory-of-mind arm, one arm game
    with no matched baseline, a fallback round, token usage; judge labels on four of
    them), rulemaking runs with a Ledger contrast, and matrix dyads with and without talk."""
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


def judge_labels(traces: list[dict]) -> dict[str, dict]:
    """Judge labels of four resource games (two oracle pairs, two greedy x fair splitter):
    agreement abandonment in round 1, domain specialization in the last round, a threat by
    agent_a in round 1."""
    tax = load_taxonomy()
    core = [x["id"] for x in tax["core_labels"]]
    aux = [x["id"] for x in tax["auxiliary_tags"]]
    out = {}
    for t in traces[2:6]:
        n = len(t["rounds"])
        on = {(1, "agreement_abandonment"), (n, "domain_specialization")}
        answer = {"rounds": [{"round_number": k, "core_labels": {c: (k, c) in on for c in core},
                              "auxiliary_tags": {a: {"present": (k, a) == (1, "threatening_language"),
                                                     "agents": ["agent_a"] if (k, a) == (1, "threatening_language")
                                                     else []} for a in aux}}
                             for k in range(1, n + 1)]}
        out[t["game_id"]] = {"status": "ok", "rounds": validate_labels(answer, n)[0]}
    return out


def digests(out: Path) -> dict[str, dict[str, str]]:
    """Each table's (and report.md's) file digests, by name."""
    tr = fixed_run()
    labels = judge_labels(tr)
    found: dict[str, dict[str, str]] = {}
    for fallbacks in (False, True):
        d = out / str(fallbacks)
        build_report(tr, d, plots=False, include_fallbacks=fallbacks, n_resamples=50, labels=labels)
        for p in sorted(d.iterdir()):
            key = f"{'with' if fallbacks else 'without'} fallbacks/{p.stem}"
            found.setdefault(key, {})[p.suffix.lstrip(".")] = hashlib.sha256(p.read_bytes()).hexdigest()
    return found


def test_every_report_table_is_byte_identical_to_the_golden_digests(tmp_path):
    found = digests(tmp_path)
    if UPDATE:
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(found) == sorted(golden)
    assert {k: v for k, v in found.items() if v != golden[k]} == {}

