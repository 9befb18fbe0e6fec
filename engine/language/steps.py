"""Steps: what the calls inlined still charge, so that the work between two charged steps stays bounded.

A call of a rule file's function charges one step (``M.step()``: :mod:`naipes.library.limits`). Inlining
(:mod:`naipes.language.inlining`) takes that call away, and records on the node that replaces it the steps it
charged (:attr:`naipes.language.nodes.Node.steps`). This pass charges them again where repeating them could run
away: a comprehension charges them for each item with its loop's (:attr:`ForClause.each`), a ``min``, ``max`` or
``sorted`` with a key lambda for each item with the items (:attr:`Call.key_steps`), a lambda when called
(:attr:`Lambda.spend`), and a rule-file function (which can be called in a loop, or by a function called in one)
as its statement begins (``M.spend(k)``). A condition or an action runs a bounded number of times per operation
(its firings), so its own statements charge nothing more. (It overcharges a call a test skips: a limit is a
bound.) A rule-file function whose calls, all the way down, are at most :data:`LIGHT` (none recursive) is not
charged a step of its own: its cost is bounded by its caller's. tests/test_limits.py keeps an exponential tree
of small functions, and a loop of inlined calls, located errors.
"""
from __future__ import annotations

from . import nodes as n
from .inlining import calls, is_step, steps_outside_loops

LIGHT = 16  # a function whose call tree makes at most this many calls is not charged a step


def drop_light_steps(functions: dict[str, n.Definition], recursive: set[str]) -> None:
    """No step for a rule-file function whose whole call tree is small."""
    weights: dict[str, float] = {}
    for name, definition in functions.items():
        body = definition.body
        light = _weight(name, functions, recursive, weights) <= LIGHT
        if light and isinstance(body, list) and len(body) > 1 and is_step(body[0]):
            definition.body = body[1:]


def _weight(name: str, functions: dict[str, n.Definition], recursive: set[str], weights: dict[str, float]) -> float:
    """How many calls a call of `name` makes, its callees' included (remembered in `weights`; a plain recursive
    function, not a closure calling itself, which is a reference cycle: it would keep a load's whole tree for the
    garbage collector to free)."""
    if name in recursive:
        return float("inf")
    if name not in weights:
        callees = calls(functions[name], functions)
        weights[name] = 1 + sum(_weight(callee, functions, recursive, weights) for callee in callees)
    return weights[name]


def charge(definition: n.Definition, function: bool) -> None:
    """Charge the steps the calls inlined in `definition` owe (`function`: a rule file's function)."""
    if isinstance(definition.body, list):
        definition.body = statements(definition.body, function)
    else:
        loops(definition.body)


def statements(body: list[n.Stmt], function: bool) -> list[n.Stmt]:
    out: list[n.Stmt] = []
    for statement in body:
        if isinstance(statement, n.If):
            out += chain(statement, function)
            continue
        steps = 0
        for child in [statement.iterable] if isinstance(statement, n.For) else statement.children():
            steps += steps_outside_loops(child)
            loops(child)
        if isinstance(statement, n.For):
            statement.body = statements(statement.body, function)
        if steps and function:
            out.append(spend(steps, statement))
        out.append(statement)
    return out


def chain(statement: n.If, function: bool) -> list[n.Stmt]:
    """An `if` with its `elif`s and `else`: in a rule file's function, a test that owes steps spends them before
    it is made, so an `elif` that owes steps becomes an `else` that spends them, then an `if`."""
    steps = steps_outside_loops(statement.test)
    loops(statement.test)
    statement.body = statements(statement.body, function)
    for i, branch in enumerate(statement.branches):
        if branch.test is not None and function and steps_outside_loops(branch.test):
            rest = n.If(branch.test, branch.body, statement.branches[i + 1:], at=branch.at)
            statement.branches = [*statement.branches[:i], n.Branch(None, chain(rest, function), at=branch.at)]
            break
        if branch.test is not None:
            loops(branch.test)
        branch.body = statements(branch.body, function)
    return [spend(steps, statement), statement] if steps and function else [statement]


def spend(steps: int, where: n.Node) -> n.Do:
    return n.Do(n.MemoryCall("spend", [n.Literal(steps)]), at=where.at)


def loops(node: n.Node) -> None:
    """Charge the inlined calls of the comprehensions and lambdas in `node` where they run."""
    keys: set[int] = set()  # the key lambdas charged with their items
    for found in node.find_all(n.Node):
        if isinstance(found, n.Call) and found.keyed and len(found.positional) == 1:
            key = next((k.value for k in found.keywords if k.name == "key"), None)
            if isinstance(key, n.Lambda):
                found.key_steps = steps_outside_loops(key.body)
                keys.add(id(key))
        elif isinstance(found, n.Comprehension):
            *earlier, last = found.clauses
            element = found.element
            parts = [last.condition, *((element.key, element.value) if isinstance(element, n.Pair) else (element,)),
                     *(clause.condition for clause in earlier)]
            last.each = 1 + sum(steps_outside_loops(part) for part in parts if part is not None)
        elif isinstance(found, n.Filter):
            found.each = steps_outside_loops(found.test)
        elif isinstance(found, n.Lambda) and id(found) not in keys:
            found.spend = steps_outside_loops(found.body)
