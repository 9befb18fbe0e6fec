"""Exhaustive search over any perfect-information rule file.

:class:`Solver` plays every line to the end through the interpreter (cloning
the game at each node) and memoises values on the game's canonical key, so
transpositions are solved once.  Values are payoff vectors; the player to
move maximises its own payoff (max^n, which for two players with win/loss
payoffs is minimax).  When payoffs are the default win = 1 / loss = 0, a
line that already wins for the mover cuts the search of its siblings.

>>> from naipes import Game, load_program
>>> game = Game(load_program("fichas", {"chips": "R1 R2 B1"}), seed=1)
>>> game.start()
>>> [(option.label, value) for option, value in Solver().evaluate(game)]  # whatever P1 takes, P2 takes the last chip
[('colour B', (0, 1)), ('colour R', (0, 1)), ('value 1', (0, 1)), ('value 2', (0, 1))]
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import GameError
from ..runtime.game import Game, Option

# Relabelled keys (cards: symmetric:) cost about twice as much as plain ones; over its first TRIAL positions the
# solver computes both, and keeps relabelling only if it merges at least MERGES of them (a full board: nearly
# all; the benchmark's random 50-chip board about a third, which does not pay for the relabelling).
TRIAL, MERGES = 2_000, 0.5


class TooLarge(GameError):
    """The search met more positions than its budget allows (Solver's `positions`)."""


class Solver:
    """Memoised max^n search; one solver can be reused across positions of a program."""

    def __init__(self, positions: int | None = None) -> None:
        """`positions`: the most positions one search may solve (what its time and memory grow with); past them
        it stops with TooLarge, and the positions it keeps from earlier searches are at most as many again. None:
        no limit (a person solving a position of his own choosing)."""
        self.memo: dict[Any, tuple] = {}
        self.nodes = 0
        self.positions = positions
        self.last_node = math.inf  # the count of positions solved at which this search stops
        self.symmetric: bool | None = None  # relabelled keys: None while on trial
        self.trial: tuple[set, set] = (set(), set())  # the plain and the relabelled keys of the trial

    def key(self, game: Game, turn: int) -> tuple:
        if self.symmetric is not None:
            return game.key(self.symmetric, turn)
        if not game.program.symmetric:
            self.symmetric = False
            return game.key(False, turn)
        plain, relabelled = self.trial
        key = game.key(True, turn)
        plain.add(game.key(False, turn))
        relabelled.add(key)
        if len(plain) >= TRIAL:
            self.symmetric = len(relabelled) <= (1 - MERGES) * len(plain)
            self.trial = (set(), set())
        return key

    def value(self, game: Game) -> tuple:
        """The payoff vector of `game` under perfect play (`game` itself is left as it is)."""
        return self._solve(game.clone())

    def _solve(self, game: Game) -> tuple:
        """The value of a position this search owns (it tries each line in it, then takes it back)."""
        # a rule file whose seats are alike: positions keyed with seats counted from the mover, values stored so
        turn = game.mover.index if game.program.seats_alike and not game.over else 0
        key = self.key(game, turn)
        known = self.memo.get(key)
        if known is not None:
            return known[-turn:] + known[:-turn] if turn else known
        self.nodes += 1
        if self.nodes > self.last_node:
            raise TooLarge(f"the exact search met more than {self.positions:,} positions, its limit: this game is "
                           "too large to solve exactly (seat a search agent with a budget, such as ismcts)")
        value: tuple | None
        if game.over:
            value = tuple(game.payoffs())
        else:
            mover = game.mover.index
            prune = game.program.result is None  # payoffs are 0/1: a win cannot be bettered
            value = None
            for option in game.options():
                point = game.make(option)
                outcome = self._solve(game)
                game.undo(point)
                if value is None or outcome[mover] > value[mover]:
                    value = outcome
                    if prune and value[mover] >= 1:
                        break
        assert value is not None  # a game that is not over has a decision with options
        self.memo[key] = value[turn:] + value[:turn] if turn else value
        return value

    def evaluate(self, game: Game) -> list[tuple[Option, tuple]]:
        """Every option of the pending decision with its exact value (no cut at the root)."""
        if self.positions is not None:
            if len(self.memo) > self.positions:  # (what earlier searches found: a cache, dropped when it is full)
                self.memo.clear()
            self.last_node = self.nodes + self.positions
        results = []
        game = game.clone()
        for option in game.options():
            point = game.make(option)
            results.append((option, self._solve(game)))
            game.undo(point)
        return results

    def best(self, game: Game) -> list[Option]:
        """The options of highest value for the player to move."""
        mover = game.mover.index
        scored = self.evaluate(game)
        top = max(value[mover] for _, value in scored)
        return [option for option, value in scored if value[mover] == top]
