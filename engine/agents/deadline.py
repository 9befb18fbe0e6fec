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
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable


class Deadline:
    """A moment on a clock; `passed()` says whether it has come (never, for a deadline of no seconds)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.perf_counter):
        self.clock = clock
        self.start = clock()
        self.at = self.start + seconds if seconds is not None else math.inf

    def passed(self) -> bool:
        return self.at != math.inf and self.clock() > self.at

    def share(self, fraction: float) -> Deadline:
        """A deadline `fraction` of the way from now to this one (the same clock): a first step's part."""
        part = Deadline(None, self.clock)
        if self.at != math.inf:
            part.at = part.start + fraction * max(0.0, self.at - part.start)
        return part


NEVER = Deadline(None)  # no time limit
