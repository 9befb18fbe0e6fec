"""Pocha, pinned by scenarios and random games.

Spanish deck (40 cards; without the 2s with 3 or 6 players).  Each round every
player is dealt the same number of cards (1, 2, ... max, ... 2, 1), the first
card not dealt is turned up for trump (every card dealt: the dealer's last
card), players bid from the one after the dealer (the last bidder may not
make the bids add up to the tricks), then play under the Spanish obligations:
follow suit and beat if you can; else follow; void, trump; a trump on the
table, over-trump if you can; else any card.  Exact bid: 10 + 5 per trick;
missed: -5 per trick of difference.  The highest total after the schedule
wins.  ``pocha_static.yaml`` keeps one deck order and the seats for the whole
match, with a fixed hand size.

Card names are rank + suit initial: 1o as de oros, 12c rey de copas, 10e sota
de espadas.  Expected values come from the rules above, not from running the
rule files.
"""
from __future__ import annotations

import pytest

from naipes.agents.registry import RandomAgent
from naipes.tools.scenario import arrange, cards, player, zone

import trick_games
from helpers import RULESETS, V, choose, labels, names, program, start_game
from trick_games import announced_tricks, assert_took_the_trick, bid_round, deal_round, legal_cards

POCHA = str(RULESETS / "pocha.yaml")
STATIC = str(RULESETS / "pocha_static.yaml")

SUITS = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
# weakest to strongest: as > 3 > rey > caballo > sota > 7 > 6 > 5 > 4 > 2
ORDER = [2, 4, 5, 6, 7, 10, 11, 12, 3, 1]


def start(players=4, seed=0, path=POCHA, **params):
    """A new game, seats in order (P1 speaks first, P<n> deals) unless random_seats is given."""
    params.setdefault("random_seats", "false")
    return start_game(path, players, seed, **params)


def on_table(hands, trick="", *, leader="P1", trump="oros", players=4, to_move=True, settle=False,
             bids=None, **params):
    """A trick in progress: `trick` played in turn from `leader`; the next player is asked to play."""
    return trick_games.on_table(lambda n: start(n, **params), hands, trick, leader=leader, trump=trump,
                                players=players, to_move=to_move, settle=settle, bids=bids)


# ================================================================ legal plays
@pytest.mark.parametrize("trick, hand, legal", [
    # the leader plays any card
    ("", "4c 1e 3o 12b", {"4c", "1e", "3o", "12b"}),
    # follow suit and beat the highest card of that suit on the table
    ("5c", "4c 7c 1e 3o", {"7c"}),
    ("3c", "1c 12c 4c", {"1c"}),
    ("5c 10c", "7c 11c 4c 3o", {"11c"}),            # beat the sota, not the 5
    ("5c 10c 6c", "7c 12c 1c", {"12c", "1c"}),      # every copas card above the sota
    # follow only when unable to beat
    ("1c", "3c 12c 2o", {"3c", "12c"}),
    ("5c 1c", "3c 12c 6c 4o", {"3c", "12c", "6c"}),
    # trump led: follow trumps and beat if you can
    ("4o", "7o 2o 1c", {"7o"}),
    ("4o", "2o 3c", {"2o"}),
    ("4o 1o", "3o 12o 1c", {"3o", "12o"}),
    # void in the lead suit: trump (any trump, even the lowest)
    ("5c", "4e 2o 10o 1b", {"2o", "10o"}),
    # a trump on the table and void: over-trump if you can
    ("5c 7o", "6o 12o 1e", {"12o"}),
    ("5c 7o 10o", "11o 3o 4b", {"11o", "3o"}),
    # ... and if only lower trumps are held, any card
    ("5c 12o", "6o 4o 1e", {"6o", "4o", "1e"}),
    # void of both: any card
    ("5c", "4e 1b 12e", {"4e", "1b", "12e"}),
    ("5c 7o", "4e 1b", {"4e", "1b"}),
    # after someone trumped, following suit need not beat
    ("5c 2o", "4c 1c 3e", {"4c", "1c"}),
    ("5c 2o 6c", "4c 7c 3o", {"4c", "7c"}),         # not even the highest copas on the table
    # the as of another suit is just an off-suit card
    ("4c 1e", "2c 5c 1b", {"5c"}),
])
def test_legal_plays_follow_the_seeds_obligations(trick, hand, legal):
    assert legal_cards(on_table, trick, hand) == legal


