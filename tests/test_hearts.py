"""Hearts (rulesets/hearts.yaml; docs/games/hearts.md), pinned by scenarios and random games.

Four players, 52 cards, 13 each, no trumps; the ace is high.  Before each hand every player passes three
cards: hand 1 to the left (the next player), 2 to the right, 3 across, 4 none, then again; asked seat by seat,
the cards chosen stay hidden from the others until all four have chosen.  The holder of the 2 of clubs leads
it; follow suit if you can; on the first trick nobody may play a heart or the queen of spades unless he holds
nothing else; hearts may not be led until a heart has been played (or the leader holds only hearts); the
queen of spades may be led any time.  The highest card of the suit led takes the trick.  Each heart taken
costs 1, the queen of spades 13; a player who takes all 26 shoots the moon: 0 for him, 26 for each other
player (param moon=subtract: -26 for him, 0 for the others).  When a hand leaves anyone at 100 or more, the
lowest total wins (ties all win).

Card names: rank (J, Q, K, A for 11 to 14) + suit initial: 2c, 10d, Qs, Ah.  Expected values come from the
rules above, not from running the rule file.
"""
from __future__ import annotations

import re

import pytest

from naipes.agents.registry import RandomAgent
from naipes.tools.scenario import arrange, player, zone

from helpers import RULESETS, V, choose, labels, names, start_game, unask

HEARTS = str(RULESETS / "hearts.yaml")
SEATS = ["P1", "P2", "P3", "P4"]
FACES = {11: "J", 12: "Q", 13: "K", 14: "A"}


def start(seed=0, **params):
    return start_game(HEARTS, 4, seed, **params)


def card_name(rank, suit):
    return FACES.get(rank, str(rank)) + suit[0]


def penalty(name):
    return 13 if name == "Qs" else 1 if name.endswith("h") else 0


def on_table(hands, trick="", *, leader="P1", broken=False, tricks_played=1, won=None, to_move=True,
             settle=False, **params):
    """A trick in progress: `trick` played in turn from `leader`; the next player is asked to play.

    `tricks_played`: tricks taken earlier this hand (0: this is the first trick)."""
    game = unask(start(**params))
    n = len(trick.split())
    mover = SEATS[(SEATS.index(leader) + n) % 4]
    zones = {f"{p}.hand": hands.get(p, "") for p in SEATS}
    zones.update({f"{p}.won": (won or {}).get(p, "") for p in SEATS})
    zones["trick"] = trick
    state = {"phase": "'play'", "leader": f"players[{SEATS.index(leader)}]", "turn": f"players[{SEATS.index(mover)}]",
             "hearts_broken": str(broken), "played": "[(seating(leader)[i], c) for i, c in enumerate(trick)]"}
    tricks = {f"{p}.tricks": str(tricks_played if p == leader else 0) for p in SEATS}
    return arrange(game, zones=zones, state=state, player_state=tricks,
                   to_move=(mover, "play") if to_move and n < 4 else None, settle=settle)


def score_hand(won, *, totals=None, round_number=1, **params):
    """The end of a hand: the given won piles (the other cards in P4's), totals before it; let the rules count."""
    game = unask(start(**params))
    zones = {f"{p}.hand": "" for p in SEATS}
    zones.update({f"{p}.won": won.get(p, "") for p in SEATS})
    zones["trick"] = ""
    ps = {f"{p}.score": str((totals or {}).get(p, 0)) for p in SEATS}
    arrange(game, zones=zones, player_state=ps)
    arrange(game, zones={"stock": ""}, spare="P4.hand")
    return arrange(game, state={"phase": "'score'", "round_number": str(round_number)}, settle=True)


def announcements(game):
    """The texts the game announces from now on (a list that grows as it plays)."""
    texts = []
    game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    return texts


def totals(game):
    return {p.name: p.score for p in game.memory.players}


def hand_points(game):
    return {p.name: p.points for p in game.memory.players}


def pass_three(game):
    """Everyone passes the first card offered, three times over; the names each passed."""
    passed = {p.name: [] for p in game.memory.players}
    for _ in range(12):
        assert game.decision().moves == ("pass_card",)
        option = game.options()[0]
        passed[game.to_move.name].append(option.arg.name)
        game.apply(option)
    assert all(len(cards) == 3 for cards in passed.values())
    return passed


def deal_hand(game, round_number):
    """End the current hand at once and let the rules deal hand `round_number`."""
    return arrange(unask(game), state={"phase": "'score'", "round_number": str(round_number - 1)}, settle=True)


