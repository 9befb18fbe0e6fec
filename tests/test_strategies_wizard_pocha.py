"""The Wizard and Pocha strategies, pinned by the choices they make in given positions.

strategies/wizard/seed.yaml is Wizard's original artificial player: its bid adds 1
per wizard, 1 with probability N/13 per trump of value N and N/26 per other
numbered card; its play follows the original's steps in order (the last card; a
wizard under a wizard when it has enough, or with probability (a-t)/(n-i+1)
when short; a jester when it has enough, or with probability
1-(a-t)/(n-i+1); the only card of the lead suit; ...).  strong.yaml bids its
expected tricks and plays at the bid.  strategies/pocha/baseline.yaml bids
the count of sure winners (high trumps, aces, a 3 with its as) and plays
the cheapest winner while it needs tricks, the highest loser once it has
enough; strong.yaml extends it (calibrated bid, boss cards remembered).

Positions come from the games' own test helpers (``on_table``: a trick in
progress).  Expected choices come from the strategies' rules as documented
in their files, not from running them.
"""
from __future__ import annotations

from functools import cache

import pytest

from naipes.agents.registry import load_strategy, strategy_agent
from naipes.tools.scenario import arrange

from helpers import STRATEGIES, program
from test_pocha import POCHA
from test_pocha import on_table as pocha_table
from test_wizard import WIZARD
from test_wizard import on_table as wizard_table


@cache
def strategy(game, level):
    rules = program(WIZARD if game == "wizard" else POCHA)
    return load_strategy(STRATEGIES / game / f"{level}.yaml", rules)


def decide(game, level, position, seed=0):
    """(label of the chosen option, rule that chose it) of the level, for the player to move."""
    agent = strategy_agent(strategy(game, level), seed)
    decision = position.decision()
    agent.attach(position, decision.player)
    option, rule = agent.decide(decision)
    return option.label, rule


def with_tricks(game, **tricks):
    """Tricks already taken this round, e.g. with_tricks(game, P2=1)."""
    return arrange(game, player_state={f"{p}.tricks": str(t) for p, t in tricks.items()})


def bidding(table, hand, *, trump, bids=None, mover="P1", hand_size=None):
    """`mover` to bid with `hand` (the other players' bids given as bids={'P2': 1})."""
    game = table({mover: hand}, trump=trump, to_move=False)
    size = hand_size or len(hand.split())
    player_state = {f"P{i}.bid": "None" for i in range(1, 5)}
    player_state.update({f"{p}.bid": str(b) for p, b in (bids or {}).items()})
    return arrange(game, state={"phase": "'bid'", "hand_size": str(size), "turn": f"players[{int(mover[1]) - 1}]"},
                   player_state=player_state, to_move=(mover, "bid"))


# ================================================================ Pocha baseline
def test_pocha_baseline_bids_its_sure_winners():
    # trump oros: as and 3 of trump, the as of copas: three tricks; the 5 de espadas none
    game = bidding(pocha_table, "1o 3o 1c 5e", trump="oros")
    assert decide("pocha", "baseline", game) == ("bid 3", "bid_the_probable_winners")


def test_pocha_baseline_counts_a_3_with_its_as_and_half_a_lone_3():
    # 1c and 3c: two tricks; 3e alone half a trick, with 3b another half: three in all
    game = bidding(pocha_table, "1c 3c 3e 3b 4o", trump="oros")
    assert decide("pocha", "baseline", game)[0] == "bid 3"
    game = bidding(pocha_table, "1c 3c 3e 4b 4o", trump="oros")
    assert decide("pocha", "baseline", game)[0] == "bid 3"   # 2.5 rounds up


def test_pocha_baseline_takes_the_nearest_legal_bid_as_last_bidder():
    # P4 bids last; 1 + 0 + 0 bid, 4 tricks: bidding 3 would add up, so 2 (the lower of 2 and 4)
    game = bidding(pocha_table, "1o 3o 1c 5e", trump="oros", mover="P4", bids={"P1": 1, "P2": 0, "P3": 0})
    legal = [o.label for o in game.options()]
    assert "bid 3" not in legal
    assert decide("pocha", "baseline", game)[0] == "bid 2"


