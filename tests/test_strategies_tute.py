"""Tute Cabrero strategies (strategies/tute_cabrero/): each level's choices pinned in positions.

Three players, trump oros unless a test says otherwise; P1 is the seat under
test. The other hands are left empty (their cards lie in the stock, unseen by
P1), so only P1's hand, the trick, the strategy's memory (points taken, cards
played, voids) and the public state matter. Card names: rank + suit initial
(1c as de copas, 12b rey de bastos, 11e caballo de espadas, 10o sota de oros).
Expected choices follow from the levels' rules (the strategy files' headers), worked out by hand in comments.
"""
from __future__ import annotations

from functools import cache

import pytest

from naipes.agents.registry import RandomAgent, load_strategy, strategy_agent
from naipes.language.loader import load_tree, read_rule_file
from naipes.runtime.game import play_game
from naipes.tools.scenario import arrange

from helpers import RULESETS, STRATEGIES, choose, program, start_game

# slow: each of the five strategy levels is compiled once (a second or two each), and the positions play on views
pytestmark = pytest.mark.slow

TUTE = str(RULESETS / "tute_cabrero.yaml")
LEVELS = STRATEGIES / "tute_cabrero"
SEATS = ["P1", "P2", "P3"]
ROUND = 2


@cache
def strategy(level):
    return load_strategy(LEVELS / f"{level}.yaml", program(TUTE))


def position(hand, trick="", *, leader="P1", trump="oros", tricks=None, sung=None, others=("", "")):
    """P1 holds `hand` (P2, P3: `others`); `trick` was played in turn from `leader`; P1 is asked to play (or sing)."""
    game = start_game(TUTE, 3)
    played = trick.split()
    assert SEATS[(SEATS.index(leader) + len(played)) % 3] == "P1", "the trick must end before P1's turn"
    zones = {"P1.hand": hand, "P2.hand": others[0], "P3.hand": others[1], "trick": trick, "turnup": "",
             **{f"{p}.won": "" for p in SEATS}}
    first = SEATS.index(leader)
    state = {"phase": "'play'", "trump": repr(trump), "round_number": str(ROUND),
             "leader": f"players[{first}]", "mano": f"players[{first}]", "turn": "players[0]",
             "played": "[(seat_order(leader)[i], c) for i, c in enumerate(trick)]"}
    player_state = {f"{p}.tricks": str((tricks or {}).get(p, 0)) for p in SEATS}
    player_state.update({f"{p}.sung": repr((sung or {}).get(p, [])) for p in SEATS})
    return arrange(game, zones=zones, state=state, player_state=player_state, to_move=("P1", "play, sing"))


def decide(game, level, stale=(), **memory):
    """(label of the option chosen, rule that chose it) for P1 playing `level` with this memory
    (`stale`: memories that were about an earlier hand)."""
    agent = strategy_agent(strategy(level), seed=0)
    decision = game.decision()
    agent.attach(game, decision.player)
    agent.memory.update(memory)  # attached in this hand: its memory is this hand's (reset: round_number)
    agent.scopes.update({name: ROUND - 1 for name in stale})
    option, rule = agent.decide(decision)
    return option.label, rule


def void(**suits_by_player):
    """The expert's per-player memory `voids`: the suits each of P1, P2, P3 showed he lacks."""
    return tuple(suits_by_player.get(f"P{i}", []) for i in (1, 2, 3))


def after_a_trick(hand, taken=(30, 0, 0), **kw):
    """P1 took the last trick (situation 2): he leads; `taken` = card points of each player this hand."""
    return position(hand, tricks={"P1": 1, "P2": int(taken[1] > 0), "P3": int(taken[2] > 0)}, **kw), list(taken)


# ======================================================= situation 1: the first lead
def test_novice_opens_with_its_highest_card_holding_more_than_35_points():
    # 11 + 10 + 10 + 4 + 3 = 38 > 35: Más, the highest card (the as)
    game = position("1c 3c 3e 12b 11b 4o 2c")
    assert decide(game, "novice") == ("1c", "open_when_mas")


def test_novice_opens_with_its_lowest_card_holding_35_points_or_fewer():
    # 11 + 10 + 10 + 4 = 35, not more: Menos, the lowest card (2 < 4; a plain 2 below the trump 4)
    game = position("1c 3c 3e 12b 4o 2c")
    assert decide(game, "novice") == ("2c", "open_when_menos")


