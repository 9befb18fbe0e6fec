"""What one seat knows about the hidden cards, and worlds consistent with it.

A search agent in a game with hidden cards plays many imagined games
(*determinisations*): the real game with the cards it cannot place dealt
again at random, consistently with everything it has seen or could deduce.
:class:`Knowledge` follows a game from one seat, and changes only by what the
seat observes: the cards in the zones it sees, the cards shown, how many cards
each zone holds. Where a hidden card really went never changes it.

* **where known cards are** (`known`): a card the seat sees is known where it
  is, and stays known while it moves where the seat can follow it: seen
  leaving a zone it sees or arriving in one (a trick gathered into a face-down
  pile, its own card put face down), shown (``show``: then seen wherever it
  moves until the next move is made, as a card shown and handed over), or with
  the whole zone it was in (a pile taken into a hand). A shuffle takes no card
  out of its zone.
* **where a card may be** (`confined`): cards that leave a hidden zone unseen
  (put face down from a hand, drawn from a stock) are known by number, not by
  name: a card the seat knew in that zone may be among them, so it is in one
  of the two zones; later unseen moves out of either widen that, and a zone
  that empties or holds only cards the seat knows drops out. A card seen taken
  into a hand, some of whose cards then go face down on a pile (a claim of
  Cheat), is in the hand or on the pile; in a world it is one of the pile's
  cards at random, never for sure one of the claim's. A whole hand put down
  at once is followed (every card of it went).
* **what a hand cannot hold** (`excluded`): when a player's choice skipped
  steps of an obligation cascade (``legal:`` as a list), no card of his could
  pass those steps: whatever would pass them now (a card of the lead suit, a
  trump) is not in his hand. Deduced only once the seat sees the card he
  played (played face down and never shown, it says nothing), and held until
  cards the seat cannot place enter that hand (a new deal).

:meth:`Knowledge.world` builds a determinisation: a clone of the game where
every card the seat cannot place is redealt among the places hidden from it,
each hidden place keeping its count and refusing its excluded cards and the
cards confined elsewhere, the order of face-down ordered piles (a stock) is
shuffled, and the world's random generator is the searcher's (not the real
game's next shuffles). Hidden variables that hold cards (the cards of a claim)
hold the world's cards of the same places. A world is a function of what the
seat knows and of the generator: which hidden card really is where does not
change it.

Hidden variables are not otherwise resampled: one that names cards is taken to
name places the seat could tell (the top of a pile), and one that holds no
card, or holds hand information in another form, is kept as it is (no shipped
game does). The deduction assumes cascade steps test one card at a time (as
obligations do) and that a hand does not take unseen cards back between the
deduction and its use, which a new deal resets.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..library.builtins import shuffle_in_place
from ..program import attribute
from ..runtime.game import Decision, Game, Option
from ..runtime.memory import CARD_CLASS, ZONE_CLASS, CardBase, Memory, PlayerBase, Zone, sees


class Knowledge:
    """One seat's knowledge of the card positions of one game; attach it before the game starts."""

    def __init__(self, game: Game, seat: int, like: Knowledge | None = None):
        """`like`: what another Knowledge of the seat knows, for a copy of its game (see follow)."""
        self.game, self.seat = game, seat
        self.known: dict[int, int] = {} if like is None else dict(like.known)  # card id -> its zone's slot
        # card id -> the slots of the zones it is in one of (it was not seen going there)
        self.confined: dict[int, frozenset[int]] = {} if like is None else dict(like.confined)
        self.excluded: dict[int, set[int]] = {} if like is None else {  # zone slot -> ids of cards it cannot hold
            slot: set(ids) for slot, ids in like.excluded.items()}
        self.tops: dict[int, int] = {} if like is None else dict(like.tops)  # `top` zone slot -> its top card's id
        self.in_sight: set[int] = set() if like is None else set(like.in_sight)  # ids of cards shown since a move
        # card id -> its zone's slot as the moves told so far, to tell which zones a move took cards from (how many
        # leave each zone, every seat sees; which ones, only where it sees them)
        self.at: dict[int, int] = {card.id: slot for card, slot in game.memory.where.items()}
        # (card played, the zone it came from, ids that zone cannot hold), deduced before the seat saw the card
        self.guess: tuple[int, int, set[int]] | None = None
        self.secret_vars, self.secret_player_vars = _secrets(game, seat)
        self.changes = 0  # how many times what it knows changed (see _hidden)
        self._hidden_at: tuple[tuple[int, int, int], _Hidden] | None = None  # (position, what _hidden found there)
        memory = game.memory
        memory.trackers = memory.trackers + (self,)
        game.before_move.append(self.deduce)
        if like is None:
            self.look()

    def follows(self, decision: Decision) -> bool:
        """Whether this knowledge is that of the seat deciding in the game of `decision` (a Decision)."""
        return self.game is decision.game and self.seat == decision.player

    def follow(self, game: Game) -> Knowledge:
        """The same knowledge, following `game` (a clone of this one's game, or a world of it)."""
        return Knowledge(game, self.seat, self)

    # ------------------------------------------------------------- following
    def look(self) -> None:
        """Note every card the seat can see now."""
        for zone in self.game.memory.zones:
            if sees(zone, self.seat):
                for card in zone:
                    self._place(card.id, zone.slot)
            self._see_top(zone)
        self._settle()

    def moved(self, cards: list, dest: Zone) -> None:
        """A tracker's call (Memory.move, Memory.deal): `cards` are in `dest` now."""
        self.changes += 1
        slot, at = dest.slot, self.at
        zones = self.game.memory.zones
        left: set[int] = set()  # the zones the cards came from
        unseen_from: set[int] = set()  # ... those the seat did not see them leave
        for card in cards:
            source = at.get(card.id, slot)
            at[card.id] = slot
            if source == slot:
                continue
            left.add(source)
            if sees(dest, self.seat) or card.id in self.in_sight or self._showed(source, card.id):
                self._place(card.id, slot)
                self._confirm(card.id)
            else:
                unseen_from.add(source)
        if unseen_from:
            self._lose_track(unseen_from, slot)
        for touched in left | {slot}:
            self._see_top(zones[touched])
        self._settle()

    def shown(self, cards: list) -> None:
        """Cards shown to every player (`show`): the seat knows where each is."""
        self.changes += 1
        where = self.game.memory.where
        for card in cards:
            self._place(card.id, where[card])
            self._confirm(card.id)
            self.in_sight.add(card.id)
        self._settle()

    def shuffled(self, zone: Zone) -> None:
        """A tracker's call: the cards stay in their zone (only a `top` zone's top card changes)."""
        self.changes += 1
        self._see_top(zone)

    def _showed(self, source: int, card_id: int) -> bool:
        """Whether the seat saw the card where it was, in the zone `source`: one it sees, or the top of a `top` one."""
        return sees(self.game.memory.zones[source], self.seat) or self.tops.get(source) == card_id

    def _place(self, card_id: int, slot: int) -> None:
        """The seat knows where the card is: in the zone `slot`."""
        self.known[card_id] = slot
        self.confined.pop(card_id, None)
        excluded = self.excluded.get(slot)
        if excluded:
            excluded.discard(card_id)

    def _see_top(self, zone: Zone) -> None:
        """The top card of a `top` zone is seen, and remembered as its top (to tell it leave: _showed)."""
        if zone.spec.visibility != "top":
            return
        if zone:
            self._place(zone[-1].id, zone.slot)
            self.tops[zone.slot] = zone[-1].id
        else:
            self.tops.pop(zone.slot, None)

    def _lose_track(self, sources: set[int], dest: int) -> None:
        """Cards left the zones `sources` for `dest` unseen: how many is known, not which. A card the seat placed
        in one of those zones may be in `dest` now; in `dest` for sure if its zone went whole."""
        remaining = set(self.at.values())
        emptied = sources - remaining
        known, confined = self.known, self.confined
        for card_id, slot in list(known.items()):
            if slot in emptied:
                known[card_id] = dest
            elif slot in sources:
                del known[card_id]
                confined[card_id] = frozenset((slot, dest))
        for card_id, among in list(confined.items()):
            if among & sources:
                confined[card_id] = (among - emptied) | {dest}
        self.excluded.pop(dest, None)  # cards it cannot place came in: old deductions no longer hold
        if self.guess is not None and self.guess[1] == dest:
            self.guess = None

    def _settle(self) -> None:
        """A zone that holds no more cards than the seat knows are there holds none of the cards it is unsure of."""
        if not self.confined:
            return
        sizes, placed = Counter(self.at.values()), Counter(self.known.values())
        full = {slot for among in self.confined.values() for slot in among if sizes[slot] == placed[slot]}
        if not full:
            return
        for card_id, among in list(self.confined.items()):
            if among & full:
                if among - full:
                    self.confined[card_id] = among - full
                else:  # (not where it could be: something moved it unseen by the trackers; nothing is known of it)
                    del self.confined[card_id]

    def deduce(self, game: Game, player: PlayerBase, option: Option) -> None:
        """Before a move takes effect (Game.before_move): cards shown before it are face down again; and for another
        player's move, what the cascade steps he skipped say about his hand, kept once the seat sees the card he
        played (_confirm)."""
        self.guess = None
        self.in_sight.clear()
        if player.index == self.seat:
            return
        move = game.program.moves[option.move]
        if move.strict or len(move.cascade) < 2 or not isinstance(option.arg, CARD_CLASS):
            return
        memory = game.memory
        V = memory.vars
        hand = memory.where.get(option.arg)
        if hand is None:
            return
        unknown = [c for z in memory.zones if not sees(z, self.seat) for c in z if c.id not in self.known]
        ruled_out: set[int] = set()
        with game.program.located():
            for _, allowed_of in move.cascade:
                if allowed_of(memory, V, player, [option.arg]):
                    break  # the step that decided: the ones before it found nothing in his hand
                ruled_out.update(c.id for c in allowed_of(memory, V, player, unknown))
        if ruled_out:
            self.guess = (option.arg.id, hand, ruled_out)
            if memory.shows(option.arg, self.seat):
                self._confirm(option.arg.id)

    def _confirm(self, card_id: int) -> None:
        """The seat sees the card: what was deduced from its play holds."""
        if self.guess is not None and self.guess[0] == card_id:
            _, hand, ruled_out = self.guess
            self.changes += 1
            self.excluded.setdefault(hand, set()).update(ruled_out)
            self.guess = None

    # ----------------------------------------------------------------- worlds
    def world(self, rng: random.Random, spare: Game | None = None) -> Game:
        """A clone of the game with every card the seat cannot place dealt again at random (`spare`: an earlier
        world that nothing uses any more, filled in again: Game.clone)."""
        hidden = self._hidden()
        world = self.game.clone(spare)
        memory = world.memory
        zones, where = memory.zones, memory.where
        dealt = _deal_respecting(hidden, rng)
        for (slot, i), card in zip(hidden.places, dealt):
            zones[slot][i] = card
            where[card] = slot
        if hidden.places and (self.secret_vars or self.secret_player_vars):
            self._carry_secrets(memory, dict(zip(hidden.held, dealt)))
        for slot in hidden.piles:
            shuffle_in_place(rng, zones[slot])  # the order of a face-down pile is unknown too
        memory.seed_later(rng.random())  # not the real game's future shuffles
        world.redraw_answers(self.seat, rng)  # nor the answers the others hold (Memory.ask_group)
        memory.dirty.update(hidden.keys)
        try:  # (program.located()'s handler, without a `with`'s two calls of Python code each world)
            world.agenda.update(memory)
        except Exception as exc:
            world.program.raise_located(exc)
        return world

    def _carry_secrets(self, memory: Memory, cards: dict[Any, Any]) -> None:
        """The hidden variables the seat cannot read name the world's cards: each card redealt replaced by the
        card the world put in its place (the cards of a claim are the world's cards on top of the pile)."""
        V = memory.vars
        for name in self.secret_vars:
            value = _carried(V[name], cards)
            if value != V[name]:
                V[name] = value
                memory.dirty.add(name)
        for name, seat in self.secret_player_vars:
            player = memory.players[seat]
            old = getattr(player, attribute(name))
            value = _carried(old, cards)
            if value != old:
                setattr(player, attribute(name), value)
                memory.dirty.add((name, seat))

    def _hidden(self) -> _Hidden:
        """Where the cards the seat cannot place are, worked out once per position of the game (a search draws
        many worlds from one position)."""
        game = self.game
        position = (game.decisions, game.firings, self.changes)
        if self._hidden_at is not None and self._hidden_at[0] == position:
            return self._hidden_at[1]
        self.look()
        hidden = _Hidden()
        zones = game.memory.zones
        for zone in zones:
            if sees(zone, self.seat):
                continue
            covered = len(zone) - (1 if zone.spec.visibility == "top" and zone else 0)
            for i in range(covered):
                card = zone[i]
                if self.known.get(card.id) != zone.slot:
                    hidden.places.append((zone.slot, i))
                    hidden.held.append(card)
        # (by id: a world depends on what the seat knows, not on which hidden card is where)
        hidden.pool = sorted(hidden.held, key=lambda c: c.id)
        touched = {slot for slot, _ in hidden.places}
        # the order of every face-down ordered pile is unknown, even of one whose cards the seat all knows
        hidden.piles = [zone.slot for zone in zones if zone.spec.visibility == "hidden" and zone.spec.ordered
                        and len(zone) > 1]
        hidden.keys = [zones[slot].key for slot in sorted(touched | set(hidden.piles))]
        for slot in sorted(touched):
            banned = self._banned(slot)
            if banned:
                hidden.banned[slot] = banned
        hidden.bans = [(k, hidden.banned[slot]) for k, (slot, _) in enumerate(hidden.places) if slot in hidden.banned]
        hidden.confined = self._confined_places(hidden, touched)
        self._hidden_at = (position, hidden)
        return hidden

    def _confined_places(self, hidden: _Hidden, touched: set[int]) -> list[tuple[list[CardBase], list[int]]]:
        """The pool's confined cards grouped by the zones they may be in, each group with the indexes of the places
        in those zones, fewest first (a card that may be in every zone of the places is left out)."""
        groups: dict[frozenset[int], list[CardBase]] = {}
        for card in hidden.pool:
            among = self.confined.get(card.id)
            if among is not None and not touched <= among:
                groups.setdefault(among, []).append(card)
        found = [(cards, [k for k, (slot, _) in enumerate(hidden.places) if slot in among])
                 for among, cards in groups.items()]
        return sorted(found, key=lambda group: (len(group[1]), group[0][0].id))

    def _banned(self, slot: int) -> set[int]:
        """The ids of the cards the zone `slot` cannot hold: excluded there, or confined to other zones."""
        banned = set(self.excluded.get(slot, ()))
        banned.update(card_id for card_id, among in self.confined.items() if slot not in among)
        return banned


