"""Compile rule-language text to Python source, checking it on the way.

Like a template engine, every condition, action and function is turned into
Python source once; :mod:`naipes.language.linker` compiles all of it into one
code object. A text goes through three stages, one module each:

* the parser (:mod:`naipes.language.parser`) makes the language's nodes
  (:mod:`naipes.language.nodes`), each knowing where it is written;
* the resolver (:mod:`naipes.language.resolver`) gives every name its meaning
  and every node its static type against the symbol table (:class:`Symbols`),
  refuses what cannot be (the sandbox: no name the table does not list, no
  attribute starting with '_'), and records what the text *reads*, so the
  agenda re-evaluates a rule only when something it reads was written;
* code generation (:mod:`naipes.language.codegen`) writes the Python.

This module holds the symbol table and the entry points the section readers
call; what a text compiles to is a :class:`Unit`. Each entry point takes, in
place of a text, code already parsed (:class:`naipes.language.code.Code`: what
the ``bets:`` section writes), and uses its nodes.
"""
from __future__ import annotations

import keyword
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..errors import Location, RuleError
from ..program import CARD_ATTRIBUTES, PLAYER_ATTRIBUTES, ZONE_ATTRIBUTES
from . import nodes as n
from .code import Code, parsed_block, parsed_expression
from .resolver import ANY, Resolver, element_type

__all__ = ["ANY", "Compiler", "Symbols", "Unit", "declared_name_problem", "element_type", "identifier_problem"]

# Attributes every object of a kind has, beyond those the rule file declares.
PLAYER_BUILTIN_ATTRS, CARD_BUILTIN_ATTRS, ZONE_ATTRS = PLAYER_ATTRIBUTES, CARD_ATTRIBUTES, ZONE_ATTRIBUTES
SPECIAL_FORMS = {"values_of", "exists"}  # calls the compiler answers itself (no function of that name can be declared)


def identifier_problem(name: Any, kind: str) -> str | None:
    """Why `name` cannot name something in a rule file (None if it can).

    Names reach generated code only behind a prefix the engine owns (`v_` a
    local, `F_` a function, naipes.program.attribute an attribute, ...) or as
    text, so any plain ASCII identifier will do, but a reserved word or a
    private ('_') name.
    """
    if not isinstance(name, str) or not name.isascii() or not name.isidentifier():
        return f"'{name}' is not a valid {kind} name (ASCII letters, digits and '_', not starting with a digit)"
    if name.startswith("_"):
        return f"{kind} names cannot start with '_' ('{name}')"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return f"'{name}' is a reserved word and cannot name a {kind}"
    return None


def move_name_problem(name: Any) -> str | None:
    """Why `name` cannot name a move (None if it can): as any name, except that a word Python reserves may (`pass`
    is the commonest move of card games): a move's name is only ever text, never a name in generated code."""
    if isinstance(name, str) and name != "_" and (keyword.iskeyword(name) or keyword.issoftkeyword(name)):
        return None
    return identifier_problem(name, "move")


# The attributes the language gives every object of the kind a declared name becomes an attribute of.
LANGUAGE_ATTRIBUTES = {"player": PLAYER_BUILTIN_ATTRS, "card": CARD_BUILTIN_ATTRS}


def declared_name_problem(name: Any, kind: str, owner: str) -> str | None:
    """Why `name` cannot name a card attribute (owner 'card'), a player variable or a zone ('player')."""
    problem = identifier_problem(name, kind)
    if problem:
        return problem
    if name in LANGUAGE_ATTRIBUTES[owner]:
        return f"'{name}' is reserved (every {owner} has it already) and cannot name a {kind}"
    return None


