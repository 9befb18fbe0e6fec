"""Cheat (rulesets/cheat.yaml; docs/games/cheat.md), pinned by scenarios and random games.

3 to 5 players, 52 cards all dealt one at a time from the player after the dealer (the last seat; the first ones
get a card more where they do not go round).  The rank due starts at aces and goes up by one every turn, after
kings aces again.  In turn, from the player after the dealer, each puts one to `max_cards` (4) cards face down on
the pile, no more than he holds, claiming they are of the rank due: first how many, then the cards one at a time;
the others hear only the claim.  Then each other player in turn from the claimer's left may call cheat or leave it
to the next; the last one asked calls or lets the claim stand.  Called, the claim's cards are shown to everybody:
if any is not of the rank claimed the claimer takes the whole pile, else the caller does.  Either way the player
after the claimer claims the next rank.  A player whose hand is empty after his claim wins if the claim stands
(let stand, or called and true); the game ends there.

Card names: rank (A, J, Q, K for 1, 11, 12, 13) + suit initial: Ac, 7h, 10d, Qs.  Expected values come from the
rules above, not from running the rule file.
"""
from __future__ import annotations

import pytest

from naipes.agents.knowledge import Knowledge
from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game
from naipes.tools.scenario import arrange, player, zone

from helpers import RULESETS, V, choose, labels, names, program, start_game, unask

CHEAT = str(RULESETS / "cheat.yaml")
WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]
NUMBERS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight"]


def start(players=4, seed=0, **params):
    return start_game(CHEAT, players, seed, **params)


def seats(players):
    return [f"P{i + 1}" for i in range(players)]


def index(name):
    return int(name[1:]) - 1


def claim_label(rank, n):
    """'claim one ace', 'claim two sevens', 'claim three sixes'."""
    word = WORDS[rank - 1]
    return f"claim {NUMBERS[n]} {word}" + ("" if n == 1 else "es" if word == "six" else "s")


def at_claim(hands, *, mover="P1", due=1, pile="", players=4, **params):
    """`mover` to claim rank `due`, the hands and the pile (bottom first) as given."""
    game = unask(start(players, **params))
    zones = {f"{p}.hand": hands.get(p, "") for p in seats(players)}
    zones["pile"] = pile
    state = {"phase": "'play'", "turn": f"players[{index(mover)}]", "due": str(due), "claimer": "None",
             "resolved": "False", "challenger": "None"}
    arrange(game, zones=zones, state=state)
    return arrange(game, to_move=(mover, "claim"))


def claim(game, cards, rank=None):
    """The player to move claims `cards` (names) as cards of the rank due."""
    rank = rank or V(game)["due"]
    cards = cards.split()
    choose(game, claim_label(rank, len(cards)))
    for name in cards:
        choose(game, f"put down {name}")


HANDS = {"P1": "Ac Ad 7d 9s", "P2": "2c 3c", "P3": "4c 5c", "P4": "6c 8c"}


def announcements(game):
    texts = []
    game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    return texts


def decisions(game):
    """The decisions made from now on, as recorded for the table (player, move, choice, public)."""
    made = []
    game.listeners.append(lambda r: made.append(r) if r["type"] == "decision" else None)
    return made


# ======================================================================= deal
@pytest.mark.parametrize("players, sizes", [(3, [18, 17, 17]), (4, [13, 13, 13, 13]), (5, [11, 11, 10, 10, 10])])
def test_the_whole_pack_is_dealt_and_the_player_after_the_dealer_claims_aces(players, sizes):
    game = start(players, seed=players)
    assert [len(p.hand) for p in game.memory.players] == sizes
    assert len({c.name for p in game.memory.players for c in p.hand}) == 52 and len(zone(game, "pile")) == 0
    assert V(game)["dealer"].name == f"P{players}"
    assert game.to_move.name == "P1" and game.decision().moves == ("claim",)
    assert labels(game) == [claim_label(1, n) for n in (1, 2, 3, 4)]


# ===================================================================== claims
@pytest.mark.parametrize("hand, params, sizes", [
    ("Ac 2c 3c 4c 5c 6c", {}, [1, 2, 3, 4]),           # one to four
    ("Ac 2c", {}, [1, 2]),                             # no more than the hand holds
    ("Kc", {}, [1]),
    ("Ac 2c 3c 4c 5c 6c", {"max_cards": "2"}, [1, 2]),  # max_cards
    ("Ac 2c 3c 4c 5c 6c 7c", {"max_cards": "6"}, [1, 2, 3, 4, 5, 6]),
])
def test_a_claim_has_one_to_max_cards_cards_of_the_rank_due(hand, params, sizes):
    game = at_claim({"P2": hand, "P1": "9h"}, mover="P2", due=5, **params)
    assert labels(game) == [claim_label(5, n) for n in sizes]


