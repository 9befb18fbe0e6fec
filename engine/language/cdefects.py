"""Two defects of Cython (3.1) with an assignment expression inside a comprehension, kept out of the C modules.

The compiler writes assignment expressions inside comprehensions: a hoisted value computed at its first use
(``_h if _h is not B_UNSET else (_h := ...)``) and an inlined function's argument bound once (``(_t := ...)``).
By Python's rule (PEP 572) such a name belongs to the enclosing function. Cython gets two things wrong there:

* **A leak.** Its flow analysis does not see the assignment made inside the comprehension, so an assignment
  of the same name later in the function, which it takes for the first, drops the value the comprehension left
  without releasing it: one object lost per call (Chinchón's estimate lost a copy of a hand each time, gigabytes
  over a long tournament). :func:`bind_at_entry` makes every such name a keyword-only parameter that defaults to
  None, so it is bound from the start, and every later assignment releases the value before.
* **A wrong value** (cython/cython#6547, open). Inside the assignment's value, a name that is both the
  comprehension's loop variable and a name of the function reads the function's. :func:`misread` finds the
  functions where that can happen; they stay Python.

Both rewrite or judge the source the linker already compiled as Python, by its syntax tree, and keep its lines.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def bind_at_entry(source: str, tree: ast.Module) -> str:
    """`source` (parsed: `tree`) with each top-level function's names that comprehensions assign made
    keyword-only parameters defaulting to None, on the function's own line (the lines stay those of `source`).
    A function whose header this cannot extend is left as it is: :func:`misread` keeps it Python."""
    lines = source.split("\n")
    for function in _functions(tree):
        names = sorted(_assigned_in_comprehensions(function))
        if names and _extensible(function, lines):
            header = lines[function.lineno - 1]
            cut = header.rindex("):")
            before = header[:cut]
            separator = "" if before.endswith("(") else ", "
            lines[function.lineno - 1] = before + separator + "*, " + ", ".join(f"{n}=None" for n in names) + \
                header[cut:]
    return "\n".join(lines)


def misread(tree: ast.Module, source: str) -> set[str]:
    """The top-level functions that must stay Python, among those whose comprehensions assign: one whose header
    `bind_at_entry` cannot extend, one with a lambda or nested function whose comprehension assigns (the name is
    that scope's), and one that Cython would misread (#6547: see _reads_shadowed)."""
    lines = source.split("\n")
    return {function.name for function in _functions(tree) if _assigned_in_comprehensions(function) and (
        not _extensible(function, lines) or _nested_scopes_assign(function) or _reads_shadowed(function))}


def _reads_shadowed(function: ast.FunctionDef) -> bool:
    """Whether an assignment inside a comprehension reads a loop variable of it that is also bound in the
    function or by another of its comprehensions."""
    bound = _bound_outside_comprehensions(function)
    comprehensions = list(_comprehensions(function))
    targets = [_targets(c) for c in comprehensions]
    for k, comprehension in enumerate(comprehensions):
        shadowing = targets[k] & bound.union(*(t for j, t in enumerate(targets) if j != k))
        if shadowing and any(isinstance(n, ast.Name) and n.id in shadowing
                             for named in ast.walk(comprehension) if isinstance(named, ast.NamedExpr)
                             for n in ast.walk(named.value)):
            return True
    return False


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    return (statement for statement in tree.body if isinstance(statement, ast.FunctionDef))


def _comprehensions(node: ast.AST) -> Iterator[ast.expr]:
    return (n for n in ast.walk(node) if isinstance(n, COMPREHENSIONS))


def _targets(comprehension: ast.expr) -> set[str]:
    return {n.id for g in comprehension.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}  # type: ignore[attr-defined]


def _assigned_in_comprehensions(function: ast.FunctionDef) -> set[str]:
    """The names assignment expressions inside the function's comprehensions bind."""
    return {named.target.id for comprehension in _comprehensions(function) for named in ast.walk(comprehension)
            if isinstance(named, ast.NamedExpr)}


def _nested_scopes_assign(function: ast.FunctionDef) -> bool:
    """Whether a lambda or nested function holds a comprehension that assigns (its names are that scope's)."""
    return any(isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)) and node is not function
               and any(isinstance(n, ast.NamedExpr) for c in _comprehensions(node) for n in ast.walk(c))
               for node in ast.walk(function))


def _bound_outside_comprehensions(function: ast.FunctionDef) -> set[str]:
    """The function's parameters and the names it binds outside any comprehension."""
    names = {a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs}
    inside = {id(n) for c in _comprehensions(function) for n in ast.walk(c)}
    names.update(n.id for n in ast.walk(function)
                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in inside)
    return names


def _extensible(function: ast.FunctionDef, lines: list[str]) -> bool:
    """Whether keyword-only parameters can be added on the function's line: plain positional parameters only,
    the whole header on one line, ending in `):`."""
    arguments = function.args
    plain = not (arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.defaults
                 or arguments.posonlyargs or function.returns)
    return plain and function.body[0].lineno > function.lineno and lines[function.lineno - 1].rstrip().endswith("):")
