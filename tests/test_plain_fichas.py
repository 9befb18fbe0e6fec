"""The bitmask solver of benchmarks/plain_fichas.py solves the rule file's chip game.

On many small random boards of rulesets/fichas.yaml (and a few full ones) its
winning moves of the start position (so also won or lost) equal those of
naipes' Solver, which tests/test_solver.py checks against a brute force.  A
benchmark that compares the two is then a comparison of the same search.
"""
from __future__ import annotations

import sys

import pytest

from naipes.agents.search import Solver
from naipes.runtime.game import Game

from helpers import ROOT, RULESETS, program

sys.path.insert(0, str(ROOT / "benchmarks"))
from plain_fichas import PlainSolver  # noqa: E402


def naipes_winning_moves(game: Game) -> list[str]:
    mover = game.mover.index
    return sorted(o.label for o, value in Solver().evaluate(game) if value[mover] >= 1)


@pytest.mark.parametrize("count, colours, values", [(6, 3, 3), (10, 4, 4), (12, 5, 4),
                                                    pytest.param(16, 6, 6, marks=pytest.mark.slow), (9, 2, 7)])
def test_plain_solver_agrees_with_naipes_on_random_boards(count, colours, values):
    params = (("colours", str(colours)), ("count", str(count)), ("values", str(values)))
    outcomes = set()
    for seed in range(12):
        game = Game(program(str(RULESETS / "fichas.yaml"), params), seed)
        game.start()
        chips = [(c.colour, c.value) for c in game.memory.vars["table"]]
        plain = sorted(PlainSolver(chips).winning_moves())
        assert plain == naipes_winning_moves(game), f"seed {seed}: {chips}"
        outcomes.add(bool(plain))
    assert outcomes == {True, False}  # won and lost starts both met


@pytest.mark.parametrize("side", [2, 3, 4, 5])
def test_plain_solver_agrees_on_full_boards(side):
    game = Game(program(str(RULESETS / "fichas.yaml"), (("colours", str(side)), ("full", "true"),
                                                       ("values", str(side)))), 1)
    game.start()
    chips = [(c.colour, c.value) for c in game.memory.vars["table"]]
    assert sorted(PlainSolver(chips).winning_moves()) == naipes_winning_moves(game)