def test_medium_and_expert_count_the_trumps_in_hand_to_open():
    # 10 + 2 + 4 + 3 = 19 card points (novice: Menos); medium: + 3 trumps x 6 = 37 > 35: Más
    game = position("3c 10c 5o 6o 7o 12b 11b 2e")
    assert decide(game, "novice") == ("2e", "open_when_menos")
    assert decide(game, "medium") == ("3c", "open_when_mas")
    assert decide(game, "expert") == ("3c", "open_when_mas")


# ============================================= situation 2: leading after a trick
def test_novice_leads_its_highest_card_when_closer_to_the_top():
    # in the game: me 30 + 13 in hand, the others 40 and 0: 3 from the top, 43 from the bottom
    game, taken = after_a_trick("1c 10c 4e", taken=(30, 40, 0))
    assert decide(game, "novice", taken=taken) == ("1c", "lead_when_mas")


def test_novice_leads_its_lowest_card_when_closer_to_the_bottom():
    # me 4 + 2 in hand = 6, the others 60 and 0: Menos
    game, taken = after_a_trick("10c 4e 5b", taken=(4, 60, 0))
    assert decide(game, "novice", taken=taken) == ("4e", "lead_when_menos")


@pytest.mark.parametrize("gone, expected", [
    ([(4, "espadas"), (5, "espadas")], "1c"),                    # copas: 1 card known, espadas 3
    ([(3, "copas"), (12, "copas"), (11, "copas")], "1e"),         # copas: 4 known, espadas 1
])
def test_medium_leads_a_winning_card_of_the_suit_least_played_when_mas(gone, expected):
    game, taken = after_a_trick("1c 1e 4b")
    assert decide(game, "medium", taken=taken, gone=gone) == (expected, "lead_master_of_least_known_suit")


def test_a_card_is_winning_only_when_every_stronger_one_of_its_suit_was_seen():
    # 3e: the as de espadas is unseen -> not winning; once played it is: lead it
    game, taken = after_a_trick("3e 12c 4b")
    assert decide(game, "medium", taken=taken)[1] == "lead_when_mas"
    assert decide(game, "medium", taken=taken, gone=[(1, "espadas")]) == ("3e", "lead_master_of_least_known_suit")


def test_medium_leads_its_lowest_card_when_mas_without_a_winning_card():
    # the novice leads the highest (rey); the medium, with no winning card, the lowest
    game, taken = after_a_trick("12c 4e 5b")
    assert decide(game, "novice", taken=taken) == ("12c", "lead_when_mas")
    assert decide(game, "novice_plus", taken=taken) == ("4e", "lead_when_mas")   # not a seed level
    assert decide(game, "medium", taken=taken) == ("4e", "lead_when_mas")


def menos_lead():
    # me 10 + 4 in hand + 2 trumps x 6 = 26; the others 60 and 0: 34 from the top, 26 from the bottom: Menos
    return after_a_trick("5o 7o 2c 4e 12e", taken=(10, 60, 0))


def test_medium_leads_its_highest_losing_trump_when_menos():
    game, taken = menos_lead()
    assert decide(game, "medium", taken=taken) == ("7o", "lead_losing_trump_when_menos")


def test_expert_leads_its_lowest_card_when_menos_and_the_competitor_follows_everything():
    game, taken = menos_lead()
    assert decide(game, "expert", taken=taken) == ("2c", "lead_when_menos")


def test_expert_leads_into_the_competitors_void_when_menos():
    # the competitor going Menos is P3 (0 points); he is void in espadas: the highest espada
    game, taken = menos_lead()
    voids = void(P3=["espadas"])
    assert decide(game, "expert", taken=taken, voids=voids) == ("12e", "lead_into_competitor_void_when_menos")
    # a void of another hand does not count (the memory starts again with each hand)
    assert decide(game, "expert", taken=taken, voids=voids, stale=["voids"]) == ("2c", "lead_when_menos")


