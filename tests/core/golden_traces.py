"""Golden traces of a fixed small cohort: what every step of the envs returns.

The cohort (:data:`CASES`) plays the three games with scripted policies over a few
seeds, through the AEC env, the parallel env and the numeric view (AEC and parallel),
and through paths a plain game never takes: invalid answers mixed in by a seeded
:class:`Spoiler` (validation errors, retries, forfeits, fallbacks), text output,
reflection, shifting partners, rotation, no talk, the rulemaking conditions with a
private notebook and the digest, the matrix retry mode.

Every step is recorded as it would be read: for the AEC env ``last()`` first (the
selected agent's observation, cumulative reward, termination, truncation and info),
then the action, then after the step every live agent's observation and the env's
``rewards``, ``_cumulative_rewards``, ``terminations``, ``truncations`` and ``infos``;
for the parallel env the five dicts ``reset`` and ``step`` return. Each record field is
turned into canonical JSON (:func:`canonical`: types kept apart, so a tuple that became
a list or an int that became a float is a difference; dict key order kept) and the
golden file keeps a SHA-256 prefix of each field of each step, so the file stays small
and a mismatch names the case, the step and the field.

    python -m tests.core.golden_traces --write    # regenerate tests/core/golden/env_traces.json
    python -m tests.core.golden_traces --dump DIR # every case's canonical records, one JSON line a step

Regenerate only on purpose: a changed golden file means some env returns something else.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

GOLDEN = Path(__file__).with_name("golden") / "env_traces.json"
#: fields of a step record, in the order their digests are stored
FIELDS = ("agent", "last", "action", "observations", "rewards", "cumulative", "terminations", "truncations", "infos")
DIGEST_CHARS = 16


# --------------------------------------------------------------------------- canonical JSON


def _canon(x: Any) -> Any:
    if x is None or isinstance(x, (bool, str)):
        return x
    if type(x) is int or type(x) is float:
        return x
    if isinstance(x, np.ndarray):
        return {"__ndarray__": [str(x.dtype), list(x.shape), x.tolist()]}
    if isinstance(x, np.generic):
        return {"__np__": [str(x.dtype), x.item()]}
    if isinstance(x, tuple):
        return {"__tuple__": [_canon(v) for v in x]}
    if isinstance(x, list):
        return [_canon(v) for v in x]
    if isinstance(x, dict):
        items = list(x.items())  # a dict subclass is read as its items, the way consumers read it
        if all(isinstance(k, str) for k in x):
            out = {k: _canon(v) for k, v in items}
            return {"__dict__": out} if "__tuple__" in out or "__ndarray__" in out or "__np__" in out else out
        return {"__pairs__": [[_canon(k), _canon(v)] for k, v in items]}
    if isinstance(x, (set, frozenset)):
        return {"__set__": sorted(_canon(v) for v in x)}
    raise TypeError(f"no canonical form for {type(x).__name__}: {x!r}")


def canonical(x: Any) -> str:
    """``x`` as canonical JSON text (see the module docstring)."""
    return json.dumps(_canon(x), ensure_ascii=False, separators=(",", ":"), allow_nan=True)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


# --------------------------------------------------------------------------- policies


class Spoiler:
    """Passes a policy's actions through, except that with probability ``rate`` (drawn
    from its own seeded generator) it answers ``junk`` instead: text no game accepts."""

    def __init__(self, act: Callable[[Any], Any], rate: float, seed: int, junk: str = "no idea, sorry"):
        self.act, self.rate, self.junk = act, rate, junk
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: Any) -> Any:
        action = self.act(obs)
        if self.rate and self.rng.random() < self.rate:
            return self.junk
        return action


def _scripted(game: str, name: str, seed: int, output: str):
    if game == "resource":
        from baselines.scripted import make
    elif game == "matrix":
        from baselines.scripted.matrix import make
    else:
        from baselines.scripted.rulemaking import make
    return make(name, seed=seed, output=output).act


@dataclass(frozen=True)
class Case:
    id: str
    game: str
    api: str  # "aec", "parallel", "numeric_aec", "numeric_parallel"
    config: dict[str, Any] = field(default_factory=dict)
    policies: tuple[str, ...] = ()  # one per seat, cycled (scripted envs)
    output: str = "structured"
    seeds: tuple[int, ...] = (0,)
    invalid: float = 0.0  # share of answers replaced by junk text
    numeric_infos: str = "full"
    refuse: float = 0.0  # numeric view: share of indices drawn outside the mask


CASES: tuple[Case, ...] = (
    # resource
    Case("resource-aec-oracle-linear", "resource", "aec", {"num_rounds": 2}, ("oracle", "linear"), seeds=(0, 1)),
    Case("resource-aec-text-shifting-rotating-reflection", "resource", "aec",
         {"num_rounds": 3, "partner": "shifting", "rotation": "rotating", "reflection": True},
         ("greedy", "random"), output="text", seeds=(2,), invalid=0.15),
    Case("resource-aec-notalk-thinking-off", "resource", "aec",
         {"num_rounds": 3, "cheap_talk": False, "thinking": False, "theme": None, "max_retries": 1},
         ("reciprocator", "fair_splitter"), output="text", seeds=(3, 13), invalid=0.4),
    Case("resource-aec-unlimited-cap-fallback", "resource", "aec",
         {"num_rounds": 2, "cheap_talk_turns": 0, "max_talk_turns": 3, "max_retries": 1,
          "fallback": "individual_optimum", "transparency": "full", "theme_scope": "game"},
         ("boulware", "anchorer"), seeds=(4, 14), invalid=0.45),
    Case("resource-parallel-linear-reciprocator", "resource", "parallel", {"num_rounds": 2, "transparency": "joint"},
         ("linear", "reciprocator"), seeds=(5, 6), invalid=0.1),
    Case("resource-numeric-aec", "resource", "numeric_aec", {"num_rounds": 2}, seeds=(7,), refuse=0.1),
    Case("resource-numeric-parallel", "resource", "numeric_parallel", {"num_rounds": 3, "partner": "shifting"},
         seeds=(8, 9), numeric_infos="numeric"),
    # matrix
    Case("matrix-aec-tft-bernoulli", "matrix", "aec", {"num_rounds": 4}, ("tit_for_tat", "bernoulli"), seeds=(0, 1)),
    Case("matrix-aec-text-retry", "matrix", "aec",
         {"num_rounds": 4, "on_error": "retry", "max_retries": 2, "stage_game": "stag_hunt", "framing": "business"},
         ("wsls", "alternator"), output="text", seeds=(2,), invalid=0.25),
    Case("matrix-aec-none-end", "matrix", "aec", {"num_rounds": 5, "treatment": "none", "acknowledgement": False},
         ("always_a", "bernoulli"), output="text", seeds=(3, 13), invalid=0.15),
    Case("matrix-aec-one-line-continue", "matrix", "aec",
         {"num_rounds": 3, "on_error": "continue", "message_text": "one_line", "stage_game": "snowdrift"},
         ("bernoulli", "tit_for_tat"), seeds=(4,), invalid=0.2),
    Case("matrix-parallel", "matrix", "parallel", {"num_rounds": 4, "stage_game": "harmony"},
         ("bernoulli", "wsls"), seeds=(5,)),
    Case("matrix-numeric-aec", "matrix", "numeric_aec", {"num_rounds": 4}, seeds=(6,), refuse=0.1),
    Case("matrix-numeric-parallel", "matrix", "numeric_parallel", {"num_rounds": 3, "treatment": "none"}, seeds=(7,)),
    # rulemaking
    Case("rulemaking-aec-none", "rulemaking", "aec", {},
         ("conceder", "satisficer", "hardliner", "reciprocator", "noisy_conceder"), seeds=(0, 1)),
    Case("rulemaking-aec-ledger-text", "rulemaking", "aec", {"condition": "ledger", "environment": "E2", "max_retries": 1},
         ("reciprocator", "conceder", "satisficer", "hardliner", "conceder"), output="text", seeds=(2,), invalid=0.4),
    Case("rulemaking-aec-digest-notes", "rulemaking", "aec", {"condition": "digest", "early_end": "never"},
         ("hardliner", "conceder", "noisy_conceder", "satisficer", "reciprocator"), seeds=(3,), invalid=0.1),
    Case("rulemaking-aec-notebook", "rulemaking", "aec", {"condition": "notebook_state", "environment": "E3"},
         ("conceder", "hardliner"), output="text", seeds=(4,)),
    Case("rulemaking-parallel-notes", "rulemaking", "parallel", {"condition": "notes"},
         ("satisficer", "reciprocator", "conceder"), seeds=(5,), invalid=0.1),
    Case("rulemaking-numeric-aec", "rulemaking", "numeric_aec", {"max_retries": 0}, seeds=(6, 16), refuse=0.2),
    Case("rulemaking-numeric-parallel", "rulemaking", "numeric_parallel", {"condition": "ledger"}, seeds=(7,)),
)


# --------------------------------------------------------------------------- play


def _make_env(case: Case):
    import negotiation_env
    from negotiation_env.wrappers import numeric

    parallel = case.api in ("parallel", "numeric_parallel")
    env = (negotiation_env.parallel_env if parallel else negotiation_env.env)(game=case.game, **case.config)
    if case.api.startswith("numeric"):
        env = numeric(env, infos=case.numeric_infos)
    return env


def _actors(case: Case, env, seed: int) -> dict[str, Callable[[Any], Any]]:
    agents = list(env.possible_agents)
    if case.api.startswith("numeric"):
        rng = np.random.default_rng([seed, 99])

        def pick(obs):
            mask = obs["action_mask"]
            if case.refuse and rng.random() < case.refuse:
                outside = np.flatnonzero(mask == 0)
                if len(outside):
                    return int(outside[rng.integers(len(outside))])
            legal = np.flatnonzero(mask)
            return int(legal[rng.integers(len(legal))])

        return {a: pick for a in agents}
    out = {}
    for i, a in enumerate(agents):
        act = _scripted(case.game, case.policies[i % len(case.policies)], seed * 10 + i, case.output)
        out[a] = Spoiler(act, case.invalid, seed * 100 + i) if case.invalid else act
    return out


def play_aec(case: Case, seed: int) -> list[dict[str, str]]:
    env = _make_env(case)
    actors = _actors(case, env, seed)
    env.reset(seed=seed)
    records = [_record(agent="reset", observations={a: env.observe(a) for a in env.agents}, infos=env.infos,
                       rewards=env.rewards, terminations=env.terminations, truncations=env.truncations)]
    for agent in env.agent_iter(max_iter=2000):
        last = env.last()
        obs, _, term, trunc, _ = last
        action = None if term or trunc else actors[agent](obs)
        rec = _record(agent=agent, last=last, action=action)  # read now: the step moves the state on
        env.step(action)
        rec.update(_record(observations={a: env.observe(a) for a in env.agents}, rewards=env.rewards,
                           cumulative=env._cumulative_rewards, terminations=env.terminations,
                           truncations=env.truncations, infos=env.infos))
        records.append(rec)
    return records


def _record(**fields: Any) -> dict[str, str]:
    """The fields as canonical JSON, taken at once (a later step may change the objects)."""
    return {k: canonical(v) for k, v in fields.items()}


def play_parallel(case: Case, seed: int) -> list[dict[str, str]]:
    env = _make_env(case)
    actors = _actors(case, env, seed)
    obs, infos = env.reset(seed=seed)
    records = [_record(agent="reset", observations=obs, infos=infos)]
    for _ in range(2000):
        if not env.agents:
            break
        actions = {a: actors[a](obs[a]) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        records.append(_record(agent="step", action=actions, observations=obs, rewards=rewards,
                               terminations=terms, truncations=truncs, infos=infos))
    return records


def play_case(case: Case) -> list[list[str]]:
    """Per step, the canonical JSON of each of :data:`FIELDS` ("" where the step has none)."""
    play = play_parallel if case.api.endswith("parallel") else play_aec
    out = []
    for seed in case.seeds:
        for rec in play(case, seed):
            out.append([rec.get(f, "") for f in FIELDS])
    return out


def case_digests(case: Case) -> list[str]:
    """One line a step: the digest of each field, space-separated."""
    return [" ".join(digest(t) if t else "-" for t in step) for step in play_case(case)]


def record_all() -> dict[str, Any]:
    return {"fields": list(FIELDS), "cases": {c.id: case_digests(c) for c in CASES}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help=f"write {GOLDEN}")
    p.add_argument("--dump", type=Path, default=None, help="write each case's canonical records under DIR")
    p.add_argument("--out", type=Path, default=GOLDEN, help="golden file to write (with --write)")
    args = p.parse_args(argv)
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for c in CASES:
            with open(args.dump / f"{c.id}.jsonl", "w", encoding="utf-8") as f:
                for step in play_case(c):
                    f.write(json.dumps(dict(zip(FIELDS, step)), ensure_ascii=False) + "\n")
    if args.write:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record_all(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