@dataclass
class Symbols:
    """Everything a rule file may name, with a static type where known."""

    params: dict[str, Any] = field(default_factory=dict)
    globals: dict[str, str | None] = field(default_factory=dict)
    zones: set[str] = field(default_factory=set)
    player_attrs: dict[str, str | None] = field(default_factory=dict)
    card_attrs: dict[str, str | None] = field(default_factory=dict)
    functions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    moves: set[str] = field(default_factory=set)
    # global name -> the only values it may hold (the phases, for `phase`): a text literal written to or
    # compared with it must be one of them
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    rules: set[str] = field(default_factory=set)  # the names of the rules (refresh names one)
    first_stages: dict[str, str | None] = field(default_factory=dict)  # phase -> the stage a turn starts in
    attr_enums: dict[str, tuple[str, ...]] = field(default_factory=dict)  # card or player attribute -> its texts
    records: dict[str, tuple[str, ...]] = field(default_factory=dict)  # record name -> its fields, in order
    facts: set[str] = field(default_factory=set)  # the records that are kinds of fact (each a global collection)
    card_values: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # card attribute -> the values listed for it
    # a strategy's per-player memory: p.NAME reads item p.index of the global NAME (a tuple, one per player)
    player_memory: set[str] = field(default_factory=set)
    team_attrs: set[str] = field(default_factory=set)  # the player variables a team shares (team: true)
    # the names a refused declaration would have made (a bet's): a use of one is no mistake of its own
    unmade: set[str] = field(default_factory=set)
    # the file's functions named as a built-in is (its own `len` hides len: `naipes check` warns), where declared
    hiding: dict[str, Location] = field(default_factory=dict)

    @property
    def record_fields(self) -> set[str]:
        return {f for fields in self.records.values() for f in fields}

    def attribute_type(self, base: str | None, attr: str) -> str | None:
        if base == "card":
            return self.card_attrs.get(attr)
        if base == "player":
            return self.player_attrs.get(attr)
        if base == "zone":
            return ZONE_ATTRS.get(attr)
        in_player, in_card = attr in self.player_attrs, attr in self.card_attrs
        if in_player and not in_card:
            return self.player_attrs[attr]
        if in_card and not in_player:
            return self.card_attrs[attr]
        return None


@dataclass
class Unit:
    """What compiling one piece of rule text produced: its checked nodes (an expression, or statements), and what
    the resolver learnt of them."""

    tree: n.Expr | list[n.Stmt]
    reads: set[Any] = field(default_factory=set)  # global names; (attr, bound var | seat number | ANY) pairs
    calls: set[str] = field(default_factory=set)  # user functions called
    type: str | None = None
    tests: int = 0  # atomic tests in a condition (specificity)
    guard: tuple[str, Any] | None = None  # (global name, literal) when the condition is `name == literal and ...`
    uses: set[str] = field(default_factory=set)  # the locals in scope it reads (an expression's: `player`, ...)
    lookups: set[str] = field(default_factory=set)  # kinds of fact it reads only through exists(...) (also in reads)

    @property
    def expression(self) -> n.Expr:
        """The expression an expression's unit computes."""
        assert isinstance(self.tree, n.Expr), "a block of statements is no expression"
        return self.tree

    @property
    def statements(self) -> list[n.Stmt]:
        """The statements of a block's unit."""
        assert isinstance(self.tree, list), "an expression is no block of statements"
        return self.tree


Conjunct = tuple[Unit, tuple[Unit, Unit] | None]  # a test of a condition, and the two sides of it if it is X == Y


