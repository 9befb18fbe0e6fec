"""The Brisca and Hearts strategies, pinned by the choices they make in given positions.

strategies/brisca/basic.yaml always makes the exchange; it leads the cheapest card to lose (a plain card
without points, the weakest first; trumps last); under its own side's trick it loads its best plain counting
card when last, else keeps quiet; against the other side, when last, it takes the trick whenever the trick's
points and its own card outweigh what the card costs (a trump is worth keeping), with players still to come
it takes a trick of 10 points or more; otherwise it gives the cheapest card.  strategies/hearts/basic.yaml
passes the most dangerous cards (the queen of spades, the ace and king of spades, hearts from the highest);
it leads its lowest card, follows with the highest card that does not take the trick, takes an unavoidable
trick as the last player with its highest card, and when void unloads the most dangerous card.

Positions come from the games' own test helpers (``on_table``: a trick in progress).  Expected choices come
from the strategies' rules as documented in their files, not from running them.
"""
from __future__ import annotations

from functools import cache

import pytest

from naipes.agents.registry import load_strategy, strategy_agent

from helpers import STRATEGIES, program
from test_brisca import BRISCA
from test_brisca import on_table as brisca_table
from test_hearts import HEARTS
from test_hearts import on_table as hearts_table
from test_hearts import start as hearts_start


@cache
def strategy(game):
    return load_strategy(STRATEGIES / game / "basic.yaml", program(BRISCA if game == "brisca" else HEARTS))


def decide(game, position):
    """(label of the chosen option, rule that chose it) of the basic level, for the player to move."""
    agent = strategy_agent(strategy(game), 0)
    decision = position.decision()
    agent.attach(position, decision.player)
    option, rule = agent.decide(decision)
    return option.label, rule


# ======================================================================= Brisca (trump oros: 5o turned up)
@pytest.mark.parametrize("hands, trick, leader, players, chosen, rule", [
    # leading: a plain card without points before a counting card or a trump
    ({"P1": "1c 4b 7o"}, "", "P1", 2, "4b", "lead_the_cheapest_card"),
    # last, a 3 led: the as of its suit takes 10 + 11 points at no cost
    ({"P2": "1c 4b 4o"}, "3c", "P1", 2, "1c", "take_it_as_the_last"),
    # last, a worthless card led: no trump spent on it, the weakest plain card given
    ({"P2": "4o 6e 5b"}, "4c", "P1", 2, "5b", "give_the_cheapest_card"),
    # four players: the partner (P2) holds the trick and P4 plays last: load it with the 3
    ({"P4": "12e 3b 4o"}, "4c 1c 5c", "P1", 4, "3b", "load_the_partners_trick"),
    # four players: the partner (P1) holds it with a player to come: keep quiet
    ({"P3": "12e 3b 4o"}, "1c 4c", "P1", 4, "12e", "keep_quiet_under_the_partner"),
    # four players, a rich trick held by the other side, players to come: take it with a trump
    ({"P2": "4e 6b 4o"}, "1c", "P1", 4, "4o", "take_a_rich_trick"),
])
def test_brisca_basic_plays(hands, trick, leader, players, chosen, rule):
    position = brisca_table(hands, trick, leader=leader, players=players)
    assert decide("brisca", position) == (chosen, rule)


def test_brisca_basic_always_makes_the_exchange():
    position = brisca_table({"P1": "7o 4b 6c"}, turnup="1o")
    assert decide("brisca", position) == ("exchange 7o for 1o", "exchange_when_allowed")


# ======================================================================= Hearts
@pytest.mark.parametrize("hands, trick, leader, chosen, rule", [
    # leading: the lowest card
    ({"P1": "5h 4d 7c Qs"}, "", "P1", "4d", "lead_the_lowest_card"),
    # following: the highest card that stays under the 9
    ({"P2": "10c 8c 2c Ah"}, "9c", "P1", "8c", "duck_with_the_highest_card_that_loses"),
    # last, every club takes it: take it with the highest, keeping the low ones
    ({"P4": "9c Jc 2d"}, "5c 6c 7c", "P1", "Jc", "take_it_with_the_highest_card_as_the_last"),
    # not last, every club takes it: the lowest
    ({"P2": "9c Jc 2d"}, "5c", "P1", "9c", "take_it_with_the_lowest_card"),
    # void: the queen of spades first
    ({"P2": "Kh Qs 2d"}, "5c", "P1", "Qs", "unload_the_most_dangerous_card"),
    # void without the queen: the ace of spades (it would catch her) before a heart
    ({"P2": "Kh As 2d"}, "5c", "P1", "As", "unload_the_most_dangerous_card"),
])
def test_hearts_basic_plays(hands, trick, leader, chosen, rule):
    position = hearts_table(hands, trick, leader=leader, broken=True)
    assert decide("hearts", position) == (chosen, rule)


def test_hearts_basic_passes_the_queen_then_the_high_spades_then_the_highest_heart():
    game = hearts_start()
    assert game.decision().moves == ("pass_card",)
    hand = [c.name for c in game.to_move.hand]
    passed = []
    for _ in range(3):  # everyone passes at once: P1, then the others, three times
        label, rule = decide("hearts", game)
        assert rule == "pass_the_most_dangerous_card"
        passed.append(label.removeprefix("pass "))
        game.apply(next(o for o in game.options() if o.label == label))
        for _ in range(3):
            game.apply(game.options()[0])
    ranked = sorted(hand, key=danger, reverse=True)
    assert passed == ranked[:3]


def danger(name):
    """The pass order of the strategy's doc: the queen of spades, the ace and king of spades, hearts from the
    highest, then any card from the highest."""
    rank = {"J": 11, "Q": 12, "K": 13, "A": 14}.get(name[:-1]) or int(name[:-1])
    suit = name[-1]
    if name == "Qs":
        return (4, 0)
    if suit == "s" and rank > 12:
        return (3, rank)
    return (2, rank) if suit == "h" else (1, rank)
