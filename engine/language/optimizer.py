"""The middle end: a rule file's generated module, made faster before it is compiled.

The compiler writes every condition, action and function as Python; the
linker parses that source into a syntax tree, and this module rewrites the
tree, as an optimising compiler's middle end does, before it becomes one code
object.  Eight passes (the passes moved onto the compiler's own tree, before
code generation, are in :mod:`naipes.language.passes`; a card table's dict,
made once, is written so by :mod:`naipes.language.codegen`):

* **inlining**: a call of a small rule-file function written as one
  expression, and not recursive, becomes that expression, its parameters
  replaced by the arguments.  ``follows(c)`` in a legality test is then
  ``c.suit == lead_suit()``'s own expression, not three calls deep.  An
  argument that is not a plain name or constant is put in only where the
  parameter is read exactly once, outside any loop or lambda (else the call
  stays a call), so nothing is computed more often than before;
* **folding** (each function after its inlining, so that its callers copy the
  folded code): inlining puts literal arguments, and a rule file's params
  are literals, where parameters were; a comparison or arithmetic of
  literals is computed, and a test it settles keeps only the branch it takes
  (``[...] if 40 == 48 else [1, 2, 3]`` is the list, ``if False:`` goes),
  only where Python's value is certainly the same (see :class:`_Folder`);
* **cascades**: steps of a move's legality cascade that begin with the same
  test (``follows(c) and wins(c)``, then ``follows(c)``) filter the
  candidates by it once, and each goes on from what passed it;
* **hoisting**: inside a comprehension, a call that reads none of the
  comprehension's variables (``best_card()`` while filtering every card of a
  hand), and the largest such part around it (``power(best_card())``, the
  inlined call with the temporary that keeps its argument), is computed
  once, when first needed, and remembered until the statement ends: a test
  that never reaches it still never computes it; a statement's filter
  whose test reads no item (``[c for c in hand if len(trick) == 0]``, a
  cascade's first step) keeps all the items or none,
  the test made once (and not at all when there are no items); a value that
  the first test of a statement's filter needs at every item (``c.suit ==
  lead_suit()``) is computed before the filter, when it has items;
* **steps**: an inlined call still charges the step its call did where
  repeating it could run away (per item of the comprehension it is in, per
  call of its lambda, per call of the rule-file function it is in), and a
  rule-file function whose calls, all the way down, are at most :data:`LIGHT`
  (none recursive) is not charged a step of its own; so the work between two
  charged steps stays bounded by the size of the rule file (see
  :mod:`naipes.library.limits`; tests/test_limits.py keeps an exponential tree
  of small functions, and a loop of inlined calls, located errors);
* **loops**: a statement's filter, ``x = [c for c in items if test]``, is a
  loop that appends to ``x`` (CPython 3.11 runs a comprehension as a function
  of its own: a call per filter, where a loop costs none), and the copy
  ``x = [c for c in items]`` is ``list(items)``;
* **tests**: an ``if`` on ``all(e for c in items)`` or ``any(...)``, alone or
  last after ``and`` (a condition in the agenda's generated evaluation, say),
  is decided by a loop that stops at the first item settling it, in a flag
  (``_t`` and a number), not by a generator the built-in resumes per item.
* **reductions**: where an expression needs the value of ``max(items,
  key=lambda c: ...)``, ``min(...)``, ``any(... for c in items)`` or
  ``all(...)`` (a trick's best card inside a legality test, its winner), a
  function of the module (``reduction_`` and a number) loops over the items
  with the key or the test written in its body, taking the names it reads as
  parameters: no lambda or generator is made, called or resumed per item, and
  the function that needs the value keeps its names out of a closure.

Where each pass belongs (issue 37: every optimisation a pass over the
compiler's own tree, :mod:`naipes.language.passes`).  *Loops*, *tests* and
*reductions* are about how CPython runs the code it is given (a comprehension
is a call of its own in 3.11, a generator is resumed per item, a key lambda is
called per item): they are a back end's choices, made after code generation,
and would change or go for a compiled module (issue 37, item 2); they recognise
Python's constructs (a statement's list comprehension, an ``if`` on ``all`` or
``any`` of a generator, ``max``/``min`` with a key lambda), not what the
compiler named.  *Inlining*, *folding*, *cascades*, *steps* and *hoisting* are
about the rule language and are still to move, together, since each works on
what inlining made: inlining needs a node for a temporary set at a parameter's
first reading (``_t`` here), renaming of the names a lambda or a comprehension
binds, and the count of steps an inlined call still charges (``_steps`` here);
folding, the literal values of Number, String, Constant and param Names;
cascades, the Filter steps of a move's choices (naipes.language.moves) and
structural equality of their first tests; steps, the ``M.step()`` Do nodes and
where a call repeats (a Comprehension's element or test, a Lambda's body);
hoisting, a node for a value remembered until the statement ends (``_h`` and
``B_UNSET`` here).  Each is checked by ``benchmarks/generated_code.py dump
--compiled``: the module compiled must stay the same.

Every rule-file function keeps its own definition (strategies and tools call
them).  Inlined code keeps its line numbers, so a fault inside it is reported
in the function it came from.  Nothing here adds a name, an attribute or a
constant the compiler did not write, except the engine's own temporaries
(``_h0``, ``_t1``, ``v__1_c``, ``v___items``), ``B_UNSET``, ``B_append`` and the
reductions' functions; :mod:`naipes.language.codecheck`
checks the result again.
"""
from __future__ import annotations

import ast
import copy
import itertools
import math
import operator
from collections import Counter
from collections.abc import Callable, Iterator

from . import nodes
from .codegen import local_name
from .sections import FUNCTION

