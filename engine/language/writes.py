"""What a piece of generated code may change, read from its source: the names of the variables, player
variables and zones it writes, or None when it may do what cannot be named so.

A search's world watched for its evaluation stops a phase's entry early once nothing left to run in that
phase can write what the evaluation reads (naipes.language.phases, Memory.in_phase): the steps left, and the
rules that may fire in the phase after them.
"""
from __future__ import annotations

import ast
from collections.abc import Iterable

from ..program import declared
from .compiler import Unit

# the memory's methods that change nothing a game's state holds (a record for the log, the budget, a read)
CHANGE_NOTHING = frozenset({"announce", "entering_step", "charge", "spend", "in_phase", "refresh", "give", "given",
                            "has_fact", "unpack", "call"})  # (call: of a lambda or built-in, which write nothing)


def unit_writes(unit: Unit, zones: set[str]) -> frozenset[str] | None:
    """The variables, player variables and zones (by name) `unit`'s code may change; None when it may do what
    cannot be named so (end the game, ask a player, change facts, move cards from wherever they are)."""
    tree = ast.parse("\n".join("    " * indent + text for indent, text, _ in unit.source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "M"):
            continue
        method, args = node.func.attr, node.args
        if method in CHANGE_NOTHING:
            continue
        if method in ("set_var", "set_attr") and isinstance(named := args[0 if method == "set_var" else 1],
                                                           ast.Constant) and isinstance(named.value, str):
            changed: list[str | None] = [named.value]
        elif method == "move":  # the cards' zone (the source named, or a zone moved whole) and the destination
            cards, dest, source = args[:3]
            changed = [_zone(dest, zones), _zone(cards, zones) or _zone(source, zones)]
        elif method == "shuffle":
            changed = [_zone(args[0], zones)]
        elif method == "deal":
            dests = args[2]
            parts = dests.elts if isinstance(dests, (ast.List, ast.Tuple)) else \
                [dests.elt] if isinstance(dests, ast.ListComp) else [dests]
            changed = [_zone(args[1], zones), *(_zone(part, zones) for part in parts)]
        else:
            return None
        if None in changed:
            return None
        names.update(changed)  # type: ignore[arg-type]  # (no None)
    return frozenset(names)


def _zone(node: ast.expr, zones: set[str]) -> str | None:
    """The name of the zone `node` is in the generated code (V['stock'], p.hand), else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "V" and \
            isinstance(node.slice, ast.Constant) and node.slice.value in zones:
        return node.slice.value
    if isinstance(node, ast.Attribute) and declared(node.attr) in zones:
        return declared(node.attr)
    return None


def union(sets: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """The union of `sets`, None if one is None (unknown)."""
    found: set[str] = set()
    for names in sets:
        if names is None:
            return None
        found |= names
    return frozenset(found)
