"""A fixed action space per rule file: every option its moves can ever offer, numbered.

Learning agents and game-theory libraries want actions as small integers
with a mask of the legal ones. :class:`ActionSpace` numbers every (move,
argument) pair a rule file can offer, move by move in declaration order,
each move's arguments in the order of its space (:attr:`MoveSpec.space`):

* a move without ``choose:`` is one action;
* a move with ``space:`` ranges over that expression (params, players and
  ``all_cards()`` only), e.g. ``space: "range(len(all_cards()) // len(players) + 1)"``;
* a ``choose:`` over a zone (``c in player.hand``) ranges over the deck's cards;
* a ``choose:`` collection that reads nothing a game changes is its own space.

Cards are identified by id, players by seat, so the numbering depends only
on the rule file, its params and the number of players: the same ids in
every game. An option outside its move's space is an error naming the move.

>>> from naipes import Game, load_program
>>> program = load_program("fichas")
>>> space = ActionSpace(program)
>>> space.size, space.describe(0), space.describe(4)
(8, 'take_colour R', 'take_value 1')
>>> game = Game(program, seed=3); game.start()
>>> [space.describe(a) for a in space.legal_ids(game)][:3]
['take_colour R', 'take_colour B', 'take_colour G']
>>> game.apply(space.option(game, space.legal_ids(game)[0]))
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import GameError, Location, RuleError
from ..program import LEAVE, Program
from ..runtime.game import Game, Option, arg_key, jsonable
from ..runtime.memory import new_memory


class ActionSpace:
    """The numbered options of a rule file (for a given number of players)."""

    def __init__(self, program: Program, players: int | None = None):
        self.program = program
        self.players = players or program.players[2]
        self.entries: list[tuple[str, Any]] = []  # (move, argument key) by action id
        self.names: list[str] = []  # a readable name per action id
        memory = new_memory(program, 0, None, self.players)
        other = new_memory(program, 1, None, self.players)
        for name, move in program.moves.items():
            for key, text in self._arguments(name, move, memory, other):
                self.entries.append((name, key))
                self.names.append(f"{name} {text}" if key != arg_key(None) else name)
            for part in move.parts:  # (a compound move's later choices: numbered apart, part by part)
                for key, text in self._values(part.key, part.space, memory, other, part.location):
                    self.entries.append((part.key, key))
                    self.names.append(f"{part.key} {text}")
        if "any" in program.asks_together:  # (the option to let the next player asked answer: Memory.ask_group)
            self.entries.append((LEAVE, arg_key(None)))
            self.names.append(LEAVE)
        self.ids = {entry: i for i, entry in enumerate(self.entries)}

    def _arguments(self, name: str, move: Any, memory: Any, other: Any) -> list[tuple[Any, str]]:
        if move.options is None:
            return [(arg_key(None), name)]
        return self._values(name, move.space, memory, other, move.location)

    def _values(self, name: str, space: Any, memory: Any, other: Any,
                where: Location | None) -> list[tuple[Any, str]]:
        """(key, text) of each value of a move's (or a part's: MOVE.PART) `space`; a mistake is located `where`
        the move (or the part) is declared."""
        where = where or Location(str(self.program.path), 1, 1)
        if space is None:
            raise RuleError(f"the choices of move '{name}' depend on the game's state", where,
                            "declare every argument it can offer with 'space:' (an expression of params, players "
                            "and all_cards())")
        with self.program.located():
            values = space(memory, memory.vars)
            keys = [arg_key(v) for v in values]
            if keys != [arg_key(v) for v in space(other, other.vars)]:
                raise RuleError(f"the space of move '{name}' changes with the game's seed", where,
                                "it must depend only on params and the number of players")
        seen: dict = {}
        for key, value in zip(keys, values):
            seen.setdefault(key, _text(value))
        return list(zip(seen, told_apart(list(seen.values()))))

    @property
    def size(self) -> int:
        """The number of actions."""
        return len(self.entries)

    def describe(self, action: int) -> str:
        """A readable name of an action id (the move and its argument)."""
        return self.names[action]

    def id_of(self, option: Option) -> int:
        """The action id of an option (a GameError if the option is outside its move's space)."""
        found = self.ids.get(option.key)
        if found is None:
            raise GameError(f"move '{option.move}' offered {option.label!r}, which is not in its space: "
                            f"declare a 'space:' on the move that includes it")
        return found

    def legal_ids(self, game: Game) -> list[int]:
        """The action ids of the options legal now, ascending (none when the game is over)."""
        return sorted(self.id_of(o) for o in game.options()) if not game.over else []

    def mask(self, game: Game) -> list[int]:
        """1 for each legal action id, 0 for the others."""
        out = [0] * self.size
        for action in self.legal_ids(game):
            out[action] = 1
        return out

    def option(self, game: Game, action: int) -> Option:
        """The legal option an action id names now (a GameError naming the action if it is not legal)."""
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < self.size:
            raise GameError(f"action {action!r} is not an action id of {self.program.name} (0..{self.size - 1})")
        for option in game.options():
            if option.key == self.entries[action]:
                return option
        move, _ = self.entries[action]
        why = game.explain_illegal(move, self._argument(game, action)) if not game.over else "the game is over"
        raise GameError(f"action {action} ({self.describe(action)}) is not legal now" + (f": {why}" if why else ""))

    def _argument(self, game: Game, action: int) -> Any:
        """The game's own value for an action's argument (its card, player or plain value)."""
        _, (kind, ident) = self.entries[action]
        memory = game.memory
        if kind == "card":
            return next((c for z in memory.zones for c in z if c.id == ident), None)
        if kind == "player":
            return memory.players[ident]
        move = self.program.moves.get(self.entries[action][0])
        if move is None or move.space is None:  # a move without an argument (or LEAVE)
            return None
        return next((v for v in move.space(memory, memory.vars) if arg_key(v) == (kind, ident)), None)


def _text(value: Any) -> str:
    """How an argument reads in an action's name: as shown (a zone by its name, ``P2.hand``: jsonable)."""
    return str(jsonable(value))


def told_apart(names: list[str]) -> list[str]:
    """The names with each one that repeats numbered in order (two jokers: ``joker #1``, ``joker #2``), so that
    no two are alike (copies of a card are told apart by their ids, in that order).

    >>> told_apart(["1o", "joker", "2o", "joker"])
    ['1o', 'joker #1', '2o', 'joker #2']
    """
    counts, numbered = Counter(names), Counter[str]()
    out = []
    for name in names:
        if counts[name] > 1:
            numbered[name] += 1
            name = f"{name} #{numbered[name]}"
        out.append(name)
    return out
