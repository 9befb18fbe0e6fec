"""The working memory: everything a game knows while it runs.

Global variables (state vars, global zones, ``players``, ``phase``) live in one
dict ``vars``; each player is an object with a slot per player variable and
per-player zone; each card is in exactly one zone (``where`` maps each card to
its zone's slot), which :meth:`Memory.move` keeps true by construction.

Every write records a *key* in ``dirty`` (a global name, or ``(attr,
player_index)``), which is what the agenda uses to re-evaluate only the rules
that read it.  Values are immutable (the language has no in-place mutation),
so :meth:`Memory.clone` copies containers, not values: cheap enough for search
agents that clone millions of times.
"""
from __future__ import annotations

import random
import sys
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from functools import partial
from operator import attrgetter
from typing import Any, Final

from ..errors import GameError, ParamError
from ..library.builtins import DECK, TEAMS, members, shuffle_in_place, team, team_numbers
from ..library.limits import (
    COPY_CHUNK,
    GAME_STEPS,
    LEAVES,
    MAX_ALIKE,
    MAX_ITEMS,
    SEARCH_POOL,
    UNBOUNDED,
    Budget,
    hashes_at_will,
    plus,
    weigh,
    weigh_kept,
)
from ..program import CardBase as CardBase
from ..program import CardSpec, FactBase, Program, TurnSpec, ZoneSpec, attribute, declared, entry_rule, kind_of
from ..program import PlayerBase as PlayerBase
from .zones import Zone as Zone

# The classes of the modules mypyc does not compile, as compiled code checks and makes them: mypyc looks a name imported
# from such a module up in this module's globals at each use, and keeps a Final one in a C static
ZONE_CLASS: Final = Zone
CARD_CLASS: Final = CardBase
PLAYER_CLASS: Final = PlayerBase
FACT_CLASS: Final = FactBase
TIME_TAG: Final = attrgetter("time_tag")  # (a fact's: the collection of a kind is in the order of its facts' tags)

# Players asked together with the pending one (Memory.ask_group): 'each' or 'any', the players still to be asked
# after it, and for 'each' the answers held so far, (player, move, argument) (held for another seat, in a seat's
# view: (player, None, None))
Group = tuple[str, tuple[PlayerBase, ...], tuple[tuple[PlayerBase, Any, Any], ...]]
# what Memory.key compares a position with (Memory.baseline): the variables, each player's, the ordered zones' cards
Baseline = tuple[dict[Any, Any], list[dict[Any, Any]], dict[int, tuple[Any, ...]]]


def sees(zone: Zone, seat: int | None) -> bool:
    """Whether the player at `seat` sees every card of the zone (a ``top`` zone shows only its top)."""
    visibility = zone.spec.visibility
    return visibility == "public" or (visibility == "owner" and zone.owner is not None and zone.owner.index == seat)


class TurnRun:
    """A phase's declared turns (its TurnSpec) as `Memory.pass_turn` reads them after each move, as fields of
    its own (compiled, a field is one load where a TurnSpec's attributes are lookups). Made once per program
    (see `turn_runs`)."""

    __slots__ = ("first", "order", "skip", "until", "once", "after", "ask")

    def __init__(self, spec: TurnSpec):
        self.first: Callable[..., Any] = spec.first
        self.order: Callable[..., Any] | None = spec.order
        self.skip: Callable[..., Any] | None = spec.skip
        self.until: Callable[..., Any] | None = spec.until
        self.once: bool = spec.once
        self.after: frozenset[str] | None = spec.after
        self.ask: tuple[str, ...] = spec.ask


def turn_runs(program: Program) -> dict[str, TurnRun]:
    """The program's declared turns by phase, as a memory reads them (kept in the program's caches)."""
    runs: dict[str, TurnRun] | None = program.caches.get("turn runs")
    if runs is None:
        runs = program.caches["turn runs"] = {phase: TurnRun(spec) for phase, spec in program.turns.items()}
    return runs


