"""The hand-written Pocha of benchmarks/plain_pocha.py plays the rule file's game.

Random matches of rulesets/pocha.yaml (several player counts and seeds, random
seats) drive the plain game with the same choices and the same deal: at every
decision its legal set (bids, or cards by name) must equal the rule file's
options, and the hand size, dealer, player to move and final scores must agree.
A benchmark that compares the two is then a comparison of the same game; the
10-card hands bench_pocha.py races (benchmarks/pocha_hands.yaml) are checked
the same way.
"""
from __future__ import annotations

import random
import sys

import pytest

from naipes.runtime.game import Game

from helpers import ROOT, RULESETS, program

sys.path.insert(0, str(ROOT / "benchmarks"))
from plain_pocha import DEAL, SUITS, PlainPocha, card_name  # noqa: E402


def card_int(card) -> int:
    return SUITS.index(card.suit) * 16 + card.rank


def play_both(players: int, seed: int, rule_file: str, params: tuple) -> tuple[int, list]:
    """One match of both, checked decision by decision; returns the number of decisions and each round's deal
    (the hands, a set of sets of cards)."""
    game = Game(program(rule_file, params), seed, players=players)
    game.start()
    V = game.memory.vars
    plain = PlainPocha(players, [p.index for p in V["seats"]], list(V["schedule"]))
    rng = random.Random(seed)
    decisions, deals = 0, []
    while not game.over:
        if plain.phase == DEAL:
            hands = [[card_int(c) for c in p.hand] for p in game.memory.players]
            deals.append(frozenset(frozenset(hand) for hand in hands))
            assert plain.dealer == V["dealer"].index
            plain.deal(hands, SUITS.index(V["trump"]))
            assert plain.hand_size == V["hand_size"]
        options = game.options()
        assert plain.turn == game.mover.index
        if options[0].move == "bid":
            assert sorted(plain.legal()) == sorted(o.arg for o in options)
        else:
            assert sorted(card_name(c) for c in plain.legal()) == sorted(o.label for o in options)
        option = rng.choice(options)
        plain.apply(option.arg if option.move == "bid" else card_int(option.arg))
        game.apply(option)
        decisions += 1
    assert plain.over
    assert plain.score == [p.score for p in game.memory.players]
    assert sorted(plain.winners) == sorted(game.winners)
    return decisions, deals


@pytest.mark.parametrize("players, seeds, peak", [(4, range(6), 0), (3, range(3), 5), (5, range(3), 0),
                                                  (6, range(3), 4), (7, range(2), 0)])
def test_plain_pocha_legal_sets_equal_the_rule_files(players, seeds, peak):
    rule_file = str(RULESETS / "pocha.yaml")
    assert sum(play_both(players, seed, rule_file, (("peak", str(peak)),))[0] for seed in seeds) > 0


def test_the_benchmarks_random_hands_are_pocha_with_a_new_deal_every_round():
    """bench_pocha.py races the plain Pocha's 10-card hands, each dealt from a new shuffle, against
    benchmarks/pocha_hands.yaml: the same game, and a new deal every round too."""
    for seed in range(3):
        decisions, deals = play_both(4, seed, str(ROOT / "benchmarks" / "pocha_hands.yaml"),
                                     (("cards_each", "10"), ("rounds", "4")))
        assert decisions == 4 * (4 + 40)
        assert len(deals) == len(set(deals)) == 4
