"""The players: every seat is an agent with ``choose(decision) -> Option``.

Built-in agents, named on the command line with ``--seat NAME``:

``random``
    a uniformly random legal option (seeded: reproducible).
``minimax``
    exhaustive memoised search (:mod:`naipes.agents.search`), for perfect-information
    rule files; ties between equally good options are broken by the seeded
    generator.
``ismcts``
    information-set Monte Carlo tree search (:mod:`naipes.agents.ismcts`), for any
    rule file; options ``ismcts:iterations=200,seconds=0.5,policy=LEVEL``.
a strategy file
    ``strategies/GAME/LEVEL.yaml`` or its short name ``LEVEL`` (:mod:`naipes.language.strategies`).
``human``
    the terminal: the position, the numbered legal options; answer with a
    number or an option's name; ``help`` and ``quit`` always work.
"""
from __future__ import annotations

import random
from typing import Callable

from .bot_process import BotLimits
from .bot_seat import make_bot_seat
from ..errors import ParamError
from ..runtime.game import Decision, Option
from .ismcts import make_ismcts
from ..program import Program
from .search import Solver
from ..language.strategies import make_strategy_agent
from .human import HumanAgent


class RandomAgent:
    """Picks a legal option uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        """Start a new game's stream (a run of many games stays reproducible game by game)."""
        self.rng.seed(seed)

    def choose(self, decision: Decision) -> Option:
        return self.rng.choice(decision.options)


class MinimaxAgent:
    """Perfect play by exhaustive search (perfect-information games only)."""

    name = "minimax"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self.solver = Solver()

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def choose(self, decision: Decision) -> Option:
        game = decision.simulator()
        return self.rng.choice(self.solver.best(game))


AGENTS: dict[str, Callable[..., object]] = {
    "random": lambda seed=None, program=None: RandomAgent(seed),
    "minimax": lambda seed=None, program=None: MinimaxAgent(seed),
    "ismcts": make_ismcts,  # see naipes.agents.ismcts
    "human": lambda seed=None, program=None: HumanAgent(),  # see naipes.agents.human
}


def make_agent(spec: str, seed: int | None = None, program: Program | None = None,
               bot_limits: BotLimits = BotLimits()) -> object:
    """An agent from its command-line name: a built-in (with options: ``ismcts:iterations=200``),
    ``python:path/to/bot.py:ClassName`` (naipes.bots: a process of its own, with `bot_limits`), or, given the
    game's program, a strategy file (a path, ``GAME/LEVEL`` or a level of this game)."""
    if spec.startswith("python:"):
        return make_bot_seat(spec, bot_limits)
    name, _, rest = spec.partition(":")
    factory = AGENTS.get(name)
    if factory is not None:
        return factory(seed=seed, program=program, **_agent_options(spec, rest))
    if program is not None:
        agent = make_strategy_agent(spec, program, seed)
        if agent is not None:
            return agent
    raise ParamError(f"unknown agent '{spec}': choose one of {', '.join(AGENTS)}, a strategy file "
                     f"(strategies/GAME/LEVEL.yaml or its short name), or python:FILE.py:CLASS")


def _agent_options(spec: str, text: str) -> dict[str, str]:
    options = {}
    for item in filter(None, text.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ParamError(f"agent '{spec}': options are NAME=VALUE separated by commas, not '{item}'")
        options[key.strip()] = value.strip()
    name = spec.partition(":")[0]
    if options and name != "ismcts":
        raise ParamError(f"agent '{name}' takes no options")
    return options