def test_expert_avoids_a_suit_where_an_opponent_is_void():
    gone = [(4, "espadas"), (5, "espadas")]   # the medium would lead copas (fewer cards known)
    game, taken = after_a_trick("1c 1e 4b")
    assert decide(game, "medium", taken=taken, gone=gone) == ("1c", "lead_master_of_least_known_suit")
    assert decide(game, "expert", taken=taken, gone=gone) == ("1c", "lead_master_of_least_known_suit")
    void_in_copas = void(P2=["copas"])        # P2 did not follow copas: he would trump the as
    assert decide(game, "expert", taken=taken, gone=gone, voids=void_in_copas) == \
        ("1e", "lead_master_of_least_known_suit")
    # ... unless he is void in trumps too
    no_trumps = void(P2=["copas", "oros"])
    assert decide(game, "expert", taken=taken, gone=gone, voids=no_trumps) == \
        ("1c", "lead_master_of_least_known_suit")


def test_expert_leads_a_winning_trump_first():
    # 3o wins once the as de oros was played; the as de copas wins too: the trump first
    game, taken = after_a_trick("3o 1c 4b")
    assert decide(game, "expert", taken=taken, gone=[(1, "oros")]) == ("3o", "lead_winning_trump")
    assert decide(game, "medium", taken=taken, gone=[(1, "oros")]) == ("1c", "lead_master_of_least_known_suit")


def test_expert_without_a_winning_card_leads_low_in_the_richest_suit_the_competitor_follows():
    # no winning card; 14 points of bastos played, 11 of copas: the lowest basto;
    # the competitor going Más is P2 (40 points); void in bastos: copas instead
    gone = [(1, "bastos"), (3, "bastos"), (12, "bastos"), (1, "copas")]
    game, taken = after_a_trick("12c 4c 5b 7b 6e", taken=(30, 40, 0))
    assert decide(game, "expert", taken=taken, gone=gone) == ("5b", "lead_low_in_richest_suit_competitor_follows")
    voids = void(P2=["bastos"])
    assert decide(game, "expert", taken=taken, gone=gone, voids=voids) == \
        ("4c", "lead_low_in_richest_suit_competitor_follows")


# ============================================================ singing
def test_a_player_going_mas_sings_and_going_menos_does_not():
    game, taken = after_a_trick("12c 11c 1e 4b", taken=(30, 40, 0))
    for level in ("novice", "medium", "expert"):
        assert decide(game, level, taken=taken) == ("sing las veinte en copas", "sing_when_mas")
    game, taken = after_a_trick("12c 11c 4e 4b", taken=(4, 60, 0))
    assert decide(game, "novice", taken=taken) == ("4e", "lead_when_menos")


def test_tute_is_always_sung():
    game, taken = after_a_trick("12c 12o 12e 12b 2c", taken=(4, 60, 0))
    for level in ("novice", "medium", "expert"):
        assert decide(game, level, taken=taken) == ("sing tute", "sing_tute")


# ================================================================ situation 3: following
@pytest.mark.parametrize("hand, expected", [
    ("1c 10c 3e 3b 12b", ("1c", "follow_when_mas")),    # 37 points: Más, the highest legal card
    ("1c 10c 5e", ("10c", "follow_when_menos")),        # 13 points: Menos, the lowest legal card
])
def test_following_highest_when_mas_lowest_otherwise(hand, expected):
    game = position(hand, "4c", leader="P3")
    for level in ("novice", "medium", "expert"):
        assert decide(game, level) == expected


def test_medium_following_mas_plays_low_when_it_cannot_beat_the_trick():
    # Más (37 points) but the as de copas is on the table: the novice still plays its highest copa
    game = position("3c 10c 1e 3e 12e", "1c", leader="P3")
    assert decide(game, "novice") == ("3c", "follow_when_mas")
    assert decide(game, "novice_plus") == ("10c", "follow_when_mas")   # not a seed level: the novice made stronger
    assert decide(game, "medium") == ("10c", "follow_when_mas")
    assert decide(game, "expert") == ("10c", "follow_when_mas")


def test_medium_menos_void_and_without_trumps_throws_its_highest_card():
    game = position("1e 5b 6e", "4c", leader="P3")
    assert decide(game, "novice") == ("5b", "follow_when_menos")
    assert decide(game, "medium") == ("1e", "throw_highest_when_void_without_trumps")
    assert decide(game, "expert") == ("1e", "throw_highest_when_void_without_trumps")


# ========================================================== memory from observation


