"""Texas Hold'em (rulesets/texas_holdem.yaml, texas_holdem_limit.yaml; docs/games/texas_holdem.md), pinned by
scenarios and random games.

French 52-card deck, two hole cards each and five board cards.  The button moves on each hand; the next
player posts the small blind, the one after him the big blind (heads-up: the button posts the small blind
and acts first pre-flop, last after it).  Pre-flop the player after the big blind acts first; after the flop,
the first player after the button still in.  No-limit: bet sizes min (the big blind, or raise by the last
full raise), half pot, pot (after calling), all-in; an all-in short of a full raise does not reopen the
betting.  Limit: the big blind pre-flop and on the flop, twice it on turn and river; a bet and three raises
a round.  The best five of seven cards: straight flush, four of a kind, full house, flush, straight, three of
a kind, two pair, one pair, high card, then kickers; the ace is low in the wheel (5-4-3-2-A).  Each level of
the all-ins is a pot for those who put in that much; ties split, odd chips to the first winners from the
button's left.  A match of `hands` hands (0: until one player has every chip).

Card names: rank then suit initial, figures by letter: 2c, 10d, Js, Qh, Kc, Ad.  Expected values come from
the rules above, not from running the rule file.
"""
from __future__ import annotations

import random

import pytest

from naipes.tools.scenario import arrange

from helpers import RULESETS, V, choose, labels, start_game, unask

HOLDEM = str(RULESETS / "texas_holdem.yaml")
LIMIT = str(RULESETS / "texas_holdem_limit.yaml")


def seat(game, name):
    return next(p for p in game.memory.players if p.name == name)


def chips(game):
    return {p.name: p.chips for p in game.memory.players}


def asked(game):
    """Who is asked to act."""
    return f"P{game.decision().player + 1}"


def showdown(hands, board, totals, stacks=None, texts=None):
    """A hand at the end of the river: these hole cards and board, `totals` put in by each player (all
    called or all-in, all acted), `stacks` the chips left (default 0). Players not in `hands` have folded.
    The match is one hand, so the game ends once the pots are paid; `texts` gathers the announcements."""
    n = len(totals)
    game = unask(start_game(HOLDEM, n, 0, hands=1))
    if texts is not None:
        game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    names = [f"P{i + 1}" for i in range(n)]
    arrange(game, zones={**{f"{p}.hand": hands.get(p, "") for p in names}, "board": board})
    ps = {}
    for p in names:
        ps.update({f"{p}.pot_put": str(totals[p]), f"{p}.pot_bet": "0", f"{p}.pot_acted": "True",
                   f"{p}.pot_folded": str(p not in hands), f"{p}.chips": str((stacks or {}).get(p, 0))})
    return arrange(game, state={"street": "3", "pot_high": "0", "button": "players[0]"}, player_state=ps,
                   to_move=(), settle=True)


def winner_of(h1, h2, board):
    """Heads-up showdown of 10 chips each: 'P1', 'P2' or 'split' (from the chips each gets back)."""
    game = showdown({"P1": h1, "P2": h2}, board, {"P1": 10, "P2": 10})
    assert game.over
    c = chips(game)
    return "split" if c["P1"] == c["P2"] == 10 else max(c, key=c.get)


# ======================================================================= deck, blinds, who acts
def test_fifty_two_cards_two_each_and_the_blinds_posted():
    game = start_game(HOLDEM, 6, 0)
    every = sorted(c.name for z in game.memory.zones for c in z)
    assert len(every) == 52 and len(set(every)) == 52
    assert all(len(p.hand) == 2 for p in game.memory.players)
    assert len(V(game)["board"]) == 0
    # button P1, small blind P2, big blind P3; P4 (after the big blind) acts first
    assert V(game)["button"].name == "P1"
    assert [(p.pot_bet, p.chips) for p in game.memory.players[:3]] == [(0, 100), (1, 99), (2, 98)]
    assert asked(game) == "P4"
    assert labels(game) == ["fold", "call 2", "raise to 4", "raise to 7", "raise to 100 (all-in)"]


