"""Parse rule-language strings (conditions, actions, functions) with Lark, into the language's own nodes.

The grammar lives in ``grammar.lark`` beside this module.  Parse errors
become :class:`~naipes.errors.RuleError` located in the rule file, thanks to
the :class:`~naipes.language.loader.Text` positions.  Lark's tree is read
here and only here: :class:`_ToNodes` turns it into the nodes of
:mod:`naipes.language.nodes`, each knowing where it is written.

>>> parse_expression("len(table) > 0")
Compare(first=Call(func=Name(id='len'), args=[Name(id='table')], bare_generator=False), ops=[('>', 1:12)], \
operands=[Number(raw='0')])
"""
from __future__ import annotations

import ast
import re
import sys
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from lark import Lark, Token, Tree
from lark import __version__ as lark_version
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter
from lark.lexer import BasicLexer, LexerThread
from lark.tree import Meta

from ..errors import Location, RuleError, did_you_mean, unshowable
from . import nodes as n
from .loader import Text

GRAMMAR = Path(__file__).with_name("grammar.lark")

# Friendly names for the terminals Lark reports as "expected" that are not one word or sign of the grammar's (those
# read as written: 'goto', ')'): never the grammar's own names for them (AUGOP, UNARY_OP)
_TERMINAL_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "FSTRING": "an f-string", "_NL": "end of line",
    "$END": "end of text", "_INDENT": "an indented block", "_DEDENT": "end of block", "COMP_OP": "a comparison",
    "AUGOP": "'+='", "ADD_OP": "'+'", "MUL_OP": "'*'", "UNARY_OP": "'-'", "ASK_GROUP": "'each of'",
    "WINNERS": "'winner'",
}


class _BlockIndenter(Indenter):  # type: ignore[misc]  # (Lark's types are skipped, pyproject.toml: Indenter is Any)
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", start=["expr_start", "block_start"], cache=_tables_file(),
                postlex=_BlockIndenter(), propagate_positions=True, maybe_placeholders=True)


def _tables_file() -> str | bool:
    """Where Lark keeps the parser it makes of the grammar, to read it back in the next process (0.01 s rather than
    0.2): a pickle, which runs code as it is read, so only in the user's own cache folder (cmodules.private_folder),
    which no one else can write to; False (made afresh each time) where there is none. Never Lark's own place
    (`cache=True`), the shared temporary folder: its file's name is known beforehand (the user's name and a hash
    of the grammar), and any user of the machine could have put a pickle of their own there first."""
    from .cmodules import private_folder  # (here: cmodules reaches the runtime, which parses)
    folder = private_folder()
    if folder is None:
        return False
    return str(folder / f"grammar-lark-{lark_version}-py{sys.version_info[0]}{sys.version_info[1]}.pickle")


# Lark's parser keeps its indenter's state (the brackets open, the indents) on itself while it parses a text: two
# threads loading rule files at once (the web server's) parse one text at a time.
_PARSING = threading.Lock()


@lru_cache(maxsize=16_384)
def _parsed(source: str, start: str) -> tuple[Tree, Tree | None]:
    """The parse tree of `source` (shared: a tree is never changed, and its positions are relative to the text),
    and its first node nested too deeply (_too_deep), found once with it.

    Variants, strategies and tools compile the same texts again and again; parsing is the slow part of loading.
    """
    with _PARSING:
        tree = _parser().parse(source, start=start)
    return tree, _too_deep(tree)


@lru_cache(maxsize=1)
def _lexer() -> BasicLexer:
    """The parser's terminals as a lexer kept for the texts lexed alone (Lark.lex would make one at every call:
    more than a millisecond each)."""
    return BasicLexer(_parser().lexer_conf)


def _tokens(source: str) -> Iterator[Token]:
    """The tokens of `source`, as the parser reads them (indentation included)."""
    tokens: Iterator[Token] = _BlockIndenter().process(LexerThread.from_text(_lexer(), source).lex(None))
    return tokens