@pytest.mark.parametrize("trick, hand, card, step", [
    ("5c", "4c 7c 1e", "4c", "follow_suit_and_beat"),
    ("1c", "3c 2o", "2o", "follow_suit"),
    ("5c 2o", "4c 3o", "3o", "follow_suit"),
    ("5c", "4e 2o", "4e", "trump_when_void"),
    ("5c 7o", "6o 12o 1e", "6o", "overtrump"),
])
def test_an_illegal_card_is_explained_by_the_obligation_it_breaks(trick, hand, card, step):
    game = on_table({f"P{len(trick.split()) + 1}": hand}, trick)
    reason = game.explain_illegal("play", cards(game, card)[0])
    assert reason is not None and f"'{step}'" in reason
    legal = next(iter(labels(game)))
    assert game.explain_illegal("play", cards(game, legal)[0]) is None


def test_a_card_not_in_hand_cannot_be_played():
    game = on_table({"P2": "4c 7c"}, "5c")
    assert game.explain_illegal("play", cards(game, "1o")[0]) is not None


# =============================================================== trick winners
FILLER = "2b 4b 5b 6b 7b 2e 4e 5e"  # cards the tricks below do not use


def resolve(trick, *, leader="P1", trump="oros", players=4):
    """Put a complete trick on the table and let the rules take it; returns the game."""
    spare = FILLER.split()
    hands = {f"P{i + 1}": spare[i] for i in range(players)}
    return on_table(hands, trick, leader=leader, trump=trump, players=players, to_move=False, settle=True)


@pytest.mark.parametrize("trick, winner", [
    ("1c 3c 2o 12c", "P3"),        # the only trump takes it
    ("5c 2o 7o 4c", "P3"),         # the highest trump
    ("4c 1e 6c 10b", "P3"),        # the highest of the lead suit; the as of espadas is off-suit
    ("4o 1c 5o 3b", "P3"),         # trump led
    ("12c 11c 10c 3c", "P4"),      # 3 above rey
    ("3c 12c 1c 7c", "P3"),        # as above 3
    ("7c 6c 5c 4c", "P1"),         # the leader's card holds
    ("10e 11e 12e 1e", "P4"),      # no trump played, the lead suit decides
])
def test_the_best_card_takes_the_trick(trick, winner):
    assert_took_the_trick(resolve(trick), winner, trick, FILLER)


@pytest.mark.parametrize("i", range(len(ORDER) - 1))
def test_rank_order_as_3_rey_caballo_sota_7_6_5_4_2(i):
    low, high = ORDER[i], ORDER[i + 1]
    # the stronger card wins whether it is led or follows
    assert player(resolve(f"{low}c {high}c 1e 1b"), "P2").tricks == 1
    assert player(resolve(f"{high}c {low}c 1e 1b"), "P1").tricks == 1
    # the lowest trump beats the highest card of any other suit
    assert player(resolve(f"{high}c 2o {low}c 1e"), "P2").tricks == 1


def test_the_trick_goes_round_the_seating_from_the_leader():
    # P3 leads: P3, P4, P1, then P2 plays last
    game = on_table({"P2": "1c 4b"}, "5c 7c 2o", leader="P3")
    assert game.to_move.name == "P2"
    assert [(p.name, c.name) for p, c in V(game)["played"]] == [("P3", "5c"), ("P4", "7c"), ("P1", "2o")]
    # P1's trump takes it
    game = resolve("5c 7c 2o 1c", leader="P3")
    assert player(game, "P1").tricks == 1 and game.to_move.name == "P1"


