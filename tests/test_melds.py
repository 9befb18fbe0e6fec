"""The rummy-family standard library (engine/library/melds.py), checked against the meld rules.

The rules (docs/games/chinchon.md): a set is 3-4 cards of one rank, any suits
(with two decks there can be identical cards); a run is 3 or more cards of one
suit consecutive in the rank order 1..7, 10, 11, 12 (8 and 9 between 7 and 10
with 48 cards), the 1 low only, no wrap-around; a card belongs to one meld
only; a joker stands for any card, at most one per meld, and an unmelded joker
counts 50; the best partition minimises the value of the unmelded cards.

Cards here are a small stand-in class, so nothing depends on the engine's own
cards, except in the last tests, which call the functions from a rule file.
Expected values are worked out by hand from those rules (and, for random
hands, by an independent brute force written below), never by running the
code first.
"""
from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import pytest

from naipes import load_program
from naipes.errors import GameError, RuleError, RuleErrors
from naipes.library.limits import MAX_STEPS, Budget
from naipes.library.melds import (
    best_melds,
    can_lay_off,
    is_meld,
    lay_off_all,
    longest_run,
    meld_and_lay_off,
    meldable,
    solve_melds,
)
from naipes.runtime.game import Game

ORDER_40 = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
ORDER_48 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]


@dataclass(eq=False)  # identity equality: two copies of a card (two decks) are different cards
class K:
    suit: str | None
    rank: int | None
    joker: bool = False

    def __repr__(self) -> str:
        return "*" if self.joker else f"{self.rank}{self.suit}"


def hand(text: str) -> list[K]:
    """'1a 2a 12d *': rank then suit letter; '*' is a joker. Each word is a new card."""
    return [K(None, None, True) if w == "*" else K(w[-1], int(w[:-1])) for w in text.split()]


def names(cards) -> list[str]:
    return [repr(c) for c in cards]


def meld_names(result) -> list[list[str]]:
    return [names(m) for m in result["melds"]]


def meld(text: str, order=ORDER_40, **kw) -> bool:
    return is_meld(hand(text), order, jokers="joker", **kw)


# ============================================================== is_meld
@pytest.mark.parametrize("text", [
    "5a 5b 5c",            # a set: one rank, three suits
    "5a 5b 5c 5d",         # a set of four
    "5a 5a 5b",            # two decks: identical cards may share a set
    "12a 12b 12c",         # figures form sets like any rank
    "1a 2a 3a",            # a run at the low end (the 1 is low)
    "3a 1a 2a",            # order of the cards given does not matter
    "6a 7a 10a",           # 7 is followed by 10 (sota) with 40 cards
    "7a 10a 11a 12a",      # ... up to the top
    "1a 2a 3a 4a 5a 6a 7a",          # a seven-card run
    "1a 2a 3a 4a 5a 6a 7a 10a 11a 12a",  # the whole suit
    "1a * 3a",             # a joker fills a gap
    "* 11a 12a",           # ... or sits below the top
    "1a 2a *",             # ... or above
    "5a 5b *",             # a joker in a set
    "5a 5b 5c *",          # a set of four with a joker
])
def test_valid_melds(text):
    assert meld(text)


@pytest.mark.parametrize("text, why", [
    ("5a 5b", "two cards are not a meld"),
    ("5a 5b 5c 5d 5a", "five of a rank is more than a set of four (two decks)"),
    ("1a 2a 3b", "a run is one suit"),
    ("1a 2a 4a", "a gap"),
    ("11a 12a 1a", "no wrap-around: 12 is not followed by 1"),
    ("12a 1a 2a", "no wrap-around, from either side"),
    ("7a 8a 10a", "8 is not a rank of the 40-card order, so it cannot be in a run"),
    ("1a 2a 2a", "a duplicate is not the next rank"),
    ("1a 2a 2a 3a", "a run holds each rank once"),
    ("1a * *", "two jokers in one meld"),
    ("5a 5b * *", "two jokers in one set"),
    ("* * *", "a meld needs a real card"),
    ("5a 5b 5c 5d *", "a joker does not stretch a set beyond four"),
    ("1a 2a 3a 4a 5a 6a 7a 10a 11a 12a *", "no room for an eleventh card in a ten-rank suit"),
    ("5a 6b 7c", "consecutive ranks in different suits"),
    ("5a 5b 6a", "neither one rank nor one suit"),
])
def test_invalid_melds(text, why):
    assert not meld(text), why


def test_the_48_card_order_puts_8_and_9_between_7_and_10():
    # With 48 cards 7-8-9 is a run and 7-10 is no longer adjacent.
    assert meld("7a 8a 9a", ORDER_48)
    assert meld("8a 9a 10a", ORDER_48)
    assert not meld("6a 7a 10a", ORDER_48)
    assert meld("6a 7a 10a", ORDER_40)
    # A rank outside the order still forms sets (runs need a place in the order).
    assert meld("8a 8b 8c", ORDER_40)


def test_meld_size_options():
    # Everything game-specific is an argument: sets of exactly 3, runs of 4 or more.
    assert not meld("5a 5b 5c 5d", max_set=3)
    assert not meld("1a 2a 3a", min_run=4)
    assert meld("1a 2a 3a 4a", min_run=4)
    # Two jokers per meld when the rule file says so.
    assert meld("1a * *", jokers_per_meld=2)
    assert not meld("* * *", jokers_per_meld=3)  # still needs one real card


def test_without_a_jokers_attribute_no_card_is_a_joker():
    # jokers=None: the 'joker' attribute is not read, so a "joker" is an ordinary card of its rank/suit.
    cards = [K("a", 1), K("a", 2), K("a", 3, joker=True)]
    assert is_meld(cards, ORDER_40)
    assert not is_meld(cards[:2] + [K(None, None, True)], ORDER_40)


def test_readers_may_be_functions_and_names_are_checked():
    @dataclass
    class Other:  # different attribute names
        palo: str
        n: int
    cards = [Other("x", 1), Other("x", 2), Other("x", 3)]
    assert is_meld(cards, ORDER_40, suit="palo", rank="n")
    assert is_meld(cards, ORDER_40, suit=lambda c: c.palo, rank=lambda c: c.n)
    with pytest.raises(ValueError, match="'_'"):
        is_meld(cards, ORDER_40, suit="__class__", rank="n")
    with pytest.raises(ValueError, match="twice"):
        is_meld(cards, [1, 2, 2, 3], suit="palo", rank="n")


