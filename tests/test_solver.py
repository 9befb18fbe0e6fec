"""The solver (naipes.agents.search.Solver) against an independent brute force.

The brute force below knows nothing of the engine: a position is a frozenset
of (colour, value) pairs (a repeated chip changes nothing, since a move takes
every chip of a colour or of a value); the player to move on an empty table
has lost (the other took the last chip); a position is won iff some move
leaves the opponent a lost one.
"""
from __future__ import annotations

import random
from functools import cache

import pytest

from naipes.agents.registry import MinimaxAgent, RandomAgent
from naipes.agents.search import Solver
from naipes.runtime.game import Game, play_game

from helpers import RULESETS, shipped_program

FICHAS = str(RULESETS / "fichas.yaml")


# ---------------------------------------------------------------- brute force
def moves(position):
    """Every move as ('colour', c) or ('value', v)."""
    return [("colour", c) for c in sorted({c for c, _ in position})] + \
           [("value", v) for v in sorted({v for _, v in position})]


def after(position, move):
    kind, what = move
    index = 0 if kind == "colour" else 1
    return frozenset(chip for chip in position if chip[index] != what)


@cache
def wins(position):
    """True iff the player to move wins with perfect play."""
    return any(not wins(after(position, m)) for m in moves(position))


def winning_labels(position):
    return {f"{kind} {what}" for kind, what in moves(position) if not wins(after(position, (kind, what)))}


def parse(chips):
    return frozenset((t[0], int(t[1:])) for t in chips.split())


# -------------------------------------------------------------------- engine
def program(**params):
    return shipped_program("fichas", **{k: str(v) for k, v in params.items()})


def start(seed=0, **params):
    game = Game(program(**params), seed)
    game.start()
    return game


def position_of(game):
    return frozenset((c.colour, c.value) for c in game.memory.vars["table"])


def solve(game):
    """The solver's verdict: (won for the mover?, labels of the winning moves)."""
    mover = game.to_move.index
    scored = Solver().evaluate(game)
    assert len(scored) == len(game.options())
    for option, payoff in scored:
        assert sorted(payoff) == [0, 1], f"{option.label}: payoff {payoff} is not a win/loss"
    winning = {option.label for option, payoff in scored if payoff[mover] == 1}
    return bool(winning), winning


# ------------------------------------------------------------ the brute force
def test_the_brute_force_itself_on_tiny_positions():
    # guard against a wrong reference: empty is lost for the mover, one chip is won
    assert not wins(frozenset())
    assert wins(parse("R1")) and winning_labels(parse("R1")) == {"colour R", "value 1"}
    assert not wins(parse("R1 B2"))


# ---------------------------------------------------------- random positions
@pytest.mark.slow
def test_the_solver_agrees_with_the_brute_force_on_200_random_positions():
    rng = random.Random(2024)
    disagreements = []
    outcomes = set()
    for _ in range(200):
        count, colours, values = rng.randint(1, 10), rng.randint(2, 4), rng.randint(2, 4)
        seed = rng.randrange(10**6)
        game = start(seed, count=count, colours=colours, values=values)
        position = position_of(game)
        assert 1 <= len(position) <= count
        won, winning = solve(game)
        expected = winning_labels(position)
        outcomes.add(wins(position))
        if won != wins(position) or winning != expected:
            disagreements.append((sorted(position), winning, expected))
    assert not disagreements, disagreements[:3]
    assert outcomes == {True, False}  # both won and lost positions were tested


@pytest.mark.slow
def test_the_solver_agrees_with_the_brute_force_with_p2_to_move():
    rng = random.Random(7)
    for _ in range(30):
        chips = " ".join(f"{rng.choice('RBGY')}{rng.randint(1, 4)}" for _ in range(rng.randint(1, 9)))
        game = start(chips=chips, first=2)
        assert game.to_move.index == 1
        won, winning = solve(game)
        assert (won, winning) == (wins(parse(chips)), winning_labels(parse(chips))), chips


def test_the_solver_value_agrees_after_moves_have_been_made():
    # positions reached in play (with the removed zone non-empty, P2 to move...)
    # one solver reused across the positions of a program (as MinimaxAgent does)
    rng = random.Random(99)
    shared = Solver()
    for seed in range(15):
        game = start(seed, count=9, colours=4, values=3)
        while not game.over:
            mover = game.to_move.index
            expected = 1 if wins(position_of(game)) else 0
            assert Solver().value(game)[mover] == expected
            assert shared.value(game)[mover] == expected
            game.apply(rng.choice(game.options()))