# ======================================================================= bids
def test_bidding_starts_after_the_dealer_and_goes_round():
    game = start()
    assert V(game)["dealer"].name == "P4" and V(game)["hand_size"] == 1
    order = []
    for _ in range(4):
        order.append(game.to_move.name)
        assert labels(game)[0] == "bid 0"
        game.apply(game.options()[0] if game.to_move.name != "P4" else game.options()[-1])
    assert order == ["P1", "P2", "P3", "P4"]
    assert V(game)["phase"] == "play" and game.to_move.name == "P1"


@pytest.mark.parametrize("earlier, refused", [([0, 0, 0], 1), ([1, 0, 0], 0), ([0, 1, 0], 0)])
def test_the_last_bidder_may_not_make_the_bids_add_up_to_the_tricks(earlier, refused):
    game = start()
    bid_round(game, earlier)
    assert game.to_move.name == "P4"
    assert labels(game) == [f"bid {1 - refused}"]
    reason = game.explain_illegal("bid", refused)
    assert reason is not None and "bids_must_not_add_up_to_the_tricks" in reason
    assert game.explain_illegal("bid", 1 - refused) is None


def test_earlier_bidders_are_not_restricted():
    game = start()
    bid_round(game, [0, 0])
    assert labels(game) == ["bid 0", "bid 1"]


def test_the_last_bidder_rule_with_a_bigger_hand():
    game = start()
    arrange(game, state={"hand_size": "5"}, player_state={"P1.bid": "2", "P2.bid": "1", "P3.bid": "1"},
            to_move=("P4", "bid"))
    assert labels(game) == ["bid 0", "bid 2", "bid 3", "bid 4", "bid 5"]


def test_without_the_last_bidder_rule_any_bid_is_allowed():
    game = start(last_bidder_restriction=False)
    bid_round(game, [0, 0, 0])
    assert labels(game) == ["bid 0", "bid 1"]
    choose(game, "bid 1")
    assert [p.bid for p in game.memory.players] == [0, 0, 0, 1]


# ================================================================ round score
def score(players, bids, tricks, **round_and_totals):
    """Score a round: set bids and tricks taken, enter the score phase, let the rules run."""
    return trick_games.score(start, players, bids, tricks, **round_and_totals)


def test_round_scores_exact_over_under_and_zero():
    # exact 3: 10 + 15; exact 0: 10; took 4 for 2: -10; took 1 for 5: -20
    game = score(4, bids=[3, 0, 2, 5], tricks=[3, 0, 4, 1])
    assert [p.scores for p in game.memory.players] == [[25], [10], [-10], [-20]]
    assert [p.score for p in game.memory.players] == [25, 10, -10, -20]


@pytest.mark.parametrize("bid, took, points", [
    (0, 0, 10), (1, 1, 15), (2, 2, 20), (10, 10, 60),
    (0, 1, -5), (0, 3, -15), (3, 0, -15), (2, 1, -5), (1, 4, -15),
])
def test_round_score_formula(bid, took, points):
    game = score(3, bids=[bid, 0, 0], tricks=[took, 0, 0])
    assert player(game, "P1").scores == [points]


def test_scores_add_up_over_rounds_and_the_next_round_is_dealt():
    game = score(4, bids=[1, 0, 0, 0], tricks=[1, 0, 0, 0], totals=[5, -10, 0, 20])
    assert [p.score for p in game.memory.players] == [20, 0, 10, 30]
    # round 2: two cards each, dealt by the next dealer, bids reset, P2 speaks first
    assert V(game)["round_number"] == 2 and V(game)["hand_size"] == 2
    assert V(game)["dealer"].name == "P1"
    assert all(len(p.hand) == 2 and p.bid is None and p.tricks == 0 for p in game.memory.players)
    assert game.to_move.name == "P2"


def test_a_whole_round_of_one_card():
    game = start()
    arrange(game, zones={"P1.hand": "1c", "P2.hand": "3c", "P3.hand": "5o", "P4.hand": "12e"},
            state={"trump": "'oros'"})
    bid_round(game, [1, 0, 0])
    assert labels(game) == ["bid 1"]           # 0 would make the total 1
    choose(game, "bid 1")
    for card in ["1c", "3c", "5o", "12e"]:
        assert labels(game) == [card]
        choose(game, card)
    # P3 trumped and took the trick; everyone missed but P2
    assert [p.scores for p in game.memory.players] == [[-5], [10], [-5], [-5]]
    assert V(game)["round_number"] == 2 and game.to_move.name == "P2"


