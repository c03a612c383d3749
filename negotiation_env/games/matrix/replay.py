"""Replaying a recorded action decision with a substituted current block (seed 002
Experiments 1 and 2; Appendix B.1, C.1, F.7), so a model policy can score P(A) along a
fixed history.

    from negotiation_env.games.matrix import decision_keys, replay_observation

    for agent, rnd in decision_keys(trace):                 # every resolved decision
        for condition in ("no_message", "partner_message", "A/MB", "B/SP"):
            obs = replay_observation(trace, agent, rnd, condition)
            p_a = score(obs["conversation"])                # P(A) by the scoring policy

``replay_observation(source, agent, round, condition, texts=ReplayTexts())`` returns an
observation dict like the env's: ``"conversation"`` (tuple of ``{"role", "content"}``,
ending with the user prompt to answer), ``"prompt"`` (that last user message),
``"active"`` (1) and ``"replay"`` (agent, round, condition, the realized actions and
messages of the round). ``source`` is a trace (a :class:`~negotiation_env.traces.GameTrace`
or its dict, as read from a trace file), a :class:`~.game.MatrixGame`, or an env made
by ``negotiation_env.env(game="matrix")`` / ``parallel_env``. The round must have been
resolved. Replays never regenerate the trajectory: everything before the current round
is the realized history, exactly as the agent saw it (from the trace's recorded
context deltas; a trace recorded without context is replayed through a fresh game).

Conditions (:data:`REPLAY_CONDITIONS`):

* ``pre_action``: the unmodified action prompt with the actual conversation (the
  paper's natural-policy reference pass).
* Experiment 1 (Table S6, :data:`EXPERIMENT_1`): ``partner_message`` (the endogenous
  partner text as "Message received from counterpart: Agent j: ..."),
  ``own_as_partner`` (the focal agent's own text in that block), ``partner_as_own_public``
  (the partner's text shown as a public message the focal agent sent earlier),
  ``own_public`` (the focal agent's own message, as sent), ``dummy`` ("Extra unrelated
  text shown before the action phase:" and the fixed dummy string), ``partner_dummy``
  (the dummy string in the partner block), ``no_message`` (the block deleted).
* Experiment 2 (Table S8, :data:`EXPERIMENT_2`): ``"A/MB"``, ``"A/SP"``, ``"B/MB"``,
  ``"B/SP"``: the latest outcome summary is replaced by the synthetic "Round t-1
  complete. ... You chose A, they chose X" (no score fields; "Round 0" at round 1) and
  the partner block carries the standardized mutual-benefit or self-prioritizing message.

Layout of the current round (ours; the paper names the blocks but not how the turn is
assembled). In every condition except ``pre_action`` the round's messaging exchange is
taken out and the decision is one user message: the round's prefix ("The interaction
begins." or the previous round's result; the synthetic block in Experiment 2), a blank
line, the current block, a blank line, the action instruction (``no_message``: the
prefix and the instruction, which is the no-communication treatment's prompt). The two
``*_public`` conditions instead keep the shape of the real exchange: the messaging
prompt, the text as the focal agent's own assistant turn (its speaker role), then the
action instruction alone. Endogenous text is shown as the game showed messages
(``message_text`` of the config). The dummy, mutual-benefit and self-prioritizing texts
are the paper's and can be replaced through :class:`ReplayTexts`.

:func:`replay_decisions` replays every decision of a set of traces under a list of
conditions and scores each with any policy that has ``action_probs_batch`` (the HF and
API policies of ``baselines.llm``), in batches: the rows the matrix experiments read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

import numpy as np

from ...core.config import build_config
from ...core.jsontext import loads_document
from ...core.spaces import sanitize
from . import prompts
from .game import AGENTS, MatrixConfig, MatrixGame

__all__ = ["EXPERIMENT_1", "EXPERIMENT_2", "NATURAL", "REPLAY_CONDITIONS", "ReplayTexts", "decision_keys",
           "replay_observation", "replay_decisions", "ReplayError"]

NATURAL = "pre_action"
EXPERIMENT_1 = ("partner_message", "own_as_partner", "partner_as_own_public", "own_public", "dummy",
                "partner_dummy", "no_message")
EXPERIMENT_2 = ("A/MB", "A/SP", "B/MB", "B/SP")
REPLAY_CONDITIONS = (NATURAL,) + EXPERIMENT_1 + EXPERIMENT_2
#: conditions that show a message written in the dyad (communication treatment only)
_ENDOGENOUS = ("partner_message", "own_as_partner", "partner_as_own_public", "own_public")


class ReplayError(ValueError):
    """The decision cannot be replayed (unknown condition, unresolved round, ...)."""


@dataclass(frozen=True)
class ReplayTexts:
    """The fixed texts of the replay conditions (defaults: the paper's, exactly)."""

    dummy: str = prompts.DUMMY_TEXT
    mutual_benefit: str = prompts.MUTUAL_BENEFIT
    self_priority: str = prompts.SELF_PRIORITY


@dataclass(frozen=True)
class _Decision:
    agent: str
    round: int
    config: MatrixConfig
    history: list[dict[str, str]]  # through round - 1
    natural: list[dict[str, str]]  # what the final answer to the action prompt replied to
    outcome: Mapping[str, Any]  # the round's outcome
    previous: Mapping[str, Any] | None  # the previous round's outcome


def _msg(role: str, content: str) -> dict[str, str]:
    return {"role": role, "content": sanitize(content)}


# --------------------------------------------------------------------------- sources


def _game_of(source: Any) -> MatrixGame | None:
    if isinstance(source, MatrixGame):
        return source
    game = getattr(getattr(source, "unwrapped", None), "game", None)
    return game if isinstance(game, MatrixGame) else None


def _trace_dict(source: Any) -> dict[str, Any]:
    if isinstance(source, Mapping):
        return dict(source)
    to_dict = getattr(source, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise ReplayError(f"source must be a matrix trace (dict or GameTrace), a MatrixGame or a matrix env; "
                      f"got {type(source).__name__}")


def _config_of(trace: Mapping[str, Any]) -> MatrixConfig:
    if trace.get("game") != "matrix":
        raise ReplayError(f"trace {trace.get('game_id')!r} is of game {trace.get('game')!r}, not 'matrix'")
    return build_config(MatrixConfig, dict(trace.get("config") or {}))


def _resimulate(trace: Mapping[str, Any], config: MatrixConfig) -> MatrixGame:
    """A fresh game fed the trace's recorded actions, in order (the game draws nothing
    at random, so it reaches the recorded state)."""
    game = MatrixGame(config)
    game.reset(np.random.default_rng(0))
    for i, s in enumerate(trace.get("steps") or []):
        action = s["action"] if s.get("action_type", "text") == "text" else loads_document(s["action"])
        if s["agent"] not in game.acting() or s.get("phase", game.phase) != game.phase:
            raise ReplayError(f"trace {trace.get('game_id')!r} step {i}: {s['agent']} does not act at this point of "
                              "the replayed game (a step is missing, or another version of the game made the trace)")
        game.step(s["agent"], action)
    recorded = [r["actions"] for r in _outcomes(trace)]
    if [o["actions"] for o in game.outcomes] != recorded:
        raise ReplayError(f"trace {trace.get('game_id')!r}: replaying its actions does not reproduce its rounds "
                          "(another version of the game made the trace?)")
    return game


def _outcomes(trace: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [r["outcome"] for r in sorted(trace.get("rounds") or [], key=lambda r: r["round"])]


def _from_trace(trace: Mapping[str, Any], agent: str, rnd: int) -> _Decision:
    config = _config_of(trace)
    outcomes = _outcomes(trace)
    steps = [s for s in trace.get("steps") or [] if s.get("agent") == agent]
    if any(s.get("context") is None for s in steps):
        game = _resimulate(trace, config)
        return _from_game(game, agent, rnd, config)
    conv: list[dict[str, str]] = []
    history = natural = None
    for s in steps:
        if s.get("context_reset"):
            conv = []
        conv = conv + [{"role": m["role"], "content": m["content"]} for m in s["context"]]
        if s.get("round") == rnd and s.get("phase") in ("message", "action") and history is None:
            history = conv[:-1]
        if s.get("round") == rnd and s.get("phase") == "action":
            natural = list(conv)
    if history is None or natural is None:
        raise ReplayError(f"trace {trace.get('game_id')!r} has no action decision of {agent} in round {rnd}")
    return _Decision(agent, rnd, config, history, natural, outcomes[rnd - 1], outcomes[rnd - 2] if rnd > 1 else None)


def _from_game(game: MatrixGame, agent: str, rnd: int, config: MatrixConfig | None = None) -> _Decision:
    return _Decision(agent, rnd, config or game.config, game.history_before(agent, rnd),
                     game.decision_context(agent, rnd, "action"), game.outcomes[rnd - 1],
                     game.outcomes[rnd - 2] if rnd > 1 else None)


def _resolved(source: Any) -> tuple[MatrixGame | None, dict[str, Any] | None, int]:
    game = _game_of(source)
    if game is not None:
        return game, None, len(game.outcomes)
    trace = _trace_dict(source)
    _config_of(trace)
    return None, trace, len(trace.get("rounds") or [])


def decision_keys(source: Any) -> list[tuple[str, int]]:
    """``(agent, round)`` of every resolved action decision, round by round in seat order."""
    _, _, n = _resolved(source)
    return [(a, r) for r in range(1, n + 1) for a in AGENTS]


# --------------------------------------------------------------------------- composing


def _prefix(d: _Decision) -> str | None:
    """The round's opening: None at round 1 ("The interaction begins."), else the previous result."""
    if d.previous is None:
        return None
    p, b = d.previous, AGENTS[1 - AGENTS.index(d.agent)]
    j = d.config.agent_names[AGENTS.index(b)]
    return prompts.render_result(int(p["round"]), j, p["actions"][d.agent], p["actions"][b], int(p["payoffs"][d.agent]),
                                 int(p["cumulative"][d.agent]))


def _compose(d: _Decision, condition: str, texts: ReplayTexts) -> list[dict[str, str]]:
    if condition == NATURAL:
        return list(d.natural)
    cfg = d.config
    b = AGENTS[1 - AGENTS.index(d.agent)]
    j = cfg.agent_names[AGENTS.index(b)]
    messages = d.outcome.get("messages") or {}
    if condition in _ENDOGENOUS and not messages:
        raise ReplayError(f"condition {condition!r} shows the dyad's own messages; this dyad was played without "
                          "communication (treatment 'none')")

    def shown(text: str) -> str:
        return prompts.one_line(text) if cfg.message_text == "one_line" else text

    def single(block: str | None, prefix: str | None) -> list[dict[str, str]]:
        body = prompts.ACTION_PROMPT if block is None else f"{block}\n\n{prompts.ACTION_PROMPT}"
        return d.history + [_msg("user", prompts.render_round_prompt(prefix, body))]

    def public(text: str) -> list[dict[str, str]]:
        return d.history + [_msg("user", prompts.render_round_prompt(_prefix(d), prompts.MESSAGE_PROMPT)),
                            _msg("assistant", text), _msg("user", prompts.ACTION_PROMPT)]

    own, partner = messages.get(d.agent), messages.get(b)
    if condition == "partner_message":
        return single(prompts.render_received(j, shown(partner)), _prefix(d))
    if condition == "own_as_partner":
        return single(prompts.render_received(j, shown(own)), _prefix(d))
    if condition == "partner_as_own_public":
        return public(partner)
    if condition == "own_public":
        return public(own)
    if condition == "dummy":
        return single(prompts.DUMMY_BLOCK.format(text=texts.dummy), _prefix(d))
    if condition == "partner_dummy":
        return single(prompts.render_received(j, texts.dummy), _prefix(d))
    if condition == "no_message":
        return single(None, _prefix(d))
    history_action, kind = condition.split("/")
    synthetic = prompts.SYNTHETIC_RESULT.format(round=d.round - 1, j=j, other=history_action)
    text = texts.mutual_benefit if kind == "MB" else texts.self_priority
    return single(prompts.render_received(j, text), synthetic)


def replay_observation(source: Any, agent: str, round: int, condition: str,  # noqa: A002 - the paper's word
                       texts: ReplayTexts = ReplayTexts()) -> dict[str, Any]:
    """The observation of ``agent``'s action decision in ``round`` (1-based) under
    ``condition`` (see the module docstring). Raises :class:`ReplayError` naming the
    problem: unknown condition or agent, an unresolved round, a message condition on a
    dyad without communication."""
    if condition not in REPLAY_CONDITIONS:
        raise ReplayError(f"unknown replay condition {condition!r}; one of {', '.join(REPLAY_CONDITIONS)}")
    if agent not in AGENTS:
        raise ReplayError(f"unknown agent {agent!r}; one of {', '.join(AGENTS)}")
    game, trace, n = _resolved(source)
    if isinstance(round, bool) or not isinstance(round, (int, np.integer)) or not 1 <= int(round) <= n:
        raise ReplayError(f"round must be a resolved round, 1 to {n}; got {round!r}")
    rnd = int(round)
    d = _from_game(game, agent, rnd) if game is not None else _from_trace(trace, agent, rnd)  # type: ignore[arg-type]
    conv = _compose(d, condition, texts)
    b = AGENTS[1 - AGENTS.index(agent)]
    messages = d.outcome.get("messages") or {}
    return {
        "prompt": conv[-1]["content"],
        "conversation": tuple(conv),
        "active": 1,
        "replay": {
            "agent": agent, "round": rnd, "condition": condition,
            "own_action": d.outcome["actions"][agent], "partner_action": d.outcome["actions"][b],
            "own_message": messages.get(agent), "partner_message": messages.get(b),
            "game_id": None if trace is None else trace.get("game_id"),
        },
    }


def _as_dict(trace: Any) -> dict[str, Any]:
    return trace if isinstance(trace, Mapping) else trace.to_dict()


def _strata(trace: Mapping[str, Any], agent: str) -> dict[str, Any]:
    cfg = trace.get("config") or {}
    pol = (trace.get("policies") or {}).get(agent) or {}
    return {"stage_game": cfg.get("stage_game"), "framing": cfg.get("framing"), "treatment": cfg.get("treatment"),
            "policy": pol.get("label") or pol.get("spec") or pol.get("name")}


def replay_decisions(traces: Iterable[Any], policy: Any, conditions: Sequence[str] = (NATURAL,) + EXPERIMENT_1
                     + EXPERIMENT_2, *, choices: Sequence[str] = ("A", "B"), batch_size: int = 64,
                     texts: ReplayTexts = ReplayTexts(), agents: Sequence[str] | None = None,
                     temperature: Any = None) -> Iterator[dict[str, Any]]:
    """One row per (decision, condition) of every complete matrix trace: ``game_id``,
    ``agent``, ``round``, ``condition``, ``p_a`` (the renormalised P of the first
    choice), ``censored``, ``interval``, ``margin`` (A-B log-probability margin, None if
    censored), ``own_action`` / ``partner_action`` realized in that round, and the
    strata ``stage_game``, ``framing``, ``treatment``, ``policy`` (the focal seat's
    label). Message conditions are skipped for dyads played without communication;
    traces of other games or not complete are skipped. Decisions are scored
    ``batch_size`` at a time through ``policy.action_probs_batch``; ``temperature``
    (HF policies: ``"policy"`` or a number, see ``baselines.llm.hf.HFPolicy.action_probs``) is passed to
    it when given, else the policy's default (T = 1, as the paper's Ollama replay)."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be an integer >= 1; got {batch_size!r}")
    pending: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def flush() -> Iterator[dict[str, Any]]:
        kw = {} if temperature is None else {"temperature": temperature}
        probs = policy.action_probs_batch([o for o, _ in pending], tuple(choices), **kw)
        for (_, row), p in zip(pending, probs):
            row.update(p_a=p.p, censored=p.censored, interval=list(p.interval) if p.interval else None,
                       margin=p.margin)
            yield row
        pending.clear()

    for tr in traces:
        t = _as_dict(tr)
        if t.get("game") != "matrix" or t.get("status") != "complete":
            continue
        talk = (t.get("config") or {}).get("treatment", "communication") == "communication"
        for agent, rnd in decision_keys(t):
            if agents is not None and agent not in agents:
                continue
            for cond in conditions:
                if cond in _ENDOGENOUS and not talk:
                    continue
                obs = replay_observation(t, agent, rnd, cond, texts)
                info = obs["replay"]
                row = {"game_id": t.get("game_id"), "agent": agent, "round": rnd, "condition": cond,
                       "own_action": info["own_action"], "partner_action": info["partner_action"],
                       **_strata(t, agent)}
                pending.append((obs, row))
                if len(pending) >= batch_size:
                    yield from flush()
    if pending:
        yield from flush()