# ======================================================================= deck
def test_the_french_deck_of_52_with_26_penalty_points():
    game = start()
    every = [c for z in game.memory.zones for c in z]
    assert sorted(c.name for c in every) == sorted(card_name(r, s) for r in range(2, 15)
                                                    for s in ["clubs", "diamonds", "spades", "hearts"])
    assert sum(penalty(c.name) for c in every) == 26
    assert all(len(p.hand) == 13 for p in game.memory.players)


# ================================================================== the pass
@pytest.mark.parametrize("round_number, direction, receivers", [
    (1, "left", {"P1": "P2", "P2": "P3", "P3": "P4", "P4": "P1"}),
    (2, "right", {"P1": "P4", "P2": "P1", "P3": "P2", "P4": "P3"}),
    (3, "across", {"P1": "P3", "P2": "P4", "P3": "P1", "P4": "P2"}),
    (5, "left", {"P1": "P2", "P2": "P3", "P3": "P4", "P4": "P1"}),
    (6, "right", {"P1": "P4", "P2": "P1", "P3": "P2", "P4": "P3"}),
    (7, "across", {"P1": "P3", "P2": "P4", "P3": "P1", "P4": "P2"}),
])
def test_the_pass_goes_left_right_across_by_hand_number(round_number, direction, receivers):
    game = start(seed=round_number)
    if round_number > 1:
        deal_hand(game, round_number)
    texts = announcements(game)
    assert V(game)["phase"] == "pass" and V(game)["round_number"] == round_number
    before = {p.name: names(p.hand) for p in game.memory.players}
    passed = pass_three(game)
    for giver, receiver in receivers.items():
        hand = names(player(game, receiver).hand)
        assert set(passed[giver]) <= set(hand)
        kept = set(before[receiver]) - set(passed[receiver])
        assert set(hand) == kept | set(passed[giver])
    assert f"The cards are passed {direction}" in texts
    assert V(game)["phase"] == "play"


@pytest.mark.parametrize("round_number", [4, 8])
def test_no_pass_on_every_fourth_hand(round_number):
    game = deal_hand(start(), round_number)
    assert V(game)["phase"] == "play"
    assert game.to_move is next(p for p in game.memory.players if "2c" in names(p.hand))
    assert labels(game) == ["2c"]


def test_everyone_passes_at_once_a_card_at_a_time():
    game = start(seed=3)
    order = []
    while V(game)["phase"] == "pass":
        order.append(game.to_move.name)
        game.apply(game.options()[-1])
    assert order == ["P1", "P2", "P3", "P4"] * 3


def test_a_card_chosen_is_seen_by_nobody_else_and_passed_when_everyone_has_chosen_three():
    game = start(seed=4)
    first = game.options()[0].arg.name
    game.apply(game.options()[0])
    # P1's choice is held: not yet in his passing zone, and nobody is told of it
    assert names(player(game, "P1").passing) == [] and game.view(1)["answered"] == ["P1"]
    for _ in range(3):
        game.apply(game.options()[0])
    chosen = [first]
    for _ in range(2):  # rounds 2 and 3, as far as P1's last choice
        assert game.to_move.name == "P1"
        chosen.append(game.options()[0].arg.name)
        game.apply(game.options()[0])
        if len(chosen) < 3:
            for _ in range(3):
                game.apply(game.options()[0])
    assert names(player(game, "P1").passing) == sorted(chosen[:2]), "the last choice is held until all have made it"
    for seat in (1, 2, 3):
        shown = str(game.view(seat))
        assert not any(re.search(rf"'{name}'", shown) for name in chosen), (seat, chosen)
    assert all(re.search(rf"'{name}'", str(game.view(0))) for name in chosen)
    # P2 (the receiver) still holds only his own 13 (less his own two chosen) until the last player has chosen
    assert len(player(game, "P2").hand) == 11 and not set(chosen) & set(names(player(game, "P2").hand))
    for _ in range(3):
        game.apply(game.options()[0])
    assert V(game)["phase"] == "play" and set(chosen) <= set(names(player(game, "P2").hand))


def test_pass_count_is_a_param():
    game = start(pass_count="0")
    assert V(game)["phase"] == "play" and labels(game) == ["2c"]


