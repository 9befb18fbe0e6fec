"""Escoba (rulesets/escoba.yaml, escoba_parejas.yaml; docs/games/escoba.md), pinned by scenarios and random games.

Spanish deck of 40 cards; for the sum a card counts its number, the sota 8, the caballo 9, the rey 10.  Three
cards each and four face up on the table (four that make 15 are the dealer's escoba; 30 in two fifteens, two);
three more each whenever the hands are empty.  In turn each plays a card; if it makes 15 with table cards, its
player may take them (one at a time, each while 15 can still be completed; the capture is made at 15), or lay
it down (must_capture: not when it can capture).  A capture that clears the table is an escoba.  The last to
capture takes what is left at the end (not an escoba).  Per side, a deal scores 1 per escoba, 1 for the most
cards, 1 for the most oros, 1 for the 7 de oros, 1 for the setenta (the most sevens, a tie to the most sixes;
or the primera: the best card of each suit at 7 21, 6 18, as 16, 5 15, 4 14, 3 13, 2 12, figures 10); a tie
scores for nobody.  The first side at `target` (15) after a deal wins, the most points first; a tie at the
top deals again.  With 4 players P1 and P3 play against P2 and P4 and pool their cards.

Card names are rank + suit initial: 7o the 7 de oros, 10c sota de copas (8), 12b rey de bastos (10).  Expected
values come from the rules above, not from running the rule file.
"""
from __future__ import annotations

import itertools
import re

import pytest

from naipes.agents.registry import RandomAgent
from naipes.tools.scenario import arrange, player, zone

from helpers import RULESETS, V, choose, labels, names, start_game, unask

ESCOBA = str(RULESETS / "escoba.yaml")
PAREJAS = str(RULESETS / "escoba_parejas.yaml")
SUITS = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
VALUE = {r: (r if r <= 7 else r - 2) for r in RANKS}
PRIMERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 10: 10, 11: 10, 12: 10}


def start(players=2, seed=0, path=ESCOBA, **params):
    return start_game(path, players, seed, **params)


def seat_names(players):
    return [f"P{i + 1}" for i in range(players)]


def value(name):
    return VALUE[int(name[:-1])]


def on_table(hands, table, *, mover="P1", players=2, won=None, stock=None, spare=None, **params):
    """A deal in play: `hands` and `table` set, `mover` to play.

    `stock`: the face-down cards (None: whatever the deal left there); set, the cards it displaces go to the
    won pile of `spare` (by default the last seat)."""
    game = unask(start(players, **params))
    seats = seat_names(players)
    zones = {f"{p}.hand": hands.get(p, "") for p in seats}
    zones.update({f"{p}.won": (won or {}).get(p, "") for p in seats})
    zones.update({"table": table})
    state = {"phase": "'play'", "turn": f"players[{seats.index(mover)}]"}
    arrange(game, zones=zones, state=state)
    if stock is not None:
        arrange(game, zones={"stock": stock}, spare=f"{spare or seats[-1]}.won")
    return arrange(game, to_move=(mover, "capture, lay"))


def count_deal(won, players=2, escobas=None, scores=None, path=ESCOBA, **params):
    """The end of a deal: the given won piles, escobas and scores before it; let the rules count (and go on).

    The cards nobody took are left in the stock, out of the count."""
    game = unask(start(players, path=path, **params))
    seats = seat_names(players)
    zones = {f"{p}.hand": "" for p in seats}
    zones.update({f"{p}.won": won.get(p, "") for p in seats})
    zones.update({"table": ""})
    ps = {f"{p}.escobas": str((escobas or {}).get(p, 0)) for p in seats}
    ps.update({f"{p}.score": str((scores or {}).get(p, 0)) for p in seats})
    arrange(game, zones=zones, player_state=ps)
    return arrange(game, state={"phase": "'score'"}, settle=True)


def plays(game):
    return {o.label for o in game.options()}


def points(game):
    return {p.name: p.points for p in game.memory.players}


def scores(game):
    return {p.name: p.score for p in game.memory.players}


def announced(game):
    texts = []
    game.listeners.append(lambda r: texts.append(r["text"]) if r["type"] == "announce" else None)
    return texts