def test_heads_up_the_button_posts_the_small_blind_acts_first_pre_flop_and_last_after():
    game = start_game(HOLDEM, 2, 0)
    assert [p.pot_bet for p in game.memory.players] == [1, 2]
    assert asked(game) == "P1"
    choose(game, "call 1")
    assert asked(game) == "P2"  # the big blind's option
    assert labels(game) == ["check", "raise to 4", "raise to 6", "raise to 100 (all-in)"]
    choose(game, "check")
    assert len(V(game)["board"]) == 3
    assert asked(game) == "P2"  # after the flop the first player after the button


def test_the_big_blind_has_the_option_and_the_button_moves_on():
    game = start_game(HOLDEM, 3, 0)
    assert asked(game) == "P1"  # three-handed the button is first pre-flop
    choose(game, "call 2")
    choose(game, "call 1")
    assert asked(game) == "P3"
    choose(game, "raise to 4")
    assert asked(game) == "P1"  # a full raise reopens the betting
    choose(game, "fold")
    choose(game, "fold")
    # P3 took the pot of 2 + 2 + 4 (100 - 4 + 8 = 104) and posts the small blind of hand 2
    assert chips(game) == {"P1": 96, "P2": 98, "P3": 103}
    # hand 2: the button is P2, P3 posts the small blind, P1 the big blind; P2 acts first
    assert V(game)["button"].name == "P2"
    assert [p.pot_bet for p in game.memory.players] == [2, 0, 1]
    assert asked(game) == "P2"  # three-handed the button acts first pre-flop


def test_after_the_flop_the_first_player_after_the_button_still_in_acts():
    game = start_game(HOLDEM, 4, 0)
    choose(game, "call 2")   # P4
    choose(game, "call 2")   # P1 the button
    choose(game, "fold")     # P2 the small blind
    choose(game, "check")    # P3 the big blind
    assert len(V(game)["board"]) == 3 and asked(game) == "P3"
    choose(game, "check")
    choose(game, "bet to 2")
    assert asked(game) == "P1"
    choose(game, "call 2")
    assert asked(game) == "P3"
    choose(game, "call 2")
    assert len(V(game)["board"]) == 4 and asked(game) == "P3"


# ======================================================================= no-limit sizes and raises
def test_no_limit_sizes_and_min_reraise():
    game = start_game(HOLDEM, 3, 0)
    assert labels(game) == ["fold", "call 2", "raise to 4", "raise to 7", "raise to 100 (all-in)"]
    choose(game, "raise to 7")   # P1 raises by 5
    # P2 (1 in): min to 12 (by 5); half pot: pot after calling 10 + 6 = 16, by 8 to 15; pot: by 16 to 23
    assert labels(game) == ["fold", "call 6", "raise to 12", "raise to 15", "raise to 23", "raise to 100 (all-in)"]
    choose(game, "raise to 15")  # by 8
    assert labels(game)[2] == "raise to 23"  # P3: the minimum re-raise is by 8 more


def test_a_short_all_in_does_not_reopen_the_betting():
    game = start_game(HOLDEM, 3, 0)
    arrange(game, player_state={"P2.chips": "9"})  # the small blind has 10 in all
    choose(game, "raise to 7")                     # P1 raises by 5
    choose(game, "raise to 10 (all-in)")           # P2: a raise by 3, short of a full one
    assert asked(game) == "P3"                     # who has not acted may still raise, by the last full raise
    assert labels(game)[:3] == ["fold", "call 8", "raise to 15"]
    choose(game, "call 8")
    assert asked(game) == "P1" and labels(game) == ["fold", "call 3"]  # P1 acted: call or fold only
    choose(game, "call 3")
    assert len(V(game)["board"]) == 3


