"""The types the tree proves exact for a generated function's locals, which code generation declares.

A local whose every assignment the tree proves to give a bool, or a new list, is written with its type at its
first assignment (``v___settled_1: bool = False``). Python does not evaluate the annotation of a local; Cython
reads ``bool`` as a C truth value (its ``bint``: tested and set with no call, a comparison assigned to it never
made a Python object) and ``list`` as exactly a list (read, measured and appended to in place). Cython converts
rather than checks: a value that is not a bool would become True or False, and a C truth value read before it is
set is whatever the C stack held, where Python raises. So a local is declared only where the tree proves both:

* its type, whatever the values the function reads hold. The resolver's static types (``Node.type``) are no
  proof: a variable declared 0 may be given a text at run time (``codegen.proven_number``). The proofs are by the
  kind of node: a comparison, a `not`, True or False, Python's `any`, `all` and `bool` give a bool (every value a
  rule file holds compares to a bool: no class of the engine's answers `==` otherwise); a list display, a list
  comprehension, a copy, a filter and Python's `list` give a new list; `and`, `or` and `x if c else y` of those,
  and other locals proven so, give the same.
* for a bool, that it is set before every read: each read comes after an assignment on every path to it (an
  assignment in an `if` counts after the `if` only if every branch, `else` included, makes one; one in a loop
  counts inside the loop's body only). A local read by a lambda or a generator (a closure) is not declared.

A local bound any other way (a parameter, a loop's or a comprehension's variable, `let a, b = ...`, `x += ...`)
is not declared either.
"""
from __future__ import annotations

import builtins

from ..library.builtins import BUILTINS
from . import nodes as n

BOOL, LIST = "bool", "list"  # the declarations: Python's names for the types, which Cython reads as above
GIVES = {builtins.any: BOOL, builtins.all: BOOL, builtins.bool: BOOL, builtins.list: LIST}  # Python's own built-ins


def exact_locals(definition: n.Definition) -> dict[str, str]:
    """The locals of `definition` (by their names in the rule language) whose type the tree proves exact: BOOL or
    LIST."""
    if not isinstance(definition.body, list):
        return {}
    values, others = _assignments(definition)
    candidates = set(values) - others
    if not candidates:
        return {}
    bools = _fixpoint(candidates - _read_unset(definition.body) - _read_by_closures(definition), values, BOOL)
    lists = _fixpoint(candidates - bools, values, LIST)
    return {**dict.fromkeys(sorted(bools), BOOL), **dict.fromkeys(sorted(lists), LIST)}


def _assignments(definition: n.Definition) -> tuple[dict[str, list[n.Expr]], set[str]]:
    """The values each local is assigned by a plain assignment (`x = value`, `let x = value`), and the locals bound
    any other way."""
    values: dict[str, list[n.Expr]] = {}
    others = set(definition.params) | {read.id for read in definition.reads if isinstance(read, n.Name)}
    for node in definition.find_all(n.Node):
        if isinstance(node, n.Assign) and (name := _local_target(node)) is not None:
            if node.op is None:
                values.setdefault(name, []).append(node.value)
            else:
                others.add(name)
        elif isinstance(node, n.Let):
            if len(node.names) == 1:
                values.setdefault(node.names[0], []).append(node.value)
            else:
                others.update(node.names)
        elif isinstance(node, (n.For, n.Loop, n.ForClause)):
            others.update(node.names)
        elif isinstance(node, n.Lambda):
            others.update(node.params)
        elif isinstance(node, n.Filter) and node.item is not None:
            others.add(node.item)
        elif isinstance(node, n.MaskUpdate):
            others.add(node.name)
    return values, others


def _fixpoint(names: set[str], values: dict[str, list[n.Expr]], kind: str) -> set[str]:
    """The largest part of `names` whose every value is proven of `kind`, reading those names as of `kind`."""
    proven = set(names)
    while True:
        kept = {name for name in proven if all(_proves(value, kind, proven) for value in values[name])}
        if kept == proven:
            return proven
        proven = kept


