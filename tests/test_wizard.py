"""Wizard, pinned by scenarios and random games.

60 cards: hearts, diamonds, clubs, spades x 1..13, four wizards (W1..W4) and
four jesters (J1..J4).  Round n deals n cards to each player (20, 15, 12, 10
rounds with 3, 4, 5, 6 players).  The next card is turned up: a number gives
its suit as trump, a jester no trump, a wizard the dealer's choice; in the
last round no card is left and there is no trump.  Bids 0..n from the player
after the dealer, unrestricted (wizard_last_bidder.yaml: the last bidder may
not make the bids equal n).  The lead suit is the suit of the first numbered
card of the trick; wizards and jesters may always be played; a numbered card
must follow the lead suit when the player holds one (wizard_official.yaml: a
wizard played before any numbered card frees the trick).  The first wizard
takes the trick; else the highest trump; else the highest card of the lead
suit; else (only jesters) the first jester.  Exact bid: 20 + 10 per trick;
otherwise -10 per trick of difference.  The highest total wins.

Card names are rank + suit initial: 1h, 7d, 12c, 13s.  Expected values come
from the rules above, not from running the rule files.
"""
from __future__ import annotations

import pytest

from naipes.errors import ParamError
from naipes.tools.scenario import arrange, cards, player, zone

import trick_games
from helpers import RULESETS, V, choose, labels, names, program, start_game
from trick_games import announced_tricks, assert_took_the_trick, bid_round, deal_round, legal_cards

WIZARD = str(RULESETS / "wizard.yaml")
OFFICIAL = str(RULESETS / "wizard_official.yaml")
LAST_BIDDER = str(RULESETS / "wizard_last_bidder.yaml")

SUITS = {"h": "hearts", "d": "diamonds", "c": "clubs", "s": "spades"}
ROUNDS = {3: 20, 4: 15, 5: 12, 6: 10}


def start(players=4, seed=0, path=WIZARD, **params):
    """A new game: seats P1..Pn in order, P<n> deals the first round, P1 speaks first."""
    return start_game(path, players, seed, **params)


def on_table(hands, trick="", *, leader="P1", trump="hearts", players=4, to_move=True, settle=False,
             bids=None, path=WIZARD, **params):
    """A trick in progress: `trick` played in turn from `leader`; the next player is asked to play."""
    return trick_games.on_table(lambda n: start(n, path=path, **params), hands, trick, leader=leader, trump=trump,
                                players=players, to_move=to_move, settle=settle, bids=bids)


# ======================================================================= deck
def test_the_deck_has_60_cards_four_suits_of_13_four_wizards_four_jesters():
    game = start()
    everything = [c for z in game.memory.zones for c in z]
    assert len(everything) == 60
    numbered = [c for c in everything if c.kind == "number"]
    assert sorted(c.name for c in numbered) == sorted(f"{r}{s}" for r in range(1, 14) for s in SUITS)
    assert {c.suit for c in numbered} == set(SUITS.values())
    wizards = [c for c in everything if c.kind == "wizard"]
    jesters = [c for c in everything if c.kind == "jester"]
    assert names(wizards) == ["W1", "W2", "W3", "W4"] and names(jesters) == ["J1", "J2", "J3", "J4"]
    # wizards and jesters belong to no suit
    assert all(c.suit is None and c.rank is None for c in wizards + jesters)
    assert len({c.name for c in everything}) == 60


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_player_count_from_3_to_6_uses_the_same_60_cards(players):
    game = start(players)
    assert len([c for z in game.memory.zones for c in z]) == 60
    assert all(len(p.hand) == 1 for p in game.memory.players)


@pytest.mark.parametrize("players", [2, 7])
def test_fewer_than_3_or_more_than_6_players_are_refused(players):
    with pytest.raises(ParamError):
        start(players)


def test_four_players_by_default():
    assert program(WIZARD).players[2] == 4