# ======================================================================= hand ranks and kickers
@pytest.mark.parametrize("h1, h2, board, expected", [
    # the wheel (5-4-3-2-A) is a straight, and the lowest one
    ("Ah 2c", "Kd Kc", "3s 4d 5h 9c Jd", "P1"),
    ("Ah 2c", "6d 7c", "3s 4d 5h 9c Jd", "P2"),
    # no straight round the corner (Q-K-A-2-3): ace high only
    ("Ah 2c", "9d 9c", "Qs Kd 3h 7c 5d", "P2"),
    # broadway beats a king-high straight
    ("Ah 4c", "9d 2c", "10s Jd Qh Kc 5d", "P1"),
    # a straight flush beats four of a kind
    ("9h 8h", "Ac Ad", "7h 6h 5h As Ah", "P1"),
    # four of a kind: the kicker decides between equal fours on the board
    ("Kd 2c", "Qd Qc", "9s 9d 9h 9c 3d", "P1"),
    # full house: the three decide; two threes make a full house of the higher
    ("Kd Kc", "Qd Qc", "Ks Qs 7h 7c 2d", "P1"),
    ("8d 8c", "2h 3h", "8s 4d 4c 4h Ad", "P1"),
    # a flush against a flush: the highest card, then the next
    ("Ah 2h", "Kh Qh", "9h 7h 4h 2s 3d", "P1"),
    ("Kh 3h", "Kd 2h", "9h 7h 4h Jh 3d", "P1"),
    # a flush beats a straight; a straight beats three of a kind
    ("2h 3h", "Jd 10c", "9h 8h Qs Kh 4d", "P1"),
    ("Jd 10c", "9c 9s", "9h 8h Qs 2d 4d", "P1"),
    # two pair: the higher pair, then the lower, then the kicker; of three pairs the best two and the best kicker
    ("Ad 4c", "Kd Kc", "As 4h 8h 8c 2d", "P1"),
    ("Qd 6c", "Qc 2d", "Qs 9h 9c 5h 4d", "P1"),
    ("Qd 3c", "Qc 2d", "Qs 9h 9c 5h 4d", "split"),
    ("Kd 2c", "Qd Jc", "Ks 7h 7c 2h Qh", "P1"),
    # one pair: the kickers, down to the third
    ("Ad 9c", "Ac 8d", "As Kh Qc 5h 2d", "P1"),
    # high card: all five
    ("Ad 7c", "Ac 6d", "Kh Qc 9h 4d 2s", "P1"),
    # the board plays for both: a split pot
    ("2c 3d", "2d 3c", "Ah Kh Qh Jh 10h", "split"),
    ("Ad 3c", "Ac 2d", "As Kh Qc Jh 9d", "split"),
    # the sixth and seventh cards never count
    ("Ad Qc", "Ac Jd", "As Kh 9c 7h 6d", "P1"),
    ("Ad 2c", "Ac 3d", "As Kh 9c 7h 6d", "split"),
])
def test_hand_ranking_and_kickers(h1, h2, board, expected):
    assert winner_of(h1, h2, board) == expected


def test_the_showdown_names_the_hands():
    texts: list[str] = []
    game = showdown({"P1": "Ah 2c", "P2": "Kd Kc"}, "3s 4d 5h 9c Jd", {"P1": 10, "P2": 10}, texts=texts)
    assert chips(game) == {"P1": 20, "P2": 0}
    assert any(t.startswith("P1 shows") and t.endswith("- straight") for t in texts)
    assert any(t.startswith("P2 shows") and t.endswith("- one pair") for t in texts)
    assert "P1 wins the main pot of 20 with straight" in texts


