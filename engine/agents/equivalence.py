"""Cards a rule file cannot tell apart, so that a search plays only one of them.

The play reads a card only through its attributes (``c.suit``, a table such
as ``c.strength``) and its identity (``c is trump_card``, ``c in p.hand``).
Two cards that agree on every attribute the play reads, lie in the same
unordered zone and are named by no variable are interchangeable there: the
position where one is played and the position where the other is are the
same position with two cards renamed, and play the same. A search
(:class:`naipes.agents.solver.OpenSolver`) then tries one of them: Wizard's
four wizards and four jesters, the copies of a card in a game of two decks.

What the play reads is learnt from the compiler's tree of the rule file
(:func:`read_attributes`, from ``naipes.language.facts``): every attribute
its functions read, and every text (builtins such as the meld finders are
told attributes by name), leaving out what only shows things to people
(option labels, public texts, card names, views, announcements), action
spaces and the making of the deck. A card's ``name`` or ``id`` read in play,
cards ordered by themselves (``max(trick)``, ``a < b``: by their id), or the
whole deck in its order (``all_cards()``) makes every card distinct. (The
same answer whether the runtime is compiled or not: nothing is read from
bytecode.)
"""
from __future__ import annotations

from typing import Any

from ..language.facts import ALL_CARDS
from ..program import Program
from ..runtime.game import Game, Option
from ..runtime.memory import CARD_CLASS, FACT_CLASS, PLAYER_CLASS, ZONE_CLASS

IDENTITY = frozenset({"name", "id", ALL_CARDS})  # what tells every card apart: its name, id, place in the deck
DECK = "__deck"  # the variable all_cards() reads (every card, in the deck's order)


def read_attributes(program: Program) -> tuple[str, ...] | None:
    """The card attributes (tables included) the play of `program` may read, in declared order; None when it
    may read a card's name or id (every card is then distinct). Found once per program."""
    if "read attributes" not in program.caches:
        program.caches["read attributes"] = _read_attributes(program)
    found: tuple[str, ...] | None = program.caches["read attributes"]
    return found


def _read_attributes(program: Program) -> tuple[str, ...] | None:
    read = program.facts.play_reads
    if IDENTITY & read:
        return None
    ordered = list(program.card_attributes) + sorted(set(program.cards.tables) if program.cards else ())
    return tuple(dict.fromkeys(a for a in ordered if a in read))


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
