"""A game whose shuffles are decided from outside, one card at a time, when a card is seen.

Game-theory libraries (OpenSpiel) model dealing as *chance nodes*: the environment picks each card. A rule
file shuffles inside its actions (``shuffle stock``) and deals afterwards, so :class:`ChanceGame` runs each
step of the game (the start, or a player's move with the rules that follow) with a shuffler hook
(:attr:`Memory.shuffler`) that leaves a shuffled pile *undetermined*: its cards lie in some order, but which
card is in which place is decided only when somebody can see it. After each step, every card of a shuffle
that a seat can now see (dealt into a hand, turned up, in a variable the seat sees) is a chance event: the
game waits at a chance node, :meth:`ChanceGame.chance_cards` lists the cards that may be in that place (the
cards of the shuffle not seen yet, each equally likely) and :meth:`ChanceGame.deal` puts one there; then the
step runs again, with the cards so placed. Cards nobody has seen (a stock) stay undetermined however many
moves later they are drawn: the game then runs again from the step that shuffled them (the moves since did not
depend on them: nobody had seen them).

Each card seen is drawn uniformly from the cards of its shuffle not seen yet, so the cards seen are
distributed as a shuffle deals them. That holds when the rules read a shuffled card only once somebody can
see it; a rule that tests a card of a face-down stock would read a card nobody decided. ``check=True`` runs
every step again with the unseen cards in other places and raises a GameError when anything a seat sees
(views, the public record, payoffs) changes: the tests run every shipped rule file so.

The rest of the randomness of a rule file (``random()``, ``choice``) comes from the game's seeded generator,
so a game is a function of its seed and of the chance and player actions (:attr:`ChanceGame.path`, which is
what a pickled ChanceGame holds).

It also keeps what the library needs around the game: each seat's :class:`Knowledge` (for :meth:`resample`)
and the public record of the game (moves as each seat saw them, announcements, cards revealed).

>>> from naipes import load_program
>>> table = ChanceGame(load_program("tute_cabrero"), seed=1)
>>> table.chance_pending, len(table.chance_cards())
(True, 40)
>>> dealt = 0
>>> while table.chance_pending:
...     dealt += 1; table.deal(table.chance_cards()[0])
>>> dealt, table.game.to_move.name   # every card is dealt (the last one has nowhere else to go)
(39, 'P1')
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..agents.knowledge import Knowledge
from ..errors import GameError, NaipesError
from ..language.builder import load_program
from ..library.builtins import DECK
from ..library.limits import leaves
from ..program import Program, get
from ..runtime.game import Game, Option
from ..runtime.memory import CardBase, PlayerBase, Zone, sees

Place = tuple[int, int]  # (the shuffle's number in the game, a place in the shuffled pile: 0 is the bottom)


class _NeedsChance(BaseException):
    """Raised by the shuffler through the rule's action (never caught by the engine's error handling)."""

    def __init__(self, places: list[Place], unseen: dict[int, Place]):
        super().__init__()
        self.places, self.unseen = places, unseen


HELD = "answers"  # how the others read an answer held from them (Record.held)


@dataclass(frozen=True)
class Record:
    """One entry of the public record: a move (with what each seat read and saw of it) or an announcement."""

    mover: int | None  # None: an announcement
    label: str  # the move as its player saw it, or the announcement
    public: str  # the move as the others saw it
    card: int | None = None  # the id of a card argument
    seen_by: frozenset = frozenset()  # seats that could see that card right after the move
    held: bool = False  # an answer held until the others asked with its player have answered (Memory.ask_group)

    def text_for(self, seat: int) -> str:
        if self.mover is None:
            return self.label
        return f"P{self.mover + 1}: {self.label if seat == self.mover else HELD if self.held else self.public}"


@dataclass(frozen=True)
class _Step:
    """A step of the game: the start (move None), or a player's move (its option's key) and the rules after it."""

    move: tuple | None
    record: Record | None = None


@dataclass
class _Position:
    """The game as of a step, which a run of the next steps starts from (never changed once made)."""

    game: Game
    knowledge: list[Knowledge]
    records: list[Record]
    unseen: dict[int, Place]  # card id -> its place in the shuffle that left it unseen
    shuffles: int  # the shuffles made so far
    views: dict = field(default_factory=dict)  # what users of the position keep about it (a seat's view, as text)

    def copy(self) -> _Position:
        """A copy to run on: its game, knowledge, record and unseen cards of its own."""
        game = self.game.clone()
        return _Position(game, [k.follow(game) for k in self.knowledge], list(self.records), dict(self.unseen),
                         self.shuffles)


@dataclass
class _Shuffles:
    """The orders of the shuffles whose cards may still be decided, and the places decided in each."""

    orders: dict[int, list[int]] = field(default_factory=dict)  # shuffle -> card ids in the pile, bottom first
    decided: dict[int, set[int]] = field(default_factory=dict)  # shuffle -> its places decided by chance

    def copy(self) -> _Shuffles:
        return _Shuffles({k: list(o) for k, o in self.orders.items()}, {k: set(d) for k, d in self.decided.items()})

    def forget_before(self, shuffle: int) -> None:
        for number in [k for k in self.orders if k < shuffle]:
            del self.orders[number], self.decided[number]


class ChanceGame:
    """A game driven by chance actions (the cards seen, one at a time) and player options."""

    def __init__(self, program: Program, seed: int = 0, players: int | None = None, check: bool = False):
        self.program, self.seed, self.check = program, seed, check
        game = Game(program, seed, players=players)
        self.now = _Position(game, [Knowledge(game, seat) for seat in range(len(game.memory.players))], [], {}, 0)
        self.path: list | None = []  # every chance outcome (a card id) and move (an option's key) so far
        self._shuffles = _Shuffles()
        self._base: _Position | None = None  # the position before the first step of the window
        self._window: list[_Step] = []  # the steps since the oldest that shuffled cards still unseen
        self._first_shuffle: list[int] = []  # per step of the window, the number of its first shuffle
        self._running = False  # whether the window's last step waits for chance (it is not in `now`)
        self._replay = False  # whether it runs again from the start of the window (a card of an older shuffle)
        self._pending: list[Place] = []  # the places to decide, in order
        self._unseen_then: dict[int, Place] = {}  # the cards unseen when the run stopped for chance
        self._owned = True  # whether the containers above are its own (not shared with a copy: see clone)
        self._submit(_Step(None))

    @property
    def game(self) -> Game:
        """The game as of the last step completed (during a chance node: before the step waiting for it)."""
        return self.now.game

    @property
    def knowledge(self) -> list[Knowledge]:
        return self.now.knowledge

    @property
    def records(self) -> list[Record]:
        return self.now.records

    @classmethod
    def around(cls, game: Game, knowledge: Knowledge, records: list[Record]) -> ChanceGame:
        """A copy of a game under way (at a decision), seen by `knowledge.seat` (the others know what they see now).
        Its cards are all decided (it is a world of the real game), and it cannot be pickled (it has no path)."""
        copy = game.clone()
        seats = range(len(game.memory.players))
        table = cls._empty(game.program, game.seed or 0)
        table.now = _Position(copy, [knowledge.follow(copy) if seat == knowledge.seat else Knowledge(copy, seat)
                                     for seat in seats], list(records), {}, 0)
        table.path = None
        return table

    @classmethod
    def _empty(cls, program: Program, seed: int) -> ChanceGame:
        table = cls.__new__(cls)
        table.program, table.seed, table.check, table.path = program, seed, False, []
        table._shuffles, table._base, table._window, table._first_shuffle = _Shuffles(), None, [], []
        table._running = table._replay = False
        table._pending, table._unseen_then, table._owned = [], {}, True
        return table

    # ---------------------------------------------------------------- chance
    @property
    def chance_pending(self) -> bool:
        """Whether the game waits for a card to be decided."""
        return bool(self._pending)

    def chance_cards(self) -> list[int]:
        """The ids of the cards that may be in the next place to decide (each equally likely), ascending."""
        if not self._pending:
            return []
        return sorted(self._shuffles.orders[self._pending[0][0]][place] for place in self._open(self._pending[0][0]))

    def _open(self, shuffle: int) -> list[int]:
        """The places of a shuffle still undecided among those unseen when the run stopped."""
        decided = self._shuffles.decided[shuffle]
        return [place for k, place in self._unseen_then.values() if k == shuffle and place not in decided]

    def deal(self, card_id: int) -> None:
        """Put the card `card_id` in the next place to decide."""
        if not self._pending:
            raise GameError("no card is waiting to be dealt")
        if card_id not in self.chance_cards():
            raise GameError(f"card {card_id} is not one of the cards that may come next")
        self._own()
        self._place(card_id)
        if self.path is not None:
            self.path.append(card_id)
        self._settle()

    def _place(self, card_id: int) -> None:
        shuffle, place = self._pending.pop(0)
        order = self._shuffles.orders[shuffle]
        there = next(p for p in self._open(shuffle) if order[p] == card_id)
        if shuffle < self.now.shuffles and not self._replay:  # a card shuffled by an earlier step
            self._replay = not self._relabel(order[place], card_id)
        order[place], order[there] = order[there], order[place]
        self._shuffles.decided[shuffle].add(place)

    def _relabel(self, was: int, card: int) -> bool:
        """Put `card` where `was` lies in the game as of now, and `was` where `card` lay, both unseen (the
        game as a run from the window's start with the new order would make it, without the run); False when
        the game holds either card elsewhere than in its zones (a variable, a rule bound to it)."""
        now = self.now
        unseen = dict(now.unseen)
        lay = unseen.pop(card)  # (the card's place is decided now)
        if was == card:
            self.now = _Position(now.game, now.knowledge, now.records, unseen, now.shuffles)
            return True
        if now.game.agenda.variable_rules or _holds(now.game, {was, card}):
            return False
        copy = now.copy()
        memory = copy.game.memory
        cards = {c.id: c for c in memory.vars[DECK]}
        slots = (memory.where[cards[was]], memory.where[cards[card]])
        for slot in set(slots):
            zone = memory.zones[slot]
            zone[:] = [cards[card] if c.id == was else cards[was] if c.id == card else c for c in zone]
            memory.dirty.add(zone.key)
        memory.where[cards[card]], memory.where[cards[was]] = slots
        with copy.game.program.located():
            copy.game.agenda.update(memory)
        unseen[was] = lay
        copy.unseen = unseen
        self.now = copy
        return True

    def _settle(self) -> None:
        """Decide the places with one card left for them; once none waits, run the step again."""
        while self._pending:
            left = self.chance_cards()
            if len(left) > 1:
                return
            self._place(left[0])  # the last card has nowhere else to go
        self._run()

    # ---------------------------------------------------------------- moves
    def apply(self, option: Option) -> None:
        """Play a legal option of the player to move (then the rules run, up to the next decision or chance)."""
        if self._running:
            raise GameError("the game waits for a chance event, not a move")
        game = self.game
        if option not in game.options():
            raise GameError(f"{option.label!r} is not a legal option now")
        player = game.mover
        record = Record(player.index, option.label, game.public_text(player, option),
                        option.arg.id if isinstance(option.arg, CardBase) else None)
        self._own()
        if self.path is not None:
            self.path.append(option.key)
        self._submit(_Step(option.key, record))

    def _submit(self, step: _Step) -> None:
        self._window.append(step)
        self._first_shuffle.append(self.now.shuffles)
        self._running, self._replay = True, False
        self._run()

    def _run(self) -> None:
        """Run the waiting step (again from the window's start when a card of an older shuffle was decided)."""
        start = self._base if self._replay else self.now
        assert start is not None  # a replay has a window, which has a base
        first = 0 if self._replay else len(self._window) - 1
        work = start.copy()
        before = [start]  # the position before each step run
        try:
            for i in range(first, len(self._window)):
                if i > first:
                    before.append(work.copy())
                self._first_shuffle[i] = work.shuffles
                self._step(work, self._window[i], self._shuffles)
        except _NeedsChance as need:
            self._wait(need.places, need.unseen)
            return
        seen = [work.unseen[card] for card in set(seen_cards(work.game)) if card in work.unseen]
        if seen:
            self._wait(sorted(seen, key=lambda place: (place[0], -place[1])), work.unseen)  # top cards first
            return
        if self.check:
            self._check(work)
        self._commit(work, first, before)

    def _wait(self, places: list[Place], unseen: dict[int, Place]) -> None:
        self._pending, self._unseen_then = places, dict(unseen)
        self._settle()

    def _commit(self, work: _Position, first: int, before: list[_Position]) -> None:
        """The step is done: keep the window from the oldest step whose shuffle has cards unseen."""
        self.now, self._running, self._replay, self._pending = work, False, False, []
        if not work.unseen:
            self._base, self._window, self._first_shuffle = None, [], []
            self._shuffles = _Shuffles()
            return
        oldest = min(k for k, _ in work.unseen.values())
        step = max(i for i, number in enumerate(self._first_shuffle) if number <= oldest)
        if step >= first:  # (otherwise the window starts further back, at a step this run did not see)
            self._base = before[step - first]
            del self._window[:step], self._first_shuffle[:step]
        self._shuffles.forget_before(self._first_shuffle[0])  # (a replay makes the window's shuffles again)

    def _step(self, work: _Position, step: _Step, shuffles: _Shuffles) -> None:
        """Run one step on `work` (its game, knowledge, record, unseen cards), shuffles as `shuffles` says."""
        game, unseen = work.game, work.unseen
        announced: list[Record] = []
        seen: list[frozenset] = []

        def shuffler(zone: Zone) -> list:
            if len(zone) < 2:
                return list(zone)
            number = work.shuffles
            ids = [card.id for card in zone]
            _gather(ids, unseen)
            work.shuffles += 1
            order = shuffles.orders.get(number)
            if order is None or sorted(order) != sorted(ids) and not shuffles.decided[number]:
                order = shuffles.orders[number] = ids
                shuffles.decided[number] = set()
            elif sorted(order) != sorted(ids):
                raise GameError(f"shuffle {number} of {zone!r} holds other cards than when its cards were dealt")
            decided = shuffles.decided[number]
            for place, card in enumerate(order):
                if place not in decided:
                    unseen[card] = (number, place)
            by_id = {card.id: card for card in zone}
            return [by_id[card] for card in order]

        def revealed(game: Game, player: PlayerBase, option: Option) -> None:
            if isinstance(option.arg, CardBase) and step.record is not None and player.index == step.record.mover:
                zone = game.memory.zones[game.memory.where[option.arg]]
                on_top = zone.spec.visibility == "top" and zone and zone[-1] is option.arg
                seen.append(frozenset(s for s in range(len(game.memory.players)) if on_top or sees(zone, s)))

        game.memory.shuffler = shuffler
        game.observers.append(lambda r: announced.append(Record(None, r["text"], r["text"]))
                              if r["type"] == "announce" else None)
        game.after_move.append(revealed)
        try:
            if step.move is None:
                game.start()
            else:
                option = next((o for o in game.options() if o.key == step.move), None)
                if option is None:  # only after resampling, when a hidden card of the waiting move went elsewhere
                    raise GameError(f"the move {step.record.public if step.record else step.move!r} is not "
                                    f"possible in this deal")
                game.apply(option)
        finally:
            game.memory.shuffler = None
            game.observers.clear()
            game.after_move.clear()
        if step.record is not None:
            record = step.record
            held = game.holding  # (an answer to 'each' is held until the last is in, which tells them all)
            if not held:
                work.records[:] = [replace(r, held=False) if r.held else r for r in work.records]
            work.records.append(Record(record.mover, record.label, record.public, record.card,
                                       seen[0] if seen else frozenset(), held))
        work.records.extend(announced)

    def _check(self, work: _Position) -> None:
        """Run the window again with every unseen card in another unseen place of its shuffle: what the seats see
        must not change (else the rules read a card before anybody saw it)."""
        other = self._shuffles.copy()
        for shuffle in {k for k, _ in work.unseen.values()}:
            places = sorted(place for k, place in work.unseen.values() if k == shuffle)
            order = other.orders[shuffle]
            cards = [order[place] for place in places]
            for place, card in zip(places, cards[1:] + cards[:1]):
                order[place] = card
        trial = (self._base if self._base is not None else self.now).copy()  # (no base: the window is this step)
        steps = self._window if self._base is not None else self._window[-1:]
        try:
            for step in steps:
                self._step(trial, step, other)
        except _NeedsChance:
            raise GameError("the rules read a card of a shuffle before anybody saw it (a split pile)") from None
        if _observed(trial.game, trial.records) != _observed(work.game, work.records):
            raise GameError(f"{self.program.name}: the rules read a shuffled card before anybody could see it: "
                            "what the seats see depends on where cards nobody has seen lie")

    # ---------------------------------------------------------------- copies
    def clone(self) -> ChanceGame:
        """An independent copy (the same step waiting and chance events decided so far). Copies share what they
        hold until one of them changes (see _own): a copy that is never played on costs next to nothing."""
        copy = ChanceGame.__new__(ChanceGame)
        copy.__dict__.update(self.__dict__)
        self._owned = copy._owned = False
        return copy

    def _own(self) -> None:
        """Before a change: containers of its own, if it shares them with a copy (a position is never changed:
        runs work on copies of it)."""
        if self._owned:
            return
        self.path = None if self.path is None else list(self.path)
        self._shuffles = self._shuffles.copy()
        self._window, self._first_shuffle = list(self._window), list(self._first_shuffle)
        self._pending, self._unseen_then = list(self._pending), dict(self._unseen_then)
        self._owned = True

    def __deepcopy__(self, memo: dict) -> ChanceGame:
        return self.clone()

    def __reduce__(self) -> tuple:
        """Pickled as what makes it: the rule file, its params, the seed, the players and the path."""
        if self.path is None:
            raise NaipesError("a copy of a game made around a game under way (ChanceGame.around) cannot be saved")
        program = self.program
        return _rebuild, (str(program.path), tuple(sorted(program.overrides.items())), self.seed,
                          len(self.game.memory.players), self.check, list(self.path))

    def resample(self, seat: int, seed: float) -> ChanceGame:
        """A copy in which every card `seat` cannot place is dealt again, consistently with what it knows
        (from a generator seeded with `seed`: the same seed, the same copy).

        The copy's cards are all decided (it is one world the seat cannot tell from this game); the other seats'
        knowledge of it starts from what they see now; a step waiting for chance starts again.
        """
        world = self.knowledge[seat].world(random.Random(seed))
        copy = ChanceGame._empty(self.program, self.seed)
        copy.now = _Position(world, [k.follow(world) if k.seat == seat else Knowledge(world, k.seat)
                                     for k in self.knowledge], list(self.records), {}, 0)
        copy.path = None if self.path is None else self.path + [("resample", seat, seed)]
        if self._running:
            copy._submit(self._window[-1])
        return copy

    def describe(self) -> str:
        """The whole state, hidden cards included: the game's key, the move waiting, the cards that may come."""
        waiting = f" waiting: {self._window[-1].move!r}" if self._running else ""
        return f"{self.game.memory.key()!r}{waiting} chance: {self.chance_cards()}"

    def history_for(self, seat: int) -> list[str]:
        """The public record as `seat` saw it (its own moves by their full label)."""
        lines = [r.text_for(seat) for r in self.records]
        if self._running and self._window[-1].record is not None:
            lines.append(self._window[-1].record.text_for(seat))  # a move waiting for its cards to be dealt
        return lines


def seen_cards(game: Game) -> Iterator[int]:
    """The ids of the cards some seat can see: in the zones it sees, on top of ``top`` zones, in the variables it
    sees (public ones, and a player's own)."""
    memory, program = game.memory, game.program
    for zone in memory.zones:
        visibility = zone.spec.visibility
        if visibility == "public" or visibility == "owner" and zone.owner is not None:
            yield from (card.id for card in zone)
        elif visibility == "top" and zone:
            yield zone[-1].id
    V = memory.vars
    for var in program.state:
        if var.visibility == "public":
            yield from _card_ids(V[var.name])
    for var in program.player_state:
        if var.visibility in ("public", "owner"):
            for player in memory.players:
                yield from _card_ids(get(player, var.name))


def _card_ids(value: Any) -> Iterator[int]:
    return (item.id for item in leaves(value) if isinstance(item, CardBase))


def _holds(game: Game, ids: set[int]) -> bool:
    """Whether a variable of the game (a player's, a fact) holds one of the cards `ids`."""
    memory = game.memory
    for name, value in memory.vars.items():
        if name != DECK and not isinstance(value, Zone) and not ids.isdisjoint(_card_ids(value)):
            return True
    return any(not ids.isdisjoint(_card_ids(get(player, var.name)))
               for var in game.program.player_state for player in memory.players)


def _gather(ids: Iterable[int], unseen: dict[int, Place]) -> None:
    """The cards of a pile about to be shuffled leave their shuffles; a shuffle with unseen cards in this pile
    and elsewhere must first decide which of its cards are in this pile (chance: _NeedsChance)."""
    inside = set(ids)
    here = {unseen[card] for card in inside if card in unseen}
    if not here:
        return
    shuffles = {k for k, _ in here}
    split = {k for card, (k, _) in unseen.items() if k in shuffles and card not in inside}
    if split:
        raise _NeedsChance(sorted((place for place in here if place[0] in split),
                                  key=lambda place: (place[0], -place[1])), unseen)
    for card in inside:
        unseen.pop(card, None)


def _observed(game: Game, records: list[Record]) -> tuple:
    """What the seats see of a game: each seat's view, the public record, the payoffs at the end."""
    seats = range(len(game.memory.players))
    return (repr([game.view(seat) for seat in seats]), [(r.label, r.public) for r in records],
            game.payoffs() if game.over else [option.label for option in game.options()])


@lru_cache(maxsize=32)
def cached_program(path: str, overrides: tuple) -> Program:
    """A rule file loaded with `overrides` ((param, text) pairs, sorted): once per process (a program is never
    changed once built; states loaded again, games made again from their params, share it)."""
    return load_program(path, dict(overrides))


def _rebuild(path: str, overrides: tuple, seed: int, players: int, check: bool, moves: list) -> ChanceGame:
    """A ChanceGame made again from its rule file and path (see ChanceGame.__reduce__)."""
    return replay(ChanceGame(cached_program(path, overrides), seed, players, check), moves)


def replay(table: ChanceGame, moves: list) -> ChanceGame:
    """Play a path (card ids, option keys, resamplings) on `table` and return the game it ends in."""
    for move in moves:
        if isinstance(move, int):
            table.deal(move)
        elif len(move) == 3 and move[0] == "resample":
            table = table.resample(move[1], move[2])
        else:
            option = next((o for o in table.game.options() if o.key == move), None)
            if option is None:
                raise GameError(f"the saved move {move!r} is not legal in the game replayed")
            table.apply(option)
    return table