# ======================================================================= side pots
def test_three_all_ins_of_different_sizes_make_three_pots():
    # P1 all-in for 10, P2 for 30, P3 for 60, P4 calls 60 and has 40 left. Best hands: P1, then P2, then P3.
    hands = {"P1": "Ah Ad", "P2": "Kh Kd", "P3": "Qh Qd", "P4": "3c 2d"}
    game = showdown(hands, "As Ks Qs 7c 8d", {"P1": 10, "P2": 30, "P3": 60, "P4": 60}, stacks={"P4": 40})
    # main pot 4 x 10 = 40 to P1; side pot 3 x 20 = 60 to P2; the next 2 x 30 = 60 to P3
    assert chips(game) == {"P1": 40, "P2": 60, "P3": 60, "P4": 40}


def test_a_side_pot_goes_to_the_best_of_those_in_it():
    # the short stack has the best hand: he wins the main pot only; the side pot goes to the better of the others
    hands = {"P1": "Ah Ad", "P2": "3c 2d", "P3": "Kh Kd"}
    game = showdown(hands, "As Ks 9s 7c 8d", {"P1": 10, "P2": 50, "P3": 50})
    assert chips(game) == {"P1": 30, "P2": 0, "P3": 80}


def test_a_folded_players_chips_stay_in_the_pots():
    hands = {"P1": "Ah Ad", "P3": "Kh Kd"}  # P2 folded after putting in 20
    game = showdown(hands, "As Ks 9s 7c 8d", {"P1": 10, "P2": 20, "P3": 40})
    # P1 all-in for 10: the main pot is 10 from each = 30; the rest (10 + 30) is P3's
    assert chips(game) == {"P1": 30, "P2": 0, "P3": 40}


def test_odd_chips_of_a_split_go_to_the_first_winners_from_the_buttons_left():
    # P1 (the button) folded after putting in 1; P2 and P3 split 21: P2, first from the button's left, gets 11
    hands = {"P2": "2c 3d", "P3": "2d 3c"}
    game = showdown(hands, "Ah Kh Qh Jh 10h", {"P1": 1, "P2": 10, "P3": 10})
    assert chips(game) == {"P1": 0, "P2": 11, "P3": 10}


# ======================================================================= limit
def test_limit_bets_are_fixed_and_capped_at_four_a_round():
    game = start_game(LIMIT, 2, 0)
    # pre-flop the big blind is the first bet: three raises of 2 more
    assert labels(game) == ["fold", "call 1", "raise to 4"]
    choose(game, "raise to 4")
    choose(game, "raise to 6")
    choose(game, "raise to 8")
    assert labels(game) == ["fold", "call 2"]  # capped: the big blind and three raises
    choose(game, "call 2")
    # the flop: bets of 2; the turn and river: bets of 4
    assert labels(game) == ["check", "bet to 2"]
    choose(game, "check")
    choose(game, "check")
    assert labels(game) == ["check", "bet to 4"]
    choose(game, "bet to 4")
    assert labels(game) == ["fold", "call 4", "raise to 8"]


# ======================================================================= the match
def test_a_match_of_a_fixed_number_of_hands():
    game = start_game(HOLDEM, 3, 0, hands=2)
    rng = random.Random(1)
    played = 0
    while not game.over:
        game.apply(rng.choice(game.decision().options))
        played += 1
    assert V(game)["hand_number"] == 2
    assert sum(chips(game).values()) == 300


def test_until_one_player_has_every_chip():
    game = start_game(HOLDEM, 3, 0, hands=0)
    rng = random.Random(2)
    while not game.over:
        game.apply(rng.choice(game.decision().options))
    assert sorted(chips(game).values()) == [0, 0, 300]
    assert [f"P{i + 1}" for i in game.winners] == [max(chips(game), key=chips(game).get)]


def test_limit_a_player_short_of_the_bet_may_go_all_in():
    game = start_game(LIMIT, 2, 0)
    arrange(game, player_state={"P1.chips": "2"})  # the small blind in, 2 behind: short of a raise to 4
    assert labels(game) == ["fold", "call 1", "raise to 3 (all-in)"]
    choose(game, "raise to 3 (all-in)")
    # the big blind calls or folds: nobody is left with chips to answer a raise
    assert labels(game) == ["fold", "call 1"]