class Memory(Budget):
    """Game state plus the bookkeeping the engine needs (dirty keys, decisions, the steps left: see limits).

    Its fields are of three kinds, each set in one place, which is what makes a copy (`_copy`) right:
    the game's state (`__init__` makes it, `_copy` copies it), what a memory shares with its copies, the
    same objects (`_share`), and a memory's own bookkeeping and caches, which every memory and every copy
    starts afresh (`_begin`).
    """

    __slots__ = ("vars", "players", "zones", "where", "pending", "group", "partial", "over", "winners", "clock",
                 "_rng", "_rng_origin",
                 "_rng_own", "seen_as", "mapped",  # the state
                 "program", "keys", "made", "grown", "turn_runs", "card_class", "player_class",  # shared with copies
                 "dirty", "events", "trackers", "shuffler", "on_step", "trail", "indexes", "probes", "given_now",
                 "halt", "halted", "checked_order", "key_plan")  # a memory's own (and Budget's: steps, allowance, left)

    # shared with copies
    program: Program
    # slot -> the zone's key (the same in every copy: compiled, a move reads it here, not from the zone)
    keys: list[Any]
    made: dict[str, dict[Any, Any]]  # move -> card -> its option (naipes.runtime.game)
    # name, or (name, seat) -> (the last list grow_var or grow_attr stored there, its weight) (a value is
    # remembered by identity, and lists in the state are never changed in place)
    grown: dict[Any, tuple[Any, int]]

    def __init__(self, program: Program | None = None, rng: random.Random | None = None):
        """`program` None: a blank memory, which `_copy` fills in (a compiled class makes its objects through
        `__init__`)."""
        if program is None:
            return
        self._share(program, [], {}, {})
        self._begin()
        self.left, self.pool = GAME_STEPS, SEARCH_POOL.get()  # (a game made in a search spends from it too)
        self.vars: dict[str, Any] = {}
        self.players: list[PlayerBase] = []
        self.zones: list[Zone] = []
        self.where: dict[CardBase, int] = {}  # (a card is its own key: hashed by identity, its id not read)
        self.pending: tuple[PlayerBase, tuple[str, ...]] | None = None  # (player, move names)
        self.group: Group | None = None  # the players asked with the pending one, and their answers (ask_group)
        # a compound move begun by the player to move: its name and the values of the parts chosen so far
        self.partial: tuple[str, tuple[Any, ...]] | None = None
        self.over = False
        self.winners: tuple[int, ...] = ()
        # The time tags of facts (CLIPS's): each assertion and retraction is a moment of its own, and the agenda
        # counts an update as one more (naipes.runtime.agenda: activations are as old as what made them)
        self.clock = 1  # (1: the start, when everything there before any fact counts as made)
        self._rng: random.Random | None = rng  # None in a clone until it draws (see rng)
        self._rng_origin: tuple[Any, ...] | float | None = None  # a state to make it from, or a seed
        self._rng_own = True  # the generator is this memory's alone (not an agent's, given through the setter)
        # a view's seat and the names it keeps (seen_by), None for a game's memory and its clones
        self.seen_as: tuple[int | None, AbstractSet[str] | None] | None = None
        # a view's variables whose values hold players or zones, by name: (the value it was made from, its copy
        # holding the view's players and zones), for a view renewed in place (seen_by `into`)
        self.mapped: dict[Any, tuple[Any, Any]] = {}

    def _share(self, program: Program, keys: list[Any], made: dict[str, dict[Any, Any]],
               grown: dict[Any, tuple[Any, int]]) -> None:
        """What this memory shares with the one it copies (a new memory's are its own, for its copies)."""
        self.program, self.keys, self.made, self.grown = program, keys, made, grown
        self.turn_runs: dict[str, TurnRun] = turn_runs(program)
        # the program's own classes, which every card and player is (an `is` of their type, where isinstance
        # asks the class's metaclass first)
        self.card_class: type[CardBase] = program.cards.card_class if program.cards is not None else CARD_CLASS
        self.player_class: type[PlayerBase] = program.player_class

    def _begin(self) -> None:
        """A memory's own bookkeeping and caches, as a new memory and each copy start them."""
        # what the engine operation under way may still spend, and the game after it (see naipes.library.limits):
        # a copy (a search's world, a seat's view) is bounded by the agent that uses it, not by the game's total
        self.per_operation = self.program.max_steps
        self.steps = self.allowance = self.per_operation
        self.left, self.alike, self.pool = UNBOUNDED, None, SEARCH_POOL.get()
        self.dirty: set[Any] = set()
        self.events: list[str] | None = []  # announcements not yet told; None: nobody is told
        # told of every card movement and shuffle (what a seat can know: naipes.agents.knowledge)
        self.trackers: tuple[Any, ...] = ()
        # Where shuffles get their order: None, the seeded generator; else f(zone) -> the zone's cards in their
        # new order (naipes.bridges.chance lets the caller decide each deal, one card at a time)
        self.shuffler: Callable[[Zone], list[CardBase]] | None = None
        self.on_step: Callable[[str, str], None] | None = None  # told of each phase enter step before it runs
        # While a search tries a move (Game.make): what each write replaced, to be put back (Game.undo)
        self.trail: list[tuple[Any, ...]] | None = None
        # kind of fact -> what is kept about its facts (see _book): their weight, indexes of their values (changed
        # in place: made anew when used)
        self.indexes: dict[str, tuple[Any, ...]] = {}
        # While the agenda evaluates a condition that looks facts up: the lookups it made (see has_fact)
        self.probes: list[Any] | None = None
        # the candidates made for the options of the decision under way, for moves that make theirs alike
        # (see give; naipes.runtime.game empties it as it begins a decision's options)
        self.given_now: dict[int, list[Any]] = {}
        # A search's world that stops where its evaluation changed (Game.pause_after): (the names watched, the
        # dirty keys they make), and whether a phase's entry stopped early for it (see in_phase)
        self.halt: tuple[frozenset[str], frozenset[Any]] | None = None
        self.halted = False
        # the last order of turns found to be a list of players (see _following; kept, so never another's address)
        self.checked_order: list[Any] | None = None
        # what `key` reads of the program for the seat it counts from: (that seat, _zone_table, _ordered_key_slots)
        self.key_plan: tuple[int, bytes, list[int]] | None = None

    @property
    def rng(self) -> random.Random:
        """The game's seeded generator (a clone copies it only when it first draws)."""
        if self._rng is None:
            origin = self._rng_origin
            assert origin is not None  # a clone keeps its origin's state (or a seed) until it first draws
            if isinstance(origin, tuple):
                self._rng = random.Random()
                self._rng.setstate(origin)
            else:
                self._rng = random.Random(origin)
            self._rng_origin = None
        return self._rng


    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng, self._rng_origin, self._rng_own = rng, None, False

    def seed_later(self, seed: float) -> None:
        """Draw from now on from a generator seeded with `seed`, made when first drawn from (a world a search
        makes up may never draw: making a generator costs more than many moves)."""
        self._rng, self._rng_origin, self._rng_own = None, seed, True

    def _rng_snapshot(self) -> tuple[Any, ...] | float | None:
        """The generator's state for a clone. A memory that owns its generator keeps the snapshot and lets the
        generator go (made again from it at its next draw), so that all its clones until then share one
        snapshot instead of copying 24 KB each; a generator given by an agent stays where it is."""
        if self._rng is None:
            return self._rng_origin
        state = self._rng.getstate()
        if self._rng_own:
            self._rng, self._rng_origin = None, state
        return state

    def entering_step(self, phase: str, step: str) -> None:
        """An enter step of `phase` is about to run (for traces and logs)."""
        if self.on_step is not None:
            self.on_step(phase, step)

    def entered(self, phase: str) -> None:
        """The enter steps of `phase` run in this firing: its rules held until they have are evaluated after it
        (see Agenda.holding)."""
        self.dirty.add(sys.intern(ENTERED + phase))  # (interned: the agenda's key of it is found by identity)

    def reset_variables(self, phase: str) -> None:
        """`phase` is entered: its variables declared `reset: PHASE` start again from their init, in the order
        declared (the game's, then the players')."""
        V = self.vars
        game_vars, player_vars = self.program.resets[phase]
        for var in game_vars:
            self.set_var(var.name, var.init(self, V))
        for var in player_vars:
            for p in self.players:
                self.set_attr(p, var.name, var.init(self, V, p))

    def goto(self, phase: str) -> None:
        """`goto PHASE`: the phase is entered; if it is the phase already, entered again (its entry, the resets,
        first turn and enter steps, runs again: the entry rule is refreshed). A decision asked before it, and not
        put yet, is withdrawn: it was the phase left's (a rule of the phase entered asks again if it is still to
        be made)."""
        self.pending = self.group = None
        if self.vars["phase"] != phase:
            self.set_var("phase", phase)
        elif phase in self.program.entries:
            self.dirty.add(REFRESH + entry_rule(phase))

    def start_turns(self, phase: str) -> None:
        """`phase`, with declared turns, is entered: the turn is its `from` player's."""
        first = self.turn_runs[phase].first(self, self.vars)
        if first is not None and not isinstance(first, PLAYER_CLASS):
            raise GameError(f"'from' of the turns of phase '{phase}' gives {first!r}, where a player (or None) is "
                            "wanted")
        self.set_var("turn", first)

    def settle_turns(self, phase: str) -> None:
        """The end of the entry of `phase`, its enter steps run: if they left the player whose turn it is one the
        order passes over (`skip`: a blind that left him all-in, say), the turn passes on from him as after a
        move."""
        spec = self.turn_runs[phase]
        holder = self.vars["turn"]
        if spec.skip is not None and holder is not None and spec.skip(self, self.vars, holder):
            self.set_var("turn", self._following(spec, holder, phase))

    def pass_turn(self, player: PlayerBase, move: str, phase: str | None, ends: bool = False) -> None:
        """`player` made `move` in `phase`: with declared turns, the turn passes to the next player of its order
        who is not passed over, unless the move does not end a turn (`after`, unless its effect said `end turn`:
        `ends`), gave the turn to someone else,
        changed the phase or ended the game; None when `until` holds, when it would go back to `from` in a phase
        whose turn goes round once, or when nobody is left. The player it passes to is asked the turns' `ask`;
        where it comes back to the player himself (every other passed over), the rules that read `turn` are
        woken as if it had changed (they ask him again)."""
        spec = self.turn_runs.get(phase) if phase is not None else None
        V = self.vars
        if phase is None or spec is None or self.over or V["turn"] is not player or V["phase"] != phase or (
                spec.after is not None and move not in spec.after and not ends):
            return
        if spec.until is not None and spec.until(self, V):
            self.set_var("turn", None)
            return
        following = self._following(spec, player, phase)
        if following is player:
            self.dirty.add("turn")
        self.set_var("turn", following)
        if following is not None and spec.ask:
            self.ask(following, spec.ask)

    def _following(self, spec: TurnRun, player: PlayerBase, phase: str) -> Any:
        """The player the turn passes to from `player` (None: nobody, or back at `from` where it goes round
        once)."""
        V = self.vars
        ring: list[Any] = self.players
        at = player.index  # (his place in the order: every player's is his seat)
        if spec.order is not None:
            ring = self._turn_order(spec.order(self, V), phase)
            at = -1
            for i in range(len(ring)):  # (players are equal only to themselves: found by identity)
                if ring[i] is player:
                    at = i
                    break
            if at < 0:  # (left the order: the next of it after his seat)
                ring = [p for p in self.players if p is player or p in ring]
                at = ring.index(player)
        count = len(ring)
        if spec.skip is None and not spec.once:
            return ring[(at + 1) % count]
        first = spec.first(self, V) if spec.once else None
        for i in range(1, count + 1):
            candidate = ring[(at + i) % count]
            if spec.once and candidate is first:
                return None
            if spec.skip is None or not spec.skip(self, V, candidate):
                return candidate
        return None

    def _turn_order(self, given: Any, phase: str) -> list[Any]:
        """The order of turns a phase's `order` gave, checked to be a list of players; a list of the players of
        the order checked last, in its order, is not checked again (an order is usually made anew each time)."""
        checked: list[Any] | None = self.checked_order
        if type(given) is list and checked is not None:
            order: list[Any] = given
            size = len(order)
            if size == len(checked):
                i = 0
                while i < size and order[i] is checked[i]:
                    i += 1
                if i == size:
                    return order
        if not isinstance(given, (list, tuple)) or not all(isinstance(p, PLAYER_CLASS) for p in given):
            raise GameError(f"'order' of the turns of phase '{phase}' gives {given!r}, where a list of players is "
                            "wanted")
        order = given if type(given) is list else list(given)
        self.checked_order = order
        return order

    def refresh(self, rule: str) -> None:
        """Let the activations of `rule` fire again though nothing they read changed (CLIPS's refresh)."""
        self.dirty.add(REFRESH + rule)

    def in_phase(self, phase: str, later: tuple[str, ...] | None = None) -> bool:
        """Whether the game goes on in `phase` (a phase's enter steps stop at a goto or the end of the game).
        `later`: what may still change in the phase, by the steps left or its rules (naipes.language.phases);
        a world watched for its evaluation stops here, `halted`, once a step wrote a name watched, if nothing
        left can write one again."""
        if self.over or self.vars.get("phase") != phase:
            return False
        halt = self.halt
        if halt is not None and later is not None and not halt[1].isdisjoint(self.dirty) and halt[0].isdisjoint(later):
            self.halted = True
            return False
        return True

    # ------------------------------------------------------------------ zones
    def new_zone(self, name: str, owner: PlayerBase | None, spec: ZoneSpec) -> Zone:
        zone = ZONE_CLASS()
        zone.name, zone.owner, zone.spec, zone.slot = name, owner, spec, len(self.zones)
        zone.key = name if owner is None else (name, owner.index)
        self.zones.append(zone)
        self.keys.append(zone.key)
        return zone

    def place(self, cards: Iterable[CardBase], zone: Zone) -> None:
        """Put new cards into a zone (used once, when the deck is built)."""
        assert self.trail is None  # the deck is built before any search tries moves
        for card in cards:
            zone.append(card)
            self.where[card] = zone.slot
        self.dirty.add(zone.key)

    # --------------------------------------------------------- shared candidates
    def give(self, key: int, candidates: list[Any]) -> list[Any]:
        """Keep the candidates of a move for the other moves asked with it whose candidates are the same code
        (naipes.language.moves: Moves.share_candidates); `given(key)` returns them while the options of this
        decision are made."""
        self.given_now[key] = candidates
        return candidates

    def given(self, key: int) -> list[Any] | None:
        return self.given_now.get(key)

    # ----------------------------------------------------------------- writes
    def set_var(self, name: str, value: Any) -> None:
        old = self.vars[name]
        kind = type(value)  # (a card or a player is equal only to itself: no comparison asked of it)
        if kind not in LEAVES and old is not value:
            self.spend(weigh_kept(value))  # (before it is compared: a value's work is paid for, and it is kept)
        if old is not value and (type(old) is not kind or kind is self.player_class or kind is self.card_class
                                 or old != value):
            if self.trail is not None:
                self.trail.append((VAR, name, old))
            self.vars[name] = value
            self.dirty.add(name)

    def set_attr(self, obj: PlayerBase, name: str, value: Any) -> None:
        """`obj.name = value`, for `name` a player variable (the key written is `(name, seat)`)."""
        if type(obj) is not self.player_class and not isinstance(obj, PLAYER_CLASS):
            raise GameError(f"cannot set '{name}' on {obj!r}: only players have variables")
        attr = attribute(name)
        old = getattr(obj, attr)
        if type(value) not in LEAVES and old is not value:
            self.spend(weigh_kept(value))  # (before it is compared: see set_var)
        if old is not value and (type(old) is not type(value) or old != value):
            if self.trail is not None:
                self.trail.append((ATTR, obj, attr, old))
            setattr(obj, attr, value)
            self.dirty.add((name, obj.index))

    def set_team_attr(self, obj: PlayerBase, name: str, value: Any) -> None:
        """`obj.name = value` for a variable `obj`'s team shares: for every member of his team."""
        if not isinstance(obj, PLAYER_CLASS):
            raise GameError(f"cannot set '{name}' on {obj!r}: only players have variables")
        for p in members(self.vars, team(self.vars, obj)):
            self.set_attr(p, name, value)

    def grow_var(self, name: str, added: Any) -> None:
        """`name = name + added`, for `added` a list display (naipes.language.passes writes it so): a list
        that grows is weighed by what it gains (see _grew)."""
        old = self.vars[name]
        value = plus(self, old, added)
        if not self._grew(name, old, value, added):
            self.set_var(name, value)
            return
        if self.trail is not None:
            self.trail.append((VAR, name, old))
        self.vars[name] = value
        self.dirty.add(name)

    def grow_attr(self, obj: PlayerBase, name: str, added: Any) -> None:
        """`obj.name = obj.name + added`: set_attr as grow_var is set_var."""
        if not isinstance(obj, PLAYER_CLASS):
            raise GameError(f"cannot set '{name}' on {obj!r}: only players have variables")
        attr = attribute(name)
        old = getattr(obj, attr)
        value = plus(self, old, added)
        key = (name, obj.index)
        if not self._grew(key, old, value, added):
            self.set_attr(obj, name, value)
            return
        if self.trail is not None:
            self.trail.append((ATTR, obj, attr, old))
        setattr(obj, attr, value)
        self.dirty.add(key)

    def _grew(self, key: Any, old: Any, value: Any, added: Any) -> bool:
        """Whether `value` is the list `old` with the items of the list `added` after them, and is within the size
        limit: its weight is that of `old`, when `old` is the list last grown at `key`, and of `added` (a trick's
        plays, a strategy's cards seen: their items are not weighed again at each card)."""
        if type(old) is not list or type(added) is not list or not added:
            return False  # (set_var then writes it, if it differs from the old value)
        known = self.grown.get(key)
        if known is not None and known[0] is old:
            weight = known[1] + weigh_kept(added) - 1  # (each counts itself once: the list)
            if weight > MAX_ITEMS:
                weigh(value)  # (says so)
        else:
            weight = weigh_kept(value)
        self.grown[key] = (value, weight)
        return True

    def move(self, cards: Any, dest: Zone, source: Zone | None = None, bottom: bool = False) -> None:
        """Move a card or a collection of cards to `dest` (on top, or at the bottom)."""
        if type(dest) is not ZONE_CLASS:
            raise GameError(f"'move' needs a zone to move to, got {dest!r}")
        if type(cards) is self.card_class or (type(cards) is not ZONE_CLASS and isinstance(cards, CARD_CLASS)):
            where = self.where
            slot = where[cards]
            zone = self.zones[slot]
            if source is not None and zone is not source:
                raise GameError(f"card {cards} is in {zone!r}, not in {source!r}")
            pile: list[Any] = zone  # (typed as lists, a zone's methods are list operations for mypyc)
            onto: list[Any] = dest
            at = _place_of(cards, pile)
            pile.pop(at)  # (not `del pile[at]`: mypyc makes that Python's generic deletion)
            if self.trail is not None:  # (the card's place noted, not the zone copied; `dest` as the card left it)
                self.trail += [(TAKEN, zone, at, cards, slot), self._kept(dest, bottom)]
            if bottom:
                onto.insert(0, cards)
            else:
                onto.append(cards)
            where[cards] = to = dest.slot
            keys, dirty = self.keys, self.dirty
            dirty.add(keys[slot])
            dirty.add(keys[to])
            if not self.trackers:
                return
            batch = [cards]
        elif type(cards) is ZONE_CLASS and cards is not dest and (source is None or source is cards):
            pile = cards  # (typed as a list, as above)
            batch = pile.copy()  # a whole zone: every card leaves it
            if not batch:
                return
            if self.trail is not None:
                self.trail += [(ZONE, cards, batch), self._kept(dest, bottom),
                               (WHERE, cards.slot, batch)]
            pile.clear()
            self.dirty.add(cards.key)
            self._land(batch, dest, bottom)
        else:
            batch = list(cards)
            if not batch:
                return
            self._move_each(batch, dest, source, bottom)
        for tracker in self.trackers:
            tracker.moved(batch, dest)

    def _move_each(self, batch: list[Any], dest: Zone, source: Zone | None, bottom: bool) -> None:
        """Move the cards of `batch` in turn (each leaves its zone, then lands on `dest`)."""
        zones, where, dirty = self.zones, self.where, self.dirty
        try:  # the common case first: distinct cards out of one zone
            leaving = {card for card in batch if isinstance(card, CARD_CLASS)}
            slots = {where[card] for card in leaving}
        except KeyError:  # a card the memory does not hold: said below
            slots = set()
        if len(slots) == 1 and len(leaving) == len(batch):
            zone = zones[slots.pop()]
            if zone is dest and (source is None or zone is source):  # the cards change places within their zone
                if self.trail is not None:
                    self.trail.append((ZONE, zone, zone[:]))
                rest = [card for card in zone if card not in leaving] if len(leaving) < len(zone) else []
                zone[:] = batch[::-1] + rest if bottom else rest + batch  # (each card in turn goes to the bottom)
                dirty.add(zone.key)
                return
            if source is None or zone is source:
                if self.trail is not None:
                    self.trail += [(ZONE, zone, zone[:]), (WHERE, zone.slot, leaving), self._kept(dest, bottom)]
                zone[:] = [card for card in zone if card not in leaving]
                dirty.add(zone.key)
                self._land(batch, dest, bottom)
                return
        taken: dict[int, set[Any]] = {}  # zone slot -> the cards leaving it
        for card in batch:
            if not isinstance(card, CARD_CLASS):
                raise GameError(f"'move' moves cards, got {card!r}")
            zone = zones[where[card]]
            if source is not None and zone is not source:
                raise GameError(f"card {card} is in {zone!r}, not in {source!r}")
            taken.setdefault(zone.slot, set()).add(card)
        if self.trail is not None:
            self.trail += [entry for slot, left in taken.items() for entry in ((ZONE, zones[slot], zones[slot][:]),
                                                                                (WHERE, slot, left))]
            self.trail.append(self._kept(dest, bottom or dest.slot in taken))
        if sum(map(len, taken.values())) < len(batch):  # a card named twice moves twice, one after the other
            for card in batch:
                zone = zones[where[card]]
                zone.remove(card)
                dirty.add(zone.key)
                if bottom:
                    dest.insert(0, card)
                else:
                    dest.append(card)
                where[card] = dest.slot
            dirty.add(dest.key)
            return
        for slot, left in taken.items():  # each zone left is filtered once (removing cards one by one scans each time)
            zone = zones[slot]
            zone[:] = [card for card in zone if card not in left]
            dirty.add(zone.key)
        self._land(batch, dest, bottom)

    def _land(self, batch: list[Any], dest: Zone, bottom: bool) -> None:
        """The cards of `batch`, gone from their zones, land on `dest` together: on top, or at the bottom (each
        card in turn goes to the bottom, so the last one ends lowest)."""
        where, slot = self.where, dest.slot
        for card in batch:
            where[card] = slot
        onto: list[Any] = dest  # (typed as a list, a zone's methods are list operations for mypyc)
        if bottom:
            onto[:0] = batch[::-1]
        else:
            onto.extend(batch)
        self.dirty.add(dest.key)

    def shuffle(self, zone: Zone) -> None:
        if not isinstance(zone, ZONE_CLASS):
            raise GameError(f"'shuffle' needs a zone, got {zone!r}")
        if self.trail is not None:
            self.trail.append((ZONE, zone, zone[:]))
        if self.shuffler is None:
            shuffle_in_place(self.rng, zone)
        else:
            order = list(self.shuffler(zone))
            if sorted(c.id for c in order) != sorted(c.id for c in zone):
                raise GameError(f"the shuffler's order of {zone!r} is not a permutation of its cards")
            zone[:] = order
        self.dirty.add(zone.key)
        for tracker in self.trackers:
            tracker.shuffled(zone)

    def show(self, cards: Any) -> None:
        """`show CARDS`: every player sees these cards where they are. They stay there, face down again to whoever
        cannot see their zone: the search agents' knowledge (a tracker's `shown`) remembers where they are, and
        whoever hears the game is told, by zone ("P2 shows 7 of cups")."""
        batch = [cards] if isinstance(cards, CARD_CLASS) else list(cards) if isinstance(cards, Iterable) else [cards]
        where = self.where
        for card in batch:
            if not isinstance(card, CARD_CLASS) or card not in where:
                raise GameError(f"'show' takes cards of this game (a card, a list of them or a zone), got {card!r}")
        if not batch:
            return
        for tracker in self.trackers:
            tracker.shown(batch)
        if self.events is not None:
            by_zone: dict[int, list[str]] = {}
            for card in batch:
                by_zone.setdefault(where[card], []).append(str(card.name))
            for slot, names in by_zone.items():
                zone = self.zones[slot]
                shows = f"{zone.owner.name} shows" if zone.owner is not None else f"shown from {zone.name}:"
                self.events.append(f"{shows} {', '.join(names)}")

    def deal(self, count: int | None, source: Zone, dests: Iterable[Zone]) -> None:
        """Deal `count` cards to each zone in `dests`, one at a time, round robin; None (`deal all`): every card of
        `source`, the first zones one more each where the cards do not go round evenly."""
        if isinstance(dests, ZONE_CLASS):  # (a zone is a list of its cards: empty, it would deal to nothing)
            raise GameError(f"'deal N from ZONE to ZONES' deals to a list of zones: write [{dests.name}]")
        dests = list(dests)
        if not all(isinstance(d, ZONE_CLASS) for d in dests) or not isinstance(source, ZONE_CLASS):
            raise GameError("'deal N from ZONE to ZONES' needs a zone and a list of zones")
        many = len(dests)
        if not many:
            return
        total = len(source) if count is None else count * many
        if total > len(source):
            raise GameError(f"cannot deal {count} cards to {many} zones: {source!r} has only {len(source)}")
        if self.trail is not None:
            self.trail += [(ZONE, source, source[:]), (WHERE, source.slot, source[:]),
                           *(self._kept(dest, False) for dest in dests)]
        if len({*map(id, dests), id(source)}) == many + 1:  # distinct zones, none the source: dealt all at once
            stock: list[Any] = source  # (typed as lists, a zone's methods are list operations for mypyc)
            dealt = stock[len(stock) - total:]
            del stock[len(stock) - total:]
            dealt.reverse()  # (in the order the cards leave the top)
            where = self.where
            for first, dest in enumerate(dests):
                cards = dealt[first::many]
                hand: list[Any] = dest
                hand.extend(cards)
                slot = dest.slot
                for card in cards:
                    where[card] = slot
        else:
            for i in range(total):
                dest = dests[i % many]
                card = source.pop()
                dest.append(card)
                self.where[card] = dest.slot
        self.dirty.add(source.key)
        self.dirty.update(d.key for d in dests)
        for tracker in self.trackers:
            for first, dest in enumerate(dests):
                got = total // many + (first < total % many)
                tracker.moved(dest[len(dest) - got:], dest)

    # ------------------------------------------------------------------ facts
    def assert_fact(self, fact: FactBase) -> None:
        """Add a fact to the collection of its kind, with the next time tag (not if one there holds the same
        values, as in CLIPS: the one there keeps its tag)."""
        kind = fact.kind
        for field, value in zip(fact.fields(), fact):
            if not _plain(value):
                raise GameError(f"a fact holds plain values (numbers, texts, true/false, None), cards and tuples "
                                f"of them: {kind}.{declared(field)} is {value!r}")
        facts, weight, indexes = self._book(kind)
        fact_weight = weigh(fact)
        # (before its values are hashed, and as it is kept; the collection is copied with it)
        self.spend(fact_weight + len(facts) // COPY_CHUNK)
        if tuple(fact) in self._index(kind, fact.fields())[0]:
            return
        weight += fact_weight
        if weight > MAX_ITEMS:
            raise GameError(f"the facts '{kind}' hold more than {MAX_ITEMS:,} items: too many")
        self.clock += 1
        fact.time_tag = self.clock
        self._keep(kind, facts + (fact,), weight, indexes, fact, 1)

    def retract_fact(self, fact: Any) -> None:
        """Take a fact away from its collection (a moment of its own: see clock)."""
        if not isinstance(fact, FACT_CLASS):
            raise GameError(f"'retract' takes a fact, got {fact!r}")
        kind = fact.kind
        facts, weight, indexes = self._book(kind)
        tag = getattr(fact, "time_tag", None)
        i = bisect_left(facts, tag, key=TIME_TAG) if tag is not None else len(facts)  # (facts are in tag order)
        if i == len(facts) or facts[i] is not fact:
            raise GameError(f"cannot retract {fact!r}: it is not asserted (retracted already?)")
        self.spend(len(facts) // COPY_CHUNK)  # (the collection is copied without it)
        self.clock += 1
        self._keep(kind, facts[:i] + facts[i + 1:], weight - weigh(fact), indexes, fact, -1)

    def modify_fact(self, fact: Any, changes: dict[str, Any]) -> None:
        """Retract a fact and assert it with some fields changed: a new fact, the newest, as in CLIPS 6.4 (which
        keeps its fact index but gives it a new time tag). Nothing happens when no field changes; when the new
        values are another fact's, the fact goes and the other stays (CLIPS: no duplicate facts)."""
        if not isinstance(fact, FACT_CLASS):
            raise GameError(f"'modify' takes a fact, got {fact!r}")
        changed = fact.changed(changes)
        self.spend(weigh(changed))  # (before it is compared)
        if tuple.__eq__(changed, fact):
            if not any(other is fact for other in self.vars[fact.kind]):
                raise GameError(f"cannot modify {fact!r}: it is not asserted (retracted already?)")
            return
        self.retract_fact(fact)
        self.assert_fact(changed)

    def has_fact(self, kind: str, fields: tuple[str, ...], values: tuple[Any, ...]) -> bool:
        """Whether a fact of `kind` holds `values` in `fields` (exists(KIND, field=value, ...)), looked up in
        an index of the facts kept up as they come and go. While the agenda evaluates a condition, the lookup is
        noted in `probes` with when its answer last changed (the clock when the first such fact came or the last
        one went)."""
        try:
            counter, since = self._index(kind, fields)
            found = values in counter
            if self.probes is not None:
                self.probes.append((kind, fields, values, since.get(values, 0)))
        except TypeError:  # a value that no fact can hold (facts hold plain, hashable values)
            return False
        return found

    def _book(self, kind: str) -> tuple[tuple[Any, ...], int, dict[Any, Any]]:
        """(the facts of `kind`, how much they weigh, fields -> its index: (Counter of the facts' values in those
        fields, values -> when a fact with them last came or went)), made again from the facts when they are
        not those it was kept for (a copy, a move taken back)."""
        facts = self.vars[kind]
        book = self.indexes.get(kind)
        if book is None or book[0] is not facts:
            book = self.indexes[kind] = (facts, 1 + sum(map(weigh, facts)), {})
        return book

    def _index(self, kind: str, fields: tuple[str, ...]) -> tuple[Counter[Any], dict[Any, Any]]:
        counter, since, _ = self._indexed(kind, fields)
        return counter, since

    def _indexed(self, kind: str, fields: tuple[str, ...]) -> tuple[Counter[Any], dict[Any, Any], Counter[int]]:
        """(the index of the facts of `kind` by `fields`: see _book, and how many of its keys hash alike, by hash:
        at most MAX_ALIKE, so that a look-up compares with at most that many: see _keep)."""
        indexes = self._book(kind)[2]
        found = indexes.get(fields)
        if found is None:
            read = attrgetter(*fields) if len(fields) > 1 else (lambda fact, one=attrgetter(fields[0]): (one(fact),)) \
                if fields else (lambda fact: ())
            facts = self.vars[kind]
            since: dict[Any, Any] = {}
            for fact in reversed(facts):  # (the oldest fact with the values: since when they are there)
                since[read(fact)] = fact.time_tag
            counter = Counter(map(read, facts))
            found = indexes[fields] = (counter, since, Counter(map(hash, counter)))
        return found

    def _keep(self, kind: str, facts: tuple[Any, ...], weight: int, indexes: dict[Any, Any], fact: Any,
              change: int) -> None:
        """Write the new collection (weighed already: it is not walked again), its indexes kept up. A fact whose
        values would be the (MAX_ALIKE + 1)th key of an index to hash alike is refused (see Budget.hashed: a file
        can make values that hash alike, and each look-up of one would compare with them all)."""
        clock = self.clock
        keys = [(tuple(getattr(fact, f) for f in fields), found) for fields, found in indexes.items()]
        if change > 0:
            for values, (counter, _, alike) in keys:
                if values not in counter and alike[hash(values)] >= MAX_ALIKE:
                    raise GameError(f"the facts '{kind}' would hold more than {MAX_ALIKE} different values that "
                                    "Python hashes alike (numbers or tuples made so): finding one would mean "
                                    "comparing it with them all")
        for values, (counter, since, alike) in keys:
            count = counter[values] + change
            if count > 0:
                counter[values] = count
                if count == 1 and change > 0:
                    since[values] = clock
                    alike[hash(values)] += 1
            else:
                del counter[values]
                since[values] = clock
                alike[hash(values)] -= 1
        self.indexes[kind] = (facts, weight, indexes)
        old = self.vars[kind]
        if self.trail is not None:
            self.trail.append((VAR, kind, old))
        self.vars[kind] = facts
        self.dirty.add(kind)

    def ask(self, player: PlayerBase, moves: tuple[str, ...]) -> None:
        if not isinstance(player, PLAYER_CLASS):
            raise GameError(f"'ask' needs a player, got {player!r}")
        if self.pending is not None:
            raise GameError(f"asked {player} to {', '.join(moves)} while {self.pending[0]} "
                            f"still has to {', '.join(self.pending[1])}")
        self.pending = (player, moves)

    def withdraw(self) -> None:
        """No decision under way: none pending, no players asked with it, no compound move begun (a scenario
        puts the game in another position)."""
        self.pending = self.group = self.partial = None

    def ask_group(self, mode: str, players: Any, moves: tuple[str, ...]) -> None:
        """`ask each of PLAYERS` (mode 'each') or `ask any of PLAYERS` ('any'): the decision goes to each player
        in turn, the first now. 'each': an answer is held, not made, until all have answered (Game.apply), so
        no answer can depend on another; 'any': a player answers for all, or leaves it to the next (the last
        must answer)."""
        if isinstance(players, PLAYER_CLASS):
            raise GameError(f"'ask {mode} of' needs a list of players, got the player {players}: 'ask PLAYER to' "
                            f"asks one player, 'ask {mode} of [{players}, ...]' several")
        asked = list(players) if isinstance(players, (list, tuple, set, frozenset)) else []
        if not asked or not all(isinstance(p, PLAYER_CLASS) for p in asked):
            raise GameError(f"'ask {mode} of' needs a list of players, got {players!r}")
        if len({p.index for p in asked}) < len(asked):
            raise GameError(f"'ask {mode} of' names a player twice: {', '.join(map(str, asked))}")
        self.ask(asked[0], moves)
        if len(asked) > 1:
            self.group = (mode, tuple(asked[1:]), ())

    def end_game(self, winners: Any = None) -> None:
        if winners is None:
            winners = ()
        elif isinstance(winners, PLAYER_CLASS):
            winners = (winners,)
        self.over = True
        self.winners = tuple(sorted(p.index for p in winners))
        self.pending = self.group = self.partial = None

    @staticmethod
    def unpack(value: Any, count: int) -> tuple[Any, ...]:
        """`let a, b = value`: the value's items, checked to be exactly `count`."""
        items = tuple(value)
        if len(items) != count:
            raise GameError(f"cannot unpack {len(items)} values into {count} names")
        return items

    def announce(self, parts: tuple[Any, ...]) -> None:
        if self.events is not None:  # someone hears the game (naipes.runtime.game)
            self.events.append(" ".join(str(p) for p in parts))

    def localize(self, value: Any) -> Any:
        """`value` with the players and zones it holds replaced by this memory's own."""
        if isinstance(value, PLAYER_CLASS):
            return self.players[value.index]
        if isinstance(value, (CARD_CLASS, FACT_CLASS)):
            SHARED.add(type(value))  # (no game's own: see memory_local)
            return value
        if isinstance(value, ZONE_CLASS):
            return self.zones[value.slot]
        return _Remapper(self.players, self.zones).map(value)

    # ------------------------------------------------------- trying moves out
    def save_point(self) -> tuple[Any, ...]:
        """Start recording what every write replaces (see restore); the point to come back to."""
        previous = self.trail
        if previous is None:
            self.trail = []
        rng = (self._rng, self._rng_snapshot(), self._rng_own)  # an own generator is let go (see _rng_snapshot)
        return (previous, len(self.trail), self.pending, self.group, self.partial, self.over,  # type: ignore[arg-type]
                self.winners, rng)

    @staticmethod
    def _kept(dest: Zone, whole: bool) -> tuple[Any, ...]:
        """A trail entry to put back a zone that cards are about to land on (on top: its length will do)."""
        return (ZONE, dest, dest[:]) if whole else (GREW, dest, len(dest))

    def restore(self, point: tuple[Any, ...]) -> None:
        """Put back every write since `point` was saved, newest first (a search tries a move and takes it back)."""
        previous, mark, self.pending, self.group, self.partial, self.over, self.winners, (rng, origin, own) = point
        trail = self.trail
        assert trail is not None  # recording since the point was saved
        vars_, where = self.vars, self.where
        stop: int = mark  # (typed: compiled, the loop's test compares machine integers)
        while len(trail) > stop:
            entry = trail.pop()
            kind = entry[0]
            if kind is VAR:
                vars_[entry[1]] = entry[2]
            elif kind is ATTR:
                setattr(entry[1], entry[2], entry[3])
            elif kind is ZONE:
                entry[1][:] = entry[2]
            elif kind is GREW:
                del entry[1][entry[2]:]
            elif kind is TAKEN:
                pile: list[Any] = entry[1]  # (typed as a list: its insert is mypyc's)
                pile.insert(entry[2], entry[3])
                where[entry[3]] = entry[4]
            else:
                slot = entry[1]
                for card in entry[2]:
                    where[card] = slot
        self.trail = previous
        if self.dirty:
            self.dirty = set()
        if own:  # the generator is made again from the snapshot when next drawn
            self._rng, self._rng_origin = None, origin
        else:
            assert rng is not None and origin is not None
            rng.setstate(origin)
            self._rng = rng

    # ------------------------------------------------------------ copy & key
    def clone(self, into: Memory | None = None) -> Memory:
        """An independent copy (values are immutable, so containers suffice). `into`: a copy of this memory's
        game that nothing uses any more (a search's last world), which becomes the copy, its zones and players
        filled in again rather than made anew."""
        new = self._copy(None, into=into)
        new._rng_origin = self._rng_snapshot()
        return new

    def seen_by(self, seat: int | None, reads: AbstractSet[str] | None = None, into: Memory | None = None) -> Memory:
        """A copy holding only what the player at `seat` can see (None: an onlooker).

        Cards in zones hidden from the seat become placeholders (the same count,
        every attribute None; a ``top`` zone keeps its top card), hidden
        variables become None, and the copy has no random generator of its own:
        nothing in it leads back to what the seat may not know. `reads`: the
        only variables and zones (a player's by its name) the copy needs to
        hold, for code that reads no others (a strategy's rules: see
        Strategy.decision_reads); the others are left out. `into`: a view of
        this program for the same seat and reads that nothing uses any more,
        which becomes the copy, its players and zones filled in again (the
        values that hold them made again only where they changed).
        """
        new = self._copy(seat, covered=True, reads=reads, into=into)
        if new.group is not None:  # the answers of the others are not known yet
            mode, later, held = new.group
            new.group = (mode, later, tuple(h if h[0].index == seat else (h[0], None, None) for h in held))
        if new.partial is not None and (new.pending is None or new.pending[0].index != seat):
            new.partial = (new.partial[0], (None,) * len(new.partial[1]))  # (another's choices: not seen yet)
        plan = self._copy_plan(reads)
        W = new.vars
        for name in plan.hidden_state:
            W[name] = None
            new.mapped.pop(name, None)  # (nothing in a view leads back to what the seat may not know)
        for name, owner_sees in plan.hidden_player_state:
            for p in new.players:
                if not owner_sees or p.index != seat:
                    setattr(p, name, None)
        return new

    def made_of(self, seat: int | None, reads: AbstractSet[str]) -> tuple[Any, ...] | None:
        """What `seen_by(seat, reads)` is made of, to tell whether a view made before is still the same one: the
        values of the variables and of the players' variables it keeps, the decision pending and the end;
        None when it keeps zones (their cards change in place)."""
        plan = self._copy_plan(reads)
        if plan.zones or plan.player_zones or plan.kept_keys is None or plan.of_vars != len(self.vars):
            return None  # (kept_keys: known once a copy was made)
        V = self.vars
        return (seat, self.pending, self.group, self.partial, self.over, self.winners,
                *map(V.__getitem__, plan.kept_keys),
                *[getattr(p, slot) for p in self.players for slot in plan.player_state])

    def restart(self) -> None:
        """A view used again (see StrategyAgent._observed): what its last use wrote down starts afresh."""
        self.dirty.clear()
        self.events, self.indexes, self.alike = [], {}, None
        self.steps = self.allowance = self.per_operation

    def _copy_plan(self, reads: AbstractSet[str] | None) -> _CopyPlan:
        """The program's plan for copies holding what `reads` names (None: all), made when first asked for: one
        per number of players (a plan lists zones by slot, and the players' zones take more slots at a larger
        table)."""
        key = (reads, len(self.players))  # (what the plans hold: None, or a set of names)
        plan = self.program.caches.get(key)
        if plan is None:
            plan = self.program.caches[key] = _CopyPlan(self, reads)
        return plan

    def _copy(self, seat: int | None, covered: bool = False, reads: AbstractSet[str] | None = None,
              into: Memory | None = None) -> Memory:
        """A copy without a generator (a clone sets its origin); `covered`: the cards hidden from `seat` are
        placeholders, and only the cards it sees are in `where`; `reads`: see seen_by; `into`: see clone and
        seen_by (every field of a memory is set here, in _share or in _begin, so a memory filled in again is a new
        copy)."""
        seen_as = (seat, reads) if covered else None
        reused = into is not None and into.program is self.program and len(into.players) == len(self.players) \
            and len(into.zones) == len(self.zones) and into.seen_as == seen_as and (covered or reads is None)
        new = into if into is not None and reused else Memory()
        new._share(self.program, self.keys, self.made, self.grown)
        new._begin()
        new.over, new.winners, new.clock = self.over, self.winners, self.clock
        new._rng, new._rng_origin, new._rng_own = None, None, True
        new.seen_as = seen_as
        if not reused:
            new.mapped = {}
        new.where = where = {} if covered else self.where.copy()
        players = new.players if reused else [self._new_player(p) for p in self.players]
        program = self.program
        plan = self._copy_plan(reads)
        zones: list[Any] = new.zones if reused else [None] * len(self.zones)  # (None: a zone left out, see seen_by)
        unknown, used = (hidden_cards(program, len(self.where)), 0) if covered else (None, 0)  # (sliced below)
        shapes, originals = plan.shapes, self.zones
        for slot in range(len(originals)) if plan.zones is None else plan.zones:
            zone = originals[slot]  # (a zone's slot is its place in the list)
            cards: list[Any] = zone
            if covered:
                shown: list[Any] = zone
                if not sees(zone, seat):  # the same count of placeholders (a `top` zone shows its top card)
                    hidden = len(zone) - (1 if shapes[slot][2].visibility == "top" and zone else 0)
                    shown = zone[hidden:]
                    cards = unknown[used:used + hidden] + shown  # type: ignore[index]  # (made when covered)
                    used += hidden
                for card in shown:
                    where[card] = slot
            if reused:  # (the zone of this slot, its name, key, spec and owner as a zone of this slot has them)
                pile: list[Any] = zones[slot]
                pile[:] = cards
                continue
            name, key, spec, owner = shapes[slot]
            copy = ZONE_CLASS(cards)
            copy.name, copy.key, copy.slot, copy.spec = name, key, slot, spec
            copy.owner = None if owner < 0 else players[owner]
            zones[slot] = copy
        new.zones, new.players = zones, players
        remap = _Remapper(players, zones)
        atoms, player_class, plain = ATOMS, program.player_class, plan.plain
        if plan.player_state or plan.player_zones:
            self._copy_players(plan, remap)
        V = self.vars
        if plan.left_out:  # (a few names: made from them, not copied whole and cut down)
            kept = plan.kept_keys
            if kept is None or plan.of_vars != len(V):  # (a program's memories hold the same names)
                gone = set(plan.left_out)
                kept = plan.kept_keys = [name for name in V if name not in gone]
                plan.of_vars = len(V)
            new.vars = W = {name: V[name] for name in kept}
        else:
            new.vars = W = V.copy()
        W["players"] = players
        memo = new.mapped if covered else None  # (a view's: see seen_by)
        for name in plan.state:
            value = V[name]
            kind = type(value)
            if kind not in atoms and plain.get(name) is not value:
                if kind is player_class:
                    W[name] = players[value.index]
                    continue
                known = memo.get(name) if memo is not None else None
                if known is not None and known[0] is value:  # (made for this view's players and zones)
                    W[name] = known[1]
                    continue
                W[name] = mapped = remap.map(value)
                if mapped is value:
                    plain[name] = value
                elif memo is not None:
                    memo[name] = (value, mapped)
        for name in plan.global_zones:
            W[name] = zones[V[name].slot]
        pending = self.pending
        new.pending = (players[pending[0].index], pending[1]) if pending is not None else None
        new.partial = None if self.partial is None else (self.partial[0], new.localize(self.partial[1]))
        new.group = None
        if self.group is not None:
            mode, later, held = self.group
            new.group = (mode, tuple(players[p.index] for p in later),
                         tuple((players[p.index], move, new.localize(arg)) for p, move, arg in held))
        return new

    @staticmethod
    def _new_player(p: PlayerBase) -> PlayerBase:
        """A player of a copy: `p`'s seat and name (its variables and zones are set after)."""
        q = type(p).__new__(type(p))
        q.index, q.name = p.index, p.name
        return q

    def _copy_players(self, plan: _CopyPlan, remap: _Remapper) -> None:
        """The players' variables and zones, onto the copy's players (`remap`: its players and zones)."""
        atoms, player_class, plain = ATOMS, self.program.player_class, plan.plain
        players, zones = remap.players, remap.zones
        for p, q in zip(self.players, players):
            for name in plan.player_state:
                value = getattr(p, name)
                kind = type(value)
                if kind in atoms or plain.get((name, p.index)) is value:
                    setattr(q, name, value)
                elif kind is player_class:
                    setattr(q, name, players[value.index])
                else:
                    setattr(q, name, mapped := remap.map(value))
                    if mapped is value:
                        plain[name, p.index] = value
            for name in plan.player_zones:
                setattr(q, name, zones[getattr(p, name).slot])

    def shows(self, card: CardBase, seat: int | None) -> bool:
        """Whether the player at `seat` sees `card` where it is (in a zone it sees, or on top of a ``top`` one)."""
        zone = self.zones[self.where[card]]
        return sees(zone, seat) or (zone.spec.visibility == "top" and zone[-1] is card)

    def baseline(self) -> Baseline:
        """The values of the variables now, of each player's, and the cards of each ordered zone, for `key` (see
        there)."""
        return dict(self.vars), [{slot: getattr(p, slot) for slot in p.state_slots} for p in self.players], \
            {zone.slot: tuple(zone) for zone in self.zones if zone.spec.ordered}

    def key(self, symmetric: bool = True, turn: int = 0, same: Baseline | None = None) -> tuple[Any, ...]:
        """A hashable, canonical summary of the state (for memoising search).

        It leaves out the variables and zones the play never reads (see
        Program.key_state). With interchangeable card attributes declared
        (``cards: symmetric:``) and `symmetric`, zones are keyed by their cards
        relabelled canonically, so positions that differ only by a renaming of
        those labels share a key. With seats counted from seat `turn` (for a
        rule file whose seats are alike, ``players: symmetric:``), positions
        turned round the table share a key. `same` (a `baseline` of this memory): a variable that still
        holds the very value it held then (values are never changed in place) is keyed by a mark, not by
        its value: a search keys the positions under one root cheaply (long lists that its moves never
        touch, a match's scores), keys that only it compares; so is an ordered zone that holds the cards it held
        then, in their order (a stock the play never draws from), where seats are not turned.
        """
        program = self.program
        V = self.vars
        count = len(self.players)
        turn %= count
        norm: Callable[[Any], Any] = _normalise if not turn else partial(_turned, turn=turn, count=count)
        atoms, player_class = ATOMS, program.player_class
        seats = _SEATS[count][turn]
        parts = [V.get("phase"), V.get("stage")]  # one flat tuple: each variable's place says what it is
        was, players_were, zones_were = same if same is not None else ({}, [{} for _ in self.players], {})
        if turn:
            zones_were = {}  # (a zone's cards are compared with its own seat's, not with those of the seat turned to)
        for name in (program.state_names if program.key_state is None else program.key_state):
            value = V[name]
            kind = type(value)
            parts.append(value if kind is int or kind is str or kind in atoms else SAME if was.get(name) is value else
                         seats[value.index] if kind is player_class else
                         _normalise(value) if not turn else norm(value))  # (a direct call when seats are not turned)
        slots = program.key_player_state
        if slots is None or slots:
            for p in self.players[turn:] + self.players[:turn] if turn else self.players:
                it_was = players_were[p.index]
                for slot in (p.state_slots if slots is None else slots):
                    value = getattr(p, slot)
                    kind = type(value)
                    parts.append(value if kind is int or kind in atoms else SAME if it_was.get(slot) is value else
                                 seats[value.index] if kind is player_class else
                                 _normalise(value) if not turn else norm(value))
        zones = self.zones
        if symmetric and program.symmetric:
            parts.append(symmetric_zones_key([zones[slot] for slot in _key_slots(self, turn)], program.symmetric,
                                             program.card_attributes))
        else:  # where each card is (its zone's place in the key), then the order of the ordered zones
            plan = self.key_plan
            if plan is None or plan[0] != turn:
                plan = self.key_plan = (turn, _zone_table(self, turn), _ordered_key_slots(self, turn))
            table = plan[1]
            if table:  # each card's slot as a byte, turned into its place at once
                parts.append(bytes(list(self.where.values())).translate(table))
            else:
                labels = _zone_labels(self, turn)
                parts.append(tuple([labels[slot] for slot in self.where.values()]))
            for slot in plan[2]:
                pile: list[Any] = zones[slot]  # (typed as a list: its cards copied as a tuple by mypyc's C call)
                cards = tuple(pile)
                parts.append(SAME if zones_were.get(slot) == cards else tuple([c.id for c in cards]))
        pending = self.pending
        parts += (seats[pending[0].index], pending[1]) if pending is not None else (None, None)
        group = self.group
        if group is not None:
            parts.append((group[0], tuple(seats[p.index] for p in group[1]),
                          tuple((seats[p.index], move, norm(arg)) for p, move, arg in group[2])))
        if self.partial is not None:
            parts.append((self.partial[0], norm(self.partial[1])))
        parts += (self.over, self.winners if not turn else tuple(sorted((w - turn) % count for w in self.winners)))
        return tuple(parts)


def _zone_labels(memory: Memory, turn: int) -> list[int]:
    """Zone slot -> what a card there is keyed by: the place of its zone in the key (255: a zone the play never
    reads; a key with fewer zones holds them as bytes), each player's zone counted as that of the player `turn`
    seats before (made once per program, number of players and turn)."""
    program = memory.program
    count = len(memory.players)
    found = program.caches.get(("zone labels", count, turn))
    if found is None:
        place = {slot: i for i, slot in enumerate(_key_slots(memory, turn))}
        found = [place.get(z.slot, 255) for z in memory.zones]
        program.caches["zone labels", count, turn] = found
    return found


def _zone_table(memory: Memory, turn: int) -> bytes:
    """_zone_labels as a table for bytes.translate, slot -> place (empty where the zones are too many for a byte
    each)."""
    program = memory.program
    found: bytes | None = program.caches.get(("zone table", len(memory.players), turn))
    if found is None:
        labels = _zone_labels(memory, turn)
        found = bytes(labels + [255] * (256 - len(labels))) if len(labels) < 255 else b""
        program.caches["zone table", len(memory.players), turn] = found
    return found


class _Seats(dict[int, list[tuple[Any, ...]]]):
    """_SEATS[count][turn][seat]: how a player is keyed with seats counted from `turn` (made once, then shared)."""

    def __missing__(self, count: int) -> list[tuple[Any, ...]]:
        self[count] = [tuple(("player", (seat - turn) % count) for seat in range(count)) for turn in range(count)]
        return self[count]


_SEATS = _Seats()


def _ordered_key_slots(memory: Memory, turn: int) -> list[int]:
    """The slots of _key_slots whose zones are ordered (their order is keyed too)."""
    found = memory.program.caches.get(("ordered key zones", len(memory.players), turn))
    if found is None:
        found = [slot for slot in _key_slots(memory, turn) if memory.zones[slot].spec.ordered]
        memory.program.caches["ordered key zones", len(memory.players), turn] = found
    return found


def _key_slots(memory: Memory, turn: int) -> list[int]:
    """The slots of the zones a key holds (those the play reads), each player's zone replaced by that of the
    player `turn` seats on (computed once per program, number of players and turn)."""
    program = memory.program
    found = program.caches.get(("key zones", len(memory.players), turn))
    if found is None:
        count = len(memory.players)
        of_seat = {(z.name, z.owner.index): z.slot for z in memory.zones if z.owner is not None}
        found = [z.slot if z.owner is None else of_seat[z.name, (z.owner.index + turn) % count]
                 for z in memory.zones if program.key_zones is None or z.name in program.key_zones]
        program.caches["key zones", count, turn] = found
    return found


ATOMS: Final = {int, float, str, bool, type(None)}
SAME: Final = object()  # a key's mark for a value unchanged since the baseline it was asked against (Memory.key)
SHARED: Final = set(ATOMS)  # classes of values that belong to no game in particular: atoms, and the cards and facts met
# The kinds of entry of a memory's trail (see restore): a variable's or a player's old value, a zone's old cards,
# a zone's old length (cards went on top), a card taken from a zone (its place there, the zone's slot), where some
# cards were.
VAR: Final = "var"
ATTR: Final = "attr"
ZONE: Final = "zone"
GREW: Final = "grew"
TAKEN: Final = "taken"
WHERE: Final = "where"
KEPT_DECKS = 16  # sets of player names whose deck a program keeps (see build_deck)
REFRESH = "refresh "  # a dirty key REFRESH + rule name re-evaluates that rule (no declared name has a space)
ENTERED = "entered "  # a dirty key ENTERED + phase: that phase's enter steps ran (its held rules are evaluated)


def _place_of(card: CardBase, pile: list[Any]) -> int:
    """Where `card` is in `pile`, found by identity (a card is equal only to itself: the same place `index` finds,
    without a comparison of each card before it)."""
    for at in range(len(pile)):
        if pile[at] is card:
            return at
    return pile.index(card)  # (not there: says so as `index` does)


def hidden_cards(program: Program, count: int) -> list[CardBase]:
    """At least `count` face-down placeholder cards of the program's card class (ids -1, -2, ...; every
    attribute None): the program's own list, to slice, never to change."""
    cached: list[CardBase] = program.caches.setdefault("hidden cards", [])
    card_class = program.cards.card_class if program.cards is not None else CARD_CLASS
    while len(cached) < count:
        card = card_class.__new__(card_class)
        card.id, card.name = -1 - len(cached), "?"
        for attr in card_class.attributes:
            setattr(card, attribute(attr), None)
        cached.append(card)
    return cached


def _label_order(label: Any) -> tuple[Any, ...]:
    return (type(label).__name__, label) if isinstance(label, (int, float, str)) else ("~", repr(label))


def symmetric_zones_key(zones: list[Zone], symmetric: tuple[str, ...], attributes: tuple[str, ...]) -> tuple[Any, ...]:
    """Zones as multisets of cards after a canonical relabelling of `symmetric` attributes.

    Each label is ranked by how many of its cards lie in each zone, then by
    the label itself. The relabelling is a function of the position alone, so
    equal keys mean positions equal up to renaming labels: sound for
    memoisation whatever the tie-breaks (positions whose labels all look alike,
    such as full boards, collapse completely).
    """
    # labels by attribute, zone
    columns = [[list(map(attrgetter(attribute(a)), zone)) for zone in zones] for a in symmetric]
    ranks = []
    for per_zone in columns:
        tallies = [Counter(labels) for labels in per_zone]
        signature: dict[Any, tuple[int, ...]]
        if len(tallies) == 1:
            signature = {label: (count,) for label, count in tallies[0].items()}
        else:
            signature = {label: tuple([t[label] for t in tallies]) for label in set().union(*tallies)}
        try:  # labels of one kind (texts, numbers) order themselves
            ordered = [label for _, label in sorted([(sig, label) for label, sig in signature.items()])]
        except TypeError:
            ordered = sorted(signature, key=lambda label: (signature[label], _label_order(label)))
        ranks.append(dict(zip(ordered, range(len(ordered)))))
    others = [attrgetter(attribute(a)) for a in attributes if a not in symmetric]
    key = []
    for z, zone in enumerate(zones):
        cards = list(zip(*[map(rank.__getitem__, per_zone[z]) for rank, per_zone in zip(ranks, columns)],
                         *[map(get, zone) for get in others]))
        key.append(tuple(cards) if zone.spec.ordered else tuple(sorted(cards)))
    return tuple(key)


def _plain(value: Any) -> bool:
    """A value a fact may hold: belonging to no game in particular (a clone shares the fact)."""
    if type(value) in ATOMS or isinstance(value, CARD_CLASS):
        return True
    return isinstance(value, tuple) and not isinstance(value, FACT_CLASS) and all(map(_plain, value))


class _CopyPlan:
    """What a copy of a program's memory holds (all, or what `reads` names: see Memory.seen_by)."""

    def __init__(self, memory: Memory, reads: AbstractSet[str] | None):
        program, player = memory.program, memory.players[0] if memory.players else None
        kept = (lambda name: True) if reads is None else reads.__contains__
        self.zones = None if reads is None else [zone.slot for zone in memory.zones if kept(zone.name)]  # None: all
        # each zone's name, key, spec and owner's seat (-1: none), by slot: the same in every memory of the program
        # at this number of players (made from its specs), so a copy reads them here, not from each zone
        self.shapes = [(zone.name, zone.key, zone.spec, -1 if zone.owner is None else zone.owner.index)
                       for zone in memory.zones]
        self.player_state = [slot for slot in getattr(player, "state_slots", ()) if kept(declared(slot))]
        self.player_zones = [slot for slot in getattr(player, "zone_slots", ()) if kept(declared(slot))]
        self.state = [name for name in program.state_names if kept(name)]
        self.global_zones = [name for name in program.global_zone_names if kept(name)]
        self.left_out = [name for name in program.state_names + program.global_zone_names if not kept(name)]
        self.kept_keys: list[str] | None = None  # the names of the copy's vars, when some are left out (met first)
        self.of_vars = 0  # how many names the memory held when kept_keys was made
        # what a view of a seat makes None: hidden variables; players' hidden ones, (name, the owner sees it)
        self.hidden_state = [var.name for var in program.state if var.visibility != "public" and kept(var.name)]
        self.hidden_player_state = [(attribute(var.name), var.visibility == "owner") for var in program.player_state
                                    if var.visibility in ("hidden", "owner") and kept(var.name)]
        # a variable (or a player's) -> its value when last found to hold no player or zone (values are immutable)
        self.plain: dict[Any, Any] = {}


class _Remapper:
    """Maps values of one memory onto the players and zones of its clone (a value that holds neither is
    kept as it is: values are never changed in place)."""

    __slots__ = ("players", "zones")

    def __init__(self, players: list[Any], zones: list[Any]):
        self.players, self.zones = players, zones

    def map(self, value: Any) -> Any:
        """`value`, or its copy holding the clone's players and zones in place of the original's."""
        kind = type(value)
        if kind in SHARED:
            return value
        if isinstance(value, PLAYER_CLASS):
            return self.players[value.index]
        if isinstance(value, (CARD_CLASS, FACT_CLASS)):  # (facts hold plain values)
            SHARED.add(kind)
            return value
        if kind is ZONE_CLASS:
            return self.zones[value.slot]
        if isinstance(value, (tuple, list, set, frozenset)):
            shared = SHARED
            for item in value:
                if type(item) not in shared:
                    break
            else:
                return value
            items: list[Any] = list(value)  # (typed as a list: compiled code goes over it by index)
            mapped = [self.map(item) for item in items]
            for i in range(len(items)):
                if mapped[i] is not items[i]:
                    break
            else:
                return value  # (nested values that hold no player or zone either)
            if kind is list:
                return mapped
            if kind is not tuple and hasattr(value, "_fields"):  # a record (a named tuple) takes its fields in turn
                return kind(*mapped)
            return kind(mapped)
        if isinstance(value, dict):
            return {self.map(k): self.map(v) for k, v in value.items()}
        return value


def _normalise(value: Any) -> Any:
    """A value as its key holds it: players, cards and zones by what they are, containers canonically."""
    kind = type(value)
    if kind in ATOMS:
        return value
    if kind is tuple or kind is list:  # (lists, not generators: mypyc runs a comprehension as a plain loop)
        return tuple([_normalise(v) for v in value])
    if isinstance(value, PLAYER_CLASS):
        return ("player", value.index)
    if isinstance(value, CARD_CLASS):
        return ("card", value.id)
    if isinstance(value, ZONE_CLASS):
        return ("zone", value.slot)
    if isinstance(value, (list, tuple)):  # (another subclass: a zone is one, caught above)
        return tuple([_normalise(v) for v in value])
    if isinstance(value, (set, frozenset)):
        return frozenset([_normalise(v) for v in value])
    if isinstance(value, dict):
        return tuple(sorted([(repr(k), _normalise(v)) for k, v in value.items()]))
    return value


def _turned(value: Any, turn: int, count: int) -> Any:
    """_normalise, with seats counted from seat `turn` (a player or a zone of one, by its seat counted so)."""
    if isinstance(value, PLAYER_CLASS):
        return ("player", (value.index - turn) % count)
    if isinstance(value, ZONE_CLASS):
        return ("zone", value.name, None if value.owner is None else (value.owner.index - turn) % count)
    if isinstance(value, (list, tuple)):
        return tuple(_turned(v, turn, count) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_turned(v, turn, count) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(_turned(k, turn, count)), _turned(v, turn, count)) for k, v in value.items()))
    return _normalise(value)


