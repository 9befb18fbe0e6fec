"""Mus (rulesets/mus.yaml; docs/games/mus.md), pinned by scenarios written from the rules.

Four players, P1 and P3 against P2 and P4; the Spanish deck of 40; four cards each; the player after the
dealer is the mano, speaks first and wins every tie.  With 8 reyes (the default) a 3 is a rey and a 2 an as.
Grande: the highest cards, compared from the best down; chica: the lowest; pares: duples > medias > par,
then the higher ranks; juego (31 or more) 31 > 32 > 40 > 37 > 36 > 35 > 34 > 33, else punto (the highest
sum).  Figures count 10.  Envido 2 (or 5, 10), raises, quiero / no quiero (the partner is asked after a
refusal; a refusal pays what was accepted before the last bet, 1 if nothing), órdago (the match).  At the
count: a bet won; en paso 1 for grande, chica and punto; pares 1/2/3 and juego 2 (31: 3) to every player
of the winning side.  40 points win, even in the middle of the count.

Card names are rank + suit initial: 12o rey de oros, 1e as de espadas.  Expected values come from the
rules above, not from running the rule file.
"""
from __future__ import annotations

import pytest

from naipes.language.builder import compile_expression
from naipes.tools.scenario import arrange

from helpers import RULESETS, V, choose, labels, start_game, unask

MUS = str(RULESETS / "mus.yaml")
SEATS = ["P1", "P2", "P3", "P4"]
LANCE = "paso, envido, ordago"

# No pares, no juego: grande P1 (12 7 5 1 over P4's 12 6 4 1), chica P2 (1 4 6 11), punto P3 (26).
PLAIN = {"P1": "12o 7o 5e 1c", "P2": "11o 6o 4e 1o", "P3": "10o 7c 5c 4c", "P4": "12c 6c 4o 1b"}


def deal(hands, *, points=None, seed=0, mano="P1", **params):
    """A hand just dealt with these cards, the mano asked mus and answering no hay mus: grande is open."""
    game = unask(start_game(MUS, 4, seed, **params))
    arrange(game, zones={f"{p}.hand": hands.get(p, "") for p in SEATS},
            player_state={f"{p}.points": str((points or {}).get(p, 0)) for p in SEATS},
            state={"mano": f"players[{SEATS.index(mano)}]", "turn": f"players[{SEATS.index(mano)}]",
                   "dealer": f"players[{(SEATS.index(mano) - 1) % 4}]"},
            to_move=(mano, "mus"))
    choose(game, "no hay mus")
    return game


def say(game, *choices):
    for label in choices:
        choose(game, label)
    return game


def value(game, text):
    return compile_expression(game.program, text)(game.memory)


def points(game):
    return {p.name: p.points for p in game.memory.players}


def sides(game):
    ps = points(game)
    assert ps["P1"] == ps["P3"] and ps["P2"] == ps["P4"]
    return ps["P1"], ps["P2"]


def winner(hands, lance, mano="P1", **params):
    return value(deal(hands, mano=mano, **params), f"winner('{lance}').name")


LOW = "4b 5b 6b 7b 4o 5o 6o 4e 5c 6e 7e 5e 4c 6c 7c 7o"
HIGH = "10b 10e 11b 11e 10o 11o 10c 11c 12b 12e 12o 12c"


def fill(hands, pool=LOW):
    """Four hands: the ones given, the others from the pool's cards not used."""
    used = " ".join(hands.values()).split()
    spare = [c for c in pool.split() if c not in used]
    out = {}
    for p in SEATS:
        if p in hands:
            out[p] = hands[p]
        else:
            out[p], spare = " ".join(spare[:4]), spare[4:]
    return out


# ======================================================================= deck, deal, mus
def test_forty_cards_four_each_and_the_mano_is_asked_mus():
    game = start_game(MUS, 4, 0)
    every = sorted(c.name for z in game.memory.zones for c in z)
    assert every == sorted(f"{r}{s}" for r in [1, 2, 3, 4, 5, 6, 7, 10, 11, 12] for s in "oceb")
    assert all(len(p.hand) == 4 for p in game.memory.players)
    assert V(game)["mano"].name == "P1" and game.to_move.name == "P1"
    assert sorted(labels(game)) == ["mus", "no hay mus"]


