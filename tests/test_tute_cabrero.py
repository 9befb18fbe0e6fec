"""Tute Cabrero, pinned by scenarios and random games.

Spanish deck (40 cards), 3 players by default (3-6), each plays alone, no bids.
Every hand is dealt whole: 13 each with 3 players and one card aside (the
holder of the 2 of trump swaps it for that card, unseen; the 2 lies face up,
out of play), 10 or 8 each with 4 or 5, 6 each with 6 and four cards aside.
The trump cycles oros, copas, espadas, bastos.  The holder of the 7 de oros
leads the first hand; then the last hand's mano deals and the next seat is
mano.  Obligations: follow suit and beat; else follow; void, a trump higher
than any trump played; else any card.  Card points as 11, 3 10, rey 4, caballo
3, sota 2; last trick +10; cantes (only by the player who just took a trick,
before he leads): tute wins the hand, las cuarenta +40, las veinte +20.
Losers get a poroto: capote -> everyone else; two takers -> the one with fewer
points (a tie: both); more takers -> all but the unique highest and the unique
lowest; non-takers do not count.  Four porotos retire a player; the match ends
when fewer than 3 remain and those still in win.

Card names are rank + suit initial: 1o as de oros, 12c rey de copas, 11e
caballo de espadas, 10b sota de bastos.  Expected values come from the rules,
not from running the rule file.
"""
from __future__ import annotations

import re

import pytest

from naipes.agents.registry import RandomAgent
from naipes.runtime.game import Game
from naipes.tools.scenario import arrange, player, zone

from helpers import RULESETS, V, choose, labels, names, program, start_game, unask

TUTE = str(RULESETS / "tute_cabrero.yaml")
SUITS = ["oros", "copas", "espadas", "bastos"]
# weakest to strongest: as > 3 > rey > caballo > sota > 7 > 6 > 5 > 4 > 2
ORDER = [2, 4, 5, 6, 7, 10, 11, 12, 3, 1]
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}


def start(players=3, seed=0, listeners=(), **params):
    return start_game(TUTE, players, seed, listeners, **params)


def announcements(game):
    """What the table is told from now on: announcements, and each move in its own words ("P1 sings tute")."""
    texts = []

    def told(record):
        if record["type"] == "announce":
            texts.append(record["text"])
        elif record["type"] == "decision":
            texts.append(game.program.moves[record["move"]].told(record["player"], record["public"]))
    game.listeners.append(told)
    return texts


def on_table(hands, trick="", *, leader="P1", trump="oros", players=3, tricks=None, sung=None,
             to_move=True, settle=False):
    """A trick in progress: `trick` played in turn from `leader`; the next player is asked to play (or sing)."""
    game = unask(start(players))
    n = len(trick.split())
    seats = [f"P{i + 1}" for i in range(players)]
    mover = seats[(seats.index(leader) + n) % players]
    zones = {f"{p}.hand": hands.get(p, "") for p in seats}
    zones.update({f"{p}.won": "" for p in seats})
    zones["trick"] = trick
    zones["turnup"] = ""
    state = {"phase": "'play'", "trump": repr(trump), "trump_card": "None", "round_number": "1",
             "leader": f"players[{seats.index(leader)}]", "mano": f"players[{seats.index(leader)}]",
             "turn": f"players[{seats.index(mover)}]",
             "played": "[(seat_order(leader)[i], c) for i, c in enumerate(trick)]"}
    player_state = {f"{p}.tricks": str((tricks or {}).get(p, 0)) for p in seats}
    player_state.update({f"{p}.sung": repr((sung or {}).get(p, [])) for p in seats})
    return arrange(game, zones=zones, state=state, player_state=player_state,
                   to_move=(mover, "play, sing") if to_move and n < players else None, settle=settle)


def score_hand(players=3, won=None, tricks=None, *, leader="P1", mano="P1", trump="oros", porotos=None,
               sung=None, tute_by=None, round_number=1, texts=None, **params):
    """The end of a hand: every hand empty, the given won piles and tricks; let the rules count and deal on."""
    game = unask(start(players, **params))
    if texts is not None:
        game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    seats = [f"P{i + 1}" for i in range(players)]
    zones = {f"{p}.hand": "" for p in seats}
    zones.update({f"{p}.won": (won or {}).get(p, "") for p in seats})
    zones.update({"trick": "", "turnup": ""})
    ps = {}
    for p in seats:
        ps[f"{p}.tricks"] = str((tricks or {}).get(p, 1 if (won or {}).get(p) else 0))
        ps[f"{p}.porotos"] = str((porotos or {}).get(p, 0))
        ps[f"{p}.sung"] = repr((sung or {}).get(p, []))
    state = {"phase": "'score'", "trump": repr(trump), "round_number": str(round_number),
             "leader": f"players[{seats.index(leader)}]", "mano": f"players[{seats.index(mano)}]",
             "turn": f"players[{seats.index(leader)}]", "played": "[]",
             "tute_by": "None" if tute_by is None else f"players[{seats.index(tute_by)}]"}
    return arrange(game, zones=zones, state=state, player_state=ps, settle=True)