INLINE_SIZE = 250  # the largest function expression (in syntax nodes) that is inlined
LIGHT = 16  # a function whose call tree makes at most this many calls is not charged a step
CANDIDATES = local_name(nodes.CANDIDATES)  # a move's candidates, always a list (naipes.language.moves)
ALLOWED = local_name(nodes.ALLOWED)  # the candidates a step of a move's legality cascade keeps
SHARED = "v___shared_"  # the candidates passing the first test of several cascade steps (+ a number)
CHOICES = "move_choices"  # a move's choices: its candidates, then its cascade (naipes.language.moves)
CONDITIONS = ("rule_when", "phase_when", "phase_test")  # generated conditions, inlined where they are tested
UNSET = "B_UNSET"  # a hoisted value not computed yet (the linker binds the name to a unique object)
LOOPS = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def optimise(module: ast.Module, kinds: dict[str, str]) -> ast.Module:
    """The passes over a generated module (changed in place and returned); `kinds`: what each of its functions is,
    by name (naipes.language.sections.Definition.kind), which the passes go by, not by how a name is spelt."""
    defined = {node.name: node for node in module.body if isinstance(node, ast.FunctionDef)}
    functions = {name: node for name, node in defined.items() if kinds.get(name) == FUNCTION}
    # the conditions of rules are inlined too (into the agenda's generated evaluation: naipes.language.linker)
    inlinable = {name: node for name, node in defined.items() if kinds.get(name) in (FUNCTION, *CONDITIONS)}
    calls = {name: _called(node, inlinable) for name, node in inlinable.items()}
    recursive = _recursive(calls)
    inliner = _Inliner(inlinable, recursive)
    folder = _Folder()
    for name in _callees_first(calls):  # (a function is folded before it is inlined: its callers copy less)
        inliner.visit(inlinable[name])
        folder.statement(inlinable[name])
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name not in inlinable:
            inliner.visit(node)
            folder.statement(node)
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and kinds.get(node.name) == CHOICES:
            _share_first_tests(node)
    # (folded before steps are counted and values hoisted: both see only the code that can run)
    _drop_light_steps(functions, recursive)
    charger = _Charger()
    for node in module.body:
        if isinstance(node, ast.FunctionDef):
            charger.calls_repeat = node.name in functions
            node.body = charger.statements(node.body)
    hoister = _Hoister(functions)
    for node in module.body:
        if isinstance(node, ast.FunctionDef):
            hoister.function(node)
    for node in module.body:
        if isinstance(node, ast.FunctionDef):
            taken = _own_names(node)
            _filters_as_loops(node, taken)
            _tests_as_loops(node, taken)
    _reductions_as_functions(module)
    return module


# ------------------------------------------------------------------- the call graph
def _called(node: ast.AST, functions: dict[str, ast.FunctionDef]) -> set[str]:
    return {n.func.id for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in functions}


def _recursive(calls: dict[str, set[str]]) -> set[str]:
    """The functions that can reach themselves through calls."""
    found = set()
    for start in calls:
        stack, seen = list(calls[start]), set()
        while stack:
            name = stack.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(calls.get(name, ()))
    return found


def _callees_first(calls: dict[str, set[str]]) -> list[str]:
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        for callee in sorted(calls[name]):
            visit(callee)
        order.append(name)
    for name in sorted(calls):
        visit(name)
    return order


def _expression_body(node: ast.FunctionDef) -> ast.expr | None:
    """The expression a function returns, when its body is only that (after its step)."""
    body = node.body
    if body and _is_step(body[0]):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def _is_step(statement: ast.stmt) -> bool:
    """`M.step()`: the charge of one call (naipes.library.limits)."""
    return isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and \
        isinstance(call.func, ast.Attribute) and call.func.attr == "step" and _is_name(call.func.value, "M")


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _size(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))


def _pure(node: ast.AST) -> bool:
    """Nothing in it draws from the game's generator (the only effect an expression can have)."""
    return not any(isinstance(n, ast.Attribute) and n.attr == "rng" for n in ast.walk(node))


