"""Inlining: a call of a small rule-file function written as one expression becomes that expression.

A pass over the compiler's own tree (:mod:`naipes.language.nodes`), before code generation. The calls it
inlines are of a rule file's functions (a :class:`~naipes.language.nodes.Call` the resolver found to call one)
and of the generated conditions that are tested elsewhere (a :class:`~naipes.language.nodes.Generated` call of
a rule's or a phase's condition, in the agenda's evaluation), when the function is not recursive and its body is
one expression (after its step). ``follows(c)`` in a legality test is then ``c.suit == lead_suit()``'s own
expression, not three calls deep.

Parameters are replaced by the arguments. An argument that is not a plain value (a name, a constant, an
attribute of one) is put in only where the parameter is read exactly once, outside any loop or lambda; read more
often, it is computed once, into a temporary (:class:`~naipes.language.nodes.Keep`) at the parameter's first
reading, when that reading is sure to come first (not behind a test that may skip it) and the call is not in a
comprehension's collection (where Python allows no assignment); else the call stays a call, so nothing is
computed more often than before. The names a lambda or a comprehension of the body binds are renamed afresh
(``_3_c``), so nothing is captured. Inlined code keeps its locations, so a fault inside it is reported in the
function it came from, and the node records the steps its call charged (:attr:`Node.steps`), which
:mod:`naipes.language.steps` still charges where repeating it could run away.
"""
from __future__ import annotations

from collections.abc import Iterator

from . import nodes as n
from .codegen import INLINED, Line, Writer, draws_at_random, local_name
from .sections import FUNCTION

INLINE_SIZE = 120  # the largest function expression (in nodes) that is inlined
CONDITIONS = ("rule_when", "phase_when", "phase_test")  # generated conditions, inlined where they are tested
LOOPS = (n.Lambda, n.Comprehension, n.Filter)  # what may compute its body many times


def inlinable(definitions: list[n.Definition]) -> dict[str, n.Definition]:
    """The definitions whose calls may be inlined: rule-file functions and generated conditions, by name."""
    return {d.name: d for d in definitions if d.kind in (FUNCTION, *CONDITIONS)}


def callee(node: n.Node) -> str | None:
    """The name of the generated function `node` calls, if it calls one of the module's."""
    if isinstance(node, n.Call) and node.target == n.CALL_FUNCTION:
        return node.definition
    if isinstance(node, n.Generated):
        return node.name
    return None


def calls(node: n.Node, among: dict[str, n.Definition]) -> Iterator[str]:
    """The names of the functions of `among` that `node` calls, one per call."""
    for found in node.find_all(n.Expr):
        name = callee(found)
        if name in among:
            yield name


def is_step(statement: n.Stmt) -> bool:
    """`M.step()`: the charge of one call of a rule-file function (naipes.library.limits)."""
    return isinstance(statement, n.Do) and isinstance(statement.call, n.MemoryCall) and statement.call.method == "step"


def expression_body(definition: n.Definition) -> n.Expr | None:
    """The expression a function returns, when its body is only that (after its step)."""
    body = definition.body
    if isinstance(body, n.Expr):
        return body
    if body and is_step(body[0]):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], n.Return) and body[0].value is not None:
        return body[0].value
    return None


def size(node: n.Node) -> int:
    return sum(1 for _ in node.find_all(n.Node))


def clone(node: n.N) -> n.N:
    """A copy of `node` and of every node under it (the lists of names a lambda or a comprehension binds too)."""
    new = n.shallow_copy(node)
    for name in node.fields:
        value = getattr(node, name)
        if isinstance(value, n.Node):
            setattr(new, name, clone(value))
        elif isinstance(value, list):
            setattr(new, name, [clone(item) if isinstance(item, n.Node) else item for item in value])
    if isinstance(new, n.Lambda):
        new.params = list(new.params)
    elif isinstance(new, n.ForClause):
        new.names = list(new.names)
    return new