# ======================================================================= deck
def test_the_spanish_deck_counts_sota_8_caballo_9_rey_10():
    game = start()
    every = [c for z in game.memory.zones for c in z]
    assert sorted(c.name for c in every) == sorted(f"{r}{s}" for r in RANKS for s in SUITS)
    assert all(c.value == VALUE[c.rank] for c in every)
    assert {c.value for c in every if c.rank in (10, 11, 12)} == {8, 9, 10}
    assert sum(c.value for c in every) == 220


# ==================================================================== the deal
@pytest.mark.parametrize("players", [2, 3, 4])
def test_three_cards_each_and_four_on_the_table(players):
    for seed in range(4):
        game = start(players, seed)
        assert all(len(p.hand) == 3 for p in game.memory.players)
        dealer = V(game)["dealer"]
        swept = list(dealer.won)
        assert len(zone(game, "table")) + len(swept) == 4 and len(zone(game, "stock")) == 36 - 3 * players
        # the last seat deals; the player after him, P1, plays first
        assert dealer.name == f"P{players}" and game.to_move.name == "P1" and "lay" in {o.move for o in
                                                                                        game.options()}


def test_four_table_cards_that_make_15_are_the_dealers_escoba():
    # over many deals: the dealer takes the four exactly when they make 15, or 30 in two fifteens
    seen = {0: 0, 1: 0}
    for seed in range(150):
        game = start(2, seed)
        dealer = V(game)["dealer"]
        swept = [c.value for c in dealer.won]
        table = [c.value for c in zone(game, "table")]
        if swept:
            assert len(swept) == 4 and not table
            two = sum(swept) == 30 and any(sum(s) == 15 for k in (1, 2) for s in itertools.combinations(swept, k))
            assert sum(swept) == 15 or two
            assert dealer.escobas == sum(swept) // 15 and V(game)["last_capturer"] is dealer
        else:
            fifteens = any(sum(s) == 15 for k in (1, 2) for s in itertools.combinations(table, k))
            assert sum(table) != 15 and not (sum(table) == 30 and fifteens)
            assert dealer.escobas == 0
        seen[bool(swept)] += 1
    assert seen[1] > 0  # (about one deal in 20 opens with fifteen)


def test_three_more_cards_each_when_the_hands_are_empty_none_to_the_table():
    game = on_table({"P1": "", "P2": "4c"}, "12b 12o", mover="P2", stock="1o 2o 3o 4o 5o 6o")
    assert plays(game) == {"lay 4c down"}  # no 15 with two reyes (4 + 10)
    choose(game, "lay 4c down")
    assert names(zone(game, "table")) == ["12b", "12o", "4c"]
    assert len(player(game, "P1").hand) == 3 and len(player(game, "P2").hand) == 3
    assert len(zone(game, "stock")) == 0 and game.to_move.name == "P1"


# ============================================================ captures of 15
def test_a_card_that_cannot_make_15_stays_on_the_table():
    game = on_table({"P1": "1c 5e", "P2": "3b"}, "12b 12o 10e")  # 1 + 10 + ... never 15; 5 + 10 is
    assert plays(game) == {"lay 1c down", "lay 5e down", "capture with 5e"}
    choose(game, "lay 1c down")
    assert names(zone(game, "table")) == ["10e", "12b", "12o", "1c"] and game.to_move.name == "P2"
    assert len(player(game, "P1").won) == 0


def test_only_table_cards_that_can_still_complete_15_are_offered():
    # 5o needs 10: the rey (10), or the sota and the 2 (8 + 2); the 6 fits no fifteen
    game = on_table({"P1": "5o 1c", "P2": "3b"}, "12b 10c 2e 6o")
    # (1c too: it needs 14, the sota and the 6)
    assert plays(game) == {"capture with 5o", "lay 5o down", "capture with 1c", "lay 1c down"}
    choose(game, "capture with 5o")
    assert game.to_move.name == "P1" and len(player(game, "P1").hand) == 2, "nothing is made before 15"
    assert set(labels(game)) == {"take 12b", "take 10c", "take 2e"}
    choose(game, "take 10c")                          # 13: only the 2 completes it
    assert set(labels(game)) == {"take 2e"}
    choose(game, "take 2e")
    assert names(player(game, "P1").won) == ["10c", "2e", "5o"]
    assert names(zone(game, "table")) == ["12b", "6o"]
    assert player(game, "P1").escobas == 0 and V(game)["last_capturer"].name == "P1"
    assert game.to_move.name == "P2" and "lay 3b down" in labels(game)


