"""What a rule file's generated functions do that the engine asks about, learnt from the compiler's tree.

The runtime and the bridges need a few facts of the code a rule file compiles to: whether its deck's functions
draw at random (else the deck is made once per program: naipes.runtime.memory.build_deck), whether anything
shuffles (else nothing in its games is left to chance: naipes.bridges.openspiel), and what the play may read of a
card (else a search may take two cards alike in it for one: naipes.agents.equivalence). They are found here, once, from
the optimised definitions the module is written from, rather than from the bytecode of its functions, so that
they hold however the module runs (a function compiled to native code has no bytecode to read).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..library.limits import leaves
from . import nodes as n
from .codegen import draws_at_random


@dataclass(frozen=True)
class Facts:
    """The facts of one module's generated functions, each function by its name."""

    draws: frozenset[str] = frozenset()  # the functions that draw at random, themselves or through what they call
    shuffles: bool = False  # whether any function shuffles a zone
    # the names the play may read a card by: every attribute read and every text (built-ins are told attributes
    # by name) in the functions that play; CARD_ID where cards are ordered by themselves (their id); ALL_CARDS
    # where the whole deck is read in its order
    play_reads: frozenset[str] = frozenset()


# The kinds of generated function that do not play: they show things to people (labels, public texts, card
# names, views), list a move's action space for learning agents, or make the deck's cards (the attributes they
# give are what the play may read, not what it reads)
NOT_PLAY = frozenset({"move_label", "move_public", "deck_name", "view", "move_space",
                      "deck_copies", "deck_generate", "deck_product", "deck_values"})
CARD_ID = "id"  # a card's own id: what orders cards compared without a key (naipes.program.CardBase._order_by)
ALL_CARDS = "all_cards"  # every card, in the deck's order
ORDERING = frozenset({"<", "<=", ">", ">="})
ORDERED_BY_ITSELF = frozenset({"min", "max", "sorted"})  # built-ins that order their items (by a key, if given)


def module_facts(definitions: list[n.Definition]) -> Facts:
    """The facts of a module written from `definitions` (after the optimiser)."""
    calls = {definition.name: {node.definition if isinstance(node, n.Call) else node.name
                               for node in definition.find_all(n.Expr)
                               if isinstance(node, n.Generated) or
                               isinstance(node, n.Call) and node.target == n.CALL_FUNCTION}
             for definition in definitions}
    drawing = {definition.name for definition in definitions if draws_at_random(definition)}
    return Facts(draws=frozenset(name for name in calls if _reaches(name, calls, drawing)),
                 shuffles=any(next(d.find_all(n.Shuffle), None) is not None for d in definitions),
                 play_reads=frozenset(name for d in definitions if d.kind not in NOT_PLAY for name in _reads(d)))


def _reads(definition: n.Definition) -> Iterator[str]:
    """The names `definition` may read a card by (see Facts.play_reads), announcements left out (they only show)."""
    stack: list[n.Node] = [definition]
    while stack:
        node = stack.pop()
        if isinstance(node, n.Announce):
            continue
        if isinstance(node, (n.Attribute, n.AttrTarget)):
            yield node.name
        elif isinstance(node, n.String):
            yield node.value
        elif isinstance(node, n.Literal):
            yield from (value for value in leaves(node.value) if isinstance(value, str))
        elif isinstance(node, n.FString):
            yield from (part for part in node.parts if isinstance(part, str))
        elif isinstance(node, n.Name) and node.id == ALL_CARDS:
            yield ALL_CARDS
        elif _orders_cards(node):
            yield CARD_ID
        stack.extend(node.children())


def _orders_cards(node: n.Node) -> bool:
    """Whether `node` orders cards by themselves (min, max or sorted without a key, or <, <=, >, >=), as far as the
    static types tell: a list of unknown items is not taken for one of cards."""
    if isinstance(node, n.Call):
        return node.name in ORDERED_BY_ITSELF and not node.keywords and any(map(_of_cards, node.positional))
    if isinstance(node, n.Compare):
        return any(op in ORDERING for op, _ in node.ops) and any(map(_of_cards, [node.first, *node.operands]))
    return False


def _of_cards(node: n.Expr) -> bool:
    """Whether `node` is, by its static type, a card or the cards of a zone."""
    return node.type in ("card", "zone")


def _reaches(start: str, calls: dict[str, set[str]], targets: set[str]) -> bool:
    """Whether `start`, or a function it calls (directly or not), is among `targets`."""
    seen, stack = set(), [start]
    while stack:
        name = stack.pop()
        if name in targets:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(calls.get(name, ()))
    return False
