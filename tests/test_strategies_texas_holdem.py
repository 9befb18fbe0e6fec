"""The Texas Hold'em strategy (strategies/texas_holdem/basic.yaml), pinned by the choices it makes in given
positions.

Pre-flop it raises the pot with a pair of nines or better or two cards of queen or better, calls up to 4 big
blinds with another pair, two cards adding to 20 or suited adding to 17, and otherwise checks or folds.
After the flop it bets half the pot with two pair or better made with a hole card, the top pair or an
overpair, calls up to half the pot with a lesser pair made with a hole card, and otherwise checks or folds.

Expected choices come from the strategy's rules as its header documents them, not from running it.
"""
from __future__ import annotations

from functools import cache

import pytest
from test_texas_holdem import HOLDEM

from naipes.agents.registry import load_strategy, strategy_agent
from naipes.tools.scenario import arrange

from helpers import STRATEGIES, choose, program, start_game

STRATEGY = STRATEGIES / "texas_holdem" / "basic.yaml"


@cache
def strategy():
    return load_strategy(STRATEGY, program(HOLDEM))


def decide(game):
    """The label of the basic level's choice for the player to move."""
    agent = strategy_agent(strategy(), 0)
    decision = game.decision()
    agent.attach(game, decision.player)
    option, _rule = agent.decide(decision)
    return option.label


def heads_up(p1, p2):
    """Heads-up, hole cards dealt: P1 (the button, the small blind) to act pre-flop."""
    return arrange(start_game(HOLDEM, 2, 0), zones={"P1.hand": p1, "P2.hand": p2})


def on_the_flop(p2, board):
    """P1 called and P2 checked: the flop is `board`, P2 (the big blind) to act first, 4 in the pot."""
    game = heads_up("4c 3d", p2)
    choose(game, "call 1")
    choose(game, "check")
    return arrange(game, zones={"board": board})


@pytest.mark.parametrize("hand, chosen", [
    ("Ah Ad", "raise to 6"),   # the pot: 2 + (3 + 1)
    ("9h 9d", "raise to 6"),
    ("Ks Qd", "raise to 6"),
    ("5h 5d", "call 1"),       # a small pair
    ("Ah 9d", "call 1"),       # 23
    ("9h 8h", "call 1"),       # suited, 17
    ("9h 8d", "fold"),         # 17 offsuit
    ("7c 2d", "fold"),
])
def test_pre_flop_by_the_starting_hand(hand, chosen):
    assert decide(heads_up(hand, "4c 3d")) == chosen


@pytest.mark.parametrize("hand, board, chosen", [
    ("Kd 9c", "Ks 7h 2c", "bet to 2"),     # top pair: half the pot (2, the minimum)
    ("Ad Ac", "Ks 7h 2c", "bet to 2"),     # an overpair
    ("7d 2d", "Ks 7h 2c", "bet to 2"),     # two pair with both hole cards
    ("9d 9c", "Ks 7h 2c", "check"),        # a pair under the top card: no bet
    ("5d 3c", "Ks 7h 2c", "check"),        # nothing
    ("5d 3c", "Ks Kh 2c", "check"),        # the board's pair is not the player's
])
def test_after_the_flop_it_bets_what_it_made(hand, board, chosen):
    assert decide(on_the_flop(hand, board)) == chosen


def test_facing_a_bet_it_calls_a_small_pair_cheaply_and_folds_nothing():
    game = on_the_flop("9d 9c", "Ks 7h 2c")
    choose(game, "check")
    arrange(game, zones={"P1.hand": "9h 9s"})
    assert decide(game) == "check"            # P1 checks behind with the pair too
    game = on_the_flop("5d 3c", "Ks 7h 2c")
    choose(game, "bet to 2")                  # P2 bets; P1 has nothing
    arrange(game, zones={"P1.hand": "4c 3d"})
    assert decide(game) == "fold"
    game = on_the_flop("5d 3c", "Ks 7h 2c")
    choose(game, "bet to 2")
    arrange(game, zones={"P1.hand": "9h 9s"})  # a pair, 2 to call into a pot of 6
    assert decide(game) == "call 2"