class _Hidden:
    """The cards a seat cannot place, as a world redeals them (see Knowledge.world)."""

    def __init__(self) -> None:
        self.places: list[tuple[int, int]] = []  # (zone slot, index) of each card to redeal
        self.held: list[CardBase] = []  # the card in each of those places
        self.pool: list[CardBase] = []  # those cards, by id
        self.banned: dict[int, set[int]] = {}  # zone slot -> ids of the cards it cannot hold (Knowledge._banned)
        self.bans: list[tuple[int, set[int]]] = []  # (index into places, ids of the cards its zone cannot hold)
        self.keys: list = []  # the keys of the zones the cards are redealt in or shuffled (dirty in a world)
        self.piles: list[int] = []  # the slots of face-down ordered piles, shuffled in a world
        # the confined cards, by the zones they may be in (fewest places first), with the indexes of those places
        self.confined: list[tuple[list[CardBase], list[int]]] = []


def _secrets(game: Game, seat: int) -> tuple[list[str], list[tuple[str, int]]]:
    """The variables the seat cannot read: the hidden ones, and the players' (name, seat) hidden from it."""
    program = game.program
    hidden = [var.name for var in program.state if var.visibility != "public"]
    players = [(var.name, p.index) for var in program.player_state for p in game.memory.players
               if var.visibility == "hidden" or (var.visibility == "owner" and p.index != seat)]
    return hidden, players


