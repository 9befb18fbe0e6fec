"""What a piece of generated code may change, read from its nodes: the names of the variables, player
variables and zones it writes, or None when it may do what cannot be named so.

A search's world watched for its evaluation stops a phase's entry early once nothing left to run in that
phase can write what the evaluation reads (naipes.language.phases, Memory.in_phase): the steps left, and the
rules that may fire in the phase after them.
"""
from __future__ import annotations

from collections.abc import Iterable

from . import nodes as n
from .compiler import Unit

# The statements that change what cannot be named: end the game, ask a player, change facts.
UNNAMED = (n.Ask, n.EndGame, n.AssertFact, n.Retract, n.Modify)


def unit_writes(unit: Unit, zones: set[str]) -> frozenset[str] | None:
    """The variables, player variables and zones (by name) `unit`'s actions may change; None when they may do
    what cannot be named so (end the game, ask a player, change facts, move cards from wherever they are)."""
    names: set[str] = set()
    for statement in unit.statements:
        for node in statement.find_all(n.Stmt):
            changed: list[str | None]
            if isinstance(node, UNNAMED):
                return None
            if isinstance(node, n.Assign):
                changed = [] if node.writes == n.WRITES_LOCAL else [node.target.name]
            elif isinstance(node, n.Goto):
                changed = ["phase"] if node.stages is None else ["phase", "stage"]
            elif isinstance(node, n.Move):  # the destination, and the cards' zone (the source, or a zone moved whole)
                changed = [_zone(node.dest, zones), _zone(node.cards, zones) or _zone(node.source, zones)]
            elif isinstance(node, n.Shuffle):
                changed = [_zone(node.zone, zones)]
            elif isinstance(node, n.Deal):
                dests = node.dests
                parts = dests.items if isinstance(dests, (n.ListExpr, n.TupleExpr)) else \
                    [dests.element] if isinstance(dests, n.Comprehension) and not dests.lazy and \
                    dests.kind in ("list", "generator") else [dests]
                changed = [_zone(node.source, zones), *(_zone(part, zones) for part in parts)]
            else:
                continue
            if None in changed:
                return None
            names.update(name for name in changed if name is not None)
    return frozenset(names)


def _zone(node: n.Node | None, zones: set[str]) -> str | None:
    """The name of the zone `node` names (`stock`, `p.hand`), else None."""
    if isinstance(node, n.Name) and node.meaning == n.GLOBAL and node.id in zones:
        return node.id
    if isinstance(node, n.Attribute) and not node.per_player_memory and node.name in zones:
        return node.name
    return None


def union(sets: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """The union of `sets`, None if one is None (unknown)."""
    found: set[str] = set()
    for names in sets:
        if names is None:
            return None
        found |= names
    return frozenset(found)