def free_locals(node: n.Node) -> set[str]:
    """The locals (by Python name) and temporaries `node` reads that it does not bind itself (in a lambda, a
    comprehension or a filter)."""
    if isinstance(node, n.Name):
        return {local_name(node.id)} if node.meaning == n.LOCAL else set()
    if isinstance(node, (n.Temporary, n.Remember)):
        return {node.name} | (free_locals(node.value) if isinstance(node, n.Remember) else set())
    if isinstance(node, n.Lambda):
        return free_locals(node.body) - {local_name(param) for param in node.params}
    if isinstance(node, n.Filter):
        return free_locals(node.items) | (free_locals(node.test) - {local_name(node.item or "_")})
    if isinstance(node, n.Comprehension):
        found: set[str] = set()
        bound: set[str] = set()
        for clause in node.clauses:
            found |= free_locals(clause.iterable) - bound
            bound |= {local_name(name) for name in clause.names}
            if clause.condition is not None:
                found |= free_locals(clause.condition) - bound
        return found | (free_locals(node.element) - bound)
    found = set()
    for child in node.children():
        found |= free_locals(child)
    return found


def canonical_code(nodes: list[n.Node], free: set[str], writer: Writer) -> str:
    """What `nodes` (statements or expressions) compute, as text: equal for code that differs only in the names its
    loops, lambdas, comprehensions and filters bind (the inliner names them afresh at each call site), each renamed
    in a copy by the order it is bound in. A name also read from around it (in `free`, by Python name) keeps its
    name; `writer` writes the text (one for all the code compared: its card tables keep their names)."""
    copied = [clone(node) for node in nodes]
    canonical: dict[str, str] = {}

    def renamed(names: list[str]) -> list[str]:
        for name in names:
            if local_name(name) not in free:
                canonical.setdefault(name, f"_{len(canonical)}")
        return [canonical.get(name, name) for name in names]
    found = [inner for node in copied for inner in node.find_all(n.Node)]
    for node in found:
        if isinstance(node, n.Lambda):
            node.params = renamed(node.params)
        elif isinstance(node, (n.ForClause, n.Loop)):
            node.names = renamed(node.names)
        elif isinstance(node, n.Filter) and node.item is not None:
            node.item = renamed([node.item])[0]
    for node in found:
        if isinstance(node, n.Name) and node.meaning == n.LOCAL:
            node.id = canonical.get(node.id, node.id)
    lines: list[Line] = []
    texts = []
    for node in copied:
        if isinstance(node, n.Stmt):
            writer.statements([node], 0, lines)
        else:
            texts.append(writer.expr(node))
    return INLINED.sub("", "\n".join([line for _, line, _, _ in lines] + texts))


def trivial(node: n.Node) -> bool:
    """A value cheap to compute again: a name, a constant, an attribute or a constant index of one."""
    if isinstance(node, (n.Number, n.String, n.Constant, n.Temporary, n.Bits)):
        return True
    if isinstance(node, (n.Name, n.Literal)):
        return not isinstance(node.value, (list, tuple, dict))
    if isinstance(node, n.Attribute):
        return not node.per_player_memory and trivial(node.base)
    if isinstance(node, n.Subscript):
        index = node.index
        return trivial(node.base) and (isinstance(index, (n.Number, n.String, n.Constant)) or
                                       (isinstance(index, n.Name) and index.meaning != n.GLOBAL and trivial(index)))
    return False


def reads(body: n.Node, names: set[str]) -> dict[str, tuple[int, bool]]:
    """How often each local of `names` is read in `body`, and whether any read is inside a loop or a lambda."""
    found: dict[str, tuple[int, bool]] = {}
    _count_reads(body, False, names, found)
    return found