def test_pocha_baseline_wins_with_the_cheapest_winning_card_while_it_needs_tricks():
    game = pocha_table({"P2": "4c 7c 12c 1c"}, "5c", bids={"P2": 1})
    assert decide("pocha", "baseline", game) == ("7c", "win_cheaply")


def test_pocha_baseline_ducks_with_the_highest_card_that_loses_when_it_has_enough():
    # a trump is on the table: copas must be followed without beating; the as de copas goes
    game = pocha_table({"P3": "4c 1c 12c"}, "5c 2o", bids={"P3": 1})
    game = with_tricks(game, P3=1)
    assert decide("pocha", "baseline", game) == ("1c", "duck_with_the_highest_loser")


def test_pocha_baseline_leads_its_strongest_card_when_short_and_lowest_when_not():
    game = pocha_table({"P1": "4c 1c 2o"}, "", bids={"P1": 1})
    assert decide("pocha", "baseline", game)[0] == "2o"     # the lowest trump beats any plain card
    game = pocha_table({"P1": "4c 1c 2o"}, "", bids={"P1": 0})
    assert decide("pocha", "baseline", game)[0] == "4c"


def test_pocha_baseline_plays_low_when_forced_to_win_with_players_to_come():
    # bid 0, must beat the 5 de copas: the lowest of the winners
    game = pocha_table({"P2": "7c 1c"}, "5c", bids={"P2": 0})
    assert decide("pocha", "baseline", game) == ("7c", "play_the_lowest_card")


# ================================================================== Pocha strong
def test_pocha_strong_counts_low_trumps_in_its_bid():
    # four low trumps: the baseline sees no sure winner, strong expects 4 x 0.65 = 2.6 tricks
    game = bidding(pocha_table, "2o 4o 5o 6o", trump="oros")
    assert decide("pocha", "baseline", game)[0] == "bid 0"
    assert decide("pocha", "strong", game) == ("bid 3", "bid_the_probable_winners")


def test_pocha_strong_takes_the_legal_bid_nearest_to_its_expectation_as_last_bidder():
    # rey of trump 0.9 + as de copas 0.5 = 1.4 expected; 3 already bid of 4 tricks: 1 is refused,
    # 2 is nearer to 1.4 than 0
    game = bidding(pocha_table, "12o 1c 4e 5b", trump="oros", mover="P4", bids={"P1": 1, "P2": 1, "P3": 1})
    assert "bid 1" not in [o.label for o in game.options()]
    assert decide("pocha", "strong", game)[0] == "bid 2"
    # a low trump alone, 0.65 expected: 1 is refused, 0 is nearer than 2
    game = bidding(pocha_table, "5o 4e 5b 6c", trump="oros", mover="P4", bids={"P1": 1, "P2": 1, "P3": 1})
    assert decide("pocha", "strong", game)[0] == "bid 0"


def test_pocha_strong_wins_with_a_card_nobody_can_beat_when_players_are_to_come():
    # needs a trick after a 5 de copas: the 7 would be beaten by anyone holding a higher copa;
    # the 3 cannot be (the as is in the hand)
    game = pocha_table({"P2": "1c 3c 7c"}, "5c", bids={"P2": 1})
    assert decide("pocha", "baseline", game)[0] == "7c"
    assert decide("pocha", "strong", game) == ("3c", "win_with_a_boss_card")


def test_pocha_strong_dumps_its_strongest_card_when_forced_to_win_as_the_last_player():
    game = pocha_table({"P4": "7c 1c"}, "5c 4c 2c", bids={"P4": 0})
    assert decide("pocha", "strong", game) == ("1c", "forced_win_dumps_the_strongest")


