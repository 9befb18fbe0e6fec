"""Hoisting: inside a comprehension, a value that does not depend on its items is computed once, when first needed.

A pass over the compiler's own tree (:mod:`naipes.language.nodes`), after the reductions are outlined: it knows a
comprehension, a filter, a call and a temporary by their classes. CPython computes a comprehension's test and
element for every item; a part of them that reads none of the items (``best_card()`` while filtering every card of
a hand), and the largest such part around it (``power(best_card())``, the inlined call with the temporary that
keeps its argument), is a :class:`~naipes.language.nodes.Remember`: computed the first time it is needed and kept
in a temporary (``_h`` and a number) until the statement ends (a :class:`~naipes.language.nodes.SetTemporary`
before the statement forgets it). A test that never reaches it still never computes it. Only a part that calls
something is worth it; nothing that draws at random, and nothing that may be an iterator (a generator made by a
function could be gone over only once).

In a function that changes nothing (it writes no state and draws nothing), a value is remembered for the whole
call (equal code, one temporary), unless it reads one of the function's own locals. Besides:

* a statement's filter whose test reads no item (``[c for c in hand if len(trick) == 0]``, a cascade's first
  step) keeps all the items or none, the test made once (and not at all when there are no items);
* a value that the first test of a statement's filter needs at every item (``c.suit == lead_suit()``) is computed
  before the filter, when it has items, and the filter reads the temporary;
* in a reduction's function (:mod:`naipes.language.reductions`), the calls in its loop that do not read its item
  (a trick's lead suit in the key of each of its cards) are remembered for the call, as in a function that changes
  nothing.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from . import nodes as n
from .codegen import Writer, draws_at_random, local_name, makes_call
from .inlining import callee, canonical_code, free_locals
from .reductions import REDUCTION, assigned_locals
from .sections import FUNCTION

# The memory's methods that change the game (a function calling none of them, drawing nothing, changes nothing).
WRITES = {"set_var", "set_attr", "set_team_attr", "grow_var", "grow_attr", "move", "shuffle", "show", "deal", "ask",
          "ask_group", "end_game", "announce", "refresh", "entering_step", "entered", "assert_fact", "retract_fact",
          "modify_fact", "reset_variables", "start_turns", "settle_turns", "pass_turn", "goto"}
WRITING = (n.Move, n.Shuffle, n.Show, n.Deal, n.Ask, n.EndGame, n.Announce, n.Goto, n.Refresh, n.AssertFact, n.Retract,
           n.Modify, n.Grow)
LEAVES = (n.Name, n.Number, n.String, n.Constant, n.Literal, n.Bits, n.Temporary, n.Unset, n.Lambda)
CALLS = (n.Call, n.Generated, n.MemoryCall, n.Copy, n.TableLookup)  # their arguments run out within the call


def hoist(definitions: list[n.Definition]) -> None:
    """Remember the invariant values of every definition's comprehensions (changed in place; an expression body
    becomes a `return` statement)."""
    hoister = Hoister({d.name: d for d in definitions if d.kind in (FUNCTION, REDUCTION)})
    for definition in definitions:
        if not isinstance(definition.body, list):
            definition.body = [n.Return(definition.body, at=definition.body.at)]
        if definition.kind == REDUCTION:
            hoister.reduction(definition)
        else:
            hoister.function(definition)


def statement_lists(statement: n.Stmt) -> Iterator[list[n.Stmt]]:
    """The blocks of statements inside `statement` (an `if`'s body and its branches', a loop's body)."""
    for name in statement.fields:
        value = getattr(statement, name)
        if isinstance(value, list) and value and isinstance(value[0], n.Stmt):
            yield value
        elif isinstance(value, list):
            yield from (branch.body for branch in value if isinstance(branch, n.Branch))


def changes_nothing(definition: n.Definition) -> bool:
    """Whether running `definition` writes nothing of the game's and draws nothing at random."""
    for node in definition.find_all(n.Node):
        if isinstance(node, WRITING) or (isinstance(node, n.Assign) and node.writes != n.WRITES_LOCAL) or \
                (isinstance(node, n.MemoryCall) and node.method in WRITES) or \
                (isinstance(node, n.Do) and isinstance(node.call, n.Generated)) or \
                (isinstance(node, n.Call) and draws_at_random(node)):  # (a step's actions run; a random draw)
            return False
    return True


def temporaries(node: n.Node) -> Counter[str]:
    """How often `node` names each temporary of an inlined call (its reads, and the Keep that sets it)."""
    return Counter(found.name for found in node.find_all(n.Expr) if isinstance(found, (n.Temporary, n.Keep)))


def has_call(node: n.Node) -> bool:
    return any(makes_call(found) for found in node.find_all(n.Node))


def charged(items: n.Expr, each: int) -> n.Expr:
    """`items` charged `each` steps per item (as codegen.charge writes it; 0: not charged)."""
    if not each:
        return items
    return n.MemoryCall("charge", [items] if each == 1 else [items, n.Bits(each)], at=items.at)


class Hoister:
    """Remembers what the comprehensions of each function compute that does not depend on their items."""

    def __init__(self, functions: dict[str, n.Definition]) -> None:
        self.functions = functions  # the module's functions whose values are known (a call that may be a generator)
        self.count = 0  # the temporaries made so far (_h and a number)
        # In a function that changes nothing: the values remembered for the whole call (by their code), and the
        # locals it assigns (a value reading one of them is not remembered). None: per statement.
        self.shared: dict[str, str] | None = None
        self.assigned: set[str] = set()
        # the expression being visited, and how often it names each temporary (counted when first needed)
        self.expression: list[n.Expr] = []
        self.counted: Counter[str] | None = None
        self.writer = Writer()  # (one for all the code compared: its card tables keep their names)

    def function(self, definition: n.Definition) -> None:
        body = definition.body
        assert isinstance(body, list)  # (hoist)
        if changes_nothing(definition):
            self.shared, self.assigned = {}, assigned_locals(body)
            made = self.statements(body)
            definition.body = [self.unset(name, body[0]) for name in self.shared.values()] + made
            self.shared = None
        else:
            definition.body = self.statements(body)

    def reduction(self, definition: n.Definition) -> None:
        """A reduction's function: the calls in its loop that do not read the loop's item, computed at most once
        per call, when first needed, as a function that changes nothing remembers them (numbered from 0 in each)."""
        body = definition.body
        assert isinstance(body, list)  # (hoist)
        self.shared, self.assigned, count, self.count = {}, set(), self.count, 0
        for loop in body:
            if isinstance(loop, n.Loop):
                self.in_loop(loop.body, frozenset(local_name(name) for name in loop.names))
        definition.body = [self.unset(name, body[0]) for name in self.shared.values()] + body
        self.shared, self.count = None, count

    def in_loop(self, body: list[n.Stmt], item: frozenset[str]) -> None:
        """The expressions of the statements of a loop over `item`, invariant calls remembered."""
        for statement in body:
            self.expressions(statement, item, [])
            for block in statement_lists(statement):
                self.in_loop(block, item)

    @staticmethod
    def unset(name: str, where: n.Node) -> n.SetTemporary:
        return n.SetTemporary(name, n.Unset(at=where.at), at=where.at)

    def statements(self, body: list[n.Stmt]) -> list[n.Stmt]:
        out: list[n.Stmt] = []
        for statement in body:
            hoisted: list[str] = []
            self.expressions(statement, frozenset(), hoisted)
            value = getattr(statement, "value", None)
            if filtered_statement(statement) and invariant_filter(value):
                statement.value = self.all_or_none(value)  # type: ignore[attr-defined,arg-type]
            early = first_needed(statement)
            self.blocks(statement)
            if isinstance(statement, n.If):
                chain(statement, self.elif_, self.statements)
            out += [self.unset(name, statement) for name in hoisted] + early + [statement]
        return out

    def blocks(self, statement: n.Stmt) -> None:
        """The blocks of statements in `statement` (not an `if`'s branches: chain), hoisted in."""
        for name in statement.fields:
            block = getattr(statement, name)
            if isinstance(block, list) and block and isinstance(block[0], n.Stmt):
                setattr(statement, name, self.statements(block))

    def elif_(self, statement: n.If) -> list[n.Stmt] | None:
        """An `elif` (as an `if` of its own), hoisted in: what it becomes, if it needs temporaries set first."""
        hoisted: list[str] = []
        self.expressions(statement, frozenset(), hoisted)
        self.blocks(statement)
        return [self.unset(name, statement) for name in hoisted] + [statement] if hoisted else None

    def expressions(self, statement: n.Stmt, varying: frozenset[str], hoisted: list[str]) -> None:
        """The expressions `statement` computes itself (not those of the blocks in it), visited."""
        for name in statement.fields:
            value = getattr(statement, name)
            if isinstance(value, n.AttrTarget):
                self.expression, self.counted = [value.base], None
                value.base = self.visit(value.base, varying, hoisted)
            elif isinstance(value, n.Expr):
                self.expression, self.counted = [value], None
                setattr(statement, name, self.visit(value, varying, hoisted))
            elif isinstance(value, list) and value and isinstance(value[0], n.Expr):
                self.expression, self.counted = list(value), None
                setattr(statement, name, [self.visit(item, varying, hoisted) for item in value])

    def visit(self, node: n.N, varying: frozenset[str], hoisted: list[str], consumed: bool = False) -> n.N:
        """`node` with its invariant calls remembered. `varying`: the names bound by the comprehensions around it
        (empty: outside any comprehension, where nothing is hoisted); `consumed`: `node` is an argument of a call."""
        if isinstance(node, (*LEAVES, n.DeckProduct)) or isinstance(node, n.Call) and node.target == n.VALUES_OF:
            return node
        if varying and isinstance(node, n.Expr) and self.invariant(node, varying):
            return self.remembered(node, hoisted)  # type: ignore[return-value]  # (an Expr)
        if isinstance(node, n.Comprehension):
            if node.lazy and not consumed:
                return node
            inner = varying | {local_name(name) for clause in node.clauses for name in clause.names}
            for clause in node.clauses:  # (Python allows no assignment expression in a collection gone over)
                if clause.condition is not None:
                    clause.condition = self.visit(clause.condition, inner, hoisted)
            node.element = self.visit(node.element, inner, hoisted)
            return node
        if isinstance(node, n.Filter):
            node.test = self.visit(node.test, varying | {local_name(node.item or "_")}, hoisted)
            return node
        if isinstance(node, n.IfExp):  # (in the order Python computes them: the test first)
            node.test = self.visit(node.test, varying, hoisted)
            node.body, node.orelse = self.visit(node.body, varying, hoisted), self.visit(node.orelse, varying, hoisted)
            return node
        inner_consumed = isinstance(node, CALLS) or isinstance(node, n.BinOp) and makes_call(node) or \
            consumed and isinstance(node, n.Keyword)
        node.replace_children(lambda child: self.visit(child, varying, hoisted, inner_consumed))
        return node

    def invariant(self, node: n.Expr, varying: frozenset[str]) -> bool:
        """Whether `node` is worth remembering and reads nothing that varies where it is."""
        excluded = varying | self.assigned if self.shared is not None else varying
        return not (free_locals(node) & excluded) and not draws_at_random(node) and has_call(node) and \
            not self.may_be_iterator(node) and self.owns_temporaries(node)

    def owns_temporaries(self, node: n.Expr) -> bool:
        """Whether each temporary of an inlined call that `node` names is set inside it and named nowhere else in
        its expression: a whole inlined call (`(_t2 := best()).suit, _t2.rank`), which computes the same value each
        time, and not a part of one."""
        inside = temporaries(node)
        if not inside:
            return True
        if self.counted is None:
            self.counted = sum((temporaries(part) for part in self.expression), Counter())
        set_inside = {keep.name for keep in node.find_all(n.Keep)}
        return all(name in set_inside and count == self.counted[name] for name, count in inside.items())

    def may_be_iterator(self, node: n.Expr, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `node`'s value could be a generator (built-ins give lists; a function may not)."""
        if isinstance(node, n.Comprehension):
            return node.lazy
        if isinstance(node, n.IfExp):
            return self.may_be_iterator(node.body, seen) or self.may_be_iterator(node.orelse, seen)
        if isinstance(node, n.BoolOp):
            return any(self.may_be_iterator(value, seen) for value in node.values)
        if isinstance(node, n.Keep):
            return self.may_be_iterator(node.value, seen)
        if isinstance(node, n.Copy):
            return True  # (a new list each time: remembered, one list would be every item's)
        if not isinstance(node, (n.Call, n.Generated)) or isinstance(node, n.Call) and \
                node.target != n.CALL_FUNCTION:
            return False  # built-ins, records and the memory's methods give lists and tuples; a lambda is called
        name = callee(node)
        if name in seen:
            return False  # (a recursive call)
        if name not in self.functions:
            return True  # a function of another module (a strategy's game), or a generated condition: anything
        body = self.functions[name].body
        returns = [body] if isinstance(body, n.Expr) else [r.value for s in body for r in s.find_all(n.Return)]
        return any(value is None or self.may_be_iterator(value, seen | {str(name)}) for value in returns)

    def all_or_none(self, node: n.Comprehension | n.Filter) -> n.Expr:
        """`[c for c in ITEMS if TEST]` where TEST does not read `c`: `(_hN if not (_hN := list(ITEMS)) or TEST
        else [])`, the test made once (and, as before, not at all when there are no items); a list in a local (a
        move's candidates) is copied only when kept: `(list(ITEMS) if ITEMS and TEST else [])`."""
        items, test = filter_parts(node)
        at = node.at
        if isinstance(items, n.Name) and items.meaning == n.LOCAL and items.type == "list":
            kept: n.Expr = n.BoolOp("and", [items, test], at=at)
            made: n.Expr = n.Copy(n.local(items.id, items.at, items.type), at=at)
        else:
            name = f"_h{self.count}"
            self.count += 1
            kept = n.BoolOp("or", [n.Not(n.Keep(name, n.Copy(items, at=at), at=at), at=at), test], at=at)
            made = n.Temporary(name, at=at)
        return n.IfExp(made, kept, n.ListExpr([], at=at), at=at)

    def remembered(self, node: n.Expr, hoisted: list[str]) -> n.Remember:
        """`node` remembered in a temporary (the same for the same code in a function that changes nothing)."""
        code = canonical_code([node], free_locals(node), self.writer) if self.shared is not None else ""
        name = self.shared.get(code) if self.shared is not None else None
        if name is None:
            name = f"_h{self.count}"
            self.count += 1
            if self.shared is not None:
                self.shared[code] = name
            else:
                hoisted.append(name)
        return n.Remember(name, node, at=node.at)


def chain(statement: n.If, rewrite: Callable[[n.If], list[n.Stmt] | None],
          block: Callable[[list[n.Stmt]], list[n.Stmt]]) -> None:
    """The branches of `statement` rewritten, in order: each `elif` by `rewrite`, as an `if` of its own with the
    branches after it (what it becomes, several statements, is an `else` holding them; None: it stays an `elif`),
    an `else`'s body by `block`."""
    for i, branch in enumerate(statement.branches):
        if branch.test is None:
            branch.body = block(branch.body)
            return
        rest = n.If(branch.test, branch.body, statement.branches[i + 1:], at=branch.at)
        made = rewrite(rest)
        chain(rest, rewrite, block)  # (in place: what `rewrite` made holds the same list of branches)
        statement.branches[i:] = [n.Branch(rest.test, rest.body, at=branch.at), *rest.branches] if made is None \
            else [n.Branch(None, made, at=branch.at)]
        return


def filtered_statement(statement: n.Stmt) -> bool:
    """Whether `statement` keeps its value in a local or returns it (`x = [...]`, `return [...]`)."""
    if isinstance(statement, n.Let):
        return len(statement.names) == 1
    if isinstance(statement, n.Assign):
        return isinstance(statement.target, n.NameTarget) and statement.writes == n.WRITES_LOCAL and \
            statement.op is None
    return isinstance(statement, n.Return)


def filter_parts(node: n.Comprehension | n.Filter) -> tuple[n.Expr, n.Expr]:
    """The items a filter goes over (charged as it charges them) and its test."""
    if isinstance(node, n.Filter):
        return charged(node.items, node.each), node.test
    clause = node.clauses[0]
    assert clause.condition is not None  # (filtered)
    return charged(clause.iterable, clause.each), clause.condition


def filtered(node: object) -> n.Comprehension | n.Filter | None:
    """`node` if it is a list of the items of one collection that pass a test (`[e for c in items if test]`)."""
    if isinstance(node, n.Filter):
        return node
    if isinstance(node, n.Comprehension) and node.kind == "list" and not node.lazy and len(node.clauses) == 1 \
            and node.clauses[0].condition is not None:
        return node
    return None


def invariant_filter(node: object) -> bool:
    """Whether `node` is `[c for c in ITEMS if TEST]` with a TEST that does not read `c` (nor draw at random)."""
    found = filtered(node)
    if isinstance(found, n.Filter):
        item, test = found.item or "_", found.test
    elif found is not None and len(found.clauses[0].names) == 1:
        item, element, condition = found.clauses[0].names[0], found.element, found.clauses[0].condition
        if condition is None or not (isinstance(element, n.Name) and element.meaning == n.LOCAL and element.id == item):
            return False
        test = condition
    else:
        return False
    return local_name(item) not in free_locals(test) and not draws_at_random(test)


def first_needed(statement: n.Stmt) -> list[n.Stmt]:
    """A statement's filter `[c for c in ITEMS if TEST]` (ITEMS a local) computes a value remembered in TEST's
    first test, where every item reaches it (``c.suit == lead_suit()``), as soon as there is an item: those values
    are computed before the filter when ITEMS has one (``if ITEMS and _hN is B_UNSET: _hN = ...``), and the filter
    reads the temporary without asking at each item whether it is computed yet."""
    found = filtered(getattr(statement, "value", None)) if filtered_statement(statement) else None
    if found is None:
        return []
    items = found.items if isinstance(found, n.Filter) else found.clauses[0].iterable
    if not (isinstance(items, n.Name) and items.meaning == n.LOCAL or isinstance(items, n.Temporary)):
        return []
    first = found.test if isinstance(found, n.Filter) else found.clauses[0].condition
    assert first is not None
    first = first.values[0] if isinstance(first, n.BoolOp) else first
    early: list[n.Stmt] = []
    computed: set[str] = set()
    for node in always_reached(first):
        if isinstance(node, n.Remember) and node.name not in computed:
            computed.add(node.name)
            unset = n.Compare(n.Temporary(node.name, at=statement.at), [("is", None)], [n.Unset(at=statement.at)],
                              at=statement.at)
            early.append(n.If(n.BoolOp("and", [copy_read(items), unset], at=statement.at),
                              [n.SetTemporary(node.name, node.value, at=statement.at)], [], at=statement.at))
    if computed:
        known(found, computed)
    return early


def copy_read(node: n.Name | n.Temporary) -> n.Expr:
    return n.Temporary(node.name, at=node.at) if isinstance(node, n.Temporary) else n.local(node.id, node.at,
                                                                                              node.type)


def always_reached(node: n.Node) -> Iterator[n.Node]:
    """`node` and the parts of it that are computed whenever it is (not a branch, a later operand of `and` or
    `or`, a lambda's body or a comprehension's), outermost first; not inside a remembered value."""
    yield node
    if isinstance(node, n.Remember):
        return
    parts: list[n.Node]
    if isinstance(node, n.BoolOp):
        parts = list(node.values[:1])
    elif isinstance(node, n.IfExp):
        parts = [node.test]
    elif isinstance(node, n.Compare):
        parts = [node.first, node.operands[0]]
    elif isinstance(node, (n.Lambda, n.Comprehension, n.Filter, n.DeckProduct)):
        parts = []
    else:
        parts = list(node.children())
    for part in parts:
        yield from always_reached(part)


def known(node: n.Node, names: set[str]) -> None:
    """The remembered values `names` in `node` read as they are (computed before the filter they are in)."""
    def change(child: n.Node) -> n.Node:
        if isinstance(child, n.Remember) and child.name in names:
            return n.Temporary(child.name, at=child.at)
        known(child, names)
        return child
    node.replace_children(change)
