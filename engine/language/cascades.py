"""Cascades: the steps of a move's legality cascade that begin with the same test filter the candidates by it once.

A pass over the compiler's own tree (:mod:`naipes.language.nodes`), after inlining and folding, over each move's
choices (:mod:`naipes.language.moves`: its candidates, then each step of its cascade, a
:class:`~naipes.language.nodes.Filter` of the candidates). Steps whose tests begin alike (``follows(c) and
wins(c)``, then ``follows(c)``) filter the candidates by that first test once, where the first of them runs, and
each goes on from what passed it: ``__shared_1 = [c for c in __candidates if FIRST]``, then ``[c for c in
__shared_1 if REST]``, or the shared list itself. A later step runs only after the earlier ones, so the shared
list is made before it is read; a test shared draws nothing at random and calls only built-ins (it is computed
once for each candidate, as each step did).
"""
from __future__ import annotations

from . import nodes as n
from .codegen import Writer, draws_at_random
from .inlining import canonical_code, free_locals

CHOICES = "move_choices"  # the kind of a move's choices (naipes.language.moves)
SHARED = "__shared_"  # the candidates passing the first test of several steps (+ a number): an engine local
CALLS = (n.Generated, n.MemoryCall, n.Copy, n.Comprehension, n.DeckProduct, n.Keep, n.Temporary)


def share_first_tests(definition: n.Definition) -> None:
    """Share the first tests of the steps of a move's choices (changed in place)."""
    body = definition.body
    if not isinstance(body, list):
        return
    writer = Writer()
    groups: dict[tuple[str | None, str], list[tuple[n.Assign, list[n.Expr]]]] = {}
    for statement in body:
        tests = cascade_tests(statement)
        if tests and shareable(tests[0]):
            step = statement.value  # type: ignore[attr-defined]  # (a step: cascade_tests)
            groups.setdefault((step.item, code(writer, tests[0])), []).append((statement, tests))  # type: ignore
    inserts: dict[int, n.Stmt] = {}
    for count, steps in enumerate((steps for steps in groups.values() if len(steps) > 1), 1):
        shared = f"{SHARED}{count}"
        first, first_tests = steps[0]
        made = first.value
        assert isinstance(made, n.Filter)  # (a step: cascade_tests)
        candidates = n.local(n.CANDIDATES, made.at, "list")
        inserts[id(first)] = n.set_local(shared, n.Filter(made.item, candidates, first_tests[0], at=made.at), first.at)
        for statement, tests in steps:
            step = statement.value
            assert isinstance(step, n.Filter)
            rest = tests[1:]
            if not rest:
                statement.value = n.local(shared, step.at, "list")
            else:
                step.items = n.local(shared, step.at, "list")
                step.test = rest[0] if len(rest) == 1 else n.BoolOp("and", rest, at=rest[0].at)
    if inserts:
        definition.body = [made for statement in body
                           for made in ([inserts[id(statement)]] if id(statement) in inserts else []) + [statement]]


def cascade_tests(statement: n.Stmt) -> list[n.Expr] | None:
    """The tests, in the order they are made, of a cascade step `__allowed = [c for c in __candidates if A and
    B ...]` (None: `statement` is not one)."""
    if not (isinstance(statement, n.Assign) and isinstance(statement.target, n.NameTarget)
            and statement.target.name == n.ALLOWED and isinstance(statement.value, n.Filter)):
        return None
    items = statement.value.items
    if not (isinstance(items, n.Name) and items.meaning == n.LOCAL and items.id == n.CANDIDATES):
        return None
    test = statement.value.test
    return list(test.values) if isinstance(test, n.BoolOp) and test.op == "and" else [test]


def shareable(test: n.Expr) -> bool:
    """A test computed once per candidate for several steps: it draws nothing at random, calls only built-ins
    (none over a collection it charges), and keeps no temporary of an inlined call."""
    if draws_at_random(test):
        return False
    for node in test.find_all(n.Node):
        if isinstance(node, CALLS):
            return False
        if isinstance(node, n.Call) and (node.target not in (n.CALL_BUILTIN, n.VALUES_OF) or node.charged
                                         or node.key_steps):
            return False
    return True


def code(writer: Writer, test: n.Expr) -> str:
    """What `test` computes, as text: equal for code that differs only in the names the inliner gave its lambdas'
    and comprehensions' own variables (fresh at every call site)."""
    return canonical_code([test], free_locals(test), writer)