class Compiler:
    """Compiles rule-language text against a symbol table, collecting errors."""

    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.errors: list[RuleError] = []
        # Set for a strategy's actions: the only names they may assign (its own memory).
        self.writable: set[str] | None = None

    def resolver(self, scope: dict[str, str | None], **options: Any) -> Resolver:
        return Resolver(self.sym, scope, writable=self.writable, **options)

    # ------------------------------------------------------------ entry points
    def expression(self, text: str | Code, scope: dict[str, str | None], *, bound: AbstractSet[str] = frozenset(),
                   what: str = "expression", allow_random: bool = False) -> Unit | None:
        """Compile a condition / function body (a text, or code: see naipes.language.code); returns None after
        recording an error."""
        try:
            tree = parsed_expression(text, what)
            resolver = self.resolver(scope, bound=bound, allow_random=allow_random, what=what)
            typ = resolver.expr(tree)
            return Unit(tree, resolver.reads | resolver.lookups, resolver.calls, typ, count_tests(tree),
                        equality_guard(tree, self.sym, scope), resolver.uses & set(scope),
                        resolver.lookups - resolver.reads)
        except RuleError as exc:
            self.errors.append(exc)
            return None

    def conjuncts(self, text: str | Code, scope: dict[str, str | None], what: str) -> list[Conjunct]:
        """The tests a condition `A and B and ...` makes, each compiled alone (what it reads, which locals it
        uses), with the two sides of a test `X == Y` compiled alone too; [] if the condition does not compile
        (its own compilation reports why)."""
        def part(node: n.Expr) -> Unit:
            resolver = Resolver(self.sym, scope, what=what)
            typ = resolver.expr(node)
            return Unit(node, resolver.reads | resolver.lookups, resolver.calls, typ, uses=resolver.uses & set(scope))
        try:
            tree = parsed_expression(text, what)
            found: list[Conjunct] = []
            for node in tree.values if isinstance(tree, n.BoolOp) and tree.op == "and" else [tree]:
                sides = None
                if isinstance(node, n.Compare) and [op for op, _ in node.ops] == ["=="]:
                    sides = (part(node.first), part(node.operands[0]))
                found.append((part(node), sides))
            return found
        except RuleError:
            return []

    def function_body(self, text: str | Code, scope: dict[str, str | None], what: str) -> Unit | None:
        """A pure function written as statements: `let`, `if`, `for` and `return`, nothing written.

        Every way through it must end in a `return` (a located error otherwise)."""
        try:
            trees = parsed_block(text, what)
            resolver = self.resolver(scope, what=what, pure=True)
            resolver.statements(trees)
            if not trees or not n.always_returns(trees):
                empty = text.loc if isinstance(text, Code) else n.Position(text, 1, 1, False)
                resolver.fail(trees[-1] if trees else empty,
                              f"{what} can end without a value: every way through it ends in 'return EXPR'")
            return Unit(trees, resolver.reads | resolver.lookups, resolver.calls)
        except RuleError as exc:
            self.errors.append(exc)
            return None

    def block(self, texts: list[str | Code], scope: dict[str, str | None], *, bound: AbstractSet[str] = frozenset(),
              what: str = "actions") -> Unit | None:
        """Compile a list of statement texts (or codes) into one block of Python lines."""
        reads, calls, ok = set(), set(), True
        trees: list[n.Stmt] = []
        locals_ = dict(scope)
        for text in texts:
            try:
                statements = parsed_block(text, what)
                resolver = self.resolver(locals_, bound=bound, allow_random=True, what=what)
                resolver.statements(statements)
                trees += statements
                reads |= resolver.reads | resolver.lookups
                calls |= resolver.calls
                locals_ = resolver.scope
            except RuleError as exc:
                self.errors.append(exc)
                ok = False
        if not ok:
            return None
        return Unit(trees or [n.Pass()], reads, calls)


def equality_guard(tree: n.Expr, sym: Symbols, scope: dict[str, str | None]) -> tuple[str, Any] | None:
    """(name, literal) when a condition is `name == literal`, alone or first in an `and`.

    The agenda indexes such rules by the literal, so a write to `name` touches
    only the rules expecting its old and new values.
    """
    test = tree.values[0] if isinstance(tree, n.BoolOp) and tree.op == "and" else tree
    if not isinstance(test, n.Compare) or [op for op, _ in test.ops] != ["=="]:
        return None
    left, right = test.first, test.operands[0]
    if not isinstance(left, n.Name) or not (isinstance(right, (n.Number, n.String)) or
                                            (isinstance(right, n.Constant) and right.value is not None)):
        return None
    name = left.id
    if name in scope or name not in sym.globals or name == "players":
        return None
    return (name, right.value)


def count_tests(tree: n.Expr) -> int:
    """The atomic tests of a condition (its specificity): the operands of its `and`s and `or`s."""
    if isinstance(tree, n.BoolOp):
        return sum(count_tests(value) for value in tree.values)
    return 1