def _proves(node: n.Node, kind: str, of_kind: set[str]) -> bool:
    """Whether the value of `node` is proven of `kind` (BOOL: a bool; LIST: a new list), reading the locals named in
    `of_kind` as of that kind."""
    if isinstance(node, n.Name):
        return node.meaning == n.LOCAL and node.id in of_kind
    if isinstance(node, n.BoolOp):
        return all(_proves(value, kind, of_kind) for value in node.values)
    if isinstance(node, n.IfExp):
        return _proves(node.body, kind, of_kind) and _proves(node.orelse, kind, of_kind)
    if isinstance(node, n.Keep):
        return _proves(node.value, kind, of_kind)
    return _made(node) == kind


def _made(node: n.Node) -> str | None:
    """The kind of value `node` makes, whatever it reads: BOOL, LIST, or None (not proven)."""
    if isinstance(node, (n.Compare, n.Not)):
        return BOOL
    if isinstance(node, (n.Constant, n.Literal)):
        return BOOL if type(node.value) is bool else LIST if type(node.value) is list else None
    if isinstance(node, (n.ListExpr, n.Copy, n.Filter)) or \
            (isinstance(node, n.Comprehension) and node.kind == "list" and not node.lazy):
        return LIST
    if isinstance(node, n.Call) and node.target == n.CALL_BUILTIN and not node.keyed:
        made = BUILTINS[str(node.name)]
        return GIVES.get(made.func) if made.work != "made" else None  # ("made": its value is M.charge_sized's)
    return None


def _read_by_closures(definition: n.Definition) -> set[str]:
    """The locals read inside a lambda or a generator (their own scopes: Python's closures)."""
    return {name.id for scope in definition.find_all(n.Node)
            if isinstance(scope, n.Lambda) or (isinstance(scope, n.Comprehension) and scope.lazy)
            for name in scope.find_all(n.Name) if name.meaning == n.LOCAL}


def _read_unset(statements: list[n.Stmt]) -> set[str]:
    """The locals some read of which may come before any assignment to them (see the module's doc)."""
    found: set[str] = set()
    _walk(statements, set(), found)
    return found


def _walk(statements: list[n.Stmt], set_before: set[str], found: set[str]) -> set[str]:
    """Go through `statements` with `set_before` the locals assigned on every path to them, adding to `found` each
    local read where it may not be; return the locals assigned on every path through them."""
    assigned = set(set_before)
    for statement in statements:
        if isinstance(statement, n.If):
            _reads(statement.test, assigned, found)
            ends = [_walk(statement.body, assigned, found)]
            for branch in statement.branches:
                if branch.test is not None:
                    _reads(branch.test, assigned, found)
                ends.append(_walk(branch.body, assigned, found))
            if any(branch.test is None for branch in statement.branches):
                assigned |= set.intersection(*ends)
        elif isinstance(statement, (n.For, n.Loop)):
            _reads(statement.iterable, assigned, found)
            _walk(statement.body, assigned | set(statement.names), found)
        else:
            _reads(statement, assigned, found)
            assigned |= _assigned_by(statement)
    return assigned


def _reads(node: n.Node, assigned: set[str], found: set[str]) -> None:
    found.update(name.id for name in node.find_all(n.Name) if name.meaning == n.LOCAL and name.id not in assigned)


def _assigned_by(statement: n.Stmt) -> set[str]:
    if isinstance(statement, n.Assign):
        name = _local_target(statement)
        return set() if name is None else {name}
    return set(statement.names) if isinstance(statement, n.Let) else set()


def _local_target(assignment: n.Assign) -> str | None:
    """The local `assignment` sets (None: it sets a variable of the game or of a player)."""
    target = assignment.target
    return target.name if isinstance(target, n.NameTarget) and assignment.writes == n.WRITES_LOCAL else None
