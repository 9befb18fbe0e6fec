"""Reductions as functions: where an expression needs the value of ``max(items, key=lambda c: e)``, ``min(...)``,
``any(e for c in items if f)`` or ``all(...)`` (a trick's best card inside a legality test, its winner), a function
of the module loops over the items with ``e`` and ``f`` written in its body.

A pass over the compiler's own tree (:mod:`naipes.language.nodes`), the last one (after steps are charged: a key's
charges stay in the items given and in the key's body). Each reduction becomes a call of a new
:class:`~naipes.language.nodes.Definition` of kind :data:`REDUCTION` (``reduction_`` and a number), which takes the
locals and temporaries its key or test reads as values after its items: no lambda or generator is made, called or
resumed per item, and the function that needs the value keeps its names out of a closure. Innermost first: a
reduction inside another's key is a call in the outer one's body.

An ``if`` on ``all(...)`` or ``any(...)`` (alone, or last after ``and``) is left as it is, where its loop can bind
the item in the function: a loop decides it in place (:mod:`naipes.language.loops`). The free
locals of each node are found once, bottom up, as the pass goes (:func:`Outliner.visit`), not walked again.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..errors import Location
from . import nodes as n
from .codegen import Writer, cheap, local_name
from .inlining import canonical_code

Where = n.Position | Location | None

REDUCTION = "reduction"  # the kind of a reduction's function (naipes.language.sections.Definition.kind)
NAME = "reduction_"  # a reduction's function is named so, and a number
ITEMS, BEST, TOP, KEY = "__items", "__best", "__top", "__key"  # a reduction's own locals (no file names one)
ORDER = {"max": ">", "min": "<"}  # max keeps an item whose key is greater, min less
SETTLES = {"any": True, "all": False}  # the value of the first item that settles it (any: true, all: false)

# What a node reads from around it: its free locals (by Python name) and the temporaries of inlined calls it reads,
# each with a node that reads it, and the temporaries it keeps (KEEPS and the name).
Free = dict[str, n.Expr]
KEEPS = ":="


def outline_reductions(definitions: list[n.Definition]) -> None:
    """Outline the reductions of `definitions`, appending the functions made to it."""
    outliner = Outliner()
    for definition in list(definitions):
        outliner.definition(definition)
    definitions += outliner.made


class Outliner:
    """Replaces each reduction it visits by a call of a function it makes (`made`)."""

    def __init__(self) -> None:
        self.made: list[n.Definition] = []
        self.what = ""  # what the definition being visited is
        self.current: n.Definition | None = None  # the definition being visited
        self.taken: set[str] | None = None  # its own locals, by Python name, once needed (own_names)
        self.inside: dict[int, Free] = {}  # what each lambda and generator visited reads inside (by id)
        self.names: dict[tuple[str, str, str], str] = {}  # the function made for each reduction's code (_code)
        # the origin of the code being visited (naipes.language.nodes.Node.origin) and where it is: the definition's
        # and the statement's, or an inlined function's
        self.origin: tuple[str, Where] = ("", None)

    def definition(self, definition: n.Definition) -> None:
        self.what, body = definition.what, definition.body
        self.origin = (self.what, None)
        if isinstance(body, list):
            self.current, self.taken = definition, None
            self.visit_statements(body)
        else:
            self.origin = (self.what, body.at)
            definition.body = self.visit(body, {})

    def visit_statements(self, body: list[n.Stmt], dry: bool = False) -> Free:
        """The free locals of `body` (dry: found, nothing outlined); its reductions outlined."""
        free: Free = {}
        for statement in body:
            self.origin = (self.what, statement.at)
            if isinstance(statement, n.If):
                self.test(statement, free, dry)
                free.update(self.visit_statements(statement.body, dry))
                for branch in statement.branches:
                    if branch.test is not None:
                        self.origin = (self.what, branch.at)
                        self.test(branch, free, dry)
                    free.update(self.visit_statements(branch.body, dry))
                continue
            for name in statement.fields:
                value = getattr(statement, name)
                if isinstance(value, list) and value and isinstance(value[0], n.Stmt):
                    free.update(self.visit_statements(value, dry))
                elif isinstance(value, n.Expr):
                    setattr(statement, name, self.visit(value, free, dry))
                elif isinstance(value, n.AttrTarget):
                    value.base = self.visit(value.base, free, dry)
                elif isinstance(value, list):
                    setattr(statement, name, [self.visit(item, free, dry) for item in value])
        return free

    def test(self, node: n.If | n.Branch, free: Free, dry: bool) -> None:
        """An `if`'s test; a last `all(...)` or `any(...)` whose item the function does not use stays (a loop decides
        it in place: naipes.language.loops), and what is inside it is visited."""
        test = node.test
        assert test is not None
        last = test.values[-1] if isinstance(test, n.BoolOp) and test.op == "and" else test
        if dry or not settled_by_loop(last, self.own_names):
            node.test = self.visit(test, free, dry)
            return
        if isinstance(test, n.BoolOp) and last is not test:
            test.values[:-1] = [self.visit(part, free) for part in test.values[:-1]]
        assert isinstance(last, n.Call)  # (settled_by_loop)
        self.visit_children(last.args[0], free)

    def own_names(self) -> set[str]:
        """The locals the definition being visited takes, assigns or reads outside the lambdas and comprehensions
        that bind them, by Python name: a loop in it may bind none of them (found when first needed)."""
        if self.taken is None:
            assert self.current is not None and isinstance(self.current.body, list)
            around, body = self.origin, self.current.body
            self.taken = {local_name(p) for p in self.current.params} | assigned_locals(body) | set(
                self.visit_statements(body, dry=True))
            self.origin = around
        return self.taken

    def visit(self, node: n.Expr, free: Free, dry: bool = False) -> n.Expr:
        """`node` with its reductions outlined (innermost first); its free locals added to `free`."""
        inner: Free = {}
        around = self.origin
        if node.origin:
            self.origin = (node.origin, node.at)
        self.visit_children(node, inner, dry)
        self.origin = around
        if isinstance(node, n.Name) and node.meaning == n.LOCAL:
            inner[local_name(node.id)] = node
        elif isinstance(node, n.Temporary):
            inner[node.name] = node
        elif isinstance(node, n.Keep):
            inner[KEEPS + node.name] = node
        elif isinstance(node, n.Lambda):
            bound = {local_name(p) for p in node.params}
            inner = {name: read for name, read in inner.items() if name not in bound}
            self.inside[id(node)] = inner
        if not dry:
            parts = _reduction(node, self.inside)
            if parts is not None:
                node = self.outlined(node, *parts)  # type: ignore[arg-type]  # (a Call: _reduction)
        free.update(inner)
        return node

    def visit_children(self, node: n.Node, free: Free, dry: bool = False) -> None:
        """Each child of `node` visited; a comprehension's clauses bind their names for what follows them (what
        it reads besides its first collection is kept in `inside`), a filter its item in its test."""
        if isinstance(node, n.Comprehension):
            bound: set[str] = set()
            inside: Free = {}
            for i, clause in enumerate(node.clauses):
                clause.iterable = self.visit_bound(clause.iterable, free if i == 0 else inside, bound, dry)
                bound |= {local_name(name) for name in clause.names}
                if clause.condition is not None:
                    clause.condition = self.visit_bound(clause.condition, inside, bound, dry)
            element = node.element
            if isinstance(element, n.Pair):
                element.key = self.visit_bound(element.key, inside, bound, dry)
                element.value = self.visit_bound(element.value, inside, bound, dry)
            else:
                node.element = self.visit_bound(element, inside, bound, dry)
            self.inside[id(node)] = inside
            free.update(inside)
            return
        if isinstance(node, n.Filter):
            node.items = self.visit(node.items, free, dry)
            node.test = self.visit_bound(node.test, free, {local_name(node.item)} if node.item else set(), dry)
            return
        for name in node.fields:
            value = getattr(node, name)
            if isinstance(value, n.Expr):
                setattr(node, name, self.visit(value, free, dry))
            elif isinstance(value, n.Node):
                self.visit_children(value, free, dry)
            elif isinstance(value, list):
                setattr(node, name, [self.child(item, free, dry) for item in value])

    def child(self, item: object, free: Free, dry: bool) -> object:
        if isinstance(item, n.Expr):
            return self.visit(item, free, dry)
        if isinstance(item, n.Node):
            self.visit_children(item, free, dry)
        return item

    def visit_bound(self, node: n.Expr, free: Free, bound: set[str], dry: bool) -> n.Expr:
        inner: Free = {}
        node = self.visit(node, inner, dry)
        free.update((name, read) for name, read in inner.items() if name not in bound)
        return node

    def outlined(self, call: n.Call, kind: str, names: list[str], items: n.Expr, test: n.Expr | None,
                 value: n.Expr, reads: Free, within: list[n.Node]) -> n.Generated:
        """The call of a function made for the reduction `call`; its code is where its value is written: of the
        origin of the innermost of `within` (the nodes around the value, outermost first) that has one."""
        own = {local_name(name) for name in names}
        params = sorted(name for name in reads if name not in own and not name.startswith(KEEPS))
        what, at = next(((node.origin, node.at) for node in reversed([call, *within]) if node.origin), self.origin)
        body = _body(kind, names, test, value, at)
        # (equal code made where it is written alike)
        same = (canonical_code(list(body), set(reads), Writer()), what, str(n.Node(at=at).loc))
        name = self.names.get(same, "")
        if not name:
            name = self.names[same] = f"{NAME}{len(self.made) + 1}"
            self.made.append(n.Definition(name, (ITEMS,), body, what, REDUCTION,
                                          reads=[_read(reads[p]) for p in params], at=at))
        return n.Generated(name, [items, *(_read(reads[p]) for p in params)], at=call.at)


def _read(node: n.Expr) -> n.Expr:
    """A read of the same local or temporary as `node`."""
    return n.Temporary(node.name, at=node.at) if isinstance(node, n.Temporary) else \
        n.local(node.id, node.at)  # type: ignore[attr-defined]  # (a local Name: Outliner.visit)


def assigned_locals(body: Iterable[n.Stmt]) -> set[str]:
    """The locals the statements of `body` (and the blocks in them) assign, by Python name."""
    found: set[str] = set()
    for statement in body:
        for node in statement.find_all(n.Node):
            if isinstance(node, n.Let):
                found |= {local_name(name) for name in node.names}
            elif isinstance(node, n.Assign) and isinstance(node.target, n.NameTarget) and \
                    node.writes == n.WRITES_LOCAL:
                found.add(local_name(node.target.name))
            elif isinstance(node, n.For):
                found |= {local_name(name) for name in node.names}
            elif isinstance(node, n.MaskUpdate):
                found.add(local_name(node.name))
    return found


def _charged(items: n.Expr, each: int) -> n.Expr:
    """`items` charged `each` steps per item (as codegen.charge writes it)."""
    return n.MemoryCall("charge", [items] if each == 1 else [items, n.Bits(each)], at=items.at)


def _reduction(node: n.Expr, inside: dict[int, Free]) -> tuple[str, list[str], n.Expr, n.Expr | None, n.Expr,
                                                             Free, list[n.Node]] | None:
    """(kind, item names, items, test, value, the names they read, the nodes around the value inside the call) of a
    reduction that can be its own function,
    or None: `max` or `min` of one collection with a lambda of one parameter as its only keyword, or `any` or `all`
    of a generator over one collection. Not one whose value or test keeps a temporary (`:=`): it would be its
    function's. `inside`: what each lambda and comprehension visited reads (Outliner.visit)."""
    if not (isinstance(node, n.Call) and node.target == n.CALL_BUILTIN and len(node.positional) == 1):
        return None
    name, keywords, first = node.name, node.keywords, node.positional[0]
    each = (0 in node.charged) + node.key_steps
    if name in ORDER and node.keyed:
        key = keywords[0].value if len(keywords) == 1 and keywords[0].name == "key" else None
        if not isinstance(key, n.Lambda) or len(key.params) != 1:
            return None
        value = key.body if not key.spend else n.BoolOp("or", [n.MemoryCall("spend", [n.Bits(key.spend)]), key.body])
        names, items, test, reads = list(key.params), _charged(first, each) if each else first, None, inside[id(key)]
        within: list[n.Node] = [key] if key.spend else [key, key.body]
    elif name in SETTLES and not keywords and not each and isinstance(first, n.Comprehension) and first.lazy \
            and len(first.clauses) == 1:
        clause, element = first.clauses[0], first.element
        assert isinstance(element, n.Expr)  # (a generator)
        names, items, test, value = clause.names, _charged(clause.iterable, clause.each), clause.condition, element
        reads, within = inside[id(first)], [first, element]
    else:
        return None
    if any(name.startswith(KEEPS) for name in reads):
        return None
    return str(name), names, items, test, value, reads, within