# ============================================================== best_melds
def best(text: str, order=ORDER_40, **kw):
    return best_melds(hand(text), order, jokers="joker", **kw)


def test_greedy_longest_run_first_is_wrong():
    # 1a 2a 3a 4a 4b 4c 12d.  Greedy "longest run first" takes 1-2-3-4a and leaves
    # 4b 4c 12d loose: 4 + 4 + 12 = 20.  Giving the 4a to the set instead — run
    # 1-2-3a and set 4a 4b 4c — leaves only the 12d: deadwood 12.
    r = best("1a 2a 3a 4a 4b 4c 12d")
    assert r["deadwood"] == 12
    assert meld_names(r) == [["1a", "2a", "3a"], ["4a", "4b", "4c"]]
    assert names(r["loose"]) == ["12d"]


def test_greedy_sets_first_is_wrong():
    # 5a 5b 5c 6a 7a 6b 7b.  Greedy "sets first" melds 5a 5b 5c and leaves
    # 6a 7a 6b 7b loose (26).  Two runs 5-6-7a and 5-6-7b leave only the 5c: 5.
    r = best("5a 5b 5c 6a 7a 6b 7b")
    assert r["deadwood"] == 5
    assert meld_names(r) == [["5a", "6a", "7a"], ["5b", "6b", "7b"]]
    assert names(r["loose"]) == ["5c"]


def test_hand_without_melds_counts_every_card():
    r = best("1a 5b 10c 12d 3b")
    assert r["melds"] == [] and r["deadwood"] == 1 + 5 + 10 + 12 + 3
    assert names(r["loose"]) == ["1a", "5b", "10c", "12d", "3b"]  # the order given


def test_7_to_10_adjacency_and_the_48_card_order():
    # 6a 7a 10a 11a is one run with 40 cards (deadwood 0) ...
    assert best("6a 7a 10a 11a")["deadwood"] == 0
    # ... but with 48 cards 7 and 10 are not adjacent: only 10-11 would remain, no run
    # of three anywhere, so everything is loose.
    assert best("6a 7a 10a 11a", ORDER_48)["deadwood"] == 34
    # 8a is not in the 40-card order: it cannot join 6-7 even though 6-7-8 "looks" like a run.
    r = best("6a 7a 8a 5b")
    assert r["melds"] == [] and r["deadwood"] == 26
    assert best("6a 7a 8a 5b", ORDER_48)["deadwood"] == 5


def test_no_wrap_around_in_a_hand():
    # 11a 12a 1a 2a: neither 11-12-1 nor 12-1-2 is a run.
    assert best("11a 12a 1a 2a")["deadwood"] == 26


def test_each_card_is_used_once():
    # 3a 3b 3c 1a 2a: the 3a could complete the set or the run 1-2-3a, not both.
    # Set 3a 3b 3c leaves 1a 2a (3); run 1-2-3a leaves 3b 3c (6): the set wins.
    r = best("3a 3b 3c 1a 2a")
    assert r["deadwood"] == 3
    assert meld_names(r) == [["3a", "3b", "3c"]]
    used = [c for m in r["melds"] for c in m] + r["loose"]
    assert len(used) == 5 and len({id(c) for c in used}) == 5


def test_two_decks_duplicates():
    # Four 3s from two decks (3a twice, 3b twice) are a set of four.
    r = best("3a 3a 3b 3b")
    assert r["deadwood"] == 0 and len(r["melds"]) == 1 and len(r["melds"][0]) == 4
    # Five 3s: a set of four and one 3 loose (sets stop at four).
    assert best("3a 3a 3b 3b 3c")["deadwood"] == 3
    # Six 3s: two sets of three.
    r = best("3a 3a 3b 3b 3c 3c")
    assert r["deadwood"] == 0 and sorted(map(len, r["melds"])) == [3, 3]
    # 5a 5a 5b 6a 7a: the run 5-6-7a plus the set would need the 5a twice, but there are
    # two 5a: run 5a 6a 7a leaves 5a 5b (10); set 5a 5a 5b leaves 6a 7a (13). Best: 10.
    r = best("5a 5a 5b 6a 7a")
    assert r["deadwood"] == 10
    # Two copies of a run card: 1a 2a 3a 3a melds one 3a; the other is loose.
    r = best("1a 2a 3a 3a")
    assert r["deadwood"] == 3 and len(r["melds"][0]) == 3


def test_ties_prefer_more_cards_melded():
    # Values from a function: the 4a is worth 0.  Run 1-2-3a with 4a loose and run
    # 1-2-3-4a both leave deadwood 0; the rule prefers more cards melded.
    r = best_melds(hand("1a 2a 3a 4a"), ORDER_40, value=lambda c: 0 if c.rank == 4 else c.rank)
    assert r["deadwood"] == 0 and r["loose"] == [] and meld_names(r) == [["1a", "2a", "3a", "4a"]]


def test_ties_prefer_fewer_melds():
    # 1a..6a: one run of six or two runs of three meld the same cards; one meld is preferred.
    r = best("1a 2a 3a 4a 5a 6a")
    assert meld_names(r) == [["1a", "2a", "3a", "4a", "5a", "6a"]]


def test_ties_then_prefer_the_earliest_cards():
    # Two copies of the 3a: melding either leaves deadwood 3 with 3 cards in 1 meld.  The
    # documented last tie-break writes each meld as the positions of its cards in the
    # hand and takes the smallest list: (0, 1, 2) before (0, 1, 3), so the copy that
    # comes first is melded and the later one is loose — whichever copy that is.
    cards = hand("1a 2a 3a 3a")
    r = best_melds(cards, ORDER_40)
    assert r["melds"][0][2] is cards[2] and r["loose"] == [cards[3]]
    swapped = [cards[0], cards[1], cards[3], cards[2]]
    r = best_melds(swapped, ORDER_40)
    assert r["melds"][0][2] is cards[3] and r["loose"] == [cards[2]]


