"""The last check on generated code: nothing in it but what the compiler means to write.

The compiler writes a rule file's conditions and actions as Python source,
built only from names it has checked and literals of known types. Before that
source is compiled, :func:`check_generated` reads it once more, as a whitelist
over its syntax tree: every statement and expression is of a kind the
compiler emits, every name is one of the engine's own or carries the prefix
of a checked rule-file name, every attribute is the working memory's API or
a declared card, player, record or fact attribute behind the engine's prefix
(naipes.program.attribute: never a bare name, so never one of Python's own
attributes), every constant a plain value. A violation is a bug in Naipes
(never the rule file's fault), reported as one.

>>> check_generated("def rule_when_0(M, V):\\n    return V['phase'] == 'play'\\n", set())
>>> check_generated("def rule_then_1(M, V):\\n    import os\\n", set())
Traceback (most recent call last):
...
naipes.language.codecheck.GeneratedCodeError: generated code contains Import at line 2 (a bug in Naipes: ...
"""
from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from typing import Any

from ..errors import NaipesError
from ..program import ATTRIBUTE_PREFIX
from .exact import BOOL, LIST

# (Break: the optimiser's loop that stops at the item settling an `all` or an `any`; AnnAssign: a local's first
# assignment with the type the tree proves it, naipes.language.exact)
STATEMENTS = (ast.FunctionDef, ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.If, ast.For,
              ast.Pass, ast.Break)
EXPRESSIONS = (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.IfExp, ast.Lambda, ast.ListComp,
               ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Subscript,
               ast.Slice, ast.Attribute, ast.Name, ast.Constant, ast.NamedExpr)
PARTS = (ast.Module, ast.arguments, ast.arg, ast.keyword, ast.comprehension, ast.Load, ast.Store, ast.And, ast.Or,
         ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd, ast.Not, ast.Eq, ast.NotEq,
         ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
         ast.BitAnd, ast.BitOr, ast.Invert)  # (bit masks: the agenda's generated evaluation, naipes.language.linker)
ALLOWED = STATEMENTS + EXPRESSIONS + PARTS

# The engine's own names in generated code: the memory and its variables, scaffolding builtins, and
# prefixed names: v_ a rule-file local, F_ a rule-file function, B_ a built-in, R_ a record, _o/_h temporaries,
# kind_N a generated function.
ENGINE_NAMES = frozenset({"M", "V", "_", "combo", "list", "dict", "zip", "range"})
PREFIXED = re.compile(r"(?:[vFBR]_[A-Za-z0-9_]+|_[oht][0-9]+|[a-z]+(?:_[a-z]+)*_[0-9]+)\Z", re.ASCII)
# The only names an assignment expression sets: values the optimiser hoists, and the arguments of the calls it
# inlines (naipes.language.inlining).
HOISTED = re.compile(r"_[ht][0-9]+\Z", re.ASCII)
# The working memory's methods that generated code calls (M.move(...), ...).
MEMORY_API = frozenset({"set_var", "set_attr", "grow_var", "grow_attr", "move", "shuffle", "show", "deal", "ask",
                        "ask_group", "end_game", "unpack", "announce", "rng", "charge", "step", "in_phase",
                        "entering_step", "entered", "reset_variables", "goto", "start_turns", "settle_turns",
                        "pass_turn", "set_team_attr", "refresh", "events", "assert_fact", "retract_fact", "modify_fact",
                        "has_fact", "spend", "give", "given", "call", "weighed", "searched", "compared",
                        "charge_sized", "weighing", "hashed", "hashed_all", "contains"})
CONSTANT_TYPES = (type(None), bool, int, float, str)
DECLARED_TYPES = frozenset({BOOL, LIST})  # the types a local is declared (naipes.language.exact)


class GeneratedCodeError(NaipesError):
    """Generated code holds something the compiler never writes: a bug in Naipes."""