@pytest.mark.parametrize("order", [("7c", "2e", "1b"), ("1b", "7c", "2e"), ("2e", "1b", "7c")])
def test_the_cards_of_a_capture_may_be_taken_in_any_order(order):
    # 5 + 7 + 2 + 1 = 15: three table cards with one from the hand, whatever the order
    game = on_table({"P1": "5o", "P2": "3b"}, "7c 2e 1b 12o")
    choose(game, "capture with 5o")
    for name in order:
        choose(game, f"take {name}")
    assert names(player(game, "P1").won) == ["1b", "2e", "5o", "7c"] and names(zone(game, "table")) == ["12o"]


def test_capturing_is_optional_a_card_that_could_capture_may_be_laid_down():
    game = on_table({"P1": "5o", "P2": "3b"}, "12b 6o")
    choose(game, "lay 5o down")
    assert names(zone(game, "table")) == ["12b", "5o", "6o"] and len(player(game, "P1").won) == 0
    assert game.to_move.name == "P2"


def test_after_a_take_the_capture_must_be_completed():
    game = on_table({"P1": "3o", "P2": "3b"}, "10c 4e 12b 2c")   # 3 + 8 + 4, or 3 + 10 + 2
    choose(game, "capture with 3o")
    choose(game, "take 10c")
    assert set(labels(game)) == {"take 4e"}


def test_with_must_capture_a_card_that_can_capture_must():
    game = on_table({"P1": "5o", "P2": "3b"}, "12b 6o", must_capture=True)
    assert labels(game) == ["capture with 5o"]
    choose(game, "capture with 5o")
    assert labels(game) == ["take 12b"]
    # a card that cannot capture is still laid down
    game = on_table({"P1": "1o", "P2": "3b"}, "12b 6o", must_capture=True)
    choose(game, "lay 1o down")
    assert names(zone(game, "table")) == ["12b", "1o", "6o"] and game.to_move.name == "P2"


# ===================================================================== escoba
def test_clearing_the_table_is_an_escoba():
    game = on_table({"P1": "10c 1b", "P2": "3b"}, "3o 4e")   # 8 + 3 + 4
    texts = announced(game)
    choose(game, "capture with 10c")
    choose(game, "take 3o")
    assert player(game, "P1").escobas == 0
    choose(game, "take 4e")
    assert len(zone(game, "table")) == 0 and player(game, "P1").escobas == 1
    assert any("escoba" in t for t in texts)
    assert game.to_move.name == "P2"


def test_a_capture_that_leaves_a_card_is_no_escoba():
    game = on_table({"P1": "10c 1b", "P2": "3b"}, "3o 4e 1c")
    choose(game, "capture with 10c")
    choose(game, "take 3o")
    choose(game, "take 4e")
    assert names(zone(game, "table")) == ["1c"] and player(game, "P1").escobas == 0


# ============================================================ the last cards
def test_the_last_to_capture_takes_what_is_left_and_it_is_no_escoba():
    # the stock is gone (its 34 cards put in P2's pile); P1 captured last; P2's last card makes no 15:
    # the table goes to P1, then the count (target 1: the match ends there, the piles stay to be seen)
    game = on_table({"P1": "", "P2": "1c"}, "12b 12o", mover="P2", stock="", won={"P1": "7o 7c 2o"}, target=1)
    arrange(game, state={"last_capturer": "players[0]"})
    choose(game, "lay 1c down")
    assert names(player(game, "P1").won) == ["12b", "12o", "1c", "2o", "7c", "7o"]
    assert player(game, "P1").escobas == 0 and len(player(game, "P2").won) == 34
    # P1 the 7 de oros; P2 the most cards, the most oros (8 to 2), the setenta (2 sevens each, 4 sixes to 0)
    assert points(game) == {"P1": 1, "P2": 3} and game.over and game.winners == (1,)


