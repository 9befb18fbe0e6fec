"""The exact search a seat makes is bounded: a red team's page seated two `exact` players on a chip board of 500
chips, and the server's thread searched for ever, its memory growing, after the table was closed."""
import pytest

from naipes import load_program
from naipes.agents.registry import MINIMAX_POSITIONS, MinimaxAgent
from naipes.agents.search import Solver, TooLarge
from naipes.runtime.game import Game


def decision(chips: str):
    game = Game(load_program("fichas", {"chips": chips}), 1)
    game.start()
    return game.decision()


def test_a_search_past_its_positions_stops_with_a_clear_error():
    game = decision("R1 R4 B2 B7 G3 G9 Y5 Y6 R9 B5 G1 Y8").simulator()  # (247 positions)
    with pytest.raises(TooLarge, match="more than 50 positions, its limit"):
        Solver(50).best(game)
    unbounded = Solver()
    best = unbounded.best(game)
    assert Solver(unbounded.nodes).best(game) == best  # (a budget that fits: the same play)


def test_positions_kept_from_earlier_searches_are_dropped_once_they_fill_the_budget():
    solver, boards = Solver(300), ["R1 R4 B2 B7 G3 G9 Y5 Y6 R9 B5 G1 Y8", "R1 R2 B3 B4 G5 G6 Y7 Y8 R9 B1 G2 Y3 R4 B5"]
    kept = []
    for chips in boards + boards[:1]:  # (247, 308, then 247 positions again)
        solver.best(decision(chips).simulator())
        kept.append(len(solver.memo))
    assert kept[1] > 300 and kept[2] <= 300  # (the third search began by dropping the 555 kept)


def test_the_minimax_seat_is_bounded():
    assert MinimaxAgent(1).solver.positions == MINIMAX_POSITIONS