def _count_reads(node: n.Node, in_loop: bool, names: set[str], found: dict[str, tuple[int, bool]]) -> None:
    if isinstance(node, n.Name) and node.meaning == n.LOCAL and node.id in names:
        count, looped = found.get(node.id, (0, False))
        found[node.id] = (count + 1, looped or in_loop)
    inner = in_loop or isinstance(node, LOOPS)
    for child in node.children():
        _count_reads(child, inner, names, found)


def first_reading(body: n.Node, name: str) -> n.Name | None:
    """The reading of local `name` that comes first when `body` is computed, if it is sure to happen whatever the
    tests on the way decide (None otherwise: it is behind a test, in a loop or lambda, or there is none)."""
    return _first_reading(body, name, True)[1]


def _reads_local(node: n.Node, name: str) -> bool:
    return isinstance(node, n.Name) and node.meaning == n.LOCAL and node.id == name


def _first_reading(node: n.Node, name: str, sure: bool) -> tuple[bool, n.Name | None]:
    """(whether `node` reads local `name`, the reading if it is sure to come first)"""
    if _reads_local(node, name):
        return True, node if sure else None  # type: ignore[return-value]  # (a Name: _reads_local)
    if isinstance(node, LOOPS):
        return any(_reads_local(inner, name) for inner in node.find_all(n.Name)), None
    parts: list[tuple[n.Node, bool]]
    if isinstance(node, n.IfExp):
        parts = [(node.test, sure), (node.body, False), (node.orelse, False)]
    elif isinstance(node, n.BoolOp):
        parts = [(value, sure and i == 0) for i, value in enumerate(node.values)]
    elif isinstance(node, n.Compare):
        parts = [(node.first, sure), *((operand, sure and i == 0) for i, operand in enumerate(node.operands))]
    else:
        parts = [(child, sure) for child in node.children()]
    for child, child_sure in parts:
        found, reading = _first_reading(child, name, child_sure)
        if found:
            return found, reading
    return False, None


def steps_outside_loops(node: n.Node) -> int:
    """The steps the calls inlined in `node` charged, outside its comprehensions and lambdas (which charge their
    own per item or per call)."""
    if node.steps:
        return node.steps
    if isinstance(node, LOOPS):
        return 0
    return sum(steps_outside_loops(child) for child in node.children())


PLAIN = (n.Name, n.Number, n.String, n.Constant, n.Literal, n.Temporary)  # values that cannot fault