# ===================================================================== rounds
@pytest.mark.parametrize("players, rounds", sorted(ROUNDS.items()))
def test_round_n_deals_n_cards_and_the_match_has_60_over_players_rounds(players, rounds):
    game = start(players)
    assert V(game)["schedule"] == list(range(1, rounds + 1))
    assert V(game)["round_number"] == 1 and V(game)["hand_size"] == 1
    game = deal_round(start(players), 4)
    assert V(game)["hand_size"] == 4 and all(len(p.hand) == 4 for p in game.memory.players)
    assert len(zone(game, "stock")) == 60 - 4 * players - 1
    # the last round deals every card
    game = deal_round(start(players), rounds)
    assert V(game)["hand_size"] == rounds and all(len(p.hand) == rounds for p in game.memory.players)
    assert len(zone(game, "stock")) == 0 and len(zone(game, "turnup")) == 0


# ====================================================================== trump
def turned_up(kind, players=4, round_number=1):
    """The first game (by seed) whose round `round_number` turns up a card of `kind`."""
    for seed in range(300):
        game = start(players, seed=seed)
        if round_number > 1:
            game = deal_round(game, round_number)
        card = V(game)["trump_card"]
        if card is not None and card.kind == kind:
            return game
    raise AssertionError(f"no seed turns up a {kind}")


def test_a_numbered_card_turned_up_gives_its_suit():
    for seed in range(5):
        game = start(seed=seed)
        up = list(zone(game, "turnup"))
        assert len(up) == 1 and V(game)["trump_card"] is up[0]
        assert len(zone(game, "stock")) == 60 - 4 - 1
        if up[0].kind == "number":
            assert V(game)["trump"] == up[0].suit
            assert V(game)["phase"] == "bid" and game.to_move.name == "P1"


@pytest.mark.parametrize("round_number", [1, 3])
def test_a_jester_turned_up_means_no_trump(round_number):
    game = turned_up("jester", round_number=round_number)
    assert V(game)["trump"] is None
    # bidding starts at once, from the player after the dealer
    assert V(game)["phase"] == "bid" and labels(game)[0] == "bid 0"
    assert game.to_move is V(game)["seats"][(V(game)["seats"].index(V(game)["dealer"]) + 1) % 4]


@pytest.mark.parametrize("players, round_number", [(4, 1), (4, 2), (3, 5), (6, 3)])
def test_a_wizard_turned_up_lets_the_dealer_choose_the_trump(players, round_number):
    game = turned_up("wizard", players, round_number)
    dealer = V(game)["dealer"]
    assert V(game)["trump"] is None and V(game)["phase"] == "trump"
    # the decision is put to the dealer: one of the four suits
    assert game.to_move is dealer
    assert [o.move for o in game.options()] == ["choose_trump"] * 4
    assert sorted(labels(game)) == sorted(f"trump {s}" for s in SUITS.values())
    choose(game, "trump clubs")
    assert V(game)["trump"] == "clubs" and V(game)["trump_card"].kind == "wizard"
    # then the player after the dealer bids first
    seats = V(game)["seats"]
    assert V(game)["phase"] == "bid" and game.to_move is seats[(seats.index(dealer) + 1) % players]
    assert labels(game)[0] == "bid 0"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_last_round_has_no_card_left_and_no_trump(players):
    for seed in range(3):
        game = deal_round(start(players, seed=seed), ROUNDS[players])
        assert len(zone(game, "stock")) == 0 and len(zone(game, "turnup")) == 0
        assert V(game)["trump_card"] is None and V(game)["trump"] is None
        assert V(game)["phase"] == "bid"


def test_the_chosen_trump_holds_for_the_round_and_a_new_card_is_turned_up_next_round():
    game = turned_up("wizard")
    choose(game, "trump spades")
    for _ in range(4):
        choose(game, "bid 0")
    assert V(game)["phase"] == "play" and V(game)["trump"] == "spades"
    while V(game)["round_number"] == 1:
        game.apply(game.options()[0])
    assert V(game)["round_number"] == 2
    assert V(game)["trump"] == (V(game)["trump_card"].suit if V(game)["trump_card"].kind == "number" else None)