def test_value_attribute_and_function():
    @dataclass(eq=False)
    class P:
        suit: str
        rank: int
        points: int
    # Figures count 10 (a variant): value read from an attribute, or computed.
    cards = [P("a", 12, 10), P("b", 11, 10), P("c", 1, 1)]
    assert best_melds(cards, ORDER_40, value="points")["deadwood"] == 21
    assert best_melds(cards, ORDER_40, value=lambda c: min(c.rank, 10))["deadwood"] == 21
    assert best_melds(cards, ORDER_40)["deadwood"] == 24  # default: the rank


def test_jokers():
    # A joker fills a gap: 4a * 6a is a run; the result shows the joker in its place.
    r = best("6a * 4a")
    assert r["deadwood"] == 0 and meld_names(r) == [["4a", "*", "6a"]]
    # A joker at the top of the order can only stand below: * 11a 12a reads 10-11-12.
    assert meld_names(best("12a * 11a")) == [["*", "11a", "12a"]]
    # One joker per meld: 1a 2a * * melds one joker (1-2-*), the other is loose: 50.
    r = best("1a 2a * *")
    assert r["deadwood"] == 50 and names(r["loose"]) == ["*"]
    # ... unless the rule file allows two per meld: 1-2-*-* is a run of four.
    assert best("1a 2a * *", jokers_per_meld=2)["deadwood"] == 0
    # An unmelded joker counts 50 (or what the rule file says).
    assert best("* 12a")["deadwood"] == 62
    assert best("* 12a", joker_value=25)["deadwood"] == 37
    # Two jokers in two melds: 1a 2a * and 7b 7c * — all melded.
    r = best("1a 2a * 7b 7c *")
    assert r["deadwood"] == 0 and len(r["melds"]) == 2
    # A joker goes where it saves most: 12a 12b * 1c 2c — melding 12a 12b * saves 24,
    # melding 1c 2c * saves 3; either way the joker itself is melded.  Best: 3.
    assert best("12a 12b * 1c 2c")["deadwood"] == 3


def test_jokers_with_sets_and_runs_sharing_a_rank():
    # 1a 2a 3a 3b 3c *: run 1-2-3a + set 3b 3c *, or run 1-2-* + set 3a 3b 3c: all melded.
    r = best("1a 2a 3a 3b 3c *")
    assert r["deadwood"] == 0 and sum(map(len, r["melds"])) == 6
    for m in r["melds"]:
        assert is_meld(m, ORDER_40, jokers="joker")


# ============================================================== can_lay_off
def lay(card: str, onto: str, **kw) -> bool:
    return can_lay_off(hand(card)[0], hand(onto), ORDER_40, jokers="joker", **kw)


@pytest.mark.parametrize("card, onto, ok, why", [
    ("5d", "5a 5b 5c", True, "a set of three takes a fourth"),
    ("5a", "5a 5b 5c 5d", False, "a set of four is full (two decks)"),
    ("4a", "1a 2a 3a", True, "a run grows at the top"),
    ("4a", "5a 6a 7a", True, "... and at the bottom"),
    ("10a", "5a 6a 7a", True, "7 is followed by 10"),
    ("7a", "10a 11a 12a", True, "10 is preceded by 7"),
    ("5a", "1a 2a 3a", False, "not adjacent (it would need the 4 first)"),
    ("4b", "1a 2a 3a", False, "wrong suit"),
    ("1a", "10a 11a 12a", False, "no wrap-around above the top"),
    ("12a", "1a 2a 3a", False, "no wrap-around below the 1"),
    ("2a", "1a 2a 3a", False, "a duplicate does not extend a run"),
    ("5a", "5a 5b", False, "two cards are not a meld to lay off onto"),
    ("*", "1a 2a 3a", True, "a joker extends a run without one"),
    ("*", "1a * 3a", False, "a second joker in a meld"),
    ("*", "5a 5b 5c", True, "a joker completes a set of four"),
])
def test_can_lay_off(card, onto, ok, why):
    assert lay(card, onto) is ok, why


def test_a_card_already_in_the_meld_cannot_be_laid_off_onto_it():
    cards = hand("5a 5b 5c")
    assert not can_lay_off(cards[0], cards, ORDER_40)


# ============================================================== lay_off_all
def lay_all(cards: str, melds: list[str], **kw):
    return lay_off_all(hand(cards), [hand(m) for m in melds], ORDER_40, jokers="joker", **kw)


def test_lay_off_chains():
    # 4 then 5 onto a run ending in 3: the 5 alone would not fit, after the 4 it does.
    r = lay_all("5a 12b 4a", ["1a 2a 3a"])
    assert names(r["laid"]) == ["5a", "4a"] and names(r["remaining"]) == ["12b"]
    assert r["deadwood"] == 12
    assert meld_names(r) == [["1a", "2a", "3a", "4a", "5a"]]
    # Without the 4 the 5 stays.
    r = lay_all("5a 12b", ["1a 2a 3a"])
    assert r["laid"] == [] and r["deadwood"] == 17
    # Chains at both ends, across the 7-10 step.
    r = lay_all("12a 11a 4a 10a", ["5a 6a 7a"])
    assert r["deadwood"] == 0 and meld_names(r) == [["4a", "5a", "6a", "7a", "10a", "11a", "12a"]]


def test_lay_off_chooses_the_meld_that_leaves_least():
    # 4a fits the set 4b 4c 4d and the run 1-2-3a.  Laid on the set it strands the 5a
    # (remaining 5); laid on the run it lets the 5a follow (remaining 0).
    r = lay_all("4a 5a", ["4b 4c 4d", "1a 2a 3a"])
    assert r["deadwood"] == 0
    assert meld_names(r) == [["4b", "4c", "4d"], ["1a", "2a", "3a", "4a", "5a"]]


def test_lay_off_respects_set_size_and_does_not_rearrange():
    # A set of three takes one more 4, not two: the higher-value choice is the same card
    # either way, so one 4 remains.
    r = lay_all("4a 4a", ["4b 4c 4d"])
    assert len(r["laid"]) == 1 and r["deadwood"] == 4
    # 3b 3c would make a set with the run's 3a if the melds were rearranged; they are not.
    r = lay_all("3b 3c", ["1a 2a 3a"])
    assert r["laid"] == [] and r["deadwood"] == 6