def test_four_mus_and_everyone_discards_and_draws_then_mus_again_from_the_mano():
    game = start_game(MUS, 4, 0)
    say(game, "mus", "mus", "mus", "mus")
    assert game.to_move.name == "P1" and "draw" not in labels(game)  # at least one card
    before = [c.name for c in game.memory.players[0].hand]
    say(game, f"discard {before[0]}", f"discard {before[1]}", "draw")
    p1 = [c.name for c in game.memory.players[0].hand]
    assert len(p1) == 4 and before[0] not in p1 and before[1] not in p1 and set(before[2:]) <= set(p1)
    for seat in range(1, 4):
        hand = [c.name for c in game.memory.players[seat].hand]
        say(game, *[f"discard {c}" for c in hand], "draw")   # all four may go
        assert len(game.memory.players[seat].hand) == 4
    assert game.to_move.name == "P1" and sorted(labels(game)) == ["mus", "no hay mus"]
    assert V(game)["mus_rounds"] == 1


def test_the_first_no_hay_mus_opens_grande_with_the_mano():
    game = start_game(MUS, 4, 0)
    say(game, "mus", "no hay mus")
    assert game.to_move.name == "P1" and V(game)["lance"] == 0
    assert set(labels(game)) == {"paso", "envido", "envido 5", "envido 10", "órdago"}


# ======================================================================= the lances' winners
@pytest.mark.parametrize("a, b, best", [
    ("12o 7o 5e 1c", "12c 6c 4o 1b", "P1"),   # the second card decides
    ("12o 12c 4e 1c", "12e 11c 11o 10o", "P1"),
    ("11o 11c 11e 10c", "12e 4c 4o 1b", "P2"),  # one rey beats any caballos
    ("3o 7o 5e 1c", "12c 7c 5o 1b", "P1"),     # a 3 is a rey: tie, the mano wins
    ("12c 7c 5o 1b", "3o 7o 5e 1c", "P1"),     # either way round
])
def test_grande_the_highest_cards_ties_to_the_mano(a, b, best):
    assert winner(fill({"P1": a, "P2": b}), "grande") == best


def test_grande_tie_goes_to_the_mano_whoever_it_is():
    hands = fill({"P1": "12o 7o 5e 1c", "P2": "12c 7c 5o 1b"})
    assert winner(hands, "grande", mano="P2") == "P2"
    assert winner(hands, "grande", mano="P3") == "P1"   # P1 is nearer the mano P3 than P2 is


@pytest.mark.parametrize("a, b, best", [
    ("1o 4o 6e 11c", "1c 4c 6c 12b", "P1"),    # the last card decides
    ("2o 4o 6e 11c", "1c 5c 6c 7b", "P1"),     # a 2 is an as: 1 4 below 1 5
    ("4o 5o 6e 7c", "1c 10c 11c 12b", "P2"),   # one as beats any 4
    ("1o 4o 6e 11c", "2c 4c 6c 11b", "P1"),    # a 2 is an as: tie, the mano
])
def test_chica_the_lowest_cards_ties_to_the_mano(a, b, best):
    assert winner(fill({"P1": a, "P2": b}, HIGH), "chica") == best


@pytest.mark.slow  # (compiles the rule file with another param)
def test_with_four_reyes_a_3_and_a_2_are_themselves():
    hands = fill({"P1": "3o 7o 5e 1c", "P2": "12c 7c 5o 1b"})
    assert winner(hands, "grande", reyes=4) == "P2"
    hands = fill({"P1": "2o 4o 6e 11c", "P2": "1c 4c 6c 11b", "P3": "10e 11e 12e 7e", "P4": "10b 11o 12o 7b"})
    assert winner(hands, "chica", reyes=4) == "P2"
    assert winner(hands, "chica") == "P1"


