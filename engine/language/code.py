"""Parsed code as a value of the rule tree, and the templates with holes that make it.

A desugaring (:mod:`naipes.language.bets`) writes functions, conditions and actions into the rule tree that no
file wrote as such. It writes them as :class:`Code`, the language's nodes (:mod:`naipes.language.nodes`), which
the compiler's entry points take in place of a text and use as they are, instead of parsing. Each is made from a
template of the engine's own, with holes that the file's own texts fill:

>>> from naipes.errors import Location
>>> at = Location("g.yaml", 3, 5)
>>> follows = given_expression("k != 'two' or passes > 1", at, "'follows' of bet 'stake'")
>>> made = expression("len(stake_calls) < 3 and ($follows)", at, "bet 'stake'", follows=follows)
>>> [type(node).__name__ for node in made.expression("a condition").values]
['Compare', 'BoolOp']

A file's text is parsed by itself (its nodes are where the file wrote it) and put into the template's tree
where the template has a hole, as a node: it can never change the structure around it, as text spliced into
text could (a parenthesis closed, a block dedented out of). A hole is `$NAME`, in the place of an expression,
or alone on a line, in the place of statements; nothing but the engine's templates is searched for holes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import Location, RuleError
from . import nodes as n
from .loader import Text
from .parser import parse_block, parse_expression

HOLE = re.compile(r"\$(\w+)")
STATEMENT_HOLE = re.compile(r"^([ \t]*)\$(\w+)[ \t]*$", re.M)
PLACEHOLDER = "_hole_"  # a hole's name in the template's tree (only the template is searched: see _filled)


@dataclass(frozen=True, eq=False)
class Code:
    """Parsed code (an expression, or statements) standing in the rule tree where a text would; `loc`: where it
    is reported (as a whole). `unparsed`: a text of it that does not parse, and whether as statements: whatever
    compiles the code parses it again, to report its located error in its own words (what the code is for)."""

    tree: n.Expr | list[n.Stmt]
    loc: Location
    unparsed: tuple[str, bool] | None = None

    @property
    def block(self) -> bool:
        """Whether it is statements (an action block, or a function's body of statements)."""
        return isinstance(self.tree, list)

    def expression(self, what: str) -> n.Expr:
        """The expression's nodes, new ones at each call (compiling changes them); a RuleError if a text of it does
        not parse (`what`: what the code is, in the message)."""
        self.parse_again(what)
        assert isinstance(self.tree, n.Expr), "statements are no expression"
        return n.clone(self.tree)

    def statements(self, what: str) -> list[n.Stmt]:
        """The statements' nodes, new ones at each call; a RuleError if a text of it does not parse."""
        self.parse_again(what)
        assert isinstance(self.tree, list), "an expression is no statements"
        return [n.clone(statement) for statement in self.tree]

    def parse_again(self, what: str) -> None:
        """Raise the located error of the text of it that does not parse, if any."""
        if self.unparsed is not None:
            text, block = self.unparsed
            (parse_block if block else parse_expression)(text, what)
            raise AssertionError(f"{text!r} parses now")

    def binding(self) -> tuple[str, Code] | None:
        """`NAME in COLLECTION` (a move's choose): the name and the collection's code; None if it is not one."""
        tree = self.tree
        if isinstance(tree, n.Compare) and [op for op, _ in tree.ops] == ["in"] and isinstance(tree.first, n.Name):
            return tree.first.id, Code(tree.operands[0], self.loc, self.unparsed)
        return None


def parsed_expression(source: str | Code, what: str) -> n.Expr:
    """The nodes of an expression given as text (parsed) or as code."""
    return source.expression(what) if isinstance(source, Code) else parse_expression(source, what)


def parsed_block(source: str | Code, what: str) -> list[n.Stmt]:
    """The nodes of statements given as text (parsed) or as code."""
    return source.statements(what) if isinstance(source, Code) else parse_block(source, what)


def given_expression(value: Any, at: Location, what: str) -> Code:
    """A file's expression (a text, a number, a truth value) parsed by itself, its nodes where the file wrote it (a
    value that is not a file's text: at `at`)."""
    text = _located(value, at)
    try:
        return Code(parse_expression(text, what), at)
    except RuleError:
        return Code(n.Constant(None, at=at), at, (text, False))


def given_actions(value: Any, at: Location, what: str) -> Code:
    """A file's actions (a text, or a list of texts: statements each) parsed by themselves, where it wrote them."""
    statements: list[n.Stmt] = []
    for item in value if isinstance(value, list) else [value]:
        text = _located(item, at)
        try:
            statements += parse_block(text, what)
        except RuleError:
            return Code([n.Pass(at=at)], at, (text, True))
    return Code(statements or [n.Pass(at=at)], at)


def expression(template: str, at: Location, what: str, **holes: Code) -> Code:
    """The engine's expression `template` (located at `at`), each hole `$NAME` filled with the code `NAME` gives
    (holes given that the template does not have are left out)."""
    return _made(template, at, what, holes, block=False)


def statements(template: str, at: Location, what: str, **holes: Code) -> Code:
    """The engine's statements `template` (located at `at`), each hole `$NAME` (an expression, or statements alone
    on a line) filled with the code `NAME` gives."""
    return _made(template, at, what, holes, block=True)


class _Generated(Text):
    """The text of a template: every character of it is at the declaration it is made for."""

    def at(self, line: int, col: int) -> Location:
        return self.loc


def _located(value: Any, at: Location) -> str:
    """A value as the text to parse: a file's own text (located), or else (a template, a number or truth value
    written out) a text every character of which is at `at`."""
    if isinstance(value, Text):
        return value
    text = _Generated(value if isinstance(value, str) else repr(value))
    text.loc = at
    return text


def _made(template: str, at: Location, what: str, holes: dict[str, Code], block: bool) -> Code:
    source = HOLE.sub(lambda m: PLACEHOLDER + m.group(1),
                      STATEMENT_HOLE.sub(lambda m: f"{m.group(1)}{PLACEHOLDER}{m.group(2)} = None", template))
    filled = {PLACEHOLDER + name: holes[name] for name in HOLE.findall(template)}  # (only the holes it has)
    text = _located(source, at)
    try:
        tree = _filled_list(parse_block(text, what), filled) if block else _filled(parse_expression(text, what), filled)
    except RuleError:  # (the template's own, where what it was made for, a refused bet, is no name)
        return Code([n.Pass(at=at)] if block else n.Constant(None, at=at), at, (text, block))
    # (a hole's text that does not parse: its stand-in keeps the place, and the made code says why when compiled)
    return Code(tree, at, next((code.unparsed for code in filled.values() if code.unparsed), None))


def _hole(node: n.Node, holes: dict[str, Code]) -> Code | None:
    """The code filling `node`, if it is a hole of the template: a name, or a statement `NAME = None`."""
    if isinstance(node, n.Name):
        return holes.get(node.id)
    if isinstance(node, n.Assign) and isinstance(node.target, n.NameTarget):
        return holes.get(node.target.name)
    return None


def _filled(node: n.Node, holes: dict[str, Code]) -> Any:
    """`node` with its holes filled (a hole's own code is put in as it is, and never searched for holes)."""
    code = _hole(node, holes)
    if code is not None:
        assert not code.block, "a hole in the place of an expression is filled with an expression"
        return code.tree
    for name in node.fields:
        value = getattr(node, name)
        if isinstance(value, n.Node):
            setattr(node, name, _filled(value, holes))
        elif isinstance(value, list):
            setattr(node, name, _filled_list(value, holes))
    return node


def _filled_list(items: list[Any], holes: dict[str, Code]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        code = _hole(item, holes) if isinstance(item, n.Stmt) else None
        if code is not None:
            assert isinstance(code.tree, list), "a hole alone on a line is filled with statements"
            out += code.tree
        else:
            out.append(_filled(item, holes) if isinstance(item, n.Node) else item)
    return out