def _trivial(node: ast.AST) -> bool:
    """A value cheap to compute again: a name, a constant, an attribute or constant index of one."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return _trivial(node.value)
    if isinstance(node, ast.Subscript):
        return _trivial(node.value) and isinstance(node.slice, (ast.Constant, ast.Name))
    return False


# ------------------------------------------------------------------------- inlining
class _Inliner:
    """Replaces calls of small functions by their expressions, inside out (see the module's docstring).

    An argument read more than once is computed once, into a temporary (``_tN :=``) at its first reading,
    when that reading is sure to come first (not behind a test that may skip it) and the call is not in a
    comprehension's collection (where Python allows no assignment)."""

    def __init__(self, functions: dict[str, ast.FunctionDef], recursive: set[str]):
        self.functions, self.recursive = functions, recursive
        self.fresh = 0

    def visit(self, node: ast.AST, iterable: bool = False) -> ast.AST:
        """`node` with its calls inlined (`iterable`: it is part of a comprehension's collection)."""
        if isinstance(node, COMPREHENSIONS):
            for generator in node.generators:
                generator.iter = self.visit(generator.iter, True)  # type: ignore[assignment]
                generator.ifs = [self.visit(test, iterable) for test in generator.ifs]  # type: ignore[misc]
            if isinstance(node, ast.DictComp):
                node.key = self.visit(node.key, iterable)  # type: ignore[assignment]
                node.value = self.visit(node.value, iterable)  # type: ignore[assignment]
            else:
                node.elt = self.visit(node.elt, iterable)  # type: ignore[assignment]
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                setattr(node, field, [self.visit(v, iterable) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value, iterable))
        if isinstance(node, ast.Call):
            return self.inlined(node, iterable)
        return node

    def inlined(self, node: ast.Call, iterable: bool) -> ast.AST:
        func = node.func
        if not (isinstance(func, ast.Name) and func.id in self.functions and func.id not in self.recursive):
            return node
        definition = self.functions[func.id]
        body = _expression_body(definition)
        if body is None or _size(body) > INLINE_SIZE or node.keywords or len(node.args) < 2 \
                or not (_is_name(node.args[0], "M") and _is_name(node.args[1], "V")):
            return node
        params = [a.arg for a in definition.args.args[2:]]
        args = node.args[2:]
        if len(params) != len(args) or (iterable and any(isinstance(n, ast.NamedExpr) for n in ast.walk(body))):
            return node  # (a comprehension's collection may assign nothing, not even inside what is inlined)
        body = copy.deepcopy(body)
        reads = _reads(body, set(params))
        mapping: dict[str, ast.expr] = {}
        firsts: dict[int, str] = {}  # id of a parameter's first reading -> the temporary that keeps its argument
        for param, arg in zip(params, args):
            count, in_loop = reads.get(param, (0, False))
            if not _pure(arg):
                return node
            if _trivial(arg) or count == 0 or (count == 1 and not in_loop):
                mapping[param] = arg
                continue
            first = None if iterable else _first_reading(body, param)
            if first is None:
                return node
            self.fresh += 1
            temporary = f"_t{self.fresh}"
            mapping[param] = ast.copy_location(ast.Name(temporary, ast.Load()), arg)
            firsts[id(first)] = temporary
            mapping[f"{param} first"] = arg
        inlined = self.substitute(body, mapping, firsts)
        inlined._steps = 1 + _steps_outside_loops(inlined)  # type: ignore[attr-defined]  # (see _Charger)
        return inlined

    def substitute(self, node: ast.AST, mapping: dict[str, ast.expr], firsts: dict[int, str]) -> ast.AST:
        """`node` with the names in `mapping` replaced (copies of the arguments; a parameter's first reading
        assigns its temporary) and every name it binds (lambda parameters, comprehension variables) renamed
        afresh, so that nothing is captured."""
        if isinstance(node, ast.Name):
            if node.id in mapping and isinstance(node.ctx, ast.Load):
                temporary = firsts.get(id(node))
                if temporary is not None:
                    value = copy.deepcopy(mapping[f"{node.id} first"])
                    return ast.copy_location(ast.NamedExpr(ast.Name(temporary, ast.Store()), value), value)
                return copy.deepcopy(mapping[node.id])
            return node
        if isinstance(node, ast.Lambda):
            inner = dict(mapping)
            for arg in node.args.args:
                old, arg.arg = arg.arg, self.rename(arg.arg)
                inner[old] = ast.Name(arg.arg, ast.Load())
            node.body = self.substitute(node.body, _located(inner, node), firsts)  # type: ignore[assignment]
            return node
        if isinstance(node, COMPREHENSIONS):
            inner = dict(mapping)
            for i, generator in enumerate(node.generators):
                generator.iter = self.substitute(generator.iter, mapping if i == 0 else inner, firsts)  # type: ignore
                for target in ast.walk(generator.target):
                    if isinstance(target, ast.Name):
                        old = target.id
                        target.id = self.rename(old)
                        inner[old] = ast.Name(target.id, ast.Load())
                inner = _located(inner, node)
                generator.ifs = [self.substitute(test, inner, firsts) for test in generator.ifs]  # type: ignore[misc]
            if isinstance(node, ast.DictComp):
                node.key = self.substitute(node.key, inner, firsts)  # type: ignore[assignment]
                node.value = self.substitute(node.value, inner, firsts)  # type: ignore[assignment]
            else:
                node.elt = self.substitute(node.elt, inner, firsts)  # type: ignore[assignment]
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                setattr(node, field, [self.substitute(v, mapping, firsts) if isinstance(v, ast.AST) else v
                                      for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.substitute(value, mapping, firsts))
        return node

    def rename(self, name: str) -> str:
        """A name no rule file can write (theirs are v_ and a name that cannot start with '_')."""
        self.fresh += 1
        return f"v__{self.fresh}_{_original(name)[2:]}"


def _first_reading(body: ast.AST, name: str) -> ast.Name | None:
    """The reading of `name` that comes first when `body` is computed, if it is sure to happen whatever the
    tests on the way decide (None otherwise: it is behind a test, in a loop or lambda, or there is none)."""
    def walk(node: ast.AST, sure: bool) -> tuple[bool, ast.Name | None]:  # (found, the reading if sure)
        if isinstance(node, ast.Name):
            return (True, node if sure else None) if node.id == name and isinstance(node.ctx, ast.Load) else \
                (False, None)
        if isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
            return (True, None) if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)) else \
                (False, None)
        if isinstance(node, ast.IfExp):
            parts = [(node.test, sure), (node.body, False), (node.orelse, False)]
        elif isinstance(node, ast.BoolOp):
            parts = [(value, sure and i == 0) for i, value in enumerate(node.values)]
        elif isinstance(node, ast.Compare):
            parts = [(node.left, sure)] + [(c, sure and i == 0) for i, c in enumerate(node.comparators)]
        else:
            parts = [(child, sure) for child in ast.iter_child_nodes(node)]  # type: ignore[misc]
        for child, child_sure in parts:
            found, reading = walk(child, child_sure)
            if found:
                return found, reading
        return False, None
    return walk(body, True)[1]


def _original(name: str) -> str:
    """The rule-file local a (possibly renamed) generated name stands for: v__3_c -> v_c."""
    if name.startswith("v__") and "_" in name[3:]:
        return "v_" + name[3:].split("_", 1)[1]
    return name


def _located(mapping: dict[str, ast.expr], where: ast.AST) -> dict[str, ast.expr]:
    """The fresh names of a mapping, placed where they are bound (compile() needs every node located)."""
    for value in mapping.values():
        if isinstance(value, ast.Name) and not hasattr(value, "lineno"):
            ast.copy_location(value, where)
    return mapping


def _reads(body: ast.AST, names: set[str]) -> dict[str, tuple[int, bool]]:
    """How often each of `names` is read in `body`, and whether any read is inside a loop or a lambda."""
    found: dict[str, tuple[int, bool]] = {}

    def walk(node: ast.AST, in_loop: bool) -> None:
        if isinstance(node, ast.Name) and node.id in names:
            count, looped = found.get(node.id, (0, False))
            found[node.id] = (count + 1, looped or in_loop)
        inner = in_loop or isinstance(node, LOOPS)
        for child in ast.iter_child_nodes(node):
            walk(child, inner)
    walk(body, False)
    return found


