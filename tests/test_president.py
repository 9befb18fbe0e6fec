"""President (rulesets/president.yaml; docs/games/president.md), pinned by scenarios and random games.

3 to 7 players, 52 cards all dealt one at a time from the player after the dealer (the first ones get a card more
where they do not go round).  Ranks climb 3 4 ... 10 J Q K A 2; suits never matter.  The leader plays one card or
a set of 2 to 4 cards of one rank; each next player still holding cards plays as many cards of a strictly higher
rank, or passes (a leader may not pass), and may play again when the turn comes back.  When every other player
still holding cards has passed since the last play, the last to play leads a new trick (if he has gone out, the
next player still holding cards).  The first out is President, the second Vice-President, the last left holding
cards Scum, the one before him Vice-Scum (from 4 players), the others citizens; a place scores a point per player
out after it.  From the second hand the Scum gives the President his two highest cards and the Vice-Scum the
Vice-President his highest; the President gives back any two, the Vice-President any one; the Scum deals and
leads.  After `hands` hands the highest total wins (ties all win).

Card names: rank (J, Q, K, A for 11 to 14; the 2 is 2) + suit initial: 3c, 10d, Jh, As, 2s.  Expected values
come from the rules above, not from running the rule file.
"""
from __future__ import annotations

import pytest

from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game
from naipes.tools.gamelog import record_game
from naipes.tools.scenario import arrange, player, zone

from helpers import RULESETS, V, choose, labels, names, program, start_game, unask

PRESIDENT = str(RULESETS / "president.yaml")
RANK = {"J": 11, "Q": 12, "K": 13, "A": 14}
LABEL = {11: "J", 12: "Q", 13: "K", 14: "A"}
ROLES = {"president", "vice_president", "citizen", "vice_scum", "scum"}


def start(players=4, seed=0, **params):
    return start_game(PRESIDENT, players, seed, **params)


def seats(players):
    return [f"P{i + 1}" for i in range(players)]


def rank(name):
    return RANK.get(name[:-1]) or int(name[:-1])


def height(r):
    """The climbing order: 3 lowest, the ace 14, the 2 highest."""
    return 15 if r == 2 else r


def set_label(r, n):
    """How a play of n cards of rank r reads: 'play a 7', 'play an A', 'play a pair of 7s', 'play three 2s'."""
    text = LABEL.get(r, str(r))
    if n == 1:
        return f"play {'an' if r in (8, 14) else 'a'} {text}"
    return f"play {['', '', 'a pair of', 'three', 'four'][n]} {text}s"


def expected_options(hand, top):
    """The rules written out: the labels offered to a player holding `hand` (names) when `top` = (rank, count)
    is the set to beat (None: he leads)."""
    counts = {}
    for card in hand:
        counts[rank(card)] = counts.get(rank(card), 0) + 1
    sets = {(r, n) for r, k in counts.items() for n in range(1, k + 1)}
    if top is None:
        return {set_label(r, n) for r, n in sets}
    return {set_label(r, n) for r, n in sets if n == top[1] and height(r) > height(top[0])} | {"pass"}


def index(name):
    return int(name[1:]) - 1


def on_table(hands, table="", *, last=None, mover="P1", passed=(), finished=(), players=4, **params):
    """A trick in play: `hands` set, `table` the last set played (by `last`; empty: `mover` leads), the players in
    `passed` having passed since; `finished` gone out, in order; `mover` asked to play."""
    game = unask(start(players, **params))
    zones = {f"{p}.hand": hands.get(p, "") for p in seats(players)}
    zones["table"] = table
    top = table.split()
    state = {"phase": "'play'", "turn": f"players[{index(mover)}]",
             "top_rank": str(rank(top[0])) if top else "None", "top_count": str(len(top)),
             "last_player": f"players[{index(last)}]" if last else "None",
             "finished": "[" + ", ".join(f"players[{index(p)}]" for p in finished) + "]"}
    passes = {f"{p}.passed": str(p in passed) for p in seats(players)}
    arrange(game, zones=zones, state=state, player_state=passes)
    return arrange(game, to_move=(mover, "play, pass" if top else "play"))