def test_pocha_strong_remembers_the_cards_played():
    # the as de copas has been played in this round: the 3 de copas is now the best copa
    game = pocha_table({"P1": "3c 5b", "P2": "1c 4b", "P3": "2c 6b", "P4": "4c 7b"}, "", bids={"P1": 2})
    agent = strategy_agent(strategy("pocha", "strong"), 0)
    agent.attach(game, 0)
    for label in ["5b", "4b", "6b"]:   # P1 leads the 5 de bastos; P2, P3 follow
        game.apply(next(o for o in game.options() if o.label == label))
    assert agent.memory["gone"] == ["5b", "4b", "6b"]
    game = pocha_table({"P1": "3c 12e"}, "", bids={"P1": 1})
    agent = strategy_agent(strategy("pocha", "strong"), 0)
    agent.attach(game, 0)
    agent.memory["gone"], agent.memory["gone_round"] = ["1c"], game.memory.vars["round_number"]
    option, rule = agent.decide(game.decision())
    assert (option.label, rule) == ("3c", "lead_a_boss_card")
    # without that memory the 3 is no boss: the lowest plain card is led
    assert decide("pocha", "strong", game) == ("12e", "lead_low_without_a_boss")


# =================================================================== Wizard seed
@pytest.mark.slow
def test_wizard_seed_bid_is_reproducible_from_the_seat_seed():
    game = bidding(wizard_table, "W1 J1 7h 13s 9d 2c", trump="hearts")
    bids = [decide("wizard", "seed", game, seed=s)[0] for s in range(20)]
    assert bids == [decide("wizard", "seed", game, seed=s)[0] for s in range(20)]
    assert len(set(bids)) > 1   # the draws do change with the seed


@pytest.mark.parametrize("hand, probability", [
    ("7h", 7 / 13),    # a trump of value 7: N/13
    ("13s", 13 / 26),  # another suit's 13: N/26
    ("4d", 4 / 26),
    ("W2", 1.0),       # a wizard always counts
    ("J3", 0.0),       # a jester never
])
def test_wizard_seed_counts_a_card_with_the_seeds_probability(hand, probability):
    game = bidding(wizard_table, hand, trump="hearts")
    seeds = range(300)
    frequency = sum(decide("wizard", "seed", game, seed=s)[0] == "bid 1" for s in seeds) / len(seeds)
    assert abs(frequency - probability) < 0.09


def test_wizard_seed_bid_adds_the_cards_contributions():
    # W1 always, 7h with 7/13, 13s with 1/2, J1 never: the bid is 1..3, mean 1 + 7/13 + 1/2
    game = bidding(wizard_table, "W1 J1 7h 13s", trump="hearts")
    bids = [int(decide("wizard", "seed", game, seed=s)[0].split()[1]) for s in range(300)]
    assert set(bids) == {1, 2, 3}
    assert abs(sum(bids) / len(bids) - (1 + 7 / 13 + 1 / 2)) < 0.12


def test_wizard_seed_plays_its_last_card_whatever_it_is():
    game = wizard_table({"P2": "W1"}, "5h", bids={"P2": 0})
    assert decide("wizard", "seed", game) == ("W1", "play_the_last_card")


def test_wizard_seed_throws_a_wizard_under_another_when_it_has_enough():
    # step 2a: probability 1, whatever the seed
    game = wizard_table({"P3": "W2 J1 5h 9c"}, "3h W1", bids={"P3": 0})
    assert {decide("wizard", "seed", game, seed=s) for s in range(10)} == {("W2", "wizard_after_a_wizard_when_enough")}


def test_wizard_seed_plays_a_jester_when_it_has_enough():
    # step 3a: probability 1 (no wizard on the table)
    game = wizard_table({"P2": "W2 J1 5h 9c"}, "3h", bids={"P2": 0})
    assert {decide("wizard", "seed", game, seed=s) for s in range(10)} == {("J1", "jester_when_enough")}


