"""Policies and configs the runner tests name in ``python:`` policy specs."""

from __future__ import annotations

import os
import time

from baselines.scripted import make as make_scripted


class Slow:
    """The oracle, slowed down when NEGENV_TEST_SLOW is set (the crash test's subprocess),
    so that a run is long enough to be killed in the middle. Same actions either way."""

    def __init__(self, seed=None):
        self.name = "slow_oracle"
        self.seed = seed
        self._inner = make_scripted("oracle", seed=seed, output="text")
        self._delay = float(os.environ.get("NEGENV_TEST_SLOW", "0") or 0)

    def act(self, obs):
        if self._delay:
            time.sleep(self._delay)
        return self._inner.act(obs)


class Crasher:
    """Talks once, then raises."""

    def __init__(self, seed=None):
        self.seed = seed
        self.calls = 0

    def act(self, obs):
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError("policy exploded")
        return '{"thinking": "", "speech": "hello", "action": null}'


class Secretive:
    """A policy holding credentials, as an API client would."""

    def __init__(self, seed=None, api_key="", base_url=""):
        self.seed = seed
        self.api_key = api_key
        self.base_url = base_url
        self.temperature = 0.7
        self.max_tokens = 64
        self._inner = make_scripted("greedy", seed=seed, output="text")
        self.last_usage = None
        self.last_reasoning = None

    def act(self, obs):
        self.last_usage = {"prompt_tokens": len(obs["prompt"]) // 4, "completion_tokens": 5, "total_tokens": 0}
        self.last_usage["total_tokens"] = self.last_usage["prompt_tokens"] + 5
        self.last_reasoning = "private chain of thought"
        return self._inner.act(obs)


def small_config(games_per_cell: int = 2, policies=("scripted:oracle", "scripted:random"), seed: int = 3,
                 rounds: int = 2, **block) -> dict:
    return {
        "name": "test", "seed": seed,
        "games": [{
            "game": "resource", "policies": list(policies), "pairings": "all", "games_per_cell": games_per_cell,
            "swap_first_speaker": True, "config": {"num_rounds": rounds},
            "scenario_sets": {"lo": ["mc050_1"], "hi": ["mc100_1", "mc100_2"]},
            "factors": {"stability": {"stable": {"partner": "stable"}, "shifting": {"partner": "shifting"}}},
            **block,
        }],
    }


class Flaky:
    """The oracle, reporting a model call that ran out of retries on every action while
    the file ``marker`` exists (so its games are marked degraded), and clean usage once
    it is gone: a server that was down, then came back."""

    def __init__(self, seed=None, marker=""):
        self.seed = seed
        self.marker = marker
        self._inner = make_scripted("oracle", seed=seed, output="text")
        self.last_usage = None

    def act(self, obs):
        down = bool(self.marker) and os.path.exists(self.marker)
        self.last_usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
                           **({"faults": [{"kind": "connection"}], "failed": True} if down else {})}
        return self._inner.act(obs)
