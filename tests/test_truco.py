"""Truco (rulesets/truco.yaml, truco_parejas.yaml; docs/games/truco.md), pinned by scenarios and random games.

Spanish deck of 40 cards (no 8s and 9s), three cards each, the player after the dealer is the mano.  Any
card may be played; the best card takes the trick: 1e, 1b, 7e, 7o, 3s, 2s, 1o/1c, reyes, caballos, sotas,
7c/7b, 6s, 5s, 4s.  Equal best cards of both sides tie the trick (parda).  Two tricks win the hand; a parda
in the first trick: the next trick won decides; a parda after a won first trick: the first trick decides;
three pardas: the mano.  Truco 2, retruco 3, vale cuatro 4; a refusal gives the singer what was accepted
before; after a quiero only the accepting side raises.  Envido 2, real envido 3, falta envido what the
leader lacks to reach the target; calls add up; refused, what was accepted before the last call (1 if
nothing).  Envido: two of a suit 20 + both values, else the best card; figures 0; ties to the mano.  The
mazo gives up the hand at its current worth.  The first side to reach the target (30) wins at once.

Card names are rank + suit initial: 1e as de espadas, 7o siete de oros, 12c rey de copas.  Expected values
come from the rules above, not from running the rule file.
"""
from __future__ import annotations

import pytest

from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game
from naipes.tools.scenario import arrange, player

from helpers import RULESETS, V, choose, labels, program, start_game, unask

TRUCO = str(RULESETS / "truco.yaml")
PAREJAS = str(RULESETS / "truco_parejas.yaml")
SUITS = ["espadas", "bastos", "oros", "copas"]
RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
# the hierarchy, best first; the cards of one group tie
HIERARCHY = [["1e"], ["1b"], ["7e"], ["7o"], ["3e", "3b", "3o", "3c"], ["2e", "2b", "2o", "2c"], ["1o", "1c"],
             ["12e", "12b", "12o", "12c"], ["11e", "11b", "11o", "11c"], ["10e", "10b", "10o", "10c"],
             ["7b", "7c"], ["6e", "6b", "6o", "6c"], ["5e", "5b", "5o", "5c"], ["4e", "4b", "4o", "4c"]]
PLAY_MOVES = "play, truco, envido, mazo"


def seats(players):
    return [f"P{i + 1}" for i in range(players)]


def deal(hands, *, points=None, players=2, seed=0, **params):
    """A hand just dealt with these cards (the rest in the deck); the mano (P1) is asked to play."""
    path = PAREJAS if players == 4 else TRUCO
    game = unask(start_game(path, players, seed, **params))
    arrange(game, zones={f"{p}.hand": hands.get(p, "") for p in seats(players)})
    ps = {f"{p}.points": str((points or {}).get(p, 0)) for p in seats(players)}
    return arrange(game, player_state=ps, to_move=("P1", PLAY_MOVES))


def say(game, *choices):
    """Play the options labelled so, in turn, whoever is asked."""
    for label in choices:
        choose(game, label)
    return game


def points(game):
    return {p.name: p.points for p in game.memory.players}


def announcements(game):
    """The texts the game announces from now on (a list that grows as it plays)."""
    texts = []
    game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    return texts


def fillers(*used, count=2):
    """Cards not among `used` and not in the hierarchy's top, to fill a hand."""
    pool = ["4e", "4b", "5e", "5b", "6e", "6b", "4o", "5o", "6o", "4c", "5c", "6c"]
    return [c for c in pool if c not in used][:count]


# ======================================================================= deck and deal
def test_forty_cards_without_8s_and_9s_three_each_and_the_mano_after_the_dealer():
    game = start_game(TRUCO, 2, 0)
    every = sorted(c.name for z in game.memory.zones for c in z)
    assert every == sorted(f"{r}{s[0]}" for r in RANKS for s in SUITS)
    assert all(len(p.hand) == 3 for p in game.memory.players)
    assert V(game)["dealer"].name == "P2" and V(game)["mano"].name == "P1"
    assert game.to_move.name == "P1"
    assert set(labels(game)) >= {"truco", "envido", "real envido", "falta envido", "mazo"}


def test_the_deal_passes_on_and_the_new_mano_leads():
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}), "mazo")
    assert V(game)["hand_number"] == 2 and V(game)["dealer"].name == "P1" and V(game)["mano"].name == "P2"
    assert game.to_move.name == "P2"


