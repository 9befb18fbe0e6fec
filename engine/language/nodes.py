"""The rule language's own tree: what the parser makes of a text, and what the compiler checks and writes from.

Lark's parse tree is read once, by the transformer in :mod:`naipes.language.parser`; everything after it
works on these nodes, which say what they are by their class (never by a position among children or a name
written for them). Each node knows where it is written (:attr:`Node.loc`), and the resolver
(:mod:`naipes.language.resolver`) gives it its static type (:attr:`Node.type`) and, where it names something,
what that is (a local, a param, a state variable, a built-in, a record, a rule-file function...). Code
generation (:mod:`naipes.language.codegen`) then writes Python from the checked tree.

As in Jinja's ``nodes`` module, each class lists the attributes that hold its child nodes (:attr:`Node.fields`),
so that passes can walk any tree without knowing every class:

>>> from naipes.language.parser import parse_expression
>>> tree = parse_expression("len(hand) > 2 and trump")
>>> type(tree).__name__, [type(child).__name__ for child in tree.children()]
('BoolOp', ['Compare', 'Name'])
>>> [node.id for node in tree.find_all(Name)]
['len', 'hand', 'trump']
"""
from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from ..errors import Location, RuleError

N = TypeVar("N", bound="Node")


class Position:
    """Where a node is written: a line and column of the text it was parsed from, made a file location only
    when asked (most nodes are never reported)."""

    __slots__ = ("text", "line", "col", "wrapped")

    def __init__(self, text: str, line: int, col: int, wrapped: bool):
        self.text, self.line, self.col, self.wrapped = text, line, col, wrapped

    def __repr__(self) -> str:
        return "{}:{}".format(*self.in_text())

    def in_text(self) -> tuple[int, int]:
        """(line, column) in the text, 1-based."""
        if self.wrapped and self.line == 1:  # (an expression is parsed inside parentheses: see the parser)
            return 1, max(self.col - 1, 1)
        return self.line, self.col

    def location(self) -> Location | None:
        at = getattr(self.text, "at", None)
        return at(*self.in_text()) if at else None


# How a field holds children, learnt from its annotation: a node or None; a list of nodes; either of those, or a list
# of nodes and texts. (The walks below test the class of each value only in the last case.)
ONE, MANY, MIXED = 1, 2, 3


