"""What every section reader of a rule file shares: the tree, the errors found, the generated definitions.

A rule file is read section by section (``settings``, ``declarations``,
``cards``, ``moves``, ``rules``; ``builder`` puts them together and
``linker`` compiles the generated module); each reader is a mixin of
:class:`SectionReader`, the context of reading one file. What a reader
gives another (the zones, a phase's turns, a rule's units) is not kept
there: it is returned, and passed on as a parameter.
"""
from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

from ..errors import Location, RuleError, did_you_mean
from . import nodes as n
from .callgraph import components
from .code import Code
from .codegen import literal
from .compiler import ANY, Compiler, Symbols, Unit
from .loader import Map, Seq, Text, location_of, subtext

PARAM_TYPES = {"int": int, "float": float, "bool": bool, "str": str}
SIGNATURE = re.compile(r"^\s*([A-Za-z]\w*)\s*\(\s*([A-Za-z]\w*(\s*,\s*[A-Za-z]\w*)*)?\s*\)\s*$", re.ASCII)
BINDING = re.compile(r"^\s*([A-Za-z]\w*)\s+in\s+(.+)$", re.S | re.ASCII)
FUNCTION = "function"  # the kind of a rule-file function's definition (a card table's too)


class Definition(NamedTuple):
    """A generated function as a section reader defines it: its Python name, its parameters, its unit, whether it
    is a block of statements, what it is (in errors), and its kind: FUNCTION for a rule-file function, else what
    the engine makes it for ("rule_when", "move_choices", ...), which the optimiser and the linker go by."""

    name: str
    params: tuple[str, ...]
    unit: Unit
    block: bool
    what: str
    kind: str


class SectionReader:
    """The context of reading one rule file: its tree, path and `-p` overrides, its errors, its symbol table and
    compiler, and the generated definitions."""

    def __init__(self, tree: Map, path: str, overrides: dict[str, str]):
        self.tree = tree
        self.path = path
        self.overrides = overrides
        self.errors: list[RuleError] = []
        self.sym = Symbols()
        self.compiler = Compiler(self.sym)
        self.defs: list[Definition] = []
        self._function_reads: dict[str, set[Any]] | None = None  # of self.defs, until a function is defined

    def function_reads(self) -> dict[str, set[Any]]:
        """What each rule-file function defined so far reads, through every function it calls (function_reads;
        made once for all the rules and moves that ask, not once for each)."""
        if self._function_reads is None:
            self._function_reads = function_reads(self.defs)
        return self._function_reads

    def error(self, message: str, loc: Location | None, hint: str | None = None) -> None:
        self.errors.append(RuleError(message, loc, hint))

    def section(self, name: str, kind: type, default: Any) -> Any:
        value = self.tree.get(name, default)
        if value is None:
            return default
        if not isinstance(value, kind):
            expected = {Map: "a mapping (name: value)", Seq: "a list", str: "text", int: "a number"}.get(
                kind, kind.__name__)
            self.error(f"'{name}' must be {expected}", self.tree.loc(name))
            return default
        return value

    def check_keys(self, entry: Map, allowed: AbstractSet[str], what: str) -> None:
        for key in entry:
            if key not in allowed:
                self.error(f"unknown key '{key}' in {what}", entry.key_loc(key),
                           did_you_mean(str(key), allowed) or f"allowed: {', '.join(sorted(allowed))}")

    def texts(self, value: Any, loc: Location, what: str) -> list[str | Code]:
        """Statement texts from a string or a list of strings (or code, as it is)."""
        if isinstance(value, (str, Code)):
            return [value]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        self.error(f"{what} must be text or a list of texts", location_of(value, loc))
        return []

    def expr_text(self, value: Any, loc: Location, what: str) -> str | Code | None:
        """An expression's text (a number or truth value written out; code as it is), or None (reported)."""
        if isinstance(value, Code):
            return value
        if isinstance(value, bool):
            return located_text("True" if value else "False", loc)
        if isinstance(value, (int, float)):
            return located_text(str(value), loc)
        if isinstance(value, str):
            if not value.strip():
                self.error(f"{what} is empty: write an expression", location_of(value, loc))
                return None
            return value
        self.error(f"{what} must be an expression (text)", location_of(value, loc))
        return None

    def literal(self, value: Any, loc: Location, what: str) -> n.Literal:
        """`value` as a literal of the generated code (see codegen.literal); a literal None, after a located error,
        if it cannot be one."""
        try:
            literal(value)
        except ValueError as exc:
            self.error(f"{what}: {exc}", loc)
            return n.Literal(None, at=loc)
        return n.Literal(value, at=loc)

    def define(self, kind: str, params: tuple[str, ...], unit: Unit | None, block: bool, what: str) -> Any:
        """Add a generated function; returns its Python name (Any: the specs hold it where the linker later puts
        the function, naipes.language.linker.resolve_specs).

        The name is made by the engine (`kind` and a serial number; a rule
        file's function `f` is `F_f`, its name checked first): rule-file text
        never names generated code.
        """
        if kind.startswith("F_"):
            self._function_reads = None
        return define(self.defs, kind, params, unit, block, what)


def define(defs: list[Definition], kind: str, params: tuple[str, ...], unit: Unit | None, block: bool,
           what: str) -> str:
    """Add a generated function of `kind` to `defs` (none when `unit` is None: its text had errors) and return its
    name (see SectionReader.define)."""
    function = kind.startswith("F_")
    name = kind if function else f"{kind}_{len(defs)}"
    if unit is not None:
        defs.append(Definition(name, params, unit, block, what, FUNCTION if function else kind))
    return name


def function_reads(defs: list[Definition], known: dict[str, set[Any]] | None = None) -> dict[str, set[Any]]:
    """What each rule-file function reads, through every function it calls (`known`: functions compiled
    before, such as a game's under a strategy's, with what they read already closed)."""
    known = known or {}
    direct = {d.name[2:]: (d.unit.reads, d.unit.calls) for d in defs if d.kind == FUNCTION}
    closed: dict[str, set[Any]] = dict(known)
    # callees first: what a function of another component reads is closed by the time its callers ask
    for component in components({name: set(calls) for name, (_, calls) in direct.items()}):
        reads: set[Any] = set()
        members = set(component)
        for member in members & direct.keys():
            own, calls = direct[member]
            reads |= own
            for callee in calls:
                if callee not in members:
                    reads |= closed.get(callee, set())
        reads = {(r[0], ANY) if isinstance(r, tuple) else r for r in reads}
        for member in members & direct.keys():
            closed[member] = set(reads)
    return closed


def binding(source: str | Code) -> tuple[str, str | Code] | None:
    """`NAME in COLLECTION` (a move's choose, as text or code): the name and the collection (text still knowing
    where it is, or code); None if it is not one."""
    if isinstance(source, Code):
        return source.binding()
    match = BINDING.match(source)
    return (match.group(1), subtext(source, match.start(2))) if match else None


def located_text(text: str, loc: Location) -> Text:
    located = Text(text)
    located.loc, located.block_indent = loc, None
    return located


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def type_name(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return None


def plain(value: Any) -> Any:
    """Strip loader types (Text, Map, Seq) so values can be repr'd into code."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
