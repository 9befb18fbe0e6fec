"""Playing a world on with a strategy level in every seat, to the end of the hand: a search's leaf value.

A search that cannot reach the end of a hand (an 8-card hand of Pocha has
far too many lines) stops after a few moves and needs a value for where it
stopped. A rule file's ``estimate`` gives one; without one, the world is
played on to the end of the hand by a *policy*, a strategy level of the game
in every seat, and the change of the evaluation is the value: the policy's
own result from there, which the search's first moves improve on (a
rollout, as backgammon programs judge a position).

:class:`Policies` follows the real game with one agent of the level per
seat, each seeing what its seat sees (its memory of the cards played, say),
as the inference's model of the other players does. :meth:`Policies.follow`
seats copies of them where a search begins, their memories as the real game
left them: they see the search's moves too, and its `undo` takes back what
they made of them (Game.followers), so a line is played on by agents that saw
every move of it. :meth:`Policies.play_on` plays a world on with them, and
takes every move back: the world is as it was, and the same line gives the
same value (the copies draw from generators seeded the same way each time).
Given a :class:`~naipes.agents.deadline.Deadline`, it stops where the line
stands once it has passed and says so: the line was not played out.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ..runtime.game import Decision, Game, Option, offered
from ..runtime.memory import PlayerBase
from .deadline import NEVER, Deadline
from .strategy import StrategyAgent

MAX_MOVES = 2_000  # moves a rollout plays before it stops (a hand the policy never ends)


class Policies:
    """One agent of a strategy level per seat, following the real game as that seat sees it."""

    def __init__(self, game: Game, spec: str, make_agent: Callable[[str, int], Any], seed: int):
        self.spec, self.seed = spec, seed
        self._following: tuple[Game, dict[int, Any]] | None = None  # the world followed and its seated agents
        self._points: list[tuple] = []
        self.agents: dict[int, Any] = {}
        for p in game.memory.players:
            agent = make_agent(spec, seed + p.index)
            if hasattr(agent, "attach"):
                agent.attach(game, p.index)  # its memory follows what the seat sees of the table
            self.agents[p.index] = agent

    def follow(self, world: Game) -> None:
        """Seat copies of the seats' agents in `world`, a search's copy of the position where it begins, to play
        its lines on (`play_on`): they see its moves from now on, and its `undo` takes back what they made of
        them."""
        seated, _ = self.seat(world)
        world.followers.extend(agent for agent in seated.values() if hasattr(agent, "saved"))
        self._following = (world, seated)

    def play_on(self, world: Game, deadline: Deadline = NEVER) -> bool:
        """Play `world` on with the agents seated by `follow` until it is over or paused where its evaluation
        changed (the world's watch: Game.pause_after), or MAX_MOVES; `undo_all` takes the moves back. False if
        the `deadline` passed first (the line stops where it stands)."""
        assert self._following is not None and self._following[0] is world  # (seated where its search began)
        seated = self._following[1]
        for seat, agent in seated.items():
            _reseed(agent, self.seed + seat)
        points: list[tuple] = []
        self._points = points
        while not (world.over or world.paused or world.watched_written) and len(points) < MAX_MOVES:
            if deadline.passed():
                return False
            points.append(world.make(seated_choice(seated, world.decision())))
        return True

    def seat(self, world: Game, seed: int | None = None) -> tuple[dict[int, Any], Callable | None]:
        """Copies of the seats' agents that play in `world` from the memories the real game left them (their
        generators seeded from `seed`, by default the policies' own), and the hook, now in `world.after_move`,
        by which those that observe moves see its moves from now on (None if none does)."""
        seed = self.seed if seed is None else seed
        seated = {seat: _copy_for(agent, world, seat, seed + seat) for seat, agent in self.agents.items()}
        observers = [agent.note_move for agent in seated.values() if _observes(agent)]
        hook = _observe_all(observers) if observers else None
        if hook is not None:
            world.after_move.append(hook)
        return seated, hook

    def undo_all(self, world: Game) -> None:
        for point in reversed(self._points):
            world.undo(point)
        self._points = []


def seated_choice(seated: dict[int, Any], decision: Decision) -> Option:
    """The option the agent `seated` for the player to decide chooses (the only one, without asking him)."""
    options = decision.options
    if len(options) == 1:
        return options[0]
    return offered(seated[decision.player].choose(decision), options) or options[0]


def _copy_for(agent: Any, world: Game, seat: int, seed: int) -> Any:
    """A copy of a seat's agent that plays in `world` with the memory the real game gave it (a strategy agent),
    its generator seeded with `seed`."""
    if isinstance(agent, StrategyAgent):
        return agent.twin(world, seat, seed)
    twin = copy.copy(agent)
    if hasattr(twin, "rng"):
        twin.rng = type(agent.rng)(seed)
    return twin


def _reseed(agent: Any, seed: int) -> None:
    if hasattr(agent, "reseed"):
        agent.reseed(seed)
    elif hasattr(agent, "rng"):
        agent.rng.seed(seed)


def _observes(agent: Any) -> bool:
    strategy = getattr(agent, "strategy", None)
    return strategy is not None and bool(strategy.observations)


def _observe_all(observers: list) -> Callable[[Game, PlayerBase, Option], None]:
    def observe(game: Game, player: PlayerBase, option: Option) -> None:
        for watch in observers:
            watch(game, player, option)
    return observe