def test_lay_off_prefers_the_most_value():
    # The set 5b 5c 5d takes one more card: the joker (worth 50 loose) rather than the
    # 5a (5).  Either way one card is laid; the choice leaving less value wins.
    r = lay_all("5a *", ["5b 5c 5d"])
    assert names(r["laid"]) == ["*"] and names(r["remaining"]) == ["5a"] and r["deadwood"] == 5
    # Two melds compete for one joker and it is laid once; the 11a fits neither
    # (the run is in suit c, the set is of 12s).
    r = lay_all("* 11a", ["12b 12c 12d", "1c 2c 3c"])
    assert names(r["laid"]) == ["*"] and r["deadwood"] == 11


def test_lay_off_joker_bridges_a_gap():
    # Run 1-2-3a; hand * 5a: the joker as 4 lets the 5a follow.
    r = lay_all("5a *", ["1a 2a 3a"])
    assert r["deadwood"] == 0 and meld_names(r) == [["1a", "2a", "3a", "*", "5a"]]


def test_lay_off_refuses_an_invalid_meld():
    with pytest.raises(ValueError, match="not a valid meld"):
        lay_all("4a", ["1a 2a"])


# ============================================================== meld_and_lay_off
def meld_lay(cards: str, melds: list[str], order=ORDER_40, **kw):
    return meld_and_lay_off(hand(cards), [hand(m) for m in melds], order, jokers="joker", **kw)


def test_a_card_leaves_a_meld_of_the_hand_for_the_table():
    # The refereed case: the table shows [1a 2a 3a] [6b 6c 6d]; the hand holds 4a 4b 4c 2b 3b 12c 11d.
    # Its best partition alone, [4a 4b 4c] + 2b 3b 12c 11d loose, counts 28 and nothing of it
    # goes onto the table; melding 2b 3b 4b instead frees the 4a for the run: 4c 12c 11d, 27.
    r = meld_lay("4a 4b 4c 2b 3b 12c 11d", ["1a 2a 3a", "6b 6c 6d"])
    assert r["deadwood"] == 4 + 12 + 11
    assert meld_names(r) == [["2b", "3b", "4b"]] and names(r["laid"]) == ["4a"]
    assert names(r["loose"]) == ["4c", "12c", "11d"]
    assert [names(m) for m in r["table"]] == [["1a", "2a", "3a", "4a"], ["6b", "6c", "6d"]]
    # lay_off_all, which keeps the hand's best partition fixed, finds nothing to lay off
    loose = best_melds(hand("4a 4b 4c 2b 3b 12c 11d"), ORDER_40)["loose"]
    assert lay_off_all(loose, [hand("1a 2a 3a"), hand("6b 6c 6d")], ORDER_40)["deadwood"] == 28


def test_a_run_of_the_hand_broken_for_a_chain():
    # 4a 5a 6a is a run of the hand, but 4a 5a chained onto 1-2-3a and 6a 6b 6c as a set leave only 12d.
    r = meld_lay("4a 5a 6a 6b 6c 12d", ["1a 2a 3a"])
    assert r["deadwood"] == 12 and meld_names(r) == [["6a", "6b", "6c"]] and names(r["laid"]) == ["4a", "5a"]


def test_with_jokers_and_48_cards():
    # 48 cards: the hand's run 8a 9a 10a would leave 9b 9c 12d (30); the 8a goes onto 5-6-7a
    # instead and 9a 9b 9c make a set, leaving 10a 12d (22).
    r = meld_lay("8a 9a 10a 9b 9c 12d", ["5a 6a 7a"], order=ORDER_48)
    assert r["deadwood"] == 10 + 12 and names(r["laid"]) == ["8a"] and meld_names(r) == [["9a", "9b", "9c"]]
    # A joker melds in the hand (2a 3a *) and the 7c goes onto the set of 7s: nothing counts.
    r = meld_lay("2a 3a * 7c", ["7b 7d 7a"])
    assert r["deadwood"] == 0 and meld_names(r) == [["2a", "3a", "*"]] and names(r["laid"]) == ["7c"]
    # One joker per meld: the table's run holds one already, so the hand's joker stays in the hand's set.
    r = meld_lay("* 5b 5c 12d", ["1a * 3a"])
    assert r["deadwood"] == 12 and meld_names(r) == [["5b", "5c", "*"]] and r["laid"] == []


def test_ties_keep_the_hands_own_melds():
    # 4a 5a 6a can meld in the hand or go onto 1-2-3a: both count 12 (the 12d); the hand keeps its run.
    r = meld_lay("4a 5a 6a 12d", ["1a 2a 3a"])
    assert r["deadwood"] == 12 and meld_names(r) == [["4a", "5a", "6a"]] and r["laid"] == []
    # without melds on the table it is best_melds
    assert meld_lay("4a 5a 6a 12d", [])["deadwood"] == 12
    with pytest.raises(ValueError, match="not a valid meld"):
        meld_lay("4a", ["1a 2a"])


def brute_meld_and_lay_off(cards: list[K], melds: list[list[K]], order: list, per_meld: int) -> tuple:
    """(deadwood, loose cards, laid cards), least first: every set of cards that can be split among
    the melds (each meld taking its part one card at a time), with the best partition of the rest."""
    n = len(cards)

    @cache
    def onto(k: int, mask: int) -> bool:
        return _chainable(melds[k], [cards[i] for i in range(n) if mask >> i & 1], order, per_meld)

    @cache
    def split(k: int, mask: int) -> bool:
        if k == len(melds):
            return mask == 0
        sub = mask
        while True:  # every part of mask, meld k taking it
            if onto(k, sub) and split(k + 1, mask ^ sub):
                return True
            if sub == 0:
                return False
            sub = (sub - 1) & mask

    best = None
    for laid in range(1 << n):
        if split(0, laid):
            rest = [c for i, c in enumerate(cards) if not laid >> i & 1]
            deadwood, neg_melded, _ = brute_best(rest, order, per_meld)
            key = (deadwood, len(rest) + neg_melded, bin(laid).count("1"))
            best = key if best is None else min(best, key)
    return best