def announcements(game):
    """The texts the game announces from now on (a list that grows as it plays)."""
    texts = []
    game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    return texts


def roles(game):
    return {p.name: p.role for p in game.memory.players}


def scores(game):
    return {p.name: p.score for p in game.memory.players}


def hand_sizes(game):
    return [len(p.hand) for p in game.memory.players]


# ======================================================================= deal
@pytest.mark.parametrize("players, sizes", [
    (3, [18, 17, 17]), (4, [13, 13, 13, 13]), (5, [11, 11, 10, 10, 10]), (7, [8, 8, 8, 7, 7, 7, 7]),
])
def test_the_whole_pack_is_dealt_the_first_players_after_the_dealer_get_one_more(players, sizes):
    game = start(players)
    assert hand_sizes(game) == sizes
    held = [c.name for p in game.memory.players for c in p.hand]
    assert len(set(held)) == 52
    assert {rank(n) for n in held} == {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
    assert V(game)["dealer"].name == f"P{players}"


def test_the_player_after_the_dealer_leads_the_first_hand_any_set_and_may_not_pass():
    game = start(seed=5)
    p1 = player(game, "P1")
    assert game.to_move is p1 and game.decision().moves == ("play",)
    assert set(labels(game)) == expected_options(names(p1.hand), None)
    assert "pass" not in labels(game)


# ================================================================ legal plays
@pytest.mark.parametrize("table, hand, legal", [
    # a single on a single, strictly higher: not the equal K, not a pair
    ("Kc", "Kd Ac 2d 3c 3d", {"play an A", "play a 2"}),
    # a pair on a pair: not the single 8, not the equal 7s, not three 9s
    ("7c 7d", "7h 8c 9c 9d 9h 2s 2h", {"play a pair of 9s", "play a pair of 2s"}),
    # three on three
    ("5c 5d 5h", "6c 6d 6h 4c 4d 4s Ac", {"play three 6s"}),
    # four on four
    ("3c 3d 3h 3s", "4c 4d 4h 4s 5c 5d 5h", {"play four 4s"}),
    # the 2 is the highest: an ace does not beat it, nothing does
    ("2c", "Ac Kc", set()),
    # the ace beats the king, and the 3 beats nothing
    ("Kc Kd", "3c 3d Ah As", {"play a pair of As"}),
    # a set of the number played, even from a larger holding
    ("9c", "Jc Jd Jh", {"play a J"}),
])
def test_a_follower_plays_as_many_cards_of_a_higher_rank_or_passes(table, hand, legal):
    game = on_table({"P2": hand, "P1": "5s 6s"}, table, last="P1", mover="P2")
    assert set(labels(game)) == legal | {"pass"}
    assert set(labels(game)) == expected_options(hand.split(), (rank(table.split()[0]), len(table.split())))


@pytest.mark.parametrize("hand", ["3c 3d 3h 7s 2h", "Kc", "10c 10d Jh Jc Js"])
def test_a_leader_plays_any_set_and_may_not_pass(hand):
    game = on_table({"P3": hand, "P1": "5s"}, mover="P3")
    assert game.decision().moves == ("play",)
    assert set(labels(game)) == expected_options(hand.split(), None)


def test_a_play_puts_as_many_cards_of_the_rank_on_the_table_and_the_next_must_beat_it():
    game = on_table({"P1": "9c 9d 9h 3c", "P2": "10c 10d 10h Ks"}, mover="P1")
    choose(game, "play a pair of 9s")
    assert len(zone(game, "table")) == 2 and all(rank(c.name) == 9 for c in zone(game, "table"))
    assert sorted(rank(n) for n in names(player(game, "P1").hand)) == [3, 9]
    assert game.to_move.name == "P2"
    assert set(labels(game)) == {"play a pair of 10s", "pass"}


def test_a_player_who_passed_may_play_when_the_turn_comes_back():
    game = on_table({"P1": "5c 8c", "P2": "7c 9c", "P3": "Jc Qc", "P4": "4c 6c"}, mover="P1")
    choose(game, "play a 5")
    choose(game, "pass")                  # P2
    assert player(game, "P2").passed
    choose(game, "play a J")              # P3
    choose(game, "pass")                  # P4
    choose(game, "pass")                  # P1
    assert game.to_move.name == "P2" and set(labels(game)) == {"pass"}   # nothing of his beats the J
    choose(game, "pass")
    assert game.to_move.name == "P3" and V(game)["top_rank"] is None   # all passed: P3 leads
    choose(game, "play a Q")
    choose(game, "pass")                  # P4
    assert set(labels(game)) == {"pass"} and game.to_move.name == "P1"
    choose(game, "pass")
    assert game.to_move.name == "P2" and set(labels(game)) == {"pass"}


def test_a_pass_then_a_play_in_the_same_trick():
    game = on_table({"P1": "5c 3c", "P2": "9c 9d", "P3": "7c 4d", "P4": "6c 4c"}, mover="P1")
    choose(game, "play a 5")
    choose(game, "pass")                  # P2 passes though he could play
    choose(game, "play a 7")              # P3
    choose(game, "pass")                  # P4
    choose(game, "pass")                  # P1
    assert game.to_move.name == "P2" and set(labels(game)) == {"play a 9", "pass"}
    choose(game, "play a 9")
    assert not player(game, "P2").passed and V(game)["last_player"].name == "P2"


def test_when_everyone_else_passes_the_last_to_play_leads_a_new_trick():
    game = on_table({"P1": "3c 4c", "P2": "5d 3d", "P3": "8d 9d", "P4": "6d 7d"}, "Kc", last="P2", mover="P3")
    texts = announcements(game)
    for _ in range(3):
        choose(game, "pass")              # P3, P4, P1
    assert "All pass: P2 leads" in texts
    assert len(zone(game, "table")) == 0 and names(zone(game, "discards")) == ["Kc"]
    assert not any(p.passed for p in game.memory.players)
    assert game.to_move.name == "P2" and game.decision().moves == ("play",)
    assert set(labels(game)) == {"play a 3", "play a 5"}   # a new trick: any set, lower than the king too


def test_a_player_out_is_passed_over_and_the_next_still_holding_cards_leads():
    game = on_table({"P1": "2s", "P2": "5d 3d", "P3": "8d 9d", "P4": "6d 7d"}, mover="P1")
    texts = announcements(game)
    choose(game, "play a 2")
    assert "P1 goes out: President" in texts and V(game)["finished"] == [player(game, "P1")]
    for mover in ("P2", "P3", "P4"):
        assert game.to_move.name == mover and labels(game) == ["pass"]
        choose(game, "pass")
    assert game.to_move.name == "P2" and game.decision().moves == ("play",)
    choose(game, "play a 3")
    assert game.to_move.name == "P3"
    choose(game, "pass")
    choose(game, "pass")                  # P4; P1 is out, so P2's 3 stands
    assert game.to_move.name == "P2" and V(game)["top_rank"] is None


# ============================================================= places, points
def test_the_hand_ends_when_one_player_holds_cards_and_the_places_score():
    game = on_table({"P2": "5c", "P4": "3c 4d"}, mover="P2", finished=("P3", "P1"))
    texts = announcements(game)
    choose(game, "play a 5")
    assert roles(game) == {"P3": "president", "P1": "vice_president", "P2": "vice_scum", "P4": "scum"}
    assert {p.name: p.points for p in game.memory.players} == {"P3": 3, "P1": 2, "P2": 1, "P4": 0}
    assert scores(game) == {"P3": 3, "P1": 2, "P2": 1, "P4": 0}
    assert "Hand 1 - P3 President, P1 Vice-President, P2 Vice-Scum, P4 Scum" in texts
    # the next hand: the Scum deals, the exchange comes first
    assert V(game)["hand_number"] == 2 and V(game)["dealer"].name == "P4" and V(game)["phase"] == "exchange"


def test_with_three_players_president_citizen_and_scum():
    game = on_table({"P3": "5c", "P1": "3c 4d"}, mover="P3", finished=("P2",), players=3)
    choose(game, "play a 5")
    assert roles(game) == {"P2": "president", "P3": "citizen", "P1": "scum"}
    assert scores(game) == {"P2": 2, "P3": 1, "P1": 0}
    # the Scum (P1) deals, so P2 gets the 18th card; only the Scum and the President exchange
    assert V(game)["dealer"].name == "P1" and V(game)["phase"] == "exchange" and hand_sizes(game) == [15, 20, 17]
    assert game.decision().moves == ("give_back",) and game.to_move.name == "P2"


def test_with_five_players_a_citizen_scores_between_the_vices():
    game = on_table({"P5": "5c", "P1": "3c 4d"}, mover="P5", finished=("P2", "P4", "P3"), players=5)
    choose(game, "play a 5")
    assert roles(game) == {"P2": "president", "P4": "vice_president", "P3": "citizen", "P5": "vice_scum",
                           "P1": "scum"}
    assert scores(game) == {"P2": 4, "P4": 3, "P3": 2, "P5": 1, "P1": 0}


# =================================================================== exchange
def exchange(seed, given):
    """Hand 2 dealt, P3 President, P2 Vice-President, P1 Vice-Scum, P4 Scum: every record of the game from the
    deal on appended to `given` (the cards' movements among them)."""
    game = unask(start(4, seed))
    record_game(game, given.append)
    places = {"P1": "vice_scum", "P2": "vice_president", "P3": "president", "P4": "scum"}
    arrange(game, player_state={f"{p}.role": repr(r) for p, r in places.items()})
    return arrange(game, state={"phase": "'deal'", "hand_number": "1"}, settle=True)


def moved(records, source, dest):
    return [n for r in records if r["type"] == "move" and r["from"] == source and r["to"] == dest for n in r["cards"]]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_scum_gives_the_president_his_two_highest_the_vice_scum_his_highest(seed):
    records = []
    game = exchange(seed, given=records)
    assert V(game)["phase"] == "exchange" and V(game)["dealer"].name == "P4"
    to_president, to_vice = moved(records, "P4.hand", "P3.hand"), moved(records, "P1.hand", "P2.hand")
    assert len(to_president) == 2 and len(to_vice) == 1
    assert min(height(rank(n)) for n in to_president) >= max(height(rank(n)) for n in names(player(game, "P4").hand))
    assert height(rank(to_vice[0])) >= max(height(rank(n)) for n in names(player(game, "P1").hand))
    assert hand_sizes(game) == [12, 14, 15, 11]
    assert set(to_president) <= set(names(player(game, "P3").hand))


def test_the_president_gives_back_two_cards_and_the_vice_president_one_of_their_choice():
    records = []
    game = exchange(3, given=records)
    chosen = {"P2": [], "P3": []}
    # both choose at once, a card at a time: P2 and P3, then P3 again
    for mover in ("P2", "P3", "P3"):
        assert game.to_move.name == mover and game.decision().moves == ("give_back",)
        hand = names(player(game, mover).hand)
        assert sorted(o.label for o in game.options()) == sorted(f"give {n}" for n in hand if n not in chosen[mover])
        option = game.options()[0]
        chosen[mover].append(option.arg.name)
        game.apply(option)
    assert set(chosen["P3"]) <= set(names(player(game, "P4").hand))
    assert set(chosen["P2"]) <= set(names(player(game, "P1").hand))
    assert hand_sizes(game) == [13, 13, 13, 13]
    # the others are told only that a card went back
    backs = [r for r in records if r["type"] == "decision" and r["move"] == "give_back"]
    assert len(backs) == 3 and all(r["public"] == "a card back" for r in backs)
    # the Scum leads the first trick
    assert V(game)["phase"] == "play" and game.to_move.name == "P4" and game.decision().moves == ("play",)


def test_the_president_may_give_back_a_card_he_was_given():
    records = []
    game = exchange(4, given=records)
    gift = moved(records, "P4.hand", "P3.hand")[0]
    choose(game, labels(game)[0])          # P2
    choose(game, f"give {gift}")           # P3
    assert gift in names(player(game, "P4").hand)


# ============================================================ end of the match
def score_hand(finished, last, totals, hand_number, **params):
    """The end of hand `hand_number`: `finished` out in order, `last` holding cards; totals before it."""
    game = unask(start(**params))
    zones = {f"{p}.hand": "" for p in seats(4)}
    zones[f"{last}.hand"] = "3c"
    arrange(game, zones=zones, player_state={f"{p}.score": str(s) for p, s in totals.items()},
            state={"finished": "[" + ", ".join(f"players[{index(p)}]" for p in finished) + "]"})
    return arrange(game, state={"phase": "'score'", "hand_number": str(hand_number)}, settle=True)


def test_the_match_goes_on_before_the_last_hand():
    game = score_hand(["P2", "P4", "P1"], "P3", {"P1": 5, "P2": 4, "P3": 7, "P4": 3}, 4)
    assert not game.over and scores(game) == {"P1": 6, "P2": 7, "P3": 7, "P4": 5}
    assert V(game)["hand_number"] == 5 and V(game)["phase"] == "exchange"


def test_after_the_last_hand_the_highest_total_wins():
    game = score_hand(["P2", "P4", "P1"], "P3", {"P1": 5, "P2": 4, "P3": 6, "P4": 3}, 5)
    assert game.over and scores(game) == {"P1": 6, "P2": 7, "P3": 6, "P4": 5}
    assert game.winners == (1,) and game.payoffs() == [6, 7, 6, 5]


def test_ties_at_the_top_all_win():
    game = score_hand(["P2", "P4", "P1"], "P3", {"P1": 5, "P2": 4, "P3": 7, "P4": 3}, 5)
    assert game.over and game.winners == (1, 2)


def test_the_number_of_hands_is_a_param():
    game = score_hand(["P4", "P1", "P2"], "P3", {}, 1, hands="1")
    assert game.over and game.winners == (3,) and scores(game) == {"P1": 2, "P2": 1, "P3": 0, "P4": 3}


# =============================================================== random games
@pytest.mark.parametrize("players, seed", [(4, 1), (5, 2), (3, 3)])
def test_random_games_keep_every_rule(players, seed):
    game = Game(program(PRESIDENT, (("hands", "3"),)), seed, players=players)
    game.start()
    agents = [RandomAgent(seed * 10 + i) for i in range(players)]
    every = sorted(c.id for z in game.memory.zones for c in z)
    texts = announcements(game)
    hands_scored = 0
    while not game.over:
        assert sorted(c.id for z in game.memory.zones for c in z) == every
        decision = game.decision()
        p = game.memory.players[decision.player]
        if decision.moves != ("give_back",):
            assert V(game)["phase"] == "play" and len(p.hand) > 0
            top = (V(game)["top_rank"], V(game)["top_count"]) if V(game)["top_rank"] is not None else None
            assert {o.label for o in decision.options} == expected_options(names(p.hand), top)
        before = sum(q.score for q in game.memory.players)
        game.apply(agents[decision.player].choose(decision))
        if any(t.startswith(f"Hand {hands_scored + 1} - P") for t in texts):
            hands_scored += 1
            assert sum(q.score for q in game.memory.players) - before == players * (players - 1) // 2
            assert sorted(q.points for q in game.memory.players) == list(range(players))
            assert {q.role for q in game.memory.players} <= ROLES
            assert [q.role for q in game.memory.players].count("president") == 1
    assert hands_scored == 3
    top = max(q.score for q in game.memory.players)
    assert game.winners == tuple(q.index for q in game.memory.players if q.score == top)