@pytest.mark.parametrize("p2_hand, p2_plays, taken, voids", [
    # P2 trumps the copa with the rey de oros and takes 2 + 11 + 4 = 17: void in copas
    ("12o 5b", "12o", [0, 17, 0], void(P2=["copas"])),
    # P2 throws a basto with no trump on the table: void in copas and in oros; P1's as takes 13
    ("5b 6b", "5b", [13, 0, 0], void(P2=["copas", "oros"])),
])
def test_the_memory_counts_the_points_taken_the_cards_played_and_the_voids(p2_hand, p2_plays, taken, voids):
    game = position("1c 4b", "10c", leader="P3", others=(p2_hand, "7b"))
    agent = strategy_agent(strategy("expert"), seed=0)
    agent.attach(game, 0)
    choose(game, "1c")
    choose(game, p2_plays)
    memory = agent.memory
    assert agent.scopes == {"taken": ROUND, "gone": ROUND, "voids": ROUND}  # the hand the memory is about
    assert memory["taken"] == taken
    assert memory["gone"] == [(1, "copas"), (int(p2_plays[:-1]), {"o": "oros", "b": "bastos"}[p2_plays[-1]])]
    assert memory["voids"] == voids


# ================================================================ strong (our own)
def test_strong_goes_menos_with_an_ordinary_hand_and_leads_the_card_most_likely_beaten():
    # 11 + 4 points: Menos; the 2 de copas has 9 unseen stronger copas, the rey de bastos 2, the as none
    game = position("1e 12b 2c")
    assert decide(game, "strong") == ("2c", "lead_to_be_beaten_when_menos")
    assert decide(game, "expert") == ("2c", "open_when_menos")
    game = position("1e 12b 4c 3o 1o 12o")    # 39 + 3 trumps x 6 = 57: still Menos; the 4 de copas
    assert decide(game, "strong") == ("4c", "lead_to_be_beaten_when_menos")
    assert decide(game, "expert") == ("1o", "open_when_mas")


def test_strong_goes_mas_with_a_hand_that_can_take_the_top():
    game = position("1e 3e 12b 3o 1o 12o")    # 50 + 3 trumps x 6 = 68 > 60
    assert decide(game, "strong") == ("1o", "open_when_mas")


@pytest.mark.parametrize("trick, leader, hand, expected", [
    # nothing of P1's can beat the as: the highest copa that loses (shed the 3)
    ("1c", "P3", "3c 5c 12b", ("3c", "duck_with_the_highest_loser_when_menos")),
    # every legal copa beats the 4 and P2 is still to play: the lowest, which he must beat if he can
    ("4c", "P3", "3c 5c 12b", ("5c", "win_low_hoping_to_be_beaten_when_menos")),
    # last to play and every legal card wins: take it with the strongest
    ("4c 5c", "P2", "6c 12c 2b", ("12c", "take_with_the_strongest_when_forced")),
])
def test_strong_following_menos_avoids_the_trick(trick, leader, hand, expected):
    game = position(hand, trick, leader=leader)
    assert decide(game, "strong") == expected


# ================================================================ the levels build on each other
def rules_of(level):
    return {r["name"]: r for r in load_tree(LEVELS / f"{level}.yaml")["rules"]}


def test_each_level_extends_the_one_below():
    novice, medium, expert = rules_of("novice"), rules_of("medium"), rules_of("expert")
    # inherited unchanged
    assert medium["lead_when_menos"] == novice["lead_when_menos"]
    assert expert["throw_highest_when_void_without_trumps"] == medium["throw_highest_when_void_without_trumps"]
    assert expert["follow_when_mas"] == medium["follow_when_mas"]
    # overridden by name
    assert medium["follow_when_mas"]["choose"] != novice["follow_when_mas"]["choose"]
    assert medium["lead_when_mas"]["choose"] != novice["lead_when_mas"]["choose"]
    assert expert["lead_master_of_least_known_suit"]["choose"] != medium["lead_master_of_least_known_suit"]["choose"]
    # added, and removed
    assert set(novice) < set(medium)
    assert "lead_losing_trump_when_menos" not in expert and "lead_winning_trump" in expert
    assert read_rule_file(LEVELS / "medium.yaml")[0]["extends"] == "novice.yaml"
    assert read_rule_file(LEVELS / "expert.yaml")[0]["extends"] == "medium.yaml"


@pytest.mark.parametrize("level", ["novice", "medium", "expert", "strong"])
def test_every_level_plays_a_whole_match(level):
    agents = [strategy_agent(strategy(level), seed=1), RandomAgent(2), RandomAgent(3)]
    result = play_game(program(TUTE), agents, seed=5)
    assert sum(result.payoffs) >= 1
