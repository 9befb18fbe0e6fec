"""The back end's passes: a rule file's generated module, made faster for CPython before it is compiled.

The passes about the rule language (inlining, folding, cascades, steps, growing lists) run on the compiler's own
tree before code generation (:mod:`naipes.language.passes`). What is left here is about how CPython runs the
code it is given: a comprehension is a call of its own in 3.11, a generator is resumed per item, a key lambda is
called per item. These passes rewrite the generated Python's syntax tree, after code generation, and recognise
Python's constructs (a statement's list comprehension, an ``if`` on ``all`` or ``any`` of a generator, ``max`` or
``min`` with a key lambda), not what the compiler named; they would change or go for a compiled module (issue
37, item 2):

* **hoisting**: inside a comprehension, a call that reads none of the comprehension's variables (``best_card()``
  while filtering every card of a hand), and the largest such part around it (``power(best_card())``, the
  inlined call with the temporary that keeps its argument), is computed once, when first needed, and
  remembered until the statement ends: a test that never reaches it still never computes it; a statement's
  filter whose test reads no item (``[c for c in hand if len(trick) == 0]``, a cascade's first step) keeps all
  the items or none, the test made once (and not at all when there are no items); a value that the first test
  of a statement's filter needs at every item (``c.suit == lead_suit()``) is computed before the filter, when it
  has items;
* **loops**: a statement's filter, ``x = [c for c in items if test]``, is a loop that appends to ``x`` (CPython
  3.11 runs a comprehension as a function of its own: a call per filter, where a loop costs none), and the
  copy ``x = [c for c in items]`` is ``list(items)``;
* **tests**: an ``if`` on ``all(e for c in items)`` or ``any(...)``, alone or last after ``and`` (a condition in
  the agenda's generated evaluation, say), is decided by a loop that stops at the first item settling it, in a
  flag (``_t`` and a number), not by a generator the built-in resumes per item.
* **reductions**: the functions of the module that loop over a reduction's items
  (:mod:`naipes.language.reductions`, a pass over the compiler's own tree) remember the calls in their loop that
  do not read its item, as a function that changes nothing does (above).

Each is checked by ``benchmarks/generated_code.py dump --compiled``. Every rule-file function keeps its own
definition (strategies and tools call them). Nothing here adds a name, an attribute or a constant the compiler
did not write, except the engine's own temporaries (``_h0``, ``_t1``), ``B_UNSET`` and ``B_append``;
:mod:`naipes.language.codecheck` checks the result again.
"""
from __future__ import annotations

import ast
import copy
import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from typing import NamedTuple

from . import nodes
from .cascades import SHARED as SHARED_LOCAL
from .codegen import local_name
from .reductions import REDUCTION
from .sections import FUNCTION

CANDIDATES = local_name(nodes.CANDIDATES)  # a move's candidates, always a list (naipes.language.moves)
SHARED = local_name(SHARED_LOCAL)  # the candidates passing the first test of several cascade steps (+ a number)
UNSET = "B_UNSET"  # a hoisted value not computed yet (the linker binds the name to a unique object)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def optimise(module: ast.Module, kinds: dict[str, str]) -> ast.Module:
    """The passes over a generated module (changed in place and returned); `kinds`: what each of its functions is,
    by name (naipes.language.sections.Definition.kind), which the passes go by, not by how a name is spelt."""
    defined = [node for node in module.body if isinstance(node, ast.FunctionDef)]
    hoister = _Hoister({node.name: node for node in defined if kinds.get(node.name) in (FUNCTION, REDUCTION)})
    facts = {node.name: _facts(node) for node in defined if kinds.get(node.name) != REDUCTION}
    for node in defined:
        if kinds.get(node.name) == REDUCTION:
            hoister.reduction(node)
        else:
            hoister.function(node, facts[node.name])
    for node in defined:
        if kinds.get(node.name) != REDUCTION:
            _filters_as_loops(node, facts[node.name].own)
            _tests_as_loops(node, facts[node.name])
    return module


