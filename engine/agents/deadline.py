"""The time a search agent has left for one decision, checked wherever its work is long.

A search agent given ``seconds=S`` (``pimc``, ``ismcts``) makes one :class:`Deadline`
per decision and hands it to every step that can run long: the inference's
weighing of candidate worlds (:mod:`naipes.agents.inference`), the open-hand
solver's exact search (:mod:`naipes.agents.solver`), the lines a strategy level
plays on to the end of a hand (:mod:`naipes.agents.rollout`), ISMCTS's playouts.
Each stops where it stands once the deadline has passed, and its caller falls
back to what it has (each module says what).

The clock is :func:`time.perf_counter` (wall time, as a player waiting for a move
sees it); a test gives its own, to count the work done before a deadline rather
than time it.

A deadline is also a budget of steps, with or without seconds: the worlds a
search plays in are copies of the game, which the game's own budget does not
bound (a search may rightly spend far more than the game), so every copy made
while the search runs (`with deadline.searching():`) spends from the decision's
SEARCH_STEPS, and the deadline has passed once they are spent. Unlike a clock,
this stops a search at the same place on every machine: a file whose every move
is costly cannot make a search of a hundred playouts take minutes.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..library.limits import SEARCH_POOL, SEARCH_STEPS


class Deadline:
    """A moment on a clock, and steps to spend; `passed()` says whether the moment has come (never, for a
    deadline of no seconds) or the steps are spent (never, for NEVER)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.perf_counter,
                 steps: int | None = SEARCH_STEPS):
        self.clock = clock
        self.start = clock()
        self.at = self.start + seconds if seconds is not None else math.inf
        self.pool = [steps] if steps is not None else None  # (shared with the copies made: see searching)

    def passed(self) -> bool:
        pool = self.pool
        return (pool is not None and pool[0] <= 0) or (self.at != math.inf and self.clock() > self.at)

    def share(self, fraction: float) -> Deadline:
        """A deadline `fraction` of the way from now to this one (the same clock), spending the same steps: a
        first step's part."""
        part = Deadline(None, self.clock, None)
        part.pool = self.pool
        if self.at != math.inf:
            part.at = part.start + fraction * max(0.0, self.at - part.start)
        return part

    @contextmanager
    def searching(self) -> Iterator[None]:
        """While it lasts, every copy of a game made (a search's worlds, and the views and worlds made from them)
        spends from this deadline's steps."""
        token = SEARCH_POOL.set(self.pool)
        try:
            yield
        finally:
            SEARCH_POOL.reset(token)


NEVER = Deadline(None, steps=None)  # no time limit, no steps counted
