"""What every game of a rule file can come to, found by playing every line: the facts game-theory libraries
want declared about a game (OpenSpiel's game type, utility bounds and longest game).

:func:`explore` plays every line of a game (every chance outcome, every option), through
:class:`naipes.bridges.chance.ChanceGame`, keeping each position's answer once found (positions are told
apart by the game's canonical key and the cards still undecided). It first estimates the size of the whole
tree from a few random lines (Knuth's estimator: the products of the branching factors met along a line) and
gives up at once when one of them is over the limit, so a large game costs a few lines, not the limit.

>>> from naipes import load_program
>>> from naipes.bridges.chance import ChanceGame
>>> found = explore(ChanceGame(load_program("kuhn_poker")))
>>> found.chance, found.total, found.low, found.high, found.longest
(True, 0, -2, 2, 3)
>>> explore(ChanceGame(load_program("tute_cabrero"))) is None   # 40 cards dealt: too many lines
True
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .chance import ChanceGame

LIMIT = 50_000  # positions explored at most (and the largest tree a random line may suggest)
PROBES = 4  # random lines that estimate the tree's size first


@dataclass(frozen=True)
class Outcomes:
    """What the games from a position can come to."""

    chance: bool  # whether some line meets a chance event
    total: float | None  # the sum of the payoffs, when every end has the same sum; else None
    low: float  # the least payoff of any player at any end
    high: float  # the greatest
    longest: int  # the most decisions in a line


class _TooMany(Exception):
    pass


def explore(table: ChanceGame, limit: int = LIMIT) -> Outcomes | None:
    """The outcomes of every line from `table` (left as it is), or None when there are more than `limit`
    positions to explore."""
    rng = random.Random(0)
    if any(_estimate(table.clone(), rng, limit) > limit for _ in range(PROBES)):
        return None
    try:
        return _Explorer(limit).visit(table.clone())
    except _TooMany:
        return None


def _estimate(table: ChanceGame, rng: random.Random, limit: int) -> float:
    """Knuth's estimate of the number of positions below `table`, from one random line (stops over `limit`)."""
    size = product = 1.0
    while not (table.game.over and not table.chance_pending):
        if table.chance_pending:
            cards = table.chance_cards()
            product *= len(cards)
            table.deal(rng.choice(cards))
        else:
            options = table.game.options()
            product *= len(options)
            table.apply(rng.choice(options))
        size += product
        if size > limit:
            break
    return size


class _Explorer:
    def __init__(self, limit: int):
        self.limit, self.positions = limit, 0
        self.known: dict[Any, Outcomes] = {}

    def visit(self, table: ChanceGame) -> Outcomes:
        """The outcomes below `table` (which it plays on: a copy per line but the last)."""
        if not table.chance_pending and table.game.over:
            payoffs = table.game.payoffs()
            return Outcomes(False, sum(payoffs), min(payoffs), max(payoffs), 0)
        key = None if table.chance_pending else (table.game.key(False), frozenset(table.now.unseen))
        if key is not None and key in self.known:
            return self.known[key]
        self.positions += 1
        if self.positions > self.limit:
            raise _TooMany
        if table.chance_pending:
            found = _combine([self.visit(_dealt(table, card)) for card in table.chance_cards()], chance=True)
        else:
            found = _combine([self.visit(_played(table, option)) for option in table.game.options()], chance=False)
        if key is not None:
            self.known[key] = found
        return found


def _dealt(table: ChanceGame, card: int) -> ChanceGame:
    copy = table.clone()
    copy.deal(card)
    return copy


def _played(table: ChanceGame, option: Any) -> ChanceGame:
    copy = table.clone()
    copy.apply(option)
    return copy


def _combine(below: list[Outcomes], chance: bool) -> Outcomes:
    totals = {outcome.total for outcome in below}
    return Outcomes(chance or any(outcome.chance for outcome in below),
                    totals.pop() if len(totals) == 1 else None,
                    min(outcome.low for outcome in below), max(outcome.high for outcome in below),
                    max(outcome.longest for outcome in below) + (0 if chance else 1))