class _Facts(NamedTuple):
    """What the passes need to know of a function, found in one walk before they change it (what they add, the
    temporaries `_hN` and the names they read, is never a comprehension's item nor a flag `_tN`)."""
    changes_nothing: bool  # it calls none of the memory's writing methods
    assigned: set[str]  # the names its statements assign
    own: set[str]  # the names it reads (outside the comprehensions and lambdas that bind them), assigns or takes
    last_flag: int  # the largest N of a temporary `_tN` it names (0: none)


def _facts(node: ast.FunctionDef) -> _Facts:
    writes, assigned, flags = False, set(), [0]
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute):
            writes = writes or _is_name(n.value, "M") and (n.attr in WRITES or n.attr == "rng")
        elif isinstance(n, (ast.Assign, ast.For)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            assigned |= {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        elif isinstance(n, ast.Name) and n.id[:2] == "_t" and n.id[2:].isdigit():
            flags.append(int(n.id[2:]))
    own = _free(node) | assigned | {a.arg for a in node.args.args}
    return _Facts(not writes, assigned, own, max(flags))


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _pure(node: ast.AST) -> bool:
    """Nothing in it draws from the game's generator (the only effect an expression can have)."""
    return not any(isinstance(n, ast.Attribute) and n.attr == "rng" for n in ast.walk(node))



# -------------------------------------------------------------------------- hoisting
class _Hoister:
    """Calls that do not depend on a comprehension's variables, computed once per statement, lazily.

    A generator expression is gone into only where it is an argument of a call (it then runs out within
    the statement: one kept in a local could run after the state changed), and a value that may be an
    iterator (a generator made by a function) is never remembered (it could be gone over only once)."""

    def __init__(self, functions: dict[str, ast.FunctionDef]) -> None:
        self.functions = functions
        self.count = 0
        # In a function that changes nothing: the values remembered for the whole call (by their code), and
        # the locals it assigns (a value reading one of them is not remembered). None: per statement.
        self.shared: dict[str, str] | None = None
        self.assigned: set[str] = set()
        self.temporaries: Counter[str] = Counter()  # how often the expression being visited names each temporary

    def function(self, node: ast.FunctionDef, facts: _Facts) -> None:
        if facts.changes_nothing:
            self.shared, self.assigned = {}, facts.assigned
            body = self.statements(node.body)
            node.body = [ast.fix_missing_locations(ast.copy_location(_unset(name), node.body[0]))
                         for name in self.shared.values()] + body
            self.shared = None
        else:
            node.body = self.statements(node.body)

    def reduction(self, node: ast.FunctionDef) -> None:
        """A reduction's function (naipes.language.reductions): the calls in its loop that do not read the loop's
        item (a trick's lead suit in the key of each of its cards), computed at most once per call, when first
        needed, as a function that changes nothing remembers them (numbered from 0 in each)."""
        self.shared, self.assigned, count, self.count = {}, set(), self.count, 0
        for loop in node.body:
            if isinstance(loop, ast.For):
                self.in_loop(loop.body, frozenset(t.id for t in ast.walk(loop.target) if isinstance(t, ast.Name)))
        node.body = [ast.fix_missing_locations(statement) for statement in
                     [ast.copy_location(_unset(name), node.body[0]) for name in self.shared.values()] + node.body]
        self.shared, self.count = None, count

    def in_loop(self, body: list[ast.stmt], item: frozenset[str]) -> None:
        """The expressions of the statements of a loop over `item`, invariant calls remembered."""
        for statement in body:
            for field in ("value", "test"):
                value = getattr(statement, field, None)
                if isinstance(value, ast.expr):
                    self.temporaries = _temporary_names(value)
                    setattr(statement, field, self.visit(value, item, [], False))
            for field in ("body", "orelse"):
                self.in_loop(getattr(statement, field, []), item)

    def statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in body:
            hoisted: list[str] = []
            for field in ("value", "test", "iter"):  # the expression a statement evaluates first
                value = getattr(statement, field, None)
                if isinstance(value, ast.expr):
                    self.temporaries = _temporary_names(value)
                    setattr(statement, field, self.visit(value, frozenset(), hoisted, False))
            if isinstance(statement, (ast.Assign, ast.Return)) and _invariant_filter(statement.value):
                statement.value = self.all_or_none(statement.value)  # type: ignore[arg-type]  # (a ListComp)
            early = _first_needed(statement)
            for field in ("body", "orelse"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(statement, field, self.statements(inner))
            out += [ast.copy_location(_unset(name), statement) for name in hoisted]
            out += [ast.copy_location(e, statement) for e in early]
            out.append(statement)
        return [ast.fix_missing_locations(s) for s in out]

    def visit(self, node: ast.expr, varying: frozenset[str] | None, hoisted: list[str], consumed: bool) -> ast.expr:
        """`node` with its invariant calls remembered. `varying`: the names bound by the comprehensions
        around it (None: outside any comprehension, where nothing is hoisted); `consumed`: `node` is an
        argument of a call."""
        if isinstance(node, (ast.Name, ast.Constant, ast.Lambda)):
            return node
        if varying and not (_free(node) & (varying | self.assigned if self.shared is not None else varying)) \
                and _pure(node) and _has_call(node) and not self.may_be_iterator(node) and self.owns_temporaries(node):
            return self.remembered(node, hoisted)
        if isinstance(node, ast.GeneratorExp) and not consumed:
            return node
        if isinstance(node, COMPREHENSIONS):
            inner = (varying or frozenset()) | {t.id for g in node.generators for t in ast.walk(g.target)
                                                if isinstance(t, ast.Name)}
            for generator in node.generators:  # (Python allows no assignment expression in an iterable)
                generator.ifs = [self.visit(test, inner, hoisted, False) for test in generator.ifs]
            if isinstance(node, ast.DictComp):
                node.key = self.visit(node.key, inner, hoisted, False)
                node.value = self.visit(node.value, inner, hoisted, False)
            else:
                node.elt = self.visit(node.elt, inner, hoisted, False)
            return node
        if isinstance(node, ast.Call):
            node.args = [self.visit(arg, varying, hoisted, True) for arg in node.args]
            for keyword in node.keywords:
                keyword.value = self.visit(keyword.value, varying, hoisted, True)
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.visit(value, varying, hoisted, False))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v, varying, hoisted, False) if isinstance(v, ast.expr) else v
                                      for v in value])
        return node

    def owns_temporaries(self, node: ast.expr) -> bool:
        """Whether each temporary of an inlined call that `node` names is set inside it and named nowhere else in
        its expression: a whole inlined call (`(_t2 := best()).suit, _t2.rank`), which computes the same value
        each time, and not a part of one."""
        inside = _temporary_names(node)
        set_inside = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
        return all(name in set_inside and count == self.temporaries[name] for name, count in inside.items())

    def may_be_iterator(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `node`'s value could be a generator (built-ins return lists; a function may not)."""
        if isinstance(node, ast.GeneratorExp):
            return True
        if isinstance(node, ast.IfExp):
            return self.may_be_iterator(node.body, seen) or self.may_be_iterator(node.orelse, seen)
        if isinstance(node, ast.BoolOp):
            return any(self.may_be_iterator(value, seen) for value in node.values)
        if not isinstance(node, ast.Call):
            return False
        if not isinstance(node.func, ast.Name):
            return False  # the memory's own methods (charge, unpack) give lists and tuples
        name = node.func.id
        if name.startswith(("B_", "R_")) or name in seen:  # built-ins give lists; records; a recursive call
            return False
        if name not in self.functions:
            return True  # a lambda held in a local, or a function of another module: it could be anything
        returns = [n.value for n in ast.walk(self.functions[name]) if isinstance(n, ast.Return)]
        return any(value is None or self.may_be_iterator(value, seen | {name}) for value in returns)

    def all_or_none(self, node: ast.ListComp) -> ast.expr:
        """`[c for c in ITEMS if TEST]` where TEST does not read `c`: `(_hN if not (_hN := list(ITEMS)) or
        TEST else [])`, the test made once (and, as before, not at all when there are no items); a move's
        candidates, a list, are copied only when kept: `(list(ITEMS) if ITEMS and TEST else [])`."""
        generator = node.generators[0]
        test = _all_of(generator.ifs)
        if isinstance(generator.iter, ast.Name) and generator.iter.id.startswith((CANDIDATES, SHARED)):  # (lists)
            kept = ast.BoolOp(ast.And(), [generator.iter, test])
            items: ast.expr = ast.Call(ast.Name("list", ast.Load()), [ast.Name(generator.iter.id, ast.Load())], [])
        else:
            name = f"_h{self.count}"
            self.count += 1
            made = ast.NamedExpr(ast.Name(name, ast.Store()), ast.Call(ast.Name("list", ast.Load()), [generator.iter],
                                                                        []))
            kept = ast.BoolOp(ast.Or(), [ast.UnaryOp(ast.Not(), made), test])
            items = ast.Name(name, ast.Load())
        return ast.fix_missing_locations(ast.copy_location(ast.IfExp(kept, items, ast.List([], ast.Load())), node))

    def remembered(self, node: ast.expr, hoisted: list[str]) -> ast.expr:
        """`(_hN if _hN is not B_UNSET else (_hN := node))` (the same N for the same code in a function that
        changes nothing)."""
        code = _code(node) if self.shared is not None else ""
        name = self.shared.get(code) if self.shared is not None else None
        if name is None:
            name = f"_h{self.count}"
            self.count += 1
            if self.shared is not None:
                self.shared[code] = name
            else:
                hoisted.append(name)
        compute = ast.NamedExpr(ast.Name(name, ast.Store()), node)
        test = ast.Compare(ast.Name(name, ast.Load()), [ast.IsNot()], [ast.Name(UNSET, ast.Load())])
        return ast.copy_location(ast.IfExp(test, ast.Name(name, ast.Load()), compute), node)


def _first_needed(statement: ast.stmt) -> list[ast.stmt]:
    """A statement's filter `[c for c in ITEMS if TEST]` (ITEMS a list in a local) computes a value remembered
    in TEST's first test, where every item reaches it (``c.suit == lead_suit()``), as soon as there is an item:
    those values are computed before the filter when ITEMS has one (``if ITEMS and _hN is B_UNSET: _hN =
    ...``), and the filter reads `_hN` without asking at each item whether it is computed yet."""
    value = getattr(statement, "value", None)
    if not isinstance(statement, (ast.Assign, ast.Return)) or not isinstance(value, ast.ListComp) or \
            len(value.generators) != 1 or not value.generators[0].ifs:
        return []
    generator = value.generators[0]
    items = generator.iter
    if isinstance(items, ast.Call) and isinstance(items.func, ast.Attribute) and _is_name(items.func.value, "M") \
            and items.func.attr == "charge":
        items = items.args[0]
    if not isinstance(items, ast.Name):
        return []
    first = generator.ifs[0]
    first = first.values[0] if isinstance(first, ast.BoolOp) else first
    early: list[ast.stmt] = []
    computed: dict[str, ast.expr] = {}
    for node in _always_reached(first):
        name = _remembered_name(node)
        if name is not None and name not in computed:
            computed[name] = node.orelse.value  # type: ignore[attr-defined]  # (a remembered value)
            early.append(ast.If(ast.BoolOp(ast.And(), [ast.Name(items.id, ast.Load()), ast.Compare(
                ast.Name(name, ast.Load()), [ast.Is()], [ast.Name(UNSET, ast.Load())])]),
                [ast.Assign([ast.Name(name, ast.Store())], computed[name])], []))
    if computed:
        _Known(set(computed)).visit(value)
    return early


def _always_reached(node: ast.expr) -> Iterator[ast.expr]:
    """`node` and the parts of it that are computed whenever it is (not a branch, a later operand of `and` or
    `or`, a lambda's body or a comprehension's), outermost first; not inside a remembered value."""
    yield node
    if _remembered_name(node) is not None:
        return
    if isinstance(node, ast.BoolOp):
        parts: list[ast.expr] = [node.values[0]]
    elif isinstance(node, ast.IfExp):
        parts = [node.test]
    elif isinstance(node, ast.Compare):
        parts = [node.left, node.comparators[0]]
    elif isinstance(node, ast.Call):
        parts = [node.func, *node.args, *(k.value for k in node.keywords)]
    elif isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
        parts = []
    else:
        parts = [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
    for part in parts:
        yield from _always_reached(part)


def _remembered_name(node: ast.AST) -> str | None:
    """N, where `node` is `(_hN if _hN is not B_UNSET else (_hN := VALUE))` (see _Hoister.remembered)."""
    if isinstance(node, ast.IfExp) and isinstance(node.orelse, ast.NamedExpr) and isinstance(node.body, ast.Name) \
            and isinstance(node.test, ast.Compare) and _is_name(node.test.left, node.body.id) \
            and node.orelse.target.id == node.body.id and node.body.id.startswith("_h"):
        return node.body.id
    return None


class _Known(ast.NodeTransformer):
    """Reads the remembered values `names` as they are (computed before the filter they are in)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        name = _remembered_name(node)
        if name in self.names:
            return ast.copy_location(ast.Name(name, ast.Load()), node)
        self.generic_visit(node)
        return node


WRITES = {"set_var", "set_attr", "set_team_attr", "grow_var", "grow_attr", "move", "shuffle", "deal", "ask",
          "ask_group", "end_game", "announce", "refresh", "entering_step", "entered", "assert_fact", "retract_fact",
          "modify_fact", "reset_variables", "start_turns", "pass_turn", "goto"}


def _invariant_filter(node: ast.expr | None) -> bool:
    """Whether `node` is `[c for c in ITEMS if TEST]` with a TEST that does not read `c` (nor draw at random)."""
    if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
        return False
    generator = node.generators[0]
    return isinstance(generator.target, ast.Name) and isinstance(node.elt, ast.Name) and \
        node.elt.id == generator.target.id and bool(generator.ifs) and not generator.is_async and \
        all(generator.target.id not in _free(test) and _pure(test) for test in generator.ifs)


def _code(node: ast.expr) -> str:
    """What `node` computes, as text: equal for code that differs only in the names of its lambdas' and
    comprehensions' own variables (the inliner names them afresh at every call site)."""
    node = copy.deepcopy(node)
    free = _free(node)
    names: dict[str, str] = {}
    for n in ast.walk(node):
        bound = [a.arg for a in n.args.args] if isinstance(n, ast.Lambda) else \
            [t.id for g in n.generators for t in ast.walk(g.target) if isinstance(t, ast.Name)] \
            if isinstance(n, COMPREHENSIONS) else []
        for name in bound:
            if name not in free:  # (a name also read free somewhere keeps its name: it may be another value)
                names.setdefault(name, f"_{len(names)}")
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            n.id = names[n.id]
        elif isinstance(n, ast.arg) and n.arg in names:
            n.arg = names[n.arg]
    return ast.dump(node)


def _unset(name: str) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], ast.Name(UNSET, ast.Load()))