def test_the_partnership_variant_seats_four_and_the_mano_leads():
    game = start_game(PAREJAS, 4, 0)
    assert len(game.memory.players) == 4 and all(len(p.hand) == 3 for p in game.memory.players)
    assert V(game)["dealer"].name == "P4" and game.to_move.name == "P1"


# ======================================================================= the trick
PAIRS = [(better[0], worse[-1]) for better, worse in zip(HIERARCHY, HIERARCHY[1:])]


@pytest.mark.parametrize("strong, weak", PAIRS)
def test_the_better_card_takes_the_trick_whoever_leads(strong, weak):
    for lead_strong in (True, False):
        p1, p2 = (strong, weak) if lead_strong else (weak, strong)
        spare = fillers(strong, weak, count=4)
        game = deal({"P1": " ".join([p1, *spare[:2]]), "P2": " ".join([p2, *spare[2:]])})
        say(game, p1, p2)
        assert V(game)["results"] == [0 if lead_strong else 1], (p1, p2)
        # the trick's winner leads the next
        assert game.to_move.name == ("P1" if lead_strong else "P2")


@pytest.mark.parametrize("a, b", [("3o", "3c"), ("1o", "1c"), ("7b", "7c"), ("12e", "12o"), ("4e", "4c")])
def test_equal_cards_of_both_sides_are_a_parda_and_the_leader_leads_again(a, b):
    game = deal({"P1": f"{a} 5e 6e", "P2": f"{b} 5b 6b"})
    say(game, a, b)
    assert V(game)["results"] == [-1]
    assert game.to_move.name == "P1"


def trick_cards(outcome, index):
    """Cards for one trick: 'P1' (P1 wins it), 'P2', or 'parda'."""
    pairs = {"P1": [("3e", "4e"), ("3b", "4b"), ("3o", "4o")], "P2": [("4e", "3e"), ("4b", "3b"), ("4o", "3o")],
             "parda": [("5e", "5b"), ("6e", "6b"), ("5o", "5c")]}
    return pairs[outcome][index]


def play_tricks(outcomes, **kw):
    """Play tricks with the given outcomes (each: 'P1', 'P2' or 'parda'), the leader first; the game after."""
    plan = [trick_cards(o, i) for i, o in enumerate(outcomes)]
    padding = len(outcomes) < 3
    p1 = [a for a, b in plan] + (["10c", "11c"][: 3 - len(plan)] if padding else [])
    p2 = [b for a, b in plan] + (["10o", "11o"][: 3 - len(plan)] if padding else [])
    game = deal({"P1": " ".join(p1), "P2": " ".join(p2)}, **kw)
    for a, b in plan:
        first, second = (a, b) if game.to_move.name == "P1" else (b, a)
        say(game, first, second)
    return game


@pytest.mark.parametrize("outcomes, winner", [
    (["P1", "P1"], "P1"),
    (["P2", "P2"], "P2"),
    (["P1", "P2", "P1"], "P1"),
    (["P2", "P1", "P1"], "P1"),
    # a parda in the first trick: the second decides
    (["parda", "P2"], "P2"),
    (["parda", "P1"], "P1"),
    # a parda after a won first trick: the first trick decides
    (["P2", "parda"], "P2"),
    (["P1", "parda"], "P1"),
    # first two split, the third tied: the first trick decides
    (["P2", "P1", "parda"], "P2"),
    (["P1", "P2", "parda"], "P1"),
    # two pardas: the third decides; three: the mano (P1)
    (["parda", "parda", "P2"], "P2"),
    (["parda", "parda", "parda"], "P1"),
])
def test_who_wins_the_hand_with_the_tie_rules(outcomes, winner):
    game = play_tricks(outcomes)
    assert points(game) == {"P1": int(winner == "P1"), "P2": int(winner == "P2")}
    assert V(game)["hand_number"] == 2  # the hand ended after exactly these tricks, not before


def test_three_pardas_go_to_the_mano_whoever_that_is():
    game = unask(start_game(TRUCO, 2, 0))
    arrange(game, zones={"P1.hand": "5o 6e 5e", "P2.hand": "5c 6b 5b"},
            state={"dealer": "players[0]", "mano": "players[1]", "turn": "players[1]"}, to_move=("P2", PLAY_MOVES))
    say(game, "5c", "5o", "6b", "6e", "5b", "5e")
    assert points(game) == {"P1": 0, "P2": 1}


