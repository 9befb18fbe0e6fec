"""The optimiser's passes over the compiler's own tree (:mod:`naipes.language.nodes`), before code generation.

Each pass knows what it rewrites by the class of a node and what the resolver found of it (a name's meaning, an
assignment's target, a call's callee), and the functions it works on by their kind
(:attr:`naipes.language.nodes.Definition.kind`), never by the Python a node is written as or a name the compiler
gave it. :func:`optimise_definitions` runs them, in this order, on the generated functions of a module; code
generation then writes the optimised tree:

* **growing lists** (below): ``x = x + [...]`` or ``x += [...]`` on a state variable, and ``p.x = p.x + [...]``
  or ``p.x += [...]`` on a player's attribute, where ``[...]`` is a list display (written, or a param's list),
  become :class:`~naipes.language.nodes.Grow`: the memory's ``grow_var`` and ``grow_attr`` weigh only what the
  list gains (:mod:`naipes.runtime.memory`);
* **inlining** (:mod:`naipes.language.inlining`) and **folding** (:mod:`naipes.language.folding`), function by
  function, each after those it calls, so that each folded function is what its callers copy;
* **cascades** (:mod:`naipes.language.cascades`): the first test several steps of a move's legality cascade
  share, made once;
* **steps** (:mod:`naipes.language.steps`): what the inlined calls still charge, charged where repeating them
  could run away;
* **reductions** (:mod:`naipes.language.reductions`): ``max`` or ``min`` with a key lambda, ``any`` and ``all``
  of a generator, where an expression needs their value, loop in functions of their own;
* **hoisting** (:mod:`naipes.language.hoisting`): what a comprehension computes that does not depend on its
  items, computed once, when first needed;
* **loops** (:mod:`naipes.language.loops`): a statement's filter, and an ``if`` on ``all`` or ``any``, decided by
  a loop in the function (CPython runs a comprehension as a function of its own, resumes a generator per item).
"""
from __future__ import annotations

from . import nodes as n
from .callgraph import callees_first, recursive
from .cascades import CHOICES, share_first_tests
from .folding import Folder
from .hoisting import hoist
from .inlining import Inliner, calls, clone, inlinable
from .loops import make_loops
from .reductions import outline_reductions
from .sections import FUNCTION
from .steps import charge, drop_light_steps


def optimise_definitions(definitions: list[n.Definition]) -> None:
    """Every pass over the tree of each definition (each given a tree of its own first, changed in place: the
    section readers may put one node in two definitions, a move's legality test in its choices too)."""
    for definition in definitions:
        body = definition.body
        definition.body = [clone(statement) for statement in body] if isinstance(body, list) else clone(body)
        if isinstance(definition.body, list):
            grow_lists(definition.body)
    callable_ = inlinable(definitions)
    graph = {name: set(calls(definition, callable_)) for name, definition in callable_.items()}
    loops = recursive(graph)
    inliner, folder = Inliner(callable_, loops), Folder()
    for name in callees_first(graph):  # (a function is folded before it is inlined: its callers copy less)
        inliner.definition(callable_[name])
        folder.definition(callable_[name])
    for definition in definitions:
        if definition.name not in callable_:
            inliner.definition(definition)
            folder.definition(definition)
        if definition.kind == CHOICES:
            share_first_tests(definition)
    functions = {d.name: d for d in definitions if d.kind == FUNCTION}
    drop_light_steps(functions, loops)  # (after folding: steps are counted in the code that can run)
    for definition in definitions:
        charge(definition, definition.kind == FUNCTION)
    outline_reductions(definitions)
    hoist(definitions)
    make_loops(definitions)


# ---------------------------------------------------------------------------------------------- growing lists
def grow_lists(statements: list[n.Stmt]) -> None:
    """Each assignment of `statements` (and of the blocks in them) that adds a list display to the list it
    writes becomes a Grow."""
    for i, statement in enumerate(statements):
        if isinstance(statement, n.Assign):
            added = _growth(statement)
            if added is not None:
                statements[i] = n.Grow(statement.target, added, statement.temporary, at=statement.at)
        elif isinstance(statement, n.If):
            grow_lists(statement.body)
            for branch in statement.branches:
                grow_lists(branch.body)
        elif isinstance(statement, n.For):
            grow_lists(statement.body)


def _growth(node: n.Assign) -> n.Expr | None:
    """The list display `node` adds to the state variable or player's attribute it writes, if that is all it
    does (`x += [...]`, or `x = x + [...]` reading the same variable, or the same attribute of the same local)."""
    target, value = node.target, node.value
    if node.writes not in (n.WRITES_GLOBAL, n.WRITES_PLAYER):
        return None
    if node.op == "+":
        return value if _list_display(value) else None
    if node.op is not None or not (isinstance(value, n.BinOp) and value.op == "+" and _list_display(value.right)):
        return None
    read = value.left
    if isinstance(target, n.NameTarget):
        same = isinstance(read, n.Name) and read.meaning == n.GLOBAL and read.id == target.name
    else:
        same = isinstance(read, n.Attribute) and not read.per_player_memory and read.name == target.name \
            and _same_local(read.base, target.base)
    return value.right if same else None


def _list_display(node: n.Expr) -> bool:
    """Whether `node` is a list written out: a list display, or a param's or engine's literal list."""
    if isinstance(node, n.ListExpr):
        return True
    if isinstance(node, n.Literal) or (isinstance(node, n.Name) and node.meaning == n.PARAM):
        return isinstance(node.value, list)
    return False


def _same_local(a: n.Expr, b: n.Expr) -> bool:
    """Whether `a` and `b` read the same local (the player an attribute is read from and written to)."""
    return isinstance(a, n.Name) and isinstance(b, n.Name) and a.meaning == b.meaning == n.LOCAL and a.id == b.id
