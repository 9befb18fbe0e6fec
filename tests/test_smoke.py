"""A first end-to-end check: the chip game loads, plays and solves."""
from naipes import load_program
from naipes.agents.registry import RandomAgent
from naipes.agents.search import Solver
from naipes.runtime.game import Game, play_game

from helpers import shipped


def test_chip_game_plays_to_a_winner():
    program = load_program(shipped("fichas"), {"chips": "R1 R2 B1 G3"})
    result = play_game(program, [RandomAgent(1), RandomAgent(2)], seed=3)
    assert len(result.winners) == 1
    assert sorted(result.payoffs) == [0, 1]


def test_single_colour_position_is_won_by_taking_it():
    program = load_program(shipped("fichas"), {"chips": "R1 R2 R3"})
    game = Game(program, 0)
    game.start()
    scored = Solver().evaluate(game)
    winning = sorted(o.label for o, value in scored if value[0] == 1)
    assert winning == ["colour R"]