# ================================================================ legal plays
@pytest.mark.parametrize("trick, hand, legal", [
    # the leader plays any card
    ("", "4c 1s W1 J1", {"4c", "1s", "W1", "J1"}),
    # a numbered card must follow the lead suit; wizards and jesters always allowed
    ("5c", "4c 13c 1s 12h", {"4c", "13c"}),
    ("5c", "4c 1s W1 J2", {"4c", "W1", "J2"}),
    ("5c", "2c W3", {"2c", "W3"}),
    # void in the lead suit: any card, trumps included, not forced to trump
    ("5c", "4s 1h 13d", {"4s", "1h", "13d"}),
    ("5c", "4s J1 W2", {"4s", "J1", "W2"}),
    # no obligation to beat
    ("12c", "2c 13c 5h", {"2c", "13c"}),
    # a jester led: the first numbered card sets the lead suit
    ("J1", "4c 1s W1", {"4c", "1s", "W1"}),
    ("J1 7d", "4c 1d 13d J2", {"1d", "13d", "J2"}),
    ("J1 J2 9s", "4s 1d", {"4s"}),
    # a wizard led (seed): the first numbered card still sets the lead suit
    ("W1", "4c 1s J3", {"4c", "1s", "J3"}),
    ("W1 7d", "4c 1d 13d", {"1d", "13d"}),
    ("J1 W2 8h", "2h 3h 4s W3", {"2h", "3h", "W3"}),
    # only special cards in hand
    ("5c", "W1 J1", {"W1", "J1"}),
    # the trump suit is only a suit: following trumps when trumps are led
    ("5h", "2h 3c", {"2h"}),
    ("5c 9h", "1c 2h", {"1c"}),
])
def test_legal_plays_follow_the_seeds_rules(trick, hand, legal):
    assert legal_cards(on_table, trick, hand) == legal


@pytest.mark.parametrize("trick, hand, legal", [
    # a wizard played before any numbered card frees everybody from following suit
    ("W1", "4c 1s J3", {"4c", "1s", "J3"}),
    ("W1 7d", "4c 1d 13d", {"4c", "1d", "13d"}),
    ("J1 W2 8h", "2h 3h 4s W3", {"2h", "3h", "4s", "W3"}),
    ("W1 J2 7d", "4c 1d", {"4c", "1d"}),
    # a numbered card before the wizard set the lead suit: follow it
    ("7d W1", "4c 1d 13d", {"1d", "13d"}),
    ("J1 7d W1", "4c 1d", {"1d"}),
    # jesters do not free the trick
    ("J1 7d", "4c 1d W1", {"1d", "W1"}),
    ("5c", "4c 13c 1s", {"4c", "13c"}),
])
def test_official_variant_a_wizard_before_any_number_frees_the_trick(trick, hand, legal):
    n = len(trick.split())
    game = on_table({f"P{n + 1}": hand}, trick, path=OFFICIAL)
    assert set(labels(game)) == legal


def test_the_seed_rule_is_the_default_and_the_official_rule_a_param():
    assert set(labels(on_table({"P3": "4c 1d"}, "W1 7d"))) == {"1d"}
    assert set(labels(on_table({"P3": "4c 1d"}, "W1 7d", wizard_frees_the_trick=True))) == {"4c", "1d"}
    assert set(labels(on_table({"P3": "4c 1d"}, "W1 7d", path=OFFICIAL, wizard_frees_the_trick=False))) == {"1d"}


@pytest.mark.parametrize("trick, hand, card", [
    ("5c", "4c 1s W1", "1s"),
    ("J1 7d", "4c 1d", "4c"),
    ("W1 7d", "4c 1d", "4c"),
])
def test_an_illegal_card_is_explained_by_the_rule_it_breaks(trick, hand, card):
    game = on_table({f"P{len(trick.split()) + 1}": hand}, trick)
    reason = game.explain_illegal("play", cards(game, card)[0])
    assert reason is not None and "follow_suit_with_a_numbered_card" in reason
    for legal in labels(game):
        assert game.explain_illegal("play", cards(game, legal)[0]) is None