def test_wizard_seed_plays_a_wizard_with_probability_need_over_cards_left():
    # step 2b: a - t = 1, three cards left: a wizard one time in three; otherwise (no jester, no
    # heart) step 6 picks any card at random, the wizard again one time in three
    game = wizard_table({"P2": "W2 5c 9c"}, "3h", bids={"P2": 1})
    choices = [decide("wizard", "seed", game, seed=s) for s in range(300)]
    assert abs(sum(rule == "wizard_by_chance_when_short" for _, rule in choices) / 300 - 1 / 3) < 0.09
    assert {rule for _, rule in choices} == {"wizard_by_chance_when_short", "any_card_at_random"}
    assert abs(sum(card == "W2" for card, _ in choices) / 300 - (1 / 3 + 2 / 3 * 1 / 3)) < 0.09


def test_wizard_seed_plays_a_jester_with_probability_one_minus_need_over_cards_left():
    # step 3b: a - t = 1, four cards left: a jester three times in four
    game = wizard_table({"P2": "J2 5c 9c 12d"}, "3h", bids={"P2": 1})
    choices = [decide("wizard", "seed", game, seed=s) for s in range(300)]
    assert abs(sum(rule == "jester_by_chance_when_short" for _, rule in choices) / 300 - 3 / 4) < 0.09


def test_wizard_seed_plays_its_only_card_of_the_lead_suit():
    game = wizard_table({"P2": "5h 9c 12d"}, "3h", bids={"P2": 1})
    assert decide("wizard", "seed", game) == ("5h", "the_only_card_of_the_lead_suit")


def test_wizard_seed_names_the_suit_it_holds_most_after_a_wizard_is_turned_up():
    game = wizard_table({"P4": "2s 5s 9s 13h 12h"}, "", to_move=False)
    game = arrange(game, state={"phase": "'trump'", "trump": "None", "dealer": "players[3]"},
                   to_move=("P4", "choose_trump"))
    assert decide("wizard", "seed", game) == ("trump spades", "trump_the_suit_held_most")


# ================================================================= Wizard strong
def test_wizard_strong_bids_its_expected_tricks():
    # two wizards and the 13 of trump: three tricks; the 2 of clubs none
    game = bidding(wizard_table, "W1 W2 13h 2c", trump="hearts")
    assert decide("wizard", "strong", game) == ("bid 3", "bid_the_expected_tricks")


def test_wizard_strong_wins_cheaply_as_the_last_player():
    # two tricks to win, one wizard: one more trick than the wizard covers
    game = wizard_table({"P4": "W1 13h 7h 11h"}, "3h 5h 6h", bids={"P4": 2})
    assert decide("wizard", "strong", game) == ("7h", "win_cheaply_as_last")


def test_wizard_strong_keeps_its_wizard_for_the_trick_it_needs_and_ducks_with_the_rest():
    # one trick to win and a wizard in hand: the other cards play to lose, the wizard never goes under
    game = wizard_table({"P3": "W1 12h 2c"}, "3h 13h", bids={"P3": 1})
    assert decide("wizard", "strong", game) == ("12h", "duck_with_the_highest_loser")
    game = wizard_table({"P3": "W1 12h 2c"}, "3h W2", bids={"P3": 1})
    assert decide("wizard", "strong", game) == ("12h", "duck_with_the_highest_loser")
    # forced to take this trick anyway as the last player: the wizard takes it (it could not lose later)
    game = wizard_table({"P4": "W1 13h 7h 11h"}, "3h 5h 6h", bids={"P4": 1})
    assert decide("wizard", "strong", game) == ("W1", "forced_win_dumps_the_best_card")


def test_wizard_strong_throws_its_wizard_under_another_when_it_has_enough():
    game = wizard_table({"P3": "W2 J1 5h 9c"}, "3h W1", bids={"P3": 0})
    assert decide("wizard", "strong", game) == ("W2", "duck_with_the_highest_loser")


def test_wizard_strong_keeps_its_jester_and_ducks_with_a_high_card():
    # enough tricks; a 12 of trump is on the table: the 11 of hearts loses and goes, the jester stays
    game = wizard_table({"P3": "J1 11h 2c"}, "3h 12h", bids={"P3": 0})
    assert decide("wizard", "strong", game) == ("11h", "duck_with_the_highest_loser")