# ================================================================ legal plays
@pytest.mark.parametrize("hands, trick, first, broken, legal", [
    # the holder of the 2 of clubs leads it to the first trick
    ({"P1": "2c 3c Ah Qs"}, "", True, False, {"2c"}),
    # follow suit if you can
    ({"P2": "9c Kc 3h Qs"}, "2c", True, False, {"9c", "Kc"}),
    ({"P2": "9d Kc 3h Qs"}, "5d", False, False, {"9d"}),
    # void on the first trick: no heart and not the queen of spades
    ({"P2": "9d 3h Qs As"}, "2c", True, False, {"9d", "As"}),
    # void on the first trick with nothing but points: any of them
    ({"P2": "3h Qs 5h"}, "2c", True, False, {"3h", "Qs", "5h"}),
    # void later: anything, points included
    ({"P2": "9d 3h Qs"}, "5c", False, False, {"9d", "3h", "Qs"}),
    # leading before hearts are broken: no heart
    ({"P1": "9d 3h Qs 4h"}, "", False, False, {"9d", "Qs"}),
    # ... unless nothing but hearts
    ({"P1": "3h 4h"}, "", False, False, {"3h", "4h"}),
    # once broken, any card leads
    ({"P1": "9d 3h Qs"}, "", False, True, {"9d", "3h", "Qs"}),
])
def test_legal_plays(hands, trick, first, broken, legal):
    game = on_table(hands, trick, broken=broken, tricks_played=0 if first else 1)
    assert set(labels(game)) == legal


def test_points_on_the_first_trick_is_a_param():
    game = on_table({"P2": "9d 3h Qs"}, "2c", tricks_played=0, first_trick_points="true")
    assert set(labels(game)) == {"9d", "3h", "Qs"}


def test_a_heart_played_breaks_hearts():
    game = on_table({"P4": "2h 9d", "P1": "6c"}, "5c", leader="P3")
    choose(game, "2h")      # void in clubs after the first trick: a heart may be played, and breaks hearts
    assert V(game)["hearts_broken"] is True


def test_hearts_may_be_led_once_broken_by_an_earlier_trick():
    game = on_table({"P1": "5c", "P2": "9d 2h", "P3": "8c", "P4": "9c 3d 4h"}, "", leader="P1")
    assert not V(game)["hearts_broken"]
    choose(game, "5c")
    choose(game, "2h")             # void in clubs: a heart
    choose(game, "8c")
    choose(game, "9c")             # P4 takes the trick with 9c and leads
    assert game.to_move.name == "P4" and V(game)["hearts_broken"]
    assert names(player(game, "P4").won) == ["2h", "5c", "8c", "9c"]
    assert set(labels(game)) == {"3d", "4h"}


def test_the_queen_of_spades_does_not_break_hearts():
    game = on_table({"P1": "5s", "P2": "9d", "P3": "Qs 3c", "P4": "4d Kh 6c"}, "", leader="P1")
    for card in ("5s", "9d", "Qs", "4d"):
        choose(game, card)
    assert names(player(game, "P3").won) == ["4d", "5s", "9d", "Qs"]   # the queen takes her own trick
    assert V(game)["hearts_broken"] is False and game.to_move.name == "P3"


# ============================================================== trick winners
@pytest.mark.parametrize("trick, leader, winner", [
    ("5c Kc 2c 9c", "P1", "P2"),
    ("5c Ah As 9c", "P1", "P4"),    # aces of other suits do not take a club trick: no trumps
    ("Ad Kd Qd Jd", "P1", "P1"),    # the ace is high
    ("2h 3h 10h 4s", "P3", "P1"),   # from P3: P3 2h, P4 3h, P1 10h, P2 4s
])
def test_the_highest_card_of_the_suit_led_takes_the_trick(trick, leader, winner):
    filler = {"P1": "7d", "P2": "8d", "P3": "9d", "P4": "10d"}
    game = on_table(filler, trick, leader=leader, tricks_played=0, to_move=False, settle=True)
    w = player(game, winner)
    assert w.tricks == 1 and sum(p.tricks for p in game.memory.players) == 1
    assert names(w.won) == sorted(trick.split())
    assert game.to_move is w


# ====================================================================== count
def test_a_heart_costs_1_and_the_queen_of_spades_13():
    game = score_hand({"P1": "2h 3h Ac", "P2": "Qs 4h", "P3": "Ks", "P4": "5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"})
    assert hand_points(game) == {"P1": 2, "P2": 14, "P3": 0, "P4": 10}
    assert totals(game) == {"P1": 2, "P2": 14, "P3": 0, "P4": 10}


