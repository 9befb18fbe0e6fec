"""What one seat knows about the hidden cards, and worlds consistent with it.

A search agent in a game with hidden cards plays many imagined games
(*determinisations*): the real game with the cards it cannot place dealt
again at random, consistently with everything it has seen or could deduce.
:class:`Knowledge` follows a game from one seat:

* **where known cards are**: a card seen in a zone the seat can see is known;
  it stays known while it moves (a trick gathered into a face-down pile, a
  discard taken into a hand) until the zone it is in is shuffled.
* **what a hand cannot hold**: when a player's choice skipped steps of an
  obligation cascade (``legal:`` as a list), no card of his could pass those
  steps: whatever would pass them now (a card of the lead suit, a trump) is
  not in his hand. These exclusions hold until cards the seat cannot place
  enter that hand (a new deal).

:meth:`Knowledge.world` builds a determinisation: a clone of the game where
every card the seat cannot place is redealt among the places hidden from it,
each hidden place keeping its count and refusing its excluded cards, the
order of face-down ordered piles (a stock) is shuffled, and the world's random
generator is the searcher's (not the real game's next shuffles). A world is a
function of what the seat knows and of the generator: where the hidden cards
really are does not change it.

Hidden *variables* are not resampled (no shipped game keeps hand information
in one). The deduction assumes cascade steps test one card at a time (as
obligations do) and that a hand does not take unseen cards back between the
deduction and its use, which a new deal resets.
"""
from __future__ import annotations

import random
from typing import Any

from ..library.builtins import shuffle_in_place
from ..runtime.game import Decision, Game, Option
from ..runtime.memory import CARD_CLASS, CardBase, PlayerBase, Zone, sees


class Knowledge:
    """One seat's knowledge of the card positions of one game; attach it before the game starts."""

    def __init__(self, game: Game, seat: int, like: Knowledge | None = None):
        """`like`: what another Knowledge of the seat knows, for a copy of its game (see follow)."""
        self.game, self.seat = game, seat
        # card id -> zone slot where the seat knows it is; zone slot -> ids of cards it cannot hold
        self.known: dict[int, int] = {} if like is None else dict(like.known)
        self.excluded: dict[int, set[int]] = {} if like is None else {
            slot: set(ids) for slot, ids in like.excluded.items()}
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
                    self.known[card.id] = zone.slot
            elif zone.spec.visibility == "top" and zone:
                self.known[zone[-1].id] = zone.slot

    def moved(self, cards: list, dest: Zone) -> None:
        self.changes += 1
        known, slot = self.known, dest.slot
        visible = sees(dest, self.seat)
        unplaced = False
        for card in cards:
            if visible or card.id in known:
                known[card.id] = slot
            else:
                unplaced = True
        if dest.spec.visibility == "top" and dest:
            known[dest[-1].id] = slot
        if unplaced:
            self.excluded.pop(slot, None)  # cards it cannot place came in: old deductions no longer hold

    def shown(self, cards: list) -> None:
        """Cards shown to every player (`show`): the seat knows where each is."""
        self.changes += 1
        where, known = self.game.memory.where, self.known
        for card in cards:
            known[card.id] = where[card]

    def shuffled(self, zone: Zone) -> None:
        self.changes += 1
        if not sees(zone, self.seat):
            known = self.known
            for card in zone:
                known.pop(card.id, None)

    def deduce(self, game: Game, player: PlayerBase, option: Option) -> None:
        """Before another player's move takes effect: what the cascade steps he skipped say about his hand."""
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
        with game.program.located():
            for _, allowed_of in move.cascade:
                if allowed_of(memory, V, player, [option.arg]):
                    return  # the step that decided: the ones before it found nothing in his hand
                ruled_out = allowed_of(memory, V, player, unknown)
                if ruled_out:
                    self.changes += 1
                    self.excluded.setdefault(hand, set()).update(c.id for c in ruled_out)

    # ----------------------------------------------------------------- worlds
    def world(self, rng: random.Random, spare: Game | None = None) -> Game:
        """A clone of the game with every card the seat cannot place dealt again at random (`spare`: an earlier
        world that nothing uses any more, filled in again: Game.clone)."""
        hidden = self._hidden()
        world = self.game.clone(spare)
        memory = world.memory
        zones, where = memory.zones, memory.where
        for (slot, i), card in zip(hidden.places, _deal_respecting(hidden, self.excluded, rng)):
            zones[slot][i] = card
            where[card] = slot
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
                    hidden.pool.append(card)
        hidden.pool.sort(key=lambda c: c.id)  # a world depends on what the seat knows, not on where hidden cards are
        touched = {slot for slot, _ in hidden.places}
        hidden.keys = [zones[slot].key for slot in sorted(touched)]
        hidden.piles = [slot for slot in sorted(touched) if zones[slot].spec.visibility == "hidden"
                        and zones[slot].spec.ordered and len(zones[slot]) > 1]
        hidden.bans = [(k, self.excluded[slot]) for k, (slot, _) in enumerate(hidden.places) if self.excluded.get(slot)]
        self._hidden_at = (position, hidden)
        return hidden


class _Hidden:
    """The cards a seat cannot place, as a world redeals them (see Knowledge.world)."""

    def __init__(self) -> None:
        self.places: list[tuple[int, int]] = []  # (zone slot, index) of each card to redeal
        self.pool: list[CardBase] = []  # those cards, by id
        self.bans: list[tuple[int, set[int]]] = []  # (index into places, ids of the cards its zone excludes)
        self.keys: list = []  # the keys of the zones the cards are redealt in (dirty in a world)
        self.piles: list[int] = []  # the slots of face-down ordered piles among them, shuffled in a world


def _deal_respecting(hidden: _Hidden, excluded: dict[int, set[int]], rng: random.Random) -> list:
    """The pool's cards in an order for the places, none in a zone that excludes it (tries a few shuffles,
    then places the most constrained cards first; if nothing fits, ignores the exclusions)."""
    pool, bans = hidden.pool, hidden.bans
    for _ in range(20 if bans else 1):
        cards = list(pool)
        shuffle_in_place(rng, cards)
        if all(cards[k].id not in ban for k, ban in bans):
            return cards
    return _constrained_deal(pool, hidden.places, excluded, rng)


def _constrained_deal(pool: list, places: list, excluded: dict[int, set[int]], rng: random.Random) -> list:
    free: dict[int, list[int]] = {}  # zone slot -> indexes into places still empty
    for k, (slot, _) in enumerate(places):
        free.setdefault(slot, []).append(k)
    allowed = {card.id: [s for s in free if card.id not in excluded.get(s, ())] for card in pool}
    order = sorted(pool, key=lambda c: (len(allowed[c.id]), rng.random()))
    out: list[Any] = [None] * len(places)
    for card in order:
        slots = [s for s in allowed[card.id] if free[s]] or [s for s in free if free[s]]
        weights = [len(free[s]) for s in slots]
        slot = rng.choices(slots, weights)[0]
        out[free[slot].pop()] = card
    return out