def test_the_last_capture_of_the_deal_keeps_its_escoba():
    game = on_table({"P1": "", "P2": "10c"}, "3o 4e", mover="P2", stock="", won={"P2": "5o"}, target=1,
                    spare="P1")
    choose(game, "capture with 10c")
    choose(game, "take 3o")
    choose(game, "take 4e")
    assert names(player(game, "P2").won) == ["10c", "3o", "4e", "5o"] and player(game, "P2").escobas == 1
    # P1 (the 36 cards put out of the stock) the cards, oros, velo and setenta; P2 its escoba
    assert points(game) == {"P1": 4, "P2": 1}


# ================================================================== the count
@pytest.mark.parametrize("won, escobas, expected", [
    # the most cards (4 to 3), the most oros (2 to 1), the velo, the most sevens
    ({"P1": "7o 1o 7c 4b", "P2": "2o 5c 6c"}, {}, {"P1": 4, "P2": 0}),
    # escobas count one each, for either side
    ({"P1": "7o 1o 7c 4b", "P2": "2o 5c 6c"}, {"P1": 1, "P2": 3}, {"P1": 5, "P2": 3}),
    # ties score for nobody: cards 3-3, oros 1-1; the velo alone is P2's
    ({"P1": "1o 4c 5c", "P2": "7o 4b 5b"}, {}, {"P1": 0, "P2": 2}),  # P2: velo and the setenta (1 seven to 0)
    # sevens tied 1-1: the most sixes take the setenta
    ({"P1": "7c 6c 6b 1b", "P2": "7e 6e 2b 3b"}, {}, {"P1": 1, "P2": 0}),
    # sevens and sixes tied: nobody; cards tied; no oros anywhere
    ({"P1": "7c 6c 1b", "P2": "7e 6e 2b"}, {}, {"P1": 0, "P2": 0}),
])
def test_each_of_the_four_points_and_the_escobas(won, escobas, expected):
    game = count_deal(won, escobas=escobas)
    assert points(game) == expected and scores(game) == expected


def test_the_primera_as_the_setenta():
    # P1: one card of each suit, best 7 + 7 + 6 + 1 = 21 + 21 + 18 + 16 = 76; P2: no bastos, no primera
    won = {"P1": "7c 7e 6o 1b", "P2": "7b 6c 6e 5o 1c"}
    sevens = count_deal(won)                         # sevens: P1 2, P2 1 -> P1; cards 5-4 P2; oros 1-1
    assert points(sevens) == {"P1": 1, "P2": 1}
    primera = count_deal(won, setenta="primera")
    assert points(primera) == {"P1": 1, "P2": 1}
    # P2 with all four suits and a higher primera: 7b 7o 6c 6e = 21 + 21 + 18 + 18 = 78 > P1's 76
    # (and the most cards, the most oros 2 to 1, the velo)
    won = {"P1": "7c 7e 6o 1b", "P2": "7b 7o 6c 6e 2o"}
    assert points(count_deal(won, setenta="primera")) == {"P1": 0, "P2": 4}
    assert points(count_deal(won, setenta="sevens")) == {"P1": 0, "P2": 4}   # sevens 2-2, sixes 1-2: P2
    # P1's primera (76) above P2's without a bastos: the point is P1's, the sevens' too (2 to 1)
    won = {"P1": "7c 7e 6o 1b", "P2": "7o 6c 6e 2o 3o"}
    assert points(count_deal(won, setenta="primera")) == {"P1": 1, "P2": 3}


def test_three_players_each_alone():
    won = {"P1": "7o 7c 1o", "P2": "2c 3c 4c 5c", "P3": "7e 6e"}
    # cards: P2 (4); oros: P1 (2); velo: P1; sevens: P1 2, P3 1
    assert points(count_deal(won, players=3)) == {"P1": 3, "P2": 1, "P3": 0}


def test_partners_pool_their_cards_and_score_together():
    # P1 and P3 (side 0) against P2 and P4 (side 1): 2 + 2 cards against 3; sevens 2 (P1 + P3) to 1
    won = {"P1": "7c 1b", "P3": "7e 2b", "P2": "7o 3b 4b"}
    game = count_deal(won, players=4, escobas={"P3": 1})
    # side 0: cards (4 to 3), sevens, 1 escoba; side 1: oros, velo
    assert points(game) == {"P1": 3, "P3": 3, "P2": 2, "P4": 2}
    assert scores(game) == {"P1": 3, "P3": 3, "P2": 2, "P4": 2}