@lru_cache(maxsize=16_384)
def _closed_early(source: str) -> Token | None:
    """The closing bracket that ends the parentheses an expression's text is parsed in before the text's end: a
    text must not close what the parser wrapped it in. None if there is none."""
    tokens = [token for token in _tokens(source) if token.type != "_NL"]
    depth = 0
    for token in tokens[:-1]:
        depth += (token.type in _BlockIndenter.OPEN_PAREN_types) - (token.type in _BlockIndenter.CLOSE_PAREN_types)
        if depth == 0:
            return token
    return None


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


@lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    """The grammar's words and signs written as they are (terminal name -> its text: GOTO -> goto, RPAR -> ))."""
    return {t.name: t.pattern.value for t in _parser().terminals if t.pattern.type == "str"}


def _expected(names: set[str]) -> str:
    literals = _literals()
    words = sorted({_TERMINAL_NAMES.get(n) or (f"'{literals[n]}'" if n in literals else n) for n in names})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    return "; expected " + ", ".join(words)


@lru_cache(maxsize=1)
def statement_words() -> list[str]:
    """The words a statement begins with (goto, announce, deal, ...), read from the grammar."""
    parser, words = _parser(), _literals()
    return sorted({words[first.name] for rule in parser.rules if rule.expansion
                   and str(rule.origin.name).endswith("_stmt") and (first := rule.expansion[0]).name in words
                   and words[first.name].isalpha()})


def _misspelt_word(token: Token, expected: set[str]) -> str | None:
    """A did-you-mean for a name where one of the grammar's words was expected (`end gme`: 'game')."""
    if token.type != "NAME":
        return None
    literals = _literals()
    return did_you_mean(str(token.value), [literals[n] for n in expected if n in literals and literals[n].isalpha()])


def _misspelt_statement(source: str, token: Token) -> str | None:
    """A did-you-mean for a line such as `anounce 'x'`: a name that begins a line and cannot be followed by what
    follows it is likely a statement's word misspelt (in a function's body too, read as an expression when its first
    word is no statement's: `lett b = a`)."""
    if token.line is None or token.column is None:
        return None
    line = source.split("\n")[token.line - 1]
    word = re.match(r"\(?\s*([A-Za-z_]\w*)\s+", line)  # (an expression is parsed in brackets)
    if not word or word.end() != token.column - 1:
        return None
    return did_you_mean(word.group(1), statement_words())


# Python's statements that the rule language leaves out, and what to write instead
NOT_STATEMENTS = {
    "while": "loop over a list with 'for NAME in LIST:' (range(n) for a count); every loop ends",
    "break": "there is no way out of a loop: loop over the items wanted (a comprehension with 'if' picks them), "
             "or test a condition inside it",
    "continue": "put what follows under an 'if'",
    "def": "a function is written under 'functions:' (\"name(a, b)\": its body)",
    "class": "records are declared under 'records:'",
    "import": "a rule file imports nothing: the built-in functions are listed in docs/language.md",
    "try": "a fault in a rule stops the game with its place: test the condition with 'if' first",
    "raise": "end the game with 'end game', or test the condition with 'if'",
    "with": "write the statements themselves",
    "del": "remove an item by assigning the list without it (a comprehension with 'if')",
    "global": "a game variable is assigned by its name anywhere",
    "nonlocal": "a game variable is assigned by its name anywhere",
    "yield": "a function gives one value: return a list",
}


def _python_statement(source: str, line: int) -> tuple[str, int, str] | None:
    """(word, column, what to write instead) where line `line` of `source` begins with a Python statement's word
    the language does not have (`while x < 3:`, `break`)."""
    text = source.split("\n")[line - 1] if 0 < line <= source.count("\n") + 1 else ""
    word = re.match(r"(\(?\s*)([a-z]+)\b", text)  # (an expression is parsed in brackets)
    if word is None or word.group(2) not in NOT_STATEMENTS:
        return None
    return word.group(2), word.start(2) + 1, NOT_STATEMENTS[word.group(2)]


