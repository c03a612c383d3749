"""A deterministic stand-in for a scoring model in the Experiment 1-2 tests: P(A) is a
hash of the prompt, so conditions (different prompts) get different policies without
torch. As a runner / CLI policy: ``python:tests.analysis.fake_scorer:Scorer``."""

from __future__ import annotations

import json
import math
import zlib
from types import SimpleNamespace
from typing import Any, Sequence


def p_of(observation: Any) -> float:
    """P(A) of one observation: in [0.02, 0.98], a function of its conversation only."""
    text = json.dumps(list(observation["conversation"]), sort_keys=True)
    return 0.02 + 0.96 * (zlib.crc32(text.encode("utf-8")) % 10007) / 10006


class Scorer:
    name = "fake_scorer"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.calls = 0

    def action_probs_batch(self, observations: Sequence[Any], choices: Sequence[str] = ("A", "B")) -> list:
        self.calls += 1
        out = []
        for obs in observations:
            p = p_of(obs)
            out.append(SimpleNamespace(p=p, censored=False, interval=(p, p), margin=math.log(p / (1 - p))))
        return out
