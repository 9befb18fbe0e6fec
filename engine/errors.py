"""Errors that know where they come from.

Every mistake in a rule file is a :class:`RuleError` carrying a
:class:`Location`; the CLI prints it as ``file:line:col: message`` followed by
the offending source line and a caret, never as a Python traceback.

>>> err = RuleError("unknown name 'trmp'", Location("g.yaml", 3, 9), hint="did you mean 'trump'?")
>>> str(err).splitlines()[0]
"g.yaml:3:9: unknown name 'trmp'"
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

_sources: dict[str, list[str]] = {}
QUOTE_WIDTH = 100  # characters of a long source line shown around an error
# The characters a terminal or a page obeys rather than shows: every control character but the tab and the new
# line (an escape sequence that sets a terminal's title or moves its cursor), the line and paragraph separators, and
# Unicode's bidirectional overrides and isolates, which show the text around them in another order than it is
# written in (a move's label or a name that reads as another: the "Trojan Source" attack).
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with its control characters written as escapes (``\\x1b``, ``\\u202e``): what an error shows of a
    file's text.

    >>> printable("unknown section '\\x1b]0;title\\x07'")
    "unknown section '\\\\x1b]0;title\\\\x07'"
    >>> printable("card '\\u202e3o'")
    "card '\\\\u202e3o'"
    """
    return CONTROL.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def unshowable(text: object) -> str | None:
    """Why `text` cannot be shown as it is, if it is a text that cannot (None otherwise): a control character,
    which a terminal would obey, or half a character (a lone surrogate), which no UTF-8 log, terminal or page
    holds. A file, a log or a rule-file literal may hold neither."""
    if not isinstance(text, str):
        return None
    found = CONTROL.search(text)
    if found is not None:
        return f"a text holds the control character {printable(found.group())}, which a terminal obeys rather " \
               "than shows: leave it out"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a text holds an escape of half a character (a surrogate, '\\ud800' to '\\udfff'), which no " \
               "file or screen can show: write the character itself, or '\\U' and its eight hex digits"
    return None


def remember_source(filename: str, text: str) -> None:
    """Keep a file's text so that errors can quote the offending line."""
    _sources[filename] = text.splitlines()


@dataclass(frozen=True)
class Location:
    """A position in a rule file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def quote(self) -> str:
        """The source line with a caret under the column, or '' if unknown.

        A long line is cut to a window around the column, and control
        characters show as '?', so that a quote stays one readable line.
        """
        lines = _sources.get(self.file)
        if not lines or not 1 <= self.line <= len(lines):
            return ""
        text = "".join(c if c.isprintable() else "?" for c in lines[self.line - 1].rstrip("\n"))
        caret = max(self.col - 1, 0)
        if len(text) > QUOTE_WIDTH:
            start = max(0, min(caret - QUOTE_WIDTH // 2, len(text) - QUOTE_WIDTH))
            text = ("..." if start else "") + text[start:start + QUOTE_WIDTH] + \
                ("..." if start + QUOTE_WIDTH < len(text) else "")
            caret = caret - start + (3 if start else 0)
        return f"    {text}\n    {' ' * caret}^"


class NaipesError(Exception):
    """Base of every error Naipes reports to a user (shown with the control characters of a file's text escaped)."""

    def __str__(self) -> str:
        return printable(super().__str__())


class RuleError(NaipesError):
    """A mistake in a rule file, located at file:line:col."""

    def __init__(self, message: str, location: Location | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint

    def __str__(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        parts = [head]
        if self.location and (quote := self.location.quote()):
            parts.append(quote)
        if self.hint:
            parts.append(f"    hint: {self.hint}")
        return printable("\n".join(parts))


class RuleErrors(NaipesError):
    """Several rule-file errors found in one pass (``naipes check`` shows them all)."""

    def __init__(self, errors: Iterable[RuleError]):
        self.errors = list(errors)
        super().__init__(f"{len(self.errors)} error(s)")

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class GameError(RuleError):
    """A fault while a game runs: a failing action, a runaway cycle, a dead end."""


class ParamError(NaipesError):
    """A bad ``-p name=value`` or agent specification from the command line."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate, if one is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