def _statement_word_assigned(source: str, token: Token) -> str | None:
    """The statement's word a line assigns to (`deal = 3`, `move += 1`): a variable named like a statement's word
    cannot begin a line."""
    if token.type != "EQUAL" or token.line is None or token.column is None:
        return None
    line = source.split("\n")[token.line - 1][:token.column - 1]
    word = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(\+|-|\*|//)?", line)
    return word.group(1) if word and word.group(1) in statement_words() else None


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
        tree, deepest = _parsed(source, start)
    except UnexpectedCharacters as exc:
        raise RuleError(f"unexpected character {source[exc.pos_in_stream]!r} in {what}",
                        _where(exc.line, exc.column)) from None
    except UnexpectedEOF as exc:
        raise RuleError(f"{what} ends too early{_expected(set(exc.expected))}",
                        _where(max(text.count(chr(10)), 0) + 1, 1)) from None
    except UnexpectedToken as exc:
        tok = exc.token
        line, col = (tok.line, tok.column) if tok.line is not None else (1, 1)
        python = _python_statement(source, line)
        if python is not None:
            word, at, instead = python
            raise RuleError(f"the rule language has no '{word}' statement ({what})", _where(line, at),
                            hint=instead) from None
        hint = None
        assigned = _statement_word_assigned(source, tok) if start == "block_start" else None
        if tok.type == "_INDENT" or "_INDENT" in exc.expected:
            hint = "blocks are indented like Python: 'if cond:' then an indented line"
        elif assigned:
            hint = (f"'{assigned}' begins a statement, so a line cannot assign a variable named '{assigned}': "
                    f"give it another name")
        elif tok.type == "EQUAL" and (start == "expr_start" or "EQUAL" not in exc.expected):
            hint = "use '==' to compare; '=' only assigns, a statement of its own in actions"
        else:
            hint = _misspelt_word(tok, set(exc.expected))
            if hint is None:  # (an expression too: a function's body of statements misspelt at its first word)
                hint = _misspelt_statement(source, tok)
        raise RuleError(f"unexpected {_describe(tok)} in {what}{_expected(set(exc.expected))}",
                        _where(line, col), hint=hint) from None
    except DedentError:
        line, col = _bad_dedent(text)
        raise RuleError(f"inconsistent indentation in {what}: this line dedents to a column no block started at",
                        _where(line, col)) from None
    except (UnexpectedInput, LarkError) as exc:
        raise RuleError(f"cannot parse {what}: {exc}", _where(1, 1)) from None
    early = _closed_early(source) if wrapped else None
    if early is not None:  # (`x) or (y` parses wrapped, as `(x) or (y)`)
        raise RuleError(f"unexpected {_describe(early)} in {what}: it closes a bracket the text never opened",
                        _where(early.line, early.column))
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


def parse_expression(text: str, what: str = "expression") -> n.Expr:
    """Parse a condition or function body into the expression's node."""
    node: n.Expr = _ToNodes(text, True, what).transform(_parse(text, "expr_start", what).children[0])
    return node


def parse_block(text: str, what: str = "actions") -> list[n.Stmt]:
    """Parse a block of statements into their nodes."""
    return list(_ToNodes(text, False, what).transform(_parse(text, "block_start", what)).children)


T = TypeVar("T")

# A rule's children once transformed, in the order grammar.lark writes them: nodes, lists of nodes (arguments, a
# suite), Lark's tokens (names, operators) and None (an optional part left out). A method whose children are of one
# kind says which; where the grammar mixes kinds by position they are Children (Lark's types are Any here anyway).
Children = list[Any]


def _items(children: list[T | None]) -> list[T]:
    return [child for child in children if child is not None]


class _ToNodes:
    """Lark's parse tree of one text as the language's nodes (naipes.language.nodes), each at its place in
    the text (`wrapped`: an expression, parsed inside parentheses; `what`: the text, in messages).

    A transformer, as Lark's `Transformer` with `v_args(meta=True)` is: a method per rule, called with the
    rule's meta and its children already transformed (a rule without a method stays a Tree). Its own
    dispatch, for a text's first load: Lark's wraps every call (a sixth of the compiler's time)."""

    def __init__(self, text: str, wrapped: bool, what: str):
        self.text, self.wrapped, self.what = text, wrapped, what

    def transform(self, tree: Tree) -> Any:
        children = [self.transform(child) if isinstance(child, Tree) else child for child in tree.children]
        method = getattr(self, tree.data, None)
        return Tree(tree.data, children, tree.meta) if method is None else method(tree.meta, children)

    def at(self, meta: Meta | Token) -> n.Position:
        """Where a rule (its meta) or a token is written."""
        if isinstance(meta, Token):
            return n.Position(self.text, meta.line or 1, meta.column or 1, self.wrapped)
        empty = getattr(meta, "empty", True)
        return n.Position(self.text, 1 if empty else meta.line, 1 if empty else meta.column, self.wrapped)

    # ------------------------------------------------------------------------------------------- literals
    def number(self, meta: Meta, c: list[Token]) -> n.Number:
        return n.Number(c[0].value, at=self.at(meta))

    def string(self, meta: Meta, c: list[Token]) -> n.String:
        return n.String(c[0].value, at=self.at(meta))

    def true(self, meta: Meta, c: Children) -> n.Constant:
        return n.Constant(True, at=self.at(meta))

    def false(self, meta: Meta, c: Children) -> n.Constant:
        return n.Constant(False, at=self.at(meta))

    def none(self, meta: Meta, c: Children) -> n.Constant:
        return n.Constant(None, at=self.at(meta))

    def fstring(self, meta: Meta, c: list[Token]) -> n.FString:
        """f'text {expr} text': its texts and expressions (each parsed where it stands in the file); a mistake in
        how it is written is kept in the node, for the resolver to report in its turn."""
        token: Token = c[0]
        quote, body = token.value[1], token.value[2:-1]
        node = n.FString([], at=self.at(meta))

        def text(raw: str) -> str:
            try:
                value = str(ast.literal_eval(quote + raw + quote))
            except (ValueError, SyntaxError):
                raise self.problem(token, "bad text in an f-string") from None
            problem = unshowable(value)
            if problem:
                raise self.problem(token, problem)
            return value
        chunk, i = "", 0
        try:
            while i < len(body):
                ch = body[i]
                if ch in "{}" and body[i + 1:i + 2] == ch:
                    chunk, i = chunk + ch, i + 2
                elif ch == "}":
                    raise self.problem(token, "a single '}' in an f-string: write '}}' for a brace")
                elif ch == "{":
                    end = body.find("}", i)
                    if end < 0:
                        raise self.problem(token, "'{' without its '}' in an f-string: write '{{' for a brace")
                    if chunk:
                        node.parts.append(text(chunk))
                        chunk = ""
                    node.parts.append(self.inner_expression(token, 2 + i + 1, body[i + 1:end]))
                    i = end + 1
                else:
                    chunk, i = chunk + ch, i + 1
            if chunk or not node.parts:
                node.parts.append(text(chunk))
        except RuleError as problem:
            node.problem = problem
        return node

    def problem(self, token: Token, message: str) -> RuleError:
        return RuleError(message, self.at(token).location())

    def inner_expression(self, token: Token, offset: int, inner: str) -> n.Expr:
        """The node of an f-string's `{inner}`, `offset` characters into the token."""
        if not inner.strip():
            raise self.problem(token, "an empty {} in an f-string: write an expression inside")
        col = (token.column or 1) + offset
        if self.wrapped and (token.line or 1) == 1:
            col -= 1
        where = n.Position(self.text, token.line or 1, col, False).location()
        text: str = inner
        if where is not None:  # a text from a file: its errors point into the f-string
            text = Text(inner)
            text.loc, text.block_indent = where, None
        return parse_expression(text, self.what)

    # ---------------------------------------------------------------------------------- names and reads
    def name(self, meta: Meta, c: list[Token]) -> n.Name:
        return n.Name(c[0].value, at=self.at(meta))

    def getattr(self, meta: Meta, c: Children) -> n.Attribute:
        return n.Attribute(c[0], c[1].value, self.at(c[1]), at=self.at(meta))

    def getitem(self, meta: Meta, c: list[n.Expr]) -> n.Subscript:
        return n.Subscript(c[0], c[1], at=self.at(meta))

    def slice(self, meta: Meta, c: list[n.Expr | None]) -> n.Slice:
        return n.Slice(c[0], c[1], at=self.at(meta))

    def call(self, meta: Meta, c: Children) -> n.Call:
        return n.Call(c[0], c[1] if c[1] is not None else [], at=self.at(meta))

    def call_gen(self, meta: Meta, c: Children) -> n.Call:
        generator = n.Comprehension("generator", c[1], c[2:], at=self.at(meta))
        return n.Call(c[0], [generator], bare_generator=True, at=self.at(meta))

    def arguments(self, meta: Meta, c: list[n.Expr | n.Keyword | None]) -> list[n.Expr | n.Keyword]:
        return _items(c)

    def kwarg(self, meta: Meta, c: Children) -> n.Keyword:
        return n.Keyword(c[0].value, c[1], at=self.at(meta))

    # --------------------------------------------------------------------------------------- operations
    def binop(self, meta: Meta, c: Children) -> n.Expr:
        node: n.Expr = c[0]
        for op, operand in zip(c[1::2], c[2::2]):
            node = n.BinOp(node, op.value, operand, self.at(op), at=self.at(meta))
        return node

    def compare(self, meta: Meta, c: Children) -> n.Compare:
        return n.Compare(c[0], [(" ".join(op.value.split()), self.at(op)) for op in c[1::2]], c[2::2],
                         at=self.at(meta))

    def and_(self, meta: Meta, c: list[n.Expr]) -> n.BoolOp:
        return n.BoolOp("and", c, at=self.at(meta))

    def or_(self, meta: Meta, c: list[n.Expr]) -> n.BoolOp:
        return n.BoolOp("or", c, at=self.at(meta))

    def not_(self, meta: Meta, c: list[n.Expr]) -> n.Not:
        return n.Not(c[0], at=self.at(meta))

    def unary(self, meta: Meta, c: Children) -> n.Unary:
        return n.Unary(c[0].value, c[1], self.at(c[0]), at=self.at(meta))

    def ifexp(self, meta: Meta, c: list[n.Expr]) -> n.IfExp:
        return n.IfExp(c[0], c[1], c[2], at=self.at(meta))

    def lambda_expr(self, meta: Meta, c: Children) -> n.Lambda:
        return n.Lambda([t.value for t in c[:-1] if isinstance(t, Token)], c[-1], at=self.at(meta))

    # -------------------------------------------------------------------------------------- collections
    def tuple_expr(self, meta: Meta, c: list[n.Expr | None]) -> n.TupleExpr:
        return n.TupleExpr(_items(c), at=self.at(meta))

    def list_expr(self, meta: Meta, c: list[n.Expr | None]) -> n.ListExpr:
        return n.ListExpr(_items(c), at=self.at(meta))

    def set_expr(self, meta: Meta, c: list[n.Expr | None]) -> n.SetExpr:
        return n.SetExpr(_items(c), at=self.at(meta))

    def dict_expr(self, meta: Meta, c: list[n.Pair | None]) -> n.DictExpr:
        return n.DictExpr(_items(c), at=self.at(meta))

    def pair(self, meta: Meta, c: list[n.Expr]) -> n.Pair:
        return n.Pair(c[0], c[1], at=self.at(meta))

    def comp_for(self, meta: Meta, c: Children) -> n.ForClause:
        *names, iterable, condition = c
        return n.ForClause([t.value for t in names], iterable, condition, at=self.at(meta))

    def list_comp(self, meta: Meta, c: Children) -> n.Comprehension:
        return n.Comprehension("list", c[0], c[1:], at=self.at(meta))

    def set_comp(self, meta: Meta, c: Children) -> n.Comprehension:
        return n.Comprehension("set", c[0], c[1:], at=self.at(meta))

    def dict_comp(self, meta: Meta, c: Children) -> n.Comprehension:
        return n.Comprehension("dict", c[0], c[1:], at=self.at(meta))

    def gen_comp(self, meta: Meta, c: Children) -> n.Comprehension:
        return n.Comprehension("generator", c[0], c[1:], at=self.at(meta))

    # --------------------------------------------------------------------------------------- statements
    def let_stmt(self, meta: Meta, c: Children) -> n.Let:
        *names, value = c
        return n.Let([t.value for t in names], [self.at(t) for t in names], value, at=self.at(meta))

    def name_target(self, meta: Meta, c: list[Token]) -> n.NameTarget:
        return n.NameTarget(c[0].value, at=self.at(meta))

    def attr_target(self, meta: Meta, c: Children) -> n.AttrTarget:
        return n.AttrTarget(c[0], c[1].value, self.at(c[1]), at=self.at(meta))

    def assign_stmt(self, meta: Meta, c: Children) -> n.Assign:
        return n.Assign(c[0], None, c[1], at=self.at(meta))

    def aug_assign_stmt(self, meta: Meta, c: Children) -> n.Assign:
        return n.Assign(c[0], c[1].value[:-1], c[2], at=self.at(meta))

    def move_stmt(self, meta: Meta, c: Children) -> n.Move:
        return n.Move(c[0], c[1], c[2], c[3] is not None, at=self.at(meta))

    def shuffle_stmt(self, meta: Meta, c: list[n.Expr]) -> n.Shuffle:
        return n.Shuffle(c[0], at=self.at(meta))

    def show_stmt(self, meta: Meta, c: list[n.Expr]) -> n.Show:
        return n.Show(c[0], at=self.at(meta))

    def deal_stmt(self, meta: Meta, c: list[n.Expr | Token]) -> n.Deal:
        count, source, dests = c
        assert not isinstance(source, Token) and not isinstance(dests, Token)
        return n.Deal(None if isinstance(count, Token) else count, source, dests, at=self.at(meta))

    def ask_stmt(self, meta: Meta, c: Children) -> n.Ask:
        group, player, *moves = c
        return n.Ask(player, [t.value for t in moves], [self.at(t) for t in moves],
                     group.value.split()[0] if group is not None else None, at=self.at(meta))

    def end_stmt(self, meta: Meta, c: Children) -> n.EndGame:
        return n.EndGame(c[1], at=self.at(meta))

    def end_turn_stmt(self, meta: Meta, c: Children) -> n.Assign:
        """`end turn`: the move's effect sets its local that pass_turn reads (naipes.language.moves)."""
        at = self.at(meta)
        return n.set_local(n.ENDS_TURN, n.Constant(True, at=at), at)

    def goto_stmt(self, meta: Meta, c: Children) -> n.Goto:
        target, condition, otherwise = c
        return n.Goto(target.value, self.at(target), condition, otherwise.value if otherwise is not None else None,
                      self.at(otherwise) if otherwise is not None else None, at=self.at(meta))

    def refresh_stmt(self, meta: Meta, c: list[Token]) -> n.Refresh:
        return n.Refresh(c[0].value, self.at(c[0]), at=self.at(meta))

    def announce_stmt(self, meta: Meta, c: list[n.Expr]) -> n.Announce:
        return n.Announce(c, at=self.at(meta))

    def assert_stmt(self, meta: Meta, c: list[n.Expr]) -> n.AssertFact:
        return n.AssertFact(c[0], at=self.at(meta))

    def retract_stmt(self, meta: Meta, c: list[n.Expr]) -> n.Retract:
        return n.Retract(c[0], at=self.at(meta))

    def modify_stmt(self, meta: Meta, c: list[n.Expr]) -> n.Modify:
        return n.Modify(c[0], at=self.at(meta))

    def pass_stmt(self, meta: Meta, c: Children) -> n.Pass:
        return n.Pass(at=self.at(meta))

    def return_stmt(self, meta: Meta, c: list[n.Expr]) -> n.Return:
        return n.Return(c[0], at=self.at(meta))

    def suite(self, meta: Meta, c: list[n.Stmt]) -> list[n.Stmt]:
        return c

    def if_stmt(self, meta: Meta, c: Children) -> n.If:
        test, body, *branches = c
        return n.If(test, body, _items(branches), at=self.at(meta))

    def elif_clause(self, meta: Meta, c: Children) -> n.Branch:
        return n.Branch(c[0], c[1], at=self.at(meta))

    def else_clause(self, meta: Meta, c: list[list[n.Stmt]]) -> n.Branch:
        return n.Branch(None, c[0], at=self.at(meta))

    def for_stmt(self, meta: Meta, c: Children) -> n.For:
        *names, iterable, body = c
        return n.For([t.value for t in names], iterable, body, at=self.at(meta))
