"""The numeric RL view of every game: ``numeric(env)``.

    import negotiation_env
    from negotiation_env.wrappers import numeric

    env = numeric(negotiation_env.env(game="resource"))            # AEC
    penv = numeric(negotiation_env.parallel_env(game="rulemaking")) # parallel

Every agent gets the same spaces (the convention RLlib, Tianshou and TorchRL read):

* observation ``Dict({"observation": Box(float32, (d,)), "action_mask": Box(0, 1, (n,), int8)})``
* action ``Discrete(n)``: an index into the game's menu (:mod:`.menus`)

The wrapper turns an index into the structured action the game already accepts and
hands it to the wrapped env, so the rules are never duplicated: the mask says which
entries the game accepts now, and an index outside the mask reaches the game as an
empty action, which it refuses (``validation_error`` event, retry, then the game's
fallback). Index 0, ``pass``, is the only entry while an agent's action does not
count, so a parallel env takes ``{a: policy(obs[a]) for a in env.agents}``.
``illegal_actions`` counts, per agent over the view's life, the indices it was given
outside the mask the agent observed (``reset`` keeps the counts): the check that a
library's policy respects the mask.

``infos``: ``"full"`` (default) passes the game's info dicts through unchanged;
``"numeric"`` replaces them by ``{"active": 0/1, "invalid": number of validation
errors this step}`` (float32 scalars), for libraries that turn every info entry into
a tensor (TorchRL).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.wrappers import BaseParallelWrapper, BaseWrapper, OrderEnforcingWrapper

from ..core.adapters import GameAECEnv
from .menus import OBS_HIGH, Menu, menu_for

__all__ = ["numeric", "NumericAECEnv", "NumericParallelEnv", "INFO_MODES"]

INFO_MODES = ("full", "numeric")


def numeric(env: AECEnv | ParallelEnv, *, infos: str = "full", **menu_options: Any):
    """The numeric view of a negotiation_env AEC or parallel env (see the module doc).

    ``menu_options`` go to the game's menu, e.g. ``max_options`` for ``resource``."""
    if infos not in INFO_MODES:
        raise ValueError(f"infos must be one of {', '.join(map(repr, INFO_MODES))}; got {infos!r}")
    if isinstance(env, ParallelEnv):
        return NumericParallelEnv(env, infos=infos, **menu_options)
    if isinstance(env, AECEnv):
        return NumericAECEnv(env, infos=infos, **menu_options)
    raise TypeError(f"numeric() wraps a PettingZoo AECEnv or ParallelEnv of negotiation_env; got {type(env).__name__}")


def _game_of(env) -> Any:
    game = getattr(env.unwrapped, "game", None)
    if game is None:
        raise TypeError("numeric() wraps the envs made by negotiation_env.env() / parallel_env() (no game found)")
    return game


class _Numeric:
    """What both views share: the menu, the spaces (built once), observations, infos."""

    menu: Menu
    info_mode: str

    def _setup(self, env, infos: str, menu_options: dict[str, Any]) -> None:
        self.game = _game_of(env)
        self.menu = menu_for(self.game, **menu_options)
        self.info_mode = infos
        self.metadata = dict(env.metadata, name=f"numeric_{env.metadata.get('name', 'env')}")
        n, d = self.menu.n, self.menu.size
        self._obs_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-OBS_HIGH, OBS_HIGH, shape=(d,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            })
            for a in env.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(n) for a in env.possible_agents}
        #: per agent, the indices outside its mask it was stepped with (see the module doc)
        self.illegal_actions: dict[str, int] = {a: 0 for a in env.possible_agents}

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def _observe(self, agent) -> dict[str, np.ndarray]:
        return {"observation": self.menu.observation(agent), "action_mask": self.menu.mask(agent)}

    def _index(self, agent, action) -> Any:
        """The structured action of menu index ``action``, counting it in
        :attr:`illegal_actions` when the agent's current mask leaves it out."""
        menu, index = self.menu, int(action)
        if not (0 <= index < menu.n and menu._mask(agent)[index]):
            self.illegal_actions[agent] = self.illegal_actions.get(agent, 0) + 1
        return menu.action(agent, index)

    def _info(self, agent, info: dict, acting: tuple | None = None) -> dict:
        """The view's info of ``agent`` from the wrapped env's; ``acting``: the game's
        acting agents when that info was made (default: now)."""
        if self.info_mode == "full":
            return info
        invalid = sum(1 for e in info.get("events", ()) if e.get("type") == "validation_error")
        acting = self.game.acting() if acting is None else acting
        return {"active": np.float32(agent in acting), "invalid": np.float32(invalid)}

    def _infos(self, inner: dict) -> dict:
        """The view's infos over the wrapped env's ``inner``: a new plain dict."""
        if self.info_mode == "full":
            return dict(inner)
        acting = self.game.acting()
        return {a: self._info(a, info, acting) for a, info in inner.items()}

    def action_labels(self) -> list[str]:
        """The label of every index of the menu (the menu modules and the README section
        "Training RL agents" explain them)."""
        return self.menu.describe()


