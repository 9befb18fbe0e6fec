"""What `naipes check` warns of in a rule file that loads: texts it compares with but never makes, most likely a
misspelling (`song == 'tuet'` where the file only ever makes 'tute'); its own functions that hide a built-in.

A text that has declared values (`values:`, phases, card attributes) is checked when the file is loaded, as an
error. Any other text (a record's field, a song, an entry of a list) has nothing declared to check it against;
but a comparison with a text that no expression of the file makes, nor any name it declares, can never hold,
and when such a text is a near miss of one the file does make, `naipes check` warns of it.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..errors import did_you_mean
from . import nodes as n
from .compiler import Symbols
from .sections import Definition

COMPARING = ("==", "!=", "in", "not in")


def unmade_texts(defs: Iterable[Definition], sym: Symbols, declared: Iterable[str]) -> list[str]:
    """A warning per text compared with but made nowhere in the file, that is a near miss of one it makes
    (`declared`: the names the file declares, which are texts it may hold too: moves, zones, params)."""
    compared: dict[str, n.String] = {}
    in_comparisons: set[int] = set()
    made = {*declared, *(v for values in (*sym.enums.values(), *sym.attr_enums.values()) for v in values),
            *(str(v) for values in sym.card_values.values() for v in values)}
    trees = [tree for d in defs for tree in (d.unit.tree if isinstance(d.unit.tree, list) else [d.unit.tree])]
    for tree in trees:
        for compare in tree.find_all(n.Compare):
            for literal in _compared_texts(compare):
                in_comparisons.add(id(literal))
                compared.setdefault(literal.value, literal)
    for tree in trees:
        made.update(s.value for s in tree.find_all(n.String) if id(s) not in in_comparisons)
    warnings = []
    for text, node in compared.items():
        near = did_you_mean(text, sorted(made)) if text not in made else None
        if near:
            where = node.loc
            warnings.append(f"{where}: the text '{text}' is compared with, but nothing in the file makes it "
                            f"(the comparison never holds): {near}")
    return warnings


def hidden_builtins(sym: Symbols) -> list[str]:
    """A warning per function of the file named as a built-in: every call of that name in the file calls the
    file's own (`len(trick)` no longer counts the trick), which a file may mean, but rarely does."""
    return [f"{where}: the function '{name}' hides the built-in {name}(): every {name}(...) in this file calls it"
            for name, where in sym.hiding.items()]


def _compared_texts(compare: n.Compare) -> Iterator[n.String]:
    """The text literals a comparison compares with: `x == 'a'`, `'a' != x`, `x in ['a', 'b']`."""
    sides = [compare.first, *compare.operands]
    for i, (op, _) in enumerate(compare.ops):
        if op not in COMPARING:
            continue
        for side in (sides[i], sides[i + 1]):
            if isinstance(side, n.String):
                yield side
            elif op in ("in", "not in") and side is sides[i + 1] and isinstance(side, (n.ListExpr, n.TupleExpr,
                                                                                       n.SetExpr)):
                yield from (item for item in side.items if isinstance(item, n.String))