def random_tables(count: int, seed: int):
    """(hand, table melds, order, jokers per meld): 4-8 cards and 1-3 melds drawn from a few
    neighbouring ranks of two suits plus those ranks in every suit (so that they interlock);
    one or two decks; jokers on the table and in the hand now and then.  Every other hand
    holds the card above a run of the table with two more of its rank (a set in the hand)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        order = rng.choice([ORDER_40, ORDER_48])
        per_meld = rng.choice([1, 1, 2])
        suits = rng.sample("abcd", 2)
        at = rng.randrange(len(order) - 5)
        ranks = order[at:at + 6]
        deck = [K(s, r) for _ in range(rng.choice([1, 1, 2])) for s in "abcd" for r in order
                if s in suits and r in ranks or r in ranks[1:4]]
        rng.shuffle(deck)
        table = deck[:9] + [K(None, None, True) for _ in range(rng.random() < 0.3)]
        planted = []
        if made % 2:  # a run of suit suits[0] on the table, its next card and two more of that rank in the hand
            run = [c for c in deck if c.suit == suits[0] and c.rank in ranks[:3]][:3]
            planted = [c for c in deck if c.rank == ranks[3] and c.suit != "x"][:3]
            if len(run) < 3 or len(planted) < 3 or suits[0] not in {c.suit for c in planted}:
                continue
            table = run + [c for c in table if c not in run and c not in planted]
        melds = best_melds(table, order, jokers="joker", jokers_per_meld=per_meld)["melds"][:3]
        if not melds:
            continue
        used = {id(c) for m in melds for c in m}
        n_jokers = rng.choice([0, 0, 1, 2])
        n = rng.randint(max(4, len(planted) + n_jokers), 8)
        rest = [c for c in deck if id(c) not in used and c not in planted]
        cards = planted + rest[:n - n_jokers - len(planted)] + [K(None, None, True) for _ in range(n_jokers)]
        rng.shuffle(cards)
        yield cards, melds, order, per_meld
        made += 1


@pytest.mark.slow
def test_brute_force_agrees_on_meld_and_lay_off():
    checked = rearranged = with_jokers = 0
    for cards, melds, order, per_meld in random_tables(250, seed=15):
        r = meld_and_lay_off(cards, melds, order, jokers="joker", jokers_per_meld=per_meld)
        deadwood, loose, laid = brute_meld_and_lay_off(cards, melds, order, per_meld)
        assert (r["deadwood"], len(r["loose"]), len(r["laid"])) == (deadwood, loose, laid), (cards, melds)
        # a real answer: every card once; the hand's melds valid; each table meld is the old one
        # plus some laid cards, reachable one card at a time; deadwood is the loose value
        out = [c for m in r["melds"] for c in m] + r["laid"] + r["loose"]
        assert sorted(map(id, out)) == sorted(map(id, cards))
        assert all(brute_valid(m, order, per_meld) for m in r["melds"])
        added = []
        for old, new in zip(melds, r["table"]):
            extra = [c for c in new if not any(c is d for d in old)]
            assert len(new) == len(old) + len(extra) and _chainable(old, extra, order, per_meld)
            added += extra
        assert sorted(map(id, added)) == sorted(map(id, r["laid"]))
        assert r["deadwood"] == sum(50 if c.joker else c.rank for c in r["loose"])
        # how often laying off from the best partition alone (lay_off_all) counts more
        alone = best_melds(cards, order, jokers="joker", jokers_per_meld=per_meld)["loose"]
        rearranged += lay_off_all(alone, melds, order, jokers="joker",
                                  jokers_per_meld=per_meld)["deadwood"] > r["deadwood"]
        checked += 1
        with_jokers += any(c.joker for c in cards)
    assert checked == 250 and rearranged >= 15 and with_jokers >= 80, (rearranged, with_jokers)


# ============================================================== longest_run
def test_longest_run():
    # The seven-card run of one suit, 40-card order: 4 5 6 7 10 11 12.
    assert longest_run(hand("4a 5a 6a 7a 10a 11a 12a"), ORDER_40) == 7
    # ... which is not consecutive with 48 cards (8, 9 missing): 4-7 is four.
    assert longest_run(hand("4a 5a 6a 7a 10a 11a 12a"), ORDER_48) == 4
    # Jokers are left out: 1-2-3 * 5-6-7 is two chains of three.
    assert longest_run(hand("1a 2a 3a * 5a 6a 7a"), ORDER_40, jokers="joker") == 3
    # Suits do not mix; duplicates count once; no wrap-around.
    assert longest_run(hand("1a 2b 3a 4a 4a"), ORDER_40) == 2
    assert longest_run(hand("11a 12a 1a 2a"), ORDER_40) == 2
    assert longest_run([], ORDER_40) == 0
    assert longest_run(hand("8a"), ORDER_40) == 0  # not in the order


# ============================================================== brute force
def brute_valid(cards: list[K], order: list, per_meld: int = 1) -> bool:
    """An independent reading of the meld rules, by trying every window of the order."""
    reals = [c for c in cards if not c.joker]
    jokers = len(cards) - len(reals)
    if not reals or jokers > per_meld:
        return False
    if 3 <= len(cards) <= 4 and len({c.rank for c in reals}) == 1:
        return True
    if len(cards) < 3 or len({c.suit for c in reals}) != 1:
        return False
    ranks = sorted(c.rank for c in reals)
    for start in range(len(order) - len(cards) + 1):
        window = order[start:start + len(cards)]
        # each real card takes a distinct rank of the window; jokers take the rest
        if all(r in window for r in ranks) and len(set(ranks)) == len(ranks):
            return True
    return False


def brute_best(cards: list[K], order: list, per_meld: int = 1) -> tuple:
    """(deadwood, -melded, melds) minimum over every collection of disjoint valid melds."""
    n = len(cards)
    value = [50 if c.joker else c.rank for c in cards]
    valid = [frozenset(s) for size in range(3, n + 1) for s in combinations(range(n), size)
             if brute_valid([cards[i] for i in s], order, per_meld)]
    best = None

    def search(start: int, used: frozenset, count: int, melded: int) -> None:
        nonlocal best
        key = (sum(value[i] for i in range(n) if i not in used), -melded, count)
        if best is None or key < best:
            best = key
        for k in range(start, len(valid)):
            if not valid[k] & used:
                search(k + 1, used | valid[k], count + 1, melded + len(valid[k]))

    search(0, frozenset(), 0, 0)
    return best


def random_hands(count: int, seed: int):
    """(cards, order, jokers per meld): 3 to 8 cards, one or two decks, often with 1-2 jokers."""
    rng = random.Random(seed)
    for _ in range(count):
        order = rng.choice([ORDER_40, ORDER_48])
        decks = rng.choice([1, 1, 2])
        deck = [K(s, r) for _ in range(decks) for s in "abcd" for r in order]
        # bias towards meld-rich hands: half the time draw from two suits and five ranks only
        if rng.random() < 0.5:
            suits, ranks = rng.sample("abcd", 2), order[rng.randrange(len(order) - 4):][:5]
            deck = [c for c in deck if c.suit in suits or c.rank in ranks]
        n = rng.randint(3, 8)
        n_jokers = min(n - 1, rng.choice([0, 0, 1, 2]))
        cards = rng.sample(deck, n - n_jokers) + [K(None, None, True) for _ in range(n_jokers)]
        rng.shuffle(cards)
        yield cards, order, rng.choice([1, 1, 2])


def test_brute_force_agrees_on_random_hands():
    checked = with_jokers = 0
    for cards, order, per_meld in random_hands(300, seed=2024):
        r = best_melds(cards, order, jokers="joker", jokers_per_meld=per_meld)
        deadwood, neg_melded, count = brute_best(cards, order, per_meld)
        assert r["deadwood"] == deadwood, cards
        # the documented tie-breaks: most cards melded, then fewest melds
        assert sum(map(len, r["melds"])) == -neg_melded, cards
        assert len(r["melds"]) == count, cards
        # the answer is a real partition: every card once, every meld valid, deadwood = loose value
        out = [c for m in r["melds"] for c in m] + r["loose"]
        assert sorted(map(id, out)) == sorted(map(id, cards))
        assert all(brute_valid(m, order, per_meld) for m in r["melds"])
        assert r["deadwood"] == sum(50 if c.joker else c.rank for c in r["loose"])
        checked += 1
        with_jokers += any(c.joker for c in cards)
    assert checked == 300 and with_jokers > 100


def test_meldable_is_every_card_of_some_valid_meld():
    checked = some = none = 0
    for cards, order, per_meld in random_hands(300, seed=99):
        n = len(cards)
        in_a_meld = {i for size in range(3, n + 1) for s in combinations(range(n), size)
                     if brute_valid([cards[i] for i in s], order, per_meld) for i in s}
        got = meldable(cards, order, jokers="joker", jokers_per_meld=per_meld)
        assert [id(c) for c in got] == [id(c) for i, c in enumerate(cards) if i in in_a_meld], cards
        # a card in no meld is loose in the best partition too
        loose = best_melds(cards, order, jokers="joker", jokers_per_meld=per_meld)["loose"]
        assert all(any(c is d for d in loose) for i, c in enumerate(cards) if i not in in_a_meld)
        checked += 1
        some += 0 < len(got) < n
        none += not got
    assert checked == 300 and some > 50 and none > 20


def test_meldable_without_jokers_of_any_shape():
    # meldable reads hands without jokers its own way (bits per suit and position, a count
    # per rank): every card of some subset that is_meld accepts, for other meld sizes,
    # two decks, many suits and ranks outside the order (in a set, never in a run).
    rng = random.Random(11)
    shapes = [(3, 4, 3), (2, 3, 2), (3, 3, 4), (1, 4, 1), (0, 2, 0), (5, 4, 3), (3, 8, 5), (4, 4, 11)]
    some = 0
    for _ in range(300):
        order = rng.choice([ORDER_40, ORDER_48, tuple(ORDER_40), [str(r) for r in ORDER_40]])
        suits = rng.choice(["abcd", "ab", "abcdefghijk"])
        ranks = list(order) + rng.choice([[], [8, 9, "x"]])
        deck = [K(s, r) for _ in range(rng.choice([1, 2])) for s in suits for r in ranks]
        if rng.random() < 0.5:  # meld-rich: two suits and five ranks only
            few, near = rng.sample(suits, 2), ranks[rng.randrange(len(ranks) - 4):][:5]
            deck = [c for c in deck if c.suit in few or c.rank in near]
        cards = rng.sample(deck, rng.randint(0, 8))
        min_set, max_set, min_run = rng.choice(shapes)
        kw = {"min_set": min_set, "max_set": max_set, "min_run": min_run}
        n = len(cards)
        in_a_meld = {i for size in range(1, n + 1) for s in combinations(range(n), size)
                     if is_meld([cards[i] for i in s], order, **kw) for i in s}
        got = meldable(cards, order, **kw)
        assert [id(c) for c in got] == [id(c) for i, c in enumerate(cards) if i in in_a_meld], (cards, kw)
        some += 0 < len(got) < n
    assert some > 25


def test_meldable_of_many_cards_of_one_rank():
    # a rank held many times (ranks were once counted a byte each, up to 127 cards)
    order = list(range(1, 13))
    for n in (126, 127, 128, 200):
        cards = [K("abcd"[i % 4], 5) for i in range(n)] + [K("a", 9), K("b", 9)]
        assert meldable(cards, order, max_set=n) == cards[:n]
        assert meldable(cards, order, min_set=n, max_set=n) == cards[:n]
        assert meldable(cards, order, min_set=n + 1, max_set=n + 2) == []
        assert meldable(cards, order, min_set=2, max_set=2) == cards


def test_made_up_attribute_names_are_read_without_growing_a_table():
    from naipes.library import melds
    cards = [K("a", r) for r in (1, 2, 3)]
    for i in range(melds._MAX_READERS + 10):
        with pytest.raises(AttributeError):
            meldable(cards, ORDER_40, suit=f"made_up_{i}")
    assert len(melds._ATTRIBUTE_READERS) <= melds._MAX_READERS
    assert meldable(cards, ORDER_40) == cards  # and the usual names still read


def test_brute_force_agrees_on_lay_off():
    # lay_off_all against trying every assignment of hand cards to melds (or kept),
    # a card going onto a meld only if, in some order, each card laid keeps it a meld.
    rng = random.Random(7)
    checked = 0
    while checked < 100:
        deck = [K(s, r) for s in "ab" for r in ORDER_40] + [K(None, None, True)]
        rng.shuffle(deck)
        melds = [r for r in best_melds(deck[:9], ORDER_40, jokers="joker")["melds"]]
        if not melds:
            continue
        cards = deck[9:9 + rng.randint(1, 5)]
        r = lay_off_all(cards, melds, ORDER_40, jokers="joker")
        best = None
        for assign in _assignments(len(cards), len(melds)):
            groups = [[c for c, a in zip(cards, assign) if a == k] for k in range(len(melds))]
            if all(_chainable(m, g) for m, g in zip(melds, groups)):
                left = sum(50 if c.joker else c.rank for c, a in zip(cards, assign) if a == len(melds))
                best = left if best is None else min(best, left)
        assert r["deadwood"] == best, (cards, melds)
        checked += 1


def _assignments(n: int, k: int):
    if n == 0:
        yield ()
        return
    for rest in _assignments(n - 1, k):
        for a in range(k + 1):
            yield (a,) + rest


def _chainable(meld: list, extra: list, order: list = ORDER_40, per_meld: int = 1) -> bool:
    """`meld` takes the cards `extra` one at a time, in some order, staying a meld."""
    if not extra:
        return True
    return any(brute_valid(meld + [c], order, per_meld)
               and _chainable(meld + [c], extra[:i] + extra[i + 1:], order, per_meld)
               for i, c in enumerate(extra))


# ============================================================== through a rule file
RULES = """
game: t
cards:
  attributes: {suit: [a, b, c, d], rank: [1, 2, 3, 4, 5, 6, 7, 10, 11, 12], joker: [false]}
  extra: [{joker: true}]
  name: "'*' if c.joker else str(c.rank) + c.suit"
  start: deck