# ------------------------------------------------------------------ charging steps
def _steps_outside_loops(node: ast.AST) -> int:
    """The steps the calls inlined in `node` charged, outside its comprehensions and lambdas (which charge their
    own per item or per call)."""
    steps = getattr(node, "_steps", 0)
    if steps:
        return steps
    if isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
        return 0
    return sum(_steps_outside_loops(child) for child in ast.iter_child_nodes(node))


class _Charger:
    """An inlined call charges the step its call did (naipes.library.limits), where repeating it could run
    away: a comprehension charges them for each item with its loop's, a lambda when called, and a rule-file
    function (which can be called in a loop, or by a function called in one) as its statement begins. A
    condition or an action runs a bounded number of times per operation (its firings), so its own
    statements charge nothing more. (It overcharges a call a test skips: a limit is a bound.)"""

    calls_repeat = False  # the function being charged is a rule file's (see above)

    def statements(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in body:
            steps = 0
            for field in ("value", "test", "iter"):
                value = getattr(statement, field, None)
                if isinstance(value, ast.expr):
                    steps += _steps_outside_loops(value)
                    self.loops(value)
            for field in ("body", "orelse"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(statement, field, self.statements(inner))
            if steps and self.calls_repeat:
                out.append(ast.fix_missing_locations(ast.copy_location(ast.Expr(_memory_call("spend", [
                    ast.Constant(steps)])), statement)))
            out.append(statement)
        return out

    def loops(self, node: ast.AST) -> None:
        """Charge the inlined calls of the comprehensions and lambdas in `node` where they run."""
        for child in ast.walk(node):
            if isinstance(child, ast.Call) and _keyed_once(child):  # the key is called once per item: charged so
                key = next(k.value for k in child.keywords if k.arg == "key")
                steps = _steps_outside_loops(key.body)  # type: ignore[attr-defined]  # (a lambda: _keyed_once)
                if steps:
                    items = child.args[0]
                    if _is_charge(items):  # (the collection charged already: a step per item, and the key's)
                        items.args = [items.args[0], ast.Constant(1 + steps)]  # type: ignore[attr-defined]
                    else:
                        child.args = [ast.fix_missing_locations(ast.copy_location(
                            _memory_call("charge", [items, ast.Constant(steps)]), items))]
                    key._charged = True  # type: ignore[attr-defined]
            elif isinstance(child, COMPREHENSIONS):
                parts = [*child.generators[-1].ifs, *((child.key, child.value) if isinstance(child, ast.DictComp)
                                                      else (child.elt,))]
                parts += [test for g in child.generators[:-1] for test in g.ifs]
                steps = sum(_steps_outside_loops(part) for part in parts)
                if steps:
                    last = child.generators[-1]
                    if _is_charge(last.iter):
                        last.iter.args = [last.iter.args[0], ast.Constant(1 + steps)]  # type: ignore[attr-defined]
                    else:
                        last.iter = _memory_call("charge", [last.iter, ast.Constant(steps)])
                    ast.fix_missing_locations(ast.copy_location(last.iter, child))
            elif isinstance(child, ast.Lambda) and not getattr(child, "_charged", False):
                steps = _steps_outside_loops(child.body)
                if steps:  # (M.spend(k) or BODY): spend is None, so BODY is the value
                    child.body = ast.fix_missing_locations(ast.copy_location(ast.BoolOp(ast.Or(), [
                        _memory_call("spend", [ast.Constant(steps)]), child.body]), child.body))


KEYED = {"B_min_keyed", "B_max_keyed", "B_sorted_keyed"}  # built-ins that call their key once per item


def _keyed_once(call: ast.Call) -> bool:
    """Whether `call` is `min`, `max` or `sorted` of one collection with a lambda as its key."""
    return isinstance(call.func, ast.Name) and call.func.id in KEYED and len(call.args) == 1 and \
        not isinstance(call.args[0], ast.Starred) and \
        any(k.arg == "key" and isinstance(k.value, ast.Lambda) for k in call.keywords)


def _memory_call(method: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name("M", ast.Load()), method, ast.Load()), args, [])


def _is_charge(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "charge" \
        and _is_name(node.func.value, "M") and len(node.args) == 1


# ---------------------------------------------------------------------------- cascades
def _share_first_tests(node: ast.FunctionDef) -> None:
    """Steps of a legality cascade whose tests begin alike (``follows(c) and wins(c)``, then ``follows(c)``)
    filter the candidates by that first test once, where the first of them runs, and each goes on from what
    passed it: ``v___shared_1 = [c for c in v___candidates if FIRST]``, then ``[c for c in v___shared_1 if
    REST]``, or the shared list itself. A later step runs only after the earlier ones, so the shared list is
    made before it is read; a test draws nothing at random and calls no rule-file function (it is computed
    once for each candidate, as each step did)."""
    groups: dict[str, list[tuple[int, list[ast.expr]]]] = {}
    for at, statement in enumerate(node.body):
        tests = _cascade_tests(statement)
        if tests is not None and len(tests) > 0 and _shareable(tests[0]):
            target = statement.value.generators[0].target.id  # type: ignore[attr-defined]  # (a step)
            groups.setdefault(f"{target} {_code(tests[0])}", []).append((at, tests))
    inserts: dict[int, ast.stmt] = {}
    count = 0
    for steps in groups.values():
        if len(steps) < 2:
            continue
        count += 1
        shared = f"{SHARED}{count}"
        first_at, first_tests = steps[0]
        comprehension: ast.ListComp = node.body[first_at].value  # type: ignore[attr-defined]  # (a step)
        generator = comprehension.generators[0]
        made = ast.ListComp(ast.Name(generator.target.id, ast.Load()),  # type: ignore[attr-defined]
                            [ast.comprehension(ast.Name(generator.target.id, ast.Store()),  # type: ignore
                                               ast.Name(CANDIDATES, ast.Load()), [first_tests[0]], 0)])
        inserts[first_at] = ast.fix_missing_locations(ast.copy_location(
            ast.Assign([ast.Name(shared, ast.Store())], made), node.body[first_at]))
        for at, tests in steps:
            step: ast.Assign = node.body[at]  # type: ignore[assignment]  # (a step)
            rest = tests[1:]
            if not rest:
                step.value = ast.copy_location(ast.Name(shared, ast.Load()), step.value)
                continue
            generator = step.value.generators[0]  # type: ignore[attr-defined]  # (a step)
            generator.iter = ast.copy_location(ast.Name(shared, ast.Load()), generator.iter)
            generator.ifs = [ast.copy_location(_all_of(rest), rest[0])]
    if inserts:
        body: list[ast.stmt] = []
        for at, statement in enumerate(node.body):
            if at in inserts:
                body.append(inserts[at])
            body.append(statement)
        node.body = body


def _cascade_tests(statement: ast.stmt) -> list[ast.expr] | None:
    """The tests, in the order they are made, of a cascade step `v___allowed = [c for c in v___candidates if
    A and B ...]` (None: `statement` is not one)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and _is_name(statement.targets[0], ALLOWED) and isinstance(statement.value, ast.ListComp)):
        return None
    comprehension = statement.value
    if len(comprehension.generators) != 1:
        return None
    generator = comprehension.generators[0]
    if not (_is_name(generator.iter, CANDIDATES) and isinstance(generator.target, ast.Name)
            and _is_name(comprehension.elt, generator.target.id) and not generator.is_async):
        return None
    tests: list[ast.expr] = []
    for test in generator.ifs:
        tests += test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return tests


def _shareable(test: ast.expr) -> bool:
    """A test computed once per candidate for several steps: it draws nothing at random, calls only built-ins,
    and names no temporary of an inlined call (which another step's test would name alike)."""
    return _pure(test) and not _temporary_names(test) and all(
        isinstance(n.func, ast.Name) and n.func.id.startswith("B_") for n in ast.walk(test) if isinstance(n, ast.Call))


# ---------------------------------------------------------------------------- steps
def _drop_light_steps(functions: dict[str, ast.FunctionDef], recursive: set[str]) -> None:
    """No step for a function whose whole call tree is small: its cost is bounded by the caller's."""
    weights: dict[str, float] = {}

    def weight(name: str) -> float:
        if name in recursive:
            return float("inf")
        if name not in weights:
            weights[name] = 1 + sum(weight(callee) for callee in _call_sites(functions[name], functions))
        return weights[name]
    for name, node in functions.items():
        if weight(name) <= LIGHT and node.body and _is_step(node.body[0]) and len(node.body) > 1:
            node.body = node.body[1:]


def _call_sites(node: ast.AST, functions: dict[str, ast.FunctionDef]) -> Iterator[str]:
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in functions:
            yield n.func.id


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

    def function(self, node: ast.FunctionDef) -> None:
        if _changes_nothing(node):
            self.shared = {}
            self.assigned = {n.id for statement in node.body for n in _statement_targets(statement)}
            body = self.statements(node.body)
            node.body = [ast.fix_missing_locations(ast.copy_location(_unset(name), node.body[0]))
                         for name in self.shared.values()] + body
            self.shared = None
        else:
            node.body = self.statements(node.body)

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
          "end_game", "announce", "refresh", "entering_step", "entered", "assert_fact", "retract_fact", "modify_fact",
          "reset_variables", "start_turns", "pass_turn", "goto"}


def _invariant_filter(node: ast.expr | None) -> bool:
    """Whether `node` is `[c for c in ITEMS if TEST]` with a TEST that does not read `c` (nor draw at random)."""
    if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
        return False
    generator = node.generators[0]
    return isinstance(generator.target, ast.Name) and isinstance(node.elt, ast.Name) and \
        node.elt.id == generator.target.id and bool(generator.ifs) and not generator.is_async and \
        all(generator.target.id not in _free(test) and _pure(test) for test in generator.ifs)


def _changes_nothing(node: ast.FunctionDef) -> bool:
    """Whether a generated function only computes: it calls none of the memory's writing methods."""
    return not any(isinstance(n, ast.Attribute) and _is_name(n.value, "M") and (n.attr in WRITES or n.attr == "rng")
                   for n in ast.walk(node))


def _statement_targets(statement: ast.stmt) -> list[ast.Name]:
    """The names a statement (and the statements in it) assign, outside comprehensions and lambdas."""
    found: list[ast.Name] = []
    for n in ast.walk(statement):
        if isinstance(n, (ast.Assign, ast.For)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            found += [t for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)]
    return found


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


def _own_names(node: ast.FunctionDef) -> set[str]:
    """The names a function reads, assigns or takes as parameters, outside the comprehensions and lambdas
    that bind them (a loop may bind a comprehension's item in the function only if it is none of these)."""
    return _free(node) | {n.id for statement in node.body for n in _statement_targets(statement)} | \
        {a.arg for a in node.args.args}


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


def _tests_as_loops(node: ast.FunctionDef, taken: set[str]) -> None:
    """Each `if` whose test is `all(e for c in items if f)` or `any(...)`, or ends with one after `and`,
    decides it with a loop that stops at the first item that settles it, in a flag (`_t` and a number the
    function does not use), where `c` is not one of the function's own names (`taken`)."""
    numbers = [int(n.id[2:]) for n in ast.walk(node) if isinstance(n, ast.Name) and n.id[:2] == "_t"
               and n.id[2:].isdigit()]
    flags = itertools.count(max(numbers, default=0) + 1)
    node.body = _rewritten(node.body, lambda statement: _test_as_loop(statement, taken, flags))


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


# ------------------------------------------------------------ reductions as functions
REDUCTION = "reduction_"  # a generated function that loops over the items of one reduction (+ a number)
KEYED_ORDER = {"B_max_keyed": ast.Gt, "B_min_keyed": ast.Lt}  # max keeps an item whose key is greater, min less
MODULE_NAMES = frozenset({"list", "dict", "zip", "range"})  # the namespace's own (naipes.language.linker)


def _reductions_as_functions(module: ast.Module) -> None:
    """Where an expression needs the value of `max(items, key=lambda c: e)`, `min(...)`, `any(e for c in items
    if f)` or `all(...)`, call a function of the module (`reduction_` and a number) that loops over the items
    with `e` and `f` written in its body, and takes the other names they read as parameters: no lambda or
    generator is made, nor called or resumed per item, and the names read are not a closure's. (An `if` on
    `all` or `any` is already a loop: see _tests_as_loops.)"""
    functions = {node.name: node for node in module.body if isinstance(node, ast.FunctionDef)}
    outliner = _Outliner(lambda name: name in functions or name in MODULE_NAMES or name[:2] in ("B_", "F_", "R_"),
                         functions)
    for node in list(module.body):
        if isinstance(node, ast.FunctionDef):
            outliner.visit(node)
    module.body += outliner.made


class _Outliner(ast.NodeTransformer):
    """Replaces each reduction it visits by a call of a function it makes (`made`), passing the names the
    reduction reads that are not the module's (`is_global`): innermost first."""

    def __init__(self, is_global: Callable[[str], bool], functions: dict[str, ast.FunctionDef]) -> None:
        self.is_global = is_global
        self.functions = functions  # (the module's, and the reductions made: see invariants)
        self.made: list[ast.FunctionDef] = []

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)  # (the reductions inside its items or its body first)
        parts = _reduction(node)
        if parts is None:
            return node
        kind, item, items, tests, value = parts
        bound = {n.id for n in ast.walk(item) if isinstance(n, ast.Name)}
        params = sorted(set().union(*map(_free, [value, *tests])) - bound - {"M", "V"})
        params = [name for name in params if not self.is_global(name)]
        name = f"{REDUCTION}{len(self.made) + 1}"
        signature = ast.arguments([], [ast.arg(n) for n in ("M", "V", ITEMS, *params)], None, [], [], None, [])
        unset, value, tests = self.invariants(frozenset(bound), value, tests)
        function = ast.FunctionDef(name, signature, unset + _reduction_body(kind, item, tests, value), [])
        self.made.append(ast.fix_missing_locations(ast.copy_location(function, value)))
        self.functions[name] = function
        call = ast.Call(ast.Name(name, ast.Load()), [ast.Name(n, ast.Load()) for n in ("M", "V")] + [items] +
                        [ast.Name(n, ast.Load()) for n in params], [])
        return ast.fix_missing_locations(ast.copy_location(call, node))

    def invariants(self, item: frozenset[str], value: ast.expr,
                   tests: list[ast.expr]) -> tuple[list[ast.stmt], ast.expr, list[ast.expr]]:
        """The calls in a reduction's value and tests that do not read its item (a trick's lead suit in the
        key of each of its cards), computed at most once per call of its function, when first needed: as a
        function that changes nothing remembers them (_Hoister.function); the statements that start them
        unset, and the value and tests that read them."""
        hoister = _Hoister(self.functions)
        hoister.shared = {}
        parts = []
        for part in (value, *tests):
            hoister.temporaries = _temporary_names(part)
            parts.append(hoister.visit(part, item, [], False))
        return [_unset(name) for name in hoister.shared.values()], parts[0], parts[1:]


ITEMS, BEST, TOP, KEY = "v___items", "v___best", "v___top", "v___key"  # a reduction's own variables


def _reduction(call: ast.Call) -> tuple[str, ast.expr, ast.expr, list[ast.expr], ast.expr] | None:
    """(kind, item, items, tests, value) of a reduction that can be its own function, or None: `max` or `min` of one
    collection with a lambda of one parameter as its only keyword, or `any` or `all` of a generator over one
    collection. Not one whose value or tests set a name (`:=`): a generator's would be its function's."""
    if not (isinstance(call.func, ast.Name) and len(call.args) == 1 and not isinstance(call.args[0], ast.Starred)):
        return None
    kind = call.func.id
    item: ast.expr
    if kind in KEYED_ORDER:
        key = call.keywords[0].value if len(call.keywords) == 1 and call.keywords[0].arg == "key" else None
        if not isinstance(key, ast.Lambda) or len(key.args.args) != 1 or key.args.posonlyargs or \
                key.args.kwonlyargs or key.args.vararg or key.args.kwarg or key.args.defaults:
            return None
        item, items, tests, value = ast.Name(key.args.args[0].arg, ast.Store()), call.args[0], [], key.body
    elif kind in ("B_any", "B_all") and not call.keywords and isinstance(call.args[0], ast.GeneratorExp):
        generator = call.args[0]
        if len(generator.generators) != 1 or generator.generators[0].is_async:
            return None
        loop = generator.generators[0]
        item, items, tests, value = loop.target, loop.iter, loop.ifs, generator.elt
    else:
        return None
    if any(isinstance(n, ast.NamedExpr) for part in (value, *tests) for n in ast.walk(part)):
        return None
    return kind, item, items, tests, value


def _reduction_body(kind: str, item: ast.expr, tests: list[ast.expr], value: ast.expr) -> list[ast.stmt]:
    """The statements of a reduction's function: a loop over ITEMS that keeps the first item whose key no
    later key beats (max, min: as the built-in compares them) or returns at the first value that settles it
    (any, all); an empty collection's max or min is the built-in's, which says why it has none."""
    def name(n: str, ctx: ast.expr_context | None = None) -> ast.Name:
        return ast.Name(n, ctx or ast.Load())
    if kind in KEYED_ORDER:
        unset = ast.Compare(name(BEST), [ast.Is()], [name(UNSET)])
        better = ast.Compare(name(KEY), [KEYED_ORDER[kind]()], [name(TOP)])
        assert isinstance(item, ast.Name)  # (a lambda's parameter: _reduction)
        keep: list[ast.stmt] = [ast.Assign([name(BEST, ast.Store())], name(item.id)),
                                ast.Assign([name(TOP, ast.Store())], name(KEY))]
        loop: list[ast.stmt] = [ast.Assign([name(KEY, ast.Store())], value),
                                ast.If(ast.BoolOp(ast.Or(), [unset, better]), keep, [])]
        empty = ast.Call(name(kind), [name(ITEMS)], [])
        return [ast.Assign([name(BEST, ast.Store())], name(UNSET)), ast.For(item, name(ITEMS), loop, []),
                ast.If(copy.deepcopy(unset), [ast.Return(empty)], []), ast.Return(name(BEST))]
    every = kind == "B_all"  # all: the first false value settles it; any: the first true one
    settled: ast.stmt = ast.If(ast.UnaryOp(ast.Not(), value) if every else value,
                               [ast.Return(ast.Constant(not every))], [])
    if tests:
        settled = ast.If(_all_of(tests), [settled], [])
    return [ast.For(item, name(ITEMS), [settled], []), ast.Return(ast.Constant(every))]


# -------------------------------------------------------------------- constant folding
NUMBER_LIMIT = 2 ** 64  # an integer folded may be at most this large (a product of literals stays small)
COMPARISONS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
               ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
               ast.NotIn: lambda a, b: a not in b, ast.Is: operator.is_, ast.IsNot: operator.is_not}
ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.BitAnd: operator.and_,
              ast.BitOr: operator.or_}