ALL_POINTS = "Qs " + " ".join(card_name(r, "hearts") for r in range(2, 15))


def test_shooting_the_moon_gives_26_to_each_other_player():
    game = score_hand({"P3": ALL_POINTS}, totals={"P1": 10, "P2": 20, "P3": 30, "P4": 40})
    assert hand_points(game) == {"P1": 26, "P2": 26, "P3": 0, "P4": 26}
    assert totals(game) == {"P1": 36, "P2": 46, "P3": 30, "P4": 66}


def test_shooting_the_moon_with_subtract_takes_26_off_the_shooter():
    game = score_hand({"P2": ALL_POINTS}, totals={"P1": 10, "P2": 20, "P3": 30, "P4": 40}, moon="subtract")
    assert totals(game) == {"P1": 10, "P2": -6, "P3": 30, "P4": 40}


def test_25_points_is_not_the_moon():
    game = score_hand({"P2": ALL_POINTS.replace(" 2h", ""), "P1": "2h"})
    assert totals(game) == {"P1": 1, "P2": 25, "P3": 0, "P4": 0}


# ================================================================ end of match
def test_the_match_goes_on_below_100():
    game = score_hand({"P1": "Qs"}, totals={"P1": 86})
    assert totals(game)["P1"] == 99 and not game.over
    assert V(game)["round_number"] == 2 and V(game)["phase"] == "pass"


def test_at_100_the_lowest_total_wins():
    game = score_hand({"P1": "Qs", "P2": "2h"}, totals={"P1": 87, "P2": 50, "P3": 60, "P4": 40})
    assert totals(game) == {"P1": 100, "P2": 51, "P3": 60, "P4": 40}
    assert game.over and game.winners == (3,)
    assert game.payoffs() == [-100, -51, -60, -40]


def test_ties_at_the_lowest_total_all_win():
    game = score_hand({"P1": "Qs 2h"}, totals={"P1": 90, "P2": 40, "P3": 40, "P4": 41})
    assert game.over and game.winners == (1, 2)


def test_a_moon_can_end_the_match():
    game = score_hand({"P4": ALL_POINTS}, totals={"P1": 80, "P2": 20, "P3": 30, "P4": 90})
    assert game.over and totals(game) == {"P1": 106, "P2": 46, "P3": 56, "P4": 90} and game.winners == (1,)


def test_the_target_is_a_param():
    game = score_hand({"P1": "Qs"}, target="10")
    assert game.over and game.winners == (1, 2, 3)


# =============================================================== random games
def reference_legal(hand, trick, first_trick, broken):
    """The Hearts rules, written out: the names of the cards of `hand` that may be played."""
    if first_trick and not trick:
        return {"2c"}
    if trick:
        follow = [c for c in hand if c.suit == trick[0].suit]
        if follow:
            return {c.name for c in follow}
        if first_trick:
            return {c.name for c in hand if penalty(c.name) == 0} or {c.name for c in hand}
        return {c.name for c in hand}
    return {c.name for c in hand if broken or c.suit != "hearts"} or {c.name for c in hand}


def test_random_games_keep_every_rule():
    for seed in range(2):
        game = start(seed)
        agents = [RandomAgent(seed * 10 + i) for i in range(4)]
        ids = sorted(c.id for z in game.memory.zones for c in z)
        texts = announcements(game)
        broken, hands = False, 0
        while not game.over:
            assert sorted(c.id for z in game.memory.zones for c in z) == ids
            decision = game.decision()
            p = game.memory.players[decision.player]
            trick = list(zone(game, "trick"))
            if decision.moves == ("play",):
                first = sum(q.tricks for q in game.memory.players) == 0
                if first and not trick:
                    broken = False
                assert {o.label for o in decision.options} == reference_legal(list(p.hand), trick, first, broken)
            else:
                assert decision.moves == ("pass_card",)
            choice = agents[decision.player].choose(decision)
            if choice.move == "play" and choice.arg.suit == "hearts":
                broken = True
            before = len(texts)
            game.apply(choice)
            took = [int(m.group(1)) for t in texts[before:] if (m := re.match(r"P\d takes (\d+) points?,", t))]
            if took:   # a hand counted: 26 in all, or a moon (0 + 3 x 26)
                hands += 1
                assert sum(took) in (26, 78)
        assert hands >= 2 and max(p.score for p in game.memory.players) >= 100
        lowest = min(p.score for p in game.memory.players)
        assert game.winners == tuple(p.index for p in game.memory.players if p.score == lowest)
