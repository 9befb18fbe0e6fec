"""The Truco strategy (strategies/truco/basic.yaml), pinned by the choices it makes in given positions.

It sings envido with 28 or more (real envido with 31), accepts an envido of 2 points with 27, of up to 5
with 29, of more (or a falta envido) with 30; it weighs the hand for the truco (tricks won +2, lost -2, a
card of 3 or better +1, a matador +1 more), sings at 2, raises when answering at 3, accepts at 1, else
refuses.  Following, it beats the table with its cheapest card that does, ties when a parda wins the hand
for its side, else gives its lowest; under its partner's trick it gives its lowest.  Leading, its best
card, except in the first trick with two cards of 3 or better (the second best).

Positions come from tests/test_truco.py's helpers; expected choices come from the strategy's rules as its
header documents them, not from running it.
"""
from __future__ import annotations

from functools import cache

import pytest
from test_truco import PAREJAS, TRUCO, deal, say

from naipes.agents.registry import load_strategy, strategy_agent

from helpers import STRATEGIES, program

STRATEGY = STRATEGIES / "truco" / "basic.yaml"


@cache
def strategy(path):
    return load_strategy(STRATEGY, program(path))


def decide(game, path=TRUCO):
    """(label of the chosen option, rule that chose it) of the basic level, for the player to move."""
    agent = strategy_agent(strategy(path), 0)
    decision = game.decision()
    agent.attach(game, decision.player)
    option, rule = agent.decide(decision)
    return option.label, rule


@pytest.mark.parametrize("hand, chosen, rule", [
    ("7o 6o 4e", "real envido", "sing_real_envido"),        # 33
    ("7o 1o 4e", "envido", "sing_envido"),                   # 28
    ("5o 1o 4e", "1o", "lead_the_best"),                     # 26, nothing of 3 or better: no bet, the best card
    ("3o 3c 4e", "truco", "sing_truco"),                     # two cards of 3 or better
    ("3o 2c 1e", "truco", "sing_truco"),                     # a 3 and a matador
])
def test_the_mano_sings_what_its_cards_say(hand, chosen, rule):
    assert decide(deal({"P1": hand, "P2": "10e 11b 12c"})) == (chosen, rule)


def test_it_leads_its_second_best_with_two_good_cards_once_the_bets_are_done():
    game = say(deal({"P1": "3o 2c 1e", "P2": "10e 11b 12c"}), "truco", "quiero")
    assert decide(game) == ("3o", "lead_the_second_best_first")


@pytest.mark.parametrize("p2, calls, chosen", [
    ("7c 1c 4b", ["envido"], "quiero"),              # 28 >= 27
    ("5c 1c 4b", ["envido"], "no quiero"),           # 26
    ("7c 1c 4b", ["real envido"], "no quiero"),      # 28 < 29 for 3 points
    ("7c 2c 4b", ["real envido"], "quiero"),         # 29 for 3 points
    ("7c 2c 4b", ["falta envido"], "no quiero"),     # 29 < 30
    ("7c 6c 4b", ["envido"], "real envido"),         # 33: raise
])
def test_it_answers_an_envido_by_its_count(p2, calls, chosen):
    game = say(deal({"P1": "10e 11b 12o", "P2": p2}), *calls)
    assert decide(game)[0] == chosen


@pytest.mark.parametrize("p2, chosen", [
    ("4b 5o 6c", "no quiero"),     # nothing
    ("3b 5o 6c", "quiero"),        # one card of 3 or better
    ("1e 3b 6c", "retruco"),       # a matador and a 3: 3
])
def test_it_answers_a_truco_by_its_cards(p2, chosen):
    game = say(deal({"P1": "10e 11e 12o", "P2": p2}), "truco")
    assert decide(game)[0] == chosen


@pytest.mark.parametrize("p2, lead, chosen, rule", [
    ("3b 2o 5c", "12o", "2o", "beat_it_cheaply"),
    ("4b 5o 6c", "12o", "4b", "give_the_lowest"),
])
def test_following_it_beats_cheaply_or_gives_the_lowest(p2, lead, chosen, rule):
    game = say(deal({"P1": f"{lead} 11e 10o", "P2": p2}), lead)
    assert decide(game) == (chosen, rule)


def test_it_ties_rather_than_lose_when_its_first_trick_decides():
    game = say(deal({"P1": "4e 12o 11o", "P2": "3b 12b 5b"}), "4e", "3b", "5b", "11o", "12o")
    assert decide(game) == ("12b", "tie_when_a_parda_wins")


def test_under_the_partners_trick_it_gives_the_lowest():
    game = deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b", "P3": "1e 3o 4o", "P4": "3c 7b 5o"}, players=4)
    say(game, "4e", "4b", "1e")
    # P4's partner P2 does not hold it: P4 cannot beat the 1e and gives the lowest
    assert decide(game, PAREJAS) == ("5o", "give_the_lowest")
    game = deal({"P1": "4e 5e 6e", "P2": "1e 5b 6b", "P3": "4o 3o 2o", "P4": "3c 7b 5o"}, players=4)
    say(game, "4e", "1e", "4o")
    assert decide(game, PAREJAS) == ("5o", "low_under_the_partner")
