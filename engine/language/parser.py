"""Parse rule-language strings (conditions, actions, functions) with Lark.

The grammar lives in ``grammar.lark`` beside this module.  Parse errors
become :class:`~naipes.errors.RuleError` located in the rule file, thanks to
the :class:`~naipes.language.loader.Text` positions.

>>> parse_expression("len(table) > 0").data
'compare'
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from ..errors import Location, RuleError

GRAMMAR = Path(__file__).with_name("grammar.lark")

# Friendly names for the terminals Lark reports as "expected".
_TERMINAL_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "_NL": "end of line",
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "RBRACE": "'}'", "LBRACE": "'{'",
    "COLON": "':'", "COMMA": "','", "EQUAL": "'='", "DOT": "'.'", "$END": "end of text",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "COMP_OP": "a comparison",
}


class _BlockIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", start=["expr_start", "block_start"], cache=True,
                postlex=_BlockIndenter(), propagate_positions=True, maybe_placeholders=True)


@lru_cache(maxsize=16_384)
def _parsed(source: str, start: str) -> Tree:
    """The parse tree of `source` (shared: a tree is never changed, and its positions are relative to the text).

    Variants, strategies and tools compile the same texts again and again; parsing is the slow part of loading.
    """
    return _parser().parse(source, start=start)


def _where_in(text: str, line: int, col: int) -> Location | None:
    at = getattr(text, "at", None)
    return at(line, col) if at else None


def node_location(text: str, node: Tree | Token, wrapped: bool = False) -> Location | None:
    """The rule-file location of a parse-tree node taken from `text`."""
    if isinstance(node, Token):
        line, col = node.line or 1, node.column or 1
    else:
        meta = node.meta
        line, col = (1, 1) if getattr(meta, "empty", True) else (meta.line, meta.column)
    if wrapped and line == 1:
        col = max(col - 1, 1)
    return _where_in(text, line, col)


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of text"
    if token.type == "_NL":
        return "end of line"
    return f"'{token.value}'"


def _expected(names: set[str]) -> str:
    words = sorted({_TERMINAL_NAMES.get(n, f"'{n.lower()}'" if n.isalpha() else n) for n in names})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    return "; expected " + ", ".join(words)


def _bad_dedent(text: str) -> tuple[int, int]:
    """(line, col) of the first line whose dedent matches no enclosing block."""
    levels = [0]
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while indent < levels[-1]:
            levels.pop()
        if indent != levels[-1]:
            return number, indent + 1
    return 1, 1


def _parse(text: str, start: str, what: str) -> Tree:
    # An expression may span lines (as inside Python brackets): parse it
    # wrapped in parentheses, shifting first-line columns back by one.
    wrapped = start == "expr_start"
    source = f"({text})\n" if wrapped else (text if text.endswith("\n") else text + "\n")

    def _where(line: int, col: int) -> Location | None:
        return _where_in(text, line, max(col - 1, 1) if wrapped and line == 1 else col)
    try:
        tree = _parsed(source, start)
    except UnexpectedCharacters as exc:
        raise RuleError(f"unexpected character {source[exc.pos_in_stream]!r} in {what}",
                        _where(exc.line, exc.column)) from None
    except UnexpectedEOF as exc:
        raise RuleError(f"{what} ends too early{_expected(set(exc.expected))}",
                        _where(max(text.count(chr(10)), 0) + 1, 1)) from None
    except UnexpectedToken as exc:
        tok = exc.token
        line, col = (tok.line, tok.column) if tok.line is not None else (1, 1)
        hint = None
        if tok.type == "_INDENT" or "_INDENT" in exc.expected:
            hint = "blocks are indented like Python: 'if cond:' then an indented line"
        elif tok.type == "EQUAL" and start == "expr_start":
            hint = "use '==' to compare; '=' assigns, and only in actions"
        raise RuleError(f"unexpected {_describe(tok)} in {what}{_expected(set(exc.expected))}",
                        _where(line, col), hint=hint) from None
    except DedentError:
        line, col = _bad_dedent(text)
        raise RuleError(f"inconsistent indentation in {what}: this line dedents to a column no block started at",
                        _where(line, col)) from None
    except (UnexpectedInput, LarkError) as exc:
        raise RuleError(f"cannot parse {what}: {exc}", _where(1, 1)) from None
    deepest = _too_deep(tree)
    if deepest is not None:
        raise RuleError(f"{what} nests too deeply (more than {MAX_NESTING} operations or blocks inside one another)",
                        node_location(text, deepest, wrapped), "split it: name a part with 'let', or write a function")
    return tree


MAX_NESTING = 64  # operations, calls and blocks inside one another in one text (the shipped files: at most 15)
# Nodes that are a chain of operations (a + b + c, a < b < c, a and b and c): each operation nests one more level in
# the Python written for it.
CHAINS = frozenset({"binop", "compare", "and_", "or_"})


def _too_deep(tree: Tree) -> Tree | None:
    """The first node nested more than MAX_NESTING deep in `tree` (None: none is), found without recursion:
    the compiler, and Python compiling what it writes, recurse as deep as the text nests."""
    stack: list[tuple[Tree, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        depth += max(len(node.children) // 2, 1) if node.data in CHAINS else 1
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))
    return None


def parse_expression(text: str, what: str = "expression") -> Tree:
    """Parse a condition or function body; returns the expression's tree.

    Node positions are those of the wrapped source; use :func:`node_location`
    with the same `text` to map them back.
    """
    return _parse(text, "expr_start", what).children[0]


def parse_block(text: str, what: str = "actions") -> list[Tree]:
    """Parse a block of statements; returns the list of statement trees."""
    return list(_parse(text, "block_start", what).children)