def test_the_cards_of_a_claim_are_any_cards_chosen_one_at_a_time_and_only_the_claim_is_told():
    game = at_claim(HANDS, due=7, pile="Kh")
    made = decisions(game)
    choose(game, "claim two sevens")
    assert set(labels(game)) == {"put down Ac", "put down Ad", "put down 7d", "put down 9s"}
    choose(game, "put down 9s")
    assert set(labels(game)) == {"put down Ac", "put down Ad", "put down 7d"}   # not the same card twice
    assert len(zone(game, "pile")) == 1                                         # nothing made yet
    choose(game, "put down 7d")
    assert names(zone(game, "pile")) == ["7d", "9s", "Kh"] and [c.name for c in zone(game, "pile")][0] == "Kh"
    assert names(player(game, "P1").hand) == ["Ac", "Ad"]
    assert V(game)["claimer"].name == "P1" and V(game)["claimed"] == 7 and V(game)["claim_size"] == 2
    assert [r["public"] for r in made] == ["", "", "claims two sevens"]
    # nobody else sees the cards: the pile is face down
    for seat in (1, 2, 3):
        assert game.view(seat)["zones"]["pile"] == {"count": 3}
    assert game.to_move.name == "P2"


@pytest.mark.parametrize("claimer, order", [("P1", ["P2", "P3", "P4"]), ("P3", ["P4", "P1", "P2"])])
def test_the_others_are_asked_in_turn_from_the_claimers_left_the_last_may_let_it_stand(claimer, order):
    game = at_claim(HANDS, mover=claimer)
    claim(game, HANDS[claimer].split()[0])
    for asked, following in zip(order[:-1], order[1:]):
        assert game.to_move.name == asked and labels(game) == ["cheat!", f"leave it to {following}"]
        choose(game, f"leave it to {following}")
    assert game.to_move.name == order[-1] and labels(game) == ["cheat!", "let it stand"]


@pytest.mark.parametrize("due, next_due", [(1, 2), (6, 7), (10, 11), (12, 13), (13, 1)])
def test_a_claim_let_stand_stays_on_the_pile_and_the_next_player_claims_the_next_rank(due, next_due):
    game = at_claim(HANDS, due=due, pile="Kh")
    claim(game, "Ac 9s")
    choose(game, "leave it to P3")
    choose(game, "leave it to P4")
    choose(game, "let it stand")
    assert names(zone(game, "pile")) == ["9s", "Ac", "Kh"] and V(game)["claimer"] is None
    assert V(game)["due"] == next_due and game.to_move.name == "P2"
    assert labels(game) == [claim_label(next_due, n) for n in (1, 2)]


def test_the_rank_goes_round_the_table_a_rank_a_turn():
    game = at_claim({"P1": "Ac 2c 3c", "P2": "4c 5c 6c", "P3": "7c 8c 9c", "P4": "10c Jc Qc"}, due=11)
    expected = [(11, "P1"), (12, "P2"), (13, "P3"), (1, "P4"), (2, "P1")]
    for rank, mover in expected:
        assert game.to_move.name == mover and labels(game)[0] == claim_label(rank, 1)
        claim(game, names(player(game, mover).hand)[0])
        while game.decision().moves != ("claim",):
            choose(game, labels(game)[-1])      # leave it, and let it stand


# ================================================================ challenges
def test_a_true_claim_called_sends_the_whole_pile_to_the_caller():
    game = at_claim(HANDS, pile="5h 9d")
    texts = announcements(game)
    claim(game, "Ac Ad")
    choose(game, "leave it to P3")
    choose(game, "cheat!")                  # P3
    assert "shown from pile: Ac, Ad" in texts
    assert "The claim was true: P3 takes the pile, 4 cards" in texts
    assert names(player(game, "P3").hand) == ["4c", "5c", "5h", "9d", "Ac", "Ad"]
    assert names(player(game, "P1").hand) == ["7d", "9s"] and len(zone(game, "pile")) == 0
    assert V(game)["due"] == 2 and game.to_move.name == "P2" and game.decision().moves == ("claim",)


@pytest.mark.parametrize("cards", ["Ac 7d", "9s", "7d 9s"])
def test_a_false_claim_called_sends_the_whole_pile_to_the_claimer(cards):
    game = at_claim(HANDS, pile="5h 9d")
    texts = announcements(game)
    claim(game, cards)
    choose(game, "cheat!")                  # P2
    assert f"shown from pile: {', '.join(cards.split())}" in texts
    assert f"The claim was a lie: P1 takes the pile, {2 + len(cards.split())} cards" in texts
    assert names(player(game, "P1").hand) == sorted(HANDS["P1"].split() + ["5h", "9d"])
    assert names(player(game, "P2").hand) == ["2c", "3c"] and len(zone(game, "pile")) == 0
    assert V(game)["due"] == 2 and game.to_move.name == "P2" and game.decision().moves == ("claim",)


