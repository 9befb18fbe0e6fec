"""Loops: a statement's filter, and an ``if`` on ``all`` or ``any``, decided by a loop in the function itself.

A pass over the compiler's own tree (:mod:`naipes.language.nodes`), the last one (after hoisting: what it
remembered inside a comprehension is in the loop made of it). CPython 3.11 runs a comprehension as a function of
its own and resumes a generator per item; a loop in the function costs neither:

* **filters**: ``x = [e for c in items if test]`` (a :class:`~naipes.language.nodes.Comprehension` or a
  :class:`~naipes.language.nodes.Filter` kept in a local) is ``x = []`` and a
  :class:`~naipes.language.nodes.Loop` that appends ``e`` to ``x`` where the test holds
  (:class:`~naipes.language.nodes.Append`), and the copy ``x = [c for c in items]`` is ``list(items)``;
* **tests**: an ``if`` on ``all(e for c in items if f)`` or ``any(...)``, alone or last after ``and`` (a
  condition in the agenda's generated evaluation, say), is decided by a loop that stops at the first item
  settling it (:class:`~naipes.language.nodes.Break`), in a flag (an engine local), not by a generator the
  built-in resumes per item.

The loop binds the comprehension's item in the function, so it is made only where the item is none of the
function's own names (those it takes, assigns or reads outside the lambdas and comprehensions that bind them), and
the local a filter fills is not read by the filter.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator

from . import nodes as n
from .codegen import local_name
from .hoisting import chain, charged, filtered_statement
from .inlining import free_locals
from .reductions import REDUCTION, SETTLES, assigned_locals, settled_by_loop

FLAG = "__settled_"  # the engine local (and a number) that holds what a loop decided of an `all` or an `any`


def make_loops(definitions: list[n.Definition]) -> None:
    """Filters and tests as loops in every definition but the reductions' (which are loops already)."""
    for definition in definitions:
        body = definition.body
        if definition.kind == REDUCTION or not isinstance(body, list):
            continue
        own, flags = own_names(definition), itertools.count(1)
        body = rewritten(body, functools.partial(filter_as_loop, taken=own))
        definition.body = rewritten(body, functools.partial(test_as_loop, taken=own, flags=flags))


def own_names(definition: n.Definition) -> set[str]:
    """The locals `definition` takes, assigns or reads outside the lambdas and comprehensions that bind them, by
    Python name: a loop in it may bind none of them."""
    body = definition.body
    assert isinstance(body, list)
    taken = {local_name(param) for param in definition.params} | assigned_locals(body)
    for statement in body:
        taken |= free_locals(statement)
    return taken | {name for read in definition.reads for name in free_locals(read)}


def rewritten(body: list[n.Stmt], rewrite: Callable[[n.Stmt], list[n.Stmt] | None]) -> list[n.Stmt]:
    """`body` with each statement, those inside it first, replaced by what `rewrite` makes of it (None: kept)."""
    out: list[n.Stmt] = []
    for statement in body:
        out += inside_first(statement, rewrite) or [statement]
    return out


def inside_first(statement: n.Stmt, rewrite: Callable[[n.Stmt], list[n.Stmt] | None]) -> list[n.Stmt] | None:
    """What `rewrite` makes of `statement`, once the statements inside it are rewritten (an `elif` that becomes
    several statements becomes an `else` holding them)."""
    def blocks_first(statement: n.Stmt) -> list[n.Stmt] | None:
        for name in statement.fields:
            block = getattr(statement, name)
            if isinstance(block, list) and block and isinstance(block[0], n.Stmt):
                setattr(statement, name, rewritten(block, rewrite))
        return rewrite(statement)
    if isinstance(statement, n.If):
        chain(statement, blocks_first, lambda block: rewritten(block, rewrite))
    return blocks_first(statement)