@dataclass(eq=False)
class Node:
    """A node of the tree: its children are in the attributes `fields` names (a node, a list of nodes, or None)."""

    fields: ClassVar[tuple[str, ...]] = ()
    holding: ClassVar[tuple[tuple[str, int], ...]] = ()  # each of `fields` with how it holds children (ONE, ...)
    at: Position | Location | None = field(default=None, kw_only=True, repr=False)
    # the static type the resolver found ("int", "str", "card", "player", "zone", "list", "record R", "facts R",
    # "function", ...), None where it is not known before the game runs
    type: str | None = field(default=None, init=False, repr=False)
    # the steps of the rule-file calls inlined here, which this node still owes (naipes.language.steps)
    steps: int = field(default=0, init=False, repr=False)
    # what this node's code comes from where that is not the function it is written in: an inlined function's
    # body (its Definition.what), or an argument put into one (its caller's); code generation gives it lines of
    # its own with that origin, so a fault inside it is reported there (naipes.language.inlining)
    origin: str = field(default="", init=False, repr=False)

    @property
    def loc(self) -> Location | None:
        """The rule-file location of the node (None: made by the engine, not written in a file)."""
        at = self.at
        return at.location() if isinstance(at, Position) else at

    def children(self) -> Iterator[Node]:
        return iter(self.child_list())

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.holding = tuple((name, _holding(cls, name)) for name in cls.fields)

    def child_list(self) -> list[Node]:
        """The children, in order, as a new list (what children() and find_all() walk: no generator a node, and
        no comprehension: every pass of the compiler walks the tree through here)."""
        found: list[Node] = []
        state = self.__dict__
        for name, holding in self.holding:
            value = state[name]
            if value is None:
                continue
            if holding == ONE:
                found.append(value)
            elif holding == MANY:
                found += value
            elif isinstance(value, Node):
                found.append(value)
            else:
                for item in value:
                    if isinstance(item, Node):
                        found.append(item)
        return found

    def replace_children(self, change: Callable[[Node], Node]) -> None:
        """Each child replaced by what `change` makes of it (the same node, or another in its place); a list of
        children is a new list."""
        state = self.__dict__
        for name, holding in self.holding:
            value = state[name]
            if value is None:
                continue
            if holding == ONE:
                state[name] = change(value)
            elif holding == MANY:
                state[name] = list(map(change, value))
            elif isinstance(value, Node):
                state[name] = change(value)
            else:
                state[name] = [change(item) if isinstance(item, Node) else item for item in value]

    def find_all(self, kind: builtins.type[N]) -> Iterator[N]:
        """Every node of class `kind` in this tree, this one included, outermost first (without recursion)."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, kind):
                yield node
            below = node.child_list()
            if below:
                below.reverse()
                stack += below


def _holding(cls: builtins.type[Node], name: str) -> int:
    """How the field `name` of `cls` holds children (ONE, MANY or MIXED), read from its annotation."""
    annotation = next(str(k.__dict__["__annotations__"][name]) for k in cls.__mro__
                      if name in k.__dict__.get("__annotations__", {}))
    if "list[" not in annotation:
        return ONE
    return MANY if annotation.startswith("list[") and not TEXT.search(annotation) else MIXED


TEXT = re.compile(r"\bstr\b")  # (a list that may hold texts between its nodes: an f-string's parts)


def clone(node: N) -> N:
    """A copy of the tree `node` heads, every node of it new (their positions shared: they never change), so that
    what the compiler does to the copy (types, meanings, passes) leaves `node` as it was."""
    made = shallow_copy(node)
    made.replace_children(clone)
    return made


def shallow_copy(node: N) -> N:
    """A new node of the same class with the same fields (copy.copy, without its generic protocol)."""
    made = object.__new__(type(node))
    made.__dict__.update(node.__dict__)
    return made


class Expr(Node):
    """An expression: it has a value."""


class Stmt(Node):
    """A statement of an action block or of a function written as statements."""

    word: ClassVar[str] = ""  # what it does, in a message ("a function cannot move")


# ------------------------------------------------------------------------------------------------- literals
@dataclass(eq=False)
class Number(Expr):
    """A number as written; the resolver checks its size and sets `value`."""

    raw: str
    value: int | float = field(default=0, init=False, repr=False)


@dataclass(eq=False)
class String(Expr):
    """A text literal as written (with its quotes); the resolver reads it into `value`."""

    raw: str
    value: str = field(default="", init=False, repr=False)


@dataclass(eq=False)
class FString(Expr):
    """f'... {EXPR} ...': texts and the expressions whose values are written between them. `problem`: what is
    wrong with how it is written, reported when the resolver reaches it (where a text's first error is)."""

    fields = ("parts",)
    parts: list[str | Expr]
    problem: RuleError | None = None


@dataclass(eq=False)
class Constant(Expr):
    """True, False or None."""

    value: bool | None


# ------------------------------------------------------------------------------------------- names and reads
LOCAL, PARAM, GLOBAL, BUILTIN = "local", "param", "global", "built-in"  # what a Name means (Name.meaning)


@dataclass(eq=False)
class Name(Expr):
    """A name read: the resolver sets `meaning` (LOCAL, PARAM, GLOBAL or BUILTIN) and, for a param, `value`."""

    id: str
    meaning: str = field(default="", init=False, repr=False)
    value: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Attribute(Expr):
    """`base.name`; `per_player_memory`: a strategy's memory kept per player (item `base.index` of a tuple)."""

    fields = ("base",)
    base: Expr
    name: str
    name_at: Position | Location | None = None
    per_player_memory: bool = field(default=False, init=False, repr=False)
    # it reads a card's attribute (no other kind of object has one of that name): a plain value, checked as the
    # deck is made (naipes.runtime.memory), compared and hashed at no cost that grows (naipes.language.codegen)
    plain: bool = field(default=False, init=False, repr=False)


@dataclass(eq=False)
class Subscript(Expr):
    fields = ("base", "index")
    base: Expr
    index: Expr


@dataclass(eq=False)
class Slice(Expr):
    fields = ("lower", "upper")
    lower: Expr | None
    upper: Expr | None


@dataclass(eq=False)
class Keyword(Node):
    """`name=value` in a call."""

    fields = ("value",)
    name: str
    value: Expr


# What a call calls (Call.target), set by the resolver.
CALL_LOCAL, CALL_RECORD, CALL_FUNCTION, CALL_BUILTIN, VALUES_OF, EXISTS = (
    "local", "record", "function", "built-in", "values_of", "exists")


@dataclass(eq=False)
class Call(Expr):
    """`func(args...)`. `bare_generator`: written `f(x for x in xs)`, a generator without brackets of its own.

    The resolver sets `target` (CALL_LOCAL, CALL_RECORD, CALL_FUNCTION, CALL_BUILTIN, VALUES_OF, EXISTS), for a
    rule-file function the generated function it calls (`definition`: passes go by it), for a
    built-in which arguments it charges per item (`charged`) and whether it takes a key (`keyed`); for
    values_of the values, for exists the kind of fact and the fields it looks up by, for a record given by name its
    fields in order (`found`). What a call computes with is always among its children (`args`), which passes replace."""

    fields = ("func", "args")
    func: Expr
    args: list[Expr | Keyword]
    bare_generator: bool = False
    target: str = field(default="", init=False, repr=False)
    charged: tuple[int, ...] = field(default=(), init=False, repr=False)
    keyed: bool = field(default=False, init=False, repr=False)
    found: Any = field(default=None, init=False, repr=False)
    key_steps: int = field(default=0, init=False, repr=False)  # steps its key lambda charges per item
    definition: str = field(default="", init=False, repr=False)  # a rule-file function's generated function

    @property
    def name(self) -> str | None:
        """The name called, when the callee is a name (the only calls the language has)."""
        return self.func.id if isinstance(self.func, Name) else None

    @property
    def positional(self) -> list[Expr]:
        return [arg for arg in self.args if not isinstance(arg, Keyword)]

    @property
    def keywords(self) -> list[Keyword]:
        return [arg for arg in self.args if isinstance(arg, Keyword)]


# ----------------------------------------------------------------------------------------------- operations
@dataclass(eq=False)
class BinOp(Expr):
    """`left op right` (+ - * / // %); a chain `a + b - c` is nested from the left, each located at the chain."""

    fields = ("left", "right")
    left: Expr
    op: str
    right: Expr
    op_at: Position | Location | None = None


@dataclass(eq=False)
class Compare(Expr):
    """`first op operand op operand ...`: Python's chained comparison; `ops` holds (op, where, operand)."""

    fields = ("first", "operands")
    first: Expr
    ops: list[tuple[str, Position | Location | None]]
    operands: list[Expr]
    # its operands are known cheap to compare by the pass that wrote it (a reduction's keys: naipes.language.codegen)
    cheap_operands: bool = field(default=False, init=False, repr=False)


@dataclass(eq=False)
class BoolOp(Expr):
    """`a and b and ...` or `a or b or ...`."""

    fields = ("values",)
    op: str
    values: list[Expr]


@dataclass(eq=False)
class Not(Expr):
    fields = ("operand",)
    operand: Expr


@dataclass(eq=False)
class Unary(Expr):
    """`-x` or `+x`."""

    fields = ("operand",)
    op: str
    operand: Expr
    op_at: Position | Location | None = None


@dataclass(eq=False)
class IfExp(Expr):
    """`body if test else orelse`."""

    fields = ("body", "test", "orelse")
    body: Expr
    test: Expr
    orelse: Expr


@dataclass(eq=False)
class Lambda(Expr):
    """`lambda params: body`; `spend`: steps its body charges at each call (naipes.language.steps)."""

    fields = ("body",)
    params: list[str]
    body: Expr
    spend: int = field(default=0, init=False, repr=False)


# ---------------------------------------------------------------------------------------------- collections
@dataclass(eq=False)
class TupleExpr(Expr):
    fields = ("items",)
    items: list[Expr]


@dataclass(eq=False)
class ListExpr(Expr):
    fields = ("items",)
    items: list[Expr]


@dataclass(eq=False)
class SetExpr(Expr):
    fields = ("items",)
    items: list[Expr]


@dataclass(eq=False)
class Pair(Node):
    """`key: value` in a dict or a dict comprehension."""

    fields = ("key", "value")
    key: Expr
    value: Expr


@dataclass(eq=False)
class DictExpr(Expr):
    fields = ("pairs",)
    pairs: list[Pair]


@dataclass(eq=False)
class ForClause(Node):
    """`for names in iterable [if condition]` of a comprehension."""

    fields = ("iterable", "condition")
    names: list[str]
    iterable: Expr
    condition: Expr | None
    each: int = field(default=1, init=False, repr=False)  # steps charged per item (naipes.language.steps)


@dataclass(eq=False)
class Comprehension(Expr):
    """`[e for ...]` (kind "list"), `{e for ...}` ("set"), `{k: v for ...}` ("dict", `element` a Pair) or
    `(e for ...)` ("generator"). The resolver sets `lazy` where a generator stays one: alone as the argument of
    a built-in that goes over it; everywhere else it is a list."""

    fields = ("element", "clauses")
    kind: str
    element: Expr | Pair
    clauses: list[ForClause]
    lazy: bool = field(default=False, init=False, repr=False)


# ----------------------------------------------------------------------------------------------- statements
@dataclass(eq=False)
class Let(Stmt):
    """`let a, b = value`: new locals."""

    word = "let"
    fields = ("value",)
    names: list[str]
    name_ats: list[Position | Location | None]
    value: Expr


@dataclass(eq=False)
class NameTarget(Node):
    name: str


@dataclass(eq=False)
class AttrTarget(Node):
    fields = ("base",)
    base: Expr
    name: str
    name_at: Position | Location | None = None


# What an assignment writes (Assign.writes), set by the resolver.
WRITES_LOCAL, WRITES_GLOBAL, WRITES_PLAYER, WRITES_MEMORY = "local", "global", "player", "memory"
WRITES_TEAM = "team"  # a player's variable that his team shares (player_state: {team: true})


@dataclass(eq=False)
class Assign(Stmt):
    """`target = value`, or `target op= value` (op: + - * //). The resolver sets `writes`, `declared` (the type
    the target holds, for the arithmetic of `op=`) and, for a player's variable, `temporary`: the number of the
    local that holds the player (numbered within the text)."""

    word = "assign"
    fields = ("target", "value")
    target: NameTarget | AttrTarget
    op: str | None
    value: Expr
    writes: str = field(default="", init=False, repr=False)
    declared: str | None = field(default=None, init=False, repr=False)
    temporary: int = field(default=0, init=False, repr=False)


@dataclass(eq=False)
class Move(Stmt):
    word = "move"
    fields = ("cards", "source", "dest")
    cards: Expr
    source: Expr | None
    dest: Expr
    bottom: bool


@dataclass(eq=False)
class Shuffle(Stmt):
    word = "shuffle"
    fields = ("zone",)
    zone: Expr


@dataclass(eq=False)
class Show(Stmt):
    """`show CARDS`: every player sees the cards where they are; they stay there."""
    word = "show"
    fields = ("cards",)
    cards: Expr


@dataclass(eq=False)
class Deal(Stmt):
    """`deal COUNT from SOURCE to DESTS`; `count` None: `deal all`, every card of the source."""
    word = "deal"
    fields = ("count", "source", "dests")
    count: Expr | None
    source: Expr
    dests: Expr


@dataclass(eq=False)
class Ask(Stmt):
    """`ask PLAYER to MOVES`; with `group` ('each' or 'any'), `player` is the players asked together."""
    word = "ask"
    fields = ("player",)
    player: Expr
    moves: list[str]
    move_ats: list[Position | Location | None]
    group: str | None = None


@dataclass(eq=False)
class EndGame(Stmt):
    word = "end"
    fields = ("winners",)
    winners: Expr | None


@dataclass(eq=False)
class Announce(Stmt):
    word = "announce"
    fields = ("values",)
    values: list[Expr]


@dataclass(eq=False)
class Goto(Stmt):
    """`goto PHASE [if COND else PHASE]`; the resolver sets `stages`, the stage each phase starts in (None:
    the game has no stages)."""

    word = "goto"
    fields = ("condition",)
    target: str
    target_at: Position | Location | None
    condition: Expr | None
    otherwise: str | None
    otherwise_at: Position | Location | None
    stages: tuple[str | None, str | None] | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Refresh(Stmt):
    word = "refresh"
    rule: str
    rule_at: Position | Location | None = None


@dataclass(eq=False)
class Pass(Stmt):
    word = "pass"


@dataclass(eq=False)
class Return(Stmt):
    word = "return"
    fields = ("value",)
    value: Expr | None


@dataclass(eq=False)
class AssertFact(Stmt):
    word = "assert"
    fields = ("value",)
    value: Expr


@dataclass(eq=False)
class Retract(Stmt):
    word = "retract"
    fields = ("value",)
    value: Expr


@dataclass(eq=False)
class Modify(Stmt):
    """`modify FACT(field=value, ...)`; the resolver checks the call's shape and the fields."""

    word = "modify"
    fields = ("value",)
    value: Expr


@dataclass(eq=False)
class Branch(Node):
    """`elif test:` or `else:` (test None) and the block under it."""

    fields = ("test", "body")
    test: Expr | None
    body: list[Stmt]


@dataclass(eq=False)
class If(Stmt):
    word = "if"
    fields = ("test", "body", "branches")
    test: Expr
    body: list[Stmt]
    branches: list[Branch]


@dataclass(eq=False)
class For(Stmt):
    word = "for"
    fields = ("iterable", "body")
    names: list[str]
    iterable: Expr
    body: list[Stmt]


def always_returns(statements: list[Stmt]) -> bool:
    """Whether a statement list ends in `return` on every path (an `if` needs an `else`)."""
    last = statements[-1] if statements else None
    if isinstance(last, Return):
        return True
    if not isinstance(last, If):
        return False
    has_else = any(branch.test is None for branch in last.branches)
    return has_else and all(always_returns(body) for body in [last.body, *(b.body for b in last.branches)])


# ------------------------------------------------------------------------------------- the engine's own nodes
# What the section readers and the linker build around a file's texts: nodes no rule-language text can write
# (the engine's locals are Names of LOCAL meaning whose names start with '_', which no file can write either).
@dataclass(eq=False)
class Literal(Expr):
    """A plain value the engine puts in the code (a param, a card table, a move's name), written as a literal."""

    value: Any


@dataclass(eq=False)
class Bits(Expr):
    """A bit mask of the engine's (the agenda's rules: up to 62 bits), written as a number: no rule file wrote it,
    so the sizes a rule file's numbers are held to (codegen.literal) do not apply."""

    value: int


@dataclass(eq=False)
class Generated(Expr):
    """A call of another generated function of the module, `name(M, V, args...)` (a rule's condition, a step's
    actions, a reduction's loop: naipes.language.reductions)."""

    fields = ("args",)
    name: str
    args: list[Expr] = field(default_factory=list)


@dataclass(eq=False)
class MemoryCall(Expr):
    """A call of a method of the working memory, `M.method(args)` (M.step(), M.in_phase(...), M.given(...))."""

    fields = ("args",)
    method: str
    args: list[Expr]


@dataclass(eq=False)
class Copy(Expr):
    """A new list of the items of `value` (a move's candidates, a rule's domain: never the collection itself)."""

    fields = ("value",)
    value: Expr


@dataclass(eq=False)
class Filter(Expr):
    """The items of `items` for which `test` holds, with `item` (a local, or None: no name) bound to each: a step
    of a move's legality cascade."""

    fields = ("items", "test")
    item: str | None
    items: Expr
    test: Expr
    each: int = field(default=0, init=False, repr=False)  # steps charged per item (naipes.language.steps)


@dataclass(eq=False)
class TableLookup(Expr):
    """A card table's value for `key`: `values` (a dict written in the rule file) looked up, else `default`."""

    fields = ("key",)
    values: dict[Any, Any]
    key: Expr
    default: Any


@dataclass(eq=False)
class DeckProduct(Expr):
    """The cards of a deck listed by attribute: one per combination of the attributes' `values` (each a Literal
    list or a Generated call), `copies` times, then the `extra` cards."""

    fields = ("copies", "values")
    attributes: list[str]
    copies: Expr
    values: list[Expr]
    extra: list[Any]


@dataclass(eq=False)
class Do(Stmt):
    """A call made for what it does (M.entering_step(...), a step's actions called)."""

    word = "call"
    fields = ("call",)
    call: Expr


@dataclass(eq=False)
class Grow(Stmt):
    """`target = target + [...]` (or `target += [...]`) on a state variable or a player's attribute, made by the
    optimiser (naipes.language.passes): the memory's grow_var or grow_attr adds `added` (a list display), weighing
    only what the list gains. `temporary`: the assignment's (the local that holds the player)."""

    word = "assign"
    fields = ("target", "added")
    target: NameTarget | AttrTarget
    added: Expr
    temporary: int = 0


@dataclass(eq=False)
class MaskUpdate(Stmt):
    """`local |= bits` or `local &= bits` on an engine local holding a bit mask (the agenda's live rules)."""

    word = "assign"
    name: str
    op: str
    bits: int


@dataclass(eq=False)
class Temporary(Expr):
    """A read of a temporary of the optimiser (`_t1`: an inlined call's argument, computed once: Keep)."""

    name: str


@dataclass(eq=False)
class Keep(Expr):
    """`value`, kept in the temporary `name` as it is computed (`(_t1 := value)`), for the reads that follow."""

    fields = ("value",)
    name: str
    value: Expr


@dataclass(eq=False)
class Unset(Expr):
    """The engine's value of a local not set yet (`B_UNSET`: an object nothing else is)."""


@dataclass(eq=False)
class Remember(Expr):
    """`value`, computed the first time it is needed and kept in the temporary `name` for the reads that follow
    (`(_h1 if _h1 is not B_UNSET else (_h1 := value))`: naipes.language.hoisting); a SetTemporary before it sets
    the temporary to Unset."""

    fields = ("value",)
    name: str
    value: Expr


@dataclass(eq=False)
class SetTemporary(Stmt):
    """`name = value` for a temporary of the optimiser (Unset: a remembered value not computed yet)."""

    word = "assign"
    fields = ("value",)
    name: str
    value: Expr


@dataclass(eq=False)
class Append(Stmt):
    """`value` appended to the list in the local `name` (a filter made a loop: naipes.language.loops)."""

    word = "assign"
    fields = ("value",)
    name: str
    value: Expr


@dataclass(eq=False)
class Break(Stmt):
    """The end of the loop it is in (a loop deciding `all` or `any` stops at the item that settles it)."""

    word = "break"


@dataclass(eq=False)
class Loop(Stmt):
    """`for names in iterable:` over a collection as it is (no copy, no charge: the optimiser's own loops, over
    items already charged)."""

    word = "for"
    fields = ("iterable", "body")
    names: list[str]
    iterable: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Definition(Node):
    """A generated function of the module: `name(M, V, params...)` returning `body` (an expression) or running it
    (statements); `what` says what it is in errors ("condition of rule 'lead'"); `kind` what the engine made it for
    (naipes.language.sections.Definition.kind), which the optimiser goes by; `reads`: values it takes after its
    params, each under the name it has where it is read (a reduction's locals and temporaries of its caller)."""

    fields = ("body",)
    name: str
    params: tuple[str, ...]
    body: Expr | list[Stmt]
    what: str
    kind: str = ""
    reads: list[Expr] = field(default_factory=list)


def function_name(name: str) -> str:
    """The generated function of a rule file's function (or card table) `name`: the one place its name is made
    (the resolver puts it on every call, :attr:`Call.definition`)."""
    return f"F_{name}"


CANDIDATES, ALLOWED = "__candidates", "__allowed"  # the engine's locals of a move's choices (no file names one)


def local(name: str, at: Position | Location | None = None, type_: str | None = None) -> Name:
    """A read of a local (the engine's own start with '_': '__candidates'), of the static type `type_` if known."""
    node = Name(name, at=at)
    node.meaning = LOCAL
    node.type = type_
    return node


ENDS_TURN = "_ends_turn"  # the engine's local of a move's effect: `end turn` sets it (naipes.language.moves)


def set_local(name: str, value: Expr, at: Position | Location | None = None) -> Assign:
    """`name = value` for a local."""
    node = Assign(NameTarget(name, at=at), None, value, at=at)
    node.writes = WRITES_LOCAL
    return node


def global_name(name: str, at: Position | Location | None = None) -> Name:
    """A read of a state variable (V[name])."""
    node = Name(name, at=at)
    node.meaning = GLOBAL
    return node


def builtin_call(name: str, args: list[Expr], at: Position | Location | None = None) -> Call:
    """A call of a built-in that goes over no collection (`all_cards()`)."""
    node = Call(Name(name, at=at), list(args), at=at)
    node.target = CALL_BUILTIN
    return node
