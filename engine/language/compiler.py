"""Compile rule-language trees to Python source, checking them on the way.

Like a template engine, every condition, action and function is turned into
Python source once; :mod:`naipes.program` compiles all of it into one code
object.  On the way the compiler

* resolves every name (a local, a param — inlined as a constant —, a state
  variable, a zone, a function, a built-in) and refuses anything else, which
  is what makes the language a sandbox: there is no way to name a Python
  object the symbol table does not list, nor an attribute starting with '_';
* checks arity, attributes and the type mismatches visible before running;
* records what each piece *reads* (global names, player attributes), so the
  agenda re-evaluates a rule only when something it reads was written.

Generated functions take ``M`` (the working memory) and ``V`` (its variables
dict) first; rule-file locals are renamed ``v_<name>``.
"""
from __future__ import annotations

import ast
import keyword
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, NoReturn

from lark import Token, Tree

from ..errors import Location, RuleError, did_you_mean
from ..library.builtins import BUILTINS
from ..program import CARD_ATTRIBUTES, PLAYER_ATTRIBUTES, ZONE_ATTRIBUTES, attribute
from .loader import MAX_DIGITS, Text, number_problem
from .parser import node_location, parse_block, parse_expression

NUMERIC = {"int", "float", "bool"}
# Attributes every object of a kind has, beyond those the rule file declares.
PLAYER_BUILTIN_ATTRS, CARD_BUILTIN_ATTRS, ZONE_ATTRS = PLAYER_ATTRIBUTES, CARD_ATTRIBUTES, ZONE_ATTRIBUTES
ANY = "*"  # a read of an attribute of any object
GENERATOR = "generator"  # the type of a generator expression, which only a built-in going over it ever receives


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


def literal(value: Any) -> str:
    """Python source for a plain value from a rule file (None, a bool, number, text, or a collection of those).

    Anything else (a non-finite float, a number too large, an object of
    another type) raises ValueError: only values whose source is known
    to be a literal ever enter generated code.
    """
    if value is None or isinstance(value, (bool, str)):
        return repr(value)
    if isinstance(value, (int, float)):
        problem = number_problem(value)
        if problem:
            raise ValueError(f"{value!r} is {problem}")
        return repr(value)
    if isinstance(value, (list, tuple)):
        items = ", ".join(literal(v) for v in value)
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"a value of type {type(value).__name__} cannot stand in a rule file")


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
    card_values: dict[str, tuple] = field(default_factory=dict)  # card attribute -> the values listed for it
    # a strategy's per-player memory: p.NAME reads item p.index of the global NAME (a tuple, one per player)
    player_memory: set[str] = field(default_factory=set)

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
    """What compiling one piece of rule text produced."""

    source: list[tuple[int, str, Location | None]]  # (indent, python line, origin)
    reads: set = field(default_factory=set)  # global names; (attr, bound var | seat number | ANY) pairs
    calls: set = field(default_factory=set)  # user functions called
    type: str | None = None
    tests: int = 0  # atomic tests in a condition (specificity)
    guard: tuple | None = None  # (global name, literal) when the condition is `name == literal and ...`
    uses: set = field(default_factory=set)  # the locals in scope it reads (an expression's: `player`, ...)


def element_type(collection: str | None) -> str | None:
    """The type of what a collection of `collection`'s type holds, where known: a zone's cards, facts."""
    if collection == "zone":
        return "card"
    if collection is not None and _facts(collection):
        return f"record {collection[len('facts '):]}"
    return None


def _facts(typ: str | None) -> bool:
    return typ is not None and typ.startswith("facts ")


