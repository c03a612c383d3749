"""One seat of a game as a single-agent text Gymnasium env, the other seats played by
policies given as runner specs: what the Minari datasets record, so that
``dataset.recover_environment()`` rebuilds it.

    import gymnasium as gym
    import negotiation_env.wrappers  # registers negotiation_env/TextSeat-v0

    env = gym.make("negotiation_env/TextSeat-v0", game="resource", learner="agent_b",
                   config={"num_rounds": 2}, opponents={"agent_a": {"spec": "scripted:oracle"}})
    obs, info = env.reset(seed=0)    # obs: {"features", "prompt", "system", "messages"}
    chat = json.loads(obs["messages"])  # what the model reads: tokenizer.apply_chat_template(chat)
    obs, reward, terminated, truncated, info = env.step('{"thinking": "", "speech": "Hi", "action": null}')

Spaces (those of :mod:`negotiation_env.traces.minari_export`):

* observation ``Dict({"features": Box(-inf, inf, (d,), float32), "prompt": Text,
  "system": Text, "messages": Text})``:

  - ``features``: the seat's numeric features;
  - ``prompt``: the latest env text it is asked to answer, alone (sanitized into the
    observation charset);
  - ``system``: its system prompt (the game's rules and its own private setting: the
    content of the conversation's first message when that is a system message, else
    ``""``);
  - ``messages``: the whole context the seat reads, as JSON text of a list of
    ``{"role", "content"}`` chat messages: exactly the game's ``obs["conversation"]``,
    the system message first and the pending prompt last. ``json.loads`` of it is what a
    chat model is given (``tokenizer.apply_chat_template``); ``prompt`` alone is not
    the game.

  After the game: the final features, an empty ``prompt`` and ``messages``, and the
  system prompt of the seat's last decision. ``context=False`` leaves ``system`` and
  ``messages`` out (the spaces of ``-v0`` Minari datasets:
  ``dataset.recover_environment(context=False)``);
* action ``Text``: what a model would write (or a structured action as JSON text); the
  game parses it with its own validator, so an invalid answer is re-prompted or scored
  as the game's config says, exactly as in a tournament.

``info["append_only"]``: whether this observation's context extends the one of the seat's
previous decision (its messages begin with every message of that one), so a trainer can
keep one token stream per episode while it holds and must start a new segment where it
does not. It is False where the game rebuilds the context (rulemaking renders every turn
afresh; a resource seat with a shifting partner is reset to a fresh system prompt each
round) and True at reset and after the game (nothing before, nothing new).

The reward of a step is what the seat was paid from its action up to its next one
(what the opponents' turns trigger counts too; anything paid before its first action
counts in its first step), so an episode's rewards sum to the seat's game return.

A dataset's games may differ in config (scenarios, conditions, who speaks first) and in
opponents: ``variants`` lists each distinct ``{"config", "opponents"}`` with a
``weight`` (how many recorded games had it), and every ``reset`` draws one with those
weights from the env's seeded generator (``options={"variant": k}`` picks one). The game
seed and the opponents' seeds are drawn from the same generator, so ``reset(seed=s)``
reproduces a game exactly; ``options={"variant": k, "seeds": {"env": s, "policies":
{seat: s}}}`` replays a recorded game (its trace's ``seeds``) move for move. Opponent specs are the runner's (``scripted:NAME``,
``python:MODULE:FACTORY``, ``hf:PATH``, ``openai:MODEL@URL`` with its ``options``); they
are built at the first reset, not at construction.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..core.spaces import ObsText, action_text, sanitize

__all__ = ["TextSeatEnv", "GYM_ID", "ENTRY_POINT", "TEXT_MAX", "register", "context_text"]

GYM_ID = "negotiation_env/TextSeat-v0"
ENTRY_POINT = "negotiation_env.wrappers.text_seat:TextSeatEnv"
#: longest prompt and action text of the spaces
TEXT_MAX = 1_000_000


def context_text(messages: Sequence[Mapping[str, Any]]) -> str:
    """The ``messages`` observation: chat messages as JSON text of ``{"role", "content"}``
    dicts (non-ASCII kept as is, sanitized into the observation charset)."""
    return sanitize(json.dumps([{"role": m["role"], "content": m["content"]} for m in messages], ensure_ascii=False))


def register() -> None:
    """Register :data:`GYM_ID` with Gymnasium (done on ``import negotiation_env.wrappers``)."""
    if GYM_ID not in gym.registry:
        gym.register(GYM_ID, entry_point=ENTRY_POINT)


def _variants(config, opponents, variants) -> list[dict[str, Any]]:
    if variants is None:
        if opponents is None:
            raise ValueError("give opponents ({seat: {'spec': ..., 'options': {...}}}) or variants")
        variants = [{"config": dict(config or {}), "opponents": opponents, "weight": 1}]
    elif config is not None or opponents is not None:
        raise ValueError("give either config and opponents or variants, not both")
    out = []
    for k, v in enumerate(variants):
        if not isinstance(v, Mapping) or not isinstance(v.get("opponents"), Mapping):
            raise ValueError(f"variants[{k}] must be a dict with 'config' and 'opponents'")
        opp = {}
        for seat, p in v["opponents"].items():
            p = {"spec": p} if isinstance(p, str) else p
            if not isinstance(p, Mapping) or not isinstance(p.get("spec"), str):
                raise ValueError(f"variants[{k}].opponents[{seat!r}] must be a spec string or {{'spec': ...}}")
            opp[str(seat)] = {"spec": p["spec"], "options": dict(p.get("options") or {})}
        weight = v.get("weight", 1)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight > 0:
            raise ValueError(f"variants[{k}].weight must be a positive number; got {weight!r}")
        out.append({"config": dict(v.get("config") or {}), "opponents": opp, "weight": float(weight)})
    if not out:
        raise ValueError("variants must not be empty")
    return out


class TextSeatEnv(gym.Env):
    """``learner``'s seat of ``game``, against the policies of ``opponents`` (see the
    module docstring for the spaces, rewards and ``variants``)."""

    metadata = {"render_modes": []}

    def __init__(self, game: str, learner: str, config: Mapping[str, Any] | None = None,
                 opponents: Mapping[str, Any] | None = None, *, variants: Sequence[Mapping[str, Any]] | None = None,
                 text_max: int = TEXT_MAX, context: bool = True):
        import negotiation_env

        if game not in negotiation_env.GAMES:
            raise ValueError(f"game must be one of {', '.join(negotiation_env.GAMES)}; got {game!r}")
        if not isinstance(context, bool):
            raise ValueError(f"context must be True or False; got {context!r}")
        self.game_id, self.learner, self.context = game, learner, context
        self.variants = _variants(config, opponents, variants)
        w = np.array([v["weight"] for v in self.variants])
        self._p = w / w.sum()
        probe = self._build(0)
        if learner not in probe.possible_agents:
            raise ValueError(f"learner must be one of {', '.join(probe.possible_agents)}; got {learner!r}")
        dim = None
        for k, v in enumerate(self.variants):
            env = probe if k == 0 else self._build(k)
            seats = [a for a in env.possible_agents if a != learner]
            if sorted(v["opponents"]) != sorted(seats):
                raise ValueError(f"variants[{k}].opponents must name every seat but the learner's ({', '.join(seats)}); "
                                 f"got {', '.join(v['opponents']) or 'none'}")
            d = int(np.prod(env.observation_space(learner)["features"].shape))
            if dim is not None and d != dim:
                raise ValueError(f"variants[{k}]: {d} features for {learner}, other variants have {dim}")
            dim = d
        self.feature_dim = dim
        keys = {"features": spaces.Box(-np.inf, np.inf, (dim,), np.float32), "prompt": ObsText(text_max)}
        if context:
            keys.update(system=ObsText(text_max), messages=ObsText(text_max))
        self.observation_space = spaces.Dict(keys)
        self.action_space = action_text(text_max)
        self.env = None
        self.policies: dict[str, Any] = {}
        self.variant: int | None = None
        self._opening = 0.0
        #: the messages of the seat's latest decision and its system prompt (append_only, final obs)
        self._messages: list[dict[str, str]] | None = None
        self._system = ""
        self._append_only = True
        self._factories: dict[tuple[str, str], Any] = {}

    def _build(self, k: int):
        import negotiation_env

        return negotiation_env.env(game=self.game_id, **self.variants[k]["config"])

    def _policy(self, p: Mapping[str, Any], seed: int):
        from ..runner.config import PolicyEntry
        from ..runner.policies import resolve_factory

        key = (p["spec"], repr(sorted(p["options"].items())))
        if key not in self._factories:
            self._factories[key] = resolve_factory(PolicyEntry(spec=p["spec"], options=p["options"]), self.game_id)
        return self._factories[key](seed)

    # ------------------------------------------------------------------ gym API

    def _obs(self) -> dict[str, Any]:
        env = self.env
        o = env.observe(self.learner)
        over = self._over()
        obs = {"features": np.asarray(o["features"], dtype=np.float32).reshape(self.feature_dim),
               "prompt": "" if over else sanitize(o.get("prompt") or "")}
        if over:
            self._append_only = True
            if self.context:
                obs.update(system=self._system, messages="")
            return obs
        messages = [{"role": str(m["role"]), "content": str(m["content"])} for m in o.get("conversation") or ()]
        prev = self._messages
        self._append_only = prev is None or messages[:len(prev)] == prev
        self._messages = messages
        self._system = sanitize(messages[0]["content"]) if messages and messages[0]["role"] == "system" else ""
        if self.context:
            obs.update(system=self._system, messages=context_text(messages))
        return obs

    def _over(self) -> bool:
        env = self.env
        return (not env.agents or bool(env.terminations.get(self.learner, True))
                or bool(env.truncations.get(self.learner, False)))

    def _advance(self) -> float:
        """Play the opponents until the learner acts or the game ends; the learner's pay."""
        env, reward = self.env, 0.0
        while env.agents and not self._over():
            agent = env.agent_selection
            if agent == self.learner:
                break
            if env.terminations.get(agent) or env.truncations.get(agent):
                env.step(None)
            else:
                env.step(self.policies[agent].act(env.observe(agent)))
            reward += float(env.rewards.get(self.learner, 0.0))
        return reward

    def _info(self) -> dict[str, Any]:
        # a copy: Gymnasium envs hand out fresh data, and the game's info shares its records
        return {"variant": self.variant, "agent": self.learner, "append_only": self._append_only,
                "game_info": copy.deepcopy(dict(self.env.infos.get(self.learner, {}) or {}))}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = dict(options or {})
        k = options.pop("variant", None)
        if k is None:
            k = int(self.np_random.choice(len(self.variants), p=self._p))
        elif not isinstance(k, int) or not 0 <= k < len(self.variants):
            raise ValueError(f"options['variant'] must be an int in [0, {len(self.variants)}); got {k!r}")
        self.variant = k
        self._messages, self._system, self._append_only = None, "", True
        v = self.variants[k]
        self.env = self._build(k)
        drawn = self.np_random.integers(0, 2**31 - 1, size=1 + len(v["opponents"]))
        given = options.pop("seeds", None) or {}
        env_seed = given.get("env", int(drawn[0]))
        seats = sorted(v["opponents"])
        pseeds = {seat: (given.get("policies") or {}).get(seat, int(s)) for seat, s in zip(seats, drawn[1:])}
        self.policies = {seat: self._policy(v["opponents"][seat], pseeds[seat]) for seat in seats}
        self.env.reset(seed=env_seed, options=options or None)
        self._opening = self._advance()
        return self._obs(), self._info()

    def step(self, action: str):
        if self.env is None:
            raise RuntimeError("call reset() before step()")
        if self._over():
            raise RuntimeError("step() after the game ended; call reset()")
        if self.env.agent_selection != self.learner:  # pragma: no cover - _advance stops only on the learner
            raise RuntimeError(f"it is {self.env.agent_selection}'s turn, not the learner's")
        self.env.step(action)
        reward = self._opening + float(self.env.rewards.get(self.learner, 0.0)) + self._advance()
        self._opening = 0.0
        over = self._over()
        terminated = over and bool(self.env.terminations.get(self.learner, True) or not self.env.agents)
        truncated = over and bool(self.env.truncations.get(self.learner, False))
        return self._obs(), reward, terminated, truncated, self._info()