class Inliner:
    """Replaces calls of small functions by their expressions, inside out (see the module's docstring)."""

    def __init__(self, functions: dict[str, n.Definition], recursive_names: set[str]):
        self.functions, self.recursive = functions, recursive_names
        self.fresh = 0
        self.renamed: dict[str, str] = {}  # a name this inliner gave a local -> the local's own name (_3_c -> c)
        self.what = ""  # what the definition being inlined into is (the origin of the arguments put in a body)

    def definition(self, definition: n.Definition) -> None:
        """Inline the calls in `definition` (changed in place)."""
        self.what = definition.what
        if isinstance(definition.body, list):
            definition.body = [self.visit(statement) for statement in definition.body]  # type: ignore[misc]
        else:
            definition.body = self.visit(definition.body)  # type: ignore[assignment]

    def visit(self, node: n.Node, iterable: bool = False) -> n.Node:
        """`node` with its calls inlined (`iterable`: it is part of a comprehension's collection)."""
        if isinstance(node, n.Comprehension):
            for clause in node.clauses:
                clause.iterable = self.visit(clause.iterable, True)  # type: ignore[assignment]
                if clause.condition is not None:
                    clause.condition = self.visit(clause.condition, iterable)  # type: ignore[assignment]
            node.element = self.visit(node.element, iterable)  # type: ignore[assignment]
            return node
        node.replace_children(lambda child: self.visit(child, iterable))
        return self.inlined(node, iterable) if isinstance(node, (n.Call, n.Generated)) else node

    def inlined(self, node: n.Call | n.Generated, iterable: bool) -> n.Node:
        name = callee(node)
        if name not in self.functions or name in self.recursive:
            return node
        definition = self.functions[name]
        body = expression_body(definition)
        args = node.args if isinstance(node, n.Call) else []
        if body is None or size(body) > INLINE_SIZE or any(isinstance(arg, n.Keyword) for arg in args) or \
                len(definition.params) != len(args) or (iterable and next(body.find_all(n.Keep), None)):
            return node  # (a comprehension's collection may assign nothing, not even inside what is inlined)
        body = clone(body)
        counts = reads(body, set(definition.params))
        mapping: dict[str, n.Expr] = {}
        firsts: dict[int, n.Keep] = {}  # id of a parameter's first reading -> what keeps its argument
        for param, arg in zip(definition.params, args):
            assert isinstance(arg, n.Expr)  # (no keywords: above)
            if not isinstance(arg, PLAIN) and not arg.origin:
                arg.origin = self.what  # (its faults are the caller's, though it is written in the body)
            count, in_loop = counts.get(param, (0, False))
            if draws_at_random(arg):
                return node
            if trivial(arg) or count == 0 or (count == 1 and not in_loop):
                mapping[param] = arg
                continue
            first = None if iterable else first_reading(body, param)
            if first is None:
                return node
            self.fresh += 1
            temporary = f"_t{self.fresh}"
            mapping[param] = typed(n.Temporary(temporary, at=arg.at), arg.type)
            firsts[id(first)] = typed(n.Keep(temporary, arg, at=arg.at), arg.type)
        inlined = self.substitute(body, mapping, {}, firsts)
        inlined.steps = 1 + steps_outside_loops(inlined)
        inlined.origin = definition.what
        return inlined

    def substitute(self, node: n.Node, mapping: dict[str, n.Expr], renamed: dict[str, str],
                   firsts: dict[int, n.Keep]) -> n.Node:
        """`node` with the parameters of `mapping` replaced (copies of the arguments; a parameter's first reading
        keeps its argument in a temporary) and every name it binds (lambda parameters, comprehension variables)
        renamed afresh (`renamed`: those bound around `node`), so that nothing is captured."""
        if isinstance(node, n.Name) and node.meaning == n.LOCAL:
            if node.id in renamed:
                node.id = renamed[node.id]
                return node
            if node.id in mapping:
                keep = firsts.get(id(node))
                return clone(keep) if keep is not None else clone(mapping[node.id])
            return node
        if isinstance(node, n.Lambda):
            inner = dict(renamed)
            node.params = [self.bind(param, inner) for param in node.params]
            node.body = self.substitute(node.body, mapping, inner, firsts)  # type: ignore[assignment]
            return node
        if isinstance(node, n.Comprehension):
            inner = dict(renamed)
            for i, clause in enumerate(node.clauses):
                clause.iterable = self.substitute(clause.iterable, mapping, renamed if i == 0 else inner,  # type: ignore
                                                  firsts)
                clause.names = [self.bind(name, inner) for name in clause.names]
                if clause.condition is not None:
                    clause.condition = self.substitute(clause.condition, mapping, inner, firsts)  # type: ignore
            node.element = self.substitute(node.element, mapping, inner, firsts)  # type: ignore[assignment]
            return node
        node.replace_children(lambda child: self.substitute(child, mapping, renamed, firsts))
        return node

    def bind(self, name: str, renamed: dict[str, str]) -> str:
        """A fresh name for a local `name` bound here, recorded in `renamed` (a name no rule file can write:
        theirs cannot start with '_')."""
        self.fresh += 1
        own = self.renamed.get(name, name)  # (a body inlined twice over is renamed from its local's own name)
        renamed[name] = fresh = f"_{self.fresh}_{own}"
        self.renamed[fresh] = own
        return fresh


def typed(node: n.N, type_: str | None) -> n.N:
    node.type = type_
    return node