@pytest.mark.parametrize("hand, key, bonus", [
    ("12o 12c 4e 1c", [1, 12], 1),         # par de reyes
    ("12o 3c 4e 1c", [1, 12], 1),          # a 3 is a rey
    ("7o 7c 7e 1c", [2, 7], 2),            # medias
    ("7o 7c 5e 5c", [3, 7, 5], 3),         # duples
    ("12o 12c 12e 12b", [3, 12, 12], 3),   # four alike are duples
    ("1o 2c 4e 5c", [1, 1], 1),            # a 2 is an as
    ("12o 11c 10e 1c", [0], 0),            # nothing
])
def test_pares_values(hand, key, bonus):
    game = deal(fill({"P1": hand}))
    assert value(game, "pares_key(players[0])") == key and value(game, "pares_value(players[0])") == bonus


@pytest.mark.parametrize("a, b, best", [
    ("4o 4c 5e 5c", "12o 12c 12e 1c", "P1"),   # duples beat medias
    ("7o 7c 7e 1c", "12o 12c 11e 1b", "P1"),   # medias beat a par
    ("12o 12c 4e 5c", "11o 11c 11e 1b", "P2"),
    ("6o 6c 5e 5c", "7o 7c 4e 4c", "P2"),      # duples: the higher pair first
    ("10o 10c 4e 1c", "10e 10b 5o 6c", "P1"),  # equal pares: the mano
])
def test_pares_winner(a, b, best):
    assert winner(fill({"P1": a, "P2": b, "P3": "4b 5b 6b 7b", "P4": "1e 6e 11b 12b"}), "pares") == best


@pytest.mark.parametrize("hand, total", [
    ("12o 11c 10e 1c", 31), ("12o 3c 10e 2c", 31), ("12o 11c 5e 7c", 32), ("12o 11c 10e 12c", 40),
    ("12o 11c 7e 4c", 31),
    ("12o 11c 6e 5c", 31), ("4o 5c 6e 7c", 22),
])
def test_card_points_figures_and_3s_ten_2s_one(hand, total):
    game = deal(fill({"P1": hand}))
    assert value(game, "total(players[0])") == total


JUEGO = {31: "12 11 10 1", 32: "12 11 5 7", 40: "12 11 10 3", 37: "12 11 10 7", 36: "12 11 10 6",
         35: "12 11 10 5", 34: "12 11 10 4", 33: "12 11 6 7"}
ORDER = [31, 32, 40, 37, 36, 35, 34, 33]


@pytest.mark.parametrize("better, worse", list(zip(ORDER, ORDER[1:])))
def test_juego_order_31_32_40_37_36_35_34_33(better, worse):
    def cards(total, suit):
        return " ".join(f"{r}{suit}" for r in JUEGO[total].split())
    hands = {"P1": cards(worse, "e"), "P2": cards(better, "c"), "P3": "4b 5b 6b 7b", "P4": "4o 5o 6o 7o"}
    game = deal(hands)
    assert value(game, "total(players[0])") == worse and value(game, "total(players[1])") == better
    assert value(game, "winner('juego').name") == "P2"


@pytest.mark.parametrize("a, b, best", [
    ("12o 11c 10e 1c", "12b 11o 10c 2o", "P1"),   # 31 and 31 (a 2 is 1): the mano
    ("12o 11c 10e 2o", "12b 11o 10c 3c", "P1"),   # 31 (a 2 is 1) beats 40
    ("12o 11c 10e 3c", "12b 11o 7c 6c", "P1"),    # 40 beats 33
    ("12o 11c 10e 3c", "12b 11o 10c 1c", "P2"),   # 31 beats 40 from the second seat too
    ("12o 11c 6e 7c", "12b 11o 7o 6o", "P1"),     # 33 and 33: the mano
])
def test_juego_winner(a, b, best):
    assert winner(fill({"P1": a, "P2": b, "P3": "4b 5b 6b 7b", "P4": "4e 5e 5o 4o"}), "juego") == best