# ================================================================== the match
def test_the_match_goes_on_below_the_target_with_the_next_dealer():
    game = count_deal({"P1": "7o 1o 7c 4b", "P2": "2o 5c 6c"}, scores={"P1": 10, "P2": 14})
    assert scores(game) == {"P1": 14, "P2": 14} and not game.over
    assert V(game)["round_number"] == 2 and V(game)["dealer"].name == "P1" and game.to_move.name == "P2"


def test_the_first_side_at_the_target_wins():
    game = count_deal({"P1": "7o 1o 7c 4b", "P2": "2o 5c 6c"}, scores={"P1": 11, "P2": 14})
    assert scores(game) == {"P1": 15, "P2": 14} and game.over and game.winners == (0,)


def test_both_past_the_target_the_most_points_win_and_a_tie_deals_again():
    won = {"P1": "7o 1o 4b", "P2": "2c 5c 6c 7c"}   # P1 oros and velo (2); P2 cards and setenta (2)
    game = count_deal(won, scores={"P1": 14, "P2": 12})
    assert scores(game) == {"P1": 16, "P2": 14} and game.over and game.winners == (0,)
    game = count_deal(won, scores={"P1": 14, "P2": 14})
    assert scores(game) == {"P1": 16, "P2": 16} and not game.over and V(game)["round_number"] == 2


def test_the_target_is_a_param_21_is_often_played():
    game = count_deal({"P1": "7o 1o 7c 4b", "P2": "2o 5c 6c"}, scores={"P1": 14}, target=21)
    assert scores(game)["P1"] == 18 and not game.over
    game = count_deal({"P1": "7o 1o 7c 4b", "P2": "2o 5c 6c"}, scores={"P1": 17}, target=21)
    assert game.over and game.winners == (0,)


def test_partners_win_the_match_together():
    game = count_deal({"P2": "7o 1o 7c", "P4": "4b"}, players=4, scores={"P2": 13, "P4": 13})
    assert game.over and game.winners == (1, 3)


def test_escoba_parejas_seats_four_in_partnerships_to_21():
    game = start(4, path=PAREJAS)
    assert len(game.memory.players) == 4 and game.program.param_values["target"] == 21
    game = count_deal({"P1": "7o 1o 7c 4b"}, players=4, scores={"P1": 17, "P3": 17}, path=PAREJAS)
    assert game.over and game.winners == (0, 2)


# =============================================================== random games
def side_of(index, players):
    return index % 2 if players == 4 else index


def expected_points(piles, escobas, setenta):
    """Each side's points of a deal, from its captured card names and escobas (the rules, written out here)."""
    def most(amount):
        best = max(amount(s) for s in piles)
        top = [s for s in piles if amount(s) == best]
        return top[0] if len(top) == 1 else None

    def ranks(s, r):
        return sum(1 for n in piles[s] if int(n[:-1]) == r)

    def primera(s):
        best = {}
        for n in piles[s]:
            best[n[-1]] = max(best.get(n[-1], 0), PRIMERA[int(n[:-1])])
        return sum(best.values()) if len(best) == 4 else 0

    result = {s: escobas.get(s, 0) for s in piles}
    winners = [most(lambda s: len(piles[s])), most(lambda s: sum(1 for n in piles[s] if n.endswith("o"))),
               next((s for s in piles if "7o" in piles[s]), None),
               most(lambda s: (ranks(s, 7), ranks(s, 6)) if setenta == "sevens" else primera(s))]
    for s in winners:
        if s is not None:
            result[s] += 1
    return result


