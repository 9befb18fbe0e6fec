"""Any rule file as a PettingZoo AEC environment (``pip install 'naipes[pettingzoo]'``).

Agents are ``player_0``, ``player_1``, ...; they act in the order the rule
file asks them. An action is an :class:`naipes.bridges.actions.ActionSpace` id
(``Discrete``); an observation is a dict of ``observation`` (the
:class:`naipes.bridges.observations.ObservationEncoder` vector of what the agent
sees) and ``action_mask`` (1 for each legal action; all 0 when it is not the
agent's turn), as PettingZoo's classic card games do. Rewards are the rule
file's payoffs, given when the game ends. ``reset(seed=N)`` makes the game
reproducible: the rule file's own seeded generator deals.

Illegal actions are handled as PettingZoo's classic environments handle them:
:func:`env` wraps the raw environment in the wrappers their ``env()`` applies
(``TerminateIllegalWrapper(illegal_reward=-1)``, ``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``), so an illegal action ends the game at once, -1 for
the agent that made it and 0 for the others, with PettingZoo's warning. The raw
environment (:class:`NaipesEnv`, also ``raw_env``) refuses it instead with a
GameError that names the action and the rule that forbids it (for debugging an agent).

>>> wrapped = env("fichas", {"count": "6"})
>>> wrapped.reset(seed=4)
>>> observation, _, _, _, _ = wrapped.last()
>>> illegal = int(observation["action_mask"].argmin())
>>> wrapped.step(illegal)   # doctest: +SKIP  (PettingZoo warns: "Illegal move made, game terminating ...")
>>> raw = NaipesEnv("fichas", {"count": "6"})
>>> raw.reset(seed=4)
>>> raw.agent_selection, int(raw.action_space("player_0").n)
('player_0', 8)
>>> observation, reward, terminated, truncated, info = raw.last()
>>> int(observation["action_mask"].sum()) == len(info["legal_moves"])
True
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..agents.human import render_view
from ..errors import GameError
from ..language.builder import load_program
from ..runtime.game import Game
from ..tools.cli import find_ruleset
from .actions import ActionSpace
from .observations import ObservationEncoder


class NaipesEnv(AECEnv):
    """A rule file (a path or a name in rulesets/) with its params (as ``-p`` gives them: text) as an AEC env."""

    metadata = {"render_modes": ["ansi", "human"], "name": "naipes", "is_parallelizable": False}

    def __init__(self, ruleset: str, params: dict[str, str] | None = None, players: int | None = None,
                 render_mode: str | None = None):
        super().__init__()
        self.program = load_program(find_ruleset(ruleset), {k: str(v) for k, v in (params or {}).items()})
        count = players or self.program.players[2]
        self.metadata = {**self.metadata, "name": f"naipes_{self.program.name}"}
        self.actions = ActionSpace(self.program, count)
        self.encoder = ObservationEncoder(self.program, count)
        self.possible_agents = [f"player_{i}" for i in range(count)]
        self.render_mode = render_mode
        box = spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (self.actions.size,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self._game: Game | None = None  # made by reset()

    @property
    def game(self) -> Game:
        """The game being played (reset() starts one)."""
        if self._game is None:
            raise GameError("no game: call reset() first")
        return self._game

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self._game = Game(self.program, self._seeds.randrange(1 << 31), players=len(self.possible_agents))
        self._game.start()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.actions.size, np.int8)
        if self.game.to_move is not None and self.game.to_move.index == seat:
            mask[self.actions.legal_ids(self.game)] = 1
        return {"observation": self.encoder.encode(self.game, seat), "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.apply(self.actions.option(self.game, int(action)))
        self._cumulative_rewards[agent] = 0.0
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        game = self.game
        if game.over:
            payoffs = game.payoffs()
            self.rewards = {a: float(payoffs[i]) for i, a in enumerate(self.possible_agents) if a in self.agents}
            self.terminations = {a: True for a in self.agents}
            self.infos = {a: {"legal_moves": []} for a in self.agents}
            self.agent_selection = self.agents[0]
            return
        self.rewards = {a: 0.0 for a in self.agents}
        mover = self.possible_agents[game.mover.index]
        self.infos = {a: {"legal_moves": self.actions.legal_ids(game) if a == mover else []} for a in self.agents}
        self.agent_selection = mover

    def render(self) -> str | None:
        """The table as an onlooker sees it (text); printed in "human" mode."""
        from rich.console import Console
        console = Console(record=True, width=100, highlight=False)
        with console.capture():
            console.print(render_view(self.game.view(None)))
        text = console.export_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game = None


raw_env = NaipesEnv  # (PettingZoo's name for the environment without its wrappers)


def env(ruleset: str, params: dict[str, str] | None = None, players: int | None = None,
        render_mode: str | None = None, illegal_reward: float = -1) -> AECEnv:
    """The environment as PettingZoo's classic environments come: an illegal action ends the game,
    `illegal_reward` for the agent that made it, 0 for the others; an action outside the action space is an
    assertion error; acting before reset() is an error."""
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(NaipesEnv(ruleset, params, players, render_mode),
                                                       illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