# =================================================================== schedule
@pytest.mark.parametrize("players, deck, top",
                         [(3, 36, 12), (4, 40, 10), (5, 40, 8), (6, 36, 6), (7, 40, 5), (8, 40, 5)])
def test_the_schedule_is_1_up_to_cards_over_players_and_back_to_1(players, deck, top):
    game = start(players)
    everything = [c for z in game.memory.zones for c in z]
    assert len(everything) == deck
    if deck == 36:
        assert not any(c.rank == 2 for c in everything)
    else:
        assert sum(c.rank == 2 for c in everything) == 4
    assert V(game)["schedule"] == list(range(1, top + 1)) + list(range(top - 1, 0, -1))


def test_four_players_play_19_rounds_with_one_round_of_10():
    schedule = V(start())["schedule"]
    assert len(schedule) == 19 and schedule.count(10) == 1 and schedule[9] == 10
    assert schedule[:3] == [1, 2, 3] and schedule[-3:] == [3, 2, 1]


def test_peak_shortens_the_schedule():
    assert V(start(peak=3))["schedule"] == [1, 2, 3, 2, 1]
    assert V(start(peak=15))["schedule"] == V(start())["schedule"]   # capped at cards / players


def test_the_deck_has_ranks_1_to_7_and_the_figures_of_four_suits():
    game = start()
    everything = sorted(c.name for z in game.memory.zones for c in z)
    expected = sorted(f"{r}{s}" for r in [1, 2, 3, 4, 5, 6, 7, 10, 11, 12] for s in "ocbe")
    assert everything == expected
    assert {c.suit for z in game.memory.zones for c in z} == set(SUITS.values())


# ================================================================ trump card
def test_the_first_card_not_dealt_is_turned_up_for_trump():
    for seed in range(5):
        game = start(seed=seed)
        up = list(zone(game, "turnup"))
        assert len(up) == 1 and V(game)["trump_card"] is up[0] and V(game)["trump"] == up[0].suit
        assert len(zone(game, "stock")) == 40 - 4 - 1
        assert all(len(p.hand) == 1 for p in game.memory.players)


@pytest.mark.parametrize("players, round_number", [(4, 10), (5, 8), (8, 5), (3, 12), (6, 6)])
def test_when_every_card_is_dealt_the_trump_is_the_dealers_last_card(players, round_number):
    for seed in range(3):
        game = deal_round(start(players, seed=seed), round_number)
        dealer = V(game)["dealer"]
        assert V(game)["hand_size"] == round_number and len(zone(game, "stock")) == 0
        assert len(zone(game, "turnup")) == 0
        card = V(game)["trump_card"]
        assert card in list(dealer.hand) and V(game)["trump"] == card.suit


def test_with_seven_players_the_five_cards_left_give_the_trump():
    game = deal_round(start(7), 5)
    assert V(game)["hand_size"] == 5 and len(zone(game, "stock")) == 4
    assert [c.name for c in zone(game, "turnup")] == [V(game)["trump_card"].name]


def test_the_dealers_last_card_is_the_last_card_dealt():
    # static deck: the order is known (bottom first), dealing takes from the top,
    # one card at a time from the player after the dealer: the dealer's last card
    # is the bottom card when all 40 are dealt
    game = start(path=STATIC, rounds=3)
    order = V(game)["deck_order"]
    dealer = V(game)["dealer"]
    assert len(order) == 40 and V(game)["trump_card"] is order[0] and order[0] in list(dealer.hand)


def test_with_one_card_each_the_fifth_card_from_the_top_is_turned_up():
    game = start(path=STATIC, cards_each=1, rounds=3)
    order = V(game)["deck_order"]
    assert [c.name for c in zone(game, "turnup")] == [order[-5].name]
    assert V(game)["trump"] == order[-5].suit


