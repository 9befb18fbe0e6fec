"""The checking pass: every name of a text given its meaning, every node its static type, every mistake located.

The parser gives a text's nodes (:mod:`naipes.language.nodes`); the resolver walks them once with the
symbol table (:class:`naipes.language.compiler.Symbols`) and the scope of the locals, and

* resolves every name (a local, a param, a state variable or zone, a built-in) and every call (a local
  holding a function, a record, a rule-file function, a built-in, ``values_of``, ``exists``), refusing
  anything else, which is what makes the language a sandbox: there is no way to name a Python object the
  symbol table does not list, nor an attribute starting with '_';
* checks arity, attributes and the type mismatches visible before running, raising the first mistake of
  the text as a located :class:`CompileError`;
* records what the text *reads* (global names, player attributes: the agenda re-evaluates a rule only when
  something it reads was written), which rule-file functions it calls and which locals of its scope it uses.

It writes nothing: :mod:`naipes.language.codegen` writes Python from the nodes it has annotated.
"""
from __future__ import annotations

import ast
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any, NoReturn

from ..errors import Location, RuleError, did_you_mean, unshowable
from ..library.builtins import BUILTINS, Builtin
from ..program import CARD_ATTRIBUTES, LEAVE, PLAYER_ATTRIBUTES, ZONE_ATTRIBUTES
from . import nodes as n
from .codegen import proven_number
from .loader import MAX_DIGITS, number_problem
from .parser import statement_words

NUMERIC = {"int", "float", "bool"}
ANY = "*"  # a read of an attribute of any object
GENERATOR = "generator"  # the type of a generator expression, which only a built-in going over it ever receives
# Nodes written as literals: `is` compares identity, never their value.
LITERALS = (n.Number, n.String, n.ListExpr, n.TupleExpr, n.SetExpr, n.DictExpr)
PURE_STATEMENTS = (n.Let, n.If, n.For, n.Return, n.Pass)


class CompileError(RuleError):
    pass


class Unmade(CompileError):
    """A use of a name a refused declaration would have made: that declaration's own error says what is wrong, and
    this one is left out (Builder.raise_errors)."""


def element_type(collection: str | None) -> str | None:
    """The type of what a collection of `collection`'s type holds, where known: a zone's cards, facts."""
    if collection == "zone":
        return "card"
    if collection is not None and _facts(collection):
        return f"record {collection[len('facts '):]}"
    return None


def _facts(typ: str | None) -> bool:
    return typ is not None and typ.startswith("facts ")