def test_punto_when_nobody_has_juego_the_highest_sum():
    game = deal(PLAIN)
    say(game, *["paso"] * 8)                    # grande and chica pass; nobody has pares
    assert V(game)["lance"] == 3 and value(game, "lance_name()") == "punto"
    assert value(game, "winner('punto').name") == "P3"   # 26


# ======================================================================= what the bets pay
def test_all_pass_pays_one_for_grande_chica_and_punto_at_the_count():
    game = say(deal(PLAIN), *["paso"] * 12)
    assert sides(game) == (2, 1)   # grande P1 + punto P3; chica P2
    assert V(game)["hand_number"] == 2 and V(game)["mano"].name == "P2" and game.to_move.name == "P2"


def test_an_accepted_envido_pays_the_lance_winner_at_the_count():
    game = deal(PLAIN)
    say(game, "envido", "quiero")               # P1 bets grande, P2 accepts
    assert sides(game) == (0, 0) and V(game)["lance"] == 1
    say(game, *["paso"] * 8)
    assert sides(game) == (3, 1)   # grande 2 + punto 1; chica 1


def test_a_bet_lost_is_paid_to_the_other_side():
    game = deal(PLAIN)
    say(game, "paso", "envido 5", "quiero")     # P2 bets 5 at grande, P3 accepts: P1 has the better grande
    say(game, *["paso"] * 8)
    assert sides(game) == (6, 1)   # grande 5 + punto 1; chica 1


def test_a_refusal_asks_the_partner_and_both_refusing_pays_one_at_once():
    game = deal(PLAIN)
    say(game, "envido", "no quiero")
    assert game.to_move.name == "P4" and set(labels(game)) >= {"quiero", "no quiero"}
    say(game, "no quiero")
    assert sides(game) == (1, 0) and V(game)["lance"] == 1   # the deje, before the count


def test_the_partner_may_accept_what_the_first_refused():
    game = say(deal(PLAIN), "envido", "no quiero", "quiero")
    say(game, *["paso"] * 8)
    assert sides(game) == (3, 1)


def test_a_refused_raise_pays_the_bet_it_raised():
    game = deal(PLAIN)
    say(game, "envido", "2 más")                # P2 raises: 4 proposed, 2 accepted
    assert game.to_move.name == "P3"
    say(game, "no quiero", "no quiero")          # P3, then P1 refuse
    assert sides(game) == (0, 2)
    say(game, *["paso"] * 8)
    assert sides(game) == (1, 3)   # a refused grande pays nothing more; chica 1; punto P3 1


def test_an_accepted_raise_pays_the_whole_bet():
    game = say(deal(PLAIN), "envido 5", "10 más", "quiero")
    say(game, *["paso"] * 8)
    assert sides(game) == (16, 1)   # grande 15 + punto 1; chica 1


def test_an_accepted_ordago_wins_the_match_for_the_lance_winner():
    game = say(deal(PLAIN), "paso", "paso", "paso", "paso", "paso", "órdago", "quiero")   # at chica, P2's
    assert game.over
    assert [p.name for p in game.memory.players if value(game, f"team(players[{p.index}]) == match_winner")] \
        == ["P2", "P4"]


def test_a_refused_ordago_pays_one():
    game = say(deal(PLAIN), "órdago", "no quiero", "no quiero")
    assert not game.over and sides(game) == (1, 0)


# ======================================================================= pares and juego at the count
def test_pares_only_one_side_has_them_no_bet_and_the_bonuses_at_the_count():
    hands = dict(PLAIN, P1="7o 7b 5e 1c", P3="10o 10c 5c 4c")   # P1 par de sietes, P3 par de sotas
    game = deal(hands)
    say(game, *["paso"] * 8)                   # grande (P4's rey), chica (P2); pares is not bet
    assert V(game)["lance"] == 3 and tuple(V(game)["outcomes"][2][:2]) == ("pares", "sin envite")
    say(game, *["paso"] * 4)                   # punto: P3 29
    assert sides(game) == (1 + 1 + 1, 1 + 1)   # pares P1 1 + P3 1, punto 1; grande 1, chica 1