# =============================================================== trick winners
FILLER = "2d 3d 4d 5d 6d 7d"  # cards the tricks below do not use


def resolve(trick, *, leader="P1", trump="hearts", players=4, path=WIZARD):
    """Put a complete trick on the table and let the rules take it; returns the game."""
    spare = FILLER.split()
    hands = {f"P{i + 1}": spare[i] for i in range(players)}
    return on_table(hands, trick, leader=leader, trump=trump, players=players, to_move=False, settle=True, path=path)


@pytest.mark.parametrize("trick, winner, trump", [
    # the first wizard, whatever else is played
    ("5c W1 13h W2", "P2", "hearts"),
    ("W3 W1 W2 W4", "P1", "hearts"),
    ("J1 13h 12h W4", "P4", "hearts"),
    ("J1 J2 J3 W2", "P4", "hearts"),
    # else the highest trump
    ("5c 2h 13c 7h", "P4", "hearts"),
    ("13c 1h 12c 11c", "P2", "hearts"),
    ("J1 5c 2h J2", "P3", "hearts"),
    # else the highest card of the lead suit; other suits never win
    ("5c 13s 9c 1c", "P3", "hearts"),
    ("5c 13s 12d 1c", "P1", "hearts"),
    ("J2 5c 13c J3", "P3", "hearts"),
    ("J1 9s 13c 10s", "P4", "hearts"),   # the jester does not set the suit: spades lead
    ("W1 5c 13c 12h", "P1", "hearts"),
    # no trump this round (None): the lead suit decides
    ("5c 13h 9c 13s", "P3", None),
    # only jesters: the first jester
    ("J3 J1 J4 J2", "P1", "hearts"),
    ("J3 J1 J4 J2", "P1", None),
])
def test_the_trick_goes_to_the_first_wizard_the_highest_trump_the_highest_of_the_lead_suit(trick, winner, trump):
    assert_took_the_trick(resolve(trick, trump=trump), winner, trick, FILLER)


@pytest.mark.parametrize("trick, winner", [
    ("J3 J1 J4 J2", "P3"),        # P3 led: the first jester is P3's
    ("5c W2 W1 J1", "P4"),        # P3 leads 5c, P4 plays W2 first, P1 W1 after it
    ("J1 5c 13c W1", "P2"),       # P2 plays the wizard, last of the four
])
def test_first_means_first_in_playing_order_from_the_leader(trick, winner):
    game = resolve(trick, leader="P3")
    assert player(game, winner).tricks == 1


def test_the_official_variant_does_not_change_who_takes_the_trick():
    assert player(resolve("W2 5c 13h W1", path=OFFICIAL), "P1").tricks == 1
    assert player(resolve("J1 W2 13h W1", path=OFFICIAL), "P2").tricks == 1
    assert player(resolve("J1 J2 J3 J4", path=OFFICIAL), "P1").tricks == 1


@pytest.mark.parametrize("low, high", [(r, r + 1) for r in range(1, 13)])
def test_rank_order_1_to_13(low, high):
    assert player(resolve(f"{low}c {high}c 1s 1d"), "P2").tricks == 1
    assert player(resolve(f"{high}c {low}c 1s 1d"), "P1").tricks == 1
    # the lowest trump beats the highest card of the lead suit
    assert player(resolve(f"{high}c 1h {low}c 13s"), "P2").tricks == 1


# ======================================================================= bids
def playing(path=WIZARD, players=4, **params):
    """A game whose first round turned up a numbered card (no trump decision)."""
    for seed in range(20):
        game = start(players, seed=seed, path=path, **params)
        if V(game)["phase"] == "bid":
            return game
    raise AssertionError("no seed without a wizard turned up")


