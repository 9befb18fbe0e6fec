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

from ..errors import NaipesError
from ..program import ATTRIBUTE_PREFIX

# (Break: the optimiser's loop that stops at the item settling an `all` or an `any`)
STATEMENTS = (ast.FunctionDef, ast.Return, ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.For, ast.Pass, ast.Break)
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
MEMORY_API = frozenset({"set_var", "set_attr", "grow_var", "grow_attr", "move", "shuffle", "deal", "ask", "ask_group",
                        "end_game", "unpack", "announce", "rng", "charge", "step", "in_phase", "entering_step",
                        "entered", "reset_variables", "goto", "start_turns", "settle_turns", "pass_turn",
                        "set_team_attr", "refresh", "events", "assert_fact", "retract_fact", "modify_fact", "has_fact",
                        "spend", "give", "given", "call"})
CONSTANT_TYPES = (type(None), bool, int, float, str)


class GeneratedCodeError(NaipesError):
    """Generated code holds something the compiler never writes: a bug in Naipes."""


def check_generated(source: str | ast.Module, attributes: set[str]) -> None:
    """Refuse `source` (or its syntax tree) unless it is made only of what the compiler and the optimiser write.

    `attributes` are the attributes a rule file may read, each behind the prefix (naipes.program.attribute: its
    card and player attributes, zones, record and fact fields, and the language's own: id, name, index, owner).
    """
    assert all(a.startswith(ATTRIBUTE_PREFIX) for a in attributes), "attributes are read behind the prefix"
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
        problem = _problem(node, attributes)
        if problem:
            line = getattr(node, "lineno", "?")
            raise GeneratedCodeError(f"generated code contains {problem} at line {line} "
                                     "(a bug in Naipes: please report it)")


def _problem(node: ast.AST, attributes: set[str]) -> str | None:
    if not isinstance(node, ALLOWED):
        return type(node).__name__
    if isinstance(node, ast.Name) and node.id not in ENGINE_NAMES and not PREFIXED.match(node.id):
        return f"the name {node.id!r}"
    if isinstance(node, (ast.FunctionDef, ast.arg)):
        name = node.name if isinstance(node, ast.FunctionDef) else node.arg
        if name not in ENGINE_NAMES and not PREFIXED.match(name):
            return f"the name {name!r}"
    if isinstance(node, ast.FunctionDef) and (node.decorator_list or node.returns or node.args.defaults):
        return "a decorated or annotated function"
    if isinstance(node, ast.Attribute):
        owner_is_memory = isinstance(node.value, ast.Name) and node.value.id == "M"
        if node.attr not in (MEMORY_API if owner_is_memory else attributes):
            return f"the attribute {node.attr!r}"
    if isinstance(node, ast.Constant):
        value = node.value
        if not isinstance(value, CONSTANT_TYPES) or (isinstance(value, float) and not math.isfinite(value)):
            return f"the constant {value!r}"
    if isinstance(node, ast.NamedExpr) and not HOISTED.match(node.target.id):
        return f"an assignment expression to {node.target.id!r}"
    if isinstance(node, ast.keyword) and (node.arg is None or not node.arg.isascii() or node.arg.startswith("_")):
        return f"the keyword {node.arg!r}"
    return None