def _body(kind: str, names: list[str], test: n.Expr | None, value: n.Expr,
          at: Where) -> list[n.Stmt]:
    """The statements of a reduction's function: a loop over its items that keeps the first item whose key no later
    key beats (max, min: as the built-in compares them) or returns at the first value that settles it (any, all);
    an empty collection's max or min is the built-in's, which says why it has none."""
    items = n.local(ITEMS, at)
    if kind in ORDER:
        def unset() -> n.Expr:
            return n.Compare(n.local(BEST, at), [("is", None)], [n.Unset(at=at)], at=at)
        parts = value.items if isinstance(value, n.TupleExpr) and len(value.items) > 1 and cheap(value) else [value]
        keys, tops = ([KEY], [TOP]) if len(parts) == 1 else \
            ([f"{KEY}{i}" for i in range(len(parts))], [f"{TOP}{i}" for i in range(len(parts))])
        better = _beats(ORDER[kind], keys, tops, cheap(value), at)
        keep: list[n.Stmt] = [n.set_local(BEST, n.local(names[0], at), at),
                              *(n.set_local(top, n.local(key, at), at) for key, top in zip(keys, tops))]
        loop: list[n.Stmt] = [*(n.set_local(key, part, at) for key, part in zip(keys, parts)),
                              n.If(n.BoolOp("or", [unset(), better], at=at), keep, [], at=at)]
        empty = n.builtin_call(kind, [n.local(ITEMS, at)], at)
        empty.keyed = True
        return [n.set_local(BEST, n.Unset(at=at), at), n.Loop(names, items, loop, at=at),
                n.If(unset(), [n.Return(empty, at=at)], [], at=at), n.Return(n.local(BEST, at), at=at)]
    settles = SETTLES[kind]
    found: n.Stmt = n.If(value if settles else n.Not(value, at=at), [n.Return(n.Constant(settles, at=at), at=at)], [],
                         at=at)
    if test is not None:
        found = n.If(test, [found], [], at=at)
    return [n.Loop(names, items, [found], at=at), n.Return(n.Constant(not settles, at=at), at=at)]