class _Folder:
    """Constant sub-expressions computed once, here, and the branches they rule out dropped.

    Inlining puts literal arguments (and a rule file's params are literals) where parameters were, so the code
    is full of tests whose answer is known: ``X if 40 == 48 else Y``, ``V['stage'] == 'draw' and True``,
    ``if False:``. Only what is certainly constant and cannot fail is computed: comparisons and arithmetic of
    literal numbers, texts, True, False and None (comparisons also of tuples and lists of them); ``not``, a
    conditional expression, ``and`` and ``or`` whose deciding operand is such a literal. Nothing that calls,
    reads a variable or could raise or grow is (no ``**``, no division by zero, no text or list arithmetic,
    which the engine bounds at run time: ``B_times``, ``B_plus``). An operand is dropped only where Python's
    value is the same without it: ``True and X`` is X, but ``X and True`` is X only where X is a comparison or
    a ``not`` (a comparison of the engine's values is always a bool), or where only its truth counts (a test).
    What remains keeps its own location; what replaces an inlined call keeps the steps it charged."""

    def statements(self, body: list[ast.stmt], where: ast.stmt | None = None) -> list[ast.stmt]:
        """`body` folded; an `if` whose test is a constant becomes the branch it takes (`where`: a statement
        that needs a body, where an empty one gets a `pass`)."""
        out: list[ast.stmt] = []
        for statement in body:
            out += self.statement(statement)
        if not out and where is not None:
            out = [ast.copy_location(ast.Pass(), where)]
        return out

    def statement(self, statement: ast.stmt) -> list[ast.stmt]:
        if isinstance(statement, ast.If):
            statement.test = self.expr(statement.test, True)
            if isinstance(statement.test, ast.Constant):
                return self.statements(statement.body if statement.test.value else statement.orelse)
        for field, value in ast.iter_fields(statement):
            if isinstance(value, ast.expr):
                setattr(statement, field, self.expr(value, False))
            elif isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(statement, field, self.statements(value, statement if field == "body" else None))
            elif isinstance(value, list):
                setattr(statement, field, [self.expr(v, False) if isinstance(v, ast.expr) else v for v in value])
        return [statement]

    def expr(self, node: ast.expr, test: bool) -> ast.expr:
        """`node` folded (`test`: only its truth counts, as in an `if`'s test)."""
        if isinstance(node, ast.IfExp):
            node.test = self.expr(node.test, True)
            if isinstance(node.test, ast.Constant):
                return _moved(node, self.expr(node.body if node.test.value else node.orelse, test))
            node.body, node.orelse = self.expr(node.body, test), self.expr(node.orelse, test)
            return _truth(node, test)
        if isinstance(node, ast.BoolOp):
            node.values = [self.expr(value, test) for value in node.values]
            return self.boolean(node, test)
        if isinstance(node, ast.UnaryOp):
            node.operand = self.expr(node.operand, isinstance(node.op, ast.Not))
            return _unary(node)
        if isinstance(node, COMPREHENSIONS):
            for generator in node.generators:
                generator.iter = self.expr(generator.iter, False)
                generator.ifs = [self.expr(t, True) for t in generator.ifs]
                generator.ifs = [t for t in generator.ifs if not (isinstance(t, ast.Constant) and t.value)]
            if isinstance(node, ast.DictComp):
                node.key, node.value = self.expr(node.key, False), self.expr(node.value, False)
            else:
                node.elt = self.expr(node.elt, False)
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.expr(value, False))
            elif isinstance(value, list):
                setattr(node, field, [self.expr(v, False) if isinstance(v, ast.expr) else
                                      self.keyword(v) if isinstance(v, ast.keyword) else v for v in value])
        if isinstance(node, ast.Compare):
            return _compared(node, test)
        if isinstance(node, ast.BinOp):
            return _arithmetic(node)
        return node

    def keyword(self, keyword: ast.keyword) -> ast.keyword:
        keyword.value = self.expr(keyword.value, False)
        return keyword

    def boolean(self, node: ast.BoolOp, test: bool) -> ast.expr:
        """`a and b and ...` without the literals that decide nothing; cut at the first that decides."""
        goes_on = isinstance(node.op, ast.And)  # the truth of a literal that lets the evaluation go on
        kept: list[ast.expr] = []
        for i, value in enumerate(node.values):
            if not isinstance(value, ast.Constant):
                kept.append(value)
            elif bool(value.value) != goes_on:  # it decides: the value, if reached
                kept.append(value)
                break
            elif i < len(node.values) - 1:  # `True and X` is X (wherever it is: `A and True and B` is `A and B`)
                continue
            elif not kept or not (test or (value.value is goes_on and _is_bool(kept[-1]))):
                kept.append(value)  # `A and True` is A only where A is a bool (`A and 1` is not), or in a test
        if len(kept) == 1:
            return _moved(node, kept[0])
        node.values = kept
        return node


