"""Generic PettingZoo adapters over :class:`~negotiation_env.core.game.Game`.

``GameAECEnv`` asks the game's acting agents one at a time. ``GameParallelEnv`` takes a
dict with an action for every live agent, applies the actions of the agents the game is
waiting for (in the game's order) and ignores the others: in alternating talk only the
speaker's action counts, in a simultaneous decision every undecided agent's does. A
missing action for an agent whose turn it is, or an action for an agent the env does not
have, is a ``ValueError`` naming the agents, as is ``observe``, ``observation_space`` or
``action_space`` of an unknown agent (both adapters have ``observe``). Each
agent's ``info`` says whose action counts next: ``active_agents`` (list) and
``active_agent`` (the single acting agent, or None while several act at once), and the
observation carries the same flag, so the plain loop
``actions = {a: policy(obs[a]) for a in env.agents}`` plays complete games.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Callable

import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from .game import NO_REWARDS, Game
from .visible import shown

__all__ = ["GameAECEnv", "GameParallelEnv"]

RENDER_MODES = ("human", "ansi")


def _check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi'; got {mode!r}")


def _infos(game: Game, agents: list[str]) -> dict:
    """Every agent's info at the game's current state, as a plain dict of new dicts."""
    return game.full_infos(agents)


class _GameEnvBase:
    """What both adapters share: seeding and rendering.

    Seeding: a new Generator when a seed is given, otherwise the env's own stream
    continues (never Python's or numpy's global state).

    Rendering: ``"ansi"`` returns the whole transcript so far; ``"human"`` prints only
    the lines added since the last print (at reset and after every step), so a game's
    printed output is its final transcript once, not the transcript again at every step."""

    _rng: np.random.Generator | None = None
    #: the transcript as last printed in "human" mode ("" before the first print of a game)
    _shown: str = ""
    game: Game
    render_mode: str | None

    def _setup(self, game_factory: Callable[[], Game], render_mode: str | None) -> None:
        _check_render_mode(render_mode)
        self.game = game_factory()
        self.metadata = dict(self.game.metadata, render_modes=list(RENDER_MODES))
        self.possible_agents = list(self.game.possible_agents)
        self._agent_set = frozenset(self.possible_agents)
        self.render_mode = render_mode
        self.agents: list[str] = []
        #: makes one agent's info at the game's current state
        self._make_info = self.game.full_info

    def _known(self, agent, call: str) -> None:
        """A ``ValueError`` naming ``agent`` and this env's agents unless ``agent`` is one
        of them (a name of another type, unhashable ones included, is unknown too)."""
        try:
            if agent in self._agent_set:
                return
        except TypeError:
            pass
        raise ValueError(f"{call}: unknown agent {shown(agent)}; this env's agents are "
                         f"{', '.join(self.possible_agents)}")

    def observation_space(self, agent):
        self._known(agent, "observation_space()")
        return self.game.observation_space(agent)

    def action_space(self, agent):
        self._known(agent, "action_space()")
        return self.game.action_space(agent)

    def observe(self, agent):
        """The observation ``agent`` would get now; ``ValueError`` for an unknown agent."""
        self._known(agent, "observe()")
        return self.game.observe(agent)

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.render_text()
        if self.render_mode == "ansi":
            return text
        # the games' transcripts only grow (lines appended); one that does not start with
        # what was printed (another game) is printed whole
        if self._shown and text.startswith(self._shown):
            new = text[len(self._shown):].removeprefix("\n")
        else:
            new = text
        self._shown = text
        if new:
            sys.stdout.write(new + "\n")
        return None

    def _render_reset(self) -> None:
        self._shown = ""
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        pass


    def _next_rng(self, seed: int | None) -> np.random.Generator:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._rng is None:
            self._rng = np.random.default_rng()
        # each game gets a child stream so consecutive resets differ but stay reproducible
        return np.random.default_rng(self._rng.integers(2**63))


class GameAECEnv(_GameEnvBase, AECEnv):
    """The AEC adapter.

    ``infos`` is made when read: ``last()`` makes the selected agent's info alone
    (:meth:`info_now`), and ``env.infos`` is a plain dict of every agent's info, made in
    full the first time it is read at a state (holding the info ``last()`` returned) and
    kept until the game moves. Every move starts a new dict, so a kept ``infos`` never
    changes; the info dicts are new for every state and never changed after."""

    #: env.infos at the current state once something read it (None: not made yet)
    _infos_map: dict | None = None
    #: (agent, info) made by last() / info_now() while no mapping exists
    _made: tuple | None = None

    def __init__(self, game_factory: Callable[[], Game], render_mode: str | None = None):
        super().__init__()
        self._setup(game_factory, render_mode)

    @property
    def infos(self) -> dict:
        m = self._infos_map
        if m is None:
            m = self._infos_map = self.game.full_infos(self.agents, self._made)
        return m

    @infos.setter
    def infos(self, value: dict) -> None:
        self._infos_map = value
        self._made = None

    def info_now(self, agent: str) -> dict:
        """``env.infos[agent]`` at the current state, without making the mapping when
        nothing has read it yet (what ``last()`` reads)."""
        m = self._infos_map
        if m is not None:
            return m[agent]
        made = self._made
        if made is not None and made[0] == agent:
            return made[1]
        info = self._make_info(agent)
        self._made = (agent, info)
        return info

    def _moving(self) -> None:
        """Before the game moves: forget the current state's infos (a caller that kept
        them keeps a dict nothing changes)."""
        self._infos_map = None
        self._made = None

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._moving()
        self.game.reset(self._next_rng(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_selection = self.game.acting()[0]
        self._render_reset()

    def last(self, observe: bool = True):
        """:meth:`AECEnv.last`, the same tuple read in one call."""
        agent = self.agent_selection
        assert agent is not None
        if observe:  # (self.observe is the game's unless a subclass has its own)
            obs = self.game.observe(agent) if type(self) is GameAECEnv else self.observe(agent)
        else:
            obs = None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.info_now(agent))

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        game, agents = self.game, self.agents
        self._moving()
        rewards = game.step(agent, action)
        if rewards is NO_REWARDS:  # all zero: adding them to the cumulative rewards changes nothing
            self.rewards = dict.fromkeys(agents, 0.0)
        else:
            self.rewards = step_rewards = {a: float(rewards.get(a, 0.0)) for a in agents}
            for a, r in step_rewards.items():  # AECEnv._accumulate_rewards
                cumulative[a] += r
        if game.done:
            self.terminations = {a: True for a in agents}
        acting = game.acting()
        self.agent_selection = acting[0] if acting else agents[0]
        if self.render_mode == "human":
            self.render()


class GameParallelEnv(_GameEnvBase, ParallelEnv):
    def __init__(self, game_factory: Callable[[], Game], render_mode: str | None = None):
        self._setup(game_factory, render_mode)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.game.reset(self._next_rng(seed))
        self.agents = list(self.possible_agents)
        self._render_reset()
        return {a: self.game.observe(a) for a in self.agents}, _infos(self.game, list(self.agents))

    def step(self, actions: dict):
        if not self.agents:
            raise RuntimeError("step() called on a finished game; call reset() first")
        acting = self.game.acting()
        if not isinstance(actions, Mapping):
            raise ValueError(f"step() takes a dict of agent -> action; got {type(actions).__name__} (agents that may "
                             f"act now: {', '.join(acting)})")
        unknown = [a for a in actions if not (isinstance(a, str) and a in self._agent_set)]
        if unknown:
            raise ValueError(
                f"step(): unknown agent{'s' if len(unknown) > 1 else ''} {', '.join(shown(a) for a in unknown)} in the "
                f"actions; this env's agents are {', '.join(self.agents)}, and "
                f"{'the agents that may act now are' if len(acting) > 1 else 'the agent that may act now is'} "
                f"{', '.join(acting)}"
            )
        missing = [a for a in acting if a not in actions]
        if missing:
            raise ValueError(
                f"no action for {', '.join(missing)}, whose turn it is (infos[agent]['active_agents'] "
                "lists the agents whose actions count this step; give every live agent an action)"
            )
        rewards = {a: 0.0 for a in self.agents}
        for a in acting:
            if a in self.game.acting():
                step_rewards = self.game.step(a, actions[a])
                if step_rewards is not NO_REWARDS:
                    for k, v in step_rewards.items():
                        rewards[k] += float(v)
        done = self.game.done
        agents = list(self.agents)
        obs = {a: self.game.observe(a) for a in agents}
        infos = _infos(self.game, agents)
        terminations = {a: done for a in agents}
        truncations = {a: False for a in agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos
