"""Small trace sets made by playing the real games with scripted policies through the
recorder (shared by the report, viewer and judge tests)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

import negotiation_env
from baselines.scripted import make
from baselines.scripted.rulemaking import make_rulemaking
from negotiation_env.traces import TraceWriter, record


_ROUND = re.compile(r"\(Round (\d+)/\d+\)")


class Garbage:
    """A scripted policy (``inner``) that answers garbage in the rounds ``bad`` (every
    prompt of them, retries included), so the env forfeits its talk turns and falls back
    on its decision there: a model that stopped answering. As a runner policy:
    ``python:tests.analysis.tracesets:Garbage`` with options ``inner`` and ``bad``."""

    def __init__(self, seed=None, inner: str = "oracle", bad=(2,)):
        self.seed = seed
        self.name = f"garbage[{inner}]"
        self.bad = {int(k) for k in bad}
        self._inner = make(inner, seed=seed, output="text")

    def act(self, obs):
        text = "\n".join(str(m.get("content", "")) for m in obs.get("conversation") or []) + str(obs.get("prompt", ""))
        seen = _ROUND.findall(text)
        if seen and int(seen[-1]) in self.bad:
            return "zzz not json at all"
        return self._inner.act(obs)


class Metered:
    """A scripted policy that reports fixed token usage per call, as an API model would:
    100 prompt tokens, 40 completion tokens of which 30 thinking (``reasoning``)."""

    def __init__(self, seed=None, inner: str = "oracle", reasoning: int | None = 30):
        self.seed = seed
        self.name = f"metered[{inner}]"
        self._inner = make(inner, seed=seed, output="text")
        self._reasoning = reasoning
        self.last_usage = None

    def act(self, obs):
        self.last_usage = {"prompt_tokens": 100, "completion_tokens": 40, "reasoning_tokens": self._reasoning,
                           "total_tokens": 140}
        return self._inner.act(obs)


def play_resource(a, b, *, seed: int = 0, rounds: int = 4, scenario: str = "mc080_1",
                  writer: TraceWriter | None = None, game_id: str | None = None, **config) -> dict:
    """One recorded resource game between policies ``a`` and ``b``: scripted names (text
    output) or policy objects."""
    pol = {"agent_a": make(a, seed=seed, output="text") if isinstance(a, str) else a,
           "agent_b": make(b, seed=seed + 1, output="text") if isinstance(b, str) else b}
    a, b = (x if isinstance(x, str) else x.name for x in (a, b))
    env = record(negotiation_env.env(game="resource", scenario=scenario, num_rounds=rounds, **config),
                 policies=pol, writer=writer, keep=True)
    env.prepare(game_id=game_id or f"resource:{a}+{b}:{scenario}:{seed}"
                + "".join(f":{k}={v}" for k, v in sorted(config.items())))
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env.last_trace.to_dict()


def play_rulemaking(names: Iterable[str] | str, *, seed: int = 0, environment: str = "E1", condition: str = "none",
                    writer: TraceWriter | None = None, game_id: str | None = None, **config) -> dict:
    """One recorded rulemaking run; ``names`` is one policy for every seat or one per seat."""
    env = record(negotiation_env.env(game="rulemaking", environment=environment, condition=condition, **config),
                 writer=writer, keep=True)
    agents = env.unwrapped.possible_agents
    names = [names] * len(agents) if isinstance(names, str) else list(names)
    pol = {a: make_rulemaking(n, seed=seed + i, output="text") for i, (a, n) in enumerate(zip(agents, names))}
    env.set_policies(pol)
    env.prepare(game_id=game_id or f"rulemaking:{'+'.join(names)}:{environment}:{condition}:{seed}")
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env.last_trace.to_dict()


def play_matrix_env(p0, p1, *, seed: int = 0, **config):
    """One matrix dyad between policies ``p0`` (agent_0) and ``p1`` (agent_1) under the
    recorder; returns the env (``.unwrapped.game``, ``.last_trace``)."""
    pol = {"agent_0": p0, "agent_1": p1}
    env = record(negotiation_env.env(game="matrix", **config), policies=pol, keep=True)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        env.step(None if term or trunc else pol[agent].act(obs))
    return env


def resource_cohort(path: Path | None = None) -> list[dict]:
    """A small resource cohort: 3 pairings x 2 M/C levels x stable/shifting with talk,
    plus no-talk self-play games; written to ``path`` (a .jsonl) when given."""
    writer = TraceWriter(path) if path is not None else None
    out = []
    try:
        seed = 0
        for a, b in (("oracle", "oracle"), ("greedy", "greedy"), ("oracle", "fair_splitter")):
            for scenario in ("mc050_1", "mc100_1"):
                for partner in ("stable", "shifting"):
                    out.append(play_resource(a, b, seed=seed, scenario=scenario, partner=partner, writer=writer))
                    seed += 1
        for a in ("oracle", "greedy"):
            for scenario in ("mc050_1", "mc100_1"):
                out.append(play_resource(a, a, seed=seed, scenario=scenario, cheap_talk=False, writer=writer))
                seed += 1
    finally:
        if writer is not None:
            writer.close()
    return out


def rulemaking_cohort(path: Path | None = None, runs: int = 3) -> list[dict]:
    """conceder and hardliner families in E1 and E2, condition none (``runs`` each)."""
    writer = TraceWriter(path) if path is not None else None
    out = []
    try:
        for fam in ("conceder", "hardliner"):
            for env_id in ("E1", "E2"):
                for r in range(runs):
                    out.append(play_rulemaking(fam, seed=r, environment=env_id, writer=writer))
    finally:
        if writer is not None:
            writer.close()
    return out