def _carried(value: Any, cards: dict[Any, Any]) -> Any:
    """`value` with every card that is a key of `cards` replaced by its value (containers copied)."""
    if isinstance(value, CARD_CLASS):
        return cards.get(value, value)
    if isinstance(value, ZONE_CLASS):  # (a zone is a list: it stays the zone)
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_carried(item, cards) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)  # (a record: its fields)
    if isinstance(value, dict):
        return {_carried(key, cards): _carried(item, cards) for key, item in value.items()}
    return value


def _deal_respecting(hidden: _Hidden, rng: random.Random) -> list:
    """The pool's cards in an order for the places, none in a zone that cannot hold it (tries a few shuffles, then
    places the most constrained cards first; if nothing fits, ignores what the zones cannot hold)."""
    bans = hidden.bans
    for _ in range(20 if bans else 1):
        cards = _shuffled(hidden, rng)
        if all(cards[k].id not in ban for k, ban in bans):
            return cards
    return _constrained_deal(hidden.pool, hidden.places, hidden.banned, rng)


def _shuffled(hidden: _Hidden, rng: random.Random) -> list:
    """The pool's cards in a random order for the places, each confined card first in a place of one of its
    zones (a random shuffle would seldom put them all there)."""
    if not hidden.confined:
        cards = list(hidden.pool)
        shuffle_in_place(rng, cards)
        return cards
    out: list[Any] = [None] * len(hidden.places)
    for group, places in hidden.confined:
        free = [k for k in places if out[k] is None]
        for card, k in zip(group, rng.sample(free, min(len(free), len(group)))):
            out[k] = card
    placed = {card.id for card in out if card is not None}
    rest = [card for card in hidden.pool if card.id not in placed]
    shuffle_in_place(rng, rest)
    others = iter(rest)
    return [card if card is not None else next(others) for card in out]


def _constrained_deal(pool: list, places: list, banned: dict[int, set[int]], rng: random.Random) -> list:
    free: dict[int, list[int]] = {}  # zone slot -> indexes into places still empty
    for k, (slot, _) in enumerate(places):
        free.setdefault(slot, []).append(k)
    allowed = {card.id: [s for s in free if card.id not in banned.get(s, ())] for card in pool}
    order = sorted(pool, key=lambda c: (len(allowed[c.id]), rng.random()))
    out: list[Any] = [None] * len(places)
    for card in order:
        slots = [s for s in allowed[card.id] if free[s]] or [s for s in free if free[s]]
        weights = [len(free[s]) for s in slots]
        slot = rng.choices(slots, weights)[0]
        out[free[slot].pop()] = card
    return out