def test_the_last_one_asked_may_call():
    game = at_claim(HANDS)
    texts = announcements(game)
    claim(game, "7d")
    choose(game, "leave it to P3")
    choose(game, "leave it to P4")
    choose(game, "cheat!")
    assert "The claim was a lie: P1 takes the pile, 1 card" in texts
    assert names(player(game, "P1").hand) == sorted(HANDS["P1"].split())
    assert names(player(game, "P4").hand) == ["6c", "8c"]


def test_the_cards_called_are_shown_to_every_seat_and_only_they():
    game = at_claim(HANDS, pile="5h 9d")
    knowledge = Knowledge(game, 2)          # P3's: what his search agents know
    ids = {c.name: c.id for z in game.memory.zones for c in z}
    claim(game, "Ac 7d")
    assert ids["Ac"] not in knowledge.known and ids["7d"] not in knowledge.known
    choose(game, "leave it to P3")
    choose(game, "leave it to P4")
    choose(game, "cheat!")                  # P4: a lie, P1 takes the pile
    hand_slot = player(game, "P1").hand.slot
    assert knowledge.known[ids["Ac"]] == hand_slot and knowledge.known[ids["7d"]] == hand_slot
    assert ids["5h"] not in knowledge.known and ids["9d"] not in knowledge.known   # the rest of the pile stays unseen


# ===================================================================== the end
def test_the_last_card_claimed_and_let_stand_wins():
    game = at_claim({"P1": "7c", "P2": "2c 3c", "P3": "4c", "P4": "6c"}, pile="5h")
    texts = announcements(game)
    claim(game, "7c")                       # a lie, but nobody calls it
    choose(game, "leave it to P3")
    choose(game, "leave it to P4")
    assert not game.over
    choose(game, "let it stand")
    assert game.over and game.winners == (0,) and game.payoffs() == [1, 0, 0, 0]
    assert "P1 has no cards left and wins" in texts


def test_the_last_card_claimed_truly_and_called_wins_and_the_caller_takes_the_pile():
    game = at_claim({"P1": "2c 3c", "P2": "Ah", "P3": "4c", "P4": "6c"}, mover="P2", pile="5h")
    claim(game, "Ah")
    choose(game, "leave it to P4")          # P3
    choose(game, "cheat!")                  # P4
    assert game.over and game.winners == (1,) and game.payoffs() == [0, 1, 0, 0]
    assert names(player(game, "P4").hand) == ["5h", "6c", "Ah"]


def test_the_last_card_claimed_falsely_and_called_goes_back_with_the_pile():
    game = at_claim({"P1": "7c", "P2": "2c 3c", "P3": "4c", "P4": "6c"}, pile="5h")
    claim(game, "7c")
    choose(game, "cheat!")                  # P2
    assert not game.over and names(player(game, "P1").hand) == ["5h", "7c"]
    assert game.to_move.name == "P2" and labels(game) == [claim_label(2, 1), claim_label(2, 2)]


# =============================================================== random games
@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3)])
def test_random_games_keep_every_rule(players, seed):
    game = Game(program(CHEAT), seed, players=players)
    game.start()
    agents = [RandomAgent(seed * 10 + i) for i in range(players)]
    every = sorted(c.id for z in game.memory.zones for c in z)
    due, claims, calls, put = 1, 0, 0, []
    while not game.over:
        assert sorted(c.id for z in game.memory.zones for c in z) == every
        decision = game.decision()
        p = game.memory.players[decision.player]
        offered = [o.label for o in decision.options]
        if offered[0].startswith("claim"):
            assert offered == [claim_label(due, n) for n in range(1, min(4, len(p.hand)) + 1)]
            put = []
        elif offered[0].startswith("put down"):
            assert sorted(offered) == sorted(f"put down {n}" for n in names(p.hand) if n not in put)
        else:
            claimer = V(game)["claimer"]
            asked = [game.memory.players[(claimer.index + k) % players] for k in range(1, players)]
            last = p is asked[-1]
            assert offered == ["cheat!", "let it stand" if last else f"leave it to {asked[asked.index(p) + 1].name}"]
        choice = agents[decision.player].choose(decision)
        if choice.label.startswith("put down"):
            put.append(choice.arg.name)
        pile_before = len(zone(game, "pile"))
        game.apply(choice)
        if choice.label in ("cheat!", "let it stand"):
            claims += 1
            due = due % 13 + 1
            if choice.label == "cheat!":
                calls += 1
                assert len(zone(game, "pile")) == 0 and pile_before > 0
    assert claims > 0 and calls > 0
    (winner,) = game.winners
    assert len(game.memory.players[winner].hand) == 0
    assert all(len(q.hand) > 0 for q in game.memory.players if q.index != winner)