def new_memory(program: Program, seed: int | None, player_names: list[str] | None = None,
               count: int | None = None) -> Memory:
    """A fresh working memory: players, zones, deck and state, before setup."""
    rng = random.Random(seed)
    memory = Memory(program, rng)
    count = count or program.players[2]
    if not program.players[0] <= count <= program.players[1]:
        raise ParamError(f"{program.name} is for {program.players[0]} to {program.players[1]} players, not {count}")
    names = player_names or [f"P{i + 1}" for i in range(count)]
    V = memory.vars
    V["players"] = players = []
    for i in range(count):
        p = program.player_class.__new__(program.player_class)
        p.index, p.name = i, names[i]
        players.append(p)
    memory.players = players
    V["phase"] = program.phases[0] if program.phases else None
    V[TEAMS] = team_numbers(program.teams, count)
    if program.first_stages:
        V["stage"] = program.first_stages.get(V["phase"])
    for spec in program.zones:
        if spec.per_player:
            for p in players:
                setattr(p, attribute(spec.name), memory.new_zone(spec.name, p, spec))
        else:
            V[spec.name] = memory.new_zone(spec.name, None, spec)
    V[DECK] = ()  # (a game without cards has none: all_cards() is empty)
    with program.located():
        if program.cards is not None:
            build_deck(program.cards, memory)
        for var in program.state:
            V[var.name] = var.init(memory, V)
        for var in program.player_state:
            for p in players:
                setattr(p, attribute(var.name), var.init(memory, V, p))
    memory.dirty.clear()
    return memory