def _moved(old: ast.expr, new: ast.expr) -> ast.expr:
    """`new` in the place of `old` (which it is part of, or was made from): it charges the steps of an inlined
    call `old` was (see _Charger), and a node made here is located where `old` was."""
    steps = getattr(old, "_steps", 0)
    if steps and not isinstance(new, ast.Constant):
        new._steps = max(steps, getattr(new, "_steps", 0))  # type: ignore[attr-defined]
    if not hasattr(new, "lineno"):
        ast.copy_location(new, old)
    return new


def _is_bool(node: ast.expr) -> bool:
    """Whether `node`'s value is certainly True or False: a comparison (of the engine's values: numbers, texts,
    None, cards, players, zones, facts, and tuples and lists of them, all compared to a bool), a `not`, a
    literal bool, or `and`, `or` and conditional expressions of these."""
    if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.BoolOp):
        return all(_is_bool(value) for value in node.values)
    if isinstance(node, ast.IfExp):
        return _is_bool(node.body) and _is_bool(node.orelse)
    return False


def _truth(node: ast.IfExp, test: bool) -> ast.expr:
    """`True if c else False` is c (a bool, or where only its truth counts); `False if c else True` is `not c`."""
    body, orelse = node.body, node.orelse
    if isinstance(body, ast.Constant) and isinstance(orelse, ast.Constant) and \
            isinstance(body.value, bool) and isinstance(orelse.value, bool) and body.value != orelse.value:
        if not body.value:
            return _moved(node, ast.UnaryOp(ast.Not(), node.test))
        if test or _is_bool(node.test):
            return _moved(node, node.test)
    return node