def test_pares_bet_accepted_pays_the_bet_and_every_pares_of_the_winning_side():
    hands = {"P1": "7o 7b 7e 1c", "P2": "12o 12c 4e 5b", "P3": "10o 10c 5c 4c", "P4": "6c 6o 11b 1b"}
    # totals: P1 22, P2 29, P3 29, P4 23: no juego. Pares: P1 medias, P3 par; P2 par de reyes, P4 par
    game = deal(hands)
    say(game, *["paso"] * 8)                   # grande (P2's reyes) and chica pass
    assert sides(game) == (0, 0) and game.to_move.name == "P1"
    say(game, "envido", "quiero")               # P1 bets pares, P2 accepts: P1's medias win
    say(game, *["paso"] * 4)                   # punto: P2 29 (nearer the mano than P3's 29)
    # grande P2 1, chica P4 (1 6 6 11 below P1's 1 7 7 7) 1, pares 2 + medias 2 + par 1, punto P2 1
    assert sides(game) == (2 + 2 + 1, 1 + 1 + 1)


def test_in_pares_only_those_who_declared_speak_in_turn_from_the_mano():
    # P2 par de reyes and P3 par de sotas, one on each side; P1 and P4 have no pares; nobody has juego
    hands = {"P1": "7o 6b 5e 1c", "P2": "12o 12c 4e 5b", "P3": "10o 10c 5c 4c", "P4": "6c 4o 11b 1b"}
    game = say(deal(hands), *["paso"] * 8)     # grande and chica pass
    assert V(game)["lance_now"] == "pares" and game.to_move.name == "P2"   # the mano has none: P2 opens
    say(game, "paso")
    assert game.to_move.name == "P3"          # P4 has none either: after P3 the lance goes en paso
    say(game, "paso")
    assert tuple(V(game)["outcomes"][2][:2]) == ("pares", "paso")
    assert V(game)["lance_now"] == "punto" and game.to_move.name == "P1"   # punto: everyone, from the mano


def test_a_refused_pares_bet_leaves_the_bonuses_to_the_side_that_bet():
    hands = {"P1": "7o 7b 7e 1c", "P2": "12o 12c 4e 5b", "P3": "10o 10c 5c 4c", "P4": "6c 6o 11b 1b"}
    game = deal(hands)
    say(game, *["paso"] * 8)
    say(game, "paso", "envido", "no quiero", "no quiero")   # P2 bets pares; P3 and P1 refuse
    assert sides(game) == (0, 1)
    say(game, *["paso"] * 4)
    # grande P2 1, chica P4 1; pares: P2's par de reyes 1 + P4's par 1; punto P2 1
    assert sides(game) == (0, 1 + 1 + 1 + 2 + 1)


def test_juego_en_paso_pays_every_juego_of_the_winning_side():
    hands = {"P1": "12o 11c 10e 1c", "P2": "12b 11o 7c 6c", "P3": "12e 11e 6e 7e", "P4": "4b 5b 6b 7b"}
    # P1 31 (3), P3 33 (2); P2 33 (2); P4 22. No pares (P1 12 11 10 1, P2 12 11 7 6, P3 12 11 6 7)
    game = deal(hands)
    say(game, *["paso"] * 8)                   # grande, chica; no pares
    say(game, *["paso"] * 3)                   # juego: P1, P2, P3 speak
    # grande P1 (12 11 10 1 over 12 11 7 6); chica P1 (its as); juego P1 31: 3 + P3's 33: 2
    assert sides(game) == (1 + 1 + 3 + 2, 0)


# ======================================================================= end of the match
def test_the_target_is_reached_in_the_middle_of_the_count_and_the_rest_is_not_paid():
    game = deal(PLAIN, points={"P1": 39, "P3": 39, "P2": 39, "P4": 39})
    say(game, *["paso"] * 12)
    assert game.over and sides(game) == (40, 39)   # grande is counted first


def test_a_deje_that_reaches_the_target_wins_at_once():
    game = deal(PLAIN, points={"P1": 39, "P3": 39})
    say(game, "envido", "no quiero", "no quiero")
    assert game.over and sides(game) == (40, 0)