def build_deck(spec: CardSpec, memory: Memory) -> None:
    """Make the cards and place them in their starting zone.

    A deck whose functions draw nothing at random is made once per program and set of player names (all they
    can see then: the players, the phase, empty zones), and later games take the same cards, paying the steps
    the first one took. Cards never change (CardBase), so games may share them as a game's copies do; what is
    remembered of a card by its identity (the meld library's memos) then serves every game of the program."""
    program = memory.program
    decks: Any = program.caches.get(DECK)  # (a dict of decks, False, or None)
    if decks is None:  # (the first game: a table of decks, or False for a deck drawn at random)
        drawn = _draws(program, [spec.build, spec.name, *(f for _, f in spec.tables.values())])
        decks = program.caches[DECK] = False if drawn else {}
    names = tuple(p.name for p in memory.players)
    kept = decks.get(names) if decks is not False else None
    if kept is None:
        steps = memory.steps
        cards = _deck_cards(spec, memory)
        if decks is not False and len(decks) < KEPT_DECKS:
            decks[names] = tuple(cards), steps - memory.steps
    else:
        made, spent = kept
        memory.spend(spent)
        cards = list(made)
    memory.place(cards, memory.vars[spec.start])
    memory.vars[DECK] = tuple(cards)


def _deck_cards(spec: CardSpec, memory: Memory) -> list[CardBase]:
    """The cards the deck's functions make (checked: plain values, of the values declared)."""
    cards = []
    for i, attrs in enumerate(spec.build(memory, memory.vars)):
        if not isinstance(attrs, dict):
            raise GameError(f"the deck must be a list of attribute maps; item {i} is {attrs!r}", spec.location)
        card = spec.card_class.__new__(spec.card_class)
        card.id = i
        for attr in spec.attributes:
            value = _card_value(i, attr, attrs.get(attr), spec)
            if attr in spec.declared and value is not None and value not in spec.declared[attr]:
                raise GameError(f"card {i}: attribute '{attr}' is {value!r}, not one of its declared values "
                                f"{', '.join(map(str, spec.declared[attr]))}", spec.location)
            setattr(card, attribute(attr), value)
        for attr, (of, table) in spec.tables.items():
            value = table(memory, memory.vars, getattr(card, attribute(of)))
            setattr(card, attribute(attr), _card_value(i, attr, value, spec))
        card.name = spec.name(memory, memory.vars, card) if spec.name else \
            " ".join(str(v) for v in (attrs.get(a) for a in spec.attributes) if v is not None)
        if not isinstance(card.name, (str, int, float)):  # (a card is named in logs, views and at the table)
            raise GameError(f"card {i}: its name is {kind_of(card.name)}, where a text is wanted", spec.location)
        cards.append(card)
    return cards


