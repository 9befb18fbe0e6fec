"""A game whose shuffles are chance events decided from outside, one card at a time.

Game-theory libraries (OpenSpiel) model dealing as *chance nodes*: the
environment, not a hidden generator, picks each card. A rule file shuffles
inside its actions (``shuffle stock``), so :class:`ChanceGame` runs each step
of the game (the start, or a player's move with the rules that follow) with a
shuffler hook (:attr:`Memory.shuffler`) that takes the order of every
shuffle from a list of orders decided so far. When a step reaches a shuffle
whose order is not decided yet, the step is abandoned and the game waits at
a chance node: :meth:`ChanceGame.chance_cards` lists the cards that may come
next from the top of the shuffled pile, each equally likely, and
:meth:`ChanceGame.deal` places one. Once every card of the pile is placed
the step runs again from its start, now with that order. The rest of the
randomness of a rule file (``random()``, ``choice``) comes from the game's
seeded generator, so a game is a function of its seed and of the chance and
player actions.

It also keeps what the library needs around the game: each seat's
:class:`Knowledge` (for :meth:`resample`) and the public record of the game
(moves as each seat saw them, announcements, cards revealed).

>>> from naipes import load_program
>>> table = ChanceGame(load_program("rulesets/tute_cabrero.yaml"), seed=1)
>>> table.chance_pending, len(table.chance_cards())
(True, 40)
>>> while table.chance_pending:
...     table.deal(table.chance_cards()[0])
>>> table.game.to_move.name
'P1'
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..agents.knowledge import Knowledge
from ..errors import GameError
from ..program import Program
from ..runtime.game import Game, Option
from ..runtime.memory import CardBase, PlayerBase, Zone, sees


class _NeedsChance(BaseException):
    """Raised by the shuffler through the rule's action (never caught by the engine's error handling)."""

    def __init__(self, card_ids: list[int]):
        super().__init__()
        self.card_ids = card_ids


@dataclass(frozen=True)
class Record:
    """One entry of the public record: a move (with what each seat read and saw of it) or an announcement."""

    mover: int | None  # None: an announcement
    label: str  # the move as its player saw it, or the announcement
    public: str  # the move as the others saw it
    card: int | None = None  # the id of a card argument
    seen_by: frozenset = frozenset()  # seats that could see that card right after the move

    def text_for(self, seat: int) -> str:
        if self.mover is None:
            return self.label
        return f"P{self.mover + 1}: {self.label if seat == self.mover else self.public}"


class ChanceGame:
    """A game driven by chance actions (one card of a shuffle at a time) and player options."""

    def __init__(self, program: Program, seed: int = 0, players: int | None = None):
        self.program = program
        self.game = Game(program, seed, players=players)  # as of the last completed step
        seats = len(self.game.memory.players)
        self.knowledge = [Knowledge(self.game, seat) for seat in range(seats)]
        self.records: list[Record] = []
        self._step: tuple | None = ("start",)  # the step to run: ("start",) or ("apply", option key, record)
        self._orders: list[list[int]] = []  # decided orders of the step's shuffles (card ids, top first)
        self._pile: list[int] | None = None  # card ids of the pile being shuffled (a chance node), sorted
        self._drawn: list[int] = []
        self._run()

    @classmethod
    def around(cls, game: Game, knowledge: Knowledge, records: list[Record]) -> ChanceGame:
        """A copy of a game under way (at a decision), seen by `knowledge.seat` (the others know what they see now)."""
        table = cls.__new__(cls)
        table.program, table.game = game.program, game.clone()
        table.knowledge = [knowledge.follow(table.game) if seat == knowledge.seat else Knowledge(table.game, seat)
                           for seat in range(len(game.memory.players))]
        table.records, table._step, table._orders, table._pile, table._drawn = list(records), None, [], None, []
        return table

    # ---------------------------------------------------------------- chance
    @property
    def chance_pending(self) -> bool:
        """Whether the game waits for the next card of a shuffle."""
        return self._pile is not None

    def chance_cards(self) -> list[int]:
        """The ids of the cards that may come next (each equally likely), ascending."""
        drawn = set(self._drawn)
        return [c for c in self._pile if c not in drawn] if self._pile is not None else []

    def deal(self, card_id: int) -> None:
        """Put the card `card_id` next (from the top) in the pile being shuffled."""
        if self._pile is None or card_id not in self.chance_cards():
            raise GameError(f"card {card_id} is not one of the cards that may come next"
                            if self.chance_pending else "no shuffle is waiting for a card")
        self._drawn.append(card_id)
        if len(self._drawn) == len(self._pile) - 1:
            self._drawn += self.chance_cards()  # the last card has nowhere else to go
            self._orders.append(self._drawn)
            self._pile, self._drawn = None, []
            self._run()

    # ---------------------------------------------------------------- moves
    def apply(self, option: Option) -> None:
        """Play a legal option of the player to move (then the rules run, up to the next decision or chance)."""
        if self.chance_pending or self._step is not None:
            raise GameError("the game waits for a chance event, not a move")
        if option not in self.game.options():
            raise GameError(f"{option.label!r} is not a legal option now")
        player = self.game.mover
        record = Record(player.index, option.label, self.game.public_text(player, option),
                        option.arg.id if isinstance(option.arg, CardBase) else None)
        self._step = ("apply", option.key, record)
        self._run()

    def _run(self) -> None:
        """Run the waiting step on a copy; keep the copy if it needs no undecided shuffle."""
        step = self._step
        assert step is not None  # _run is called with a step waiting
        work = self.game.clone()
        knowledge = [k.follow(work) for k in self.knowledge]
        orders = iter(self._orders)
        announced: list[Record] = []
        seen: list[frozenset] = []

        def shuffler(zone: Zone) -> list:
            if len(zone) < 2:
                return list(zone)
            order = next(orders, None)
            if order is None:
                raise _NeedsChance(sorted(c.id for c in zone))
            by_id = {c.id: c for c in zone}
            return [by_id[i] for i in reversed(order)]  # the first card drawn ends on top (the end of the list)

        def revealed(game: Game, player: PlayerBase, option: Option) -> None:
            if isinstance(option.arg, CardBase):
                zone = game.memory.zones[game.memory.where[option.arg]]
                on_top = zone.spec.visibility == "top" and zone and zone[-1] is option.arg
                seen.append(frozenset(s for s in range(len(game.memory.players)) if on_top or sees(zone, s)))

        work.memory.shuffler = shuffler
        work.observers.append(lambda r: announced.append(Record(None, r["text"], r["text"]))
                              if r["type"] == "announce" else None)
        work.after_move.append(revealed)
        try:
            if step[0] == "start":
                work.start()
            else:
                option = next((o for o in work.options() if o.key == step[1]), None)
                if option is None:  # only after resampling, when a hidden card of the waiting move went elsewhere
                    raise GameError(f"the move {step[2].public!r} is not possible in this deal")
                work.apply(option)
        except _NeedsChance as need:
            self._pile, self._drawn = need.card_ids, []
            return
        work.memory.shuffler = None
        work.observers.clear()
        work.after_move.clear()
        if step[0] == "apply":
            record = step[2]
            self.records.append(Record(record.mover, record.label, record.public, record.card,
                                       seen[0] if seen else frozenset()))
        self.records.extend(announced)
        self.game, self.knowledge = work, knowledge
        self._step, self._orders = None, []

    # ---------------------------------------------------------------- copies
    def clone(self) -> ChanceGame:
        """An independent copy (the same pending step and chance events decided so far)."""
        return self._copy(self.game.clone(), lambda k, game: k.follow(game))

    def __deepcopy__(self, memo: dict) -> ChanceGame:
        return self.clone()

    def resample(self, seat: int, rng: random.Random) -> ChanceGame:
        """A copy in which every card `seat` cannot place is dealt again, consistently with what it knows.

        The other seats' knowledge of the new deal starts from what they see now; a shuffle in
        progress starts again (its order so far was hidden from everyone).
        """
        world = self.knowledge[seat].world(rng)
        copy = self._copy(world, lambda k, game: k.follow(game) if k.seat == seat else Knowledge(game, k.seat))
        copy._orders, copy._drawn, copy._pile = [], [], None
        if copy._step is not None:
            copy._run()
        return copy

    def _copy(self, game: Game, knowledge_for) -> ChanceGame:
        copy = ChanceGame.__new__(ChanceGame)
        copy.program, copy.game = self.program, game
        copy.knowledge = [knowledge_for(k, game) for k in self.knowledge]
        copy.records = list(self.records)
        copy._step, copy._orders = self._step, [list(o) for o in self._orders]
        copy._pile, copy._drawn = self._pile, list(self._drawn)
        return copy

    def history_for(self, seat: int) -> list[str]:
        """The public record as `seat` saw it (its own moves by their full label)."""
        lines = [r.text_for(seat) for r in self.records]
        if self._step is not None and self._step[0] == "apply":
            lines.append(self._step[2].text_for(seat))  # a move waiting for its shuffle to be dealt
        return lines