def type_of_value(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    for t in (int, float, str, list, tuple, set, dict):
        if isinstance(value, t):
            return t.__name__
    return None


def numeric(t: str | None) -> bool:
    return t in NUMERIC


@lru_cache(maxsize=4096)
def literal_value(raw: str) -> Any:
    """The value of a literal as written (a string's quotes and escapes, a number's digits): ast.literal_eval, once
    per text. Its values are immutable, so a load shares them; and each call of literal_eval leaves a small reference
    cycle (its helpers call one another) for the garbage collector. Raises ValueError or SyntaxError as it does."""
    return ast.literal_eval(raw)


def text_literal(node: n.Node) -> str | None:
    """The value of a text literal node, else None."""
    if isinstance(node, n.String):
        try:
            value = literal_value(node.raw)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None


class Resolver:
    """Resolves and checks the nodes of one text: its scope, what it reads and calls, the locals it uses.

    `sym` is the symbol table (naipes.language.compiler.Symbols); `writable`: for a strategy's actions, the
    only names they may change (its memory); `bound`: the rule's variables (a read of `p.score` for a bound
    `p` is indexed by that variable); `pure`: a function's body, which computes and changes nothing."""

    def __init__(self, sym: Any, scope: dict[str, str | None], *, bound: AbstractSet[str] = frozenset(),
                 allow_random: bool = False, what: str = "expression", writable: set[str] | None = None,
                 pure: bool = False):
        self.sym = sym
        self.scope = dict(scope)
        self.bound = set(bound)
        self.allow_random = allow_random
        self.what = what
        self.writable = writable
        self.pure = pure
        self.reads: set[Any] = set()
        self.lookups: set[str] = set()  # kinds of fact looked up by exists(...) (Unit.lookups)
        self.calls: set[str] = set()
        self.uses: set[str] = set()  # locals read (of the scope given, or made inside)
        self.temporaries = 0  # the locals numbered for the players whose variables are assigned

    def fail(self, where: n.Node | n.Position | Location | None, message: str, hint: str | None = None,
             unknown: str | None = None) -> NoReturn:
        """Raise a located error; `unknown`: the name it finds unknown (Unmade if a refused declaration made it)."""
        loc = where.loc if isinstance(where, n.Node) else where.location() if isinstance(where, n.Position) \
            else where
        raise (Unmade if unknown in self.sym.unmade else CompileError)(message, loc, hint)

    # ---------------------------------------------------------------------------------------- expressions
    def expr(self, node: n.Node) -> str | None:
        """Resolve `node` and what is in it; returns (and sets) its static type."""
        method = getattr(self, "e_" + type(node).__name__)
        node.type = method(node)
        return node.type

    def e_Number(self, node: n.Number) -> str:
        text = node.raw
        digits = text.split(".")[0].lstrip("0")
        if len(digits) > MAX_DIGITS:
            self.fail(node, f"the number is too large (at most {MAX_DIGITS} digits)")
        _, _, fraction = text.partition(".")
        node.value = float(f"{digits or '0'}.{fraction}") if fraction else int(digits or "0")
        if number_problem(node.value):  # 18 digits and a fraction that rounds them up to 10**18
            self.fail(node, f"the number is too large (at most {MAX_DIGITS} digits)")
        return "float" if "." in text else "int"

    def e_String(self, node: n.String) -> str:
        try:
            node.value = literal_value(node.raw)
        except (ValueError, SyntaxError):
            self.fail(node, "bad string literal")
        problem = unshowable(node.value)
        if problem:
            self.fail(node, problem)
        return "str"

    def e_FString(self, node: n.FString) -> str:
        for part in node.parts:
            if isinstance(part, n.Expr):
                self.expr(part)
        if node.problem is not None:
            raise node.problem
        return "str"

    def e_Constant(self, node: n.Constant) -> str | None:
        return None if node.value is None else "bool"

    def e_Name(self, node: n.Name) -> str | None:
        name = node.id
        if name.startswith("_"):
            self.fail(node, f"names starting with '_' are not allowed ('{name}')")
        if name in self.scope:
            self.uses.add(name)
            node.meaning = n.LOCAL
            return self.scope[name]
        if name in self.sym.params:
            node.meaning, node.value = n.PARAM, self.sym.params[name]
            return type_of_value(node.value)
        if name in self.sym.globals:
            if name != "players":
                self.reads.add(name)
            node.meaning = n.GLOBAL
            declared: str | None = self.sym.globals[name]
            return declared
        if name in self.sym.functions:
            self.fail(node, f"'{name}' is a function: call it, as in {name}(...)")
        if name in BUILTINS:
            builtin = BUILTINS[name]
            if builtin.state or builtin.random or builtin.costly:
                self.fail(node, f"'{name}' can only be called, not passed as a value",
                          f"write a lambda: lambda x: {name}(x)" if builtin.costly else None)
            node.meaning = n.BUILTIN
            return "function"
        if name in self.sym.moves:
            self.fail(node, f"'{name}' is a move: moves are offered with 'ask PLAYER to {name}'")
        known = [*self.scope, *self.sym.params, *self.sym.globals, *self.sym.functions, *BUILTINS]
        hint = did_you_mean(name, [k for k in known if not k.startswith("_")])
        if hint is None and isinstance(node.at, n.Position) and str(node.at.text).strip() == name:
            hint = f"a value is an expression, so a text is quoted inside it: \"'{name}'\""  # (`mood: calm`)
        self.fail(node, f"unknown name '{name}'", hint, unknown=name)

    def e_Attribute(self, node: n.Attribute) -> str | None:
        attr = node.name
        base_type = self.expr(node.base)
        sym = self.sym
        if attr.startswith("_"):
            self.fail(node.name_at, f"attributes starting with '_' are not allowed ('{attr}')")
        if attr in sym.player_memory:
            if base_type not in (None, "player"):
                self.fail(node.name_at, f"'{attr}' is kept per player; this is a {base_type}")
            self.reads.add(attr)
            node.per_player_memory = True
            return None
        tables: dict[str, Mapping[str, str | None]] = {"card": {**sym.card_attrs, **CARD_ATTRIBUTES},
                  "player": {**sym.player_attrs, **PLAYER_ATTRIBUTES}, "zone": ZONE_ATTRIBUTES,
                  **{f"record {r}": dict.fromkeys(fields) for r, fields in sym.records.items()}}
        if base_type in tables:
            if attr not in tables[base_type]:
                self.fail(node.name_at, f"a {base_type} has no attribute '{attr}'",
                          did_you_mean(attr, tables[base_type]), unknown=attr)
        elif base_type is not None and base_type != "function":
            self.fail(node.name_at, f"a value of type {base_type} has no attribute '{attr}'")
        else:
            known = {**sym.card_attrs, **sym.player_attrs, **CARD_ATTRIBUTES, **PLAYER_ATTRIBUTES, **ZONE_ATTRIBUTES,
                     **dict.fromkeys(sym.record_fields)}
            if attr not in known:
                self.fail(node.name_at, f"unknown attribute '{attr}'", did_you_mean(attr, known), unknown=attr)
        if attr in sym.player_attrs and base_type != "card":
            self.reads.add((attr, self.whose(node.base)))
        node.plain = attr in sym.card_attrs and attr not in sym.player_attrs and attr not in sym.record_fields
        return {**PLAYER_ATTRIBUTES, **sym.player_attrs}.get(attr) if base_type == "player" else \
            {**CARD_ATTRIBUTES, **sym.card_attrs}.get(attr) if base_type == "card" else \
            sym.attribute_type(base_type, attr)

    def whose(self, base: n.Expr) -> Any:
        """Whose variable a read is: a bound variable's (its name), one seat's (`players[2]`: 2), or any player's."""
        if isinstance(base, n.Name) and base.id in self.bound:
            return base.id
        if isinstance(base, n.Subscript) and isinstance(base.base, n.Name) and isinstance(base.index, n.Number) \
                and base.base.id == "players" and "players" not in self.scope:
            seat = literal_value(base.index.raw)
            if isinstance(seat, int) and seat >= 0:
                return seat
        return ANY

    def e_Subscript(self, node: n.Subscript) -> str | None:
        base_type = self.expr(node.base)
        self.expr(node.index)
        if base_type in NUMERIC:
            self.fail(node, f"a value of type {base_type} cannot be indexed")
        if isinstance(node.index, n.Slice):
            return base_type if base_type in ("str", "tuple") or _facts(base_type) else None
        return "str" if base_type == "str" else element_type(base_type)

    def e_Slice(self, node: n.Slice) -> None:
        for bound in (node.lower, node.upper):
            if bound is not None:
                self.expr(bound)
        return None

    # -------------------------------------------------------------------------------------------- calls
    def e_Call(self, node: n.Call) -> str | None:
        name = node.name
        if not node.bare_generator:
            if name in ("values_of", "exists") and name not in self.scope:
                return self.values_of(node) if name == "values_of" else self.exists(node)
            types = self.arguments(node, lazy=self.iterates(node))
            return self.call(node, types)
        generator = node.args[0]
        assert isinstance(generator, n.Comprehension)  # (the parser makes f(x for x in xs) so)
        generator.lazy = self.iterates(node)
        self.expr(generator)
        return self.call(node, [GENERATOR if generator.lazy else "list"])

    def arguments(self, node: n.Call, lazy: bool) -> list[str | None]:
        """Resolve the arguments of a call; the types of its positional ones. `lazy`: a generator expression given
        as its one positional argument stays a generator (see iterates)."""
        positional = node.positional
        lazy = lazy and len(positional) == 1 and isinstance(positional[0], n.Comprehension) and \
            positional[0].kind == "generator"
        keywords: set[str] = set()
        types: list[str | None] = []
        for arg in node.args:
            if isinstance(arg, n.Keyword):
                if arg.name in keywords:
                    self.fail(arg, f"keyword argument '{arg.name}' given twice")
                keywords.add(arg.name)
                self.expr(arg.value)
            else:
                if keywords:
                    self.fail(arg, "a positional argument cannot follow a keyword argument")
                if lazy:
                    assert isinstance(arg, n.Comprehension)
                    arg.lazy = True
                    self.expr(arg)
                    types.append(GENERATOR)
                else:
                    types.append(self.expr(arg))
        return types

    def iterates(self, call: n.Call) -> bool:
        """Whether `call` is of a built-in that goes over its one argument, keeping only items (Builtin.iterates):
        the only place a generator expression stays a generator. Anywhere else it is a list, so that no value a
        file holds or passes is ever a generator (whose frame would lead to the engine's)."""
        name = call.name
        if name is None or name in self.scope or name in self.sym.records or name in self.sym.functions:
            return False
        return name in BUILTINS and BUILTINS[name].iterates

    def call(self, node: n.Call, types: list[str | None]) -> str | None:
        if not isinstance(node.func, n.Name):
            self.fail(node, "only named functions can be called")
        name = node.func.id
        args, keywords = node.positional, [k.name for k in node.keywords]
        if name in self.scope:  # a function held in a local (a lambda, an argument): a step, as every call
            node.target, node.func.meaning = n.CALL_LOCAL, n.LOCAL
            return None
        if name in self.sym.records:
            self.record(node, name)
            node.target = n.CALL_RECORD
            return f"record {name}"
        if name in self.sym.functions:
            params = self.sym.functions[name]
            if keywords:
                self.fail(node, f"'{name}' takes no keyword arguments")
            if len(args) != len(params):
                self.fail(node, f"'{name}' takes {len(params)} argument(s) ({', '.join(params)}), given {len(args)}")
            self.calls.add(name)
            node.target, node.definition = n.CALL_FUNCTION, n.function_name(name)
            return None
        if name in BUILTINS:
            b = BUILTINS[name]
            if len(args) < b.min_args or (b.max_args is not None and len(args) > b.max_args):
                most = "any number of" if b.max_args is None else str(b.max_args)
                takes = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {most}"
                self.fail(node, f"'{name}' takes {takes} argument(s), given {len(args)}")
            for key in keywords:
                if key not in b.kwargs:
                    self.fail(node, f"'{name}' has no keyword argument '{key}'",
                              f"it accepts {', '.join(sorted(b.kwargs))}" if b.kwargs else None)
            if b.random and not self.allow_random:
                self.fail(node.func, f"'{name}' is random and cannot be used in {self.what}",
                          "conditions and functions must be pure; draw random numbers in actions")
            node.charged = charged(b, types, args)
            node.keyed = b.keyed is not None and "key" in keywords
            node.target = n.CALL_BUILTIN
            return b.returns
        self.e_Name(node.func)  # raises the right "unknown name" error
        self.fail(node, f"'{name}' cannot be called")

    def values_of(self, node: n.Call) -> str:
        """`values_of(ATTRIBUTE)`: the values the cards section lists for a card attribute, in its order."""
        given = node.args
        attr = given[0].id if len(given) == 1 and isinstance(given[0], n.Name) else None
        if attr not in self.sym.card_values:
            listed = ", ".join(self.sym.card_values) or "none here"
            self.fail(node, "values_of takes the name of a card attribute whose values the cards section lists",
                      f"such attributes: {listed}")
        node.target, node.found = n.VALUES_OF, list(self.sym.card_values[attr])
        return "list"

    def exists(self, node: n.Call) -> str:
        """`exists(KIND, field=value, ...)`: whether a fact of that kind holds those values (looked up in an
        index the memory keeps, not by going over the facts: CLIPS's `(not (KIND ...))` is `not exists(...)`)."""
        given = node.args
        kind = given[0].id if given and isinstance(given[0], n.Name) else None
        if kind is None or kind not in self.sym.facts or kind in self.scope:
            self.fail(node, "exists takes a kind of fact, then the values its facts are looked up by: "
                            "exists(KIND, field=value, ...)",
                      f"kinds of fact: {', '.join(sorted(self.sym.facts))}" if self.sym.facts else
                      "declare the kinds of fact under 'facts:'")
        fields = self.sym.records[kind]
        wanted: dict[str, n.Expr] = {}
        for arg in given[1:]:
            if not isinstance(arg, n.Keyword):
                self.fail(arg, "exists looks facts up by field=value")
            if arg.name not in fields:
                self.fail(arg, f"a fact '{kind}' has no field '{arg.name}'", did_you_mean(arg.name, fields))
            if arg.name in wanted:
                self.fail(arg, f"field '{arg.name}' given twice")
            self.expr(arg.value)
            wanted[arg.name] = arg.value
        self.lookups.add(kind)
        by = tuple(f for f in fields if f in wanted)  # (in the kind's order: one index serves every writing)
        node.target, node.found = n.EXISTS, (kind, by)  # (the values: the call's keywords, codegen takes them by)
        return "bool"

    def record(self, node: n.Call, name: str) -> None:
        """`name(field=value, ...)`: a record with every field given, by name or all in order (node.found: the
        fields in the record's order when given by name, None when given in order)."""
        fields = self.sym.records[name]
        args, keywords = node.positional, {k.name: k.value for k in node.keywords}
        if args and (keywords or len(args) != len(fields)):
            self.fail(node, f"record '{name}' takes its fields by name ({', '.join(fields)}) or all in order")
        for key in keywords:
            if key not in fields:
                self.fail(node, f"record '{name}' has no field '{key}'", did_you_mean(key, fields))
        missing = [f for f in fields if f not in keywords] if not args else []
        if missing:
            self.fail(node, f"record '{name}' needs every field: {', '.join(missing)} missing")
        node.found = None if args else fields

    # --------------------------------------------------------------------------------------- operations
    def e_BinOp(self, node: n.BinOp) -> str | None:
        typ = self.expr(node.left)
        rtyp = self.expr(node.right)
        op = node.op
        if ((typ == "str" and numeric(rtyp)) or (numeric(typ) and rtyp == "str")) and op != "*":
            self.fail(node.op_at, f"cannot apply '{op}' to {typ} and {rtyp}",
                      "use str(x) to make text from a number" if op == "+" else None)
        if op in "+-*/%//" and typ in ("card", "player", "zone"):
            self.fail(node.op_at, f"cannot apply '{op}' to a {typ}")
        typ = typ if typ == rtyp and typ in ("int", "str", "float") else (
            "float" if {typ, rtyp} <= NUMERIC | {"float"} and "float" in (typ, rtyp) else None)
        return "float" if op == "/" else typ

    def e_Unary(self, node: n.Unary) -> str | None:
        typ = self.expr(node.operand)
        if typ == "str":
            self.fail(node.op_at, f"cannot apply unary '{node.op}' to a string")
        return typ

    def e_Compare(self, node: n.Compare) -> str:
        typ = self.expr(node.first)
        left = node.first
        for (op, op_at), operand in zip(node.ops, node.operands):
            rtyp = self.expr(operand)
            self.check_enum_compare(left, op, operand)
            mixed = (typ == "str" and numeric(rtyp)) or (numeric(typ) and rtyp == "str")
            if mixed and op in ("<", ">", "<=", ">="):
                self.fail(op_at, f"cannot order {typ} and {rtyp} with '{op}'")
            if mixed and op in ("==", "!="):
                self.fail(op_at, f"comparing {typ} with {rtyp}: '{op}' is always {op == '!='}",
                          "write numbers without quotes, or compare with str(...)")
            if op in ("in", "not in") and numeric(rtyp):
                self.fail(op_at, f"'{op}' needs a collection on its right, not {rtyp}")
            if op in ("is", "is not") and any(_literal(side) for side in (left, operand)):
                self.fail(op_at, f"'{op}' compares identity: write '{'==' if op == 'is' else '!='}' to compare a value",
                          "'is' is for None, players, cards and zones")
            typ, left = rtyp, operand
        return "bool"

    def e_BoolOp(self, node: n.BoolOp) -> str | None:
        """`a and b` / `a or b` is one of its operands, as in Python: typed only if they agree."""
        types = {self.expr(value) for value in node.values}
        return types.pop() if len(types) == 1 else None

    def e_Not(self, node: n.Not) -> str:
        self.expr(node.operand)
        return "bool"

    def e_IfExp(self, node: n.IfExp) -> str | None:
        ta = self.expr(node.body)
        tb = self.expr(node.orelse)
        self.expr(node.test)
        return ta if ta == tb else None

    def e_Lambda(self, node: n.Lambda) -> str:
        saved, saved_bound = dict(self.scope), self.bound
        self.scope.update({name: None for name in node.params})
        self.bound = self.bound - set(node.params)
        self.expr(node.body)
        self.scope, self.bound = saved, saved_bound
        return "function"

    def items(self, items: list[n.Expr]) -> None:
        for item in items:
            self.expr(item)

    def e_TupleExpr(self, node: n.TupleExpr) -> str:
        self.items(node.items)
        return "tuple"

    def e_ListExpr(self, node: n.ListExpr) -> str:
        self.items(node.items)
        return "list"

    def e_SetExpr(self, node: n.SetExpr) -> str:
        self.items(node.items)
        return "set"

    def e_DictExpr(self, node: n.DictExpr) -> str:
        for pair in node.pairs:
            self.expr(pair.key)
            self.expr(pair.value)
        return "dict"

    def e_Comprehension(self, node: n.Comprehension) -> str:
        """`(x for x in xs)` anywhere but alone in a call of a built-in that goes over it (see iterates): a list."""
        saved, saved_bound = dict(self.scope), self.bound
        for clause in node.clauses:
            it_type = self.expr(clause.iterable)
            if numeric(it_type):
                self.fail(clause.iterable, f"cannot iterate over a value of type {it_type}")
            self.scope.update({name: (element_type(it_type) if len(clause.names) == 1 else None)
                               for name in clause.names})
            self.bound = self.bound - set(clause.names)
            if clause.condition is not None:
                self.expr(clause.condition)
        if isinstance(node.element, n.Pair):
            self.expr(node.element.key)
            self.expr(node.element.value)
        else:
            self.expr(node.element)
        self.scope, self.bound = saved, saved_bound
        return {"list": "list", "set": "set", "dict": "dict", "generator": "list"}[node.kind]

    # ------------------------------------------------------------------------------------------- checks
    def check_enum(self, name: str, value: n.Node) -> None:
        """A text literal written to a name with declared values must be one of them."""
        allowed = self.sym.attr_enums.get(name[1:]) if name.startswith(".") else self.sym.enums.get(name)
        text = text_literal(value)
        if allowed is not None and text is not None and text not in allowed:
            self.fail(value, f"'{text}' is not a value of {name.lstrip('.')}",
                      did_you_mean(text, allowed) or f"its values: {', '.join(allowed)}")

    def check_enum_compare(self, left: n.Expr, op: str, right: n.Expr) -> None:
        """`phase == 'plya'` (or `phase in ['bid', 'plya']`) is a mistake the compiler can see."""
        for name_side, other in ((left, right), (right, left)):
            name = self.enum_named(name_side)
            if name is None:
                continue
            if op in ("==", "!="):
                self.check_enum(name, other)
            elif op in ("in", "not in") and other is right and isinstance(right, n.ListExpr):
                for item in right.items:
                    self.check_enum(name, item)

    def enum_named(self, node: n.Expr) -> str | None:
        """The key of `enums` (a global) or `attr_enums` (`.attr`) that `node` reads, if it has declared values."""
        if isinstance(node, n.Name):
            return node.id if node.id not in self.scope and node.id in self.sym.enums else None
        if isinstance(node, n.Attribute):
            return "." + node.name if node.name in self.sym.attr_enums else None
        return None

    def check_writable(self, where: n.Node, name: str | None, action: str = "assign") -> None:
        """In a strategy, actions may change only the strategy's own memory, never the game."""
        writable = self.writable
        if writable is not None and (name is None or name not in writable):
            what = (f"use '{action}'" if action != "assign" else f"assign '{name}'" if name else
                    "assign player variables")
            self.fail(where, f"a strategy cannot {what}: it changes only its own memory",
                      f"its memory: {', '.join(sorted(writable))}" if writable else "declare it under 'memory:'")

    def check_type(self, where: n.Node | n.Position | None, name: str, declared: str | None,
                   typ: str | None) -> None:
        if (declared and typ and declared != typ and not ({declared, typ} <= NUMERIC | {"float"})
                and (declared in ("str", "int", "float", "bool") or typ in ("str",))):
            self.fail(where, f"'{name}' holds {declared}, but this assigns {typ}")

    def check_augmented(self, node: n.Node, op: str, current: str | None, typ: str | None) -> None:
        if ((current == "str" and numeric(typ)) or (numeric(current) and typ == "str")) and op != "*":
            self.fail(node, f"cannot apply '{op}=' to {current} and {typ}")

    def check_assignable(self, target: n.NameTarget, typ: str | None) -> None:
        """A global `name` (declared, and written with a type that fits) may be assigned."""
        sym, name = self.sym, target.name
        if name in sym.params:
            self.fail(target, f"'{name}' is a param: params are read-only while the game runs")
        if name in sym.zones:
            self.fail(target, f"'{name}' is a zone: cards change zones with 'move'")
        if name in sym.facts:
            self.fail(target, f"'{name}' holds facts: 'assert', 'modify' and 'retract' change it")
        if name == "players":
            self.fail(target, "'players' is fixed for the whole game")
        if name in sym.player_memory:
            self.fail(target, f"'{name}' is kept per player", f"write one player's: p.{name} = ...")
        if name not in sym.globals:
            self.fail(target, f"'{name}' is not a state variable",
                      "declare it under 'state:', or use 'let' for a local")
        self.check_type(target, name, sym.globals[name], typ)

    # ----------------------------------------------------------------------------------------- statements
    def statements(self, statements: list[n.Stmt]) -> None:
        for statement in statements:
            self.stmt(statement)

    def stmt(self, node: n.Stmt) -> None:
        if isinstance(node, n.Assign) and isinstance(node.target, n.NameTarget) and \
                node.target.name == n.ENDS_TURN and n.ENDS_TURN not in self.scope:
            self.fail(node, "'end turn' belongs in a move's effect, in a game whose phases declare turns",
                      "a rule gives the turn by assigning it: turn = next_player(turn)")
        if self.pure and not isinstance(node, PURE_STATEMENTS) and not self.assigns_a_local(node):
            word = node.word
            if isinstance(node, n.Assign) and isinstance(node.target, n.NameTarget):
                word = f"assign '{node.target.name}'"
            self.fail(node, f"a function cannot {word}: functions only compute a value",
                      "'let NAME = EXPR' makes a local; the rules and moves change the game")
        getattr(self, "s_" + type(node).__name__)(node)

    def assigns_a_local(self, node: n.Stmt) -> bool:
        return isinstance(node, n.Assign) and isinstance(node.target, n.NameTarget) and node.target.name in self.scope

    def s_Return(self, node: n.Return) -> None:
        if not self.pure:
            self.fail(node, "'return' belongs in a function's body", "a rule's actions end by themselves")
        if node.value is not None:
            self.expr(node.value)

    def s_Pass(self, node: n.Pass) -> None:
        pass

    def s_Let(self, node: n.Let) -> None:
        for name, at in zip(node.names, node.name_ats):
            if name.startswith("_"):
                self.fail(at, f"names starting with '_' are not allowed ('{name}')")
            clash = "a param" if name in self.sym.params else \
                "a state variable or zone" if name in self.sym.globals else \
                "a function" if name in self.sym.functions or name in BUILTINS else None
            if clash:
                self.fail(at, f"'{name}' is already {clash}; choose another name for the local")
            if name in statement_words():
                self.fail(at, f"the local '{name}' is named like the statement '{name} ...': a line beginning with "
                              f"'{name}' is that statement, so the local could never be assigned again",
                          "give it another name")
        typ = self.expr(node.value)
        for name in node.names:
            self.scope[name] = typ if len(node.names) == 1 else None
        self.bound = self.bound - set(node.names)

    def s_Assign(self, node: n.Assign) -> None:
        target, op = node.target, node.op
        typ = self.expr(node.value)
        if isinstance(target, n.NameTarget):
            name = target.name
            if name in self.scope:
                if op:
                    self.check_augmented(node, op, self.scope[name], typ)
                node.writes, node.declared = n.WRITES_LOCAL, self.scope[name]
                return
            self.check_assignable(target, None if op else typ)
            self.check_writable(target, name)
            if not op:
                self.check_enum(name, node.value)
            if op:
                self.check_augmented(node, op, self.sym.globals.get(name), typ)
            node.writes, node.declared = n.WRITES_GLOBAL, self.sym.globals.get(name)
            return
        attr = target.name
        if attr in self.sym.player_memory:  # a strategy's memory kept per player: item p.index of a tuple
            self.check_writable(target, attr)
            base_type = self.expr(target.base)
            if base_type not in (None, "player"):
                self.fail(target.name_at, f"'{attr}' is kept per player; this is a {base_type}")
            node.writes = n.WRITES_MEMORY
            node.temporary = self.temporary()
            return
        self.check_writable(target, None)
        base_type = self.expr(target.base)
        if attr.startswith("_"):
            self.fail(target.name_at, f"attributes starting with '_' are not allowed ('{attr}')")
        if base_type == "card" or (attr in self.sym.card_attrs and attr not in self.sym.player_attrs):
            self.fail(target.name_at, "cards are immutable: their attributes cannot be assigned")
        if attr not in self.sym.player_attrs or attr in self.sym.zones:
            hint = did_you_mean(attr, self.sym.player_attrs)
            self.fail(target.name_at, f"'{attr}' is not a per-player variable",
                      hint or "declare it under 'player_state:'")
        if base_type not in (None, "player"):
            self.fail(target.name_at, f"only players have variables; this is a {base_type}")
        self.check_type(target, attr, self.sym.player_attrs[attr], None if op else typ)
        if not op and attr in self.sym.attr_enums:
            self.check_enum("." + attr, node.value)
        if op:
            self.check_augmented(node, op, self.sym.player_attrs[attr], typ)
        node.writes = n.WRITES_TEAM if attr in self.sym.team_attrs else n.WRITES_PLAYER
        node.declared = self.sym.player_attrs[attr]
        node.temporary = self.temporary()

    def temporary(self) -> int:
        self.temporaries += 1
        return self.temporaries

    def zone(self, node: n.Expr) -> None:
        typ = self.expr(node)
        if typ is not None and typ not in ("zone", "list"):
            self.fail(node, f"expected a zone here, got a value of type {typ}")

    def destination(self, node: n.Expr) -> None:
        """A zone cards are put into: naming it is no read of what it holds (a pile nothing reads stays out of
        the search's memo keys), though what the naming reads (`winner` in `winner.won`) is."""
        before = set(self.reads)
        self.zone(node)
        written: Any
        if isinstance(node, n.Name) and node.id in self.sym.zones:
            written = node.id
        elif isinstance(node, n.Attribute) and node.name in self.sym.zones:
            written = (node.name, self.whose(node.base))
        else:
            return
        if written not in before:
            self.reads.discard(written)

    def s_Move(self, node: n.Move) -> None:
        self.check_writable(node, None, "move")
        ctyp = self.expr(node.cards)
        if numeric(ctyp) or ctyp == "str":
            self.fail(node.cards, f"'move' takes a card or a list of cards, not {ctyp}")
        if node.source is not None:
            self.zone(node.source)
        self.destination(node.dest)

    def s_Shuffle(self, node: n.Shuffle) -> None:
        self.check_writable(node, None, "shuffle")
        self.zone(node.zone)

    def s_Show(self, node: n.Show) -> None:
        self.check_writable(node, None, "show")
        ctyp = self.expr(node.cards)
        if numeric(ctyp) or ctyp == "str":
            self.fail(node.cards, f"'show' takes a card, a list of cards or a zone, not {ctyp}")

    def s_Deal(self, node: n.Deal) -> None:
        self.check_writable(node, None, "deal")
        ntyp = self.expr(node.count) if node.count is not None else None
        if ntyp not in (None, "int"):
            self.fail(node.count, f"'deal' needs a number of cards, not {ntyp}")
        self.zone(node.source)
        self.expr(node.dests)

    def s_Ask(self, node: n.Ask) -> None:
        self.check_writable(node, None, "ask")
        ptyp = self.expr(node.player)
        if node.group is None and ptyp not in (None, "player"):
            self.fail(node.player, f"'ask' needs a player, not {ptyp}")
        if node.group is not None and ptyp not in (None, "list", "set", "zone"):
            self.fail(node.player, f"'ask {node.group} of' needs a list of players, not {ptyp}")
        for move, at in zip(node.moves, node.move_ats):
            if move not in self.sym.moves:
                self.fail(at, f"unknown move '{move}'", did_you_mean(move, self.sym.moves), unknown=move)
        if node.group == "any" and LEAVE in self.sym.moves:
            self.fail(node, f"'{LEAVE}' is the option 'ask any of' adds (to let the next player answer): "
                            f"give the move '{LEAVE}' another name")

    def s_EndGame(self, node: n.EndGame) -> None:
        self.check_writable(node, None, "end")
        if node.winners is not None:
            self.expr(node.winners)

    def s_Goto(self, node: n.Goto) -> None:
        self.check_writable(node, "phase", "goto")
        phases = self.sym.enums.get("phase", ())
        for name, at in ((node.target, node.target_at), (node.otherwise, node.otherwise_at)):
            if name is not None and name not in phases:
                self.fail(at, f"unknown phase '{name}'",
                          did_you_mean(name, phases) or (f"phases: {', '.join(phases)}" if phases else
                                                         "declare it under 'phases:'"))
        if node.condition is not None:
            self.expr(node.condition)
        first = self.sym.first_stages
        if first:  # entering a phase starts its first stage (None: a phase without stages)
            node.stages = (first.get(node.target), first.get(node.otherwise) if node.otherwise else None)

    def s_Refresh(self, node: n.Refresh) -> None:
        self.check_writable(node, None, "refresh")
        if node.rule not in self.sym.rules:
            self.fail(node.rule_at, f"unknown rule '{node.rule}'", did_you_mean(node.rule, self.sym.rules))

    def s_AssertFact(self, node: n.AssertFact) -> None:
        value = node.value
        kind = self.fact_kind(value)
        self.check_writable(node, kind, "assert")
        if not (isinstance(value, n.Call) and not value.bare_generator and kind is not None):
            self.fail(value, "'assert' makes a fact: assert KIND(field=value, ...)",
                      f"kinds of fact: {', '.join(sorted(self.sym.facts))}" if self.sym.facts else
                      "declare the kinds of fact under 'facts:'")
        self.expr(value)

    def s_Retract(self, node: n.Retract) -> None:
        typ = self.expr(node.value)
        self.check_fact(node.value, typ, "retract")

    def s_Modify(self, node: n.Modify) -> None:
        call = node.value
        if not isinstance(call, n.Call) or call.bare_generator or not call.args or \
                any(not isinstance(arg, n.Keyword) for arg in call.args):
            self.fail(call, "'modify' changes fields of a fact: modify FACT(field=value, ...)")
        typ = self.expr(call.func)
        kind = self.check_fact(call.func, typ, "modify")
        for arg in call.keywords:
            if kind is not None and arg.name not in self.sym.records[kind]:
                self.fail(arg, f"a fact '{kind}' has no field '{arg.name}'",
                          did_you_mean(arg.name, self.sym.records[kind]))
            self.expr(arg.value)

    def fact_kind(self, node: n.Expr) -> str | None:
        """The kind of fact `KIND(...)` makes, if `node` is such a call."""
        if isinstance(node, n.Call) and not node.bare_generator and isinstance(node.func, n.Name):
            name = node.func.id
            return name if name in self.sym.facts and name not in self.scope else None
        return None

    def check_fact(self, node: n.Expr, typ: str | None, action: str) -> str | None:
        """The kind of the fact `action` takes (None: not known before the game runs), refusing what cannot be."""
        kind = typ[len("record "):] if typ is not None and typ.startswith("record ") else None
        if (typ is not None and kind is None) or (kind is not None and kind not in self.sym.facts):
            self.fail(node, f"'{action}' takes a fact, not a {typ}")
        self.check_writable(node, kind, action)
        return kind

    def s_Announce(self, node: n.Announce) -> None:
        for value in node.values:
            self.expr(value)

    def suite(self, body: list[n.Stmt]) -> None:
        saved = dict(self.scope)
        self.statements(body)
        self.scope = saved

    def s_If(self, node: n.If) -> None:
        self.expr(node.test)
        self.suite(node.body)
        for branch in node.branches:
            if branch.test is not None:
                self.expr(branch.test)
            self.suite(branch.body)

    def s_For(self, node: n.For) -> None:
        typ = self.expr(node.iterable)
        if numeric(typ):
            self.fail(node.iterable, f"cannot iterate over a value of type {typ}")
        saved, saved_bound = dict(self.scope), self.bound
        for name in node.names:
            self.scope[name] = element_type(typ) if len(node.names) == 1 else None
        self.bound = self.bound - set(node.names)
        self.suite(node.body)
        self.scope, self.bound = saved, saved_bound


def _literal(node: n.Expr) -> bool:
    """Whether `node` is written as a literal (a number, a text, True or False, a list, tuple, set or dict)."""
    return isinstance(node, LITERALS) or (isinstance(node, n.Constant) and node.value is not None)


def charged(builtin: Builtin, types: list[str | None], args: list[n.Expr]) -> tuple[int, ...]:
    """Which arguments of a built-in are charged for the work it does with them (Builtin.work): copying,
    sorting or searching a list is work as a loop over it is, and so is splitting a text; a number costs
    nothing (codegen.proven_number). A generator expression charges its own items as it runs, unless they are
    compared."""
    if builtin.work in ("none", "made"):
        return ()
    return tuple(i for i, (typ, arg) in enumerate(zip(types, args))
                 if (typ != GENERATOR or builtin.work != "items") and not proven_number(arg))
