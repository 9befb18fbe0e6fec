"""Cards a rule file cannot tell apart, so that a search plays only one of them.

The play reads a card only through its attributes (``c.suit``, a table such
as ``c.strength``) and its identity (``c is trump_card``, ``c in p.hand``).
Two cards that agree on every attribute the play reads, lie in the same
unordered zone and are named by no variable are interchangeable there: the
position where one is played and the position where the other is are the
same position with two cards renamed, and play the same. A search
(:class:`naipes.agents.solver.OpenSolver`) then tries one of them: Wizard's
four wizards and four jesters, the copies of a card in a game of two decks.

What the play reads is found in the program's generated code once
(:func:`read_attributes`): every attribute its functions load, and every
text that names an attribute (builtins such as the meld finders are told
attributes by name), leaving out the code that only shows things to people:
option labels, public texts, card names, views, announcements, action
spaces. A card's ``name`` or ``id`` read anywhere else, or the whole deck in
its order (``all_cards()``), makes every card distinct.
"""
from __future__ import annotations

import dis
from collections.abc import Iterator
from types import CodeType, FunctionType
from typing import Any

from ..program import Program, declared
from ..runtime.game import Game, Option
from ..runtime.memory import CARD_CLASS, FACT_CLASS, PLAYER_CLASS, ZONE_CLASS

# Generated functions that do not play: they show things to people (labels, public texts, card names, views) or
# list a move's action space for learning agents; what they read does not change the play
NOT_PLAY = ("move_label", "move_public", "deck_name", "view", "move_space")
IDENTITY = ("name", "id", "B_all_cards")  # what tells every card apart: its name, id, place in the whole deck
DECK = "__deck"  # the variable all_cards() reads (every card, in the deck's order)


def read_attributes(program: Program) -> tuple[str, ...] | None:
    """The card attributes (tables included) the play of `program` may read, in declared order; None when it
    may read a card's name or id (every card is then distinct). Found once per program."""
    if "read attributes" not in program.caches:
        program.caches["read attributes"] = _read_attributes(program)
    found: tuple[str, ...] | None = program.caches["read attributes"]
    return found


def _read_attributes(program: Program) -> tuple[str, ...] | None:
    known = set(program.card_attributes) | set(IDENTITY)
    if program.cards is not None:
        known |= set(program.cards.tables)
    read: set[str] = set()
    for name, value in program.namespace.items():
        if isinstance(value, FunctionType) and not name.startswith(NOT_PLAY):
            for code in _codes(value.__code__):
                read |= _names(code) & known
    if read & set(IDENTITY):
        return None
    ordered = list(program.card_attributes) + sorted(set(program.cards.tables) if program.cards else ())
    return tuple(dict.fromkeys(a for a in ordered if a in read))


def _codes(code: CodeType) -> Iterator[CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def _names(code: CodeType) -> set[str]:
    """Attributes loaded and texts named by `code`, outside its announcements (generated as
    ``if M.events is not None: M.announce(...)``: the test's jump skips them)."""
    found: set[str] = set()
    skip_to = -1
    previous = None
    for instruction in dis.get_instructions(code):
        if instruction.offset < skip_to:
            continue
        if previous is not None and previous.argval == "events" and "IF_NONE" in instruction.opname \
                and isinstance(instruction.argval, int):
            skip_to = instruction.argval  # the announcement's end
        elif instruction.opname in ("LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL") or (
                instruction.opname == "LOAD_CONST" and isinstance(instruction.argval, str)):
            found.add(declared(instruction.argval))  # (generated code reads `c.a_rank` for `rank`)
        previous = instruction
    return found


class Distinct:
    """What tells options apart in a position: `of(game, option)` is equal for options a search need try once."""

    def __init__(self, program: Program, cards: list):
        """`cards`: the cards of a game of `program` (a program's decks may differ by the number of players)."""
        self.program = program
        self.attributes = read_attributes(program)
        self._signatures: dict[int, tuple] = {}  # card id -> its values of the attributes read
        if self.attributes is not None and len({self._signature(card) for card in cards}) == len(cards):
            self.attributes = None  # every card differs from every other in what the play reads: none merge

    def of(self, game: Game, option: Option) -> Any:
        """The option's class: its key, or, for a card that others in its zone share every attribute read
        with, (move, zone, those values) while no variable names it."""
        arg = option.arg
        if self.attributes is None or not isinstance(arg, CARD_CLASS):
            return option.key
        memory = game.memory
        slot = memory.where.get(arg)
        if slot is None or memory.zones[slot].spec.ordered:
            return option.key
        signature = self._signature(arg)
        zone = memory.zones[slot]
        if not any(other is not arg and self._signature(other) == signature for other in zone):
            return option.key
        if arg.id in named_cards(game):
            return option.key
        return option.move, slot, signature

    def _signature(self, card: Any) -> tuple:
        found = self._signatures.get(card.id)
        if found is None:
            assert self.attributes is not None
            found = self._signatures[card.id] = tuple([getattr(card, a) for a in self.attributes])
        return found


def named_cards(game: Game) -> set[int]:
    """The ids of the cards the game's variables hold (a card a variable names is not interchangeable)."""
    memory = game.memory
    found: set[int] = set()
    for name, value in memory.vars.items():
        if name not in ("players", DECK) and not isinstance(value, ZONE_CLASS):  # (DECK: see IDENTITY)
            _collect(value, found)
    for player in memory.players:
        for slot in player.state_slots:
            _collect(getattr(player, slot), found)
    return found  # (facts are kept in variables, one per kind)


def _collect(value: Any, found: set[int]) -> None:
    if isinstance(value, CARD_CLASS):
        found.add(value.id)
    elif isinstance(value, (list, tuple, set, frozenset, FACT_CLASS)):
        for item in value:
            _collect(item, found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect(key, found)
            _collect(item, found)
    elif isinstance(value, (PLAYER_CLASS, ZONE_CLASS)):
        return