zones:
  deck: {}
  hand: {}
state:
  order: "[1, 2, 3, 4, 5, 6, 7, 10, 11, 12]"
  out: "None"
setup: |
  move [c for c in deck if c.joker or (c.suit == 'a' and c.rank <= 4)
        or (c.rank == 4 and c.suit in ['b', 'c']) or (c.suit == 'd' and c.rank == 12)] to hand
  let r = best_melds(hand, order, jokers='joker')
  let figures = best_melds(hand, order, jokers='joker', value=lambda c: min(c.rank, 10))
  out = {'deadwood': r['deadwood'], 'melds': [[c.name for c in m] for m in r['melds']],
         'loose': [c.name for c in r['loose']], 'figures': figures['deadwood'],
         'run': longest_run(hand, order, jokers='joker'), 'is_meld': is_meld(r['melds'][0], order, jokers='joker'),
         'laid': [c.name for c in lay_off_all([c for c in deck if c.suit == 'b' and c.rank >= 10],
                                              [[c for c in deck if c.suit == 'b' and c.rank in [5, 6, 7]]],
                                              order)['laid']]}
rules:
  - name: finish
    when: "True"
    then: "end game"
"""


def _load(tmp_path, text: str):
    path = tmp_path / "g.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return load_program(path, {})


@pytest.mark.parametrize("search, args", [
    (solve_melds, ("1a 2a * 5b 5c * 7d 10d 11d 3b 3c",)),
    (meldable, ("1a 2a * 5b 5c * 7d 10d 11d 3b 3c",)),
    (lay_off_all, ("3a * 12b 4d", ["1a 2a *", "12a 12c 12d"])),
    (meld_and_lay_off, ("3a * 12b 4d 5d 6d", ["1a 2a *", "12a 12c 12d"])),
])
def test_a_search_spends_its_steps_from_the_budget_it_is_given(search, args):
    cards, *table = args
    call = lambda budget: search(hand(cards), *([hand(m) for m in t] for t in table), ORDER_40,  # noqa: E731
                                 jokers="joker", jokers_per_meld=2, budget=budget)
    budget = Budget()
    found = call(budget)
    spent = MAX_STEPS - budget.steps
    assert spent > 0
    budget.steps = spent  # exactly enough: the same search, the same result
    assert names(call(budget)) == names(found) if search is meldable else call(budget).keys() == found.keys()
    assert budget.steps == 0
    budget.steps = spent - 1  # one step short: the search ends as a runaway does
    with pytest.raises(GameError, match="steps in one go"):
        call(budget)


def test_a_hand_solved_before_costs_no_steps():
    cards, budget = hand("1a 2a 3a * 7b 7c 12d"), Budget()
    first = best_melds(cards, ORDER_40, jokers="joker", budget=budget)
    assert budget.steps < MAX_STEPS
    budget.refuel()
    assert best_melds(cards, ORDER_40, jokers="joker", budget=budget) == first
    assert budget.steps == MAX_STEPS


def test_best_melds_from_a_rule_file(tmp_path):
    game = Game(_load(tmp_path, RULES), 0)
    game.start()
    out = game.memory.vars["out"]
    # The hand, in deck order: 1a 2a 3a 4a 4b 4c 12d *.  The 4a goes to the set (see the
    # greedy test) and the joker joins a meld (a loose joker would cost 50); the 12d
    # cannot be melded (12d + * is two cards).  The joker could extend the run
    # (1-2-3a-*) or the set (4a 4b 4c *): the last tie-break takes the melds of the earliest
    # cards, [1a 2a 3a] before [1a 2a 3a *], so the joker goes to the set.
    assert out["deadwood"] == 12
    assert out["melds"] == [["1a", "2a", "3a"], ["4a", "4b", "4c", "*"]]
    assert out["loose"] == ["12d"]
    assert out["figures"] == 10  # the 12 counts 10 with value=lambda c: min(c.rank, 10)
    assert out["run"] == 4       # 1-2-3-4a
    assert out["is_meld"] is True
    # 10b 11b 12b onto the run 5-6-7b: a chain across the 7-10 step, in the order of the deck.
    assert out["laid"] == ["10b", "11b", "12b"]


def test_rule_file_errors(tmp_path):
    # An unknown keyword is a load-time error with a location...
    bad = RULES.replace("jokers='joker')\n  let figures", "joker='joker')\n  let figures")
    with pytest.raises((RuleError, RuleErrors), match="no keyword argument 'joker'"):
        _load(tmp_path, bad)
    # ... and a name the file did not declare is an error where it runs: names are read behind the engine's prefix
    bad = RULES.replace("jokers='joker')\n  let figures", "jokers='__class__')\n  let figures")
    with pytest.raises(GameError, match="a card has no attribute '__class__'"):
        Game(_load(tmp_path, bad), 0).start()


@pytest.mark.parametrize("call, kind", [
    ("str(best_melds(list(seen), [0], rank='time_tag', suit='kind', value='time_tag', min_set=9))", "a fact 'seen'"),
    ("longest_run([pile], [0], suit='slot', rank='slot')", "a list"),  # (a zone is a list of cards)
    ("is_meld(list(seen), ['seen'], suit='kind', rank='kind')", "a fact 'seen'"),
])
def test_a_meld_functions_attribute_names_read_only_what_the_file_declared(tmp_path, call, kind):
    # the options took an attribute name as text and read it from whatever they were given (a red team read a
    # fact's time tag and a zone's slot number): a name is now the file's own attribute, or a located error
    path = tmp_path / "g.yaml"
    path.write_text(f"""game: g
