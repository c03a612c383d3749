"""What a pool worker loads and when a game counts: the fork server imports the runner once
(workers start with it), playing and summarising a game needs no statistics stack, and the
observer hears of a game only once its line is on disk."""

from __future__ import annotations

import json
import subprocess
import sys

from negotiation_env.runner import RunObserver, make_plan, parse_config, run

from .helpers import small_config


def _python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_a_game_and_its_summary_need_no_statistics_stack():
    code = """
import json, sys
from negotiation_env.runner.engine import _play_encoded
from negotiation_env.runner import make_plan, parse_config
from tests.runner.helpers import small_config
line, g = _play_encoded(make_plan(parse_config(small_config())).specs[0])
assert g["measures"]["games"] == 1
print(json.dumps(sorted(m for m in ("pandas", "statsmodels", "scipy.stats", "negotiation_env.analysis.report")
                        if m in sys.modules)))
"""
    assert json.loads(_python(code)) == []


def test_pool_workers_start_with_the_runner_imported():
    # the task is a builtin, so running it imports nothing: what it sees was preloaded
    code = """
from concurrent.futures import ProcessPoolExecutor
from negotiation_env.runner.engine import _mp_context
ctx = _mp_context()
with ProcessPoolExecutor(1, mp_context=ctx) as ex:
    seen = ex.submit(eval, "'negotiation_env.runner.engine' in __import__('sys').modules").result()
print(ctx.get_start_method(), seen)
"""
    method, seen = _python(code).split()
    assert seen == "True" or method != "forkserver"


class _OnDisk(RunObserver):
    """Reads the trace file at every game it is told of."""

    def __init__(self, path):
        self.path, self.seen, self.missing = path, 0, []

    def on_game(self, game, summary):
        self.seen += 1
        keys = {json.loads(line)["run"]["game_key"] for line in self.path.read_bytes().splitlines()}
        if game["key"] not in keys:
            self.missing.append(game["key"])


def test_a_game_counts_only_once_its_line_is_in_the_file(tmp_path):
    out = tmp_path / "run"
    obs = _OnDisk(out / "traces.jsonl")
    summary = run(small_config(), out, workers=2, observer=obs)
    plan = make_plan(parse_config(small_config()))
    assert summary.played == obs.seen == len(plan) and obs.missing == []