# =============================================================== match end
def test_the_highest_total_wins_after_the_last_round():
    game = score(4, bids=[0, 0, 0, 0], tricks=[0, 0, 0, 0], round_number=19, totals=[50, 70, 60, 65])
    assert game.over and game.winners == (1,)
    assert game.payoffs() == [60, 80, 70, 75]


def test_everyone_tied_at_the_top_wins():
    # every bid of 0 made: +10 each
    game = score(4, bids=[0, 0, 0, 0], tricks=[0, 0, 0, 0], round_number=19, totals=[50, 70, 60, 70])
    assert game.over and game.winners == (1, 3) and game.payoffs() == [60, 80, 70, 80]
    # P3 missed by one: 85 - 5 = 80, a three-way tie
    game = score(4, bids=[0, 0, 1, 0], tricks=[0, 0, 0, 0], round_number=19, totals=[50, 70, 85, 70])
    assert game.winners == (1, 2, 3)


def test_the_match_goes_on_until_the_schedule_is_done():
    game = score(4, bids=[0] * 4, tricks=[0] * 4, round_number=18)
    assert not game.over and V(game)["round_number"] == 19 and V(game)["hand_size"] == 1


# ============================================================== random seats
@pytest.mark.slow
def test_random_seats_are_a_permutation_drawn_once():
    orders = set()
    for seed in range(10):
        game = start(seed=seed, random_seats=True)
        seats = V(game)["seats"]
        assert sorted(p.index for p in seats) == [0, 1, 2, 3]
        assert V(game)["dealer"] is seats[-1] and game.to_move is seats[0]
        orders.add(tuple(p.index for p in seats))
    assert len(orders) > 1


def test_without_random_seats_the_order_is_p1_to_pn():
    game = start(5)
    assert [p.name for p in V(game)["seats"]] == ["P1", "P2", "P3", "P4", "P5"]


# ========================================================= static (env. 2)
def test_static_schedule_is_a_fixed_hand_for_many_rounds():
    assert V(start(path=STATIC))["schedule"] == [10] * 100
    assert V(start(path=STATIC, cards_each=3, rounds=5))["schedule"] == [3] * 5
    assert V(start(6, path=STATIC))["schedule"] == [6] * 100     # capped at 36 / 6
    assert V(start(3, path=STATIC))["schedule"] == [10] * 100    # 36 / 3 = 12 allows 10


def play_random(game, seed, on_round=None):
    """Play to the end with random agents, calling on_round(game) whenever a round's first bid is asked."""
    agents = [RandomAgent(seed * 10 + i) for i in range(len(game.memory.players))]
    last_round = 0
    while not game.over:
        if on_round and V(game)["round_number"] != last_round:
            last_round = V(game)["round_number"]
            on_round(game)
        game.apply(agents[game.to_move.index].choose(game.decision()))
    return game


@pytest.mark.parametrize("rotate", [True, False])
def test_static_deck_deals_the_same_cards_every_round(rotate):
    game = start(path=STATIC, rounds=6, seed=3, random_seats=True, rotate_dealer=rotate)
    seats = list(V(game)["seats"])
    order = list(V(game)["deck_order"])
    seen = []

    def check(g):
        assert list(V(g)["seats"]) == seats and list(V(g)["deck_order"]) == order
        dealer = V(g)["dealer"]
        after = seats[seats.index(dealer) + 1:] + seats[:seats.index(dealer) + 1]
        # the k-th player after the dealer holds the cards k, k+4, k+8, ... from the top
        hands = [names(p.hand) for p in after]
        assert hands == [names(order[::-1][k::4]) for k in range(4)]
        assert V(g)["trump_card"] is order[0]
        seen.append((dealer.name, {p.name: names(p.hand) for p in seats}))

    play_random(game, 3, check)
    assert len(seen) == 6
    dealers = [d for d, _ in seen]
    if rotate:
        assert dealers[:5] == [p.name for p in (seats[-1:] + seats[:-1])] + [seats[-1].name]
    else:
        assert len(set(dealers)) == 1
        assert all(h == seen[0][1] for _, h in seen)   # each player gets the same hand every round


