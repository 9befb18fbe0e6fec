"""Kuhn poker and Leduc hold'em (rulesets/kuhn_poker.yaml, leduc_poker.yaml), pinned by scenarios.

Kuhn (Kuhn 1950): cards J < Q < K, one each, ante 1; P1 checks or bets 1; facing a bet a player folds or
calls; check-check or a call goes to a showdown, the higher card taking the pot; one bet at most.
Leduc (Southey et al. 2005): J, Q, K of two suits, one card each, ante 1; two betting rounds, P1 first in
each; raises of 2 chips in the first round and 4 in the second, at most two a round; folding only facing a
raise; a round ends when everyone still in has called since the last raise (or all checked); then a board
card is turned up; at the showdown a card that pairs the board wins, else the higher card, equal cards split.
Payoffs are the chips won less the chips put in. Expected values come from these rules, not from running
the rule files.
"""
from __future__ import annotations

import pytest

from naipes.program import get
from naipes.tools.scenario import arrange

from helpers import RULESETS, choose, labels, start_game

KUHN, LEDUC = str(RULESETS / "kuhn_poker.yaml"), str(RULESETS / "leduc_poker.yaml")


def kuhn(p1: str, p2: str):
    """A hand of Kuhn poker with P1 holding `p1` and P2 `p2` (the third card in the deck), P1 to act."""
    return arrange(start_game(KUHN, 2), zones={"P1.hand": p1, "P2.hand": p2})


def play(game, *moves: str):
    for label in moves:
        choose(game, label)
    return game


def test_kuhn_deals_one_card_each_and_keeps_the_third_hidden() -> None:
    game = start_game(KUHN, 2, seed=3)
    view = game.view(0)
    assert len(view["players"][0]["hand"]) == 1 and view["players"][1]["hand"] == {"count": 1}
    assert view["zones"]["deck"] == {"count": 1}
    assert game.to_move.name == "P1" and labels(game) == ["check", "bet"]


@pytest.mark.parametrize("p1, p2, moves, payoffs", [
    ("K", "Q", ["check", "check"], [1, -1]),  # showdown for the antes
    ("J", "Q", ["check", "check"], [-1, 1]),
    ("J", "K", ["bet", "fold"], [1, -1]),  # a bluff that works: the cards are never compared
    ("K", "J", ["bet", "call"], [2, -2]),  # showdown for 2 each
    ("Q", "K", ["bet", "call"], [-2, 2]),
    ("K", "Q", ["check", "bet", "fold"], [-1, 1]),  # P1 folds the best hand
    ("Q", "J", ["check", "bet", "call"], [2, -2]),
])
def test_kuhn_hands_are_won_and_paid_as_the_rules_say(p1, p2, moves, payoffs) -> None:
    game = play(kuhn(p1, p2), *moves)
    assert game.over and game.payoffs() == payoffs


def test_kuhn_allows_one_bet_and_then_only_fold_or_call() -> None:
    game = play(kuhn("Q", "K"), "check", "bet")
    assert game.to_move.name == "P1" and labels(game) == ["fold", "call"]
    game = play(kuhn("Q", "K"), "bet")
    assert game.to_move.name == "P2" and labels(game) == ["fold", "call"]


def leduc(p1: str, p2: str, board: str):
    """A hand of Leduc with P1 holding `p1`, P2 `p2`, and `board` the next card of the deck, P1 to act."""
    game = start_game(LEDUC, 2)
    rest = [c for c in ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"] if c not in (p1, p2, board)]
    return arrange(game, zones={"P1.hand": p1, "P2.hand": p2, "deck": " ".join(rest + [board])}, spare="board")


def test_leduc_starts_with_check_or_bet_and_folds_only_facing_a_raise() -> None:
    game = leduc("Jh", "Kh", "Qh")
    assert labels(game) == ["check", "bet"]
    play(game, "bet")
    assert labels(game) == ["fold", "call", "raise"]


def test_leduc_allows_two_raises_a_round() -> None:
    game = play(leduc("Jh", "Kh", "Qh"), "bet", "raise")
    assert game.to_move.name == "P1" and labels(game) == ["fold", "call"]
    puts = [get(p, "put") for p in game.memory.players]
    assert puts == [3, 5]  # ante 1, then 2 and 2 more


def test_leduc_turns_up_the_board_after_the_first_round_and_p1_opens_the_second() -> None:
    game = play(leduc("Jh", "Kh", "Qs"), "check", "check")
    assert game.view(0)["zones"]["board"] == ["Qs"] and game.to_move.name == "P1" and labels(game) == ["check", "bet"]
    game = play(leduc("Jh", "Kh", "Qs"), "check", "bet", "call")  # a raise called ends the round too
    assert game.view(1)["zones"]["board"] == ["Qs"] and game.to_move.name == "P1"


def test_leduc_raises_four_in_the_second_round() -> None:
    game = play(leduc("Jh", "Kh", "Qs"), "check", "check", "bet")
    assert [get(p, "put") for p in game.memory.players] == [5, 1]


@pytest.mark.parametrize("p1, p2, board, payoffs", [
    ("Jh", "Kh", "Js", [1, -1]),  # a pair with the board beats the king
    ("Qh", "Kh", "Js", [-1, 1]),  # no pair: the higher card
    ("Qh", "Qs", "Kh", [0, 0]),  # equal cards split the pot
    ("Kh", "Js", "Jh", [-1, 1]),
])
def test_leduc_showdowns(p1, p2, board, payoffs) -> None:
    game = play(leduc(p1, p2, board), "check", "check", "check", "check")
    assert game.over and game.payoffs() == payoffs


def test_leduc_a_fold_gives_the_pot_and_the_most_a_hand_can_cost_is_13() -> None:
    game = play(leduc("Jh", "Kh", "Qs"), "bet", "fold")
    assert game.over and game.payoffs() == [1, -1]  # P2 loses its ante, the cards never shown
    game = play(leduc("Jh", "Kh", "Qs"), "bet", "raise", "call", "bet", "raise", "call")
    assert game.over and game.payoffs() == [-13, 13]  # 1 + 2 + 2 + 4 + 4 each, the king wins