def check_generated(source: str | ast.Module, attributes: set[str]) -> None:
    """Refuse `source` (or its syntax tree) unless it is made only of what the compiler and the optimiser write.

    `attributes` are the attributes a rule file may read, each behind the prefix (naipes.program.attribute: its
    card and player attributes, zones, record and fact fields, and the language's own: id, name, index, owner).
    """
    assert all(a.startswith(ATTRIBUTE_PREFIX) for a in attributes), "attributes are read behind the prefix"
    names = set(ENGINE_NAMES)  # the names found good so far (a module names the same few many times)
    stack: list[ast.AST] = [ast.parse(source) if isinstance(source, str) else source]
    while stack:  # (every node once, by its exact class: no subclass of an allowed kind passes)
        node = stack.pop()
        kind = type(node)
        check = CHECKS.get(kind)
        problem = kind.__name__ if check is None else check(node, attributes, names)
        if problem:
            line = getattr(node, "lineno", "?")
            raise GeneratedCodeError(f"generated code contains {problem} at line {line} "
                                     "(a bug in Naipes: please report it)")
        for field in WALKED.get(kind, node._fields):
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack += [item for item in value if isinstance(item, ast.AST)]


Check = Callable[[Any, set[str], set[str]], str | None]


def _nothing(node: ast.AST, attributes: set[str], names: set[str]) -> str | None:
    return None


def _named(name: str, names: set[str]) -> str | None:
    if name in names:
        return None
    if not PREFIXED.match(name):
        return f"the name {name!r}"
    names.add(name)
    return None


def _name(node: ast.Name, attributes: set[str], names: set[str]) -> str | None:
    return _named(node.id, names)


def _arg(node: ast.arg, attributes: set[str], names: set[str]) -> str | None:
    return _named(node.arg, names)


def _function(node: ast.FunctionDef, attributes: set[str], names: set[str]) -> str | None:
    if node.decorator_list or node.returns or node.args.defaults:
        return "a decorated or annotated function"
    return _named(node.name, names)


def _attribute(node: ast.Attribute, attributes: set[str], names: set[str]) -> str | None:
    owner_is_memory = isinstance(node.value, ast.Name) and node.value.id == "M"
    return None if node.attr in (MEMORY_API if owner_is_memory else attributes) else f"the attribute {node.attr!r}"


def _constant(node: ast.Constant, attributes: set[str], names: set[str]) -> str | None:
    value = node.value
    if type(value) not in CONSTANT_TYPES or (isinstance(value, float) and not math.isfinite(value)):
        return f"the constant {value!r}"
    return None


def _assignment_expression(node: ast.NamedExpr, attributes: set[str], names: set[str]) -> str | None:
    return None if HOISTED.match(node.target.id) else f"an assignment expression to {node.target.id!r}"


def _declaration(node: ast.AnnAssign, attributes: set[str], names: set[str]) -> str | None:
    """A local's first assignment with the type the tree proves it (naipes.language.exact)."""
    annotation = node.annotation
    if not (isinstance(node.target, ast.Name) and node.target.id.startswith("v_") and node.simple and
            node.value is not None and isinstance(annotation, ast.Name) and annotation.id in DECLARED_TYPES):
        return "a declaration the compiler does not write"
    return None


def _keyword(node: ast.keyword, attributes: set[str], names: set[str]) -> str | None:
    if node.arg is None or not node.arg.isascii() or node.arg.startswith("_"):
        return f"the keyword {node.arg!r}"
    return None


# What each allowed kind of node must also meet (a kind not here is refused)
CHECKS: dict[type, Check] = {kind: _nothing for kind in ALLOWED}
CHECKS.update({ast.Name: _name, ast.arg: _arg, ast.FunctionDef: _function, ast.Attribute: _attribute,
               ast.Constant: _constant, ast.NamedExpr: _assignment_expression, ast.keyword: _keyword,
               ast.AnnAssign: _declaration})
# the fields walked where not all are: a declaration's type is checked by _declaration, not read as a name
WALKED: dict[type, tuple[str, ...]] = {ast.AnnAssign: ("target", "value")}
