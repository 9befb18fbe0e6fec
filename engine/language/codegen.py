"""Code generation: the Python of a checked tree, the one place rule-language nodes become Python text.

The resolver (:mod:`naipes.language.resolver`) has given every node its meaning and type; this module writes
each expression as Python source and each statement as lines. Generated functions take ``M`` (the working
memory) and ``V`` (its variables dict) first; a rule file's names reach the text only behind a prefix the
engine owns: ``v_`` a local, ``F_`` a rule-file function, ``B_`` a built-in, ``R_`` a record, and an attribute
behind :func:`naipes.program.attribute`; everything else is a literal of a known type (:func:`literal`).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import Location
from ..library.builtins import BUILTINS
from ..library.limits import HASHED_EXACTLY
from ..program import attribute
from . import nodes as n
from .exact import exact_locals
from .loader import number_problem

Origin = tuple[str, Location | None]  # what a generated line is part of ("condition of rule 'lead'"), and where
Line = tuple[int, str, str, Location | None]  # (indent, python line, what it is part of ('': the function), where)
# An expression of another origin (Node.origin) is written between these marks, its origin's number after the
# first: a statement's text is cut there into lines, each with its own origin (Python joins lines in brackets).
INLINED = re.compile("\x02(\\d+)\x03|\x04")

# `a * b`, `a + b` and `a - b` go through the size checks of naipes.library.limits (a repeated or joined sequence, a
# number of too many bits), unless one side is a number written in the rule file (for `*`, and the other side
# a number): then a value grows by at most that much per step, which the step budget bounds.
ARITHMETIC_CHECKED = {"*": "B_times", "+": "B_plus", "-": "B_minus"}
NUMBER_TYPES = frozenset({"int", "float", "bool"})  # what a built-in returns (Builtin.returns) that is a number


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


def constant_number(node: n.Node | None) -> bool:
    """Whether `node` is a number written in the rule file (or a param holding one, or True or False, or the
    sign of a number written so): a product by one grows slowly."""
    if isinstance(node, n.Number):
        return True
    if isinstance(node, n.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, n.Name):
        return node.meaning == n.PARAM and isinstance(node.value, (int, float))
    if isinstance(node, n.Unary):  # (-3, +2.5: a sign of a number, as written, not of a bool or of a sign)
        operand = node.operand
        return isinstance(operand, n.Number) or (isinstance(operand, n.Name) and operand.meaning == n.PARAM and
                                                 type(operand.value) in (int, float) and operand.value >= 0)
    return False


def proven_number(node: n.Node | None) -> bool:
    """Whether `node` gives a number (or a bool) whatever the values it reads hold: a number written in the file
    (constant_number), a comparison, a built-in that gives only numbers, arithmetic and choices of such. A type the
    resolver found is no proof: a variable declared 0 may be given a text by a value whose type is known only when
    the game runs (`out = first(names)`), so a size check is never left out on its word."""
    if node is None:
        return False
    if constant_number(node) or isinstance(node, (n.Compare, n.Not, n.Bits, n.Unary)):
        return True  # (a sign gives a number, or fails)
    if isinstance(node, n.Literal):
        return type(node.value) in (int, float, bool)
    if isinstance(node, n.Call):
        return node.target == n.CALL_BUILTIN and BUILTINS[str(node.name)].returns in NUMBER_TYPES
    if isinstance(node, n.BinOp):
        return proven_number(node.left) and proven_number(node.right)
    if isinstance(node, n.IfExp):
        return proven_number(node.body) and proven_number(node.orelse)
    if isinstance(node, n.BoolOp):
        return all(map(proven_number, node.values))
    if isinstance(node, (n.Keep, n.Remember)):
        return proven_number(node.value)
    return False


SHORT_TEXT = 64  # characters of a text written in the file that compares in one step (limits.TEXT_CHUNK)
FEW = 16  # items of a list or tuple written in the file that compares, or is searched, without a charge


def cheap(node: n.Node | None) -> bool:
    """Whether comparing or hashing the value of `node` costs nothing that grows, whatever the values it reads
    hold: a number (proven_number), None, true or false, a short text written in the file, a card's attribute
    (plain values and short texts, checked as the deck is made: naipes.runtime.memory). Anything else is weighed
    as it is compared or hashed (naipes.library.limits.Budget.weighed): Python compares lists and tuples item by
    item, and a list can hold itself through a hundred shared levels."""
    if isinstance(node, n.String):
        return len(node.value) <= SHORT_TEXT
    if isinstance(node, n.Constant):
        return node.value is None or isinstance(node.value, bool)
    if isinstance(node, n.Literal):
        value = node.value
        if isinstance(value, (list, tuple)):  # (compared item by item: a few cheap ones)
            return len(value) <= FEW and all(cheap(n.Literal(item)) for item in value)
        return value is None or type(value) in (int, float, bool) or (type(value) is str and len(value) <= SHORT_TEXT)
    if isinstance(node, n.Attribute):
        return node.plain and not node.per_player_memory
    if isinstance(node, (n.ListExpr, n.TupleExpr, n.SetExpr)):
        return len(node.items) <= FEW and all(map(cheap, node.items))
    if isinstance(node, n.TableLookup):  # (a value of a card table written in the file, or its default)
        return all(cheap(n.Literal(value)) for value in (*node.values.values(), node.default))
    return proven_number(node)


def weighed(text: str, node: n.Node) -> str:
    """`text`, the Python of `node`, charged what comparing its value costs (unless cheap)."""
    return text if cheap(node) else f"M.weighed({text})"


def hashed(text: str, node: n.Node) -> str:
    """`text`, the Python of `node`, charged what hashing its value costs (naipes.library.limits.Budget.hashed),
    unless it is cheap to hash: cheap to compare, and no number computed (a number hashes alike with others
    past HASHED_EXACTLY) nor a tuple holding one."""
    return text if cheap_to_hash(node) else f"M.hashed({text})"


def cheap_to_hash(node: n.Node) -> bool:
    """Whether `node` is cheap (see cheap) and hashes unlike any other value a file can make: a number within
    HASHED_EXACTLY written in the file (a card's numbers are checked so as the deck is made), or a value that is
    no number nor a tuple."""
    if isinstance(node, n.Number):
        return -HASHED_EXACTLY < node.value < HASHED_EXACTLY
    if isinstance(node, n.Literal):
        return all(type(value) is not int or -HASHED_EXACTLY < value < HASHED_EXACTLY
                   for value in (node.value if isinstance(node.value, (list, tuple)) else (node.value,))) \
            and cheap(node)
    if isinstance(node, n.TableLookup):
        return all(cheap_to_hash(n.Literal(value)) for value in (*node.values.values(), node.default))
    if isinstance(node, (n.TupleExpr, n.ListExpr, n.SetExpr)):
        return len(node.items) <= FEW and all(map(cheap_to_hash, node.items))
    if isinstance(node, (n.String, n.Constant, n.Attribute)):
        return cheap(node)
    return False


def checked(op: str, left_node: n.Node | None, right_node: n.Node | None) -> str | None:
    """The built-in that computes `left op right` with the size checks of naipes.library.limits (see
    ARITHMETIC_CHECKED), or None where Python's operator is safe; `left_node`, `right_node`: the operands' nodes,
    where they are nodes (an assignment's target is not)."""
    left_constant, right_constant = constant_number(left_node), constant_number(right_node)
    if op == "%" and not proven_number(left_node):  # a text's % formats it: of any size
        return "B_modulo"
    if op == "*":  # by a number, a number grows slowly; a text or list multiplied by one can be huge
        safe = (left_constant and proven_number(right_node)) or (right_constant and proven_number(left_node))
    else:
        safe = left_constant or right_constant
    return ARITHMETIC_CHECKED[op] if op in ARITHMETIC_CHECKED and not safe else None


def binary(op: str, left: str, right: str, left_node: n.Node | None = None, right_node: n.Node | None = None) -> str:
    """Python for `left op right` (see checked)."""
    call = checked(op, left_node, right_node)
    return f"{call}(M, {left}, {right})" if call else f"({left} {op} {right})"


def makes_call(node: n.Node) -> bool:
    """Whether the Python written for `node` itself (not counting its children's) calls a function worth
    remembering the value of (what a comparison or a key charges is not: it is cheap, and charged again)."""
    if isinstance(node, (n.Generated, n.MemoryCall, n.Copy, n.TableLookup, n.DeckProduct, n.Comprehension)):
        return True  # (a comprehension charges its items: M.charge)
    if isinstance(node, n.Call):
        return node.target != n.VALUES_OF  # (values_of is a literal)
    if isinstance(node, n.BinOp):
        return checked(node.op, node.left, node.right) is not None
    if isinstance(node, n.FString):
        return any(not isinstance(part, str) for part in node.parts) or len(node.parts) > 1
    if isinstance(node, n.Filter):
        return bool(node.each)
    if isinstance(node, n.Lambda):
        return bool(node.spend)
    return False


def _pairs(node: n.Compare) -> list[tuple[str, n.Expr, n.Expr]]:
    """Each comparison of a chain (`a < b < c`: a < b, then b < c) as (operator, left, right)."""
    operands = [node.first, *node.operands]
    return [(op, operands[i], operands[i + 1]) for i, (op, _) in enumerate(node.ops)]


def _compare_charges(op: str, left: n.Expr, right: n.Expr) -> tuple[bool, bool]:
    """Whether `left op right` charges (its left side weighed, its right side searched): `is` compares no values;
    `in` hashes or compares the member and goes over the collection; `==`, `<` and the others compare item by
    item, as far as the left side goes, unless either side is cheap."""
    if op in ("is", "is not"):
        return False, False
    if op in ("in", "not in"):  # (the member is hashed, if the collection is a set or a map: see hashed)
        return not cheap_to_hash(left), not cheap(right)
    return not (cheap(left) or cheap(right)), False


def local_name(name: str) -> str:
    """The Python name of a local (a rule file's `x` is `v_x`; the engine's own locals start with '_')."""
    return f"v_{name}"


def draws_at_random(node: n.Node) -> bool:
    """Whether computing `node` calls a built-in that draws from the game's generator."""
    return any(call.target == n.CALL_BUILTIN and BUILTINS[str(call.name)].random for call in node.find_all(n.Call))


def charge(items: str, each: int) -> str:
    """`items`, charged `each` steps per item (naipes.library.limits)."""
    return f"M.charge({items})" if each == 1 else f"M.charge({items}, {each})"


class Writer:
    """Writes the Python of checked nodes; a card table's values (TableLookup) become a dict of the module, made once
    as it runs (`tables`: each dict's source -> its name and where it was first needed; equal tables share one)."""

    def __init__(self) -> None:
        self.tables: dict[str, tuple[str, Origin]] = {}
        self.what = ""  # what the definition being written is (the origin of a table first needed there)
        self.origins: list[Origin] = []  # the origins of the expressions written between INLINED's marks
        self.exact: dict[str, str] = {}  # the definition's locals declared at their first assignment, not yet written

    # ---------------------------------------------------------------------------------------- expressions
    def expr(self, node: n.Node) -> str:
        method: Callable[[Any], str] = getattr(self, "e_" + type(node).__name__)
        text = method(node)
        if not node.origin:
            return text
        self.origins.append((node.origin, node.loc))
        return f"(\x02{len(self.origins) - 1}\x03{text}\x04)"

    def e_Number(self, node: n.Number) -> str:
        return literal(node.value)

    def e_String(self, node: n.String) -> str:
        return repr(node.value)

    def e_FString(self, node: n.FString) -> str:
        """Its texts and the text of each value ('B_str'), joined left to right."""
        parts = [literal(part) if isinstance(part, str) else f"B_str(M, {self.expr(part)})" for part in node.parts]
        src = parts[0]
        for part in parts[1:]:
            src = binary("+", src, part)
        return src

    def e_Constant(self, node: n.Constant) -> str:
        return repr(node.value)

    def e_Name(self, node: n.Name) -> str:
        if node.meaning == n.LOCAL:
            return local_name(node.id)
        if node.meaning == n.PARAM:
            return literal(node.value)
        if node.meaning == n.GLOBAL:
            return f"V[{node.id!r}]"
        return f"B_{node.id}"  # (a built-in passed as a value)

    def e_Attribute(self, node: n.Attribute) -> str:
        base = self.expr(node.base)
        if node.per_player_memory:
            return f"V[{node.name!r}][{base}.{attribute('index')}]"
        return f"{base}.{attribute(node.name)}"

    def e_Subscript(self, node: n.Subscript) -> str:
        """`base[index]`, the index weighed (a dict hashes its key); a slice charged for the items it copies."""
        base = self.expr(node.base)
        if isinstance(node.index, n.Slice):
            return f"M.charge_sized({base}[{self.expr(node.index)}])"
        return f"{base}[{hashed(self.expr(node.index), node.index)}]"

    def e_Slice(self, node: n.Slice) -> str:
        return ":".join(self.expr(bound) if bound is not None else "" for bound in (node.lower, node.upper))

    def e_Call(self, node: n.Call) -> str:
        target = node.target
        if target == n.VALUES_OF:
            return literal(node.found)
        if target == n.EXISTS:
            kind, by = node.found
            wanted = {k.name: k.value for k in node.keywords}
            found = "".join(f"{hashed(self.expr(wanted[name]), wanted[name])}, " for name in by)
            return f"M.has_fact({literal(kind)}, {literal(tuple(map(attribute, by)))}, ({found}))"
        args = [self.expr(arg) for arg in node.positional]
        keywords = [f"{k.name}={self.expr(k.value)}" for k in node.keywords]
        name = node.name
        if target == n.CALL_LOCAL:
            return f"M.call({', '.join([self.expr(node.func), *args, *keywords])})"
        if target == n.CALL_RECORD:
            values = node.positional if node.found is None else [k.value for f in node.found for k in node.keywords
                                                                  if k.name == f]
            return f"R_{name}({', '.join(self.expr(value) for value in values)})"
        if target == n.CALL_FUNCTION:
            return f"{node.definition}(M, V{''.join(', ' + a for a in args)})"
        b = BUILTINS[name]  # type: ignore[index]  # (a built-in: the resolver found it)
        args = [self.charged_argument(b, node, i, arg) for i, arg in enumerate(args)]
        if b.work in ("compared", "sorted"):  # (the keys are what it compares)
            keywords = [f"key={self.weighed_key(k.value)}" if k.name == "key" else text
                        for k, text in zip(node.keywords, keywords)]
        lead = "M.rng" if b.random else "V" if b.state else "M" if b.costly else ""
        joined = ", ".join(x for x in (lead, ", ".join(args + keywords)) if x)
        call = f"B_{name}{'_keyed' if node.keyed else ''}({joined})"
        return f"M.charge_sized({call})" if b.work == "made" else call

    def charged_argument(self, b: Any, node: n.Call, i: int, arg: str) -> str:
        """Argument `i` of a call of built-in `b`, charged for the work the built-in does with it (Builtin.work), and
        the first for the steps of its key's inlined calls on each item (key_steps)."""
        key_steps = node.key_steps if i == 0 else 0
        if i not in node.charged:
            return charge(arg, key_steps) if key_steps else arg
        if b.work == "hashed":
            return f"M.hashed_all({charge(arg, key_steps) if key_steps else arg})"
        if b.work in ("compared", "sorted"):
            if b.work == "sorted":  # (positional, as every call the C modules make straight to the runtime)
                return f"M.compared({arg}, {key_steps}, True)"
            return f"M.compared({arg}{f', {key_steps}' if key_steps else ''})"
        if b.iterates and i == 0:  # (gone over: a collection, or a generator listed)
            return charge(arg, 1 + key_steps)
        return f"M.charge_sized({arg})"

    def weighed_key(self, key: n.Expr) -> str:
        """A key function whose values are weighed as the built-in compares them."""
        if isinstance(key, n.Lambda):
            if cheap(key.body):
                return self.expr(key)
            body = f"M.weighed({self.expr(key.body)})"
            if key.spend:
                body = f"(M.spend({key.spend}) or {body})"
            return f"(lambda {', '.join(map(local_name, key.params))}: {body})"
        return f"M.weighing({self.expr(key)})"

    def e_BinOp(self, node: n.BinOp) -> str:
        return binary(node.op, self.expr(node.left), self.expr(node.right), node.left, node.right)

    def e_Unary(self, node: n.Unary) -> str:
        return f"({node.op}{self.expr(node.operand)})"

    def e_Compare(self, node: n.Compare) -> str:
        """A chain of comparisons, each charged for what it compares (_compare_charges): its left side weighed,
        the collection a member is searched in charged for its items."""
        operands = [self.expr(node.first), *map(self.expr, node.operands)]
        if len(node.ops) == 1 and node.ops[0][0] in ("in", "not in") and not node.cheap_operands:
            weigh_member, search = _compare_charges(node.ops[0][0], node.first, node.operands[0])
            if search:  # (the member at hand: a text searched for a text is charged by both: Budget.contains)
                member = f"M.hashed({operands[0]})" if weigh_member else operands[0]
                found = f"M.contains({member}, {operands[1]})"
                return f"(not {found})" if node.ops[0][0] == "not in" else found
        for i, (op, left, right) in enumerate([] if node.cheap_operands else _pairs(node)):
            weigh_left, search_right = _compare_charges(op, left, right)
            if weigh_left:
                operands[i] = f"M.{'hashed' if op in ('in', 'not in') else 'weighed'}({operands[i]})"
            if search_right:
                operands[i + 1] = f"M.searched({operands[i + 1]})"
        out = [operands[0]]
        for (op, _), operand in zip(node.ops, operands[1:]):
            out += [op, operand]
        return f"({' '.join(out)})"

    def e_BoolOp(self, node: n.BoolOp) -> str:
        return "(" + f" {node.op} ".join(self.expr(value) for value in node.values) + ")"

    def e_Not(self, node: n.Not) -> str:
        return f"(not {self.expr(node.operand)})"

    def e_IfExp(self, node: n.IfExp) -> str:
        return f"({self.expr(node.body)} if {self.expr(node.test)} else {self.expr(node.orelse)})"

    def e_Lambda(self, node: n.Lambda) -> str:
        body = self.expr(node.body)
        if node.spend:  # (M.spend(k) or BODY): spend gives None, so BODY is the value
            body = f"(M.spend({node.spend}) or {body})"
        return f"(lambda {', '.join(map(local_name, node.params))}: {body})"

    def e_TupleExpr(self, node: n.TupleExpr) -> str:
        return "(" + "".join(self.expr(item) + ", " for item in node.items) + ")"

    def e_ListExpr(self, node: n.ListExpr) -> str:
        return "[" + ", ".join(self.expr(item) for item in node.items) + "]"

    def e_SetExpr(self, node: n.SetExpr) -> str:
        return "{" + ", ".join(hashed(self.expr(item), item) for item in node.items) + "}"

    def e_DictExpr(self, node: n.DictExpr) -> str:
        return "{" + ", ".join(self.pair(pair) for pair in node.pairs) + "}"

    def pair(self, pair: n.Pair) -> str:
        """`key: value`, the key weighed (it is hashed)."""
        return f"{hashed(self.expr(pair.key), pair.key)}: {self.expr(pair.value)}"

    def e_Comprehension(self, node: n.Comprehension) -> str:
        """A list, set or dict comprehension; a generator only where it stays one (Comprehension.lazy)."""
        clauses = []
        for clause in node.clauses:
            names, items = ", ".join(map(local_name, clause.names)), self.expr(clause.iterable)
            text = f"for {names} in {charge(items, clause.each)}"
            if clause.condition is not None:
                text += f" if {self.expr(clause.condition)}"
            clauses.append(text)
        element = node.element
        body = self.pair(element) if isinstance(element, n.Pair) else \
            hashed(self.expr(element), element) if node.kind == "set" else self.expr(element)
        open_, close = "()" if node.lazy else "{}" if node.kind in ("set", "dict") else "[]"
        return f"{open_}{body} {' '.join(clauses)}{close}"

    # ----------------------------------------------------------------------------------------- statements
    def statements(self, statements: list[n.Stmt], indent: int, out: list[Line]) -> None:
        for statement in statements:
            getattr(self, "s_" + type(statement).__name__)(statement, indent, out)

    def emit(self, out: list[Line], indent: int, line: str, node: n.Node) -> None:
        """Append the statement `line` written for `node`, cut into lines where an expression of another origin
        begins or ends (INLINED)."""
        origins: list[tuple[str, Location | None]] = [("", node.loc)]
        start = 0
        for mark in INLINED.finditer(line):
            out.append((indent, line[start:mark.start()], *origins[-1]))
            start = mark.end()
            if mark.group(1) is not None:
                origins.append(self.origins[int(mark.group(1))])
            else:
                origins.pop()
        out.append((indent, line[start:], *origins[-1]))

    def s_Return(self, node: n.Return, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, "return" if node.value is None else f"return {self.expr(node.value)}", node)

    def s_Pass(self, node: n.Pass, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, "pass", node)

    def s_Let(self, node: n.Let, indent: int, out: list[Line]) -> None:
        src = self.expr(node.value)
        targets = ", ".join(local_name(name) for name in node.names)
        if len(node.names) > 1:
            self.emit(out, indent, f"{targets}, = M.unpack({src}, {len(node.names)})", node)
        else:
            self.emit(out, indent, f"{self.declared(node.names[0])} = {src}", node)

    def s_Assign(self, node: n.Assign, indent: int, out: list[Line]) -> None:
        target, op, value = node.target, node.op, node.value
        src = self.expr(value)

        def new(current: str) -> str:  # the value written: `src`, or `current op src`
            return binary(op, current, src, None, value) if op else src
        if isinstance(target, n.NameTarget):
            name = target.name
            if node.writes == n.WRITES_LOCAL:
                self.emit(out, indent, f"{self.declared(name)} = {new(local_name(name))}", node)
            else:
                self.emit(out, indent, f"M.set_var({name!r}, {new(f'V[{name!r}]')})", node)
            return
        name = target.name
        obj = f"_o{node.temporary}"
        base = self.expr(target.base)
        if node.writes == n.WRITES_MEMORY:  # item p.index of the tuple a strategy keeps per player
            index = f"{obj}.{attribute('index')}"
            self.emit(out, indent, f"{obj} = {base}; M.set_var({name!r}, B_replaced(V[{name!r}], {index}, "
                                   f"{new(f'V[{name!r}][{index}]')}))", node)
        else:
            setter = "set_team_attr" if node.writes == n.WRITES_TEAM else "set_attr"
            self.emit(out, indent, f"{obj} = {base}; M.{setter}({obj}, {name!r}, {new(f'{obj}.{attribute(name)}')})",
                      node)

    def declared(self, name: str) -> str:
        """The Python name of the local `name`, with its type the first time it is assigned where the tree proves
        the type exact (naipes.language.exact)."""
        kind = self.exact.pop(name, None)
        return f"{local_name(name)}: {kind}" if kind else local_name(name)

    def s_Move(self, node: n.Move, indent: int, out: list[Line]) -> None:
        source = self.expr(node.source) if node.source is not None else "None"
        self.emit(out, indent, f"M.move({self.expr(node.cards)}, {self.expr(node.dest)}, {source}, {node.bottom})",
                  node)

    def s_Shuffle(self, node: n.Shuffle, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"M.shuffle({self.expr(node.zone)})", node)

    def s_Show(self, node: n.Show, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"M.show({self.expr(node.cards)})", node)

    def s_Deal(self, node: n.Deal, indent: int, out: list[Line]) -> None:
        count = self.expr(node.count) if node.count is not None else "None"
        self.emit(out, indent, f"M.deal({count}, {self.expr(node.source)}, {self.expr(node.dests)})", node)

    def s_Ask(self, node: n.Ask, indent: int, out: list[Line]) -> None:
        if node.group is None:
            self.emit(out, indent, f"M.ask({self.expr(node.player)}, {tuple(node.moves)!r})", node)
        else:
            self.emit(out, indent, f"M.ask_group({node.group!r}, {self.expr(node.player)}, {tuple(node.moves)!r})",
                      node)

    def s_EndGame(self, node: n.EndGame, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"M.end_game({self.expr(node.winners) if node.winners is not None else 'None'})", node)

    def s_Goto(self, node: n.Goto, indent: int, out: list[Line]) -> None:
        test = self.expr(node.condition) if node.condition is not None else None

        def chosen(target: Any, otherwise: Any) -> str:
            return literal(target) if test is None else f"({literal(target)} if {test} else {literal(otherwise)})"
        self.emit(out, indent, f"M.goto({chosen(node.target, node.otherwise)})", node)
        if node.stages is not None:
            self.emit(out, indent, f"M.set_var('stage', {chosen(*node.stages)})", node)

    def s_Refresh(self, node: n.Refresh, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"M.refresh({literal(node.rule)})", node)

    def s_AssertFact(self, node: n.AssertFact, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"M.assert_fact({self.expr(node.value)})", node)

    def s_Retract(self, node: n.Retract, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"M.retract_fact({self.expr(node.value)})", node)

    def s_Modify(self, node: n.Modify, indent: int, out: list[Line]) -> None:
        call = node.value
        assert isinstance(call, n.Call)  # (the resolver refuses anything else)
        changes = ", ".join(f"{literal(attribute(k.name))}: {self.expr(k.value)}" for k in call.keywords)
        self.emit(out, indent, f"M.modify_fact({self.expr(call.func)}, {{{changes}}})", node)

    def s_Announce(self, node: n.Announce, indent: int, out: list[Line]) -> None:
        """An announcement is made only when someone hears the game (a simulation without logs skips the work),
        unless making it draws at random: the game must draw the same numbers, heard or not."""
        parts = ", ".join(self.expr(value) for value in node.values)
        heard = "" if any(draws_at_random(value) for value in node.values) else "if M.events is not None: "
        self.emit(out, indent, f"{heard}M.announce(({parts},))", node)

    def s_If(self, node: n.If, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"if {self.expr(node.test)}:", node)
        self.statements(node.body, indent + 1, out)
        for branch in node.branches:
            if branch.test is not None:
                self.emit(out, indent, f"elif {self.expr(branch.test)}:", branch)
            else:
                self.emit(out, indent, "else:", branch)
            self.statements(branch.body, indent + 1, out)

    def s_For(self, node: n.For, indent: int, out: list[Line]) -> None:
        targets = ", ".join(local_name(name) for name in node.names)
        self.emit(out, indent, f"for {targets} in list(M.charge({self.expr(node.iterable)})):", node)
        self.statements(node.body, indent + 1, out)

    # -------------------------------------------------------------------------------- the engine's own nodes
    def e_Literal(self, node: n.Literal) -> str:
        return literal(node.value)

    def e_Bits(self, node: n.Bits) -> str:
        return str(int(node.value))

    def e_Temporary(self, node: n.Temporary) -> str:
        return node.name

    def e_Keep(self, node: n.Keep) -> str:
        return f"({node.name} := {self.expr(node.value)})"

    def e_Generated(self, node: n.Generated) -> str:
        return f"{node.name}({', '.join(['M', 'V', *map(self.expr, node.args)])})"

    def e_Unset(self, node: n.Unset) -> str:
        return "B_UNSET"

    def e_Remember(self, node: n.Remember) -> str:
        return f"({node.name} if {node.name} is not B_UNSET else ({node.name} := {self.expr(node.value)}))"

    def e_MemoryCall(self, node: n.MemoryCall) -> str:
        return f"M.{node.method}({', '.join(self.expr(arg) for arg in node.args)})"

    def e_Copy(self, node: n.Copy) -> str:
        return f"list({self.expr(node.value)})"

    def e_Filter(self, node: n.Filter) -> str:
        item = local_name(node.item) if node.item is not None else "_"
        items = self.expr(node.items)
        return f"[{item} for {item} in {charge(items, node.each) if node.each else items} if {self.expr(node.test)}]"

    def e_TableLookup(self, node: n.TableLookup) -> str:
        """`B_lookup(table_N, key, default)`: only B_lookup reads the dict, and it goes nowhere else, so nothing can
        change it (the table is made once, not at each call)."""
        values = literal(node.values)
        if values not in self.tables:
            self.tables[values] = (f"table_{len(self.tables) + 1}", (self.what, node.loc))
        return f"B_lookup({self.tables[values][0]}, {self.expr(node.key)}, {literal(node.default)})"

    def e_DeckProduct(self, node: n.DeckProduct) -> str:
        values = ", ".join(self.expr(value) for value in node.values)
        return (f"[dict(zip({literal(node.attributes)}, combo)) for _ in range({self.expr(node.copies)}) "
                f"for combo in B_product({values})] + {literal(node.extra)}")

    def s_Loop(self, node: n.Loop, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"for {', '.join(map(local_name, node.names))} in {self.expr(node.iterable)}:", node)
        self.statements(node.body, indent + 1, out)

    def s_Do(self, node: n.Do, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, self.expr(node.call), node)

    def s_Grow(self, node: n.Grow, indent: int, out: list[Line]) -> None:
        target, added = node.target, self.expr(node.added)
        if isinstance(target, n.NameTarget):
            self.emit(out, indent, f"M.grow_var({target.name!r}, {added})", node)
        else:
            obj = f"_o{node.temporary}"
            self.emit(out, indent, f"{obj} = {self.expr(target.base)}; M.grow_attr({obj}, {target.name!r}, {added})",
                      node)

    def s_SetTemporary(self, node: n.SetTemporary, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"{node.name} = {self.expr(node.value)}", node)

    def s_Append(self, node: n.Append, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"B_append({local_name(node.name)}, {self.expr(node.value)})", node)

    def s_Break(self, node: n.Break, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, "break", node)

    def s_MaskUpdate(self, node: n.MaskUpdate, indent: int, out: list[Line]) -> None:
        self.emit(out, indent, f"{local_name(node.name)} {node.op}= {int(node.bits)}", node)

    def definition(self, node: n.Definition, lines: list[str], origins: dict[int, Origin]) -> None:
        """Append the function `node` is to `lines`, each line's origin (what it is, where in the rule file) to
        `origins` (by line number, from 1)."""
        args = ", ".join(("M", "V") + tuple(local_name(p) if p != "_" else "_" for p in node.params) +
                         tuple(map(self.expr, node.reads)))
        self.what = node.what
        self.exact = exact_locals(node)
        body: list[Line] = []
        if isinstance(node.body, list):
            self.statements(node.body, 0, body)
        else:
            self.emit(body, 0, f"return {self.expr(node.body)}", node.body)
        lines.append(f"def {node.name}({args}):")
        origins[len(lines)] = (node.what, body[0][3] if body else None)
        for indent, text, what, where in body:
            lines.append("    " * (indent + 1) + text)
            origins[len(lines)] = (what or node.what, where)


def write_module(definitions: list[n.Definition]) -> tuple[str, dict[int, Origin]]:
    """The Python source of a module of generated functions, and each line's origin: line number -> (what it is,
    its rule-file location)."""
    lines: list[str] = []
    origins: dict[int, Origin] = {}
    writer = Writer()
    for definition in definitions:
        writer.definition(definition, lines, origins)
    tables = [f"{name} = {values}" for values, (name, _) in writer.tables.items()]
    origins = {line + len(tables): origin for line, origin in origins.items()}
    origins.update({line: origin for line, (_, origin) in enumerate(writer.tables.values(), 1)})
    return "\n".join(tables + lines) + "\n", origins