def test_bidding_starts_after_the_dealer_and_goes_round():
    game = playing()
    assert V(game)["dealer"].name == "P4" and V(game)["hand_size"] == 1
    order = []
    for _ in range(4):
        order.append(game.to_move.name)
        assert labels(game) == ["bid 0", "bid 1"]
        choose(game, "bid 1")
    assert order == ["P1", "P2", "P3", "P4"]
    assert [p.bid for p in game.memory.players] == [1, 1, 1, 1]
    assert V(game)["phase"] == "play" and game.to_move.name == "P1"


@pytest.mark.parametrize("earlier", [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
def test_by_default_the_last_bidder_may_bid_anything(earlier):
    game = playing()
    bid_round(game, earlier)
    assert game.to_move.name == "P4" and labels(game) == ["bid 0", "bid 1"]


def test_bids_range_from_0_to_the_hand_size():
    game = playing()
    arrange(game, state={"hand_size": "5"}, player_state={"P1.bid": "2", "P2.bid": "2", "P3.bid": "1"},
            to_move=("P4", "bid"))
    assert labels(game) == [f"bid {n}" for n in range(6)]


@pytest.mark.parametrize("earlier, refused", [([0, 0, 0], 1), ([1, 0, 0], 0), ([0, 1, 0], 0)])
def test_last_bidder_variant_the_bids_may_not_equal_the_tricks(earlier, refused):
    game = playing(LAST_BIDDER)
    bid_round(game, earlier)
    assert game.to_move.name == "P4"
    assert labels(game) == [f"bid {1 - refused}"]
    reason = game.explain_illegal("bid", refused)
    assert reason is not None and "bids_must_not_add_up_to_the_tricks" in reason


def test_last_bidder_variant_only_restricts_the_last_bidder():
    game = playing(LAST_BIDDER)
    bid_round(game, [0, 0])
    assert labels(game) == ["bid 0", "bid 1"]
    arrange(game, state={"hand_size": "5"}, player_state={"P1.bid": "2", "P2.bid": "1", "P3.bid": "1"},
            to_move=("P4", "bid"))
    assert labels(game) == ["bid 0", "bid 2", "bid 3", "bid 4", "bid 5"]
    # an over-bid total is allowed
    arrange(game, player_state={"P1.bid": "5", "P2.bid": "5", "P3.bid": "5"}, to_move=("P4", "bid"))
    assert labels(game) == [f"bid {n}" for n in range(6)]


def test_the_last_bidder_restriction_is_a_param():
    game = playing(last_bidder_restriction=True)
    bid_round(game, [0, 0, 0])
    assert labels(game) == ["bid 0"]


# ================================================================ round score
def score(players, bids, tricks, *, path=WIZARD, **round_and_totals):
    """Score a round: set bids and tricks taken, enter the score phase, let the rules run."""
    return trick_games.score(lambda n: start(n, path=path), players, bids, tricks, **round_and_totals)


def test_round_scores_exact_over_and_under():
    # exact 3: 20 + 30; exact 0: 20; took 4 for 2: -20; took 1 for 5: -40
    game = score(4, bids=[3, 0, 2, 5], tricks=[3, 0, 4, 1])
    assert [p.scores for p in game.memory.players] == [[50], [20], [-20], [-40]]
    assert [p.score for p in game.memory.players] == [50, 20, -20, -40]


@pytest.mark.parametrize("bid, took, points", [
    (0, 0, 20), (1, 1, 30), (2, 2, 40), (15, 15, 170),
    (0, 1, -10), (0, 3, -30), (3, 0, -30), (2, 1, -10), (1, 4, -30),
])
def test_round_score_formula(bid, took, points):
    game = score(3, bids=[bid, 0, 0], tricks=[took, 0, 0])
    assert player(game, "P1").scores == [points]


def test_the_variants_score_the_same():
    for path in (OFFICIAL, LAST_BIDDER):
        game = score(4, bids=[3, 0, 2, 5], tricks=[3, 0, 4, 1], path=path)
        assert [p.score for p in game.memory.players] == [50, 20, -20, -40]


def test_scores_add_up_over_rounds_and_the_next_round_is_dealt():
    game = score(4, bids=[1, 0, 0, 0], tricks=[1, 0, 0, 0], totals=[10, -10, 0, 20])
    assert [p.score for p in game.memory.players] == [40, 10, 20, 40]
    # round 2: two cards each, dealt by the next dealer, bids reset
    assert V(game)["round_number"] == 2 and V(game)["hand_size"] == 2
    assert V(game)["dealer"].name == "P1"
    assert all(len(p.hand) == 2 and p.bid is None and p.tricks == 0 for p in game.memory.players)
    # P2 speaks first, unless the dealer must choose the trump first
    assert game.to_move.name == ("P1" if V(game)["phase"] == "trump" else "P2")


def test_a_whole_round_of_one_card():
    game = playing()
    arrange(game, zones={"P1.hand": "J1", "P2.hand": "3c", "P3.hand": "W2", "P4.hand": "13c"},
            state={"trump": "'hearts'"})
    bid_round(game, [0, 1, 0, 1])
    for card in ["J1", "3c", "W2", "13c"]:
        assert labels(game) == [card]
        choose(game, card)
    # P3's wizard took the trick: only P1 (bid 0, took 0) was right
    assert [p.scores for p in game.memory.players] == [[20], [-10], [-10], [-10]]
    assert V(game)["round_number"] == 2


# ================================================================ match end
def test_the_highest_total_wins_after_the_last_round():
    game = score(4, bids=[0, 0, 0, 0], tricks=[0, 0, 0, 0], round_number=15, totals=[50, 70, 60, 65])
    assert game.over and game.winners == (1,)
    assert game.payoffs() == [70, 90, 80, 85]


def test_everyone_tied_at_the_top_wins():
    game = score(4, bids=[0, 0, 0, 0], tricks=[0, 0, 0, 0], round_number=15, totals=[50, 70, 60, 70])
    assert game.over and game.winners == (1, 3)
    # P3 missed by one: 90 - 10 = 80 = 60 + 20
    game = score(4, bids=[0, 0, 1, 0], tricks=[0, 0, 0, 0], round_number=15, totals=[50, 60, 90, 60])
    assert game.winners == (1, 2, 3)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_match_ends_after_its_last_round_only(players):
    rounds = ROUNDS[players]
    game = score(players, bids=[0] * players, tricks=[0] * players, round_number=rounds - 1)
    assert not game.over and V(game)["round_number"] == rounds and V(game)["hand_size"] == rounds
    game = score(players, bids=[0] * players, tricks=[0] * players, round_number=rounds)
    assert game.over and game.options() == []


# ============================================================== random games
class Checker(trick_games.Checker):
    """Plays random games, checking the rules' invariants after every decision (trick_games.Checker) by
    Wizard's rules (docs/games/wizard.md) written out below: the trick, the scores, the trump turned up or chosen,
    the hidden stock."""

    def __init__(self, program, players, seed, official=False, restricted=False):
        super().__init__(program, players, seed, restricted)
        self.official = official  # a wizard before any numbered card frees the trick
        self.checked["rounds"] = 0
        self.trump_choices = 0

    def legal(self, hand, trick):
        return reference_legal(hand, trick, self.official)

    def winner(self, played):
        return reference_winner(played, V(self.game)["trump"])

    def points(self, bid, took):
        return 20 + 10 * took if bid == took else -10 * abs(bid - took)

    def applied(self, choice):
        if choice.move == "choose_trump":
            assert V(self.game)["trump"] == choice.arg

    def check_view(self, view, seat):
        # other hands, the stock and the won piles are hidden
        game = self.game
        assert view["zones"]["stock"] == {"count": len(zone(game, "stock"))}
        for p, entry in zip(game.memory.players, view["players"]):
            if p.index != seat:
                assert entry["hand"] == {"count": len(p.hand)}

    def check_first_bid(self, size):
        # round n deals n cards; the trump is fixed
        assert size == V(self.game)["round_number"]
        self.check_trump(size * len(self.game.memory.players) == 60)
        self.checked["rounds"] += 1

    def check_other_move(self, decision):
        # a wizard was turned up: the dealer chooses among the four suits
        game = self.game
        assert decision.moves == ("choose_trump",)
        assert game.memory.players[decision.player] is V(game)["dealer"] and V(game)["trump_card"].kind == "wizard"
        assert V(game)["trump"] is None
        assert {o.arg for o in decision.options} == set(SUITS.values())
        self.trump_choices += 1

    def check_trump(self, last_round):
        game = self.game
        card, trump = V(game)["trump_card"], V(game)["trump"]
        if last_round:
            assert card is None and trump is None and len(zone(game, "stock")) == 0
            return
        assert list(zone(game, "turnup")) == [card]
        if card.kind == "number":
            assert trump == card.suit
        elif card.kind == "jester":
            assert trump is None
        else:
            assert trump in SUITS.values()     # the dealer's choice


def reference_lead(trick, official):
    """The suit of the first numbered card; with the official rule, none if a wizard comes first."""
    for c in trick:
        if c.kind == "number":
            return c.suit
        if official and c.kind == "wizard":
            return None
    return None


def reference_legal(hand, trick, official=False):
    lead = reference_lead(trick, official)
    if lead is None or not any(c.kind == "number" and c.suit == lead for c in hand):
        return hand
    return [c for c in hand if c.kind != "number" or c.suit == lead]


def reference_winner(played, trump):
    wizards = [p for p, c in played if c.kind == "wizard"]
    if wizards:
        return wizards[0]
    trumps = [(p, c) for p, c in played if c.kind == "number" and c.suit == trump]
    if trumps:
        return max(trumps, key=lambda pc: pc[1].rank)[0]
    lead = reference_lead([c for _, c in played], False)
    follows = [(p, c) for p, c in played if c.kind == "number" and c.suit == lead]
    if follows:
        return max(follows, key=lambda pc: pc[1].rank)[0]
    return played[0][0]      # only jesters


@pytest.mark.parametrize("file, players, seeds", [
    pytest.param("wizard.yaml", 3, [0], marks=pytest.mark.slow),  # 20 rounds
    pytest.param("wizard.yaml", 4, [0, 1], marks=pytest.mark.slow),  # 15 rounds
    pytest.param("wizard.yaml", 5, [0], marks=pytest.mark.slow),  # 12 rounds
    ("wizard.yaml", 6, [0]),                 # 10 rounds
    pytest.param("wizard_official.yaml", 4, [2], marks=pytest.mark.slow),
    pytest.param("wizard_last_bidder.yaml", 5, [3], marks=pytest.mark.slow),
])
def test_random_games_keep_every_invariant(file, players, seeds):
    path = str(RULESETS / file)
    for seed in seeds:
        checker = Checker(program(path), players, seed, official=path == OFFICIAL, restricted=path == LAST_BIDDER)
        game = checker.run()
        assert game.over and V(game)["round_number"] == ROUNDS[players]
        assert checker.checked["rounds"] == ROUNDS[players]
        assert all(len(p.scores) == ROUNDS[players] for p in game.memory.players)
        top = max(p.score for p in game.memory.players)
        assert game.winners == tuple(p.index for p in game.memory.players if p.score == top)
        assert game.payoffs() == [p.score for p in game.memory.players]


@pytest.mark.slow
def test_random_games_meet_the_dealers_trump_choice():
    # about one round in fifteen turns up a wizard
    choices = 0
    for seed in range(4):
        checker = Checker(program(WIZARD), 6, seed + 10)
        checker.run()
        choices += checker.trump_choices
    assert choices > 0


@pytest.mark.slow
def test_in_every_round_the_tricks_taken_add_up_to_the_hand_size():
    checker = Checker(program(WIZARD), 4, 7)
    texts = []
    checker.game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    game = checker.run()
    took = announced_tricks(texts)
    assert [sum(took[i:i + 4]) for i in range(0, len(took), 4)] == V(game)["schedule"]
