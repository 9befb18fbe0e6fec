"""The random player: a uniformly random legal option, drawn from the seat's own seeded generator.

Compiled with the runtime (setup.py's NATIVE): it chooses every move of a random simulation, of a random
benchmark and of the agents that play random seats, so its call is a compiled call. Classes of Python may
still derive from it (a test's player that never closes a hand, a user's bot).
"""
from __future__ import annotations

import random
from typing import Any

from ..library.builtins import pick
from ..runtime.game import Decision, Option

try:  # (mypy's own extensions, which mypyc reads; a plain install has no need of them)
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - the package without mypy
    def mypyc_attr(*_: str, **__: Any) -> Any:  # type: ignore[misc]  # (the same decorator, doing nothing)
        return lambda cls: cls


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent:
    """Picks a legal option uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        """Start a new game's stream (a run of many games stays reproducible game by game)."""
        self.rng.seed(seed)

    def choose(self, decision: Decision) -> Option:
        return pick(self.rng, decision.options)