class Checker:
    """A random game, checked after every decision against the rules written out here."""

    def __init__(self, players, seed, path=ESCOBA, **params):
        self.game = start(players, seed, path=path, **params)
        self.players = players
        self.setenta = params.get("setenta", "sevens")
        self.must_capture = params.get("must_capture") is True
        self.agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        self.ids = sorted(c.id for z in self.game.memory.zones for c in z)
        self.captures = self.escobas = self.deals = 0

    def legal_takes(self, capture, table):
        """The table cards that belong to some set making 15 with the capture so far."""
        need = 15 - sum(value(n) for n in capture)
        return {f"take {t}" for k in range(1, len(table) + 1) for s in itertools.combinations(table, k)
                if sum(value(n) for n in s) == need for t in s}

    def check_options(self, game, p):
        capture, table = self.capture_and_table(game)
        offered = plays(game)
        if not capture:
            can = {c.name for c in p.hand if self.legal_takes([c.name], table)}
            assert offered == {f"capture with {c}" for c in can} | \
                {f"lay {c.name} down" for c in p.hand if not (self.must_capture and c.name in can)}
            return
        takes = self.legal_takes(capture, table)
        assert takes and offered == takes  # (a capture is begun only with a card that can capture)

    @staticmethod
    def capture_and_table(game):
        """The capture begun (the card played, then the table cards taken so far) and the table cards left."""
        begun = game.begun()
        capture = [begun[1][0], *begun[1][1]] if begun is not None else []
        return [c.name for c in capture], [c.name for c in zone(game, "table") if c not in capture]

    def run(self):
        game = self.game
        while not game.over:
            assert sorted(c.id for z in game.memory.zones for c in z) == self.ids
            decision = game.decision()
            p = game.memory.players[decision.player]
            self.check_options(game, p)
            won = {q.name: [c.name for c in q.won] for q in game.memory.players}
            escobas = {q.index: q.escobas for q in game.memory.players}
            capture, table = self.capture_and_table(game)
            last, deal = V(game)["last_capturer"], V(game)["round_number"]
            choice = self.agents[decision.player].choose(decision)
            game.apply(choice)
            captured = choice.move == "capture.taken" and sum(value(n) for n in capture) + choice.arg.value == 15
            if captured:
                self.captures += 1
                escobas[p.index] += table == [choice.arg.name]  # the table cleared: an escoba
                last = p
            if V(game)["round_number"] == deal and not game.over:
                assert {q.index: q.escobas for q in game.memory.players} == escobas
                continue
            # the deal ended with this move: what is left goes to the last to capture; then the count
            rest = table + capture + ([choice.arg.name] if choice.move == "lay" else [])
            if last is not None:
                won[last.name] = won[last.name] + rest
            self.check_count(game, won, escobas)
        return game

    def check_count(self, game, won, escobas):
        self.deals += 1
        side_piles, side_escobas = {}, {}
        for q in game.memory.players:
            s = side_of(q.index, self.players)
            side_piles.setdefault(s, []).extend(won[q.name])
            side_escobas[s] = side_escobas.get(s, 0) + escobas[q.index]
        assert sum(len(pile) for pile in side_piles.values()) == 40
        expected = expected_points(side_piles, side_escobas, self.setenta)
        for q in game.memory.players:
            assert q.points == expected[side_of(q.index, self.players)], (q.name, side_piles, side_escobas)


@pytest.mark.parametrize("players, params", [(2, {}), (3, {}), (4, {}), (2, {"setenta": "primera"}),
                                             (2, {"must_capture": True, "target": 5})])
def test_random_games_keep_every_rule(players, params):
    checker = Checker(players, seed=players * 7, **params)
    game = checker.run()
    assert game.over and checker.deals >= 1 and checker.captures > 0
    sides = {side_of(i, players) for i in game.winners}
    assert len(sides) == 1   # one side wins
    best = max(p.score for p in game.memory.players)
    assert all(p.score == best for p in game.memory.players if p.index in game.winners)
    assert best >= game.program.param_values["target"]


def test_a_deal_moves_every_card_to_a_pile():
    # random play of one deal: every capture makes 15; at the count all 40 cards lie in the won piles
    game = start(2, seed=5)
    texts = announced(game)
    agents = [RandomAgent(i) for i in range(2)]
    seen = {}
    game.listeners.append(lambda r: seen.update(count=sum(len(p.won) for p in game.memory.players))
                          if r["type"] == "announce" and " score" in r["text"] else None)
    while not game.over and V(game)["round_number"] == 1:
        game.apply(agents[game.to_move.index].choose(game.decision()))
    assert seen["count"] == 40
    assert any(re.match(r"P\d (captures|sweeps)", t) for t in texts)