def _type_of_value(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    for t in (int, float, str, list, tuple, set, dict):
        if isinstance(value, t):
            return t.__name__
    return None


def _numeric(t: str | None) -> bool:
    return t in NUMERIC


class CompileError(RuleError):
    pass


class Compiler:
    """Compiles rule-language text against a symbol table, collecting errors."""

    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.errors: list[RuleError] = []
        # Set for a strategy's actions: the only names they may assign (its own memory).
        self.writable: set[str] | None = None

    # ------------------------------------------------------------ entry points
    def expression(self, text: str, scope: dict[str, str | None], *, bound: AbstractSet[str] = frozenset(),
                   what: str = "expression", allow_random: bool = False) -> Unit | None:
        """Compile a condition / function body; returns None after recording an error."""
        try:
            tree = parse_expression(text, what)
            job = _Job(self, text, scope, bound, allow_random, what)
            job.wrapped = True
            src, typ = job.expr(tree)
            return Unit([(0, src, job.origin(tree))], job.reads, job.calls, typ, _count_tests(tree),
                        _equality_guard(tree, self.sym, scope), job.uses & set(scope))
        except RuleError as exc:
            self.errors.append(exc)
            return None

    def conjuncts(self, text: str, scope: dict[str, str | None], what: str) -> list[tuple[Unit, tuple | None]]:
        """The tests a condition `A and B and ...` makes, each compiled alone (what it reads, which locals it
        uses), with the two sides of a test `X == Y` compiled alone too; [] if the condition does not compile
        (its own compilation reports why)."""
        def unit(job: _Job, node: Tree) -> Unit:
            src, typ = job.expr(node)
            return Unit([(0, src, job.origin(node))], job.reads, job.calls, typ, uses=job.uses & set(scope))

        def part(node: Tree) -> Unit:
            job = _Job(Compiler(self.sym), text, scope, frozenset(), False, what)
            job.wrapped = True
            return unit(job, node)
        try:
            tree = parse_expression(text, what)
            found = []
            for node in tree.children if tree.data == "and_" else [tree]:
                sides = None
                if node.data == "compare" and len(node.children) == 3 and node.children[1].value == "==":
                    sides = (part(node.children[0]), part(node.children[2]))
                found.append((part(node), sides))
            return found
        except RuleError:
            return []

    def function_body(self, text: str, scope: dict[str, str | None], what: str) -> Unit | None:
        """A pure function written as statements: `let`, `if`, `for` and `return`, nothing written.

        Every way through it must end in a `return` (a located error otherwise)."""
        try:
            trees = parse_block(text, what)
            job = _Job(self, text, scope, frozenset(), False, what)
            job.pure = True
            lines: list[tuple[int, str, Location | None]] = []
            for tree in trees:
                job.stmt(tree, 0, lines)
            if not trees or not _always_returns(trees):
                job.fail(trees[-1] if trees else Token("NAME", "", line=1, column=1),
                         f"{what} can end without a value: every way through it ends in 'return EXPR'")
            return Unit(lines, job.reads, job.calls)
        except RuleError as exc:
            self.errors.append(exc)
            return None

    def block(self, texts: list[str], scope: dict[str, str | None], *, bound: AbstractSet[str] = frozenset(),
              what: str = "actions") -> Unit | None:
        """Compile a list of statement texts into one block of Python lines."""
        lines: list[tuple[int, str, Location | None]] = []
        reads, calls, ok = set(), set(), True
        locals_ = dict(scope)
        for text in texts:
            try:
                trees = parse_block(text, what)
                job = _Job(self, text, locals_, bound, True, what)
                for tree in trees:
                    job.stmt(tree, 0, lines)
                reads |= job.reads
                calls |= job.calls
                locals_ = job.scope
            except RuleError as exc:
                self.errors.append(exc)
                ok = False
        if not ok:
            return None
        return Unit(lines or [(0, "pass", None)], reads, calls)


_LITERALS = {"number": lambda t: ast.literal_eval(t.children[0].value),
             "string": lambda t: ast.literal_eval(t.children[0].value),
             "true": lambda t: True, "false": lambda t: False}


def _equality_guard(tree: Tree, sym: Symbols, scope: dict) -> tuple | None:
    """(name, literal) when a condition is `name == literal`, alone or first in an `and`.

    The agenda indexes such rules by the literal, so a write to `name` touches
    only the rules expecting its old and new values.
    """
    test = tree.children[0] if tree.data == "and_" else tree
    if test.data != "compare" or len(test.children) != 3 or test.children[1].value != "==":
        return None
    left, _, right = test.children
    if left.data != "name" or right.data not in _LITERALS:
        return None
    name = left.children[0].value
    if name in scope or name not in sym.globals or name == "players":
        return None
    return (name, _LITERALS[right.data](right))


def _count_tests(tree: Tree) -> int:
    if isinstance(tree, Tree) and tree.data in ("and_", "or_"):
        return sum(_count_tests(c) for c in tree.children)
    return 1


# `a * b`, `a + b` and `a - b` go through the size checks of naipes.library.limits (a repeated or joined sequence, a
# number of too many bits), unless one side is a number written in the rule file (for `*`, and the other side
# a number): then a value grows by at most that much per step, which the step budget bounds.
ARITHMETIC_CHECKED = {"*": "B_times", "+": "B_plus", "-": "B_minus"}


def _constant(src: str) -> bool:
    """Whether `src` is a number written in the rule file (or a param): a product by one grows slowly."""
    try:
        return isinstance(ast.literal_eval(src), (int, float))
    except (ValueError, SyntaxError):
        return False


def _binary(op: str, left: str, left_type: str | None, right: str, right_type: str | None) -> str:
    """Python for `left op right` (see ARITHMETIC_CHECKED)."""
    if op == "%" and not (_numeric(left_type) or _constant(left)):  # a text's % formats it: of any size
        return f"B_modulo(M, {left}, {right})"
    if op == "*":  # by a number, a number grows slowly; a text or list multiplied by one can be huge
        safe = (_constant(left) and _numeric(right_type)) or (_constant(right) and _numeric(left_type))
    else:
        safe = _constant(left) or _constant(right)
    if op in ARITHMETIC_CHECKED and not safe:
        return f"{ARITHMETIC_CHECKED[op]}(M, {left}, {right})"
    return f"({left} {op} {right})"


class _Job:
    """The state of compiling one text: scope, reads, where it came from."""

    def __init__(self, compiler: Compiler, text: str, scope: dict, bound: AbstractSet[str], allow_random: bool,
                 what: str):
        self.c = compiler
        self.sym = compiler.sym
        self.text = text
        self.scope = dict(scope)
        self.bound = set(bound)
        self.allow_random = allow_random
        self.what = what
        self.reads: set = set()
        self.calls: set = set()
        self.tmp = 0
        self.wrapped = False  # expressions are parsed inside parentheses
        self.uses: set[str] = set()  # locals read (of the scope given, or made inside)
        self.pure = False  # a function's body: it computes, it changes nothing

    def origin(self, node: Tree | Token) -> Location | None:
        return node_location(self.text, node, self.wrapped)

    def fail(self, node: Tree | Token, message: str, hint: str | None = None) -> NoReturn:
        raise CompileError(message, self.origin(node), hint)

    # ------------------------------------------------------------ expressions
    def expr(self, node: Tree | Token) -> tuple[str, str | None]:
        method = getattr(self, "e_" + node.data, None)
        if method is None:  # pragma: no cover - grammar and compiler out of step
            self.fail(node, f"unsupported construct '{node.data}'")
        return method(node)

    def e_number(self, node: Tree) -> tuple[str, str]:
        text = node.children[0].value
        digits = text.split(".")[0].lstrip("0")
        if len(digits) > MAX_DIGITS:
            self.fail(node, f"the number is too large (at most {MAX_DIGITS} digits)")
        whole, _, fraction = text.partition(".")
        value = float(f"{digits or '0'}.{fraction}") if fraction else int(digits or "0")
        return literal(value), ("float" if "." in text else "int")

    def e_string(self, node: Tree) -> tuple[str, str]:
        try:
            value = ast.literal_eval(node.children[0].value)
        except (ValueError, SyntaxError):
            self.fail(node, "bad string literal")
        return repr(value), "str"

    def e_fstring(self, node: Tree) -> tuple[str, str]:
        """f'text {expr} text': each expression compiled where it stands in the file, its value made text."""
        token = node.children[0]
        quote, body = token.value[1], token.value[2:-1]
        parts: list[str] = []
        chunk, i = "", 0
        while i < len(body):
            ch = body[i]
            if ch in "{}" and body[i + 1:i + 2] == ch:
                chunk, i = chunk + ch, i + 2
            elif ch == "}":
                self.fail(token, "a single '}' in an f-string: write '}}' for a brace")
            elif ch == "{":
                end = body.find("}", i)
                if end < 0:
                    self.fail(token, "'{' without its '}' in an f-string: write '{{' for a brace")
                if chunk:
                    parts.append(literal(self._text_chunk(token, quote, chunk)))
                    chunk = ""
                parts.append(f"B_str(M, {self._inner_expression(token, 2 + i + 1, body[i + 1:end])})")
                i = end + 1
            else:
                chunk, i = chunk + ch, i + 1
        if chunk or not parts:
            parts.append(literal(self._text_chunk(token, quote, chunk)))
        src = parts[0]
        for part in parts[1:]:
            src = _binary("+", src, "str", part, "str")
        return src, "str"

    def _text_chunk(self, token: Token, quote: str, raw: str) -> str:
        try:
            value = ast.literal_eval(quote + raw + quote)
        except (ValueError, SyntaxError):
            self.fail(token, "bad text in an f-string")
        return value

    def _inner_expression(self, token: Token, offset: int, inner: str) -> str:
        """The Python source of an f-string's `{inner}`, `offset` characters into the token."""
        if not inner.strip():
            self.fail(token, "an empty {} in an f-string: write an expression inside")
        col = (token.column or 1) + offset
        if self.wrapped and (token.line or 1) == 1:
            col -= 1
        where = node_location(self.text, Token("FSTRING", "", line=token.line or 1, column=col))
        text: str = inner
        if where is not None:  # a text from a file: its errors point into the f-string
            text = Text(inner)
            text.loc, text.block_indent = where, None
        saved = self.text, self.wrapped
        self.text, self.wrapped = text, True
        try:
            return self.expr(parse_expression(text, self.what))[0]
        finally:
            self.text, self.wrapped = saved

    def e_true(self, node: Tree) -> tuple[str, str]:
        return "True", "bool"

    def e_false(self, node: Tree) -> tuple[str, str]:
        return "False", "bool"

    def e_none(self, node: Tree) -> tuple[str, None]:
        return "None", None

    def e_name(self, node: Tree) -> tuple[str, str | None]:
        token = node.children[0]
        name = token.value
        if name.startswith("_"):
            self.fail(token, f"names starting with '_' are not allowed ('{name}')")
        if name in self.scope:
            self.uses.add(name)
            return f"v_{name}", self.scope[name]
        if name in self.sym.params:
            value = self.sym.params[name]
            return literal(value), _type_of_value(value)
        if name in self.sym.globals:
            if name != "players":
                self.reads.add(name)
            return f"V[{name!r}]", self.sym.globals[name]
        if name in self.sym.functions:
            self.fail(token, f"'{name}' is a function: call it, as in {name}(...)")
        if name in BUILTINS:
            builtin = BUILTINS[name]
            if builtin.state or builtin.random or builtin.costly:
                self.fail(token, f"'{name}' can only be called, not passed as a value",
                          f"write a lambda: lambda x: {name}(x)" if builtin.costly else None)
            return f"B_{name}", "function"
        if name in self.sym.moves:
            self.fail(token, f"'{name}' is a move: moves are offered with 'ask PLAYER to {name}'")
        known = [*self.scope, *self.sym.params, *self.sym.globals, *self.sym.functions, *BUILTINS]
        self.fail(token, f"unknown name '{name}'", did_you_mean(name, [k for k in known if not k.startswith("_")]))

    def e_getattr(self, node: Tree) -> tuple[str, str | None]:
        base_node, attr_token = node.children
        attr = attr_token.value
        base, base_type = self.expr(base_node)
        sym = self.sym
        if attr.startswith("_"):
            self.fail(attr_token, f"attributes starting with '_' are not allowed ('{attr}')")
        if attr in sym.player_memory:
            if base_type not in (None, "player"):
                self.fail(attr_token, f"'{attr}' is kept per player; this is a {base_type}")
            self.reads.add(attr)
            return f"V[{attr!r}][{base}.{attribute('index')}]", None
        tables: dict[str, Mapping[str, str | None]] = {"card": {**sym.card_attrs, **CARD_BUILTIN_ATTRS},
                  "player": {**sym.player_attrs, **PLAYER_BUILTIN_ATTRS}, "zone": ZONE_ATTRS,
                  **{f"record {r}": dict.fromkeys(fields) for r, fields in sym.records.items()}}
        if base_type in tables:
            if attr not in tables[base_type]:
                self.fail(attr_token, f"a {base_type} has no attribute '{attr}'", did_you_mean(attr, tables[base_type]))
        elif base_type is not None and base_type != "function":
            self.fail(attr_token, f"a value of type {base_type} has no attribute '{attr}'")
        else:
            known = {**sym.card_attrs, **sym.player_attrs, **CARD_BUILTIN_ATTRS, **PLAYER_BUILTIN_ATTRS, **ZONE_ATTRS,
                     **dict.fromkeys(sym.record_fields)}
            if attr not in known:
                self.fail(attr_token, f"unknown attribute '{attr}'", did_you_mean(attr, known))
        if attr in sym.player_attrs and base_type != "card":
            self.reads.add((attr, self._whose(base_node)))
        typ = {**PLAYER_BUILTIN_ATTRS, **sym.player_attrs}.get(attr) if base_type == "player" else \
            {**CARD_BUILTIN_ATTRS, **sym.card_attrs}.get(attr) if base_type == "card" else \
            sym.attribute_type(base_type, attr)
        return f"{base}.{attribute(attr)}", typ

    def _whose(self, base: Tree) -> Any:
        """Whose variable a read is: a bound variable's (its name), one seat's (`players[2]`: 2), or any player's."""
        if base.data == "name" and base.children[0].value in self.bound:
            return base.children[0].value
        if base.data == "getitem" and base.children[0].data == "name" and base.children[1].data == "number" \
                and base.children[0].children[0].value == "players" and "players" not in self.scope:
            seat = ast.literal_eval(base.children[1].children[0].value)
            if isinstance(seat, int) and seat >= 0:
                return seat
        return ANY

    def e_getitem(self, node: Tree) -> tuple[str, str | None]:
        base, base_type = self.expr(node.children[0])
        index, _ = self.expr(node.children[1])
        if base_type in NUMERIC:
            self.fail(node, f"a value of type {base_type} cannot be indexed")
        if node.children[1].data == "slice":
            return f"{base}[{index}]", (base_type if base_type in ("str", "tuple") or _facts(base_type) else None)
        return f"{base}[{index}]", ("str" if base_type == "str" else element_type(base_type))

    def e_slice(self, node: Tree) -> tuple[str, None]:
        lo, hi = node.children
        return f"{self.expr(lo)[0] if lo is not None else ''}:{self.expr(hi)[0] if hi is not None else ''}", None

    def _arguments(self, node: Tree | None, lazy: bool = False) -> tuple[list[str], dict[str, str], list[str | None]]:
        """The arguments of a call; `lazy`: a generator expression given as its one positional argument stays a
        generator (see _iterates)."""
        given = [arg for arg in (node.children if node is not None else []) if arg is not None]
        positional = [arg for arg in given if not (isinstance(arg, Tree) and arg.data == "kwarg")]
        lazy = lazy and len(positional) == 1 and isinstance(positional[0], Tree) and positional[0].data == "gen_comp"
        args, kwargs, types = [], {}, []
        for arg in given:
            if isinstance(arg, Tree) and arg.data == "kwarg":
                name = arg.children[0].value
                if name in kwargs:
                    self.fail(arg, f"keyword argument '{name}' given twice")
                kwargs[name] = self.expr(arg.children[1])[0]
            else:
                if kwargs:
                    self.fail(arg, "a positional argument cannot follow a keyword argument")
                src, typ = (self._generator(arg.children[0], arg.children[1:]), GENERATOR) if lazy else self.expr(arg)
                args.append(src)
                types.append(typ)
        return args, kwargs, types

    def e_call(self, node: Tree) -> tuple[str, str | None]:
        function = node.children[0]
        if function.data == "name" and function.children[0].value == "values_of" and "values_of" not in self.scope:
            return self._values_of(node), "list"
        if function.data == "name" and function.children[0].value == "exists" and "exists" not in self.scope:
            return self._exists(node), "bool"
        args, kwargs, types = self._arguments(node.children[1], lazy=self._iterates(node))
        return self._call(node, args, kwargs, types)

    def e_call_gen(self, node: Tree) -> tuple[str, str | None]:
        element, fors = node.children[1], node.children[2:]
        lazy = self._iterates(node)
        gen = self._generator(element, fors) if lazy else self._comprehension(element, fors, "[", "]")[0]
        return self._call(node, [gen], {}, [GENERATOR if lazy else "list"])

    def _iterates(self, call: Tree) -> bool:
        """Whether `call` is of a built-in that goes over its one argument, keeping only items (Builtin.iterates):
        the only place a generator expression stays a generator. Anywhere else it is a list, so that no value a
        file holds or passes is ever a generator (whose frame would lead to the engine's)."""
        function = call.children[0]
        if function.data != "name":
            return False
        name = function.children[0].value
        if name in self.scope or name in self.sym.records or name in self.sym.functions:
            return False
        return name in BUILTINS and BUILTINS[name].iterates

    def _generator(self, element: Tree, fors: list[Tree]) -> str:
        return self._comprehension(element, fors, "(", ")")[0]

    def _call(self, node: Tree, args: list[str], kwargs: dict[str, str],
              types: list[str | None] | None = None) -> tuple[str, str | None]:
        func_node = node.children[0]
        if func_node.data != "name":
            self.fail(node, "only named functions can be called")
        token = func_node.children[0]
        name = token.value
        allargs = ", ".join(args + [f"{k}={v}" for k, v in kwargs.items()])
        if name in self.scope:  # a function held in a local (a lambda, an argument): a step, as every call
            return f"M.call({', '.join([f'v_{name}', *args, *(f'{k}={v}' for k, v in kwargs.items())])})", None
        if name in self.sym.records:
            return self._record(node, name, args, kwargs), f"record {name}"
        if name in self.sym.functions:
            params = self.sym.functions[name]
            if kwargs:
                self.fail(node, f"'{name}' takes no keyword arguments")
            if len(args) != len(params):
                self.fail(node, f"'{name}' takes {len(params)} argument(s) ({', '.join(params)}), given {len(args)}")
            self.calls.add(name)
            return f"F_{name}(M, V{''.join(', ' + a for a in args)})", None
        if name in BUILTINS:
            b = BUILTINS[name]
            if len(args) < b.min_args or (b.max_args is not None and len(args) > b.max_args):
                most = "any number of" if b.max_args is None else str(b.max_args)
                takes = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {most}"
                self.fail(node, f"'{name}' takes {takes} argument(s), given {len(args)}")
            for key in kwargs:
                if key not in b.kwargs:
                    self.fail(node, f"'{name}' has no keyword argument '{key}'",
                              f"it accepts {', '.join(sorted(b.kwargs))}" if b.kwargs else None)
            if b.random and not self.allow_random:
                self.fail(token, f"'{name}' is random and cannot be used in {self.what}",
                          "conditions and functions must be pure; draw random numbers in actions")
            if b.iterates:
                args = self._charged(name, args, types or [None] * len(args))
                allargs = ", ".join(args + [f"{k}={v}" for k, v in kwargs.items()])
            lead = "M.rng" if b.random else "V" if b.state else "M" if b.costly else ""
            joined = ", ".join(x for x in (lead, allargs) if x)
            return f"B_{name}{'_keyed' if b.keyed is not None and 'key' in kwargs else ''}({joined})", b.returns
        self.e_name(func_node)  # raises the right "unknown name" error
        self.fail(node, f"'{name}' cannot be called")

    @staticmethod
    def _charged(name: str, args: list[str], types: list[str | None]) -> list[str]:
        """The arguments of a built-in that goes over a collection, each collection it goes over charged a step
        per item (Budget.charge): copying, sorting or searching a list is work as a loop over it is. A
        generator expression charges its own items as it runs; `min(a, b)` goes over no collection."""
        if name in ("min", "max") and len(args) != 1:
            return args
        over = len(args) if name == "zip" else 1
        return [f"M.charge({arg})" if i < over and types[i] != GENERATOR else arg for i, arg in enumerate(args)]

    def _values_of(self, node: Tree) -> str:
        """`values_of(ATTRIBUTE)`: the values the cards section lists for a card attribute, in its order."""
        given = node.children[1].children if node.children[1] is not None else []
        attr = given[0].children[0].value if len(given) == 1 and getattr(given[0], "data", None) == "name" else None
        if attr not in self.sym.card_values:
            listed = ", ".join(self.sym.card_values) or "none here"
            self.fail(node, "values_of takes the name of a card attribute whose values the cards section lists",
                      f"such attributes: {listed}")
        return literal(list(self.sym.card_values[attr]))

    def _exists(self, node: Tree) -> str:
        """`exists(KIND, field=value, ...)`: whether a fact of that kind holds those values (looked up in an
        index the memory keeps, not by going over the facts: CLIPS's `(not (KIND ...))` is `not exists(...)`)."""
        given = node.children[1].children if node.children[1] is not None else []
        kind_node = given[0] if given else None
        kind = kind_node.children[0].value if isinstance(kind_node, Tree) and kind_node.data == "name" else None
        if kind is None or kind not in self.sym.facts or kind in self.scope:
            self.fail(node, "exists takes a kind of fact, then the values its facts are looked up by: "
                            "exists(KIND, field=value, ...)",
                      f"kinds of fact: {', '.join(sorted(self.sym.facts))}" if self.sym.facts else
                      "declare the kinds of fact under 'facts:'")
        fields = self.sym.records[kind]
        wanted: dict[str, str] = {}
        for arg in given[1:]:
            if not (isinstance(arg, Tree) and arg.data == "kwarg"):
                self.fail(arg, "exists looks facts up by field=value")
            name = arg.children[0].value
            if name not in fields:
                self.fail(arg, f"a fact '{kind}' has no field '{name}'", did_you_mean(name, fields))
            if name in wanted:
                self.fail(arg, f"field '{name}' given twice")
            wanted[name] = self.expr(arg.children[1])[0]
        self.reads.add(kind)
        by = tuple(f for f in fields if f in wanted)  # (in the kind's order: one index serves every writing)
        values = "".join(f"{wanted[f]}, " for f in by)
        return f"M.has_fact({literal(kind)}, {literal(tuple(map(attribute, by)))}, ({values}))"

    def _record(self, node: Tree, name: str, args: list[str], kwargs: dict[str, str]) -> str:
        """`name(field=value, ...)`: a record with every field given, by name or all in order."""
        fields = self.sym.records[name]
        if args and (kwargs or len(args) != len(fields)):
            self.fail(node, f"record '{name}' takes its fields by name ({', '.join(fields)}) or all in order")
        for key in kwargs:
            if key not in fields:
                self.fail(node, f"record '{name}' has no field '{key}'", did_you_mean(key, fields))
        missing = [f for f in fields if f not in kwargs] if not args else []
        if missing:
            self.fail(node, f"record '{name}' needs every field: {', '.join(missing)} missing")
        values = args or [kwargs[f] for f in fields]
        return f"R_{name}({', '.join(values)})"

    def e_binop(self, node: Tree) -> tuple[str, str | None]:
        parts = node.children
        src, typ = self.expr(parts[0])
        for op, operand in zip(parts[1::2], parts[2::2]):
            rsrc, rtyp = self.expr(operand)
            left_type = typ
            if ((typ == "str" and _numeric(rtyp)) or (_numeric(typ) and rtyp == "str")) and op.value != "*":
                self.fail(op, f"cannot apply '{op.value}' to {typ} and {rtyp}",
                          "use str(x) to make text from a number" if op.value == "+" else None)
            if op.value in "+-*/%//" and typ in ("card", "player", "zone"):
                self.fail(op, f"cannot apply '{op.value}' to a {typ}")
            typ = typ if typ == rtyp and typ in ("int", "str", "float") else (
                "float" if {typ, rtyp} <= NUMERIC | {"float"} and "float" in (typ, rtyp) else None)
            if op.value == "/":
                typ = "float"
            src = _binary(op.value, src, left_type, rsrc, rtyp)
        return src, typ

    def e_unary(self, node: Tree) -> tuple[str, str | None]:
        op, operand = node.children
        src, typ = self.expr(operand)
        if typ == "str":
            self.fail(op, f"cannot apply unary '{op.value}' to a string")
        return f"({op.value}{src})", typ

    def e_compare(self, node: Tree) -> tuple[str, str]:
        parts = node.children
        src, typ = self.expr(parts[0])
        out = [src]
        for left, op, operand in zip(parts[0::2], parts[1::2], parts[2::2]):
            rsrc, rtyp = self.expr(operand)
            opv = " ".join(op.value.split())
            self._check_enum_compare(left, opv, operand)
            mixed = (typ == "str" and _numeric(rtyp)) or (_numeric(typ) and rtyp == "str")
            if mixed and opv in ("<", ">", "<=", ">="):
                self.fail(op, f"cannot order {typ} and {rtyp} with '{opv}'")
            if mixed and opv in ("==", "!="):
                self.fail(op, f"comparing {typ} with {rtyp}: '{opv}' is always {opv == '!='}",
                          "write numbers without quotes, or compare with str(...)")
            if opv in ("in", "not in") and _numeric(rtyp):
                self.fail(op, f"'{opv}' needs a collection on its right, not {rtyp}")
            if opv in ("is", "is not") and any(isinstance(side, Tree) and side.data in LITERALS
                                               for side in (left, operand)):
                self.fail(op, f"'{opv}' compares identity: write '{'==' if opv == 'is' else '!='}' to compare a value",
                          "'is' is for None, players, cards and zones")
            out += [opv, rsrc]
            typ = rtyp
        return f"({' '.join(out)})", "bool"

    def _logic(self, node: Tree, word: str) -> tuple[str, str | None]:
        """`a and b` / `a or b` is one of its operands, as in Python: typed only if they agree."""
        parts = [self.expr(c) for c in node.children]
        types = {t for _, t in parts}
        return "(" + f" {word} ".join(src for src, _ in parts) + ")", (types.pop() if len(types) == 1 else None)

    def e_and_(self, node: Tree) -> tuple[str, str | None]:
        return self._logic(node, "and")

    def e_or_(self, node: Tree) -> tuple[str, str | None]:
        return self._logic(node, "or")

    def e_not_(self, node: Tree) -> tuple[str, str]:
        return f"(not {self.expr(node.children[0])[0]})", "bool"

    def e_ifexp(self, node: Tree) -> tuple[str, str | None]:
        then, cond, other = node.children
        a, ta = self.expr(then)
        b, tb = self.expr(other)
        return f"({a} if {self.expr(cond)[0]} else {b})", (ta if ta == tb else None)

    def e_lambda_expr(self, node: Tree) -> tuple[str, str]:
        names = [c.value for c in node.children[:-1] if isinstance(c, Token)]
        saved, saved_bound = dict(self.scope), self.bound
        self.scope.update({n: None for n in names})
        self.bound = self.bound - set(names)
        body, _ = self.expr(node.children[-1])
        self.scope, self.bound = saved, saved_bound
        return f"(lambda {', '.join('v_' + n for n in names)}: {body})", "function"

    def _items(self, node: Tree) -> list[str]:
        return [self.expr(c)[0] for c in node.children if c is not None]

    def e_tuple(self, node: Tree) -> tuple[str, str]:
        items = self._items(node)
        return "(" + "".join(i + ", " for i in items) + ")", "tuple"

    def e_list(self, node: Tree) -> tuple[str, str]:
        return "[" + ", ".join(self._items(node)) + "]", "list"

    def e_set(self, node: Tree) -> tuple[str, str]:
        return "{" + ", ".join(self._items(node)) + "}", "set"

    def e_dict(self, node: Tree) -> tuple[str, str]:
        pairs = [f"{self.expr(p.children[0])[0]}: {self.expr(p.children[1])[0]}"
                 for p in node.children if p is not None]
        return "{" + ", ".join(pairs) + "}", "dict"

    def _comprehension(self, element: Tree, fors: list[Tree], open_: str, close: str) -> tuple[str, None]:
        saved, saved_bound = dict(self.scope), self.bound
        clauses = []
        for clause in fors:
            *names, iterable, cond = clause.children
            it, it_type = self.expr(iterable)
            if _numeric(it_type):
                self.fail(iterable, f"cannot iterate over a value of type {it_type}")
            self.scope.update({n.value: (element_type(it_type) if len(names) == 1 else None) for n in names})
            self.bound = self.bound - {n.value for n in names}
            text = f"for {', '.join('v_' + n.value for n in names)} in M.charge({it})"
            if cond is not None:
                text += f" if {self.expr(cond)[0]}"
            clauses.append(text)
        if element.data == "pair":
            body = f"{self.expr(element.children[0])[0]}: {self.expr(element.children[1])[0]}"
        else:
            body = self.expr(element)[0]
        self.scope, self.bound = saved, saved_bound
        return f"{open_}{body} {' '.join(clauses)}{close}", None

    def e_list_comp(self, node: Tree) -> tuple[str, str]:
        return self._comprehension(node.children[0], node.children[1:], "[", "]")[0], "list"

    def e_set_comp(self, node: Tree) -> tuple[str, str]:
        return self._comprehension(node.children[0], node.children[1:], "{", "}")[0], "set"

    def e_dict_comp(self, node: Tree) -> tuple[str, str]:
        return self._comprehension(node.children[0], node.children[1:], "{", "}")[0], "dict"

    def e_gen_comp(self, node: Tree) -> tuple[str, str]:
        """`(x for x in xs)` anywhere but alone in a call of a built-in that goes over it (see _iterates): a list."""
        return self._comprehension(node.children[0], node.children[1:], "[", "]")[0], "list"

    # ------------------------------------------------------------- statements
    def stmt(self, node: Tree, indent: int, out: list) -> None:
        method = getattr(self, "s_" + node.data, None)
        if method is None:  # pragma: no cover
            self.fail(node, f"unsupported statement '{node.data}'")
        if self.pure and node.data not in PURE_STATEMENTS and not self._assigns_a_local(node):
            word = node.data.removesuffix("_stmt").replace("aug_", "").replace("_", " ")
            target = node.children[0] if word == "assign" else None
            if target is not None and target.data == "name_target":
                word = f"assign '{target.children[0].value}'"
            self.fail(node, f"a function cannot {word}: functions only compute a value",
                      "'let NAME = EXPR' makes a local; the rules and moves change the game")
        method(node, indent, out)

    def _assigns_a_local(self, node: Tree) -> bool:
        target = node.children[0] if node.data in ("assign_stmt", "aug_assign_stmt") else None
        return target is not None and target.data == "name_target" and target.children[0].value in self.scope

    def s_return_stmt(self, node: Tree, indent: int, out: list) -> None:
        if not self.pure:
            self.fail(node, "'return' belongs in a function's body", "a rule's actions end by themselves")
        self.emit(out, indent, f"return {self.expr(node.children[0])[0]}", node)

    def emit(self, out: list, indent: int, line: str, node: Tree | Token) -> None:
        out.append((indent, line, self.origin(node)))

    def s_pass_stmt(self, node: Tree, indent: int, out: list) -> None:
        self.emit(out, indent, "pass", node)

    def s_let_stmt(self, node: Tree, indent: int, out: list) -> None:
        *names, value = node.children
        for token in names:
            name = token.value
            if name.startswith("_"):
                self.fail(token, f"names starting with '_' are not allowed ('{name}')")
            clash = "a param" if name in self.sym.params else \
                "a state variable or zone" if name in self.sym.globals else \
                "a function" if name in self.sym.functions or name in BUILTINS else None
            if clash:
                self.fail(token, f"'{name}' is already {clash}; choose another name for the local")
        src, typ = self.expr(value)
        targets = ", ".join(f"v_{t.value}" for t in names)
        for token in names:
            self.scope[token.value] = typ if len(names) == 1 else None
        self.bound = self.bound - {t.value for t in names}
        if len(names) > 1:
            self.emit(out, indent, f"{targets}, = M.unpack({src}, {len(names)})", node)
        else:
            self.emit(out, indent, f"{targets} = {src}", node)

    def _check_assignable(self, node: Tree, name: str, typ: str | None) -> str:
        """Python to write global `name` (declared) with a type check."""
        sym = self.sym
        if name in sym.params:
            self.fail(node, f"'{name}' is a param: params are read-only while the game runs")
        if name in sym.zones:
            self.fail(node, f"'{name}' is a zone: cards change zones with 'move'")
        if name in sym.facts:
            self.fail(node, f"'{name}' holds facts: 'assert', 'modify' and 'retract' change it")
        if name == "players":
            self.fail(node, "'players' is fixed for the whole game")
        if name in sym.player_memory:
            self.fail(node, f"'{name}' is kept per player", f"write one player's: p.{name} = ...")
        if name not in sym.globals:
            self.fail(node, f"'{name}' is not a state variable", "declare it under 'state:', or use 'let' for a local")
        declared = sym.globals[name]
        self._check_type(node, name, declared, typ)
        return name

    def _check_type(self, node: Tree, name: str, declared: str | None, typ: str | None) -> None:
        if (declared and typ and declared != typ and not ({declared, typ} <= NUMERIC | {"float"})
                and (declared in ("str", "int", "float", "bool") or typ in ("str",))):
            self.fail(node, f"'{name}' holds {declared}, but this assigns {typ}")

    def s_assign_stmt(self, node: Tree, indent: int, out: list) -> None:
        target, value = node.children
        self._assign(node, target, None, value, indent, out)

    def s_aug_assign_stmt(self, node: Tree, indent: int, out: list) -> None:
        target, op, value = node.children
        self._assign(node, target, op.value[:-1], value, indent, out)

    def _check_augmented(self, node: Tree, op: str, current: str | None, typ: str | None) -> None:
        if ((current == "str" and _numeric(typ)) or (_numeric(current) and typ == "str")) and op != "*":
            self.fail(node, f"cannot apply '{op}=' to {current} and {typ}")

    def _assign(self, node: Tree, target: Tree, op: str | None, value: Tree, indent: int, out: list) -> None:
        src, typ = self.expr(value)
        if target.data == "name_target":
            name = target.children[0].value
            if name in self.scope:
                if op:
                    self._check_augmented(node, op, self.scope[name], typ)
                new = _binary(op, f"v_{name}", self.scope[name], src, typ) if op else src
                self.emit(out, indent, f"v_{name} = {new}", node)
                return
            self._check_assignable(target, name, None if op else typ)
            self._check_writable(target, name)
            if not op:
                self._check_enum(name, value)
            if op:
                self._check_augmented(node, op, self.sym.globals.get(name), typ)
            new = _binary(op, f"V[{name!r}]", self.sym.globals.get(name), src, typ) if op else src
            self.emit(out, indent, f"M.set_var({name!r}, {new})", node)
            return
        base_node, attr_token = target.children
        attr = attr_token.value
        if attr in self.sym.player_memory:
            self._assign_player_memory(node, target, op, src, typ, indent, out)
            return
        self._check_writable(target, None)
        base, base_type = self.expr(base_node)
        if attr.startswith("_"):
            self.fail(attr_token, f"attributes starting with '_' are not allowed ('{attr}')")
        if base_type == "card" or (attr in self.sym.card_attrs and attr not in self.sym.player_attrs):
            self.fail(attr_token, "cards are immutable: their attributes cannot be assigned")
        if attr not in self.sym.player_attrs or attr in self.sym.zones:
            hint = did_you_mean(attr, self.sym.player_attrs)
            self.fail(attr_token, f"'{attr}' is not a per-player variable", hint or "declare it under 'player_state:'")
        if base_type not in (None, "player"):
            self.fail(attr_token, f"only players have variables; this is a {base_type}")
        self._check_type(target, attr, self.sym.player_attrs[attr], None if op else typ)
        if not op and attr in self.sym.attr_enums:
            self._check_enum("." + attr, value)
        if op:
            self._check_augmented(node, op, self.sym.player_attrs[attr], typ)
        self.tmp += 1
        obj = f"_o{self.tmp}"
        new = _binary(op, f"{obj}.{attribute(attr)}", self.sym.player_attrs[attr], src, typ) if op else src
        self.emit(out, indent, f"{obj} = {base}; M.set_attr({obj}, {attr!r}, {new})", node)

    def _assign_player_memory(self, node: Tree, target: Tree, op: str | None, src: str, typ: str | None,
                              indent: int, out: list) -> None:
        """`p.NAME = value` for a strategy's per-player memory NAME: item p.index of the tuple changes."""
        base_node, attr_token = target.children
        name = attr_token.value
        self._check_writable(target, name)
        base, base_type = self.expr(base_node)
        if base_type not in (None, "player"):
            self.fail(attr_token, f"'{name}' is kept per player; this is a {base_type}")
        self.tmp += 1
        obj = f"_o{self.tmp}"
        index = f"{obj}.{attribute('index')}"
        new = _binary(op, f"V[{name!r}][{index}]", None, src, typ) if op else src
        self.emit(out, indent, f"{obj} = {base}; M.set_var({name!r}, B_replaced(V[{name!r}], {index}, {new}))", node)

    def _check_writable(self, node: Tree, name: str | None, action: str = "assign") -> None:
        """In a strategy, actions may change only the strategy's own memory, never the game."""
        writable = self.c.writable
        if writable is not None and (name is None or name not in writable):
            what = (f"use '{action}'" if action != "assign" else f"assign '{name}'" if name else
                    "assign player variables")
            self.fail(node, f"a strategy cannot {what}: it changes only its own memory",
                      f"its memory: {', '.join(sorted(writable))}" if writable else "declare it under 'memory:'")

    def _zone(self, node: Tree) -> str:
        src, typ = self.expr(node)
        if typ is not None and typ not in ("zone", "list"):
            self.fail(node, f"expected a zone here, got a value of type {typ}")
        return src

    def s_move_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, None, 'move')
        cards, source, dest, bottom = node.children
        csrc, ctyp = self.expr(cards)
        if _numeric(ctyp) or ctyp == "str":
            self.fail(cards, f"'move' takes a card or a list of cards, not {ctyp}")
        src = self._zone(source) if source is not None else "None"
        self.emit(out, indent, f"M.move({csrc}, {self._destination(dest)}, {src}, {bool(bottom)})", node)

    def _destination(self, node: Tree) -> str:
        """A zone cards are put into: naming it is no read of what it holds (a pile nothing reads stays out of
        the search's memo keys), though what the naming reads (`winner` in `winner.won`) is."""
        before = set(self.reads)
        src = self._zone(node)
        if node.data == "name" and node.children[0].value in self.sym.zones:
            written = node.children[0].value
        elif node.data == "getattr" and node.children[1].value in self.sym.zones:
            written = (node.children[1].value, self._whose(node.children[0]))
        else:
            return src
        if written not in before:
            self.reads.discard(written)
        return src

    def s_shuffle_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, None, 'shuffle')
        self.emit(out, indent, f"M.shuffle({self._zone(node.children[0])})", node)

    def s_deal_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, None, 'deal')
        count, source, dests = node.children
        n, ntyp = self.expr(count)
        if ntyp not in (None, "int"):
            self.fail(count, f"'deal' needs a number of cards, not {ntyp}")
        self.emit(out, indent, f"M.deal({n}, {self._zone(source)}, {self.expr(dests)[0]})", node)

    def s_ask_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, None, 'ask')
        player, *moves = node.children
        psrc, ptyp = self.expr(player)
        if ptyp not in (None, "player"):
            self.fail(player, f"'ask' needs a player, not {ptyp}")
        for move in moves:
            if move.value not in self.sym.moves:
                self.fail(move, f"unknown move '{move.value}'", did_you_mean(move.value, self.sym.moves))
        names = tuple(m.value for m in moves)
        self.emit(out, indent, f"M.ask({psrc}, {names!r})", node)

    def s_end_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, None, 'end')
        _, winners = node.children
        src = self.expr(winners)[0] if winners is not None else "None"
        self.emit(out, indent, f"M.end_game({src})", node)

    def s_goto_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, "phase", "goto")
        target, condition, otherwise = node.children
        phases = self.sym.enums.get("phase", ())
        for name in filter(None, (target, otherwise)):
            if name.value not in phases:
                self.fail(name, f"unknown phase '{name.value}'",
                          did_you_mean(name.value, phases) or (f"phases: {', '.join(phases)}" if phases else
                                                               "declare it under 'phases:'"))
        test = self.expr(condition)[0] if condition is not None else None

        def chosen(of: Callable[[str], Any]) -> str:
            return literal(of(target.value)) if test is None else \
                f"({literal(of(target.value))} if {test} else {literal(of(otherwise.value))})"
        self.emit(out, indent, f"M.set_var('phase', {chosen(str)})", node)
        if self.sym.first_stages:  # entering a phase starts its first stage (None: a phase without stages)
            self.emit(out, indent, f"M.set_var('stage', {chosen(self.sym.first_stages.get)})", node)

    def s_refresh_stmt(self, node: Tree, indent: int, out: list) -> None:
        self._check_writable(node, None, "refresh")
        name = node.children[0]
        if name.value not in self.sym.rules:
            self.fail(name, f"unknown rule '{name.value}'", did_you_mean(name.value, self.sym.rules))
        self.emit(out, indent, f"M.refresh({literal(name.value)})", node)

    def _check_enum(self, name: str, value: Tree) -> None:
        """A text literal written to a name with declared values must be one of them."""
        allowed = self.sym.attr_enums.get(name[1:]) if name.startswith(".") else self.sym.enums.get(name)
        text = _text_literal(value)
        if allowed is not None and text is not None and text not in allowed:
            self.fail(value, f"'{text}' is not a value of {name.lstrip('.')}",
                      did_you_mean(text, allowed) or f"its values: {', '.join(allowed)}")

    def _check_enum_compare(self, left: Tree, op: str, right: Tree) -> None:
        """`phase == 'plya'` (or `phase in ['bid', 'plya']`) is a mistake the compiler can see."""
        for name_side, other in ((left, right), (right, left)):
            name = self._enum_named(name_side)
            if name is None:
                continue
            if op in ("==", "!="):
                self._check_enum(name, other)
            elif op in ("in", "not in") and other is right and isinstance(right, Tree) and right.data == "list":
                for item in right.children:
                    if isinstance(item, Tree):
                        self._check_enum(name, item)

    def _enum_named(self, node: Tree | Token) -> str | None:
        """The key of `enums` (a global) or `attr_enums` (`.attr`) that `node` reads, if it has declared values."""
        if not isinstance(node, Tree):
            return None
        if node.data == "name":
            name = node.children[0].value
            return name if name not in self.scope and name in self.sym.enums else None
        if node.data == "getattr":
            attr = node.children[1].value
            return "." + attr if attr in self.sym.attr_enums else None
        return None

    def s_assert_stmt(self, node: Tree, indent: int, out: list) -> None:
        value = node.children[0]
        kind = self._fact_kind(value)
        self._check_writable(node, kind, "assert")
        if not (value.data == "call" and kind is not None):
            self.fail(value, "'assert' makes a fact: assert KIND(field=value, ...)",
                      f"kinds of fact: {', '.join(sorted(self.sym.facts))}" if self.sym.facts else
                      "declare the kinds of fact under 'facts:'")
        self.emit(out, indent, f"M.assert_fact({self.expr(value)[0]})", node)

    def s_retract_stmt(self, node: Tree, indent: int, out: list) -> None:
        src, typ = self.expr(node.children[0])
        self._check_fact(node.children[0], typ, "retract")
        self.emit(out, indent, f"M.retract_fact({src})", node)

    def s_modify_stmt(self, node: Tree, indent: int, out: list) -> None:
        call = node.children[0]
        if call.data != "call" or call.children[1] is None or \
                any(not (isinstance(a, Tree) and a.data == "kwarg") for a in call.children[1].children if a):
            self.fail(call, "'modify' changes fields of a fact: modify FACT(field=value, ...)")
        src, typ = self.expr(call.children[0])
        kind = self._check_fact(call.children[0], typ, "modify")
        changes = []
        for arg in call.children[1].children:
            if arg is None:
                continue
            field_name = arg.children[0].value
            if kind is not None and field_name not in self.sym.records[kind]:
                self.fail(arg, f"a fact '{kind}' has no field '{field_name}'",
                          did_you_mean(field_name, self.sym.records[kind]))
            changes.append(f"{literal(attribute(field_name))}: {self.expr(arg.children[1])[0]}")
        self.emit(out, indent, f"M.modify_fact({src}, {{{', '.join(changes)}}})", node)

    def _fact_kind(self, node: Tree) -> str | None:
        """The kind of fact `KIND(...)` makes, if `node` is such a call."""
        if node.data == "call" and node.children[0].data == "name":
            name = node.children[0].children[0].value
            return name if name in self.sym.facts and name not in self.scope else None
        return None

    def _check_fact(self, node: Tree, typ: str | None, action: str) -> str | None:
        """The kind of the fact `action` takes (None: not known before the game runs), refusing what cannot be."""
        kind = typ[len("record "):] if typ is not None and typ.startswith("record ") else None
        if (typ is not None and kind is None) or (kind is not None and kind not in self.sym.facts):
            self.fail(node, f"'{action}' takes a fact, not a {typ}")
        self._check_writable(node, kind, action)
        return kind

    def s_announce_stmt(self, node: Tree, indent: int, out: list) -> None:
        """An announcement is made only when someone hears the game (a simulation without logs skips the work),
        unless making it draws at random: the game must draw the same numbers, heard or not."""
        parts = ", ".join(self.expr(c)[0] for c in node.children)
        heard = "" if "M.rng" in parts else "if M.events is not None: "
        self.emit(out, indent, f"{heard}M.announce(({parts},))", node)

    def _suite(self, suite: Tree, indent: int, out: list) -> None:
        saved = dict(self.scope)
        for child in suite.children:
            self.stmt(child, indent, out)
        self.scope = saved

    def s_if_stmt(self, node: Tree, indent: int, out: list) -> None:
        cond, suite, *rest = node.children
        self.emit(out, indent, f"if {self.expr(cond)[0]}:", node)
        self._suite(suite, indent + 1, out)
        for clause in rest:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                self.emit(out, indent, f"elif {self.expr(clause.children[0])[0]}:", clause)
                self._suite(clause.children[1], indent + 1, out)
            else:
                self.emit(out, indent, "else:", clause)
                self._suite(clause.children[0], indent + 1, out)

    def s_for_stmt(self, node: Tree, indent: int, out: list) -> None:
        *names, iterable, suite = node.children
        it, typ = self.expr(iterable)
        if _numeric(typ):
            self.fail(iterable, f"cannot iterate over a value of type {typ}")
        saved, saved_bound = dict(self.scope), self.bound
        for token in names:
            self.scope[token.value] = element_type(typ) if len(names) == 1 else None
        self.bound = self.bound - {t.value for t in names}
        targets = ", ".join(f"v_{t.value}" for t in names)
        self.emit(out, indent, f"for {targets} in list(M.charge({it})):", node)
        self._suite(suite, indent + 1, out)
        self.scope, self.bound = saved, saved_bound


LITERALS = {"number", "string", "true", "false", "list", "tuple", "set", "dict"}
SPECIAL_FORMS = {"values_of", "exists"}  # calls the compiler answers itself (no function of that name can be declared)
PURE_STATEMENTS = {"let_stmt", "if_stmt", "for_stmt", "return_stmt", "pass_stmt"}


def _always_returns(statements: list[Tree]) -> bool:
    """Whether a statement list ends in `return` on every path (an `if` needs an `else`)."""
    last = statements[-1] if statements else None
    if last is None:
        return False
    if last.data == "return_stmt":
        return True
    if last.data != "if_stmt":
        return False
    _, suite, *clauses = last.children
    suites = [suite] + [c.children[-1] for c in clauses if c is not None]
    has_else = any(c is not None and c.data == "else_clause" for c in clauses)
    return has_else and all(_always_returns(list(s.children)) for s in suites)


def _text_literal(node: Tree | Token) -> str | None:
    """The value of a text literal node, else None."""
    if isinstance(node, Tree) and node.data == "string":
        try:
            value = ast.literal_eval(node.children[0].value)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None