def _literal(node: ast.expr, depth: int = 0) -> tuple[bool, object]:
    """(True, its value) for a literal: a constant, or a tuple or list of them (small and shallow)."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, (ast.Tuple, ast.List)) and depth < 3 and len(node.elts) <= 64:
        values = []
        for element in node.elts:
            known, value = _literal(element, depth + 1)
            if not known:
                return False, None
            values.append(value)
        return True, tuple(values) if isinstance(node, ast.Tuple) else values
    return False, None


def _compare(left: object, ops: list[ast.cmpop], comparators: list[object]) -> bool | None:
    """Python's `left op comparator ...` for literals, or None where it would fail or depend on identity."""
    for op, right in zip(ops, comparators):
        if isinstance(op, (ast.Is, ast.IsNot)) and not any(v is None or isinstance(v, bool) for v in (left, right)):
            return None  # (whether two equal numbers or texts are one object is Python's choice)
        try:
            result = COMPARISONS[type(op)](left, right)
        except Exception:  # a comparison that fails at run time is left to fail there
            return None
        if not isinstance(result, bool):
            return None
        if not result:
            return False
        left = right
    return True


def _compared(node: ast.Compare, test: bool) -> ast.expr:
    """A comparison of literals, computed; one of a conditional expression of literals with a literal,
    computed in each branch (`(2 if c else 1) > 1` is `True if c else False`, which is c)."""
    known, left = _literal(node.left)
    values = [_literal(c) for c in node.comparators]
    if known and all(k for k, _ in values):
        result = _compare(left, node.ops, [v for _, v in values])
        return node if result is None else _moved(node, ast.Constant(result))
    if len(node.ops) == 1:
        if isinstance(node.left, ast.IfExp) and values[0][0]:
            spread = _spread(node.left, lambda side: _compare(side, node.ops, [values[0][1]]))
        elif known and isinstance(node.comparators[0], ast.IfExp):
            spread = _spread(node.comparators[0], lambda side: _compare(left, node.ops, [side]))
        else:
            spread = None
        if spread is not None:
            return _moved(node, _truth(spread, test) if isinstance(spread, ast.IfExp) else spread)
    return node


