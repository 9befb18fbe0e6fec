"""Naipes: card games as declarative rule files, run by a forward-chaining engine.

The public API is small: load a rule file, play games with agents, read the
result.

>>> from naipes import load_program, play_game, RandomAgent, MinimaxAgent
>>> program = load_program("fichas", {"chips": "R1 R2 B1 G3"})  # params as -p gives them
>>> result = play_game(program, [MinimaxAgent(), RandomAgent(2)], seed=7)
>>> result.winners      # seat 0 (minimax) takes colour R first: whatever is left, it takes the last chip
(0,)

For finer control, :class:`Game` runs one game step by step (``start``,
``options``, ``apply``, ``clone``, ``view``) and :class:`Solver` searches
perfect-information games exhaustively. :class:`ActionSpace` numbers every
option a rule file can offer (a fixed action space with a mask, for learning
agents); the optional modules ``naipes.bridges.openspiel``, ``naipes.bridges.pettingzoo`` and
``naipes.tools.cluster`` bridge to OpenSpiel, PettingZoo and Dask (see the README).
"""
from .agents.human import HumanAgent
from .agents.registry import MinimaxAgent, RandomAgent, make_agent
from .agents.search import Solver
from .bridges.actions import ActionSpace
from .errors import GameError, NaipesError, ParamError, RuleError, RuleErrors
from .language.builder import load_program
from .program import Program
from .runtime.game import Decision, Game, GameResult, Option, play_game

__all__ = [
    "load_program", "play_game", "Game", "ActionSpace", "GameResult", "Decision", "Option", "Program", "Solver",
    "RandomAgent", "MinimaxAgent", "HumanAgent", "make_agent",
    "NaipesError", "RuleError", "RuleErrors", "GameError", "ParamError",
]