def porotos(game):
    return {p.name: p.porotos for p in game.memory.players}


def points(game):
    return {p.name: p.points for p in game.memory.players}


def losers_of(game, before=None):
    before = before or {}
    return sorted(name for name, n in porotos(game).items() if n > before.get(name, 0))


# ===================================================================== deck
def test_the_deck_is_the_spanish_40_with_the_tute_card_points():
    game = start()
    every = [c for z in game.memory.zones for c in z]
    assert sorted(c.name for c in every) == sorted(f"{r}{s}" for r in [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
                                                    for s in "oceb")
    assert all(c.points == POINTS.get(c.rank, 0) for c in every)
    assert sum(c.points for c in every) == 120


# ================================================================ the deal
@pytest.mark.parametrize("players, each, aside", [(3, 13, 1), (4, 10, 0), (5, 8, 0), (6, 6, 4)])
def test_every_card_is_dealt_but_the_ones_aside(players, each, aside):
    for seed in range(3):
        game = start(players, seed)
        assert all(len(p.hand) == each for p in game.memory.players)
        # with 3 players the card aside went to the holder of the 2 of trump, which lies face up
        # (unless the 2 was the card aside)
        assert len(zone(game, "stock")) + len(zone(game, "turnup")) == aside
        if players != 3:
            assert len(zone(game, "stock")) == aside and len(zone(game, "turnup")) == 0
        assert V(game)["trump"] == "oros" and V(game)["phase"] == "play"


def deal_next(game, round_number):
    """End the current hand at once (nobody took a trick) and let the rules deal hand `round_number`."""
    ps = {f"{p.name}.tricks": "0" for p in game.memory.players}
    return arrange(unask(game), state={"phase": "'score'", "round_number": str(round_number - 1)},
                   player_state=ps, settle=True)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_trump_cycles_oros_copas_espadas_bastos(players):
    game = start(players)
    seen = [V(game)["trump"]]
    for n in range(2, 10):
        deal_next(game, n)
        assert V(game)["round_number"] == n
        seen.append(V(game)["trump"])
    assert seen == SUITS + SUITS + ["oros"]
    assert porotos(game) == {p.name: 0 for p in game.memory.players}   # nobody took a trick: nobody lost


def snapshot_before(rule):
    """A listener that records every hand and the stock just before `rule` (a rule or a phase step) runs."""
    shots = []

    def listen(record):
        fired = record["type"] == "fire" and record["rule"] == rule
        if fired or (record["type"] == "step" and record["step"] == rule):
            memory = listen.game.memory
            shots.append({"stock": names(memory.vars["stock"]),
                          **{p.name: names(p.hand) for p in memory.players}})
    listen.shots = shots
    return listen


def swap_case(players, want_aside_two, seeds=range(300)):
    for seed in seeds:
        listen = snapshot_before("turn_up_trump")
        game = Game(program(TUTE), seed, players=players)
        listen.game = game
        game.listeners.append(listen)
        game.start()
        before = listen.shots[0]
        if (before["stock"] == ["2o"]) == want_aside_two:
            return game, before
    raise AssertionError("no seed gives that deal")


def test_with_3_players_the_holder_of_the_2_of_trump_swaps_it_for_the_card_aside():
    for seed in range(8):
        listen = snapshot_before("turn_up_trump")
        game = Game(program(TUTE), seed, players=3)
        listen.game = game
        game.listeners.append(listen)
        game.start()
        before = listen.shots[0]
        (aside,) = before["stock"]
        if aside == "2o":
            continue
        holder = next(p for p in game.memory.players if "2o" in before[p.name])
        # the 2 de oros lies face up, out of play; the holder has the card aside instead
        assert names(zone(game, "turnup")) == ["2o"] and V(game)["trump_card"].name == "2o"
        assert names(holder.hand) == sorted([c for c in before[holder.name] if c != "2o"] + [aside])
        assert names(zone(game, "stock")) == []
        for p in game.memory.players:
            if p is not holder:
                assert names(p.hand) == before[p.name]
        # unseen: nobody else's view shows the card the holder took
        for seat in range(3):
            if seat != holder.index:
                assert aside not in str(game.view(seat))


def test_if_the_2_of_trump_is_the_card_aside_nothing_is_swapped():
    game, before = swap_case(3, want_aside_two=True)
    assert names(zone(game, "stock")) == ["2o"] and names(zone(game, "turnup")) == []
    assert V(game)["trump_card"] is None
    assert all(names(p.hand) == before[p.name] for p in game.memory.players)


def test_the_swap_uses_the_2_of_each_hands_trump():
    game = start(3, seed=4)
    for n, suit in [(2, "copas"), (3, "espadas"), (4, "bastos"), (5, "oros")]:
        deal_next(game, n)
        up = names(zone(game, "turnup"))
        aside = names(zone(game, "stock"))
        assert (up, aside) in [([f"2{suit[0]}"], []), ([], [f"2{suit[0]}"])]
        assert sum(len(p.hand) for p in game.memory.players) == 39
        assert not any(c.name == f"2{suit[0]}" for p in game.memory.players for c in p.hand)


def test_with_4_or_more_players_there_is_no_swap():
    for players in (4, 5, 6):
        game = start(players, seed=1)
        assert names(zone(game, "turnup")) == [] and V(game)["trump_card"] is None


# ==================================================================== the lead
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_holder_of_the_7_de_oros_leads_the_first_hand(players):
    for seed in range(6):
        game = start(players, seed)
        holders = [p for p in game.memory.players if any(c.name == "7o" for c in p.hand)]
        if not holders:        # 6 players: the 7 de oros may be aside; the player after the dealer leads
            assert players == 6 and game.to_move is V(game)["seats"][0]
            continue
        assert game.to_move is holders[0] and V(game)["leader"] is holders[0] and V(game)["mano"] is holders[0]
        assert set(labels(game)) == {c.name for c in holders[0].hand}   # any card; nothing to sing yet


def test_with_3_players_the_7_de_oros_may_come_from_the_card_aside():
    for seed in range(300):
        listen = snapshot_before("turn_up_trump")
        game = Game(program(TUTE), seed, players=3)
        listen.game = game
        game.listeners.append(listen)
        game.start()
        if listen.shots[0]["stock"] == ["7o"]:
            holder = next(p for p in game.memory.players if "2o" in listen.shots[0][p.name])
            assert game.to_move is holder and "7o" in names(holder.hand)
            return
    raise AssertionError("no seed puts the 7 de oros aside")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_later_hands_the_mano_deals_and_the_next_seat_leads(players):
    game = start(players, seed=2)
    mano = V(game)["mano"]
    for n in range(2, 2 + players + 1):
        deal_next(game, n)
        assert V(game)["dealer"] is mano
        nxt = game.memory.players[(mano.index + 1) % players]
        assert V(game)["mano"] is nxt and game.to_move is nxt
        mano = nxt


def test_after_the_mano_retires_the_next_player_still_in_is_mano():
    # 4 players, P2 was mano and loses his fourth poroto: P3 is mano, P1 (before P3 now) deals
    game = score_hand(4, won={"P1": "1o", "P2": "12o", "P3": "3o", "P4": "11o"}, leader="P1", mano="P2",
                      porotos={"P2": 3})
    assert [p.name for p in V(game)["seats"]] == ["P1", "P3", "P4"]
    assert V(game)["mano"].name == "P3" and game.to_move.name == "P3" and V(game)["dealer"].name == "P1"
    # three players now: 13 cards each, one aside
    assert [len(p.hand) for p in V(game)["seats"]] == [13, 13, 13] and len(player(game, "P2").hand) == 0


# ================================================================ legal plays
@pytest.mark.parametrize("trick, hand, legal", [
    # the leader plays any card
    ("", "4c 1e 3o 12b", {"4c", "1e", "3o", "12b"}),
    # follow suit and beat every card played
    ("5c", "4c 7c 1e 3o", {"7c"}),
    ("3c", "1c 12c 4c", {"1c"}),
    ("5c 10c", "7c 11c 4c 3o", {"11c"}),
    ("5c 10c", "12c 1c 4c", {"12c", "1c"}),
    # follow suit only, when unable to beat
    ("1c", "3c 12c 2o", {"3c", "12c"}),
    ("5c 1c", "3c 12c 6c 4o", {"3c", "12c", "6c"}),
    # a trump was played on a plain lead: no copas card can beat it, so just follow
    ("5c 2o", "4c 1c 3e", {"4c", "1c"}),
    # trump led: follow with trumps, beating if possible
    ("4o", "7o 2o 1c", {"7o"}),
    ("4o 1o", "3o 12o 1c", {"3o", "12o"}),
    # void in the lead suit, no trump on the table: any trump
    ("5c", "4e 2o 10o 1b", {"2o", "10o"}),
    # void, a trump on the table: a higher trump
    ("5c 7o", "6o 12o 1e", {"12o"}),
    # void and only lower trumps: any card (need not trump)
    ("5c 12o", "6o 4o 1e", {"6o", "4o", "1e"}),
    # void of both: any card
    ("5c", "4e 1b 12e", {"4e", "1b", "12e"}),
])
def test_legal_plays_follow_the_obligations(trick, hand, legal):
    n = len(trick.split())
    mover = f"P{n + 1}"
    game = on_table({mover: hand}, trick)
    assert game.to_move.name == mover
    assert set(labels(game)) == legal
    assert all(o.move == "play" for o in game.options())


def test_play_goes_to_the_right_from_the_leader():
    # 4 players, P3 leads: P3, P4, P1, P2
    game = on_table({"P1": "1c 4b", "P2": "6c"}, "5c 7c", leader="P3", players=4)
    assert game.to_move.name == "P1"
    choose(game, "1c")
    assert game.to_move.name == "P2"


FILLER = ["4b", "5b", "6b", "7b", "4e", "5e"]


def resolve(trick, *, leader="P1", trump="oros", players=3):
    hands = {f"P{i + 1}": FILLER[i] for i in range(players)}
    return on_table(hands, trick, leader=leader, trump=trump, players=players, to_move=False, settle=True)


@pytest.mark.parametrize("trick, trump, winner", [
    ("1c 3c 2o", "oros", "P3"),       # the only trump
    ("5c 2o 7o", "oros", "P3"),       # the highest trump
    ("4c 1e 6c", "oros", "P3"),       # the highest of the lead suit; the as of espadas is off-suit
    ("12c 11c 3c", "oros", "P3"),     # 3 above rey
    ("3c 1c 12c", "oros", "P2"),      # as above 3
    ("7c 6c 5c", "oros", "P1"),       # the lead holds
    ("1o 2c 3o", "copas", "P2"),      # a 2 of trump beats the as of the lead suit
    ("10e 11e 12e", "bastos", "P3"),
])
def test_the_best_card_takes_the_trick(trick, trump, winner):
    game = resolve(trick, trump=trump)
    w = player(game, winner)
    assert w.tricks == 1 and sum(p.tricks for p in game.memory.players) == 1
    assert names(w.won) == sorted(trick.split())
    assert V(game)["leader"] is w and game.to_move is w


@pytest.mark.parametrize("i", range(len(ORDER) - 1))
def test_rank_order_as_3_rey_caballo_sota_7_6_5_4_2(i):
    low, high = ORDER[i], ORDER[i + 1]
    assert player(resolve(f"{low}c {high}c 1e"), "P2").tricks == 1
    assert player(resolve(f"{high}c {low}c 1e"), "P1").tricks == 1


# ======================================================================= count
def test_card_points_and_the_last_trick():
    # P1 took the last trick: 11 + 10 + 4 + 3 + 2 + 0 + 10
    game = score_hand(3, won={"P1": "1o 3o 12o 11o 10o 7o", "P2": "1c 4c", "P3": "12b"}, leader="P1")
    assert points(game) == {"P1": 40, "P2": 11, "P3": 4}


class NoSinging(RandomAgent):
    """A random player that never sings."""

    def choose(self, decision):
        plays = [o for o in decision.options if o.move == "play"]
        return self.rng.choice(plays)


def hand_totals(players, seed, hands, agent=RandomAgent):
    """Play `hands` hands with random agents; each hand's announced points, and the cantes sung."""
    game = Game(program(TUTE), seed, players=players)
    texts = announcements(game)
    game.start()
    agents = [agent(seed * 10 + i) for i in range(players)]
    totals, current, aside = [], [], []
    aside.append(sum(c.points for c in zone(game, "stock")))
    while not game.over and len(totals) < hands:
        before = len(texts)
        game.apply(agents[game.to_move.index].choose(game.decision()))
        for t in texts[before:]:
            m = re.match(r"P\d+ took \d+ tricks?: (\d+) points", t)
            if m:
                current.append(int(m.group(1)))
            if t.startswith("Hand "):
                totals.append(sum(current))
                current = []
                aside.append(sum(c.points for c in zone(game, "stock")))
    return totals, aside, texts


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_without_cantes_every_hand_counts_120_plus_10(players):
    totals, aside, _ = hand_totals(players, seed=players, hands=4, agent=NoSinging)
    assert len(totals) == 4
    for total, left in zip(totals, aside):
        # with 6 players the 4 cards aside are out of play; with 3 the card aside is swapped in for a 2 (0 points)
        assert total == 130 - left
        if players in (3, 4, 5):
            assert total == 130


# ===================================================================== cantes
def test_las_cuarenta_after_taking_a_trick():
    game = on_table({"P1": "12o 11o 4c"}, tricks={"P1": 1})
    assert set(labels(game)) == {"12o", "11o", "4c", "sing las cuarenta"}
    choose(game, "sing las cuarenta")
    # asked again: the pair is sung, the lead is still to make
    assert game.to_move.name == "P1" and set(labels(game)) == {"12o", "11o", "4c"}
    assert player(game, "P1").sung == ["oros"]


def test_las_cuarenta_and_every_veinte_may_be_sung_together():
    game = on_table({"P1": "12o 11o 12c 11c 12b 11b 5e 7e"}, trump="oros", tricks={"P1": 2})
    songs = [lbl for lbl in labels(game) if lbl.startswith("sing")]
    assert sorted(songs) == ["sing las cuarenta", "sing las veinte en bastos", "sing las veinte en copas"]
    for song in songs:
        choose(game, song)
    assert [lbl for lbl in labels(game) if lbl.startswith("sing")] == []
    assert sorted(player(game, "P1").sung) == ["bastos", "copas", "oros"]
    assert game.to_move.name == "P1" and len(zone(game, "trick")) == 0


def test_the_cantes_count_at_the_end_of_the_hand():
    game = score_hand(3, won={"P1": "1o", "P2": "3o", "P3": "4c"}, leader="P1", trump="copas",
                      sung={"P2": ["copas", "oros"], "P3": ["bastos"]})
    # P1 11 + 10; P2 10 + 40 (copas is trump) + 20; P3 0 + 20
    assert points(game) == {"P1": 21, "P2": 70, "P3": 20}


def test_singing_is_optional():
    game = on_table({"P1": "12o 11o 4c", "P2": "5c", "P3": "6c"}, tricks={"P1": 1})
    choose(game, "4c")
    assert player(game, "P1").sung == [] and game.to_move.name == "P2"


def test_no_cantes_before_taking_a_trick():
    # the mano at the start of a hand has taken nothing
    game = on_table({"P1": "12o 11o 4c"}, tricks={"P1": 0})
    assert set(labels(game)) == {"12o", "11o", "4c"}


def test_no_cantes_when_playing_to_a_trick():
    # P2 has taken tricks before, but now follows: only the winner of the last trick, before leading
    game = on_table({"P2": "12c 11c 4o"}, "5c", tricks={"P1": 1, "P2": 2})
    assert set(labels(game)) == {"12c", "11c"}


def test_the_winner_of_a_trick_may_sing_before_leading_the_next():
    hands = {"P1": "5c 1b", "P2": "1c 12e 11e", "P3": "4c 6b"}
    game = on_table(hands, "", tricks={})
    choose(game, "5c")
    choose(game, "1c")
    choose(game, "4c")
    assert game.to_move.name == "P2" and player(game, "P2").tricks == 1
    assert "sing las veinte en espadas" in labels(game)


def test_no_cantes_with_a_card_already_played():
    # the caballo de oros was played earlier (it is in a won pile): the rey alone sings nothing
    game = on_table({"P1": "12o 4c", "P2": "5c"}, tricks={"P1": 1})
    arrange(game, zones={"P1.won": "11o 4e 5e"})
    assert set(labels(game)) == {"12o", "4c"}


def test_each_pair_is_sung_once_per_hand():
    game = on_table({"P1": "12c 11c 12e 11e 4c"}, tricks={"P1": 3}, sung={"P1": ["copas"]})
    assert [lbl for lbl in labels(game) if lbl.startswith("sing")] == ["sing las veinte en espadas"]


@pytest.mark.parametrize("hand", ["12o 12c 12e 12b 5o", "11o 11c 11e 11b 1e"])
def test_tute_wins_the_hand_at_once(hand):
    game = on_table({"P1": hand, "P2": "4c", "P3": "5c"}, tricks={"P1": 1})
    arrange(game, zones={"P2.won": "1c 3c 1e"}, player_state={"P2.tricks": "1"})
    assert "sing tute" in labels(game)
    texts = announcements(game)
    choose(game, "sing tute")
    # the others lose the hand (P3 took no trick, yet loses); the next hand is dealt
    assert porotos(game) == {"P1": 0, "P2": 1, "P3": 1}
    assert V(game)["round_number"] == 2 and V(game)["trump"] == "copas" and V(game)["phase"] == "play"
    assert any("sings tute" in t for t in texts)


def test_no_tute_without_all_four():
    game = on_table({"P1": "12o 12c 12e 11b 5o"}, tricks={"P1": 1})
    assert not any(lbl.startswith("sing") for lbl in labels(game))


# ===================================================================== losers
@pytest.mark.parametrize("players, won, leader, losers", [
    # capote: one player took every trick; every other player loses (even with 4)
    (3, {"P1": "1o 3o"}, "P1", ["P2", "P3"]),
    (4, {"P2": "4o"}, "P2", ["P1", "P3", "P4"]),
    # two took tricks: fewer points loses; P3 took none and does not count
    (3, {"P1": "1o 3o", "P2": "12o"}, "P2", ["P2"]),           # 21 against 4 + 10
    (3, {"P1": "1o", "P2": "1c 3c"}, "P2", ["P1"]),            # 11 against 21 + 10
    # more than two: the middle loses, a Mas and a Menos are saved
    (3, {"P1": "1o", "P2": "3o", "P3": "12o"}, "P1", ["P2"]),  # 21, 10, 4
    (4, {"P1": "1o", "P2": "3o", "P3": "12o", "P4": "11o"}, "P1", ["P2", "P3"]),   # 21, 10, 4, 3
    (4, {"P1": "1o", "P2": "3o", "P3": "12o"}, "P1", ["P2"]),  # P4 took no trick: does not count
    (5, {"P1": "1o", "P3": "3o", "P5": "12o"}, "P1", ["P3"]),  # five players, three takers: one loses
    (4, {"P1": "1o", "P2": "3o", "P3": "3c", "P4": "11o"}, "P1", ["P2", "P3"]),    # a tie in the middle
    # ties at the top or the bottom save nobody there
    (3, {"P1": "1o", "P2": "1c 3c", "P3": "12o"}, "P1", ["P1", "P2"]),   # 21, 21, 4: P3 saved a Menos
    (3, {"P1": "1o", "P2": "12o", "P3": "12c"}, "P1", ["P2", "P3"]),     # 21, 4, 4: P1 saved a Mas
    (3, {"P1": "12o", "P2": "1o 11o", "P3": "3o 12c"}, "P1", ["P1", "P2", "P3"]),   # 14 each: all lose
    (4, {"P1": "12o", "P2": "1o 11o", "P3": "3o 12c"}, "P1", ["P1", "P2", "P3"]),   # and P4 is not touched
])
def test_who_loses_the_hand(players, won, leader, losers):
    game = score_hand(players, won=won, leader=leader)
    assert losers_of(game) == losers
    assert V(game)["round_number"] == 2     # the next hand is dealt


@pytest.mark.parametrize("players, won, leader, tute_by, reasons", [
    (3, {"P1": "1o 3o"}, "P1", None, {"P2": "P1 took every trick (capote)", "P3": "P1 took every trick (capote)"}),
    (3, {"P1": "1o 3o", "P2": "12o"}, "P2", None, {"P2": "fewer points than P1 (14 to 21), the only other taker"}),
    (3, {"P1": "1o", "P2": "3o", "P3": "12o"}, "P1", None,
     {"P2": "neither the most nor the fewest points of those who took tricks (10)"}),      # 31, 10, 4
    (3, {"P1": "1o", "P2": "1c 3c", "P3": "12o"}, "P1", None,
     {"P1": "tied for the most points (21)", "P2": "tied for the most points (21)"}),       # 21, 21, 4
    (3, {"P1": "1o", "P2": "12o", "P3": "12c"}, "P1", None,
     {"P2": "tied for the fewest points of those who took tricks (4)",
      "P3": "tied for the fewest points of those who took tricks (4)"}),                    # 21, 4, 4
    (3, {"P1": "1o", "P2": "3o"}, "P1", "P3", {"P1": "P3 sang tute", "P2": "P3 sang tute"}),
])
def test_the_announcement_says_why_a_hand_was_lost(players, won, leader, tute_by, reasons):
    texts = []
    game = score_hand(players, won=won, leader=leader, tute_by=tute_by, texts=texts)
    said = {m[1]: m[2] for t in texts if (m := re.match(r"(P\d) loses the hand - (.*) - poroto 1$", t))}
    assert said == reasons and losers_of(game) == sorted(reasons)


@pytest.mark.parametrize("won, default, strict", [
    ({"P1": "1o", "P2": "1c 3c", "P3": "12o"}, ["P1", "P2"], ["P1", "P2", "P3"]),   # 21, 21, 4
    ({"P1": "1o", "P2": "12o", "P3": "12c"}, ["P2", "P3"], ["P1", "P2", "P3"]),     # 21, 4, 4
    ({"P1": "1o", "P2": "3o", "P3": "12o"}, ["P2"], ["P2"]),                        # 21, 10, 4: a middle
])
def test_the_stricter_tie_rule_is_a_param(won, default, strict):
    # the stricter reading: a tie at the top or bottom and nobody in between: every taker loses
    assert losers_of(score_hand(3, won=won, leader="P1")) == default
    assert losers_of(score_hand(3, won=won, leader="P1", ties_without_middle_all_lose="true")) == strict


def test_the_stricter_tie_rule_needs_nobody_in_the_middle():
    game = score_hand(4, won={"P1": "1o", "P2": "1c 3c", "P3": "3o", "P4": "12o"}, leader="P1",
                      ties_without_middle_all_lose="true")
    assert losers_of(game) == ["P1", "P2", "P3"]     # 21, 21, 10, 4: a middle, so P4 is saved a Menos


def test_two_takers_tied_both_lose():
    # 4 + 10 (last trick) against 10 + 4
    game = score_hand(3, won={"P1": "12o", "P2": "3o 12c"}, leader="P1")
    assert points(game)["P1"] == points(game)["P2"] == 14
    assert losers_of(game) == ["P1", "P2"]


def test_the_capote_is_announced():
    texts = []
    score_hand(3, won={"P3": "1o"}, leader="P3", texts=texts)
    assert any(t.startswith("Capote: P3") for t in texts)


# ================================================================ porotos, match
def test_porotos_accumulate_over_hands():
    game = score_hand(3, won={"P1": "1o", "P2": "3o", "P3": "12o"}, leader="P1", porotos={"P2": 1, "P3": 2})
    assert porotos(game) == {"P1": 0, "P2": 2, "P3": 2}
    assert not game.over


def test_a_player_with_4_porotos_retires_and_is_skipped():
    game = score_hand(4, won={"P1": "1o", "P2": "3o", "P3": "12o", "P4": "11o"}, leader="P1",
                      porotos={"P3": 3, "P2": 1})
    assert porotos(game) == {"P1": 0, "P2": 2, "P3": 4, "P4": 0}
    assert player(game, "P3").retired and [p.name for p in V(game)["seats"]] == ["P1", "P2", "P4"]
    assert not game.over
    # the next hand is dealt to the three still in, P3 gets nothing and is never asked
    assert len(player(game, "P3").hand) == 0
    agents = [RandomAgent(i) for i in range(4)]
    while V(game)["round_number"] == 2 and not game.over:
        assert game.to_move.name != "P3"
        game.apply(agents[game.to_move.index].choose(game.decision()))


def test_the_match_ends_when_fewer_than_3_remain():
    game = score_hand(3, won={"P1": "1o", "P2": "3o", "P3": "12o"}, leader="P1", porotos={"P2": 3, "P1": 3})
    assert game.over and game.winners == (0, 2)
    assert game.payoffs() == [1, 0, 1]
    assert [p.name for p in V(game)["seats"]] == ["P1", "P3"]


def test_capote_can_end_the_match_with_a_single_winner():
    game = score_hand(3, won={"P2": "1o"}, leader="P2", porotos={"P1": 3, "P3": 3})
    assert game.over and game.winners == (1,) and game.payoffs() == [0, 1, 0]


def test_if_everybody_retires_at_once_the_last_table_wins():
    game = score_hand(3, won={"P1": "12o", "P2": "1o 11o", "P3": "3o 12c"}, leader="P1",
                      porotos={"P1": 3, "P2": 3, "P3": 3})
    assert game.over and game.winners == (0, 1, 2)


def test_the_match_goes_on_with_three_of_four():
    game = score_hand(4, won={"P1": "1o", "P2": "3o"}, leader="P1", porotos={"P2": 3})
    assert not game.over and len(V(game)["seats"]) == 3


def test_porotos_to_retire_is_a_param():
    # P2 (10 points, in the middle) loses his second poroto: with porotos_to_retire=2 he retires
    game = score_hand(3, won={"P1": "1o", "P2": "3o", "P3": "12o"}, leader="P1", porotos={"P2": 1},
                      porotos_to_retire=2)
    assert game.over and game.winners == (0, 2)


# =============================================================== random games
def strength(card):
    return ORDER.index(card.rank)


def reference_legal(hand, trick, trump):
    """The obligations (docs/games/tute_cabrero.md), written out."""
    if not trick:
        return hand
    lead = trick[0].suit
    follow = [c for c in hand if c.suit == lead]
    trumps_on_table = [c for c in trick if c.suit == trump]
    if follow:
        if lead != trump and trumps_on_table:
            return follow                    # cannot beat a trump with the lead suit: follow
        highest = max(strength(c) for c in trick if c.suit == lead)
        return [c for c in follow if strength(c) > highest] or follow
    trumps = [c for c in hand if c.suit == trump]
    highest = max((strength(c) for c in trumps_on_table), default=-1)
    return [c for c in trumps if strength(c) > highest] or hand


def reference_songs(p, trump, tricks_now, trick):
    if trick or tricks_now == 0:
        return set()
    hand = {c.name for c in p.hand}
    songs = set()
    if all(f"12{s[0]}" in hand for s in SUITS) or all(f"11{s[0]}" in hand for s in SUITS):
        songs.add("sing tute")
    for s in SUITS:
        if f"12{s[0]}" in hand and f"11{s[0]}" in hand and s not in p.sung:
            songs.add("sing las cuarenta" if s == trump else f"sing las veinte en {s}")
    return songs


class Checker:
    def __init__(self, players, seed):
        self.game = Game(program(TUTE), seed, players=players)
        self.texts = announcements(self.game)
        self.game.start()
        self.agents = [RandomAgent(seed * 100 + i) for i in range(players)]
        self.ids = sorted(c.id for z in self.game.memory.zones for c in z)
        self.card_names = {c.name for z in self.game.memory.zones for c in z}
        self.decisions = 0
        self.hands = 0

    def run(self):
        game = self.game
        last_porotos = porotos(game)
        while not game.over:
            self.check()
            decision = game.decision()
            assert decision.options, "no legal option offered"
            p = game.memory.players[decision.player]
            assert p in V(game)["seats"] and not p.retired
            trick = list(zone(game, "trick"))
            legal = {c.name for c in reference_legal(list(p.hand), trick, V(game)["trump"])}
            songs = reference_songs(p, V(game)["trump"], p.tricks, trick)
            assert {o.label for o in decision.options} == legal | songs
            before = len(self.texts)
            game.apply(self.agents[decision.player].choose(decision))
            self.decisions += 1
            new = self.texts[before:]
            if any(t.startswith("Hand ") for t in new) or game.over:
                self.hands += 1
                self.check_hand(new, last_porotos)
                last_porotos = porotos(game)
        self.check()
        seats = V(game)["seats"]
        assert len(seats) < 3
        assert all(p.porotos >= 4 for p in game.memory.players if p not in seats)
        assert all(p.porotos < 4 for p in seats)
        if seats:
            assert game.winners == tuple(p.index for p in seats)
        return game

    def check_hand(self, texts, before):
        """The count of a hand: 130 + cantes (less the cards aside with 6 players); porotos go up by one at most."""
        after = porotos(self.game)
        assert all(after[n] - before[n] in (0, 1) for n in after)
        assert sum(after.values()) > sum(before.values())   # somebody always loses a hand

    def check(self):
        game, memory = self.game, self.game.memory
        held = [(c.id, z.slot) for z in memory.zones for c in z]
        assert sorted(i for i, _ in held) == self.ids          # every card exactly once
        assert all(memory.where[c] == z.slot for z in memory.zones for c in z)
        if V(game)["phase"] == "play":
            seats = V(game)["seats"]
            in_hands = sum(len(p.hand) for p in seats) + len(zone(game, "trick")) + \
                sum(len(p.won) for p in seats)
            assert in_hands + len(zone(game, "stock")) + len(zone(game, "turnup")) == 40
        public = {c.name for c in zone(game, "trick")} | {c.name for c in zone(game, "turnup")}
        for seat in [None] + list(range(len(memory.players))):
            allowed = public | ({c.name for c in memory.players[seat].hand} if seat is not None else set())
            shown = set(strings(game.view(seat))) & self.card_names
            assert shown <= allowed, f"seat {seat} sees {shown - allowed}"


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


@pytest.mark.parametrize("players, seeds", [pytest.param(3, range(4), marks=pytest.mark.slow), (4, range(2)),
                                            pytest.param(5, range(2), marks=pytest.mark.slow),
                                            pytest.param(6, range(2), marks=pytest.mark.slow)])
def test_random_games_keep_every_invariant(players, seeds):
    for seed in seeds:
        checker = Checker(players, seed)
        game = checker.run()
        assert game.over and checker.hands >= 4


def test_random_games_sing_sometimes_and_count_the_cantes():
    sung = 0
    for seed in range(6):
        totals, aside, texts = hand_totals(3, seed, hands=6)
        songs = [t for t in texts if " sings " in t]
        sung += len(songs)
        hand_songs = []
        current = 0
        for t in texts:
            if " sings tute" in t:
                current = None
            elif current is not None and " sings las cuarenta" in t:
                current += 40
            elif current is not None and " sings las veinte" in t:
                current += 20
            if t.startswith("Hand ") and t != texts[0]:
                hand_songs.append(current)
                current = 0
        for total, extra in zip(totals, hand_songs):
            if extra is not None:
                assert total == 130 + extra
    assert sung > 0