def _spread(node: ast.expr, compare: Callable[[object], bool | None]) -> ast.expr | None:
    """The conditional expression `node` (of literals) with `compare` applied to each branch, or None."""
    if isinstance(node, ast.IfExp):
        body, orelse = _spread(node.body, compare), _spread(node.orelse, compare)
        if body is None or orelse is None:
            return None
        spread = ast.IfExp(node.test, body, orelse)
        _moved(node, spread)
        return _moved(node, _truth(spread, False))
    known, value = _literal(node)
    result = compare(value) if known else None
    return None if result is None else ast.copy_location(ast.Constant(result), node)


def _unary(node: ast.UnaryOp) -> ast.expr:
    """`not`, `-`, `+` and `~` of a literal, computed."""
    operand = node.operand
    if not isinstance(operand, ast.Constant):
        return node
    value = operand.value
    if isinstance(node.op, ast.Not):
        return _moved(node, ast.Constant(not value))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _moved(node, ast.Constant(-value if isinstance(node.op, ast.USub) else value))
    if type(value) is int and isinstance(node.op, ast.Invert):
        return _moved(node, ast.Constant(~value))
    return node


def _arithmetic(node: ast.BinOp) -> ast.expr:
    """Arithmetic of two literal numbers, computed where it cannot fail, grow large or leave the finite
    floats (never of texts or lists, never `**`)."""
    left, right = node.left, node.right
    operation = ARITHMETIC.get(type(node.op))
    if operation is None or not (isinstance(left, ast.Constant) and isinstance(right, ast.Constant)):
        return node
    a, b = left.value, right.value
    if type(a) not in (int, float) or type(b) not in (int, float) or \
            (isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and b == 0) or \
            (isinstance(node.op, (ast.BitAnd, ast.BitOr)) and not (type(a) is int and type(b) is int)):
        return node
    try:
        result = operation(a, b)
    except (ArithmeticError, ValueError):
        return node
    if (type(result) is int and abs(result) > NUMBER_LIMIT) or (type(result) is float and not math.isfinite(result)):
        return node
    return _moved(node, ast.Constant(result))