def _temporary_names(node: ast.AST) -> Counter[str]:
    """How often `node` names each temporary of an inlined call."""
    return Counter(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id.startswith("_t"))


def _free(node: ast.AST) -> set[str]:
    """The names `node` reads that it does not bind itself (in a lambda or a comprehension)."""
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) else set()
    if isinstance(node, ast.Lambda):
        return _free(node.body) - {a.arg for a in node.args.args}
    if isinstance(node, COMPREHENSIONS):
        found = _free(node.generators[0].iter)
        bound: set[str] = set()
        for i, generator in enumerate(node.generators):
            if i:
                found |= _free(generator.iter) - bound
            bound |= {t.id for t in ast.walk(generator.target) if isinstance(t, ast.Name)}
            for test in generator.ifs:
                found |= _free(test) - bound
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            found |= _free(part) - bound
        return found
    found = set()
    for child in ast.iter_child_nodes(node):
        found |= _free(child)
    return found


def _all_of(tests: list[ast.expr]) -> ast.expr:
    """One test, or the `and` of several."""
    return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)


def _has_call(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


# ------------------------------------------------------------------- filters as loops
APPEND = "B_append"  # list.append (the linker binds it): generated code names no method of a list


def _rewritten(body: list[ast.stmt], rewrite: Callable[[ast.stmt], list[ast.stmt] | None]) -> list[ast.stmt]:
    """`body` with each statement, those inside it first, replaced by what `rewrite` makes of it (None: kept)."""
    out: list[ast.stmt] = []
    for statement in body:
        for field in ("body", "orelse"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(statement, field, _rewritten(inner, rewrite))
        out += rewrite(statement) or [statement]
    return out


def _filters_as_loops(node: ast.FunctionDef, taken: set[str]) -> None:
    """Each statement `x = [e for c in items if test ...]` of the function becomes `x = []` and a loop over
    `items` appending `e` where the tests hold, and `x = [c for c in items]` becomes `x = list(items)`, where
    `c` is not one of the function's own names (`taken`: the loop binds it in the function) and `x` is not
    read by the comprehension."""
    node.body = _rewritten(node.body, lambda statement: _as_loop(statement, taken))


def _as_loop(statement: ast.stmt, taken: set[str]) -> list[ast.stmt] | None:
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(target := statement.targets[0], ast.Name) and isinstance(value := statement.value,
                                                                                   ast.ListComp)
            and len(value.generators) == 1):
        return None
    generator = value.generators[0]
    item = generator.target
    if generator.is_async or not isinstance(item, ast.Name) or item.id in taken or \
            any(isinstance(n, ast.Name) and n.id == target.id for n in ast.walk(value)):
        return None
    if not generator.ifs:
        if not (isinstance(value.elt, ast.Name) and value.elt.id == item.id):
            return None  # (a comprehension that only maps costs about what its loop would)
        copied = ast.Call(ast.Name("list", ast.Load()), [generator.iter], [])
        return [ast.fix_missing_locations(ast.copy_location(ast.Assign([target], copied), statement))]
    test = _all_of(generator.ifs)
    append = ast.Expr(ast.Call(ast.Name(APPEND, ast.Load()), [ast.Name(target.id, ast.Load()), value.elt], []))
    loop = ast.For(ast.Name(item.id, ast.Store()), generator.iter, [ast.If(test, [append], [])], [])
    made = [ast.Assign([ast.Name(target.id, ast.Store())], ast.List([], ast.Load())), loop]
    return [ast.fix_missing_locations(ast.copy_location(s, statement)) for s in made]


def _tests_as_loops(node: ast.FunctionDef, facts: _Facts) -> None:
    """Each `if` whose test is `all(e for c in items if f)` or `any(...)`, or ends with one after `and`,
    decides it with a loop that stops at the first item that settles it, in a flag (`_t` and a number the
    function does not use), where `c` is not one of the function's own names."""
    flags = itertools.count(facts.last_flag + 1)
    node.body = _rewritten(node.body, lambda statement: _test_as_loop(statement, facts.own, flags))


def _test_as_loop(statement: ast.stmt, taken: set[str], flags: Iterator[int]) -> list[ast.stmt] | None:
    if not isinstance(statement, ast.If):
        return None
    test = statement.test
    parts = list(test.values) if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    call = parts[-1]
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in ("B_all", "B_any")
            and len(call.args) == 1 and not call.keywords and isinstance(gen := call.args[0], ast.GeneratorExp)
            and len(gen.generators) == 1):
        return None
    generator = gen.generators[0]
    item = generator.target
    if generator.is_async or not isinstance(item, ast.Name) or item.id in taken:
        return None
    every = call.func.id == "B_all"  # all: the first item whose value is false settles it; any: true
    name = f"_t{next(flags)}"

    def flag(ctx: ast.expr_context) -> ast.Name:  # (a node of its own at each place)
        return ast.Name(name, ctx)
    settles = gen.elt if not every else ast.UnaryOp(ast.Not(), gen.elt)
    found: ast.stmt = ast.If(settles, [ast.Assign([flag(ast.Store())], ast.Constant(not every)), ast.Break()], [])
    if generator.ifs:
        found = ast.If(_all_of(generator.ifs), [found], [])
    loop: ast.stmt = ast.For(ast.Name(item.id, ast.Store()), generator.iter, [found], [])
    decide = [ast.Assign([flag(ast.Store())], ast.Constant(every)), loop]
    if len(parts) > 1:  # the tests before it first: the loop runs only where they hold (all: the flag is true)
        first = _all_of(parts[:-1])
        decide = [ast.Assign([flag(ast.Store())], first), ast.If(flag(ast.Load()), decide[every:], [])]
    made = [*decide, ast.If(flag(ast.Load()), statement.body, statement.orelse)]
    return [ast.fix_missing_locations(ast.copy_location(s, statement)) for s in made]