def test_static_deck_order_is_hidden_from_the_players():
    game = start(path=STATIC, rounds=2)
    for seat in range(4):
        assert "deck_order" not in game.view(seat)["state"]


# ============================================================ random games
class Checker(trick_games.Checker):
    """Plays random games, checking the rules' invariants after every decision (trick_games.Checker) by the
    Spanish obligations, trick winner and scores, written out below."""

    def legal(self, hand, trick):
        return reference_legal(hand, trick, V(self.game)["trump"])

    def winner(self, played):
        return reference_winner(played, V(self.game)["trump"])

    def points(self, bid, took):
        return 10 + 5 * took if bid == took else -5 * abs(bid - took)


def strength(card):
    return ORDER.index(card.rank)


def reference_legal(hand, trick, trump):
    """The five Spanish obligations (docs/games/pocha.md), written out."""
    if not trick:
        return hand
    lead = trick[0].suit
    follow = [c for c in hand if c.suit == lead]
    trumps_on_table = [c for c in trick if c.suit == trump]
    if follow:
        if lead != trump and trumps_on_table:           # rule 4
            return follow
        highest = max(strength(c) for c in trick if c.suit == lead)
        return [c for c in follow if strength(c) > highest] or follow   # rule 1
    trumps = [c for c in hand if c.suit == trump]
    if not trumps_on_table:
        return trumps or hand                           # rules 2 and 3
    highest = max(strength(c) for c in trumps_on_table)
    return [c for c in trumps if strength(c) > highest] or hand         # rule 5


def reference_winner(played, trump):
    lead = played[0][1].suit
    trumps = [(p, c) for p, c in played if c.suit == trump]
    candidates = trumps or [(p, c) for p, c in played if c.suit == lead]
    return max(candidates, key=lambda pc: strength(pc[1]))[0]


@pytest.mark.parametrize("players, params, seeds", [
    pytest.param(4, {}, range(3), marks=pytest.mark.slow),  # the full 19-round match
    (3, {"peak": "5"}, range(3)),
    pytest.param(5, {"peak": "8"}, range(2), marks=pytest.mark.slow),
    pytest.param(6, {}, range(2), marks=pytest.mark.slow),  # 36 cards, 1..6..1
    pytest.param(7, {"peak": "5"}, range(2), marks=pytest.mark.slow),
    pytest.param(8, {"peak": "3"}, range(2), marks=pytest.mark.slow),
    (4, {"last_bidder_restriction": "false", "peak": "4"}, range(2)),
])
def test_random_games_keep_every_invariant(players, params, seeds):
    program_ = program(POCHA, tuple(sorted(params.items())))
    for seed in seeds:
        checker = Checker(program_, players, seed, restricted=params.get("last_bidder_restriction") != "false")
        game = checker.run()
        schedule = V(game)["schedule"]
        assert game.over and V(game)["round_number"] == len(schedule)
        assert all(len(p.scores) == len(schedule) for p in game.memory.players)
        top = max(p.score for p in game.memory.players)
        assert game.winners == tuple(p.index for p in game.memory.players if p.score == top)
        assert game.payoffs() == [p.score for p in game.memory.players]


@pytest.mark.slow
def test_random_games_of_the_static_variant_keep_every_invariant():
    for seed in range(2):
        game = Checker(program(STATIC, (("rounds", "8"),)), 4, seed).run()
        assert all(len(p.scores) == 8 for p in game.memory.players)


@pytest.mark.slow
def test_in_every_round_the_tricks_taken_add_up_to_the_hand_size():
    for seed in range(3):
        checker = Checker(program(POCHA, (("peak", "6"),)), 4, seed)
        texts = []
        checker.game.listeners.append(lambda r, texts=texts: texts.append(r["text"])
                                      if r["type"] == "announce" else None)
        game = checker.run()
        took = announced_tricks(texts)
        per_round = [sum(took[i:i + 4]) for i in range(0, len(took), 4)]
        assert per_round == V(game)["schedule"]