def test_a_hand_won_in_two_tricks_is_not_played_on():
    game = play_tricks(["P1", "P1"])
    assert V(game)["hand_number"] == 2 and all(len(p.hand) == 3 for p in game.memory.players)


# ======================================================================= envido values
@pytest.mark.parametrize("hand, value", [
    ("7o 6o 1e", 33),      # two of a suit: 20 + 7 + 6
    ("12o 11o 5c", 20),    # two figures of a suit: 20 + 0 + 0
    ("12o 5o 4c", 25),     # a figure counts 0
    ("7o 5c 4e", 7),       # no two of a suit: the best card
    ("10c 12b 11e", 0),    # three figures of different suits: 0
    ("1o 12o 3c", 21),
    ("7o 6o 5o", 33),      # three of a suit (no flor): the best two
    ("1e 2e 7c", 23),
])
def test_envido_values_in_set_hands(hand, value):
    # P2 holds an envido of 0 (no pair, figures only): P1's count wins
    game = deal({"P1": hand, "P2": "10e 11b 12c"})
    texts = announcements(game)
    say(game, "envido", "quiero")
    assert f"P1 has {value}" in texts and "P2 has 0" in texts
    assert points(game) == {"P1": 2, "P2": 0}


def test_the_better_envido_wins_and_a_tie_goes_to_the_mano():
    game = say(deal({"P1": "7o 1o 4e", "P2": "6c 5c 4b"}), "envido", "quiero")   # 28 against 31
    assert points(game) == {"P1": 0, "P2": 2}
    game = say(deal({"P1": "7o 6o 4e", "P2": "7c 6c 4b"}), "envido", "quiero")   # 33 each: the mano
    assert points(game) == {"P1": 2, "P2": 0}


def test_a_card_already_played_counts_for_the_envido():
    game = deal({"P1": "7o 6o 4e", "P2": "10e 11b 12c"})
    texts = announcements(game)
    say(game, "7o", "envido", "quiero")
    assert "P1 has 33" in texts and points(game) == {"P1": 2, "P2": 0}


# ======================================================================= envido bets
P1_BEST = {"P1": "7o 6o 4e", "P2": "10e 11b 12c"}   # 33 against 0


@pytest.mark.parametrize("calls, accepted, refused", [
    (["envido"], 2, 1),
    (["real envido"], 3, 1),
    (["envido", "envido"], 4, 2),
    (["envido", "real envido"], 5, 2),
    (["envido", "envido", "real envido"], 7, 4),
])
def test_what_an_envido_pays_accepted_and_refused(calls, accepted, refused):
    game = say(deal(P1_BEST), *calls, "quiero")
    assert points(game) == {"P1": accepted, "P2": 0}
    game = say(deal(P1_BEST), *calls, "no quiero")
    singer = "P1" if len(calls) % 2 == 1 else "P2"
    assert points(game) == {"P1": refused if singer == "P1" else 0, "P2": refused if singer == "P2" else 0}


@pytest.mark.parametrize("before, falta", [
    ({"P1": 10, "P2": 20}, 10), ({"P1": 3, "P2": 0}, 27), ({"P1": 0, "P2": 0}, 30),
])
def test_falta_envido_is_worth_what_the_leader_lacks(before, falta):
    game = say(deal(P1_BEST, points=before), "falta envido", "quiero")
    assert points(game)["P1"] == before["P1"] + falta


def test_falta_envido_at_a_target_of_15():
    game = say(deal(P1_BEST, points={"P1": 4, "P2": 9}, target="15"), "falta envido", "quiero")
    assert points(game)["P1"] == 4 + 6


def test_falta_envido_refused_pays_what_was_accepted_before():
    game = say(deal(P1_BEST), "envido", "envido", "falta envido", "no quiero")
    assert points(game) == {"P1": 4, "P2": 0}
    game = say(deal(P1_BEST), "falta envido", "no quiero")
    assert points(game) == {"P1": 1, "P2": 0}


