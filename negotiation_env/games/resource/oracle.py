"""Oracle validation of scenarios (seed 000 §3.1): can a policy solve each agent's
allocation alone, under full information, in one attempt (pass@1)?

For each agent the policy gets the decision-phase observation of a one-round, no-talk
game (D.7 prompts) with no retry, under full information: both parties' complete
project specifications are in its system prompt (``transparency="full"``, as in §5.7)
and its Situation section says it decides alone, the other party buying nothing
(``solo=True``; the paper does not print its oracle prompt, this wording is ours). The
other agent does buy nothing, so the agent's reward is the value of its own allocation
with the whole pool available. It passes when that reward equals its individual maximum
V_i from the exact solver. Any policy that plugs into the env works: an LLM policy, a
scripted one, a person at a prompt. A scenario is a :class:`Scenario`, a shipped name
or a path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from pathlib import Path

from ...core.config import ConfigError
from .scenario import AGENTS, Scenario, ScenarioError, load_scenario
from .solver import solve

__all__ = ["OracleReport", "oracle_check", "filter_pool"]

_TOL = 1e-6


@dataclass(frozen=True)
class OracleReport:
    scenario: str
    passed: dict[str, bool]  # agent -> pass@1
    value: dict[str, float]  # agent -> reward of the policy's allocation
    individual_max: dict[str, float]
    events: dict[str, list[dict[str, Any]]]  # agent -> validation errors / fallbacks

    @property
    def pass_at_1(self) -> float:
        return sum(self.passed.values()) / len(self.passed)

    @property
    def all_passed(self) -> bool:
        return all(self.passed.values())


def _scenario(scenario: Any) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, (str, Path)):
        try:
            return load_scenario(scenario)
        except ScenarioError as e:
            raise ConfigError(f"oracle check: {e}") from None
    raise TypeError(f"scenario must be a Scenario, a shipped scenario name or a path; got {type(scenario).__name__}")


def oracle_check(scenario: Scenario | str | Path, policy: Any, *, theme: str | None = "medieval", seed: int = 0,
                 transparency: str = "full", **config: Any) -> OracleReport:
    """Ask ``policy`` (``act(observation) -> action``) for each agent's allocation alone,
    with full information (``transparency``; ``"none"`` shows only the agent's own
    projects). ``config``: further resource config fields (e.g. ``thinking=False``)."""
    from ... import env as make_env  # local: the env factory sits above this layer

    if not hasattr(policy, "act"):
        raise TypeError("policy must have an act(observation) method")
    scenario = _scenario(scenario)
    sol = solve(scenario)
    passed, value, events = {}, {}, {}
    for agent in AGENTS:
        env = make_env(game="resource", scenario=scenario, num_rounds=1, cheap_talk=False, max_retries=0,
                       fallback="zero", theme=theme, first_speaker=agent, transparency=transparency, solo=True,
                       **config)
        env.reset(seed=seed)
        evs: list[dict[str, Any]] = []
        for a in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if a == agent:
                env.step(policy.act(obs))
                evs.extend(env.infos[agent]["events"])
            else:
                env.step({"message": "", "decide": 1})  # the absent partner buys nothing
        game = env.unwrapped.game
        reward = game.round_outcome(0)["rewards"][agent]
        value[agent] = reward
        passed[agent] = reward >= sol.individual_max[agent] - _TOL and agent not in game.round_outcome(0)["fallback_agents"]
        events[agent] = evs
    return OracleReport(scenario.name, passed, value, dict(sol.individual_max), events)


def filter_pool(scenarios: Iterable[Scenario | str | Path], policies: Iterable[Any], **kwargs: Any) -> list[Scenario]:
    """The scenarios every policy solves individually (pass@1 for both agents)."""
    policies = list(policies)
    pool = [_scenario(sc) for sc in scenarios]
    return [sc for sc in pool if all(oracle_check(sc, p, **kwargs).all_passed for p in policies)]