def filter_as_loop(statement: n.Stmt, taken: set[str]) -> list[n.Stmt] | None:
    """`x = [e for c in items if test]` as `x = []` and a loop appending `e` where `test` holds; `x = [c for c in
    items]` as `x = list(items)` (None: `statement` is neither, or its loop could not bind `c`)."""
    if not (filtered_statement(statement) and not isinstance(statement, n.Return)):
        return None
    target = statement.names[0] if isinstance(statement, n.Let) else statement.target.name  # type: ignore
    value = statement.value  # type: ignore[attr-defined]  # (a Let or an Assign: filtered_statement)
    if isinstance(value, n.Comprehension) and value.kind == "list" and not value.lazy and len(value.clauses) == 1 \
            and len(value.clauses[0].names) == 1:
        clause = value.clauses[0]
        item, items, test, element = clause.names[0], charged(clause.iterable, clause.each), clause.condition, \
            value.element
    elif isinstance(value, n.Filter):
        item, items, test = value.item or "_", charged(value.items, value.each), value.test
        element = n.local(item, value.at)
    else:
        return None
    assert isinstance(element, n.Expr)  # (a list's)
    if local_name(item) in taken or binds_or_reads(value, target):
        return None
    at = statement.at
    if test is None:
        if not (isinstance(element, n.Name) and element.meaning == n.LOCAL and element.id == item):
            return None  # (a comprehension that only maps costs about what its loop would)
        return [n.set_local(target, n.Copy(items, at=at), at)]
    append = n.Append(target, element, at=at)
    return [n.set_local(target, n.ListExpr([], at=at), at), n.Loop([item], items, [n.If(test, [append], [], at=at)],
                                                                    at=at)]


def binds_or_reads(node: n.Node, name: str) -> bool:
    """Whether `node` reads the local `name` or binds a name of its own so."""
    for found in node.find_all(n.Node):
        if isinstance(found, n.Name) and found.meaning == n.LOCAL and found.id == name or \
                isinstance(found, n.ForClause) and name in found.names or \
                isinstance(found, n.Lambda) and name in found.params or \
                isinstance(found, n.Filter) and found.item == name:
            return True
    return False


def test_as_loop(statement: n.Stmt, taken: set[str], flags: Iterator[int]) -> list[n.Stmt] | None:
    """`if [A and] all(e for c in items if f):` (or `any`) decided by a loop that stops at the first item that
    settles it, in a flag, then `if FLAG:` (None: `statement` is no such `if`, or its loop could not bind `c`)."""
    if not isinstance(statement, n.If):
        return None
    test = statement.test
    parts = list(test.values) if isinstance(test, n.BoolOp) and test.op == "and" else [test]
    call = parts[-1]
    if not settled_by_loop(call, lambda: taken):
        return None
    assert isinstance(call, n.Call) and isinstance(generator := call.args[0], n.Comprehension)  # (settled_by_loop)
    clause, element = generator.clauses[0], generator.element
    assert isinstance(element, n.Expr)  # (a generator's)
    every = not SETTLES[str(call.name)]  # all: the first item whose value is false settles it; any: true
    at = statement.at
    flag = f"{FLAG}{next(flags)}"
    settles = element if not every else n.Not(element, at=element.at)
    found: n.Stmt = n.If(settles, [n.set_local(flag, n.Constant(not every, at=at), at), n.Break(at=at)], [], at=at)
    if clause.condition is not None:
        found = n.If(clause.condition, [found], [], at=at)
    loop = n.Loop(list(clause.names), charged(clause.iterable, clause.each), [found], at=at)
    decide: list[n.Stmt] = [n.set_local(flag, n.Constant(every, at=at), at), loop]
    if len(parts) > 1:  # the tests before it first: the loop runs only where they hold (all: the flag is true)
        first = parts[0] if len(parts) == 2 else n.BoolOp("and", parts[:-1], at=test.at)
        decide = [n.set_local(flag, first, at), n.If(n.local(flag, at), decide[every:], [], at=at)]
    return [*decide, n.If(n.local(flag, at), statement.body, statement.branches, at=at)]