# ------------------------------------------------------- hand-checked cases
@pytest.mark.parametrize("chips, winning", [
    # one colour: take it all
    ("R1 R2 R3", {"colour R"}),
    # value 1 takes both chips; colour R (or B) leaves one chip for the opponent
    ("R1 B1", {"value 1"}),
    # every move leaves exactly one chip, which the opponent takes: lost
    ("R1 B2", set()),
    # the full 2x2 board: every move leaves a 1x2 or 2x1 board, which the
    # opponent clears with one move: lost
    ("R1 R2 B1 B2", set()),
    # colour R leaves B1 G3 and value 1 leaves R2 G3: two chips sharing
    # nothing, lost for the opponent. colour G and value 3 both leave R1 R2 B1,
    # where every move leaves one chip (B1, R2) or two sharing a colour or a
    # value (R1 R2, R1 B1): lost for the opponent. colour B leaves R1 R2 G3,
    # where value 1 leaves R2 G3 (lost): won for the opponent; value 2 leaves
    # R1 B1 G3, where colour R leaves B1 G3 (lost): won for the opponent.
    ("R1 R2 B1 G3", {"colour R", "colour G", "value 1", "value 3"}),
    # value 1 leaves R2, colour R leaves B1 G1, value 2 leaves R1 B1 G1: the
    # opponent clears each at once. colour B leaves R1 G1 R2, where every move
    # leaves one chip (R2, G1) or R1 R2 / R1 G1: lost for the opponent; colour
    # G is the same by symmetry.
    ("R1 B1 G1 R2", {"colour B", "colour G"}),
])
def test_hand_checked_positions(chips, winning):
    assert winning_labels(parse(chips)) == winning  # the reference agrees with the hand
    assert solve(start(chips=chips)) == (bool(winning), winning)


# ---------------------------------------------------------------- full boards
# A full a x b board (every colour x value once, a colours, b values) stays
# full: a colour move leaves (a-1) x b, a value move a x (b-1), and a board
# with a 0 side is empty (the mover has lost).
#   * a = 1 or b = 1 (a, b >= 1): one move clears the board: won.
#   * a, b >= 2 and a + b even: both moves lead to an odd sum; there each side
#     is >= 1, and the result is either a board with a side 1 (won for the
#     opponent) or one with both sides >= 2 and odd sum (won, next point): lost.
#   * a, b >= 2 and a + b odd: a != b, say a > b; then a - 1 >= 2, and the
#     colour move leaves (a-1) x b with both sides >= 2 and even sum: lost for
#     the opponent, so won.
# By induction on a + b: lost iff a, b >= 2 and a + b even.
def full_board_lost(a, b):
    return a == 0 or b == 0 or (a >= 2 and b >= 2 and (a + b) % 2 == 0)


@pytest.mark.parametrize("a", [1, 2, 3, 4])
@pytest.mark.parametrize("b", [1, 2, 3, 4])
def test_full_boards_are_lost_iff_both_sides_are_at_least_2_and_the_sum_is_even(a, b):
    game = start(full="true", colours=a, values=b)
    assert len(position_of(game)) == a * b
    won, winning = solve(game)
    assert won == (not full_board_lost(a, b))
    assert won == wins(position_of(game))
    # the winning moves are those that leave a lost full board
    colours = {o.label for o in game.options() if o.move == "take_colour"}
    values = {o.label for o in game.options() if o.move == "take_value"}
    assert len(colours) == a and len(values) == b
    expected = (colours if full_board_lost(a - 1, b) else set()) | (values if full_board_lost(a, b - 1) else set())
    assert winning == expected


def test_the_full_board_rule_holds_for_the_brute_force_up_to_6x6():
    for a in range(1, 7):
        for b in range(1, 7):
            board = frozenset((chr(ord("A") + i), v) for i in range(a) for v in range(1, b + 1))
            assert wins(board) == (not full_board_lost(a, b)), (a, b)


# --------------------------------------------------------------------- agents
def _positions(want_won, how_many, seed):
    """Explicit random positions whose first mover wins (want_won) or loses."""
    rng = random.Random(seed)
    found = []
    while len(found) < how_many:
        chips = " ".join(f"{rng.choice('RBGY')}{rng.randint(1, 4)}" for _ in range(rng.randint(2, 10)))
        if wins(parse(chips)) == want_won:
            found.append(chips)
    return found


def test_minimax_never_loses_a_won_position_against_random():
    for i, chips in enumerate(_positions(True, 8, seed=5)):
        for game_seed in range(3):
            agents = [MinimaxAgent(seed=game_seed), RandomAgent(seed=100 * i + game_seed)]
            result = play_game(program(chips=chips), agents, seed=game_seed)
            assert result.winners == (0,), chips


def test_minimax_moving_second_wins_when_the_first_mover_is_lost():
    for i, chips in enumerate(_positions(False, 8, seed=6)):
        for game_seed in range(3):
            agents = [RandomAgent(seed=100 * i + game_seed), MinimaxAgent(seed=game_seed)]
            result = play_game(program(chips=chips), agents, seed=game_seed)
            assert result.winners == (1,), chips


def test_minimax_as_p2_moving_first_wins_a_won_position():
    for i, chips in enumerate(_positions(True, 5, seed=8)):
        agents = [RandomAgent(seed=i), MinimaxAgent(seed=i)]
        result = play_game(program(chips=chips, first=2), agents, seed=i)
        assert result.winners == (1,), chips


def test_minimax_only_plays_winning_moves_in_a_won_position():
    for chips in _positions(True, 10, seed=9):
        game = start(chips=chips)
        agent = MinimaxAgent(seed=1)
        for _ in range(5):
            assert agent.choose(game.decision()).label in winning_labels(parse(chips)), chips