def test_which_envido_raises_may_follow():
    game = deal(P1_BEST)
    say(game, "envido")
    assert set(labels(game)) == {"quiero", "no quiero", "envido", "real envido", "falta envido"}
    say(game, "envido")
    assert set(labels(game)) == {"quiero", "no quiero", "real envido", "falta envido"}
    say(game, "real envido")
    assert set(labels(game)) == {"quiero", "no quiero", "falta envido"}
    say(game, "falta envido")
    assert set(labels(game)) == {"quiero", "no quiero"}


def test_envido_only_in_the_first_trick_and_once():
    game = deal({"P1": "3e 5e 6e", "P2": "4e 5b 6b"})
    say(game, "envido", "quiero")
    assert "envido" not in labels(game) and game.to_move.name == "P1"
    game = say(deal({"P1": "3e 5e 6e", "P2": "4e 5b 6b"}), "3e")
    assert "envido" in labels(game)     # P2 has not played yet
    say(game, "4e")
    assert game.to_move.name == "P1" and not {"envido", "real envido", "falta envido"} & set(labels(game))


def test_the_envido_goes_first_when_answering_a_truco():
    game = deal(P1_BEST)
    say(game, "truco")
    assert set(labels(game)) == {"quiero", "no quiero", "retruco", "envido", "real envido", "falta envido"}
    say(game, "envido", "quiero")
    # the envido paid, the truco is still waiting for P2's answer
    assert points(game) == {"P1": 2, "P2": 0} and game.to_move.name == "P2"
    assert set(labels(game)) == {"quiero", "no quiero", "retruco"}


def test_no_envido_once_a_truco_is_accepted():
    game = say(deal(P1_BEST), "truco", "quiero")
    assert game.to_move.name == "P1" and not {"envido", "real envido", "falta envido"} & set(labels(game))


# ======================================================================= truco bets
def test_truco_accepted_makes_the_hand_worth_2():
    game = say(deal({"P1": "1e 1b 4e", "P2": "4b 5b 6b"}), "truco", "quiero", "1e", "4b", "1b", "5b")
    assert points(game) == {"P1": 2, "P2": 0}


@pytest.mark.parametrize("calls, singer, refused", [
    (["truco"], "P1", 1),
    (["truco", "retruco"], "P2", 2),
    (["truco", "retruco", "vale cuatro"], "P1", 3),
    (["truco", "quiero", "4e", "retruco"], "P2", 2),
])
def test_a_refused_truco_gives_the_singer_what_was_accepted_before(calls, singer, refused):
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}), *calls, "no quiero")
    assert points(game) == {"P1": refused if singer == "P1" else 0, "P2": refused if singer == "P2" else 0}
    assert V(game)["hand_number"] == 2


def test_vale_cuatro_accepted_is_worth_4():
    game = say(deal({"P1": "1e 1b 4e", "P2": "4b 5b 6b"}), "truco", "retruco", "vale cuatro", "quiero")
    assert "vale cuatro" not in labels(game) and "retruco" not in labels(game)
    say(game, "1e", "4b", "1b", "5b")
    assert points(game) == {"P1": 4, "P2": 0}


def test_only_the_side_that_accepted_may_raise():
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}), "truco", "quiero")
    assert game.to_move.name == "P1" and "retruco" not in labels(game) and "truco" not in labels(game)
    say(game, "4e")
    assert game.to_move.name == "P2" and "retruco" in labels(game)


def test_going_to_the_mazo_gives_the_hand_at_its_worth():
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}), "mazo")
    assert points(game) == {"P1": 0, "P2": 1}
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}), "truco", "quiero", "4e", "mazo")
    assert points(game) == {"P1": 2, "P2": 0}


def test_no_mazo_nor_card_while_a_bet_waits():
    game = say(deal(P1_BEST), "truco")
    assert "mazo" not in labels(game) and not set(labels(game)) & {"4b", "5b", "6b", "10e", "11b", "12c"}


# ======================================================================= the match
def test_a_hand_that_reaches_the_target_ends_the_match():
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}, points={"P1": 28, "P2": 29}), "mazo")
    assert game.over and list(game.winners) == [1]
    assert points(game) == {"P1": 28, "P2": 30}


def test_an_envido_that_reaches_the_target_wins_before_the_hand_is_played():
    game = say(deal(P1_BEST, points={"P1": 28, "P2": 0}), "envido", "quiero")
    assert game.over and list(game.winners) == [0] and points(game)["P1"] == 30


