"""The Escoba basic strategy, pinned by the choices it makes in given positions.

strategies/escoba/basic.yaml weighs cards by what they bring to the count (1 a card, 1 more an oro, 3 more a
seven and 1 a six, 5 more the 7 de oros; an escoba 10); it plays the card whose best capture gains most (less 4
when what the capture leaves adds up to 5 to 14, sweepable by one card) and takes that capture's cards; with
no capture it lays down a card that leaves the table above 14, the least worth first, then the highest value.

Positions come from the game's own test helper (``on_table``).  Expected choices come from the strategy's
rules as documented in its file, not from running it.
"""
from __future__ import annotations

from functools import cache

import pytest

from naipes.agents.registry import load_strategy, strategy_agent

from helpers import STRATEGIES, choose, program
from test_escoba import ESCOBA, on_table


@cache
def strategy():
    return load_strategy(STRATEGIES / "escoba" / "basic.yaml", program(ESCOBA))


def decide(position):
    """(label of the chosen option, rule that chose it) of the basic level, for the player to move."""
    agent = strategy_agent(strategy(), 0)
    decision = position.decision()
    agent.attach(position, decision.player)
    option, rule = agent.decide(decision)
    return option.label, rule


@pytest.mark.parametrize("hand, table, chosen, rule", [
    # the 7 de oros with the sota (7 + 8): 11 of worth, though the 1 and 5 left are sweepable; the rey's
    # capture of the 5 gains less
    ("7o 4c 12b", "10c 1b 5e", "capture with 7o", "capture_the_most"),
    # 4 + 5 + 6 sweeps the table: an escoba
    ("4c 2e 12o", "5o 6c", "capture with 4c", "capture_the_most"),
    # nothing makes 15: the rey leaves 23 on the table, which nobody sweeps, and is worth least
    ("1c 12b 7e", "12o 3c", "lay 12b down", "lay_down_safely"),
    # nothing makes 15 and every card leaves a sweepable table (5, 14, 11): the least worth, then the highest
    ("1c 12b 7e", "4o", "lay 12b down", "lay_down_safely"),
    # on a 2 the as leaves 3, below any sweep
    ("1c 12b 7e", "2o", "lay 1c down", "lay_down_safely"),
])
def test_the_card_played(hand, table, chosen, rule):
    assert decide(on_table({"P1": hand, "P2": "3b"}, table)) == (chosen, rule)


def test_the_cards_of_the_best_capture_are_taken():
    # 5o: the rey alone (worth 2 + 1) or the sota and the 2 (worth 2 + 1 + 1): the latter, card by card
    game = on_table({"P1": "5o", "P2": "3b"}, "12b 10c 2e 6o")
    choose(game, "capture with 5o")
    first, rule = decide(game)
    assert first in {"take 10c", "take 2e"} and rule == "take_the_best_set"
    choose(game, first)
    assert decide(game) == ({"take 10c", "take 2e"}.difference({first}).pop(), "take_the_best_set")
