"""Folding: constant sub-expressions computed once, at compile time, and the branches they rule out dropped.

A pass over the compiler's own tree (:mod:`naipes.language.nodes`), run on each function after its calls are
inlined (:mod:`naipes.language.inlining`), so that its callers copy the folded code. Inlining puts literal
arguments (and a rule file's params are literals) where parameters were, so the code is full of tests whose
answer is known: ``X if 40 == 48 else Y``, ``stage == 'draw' and true``, ``if false:``.

Only what is certainly constant and cannot fail is computed: comparisons and arithmetic of literal numbers,
texts, True, False and None (comparisons also of tuples and lists of them); ``not``, a conditional expression,
``and`` and ``or`` whose deciding operand is such a literal. Nothing that calls, reads a variable or could raise
or grow is (no division by zero, no text or list arithmetic, which the engine bounds at run time). An operand is
dropped only where the value is the same without it: ``true and X`` is X, but ``X and true`` is X only where X
is a comparison or a ``not`` (a comparison of the engine's values is always a bool), or where only its truth
counts (a test). What remains keeps its own location; what replaces an inlined call keeps the steps it charged.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from . import nodes as n
from .loader import number_problem

COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b, "is": operator.is_, "is not": operator.is_not}
ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "&": operator.and_, "|": operator.or_}
SCALARS = (bool, int, float, str, type(None))


def constant(node: n.Node) -> tuple[bool, Any]:
    """(True, its value) where `node` is a literal True, False, None, number or text."""
    known, value = literal(node)
    return (True, value) if known and isinstance(value, SCALARS) else (False, None)


def literal(node: n.Node, depth: int = 0) -> tuple[bool, Any]:
    """(True, its value) for a literal: a constant, or a tuple or list of them (small and shallow)."""
    if isinstance(node, (n.Number, n.String, n.Constant, n.Bits)):
        return True, node.value
    if isinstance(node, n.FString) and len(node.parts) == 1 and isinstance(node.parts[0], str):
        return True, node.parts[0]
    if isinstance(node, (n.Literal, n.Name)) and (isinstance(node, n.Literal) or node.meaning == n.PARAM):
        return _plain(node.value, depth)
    if isinstance(node, n.Call) and node.target == n.VALUES_OF:
        return _plain(node.found, depth)
    if isinstance(node, (n.TupleExpr, n.ListExpr)) and depth < 3 and len(node.items) <= 64:
        values = []
        for item in node.items:
            known, value = literal(item, depth + 1)
            if not known:
                return False, None
            values.append(value)
        return True, tuple(values) if isinstance(node, n.TupleExpr) else values
    return False, None


def _plain(value: Any, depth: int) -> tuple[bool, Any]:
    """A value the engine writes as a literal (a param, a card table's values), if small and shallow."""
    if isinstance(value, SCALARS):
        return True, value
    if isinstance(value, (list, tuple)) and depth < 3 and len(value) <= 64 and \
            all(_plain(item, depth + 1)[0] for item in value):
        return True, value
    return False, None


class Folder:
    """Folds a definition's tree in place (see the module's docstring)."""

    def definition(self, definition: n.Definition) -> None:
        if isinstance(definition.body, list):
            definition.body = self.statements(definition.body, definition)
        else:
            definition.body = self.expr(definition.body, False)

    def statements(self, body: list[n.Stmt], where: n.Node | None) -> list[n.Stmt]:
        """`body` folded (`where`: the node that needs a body, where an empty one gets a `pass`)."""
        out: list[n.Stmt] = []
        for statement in body:
            out += self.statement(statement)
        if not out and where is not None:
            out = [n.Pass(at=where.at)]
        return out

    def statement(self, statement: n.Stmt) -> list[n.Stmt]:
        if isinstance(statement, n.If):
            return self.choice(statement)
        if isinstance(statement, n.Goto) and statement.condition is not None:
            return [self.goto(statement)]
        if isinstance(statement, n.For):
            statement.iterable = self.expr(statement.iterable, False)
            statement.body = self.statements(statement.body, statement)
            return [statement]
        statement.replace_children(self.part)
        return [statement]

    def choice(self, statement: n.If) -> list[n.Stmt]:
        """An `if` without the branches its folded tests rule out; the branch it certainly takes, alone."""
        kept: list[n.Branch] = []
        for branch in [n.Branch(statement.test, statement.body, at=statement.at), *statement.branches]:
            if branch.test is not None:
                branch.test = self.expr(branch.test, True)
                known, value = constant(branch.test)
                if known and not value:
                    continue
                if known:
                    branch.test = None
            kept.append(branch)
            if branch.test is None:
                break
        if not kept:
            return []
        first, *others = kept
        if first.test is None:
            return self.statements(first.body, None)
        statement.test, statement.body = first.test, self.statements(first.body, statement)
        statement.branches = []
        for branch in others:
            branch.body = self.statements(branch.body, branch if branch.test is not None else None)
            if branch.body:
                statement.branches.append(branch)
        return [statement]

    def goto(self, statement: n.Goto) -> n.Goto:
        """`goto A if C else B` with C known: `goto A` or `goto B`."""
        assert statement.condition is not None
        statement.condition = self.expr(statement.condition, True)
        known, value = constant(statement.condition)
        if known:
            if not value:
                statement.target, statement.target_at = statement.otherwise, statement.otherwise_at  # type: ignore
                if statement.stages is not None:
                    statement.stages = (statement.stages[1], statement.stages[0])
            statement.condition = None
        return statement

    def part(self, node: n.Node) -> n.Node:
        """A part of a statement or of an expression, folded: an expression as a value, anything else inside."""
        if isinstance(node, n.Expr):
            return self.expr(node, False)
        node.replace_children(self.part)
        return node

    def expr(self, node: n.Expr, test: bool) -> n.Expr:
        """`node` folded (`test`: only its truth counts, as in an `if`'s test)."""
        if isinstance(node, n.IfExp):
            node.test = self.expr(node.test, True)
            known, value = constant(node.test)
            if known:
                return moved(node, self.expr(node.body if value else node.orelse, test))
            node.body, node.orelse = self.expr(node.body, test), self.expr(node.orelse, test)
            return truth(node, test)
        if isinstance(node, n.BoolOp):
            node.values = [self.expr(value, test) for value in node.values]
            return boolean(node, test)
        if isinstance(node, n.Not):
            node.operand = self.expr(node.operand, True)
            return unary(node)
        if isinstance(node, n.Comprehension):
            for clause in node.clauses:
                clause.iterable = self.expr(clause.iterable, False)
                if clause.condition is not None:
                    clause.condition = self.expr(clause.condition, True)
                    known, value = constant(clause.condition)
                    if known and value:
                        clause.condition = None
            node.element = self.part(node.element)  # type: ignore[assignment]
            return node
        if isinstance(node, n.Filter):
            node.items, node.test = self.expr(node.items, False), self.expr(node.test, True)
            known, value = constant(node.test)
            return moved(node, n.Copy(node.items, at=node.at)) if known and value else node
        node.replace_children(self.part)
        if isinstance(node, n.Unary):
            return unary(node)
        if isinstance(node, n.Compare):
            return compared(node, test)
        if isinstance(node, n.BinOp):
            return arithmetic(node)
        return node


def boolean(node: n.BoolOp, test: bool) -> n.Expr:
    """`a and b and ...` without the literals that decide nothing; cut at the first that decides."""
    goes_on = node.op == "and"  # the truth of a literal that lets the evaluation go on
    kept: list[n.Expr] = []
    for i, value in enumerate(node.values):
        known, truth_value = constant(value)
        if not known:
            kept.append(value)
        elif bool(truth_value) != goes_on:  # it decides: the value, if reached
            kept.append(value)
            break
        elif i < len(node.values) - 1:  # `true and X` is X (wherever it is: `A and true and B` is `A and B`)
            continue
        elif not kept or not (test or (truth_value is goes_on and is_bool(kept[-1]))):
            kept.append(value)  # `A and true` is A only where A is a bool (`A and 1` is not), or in a test
    if len(kept) == 1:
        return moved(node, kept[0])
    node.values = kept
    return node


def moved(old: n.Expr, new: n.Expr) -> n.Expr:
    """`new` in the place of `old` (which it is part of, or was made from): it owes the steps of an inlined call
    `old` was (naipes.language.steps), unless it is a constant."""
    if old.steps and not constant(new)[0]:
        new.steps = max(old.steps, new.steps)
    if old.origin and not new.origin:
        new.origin = old.origin
    if new.at is None:
        new.at = old.at
    return new


def made(old: n.Expr, value: Any) -> n.Expr:
    """The literal `value` computed in the place of `old`."""
    node = n.Literal(value, at=old.at)
    node.type = "bool" if isinstance(value, bool) else old.type
    return node


def is_bool(node: n.Expr) -> bool:
    """Whether `node`'s value is certainly True or False: a comparison (of the engine's values: numbers, texts,
    None, cards, players, zones, facts, and tuples and lists of them, all compared to a bool), a `not`, a literal
    bool, or `and`, `or` and conditional expressions of these."""
    if isinstance(node, (n.Compare, n.Not)):
        return True
    known, value = constant(node)
    if known:
        return isinstance(value, bool)
    if isinstance(node, n.BoolOp):
        return all(is_bool(value) for value in node.values)
    if isinstance(node, n.IfExp):
        return is_bool(node.body) and is_bool(node.orelse)
    return False


def truth(node: n.IfExp, test: bool) -> n.Expr:
    """`true if c else false` is c (a bool, or where only its truth counts); `false if c else true` is `not c`."""
    (body_known, body), (orelse_known, orelse) = constant(node.body), constant(node.orelse)
    if body_known and orelse_known and isinstance(body, bool) and isinstance(orelse, bool) and body != orelse:
        if not body:
            negated = n.Not(node.test, at=node.at)
            negated.type = "bool"
            return moved(node, negated)
        if test or is_bool(node.test):
            return moved(node, node.test)
    return node


def compare(left: Any, ops: list[str], operands: list[Any]) -> bool | None:
    """`left op operand ...` for literals, or None where it would fail or depend on identity."""
    for op, right in zip(ops, operands):
        if op in ("is", "is not") and not any(v is None or isinstance(v, bool) for v in (left, right)):
            return None  # (whether two equal numbers or texts are one object is Python's choice)
        try:
            result = COMPARISONS[op](left, right)
        except Exception:  # a comparison that fails at run time is left to fail there
            return None
        if not isinstance(result, bool):
            return None
        if not result:
            return False
        left = right
    return True


def compared(node: n.Compare, test: bool) -> n.Expr:
    """A comparison of literals, computed; one of a conditional expression of literals with a literal, computed
    in each branch (`(2 if c else 1) > 1` is `true if c else false`, which is c)."""
    ops = [op for op, _ in node.ops]
    known, left = literal(node.first)
    values = [literal(operand) for operand in node.operands]
    if known and all(k for k, _ in values):
        result = compare(left, ops, [v for _, v in values])
        return node if result is None else moved(node, made(node, result))
    if len(ops) == 1:
        first, operand = node.first, node.operands[0]
        if isinstance(first, n.IfExp) and values[0][0]:
            spread = spread_over(first, lambda side: compare(side, ops, [values[0][1]]))
        elif known and isinstance(operand, n.IfExp):
            spread = spread_over(operand, lambda side: compare(left, ops, [side]))
        else:
            spread = None
        if spread is not None:
            return moved(node, truth(spread, test) if isinstance(spread, n.IfExp) else spread)
    return node


def spread_over(node: n.Expr, comparing: Callable[[Any], bool | None]) -> n.Expr | None:
    """The conditional expression `node` (of literals) with `comparing` applied to each branch, or None."""
    if isinstance(node, n.IfExp):
        body, orelse = spread_over(node.body, comparing), spread_over(node.orelse, comparing)
        if body is None or orelse is None:
            return None
        spread = n.IfExp(body, node.test, orelse, at=node.at)
        spread.type = "bool"
        moved(node, spread)
        return moved(node, truth(spread, False))
    known, value = literal(node)
    result = comparing(value) if known else None
    return None if result is None else made(node, result)


def unary(node: n.Not | n.Unary) -> n.Expr:
    """`not`, `-` and `+` of a literal, computed."""
    known, value = constant(node.operand)
    if not known:
        return node
    if isinstance(node, n.Not):
        return moved(node, made(node, not value))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and number_problem(value) is None:
        return moved(node, made(node, -value if node.op == "-" else value))
    return node


def arithmetic(node: n.BinOp) -> n.Expr:
    """Arithmetic of two literal numbers, computed where it cannot fail, grow large or leave the finite floats
    (never of texts or lists)."""
    operation = ARITHMETIC.get(node.op)
    (left_known, a), (right_known, b) = constant(node.left), constant(node.right)
    if operation is None or not (left_known and right_known):
        return node
    if type(a) not in (int, float) or type(b) not in (int, float) or (node.op in ("/", "//", "%") and b == 0) or \
            (node.op in ("&", "|") and not (type(a) is int and type(b) is int)):
        return node
    try:
        result = operation(a, b)
    except (ArithmeticError, ValueError):
        return node
    if number_problem(result) is not None:  # a number no rule file may write is no literal: computed at run time
        return node
    return moved(node, made(node, result))