def _beats(op: str, keys: list[str], tops: list[str], cheap_keys: bool, at: Where) -> n.Expr:
    """Whether the key `keys` beats the top `tops` by `op` (> or <), as Python compares them: one value, or a tuple
    written out (a key `(rank, strength)`) compared item by item in place, as a tuple compares itself (the first
    item that is neither the same nor equal decides; all equal is not better), with no tuple made per item."""
    def compare(key: str, by: str, top: str) -> n.Compare:
        node = n.Compare(n.local(key, at), [(by, None)], [n.local(top, at)], at=at)
        node.cheap_operands = cheap_keys  # (each key is the value's: a number, a few numbers)
        return node
    if len(keys) == 1:
        return compare(keys[0], op, tops[0])
    better: n.Expr = n.Constant(False, at=at)
    for key, top in reversed(list(zip(keys, tops))):
        same = n.BoolOp("or", [compare(key, "is", top), compare(key, "==", top)], at=at)
        better = n.IfExp(better, same, compare(key, op, top), at=at)
    return better


def settled_by_loop(test: n.Expr, taken: Callable[[], set[str]]) -> bool:
    """Whether `test` is `all(e for c in items ...)` or `any(...)` that a loop in place can decide: one clause, its
    item one name that is none of the function's own (`taken`)."""
    if not (isinstance(test, n.Call) and test.target == n.CALL_BUILTIN and test.name in SETTLES
            and len(test.args) == 1 and not test.charged and not test.key_steps):
        return False
    generator = test.args[0]
    return isinstance(generator, n.Comprehension) and generator.lazy and len(generator.clauses) == 1 and \
        len(generator.clauses[0].names) == 1 and local_name(generator.clauses[0].names[0]) not in taken()