class NumericAECEnv(_Numeric, BaseWrapper):
    def __init__(self, env: AECEnv, infos: str = "full", **menu_options: Any):
        BaseWrapper.__init__(self, env)
        self._setup(env, infos, menu_options)
        # What negotiation_env.env() / raw_env() return (exactly these classes, so no
        # other wrapper's overrides are skipped): last(), step() and agent_iter() then
        # read agent_selection, agents, terminations, ... from the GameAECEnv itself once
        # the env is reset, instead of through one or two levels of attribute forwarding
        # (the same objects: the order-enforcing wrapper only forwards them after reset).
        order = env if type(env) is OrderEnforcingWrapper else None
        raw = env.env if order is not None else env
        self._order: OrderEnforcingWrapper | None = order
        self._raw: GameAECEnv | None = raw if type(raw) is GameAECEnv else None

    def _direct(self) -> GameAECEnv | None:
        """The GameAECEnv to read directly (see __init__), or None (read through ``env``)."""
        raw = self._raw
        if raw is None or (self._order is not None and not self._order._has_reset):
            return None
        return raw

    @property
    def infos(self):
        return self._infos(self.env.infos)

    def last(self, observe: bool = True):
        """As AECEnv.last() reads it through this view (observation from the menu, info
        mapped), with the reward, termination, truncation and info fetched from the
        wrapped env in one call."""
        raw, order = self._raw, self._order  # (_direct, written out: this runs every step)
        if raw is not None and (order is None or order._has_reset):
            agent = raw.agent_selection
            assert agent is not None
            info = raw.info_now(agent)
            menu = self.menu
            obs = {"observation": menu.observation(agent), "action_mask": menu.mask(agent)} if observe else None
            return (obs, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                    info if self.info_mode == "full" else self._info(agent, info))
        _, reward, term, trunc, info = self.env.last(observe=False)
        agent = self.env.agent_selection
        obs = self.observe(agent) if observe else None
        return obs, reward, term, trunc, self._info(agent, info)

    def agent_iter(self, max_iter: int = 2**63):
        raw = self._direct()
        if raw is None:
            return super().agent_iter(max_iter)
        return AECIterable(raw, max_iter)  # reads raw.agents and raw.agent_selection, as through this view

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.menu.clear()
        self.env.reset(seed=seed, options=options)
        self.menu.clear()

    def observe(self, agent):
        return self._observe(agent)

    def step(self, action) -> None:
        raw, order = self._raw, self._order
        env = raw if raw is not None and (order is None or order._has_reset) else self.env
        agent = env.agent_selection
        if env.terminations.get(agent) or env.truncations.get(agent):
            self.step_game_action(None)
            return
        if action is None:
            raise ValueError(f"{agent} is live: step() needs an index of its menu, not None")
        menu = self.menu
        game_action = self._index(agent, action)
        menu.clear()  # step_game_action, written out
        self.env.step(game_action)
        menu.clear()

    def game_observation(self, agent):
        """The wrapped env's own observation (text and features), for policies that read it."""
        return self.env.observe(agent)

    def step_game_action(self, action) -> None:
        """Step the selected agent with an action of the game itself (structured or text),
        as a scripted or LLM policy playing beside a learner does."""
        self.menu.clear()
        self.env.step(action)
        self.menu.clear()


class NumericParallelEnv(_Numeric, BaseParallelWrapper):
    def __init__(self, env: ParallelEnv, infos: str = "full", **menu_options: Any):
        BaseParallelWrapper.__init__(self, env)
        self._setup(env, infos, menu_options)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.menu.clear()
        _, infos = self.env.reset(seed=seed, options=options)
        self.menu.clear()
        return {a: self._observe(a) for a in self.env.agents}, self._infos(infos)

    def step(self, actions: dict):
        # every acting agent's action is read from the same state (decisions are simultaneous)
        structured = {a: self._index(a, x) for a, x in actions.items() if x is not None}
        self.menu.clear()
        _, rewards, terms, truncs, infos = self.env.step(structured)
        self.menu.clear()
        obs = {a: self._observe(a) for a in terms}
        return obs, rewards, terms, truncs, self._infos(infos)