def test_a_short_match_to_15():
    game = say(deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b"}, points={"P1": 14, "P2": 0}, target="15"), "mazo")
    assert not game.over
    say(game, "mazo")   # now P2 is mano and gives up: P1 reaches 15
    assert game.over and list(game.winners) == [0]


# ======================================================================= flor (param)
def first_deal_with_a_flor(wanted):
    """The first seed whose first deal gives somebody a flor (wanted True) or nobody one (False), with flor on."""
    for seed in range(200):
        game = Game(program(TRUCO, (("flor", "true"),)), seed, players=2)
        texts = announcements(game)
        game.start()
        flores = [p for p in game.memory.players if len({c.suit for c in p.hand}) == 1]
        if bool(flores) == wanted:
            return game, flores, texts
    raise AssertionError("no such deal in 200 seeds")


def test_with_flor_a_flor_is_sung_for_3_points_and_no_envido_is_played():
    game, flores, texts = first_deal_with_a_flor(True)
    for p in flores:
        total = 20 + sum(c.rank if c.rank <= 7 else 0 for c in p.hand)
        assert f"{p.name} sings flor: {total}" in texts
    assert sum(points(game).values()) == 3 * len(flores)
    if len(flores) == 1:
        assert points(game)[flores[0].name] == 3
    assert not {"envido", "real envido", "falta envido"} & set(labels(game))


def test_with_flor_a_deal_without_one_plays_the_envido():
    game, _, _ = first_deal_with_a_flor(False)
    assert sum(points(game).values()) == 0 and "envido" in labels(game)


def test_without_flor_three_of_a_suit_is_only_an_envido():
    game = deal({"P1": "7o 6o 5o", "P2": "10e 11b 12c"})
    assert "envido" in labels(game)


# ======================================================================= four players
def test_four_players_the_next_opponent_answers_and_partners_share_the_points():
    game = deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b", "P3": "4o 5o 6o", "P4": "4c 5c 7c"}, players=4)
    say(game, "4e", "truco")
    assert game.to_move.name == "P3"     # P2 sang: the next opponent answers
    say(game, "no quiero")
    assert points(game) == {"P1": 0, "P2": 1, "P3": 0, "P4": 1}


def test_four_players_partners_equal_cards_win_for_their_side():
    game = deal({"P1": "12e 5e 6e", "P2": "4b 5b 6b", "P3": "12o 5o 6o", "P4": "4c 5c 7c"}, players=4)
    say(game, "12e", "4b", "12o", "4c")
    assert V(game)["results"] == [0] and game.to_move.name == "P1"


def test_four_players_top_cards_of_both_sides_tie():
    game = deal({"P1": "12e 5e 6e", "P2": "12b 5b 6b", "P3": "4o 5o 6o", "P4": "4c 5c 7c"}, players=4)
    say(game, "12e", "12b", "4o", "4c")
    assert V(game)["results"] == [-1] and game.to_move.name == "P1"


def test_four_players_the_best_envido_of_all_and_the_mazo_for_both_partners():
    game = deal({"P1": "4e 5e 6e", "P2": "4b 5b 6b", "P3": "7o 6o 4o", "P4": "4c 5c 7c"}, players=4)
    texts = announcements(game)
    say(game, "envido", "quiero")
    assert texts[:4] == ["P1 has 31", "P2 has 31", "P3 has 33", "P4 has 32"]
    assert points(game) == {"P1": 2, "P2": 0, "P3": 2, "P4": 0}
    say(game, "mazo")
    assert points(game) == {"P1": 2, "P2": 1, "P3": 2, "P4": 1}


# ======================================================================= random games
@pytest.mark.parametrize("path, players", [(TRUCO, 2), (PAREJAS, 4)])
def test_random_games_end_at_the_target_with_cards_kept(path, players):
    for seed in range(30):
        game = Game(program(path, ()), seed, players=players)
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        game.start()
        while not game.over:
            assert sum(len(z) for z in game.memory.zones) == 40
            decision = game.decision()
            game.apply(agents[decision.player].choose(decision))
        scores = points(game)
        assert max(scores.values()) >= 30
        assert {f"P{i + 1}" for i in game.winners} == {n for n, s in scores.items() if s >= 30}
        for p in game.memory.players:
            assert scores[p.name] == scores[player(game, f"P{(p.index + 2) % players + 1}").name]