players: 2
facts:
  seen: [what]
zones:
  pile: {{}}
state:
  x: "None"
setup: |
  assert seen(what=1)
  x = {call}
rules:
  - name: done
    then: "end game"
""", encoding="utf-8")
    with pytest.raises(GameError) as caught:
        Game(load_program(path), 0).start()
    assert "has no attribute" in caught.value.message and kind in caught.value.message
    assert caught.value.location.line == 11


@dataclass(eq=False)
class Coloured:
    suit: str
    rank: int
    colour: str


def test_meldable_remembers_where_each_card_goes_by_order_and_names_read(monkeypatch):
    # a card's place in the bit rows is remembered by the card (a hashable card keeps its attributes), for one
    # order and the names it is read by: the same cards read with another order, or by other names, are placed
    # afresh; and what is remembered is let go past _MAX_CARDS cards, the answers unchanged
    from types import SimpleNamespace

    from naipes.library import melds
    run = [Coloured("a", 8, "red"), Coloured("a", 9, "red"), Coloured("a", 10, "red"), Coloured("a", 11, "red")]
    assert meldable(run, ORDER_48) == run
    assert meldable(run, ORDER_40) == []  # 8 and 9 are not in the order: 10 11 alone
    assert meldable(run, ORDER_48) == run
    mixed = [Coloured("a", 1, "red"), Coloured("a", 2, "red"), Coloured("b", 3, "red")]
    assert meldable(mixed, ORDER_40) == []
    assert meldable(mixed, ORDER_40, suit="colour") == mixed
    assert meldable(mixed, ORDER_40) == []
    monkeypatch.setattr(melds, "_MAX_CARDS", 3)
    rng = random.Random(4)
    deck = [Coloured(s, r, "red") for s in "abcd" for r in ORDER_40]
    for _ in range(200):
        cards = rng.sample(deck, 8)
        unkept = [SimpleNamespace(suit=c.suit, rank=c.rank) for c in cards]  # (cannot be keys: read afresh)
        assert [id(c) for c in meldable(unkept, ORDER_40)] == \
            [id(u) for c, u in zip(cards, unkept) if c in meldable(cards, ORDER_40)]


def test_an_order_is_found_by_its_items_whatever_sequence_gives_them():
    # meldable keeps one _Places per order, found by the order's items as a tuple compares them: the same items
    # as a list, a new list or a tuple share it; other items, or the same ones in another order, do not; a rule
    # file making up orders without end keeps at most _MOST_ORDERS of them, the answers unchanged (the table is
    # the module's own, emptied rather than replaced: the compiled module keeps a Final table in C)
    from naipes.library import melds
    melds._PLACES.clear()
    first = melds._places_of(list(ORDER_40), "suit", "rank")
    assert melds._places_of(tuple(ORDER_40), "suit", "rank") is first
    assert melds._places_of([float(r) for r in ORDER_40], "suit", "rank") is first  # (1.0 == 1, as in a tuple)
    assert melds._places_of(list(reversed(ORDER_40)), "suit", "rank") is not first
    assert melds._places_of(list(ORDER_40)[:-1], "suit", "rank") is not first
    assert melds._places_of(iter(ORDER_40), "suit", "rank") is first  # (any iterable of the items)
    assert melds._places_of(list(ORDER_40), "colour", "rank") is not first
    rng = random.Random(8)
    deck = [Coloured(s, r, "red") for s in "abcd" for r in ORDER_40]
    hands = [rng.sample(deck, 7) for _ in range(30)]
    expected = [meldable(hand, ORDER_40) for hand in hands]
    for i in range(melds._MOST_ORDERS + 10):  # orders made up: 0, 1, ... i before the real ranks
        made_up = [-k for k in range(i + 1)] + list(ORDER_40)
        assert melds._places_of(made_up, "suit", "rank").order == tuple(made_up)
    assert sum(len(kept) for kept in melds._PLACES.values()) <= melds._MOST_ORDERS * len(melds._PLACES)
    assert all(len(kept) <= melds._MOST_ORDERS for kept in melds._PLACES.values())
    assert [meldable(hand, list(ORDER_40)) for hand in hands] == expected


def test_an_attribute_name_is_the_same_object_each_time_and_its_table_is_bounded():
    from naipes.library import names
    names._ATTRIBUTES.clear()  # (emptied, not replaced: the compiled module keeps a Final table in C)
    assert names.attribute("rank") == "a_rank" and names.attribute("ra" + "nk") is names.attribute("rank")
    for i in range(names._MOST_ATTRIBUTES + 50):
        assert names.attribute(f"made_up_{i}") == f"a_made_up_{i}"
    assert len(names._ATTRIBUTES) == names._MOST_ATTRIBUTES
    assert names.declared(names.attribute("made_up_2000")) == "made_up_2000"