MAX_CARD_TEXT = 1_000  # characters of a card's attribute: compared in generated code without a charge (codegen)


def _card_value(i: int, attr: str, value: Any, spec: CardSpec) -> Any:
    """`value`, card `i`'s attribute (or table) `attr`, checked: a plain value, a text not too long."""
    if value is not None and not isinstance(value, (bool, int, float, str)):
        raise GameError(f"card {i}: attribute '{attr}' is {kind_of(value)}; a card's attributes are plain values "
                        "(text, numbers, true/false)", spec.location)
    if hashes_at_will(value):  # (a number past HASHED_EXACTLY: cards are hashed without a charge)
        raise GameError(f"card {i}: attribute '{attr}' is {value:,}; a card's numbers are less than 2**60 in size",
                        spec.location)
    if isinstance(value, str) and len(value) > MAX_CARD_TEXT:
        raise GameError(f"card {i}: attribute '{attr}' is a text of {len(value):,} characters; a card's texts "
                        f"have at most {MAX_CARD_TEXT:,}", spec.location)
    return value


def _draws(program: Program, functions: list[Any]) -> bool:
    """Whether generated `functions`, or a function of the rule file they call, draw at random (what the compiler
    found: naipes.language.facts; a program made without its facts may draw anything)."""
    facts = program.facts
    return facts is None or any(f.__name__ in facts.draws for f in functions if f is not None)
